//! The board as the hands have left it, which may differ from the game: a capturing piece may
//! stand beside the piece it takes until that one is removed, pieces may be in a hand, a piece
//! may be set down and not yet let go.

use shakmaty::{Bitboard, Board, Color, Piece, Square};

use crate::types::HandId;

/// A piece in a hand, with the square it was lifted from (none if it came from off the board).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    pub hand: HandId,
    pub piece: Piece,
    pub origin: Option<Square>,
}

/// A piece set down and not yet released.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreleased {
    pub hand: HandId,
    pub square: Square,
    pub piece: Piece,
    pub origin: Option<Square>,
}

#[derive(Debug, Clone)]
pub struct Physical {
    /// What stands on each square, bottom first. Two pieces on one square is a capture (or a
    /// promotion onto an occupied square) whose taken piece has not been removed yet.
    stacks: [Vec<Piece>; 64],
    held: Vec<Held>,
    unreleased: Vec<Unreleased>,
}

impl Physical {
    pub fn new(board: &Board) -> Physical {
        let mut p = Physical { stacks: std::array::from_fn(|_| Vec::new()), held: Vec::new(), unreleased: Vec::new() };
        p.reset(board);
        p
    }

    /// Sets the squares to `board` and forgets nothing in hand: used when the board is seen.
    pub fn reset(&mut self, board: &Board) {
        for sq in Square::ALL {
            let stack = &mut self.stacks[usize::from(sq)];
            stack.clear();
            stack.extend(board.piece_at(sq));
        }
        self.unreleased.clear();
    }

    pub fn set_square(&mut self, sq: Square, piece: Option<Piece>) {
        let stack = &mut self.stacks[usize::from(sq)];
        stack.clear();
        stack.extend(piece);
        self.unreleased.retain(|u| u.square != sq);
    }

    /// The visible piece on `sq`: the one set down last.
    pub fn top(&self, sq: Square) -> Option<Piece> {
        self.stacks[usize::from(sq)].last().copied()
    }

    pub fn stack(&self, sq: Square) -> &[Piece] {
        &self.stacks[usize::from(sq)]
    }

    /// Squares holding more than one piece.
    pub fn crowded(&self) -> Bitboard {
        Square::ALL.iter().copied().filter(|&sq| self.stacks[usize::from(sq)].len() > 1).collect()
    }

    /// The board of visible pieces.
    pub fn board(&self) -> Board {
        let mut b = Board::empty();
        for sq in Square::ALL {
            if let Some(p) = self.top(sq) {
                b.set_piece_at(sq, p);
            }
        }
        b
    }

    /// Takes a piece off `sq` into `hand`. On a crowded square the piece of the other colour
    /// than the lifter goes first: that is the taken piece being removed.
    pub fn lift(&mut self, hand: HandId, lifter: Color, sq: Square) -> Option<Piece> {
        let stack = &mut self.stacks[usize::from(sq)];
        let index = if stack.len() > 1 {
            stack.iter().position(|p| p.color != lifter).unwrap_or(stack.len() - 1)
        } else {
            stack.len().checked_sub(1)?
        };
        let piece = stack.remove(index);
        self.unreleased.retain(|u| !(u.square == sq && u.piece == piece));
        self.held.push(Held { hand, piece, origin: Some(sq) });
        Some(piece)
    }

    /// The piece `hand` sets down next: the player's own piece it holds (a hand carrying a
    /// taken piece and its capturing piece puts down the capturing one), else one handed over
    /// by his other hand, else whatever it holds (a taken piece put back); of the hand's own
    /// pieces, one that `prefer` picks first.
    pub fn take_from_hand(&mut self, hand: HandId, own: Color, prefer: impl Fn(&Held) -> bool) -> Option<Held> {
        let index = self
            .held
            .iter()
            .rposition(|h| h.hand == hand && h.piece.color == own && prefer(h))
            .or_else(|| self.held.iter().rposition(|h| h.hand == hand && h.piece.color == own))
            .or_else(|| self.held.iter().rposition(|h| h.hand != hand && h.piece.color == own))
            .or_else(|| self.held.iter().rposition(|h| h.hand == hand))?;
        Some(self.held.remove(index))
    }

    pub fn place(&mut self, hand: HandId, sq: Square, piece: Piece, origin: Option<Square>) {
        self.stacks[usize::from(sq)].push(piece);
        self.unreleased.push(Unreleased { hand, square: sq, piece, origin });
    }

    /// Lets go of what `hand` set down on `sq`, if it set anything there.
    pub fn release(&mut self, hand: HandId, sq: Square) -> Option<Unreleased> {
        let index = self.unreleased.iter().position(|u| u.hand == hand && u.square == sq)?;
        Some(self.unreleased.remove(index))
    }

    /// Everything `hand` set down and still holds on to.
    pub fn unreleased_by(&self, hand: HandId) -> Vec<Unreleased> {
        self.unreleased.iter().copied().filter(|u| u.hand == hand).collect()
    }

    /// Empties `hand`: what it held has left the board.
    pub fn drop_held(&mut self, hand: HandId) -> Vec<Held> {
        let (gone, kept) = self.held.drain(..).partition(|h| h.hand == hand);
        self.held = kept;
        gone
    }

    pub fn held(&self) -> &[Held] {
        &self.held
    }

    pub fn unreleased(&self) -> &[Unreleased] {
        &self.unreleased
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Role;

    #[test]
    fn a_taken_piece_stays_until_removed_and_goes_first() {
        let mut p = Physical::new(&Board::default());
        let queen = p.lift(HandId(0), Color::White, Square::D1).unwrap();
        let held = p.take_from_hand(HandId(0), Color::White, |_| false).unwrap();
        assert_eq!(held.piece, queen);
        p.place(HandId(0), Square::D7, queen, held.origin);
        assert_eq!(p.crowded(), Bitboard::from(Square::D7));
        assert_eq!(p.top(Square::D7), Some(queen));
        let taken = p.lift(HandId(0), Color::White, Square::D7).unwrap();
        assert_eq!(taken, Piece { color: Color::Black, role: Role::Pawn });
        assert_eq!(p.top(Square::D7), Some(queen));
        assert!(p.crowded().is_empty());
        assert_eq!(p.drop_held(HandId(0)).len(), 1);
    }

    #[test]
    fn a_hand_puts_down_its_own_piece_before_a_taken_one() {
        let mut p = Physical::new(&Board::default());
        p.lift(HandId(1), Color::White, Square::G1).unwrap();
        p.lift(HandId(1), Color::White, Square::E7).unwrap();
        let h = p.take_from_hand(HandId(1), Color::White, |_| false).unwrap();
        assert_eq!(h.piece.role, Role::Knight);
        assert_eq!(h.origin, Some(Square::G1));
    }
}
