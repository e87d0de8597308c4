//! Which way round a board that fills the frame lies: each square's colour statistics (mean and
//! spread of its central part, in Lab) gathered into six classes — empty, White's piece,
//! Black's piece, each on a light and on a dark square — as the known start says they should
//! be. Turned right, the classes are tight and far apart; turned wrong, they mix.

use opencv::core::{self, Mat, Rect};
use opencv::imgproc;
use shakmaty::{Board, Color, Square};

use super::VisionError;
use super::rectify::Rectifier;

type Features = [f64; 6];

pub struct CellReader {
    /// Class means: [state][square colour], state 0 empty, 1 white, 2 black.
    means: [[Features; 2]; 3],
}

fn light(sq: Square) -> usize {
    usize::from(sq.is_light())
}

fn features(lab: &Mat, cell: Rect) -> Result<Features, VisionError> {
    // The central part: a piece's base sits there; the edges carry the neighbours' lean.
    let inner = Rect::new(cell.x + cell.width / 4, cell.y + cell.height / 4, cell.width / 2, cell.height / 2);
    let roi = Mat::roi(lab, inner)?;
    let mut mean = core::Scalar::default();
    let mut dev = core::Scalar::default();
    core::mean_std_dev(&roi, &mut mean, &mut dev, &core::no_array())?;
    Ok([mean[0], mean[1], mean[2], dev[0] * 2.0, dev[1] * 2.0, dev[2] * 2.0])
}

fn lab(view: &Mat) -> Result<Mat, VisionError> {
    let mut out = Mat::default();
    imgproc::cvt_color(view, &mut out, imgproc::COLOR_BGR2Lab, 0)?;
    Ok(out)
}

fn distance(a: &Features, b: &Features) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

impl CellReader {
    /// Learns from a view of the board standing as `known`.
    pub fn learn(rect: &Rectifier, view: &Mat, known: &Board) -> Result<CellReader, VisionError> {
        let lab = lab(view)?;
        let mut sums = [[([0.0; 6], 0usize); 2]; 3];
        for sq in Square::ALL {
            let state = match known.color_at(sq) {
                None => 0,
                Some(Color::White) => 1,
                Some(Color::Black) => 2,
            };
            let f = features(&lab, rect.cell(sq))?;
            let (sum, n) = &mut sums[state][light(sq)];
            for k in 0..6 {
                sum[k] += f[k];
            }
            *n += 1;
        }
        let mut means = [[[0.0; 6]; 2]; 3];
        for s in 0..3 {
            for l in 0..2 {
                let (sum, n) = sums[s][l];
                if n == 0 {
                    return Err(VisionError::Invalid("the known position must have empty squares and pieces of both colours on light and dark squares".into()));
                }
                means[s][l] = sum.map(|v| v / n as f64);
            }
        }
        Ok(CellReader { means })
    }

    /// Whether White's pieces came out lighter than Black's, as they are: a board turned half a
    /// round fits the start position just as tightly, with the colours swapped.
    pub fn white_is_lighter(&self) -> bool {
        self.means[1][0][0] + self.means[1][1][0] > self.means[2][0][0] + self.means[2][1][0]
    }

    /// How far apart the classes are, in units of `fit` (how tightly the known board fits
    /// them): large when the board was found and turned right, small when the squares are not
    /// where assumed.
    pub fn separation(&self, fit: f64) -> f64 {
        let mut closest = f64::INFINITY;
        for l in 0..2 {
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                closest = closest.min(distance(&self.means[a][l], &self.means[b][l]));
            }
        }
        closest / fit.max(1e-6)
    }

    /// How well a view fits a known board: the mean distance of each square to its class.
    pub fn fit(&self, rect: &Rectifier, view: &Mat, known: &Board) -> Result<f64, VisionError> {
        let lab = lab(view)?;
        let mut total = 0.0;
        for sq in Square::ALL {
            let state = match known.color_at(sq) {
                None => 0,
                Some(Color::White) => 1,
                Some(Color::Black) => 2,
            };
            total += distance(&features(&lab, rect.cell(sq))?, &self.means[state][light(sq)]);
        }
        Ok(total / 64.0)
    }
}

/// How well a view shows a sparse known position's occupancy: how far its occupied squares
/// stand from the look of its empty squares (by square colour), in units of the empty
/// squares' own spread. A position with too few pieces for [`CellReader`] (an endgame) still
/// tells a board turned half a round: its pieces would stand on squares that look empty.
pub fn occupancy_fit(rect: &Rectifier, view: &Mat, known: &Board) -> Result<f64, VisionError> {
    let lab = lab(view)?;
    let feats: Vec<Features> = Square::ALL.iter().map(|&sq| features(&lab, rect.cell(sq))).collect::<Result<_, _>>()?;
    let mut empty = [([0.0; 6], 0usize); 2];
    for sq in Square::ALL {
        if known.piece_at(sq).is_none() {
            let (sum, n) = &mut empty[light(sq)];
            for k in 0..6 {
                sum[k] += feats[usize::from(sq)][k];
            }
            *n += 1;
        }
    }
    let means = empty.map(|(sum, n)| sum.map(|v| v / n.max(1) as f64));
    let (mut occupied, mut vacant) = ((0.0, 0usize), (0.0, 0usize));
    for sq in Square::ALL {
        let d = distance(&feats[usize::from(sq)], &means[light(sq)]);
        let t = if known.piece_at(sq).is_some() { &mut occupied } else { &mut vacant };
        *t = (t.0 + d, t.1 + 1);
    }
    Ok((occupied.0 / occupied.1.max(1) as f64) / (vacant.0 / vacant.1.max(1) as f64 + 1.0))
}
