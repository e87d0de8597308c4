//! Two arms of one player come in over the same side of the view and can meet at their hands
//! (a piece passed from one hand to the other, a capture made with both: the two-handed move of
//! Article 4.1). Changed at once and touching, they are one region, which would be one arm with
//! one pair of fingertips, and the second hand, the breach itself, would go unseen. A region
//! that comes in over one side by two ways, each as wide as a forearm and half a square or more
//! apart, is cut in two: each of its pixels goes to the way in it is nearer to within the
//! region, so each arm keeps its own hand and fingertips. Only where two regions were seen
//! coming in apart by those two ways at once, lately: one arm can show two ways in too (its
//! shadow over the margin beside it, the edges of a sleeve the table's colour), and a player
//! brings his hands in one by one. The id the joined region had stays with the arm that came
//! in where it did before they joined.

use std::collections::{HashMap, VecDeque};

use opencv::core::Mat;
use opencv::prelude::*;

use super::PASSING_SQUARES;
use super::edges::{border, nearest_side, spans_view};
use crate::vision::VisionError;

/// The narrowest way in, across the side, taken for an arm, in squares: a forearm in its
/// sleeve is wider than a square (6 to 9 cm to a square's 5 or 6). A finger or a piece's rim
/// poking out over the margin is narrower, and so are the edges of one arm whose middle shows
/// no change (a sleeve the table's colour: `scholarsMate2019-11-18.avi`'s first arm came in
/// as two such edges, 1.0 and 0.7 squares wide, joined at its hand, and was cut in two).
const WRIST_SQUARES: f64 = 1.2;
/// The narrowest way in of a region remembered as come in apart: an arm just coming in shows
/// only its edge over the margin for a frame or two.
const EDGE_SQUARES: f64 = 0.6;
/// The widest: what comes in wider is a body or the light across the view, or the board itself
/// moving (`baxter.avi`), not an arm.
const SLEEVE_SQUARES: f64 = 3.5;
/// The least gap between two ways in of one region, in squares, for them to be two arms: the
/// fingers of one hand over the margin leave narrower gaps, which the closing fills anyway.
const APART_SQUARES: f64 = 0.5;
/// The least share of a region each arm must keep once it is cut, in squares: an arm over the
/// margin and the board is several; what one arm drags out over the margin beside it (its
/// shadow's fringe, a sleeve's cuff) is less.
const ARM_SQUARES: f64 = 1.0;

/// How near, in squares, a way in must lie to where a region came in apart lately to be its.
const SAME_WAY_SQUARES: f64 = 1.0;
/// Frames two ways in seen apart are remembered: two seconds at 30 frames a second, longer
/// than two hands stay joined passing a piece.
const APART_FRAMES: usize = 60;

/// Frames of an arm's ways in kept (see [`Ways`]): two seconds at 30 frames a second, longer
/// than two hands stay joined passing a piece.
const WAYS_KEPT: usize = 60;

/// Where an arm came in over the last [`WAYS_KEPT`] frames it was seen, the latest last.
#[derive(Clone, Default)]
pub(super) struct Ways(VecDeque<[f64; 2]>);

impl Ways {
    /// `before` with `now` added, the oldest dropped beyond [`WAYS_KEPT`].
    pub(super) fn after(before: Option<&Ways>, now: [f64; 2]) -> Ways {
        let mut ways = before.cloned().unwrap_or_default();
        if ways.0.len() == WAYS_KEPT {
            ways.0.pop_front();
        }
        ways.0.push_back(now);
        ways
    }

    /// How far `p` lies from the nearest of them.
    fn from(&self, p: [f64; 2]) -> f64 {
        self.0.iter().map(|w| (p[0] - w[0]).hypot(p[1] - w[1])).fold(f64::INFINITY, f64::min)
    }
}

/// Two arms cut apart (see [`Apart::split`]) both lie on the one region they were a frame
/// before, joined, and are both given its id by overlap (`ids`, per region; `entries`, per
/// region its way in and whether it is such a cut arm): the id stays with the arm that comes in
/// nearest to where the id's arm came in lately (`ways_of`), before the other joined it (joined,
/// the region's way in drifts between the two), and the other is left to be given an id of its
/// own. Parts of one arm cut apart otherwise (a shadow, the board's pattern) share its id.
pub(super) fn keep_ids<'a>(entries: &[([f64; 2], bool)], ids: &mut [Option<u32>], ways_of: impl Fn(u32) -> Option<&'a Ways>) {
    let gap = |i: usize, id: u32| ways_of(id).map_or(f64::INFINITY, |w| w.from(entries[i].0));
    let contested: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].1).collect();
    let mut lose = Vec::new();
    for &i in &contested {
        let Some(id) = ids[i] else { continue };
        if contested.iter().any(|&j| j != i && ids[j] == Some(id) && (gap(j, id), j) < (gap(i, id), i)) {
            lose.push(i);
        }
    }
    for i in lose {
        ids[i] = None;
    }
}

/// Where two regions or more came in apart over one side of the view, in the last
/// [`APART_FRAMES`] frames: per frame, each such region's way in, as its side and the middle of
/// its run along it.
#[derive(Default)]
pub(super) struct Apart {
    frames: VecDeque<Vec<(usize, f64)>>,
}

impl Apart {
    /// Cuts each region of `labels` that comes in by two ways over one side, each where a
    /// region came in apart from the other lately, into one region per way in, the new one
    /// labelled from `n` on; `stats` (as `components` gives them: left, top, width, height,
    /// area per label) is rewritten to match. Returns the new count of labels and the labels of
    /// the arms cut apart (the first of each keeps the region's label). `band` is the border
    /// band where ways in are looked for; `px`, a square's side.
    pub(super) fn split(&mut self, labels: &mut Mat, stats: &mut Mat, n: usize, band: i32, px: i32) -> Result<(usize, Vec<i32>), VisionError> {
        if self.frames.len() == APART_FRAMES {
            self.frames.pop_front();
        }
        // Nothing changed (most frames of a game): nothing comes in, nothing to cut.
        if n <= 1 {
            self.frames.push_back(Vec::new());
            return Ok((n, Vec::new()));
        }
        let (w, h) = (labels.cols(), labels.rows());
        let all = ways_in(labels.data_typed::<i32>()?, w, h, band, px);
        // Regions come in by one way each, over a side where another came in too.
        let alone: Vec<(usize, f64)> = all.iter().filter(|(_, k, runs)| runs.len() == 1 && all.iter().filter(|o| o.1 == *k).count() >= 2).map(|(_, k, runs)| (*k, mid(runs[0]))).collect();
        let near = SAME_WAY_SQUARES * f64::from(px);
        // Two regions of one frame, one come in by each way.
        let seen_apart = |k: usize, a: f64, b: f64| {
            let by = |&(s, x): &(usize, f64), at: f64| s == k && (x - at).abs() <= near;
            self.frames.iter().any(|f| f.iter().enumerate().any(|(i, p)| by(p, a) && f.iter().enumerate().any(|(j, q)| j != i && by(q, b))))
        };
        let wrist = (WRIST_SQUARES * f64::from(px)).round() as usize;
        let forearms = |runs: &[(usize, usize)]| runs.len() == 2 && runs.iter().all(|&(a, b)| b - a >= wrist);
        // Not what passes across the view (a sleeve or a body between camera and board, seen as
        // an arm coming in by both ends of a side: rendered game 415 at 40 plies, cut into two
        // arms with fingertips), which comes in over more than one side or is bigger than arms.
        let data = labels.data_typed::<i32>()?;
        let passing = |l: i32| -> Result<bool, VisionError> {
            let big = f64::from(*stats.at_2d::<i32>(l, opencv::imgproc::CC_STAT_AREA)?) > PASSING_SQUARES * f64::from(px * px);
            Ok(big || all.iter().filter(|o| o.0 == l).count() > 1 || spans_view(data, w, h, l, px))
        };
        let mut two: Vec<(i32, usize, Vec<(usize, usize)>)> = Vec::new();
        for (l, k, runs) in &all {
            if forearms(runs) && seen_apart(*k, mid(runs[0]), mid(runs[1])) && !passing(*l)? {
                two.push((*l, *k, runs.clone()));
            }
        }
        self.frames.push_back(alone);
        if two.is_empty() {
            return Ok((n, Vec::new()));
        }
        let mut cut = Vec::new();
        let mut rows: Vec<[i32; 5]> = Vec::with_capacity(n + two.len());
        for l in 0..n as i32 {
            let mut row = [0; 5];
            for (k, v) in (0..).zip(row.iter_mut()) {
                *v = *stats.at_2d::<i32>(l, k)?;
            }
            rows.push(row);
        }
        let data = labels.data_typed_mut::<i32>()?;
        let least = (ARM_SQUARES * f64::from(px * px)) as usize;
        for (label, k, runs) in two {
            let seeds = seeds(data, w, h, band, label, k, &runs);
            let parts = divide(data, w, h, label, &seeds);
            // Each way in must keep an arm's worth of the region, or it was no arm of its own.
            let sizes: Vec<usize> = (0..seeds.len()).map(|k| parts.iter().filter(|&&(_, p)| p == k).count()).collect();
            if sizes.iter().any(|&s| s < least) {
                continue;
            }
            cut.push(label);
            // What is left of the first keeps its label, its box found anew.
            rows[label as usize] = stats_of(&parts, 0, w);
            for k in 1..seeds.len() {
                let new = rows.len() as i32;
                cut.push(new);
                for &(i, _) in parts.iter().filter(|&&(_, p)| p == k) {
                    data[i] = new;
                }
                rows.push(stats_of(&parts, k, w));
            }
        }
        if rows.len() > n {
            *stats = Mat::from_slice_2d(&rows)?;
        }
        Ok((rows.len(), cut))
    }
}

/// The stats row (left, top, width, height, area) of part `k` of `parts` (pixel index and part,
/// in a view `w` wide).
fn stats_of(parts: &[(usize, usize)], k: usize, w: i32) -> [i32; 5] {
    let (mut lo, mut hi, mut area) = ([i32::MAX; 2], [i32::MIN; 2], 0);
    for &(i, _) in parts.iter().filter(|&&(_, p)| p == k) {
        let (x, y) = (i as i32 % w, i as i32 / w);
        lo = [lo[0].min(x), lo[1].min(y)];
        hi = [hi[0].max(x), hi[1].max(y)];
        area += 1;
    }
    [lo[0], lo[1], hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, area]
}

/// Per region and side of the view it comes in over, its ways in there, in order along it: runs
/// along the side, the region seen anywhere across the band, from [`EDGE_SQUARES`] to
/// [`SLEEVE_SQUARES`] wide; runs nearer than [`APART_SQUARES`] are one. Regions with no such run
/// are left out.
fn ways_in(data: &[i32], w: i32, h: i32, band: i32, px: i32) -> Vec<(i32, usize, Vec<(usize, usize)>)> {
    // Per label and side, where along that side the label shows in the band.
    let mut along: HashMap<(i32, usize), Vec<bool>> = HashMap::new();
    for (x, y) in border(w, h, band) {
        let l = data[(y * w + x) as usize];
        if l > 0 {
            let k = nearest_side([f64::from(x), f64::from(y)], w, h);
            let len = if k < 2 { w } else { h };
            along.entry((l, k)).or_insert_with(|| vec![false; len as usize])[(if k < 2 { x } else { y }) as usize] = true;
        }
    }
    let edge = (EDGE_SQUARES * f64::from(px)).round() as usize;
    let sleeve = (SLEEVE_SQUARES * f64::from(px)).round() as usize;
    let apart = (APART_SQUARES * f64::from(px)).round() as usize;
    let mut out: Vec<(i32, usize, Vec<(usize, usize)>)> = along
        .into_iter()
        .map(|((l, k), seen)| (l, k, runs(&seen, apart).into_iter().filter(|&(a, b)| (edge..=sleeve).contains(&(b - a))).collect::<Vec<_>>()))
        .filter(|(_, _, runs)| !runs.is_empty())
        .collect();
    // In label order, so that the new labels are given alike from run to run.
    out.sort_unstable_by_key(|o| (o.0, o.1));
    out
}

/// The middle of a run along a side.
fn mid(run: (usize, usize)) -> f64 {
    (run.0 + run.1) as f64 / 2.0
}

/// The border pixels of region `label` on side `k` within each of `runs`.
fn seeds(data: &[i32], w: i32, h: i32, band: i32, label: i32, k: usize, runs: &[(usize, usize)]) -> Vec<Vec<usize>> {
    runs.iter()
        .map(|&(a, b)| {
            border(w, h, band)
                .filter(|&(x, y)| {
                    let at = if k < 2 { x } else { y } as usize;
                    (a..b).contains(&at) && nearest_side([f64::from(x), f64::from(y)], w, h) == k && data[(y * w + x) as usize] == label
                })
                .map(|(x, y)| (y * w + x) as usize)
                .collect()
        })
        .collect()
}

/// The runs of `true` in `seen`, as half-open spans, those closer than `apart` joined.
fn runs(seen: &[bool], apart: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < seen.len() {
        if !seen[i] {
            i += 1;
            continue;
        }
        let a = i;
        while i < seen.len() && seen[i] {
            i += 1;
        }
        match out.last_mut() {
            Some(last) if a - last.1 < apart => last.1 = i,
            _ => out.push((a, i)),
        }
    }
    out
}

/// Each pixel of region `label` with the way in (an index into `seeds`) nearest to it within
/// the region, by a breadth-first walk from all the ways in at once (8-connected, as the
/// regions are labelled).
fn divide(data: &[i32], w: i32, h: i32, label: i32, seeds: &[Vec<usize>]) -> Vec<(usize, usize)> {
    const NONE: u8 = u8::MAX;
    let mut part = vec![NONE; data.len()];
    let mut queue = VecDeque::new();
    for (k, s) in seeds.iter().enumerate() {
        for &i in s {
            if part[i] == NONE {
                part[i] = k.min(usize::from(NONE - 1)) as u8;
                queue.push_back(i);
            }
        }
    }
    while let Some(i) = queue.pop_front() {
        let k = part[i];
        let (x, y) = (i as i32 % w, i as i32 / w);
        for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= w || ny >= h {
                continue;
            }
            let j = (ny * w + nx) as usize;
            if data[j] == label && part[j] == NONE {
                part[j] = k;
                queue.push_back(j);
            }
        }
    }
    part.iter().enumerate().filter(|&(_, &k)| k != NONE).map(|(i, &k)| (i, usize::from(k))).collect()
}

#[cfg(test)]
mod tests {
    use opencv::core::{self, Scalar};

    use super::super::edges::components;
    use super::*;

    const PX: i32 = 32;
    const BAND: i32 = 12;

    /// A 320 × 320 view with a filled box for each of `boxes` (x0, y0, x1, y1, inclusive).
    fn mask(boxes: &[(i32, i32, i32, i32)]) -> Mat {
        let mut m = Mat::new_rows_cols_with_default(320, 320, core::CV_8UC1, Scalar::all(0.0)).unwrap();
        for &(x0, y0, x1, y1) in boxes {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    *m.at_2d_mut::<u8>(y, x).unwrap() = 255;
                }
            }
        }
        m
    }

    // Two forearms from the bottom edge, 1.5 squares wide and two squares apart, reaching in
    // four squares; joined, their hands meet across the gap.
    const LEFT: (i32, i32, i32, i32) = (60, 190, 107, 319);
    const RIGHT: (i32, i32, i32, i32) = (172, 190, 219, 319);
    const HANDS: (i32, i32, i32, i32) = (60, 170, 219, 200);

    fn split(apart: &mut Apart, m: &Mat) -> (usize, Mat, Mat, Vec<i32>) {
        let (n, mut labels, mut stats) = components(m).unwrap();
        let (n, cut) = apart.split(&mut labels, &mut stats, n, BAND, PX).unwrap();
        (n, labels, stats, cut)
    }

    #[test]
    fn two_arms_seen_apart_then_joined_at_their_hands_are_cut_apart_again() {
        let mut apart = Apart::default();
        let (n, _, _, cut) = split(&mut apart, &mask(&[LEFT, RIGHT]));
        assert_eq!((n, cut.len()), (3, 0), "apart, there is nothing to cut");
        let joined = mask(&[LEFT, RIGHT, HANDS]);
        let (n, labels, stats, cut) = split(&mut apart, &joined);
        assert_eq!(n, 3, "the background and two arms");
        assert_eq!(cut, vec![1, 2]);
        let at = |x: i32, y: i32| *labels.at_2d::<i32>(y, x).unwrap();
        // Each forearm is wholly its own arm's, and each hand's half of the join goes with it.
        assert!((LEFT.1..=LEFT.3).all(|y| (LEFT.0..=LEFT.2).all(|x| at(x, y) == at(LEFT.0, 319))));
        assert!((RIGHT.1..=RIGHT.3).all(|y| (RIGHT.0..=RIGHT.2).all(|x| at(x, y) == at(RIGHT.2, 319))));
        assert_ne!(at(LEFT.0, 319), at(RIGHT.2, 319));
        assert_eq!(at(70, 175), at(LEFT.0, 319));
        assert_eq!(at(210, 175), at(RIGHT.2, 319));
        // The stats are rewritten to match: boxes and areas.
        let total = core::count_non_zero(&joined).unwrap();
        let area = |l: i32| *stats.at_2d::<i32>(l, 4).unwrap();
        assert_eq!(area(1) + area(2), total);
        for l in 1..3 {
            let count = (0..320).flat_map(|y| (0..320).map(move |x| (x, y))).filter(|&(x, y)| at(x, y) == l).count() as i32;
            assert_eq!(area(l), count);
            let (x0, w) = (*stats.at_2d::<i32>(l, 0).unwrap(), *stats.at_2d::<i32>(l, 2).unwrap());
            assert!((0..320).all(|y| (0..320).all(|x| at(x, y) != l || (x0..x0 + w).contains(&x))));
        }
    }

    #[test]
    fn a_region_never_seen_as_two_arms_apart_is_not_cut() {
        // One arm and its shadow beside it over the margin, come in together.
        let mut apart = Apart::default();
        let (n, _, _, cut) = split(&mut apart, &mask(&[LEFT, RIGHT, HANDS]));
        assert_eq!((n, cut.len()), (2, 0));
        // Nor two arms seen apart over another side, or long ago.
        let mut apart = Apart::default();
        let side: Vec<(i32, i32, i32, i32)> = [LEFT, RIGHT].iter().map(|&(x0, y0, x1, y1)| (319 - y1, x0, 319 - y0, x1)).collect();
        split(&mut apart, &mask(&side));
        let (_, _, _, cut) = split(&mut apart, &mask(&[LEFT, RIGHT, HANDS]));
        assert!(cut.is_empty());
        let mut apart = Apart::default();
        split(&mut apart, &mask(&[LEFT, RIGHT]));
        for _ in 0..APART_FRAMES {
            split(&mut apart, &mask(&[]));
        }
        let (_, _, _, cut) = split(&mut apart, &mask(&[LEFT, RIGHT, HANDS]));
        assert!(cut.is_empty());
    }

    #[test]
    fn ways_in_nearer_than_half_a_square_or_narrower_than_a_forearm_are_no_two_arms() {
        // Seen apart, then joined with their ways in a few pixels apart: one hand's fingers.
        let near = (112, 190, 159, 319);
        let mut apart = Apart::default();
        split(&mut apart, &mask(&[LEFT, near]));
        let (_, _, _, cut) = split(&mut apart, &mask(&[LEFT, near, (60, 170, 159, 200)]));
        assert!(cut.is_empty());
        // A piece's rim poking out over the margin beside an arm: narrower than a wrist.
        let rim = (172, 300, 180, 319);
        let mut apart = Apart::default();
        split(&mut apart, &mask(&[LEFT, rim]));
        let (_, _, _, cut) = split(&mut apart, &mask(&[LEFT, rim, (60, 290, 180, 300)]));
        assert!(cut.is_empty());
        // The two edges of one arm, a square and 0.7 of one wide, whose middle shows no change.
        let edges = [(60, 190, 91, 319), (108, 190, 129, 319)];
        let mut apart = Apart::default();
        split(&mut apart, &mask(&edges));
        let (_, _, _, cut) = split(&mut apart, &mask(&[edges[0], edges[1], (60, 170, 129, 200)]));
        assert!(cut.is_empty());
    }

    #[test]
    fn what_passes_across_the_view_is_no_two_arms_to_cut() {
        // Two ways in a forearm wide, seen apart, then one region bigger than two arms can be.
        let mut apart = Apart::default();
        split(&mut apart, &mask(&[LEFT, RIGHT]));
        let body = (40, 20, 239, 200);
        let (_, _, _, cut) = split(&mut apart, &mask(&[LEFT, RIGHT, body]));
        assert!(cut.is_empty());
        // The same two arms with their hands joined are cut (the test is not for nothing).
        let (_, _, _, cut) = split(&mut apart, &mask(&[LEFT, RIGHT, HANDS]));
        assert_eq!(cut.len(), 2);
    }

    #[test]
    fn what_comes_in_wider_than_a_sleeve_is_no_arm_to_cut() {
        // The board moving under the camera: its change runs six squares along the edge.
        let wide = (20, 190, 219, 319);
        let mut apart = Apart::default();
        split(&mut apart, &mask(&[wide, (260, 190, 307, 319)]));
        let (_, _, _, cut) = split(&mut apart, &mask(&[wide, (260, 190, 307, 319), (20, 170, 307, 200)]));
        assert!(cut.is_empty());
    }

    #[test]
    fn the_id_stays_with_the_arm_come_in_where_its_arm_came_in_lately() {
        // Arm 7 came in at x 250, then (joined) its way in drifted to 210.
        let mut ways = Ways::default();
        for x in [250.0, 250.0, 240.0, 225.0, 210.0] {
            ways = Ways::after(Some(&ways), [x, 310.0]);
        }
        let ways_of = |id: u32| (id == 7).then_some(&ways);
        // Cut apart: the arm at 175 is the one that joined it; the one at 251, arm 7.
        let mut ids = [Some(7), Some(7)];
        keep_ids(&[([175.0, 310.0], true), ([251.0, 310.0], true)], &mut ids, ways_of);
        assert_eq!(ids, [None, Some(7)]);
        // Parts of one arm cut apart otherwise keep its id, both.
        let mut ids = [Some(7), Some(7)];
        keep_ids(&[([175.0, 310.0], false), ([251.0, 310.0], false)], &mut ids, ways_of);
        assert_eq!(ids, [Some(7), Some(7)]);
        // Only the latest WAYS_KEPT are remembered.
        for _ in 0..WAYS_KEPT {
            ways = Ways::after(Some(&ways), [175.0, 310.0]);
        }
        let mut ids = [Some(7), Some(7)];
        keep_ids(&[([175.0, 310.0], true), ([251.0, 310.0], true)], &mut ids, |id| (id == 7).then_some(&ways));
        assert_eq!(ids, [Some(7), None]);
    }

    #[test]
    fn runs_nearer_than_the_gap_are_one() {
        let seen: Vec<bool> = "..###.#....##..".chars().map(|c| c == '#').collect();
        assert_eq!(runs(&seen, 2), vec![(2, 7), (11, 13)]);
        assert_eq!(runs(&seen, 5), vec![(2, 13)]);
        assert_eq!(runs(&[false; 4], 2), vec![]);
    }
}
