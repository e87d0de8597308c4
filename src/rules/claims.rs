//! 4.8 — a player loses the right to claim the opponent's breach of 4.1–4.7 once he touches a
//! piece to move or capture it. Each breach stays open until then; closing is a `claim_closed`
//! decision, not a new violation.

use shakmaty::Color;

use crate::types::{Article, DecisionKind, Side};

#[derive(Debug, Clone, Copy)]
pub struct Open {
    pub article: Article,
    pub offender: Color,
    pub t: f64,
}

/// `toucher`, having the move, touched a piece to move it: the claims he had are closed.
pub fn close(open: &mut Vec<Open>, toucher: Color) -> Vec<DecisionKind> {
    let (closed, kept): (Vec<Open>, Vec<Open>) = open.drain(..).partition(|o| o.offender != toucher);
    *open = kept;
    closed
        .into_iter()
        .map(|o| DecisionKind::ClaimClosed {
            article: o.article,
            side: Side::from(o.offender),
            detail: format!(
                "{} touched a piece: {}'s breach at {:.1} s can no longer be claimed",
                Side::from(toucher),
                Side::from(o.offender),
                o.t
            ),
        })
        .collect()
}

#[cfg(test)]
mod art_4_8 {
    use crate::rules::testkit::*;

    #[test]
    fn art_4_8_the_opponent_touching_to_move_closes_the_claim() {
        let d = Script::new().enter(0, W).touch(0, "g1").mv_with(0, "e2e4").clock(W).mv("e7e5").run();
        assert_eq!(violations(&d), [("4.3.1", Some(W))]);
        assert_eq!(claims_closed(&d), [("4.3.1", W)]);
        assert!(detail_of_claim(&d).contains("black touched a piece"));
    }

    #[test]
    fn art_4_8_no_claim_closed_before_the_opponent_touches() {
        let d = Script::new().enter(0, W).touch(0, "g1").mv_with(0, "e2e4").clock(W).run();
        assert!(claims_closed(&d).is_empty());
    }

    #[test]
    fn art_4_8_breaches_outside_4_1_to_4_7_are_not_closed() {
        let d = Script::new().clock(W).mv("e2e4").clock(W).mv("e7e5").run();
        assert_eq!(violations(&d), [("7.5.3", Some(W))]);
        assert!(claims_closed(&d).is_empty());
    }

    #[test]
    fn art_4_8_an_announced_adjustment_does_not_close_a_claim() {
        let d = Script::new().enter(0, W).touch(0, "g1").mv_with(0, "e2e4").clock(W)
            .announce(B).enter(1, B).lift(1, "e7").place(1, "e7").release(1, "e7").leave(1)
            .run();
        assert!(claims_closed(&d).is_empty());
    }
}
