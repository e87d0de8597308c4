//! Law 7.5.5: after a second completed illegal move the offender loses,
//! "unless the opponent cannot checkmate him by any series of legal moves".
//! [`can_checkmate`] decides that question soundly, or admits it could not.
//!
//! Method, in three stages; each verdict is returned only with its proof:
//!
//! 1. The loser is already mated: `CanMate` with the empty line.
//! 2. Material rules that hold for every placement of the pieces; none of
//!    them involves a pawn that could promote, so material only ever shrinks
//!    and every position reachable from one that matches a rule matches it too:
//!    * a bare king never gives check;
//!    * a lone knight cannot mate a king helped only by queens. With the knight
//!      checking from (1,2) relative to the king, the squares (0,1), (1,1) and
//!      (1,0) are flight squares; a queen on any of them sees the knight
//!      (through (1,1), which is empty or holds a queen), and the winner's king
//!      cannot cover all three without touching the loser's king. No winning
//!      slider exists to pin the queen, so it may take. (An exhaustive offline
//!      enumeration of K+N v K+Q placements found no mate either.)
//!    * when all bishops on the board stand on one colour, the winner has only
//!      bishops and the loser no pawns or knights, no mate exists: the two
//!      squares next to both the king and the first square of the checking
//!      diagonal are of the other colour, so no bishop covers them, and a king
//!      covering both would touch the loser's king; so one is a flight square
//!      or holds a rook or queen of the loser, which can interpose or take and
//!      cannot be pinned.
//!
//!    These agree with `Position::has_insufficient_material` (tested).
//! 3. A best-first search of the positions reachable from `pos`, deduplicated
//!    by 128-bit Zobrist hash. Move clocks are not part of the hash: Law 7.5.5
//!    asks about "any series of legal moves", so the 75-move and fivefold
//!    repetition rules are not applied. The order favours positions where the
//!    loser's king has few flight squares, sits near an edge with its own men
//!    around it, and some winning piece is close to giving check; this finds
//!    helpmates quickly. A mate it meets is returned as the line leading to it,
//!    so `CanMate` is a proof by construction. Every legal move of every
//!    position is generated; irreversible moves (pawn moves, captures,
//!    castling) are kept like any other, so if the frontier runs dry within
//!    the budget the whole reachable set was seen without a mate of the loser:
//!    that proves `CannotMate` (barring a 128-bit hash collision). Locked pawn
//!    chains have small reachable sets, so this stage is what catches them.
//!
//! Cost: about 200 bytes per recorded position; a debug build records roughly
//! 50-100 thousand positions per second, a release build many times that.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};

use shakmaty::zobrist::Zobrist128;
use shakmaty::{
    Bitboard, Board, Chess, Color, EnPassantMode, Move, Position, Role, Square, attacks,
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateVerdict {
    /// A mating line was found (the moves, from `pos`, as UCI strings like "e2e4"), proving it.
    /// It is not necessarily the shortest one.
    CanMate { line: Vec<String> },
    /// Proven impossible; `reason` says how, in plain words.
    CannotMate { reason: String },
    /// The search budget ran out before either proof.
    Undecided { explored: usize },
}

/// Can `winner` checkmate `!winner` from `pos` by any series of legal moves,
/// both sides cooperating? `budget` caps the distinct positions the search
/// records (the starting position included), and so its time and memory.
pub fn can_checkmate(pos: &Chess, winner: Color, budget: usize) -> MateVerdict {
    if pos.turn() != winner && pos.is_checkmate() {
        return MateVerdict::CanMate { line: Vec::new() };
    }
    if let Some(reason) = material_proof(pos.board(), winner) {
        return MateVerdict::CannotMate { reason };
    }
    search(pos, winner, budget)
}

fn material_proof(board: &Board, winner: Color) -> Option<String> {
    let ours = board.by_color(winner) & !board.kings();
    let theirs = board.by_color(!winner) & !board.kings();
    if ours.is_empty() {
        return Some("only a bare king".to_owned());
    }
    if ours.count() == 1 && (ours & board.knights()).any() && (theirs & !board.queens()).is_empty()
    {
        return Some(if theirs.is_empty() {
            "a lone knight against a bare king".to_owned()
        } else {
            "a lone knight against queens only: a queen can always take the checking knight"
                .to_owned()
        });
    }
    let bishops = board.bishops();
    let light = (bishops & Bitboard::LIGHT_SQUARES).any();
    let dark = (bishops & Bitboard::DARK_SQUARES).any();
    if ours.is_subset(bishops) && !(light && dark) && (board.pawns() | board.knights()).is_empty() {
        let shade = if light { "light" } else { "dark" };
        return Some(if theirs.is_subset(bishops) {
            format!("bishops all on {shade} squares and no other material")
        } else {
            format!(
                "bishops all on {shade} squares; the loser's rooks or queens can always interpose"
            )
        });
    }
    None
}

fn hash(pos: &Chess) -> u128 {
    pos.zobrist_hash::<Zobrist128>(EnPassantMode::Legal).0
}

/// Frontier entry: (score, index in `parents`, depth, position). The heap
/// pops the lowest score first and, among equal scores, the newest entry,
/// which keeps the search diving instead of fanning out over the loser's many
/// equally good waiting moves.
struct Open(i32, usize, i32, Chess);

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.cmp(&self.0).then(self.1.cmp(&other.1))
    }
}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Open {}

fn search(root: &Chess, winner: Color, budget: usize) -> MateVerdict {
    // Each recorded position keeps only its parent and the move from it, so a
    // line can be rebuilt without storing whole positions twice.
    let mut parents: Vec<(usize, Option<Move>)> = vec![(0, None)];
    let mut seen: HashSet<u128> = HashSet::from([hash(root)]);
    let mut open = BinaryHeap::from([Open(0, 0, 0, root.clone())]);
    while let Some(Open(_, index, depth, pos)) = open.pop() {
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let key = hash(&child);
            if seen.contains(&key) {
                continue;
            }
            if seen.len() >= budget {
                return MateVerdict::Undecided {
                    explored: seen.len(),
                };
            }
            seen.insert(key);
            parents.push((index, Some(m)));
            let child_index = parents.len() - 1;
            // Mate is tested here, not on expansion, so it is found one step
            // earlier; the number of replies to a check also rates how close it is.
            let mut replies = None;
            if child.turn() != winner && child.is_check() {
                let n = child.legal_moves().len();
                if n == 0 {
                    let line = line_to(&parents, child_index, root);
                    return MateVerdict::CanMate { line };
                }
                replies = Some(n.min(8) as i32);
            }
            let score = 8 * closeness(&child, winner, replies) + depth + 1;
            open.push(Open(score, child_index, depth + 1, child));
        }
    }
    let n = seen.len();
    let reason = format!("the reachable positions ({n}) were all explored: none is mate");
    MateVerdict::CannotMate { reason }
}

fn line_to(parents: &[(usize, Option<Move>)], mut i: usize, root: &Chess) -> Vec<String> {
    let mode = root.castles().mode();
    let mut line = Vec::new();
    while let Some(&(parent, Some(m))) = parents.get(i) {
        line.push(m.to_uci(mode).to_string());
        i = parent;
    }
    line.reverse();
    line
}

/// Estimated distance from a mate of the loser, lower is closer. The weights
/// were tuned on endgame helpmates (minor pieces, locked chains) and on
/// positions from random play; none of them affects soundness.
fn closeness(pos: &Chess, winner: Color, replies: Option<i32>) -> i32 {
    let board = pos.board();
    let loser = !winner;
    let Some(k) = board.king_of(loser) else {
        return 0;
    };
    // Sliders must not be blocked by the king itself when judging its flights.
    let through_king = board.occupied() & !Bitboard::from(k);
    let mut flights = 0;
    for sq in attacks::king_attacks(k) & !board.by_color(loser) {
        if board.attacks_to(sq, winner, through_king).is_empty() {
            flights += 1;
        }
    }
    let mut near = 0;
    let mut check = 12;
    for sq in board.by_color(winner) {
        near += sq.distance(k) as i32;
        if let Some(role) = board.role_at(sq) {
            check = check.min(check_cost(board, sq, role, winner, k));
        }
    }
    // The loser's own men are what fill his king's flight squares in a helpmate.
    for sq in board.by_color(loser) {
        near += 2 * sq.distance(k) as i32;
    }
    let (file, rank) = (k.file() as i32, k.rank() as i32);
    let edge = file.min(7 - file).min(rank).min(7 - rank);
    let corner = file.min(7 - file).max(rank.min(7 - rank));
    let in_check = replies.map_or(0, |n| n - 8);
    4 * flights + 2 * check + near + 2 * edge + corner + in_check
}

/// Rough count of moves, own and of pieces in the way, before the piece on
/// `from` could give check to a king on `k`.
fn check_cost(board: &Board, from: Square, role: Role, winner: Color, k: Square) -> i32 {
    let occupied = board.occupied();
    let blockers = |a: Square, b: Square| (attacks::between(a, b) & occupied).count() as i32;
    // Squares from which a piece of this kind would attack `k` on an empty board.
    let targets = attacks::attacks(k, role.of(!winner), Bitboard::EMPTY);
    match role {
        Role::King => 12,
        Role::Pawn => {
            let ahead = |rank: i32| match winner {
                Color::White => rank - from.rank() as i32,
                Color::Black => from.rank() as i32 - rank,
            };
            let promote = ahead(if winner == Color::White { 7 } else { 0 }) + 2;
            targets
                .into_iter()
                .map(|t| {
                    (
                        ahead(t.rank() as i32),
                        from.file().distance(t.file()) as i32,
                    )
                })
                .filter(|&(d, f)| d >= 1 && f <= d)
                .fold(promote, |best, (d, _)| best.min(d - 1))
        }
        _ if targets.contains(from) => blockers(from, k),
        _ => (attacks::attacks(from, role.of(winner), Bitboard::EMPTY) & targets)
            .into_iter()
            .map(|s| {
                1 + blockers(from, s)
                    + blockers(s, k)
                    + i32::from(board.by_color(winner).contains(s))
            })
            .min()
            .unwrap_or(if role == Role::Bishop { 12 } else { 3 }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::Color::{Black, White};
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // Pawns interlocked head-on (a4/a5 ... h5/h6), each pawn's capture squares
    // empty or its own men; the holes a king could use are all guarded.
    const LOCKED: &str = "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1";

    fn pos(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("bad test FEN {fen}"))
    }

    /// Replays `line` and asserts it ends in a mate of the loser.
    fn assert_mating_line(start: &Chess, winner: Color, line: &[String]) {
        let mut p = start.clone();
        for uci in line {
            let m = UciMove::from_ascii(uci.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&p).ok())
                .unwrap_or_else(|| panic!("illegal {uci} in {line:?}"));
            p.play_unchecked(m);
        }
        assert!(
            p.is_checkmate() && p.turn() != winner,
            "{line:?} does not mate"
        );
    }

    fn can(fen: &str, winner: Color, budget: usize) {
        let p = pos(fen);
        match can_checkmate(&p, winner, budget) {
            MateVerdict::CanMate { line } => assert_mating_line(&p, winner, &line),
            v => panic!("{fen}: expected a mate for {winner:?}, got {v:?}"),
        }
    }

    fn cannot(fen: &str, winner: Color, budget: usize, reason_has: &str) {
        match can_checkmate(&pos(fen), winner, budget) {
            MateVerdict::CannotMate { reason } => assert!(reason.contains(reason_has), "{reason}"),
            v => panic!("{fen}: expected no mate for {winner:?}, got {v:?}"),
        }
    }

    #[test]
    fn art_7_5_5_bare_king_cannot_mate() {
        cannot("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Black, 10, "bare king");
        cannot("4k3/8/8/8/8/8/8/4K3 w - - 0 1", White, 10, "bare king");
    }

    #[test]
    fn art_7_5_5_knight_alone_cannot_mate_bare_king() {
        cannot("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", White, 10, "lone knight");
    }

    #[test]
    fn art_7_5_5_bishop_alone_cannot_mate_bare_king() {
        cannot("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", White, 10, "light squares");
    }

    #[test]
    fn art_7_5_5_knight_cannot_mate_king_and_queen() {
        // Not a helpmate: the queen can always take the checking knight (see module docs).
        cannot("4k3/3q4/8/8/8/8/8/4KN2 w - - 0 1", White, 10, "queens only");
    }

    #[test]
    fn art_7_5_5_knight_can_mate_king_and_rook_or_pawn() {
        // The loser's own rook or pawn fills the flight square a knight cannot cover.
        can("r3k3/8/8/8/8/8/8/4KN2 w - - 0 1", White, 100_000);
        can("4k3/p7/8/8/8/8/8/4KN2 w - - 0 1", White, 100_000);
    }

    #[test]
    fn art_7_5_5_opposite_bishops_can_mate() {
        can("4k3/8/8/8/8/8/8/2b1KB2 w - - 0 1", White, 200_000);
    }

    #[test]
    fn art_7_5_5_same_coloured_bishops_cannot_mate() {
        let fen = "4k3/8/8/8/8/8/8/3bKB2 w - - 0 1";
        cannot(fen, White, 10, "light squares");
        cannot(fen, Black, 10, "light squares");
        cannot("4k3/8/3r4/8/8/8/8/3bKB2 w - - 0 1", White, 10, "interpose");
    }

    #[test]
    fn art_7_5_5_locked_chain_kings_only_cannot_mate() {
        cannot(LOCKED, White, 10_000, "reachable positions (768)");
        cannot(LOCKED, Black, 10_000, "were all explored");
    }

    #[test]
    fn art_7_5_5_locked_chain_light_bishop_cannot_break_through() {
        // Every light square on ranks 4-5 holds a white pawn, so the bishop is
        // shut in, and all black pawns stand on dark squares out of its reach.
        let fen = "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/3B4/8/4K3 w - - 0 1";
        cannot(fen, White, 20_000, "were all explored");
    }

    #[test]
    fn art_7_5_5_locked_chain_dark_bishop_breaks_through() {
        // The same chain, but a dark bishop can take the black pawns.
        let fen = "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3B4/4K3 w - - 0 1";
        can(fen, White, 50_000);
    }

    #[test]
    fn art_7_5_5_chain_with_gap_can_mate() {
        // Without the g- and h-pawns the white king walks round, takes f6 and promotes.
        let fen = "4k3/8/1p1p1p2/pPpPpP2/P1P1P3/8/8/4K3 w - - 0 1";
        can(fen, White, 50_000);
    }

    #[test]
    fn art_7_5_5_starting_position_can_mate() {
        can(START, White, 50_000);
        can(START, Black, 50_000);
    }

    #[test]
    fn art_7_5_5_middlegame_can_mate() {
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";
        can(fen, White, 50_000);
        can(fen, Black, 50_000);
    }

    #[test]
    fn art_7_5_5_finished_games() {
        let fools_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(
            can_checkmate(&pos(fools_mate), Black, 10),
            MateVerdict::CanMate { line: vec![] }
        );
        cannot(fools_mate, White, 10, "reachable positions (1)");
    }

    #[test]
    fn art_7_5_5_small_budget_is_undecided() {
        assert!(matches!(
            can_checkmate(&pos(START), White, 0),
            MateVerdict::Undecided { .. }
        ));
        assert_eq!(
            can_checkmate(&pos(LOCKED), White, 100),
            MateVerdict::Undecided { explored: 100 }
        );
    }

    #[test]
    fn art_7_5_5_random_positions_never_panic_and_lines_replay() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..40 {
            let mut p = Chess::default();
            for _ in 0..next() % 200 {
                let moves = p.legal_moves();
                let Some(&m) = moves.get((next() % moves.len().max(1) as u64) as usize) else {
                    break;
                };
                p.play_unchecked(m);
            }
            for winner in [White, Black] {
                let by_material = material_proof(p.board(), winner).is_some();
                assert_eq!(
                    by_material,
                    p.has_insufficient_material(winner),
                    "{}",
                    Fen::from_position(&p, EnPassantMode::Legal)
                );
                match can_checkmate(&p, winner, 2_000) {
                    MateVerdict::CanMate { line } => assert_mating_line(&p, winner, &line),
                    MateVerdict::CannotMate { reason } => assert!(!reason.is_empty()),
                    MateVerdict::Undecided { explored } => assert!(explored <= 2_000),
                }
            }
        }
    }
}
