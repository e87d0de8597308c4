//! Threads and channels from a source to the outputs: [`replay`] reads a recording as fast as
//! the CPU allows and drops nothing; [`live`] follows a camera or a stream at its own pace,
//! drops the oldest frame when vision falls behind, and serves the game as it is made. Both
//! judge through a [`session::Session`], which logs every event and decision as it happens.

pub mod capture;
pub mod live;
pub mod replay;
pub mod session;

pub use replay::{ReplayJob, Summary, decode_only, replay};
