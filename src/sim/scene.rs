//! The scene script: a start position, a camera, a look, and what the hands do, in order.
//! `touchmove sim SCRIPT --out DIR` renders it. JSON, for example:
//!
//! ```json
//! {"start": "startpos", "seed": 7, "fps": 30,
//!  "camera": {"height_cm": 65, "tilt_deg": 12, "white_at_deg": 0},
//!  "style": {"board": "wood", "light": "warm", "noise": 3.0},
//!  "acts": [{"do": "enter", "hand": 0, "side": "white"},
//!           {"do": "lift", "hand": 0, "square": "e2"},
//!           {"do": "place", "hand": 0, "square": "e4"},
//!           {"do": "release", "hand": 0, "square": "e4"},
//!           {"do": "leave", "hand": 0},
//!           {"do": "clock", "side": "white"},
//!           {"do": "wait", "seconds": 1.0}]}
//! ```
//!
//! The acts are the tracker events of the contract (minus time, which the renderer decides from
//! how far and how fast hands move) plus `wait`. The ground truth's events are exactly these
//! acts, stamped with the frame where each becomes visible.

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Role, Square};

use super::camera::CameraSpec;
use crate::types::{EventKind, HandId, Side};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardLook {
    /// Light and dark wood with grain.
    Wood,
    /// Green and buff roll-up vinyl.
    Vinyl,
    /// Printed tournament board: cream and brown, flat.
    Print,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Light {
    Neutral,
    Warm,
    Cool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceSet {
    /// Cream and near-black plastic.
    Plastic,
    /// Boxwood and ebonised wood.
    Wooden,
}

/// How the scene looks.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Style {
    pub board: BoardLook,
    pub coordinates: bool,
    pub pieces: PieceSet,
    pub light: Light,
    /// 0: even light; 1: one side of the table much darker.
    pub uneven: f64,
    /// A soft shadow drifting across the table (someone leaning over).
    pub moving_shadow: bool,
    /// Sensor noise, standard deviation in 8-bit levels.
    pub noise: f64,
    /// 0: none; up to 1: strong smearing of whatever moves.
    pub motion_blur: f64,
    /// Skin tones of White's and Black's hands (0 lightest … 5 darkest).
    pub skin: [u8; 2],
    /// Sleeve colours (RGB) of White's and Black's arms.
    pub sleeves: [[u8; 3]; 2],
    /// H.264 quality of video.mp4 (constant rate factor: 18 fine … 35 rough).
    pub crf: u8,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            board: BoardLook::Wood,
            coordinates: false,
            pieces: PieceSet::Wooden,
            light: Light::Neutral,
            uneven: 0.2,
            moving_shadow: false,
            noise: 2.0,
            motion_blur: 0.3,
            skin: [1, 3],
            sleeves: [[40, 60, 120], [130, 130, 130]],
            crf: 23,
        }
    }
}

/// One thing a hand (or a player) does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Act {
    Enter { hand: u32, side: Side },
    Touch { hand: u32, #[serde(with = "crate::types::square_serde")] square: Square },
    Lift { hand: u32, #[serde(with = "crate::types::square_serde")] square: Square },
    Place {
        hand: u32,
        #[serde(with = "crate::types::square_serde")]
        square: Square,
        #[serde(default, with = "crate::types::role_serde", skip_serializing_if = "Option::is_none")]
        piece: Option<Role>,
    },
    Release { hand: u32, #[serde(with = "crate::types::square_serde")] square: Square },
    Leave { hand: u32 },
    /// The piece on `from` pushed along the board to `to` without being lifted: the events are
    /// a lift when it leaves its square, a place when it arrives, a release.
    Slide {
        hand: u32,
        #[serde(with = "crate::types::square_serde")]
        from: Square,
        #[serde(with = "crate::types::square_serde")]
        to: Square,
    },
    Clock { side: Side },
    Announce { side: Side },
    Wait { seconds: f64 },
}

impl Act {
    /// The tracker event this act shows, if it shows one.
    pub fn event(&self) -> Option<EventKind> {
        Some(match *self {
            Act::Enter { hand, side } => EventKind::HandEnter { hand: HandId(hand), side },
            Act::Touch { hand, square } => EventKind::Touch { hand: HandId(hand), square },
            Act::Lift { hand, square } => EventKind::Lift { hand: HandId(hand), square },
            Act::Place { hand, square, piece } => EventKind::Place { hand: HandId(hand), square, piece, color: None },
            Act::Release { hand, square } => EventKind::Release { hand: HandId(hand), square },
            Act::Leave { hand } => EventKind::HandLeave { hand: HandId(hand) },
            Act::Clock { side } => EventKind::Clock { side },
            Act::Announce { side } => EventKind::AdjustAnnounced { side },
            Act::Wait { .. } | Act::Slide { .. } => return None,
        })
    }

    /// The act that shows a tracker event (board snapshots show none).
    pub fn from_event(kind: &EventKind) -> Option<Act> {
        Some(match *kind {
            EventKind::HandEnter { hand, side } => Act::Enter { hand: hand.0, side },
            EventKind::Touch { hand, square } => Act::Touch { hand: hand.0, square },
            EventKind::Lift { hand, square } => Act::Lift { hand: hand.0, square },
            EventKind::Place { hand, square, piece, .. } => Act::Place { hand: hand.0, square, piece },
            EventKind::Release { hand, square } => Act::Release { hand: hand.0, square },
            EventKind::HandLeave { hand } => Act::Leave { hand: hand.0 },
            EventKind::Clock { side } => Act::Clock { side },
            EventKind::AdjustAnnounced { side } => Act::Announce { side },
            EventKind::Board { .. } => return None,
        })
    }
}

fn startpos() -> String {
    "startpos".into()
}
fn thirty() -> f64 {
    30.0
}

/// A scene script.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// FEN of the start position, or `startpos`.
    #[serde(default = "startpos")]
    pub start: String,
    #[serde(default)]
    pub seed: u64,
    #[serde(default = "thirty")]
    pub fps: f64,
    #[serde(default)]
    pub camera: CameraSpec,
    #[serde(default)]
    pub style: Style,
    pub acts: Vec<Act>,
}

#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    #[error("start \"{0}\" is not a legal position (a FEN, or startpos)")]
    Start(String),
    #[error("{0}")]
    Invalid(String),
}

impl Scene {
    /// The same scene with every piece a hand brings onto the board from off it (a promotion's
    /// new piece) made a `role`: the under-promotion scene promoting to each piece in turn.
    pub fn promoting_to(mut self, role: Role) -> Scene {
        for act in &mut self.acts {
            if let Act::Place { piece: piece @ Some(_), .. } = act {
                *piece = Some(role);
            }
        }
        self
    }

    pub fn parse(text: &str) -> Result<Scene, SceneError> {
        let scene: Scene = serde_json::from_str(text)?;
        scene.start_position()?;
        let c = &scene.camera;
        let bad = |what: &str| Err(SceneError::Invalid(what.to_owned()));
        if !(10.0..=240.0).contains(&scene.fps) {
            return bad("fps must be between 10 and 240");
        }
        if !(30.0..=200.0).contains(&c.height_cm) || !(0.0..=45.0).contains(&c.tilt_deg) {
            return bad("camera: height_cm must be 30–200 and tilt_deg 0–45");
        }
        if c.width < 64 || c.height < 64 || c.width > 3840 || c.height > 2160 || c.width % 2 == 1 || c.height % 2 == 1 {
            return bad("camera: width and height must be even, 64…3840 × 64…2160");
        }
        if scene.acts.iter().any(|a| matches!(a, Act::Wait { seconds } if !(0.0..=600.0).contains(seconds))) {
            return bad("wait: seconds must be 0–600");
        }
        Ok(scene)
    }

    pub fn start_position(&self) -> Result<Chess, SceneError> {
        if self.start == "startpos" {
            return Ok(Chess::default());
        }
        self.start
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .ok_or_else(|| SceneError::Start(self.start.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let text = r#"{"start": "startpos", "seed": 7, "fps": 30,
 "camera": {"height_cm": 65, "tilt_deg": 12, "white_at_deg": 0},
 "style": {"board": "wood", "light": "warm", "noise": 3.0},
 "acts": [{"do": "enter", "hand": 0, "side": "white"},
          {"do": "lift", "hand": 0, "square": "e2"},
          {"do": "place", "hand": 0, "square": "e4"},
          {"do": "release", "hand": 0, "square": "e4"},
          {"do": "leave", "hand": 0},
          {"do": "clock", "side": "white"},
          {"do": "wait", "seconds": 1.0}]}"#;
        let s = Scene::parse(text).unwrap();
        assert_eq!(s.acts.len(), 7);
        assert_eq!(s.camera.height_cm, 65.0);
        assert_eq!(s.style.light, Light::Warm);
    }

    #[test]
    fn bad_scripts_are_refused_with_a_reason() {
        for (text, expected) in [
            (r#"{"acts": [{"do": "fly", "hand": 0}]}"#, "unknown variant"),
            (r#"{"acts": [], "start": "xx"}"#, "not a legal position"),
            (r#"{"acts": [], "camera": {"height_cm": 5}}"#, "height_cm"),
            (r#"{"acts": [{"do": "lift", "hand": 0, "square": "z9"}]}"#, "not a square"),
            (r#"{"acts": [], "colour": 1}"#, "unknown field"),
            ("{", "EOF"),
        ] {
            let err = Scene::parse(text).unwrap_err().to_string();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }
}
