//! Reads PGN games (tags and main line) into moves, for rendering real games as scenes and
//! event streams. Comments, variations, NAGs and move numbers are skipped; a move that is not
//! legal where it stands is an error naming the game and the move.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// One game of a PGN file.
#[derive(Debug, Clone)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub start: Chess,
    pub moves: Vec<Move>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("game {game}: tag line \"{line}\" is malformed")]
    Tag { game: usize, line: String },
    #[error("game {game}: FEN tag \"{fen}\" is not a legal position")]
    Fen { game: usize, fen: String },
    #[error("game {game}, ply {ply}: \"{san}\" is not a legal move there")]
    Move { game: usize, ply: usize, san: String },
}

/// Every game in `text`, in order.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut in_movetext = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && !in_movetext_open(&movetext) {
            if in_movetext {
                games.push(parse_game(games.len() + 1, std::mem::take(&mut tags), &std::mem::take(&mut movetext))?);
                in_movetext = false;
            }
            tags.push(parse_tag(games.len() + 1, trimmed)?);
        } else if !trimmed.is_empty() {
            in_movetext = true;
            movetext.push_str(trimmed);
            movetext.push('\n');
        }
    }
    if in_movetext || !tags.is_empty() {
        games.push(parse_game(games.len() + 1, tags, &movetext)?);
    }
    Ok(games)
}

/// Whether a `{` comment is still open, so a `[` line belongs to it.
fn in_movetext_open(movetext: &str) -> bool {
    movetext.matches('{').count() > movetext.matches('}').count()
}

fn parse_tag(game: usize, line: &str) -> Result<(String, String), PgnError> {
    let bad = || PgnError::Tag { game, line: line.to_owned() };
    let inner = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).ok_or_else(bad)?;
    let (name, rest) = inner.split_once(' ').ok_or_else(bad)?;
    let value = rest.trim().strip_prefix('"').and_then(|v| v.strip_suffix('"')).ok_or_else(bad)?;
    Ok((name.to_owned(), value.replace("\\\"", "\"").replace("\\\\", "\\")))
}

fn parse_game(game: usize, tags: Vec<(String, String)>, movetext: &str) -> Result<PgnGame, PgnError> {
    let fen = tags.iter().find(|(n, _)| n == "FEN").map(|(_, v)| v.clone());
    let start: Chess = match fen {
        Some(f) => f
            .parse::<Fen>()
            .ok()
            .and_then(|x| x.into_position(CastlingMode::Standard).ok())
            .ok_or(PgnError::Fen { game, fen: f })?,
        None => Chess::default(),
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for token in tokens(movetext) {
        let san: SanPlus = token.parse().map_err(|_| PgnError::Move { game, ply: moves.len() + 1, san: token.clone() })?;
        let m = san.san.to_move(&pos).map_err(|_| PgnError::Move { game, ply: moves.len() + 1, san: token.clone() })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(PgnGame { tags, start, moves })
}

/// The SAN tokens of the main line.
fn tokens(movetext: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0u32; // variation nesting
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, depth: u32, out: &mut Vec<String>| {
        let w = std::mem::take(word);
        let is_result = matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*");
        let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if depth == 0 && !w.is_empty() && !w.starts_with('$') && !is_result {
            out.push(w.to_owned());
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, depth, &mut out);
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            ';' => {
                flush(&mut word, depth, &mut out);
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut word, depth, &mut out);
                depth += 1;
            }
            ')' => {
                flush(&mut word, depth, &mut out);
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => flush(&mut word, depth, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, depth, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_main_line_and_skips_the_rest() {
        let text = "[Event \"Test\"]\n[White \"A\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 $1 3. Bb5 a6 1-0\n\n[Event \"Two\"]\n\n1. d4 *\n";
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("White"), Some("A"));
        assert_eq!(games[0].moves.len(), 6);
        assert_eq!(games[1].moves.len(), 1);
    }

    #[test]
    fn an_illegal_move_names_game_and_ply() {
        let err = read_games("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap_err();
        assert_eq!(err, PgnError::Move { game: 1, ply: 3, san: "Ke3".into() });
    }

    #[test]
    fn a_set_up_position_is_the_start() {
        let g = &read_games("[FEN \"8/4P3/8/8/8/8/k7/4K3 w - - 0 1\"]\n\n1. e8=Q *\n").unwrap()[0];
        assert_eq!(g.moves.len(), 1);
    }
}
