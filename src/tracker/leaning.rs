//! A tall piece seen from a low camera leans over the square behind it, which then reads as a
//! piece of its colour for as long as the piece stands (rendered game 30: the knight set on f6
//! leaning into g6). Such a square must take no piece: not one the arm hid a moment before, nor
//! one a hand carries off later. Waiting to see where a piece came from must not hold back
//! castling or the side to move, whose squares may be misread the same way once uncovered.

use super::testkit::{Reel, moved, read_as, without};
use super::*;

/// White adjusts the g2 pawn under the arm (g3 hidden too), lifts the g1 knight (g3 seen
/// empty meanwhile, the fingertips not beside it) and sets it on f3, hiding g2 and g3 again.
/// From then on the knight leans into g3, read as a white piece, while g2 stays hidden
/// `g2_hidden` frames more: by the arm rising off f3 where `arm_stays`, else by vision's caution
/// once the arm has gone.
fn adjust_then_nf3(arm_stays: bool, g2_hidden: u64) -> (Board, Board, Vec<Event>) {
    use Square::*;
    let start = Board::default();
    let lifted = without(&start, &[G1]);
    let after = moved(&start, &[(G1, F3)]);
    let lean = |o: &mut Observation| read_as(o, G3, SquareState::White);
    let still_hidden = |o: &mut Observation| {
        read_as(o, G3, SquareState::White);
        read_as(o, G2, SquareState::Occluded);
    };
    let mut reel = Reel::new(&start);
    reel.run(30, &start, Some((G2, &[G2, G3, H2, H3])))
        .run(15, &start, Some((G1, &[G1, G2, H1, H2])))
        .run(6, &lifted, Some((F1, &[F1, F2, G2])))
        .run(20, &after, Some((F3, &[F3, G3, G2, G1])));
    if arm_stays {
        reel.run_seen(g2_hidden, &after, Some((F4, &[F4, G2])), lean).run_seen(6, &after, Some((F4, &[F4])), lean);
    } else {
        reel.run_seen(g2_hidden, &after, None, still_hidden);
    }
    reel.run_seen(60, &after, None, lean);
    let (board, events) = reel.finish();
    (after, board, events)
}

fn touched_g2_g3(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e.kind, EventKind::Lift { square: Square::G2, .. } | EventKind::Place { square: Square::G3, .. }))
}

/// The hand, still over the board, set the knight down first: the white piece read beside it
/// is not a second piece it set down, taken from the g2 square it hid, while g2 may yet show its
/// pawn; g2 seen with it, g3 is no move at all. Nor is g3's change dated by the hand's stay over
/// g2, which ended before g3 was seen empty with no fingertips near: so dated, it was taken
/// before the knight, and given the knight.
#[test]
fn a_piece_leaning_beside_the_one_just_set_down_is_not_a_second_one() {
    let (after, board, events) = adjust_then_nf3(true, 6);
    assert_eq!(board, after, "{events:?}");
    assert!(!touched_g2_g3(&events), "{events:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Place { square: Square::F3, .. })), "{events:?}");
}

/// The arm gone, g2 still unread for a moment: no piece is taken from a square an arm was over
/// a moment ago, which shows in a moment whether its piece is still there.
#[test]
fn a_square_the_arm_left_a_moment_ago_gives_no_piece_to_a_lean() {
    let (after, board, events) = adjust_then_nf3(false, 8);
    assert_eq!(board, after, "{events:?}");
    assert!(!touched_g2_g3(&events), "{events:?}");
}

/// A square read black for long beside nothing White did; then White takes the black knight on
/// e3 (dxe3) and the arm leaves with it: the knight carried off was not set down on that square,
/// whose change was seen long before the knight was lifted.
#[test]
fn a_piece_carried_off_is_not_set_down_where_a_square_changed_before_its_lift() {
    use Square::*;
    let mut start = Board::default();
    start.set_piece_at(E3, Piece { color: Color::Black, role: Role::Knight });
    let lifted = without(&start, &[E3]);
    let after = moved(&lifted, &[(D2, E3)]);
    let misread = |o: &mut Observation| read_as(o, G4, SquareState::Black);
    let mut reel = Reel::new(&start);
    reel.run_seen(40, &start, None, misread)
        .run_seen(10, &start, Some((E3, &[E3, E2, D2])), misread)
        .run_seen(6, &lifted, Some((E4, &[E4])), misread)
        .run_seen(10, &after, Some((D2, &[D2, E2, E3])), misread)
        .run_seen(6, &after, Some((E4, &[E4])), misread)
        .run_seen(60, &after, None, misread);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// A board where White may castle, and the board once castled short.
fn castling() -> (Board, Board) {
    use Square::*;
    let start: Board = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R".parse().expect("a board");
    let after = moved(&start, &[(E1, G1), (H1, F1)]);
    (start, after)
}

/// White castles under an arm that hides the first rank from e1 to h1; the arm gone, g1 and f1
/// read white at once while `unread` stays unread a few frames.
fn castled_unseen(unread: Square) -> (Board, Reel) {
    use Square::*;
    let (start, after) = castling();
    let mut reel = Reel::new(&start);
    reel.run(20, &start, Some((E1, &[E1, F1, G1, H1, E2])))
        .run(20, &after, Some((G1, &[E1, F1, G1, H1, E2])))
        .run_seen(10, &after, None, |o| read_as(o, unread, SquareState::Occluded));
    (after, reel)
}

/// The side to move takes a piece from the square its arm hid at once: the king castled is not
/// held back until e1 is seen, where a neighbour leaning over it reads as the king still there
/// (rendered game 50's 17... O-O, the e7 bishop leaning over e8).
#[test]
fn a_king_castled_unseen_is_taken_before_its_square_is_seen_again() {
    let (after, mut reel) = castled_unseen(Square::E1);
    reel.run_seen(60, &after, None, |o| read_as(o, Square::E1, SquareState::White));
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// Nor is the rook of a castling held back, the second piece its side sets down in one move,
/// while its corner is still unread: a misread square could take it meanwhile (rendered game
/// 185's 5. O-O, the rook taken for g6, where a knight leaned).
#[test]
fn a_castling_rook_is_not_held_back_until_its_corner_is_seen() {
    use Square::*;
    let (start, after) = castling();
    let king_moved = moved(&start, &[(E1, G1)]);
    let mut reel = Reel::new(&start);
    reel.run(20, &start, Some((E1, &[E1, F1, G1, H1, E2])))
        .run(10, &king_moved, Some((H1, &[F1, H1])))
        .run(20, &after, Some((H1, &[F1, H1, H2])))
        .run_seen(10, &after, None, |o| read_as(o, H1, SquareState::Occluded));
    assert_eq!(reel.tracker.board(), after, "{:?}", reel.events);
}

/// The same for any move of the side to move: 1. Nc3 by an arm vision lost over b1, b1 unread a
/// moment after it went and then read white (the a1 rook leaning over it).
#[test]
fn a_piece_of_the_side_to_move_is_taken_from_the_square_its_arm_hid_at_once() {
    use Square::*;
    let start = Board::default();
    let after = moved(&start, &[(B1, C3)]);
    let mut reel = Reel::new(&start);
    reel.run(20, &start, Some((B1, &[B1, C3, B2, C2])))
        .run(10, &after, Some((C3, &[B1, C3, B2, C2])))
        .run_seen(10, &after, None, |o| read_as(o, B1, SquareState::Occluded))
        .run_seen(60, &after, None, |o| read_as(o, B1, SquareState::White));
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// d3 read white for long (a piece leaning over it); then White's arm, bringing the f1 bishop
/// to c4, hides d3 on the way and uncovers it with the bishop still in hand: d3's change, seen
/// long before that arm hid it, is not the arm's doing, and the bishop goes where it was set
/// (rendered game 185's 8... Bg4, given to g6, misread since 4... Nf6).
#[test]
fn a_square_misread_before_an_arm_hid_it_is_not_where_that_arm_set_its_piece() {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4)]);
    let lifted = without(&start, &[F1]);
    let after = moved(&start, &[(F1, C4)]);
    let misread = |o: &mut Observation| read_as(o, D3, SquareState::White);
    let mut reel = Reel::new(&start);
    reel.run_seen(90, &start, None, misread)
        .run_seen(10, &start, Some((F1, &[F1, E1, G1])), misread)
        .run_seen(10, &lifted, Some((D3, &[D3, E2, D2])), misread)
        .run_seen(10, &after, Some((C4, &[C4, B5])), misread)
        .run_seen(60, &after, None, misread);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// White's bishop takes the knight on g8 from c4, and c4, leant over by the piece in front of
/// it, reads as still holding it until after the bishop is set down: the piece on g8 is the
/// bishop, not a queen promoted from nowhere (White has no pawn near promoting); it takes its
/// piece once c4 shows empty (rendered game 255's 8... Bxd1, Black's bishop from g4).
#[test]
fn a_piece_set_on_the_far_rank_before_its_lift_shows_is_no_promotion_without_a_pawn_near() {
    use Square::*;
    let start: Board = "2k3n1/8/8/8/2B5/8/8/4K3".parse().expect("a placement");
    let lifted = without(&start, &[C4]);
    let after = moved(&start, &[(C4, G8)]);
    let lean = |o: &mut Observation| read_as(o, C4, SquareState::White);
    let mut reel = Reel::new(&start);
    reel.run(15, &start, Some((C4, &[C4, C3])))
        .run_seen(8, &lifted, Some((E6, &[E6, D5, D4])), lean)
        .run_seen(15, &lifted, Some((G8, &[G8, F7, F8])), lean)
        .run_seen(12, &after, Some((E6, &[E6, D5])), lean)
        .run_seen(20, &after, None, lean)
        .run(60, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
    assert!(!events.iter().any(|e| matches!(e.kind, EventKind::Place { square: G8, piece: Some(_), .. })), "{events:?}");
}

/// The same where the square went unread a moment before the arm was seen over it (its shadow
/// first), so that no arm is known to have hidden it first, and the fingertips were seen two
/// squares along the reach, never over it: that arm was still over the square after it was
/// last seen, and the king turning up beside it came from there (rendered game 230's 28... Ke7,
/// e8 read as no look, then as black, the king leaning back over it; refused as a piece from
/// nowhere, the move was lost and the game with it).
#[test]
fn a_piece_is_taken_from_a_square_an_arm_was_over_though_it_went_unread_before_the_arm_came() {
    use Square::*;
    let start: Board = "4k3/8/8/8/8/8/8/4K3".parse().expect("a placement");
    let after = moved(&start, &[(E1, E2)]);
    let unread = |o: &mut Observation| read_as(o, E1, SquareState::Occluded);
    let mut reel = Reel::new(&start);
    reel.run(20, &start, None)
        .run_seen(2, &start, None, unread)
        .run(10, &start, Some((E3, &[E1, D1, F1, E2])))
        .run(10, &after, Some((E3, &[E1, D1, F1, E2])))
        .run_seen(20, &after, None, unread)
        .run_seen(60, &after, None, |o| read_as(o, E1, SquareState::White));
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// d2 read white for long (a piece leaning over it, refused as one from nowhere); then White's
/// arm takes the b1 knight, sets it on d2 and leaves: d2 read white before and after, so no
/// change dates the setting down, yet the knight is not carried off the board. A player's own
/// piece that left in the hand whose arm was over such a square after lifting it was set there
/// (rendered game 230's 19... Ne8, set behind the king on e7 that leant over e8).
#[test]
fn a_piece_set_on_a_square_already_misread_as_its_colour_is_not_carried_off() {
    use Square::*;
    let start: Board = "4k3/8/8/8/8/8/8/1N2K3".parse().expect("a placement");
    let lifted = without(&start, &[B1]);
    let after = moved(&start, &[(B1, D2)]);
    let lean = |o: &mut Observation| read_as(o, D2, SquareState::White);
    let mut reel = Reel::new(&start);
    reel.run_seen(60, &start, None, lean)
        .run_seen(10, &start, Some((B1, &[B1, C1, B2])), lean)
        .run_seen(10, &lifted, Some((D2, &[D2, C2, D1, C1])), lean)
        .run(10, &after, Some((D2, &[D2, C2, D1, C1])))
        .run(6, &after, Some((C3, &[C2, C1])))
        .run(60, &after, None);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// 1. Qa4xd7, the queen leaning over d8 from the moment she is set down: d8 reads white while
/// d7 is still under the arm (`lean_first` frames before the arm uncovers d7; with one, d8's
/// change is confirmed a frame before d7's). The queen cannot go from a4 to d8, and can to d7,
/// which is still in doubt: she is not set on d8 (rendered game 270's 17. Qxd7, recorded
/// Qa4-d8 and the game lost from there).
#[test]
fn a_piece_is_not_set_where_it_cannot_go_while_the_square_it_leans_from_is_in_doubt() {
    use Square::*;
    for lean_first in [10, 1] {
        let start: Board = "7k/3q4/8/8/Q7/8/8/4K3".parse().expect("a placement");
        let lifted = without(&start, &[A4]);
        let after = moved(&start, &[(A4, D7)]);
        let lean = |o: &mut Observation| read_as(o, D8, SquareState::White);
        let mut reel = Reel::new(&start);
        reel.run(20, &start, None)
            .run(10, &start, Some((A4, &[A4, A3, B3])))
            .run(10, &lifted, Some((D7, &[D7, C6, D6, C5, B5])))
            .run_seen(lean_first, &after, Some((D7, &[D7, C6, D6, C5, B5])), lean)
            .run_seen(60, &after, None, lean);
        let (board, events) = reel.finish();
        assert_eq!(board, after, "lean seen {lean_first} frames first: {events:?}");
    }
}

/// 1. Qe2 made under an arm hiding d1, e1 and e2 (no act seen): once it has gone, e2 reads
/// white and e1, which the queen leans over, a piece of colour untold, both in the same frame.
/// The queen is the piece seen in her colour, not the lean (rendered game 225's 13. Qe2,
/// recorded Qe1).
#[test]
fn a_piece_seen_in_its_colour_is_the_one_set_down_not_its_lean_read_untold_beside_it() {
    use Square::*;
    let start: Board = "4k3/8/8/8/8/8/8/3Q1RK1".parse().expect("a placement");
    let after = moved(&start, &[(D1, E2)]);
    let lean = |o: &mut Observation| read_as(o, E1, SquareState::Piece);
    let mut reel = Reel::new(&start);
    reel.run(20, &start, None)
        .run(10, &start, Some((D2, &[C1, D1, E1, D2, E2])))
        .run(10, &after, Some((E3, &[D1, E1, D2, E2, F2])))
        .run_seen(60, &after, None, lean);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// 1. Rd1 from f1 with the queen on e2 leaning over e1 (read as a piece of colour untold
/// before the arm came and after): the arm hides f1 from the grasp until it leaves, and hides
/// d1 as it sets the rook down; once it has gone, f1 reads empty, e1 as before, d1 white. The
/// rook is the piece on d1, not the lean on e1 (rendered game 225's 17. Rd1, recorded Re1 and a
/// 7.6 after it). With the lean read `lean_before` frames before the arm came: soon after, the
/// hand that came is taken to have changed e1 (the rook lifted under the arm set down there);
/// long after (as in 225), no hand is, and e1 takes the piece seen gone from f1.
#[test]
fn a_piece_is_not_set_where_a_lean_reads_untold_while_a_square_it_can_reach_shows_it() {
    use Square::*;
    for lean_before in [20, 90] {
        let start: Board = "4k3/8/8/8/8/8/4Q3/5RK1".parse().expect("a placement");
        let lifted = without(&start, &[F1]);
        let after = moved(&start, &[(F1, D1)]);
        let lean = |o: &mut Observation| read_as(o, E1, SquareState::Piece);
        let f1_unread = |o: &mut Observation| read_as(o, F1, SquareState::Occluded);
        let mut reel = Reel::new(&start);
        reel.run_seen(lean_before, &start, None, lean)
            .run_seen(10, &start, Some((F1, &[F1, G1])), lean)
            .run_seen(10, &lifted, Some((F2, &[E1, F1, G1, F2])), lean)
            .run_seen(20, &after, Some((D2, &[C1, D1, E1, D2])), f1_unread)
            .run_seen(60, &after, None, lean);
        let (board, events) = reel.finish();
        assert_eq!(board, after, "lean read {lean_before} frames before: {events:?}");
    }
}

/// 1. Nb5 from a3 beside Black's pawn on a5: once the arm has gone, a5 goes unread a second
/// (vision's caution where an arm was), then reads white, the knight leaning over it. No white
/// piece can have come to a5 (the knight is seen on b5), so the pawn is still there: the board
/// is told with it, not left waiting for a pawn seen gone that never went (rendered game 220's
/// 21. Nb5: the pawn taken off as the colour changed, the white piece refused, the board never
/// told again until a 7.6 half a minute later).
#[test]
fn a_colour_change_to_a_piece_from_nowhere_leaves_the_piece_there() {
    use Square::*;
    let start: Board = "4k3/8/8/p7/8/N7/8/4K3".parse().expect("a placement");
    let lifted = without(&start, &[A3]);
    let after = moved(&start, &[(A3, B5)]);
    let a5_unread = |o: &mut Observation| read_as(o, A5, SquareState::Occluded);
    // Read by the look it comes nearest, never surely.
    let lean = |o: &mut Observation| o.squares[usize::from(A5)] = crate::types::SquareObs { state: SquareState::White, confidence: 0.5, role: None };
    let mut reel = Reel::new(&start);
    reel.run(20, &start, None)
        .run(10, &start, Some((A3, &[A2, A3])))
        .run(10, &lifted, Some((B5, &[A3, A4, B4, A5, B5])))
        .run(10, &after, Some((B4, &[A3, A4, B4, A5, B5])))
        .run_seen(30, &after, None, a5_unread)
        .run_seen(60, &after, None, lean);
    // Told while the game goes on, not only once the stream ends.
    let told: Vec<Placement> = reel.events.iter().filter_map(|e| if let EventKind::Board { placement, .. } = &e.kind { Some(placement.clone()) } else { None }).collect();
    assert_eq!(told.last(), Some(&Placement::from(&after)), "{:?}", reel.events);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// The a5 pawn read white, never surely, from early on with no arm near (a knight's lean), its
/// change refused again and again; then ...Qd7 by an arm gone before d8 and d7 show, so that
/// their changes are found with no hand near too, and, for some moment of showing, in the same
/// frame as a5's once more: d8's lift fell between a5's lift and its refused place, and the
/// pawn was left counted gone, the board never told again (rendered game 220's 15... Qd7, a
/// false 7.5.3). Whenever d8 and d7 show, the board is told with the pawn and the queen on d7.
#[test]
fn a_colour_change_refused_with_other_changes_in_the_same_frame_leaves_the_piece_there() {
    use Square::*;
    let start: Board = "3qk3/8/8/p7/8/8/8/4K3".parse().expect("a placement");
    let lifted = without(&start, &[D8]);
    let after = moved(&start, &[(D8, D7)]);
    let lean = |o: &mut Observation| o.squares[usize::from(A5)] = crate::types::SquareObs { state: SquareState::White, confidence: 0.5, role: None };
    let hidden = |o: &mut Observation| {
        lean(o);
        read_as(o, D8, SquareState::Occluded);
        read_as(o, D7, SquareState::Occluded);
    };
    for unread in 0..32 {
        let mut reel = Reel::new(&start);
        reel.run(20, &start, None)
            .run_seen(40, &start, None, lean)
            .run_seen(10, &start, Some((D8, &[D8, E8, D7])), lean)
            .run_seen(10, &lifted, Some((D7, &[D8, E8, D7, D6])), lean)
            .run_seen(10, &after, Some((D6, &[D8, E8, D7, D6])), lean)
            .run_seen(unread, &after, None, hidden)
            .run_seen(90, &after, None, lean);
        let told: Vec<Placement> = reel.events.iter().filter_map(|e| if let EventKind::Board { placement, .. } = &e.kind { Some(placement.clone()) } else { None }).collect();
        assert_eq!(told.last(), Some(&Placement::from(&after)), "d8 and d7 unread {unread} frames after the arm: {:?}", reel.events);
    }
}

/// 1. Qxd5 from b3: the arm lifts the pawn off d5, then the queen, and sets her on d5 while
/// hiding c5 and d5 alike, its fingertips over c5 first. Once it has gone, d5 reads white and
/// c5, which the queen leans over, a piece of colour untold, both in the same frame. The queen
/// cannot have gone to c5, and she can to d5, shown white in the same frame: she is on d5
/// (rendered game 440's 20... Qxd4, recorded Qb6-c4, a false 7.5.1).
#[test]
fn a_lean_dated_first_is_not_where_the_queen_went_when_her_square_shows_her_with_it() {
    use Square::*;
    let start: Board = "4k3/8/8/3p4/8/1Q6/8/4K3".parse().expect("a placement");
    let pawn_off = without(&start, &[D5]);
    let lifted = without(&start, &[D5, B3]);
    let after = moved(&start, &[(B3, D5)]);
    let lean = |o: &mut Observation| read_as(o, C5, SquareState::Piece);
    let mut reel = Reel::new(&start);
    reel.run(20, &start, None)
        .run(10, &start, Some((D5, &[D5, D4, C4])))
        .run(10, &pawn_off, Some((C4, &[C4, B4])))
        .run(10, &pawn_off, Some((B3, &[B3, B4, C4])))
        .run(10, &lifted, Some((C4, &[B3, B4, C4])))
        .run(8, &after, Some((C5, &[C5, D5, C4, D4, B4])))
        .run(15, &after, Some((D5, &[C5, D5, C4, D4, B4])))
        .run_seen(3, &after, Some((B3, &[B3, A3, A2])), lean)
        .run_seen(60, &after, None, lean);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// 1. Qc2 from d1, e2 read as a white piece, never surely, whenever no arm is over the board
/// (a neighbour's lean). c2 fits no look from the moment the fingertips come over it, before
/// the arm hides any square beside it, until a moment after the arm has gone; then it reads
/// white; e2, hidden by the arm, fits no look a while longer and then reads as before. c2 was
/// under the arm: its change counts as soon as any an arm uncovers, and the queen is there,
/// not on e2 (rendered game 50's 20... Qc7, recorded Qe8).
#[test]
fn a_square_unreadable_before_the_arm_came_over_it_is_the_arms() {
    use Square::*;
    let start: Board = "4k3/8/8/8/8/8/8/3Q2K1".parse().expect("a placement");
    let lifted = without(&start, &[D1]);
    let after = moved(&start, &[(D1, C2)]);
    let lean = |o: &mut Observation| {
        if o.hands.is_empty() {
            o.squares[usize::from(E2)] = crate::types::SquareObs { state: SquareState::White, confidence: 0.5, role: None };
        }
    };
    let unread = |squares: &'static [Square]| move |o: &mut Observation| squares.iter().for_each(|&sq| read_as(o, sq, SquareState::Occluded));
    let mut reel = Reel::new(&start);
    reel.run_seen(20, &start, None, lean)
        .run_seen(8, &start, Some((D1, &[D1, E1, E2])), lean)
        .run_seen(8, &lifted, Some((D2, &[D1, E1, D2, E2])), lean)
        .run_seen(2, &lifted, Some((C2, &[])), unread(&[C2, E2]))
        .run_seen(12, &after, Some((C2, &[B1, C1, D1, E2])), unread(&[C2]))
        .run_seen(6, &after, None, unread(&[C2, E2]))
        .run_seen(20, &after, None, unread(&[E2]))
        .run_seen(60, &after, None, lean);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}

/// 19. Bf4 with the queen on c2 leaning over c1 (a camera behind Black): the fingertips rest on
/// the bishop, the arm hides c1 as it lifts it, and from then on c1 reads white again, the
/// queen's head over it. The bishop set on f4 in plain view came from c1 all the same: the one
/// piece the hand rested on that could have (rendered game 215, the bishop refused as a piece
/// from nowhere and the clock pressed a false 7.5.3). Then the f1 rook goes to d1 past c1,
/// still read white: the lean is no piece set there (rendered game 215's 31. Rfd1, recorded
/// Rfc1 before c1's lean was known for one).
#[test]
fn a_piece_lifted_from_under_a_neighbours_lean_is_the_one_set_down() {
    use Square::*;
    let start: Board = "4k3/8/8/8/8/8/2Q5/2B2RK1".parse().expect("a placement");
    let lifted = without(&start, &[C1]);
    let bishop_moved = moved(&start, &[(C1, F4)]);
    let rook_up = without(&bishop_moved, &[F1]);
    let after = moved(&bishop_moved, &[(F1, D1)]);
    let lean = |o: &mut Observation| {
        if o.squares[usize::from(C1)].state == SquareState::Empty {
            read_as(o, C1, SquareState::White);
        }
    };
    let mut reel = Reel::new(&start);
    reel.run(10, &start, None)
        .run(12, &start, Some((C1, &[B1])))
        .run(4, &lifted, Some((C1, &[B1, C1, D1])))
        .run_seen(8, &lifted, Some((D2, &[D1, D2])), lean)
        .run_seen(8, &lifted, Some((E3, &[D2, E2, E3])), lean)
        .run_seen(10, &bishop_moved, Some((F4, &[E3, F3])), lean)
        .run_seen(8, &bishop_moved, Some((E3, &[D2, E2, E3])), lean)
        .run_seen(30, &bishop_moved, None, lean);
    let (board, events) = Reel::finish_keep(&mut reel);
    assert_eq!(board, bishop_moved, "{events:?}");
    let lifts: Vec<Square> = events.iter().filter_map(|e| if let EventKind::Lift { square, .. } = e.kind { Some(square) } else { None }).collect();
    assert_eq!(lifts, [C1], "{events:?}");
    reel.arm_id = 2;
    reel.run_seen(10, &bishop_moved, Some((F1, &[G1])), lean)
        .run_seen(4, &rook_up, Some((F1, &[F1, G1])), lean)
        .run_seen(8, &rook_up, Some((E1, &[E1, F1, E2])), lean)
        .run_seen(10, &rook_up, Some((D2, &[C1, D1, E1, D2])), lean)
        .run_seen(10, &after, Some((D1, &[D1, E1, D2])), lean)
        .run_seen(8, &after, Some((E2, &[E1, E2])), lean)
        .run_seen(60, &after, None, lean);
    let (board, events) = reel.finish();
    assert_eq!(board, after, "{events:?}");
}
