//! Hands and arms over the board. A hand is what is not the board and reaches in from outside
//! it: the difference between the frame and the settled view of the board, kept where it
//! touches the edge of the view (arms come from the players), so a moved piece — a change
//! inside the board — is never a hand. The settled view is renewed region by region: a change
//! inside the board that stays still (a piece set down, a square left empty) joins it within a
//! few frames, while anything joined to the edge must stay still for seconds, and the light is
//! followed only far from anything new, so a slowly creeping arm never seeps into it. What the
//! camera does to the whole view (exposure, white balance) is applied to the settled view at
//! once, and a shadow, however deep, is told from an arm by the board's pattern still showing
//! through it. Skin colour plays no part, so sleeves, gloves and any skin tone are hands alike.
//! A hand the colour of the light squares shows only over the dark ones, as patches cut off from
//! its arm; the faint difference it still makes over the light squares joins them to it (see
//! `parts`). Regions are followed from frame to frame by overlap, so two arms stay two and keep
//! their ids (two of one player's joined at their hands are cut apart again: `two_arms`); an
//! arm lost for a few frames keeps its id and, briefly, its place. The fingertips are
//! the region's far end over the board from where it enters (of its part that stirred lately:
//! not a piece just set down, still joined to it), across the reach the middle of the fingers'
//! ends, put back over the square they hover above with the camera's pose (they hold at a
//! piece's height, not on the board). The stub an arm leaves when its hand goes unseen has none.

use opencv::core::{self, Mat, Point, Rect, Scalar, Size};
use opencv::imgproc;
use opencv::prelude::*;
use shakmaty::Square;

use super::VisionError;
use super::geometry::Pose;
use super::rectify::Rectifier;
use crate::types::{EXTREMITY_HEIGHT, HandObs};

mod edges;
mod far_end;
mod parts;
mod settle;
mod two_arms;
mod view;
mod ways_in;
use edges::{components, entries, heads_out, nearest_side, player_of, reach_in, side_of, ways_in_band};
use parts::arm_parts;
use view::{box3, changed, follow_exposure, gain, unshade};
use ways_in::unseen_ways_in;

/// Frame-to-frame change (any channel) that counts as motion at a pixel.
const MOTION_LEVEL: u8 = 16;
/// Frames a pixel must have held still to be taken back into the settled view as it was (see
/// [`HandDetector::uncover`]).
const UNCOVER_CALM: u16 = 2;
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
/// How high fingertips hold above the board, in squares: at a piece's head or where they grasp
/// it (a pawn stands about 0.9 squares tall, a king 1.7); which piece, the tracker knows.
const TIP_HEIGHT: f64 = EXTREMITY_HEIGHT as f64;
/// How far the far end of a hand's silhouette lies beyond the point it holds or touches, in
/// squares along its reach (measured on rendered hands: 0.1–0.3).
const TIP_OVERSHOOT: f32 = 0.2;
/// Frames a part of an arm's region must have stayed still, while at least half a square of the
/// rest of it stirred since, to be left out where its fingertips are sought: it is a piece the
/// hand just set down, which stays joined to the hand until the hand has gone (castling: the
/// king on g1 while the fingers close on the rook on h1, read as g1). A hand stirs all over
/// while it holds a piece, but not for long (rendered scenes, `tests/hands.rs`: with 8 frames 7
/// of 94 touches read on the wrong square; with 4 or 10 frames 8; with nothing left out 12; with
/// 6 frames also 7, but `make demo`'s knight, grasped and held still on g1, was read short of
/// it, and the move lost the touch that tied it to the hand).
const LEFT_STILL_FRAMES: u16 = 8;
/// The most a pixel may differ from the settled view and still be followed as light drifting:
/// light changes slowly and is followed as it goes, while a hand the colour of the squares
/// differs by more than this without counting as new, and must not seep in.
const DRIFT_LEVEL: u8 = 10;
/// Frames an arm that vanished is remembered, so that it keeps its id if it shows again.
const REMEMBER_FRAMES: u32 = 12;
/// How near, in squares, an arm must come in to where one came in a frame before to be taken
/// for it where their outlines do not overlap (a hand sliding fast along the board's edge)...
const NEAR_ENTRY: f64 = 1.5;
/// ...and how much further for each frame since that one was seen: a hand slides about half a
/// square a frame.
const LOST_DRIFT: f64 = 0.5;
/// Frames an arm that vanished is still reported where it was last seen.
const HOLD_FRAMES: u32 = 6;
/// An arm whose far end falls back more than this many squares towards where it came in, from
/// one frame to the next, to within [`HOLD_REACH`] of it, may have lost its hand rather than
/// withdrawn it: what is left is the arm's stub at the board's edge, and its far end no
/// fingertips (rendered game 375 at 40 plies: the hand over b4 went unseen for fifteen frames,
/// and the stub's end, still on c1, was taken for a touch of the bishop there). It gives none
/// until it stirs more than [`STUB_STIR`] squares from where it fell back to. A hand withdrawn
/// as fast goes on withdrawing and soon gives fingertips again (rendered scenes,
/// `tests/hands.rs`: 32 of 3,962 frames' fingertips lost, no touch). Further in, a real hand
/// jumps back that far to grasp the next piece (`scholarsMate2019-11-18.avi`, one player moving
/// for both sides: the hand back from f7 to the queen on h5 in one frame, 3.2 squares in, and
/// held still there, lost the grasp, and 4. Qxf7# with it).
const LOST_RETREAT: f32 = 1.0;
const STUB_STIR: f32 = 0.3;
/// An arm seen last within this many squares of where it came in (about a square over the
/// board, from the margin where arms enter), having reached at least [`WITHDRAWN_BY`] further
/// before, was withdrawing: it is not held.
const HOLD_REACH: f32 = 1.75;
const WITHDRAWN_BY: f32 = 1.0;
/// A change that runs off the view only beyond the picture's edge (where the board fills the
/// picture) and of which the picture shows no more than this many squares settles as a piece
/// set down inside the board does: it is the square a first-rank piece left, its head cut by
/// the picture's edge, or a piece set down on an edge square leaning out of it, and arms
/// passing over it every few moves kept it from the long stillness an arm's needs
/// (scholarsMate2019-11-18.avi: ghost arms on d1 and f1 for the rest of the game, and on d1 and
/// h5 after 2. Qh5 until Black's arm came in). Fingers alone, the arm beyond the picture, are
/// as small, but do not hold still that long while they hover. Where the margin is in the
/// picture, a change this small running off the view is a hand resting at the table's edge,
/// and waits as an arm does.
const GHOST_SQUARES: f64 = 1.5;
/// The height, in squares, of a piece whose head a low camera sees beyond the view's edge: a
/// king with its cross. Where such heads lean out of the view (the edge furthest from a camera
/// low and aslant), a change as small as a ghost running off the view there is as often the
/// square such a piece left as an arm (rendered games 225 and 230 at 40 plies: a castling and
/// a queen leaving d8 on the far edge, each held as an arm for three seconds, hid the move);
/// it settles after the short stillness a change in the margin needs, not an arm's.
const HEAD_SQUARES: f64 = 2.0;
/// A hand seen a frame before that comes in through the margin and reaches more than this many
/// squares into the board from its edge is a hand at rest, however still it holds and however
/// little of its arm shows: the print a piece left on an edge square, the change it is
/// otherwise taken for, reaches in no further than that square (what of the piece's image
/// leant out of it leans over the margin), and a castling's lies along the edge.
const RESTING_HAND_SQUARES: f64 = 1.5;
/// A region larger than this many squares is no arm reaching in, whatever its shape: an arm
/// stretched across the board covers a strip of three squares by eight at most, while a sleeve
/// or a body between camera and board can hide all of it.
const PASSING_SQUARES: f64 = 40.0;
/// How wide, in squares, a region must run off the view on each of two opposite sides to be
/// something passing across the view rather than an arm reaching in.
const ACROSS_WIDTH: f64 = 1.5;
/// Frames a change that reaches into the margin, but not off the view, must stay still
/// before it is settled.
const BAND_SETTLE_FRAMES: u16 = 15;
/// An arm runs off the view at least 1/WRIST_FRACTION of a square wide.
const WRIST_FRACTION: i32 = 2;

pub struct HandDetector {
    /// The settled view: the board and the table as they stand with no arm over them.
    background: Option<Mat>,
    /// The last frame, smoothed against noise, for motion.
    last_smooth: Option<Mat>,
    /// Per pixel: frames since it last moved.
    calm: Vec<u16>,
    /// Arms seen lately, for following them by overlap or by where they came in.
    previous: Vec<Seen>,
    next_id: u32,
    pose: Option<Pose>,
    /// The squares under arms that withdrew over the board's edge in the last few frames.
    fading: Vec<Square>,
    /// Which pixels of the view the picture covers (255), where known; see
    /// [`set_picture`](Self::set_picture).
    picture: Option<Mat>,
    /// Per side of the view (Black's edge, White's, the a-file's, the h-file's), whether the
    /// heads of tall pieces on the edge squares there lean out of it (see [`HEAD_SQUARES`]).
    heads_out: [bool; 4],
    /// Per pixel, the settled view as it stood before the last change there settled into it
    /// (see [`settle`](Self::settle)), while that may still be undone; see
    /// [`uncover`](Self::uncover).
    before: Option<Mat>,
    before_kept: Vec<bool>,
    /// Where two arms of one player were seen apart lately (see `two_arms`).
    apart: two_arms::Apart,
}


/// An arm seen lately, for following it.
struct Seen {
    id: u32,
    mask: Mat,
    entry: [f64; 2],
    /// Where it came in over the last frames it was seen (see [`two_arms::Ways`]).
    ways: two_arms::Ways,
    /// Frames since it was last seen.
    age: u32,
    /// What was reported of it then.
    last: HandObs,
    /// The furthest it has reached over the board, in squares from where it came in.
    furthest: f32,
    /// See [`settle::Settled::arm_age`].
    arm_age: Option<u32>,
    /// How far in, in squares from where it came in, its own part reached then (without the
    /// patches of its hand joined to it: see [`HandDetector::hand_fragments`]).
    own_reach: Option<f32>,
    /// Whether it was ever seen running off the view as an arm does (an
    /// [`arm_age`](settle::Settled::arm_age)): an arm that never was (the table's colour) may
    /// rest with only its hand seen; one that was, and no longer does, has withdrawn.
    ran_off: bool,
    /// Frames since it was last seen passing across the view (`u32::MAX`: never).
    since_across: u32,
    /// Where its far end fell back to, at the board's edge, when it fell back further in one
    /// frame than [`LOST_RETREAT`], while it has not stirred from there: its stub.
    stub: Option<[f32; 2]>,
}

/// How far an arm reaches over the board, in squares from where it came in.
fn reach(rect: &Rectifier, entry: [f64; 2], obs: &HandObs) -> f32 {
    let from = rect.board_coords(entry[0], entry[1]);
    obs.extremity_board.map_or(0.0, |b| (b[0] - from[0]).hypot(b[1] - from[1]))
}

/// What is seen of an arm, its fingertips left untold.
fn without_fingertips(obs: &HandObs) -> HandObs {
    HandObs { extremity_square: None, extremity_board: None, extremity_lean: None, ..obs.clone() }
}

/// A region found in one frame, before ids are given.
struct Region {
    label: i32,
    mask: Mat,
    entry: [f64; 2],
    far: [f64; 2],
    /// It runs off the view on two opposite sides, or is larger than an arm (a sleeve or a
    /// body passing between camera and board, not an arm reaching in), or something else in
    /// view is: it hides squares but no fingertips are told.
    across: bool,
}

impl Default for HandDetector {
    fn default() -> Self {
        HandDetector { background: None, last_smooth: None, calm: Vec::new(), previous: Vec::new(), next_id: 0, pose: None, fading: Vec::new(), picture: None, heads_out: [false; 4], before: None, before_kept: Vec::new(), apart: two_arms::Apart::default() }
    }
}

/// Whether at least half of `mask` lies on `on` (none where there is no `on`).
fn mostly_on(mask: &Mat, on: &Option<Mat>) -> Result<bool, VisionError> {
    let Some(on) = on else { return Ok(false) };
    let mut both = Mat::default();
    core::bitwise_and(mask, on, &mut both, &core::no_array())?;
    Ok(2 * core::count_non_zero(&both)? >= core::count_non_zero(mask)?)
}

/// All of `masks` in one (`None` when there are none).
fn union<'a>(masks: impl Iterator<Item = &'a Mat>) -> Result<Option<Mat>, VisionError> {
    let mut all: Option<Mat> = None;
    for m in masks {
        all = Some(match all {
            None => m.try_clone()?,
            Some(a) => {
                let mut both = Mat::default();
                core::bitwise_or(&a, m, &mut both, &core::no_array())?;
                both
            }
        });
    }
    Ok(all)
}

/// Whether two pixels' levels are within `level` of each other in every channel (without
/// branches on them, which noise makes unpredictable, so that loops over pixels vectorise).
#[inline(always)]
fn alike(a: &[u8], b: &[u8], level: u8) -> bool {
    (a[0].abs_diff(b[0]) <= level) & (a[1].abs_diff(b[1]) <= level) & (a[2].abs_diff(b[2]) <= level)
}

/// The pixels of the regions settled into the view this frame (`None` when none was).
fn settled_mask(labels: &Mat, settled: &[bool]) -> Result<Option<Mat>, VisionError> {
    if !settled.iter().any(|&s| s) {
        return Ok(None);
    }
    let mut m = Mat::new_rows_cols_with_default(labels.rows(), labels.cols(), core::CV_8UC1, Scalar::all(0.0))?;
    let out = m.data_bytes_mut()?;
    for (o, &l) in out.iter_mut().zip(labels.data_typed::<i32>()?) {
        if settled[l as usize] {
            *o = 255;
        }
    }
    Ok(Some(m))
}


impl HandDetector {
    pub fn new() -> HandDetector {
        HandDetector::default()
    }

    /// With the camera's pose, fingertips are placed over the square they hover above rather
    /// than the one their image falls on (on an oblique view, a square or more further on).
    pub fn with_pose(pose: Option<Pose>) -> HandDetector {
        HandDetector { pose, ..HandDetector::default() }
    }

    /// Tells which pixels of the view the camera's picture covers (see
    /// [`Rectifier::within_picture`]): where the board fills the picture, a first-rank piece's
    /// head is cut by its edge, and the square it leaves runs off the view as an arm does.
    pub fn set_picture(&mut self, within: Mat) {
        self.picture = Some(within);
    }

    /// The hands in a rectified frame (White at the bottom), with the squares they cover.
    pub fn detect(&mut self, rect: &Rectifier, view: &Mat) -> Result<Vec<HandObs>, VisionError> {
        let Some(background) = &mut self.background else {
            // Not where the view reaches beyond the picture (footage cropped to the board, whose
            // camera the pose only guesses): there the ghost rule above holds.
            let whole = match &self.picture {
                Some(m) => core::count_non_zero(m)? == m.rows() * m.cols(),
                None => true,
            };
            if let (Some(pose), true) = (self.pose, whole) {
                self.heads_out = heads_out(&pose, rect);
            }
            self.background = Some(view.try_clone()?);
            self.calm = vec![0; (view.rows() * view.cols()) as usize];
            self.before = Some(view.try_clone()?);
            self.before_kept = vec![false; self.calm.len()];
            return Ok(Vec::new());
        };
        follow_exposure(view, background)?;
        self.uncover(view)?;
        let background = self.background.as_ref().expect("set above");
        let mask = changed(view, background)?;
        let k = imgproc::get_structuring_element(imgproc::MORPH_ELLIPSE, Size::new(5, 5), Point::new(-1, -1))?;
        let mut opened = Mat::default();
        // The default border value keeps a region that runs off the view touching its edge.
        let edge = imgproc::morphology_default_border_value()?;
        imgproc::morphology_ex(&mask, &mut opened, imgproc::MORPH_OPEN, &k, Point::new(-1, -1), 1, core::BORDER_CONSTANT, edge)?;
        // Nothing new but noise (the board at rest, most frames of a game): closed, still nothing.
        let mut closed = if core::count_non_zero(&opened)? == 0 {
            opened
        } else {
            let k2 = imgproc::get_structuring_element(imgproc::MORPH_ELLIPSE, Size::new(11, 11), Point::new(-1, -1))?;
            let mut closed = Mat::default();
            imgproc::morphology_ex(&opened, &mut closed, imgproc::MORPH_CLOSE, &k2, Point::new(-1, -1), 1, core::BORDER_CONSTANT, edge)?;
            closed
        };
        // After closing, which would bridge the gaps the board's pattern cuts in a shadow.
        unshade(view, background, &mut closed)?;
        self.note_motion(view)?;
        let (n, mut labels, mut stats) = components(&closed)?;
        let (n, cut) = self.apart.split(&mut labels, &mut stats, n, ways_in_band(rect), rect.px)?;
        let area = (0..n).map(|l| stats.at_2d::<i32>(l as i32, imgproc::CC_STAT_AREA).map(|a| *a as u32)).collect::<Result<Vec<u32>, _>>()?;
        let (w, h) = (labels.cols(), labels.rows());
        let came_in: Vec<usize> = self.previous.iter().filter(|p| p.age == 0).map(|p| nearest_side(p.entry, w, h)).collect();
        let mut entries = entries(rect, &labels, n, &came_in)?;
        self.keep_ways_in(&labels, &stats, &area, &mut entries, rect.px)?;
        let settle::Lately { arm_age: lately, was_hand, ran_off } = self.arms_lately(&labels, &area)?;
        let stirred = self.stirred(&labels, n)?;
        unseen_ways_in(rect, &labels, &area, &stirred, &was_hand, &mut entries)?;
        // A hand at rest, its arm unseen (the table's colour): seen as a hand a frame before and
        // reaching further in than a print does (rendered game 300: White's hand resting on
        // e3, the arm's colour the table's, was taken for a print after eight frames' stillness
        // and settled into the view; the squares under it, read through it, were taken as moved).
        let by_edge: Vec<bool> = was_hand.iter().zip(&entries).map(|(&was, e)| was && e.is_some()).collect();
        let depth = reach_in(&labels, &stats, &by_edge, rect.board_rect())?;
        let resting_hand: Vec<bool> = by_edge.iter().zip(&depth).map(|(&was, &d)| was && f64::from(d) > RESTING_HAND_SQUARES * f64::from(rect.px)).collect();
        let settled = self.settle(view, &closed, &labels, &entries, &area, (lately, &ran_off, &resting_hand, &stirred), rect.px)?;
        let scenery = settled_mask(&labels, &settled.ghosts)?;
        let prints = settled_mask(&labels, &settled.resting)?;
        let mut owner = arm_parts(&labels, &entries, &settled, rect.board_rect(), rect.px)?;
        let own_reach = self.hand_fragments(view, &labels, &entries, &settled, &area, &mut owner, rect)?;
        // A print at rest is no arm, though it has not settled yet.
        let quiet: Vec<bool> = settled.settled.iter().zip(&settled.resting).map(|(a, b)| *a || *b).collect();
        let mut regions = self.regions(rect, &labels, &entries, &area, &quiet, &owner, &settled.reaching)?;
        // While something passes across the view, what else changed with it is as likely its
        // fringe (blur, its shadow, pieces of it cut apart by the board's frame) as an arm:
        // no fingertips are reported at all (rendered game 100: a sleeve crossing the camera
        // was seen as arms with fingertips on h2 and b2, and two false touch-move breaches).
        let passing = regions.iter().any(|r| r.across);
        if passing {
            regions.iter_mut().for_each(|r| r.across = true);
        }
        let mut out = Vec::new();
        let mut now = Vec::new();
        let ids = self.follow_all(&regions, &cut, rect)?;
        for (r, id) in regions.into_iter().zip(ids) {
            let obs = self.describe(rect, id, &r)?;
            let before = self.previous.iter().find(|p| p.id == id);
            let reached = reach(rect, r.entry, &obs);
            let furthest = reached.max(before.map_or(0.0, |p| p.furthest));
            let since_across = if r.across { 0 } else { before.map_or(u32::MAX, |p| p.since_across.saturating_add(p.age + 1)) };
            let stub = obs.extremity_board.and_then(|at| {
                let last = before.filter(|p| p.age == 0)?;
                let kept = last.stub.filter(|s| (s[0] - at[0]).hypot(s[1] - at[1]) <= STUB_STIR);
                let fell_back = reach(rect, last.entry, &last.last) - reached > LOST_RETREAT && reached < HOLD_REACH;
                kept.or(fell_back.then_some(at))
            });
            now.push(Seen { id, mask: r.mask.try_clone()?, entry: r.entry, ways: two_arms::Ways::after(before.map(|p| &p.ways), r.entry), age: 0, last: obs.clone(), furthest, arm_age: settled.arm_age[r.label as usize], ran_off: settled.arm_age[r.label as usize].is_some() || before.is_some_and(|p| p.ran_off), own_reach: own_reach[r.label as usize].map(|d| (d / f64::from(rect.px)) as f32), since_across, stub });
            out.push(if stub.is_some() { without_fingertips(&obs) } else { obs });
        }
        // An arm lost for a moment (blur, an arm the colour of the table) is still there: it is
        // reported where it was last seen for a few frames, then remembered a while longer so
        // that it keeps its id if it shows again. But an arm last seen back at the board's edge,
        // after reaching further in, was withdrawing, and is gone; only the squares it last
        // covered stay in doubt as long (a sleeve's blurred end may still hang over them).
        self.fading.clear();
        // The arms seen now, all in one mask: made only if an arm was lost (see below).
        let seen_now = now.len();
        let mut joined: Option<Option<Mat>> = None;
        for mut p in std::mem::take(&mut self.previous) {
            p.age += 1;
            if p.age <= REMEMBER_FRAMES && now.iter().all(|q| q.id != p.id) {
                // A ghost settled just now (a square a piece left at the picture's edge, seen as
                // an arm while the real one was near) is not an arm lost but one that never was:
                // held, it would hide its squares and go on counting as a hand. Nor is it
                // remembered, to lend its id to what comes in there next. (An arm at rest long
                // enough to settle is still held: it may stir again in a moment.)
                if mostly_on(&p.mask, &scenery)? {
                    continue;
                }
                // Nor is one whose place is now a print at rest (see [`settle::Settled::resting`]):
                // it was the print, the arm split off it and is about; remembered, its id goes
                // to the arm where it shows again.
                // Nor one that joined an arm seen now: it is not lost but part of that one
                // (rendered game 310: the queen's d8, a print seen for a frame as an arm, then
                // taken into the arm beside it, held on as a second arm for six frames).
                if p.age <= HOLD_FRAMES && joined.is_none() {
                    joined = Some(union(now[..seen_now].iter().map(|q| &q.mask))?);
                }
                if p.age <= HOLD_FRAMES && !mostly_on(&p.mask, &prints)? && !mostly_on(&p.mask, joined.as_ref().expect("made above"))? {
                    // By its own part: patches of its hand joined to it may be what it left behind
                    // (rendered game 220: the knight just set on f8, its fingertips read a
                    // square in, held three frames after it had gone).
                    let last = p.own_reach.map_or(reach(rect, p.entry, &p.last), |own| reach(rect, p.entry, &p.last).min(own));
                    let withdrawn = last < HOLD_REACH && p.furthest >= last + WITHDRAWN_BY;
                    if withdrawn {
                        self.fading.extend(p.last.covers.iter().copied());
                    } else if passing || p.since_across < HOLD_FRAMES || p.stub.is_some() {
                        // Lost into what passes across: its place held, its fingertips not. Nor
                        // those of what was seen for a moment as what passed across left the
                        // view (rendered game 100: a black sleeve across a low camera, its tail
                        // seen for a frame over b8, held there six frames, touched the knight),
                        // nor a stub's.
                        out.push(without_fingertips(&p.last));
                    } else {
                        out.push(p.last.clone());
                    }
                }
                now.push(p);
            }
        }
        self.previous = now;
        Ok(out)
    }

    /// Where the view shows again what the settled view held before a change settled into it,
    /// that change has gone: the settled view takes it back at once. A hand holding still long
    /// enough to settle (fingers on a piece at the far edge, where only they show: rendered game
    /// 330, Black's hand on f8) otherwise leaves, when it moves off, its own hole in the settled
    /// view, an arm-shaped change that waits seconds to settle and was seen as an arm frozen
    /// over the squares, holding back the move and the press.
    fn uncover(&mut self, view: &Mat) -> Result<(), VisionError> {
        let (Some(bg), Some(before)) = (self.background.as_mut(), self.before.as_ref()) else { return Ok(()) };
        let pixels = view.data_bytes()?.as_chunks::<3>().0.iter().zip(before.data_bytes()?.as_chunks::<3>().0).zip(bg.data_bytes_mut()?.as_chunks_mut::<3>().0);
        for (((now, then), settled), (kept, &calm)) in pixels.zip(self.before_kept.iter_mut().zip(&self.calm)) {
            if *kept && calm >= UNCOVER_CALM && alike(now, then, DRIFT_LEVEL) && !alike(now, settled, MOTION_LEVEL) {
                *settled = *now;
                *kept = false;
            }
        }
        Ok(())
    }

    /// The squares last covered by arms that withdrew over the board's edge a moment ago (see
    /// [`detect`](Self::detect)): not arms any more, but not yet to be read.
    pub fn fading(&self) -> &[Square] {
        &self.fading
    }

    /// Counts, per pixel, the frames since it last moved.
    fn note_motion(&mut self, view: &Mat) -> Result<(), VisionError> {
        let smooth = box3(view)?;
        let Some(last) = self.last_smooth.replace(smooth) else { return Ok(()) };
        let smooth = self.last_smooth.as_ref().expect("just set");
        // The camera changing its exposure moves no pixel: compared at the same exposure.
        let g = gain(smooth, &last)?;
        let now = smooth.data_bytes()?;
        let was = last.data_bytes()?;
        if g == [1.0; 3] {
            // The usual case, the same exposure: whole levels compare as they are (without
            // branches on them, which noise makes unpredictable).
            for ((c, a), b) in self.calm.iter_mut().zip(now.as_chunks::<3>().0).zip(was.as_chunks::<3>().0) {
                *c = u16::from(alike(a, b, MOTION_LEVEL)) * c.saturating_add(1);
            }
            return Ok(());
        }
        for (i, c) in self.calm.iter_mut().enumerate() {
            let moved = (0..3).any(|k| (now[3 * i + k] as f64 - was[3 * i + k] as f64 * g[k]).abs() > MOTION_LEVEL as f64);
            *c = if moved { 0 } else { c.saturating_add(1) };
        }
        Ok(())
    }

    /// Per region, the id of the remembered arm it overlaps most; else of one on the same side
    /// that no region overlaps and that came in near where this one does — the nearer, the
    /// sooner it was last seen (an arm lost while it slides along the board's edge comes back
    /// further along it; rendered game 405: the rook carried from a1 to d1 in O-O-O came back
    /// 1.6 squares on, as a new arm, and the tracker saw two hands make one move); else a new
    /// one.
    fn follow_all(&mut self, regions: &[Region], cut: &[i32], rect: &Rectifier) -> Result<Vec<u32>, VisionError> {
        let side = |e: [f64; 2]| side_of(e, rect);
        let px = rect.px as f64;
        let mut ids = Vec::with_capacity(regions.len());
        for r in regions {
            let mut best = (0, None);
            for p in self.previous.iter().filter(|p| p.age == 0 || side(p.entry) == side(r.entry)) {
                let mut both = Mat::default();
                core::bitwise_and(&r.mask, &p.mask, &mut both, &core::no_array())?;
                let overlap = core::count_non_zero(&both)?;
                if overlap > best.0 {
                    best = (overlap, Some(p.id));
                }
            }
            ids.push(best.1);
        }
        let entries: Vec<([f64; 2], bool)> = regions.iter().map(|r| (r.entry, cut.contains(&r.label))).collect();
        two_arms::keep_ids(&entries, &mut ids, |id| self.previous.iter().find(|p| p.id == id).map(|p| &p.ways));
        // An id goes to one region only.
        let mut taken: Vec<u32> = ids.iter().flatten().copied().collect();
        for (r, id) in regions.iter().zip(ids.iter_mut()).filter(|(_, id)| id.is_none()) {
            // Only from the same player's side: one player's arm leaving as the other's comes
            // in at a corner must not pass its id on.
            let near = self
                .previous
                .iter()
                .filter(|p| side(p.entry) == side(r.entry) && !taken.contains(&p.id))
                .map(|p| ((p.entry[0] - r.entry[0]).hypot(p.entry[1] - r.entry[1]), p))
                .filter(|(d, p)| *d < (NEAR_ENTRY + LOST_DRIFT * (p.age + 1) as f64) * px)
                .min_by(|a, b| a.0.total_cmp(&b.0));
            *id = near.map(|(_, p)| p.id);
            taken.extend(*id);
        }
        Ok(ids
            .into_iter()
            .map(|id| {
                id.unwrap_or_else(|| {
                    self.next_id += 1;
                    self.next_id - 1
                })
            })
            .collect())
    }

    fn describe(&self, rect: &Rectifier, id: u32, r: &Region) -> Result<HandObs, VisionError> {
        let size = rect.size();
        let side = player_of(r.entry, rect);
        // The arm's edges are blurred and parts of a hand the colour of the squares go unseen:
        // a square counts as covered when enough of the arm comes within a third of a square
        // of it (a box around the cell: a round kernel would cost more than the rest of vision).
        let (grow, full) = (rect.px / 3, Rect::new(0, 0, size.width, size.height));
        let mut covers = Vec::new();
        for sq in Square::ALL {
            let cell = rect.cell(sq);
            let around = Rect::new(cell.x - grow, cell.y - grow, cell.width + 2 * grow, cell.height + 2 * grow) & full;
            let roi = Mat::roi(&r.mask, around)?;
            if core::count_non_zero(&roi)? * COVER_FRACTION > cell.width * cell.height {
                covers.push(sq);
            }
        }
        let far = rect.to_image(r.far[0], r.far[1]);
        let mut board = match self.pose.and_then(|p| p.board_point(far, TIP_HEIGHT)) {
            Some(b) => [b[0] as f32, b[1] as f32],
            None => rect.board_coords(r.far[0], r.far[1]),
        };
        let lean = self.pose.and_then(|p| p.board_point(far, TIP_HEIGHT + 1.0)).map(|b| [b[0] as f32 - board[0], b[1] as f32 - board[1]]);
        // The silhouette's far end is the fingers curled past what they hold.
        let from = rect.board_coords(r.entry[0], r.entry[1]);
        let reach = [board[0] - from[0], board[1] - from[1]];
        let length = reach[0].hypot(reach[1]);
        if length > TIP_OVERSHOOT {
            board = [board[0] - reach[0] / length * TIP_OVERSHOOT, board[1] - reach[1] / length * TIP_OVERSHOOT];
        }
        let over = !r.across && (0.0..8.0).contains(&board[0]) && (0.0..8.0).contains(&board[1]);
        let tip_square = over.then(|| Square::from_coords(shakmaty::File::new(board[0] as u32), shakmaty::Rank::new(board[1] as u32)));
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
            side,
            polygon,
            extremity: [far[0] as f32, far[1] as f32],
            extremity_square: tip_square,
            covers,
            extremity_board: (!r.across).then_some(board),
            extremity_lean: lean.filter(|_| !r.across),
        })
    }
}
