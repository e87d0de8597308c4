//! A position as a FEN names it, read the same way at every door a position comes in by
//! (`--fen`, the operator's `/fen`, the record's own FENs), with the reason when it is not one.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Why a text is not a position to play from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("\"{text}\" is not a FEN: {why}")]
    NotFen { text: String, why: String },
    #[error("\"{text}\" is not a legal position: {why}")]
    Illegal { text: String, why: String },
}

/// A legal standard-chess position from a FEN (surrounding spaces ignored).
pub fn parse_position(text: &str) -> Result<Chess, PositionError> {
    let fen: Fen = text.trim().parse().map_err(|e: shakmaty::fen::ParseFenError| PositionError::NotFen { text: text.to_owned(), why: e.to_string() })?;
    fen.into_position(CastlingMode::Standard).map_err(|e| PositionError::Illegal { text: text.to_owned(), why: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_and_say_why_not() {
        assert_eq!(parse_position(" rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ").unwrap(), Chess::default());
        let not_fen = parse_position("x").unwrap_err();
        assert!(matches!(not_fen, PositionError::NotFen { .. }));
        assert!(not_fen.to_string().starts_with("\"x\" is not a FEN: "), "{not_fen}");
        // Two white kings: a FEN, not a legal position.
        let illegal = parse_position("8/8/8/8/8/8/8/KK5k w - - 0 1").unwrap_err();
        assert!(matches!(illegal, PositionError::Illegal { .. }), "{illegal}");
        assert!(illegal.to_string().contains("is not a legal position: "));
    }
}
