//! Reading the squares of a rectified board (a8 top-left, the playing area filling the image):
//! for each square, empty / white / black or occluded, with a confidence.
//!
//! Every board and set looks different (wood or vinyl, light or dark pieces, warm or cold
//! light), so nothing here is tuned to one look: [`SquareReader::learn`] fits a small
//! classifier to the board it is shown in a known position (the initial position gives 16
//! examples of each of empty, white and black on both light and dark squares), and
//! [`SquareReader::adapt`] keeps it in step with the light from readings it is sure of. The
//! measurements it classifies (`features`) are taken relative to the board's own colour,
//! re-estimated in every frame, so that a passing shadow or a drifting white balance moves
//! them little. A square whose numbers fit none of the three looks (an arm, a sleeve, a hand
//! hovering) is reported occluded rather than forced into one.

mod features;
mod memory;
mod straight;

use opencv::core::{Mat, Point2f, Scalar, Size, Vector};
use opencv::imgproc;
use shakmaty::{Board, Color, Square};

pub use features::CELL;
use features::{CENTRE_COVER, COLOUR, CORE_COVER, Frame, NF, PRESENCE, Signature, core_mask, is_light, measure, signatures};
pub use memory::SquareMemory;
pub use straight::{Straightened, find_straightened};

use crate::types::{ImageSide, SquareObs, SquareState};
use crate::vision::VisionError;

/// The three looks a square can have, in the order of the class table.
const LOOKS: [SquareState; 3] = [SquareState::Empty, SquareState::White, SquareState::Black];

/// The least spread each feature is given, whatever the learning frame showed: a look seen in
/// 16 clean squares of one frame varies more over a game (light, pieces set off-centre).
const FLOOR: [f32; NF] = [0.08, 0.08, 0.08, 0.08, 0.04, 0.08, 0.08, 0.08, 0.12, 0.1, 0.05];

/// How far (squared Mahalanobis distance, beyond what a square of that look typically shows)
/// a square may be from every look before it counts as hidden.
const OCCLUDED_BEYOND: f32 = 20.0;

/// The most a square's shape (the presence part of the distance) may differ from a piece's
/// for [`SquareReader::clearly_a_piece`]: twice what counts as hidden for the whole distance.
/// On `scholarsmate.avi` a white queen seen side-on at the picture's edge differs by 21–40, the
/// squares under arms by 47 (median).
const PIECE_SHAPE: f32 = 2.0 * OCCLUDED_BEYOND;
/// How many times nearer a piece's shape than an empty square's such a square must be: a
/// shadow or a mark on an empty square is as near to both.
const PIECE_CLEAR: f32 = 4.0;

/// How fast confident readings pull the looks along (per frame).
const ADAPT_RATE: f32 = 0.1;
/// Readings at least this sure move the looks.
const ADAPT_CONFIDENCE: f32 = 0.9;

/// The looks of a typical board, for reading without a known position to learn from: the
/// median of the looks learned on twelve rendered tables (`random_look` seeds 20–31, none of
/// them a test's), by square colour (dark, light) and look (empty, white, black).
const TYPICAL: [[[f32; NF]; 3]; 2] = [
    [
        [0.002, -0.01, 0.0, 0.0, 0.025, 0.061, -0.007, 0.001, 0.0, 0.0, 0.126],
        [0.97, 0.301, 0.053, 0.548, 0.264, 0.838, 0.323, 0.728, 0.492, 1.0, 1.05],
        [0.992, -1.296, 0.989, 0.0, 0.421, 0.44, -1.337, 0.792, 0.586, 1.0, 0.877],
    ],
    [
        [0.002, 0.014, 0.0, 0.0, 0.025, 0.056, 1.028, 0.002, 0.0, 0.0, 0.116],
        [0.974, -0.635, 0.872, 0.013, 0.134, 0.851, 0.346, 0.711, 0.469, 1.0, 1.187],
        [0.989, -2.257, 0.988, 0.0, 0.289, 0.755, -1.328, 0.786, 0.578, 1.0, 1.37],
    ],
];
/// How far those looks differ from table to table (standard deviation over the twelve). Real
/// tables differ more: the spread is doubled for them.
const TYPICAL_SPREAD: [f32; NF] = [0.031, 0.219, 0.131, 0.133, 0.066, 0.123, 0.215, 0.041, 0.071, 0.03, 0.116];

/// What this board and this set look like, learned from a known position.
#[derive(Debug, Clone)]
pub struct SquareReader {
    /// Mean features per square colour (dark, light) and look (empty, white, black).
    means: [[[f32; NF]; 3]; 2],
    /// Inverse covariance of the presence features, pooled over all looks.
    presence: [[f32; 8]; 8],
    /// Inverse covariance of the colour features, pooled over white and black.
    colour: [[f32; 3]; 3],
    measurer: Measurer,
}

/// What a board's picture measures, square by square, before it is read against the looks.
#[derive(Debug, Clone)]
pub struct Measured {
    features: Vec<Option<[f32; NF]>>,
    signatures: Vec<Option<Signature>>,
}

/// Measures boards' pictures as a [`SquareReader`] does. It needs nothing learned, only which
/// pixels of a square count and where the picture may end, so it can work ahead of the reader,
/// on another thread.
#[derive(Debug, Clone)]
pub struct Measurer {
    core: Vec<bool>,
    /// The sides of the rectified board the picture may end at (above, below, left, right).
    open: [bool; 4],
}

impl Measurer {
    /// The numbers a reader reads the 64 squares (a1 first) of a rectified board by.
    pub fn measure(&self, rectified: &Mat) -> Result<Measured, VisionError> {
        let frame = Frame::within(rectified, self.open)?;
        Ok(Measured { features: measure(&frame, &self.core), signatures: signatures(&frame) })
    }
}

/// One frame's reading with the measurements behind it, so that adapting costs nothing extra.
#[derive(Debug, Clone)]
pub struct Reading {
    /// 64 squares, a1 first.
    pub squares: Vec<SquareObs>,
    features: Vec<Option<[f32; NF]>>,
    /// What each square looks like, for [`SquareMemory`].
    signatures: Vec<Option<Signature>>,
}

fn look_of(board: &Board, sq: usize) -> usize {
    match board.piece_at(Square::new(sq as u32)) {
        None => 0,
        Some(p) if p.color == Color::White => 1,
        Some(_) => 2,
    }
}

fn invert<const N: usize>(m: [[f64; N]; N]) -> Option<[[f64; N]; N]> {
    let mut a = m;
    let mut inv: [[f64; N]; N] = std::array::from_fn(|i| std::array::from_fn(|j| (i == j) as u8 as f64));
    for col in 0..N {
        let pivot = (col..N).max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for k in 0..N {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for r in 0..N {
            if r != col {
                let f = a[r][col];
                for k in 0..N {
                    a[r][k] -= f * a[col][k];
                    inv[r][k] -= f * inv[col][k];
                }
            }
        }
    }
    Some(inv)
}

/// Sum of outer products of the chosen features about their look's mean, over the squares
/// `keep` picks; with how many there were.
fn scatter<const N: usize>(
    feats: &[Option<[f32; NF]>],
    looks: &[usize],
    means: &[[[f64; NF]; 3]; 2],
    pick: [usize; N],
    keep: impl Fn(usize) -> bool,
) -> ([[f64; N]; N], usize) {
    let mut sum = [[0.0f64; N]; N];
    let mut n = 0usize;
    for (sq, f) in feats.iter().enumerate() {
        let Some(f) = f else { continue };
        if !keep(sq) {
            continue;
        }
        let m = &means[is_light(sq) as usize][looks[sq]];
        for (i, &a) in pick.iter().enumerate() {
            for (j, &b) in pick.iter().enumerate() {
                sum[i][j] += (f[a] as f64 - m[a]) * (f[b] as f64 - m[b]);
            }
        }
        n += 1;
    }
    (sum, n)
}

/// Inverse of a covariance pooled over looks: its correlations shrunk towards none (16
/// examples a look cannot pin down every one) and each spread floored.
fn floored_inverse<const N: usize>(pooled: &[[f64; N]; N], pick: [usize; N]) -> Option<[[f32; N]; N]> {
    let cov: [[f64; N]; N] = std::array::from_fn(|i| {
        std::array::from_fn(|j| if i == j { pooled[i][i] + (FLOOR[pick[i]] as f64).powi(2) } else { 0.6 * pooled[i][j] })
    });
    invert(cov).map(|m| m.map(|r| r.map(|v| v as f32)))
}

/// Which piece look (1 white, 2 black) a square's colour alone is nearest, from its colour
/// terms (see [`SquareReader::colour_term`]). Part of how a piece fills its square says its
/// colour too (how much of it is darker than the board), but only as the pieces learned from
/// showed it: those of the first two ranks, seen from the side at the picture's edge on a camera
/// overhead. Where the whole look and the colour alone disagree, the piece is said to be of
/// colour untold, and the tracker tells whose it is from where pieces went
/// (scholarsMate2019-11-18.avi: the white queen on h5, seen from above, fit the black pieces'
/// look).
fn colour_alone(colour: &[f32; 3]) -> usize {
    if colour[1] <= colour[2] { 1 } else { 2 }
}

fn quadratic<const N: usize>(icov: &[[f32; N]; N], d: [f32; N]) -> f32 {
    (0..N).map(|i| d[i] * (0..N).map(|j| icov[i][j] * d[j]).sum::<f32>()).sum()
}

impl SquareReader {
    /// Learns this board's look from a rectified frame of it showing `known` (normally the
    /// initial position). Every look must be present on both square colours, twice at least.
    pub fn learn(rectified: &Mat, known: &Board) -> Result<SquareReader, VisionError> {
        SquareReader::learn_within(rectified, known, [true; 4])
    }

    /// [`learn`](Self::learn) from a board whose picture may end only at its `open` sides
    /// (see [`Frame::within`]); it is read so from then on.
    pub fn learn_within(rectified: &Mat, known: &Board, open: [bool; 4]) -> Result<SquareReader, VisionError> {
        let core = core_mask();
        let feats = measure(&Frame::within(rectified, open)?, &core);
        let mut sums = [[[0.0f64; NF]; 3]; 2];
        let mut counts = [[0usize; 3]; 2];
        for (sq, f) in feats.iter().enumerate() {
            let Some(f) = f else { continue };
            let (c, k) = (is_light(sq) as usize, look_of(known, sq));
            counts[c][k] += 1;
            for i in 0..NF {
                sums[c][k][i] += f[i] as f64;
            }
        }
        for (c, name) in [(0, "dark"), (1, "light")] {
            for (k, look) in ["empty", "white", "black"].iter().enumerate() {
                if counts[c][k] < 2 {
                    return Err(VisionError::TooFewLooks(format!("{} {look} {name} square(s) in the image", counts[c][k])));
                }
            }
        }
        let means: [[[f64; NF]; 3]; 2] = std::array::from_fn(|c| std::array::from_fn(|k| sums[c][k].map(|s| s / counts[c][k] as f64)));
        let looks: Vec<usize> = (0..64).map(|sq| look_of(known, sq)).collect();
        let degenerate = || VisionError::Invalid("cannot learn the board's look: its measurements are degenerate".into());
        fn pooled<const N: usize>((sum, n): ([[f64; N]; N], usize)) -> [[f64; N]; N] {
            let dof = n.saturating_sub(6).max(1) as f64;
            sum.map(|r| r.map(|v| v / dof))
        }
        let presence = floored_inverse(&pooled(scatter(&feats, &looks, &means, PRESENCE, |_| true)), PRESENCE).ok_or_else(degenerate)?;
        let pieces = pooled(scatter(&feats, &looks, &means, COLOUR, |sq| looks[sq] > 0));
        let colour = floored_inverse(&pieces, COLOUR).ok_or_else(degenerate)?;
        Ok(SquareReader { means: means.map(|c| c.map(|k| k.map(|v| v as f32))), presence, colour, measurer: Measurer { core, open } })
    }

    /// Reads boards whose picture may end only at their `open` sides from now on.
    pub fn within(self, open: [bool; 4]) -> SquareReader {
        SquareReader { measurer: Measurer { open, ..self.measurer }, ..self }
    }

    /// A reader for a board never seen in a known position: typical looks, with the spread
    /// between boards. Much less sure than one that has learned (see the crate's tests).
    pub fn typical() -> SquareReader {
        fn diagonal<const N: usize>(pick: [usize; N]) -> [[f32; N]; N] {
            std::array::from_fn(|i| std::array::from_fn(|j| if i == j { 1.0 / ((2.0 * TYPICAL_SPREAD[pick[i]]).powi(2) + FLOOR[pick[i]].powi(2)) } else { 0.0 }))
        }
        SquareReader { means: TYPICAL, presence: diagonal(PRESENCE), colour: diagonal(COLOUR), measurer: Measurer { core: core_mask(), open: [true; 4] } }
    }

    /// The squared Mahalanobis distance of a square's shape (how it fills the square, its
    /// outline) from a look's.
    fn shape_term(&self, f: &[f32; NF], light: bool, look: usize) -> f32 {
        let m = &self.means[light as usize][look];
        quadratic(&self.presence, PRESENCE.map(|i| f[i] - m[i]))
    }

    /// The squared Mahalanobis distance of a square's colour from a look's.
    fn colour_term(&self, f: &[f32; NF], light: bool, look: usize) -> f32 {
        let m = &self.means[light as usize][look];
        quadratic(&self.colour, COLOUR.map(|i| f[i] - m[i]))
    }

    /// How far a square's numbers are from a look, from its shape and colour terms: each less
    /// what a square of that look typically shows. An empty square's colour may confirm it but
    /// never count against it: the top of a neighbour leaning in gives it a colour that is not
    /// its own.
    fn combine(look: usize, shape: f32, colour: f32) -> f32 {
        let colour = if look == 0 { colour.min(COLOUR.len() as f32) } else { colour };
        shape - PRESENCE.len() as f32 + colour - COLOUR.len() as f32
    }

    fn distance(&self, f: &[f32; NF], light: bool, look: usize) -> f32 {
        Self::combine(look, self.shape_term(f, light, look), self.colour_term(f, light, look))
    }

    fn classify(&self, sq: usize, f: Option<&[f32; NF]>) -> SquareObs {
        let Some(f) = f else { return SquareObs::OCCLUDED };
        let light = is_light(sq);
        let colour: [f32; 3] = std::array::from_fn(|k| self.colour_term(f, light, k));
        let d: [f32; 3] = std::array::from_fn(|k| Self::combine(k, self.shape_term(f, light, k), colour[k]));
        let best = (0..3).min_by(|&a, &b| d[a].total_cmp(&d[b])).unwrap_or(0);
        if d[best] > OCCLUDED_BEYOND {
            let confidence = (0.5 + (d[best] - OCCLUDED_BEYOND) / (2.0 * OCCLUDED_BEYOND)).min(1.0);
            return SquareObs { state: SquareState::Occluded, confidence, role: None };
        }
        // Posterior among the three looks, lowered as the square drifts towards "none of them".
        let p: f32 = 1.0 / d.iter().map(|&x| (-(x - d[best]) / 2.0).exp()).sum::<f32>();
        let fit = ((OCCLUDED_BEYOND - d[best]) / OCCLUDED_BEYOND).clamp(0.0, 1.0);
        if best > 0 && colour_alone(&colour) != best {
            return SquareObs { state: SquareState::Piece, confidence: 0.5 * (0.5 + 0.5 * fit), role: None };
        }
        SquareObs { state: LOOKS[best], confidence: p * (0.5 + 0.5 * fit), role: None }
    }

    /// The look a square's numbers are nearest, however far they are from all three (`None`
    /// where nothing could be measured): for a square that nothing hides yet fits no look (a
    /// piece unlike the ones learned from, such as a knight promoted in a sparse position); a
    /// piece only where its base could stand, empty otherwise.
    pub fn nearest(&self, reading: &Reading, sq: usize) -> Option<SquareState> {
        let f = reading.features.get(sq)?.as_ref()?;
        let light = is_light(sq);
        let d: [f32; 3] = std::array::from_fn(|k| self.distance(f, light, k));
        let nearest = (0..3).min_by(|&a, &b| d[a].total_cmp(&d[b]))?;
        // A piece stands on its base, which covers the disc at the square's centre all round. A
        // square whose disc is mostly bare and one quarter of its very centre nearly so holds
        // none, however dark or light the rest of it: the head of a knight on the square in front
        // leaning over it (rendered game 425, a camera at Black's side: the empty b5 behind Nb6,
        // its disc two-fifths covered and its barest quarter a fifth, was read black, and 15...
        // Qxg5 went to b5). Either measure alone is not enough: a white queen on a light square,
        // seen from the side, leaves a quarter of the centre bare though the disc is four-fifths
        // covered; a white knight on a light square (rendered game 145, f3) shows the board's
        // colour through it, its disc two-fifths covered and each quarter 0.38-0.51.
        let between = |i: usize, share: f32| {
            let (bare, piece) = (self.means[light as usize][0][i], self.means[light as usize][nearest][i]);
            bare + share * (piece - bare)
        };
        let based = f[CORE_COVER] >= between(CORE_COVER, 0.5) || f[CENTRE_COVER] >= between(CENTRE_COVER, 1.0 / 3.0);
        Some(LOOKS[if nearest > 0 && !based { 0 } else { nearest }])
    }

    /// Whether something clearly stands on a square that fits no look (`None` where nothing
    /// could be measured): its shape (how it fills the square, its outline) fits a piece of
    /// either colour far better than an empty square, though its colour fits neither look well
    /// (a piece in deep shadow, or seen from the side at the picture's edge). Only the caller
    /// knows whether an arm is near; an arm fills the square to its rim, unlike a piece.
    pub fn clearly_a_piece(&self, reading: &Reading, sq: usize) -> Option<bool> {
        let f = reading.features.get(sq)?.as_ref()?;
        let shape = |k: usize| self.shape_term(f, is_light(sq), k);
        let (empty, piece) = (shape(0), shape(1).min(shape(2)));
        Some(piece <= PIECE_SHAPE && empty >= PIECE_CLEAR * piece.max(PRESENCE.len() as f32))
    }

    /// Reads the 64 squares (a1 first) of a rectified frame, with what it measured.
    pub fn analyse(&self, rectified: &Mat) -> Result<Reading, VisionError> {
        Ok(self.read_measured(self.measurer.measure(rectified)?))
    }

    /// What measures boards' pictures for this reader, anywhere.
    pub fn measurer(&self) -> &Measurer {
        &self.measurer
    }

    /// Reads the 64 squares from what [`Measurer::measure`] took of a board's picture.
    pub fn read_measured(&self, measured: Measured) -> Reading {
        let Measured { features, signatures } = measured;
        let squares = features.iter().enumerate().map(|(sq, f)| self.classify(sq, f.as_ref())).collect();
        Reading { squares, features, signatures }
    }

    /// Reads the 64 squares (a1 first) of a rectified frame.
    pub fn read(&self, rectified: &Mat) -> Result<Vec<SquareObs>, VisionError> {
        Ok(self.analyse(rectified)?.squares)
    }

    /// Moves the learned looks towards this frame's squares where `confident` (64, a1 first:
    /// the reading itself, or a board the caller knows) is sure of them; occluded and unsure
    /// squares teach nothing.
    pub fn adapt(&mut self, rectified: &Mat, confident: &[SquareObs]) -> Result<(), VisionError> {
        let reading = self.analyse(rectified)?;
        self.adapt_reading(&reading, confident);
        Ok(())
    }

    /// [`adapt`](Self::adapt) from a reading already made of the frame.
    pub fn adapt_reading(&mut self, reading: &Reading, confident: &[SquareObs]) {
        for (sq, (obs, f)) in confident.iter().zip(&reading.features).enumerate().take(64) {
            let (Some(f), Some(k)) = (f, LOOKS.iter().position(|&s| s == obs.state)) else { continue };
            if obs.confidence < ADAPT_CONFIDENCE {
                continue;
            }
            // A square far from its look (yet under the occlusion line) is more likely odd than
            // typical: it would drag the look towards hands.
            if self.distance(f, is_light(sq), k) > OCCLUDED_BEYOND / 2.0 {
                continue;
            }
            let m = &mut self.means[is_light(sq) as usize][k];
            for i in 0..NF {
                m[i] += ADAPT_RATE * (f[i] - m[i]);
            }
        }
    }

    /// Reads a frame and adapts to it from its own confident squares: the usual step when
    /// frames of one game come in order.
    pub fn read_adapting(&mut self, rectified: &Mat) -> Result<Vec<SquareObs>, VisionError> {
        Ok(self.analyse_adapting(rectified)?.squares)
    }

    /// [`read_adapting`](Self::read_adapting) with what was measured, for [`nearest`](Self::nearest).
    pub fn analyse_adapting(&mut self, rectified: &Mat) -> Result<Reading, VisionError> {
        let reading = self.analyse(rectified)?;
        let squares = reading.squares.clone();
        self.adapt_reading(&reading, &squares);
        Ok(reading)
    }
}

/// Which image edge White sits at, when a rectified view (read as if a8 were top-left) shows
/// the initial position: two full ranks along two opposite edges, four empty ranks between, the
/// lighter pieces on White's side. `None` when it does not look like the initial position.
pub fn initial_position_side(rectified: &Mat) -> Result<Option<ImageSide>, VisionError> {
    let feats = measure(&Frame::new(rectified)?, &core_mask());
    // By image row and column (row 0 at the top).
    let cell = |row: usize, col: usize| feats[(7 - row) * 8 + col];
    let mut best: Option<(f32, bool)> = None;
    for across_rows in [true, false] {
        let at = |band: usize, k: usize| if across_rows { cell(band, k) } else { cell(k, band) };
        // Per square colour (a wooden dark square has grain, a white one has none): how much
        // is not board, plus edges (a white piece on a white square shows only its outline).
        let (mut full, mut empty) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new()]);
        for band in 0..8 {
            for k in 0..8 {
                let light = (band + k) % 2 == 0;
                let occupied = at(band, k).map_or(0.0, |f| f[0] + f[5]);
                if matches!(band, 0 | 1 | 6 | 7) { full[light as usize].push(occupied) } else { empty[light as usize].push(occupied) }
            }
        }
        let sorted = |v: &[f32]| {
            let mut v = v.to_vec();
            v.sort_by(|a, b| a.total_cmp(b));
            v
        };
        let (f, e) = (sorted(&[full[0].clone(), full[1].clone()].concat())[16], sorted(&[empty[0].clone(), empty[1].clone()].concat())[16]);
        // Empty squares of one colour agree closely, pieces vary: the line is drawn a little
        // above most empty ones.
        let mut stray = 0;
        for c in 0..2 {
            let cut = 1.5 * sorted(&empty[c])[12] + 0.05;
            stray += full[c].iter().filter(|&&o| o < cut).count() + empty[c].iter().filter(|&&o| o >= cut).count();
        }
        // A hand or a piece set off its square may spoil a few squares, not the pattern.
        if f - e >= 0.3 && stray <= 3 && best.is_none_or(|b| f - e > b.0) {
            best = Some((f - e, across_rows));
        }
    }
    let Some((_, across_rows)) = best else { return Ok(None) };
    let lightness = |bands: [usize; 2]| {
        let v: Vec<f32> = bands
            .iter()
            .flat_map(|&b| (0..8).filter_map(move |k| if across_rows { cell(b, k) } else { cell(k, b) }))
            .map(|f| f[6])
            .collect();
        v.iter().sum::<f32>() / v.len().max(1) as f32
    };
    let (low, high) = (lightness([6, 7]), lightness([0, 1]));
    if (low - high).abs() < 0.2 {
        return Ok(None);
    }
    Ok(Some(match (across_rows, low > high) {
        (true, true) => ImageSide::Bottom,
        (true, false) => ImageSide::Top,
        (false, true) => ImageSide::Right,
        (false, false) => ImageSide::Left,
    }))
}

/// The board's corners at a8, h8, h1, a1 from its outline in the image (top-left, top-right,
/// bottom-right, bottom-left) and the edge White sits at.
pub fn corners_with_white_at(white: ImageSide, outline: [[f64; 2]; 4]) -> [[f64; 2]; 4] {
    let [tl, tr, br, bl] = outline;
    match white {
        ImageSide::Bottom => [tl, tr, br, bl],
        ImageSide::Top => [br, bl, tl, tr],
        // White at the left looks right: his left hand, the a-file, is towards the top.
        ImageSide::Left => [tr, br, bl, tl],
        ImageSide::Right => [bl, tl, tr, br],
    }
}

/// A top-down view of the board from its four corners in the image (a8, h8, h1, a1), a8 at the
/// top-left, `px_per_square` pixels a square; where the image ends the view is black, which
/// the reader takes as "no data". Stands in for `vision::geometry::rectify` until that lands.
pub(crate) fn rectify(image: &Mat, corners: &[[f64; 2]; 4], px_per_square: i32) -> Result<Mat, VisionError> {
    if corners.iter().flatten().any(|v| !v.is_finite()) {
        return Err(VisionError::Invalid("board corners must be finite numbers".into()));
    }
    let s = (8 * px_per_square.max(1)) as f32;
    let src: Vector<Point2f> = corners.iter().map(|p| Point2f::new(p[0] as f32, p[1] as f32)).collect();
    let dst: Vector<Point2f> = [[0.0, 0.0], [s, 0.0], [s, s], [0.0, s]].iter().map(|p: &[f32; 2]| Point2f::new(p[0], p[1])).collect();
    let m = imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU)?;
    let mut out = Mat::default();
    imgproc::warp_perspective(image, &mut out, &m, Size::new(s as i32, s as i32), imgproc::INTER_AREA, opencv::core::BORDER_CONSTANT, Scalar::all(0.0))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reading in which only `sq` was measured, as `f`.
    fn measured_only(sq: Square, f: [f32; NF]) -> Reading {
        let mut features = vec![None; 64];
        features[usize::from(sq)] = Some(f);
        Reading { squares: vec![SquareObs::OCCLUDED; 64], features, signatures: vec![None; 64] }
    }

    /// Squares that fit no look, as measured in rendered game 425 (seed 85, a camera at Black's
    /// side): the empty b5 with the head of the knight on b6 leaning over it (its centre's disc
    /// two-fifths covered, one quarter of the very centre a fifth), nearer a black piece than an
    /// empty square over all, read empty; the white queen on d1, a light square, whose top the
    /// board's colour leaves a quarter of the very centre bare, though the disc is four-fifths
    /// covered; and, from rendered game 145, a white knight on a light square only faintly seen
    /// all round. The last two stay pieces.
    #[test]
    fn the_nearest_look_is_a_piece_only_where_its_base_could_stand() {
        // The light squares' looks, and the spreads, as that game had learned them by then.
        let mut reader = SquareReader::typical();
        reader.presence = [
            [130.9, -7.8, -4.7, 4.1, -8.2, 1.3, -1.0, -6.8],
            [-7.8, 121.5, 1.8, 3.8, 2.2, 6.7, -2.7, 0.2],
            [-4.7, 1.8, 121.8, -1.1, -7.6, -4.3, 0.0, -8.4],
            [4.1, 3.8, -1.1, 27.0, 8.8, 2.3, -0.7, -3.8],
            [-8.2, 2.2, -7.6, 8.8, 107.3, -8.3, 2.4, -11.7],
            [1.3, 6.7, -4.3, 2.3, -8.3, 47.3, 2.5, -1.9],
            [-1.0, -2.7, 0.0, -0.7, 2.4, 2.5, 92.4, 2.7],
            [-6.8, 0.2, -8.4, -3.8, -11.7, -1.9, 2.7, 62.6],
        ];
        reader.colour = [[93.9, 9.6, -22.9], [9.6, 607.6, 6.4], [-22.9, 6.4, 97.0]];
        reader.means[1] = [
            [0.006, -0.03, 0.003, 0.0, 0.018, 0.021, 0.973, 0.012, 0.01, 0.0, 0.131],
            [0.942, -0.653, 0.835, 0.005, 0.099, 1.076, 0.34, 0.647, 0.315, 0.97, 1.298],
            [0.963, -2.332, 0.962, 0.0, 0.28, 1.04, -1.339, 0.689, 0.41, 1.0, 1.31],
        ];
        let b5 = [0.407, -2.091, 0.407, 0.0, 0.25, 1.603, -1.079, 0.278, 0.125, 0.179, 1.073];
        let reading = measured_only(Square::B5, b5);
        let by_distance = (0..3).min_by(|&a, &b| reader.distance(&b5, true, a).total_cmp(&reader.distance(&b5, true, b)));
        assert_eq!(by_distance, Some(2), "b5 is nearer a black piece over all");
        assert_eq!(reader.nearest(&reading, usize::from(Square::B5)), Some(SquareState::Empty));
        let d1 = [0.81, -0.503, 0.488, 0.0, 0.089, 0.799, 0.498, 0.739, 0.5, 0.282, 1.291];
        let reading = measured_only(Square::D1, d1);
        assert_eq!(reader.nearest(&reading, usize::from(Square::D1)), Some(SquareState::White));
        // A knight standing on the square covers its centre all round.
        let knight = [0.95, -2.0, 0.9, 0.0, 0.3, 1.6, -1.1, 0.8, 0.5, 0.95, 1.1];
        let reading = measured_only(Square::B5, knight);
        assert_eq!(reader.nearest(&reading, usize::from(Square::B5)), Some(SquareState::Black));
        // The white knight on f3 in rendered game 145 (a light square, in another game's look:
        // the means of b5's serve), its disc and centre only faintly covered all round.
        let faint = [0.41, -0.381, 0.286, 0.048, 0.069, 0.911, 0.65, 0.342, 0.25, 0.385, 1.115];
        let reading = measured_only(Square::F3, faint);
        assert_eq!(reader.nearest(&reading, usize::from(Square::F3)), Some(SquareState::White));
    }
}
