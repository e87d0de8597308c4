//! The still part of every frame: the table, the board (wood, vinyl or print, with or without
//! coordinates) and the light over them, drawn once per scene from textures warped through the
//! camera, in ideal (undistorted) pixels.

use opencv::core::{self, Mat, Point2f, Scalar, Size, Vector};
use opencv::imgproc;
use opencv::prelude::*;

use super::super::camera::{BORDER_CM, Camera, HALF_BOARD_CM, SQUARE_CM};
use super::super::rng::Rng;
use super::super::scene::{BoardLook, Light, Style};

/// How light falls: a colour tint and a gradient across the table.
#[derive(Debug, Clone)]
pub struct Lighting {
    tint: [f64; 3],
    uneven: f64,
    direction: [f64; 2],
    width: f64,
    height: f64,
}

impl Lighting {
    pub fn new(style: &Style, width: u32, height: u32, rng: &mut Rng) -> Lighting {
        let tint = match style.light {
            Light::Neutral => [1.0, 1.0, 1.0],
            Light::Warm => [0.86, 0.97, 1.1], // BGR: less blue, more red
            Light::Cool => [1.12, 1.0, 0.88],
        };
        let angle = rng.below(360) as f64 * std::f64::consts::PI / 180.0;
        Lighting { tint, uneven: style.uneven.clamp(0.0, 1.0), direction: [angle.cos(), angle.sin()], width: width as f64, height: height as f64 }
    }

    /// The multiplier for each BGR channel at a pixel.
    pub fn at(&self, u: f64, v: f64) -> [f64; 3] {
        let x = (u / self.width - 0.5) * self.direction[0] + (v / self.height - 0.5) * self.direction[1];
        let k = 1.0 - self.uneven * 0.45 * (0.5 + x);
        [self.tint[0] * k, self.tint[1] * k, self.tint[2] * k]
    }

    /// A colour as it looks at a pixel.
    pub fn shade(&self, bgr: [f64; 3], u: f64, v: f64, k: f64) -> Scalar {
        let m = self.at(u, v);
        Scalar::new((bgr[0] * m[0] * k).min(255.0), (bgr[1] * m[1] * k).min(255.0), (bgr[2] * m[2] * k).min(255.0), 0.0)
    }
}

fn rgb(c: [u8; 3]) -> [f64; 3] {
    [c[2] as f64, c[1] as f64, c[0] as f64]
}

/// Fills a BGR texture pixel by pixel.
fn texture(rows: i32, cols: i32, mut f: impl FnMut(i32, i32) -> [f64; 3]) -> opencv::Result<Mat> {
    let mut m = Mat::new_rows_cols_with_default(rows, cols, core::CV_8UC3, Scalar::all(0.0))?;
    let data = m.data_bytes_mut()?;
    for r in 0..rows {
        for c in 0..cols {
            let px = f(r, c);
            let i = ((r * cols + c) * 3) as usize;
            for k in 0..3 {
                data[i + k] = px[k].clamp(0.0, 255.0) as u8;
            }
        }
    }
    Ok(m)
}

/// Warps a texture covering the world rectangle `[x0,x1]×[y0,y1]` (cm, z=0) into `into`.
fn warp(into: &mut Mat, tex: &Mat, cam: &Camera, x0: f64, x1: f64, y0: f64, y1: f64) -> opencv::Result<()> {
    let (w, h) = (tex.cols() as f32, tex.rows() as f32);
    let src: Vector<Point2f> = Vector::from_iter([Point2f::new(0.0, 0.0), Point2f::new(w, 0.0), Point2f::new(w, h), Point2f::new(0.0, h)]);
    let world = [[x0, y1, 0.0], [x1, y1, 0.0], [x1, y0, 0.0], [x0, y0, 0.0]];
    let dst: Vector<Point2f> = world.iter().map(|&p| {
        let [u, v] = cam.project_ideal(p);
        Point2f::new(u as f32, v as f32)
    }).collect();
    let m = imgproc::get_perspective_transform(&src, &dst, core::DECOMP_LU)?;
    let size = Size::new(into.cols(), into.rows());
    let mut warped = Mat::default();
    imgproc::warp_perspective(tex, &mut warped, &m, size, imgproc::INTER_LINEAR, core::BORDER_CONSTANT, Scalar::all(0.0))?;
    let mut mask = Mat::default();
    let white = Mat::new_rows_cols_with_default(tex.rows(), tex.cols(), core::CV_8UC1, Scalar::all(255.0))?;
    imgproc::warp_perspective(&white, &mut mask, &m, size, imgproc::INTER_NEAREST, core::BORDER_CONSTANT, Scalar::all(0.0))?;
    warped.copy_to_masked(into, &mask)
}

/// The table and board with the light on them, in ideal pixels.
pub fn background(cam: &Camera, style: &Style, light: &Lighting, rng: &mut Rng) -> opencv::Result<Mat> {
    let (w, h) = (cam.spec.width as i32, cam.spec.height as i32);
    let mut out = Mat::new_rows_cols_with_default(h, w, core::CV_8UC3, Scalar::all(0.0))?;

    // The table: oiled wood, wide enough to fill any view.
    let table_rgb = [[112, 84, 62], [150, 120, 90], [70, 74, 82]][rng.below(3)];
    let base = rgb(table_rgb);
    let phase = rng.below(1000) as f64;
    let table = texture(400, 600, |r, c| {
        let grain = ((r as f64 * 0.35 + (c as f64 * 0.02 + phase).sin() * 6.0).sin() * 0.06) + 1.0;
        let k = grain * (0.97 + 0.03 * ((c as f64 * 0.7 + r as f64 * 13.1).sin()));
        [base[0] * k, base[1] * k, base[2] * k]
    })?;
    warp(&mut out, &table, cam, -300.0, 300.0, -200.0, 200.0)?;

    // The board: playing area and border.
    let px_per_cm = 16.0;
    let extent = HALF_BOARD_CM + BORDER_CM;
    let size = (2.0 * extent * px_per_cm) as i32;
    let (light_sq, dark_sq, border) = match style.board {
        BoardLook::Wood => ([222, 184, 135], [139, 90, 55], [92, 58, 34]),
        BoardLook::Vinyl => ([238, 238, 210], [118, 150, 86], [238, 238, 220]),
        BoardLook::Print => ([240, 224, 188], [172, 122, 78], [245, 240, 225]),
    };
    let (light_sq, dark_sq, border) = (rgb(light_sq), rgb(dark_sq), rgb(border));
    let grain_on = style.board == BoardLook::Wood;
    let seed = rng.below(1000) as f64;
    let mut board = texture(size, size, |r, c| {
        let x = c as f64 / px_per_cm - extent;
        let y = extent - r as f64 / px_per_cm;
        let inside = x.abs() < HALF_BOARD_CM && y.abs() < HALF_BOARD_CM;
        let colour = if inside {
            let f = ((x + HALF_BOARD_CM) / SQUARE_CM).floor() as i32;
            let rk = ((y + HALF_BOARD_CM) / SQUARE_CM).floor() as i32;
            if (f + rk) % 2 == 0 { dark_sq } else { light_sq }
        } else {
            border
        };
        let k = if grain_on {
            // Grain runs along each square's own direction, alternating, as in inlaid boards.
            let along = if ((x + 40.0) / SQUARE_CM) as i32 % 2 == 0 { y } else { x };
            1.0 + 0.07 * ((along * 2.3 + (x * 0.7 + y * 0.9 + seed).sin() * 1.5).sin())
        } else {
            1.0 + 0.015 * ((x * 31.0 + y * 17.0).sin())
        };
        [colour[0] * k, colour[1] * k, colour[2] * k]
    })?;
    if style.coordinates {
        let ink = if style.board == BoardLook::Wood { Scalar::new(170.0, 200.0, 225.0, 0.0) } else { Scalar::new(60.0, 60.0, 60.0, 0.0) };
        for i in 0..8 {
            let centre = ((i as f64 - 3.5) * SQUARE_CM + extent) * px_per_cm;
            let file = ((b'a' + i as u8) as char).to_string();
            let rank = (i + 1).to_string();
            let edge = (size as f64 - BORDER_CM * px_per_cm * 0.3) as i32;
            imgproc::put_text(&mut board, &file, core::Point::new(centre as i32 - 8, edge), imgproc::FONT_HERSHEY_SIMPLEX, 0.9, ink, 2, imgproc::LINE_AA, false)?;
            let row = (size as f64 - centre) as i32 + 10;
            imgproc::put_text(&mut board, &rank, core::Point::new(6, row), imgproc::FONT_HERSHEY_SIMPLEX, 0.9, ink, 2, imgproc::LINE_AA, false)?;
        }
    }
    warp(&mut out, &board, cam, -extent, extent, -extent, extent)?;

    // Light: tint and gradient over everything still.
    let data = out.data_bytes_mut()?;
    for v in 0..h {
        for u in 0..w {
            let m = light.at(u as f64, v as f64);
            let i = ((v * w + u) * 3) as usize;
            for k in 0..3 {
                data[i + k] = (data[i + k] as f64 * m[k]).min(255.0) as u8;
            }
        }
    }
    Ok(out)
}
