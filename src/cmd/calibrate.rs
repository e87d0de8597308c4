//! `touchmove calibrate`: finds the board in an image, a video (the first frame where the
//! pieces show White's side) or a camera, writes the calibration file and prints the corners
//! as one JSON line (DESIGN.md, "The contract").

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use opencv::core::Mat;
use opencv::prelude::*;
use opencv::imgcodecs;

use crate::source::{self, Source, SourceSpec};
use crate::types::{BoardGeometry, ImageSide};
use crate::vision::VisionError;
use crate::vision::geometry::{BoardFind, Calibration, WhiteFrom, geometry_from_corners, locate_board, side_name, with_white};

#[derive(Debug, clap::Args)]
#[command(after_help = "What it prints, on one line (the corners of the 8×8 squares, not of the wooden border, \
at a8, h8, h1, a1 in image pixels, and the image edge White sits at):
  {\"corners\":[[142.3,9.5],[504.7,11.2],[506.3,376.6],[137.8,374.3]],\"white\":\"right\"}

What it writes (--out, default calibration/<input name>.json): the same corners, White's edge, whether h1 \
is a light square (7.2.2), the image size, the source, and how White's edge was decided: \"pieces\" (light \
pieces at one end, dark at the other), \"assumed\" (an empty board: of the two edges that put a light square \
at White's right, the one nearer the bottom of the image, else the right; a note says so), \"corners\" \
(--corners) or \"given\" (--white).

The board is found with pieces on it, from overhead or at an angle, with hands in view. From a video the \
first frame where the pieces show White's side is used (frames twice a second, up to 20 s in).

Examples:
  touchmove calibrate table.jpg
  touchmove calibrate game.mp4 --out calibration/hall-b.json
  touchmove calibrate --camera 0
  touchmove calibrate empty-board.png --white left
  touchmove calibrate frame.png --corners 142,10,505,11,506,377,138,374

If it cannot find the board, look at a frame, read the four corners of the playing area off it \
(a8, h8, h1, a1: a1 at White's left) and give them with --corners.")]
pub struct CalibrateArgs {
    /// An image or a video of the board (any format OpenCV reads), a folder of stills or a
    /// stream URL.
    #[arg(value_name = "IMAGE|VIDEO", required_unless_present = "camera", conflicts_with = "camera")]
    pub input: Option<PathBuf>,
    /// Read from camera N (/dev/videoN) instead of a file.
    #[arg(long, value_name = "N")]
    pub camera: Option<u32>,
    /// Where to write the calibration [default: calibration/<input name>.json, or calibration/cameraN.json].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Give the playing area's corners instead of finding them: a8, h8, h1, a1 as
    /// x,y,x,y,x,y,x,y in image pixels (White sits at the a1–h1 edge).
    #[arg(long, value_name = "X,Y,…", value_parser = parse_corners, allow_hyphen_values = true)]
    pub corners: Option<[[f64; 2]; 4]>,
    /// The image edge White sits at, when the pieces do not show it (an empty board) or to
    /// overrule them.
    #[arg(long, value_name = "EDGE")]
    pub white: Option<ImageSide>,
}

fn parse_corners(s: &str) -> std::result::Result<[[f64; 2]; 4], String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>().map_err(|_| format!("\"{}\" is not a number", x.trim())))
        .collect::<std::result::Result<_, _>>()?;
    if v.len() != 8 || v.iter().any(|x| !x.is_finite()) {
        return Err(format!("expected 8 numbers (x,y for a8, h8, h1, a1), got {}", v.len()));
    }
    Ok([[v[0], v[1]], [v[2], v[3]], [v[4], v[5]], [v[6], v[7]]])
}

/// The first frame (of those tried, twice a second for 20 s) where the board is found and the
/// pieces show White's side; failing that, the clearest board found. Frames that do not
/// decode (a damaged file) are skipped.
fn find_in_frames(source: &mut Source, what: &str) -> Result<(Mat, BoardFind)> {
    let stride = (source.fps().unwrap_or(25.0) / 2.0).round().max(1.0) as u64;
    let mut best: Option<(Mat, BoardFind)> = None;
    let mut last_err: Option<VisionError> = None;
    let mut tried = 0;
    for frame in source.by_ref() {
        let Ok(frame) = frame else { continue };
        if frame.index % stride != 0 {
            continue;
        }
        tried += 1;
        match locate_board(&frame.image) {
            Ok(f) if f.white_seen && f.quality >= 0.6 => return Ok((frame.image, f)),
            Ok(f) => {
                if best.as_ref().is_none_or(|(_, b)| (f.white_seen, f.quality) > (b.white_seen, b.quality)) {
                    best = Some((frame.image, f));
                }
            }
            Err(e) => last_err = Some(e),
        }
        if tried >= 40 {
            break;
        }
    }
    best.ok_or_else(|| match last_err {
        Some(e) => anyhow!("{what}: {e} (in any of the {tried} frames tried)"),
        None => anyhow!("{what}: no frame could be read"),
    })
}

/// The first frame that decodes.
fn first_frame(source: &mut Source, what: &str) -> Result<Mat> {
    source.by_ref().find_map(|f| f.ok()).map(|f| f.image).ok_or_else(|| anyhow!("{what}: no frame could be read"))
}

fn is_image(path: &Path) -> bool {
    imgcodecs::have_image_reader(path).unwrap_or(false)
}

pub fn run(args: CalibrateArgs) -> Result<()> {
    // OpenCV's own warnings (a backend that is not there) would add lines to a one-line error.
    opencv::core::set_log_level(opencv::core::LogLevel::LOG_LEVEL_ERROR).ok();
    let (what, mut frames, image) = match (&args.input, args.camera) {
        (Some(path), _) if path.is_file() && is_image(path) => {
            let what = path.display().to_string();
            let m = imgcodecs::imread(path, imgcodecs::IMREAD_COLOR).with_context(|| what.clone())?;
            if m.empty() {
                bail!("{what}: cannot read the image");
            }
            (what, None, Some(m))
        }
        (Some(path), _) => {
            let spec = SourceSpec::parse(&path.to_string_lossy());
            (spec.to_string(), Some(source::open(&spec)?), None)
        }
        (None, Some(n)) => {
            let spec = SourceSpec::Camera(n);
            (spec.to_string(), Some(source::open(&spec)?), None)
        }
        (None, None) => bail!("give an image or video, or --camera N"),
    };

    let (frame, mut geometry, mut white_from) = if let Some(corners) = args.corners {
        let frame = match (image, frames.as_mut()) {
            (Some(m), _) => m,
            (None, Some(src)) => first_frame(src, &what)?,
            (None, None) => unreachable!("an input was opened above"),
        };
        let g = geometry_from_corners(&frame, corners).map_err(|e| anyhow!("--corners: {e}"))?;
        (frame, g, WhiteFrom::Corners)
    } else {
        let (frame, found) = match (image, frames.as_mut()) {
            (Some(m), _) => {
                let f = locate_board(&m).map_err(|e| anyhow!("{what}: {e}"))?;
                (m, f)
            }
            (None, Some(src)) => find_in_frames(src, &what)?,
            (None, None) => unreachable!("an input was opened above"),
        };
        let from = if found.white_seen { WhiteFrom::Pieces } else { WhiteFrom::Assumed };
        (frame, found.geometry, from)
    };
    if let Some(side) = args.white {
        geometry = with_white(&frame, &geometry, side).map_err(|e| anyhow!("--white {}: {e}", side_name(side)))?;
        white_from = WhiteFrom::Given;
    }
    if white_from == WhiteFrom::Assumed {
        eprintln!(
            "touchmove: note: {what}: the pieces do not show which side White sits on; assumed {} (h1 light); give --white EDGE to set it",
            side_name(geometry.white)
        );
    }
    if !geometry.h1_light {
        eprintln!("touchmove: note: {what}: h1 is a dark square: the board is set up wrongly (7.2.2) or --white is wrong");
    }

    let out = args.out.clone().unwrap_or_else(|| default_out(&args));
    let size = [frame.cols() as u32, frame.rows() as u32];
    let cal = Calibration::new(&geometry, size, what, white_from);
    cal.save(&out)?;
    println!("{}", contract_line(&cal.geometry()));
    Ok(())
}

fn default_out(args: &CalibrateArgs) -> PathBuf {
    let stem = match (&args.input, args.camera) {
        (Some(p), _) => p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "board".into()),
        (None, Some(n)) => format!("camera{n}"),
        (None, None) => "board".into(),
    };
    Path::new("calibration").join(format!("{stem}.json"))
}

/// `{"corners":[[x,y],…],"white":"bottom"}`: the line the contract promises.
fn contract_line(g: &BoardGeometry) -> String {
    serde_json::json!({ "corners": g.corners, "white": side_name(g.white) }).to_string()
}
