//! A plane-to-plane projective map as nine numbers, with the few operations the board finder
//! needs; OpenCV fits it, plain arithmetic applies it (applying it per point through OpenCV
//! would cost more in call overhead than in arithmetic).

use opencv::calib3d;
use opencv::core::{Mat, Point2f, Vector};
use opencv::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Homography(pub [f64; 9]);

impl Homography {
    pub fn apply(&self, p: [f64; 2]) -> [f64; 2] {
        let h = &self.0;
        let w = h[6] * p[0] + h[7] * p[1] + h[8];
        // A point on (or behind) the horizon has no image; push it far away rather than
        // dividing by zero, so callers see it fall outside any frame.
        let w = if w.abs() < 1e-12 { 1e-12f64.copysign(w) } else { w };
        [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w]
    }

    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.0;
        let c = [
            m[4] * m[8] - m[5] * m[7],
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8],
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6],
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        let det = m[0] * c[0] + m[1] * c[3] + m[2] * c[6];
        if !det.is_finite() || det.abs() < 1e-18 {
            return None;
        }
        Some(Homography(c.map(|v| v / det)))
    }

    /// The affine map `origin + u·a + v·b`.
    pub fn affine(origin: [f64; 2], a: [f64; 2], b: [f64; 2]) -> Homography {
        Homography([a[0], b[0], origin[0], a[1], b[1], origin[1], 0.0, 0.0, 1.0])
    }

    pub fn from_mat(m: &Mat) -> Option<Homography> {
        if m.rows() != 3 || m.cols() != 3 {
            return None;
        }
        let mut h = [0.0; 9];
        for (i, v) in h.iter_mut().enumerate() {
            *v = *m.at_2d::<f64>(i as i32 / 3, i as i32 % 3).ok()?;
        }
        h.iter().all(|v| v.is_finite()).then_some(Homography(h))
    }

    pub fn to_mat(&self) -> opencv::Result<Mat> {
        Mat::from_slice_2d(&[&self.0[0..3], &self.0[3..6], &self.0[6..9]])
    }

    /// Least-squares fit through point pairs; with `ransac_px`, outliers further than that
    /// (in `dst` pixels) are set aside first and the inliers refined.
    pub fn fit(src: &[[f64; 2]], dst: &[[f64; 2]], ransac_px: Option<f64>) -> Option<Homography> {
        if src.len() < 4 || src.len() != dst.len() {
            return None;
        }
        let to_vec = |v: &[[f64; 2]]| -> Vector<Point2f> { v.iter().map(|p| Point2f::new(p[0] as f32, p[1] as f32)).collect() };
        let (s, d) = (to_vec(src), to_vec(dst));
        let mut mask = Mat::default();
        let (method, thr) = match ransac_px {
            Some(px) => (calib3d::RANSAC, px),
            None => (0, 3.0),
        };
        let m = calib3d::find_homography(&s, &d, &mut mask, method, thr).ok()?;
        if m.empty() {
            return None;
        }
        Homography::from_mat(&m)
    }

    /// The map from the square (0,0)–(n,n) onto a quadrilateral given corner by corner
    /// ((0,0), (n,0), (n,n), (0,n)).
    pub fn square_to_quad(n: f64, quad: &[[f64; 2]; 4]) -> Option<Homography> {
        let src = [[0.0, 0.0], [n, 0.0], [n, n], [0.0, n]];
        let s: Vector<Point2f> = src.iter().map(|p| Point2f::new(p[0] as f32, p[1] as f32)).collect();
        let d: Vector<Point2f> = quad.iter().map(|p| Point2f::new(p[0] as f32, p[1] as f32)).collect();
        let m = opencv::imgproc::get_perspective_transform(&s, &d, opencv::core::DECOMP_LU).ok()?;
        Homography::from_mat(&m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_apply() {
        let h = Homography([1.2, 0.1, 30.0, -0.05, 0.9, 12.0, 1e-4, -2e-4, 1.0]);
        let inv = h.inverse().unwrap();
        for p in [[0.0, 0.0], [100.0, 40.0], [-20.0, 300.0]] {
            let q = inv.apply(h.apply(p));
            assert!((q[0] - p[0]).abs() < 1e-9 && (q[1] - p[1]).abs() < 1e-9);
        }
    }

    #[test]
    fn fit_recovers_a_map_through_its_points() {
        let h = Homography([40.0, 3.0, 100.0, -2.0, 38.0, 50.0, 1e-3, 5e-4, 1.0]);
        let src: Vec<[f64; 2]> = (0..5).flat_map(|i| (0..5).map(move |j| [i as f64, j as f64])).collect();
        let dst: Vec<[f64; 2]> = src.iter().map(|&p| h.apply(p)).collect();
        let fit = Homography::fit(&src, &dst, Some(1.0)).unwrap();
        for &p in &src {
            let (a, b) = (fit.apply(p), h.apply(p));
            assert!((a[0] - b[0]).abs() < 0.01 && (a[1] - b[1]).abs() < 0.01);
        }
    }
}
