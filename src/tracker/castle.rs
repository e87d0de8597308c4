//! The order of a castling's acts seen all at once. The king's and rook's squares an arm hid
//! until it withdrew (or until it had gone) show in one frame, and the acts are ordered by the
//! fingertips' stays over those squares, which can mislead.

use shakmaty::{Color, Piece, Role, Square};

use super::{Act, Tracker};
use crate::types::HandId;

impl Tracker {
    /// Whether the board the rules last heard of differs from what the tracker knows by a
    /// king set on its castling square by no hand seen, its rook still in the corner: the
    /// first half of a castling, made under an arm vision lost (rendered games 310's 9... O-O
    /// and 50's, Black's at the far edge: the fingers on g8 were lost while the king was set
    /// there, and the next arm seen moved the rook). Told only once the rook has moved too,
    /// the rook's move was recorded first, and the king found on g8 a displaced piece; told
    /// now, it is a castling under way, whatever square the arm left unread.
    pub(super) fn castling_king_unheard(&self) -> bool {
        let on = |sq: Square| self.belief[usize::from(sq)];
        let was = |sq: Square| self.told_board.piece_at(sq);
        [Color::White, Color::Black].into_iter().any(|color| {
            let (king, rook) = (Piece { color, role: Role::King }, Piece { color, role: Role::Rook });
            castlings(color).into_iter().any(|c| was(c.home) == Some(king) && on(c.home).is_none() && on(c.king_to) == Some(king) && on(c.corner) == Some(rook) && was(c.corner) == Some(rook))
        })
    }

    /// Whether the lift hand `hand` made from `square` is of a rook from its corner while that
    /// player's arm is still over the board, their king still believed on its square and that
    /// square in doubt: the king may have been lifted first, unseen, and its lift is written
    /// only once it shows set down, dated by the stay that grasped it. The stream never goes
    /// back in time, so the rook's lift waits for it; else the rules hear the rook lifted
    /// first, a castling begun with the rook (rendered game 125's 10... O-O: e8 unread from
    /// the king's lift on, the king on g8 seen after the rook's lift, a false 4.4.2).
    ///
    /// A rook's touch waits the same way, and also while the arm that made it may still come
    /// back under a new id (see `Tracker::resumed`): an arm hiding the whole first rank finds
    /// the king's lift only as it withdraws, by which time the touch, written as the arm left,
    /// is out (rendered game 220's 9. O-O, a low camera on White's side: a false 4.4.2).
    pub(super) fn rook_before_unseen_king(&self, hand: HandId, square: Square) -> bool {
        let names = |t: &super::HandTrack| t.event_id == hand.0 || t.came_back.iter().any(|(old, _)| *old == hand.0);
        let here = self.hands.values().find(|t| names(t));
        let gone = || self.gone_track(hand.0).filter(|(at, _)| self.last_seen_t - at <= super::RESUME_SECS).map(|(_, t)| t);
        let Some(track) = here.or_else(gone) else { return false };
        let color = Color::from(track.side);
        let (king, rook) = (Piece { color, role: Role::King }, Piece { color, role: Role::Rook });
        castlings(color).into_iter().any(|c| c.corner == square && self.told_board.piece_at(square) == Some(rook) && self.belief[usize::from(c.home)] == Some(king) && self.in_doubt(c.home))
    }

    /// A castling whose squares an arm hid until it left (or until it had gone) shows all at
    /// once: the king's square left, or the king already in hand; a place on the king's castling
    /// square; the rook's corner left; a place on the rook's castling square. Those acts are timed
    /// by the fingertips' stays, which can mislead, or not at all once the arm has gone: the
    /// fingertips carrying the king pass over the rook's square first, and applied in that
    /// order the king went there (rendered game 415's 15... O-O, recorded Kf8, the rook a 7.6).
    /// They are applied in castling's order, as made: the king lifted and set down, then the
    /// rook; each no earlier than the one before.
    pub(super) fn castling_order(&self, acts: &mut Vec<Act>) {
        for color in [Color::White, Color::Black] {
            let home = castlings(color)[0].home;
            let king = Piece { color, role: Role::King };
            let rook = Piece { color, role: Role::Rook };
            let king_on = self.belief[usize::from(home)] == Some(king);
            for Castling { king_to, corner, rook_to, .. } in castlings(color) {
                // The king lifted in this batch, or already off its square.
                let king_lift = acts.iter().position(|a| a.lift && a.square == home);
                if king_on != king_lift.is_some() {
                    continue;
                }
                if self.belief[usize::from(corner)] != Some(rook) {
                    continue;
                }
                let own = |a: &Act| a.colour.is_none_or(|c| c == color);
                let king_set = acts.iter().position(|a| !a.lift && a.square == king_to && own(a));
                let rook_off = acts.iter().position(|a| a.lift && a.square == corner);
                let rook_set = acts.iter().position(|a| !a.lift && a.square == rook_to && own(a));
                let (Some(k), Some(r), Some(s)) = (king_set, rook_off, rook_set) else { continue };
                let order: Vec<usize> = king_lift.into_iter().chain([k, r, s]).collect();
                if order.windows(2).all(|w| w[0] < w[1]) {
                    continue;
                }
                let mut ordered: Vec<Act> = order.iter().map(|&i| acts[i]).collect();
                let mut by_index = order;
                by_index.sort_unstable();
                for &i in by_index.iter().rev() {
                    acts.remove(i);
                }
                let later = |a: (u64, f64), b: (u64, f64)| if b.1 > a.1 { b } else { a };
                for k in 1..ordered.len() {
                    let before = ordered[k - 1].at;
                    ordered[k].at = later(ordered[k].at, before);
                    ordered[k].until = later(ordered[k].until, ordered[k].at);
                }
                let place = by_index[0];
                for (n, act) in ordered.into_iter().enumerate() {
                    acts.insert(place + n, act);
                }
            }
        }
    }
}

/// The squares of one castling: the king's home and where it goes, the rook's corner and
/// where it goes.
#[derive(Clone, Copy)]
struct Castling {
    home: Square,
    king_to: Square,
    corner: Square,
    rook_to: Square,
}

/// `color`'s castlings, kingside first.
fn castlings(color: Color) -> [Castling; 2] {
    use shakmaty::{File, Rank};
    let at = |f: File| Square::from_coords(f, color.fold_wb(Rank::First, Rank::Eighth));
    [(File::G, File::H, File::F), (File::C, File::A, File::D)].map(|(king_to, corner, rook_to)| Castling { home: at(File::E), king_to: at(king_to), corner: at(corner), rook_to: at(rook_to) })
}
