//! Board geometry: where the playing area is in the image, at which edge White sits, and
//! whether h1 is a light square (7.2.2).
//!
//! [`find_board`] works on a frame with pieces (and hands) on the board, from overhead or at
//! an angle: X-corners where four squares meet (`corners.rs`), the lattice through most of
//! them (`lattice.rs`), then the 8×8 block of that lattice that is the playing area, judged by
//! the alternating colours and where the corners lie (`extent.rs`). White's edge comes from
//! which end of the board holds the lighter pieces. [`fit_score`] says cheaply whether a
//! geometry still fits a later frame, so the pipeline can notice a bumped camera or board and
//! find it again. [`rectify`] gives the top-down board.

mod calibration;
mod corners;
mod extent;
mod homography;
mod lattice;
mod pose;

use opencv::core::{self, Mat, Point2f, Scalar, Size, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use shakmaty::{File, Rank, Square};

pub use calibration::{Calibration, WhiteFrom, load_calibration};
pub use homography::Homography;
pub use pose::Pose;

use super::VisionError;
use crate::types::{BoardGeometry, ImageSide};
use extent::Sampler;

/// The longer image side the search works at: squares of a board that fills a quarter of a
/// 720p frame stay ~30 px, enough for the corner ring, and a 4K photo costs no more than a
/// webcam frame.
const WORK_SIDE: f64 = 1000.0;
/// Fewer lattice corners than this is not a board (a 8×8 board with pieces on its first and
/// last two ranks still shows 7×3 inner corners).
const MIN_GRID_CORNERS: usize = 12;
/// Below this mean alternation the chosen block is not a chessboard (boards with pieces and
/// hands measured 0.8–1.1 on real and rendered frames).
const MIN_QUALITY: f64 = 0.5;

/// What [`locate_board`] found, with how sure it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardFind {
    pub geometry: BoardGeometry,
    /// White's edge was seen from the pieces (light pieces at one end, dark at the other).
    /// When not (an empty board, a few pieces), `geometry.white` is the edge, of the two for
    /// which h1 is light, nearer the bottom of the image (else the right), and
    /// `geometry.h1_light` is true by that choice.
    pub white_seen: bool,
    /// How clearly the squares alternate along rows and columns (about 1 for a clean board,
    /// 0.8 with pieces and arms; a little over 1 where the squares' contrast varies).
    pub quality: f64,
    /// How many grid corners the lattice was fitted through.
    pub grid_corners: usize,
}

/// The playing area's four outer corners (a8, h8, h1, a1), White's edge and whether h1 is
/// light, found in one frame. See [`locate_board`] for what is reported when the pieces do
/// not show White's side.
pub fn find_board(image: &Mat) -> Result<BoardGeometry, VisionError> {
    locate_board(image).map(|f| f.geometry)
}

/// An 8-bit BGR copy (or the image itself when it already is one and continuous).
pub(crate) fn bgr8(image: &Mat) -> Result<Mat, VisionError> {
    if image.empty() || image.cols() < 16 || image.rows() < 16 {
        return Err(VisionError::Invalid("the image is empty or too small".into()));
    }
    if image.depth() != core::CV_8U {
        return Err(VisionError::Invalid(format!("the image is not 8-bit (OpenCV depth {})", image.depth())));
    }
    let mut out = Mat::default();
    match image.channels() {
        3 if image.is_continuous() => return Ok(image.try_clone()?),
        3 => image.copy_to(&mut out)?,
        1 => imgproc::cvt_color(image, &mut out, imgproc::COLOR_GRAY2BGR, 0)?,
        4 => imgproc::cvt_color(image, &mut out, imgproc::COLOR_BGRA2BGR, 0)?,
        n => return Err(VisionError::Invalid(format!("the image has {n} channels (1, 3 or 4 expected)"))),
    }
    Ok(out)
}

/// [`find_board`] with how sure it is of what it found.
pub fn locate_board(image: &Mat) -> Result<BoardFind, VisionError> {
    let bgr = bgr8(image)?;
    let (w, h) = (bgr.cols(), bgr.rows());
    let s = (WORK_SIDE / w.max(h) as f64).min(1.0);
    let small = if s < 1.0 {
        let mut m = Mat::default();
        let size = Size::new(((w as f64 * s).round() as i32).max(1), ((h as f64 * s).round() as i32).max(1));
        imgproc::resize(&bgr, &mut m, size, 0.0, 0.0, imgproc::INTER_AREA)?;
        m
    } else {
        bgr
    };
    let (sx, sy) = (small.cols() as f64 / w as f64, small.rows() as f64 / h as f64);
    // Work pixels back to image pixels (pixel centres stay centres through the resize).
    let back = |p: [f64; 2]| [(p[0] + 0.5) / sx - 0.5, (p[1] + 0.5) / sy - 0.5];

    let mut gray = Mat::default();
    imgproc::cvt_color(&small, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
    let pts = corners::detect(&gray, 400)?;
    let lattices = lattice::find(&pts, MIN_GRID_CORNERS);
    if lattices.is_empty() {
        return Err(VisionError::NoBoard(format!(" (no grid of square corners among {} corner candidates)", pts.len())));
    }

    let mut f32img = Mat::default();
    small.convert_to(&mut f32img, core::CV_32FC3, 1.0, 0.0)?;
    let mut blurred = Mat::default();
    imgproc::gaussian_blur(&f32img, &mut blurred, Size::new(0, 0), 1.5, 1.5, core::BORDER_REFLECT)?;
    let sampler = Sampler { data: blurred.data_typed::<core::Vec3f>()?, w: blurred.cols() as usize, h: blurred.rows() as usize };
    let (lat, ext) = lattices
        .into_iter()
        .filter_map(|l| extent::choose(&sampler, &l).map(|e| (l, e)))
        .max_by(|a, b| a.1.quality.total_cmp(&b.1.quality))
        .ok_or_else(|| VisionError::NoBoard(" (the grid's squares do not alternate light and dark)".into()))?;
    if ext.quality < MIN_QUALITY {
        return Err(VisionError::NoBoard(format!(" (the best 8×8 block alternates too weakly: {:.2})", ext.quality)));
    }
    let pieces = extent::pieces(&sampler, &lat.h, &ext);

    // The block's corners in lattice terms, and its edges as corner pairs: 0 = u low,
    // 1 = u high, 2 = v low, 3 = v high.
    let (i0, j0) = (ext.i0 as f64, ext.j0 as f64);
    let lat_corner = [[i0, j0], [i0 + 8.0, j0], [i0 + 8.0, j0 + 8.0], [i0, j0 + 8.0]];
    let img = |p: [f64; 2]| back(lat.h.apply(p));
    let quad = lat_corner.map(img);
    let light_at = |c: usize| {
        // The square inside the block at corner c.
        let ci = if c == 1 || c == 2 { ext.i0 + 7 } else { ext.i0 };
        let cj = if c >= 2 { ext.j0 + 7 } else { ext.j0 };
        (ci + cj).rem_euclid(2) == ext.light_parity
    };
    let centre = img([i0 + 4.0, j0 + 4.0]);
    let arrange = |edge: usize| -> ([usize; 4], ImageSide) {
        const EDGE: [[usize; 2]; 4] = [[0, 3], [1, 2], [0, 1], [3, 2]];
        let across = |c: usize| if edge < 2 { [1, 0, 3, 2][c] } else { [3, 2, 1, 0][c] };
        let [a, b] = EDGE[edge];
        let mid = [(quad[a][0] + quad[b][0]) / 2.0, (quad[a][1] + quad[b][1]) / 2.0];
        // Facing the board from this edge, a1 is on the left (the image is seen from above,
        // not mirrored).
        let f = [centre[0] - mid[0], centre[1] - mid[1]];
        let left = [f[1], -f[0]];
        let on_left = |c: usize| (quad[c][0] - mid[0]) * left[0] + (quad[c][1] - mid[1]) * left[1];
        let (a1, h1) = if on_left(a) >= on_left(b) { (a, b) } else { (b, a) };
        ([across(a1), across(h1), h1, a1], image_side(mid, centre))
    };
    // Boards are nearly always set up with h1 light (7.2.2): pieces that put White where h1
    // would be dark count only when they show it beyond doubt (an initial position does; a
    // middlegame with an arm across it may not).
    let white_seen = pieces.seen && (pieces.strong || light_at(arrange(pieces.white_edge).0[2]));
    let edge = if white_seen {
        pieces.white_edge
    } else {
        // No side from the pieces: of the two edges that put a light square at White's right,
        // the one nearer the bottom of the image, else the right.
        let rank = |s: ImageSide| match s {
            ImageSide::Bottom => 0,
            ImageSide::Right => 1,
            ImageSide::Left => 2,
            ImageSide::Top => 3,
        };
        (0..4).filter(|&e| light_at(arrange(e).0[2])).min_by_key(|&e| rank(arrange(e).1)).unwrap_or(0)
    };
    let (order, white) = arrange(edge);
    let geometry = BoardGeometry { corners: order.map(|c| quad[c]), white, h1_light: light_at(order[2]) };
    Ok(BoardFind { geometry, white_seen, quality: ext.quality, grid_corners: lat.nodes.len() })
}

/// The image edge a board edge faces, seen from the board's centre.
fn image_side(mid: [f64; 2], centre: [f64; 2]) -> ImageSide {
    let (dx, dy) = (mid[0] - centre[0], mid[1] - centre[1]);
    if dy.abs() >= dx.abs() {
        if dy > 0.0 { ImageSide::Bottom } else { ImageSide::Top }
    } else if dx > 0.0 {
        ImageSide::Right
    } else {
        ImageSide::Left
    }
}

/// Board coordinates ↔ image pixels for one geometry. Board coordinates are in squares from
/// the playing area's a8 corner: x towards h8, y towards a1, so (8, 8) is the h1 corner and
/// the square on file f (0 = a), rank r (0 = 1) spans x ∈ [f, f+1], y ∈ [7−r, 8−r].
#[derive(Debug, Clone, Copy)]
pub struct BoardMap {
    to_image: Homography,
    to_board: Homography,
}

impl BoardMap {
    pub fn new(g: &BoardGeometry) -> Result<BoardMap, VisionError> {
        check_quad(&g.corners)?;
        let to_image = Homography::square_to_quad(8.0, &g.corners).ok_or_else(|| VisionError::Invalid("the corners do not form a board".into()))?;
        let to_board = to_image.inverse().ok_or_else(|| VisionError::Invalid("the corners do not form a board".into()))?;
        Ok(BoardMap { to_image, to_board })
    }

    pub fn to_image(&self, board: [f64; 2]) -> [f64; 2] {
        self.to_image.apply(board)
    }

    pub fn to_board(&self, pixel: [f64; 2]) -> [f64; 2] {
        self.to_board.apply(pixel)
    }

    /// The square under an image point, if it is on the playing area.
    pub fn square_at(&self, pixel: [f64; 2]) -> Option<Square> {
        let [x, y] = self.to_board(pixel);
        if !(0.0..8.0).contains(&x) || !(0.0..8.0).contains(&y) {
            return None;
        }
        Some(Square::from_coords(File::new(x as u32), Rank::new(7 - y as u32)))
    }

    /// Where a square's centre is in the image.
    pub fn square_centre(&self, sq: Square) -> [f64; 2] {
        let (f, r) = (u32::from(sq.file()) as f64, u32::from(sq.rank()) as f64);
        self.to_image([f + 0.5, 7.5 - r])
    }

    /// The homography from board coordinates to image pixels.
    pub fn homography(&self) -> Homography {
        self.to_image
    }
}

/// The corners must make a convex, clockwise-or-anticlockwise quadrilateral of some size.
fn check_quad(c: &[[f64; 2]; 4]) -> Result<(), VisionError> {
    if c.iter().flatten().any(|v| !v.is_finite()) {
        return Err(VisionError::Invalid("a corner is not a finite number".into()));
    }
    let cross: Vec<f64> = (0..4)
        .map(|k| {
            let (a, b, d) = (c[k], c[(k + 1) % 4], c[(k + 2) % 4]);
            (b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0])
        })
        .collect();
    let convex = cross.iter().all(|&x| x > 0.0) || cross.iter().all(|&x| x < 0.0);
    let area = 0.5 * (0..4).map(|k| c[k][0] * c[(k + 1) % 4][1] - c[(k + 1) % 4][0] * c[k][1]).sum::<f64>().abs();
    if !convex {
        return Err(VisionError::Invalid("the corners a8, h8, h1, a1 do not make a convex quadrilateral in that order".into()));
    }
    if area < 64.0 {
        return Err(VisionError::Invalid(format!("the board would be {area:.0} px² (at least one pixel a square is needed)")));
    }
    Ok(())
}

/// The top-down board: `8·px_per_square` pixels square, a8 at the top left, h1 at the bottom
/// right; the square on file f (0 = a), rank r (0 = 1) fills columns `f·p…(f+1)·p` and rows
/// `(7−r)·p…(8−r)·p`.
pub fn rectify(image: &Mat, g: &BoardGeometry, px_per_square: i32) -> Result<Mat, VisionError> {
    if !(1..=512).contains(&px_per_square) {
        return Err(VisionError::Invalid(format!("{px_per_square} pixels a square (1…512 expected)")));
    }
    if image.empty() {
        return Err(VisionError::Invalid("the image is empty".into()));
    }
    check_quad(&g.corners)?;
    let n = 8.0 * px_per_square as f32;
    // Pixel centres sit half a pixel inside the board's edge.
    let dst: Vector<Point2f> = [[-0.5, -0.5], [n - 0.5, -0.5], [n - 0.5, n - 0.5], [-0.5, n - 0.5]].iter().map(|p| Point2f::new(p[0], p[1])).collect();
    let src: Vector<Point2f> = g.corners.iter().map(|p| Point2f::new(p[0] as f32, p[1] as f32)).collect();
    let m = imgproc::get_perspective_transform(&src, &dst, core::DECOMP_LU)?;
    let mut out = Mat::default();
    let side = 8 * px_per_square;
    imgproc::warp_perspective(image, &mut out, &m, Size::new(side, side), imgproc::INTER_LINEAR, core::BORDER_CONSTANT, Scalar::all(0.0))?;
    Ok(out)
}

/// Grey level at a pixel of an 8-bit BGR image (bilinear), `None` off the image.
fn luma_at(data: &[u8], w: usize, h: usize, p: [f64; 2]) -> Option<f64> {
    let [x, y] = p;
    if !(x >= 0.0 && y >= 0.0 && x < w as f64 - 1.0 && y < h as f64 - 1.0) {
        return None;
    }
    let (x0, y0) = (x as usize, y as usize);
    let (fx, fy) = (x - x0 as f64, y - y0 as f64);
    let l = |xx: usize, yy: usize| {
        let i = (yy * w + xx) * 3;
        0.114 * data[i] as f64 + 0.587 * data[i + 1] as f64 + 0.299 * data[i + 2] as f64
    };
    let top = l(x0, y0) * (1.0 - fx) + l(x0 + 1, y0) * fx;
    let bottom = l(x0, y0 + 1) * (1.0 - fx) + l(x0 + 1, y0 + 1) * fx;
    Some(top * (1.0 - fy) + bottom * fy)
}

/// Below this [`fit_score`] the grid no longer fits: the camera or the board has moved. On
/// real games a fitting grid scored 0.61–0.89 with arms over the board, a moved board −0.25–0.10.
pub const FIT_SCORE_LOST: f64 = 0.3;

/// How well the geometry's grid still fits a frame: about 1 when every square shows where it
/// should with its colour, about 0 when the grid is off by half a square or more, negative
/// when light and dark are swapped (off by one square). Pieces and hands lower it somewhat; a
/// moved camera or board drops it below [`FIT_SCORE_LOST`]. Reads ~650 pixels (~30 µs).
/// An unusable image or geometry scores 0.
pub fn fit_score(image: &Mat, g: &BoardGeometry) -> f64 {
    fit_score_inner(image, g).unwrap_or(0.0)
}

fn fit_score_inner(image: &Mat, g: &BoardGeometry) -> Option<f64> {
    let map = BoardMap::new(g).ok()?;
    let owned;
    let img = if image.typ() == core::CV_8UC3 && image.is_continuous() {
        image
    } else {
        owned = bgr8(image).ok()?;
        &owned
    };
    let (w, h) = (img.cols() as usize, img.rows() as usize);
    let data = img.data_bytes().ok()?;
    let at = |x: f64, y: f64| luma_at(data, w, h, map.to_image([x, y]));
    // Light squares are those of a8's colour when h1 is light (a8 and h1 share a colour).
    let light = |c: usize, r: usize| (c + r).is_multiple_of(2) == g.h1_light;
    const INSET: [[f64; 2]; 4] = [[0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]];
    let v: [[[Option<f64>; 4]; 8]; 8] = std::array::from_fn(|c| std::array::from_fn(|r| INSET.map(|o| at(c as f64 + o[0], r as f64 + o[1]))));
    // Neighbouring squares, compared at the same corner, all four corners averaged: a grid
    // off by half a square still finds the right step at half of them, so taking the best
    // would hide the shift. Pieces over some corners lower the score, but evenly over time.
    let mut steps = Vec::with_capacity(112);
    let mut sizes = Vec::with_capacity(112);
    for c in 0..8 {
        for r in 0..8 {
            for (c2, r2) in [(c + 1, r), (c, r + 1)] {
                if c2 > 7 || r2 > 7 {
                    continue;
                }
                let sign = if light(c, r) { 1.0 } else { -1.0 };
                for (x, y) in v[c][r].iter().zip(&v[c2][r2]) {
                    if let (Some(a), Some(b)) = (x, y) {
                        steps.push((a - b) * sign);
                        sizes.push((a - b).abs());
                    }
                }
            }
        }
    }
    // Inner corners: the four squares around each, sampled close to it, must make an X of the
    // right phase; this notices shifts too small for the squares' corners.
    let mut xs = Vec::with_capacity(49);
    for c in 1..8 {
        for r in 1..8 {
            let d = 0.12;
            let q = [at(c as f64 - d, r as f64 - d), at(c as f64 + d, r as f64 + d), at(c as f64 + d, r as f64 - d), at(c as f64 - d, r as f64 + d)];
            if let [Some(a), Some(b), Some(x), Some(y)] = q {
                let sign = if light(c - 1, r - 1) { 1.0 } else { -1.0 };
                xs.push((a + b - x - y) * sign / 2.0);
            }
        }
    }
    if steps.len() < 112 {
        return None;
    }
    // The light–dark contrast: most steps on a fitting grid are full steps, so a high
    // quantile of their sizes (a median would halve when the grid is off).
    sizes.sort_by(|a, b| a.total_cmp(b));
    let scale = sizes[sizes.len() * 3 / 4];
    if scale < 4.0 {
        return Some(0.0);
    }
    let mean = |v: &[f64]| v.iter().map(|x| (x / scale).clamp(-1.0, 1.0)).sum::<f64>() / v.len().max(1) as f64;
    Some(0.5 * mean(&steps) + 0.5 * mean(&xs))
}

/// A geometry from corners given by hand (a8, h8, h1, a1): White sits at the a1–h1 edge, and
/// whether h1 is light is read from the image.
pub fn geometry_from_corners(image: &Mat, corners: [[f64; 2]; 4]) -> Result<BoardGeometry, VisionError> {
    check_quad(&corners)?;
    let img = bgr8(image)?;
    let map = BoardMap::new(&BoardGeometry { corners, white: ImageSide::Bottom, h1_light: true })?;
    let (w, h) = (img.cols() as usize, img.rows() as usize);
    let data = img.data_bytes()?;
    // Squares of h1's colour against the others, each read at its four inner corners.
    let mut sums = [0.0f64; 2];
    let mut counts = [0usize; 2];
    for c in 0..8 {
        for r in 0..8 {
            for o in [[0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]] {
                if let Some(l) = luma_at(data, w, h, map.to_image([c as f64 + o[0], r as f64 + o[1]])) {
                    sums[(c + r) % 2] += l;
                    counts[(c + r) % 2] += 1;
                }
            }
        }
    }
    if counts[0] == 0 || counts[1] == 0 {
        return Err(VisionError::Invalid("the corners lie outside the image".into()));
    }
    let h1_light = sums[0] / counts[0] as f64 >= sums[1] / counts[1] as f64;
    let mid = [(corners[2][0] + corners[3][0]) / 2.0, (corners[2][1] + corners[3][1]) / 2.0];
    let centre = map.to_image([4.0, 4.0]);
    Ok(BoardGeometry { corners, white: image_side(mid, centre), h1_light })
}

/// The same board with White at another image edge: the corners renamed (a1 stays at White's
/// left) and h1's colour read again from the image.
pub fn with_white(image: &Mat, g: &BoardGeometry, white: ImageSide) -> Result<BoardGeometry, VisionError> {
    check_quad(&g.corners)?;
    let c = g.corners;
    let centre = BoardMap::new(g)?.to_image([4.0, 4.0]);
    for k in 0..4 {
        let turned = [c[k], c[(k + 1) % 4], c[(k + 2) % 4], c[(k + 3) % 4]];
        let mid = [(turned[2][0] + turned[3][0]) / 2.0, (turned[2][1] + turned[3][1]) / 2.0];
        if image_side(mid, centre) == white {
            return geometry_from_corners(image, turned);
        }
    }
    Err(VisionError::Invalid(format!("no edge of the board faces the {} of the image", side_name(white))))
}

/// The contract's name of an image edge.
pub fn side_name(s: ImageSide) -> &'static str {
    match s {
        ImageSide::Bottom => "bottom",
        ImageSide::Top => "top",
        ImageSide::Left => "left",
        ImageSide::Right => "right",
    }
}
