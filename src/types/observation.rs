//! What vision tells the tracker about one frame: where the board is, what each square shows,
//! where the hands are, the clock. Vision says what it sees and how sure it is; the tracker
//! (which knows the game) decides what happened.

use serde::{Deserialize, Serialize};
use shakmaty::{Board, Color, Piece, Role, Square};

use super::{ImageSide, Side};

/// The board in the image: the playing area's outer corners at a8, h8, h1, a1 (image pixels),
/// the edge White sits at, and whether h1 is a light square (7.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BoardGeometry {
    pub corners: [[f64; 2]; 4],
    pub white: ImageSide,
    pub h1_light: bool,
}

/// What one square shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SquareState {
    Empty,
    White,
    Black,
    /// Hidden (by a hand, an arm, a head): nothing can be said.
    Occluded,
    /// A piece stands here, but its colour cannot be told (one in deep shadow, or seen from the
    /// side at the picture's edge): the tracker knows whose it is from where it came.
    Piece,
}

impl SquareState {
    /// What a square holding `piece` shows.
    pub fn of(piece: Option<Piece>) -> SquareState {
        match piece.map(|p| p.color) {
            None => SquareState::Empty,
            Some(Color::White) => SquareState::White,
            Some(Color::Black) => SquareState::Black,
        }
    }

    /// Whether a square showing `self` may hold `piece` (`None`: empty) as far as can be seen.
    pub fn fits(self, piece: Option<Piece>) -> bool {
        match self {
            SquareState::Occluded => true,
            SquareState::Piece => piece.is_some(),
            s => s == SquareState::of(piece),
        }
    }

    /// What each square of `board` shows, a1 first.
    pub fn of_board(board: &Board) -> [SquareState; 64] {
        std::array::from_fn(|i| SquareState::of(board.piece_at(Square::new(i as u32))))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SquareObs {
    pub state: SquareState,
    /// 0…1: how sure vision is of `state`.
    pub confidence: f32,
    /// The piece type, where vision can tell.
    #[serde(default, with = "super::role_serde", skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
}

impl SquareObs {
    pub const OCCLUDED: SquareObs = SquareObs { state: SquareState::Occluded, confidence: 1.0, role: None };
}

/// A hand or arm over the board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HandObs {
    /// Stable while the same arm stays in view; a new arm gets a new id.
    pub id: u32,
    /// The player it belongs to, from the edge it reaches in from.
    pub side: Option<Side>,
    /// Outline in image pixels.
    pub polygon: Vec<[f32; 2]>,
    /// The far end from where it enters: the fingertips, in image pixels.
    pub extremity: [f32; 2],
    /// The square under the extremity, if it is over the playing area.
    #[serde(default, with = "opt_square", skip_serializing_if = "Option::is_none")]
    pub extremity_square: Option<Square>,
    /// Squares it covers.
    #[serde(with = "squares")]
    pub covers: Vec<Square>,
    /// The extremity on the board plane, in squares from a1's outer corner (file, rank), where
    /// vision can tell: how far the fingertips moved, which tells a touch from a hand passing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extremity_board: Option<[f32; 2]>,
    /// How far `extremity_board` would move, in squares (file, rank), for each square higher
    /// the fingertips held than [`EXTREMITY_HEIGHT`], where vision knows the camera's pose: a
    /// camera looking down at a slant sees fingertips grasping a king's head well beyond the
    /// square the king stands on, and one grasping a pawn short of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extremity_lean: Option<[f32; 2]>,
}

/// The height above the board, in squares, at which `HandObs::extremity_board` places the
/// fingertips: about where they hold a middling piece (a pawn's head stands 0.9 squares high,
/// a king's 1.7), which vision, not knowing the piece, must assume.
pub const EXTREMITY_HEIGHT: f32 = 1.1;

/// The clock's two buttons: pressed in this frame (White's, Black's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockObs {
    pub pressed: [bool; 2],
}

/// Everything vision reports for one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub frame: u64,
    pub t: f64,
    /// a1 first (index = `usize::from(square)`).
    pub squares: Vec<SquareObs>,
    pub hands: Vec<HandObs>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockObs>,
    /// The board no longer fits where it was: the camera or the board moved.
    #[serde(default)]
    pub board_lost: bool,
}

mod opt_square {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Square;

    pub fn serialize<S: Serializer>(sq: &Option<Square>, s: S) -> Result<S::Ok, S::Error> {
        match sq {
            Some(sq) => s.collect_str(sq),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Square>, D::Error> {
        let s = Option::<String>::deserialize(d)?;
        s.map(|s| s.parse().map_err(|_| serde::de::Error::custom(format!("\"{s}\" is not a square")))).transpose()
    }
}

mod squares {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Square;

    pub fn serialize<S: Serializer>(v: &[Square], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|sq| sq.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Square>, D::Error> {
        let v = Vec::<String>::deserialize(d)?;
        v.iter().map(|s| s.parse().map_err(|_| serde::de::Error::custom(format!("\"{s}\" is not a square")))).collect()
    }
}
