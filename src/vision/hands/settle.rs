//! Renewing the settled view the hand finder compares each frame with: what of a change may
//! join it, and when — a piece set down at once, the square a piece left at the view's edge
//! soon, an arm only after seconds of stillness — and the light followed slowly elsewhere.

use opencv::core::{self, Mat, Point, Scalar, Size};
use opencv::imgproc;
use opencv::prelude::*;

use super::edges::{border, nearest_side};
use super::{alike, BAND_SETTLE_FRAMES, DRIFT_LEVEL, GHOST_SQUARES, HandDetector, RESTLESS_FRACTION, SETTLE_FRAMES, STILL_FRAMES, WRIST_FRACTION};
use crate::vision::VisionError;

impl HandDetector {
    /// Renews the settled view: where nothing new stands it follows the light slowly; a change
    /// that has stayed still long enough (a piece set down, a square a piece left) becomes part
    /// of it, at once if it lies inside the view, only after a long stillness if it reaches in
    /// from the edge, as arms do. Returns, per label, whether it was settled this frame, and
    /// whether it settled as a ghost: a change the size of a square running off the view only
    /// beyond the picture's edge (see [`GHOST_SQUARES`]); and, per label, whether it is an arm
    /// by where it runs off the view (see [`Settled::arm_age`]). `lately` is
    /// [`arms_lately`](Self::arms_lately)'s; `resting_hand`, per label, whether it is a hand at
    /// rest, however still (see [`super::RESTING_HAND_SQUARES`]): it waits as an arm does;
    /// `stirred`, [`stirred`](Self::stirred)'s.
    pub(super) fn settle(&mut self, view: &Mat, mask: &Mat, labels: &Mat, entries: &[Option<[f64; 2]>], area: &[u32], (lately, ran_off, resting_hand, stirred): (Vec<Option<u32>>, &[bool], &[bool], &[[u32; 4]]), px: i32) -> Result<Settled, VisionError> {
        let (w, h) = (labels.cols(), labels.rows());
        let n = entries.len();
        let data = labels.data_typed::<i32>()?;
        let at_edge: Vec<bool> = entries.iter().map(Option::is_some).collect();
        // A region settles when hardly any of its pixels stirred lately (noise stirs a few).
        // Parts of a hand the colour of the squares show as pieces cut off from the arm; they
        // lie near it, and so does a piece the hand just set down, which can wait to settle
        // until the hand has moved off.
        let mut by_arm = vec![false; n];
        // (Where no arm comes in, which is most frames, nothing is near one.)
        if at_edge.iter().skip(1).any(|&e| e) {
            let mut arm = Mat::new_rows_cols_with_default(h, w, core::CV_8UC1, Scalar::all(0.0))?;
            for (b, &l) in arm.data_bytes_mut()?.iter_mut().zip(data) {
                *b = 255 * u8::from(l > 0 && at_edge[l as usize]);
            }
            let reach = 2 * px + 1;
            let k = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(reach, reach), Point::new(-1, -1))?;
            let mut near_arm = Mat::default();
            imgproc::dilate(&arm, &mut near_arm, &k, Point::new(-1, -1), 1, core::BORDER_CONSTANT, Scalar::all(0.0))?;
            for (&b, &l) in near_arm.data_bytes()?.iter().zip(data) {
                if b != 0 {
                    by_arm[l as usize] = true;
                }
            }
        }
        // Only what runs off the view is surely an arm; a change that reaches the margin but not
        // the view's edge is as often the square a piece left on the first or last rank (the
        // piece's image leant out over the margin), and settles soon once still.
        // And only what runs off it as wide as a wrist: on footage where the board fills the
        // frame, a tall piece on an edge square leans out of the picture, and the view beyond the
        // picture (its edge pixels repeated) carries a thin streak of it to the view's edge.
        let mut edge_px = vec![0; n];
        // Of those, how many lie beyond the picture (the view there repeats its edge).
        let mut beyond = vec![0; n];
        let within = self.picture.as_ref().filter(|m| m.cols() == w && m.rows() == h).map(|m| m.data_bytes()).transpose()?;
        // And how many lie on sides where tall pieces' heads lean out of the view.
        let mut heads_side = vec![0; n];
        // And how many lie within the picture, on other sides.
        let mut plain = vec![0; n];
        let out = self.heads_out;
        for (x, y) in border(w, h, 1) {
            let i = (y * w + x) as usize;
            edge_px[data[i] as usize] += 1;
            let heads = (y == 0 && out[0]) || (y == h - 1 && out[1]) || (x == 0 && out[2]) || (x == w - 1 && out[3]);
            heads_side[data[i] as usize] += i32::from(heads);
            if within.is_some_and(|m| m[i] == 0) {
                beyond[data[i] as usize] += 1;
            } else if !heads {
                plain[data[i] as usize] += 1;
            }
        }
        // Within the picture, and where no piece leans out of the view, nothing but an arm runs
        // off it: there a wrist a quarter of a square wide is one (rendered game 230: White's
        // arm the table's colour, seen only where its shadow or a fold darkened it, touched the
        // view's edge 5 to 13 pixels wide while its hand took the knight on g1, and settled into
        // the view as the square a piece left would; its print then stood on g1 as an arm).
        let off_view: Vec<bool> = (0..n).map(|l| edge_px[l] * WRIST_FRACTION >= px || plain[l] * THIN_WRIST_FRACTION >= px).collect();
        // How much of each region the picture shows: beyond it the view repeats the picture's
        // edge, and a square left empty at that edge streaks out to the view's edge as well.
        let shown: Vec<u32> = match within {
            Some(m) => {
                let mut shown = vec![0u32; n];
                for (&l, &b) in data.iter().zip(m) {
                    shown[l as usize] += u32::from(b != 0);
                }
                shown
            }
            None => area.to_vec(),
        };
        let small = |l: usize| shown[l] as f64 <= GHOST_SQUARES * (px * px) as f64;
        let ghost: Vec<bool> = (0..n).map(|l| off_view[l] && beyond[l] == edge_px[l] && small(l)).collect();
        // Where heads lean out, a castling's print (king and rook on their new squares, their
        // old ones empty) is larger than one piece's, yet runs off the view no wider than a
        // head or two: narrower than a wrist (rendered game 225 framed with the clock: f1-h1,
        // 2.7 squares, 16 pixels at the edge, held as an arm for three seconds after O-O).
        let narrow_print = |l: usize| edge_px[l] < px && shown[l] as f64 <= PRINT_SQUARES * (px * px) as f64;
        let head_left: Vec<bool> = (0..n).map(|l| off_view[l] && !ghost[l] && heads_side[l] == edge_px[l] && (small(l) || narrow_print(l))).collect();
        // An arm is what runs off the view as wide as a wrist, and stays one while it goes on
        // touching the view's edge within the picture, however thinly: a hand at rest on a
        // first-rank piece, its wrist the table's colour, may touch it by a few pixels, or for
        // a frame not at all, and it must not settle as a square a piece left (rendered game 230:
        // settled after half a second on f1, its print left in the settled view was then seen as
        // a second arm, and the move as made with two hands). Only on a side where pieces' heads
        // do not lean out: there the square a piece left touches the view's edge too.
        let arm_age: Vec<Option<u32>> = (0..n)
            .map(|l| {
                let touching = plain[l] > 0;
                let age = if touching { Some(0) } else { lately[l].map(|a| a + 1).filter(|&a| a <= ARM_EDGE_FRAMES) };
                if off_view[l] && !ghost[l] && !head_left[l] { Some(age.unwrap_or(ARM_EDGE_FRAMES)) } else { lately[l].and(age) }
            })
            .collect();
        // A hand at rest with its arm unseen is one whose arm was never seen: an arm seen running
        // off the view that has lost the view's edge for longer than a resting wrist does has
        // withdrawn, and what it leaves still is the print of the piece it moved (rendered game
        // 220's 16... Kf7 on the far edge: e8 and f7, the king's head leaning in over g6, held as
        // a hand at rest for three seconds after the arm had gone, hid the move until after the
        // clock was pressed, a false 7.5.3).
        let resting_hand: Vec<bool> = (0..n).map(|l| resting_hand[l] && !(ran_off[l] && arm_age[l].is_none())).collect();
        let settled: Vec<bool> = (0..n)
            .map(|l| {
                let restless = if head_left[l] {
                    stirred[l][2]
                } else if (off_view[l] && !ghost[l]) || (at_edge[l] && (arm_age[l].is_some() || resting_hand[l])) {
                    stirred[l][1]
                } else if off_view[l] {
                    stirred[l][0]
                } else if at_edge[l] {
                    stirred[l][2]
                } else if by_arm[l] {
                    return false;
                } else {
                    stirred[l][0]
                };
                l > 0 && restless * RESTLESS_FRACTION <= area[l]
            })
            .collect();
        // Light is followed only well away from anything new: an arm creeping in would otherwise
        // seep into the settled view before it differs enough to be seen.
        let bg = self.background.as_mut().expect("set on the first frame");
        let before = self.before.as_mut().expect("set on the first frame").data_bytes_mut()?;
        let now = view.data_bytes()?;
        let out = bg.data_bytes_mut()?;
        // Per byte of the settled view, whether it steps one level towards what is seen; the
        // steps are then taken in one flat pass the compiler vectorises (pixel by pixel, with
        // branches on levels that noise makes unpredictable, this was a third of the hand
        // finder's time).
        let mut steps = vec![0u8; out.len()];
        if n == 1 {
            // Nothing new (most frames): nothing settles, nothing is near anything new.
            let pixels = steps.as_chunks_mut::<3>().0.iter_mut().zip(now.as_chunks::<3>().0).zip(out.as_chunks::<3>().0.iter().zip(&self.calm));
            for ((step, a), (b, &calm)) in pixels {
                *step = [u8::from(calm >= SETTLE_FRAMES && alike(a, b, DRIFT_LEVEL)); 3];
            }
        } else {
            let mut near = Mat::default();
            let k = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(21, 21), Point::new(-1, -1))?;
            imgproc::dilate(mask, &mut near, &k, Point::new(-1, -1), 1, core::BORDER_CONSTANT, imgproc::morphology_default_border_value()?)?;
            let m = near.data_bytes()?;
            let kept = before.chunks_exact_mut(3).zip(self.before_kept.iter_mut());
            let pixels = data.iter().zip(now.chunks_exact(3).zip(out.chunks_exact_mut(3))).zip(m.iter().zip(&self.calm)).zip(steps.chunks_exact_mut(3).zip(kept));
            for (((&l, (a, b)), (&near_new, &calm)), (step, (was, kept))) in pixels {
                if settled[l as usize] {
                    // What settles is kept to be undone (see `uncover`), unless it is the view
                    // going back to what was kept: an arm's own hole settling is no change to
                    // undo.
                    let undone = *kept && alike(a, was, DRIFT_LEVEL);
                    if !undone {
                        was.copy_from_slice(b);
                    }
                    *kept = !undone;
                    b.copy_from_slice(a);
                } else if near_new == 0 && calm >= SETTLE_FRAMES {
                    let drifting = alike(a, b, DRIFT_LEVEL);
                    step.fill(u8::from(drifting));
                }
            }
        }
        for ((b, &a), &s) in out.iter_mut().zip(now).zip(&steps) {
            *b = *b + s * u8::from(a > *b) - s * u8::from(a < *b);
        }
        let ghosts = (0..n).map(|l| settled[l] && (ghost[l] || head_left[l])).collect();
        // What comes in through the margin but does not run off the view, and is no arm by
        // where it runs off, is a hand whose arm goes unseen (the table's colour) or the print
        // of a piece that left a square by the edge, its image leant over the margin. A hand
        // stirs; a print is still from the moment the piece has gone, and more plainly so
        // beside a hand stirring on the same side.
        // So is a change where heads lean out, small or narrow as a print there (see
        // `head_left`) and no arm by its past (rendered game 310: the queen's d8, running off
        // the view 18 pixels wide beside the hand setting her on c7, seen as a second arm).
        let unproven = |l: usize| l > 0 && at_edge[l] && (!off_view[l] || head_left[l]) && arm_age[l].is_none() && !resting_hand[l];
        let side = |l: usize| entries[l].map(|e| nearest_side(e, w, h));
        let stirs_now = |l: usize| 2 * stirred[l][3] >= area[l];
        let arm_sized = |l: usize| 2 * area[l] >= (px * px) as u32;
        // Per side of the view, arm-sized regions coming in there: how many, and whether one
        // stirs, now or within SETTLE_FRAMES: a hand slowing to set a piece down stirs over
        // less than half of itself for a frame or two while the print beside it is still
        // (rendered game 310: d8, the queen's square, seen as a second arm of Black's beside
        // the hand setting her on c7, its touch on d7 a false 4.3.1).
        // (Counted, so that a region is never beside itself: a hand that stirred a moment ago
        // and holds still now is no print.)
        let mut stirring = [0; 4];
        let mut arms_on = [0; 4];
        // (Stirring within SETTLE_FRAMES takes in stirring now: those pixels are counted too.)
        let stirs = |l: usize| 2 * stirred[l][0] >= area[l];
        for l in (1..n).filter(|&l| at_edge[l] && arm_sized(l)) {
            if let Some(s) = side(l) {
                stirring[s] += usize::from(stirs(l));
                arms_on[s] += usize::from(!settled[l]);
            }
        }
        let resting = (0..n)
            .map(|l| {
                let still = stirred[l][0] * RESTLESS_FRACTION <= area[l];
                let beside_stirring = stirred[l][3] * PRINT_FRACTION <= area[l] && side(l).is_some_and(|s| stirring[s] > usize::from(arm_sized(l) && stirs(l)));
                unproven(l) && (still || beside_stirring)
            })
            .collect();
        // A small change stirring where heads lean out, with no other arm on its side, is an arm
        // reaching in past the far margin (rendered game 425).
        let reaching = (0..n).map(|l| head_left[l] && stirs_now(l) && side(l).is_some_and(|s| arms_on[s] <= usize::from(arm_sized(l)))).collect();
        Ok(Settled { settled, ghosts, arm_age, lately, resting, reaching })
    }

    /// Per label, its pixels that stirred within [`SETTLE_FRAMES`], [`STILL_FRAMES`],
    /// [`BAND_SETTLE_FRAMES`] and [`NOW_FRAMES`].
    pub(super) fn stirred(&self, labels: &Mat, n: usize) -> Result<Vec<[u32; 4]>, VisionError> {
        let mut stirred = vec![[0u32; 4]; n];
        let limits = [SETTLE_FRAMES, STILL_FRAMES, BAND_SETTLE_FRAMES, NOW_FRAMES];
        if n == 1 {
            // All of the view is one label (nothing new): counted without looking labels up.
            for (s, limit) in stirred[0].iter_mut().zip(limits) {
                *s = self.calm.iter().map(|&c| u32::from(c < limit)).sum();
            }
            return Ok(stirred);
        }
        // Most of the view is label 0, what is not new: its counts are kept apart, in registers.
        let mut rest = [0u32; 4];
        for (&l, &c) in labels.data_typed::<i32>()?.iter().zip(&self.calm) {
            let s = if l == 0 { &mut rest } else { &mut stirred[l as usize] };
            for (s, limit) in s.iter_mut().zip(limits) {
                *s += u32::from(c < limit);
            }
        }
        stirred[0] = rest;
        Ok(stirred)
    }

    /// Per label, if it goes on from an arm seen in the last frame (most of each is the other),
    /// the frames since that arm last touched the view's edge within the picture; and whether it
    /// goes on from any hand seen then, an arm by where it runs off the view or not.
    pub(super) fn arms_lately(&self, labels: &Mat, area: &[u32]) -> Result<Lately, VisionError> {
        let n = area.len();
        let mut out = vec![None; n];
        let mut was_hand = vec![false; n];
        let mut ran_off = vec![false; n];
        let data = labels.data_typed::<i32>()?;
        for p in self.previous.iter().filter(|p| p.age == 0) {
            let mut both = vec![0u32; n];
            let mut size = 0u32;
            for (&m, &l) in p.mask.data_bytes()?.iter().zip(data) {
                if m != 0 {
                    size += 1;
                    both[l as usize] += 1;
                }
            }
            for l in 1..n {
                // Overlap over union: an arm withdrawing leaves the square it emptied, a part of
                // it only, which is no arm.
                if 2 * both[l] >= area[l] + size - both[l] {
                    was_hand[l] = true;
                    ran_off[l] |= p.ran_off;
                    if let Some(age) = p.arm_age {
                        out[l] = Some(out[l].map_or(age, |a: u32| a.min(age)));
                    }
                }
            }
        }
        Ok(Lately { arm_age: out, was_hand, ran_off })
    }
}

/// What [`HandDetector::arms_lately`] found, per label: where it goes on from an arm seen the
/// frame before (most of each is the other), that arm's [`Settled::arm_age`]; whether it was a
/// hand; and whether that arm was ever seen running off the view as an arm does (see
/// `Seen::ran_off`).
pub(super) struct Lately {
    pub arm_age: Vec<Option<u32>>,
    pub was_hand: Vec<bool>,
    pub ran_off: Vec<bool>,
}

/// What [`HandDetector::settle`] found, per label.
pub(super) struct Settled {
    /// Settled into the view this frame.
    pub settled: Vec<bool>,
    /// Settled as a ghost (see [`GHOST_SQUARES`]).
    pub ghosts: Vec<bool>,
    /// For an arm, the frames since it last touched the view's edge within the picture (any
    /// arm: [`ARM_EDGE_FRAMES`] where it runs off the view beyond the picture only); `None` for
    /// what is not an arm by where it runs off the view.
    pub arm_age: Vec<Option<u32>>,
    /// Where it goes on from an arm seen the frame before (most of each is the other), that
    /// arm's [`arm_age`](Self::arm_age); `None` where it goes on from none.
    pub lately: Vec<Option<u32>>,
    /// A print at rest, not an arm: it comes in through the margin without running off the
    /// view, is no arm by where it runs off, and has not stirred for [`SETTLE_FRAMES`], or,
    /// beside a stirring hand on the same side, for [`NOW_FRAMES`] (a square a piece left by the
    /// edge, its image leant over the margin; rendered game 410: the king's square e1 and the
    /// rook's h1 in O-O, each reported as a second arm of White's beside the moving hand for
    /// half a second, and the castling seen as made with two hands or the rook touched first).
    /// It is not reported while it settles, and an arm last seen there is not held.
    pub resting: Vec<bool>,
    /// An arm reaching in past the view's far margin, however little of it shows: a change
    /// small as a tall piece's head where heads lean out of the view, stirring now, with no
    /// other arm on its side (rendered game 425: White's arm beyond the view while castling).
    pub reaching: Vec<bool>,
}

/// The most squares a print left where heads lean out covers: a castling's four.
const PRINT_SQUARES: f64 = 4.0;

/// Frames a pixel counts as stirring now after it moved.
const NOW_FRAMES: u16 = 2;
/// Beside a hand stirring on its side, a region of which no more than 1/PRINT_FRACTION stirs
/// now is a print (a hand stirs all over: it moves as a whole).
const PRINT_FRACTION: u32 = 10;

/// Where only an arm can run off the view (see [`HandDetector::settle`]), it runs off it at
/// least 1/THIN_WRIST_FRACTION of a square wide.
const THIN_WRIST_FRACTION: i32 = 4;

/// Frames an arm resting with its wrist at the view's edge may lose touch with it and still be
/// an arm.
const ARM_EDGE_FRAMES: u32 = 10;
