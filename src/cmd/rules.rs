//! `touchmove rules`: the rules core alone. Reads tracker events (JSONL), prints decisions
//! (JSONL) to stdout as each event is judged, and optionally writes the PGN.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use shakmaty::Chess;

use crate::output::jsonl::JsonlWriter;
use crate::output::pgn::{self, Tags};
use crate::rules::{Rules, RulesConfig};
use crate::types::{Decision, EventReader, ImageSide, parse_position};

#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  touchmove rules --events examples/touch-move.jsonl --pgn game.pgn\n  cat events.jsonl | touchmove rules --events - --fen \"8/4P3/8/8/8/8/k7/4K3 w - - 0 1\"")]
pub struct RulesArgs {
    /// Tracker events, one JSON object a line (`-` reads standard input).
    #[arg(long, value_name = "FILE")]
    pub events: PathBuf,
    /// The position the game starts from (default: the initial position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Where the player who has White by the pairing sits, as seen in the image; with the
    /// `white` field of the first `board` event it tells colours reversed (7.3).
    #[arg(long, value_name = "EDGE")]
    pub white_side: Option<ImageSide>,
    /// Also write the game as PGN to this file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// PGN tag: White's name.
    #[arg(long, default_value = "?")]
    pub white: String,
    /// PGN tag: Black's name.
    #[arg(long, default_value = "?")]
    pub black: String,
    /// PGN tag: the event.
    #[arg(long, default_value = "?")]
    pub event: String,
}

/// The position a game starts from: the `--fen` given, else the initial position.
pub fn start_position(fen: Option<&str>) -> Result<Chess> {
    fen.map_or(Ok(Chess::default()), |text| parse_position(text).map_err(|e| anyhow::anyhow!("--fen {e}")))
}

pub fn run(args: RulesArgs) -> Result<()> {
    let start = start_position(args.fen.as_deref())?;
    let input: Box<dyn BufRead> = if args.events.as_os_str() == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        let file = File::open(&args.events).with_context(|| format!("{}: cannot open the events file", args.events.display()))?;
        Box::new(BufReader::new(file))
    };
    let name = if args.events.as_os_str() == "-" { "<stdin>".to_owned() } else { args.events.display().to_string() };

    let mut rules = Rules::new(RulesConfig { start: start.clone(), white_sits: args.white_side });
    let mut out = JsonlWriter::new(io::stdout().lock());
    let mut all: Vec<Decision> = Vec::new();
    let mut emit = |decisions: Vec<Decision>, all: &mut Vec<Decision>| -> Result<()> {
        for d in decisions {
            out.line(&d.to_json()).context("cannot write to standard output")?;
            all.push(d);
        }
        Ok(())
    };
    for event in EventReader::new(input) {
        match event {
            Ok(event) => emit(rules.apply(&event), &mut all)?,
            Err(e) => {
                // What was decided before the bad line stays printed; the PGN is still written.
                write_pgn(&args, rules.start(), &all)?;
                bail!("{name}: {e}");
            }
        }
    }
    emit(rules.finish(), &mut all)?;
    write_pgn(&args, rules.start(), &all)
}

fn write_pgn(args: &RulesArgs, start: &Chess, decisions: &[Decision]) -> Result<()> {
    let Some(path) = &args.pgn else { return Ok(()) };
    let tags = Tags { white: args.white.clone(), black: args.black.clone(), event: args.event.clone(), ..Tags::default() };
    let text = pgn::write(&tags, start, decisions);
    let mut file = File::create(path).with_context(|| format!("{}: cannot create the PGN file", path.display()))?;
    file.write_all(text.as_bytes()).with_context(|| format!("{}: cannot write the PGN file", path.display()))
}
