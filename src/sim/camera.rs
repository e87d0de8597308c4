//! The camera over the table: a pinhole with a pose (height, tilt towards a player, roll, which
//! way round the board lies in the image), a focal length and slight radial lens distortion.
//! World units are centimetres: the board's centre is the origin, x runs from the a-file to the
//! h-file, y from rank 1 to rank 8, z up.

use serde::{Deserialize, Serialize};

pub type V3 = [f64; 3];

/// A square's side, in centimetres (tournament boards: 5–6 cm).
pub const SQUARE_CM: f64 = 5.0;
/// The playing area's half-width.
pub const HALF_BOARD_CM: f64 = 4.0 * SQUARE_CM;
/// The clock beside the h-file edge: a box from `CLOCK_FROM_CM` to `CLOCK_TO_CM` out from the
/// board's centre, 16 cm along the edge, 6 cm high, its buttons up to 1.2 cm above that.
pub const CLOCK_FROM_CM: f64 = HALF_BOARD_CM + 9.0;
pub const CLOCK_TO_CM: f64 = CLOCK_FROM_CM + 10.0;
pub const CLOCK_HALF_LENGTH_CM: f64 = 8.0;
pub const CLOCK_HEIGHT_CM: f64 = 6.0;
pub const CLOCK_BUTTON_CM: f64 = 1.2;
/// The middle of the clock's box, out from the board's centre: where its buttons are.
pub const CLOCK_MID_CM: f64 = (CLOCK_FROM_CM + CLOCK_TO_CM) / 2.0;
/// The board's frame beyond the playing area.
pub const BORDER_CM: f64 = 2.5;
/// The share of the picture's width and height the board and clock may span when the focal
/// length is picked: a little margin all round.
const FILL: f64 = 0.94;

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V3, b: V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn scale(a: V3, k: f64) -> V3 {
    [a[0] * k, a[1] * k, a[2] * k]
}
fn norm(a: V3) -> V3 {
    scale(a, 1.0 / dot(a, a).sqrt())
}

/// How the camera sits, as a scene script gives it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct CameraSpec {
    /// Height of the lens above the board, cm (50–90 in a hall).
    pub height_cm: f64,
    /// Tilt from straight down, degrees, leaning towards `tilt_towards_deg`.
    pub tilt_deg: f64,
    /// The direction the camera leans back towards, degrees around the board (0: White's side).
    pub tilt_towards_deg: f64,
    /// Roll about the optical axis, degrees.
    pub roll_deg: f64,
    /// Where White sits in the image: 0 bottom, 90 right, 180 top, 270 left (degrees).
    pub white_at_deg: f64,
    /// Focal length in pixels; 0 picks one that frames the board with the clock beside it.
    pub focal_px: f64,
    /// Radial distortion k1 (slight barrel: -0.05…0).
    pub k1: f64,
    /// Image size.
    pub width: u32,
    pub height: u32,
}

impl Default for CameraSpec {
    fn default() -> Self {
        CameraSpec { height_cm: 70.0, tilt_deg: 8.0, tilt_towards_deg: 0.0, roll_deg: 0.0, white_at_deg: 0.0, focal_px: 0.0, k1: -0.02, width: 1280, height: 720 }
    }
}

/// A posed camera: projects world points to distorted image pixels.
#[derive(Debug, Clone)]
pub struct Camera {
    pub spec: CameraSpec,
    centre: V3,
    rows: [V3; 3],
    pub fx: f64,
    pub cx: f64,
    pub cy: f64,
}

/// The corners of the board's frame and of the clock's box, top and bottom: what the camera
/// must keep in view.
fn board_and_clock() -> Vec<V3> {
    let b = HALF_BOARD_CM + BORDER_CM;
    let mut points = vec![[-b, -b, 0.0], [b, -b, 0.0], [b, b, 0.0], [-b, b, 0.0]];
    for x in [CLOCK_FROM_CM, CLOCK_TO_CM] {
        for y in [-CLOCK_HALF_LENGTH_CM, CLOCK_HALF_LENGTH_CM] {
            points.extend([[x, y, 0.0], [x, y, CLOCK_HEIGHT_CM + CLOCK_BUTTON_CM]]);
        }
    }
    points
}

/// The camera's axes (right, down, forward in world terms) for a lens at `centre` looking at
/// `target`: "down in the image" is towards White, turned by where White sits, then rolled.
fn axes(spec: &CameraSpec, centre: V3, target: V3) -> [V3; 3] {
    let rad = |d: f64| d.to_radians();
    let forward = norm(sub(target, centre));
    let turn = rad(spec.white_at_deg);
    let towards_white = [-turn.sin(), -turn.cos(), 0.0];
    let down = norm(sub(towards_white, scale(forward, dot(towards_white, forward))));
    let right = cross(down, forward);
    let (s, c) = rad(spec.roll_deg).sin_cos();
    let x_axis = [right[0] * c + down[0] * s, right[1] * c + down[1] * s, right[2] * c + down[2] * s];
    let y_axis = [down[0] * c - right[0] * s, down[1] * c - right[1] * s, down[2] * c - right[2] * s];
    [x_axis, y_axis, forward]
}

impl Camera {
    pub fn new(spec: &CameraSpec) -> Camera {
        let rad = |d: f64| d.to_radians();
        let (w, h) = (spec.width as f64, spec.height as f64);
        // Leaning back towards a side: the lens moves that way (and looks at the board's centre
        // unless the clock needs it turned: see `frame_board_and_clock`).
        let lean = rad(spec.tilt_towards_deg);
        let back = [-(lean.sin()), -(lean.cos()), 0.0];
        let tilt = rad(spec.tilt_deg);
        let centre = [back[0] * spec.height_cm * tilt.tan(), back[1] * spec.height_cm * tilt.tan(), spec.height_cm];
        let mut cam = Camera { spec: spec.clone(), centre, rows: axes(spec, centre, [0.0; 3]), fx: spec.focal_px, cx: w / 2.0, cy: h / 2.0 };
        if spec.focal_px <= 0.0 {
            cam.frame_board_and_clock();
        }
        cam
    }

    /// Picks where the camera looks and its focal length so that the board and the clock are
    /// both in view, as whoever sets up a camera at a tournament table frames them: aimed at
    /// the board's centre, the board about 62 cm across the shorter side, where that leaves the
    /// clock in view; else turned towards the clock as little as lets the board stay largest,
    /// and zoomed out only as far as that still needs. The optical axis stays at the picture's
    /// centre, as on a real lens: the vision's pose assumes it there.
    fn frame_board_and_clock(&mut self) {
        let (w, h) = (self.spec.width as f64, self.spec.height as f64);
        let base = 0.92 * w.min(h) * self.spec.height_cm / 62.0;
        let points = board_and_clock();
        // The focal length that fits every point within the margin, looking at `target`.
        let fitting = |rows: &[V3; 3]| {
            let (mut ax, mut ay) = (0.0f64, 0.0f64);
            for &p in &points {
                let d = sub(p, self.centre);
                let depth = dot(rows[2], d).max(1e-6);
                ax = ax.max((dot(rows[0], d) / depth).abs());
                ay = ay.max((dot(rows[1], d) / depth).abs());
            }
            base.min(FILL * w / (2.0 * ax)).min(FILL * h / (2.0 * ay))
        };
        // From the board's centre towards the clock's, in steps of a twentieth.
        let mut best = (fitting(&self.rows), self.rows);
        for step in 1..=20 {
            let rows = axes(&self.spec, self.centre, [CLOCK_MID_CM * f64::from(step) / 20.0, 0.0, 0.0]);
            let fx = fitting(&rows);
            // Only a real gain turns the camera: with the clock in view already, it stays aimed
            // at the board.
            if fx > best.0 * 1.001 {
                best = (fx, rows);
            }
        }
        (self.fx, self.rows) = best;
    }

    pub fn centre(&self) -> V3 {
        self.centre
    }

    /// Distance along the optical axis (for drawing order and sizes).
    pub fn depth(&self, p: V3) -> f64 {
        dot(self.rows[2], sub(p, self.centre))
    }

    /// Ideal (undistorted) pixel of a world point.
    pub fn project_ideal(&self, p: V3) -> [f64; 2] {
        let d = sub(p, self.centre);
        let z = dot(self.rows[2], d).max(1e-6);
        [self.cx + self.fx * dot(self.rows[0], d) / z, self.cy + self.fx * dot(self.rows[1], d) / z]
    }

    /// The pixel a world point lands on in the final (distorted) image.
    pub fn project(&self, p: V3) -> [f64; 2] {
        self.distort(self.project_ideal(p))
    }

    /// Ideal pixel → distorted pixel.
    pub fn distort(&self, ideal: [f64; 2]) -> [f64; 2] {
        let (x, y) = ((ideal[0] - self.cx) / self.fx, (ideal[1] - self.cy) / self.fx);
        let f = 1.0 + self.spec.k1 * (x * x + y * y);
        [self.cx + self.fx * x * f, self.cy + self.fx * y * f]
    }

    /// Distorted pixel → ideal pixel (Newton on the radial model; k1 is small).
    pub fn undistort(&self, pixel: [f64; 2]) -> [f64; 2] {
        let (xd, yd) = ((pixel[0] - self.cx) / self.fx, (pixel[1] - self.cy) / self.fx);
        let rd = (xd * xd + yd * yd).sqrt();
        if rd < 1e-12 || self.spec.k1 == 0.0 {
            return pixel;
        }
        let mut r = rd;
        for _ in 0..8 {
            let f = r * (1.0 + self.spec.k1 * r * r) - rd;
            let df = 1.0 + 3.0 * self.spec.k1 * r * r;
            r -= f / df;
        }
        let k = r / rd;
        [self.cx + self.fx * xd * k, self.cy + self.fx * yd * k]
    }

    /// Pixel size of `length_cm` at world point `p`, for drawing round things.
    pub fn pixels(&self, p: V3, length_cm: f64) -> f64 {
        self.fx * length_cm / self.depth(p).max(1e-6)
    }

    /// The playing area's outer corners at a8, h8, h1, a1, in image pixels (the contract's
    /// order for `touchmove calibrate`).
    pub fn board_corners(&self) -> [[f64; 2]; 4] {
        let h = HALF_BOARD_CM;
        [[-h, h, 0.0], [h, h, 0.0], [h, -h, 0.0], [-h, -h, 0.0]].map(|p| self.project(p))
    }

    /// The image edge White sits at, as `calibrate` reports it.
    pub fn white_edge(&self) -> &'static str {
        let [x, y] = self.project([0.0, -HALF_BOARD_CM, 0.0]);
        let [cx, cy] = self.project([0.0, 0.0, 0.0]);
        let (dx, dy) = (x - cx, y - cy);
        if dy.abs() >= dx.abs() {
            if dy > 0.0 { "bottom" } else { "top" }
        } else if dx > 0.0 {
            "right"
        } else {
            "left"
        }
    }
}

/// The world centre of a square.
pub fn square_centre(sq: shakmaty::Square) -> V3 {
    let f = u32::from(sq.file()) as f64;
    let r = u32::from(sq.rank()) as f64;
    [(f - 3.5) * SQUARE_CM, (r - 3.5) * SQUARE_CM, 0.0]
}

/// The square under a world point on the board, if any.
pub fn square_at(p: V3) -> Option<shakmaty::Square> {
    let f = ((p[0] + HALF_BOARD_CM) / SQUARE_CM).floor();
    let r = ((p[1] + HALF_BOARD_CM) / SQUARE_CM).floor();
    ((0.0..8.0).contains(&f) && (0.0..8.0).contains(&r))
        .then(|| shakmaty::Square::from_coords(shakmaty::File::new(f as u32), shakmaty::Rank::new(r as u32)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_down_puts_white_at_the_bottom_and_a1_bottom_left() {
        let cam = Camera::new(&CameraSpec { tilt_deg: 0.0, k1: 0.0, ..CameraSpec::default() });
        let [a8, h8, h1, a1] = cam.board_corners();
        assert!(a1[1] > a8[1] && a1[0] < h1[0] && h8[0] > a8[0]);
        assert_eq!(cam.white_edge(), "bottom");
        let c = cam.project([0.0, 0.0, 0.0]);
        assert!((c[0] - 640.0).abs() < 1e-9 && (c[1] - 360.0).abs() < 1e-9);
    }

    #[test]
    fn white_side_follows_the_turn() {
        for (deg, edge) in [(0.0, "bottom"), (90.0, "right"), (180.0, "top"), (270.0, "left")] {
            let cam = Camera::new(&CameraSpec { white_at_deg: deg, tilt_deg: 20.0, tilt_towards_deg: 30.0, roll_deg: 3.0, ..CameraSpec::default() });
            assert_eq!(cam.white_edge(), edge, "{deg}");
        }
    }

    #[test]
    fn the_board_and_the_clock_are_in_view_from_every_pose() {
        for height_cm in [50.0, 70.0, 90.0] {
            for tilt_deg in [0.0, 15.0, 30.0] {
                for tilt_towards_deg in [-15.0, 0.0, 90.0, 195.0, 270.0] {
                    for white_at_deg in [0.0, 90.0, 180.0, 270.0] {
                        for roll_deg in [-5.0, 5.0] {
                            let spec = CameraSpec { height_cm, tilt_deg, tilt_towards_deg, white_at_deg, roll_deg, k1: -0.05, ..CameraSpec::default() };
                            let cam = Camera::new(&spec);
                            for p in board_and_clock() {
                                let [u, v] = cam.project(p);
                                assert!((0.0..1280.0).contains(&u) && (0.0..720.0).contains(&v), "{p:?} at {u:.0},{v:.0} from {spec:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_clock_already_in_view_leaves_the_framing_alone_and_one_out_of_it_turns_the_camera() {
        let base = 0.92 * 720.0 * 70.0 / 62.0;
        // The clock beside the board along the picture's width fits as it is: the board's
        // centre stays at the picture's.
        let cam = Camera::new(&CameraSpec::default());
        assert!((cam.fx - base).abs() < 1e-9 && cam.cx == 640.0 && cam.cy == 360.0);
        let [u, v] = cam.project([0.0; 3]);
        assert!((u - 640.0).abs() < 1.0 && (v - 360.0).abs() < 1.0, "{u},{v}");
        // White on the right puts the h-file, and the clock, at the top: the camera turns up
        // towards it, the optical axis still at the picture's centre, and the board's centre
        // moves down.
        let cam = Camera::new(&CameraSpec { white_at_deg: 90.0, ..CameraSpec::default() });
        assert!(cam.cx == 640.0 && cam.cy == 360.0);
        let [_, v] = cam.project([0.0; 3]);
        assert!(v > 380.0, "{v}");
        let [_, v] = cam.project([CLOCK_MID_CM, 0.0, CLOCK_HEIGHT_CM]);
        assert!(v > 0.0, "{v}");
    }

    #[test]
    fn distortion_round_trips() {
        let cam = Camera::new(&CameraSpec { k1: -0.05, ..CameraSpec::default() });
        for p in [[0.0, 0.0], [100.0, 50.0], [1270.0, 700.0], [3.0, 719.0]] {
            let back = cam.undistort(cam.distort(p));
            assert!((back[0] - p[0]).abs() < 1e-6 && (back[1] - p[1]).abs() < 1e-6, "{p:?} {back:?}");
        }
    }

    #[test]
    fn squares_and_points_agree() {
        for sq in shakmaty::Square::ALL {
            assert_eq!(square_at(square_centre(sq)), Some(sq));
        }
        assert_eq!(square_at([30.0, 0.0, 0.0]), None);
    }
}
