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
    let (now, was) = (now.as_chunks::<3>().0, was.as_chunks::<3>().0);
    // Most pixels are the settled board: told apart in whole levels first, in a pass without
    // branches, then only those that differ that much are looked at closely.
    let level = DIFF_LEVEL.ceil() as u8;
    let far: Vec<u8> = now.as_flattened().iter().zip(was.as_flattened()).map(|(a, b)| u8::from(a.abs_diff(*b) >= level)).collect();
    for (((o, a), b), f) in out.iter_mut().zip(now).zip(was).zip(far.as_chunks::<3>().0) {
        if f[0] | f[1] | f[2] == 0 {
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

/// `image` (8 bits a channel, interleaved) blurred over 3×3 pixels, its edge mirrored:
/// `imgproc::blur` with a 3×3 window, to the bit (each mean of nine levels rounded; it is
/// never a half), in about half its time here, where the hand finder runs it on every frame.
pub(super) fn box3(image: &Mat) -> Result<Mat, VisionError> {
    let (w, h, cn) = (image.cols() as usize, image.rows() as usize, image.channels() as usize);
    if image.depth() != core::CV_8U || w < 2 || h < 2 || !image.is_continuous() {
        let mut out = Mat::default();
        imgproc::blur_def(image, &mut out, Size::new(3, 3))?;
        return Ok(out);
    }
    let src = image.data_bytes()?;
    let stride = w * cn;
    // Per row, each level summed with its neighbours along the row (the edge mirrored: the
    // column beside the first is the second).
    let mut rows = vec![0u16; src.len()];
    for (r, s) in rows.chunks_exact_mut(stride).zip(src.chunks_exact(stride)) {
        for c in 0..cn {
            r[c] = u16::from(s[c]) + 2 * u16::from(s[cn + c]);
            r[stride - cn + c] = u16::from(s[stride - cn + c]) + 2 * u16::from(s[stride - 2 * cn + c]);
        }
        for ((o, &a), (&b, &c)) in r[cn..stride - cn].iter_mut().zip(&s[..stride - 2 * cn]).zip(s[cn..stride - cn].iter().zip(&s[2 * cn..])) {
            *o = u16::from(a) + u16::from(b) + u16::from(c);
        }
    }
    let mut out = Mat::new_rows_cols_with_default(h as i32, w as i32, image.typ(), Scalar::all(0.0))?;
    let dst = out.data_bytes_mut()?;
    for (y, o) in dst.chunks_exact_mut(stride).enumerate() {
        let above = if y == 0 { 1 } else { y - 1 };
        let below = if y + 1 == h { h - 2 } else { y + 1 };
        let (a, b, c) = (&rows[above * stride..][..stride], &rows[y * stride..][..stride], &rows[below * stride..][..stride]);
        for (o, ((&a, &b), &c)) in o.iter_mut().zip(a.iter().zip(b).zip(c)) {
            *o = ((a + b + c + 4) / 9) as u8;
        }
    }
    Ok(out)
}

/// Per channel, how much brighter the whole view is than the settled one: the median ratio
/// over a sample of pixels, so an arm over part of the view does not sway it. Pixels near black
/// or white say nothing (their ratio is noise or clipped).
pub(super) fn gain(view: &Mat, background: &Mat) -> Result<[f64; 3], VisionError> {
    let (now, was) = (view.data_bytes()?, background.data_bytes()?);
    let (now, was) = (now.as_chunks::<3>().0, was.as_chunks::<3>().0);
    let sample = || (0..now.len().min(was.len())).step_by(GAIN_STRIDE).map(|i| (&now[i], &was[i]));
    let counted = |a: u8, b: u8| (12..244).contains(&a) && (12..244).contains(&b);
    // Between frames of a still view most levels are the same, and the median is then exactly
    // 1 (two different levels never divide to it; a level below another divides to less):
    // counted in whole levels first, in one pass for all three channels (this runs twice a
    // frame), and the ratios are worked out only for a channel whose median is not 1.
    let (mut total, mut below, mut same) = ([0usize; 3], [0usize; 3], [0usize; 3]);
    for (a, b) in sample() {
        for k in 0..3 {
            let c = usize::from(counted(a[k], b[k]));
            total[k] += c;
            below[k] += c * usize::from(a[k] < b[k]);
            same[k] += c * usize::from(a[k] == b[k]);
        }
    }
    let mut out = [1.0; 3];
    for k in 0..3 {
        let mid = total[k] / 2;
        if total[k] < 64 || (below[k] <= mid && mid < below[k] + same[k]) {
            continue;
        }
        let mut ratios: Vec<f32> = sample().filter(|(a, b)| counted(a[k], b[k])).map(|(a, b)| a[k] as f32 / b[k] as f32).collect();
        out[k] = *ratios.select_nth_unstable_by(mid, f32::total_cmp).1 as f64;
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
    // Each level of each channel scaled once, then looked up.
    let scaled: [[u8; 256]; 3] = std::array::from_fn(|k| std::array::from_fn(|v| (v as f64 * g[k]).round().clamp(0.0, 255.0) as u8));
    for px in background.data_bytes_mut()?.chunks_exact_mut(3) {
        for (v, table) in px.iter_mut().zip(&scaled) {
            *v = table[usize::from(*v)];
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_blur_is_opencvs_to_the_bit() {
        let mut seed = 12345u64;
        for (rows, cols, typ) in [(304, 304, core::CV_8UC3), (7, 5, core::CV_8UC3), (2, 2, core::CV_8UC3), (40, 33, core::CV_8UC1), (3, 9, core::CV_8UC4)] {
            let mut image = Mat::new_rows_cols_with_default(rows, cols, typ, Scalar::all(0.0)).unwrap();
            for (i, v) in image.data_bytes_mut().unwrap().iter_mut().enumerate() {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                // Noise, with runs of the extremes where sums round at their limits.
                *v = if (i / 97) % 5 == 0 { [0, 255][(i / 13) % 2] } else { (seed >> 56) as u8 };
            }
            let mut want = Mat::default();
            imgproc::blur_def(&image, &mut want, Size::new(3, 3)).unwrap();
            let got = box3(&image).unwrap();
            let differing = want.data_bytes().unwrap().iter().zip(got.data_bytes().unwrap()).filter(|(a, b)| a != b).count();
            assert_eq!((got.rows(), got.cols(), got.typ()), (rows, cols, typ));
            assert_eq!(differing, 0, "{rows}×{cols}: {differing} levels differ");
        }
    }
}
