//! Acts of an arm that has gone. An arm hides what it does from a camera on its side, and the
//! region vision sees may stay over the squares a moment after it left (two hands of one player
//! are one region to it): a square it lifted from or set down on then shows only once it has
//! gone. The act is still that arm's, not that of a hand still over the board that passed over
//! the square more briefly (the staged two-hands scene read from pixels: the knight lifted by
//! the first hand and passed to the second at g1, found gone only after both had left, was
//! given to the second, which set it on f3: one hand, no 4.1). Its lift is written under its
//! id, the piece loose as if it had left in the hand; its setting down, under its id, takes
//! the piece from the hand it left in. So too, once no hand is about, a plain move shown by
//! squares only one player's arm hid since they were last seen: it is that arm's, lift and
//! setting down (see `sole_arm`).

use shakmaty::{Color, Piece, Square};

use super::{Act, HandTrack, JOIN_SECS, LOOSE_SECS, Loose, REVEAL_SECS, Tracker, Visit};
use crate::types::{EventKind, HandId, Side};

impl Tracker {
    /// The arm gone within [`LOOSE_SECS`], one of two hands of its player over the board at
    /// once (see [`paired`](Self::paired)), with the longest stay on `sq` that ended at `since`
    /// or later (the square unseen as it was since): its event id, and the stay. One arm alone
    /// that left is not looked for here: what it did that shows later, with no hand near, is
    /// found by where the pieces went (see `acts.rs`).
    pub(super) fn gone_stay(&self, sq: Square, since: f64) -> Option<(u32, Visit)> {
        let recent = |at: f64| self.last_seen_t - at <= LOOSE_SECS;
        let stay = |t: &HandTrack| t.longest.get(&sq).copied().into_iter().chain(t.current.filter(|(s, _)| *s == sq).map(|(_, v)| v)).filter(|v| v.end.1 >= since).max_by(|a, b| a.length().total_cmp(&b.length()));
        self.left.iter().filter(|(at, t)| recent(*at) && self.paired(t, *at)).filter_map(|(_, t)| stay(t).map(|v| (t.event_id, v))).max_by(|a, b| a.1.length().total_cmp(&b.1.length()))
    }

    /// The arm gone that did what `sq` shows once no hand is about: the only player's whose arms
    /// were over the board since the square was last seen as it was (`unchanged`), one of which
    /// hid it and left a moment ago, while every touch written came before what they did there
    /// (see [`touches_first`](Self::touches_first)), and no other hand was there to move it
    /// (the staged touch-move scenes read from pixels: the knight on b1 touched, then Ng1-f3
    /// made wholly under an arm seen under three ids in turn, read only as the last had gone,
    /// was told by the board alone, which binds no touch). Only the player expected to move:
    /// what the other does under his arm after his move is no move, nor known to be done on
    /// purpose (the staged knocked piece, g1 to f3 after Qe2). Of that player's arms, the one
    /// over the board longest, so that a move's two squares go to one hand: its event id.
    pub(super) fn sole_arm(&self, sq: Square, unchanged: f64) -> Option<u32> {
        let i = usize::from(sq);
        let side = self.hid_first[i]?;
        if Color::from(side) != self.to_move || !self.hands.is_empty() || self.covered_at[i] < unchanged {
            return None;
        }
        let since: Vec<&(f64, HandTrack)> = self.left.iter().filter(|(at, _)| *at >= unchanged).collect();
        let last = since.iter().map(|(at, _)| *at).fold(f64::NEG_INFINITY, f64::max);
        if since.iter().any(|(_, t)| t.side != side) || self.last_seen_t - last > REVEAL_SECS || !self.touches_first(sq, unchanged) {
            return None;
        }
        let (_, arm) = since.into_iter().max_by(|a, b| (a.0 - a.1.entered).total_cmp(&(b.0 - b.1.entered)))?;
        Some(arm.event_id)
    }

    /// The lift from `from` of the piece that `act`, a setting down by an arm gone found by
    /// [`sole_arm`](Self::sole_arm), sets down: written under that arm's id (dated by its stay
    /// on `from`, if it had one) where that piece too stood after every touch written. When it
    /// was. Not for an arm gone that was one of two hands (see [`gone_lifted`](Self::gone_lifted)).
    pub(super) fn sole_lifted(&mut self, from: Square, act: &Act) -> Option<(u64, f64)> {
        let gone = act.gone?;
        let (left, arm) = self.gone_track(gone)?;
        if self.paired(arm, left) || !self.touches_first(from, self.unchanged_at[usize::from(from)]) {
            return None;
        }
        let when = arm.longest.get(&from).map_or(act.at, |v| v.end);
        self.emit(when, EventKind::Lift { hand: HandId(gone), square: from });
        Some(when)
    }

    /// Whether every touch written came before whatever the arms gone since `sq` was last seen
    /// as it was (`unchanged`) did there: it was seen so after the last touch; or none of
    /// those arms, before that touch, rested its fingertips on `sq` or next to it as long as a
    /// touch takes (a piece is grasped where they rest, seen a square off at worst), nor lost
    /// them that long over the board. Then the piece stood there when he touched, however
    /// long the arm hid it (the staged touch-opponent scene read from pixels, seed 13: g1
    /// hidden as the arm came in, d5 touched, the knight carried to f3 under the arm and seen
    /// gone only once it had left, was told by the board alone, and the 4.3.2 missed).
    fn touches_first(&self, sq: Square, unchanged: f64) -> bool {
        let touch = self.touched_at;
        if touch < unchanged {
            return true;
        }
        let near = shakmaty::attacks::king_attacks(sq).with(sq);
        let before = |t: &HandTrack| t.blind_from.is_some_and(|b| b <= touch) || t.grasped_from.iter().any(|(s, from)| near.contains(*s) && *from <= touch);
        !self.left.iter().any(|(at, t)| *at >= unchanged && before(t))
    }

    /// Whether `track`, gone at `left`, was over the board together with another hand of its
    /// player, still here or gone, for longer than one arm is seen under two ids.
    fn paired(&self, track: &HandTrack, left: f64) -> bool {
        let together = |t: &HandTrack, until: f64| t.event_id != track.event_id && t.side == track.side && until.min(left) - t.entered.max(track.entered) > JOIN_SECS;
        self.hands.values().any(|t| together(t, t.last_over)) || self.left.iter().any(|(at, t)| together(t, *at))
    }

    /// The arm gone under event id `id`, and when it left.
    pub(super) fn gone_track(&self, id: u32) -> Option<(f64, &HandTrack)> {
        self.left.iter().find(|(_, t)| t.event_id == id).map(|(at, t)| (*at, t))
    }

    /// `act`, a lift by the arm gone under event id `gone`: written under that id, the piece
    /// loose as one that left in its hand. Whether there was a piece to lift.
    pub(super) fn lifted_by_gone(&mut self, act: &Act, gone: u32) -> bool {
        let i = usize::from(act.square);
        let Some((left_at, side, over)) = self.gone_track(gone).map(|(at, t)| (at, t.side, t.longest.keys().copied().collect::<shakmaty::Bitboard>())) else { return false };
        let Some(piece) = self.belief[i].take() else { return false };
        self.emit(act.at, EventKind::Lift { hand: HandId(gone), square: act.square });
        let held = self.held(piece, act.at, act.square, self.unchanged_at[i].min(act.at.1), None);
        let own = self.own_piece(&held, side);
        self.loose.push(Loose { piece, at: left_at, lifted: act.at, since: held.since, over: over.without(act.square), side, from: act.square, hand: gone, own });
        true
    }

    /// `piece`, lifted at `lifted` by a hand, set down by the arm gone under event id `gone` as
    /// `act` says: written under that id, after the lift. A piece not of its player's is named
    /// (the rules took it as carried off with the hand that lifted it).
    pub(super) fn set_down_by_gone(&mut self, act: &Act, gone: u32, piece: Piece, lifted: (u64, f64)) {
        let step = 1.0 / self.fps_hint;
        let side = self.gone_track(gone).map(|(_, t)| t.side);
        let own = side.is_some_and(|s| Color::from(s) == piece.color);
        let at = if lifted.1 >= act.at.1 { (lifted.0 + 1, lifted.1 + step) } else { act.at };
        let (named, color) = if own { (None, None) } else { (Some(piece.role), Some(Side::from(piece.color))) };
        self.emit(at, EventKind::Place { hand: HandId(gone), square: act.square, piece: named, color });
        let release = if act.until.1 > at.1 { act.until } else { (at.0 + 1, at.1 + step) };
        self.emit(release, EventKind::Release { hand: HandId(gone), square: act.square });
    }

    /// The lift from `from` that a hand is taken to have made unseen (on its stay `visit` there,
    /// if any), written under the arm gone that stayed there longer, if one did: when it was.
    pub(super) fn gone_lifted(&mut self, from: Square, visit: Option<Visit>) -> Option<(u64, f64)> {
        let none = Visit { start: (0, 0.0), end: (0, 0.0) };
        let (gone, stay) = self.lifted_before_by_gone(from, visit.unwrap_or(none))?;
        self.emit(stay.end, EventKind::Lift { hand: HandId(gone), square: from });
        Some(stay.end)
    }

    /// Where a hand is taken to have lifted, unseen, the piece on `from` during its stay `visit`
    /// there: an arm gone that stayed there longer, the square unseen since, lifted it (and
    /// passed it on). Its event id and stay.
    fn lifted_before_by_gone(&self, from: Square, visit: Visit) -> Option<(u32, Visit)> {
        // Last seen as it was: when last seen, unless seen changed since it was last hidden (its
        // change found in this very frame, its act still to come).
        let j = usize::from(from);
        let seen_changed = self.changed_at[j] > self.hidden_at[j].max(self.unchanged_at[j]);
        let since = if seen_changed { self.unchanged_at[j] } else { self.seen_at[j] };
        self.gone_stay(from, since).filter(|(_, v)| v.length() > visit.length())
    }
}
