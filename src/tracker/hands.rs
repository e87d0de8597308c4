//! Following the hands: each arm's stays over squares (what a lift or place is timed by and
//! given to), its touches (fingertips at rest on a piece), and its leaving with what it holds.

use std::collections::BTreeMap;

use shakmaty::Square;

use super::{HandTrack, Held, LEAVE_SECS, LOOSE_SECS, Loose, RESUME_SECS, STILL_SQUARES, TOUCH_INSET, Tracker, Visit};
use crate::types::{EventKind, HandId, Observation, Side};

/// How long before an arm was last over the board another of its player's may have come in and
/// still be the same arm, seen for a moment under two ids (vision holds an arm it lost where it
/// was last seen for a few frames while it finds it again elsewhere), seconds.
pub(super) const JOIN_SECS: f64 = 0.5;

impl Tracker {
    pub(super) fn follow_hands(&mut self, obs: &Observation, now: (u64, f64)) {
        for h in &obs.hands {
            let over = h.extremity_square.is_some() || !h.covers.is_empty();
            if !over {
                continue;
            }
            if !self.hands.contains_key(&h.id) {
                self.tell_unheard(now, obs);
                let side = h.side.unwrap_or(Side::from(self.to_move));
                let event_id = self.next_hand;
                self.next_hand += 1;
                let track = match self.resumed(side, now.1) {
                    Some(mut t) => {
                        t.came_back.push((t.event_id, now.1));
                        t.event_id = event_id;
                        t.last_over = now.1;
                        (t.current, t.still, t.lost_since) = (None, None, None);
                        t
                    }
                    None => HandTrack { event_id, side, last_over: now.1, entered: now.1, longest: BTreeMap::new(), current: None, grasped_from: BTreeMap::new(), blind_from: None, lost_since: None, still: None, touched: Vec::new(), held: Vec::new(), lifted: shakmaty::Bitboard::EMPTY, placed: shakmaty::Bitboard::EMPTY, acted: false, came_back: Vec::new() },
                };
                self.hands.insert(h.id, track);
                self.hands_seen[shakmaty::Color::from(side)] = true;
                self.emit(now, EventKind::HandEnter { hand: HandId(event_id), side });
                self.dirty = true;
            }
            if let Some(t) = self.hands.get_mut(&h.id) {
                t.last_over = now.1;
            }
            let dwell = self.cfg.dwell_secs;
            let fps = self.fps_hint;
            let occupied = h.extremity_square.is_some_and(|sq| self.belief[usize::from(sq)].is_some());
            // Where the fingertips are judged to rest: at the height of the piece believed under
            // them too (see [`super::aim`]).
            let tip = super::aim::aim(h, |sq| self.belief[usize::from(sq)].map(|p| p.role)).or(h.extremity_board);
            let track = self.hands.get_mut(&h.id).expect("inserted above");
            match (h.extremity_square, track.current) {
                (Some(sq), Some((cur, mut visit))) if cur == sq => {
                    visit.end = now;
                    track.current = Some((sq, visit));
                }
                (sq, current) => {
                    if let Some((cur, visit)) = current {
                        let best = track.longest.entry(cur).or_insert(visit);
                        if visit.length() >= best.length() {
                            *best = visit;
                        }
                    }
                    track.current = sq.map(|s| (s, Visit { start: now, end: now }));
                }
            }
            if let Some((sq, visit)) = track.current.filter(|(_, v)| v.length() >= dwell) {
                track.grasped_from.entry(sq).or_insert(visit.start.1);
            }
            track.lost_since = match h.extremity_square {
                Some(_) => None,
                None => Some(track.lost_since.unwrap_or(now.1)),
            };
            if let Some(lost) = track.lost_since.filter(|l| now.1 - l >= dwell) {
                track.blind_from.get_or_insert(lost);
            }
            // A touch is the fingertips at rest on a piece; a hand sweeping past, however slowly,
            // keeps moving. Without a board position from vision, a stay on the square counts.
            let rest = match tip {
                Some(p) => {
                    let moved = track.still.is_none_or(|(q, _)| (p[0] - q[0]).hypot(p[1] - q[1]) > STILL_SQUARES);
                    if moved {
                        track.still = Some((p, now));
                    }
                    track.still.map(|(_, since)| since)
                }
                // Fingertips not seen this frame: whatever rest they had is broken, as vision
                // can no longer tell it went on (an arm lost into a sleeve passing across the
                // view, held where it was, is no hand resting there).
                None if h.extremity_square.is_none() => {
                    track.still = None;
                    None
                }
                None => track.current.map(|(_, v)| v.start),
            };
            // Near a square's edge, fingertips seen a little off may be on the neighbour:
            // only a rest clearly on the piece is a touch (a false 4.3 is worse than a miss).
            let clear = tip.is_none_or(|p| p.iter().all(|c| (TOUCH_INSET..1.0 - TOUCH_INSET).contains(&c.rem_euclid(1.0))));
            // Nor a rest that began as the fingertips left a neighbour whose piece this hand
            // lifted: the hand rising with it, seen a square further along its reach. A lift
            // taken in before the rest has lasted long enough to be a touch has no touch to take
            // back (see apply_acts), so the rest is weighed here.
            let rising = |t: &super::HandTrack, sq: Square, at: f64| shakmaty::attacks::king_attacks(sq).into_iter().any(|n| t.lifted.contains(n) && t.longest.get(&n).is_some_and(|v| super::acts::rising(v.end.1, at, fps)));
            if let (Some((sq, _)), Some(since)) = (track.current, rest) {
                if occupied && clear && now.1 - since.1 >= dwell && !track.touched.contains(&sq) && !rising(track, sq, since.1) {
                    track.touched.push(sq);
                    let at = since;
                    let hand = HandId(track.event_id);
                    self.emit(at, EventKind::Touch { hand, square: sq });
                }
            }
        }
    }

    /// The arm of `side`'s that left a moment ago, if no other of that side's is about: an arm
    /// coming in now is that one, seen again under a new id (vision lost it for a frame as it
    /// swung), and goes on with its stays, touches and lifts, and takes back the pieces it left
    /// with. Otherwise the piece it carried would have left the board with it, and its grasps
    /// with its id (rendered game 215's 9. Qa4+: the queen carried from d1 to a4 over a2, the
    /// arm lost above c2; the a2 pawn under the arm seen again was taken for the piece set on
    /// a4, and 9. a4 recorded).
    fn resumed(&mut self, side: Side, now: f64) -> Option<HandTrack> {
        // Arms gone longer ago are kept a while for what they did that shows only later (see
        // `gone.rs`).
        self.left.retain(|(at, _)| now - at <= LOOSE_SECS);
        if self.hands.values().any(|t| t.side == side) {
            return None;
        }
        let k = self.left.iter().rposition(|(at, t)| t.side == side && now - at <= RESUME_SECS)?;
        let (_, mut track) = self.left.remove(k);
        let id = track.event_id;
        for l in self.loose.extract_if(.., |l| l.hand == id) {
            track.held.push(Held { piece: l.piece, at: l.lifted, from: l.from, since: l.since, guessed: None, movers: l.own });
        }
        Some(track)
    }

    /// Hand `next` goes on with what `track`, the same arm under the id vision gave it before,
    /// held, grasped and touched (rendered game 270 at 40 plies, the view widened over the far
    /// edge: Black's arm, seen under three ids in turn as it castled there, each coming in a few
    /// frames before the last left; the king lifted off e8 under the first, set on g8 under the
    /// third, was found lifted only as e8 showed, after the third had touched the rook: a false
    /// 4.4.2). What it then finds was done before `next` came in is written under the id seen
    /// then.
    fn join(&mut self, next: u32, mut track: HandTrack) {
        let Some(t) = self.hands.get_mut(&next) else { return };
        for (sq, v) in std::mem::take(&mut track.longest).into_iter().chain(track.current) {
            let best = t.longest.entry(sq).or_insert(v);
            if v.length() > best.length() {
                *best = v;
            }
        }
        for (sq, from) in track.grasped_from {
            let first = t.grasped_from.entry(sq).or_insert(from);
            *first = first.min(from);
        }
        t.blind_from = match (t.blind_from, track.blind_from) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        for sq in track.touched {
            if !t.touched.contains(&sq) {
                t.touched.push(sq);
            }
        }
        t.held.append(&mut track.held);
        t.lifted |= track.lifted;
        t.placed |= track.placed;
        t.acted |= track.acted;
        let mut ids = track.came_back;
        ids.push((track.event_id, t.entered));
        ids.append(&mut t.came_back);
        t.came_back = ids;
    }

    /// The longest stay of hand `id` over `sq`, the current one included.
    pub(super) fn visit_of(&self, id: u32, sq: Square) -> Option<Visit> {
        let track = self.hands.get(&id)?;
        let current = track.current.filter(|(s, _)| *s == sq).map(|(_, v)| v);
        match (track.longest.get(&sq).copied(), current) {
            (Some(a), Some(b)) => Some(if b.length() >= a.length() { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    /// Hand `id`'s longest stay over `sq`, if it lasted as long as a touch takes.
    pub(super) fn rested_on(&self, id: u32, sq: Square) -> Option<Visit> {
        self.visit_of(id, sq).filter(|v| v.length() >= self.cfg.dwell_secs)
    }

    /// The longest stay of any hand over any of `squares` that ended at `since` or later, with
    /// the hand.
    pub(super) fn longest_on(&self, squares: shakmaty::Bitboard, since: f64) -> Option<(u32, Visit)> {
        let mut best: Option<(u32, Visit)> = None;
        for &id in self.hands.keys() {
            for s in squares {
                if let Some(v) = self.visit_of(id, s).filter(|v| v.end.1 >= since) {
                    if best.is_none_or(|(_, b)| v.length() > b.length()) {
                        best = Some((id, v));
                    }
                }
            }
        }
        best
    }

    /// Whether `held`, gone in a hand of `side`'s player, is that player's own, not a capture's
    /// victim carried off. Where no hand of the player whose piece it is has come over the
    /// board yet, one person is showing the game from one side, and a piece lifted while its
    /// player was expected to move is that person's own move too (`knightvision/
    /// sample_clip_3s.mp4` halved in size: 1... e5 made by the hand that made 1. e4, the pawn
    /// set down as the arm left, was taken for a capture's victim carried off and never set
    /// down). A victim is lifted while its taker is expected to move.
    pub(super) fn own_piece(&self, held: &Held, side: Side) -> bool {
        let colour = held.piece.color;
        colour == shakmaty::Color::from(side) || (held.movers && !self.hands_seen[colour])
    }

    pub(super) fn hands_gone(&mut self, obs: &Observation, now: (u64, f64)) {
        // An arm resting just off the playing area is still reaching in; it has left once it is
        // out of view, or away from the board for a moment.
        let in_view: Vec<u32> = obs.hands.iter().map(|h| h.id).collect();
        let gone: Vec<u32> = self
            .hands
            .iter()
            .filter(|(id, t)| !in_view.contains(id) || now.1 - t.last_over > LEAVE_SECS)
            .map(|(id, _)| *id)
            .collect();
        for &id in &gone {
            let Some(track) = self.hands.remove(&id) else { continue };
            let hand = track.event_id;
            // The same player's arm that came in while this one was about, and stays: one arm
            // vision saw as two for a moment, the new id going on with what the old one held
            // and where it grasped (see [`join`](Self::join)).
            // Only one that came in just before this one was last over the board: two arms of
            // one player over it together for longer are two hands (see `gone.rs`).
            let just_before = |t: &HandTrack| t.entered > track.entered && track.last_over - t.entered <= JOIN_SECS;
            let successor = self.hands.iter().filter(|(k, t)| !gone.contains(k) && t.side == track.side && just_before(t)).max_by(|a, b| a.1.entered.total_cmp(&b.1.entered)).map(|(k, _)| *k);
            // A second arm of one player, over the board for less than that beside another of
            // his that came in before it and stays, having done nothing but rest: a part of
            // that arm seen apart for a moment (a patch of its sleeve, its shadow), whose rest
            // is no touch (scholarsmate.avi turned 270°: a White region over g2 for a quarter
            // second beside the arm taking on f7, its touch a false 4.3.3 once 3... Nf6, set
            // down under Black's arm a moment before, was told at once).
            let beside = |(k, t): (&u32, &HandTrack)| !gone.contains(k) && t.side == track.side && t.entered < track.entered;
            if successor.is_none() && !track.acted && track.last_over - track.entered < JOIN_SECS && self.hands.iter().any(beside) {
                self.pending.retain(|(_, e)| !matches!(e.kind, EventKind::Touch { hand: h, .. } if h.0 == hand));
            }
            match successor {
                Some(next) => self.join(next, track),
                None => self.leave(track, now.1),
            }
            self.emit(now, EventKind::HandLeave { hand: HandId(hand) });
        }
    }

    /// `track`'s arm has left the board at `at`: the pieces still in its hand are loose (carried
    /// off, or passed to the player's other hand), and it is kept a moment in case it comes
    /// back under a new id (see [`resumed`](Self::resumed)).
    fn leave(&mut self, mut track: HandTrack, at: f64) {
        // A square the hand lifted from is not one its pieces took on: what stands there now,
        // it set down itself.
        let over = track.longest.keys().copied().chain(track.current.map(|(s, _)| s)).collect::<shakmaty::Bitboard>() & !track.lifted;
        let hand = track.event_id;
        for h in track.held.drain(..) {
            // A piece of the player's own whose lift was a guess, still unwritten, that the hand
            // leaves with: no hand was near it, and it is one seen gone with none near, to be
            // found by where it shows (rendered game 155: h1's rook, misread empty in a bright
            // spot, shows there again a second later). Not a victim: a capture's is carried off,
            // its lift often seen only as the taker shows on its square (scholarsmate.avi's
            // Qxf7#).
            if h.piece.color == shakmaty::Color::from(track.side) && self.take_back_guess(&h) {
                self.unattended.push((h.piece, h.from));
                self.unheard = true;
                continue;
            }
            let own = self.own_piece(&h, track.side);
            self.loose.push(Loose { piece: h.piece, at, lifted: h.at, since: h.since, over, side: track.side, from: h.from, hand, own });
        }
        self.left.push((at, track));
    }
}
