//! An arm vision cannot place on either player's side is the player's expected to move.

use super::*;
use crate::types::{HandObs, SquareObs};

fn frame(n: u64, board: &Board, hand: Option<HandObs>) -> Observation {
    let squares = Square::ALL.iter().map(|&sq| SquareObs { state: SquareState::of(board.piece_at(sq)), confidence: 1.0, role: None }).collect();
    Observation { frame: n, t: n as f64 / 30.0, squares, hands: hand.into_iter().collect(), clock: None, board_lost: false }
}

fn arm(side: Option<Side>) -> HandObs {
    HandObs { id: 0, side, polygon: Vec::new(), extremity: [0.0, 0.0], extremity_square: Some(Square::D4), covers: vec![Square::D4], extremity_board: Some([3.5, 3.5]), extremity_lean: None }
}

fn entered(to_move: Color, side: Option<Side>) -> Side {
    let board = Board::default();
    let mut t = Tracker::new(TrackerConfig { to_move, ..TrackerConfig::default() });
    let mut events = t.observe(&frame(0, &board, None));
    for n in 1..5 {
        events.extend(t.observe(&frame(n, &board, Some(arm(side)))));
    }
    events.extend(t.finish());
    events.iter().find_map(|e| match e.kind {
        EventKind::HandEnter { side, .. } => Some(side),
        _ => None,
    }).expect("the arm entered")
}

#[test]
fn an_arm_of_no_known_side_is_the_movers() {
    assert_eq!(entered(Color::White, None), Side::White);
    assert_eq!(entered(Color::Black, None), Side::Black);
}

#[test]
fn after_a_move_an_arm_of_no_known_side_is_the_opponents() {
    // White's arm plays e2-e4; then an arm from a side edge comes in.
    let start = Board::default();
    let mut after = start.clone();
    let pawn = after.remove_piece_at(Square::E2).expect("a pawn");
    after.set_piece_at(Square::E4, pawn);
    let white = |sq: Square| HandObs { side: Some(Side::White), extremity_square: Some(sq), covers: Vec::new(), ..arm(None) };
    let mut t = Tracker::new(TrackerConfig::default());
    let mut events = t.observe(&frame(0, &start, None));
    let mut n = 1;
    for (board, hand) in [(&start, white(Square::E2)), (&start, white(Square::E2)), (&start, white(Square::E2)), (&after, white(Square::E4)), (&after, white(Square::E4))] {
        events.extend(t.observe(&frame(n, board, Some(hand))));
        n += 1;
    }
    for _ in 0..20 {
        events.extend(t.observe(&frame(n, &after, None)));
        n += 1;
    }
    for _ in 0..4 {
        events.extend(t.observe(&frame(n, &after, Some(HandObs { id: 1, ..arm(None) }))));
        n += 1;
    }
    events.extend(t.finish());
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Place { square: Square::E4, .. })), "{events:?}");
    let sides: Vec<Side> = events.iter().filter_map(|e| match e.kind {
        EventKind::HandEnter { side, .. } => Some(side),
        _ => None,
    }).collect();
    assert_eq!(sides, [Side::White, Side::Black]);
}

#[test]
fn an_arm_vision_places_keeps_its_side() {
    assert_eq!(entered(Color::Black, Some(Side::White)), Side::White);
    assert_eq!(entered(Color::White, Some(Side::Black)), Side::Black);
}
