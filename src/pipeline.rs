//! Threads and channels: a recorded game in, the game record out. A decoding thread feeds
//! frames through a bounded channel (replay drops nothing); vision, the tracker and the rules
//! run in frame order; every event and decision is written and flushed as it happens, and the
//! PGN is rewritten after each move, so a crash loses nothing already decided.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use shakmaty::{Chess, Position};

use crate::output::jsonl::JsonlWriter;
use crate::output::pgn::{self, Tags};
use crate::rules::{Rules, RulesConfig};
use crate::source::{self, Frame, FrameProblem, SourceSpec};
use crate::tracker::{Tracker, TrackerConfig};
use crate::types::{BoardGeometry, Decision, DecisionKind, Event, EventKind, ImageSide};
use crate::vision::frame::Vision;

/// A replay to run.
pub struct ReplayJob {
    pub input: SourceSpec,
    pub calibration: Option<BoardGeometry>,
    pub start: Chess,
    pub white_sits: Option<ImageSide>,
    pub out: PathBuf,
    pub tags: Tags,
}

/// What a replay did.
#[derive(Debug, Clone)]
pub struct Summary {
    pub frames: u64,
    pub bad_frames: u64,
    pub moves: usize,
    pub violations: usize,
    pub seconds: f64,
}

struct Outputs {
    events: JsonlWriter<BufWriter<File>>,
    decisions: JsonlWriter<BufWriter<File>>,
    all: Vec<Decision>,
    pgn: PathBuf,
}

impl Outputs {
    fn create(dir: &Path) -> Result<Outputs> {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the output folder", dir.display()))?;
        let open = |name: &str| -> Result<JsonlWriter<BufWriter<File>>> {
            let path = dir.join(name);
            let f = File::create(&path).with_context(|| format!("{}: cannot create", path.display()))?;
            Ok(JsonlWriter::new(BufWriter::new(f)))
        };
        Ok(Outputs { events: open("events.jsonl")?, decisions: open("decisions.jsonl")?, all: Vec::new(), pgn: dir.join("game.pgn") })
    }

    fn write_pgn(&self, tags: &Tags, start: &Chess) -> Result<()> {
        let text = pgn::write(tags, start, &self.all);
        let tmp = self.pgn.with_extension("pgn.tmp");
        std::fs::write(&tmp, text).with_context(|| format!("{}: cannot write", tmp.display()))?;
        std::fs::rename(&tmp, &self.pgn).with_context(|| format!("{}: cannot write", self.pgn.display()))
    }
}

/// Judges events in order, writing them and what they lead to.
fn judge(events: Vec<Event>, rules: &mut Rules, out: &mut Outputs, job: &ReplayJob) -> Result<()> {
    let mut moved = false;
    for e in events {
        out.events.line(&e.to_json())?;
        for d in rules.apply(&e) {
            out.decisions.line(&d.to_json())?;
            moved |= matches!(d.kind, DecisionKind::Move { .. });
            out.all.push(d);
        }
    }
    if moved {
        out.write_pgn(&job.tags, rules.start())?;
    }
    Ok(())
}

/// Replays a recorded game into `job.out`; `progress(frames done, frames expected)` after each.
pub fn replay(job: &ReplayJob, mut progress: impl FnMut(u64, Option<u64>)) -> Result<Summary> {
    let started = Instant::now();
    // The source is opened on the decoding thread (a camera cannot change threads); it says
    // first whether it opened and how many frames it expects.
    let (opened_tx, opened_rx) = crossbeam_channel::bounded(1);
    let (tx, rx) = crossbeam_channel::bounded::<Result<Frame, FrameProblem>>(8);
    let input = job.input.clone();
    let decoder = std::thread::spawn(move || {
        let source = match source::open(&input) {
            Ok(s) => s,
            Err(e) => {
                let _ = opened_tx.send(Err(e));
                return;
            }
        };
        let _ = opened_tx.send(Ok(source.frame_count()));
        for item in source {
            if tx.send(item).is_err() {
                break;
            }
        }
    });
    let expected = match opened_rx.recv() {
        Ok(Ok(n)) => n,
        Ok(Err(e)) => return Err(e.into()),
        Err(_) => bail!("{}: the decoding thread stopped before opening the input", job.input),
    };
    let mut out = Outputs::create(&job.out)?;
    let mut rules = Rules::new(RulesConfig { start: job.start.clone(), white_sits: job.white_sits });
    let mut tracker = Tracker::new(TrackerConfig { start: job.start.board().clone(), ..TrackerConfig::default() });
    let mut vision: Option<Vision> = None;
    let (mut frames, mut bad) = (0u64, 0u64);
    for item in rx {
        let frame = match item {
            Ok(f) => f,
            Err(problem) => {
                bad += 1;
                eprintln!("touchmove: {}: {problem}; skipped", job.input);
                continue;
            }
        };
        frames += 1;
        let v = match vision.as_mut() {
            Some(v) => v,
            None => {
                let v = Vision::start(&frame.image, job.calibration, job.start.board())
                    .with_context(|| format!("{}: cannot find the board in the first frame (give --calibration)", job.input))?;
                vision.insert(v)
            }
        };
        let obs = v.observe(frame.index, frame.t, &frame.image)?;
        let mut events = tracker.observe(&obs);
        // The first board seen carries where White sits and the board's orientation (7.2.2, 7.3).
        for e in &mut events {
            if let EventKind::Board { white, h1_light, .. } = &mut e.kind {
                if white.is_none() {
                    *white = Some(v.geometry.white);
                    *h1_light = Some(v.geometry.h1_light);
                }
            }
        }
        judge(events, &mut rules, &mut out, job)?;
        progress(frames, expected);
    }
    decoder.join().map_err(|_| anyhow::anyhow!("the decoding thread failed"))?;
    if frames == 0 {
        bail!("{}: no frame could be read", job.input);
    }
    let rest = tracker.finish();
    judge(rest, &mut rules, &mut out, job)?;
    for d in rules.finish() {
        out.decisions.line(&d.to_json())?;
        out.all.push(d);
    }
    out.write_pgn(&job.tags, rules.start())?;
    let moves = out.all.iter().filter(|d| matches!(d.kind, DecisionKind::Move { .. })).count();
    let violations = out.all.iter().filter(|d| d.violation().is_some()).count();
    Ok(Summary { frames, bad_frames: bad, moves, violations, seconds: started.elapsed().as_secs_f64() })
}

/// Decoding alone, for the bench: frames read and seconds taken.
pub fn decode_only(input: &SourceSpec) -> Result<(u64, f64)> {
    let started = Instant::now();
    let source = source::open(input)?;
    let n = source.filter(|f| f.is_ok()).count() as u64;
    Ok((n, started.elapsed().as_secs_f64()))
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} frames ({} unreadable) in {:.1} s, {:.0} frames/s; {} moves, {} violations", self.frames, self.bad_frames, self.seconds, self.frames as f64 / self.seconds.max(1e-9), self.moves, self.violations)
    }
}
