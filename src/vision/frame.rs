//! The whole vision pass for one frame: rectify the board, find the arms, read the squares
//! they leave in view. Set up once from the first frame of a game, where the position is known.

use opencv::core::Mat;
use opencv::prelude::*;
use shakmaty::Board;

use super::VisionError;
use super::cells::CellReader;
use super::hands::HandDetector;
use super::rectify::Rectifier;
use super::squares::SquareReader;
use crate::types::{BoardGeometry, ImageSide, Observation};

/// Pixels per square of the rectified board: the square reader's working size.
const PX: i32 = super::squares::CELL as i32;
/// How clearly the start position must show when the board is assumed to fill the frame.
const MIN_SEPARATION: f64 = 2.0;
/// Margin around the board, in squares, where arms are seen reaching in.
const MARGIN: f64 = 0.75;

pub struct Vision {
    pub geometry: BoardGeometry,
    /// Whether the squares' looks were learned from the first frame (false: the position was
    /// too sparse, and typical looks are used; the reading is less sure).
    pub learned: bool,
    rect: Rectifier,
    squares: SquareReader,
    hands: HandDetector,
}

/// The corner order for each way White can sit when the board fills the frame: a8, h8, h1, a1.
fn framed(w: f64, h: f64, white: ImageSide) -> [[f64; 2]; 4] {
    let (tl, tr, br, bl) = ([0.0, 0.0], [w, 0.0], [w, h], [0.0, h]);
    match white {
        ImageSide::Bottom => [tl, tr, br, bl],
        ImageSide::Top => [br, bl, tl, tr],
        ImageSide::Left => [tr, br, bl, tl],
        ImageSide::Right => [bl, tl, tr, br],
    }
}

/// The playing area alone, as the square reader takes it.
fn board_of(rect: &Rectifier, view: &Mat) -> Result<Mat, VisionError> {
    Ok(Mat::roi(view, rect.board_rect())?.try_clone()?)
}

impl Vision {
    /// Starts on `first`, a frame showing `known` with no hand over it. Without a geometry the
    /// board is found in the frame; failing that, it is taken to fill the frame (footage already
    /// cropped and straightened), turned the way the known position fits best.
    pub fn start(first: &Mat, geometry: Option<BoardGeometry>, known: &Board) -> Result<Vision, VisionError> {
        let found = match geometry {
            Some(g) => Some(g),
            None => super::geometry::find_board(first).ok(),
        };
        let geometry = match found {
            Some(g) => g,
            None => {
                let (w, h) = (first.cols() as f64, first.rows() as f64);
                let mut best: Option<(f64, BoardGeometry, CellReader)> = None;
                for white in [ImageSide::Bottom, ImageSide::Top, ImageSide::Left, ImageSide::Right] {
                    let g = BoardGeometry { corners: framed(w, h, white), white, h1_light: true };
                    let rect = Rectifier::new(&g, PX, 0.0)?;
                    let view = rect.warp(first)?;
                    // Learned on a turned board, the classes mix; the right turn fits tightest.
                    let reader = CellReader::learn(&rect, &view, known)?;
                    if !reader.white_is_lighter() {
                        continue;
                    }
                    let fit = reader.fit(&rect, &view, known)?;
                    if best.as_ref().is_none_or(|(f, _, _)| fit < *f) {
                        best = Some((fit, g, reader));
                    }
                }
                let (fit, g, reader) = best.ok_or_else(|| VisionError::NoBoard(String::new()))?;
                let separation = reader.separation(fit);
                if std::env::var_os("TOUCHMOVE_DEBUG").is_some() {
                    eprintln!("framed board: class separation {separation:.2}");
                }
                if separation < MIN_SEPARATION {
                    return Err(VisionError::NoBoard(format!(
                        " filling the frame (the squares do not show the start position: separation {separation:.1} < {MIN_SEPARATION})"
                    )));
                }
                g
            }
        };
        let rect = Rectifier::new(&geometry, PX, MARGIN)?;
        let view = rect.warp(first)?;
        // A position too sparse to show every look on both square colours (an endgame set up
        // with --fen) is read with typical looks, which then adapt to this board frame by frame.
        let (squares, learned) = match SquareReader::learn(&board_of(&rect, &view)?, known) {
            Ok(r) => (r, true),
            Err(VisionError::TooFewLooks(_)) => (SquareReader::typical(), false),
            Err(e) => return Err(e),
        };
        let pose = super::geometry::Pose::from_board(&geometry, first.cols() as f64, first.rows() as f64);
        let mut hands = HandDetector::with_pose(pose);
        hands.detect(&rect, &view)?;
        Ok(Vision { geometry, rect, squares, hands, learned })
    }

    /// What one frame shows.
    pub fn observe(&mut self, index: u64, t: f64, frame: &Mat) -> Result<Observation, VisionError> {
        let view = self.rect.warp(frame)?;
        let hands = self.hands.detect(&self.rect, &view)?;
        // Around an arm, parts of the hand the colour of the squares and the arm's shadow
        // escape the outline; a square next to a covered one is not trusted while it is there.
        let mut hidden = shakmaty::Bitboard::EMPTY;
        for sq in hands.iter().flat_map(|h| h.covers.iter().copied()) {
            hidden |= shakmaty::attacks::king_attacks(sq).with(sq);
        }
        let mut squares = self.squares.read_adapting(&board_of(&self.rect, &view)?)?;
        for sq in hidden {
            squares[usize::from(sq)] = crate::types::SquareObs::OCCLUDED;
        }
        Ok(Observation { frame: index, t, squares, hands, clock: None, board_lost: false })
    }
}
