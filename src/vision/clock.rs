//! The clock beside the board: found once, in the first frame, as a compact box standing out
//! from the table (by its colour, or by the outline of its top) next to the a- or h-file edge,
//! about the middle ranks, where arbiters put it; then a button is pressed when an arm covers
//! that player's half of the box, the half nearer the player, with the other half clear.
//!
//! Nothing is reported where no such box is seen: a false press would be flagged as a clock
//! pressed without a move (7.5.3), worse than a press missed. The box is looked for on the
//! board's plane, so a clock seen obliquely shows its top face shifted and scaled, but still as
//! a rectangle of a clock's size lined up with the board.

use opencv::core::{self, Mat, Point2f, Scalar, Size, Vector};
use opencv::imgproc;
use opencv::prelude::*;

use super::VisionError;
use super::rectify::{Rectifier, SourceMaps};
use crate::types::ClockObs;

/// Pixels per square of the side strips.
const PX: f64 = 16.0;
/// Where a side strip starts beyond the playing area's edge, and how far it reaches, in
/// squares: past a board's frame, out to where a clock beside it still stands.
const STRIP_FROM: f64 = 0.5;
const STRIP_TO: f64 = 6.5;
/// The strip's extent along the files' direction, in ranks (a little beyond both ends).
const STRIP_RANKS: (f64, f64) = (-0.5, 8.5);
/// The share of a strip that must lie within the picture for a clock to be looked for there.
const MIN_WITHIN: f64 = 0.15;
/// A clock's box seen from above, in squares (a square is 5–6 cm; clocks are 10–20 cm long and
/// 5–12 cm deep), the longer side along the board's edge or across it.
const LONG_SIDE: (f64, f64) = (1.4, 5.5);
const SHORT_SIDE: (f64, f64) = (0.8, 4.0);
/// How much of its bounding box a clock's outline fills: a box, not a scatter of things.
const MIN_FILL: f64 = 0.8;
/// How far from the board's middle line (between the 4th and 5th ranks) a clock's centre may
/// stand, and how far its near side from the playing area's edge, in squares.
const MAX_OFF_MIDDLE: f64 = 1.5;
const MAX_AWAY: f64 = 3.0;
/// How unlike the table (Lab distance) a pixel must be to be part of something on it, at least.
const MIN_UNLIKE: f64 = 18.0;
/// Canny's lower threshold for the outlines of things on the table (grey levels).
const EDGE_LOW: f64 = 20.0;
/// How far (largest channel, 0–255) a pixel of the box must change to be covered.
const COVER_LEVEL: i32 = 40;
/// The share of a player's half of the box covered for the player's arm to be on it (from
/// straight above, only the fingers on the button may be over the box), and how much less of
/// the other half may be covered.
const COVERED: f64 = 0.07;
const OTHER_HALF: f64 = 0.5;
/// Frames in a row a half must be covered (or clear) for a press to start (or end).
const STEADY: u8 = 2;

/// A clock found beside the board, and what its buttons are doing.
#[derive(Debug)]
pub struct ClockWatch {
    size: Size,
    /// The strip's warp from the picture (image → strip pixels), worked out once.
    maps: SourceMaps,
    /// The box within the strip, in strip pixels: x, y, width, height.
    bx: core::Rect,
    /// The strip with nothing over the box, following the light's drift. Its rows grow towards
    /// White's side in both strips, as the board's rectified view has White at the bottom, so
    /// White's half of the box is always the lower one.
    reference: Mat,
    /// Which strip pixels lie within the picture (255): only those can show an arm.
    within: Vec<u8>,
    /// Frames in a row each half (White's, Black's) has been covered, or clear.
    covered_for: [u8; 2],
    clear_for: [u8; 2],
    pressed: [bool; 2],
    /// Which file edge the clock stands beside ('a' or 'h').
    pub beside: char,
}

/// Where the clock's buttons are in the picture, as a calibration file gives them (image
/// pixels): for a clock the finder misses.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClockButtons {
    pub white: [f64; 2],
    pub black: [f64; 2],
}

/// How far round a given button the box is taken to reach, in squares: a button's cap and
/// the fingers on it.
const ROUND_BUTTON: f64 = 0.75;

/// One side strip warped from `frame`: the image → strip homography and the size.
fn strip_transform(rect: &Rectifier, beside_h: bool) -> Result<(Mat, Size), VisionError> {
    let width = STRIP_TO - STRIP_FROM;
    let height = STRIP_RANKS.1 - STRIP_RANKS.0;
    let size = Size::new((width * PX).round() as i32, (height * PX).round() as i32);
    // Board coordinates (files from a1's outer corner, ranks likewise) of the strip's corners:
    // top-left, top-right, bottom-right, bottom-left, with the strip's left towards the board
    // for the h side and away from it for the a side (so the strip reads like the board).
    let (x0, x1) = if beside_h { (8.0 + STRIP_FROM, 8.0 + STRIP_TO) } else { (-STRIP_TO, -STRIP_FROM) };
    let corners = [[x0, STRIP_RANKS.1], [x1, STRIP_RANKS.1], [x1, STRIP_RANKS.0], [x0, STRIP_RANKS.0]];
    let b = rect.board_rect();
    let px = rect.px as f64;
    let src: Vector<Point2f> = corners
        .iter()
        .map(|&[f, r]| {
            let p = rect.to_image(b.x as f64 + f * px, b.y as f64 + (8.0 - r) * px);
            Point2f::new(p[0] as f32, p[1] as f32)
        })
        .collect();
    let (w, h) = (size.width as f32, size.height as f32);
    let dst: Vector<Point2f> = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]].iter().map(|p: &[f32; 2]| Point2f::new(p[0], p[1])).collect();
    Ok((imgproc::get_perspective_transform(&src, &dst, core::DECOMP_LU)?, size))
}

/// Which pixels of a strip lie within a picture of `size` (255), as `warp` places them.
fn within_picture(size: Size, to_strip: &Mat, strip: Size) -> Result<Mat, VisionError> {
    let all = Mat::new_size_with_default(size, core::CV_8UC1, Scalar::all(255.0))?;
    warp(&all, to_strip, strip, core::BORDER_CONSTANT)
}

fn warp(frame: &Mat, m: &Mat, size: Size, border: i32) -> Result<Mat, VisionError> {
    let mut out = Mat::default();
    imgproc::warp_perspective(frame, &mut out, m, size, imgproc::INTER_LINEAR, border, Scalar::all(0.0))?;
    Ok(out)
}

impl ClockWatch {
    /// Looks for a clock beside the board in `first`, a frame with no hand near it.
    pub fn find(first: &Mat, rect: &Rectifier) -> Result<Option<ClockWatch>, VisionError> {
        let mut best: Option<(f64, ClockWatch)> = None;
        for beside_h in [true, false] {
            let (to_strip, size) = strip_transform(rect, beside_h)?;
            let strip = warp(first, &to_strip, size, core::BORDER_CONSTANT)?;
            let within = within_picture(first.size()?, &to_strip, size)?;
            let Some((bx, score)) = find_box(&strip, &within, beside_h)? else { continue };
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, ClockWatch::watching(first, to_strip, size, within, bx, beside_h)?));
            }
        }
        Ok(best.map(|(_, w)| w))
    }

    /// The clock whose buttons `buttons` gives, in `first` (a frame with no hand near it).
    /// The buttons must stand beside the a- or the h-file edge, White's nearer White's side:
    /// otherwise the error says where they were found.
    pub fn at(first: &Mat, rect: &Rectifier, buttons: ClockButtons) -> Result<ClockWatch, VisionError> {
        // Each button in board coordinates: files and ranks from a1's outer corner.
        let on_board = |p: [f64; 2]| {
            let [x, y] = rect.from_image(p);
            rect.board_coords(x, y).map(f64::from)
        };
        let (w, k) = (on_board(buttons.white), on_board(buttons.black));
        let file = (w[0] + k[0]) / 2.0;
        let beside_h = file > 8.0;
        if (0.0..=8.0).contains(&file) || w[1] >= k[1] {
            return Err(VisionError::Invalid(format!(
                "the clock's buttons are given at files {:.1} and {:.1}, ranks {:.1} (White's) and {:.1} (Black's), counted from a1's corner: they must stand beside the a- or h-file edge, White's nearer White",
                w[0], k[0], w[1], k[1]
            )));
        }
        let (to_strip, size) = strip_transform(rect, beside_h)?;
        // The strip's pixel for a board point: columns run away from the board beside h,
        // towards it beside a; rows from the strip's top rank down.
        let column = |f: f64| if beside_h { (f - 8.0 - STRIP_FROM) * PX } else { (f + STRIP_TO) * PX };
        let row = |r: f64| (STRIP_RANKS.1 - r) * PX;
        let (x0, x1) = (column(w[0]).min(column(k[0])) - ROUND_BUTTON * PX, column(w[0]).max(column(k[0])) + ROUND_BUTTON * PX);
        let (y0, y1) = (row(k[1]) - ROUND_BUTTON * PX, row(w[1]) + ROUND_BUTTON * PX);
        let clamp = |v: f64, hi: i32| (v.round() as i32).clamp(0, hi);
        let (x0, x1, y0, y1) = (clamp(x0, size.width), clamp(x1, size.width), clamp(y0, size.height), clamp(y1, size.height));
        if x1 - x0 < 2 || y1 - y0 < 2 {
            return Err(VisionError::Invalid("the clock's buttons are given beyond where a clock beside the board is looked for".into()));
        }
        let within = within_picture(first.size()?, &to_strip, size)?;
        ClockWatch::watching(first, to_strip, size, within, core::Rect::new(x0, y0, x1 - x0, y1 - y0), beside_h)
    }

    /// The watch on box `bx` of a strip, its buttons up, the box at rest as `first` shows it.
    fn watching(first: &Mat, to_strip: Mat, size: Size, within: Mat, bx: core::Rect, beside_h: bool) -> Result<ClockWatch, VisionError> {
        // Seen as every later frame is: beyond the picture's edge, its edge repeated.
        let maps = SourceMaps::new(&to_strip, size)?;
        let reference = maps.warp(first)?;
        let within = within.data_bytes()?.to_vec();
        Ok(ClockWatch { size, maps, bx, reference, within, covered_for: [0; 2], clear_for: [0; 2], pressed: [false; 2], beside: if beside_h { 'h' } else { 'a' } })
    }

    /// What the buttons do in `frame`.
    pub fn observe(&mut self, frame: &Mat) -> Result<ClockObs, VisionError> {
        let strip = self.maps.warp(frame)?;
        self.observe_strip(&strip)
    }

    /// Where the clock's strip comes from in a frame: what [`observe_strip`](Self::observe_strip)
    /// takes, warped with these, can be cut out of a frame on any thread.
    pub(crate) fn strip_maps(&self) -> &SourceMaps {
        &self.maps
    }

    /// What the buttons do in a frame whose strip (cut out with [`strip_maps`](Self::strip_maps))
    /// is `strip`.
    pub(crate) fn observe_strip(&mut self, strip: &Mat) -> Result<ClockObs, VisionError> {
        let cover = self.cover(strip)?;
        for i in 0..2 {
            let on = cover[i] >= COVERED && cover[1 - i] <= cover[i] * OTHER_HALF;
            let off = cover[i] < COVERED * 0.5;
            self.covered_for[i] = if on { self.covered_for[i].saturating_add(1) } else { 0 };
            self.clear_for[i] = if off { self.clear_for[i].saturating_add(1) } else { 0 };
            if self.covered_for[i] >= STEADY {
                self.pressed[i] = true;
            } else if self.clear_for[i] >= STEADY {
                self.pressed[i] = false;
            }
        }
        if cover[0] < COVERED * 0.5 && cover[1] < COVERED * 0.5 {
            // Nothing over the box: follow the light's drift.
            let mut blended = Mat::default();
            core::add_weighted(&self.reference, 0.9, strip, 0.1, 0.0, &mut blended, -1)?;
            self.reference = blended;
        }
        Ok(ClockObs { pressed: self.pressed })
    }

    /// The share of White's half and of Black's half of the box unlike the box at rest.
    fn cover(&self, strip: &Mat) -> Result<[f64; 2], VisionError> {
        let mut diff = Mat::default();
        core::absdiff(strip, &self.reference, &mut diff)?;
        let d = diff.data_bytes()?;
        let w = self.size.width as usize;
        let b = self.bx;
        let mid = b.y + b.height / 2;
        // What covers the box's third nearest the board does not count: a hand on its way to
        // or from the board's side (fetching a piece for a promotion, setting a captured one
        // down) crosses the clock's near edge, while a press comes down on the button, which
        // stands back from it (the rendered under-promotion scene: the hand fetching the new
        // queen beside the board covered that edge of White's half, a false 7.5.3). The share
        // is still of the whole half: a button left up by the other player's press changes as
        // much of the half as before, short of a press (rendered game 250). Strips run away
        // from the board beside h, towards it beside a.
        let near = b.width / 3;
        let counted = if self.beside == 'h' { b.x + near..b.x + b.width } else { b.x..b.x + b.width - near };
        let mut count = [0usize; 2];
        let mut total = [0usize; 2];
        for y in b.y..b.y + b.height {
            // Rows grow towards White's side in both strips: White's half is the lower one.
            let side = if y >= mid { 0 } else { 1 };
            for x in b.x..b.x + b.width {
                let p = y as usize * w + x as usize;
                if self.within[p] != 255 {
                    continue;
                }
                let i = p * 3;
                total[side] += 1;
                count[side] += (counted.contains(&x) && d[i].max(d[i + 1]).max(d[i + 2]) as i32 > COVER_LEVEL) as usize;
            }
        }
        Ok([count[0] as f64 / total[0].max(1) as f64, count[1] as f64 / total[1].max(1) as f64])
    }
}

/// The clock's box in a side strip, and how clearly it shows (0–1), if one is there.
fn find_box(strip: &Mat, within: &Mat, beside_h: bool) -> Result<Option<(core::Rect, f64)>, VisionError> {
    let (w, h) = (strip.cols() as usize, strip.rows() as usize);
    let inside = within.data_bytes()?;
    let n_within = inside.iter().filter(|&&v| v == 255).count();
    if (n_within as f64) < MIN_WITHIN * (w * h) as f64 {
        return Ok(None);
    }
    let mut blurred = Mat::default();
    imgproc::gaussian_blur(strip, &mut blurred, Size::new(5, 5), 0.0, 0.0, core::BORDER_REPLICATE)?;
    let mut lab = Mat::default();
    imgproc::cvt_color(&blurred, &mut lab, imgproc::COLOR_BGR2Lab, 0)?;
    let px = lab.data_bytes()?;
    // The table: the strip's median colour, where the strip is within the picture.
    let median = |c: usize| {
        let mut v: Vec<u8> = (0..w * h).filter(|&i| inside[i] == 255).map(|i| px[i * 3 + c]).collect();
        let k = v.len() / 2;
        *v.select_nth_unstable(k).1 as f64
    };
    let table = [median(0), median(1), median(2)];
    let dist: Vec<f64> = (0..w * h)
        .map(|i| {
            let d = |c: usize| px[i * 3 + c] as f64 - table[c];
            (d(0) * d(0) + d(1) * d(1) + d(2) * d(2)).sqrt()
        })
        .collect();
    // The table's own spread (grain, the light's gradient) sets how unlike is unlike.
    let mut spread: Vec<f64> = (0..w * h).filter(|&i| inside[i] == 255).map(|i| dist[i]).collect();
    let k = spread.len() / 2;
    let typical = *spread.select_nth_unstable_by(k, f64::total_cmp).1;
    let level = MIN_UNLIKE.max(3.0 * typical);
    let mut unlike = vec![0u8; w * h];
    for i in 0..w * h {
        if inside[i] == 255 && dist[i] > level {
            unlike[i] = 255;
        }
    }
    // A board's frame, or a table's edge, runs the strip's whole length: not a clock.
    for x in 0..w {
        let col = (0..h).filter(|&y| unlike[y * w + x] == 255).count();
        if col as f64 > 0.7 * h as f64 {
            for y in 0..h {
                unlike[y * w + x] = 0;
            }
        }
    }
    let mask = Mat::new_rows_cols_with_data(h as i32, w as i32, &unlike)?.try_clone()?;
    let kernel = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(7, 7), core::Point::new(-1, -1))?;
    let mut closed = Mat::default();
    imgproc::morphology_ex(&mask, &mut closed, imgproc::MORPH_CLOSE, &kernel, core::Point::new(-1, -1), 1, core::BORDER_CONSTANT, Scalar::all(0.0))?;
    let small = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(3, 3), core::Point::new(-1, -1))?;
    let mut opened = Mat::default();
    imgproc::morphology_ex(&closed, &mut opened, imgproc::MORPH_OPEN, &small, core::Point::new(-1, -1), 1, core::BORDER_CONSTANT, Scalar::all(0.0))?;
    let mut candidates = Vec::new();
    let mut labels = Mat::default();
    let mut stats = Mat::default();
    let mut centroids = Mat::default();
    let n = imgproc::connected_components_with_stats(&opened, &mut labels, &mut stats, &mut centroids, 8, core::CV_32S)?;
    for i in 1..n {
        let s = |k: i32| -> Result<i32, VisionError> { Ok(*stats.at_2d::<i32>(i, k)?) };
        let r = core::Rect::new(s(imgproc::CC_STAT_LEFT)?, s(imgproc::CC_STAT_TOP)?, s(imgproc::CC_STAT_WIDTH)?, s(imgproc::CC_STAT_HEIGHT)?);
        candidates.push((r, s(imgproc::CC_STAT_AREA)? as f64));
    }
    // A clock in a shadow's edge, or the table's colour, merges with its surroundings or
    // fades into it; its top face's outline still closes round a rectangle.
    candidates.extend(outlines(strip)?);
    let mut best: Option<(core::Rect, f64)> = None;
    for (r, area) in candidates {
        let (bw, bh) = (r.width as f64 / PX, r.height as f64 / PX);
        let (long, short) = (bw.max(bh), bw.min(bh));
        let fill = area / (r.width * r.height).max(1) as f64;
        // Not cut by the strip's edge, and both ends in view, where the players' arms come: a
        // clock cut along its length by the picture's edge still shows which half is covered.
        let touches = r.x <= 0 || r.y <= 0 || r.x + r.width >= w as i32 || r.y + r.height >= h as i32;
        let cut_columns = (r.x..r.x + r.width).filter(|&x| [r.y - 1, r.y + r.height].iter().any(|&y| y >= 0 && (y as usize) < h && inside[y as usize * w + x as usize] != 255)).count();
        let cut = cut_columns as f64 > 0.4 * r.width as f64;
        let centre_rank = STRIP_RANKS.1 - (r.y as f64 + r.height as f64 / 2.0) / PX;
        let off_middle = (centre_rank - 4.0).abs();
        // The strip's columns run away from the board beside h, towards it beside a.
        let near = if beside_h { r.x } else { w as i32 - r.x - r.width };
        let away = STRIP_FROM + near as f64 / PX;
        if std::env::var_os("TOUCHMOVE_DEBUG").is_some() {
            eprintln!("clock beside {}? {bw:.1}×{bh:.1} squares {away:.1} from the board, {off_middle:.1} off the middle, filled {fill:.2}{}{}", if beside_h { 'h' } else { 'a' }, if touches { ", at the strip's edge" } else { "" }, if cut { ", cut by the picture's edge" } else { "" });
        }
        if touches || cut || away > MAX_AWAY || !(LONG_SIDE.0..=LONG_SIDE.1).contains(&long) || !(SHORT_SIDE.0..=SHORT_SIDE.1).contains(&short) || fill < MIN_FILL || off_middle > MAX_OFF_MIDDLE {
            continue;
        }
        if best.as_ref().is_none_or(|(b, _)| (b.width * b.height) < r.width * r.height) {
            best = Some((r, fill));
        }
    }
    Ok(best)
}

/// Closed outlines in a strip, each as its bounding box and the area it encloses.
fn outlines(strip: &Mat) -> Result<Vec<(core::Rect, f64)>, VisionError> {
    let mut grey = Mat::default();
    imgproc::cvt_color(strip, &mut grey, imgproc::COLOR_BGR2GRAY, 0)?;
    let mut smooth = Mat::default();
    imgproc::gaussian_blur(&grey, &mut smooth, Size::new(3, 3), 0.0, 0.0, core::BORDER_REPLICATE)?;
    let mut edges = Mat::default();
    imgproc::canny(&smooth, &mut edges, EDGE_LOW, 3.0 * EDGE_LOW, 3, false)?;
    let kernel = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(3, 3), core::Point::new(-1, -1))?;
    let mut joined = Mat::default();
    imgproc::dilate(&edges, &mut joined, &kernel, core::Point::new(-1, -1), 1, core::BORDER_CONSTANT, Scalar::all(0.0))?;
    let mut contours = Vector::<Vector<core::Point>>::new();
    imgproc::find_contours(&joined, &mut contours, imgproc::RETR_LIST, imgproc::CHAIN_APPROX_SIMPLE, core::Point::new(0, 0))?;
    let mut out = Vec::new();
    for c in contours.iter() {
        let r = imgproc::bounding_rect(&c)?;
        out.push((r, imgproc::contour_area(&c, false)?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{BoardGeometry, ImageSide};
    use opencv::core::{Point, Rect};

    /// Pixels per square of the test pictures, and the playing area's corner.
    const SQ: f64 = 30.0;
    const X0: f64 = 200.0;
    const Y0: f64 = 60.0;

    fn rect() -> Rectifier {
        let (x1, y1) = (X0 + 8.0 * SQ, Y0 + 8.0 * SQ);
        let g = BoardGeometry { corners: [[X0, Y0], [x1, Y0], [x1, y1], [X0, y1]], white: ImageSide::Bottom, h1_light: true };
        Rectifier::new(&g, 32, 0.75).unwrap()
    }

    /// A grained table, 720 × 400: a faint pattern no clock is made of.
    fn table() -> Mat {
        let mut m = Mat::new_rows_cols_with_default(400, 720, core::CV_8UC3, Scalar::new(70.0, 95.0, 120.0, 0.0)).unwrap();
        for (i, v) in m.data_bytes_mut().unwrap().iter_mut().enumerate() {
            *v = v.saturating_add(((i * 7919) % 13) as u8);
        }
        m
    }

    /// Files and ranks (from a1's outer corner) to a picture rectangle.
    fn area(files: (f64, f64), ranks: (f64, f64)) -> Rect {
        let (x, y) = (X0 + files.0 * SQ, Y0 + (8.0 - ranks.1) * SQ);
        Rect::new(x as i32, y as i32, ((files.1 - files.0) * SQ) as i32, ((ranks.1 - ranks.0) * SQ) as i32)
    }

    fn fill(m: &mut Mat, r: Rect, bgr: [f64; 3]) {
        imgproc::rectangle(m, r, Scalar::new(bgr[0], bgr[1], bgr[2], 0.0), imgproc::FILLED, imgproc::LINE_8, 0).unwrap();
    }

    /// A clock 2 × 3 squares, 1.5 squares beyond the h-file (or the a-file), its buttons at a
    /// quarter of its length from each end.
    fn with_clock(beside_h: bool) -> Mat {
        let mut m = table();
        let files = if beside_h { (9.5, 11.5) } else { (-3.5, -1.5) };
        fill(&mut m, area(files, (2.5, 5.5)), [35.0, 35.0, 38.0]);
        fill(&mut m, area((files.0 + 0.7, files.0 + 1.3), (3.0, 3.6)), [200.0, 200.0, 200.0]);
        fill(&mut m, area((files.0 + 0.7, files.0 + 1.3), (4.4, 5.0)), [30.0, 30.0, 170.0]);
        m
    }

    /// An arm from White's side (the picture's bottom) or Black's, its fingers `reach` ranks
    /// onto the clock beside h.
    fn arm(m: &Mat, white: bool, reach: f64) -> Mat {
        let mut m = m.clone();
        let ranks = if white { (-6.0, 2.5 + reach) } else { (5.5 - reach, 14.0) };
        fill(&mut m, area((10.0, 11.0), ranks), [90.0, 140.0, 200.0]);
        m
    }

    fn presses(watch: &mut ClockWatch, frames: &[&Mat]) -> Vec<[bool; 2]> {
        frames.iter().map(|f| watch.observe(f).unwrap().pressed).collect()
    }

    #[test]
    fn a_clock_beside_either_file_edge_is_found() {
        let r = rect();
        for (beside_h, edge) in [(true, 'h'), (false, 'a')] {
            let watch = ClockWatch::find(&with_clock(beside_h), &r).unwrap().expect("a clock");
            assert_eq!(watch.beside, edge);
        }
    }

    #[test]
    fn a_press_is_the_player_whose_half_the_arm_covers() {
        let r = rect();
        let rest = with_clock(true);
        let mut watch = ClockWatch::find(&rest, &r).unwrap().unwrap();
        let white = arm(&rest, true, 0.8);
        let black = arm(&rest, false, 0.8);
        // One frame is no press; two are; the arm gone, the button is up again.
        let seen = presses(&mut watch, &[&rest, &white, &white, &white, &rest, &rest, &black, &black, &rest, &rest]);
        let want = [[false, false], [false, false], [true, false], [true, false], [true, false], [false, false], [false, false], [false, true], [false, true], [false, false]];
        assert_eq!(seen, want);
        // An arm over both halves (reaching across) is no one's press.
        let across = arm(&rest, true, 2.8);
        assert!(presses(&mut watch, &[&across, &across, &across]).iter().all(|p| *p == [false, false]));
    }

    #[test]
    fn a_hand_passing_between_the_board_and_the_clock_presses_nothing() {
        let r = rect();
        let rest = with_clock(true);
        let mut watch = ClockWatch::find(&rest, &r).unwrap().unwrap();
        // White's hand fetching a piece from beside the board, over the clock's edge nearest
        // the board, well into White's half; then the same hand on the button.
        let mut passing = rest.clone();
        fill(&mut passing, area((8.6, 9.9), (-6.0, 3.6)), [90.0, 140.0, 200.0]);
        assert!(presses(&mut watch, &[&rest, &passing, &passing, &passing]).iter().all(|p| *p == [false, false]));
        let press = arm(&rest, true, 0.8);
        assert_eq!(presses(&mut watch, &[&rest, &rest, &press, &press]).last(), Some(&[true, false]));
    }

    #[test]
    fn a_clock_given_by_its_buttons_is_watched_like_one_found() {
        let r = rect();
        let rest = with_clock(true);
        let point = |f: f64, rank: f64| [X0 + f * SQ, Y0 + (8.0 - rank) * SQ];
        let buttons = ClockButtons { white: point(10.5, 3.3), black: point(10.5, 4.7) };
        let mut watch = ClockWatch::at(&rest, &r, buttons).unwrap();
        assert_eq!(watch.beside, 'h');
        let white = arm(&rest, true, 0.8);
        let black = arm(&rest, false, 0.8);
        let seen = presses(&mut watch, &[&rest, &white, &white, &rest, &rest, &black, &black, &rest, &rest]);
        assert_eq!(seen[2], [true, false]);
        assert_eq!(seen[6], [false, true]);
        assert_eq!(seen[8], [false, false]);
        // Buttons on the board, or White's towards Black's side: refused, saying where.
        for wrong in [ClockButtons { white: point(4.0, 3.0), black: point(4.0, 5.0) }, ClockButtons { white: buttons.black, black: buttons.white }] {
            let e = ClockWatch::at(&rest, &r, wrong).unwrap_err().to_string();
            assert!(e.contains("beside the a- or h-file edge"), "{e}");
        }
    }

    #[test]
    fn nothing_is_taken_for_a_clock_that_is_not_one() {
        let r = rect();
        let plain = table();
        assert!(ClockWatch::find(&plain, &r).unwrap().is_none(), "a bare table");
        // A board's wide frame, or the table's edge, running the board's whole length.
        let mut frame = table();
        fill(&mut frame, area((8.0, 9.3), (-0.3, 8.3)), [60.0, 120.0, 170.0]);
        assert!(ClockWatch::find(&frame, &r).unwrap().is_none(), "a frame");
        // A captured piece standing beside the board.
        let mut piece = table();
        imgproc::circle(&mut piece, Point::new((X0 + 10.0 * SQ) as i32, (Y0 + 4.0 * SQ) as i32), (0.35 * SQ) as i32, Scalar::all(30.0), imgproc::FILLED, imgproc::LINE_8, 0).unwrap();
        assert!(ClockWatch::find(&piece, &r).unwrap().is_none(), "a piece");
        // A box of a clock's size, but by a corner of the board, or far out on the table.
        for (files, ranks) in [((9.5, 11.5), (-0.2, 2.8)), ((12.5, 14.5), (2.5, 5.5))] {
            let mut m = table();
            fill(&mut m, area(files, ranks), [35.0, 35.0, 38.0]);
            assert!(ClockWatch::find(&m, &r).unwrap().is_none(), "a box at files {files:?}, ranks {ranks:?}");
        }
    }
}
