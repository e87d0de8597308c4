//! Two hands of one player over the board at once (4.1): one lifts a piece and holds it while
//! the other comes in, takes it and sets it down. An arm hides what it holds from a camera
//! low on its side, so the lift may show only once that hand has gone; it is still that hand's,
//! not the one that stayed.

use super::testkit::{Reel, arm_frame, handling, moved, read_as, without};
use super::*;

/// After 1. e4 e5, White's first hand (id 1) comes to g1 and lifts the knight, hiding g1 and
/// h1; the second (id 2) comes in over f1, takes the knight at g1 and carries it to f3, while
/// the first stays at g1 until the knight is down. Vision's arm (both hands, seen as one
/// region) hides g1 and f3 until `unseen` frames after the second hand has gone (rendered
/// staged two-hands scene, pixel squares: the lift was given to the second hand, one hand).
fn knight_passed_between_hands(unseen: u64, f3_first: bool) -> (Board, Board, Vec<Event>) {
    knight_moved_beside_another_hand(unseen, true, f3_first)
}

/// The same, or, `passed` false, the first hand rests on h2 throughout and the second lifts the
/// knight itself. `f3_first`: f3 shows as the second hand draws back, g1 only later.
fn knight_moved_beside_another_hand(unseen: u64, passed: bool, f3_first: bool) -> (Board, Board, Vec<Event>) {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5)]);
    let lifted = without(&start, &[G1]);
    let after = moved(&start, &[(G1, F3)]);
    let mut reel = Reel::new(&start);
    let both = |reel: &mut Reel, frames: u64, board: &Board, first: Option<(Square, &[Square])>, second: Option<(Square, &[Square])>, hidden: &[Square]| {
        for _ in 0..frames {
            let n = reel.next_frame();
            let mut o = arm_frame(n, board, first, 1);
            o.hands.extend(arm_frame(n, board, second, 2).hands);
            for &sq in hidden.iter().chain(second.map_or(&[][..], |(_, c)| c)) {
                read_as(&mut o, sq, SquareState::Occluded);
            }
            reel.feed(o);
        }
    };
    let (at, hides): (Square, &[Square]) = if passed { (G1, &[G1, H1]) } else { (H2, &[H1, H2]) };
    let first = Some((at, hides));
    // Passed, the knight is in the first hand before the second comes; else in the second's
    // once it has been at g1.
    let (early, late) = if passed { (&lifted, &lifted) } else { (&start, &lifted) };
    both(&mut reel, 6, &start, Some((F1, &[F1])), None, &[]);
    both(&mut reel, 10, &start, first, None, &[]);
    both(&mut reel, 20, early, first, None, &[]);
    both(&mut reel, 6, early, first, Some((F1, &[F1, G1])), &[]);
    both(&mut reel, 10, late, first, Some((G1, &[F1, G1, G2])), &[]);
    both(&mut reel, 6, &lifted, first, Some((F2, &[F2, G2])), &[G1]);
    both(&mut reel, 15, &lifted, first, Some((F3, &[F2, G2, F3, G3])), &[G1]);
    both(&mut reel, 6, &after, first, Some((F3, &[F2, G2, F3, G3])), &[G1]);
    both(&mut reel, 12, &after, None, Some((F3, &[F2, G2, F3, G3])), &[G1]);
    // The second hand draws back over f2: f3 shows while it is still there, or only with g1.
    let withdrawing: &[Square] = if f3_first { &[G1] } else { &[G1, F3] };
    both(&mut reel, 6, &after, None, Some((F2, &[F2, G2])), withdrawing);
    both(&mut reel, unseen, &after, None, None, &[G1, F3]);
    both(&mut reel, 30, &after, None, None, &[]);
    let (board, events) = reel.finish();
    (after, board, events)
}

fn entered(events: &[Event]) -> Vec<HandId> {
    events.iter().filter_map(|e| if let EventKind::HandEnter { hand, .. } = e.kind { Some(hand) } else { None }).collect()
}

/// g1 and f3 show a moment after the second hand left, or f3 as it draws back: the first hand
/// lifted, the second set down.
#[test]
fn a_piece_lifted_under_one_hand_and_set_down_by_the_other_is_two_hands_acts() {
    for (unseen, f3_first) in [(1, false), (8, false), (20, false), (8, true), (20, true)] {
        let (after, board, events) = knight_passed_between_hands(unseen, f3_first);
        assert_eq!(board, after, "unseen {unseen}, f3 first {f3_first}: {events:?}");
        let hands = entered(&events);
        assert_eq!(hands.len(), 2, "unseen {unseen}, f3 first {f3_first}: {events:?}");
        assert_eq!(handling(&events), [(hands[0], Square::G1, true), (hands[1], Square::F3, false)], "unseen {unseen}, f3 first {f3_first}: {events:?}");
    }
}

/// The first hand rested on h2, away from the knight, while the second lifted it and set it
/// down: one hand's move, however late g1 shows.
#[test]
fn a_piece_moved_by_one_hand_while_the_other_rests_elsewhere_is_that_hands() {
    for (unseen, f3_first) in [(1, false), (8, false), (20, false), (8, true), (20, true)] {
        let (after, board, events) = knight_moved_beside_another_hand(unseen, false, f3_first);
        assert_eq!(board, after, "unseen {unseen}, f3 first {f3_first}: {events:?}");
        let hands = entered(&events);
        assert!(handling(&events).iter().all(|&(h, _, _)| h == hands[1]), "unseen {unseen}, f3 first {f3_first}: {events:?}");
    }
}

/// White's arm rests on e3 (empty) while a second White region shows over the g2 pawn for
/// `frames` frames, then goes; the arm stays. Whether a touch of g2 was written.
fn second_region_rests_on_g2(frames: u64) -> bool {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5)]);
    let arm: (Square, &[Square]) = (E3, &[E1, E2, E3]);
    let mut reel = Reel::new(&start);
    reel.run(10, &start, Some(arm));
    reel.run_two(frames, &start, arm, (G2, &[G1, G2]), (1, 2));
    reel.run(15, &start, Some(arm));
    reel.run(20, &start, None);
    let (_, events) = reel.finish();
    events.iter().any(|e| matches!(e.kind, EventKind::Touch { square: G2, .. }))
}

/// A second region of one player's, seen resting on a piece for less than half a second
/// beside his arm that came in before it and stays, is a part of that arm seen apart (a
/// patch of sleeve, its shadow), and its rest no touch (scholarsmate.avi turned 270°: a false
/// 4.3.3); one that rests there longer is a second hand, and its touch stands.
#[test]
fn a_second_region_resting_a_moment_beside_the_arm_touches_nothing() {
    assert!(!second_region_rests_on_g2(8));
    assert!(!second_region_rests_on_g2(12));
    assert!(second_region_rests_on_g2(24));
}
