//! Which 8×8 block of the lattice is the playing area, which squares are light, and at which
//! edge the light pieces stand.
//!
//! The lattice says where grid lines are, not where the board ends: the border, a printed frame
//! or the table may carry corners too, and pieces hide the outer ranks. So each candidate block
//! is judged by what a playing area is: every row and every column of it alternates light,
//! dark, light… in step with one parity, while the border beside it is one colour, and the
//! grid's X-corners lie on its inner lines. Alternation is measured *along* a row (never
//! across the playing area's edge, where a border of a middling colour would mimic it), at
//! four points near each square's edges separately, keeping the best: a piece covers a
//! square's middle and leans over some of its edge, rarely all of it.

use std::collections::HashMap;

use super::homography::Homography;
use super::lattice::Lattice;

/// Bilinear samples of a float BGR image.
pub struct Sampler<'a> {
    pub data: &'a [opencv::core::Vec3f],
    pub w: usize,
    pub h: usize,
}

impl Sampler<'_> {
    /// The colour at a pixel position, or `None` too near the edge to trust.
    pub fn at(&self, p: [f64; 2]) -> Option<[f64; 3]> {
        let [x, y] = p;
        if !(x >= 1.0 && y >= 1.0 && x < self.w as f64 - 2.0 && y < self.h as f64 - 2.0) {
            return None;
        }
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (fx, fy) = (x - x0 as f64, y - y0 as f64);
        let px = |xx: usize, yy: usize, c: usize| self.data[yy * self.w + xx][c] as f64;
        let mut out = [0.0; 3];
        for (c, o) in out.iter_mut().enumerate() {
            let top = px(x0, y0, c) * (1.0 - fx) + px(x0 + 1, y0, c) * fx;
            let bottom = px(x0, y0 + 1, c) * (1.0 - fx) + px(x0 + 1, y0 + 1, c) * fx;
            *o = top * (1.0 - fy) + bottom * fy;
        }
        Some(out)
    }
}

/// Sample points inside a square near its four corners (lattice units from its corner).
const CORNER_OFFS: [[f64; 2]; 4] = [[0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]];
/// Where a square is compared with its neighbours along u: near its u-edges, well inside its
/// v-edges, so a border square beside the playing area never borrows the squares' colours
/// through a grid a little off at the far edge; and the same turned for v.
const ALONG_U: [[f64; 2]; 4] = [[0.12, 0.3], [0.88, 0.3], [0.12, 0.7], [0.88, 0.7]];
const ALONG_V: [[f64; 2]; 4] = [[0.3, 0.12], [0.3, 0.88], [0.7, 0.12], [0.7, 0.88]];

/// The playing area within the lattice: squares (i0..i0+8, j0..j0+8); the squares with
/// `(i + j) % 2 == light_parity` are light; `light` and `dark` are their colours; `quality`
/// is the mean alternation along rows and columns, 1 for a clean board, ~0 for no board.
#[derive(Debug, Clone, Copy)]
pub struct Extent {
    pub i0: i32,
    pub j0: i32,
    pub light_parity: i32,
    pub light: [f64; 3],
    pub dark: [f64; 3],
    pub quality: f64,
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn parity(i: i32, j: i32) -> i32 {
    (i + j).rem_euclid(2)
}

/// Where a colour lies between the dark (0) and the light (1) squares' colours.
pub fn tone(c: [f64; 3], light: [f64; 3], dark: [f64; 3]) -> f64 {
    let axis = [light[0] - dark[0], light[1] - dark[1], light[2] - dark[2]];
    let n2 = axis.iter().map(|a| a * a).sum::<f64>().max(1e-9);
    ((c[0] - dark[0]) * axis[0] + (c[1] - dark[1]) * axis[1] + (c[2] - dark[2]) * axis[2]) / n2
}

pub fn choose(s: &Sampler, lat: &Lattice) -> Option<Extent> {
    let (mut imin, mut jmin, mut imax, mut jmax) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for n in &lat.nodes {
        imin = imin.min(n[0]);
        imax = imax.max(n[0]);
        jmin = jmin.min(n[1]);
        jmax = jmax.max(n[1]);
    }
    // Every block that could still hold the corners found, and a margin to judge it by.
    let (ib, jb) = (imin - 9, jmin - 9);
    let (ni, nj) = ((imax - imin + 18) as usize, (jmax - jmin + 18) as usize);
    if ni > 64 || nj > 64 {
        return None;
    }
    let idx = |a: usize, b: usize| a * nj + b;
    let sample = |offs: &[[f64; 2]; 4]| -> Vec<[Option<[f64; 3]>; 4]> {
        let mut v = vec![[None; 4]; ni * nj];
        for a in 0..ni {
            for b in 0..nj {
                let (i, j) = ((ib + a as i32) as f64, (jb + b as i32) as f64);
                v[idx(a, b)] = offs.map(|o| s.at(lat.h.apply([i + o[0], j + o[1]])));
            }
        }
        v
    };
    let (col, col_u, col_v) = (sample(&CORNER_OFFS), sample(&ALONG_U), sample(&ALONG_V));
    // The squares' two colours, from squares with a detected corner at each of their corners:
    // those are board squares for sure.
    let nodes: std::collections::HashSet<[i32; 2]> = lat.nodes.iter().copied().collect();
    let mut by_parity: [Vec<[f64; 3]>; 2] = [Vec::new(), Vec::new()];
    let mut cells = [0usize; 2];
    for a in 0..ni {
        for b in 0..nj {
            let (i, j) = (ib + a as i32, jb + b as i32);
            if [[0, 0], [1, 0], [0, 1], [1, 1]].iter().all(|d| nodes.contains(&[i + d[0], j + d[1]])) {
                let p = parity(i, j) as usize;
                cells[p] += 1;
                by_parity[p].extend(col[idx(a, b)].iter().flatten());
            }
        }
    }
    if cells[0] < 2 || cells[1] < 2 {
        return None;
    }
    let class = |v: &Vec<[f64; 3]>| -> [f64; 3] {
        let mut c = [0.0; 3];
        for (ch, out) in c.iter_mut().enumerate() {
            let mut xs: Vec<f64> = v.iter().map(|p| p[ch]).collect();
            *out = median(&mut xs);
        }
        c
    };
    let (c0, c1) = (class(&by_parity[0]), class(&by_parity[1]));
    let light_parity = if c0.iter().sum::<f64>() >= c1.iter().sum::<f64>() { 0 } else { 1 };
    let (light, dark) = if light_parity == 0 { (c0, c1) } else { (c1, c0) };
    let sep = ((light[0] - dark[0]).powi(2) + (light[1] - dark[1]).powi(2) + (light[2] - dark[2]).powi(2)).sqrt();
    if sep < 15.0 {
        return None;
    }
    let tones = |v: &Vec<[Option<[f64; 3]>; 4]>| -> Vec<[f64; 4]> { v.iter().map(|c| c.map(|x| x.map_or(f64::NAN, |x| tone(x, light, dark)))).collect() };
    let (tu, tv) = (tones(&col_u), tones(&col_v));
    let sign = |a: usize, b: usize| if parity(ib + a as i32, jb + b as i32) == light_parity { 1.0 } else { -1.0 };
    // Signed step from one square to the next along u (du) and along v (dv), per corner.
    let step = |x: [f64; 4], y: [f64; 4], sg: f64| -> [f64; 4] {
        let mut o = [0.0; 4];
        for k in 0..4 {
            let d = (x[k] - y[k]) * sg;
            o[k] = if d.is_nan() { 0.0 } else { d.clamp(-1.5, 1.5) };
        }
        o
    };
    let mut du = vec![[0.0; 4]; ni * nj];
    let mut dv = vec![[0.0; 4]; ni * nj];
    for a in 0..ni {
        for b in 0..nj {
            if a + 1 < ni {
                du[idx(a, b)] = step(tu[idx(a, b)], tu[idx(a + 1, b)], sign(a, b));
            }
            if b + 1 < nj {
                dv[idx(a, b)] = step(tv[idx(a, b)], tv[idx(a, b + 1)], sign(a, b));
            }
        }
    }
    let mut on_u: HashMap<i32, f64> = HashMap::new();
    let mut on_v: HashMap<i32, f64> = HashMap::new();
    for n in &lat.nodes {
        *on_u.entry(n[0]).or_default() += 1.0;
        *on_v.entry(n[1]).or_default() += 1.0;
    }
    // Corners off the block's inner lines count against it, each about as much as one step of
    // alternation: fully beyond it, three quarters on its edge (a printed frame line makes
    // corner-like T-junctions there).
    let line_penalty = |lines: &HashMap<i32, f64>, lo: i32| -> f64 {
        lines.iter().map(|(&k, &c)| if k < lo || k > lo + 8 { c } else if k == lo || k == lo + 8 { 0.75 * c } else { 0.0 }).sum()
    };
    let mut best: Option<(f64, f64, i32, i32)> = None;
    for a in 0..=ni - 8 {
        for b in 0..=nj - 8 {
            let mut along = 0.0;
            for r in b..b + 8 {
                let mut per = [0.0; 4];
                for x in a..a + 7 {
                    for k in 0..4 {
                        per[k] += du[idx(x, r)][k];
                    }
                }
                along += per.iter().cloned().fold(f64::MIN, f64::max);
            }
            for c in a..a + 8 {
                let mut per = [0.0; 4];
                for y in b..b + 7 {
                    for k in 0..4 {
                        per[k] += dv[idx(c, y)][k];
                    }
                }
                along += per.iter().cloned().fold(f64::MIN, f64::max);
            }
            let (i0, j0) = (ib + a as i32, jb + b as i32);
            let score = along - line_penalty(&on_u, i0) - line_penalty(&on_v, j0);
            if best.is_none_or(|bst| score > bst.0) {
                best = Some((score, along / 112.0, i0, j0));
            }
        }
    }
    let (_, quality, i0, j0) = best?;
    Some(Extent { i0, j0, light_parity, light, dark, quality })
}

/// Where the light pieces stand: the board edge (in lattice terms: 0 = u low, 1 = u high,
/// 2 = v low, 3 = v high) and whether the pieces show it (pieces on both sides).
#[derive(Debug, Clone, Copy)]
pub struct Pieces {
    pub white_edge: usize,
    pub seen: bool,
}

/// Each square's middle compared with its own corners: brighter where a light piece stands,
/// darker under a dark one, ~0 when empty. Comparing with the same square's corners rather
/// than with fixed colours keeps shading and light pieces that are darker than light squares
/// (varnished wood on white paper) from confusing it; only which end is lighter matters.
pub fn pieces(s: &Sampler, h: &Homography, e: &Extent) -> Pieces {
    const MID: [f64; 3] = [0.3, 0.5, 0.7];
    let mut con = [[0.0f64; 8]; 8];
    for (a, row) in con.iter_mut().enumerate() {
        for (b, c) in row.iter_mut().enumerate() {
            let (i, j) = ((e.i0 + a as i32) as f64, (e.j0 + b as i32) as f64);
            let mid: Vec<f64> = MID.iter().flat_map(|&x| MID.iter().map(move |&y| (x, y))).filter_map(|(x, y)| s.at(h.apply([i + x, j + y]))).map(|c| tone(c, e.light, e.dark)).collect();
            let mut corners: Vec<f64> = CORNER_OFFS.iter().filter_map(|o| s.at(h.apply([i + o[0], j + o[1]]))).map(|c| tone(c, e.light, e.dark)).collect();
            if mid.is_empty() || corners.is_empty() {
                continue;
            }
            *c = mid.iter().sum::<f64>() / mid.len() as f64 - median(&mut corners);
        }
    }
    let mut moment = [0.0; 2];
    for (a, row) in con.iter().enumerate() {
        for (b, &c) in row.iter().enumerate() {
            moment[0] += c * (a as f64 - 3.5);
            moment[1] += c * (b as f64 - 3.5);
        }
    }
    let axis = if moment[0].abs() >= moment[1].abs() { 0 } else { 1 };
    let high = moment[axis] > 0.0;
    let white_edge = axis * 2 + usize::from(high);
    // The two ranks at each end: both must hold pieces (squares that differ from their own
    // corners) and the white end must be the lighter one, or the side is a guess.
    let band = |near_high: bool| -> (usize, f64) {
        let ks: [usize; 2] = if near_high { [6, 7] } else { [0, 1] };
        let mut occupied = 0;
        let mut sum = 0.0;
        for &k in &ks {
            for (m, row) in con.iter().enumerate() {
                let c = if axis == 0 { con[k][m] } else { row[k] };
                occupied += usize::from(c.abs() > 0.15);
                sum += c;
            }
        }
        (occupied, sum)
    };
    let (w_occ, w_sum) = band(high);
    let (b_occ, b_sum) = band(!high);
    let other = moment[1 - axis].abs();
    // Thresholds from the evidence of full boards (moment 6–80, ends differing by 2.4–28,
    // 8–16 occupied squares an end) against a king and a pawn or two with a hand over the
    // board (moment up to 5.3, 3–5 squares an end that differ from their corners).
    let seen = w_occ >= 5 && b_occ >= 5 && w_sum - b_sum > 2.0 && moment[axis].abs() > 5.0 && moment[axis].abs() > 1.5 * other;
    Pieces { white_edge, seen }
}
