//! A square vision could not read while no arm was on it or beside it (a shadow crossing the
//! board, the shade an arm leaves as it goes) was not hidden: what it shows next must last as
//! long as any change no hand was near, not the few frames a square an arm uncovered needs.

use super::testkit::{Reel, read_as, without};
use super::*;

/// White's arm lifts the e2 pawn and leaves the board with it, over the h-file when `over_h3`
/// (its fingertips on g1, h3 under its forearm); then, the arm gone, h3 reads unreadable for
/// five frames, as a piece of colour untold for eight, and empty again. Every board the tracker told.
fn shaded_h3(over_h3: bool) -> Vec<Placement> {
    let start = Board::default();
    let lifted = without(&start, &[Square::E2]);
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((Square::E2, &[Square::E2, Square::E1])));
    reel.run(10, &lifted, Some((Square::E2, &[Square::E2, Square::E1])));
    if over_h3 {
        reel.run(6, &lifted, Some((Square::G1, &[Square::G1, Square::H2, Square::H3])));
    }
    reel.run_seen(5, &lifted, None, |o| read_as(o, Square::H3, SquareState::Occluded));
    reel.run_seen(8, &lifted, None, |o| read_as(o, Square::H3, SquareState::Piece));
    reel.run(40, &lifted, None);
    let (_, events) = reel.finish();
    events.into_iter().filter_map(|e| if let EventKind::Board { placement, .. } = e.kind { Some(placement) } else { None }).collect()
}

fn h3_occupied(boards: &[Placement]) -> bool {
    boards.iter().any(|p| matches!(p.cell(Square::H3), crate::types::Cell::Piece(_)))
}

#[test]
fn a_shade_no_arm_left_is_not_a_piece_set_down() {
    let boards = shaded_h3(false);
    assert!(!h3_occupied(&boards), "{boards:?}");
}

/// The same eight frames on a square the arm has just uncovered are a piece it set down there.
#[test]
fn a_square_an_arm_uncovered_counts_sooner() {
    let boards = shaded_h3(true);
    assert!(h3_occupied(&boards), "{boards:?}");
}
