//! Rules decisions: what the arbiter's log and the broadcast see (DESIGN.md, "Decisions").

use serde::{Deserialize, Serialize};
use shakmaty::Square;

use super::{Article, Side};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub t: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<u64>,
    #[serde(flatten)]
    pub kind: DecisionKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyAction {
    /// The offender's opponent gets `seconds` more.
    AddTime,
    /// The offender loses.
    Loss,
    /// The offender's opponent cannot checkmate: drawn.
    Draw,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DecisionKind {
    /// A move that stands in the game. Castling is king-to-destination in `uci` (`e1g1`).
    Move { ply: u32, side: Side, uci: String, san: String, fen: String },
    /// A breach. `side` is the offender; it is absent only where nobody is (a wrong set-up).
    Violation {
        article: Article,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        detail: String,
        confidence: f64,
    },
    /// What 7.5.5 prescribes; `side` is the offender.
    Penalty {
        article: Article,
        side: Side,
        action: PenaltyAction,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds: Option<u32>,
    },
    /// A piece lifted or shifted and put back on its own square.
    Adjust {
        side: Side,
        #[serde(with = "super::square_serde")]
        square: Square,
    },
    /// Something the arbiter should look at that is not (yet) a breach. `article` (additive)
    /// names the clause that explains it, where one does.
    Warning {
        side: Side,
        detail: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        article: Option<Article>,
    },
    /// The opponent of `side` (the offender) touched a piece to move: `side`'s breach of
    /// `article` can no longer be claimed (4.8).
    ClaimClosed { article: Article, side: Side, detail: String },
    /// The engine's own state, e.g. waiting for a position to be restored.
    State { detail: String },
}

impl Decision {
    /// One JSONL line, without the newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("decisions always serialise")
    }

    pub fn violation(&self) -> Option<(Article, Option<Side>)> {
        match self.kind {
            DecisionKind::Violation { article, side, .. } => Some((article, side)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_as_the_contract_shows() {
        let d = Decision {
            t: 2.2,
            frame: Some(66),
            kind: DecisionKind::Move {
                ply: 1,
                side: Side::White,
                uci: "g1f3".into(),
                san: "Nf3".into(),
                fen: "x".into(),
            },
        };
        assert_eq!(
            d.to_json(),
            r#"{"t":2.2,"frame":66,"kind":"move","ply":1,"side":"white","uci":"g1f3","san":"Nf3","fen":"x"}"#
        );
        let p = Decision {
            t: 5.0,
            frame: None,
            kind: DecisionKind::Penalty {
                article: Article::A7_5_5,
                side: Side::Black,
                action: PenaltyAction::AddTime,
                seconds: Some(120),
            },
        };
        assert_eq!(
            p.to_json(),
            r#"{"t":5.0,"kind":"penalty","article":"7.5.5","side":"black","action":"add_time","seconds":120}"#
        );
        for d in [d, p] {
            assert_eq!(serde_json::from_str::<Decision>(&d.to_json()).unwrap(), d);
        }
    }
}
