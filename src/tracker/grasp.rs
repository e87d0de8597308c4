//! Fingertips seen a square off while they grasp a piece: the rest shows as a touch of the
//! neighbour. When the piece lifted is the one next to the rest, and nothing put the fingertips
//! on the piece itself, that touch was the grasp and is taken back; a touch of one piece and a
//! lift of another the fingertips were seen on is still both (4.3.1).

use super::testkit::Reel;
use super::*;

/// 1. a3, the fingertips resting on b2 while the hand grasps the a2 pawn (and, if `on_a2`,
/// seen on a2 a moment before lifting). The events.
fn a3(on_a2: bool) -> Vec<Event> {
    use Square::*;
    let start = Board::default();
    let mut lifted = start.clone();
    let pawn = lifted.remove_piece_at(A2).expect("a pawn");
    let mut after = lifted.clone();
    after.set_piece_at(A3, pawn);
    let mut reel = Reel::new(&start);
    reel.run(15, &start, Some((B2, &[A2, B2])));
    if on_a2 {
        reel.run(10, &start, Some((A2, &[A2, B2])));
    }
    reel.run(10, &lifted, Some((A3, &[A3])))
        .run(10, &after, Some((A3, &[A3])))
        .run(10, &after, Some((A4, &[A4])))
        .run(20, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
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
