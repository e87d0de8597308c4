//! Where arms come in: the view's border band, where a region crosses it and whose arm that
//! makes it, and over which sides the heads of tall pieces lean out of the view.

use opencv::core::{self, Mat, Rect, Scalar};
use opencv::imgproc;
use opencv::prelude::*;

use super::{ACROSS_WIDTH, HEAD_SQUARES};
use crate::types::Side;
use crate::vision::VisionError;
use crate::vision::geometry::Pose;
use crate::vision::rectify::Rectifier;

/// Half the width of a tall piece's head (a king's cross, a queen's crown), in squares.
const HEAD_HALF_WIDTH: f64 = 0.25;

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
/// [`HEAD_SQUARES`] tall on an edge square there is seen beyond the view's edge, or so near it
/// that its crown does: the point projected is the head's middle, and a crown is half a head
/// wide on either side of it (rendered game 405: a queen set down on a5 reached the view's edge
/// with her crown, the king's head reckoned a quarter of a square short of it; held as an arm
/// for three seconds, she hid the move and the clock press after it read as a false 7.5.1).
pub(super) fn heads_out(pose: &Pose, rect: &Rectifier) -> [bool; 4] {
    let size = rect.size();
    let head = |f: u32, r: u32| rect.from_image(pose.project(f as f64 + 0.5, r as f64 + 0.5, HEAD_SQUARES));
    let crown = HEAD_HALF_WIDTH * rect.px as f64;
    let mut out = [false; 4];
    for k in 0..8 {
        out[0] |= head(k, 7)[1] < crown;
        out[1] |= head(k, 0)[1] >= size.height as f64 - crown;
        out[2] |= head(0, k)[0] < crown;
        out[3] |= head(7, k)[0] >= size.width as f64 - crown;
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

/// The 8-connected regions of `mask`: their count (the background, label 0, included), a
/// label per pixel (CV_32S) and each label's box and area, as `connected_components_with_stats`
/// gives them. A mask with nothing in it, as on most frames of a game, is labelled at once.
pub(super) fn components(mask: &Mat) -> Result<(usize, Mat, Mat), VisionError> {
    let (w, h) = (mask.cols(), mask.rows());
    if core::count_non_zero(mask)? == 0 {
        let labels = Mat::new_rows_cols_with_default(h, w, core::CV_32S, Scalar::all(0.0))?;
        let stats = Mat::from_slice_2d(&[[0, 0, w, h, w * h]])?;
        return Ok((1, labels, stats));
    }
    let (mut labels, mut stats, mut centroids) = (Mat::default(), Mat::default(), Mat::default());
    let n = imgproc::connected_components_with_stats(mask, &mut labels, &mut stats, &mut centroids, 8, core::CV_32S)? as usize;
    Ok((n, labels, stats))
}

/// Per label, for those `wanted`, how far into the board, in pixels, it reaches from the
/// board's nearest edge: not only from the side it came in by, or a print along an edge
/// square's rank, coming in at a corner, would reach as far as it is long (0 for the others,
/// negative for one that stays in the margin). Only the labels' boxes (`stats`) are searched.
pub(super) fn reach_in(labels: &Mat, stats: &Mat, wanted: &[bool], board: Rect) -> Result<Vec<i32>, VisionError> {
    let w = labels.cols();
    let mut out = vec![0; wanted.len()];
    let data = labels.data_typed::<i32>()?;
    let (right, bottom) = (board.x + board.width - 1, board.y + board.height - 1);
    for l in (1..wanted.len()).filter(|&l| wanted[l]) {
        let at = |k: i32| stats.at_2d::<i32>(l as i32, k).copied();
        let (x0, y0, bw, bh) = (at(imgproc::CC_STAT_LEFT)?, at(imgproc::CC_STAT_TOP)?, at(imgproc::CC_STAT_WIDTH)?, at(imgproc::CC_STAT_HEIGHT)?);
        let mut deepest = i32::MIN;
        for y in y0..y0 + bh {
            for x in x0..x0 + bw {
                if data[(y * w + x) as usize] == l as i32 {
                    deepest = deepest.max((x - board.x).min(right - x).min(y - board.y).min(bottom - y));
                }
            }
        }
        out[l] = deepest;
    }
    Ok(out)
}

/// The side of a `w` × `h` view (top, bottom, left, right) a point is nearest to.
pub(super) fn nearest_side(p: [f64; 2], w: i32, h: i32) -> usize {
    let gaps = [p[1], h as f64 - 1.0 - p[1], p[0], w as f64 - 1.0 - p[0]];
    (0..4).min_by(|&a, &b| gaps[a].total_cmp(&gaps[b])).unwrap_or(0)
}

/// How deep, in pixels from the view's edge, the band where arms' ways in are looked for
/// ([`border`]'s `band`): the outer half of the margin.
pub(super) fn ways_in_band(rect: &Rectifier) -> i32 {
    (rect.margin * rect.px as f64 / 2.0).round() as i32
}

/// Per label, where it crosses the outer part of the margin (the arm's way in), if it does.
/// A region crossing it on two opposite sides is an arm stretched over the whole board, its
/// fingers reaching the far margin: it came in on the side an arm came in on a frame before
/// (`came_in`, the sides arms crossed then), else on the side it crosses most, and never on
/// both: averaged, its way in lay over the board, and its far end was taken back near its wrist
/// (rendered game 350: Black's queen taking on d1, the fingertips read on c8, a false 4.3.3).
pub(super) fn entries(rect: &Rectifier, labels: &Mat, n: usize, came_in: &[usize]) -> Result<Vec<Option<[f64; 2]>>, VisionError> {
    let (w, h) = (labels.cols(), labels.rows());
    let data = labels.data_typed::<i32>()?;
    let band = ways_in_band(rect);
    // Per label and side (the nearest edge), the sums of x and y and the count of its pixels in
    // the band.
    let mut sums = vec![[(0.0f64, 0.0f64, 0.0f64); 4]; n];
    for (x, y) in border(w, h, band) {
        let l = data[(y * w + x) as usize] as usize;
        if l > 0 {
            let s = &mut sums[l][nearest_side([x as f64, y as f64], w, h)];
            *s = (s.0 + x as f64, s.1 + y as f64, s.2 + 1.0);
        }
    }
    Ok(sums
        .into_iter()
        .map(|per_side| {
            let crosses = |k: usize| per_side[k].2 > 0.0;
            // Top ↔ bottom, left ↔ right: the side across from `k` is `k ^ 1`.
            let both = (0..4).filter(|&k| crosses(k) && crosses(k ^ 1)).collect::<Vec<_>>();
            let known: Vec<usize> = both.iter().copied().filter(|k| came_in.contains(k)).collect();
            let most = |ks: &[usize]| ks.iter().copied().max_by(|&a, &b| per_side[a].2.total_cmp(&per_side[b].2));
            // None where it crosses no two opposite sides.
            let kept = most(if known.is_empty() { &both } else { &known });
            let (sx, sy, c) = (0..4).filter(|&k| kept.is_none_or(|m| k != m ^ 1)).fold((0.0, 0.0, 0.0), |a, k| (a.0 + per_side[k].0, a.1 + per_side[k].1, a.2 + per_side[k].2));
            (c > 0.0).then(|| [sx / c, sy / c])
        })
        .collect())
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

    #[test]
    fn an_empty_mask_is_labelled_as_opencv_labels_it() {
        let empty = Mat::new_rows_cols_with_default(7, 11, core::CV_8UC1, Scalar::all(0.0)).unwrap();
        let (n, labels, stats) = components(&empty).unwrap();
        let (mut want_labels, mut want_stats, mut centroids) = (Mat::default(), Mat::default(), Mat::default());
        let want_n = imgproc::connected_components_with_stats(&empty, &mut want_labels, &mut want_stats, &mut centroids, 8, core::CV_32S).unwrap();
        assert_eq!(n, want_n as usize);
        assert_eq!((labels.typ(), labels.rows(), labels.cols()), (want_labels.typ(), 7, 11));
        assert_eq!(labels.data_typed::<i32>().unwrap(), want_labels.data_typed::<i32>().unwrap());
        assert_eq!((stats.typ(), stats.rows(), stats.cols()), (want_stats.typ(), want_stats.rows(), want_stats.cols()));
        assert_eq!(stats.data_typed::<i32>().unwrap(), want_stats.data_typed::<i32>().unwrap());
        // With something in it, OpenCV labels it.
        let mut one = empty.clone();
        *one.at_2d_mut::<u8>(3, 4).unwrap() = 255;
        let (n, labels, _) = components(&one).unwrap();
        assert_eq!((n, *labels.at_2d::<i32>(3, 4).unwrap()), (2, 1));
    }
    use crate::types::{BoardGeometry, ImageSide};

    fn heads_out_of(corners: [[f64; 2]; 4]) -> [bool; 4] {
        let g = BoardGeometry { corners, white: ImageSide::Bottom, h1_light: true };
        let pose = Pose::from_board(&g, 1280.0, 720.0).expect("a pose");
        heads_out(&pose, &Rectifier::new(&g, 32, 0.75).unwrap())
    }

    #[test]
    fn heads_lean_out_of_the_view_only_over_the_far_edges_of_a_low_view() {
        // Seen from straight above, no head reaches past the margin.
        assert_eq!(heads_out_of([[440.0, 160.0], [840.0, 160.0], [840.0, 560.0], [440.0, 560.0]]), [false; 4]);
        // From low behind White's edge (Black's edge far, narrow, at the top): over Black's edge,
        // and over the side edges, where the heads on a8 and h8 lean out at the far corners
        // (their middles a pixel inside the view's edge).
        assert_eq!(heads_out_of([[520.0, 150.0], [760.0, 150.0], [900.0, 600.0], [380.0, 600.0]]), [true, false, true, true]);
    }

    /// Rendered game 405's camera, low beyond the h-file: a king's head on the a-file is
    /// reckoned a quarter of a square inside the view's edge, but its crown reaches past it.
    #[test]
    fn heads_whose_crowns_reach_the_views_edge_lean_out_of_it() {
        let corners = [[826.4, 571.4], [404.4, 573.4], [435.6, 128.2], [840.9, 178.1]];
        assert_eq!(heads_out_of(corners), [false, false, true, false]);
    }

    /// A 304 × 304 view's labels: region 1 a strip down the whole view (`wide_top`: wider over
    /// the top band), region 2 a blob in the top-left corner crossing the top and left bands.
    fn arm_across(wide_top: bool) -> (Rectifier, Mat) {
        let g = BoardGeometry { corners: [[440.0, 160.0], [840.0, 160.0], [840.0, 560.0], [440.0, 560.0]], white: ImageSide::Bottom, h1_light: true };
        let rect = Rectifier::new(&g, 32, 0.75).unwrap();
        let size = rect.size();
        let mut labels = Mat::new_rows_cols_with_default(size.height, size.width, opencv::core::CV_32S, opencv::core::Scalar::all(0.0)).unwrap();
        for y in 0..size.height {
            let (x0, x1) = if wide_top && y < 40 { (110, 200) } else { (140, 170) };
            for x in x0..x1 {
                *labels.at_2d_mut::<i32>(y, x).unwrap() = 1;
            }
        }
        for y in 0..30 {
            for x in 0..30 {
                *labels.at_2d_mut::<i32>(y, x).unwrap() = 2;
            }
        }
        (rect, labels)
    }

    /// An arm stretched over the whole board, its fingers in the far margin, came in where an
    /// arm came in a frame before, else where it crosses the margin most; an arm at a corner
    /// came in over both sides there.
    #[test]
    fn an_arm_across_the_board_came_in_on_one_side_only() {
        let (rect, labels) = arm_across(false);
        let h = rect.size().height as f64;
        let from_below = entries(&rect, &labels, 3, &[1]).unwrap()[1].expect("an entry");
        assert!(from_below[1] > h - 13.0, "{from_below:?}");
        let from_above = entries(&rect, &labels, 3, &[0]).unwrap()[1].expect("an entry");
        assert!(from_above[1] < 13.0, "{from_above:?}");
        let (rect, labels) = arm_across(true);
        let widest = entries(&rect, &labels, 3, &[]).unwrap();
        assert!(widest[1].expect("an entry")[1] < 13.0, "{widest:?}");
        // The corner blob's way in is where it crosses both bands, as before.
        let corner = widest[2].expect("an entry");
        assert!(corner[0] > 3.0 && corner[0] < 20.0 && corner[1] > 3.0 && corner[1] < 20.0, "{corner:?}");
        assert_eq!(widest[0], None);
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
