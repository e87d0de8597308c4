//! Staged breaches: one breach of the Laws of a chosen kind, acted out on a given move, with the
//! violations the rules must report for it. Used by the property tests (one breach injected into
//! a clean game) and by scene generators.

use shakmaty::{Bitboard, CastlingSide, Chess, Move, Position, Role, Square};

use super::events::{MoveStyle, StreamWriter};
use crate::types::{Article, EventKind, HandId, Side};

/// The kinds of breach a stream can stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreachKind {
    /// Touches another own piece that can move, then makes the move (4.3.1).
    TouchOwn,
    /// Touches a capturable opponent's piece, then makes a non-capturing move (4.3.2).
    TouchOpponent,
    /// Castles rook first (4.4.2).
    RookFirst,
    /// Makes the move with two hands and presses the clock (4.1, 7.5.4).
    TwoHands,
    /// Presses the clock before moving (7.5.3).
    ClockWithoutMove,
    /// Makes an illegal move with the piece, presses the clock, restores, then moves (7.5.1).
    IllegalThenClock,
    /// Leaves the pawn on the last rank and presses the clock (7.5.2).
    PawnOnLastRank,
    /// The player not on move adjusts one of his pieces (4.2.1).
    AdjustNotOnMove,
    /// Knocks an own piece aside while moving and presses the clock without restoring it (7.4.1).
    Knocked,
    /// Releases the piece as the move, then moves it on and back (4.7).
    MovedOn,
}

impl BreachKind {
    pub const ALL: [BreachKind; 10] = [
        BreachKind::TouchOwn,
        BreachKind::TouchOpponent,
        BreachKind::RookFirst,
        BreachKind::TwoHands,
        BreachKind::ClockWithoutMove,
        BreachKind::IllegalThenClock,
        BreachKind::PawnOnLastRank,
        BreachKind::AdjustNotOnMove,
        BreachKind::Knocked,
        BreachKind::MovedOn,
    ];
}

fn simple(m: Move) -> bool {
    matches!(m, Move::Normal { capture: None, promotion: None, .. })
}

fn empty_squares(pos: &Chess, avoid: Bitboard) -> impl Iterator<Item = Square> + '_ {
    (!pos.board().occupied() & !avoid).into_iter()
}

/// Writes move `m` from `pos` with a breach of `kind` acted out, followed by the clock.
/// Returns the violations the rules must report (offender included), or `None` when this kind
/// cannot be staged on this move; then nothing is written.
pub fn stage(kind: BreachKind, pos: &Chess, m: Move, w: &mut StreamWriter) -> Option<Vec<(Article, Side)>> {
    let mover = pos.turn();
    let me: Side = mover.into();
    let legal = pos.legal_moves();
    let style = MoveStyle::default();
    let squares = crate::rules::move_squares(m);
    // Checkmate ends the game at once (5.1.1): what the mover does after a mating move (the
    // clock, moving the piece on) is not judged, so a breach that needs it cannot be staged.
    let mates = {
        let mut after = pos.clone();
        after.play_unchecked(m);
        after.is_checkmate()
    };
    // A new hand of the mover: `before` it, then the move, then it leaves and the clock.
    let with_hand = |w: &mut StreamWriter, before: &dyn Fn(&mut StreamWriter, HandId)| {
        let hand = w.new_hand();
        w.push(EventKind::HandEnter { hand, side: me });
        before(w, hand);
        w.acts(pos, m, hand, &style);
        w.push(EventKind::HandLeave { hand });
        w.push(EventKind::Clock { side: me });
    };
    let plain = |w: &mut StreamWriter| with_hand(w, &|_, _| {});
    match kind {
        BreachKind::TouchOwn => {
            if !simple(m) {
                return None;
            }
            let other = pos.us().into_iter().find(|&sq| {
                !squares.contains(sq)
                    && pos.board().role_at(sq) != Some(Role::King)
                    && legal.iter().any(|lm| lm.from() == Some(sq))
            })?;
            with_hand(w, &|w, hand| w.push(EventKind::Touch { hand, square: other }));
            Some(vec![(Article::A4_3_1, me)])
        }
        BreachKind::TouchOpponent => {
            if !simple(m) {
                return None;
            }
            let target = pos.them().into_iter().find(|&sq| legal.iter().any(|&lm| crate::rules::captured_square(lm) == Some(sq)))?;
            with_hand(w, &|w, hand| w.push(EventKind::Touch { hand, square: target }));
            Some(vec![(Article::A4_3_2, me)])
        }
        BreachKind::RookFirst => {
            let Move::Castle { king, rook } = m else { return None };
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            let hand = w.new_hand();
            w.push(EventKind::HandEnter { hand, side: me });
            w.carry(hand, rook, side.rook_to(mover));
            w.carry(hand, king, side.king_to(mover));
            w.push(EventKind::HandLeave { hand });
            w.push(EventKind::Clock { side: me });
            Some(vec![(Article::A4_4_2, me)])
        }
        BreachKind::TwoHands => {
            let (a, b) = (w.new_hand(), w.new_hand());
            w.push(EventKind::HandEnter { hand: a, side: me });
            w.push(EventKind::HandEnter { hand: b, side: me });
            match m {
                Move::Castle { king, rook } => {
                    let side = CastlingSide::from_king_side(rook.file() > king.file());
                    w.push(EventKind::Lift { hand: a, square: king });
                    w.push(EventKind::Lift { hand: b, square: rook });
                    w.carry_held(a, side.king_to(mover));
                    w.carry_held(b, side.rook_to(mover));
                }
                Move::Normal { from, to, .. } | Move::EnPassant { from, to } => {
                    if let Some(taken) = crate::rules::captured_square(m) {
                        w.push(EventKind::Lift { hand: b, square: taken });
                    }
                    w.push(EventKind::Lift { hand: a, square: from });
                    w.push(EventKind::Place { hand: b, square: to, piece: m.promotion(), color: None });
                    w.push(EventKind::Release { hand: b, square: to });
                }
                _ => return None,
            }
            w.push(EventKind::HandLeave { hand: a });
            w.push(EventKind::HandLeave { hand: b });
            w.push(EventKind::Clock { side: me });
            // 5.1.1 names Articles 3 and 4.2-4.7, not 4.1: a two-handed mate stands.
            if mates { Some(vec![(Article::A4_1, me)]) } else { Some(vec![(Article::A4_1, me), (Article::A7_5_4, me)]) }
        }
        BreachKind::ClockWithoutMove => {
            w.push(EventKind::Clock { side: me });
            plain(w);
            Some(vec![(Article::A7_5_3, me)])
        }
        BreachKind::IllegalThenClock => {
            let from = m.from()?;
            if !simple(m) {
                return None;
            }
            // Not a king's castling square where that castling is legal: the king set down
            // there is castling begun, and 4.7.2 would bind the move replacing it to castling.
            let wrong = empty_squares(pos, squares).find(|&sq| !legal.iter().any(|lm| lm.from() == Some(from) && crate::rules::destination(*lm) == sq))?;
            for (a, b) in [(from, wrong), (wrong, from)] {
                let hand = w.new_hand();
                w.push(EventKind::HandEnter { hand, side: me });
                w.carry(hand, a, b);
                w.push(EventKind::HandLeave { hand });
                if a == from {
                    w.push(EventKind::Clock { side: me });
                }
            }
            plain(w);
            Some(vec![(Article::A7_5_1, me)])
        }
        BreachKind::PawnOnLastRank => {
            let Move::Normal { from, to, promotion: Some(Role::Queen), capture, .. } = m else { return None };
            let hand = w.new_hand();
            w.push(EventKind::HandEnter { hand, side: me });
            if capture.is_some() {
                w.push(EventKind::Lift { hand, square: to });
            }
            w.push(EventKind::Lift { hand, square: from });
            w.push(EventKind::Place { hand, square: to, piece: None, color: None });
            w.push(EventKind::Release { hand, square: to });
            w.push(EventKind::HandLeave { hand });
            w.push(EventKind::Clock { side: me });
            Some(vec![(Article::A7_5_2, me)])
        }
        BreachKind::AdjustNotOnMove => {
            let theirs = pos.them().into_iter().next()?;
            let hand = w.new_hand();
            let them: Side = (!mover).into();
            w.push(EventKind::HandEnter { hand, side: them });
            w.carry(hand, theirs, theirs);
            w.push(EventKind::HandLeave { hand });
            plain(w);
            Some(vec![(Article::A4_2_1, them)])
        }
        BreachKind::Knocked => {
            // Its 7.4.1 falls at the clock, which after a mate is not judged.
            if !simple(m) || mates {
                return None;
            }
            let (victim, landing) = pos.us().into_iter().filter(|&sq| !squares.contains(sq) && pos.board().role_at(sq) != Some(Role::King)).find_map(|sq| {
                let near = shakmaty::attacks::king_attacks(sq) & !pos.board().occupied() & !squares;
                near.into_iter().next().map(|to| (sq, to))
            })?;
            // Set down and never released: knocked, not placed.
            with_hand(w, &|w, hand| {
                w.push(EventKind::Lift { hand, square: victim });
                w.push(EventKind::Place { hand, square: landing, piece: None, color: None });
            });
            Some(vec![(Article::A7_4_1, me)])
        }
        BreachKind::MovedOn => {
            if !simple(m) || mates {
                return None;
            }
            let to = m.to();
            let detour = empty_squares(pos, squares).next()?;
            let hand = w.new_hand();
            w.push(EventKind::HandEnter { hand, side: me });
            w.acts(pos, m, hand, &style);
            w.carry(hand, to, detour);
            w.carry(hand, detour, to);
            w.push(EventKind::HandLeave { hand });
            w.push(EventKind::Clock { side: me });
            Some(vec![(Article::A4_7, me)])
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position, Square, fen::Fen};

    use super::{BreachKind, stage};
    use crate::sim::events::StreamWriter;
    use crate::types::EventKind;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().expect("a FEN").into_position(shakmaty::CastlingMode::Standard).expect("legal")
    }

    /// Ke1-f1 with O-O legal: the illegal move acted out first is not the king set on g1,
    /// which is castling begun (the property tests' case, seed 4710089254891212888).
    #[test]
    fn an_illegal_king_move_is_not_set_on_a_castling_square() {
        let pos = position("rnb1kb1r/1ppp1p1p/5np1/p7/2P5/1P3N2/P2PBPPP/RNB1K2R w KQk - 1 8");
        let m = pos.legal_moves().into_iter().find(|m| m.from() == Some(Square::E1) && m.to() == Square::F1).expect("Kf1");
        let mut w = StreamWriter::new(30.0, 0.1);
        stage(BreachKind::IllegalThenClock, &pos, m, &mut w).expect("staged");
        let first = w.events.iter().find_map(|e| if let EventKind::Place { square, .. } = e.kind { Some(square) } else { None });
        assert!(first.is_some_and(|sq| sq != Square::G1 && sq != Square::C1), "{first:?}");
    }

    /// A piece knocked aside while mating is not staged: the game ended with the mate, and
    /// the 7.4.1 at the clock is not judged (the property tests' case, seed
    /// 9914557641019655866: Qh4#).
    #[test]
    fn no_knocked_piece_is_staged_on_a_mating_move() {
        let pos = position("rnb1kbnr/pppp1p1p/4p3/6q1/6P1/1P6/P1PPP2P/RNBQKBNR b KQkq - 0 4");
        let m = pos.legal_moves().into_iter().find(|m| m.from() == Some(Square::G5) && m.to() == Square::H4).expect("Qh4#");
        let mut w = StreamWriter::new(30.0, 0.1);
        assert!(stage(BreachKind::Knocked, &pos, m, &mut w).is_none());
        assert!(w.events.is_empty());
    }
}
