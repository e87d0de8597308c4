//! A castling made wholly under the arm: the king's and rook's squares stay hidden until the arm
//! has gone and are then all seen in one frame. What each square took is decided by the order
//! of the hand's acts, which the fingertips' stays give, and those can mislead: the fingertips
//! carrying the king pass over the rook's square first.

use super::testkit::{Reel, moved, read_as, without};
use crate::types::Observation;
use super::*;

/// White's arm lifts the king (fingertips on e1), carries it over f1 to g1, takes the rook on
/// h1 and sets it on f1, resting there less than while the king passed; the first rank is hidden
/// throughout, and read as the arm withdraws over the second.
fn castle_short_hidden(f1_on_the_way: u64, f1_with_the_rook: u64) -> (Board, Vec<Event>) {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5), (G1, F3), (B8, C6), (F1, C4), (F8, C5)]);
    let after = moved(&start, &[(E1, G1), (H1, F1)]);
    let row: &[Square] = &[E1, F1, G1, H1];
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((E1, row)))
        .run(f1_on_the_way, &start, Some((F1, row)))
        .run(10, &start, Some((G1, row)))
        .run(10, &start, Some((H1, row)))
        .run(f1_with_the_rook, &start, Some((F1, row)))
        .run(10, &after, Some((F3, &[F2, G2, F3])))
        .run(30, &after, None);
    reel.finish()
}

fn castled() -> Board {
    use Square::*;
    moved(&Board::default(), &[(E2, E4), (E7, E5), (G1, F3), (B8, C6), (F1, C4), (F8, C5), (E1, G1), (H1, F1)])
}

/// Rendered game 415's 15... O-O (Black's, the same): f1's place was timed by the king passing
/// over it and applied before g1's, so f1 took the king (recorded Kf1, the rook a 7.6).
#[test]
fn the_king_carried_over_the_rooks_square_is_set_on_its_own() {
    let (board, events) = castle_short_hidden(6, 3);
    assert_eq!(board, castled(), "{events:?}");
}

/// The rook's set-down the longer stay on f1: in order as it is.
#[test]
fn the_rook_set_down_resting_longer_is_in_order_already() {
    let (board, events) = castle_short_hidden(3, 6);
    assert_eq!(board, castled(), "{events:?}");
}

/// White's arm sets the king on g1 with e1 to g1 hidden, and is lost for half a second; e1,
/// uncovered, fits no look for a while. The next arm seen takes the rook from h1 to f1. The
/// king's half, found with no hand seen, is told before the rook's lift (rendered game 310's
/// 9... O-O at the far edge: told after it, the rook's move was recorded and the king was a
/// 7.6); the rules take it as a castling under way.
#[test]
fn a_castling_king_set_down_by_an_arm_lost_is_told_before_the_rook_moves() {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5), (G1, F3), (B8, C6), (F1, C4), (F8, C5)]);
    let king_half = moved(&start, &[(E1, G1)]);
    let rook_lifted = without(&king_half, &[H1]);
    let e1_unread = |o: &mut Observation| read_as(o, E1, SquareState::Occluded);
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((E1, &[E1, F1, G1]))).run(10, &king_half, Some((G1, &[E1, F1, G1])));
    reel.run_seen(20, &king_half, None, e1_unread);
    reel.arm_id = 2;
    reel.run_seen(10, &king_half, Some((H1, &[G1, H1])), e1_unread)
        .run_seen(10, &rook_lifted, Some((F1, &[F1])), e1_unread)
        .run_seen(10, &castled(), Some((F1, &[F1])), e1_unread)
        .run_seen(20, &castled(), None, e1_unread)
        .run(30, &castled(), None);
    let (board, events) = reel.finish();
    assert_eq!(board, castled(), "{events:?}");
    let king_told = events.iter().position(|e| matches!(&e.kind, EventKind::Board { placement, .. } if placement.cell(G1) == crate::types::Cell::Piece(Piece { color: Color::White, role: Role::King })));
    let rook_lift = events.iter().position(|e| matches!(e.kind, EventKind::Lift { square: H1, .. }));
    assert!(king_told.is_some() && rook_lift.is_some() && king_told < rook_lift, "{events:?}");
}

/// O-O with the king's square unread from the lift on (it fits no look after the arm, as e8
/// beside a bishop did): the fingertips rest on e1 too briefly for a touch and carry the king to
/// g1, which stays under the arm while the hand lifts the rook, seen gone from h1 at once, and
/// sets it on f1. The king set on g1 shows only after the rook's lift, and is dated by the
/// stay on g1, before it (rendered game 125's 10... O-O, recorded Rg8 and the king on f8 a
/// 7.6). The king was lifted first, and the stream says so: the rook's lift waits while the
/// king's square may have been left under the same arm.
#[test]
fn a_king_lifted_unseen_before_the_rook_is_lifted_first() {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5), (G1, F3), (B8, C6), (F1, C4), (F8, C5)]);
    let king_off = without(&start, &[E1]);
    let king_on = moved(&start, &[(E1, G1)]);
    let rook_off = without(&king_on, &[H1]);
    let after = moved(&king_on, &[(H1, F1)]);
    let e1_unread = |o: &mut Observation| read_as(o, E1, SquareState::Occluded);
    let mut reel = Reel::new(&start);
    reel.run(10, &start, None)
        .run(4, &start, Some((E1, &[D1, E1, E2])))
        .run_seen(8, &king_off, Some((F1, &[E1, F1, G1, F2])), e1_unread)
        .run_seen(12, &king_on, Some((G1, &[F1, G1, F2, G2])), e1_unread)
        .run_seen(4, &king_on, Some((H2, &[G1, G2, H2])), e1_unread)
        .run_seen(12, &king_on, Some((H1, &[G1, H1, G2, H2])), e1_unread)
        .run_seen(3, &rook_off, Some((G1, &[G1, H1, G2, H2])), e1_unread)
        .run_seen(10, &after, Some((F1, &[F1, G1, H1, F2, G2])), e1_unread)
        .run_seen(6, &after, Some((F1, &[F1, G1, F2, G2])), e1_unread)
        .run_seen(6, &after, Some((F2, &[F1, F2])), e1_unread)
        .run_seen(60, &after, None, e1_unread);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    let lift = |sq: Square| events.iter().position(|e| matches!(e.kind, EventKind::Lift { square, .. } if square == sq));
    let (king, rook) = (lift(E1).expect("the king's lift"), lift(H1).expect("the rook's lift"));
    assert!(king < rook, "{events:?}");
}

/// O-O with the whole first rank under the arm from the king's lift until the arm has gone
/// (a low camera on White's side): the fingertips rest on e1 too briefly for a touch, carry the
/// king to g1, then rest on the rook long enough for one. The rook's touch is written as the arm
/// leaves; the king's lift only as e1 shows, two frames later, dated by the stay on e1 before
/// the touch (rendered game 220's 9. O-O: the stream never goes back, so the lift came after
/// the rook's touch, a false 4.4.2). The rook's touch waits while the king's square is still
/// unread after the arm that hid it left.
#[test]
fn a_rook_touched_after_a_king_lifted_unseen_is_touched_after_it() {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5), (G1, F3), (B8, C6), (F1, C4), (F8, C5)]);
    let after = moved(&start, &[(E1, G1), (H1, F1)]);
    let row: &[Square] = &[E1, F1, G1, H1, E2, F2, G2, H2];
    let mut reel = Reel::new(&start);
    reel.run(10, &start, None)
        .run(4, &start, Some((E1, row)))
        .run(8, &start, Some((F1, row)))
        .run(10, &start, Some((G1, row)))
        .run(12, &start, Some((H1, row)))
        .run(10, &start, Some((F1, row)))
        .run_seen(2, &start, None, |o| row.iter().for_each(|&sq| read_as(o, sq, SquareState::Occluded)));
    reel.arm_id = 2;
    reel.run(4, &after, Some((G2, &[G2, H2]))).run(60, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    let lift = events.iter().position(|e| matches!(e.kind, EventKind::Lift { square: E1, .. })).expect("the king's lift");
    let touch = events.iter().position(|e| matches!(e.kind, EventKind::Touch { square: H1, .. }));
    assert!(touch.is_none_or(|t| lift < t), "{events:?}");
}
