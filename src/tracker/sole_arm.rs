//! A move made wholly under one player's arm, seen only once the arm has gone: the lift and
//! the setting down are that arm's, so touches written before it bind (4.3), where the moved
//! piece was seen standing after them, or where the arm, hiding it before the touch, had its
//! fingertips nowhere near it then. Otherwise it is told by the board alone.

use super::testkit::{Reel, handling, moved, without};
use super::*;

/// Where White's arm hid g1 before resting on b1, if it did, and where its fingertips were
/// meanwhile.
#[derive(Clone, Copy, Debug)]
enum Before {
    /// It hid g1 only after the touch.
    Nothing,
    /// Its fingertips on e2, two files off g1: the knight was not in hand.
    Away,
    /// Its fingertips on h2, next to g1: the knight may have been grasped (seen a square off).
    Beside,
    /// Its fingertips lost for a third of a second: anything may have been grasped.
    Blind,
}

/// After 1. e4 e5, White's arm comes in over b1 and rests on the knight there, passes over
/// e2 (g1 seen with its knight), then hides g1 and f3 while it carries the knight between
/// them, and goes; g1 and f3 show only `unseen` frames after it has gone (the staged touch-move scene
/// read from pixels). `before`: what the arm did, if anything, hiding g1 before it came to b1.
fn knight_moved_under_the_arm(unseen: u64, before: Before) -> (Board, Board, Vec<Event>) {
    use Square::*;
    let start = moved(&Board::default(), &[(E2, E4), (E7, E5)]);
    let lifted = without(&start, &[G1]);
    let after = moved(&start, &[(G1, F3)]);
    let mut reel = Reel::new(&start);
    // Vision puts the fingertips a square off while the hand closes on the knight and carries
    // it (on g3, then e3, both empty): no stay on g1 or f3 says what the hand did there.
    let over_g1: &[Square] = &[F1, G1, H1, G2, G3];
    let over_f3: &[Square] = &[E1, F1, G1, H1, E2, F2, G2, E3, F3, G3];
    let hiding_g1: &[Square] = &[E2, F1, G1, H1, F2, G2];
    let lost = |o: &mut Observation| {
        for h in &mut o.hands {
            (h.extremity_square, h.extremity_board) = (None, None);
        }
    };
    match before {
        Before::Nothing => {
            reel.run(12, &start, Some((B1, &[A1, B1])));
            reel.run(8, &start, Some((E2, &[C1, D1, E1, E2])));
        }
        Before::Away => {
            reel.run(15, &start, Some((E2, hiding_g1)));
        }
        Before::Beside => {
            reel.run(15, &start, Some((H2, &[F1, G1, H1, G2])));
        }
        Before::Blind => {
            reel.run(3, &start, Some((E2, hiding_g1))).run_seen(10, &start, Some((E2, hiding_g1)), lost);
        }
    }
    if !matches!(before, Before::Nothing) {
        reel.run(12, &start, Some((B1, &[A1, B1, C1, D1, E1, F1, G1, H1])));
    }
    reel.run(10, &start, Some((G3, over_g1)));
    reel.run(10, &lifted, Some((G3, over_g1)));
    reel.run(15, &lifted, Some((E3, over_f3)));
    reel.run(10, &after, Some((E3, over_f3)));
    reel.run(4, &after, Some((G3, over_g1)));
    // Gone, its squares still unread a moment.
    reel.run_seen(unseen, &after, None, |o| {
        for sq in [G1, F3] {
            super::testkit::read_as(o, sq, SquareState::Occluded);
        }
    });
    reel.run(30, &after, None);
    let (board, events) = reel.finish();
    (after, board, events)
}

/// The knight's lift and setting down are written under the arm that touched b1, after the
/// touch, where g1 and f3 stay unread until it has been gone long enough to count as gone (0.4
/// s), within a second (those read sooner were its doing already).
#[test]
fn a_move_seen_only_once_the_arm_has_gone_is_that_arms_after_its_touch() {
    for unseen in [0, 15, 20, 25] {
        let (after, board, events) = knight_moved_under_the_arm(unseen, Before::Nothing);
        assert_eq!(board, after, "unseen {unseen}: {events:?}");
        let touch = events.iter().position(|e| matches!(e.kind, EventKind::Touch { square: Square::B1, .. }));
        let hand = events.iter().find_map(|e| if let EventKind::HandEnter { hand, .. } = e.kind { Some(hand) } else { None });
        assert!(touch.is_some() && hand.is_some(), "unseen {unseen}: {events:?}");
        assert_eq!(handling(&events), [(hand.unwrap(), Square::G1, true), (hand.unwrap(), Square::F3, false)], "unseen {unseen}: {events:?}");
        let lift = events.iter().position(|e| matches!(e.kind, EventKind::Lift { .. }));
        assert!(lift > touch, "unseen {unseen}: {events:?}");
    }
}

/// The same where the arm hid g1 before it rested on b1, its fingertips two files away
/// meanwhile (the staged touch-opponent scene read from pixels, seed 13): the knight stood on
/// g1 when b1 was touched, and the lift and the setting down are still the arm's, after the
/// touch.
#[test]
fn a_move_under_an_arm_that_hid_the_piece_with_its_fingertips_away_is_that_arms() {
    for unseen in [0, 20] {
        let (after, board, events) = knight_moved_under_the_arm(unseen, Before::Away);
        assert_eq!(board, after, "unseen {unseen}: {events:?}");
        let touch = events.iter().position(|e| matches!(e.kind, EventKind::Touch { square: Square::B1, .. }));
        let lift = events.iter().position(|e| matches!(e.kind, EventKind::Lift { square: Square::G1, .. }));
        assert!(touch.is_some() && lift > touch, "unseen {unseen}: {events:?}");
        assert_eq!(handling(&events).iter().map(|&(_, sq, lift)| (sq, lift)).collect::<Vec<_>>(), [(Square::G1, true), (Square::F3, false)], "unseen {unseen}: {events:?}");
    }
}

/// Where the arm hid g1 before it rested on b1 with its fingertips next to g1, or lost, the
/// knight may have been in hand already: the move is told by the board alone, as before, and
/// binds no touch.
#[test]
fn a_move_under_an_arm_that_may_have_grasped_it_before_the_touch_is_told_by_the_board() {
    for before in [Before::Beside, Before::Blind] {
        for unseen in [0, 20] {
            let (after, board, events) = knight_moved_under_the_arm(unseen, before);
            assert_eq!(board, after, "{before:?}, unseen {unseen}: {events:?}");
            assert!(events.iter().any(|e| matches!(e.kind, EventKind::Touch { square: Square::B1, .. })), "{before:?}, unseen {unseen}: {events:?}");
            assert_eq!(handling(&events), [], "{before:?}, unseen {unseen}: {events:?}");
            assert!(events.iter().any(|e| matches!(e.kind, EventKind::Board { .. })), "{before:?}, unseen {unseen}: {events:?}");
        }
    }
}

