//! A hand lifts and sets down only what it reaches. A square read empty for a moment while the
//! fingertips are seen well away from it, or just as an arm uncovers it with the fingertips
//! beside it, is far more often a misread (a dark piece on a dark square, the arm's shadow)
//! than a piece lifted: such a lift waits until its piece shows elsewhere, and is taken back,
//! unwritten, if the piece shows again where it stood.

use super::testkit::{Reel, moved, read_as, without};
use super::*;

fn touches(events: &[Event], sq: Square) -> Vec<&Event> {
    events.iter().filter(|e| matches!(e.kind, EventKind::Lift { square, .. } | EventKind::Place { square, .. } | EventKind::Release { square, .. } | EventKind::Touch { square, .. } if square == sq)).collect()
}

/// White's arm lies over the first rank, then its fingertips rest on g2 while d1, just
/// uncovered, reads empty for ten frames and then shows the queen again: no hand lifted her.
#[test]
fn a_square_read_empty_while_the_fingertips_are_far_off_is_no_lift() {
    use Square::*;
    let start = Board::default();
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((G1, &[D1, E1, F1, G1])))
        .run_seen(10, &start, Some((G2, &[G1, G2])), |o| read_as(o, D1, SquareState::Empty))
        .run(10, &start, Some((G2, &[G1, G2])))
        .run(20, &start, None);
    let (board, events) = reel.finish();
    assert_eq!(board, start, "{events:?}");
    assert!(touches(&events, D1).is_empty(), "{events:?}");
}

/// The same arm, but d1 stays empty and the queen shows on h5 as the fingertips leave it: the
/// lift guessed was a lift after all (an arm vision saw only in part), and is written, before
/// the queen is set down.
#[test]
fn a_guessed_lift_is_written_once_its_piece_shows_elsewhere() {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5)]);
    let after = moved(&start, &[(D1, H5)]);
    let lifted = without(&start, &[D1]);
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((G1, &[D1, E1, F1, G1])))
        .run(10, &lifted, Some((G2, &[G1, G2])))
        .run(10, &lifted, Some((H5, &[H5, H4, H3])))
        .run(10, &after, Some((H6, &[H6])))
        .run(20, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    let lift = events.iter().position(|e| matches!(e.kind, EventKind::Lift { square: D1, .. }));
    let place = events.iter().position(|e| matches!(e.kind, EventKind::Place { square: H5, .. }));
    assert!(lift.is_some() && lift < place, "{events:?}");
}

/// The arm hides f1 and g1, its fingertips on g1; as it draws back off f1, f1 reads empty for
/// three frames and then shows the bishop: a square just uncovered beside the fingertips, no
/// lift and no adjustment.
#[test]
fn a_square_uncovered_beside_the_fingertips_and_read_empty_a_moment_is_no_lift() {
    use Square::*;
    let start = Board::default();
    let mut reel = Reel::new(&start);
    reel.run(15, &start, Some((G1, &[F1, G1])))
        .run_seen(3, &start, Some((G1, &[G1])), |o| read_as(o, F1, SquareState::Empty))
        .run(10, &start, Some((G1, &[G1])))
        .run(20, &start, None);
    let (board, events) = reel.finish();
    assert_eq!(board, start, "{events:?}");
    assert!(touches(&events, F1).is_empty(), "{events:?}");
}

/// The same, but f1 stays empty and the bishop shows on c4: the lift made under the arm is
/// seen once the square has read empty long enough.
#[test]
fn a_square_uncovered_beside_the_fingertips_and_left_empty_was_lifted() {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5)]);
    let lifted = without(&start, &[F1]);
    let after = moved(&start, &[(F1, C4)]);
    let mut reel = Reel::new(&start);
    reel.run(15, &start, Some((G1, &[F1, G1])))
        .run(10, &lifted, Some((G1, &[G1])))
        .run(10, &after, Some((D3, &[D3, D2, E2])))
        .run(20, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Lift { square: F1, .. })), "{events:?}");
}
