//! What is new in the view: each frame against the settled view of the board, with the
//! camera's own changes (exposure, white balance) and shadows told from something standing
//! there. The hand finder decides what of it is an arm.

use opencv::core::{self, Mat, Point, Rect, Scalar, Size};
use opencv::imgproc;
use opencv::prelude::*;

use crate::vision::VisionError;

/// How different a pixel must be from the settled board to be part of something new.
const DIFF_LEVEL: f64 = 28.0;
/// How much darker (or lighter) light alone may make a pixel.
const SHADOW_RATIO: f64 = 0.6;
/// How much a pixel's colour balance may shift before something else stands there.
const CHROMA_LEVEL: f64 = 0.018;
/// The side of the patch, in view pixels, over which the view is compared with the settled
/// view for the board's pattern showing through a shadow.
const SHADE_WINDOW: i32 = 9;
/// The least spread of grey levels in a patch of the settled view for it to have a pattern.
const SHADE_TEXTURE: f32 = 8.0;
/// How closely a patch must follow the settled view's pattern to be the board in shadow.
const SHADE_CORRELATION: f32 = 0.8;
/// A change of the whole view's brightness or colour balance beyond this (as a gain per
/// channel) is the camera's exposure or white balance, not something new: the settled view
/// is scaled to it at once.
const GAIN_LEVEL: f64 = 0.02;
/// Every this many pixels is sampled for the whole view's gain (a prime: no pattern of the
/// squares falls in step with it).
const GAIN_STRIDE: usize = 7;

/// Pixels where something new stands, not where the light merely changed: a shadow darkens
/// all three channels alike and not by much, an arm changes the colour or the brightness a lot.
pub(super) fn changed(view: &Mat, background: &Mat) -> Result<Mat, VisionError> {
    let (w, h) = (view.cols(), view.rows());
    let mut mask = Mat::new_rows_cols_with_default(h, w, core::CV_8UC1, Scalar::all(0.0))?;
    let (now, was) = (view.data_bytes()?, background.data_bytes()?);
    let out = mask.data_bytes_mut()?;
    for ((o, a), b) in out.iter_mut().zip(now.chunks_exact(3)).zip(was.chunks_exact(3)) {
        // Most pixels are the settled board: told apart in whole levels first.
        let diff = a[0].abs_diff(b[0]).max(a[1].abs_diff(b[1])).max(a[2].abs_diff(b[2]));
        if (diff as f64) < DIFF_LEVEL {
            continue;
        }
        let a = [a[0] as f64, a[1] as f64, a[2] as f64];
        let b = [b[0] as f64, b[1] as f64, b[2] as f64];
        let (sa, sb) = (a[0] + a[1] + a[2] + 3.0, b[0] + b[1] + b[2] + 3.0);
        let ratio = sa / sb;
        let chroma = (0..3).map(|k| ((a[k] + 1.0) / sa - (b[k] + 1.0) / sb).abs()).fold(0.0, f64::max);
        if chroma > CHROMA_LEVEL || !(SHADOW_RATIO..1.0 / SHADOW_RATIO).contains(&ratio) {
            *o = 255;
        }
    }
    Ok(mask)
}

/// Clears, from the changed pixels, those where the board's own pattern still shows: under a
/// shadow, however deep or tinted, the edges of squares and pieces stay where they were and only
/// dim, so the view and the settled view correlate there; an arm hides the pattern. Where the
/// settled view has no pattern (inside a plain square) nothing can be said, and the pixel stays
/// changed: such patches of shadow are cut apart by the cleared edges between them and settle
/// like any change inside the board.
pub(super) fn unshade(view: &Mat, background: &Mat, mask: &mut Mat) -> Result<(), VisionError> {
    // Only around what changed, which is often nothing (no arm in view): the patch statistics
    // of a pixel need its window, and no more.
    let changed = imgproc::bounding_rect(&*mask)?;
    if changed.area() == 0 {
        return Ok(());
    }
    let r = SHADE_WINDOW / 2;
    let full = Rect::new(0, 0, mask.cols(), mask.rows());
    let around = Rect::new(changed.x - r, changed.y - r, changed.width + 2 * r, changed.height + 2 * r) & full;
    let grey = |m: &Mat| -> Result<Mat, VisionError> {
        let mut g = Mat::default();
        imgproc::cvt_color_def(&Mat::roi(m, around)?, &mut g, imgproc::COLOR_BGR2GRAY)?;
        let mut f = Mat::default();
        g.convert_to(&mut f, core::CV_32F, 1.0, 0.0)?;
        Ok(f)
    };
    let (v, b) = (grey(view)?, grey(background)?);
    let window = Size::new(SHADE_WINDOW, SHADE_WINDOW);
    let local = |m: &Mat| -> Result<Mat, VisionError> {
        let mut out = Mat::default();
        imgproc::blur(m, &mut out, window, Point::new(-1, -1), core::BORDER_REFLECT)?;
        Ok(out)
    };
    let product = |x: &Mat, y: &Mat| -> Result<Mat, VisionError> {
        let mut out = Mat::default();
        core::multiply(x, y, &mut out, 1.0, -1)?;
        local(&out)
    };
    let (mv, mb) = (local(&v)?, local(&b)?);
    let (vv, bb, vb) = (product(&v, &v)?, product(&b, &b)?, product(&v, &b)?);
    let (mv, mb, vv, bb, vb) = (mv.data_typed::<f32>()?, mb.data_typed::<f32>()?, vv.data_typed::<f32>()?, bb.data_typed::<f32>()?, vb.data_typed::<f32>()?);
    let texture = SHADE_TEXTURE * SHADE_TEXTURE;
    // Every changed pixel lies at least a window's half inside `around` or on the view's edge,
    // so its statistics are those of the whole view.
    let w = around.width as usize;
    let mut part = Mat::roi_mut(mask, around)?;
    for y in 0..around.height {
        for (x, o) in part.at_row_mut::<u8>(y)?.iter_mut().enumerate() {
            if *o == 0 {
                continue;
            }
            let i = y as usize * w + x;
            let var_b = bb[i] - mb[i] * mb[i];
            let var_v = vv[i] - mv[i] * mv[i];
            // The pattern may dim to a fifth under a deep shadow, but must still be there.
            if var_b < texture || var_v < texture / 25.0 {
                continue;
            }
            let ncc = (vb[i] - mv[i] * mb[i]) / (var_b * var_v).sqrt();
            if ncc >= SHADE_CORRELATION {
                *o = 0;
            }
        }
    }
    Ok(())
}

/// Per channel, how much brighter the whole view is than the settled one: the median ratio
/// over a sample of pixels, so an arm over part of the view does not sway it. Pixels near black
/// or white say nothing (their ratio is noise or clipped).
pub(super) fn gain(view: &Mat, background: &Mat) -> Result<[f64; 3], VisionError> {
    let (now, was) = (view.data_bytes()?, background.data_bytes()?);
    // One pass over the sample for all three channels: this runs twice a frame.
    let mut ratios: [Vec<f32>; 3] = Default::default();
    for (a, b) in now.chunks_exact(3).zip(was.chunks_exact(3)).step_by(GAIN_STRIDE) {
        for k in 0..3 {
            if (12..244).contains(&a[k]) && (12..244).contains(&b[k]) {
                ratios[k].push(a[k] as f32 / b[k] as f32);
            }
        }
    }
    let mut out = [1.0; 3];
    for (g, ratios) in out.iter_mut().zip(&mut ratios) {
        if ratios.len() >= 64 {
            let mid = ratios.len() / 2;
            // Between frames of a still view most levels are the same, and the median is then
            // exactly 1 (two different levels never divide to it): counted, not selected.
            let below = ratios.iter().filter(|&&r| r < 1.0).count();
            let same = ratios.iter().filter(|&&r| r == 1.0).count();
            if !(below <= mid && mid < below + same) {
                *g = *ratios.select_nth_unstable_by(mid, f32::total_cmp).1 as f64;
            }
        }
    }
    Ok(out)
}

/// Webcams change their exposure and white balance as arms and light come and go, the whole
/// view at once and within a few frames: faster than light is followed, and by more than a
/// shadow's colour shift. Unfollowed, the whole view would differ from the settled one and be
/// taken for an arm over everything; then parts of it would settle while players move, and
/// leave ghost arms behind. So a change of the whole view is applied to the settled view as
/// soon as it is seen.
pub(super) fn follow_exposure(view: &Mat, background: &mut Mat) -> Result<(), VisionError> {
    let g = gain(view, background)?;
    if g.iter().all(|g| (g - 1.0).abs() <= GAIN_LEVEL) {
        return Ok(());
    }
    for px in background.data_bytes_mut()?.chunks_exact_mut(3) {
        for (v, g) in px.iter_mut().zip(g) {
            *v = (*v as f64 * g).round().clamp(0.0, 255.0) as u8;
        }
    }
    Ok(())
}
