//! A castling made wholly under the arm: the king's and rook's squares stay hidden until the arm
//! has gone and are then all seen in one frame. What each square took is decided by the order
//! of the hand's acts, which the fingertips' stays give, and those can mislead: the fingertips
//! carrying the king pass over the rook's square first.

use super::testkit::{Reel, moved};
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
