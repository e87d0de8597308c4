//! One file per subcommand of the `touchmove` binary; `main.rs` only parses and dispatches.

pub mod board;
pub mod rules;
pub mod sim;
