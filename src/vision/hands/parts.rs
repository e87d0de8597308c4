//! Parts of an arm the change shows cut off from it: a hand the colour of the board's frame
//! apart from its wrist, and a hand the colour of the light squares seen only over the dark
//! ones. Each is reported as part of the arm it belongs to, so that the squares under it are
//! hidden and the fingertips are found at its far end.

use opencv::core::{self, Mat, Point, Rect, Scalar, Size};
use opencv::imgproc;
use opencv::prelude::*;

use super::settle::Settled;
use super::{HOLD_REACH, HandDetector};
use crate::vision::rectify::Rectifier;
use crate::vision::VisionError;

/// Per label, the region it is reported as part of (0: none). A region that comes in from the
/// edge is its own. Over the board's frame an arm the frame's colour goes unseen, and the hand
/// shows apart from its wrist (rendered game 230: White's hand on a2, cut off from a strip of
/// wrist too small to be an arm, went unreported, and a1 under it was read empty): a change that
/// does not reach the margin's outer part, lies within half a square of an arm's wrist (the arm
/// beyond the playing area) and goes on from an arm seen the frame before is part of that arm.
/// Not the square the hand just left or the piece it just set down: they lie by the hand, not
/// its wrist, and are no arm's continuation; nor what lies by a change at the edge that is no arm.
pub(super) fn arm_parts(labels: &Mat, entries: &[Option<[f64; 2]>], settled: &Settled, board: Rect, px: i32) -> Result<Vec<usize>, VisionError> {
    let n = entries.len();
    let mut owner: Vec<usize> = (0..n).map(|l| if entries[l].is_some() { l } else { 0 }).collect();
    let arms: Vec<usize> = (1..n).filter(|&l| entries[l].is_some() && settled.arm_age[l].is_some() && !settled.settled[l]).collect();
    let loose: Vec<bool> = (0..n).map(|l| l > 0 && owner[l] == 0 && !settled.settled[l] && settled.lately[l].is_some()).collect();
    if arms.is_empty() || !loose.contains(&true) {
        return Ok(owner);
    }
    let data = labels.data_typed::<i32>()?;
    let gap = 2 * (px / 2) + 1;
    let k = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(gap, gap), Point::new(-1, -1))?;
    for a in arms {
        let (mut wrist, mut near) = (Mat::default(), Mat::default());
        core::compare(labels, &Scalar::all(a as f64), &mut wrist, core::CMP_EQ)?;
        Mat::roi_mut(&mut wrist, board)?.set_to(&Scalar::all(0.0), &core::no_array())?;
        imgproc::dilate(&wrist, &mut near, &k, Point::new(-1, -1), 1, core::BORDER_CONSTANT, Scalar::all(0.0))?;
        for (&b, &l) in near.data_bytes()?.iter().zip(data) {
            let l = l as usize;
            if b != 0 && loose[l] && owner[l] == 0 {
                owner[l] = a;
            }
        }
    }
    Ok(owner)
}

/// How different from the settled view, at the least (any channel, over a 3 × 3 patch), the
/// pixels between a patch and its arm must be for the patch to be taken as part of the arm: a
/// hand the colour of the light squares differs from them by less than a change counts for (the
/// rendered under-promotion scene, seed 24: by 11 to 38 levels, against 0 to 2 for the bare
/// board beside it), the bare board between an arm and a piece it left behind by noise only.
const WEAK_LEVEL: f64 = 10.0;

/// The least area of a patch, in squares: a hand seen apart from its arm covers the better
/// part of a square; specks beside an arm are its blurred fringe, a lifted piece's shadow, the
/// camera's compression (the real clip `scholarsmate.avi`: specks beside the fingers lifting
/// the pawn from e2 drew the fingertips onto d2, and the lift went unseen).
const PATCH_SHARE: f64 = 0.25;

/// The least share of the pixels within a square of an arm's end, or of its own part, that
/// moved since the last frame for the arm to be moving, when it is given no patches (see
/// [`HandDetector::hand_fragments`]): an arm of one colour drawing back moves only at its end,
/// a real one, textured, all along.
const ARM_MOVING: f64 = 0.2;

impl HandDetector {
    /// A hand the colour of the light squares differs from the settled view only over the dark
    /// ones, and shows as patches cut off from its arm, each the size of a square (the rendered
    /// under-promotion scene, seed 24: a light hand over a wooden board's seventh and eighth
    /// ranks, seen as its sleeve alone ending on d5; the patches over d7 and e7 were read as
    /// white pieces standing there, and the pawn lifted from e7 was never missed). Over the
    /// light squares it still differs from them, if by less than a change counts for: a patch
    /// over the playing area, further in than the arm reaches on its own and joined to it by
    /// pixels that differ at least [`WEAK_LEVEL`] from the settled view, is part of that arm,
    /// if the arm reaches over the board (not a shadow or a sleeve at its edge, as the light
    /// drifts: `scholarsmate.avi`'s first frames). A piece the arm set down and left behind lies
    /// apart from it, across bare board; an arm on the move is given no patches, for what lies
    /// apart from it then is what it passes over or leaves behind, and a hand seen in patches is
    /// one held over the board to act (the real clip `knightvision`: the pawn just set on e5 was
    /// joined to the arm withdrawing by the faint change a leaning player casts, and was hidden
    /// until the clip ended); a patch the colour of the bare board round its square is no part
    /// of a hand but the square a piece just left, read against the settled view that still
    /// has the piece; and specks are none (see [`PATCH_SHARE`]).
    ///
    /// Returns, per label, for an arm given patches, how far it reaches in on its own from where
    /// it comes in, in pixels (with its patches, its fingertips may lie further in than the arm
    /// withdrawing); `None` for the rest.
    pub(super) fn hand_fragments(&self, view: &Mat, labels: &Mat, entries: &[Option<[f64; 2]>], settled: &Settled, area: &[u32], owner: &mut [usize], rect: &Rectifier) -> Result<Vec<Option<f64>>, VisionError> {
        let n = owner.len();
        let none = vec![None; n];
        let data = labels.data_typed::<i32>()?;
        let w = labels.cols() as usize;
        let board = rect.board_rect();
        let arms: Vec<usize> = (1..n).filter(|&l| owner[l] == l && settled.arm_age[l].is_some() && !settled.settled[l]).collect();
        let Some(background) = &self.background else { return Ok(none) };
        if arms.is_empty() {
            return Ok(none);
        }
        // Per region, its pixels over the board.
        let mut inside = vec![0u32; n];
        for row in data.chunks_exact(w).skip(board.y as usize).take(board.height as usize) {
            for &l in &row[board.x as usize..(board.x + board.width) as usize] {
                inside[l as usize] += 1;
            }
        }
        let mut free: Vec<bool> = (0..n).map(|l| l > 0 && owner[l] == 0 && !settled.settled[l] && 2 * inside[l] >= area[l]).collect();
        if !free.contains(&true) {
            return Ok(none);
        }
        // The pixels that differ at all from the settled view (the largest channel's
        // difference, smoothed against noise), with every part of a change.
        let mut diff = Mat::default();
        core::absdiff(view, background, &mut diff)?;
        let mut channels = core::Vector::<Mat>::new();
        core::split(&diff, &mut channels)?;
        let (mut two, mut all, mut weak) = (Mat::default(), Mat::default(), Mat::default());
        core::max(&channels.get(0)?, &channels.get(1)?, &mut two)?;
        core::max(&two, &channels.get(2)?, &mut all)?;
        let smooth = super::view::box3(&all)?;
        imgproc::threshold(&smooth, &mut weak, WEAK_LEVEL - 1.0, 255.0, imgproc::THRESH_BINARY)?;
        for (b, &l) in weak.data_bytes_mut()?.iter_mut().zip(data) {
            if l > 0 {
                *b = 255;
            }
        }
        let mut joined = Mat::default();
        let m = imgproc::connected_components(&weak, &mut joined, 8, core::CV_32S)? as usize;
        let joined = joined.data_typed::<i32>()?;
        // Per part of the weak change, the arm in it (the first found where two are).
        let mut arm_of = vec![0usize; m];
        for (&l, &j) in data.iter().zip(joined) {
            let o = owner[l as usize];
            if arms.contains(&o) && arm_of[j as usize] == 0 {
                arm_of[j as usize] = o;
            }
        }
        // How far in each arm reaches on its own, and each patch joined to one, from where the
        // arm comes in; and each patch's colours, with the colour of the square each lies on.
        let (mut own, mut part) = (vec![0.0f64; n], vec![(0usize, 0.0f64); n]);
        let mut colours: Vec<Vec<([u8; 3], bool)>> = vec![Vec::new(); n];
        let mut centre = vec![[0.0f64; 2]; n];
        let now = view.data_bytes()?;
        // How much of each arm's own part moved since the last frame, and where it reaches
        // furthest.
        let (mut stirred, mut seen) = (vec![0u32; n], vec![0u32; n]);
        let mut tip = vec![(0i32, 0i32); n];
        for (i, (&l, &j)) in data.iter().zip(joined).enumerate() {
            let l = l as usize;
            let a = if owner[l] > 0 { owner[l] } else { arm_of[j as usize] };
            let Some(e) = entries.get(a).copied().flatten() else { continue };
            let (x, y) = ((i % w) as f64, (i / w) as f64);
            let d = (x - e[0]).hypot(y - e[1]);
            if owner[l] == a {
                stirred[a] += u32::from(self.calm.get(i) == Some(&0));
                seen[a] += 1;
                if d > own[a] {
                    own[a] = d;
                    tip[a] = (x as i32, y as i32);
                }
            } else if free[l] {
                part[l] = (a, part[l].1.max(d));
                if let Some(sq) = rect.square_at(x, y) {
                    colours[l].push(([now[3 * i], now[3 * i + 1], now[3 * i + 2]], sq.is_light()));
                    centre[l] = [centre[l][0] + x, centre[l][1] + y];
                }
            }
        }
        // Whether each arm is moving (see [`ARM_MOVING`]): an arm drawing back, even one of a
        // single colour, leaves the board it covered about its end.
        let h = labels.rows();
        let moving: Vec<bool> = (0..n)
            .map(|a| {
                if !arms.contains(&a) {
                    return false;
                }
                let (cx, cy, r) = (tip[a].0, tip[a].1, rect.px);
                let (mut moved, mut all) = (0u32, 0u32);
                for y in (cy - r).max(0)..(cy + r).min(h) {
                    for x in (cx - r).max(0)..(cx + r).min(w as i32) {
                        if (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r {
                            moved += u32::from(self.calm.get(y as usize * w + x as usize) == Some(&0));
                            all += 1;
                        }
                    }
                }
                f64::from(moved) >= ARM_MOVING * f64::from(all) || f64::from(stirred[a]) >= ARM_MOVING * f64::from(seen[a])
            })
            .collect();
        let mut given = vec![false; n];
        for l in 1..n {
            let (a, d) = part[l];
            let speck = f64::from(area[l]) < PATCH_SHARE * f64::from(rect.px * rect.px);
            // What lies apart from an arm on the move is what it passes over or leaves behind.
            if a == 0 || !free[l] || speck || moving[a] || d <= own[a] || own[a] < f64::from(HOLD_REACH) * f64::from(rect.px) {
                continue;
            }
            let k = colours[l].len().max(1) as f64;
            let at = rect.square_at(centre[l][0] / k, centre[l][1] / k);
            if at.is_some_and(|sq| bare(&colours[l], &bare_board(now, data, w, rect, sq))) {
                continue;
            }
            free[l] = false;
            owner[l] = a;
            given[a] = true;
        }
        Ok((0..n).map(|l| given[l].then_some(own[l])).collect())
    }
}

/// How near, in levels (any channel), a pixel must be to the bare board's colour for its
/// square to count as bare there...
const BARE_LEVEL: i32 = 24;
/// ...and the least share of a patch's pixels that must: the square a piece left (and the
/// squares its image leant over), read against the settled view that still has the piece, is
/// bare board now; a hand over the board is not.
const BARE_SHARE: f64 = 0.75;

/// The bare board's colour round `at`, on its dark and on its light squares (in that order),
/// in the view `now` (`w` pixels wide) where nothing changed (`labels` 0): of the squares of
/// each colour in the block of nine about it, the commonest colour (in bins of
/// [`BARE_BIN`] levels), for the board is flat where pieces are shaded, and near, for the light
/// falls unevenly over a board.
fn bare_board(now: &[u8], labels: &[i32], w: usize, rect: &Rectifier, at: shakmaty::Square) -> [Option<[i32; 3]>; 2] {
    let mut bins: [std::collections::BTreeMap<[u8; 3], (u32, [u32; 3])>; 2] = Default::default();
    for sq in shakmaty::attacks::king_attacks(at).with(at) {
        let cell = rect.cell(sq);
        let bin = &mut bins[usize::from(sq.is_light())];
        for y in cell.y.max(0)..cell.y + cell.height {
            for x in cell.x.max(0)..cell.x + cell.width {
                let i = y as usize * w + x as usize;
                if labels.get(i) != Some(&0) {
                    continue;
                }
                let p = [now[3 * i], now[3 * i + 1], now[3 * i + 2]];
                let e = bin.entry(p.map(|c| c / BARE_BIN)).or_insert((0, [0; 3]));
                e.0 += 1;
                for c in 0..3 {
                    e.1[c] += u32::from(p[c]);
                }
            }
        }
    }
    bins.map(|b| b.values().max_by_key(|(n, _)| *n).map(|(n, sum)| sum.map(|s| (s / n) as i32)))
}

/// The width, in levels, of the colour bins in which the bare board's colour is sought.
const BARE_BIN: u8 = 16;

/// Whether a patch (each pixel's colour, and whether its square is light) is the bare board
/// (see [`BARE_SHARE`]).
fn bare(patch: &[([u8; 3], bool)], boards: &[Option<[i32; 3]>; 2]) -> bool {
    let near = patch.iter().filter(|(p, light)| boards[usize::from(*light)].is_some_and(|b| (0..3).all(|c| (i32::from(p[c]) - b[c]).abs() < BARE_LEVEL))).count();
    !patch.is_empty() && near as f64 >= BARE_SHARE * patch.len() as f64
}
