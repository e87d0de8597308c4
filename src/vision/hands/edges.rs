//! Where arms come in: the view's border band, where a region crosses it and whose arm that
//! makes it, and over which sides the heads of tall pieces lean out of the view.

use opencv::core::Mat;
use opencv::prelude::*;

use super::{ACROSS_WIDTH, HEAD_SQUARES};
use crate::types::Side;
use crate::vision::VisionError;
use crate::vision::geometry::Pose;
use crate::vision::rectify::Rectifier;

/// The pixels of a `w` × `h` view within `band` of its edge: the outer part of the margin
/// around the board, where arms come in. Not the edge line alone: an arm the colour of the
/// table is seen only from where it passes over the board's frame.
pub(super) fn border(w: i32, h: i32, band: i32) -> impl Iterator<Item = (i32, i32)> {
    let band = band.clamp(1, w.min(h) / 2);
    // Row by row, as a scan of the whole view would meet them, without visiting the inside.
    (0..h).flat_map(move |y| {
        let whole = y < band || y >= h - band;
        let (left, right) = if whole { (0..w, w..w) } else { (0..band, w - band..w) };
        left.chain(right).map(move |x| (x, y))
    })
}

/// Per side of the view (top, bottom, left, right), whether the head of a piece
/// [`HEAD_SQUARES`] tall on an edge square there is seen beyond the view's edge.
pub(super) fn heads_out(pose: &Pose, rect: &Rectifier) -> [bool; 4] {
    let size = rect.size();
    let head = |f: u32, r: u32| rect.from_image(pose.project(f as f64 + 0.5, r as f64 + 0.5, HEAD_SQUARES));
    let mut out = [false; 4];
    for k in 0..8 {
        out[0] |= head(k, 7)[1] < 0.0;
        out[1] |= head(k, 0)[1] >= size.height as f64;
        out[2] |= head(0, k)[0] < 0.0;
        out[3] |= head(7, k)[0] >= size.width as f64;
    }
    out
}

/// The player an arm belongs to, from where it came in: from the bottom half of the view it
/// is White's (White sits at the bottom of the rectified view).
pub(super) fn side_of(entry: [f64; 2], rect: &Rectifier) -> Side {
    if entry[1] > rect.size().height as f64 / 2.0 { Side::White } else { Side::Black }
}

/// The player an arm is reported as: from over White's or Black's edge (within two ranks of
/// it), that player; from over a side edge level with the middle of the board (footage cropped
/// to the board, a player reaching round), either could be: none is named, and the tracker takes
/// the player expected to move.
pub(super) fn player_of(entry: [f64; 2], rect: &Rectifier) -> Option<Side> {
    let b = rect.board_rect();
    let band = 2.0 * rect.px as f64;
    if entry[1] >= (b.y + b.height) as f64 - band {
        Some(Side::White)
    } else if entry[1] <= b.y as f64 + band {
        Some(Side::Black)
    } else {
        None
    }
}

/// Per label, where it crosses the outer part of the margin (the arm's way in), if it does.
pub(super) fn entries(rect: &Rectifier, labels: &Mat, n: usize) -> Result<Vec<Option<[f64; 2]>>, VisionError> {
    let (w, h) = (labels.cols(), labels.rows());
    let data = labels.data_typed::<i32>()?;
    let band = (rect.margin * rect.px as f64 / 2.0).round() as i32;
    let mut sums = vec![(0.0, 0.0, 0.0); n];
    for (x, y) in border(w, h, band) {
        let l = data[(y * w + x) as usize] as usize;
        if l > 0 {
            let s = &mut sums[l];
            *s = (s.0 + x as f64, s.1 + y as f64, s.2 + 1.0);
        }
    }
    Ok(sums.into_iter().map(|(sx, sy, c)| (c > 0.0).then(|| [sx / c, sy / c])).collect())
}

/// Whether region `label` runs off the view on two opposite sides, each as wide as
/// [`ACROSS_WIDTH`] squares: an arm comes in through one side; fingers stretched past the far
/// rank reach the other side narrower than that.
pub(super) fn spans_view(data: &[i32], w: i32, h: i32, label: i32, px: i32) -> bool {
    let at = |x: i32, y: i32| data[(y * w + x) as usize] == label;
    let run = |n: i32, f: &dyn Fn(i32) -> bool| (0..n).filter(|&k| f(k)).count() as f64;
    let wide = ACROSS_WIDTH * px as f64;
    let (top, bottom) = (run(w, &|x| at(x, 0)), run(w, &|x| at(x, h - 1)));
    let (left, right) = (run(h, &|y| at(0, y)), run(h, &|y| at(w - 1, y)));
    (top >= wide && bottom >= wide) || (left >= wide && right >= wide)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{BoardGeometry, ImageSide};

    fn heads_out_of(corners: [[f64; 2]; 4]) -> [bool; 4] {
        let g = BoardGeometry { corners, white: ImageSide::Bottom, h1_light: true };
        let pose = Pose::from_board(&g, 1280.0, 720.0).expect("a pose");
        heads_out(&pose, &Rectifier::new(&g, 32, 0.75).unwrap())
    }

    #[test]
    fn heads_lean_out_of_the_view_only_over_the_far_edge_of_a_low_view() {
        // Seen from straight above, no head reaches past the margin.
        assert_eq!(heads_out_of([[440.0, 160.0], [840.0, 160.0], [840.0, 560.0], [440.0, 560.0]]), [false; 4]);
        // From low behind White's edge (Black's edge far, narrow, at the top): over Black's edge.
        assert_eq!(heads_out_of([[520.0, 150.0], [760.0, 150.0], [900.0, 600.0], [380.0, 600.0]]), [true, false, false, false]);
    }

    #[test]
    fn the_border_is_every_pixel_within_the_band_in_scan_order() {
        for (w, h, band) in [(304, 304, 12), (7, 5, 1), (9, 20, 3), (6, 6, 10), (40, 3, 0)] {
            let clamped = band.clamp(1, w.min(h) / 2);
            let all: Vec<(i32, i32)> =
                (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|&(x, y)| x.min(y).min(w - 1 - x).min(h - 1 - y) < clamped).collect();
            assert_eq!(border(w, h, band).collect::<Vec<_>>(), all, "{w}×{h}, band {band}");
        }
    }
}
