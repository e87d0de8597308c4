//! Where a piece can go, as far as the tracker needs to know to pick which square a piece seen
//! arriving came from: the moves of the pieces on the board as it stands, with any capture
//! allowed, castling's two pieces, and where pawns cannot stand.

use shakmaty::{Color, Piece, Role, Square};

/// Whether `sq` is on the rank where `color`'s pawns promote.
pub(super) fn on_far_rank(color: Color, sq: Square) -> bool {
    sq.rank() == if color == Color::White { shakmaty::Rank::Eighth } else { shakmaty::Rank::First }
}

/// Whether a piece brought from off the board can be this one standing there: a pawn never
/// stands on the first or last rank, so a piece set there from off the board after a pawn left
/// is the promoted piece, not the pawn come back. (A pawn carried there in the hand that lifted
/// it is still that pawn: the rules judge it.)
pub(super) fn can_stand(p: Piece, sq: Square) -> bool {
    p.role != Role::Pawn || !matches!(sq.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth)
}

/// Whether `piece` on `from` could move to `to` on a board with `occupied` squares (any
/// capture allowed): enough to pick which hidden square a piece came from. A pawn goes
/// diagonally only onto a `victim`, or from the rank where it can take en passant: a knight
/// brought past its pawns is not one of them stepping aside; two squares straight on only from
/// its own second rank, over an empty square. A king castles two files over, and its rook past
/// it.
pub(super) fn reaches(piece: Piece, from: Square, to: Square, occupied: shakmaty::Bitboard, victim: bool) -> bool {
    use shakmaty::attacks;
    match piece.role {
        Role::Pawn => {
            let forward: i32 = if piece.color == Color::White { 1 } else { -1 };
            let df = u32::from(to.file()) as i32 - u32::from(from.file()) as i32;
            let dr = u32::from(to.rank()) as i32 - u32::from(from.rank()) as i32;
            let en_passant = from.rank() == if piece.color == Color::White { shakmaty::Rank::Fifth } else { shakmaty::Rank::Fourth };
            // The f2 pawn behind a knight on f3 is not where a piece seen arriving on f4 came
            // from.
            let second = from.rank() == if piece.color == Color::White { shakmaty::Rank::Second } else { shakmaty::Rank::Seventh };
            let over = Square::from_coords(from.file(), shakmaty::Rank::new((u32::from(from.rank()) as i32 + forward) as u32));
            let double = df == 0 && dr == 2 * forward && second && !occupied.contains(over);
            (df == 0 && dr == forward) || (df.abs() == 1 && dr == forward && (victim || en_passant)) || double
        }
        Role::King => attacks::king_attacks(from).contains(to) || (from.file() == shakmaty::File::E && (u32::from(to.file()) as i32 - 4).abs() == 2 && to.rank() == from.rank()),
        // Castling's rook passes its king, already beside it.
        Role::Rook if castling_rook(piece.color, from, to) => true,
        role => attacks::attacks(from, Piece { color: piece.color, role }, occupied).contains(to),
    }
}

/// Whether a rook of `color` going `from` → `to` is a castling rook's move: from its corner
/// to the square the king passes over, on its own first rank.
fn castling_rook(color: Color, from: Square, to: Square) -> bool {
    use shakmaty::File;
    let first = color.fold_wb(shakmaty::Rank::First, shakmaty::Rank::Eighth);
    from.rank() == first && to.rank() == first && matches!((from.file(), to.file()), (File::H, File::F) | (File::A, File::D))
}

/// Whether `piece` going `from` → `to` is one of a castling's two moves: the king's or the
/// rook's.
pub(super) fn castling(piece: Piece, from: Square, to: Square) -> bool {
    match piece.role {
        Role::Rook => castling_rook(piece.color, from, to),
        Role::King => castling_king(piece.color, from, to),
        _ => false,
    }
}

/// Whether a king of `color` going `from` → `to` is a castling king's move: from its own square
/// two files over, on its own first rank.
fn castling_king(color: Color, from: Square, to: Square) -> bool {
    use shakmaty::File;
    let first = color.fold_wb(shakmaty::Rank::First, shakmaty::Rank::Eighth);
    from.rank() == first && to.rank() == first && from.file() == File::E && matches!(to.file(), File::G | File::C)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square::*;

    const WHITE_PAWN: Piece = Piece { color: Color::White, role: Role::Pawn };
    const BLACK_PAWN: Piece = Piece { color: Color::Black, role: Role::Pawn };

    /// A pawn's double step: from its own second rank, over an empty square, and no other.
    #[test]
    fn a_pawn_steps_two_squares_only_from_its_second_rank_over_an_empty_square() {
        let empty = shakmaty::Bitboard::EMPTY;
        assert!(reaches(WHITE_PAWN, F2, F4, empty, false));
        assert!(reaches(BLACK_PAWN, D7, D5, empty, false));
        // Blocked by the knight on f3 (rendered game 215's 19. Bf4 taken for the f2 pawn's).
        assert!(!reaches(WHITE_PAWN, F2, F4, shakmaty::Bitboard::from(F3), false));
        assert!(!reaches(BLACK_PAWN, D7, D5, shakmaty::Bitboard::from(D6), false));
        // Not from further up the board.
        assert!(!reaches(WHITE_PAWN, F3, F5, empty, false));
        assert!(!reaches(BLACK_PAWN, D6, D4, empty, false));
        // One square on is still a step, and backwards never.
        assert!(reaches(WHITE_PAWN, F3, F4, shakmaty::Bitboard::from(F3), false));
        assert!(!reaches(WHITE_PAWN, F4, F2, empty, false));
    }
}
