//! The game's names for the pieces, taken after a move when the colours agree square by square.

use super::*;

/// The board after 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O, and the same with the king and rook
/// named the other way round (as a tracker guesses when it sees both set down at once).
fn castled() -> (Board, Board) {
    let game: Board = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1".parse().expect("a board");
    let mut swapped = game.clone();
    let king = swapped.remove_piece_at(Square::G1).expect("the king");
    let rook = swapped.remove_piece_at(Square::F1).expect("the rook");
    swapped.set_piece_at(Square::F1, king);
    swapped.set_piece_at(Square::G1, rook);
    (game, swapped)
}

#[test]
fn the_games_names_stand_where_the_colours_agree() {
    let (game, swapped) = castled();
    let mut t = Tracker::new(TrackerConfig { start: swapped, ..TrackerConfig::default() });
    t.agree(&game);
    assert_eq!(t.board(), game);
}

#[test]
fn nothing_is_renamed_where_a_colour_differs() {
    let (game, swapped) = castled();
    let believed = super::testkit::without(&swapped, &[Square::H2]);
    let mut t = Tracker::new(TrackerConfig { start: believed.clone(), ..TrackerConfig::default() });
    t.agree(&game);
    assert_eq!(t.board(), believed);
}
