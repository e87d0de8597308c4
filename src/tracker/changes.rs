//! Squares read as changed, confirmed and turned into acts: a change counts once enough
//! frames agree (more where no hand was near, or where an arm has just uncovered the square),
//! and goes to the hand whose fingertips dwelt on or beside the square, timed by that stay.

use shakmaty::Square;

use super::{Act, HandTrack, REACH_SECS, REVEAL_SECS, Tracker, Visit, colour};
use crate::types::{Observation, Side, SquareState};

/// How long before a square was last seen as it was, with no fingertips near, a hand's stay
/// over it may have ended and still be the one that changed it (fingertips are found a frame
/// or a few late), seconds.
const STAY_LAG_SECS: f64 = 0.2;

/// How far, in squares (king steps), fingertips seen may be from a square their hand changed,
/// when no stay was on or beside it: fingertips are seen off, but not that far.
const REACH_SQUARES: u32 = 2;

impl Tracker {
    /// The changes this frame confirms, as acts for [`apply_acts`](Self::apply_acts); squares
    /// hidden now only have their hiding noted.
    pub(super) fn confirm_changes(&mut self, obs: &Observation, covered: &[Square]) -> Vec<Act> {
        let mut acts = Vec::new();
        let near: shakmaty::Bitboard = obs.hands.iter().filter_map(|h| h.extremity_square).fold(covered.iter().copied().collect(), |b, tip| b | shakmaty::attacks::king_attacks(tip).with(tip));
        for sq in Square::ALL {
            let i = usize::from(sq);
            let Some(seen) = obs.squares.get(i).map(|s| s.state) else { continue };
            let under_arm = covered.contains(&sq);
            if under_arm {
                self.covered_at[i] = obs.t;
            }
            if seen == SquareState::Occluded || under_arm {
                // A square that fits no look a moment after an arm was seen to leave it (a piece
                // just set down there, read now as its look, now as none) is hidden by no one
                // anew: it stays that arm's, and what it shows counts as soon as a change an arm
                // uncovers (rendered 20-ply game 145: the knight set on f3, read white one frame
                // in three, waited thirty readings as a change no hand was near, and the clock
                // pressed meanwhile was a false 7.5.3). Not where the arm vanished from view
                // over it: the arm may still be there, lost by vision, and the square read
                // through it (rendered game 300: e1's rook, read empty now and then under an
                // arm lost for a second, was taken as lifted at once).
                let hider = self.hider(obs, sq);
                let left_in_view = self.arm_seen_at > self.covered_at[i];
                let misfit_after_arm = hider.is_none() && left_in_view && obs.t - self.covered_at[i] <= REVEAL_SECS;
                // Nor is a square that fitted no look before any arm came near left hidden by no
                // one once one does: it is under that arm now (rendered game 50's 20... Qc7,
                // c7 unreadable as the fingertips came over it with the arm beside, read black
                // once the arm had gone, waited thirty readings as a change no hand was near,
                // and the queen went to e8, read black under a bishop's lean, instead).
                let newly = self.hidden_at[i] <= self.seen_at[i] && !misfit_after_arm;
                let arm_came = self.hid_first[i].is_none() && hider.is_some();
                if newly || arm_came {
                    self.hid_first[i] = hider;
                    self.hid_since[i] = obs.t;
                }
                self.hidden_at[i] = obs.t;
                continue;
            }
            let seen_before = std::mem::replace(&mut self.seen_at[i], obs.t);
            let settled = SquareState::of(self.belief[i]);
            if seen != SquareState::Piece {
                self.told[i] = colour(seen);
                self.told_over[i] = self.belief[i].map(|p| p.color);
            }
            let seen = self.untold_taker(sq, seen, obs.t).unwrap_or(seen);
            // A piece taken as read in the other colour is read so until its square shows
            // otherwise: no change.
            let misread = self.miscoloured.contains(sq) && colour(seen).is_some_and(|c| self.belief[i].is_some_and(|p| p.color != c));
            if !misread {
                self.miscoloured.discard(sq);
            }
            let seen = if misread { SquareState::Piece } else { seen };
            // Nor is the lean over a square whose piece left under it read as its piece (see
            // [`lean_stays`](Self::lean_stays)).
            let leaned = self.lean_stays(sq, seen);
            if !leaned {
                self.leaned_over[i] = None;
            }
            let seen = if leaned { SquareState::Empty } else { seen };
            // A piece of colour untold where one stands is no change: vision could not tell
            // its colour, not that it changed.
            if seen.fits(self.belief[i]) {
                if !near.contains(sq) {
                    self.clear_at[i] = obs.t;
                }
                self.candidate[i] = (settled, 0);
                self.refused.discard(sq);
                continue;
            }
            let (cand, count) = self.candidate[i];
            // A piece read now of a colour, now of colour untold, is one piece whose colour
            // vision is unsure of: it counts on as a piece of colour untold, whose piece the
            // tracker tells from where pieces went (scholarsMate2019-11-18.avi: the queen set
            // down on h5, read untold and black by turns, was never taken).
            let untold_and_told = |a: SquareState, b: SquareState| a == SquareState::Piece && colour(b).is_some();
            let one_piece = untold_and_told(cand, seen) || untold_and_told(seen, cand);
            let unsure_colour = count > 0 && one_piece;
            // Nor does it date a change: a misread square flickering between the two would
            // seem to change anew each time (rendered game 185: g6, read as a piece since 3...
            // Nf6, seemed to change as Black's arm hid g7, and took the g7 pawn).
            if cand != seen && !one_piece {
                self.changed_at[i] = obs.t;
                self.unchanged_at[i] = seen_before;
                self.refused.discard(sq);
            }
            self.candidate[i] = if cand == seen {
                (seen, count + 1)
            } else if unsure_colour {
                (SquareState::Piece, count + 1)
            } else {
                (seen, 1)
            };
            // The hand that dwelt longest on this square did it, timed by the end of that stay;
            // failing one, the hand that dwelt longest next to it (fingertips are seen a little
            // off, most of all on an oblique view).
            // Only a hand that came in before the square was last seen as it was (give or take
            // the moment an arm takes to reach over it) can have changed it: a square hidden for
            // long (by an arm, or by the change a piece left that vision took for one) may have
            // changed any time while it was (rendered game 55: White's Qxd3, made by an arm
            // vision did not see while d1 and d3 were hidden, was credited to Black's hand that
            // came in later and rested next to d3). Or one of the player whose arm first hid the
            // square, if the change was first seen after: an arm seen again under a new id is the
            // same player's. A change seen before that arm hid the square is not its doing
            // (rendered game 185: g6, misread as black beside the f6 knight for half a minute,
            // hidden by Black's arm bringing the bishop to g4, was given the bishop).
            let (changed, unchanged) = (self.changed_at[i], self.unchanged_at[i]);
            let hid_then = self.hid_since[i] <= changed;
            let could_have = |t: &HandTrack| t.entered <= unchanged + REACH_SECS || (hid_then && self.hid_first[i] == Some(t.side));
            let came_before = |(id, _): &(u32, Visit)| self.hands.get(id).is_some_and(could_have);
            // Nor a stay that ended before the square was last seen as it was with no fingertips
            // near: the change came later (rendered game 30: g6, dated by the fingertips' stay
            // over the g7 pawn they adjusted, which ended before g6 was seen empty for half a
            // second and the knight set on f6 leaned into it, was taken for that pawn's move,
            // before the knight's). Seen as it was with fingertips near, a square may be a
            // piece set down that vision has not yet taken in.
            let since = self.clear_at[i] - STAY_LAG_SECS;
            let on_it = self.longest_on(shakmaty::Bitboard::from_square(sq), since).filter(came_before);
            let who = on_it.or_else(|| self.longest_on(shakmaty::attacks::king_attacks(sq), since).filter(came_before));
            // Or an arm gone a moment ago that stayed on the square longer than any hand still
            // here, the square unseen since: it lifted or set down there under itself, and what
            // it did shows only now (see `gone.rs`). Not a change of colour: a capture's two
            // acts stay one hand's.
            let plain = (settled == SquareState::Empty) != (seen == SquareState::Empty);
            let gone = if plain { self.gone_stay(sq, unchanged - STAY_LAG_SECS).filter(|(_, g)| on_it.is_none_or(|(_, v)| g.length() > v.length())) } else { None };
            let on_it = on_it.filter(|_| gone.is_none());
            let who = who.filter(|_| gone.is_none());
            // Uncovered by an arm, that is: a square vision alone could not read, with no arm on
            // it or beside it (the shade an arm leaves as it goes, a shadow crossing the board),
            // was not hidden, and what it then shows is no likelier than any change no hand was
            // near (the rendered under-promotion scene: g8, shaded as the hand pressed the
            // clock, read white for a dozen frames, a false 7.6).
            let by_arm = self.hid_first[i].is_some() || self.covered_at[i] >= self.hid_since[i];
            let revealed = by_arm && obs.t - self.hidden_at[i] <= REVEAL_SECS;
            // A change seen only as an arm uncovered the square, with the fingertips seen
            // beside it and never on it, must last as long as any change revealed: a square
            // just uncovered is misread more often than one in plain view (scholarsMate2019-
            // 11-18.avi: the dark f8 bishop on its dark square, read empty for two frames as
            // the arm that took the g8 knight uncovered it, was lifted and set back by that
            // hand, a false 4.2.1).
            let beside = on_it.is_none();
            // A change no hand was near must last much longer before it counts: it is far more
            // often a misread (an arm not seen, a reflection) than a piece falling over.
            let needed = if gone.is_some() || (who.is_some() && !(revealed && beside)) {
                self.cfg.confirm_frames
            } else if revealed {
                self.cfg.revealed_frames
            } else {
                self.cfg.unattended_frames
            };
            if self.candidate[i].1 < needed {
                continue;
            }
            // What the frames agreed on, which may be a piece of colour untold.
            let seen = self.candidate[i].0;
            self.candidate[i] = (seen, 0);
            // Or, with no hand about at all, the arm of the one player whose arms hid it since
            // (see `sole_arm`), once the square has shown the change as long as any revealed,
            // where it is one of a plain move's two squares, all else read as believed: its
            // setting down, and with it the lift of the piece it takes. Not a lift alone, whose
            // piece would wait in that arm while the square it went to stays unread, to be
            // given to the next arm that comes (scholarsmate.avi: 3... Nf6's knight, lifted
            // under Black's arm, was set down on f6 by White's queen coming to take on f7).
            let set_down = settled == SquareState::Empty;
            let sole = if plain && set_down && gone.is_none() && who.is_none() && self.two_alone(obs) { self.sole_arm(sq, unchanged) } else { None };
            let stay = who.or(gone);
            let end = stay.map_or((obs.frame, obs.t), |(_, v)| v.end);
            let middle = stay.map_or(end, |(_, v)| {
                let t = (v.start.1 + v.end.1) / 2.0;
                (((v.start.0 + v.end.0) / 2), t)
            });
            // Failing a stay, the last hand to come in that could have, if it came in before the
            // change was first seen. A piece of colour untold that no hand was near goes to no
            // hand: whose it is comes from where pieces went (see apply_acts).
            let hand = who.map(|(id, _)| id).or_else(|| {
                if seen == SquareState::Piece || gone.is_some() {
                    return None;
                }
                self.hands.iter().filter(|(_, t)| t.entered <= changed && could_have(t)).max_by(|a, b| a.1.entered.total_cmp(&b.1.entered)).map(|(id, _)| *id)
            });
            // So credited, to a hand whose fingertips, as the change was first seen, were further
            // off than a square between, the act is a guess: a hand lifts or sets down only what
            // it reaches, though vision may have missed the arm that did (see apply_acts).
            let step = 1.0 / self.fps_hint;
            let far = |t: &HandTrack| {
                let then = t.longest.iter().chain(t.current.iter().map(|(s, v)| (s, v))).find(|(_, v)| v.start.1 - step <= changed && changed <= v.end.1 + step);
                then.is_some_and(|(s, _)| s.distance(sq) > REACH_SQUARES)
            };
            let guessed = who.is_none() && hand.and_then(|id| self.hands.get(&id)).is_some_and(far);
            let role = obs.squares[i].role;
            let gone = gone.map(|(id, _)| id).or(sole);
            match (settled, seen) {
                (SquareState::Empty, c) => acts.push(Act { at: middle, until: end, hand, square: sq, lift: false, colour: colour(c), role, guessed, gone }),
                (_, SquareState::Empty) => acts.push(Act { at: end, until: end, hand, square: sq, lift: true, colour: None, role: None, guessed, gone }),
                (_, c) => {
                    // A colour change: the taken piece off, the taker on. The victim's lift
                    // keeps the stay's end, when the fingertips left the square with it.
                    acts.push(Act { at: middle, until: end, hand, square: sq, lift: true, colour: None, role: None, guessed, gone });
                    acts.push(Act { at: middle, until: end, hand, square: sq, lift: false, colour: colour(c), role, guessed, gone });
                }
            }
        }
        acts
    }

    /// Whether `sq`, read as `seen`, shows the lean it was left with (see
    /// [`Tracker::leaned_over`]): still empty as believed, read in the lean's colour, and no
    /// hand's fingertips have rested on it since (a piece set there, in the lean's colour,
    /// would read the same).
    /// Whether, with no hand about and no piece waiting in a hand gone, only two squares read
    /// unlike what is believed there (or unreadable): a plain move's, no castling (whose
    /// pieces' names the board settles best) nor anything misread beside (see `sole_arm`).
    fn two_alone(&self, obs: &Observation) -> bool {
        let unlike = |sq: Square| {
            let (seen, believed) = (obs.squares.get(usize::from(sq)).map_or(SquareState::Occluded, |s| s.state), self.belief[usize::from(sq)]);
            seen == SquareState::Occluded || (seen == SquareState::Empty) != believed.is_none() || colour(seen).is_some_and(|c| believed.is_some_and(|p| p.color != c))
        };
        self.hands.is_empty() && self.loose.is_empty() && Square::ALL.into_iter().filter(|&sq| unlike(sq)).count() == 2
    }

    fn lean_stays(&self, sq: Square, seen: SquareState) -> bool {
        let i = usize::from(sq);
        let Some((c, since)) = self.leaned_over[i] else { return false };
        let rested = self.hands.keys().any(|&id| self.rested_on(id, sq).is_some_and(|v| v.end.1 >= since));
        self.belief[i].is_none() && colour(seen) == Some(c) && !rested
    }

    /// The player whose arm hides `sq`: one covering it, else one covering a square next to it.
    pub(super) fn hider(&self, obs: &Observation, sq: Square) -> Option<Side> {
        let near = shakmaty::attacks::king_attacks(sq);
        let side = |h: &crate::types::HandObs| self.hands.get(&h.id).map(|t| t.side);
        obs.hands.iter().find(|h| h.covers.contains(&sq)).or_else(|| obs.hands.iter().find(|h| h.covers.iter().any(|c| near.contains(*c)))).and_then(side)
    }
}
