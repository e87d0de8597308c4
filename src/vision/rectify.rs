//! The board seen from straight above, with a margin around it where arms reach in: the
//! homography from the four corners maps a8 to the top-left of the playing area and h1 to its
//! bottom-right, so White is always at the bottom whatever the camera.

use opencv::core::{self, Mat, Point2f, Rect, Scalar, Size, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use shakmaty::{File, Rank, Square};

use super::VisionError;
use crate::types::BoardGeometry;

mod maps;
pub(crate) use maps::SourceMaps;

#[derive(Debug, Clone)]
pub struct Rectifier {
    /// Pixels per square in the rectified image.
    pub px: i32,
    /// Margin around the playing area, in squares.
    pub margin: f64,
    to_board: Mat,
    to_image: Mat,
    size: Size,
    /// Where each pixel of the view comes from in the camera image, worked out once: a warp
    /// that works it out anew each frame takes about 1.7 times as long.
    maps: std::sync::OnceLock<SourceMaps>,
}

impl Rectifier {
    pub fn new(g: &BoardGeometry, px: i32, margin: f64) -> Result<Rectifier, VisionError> {
        let m = margin * px as f64;
        let side = 8.0 * px as f64;
        let dst: Vector<Point2f> = [[m, m], [m + side, m], [m + side, m + side], [m, m + side]].iter().map(|p| Point2f::new(p[0] as f32, p[1] as f32)).collect();
        let src: Vector<Point2f> = g.corners.iter().map(|p| Point2f::new(p[0] as f32, p[1] as f32)).collect();
        let to_board = imgproc::get_perspective_transform(&src, &dst, core::DECOMP_LU)?;
        let to_image = imgproc::get_perspective_transform(&dst, &src, core::DECOMP_LU)?;
        let n = (side + 2.0 * m).round() as i32;
        Ok(Rectifier { px, margin, to_board, to_image, size: Size::new(n, n), maps: std::sync::OnceLock::new() })
    }

    pub fn size(&self) -> Size {
        self.size
    }

    /// Which pixels of the view come from a picture of `size` (255) and which lie beyond its
    /// edge, filled by repeating it (0): where the board fills the picture, the margin round it.
    pub fn within_picture(&self, size: Size) -> Result<Mat, VisionError> {
        let all = Mat::new_size_with_default(size, core::CV_8UC1, Scalar::all(255.0))?;
        let mut out = Mat::default();
        imgproc::warp_perspective(&all, &mut out, &self.to_board, self.size, imgproc::INTER_NEAREST, core::BORDER_CONSTANT, Scalar::all(0.0))?;
        Ok(out)
    }

    /// Per side of the playing area (above it in the view, below, left, right): whether the
    /// picture may end there, that is whether the view just beyond that side is not wholly
    /// `within` it (what [`within_picture`](Self::within_picture) gives). Where a side is
    /// closed, pure black touching it is the scene's own (black pieces on the edge squares,
    /// crushed by a dim exposure), not the picture's end.
    pub fn open_sides(&self, within: &Mat) -> Result<[bool; 4], VisionError> {
        let b = self.board_rect();
        // A few pixels beyond the side, as far as the view reaches.
        let out = 3;
        let inside = |x: i32, y: i32| -> Result<bool, VisionError> {
            if x < 0 || y < 0 || x >= within.cols() || y >= within.rows() {
                return Ok(false);
            }
            Ok(*within.at_2d::<u8>(y, x)? > 0)
        };
        let along = |horizontal: bool, at: i32| -> Result<bool, VisionError> {
            let (start, len) = if horizontal { (b.x, b.width) } else { (b.y, b.height) };
            for k in (0..len).step_by(4) {
                let (x, y) = if horizontal { (start + k, at) } else { (at, start + k) };
                if !inside(x, y)? {
                    return Ok(true);
                }
            }
            Ok(false)
        };
        Ok([along(true, b.y - out)?, along(true, b.y + b.height - 1 + out)?, along(false, b.x - out)?, along(false, b.x + b.width - 1 + out)?])
    }

    /// The frame warped to the top-down view: what `warp_perspective` gives, to the bit.
    pub fn warp(&self, frame: &Mat) -> Result<Mat, VisionError> {
        let maps = match self.maps.get() {
            Some(m) => m,
            None => {
                let m = SourceMaps::new(&self.to_board, self.size)?;
                self.maps.get_or_init(|| m)
            }
        };
        maps.warp(frame)
    }

    /// The playing area within the rectified image.
    pub fn board_rect(&self) -> Rect {
        let m = (self.margin * self.px as f64).round() as i32;
        Rect::new(m, m, 8 * self.px, 8 * self.px)
    }

    /// The cell of a square within the rectified image.
    pub fn cell(&self, sq: Square) -> Rect {
        let b = self.board_rect();
        let col = u32::from(sq.file()) as i32;
        let row = 7 - u32::from(sq.rank()) as i32;
        Rect::new(b.x + col * self.px, b.y + row * self.px, self.px, self.px)
    }

    /// The square under a rectified pixel, if it is on the playing area.
    pub fn square_at(&self, x: f64, y: f64) -> Option<Square> {
        let b = self.board_rect();
        let (c, r) = (((x - b.x as f64) / self.px as f64).floor(), ((y - b.y as f64) / self.px as f64).floor());
        ((0.0..8.0).contains(&c) && (0.0..8.0).contains(&r)).then(|| Square::from_coords(File::new(c as u32), Rank::new(7 - r as u32)))
    }

    /// A rectified point in squares from a1's outer corner (file, rank).
    pub fn board_coords(&self, x: f64, y: f64) -> [f32; 2] {
        let b = self.board_rect();
        [((x - b.x as f64) / self.px as f64) as f32, (8.0 - (y - b.y as f64) / self.px as f64) as f32]
    }

    /// A rectified point back in the camera image.
    pub fn to_image(&self, x: f64, y: f64) -> [f64; 2] {
        apply(&self.to_image, x, y)
    }

    /// A camera image point in the rectified view (on the board's plane).
    pub fn from_image(&self, p: [f64; 2]) -> [f64; 2] {
        apply(&self.to_board, p[0], p[1])
    }
}

fn apply(m: &Mat, x: f64, y: f64) -> [f64; 2] {
    let m = m.data_typed::<f64>().unwrap_or(&[0.0; 9]);
    let w = m[6] * x + m[7] * y + m[8];
    [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ImageSide;

    #[test]
    fn corners_map_to_the_playing_area_and_back() {
        let g = BoardGeometry { corners: [[100.0, 50.0], [500.0, 80.0], [520.0, 460.0], [90.0, 430.0]], white: ImageSide::Bottom, h1_light: true };
        let r = Rectifier::new(&g, 40, 1.5).unwrap();
        assert_eq!(r.size(), Size::new(440, 440));
        let back = r.to_image(60.0, 60.0);
        assert!((back[0] - 100.0).abs() < 1e-6 && (back[1] - 50.0).abs() < 1e-6, "{back:?}");
        assert_eq!(r.square_at(61.0, 61.0), Some(Square::A8));
        assert_eq!(r.square_at(379.0, 379.0), Some(Square::H1));
        assert_eq!(r.square_at(10.0, 10.0), None);
        assert_eq!(r.cell(Square::A1), Rect::new(60, 340, 40, 40));
    }

    /// The picture may end only where the board comes within a few pixels of its edge: a board
    /// well inside it has no open side, a board filling it (a straightened picture) four, one
    /// against its top edge, in the view the side that edge is on.
    #[test]
    fn the_picture_may_end_only_where_the_board_reaches_its_edge() {
        let size = Size::new(640, 480);
        let sides = |corners: [[f64; 2]; 4], white: ImageSide| {
            let g = BoardGeometry { corners, white, h1_light: true };
            let r = Rectifier::new(&g, 32, 0.75).unwrap();
            r.open_sides(&r.within_picture(size).unwrap()).unwrap()
        };
        assert_eq!(sides([[140.0, 60.0], [500.0, 60.0], [500.0, 420.0], [140.0, 420.0]], ImageSide::Bottom), [false; 4]);
        assert_eq!(sides([[0.0, 0.0], [640.0, 0.0], [640.0, 480.0], [0.0, 480.0]], ImageSide::Bottom), [true; 4]);
        // a8, h8, h1, a1 with the board's top edge, rank 8, at the picture's top: the view's top.
        assert_eq!(sides([[140.0, 1.0], [500.0, 1.0], [500.0, 380.0], [140.0, 380.0]], ImageSide::Bottom), [true, false, false, false]);
        // White on the right: the h-file runs along the picture's top, the view's right side.
        assert_eq!(sides([[140.0, 379.0], [140.0, 1.0], [500.0, 1.0], [500.0, 379.0]], ImageSide::Right), [false, false, false, true]);
    }

    #[test]
    fn the_warp_is_warp_perspectives_to_the_bit() {
        // A picture with detail at every scale, and a slanted, foreshortened board.
        let mut frame = Mat::new_rows_cols_with_default(480, 640, core::CV_8UC3, Scalar::all(0.0)).unwrap();
        for (i, v) in frame.data_bytes_mut().unwrap().iter_mut().enumerate() {
            *v = ((i * 7919) % 251) as u8 ^ ((i / 1920) as u8);
        }
        let g = BoardGeometry { corners: [[150.0, 60.0], [480.0, 75.0], [600.0, 430.0], [40.0, 410.0]], white: ImageSide::Bottom, h1_light: true };
        for margin in [0.0, 0.75] {
            let r = Rectifier::new(&g, 32, margin).unwrap();
            let mut want = Mat::default();
            imgproc::warp_perspective(&frame, &mut want, &r.to_board, r.size, imgproc::INTER_LINEAR, core::BORDER_REPLICATE, Scalar::all(0.0)).unwrap();
            let got = r.warp(&frame).unwrap();
            assert_eq!(got.data_bytes().unwrap(), want.data_bytes().unwrap(), "margin {margin}");
            // And again, from the maps kept.
            assert_eq!(r.warp(&frame).unwrap().data_bytes().unwrap(), want.data_bytes().unwrap());
        }
    }
}
