//! Where each arm ends: the regions that come in through the margin, big enough to be an arm,
//! and the far end of each over the board from where it comes in — along the reach its
//! furthest pixel, across it the middle of the fingers' ends.

use opencv::core::{self, Mat, Scalar};
use opencv::prelude::*;

use super::edges::spans_view;
use super::{HandDetector, LEFT_STILL_FRAMES, PASSING_SQUARES, Region};
use crate::vision::VisionError;
use crate::vision::rectify::Rectifier;

/// How far short of the furthest pixel, in squares along the reach, the fingers' ends are taken
/// in to find the middle of the far end across the reach.
const CAP_DEPTH: f64 = 0.35;

impl HandDetector {
    /// Connected parts of the change that come in through the outer margin, with the parts
    /// that belong to them (see `parts::arm_parts`), big enough to be an arm and not just settled.
    pub(super) fn regions(&self, rect: &Rectifier, labels: &Mat, entries: &[Option<[f64; 2]>], area: &[u32], settled: &[bool], owner: &[usize], reaching: &[bool]) -> Result<Vec<Region>, VisionError> {
        let n = entries.len();
        let (w, h) = (labels.cols(), labels.rows());
        let min_area = (rect.px * rect.px / 2) as u32;
        let data = labels.data_typed::<i32>()?;
        let mut whole = vec![0u32; n];
        for (l, &o) in owner.iter().enumerate() {
            whole[o] += area[l];
        }
        // The far end over the playing area: along the board's frame an arm can stretch
        // further from where it came in than its fingertips reach.
        let b = rect.board_rect();
        let on_board = |x: i32, y: i32| x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;
        let wanted: Vec<Option<[f64; 2]>> = (0..n).map(|l| if l == 0 || whole[l] < if reaching[l] { min_area / 4 } else { min_area } || settled[l] { None } else { entries[l] }).collect();
        if wanted.iter().all(Option::is_none) {
            return Ok(Vec::new());
        }
        // One pass over the view finds every region's far end (the first pixel, row by row,
        // that is furthest), rather than a pass over the whole view per region.
        // Of the whole region, and of its part that stirred lately: a piece the hand set down
        // a moment ago stays joined to it, and still, while the hand moves on to the next
        // (castling: the king on g1 while the fingers close on the rook on h1).
        let mut far: Vec<((bool, f64), [f64; 2])> = wanted.iter().map(|e| ((false, -1.0), e.unwrap_or([0.0; 2]))).collect();
        let mut far_stirring = far.clone();
        let mut stirring = vec![0u32; n];
        for y in 0..h {
            let row = &data[(y * w) as usize..((y + 1) * w) as usize];
            let calm = &self.calm[(y * w) as usize..((y + 1) * w) as usize];
            for (x, (&l, &c)) in row.iter().zip(calm).enumerate() {
                let o = owner[l as usize];
                let Some(entry) = wanted[o] else { continue };
                let (x, y) = (x as i32, y);
                let d = (on_board(x, y), (x as f64 - entry[0]).powi(2) + (y as f64 - entry[1]).powi(2));
                let best = &mut far[o];
                if d > best.0 {
                    *best = (d, [x as f64, y as f64]);
                }
                if c < LEFT_STILL_FRAMES {
                    stirring[o] += 1;
                    let best = &mut far_stirring[o];
                    if d > best.0 {
                        *best = (d, [x as f64, y as f64]);
                    }
                }
            }
        }
        let mut of_stirring = vec![false; n];
        for (((f, s), stirring), only) in far.iter_mut().zip(far_stirring).zip(stirring).zip(of_stirring.iter_mut()) {
            if stirring * 2 >= (rect.px * rect.px) as u32 {
                *f = s;
                *only = true;
            }
        }
        // The single furthest pixel is the tip of the longest finger, to one side of what the
        // fingers close on. Across the reach, the far end is the middle of the fingers' ends:
        // of the region's pixels near the far point that reach within CAP_DEPTH of it.
        let r = rect.px;
        for (o, entry) in wanted.iter().enumerate().filter_map(|(o, e)| e.map(|e| (o, e))) {
            let ((on, best), tip) = far[o];
            // A region that does not reach over the board has no fingers over it to centre.
            if best < 0.0 || !on {
                continue;
            }
            let reach = best.sqrt();
            let depth = CAP_DEPTH * r as f64;
            let (cx, cy) = (tip[0] as i32, tip[1] as i32);
            let (mut sum, mut count) = ([0.0f64; 2], 0u32);
            for y in (cy - r).max(0)..(cy + r + 1).min(h) {
                for x in (cx - r).max(0)..(cx + r + 1).min(w) {
                    let i = (y * w + x) as usize;
                    if owner[data[i] as usize] != o || !on_board(x, y) || (of_stirring[o] && self.calm[i] >= LEFT_STILL_FRAMES) {
                        continue;
                    }
                    let d = (x as f64 - entry[0]).hypot(y as f64 - entry[1]);
                    if d >= reach - depth {
                        sum = [sum[0] + x as f64, sum[1] + y as f64];
                        count += 1;
                    }
                }
            }
            if count > 0 && reach > 0.0 {
                let u = [(tip[0] - entry[0]) / reach, (tip[1] - entry[1]) / reach];
                let off = [sum[0] / count as f64 - tip[0], sum[1] / count as f64 - tip[1]];
                let along = off[0] * u[0] + off[1] * u[1];
                far[o].1 = [tip[0] + off[0] - along * u[0], tip[1] + off[1] - along * u[1]];
            }
        }
        let mut out = Vec::new();
        for (label, entry) in wanted.iter().enumerate().filter_map(|(l, e)| e.map(|e| (l as i32, e))) {
            let mut region = Mat::default();
            core::compare(labels, &Scalar::all(label as f64), &mut region, core::CMP_EQ)?;
            if whole[label as usize] > area[label as usize] {
                let bytes = region.data_bytes_mut()?;
                for (m, &l) in bytes.iter_mut().zip(data) {
                    if owner[l as usize] == label as usize {
                        *m = 255;
                    }
                }
            }
            let across = spans_view(data, w, h, label, rect.px) || whole[label as usize] as f64 > PASSING_SQUARES * (rect.px * rect.px) as f64;
            out.push(Region { label, mask: region, entry, far: far[label as usize].1, across });
        }
        Ok(out)
    }
}
