//! From scattered X-corners to the board's lattice: a homography `H` that carries integer
//! lattice nodes (i, j) onto the corners that are grid corners, found by guessing one square
//! from a corner and two of its neighbours, then growing the guess outwards and refitting as
//! more corners agree. Clutter (letters on the border, piece edges, a hand) rarely sits on a
//! lattice, so the guess that gathers the most corners is the board's.

use std::collections::HashMap;

use super::homography::Homography;

/// The lattice found: `h` maps lattice coordinates to work-image pixels; `nodes` are the
/// lattice nodes that a detected corner sits on.
#[derive(Debug, Clone)]
pub struct Lattice {
    pub h: Homography,
    pub nodes: Vec<[i32; 2]>,
}

/// Lattice nodes and the index of the corner on each.
type Inliers = Vec<([i32; 2], usize)>;

/// Corners within `tol` (in lattice units) of a node at most `lim` nodes from the origin,
/// one per node (the closest).
fn inliers(inv: &Homography, pts: &[[f64; 2]], tol: f64, lim: i32) -> Inliers {
    let mut best: HashMap<[i32; 2], (usize, f64)> = HashMap::new();
    for (k, &p) in pts.iter().enumerate() {
        let uv = inv.apply(p);
        let r = [uv[0].round(), uv[1].round()];
        let d = (uv[0] - r[0]).abs().max((uv[1] - r[1]).abs());
        if d.is_nan() || d >= tol || r[0].abs() > lim as f64 || r[1].abs() > lim as f64 {
            continue;
        }
        let node = [r[0] as i32, r[1] as i32];
        match best.get(&node) {
            Some(&(_, d0)) if d0 <= d => {}
            _ => {
                best.insert(node, (k, d));
            }
        }
    }
    let mut v: Vec<([i32; 2], usize)> = best.into_iter().map(|(n, (k, _))| (n, k)).collect();
    v.sort_unstable();
    v
}

/// Refit through the inliers: least squares while few, then with outliers set aside at a
/// twenty-fifth of a square (a corner pulled by a piece's edge must not bend the grid).
fn fit(inl: &[([i32; 2], usize)], pts: &[[f64; 2]], h: &Homography) -> Option<Homography> {
    let src: Vec<[f64; 2]> = inl.iter().map(|(n, _)| [n[0] as f64, n[1] as f64]).collect();
    let dst: Vec<[f64; 2]> = inl.iter().map(|&(_, k)| pts[k]).collect();
    if src.len() < 12 {
        return Homography::fit(&src, &dst, None);
    }
    let c = src.iter().fold([0.0, 0.0], |a, p| [a[0] + p[0], a[1] + p[1]]).map(|v| v / src.len() as f64);
    let (p0, p1, p2) = (h.apply(c), h.apply([c[0] + 1.0, c[1]]), h.apply([c[0], c[1] + 1.0]));
    let cell = ((p1[0] - p0[0]).hypot(p1[1] - p0[1]) * (p2[0] - p0[0]).hypot(p2[1] - p0[1])).sqrt();
    Homography::fit(&src, &dst, Some((0.04 * cell).max(1.0)))
}

fn grow(start: Homography, pts: &[[f64; 2]]) -> Option<(Homography, Inliers)> {
    let mut h = start;
    for (lim, tol) in [(2, 0.22), (3, 0.2), (5, 0.2), (8, 0.2), (12, 0.2), (99, 0.15)] {
        let inl = inliers(&h.inverse()?, pts, tol, lim);
        if inl.len() < 6 {
            return None;
        }
        h = fit(&inl, pts, &h)?;
    }
    let inl = inliers(&h.inverse()?, pts, 0.15, 99);
    (inl.len() >= 6).then_some((h, inl))
}

/// The lattice through the most corners, if any gathers at least `min_nodes`.
pub fn find(pts: &[[f64; 2]], min_nodes: usize) -> Option<Lattice> {
    let n = pts.len();
    if n < 9 {
        return None;
    }
    const K: usize = 8;
    let k = K.min(n - 1);
    // Each corner's nearest neighbours: the candidates for its own square's other corners.
    let neighbours: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            let mut d: Vec<(f64, usize)> = (0..n).filter(|&j| j != i).map(|j| ((pts[j][0] - pts[i][0]).hypot(pts[j][1] - pts[i][1]), j)).collect();
            d.sort_by(|a, b| a.0.total_cmp(&b.0));
            d.into_iter().take(k).map(|(_, j)| j).collect()
        })
        .collect();
    let mut hyps: Vec<(usize, Homography)> = Vec::new();
    // The strongest corners seed the guesses; the board's own corners are among them.
    for p in 0..n.min(200) {
        let nb = &neighbours[p];
        for x in 0..nb.len() {
            for y in x + 1..nb.len() {
                let a = [pts[nb[x]][0] - pts[p][0], pts[nb[x]][1] - pts[p][1]];
                let b = [pts[nb[y]][0] - pts[p][0], pts[nb[y]][1] - pts[p][1]];
                let (la, lb) = (a[0].hypot(a[1]), b[0].hypot(b[1]));
                // Two sides of one square: not tiny, not wildly unequal, not near parallel
                // (perspective keeps them within about 60° of square).
                if la < 6.0 || lb < 6.0 || la.max(lb) / la.min(lb) > 1.8 || (a[0] * b[0] + a[1] * b[1]).abs() / (la * lb) > 0.5 {
                    continue;
                }
                let h = Homography::affine(pts[p], a, b);
                let Some(inv) = h.inverse() else { continue };
                hyps.push((inliers(&inv, pts, 0.2, 2).len(), h));
            }
        }
    }
    hyps.sort_by_key(|h| std::cmp::Reverse(h.0));
    let mut best: Option<(Homography, Inliers)> = None;
    for (_, h) in hyps.into_iter().take(20) {
        if let Some((h, inl)) = grow(h, pts)
            && best.as_ref().is_none_or(|b| inl.len() > b.1.len())
        {
            best = Some((h, inl));
        }
    }
    let (h, inl) = best?;
    (inl.len() >= min_nodes).then(|| Lattice { h, nodes: inl.iter().map(|x| x.0).collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_grid_with_clutter_is_found() {
        let h = Homography([30.0, 4.0, 200.0, -3.0, 28.0, 120.0, 2e-4, 1e-4, 1.0]);
        let mut pts = Vec::new();
        for i in 1..8 {
            for j in 3..6 {
                pts.push(h.apply([i as f64, j as f64]));
            }
        }
        // Clutter that is on no lattice.
        for k in 0..25 {
            pts.push([13.0 + 37.3 * k as f64 % 500.0, 7.0 + 53.1 * (k * k) as f64 % 400.0]);
        }
        let lat = find(&pts, 12).unwrap();
        assert!(lat.nodes.len() >= 21, "{}", lat.nodes.len());
        let inv = lat.h.inverse().unwrap();
        // Any lattice of the same points will do: nodes must land on integers consistently.
        let a = inv.apply(h.apply([2.0, 4.0]));
        let b = inv.apply(h.apply([3.0, 4.0]));
        assert!(((a[0] - b[0]).abs() - 1.0).abs() < 0.05 || ((a[1] - b[1]).abs() - 1.0).abs() < 0.05);
    }
}
