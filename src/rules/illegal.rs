//! 7.5.1–7.5.5 — illegal moves completed at the clock. An illegal move on the board is only a
//! warning until its player presses the clock (7.5.1); the pawn left unreplaced on the last rank
//! stands as a queen (7.5.2); a press with no move (7.5.3) and a two-handed move (7.5.4,
//! `hands.rs`) count alike. 7.5.5 sets the penalty: two minutes to the opponent the first time,
//! loss the second, unless the opponent cannot checkmate by any series of legal moves (draw),
//! which `dead_position.rs` decides by search, not by counting material.

use shakmaty::{attacks, Bitboard, Board, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::castling::{corner_side, king_home};
use super::completion::{after_board, diff};
use super::dead_position::{can_checkmate, MateVerdict};
use super::{Breach, Rules};
use crate::types::{Article, DecisionKind, PenaltyAction};

/// How many positions the 7.5.5 search may visit: seconds of work at most, once a game.
const MATE_SEARCH_BUDGET: usize = 400_000;

/// A queen promotion whose board the player left with the pawn still on the last rank.
pub fn half_promotion(pos: &Chess, board: &Board, masked: Bitboard) -> Option<Move> {
    pos.legal_moves().into_iter().find(|m| {
        m.promotion() == Some(Role::Queen) && {
            let mut after = after_board(pos, *m);
            after.set_piece_at(m.to(), Piece { color: pos.turn(), role: Role::Pawn });
            (diff(board, &after) & !masked).is_empty()
        }
    })
}

/// What an illegal move on the board was, in words, and the clause that makes it illegal where
/// it is a castling clause.
pub fn describe(pos: &Chess, board: &Board) -> (String, Option<Article>) {
    let mover = pos.turn();
    let game = pos.board();
    let mine = |b: &Board, sq: Square| b.piece_at(sq).filter(|p| p.color == mover);
    let gone: Vec<Square> = Square::ALL.into_iter().filter(|&s| mine(game, s).is_some() && mine(board, s) != mine(game, s)).collect();
    let new: Vec<Square> = Square::ALL.into_iter().filter(|&s| mine(board, s).is_some() && mine(board, s) != mine(game, s)).collect();

    if let Some((side, text, article)) = castling_fault(pos, board) {
        let name = if side == CastlingSide::KingSide { "O-O" } else { "O-O-O" };
        return (format!("{name}: {text}"), Some(article));
    }
    if let ([from], [to]) = (gone.as_slice(), new.as_slice()) {
        if let (Some(piece), Some(placed)) = (game.piece_at(*from), board.piece_at(*to)) {
            if piece == placed {
                let sep = if game.piece_at(*to).is_some_and(|p| p.color != mover) { 'x' } else { '-' };
                let letter = if piece.role == Role::Pawn { String::new() } else { piece.role.upper_char().to_string() };
                let name = format!("{letter}{from}{sep}{to}");
                return (format!("{name} {}", why_illegal(pos, piece, *from, *to)), None);
            }
        }
    }
    if gone.len() == 1 && new.is_empty() {
        return (format!("{} taken off the board", super::completion::piece_name(game.piece_at(gone[0]).expect("gone square held a piece"), gone[0])), None);
    }
    let squares: Vec<String> = diff(board, game).into_iter().map(|s| s.to_string()).collect();
    (format!("the board differs from the game on {}", squares.join(", ")), None)
}

fn why_illegal(pos: &Chess, piece: Piece, from: Square, to: Square) -> String {
    let occupied = pos.board().occupied();
    let reach_empty = match piece.role {
        Role::Pawn => {
            let forward = if piece.color == Color::White { 1 } else { -1 };
            let (df, dr) = (to.file() as i32 - from.file() as i32, to.rank() as i32 - from.rank() as i32);
            let home = if piece.color == Color::White { shakmaty::Rank::Second } else { shakmaty::Rank::Seventh };
            (df == 0 && (dr == forward || (dr == 2 * forward && from.rank() == home))) || (df.abs() == 1 && dr == forward)
        }
        role => attacks::attacks(from, Piece { color: piece.color, role }, Bitboard::EMPTY).contains(to),
    };
    if !reach_empty {
        return format!("is not a {} move", role_name(piece.role));
    }
    let blocked = attacks::between(from, to) & occupied;
    if let Some(first) = blocked.into_iter().next() {
        return format!("through {first}");
    }
    if pos.board().piece_at(to).is_some_and(|p| p.color == piece.color) {
        return "onto his own piece".into();
    }
    if piece.role == Role::Pawn && from.file() != to.file() && pos.board().piece_at(to).is_none() {
        return "captures nothing".into();
    }
    if piece.role == Role::Pawn && from.file() == to.file() && pos.board().piece_at(to).is_some() {
        return "into an occupied square".into();
    }
    if pos.is_check() { "does not get the king out of check".into() } else { "leaves his king in check".into() }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Castling on the board (king from home to a castling square, the rook over it) that the
/// position forbids: which side, why, and the clause.
fn castling_fault(pos: &Chess, board: &Board) -> Option<(CastlingSide, String, Article)> {
    let mover = pos.turn();
    let king = Piece { color: mover, role: Role::King };
    let rook = Piece { color: mover, role: Role::Rook };
    if board.piece_at(king_home(mover)).is_some() || pos.board().piece_at(king_home(mover)) != Some(king) {
        return None;
    }
    let side = [CastlingSide::KingSide, CastlingSide::QueenSide].into_iter().find(|s| board.piece_at(s.king_to(mover)) == Some(king))?;
    let corner = Square::ALL.into_iter().find(|&s| corner_side(mover, s) == Some(side))?;
    if board.piece_at(side.rook_to(mover)) != Some(rook) || pos.board().piece_at(corner) != Some(rook) {
        return None;
    }
    if !pos.castles().has(mover, side) {
        return Some((side, "castling rights lost: the king or that rook has moved".into(), Article::A3_8_2_1));
    }
    let between = (attacks::between(king_home(mover), corner) & pos.board().occupied()).any();
    if between {
        return Some((side, "a piece stands between the king and the rook".into(), Article::A3_8_2_2));
    }
    let path = attacks::between(king_home(mover), side.king_to(mover)).with(king_home(mover)).with(side.king_to(mover));
    let attacked = path.into_iter().find(|&s| pos.board().attacks_to(s, !mover, pos.board().occupied()).any());
    let text = match attacked {
        Some(s) => format!("{s} is attacked"),
        None => "it is not legal here".into(),
    };
    Some((side, text, Article::A3_8_2_2))
}

impl Rules {
    /// The player having the move pressed his clock with no legal move completed.
    pub(super) fn clock_without_move(&mut self, side: Color) {
        // Unless the move stands (7.5.2), the player still has to move: the arbiter sets his
        // clock running again (7.1).
        self.running = Some(side);
        let board = self.phys.board();
        let masked = self.known_mask();
        let crowded = self.phys.crowded();
        let held = self.phys.held().iter().any(|h| h.piece.color == side);
        let d = (diff(&board, self.pos.board()) & !masked) | crowded;
        if d.is_empty() && !held {
            let b = Breach { article: Article::A7_5_3, detail: "pressed the clock without making a move".into(), confidence: 1.0 };
            self.violation(Some(side), b);
            self.penalise(side);
            return;
        }
        if let Some(m) = half_promotion(&self.pos, &board, masked).filter(|_| crowded.is_empty() && !held) {
            self.complete(m, Bitboard::EMPTY, self.now);
            self.awaiting_clock = None;
            self.running = Some(!side);
            self.phys.set_square(m.to(), Some(Piece { color: side, role: Role::Queen }));
            let detail = format!("pressed the clock with the pawn on {} not replaced: it is replaced by a queen", m.to());
            self.violation(Some(side), Breach { article: Article::A7_5_2, detail, confidence: 1.0 });
            self.penalise(side);
            return;
        }
        for sq in crowded {
            let stack = self.phys.stack(sq);
            let last_rank = sq.rank() == super::castling::relative(Square::A8, side).rank();
            if last_rank && stack.first().is_some_and(|p| p.color != side) && stack.last().is_some_and(|p| p.color == side) {
                let detail = format!("promoted on {sq} without taking the opponent's piece standing there");
                self.violation(Some(side), Breach { article: Article::A4_6_3, detail, confidence: 1.0 });
            }
        }
        let (what, clause) = describe(&self.pos, &board);
        let what = match clause {
            Some(a) => format!("{what}, {a}"),
            None => what,
        };
        let what = if crowded.is_empty() { what } else { format!("{what}; the taken piece was never removed") };
        let detail = format!(
            "completed an illegal move ({what}) by pressing the clock: the position before it is reinstated, and 4.3 and 4.7 apply to the move that replaces it"
        );
        self.violation(Some(side), Breach { article: Article::A7_5_1, detail, confidence: 1.0 });
        self.penalise(side);
        self.mark_known(&d.into_iter().collect::<Vec<_>>(), Some(side), Article::A7_5_1);
    }

    /// 7.5.5 for `side`'s latest completed illegal move.
    pub(super) fn penalise(&mut self, side: Color) {
        self.illegal[side] += 1;
        if self.illegal[side] == 1 {
            self.emit(DecisionKind::Penalty { article: Article::A7_5_5, side: side.into(), action: PenaltyAction::AddTime, seconds: Some(120) });
            return;
        }
        let verdict = can_checkmate(&self.pos, !side, MATE_SEARCH_BUDGET);
        let (action, result, why) = match &verdict {
            MateVerdict::CannotMate { reason } => (PenaltyAction::Draw, "1/2-1/2", format!("the opponent cannot checkmate by any series of legal moves ({reason})")),
            MateVerdict::CanMate { line } => (
                PenaltyAction::Loss,
                if side == Color::White { "0-1" } else { "1-0" },
                format!("the opponent can checkmate (e.g. {})", line.join(" ")),
            ),
            MateVerdict::Undecided { explored } => (
                PenaltyAction::Loss,
                if side == Color::White { "0-1" } else { "1-0" },
                format!("no proof that the opponent cannot checkmate after {explored} positions: the loss stands for the arbiter to confirm"),
            ),
        };
        self.emit(DecisionKind::Penalty { article: Article::A7_5_5, side: side.into(), action, seconds: None });
        self.state(format!("second completed illegal move by {}: {why}", crate::types::Side::from(side)));
        self.result = Some(result);
    }
}

#[cfg(test)]
mod art_7_5_1 {
    //! An illegal move is completed once the clock is pressed; the position before it is
    //! reinstated and 4.3 / 4.7 apply to the move that replaces it.
    use crate::rules::testkit::*;

    fn bishop_through_d2() -> Script {
        Script::new().enter(0, W).lift(0, "c1").place(0, "h6").release(0, "h6").leave(0)
    }

    #[test]
    fn art_7_5_1_illegal_move_is_a_warning_until_the_clock() {
        let d = bishop_through_d2().run();
        assert!(violations(&d).is_empty());
        let w = warnings(&d);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("Bc1-h6 through d2"), "{w:?}");
    }

    #[test]
    fn art_7_5_1_clock_completes_it_penalty_and_waits_for_the_position() {
        let d = bishop_through_d2().clock(W).run();
        assert!(sans(&d).is_empty(), "no move line for an illegal move");
        assert_eq!(violations(&d), [("7.5.1", Some(W))]);
        assert_eq!(penalties(&d), [("add_time", W, Some(120))]);
        assert!(states(&d).iter().any(|s| s.contains("waiting for the position to be restored")));
    }

    #[test]
    fn art_7_5_1_replacing_move_is_bound_by_the_touched_bishop() {
        let restored = Script::new().mv("e2e4").mv("e7e5")
            .enter(0, W).lift(0, "f1").place(0, "h3").release(0, "h3").leave(0).clock(W)
            .enter(1, W).lift(1, "h3").place(1, "f1").release(1, "f1").leave(1);
        let d = restored.clone().mv("g1f3").run();
        assert_eq!(sans(&d), ["e4", "e5", "Nf3"]);
        assert_eq!(violations(&d), [("7.5.1", Some(W)), ("4.3.1", Some(W))]);
        let d = restored.mv("f1c4").run();
        assert_eq!(sans(&d), ["e4", "e5", "Bc4"]);
        assert_eq!(violations(&d), [("7.5.1", Some(W))]);
    }

    #[test]
    fn art_7_5_1_a_touched_piece_that_cannot_move_binds_nothing_after_reinstatement() {
        let d = bishop_through_d2().clock(W).enter(1, W).lift(1, "h6").place(1, "c1").release(1, "c1").leave(1).mv("e2e4").run();
        assert_eq!(sans(&d), ["e4"]);
        assert_eq!(violations(&d), [("7.5.1", Some(W))]);
        assert!(states(&d).iter().any(|s| s.contains("position restored")));
    }

    #[test]
    fn art_7_5_1_corrected_before_the_clock_is_no_breach() {
        let d = bishop_through_d2().enter(1, W).lift(1, "h6").place(1, "c1").release(1, "c1").lift(1, "d2").place(1, "d3").release(1, "d3").leave(1).clock(W).run();
        assert_eq!(sans(&d), ["d3"]);
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_7_5_2 {
    //! The pawn on the last rank and the clock pressed: illegal, and the pawn becomes a queen.
    use crate::rules::testkit::*;

    const FEN: &str = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";

    #[test]
    fn art_7_5_2_pawn_left_on_the_last_rank_stands_as_a_queen() {
        let d = Script::from_fen(FEN).enter(0, W).lift(0, "e7").place(0, "e8").release(0, "e8").leave(0).clock(W).mv("a2b2").run();
        assert_eq!(sans(&d), ["e8=Q", "Kb2"]);
        assert_eq!(violations(&d), [("7.5.2", Some(W))]);
        assert_eq!(penalties(&d), [("add_time", W, Some(120))]);
    }

    #[test]
    fn art_7_5_2_pawn_replaced_before_the_clock_is_fine() {
        let d = Script::from_fen(FEN)
            .enter(0, W).lift(0, "e7").place(0, "e8").release(0, "e8").lift(0, "e8").place_new(0, "e8", 'Q').release(0, "e8").leave(0).clock(W)
            .run();
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_7_5_3 {
    //! Pressing the clock without making a move is penalised as an illegal move.
    use crate::rules::testkit::*;

    #[test]
    fn art_7_5_3_clock_without_a_move() {
        let d = Script::new().clock(W).run();
        assert_eq!(violations(&d), [("7.5.3", Some(W))]);
        assert_eq!(penalties(&d), [("add_time", W, Some(120))]);
    }

    #[test]
    fn art_7_5_3_clock_after_a_move_is_fine_and_a_double_press_is_ignored() {
        let d = Script::new().mv("e2e4").clock(W).clock(W).run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_7_5_3_pressing_a_button_whose_clock_is_stopped_does_nothing() {
        // White moves and forgets his clock; Black's own clock is not running, so his press is
        // no move made on the clock.
        let d = Script::new().clock(B).mv("e2e4").clock(B).mv("e7e5").clock(B).run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_7_5_3_the_waiting_player_pressing_his_own_button_is_not_a_move() {
        let d = Script::new().clock(B).mv("e2e4").clock(W).run();
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_7_5_5 {
    //! First completed illegal move: two minutes to the opponent; second: loss, unless the
    //! opponent cannot checkmate by any series of legal moves: draw.
    use crate::rules::testkit::*;

    #[test]
    fn art_7_5_5_second_illegal_move_loses() {
        let d = Script::new().clock(W).clock(W).run();
        assert_eq!(penalties(&d), [("add_time", W, Some(120)), ("loss", W, None)]);
        assert_eq!(result_of(&Script::new().clock(W).clock(W)), Some("0-1"));
    }

    #[test]
    fn art_7_5_5_penalties_are_counted_per_player() {
        let d = Script::new().clock(W).mv("e2e4").clock(W).clock(B).run();
        assert_eq!(penalties(&d), [("add_time", W, Some(120)), ("add_time", B, Some(120))]);
    }

    #[test]
    fn art_7_5_5_second_illegal_move_against_a_bare_king_is_a_draw() {
        let s = Script::from_fen("4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1").clock(W).clock(W);
        assert_eq!(penalties(&s.run()), [("add_time", W, Some(120)), ("draw", W, None)]);
        assert_eq!(result_of(&s), Some("1/2-1/2"));
    }

    #[test]
    fn art_7_5_5_locked_pawns_are_a_draw_despite_the_material() {
        // Black has a bishop and pawns, but the chain is locked, the bishop runs on the dark
        // squares its own pawns hold and no king can cross: no mate exists.
        let s = Script::from_fen("1b6/3k4/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1").clock(W).clock(W);
        assert_eq!(penalties(&s.run()).last().unwrap().0, "draw");
    }

    #[test]
    fn art_7_5_5_after_the_game_ends_nothing_more_is_judged() {
        let d = Script::new().clock(W).clock(W).clock(W).run();
        assert_eq!(penalties(&d).len(), 2);
        assert!(states(&d).iter().any(|s| s.contains("game is over")));
    }
}
