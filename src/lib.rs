//! touchmove: records over-the-board chess from an overhead camera and flags every breach of
//! the FIDE Laws on the act of moving (Article 4) and on irregularities (Article 7).
//!
//! The pipeline reads left to right, one folder a stage, each depending only on those before
//! it and on the shared [`types`]:
//! `source → vision → tracker → rules → output`.
//! [`sim`] renders scenes with exact ground truth for tests and benches.

pub mod cmd;
pub mod output;
pub mod pipeline;
pub mod rules;
pub mod sim;
pub mod source;
pub mod tracker;
pub mod types;
pub mod vision;
