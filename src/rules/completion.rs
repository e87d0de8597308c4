//! 4.7, 4.7.1, 4.7.3 — when a move is made: the board the hands left matches the game position
//! after exactly one legal move. A capture is not made until the taken piece is off its square
//! and a promotion not until the pawn has left the board; both follow from matching whole boards,
//! since until then the board matches no legal move.

use shakmaty::{Bitboard, Board, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

/// The square the king lands on (castling) or the moving piece's destination.
pub fn destination(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            CastlingSide::from_king_side(rook.file() > king.file()).king_to(king.rank().into_color_hint())
        }
        other => other.to(),
    }
}

/// The square whose piece a move takes off the board, if any.
pub fn captured_square(m: Move) -> Option<Square> {
    match m {
        Move::EnPassant { from, to } => Some(Square::from_coords(to.file(), from.rank())),
        Move::Normal { capture: Some(_), to, .. } => Some(to),
        _ => None,
    }
}

/// Every square a move changes.
pub fn move_squares(m: Move) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            let color = king.rank().into_color_hint();
            squares |= Bitboard::from(king) | Bitboard::from(rook);
            squares |= Bitboard::from(side.king_to(color)) | Bitboard::from(side.rook_to(color));
        }
        other => {
            squares |= Bitboard::from(other.to());
            squares.extend(other.from());
            squares.extend(captured_square(other));
        }
    }
    squares
}

/// Squares where two boards differ.
pub fn diff(a: &Board, b: &Board) -> Bitboard {
    let mut d = (a.by_color(Color::White) ^ b.by_color(Color::White)) | (a.by_color(Color::Black) ^ b.by_color(Color::Black));
    for role in Role::ALL {
        d |= a.by_role(role) ^ b.by_role(role);
    }
    d
}

/// The legal move whose result the board shows, ignoring `masked` squares (known differences
/// the game already reported) unless the move itself involves them.
pub fn exact_match(pos: &Chess, board: &Board, masked: Bitboard) -> Option<Move> {
    // A move changes only its own squares, so every difference must lie on them: most
    // candidates are ruled out without playing them.
    let changed = diff(board, pos.board()) & !masked;
    if changed.is_empty() {
        return None;
    }
    pos.legal_moves().into_iter().find(|&m| {
        (changed & !move_squares(m)).is_empty() && {
            let after = after_board(pos, m);
            (diff(board, &after) & !(masked & !move_squares(m))).is_empty()
        }
    })
}

/// Squares whose colour differs (empty, white, black): what a camera sees for certain, where
/// the identity of a piece is the tracker's inference.
pub fn colour_diff(a: &Board, b: &Board) -> Bitboard {
    (a.by_color(Color::White) ^ b.by_color(Color::White)) | (a.by_color(Color::Black) ^ b.by_color(Color::Black))
}

/// The one legal move whose result the board shows colour for colour, ignoring the pieces'
/// identities (a castling whose king and rook the tracker swapped, a piece it could not name).
/// Promotions that differ only in the piece are one move: the piece seen decides, else the
/// queen. Two different moves that fit are no answer.
pub fn colour_match(pos: &Chess, board: &Board, masked: Bitboard) -> Option<Move> {
    let changed = colour_diff(board, pos.board()) & !masked;
    if changed.is_empty() {
        return None;
    }
    let fits: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| (changed & !move_squares(m)).is_empty() && (colour_diff(board, &after_board(pos, m)) & !(masked & !move_squares(m))).is_empty())
        .collect();
    let first = *fits.first()?;
    if fits.iter().any(|m| (m.from(), m.to()) != (first.from(), first.to())) {
        return None;
    }
    let seen = board.piece_at(first.to()).map(|p| p.role);
    fits.iter().copied().find(|m| m.promotion().is_some_and(|r| Some(r) == seen)).or_else(|| fits.iter().copied().find(|m| m.promotion().is_none_or(|r| r == Role::Queen))).or(Some(first))
}

/// The most plies [`colour_line`] looks back through: two moves each.
pub const LINE_PLIES: usize = 4;

/// The legal plies (two to [`LINE_PLIES`], fewest first) after which the game shows `board`
/// colour for colour: moves played while the events caught none of them (fast play, arms
/// never seen, pieces set down under a hand and misnamed). Each ply moves a piece between two
/// squares the board still shows changed at that point, so a piece moved twice within the
/// line is not found. Two different lines of the same length are no answer: which moves, or
/// in which order, cannot be told from the board.
pub fn colour_line(pos: &Chess, board: &Board, masked: Bitboard) -> Option<Vec<Move>> {
    if (colour_diff(board, pos.board()) & !masked).count() < 3 {
        return None;
    }
    for plies in 2..=LINE_PLIES {
        let mut found: Vec<Vec<Move>> = Vec::new();
        search_line(pos, board, masked, plies, &mut Vec::new(), &mut found);
        match found.len() {
            0 => continue,
            1 => return found.pop(),
            _ => return None,
        }
    }
    None
}

fn search_line(pos: &Chess, board: &Board, masked: Bitboard, left: usize, line: &mut Vec<Move>, found: &mut Vec<Vec<Move>>) {
    let changed = colour_diff(board, pos.board()) & !masked;
    if left == 0 {
        let same_squares = |a: &Vec<Move>| a.iter().zip(line.iter()).all(|(x, y)| (x.from(), x.to()) == (y.from(), y.to()));
        if changed.is_empty() && !found.iter().any(same_squares) {
            found.push(line.clone());
        }
        return;
    }
    // A ply changes at most four squares (castling); more than two lines is already no answer.
    // A game over stops the line: mate and stalemate leave no move below, and a dead position
    // is checked here rather than by generating the moves a second time (`is_game_over`).
    if changed.is_empty() || changed.count() > 4 * left || found.len() > 1 || pos.is_insufficient_material() {
        return;
    }
    let seen = |sq: Square| board.piece_at(sq).map(|p| p.role);
    for m in pos.legal_moves() {
        let Some(from) = m.from() else { continue };
        if !changed.contains(from) || !changed.contains(m.to()) {
            continue;
        }
        // One promotion per pawn move: the piece seen there, else the queen.
        if let Some(r) = m.promotion() {
            let wanted = seen(m.to()).filter(|&r| r != Role::Pawn && r != Role::King).unwrap_or(Role::Queen);
            if r != wanted {
                continue;
            }
        }
        let mut next = pos.clone();
        next.play_unchecked(m);
        line.push(m);
        search_line(&next, board, masked, left - 1, line, found);
        line.pop();
    }
}

/// A legal move whose squares the board shows exactly, with other differences confined to
/// squares the hands acted on but never deliberately released a piece on (or lifted one from
/// to release elsewhere): the move was made and something else was knocked meanwhile.
pub fn match_with_displacement(pos: &Chess, board: &Board, masked: Bitboard, acted: Bitboard, deliberate: Bitboard) -> Option<(Move, Bitboard)> {
    pos.legal_moves().into_iter().find_map(|m| {
        let after = after_board(pos, m);
        let d = diff(board, &after) & !masked;
        let extra = d & !move_squares(m);
        let accidental = (extra & !acted).is_empty() && (extra & deliberate).is_empty();
        ((d & move_squares(m)).is_empty() && !extra.is_empty() && accidental).then_some((m, extra))
    })
}

pub fn after_board(pos: &Chess, m: Move) -> Board {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.board().clone()
}

/// How an arbiter reads a piece on a square: `Ng1`, `pawn e2`.
pub fn piece_name(piece: Piece, sq: Square) -> String {
    match piece.role {
        Role::Pawn => format!("pawn {sq}"),
        role => format!("{}{sq}", role.upper_char()),
    }
}

/// A move in long algebraic form for details: `Ng1-f3`, `e4xd5`, `O-O`.
pub fn long_name(m: Move) -> String {
    match m {
        Move::Castle { king, rook } if rook.file() > king.file() => "O-O".to_owned(),
        Move::Castle { .. } => "O-O-O".to_owned(),
        Move::Put { role, to } => format!("{}@{to}", role.upper_char()),
        Move::Normal { role, from, to, capture, promotion } => {
            let letter = if role == Role::Pawn { String::new() } else { role.upper_char().to_string() };
            let sep = if capture.is_some() { 'x' } else { '-' };
            let promo = promotion.map(|r| format!("={}", r.upper_char())).unwrap_or_default();
            format!("{letter}{from}{sep}{to}{promo}")
        }
        Move::EnPassant { from, to } => format!("{from}x{to} e.p."),
    }
}

/// Colour hint from a back rank, for castling squares.
trait ColorHint {
    fn into_color_hint(self) -> Color;
}

impl ColorHint for shakmaty::Rank {
    fn into_color_hint(self) -> Color {
        if self == shakmaty::Rank::First { Color::White } else { Color::Black }
    }
}

#[cfg(test)]
mod art_4_7 {
    //! A piece released on a square as a legal move cannot then be moved on (4.7).
    use crate::rules::testkit::*;

    #[test]
    fn art_4_7_moving_on_a_released_piece_is_a_breach_and_the_first_move_stands() {
        let d = Script::new()
            .enter(0, W).lift(0, "g1").place(0, "f3").release(0, "f3")
            .lift(0, "f3").place(0, "g5").release(0, "g5").leave(0)
            .run();
        assert_eq!(sans(&d), ["Nf3"]);
        assert_eq!(violations(&d), [("4.7", Some(W))]);
        assert!(states(&d).iter().any(|s| s.contains("restored")));
    }

    #[test]
    fn art_4_7_a_rook_released_where_castling_would_put_it_and_moved_on_is_a_breach() {
        // Ra1-d1 with the king at home could be castling begun with the rook, so the rules wait
        // for the king; the rook lifted again instead is a released move moved on.
        let fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
        let d = Script::from_fen(fen)
            .enter(0, W).lift(0, "a1").place(0, "d1").release(0, "d1")
            .lift(0, "d1").place(0, "d5").release(0, "d5").lift(0, "d5").place(0, "d1").release(0, "d1")
            .leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["Rd1"]);
        assert_eq!(violations(&d), [("4.7", Some(W))]);
        assert_eq!(move_times(&d), move_times(&Script::from_fen(fen).enter(0, W).lift(0, "a1").place(0, "d1").release(0, "d1").leave(0).run()), "made at its first release");
        let d = Script::from_fen(fen).enter(0, W).lift(0, "a1").place(0, "d1").release(0, "d1").leave(0).clock(W).run();
        assert!(violations(&d).is_empty(), "the rook move alone is clean");
    }

    #[test]
    fn art_4_7_a_piece_held_and_not_released_may_still_go_elsewhere() {
        let d = Script::new()
            .enter(0, W).lift(0, "g1").place(0, "f3").lift(0, "f3").place(0, "h3").release(0, "h3").leave(0).clock(W)
            .run();
        assert_eq!(sans(&d), ["Nh3"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_7_putting_the_moved_piece_back_on_its_square_is_no_new_move() {
        let d = Script::new()
            .enter(0, W).lift(0, "e2").place(0, "e4").release(0, "e4")
            .lift(0, "e4").place(0, "e5").release(0, "e5").lift(0, "e5").place(0, "e4").release(0, "e4").leave(0).clock(W)
            .mv("e7e5").clock(B)
            .run();
        assert_eq!(sans(&d), ["e4", "e5"]);
        assert_eq!(violations(&d), [("4.7", Some(W))]);
    }
}

#[cfg(test)]
mod art_4_7_1 {
    //! A capture is made when the taken piece is removed and the capturing piece released.
    use crate::rules::testkit::*;

    fn italian() -> Script {
        Script::new().mv("e2e4").mv("d7d5")
    }

    #[test]
    fn art_4_7_1_capture_made_only_once_the_taken_piece_is_removed() {
        let d = italian().enter(5, W).lift(5, "e4").place(5, "d5").release(5, "d5").run();
        assert_eq!(sans(&d), ["e4", "d5"], "the pawn on d5 is still there: no capture yet");
        let d = italian().enter(5, W).lift(5, "e4").place(5, "d5").release(5, "d5").lift(5, "d5").run();
        assert_eq!(sans(&d), ["e4", "d5", "exd5"]);
    }

    #[test]
    fn art_4_7_1_taken_piece_removed_first_then_capture_on_release() {
        let s = italian().enter(5, W).lift(5, "d5").lift(5, "e4").place(5, "d5");
        assert_eq!(sans(&s.run()), ["e4", "d5"], "not released yet");
        let d = s.release(5, "d5").leave(5).clock(W).run();
        assert_eq!(sans(&d), ["e4", "d5", "exd5"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_7_1_capture_left_half_done_and_clock_pressed_is_an_illegal_move() {
        let d = italian().enter(5, W).lift(5, "e4").place(5, "d5").release(5, "d5").leave(5).clock(W).run();
        assert_eq!(sans(&d), ["e4", "d5"]);
        assert_eq!(violations(&d), [("7.5.1", Some(W))]);
    }
}

#[cfg(test)]
mod art_4_7_3 {
    //! A promotion is made when the new piece is released on the promotion square and the pawn
    //! has left the board.
    use crate::rules::testkit::*;

    const FEN: &str = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";

    #[test]
    fn art_4_7_3_not_made_while_the_pawn_is_on_the_board() {
        let s = Script::from_fen(FEN).enter(0, W).place_new(0, "e8", 'Q').release(0, "e8");
        assert!(sans(&s.run()).is_empty());
        let d = s.lift(0, "e7").leave(0).run();
        assert_eq!(sans(&d), ["e8=Q"]);
    }

    #[test]
    fn art_4_7_3_not_made_before_the_new_piece_is_released() {
        let s = Script::from_fen(FEN).enter(0, W).lift(0, "e7").place_new(0, "e8", 'Q');
        assert!(sans(&s.run()).is_empty());
        assert_eq!(sans(&s.release(0, "e8").run()), ["e8=Q"]);
    }
}
