//! The typed messages every stage shares: tracker events in, rules decisions out, and the small
//! value types they are made of. Serialisation here *is* the JSONL contract of `DESIGN.md`.

mod article;
mod correction;
mod decision;
mod event;
mod observation;
mod placement;
mod position;

pub use article::{Article, UnknownArticle};
pub use correction::{Correction, Journalled};
pub use decision::{Decision, DecisionKind, PenaltyAction};
pub use event::{DueEvents, Event, EventError, EventKind, EventReader, HandId, ImageSide};
pub use observation::{BoardGeometry, ClockObs, EXTREMITY_HEIGHT, HandObs, Observation, SquareObs, SquareState};
pub use placement::{Cell, Placement, PlacementError};
pub use position::{PositionError, parse_position};

use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// A player, as the contract spells it (`"white"`, `"black"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Serde for `shakmaty::Square` as its name (`"g1"`), with an error that names the bad value.
pub mod square_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Square;

    pub fn serialize<S: Serializer>(sq: &Square, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(sq)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map_err(|_| serde::de::Error::custom(format!("\"{s}\" is not a square (a1…h8)")))
    }
}

/// Serde for an optional `shakmaty::Role` as its upper-case letter (`"Q"`).
pub mod role_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Role;

    pub fn serialize<S: Serializer>(role: &Option<Role>, s: S) -> Result<S::Ok, S::Error> {
        match role {
            Some(r) => s.serialize_char(r.upper_char()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Role>, D::Error> {
        let s = Option::<String>::deserialize(d)?;
        match s.as_deref() {
            None => Ok(None),
            Some(text) => {
                let mut chars = text.chars();
                match (chars.next().and_then(Role::from_char), chars.next()) {
                    (Some(role), None) if text.chars().all(|c| c.is_ascii_uppercase()) => Ok(Some(role)),
                    _ => Err(serde::de::Error::custom(format!(
                        "\"{text}\" is not a piece letter (Q, R, B, N, P or K)"
                    ))),
                }
            }
        }
    }
}
