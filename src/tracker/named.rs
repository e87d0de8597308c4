//! What vision's name for a piece set down on the first or last rank says about the piece the
//! hand carried there. Vision names pieces only on those ranks, and as a promotion's: a piece
//! whose colour it could not tell is named as the side's that promotes there.

use shakmaty::{Board, Role, Square};

use super::testkit::{Reel, handling, moved, without};
use crate::types::{HandId, SquareState};

/// 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6, then White's arm lifts the h1 rook and sets it on f1, and its
/// fingertips go on to the king; f1, uncovered, reads as a piece of colour untold that the
/// promotion namer calls a bishop (Black's, for Black promotes on the first rank), or, with
/// `told`, reads white and is named nothing.
fn rook_to_f1(told: bool) -> (Board, Board, Vec<crate::types::Event>) {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5), (G1, F3), (B8, C6), (F1, C4), (G8, F6)]);
    let lifted = without(&start, &[H1]);
    let after = moved(&start, &[(H1, F1)]);
    let untold = move |o: &mut crate::types::Observation| {
        if !told {
            let f1 = &mut o.squares[usize::from(F1)];
            f1.state = SquareState::Piece;
            f1.role = Some(Role::Bishop);
        }
    };
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some((H1, &[H1])))
        .run(10, &lifted, Some((G1, &[G1, H1])))
        .run(10, &after, Some((F1, &[F1, G1, H1])))
        .run_seen(10, &after, Some((E1, &[E1])), untold)
        .run_seen(30, &after, None, untold);
    let (board, events) = reel.finish();
    (after, board, events)
}

/// A name given as the other side's promotion says nothing of the white rook set on f1: the
/// rook the hand carried is set down there (the staged rook-first scene read from pixels,
/// seed 11: the rook was kept in the hand, f1 refused, and castling begun with the rook was
/// then read as a plain castling).
#[test]
fn a_piece_of_colour_untold_named_as_the_other_sides_promotion_is_the_one_carried() {
    for told in [true, false] {
        let (after, board, events) = rook_to_f1(told);
        assert_eq!(board, after, "told {told}: {events:?}");
        let hand = HandId(0);
        assert_eq!(handling(&events), [(hand, Square::H1, true), (hand, Square::F1, false)], "told {told}: {events:?}");
    }
}
