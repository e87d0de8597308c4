//! Hands and arms over the board. A hand is what is not the board and reaches in from outside
//! it: the difference between the frame and the last settled view of the board, kept where it
//! touches the edge of the view (arms come from the players), so a moved piece — a change
//! inside the board — is never a hand. Skin colour plays no part, so sleeves, gloves and any
//! skin tone are hands alike. Regions are followed from frame to frame by overlap, so two arms
//! stay two and keep their ids; the fingertips are the region's far end from where it enters.

use opencv::core::{self, Mat, Point, Scalar, Size};
use opencv::imgproc;
use opencv::prelude::*;
use shakmaty::Square;

use super::VisionError;
use super::rectify::Rectifier;
use crate::types::{HandObs, Side};

/// How different a pixel must be from the settled board to be part of something new.
const DIFF_LEVEL: f64 = 28.0;
/// How much darker (or lighter) light alone may make a pixel.
const SHADOW_RATIO: f64 = 0.6;
/// How much a pixel's colour balance may shift before something else stands there.
const CHROMA_LEVEL: f64 = 0.04;
/// Frames with no arm in view before the settled view is renewed.
const SETTLE_FRAMES: u32 = 6;
/// Frames a region may stay perfectly still before it is taken as part of the scene (a clock
/// button left down, a shadow that stopped): a resting hand moves a little, a scene does not.
const STILL_FRAMES: u32 = 45;
/// Mean level of frame-to-frame change inside a region below which it counts as still.
const STILL_LEVEL: f64 = 2.0;

pub struct HandDetector {
    background: Option<Mat>,
    last_view: Option<Mat>,
    still: u32,
    quiet: u32,
    /// Last frame's regions: id and label mask, for following by overlap.
    previous: Vec<(u32, Mat)>,
    next_id: u32,
}

/// A region found in one frame, before ids are given.
struct Region {
    mask: Mat,
    entry: [f64; 2],
    far: [f64; 2],
}

impl Default for HandDetector {
    fn default() -> Self {
        HandDetector { background: None, last_view: None, still: 0, quiet: 0, previous: Vec::new(), next_id: 0 }
    }
}

/// The pixels along the edge of a `w` × `h` view.
fn border(w: i32, h: i32) -> impl Iterator<Item = (i32, i32)> {
    let rows = (0..w).flat_map(move |x| [(x, 0), (x, h - 1)]);
    let cols = (1..h - 1).flat_map(move |y| [(0, y), (w - 1, y)]);
    rows.chain(cols)
}

/// Pixels where something new stands, not where the light merely changed: a shadow darkens
/// all three channels alike and not by much, an arm changes the colour or the brightness a lot.
fn changed(view: &Mat, background: &Mat) -> Result<Mat, VisionError> {
    let (w, h) = (view.cols(), view.rows());
    let mut mask = Mat::new_rows_cols_with_default(h, w, core::CV_8UC1, Scalar::all(0.0))?;
    let (now, was) = (view.data_bytes()?, background.data_bytes()?);
    let out = mask.data_bytes_mut()?;
    for (i, o) in out.iter_mut().enumerate() {
        let a = [now[3 * i] as f64, now[3 * i + 1] as f64, now[3 * i + 2] as f64];
        let b = [was[3 * i] as f64, was[3 * i + 1] as f64, was[3 * i + 2] as f64];
        let diff = (a[0] - b[0]).abs().max((a[1] - b[1]).abs()).max((a[2] - b[2]).abs());
        if diff < DIFF_LEVEL {
            continue;
        }
        let (sa, sb) = (a[0] + a[1] + a[2] + 3.0, b[0] + b[1] + b[2] + 3.0);
        let ratio = sa / sb;
        let chroma = (0..3).map(|k| ((a[k] + 1.0) / sa - (b[k] + 1.0) / sb).abs()).fold(0.0, f64::max);
        if chroma > CHROMA_LEVEL || !(SHADOW_RATIO..1.0 / SHADOW_RATIO).contains(&ratio) {
            *o = 255;
        }
    }
    Ok(mask)
}

impl HandDetector {
    pub fn new() -> HandDetector {
        HandDetector::default()
    }

    /// The hands in a rectified frame (White at the bottom), with the squares they cover.
    pub fn detect(&mut self, rect: &Rectifier, view: &Mat) -> Result<Vec<HandObs>, VisionError> {
        let Some(background) = &self.background else {
            self.background = Some(view.try_clone()?);
            return Ok(Vec::new());
        };
        let mask = changed(view, background)?;
        let k = imgproc::get_structuring_element(imgproc::MORPH_ELLIPSE, Size::new(5, 5), Point::new(-1, -1))?;
        let mut opened = Mat::default();
        // The default border value keeps a region that runs off the view touching its edge.
        let edge = imgproc::morphology_default_border_value()?;
        imgproc::morphology_ex(&mask, &mut opened, imgproc::MORPH_OPEN, &k, Point::new(-1, -1), 1, core::BORDER_CONSTANT, edge)?;
        let k2 = imgproc::get_structuring_element(imgproc::MORPH_ELLIPSE, Size::new(11, 11), Point::new(-1, -1))?;
        let mut closed = Mat::default();
        imgproc::morphology_ex(&opened, &mut closed, imgproc::MORPH_CLOSE, &k2, Point::new(-1, -1), 1, core::BORDER_CONSTANT, edge)?;
        let regions = self.regions(rect, &closed)?;
        if regions.is_empty() {
            self.quiet += 1;
            if self.quiet >= SETTLE_FRAMES {
                self.background = Some(view.try_clone()?);
            }
            self.previous.clear();
            return Ok(Vec::new());
        }
        self.quiet = 0;
        if self.absorb_if_still(view, &closed)? {
            self.previous.clear();
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let mut now = Vec::new();
        for r in regions {
            let id = self.follow(&r.mask)?;
            now.push((id, r.mask.try_clone()?));
            out.push(self.describe(rect, id, &r)?);
        }
        self.previous = now;
        Ok(out)
    }

    /// Takes a region that has not moved for a while into the settled view.
    fn absorb_if_still(&mut self, view: &Mat, mask: &Mat) -> Result<bool, VisionError> {
        let moving = match &self.last_view {
            Some(last) => {
                let mut d = Mat::default();
                core::absdiff(view, last, &mut d)?;
                let mean = core::mean(&d, mask)?;
                (mean[0] + mean[1] + mean[2]) / 3.0 > STILL_LEVEL
            }
            None => true,
        };
        self.last_view = Some(view.try_clone()?);
        self.still = if moving { 0 } else { self.still + 1 };
        if self.still < STILL_FRAMES {
            return Ok(false);
        }
        self.still = 0;
        if let Some(bg) = self.background.as_mut() {
            view.copy_to_masked(bg, mask)?;
        }
        Ok(true)
    }

    /// Connected parts of the change that touch the edge of the view and are big enough to be
    /// an arm.
    fn regions(&self, rect: &Rectifier, mask: &Mat) -> Result<Vec<Region>, VisionError> {
        let mut labels = Mat::default();
        let mut stats = Mat::default();
        let mut centroids = Mat::default();
        let n = imgproc::connected_components_with_stats(mask, &mut labels, &mut stats, &mut centroids, 8, core::CV_32S)?;
        let (w, h) = (labels.cols(), labels.rows());
        let min_area = rect.px * rect.px / 2;
        let data = labels.data_typed::<i32>()?;
        let mut out = Vec::new();
        for label in 1..n {
            let area = *stats.at_2d::<i32>(label, imgproc::CC_STAT_AREA)?;
            if area < min_area {
                continue;
            }
            // Where it crosses the edge of the view: the arm's way in.
            let (mut sx, mut sy, mut count) = (0.0, 0.0, 0.0);
            for (x, y) in border(w, h) {
                if data[(y * w + x) as usize] == label {
                    sx += x as f64;
                    sy += y as f64;
                    count += 1.0;
                }
            }
            if count == 0.0 {
                continue;
            }
            let entry = [sx / count, sy / count];
            let mut far = entry;
            let mut best = -1.0;
            let mut region = Mat::new_rows_cols_with_default(h, w, core::CV_8UC1, Scalar::all(0.0))?;
            let bytes = region.data_bytes_mut()?;
            for y in 0..h {
                for x in 0..w {
                    let i = (y * w + x) as usize;
                    if data[i] == label {
                        bytes[i] = 255;
                        let d = (x as f64 - entry[0]).powi(2) + (y as f64 - entry[1]).powi(2);
                        if d > best {
                            best = d;
                            far = [x as f64, y as f64];
                        }
                    }
                }
            }
            out.push(Region { mask: region, entry, far });
        }
        Ok(out)
    }

    /// The id of the last frame's region this one overlaps most, or a new one.
    fn follow(&mut self, mask: &Mat) -> Result<u32, VisionError> {
        let mut best = (0, None);
        for (id, prev) in &self.previous {
            let mut both = Mat::default();
            core::bitwise_and(mask, prev, &mut both, &core::no_array())?;
            let overlap = core::count_non_zero(&both)?;
            if overlap > best.0 {
                best = (overlap, Some(*id));
            }
        }
        Ok(match best.1 {
            Some(id) => id,
            None => {
                self.next_id += 1;
                self.next_id - 1
            }
        })
    }

    fn describe(&self, rect: &Rectifier, id: u32, r: &Region) -> Result<HandObs, VisionError> {
        let size = rect.size();
        // From the bottom half of the view an arm is White's (White sits at the bottom here).
        let side = if r.entry[1] > size.height as f64 / 2.0 { Side::White } else { Side::Black };
        let mut covers = Vec::new();
        for sq in Square::ALL {
            let cell = rect.cell(sq);
            let roi = Mat::roi(&r.mask, cell)?;
            if core::count_non_zero(&roi)? * 4 > cell.width * cell.height {
                covers.push(sq);
            }
        }
        let far = rect.to_image(r.far[0], r.far[1]);
        // The outline: the region's hull, in camera pixels.
        let mut contours = core::Vector::<core::Vector<Point>>::new();
        imgproc::find_contours(&r.mask, &mut contours, imgproc::RETR_EXTERNAL, imgproc::CHAIN_APPROX_SIMPLE, Point::new(0, 0))?;
        let mut polygon = Vec::new();
        if let Some(biggest) = contours.iter().max_by_key(|c| c.len()) {
            let mut hull = core::Vector::<Point>::new();
            imgproc::convex_hull(&biggest, &mut hull, false, true)?;
            polygon = hull.iter().map(|p| {
                let q = rect.to_image(p.x as f64, p.y as f64);
                [q[0] as f32, q[1] as f32]
            }).collect();
        }
        Ok(HandObs {
            id,
            side: Some(side),
            polygon,
            extremity: [far[0] as f32, far[1] as f32],
            extremity_square: rect.square_at(r.far[0], r.far[1]),
            covers,
            extremity_board: Some(rect.board_coords(r.far[0], r.far[1])),
        })
    }
}
