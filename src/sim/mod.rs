//! Synthetic ground truth for tests and benches. [`events`] turns a game (or a game with a
//! staged breach) into the clean tracker event stream a perfect tracker would write, in the
//! ways real players move: taken piece removed before or after, promotion piece first or last.

pub mod breaches;
pub mod events;
pub mod pgn;
pub mod rng;
