//! Live: a camera, a stream or a file played at its own pace, judged as it plays. Capture runs
//! on its own thread ([`super::capture`]); this loop takes frames and operator corrections as
//! they come, runs vision, the tracker and the rules, logs through the [`Session`] and fills
//! the server's [`Feed`]. A lost source is retried with the game kept; a killed process is
//! resumed from its logs (`--resume`), from the last moment no hand was over the board.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossbeam_channel::{Receiver, select};
use opencv::core::{Mat, MatTraitConst, Vector};
use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::{Board, EnPassantMode, Position};

use super::capture::{Capture, CaptureConfig, Captured};
use super::cpu::cpu_seconds;
use super::ReplayJob;
use super::session::{Published, Refused, Session, snapshot_name};
use crate::output::pgn::Tags;
use crate::output::serve::{Feed, OperatorRequest, Reply, Server};
use crate::output::write_whole;
use crate::source::{Frame, SourceSpec};
use crate::tracker::{Tracker, TrackerConfig};
use crate::types::{BoardGeometry, DecisionKind, ImageSide};
use crate::vision::frame::Vision;

/// A live game to run: the game as for a replay, and how to serve it.
pub struct LiveJob {
    pub game: ReplayJob,
    /// Where to serve the feed (`None`: no server).
    pub serve: Option<String>,
    /// The operator's token for corrections.
    pub token: String,
    /// Go on with the game in `out` from its logs.
    pub resume: bool,
    /// Frames held for vision before the oldest is dropped.
    pub queue: usize,
    /// Ends the game when something arrives (Ctrl-C): decided and written as at the input's end.
    pub stop: Receiver<()>,
}

/// What a live run did.
#[derive(Debug, Clone, Default)]
pub struct LiveSummary {
    pub frames: u64,
    pub dropped: u64,
    pub bad_frames: u64,
    pub moves: usize,
    pub violations: usize,
    /// For each move decided while playing: seconds from its frame's due time to its decision.
    pub delays: Vec<f64>,
    pub cpu_seconds: f64,
    pub seconds: f64,
}

/// The live settings a resumed game reads back (`DIR/live.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LiveSettings {
    pub input: String,
    pub fen: String,
    pub white_sits: Option<ImageSide>,
    /// The PGN's roster tags.
    pub tags: Tags,
    /// The board as found at the start, so a resumed game reads the same squares.
    pub geometry: Option<BoardGeometry>,
}

impl LiveSettings {
    pub const FILE: &'static str = "live.json";

    /// The settings of a game about to be followed, as a resumed game reads them back (the
    /// source spelt so that it parses again: `camera:N`).
    pub fn of(game: &ReplayJob) -> LiveSettings {
        LiveSettings {
            input: match &game.input {
                SourceSpec::Camera(n) => format!("camera:{n}"),
                other => other.to_string(),
            },
            fen: Fen::from_position(&game.start, EnPassantMode::Legal).to_string(),
            white_sits: game.white_sits,
            tags: game.tags.clone(),
            geometry: game.calibration,
        }
    }
}

/// Where the server listens, once it does.
pub struct Ready {
    pub addr: Option<SocketAddr>,
    pub token: String,
}

/// Runs the game until the input ends (a file) or the process is stopped.
pub fn live(job: &LiveJob, settings: LiveSettings, on_ready: impl FnOnce(&Ready)) -> Result<LiveSummary> {
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let (mut session, checkpoint) = if job.resume {
        let (s, cp) = Session::resume(&job.game.out, job.game.tags.clone(), job.game.start.clone(), job.game.white_sits)?;
        (s, Some(cp))
    } else {
        (Session::create(&job.game.out, job.game.tags.clone(), job.game.start.clone(), job.game.white_sits)?, None)
    };
    let mut settings = settings;
    write_settings(&job.game.out, &settings)?;
    std::fs::create_dir_all(job.game.out.join("snapshots")).with_context(|| format!("{}: cannot create", job.game.out.join("snapshots").display()))?;

    let feed = Feed::new();
    feed.set_game(session.pgn(), session.state_json());
    let (commands_tx, commands) = crossbeam_channel::bounded::<OperatorRequest>(16);
    let server = match &job.serve {
        Some(addr) => Some(Server::start(addr, job.token.clone(), feed.clone(), commands_tx, job.game.out.join("snapshots"))?),
        None => {
            drop(commands_tx);
            None
        }
    };
    // A file goes on from the checkpoint; a camera or stream simply goes on (capture skips only
    // in a file).
    let skip_until = checkpoint.filter(|cp| cp.events > 0).map(|cp| cp.t);
    let capture = Capture::start(CaptureConfig { input: job.game.input.clone(), queue: job.queue, skip_until, retry: Duration::from_secs(1) })?;
    feed.source(serde_json::json!({"status": "playing", "input": job.game.input.to_string()}));
    on_ready(&Ready { addr: server.as_ref().map(Server::addr), token: job.token.clone() });

    let mut tracker = Tracker::new(TrackerConfig { start: session.board(), first_hand: session.next_hand(), to_move: session.position().turn(), ..TrackerConfig::default() });
    let mut vision: Option<Vision> = None;
    let mut summary = LiveSummary::default();
    // The wall time a frame's time was due at: the first frame's arrival anchors the clock.
    let mut anchor: Option<(Instant, f64)> = None;
    let mut last = (0.0, None);
    // The time between the last two frames seen (for holding the last picture at the end).
    let mut step = f64::NAN;
    let mut image = Mat::default();
    let mut frames_open = true;
    let mut search = Search::new();
    let commands: Receiver<OperatorRequest> = commands;
    while frames_open {
        select! {
            recv(capture.frames) -> item => {
                let Ok(item) = item else { break };
                match item {
                    Captured::Frame(frame) => {
                        summary.frames += 1;
                        let (wall, t0) = *anchor.get_or_insert_with(|| {
                            // The clock that relates the source's times to the wall: a client
                            // measures how long after its frame each decision reached it.
                            let unix = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64());
                            feed.source(serde_json::json!({"status": "playing", "input": job.game.input.to_string(), "clock": {"t": frame.t, "unix": unix}}));
                            (Instant::now(), frame.t)
                        });
                        let (v, to_see) = match vision.as_mut() {
                            Some(v) => (v, vec![frame]),
                            None => {
                                let geometry = job.game.calibration.or(settings.geometry);
                                let Some((v, pair)) = search.offer(frame, geometry, job.game.clock, &session.board(), &job.game.input, &feed)? else { continue };
                                if settings.geometry.is_none() {
                                    settings.geometry = Some(v.geometry);
                                    write_settings(&job.game.out, &settings)?;
                                }
                                (vision.insert(v), Vec::from(pair))
                            }
                        };
                        let mut acted = false;
                        for frame in to_see {
                            let events = super::see(v, &mut tracker, &frame)?;
                            acted |= !events.is_empty();
                            image = frame.image;
                            for e in events {
                                let published = session.apply(e)?;
                                super::heed(&published, &session, &mut tracker);
                                let moves = publish(&mut session, &feed, &published, &image)?;
                                for t in moves {
                                    let due = wall + Duration::from_secs_f64((t - t0).max(0.0));
                                    summary.delays.push(Instant::now().saturating_duration_since(due).as_secs_f64());
                                }
                            }
                            step = frame.t - last.0;
                            last = (frame.t, Some(frame.index));
                        }
                        // The feed already has what the decisions changed (publish); the
                        // checkpoint needs a moment with no hand over the board.
                        if acted && session.quiet() {
                            session.checkpoint(last.0, last.1)?;
                        }
                    }
                    Captured::Problem(p) => {
                        summary.bad_frames += 1;
                        eprintln!("touchmove: {}: {p}; skipped", job.game.input);
                    }
                    Captured::Lost(why) => {
                        eprintln!("touchmove: {why}; the game is kept, retrying");
                        feed.source(serde_json::json!({"status": "lost", "detail": why, "dropped": capture.dropped()}));
                    }
                    Captured::Back => {
                        eprintln!("touchmove: {}: back", job.game.input);
                        feed.source(serde_json::json!({"status": "playing", "input": job.game.input.to_string(), "dropped": capture.dropped()}));
                    }
                    Captured::End => frames_open = false,
                }
            }
            recv(job.stop) -> _ => {
                eprintln!("touchmove: stopping: the game so far is decided and written");
                frames_open = false;
            }
            recv(commands) -> request => {
                let Ok(request) = request else { continue };
                let reply = match session.correct(&request.correction)? {
                    Ok(done) => {
                        if let Some(board) = &done.board {
                            tracker.set_board(board);
                        }
                        publish(&mut session, &feed, &done.published, &image)?;
                        Reply::Done(serde_json::json!({"ok": true, "decisions": done.published.iter().map(|p| p.id).collect::<Vec<_>>()}))
                    }
                    Err(Refused::BadRequest(why)) => Reply::BadRequest(why),
                    Err(Refused::Conflict(why)) => Reply::Conflict(why),
                };
                let _ = request.reply.send(reply);
            }
        }
    }
    if vision.is_none() && summary.frames > 0 {
        let why = search.why.unwrap_or_default();
        anyhow::bail!("{}: the board was never found in {} frames ({why}); give --calibration", job.game.input, summary.frames);
    }
    // The last picture held a moment, as replay holds it (see `hold_last`).
    let mut rest = Vec::new();
    if let (Some(v), (t, Some(index))) = (vision.as_mut(), last) {
        rest = super::hold_last(v, &mut tracker, &crate::source::Frame { index, t, image: image.clone() }, step)?;
    }
    rest.extend(tracker.finish());
    for e in rest {
        let published = session.apply(e)?;
        super::heed(&published, &session, &mut tracker);
        publish(&mut session, &feed, &published, &image)?;
    }
    let published = session.finish()?;
    publish(&mut session, &feed, &published, &image)?;
    if session.quiet() {
        session.checkpoint(last.0, last.1)?;
    }
    summary.dropped = capture.dropped();
    drop(capture);
    feed.source(serde_json::json!({"status": "ended", "dropped": summary.dropped}));
    feed.end();
    // Streams get their end before the server goes.
    std::thread::sleep(Duration::from_millis(100));
    drop(server);
    let (moves, violations) = session.counts();
    summary.moves = moves;
    summary.violations = violations;
    summary.seconds = started.elapsed().as_secs_f64();
    summary.cpu_seconds = cpu_seconds() - cpu_start;
    Ok(summary)
}

/// Until vision starts: the opening frames held back while the view settles and, while the
/// board is not in view, why not and when to look again.
struct Search {
    opening: super::Opening,
    why: Option<String>,
    next_look: f64,
}

impl Search {
    fn new() -> Search {
        Search { opening: super::Opening::default(), why: None, next_look: f64::NEG_INFINITY }
    }

    /// Vision started on the settled opening, with its two frames to see; none while the view
    /// settles or the board is not found (said once, on the feed too).
    fn offer(&mut self, frame: Frame, geometry: Option<BoardGeometry>, clock: Option<crate::vision::clock::ClockButtons>, board: &Board, input: &SourceSpec, feed: &Feed) -> Result<Option<(Vision, [Frame; 2])>> {
        // A camera may show nothing useful at first (exposure settling, the board being set
        // up): the board is looked for again every half second.
        if frame.t < self.next_look {
            return Ok(None);
        }
        let Some(pair) = self.opening.offer(frame)? else { return Ok(None) };
        match Vision::start(&pair[0].image, geometry, board) {
            Ok(mut v) => {
                super::set_up(&mut v, &pair[0].image, clock, input)?;
                if let Some(why) = self.why.take() {
                    eprintln!("touchmove: {input}: the board is found; following the game (it was not in view: {why})");
                    feed.source(serde_json::json!({"status": "playing", "input": input.to_string()}));
                }
                Ok(Some((v, pair)))
            }
            Err(e) => {
                if self.why.is_none() {
                    eprintln!("touchmove: {input}: {e}; looking again every half second (give --calibration if it never shows)");
                    feed.source(serde_json::json!({"status": "looking for the board", "detail": e.to_string()}));
                }
                self.why = Some(e.to_string());
                self.next_look = pair[1].t + 0.5;
                self.opening.reset();
                Ok(None)
            }
        }
    }
}

/// Sends decisions to the feed, saving the frame of each violation; returns the times of the
/// moves among them. The game's PGN and state are updated first, so a client that fetches them
/// on hearing of a decision finds it there.
fn publish(session: &mut Session, feed: &Arc<Feed>, published: &[Published], image: &Mat) -> Result<Vec<f64>> {
    let mut moves = Vec::new();
    if published.is_empty() {
        return Ok(moves);
    }
    for p in published {
        match p.decision.kind {
            DecisionKind::Move { .. } => moves.push(p.decision.t),
            DecisionKind::Violation { .. } if !image.empty() => {
                let name = snapshot_name(p.id);
                let path = session.dir().join("snapshots").join(&name);
                let params = Vector::<i32>::from_slice(&[opencv::imgcodecs::IMWRITE_JPEG_QUALITY, 80]);
                match opencv::imgcodecs::imwrite(&path, image, &params) {
                    Ok(true) => session.set_snapshot(p.id, name),
                    _ => eprintln!("touchmove: {}: cannot write the alert's frame", path.display()),
                }
            }
            _ => {}
        }
    }
    feed.set_game(session.pgn(), session.state_json());
    for p in published {
        feed.decision(p.id, &p.to_json());
    }
    Ok(moves)
}

fn write_settings(dir: &std::path::Path, settings: &LiveSettings) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the output folder", dir.display()))?;
    write_whole(&dir.join(LiveSettings::FILE), serde_json::to_string_pretty(settings)?)
}

impl std::fmt::Display for LiveSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} frames ({} dropped, {} unreadable) in {:.1} s; {} moves, {} violations", self.frames, self.dropped, self.bad_frames, self.seconds, self.moves, self.violations)?;
        if let Some(m) = median(&self.delays) {
            write!(f, "; moves decided a median {:.0} ms after their frame", m * 1000.0)?;
        }
        write!(f, "; CPU {:.0}% of one core", 100.0 * self.cpu_seconds / self.seconds.max(1e-9))
    }
}

/// The median of some values (`None` for none).
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}

/// Today's date as PGN writes it (`2026.11.30`, UTC): a live game is played today.
pub fn pgn_date_today() -> String {
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_1970_are_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(pgn_date_today().len(), 10);
    }

    #[test]
    fn the_median_is_the_middle_value() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[f64::NAN, 5.0]), Some(5.0));
    }
}
