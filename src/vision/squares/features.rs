//! What one rectified frame shows in each square, as numbers a per-board classifier can use.
//!
//! Everything is measured against the board itself, found again in every frame: a smooth
//! model of the light and of the dark squares' colour (a robust quadratic over the board, from
//! small patches at the edge of every square, where pieces rarely stand), scaled square by
//! square by the local brightness (a drifting shadow). A square's numbers then say how much of
//! its centre is not board, whether that is darker or lighter than the board, and how much edge
//! it has; light drift and uneven light cancel out of them.

use opencv::core::{self, Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;

use crate::vision::VisionError;

/// Pixels per square of the working image: enough for a pawn's outline, cheap to scan.
pub const CELL: usize = 32;
pub const SIDE: usize = 8 * CELL;
/// Number of features per square: first whether something stands there and how it fills the
/// square ([`PRESENCE`]), then what colour that something is ([`COLOUR`]).
pub const NF: usize = 11;
/// Features that say whether the square holds something: how much of its centre is not board,
/// darker or lighter than board, edge strength, how much of the whole square and of its edge
/// is not board, how evenly the very centre is covered, and edge strength over the whole
/// square (a white piece on a white square shows little but its outline, at the rim of its
/// base).
pub const PRESENCE: [usize; 8] = [0, 2, 3, 5, 7, 8, 9, 10];
/// Features that say what colour it is: lightness and colour of the non-board pixels only, so
/// that a piece partly off its centre keeps its colour instead of blending with the board.
pub const COLOUR: [usize; 3] = [1, 4, 6];
/// The feature that says how much of the disc at the square's centre, where a piece's base
/// stands, is not board.
pub const CORE_COVER: usize = 0;
/// The feature that says how evenly the very centre is covered (the least covered of its four
/// quarters): a piece's base covers all four, the head of a neighbour leaning in one side only.
pub const CENTRE_COVER: usize = 9;
/// Side of the patches that sample the board at the edge of each square.
const PATCH: usize = 5;
/// The patches: corners and edge midpoints of a square, just inside its outline.
const PATCHES: [(usize, usize); 8] = [
    (1, 1),
    (CELL - 1 - PATCH, 1),
    (1, CELL - 1 - PATCH),
    (CELL - 1 - PATCH, CELL - 1 - PATCH),
    (CELL / 2 - PATCH / 2, 1),
    (CELL / 2 - PATCH / 2, CELL - 1 - PATCH),
    (1, CELL / 2 - PATCH / 2),
    (CELL - 1 - PATCH, CELL / 2 - PATCH / 2),
];
/// How far (in board spans) a pixel may stray from the board's colour and still be board.
const FG: f32 = 0.25;

/// a1 is dark; squares a1-first.
pub fn is_light(sq: usize) -> bool {
    (sq % 8 + sq / 8) % 2 == 1
}

/// Top-left pixel of a square in the working image (a8 top-left, White at the bottom).
fn origin(sq: usize) -> (usize, usize) {
    ((sq % 8) * CELL, (7 - sq / 8) * CELL)
}

/// A rectified frame at the working size: Lab, edge strength, and which pixels hold image data
/// (a warp leaves pure black where the source image ends).
pub struct Frame {
    lab: Vec<[f32; 3]>,
    grad: Vec<f32>,
    valid: Vec<bool>,
    /// `valid`, but for pure black that does not reach the image's edge, where there is any:
    /// the scene's own black (see [`measure`]).
    inside: Option<Vec<bool>>,
}

/// The parts of a mask (255 where pure black) that touch the image's `open` edges (above,
/// below, left, right), where some of it does not (`None`: all of it does, or there is none).
fn reaching_the_edge(black: &Mat, open: [bool; 4]) -> Result<Option<Mat>, VisionError> {
    if core::count_non_zero(black)? == 0 {
        return Ok(None);
    }
    let mut labels = Mat::default();
    let n = imgproc::connected_components(black, &mut labels, 8, core::CV_32S)?;
    let (w, h) = (labels.cols() as usize, labels.rows() as usize);
    let ids = labels.data_typed::<i32>()?;
    let mut edge = vec![false; n.max(1) as usize];
    for x in 0..w {
        edge[ids[x] as usize] |= open[0];
        edge[ids[(h - 1) * w + x] as usize] |= open[1];
    }
    for y in 0..h {
        edge[ids[y * w] as usize] |= open[2];
        edge[ids[y * w + w - 1] as usize] |= open[3];
    }
    // Label 0 is what is not black.
    edge[0] = false;
    if edge[1..].iter().all(|&e| e) {
        return Ok(None);
    }
    let mut out = black.try_clone()?;
    for (b, &id) in out.data_bytes_mut()?.iter_mut().zip(ids) {
        *b = if edge[id as usize] { 255 } else { 0 };
    }
    Ok(Some(out))
}

fn bgr(image: &Mat) -> Result<Mat, VisionError> {
    if image.empty() {
        return Err(VisionError::Invalid("the image is empty".into()));
    }
    if image.depth() != core::CV_8U {
        return Err(VisionError::Invalid("the image must have 8-bit channels".into()));
    }
    if image.rows() < 16 || image.cols() < 16 {
        return Err(VisionError::Invalid(format!("the board image is too small ({}×{})", image.cols(), image.rows())));
    }
    let code = match image.channels() {
        1 => imgproc::COLOR_GRAY2BGR,
        3 => return Ok(image.try_clone()?),
        4 => imgproc::COLOR_BGRA2BGR,
        n => return Err(VisionError::Invalid(format!("the image has {n} channels"))),
    };
    let mut out = Mat::default();
    imgproc::cvt_color_def(image, &mut out, code)?;
    Ok(out)
}

impl Frame {
    /// A frame whose picture may end at any side of it (a picture of the board alone).
    pub fn new(rectified: &Mat) -> Result<Frame, VisionError> {
        Frame::within(rectified, [true; 4])
    }

    /// A frame whose picture may end only at its `open` sides (above, below, left, right; see
    /// [`Rectifier::open_sides`](crate::vision::rectify::Rectifier::open_sides)).
    pub fn within(rectified: &Mat, open: [bool; 4]) -> Result<Frame, VisionError> {
        let src = bgr(rectified)?;
        let small = if src.cols() == SIDE as i32 && src.rows() == SIDE as i32 {
            src
        } else {
            // Area averaging keeps thin outlines; it costs about a millisecond at a fractional
            // scale, which a caller avoids by rectifying at CELL pixels a square.
            let mut small = Mat::default();
            imgproc::resize(&src, &mut small, Size::new(SIDE as i32, SIDE as i32), 0.0, 0.0, imgproc::INTER_AREA)?;
            small
        };
        let n = SIDE * SIDE;
        // Pure black is where the source image ended (a warp, a straightened dataset's corners).
        // Its edge is blended with black by the resize and ringed by the JPEG: drop a margin.
        let mut max = Mat::default();
        let mut planes = core::Vector::<Mat>::new();
        core::split(&small, &mut planes)?;
        core::max(&planes.get(0)?, &planes.get(1)?, &mut max)?;
        let m2 = max.try_clone()?;
        core::max(&m2, &planes.get(2)?, &mut max)?;
        let mut black = Mat::default();
        imgproc::threshold(&max, &mut black, 2.0, 255.0, imgproc::THRESH_BINARY_INV)?;
        let kernel = imgproc::get_structuring_element_def(imgproc::MORPH_RECT, Size::new(7, 7))?;
        let valid_where = |black: &Mat| -> Result<Vec<bool>, VisionError> {
            let mut margin = Mat::default();
            imgproc::dilate_def(black, &mut margin, &kernel)?;
            Ok(margin.data_bytes()?.iter().map(|&b| b == 0).collect())
        };
        let valid = valid_where(&black)?;
        let inside = reaching_the_edge(&black, open)?.map(|edge| valid_where(&edge)).transpose()?;
        let mut lab8 = Mat::default();
        imgproc::cvt_color_def(&small, &mut lab8, imgproc::COLOR_BGR2Lab)?;
        let lb = lab8.data_bytes()?;
        let lab: Vec<[f32; 3]> = (0..n).map(|i| [lb[3 * i] as f32, lb[3 * i + 1] as f32, lb[3 * i + 2] as f32]).collect();
        let mut l = Mat::default();
        core::extract_channel(&lab8, &mut l, 0)?;
        let mut lf = Mat::default();
        l.convert_to(&mut lf, core::CV_32F, 1.0, 0.0)?;
        let mut blurred = Mat::default();
        // Wood grain and sensor noise are finer than a piece's outline.
        imgproc::gaussian_blur_def(&lf, &mut blurred, Size::new(0, 0), 1.0)?;
        let (mut gx, mut gy) = (Mat::default(), Mat::default());
        imgproc::sobel_def(&blurred, &mut gx, core::CV_32F, 1, 0)?;
        imgproc::sobel_def(&blurred, &mut gy, core::CV_32F, 0, 1)?;
        let (gx, gy) = (gx.data_typed::<f32>()?, gy.data_typed::<f32>()?);
        let grad = gx.iter().zip(gy).map(|(a, b)| (a * a + b * b).sqrt()).collect();
        Ok(Frame { lab, grad, valid, inside })
    }

    fn at(&self, x: usize, y: usize) -> usize {
        y * SIDE + x
    }

    /// Mean Lab of a patch, if most of it holds image data.
    fn patch_mean(&self, x0: usize, y0: usize) -> Option<[f32; 3]> {
        let mut sum = [0.0f32; 3];
        let mut n = 0;
        for y in y0..y0 + PATCH {
            for x in x0..x0 + PATCH {
                let i = self.at(x, y);
                if self.valid[i] {
                    sum = add3(sum, self.lab[i]);
                    n += 1;
                }
            }
        }
        (n * 5 >= PATCH * PATCH * 3).then(|| sum.map(|s| s / n as f32))
    }
}

fn median(v: &mut [f32]) -> Option<f32> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 { v[m] } else { 0.5 * (v[m - 1] + v[m]) })
}

fn design(x: f32, y: f32) -> [f64; 6] {
    let (x, y) = ((x / (SIDE as f32 / 2.0) - 1.0) as f64, (y / (SIDE as f32 / 2.0) - 1.0) as f64);
    [1.0, x, y, x * x, x * y, y * y]
}

/// Least squares for 6 coefficients and 3 channels, through the normal equations (a small
/// ridge keeps a degenerate spread of points solvable).
fn solve(rows: &[([f64; 6], [f32; 3])]) -> Option<[[f64; 3]; 6]> {
    let mut a = [[0.0f64; 9]; 6];
    for (d, y) in rows {
        for i in 0..6 {
            for j in 0..6 {
                a[i][j] += d[i] * d[j];
            }
            for c in 0..3 {
                a[i][6 + c] += d[i] * y[c] as f64;
            }
        }
    }
    let ridge = 1e-6 * (0..6).map(|i| a[i][i]).sum::<f64>().max(1e-9);
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += ridge;
    }
    for col in 0..6 {
        let pivot = (col..6).max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let lead = a[col];
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / lead[col];
                for (v, l) in row.iter_mut().zip(lead).skip(col) {
                    *v -= f * l;
                }
            }
        }
    }
    let mut out = [[0.0; 3]; 6];
    for i in 0..6 {
        for c in 0..3 {
            out[i][c] = a[i][6 + c] / a[i][i];
        }
    }
    Some(out)
}

/// The board's own colour at every pixel: a quadratic per square colour, times a brightness
/// gain per square.
struct BoardModel {
    coef: [[[f64; 3]; 6]; 2],
    /// Per square colour and channel, the least and greatest value of the board the fit went
    /// through: the quadratic stays within them.
    range: [[[f32; 2]; 3]; 2],
    gain: [f32; 64],
}

impl BoardModel {
    fn fit(frame: &Frame) -> BoardModel {
        let mut coef = [[[0.0; 3]; 6]; 2];
        let mut range = [[[0.0, 255.0]; 3]; 2];
        let mut samples: [Vec<(f32, f32, [f32; 3])>; 2] = [Vec::new(), Vec::new()];
        for sq in 0..64 {
            let (x0, y0) = origin(sq);
            for &(px, py) in &PATCHES {
                if let Some(m) = frame.patch_mean(x0 + px, y0 + py) {
                    let c = (x0 + px) as f32 + PATCH as f32 / 2.0;
                    let r = (y0 + py) as f32 + PATCH as f32 / 2.0;
                    samples[is_light(sq) as usize].push((c, r, m));
                }
            }
        }
        for (colour, pts) in samples.iter().enumerate() {
            (coef[colour], range[colour]) = robust_quadratic(pts);
        }
        let mut model = BoardModel { coef, range, gain: [1.0; 64] };
        model.gain = model.local_gains(frame);
        model
    }

    fn base(&self, light: bool, x: f32, y: f32) -> [f32; 3] {
        let d = design(x, y);
        let k = &self.coef[light as usize];
        let mut out = [0.0f32; 3];
        for (c, o) in out.iter_mut().enumerate() {
            let [lo, hi] = self.range[light as usize][c];
            *o = ((0..6).map(|i| d[i] * k[i][c]).sum::<f64>() as f32).clamp(lo, hi);
        }
        out
    }

    /// Brightness of each square against the smooth model, from its edge patches that look
    /// like board, then a 3×3 median so that pieces and hands do not leak into it.
    fn local_gains(&self, frame: &Frame) -> [f32; 64] {
        let mut raw = [f32::NAN; 64];
        for (sq, g) in raw.iter_mut().enumerate() {
            let (x0, y0) = origin(sq);
            let mut ratios = Vec::with_capacity(8);
            for &(px, py) in &PATCHES {
                let Some(m) = frame.patch_mean(x0 + px, y0 + py) else { continue };
                let c = self.base(is_light(sq), (x0 + px) as f32 + 2.5, (y0 + py) as f32 + 2.5);
                let ratio = m[0] / c[0].max(1.0);
                let chroma = ((m[1] - c[1]).powi(2) + (m[2] - c[2]).powi(2)).sqrt();
                if (0.5..1.4).contains(&ratio) && chroma < 12.0 {
                    ratios.push(ratio);
                }
            }
            if ratios.len() >= 3 {
                *g = median(&mut ratios).unwrap_or(f32::NAN);
            }
        }
        let mut out = [1.0f32; 64];
        for (sq, o) in out.iter_mut().enumerate() {
            let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut near: Vec<f32> = Vec::with_capacity(9);
            for df in -1..=1 {
                for dr in -1..=1 {
                    let (ff, rr) = (f + df, r + dr);
                    if (0..8).contains(&ff) && (0..8).contains(&rr) {
                        let g = raw[(rr * 8 + ff) as usize];
                        if g.is_finite() {
                            near.push(g);
                        }
                    }
                }
            }
            *o = median(&mut near).unwrap_or(1.0);
        }
        out
    }

    /// Gain at a pixel, interpolated between square centres.
    fn gain_at(&self, x: f32, y: f32) -> f32 {
        let gx = ((x + 0.5) / CELL as f32 - 0.5).clamp(0.0, 7.0);
        let gy = ((y + 0.5) / CELL as f32 - 0.5).clamp(0.0, 7.0);
        let (x0, y0) = (gx.floor().min(6.0) as usize, gy.floor().min(6.0) as usize);
        let (tx, ty) = (gx - x0 as f32, gy - y0 as f32);
        // Rows of the image run from rank 8 down; the gains are stored a1-first.
        let g = |col: usize, row: usize| self.gain[(7 - row) * 8 + col];
        (g(x0, y0) * (1.0 - tx) + g(x0 + 1, y0) * tx) * (1.0 - ty) + (g(x0, y0 + 1) * (1.0 - tx) + g(x0 + 1, y0 + 1) * tx) * ty
    }

    fn at(&self, light: bool, x: f32, y: f32) -> [f32; 3] {
        let b = self.base(light, x, y);
        let g = self.gain_at(x, y);
        // A shadow scales lightness and pulls the colour towards grey.
        [b[0] * g, 128.0 + (b[1] - 128.0) * g, 128.0 + (b[2] - 128.0) * g]
    }
}

/// Quadratic colour model through the patches that look like board: start from those nearest
/// the median colour, then refit on the points within a few median deviations. With it, per
/// channel, the range of the points it went through last: beyond them a quadratic may run far
/// off (rendered game 65: at the h8 corner, Black's pieces crowding the squares around it, the
/// fit had the light squares at half their lightness, and the empty h8, read as twice as light
/// as the board there, as a white piece).
fn robust_quadratic(pts: &[(f32, f32, [f32; 3])]) -> ([[f64; 3]; 6], [[f32; 2]; 3]) {
    let (coef, keep) = quadratic_through(pts);
    let mut range = [[f32::INFINITY, f32::NEG_INFINITY]; 3];
    for (p, _) in pts.iter().zip(&keep).filter(|(_, k)| **k) {
        for (r, v) in range.iter_mut().zip(p.2) {
            *r = [r[0].min(v), r[1].max(v)];
        }
    }
    let range = range.map(|r| if r[0] <= r[1] { r } else { [0.0, 255.0] });
    (coef, range)
}

/// The fit itself, with the points it went through last.
fn quadratic_through(pts: &[(f32, f32, [f32; 3])]) -> ([[f64; 3]; 6], Vec<bool>) {
    let constant = |keep: &[bool]| {
        let mut sum = [0.0f64; 3];
        let n = keep.iter().filter(|&&k| k).count().max(1);
        for (p, _) in pts.iter().zip(keep).filter(|(_, k)| **k) {
            for (s, v) in sum.iter_mut().zip(p.2) {
                *s += v as f64;
            }
        }
        let mut out = [[0.0; 3]; 6];
        out[0] = sum.map(|s| s / n as f64);
        out
    };
    if pts.is_empty() {
        return ([[128.0, 128.0, 128.0], [0.0; 3], [0.0; 3], [0.0; 3], [0.0; 3], [0.0; 3]], Vec::new());
    }
    let med: [f32; 3] = std::array::from_fn(|c| median(&mut pts.iter().map(|p| p.2[c]).collect::<Vec<_>>()).unwrap_or(128.0));
    let dist: Vec<f32> = pts.iter().map(|p| (0..3).map(|c| (p.2[c] - med[c]).abs()).sum()).collect();
    let cut = {
        let mut d = dist.clone();
        d.sort_by(|a, b| a.total_cmp(b));
        d[(d.len() * 6 / 10).min(d.len() - 1)]
    };
    let mut keep: Vec<bool> = dist.iter().map(|&d| d <= cut).collect();
    let mut coef = constant(&keep);
    for _ in 0..4 {
        let rows: Vec<([f64; 6], [f32; 3])> = pts.iter().zip(&keep).filter(|(_, k)| **k).map(|(p, _)| (design(p.0, p.1), p.2)).collect();
        if rows.len() < 12 {
            return (constant(&keep), keep);
        }
        let Some(c) = solve(&rows) else { return (constant(&keep), keep) };
        coef = c;
        let res: Vec<f32> = pts
            .iter()
            .map(|p| {
                let d = design(p.0, p.1);
                (0..3).map(|ch| (p.2[ch] as f64 - (0..6).map(|i| d[i] * coef[i][ch]).sum::<f64>()).abs() as f32).sum()
            })
            .collect();
        let mut kept: Vec<f32> = res.iter().zip(&keep).filter(|(_, k)| **k).map(|(r, _)| *r).collect();
        let mad = median(&mut kept).unwrap_or(0.0) + 1e-3;
        keep = res.iter().map(|&r| r < 3.0 * mad + 2.0).collect();
    }
    (coef, keep)
}

/// Where in a square its own piece surely stands: the base, a disc at the centre. A tilted
/// camera makes the upper body lean out over the square behind, but the base stays where the
/// piece stands; a disc a little smaller than a pawn's base keeps the sample on it.
pub fn core_mask() -> Vec<bool> {
    let r = 0.32 * CELL as f32;
    let c = CELL as f32 / 2.0;
    (0..CELL * CELL)
        .map(|i| {
            let (x, y) = ((i % CELL) as f32 + 0.5, (i / CELL) as f32 + 0.5);
            (x - c).powi(2) + (y - c).powi(2) <= r * r
        })
        .collect()
}

#[derive(Default)]
struct Sums {
    n: f32,
    n_fg: f32,
    dark: f32,
    bright: f32,
    edge: f32,
    inner: f32,
    inner_fg: f32,
    inner_edge: f32,
    /// Lightness difference, colour difference, lightness above the dark squares.
    all_colour: [f32; 3],
    fg_colour: [f32; 3],
    /// Pixels and non-board pixels in each quarter of the very centre.
    quad: [(f32, f32); 4],
}

fn add3(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Which quarter of the square's very centre a pixel is in. A piece's base covers all four
/// even when it stands off-centre; the top of a neighbour leaning in covers one side.
fn quadrants() -> Vec<Option<usize>> {
    let r = 0.22 * CELL as f32;
    let c = CELL as f32 / 2.0;
    (0..CELL * CELL)
        .map(|i| {
            let (dx, dy) = ((i % CELL) as f32 + 0.5 - c, (i / CELL) as f32 + 0.5 - c);
            (dx * dx + dy * dy <= r * r).then_some((dx >= 0.0) as usize + 2 * (dy >= 0.0) as usize)
        })
        .collect()
}

/// The numbers for each square (a1 first), or `None` where too little of it is in the image.
pub fn measure(frame: &Frame, core: &[bool]) -> Vec<Option<[f32; NF]>> {
    let model = BoardModel::fit(frame);
    let centre_l = |light: bool| {
        let mut v: Vec<f32> = (0..64)
            .filter(|&sq| is_light(sq) == light)
            .map(|sq| {
                let (x0, y0) = origin(sq);
                model.at(light, (x0 + CELL / 2) as f32, (y0 + CELL / 2) as f32)[0]
            })
            .collect();
        median(&mut v).unwrap_or(128.0)
    };
    let (l_light, l_dark) = (centre_l(true), centre_l(false));
    let span = (l_light - l_dark).abs().max(10.0);
    let mut out = Vec::with_capacity(64);
    let mut fg = vec![false; CELL * CELL];
    let mut valid = vec![false; CELL * CELL];
    let mut diff = vec![[0.0f32; 3]; CELL * CELL];
    let quadrant = quadrants();
    let mut one = |sq: usize, mask: &[bool]| -> Option<[f32; NF]> {
        let (x0, y0) = origin(sq);
        let light = is_light(sq);
        let gain = model.gain_at((x0 + CELL / 2) as f32, (y0 + CELL / 2) as f32).max(0.2);
        valid.fill(false);
        // Per pixel of the square: its difference from the board there. Across one square the
        // board's model is as good as flat: a plane through its values at the centre and half
        // a square to the right and down costs a few additions a pixel.
        let half = CELL as f32 / 2.0;
        let (cx, cy) = ((x0 + CELL / 2) as f32, (y0 + CELL / 2) as f32);
        let m0 = model.at(light, cx, cy);
        let (mx, my) = (model.at(light, cx + half, cy), model.at(light, cx, cy + half));
        let sx: [f32; 3] = std::array::from_fn(|c| (mx[c] - m0[c]) / half);
        let sy: [f32; 3] = std::array::from_fn(|c| (my[c] - m0[c]) / half);
        let (inv_l, inv_c) = (1.0 / (span * span), 1.0 / (0.09 * span * span));
        let mut n_valid = 0;
        for y in 0..CELL {
            let dy = y as f32 + 0.5 - half;
            let row: [f32; 3] = std::array::from_fn(|c| m0[c] + sy[c] * dy - sx[c] * half);
            let i0 = frame.at(x0, y0 + y);
            for x in 0..CELL {
                let i = i0 + x;
                let k = y * CELL + x;
                fg[k] = false;
                if !mask[i] {
                    continue;
                }
                n_valid += 1;
                let xf = x as f32 + 0.5;
                let p = frame.lab[i];
                let d = [p[0] - row[0] - sx[0] * xf, p[1] - row[1] - sx[1] * xf, p[2] - row[2] - sx[2] * xf];
                diff[k] = d;
                // Not board when (dL / span)² + (chroma / 0.3 span)² > FG², without roots.
                fg[k] = d[0] * d[0] * inv_l + (d[1] * d[1] + d[2] * d[2]) * inv_c > FG * FG;
                valid[k] = true;
            }
        }
        let core_n = core.iter().filter(|&&c| c).count() as f32;
        let mut s = Sums::default();
        for y in 0..CELL {
            for x in 0..CELL {
                let k = y * CELL + x;
                if !valid[k] {
                    continue;
                }
                let f = fg[k] as u8 as f32;
                if x >= 2 && y >= 2 && x < CELL - 2 && y < CELL - 2 {
                    s.inner += 1.0;
                    s.inner_fg += f;
                    s.inner_edge += frame.grad[frame.at(x0 + x, y0 + y)];
                }
                if core[k] {
                    let d = diff[k];
                    let i = frame.at(x0 + x, y0 + y);
                    s.n += 1.0;
                    s.n_fg += f;
                    s.dark += (d[0] < -FG * span) as u8 as f32;
                    s.bright += (d[0] > FG * span) as u8 as f32;
                    s.edge += frame.grad[i];
                    let z = frame.lab[i][0] / gain - l_dark;
                    let c = (d[1] * d[1] + d[2] * d[2]).sqrt();
                    s.all_colour = add3(s.all_colour, [d[0], c, z]);
                    if fg[k] {
                        s.fg_colour = add3(s.fg_colour, [d[0], c, z]);
                    }
                }
                if let Some(q) = quadrant[k] {
                    s.quad[q].0 += 1.0;
                    s.quad[q].1 += f;
                }
            }
        }
        if s.n < 0.3 * core_n || n_valid < CELL * CELL / 3 {
            return None;
        }
        let periphery = PATCHES
            .iter()
            .filter(|&&(px, py)| {
                let hits: usize = (py..py + PATCH).map(|y| (px..px + PATCH).filter(|&x| fg[y * CELL + x]).count()).sum();
                hits * 2 > PATCH * PATCH
            })
            .count() as f32
            / PATCHES.len() as f32;
        // Colour of what is not board, where there is some; of the whole centre otherwise.
        let colour = if s.n_fg >= 3.0 { s.fg_colour.map(|v| v / s.n_fg) } else { s.all_colour.map(|v| v / s.n) };
        let qmin = s.quad.iter().map(|&(n, f)| if n > 0.0 { f / n } else { 0.0 }).fold(1.0f32, f32::min);
        Some([
            s.n_fg / s.n,
            colour[0] / span,
            s.dark / s.n,
            s.bright / s.n,
            colour[1] / span,
            s.edge / s.n / span / gain,
            colour[2] / span,
            s.inner_fg / s.inner.max(1.0),
            periphery,
            qmin,
            s.inner_edge / s.inner.max(1.0) / span / gain,
        ])
    };
    // Pure black inside the picture (not reaching its edge, as a warp's fill does) is dropped
    // with what the resize blends into it, as the picture's edge is, for every square it leaves
    // enough of; a square it leaves too little of is measured with it: an underexposed webcam
    // crushes black pieces and their shadows to zero (scholarsmate.avi darkened by a tenth: the
    // black pieces unmeasured, the board's look could not be learned from the start position,
    // and the game was lost after 1. e4).
    for sq in 0..64 {
        let f = one(sq, &frame.valid);
        out.push(match &frame.inside {
            Some(inside) if f.is_none() => one(sq, inside),
            _ => f,
        });
    }
    out
}

/// Cells per side of a square's [`Signature`].
pub const SIG: usize = 8;
/// A square's picture shrunk to SIG×SIG cells of mean Lab: enough to tell a piece set down,
/// lifted or slid from the same picture again, too coarse for compression noise to matter.
pub type Signature = [[f32; 3]; SIG * SIG];

/// Each square's [`Signature`] (a1 first), or `None` where part of it is outside the image.
pub fn signatures(frame: &Frame) -> Vec<Option<Signature>> {
    const STEP: usize = CELL / SIG;
    let per_cell = (STEP * STEP) as f32;
    (0..64)
        .map(|sq| {
            let (x0, y0) = origin(sq);
            let mut sig = [[0.0f32; 3]; SIG * SIG];
            for (c, cell) in sig.iter_mut().enumerate() {
                let (cx, cy) = (x0 + (c % SIG) * STEP, y0 + (c / SIG) * STEP);
                for y in cy..cy + STEP {
                    for x in cx..cx + STEP {
                        let i = frame.at(x, y);
                        if !frame.valid[i] {
                            return None;
                        }
                        for k in 0..3 {
                            cell[k] += frame.lab[i][k];
                        }
                    }
                }
                *cell = cell.map(|v| v / per_cell);
            }
            Some(sig)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The initial position drawn flat: black pieces pure black, as an underexposed webcam
    /// shows them, and the top-left corner beyond the picture (a warp's black fill).
    fn crushed_board() -> Mat {
        use opencv::core::{Point, Scalar};
        let mut img = Mat::new_rows_cols_with_default(SIDE as i32, SIDE as i32, core::CV_8UC3, Scalar::all(0.0)).unwrap();
        for sq in 0..64 {
            let (x0, y0) = origin(sq);
            let colour = if is_light(sq) { Scalar::new(190.0, 200.0, 205.0, 0.0) } else { Scalar::new(90.0, 120.0, 100.0, 0.0) };
            imgproc::rectangle(&mut img, core::Rect::new(x0 as i32, y0 as i32, CELL as i32, CELL as i32), colour, -1, imgproc::LINE_8, 0).unwrap();
            let piece = match sq / 8 {
                0 | 1 => Some(Scalar::new(235.0, 240.0, 240.0, 0.0)),
                6 | 7 => Some(Scalar::all(0.0)),
                _ => None,
            };
            if let Some(p) = piece {
                let c = Point::new((x0 + CELL / 2) as i32, (y0 + CELL / 2) as i32);
                imgproc::circle(&mut img, c, 12, p, -1, imgproc::LINE_8, 0).unwrap();
            }
        }
        let fill = core::Vector::<Point>::from_iter([Point::new(0, 0), Point::new(40, 0), Point::new(0, 40)]);
        imgproc::fill_convex_poly(&mut img, &fill, Scalar::all(0.0), imgproc::LINE_8, 0).unwrap();
        img
    }

    #[test]
    fn black_inside_the_picture_is_measured_black_beyond_it_is_not() {
        let frame = Frame::new(&crushed_board()).unwrap();
        let feats = measure(&frame, &core_mask());
        // a8 (square 56) lies mostly in the fill: not measured, as before.
        assert!(feats[56].is_none());
        // Every other black piece is measured, and looks darker than its square.
        for sq in (48..64).filter(|&sq| sq != 56) {
            let f = feats[sq].unwrap_or_else(|| panic!("square {sq} not measured"));
            assert!(f[1] < 0.0, "square {sq}: {f:?}");
        }
        // Pieces whose black leaves enough around them are measured as before, without it.
        let valid_only = Frame { inside: None, ..Frame::new(&crushed_board()).unwrap() };
        let before = measure(&valid_only, &core_mask());
        assert!((48..64).all(|sq| before[sq].is_none()), "the black cores were dropped before");
    }

    /// A black piece on an edge square, crushed to pure black, leaning out over the board's
    /// edge (a dim exposure): where the picture may end at that edge its black is taken for the
    /// picture's end and the square is not measured; where the picture goes on beyond the
    /// board there, it is the piece's own, and the square reads dark.
    #[test]
    fn black_reaching_an_edge_the_picture_goes_on_beyond_is_the_scenes_own() {
        let mut img = crushed_board();
        // d8 (square 59, top row) with its piece's black reaching the top edge.
        let (x0, _) = origin(59);
        imgproc::rectangle(&mut img, core::Rect::new(x0 as i32 + 6, 0, CELL as i32 - 12, CELL as i32 - 4), core::Scalar::all(0.0), -1, imgproc::LINE_8, 0).unwrap();
        let open = measure(&Frame::new(&img).unwrap(), &core_mask());
        assert!(open[59].is_none(), "{:?}", open[59]);
        let closed = measure(&Frame::within(&img, [false, true, true, true]).unwrap(), &core_mask());
        let f = closed[59].expect("d8 measured");
        assert!(f[1] < 0.0 && f[0] > 0.5, "{f:?}");
        // The fill in the a8 corner, at the open left side, is still the picture's end.
        assert!(closed[56].is_none());
    }

    #[test]
    fn the_board_is_learned_from_a_start_whose_black_pieces_are_crushed_to_black() {
        let mut img = crushed_board();
        // Without the fill, so that a8 is measured too.
        imgproc::rectangle(&mut img, core::Rect::new(0, 0, CELL as i32, CELL as i32), opencv::core::Scalar::new(190.0, 200.0, 205.0, 0.0), -1, imgproc::LINE_8, 0).unwrap();
        imgproc::circle(&mut img, opencv::core::Point::new((CELL / 2) as i32, (CELL / 2) as i32), 12, opencv::core::Scalar::all(0.0), -1, imgproc::LINE_8, 0).unwrap();
        assert!(crate::vision::squares::SquareReader::learn(&img, &shakmaty::Board::default()).is_ok());
    }

    /// Fitted through part of the board only (pieces and a hand over the rest), the board's
    /// colour is not carried by the quadratic beyond any colour it was seen to have, while
    /// within the part seen it follows the light as before.
    #[test]
    fn the_board_model_goes_no_further_than_the_colours_it_went_through() {
        let light = |x: f32, y: f32| 100.0 + 0.01 * (x - 60.0).powi(2) + 0.01 * (y - 60.0).powi(2);
        let pts: Vec<(f32, f32, [f32; 3])> = (0..12).flat_map(|i| (0..12).map(move |j| (i as f32 * 10.0, j as f32 * 10.0))).map(|(x, y)| (x, y, [light(x, y), 128.0, 128.0])).collect();
        let (coef, range) = robust_quadratic(&pts);
        let model = BoardModel { coef: [coef; 2], range: [range; 2], gain: [1.0; 64] };
        let seen = pts.iter().map(|p| p.2[0]).fold(f32::NEG_INFINITY, f32::max);
        let far = model.base(true, 255.0, 255.0)[0];
        assert!(far <= seen + 0.5, "{far} beyond {seen}");
        let inside = model.base(true, 30.0, 80.0)[0];
        assert!((inside - light(30.0, 80.0)).abs() < 1.0, "{inside}");
    }
}
