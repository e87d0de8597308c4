//! 4.1 (and 7.5.4 at the clock) — each move with one hand only. A move is made with two hands
//! when two hand ids that were over the board at the same time both handled pieces on its
//! squares (lifted, set down or let go of one): a hand that only touched a piece played no part
//! of the move (a touch binds under 4.3 whichever hand made it). So one hand, seen a moment as
//! two, touching with one id and lifting with the next, is not taken for two hands. Nor is one
//! whose id handed over to the next: the first did nothing once the second came in, the second
//! nothing before the first left, within [`HANDOVER_SECS`] of its coming (vision holds an arm it lost where it was last seen for a few
//! frames, while the same arm, found again, may come in under a new id: `scholarsmate.avi`
//! halved in size, the queen lifted from h5 under one id and set on f7 under the next, a false
//! 4.1). A piece passed from one hand to the other takes longer than that.

use std::collections::HashMap;

use shakmaty::{Move, Square};

use super::completion::move_squares;
use super::{Breach, HandInfo};
use crate::types::{Article, HandId};

/// The longest two ids of one arm are both seen over the board as one takes over from the
/// other (vision holds a lost arm six frames: 0.2 s at 30 frames a second).
pub(super) const HANDOVER_SECS: f64 = 0.3;

fn overlap(a: &HandInfo, b: &HandInfo) -> bool {
    let end = |h: &HandInfo| h.left.unwrap_or(f64::INFINITY);
    let (first, next) = if a.entered <= b.entered { (a, b) } else { (b, a) };
    let handed_over = first.last_act <= next.entered && next.first_act >= end(first) && end(first) - next.entered <= HANDOVER_SECS;
    a.entered < end(b) && b.entered < end(a) && !handed_over
}

/// The 4.1 breach, if two of the mover's hands handled pieces on the squares of `m` at once
/// (`acts`: the mover's handling acts).
pub(super) fn two_hands(hands: &HashMap<HandId, HandInfo>, acts: &[(HandId, Square)], m: Move) -> Option<Breach> {
    let squares = move_squares(m);
    let mut ids: Vec<HandId> = acts.iter().filter(|(_, sq)| squares.contains(*sq)).map(|(h, _)| *h).collect();
    ids.sort();
    ids.dedup();
    for (i, a) in ids.iter().enumerate() {
        for b in &ids[i + 1..] {
            if let (Some(ha), Some(hb)) = (hands.get(a), hands.get(b)) {
                if overlap(ha, hb) {
                    return Some(Breach {
                        article: Article::A4_1,
                        detail: format!("made one move with two hands (hands {} and {})", a.0, b.0),
                        confidence: 1.0,
                    });
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod art_4_1 {
    //! Each move must be played with one hand only.
    use crate::rules::testkit::*;

    const FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn art_4_1_castling_with_both_hands_is_a_breach() {
        let d = Script::from_fen(FEN)
            .enter(0, W).enter(1, W).lift(0, "e1").lift(1, "h1").place(0, "g1").place(1, "f1").release(0, "g1").release(1, "f1")
            .leave(0).leave(1)
            .run();
        assert_eq!(sans(&d), ["O-O"]);
        assert_eq!(violations(&d), [("4.1", Some(W))]);
    }

    #[test]
    fn art_4_1_capture_with_one_hand_removing_the_piece_and_the_other_moving_is_a_breach() {
        let d = Script::new().mv("e2e4").mv("d7d5")
            .enter(0, W).enter(1, W).lift(1, "d5").lift(0, "e4").place(0, "d5").release(0, "d5").leave(0).leave(1)
            .run();
        assert_eq!(violations(&d), [("4.1", Some(W))]);
    }

    #[test]
    fn art_4_1_one_arm_whose_id_hands_over_to_the_next_is_one_hand() {
        // The queen lifted under one id; the arm found again under a new id a moment before
        // the old one is let go sets her down on f7 (as the tracker tells it: the old id left
        // holding her, the new one brought a queen in).
        let mate = Script::new().mv("e2e4").mv("e7e5").mv("d1h5").mv("b8c6").mv("f1c4").mv("g8f6");
        let d = mate.clone().enter(0, W).lift(0, "h5").enter(1, W).leave(0).lift(1, "f7").place_new(1, "f7", 'Q').release(1, "f7").leave(1).run();
        assert_eq!(sans(&d).last().map(String::as_str), Some("Qxf7#"), "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
        // Still two hands: the first stays on while the second handles the move (castling and
        // captures with both hands, above), or acts after the second came in.
        let d = mate.enter(0, W).lift(0, "h5").enter(1, W).lift(1, "f7").leave(0).place_new(1, "f7", 'Q').release(1, "f7").leave(1).run();
        assert_eq!(violations(&d), [("4.1", Some(W))], "{d:?}");
    }

    #[test]
    fn art_4_1_a_second_hand_that_touches_nothing_does_not_count() {
        let d = Script::new().enter(0, W).enter(1, W).mv_with(0, "e2e4").leave(1).clock(W).run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_1_a_second_hand_that_only_touched_the_piece_does_not_count() {
        // Rendered game 230: a hand seen a moment as two, one id touching the piece, the
        // next lifting it.
        let d = Script::new().enter(0, W).touch(0, "g1").enter(1, W).leave(0).lift(1, "g1").place(1, "f3").release(1, "f3").leave(1).clock(W).run();
        assert_eq!(sans(&d), ["Nf3"]);
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_4_1_a_piece_passed_between_hands_is_two_hands_however_late_it_is_told() {
        // The staged two-hands scene read from pixels: the knight lifted by the first hand and
        // passed to the second shows only once both have left; the tracker tells the lift and
        // the setting down then, each under the id of the hand that made it.
        let d = Script::new().mv("e2e4").mv("e7e5")
            .enter(0, W).touch(0, "g1").enter(1, W).leave(0).leave(1).lift(0, "g1").place(1, "f3").release(1, "f3").clock(W)
            .run();
        assert_eq!(sans(&d).last().unwrap(), "Nf3", "{d:?}");
        assert_eq!(violations(&d), [("4.1", Some(W)), ("7.5.4", Some(W))], "{d:?}");
        // One hand that did it all, told as late, is one hand.
        let d = Script::new().mv("e2e4").mv("e7e5")
            .enter(0, W).touch(0, "g1").enter(1, W).leave(1).leave(0).lift(0, "g1").place(0, "f3").release(0, "f3").clock(W)
            .run();
        assert_eq!(sans(&d).last().unwrap(), "Nf3", "{d:?}");
        assert!(violations(&d).is_empty(), "{d:?}");
    }

    #[test]
    fn art_4_1_hands_one_after_the_other_are_one_hand_at_a_time() {
        // The taken piece removed by one hand that leaves, the capture made by a new hand.
        let d = Script::new().mv("e2e4").mv("d7d5")
            .enter(0, W).lift(0, "d5").leave(0).enter(1, W).lift(1, "e4").place(1, "d5").release(1, "d5").leave(1).clock(W)
            .run();
        assert_eq!(sans(&d).last().unwrap(), "exd5");
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_7_5_4 {
    //! Two hands for one move and the clock pressed: penalised as an illegal move.
    use crate::rules::testkit::*;

    const FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    fn two_handed() -> Script {
        Script::from_fen(FEN)
            .enter(0, W).enter(1, W).lift(0, "e1").lift(1, "h1").place(0, "g1").place(1, "f1").release(0, "g1").release(1, "f1")
            .leave(0).leave(1)
    }

    #[test]
    fn art_7_5_4_two_hands_and_the_clock_is_penalised_and_the_move_stands() {
        let d = two_handed().clock(W).run();
        assert_eq!(sans(&d), ["O-O"]);
        assert_eq!(violations(&d), [("4.1", Some(W)), ("7.5.4", Some(W))]);
        assert_eq!(penalties(&d), [("add_time", W, Some(120))]);
    }

    #[test]
    fn art_7_5_4_a_two_handed_mate_ends_the_game_and_the_clock_after_it_is_not_judged() {
        // 5.1.1: checkmate ends the game if the move accords with Article 3 and 4.2-4.7; 4.1 is
        // not among them, so the mate stands, and the press that follows comes after the game.
        let d = Script::new().mv("f2f3").mv("e7e5").mv("g2g4")
            .enter(0, B).enter(1, B).lift(0, "d8").place(1, "h4").release(1, "h4").leave(0).leave(1).clock(B)
            .run();
        assert_eq!(sans(&d).last().unwrap(), "Qh4#");
        assert_eq!(violations(&d), [("4.1", Some(B))]);
        assert!(penalties(&d).is_empty());
    }

    #[test]
    fn art_7_5_4_one_hand_and_the_clock_is_not() {
        let d = Script::from_fen(FEN).mv("e1g1").clock(W).run();
        assert!(violations(&d).is_empty());
        assert!(penalties(&d).is_empty());
    }
}
