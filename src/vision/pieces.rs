//! Which piece stands on a square: the learned piece model's input and its classes.
//!
//! Colour alone carries most moves, but a promotion needs the new piece's type, the initial
//! set-up is checked piece by piece (7.2.1), and after an occlusion the pieces must be told
//! apart again. The model (`models/piece.onnx`, see `models/README.md`) reads one crop per
//! square and gives thirteen scores (empty, then White's and Black's pawn … king) and an
//! embedding; [`model::PieceReader`] turns the embedding into this game's classes with centres
//! learned from the known initial position, so a set the model was never trained on is still
//! told apart.
//!
//! The crop is perspective-aware: a piece's body stands above its square, and from an oblique
//! camera it leans away from the point under the camera, over the square behind it. Each crop
//! is a window two squares wide of the top-down view, centred halfway between the square's
//! centre and where a point one square above it is seen, so the body and head are in it.


pub mod model;
pub mod promotion;

use opencv::core::{Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;
use shakmaty::{Color, Piece, Role, Square};

use super::VisionError;
use super::geometry::Pose;
use super::rectify::Rectifier;
use crate::types::BoardGeometry;

/// Crop side in pixels (the model's input is `[n, 3, CROP, CROP]`).
pub const CROP: usize = 64;
/// Pixels per square in the crops: each crop spans two squares.
const PX: i32 = (CROP / 2) as i32;
/// The view is rectified at twice the crop's scale and halved by area, so that a board seen
/// large is averaged rather than sampled.
const OVERSAMPLE: i32 = 2;
/// Margin of the view around the playing area, in squares: an edge square's window reaches
/// half a square beyond the board, plus its lean.
const MARGIN: f64 = 1.0;
/// Height (in squares) of the point whose lean sets the window: about the middle of a tall
/// piece, the head of a pawn.
const LEAN_HEIGHT: f64 = 1.0;
/// The window never moves more than this (in squares) from the square's centre.
const MAX_SHIFT: f64 = 0.5;

/// The model's thirteen classes: 0 empty, 1–6 White's pawn, knight, bishop, rook, queen, king,
/// 7–12 Black's.
pub const CLASSES: usize = 13;
const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

/// The class of what stands on a square.
pub fn class_of(piece: Option<Piece>) -> usize {
    match piece {
        None => 0,
        Some(p) => {
            let r = ROLES.iter().position(|&r| r == p.role).unwrap_or(0);
            1 + r + if p.color == Color::Black { 6 } else { 0 }
        }
    }
}

/// What a class stands for (`None` for empty or a class out of range).
pub fn piece_of(class: usize) -> Option<Piece> {
    if class == 0 || class >= CLASSES {
        return None;
    }
    let color = if class > 6 { Color::Black } else { Color::White };
    Some(Piece { color, role: ROLES[(class - 1) % 6] })
}

/// Cuts the 64 squares' crops out of frames of one board seen from one place.
#[derive(Debug, Clone)]
pub struct PieceCrops {
    rect: Rectifier,
    /// Top-left corner of each square's window in the halved view, a1 first.
    origins: [[i32; 2]; 64],
}

impl PieceCrops {
    /// For a board at `g` in frames `width` × `height` pixels. A board filling the frame (an
    /// already straightened picture) gives the pose of a camera straight above, and windows
    /// centred on their squares.
    pub fn new(g: &BoardGeometry, width: f64, height: f64) -> Result<PieceCrops, VisionError> {
        let rect = Rectifier::new(g, PX * OVERSAMPLE, MARGIN)?;
        let pose = Pose::from_board(g, width, height);
        let mut origins = [[0; 2]; 64];
        for sq in Square::ALL {
            let cell = rect.cell(sq);
            let centre = [cell.x as f64 + cell.width as f64 / 2.0, cell.y as f64 + cell.height as f64 / 2.0];
            let shift = match pose {
                Some(p) => lean(&rect, &p, sq, centre),
                None => [0.0, 0.0],
            };
            // In halved-view pixels: the window's centre, then its corner.
            let scale = f64::from(OVERSAMPLE);
            let c = [(centre[0] + shift[0]) / scale, (centre[1] + shift[1]) / scale];
            origins[usize::from(sq)] = [(c[0] - PX as f64).round() as i32, (c[1] - PX as f64).round() as i32];
        }
        Ok(PieceCrops { rect, origins })
    }

    /// The 64 crops of `frame`, a1 first, as the model takes them: `[64, 3, CROP, CROP]`
    /// floats in 0–1, channels blue, green, red.
    pub fn cut(&self, frame: &Mat) -> Result<Vec<f32>, VisionError> {
        let view = self.rect.warp(frame)?;
        let mut half = Mat::default();
        let n = view.cols() / OVERSAMPLE;
        imgproc::resize(&view, &mut half, Size::new(n, n), 0.0, 0.0, imgproc::INTER_AREA)?;
        let half = super::geometry::bgr8(&half)?;
        let data = half.data_bytes()?;
        let (w, h) = (half.cols(), half.rows());
        let plane = CROP * CROP;
        let mut out = vec![0f32; 64 * 3 * plane];
        for (i, o) in self.origins.iter().enumerate() {
            let base = i * 3 * plane;
            for y in 0..CROP as i32 {
                // Windows are inside the view by construction (margin ≥ half a window plus the
                // largest shift); clamping keeps a rounding at the edge from reading outside.
                let sy = (o[1] + y).clamp(0, h - 1);
                for x in 0..CROP as i32 {
                    let sx = (o[0] + x).clamp(0, w - 1);
                    let p = ((sy * w + sx) * 3) as usize;
                    let q = (y as usize) * CROP + x as usize;
                    for c in 0..3 {
                        out[base + c * plane + q] = f32::from(data[p + c]) / 255.0;
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Where, in view pixels, a point `LEAN_HEIGHT` above the square's centre is seen relative to
/// the centre, halved (the window's centre goes halfway up the piece), at most `MAX_SHIFT`.
fn lean(rect: &Rectifier, pose: &Pose, sq: Square, centre: [f64; 2]) -> [f64; 2] {
    let (x, y) = (u32::from(sq.file()) as f64 + 0.5, u32::from(sq.rank()) as f64 + 0.5);
    let head = rect.from_image(pose.project(x, y, LEAN_HEIGHT));
    let d = [(head[0] - centre[0]) / 2.0, (head[1] - centre[1]) / 2.0];
    let limit = MAX_SHIFT * rect.px as f64;
    let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if !len.is_finite() {
        return [0.0, 0.0];
    }
    if len > limit { [d[0] * limit / len, d[1] * limit / len] } else { d }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ImageSide;
    use opencv::core;

    #[test]
    fn classes_go_both_ways() {
        assert_eq!(class_of(None), 0);
        for class in 1..CLASSES {
            assert_eq!(class_of(piece_of(class)), class);
        }
        assert_eq!(piece_of(4), Some(Piece { color: Color::White, role: Role::Rook }));
        assert_eq!(piece_of(12), Some(Piece { color: Color::Black, role: Role::King }));
        assert_eq!(piece_of(13), None);
    }

    #[test]
    fn windows_lean_away_from_the_point_under_the_camera() {
        // A board filling the frame gives a camera straight above its centre: a piece leans
        // outwards, the more the farther out it stands, the same way at opposite corners.
        let g = BoardGeometry { corners: [[0.0, 0.0], [400.0, 0.0], [400.0, 400.0], [0.0, 400.0]], white: ImageSide::Bottom, h1_light: true };
        let crops = PieceCrops::new(&g, 400.0, 400.0).unwrap();
        // Unshifted, a window's corner is half a square before its square (the margin is one).
        let shift = |sq: Square| {
            let o = crops.origins[usize::from(sq)];
            let (col, row) = (u32::from(sq.file()) as i32, 7 - u32::from(sq.rank()) as i32);
            [o[0] - (PX + col * PX - PX / 2), o[1] - (PX + row * PX - PX / 2)]
        };
        let (a8, h1, d5, e4) = (shift(Square::A8), shift(Square::H1), shift(Square::D5), shift(Square::E4));
        assert!(a8[0] < -1 && a8[1] < -1, "a8 leans up and left: {a8:?}");
        assert_eq!([-h1[0], -h1[1]], a8, "h1 leans as far the other way");
        assert!(d5[0].abs() <= 1 && d5[1].abs() <= 1 && e4[0].abs() <= 1 && e4[1].abs() <= 1, "{d5:?} {e4:?}");
    }

    #[test]
    fn crops_carry_the_square_they_are_cut_for() {
        // A white frame with one black square where e4 is: only crops whose window covers e4
        // see black, and e4's crop sees it in its middle.
        let mut img = Mat::new_rows_cols_with_default(400, 400, core::CV_8UC3, core::Scalar::all(255.0)).unwrap();
        imgproc::rectangle(&mut img, core::Rect::new(200, 200, 50, 50), core::Scalar::all(0.0), -1, imgproc::LINE_8, 0).unwrap();
        let g = BoardGeometry { corners: [[0.0, 0.0], [400.0, 0.0], [400.0, 400.0], [0.0, 400.0]], white: ImageSide::Bottom, h1_light: true };
        let crops = PieceCrops::new(&g, 400.0, 400.0).unwrap().cut(&img).unwrap();
        let plane = CROP * CROP;
        let at = |sq: Square, x: usize, y: usize| crops[usize::from(sq) * 3 * plane + y * CROP + x];
        assert!(at(Square::E4, CROP / 2, CROP / 2) < 0.1);
        assert!(at(Square::A1, CROP / 2, CROP / 2) > 0.9);
        assert!(at(Square::H8, CROP / 2, CROP / 2) > 0.9);
    }
}
