//! Live capture: a thread that reads the source at its own pace into a small queue which, when
//! vision falls behind, drops its oldest frame (and counts it) rather than fall further behind.
//! A camera or network stream that fails is reopened until the game ends; a file played "live"
//! is paced by its own timestamps and ends the game at its end.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use crossbeam_channel::{Receiver, Sender, TrySendError};

use crate::source::{self, Frame, FrameProblem, SourceError, SourceSpec};

/// What the capture thread passes on.
#[derive(Debug)]
pub enum Captured {
    Frame(Frame),
    Problem(FrameProblem),
    /// The source failed or ended (a camera unplugged, a stream cut): why, and that it is
    /// being reopened.
    Lost(String),
    /// The source is back.
    Back,
    /// The input has ended (a file): no more frames.
    End,
}

/// How to capture.
#[derive(Debug, Clone)]
pub struct CaptureConfig {
    pub input: SourceSpec,
    /// Frames held for vision; beyond that the oldest is dropped.
    pub queue: usize,
    /// A file's frames at or before this time are skipped (a resumed game), unpaced; a live
    /// source has nothing to skip.
    pub skip_until: Option<f64>,
    /// How long to wait before reopening a lost source.
    pub retry: Duration,
}

/// A running capture thread.
pub struct Capture {
    pub frames: Receiver<Captured>,
    dropped: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Capture {
    /// Opens the source on its own thread (a camera cannot change threads) and starts reading.
    /// A source that cannot be opened at all is an error here; one lost later is retried.
    pub fn start(cfg: CaptureConfig) -> Result<Capture> {
        let (tx, rx) = crossbeam_channel::bounded(cfg.queue.max(1));
        let (opened_tx, opened_rx) = crossbeam_channel::bounded::<Result<(), SourceError>>(1);
        let dropped = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let queue = Queue { tx, rx: rx.clone(), dropped: dropped.clone() };
        let stop_flag = stop.clone();
        let thread = std::thread::Builder::new().name("capture".into()).spawn(move || run(cfg, queue, stop_flag, opened_tx))?;
        match opened_rx.recv() {
            Ok(Ok(())) => Ok(Capture { frames: rx, dropped, stop, thread: Some(thread) }),
            Ok(Err(e)) => {
                let _ = thread.join();
                Err(e.into())
            }
            Err(_) => Err(anyhow!("the capture thread stopped before opening the input")),
        }
    }

    /// Frames dropped so far because vision was behind.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Unblock a send: nobody reads any more.
        while self.frames.try_recv().is_ok() {}
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The bounded queue, seen from the producer: a full queue loses its oldest frame.
struct Queue {
    tx: Sender<Captured>,
    rx: Receiver<Captured>,
    dropped: Arc<AtomicU64>,
}

impl Queue {
    /// Returns false once the consumer is gone.
    fn push(&self, mut item: Captured) -> bool {
        loop {
            match self.tx.try_send(item) {
                Ok(()) => return true,
                Err(TrySendError::Disconnected(_)) => return false,
                Err(TrySendError::Full(back)) => {
                    item = back;
                    if let Ok(old) = self.rx.try_recv() {
                        if matches!(old, Captured::Frame(_) | Captured::Problem(_)) {
                            self.dropped.fetch_add(1, Ordering::Relaxed);
                        } else {
                            // A notice is worth more than a frame: keep it, lose this frame.
                            let keep = std::mem::replace(&mut item, old);
                            if matches!(keep, Captured::Frame(_) | Captured::Problem(_)) {
                                self.dropped.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                }
            }
        }
    }
}

fn run(cfg: CaptureConfig, queue: Queue, stop: Arc<AtomicBool>, opened: Sender<Result<(), SourceError>>) {
    let started = Instant::now();
    let mut first = true;
    let mut index_base = 0u64;
    // A file is paced from its first frame read; a live source is stamped on arrival, on one
    // clock across reconnections, so time never goes back in the game.
    let mut pace: Option<(Instant, f64)> = None;
    while !stop.load(Ordering::Relaxed) {
        let source = match source::open(&cfg.input) {
            Ok(s) => s,
            Err(e) if first => {
                let _ = opened.send(Err(e));
                return;
            }
            Err(e) => {
                if !queue.push(Captured::Lost(e.to_string())) {
                    return;
                }
                sleep_unless_stopped(cfg.retry, &stop);
                continue;
            }
        };
        if first {
            first = false;
            let _ = opened.send(Ok(()));
        } else if !queue.push(Captured::Back) {
            return;
        }
        // A camera or stream is live (the source says so); only a file or folder is paced,
        // skipped into, and ended.
        let live = source.is_live();
        let t_base = if live { started.elapsed().as_secs_f64() } else { 0.0 };
        let mut last_index = index_base;
        for item in source {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let item = match item {
                Ok(mut f) if live => {
                    f.t += t_base;
                    f.index += index_base;
                    last_index = f.index;
                    Captured::Frame(f)
                }
                Ok(f) => {
                    if cfg.skip_until.is_some_and(|s| f.t <= s) {
                        continue;
                    }
                    let (wall, t0) = *pace.get_or_insert((Instant::now(), f.t));
                    let due = wall + Duration::from_secs_f64((f.t - t0).max(0.0));
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    Captured::Frame(f)
                }
                Err(mut p) => {
                    if live {
                        p.t += t_base;
                        p.index += index_base;
                    }
                    Captured::Problem(p)
                }
            };
            if !queue.push(item) {
                return;
            }
        }
        if !live {
            queue.push(Captured::End);
            return;
        }
        index_base = last_index + 1;
        if !queue.push(Captured::Lost(format!("{}: the stream ended", cfg.input))) {
            return;
        }
        sleep_unless_stopped(cfg.retry, &stop);
    }
}

fn sleep_unless_stopped(d: Duration, stop: &AtomicBool) {
    let until = Instant::now() + d;
    while Instant::now() < until && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(20).min(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::Mat;

    fn frame(i: u64) -> Captured {
        Captured::Frame(Frame { index: i, t: i as f64 / 30.0, image: Mat::default() })
    }

    fn index(c: &Captured) -> Option<u64> {
        match c {
            Captured::Frame(f) => Some(f.index),
            _ => None,
        }
    }

    #[test]
    fn a_full_queue_loses_its_oldest_frames_and_counts_them() {
        let (tx, rx) = crossbeam_channel::bounded(3);
        let q = Queue { tx, rx: rx.clone(), dropped: Arc::new(AtomicU64::new(0)) };
        for i in 0..10 {
            assert!(q.push(frame(i)));
        }
        let kept: Vec<u64> = rx.try_iter().filter_map(|c| index(&c)).collect();
        assert_eq!(kept, [7, 8, 9]);
        assert_eq!(q.dropped.load(Ordering::Relaxed), 7);
    }

    #[test]
    fn a_notice_is_never_the_one_dropped() {
        let (tx, rx) = crossbeam_channel::bounded(2);
        let q = Queue { tx, rx: rx.clone(), dropped: Arc::new(AtomicU64::new(0)) };
        q.push(Captured::Lost("cut".into()));
        q.push(frame(1));
        q.push(frame(2));
        q.push(Captured::End);
        let items: Vec<Captured> = rx.try_iter().collect();
        assert!(items.iter().any(|c| matches!(c, Captured::End)), "{items:?}");
        assert!(items.iter().any(|c| matches!(c, Captured::Lost(_))), "{items:?}");
    }

    #[test]
    fn a_missing_file_fails_at_start_in_one_line() {
        let err = Capture::start(CaptureConfig { input: SourceSpec::File("/nonexistent/game.mp4".into()), queue: 4, skip_until: None, retry: Duration::from_millis(10) }).err().expect("must fail");
        let text = format!("{err:#}");
        assert!(text.contains("/nonexistent/game.mp4") && !text.contains('\n'), "{text}");
    }
}
