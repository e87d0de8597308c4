//! `touchmove board`: the placement seen in each image, one FEN board field a line, `?` where a
//! square cannot be seen (a hand over it).
//!
//! The square reader learns the board's and the set's look from a known position; when the
//! first image shows the initial position it learns from that one, and what it learned serves
//! for the rest. Otherwise each image is read with typical looks, which is much less reliable.
//! The square reader tells empty, white and black apart. Where the first image shows the
//! initial position, the later ones are taken as one game's, in order: the game is followed
//! from image to image through the squares' colours (`rules::follow`: the line of a move or two
//! that fits them best, likelier lines kept in reserve until later images tell them apart), and
//! the game names the pieces; a square read otherwise than the game stands is printed as read,
//! one not read as the game has it. An image no line fits (another game, a board disturbed) is
//! said once on stderr (where earlier images were followed), and its pieces are named by the
//! piece reader (`vision::pieces`), which learns this set's pieces from that same first image.
//! Without it (no initial position first, or the model cannot run: said once on stderr) a piece
//! is printed as a pawn of its colour (`P`, `p`). On the bgu stills' games 2 and 7 the pieces
//! are named right on 97% of occupied squares following the game; the piece reader alone names
//! about three in five.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use opencv::core::Mat;
use opencv::imgcodecs;
use opencv::prelude::*;
use shakmaty::{Board, Color, Piece, Position, Role, Square};

use crate::rules::follow::{Follower, SeenColours};
use crate::types::{Cell, ImageSide, Placement, SquareObs, SquareState};
use crate::types::BoardGeometry;
use crate::vision::VisionError;
use crate::vision::pieces::model::{PieceGuess, PieceModel, PieceReader};
use crate::vision::pieces::{PieceCrops, piece_of};
use crate::vision::squares::{self, SquareReader, corners_with_white_at, find_straightened, initial_position_side};

#[derive(Debug, clap::Args)]
#[command(after_help = "The first image showing the initial position makes the rest one game's, followed move by move: a move or two between images, and the game names the pieces.\n\nExamples:\n  touchmove board start.jpg move1.jpg move2.jpg\n  touchmove board --calibration calibration/table3.json frame.png")]
pub struct BoardArgs {
    /// Images of the board (JPEG, PNG, …), read in order.
    #[arg(required = true, value_name = "IMAGE")]
    pub images: Vec<PathBuf>,
    /// Where the board is: a JSON file with "corners", the playing area's corners at a8, h8, h1,
    /// a1 in image pixels (what `touchmove calibrate` prints). Without it the board must be
    /// found in each image; today that works for straightened images (the board, square-on,
    /// filling the image).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// The images are straightened: take the whole image as the board when no grid is found.
    #[arg(long)]
    pub straightened: bool,
}

/// Pixels a square in the rectified view: the square reader's own working size.
const PX_PER_SQUARE: i32 = squares::CELL as i32;
/// The most plies an image may be after the one before it to be followed (a move each).
const FOLLOW_PLIES: usize = 2;

/// Where the board is in an image: its corners at a8, h8, h1, a1, and, when the order is only
/// assumed (a straightened image, taken with White at the bottom until the pieces say
/// otherwise), the outline it came from (top-left, top-right, bottom-right, bottom-left).
struct Found {
    corners: [[f64; 2]; 4],
    outline: Option<[[f64; 2]; 4]>,
}

fn read_calibration(path: &Path) -> Result<[[f64; 2]; 4]> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read the calibration file", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let corners: [[f64; 2]; 4] = serde_json::from_value(v.get("corners").cloned().unwrap_or_default())
        .map_err(|_| anyhow!("{}: needs \"corners\": four [x, y] pixel positions (a8, h8, h1, a1)", path.display()))?;
    if corners.iter().flatten().any(|c| !c.is_finite()) {
        return Err(anyhow!("{}: the corners must be finite numbers", path.display()));
    }
    // Twice the signed area of each corner's triangle: all of one sign for a convex outline.
    let turns: Vec<f64> = (0..4)
        .map(|i| {
            let (a, b, c) = (corners[i], corners[(i + 1) % 4], corners[(i + 2) % 4]);
            (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        })
        .collect();
    let area = 0.5 * (0..4).map(|i| corners[i][0] * corners[(i + 1) % 4][1] - corners[(i + 1) % 4][0] * corners[i][1]).sum::<f64>().abs();
    if area < 16.0 * 16.0 || !(turns.iter().all(|&t| t > 0.0) || turns.iter().all(|&t| t < 0.0)) {
        return Err(anyhow!("{}: the corners (a8, h8, h1, a1) do not outline a board", path.display()));
    }
    Ok(corners)
}

/// Finds the board in an image: the one call to change when the automatic board finder lands.
fn find_board(image: &Mat, calibration: Option<&[[f64; 2]; 4]>, straightened: bool) -> Result<Found, VisionError> {
    if let Some(c) = calibration {
        return Ok(Found { corners: *c, outline: None });
    }
    let outline = match find_straightened(image)? {
        Some(grid) => grid.corners,
        None if straightened => {
            let (w, h) = (image.cols() as f64, image.rows() as f64);
            [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]
        }
        None => {
            return Err(VisionError::NoBoard(
                ": it is not a straightened board, and finding one in a camera view needs --calibration FILE in this build".into(),
            ));
        }
    };
    Ok(Found { corners: outline, outline: Some(outline) })
}

fn placement(read: &[SquareObs], known: Option<&Board>, types: Option<&[PieceGuess]>) -> Placement {
    let mut cells = [Cell::Unknown; 64];
    for (sq, obs) in read.iter().enumerate().take(64) {
        let color = match obs.state {
            // A piece of colour untold is unknown to a placement, which names pieces.
            SquareState::Occluded | SquareState::Piece => continue,
            SquareState::Empty => {
                cells[sq] = Cell::Empty;
                continue;
            }
            SquareState::White => Color::White,
            SquareState::Black => Color::Black,
        };
        // The likeliest type of the colour seen: the square reader is surer of colour than the
        // piece reader is.
        let guessed = types.and_then(|t| t.get(sq)).and_then(|g| {
            let first = if color == Color::White { 1 } else { 7 };
            let class = (first..first + 6).max_by(|&a, &b| g.probabilities[a].total_cmp(&g.probabilities[b]))?;
            piece_of(class).map(|p| p.role)
        });
        let role = match known.and_then(|b| b.piece_at(Square::new(sq as u32))) {
            Some(p) if p.color == color => p.role,
            _ => obs.role.or(guessed).unwrap_or(Role::Pawn),
        };
        cells[sq] = Cell::Piece(Piece { color, role });
    }
    Placement(cells)
}

pub fn run(args: BoardArgs) -> Result<()> {
    let calibration = args.calibration.as_deref().map(read_calibration).transpose()?;
    let mut out = io::stdout().lock();
    let mut reader: Option<SquareReader> = None;
    let mut pieces: Option<PieceReader> = None;
    // Where White sits, once the first image has shown it.
    let mut white: Option<ImageSide> = None;
    // The game, when the first image shows its initial position: later images are followed
    // through it, move by move, and it names their pieces.
    let mut game: Option<Follower> = None;
    let (mut followed, mut lost) = (false, false);
    for (i, path) in args.images.iter().enumerate() {
        let name = path.display();
        if !path.is_file() {
            return Err(anyhow!("{name}: no such image file"));
        }
        let image = imgcodecs::imread(path, imgcodecs::IMREAD_COLOR).with_context(|| format!("{name}: cannot read the image"))?;
        if image.empty() {
            return Err(anyhow!("{name}: cannot read the image (missing, or not an image format OpenCV reads)"));
        }
        let found = find_board(&image, calibration.as_ref(), args.straightened).with_context(|| format!("{name}"))?;
        let view = |corners: &[[f64; 2]; 4]| squares::rectify(&image, corners, PX_PER_SQUARE).with_context(|| format!("{name}"));
        let mut corners = found.corners;
        if let (Some(outline), Some(side)) = (found.outline, white) {
            corners = corners_with_white_at(side, outline);
        }
        let mut rectified = view(&corners)?;
        let mut known = None;
        if i == 0 {
            let side = initial_position_side(&rectified).with_context(|| format!("{name}"))?;
            match (side, found.outline) {
                (Some(side), Some(outline)) => {
                    white = Some(side);
                    corners = corners_with_white_at(side, outline);
                    rectified = view(&corners)?;
                    known = Some(Board::default());
                }
                (Some(ImageSide::Bottom), None) => known = Some(Board::default()),
                _ => {}
            }
            if let Some(board) = &known {
                reader = Some(SquareReader::learn(&rectified, board).with_context(|| format!("{name}: learning the board's look"))?);
                pieces = learn_pieces(&image, corners, board);
            }
        }
        let reader = reader.get_or_insert_with(SquareReader::typical);
        let read = reader.read(&rectified).with_context(|| format!("{name}"))?;
        let types = match pieces.as_mut() {
            Some(p) if i > 0 => read_pieces(p, &image, corners, &name.to_string()),
            _ => None,
        };
        let mut seen = placement(&read, known.as_ref(), types.as_deref());
        if i == 0 && known.as_ref() == Some(&Board::default()) {
            game = Some(Follower::new(shakmaty::Chess::default(), FOLLOW_PLIES));
        } else if let Some(follower) = game.as_mut() {
            match follow_game(follower, &read, &seen) {
                Some(board) => {
                    seen = board;
                    followed = true;
                }
                // Said once, and only of a game that was being followed: images that were never
                // one game's (photos of several boards) are simply read one by one.
                None if followed && !lost => {
                    lost = true;
                    eprintln!("touchmove: {name}: not a move or two after the image before it (or too many squares misread): its pieces are named by the piece reader (and so are those of any later image the game is not found in)");
                }
                None => {}
            }
        }
        writeln!(out, "{seen}").context("cannot write to standard output")?;
    }
    Ok(())
}

/// Follows the game into the next image (see `rules::follow`): the placement printed is the
/// game's, but where a square was read otherwise: there, what was read.
/// `None` where no line of play fits the image.
fn follow_game(follower: &mut Follower, read: &[SquareObs], seen: &Placement) -> Option<Placement> {
    let mut colours = SeenColours::default();
    for (i, obs) in read.iter().enumerate().take(64) {
        let sq = Square::new(i as u32);
        match obs.state {
            SquareState::White => colours.white.add(sq),
            SquareState::Black => colours.black.add(sq),
            SquareState::Empty => {}
            SquareState::Occluded | SquareState::Piece => continue,
        }
        colours.read.add(sq);
        colours.sure[i] = obs.confidence.clamp(0.0, 1.0);
    }
    let named = |sq: Square| match seen.cell(sq) {
        Cell::Piece(p) => Some(p.role),
        _ => None,
    };
    let (pos, _) = follower.see(&colours, &named)?;
    let board = pos.board();
    let mut cells = [Cell::Unknown; 64];
    for (i, cell) in cells.iter_mut().enumerate() {
        let sq = Square::new(i as u32);
        // A square read otherwise than the game stands is printed as read; one not read (a
        // piece of colour untold, a square that fits no look) as the game has it.
        *cell = match colours.misfits_at(board, sq) {
            Some(true) => seen.cell(sq),
            _ => board.piece_at(sq).map_or(Cell::Empty, Cell::Piece),
        };
    }
    Some(Placement(cells))
}

fn crops(image: &Mat, corners: [[f64; 2]; 4]) -> Result<Vec<f32>, VisionError> {
    let g = BoardGeometry { corners, white: ImageSide::Bottom, h1_light: true };
    PieceCrops::new(&g, image.cols() as f64, image.rows() as f64)?.cut(image)
}

/// The piece reader learned from the first image, or `None` with the reason said once on
/// stderr: the placements still come, with unknown types as pawns.
fn learn_pieces(image: &Mat, corners: [[f64; 2]; 4], known: &Board) -> Option<PieceReader> {
    let learned = crops(image, corners).map_err(|e| e.to_string()).and_then(|c| {
        let model = PieceModel::shipped().map_err(|e| e.to_string())?;
        PieceReader::learn(model, &c, known).map_err(|e| e.to_string())
    });
    match learned {
        Ok(r) => Some(r),
        Err(e) => {
            eprintln!("touchmove: piece types are not read ({e}); pieces of unknown type are printed as pawns");
            None
        }
    }
}

fn read_pieces(reader: &mut PieceReader, image: &Mat, corners: [[f64; 2]; 4], name: &str) -> Option<Vec<PieceGuess>> {
    match crops(image, corners).map_err(|e| e.to_string()).and_then(|c| reader.read(&c).map_err(|e| e.to_string())) {
        Ok(g) => Some(g),
        Err(e) => {
            eprintln!("touchmove: {name}: piece types are not read ({e}); pieces are printed as pawns");
            None
        }
    }
}
