//! The ends of the pipeline that people and other tools read: the PGN game record and the JSONL
//! logs, written as things happen.

pub mod jsonl;
pub mod pgn;
