//! The event stream: acts are queued at the time they happened, which may be before acts
//! already queued (a lift seen only once the arm uncovers its square), and written in time
//! order once nothing still hidden under a hand can be dated before them.

use shakmaty::Square;

use super::{HandTrack, Tracker, acts};
use crate::types::{Event, EventKind, HandId};

impl Tracker {
    /// Queues an event at the time it happened; [`Self::flush`] writes it once no act still
    /// hidden under a hand can be dated before it.
    pub(super) fn emit(&mut self, at: (u64, f64), mut kind: EventKind) {
        if let EventKind::Lift { hand, .. } | EventKind::Place { hand, .. } = kind {
            self.hands.values_mut().filter(|t| t.event_id == hand.0).for_each(|t| t.acted = true);
        }
        if matches!(kind, EventKind::Touch { .. }) {
            self.touched_at = self.touched_at.max(at.1);
        }
        // An act dated before an arm seen under a new id came in is the old id's (the one seen
        // then): it was over the board then, and the new one not yet.
        if let EventKind::Touch { hand, .. } | EventKind::Lift { hand, .. } | EventKind::Place { hand, .. } | EventKind::Release { hand, .. } = &mut kind {
            if let Some(&(old, _)) = self.hands.values().find(|t| t.event_id == hand.0).and_then(|t| t.came_back.iter().find(|(_, next)| at.1 < *next)) {
                *hand = HandId(old);
            }
        }
        self.seq += 1;
        self.pending.push((self.seq, Event { t: at.1, frame: Some(at.0), kind }));
    }

    /// Takes back, unwritten, the lift of `held` if it was a guess still queued (see
    /// `Held::guessed`); whether it was.
    pub(super) fn take_back_guess(&mut self, held: &super::Held) -> bool {
        let Some(seq) = held.guessed.filter(|seq| self.guess_unwritten(*seq)) else { return false };
        self.pending.retain(|(s, _)| *s != seq);
        true
    }

    /// Whether the guessed lift queued as `seq` is still unwritten.
    pub(super) fn guess_unwritten(&self, seq: u64) -> bool {
        self.pending.iter().any(|(s, _)| *s == seq)
    }

    /// The earliest time an act not yet seen could carry: the start of a hand's present stay
    /// over a square it hides. Earlier stays are not waited for: an act hidden there shows up
    /// late and is written at the latest time, which keeps moves decided as soon as they are
    /// seen (a stay that changed nothing would otherwise hold every event until the arm left).
    fn watermark(&self, covered: &[Square]) -> f64 {
        self.hands
            .values()
            .filter_map(|t| t.current)
            .filter(|(sq, _)| covered.contains(sq))
            .map(|(_, v)| v.start.1)
            .fold(f64::INFINITY, f64::min)
    }

    pub(super) fn flush(&mut self, covered: &[Square]) {
        let mark = if self.hands.is_empty() { f64::INFINITY } else { self.watermark(covered) };
        let mark = mark.min(self.clock_mark());
        // A touch waits until its hand lifts a piece or leaves: fingertips seen a square off
        // while grasping show as a touch of the neighbour, which the lift then takes back. So
        // does a rest that began as the fingertips left a neighbour not seen since (or whose
        // change is still being confirmed): the hand rising with that piece, whose lift is seen
        // only once the square shows again.
        let rising_beside = |t: &HandTrack, sq: Square, at: f64| {
            let near = shakmaty::attacks::king_attacks(sq);
            let unseen = |s: Square| covered.contains(&s) || self.seen_at[usize::from(s)] <= at || self.candidate[usize::from(s)].1 > 0;
            t.longest.iter().any(|(s, v)| near.contains(*s) && unseen(*s) && acts::rising(v.end.1, at, self.fps_hint))
        };
        let grasping = |h: HandId, sq: Square, at: f64| self.hands.values().any(|t| t.event_id == h.0 && (!t.acted || rising_beside(t, sq, at)));
        // A guessed lift waits while its piece is still in the hand (see `Held::guessed`).
        let guesses: Vec<u64> = self.hands.values().flat_map(|t| t.held.iter().filter_map(|h| h.guessed)).collect();
        let mark = self.pending.iter().filter(|(seq, _)| guesses.contains(seq)).map(|(_, e)| e.t).fold(mark, f64::min);
        let mark = self
            .pending
            .iter()
            .filter(|(_, e)| matches!(e.kind, EventKind::Touch { hand, square } if grasping(hand, square, e.t)))
            .map(|(_, e)| e.t)
            .fold(mark, f64::min);
        // A rook's touch or lift waits while its king may have been lifted first, unseen (see
        // `rook_before_unseen_king`): 4.4.2 turns on which of the two came first.
        let rook_first = |e: &Event| matches!(e.kind, EventKind::Lift { hand, square } | EventKind::Touch { hand, square } if self.rook_before_unseen_king(hand, square));
        let mark = self.pending.iter().filter(|(_, e)| rook_first(e)).map(|(_, e)| e.t).fold(mark, f64::min);
        self.pending.sort_by(|a, b| a.1.t.total_cmp(&b.1.t).then(a.0.cmp(&b.0)));
        let ready = self.pending.iter().take_while(|(_, e)| e.t < mark).count();
        for (_, mut e) in self.pending.drain(..ready) {
            // Time never goes back in the stream, even for an act dated by an earlier stay.
            if e.t < self.last_t {
                e.t = self.last_t;
                e.frame = Some(((e.t * self.fps_hint).round() as u64).max(e.frame.unwrap_or(0)));
            }
            self.last_t = e.t;
            e.t = (e.t * 1e6).round() / 1e6;
            self.out.push(e);
        }
    }
}
