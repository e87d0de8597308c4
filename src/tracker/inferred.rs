//! Lifts inferred from where a hand dwelt: a piece set down by a hand that holds none came
//! from a square the arm still hides, the one it grasped last. Which squares count as grasps,
//! and when setting a second piece down waits for such a square to show.

use shakmaty::{Color, Role, Square};

use super::{Held, Tracker, Visit};
use crate::types::{EventKind, HandId, SquareState};

/// A stay counts as where a hand grasped the piece it set down if it lasted at least this share
/// of the hand's longest stay over any piece that could have come: resting on a piece takes
/// time, passing over one on the way less, though an arm reaching slowly may linger as long.
const GRASP_SHARE: f64 = 0.5;

impl Tracker {
    /// A piece set down by a hand that holds none came from a square the arm still hides: the
    /// one of that colour (the hand's player's where vision could not tell it; and type, if
    /// vision named it) the hand dwelt on last before setting it down, of the stays nearly as
    /// long as its longest, from where that piece could reach the square: a hand reaching past
    /// a pawn to the knight behind it may rest as long over the pawn on its way, but it grasps
    /// the knight last (rendered game 85: 2. Nf3 read as 2. f3). Its lift is written now, timed
    /// by that dwell; when the square is uncovered and seen empty, nothing more happens.
    pub(super) fn lift_unseen(&mut self, id: u32, to: Square, colour: Option<Color>, role: Option<Role>) -> Option<Held> {
        let grasped = self.grasps(id, to, colour, role).into_iter().max_by(|a, b| a.1.end.1.total_cmp(&b.1.end.1));
        let (from, visit) = match grasped {
            Some(g) => g,
            None => {
                let (from, visit) = self.touched_under_a_lean(id, to, colour, role)?;
                // What reads there from now on is the lean, not the piece.
                let j = usize::from(from);
                self.leaned_over[j] = self.belief[j].map(|p| (p.color, self.last_seen_t));
                (from, visit)
            }
        };
        let piece = self.belief[usize::from(from)].take()?;
        // Lifted by an arm gone, that stayed there longer: it passed the piece on.
        if let Some(at) = self.gone_lifted(from, Some(visit)) {
            return Some(self.held(piece, at, from, at.1, None));
        }
        let hand = HandId(self.hands.get(&id).map_or(id, |t| t.event_id));
        // A rest beside it that began as the fingertips left it, still waiting to be written,
        // was the hand rising with this piece; so was one where the fingertips, seen a square
        // off, grasped it (see [`grasped_beside`](Self::grasped_beside)).
        let off = self.grasped_beside(id, from, visit.end, self.seen_at[usize::from(from)]);
        self.take_back_touches(hand, from, off, visit.end.1);
        self.emit(visit.end, EventKind::Lift { hand, square: from });
        Some(self.held(piece, visit.end, from, visit.end.1, None))
    }

    /// Whether hand `id`, which set a piece down beside `to` already, would take the piece now
    /// set on `to` from a square still in doubt (see [`lift_unseen`](Self::lift_unseen)).
    /// Only a piece of the colour of one it set down beside `to` is waited for (one player's
    /// hand may move for both sides: scholarsMate2019-11-18.avi), and not a castling's piece
    /// (the rook, or the king after its rook: the second piece its side sets down in one move).
    pub(super) fn second_unseen(&self, id: u32, to: Square, colour: Option<Color>, role: Option<Role>) -> bool {
        let Some(track) = self.hands.get(&id) else { return false };
        let colour = colour.unwrap_or(Color::from(track.side));
        let beside = track.placed & shakmaty::attacks::king_attacks(to);
        beside.into_iter().any(|p| self.belief[usize::from(p)].is_some_and(|q| q.color == colour)) && self.grasps(id, to, Some(colour), role).iter().any(|&(s, _)| self.in_doubt(s) && !self.castles(s, to))
    }

    /// Failing a grasp (see [`grasps`](Self::grasps)), the one square whose piece hand `id`
    /// rested on (see [`rested_on`](Self::rested_on)), having set nothing down yet, that may be
    /// the piece it set down on `to`, though vision reads it still standing there: a tall neighbour leaning over an emptied square reads as a
    /// piece of its colour (rendered games 215's 19. Bf4 and 420's 14. O-O, from a camera behind
    /// Black: the queen on c2 leaning over c1, on e2 over e1; the bishop and the king touched,
    /// lifted under the fingertips and set down in plain view, were refused as pieces from
    /// nowhere, and the clock pressed a false 7.5.3). With its stay there.
    fn touched_under_a_lean(&self, id: u32, to: Square, colour: Option<Color>, role: Option<Role>) -> Option<(Square, Visit)> {
        let occupied = self.occupied();
        // Only for the first piece the hand sets down: beside one set down, a lean reads as a
        // second (see [`second_unseen`](Self::second_unseen)).
        let track = self.hands.get(&id).filter(|t| t.placed.is_empty())?;
        let colour = colour.unwrap_or(Color::from(track.side));
        let mut found = Square::ALL.into_iter().filter(|&s| s != to && !self.seen_after_change(s, to) && self.may_have_come(s, to, colour, role, occupied)).filter_map(|s| Some((s, self.rested_on(id, s)?)));
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    /// The squares hand `id` dwelt on whose piece may be the one it set down on `to` (see
    /// [`lift_unseen`](Self::lift_unseen)), each with its longest stay.
    pub(super) fn grasps(&self, id: u32, to: Square, colour: Option<Color>, role: Option<Role>) -> Vec<(Square, Visit)> {
        let occupied = self.occupied();
        let Some(track) = self.hands.get(&id) else { return Vec::new() };
        // Of colour untold, the hand's player's own.
        let colour = colour.unwrap_or(Color::from(track.side));
        // Not a square seen, since it was last hidden, with its piece still standing there: the
        // king just set on g1 and seen there is not the rook that came to f1 (rendered game 165's
        // O-O, recorded Kf1).
        let standing = |s: Square| {
            let j = usize::from(s);
            self.seen_at[j] >= self.hidden_at[j] && self.candidate[j].0 != SquareState::Empty
        };
        let stays: Vec<(Square, Visit)> = track
            .longest
            .iter()
            .map(|(s, v)| (*s, *v))
            .chain(track.current)
            .filter(|(s, _)| *s != to && !standing(*s) && !self.seen_after_change(*s, to) && self.may_have_come(*s, to, colour, role, occupied))
            .collect();
        let longest = stays.iter().map(|(_, v)| v.length()).fold(0.0, f64::max);
        stays.into_iter().filter(|(_, v)| v.length() >= GRASP_SHARE * longest).collect()
    }
}
