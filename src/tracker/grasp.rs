//! Fingertips seen a square off while they grasp a piece: the rest shows as a touch of the
//! neighbour. When the piece lifted is the one next to the rest, and nothing put the fingertips
//! on the piece itself, that touch was the grasp and is taken back, even where the lift shows
//! only later, the square under the arm; a touch of one piece and a
//! lift of another the fingertips were seen on is still both (4.3.1). So is a rest on a
//! neighbour that begins the moment the fingertips leave a square with its piece (the hand
//! rising with it is seen further along its reach), even when that lift shows only later.

use super::testkit::{Reel, moved, without};
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

/// 1. e4 … with a black pawn on d4 and White's knight on f3: Nxd4, the pawn taken off first.
/// The fingertips rest on d4, then (the pawn in the hand, the hand rising) on e4 from the very
/// next frame if `at_once`, else after a pause over the empty d3; then on f3, whose knight goes
/// to d4. d4 stays hidden until the arm withdraws, so its change (black to white) is seen last.
fn nxd4(at_once: bool) -> (Board, Vec<Event>) {
    use Square::*;
    let mut start = moved(&Board::default(), &[(E2, E4), (G1, F3)]);
    start.set_piece_at(D4, Piece { color: Color::Black, role: Role::Pawn });
    let taken = without(&start, &[D4]);
    let lifted = without(&taken, &[F3]);
    let after = moved(&taken, &[(F3, D4)]);
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((D4, &[D3, D4])));
    if !at_once {
        reel.run(10, &taken, Some((D3, &[D3, D4])));
    }
    reel.run(12, &taken, Some((E4, &[D3, D4, E4])))
        .run(10, &taken, Some((F3, &[D4, E4, F3])))
        .run(8, &lifted, Some((G3, &[D4, E4, G3])))
        .run(6, &after, Some((D4, &[D3, D4])))
        .run(10, &after, Some((E3, &[E2, E3])))
        .run(20, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    (board, events)
}

#[test]
fn a_rest_beside_a_capture_victim_as_it_comes_off_is_its_lift() {
    use Square::*;
    let (_, events) = nxd4(true);
    assert_eq!(touched(&events), [D4, F3], "{events:?}");
    let at = |kind: fn(&EventKind) -> bool| events.iter().position(|e| kind(&e.kind)).expect("the act");
    let (victim, knight) = (at(|k| matches!(k, EventKind::Lift { square: D4, .. })), at(|k| matches!(k, EventKind::Lift { square: F3, .. })));
    let set_down = at(|k| matches!(k, EventKind::Place { square: D4, .. }));
    assert!(victim < knight && knight < set_down, "the pawn off, the knight up, the knight down: {events:?}");
    assert!(events.windows(2).all(|w| w[0].t <= w[1].t), "{events:?}");
}

#[test]
fn a_rest_beside_it_that_begins_later_stays_a_touch() {
    let (_, events) = nxd4(false);
    assert_eq!(touched(&events), [Square::D4, Square::E4, Square::F3], "{events:?}");
}

/// 1. Nc3: the board before, with the knight in the hand, and after.
fn nc3() -> (Board, Board, Board) {
    let start = Board::default();
    let lifted = without(&start, &[Square::B1]);
    let after = moved(&start, &[(Square::B1, Square::C3)]);
    (start, lifted, after)
}

/// 1. Nc3: the fingertips on b1, then, the knight in the hand, on b2 from the very next frame
/// for a third of a second, b1 seen empty meanwhile (its lift taken in before the rest on b2
/// lasted long enough to be a touch), then over c3. The rest on b2 is the hand rising with the
/// knight, not a touch of the pawn: a false 4.3.1 otherwise.
#[test]
fn a_rest_beside_a_lift_already_taken_in_is_no_touch() {
    use Square::*;
    let (start, lifted, after) = nc3();
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((B1, &[B1, B2])))
        .run(10, &lifted, Some((B2, &[B2, C2])))
        .run(6, &lifted, Some((C3, &[C3, C2])))
        .run(6, &after, Some((C3, &[C3, C2])))
        .run(6, &after, Some((C4, &[C4])))
        .run(20, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    assert_eq!(touched(&events), [B1], "{events:?}");
}

/// 1. Nc3 with b1 under the arm throughout: the fingertips on b1, then, the knight in the hand,
/// on b2 from the very next frame for a third of a second, then over c3, where the knight is
/// seen set down. The lift is inferred from the grasp only then; the rest on b2 was the hand
/// rising with the knight, not a touch of the pawn.
#[test]
fn a_rest_beside_a_grasp_whose_lift_is_inferred_later_is_no_touch() {
    use Square::*;
    rising_to_c3(&[(10, C4, &[A1, B1, C1, C4, D4])]);
}

/// 1. Nc3 with b1 under the arm from the grasp on: the fingertips on b1, then on b2 from the
/// very next frame, the knight in the hand, then over c3, where the knight is set down; the arm
/// then goes as `leaving` says (frames, fingertips, squares hidden), and away. The knight is
/// on c3 and the rest on b2 was no touch.
fn rising_to_c3(leaving: &[(u64, Square, &[Square])]) {
    use Square::*;
    let (start, lifted, after) = nc3();
    let reach: &[Square] = &[A1, B1, C1, B2, C2, B3, C3];
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((B1, &[B1])))
        .run(10, &lifted, Some((B2, &[A1, B1, C1])))
        .run(3, &lifted, Some((C3, reach)))
        .run(6, &after, Some((C3, reach)));
    for &(frames, tip, hidden) in leaving {
        reel.run(frames, &after, Some((tip, hidden)));
    }
    reel.run(20, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Place { square: C3, .. })), "{events:?}");
    assert!(!touched(&events).contains(&B2), "{events:?}");
}

/// 1. Nc3 as the arm rises off c3: b1, under the arm from the grasp on, shows empty for a
/// frame, then hides again under the withdrawing arm; c3 shows the knight meanwhile. The knight
/// is taken from b1 as seen emptied, its lift not yet counted; the rest on b2 that began as the
/// fingertips left b1 was the hand rising with it, not a touch of the pawn (rendered game 215's
/// 8. Nc3, a false 4.3.1).
#[test]
fn a_rest_beside_a_square_seen_emptied_that_gave_the_piece_set_down_is_no_touch() {
    use Square::*;
    rising_to_c3(&[(1, C4, &[C4, D4]), (10, B2, &[A1, B1, C1])]);
}

/// 1. Nc3 grasped with the fingertips read a square off, on b2, from the frame the arm is first
/// seen, b1 under the arm throughout; the hand carries the knight over b3 and c3, passing over
/// b1 itself for a frame, and the knight is seen set on c3 while b1 is still hidden (rendered
/// game 360: Black's queen grasped on d8 with the fingertips read on d7, a false 4.3.1). The
/// rest on b2 was the grasp, not a touch of the pawn. Where the fingertips rested on b1 as
/// well, the rest on b2 stays a touch (`on_b1`).
fn grasped_off_under_the_arm(on_b1: bool) -> Vec<Event> {
    use Square::*;
    let (start, lifted, after) = nc3();
    let hidden: &[Square] = &[A1, B1, C1, B2];
    let mut reel = Reel::new(&start);
    reel.run(12, &start, Some((B2, hidden)));
    if on_b1 {
        reel.run(10, &start, Some((B1, hidden)));
    }
    reel.run(4, &lifted, Some((B3, hidden)))
        .run(1, &lifted, Some((B1, hidden)))
        .run(4, &lifted, Some((C3, &[A1, B1, C1, B2, C2, C3])))
        .run(6, &after, Some((C4, &[A1, B1, C1, C4])))
        .run(20, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Place { square: C3, .. })), "{events:?}");
    events
}

#[test]
fn a_rest_a_square_off_a_piece_lifted_unseen_under_the_arm_is_its_grasp() {
    let events = grasped_off_under_the_arm(false);
    assert_eq!(touched(&events), [], "{events:?}");
}

#[test]
fn a_rest_beside_it_before_one_on_the_piece_lifted_stays_a_touch() {
    let events = grasped_off_under_the_arm(true);
    assert_eq!(touched(&events), [Square::B2, Square::B1], "{events:?}");
}
