//! One arm seen as two: vision loses an arm for a frame as it swings and finds it again under a
//! new id. The second id goes on with what the first held and where it grasped; the events
//! still name two hands, one leaving as the other comes in.

use super::testkit::{Reel, moved, without};
use super::*;

/// After 1. c4 e6 2. g3 d5 3. Bg2 Nf6 4. Nf3 dxc4 (rendered game 215): White's arm grasps
/// the queen on d1 and carries her towards a4; it is lost for `lost` frames above c2 and seen
/// again under a new id, its fingertips resting on a2 (the pawn there hidden under it) before
/// it sets the queen on a4. The queen's lift is seen as it happens, or, `d1_hidden` under the
/// arm, only once the arm is lost.
fn queen_carried_over_a2(d1_hidden: bool) -> (Board, Board, Vec<Event>) {
    use Square::*;
    let start = moved(&Board::default(), &[(C2, C4), (E7, E6), (G2, G3), (D7, D5), (F1, G2), (G8, F6), (G1, F3), (D5, C4)]);
    let lifted = without(&start, &[D1]);
    let after = moved(&start, &[(D1, A4)]);
    let mut reel = Reel::new(&start);
    let grasp: &[Square] = if d1_hidden { &[D1, E1] } else { &[E1] };
    reel.run(12, &start, Some((D1, grasp)))
        .run(4, &lifted, Some((D1, grasp)))
        .run(6, &lifted, Some((C2, &[C1, D1, C2])))
        .run(1, &lifted, None);
    reel.arm_id = 2;
    reel.run(8, &lifted, Some((A2, &[A1, B1, A2, B2, A3])))
        .run(10, &after, Some((A4, &[A2, B2, A3])))
        .run(30, &after, None);
    let (board, events) = reel.finish();
    (after, board, events)
}

/// Rendered game 215's 9. Qa4+, recorded 9. a4 and the queen a 7.6: the piece set on a4 was
/// taken for the a2 pawn the new arm rested on, the queen as gone with the old one.
#[test]
fn a_piece_carried_by_an_arm_lost_for_a_frame_is_set_down_by_it() {
    let (after, board, events) = queen_carried_over_a2(false);
    assert_eq!(board, after, "{events:?}");
    let lifts: Vec<Square> = events.iter().filter_map(|e| if let EventKind::Lift { square, .. } = e.kind { Some(square) } else { None }).collect();
    assert_eq!(lifts, vec![Square::D1], "{events:?}");
}

/// The contract's hands are still two: the first leaves as the second comes in, each with its
/// own id.
#[test]
fn the_arm_seen_again_is_announced_as_a_new_hand() {
    let (_, _, events) = queen_carried_over_a2(false);
    let entered: Vec<HandId> = events.iter().filter_map(|e| if let EventKind::HandEnter { hand, .. } = e.kind { Some(hand) } else { None }).collect();
    let left: Vec<HandId> = events.iter().filter_map(|e| if let EventKind::HandLeave { hand } = e.kind { Some(hand) } else { None }).collect();
    assert_eq!(entered.len(), 2, "{events:?}");
    assert_eq!(left, entered, "{events:?}");
    let place = events.iter().find_map(|e| if let EventKind::Place { hand, .. } = e.kind { Some(hand) } else { None });
    assert_eq!(place, Some(entered[1]), "{events:?}");
}

/// The queen's lift seen only as the arm is lost, after its old id left: the old id made it,
/// and the new one, seen again, sets her down.
#[test]
fn a_lift_seen_only_once_the_arm_is_lost_is_the_old_ids() {
    let (after, board, events) = queen_carried_over_a2(true);
    assert_eq!(board, after, "{events:?}");
    let first = events.iter().find_map(|e| if let EventKind::HandEnter { hand, .. } = e.kind { Some(hand) } else { None });
    let lift = events.iter().find_map(|e| if let EventKind::Lift { hand, square } = e.kind { Some((hand, square)) } else { None });
    assert_eq!(lift, Some((first.unwrap(), Square::D1)), "{events:?}");
}
