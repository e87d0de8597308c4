//! Threads and channels from a source to the outputs: [`replay`] reads a recording as fast as
//! the CPU allows and drops nothing; [`live`] follows a camera or a stream at its own pace,
//! drops the oldest frame when vision falls behind, and serves the game as it is made. Both
//! judge through a [`session::Session`], which logs every event and decision as it happens.

pub mod capture;
pub mod journal;
pub mod live;
pub mod replay;
pub mod session;

pub use replay::{ReplayJob, Summary, decode_only, replay};

use crate::source::Frame;
use crate::tracker::Tracker;
use crate::types::{Event, EventKind};
use crate::vision::frame::Vision;

/// Says so when vision could not learn this board's look from the start position.
fn warn_if_unlearned(vision: &Vision, input: &crate::source::SourceSpec) {
    if !vision.learned {
        eprintln!("touchmove: {input}: the start position is too sparse to learn this board's look from; squares are read with typical looks, less surely");
    }
}

/// One frame through vision and the tracker: the events it reveals. A board snapshot carries
/// where White sits and the board's orientation as vision found them (7.2.2, 7.3).
fn see(vision: &mut Vision, tracker: &mut Tracker, frame: &Frame) -> anyhow::Result<Vec<Event>> {
    let obs = vision.observe(frame.index, frame.t, &frame.image)?;
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
