//! Events that contradict the board are reported as `state` and skipped, never a panic.

use super::testkit::*;

/// A lift told after its hand left (found late, as the arm uncovered the square) is a piece
/// that hand took away: held on, it kept every later move of its side made by hand from
/// being seen (rendered game 415: the h1 rook of O-O, told lifted by an arm already gone,
/// the castling told by the board, then 13. f4 called an illegal move at the clock).
#[test]
fn a_lift_told_after_its_hand_left_holds_nothing_back() {
    let d = Script::new()
        .enter(0, W)
        .leave(0)
        .lift(0, "g1")
        .board("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R", true)
        .mv("e7e5")
        .mv("e2e4")
        .clock(W)
        .run();
    assert_eq!(sans(&d), ["Nf3", "e5", "e4"]);
    assert!(violations(&d).is_empty(), "{d:?}");
}

#[test]
fn a_lift_from_an_empty_square_is_a_state_line() {
    let d = Script::new().enter(0, W).lift(0, "e4").leave(0).mv("e2e4").run();
    assert!(states(&d).iter().any(|s| s.contains("lifted from e4")));
    assert_eq!(sans(&d), ["e4"]);
}

#[test]
fn a_place_by_an_empty_hand_without_a_piece_named_is_a_state_line() {
    let d = Script::new().enter(0, W).place(0, "e4").release(0, "e4").leave(0).mv("d2d4").run();
    assert!(states(&d).iter().any(|s| s.contains("holding none")));
    assert_eq!(sans(&d), ["d4"]);
}

#[test]
fn a_piece_that_left_in_a_hand_and_came_back_in_the_next_is_one_move() {
    let d = Script::from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
        .enter(0, W).lift(0, "e1").leave(0)
        .enter(1, W).place(1, "g1").release(1, "g1").lift(1, "h1").place(1, "f1").release(1, "f1").leave(1)
        .clock(W)
        .run();
    assert_eq!(sans(&d), ["O-O"]);
    assert!(violations(&d).is_empty(), "{:?}", violations(&d));
}

#[test]
fn a_hand_never_announced_is_taken_as_the_movers() {
    let d = Script::new().lift(7, "e2").place(7, "e4").release(7, "e4").run();
    assert_eq!(sans(&d), ["e4"]);
}

#[test]
fn a_release_of_nothing_and_a_touch_of_an_empty_square_change_nothing() {
    let d = Script::new().enter(0, W).touch(0, "e4").release(0, "e5").leave(0).mv("e2e4").clock(W).run();
    assert_eq!(sans(&d), ["e4"]);
    assert!(violations(&d).is_empty());
}
