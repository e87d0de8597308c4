//! The camera's pose over the board, from the board's corners alone: what turns a point seen
//! *above* the board (fingertips on a piece's head, a lifted piece) into the square it stands
//! over. The board plane's homography fixes the camera up to its focal length; the principal
//! point is taken at the image centre and pixels square, and the focal length comes from the
//! two constraints a rotation puts on the homography (its first two columns orthogonal and of
//! equal length). A camera looking straight down leaves the focal length unconstrained; then
//! a typical webcam's is assumed, which matters little, as parallax is smallest there.
//!
//! Board units are squares, from a1's outer corner: x along the files, y along the ranks,
//! height towards the camera.

use super::homography::Homography;
use crate::types::BoardGeometry;

/// The focal length assumed when the view cannot tell it, in image widths (about 60° across).
const TYPICAL_FOCAL: f64 = 0.85;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    focal: f64,
    centre: [f64; 2],
    /// Rows of the rotation from board to camera coordinates.
    r: [[f64; 3]; 3],
    t: [f64; 3],
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn norm(a: [f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

impl Pose {
    /// The pose of a camera whose `width` × `height` image shows the board at `g`.
    pub fn from_board(g: &BoardGeometry, width: f64, height: f64) -> Option<Pose> {
        let centre = [width / 2.0, height / 2.0];
        // Board (x along files, y along ranks) → image, with the principal point at the origin.
        let c = g.corners;
        let quad = [[c[3][0] - centre[0], c[3][1] - centre[1]], [c[2][0] - centre[0], c[2][1] - centre[1]], [c[1][0] - centre[0], c[1][1] - centre[1]], [c[0][0] - centre[0], c[0][1] - centre[1]]];
        let h = Homography::square_to_quad(8.0, &quad)?.0;
        let col = |j: usize| [h[j], h[3 + j], h[6 + j]];
        let (h1, h2, h3) = (col(0), col(1), col(2));
        // With ω = 1/f²: (h1·h2)_xy ω + h1z h2z = 0 and (|h1|² − |h2|²)_xy ω + h1z² − h2z² = 0.
        let a1 = h1[0] * h2[0] + h1[1] * h2[1];
        let b1 = h1[2] * h2[2];
        let a2 = h1[0] * h1[0] + h1[1] * h1[1] - h2[0] * h2[0] - h2[1] * h2[1];
        let b2 = h1[2] * h1[2] - h2[2] * h2[2];
        let omega = -(a1 * b1 + a2 * b2) / (a1 * a1 + a2 * a2).max(1e-300);
        let typical = TYPICAL_FOCAL * width;
        let focal = if omega > 0.0 { (1.0 / omega).sqrt() } else { typical };
        // Too long or too short to be a real lens: the constraints were too weak to tell.
        let focal = if (0.3 * width..6.0 * width).contains(&focal) { focal } else { typical };
        let k_inv = |v: [f64; 3]| [v[0] / focal, v[1] / focal, v[2]];
        let (mut r1, mut r2, mut t) = (k_inv(h1), k_inv(h2), k_inv(h3));
        let scale = 2.0 / (norm(r1) + norm(r2));
        // The board lies in front of the camera.
        let scale = if t[2] * scale < 0.0 { -scale } else { scale };
        for v in [&mut r1, &mut r2, &mut t] {
            for x in v.iter_mut() {
                *x *= scale;
            }
        }
        let r3 = cross(r1, r2);
        let r = [[r1[0], r2[0], r3[0]], [r1[1], r2[1], r3[1]], [r1[2], r2[2], r3[2]]];
        let pose = Pose { focal, centre, r, t };
        pose.is_finite().then_some(pose)
    }

    fn is_finite(&self) -> bool {
        self.focal.is_finite() && self.t.iter().chain(self.r.iter().flatten()).all(|v| v.is_finite())
    }

    /// The camera's centre in board units.
    pub fn camera(&self) -> [f64; 3] {
        // C = −Rᵀ t.
        let r = &self.r;
        let t = self.t;
        [0, 1, 2].map(|j| -(r[0][j] * t[0] + r[1][j] * t[1] + r[2][j] * t[2]))
    }

    /// Which way "up" (towards the camera) runs along the board's third axis: +1 or −1.
    fn up(&self) -> f64 {
        if self.camera()[2] >= 0.0 { 1.0 } else { -1.0 }
    }

    /// Where a point `height` squares above the board at (`x`, `y`) appears in the image.
    pub fn project(&self, x: f64, y: f64, height: f64) -> [f64; 2] {
        let p = [x, y, height * self.up()];
        let cam = [0, 1, 2].map(|i| self.r[i][0] * p[0] + self.r[i][1] * p[1] + self.r[i][2] * p[2] + self.t[i]);
        [self.centre[0] + self.focal * cam[0] / cam[2], self.centre[1] + self.focal * cam[1] / cam[2]]
    }

    /// The board point under an image point that stands `height` squares above the board.
    pub fn board_point(&self, pixel: [f64; 2], height: f64) -> Option<[f64; 2]> {
        let ray_cam = [(pixel[0] - self.centre[0]) / self.focal, (pixel[1] - self.centre[1]) / self.focal, 1.0];
        // Into board coordinates: d = Rᵀ ray.
        let r = &self.r;
        let d = [0, 1, 2].map(|j| r[0][j] * ray_cam[0] + r[1][j] * ray_cam[1] + r[2][j] * ray_cam[2]);
        let c = self.camera();
        let z = height * self.up();
        if d[2].abs() < 1e-12 {
            return None;
        }
        let s = (z - c[2]) / d[2];
        (s > 0.0).then(|| [c[0] + s * d[0], c[1] + s * d[1]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::camera::{Camera, CameraSpec, SQUARE_CM};
    use crate::types::ImageSide;

    /// Posed cameras of the renderer: a point above the board, seen in the image, is put back
    /// over the right place.
    #[test]
    fn points_above_the_board_go_back_over_their_place() {
        for (tilt, towards, height, white) in [(0.0, 0.0, 70.0, 0.0), (25.0, 30.0, 55.0, 90.0), (15.0, 200.0, 85.0, 180.0), (30.0, 280.0, 60.0, 270.0)] {
            let spec = CameraSpec { height_cm: height, tilt_deg: tilt, tilt_towards_deg: towards, white_at_deg: white, k1: 0.0, ..CameraSpec::default() };
            let cam = Camera::new(&spec);
            let g = BoardGeometry { corners: cam.board_corners(), white: ImageSide::Bottom, h1_light: true };
            let pose = Pose::from_board(&g, spec.width as f64, spec.height as f64).unwrap();
            for (x, y, z) in [(1.5, 6.5, 1.2), (4.0, 4.0, 0.0), (7.2, 0.4, 0.8)] {
                let world = [(x - 4.0) * SQUARE_CM, (y - 4.0) * SQUARE_CM, z * SQUARE_CM];
                let seen = cam.project(world);
                let back = pose.board_point(seen, z).unwrap();
                let err = ((back[0] - x).powi(2) + (back[1] - y).powi(2)).sqrt();
                // Straight down, the focal length is assumed, not measured: a little parallax error remains.
                let allowed = if tilt == 0.0 { 0.15 } else { 0.03 };
                assert!(err < allowed, "tilt {tilt}: ({x},{y},{z}) came back at {back:?}");
                let again = pose.project(x, y, z);
                assert!((again[0] - seen[0]).abs() < 40.0 * allowed && (again[1] - seen[1]).abs() < 40.0 * allowed, "{again:?} vs {seen:?}");
            }
        }
    }

    #[test]
    fn a_degenerate_outline_gives_no_pose() {
        let g = BoardGeometry { corners: [[0.0, 0.0]; 4], white: ImageSide::Bottom, h1_light: true };
        assert!(Pose::from_board(&g, 1280.0, 720.0).is_none());
    }
}
