//! Doubt about what a square holds: hidden since it was last seen, or its change still being
//! confirmed. Setting a piece down waits on it where the piece may be on a square in doubt
//! rather than the one it seems set on — a tall piece's lean reads as a piece on the square
//! behind it, and the square the piece really stands on may show a frame later.

use shakmaty::{Color, Piece, Role, Square};

use super::{Act, Held, Tracker, can_stand, castling};
use crate::types::SquareState;

impl Tracker {
    /// Whether a square other than `to`, unseen since it was hidden or being seen emptied, holds
    /// a piece (of `colour`, if told) that could have gone to `to`.
    pub(super) fn source_in_doubt(&self, to: Square, colour: Option<Color>) -> bool {
        self.sources_in_doubt(to, colour).next().is_some()
    }

    /// The squares [`source_in_doubt`](Self::source_in_doubt) looks for.
    fn sources_in_doubt(&self, to: Square, colour: Option<Color>) -> impl Iterator<Item = Square> + '_ {
        Square::ALL.into_iter().filter(move |&s| s != to && self.in_doubt(s)).filter(move |&s| self.belief[usize::from(s)].is_some_and(|p| colour.is_none_or(|c| p.color == c) && can_stand(p, to) && self.could_reach(&p, s, to)))
    }

    /// Whether `held`, set down on `to`, cannot have gone there from where it was lifted while
    /// it can have gone to a square beside that may hold it now: one with a change to its colour
    /// still being confirmed, or one in doubt that hid a piece of the other side's it could take
    /// (see [`apply_acts`](Self::apply_acts)). Not an empty square merely in doubt: a piece
    /// wrongly taken to be in the hand (scholarsMate2019-11-18.avi, one hand moving for both
    /// sides) would wait there, and the move with it. Nor one that `later` acts of this same
    /// batch show set in the piece's colour, told by vision: its change is confirmed already, so
    /// no longer being confirmed (rendered game 440's 20... Qxd4: d4 read black and c4, the
    /// queen's lean, untold as the arm left, c4 dated first by the fingertips' stay; recorded
    /// Qb6-c4, a false 7.5.1).
    pub(super) fn leans_from_doubt(&self, held: &Held, to: Square, later: &[Act]) -> bool {
        let (piece, from) = (&held.piece, held.from);
        let own_look = SquareState::of(Some(*piece));
        let may_stand = |n: Square| {
            let victim_hidden = self.in_doubt(n) && self.belief[usize::from(n)].is_some_and(|p| p.color != piece.color);
            let shown = later.iter().any(|a| !a.lift && a.square == n && a.colour == Some(piece.color));
            self.turning(n, own_look) || victim_hidden || shown
        };
        to != from && !self.could_reach(piece, from, to) && shakmaty::attacks::king_attacks(to).into_iter().any(|n| n != from && may_stand(n) && self.could_reach(piece, from, n))
    }

    /// Whether `held`, whose lift was a guess (its square read empty with no fingertips near),
    /// cannot have gone to `to`, while a square hand `id` dwelt on, unseen since, holds one of
    /// the same player's pieces that could have: the hand set down what it grasped there, and
    /// the guess was a square misread (rendered game 155's 3. c4: h1's rook, in a bright spot
    /// of light, read empty as White's arm came in for the c2 pawn; the pawn set on c4 was
    /// taken for the rook, Rh1-c4, a false 7.5.1). The place is looked at again until that
    /// square shows.
    pub(super) fn guess_beside_grasp(&self, id: u32, held: &Held, to: Square) -> bool {
        let (piece, from) = (&held.piece, held.from);
        let grasped = |s: Square| self.rested_on(id, s).is_some();
        held.guessed.is_some() && !self.could_reach(piece, from, to) && self.sources_in_doubt(to, Some(piece.color)).any(|s| s != from && grasped(s))
    }

    /// Whether what stands on `sq` is in doubt: hidden since last seen, or seen empty a moment
    /// but not yet counted so.
    pub(super) fn in_doubt(&self, sq: Square) -> bool {
        let j = usize::from(sq);
        self.hidden_at[j] > self.seen_at[j] || self.turning(sq, SquareState::Empty)
    }

    /// Whether an arm was over `sq` a moment ago: what stands there shows in a moment.
    pub(super) fn just_uncovered(&self, sq: Square) -> bool {
        self.last_seen_t - self.covered_at[usize::from(sq)] < super::REVEAL_SECS
    }

    /// Whether `sq` has been read as `state` lately, other than it was last counted, and that
    /// change is still being confirmed.
    pub(super) fn turning(&self, sq: Square, state: SquareState) -> bool {
        let (seen, frames) = self.candidate[usize::from(sq)];
        seen == state && frames > 0
    }

    /// Whether the piece hand `id` set down on `to` may have come from either of two squares in
    /// doubt (hidden since last seen, or seen empty a moment but not yet counted so): which one
    /// it came from shows once they are seen, and any pick now is a guess (rendered game 100:
    /// 9. Bd3, the arm hiding f1 while d1's queen read empty a moment beside it, recorded Qd3).
    pub(super) fn unsure_source(&self, id: u32, to: Square, colour: Option<Color>, role: Option<Role>) -> bool {
        let Some(track) = self.hands.get(&id) else { return false };
        let colour = colour.unwrap_or(Color::from(track.side));
        let occupied = self.occupied();
        Square::ALL.into_iter().filter(|&s| s != to && self.in_doubt(s) && self.may_have_come(s, to, colour, role, occupied)).count() >= 2
    }

    /// Whether `piece`, from `from`, set down on `to` where vision could not tell its colour,
    /// may rather be the change to its colour still being confirmed on another square it could
    /// reach, which an arm uncovered a moment ago: a tall piece's lean reads untold more often
    /// than the piece itself, and may have read so before the arm came (rendered game 225's
    /// 17. Rd1: the queen on e2 leaning over e1 the whole time, e1 confirmed a frame before d1
    /// showed the rook white, recorded Re1). Not a castling's king, whose rook may show first.
    pub(super) fn shown_elsewhere(&self, piece: &Piece, from: Square, to: Square) -> bool {
        let own_look = SquareState::of(Some(*piece));
        let showing = |n: Square| self.turning(n, own_look) && self.just_uncovered(n);
        !castling(*piece, from, to) && Square::ALL.into_iter().any(|n| n != to && n != from && showing(n) && self.could_reach(piece, from, n))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{Reel, moved, read_as, without};
    use super::super::*;
    use crate::types::Observation;

    /// 1. d4 Nf6, then White's arm comes in over d1 for the c2 pawn; from the moment the
    /// fingertips reach c2, h1's rook, far from them, reads empty (a bright spot of light). The
    /// pawn is carried to c4 and set there while c2 is still under the arm, which then
    /// withdraws. With `back`, h1 reads as it is again after the arm has gone.
    fn c4_with_h1_misread(back: bool) -> (Board, Vec<Event>) {
        use Square::*;
        let start = moved(&Board::default(), &[(D2, D4), (G8, F6)]);
        let lifted = without(&start, &[C2]);
        let after = moved(&start, &[(C2, C4)]);
        let h1_empty = |o: &mut Observation| read_as(o, H1, SquareState::Empty);
        let mut reel = Reel::new(&start);
        reel.run(10, &start, None)
            .run(6, &start, Some((D1, &[C1, D1, E1])))
            .run_seen(30, &start, Some((C2, &[C1, D1, C2, D2])), h1_empty)
            .run_seen(10, &lifted, Some((C3, &[C1, D1, C2, D2, C3, D3])), h1_empty)
            .run_seen(12, &after, Some((C4, &[C1, D1, C2, D2, C3, D3, C4, D4])), h1_empty)
            .run_seen(10, &after, Some((C3, &[C1, D1, C2, D2, C3, D3])), h1_empty)
            .run_seen(8, &after, Some((D1, &[C1, D1, E1])), h1_empty)
            .run_seen(20, &after, None, h1_empty);
        if back {
            reel.run(60, &after, None);
        }
        reel.finish()
    }

    fn lifts(events: &[Event]) -> Vec<Square> {
        events.iter().filter_map(|e| if let EventKind::Lift { square, .. } = e.kind { Some(square) } else { None }).collect()
    }

    #[test]
    fn a_far_square_read_empty_as_a_hand_grasps_a_piece_is_not_what_the_hand_sets_down() {
        use Square::*;
        let (board, events) = c4_with_h1_misread(true);
        assert_eq!(board, moved(&Board::default(), &[(D2, D4), (G8, F6), (C2, C4)]), "{events:?}");
        assert_eq!(lifts(&events), [C2], "{events:?}");
    }

    /// While h1 still reads empty, the rook is one seen gone with no hand near: neither lifted
    /// by the arm nor set on c4.
    #[test]
    fn a_guess_the_hand_leaves_with_is_a_piece_seen_gone_with_no_hand_near() {
        use Square::*;
        let (board, events) = c4_with_h1_misread(false);
        assert_eq!(board.piece_at(C4), Some(Piece { color: Color::White, role: Role::Pawn }), "{events:?}");
        assert_eq!(lifts(&events), [C2], "{events:?}");
    }
}
