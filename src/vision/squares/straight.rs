//! Boards that come already straightened: the playing area axis-aligned and filling most of the
//! image (a scan, a cropped and warped photo, a dataset's frames). Finding its 8×8 grid is then
//! a search over a square's size and the grid's offset, no perspective needed.

use opencv::core::{self, Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;

use crate::vision::VisionError;

/// The grid found in a straightened image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Straightened {
    /// The playing area's corners in image pixels: top-left, top-right, bottom-right,
    /// bottom-left.
    pub corners: [[f64; 2]; 4],
    /// Median lightness of one square colour minus the other's (0–255): how much the grid
    /// looks like a chessboard.
    pub contrast: f64,
}

/// Working size of the shorter image side.
const WORK: f64 = 256.0;
/// A straightened board fills at least this much of each side of the image (a camera frame
/// with the board in it, however square-on, is not straightened: it needs the board found).
const MIN_FILL: f64 = 0.75;
/// Below this contrast the best grid is not a chessboard seen square-on.
const MIN_CONTRAST: f64 = 25.0;

fn gray(image: &Mat) -> Result<Mat, VisionError> {
    if image.empty() || image.depth() != core::CV_8U {
        return Err(VisionError::Invalid("the image is empty or not 8-bit".into()));
    }
    let mut g = Mat::default();
    match image.channels() {
        1 => g = image.try_clone()?,
        3 => imgproc::cvt_color_def(image, &mut g, imgproc::COLOR_BGR2GRAY)?,
        4 => imgproc::cvt_color_def(image, &mut g, imgproc::COLOR_BGRA2GRAY)?,
        n => return Err(VisionError::Invalid(format!("the image has {n} channels"))),
    }
    Ok(g)
}

fn median(v: &mut [f64]) -> f64 {
    let m = v.len() / 2;
    *v.select_nth_unstable_by(m, |a, b| a.total_cmp(b)).1
}

/// Linear interpolation in a profile.
fn sample(p: &[f64], x: f64) -> f64 {
    if x < 0.0 || x > (p.len() - 1) as f64 {
        return 0.0;
    }
    let i = (x.floor() as usize).min(p.len() - 2);
    let t = x - i as f64;
    p[i] * (1.0 - t) + p[i + 1] * t
}

/// Offset and pitch along one axis that put the seven inner grid lines on the strongest edges,
/// the grid staying inside the image. The coarse grid may be a whole square off (a margin as
/// light as the light squares alternates as well as a column of squares does), so offsets up
/// to a square and a bit either way are tried.
fn refine(profile: &[f64], start: f64, pitch: f64) -> (f64, f64) {
    let len = profile.len() as f64;
    let mut best = (f64::MIN, start, pitch);
    let mut p = pitch * 0.94;
    while p <= pitch * 1.06 {
        let mut o = start - 1.2 * pitch;
        while o <= start + 1.2 * pitch {
            if o >= -0.1 * p && o + 8.0 * p <= len + 0.1 * p {
                let s: f64 = (1..8).map(|k| sample(profile, o + k as f64 * p)).sum();
                if s > best.0 {
                    best = (s, o, p);
                }
            }
            o += 0.25;
        }
        p += 0.05;
    }
    (best.1, best.2)
}

/// Finds the board's grid when the image shows it straightened, or `None` when no axis-aligned
/// 8×8 checkerboard fills it.
pub fn find_straightened(image: &Mat) -> Result<Option<Straightened>, VisionError> {
    let g = gray(image)?;
    let (w0, h0) = (g.cols() as f64, g.rows() as f64);
    if w0 < 32.0 || h0 < 32.0 {
        return Ok(None);
    }
    let s = WORK / w0.min(h0);
    let (w, h) = ((w0 * s).round().max(1.0) as i32, (h0 * s).round().max(1.0) as i32);
    let mut small = Mat::default();
    imgproc::resize(&g, &mut small, Size::new(w, h), 0.0, 0.0, imgproc::INTER_AREA)?;
    let mut integral = Mat::default();
    imgproc::integral_def(&small, &mut integral)?;
    let ii = integral.data_typed::<i32>()?;
    let stride = (w + 1) as usize;
    let rect = |ax: usize, ay: usize, bx: usize, by: usize| -> f64 {
        let v = ii[by * stride + bx] - ii[ay * stride + bx] - ii[by * stride + ax] + ii[ay * stride + ax];
        v as f64 / ((bx - ax).max(1) * (by - ay).max(1)) as f64
    };
    // Coarse: the grid whose alternate squares differ most in lightness. Medians keep the
    // pieces (a third of the squares at most) from mattering.
    let short = w.min(h) as f64;
    let mut best: Option<(f64, f64, f64, f64)> = None;
    let mut means = [0.0f64; 64];
    let mut pitch = short / 8.0 * MIN_FILL;
    while pitch <= short / 8.0 + 1e-9 {
        let (mx, my) = ((w as f64 - 8.0 * pitch).floor() as usize, (h as f64 - 8.0 * pitch).floor() as usize);
        for y0 in 0..=my {
            for x0 in 0..=mx {
                for j in 0..8 {
                    for i in 0..8 {
                        let ax = (x0 as f64 + (i as f64 + 0.2) * pitch) as usize;
                        let bx = (x0 as f64 + (i as f64 + 0.8) * pitch) as usize;
                        let ay = (y0 as f64 + (j as f64 + 0.2) * pitch) as usize;
                        let by = (y0 as f64 + (j as f64 + 0.8) * pitch) as usize;
                        means[j * 8 + i] = rect(ax, ay, bx, by);
                    }
                }
                let mut even: Vec<f64> = (0..64).filter(|k| (k / 8 + k % 8) % 2 == 0).map(|k| means[k]).collect();
                let mut odd: Vec<f64> = (0..64).filter(|k| (k / 8 + k % 8) % 2 == 1).map(|k| means[k]).collect();
                let c = (median(&mut even) - median(&mut odd)).abs();
                if best.is_none_or(|b| c > b.0) {
                    best = Some((c, x0 as f64, y0 as f64, pitch));
                }
            }
        }
        pitch += 0.5;
    }
    let Some((contrast, x0, y0, pitch)) = best else { return Ok(None) };
    if contrast < MIN_CONTRAST || 8.0 * pitch < MIN_FILL * w.max(h) as f64 {
        return Ok(None);
    }
    // Fine: the inner grid lines sit on the strongest edges across them.
    let mut f = Mat::default();
    small.convert_to(&mut f, core::CV_32F, 1.0, 0.0)?;
    let (mut gx, mut gy) = (Mat::default(), Mat::default());
    imgproc::sobel_def(&f, &mut gx, core::CV_32F, 1, 0)?;
    imgproc::sobel_def(&f, &mut gy, core::CV_32F, 0, 1)?;
    let (gx, gy) = (gx.data_typed::<f32>()?, gy.data_typed::<f32>()?);
    let (wu, hu) = (w as usize, h as usize);
    let (xs, xe) = (x0 as usize, ((x0 + 8.0 * pitch) as usize).min(wu));
    let (ys, ye) = (y0 as usize, ((y0 + 8.0 * pitch) as usize).min(hu));
    let cols: Vec<f64> = (0..wu).map(|x| (ys..ye).map(|y| gx[y * wu + x].abs() as f64).sum()).collect();
    let rows: Vec<f64> = (0..hu).map(|y| (xs..xe).map(|x| gy[y * wu + x].abs() as f64).sum()).collect();
    let (fx, px) = refine(&cols, x0, pitch);
    let (fy, py) = refine(&rows, y0, pitch);
    let k = 1.0 / s;
    let (l, t, r, b) = (fx * k, fy * k, (fx + 8.0 * px) * k, (fy + 8.0 * py) * k);
    Ok(Some(Straightened { corners: [[l, t], [r, t], [r, b], [l, b]], contrast }))
}
