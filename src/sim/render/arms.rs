//! Arms and hands as articulated shapes: a sleeved forearm from beyond the table edge, the
//! wrist, a palm, four fingers and a thumb that close on a piece. Drawn as projected capsules
//! (shaded as cylinders); their outline and fingertip end are the ground truth for hands.

use opencv::core::{Mat, Point, Scalar};
use opencv::imgproc;

use super::super::camera::{Camera, V3};
use super::super::timeline::HandState;
use super::table::Lighting;

/// Skin tones, BGR, lightest to darkest.
const SKIN: [[f64; 3]; 6] = [[180.0, 200.0, 240.0], [150.0, 180.0, 225.0], [120.0, 155.0, 205.0], [90.0, 125.0, 175.0], [60.0, 90.0, 135.0], [45.0, 62.0, 95.0]];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Sleeve,
    Skin,
}

/// A capsule: two end points and a radius, all in cm.
#[derive(Debug, Clone, Copy)]
pub struct Capsule {
    pub a: V3,
    pub b: V3,
    pub r: f64,
    pub part: Part,
}

fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn mul(a: V3, k: f64) -> V3 {
    [a[0] * k, a[1] * k, a[2] * k]
}

/// The shapes of one arm, from the shoulder side to the fingertips.
pub fn shape(h: &HandState) -> Vec<Capsule> {
    let (dx, dy) = (h.tip[0] - h.anchor[0], h.tip[1] - h.anchor[1]);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let d = [dx / len, dy / len, 0.0];
    let side = [-d[1], d[0], 0.0];
    let tip = h.tip;
    let palm = add(add(tip, mul(d, -6.5)), [0.0, 0.0, 2.8]);
    let wrist = add(add(palm, mul(d, -4.5)), [0.0, 0.0, 1.2]);
    let elbow = add(add(wrist, mul(d, -24.0)), [0.0, 0.0, 8.0]);
    let cuff = add(wrist, mul(add(elbow, mul(wrist, -1.0)), 0.35));
    let mut caps = vec![
        Capsule { a: elbow, b: cuff, r: 4.0, part: Part::Sleeve },
        Capsule { a: cuff, b: wrist, r: 2.9, part: Part::Skin },
        Capsule { a: add(palm, mul(d, -1.5)), b: add(palm, mul(d, 1.6)), r: 3.6, part: Part::Skin },
    ];
    // Fingers: spread when open, gathered round the grip point when closed.
    let close = h.grip.clamp(0.0, 1.0);
    for (i, spread) in [-2.1, -0.7, 0.7, 2.0].into_iter().enumerate() {
        let knuckle = add(add(palm, mul(d, 3.0)), mul(side, spread * 0.9));
        let reach = [0.0, -0.4, 0.0, -0.9][i];
        let end = add(add(tip, mul(side, spread * (0.9 - 0.55 * close))), mul(d, reach));
        caps.push(Capsule { a: knuckle, b: end, r: 0.78, part: Part::Skin });
    }
    let thumb_base = add(add(palm, mul(side, -3.0)), mul(d, -1.0));
    let thumb_tip = add(add(tip, mul(side, -(2.6 - 1.6 * close))), mul(d, -1.8 + 0.8 * close));
    caps.push(Capsule { a: thumb_base, b: thumb_tip, r: 0.9, part: Part::Skin });
    caps
}

fn pt(p: [f64; 2]) -> Point {
    Point::new((p[0] * 16.0).round() as i32, (p[1] * 16.0).round() as i32)
}

/// Draws one arm; `skin` is a tone index, `sleeve` an RGB colour.
pub fn draw(img: &mut Mat, cam: &Camera, caps: &[Capsule], skin: u8, sleeve: [u8; 3], light: &Lighting) -> opencv::Result<()> {
    let skin = SKIN[(skin as usize).min(SKIN.len() - 1)];
    let sleeve = [sleeve[2] as f64, sleeve[1] as f64, sleeve[0] as f64];
    for c in caps {
        let base = if c.part == Part::Sleeve { sleeve } else { skin };
        let (pa, pb) = (cam.project(c.a), cam.project(c.b));
        let mid = mul(add(c.a, c.b), 0.5);
        let r = cam.pixels(mid, c.r);
        let [u, v] = pa;
        for (k, width, offset) in [(0.7, 1.0, 0.0), (1.0, 0.62, -0.18), (1.12, 0.25, -0.3)] {
            let colour: Scalar = light.shade(base, u, v, k);
            let shift = [offset * r * 0.7, offset * r];
            let a = pt([pa[0] + shift[0], pa[1] + shift[1]]);
            let b = pt([pb[0] + shift[0], pb[1] + shift[1]]);
            let thick = ((2.0 * r * width).round() as i32).max(1);
            imgproc::line(img, a, b, colour, thick, imgproc::LINE_AA, 4)?;
        }
    }
    Ok(())
}

/// The arm's outline in final image pixels: the convex hull of its capsules, which is what a
/// hand region should cover.
pub fn outline(cam: &Camera, caps: &[Capsule]) -> Vec<[f64; 2]> {
    let mut pts = Vec::new();
    for c in caps {
        for end in [c.a, c.b] {
            let [u, v] = cam.project(end);
            let r = cam.pixels(end, c.r);
            for k in 0..8 {
                let th = k as f64 / 8.0 * std::f64::consts::TAU;
                pts.push([u + r * th.cos(), v + r * th.sin()]);
            }
        }
    }
    hull(pts)
}

/// Andrew's monotone chain.
pub fn hull(mut pts: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    pts.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    let mut lower: Vec<[f64; 2]> = Vec::new();
    for &p in &pts {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<[f64; 2]> = Vec::new();
    for &p in pts.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Whether a point lies inside a convex polygon (either winding).
pub fn inside(poly: &[[f64; 2]], p: [f64; 2]) -> bool {
    if poly.len() < 3 {
        return false;
    }
    let mut sign = 0.0;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let c = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        if c != 0.0 {
            if sign != 0.0 && c.signum() != sign {
                return false;
            }
            sign = c.signum();
        }
    }
    true
}
