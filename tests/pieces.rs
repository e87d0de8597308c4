//! The piece model (`models/piece.onnx`) through ONNX Runtime: its export proven against the
//! training framework's own outputs, its failures one sentence, and its reading of real boards
//! (`../shared/real/`, never copied into the project) measured.

mod common;

use std::collections::BTreeMap;

use shakmaty::{Board, Square};
use touchmove::types::{BoardGeometry, ImageSide};
use touchmove::vision::pieces::model::{ModelError, PieceGuess, PieceModel, PieceReader};
use touchmove::vision::pieces::{CLASSES, CROP, PieceCrops, class_of};

use common::{bgu_game, chess_ray, load};

fn models() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models")
}

/// The sixteen-odd crops `models/piece/train.py` kept aside, and what PyTorch made of them:
/// ONNX Runtime must give the same numbers, so the export is what was trained.
#[test]
fn the_shipped_model_gives_what_pytorch_gave() {
    let dir = models().join("piece");
    let bytes = std::fs::read(dir.join("reference.u8")).unwrap();
    let reference: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("reference.json")).unwrap()).unwrap();
    let n = reference["n"].as_u64().unwrap() as usize;
    assert_eq!(bytes.len(), n * 3 * CROP * CROP);
    let crops: Vec<f32> = bytes.iter().map(|&b| f32::from(b) / 255.0).collect();
    let mut model = PieceModel::shipped().unwrap();
    let scores = model.run(&crops).unwrap();
    let mut worst = (0f32, 0f32);
    for i in 0..n {
        for (j, want) in reference["embedding"][i].as_array().unwrap().iter().enumerate() {
            worst.0 = worst.0.max((scores.embeddings[i][j] - want.as_f64().unwrap() as f32).abs());
        }
        for (j, want) in reference["logits"][i].as_array().unwrap().iter().enumerate() {
            worst.1 = worst.1.max((scores.logits[i][j] - want.as_f64().unwrap() as f32).abs());
        }
    }
    println!("largest difference from PyTorch: embedding {:.2e}, logits {:.2e}", worst.0, worst.1);
    assert!(worst.0 < 1e-4 && worst.1 < 2e-3, "{worst:?}");
}

#[test]
fn a_damaged_model_is_one_sentence_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.onnx");
    std::fs::write(&garbage, b"this is not an ONNX model").unwrap();
    let shipped = std::fs::read(models().join("piece.onnx")).unwrap();
    let truncated = dir.path().join("truncated.onnx");
    std::fs::write(&truncated, &shipped[..shipped.len() / 2]).unwrap();
    for path in [&garbage, &truncated] {
        let e = PieceModel::from_file(path).unwrap_err();
        assert!(matches!(e, ModelError::Damaged { .. }), "{e:?}");
        let text = e.to_string();
        assert!(text.contains("damaged") && text.contains("rebuild.sh") && !text.contains('\n'), "{text}");
    }
    let e = PieceModel::from_file(&dir.path().join("absent.onnx")).unwrap_err();
    assert!(matches!(e, ModelError::Unreadable { .. }), "{e:?}");
    assert!(e.to_string().contains("absent.onnx"), "{e}");
}

/// Crops of the wrong size are the caller's mistake, refused in one sentence that does not
/// blame the model; whole crops of the same model are read.
#[test]
fn crops_of_the_wrong_size_are_refused_without_blaming_the_model() {
    let mut model = PieceModel::shipped().unwrap();
    for floats in [0, 100, 3 * 32 * 32 + 1] {
        let e = model.run(&vec![0.5; floats]).unwrap_err();
        assert!(matches!(e, ModelError::NotCrops { .. }), "{floats}: {e:?}");
        assert!(e.to_string().contains("not whole") && !e.to_string().contains("damaged"), "{e}");
    }
    assert_eq!(model.run(&vec![0.5; 2 * 3 * CROP * CROP]).unwrap().logits.len(), 2);
}

/// Per class: (right, seen); and which class was taken for which.
#[derive(Default)]
struct Identity {
    right: [usize; CLASSES],
    seen: [usize; CLASSES],
    confusions: BTreeMap<String, usize>,
}

const NAMES: [&str; CLASSES] = ["-", "P", "N", "B", "R", "Q", "K", "p", "n", "b", "r", "q", "k"];

impl Identity {
    fn add(&mut self, read: &[usize], truth: &Board) {
        for sq in Square::ALL {
            let want = class_of(truth.piece_at(sq));
            let got = read[usize::from(sq)];
            self.seen[want] += 1;
            if got == want {
                self.right[want] += 1;
            } else {
                *self.confusions.entry(format!("{}→{}", NAMES[want], NAMES[got])).or_default() += 1;
            }
        }
    }

    /// Share right on occupied squares.
    fn pieces(&self) -> f64 {
        let right: usize = self.right[1..].iter().sum();
        let seen: usize = self.seen[1..].iter().sum();
        right as f64 / seen.max(1) as f64
    }

    fn report(&self, what: &str) {
        let per: Vec<String> = (0..CLASSES).map(|c| format!("{} {}/{}", NAMES[c], self.right[c], self.seen[c])).collect();
        println!("{what}: piece identity right on {:.1} % of occupied squares; {}", 100.0 * self.pieces(), per.join(", "));
        let mut worst: Vec<_> = self.confusions.iter().collect();
        worst.sort_by(|a, b| b.1.cmp(a.1));
        println!("  most confused: {:?}", &worst[..worst.len().min(10)]);
    }
}

/// Each square's class with its colour taken as known (the square reader tells colour; the
/// model is asked for the type): the likeliest of that colour's six classes.
fn typed(guesses: &[PieceGuess], truth: &Board) -> Vec<usize> {
    Square::ALL
        .iter()
        .zip(guesses)
        .map(|(&sq, g)| match truth.piece_at(sq) {
            None => 0,
            Some(p) => {
                let first = if p.color == shakmaty::Color::White { 1 } else { 7 };
                (first..first + 6).max_by(|&a, &b| g.probabilities[a].total_cmp(&g.probabilities[b])).unwrap()
            }
        })
        .collect()
}

fn framed(w: f64, h: f64) -> BoardGeometry {
    BoardGeometry { corners: [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]], white: ImageSide::Bottom, h1_light: true }
}

fn read_bgu(n: u32) -> Identity {
    let frames = bgu_game(n);
    let first = load(&frames[0].0);
    let cutter = PieceCrops::new(&framed(first.cols() as f64, first.rows() as f64), first.cols() as f64, first.rows() as f64).unwrap();
    let mut reader = PieceReader::learn(PieceModel::shipped().unwrap(), &cutter.cut(&first).unwrap(), &frames[0].1).unwrap();
    println!("bgu game {n}: the model's share of the likeness chosen {}", reader.blend());
    let mut t = Identity::default();
    for (path, board) in &frames[1..] {
        let guesses = reader.read(&cutter.cut(&load(path)).unwrap()).unwrap();
        t.add(&typed(&guesses, board), board);
    }
    t
}

use opencv::prelude::MatTraitConst;

/// The bgu games, each read frame by frame after its initial-position frame (what the reader
/// adapts to), each piece's colour taken as known (the square reader's job) and its type asked
/// of the piece reader. Issue #7 asks for 97 % on occupied squares; today's reader reaches 60 %
/// (pawns mostly right, the other pieces a quarter): this floor keeps a worse reader from
/// landing unnoticed, and the figure printed is the one to raise. The reader of 32-pixel crops
/// reached 72 % here; the 64-pixel model that replaced it names promoted pieces and reads the
/// phone photos below far better, and loses this much here (`models/README.md`).
#[test]
fn bgu_games_2_and_7_piece_identity() {
    let mut all = Identity::default();
    for n in [2, 7] {
        let t = read_bgu(n);
        t.report(&format!("bgu game {n}"));
        for c in 0..CLASSES {
            all.right[c] += t.right[c];
            all.seen[c] += t.seen[c];
        }
    }
    all.report("bgu games 2 and 7");
    assert!(all.pieces() >= 0.58, "{:.3}", all.pieces());
}

/// The phone photos, read with the initial-position photo (img13) first, colour taken as known:
/// how many squares of each board's FEN are read wrong. Issue #7 asks for at most 2; today's
/// reader gets 96.6 % of the pieces, up to 3 wrong on a board (86 %, up to 10, with 32-pixel
/// crops; floors as above).
#[test]
fn chess_ray_vision_boards_read_to_their_fen() {
    use touchmove::vision::squares::{corners_with_white_at, find_straightened};
    let photos = chess_ray();
    let (first, initial) = photos.iter().find(|(p, _)| p.ends_with("img13.png")).unwrap();
    let img = load(first);
    let size = |m: &opencv::core::Mat| (m.cols() as f64, m.rows() as f64);
    let cut = |m: &opencv::core::Mat| {
        let grid = find_straightened(m).unwrap().expect("a straightened board");
        let g = BoardGeometry { corners: corners_with_white_at(ImageSide::Left, grid.corners), white: ImageSide::Left, h1_light: true };
        let (w, h) = size(m);
        PieceCrops::new(&g, w, h).unwrap().cut(m).unwrap()
    };
    let mut reader = PieceReader::learn(PieceModel::shipped().unwrap(), &cut(&img), initial).unwrap();
    println!("chess-ray-vision: the model's share of the likeness chosen {}", reader.blend());
    let mut t = Identity::default();
    let mut wrong_per_board = Vec::new();
    for (path, board) in &photos {
        let guesses = reader.read(&cut(&load(path))).unwrap();
        let read = typed(&guesses, board);
        let wrong = Square::ALL.iter().filter(|&&sq| read[usize::from(sq)] != class_of(board.piece_at(sq))).count();
        wrong_per_board.push(wrong);
        t.add(&read, board);
    }
    t.report("chess-ray-vision warped");
    println!("  squares wrong per board: {wrong_per_board:?}");
    assert!(t.pieces() >= 0.95 && wrong_per_board.iter().all(|&w| w <= 4), "{:.3} {wrong_per_board:?}", t.pieces());
}

/// The cells of a placement line `touchmove board` prints, a8 first as FEN lists them: a piece's
/// letter, '.' for an empty square, '?' for one not seen.
fn cells_a8_first(line: &str) -> Vec<char> {
    line.split('/').flat_map(|rank| rank.chars().flat_map(|c| match c.to_digit(10) { Some(n) => vec!['.'; n as usize], None => vec![c] })).collect()
}

/// The bgu games through `touchmove board`, each game's images in order after its initial
/// position: the game is followed move by move from the squares' colours (`rules::follow`), so
/// the game names the pieces; the piece reader's names only break ties and fill squares read
/// otherwise than the game stands. Issue #7 asks for 97 % on occupied squares; 97.3 % here
/// (the piece reader alone: 60 %, above). The floor leaves room for a machine whose ONNX
/// Runtime rounds a tie the other way.
#[test]
fn bgu_games_2_and_7_piece_identity_following_the_game() {
    let (mut right, mut occupied) = (0usize, 0usize);
    for n in [2, 7] {
        let frames = bgu_game(n);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_touchmove")).arg("board").args(frames.iter().map(|(p, _)| p)).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), frames.len());
        let (mut r, mut o) = (0, 0);
        for ((_, board), line) in frames.iter().zip(&lines).skip(1) {
            let truth = cells_a8_first(&board.board_fen().to_string());
            for (want, got) in truth.iter().zip(cells_a8_first(line)) {
                if *want != '.' {
                    o += 1;
                    r += usize::from(*want == got);
                }
            }
        }
        println!("bgu game {n} through touchmove board: piece identity right on {:.1} % of occupied squares ({r}/{o})", 100.0 * r as f64 / o as f64);
        right += r;
        occupied += o;
    }
    let share = right as f64 / occupied as f64;
    println!("bgu games 2 and 7 through touchmove board: {:.1} %", 100.0 * share);
    assert!(share >= 0.96, "{:.3}", share);
}
