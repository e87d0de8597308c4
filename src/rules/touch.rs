//! 4.2, 4.3, 4.5 — touched pieces bind the player having the move.
//!
//! Touches are kept in the order they happened; touches in the same instant (same `t` and
//! `frame`) are simultaneous, and then the player's own piece counts as touched first (4.3.3).
//! An unannounced adjustment is a touch (4.2.2); an announced one binds nothing (4.2.1).

use shakmaty::{Chess, Move, MoveList, Piece, Position, Square};

use super::Breach;
use super::castling;
use super::completion::{captured_square, long_name, piece_name};
use crate::types::Article;

/// A piece the player having the move touched (or lifted) with intent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touch {
    pub square: Square,
    pub piece: Piece,
    /// Touches sharing a group happened in the same instant.
    pub group: u32,
}

/// The touches in the order the Laws read them: by instant, own pieces first within one, each
/// square once, and only pieces that still stand where they were touched in the game position.
pub fn ordered(pos: &Chess, touches: &[Touch]) -> Vec<Touch> {
    let mover = pos.turn();
    let mut list: Vec<Touch> = touches
        .iter()
        .copied()
        .filter(|t| pos.board().piece_at(t.square) == Some(t.piece))
        .collect();
    list.sort_by_key(|t| (t.group, t.piece.color != mover));
    let mut seen = shakmaty::Bitboard::EMPTY;
    list.retain(|t| {
        let fresh = !seen.contains(t.square);
        seen.add(t.square);
        fresh
    });
    list
}

/// The squares move `m` takes the mover's pieces from: the king's and the rook's in castling.
pub fn moved_from(m: Move) -> shakmaty::Bitboard {
    match m {
        Move::Castle { king, rook } => shakmaty::Bitboard::from(king) | shakmaty::Bitboard::from(rook),
        _ => m.from().into_iter().collect(),
    }
}

pub fn can_move(legal: &MoveList, sq: Square) -> bool {
    legal.iter().any(|m| m.from() == Some(sq))
}

pub fn can_capture(legal: &MoveList, sq: Square) -> bool {
    legal.iter().any(|&m| captured_square(m) == Some(sq))
}

/// What the touches oblige, judged against the move made: the breach, if any.
pub fn breach(pos: &Chess, touches: &[Touch], m: Move) -> Option<Breach> {
    let list = ordered(pos, touches);
    if list.is_empty() {
        return None;
    }
    if let Some(verdict) = castling::king_and_rook(pos, &list, m) {
        return verdict;
    }
    let mover = pos.turn();
    let legal = pos.legal_moves();
    let simultaneous = list.len() > 1 && list[0].group == list[1].group;
    let confidence = if simultaneous { 0.9 } else { 1.0 };
    let first_own = list.iter().find(|t| t.piece.color == mover);
    let first_opp = list.iter().find(|t| t.piece.color != mover);
    let made = long_name(m);
    let fail = |article, detail: String| Some(Breach { article, detail, confidence });

    // The first touched piece of the player's own that can move, else the first opponent's
    // piece that can be taken: what 4.3.3 falls back to, and 4.3.1 / 4.3.2 alone.
    let first_bound = |own_only: bool| {
        list.iter().copied().find(|t| {
            if t.piece.color == mover { can_move(&legal, t.square) } else { !own_only && can_capture(&legal, t.square) }
        })
    };
    let honoured = |t: Touch| {
        if t.piece.color == mover { m.from() == Some(t.square) } else { captured_square(m) == Some(t.square) }
    };

    match (first_own, first_opp) {
        (Some(_), None) => match first_bound(true) {
            Some(t) if !honoured(t) => fail(
                Article::A4_3_1,
                format!("touched {} first, moved {made}: the first touched piece that can be moved must be moved", piece_name(t.piece, t.square)),
            ),
            _ => None, // honoured, or none of them can move: 4.5
        },
        (None, Some(_)) => match list.iter().copied().find(|t| can_capture(&legal, t.square)) {
            Some(t) if !honoured(t) => fail(
                Article::A4_3_2,
                format!("touched the opponent's {} first, moved {made}: it must be captured", piece_name(t.piece, t.square)),
            ),
            _ => None,
        },
        (Some(own), Some(opp)) if list[0].piece.color != mover => {
            // The opponent's piece came first and his own only after: the own contact is the
            // capture being carried out, so 4.3.2 binds — capture it with any piece.
            match list.iter().copied().filter(|t| t.piece.color != mover).find(|t| can_capture(&legal, t.square)) {
                Some(t) if !honoured(t) => fail(
                    Article::A4_3_2,
                    format!("touched the opponent's {} first, moved {made}: it must be captured", piece_name(t.piece, t.square)),
                ),
                Some(_) => None,
                None => match first_bound(false) {
                    Some(t) if !honoured(t) => fail(Article::A4_3_3, both_detail(own, opp, t, &made)),
                    _ => None,
                },
            }
        }
        (Some(own), Some(opp)) => {
            let takes = |lm: &Move| lm.from() == Some(own.square) && captured_square(*lm) == Some(opp.square);
            if legal.iter().any(takes) {
                if takes(&m) { None } else {
                    fail(Article::A4_3_3, format!(
                        "touched {} and the opponent's {}, moved {made}: the {} must take it",
                        piece_name(own.piece, own.square), piece_name(opp.piece, opp.square), piece_name(own.piece, own.square)
                    ))
                }
            } else {
                match first_bound(false) {
                    Some(t) if !honoured(t) => fail(Article::A4_3_3, both_detail(own, opp, t, &made)),
                    _ => None,
                }
            }
        }
        (None, None) => None,
    }
}

fn both_detail(own: &Touch, opp: &Touch, bound: Touch, made: &str) -> String {
    format!(
        "touched {} and the opponent's {}; that capture is illegal, so the first touched piece that can be moved or captured ({}) binds; moved {made}",
        piece_name(own.piece, own.square),
        piece_name(opp.piece, opp.square),
        piece_name(bound.piece, bound.square)
    )
}

#[cfg(test)]
mod art_4_3_1 {
    //! Touching his own pieces: the first touched that can be moved must be moved.
    use crate::rules::testkit::*;

    #[test]
    fn art_4_3_1_touched_knight_then_moved_a_pawn() {
        let d = Script::new().enter(0, W).touch(0, "g1").mv_with(0, "e2e4").clock(W).run();
        assert_eq!(sans(&d), ["e4"], "the move made stands in the record");
        assert_eq!(violations(&d), [("4.3.1", Some(W))]);
        assert!(detail_of(&d, "4.3.1").contains("Ng1"));
    }

    #[test]
    fn art_4_3_1_moving_the_touched_piece_is_no_breach() {
        let d = Script::new().enter(0, W).touch(0, "g1").touch(0, "b1").mv_with(0, "g1f3").clock(W).run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_3_1_the_first_touched_that_can_move_binds_not_a_later_one() {
        // The rook on a1 cannot move, so the knight touched after it binds.
        let d = Script::new().enter(0, W).touch(0, "a1").touch(0, "b1").mv_with(0, "e2e4").run();
        assert_eq!(violations(&d), [("4.3.1", Some(W))]);
        assert!(detail_of(&d, "4.3.1").contains("Nb1"));
    }

    #[test]
    fn art_4_3_1_a_move_read_from_the_board_alone_binds_no_touch() {
        // The knight touched, then a pawn move no hand was seen making (the next board shows
        // it): the pawn may have been in hand before the knight was touched, so no breach.
        let d = Script::new()
            .enter(0, W).touch(0, "g1").leave(0)
            .board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", true)
            .clock(W)
            .run();
        assert_eq!(sans(&d), ["e4"]);
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
        // The same with the hand seen taking the pawn after the touch: the breach stands.
        let d = Script::new().enter(0, W).touch(0, "g1").lift(0, "e2").place(0, "e4").release(0, "e4").leave(0).clock(W).run();
        assert_eq!(violations(&d), [("4.3.1", Some(W))]);
    }

    #[test]
    fn art_4_3_1_a_board_clear_of_hands_orders_a_touch_before_an_unseen_move() {
        // The knight touched, the hand withdrawn, and a board with no hand over it still shows
        // the e2 pawn at home: whatever the next arm did unseen, the pawn moved after the touch.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";
        let d = Script::new().enter(0, W).touch(0, "g1").leave(0).board(start, true).enter(1, W).leave(1).board(after, true).clock(W).run();
        assert_eq!(sans(&d), ["e4"]);
        assert_eq!(violations(&d), [("4.3.1", Some(W))]);
        assert!(detail_of(&d, "4.3.1").contains("Ng1"));
        // Seen while the touching hand was still over the board, the pawn at home proves
        // nothing: the board under an arm is the one last seen there.
        let d = Script::new().enter(0, W).touch(0, "g1").board(start, true).leave(0).board(after, true).clock(W).run();
        assert_eq!(sans(&d), ["e4"]);
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
        // Nor does a board that shows the pawn gone: the move and the touch are in no known order.
        let d = Script::new().enter(0, W).touch(0, "g1").enter(1, W).leave(0).leave(1).board(after, true).clock(W).run();
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
    }

    #[test]
    fn art_4_3_1_a_lifted_and_replaced_piece_still_binds() {
        let d = Script::new()
            .enter(0, W).lift(0, "g1").place(0, "g1").release(0, "g1").mv_with(0, "d2d4").run();
        assert_eq!(violations(&d), [("4.3.1", Some(W))]);
    }
}

#[cfg(test)]
mod art_4_3_2 {
    //! Touching the opponent's pieces: the first touched that can be captured must be captured.
    use crate::rules::testkit::*;

    fn scandi() -> Script {
        Script::new().mv("e2e4").mv("d7d5")
    }

    #[test]
    fn art_4_3_2_touched_a_capturable_pawn_and_did_not_take_it() {
        let d = scandi().enter(5, W).touch(5, "d5").mv_with(5, "g1f3").run();
        assert_eq!(violations(&d), [("4.3.2", Some(W))]);
    }

    #[test]
    fn art_4_3_2_taking_the_touched_piece_is_no_breach() {
        let d = scandi().enter(5, W).touch(5, "d5").mv_with(5, "e4d5").clock(W).run();
        assert!(violations(&d).is_empty());
        assert_eq!(sans(&d).last().unwrap(), "exd5");
    }

    /// A touch heard before several moves read from one board (the events missed their order):
    /// which move it came before is unknown, and none is bound by it. One move so read, whose
    /// origin the hand was seen at, still is (the test above, through the board's path).
    #[test]
    fn art_4_3_2_a_touch_before_a_line_of_moves_read_from_one_board_binds_none_of_them() {
        let start = || Script::new().mv("e2e4").mv("e7e5").mv("d1h5").mv("b8c6").board("r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR", true);
        let d = start()
            .enter(5, W).touch(5, "f7").lift(5, "f1")
            .board("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR", true)
            .leave(5)
            .board("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR", true)
            .run();
        assert_eq!(sans(&d)[4..], ["Bc4", "Nf6", "Qxf7#"], "{d:?}");
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
        let bc4 = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR";
        let d = start().enter(5, W).touch(5, "f7").lift(5, "f1").board(bc4, true).leave(5).board(bc4, true).run();
        assert_eq!(sans(&d)[4..], ["Bc4"]);
        assert_eq!(violations(&d), [("4.3.2", Some(W))]);
    }

    #[test]
    fn art_4_3_2_a_touched_piece_that_cannot_be_taken_binds_nothing() {
        let d = scandi().enter(5, W).touch(5, "a8").mv_with(5, "g1f3").run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_3_2_the_opponent_touching_your_piece_when_not_on_move_binds_nothing() {
        let d = scandi().enter(5, B).touch(5, "e4").leave(5).mv("g1f3").run();
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_4_3_3 {
    //! One piece of each colour: take the opponent's with his own; if that is illegal, the
    //! first touched that can be moved or captured; unclear order: his own counts first.
    use crate::rules::testkit::*;

    fn scandi() -> Script {
        Script::new().mv("e2e4").mv("d7d5")
    }

    #[test]
    fn art_4_3_3_touched_own_then_other_capture_must_be_made() {
        let d = scandi().enter(5, W).touch(5, "e4").touch(5, "d5").mv_with(5, "e4e5").run();
        assert_eq!(violations(&d), [("4.3.3", Some(W))]);
    }

    #[test]
    fn art_4_3_3_capture_made_as_touched_is_no_breach() {
        let d = scandi().enter(5, W).touch(5, "e4").touch(5, "d5").mv_with(5, "e4d5").run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_3_3_illegal_capture_then_first_touched_that_can_move() {
        // The knight on g1 cannot take d5: the knight, touched first, must move.
        let d = scandi().enter(5, W).touch(5, "g1").touch(5, "d5").mv_with(5, "e4d5").run();
        assert_eq!(violations(&d), [("4.3.3", Some(W))]);
        let ok = scandi().enter(5, W).touch(5, "g1").touch(5, "d5").mv_with(5, "g1f3").run();
        assert!(violations(&ok).is_empty());
    }

    #[test]
    fn art_4_3_3_simultaneous_touches_count_his_own_first() {
        // Same instant: the own knight counts first, so moving the knight is correct…
        let ok = scandi().enter(5, W).touch(5, "d5").at_same_time().touch(5, "g1").mv_with(5, "g1f3").run();
        assert!(violations(&ok).is_empty());
        // …and taking d5 with the pawn breaches 4.3.3, with less than full confidence.
        let d = scandi().enter(5, W).touch(5, "d5").at_same_time().touch(5, "g1").mv_with(5, "e4d5").run();
        assert_eq!(violations(&d), [("4.3.3", Some(W))]);
        assert!(confidence_of(&d, "4.3.3") < 1.0);
    }
}

#[cfg(test)]
mod art_4_5 {
    //! None of the touched pieces can be moved or captured: any legal move.
    use crate::rules::testkit::*;

    #[test]
    fn art_4_5_touched_pieces_that_cannot_move_leave_any_legal_move() {
        let d = Script::new().enter(0, W).touch(0, "a1").touch(0, "c1").touch(0, "d1").mv_with(0, "e2e4").run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_5_does_not_excuse_a_touched_piece_that_can_move() {
        let d = Script::new().enter(0, W).touch(0, "a1").touch(0, "a2").mv_with(0, "e2e4").run();
        assert_eq!(violations(&d), [("4.3.1", Some(W))]);
    }
}

#[cfg(test)]
mod art_4_2_1 {
    //! Only the player having the move may adjust, after saying so.
    use crate::rules::testkit::*;

    #[test]
    fn art_4_2_1_announced_adjustment_binds_nothing() {
        let d = Script::new()
            .announce(W).enter(0, W).lift(0, "g1").place(0, "g1").release(0, "g1").mv_with(0, "e2e4").clock(W)
            .run();
        assert!(violations(&d).is_empty());
        assert_eq!(adjusts(&d), [(W, "g1".to_owned())]);
    }

    #[test]
    fn art_4_2_1_an_announcement_outlasts_a_hand_that_touched_nothing() {
        let d = Script::new()
            .announce(W).enter(0, W).leave(0).enter(1, W).lift(1, "g1").place(1, "g1").release(1, "g1").mv_with(1, "e2e4").clock(W)
            .run();
        assert!(violations(&d).is_empty(), "{d:?}");
        assert_eq!(adjusts(&d), [(W, "g1".to_owned())]);
    }

    #[test]
    fn art_4_2_1_an_announcement_covers_one_hands_adjusting_only() {
        let d = Script::new()
            .announce(W).enter(0, W).lift(0, "b1").place(0, "b1").release(0, "b1").leave(0)
            .enter(1, W).lift(1, "g1").place(1, "g1").release(1, "g1").mv_with(1, "e2e4").clock(W)
            .run();
        assert_eq!(violations(&d), [("4.3.1", Some(W))], "{d:?}");
    }

    #[test]
    fn art_4_2_1_a_piece_lifted_under_the_announcement_and_moved_was_touched() {
        // The announcement outlasts a hand that touched nothing seen; the king is carried off
        // under it by one hand and set down on g1 by the next, the rook moved by a third.
        let d = Script::from_fen(CASTLE_FEN)
            .announce(W).enter(0, W).leave(0)
            .enter(1, W).lift(1, "e1").leave(1)
            .enter(2, W).place_new(2, "g1", 'K').release(2, "g1").leave(2)
            .enter(3, W).lift(3, "h1").place(3, "f1").release(3, "f1").leave(3).clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "king first: {d:?}");
        // Begun with the rook under the announcement: still castling begun with the rook.
        let d = Script::from_fen(CASTLE_FEN)
            .announce(W).enter(0, W).leave(0)
            .enter(1, W).lift(1, "h1").place(1, "f1").release(1, "f1").lift(1, "e1").place(1, "g1").release(1, "g1").leave(1).clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert_eq!(violations(&d), [("4.4.2", Some(W))], "{d:?}");
    }

    #[test]
    fn art_4_2_1_a_king_adjusted_then_castled_unseen_binds_no_touch_of_its_rook() {
        // The king's touch under the announcement shows only that he adjusted it; its lift went
        // unseen, so whether the rook came first is unknown (as with no touch of the king).
        let castled = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1";
        let d = Script::from_fen(CASTLE_FEN)
            .announce(W).enter(0, W).touch(0, "e1").lift(0, "h1").leave(0).board(castled, true).clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "{d:?}");
        // Touched without the announcement, the king came first: still no breach.
        let d = Script::from_fen(CASTLE_FEN).enter(0, W).touch(0, "e1").lift(0, "h1").leave(0).board(castled, true).clock(W).run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "{d:?}");
        // (A king seen lifted under the announcement was in hand: see the test below, begun
        // with the rook.)
    }

    #[test]
    fn art_4_2_1_a_piece_adjusted_under_the_announcement_binds_nothing_though_lifted_first() {
        let d = Script::from_fen(CASTLE_FEN)
            .announce(W).enter(0, W).lift(0, "a1").place(0, "a1").release(0, "a1").leave(0)
            .enter(1, W).lift(1, "e1").place(1, "g1").release(1, "g1").lift(1, "h1").place(1, "f1").release(1, "f1").leave(1).clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "{d:?}");
    }

    const CASTLE_FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn art_4_2_1_adjusting_when_not_on_move_is_a_breach_announced_or_not() {
        for announced in [false, true] {
            let mut s = Script::new();
            if announced {
                s = s.announce(B);
            }
            let d = s.enter(3, B).lift(3, "e7").place(3, "e7").release(3, "e7").leave(3).mv("e2e4").run();
            assert_eq!(violations(&d), [("4.2.1", Some(B))], "announced: {announced}");
            assert_eq!(adjusts(&d), [(B, "e7".to_owned())]);
        }
    }

    #[test]
    fn art_4_2_1_a_touch_by_the_player_not_on_move_is_no_breach() {
        let d = Script::new().enter(3, B).touch(3, "e7").leave(3).mv("e2e4").run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_2_1_a_touch_after_saying_j_adoube_when_not_on_move_is_adjusting() {
        // The knight raised and set back under the hand, the camera seeing only the fingers
        // resting on it: he said he adjusts, and did.
        let d = Script::new().announce(B).enter(3, B).touch(3, "b8").leave(3).mv("e2e4").run();
        assert_eq!(violations(&d), [("4.2.1", Some(B))], "{d:?}");
        assert_eq!(adjusts(&d), [(B, "b8".to_owned())]);
    }

    #[test]
    fn art_4_2_1_an_adjustment_off_move_seen_whole_after_j_adoube_is_one_breach() {
        let d = Script::new().announce(B).enter(3, B).touch(3, "b8").lift(3, "b8").place(3, "b8").release(3, "b8").leave(3).mv("e2e4").run();
        assert_eq!(violations(&d), [("4.2.1", Some(B))], "{d:?}");
        assert_eq!(adjusts(&d), [(B, "b8".to_owned())]);
    }
}

#[cfg(test)]
mod art_4_2_2 {
    //! Any other contact counts as intentional: an unannounced adjustment is a touch.
    use crate::rules::testkit::*;

    #[test]
    fn art_4_2_2_unannounced_adjustment_counts_as_a_touch() {
        let d = Script::new()
            .enter(0, W).lift(0, "g1").place(0, "g1").release(0, "g1").mv_with(0, "e2e4").run();
        assert_eq!(adjusts(&d), [(W, "g1".to_owned())]);
        assert_eq!(violations(&d), [("4.3.1", Some(W))]);
    }

    #[test]
    fn art_4_2_2_unannounced_adjustment_then_moving_that_piece_is_fine() {
        let d = Script::new()
            .enter(0, W).lift(0, "g1").place(0, "g1").release(0, "g1").mv_with(0, "g1f3").run();
        assert!(violations(&d).is_empty());
    }
}
