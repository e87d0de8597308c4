//! Staunton pieces as solids of revolution: each profile (height, radius in cm) is drawn as a
//! stack of projected discs, bottom first, so a tilted camera sees the sides and a tall piece
//! hides what stands behind it. The knight's head is a stack of ellipses leaning forward, so
//! it is recognisable from above. Discs facing up are lit, walls are darker.

use opencv::core::{Mat, Point, Scalar, Vector};
use opencv::imgproc;

use super::super::camera::{Camera, V3};
use super::super::scene::PieceSet;
use super::super::timeline::PieceState;
use super::table::Lighting;
use shakmaty::{Color, Role};

const SEGMENTS: usize = 20;
const SHIFT: i32 = 4;

fn profile(role: Role) -> &'static [(f64, f64)] {
    match role {
        Role::Pawn => &[(0.0, 1.45), (0.45, 1.45), (0.65, 1.2), (1.1, 1.1), (1.4, 0.8), (2.6, 0.5), (2.75, 0.78), (3.0, 0.5), (3.3, 0.72), (3.8, 0.88), (4.4, 0.72), (4.8, 0.35), (4.9, 0.0)],
        Role::Rook => &[(0.0, 1.7), (0.5, 1.7), (0.7, 1.4), (1.2, 1.25), (1.5, 1.0), (4.2, 0.95), (4.4, 1.15), (5.4, 1.15), (5.4, 0.7)],
        Role::Bishop => &[(0.0, 1.6), (0.5, 1.6), (0.7, 1.3), (1.2, 1.15), (1.5, 0.8), (4.0, 0.5), (4.2, 0.85), (4.45, 0.55), (5.0, 0.8), (5.8, 0.75), (6.4, 0.35), (6.6, 0.22), (6.8, 0.0)],
        Role::Queen => &[(0.0, 1.85), (0.5, 1.85), (0.75, 1.5), (1.3, 1.3), (1.6, 0.9), (5.6, 0.6), (5.8, 1.0), (6.1, 0.65), (7.4, 1.05), (7.8, 0.9), (8.1, 0.35), (8.4, 0.0)],
        Role::King => &[(0.0, 1.9), (0.5, 1.9), (0.75, 1.55), (1.3, 1.35), (1.6, 0.95), (6.0, 0.65), (6.2, 1.05), (6.5, 0.7), (7.8, 1.0), (8.2, 0.8), (8.4, 0.3), (9.6, 0.25)],
        Role::Knight => &[(0.0, 1.6), (0.5, 1.6), (0.75, 1.3), (1.2, 1.15), (1.6, 0.95)],
    }
}

/// Head of the knight: (height, forward offset, half-length along the facing, half-width).
const KNIGHT_HEAD: &[(f64, f64, f64, f64)] =
    &[(1.8, 0.0, 1.0, 0.9), (2.8, 0.15, 1.05, 0.82), (3.8, 0.35, 1.25, 0.76), (4.6, 0.6, 1.6, 0.7), (5.3, 0.8, 1.75, 0.64), (5.8, 0.45, 1.2, 0.55), (6.0, 0.2, 0.6, 0.4)];

/// Body colours (BGR) of White's and Black's pieces.
pub fn colours(set: PieceSet) -> [[f64; 3]; 2] {
    match set {
        PieceSet::Wooden => [[120.0, 178.0, 214.0], [34.0, 30.0, 40.0]],
        PieceSet::Plastic => [[205.0, 225.0, 235.0], [30.0, 30.0, 32.0]],
    }
}

fn ring(cam: &Camera, centre: V3, forward: [f64; 2], a: f64, b: f64) -> Vector<Point> {
    let side = [-forward[1], forward[0]];
    (0..SEGMENTS)
        .map(|i| {
            let th = i as f64 / SEGMENTS as f64 * std::f64::consts::TAU;
            let (s, c) = th.sin_cos();
            let p = [centre[0] + forward[0] * a * c + side[0] * b * s, centre[1] + forward[1] * a * c + side[1] * b * s, centre[2]];
            let [u, v] = cam.project(p);
            Point::new((u * 16.0).round() as i32, (v * 16.0).round() as i32)
        })
        .collect()
}

fn fill(img: &mut Mat, pts: &Vector<Point>, colour: Scalar) -> opencv::Result<()> {
    imgproc::fill_convex_poly(img, pts, colour, imgproc::LINE_AA, SHIFT)
}

/// A soft shadow on the board under a standing piece, away from the light.
pub fn draw_shadow(img: &mut Mat, cam: &Camera, p: &PieceState) -> opencv::Result<()> {
    if p.pos[2] > 1.0 {
        return Ok(());
    }
    let r = profile(p.piece.role)[0].1 * 1.15;
    let centre = [p.pos[0] + 0.6, p.pos[1] - 0.5, 0.01];
    let pts = ring(cam, centre, [1.0, 0.0], r * 1.1, r);
    imgproc::fill_convex_poly(img, &pts, Scalar::new(25.0, 25.0, 25.0, 0.0), imgproc::LINE_AA, SHIFT)
}

pub fn draw(img: &mut Mat, cam: &Camera, p: &PieceState, set: PieceSet, light: &Lighting) -> opencv::Result<()> {
    let body = colours(set)[if p.piece.color == Color::White { 0 } else { 1 }];
    let [u, v] = cam.project(p.pos);
    let tone = |k: f64| light.shade(body, u, v, k);
    let prof = profile(p.piece.role);
    let forward = [p.facing.cos(), p.facing.sin()];
    for (i, &(z, r)) in prof.iter().enumerate() {
        if r <= 0.0 {
            continue;
        }
        // The surface just above this disc: facing up (lit) if the radius shrinks.
        let (z2, r2) = prof.get(i + 1).copied().unwrap_or((z + 0.1, 0.0));
        let (dz, dr) = (z2 - z, r2 - r);
        let up = (-dr / (dz * dz + dr * dr).sqrt().max(1e-9)).max(0.0);
        let pts = ring(cam, [p.pos[0], p.pos[1], p.pos[2] + z], forward, r, r);
        fill(img, &pts, tone(0.55 + 0.5 * up))?;
    }
    let top = prof.last().map_or(0.0, |&(z, _)| z);
    match p.piece.role {
        Role::Knight => {
            for &(z, off, a, b) in KNIGHT_HEAD {
                let c = [p.pos[0] + forward[0] * off, p.pos[1] + forward[1] * off, p.pos[2] + z];
                fill(img, &ring(cam, c, forward, a, b), tone(0.6 + z / 15.0))?;
            }
            // The eye and the ears' notch, darker, so the head has a front.
            let eye = [p.pos[0] + forward[0] * 1.3, p.pos[1] + forward[1] * 1.3, p.pos[2] + 5.4];
            fill(img, &ring(cam, eye, forward, 0.35, 0.2), tone(0.35))?;
        }
        Role::Rook => {
            // Battlements: four notches in the top ring.
            for k in 0..4 {
                let ang = p.facing + k as f64 * std::f64::consts::FRAC_PI_2;
                let c = [p.pos[0] + ang.cos() * 0.9, p.pos[1] + ang.sin() * 0.9, p.pos[2] + top + 0.01];
                fill(img, &ring(cam, c, [ang.cos(), ang.sin()], 0.3, 0.2), tone(0.3))?;
            }
        }
        Role::King => {
            // The cross on top.
            let c = [p.pos[0], p.pos[1], p.pos[2] + top + 0.6];
            fill(img, &ring(cam, c, forward, 0.9, 0.22), tone(0.8))?;
            fill(img, &ring(cam, c, [-forward[1], forward[0]], 0.55, 0.22), tone(0.8))?;
        }
        Role::Bishop => {
            let c = [p.pos[0], p.pos[1], p.pos[2] + 5.9];
            fill(img, &ring(cam, c, forward, 0.6, 0.1), tone(0.3))?;
        }
        Role::Queen => {
            let c = [p.pos[0], p.pos[1], p.pos[2] + top + 0.1];
            fill(img, &ring(cam, c, forward, 0.3, 0.3), tone(1.05))?;
        }
        Role::Pawn => {}
    }
    // A highlight towards the light on the topmost surface (the king's is its cross).
    if p.piece.role == Role::King {
        return Ok(());
    }
    let hl = [p.pos[0] - 0.25, p.pos[1] + 0.3, p.pos[2] + top];
    fill(img, &ring(cam, hl, forward, 0.3, 0.3), tone(1.25))
}
