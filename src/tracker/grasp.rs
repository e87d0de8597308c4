//! Fingertips seen a square off while they grasp a piece: the rest shows as a touch of the
//! neighbour. When the piece lifted is the one next to the rest, and nothing put the fingertips
//! on the piece itself, that touch was the grasp and is taken back; a touch of one piece and a
//! lift of another the fingertips were seen on is still both (4.3.1).

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
        id: 1,
        side: Some(Side::White),
        polygon: Vec::new(),
        extremity: [0.0, 0.0],
        extremity_square: Some(tip),
        covers: covers.to_vec(),
        extremity_board: Some([u32::from(tip.file()) as f32 + 0.5, u32::from(tip.rank()) as f32 + 0.5]),
    });
    Observation { frame: n, t: n as f64 / 30.0, squares, hands: hands.into_iter().collect(), clock: None, board_lost: false }
}

/// 1. a3, the fingertips resting on b2 while the hand grasps the a2 pawn (and, if `on_a2`,
/// seen on a2 a moment before lifting). The events.
fn a3(on_a2: bool) -> Vec<Event> {
    use Square::*;
    let start = Board::default();
    let mut lifted = start.clone();
    let pawn = lifted.remove_piece_at(A2).expect("a pawn");
    let mut after = lifted.clone();
    after.set_piece_at(A3, pawn);
    let mut t = Tracker::new(TrackerConfig { start: start.clone(), ..TrackerConfig::default() });
    let mut events = t.observe(&frame(0, &start, None));
    let mut n = 1;
    let mut run = |t: &mut Tracker, frames: u64, board: &Board, arm: Option<(Square, &[Square])>| {
        for _ in 0..frames {
            events.extend(t.observe(&frame(n, board, arm)));
            n += 1;
        }
    };
    run(&mut t, 15, &start, Some((B2, &[A2, B2])));
    if on_a2 {
        run(&mut t, 10, &start, Some((A2, &[A2, B2])));
    }
    run(&mut t, 10, &lifted, Some((A3, &[A3])));
    run(&mut t, 10, &after, Some((A3, &[A3])));
    run(&mut t, 10, &after, Some((A4, &[A4])));
    run(&mut t, 20, &after, None);
    events.extend(t.finish());
    assert_eq!(t.board(), after, "{events:?}");
    events
}

fn touched(events: &[Event]) -> Vec<Square> {
    events.iter().filter_map(|e| match e.kind {
        EventKind::Touch { square, .. } => Some(square),
        _ => None,
    }).collect()
}

#[test]
fn a_rest_beside_the_piece_lifted_is_its_grasp() {
    let events = a3(false);
    assert_eq!(touched(&events), [], "{events:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Lift { square: Square::A2, .. })), "{events:?}");
}

#[test]
fn a_touch_then_a_lift_the_fingertips_were_seen_on_stays_a_touch() {
    let events = a3(true);
    assert_eq!(touched(&events), [Square::B2, Square::A2], "{events:?}");
}
