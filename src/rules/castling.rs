//! 3.8.2, 4.4.1–4.4.3, 4.7.2 — castling: one king move, made when the rook is released on the
//! square the king crossed; touching king and rook binds to castle; touching the rook first
//! forbids it; a king released on its castling square allows only that castling.

use shakmaty::{CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::Breach;
use super::physical::Held;
use super::touch::Touch;
use crate::types::{Article, HandId};

/// `sq` as seen from `color`'s side: a1 for White is a8 for Black.
pub fn relative(sq: Square, color: Color) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

pub fn king_home(color: Color) -> Square {
    relative(Square::E1, color)
}

/// The castling side of a rook on its own corner square.
pub fn corner_side(color: Color, sq: Square) -> Option<CastlingSide> {
    if sq == relative(Square::A1, color) {
        Some(CastlingSide::QueenSide)
    } else if sq == relative(Square::H1, color) {
        Some(CastlingSide::KingSide)
    } else {
        None
    }
}

/// Which piece a hand holding its king from e1 and a rook from a corner at once sets down on
/// `sq`: the king on its castling square, the rook on the one beside it (both lifted before
/// either is set down, or the acts told together as the arm uncovered them). Nothing is
/// preferred otherwise.
pub fn piece_for(held: &[Held], hand: HandId, side: Color, sq: Square) -> impl Fn(&Held) -> bool + use<> {
    let holds = |role: Role, from: &dyn Fn(Square) -> bool| held.iter().any(|h| h.hand == hand && h.piece == Piece { color: side, role } && h.origin.is_some_and(from));
    let both = holds(Role::King, &|o| o == king_home(side)) && holds(Role::Rook, &|o| corner_side(side, o).is_some());
    let want = [CastlingSide::KingSide, CastlingSide::QueenSide].into_iter().filter(|_| both).find_map(|cs| {
        if sq == cs.king_to(side) {
            Some(Role::King)
        } else if sq == cs.rook_to(side) {
            Some(Role::Rook)
        } else {
            None
        }
    });
    move |h: &Held| want == Some(h.piece.role)
}

fn castle(pos: &Chess, side: CastlingSide) -> Option<Move> {
    pos.legal_moves().into_iter().find(|m| m.castling_side() == Some(side))
}

fn king_moves_exist(pos: &Chess) -> bool {
    pos.legal_moves().iter().any(|m| m.role() == Role::King)
}

fn side_name(side: CastlingSide) -> &'static str {
    if side.is_king_side() { "kingside" } else { "queenside" }
}

/// 4.4.1–4.4.3 when the touches include the king on its home square and a rook on a corner:
/// `Some(verdict)` when 4.4 governs, `None` to leave it to 4.3.
pub fn king_and_rook(pos: &Chess, touches: &[Touch], m: Move) -> Option<Option<Breach>> {
    let mover = pos.turn();
    let king = touches.iter().position(|t| t.piece.color == mover && t.piece.role == Role::King && t.square == king_home(mover))?;
    let (rook, side) = touches.iter().enumerate().find_map(|(i, t)| {
        let own_rook = t.piece.color == mover && t.piece.role == Role::Rook;
        own_rook.then(|| corner_side(mover, t.square)).flatten().map(|s| (i, s))
    })?;
    let same_instant = touches[king].group == touches[rook].group;
    if king < rook || same_instant {
        let confidence = if same_instant { 0.8 } else { 1.0 };
        let verdict = match castle(pos, side) {
            Some(c) if m != c => Some(Breach {
                article: Article::A4_4_1,
                detail: format!("touched the king and then the rook on {}: he must castle {}", touches[rook].square, side_name(side)),
                confidence,
            }),
            Some(_) => None,
            None if m.role() != Role::King && king_moves_exist(pos) => Some(Breach {
                article: Article::A4_4_3,
                detail: format!(
                    "touched the king and then the rook on {} to castle, which is illegal: he must make another king move",
                    touches[rook].square
                ),
                confidence,
            }),
            None => None,
        };
        return Some(verdict);
    }
    // The rook came first: castling on that side is barred (4.4.2) and 4.3.1 governs the rest.
    (m.castling_side() == Some(side)).then(|| {
        Some(Breach {
            article: Article::A4_4_2,
            detail: format!("touched the rook on {} before the king: he may not castle {} on this move", touches[rook].square, side_name(side)),
            confidence: 1.0,
        })
    })
}

/// The castling side whose landing square a king was released on, coming from home.
pub fn landing(pos: &Chess, origin: Option<Square>, dest: Square) -> Option<CastlingSide> {
    let mover = pos.turn();
    if origin != Some(king_home(mover)) {
        return None;
    }
    [CastlingSide::KingSide, CastlingSide::QueenSide].into_iter().find(|s| s.king_to(mover) == dest)
}

/// 4.7.2: once the king is released on a castling square, only that castling, else another
/// king move, else any move.
pub fn released_king(pos: &Chess, side: Option<CastlingSide>, m: Move) -> Option<Breach> {
    let side = side?;
    match castle(pos, side) {
        Some(c) if m != c => Some(Breach {
            article: Article::A4_7_2,
            detail: format!("released the king on its {} castling square: only castling {} was allowed", side_name(side), side_name(side)),
            confidence: 1.0,
        }),
        None if m.role() != Role::King && king_moves_exist(pos) => Some(Breach {
            article: Article::A4_7_2,
            detail: format!("released the king on its {} castling square, where castling is illegal: another king move was required", side_name(side)),
            confidence: 1.0,
        }),
        _ => None,
    }
}

/// 4.7.2: the board as it stands mid-castling — the king set down on a castling square, that
/// rook still in its corner, all else as the position has it (squares in `masked` aside).
/// Castling is made only when the rook is released, so this is no move yet and nothing
/// displaced: the side it was begun on, where castling there is legal.
pub fn king_set_alone(pos: &Chess, board: &shakmaty::Board, masked: shakmaty::Bitboard) -> Option<CastlingSide> {
    let mover = pos.turn();
    let king = shakmaty::Piece { color: mover, role: Role::King };
    [CastlingSide::KingSide, CastlingSide::QueenSide].into_iter().find(|&side| {
        if castle(pos, side).is_none() {
            return false;
        }
        let mut half = pos.board().clone();
        half.discard_piece_at(king_home(mover));
        half.set_piece_at(side.king_to(mover), king);
        (super::completion::diff(&half, board) & !masked).is_empty()
    })
}

/// A rook move from its corner to the square a castling king crosses, with the king at home
/// and the right still there: the start of castling begun with the rook, or a plain rook move.
/// Only what the same player does next tells which.
pub fn rook_first_shape(pos: &Chess, m: Move) -> bool {
    let mover = pos.turn();
    let Move::Normal { role: Role::Rook, from, to, capture: None, .. } = m else { return false };
    let Some(side) = corner_side(mover, from) else { return false };
    to == side.rook_to(mover)
        && pos.board().piece_at(king_home(mover)) == Some(shakmaty::Piece { color: mover, role: Role::King })
        && pos.castles().has(mover, side)
}

/// Half of a castling, named with the other piece: the rook from its corner onto the king's
/// castling square, or the king from home onto the rook's, while that castling is legal. An arm
/// that hides the king's squares may leave the tracker naming the two pieces of a castling the
/// other way round (the king set on g1 unseen, the rook's setting down on f1 taken for the
/// king's; rendered game 425's 17. O-O recorded as Rg1 and then Kf1, a 7.4.1). As a move it
/// is rare; the next board seen with no hand at work tells which it was.
pub fn misnamed_shape(pos: &Chess, m: Move) -> bool {
    let mover = pos.turn();
    let Move::Normal { role, from, to, capture: None, .. } = m else { return false };
    [CastlingSide::KingSide, CastlingSide::QueenSide].into_iter().any(|side| {
        let shape = match role {
            Role::Rook => corner_side(mover, from) == Some(side) && to == side.king_to(mover),
            Role::King => from == king_home(mover) && to == side.rook_to(mover),
            _ => false,
        };
        shape && castle(pos, side).is_some()
    })
}

#[cfg(test)]
mod art_3_8_2 {
    //! Castling is one king move, recorded king-to-destination.
    use crate::rules::testkit::*;

    const FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn art_3_8_2_king_then_rook_is_one_move() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "e1").place(0, "g1").release(0, "g1").lift(0, "h1").place(0, "f1").release(0, "f1").leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert_eq!(ucis(&d), ["e1g1"]);
        assert!(violations(&d).is_empty());
    }

    /// King and rook both in hand before either is set down (or told so, lifted together as
    /// the arm uncovered them): the king goes to its castling square and the rook beside it,
    /// whichever was lifted last and set down first (rendered game 250's 5... O-O, told so,
    /// recorded Rg8 and a displaced king).
    #[test]
    fn art_3_8_2_king_and_rook_both_in_hand_is_castling() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "e1").lift(0, "h1").place(0, "g1").release(0, "g1").place(0, "f1").release(0, "f1").leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "{d:?}");
        let d = Script::from_fen(FEN).mv("a2a3")
            .enter(1, B).lift(1, "a8").lift(1, "e8").place(1, "d8").release(1, "d8").place(1, "c8").release(1, "c8").leave(1).clock(B)
            .run();
        assert_eq!(ucis(&d), ["a2a3", "e8c8"]);
    }

    /// The king's release told only after the rook's lift (both squares uncovered at once as
    /// the arm withdrew): the king was let go, not dropped, and its touch still came first
    /// (rendered game 250's 9. O-O with arms kept on, a false 4.3.1).
    #[test]
    fn art_3_8_2_the_king_s_release_told_after_the_rook_s_lift_is_still_castling() {
        let d = Script::from_fen(FEN)
            .enter(0, W).touch(0, "e1").lift(0, "e1").place(0, "g1").lift(0, "h1").place(0, "f1").release(0, "f1").release(0, "g1").leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "{d:?}");
    }

    #[test]
    fn art_3_8_2_king_alone_on_g1_is_not_a_move() {
        let d = Script::from_fen(FEN).enter(0, W).lift(0, "e1").place(0, "g1").release(0, "g1").run();
        assert!(sans(&d).is_empty());
    }

    /// The tracker's naming of a castling made under an arm that hid the king's squares: the
    /// rook's half told as the rook set on g1, or the king's as the king set on f1, and then a
    /// board with no hand over it showing the two squares taken the other way round.
    const MISNAMED: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4KR1";

    #[test]
    fn art_3_8_2_a_castling_told_with_its_pieces_named_the_other_way_round_is_castling() {
        for (from, to) in [("h1", "g1"), ("e1", "f1")] {
            let d = Script::from_fen(FEN).enter(0, W).lift(0, from).place(0, to).release(0, to).leave(0).board(MISNAMED, true).clock(W).run();
            assert_eq!(sans(&d), ["O-O"], "{from}-{to}: {d:?}");
            assert!(violations(&d).is_empty(), "{from}-{to}: {d:?}");
        }
    }

    /// Rh1-g1 and Ke1-f1 made as moves: recorded at their release, whether a board shows them
    /// or the clock and the opponent's move come first.
    #[test]
    fn art_3_8_2_a_rook_onto_the_kings_castling_square_is_a_rook_move_when_the_board_shows_one() {
        for (from, to, board, san) in [("h1", "g1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K1R1", "Rg1"), ("e1", "f1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R", "Kf1")] {
            let script = Script::from_fen(FEN).enter(0, W).lift(0, from).place(0, to).release(0, to);
            let released = script.events().last().map(|e| e.t).unwrap();
            for s in [script.clone().leave(0).board(board, true).clock(W).mv("a7a6"), script.leave(0).clock(W).mv("a7a6")] {
                let d = s.run();
                assert_eq!(sans(&d), [san, "a6"], "{d:?}");
                assert_eq!(move_times(&d)[0], released, "{d:?}");
                assert!(violations(&d).is_empty(), "{d:?}");
            }
        }
    }

    #[test]
    fn art_3_8_2_queenside_castling_records_e8c8() {
        let d = Script::from_fen(FEN).mv("a2a3")
            .enter(1, B).lift(1, "e8").place(1, "c8").release(1, "c8").lift(1, "a8").place(1, "d8").release(1, "d8").leave(1)
            .run();
        assert_eq!(ucis(&d), ["a2a3", "e8c8"]);
    }
}

#[cfg(test)]
mod art_3_8_2_1 {
    //! Castling rights are lost for good once the king or that rook has moved.
    use crate::rules::testkit::*;

    #[test]
    fn art_3_8_2_1_castling_after_the_king_moved_is_illegal() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w kq - 0 1";
        let d = Script::from_fen(fen)
            .enter(0, W).lift(0, "e1").place(0, "g1").release(0, "g1").lift(0, "h1").place(0, "f1").release(0, "f1").leave(0)
            .run();
        assert!(sans(&d).is_empty());
        assert_eq!(warning_articles(&d), ["3.8.2.1"]);
        let d = Script::from_fen(fen)
            .enter(0, W).lift(0, "e1").place(0, "g1").release(0, "g1").lift(0, "h1").place(0, "f1").release(0, "f1").leave(0).clock(W)
            .run();
        assert_eq!(violations(&d), [("7.5.1", Some(W))]);
        assert!(detail_of(&d, "7.5.1").contains("3.8.2.1"));
    }

    #[test]
    fn art_3_8_2_1_castling_with_the_rights_intact_is_legal() {
        let d = Script::from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1").mv("e1g1").clock(W).run();
        assert_eq!(sans(&d), ["O-O"]);
    }
}

#[cfg(test)]
mod art_3_8_2_2 {
    //! Castling is prevented while the king's squares are attacked or a piece stands between.
    use crate::rules::testkit::*;

    #[test]
    fn art_3_8_2_2_castling_through_an_attacked_square_is_illegal() {
        let fen = "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1";
        let d = Script::from_fen(fen)
            .enter(0, W).lift(0, "e1").place(0, "g1").release(0, "g1").lift(0, "h1").place(0, "f1").release(0, "f1").leave(0).clock(W)
            .run();
        assert!(sans(&d).is_empty());
        assert_eq!(warning_articles(&d), ["3.8.2.2"]);
        assert_eq!(violations(&d), [("7.5.1", Some(W))]);
    }

    #[test]
    fn art_3_8_2_2_castling_when_nothing_attacks_the_path_is_legal() {
        let d = Script::from_fen("4k3/8/8/8/8/8/r7/4K2R w K - 0 1").mv("e1g1").run();
        assert_eq!(sans(&d), ["O-O"]);
    }
}

#[cfg(test)]
mod art_4_4_1 {
    //! Touching his king and a rook: he must castle on that side if it is legal.
    use crate::rules::testkit::*;

    const FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn art_4_4_1_king_and_rook_touched_then_a_king_move_instead() {
        let d = Script::from_fen(FEN).enter(0, W).touch(0, "e1").touch(0, "h1").mv_with(0, "e1f1").run();
        assert_eq!(violations(&d), [("4.4.1", Some(W))]);
    }

    #[test]
    fn art_4_4_1_king_and_rook_touched_then_castling_is_fine() {
        let d = Script::from_fen(FEN).enter(0, W).touch(0, "e1").touch(0, "h1").mv_with(0, "e1g1").run();
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_4_4_2 {
    //! Rook first, then king: no castling on that side on this move.
    use crate::rules::testkit::*;

    const FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn art_4_4_2_castling_begun_with_the_rook_is_one_move_and_a_breach() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "h1").place(0, "f1").release(0, "f1").lift(0, "e1").place(0, "g1").release(0, "g1").leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"], "not two moves");
        assert_eq!(violations(&d), [("4.4.2", Some(W))]);
    }

    #[test]
    fn art_4_4_2_a_rook_touched_before_a_castling_read_from_the_board_is_no_breach() {
        // The rook touched while the king's own lift went unseen: which came first is unknown.
        let d = Script::from_fen(FEN)
            .enter(0, W).touch(0, "h1").leave(0)
            .board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", true)
            .clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
    }

    #[test]
    fn art_4_4_2_a_plain_rook_move_from_the_corner_is_recorded_as_such() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "h1").place(0, "f1").release(0, "f1").leave(0).clock(W).mv("a7a6")
            .run();
        assert_eq!(sans(&d), ["Rf1", "a6"]);
        assert!(violations(&d).is_empty());
        // Decided with the time of its release, not when the hand left.
        let release_t = 0.4;
        assert!((move_times(&d)[0] - release_t).abs() < 1e-9, "{:?}", move_times(&d));
    }

    /// The arm lost by vision for a moment after the rook was released on f1, the king's
    /// move then told by the board alone: one castling, not Rf1 and a displaced king. Which of
    /// the two the player touched first is not known (the king's touch went unseen).
    #[test]
    fn art_4_4_2_castling_begun_with_the_rook_and_the_arm_lost_between_is_one_move() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "h1").place(0, "f1").release(0, "f1").leave(0)
            .enter(1, W).leave(1)
            .board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", true)
            .clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"], "{d:?}");
        assert!(violations(&d).is_empty() && warnings(&d).is_empty(), "{d:?}");
    }

    /// A plain rook move to f1 with no hand left over the board waits for what comes next, and
    /// is recorded with the time of its release once the other side's reply, told by the board
    /// alone, shows it stood.
    #[test]
    fn art_4_4_2_a_rook_move_held_back_stands_once_the_board_shows_the_reply() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "h1").place(0, "f1").release(0, "f1").leave(0)
            .board("r3k2r/1ppppppp/p7/8/8/8/PPPPPPPP/R3KR2", true)
            .run();
        assert_eq!(sans(&d), ["Rf1", "a6"], "{d:?}");
        assert!(violations(&d).is_empty() && warnings(&d).is_empty(), "{d:?}");
        let release_t = 0.4;
        assert!((move_times(&d)[0] - release_t).abs() < 1e-9, "{:?}", move_times(&d));
    }

    #[test]
    fn art_4_4_2_rook_then_king_touched_and_the_rook_moved_is_fine() {
        let d = Script::from_fen(FEN).enter(0, W).touch(0, "h1").touch(0, "e1").mv_with(0, "h1g1").run();
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_4_4_3 {
    //! King then rook when castling that side is illegal: another king move, if there is one.
    use crate::rules::testkit::*;

    // The f-file rook attacks f1: kingside castling is illegal, Kd1/Kd2 and O-O-O are not.
    const FEN: &str = "4k3/8/8/8/8/8/PPP2rPP/R3K2R w KQ - 0 1";

    #[test]
    fn art_4_4_3_illegal_castling_touched_then_a_non_king_move() {
        let d = Script::from_fen(FEN).enter(0, W).touch(0, "e1").touch(0, "h1").mv_with(0, "a2a3").run();
        assert_eq!(violations(&d), [("4.4.3", Some(W))]);
    }

    #[test]
    fn art_4_4_3_another_king_move_including_castling_the_other_way_is_fine() {
        for uci in ["e1d1", "e1c1"] {
            let d = Script::from_fen(FEN).enter(0, W).touch(0, "e1").touch(0, "h1").mv_with(0, uci).run();
            assert!(violations(&d).is_empty(), "{uci}");
        }
    }
}

#[cfg(test)]
mod art_4_7_2 {
    //! Castling is made when the rook is released; a king released on its castling square
    //! allows only that castling (or another king move where it is illegal).
    use crate::rules::testkit::*;

    const FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn art_4_7_2_king_released_on_g1_then_taken_back_to_play_another_move() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "e1").place(0, "g1").release(0, "g1").lift(0, "g1").place(0, "f1").release(0, "f1").leave(0)
            .run();
        assert_eq!(sans(&d), ["Kf1"]);
        assert!(violations(&d).iter().any(|v| v.0 == "4.7.2"));
    }

    #[test]
    fn art_4_7_2_castling_not_made_until_the_rook_is_released() {
        let s = Script::from_fen(FEN).enter(0, W).lift(0, "e1").place(0, "g1").release(0, "g1").lift(0, "h1").place(0, "f1");
        assert!(sans(&s.run()).is_empty());
        assert_eq!(sans(&s.release(0, "f1").run()), ["O-O"]);
    }

    /// The king seen on g1 by a board snapshot alone (the arm lost between king and rook),
    /// then the rook on f1: castling under way, then made — no 7.6 for the king "displaced".
    #[test]
    fn art_4_7_2_a_board_showing_the_king_set_down_alone_is_castling_under_way() {
        let d = Script::from_fen(FEN)
            .board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", true)
            .board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R5KR", true)
            .board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", true)
            .clock(W)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
        assert!(warnings(&d).is_empty(), "{:?}", warnings(&d));
    }

    /// The same king on g1 then back home, and another move played: 4.7.2, as with the hand seen.
    #[test]
    fn art_4_7_2_a_king_seen_on_its_castling_square_binds_to_castle() {
        let d = Script::from_fen(FEN)
            .board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", true)
            .board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R5KR", true)
            .board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", true)
            .mv("a2a3")
            .run();
        assert_eq!(sans(&d), ["a3"]);
        assert_eq!(violations(&d), [("4.7.2", Some(W))]);
    }

    /// A king two squares from home where castling is illegal (the f-file rook attacks f1) is
    /// not castling under way: it is called what it is.
    #[test]
    fn art_4_7_2_a_king_on_g1_where_castling_is_illegal_is_no_castling_under_way() {
        let d = Script::from_fen("4k3/8/8/8/8/8/PPP2rPP/R3K2R w KQ - 0 1")
            .board("4k3/8/8/8/8/8/PPP2rPP/R3K2R", true)
            .board("4k3/8/8/8/8/8/PPP2rPP/R5KR", true)
            .run();
        assert!(sans(&d).is_empty());
        assert_eq!(violations(&d).len() + warnings(&d).len(), 1, "{d:?}");
    }

    #[test]
    fn art_4_7_2_castling_illegal_so_another_king_move_is_fine() {
        let d = Script::from_fen("4k3/8/8/8/8/8/PPP2rPP/R3K2R w KQ - 0 1")
            .enter(0, W).lift(0, "e1").place(0, "g1").release(0, "g1").lift(0, "g1").place(0, "d1").release(0, "d1").leave(0)
            .run();
        assert_eq!(sans(&d), ["Kd1"]);
        assert!(violations(&d).is_empty());
    }
}
