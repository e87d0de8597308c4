//! A player's own piece, gone in their hand, read in the other colour where it was set down:
//! with no piece of that colour missing anywhere, the position leaves no other piece to be
//! there (a cream queen set down in shade at the picture's edge of a dimmed scholarsmate.avi,
//! read black, was taken off the board and the game lost).

use shakmaty::{Color, Piece, Square};

use super::{LOOSE_SECS, Tracker, can_stand, colour};

impl Tracker {
    /// A player's own piece gone in their hand, on the one square it could have gone to that
    /// reads as a piece of the other colour where no piece of that colour is missing: the
    /// position leaves no other piece to be there, so vision misread its colour (a cream queen
    /// set down in shade at the picture's edge of a dimmed scholarsmate.avi read black, and
    /// was taken off the board). It is set there, and that colour read there is the piece.
    pub(super) fn set_down_misread(&mut self, obs: &crate::types::Observation) {
        // Run on every still frame: nothing to do, the usual case, costs no look at the board.
        let gone = |l: &super::Loose| l.own && l.at >= obs.t - LOOSE_SECS;
        if !self.loose.iter().any(gone) {
            return;
        }
        let read = |sq: Square| obs.squares.get(usize::from(sq)).and_then(|s| colour(s.state));
        let missing = shakmaty::ByColor::new_with(|c| self.missing(c));
        let misread: shakmaty::Bitboard = Square::ALL.into_iter().filter(|&sq| self.belief[usize::from(sq)].is_none() && read(sq).is_some_and(|c| !missing[c])).collect();
        if misread.is_empty() {
            return;
        }
        let mut found: Vec<(usize, Piece, Square)> = Vec::new();
        for (k, l) in self.loose.iter().enumerate().filter(|(_, l)| gone(l)) {
            let mut spots = misread.into_iter().filter(|&sq| read(sq) == Some(!l.piece.color) && can_stand(l.piece, sq) && self.could_reach(&l.piece, l.from, sq));
            if let (Some(sq), None) = (spots.next(), spots.next()) {
                found.push((k, l.piece, sq));
            }
        }
        let alone: Vec<(usize, Piece, Square)> = found.iter().copied().filter(|f| found.iter().filter(|g| g.2 == f.2).count() == 1).collect();
        for &(k, piece, sq) in alone.iter().rev() {
            self.loose.remove(k);
            self.belief[usize::from(sq)] = Some(piece);
            self.miscoloured.add(sq);
            self.refused.discard(sq);
            self.to_move = !piece.color;
            self.dirty = true;
        }
    }

    /// Whether a piece of colour `c` is missing from where it was believed: in a hand gone,
    /// seen gone with no hand near, or being seen gone.
    pub(super) fn missing(&self, c: Color) -> bool {
        self.loose.iter().any(|l| l.piece.color == c) || self.unattended.iter().any(|(p, _)| p.color == c) || self.seen_emptied(|_, p, _| p.color == c).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::super::colour_untold::{frame, last_board, open_game, tracker, white_arm};
    use super::super::testkit::{moved, read_as, without};
    use super::super::*;

    /// 1. e4 e5, then White's arm lifts the queen from d1 and leaves with her; h5 then reads as a
    /// black piece for good. With `knight_gone`, Black's g8 knight is seen gone meanwhile, no hand
    /// near: a black piece is missing. The tracker and its events.
    fn queen_read_black_on_h5(knight_gone: bool) -> (Tracker, Vec<Event>) {
        let start = open_game();
        let lifted = without(&start, &[Square::D1]);
        let lifted = if knight_gone { without(&lifted, &[Square::G8]) } else { lifted };
        let mut t = tracker(&start);
        let mut events = t.observe(&frame(0, &start, &[], None));
        for n in 1..150 {
            let o = match n {
                1..10 => frame(n, &start, &[], Some(white_arm(Square::D1))),
                10..20 => frame(n, &lifted, &[], Some(white_arm(Square::H5))),
                _ => {
                    let mut o = frame(n, &lifted, &[], None);
                    read_as(&mut o, Square::H5, SquareState::Black);
                    o
                }
            };
            events.extend(t.observe(&o));
        }
        events.extend(t.finish());
        (t, events)
    }

    #[test]
    fn a_piece_read_in_the_other_colour_where_none_of_that_colour_is_missing_is_the_one_gone_in_hand() {
        let (t, events) = queen_read_black_on_h5(false);
        let after = moved(&open_game(), &[(Square::D1, Square::H5)]);
        assert_eq!(t.board(), after, "{events:?}");
        assert_eq!(last_board(&events), Some(Placement::from(&after).to_string()), "{events:?}");
        // Read black frame after frame, she stays: no lift, no piece from nowhere.
        assert!(!events.iter().any(|e| matches!(e.kind, EventKind::Lift { square: Square::H5, .. })), "{events:?}");
    }

    #[test]
    fn a_piece_read_in_the_other_colour_is_not_taken_while_one_of_that_colour_is_missing() {
        let (t, events) = queen_read_black_on_h5(true);
        assert_ne!(t.board().piece_at(Square::H5), Some(Piece { color: Color::White, role: Role::Queen }), "{events:?}");
    }
}
