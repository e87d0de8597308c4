//! Hands and arms over the board. A hand is what is not the board and reaches in from outside
//! it: the difference between the frame and the settled view of the board, kept where it
//! touches the edge of the view (arms come from the players), so a moved piece — a change
//! inside the board — is never a hand. The settled view is renewed region by region: a change
//! inside the board that stays still (a piece set down, a square left empty) joins it within a
//! few frames, while anything joined to the edge must stay still for seconds, and the light is
//! followed only far from anything new, so a slowly creeping arm never seeps into it. Skin colour plays no part, so sleeves, gloves and any
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
/// Frame-to-frame change (any channel) that counts as motion at a pixel.
const MOTION_LEVEL: u8 = 16;
/// Frames a change inside the board (a moved piece) must stay still before it is settled.
const SETTLE_FRAMES: u16 = 8;
/// Frames a change reaching in from the edge must stay perfectly still before it is taken as
/// part of the scene (a clock button left down, a shadow that stopped, a sleeve at rest on the
/// table edge): a hand at rest over the board still stirs within that time.
const STILL_FRAMES: u16 = 90;
/// A square counts as covered when more than 1/COVER_FRACTION of it lies under the arm: a
/// square partly hidden misreads, and the tracker would take the misreading for a move.
const COVER_FRACTION: i32 = 20;
/// A region is still when no more than 1/RESTLESS_FRACTION of its pixels moved.
const RESTLESS_FRACTION: u32 = 50;
/// How fast the settled view follows slow light changes where nothing new stands.
const DRIFT_RATE: f64 = 0.05;

pub struct HandDetector {
    /// The settled view: the board and the table as they stand with no arm over them.
    background: Option<Mat>,
    /// The last frame, smoothed against noise, for motion.
    last_smooth: Option<Mat>,
    /// Per pixel: frames since it last moved.
    calm: Vec<u16>,
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
        HandDetector { background: None, last_smooth: None, calm: Vec::new(), previous: Vec::new(), next_id: 0 }
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
            self.calm = vec![0; (view.rows() * view.cols()) as usize];
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
        self.note_motion(view)?;
        let (labels, n) = {
            let mut labels = Mat::default();
            let n = imgproc::connected_components(&closed, &mut labels, 8, core::CV_32S)?;
            (labels, n as usize)
        };
        let settle = self.settle(view, &closed, &labels, n)?;
        let regions = self.regions(rect, &labels, n, &settle)?;
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

    /// Counts, per pixel, the frames since it last moved.
    fn note_motion(&mut self, view: &Mat) -> Result<(), VisionError> {
        let mut smooth = Mat::default();
        imgproc::blur_def(view, &mut smooth, Size::new(3, 3))?;
        let Some(last) = self.last_smooth.replace(smooth) else { return Ok(()) };
        let now = self.last_smooth.as_ref().expect("just set").data_bytes()?;
        let was = last.data_bytes()?;
        for (i, c) in self.calm.iter_mut().enumerate() {
            let moved = (0..3).any(|k| now[3 * i + k].abs_diff(was[3 * i + k]) > MOTION_LEVEL);
            *c = if moved { 0 } else { c.saturating_add(1) };
        }
        Ok(())
    }

    /// Renews the settled view: where nothing new stands it follows the light slowly; a change
    /// that has stayed still long enough (a piece set down, a square a piece left) becomes part
    /// of it, at once if it lies inside the view, only after a long stillness if it reaches in
    /// from the edge, as arms do. Returns, per label, whether it was settled this frame.
    fn settle(&mut self, view: &Mat, mask: &Mat, labels: &Mat, n: usize) -> Result<Vec<bool>, VisionError> {
        let (w, h) = (labels.cols(), labels.rows());
        let data = labels.data_typed::<i32>()?;
        let mut at_edge = vec![false; n];
        for (x, y) in border(w, h) {
            at_edge[data[(y * w + x) as usize] as usize] = true;
        }
        // A region settles when hardly any of its pixels stirred lately (noise stirs a few).
        let (mut area, mut restless) = (vec![0u32; n], [vec![0u32; n], vec![0u32; n]]);
        for (i, &l) in data.iter().enumerate() {
            let l = l as usize;
            area[l] += 1;
            restless[0][l] += u32::from(self.calm[i] < SETTLE_FRAMES);
            restless[1][l] += u32::from(self.calm[i] < STILL_FRAMES);
        }
        let settled: Vec<bool> = (0..n).map(|l| l > 0 && restless[usize::from(at_edge[l])][l] * RESTLESS_FRACTION <= area[l]).collect();
        // Light is followed only well away from anything new: an arm creeping in would otherwise
        // seep into the settled view before it differs enough to be seen.
        let mut near = Mat::default();
        let k = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(21, 21), Point::new(-1, -1))?;
        imgproc::dilate(mask, &mut near, &k, Point::new(-1, -1), 1, core::BORDER_CONSTANT, imgproc::morphology_default_border_value()?)?;
        let bg = self.background.as_mut().expect("set on the first frame");
        let now = view.data_bytes()?;
        let (m, out) = (near.data_bytes()?, bg.data_bytes_mut()?);
        for (i, &l) in data.iter().enumerate() {
            let l = l as usize;
            if settled[l] {
                out[3 * i..3 * i + 3].copy_from_slice(&now[3 * i..3 * i + 3]);
            } else if m[i] == 0 && self.calm[i] >= SETTLE_FRAMES {
                for k in 0..3 {
                    let (a, b) = (now[3 * i + k] as f64, out[3 * i + k] as f64);
                    out[3 * i + k] = (b + (a - b) * DRIFT_RATE).round() as u8;
                }
            }
        }
        Ok(settled)
    }

    /// Connected parts of the change that touch the edge of the view, are big enough to be an
    /// arm and were not just settled.
    fn regions(&self, rect: &Rectifier, labels: &Mat, n: usize, settled: &[bool]) -> Result<Vec<Region>, VisionError> {
        let (w, h) = (labels.cols(), labels.rows());
        let min_area = (rect.px * rect.px / 2) as usize;
        let data = labels.data_typed::<i32>()?;
        let mut area = vec![0usize; n];
        for &l in data {
            area[l as usize] += 1;
        }
        let mut out = Vec::new();
        for label in 1..n as i32 {
            if area[label as usize] < min_area || settled[label as usize] {
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
            if core::count_non_zero(&roi)? * COVER_FRACTION > cell.width * cell.height {
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
