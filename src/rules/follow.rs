//! Following a game through pictures of it: the legal line (no ply, one, or a few) after which
//! the game's colours best fit the colours a picture shows. A camera tells empty, white and
//! black far more surely than it names pieces; the game names them. Used by `touchmove board`
//! over images of one game in order, where each picture is a move or two after the last.
//!
//! A square misread here and there (the square reader errs on about one square in a hundred)
//! is outvoted by the rest: the line chosen is the one that leaves the least read otherwise,
//! each square counted by how sure its reading was (a queen's head leaning over the square
//! beside it reads that square, unsurely, as a white piece: real game 2 of the bgu stills,
//! Qxc3, else no likelier than Qd3), fewest plies first; and none where too much disagrees
//! with every line (a picture of another game, or the board disturbed).

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

/// The most a picture may read otherwise than the game (in squares read surely) and still be
/// taken to show it.
pub const MAX_MISFITS: f32 = 3.0;

/// The colours a picture shows: per square, white, black or empty where it was read, and how
/// surely.
#[derive(Debug, Clone, Copy)]
pub struct SeenColours {
    pub white: Bitboard,
    pub black: Bitboard,
    /// Squares read (the rest were hidden, or their piece's colour untold).
    pub read: Bitboard,
    /// Per square (a1 first), how sure the reading is, 0–1.
    pub sure: [f32; 64],
}

impl Default for SeenColours {
    fn default() -> Self {
        SeenColours { white: Bitboard::EMPTY, black: Bitboard::EMPTY, read: Bitboard::EMPTY, sure: [1.0; 64] }
    }
}

impl SeenColours {
    /// Whether `sq` was read otherwise than `board` shows it (`None`: it was not read).
    pub fn misfits_at(&self, board: &Board, sq: Square) -> Option<bool> {
        let off = board.by_color(Color::White).contains(sq) != self.white.contains(sq) || board.by_color(Color::Black).contains(sq) != self.black.contains(sq);
        self.read.contains(sq).then_some(off)
    }

    /// What is read otherwise than `board` shows it, each square by how sure its reading is.
    pub fn misfits(&self, board: &Board) -> f32 {
        let off = (board.by_color(Color::White) ^ self.white) | (board.by_color(Color::Black) ^ self.black);
        (off & self.read).into_iter().map(|sq| self.sure[usize::from(sq)]).fold(0.0, |a, b| a + b)
    }
}

/// What one ply costs a line, beside what it leaves read otherwise: of two lines that fit
/// alike, the shorter is taken (a picture is rarely more than a move after the last).
const PLY_COST: f32 = 0.05;
/// What one square whose piece the picture names as the line leaves it takes off a line's
/// cost: of two lines that fit the colours alike, the one whose pieces more squares name is
/// taken (real game 2 of the bgu stills: Qxc3 or Qd3, with d3 read as white for sure).
const NAMED_BONUS: f32 = 0.001;
/// How many lines are followed at once: a picture that two lines fit alike is told apart by
/// the pictures after it.
const BEAM: usize = 8;

/// Follows one game through pictures of it, taken in order.
#[derive(Debug, Clone)]
pub struct Follower {
    /// The positions the likeliest lines have reached, with what they cost so far, likeliest
    /// first.
    lines: Vec<(Chess, f32)>,
    /// Pictures in a row that no line fitted.
    missed: usize,
    plies: usize,
}

impl Follower {
    /// Follows the game from `start`, each picture at most `plies` plies after the one before
    /// it (one more after a picture that was not followed).
    pub fn new(start: Chess, plies: usize) -> Follower {
        Follower { lines: vec![(start, 0.0)], missed: 0, plies }
    }

    /// The game as the next picture shows it, and what of the picture is read otherwise; `None`
    /// where no line of play fits it within [`MAX_MISFITS`] (the lines wait for the next
    /// picture). `named(square)` is the piece the picture names there, where it names one (a
    /// piece reader's guess): a promotion takes that piece, else the queen.
    pub fn see(&mut self, seen: &SeenColours, named: &dyn Fn(Square) -> Option<Role>) -> Option<(Chess, f32)> {
        let plies = self.plies + self.missed.min(1);
        let agree = |board: &Board| (seen.read & board.occupied()).into_iter().filter(|&sq| named(sq).is_some() && named(sq) == board.role_at(sq)).count();
        let mut next: std::collections::HashMap<(Board, Color), (Chess, f32, f32)> = std::collections::HashMap::new();
        let mut order: Vec<(Board, Color)> = Vec::new();
        for (pos, cost) in &self.lines {
            let mut found = Vec::new();
            for length in 0..=plies {
                lines(pos, seen, length, named, &mut Vec::new(), &mut found);
            }
            for (line, misfits, board) in found {
                let mut after = pos.clone();
                for &m in &line {
                    after.play_unchecked(m);
                }
                let total = cost + misfits + PLY_COST * line.len() as f32 - NAMED_BONUS * agree(&board) as f32;
                let key = (board, after.turn());
                match next.get_mut(&key) {
                    Some(kept) if kept.1 <= total => {}
                    Some(kept) => *kept = (after, total, misfits),
                    None => {
                        order.push(key.clone());
                        next.insert(key, (after, total, misfits));
                    }
                }
            }
        }
        let mut ranked: Vec<(Chess, f32, f32)> = order.into_iter().filter_map(|k| next.remove(&k)).collect();
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        let (best, _, misfits) = ranked.first()?.clone();
        if misfits > MAX_MISFITS {
            self.missed += 1;
            return None;
        }
        self.missed = 0;
        self.lines = ranked.into_iter().take(BEAM).map(|(p, c, _)| (p, c)).collect();
        Some((best, misfits))
    }
}

/// Every line of exactly `left` more plies, with the squares it leaves read otherwise.
fn lines(pos: &Chess, seen: &SeenColours, left: usize, named: &dyn Fn(Square) -> Option<Role>, line: &mut Vec<Move>, found: &mut Vec<(Vec<Move>, f32, Board)>) {
    if left == 0 {
        found.push((line.clone(), seen.misfits(pos.board()), pos.board().clone()));
        return;
    }
    for m in pos.legal_moves() {
        if let Some(role) = m.promotion() {
            let wanted = named(m.to()).filter(|r| !matches!(r, Role::Pawn | Role::King)).unwrap_or(Role::Queen);
            if role != wanted {
                continue;
            }
        }
        let mut next = pos.clone();
        next.play_unchecked(m);
        line.push(m);
        lines(&next, seen, left - 1, named, line, found);
        line.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn seen_of(board: &Board) -> SeenColours {
        SeenColours { white: board.by_color(Color::White), black: board.by_color(Color::Black), read: Bitboard::FULL, sure: [1.0; 64] }
    }

    fn play(pos: &Chess, ucis: &[&str]) -> Chess {
        let mut p = pos.clone();
        for u in ucis {
            let m = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
            p.play_unchecked(m);
        }
        p
    }

    fn from_fen(fen: &str) -> Chess {
        fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap()
    }

    #[test]
    fn a_picture_a_move_later_is_that_move() {
        let start = Chess::default();
        let after = play(&start, &["g1f3"]);
        let (pos, misfits) = Follower::new(start, 2).see(&seen_of(after.board()), &|_| None).unwrap();
        assert_eq!(pos.board(), after.board());
        assert_eq!(misfits, 0.0);
    }

    #[test]
    fn the_same_picture_again_is_no_move() {
        let start = Chess::default();
        let (pos, _) = Follower::new(start.clone(), 2).see(&seen_of(start.board()), &|_| None).unwrap();
        assert_eq!(pos, start);
    }

    #[test]
    fn a_misread_square_is_outvoted_and_two_moves_are_found() {
        let start = Chess::default();
        let after = play(&start, &["e2e4", "e7e5"]);
        let mut seen = seen_of(after.board());
        // a3 read white: no move puts a piece there, and the rest shows 1. e4 e5.
        seen.white.add(Square::A3);
        let (pos, misfits) = Follower::new(start, 2).see(&seen, &|_| None).unwrap();
        assert_eq!(pos.board(), after.board());
        assert_eq!(misfits, 1.0);
    }

    #[test]
    fn a_hidden_square_counts_for_nothing() {
        let start = Chess::default();
        let after = play(&start, &["b1c3"]);
        let mut seen = seen_of(after.board());
        seen.read.discard(Square::C3);
        let (pos, _) = Follower::new(start, 1).see(&seen, &|_| None).unwrap();
        assert_eq!(pos.board(), after.board());
    }

    #[test]
    fn a_picture_of_another_game_is_not_followed_and_the_game_waits_for_the_next() {
        let start = Chess::default();
        let far = play(&start, &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
        let mut follower = Follower::new(start.clone(), 2);
        assert_eq!(follower.see(&seen_of(far.board()), &|_| None), None);
        // The next picture may be one more ply on: three from the start.
        let three = play(&start, &["e2e4", "e7e5", "g1f3"]);
        let (pos, _) = follower.see(&seen_of(three.board()), &|_| None).unwrap();
        assert_eq!(pos.board(), three.board());
    }

    #[test]
    fn of_two_moves_that_misfit_one_square_each_the_less_surely_misread_wins() {
        // Qxc3 or Qd3: the knight's c3 read white, and d3 too, but d3 unsurely (the queen's
        // head leaning over it).
        let pos = from_fen("rnb2rk1/ppp1qpp1/4p2p/3p4/2PP4/2n1PN2/PPQ2PPP/R3KB1R w - - 0 1");
        let qxc3 = play(&pos, &["c2c3"]);
        let mut seen = seen_of(qxc3.board());
        seen.white.add(Square::D3);
        seen.sure[usize::from(Square::D3)] = 0.6;
        let (got, _) = Follower::new(pos.clone(), 1).see(&seen, &|_| None).unwrap();
        assert_eq!(got.board(), qxc3.board());
        // Equally sure, and the queen named on c3: Qxc3.
        seen.sure[usize::from(Square::D3)] = 1.0;
        let (got, _) = Follower::new(pos, 1).see(&seen, &|sq| (sq == Square::C3).then_some(Role::Queen)).unwrap();
        assert_eq!(got.board(), qxc3.board());
    }

    #[test]
    fn two_moves_that_fit_one_picture_alike_are_told_apart_by_the_next() {
        // Both knights reach d2: with d2 hidden and b1 and f3 both read empty, Nbd2 and Nfd2
        // fit alike. The next picture, the knight gone from d2 to b3 and f3 seen empty,
        // b1 now read (empty, wrongly for Nfd2): only Nbd2 then Nb3 fits it wholly.
        let pos = from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        let mut follower = Follower::new(pos.clone(), 2);
        let mut seen = seen_of(pos.board());
        seen.white.discard(Square::B1);
        seen.white.discard(Square::F3);
        seen.read.discard(Square::D2);
        follower.see(&seen, &|_| None).unwrap();
        let truth = play(&pos, &["b1d2", "e8d8", "d2b3"]);
        let seen = seen_of(truth.board());
        let (got, misfits) = follower.see(&seen, &|_| None).unwrap();
        assert_eq!(got.board(), truth.board());
        assert_eq!(misfits, 0.0);
    }

    #[test]
    fn a_promotion_takes_the_piece_the_picture_names_else_a_queen() {
        let pos = from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        let after = play(&pos, &["e7e8n"]);
        let seen = seen_of(after.board());
        let (got, _) = Follower::new(pos.clone(), 1).see(&seen, &|sq| (sq == Square::E8).then_some(Role::Knight)).unwrap();
        assert_eq!(got.board().role_at(Square::E8), Some(Role::Knight));
        let (got, _) = Follower::new(pos, 1).see(&seen, &|_| None).unwrap();
        assert_eq!(got.board().role_at(Square::E8), Some(Role::Queen));
    }
}
