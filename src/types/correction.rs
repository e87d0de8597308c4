//! An operator's correction of the live record (`POST` on the live server), and how it is
//! journalled: a game resumed from its logs replays them where they happened.

use serde::{Deserialize, Serialize};

use super::Side;

/// What the operator may do to the record. None of them branches it: the game stays one
/// main line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Correction {
    /// Take the last move back (the position before it is expected on the board).
    Undo,
    /// The position is this FEN: a position of the record takes the record back to it, one
    /// legal move from the current one records that move, anything else starts the record
    /// again from it.
    SetFen { fen: String },
    /// `side` said "j'adoube" (4.2.1): the next adjustment of his is no touch.
    Adjust { side: Side },
    /// The arbiter dismisses an alert (the violation leaves the PGN).
    Dismiss { alert: u64 },
    /// The arbiter confirms an alert.
    Confirm { alert: u64 },
}

/// A correction as the journal keeps it: after how many tracker events it was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journalled {
    pub after_events: u64,
    #[serde(flatten)]
    pub correction: Correction,
}
