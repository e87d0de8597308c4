//! The FEN board field as a camera reports it: like FEN, plus `?` for a square it cannot see.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shakmaty::{Board, File, Piece, Rank, Square};

/// What one square holds, as far as it was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Unknown,
    Empty,
    Piece(Piece),
}

/// A board as seen: 64 cells, `a1` first.
#[derive(Clone, PartialEq, Eq)]
pub struct Placement(pub [Cell; 64]);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    #[error("placement \"{0}\" needs 8 ranks separated by '/'")]
    Ranks(String),
    #[error("placement \"{0}\": rank {1} does not describe exactly 8 squares")]
    RankWidth(String, u32),
    #[error("placement \"{0}\": '{1}' is not a piece letter, a digit 1-8 or '?'")]
    Char(String, char),
}

impl Placement {
    pub fn cell(&self, sq: Square) -> Cell {
        self.0[usize::from(sq)]
    }

    /// Whether every seen square agrees with `board`.
    pub fn agrees_with(&self, board: &Board) -> bool {
        Square::ALL.iter().all(|&sq| match self.cell(sq) {
            Cell::Unknown => true,
            Cell::Empty => board.piece_at(sq).is_none(),
            Cell::Piece(p) => board.piece_at(sq) == Some(p),
        })
    }

    /// The squares seen to differ from `board`.
    pub fn differences(&self, board: &Board) -> Vec<Square> {
        Square::ALL
            .iter()
            .copied()
            .filter(|&sq| match self.cell(sq) {
                Cell::Unknown => false,
                Cell::Empty => board.piece_at(sq).is_some(),
                Cell::Piece(p) => board.piece_at(sq) != Some(p),
            })
            .collect()
    }
}

impl From<&Board> for Placement {
    fn from(board: &Board) -> Placement {
        let mut cells = [Cell::Empty; 64];
        for (sq, piece) in board.iter() {
            cells[usize::from(sq)] = Cell::Piece(piece);
        }
        Placement(cells)
    }
}

impl FromStr for Placement {
    type Err = PlacementError;

    fn from_str(text: &str) -> Result<Placement, PlacementError> {
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != 8 {
            return Err(PlacementError::Ranks(text.to_owned()));
        }
        let mut cells = [Cell::Empty; 64];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = Rank::new(7 - i as u32);
            let mut file = 0u32;
            for c in rank_text.chars() {
                let width_error = || PlacementError::RankWidth(text.to_owned(), rank.char() as u32 - '0' as u32);
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(PlacementError::Char(text.to_owned(), c));
                    }
                    file += d;
                    if file > 8 {
                        return Err(width_error());
                    }
                    continue;
                }
                let cell = if c == '?' {
                    Cell::Unknown
                } else {
                    Cell::Piece(Piece::from_char(c).ok_or_else(|| PlacementError::Char(text.to_owned(), c))?)
                };
                if file >= 8 {
                    return Err(width_error());
                }
                cells[usize::from(Square::from_coords(File::new(file), rank))] = cell;
                file += 1;
            }
            if file != 8 {
                return Err(PlacementError::RankWidth(text.to_owned(), rank.char() as u32 - '0' as u32));
            }
        }
        Ok(Placement(cells))
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_coords(File::new(file), Rank::new(rank));
                let c = match self.cell(sq) {
                    Cell::Empty => {
                        empty += 1;
                        continue;
                    }
                    Cell::Unknown => '?',
                    Cell::Piece(p) => p.char(),
                };
                if empty > 0 {
                    write!(f, "{empty}")?;
                    empty = 0;
                }
                write!(f, "{c}")?;
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Placement({self})")
    }
}

impl Serialize for Placement {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Placement {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

    #[test]
    fn round_trips_fen_and_unknown_squares() {
        for text in [START, "8/8/8/8/8/8/8/8", "r?bqkbnr/pp??pppp/8/3?4/8/8/PPPPPPPP/RNBQKB?R"] {
            assert_eq!(text.parse::<Placement>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn agrees_with_a_board_except_where_unseen() {
        let p: Placement = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB?R".parse().unwrap();
        assert!(p.agrees_with(&Board::default()));
        let q: Placement = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR".parse().unwrap();
        assert_eq!(q.differences(&Board::default()), vec![Square::E2, Square::E4]);
    }

    #[test]
    fn rejects_malformed_fields() {
        for bad in ["", "8/8/8", "9/8/8/8/8/8/8/8", "ppppppppp/8/8/8/8/8/8/8", "x7/8/8/8/8/8/8/8", "7/8/8/8/8/8/8/8", "0/8/8/8/8/8/8/8/8"] {
            assert!(bad.parse::<Placement>().is_err(), "{bad}");
        }
    }
}
