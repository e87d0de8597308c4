//! The piece model through ONNX Runtime, and its reading of one game.
//!
//! The model ships inside the binary (`models/piece.onnx`, a few hundred kB), so nothing has to
//! be found at run time but ONNX Runtime itself; `TOUCHMOVE_PIECE_MODEL` points at another file
//! (a rebuilt model, or a test's damaged one). Every way this can fail is a [`ModelError`], one
//! sentence that says what to do; callers fall back on colour alone.
//!
//! [`PieceReader`] adapts the model to one game: the initial position shows every class on this
//! board (16 pawns, 4 of each minor piece and rook, both queens and kings, 32 empty squares), and
//! a square is read as the class of its nearest examples there.

use std::path::{Path, PathBuf};

use ort::session::Session;
use ort::value::Tensor;
use shakmaty::Board;

use super::{CLASSES, CROP, class_of};
use crate::vision::onnx::{self, RuntimeError};

/// Length of the model's embedding.
pub const EMBED: usize = 32;
/// The scale of the model's logits (cosine × SCALE), as trained.
const SCALE: f32 = 16.0;
/// The environment variable naming a model file to use instead of the shipped one.
pub const MODEL_VAR: &str = "TOUCHMOVE_PIECE_MODEL";

static SHIPPED: &[u8] = include_bytes!("../../../models/piece.onnx");

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("{0}; pieces are read by colour only")]
    Runtime(#[from] RuntimeError),
    #[error("{path}: cannot read the piece model ({reason}); unset {MODEL_VAR} to use the shipped one")]
    Unreadable { path: String, reason: String },
    #[error("the piece model ({model}) is damaged: {reason}; rebuild it with models/piece/rebuild.sh or unset {MODEL_VAR}")]
    Damaged { model: String, reason: String },
    /// The caller's mistake, not the model's: the floats handed in are not whole crops.
    #[error("{floats} floats are not whole {CROP}x{CROP} crops of 3 channels (a batch of {per} floats each)")]
    NotCrops { floats: usize, per: usize },
}

/// One square's reading: the most likely class, how sure, and every class's probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieceGuess {
    pub class: usize,
    pub confidence: f32,
    pub probabilities: [f32; CLASSES],
}

/// What the model makes of a batch of crops.
#[derive(Debug, Clone)]
pub struct Scores {
    pub embeddings: Vec<[f32; EMBED]>,
    pub logits: Vec<[f32; CLASSES]>,
}

pub struct PieceModel {
    session: Session,
    source: String,
    /// The trained class directions (unit length).
    classes: [[f32; EMBED]; CLASSES],
}

impl std::fmt::Debug for PieceModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PieceModel").field("source", &self.source).finish()
    }
}

impl PieceModel {
    /// The model to use: the file `TOUCHMOVE_PIECE_MODEL` names, else the shipped one.
    pub fn shipped() -> Result<PieceModel, ModelError> {
        match std::env::var_os(MODEL_VAR).filter(|v| !v.is_empty()) {
            Some(p) => PieceModel::from_file(&PathBuf::from(p)),
            None => PieceModel::from_bytes(SHIPPED, "built in".into()),
        }
    }

    pub fn from_file(path: &Path) -> Result<PieceModel, ModelError> {
        let bytes = std::fs::read(path).map_err(|e| ModelError::Unreadable { path: path.display().to_string(), reason: e.to_string() })?;
        PieceModel::from_bytes(&bytes, path.display().to_string())
    }

    fn from_bytes(bytes: &[u8], source: String) -> Result<PieceModel, ModelError> {
        let env = onnx::environment()?;
        let damaged = |reason: String| ModelError::Damaged { model: source.clone(), reason };
        // One thread: vision already runs a frame per core.
        let session = Session::builder(&env)
            .and_then(|b| b.with_intra_threads(1).map_err(Into::into))
            .and_then(|mut b| b.commit_from_memory(bytes))
            .map_err(|e| damaged(e.to_string()))?;
        let mut model = PieceModel { session, source: source.clone(), classes: [[0.0; EMBED]; CLASSES] };
        // A blank crop proves the outputs have the shapes this code reads, and gives the classes.
        let (_, classes) = model.infer(&vec![0.5; 3 * CROP * CROP])?;
        model.classes = classes;
        Ok(model)
    }

    /// Where the model came from ("built in", or the file's path).
    pub fn source(&self) -> &str {
        &self.source
    }

    fn infer(&mut self, crops: &[f32]) -> Result<(Scores, [[f32; EMBED]; CLASSES]), ModelError> {
        let source = self.source.clone();
        let damaged = |reason: String| ModelError::Damaged { model: source.clone(), reason };
        let per = 3 * CROP * CROP;
        let n = crops.len() / per;
        if n == 0 || crops.len() % per != 0 {
            return Err(ModelError::NotCrops { floats: crops.len(), per });
        }
        let input = Tensor::from_array(([n, 3, CROP, CROP], crops.to_vec())).map_err(|e| damaged(e.to_string()))?;
        let outputs = self.session.run(ort::inputs!["crops" => input]).map_err(|e| damaged(e.to_string()))?;
        // Each output as rows of its expected width, or why not.
        let rows = |name: &str, rows: usize| -> Result<Vec<f32>, ModelError> {
            let v = outputs.get(name).ok_or_else(|| damaged(format!("no output \"{name}\"")))?;
            let (shape, data) = v.try_extract_tensor::<f32>().map_err(|e| damaged(e.to_string()))?;
            let width = if name == "logits" { CLASSES } else { EMBED };
            if shape.iter().copied().collect::<Vec<i64>>() != [rows as i64, width as i64] {
                return Err(damaged(format!("output \"{name}\" has shape {shape:?}, expected [{rows}, {width}]")));
            }
            Ok(data.to_vec())
        };
        let (e, l, c) = (rows("embedding", n)?, rows("logits", n)?, rows("classes", CLASSES)?);
        let scores = Scores {
            embeddings: e.chunks_exact(EMBED).map(|r| std::array::from_fn(|j| r[j])).collect(),
            logits: l.chunks_exact(CLASSES).map(|r| std::array::from_fn(|j| r[j])).collect(),
        };
        let classes = std::array::from_fn(|k| std::array::from_fn(|j| c[k * EMBED + j]));
        Ok((scores, classes))
    }

    /// The model's embeddings and logits for `crops` (`[n, 3, CROP, CROP]`, as
    /// [`PieceCrops::cut`](super::PieceCrops::cut) gives them).
    pub fn run(&mut self, crops: &[f32]) -> Result<Scores, ModelError> {
        Ok(self.infer(crops)?.0)
    }
}

/// Likenesses (cosines) to probabilities at the trained scale, and the likeliest class.
fn softmax_guess(likeness: [f32; CLASSES]) -> PieceGuess {
    let top = likeness.iter().copied().fold(f32::MIN, f32::max);
    let exp = likeness.map(|s| (SCALE * (s - top)).exp());
    let sum: f32 = exp.iter().sum();
    let probabilities = exp.map(|x| x / sum);
    let class = (0..CLASSES).max_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b])).unwrap_or(0);
    PieceGuess { class, confidence: probabilities[class], probabilities }
}

fn dot(a: &[f32; EMBED], b: &[f32; EMBED]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The piece model adapted to one game's board and set.
///
/// A square is scored against each class by its nearest example of that class in this game's
/// initial position, or by the trained class direction where the position shows none. Nearest
/// examples rather than class means: a class's examples stand on different squares, seen from
/// different angles, and a mean of a piece seen from two sides looks like neither.
///
/// Two likenesses are blended: the model's embeddings, and the crops' own pixels (each crop
/// less its mean, at unit length — the hand-made path). Which serves better depends on the
/// board: on rendered boards the model, on real ones so far the pixels (the model was trained on
/// rendered pieces only). So the blend is chosen per game, by reading the initial position's own
/// pieces each against the others ([`BLENDS`], leave-one-out).
#[derive(Debug)]
pub struct PieceReader {
    model: PieceModel,
    examples: Vec<Example>,
    /// The model's share of the likeness (0: pixels only, 1: model only).
    blend: f32,
}

#[derive(Debug, Clone)]
struct Example {
    embedding: [f32; EMBED],
    pixels: Vec<f32>,
    class: usize,
}

/// The blends tried at learning, in order of preference when they read alike.
pub const BLENDS: [f32; 3] = [0.5, 1.0, 0.0];

/// Side of the crops as the pixels' likeness sees them: 16 pixels a square, the scale its figures
/// in `models/README.md` were measured at (finer pixels correlate less for a piece set a little
/// off its square's centre). The model reads the full crop.
const PIXEL_SIDE: usize = 32;

/// A crop averaged down to `PIXEL_SIDE`, less its mean, at unit length: its pixels' likeness to
/// another is their correlation.
fn pixels(crop: &[f32]) -> Vec<f32> {
    let k = CROP / PIXEL_SIDE;
    let mut pooled = vec![0f32; 3 * PIXEL_SIDE * PIXEL_SIDE];
    for (i, v) in crop.iter().enumerate().take(3 * CROP * CROP) {
        let (c, y, x) = (i / (CROP * CROP), (i / CROP) % CROP, i % CROP);
        pooled[(c * PIXEL_SIDE + y / k) * PIXEL_SIDE + x / k] += v / (k * k) as f32;
    }
    let mean = pooled.iter().sum::<f32>() / pooled.len() as f32;
    let mut v: Vec<f32> = pooled.iter().map(|x| x - mean).collect();
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 1e-9 {
        v.iter_mut().for_each(|x| *x /= n);
    }
    v
}

fn similarity(blend: f32, e: &[f32; EMBED], p: &[f32], x: &Example) -> f32 {
    let raw = if blend < 1.0 { p.iter().zip(&x.pixels).map(|(a, b)| a * b).sum::<f32>() } else { 0.0 };
    blend * dot(e, &x.embedding) + (1.0 - blend) * raw
}

impl PieceReader {
    /// Adapts `model` to the board whose 64 crops (a1 first) show `known`.
    pub fn learn(mut model: PieceModel, crops: &[f32], known: &Board) -> Result<PieceReader, ModelError> {
        let scores = model.run(crops)?;
        let per = 3 * CROP * CROP;
        let examples: Vec<Example> = shakmaty::Square::ALL
            .iter()
            .zip(&scores.embeddings)
            .zip(crops.chunks_exact(per))
            .map(|((sq, e), crop)| Example { embedding: *e, pixels: pixels(crop), class: class_of(known.piece_at(*sq)) })
            .collect();
        // Each piece read against the others of its colour; the blend that names most of them.
        // Only classes with a second example can be right at all (not the kings and queens).
        let count = |c: usize| examples.iter().filter(|x| x.class == c).count();
        let score = |blend: f32| {
            examples
                .iter()
                .enumerate()
                .filter(|(_, x)| x.class != 0 && count(x.class) > 1)
                .filter(|(i, x)| {
                    let white = x.class <= 6;
                    let best = examples
                        .iter()
                        .enumerate()
                        .filter(|(j, y)| j != i && y.class != 0 && (y.class <= 6) == white)
                        .max_by(|a, b| similarity(blend, &x.embedding, &x.pixels, a.1).total_cmp(&similarity(blend, &x.embedding, &x.pixels, b.1)));
                    best.is_some_and(|(_, y)| y.class == x.class)
                })
                .count()
        };
        let mut blend = BLENDS[0];
        let mut best = score(blend);
        for &b in &BLENDS[1..] {
            let s = score(b);
            if s > best {
                (blend, best) = (b, s);
            }
        }
        Ok(PieceReader { model, examples, blend })
    }

    /// The model alone, not adapted to any game (a position too sparse to learn from).
    pub fn unadapted(model: PieceModel) -> PieceReader {
        PieceReader { model, examples: Vec::new(), blend: 1.0 }
    }

    /// The model's share of the likeness chosen for this game (0: pixels only, 1: model only).
    pub fn blend(&self) -> f32 {
        self.blend
    }

    /// Each crop's class.
    pub fn read(&mut self, crops: &[f32]) -> Result<Vec<PieceGuess>, ModelError> {
        let scores = self.model.run(crops)?;
        let per = 3 * CROP * CROP;
        Ok(scores.embeddings.iter().zip(crops.chunks_exact(per)).map(|(e, crop)| self.guess(e, &pixels(crop))).collect())
    }

    /// Each crop's class by the trained head alone, this game's examples aside: for a piece the
    /// initial position has no example of on this board (a promoted piece in an endgame).
    pub fn read_trained(&mut self, crops: &[f32]) -> Result<Vec<PieceGuess>, ModelError> {
        let scores = self.model.run(crops)?;
        Ok(scores.logits.iter().map(|l| softmax_guess(l.map(|x| x / SCALE))).collect())
    }

    fn guess(&self, e: &[f32; EMBED], p: &[f32]) -> PieceGuess {
        let mut likeness: [f32; CLASSES] = std::array::from_fn(|c| dot(e, &self.model.classes[c]));
        let mut nearest = [f32::MIN; CLASSES];
        for x in &self.examples {
            nearest[x.class] = nearest[x.class].max(similarity(self.blend, e, p, x));
        }
        for c in 0..CLASSES {
            if nearest[c] > f32::MIN {
                likeness[c] = nearest[c];
            }
        }
        softmax_guess(likeness)
    }
}
