//! The ends of the pipeline that people and other tools read: the PGN game record, the JSONL
//! logs, written as things happen, and the live server.

pub mod jsonl;
pub mod pgn;
pub mod serve;
