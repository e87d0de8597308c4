//! Changes turned into the hands' acts: which piece was lifted, which was set down and where it
//! came from — the hand's own, a piece seen gone while no hand was near, one left in a hand
//! just gone, or, on a far rank, a promotion's new piece. Nothing is invented: a piece from
//! nowhere is refused and the square looked at again. What no hand was seen doing is in
//! `unattended.rs`.

use shakmaty::{Color, Piece, Role, Square};

use super::{Act, HandTrack, Held, LOOSE_SECS, Tracker, Visit, can_stand, castling, on_far_rank, reaches};
use crate::types::{EventKind, HandId, Side, SquareState};

/// Frames after the fingertips left a square with its piece in which a rest on a neighbour is
/// still that lift seen a square off (the hand rising with the piece is seen further along its
/// reach), not a touch: rendered game 85's 7. Nxd4, the pawn on d4 taken off first, recorded
/// a touch of e4 and a false 4.3.3.
const RISING_FRAMES: f64 = 2.0;

/// How long a square a piece just left may still be read as holding it (its reading lags the
/// hand by a few frames) after the piece shows where it went, seconds.
const LAG_SECS: f64 = 0.5;

impl Tracker {
    /// A piece of colour untold where the other side's piece stood, on a square the fingertips
    /// went over with a piece of the other side in the hand, still held or taken out of view,
    /// or where a piece of the other side seen gone unattended could have gone: it took there
    /// (a capture whose taker vision cannot tell the colour of); it would otherwise have
    /// vanished. A hand takes only with its own player's pieces: one of the opponent's in it
    /// is a piece it took and is carrying off.
    pub(super) fn untold_taker(&self, sq: Square, seen: SquareState, now: f64) -> Option<SquareState> {
        // Where the colour last read is the one believed, or the other one read over it (the
        // taker's colour seen for a moment before it read untold: rendered game 230's 3...
        // dxe4, the black pawn read black once as the arm left, then untold, kept the white
        // pawn and lost the game). Not where the taker is believed and the victim's colour was
        // the last read: the taker is not taken back.
        let i = usize::from(sq);
        let changed_colour = |p: &Piece| self.told[i] == Some(p.color) || (self.told[i] == Some(!p.color) && self.told_over[i] == Some(p.color));
        let stood = self.belief[i].filter(|p| seen == SquareState::Piece && changed_colour(p))?;
        let takes = |p: &Piece| p.color != stood.color && can_stand(*p, sq);
        let own = |p: &Piece, side: Side| p.color == Color::from(side);
        let held = self.hands.iter().filter(|(id, _)| self.visit_of(**id, sq).is_some()).find_map(|(_, t)| t.held.iter().rev().map(|h| &h.piece).find(|p| takes(p) && own(p, t.side)));
        let gone = || self.loose.iter().rev().find(|l| l.at >= now - LOOSE_SECS && l.over.contains(sq) && takes(&l.piece) && l.own).map(|l| &l.piece);
        // Or one seen gone from a square no hand was seen over, that could have gone there: a
        // piece untold where a black one always read black is a change of piece.
        let unseen = || {
            let occupied = self.occupied();
            self.unattended.iter().rev().find(|(p, from)| takes(p) && reaches(*p, *from, sq, occupied, true)).map(|(p, _)| p)
        };
        held.or_else(gone).or_else(unseen).map(|p| SquareState::of(Some(*p)))
    }

    pub(super) fn apply_acts(&mut self, mut acts: Vec<Act>) {
        // At one time, lifts first; then pieces whose colour vision told before those of colour
        // untold: a tall piece's lean into the square beside reads untold more often than the
        // piece itself (rendered game 225's 13. Qe2, her lean over e1 read untold, e2 white, both
        // seen in one frame, recorded Qe1).
        acts.sort_by(|a, b| a.at.1.total_cmp(&b.at.1).then(b.lift.cmp(&a.lift)).then(a.colour.is_none().cmp(&b.colour.is_none())));
        self.castling_order(&mut acts);
        let step = 1.0 / self.fps_hint;
        // The pieces that came off squares with no hand near in this batch, and where from: a
        // change of colour is read as one square's lift and place, and other squares' acts may
        // fall between the two (rendered game 220's 15... Qd7, seen as the arm left in the
        // batch where the a5 pawn, read white under a knight's lean, was once more refused: d8's
        // lift, between a5's two, made the pawn look gone and kept the board from being told).
        let mut taken: Vec<(Square, Piece)> = Vec::new();
        let before = self.belief;
        for (k, act) in acts.iter().copied().enumerate() {
            let i = usize::from(act.square);
            let Some(id) = act.hand else {
                // No hand was seen over this square (an arm vision missed, or a piece falling):
                // the piece that left a square goes where a piece of its colour appeared, and the
                // next board snapshot tells the rules what now stands where.
                self.apply_unattended(act, &mut taken);
                continue;
            };
            let hand = HandId(self.hands.get(&id).map_or(id, |t| t.event_id));
            if act.lift {
                // A stay on a neighbour that was this grasp, seen a square off, was no touch
                // (see [`grasped_beside`](Self::grasped_beside)). Nor is a rest on a neighbour
                // that began as the fingertips left this square: the hand rising with the
                // piece is seen further along its reach.
                let off = self.grasped_beside(id, act.square, act.at, self.unchanged_at[i]);
                self.take_back_touches(hand, act.square, off, act.until.1);
                if let Some(p) = self.belief[i].take() {
                    self.emit(act.at, EventKind::Lift { hand, square: act.square });
                    let held = self.held(p, act.at, act.square, self.unchanged_at[i].min(act.at.1), act.guessed.then_some(self.seq));
                    if let Some(t) = self.hands.get_mut(&id) {
                        t.held.push(held);
                        t.lifted.add(act.square);
                    }
                }
                continue;
            }
            // What this hand lifted, else what another hand of the player holds (a hand-over),
            // else a piece from off the board (a promotion): of the colour seen, or, where
            // vision could not tell it, of the player's. A capture's victim, lifted first, is
            // carried off, while the taker's lift may be confirmed only after its setting down
            // is (its square still under the arm). A hand holding only the other side's pieces
            // sets nothing down yet; the square is looked at again once the taker's lift is seen
            // (rendered game 55: 8... Bxd3 recorded the white bishop back on d3).
            let colour = act.colour;
            let player = self.hands.get(&id).map(|t| Color::from(t.side));
            let fits = |p: &Piece| colour.map_or(Some(p.color) == player, |c| p.color == c);
            // Of the pieces that fit, one already in the hand when the stay that dates this
            // setting down began: a hand holding the king and the rook as g1 and f1 show set the
            // king on g1 before it lifted the rook (rendered game 165's O-O, recorded Rg1).
            // One lifted only later, not where the king the hand dwelt on before, its square
            // still in doubt, may be the one set on its castling square: rendered game 125's
            // 10... O-O, the king lifted off e8 under the arm, e8 unread since, set on g8 (dated
            // by the stay there) before the rook's lift was seen, was taken for the rook, and the
            // king found on f8 a 7.6. Only the king: a capture's taker is often lifted after the
            // stay that dates its setting down began (the victim taken off first), and a queen
            // the arm hid on the way is not it (rendered games 25's 5... Nxd5 and 175's 5. Nxd4).
            let by_then = |h: &Held| h.at.1 <= act.at.1;
            let grasped_before = self.grasps(id, act.square, colour, act.role).iter().any(|(s, v)| self.in_doubt(*s) && v.end.1 <= act.at.1 && self.castles(*s, act.square));
            let mut take = |t: &mut HandTrack| {
                let k = t.held.iter().rposition(|h| fits(&h.piece) && by_then(h)).or_else(|| t.held.iter().rposition(|h| fits(&h.piece) && !grasped_before));
                k.map(|k| t.held.remove(k))
            };
            let carried = match self.hands.get_mut(&id).and_then(&mut take) {
                Some(p) => Some(p),
                None => self.hands.values_mut().find_map(&mut take),
            };
            if carried.is_none() && colour.is_none() && self.hands.get(&id).is_some_and(|t| !t.held.is_empty()) {
                self.refuse(act.square);
                continue;
            }
            // A guessed lift whose piece shows again where it stood, set there by as much of a
            // guess, never happened: the lift is taken back unwritten, and nothing is set down
            // (scholarsMate2019-11-18.avi: the d8 queen, read empty while the fingertips of an
            // arm reaching for g8 were on g7 and g6, was adjusted by that hand, a false 4.2.1).
            if let Some(h) = carried.filter(|h| act.guessed && h.from == act.square && h.guessed.is_some_and(|seq| self.guess_unwritten(seq))) {
                self.take_back_guess(&h);
                if let Some(t) = self.hands.get_mut(&id) {
                    t.lifted.discard(act.square);
                }
                self.belief[i] = Some(h.piece);
                continue;
            }
            // A piece carried from a square it cannot reach this one from, beside a square it can
            // that may hold it now: set down there, a tall piece leans over the square beside,
            // which reads as its colour while the one it stands on is still under the arm
            // (rendered game 270's 17. Qxd7: the queen's head over d8 read white first, Qa4-d8
            // was recorded and the game lost). It stays in the hand, and the square is looked at
            // again until the other one shows; a move where it cannot go is still recorded
            // then, if nothing else explains the square.
            // So does a piece whose lift was a guess, where a square this hand grasped explains
            // the place better (see [`guess_beside_grasp`](Self::guess_beside_grasp)).
            if let Some(h) = carried.filter(|h| self.leans_from_doubt(h, act.square, &acts[k + 1..]) || self.guess_beside_grasp(id, h, act.square)) {
                self.hold_back(id, h, act.square, colour);
                continue;
            }
            // Vision naming a different piece than the one carried: the carried one (a pawn
            // being promoted) stays in the hand and a new piece came from off the board.
            let carried = match carried {
                // On the rank where its side promotes, only a pawn is taken to be other than vision
                // names it: vision names pieces there for promotions, and may misname a rook or a
                // queen that arrives there by a plain move.
                Some(h) if act.names_other_than(&h.piece) && (h.piece.role == Role::Pawn || !on_far_rank(h.piece.color, act.square)) => {
                    if let Some(t) = self.hands.get_mut(&id) {
                        t.held.push(h);
                    }
                    None
                }
                other => other,
            };
            // Where two squares in doubt hold a piece it may be, the square is looked at again
            // (its change counted all but once) until they show which one went.
            if carried.is_none() && self.unsure_source(id, act.square, colour, act.role) {
                self.look_again(act.square, colour);
                continue;
            }
            // A piece of the hand's player (of the colour seen, or of colour untold: rendered
            // game 40's O-O, the king seen gone from e1 by no arm seen and set on g1 read untold,
            // was taken for the h1 rook) seen gone while no hand was near: from this very
            // square, it is the one set back (the arm lost for a moment: an adjustment, its lift
            // this hand's); else from another square (or seen gone there, and not yet long enough
            // to count), one that could have come here: the arm that took it was not seen (it
            // reached in low over the board's edge), and a piece seen gone explains more than a
            // lift inferred under the arm (rendered game 95: the knight seen gone from b1, then
            // set on c3 by an arm resting on c2, was read as the c2 pawn's move).
            let own = |p: &Piece| Some(p.color) == player && fits(p) && act.admits(p);
            let carried = carried.or_else(|| {
                let k = self.unattended.iter().rposition(|(p, from)| *from == act.square && own(p));
                let k = k.or_else(|| self.unattended.iter().rposition(|(p, from)| own(p) && self.could_reach(p, *from, act.square)));
                let (piece, from) = match k {
                    Some(k) => self.unattended.remove(k),
                    None => self.take_seen_emptied(|t, p, from| own(p) && t.could_reach(p, from, act.square))?,
                };
                // Unless an arm gone stayed on that square longer: it lifted the piece and passed
                // it on (see `gone.rs`).
                if let Some(at) = self.gone_lifted(from, self.visit_of(id, from)) {
                    return Some(self.held(piece, at, from, at.1, None));
                }
                let at = (act.at.0.saturating_sub(1), act.at.1 - step);
                // Where this hand's fingertips were on that square, a rest beside it that began
                // as they left was the hand rising with the piece (rendered game 215's 8. Nc3).
                if let Some(v) = self.visit_of(id, from) {
                    self.take_back_touches(hand, from, shakmaty::Bitboard::EMPTY, v.end.1);
                }
                self.emit(at, EventKind::Lift { hand, square: from });
                Some(self.held(piece, at, from, at.1, None))
            });
            // A hand that has set a piece down elsewhere already, setting down another it was
            // not seen lifting, waits while the square that piece would have come from is in
            // doubt, until it shows whether its piece is still there: a piece leaning over the
            // square beside the one just set down reads as a piece of its colour there
            // (rendered game 30, low camera: the knight set on f6 leaning into g6, while the g7
            // pawn the hand had adjusted was still under the arm, recorded 6... g6).
            if carried.is_none() && self.second_unseen(id, act.square, colour, act.role) {
                self.look_again(act.square, colour);
                continue;
            }
            let carried = carried.or_else(|| self.lift_unseen(id, act.square, colour, act.role));
            // So, where vision could not tell its colour, does a piece that may be the change to
            // its colour another square it could reach shows as the arm uncovers it.
            if let Some(h) = carried.filter(|h| colour.is_none() && self.hands.contains_key(&id) && self.shown_elsewhere(&h.piece, h.from, act.square)) {
                self.hold_back(id, h, act.square, colour);
                continue;
            }
            // A piece that left in a hand now gone comes back from off the board, so it is named:
            // for the rules that hand's pieces left with it.
            let recent = act.at.1 - LOOSE_SECS;
            self.loose.retain(|l| l.at >= recent);
            let loose = self.loose.iter().rposition(|l| act.admits(&l.piece));
            // Or, read in the other colour, the player's own that left in their hand, where no
            // piece of the colour read is missing (see `misread.rs`). The hand the change went
            // to may be a guess (the other player's arm over the board while this one's, gone,
            // set the piece down): then it is set there as by no hand.
            let misread = match (&carried, loose) {
                (None, None) => colour.filter(|&c| !self.missing(c)).and_then(|c| {
                    let by = |l: &super::Loose| Some(l.piece.color) == player || act.guessed;
                    self.loose.iter().rposition(|l| l.own && l.piece.color != c && by(l) && can_stand(l.piece, act.square) && self.could_reach(&l.piece, l.from, act.square))
                }),
                _ => None,
            };
            if let Some(k) = misread.filter(|&k| Some(self.loose[k].piece.color) != player) {
                let piece = self.loose.remove(k).piece;
                self.belief[i] = Some(piece);
                self.miscoloured.add(act.square);
                self.unheard = true;
                self.to_move = !piece.color;
                continue;
            }
            let (piece, named, lifted) = match (carried, loose.or(misread)) {
                (Some(h), _) => (h.piece, None, Some(h.at)),
                (None, Some(k)) => {
                    let p = self.loose.remove(k).piece;
                    (p, Some(p.role), None)
                }
                (None, None) => {
                    // A piece from off the board is a promotion's: of the colour seen, on the
                    // rank where that colour promotes, or, untold, the promoting side's where
                    // vision named a piece on a far rank. Anywhere else nothing is taken yet: a
                    // piece the hand brought from a square vision did not see it leave, or a
                    // misread; the square is looked at again, and takes the piece once one is
                    // seen gone from another square.
                    // And only where a pawn of that colour could have promoted: a black piece set on
                    // the first rank with no black pawn near it is one whose lift vision has not
                    // confirmed yet (rendered game 255's 8... Bxd1: the bishop's g4, read as still
                    // held by the knight leaning over it, was confirmed empty after the taker was
                    // set down on d1, which took it for a promoted knight and lost the game).
                    let promoting = || Color::ALL.into_iter().find(|&c| on_far_rank(c, act.square));
                    let promoted = match colour {
                        Some(c) => on_far_rank(c, act.square).then_some(c),
                        None => act.role.and_then(|_| promoting()),
                    }
                    .filter(|&c| self.may_promote(c));
                    let Some(color) = promoted else {
                        self.refuse(act.square);
                        continue;
                    };
                    let role = act.role.unwrap_or(Role::Queen);
                    (Piece { color, role }, Some(role), None)
                }
            };
            // A piece is set down after it was lifted, though the stay that dates the setting
            // down may have begun before (a capture under the arm: the victim's square, taken
            // and given the taker in one stay, while the taker's lift was dated by its own).
            let at = match lifted {
                Some(l) if l.1 >= act.at.1 => (l.0 + 1, l.1 + step),
                _ => act.at,
            };
            self.captured_on(act.square, piece);
            self.belief[i] = Some(piece);
            if misread.is_some() {
                self.miscoloured.add(act.square);
            }
            self.to_move = !piece.color;
            // Fingers resting on the piece just put down are not a new touch.
            if let Some(t) = self.hands.get_mut(&id) {
                t.touched.push(act.square);
                t.placed.add(act.square);
            }
            let color = (named.is_some() && self.hands.get(&id).is_some_and(|t| Color::from(t.side) != piece.color)).then_some(Side::from(piece.color));
            self.emit(at, EventKind::Place { hand, square: act.square, piece: named, color });
            let release = if act.until.1 > at.1 { act.until } else { (at.0 + 1, at.1 + step) };
            self.emit(release, EventKind::Release { hand, square: act.square });
        }
        // Only a change of what stands where is news for a board snapshot: an act refused (a
        // piece from nowhere, looked at again each time its change is confirmed) is none.
        if self.belief != before {
            self.dirty = true;
        }
    }

    /// A piece that left its square and was not seen set down, while a square its player's arm
    /// hid is still unseen where it could have gone (from its square, and for a piece taken
    /// out of view in the hand, near where the fingertips went): it was set down there, under
    /// the arm, if that is the one such square. A player does not leave with their own piece,
    /// and a square may stay unreadable long after the arm (rendered game 110's 9. h6: the pawn
    /// set on h6 at the board's edge, read as no look for nine seconds beside the other
    /// player's resting hand, was told as missing from h5, a 7.6). Two such squares, or two
    /// pieces for one: no guess.
    pub(super) fn set_down_unseen(&mut self, obs: &crate::types::Observation) {
        let unseen: shakmaty::Bitboard = Square::ALL
            .into_iter()
            .filter(|&sq| {
                let i = usize::from(sq);
                obs.squares.get(i).is_some_and(|s| s.state == SquareState::Occluded) && self.hid_first[i].is_some() && self.belief[i].is_none()
            })
            .collect();
        if unseen.is_empty() {
            return;
        }
        let occupied = self.occupied();
        let hid_by = |side: Side| -> shakmaty::Bitboard { unseen.into_iter().filter(|&sq| self.hid_first[usize::from(sq)] == Some(side)).collect() };
        let near = |over: shakmaty::Bitboard| over.into_iter().fold(over, |b, sq| b | shakmaty::attacks::king_attacks(sq));
        let spot = |piece: Piece, from: Square, allowed: shakmaty::Bitboard| {
            let mut spots = allowed.into_iter().filter(|&sq| can_stand(piece, sq) && (sq == from || reaches(piece, from, sq, occupied, false)));
            match (spots.next(), spots.next()) {
                (Some(sq), None) => Some(sq),
                _ => None,
            }
        };
        // (whether in a hand, index, piece, where it goes)
        let mut found: Vec<(bool, usize, Piece, Square)> = Vec::new();
        for (k, l) in self.loose.iter().enumerate() {
            if l.own {
                found.extend(spot(l.piece, l.from, hid_by(l.side) & near(l.over)).map(|sq| (true, k, l.piece, sq)));
            }
        }
        for (k, &(piece, from)) in self.unattended.iter().enumerate() {
            found.extend(spot(piece, from, hid_by(Side::from(piece.color))).map(|sq| (false, k, piece, sq)));
        }
        let alone: Vec<(bool, usize, Piece, Square)> = found.iter().copied().filter(|f| found.iter().filter(|g| g.3 == f.3).count() == 1).collect();
        // Removed from the back so that the indices still hold.
        for &(in_hand, k, piece, sq) in alone.iter().rev() {
            if in_hand {
                self.loose.remove(k);
            } else {
                self.unattended.remove(k);
            }
            self.belief[usize::from(sq)] = Some(piece);
            self.to_move = !piece.color;
            self.dirty = true;
        }
    }

    /// Whether a pawn of `color` is where a promotion comes from: on the rank before its last,
    /// or on the last (set there before the swap), standing, in a hand, or seen gone from there.
    fn may_promote(&self, color: Color) -> bool {
        let pawn = Piece { color, role: Role::Pawn };
        let near_end = |sq: Square| [shakmaty::Rank::Seventh, shakmaty::Rank::Eighth].contains(&color.relative_rank(sq.rank()));
        let standing = Square::ALL.into_iter().any(|sq| self.belief[usize::from(sq)] == Some(pawn) && near_end(sq));
        let held = self.hands.values().flat_map(|t| &t.held).any(|h| h.piece == pawn && near_end(h.from));
        let loose = self.loose.iter().any(|l| l.piece == pawn && near_end(l.from));
        let gone = self.unattended.iter().any(|&(p, from)| p == pawn && near_end(from));
        standing || held || loose || gone
    }

    /// Takes the change seen on `sq` to be no act, noting since when, if it was not already.
    pub(super) fn refuse(&mut self, sq: Square) {
        if !self.refused.contains(sq) {
            self.refused_at[usize::from(sq)] = self.last_seen_t;
        }
        self.refused.add(sq);
    }

    /// `held`, about to be set on `sq` by hand `id`, stays in that hand, and the change seen on
    /// `sq` (a piece of `colour`, if told) is looked at again until the square it may be on
    /// shows.
    fn hold_back(&mut self, id: u32, held: Held, sq: Square, colour: Option<Color>) {
        if let Some(t) = self.hands.get_mut(&id) {
            t.held.push(held);
        }
        self.look_again(sq, colour);
    }

    /// The neighbours of `from` where hand `id`'s fingertips rested as it grasped the piece on
    /// `from`, seen a square off: the stay that timed the lift (at `at`); and, where the
    /// fingertips never rested on the piece itself, any stay that ended after `from` was last
    /// seen with its piece (`unseen_since`) and by `at`: the square stayed under the hand, and
    /// the lift shows only once it is seen again, or is inferred when the piece is set down
    /// (rendered game 360, a camera low behind White: Black's fingertips read on d7 as the hand
    /// grasped the queen on d8, gone unseen under it and set on c7 half a second later; a false
    /// 4.3.1).
    pub(super) fn grasped_beside(&self, id: u32, from: Square, at: (u64, f64), unseen_since: f64) -> shakmaty::Bitboard {
        let never_on = self.visit_of(id, from).is_none_or(|v| v.length() < self.cfg.dwell_secs);
        let grasp = |v: Visit| v.end.0 == at.0 || (never_on && v.end.1 >= unseen_since && v.end.1 <= at.1);
        shakmaty::attacks::king_attacks(from).into_iter().filter(|&t| self.visit_of(id, t).is_some_and(grasp)).collect()
    }

    /// Takes back the touches of `hand`, not yet written, that were its grasp of the piece on
    /// `from`, seen a square off: those on `off`, and those on a neighbour of `from` that began
    /// as the fingertips left it at `left` (the hand rising with the piece).
    pub(super) fn take_back_touches(&mut self, hand: HandId, from: Square, off: shakmaty::Bitboard, left: f64) {
        let near = shakmaty::attacks::king_attacks(from);
        let fps = self.fps_hint;
        self.pending.retain(|(_, e)| !matches!(e.kind, EventKind::Touch { hand: h, square } if h == hand && (off.contains(square) || (near.contains(square) && rising(left, e.t, fps)))));
    }

    /// Whether the piece on `from` goes to `to` castling.
    pub(super) fn castles(&self, from: Square, to: Square) -> bool {
        self.belief[usize::from(from)].is_some_and(|p| castling(p, from, to))
    }

    /// Whether the piece on `from` is of `colour` (and `role`, if named) and could have gone to
    /// `to` on a board with `occupied` squares.
    pub(super) fn may_have_come(&self, from: Square, to: Square, colour: Color, role: Option<Role>, occupied: shakmaty::Bitboard) -> bool {
        self.belief[usize::from(from)].is_some_and(|p| p.color == colour && role.is_none_or(|r| r == p.role) && reaches(p, from, to, occupied, self.victim(p, to)))
    }

    /// A piece of the other side seen gone from the square `piece` is set on was taken there:
    /// it left the board with the arm that took it, however unseen, and must not stand in later
    /// for a piece of its kind that vanishes elsewhere (rendered game 20: the knight taken on c6,
    /// never seen carried off, was taken for b1's knight on 17. Nc3, a false 7.6).
    pub(super) fn captured_on(&mut self, sq: Square, piece: Piece) {
        self.unattended.retain(|(p, from)| *from != sq || p.color == piece.color);
    }

    /// The change seen on `sq` (a piece of `colour`, if told) is looked at again next frame,
    /// counted all but once, and the board is not told meanwhile.
    pub(super) fn look_again(&mut self, sq: Square, colour: Option<Color>) {
        let state = match colour {
            Some(Color::White) => SquareState::White,
            Some(Color::Black) => SquareState::Black,
            None => SquareState::Piece,
        };
        self.candidate[usize::from(sq)] = (state, self.cfg.confirm_frames.saturating_sub(1));
    }

    /// Whether `from` was seen, with its piece, after `to` began to read as it does now: that
    /// piece was still there, so what `to` shows is not it (rendered game 185: g3, misread as a
    /// white piece for half a minute beside a knight leaning into it, took the g2 pawn once an
    /// arm castling hid g2).
    pub(super) fn seen_after_change(&self, from: Square, to: Square) -> bool {
        self.seen_at[usize::from(from)] > self.changed_at[usize::from(to)] + LAG_SECS
    }

    /// Whether `piece` on `from` could have been moved to `to` as the board stands.
    pub(super) fn could_reach(&self, piece: &Piece, from: Square, to: Square) -> bool {
        reaches(*piece, from, to, self.occupied(), self.victim(*piece, to))
    }

    /// A piece, `fits` for its square, on a square seen empty lately but not yet counted as such
    /// (its change still being confirmed): taken off that square, whose change is then settled.
    fn take_seen_emptied(&mut self, fits: impl Fn(&Tracker, &Piece, Square) -> bool) -> Option<(Piece, Square)> {
        let from = self.seen_emptied(fits)?;
        self.take_emptied(from)
    }

    /// The piece on `from`, a square [`seen_emptied`](Self::seen_emptied), taken off it, and the
    /// square's change settled.
    pub(super) fn take_emptied(&mut self, from: Square) -> Option<(Piece, Square)> {
        let j = usize::from(from);
        self.candidate[j] = (SquareState::Empty, 0);
        Some((self.belief[j].take()?, from))
    }

    /// The square [`take_seen_emptied`](Self::take_seen_emptied) would take its piece from.
    pub(super) fn seen_emptied(&self, fits: impl Fn(&Tracker, &Piece, Square) -> bool) -> Option<Square> {
        Square::ALL.into_iter().find(|&sq| self.turning(sq, SquareState::Empty) && self.belief[usize::from(sq)].is_some_and(|p| fits(self, &p, sq)))
    }

    /// Whether a piece of the other colour than `mover`'s stood on `to` (still believed there,
    /// lifted from there by a hand still over the board, or carried off by one just gone):
    /// whether a pawn may take there.
    pub(super) fn victim(&self, mover: Piece, to: Square) -> bool {
        self.belief[usize::from(to)].is_some_and(|p| p.color != mover.color)
            || self.hands.values().any(|t| t.lifted.contains(to))
            || self.loose.iter().any(|l| l.from == to && l.piece.color != mover.color)
    }
}

/// Whether a rest that began at `at` began as the fingertips left a square at `left` (within
/// [`RISING_FRAMES`] at `fps` frames a second): the hand rising with that square's piece, seen a
/// square further on.
pub(super) fn rising(left: f64, at: f64, fps: f64) -> bool {
    (left..=left + RISING_FRAMES * (1.0 / fps)).contains(&at)
}

/// The piece that came off `sq` in this batch of acts, of those `taken`.
pub(super) fn off(taken: &[(Square, Piece)], sq: Square) -> Option<Piece> {
    taken.iter().rev().find(|(from, _)| *from == sq).map(|(_, p)| *p)
}
