//! `touchmove live`: a game followed as it is played — from a camera, a network stream, or a
//! video file played at its own pace — with the same files as replay, written as they happen,
//! and a live server for the broadcast (PGN, events), the arbiter (viewer page, alerts with
//! their frame) and the operator (corrections behind a token).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use crate::output::pgn::Tags;
use crate::output::serve::new_token;
use crate::pipeline::ReplayJob;
use crate::pipeline::live::{LiveJob, LiveSettings, live, pgn_date_today};
use crate::source::SourceSpec;
use crate::types::ImageSide;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  touchmove live --camera 0 --out out/board1\n  touchmove live --url rtsp://10.0.0.5/stream --serve 0.0.0.0:8080 --white Carlsen --black Nepo\n  touchmove live --url game.mp4 --serve 127.0.0.1:0      (a file, played at its own pace)\n  touchmove live --resume out/board1                      (after a crash: same game, same source)\n\nThe server (loopback unless --serve says otherwise) serves GET /game.pgn (poll it from a\nbroadcast), GET /events (server-sent events of every decision), GET / (the viewer page) and,\nwith the token printed at start, POST /undo, /fen {\"fen\":…}, /adjust {\"side\":…},\n/alerts/N/dismiss and /alerts/N/confirm. Open the page with ?token=TOKEN for the operator's\nbuttons. The first frame must show the board with no hand over it. Ctrl-C (or SIGTERM) ends the
game as the end of a file would: what was held back is decided and the PGN made final.")]
pub struct LiveArgs {
    /// A camera by index (/dev/videoN).
    #[arg(long, value_name = "N", conflicts_with = "url")]
    pub camera: Option<u32>,
    /// A network stream (rtsp://, http://…) or a video file, played at its own pace.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Where the live server listens; port 0 picks a free one. Use 0.0.0.0:PORT to serve the
    /// hall's network.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub serve: String,
    /// No server: files only.
    #[arg(long, conflicts_with = "serve")]
    pub no_serve: bool,
    /// Where to write game.pgn, events.jsonl, decisions.jsonl, operator.jsonl and snapshots/.
    #[arg(long, value_name = "DIR", default_value = "out/live", conflicts_with = "resume")]
    pub out: PathBuf,
    /// Go on with the game in DIR (after a crash or a stop), from the last moment no hand was
    /// over the board; its source and settings are read from DIR/live.json unless given.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// The board's corners and White's side (a file `touchmove calibrate` wrote), and, added by
    /// hand, the clock's buttons in image pixels: "clock": {"white": [x, y], "black": [x, y]}.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// The position the game starts from (default: the initial position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Where the player with White by the pairing sits (7.3).
    #[arg(long, value_name = "EDGE")]
    pub white_side: Option<ImageSide>,
    /// PGN tag: White's name.
    #[arg(long)]
    pub white: Option<String>,
    /// PGN tag: Black's name.
    #[arg(long)]
    pub black: Option<String>,
    /// PGN tag: the event (tournament).
    #[arg(long)]
    pub event: Option<String>,
    /// PGN tag: the site.
    #[arg(long)]
    pub site: Option<String>,
    /// PGN tag: the round.
    #[arg(long)]
    pub round: Option<String>,
    /// PGN tag: the date (default: today, UTC).
    #[arg(long, value_name = "YYYY.MM.DD")]
    pub date: Option<String>,
    /// Frames held for vision; when it falls further behind the oldest is dropped.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub queue: usize,
    /// The operator's token (default: a fresh random one, printed at start).
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
}

fn read_settings(dir: &std::path::Path) -> Result<LiveSettings> {
    let path = dir.join(LiveSettings::FILE);
    let text = std::fs::read_to_string(&path).with_context(|| format!("{}: cannot read; is {} a folder `touchmove live --out` wrote?", path.display(), dir.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not the settings this program writes", path.display()))
}

pub fn run(args: LiveArgs) -> Result<()> {
    let saved = args.resume.as_deref().map(read_settings).transpose()?;
    let input = match (&args.camera, &args.url, &saved) {
        (Some(n), _, _) => SourceSpec::Camera(*n),
        (None, Some(url), _) => SourceSpec::parse(url),
        (None, None, Some(s)) => SourceSpec::parse(&s.input),
        (None, None, None) => bail!("live needs --camera N or --url URL (or --resume DIR)"),
    };
    let fen_text = args.fen.clone().or_else(|| saved.as_ref().map(|s| s.fen.clone()));
    let start = super::rules::start_position(fen_text.as_deref())?;
    let (calibration, clock) = super::replay::calibration(args.calibration.as_deref())?;
    // Each tag as given, else as the resumed game had it; a new game is played today.
    let was = saved.as_ref().map_or_else(|| Tags { date: pgn_date_today(), ..Tags::default() }, |s| s.tags.clone());
    let tag = |given: &Option<String>, was: String| given.clone().unwrap_or(was);
    let tags = Tags {
        event: tag(&args.event, was.event),
        site: tag(&args.site, was.site),
        date: tag(&args.date, was.date),
        round: tag(&args.round, was.round),
        white: tag(&args.white, was.white),
        black: tag(&args.black, was.black),
    };
    let white_sits = args.white_side.or(saved.as_ref().and_then(|s| s.white_sits));
    if args.resume.is_none() {
        let log = args.out.join("events.jsonl");
        if std::fs::metadata(&log).is_ok_and(|m| m.len() > 0) {
            bail!("{}: already holds a game; continue it with --resume {}, or give another --out", args.out.display(), args.out.display());
        }
    }
    // Ctrl-C or SIGTERM: the game is ended as at the input's end (a rook move held back as
    // possible castling decided, the PGN final), not cut off.
    let (stop_tx, stop) = crossbeam_channel::bounded(1);
    ctrlc::set_handler(move || {
        // A second Ctrl-C while the game is being ended: stop at once (the logs are whole).
        if stop_tx.try_send(()).is_err() {
            std::process::exit(130);
        }
    })
    .context("cannot install the Ctrl-C handler")?;
    let game = ReplayJob { input, calibration, clock, start, white_sits, out: args.resume.clone().unwrap_or(args.out.clone()), tags, announced: Vec::new() };
    // The board as given, else as the resumed game found it.
    let settings = LiveSettings { geometry: calibration.or(saved.as_ref().and_then(|s| s.geometry)), ..LiveSettings::of(&game) };
    let job = LiveJob {
        game,
        serve: (!args.no_serve).then(|| args.serve.clone()),
        token: args.token.clone().unwrap_or_else(new_token),
        resume: args.resume.is_some(),
        queue: args.queue,
        stop,
    };
    let summary = live(&job, settings, |ready| {
        if let Some(addr) = ready.addr {
            eprintln!("touchmove: serving http://{addr}/ (game.pgn, events); operator page: http://{addr}/?token={}", ready.token);
        }
        eprintln!("touchmove: following {} into {}", job.game.input, job.game.out.display());
    })?;
    println!("{}: {summary}", job.game.out.display());
    Ok(())
}
