//! 4.4.4, 4.6.1–4.6.3 — promotion: the pawn need not reach the promotion square; pawn removal
//! and new piece may come in either order; a piece standing on the promotion square must be
//! taken; the new piece is chosen once it touches the square. When it is *made* is 4.7.3
//! (`completion.rs`); the pawn left unreplaced at the clock is 7.5.2 (`illegal.rs`).

use shakmaty::{Chess, Position, Role, Square};

use super::Breach;
use crate::types::Article;

/// Records the first new piece set on a promotion square; a different one later breaches 4.4.4.
pub fn choice(pos: &Chess, chosen: &mut Option<(Square, Role)>, sq: Square, role: Role) -> Option<Breach> {
    let promotes_here = pos.legal_moves().iter().any(|m| m.is_promotion() && m.to() == sq);
    if !promotes_here {
        return None;
    }
    match *chosen {
        None => {
            *chosen = Some((sq, role));
            None
        }
        Some((first_sq, first)) if first_sq == sq && first != role => Some(Breach {
            article: Article::A4_4_4,
            detail: format!(
                "the {} touched the promotion square {sq} first and that choice was final; a {} was put there instead",
                name(first),
                name(role)
            ),
            confidence: 1.0,
        }),
        Some(_) => None,
    }
}

fn name(role: Role) -> &'static str {
    match role {
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::King => "king",
        Role::Pawn => "pawn",
    }
}

#[cfg(test)]
mod art_4_4_4 {
    use crate::rules::testkit::*;

    const FEN: &str = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";

    #[test]
    fn art_4_4_4_changing_the_new_piece_after_it_touched_the_square() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "e7").leave(0)
            .enter(1, W).place_new(1, "e8", 'Q').lift(1, "e8").leave(1)
            .enter(2, W).place_new(2, "e8", 'N').release(2, "e8").leave(2)
            .run();
        assert_eq!(sans(&d), ["e8=N"], "the record shows what was played");
        assert_eq!(violations(&d), [("4.4.4", Some(W))]);
    }

    #[test]
    fn art_4_4_4_under_promotion_chosen_once_is_fine() {
        let d = Script::from_fen(FEN).enter(0, W).lift(0, "e7").place_new(0, "e8", 'R').release(0, "e8").leave(0).clock(W).run();
        assert_eq!(sans(&d), ["e8=R"]);
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_4_6_1 {
    //! The pawn need not be placed on the promotion square.
    use crate::rules::testkit::*;

    const FEN: &str = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";

    #[test]
    fn art_4_6_1_pawn_taken_off_from_the_seventh_rank() {
        let d = Script::from_fen(FEN).enter(0, W).lift(0, "e7").place_new(0, "e8", 'Q').release(0, "e8").leave(0).clock(W).run();
        assert_eq!(sans(&d), ["e8=Q"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_6_1_pawn_placed_on_the_square_first_is_fine_too() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "e7").place(0, "e8").release(0, "e8").lift(0, "e8").place_new(0, "e8", 'Q').release(0, "e8").leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["e8=Q"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_6_1_pawn_removed_and_no_piece_put_down_is_no_move() {
        let d = Script::from_fen(FEN).enter(0, W).lift(0, "e7").leave(0).clock(W).run();
        assert!(sans(&d).is_empty());
        assert_eq!(violations(&d), [("7.5.1", Some(W))]);
    }
}

#[cfg(test)]
mod art_4_6_2 {
    //! Removing the pawn and placing the new piece may happen in either order.
    use crate::rules::testkit::*;

    const FEN: &str = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";

    #[test]
    fn art_4_6_2_new_piece_first_then_pawn_removed() {
        let d = Script::from_fen(FEN).enter(0, W).place_new(0, "e8", 'Q').release(0, "e8").lift(0, "e7").leave(0).clock(W).run();
        assert_eq!(sans(&d), ["e8=Q"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_6_2_a_new_piece_put_elsewhere_is_no_promotion() {
        let d = Script::from_fen(FEN).enter(0, W).lift(0, "e7").place_new(0, "d8", 'Q').release(0, "d8").leave(0).clock(W).run();
        assert!(sans(&d).is_empty());
        assert_eq!(violations(&d), [("7.5.1", Some(W))]);
    }
}

#[cfg(test)]
mod art_4_6_3 {
    //! An opponent's piece on the promotion square must be captured.
    use crate::rules::testkit::*;

    const FEN: &str = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1";

    #[test]
    fn art_4_6_3_capturing_promotion_with_the_rook_removed() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "d8").lift(0, "e7").place_new(0, "d8", 'Q').release(0, "d8").leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["exd8=Q"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_6_3_new_piece_set_on_the_rook_left_there_is_a_breach() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "e7").place_new(0, "d8", 'Q').release(0, "d8").leave(0).clock(W)
            .run();
        assert!(sans(&d).is_empty());
        assert_eq!(violations(&d), [("4.6.3", Some(W)), ("7.5.1", Some(W))]);
    }
}
