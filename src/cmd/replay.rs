//! `touchmove replay`: a recorded game in, the game record out — `DIR/game.pgn`,
//! `DIR/events.jsonl` (the hands' acts) and `DIR/decisions.jsonl` (moves and breaches), written
//! as they happen, with a progress bar.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};

use crate::output::pgn::Tags;
use crate::pipeline::{ReplayJob, replay};
use crate::vision::geometry::Calibration;
use crate::source::SourceSpec;
use crate::types::{Event, EventKind, EventReader, ImageSide};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  touchmove replay game.mp4 --out out/game\n  touchmove replay game.mp4 --calibration calibration/table3.json --white Carlsen --black Nepo\n  touchmove replay frames/ --fen \"8/4P3/8/8/8/8/k7/4K3 w - - 0 1\"\n  touchmove replay game.mp4 --announced jadoube.jsonl\n\nThe first frame must show the start position with no hand over the board: it is where the\nboard's and the pieces' look is learned.")]
pub struct ReplayArgs {
    /// A video file, a folder of images, or a stream URL.
    #[arg(value_name = "VIDEO")]
    pub video: String,
    /// The board's corners and White's side (a file `touchmove calibrate` wrote), and, added by
    /// hand, the clock's buttons in image pixels: "clock": {"white": [x, y], "black": [x, y]}.
    /// Without it, the board and the clock are looked for in the first frame (footage where the
    /// board fills the frame is read as it is).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// The position the game starts from (default: the initial position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Where to write game.pgn, events.jsonl and decisions.jsonl (default: out/<video name>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Where the player with White by the pairing sits (7.3).
    #[arg(long, value_name = "EDGE")]
    pub white_side: Option<ImageSide>,
    /// "J'adoube" said, which the video cannot carry: a JSONL file of the operator's input events,
    /// one a line in time order, e.g. {"t":12.4,"kind":"adjust_announced","side":"white"}
    /// (t in seconds of the video). Each reaches the rules as the replay passes its time, as a
    /// live operator's POST /adjust does: the player's fingers on a piece after it are adjusting.
    #[arg(long, value_name = "FILE")]
    pub announced: Option<PathBuf>,
    /// PGN tag: White's name.
    #[arg(long, default_value = "?")]
    pub white: String,
    /// PGN tag: Black's name.
    #[arg(long, default_value = "?")]
    pub black: String,
}

/// The board's geometry and the clock's buttons a `--calibration` file gives (none without one).
pub(super) fn calibration(path: Option<&std::path::Path>) -> Result<(Option<crate::types::BoardGeometry>, Option<crate::vision::clock::ClockButtons>)> {
    let Some(path) = path else { return Ok((None, None)) };
    let c = Calibration::load(path)?;
    Ok((Some(c.geometry()), c.clock))
}

/// The announcements a `--announced` file gives, in time order (none without one). Only the
/// operator's input belongs there: any other event is refused, naming its line.
pub(super) fn announced(path: Option<&std::path::Path>) -> Result<Vec<Event>> {
    let Some(path) = path else { return Ok(Vec::new()) };
    let f = std::fs::File::open(path).with_context(|| format!("{}: cannot read the announcements", path.display()))?;
    let mut out = Vec::new();
    for (i, e) in EventReader::new(std::io::BufReader::new(f)).enumerate() {
        let e = e.map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        if !matches!(e.kind, EventKind::AdjustAnnounced { .. }) {
            bail!("{}: event {}: only \"adjust_announced\" (\"j'adoube\" heard) is taken from the operator; the rest is seen in the video", path.display(), i + 1);
        }
        out.push(e);
    }
    Ok(out)
}

pub fn job(args: &ReplayArgs) -> Result<ReplayJob> {
    let start = super::rules::start_position(args.fen.as_deref())?;
    let (calibration, clock) = calibration(args.calibration.as_deref())?;
    let input = SourceSpec::parse(&args.video);
    let stem = std::path::Path::new(&args.video).file_stem().map_or("replay".into(), |s| s.to_string_lossy().into_owned());
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("out").join(stem));
    let tags = Tags { white: args.white.clone(), black: args.black.clone(), ..Tags::default() };
    let announced = announced(args.announced.as_deref())?;
    Ok(ReplayJob { input, calibration, clock, start, white_sits: args.white_side, out, tags, announced })
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let job = job(&args)?;
    let bar = ProgressBar::new(0);
    bar.set_style(ProgressStyle::with_template("replaying {bar:30} {pos}/{len} frames  {per_sec}  eta {eta}").expect("valid template"));
    let summary = replay(&job, |done, total| {
        if let Some(t) = total {
            bar.set_length(t.max(done));
        }
        bar.set_position(done);
    })?;
    bar.finish_and_clear();
    println!("{}: {summary}", job.out.display());
    Ok(())
}
