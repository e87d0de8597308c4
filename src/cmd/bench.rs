//! `touchmove bench VIDEO`: replay throughput beside decode-only throughput of the same file,
//! measured in the same run, and their ratio — what vision, tracking and rules cost on top of
//! reading the video — with the CPU each stage's thread took a frame, which says what bounds it. With `--live`: the file played live at its own pace, and how long after
//! each move's frame its decision reached a client of `/events`, with the CPU used.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};

use crate::output::serve::new_token;
use crate::pipeline::live::{LiveJob, LiveSettings, live, median};
use crate::pipeline::{decode_only, replay};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  touchmove bench game.mp4\n  touchmove bench out/demo-scene/video.mp4 --live\n\nWith --live, a truth.json beside the video (what `touchmove sim` writes) gives each move's\nrelease frame, and the delay is measured from it; without one, from the frame the move is dated at.")]
pub struct BenchArgs {
    #[command(flatten)]
    pub replay: super::replay::ReplayArgs,
    /// Play the file live (real time) and measure the delay from each move to `/events`.
    #[arg(long)]
    pub live: bool,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let mut job = super::replay::job(&args.replay)?;
    let scratch = args.replay.out.is_none();
    if scratch {
        job.out = std::env::temp_dir().join(format!("touchmove-bench-{}", std::process::id()));
    }
    let out = job.out.clone();
    if args.live {
        bench_live(job)?;
    } else {
        let (decoded, decode_secs) = decode_only(&job.input)?;
        let summary = replay(&job, |_, _| {})?;
        let decode_fps = decoded as f64 / decode_secs.max(1e-9);
        let replay_fps = summary.frames as f64 / summary.seconds.max(1e-9);
        println!("decode only: {decoded} frames in {decode_secs:.2} s = {decode_fps:.1} frames/s");
        println!("replay:      {} frames in {:.2} s = {replay_fps:.1} frames/s", summary.frames, summary.seconds);
        println!("ratio:       {:.2} of decode-only throughput", replay_fps / decode_fps.max(1e-9));
        // What bounds it: what each stage's thread cost a frame, and how busy the cores were.
        let c = summary.cpu;
        let per_frame = |s: f64| 1000.0 * s / summary.frames.max(1) as f64;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        println!(
            "CPU a frame: decoding {:.1} ms, preparing {:.1} ms, following {:.1} ms (each stage's own thread; following sets up too), the decoder's helpers and the rest {:.1} ms; {:.1} of {cores} cores busy",
            per_frame(c.decoding),
            per_frame(c.preparing),
            per_frame(c.following),
            per_frame((c.total - c.decoding - c.preparing - c.following).max(0.0)),
            c.total / summary.seconds.max(1e-9)
        );
    }
    if scratch {
        std::fs::remove_dir_all(&out).ok();
    }
    Ok(())
}

/// A move as an `/events` client saw it: when it arrived (Unix seconds) and its JSON.
type Arrival = (f64, serde_json::Value);

fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// Reads `/events` until the stream ends, stamping each message on arrival.
fn listen(addr: SocketAddr) -> Result<Vec<Arrival>> {
    let mut s = TcpStream::connect(addr).with_context(|| format!("{addr}: cannot connect to the live server"))?;
    s.write_all(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut out = Vec::new();
    for line in BufReader::new(s).lines() {
        let Ok(line) = line else { break };
        if let Some(data) = line.strip_prefix("data: ") {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(data) {
                out.push((unix_now(), v));
            }
        }
    }
    Ok(out)
}

fn bench_live(job: crate::pipeline::ReplayJob) -> Result<()> {
    let truth_path = match &job.input {
        crate::source::SourceSpec::File(p) => p.parent().map(|d| d.join("truth.json")),
        _ => None,
    };
    let truth: Vec<f64> = truth_path
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["decisions"].as_array().map(|a| a.iter().filter(|d| d["kind"] == "move").filter_map(|d| d["t"].as_f64()).collect()))
        .unwrap_or_default();
    let settings = LiveSettings::of(&job);
    let live_job = LiveJob { game: job, serve: Some("127.0.0.1:0".into()), token: new_token(), resume: false, queue: 4, stop: crossbeam_channel::never() };
    let mut client = None;
    let summary = live(&live_job, settings, |ready| {
        if let Some(addr) = ready.addr {
            client = Some(std::thread::spawn(move || listen(addr)));
        }
    })?;
    let arrivals = client.context("the live server did not start")?.join().map_err(|_| anyhow::anyhow!("the events client failed"))??;
    let clock = arrivals.iter().find_map(|(_, v)| v.get("clock").and_then(|c| Some((c["t"].as_f64()?, c["unix"].as_f64()?))));
    let moves: Vec<&Arrival> = arrivals.iter().filter(|(_, v)| v["kind"] == "move").collect();
    let Some((t0, unix0)) = clock else { anyhow::bail!("the feed sent no clock: no frame was played") };
    let delay = |arrived: f64, t: f64| arrived - (unix0 + (t - t0));
    let from_dated: Vec<f64> = moves.iter().filter_map(|(a, v)| v["t"].as_f64().map(|t| delay(*a, t))).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("live:        {} frames played in {:.1} s, {} dropped; CPU {:.0}% of one core ({} cores here)", summary.frames, summary.seconds, summary.dropped, 100.0 * summary.cpu_seconds / summary.seconds.max(1e-9), cores);
    println!("moves:       {} on /events", moves.len());
    if let Some(m) = median(&from_dated) {
        println!("delay:       median {:.0} ms from the frame each move is dated at to /events", m * 1000.0);
    }
    if !truth.is_empty() {
        let from_release: Vec<f64> = moves.iter().zip(&truth).map(|((a, _), t)| delay(*a, *t)).collect();
        if let Some(m) = median(&from_release) {
            let worst = from_release.iter().copied().fold(f64::MIN, f64::max);
            println!("             median {:.0} ms (worst {:.0} ms) from the release frame (truth.json) to /events", m * 1000.0, worst * 1000.0);
        }
    }
    Ok(())
}
