//! A piece set down by a hand that was not seen lifting it: it came from a square the arm kept
//! hidden, and which one must be a square its piece could have come from — a knight carried past
//! its pawns is not a pawn stepping diagonally onto an empty square.

use super::*;
use crate::types::{HandObs, SquareObs};

/// `board` as seen with White's arm (if any) over `covers`, its fingertips on `tip`.
fn frame(n: u64, board: &Board, arm: Option<(Square, &[Square])>) -> Observation {
    let hidden: &[Square] = arm.map_or(&[], |(_, c)| c);
    let squares = Square::ALL
        .iter()
        .map(|&sq| SquareObs { state: if hidden.contains(&sq) { SquareState::Occluded } else { SquareState::of(board.piece_at(sq)) }, confidence: 1.0, role: None })
        .collect();
    let hands = arm.map(|(tip, covers)| HandObs {
        id: 3,
        side: Some(Side::White),
        polygon: Vec::new(),
        extremity: [0.0, 0.0],
        extremity_square: Some(tip),
        covers: covers.to_vec(),
        extremity_board: Some([u32::from(tip.file()) as f32 + 0.5, u32::from(tip.rank()) as f32 + 0.5]),
    });
    Observation { frame: n, t: n as f64 / 30.0, squares, hands: hands.into_iter().collect(), clock: None, board_lost: false }
}

/// 1. Nc3 with b1 hidden throughout and the fingertips resting on the b2 pawn (hidden too)
/// longer than on b1, as an arm reaching from the side does.
#[test]
fn a_knight_carried_past_a_pawn_is_lifted_from_its_own_square() {
    use Square::*;
    let start = Board::default();
    let mut after = start.clone();
    let knight = after.remove_piece_at(B1).expect("a knight");
    after.set_piece_at(C3, knight);
    let mut t = Tracker::new(TrackerConfig { start: start.clone(), ..TrackerConfig::default() });
    let mut events = t.observe(&frame(0, &start, None));
    let mut n = 1;
    let mut run = |t: &mut Tracker, frames: u64, board: &Board, arm: Option<(Square, &[Square])>| {
        for _ in 0..frames {
            events.extend(t.observe(&frame(n, board, arm)));
            n += 1;
        }
    };
    run(&mut t, 8, &start, Some((B1, &[A1, B1, C1])));
    run(&mut t, 12, &start, Some((B2, &[A1, B1, C1, B2])));
    run(&mut t, 12, &after, Some((C3, &[A1, B1, C1, B2, C2])));
    run(&mut t, 20, &after, None);
    events.extend(t.finish());
    assert_eq!(t.board(), after, "{events:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Lift { square: B1, .. })), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e.kind, EventKind::Lift { square: B2, .. })), "{events:?}");
}

/// The same reach, but the b2 pawn takes a black piece on c3: then it is the pawn that went.
#[test]
fn a_pawn_hidden_under_the_arm_takes_diagonally() {
    use Square::*;
    let mut start = Board::default();
    start.set_piece_at(C3, Piece { color: Color::Black, role: Role::Knight });
    let mut after = start.clone();
    let pawn = after.remove_piece_at(B2).expect("a pawn");
    after.set_piece_at(C3, pawn);
    let mut t = Tracker::new(TrackerConfig { start: start.clone(), ..TrackerConfig::default() });
    let mut events = t.observe(&frame(0, &start, None));
    let mut n = 1;
    let mut run = |t: &mut Tracker, frames: u64, board: &Board, arm: Option<(Square, &[Square])>| {
        for _ in 0..frames {
            events.extend(t.observe(&frame(n, board, arm)));
            n += 1;
        }
    };
    run(&mut t, 8, &start, Some((B1, &[A1, B1, C1])));
    run(&mut t, 12, &start, Some((B2, &[A1, B1, C1, B2])));
    run(&mut t, 12, &after, Some((C3, &[A1, B1, C1, B2, C2])));
    run(&mut t, 20, &after, None);
    events.extend(t.finish());
    assert_eq!(t.board(), after, "{events:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Lift { square: B2, .. })), "{events:?}");
}

/// The h1 rook adjusted by an arm vision loses for a moment while the rook is off its square:
/// the rook is seen gone with no hand near, then set back by the arm, seen again.
#[test]
fn a_piece_seen_gone_while_the_arm_was_lost_and_set_back_is_adjusted() {
    use Square::*;
    let start = Board::default();
    let mut lifted = start.clone();
    lifted.discard_piece_at(H1);
    let mut t = Tracker::new(TrackerConfig { start: start.clone(), ..TrackerConfig::default() });
    let mut events = t.observe(&frame(0, &start, None));
    let mut n = 1;
    let mut run = |t: &mut Tracker, frames: u64, board: &Board, arm: Option<(Square, &[Square])>| {
        for _ in 0..frames {
            events.extend(t.observe(&frame(n, board, arm)));
            n += 1;
        }
    };
    run(&mut t, 10, &start, Some((H1, &[H1])));
    run(&mut t, 12, &lifted, None);
    // The arm, seen again, with a new id.
    let back = |n| frame(n, &start, Some((H1, &[H1])));
    for _ in 0..10 {
        let mut o = back(n);
        o.hands[0].id = 4;
        events.extend(t.observe(&o));
        n += 1;
    }
    for _ in 0..10 {
        let mut o = frame(n, &start, Some((H3, &[H3])));
        o.hands[0].id = 4;
        events.extend(t.observe(&o));
        n += 1;
    }
    for _ in 0..20 {
        events.extend(t.observe(&frame(n, &start, None)));
        n += 1;
    }
    events.extend(t.finish());
    assert_eq!(t.board(), start, "{events:?}");
    let at = |kind: fn(&EventKind) -> bool| events.iter().position(|e| kind(&e.kind));
    let lift = at(|k| matches!(k, EventKind::Lift { square: H1, .. })).expect("the rook's lift");
    let place = at(|k| matches!(k, EventKind::Place { square: H1, .. })).expect("the rook set back");
    assert!(lift < place, "{events:?}");
}
