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
        Square::ALL.into_iter().filter(|&s| s != to && self.in_doubt(s)).any(|s| self.belief[usize::from(s)].is_some_and(|p| colour.is_none_or(|c| p.color == c) && can_stand(p, to) && self.could_reach(&p, s, to)))
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

    /// Whether what stands on `sq` is in doubt: hidden since last seen, or seen empty a moment
    /// but not yet counted so.
    pub(super) fn in_doubt(&self, sq: Square) -> bool {
        let j = usize::from(sq);
        self.hidden_at[j] > self.seen_at[j] || self.turning(sq, SquareState::Empty)
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
