//! Frames from world states: the still table and board, piece shadows and pieces far to near,
//! the clock, the arms; then what a real camera adds — a drifting shadow, motion smear, lens
//! distortion and sensor noise. Each frame comes with its ground truth.

pub mod arms;
pub mod pieces;
pub mod table;

use opencv::core::{self, Mat, Point, Scalar};
use opencv::imgproc;
use opencv::prelude::*;
use serde::Serialize;
use shakmaty::{Board, Square};

use super::camera::{CLOCK_BUTTON_CM, CLOCK_FROM_CM, CLOCK_HALF_LENGTH_CM, CLOCK_HEIGHT_CM, CLOCK_TO_CM, Camera, HALF_BOARD_CM, V3, square_centre};
use super::rng::Rng;
use super::scene::Style;
use super::timeline::{WorldFrame, resting_on};
use crate::types::{Cell, Placement, Side};
use table::Lighting;

/// One hand as the ground truth gives it.
#[derive(Debug, Clone, Serialize)]
pub struct HandTruth {
    pub id: u32,
    pub side: Side,
    /// Outline in image pixels.
    pub polygon: Vec<[f64; 2]>,
    /// The fingertips' end, in image pixels.
    pub extremity: [f64; 2],
    /// Over the playing area (a hand only pressing the clock is not).
    pub over_board: bool,
}

/// What is true of one frame.
#[derive(Debug, Clone, Serialize)]
pub struct FrameTruth {
    pub frame: u64,
    pub t: f64,
    /// What stands on each square (a piece in a hand stands nowhere).
    pub placement: String,
    /// The same with `?` where a hand hides the square's centre.
    pub visible: String,
    pub hands: Vec<HandTruth>,
}

pub struct Renderer {
    pub cam: Camera,
    style: Style,
    light: Lighting,
    background: Mat,
    noise: Vec<Mat>,
    previous: Option<Mat>,
    count: u64,
}

fn round1(p: [f64; 2]) -> [f64; 2] {
    [(p[0] * 10.0).round() / 10.0, (p[1] * 10.0).round() / 10.0]
}

impl Renderer {
    pub fn new(cam: Camera, style: &Style, seed: u64) -> opencv::Result<Renderer> {
        let mut rng = Rng::new(seed ^ 0xB0A2D);
        let (w, h) = (cam.spec.width as i32, cam.spec.height as i32);
        let light = Lighting::new(style, cam.spec.width, cam.spec.height, &mut rng);
        let ideal = table::background(&cam, style, &light, &mut rng)?;
        // Distortion as a lookup: for each final pixel, the ideal pixel it shows. The still
        // background is distorted once; what moves is drawn straight through the distorting
        // projection, so no frame pays for a remap.
        let mut map_x = Mat::new_rows_cols_with_default(h, w, core::CV_32FC1, Scalar::all(0.0))?;
        let mut map_y = Mat::new_rows_cols_with_default(h, w, core::CV_32FC1, Scalar::all(0.0))?;
        {
            let (mx, my) = (map_x.data_typed_mut::<f32>()?, map_y.data_typed_mut::<f32>()?);
            for v in 0..h {
                for u in 0..w {
                    let [iu, iv] = cam.undistort([u as f64, v as f64]);
                    let i = (v * w + u) as usize;
                    mx[i] = iu as f32;
                    my[i] = iv as f32;
                }
            }
        }
        let mut background = Mat::default();
        imgproc::remap(&ideal, &mut background, &map_x, &map_y, imgproc::INTER_LINEAR, core::BORDER_REPLICATE, Scalar::all(0.0))?;
        // A few frames of sensor noise, cycled: offsets around 128 added with saturation.
        let sigma = style.noise.max(0.0);
        let noise = (0..3)
            .map(|_| {
                let mut m = Mat::new_rows_cols_with_default(h, w, core::CV_8UC3, Scalar::all(128.0))?;
                if sigma > 0.0 {
                    for b in m.data_bytes_mut()? {
                        // Sum of uniforms: close enough to Gaussian, and cheap.
                        let s: f64 = (0..4).map(|_| rng.below(1000) as f64 / 1000.0 - 0.5).sum::<f64>() * 1.732;
                        *b = (128.0 + s * sigma).clamp(0.0, 255.0) as u8;
                    }
                }
                Ok(m)
            })
            .collect::<opencv::Result<Vec<Mat>>>()?;
        Ok(Renderer { cam, style: style.clone(), light, background, noise, previous: None, count: 0 })
    }

    fn draw_clock(&self, img: &mut Mat, buttons: [f64; 2]) -> opencv::Result<()> {
        let x0 = CLOCK_FROM_CM;
        let (depth, half, top) = (CLOCK_TO_CM - CLOCK_FROM_CM, CLOCK_HALF_LENGTH_CM, CLOCK_HEIGHT_CM);
        let body = |x: f64, y: f64, z: f64| [x0 + x, y, z];
        // Top face of the box, and its sides as a darker slab below.
        let face = |z: f64| [body(0.0, -half, z), body(depth, -half, z), body(depth, half, z), body(0.0, half, z)];
        let poly = |pts: [V3; 4]| -> core::Vector<Point> {
            pts.iter().map(|&p| {
                let [u, v] = self.cam.project(p);
                Point::new((u * 16.0) as i32, (v * 16.0) as i32)
            }).collect()
        };
        let [u, v] = self.cam.project(body(depth / 2.0, 0.0, top));
        imgproc::fill_convex_poly(img, &poly(face(0.0)), self.light.shade([30.0, 30.0, 30.0], u, v, 1.0), imgproc::LINE_AA, 4)?;
        imgproc::fill_convex_poly(img, &poly(face(top)), self.light.shade([55.0, 50.0, 48.0], u, v, 1.0), imgproc::LINE_AA, 4)?;
        for (i, y) in [(0usize, -4.0), (1usize, 4.0)] {
            let z = top + CLOCK_BUTTON_CM * (1.0 - buttons[i]);
            let cap = [body(3.5, y - 1.5, z), body(6.5, y - 1.5, z), body(6.5, y + 1.5, z), body(3.5, y + 1.5, z)];
            let colour = if i == 0 { [200.0, 200.0, 200.0] } else { [20.0, 20.0, 160.0] };
            imgproc::fill_convex_poly(img, &poly(cap), self.light.shade(colour, u, v, 1.0 - 0.3 * buttons[i]), imgproc::LINE_AA, 4)?;
        }
        Ok(())
    }

    /// Renders one world state into a BGR frame and says what is true of it.
    pub fn render(&mut self, world: &WorldFrame) -> opencv::Result<(Mat, FrameTruth)> {
        let mut img = self.background.try_clone()?;
        let mut order: Vec<usize> = (0..world.pieces.len()).filter(|&i| world.pieces[i].on_table).collect();
        order.sort_by(|&a, &b| self.cam.depth(world.pieces[b].pos).total_cmp(&self.cam.depth(world.pieces[a].pos)));
        for &i in &order {
            pieces::draw_shadow(&mut img, &self.cam, &world.pieces[i])?;
        }
        for &i in &order {
            pieces::draw(&mut img, &self.cam, &world.pieces[i], self.style.pieces, &self.light)?;
        }
        self.draw_clock(&mut img, world.buttons)?;
        let mut hands = Vec::new();
        for h in &world.hands {
            let caps = arms::shape(h);
            let side = if h.side == shakmaty::Color::White { 0 } else { 1 };
            arms::draw(&mut img, &self.cam, &caps, self.style.skin[side], self.style.sleeves[side], &self.light)?;
            let over = !h.clock_only && h.tip[0].abs() < HALF_BOARD_CM + 1.0 && h.tip[1].abs() < HALF_BOARD_CM + 1.0;
            hands.push(HandTruth {
                id: h.id,
                side: h.side.into(),
                polygon: arms::outline(&self.cam, &caps).into_iter().map(round1).collect(),
                extremity: round1(self.cam.project(h.tip)),
                over_board: over,
            });
        }
        if self.style.moving_shadow {
            self.darken_shadow(&mut img, world.shadow)?;
        }
        if self.style.motion_blur > 0.0 {
            if let Some(prev) = &self.previous {
                let a = (self.style.motion_blur * 0.5).clamp(0.0, 0.6);
                let mut blended = Mat::default();
                core::add_weighted(&img, 1.0 - a, prev, a, 0.0, &mut blended, -1)?;
                self.previous = Some(img);
                img = blended;
            } else {
                self.previous = Some(img.try_clone()?);
            }
        }
        let mut out = img;
        if self.style.noise > 0.0 {
            let mut noisy = Mat::default();
            core::add_weighted(&out, 1.0, &self.noise[(self.count % 3) as usize], 1.0, -128.0, &mut noisy, -1)?;
            out = noisy;
        }
        self.count += 1;
        let truth = self.truth(world, hands);
        Ok((out, truth))
    }

    fn darken_shadow(&self, img: &mut Mat, at: f64) -> opencv::Result<()> {
        let (w, h) = (img.cols(), img.rows());
        let cx = (at * 1.4 - 0.2) * w as f64;
        let cy = h as f64 * 0.35;
        let (rx, ry) = (w as f64 * 0.22, h as f64 * 0.3);
        let data = img.data_bytes_mut()?;
        let (x0, x1) = (((cx - rx).max(0.0)) as i32, ((cx + rx).min(w as f64 - 1.0)) as i32);
        let (y0, y1) = (((cy - ry).max(0.0)) as i32, ((cy + ry).min(h as f64 - 1.0)) as i32);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let d = ((x as f64 - cx) / rx).powi(2) + ((y as f64 - cy) / ry).powi(2);
                if d < 1.0 {
                    let k = 1.0 - 0.35 * (1.0 - d).sqrt();
                    let i = ((y * w + x) * 3) as usize;
                    for c in 0..3 {
                        data[i + c] = (data[i + c] as f64 * k) as u8;
                    }
                }
            }
        }
        Ok(())
    }

    fn truth(&self, world: &WorldFrame, hands: Vec<HandTruth>) -> FrameTruth {
        let mut board = Board::empty();
        for sq in Square::ALL {
            if let Some(p) = resting_on(world, sq) {
                board.set_piece_at(sq, p);
            }
        }
        let placement = Placement::from(&board);
        let mut visible = placement.clone();
        for sq in Square::ALL {
            let c = square_centre(sq);
            let centre = self.cam.project(c);
            let top = self.cam.project([c[0], c[1], 4.0]);
            if hands.iter().any(|h| arms::inside(&h.polygon, centre) || arms::inside(&h.polygon, top)) {
                visible.0[usize::from(sq)] = Cell::Unknown;
            }
        }
        let frame = self.count - 1;
        FrameTruth { frame, t: 0.0, placement: placement.to_string(), visible: visible.to_string(), hands }
    }
}
