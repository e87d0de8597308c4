//! Threads and channels from a source to the outputs: [`replay`] reads a recording as fast as
//! the CPU allows and drops nothing; [`live`] follows a camera or a stream at its own pace,
//! drops the oldest frame when vision falls behind, and serves the game as it is made. Both
//! judge through a [`session::Session`], which logs every event and decision as it happens.

pub mod capture;
pub mod cpu;
pub mod journal;
pub mod live;
pub mod replay;
pub mod session;

pub use replay::{ReplayJob, Summary, decode_only, replay};

use crate::source::Frame;
use crate::tracker::Tracker;
use crate::types::{Event, EventKind};
use crate::vision::frame::{Prepared, Vision, view_change};

/// Frames at the start of an input are compared with their successor for this long, at most.
const OPENING_SECS: f64 = 1.0;
/// More than this share of the picture changing between two neighbouring frames is the view
/// itself changing (exposure, white balance, a title fading), not noise.
const UNSETTLED: f64 = 0.1;

/// The first frame of a recording or a camera is not always the scene: a camera's exposure and
/// white balance still settling, a title or a fade over the picture. Vision learns the board's
/// look from the first frame, so it is taken only once its successor agrees with it (within the
/// first second; after that the frame held is taken as it is). Skipped frames come before the
/// game starts: nothing in them is lost.
#[derive(Default)]
struct Opening {
    held: Option<Frame>,
    /// The time of the first frame offered.
    since: Option<f64>,
}

impl Opening {
    /// Takes the next frame; once the view has settled, the frame to start vision on, followed
    /// by the one that agreed with it (both to be seen).
    fn offer(&mut self, frame: Frame) -> anyhow::Result<Option<[Frame; 2]>> {
        let since = *self.since.get_or_insert(frame.t);
        let Some(held) = self.held.take() else {
            self.held = Some(frame);
            return Ok(None);
        };
        if frame.t - since >= OPENING_SECS || view_change(&held.image, &frame.image)? <= UNSETTLED {
            return Ok(Some([held, frame]));
        }
        self.held = Some(frame);
        Ok(None)
    }

    /// The frame still held when the input ends (an input of a single frame).
    fn rest(&mut self) -> Option<Frame> {
        self.held.take()
    }

    /// Starts over (the board was not found in the frame it gave).
    fn reset(&mut self) {
        *self = Opening::default();
    }
}

/// Finishes setting vision up on the first frame: watches the clock whose buttons the
/// calibration gives, if it does, then says what could not be set up.
fn set_up(vision: &mut Vision, first: &opencv::core::Mat, clock: Option<crate::vision::clock::ClockButtons>, input: &crate::source::SourceSpec) -> anyhow::Result<()> {
    use anyhow::Context;
    if let Some(buttons) = clock {
        vision.place_clock(first, buttons).with_context(|| format!("{input}: the clock given by --calibration"))?;
    }
    warn_if_unlearned(vision, input);
    Ok(())
}

/// Says what vision could not set up from the first frame: the board's look (learned from the
/// start position), the pieces' names, the clock.
fn warn_if_unlearned(vision: &Vision, input: &crate::source::SourceSpec) {
    if !vision.learned {
        eprintln!("touchmove: {input}: the start position is too sparse to learn this board's look from; squares are read with typical looks, less surely");
    }
    if let Some(why) = vision.pieces_unavailable() {
        eprintln!("touchmove: {why}; a promoted piece is recorded as a queen");
    }
    if vision.clock_beside().is_none() {
        eprintln!("touchmove: {input}: no clock seen beside the board; its presses are not read, so no breach at the clock (7.5) can be seen");
    }
}

/// After a move the rules decided, the tracker takes the game's names for the pieces it sees
/// ([`Tracker::agree`]).
fn heed(published: &[session::Published], session: &session::Session, tracker: &mut Tracker) {
    if published.iter().any(|p| matches!(p.decision.kind, crate::types::DecisionKind::Move { .. })) {
        tracker.agree(shakmaty::Position::board(session.position()));
    }
}

/// One frame through vision and the tracker: the events it reveals. A board snapshot carries
/// where White sits and the board's orientation as vision found them (7.2.2, 7.3).
fn see(vision: &mut Vision, tracker: &mut Tracker, frame: &Frame) -> anyhow::Result<Vec<Event>> {
    see_prepared(vision, tracker, frame, None)
}

/// [`see`], from what a [`Preparer`](crate::vision::frame::Preparer) of this vision took of the
/// frame where one did.
fn see_prepared(vision: &mut Vision, tracker: &mut Tracker, frame: &Frame, prepared: Option<Prepared>) -> anyhow::Result<Vec<Event>> {
    let obs = match prepared {
        Some(p) => vision.observe_prepared(p, &frame.image)?,
        None => vision.observe(frame.index, frame.t, &frame.image)?,
    };
    let mut events = tracker.observe(&obs);
    for e in &mut events {
        if let EventKind::Board { white, h1_light, .. } = &mut e.kind {
            if white.is_none() {
                *white = Some(vision.geometry.white);
                *h1_light = Some(vision.geometry.h1_light);
            }
        }
    }
    Ok(events)
}

/// How long the last picture of a recording is held once it ends.
const HELD_AT_END_SECS: f64 = 1.0;

/// The end of a recording: its last picture is seen again for [`HELD_AT_END_SECS`], as if the
/// scene stood still after it, so that what the last frames began to show is read. An arm lost
/// from view is held by vision for a few frames where it was last seen, hiding the squares
/// under it, and a change is taken only once it has lasted: `knightvision/sample_clip_3s.mp4`
/// halved in size ends 0.2 s after the arm that set down 1... e5 left, and e5 was never read.
/// What this shows is dated by the last frame, the last evidence there is. `step` is the time
/// between frames.
fn hold_last(vision: &mut Vision, tracker: &mut Tracker, last: &Frame, step: f64) -> anyhow::Result<Vec<Event>> {
    let step = if step.is_finite() && step > 0.0 { step } else { 1.0 / 30.0 };
    let mut events = Vec::new();
    // One copy of the picture, its index and time moved on frame by frame.
    let mut held = Frame { index: last.index, t: last.t, image: last.image.clone() };
    for k in 1..=(HELD_AT_END_SECS / step).ceil() as u64 {
        (held.index, held.t) = (last.index + k, last.t + k as f64 * step);
        events.extend(see(vision, tracker, &held)?);
    }
    // Times from the held frames (or a frame before them, as the tracker dates a settled
    // board) are the last frame's; earlier ones, of acts the held frames only completed, stand.
    // (Rounded to the microsecond, as the tracker writes times.)
    let at = (last.t * 1e6).round() / 1e6;
    for e in events.iter_mut().filter(|e| e.t > last.t - step / 2.0) {
        e.t = at;
        e.frame = e.frame.map(|f| f.min(last.index));
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Mat, Rect, Scalar};
    use opencv::prelude::*;

    fn frame(index: u64, t: f64, overlay: bool) -> Frame {
        let mut image = Mat::new_rows_cols_with_default(120, 160, opencv::core::CV_8UC3, Scalar::all(90.0)).unwrap();
        if overlay {
            Mat::roi_mut(&mut image, Rect::new(0, 0, 160, 40)).unwrap().set_to(&Scalar::new(200.0, 150.0, 120.0, 0.0), &opencv::core::no_array()).unwrap();
        }
        Frame { index, t, image }
    }

    #[test]
    fn a_first_frame_unlike_the_next_is_not_started_from() {
        let mut opening = Opening::default();
        assert!(opening.offer(frame(0, 0.0, true)).unwrap().is_none());
        // The title is gone in frame 1: frame 0 is dropped and frame 1 held.
        assert!(opening.offer(frame(1, 0.04, false)).unwrap().is_none());
        let [start, then] = opening.offer(frame(2, 0.08, false)).unwrap().expect("settled");
        assert_eq!((start.index, then.index), (1, 2));
    }

    #[test]
    fn a_view_that_never_settles_is_taken_after_a_second() {
        let mut opening = Opening::default();
        let mut started = None;
        for i in 0..40u64 {
            if let Some([start, then]) = opening.offer(frame(i, i as f64 * 0.04, i % 2 == 0)).unwrap() {
                started = Some((start.index, then.index));
                break;
            }
        }
        assert_eq!(started, Some((24, 25)), "the frame held when a second has gone by");
    }

    #[test]
    fn stills_a_second_apart_start_at_once_and_a_single_frame_is_kept() {
        let mut opening = Opening::default();
        assert!(opening.offer(frame(0, 0.0, false)).unwrap().is_none());
        let [start, then] = opening.offer(frame(1, 1.0, true)).unwrap().expect("a still a second later");
        assert_eq!((start.index, then.index), (0, 1));

        let mut one = Opening::default();
        assert!(one.offer(frame(0, 0.0, true)).unwrap().is_none());
        assert_eq!(one.rest().map(|f| f.index), Some(0));
        one.offer(frame(5, 3.0, true)).unwrap();
        one.reset();
        assert!(one.rest().is_none());
    }
}
