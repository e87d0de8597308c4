//! Acts of the player who seems not to have the move, held back until a board says whether his
//! opponent had moved unseen before them.
//!
//! In fast play one arm leaves a few frames before the other comes in, and the tracker tells
//! the board that shows a move made under the first arm only once every square an arm hid has
//! been read again: after the acts of the second. Judged in the order heard, those acts are
//! the wrong player's (`TK_scholarsmate7.avi` with its contrast flattened: 4. Qxf7# heard while
//! 3... Nf6 was still untold, the capture judged as White adjusting f7 while Black had the
//! move, a false 4.2.1). So the events from such an act on are held back, in order, until the
//! next board, a clock press, [`HOLD_SECS`] or the end. Where that board shows a line that
//! begins with a move of the player on move, on no square the held acts were on, and goes on
//! with a move of the other's on a square they were on, the first move is told first, as a
//! board of its own, and the held events after it; else they are judged as they came. Either
//! way nothing is judged otherwise than in order, only later: the decisions keep the times of
//! the events they come from.

use shakmaty::{Bitboard, Position};

use super::Rules;
use super::completion::{colour_line, move_squares};
use crate::types::{Cell, Decision, Event, EventKind, Placement};

/// The longest events are held back for a board (a board comes within a second of the arms
/// leaving; a hand of the player not on move resting on the board for long is not waiting
/// for one).
pub(super) const HOLD_SECS: f64 = 3.0;

impl Rules {
    /// Judges `event`, or holds it back (see the module's text).
    pub(super) fn apply_holding(&mut self, event: &Event) -> Vec<Decision> {
        if self.held.is_empty() {
            if !self.starts_hold(event) {
                return self.judge(event);
            }
            self.held.push(event.clone());
            return Vec::new();
        }
        match event.kind {
            EventKind::Board { ref placement, .. } => {
                let first = self.first_unheard(placement);
                self.release(first, Some(event))
            }
            EventKind::Clock { .. } => self.release(None, Some(event)),
            _ if event.t - self.held[0].t > HOLD_SECS => self.release(None, Some(event)),
            _ => {
                self.held.push(event.clone());
                Vec::new()
            }
        }
    }

    /// Judges what is held back, in order, as the end of the stream or an operator's
    /// correction comes.
    pub(super) fn release_held(&mut self) -> Vec<Decision> {
        if self.held.is_empty() { Vec::new() } else { self.release(None, None) }
    }

    /// An act by a hand of the player not on move, while nothing of a move is in progress (no
    /// act since the last move, no rook move held back as castling): what the rules know of
    /// the game may be a move behind.
    fn starts_hold(&self, event: &Event) -> bool {
        let hand = match event.kind {
            EventKind::Touch { hand, .. } | EventKind::Lift { hand, .. } | EventKind::Place { hand, .. } | EventKind::Release { hand, .. } => hand,
            _ => return false,
        };
        let quiet = self.turn.acts.is_empty() && self.pending.is_none();
        self.result.is_none() && quiet && self.hands.get(&hand).is_some_and(|h| h.side != self.pos.turn())
    }

    /// The move of the player on move that `placement` shows made before the held acts: the
    /// first of the one line that explains it, where that line's second move, the other
    /// player's, is on a square the held acts were on, and the first is on none (where it is,
    /// the acts heard made it: one player's hand making both players' moves, as in a clip
    /// where one person shows a game, and heard in order they need no help).
    fn first_unheard(&self, placement: &Placement) -> Option<shakmaty::Move> {
        // Before the set-up is seen, a board is checked against the initial position (7.2.1).
        if !self.setup_seen {
            return None;
        }
        let mut board = self.phys.board();
        for sq in placement.differences(&board) {
            match placement.cell(sq) {
                Cell::Piece(p) => board.set_piece_at(sq, p),
                _ => {
                    board.discard_piece_at(sq);
                }
            }
        }
        let acted: Bitboard = self.held.iter().filter_map(|e| act_square(&e.kind)).collect();
        let line = colour_line(&self.pos, &board, Bitboard::EMPTY)?;
        let (first, second) = (line.first()?, line.get(1)?);
        ((move_squares(*second) & acted).any() && (move_squares(*first) & acted).is_empty()).then_some(*first)
    }

    /// Judges the held events: after `first` told as a board of its own, where given; then
    /// `next`, the event that ended the hold.
    fn release(&mut self, first: Option<shakmaty::Move>, next: Option<&Event>) -> Vec<Decision> {
        let held = std::mem::take(&mut self.held);
        let mut out = Vec::new();
        if let (Some(m), Some(start)) = (first, held.first()) {
            let mut after = self.pos.clone();
            after.play_unchecked(m);
            let told = Event { t: start.t, frame: start.frame, kind: EventKind::Board { placement: Placement::from(after.board()), h1_light: None, white: None } };
            out.extend(self.judge(&told));
        }
        for e in &held {
            out.extend(self.judge(e));
        }
        if let Some(e) = next {
            out.extend(self.apply_holding(e));
        }
        out
    }
}

fn act_square(kind: &EventKind) -> Option<shakmaty::Square> {
    match *kind {
        EventKind::Touch { square, .. } | EventKind::Lift { square, .. } | EventKind::Place { square, .. } | EventKind::Release { square, .. } => Some(square),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! The order of the Laws' clauses is the order of the acts: held back, the acts of a
    //! player who had the move after all are judged as his (4.1, 4.2.1, 4.3).
    use crate::rules::testkit::*;

    /// After 3. Bc4, Black's 3... Nf6 is made under an arm the events missed; White's capture
    /// on f7 is heard before the board that shows both.
    const BC4: &str = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3";
    const NF6_QXF7: &str = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR";

    #[test]
    fn art_4_1_a_move_made_unseen_before_the_opponents_acts_is_judged_before_them() {
        let d = Script::from_fen(BC4)
            .board("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR", true)
            .enter(0, W).lift(0, "f7").lift(0, "h5").place(0, "f7").release(0, "f7").leave(0)
            .board(NF6_QXF7, true)
            .run();
        assert_eq!(sans(&d), ["Nf6", "Qxf7#"], "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
        // Black's move is dated by White's first act, the capture by its release.
        assert!(move_times(&d)[0] < move_times(&d)[1], "{d:?}");
    }

    #[test]
    fn art_4_3_2_the_touch_of_a_player_who_had_the_move_after_all_binds() {
        // As above, but White touches the e5 pawn first, then captures on f7: the board shows
        // Black moved before White's hand came, so the touch was White's on move (4.3.2).
        let d = Script::from_fen(BC4)
            .board("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR", true)
            .enter(0, W).touch(0, "e5").lift(0, "f7").lift(0, "h5").place(0, "f7").release(0, "f7").leave(0)
            .board(NF6_QXF7, true)
            .run();
        assert_eq!(sans(&d), ["Nf6", "Qxf7#"], "{d:?}");
        assert_eq!(violations(&d), [("4.3.2", Some(W))], "{d:?}");
    }

    #[test]
    fn art_4_1_one_hand_making_both_players_moves_is_judged_as_heard() {
        // One person shows the game from White's side: his hand makes 3... Nf6, then 4. Qxf7#,
        // and the board showing both is told after. The acts heard made both moves.
        let d = Script::from_fen(BC4)
            .board("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR", true)
            .enter(0, W).lift(0, "g8").place(0, "f6").release(0, "f6")
            .lift(0, "f7").lift(0, "h5").place(0, "f7").release(0, "f7").leave(0)
            .board(NF6_QXF7, true)
            .run();
        assert_eq!(sans(&d), ["Nf6", "Qxf7#"], "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
        assert!(states(&d).iter().all(|s| !s.contains("disagree") && !s.contains("ignored")), "{d:?}");
    }

    #[test]
    fn art_4_2_1_a_board_with_no_unseen_move_leaves_the_held_acts_as_heard() {
        // Black adjusts while White has the move; the board then shows White's e4: no move of
        // Black's came before, so the adjustment was off move (4.2.1), judged as heard.
        let d = Script::new()
            .board(START, true)
            .enter(0, B).lift(0, "g8").place(0, "g8").release(0, "g8").leave(0)
            .enter(1, W).lift(1, "e2").place(1, "e4").release(1, "e4").leave(1)
            .board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", true)
            .run();
        assert_eq!(sans(&d), ["e4"], "{d:?}");
        assert_eq!(violations(&d), [("4.2.1", Some(B))], "{d:?}");
    }

    #[test]
    fn art_4_2_1_held_acts_are_judged_at_the_clock_and_at_the_end() {
        let adjust = Script::new().board(START, true).enter(0, B).lift(0, "g8").place(0, "g8").release(0, "g8");
        // White's press without a move (7.5.3) is judged after the adjustment heard before it.
        let at_clock = adjust.clone().clock(W).run();
        assert_eq!(violations(&at_clock), [("4.2.1", Some(B)), ("7.5.3", Some(W))], "{at_clock:?}");
        let at_end = adjust.run();
        assert_eq!(violations(&at_end), [("4.2.1", Some(B))], "{at_end:?}");
    }
}
