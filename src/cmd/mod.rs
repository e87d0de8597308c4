//! One file per subcommand of the `touchmove` binary; `main.rs` only parses and dispatches.

pub mod bench;
pub mod board;
pub mod calibrate;
pub mod doctor;
pub mod live;
pub mod replay;
pub mod rules;
pub mod sim;
