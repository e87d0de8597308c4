//! Arms whose way in over the margin goes unseen: an arm stretched over the whole board whose
//! forearm at its own edge is lost, and an arm the colour of the board's frame and the table,
//! seen over the squares only. Each is given the way in it must have come by, so that the rest
//! of the hand finder takes it for the arm it is.

use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;

use super::edges::nearest_side;
use super::{HOLD_FRAMES, HandDetector};
use crate::vision::VisionError;
use crate::vision::rectify::Rectifier;

/// The least change, in squares, taken for an arm that lost its way in (see
/// [`HandDetector::keep_ways_in`]): more than a piece and the square it left.
const LOST_WAY_SQUARES: f64 = 3.0;
/// ... and how far, in squares, it must stretch away from that arm's side of the view.
const LOST_WAY_REACH: f64 = 3.0;
/// The least change, in squares, taken for an arm come in unseen over the board's edge (see
/// [`unseen_ways_in`]): more than a piece and the square it left...
const UNSEEN_ARM_SQUARES: f64 = 3.0;
/// ... and how far, in squares, it must stretch away from that edge.
const UNSEEN_ARM_REACH: f64 = 2.0;

impl HandDetector {
    /// An arm stretched over the whole board can lose its way in: its forearm at its own edge
    /// goes unseen while its fingers reach the far margin (rendered game 370: Black's arm,
    /// sixteen squares of change, crossed no margin for six frames, was dropped, and came back
    /// crossing White's margin only, as White's arm: a false 4.2.1). A region of at least
    /// [`LOST_WAY_SQUARES`] that crosses no margin, or only the one across from where an arm
    /// seen lately came in, that stretches [`LOST_WAY_REACH`] squares away from that arm's
    /// side, and lies mostly where that arm was, is that arm still, come in where it did. A
    /// piece set down is smaller; the king and rook just castled under it lie along the edge,
    /// not away from it (rendered game 260: taken for the arm, they hid the castling); and the
    /// other player's arm lies mostly outside the first one's (its own forearm on its side).
    pub(super) fn keep_ways_in(&self, labels: &Mat, stats: &Mat, area: &[u32], entries: &mut [Option<[f64; 2]>], px: i32) -> Result<(), VisionError> {
        let (w, h) = (labels.cols(), labels.rows());
        let least = (LOST_WAY_SQUARES * f64::from(px * px)) as u32;
        let big: Vec<usize> = (1..area.len()).filter(|&l| area[l] >= least).collect();
        if big.is_empty() {
            return Ok(());
        }
        let data = labels.data_typed::<i32>()?;
        let long = (LOST_WAY_REACH * f64::from(px)) as i32;
        for p in self.previous.iter().filter(|p| p.age <= HOLD_FRAMES) {
            let side = nearest_side(p.entry, w, h);
            // Top and bottom (0, 1): the reach is the region's height; left and right, its width.
            let extent = if side < 2 { imgproc::CC_STAT_HEIGHT } else { imgproc::CC_STAT_WIDTH };
            let mut lost = Vec::new();
            for &l in &big {
                if entries[l].is_none_or(|e| nearest_side(e, w, h) == side ^ 1) && *stats.at_2d::<i32>(l as i32, extent)? >= long {
                    lost.push(l);
                }
            }
            if lost.is_empty() {
                continue;
            }
            let mut overlap = vec![0u32; area.len()];
            for (&m, &l) in p.mask.data_bytes()?.iter().zip(data) {
                if m != 0 {
                    overlap[l as usize] += 1;
                }
            }
            for l in lost {
                if 2 * overlap[l] >= area[l] {
                    entries[l] = Some(p.entry);
                }
            }
        }
        Ok(())
    }
}

/// An arm the colour of the board's frame and of the table beyond it crosses no margin: its
/// change begins at the board's edge (rendered game 300: Black's brown arm over a brown frame
/// and table, seen over the squares only, was no arm for seconds at a time while it moved
/// pieces). A region that comes in by no side (`entries`), of at least [`UNSEEN_ARM_SQUARES`],
/// that lies along one of the board's edges at least a wrist wide and stretches
/// [`UNSEEN_ARM_REACH`] squares away from it, and that stirs (a quarter of it moved within
/// `SETTLE_FRAMES`, by `stirred`, [`HandDetector::stirred`]'s) or goes on from a hand seen a
/// frame before (`was_hand`), is an arm come in over that edge: its way in is put in the
/// margin's outer band there. A piece set down is smaller; a castling's king and rook lie along
/// the edge, not away from it, and are still.
pub(super) fn unseen_ways_in(rect: &Rectifier, labels: &Mat, area: &[u32], stirred: &[[u32; 4]], was_hand: &[bool], entries: &mut [Option<[f64; 2]>]) -> Result<(), VisionError> {
    let px = rect.px;
    let least = (UNSEEN_ARM_SQUARES * f64::from(px * px)) as u32;
    let candidate: Vec<bool> = (0..area.len()).map(|l| l > 0 && entries[l].is_none() && area[l] >= least && (4 * stirred[l][0] >= area[l] || was_hand[l])).collect();
    if !candidate.contains(&true) {
        return Ok(());
    }
    let data = labels.data_typed::<i32>()?;
    let (w, h) = (labels.cols(), labels.rows());
    let b = rect.board_rect();
    let (right, bottom) = (b.x + b.width - 1, b.y + b.height - 1);
    let band = (px / 4).max(1);
    // Per label and side of the board (top, bottom, left, right): its pixels within `band` of
    // that edge, the sum of their places along it, and how far it reaches away from it.
    let mut along = vec![[(0u32, 0.0f64, 0i32); 4]; area.len()];
    for (i, &l) in data.iter().enumerate() {
        if !candidate[l as usize] {
            continue;
        }
        let (x, y) = (i as i32 % w, i as i32 / w);
        let away = [y - b.y, bottom - y, x - b.x, right - x];
        for (k, s) in along[l as usize].iter_mut().enumerate() {
            if away[k] < band {
                s.0 += 1;
                s.1 += f64::from(if k < 2 { x } else { y });
            }
            s.2 = s.2.max(away[k]);
        }
    }
    let wrist = (px * px / 8) as u32;
    let reach = (UNSEEN_ARM_REACH * f64::from(px)) as i32;
    let outer = (rect.margin * f64::from(px) / 4.0).round();
    for l in (1..area.len()).filter(|&l| candidate[l]) {
        let Some(k) = (0..4).max_by_key(|&k| along[l][k].0) else { continue };
        let (count, sum, far) = along[l][k];
        if count < wrist || far < reach {
            continue;
        }
        let mid = sum / f64::from(count);
        entries[l] = Some(match k {
            0 => [mid, outer],
            1 => [mid, f64::from(h - 1) - outer],
            2 => [outer, mid],
            _ => [f64::from(w - 1) - outer, mid],
        });
    }
    Ok(())
}
