//! X-corners: the points where four squares meet, found with the ChESS response (Bennett &
//! Lodeiro, 2014) on a ring of sixteen samples. Opposite samples of an X-corner agree and
//! samples a quarter turn apart differ; an edge fails the first test, a blob or the end of a
//! line the second. Pieces hide many inner corners, so what follows (the lattice fit) expects
//! only some of them, and clutter besides.
//!
//! Whole-image passes are OpenCV calls, so the cost is the same in debug and release builds.

use std::f64::consts::PI;

use opencv::core::{self, Mat, Point, Point2f, Rect, Scalar, Size, TermCriteria, Vector};
use opencv::imgproc;
use opencv::prelude::*;

/// The ChESS response on a float image for a ring of radius `r`.
fn chess_response(g: &Mat, r: i32) -> opencv::Result<Mat> {
    let pad = r + 1;
    let mut p = Mat::default();
    core::copy_make_border(g, &mut p, pad, pad, pad, pad, core::BORDER_REFLECT, Scalar::default())?;
    let (w, h) = (g.cols(), g.rows());
    let mut ring = Vec::with_capacity(16);
    for k in 0..16 {
        let a = k as f64 * PI / 8.0;
        let (dx, dy) = ((r as f64 * a.cos()).round() as i32, (r as f64 * a.sin()).round() as i32);
        ring.push(Mat::roi(&p, Rect::new(pad + dx, pad + dy, w, h))?);
    }
    let zeros = || Mat::new_rows_cols_with_default(h, w, core::CV_32F, Scalar::all(0.0));
    let (mut a, mut b, mut d) = (Mat::default(), Mat::default(), Mat::default());
    let mut sum_resp = zeros()?;
    for k in 0..4 {
        core::add(&ring[k], &ring[k + 8], &mut a, &core::no_array(), -1)?;
        core::add(&ring[k + 4], &ring[k + 12], &mut b, &core::no_array(), -1)?;
        core::absdiff(&a, &b, &mut d)?;
        imgproc::accumulate(&d, &mut sum_resp, &core::no_array())?;
    }
    let mut diff_resp = zeros()?;
    for k in 0..8 {
        core::absdiff(&ring[k], &ring[k + 8], &mut d)?;
        imgproc::accumulate(&d, &mut diff_resp, &core::no_array())?;
    }
    let mut ring_sum = zeros()?;
    for m in &ring {
        imgproc::accumulate(m, &mut ring_sum, &core::no_array())?;
    }
    let mut ring_mean = Mat::default();
    ring_sum.convert_to(&mut ring_mean, core::CV_32F, 1.0 / 16.0, 0.0)?;
    let mut local = Mat::default();
    imgproc::blur(g, &mut local, Size::new(3, 3), Point::new(-1, -1), core::BORDER_REFLECT)?;
    let mut mean_resp = Mat::default();
    core::absdiff(&ring_mean, &local, &mut mean_resp)?;
    let mut t = Mat::default();
    core::subtract(&sum_resp, &diff_resp, &mut t, &core::no_array(), -1)?;
    let mut out = Mat::default();
    core::scale_add(&mean_resp, -16.0, &t, &mut out)?;
    Ok(out)
}

/// Up to `max_n` X-corners of an 8-bit grey image (work-image pixels), strongest first, placed
/// to a fraction of a pixel.
pub fn detect(gray: &Mat, max_n: usize) -> opencv::Result<Vec<[f64; 2]>> {
    let mut f = Mat::default();
    gray.convert_to(&mut f, core::CV_32F, 1.0, 0.0)?;
    // Two scales: a fine ring for small squares, a coarse one over a wider blur for boards
    // drawn with thin lines between the squares (the fine ring lands on the lines).
    let mut responses = Vec::new();
    for (sigma, r) in [(1.0, 5), (2.0, 9)] {
        let mut g = Mat::default();
        imgproc::gaussian_blur(&f, &mut g, Size::new(0, 0), sigma, sigma, core::BORDER_REFLECT)?;
        responses.push(chess_response(&g, r)?);
    }
    let mut resp = Mat::default();
    core::max(&responses[0], &responses[1], &mut resp)?;

    // Local maxima over a 7×7 neighbourhood above an absolute floor.
    let kernel = Mat::new_rows_cols_with_default(7, 7, core::CV_8U, Scalar::all(1.0))?;
    let mut dil = Mat::default();
    imgproc::dilate(&resp, &mut dil, &kernel, Point::new(-1, -1), 1, core::BORDER_REFLECT, Scalar::default())?;
    let mut is_max = Mat::default();
    core::compare(&resp, &dil, &mut is_max, core::CMP_GE)?;
    const FLOOR: f64 = 15.0;
    let mut above = Mat::default();
    imgproc::threshold(&resp, &mut above, FLOOR, 255.0, imgproc::THRESH_BINARY)?;
    let mut above8 = Mat::default();
    above.convert_to(&mut above8, core::CV_8U, 1.0, 0.0)?;
    let mut mask = Mat::default();
    core::bitwise_and(&is_max, &above8, &mut mask, &core::no_array())?;
    let mut idx: Vector<Point> = Vector::new();
    core::find_non_zero(&mask, &mut idx)?;

    let mut cands: Vec<(Point, f32)> = Vec::with_capacity(idx.len());
    for p in idx.iter() {
        cands.push((p, *resp.at_2d::<f32>(p.y, p.x)?));
    }
    cands.sort_by(|a, b| b.1.total_cmp(&a.1));
    // The floor adapts to the image: a tenth of the strongest corners' response, so a
    // low-contrast board still counts while clutter beside a crisp one does not.
    let top = cands.iter().take(50).map(|c| c.1 as f64).sum::<f64>() / cands.len().clamp(1, 50) as f64;
    let thr = (0.1 * top).max(FLOOR);
    cands.retain(|c| c.1 as f64 > thr);
    cands.truncate(max_n);
    if cands.is_empty() {
        return Ok(Vec::new());
    }
    let mut pts: Vector<Point2f> = cands.iter().map(|c| Point2f::new(c.0.x as f32, c.0.y as f32)).collect();
    let criteria = TermCriteria::new(core::TermCriteria_EPS + core::TermCriteria_MAX_ITER, 20, 0.05)?;
    imgproc::corner_sub_pix(gray, &mut pts, Size::new(3, 3), Size::new(-1, -1), criteria)?;
    Ok(pts.iter().map(|p| [p.x as f64, p.y as f64]).collect())
}
