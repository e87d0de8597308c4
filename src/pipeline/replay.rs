//! Replay: a recorded game in, the game record out. A decoding thread feeds frames through
//! bounded channels (replay drops nothing) to a thread that works out ahead the part of vision
//! that needs no earlier frame; the rest of vision, the tracker and the rules run in frame
//! order; every event and decision is written and flushed as it happens, and the PGN is
//! rewritten after each move, so a crash loses nothing already decided.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use shakmaty::{Chess, Position};

use super::cpu::{cpu_seconds, thread_cpu_seconds};
use super::session::Session;
use crate::output::pgn::Tags;
use crate::source::{self, Frame, FrameProblem, SourceSpec};
use crate::tracker::{Tracker, TrackerConfig};
use crate::types::{BoardGeometry, DueEvents, Event, ImageSide};
use crate::vision::VisionError;
use crate::vision::frame::{Prepared, Preparer, Vision};
use crossbeam_channel::{Receiver, Sender};

/// A replay to run.
pub struct ReplayJob {
    pub input: SourceSpec,
    pub calibration: Option<BoardGeometry>,
    /// The clock's buttons, where the calibration gives them.
    pub clock: Option<crate::vision::clock::ClockButtons>,
    pub start: Chess,
    pub white_sits: Option<ImageSide>,
    pub out: PathBuf,
    pub tags: Tags,
    /// The operator's input the video cannot carry ("j'adoube" heard), in time order: each is
    /// judged once the frames reach its time.
    pub announced: Vec<Event>,
}

/// What a replay did.
#[derive(Debug, Clone)]
pub struct Summary {
    pub frames: u64,
    pub bad_frames: u64,
    pub moves: usize,
    pub violations: usize,
    pub seconds: f64,
    /// CPU time each stage's thread used, and the whole process (see [`Cpu`]).
    pub cpu: Cpu,
}

/// CPU seconds a replay used: each stage's own thread (decoding; preparing ahead; setting up,
/// following frame by frame, tracking and judging), and the whole process (which also counts
/// the decoder's helper threads).
#[derive(Debug, Clone, Copy, Default)]
pub struct Cpu {
    pub decoding: f64,
    pub preparing: f64,
    pub following: f64,
    pub total: f64,
}

/// Judges events in order; the session logs them and what they lead to.
fn judge(events: Vec<Event>, session: &mut Session, tracker: &mut Tracker) -> Result<()> {
    for e in events {
        let published = session.apply(e)?;
        super::heed(&published, session, tracker);
    }
    Ok(())
}

/// Replays a recorded game into `job.out`; `progress(frames done, frames expected)` after each.
pub fn replay(job: &ReplayJob, mut progress: impl FnMut(u64, Option<u64>)) -> Result<Summary> {
    let started = Instant::now();
    let (cpu_at_start, following_at_start) = (cpu_seconds(), thread_cpu_seconds());
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
                return 0.0;
            }
        };
        let _ = opened_tx.send(Ok(source.frame_count()));
        for item in source {
            if tx.send(item).is_err() {
                break;
            }
        }
        thread_cpu_seconds()
    });
    // Vision's part that needs no earlier frame is worked out on a thread of its own, ahead of
    // the rest, once vision has started and sent its preparer.
    let (preparer_tx, preparer_rx) = crossbeam_channel::bounded::<Preparer>(1);
    let (staged_tx, staged) = crossbeam_channel::bounded::<Decoded>(8);
    let preparing = std::thread::spawn(move || prepare_ahead(rx, preparer_rx, staged_tx));
    let expected = match opened_rx.recv() {
        Ok(Ok(n)) => n,
        Ok(Err(e)) => return Err(e.into()),
        Err(_) => bail!("{}: the decoding thread stopped before opening the input", job.input),
    };
    let mut session = Session::create(&job.out, job.tags.clone(), job.start.clone(), job.white_sits)?;
    let mut tracker = Tracker::new(TrackerConfig { start: job.start.board().clone(), to_move: job.start.turn(), ..TrackerConfig::default() });
    let mut vision: Option<Vision> = None;
    let mut opening = super::Opening::default();
    let (mut frames, mut bad) = (0u64, 0u64);
    // The last frame seen, and the time between it and the one before.
    let mut last: Option<(Frame, f64)> = None;
    let mut preparer_tx = Some(preparer_tx);
    let mut announced = DueEvents::new(job.announced.iter().cloned());
    for item in staged {
        let (frame, prepared) = match item {
            Ok(f) => f,
            Err(problem) => {
                bad += 1;
                eprintln!("touchmove: {}: {problem}; skipped", job.input);
                continue;
            }
        };
        frames += 1;
        progress(frames, expected);
        let (v, frame, prepared) = match vision.as_mut() {
            Some(v) => (v, frame, prepared),
            // Until the view settles, frames are held back; then the game starts from the one
            // held, seen first.
            None => {
                let Some([first, next]) = opening.offer(frame)? else { continue };
                let v = vision.insert(start(job, &first)?);
                if let Some(tx) = preparer_tx.take() {
                    let _ = tx.send(v.preparer());
                }
                judge(super::see(v, &mut tracker, &first)?, &mut session, &mut tracker)?;
                (v, next, None)
            }
        };
        let prepared = prepared.transpose()?;
        judge(super::see_prepared(v, &mut tracker, &frame, prepared)?, &mut session, &mut tracker)?;
        judge(announced.due(frame.t), &mut session, &mut tracker)?;
        let step = last.as_ref().map_or(f64::NAN, |(f, _)| frame.t - f.t);
        last = Some((frame, step));
    }
    let decoding = decoder.join().map_err(|_| anyhow::anyhow!("the decoding thread failed"))?;
    let preparing = preparing.join().map_err(|_| anyhow::anyhow!("the thread preparing frames failed"))?;
    if frames == 0 {
        bail!("{}: no frame could be read", job.input);
    }
    if let Some(frame) = opening.rest() {
        let v = vision.insert(start(job, &frame)?);
        judge(super::see(v, &mut tracker, &frame)?, &mut session, &mut tracker)?;
    }
    if let (Some(v), Some((frame, step))) = (vision.as_mut(), last.as_ref()) {
        judge(super::hold_last(v, &mut tracker, frame, *step)?, &mut session, &mut tracker)?;
    }
    let rest = tracker.finish();
    judge(rest, &mut session, &mut tracker)?;
    judge(announced.rest(), &mut session, &mut tracker)?;
    session.finish()?;
    let (moves, violations) = session.counts();
    let cpu = Cpu { decoding, preparing, following: thread_cpu_seconds() - following_at_start, total: cpu_seconds() - cpu_at_start };
    Ok(Summary { frames, bad_frames: bad, moves, violations, seconds: started.elapsed().as_secs_f64(), cpu })
}

/// A decoded frame, with vision's part that needs no earlier frame worked out where it could
/// be (vision had started); or why a frame could not be decoded.
type Decoded = Result<(Frame, Option<Result<Prepared, VisionError>>), FrameProblem>;

/// Passes frames on in order, each prepared for vision once a preparer has come. A frame that
/// comes before it goes on as it is, to be seen whole.
/// The thread's CPU seconds when the frames have run out.
fn prepare_ahead(frames: Receiver<Result<Frame, FrameProblem>>, preparer: Receiver<Preparer>, out: Sender<Decoded>) -> f64 {
    let mut ready: Option<Preparer> = None;
    for item in frames {
        if ready.is_none() {
            ready = preparer.try_recv().ok();
        }
        let staged = item.map(|f| {
            let prepared = ready.as_ref().map(|p| p.prepare(f.index, f.t, &f.image));
            (f, prepared)
        });
        if out.send(staged).is_err() {
            break;
        }
    }
    thread_cpu_seconds()
}

/// Vision set up on the frame the game starts from.
fn start(job: &ReplayJob, frame: &Frame) -> Result<Vision> {
    let mut v = Vision::start(&frame.image, job.calibration, job.start.board())
        .with_context(|| format!("{}: cannot find the board in the first frame (give --calibration)", job.input))?;
    super::set_up(&mut v, &frame.image, job.clock, &job.input)?;
    Ok(v)
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
