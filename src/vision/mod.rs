//! Vision: from a frame to an [`Observation`](crate::types::Observation) — where the board is,
//! what each square shows, where the hands are, the clock. Plain functions of a frame and of
//! what was learned from earlier frames of the same board; no knowledge of the game.

pub mod cells;
pub mod clock;
pub mod frame;
pub mod geometry;
pub mod hands;
pub mod onnx;
pub mod pieces;
pub mod rectify;

/// Why vision could not do what was asked, in words a user can act on.
#[derive(Debug, thiserror::Error)]
pub enum VisionError {
    #[error("no chessboard found in the image{0}")]
    NoBoard(String),
    #[error("{0}")]
    Invalid(String),
    /// The known position does not show every look (empty, white, black) on both square
    /// colours: the board's look cannot be learned from it.
    #[error("cannot learn the board's look: the known position shows {0}, at least 2 are needed")]
    TooFewLooks(String),
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

pub mod squares;
