//! 7.4.1, 7.6 — displaced pieces. A piece knocked or moved out of turn is reported when the
//! hands leave it displaced; the player who displaced it must restore it in his own time, so
//! pressing his clock with it still displaced breaches 7.4.1. A difference the board shows that
//! no hand explains is a piece *found* displaced (7.6). Either way the engine then follows the
//! board back to the game position and says so, without freezing: moves elsewhere still count.

use shakmaty::{Bitboard, Board, Color, Position, Square};

use super::completion::{colour_line, colour_match, diff, exact_match, move_squares, piece_name};
use super::{Breach, Rules};
use crate::types::{Article, Cell, Placement, Side};

/// A square known to differ from the game position, and who made it so.
#[derive(Debug, Clone, Copy)]
pub struct Known {
    pub square: Square,
    pub by: Option<Color>,
    pub article: Article,
    pub reported: bool,
}

/// "pawn g2 to g3, Nb1 off the board" for squares where `seen` differs from `game`.
pub fn describe(game: &Board, seen: &Board, squares: Bitboard) -> String {
    let mut gone: Vec<(Square, shakmaty::Piece)> = Vec::new();
    let mut new: Vec<(Square, shakmaty::Piece)> = Vec::new();
    for sq in squares {
        if let Some(p) = game.piece_at(sq).filter(|&p| seen.piece_at(sq) != Some(p)) {
            gone.push((sq, p));
        }
        if let Some(p) = seen.piece_at(sq).filter(|&p| game.piece_at(sq) != Some(p)) {
            new.push((sq, p));
        }
    }
    let mut parts = Vec::new();
    for (from, piece) in gone {
        match new.iter().position(|&(_, p)| p == piece) {
            Some(i) => {
                let (to, _) = new.remove(i);
                parts.push(format!("{} {} to {to}", Side::from(piece.color), piece_name(piece, from)));
            }
            None => parts.push(format!("{} {} off its square", Side::from(piece.color), piece_name(piece, from))),
        }
    }
    for (sq, piece) in new {
        parts.push(format!("an extra {} {}", Side::from(piece.color), piece_name(piece, sq)));
    }
    format!("displaced {}", parts.join(", "))
}

impl Rules {
    pub(super) fn mark_known(&mut self, squares: &[Square], by: Option<Color>, article: Article) {
        let was_clean = self.known.is_empty();
        for &square in squares {
            if !self.known.iter().any(|k| k.square == square) {
                self.known.push(Known { square, by, article, reported: false });
            }
        }
        if was_clean && !self.known.is_empty() {
            let list: Vec<String> = self.known.iter().map(|k| k.square.to_string()).collect();
            self.state(format!("board differs from the game on {}: waiting for the position to be restored", list.join(", ")));
        }
    }

    /// Forgets differences the board no longer shows.
    pub(super) fn resolve_known(&mut self) {
        if self.known.is_empty() {
            return;
        }
        let board = self.phys.board();
        let crowded = self.phys.crowded();
        let game = self.pos.board().clone();
        self.known.retain(|k| crowded.contains(k.square) || board.piece_at(k.square) != game.piece_at(k.square));
        if self.known.is_empty() {
            self.state("position restored: the board matches the game again".into());
        }
    }

    /// 7.4.1: `side` pressed his clock with pieces he displaced not yet restored.
    pub(super) fn report_unrestored(&mut self, side: Color) {
        self.resolve_known();
        let open: Vec<Square> = self
            .known
            .iter()
            .filter(|k| k.by == Some(side) && k.article == Article::A7_4_1 && !k.reported)
            .map(|k| k.square)
            .collect();
        if open.is_empty() {
            return;
        }
        for k in self.known.iter_mut().filter(|k| open.contains(&k.square)) {
            k.reported = true;
        }
        let names: Vec<String> = open.iter().map(|s| s.to_string()).collect();
        let detail = format!("pressed the clock with the pieces he displaced ({}) not restored", names.join(", "));
        self.violation(Some(side), Breach { article: Article::A7_4_1, detail, confidence: 0.9 });
    }

    /// Pieces the player now on move was seen displacing while the game still had his opponent
    /// to move (the opponent's move seen late, from the board): once nothing else differs and
    /// they are one legal move of his, that move was made, not pieces displaced.
    fn displaced_as_move(&mut self) {
        let mover = self.pos.turn();
        if self.known.is_empty() || self.result.is_some() || self.known.iter().any(|k| k.by != Some(mover)) {
            return;
        }
        let board = self.phys.board();
        if self.complete_shown(&board, Bitboard::EMPTY) {
            self.resolve_known();
        }
    }

    /// The one legal move `board` shows made, `masked` squares aside, completed: whether there
    /// was one.
    fn complete_shown(&mut self, board: &Board, masked: Bitboard) -> bool {
        if let Some(m) = exact_match(&self.pos, board, masked) {
            self.complete(m, Bitboard::EMPTY, self.now);
            return true;
        }
        // The squares' colours fit one legal move though the pieces were named otherwise (the
        // tracker's guess where a hand it lost set them down): that move, and the pieces as the
        // move puts them.
        if let Some(m) = colour_match(&self.pos, board, masked) {
            self.complete(m, Bitboard::EMPTY, self.now);
            for sq in move_squares(m) {
                self.phys.set_square(sq, self.pos.board().piece_at(sq));
            }
            return true;
        }
        false
    }

    /// A settled board as seen: where it differs from what the events left, the eyes win.
    pub(super) fn follow_seen_board(&mut self, placement: &Placement) {
        let tracked = self.phys.board();
        let differences = placement.differences(&tracked);
        if differences.is_empty() && !self.unjudged {
            return;
        }
        for &sq in &differences {
            let seen = match placement.cell(sq) {
                Cell::Piece(p) => Some(p),
                _ => None,
            };
            self.phys.set_square(sq, seen);
        }
        // A board seen while a hand is at work is judged once the hand has done (a later board
        // that shows nothing new still judges it); one seen as a hand only comes in shows what
        // was done before it, and is judged now, before that hand's acts.
        if self.hands_at_work() || self.result.is_some() {
            self.unjudged |= self.result.is_none();
            return;
        }
        self.unjudged = false;
        let board = self.phys.board();
        let masked = self.known_mask();
        // A move held back stands, at its release, if this board shows it; one it does not
        // show was something else, which the board now tells (see `castling::misnamed_shape`).
        let pending = self.pending.take();
        if let Some(p) = pending {
            if exact_match(&self.pos, &board, masked) == Some(p.m) {
                self.complete(p.m, Bitboard::EMPTY, (p.t, p.frame));
                self.displaced_as_move();
                return;
            }
        }
        if self.complete_shown(&board, masked) {
            self.displaced_as_move();
            return;
        }
        // Moves made while the events caught none of them (fast play, an arm never seen, pieces
        // misnamed under a hand): the one line of plies that explains the board is what happened.
        // Where none does with the squares known displaced set aside, one that explains the
        // whole board, those squares too: a piece taken for displaced because its move was
        // heard out of order (the opponent's move not yet seen, a piece set down told before
        // its lift) was moved (rendered game 25: 14... O-O unseen, then 15. d3 read with its
        // lift last, so the d2 pawn was held displaced and the two moves unexplained).
        let line = colour_line(&self.pos, &board, masked).or_else(|| (!masked.is_empty()).then(|| colour_line(&self.pos, &board, Bitboard::EMPTY)).flatten());
        if let Some(line) = line {
            // The acts heard since the last move made belong to moves of the line in an order
            // the events did not tell (the first was not completed at its release, or it would
            // not be in the line): a line of several moves binds no touch, as a move read from
            // the board alone does not (scholarsMate2019-11-18.avi: 3. Bc4 Nf6 4. Qxf7# read from
            // one board, the queen's capture on f7 and a misread lift beside it counted as
            // White's touches before 3. Bc4, a false 4.3.2).
            if line.len() > 1 {
                self.turn.touches.clear();
            }
            // A move held back that the line begins with was made at its release (a rook move
            // to f1, shown to have stood by the other side's reply told by the board alone).
            for (k, m) in line.into_iter().enumerate() {
                if self.result.is_some() {
                    break;
                }
                let at = pending.filter(|p| k == 0 && p.m == m).map_or(self.now, |p| (p.t, p.frame));
                self.complete(m, Bitboard::EMPTY, at);
            }
            // The pieces as the moves put them where the board named them otherwise.
            for sq in diff(&board, self.pos.board()) & !masked {
                self.phys.set_square(sq, self.pos.board().piece_at(sq));
            }
            self.displaced_as_move();
            self.resolve_known();
            return;
        }
        self.resolve_known();
        let masked = self.known_mask();
        let d = diff(&board, self.pos.board()) & !masked;
        if d.is_empty() || self.castling_under_way(&board, masked) {
            return;
        }
        let squares: Vec<Square> = d.into_iter().collect();
        // Seen as the hands of one player alone leave, since the clock was last pressed: he
        // displaced them (a knight knocked under the arm that set the queen down, its lift and
        // setting down hidden by that arm, and the board seen only once it had gone: the
        // rendered knocked scene), and must restore them in his own time. Found with no hand
        // about since the press, or where both players' were, no one can be named (7.6).
        if let Some(side) = self.displacer() {
            let detail = describe(self.pos.board(), &board, d);
            self.warning(side, format!("{detail} under his hand: he must restore it in his own time"), Some(Article::A7_4_1));
            self.mark_known(&squares, Some(side), Article::A7_4_1);
            return;
        }
        let detail = format!(
            "found on the board unexplained by any move: {}; the position before the irregularity is to be reinstated",
            describe(self.pos.board(), &board, d)
        );
        self.violation(None, Breach { article: Article::A7_6, detail, confidence: 0.7 });
        self.mark_known(&squares, None, Article::A7_6);
    }

    /// The player whose hands alone were over the board since the clock was last pressed:
    /// those that have left, and those still there that have touched, lifted or set down
    /// something (one that has only come in cannot have made what a board seen now shows).
    fn displacer(&self) -> Option<Color> {
        let mut sides = self.hands.values().filter(|h| h.left.map_or(h.acted, |left| left >= self.pressed_at)).map(|h| h.side);
        let first = sides.next()?;
        sides.all(|s| s == first).then_some(first)
    }
}

#[cfg(test)]
mod art_7_4_1 {
    //! A player who displaces pieces must restore them in his own time.
    use crate::rules::testkit::*;

    #[test]
    fn art_7_4_1_knocked_piece_not_restored_before_the_clock() {
        let d = Script::new()
            .enter(0, W).lift(0, "g2").place(0, "g3").lift(0, "e2").place(0, "e4").release(0, "e4").leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["e4"], "the move stands");
        assert_eq!(warning_articles(&d), ["7.4.1"]);
        assert_eq!(violations(&d), [("7.4.1", Some(W))]);
        assert!(states(&d).iter().any(|s| s.contains("waiting for the position to be restored")));
    }

    #[test]
    fn art_7_4_1_knocked_piece_restored_in_his_own_time_is_no_breach() {
        let d = Script::new()
            .enter(0, W).lift(0, "g2").place(0, "g3").lift(0, "e2").place(0, "e4").release(0, "e4").leave(0)
            .enter(1, W).lift(1, "g3").place(1, "g2").release(1, "g2").leave(1).clock(W)
            .mv("e7e5")
            .run();
        assert_eq!(sans(&d), ["e4", "e5"]);
        assert!(violations(&d).is_empty());
        assert!(states(&d).iter().any(|s| s.contains("position restored")));
    }

    #[test]
    fn art_7_4_1_the_opponent_knocking_a_piece_while_waiting() {
        let d = Script::new()
            .enter(0, B).lift(0, "h7").leave(0)
            .mv("e2e4").clock(W)
            .enter(1, B).lift(1, "e7").place(1, "e5").release(1, "e5").leave(1).clock(B)
            .run();
        assert_eq!(warning_articles(&d), ["7.4.1"]);
        assert_eq!(sans(&d), ["e4", "e5"], "play goes on around the missing pawn");
        assert_eq!(violations(&d), [("7.4.1", Some(B))]);
    }

    /// White's arm, seen whole, lifts the king, then the rook, sets the rook on f1 and leaves
    /// with the king still in it: the king was set on g1 where the arm hid it (a far-edge
    /// castling, rendered game 65).
    fn castling_king_carried_off() -> Script {
        Script::from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
            .enter(0, W).lift(0, "e1").lift(0, "h1").place(0, "f1").release(0, "f1").leave(0)
    }

    #[test]
    fn art_7_4_1_an_own_piece_gone_in_a_hand_waits_for_the_board_to_show_where_it_went() {
        let d = castling_king_carried_off().board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", true).clock(W).run();
        assert_eq!(sans(&d), ["O-O"], "{d:?}");
        assert!(warning_articles(&d).is_empty(), "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
    }

    #[test]
    fn art_7_4_1_an_own_piece_gone_in_a_hand_and_never_seen_again_is_judged_at_the_clock() {
        let d = castling_king_carried_off().clock(W).run();
        assert_eq!(sans(&d), ["Rf1"], "{d:?}");
        // Having touched the king first, he had to castle (4.4.1).
        assert_eq!(violations(&d), [("4.4.1", Some(W)), ("7.4.1", Some(W))], "{d:?}");
    }

    /// The knight knocked from g1 to f3 under the arm that played 1. e4, neither its lift nor
    /// its setting down seen, and the board showing it only once the arm had gone.
    const KNOCKED_UNSEEN: &str = "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R";

    #[test]
    fn art_7_4_1_a_piece_seen_displaced_as_the_players_arm_leaves_is_his_doing() {
        let d = Script::new().mv("e2e4").board(KNOCKED_UNSEEN, true).clock(W).run();
        assert_eq!(sans(&d), ["e4"], "{d:?}");
        assert_eq!(warning_articles(&d), ["7.4.1"], "{d:?}");
        assert_eq!(violations(&d), [("7.4.1", Some(W))], "{d:?}");
    }

    #[test]
    fn art_7_4_1_a_piece_seen_displaced_as_the_arm_leaves_and_restored_is_no_breach() {
        let d = Script::new().mv("e2e4").board(KNOCKED_UNSEEN, true).board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", true).clock(W).run();
        assert_eq!(warning_articles(&d), ["7.4.1"], "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
    }

    #[test]
    fn art_7_4_1_a_piece_seen_displaced_after_both_players_hands_names_no_one() {
        // Black's hand came over the board and went, touching nothing seen, before the board
        // showed the knight moved: either player's hand may have done it.
        let d = Script::new().mv("e2e4").enter(1, B).leave(1).board(KNOCKED_UNSEEN, true).clock(W).run();
        assert!(warning_articles(&d).is_empty(), "{d:?}");
        assert_eq!(violations(&d), [("7.6", None)], "{d:?}");
    }

    #[test]
    fn art_7_4_1_a_piece_seen_displaced_after_the_clock_names_no_one() {
        let d = Script::new().mv("e2e4").clock(W).board(KNOCKED_UNSEEN, true).run();
        assert!(warning_articles(&d).is_empty(), "{d:?}");
        assert_eq!(violations(&d), [("7.6", None)], "{d:?}");
    }
}

#[cfg(test)]
mod art_7_6 {
    //! A piece found displaced: the position before the irregularity is reinstated.
    use crate::rules::testkit::*;

    #[test]
    fn art_7_6_a_seen_board_that_no_move_explains() {
        let d = Script::new()
            .mv("e2e4").clock(W)
            .board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PP1/RNBQKBNR", true)
            .run();
        assert_eq!(violations(&d), [("7.6", None)]);
        assert!(detail_of(&d, "7.6").contains("Rh1") || detail_of(&d, "7.6").contains("pawn h2"));
    }

    #[test]
    fn art_7_6_a_seen_board_that_matches_the_game_is_no_finding() {
        let d = Script::new().mv("e2e4").board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", true).run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_7_6_two_moves_the_events_missed_are_recorded_not_called_displaced() {
        let d = Script::new().board(START, true).board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR", true).run();
        assert_eq!(sans(&d), ["e4", "e5"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_7_6_a_move_made_before_the_opponents_was_seen_is_a_move_once_it_is() {
        // Black castles with no hand seen; White's knight is seen moving while the game still
        // has Black to move (a displacement, for now); then the board shows both.
        let fen = "r1bqk2r/p1p1bppp/2P2n2/8/8/8/PPP1QPPP/RNB1KB1R b KQkq - 0 8";
        let d = Script::from_fen(fen)
            .enter(0, W).lift(0, "b1").place(0, "c3").release(0, "c3").leave(0)
            .board("r1bq1rk1/p1p1bppp/2P2n2/8/8/2N5/PPP1QPPP/R1B1KB1R", true)
            .run();
        assert_eq!(sans(&d), ["O-O", "Nc3"], "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
    }

    #[test]
    fn art_7_6_a_piece_taken_for_displaced_whose_move_was_heard_out_of_order_was_moved() {
        // Rendered game 25: Black castles with no hand seen; White's d3 is then heard with its
        // setting down first (ignored: the hand held nothing) and its lift last, so the pawn
        // leaves with the hand, displaced; the board shows both moves made. White's acts, heard
        // while Black seemed on move, are held back until that board (`held`), and Black's
        // castling, made before them, is told at White's first act.
        let fen = "r1bqk2r/ppp2ppp/2n5/2bnp3/8/2N2NP1/PP1PPPBP/R1BQ1RK1 b kq - 0 7";
        let d = Script::from_fen(fen)
            .board("r1bqk2r/ppp2ppp/2n5/2bnp3/8/2N2NP1/PP1PPPBP/R1BQ1RK1", true)
            .enter(0, W).place(0, "d3").release(0, "d3").lift(0, "d2").leave(0)
            .board("r1bq1rk1/ppp2ppp/2n5/2bnp3/8/2NP1NP1/PP2PPBP/R1BQ1RK1", true)
            .run();
        assert_eq!(sans(&d), ["O-O", "d3"], "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
        let castled = d.iter().find(|x| matches!(&x.kind, crate::types::DecisionKind::Move { san, .. } if san == "O-O"));
        assert_eq!(castled.map(|x| x.t), Some(0.3), "{d:?}");
    }

    #[test]
    fn art_7_6_a_move_seen_as_the_next_hand_comes_in_is_a_move() {
        // Rendered game 50: Black's knight reached f6 with no hand seen; the board that shows
        // it came in the frame White's hand came in, and White's move was then read before it.
        let fen = "rnbqkbnr/pp1ppppp/8/2p5/2P5/5N2/PP1PPPPP/RNBQKB1R b KQkq - 0 2";
        let d = Script::from_fen(fen)
            .board("rnbqkbnr/pp1ppppp/8/2p5/2P5/5N2/PP1PPPPP/RNBQKB1R", true)
            .enter(0, W)
            .board("rnbqkb1r/pp1ppppp/5n2/2p5/2P5/5N2/PP1PPPPP/RNBQKB1R", true)
            .lift(0, "b1").place(0, "c3").release(0, "c3").leave(0)
            .board("rnbqkb1r/pp1ppppp/5n2/2p5/2P5/2N2N2/PP1PPPPP/R1BQKB1R", true)
            .run();
        assert_eq!(sans(&d), ["Nf6", "Nc3"], "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
    }

    #[test]
    fn art_7_6_a_board_seen_while_a_hand_works_is_judged_when_it_is_done() {
        // The board showing Black's Nf6 comes while White's hand holds the b1 knight; the board
        // after it shows nothing the events did not: it still judges the one before.
        let fen = "rnbqkbnr/pp1ppppp/8/2p5/2P5/5N2/PP1PPPPP/RNBQKB1R b KQkq - 0 2";
        let d = Script::from_fen(fen)
            .enter(0, W).lift(0, "b1")
            .board("rnbqkb1r/pp1ppppp/5n2/2p5/2P5/5N2/PP1PPPPP/R1BQKB1R", true)
            .place(0, "c3").release(0, "c3").leave(0)
            .board("rnbqkb1r/pp1ppppp/5n2/2p5/2P5/2N2N2/PP1PPPPP/R1BQKB1R", true)
            .run();
        assert_eq!(sans(&d), ["Nf6", "Nc3"], "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
    }

    #[test]
    fn art_7_6_a_board_unexplained_as_a_hand_comes_in_is_found_at_once() {
        let d = Script::new()
            .mv("e2e4").clock(W)
            .enter(1, B)
            .board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PP1/RNBQKBNR", true)
            .run();
        assert_eq!(violations(&d), [("7.6", None)]);
    }

    #[test]
    fn art_7_6_a_move_the_events_missed_is_recorded_from_the_seen_board() {
        let d = Script::new().board(START, true).board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", true).run();
        assert_eq!(sans(&d), ["e4"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_7_6_a_castling_seen_with_king_and_rook_named_wrong_is_castling() {
        // The tracker lost the hand and guessed the pieces' names; the colours show O-O.
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        let d = Script::from_fen(fen).board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", true).board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4KP1", true).run();
        assert_eq!(sans(&d), ["O-O"]);
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
        // The game goes on from the real pieces: the rook on f1 moves next.
        let d = Script::from_fen(fen).board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", true).board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4KP1", true).mv("a7a6").mv("f1e1").run();
        assert_eq!(sans(&d), ["O-O", "a6", "Rfe1"]);
    }

    #[test]
    fn art_7_6_two_moves_seen_with_the_pieces_misnamed_are_recorded() {
        // The tracker named both arrivals queens; the colours show 1. e4 e5.
        let d = Script::new().board(START, true).board("rnbqkbnr/pppp1ppp/8/4q3/4Q3/8/PPPP1PPP/RNBQKBNR", true).mv("g1f3").run();
        assert_eq!(sans(&d), ["e4", "e5", "Nf3"], "the game goes on from the real pieces");
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
    }

    #[test]
    fn art_7_6_three_and_four_plies_the_events_missed_are_recorded() {
        // Lines whose order the board fixes: the bishops need the pawns moved first.
        let d = Script::new().board(START, true).board("rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR", true).run();
        assert_eq!(sans(&d), ["e4", "e5", "Bc4"]);
        let d = Script::new().board(START, true).board("rnbqk1nr/pppp1ppp/8/2b1p3/2B1P3/8/PPPP1PPP/RNBQK1NR", true).run();
        assert_eq!(sans(&d), ["e4", "e5", "Bc4", "Bc5"]);
        assert!(violations(&d).is_empty(), "{:?}", violations(&d));
    }

    #[test]
    fn art_7_6_plies_whose_order_the_board_cannot_tell_are_displaced_not_guessed() {
        // 1. e4 d5 2. d4 and 1. d4 d5 2. e4 leave the same board; so do 1. e4 e5 2. Nf3 Nc6
        // and 1. Nf3 Nc6 2. e4 e5.
        for seen in ["rnbqkbnr/ppp1pppp/8/3p4/3PP3/8/PPP2PPP/RNBQKBNR", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R"] {
            let d = Script::new().board(START, true).board(seen, true).run();
            assert!(sans(&d).is_empty(), "{:?}", sans(&d));
            assert_eq!(violations(&d), [("7.6", None)]);
        }
    }

    #[test]
    fn art_7_6_a_board_five_plies_away_is_displaced() {
        let d = Script::new().board(START, true).board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R", true).run();
        assert!(sans(&d).is_empty(), "{:?}", sans(&d));
        assert_eq!(violations(&d), [("7.6", None)]);
    }

    #[test]
    fn art_7_6_colours_that_fit_a_move_with_a_piece_too_many_are_still_displaced() {
        let d = Script::new().mv("e2e4").clock(W).board("rnbqkbnr/pppppppp/8/8/4P3/7P/PPPP1PPP/RNBQKBNR", true).run();
        assert_eq!(sans(&d), ["e4"]);
        assert_eq!(violations(&d), [("7.6", None)]);
    }
}
