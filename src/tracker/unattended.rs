//! An act no hand was seen making (an arm vision missed, a piece falling, an arm gone a moment
//! ago): a piece that left its square waits among those seen gone, and a piece set down is
//! one of those, one left in a hand just gone, or, on a far rank, a promotion's new piece.
//! Nothing is invented: a piece from nowhere is refused and the square looked at again.

use shakmaty::{Color, Piece, Role, Square};

use super::acts::off;
use super::{Act, LOOSE_SECS, Tracker, on_far_rank};

impl Tracker {
    /// Applies `act`, which no hand made; `taken` gathers the pieces that came off squares in
    /// this batch of acts, and where from.
    pub(super) fn apply_unattended(&mut self, act: Act, taken: &mut Vec<(Square, Piece)>) {
        let i = usize::from(act.square);
        if act.lift {
            if act.gone.is_some_and(|g| self.lifted_by_gone(&act, g)) {
                return;
            }
            self.unheard = true;
            taken.extend(self.belief[i].map(|p| (act.square, p)));
            self.unattended.extend(self.belief[i].take().map(|p| (p, act.square)));
        } else {
            // Of the pieces seen gone, one that could have come here; one that could not
            // (a misread square, or a piece knocked over) only as a last resort.
            let k = act.pick(&self.unattended, |(p, from)| Some(p).filter(|p| self.could_reach(p, *from, act.square)));
            // Or one that left in a hand just gone: set down as the arm withdrew. Or
            // one of the player's own that left in their hand longer ago, on a square
            // that player's arm hid and that was not seen since before the hand left:
            // set down under the arm, and seen only now (rendered game 105's O-O: the
            // king on g1 read as no look for seven seconds after the arm left).
            // Either way the square changed after the piece was lifted: a square misread
            // for long is not where a capture's victim, carried off since, was set down
            // (rendered game 30: g6, read as black beside the f6 knight since 6... Nf6,
            // took the bishop taken on f3 three moves later, a false 7.6).
            let recent = act.at.1 - LOOSE_SECS;
            let unseen_since = self.unchanged_at[i];
            let under_arm = |l: &super::Loose| unseen_since <= l.at && self.hid_first[i] == Some(l.side) && l.own;
            // Or, for a player's own piece, on a square refused before as a piece from
            // nowhere (read as one of its colour, a neighbour leaning over it) that an
            // arm was over after the lift: it reads as it did, so no change dates the
            // setting down, and a player's own piece seldom leaves the board (rendered
            // game 230's 19... Ne8, set behind the king on e7 that leant over e8). Only
            // once the squares the arm uncovered have shown what it set down: a piece
            // still in hand as the arm left is not taken for one set down there (a
            // square misread before the arm hid it is not where it set its piece).
            let refused_then_covered = |l: &super::Loose| l.own && self.refused.contains(act.square) && self.covered_at[i] >= l.lifted.1 && act.at.1 - l.at >= super::REVEAL_SECS;
            let after_lift = |l: &super::Loose| self.changed_at[i] >= l.since || refused_then_covered(l);
            // A capture's victim, carried off, comes back, if at all, to the square it was
            // taken on (the capture taken back): one set down elsewhere as the arm left is
            // a misread (rendered game 220: the knight taken on f3 seen set on d1, which
            // the queen had left, a false 7.6). Nor is it the piece of colour untold set
            // down there while a piece of its taker's side that could have gone there may
            // have left its square (seen gone, or not seen since an arm hid it): that is
            // the taker, and the square waits until it shows (rendered game 325's 7...
            // exd5 and 375's 16. Ndxe4, each read untold as the arm left, were taken for
            // the pawn they took, put back, and the game was lost).
            let taker_gone = |l: &super::Loose| {
                let taker = Color::from(l.side);
                let may_have_gone = |s: Square| self.in_doubt(s) && self.belief[usize::from(s)].is_some_and(|p| p.color == taker && self.could_reach(&p, s, act.square));
                act.colour.is_none() && Square::ALL.into_iter().any(may_have_gone)
            };
            let comes_back = |l: &super::Loose| l.own || (l.from == act.square && !taker_gone(l));
            let gone = act.pick(&self.loose, |l| ((l.at >= recent || under_arm(l)) && after_lift(l) && comes_back(l)).then_some(&l.piece));
            // When the piece was lifted, where a hand lifted it.
            let mut in_hand = None;
            let piece = match (k, gone) {
                (Some(k), _) => {
                    let (piece, from) = self.unattended.remove(k);
                    // Set down by the one player's arm over the board since: the lift
                    // was that arm's too (see `sole_arm`).
                    in_hand = self.sole_lifted(from, &act);
                    piece
                }
                (None, Some(g)) => {
                    in_hand = Some(self.loose[g].lifted);
                    // Where it set down on a square whose piece just came off, that
                    // piece was taken, not left to turn up elsewhere.
                    if let Some(k) = off(taken, act.square).and_then(|q| self.unattended.iter().rposition(|(p, _)| *p == q)) {
                        self.unattended.remove(k);
                    }
                    self.loose.remove(g).piece
                }
                // Or from a square already seen empty but not yet counted as such.
                (None, None) => {
                    let fits = |t: &Tracker, p: &Piece, from: Square| act.colour.is_none_or(|c| p.color == c) && t.could_reach(p, from, act.square);
                    // Of colour untold, where the piece that left may be the change to
                    // its colour another square shows: looked at again until it shows.
                    let elsewhere = |from: Square| self.belief[usize::from(from)].is_some_and(|p| self.shown_elsewhere(&p, from, act.square));
                    let source = self.seen_emptied(fits);
                    if act.colour.is_none() && source.is_some_and(elsewhere) {
                        self.look_again(act.square, None);
                        return;
                    }
                    let emptied = source.and_then(|from| self.take_emptied(from));
                    // A piece of the side that has just moved, whose one possible source
                    // is a square an arm hid and was over a moment ago: that square shows
                    // in a moment whether its piece is still there, and the board is not
                    // told meanwhile (rendered game 30, low camera: the knight set on f6
                    // leaning into g6 as the arm withdrew over the g7 pawn it had
                    // adjusted, recorded as 6... g6). The side to move takes it at once:
                    // a king castled by an arm vision saw only in part may leave a square
                    // that reads, once uncovered, as if it still stood there (rendered
                    // game 50's 17... O-O: the e7 bishop leaning over e8); so do both
                    // pieces of a castling, the second set down after the side moved
                    // (rendered game 185's 5. O-O).
                    let hidden = if emptied.is_none() { self.arm_hidden_source(act.square, act.colour) } else { None };
                    let again = act.colour.is_some_and(|c| c != self.to_move);
                    if again && hidden.is_some_and(|s| self.just_uncovered(s) && !self.castles(s, act.square)) {
                        self.look_again(act.square, act.colour);
                        return;
                    }
                    match emptied.or_else(|| hidden.and_then(|s| self.belief[usize::from(s)].take().map(|p| (p, s)))) {
                        // Set down by an arm gone, one of two hands: its lift is the
                        // hand's that stayed longest where it stood. Or by the one
                        // player's arm that was over the board: its lift is that arm's.
                        Some((piece, from)) => {
                            if act.gone.is_some() {
                                in_hand = self.gone_lifted(from, None).or_else(|| self.sole_lifted(from, &act));
                            }
                            piece
                        }
                        // A piece seen gone that could not have come here, while a square
                        // whose piece could have is still unseen or being seen emptied: the
                        // square is looked at again until that one shows (rendered game 165:
                        // Black's 13... c5 by an arm vision missed, the b8 knight misread as
                        // gone a moment before c7 showed empty, recorded as the knight's).
                        // Nor does a square refused as a piece from nowhere, and read so
                        // since, before the board was last told: that misread stood before the
                        // piece left (rendered game 225: e1, read untold under the e2
                        // queen's lean for a minute, took Black's queen gone from d6 by an
                        // arm vision missed, before d5 showed where she went, a false 7.6).
                        // One refused since is part of what is going on (rendered game 125's
                        // 7. Bd3: the queen's d1, read empty a moment, lent her to d3, and
                        // took the bishop when it read white again and f1 empty).
                        None if let Some(k) = act.pick(&self.unattended, |(p, _)| Some(p)) => {
                            let standing = self.refused.contains(act.square) && self.refused_at[i] < self.told_at;
                            if standing || self.source_in_doubt(act.square, act.colour) {
                                self.refuse_unattended(act.square, off(taken, act.square));
                                return;
                            }
                            self.unattended.remove(k).0
                        }
                        // A piece from nowhere, with no hand near, is a promotion's new
                        // piece where a pawn of its colour just left the board and it stands
                        // on that pawn's last rank. Anything else is far more often a
                        // misread (a tall neighbour leaning over the square, a reflection)
                        // than a piece brought in by an arm vision missed: nothing is
                        // invented, and the square is looked at again (it takes the piece
                        // once one is seen gone from another square).
                        None => {
                            let Some(color) = act.colour.filter(|&c| on_far_rank(c, act.square)) else {
                                self.refuse_unattended(act.square, off(taken, act.square));
                                return;
                            };
                            let pawn = |p: &Piece| p.color == color && p.role == Role::Pawn;
                            if let Some(g) = self.loose.iter().rposition(|l| pawn(&l.piece)) {
                                self.loose.remove(g);
                            } else if let Some(k) = self.unattended.iter().rposition(|(p, _)| pawn(p)) {
                                self.unattended.remove(k);
                            } else {
                                self.refuse_unattended(act.square, off(taken, act.square));
                                return;
                            }
                            Piece { color, role: act.role.unwrap_or(Role::Queen) }
                        }
                    }
                }
            };
            // Set down by an arm gone, with a piece a hand lifted: written under its id.
            // Else only a board snapshot tells the rules.
            match (act.gone, in_hand) {
                (Some(g), Some(lifted)) => self.set_down_by_gone(&act, g, piece, lifted),
                _ => self.unheard = true,
            }
            self.captured_on(act.square, piece);
            self.belief[i] = Some(piece);
            self.to_move = !piece.color;
        }
    }

    /// `sq`'s change, with no hand near, is found to be no act yet and looked at again once a
    /// piece is seen gone elsewhere. Where it was a change of colour, the piece `taken` off
    /// `sq` with it stays: a piece turning the other colour where it stands, when no piece of
    /// that colour can have come, is a misread (a knight set beside it leaning over it), and a
    /// piece counted gone would keep the board from being told (rendered game 220's 21. Nb5:
    /// the a5 pawn, read white under the knight's lean, taken off; the board was not told again
    /// until a 7.6 half a minute later). Should a piece that could have come show later, the
    /// change is seen again and made then.
    fn refuse_unattended(&mut self, sq: Square, taken: Option<Piece>) {
        self.refuse(sq);
        let Some(piece) = taken else { return };
        if let Some(k) = self.unattended.iter().rposition(|&(p, from)| p == piece && from == sq) {
            self.unattended.remove(k);
            self.belief[usize::from(sq)] = Some(piece);
        }
    }

    /// The one square an arm hid, still unseen since, whose piece (of `colour`) could have gone
    /// to `to`: what the arm did there is not known, and a piece of that colour turning up where
    /// it could have come from says it left (rendered game 50's 17... O-O: the arm seen only in
    /// part, e8 fit no look from the king's lift on — the e7 bishop leaning over it — and the
    /// king on g8 was refused as a piece from nowhere). Where two such squares could be the
    /// source, neither is: a guess would be a move invented. An arm hid it where one was first
    /// to, or where one was over it after it was last seen: a square may go unread a moment
    /// before the arm is seen over it (its shadow first), and no arm is then known to have hidden
    /// it first (rendered game 230's 28... Ke7).
    fn arm_hidden_source(&self, to: Square, colour: Option<Color>) -> Option<Square> {
        let colour = colour?;
        let occupied = self.occupied();
        let mut found = Square::ALL.into_iter().filter(|&s| {
            let j = usize::from(s);
            s != to && self.hidden_at[j] > self.seen_at[j] && (self.hid_first[j].is_some() || self.covered_at[j] > self.seen_at[j]) && !self.seen_after_change(s, to) && self.may_have_come(s, to, colour, None, occupied)
        });
        let from = found.next()?;
        found.next().is_none().then_some(from)
    }
}
