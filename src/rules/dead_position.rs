//! Law 7.5.5 support: can `winner` checkmate the other side by *any* series of
//! legal moves (both sides cooperating, so helpmates count)?
//!
//! Method, in three stages, each of which only ever states what it has proven:
//!
//! 1. If the loser is already checkmated, the answer is the empty line.
//! 2. Material rules that are true for every placement of the pieces, and
//!    stay true as material only shrinks (no pawns are left to promote):
//!    a bare king never gives check; a lone knight can never mate a king whose
//!    only helpers are queens (a queen on a flight square always sees the
//!    checking knight, and the knight plus the winning king cannot cover the
//!    other flight squares, so every knight check can be answered by the king
//!    or by a queen capture; checked by enumerating every K+N v K+Q(+Q) mate
//!    candidate); bishops all on one colour cannot mate when the loser has no
//!    pawns or knights, because the two orthogonal neighbours of the king next
//!    to the checking diagonal are of the other colour, the winning king can
//!    never cover both, so one is a flight square or holds a rook/queen that
//!    can interpose or capture.
//! 3. A best-first search over the positions reachable from `pos`, keyed by
//!    a 128-bit Zobrist hash (move clocks excluded: Law 9.6's automatic draws
//!    are not part of "any series of legal moves"). The order favours
//!    positions where the loser's king has few flight squares and the
//!    winner's force is close to it, which finds short helpmates fast. Any
//!    mate it meets is returned as a replayable line, so `CanMate` is sound by
//!    construction. Every reachable position is generated (nothing is pruned;
//!    pawn moves and captures are kept like any other move), so if the frontier
//!    empties before `budget` distinct positions were recorded, the whole
//!    reachable set was seen without a mate: that proves `CannotMate` (up to a
//!    128-bit hash collision). Locked pawn chains give small reachable sets, so
//!    this is the stage that catches them.
//!
//! Memory grows with `budget` (a few hundred bytes per recorded position).

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};

use shakmaty::zobrist::Zobrist128;
use shakmaty::{Bitboard, Board, Chess, Color, EnPassantMode, Move, Position, Role, Square, attacks};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateVerdict {
    /// A mating line was found (the moves, from `pos`, as UCI strings like "e2e4"), proving it.
    CanMate { line: Vec<String> },
    /// Proven impossible; `reason` says how, in plain words.
    CannotMate { reason: String },
    /// The search budget ran out before either proof.
    Undecided { explored: usize },
}

/// Decides whether `winner` can checkmate `!winner` from `pos` by any series
/// of legal moves. `budget` caps the number of distinct positions recorded.
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
    if ours.count() == 1 && (ours & board.knights()).any() && (theirs & !board.queens()).is_empty() {
        return Some(if theirs.is_empty() {
            "a lone knight against a bare king".to_owned()
        } else {
            "a lone knight against queens only: a queen can always take the checking knight".to_owned()
        });
    }
    let bishops = board.bishops();
    let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty() || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
    if ours == (ours & bishops) && one_colour && (board.pawns() | board.knights()).is_empty() {
        let shade = if (bishops & Bitboard::LIGHT_SQUARES).any() { "light" } else { "dark" };
        return Some(if theirs == (theirs & bishops) {
            format!("bishops all on {shade} squares and no other material")
        } else {
            format!("bishops all on {shade} squares; the loser's rooks or queens can always interpose")
        });
    }
    None
}

fn hash(pos: &Chess) -> u128 {
    pos.zobrist_hash::<Zobrist128>(EnPassantMode::Legal).0
}

/// A frontier entry. Ordered so that `BinaryHeap` pops the lowest score first,
/// and among equal scores the oldest entry (breadth-first ties keep lines short).
struct Open {
    score: i32,
    seq: usize,
    depth: i32,
    pos: Chess,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        if lifo() { (other.score, self.seq).cmp(&(self.score, other.seq)) } else { (other.score, other.seq).cmp(&(self.score, self.seq)) }
    }
}

fn search(root: &Chess, winner: Color, budget: usize) -> MateVerdict {
    let mode = root.castles().mode();
    // parents[i] = (index of the parent, move played from it); index 0 is the root.
    let mut parents: Vec<(usize, Option<Move>)> = vec![(0, None)];
    let mut seen: HashSet<u128> = HashSet::new();
    seen.insert(hash(root));
    let mut open = BinaryHeap::new();
    open.push(Open { score: 0, seq: 0, depth: 0, pos: root.clone() });
    while let Some(Open { seq, depth, pos, .. }) = open.pop() {
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            if !seen.insert(hash(&child)) {
                continue;
            }
            parents.push((seq, Some(m)));
            // A check's number of replies measures how close it is to mate.
            let replies = if child.turn() != winner && child.is_check() {
                let n = child.legal_moves().len() as i32;
                if n == 0 {
                    return MateVerdict::CanMate { line: line_to(&parents, parents.len() - 1, mode) };
                }
                Some(n)
            } else {
                None
            };
            if seen.len() > budget {
                return MateVerdict::Undecided { explored: seen.len() };
            }
            let score = envi("HW", 4) * heuristic(&child, winner, replies) + (depth + 1) * envi("DW", 2) / 2;
            open.push(Open { score, seq: parents.len() - 1, depth: depth + 1, pos: child });
        }
    }
    MateVerdict::CannotMate {
        reason: format!("the reachable positions ({}) were all explored: none is mate", seen.len()),
    }
}

fn line_to(parents: &[(usize, Option<Move>)], mut i: usize, mode: shakmaty::CastlingMode) -> Vec<String> {
    let mut line = Vec::new();
    while let Some(&(parent, Some(m))) = parents.get(i) {
        line.push(m.to_uci(mode).to_string());
        i = parent;
    }
    line.reverse();
    line
}

/// Lower is closer to a mate: few flight squares for the loser's king, some
/// winning piece close to giving check, the winner's force near the king and
/// the loser's own pieces near it too (they are what blocks flight squares).
fn heuristic(pos: &Chess, winner: Color, replies: Option<i32>) -> i32 {
    if envi("NOH", 0) == 1 { return 0; }
    let board = pos.board();
    let loser = !winner;
    let Some(k) = board.king_of(loser) else { return 0 };
    let without_king = board.occupied() & !Bitboard::from(k);
    let mut flights = 0;
    for sq in attacks::king_attacks(k) & !board.by_color(loser) {
        if board.attacks_to(sq, winner, without_king).is_empty() {
            flights += 1;
        }
    }
    let mut dist = 0;
    let mut best = 12;
    for sq in board.by_color(winner) {
        dist += sq.distance(k) as i32;
        if let Some(role) = board.role_at(sq) {
            best = best.min(check_cost(board, sq, role, winner, k));
        }
    }
    for sq in board.by_color(loser) {
        dist += sq.distance(k) as i32 / 2;
    }
    let check = replies.map_or(0, |n| n.min(envi("RC", 8)) * envi("RW", 1) - envi("CB", 4));
    envi("WF", 4) * flights + envi("WC", 3) * best + dist + check
}

const W_FLIGHT: i32 = 4;
const W_CHECK: i32 = 3;

/// Rough count of moves (own moves plus pieces in the way) before the piece
/// on `from` could check a king on `k`.
fn check_cost(board: &Board, from: Square, role: Role, winner: Color, k: Square) -> i32 {
    let occ = board.occupied();
    let blockers = |a: Square, b: Square| (attacks::between(a, b) & occ).count() as i32;
    let targets = attacks::attacks(k, role.of(!winner), Bitboard::EMPTY);
    match role {
        Role::King => 12,
        Role::Pawn => {
            let ahead = |r: u32| match winner {
                Color::White => r as i32 - from.rank() as i32,
                Color::Black => from.rank() as i32 - r as i32,
            };
            let promote = ahead(if winner == Color::White { 7 } else { 0 }) + 2;
            targets
                .into_iter()
                .map(|t| (ahead(t.rank() as u32), from.file().distance(t.file()) as i32))
                .filter(|&(d, f)| d >= 1 && f <= d)
                .map(|(d, _)| d - 1)
                .fold(promote, i32::min)
        }
        _ if targets.contains(from) => blockers(from, k),
        _ => {
            let steps = attacks::attacks(from, role.of(winner), Bitboard::EMPTY) & targets;
            let own = board.by_color(winner);
            steps
                .into_iter()
                .map(|s| 1 + blockers(from, s) + blockers(s, k) + i32::from(own.contains(s)))
                .min()
                .unwrap_or(if role == Role::Bishop { 12 } else { 3 })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use std::time::Instant;

    fn pos(fen: &str) -> Chess {
        match Fen::from_ascii(fen.as_bytes()).map(|f| f.into_position(CastlingMode::Standard)) {
            Ok(Ok(p)) => p,
            _ => panic!("bad test FEN {fen}"),
        }
    }

    #[test]
    #[ignore]
    fn art_7_5_5_bench() {
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Color::White),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Color::Black),
            ("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", Color::White),
            ("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", Color::Black),
            ("4k3/8/8/8/8/8/8/2b1KB2 w - - 0 1", Color::White),
            ("r3k3/8/8/8/8/8/8/4KN2 w - - 0 1", Color::White),
            ("4k3/p7/8/8/8/8/8/4KN2 w - - 0 1", Color::White),
            ("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1", Color::White),
            ("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/3B4/8/4K3 w - - 0 1", Color::White),
            ("4k3/8/1p1p1p2/pPpPpP2/P1P1P3/8/8/4K3 w - - 0 1", Color::White),
            ("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3B4/4K3 w - - 0 1", Color::White),
            ("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", Color::White),
            ("4k3/8/8/8/8/8/8/1b2KN2 w - - 0 1", Color::White),
            ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", Color::White),
            ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", Color::Black),
            ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", Color::White),
            ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", Color::Black),
        ];
        for (fen, w) in cases {
            let t = Instant::now();
            let v = can_checkmate(&pos(fen), w, 300_000);
            println!("{fen} {w:?}: {:?} in {:?}", v, t.elapsed());
        }
    }

    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    #[ignore]
    fn art_7_5_5_fuzzbench() {
        let mut st = 0x9E37_79B9_7F4A_7C15u64;
        let (mut can, mut cannot, mut und) = (0, 0, 0);
        let mut worst = std::time::Duration::ZERO;
        let t0 = Instant::now();
        for _ in 0..200 {
            let mut p = Chess::default();
            let plies = rng(&mut st) % 160;
            for _ in 0..plies {
                let moves = p.legal_moves();
                if moves.is_empty() { break; }
                let m = moves[(rng(&mut st) % moves.len() as u64) as usize];
                p.play_unchecked(m);
            }
            for w in [Color::White, Color::Black] {
                let t = Instant::now();
                let v = can_checkmate(&p, w, envi("BUD", 20000) as usize);
                let e = t.elapsed();
                if e > worst { worst = e; }
                match v {
                    MateVerdict::CanMate { .. } => can += 1,
                    MateVerdict::CannotMate { .. } => cannot += 1,
                    MateVerdict::Undecided { .. } => { und += 1; println!("UND {} {:?} {:?}", Fen::from_position(&p, EnPassantMode::Legal), w, e); }
                }
            }
        }
        println!("can {can} cannot {cannot} und {und} worst {worst:?} total {:?}", t0.elapsed());
    }
}

fn envi(n: &str, d: i32) -> i32 {
    static C: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<String, i32>>> = std::sync::OnceLock::new();
    let m = C.get_or_init(Default::default);
    let mut g = m.lock().unwrap();
    *g.entry(n.to_string()).or_insert_with(|| std::env::var(n).ok().and_then(|v| v.parse().ok()).unwrap_or(d))
}
fn lifo() -> bool { envi("LIFO", 0) == 1 }
