//! `touchmove bench VIDEO`: replay throughput beside decode-only throughput of the same file,
//! measured in the same run, and their ratio — what vision, tracking and rules cost on top of
//! reading the video.

use anyhow::Result;

use crate::pipeline::{decode_only, replay};

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[command(flatten)]
    pub replay: super::replay::ReplayArgs,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let mut job = super::replay::job(&args.replay)?;
    if args.replay.out.is_none() {
        job.out = std::env::temp_dir().join(format!("touchmove-bench-{}", std::process::id()));
    }
    let (decoded, decode_secs) = decode_only(&job.input)?;
    let summary = replay(&job, |_, _| {})?;
    let decode_fps = decoded as f64 / decode_secs.max(1e-9);
    let replay_fps = summary.frames as f64 / summary.seconds.max(1e-9);
    println!("decode only: {decoded} frames in {decode_secs:.2} s = {decode_fps:.1} frames/s");
    println!("replay:      {} frames in {:.2} s = {replay_fps:.1} frames/s", summary.frames, summary.seconds);
    println!("ratio:       {:.2} of decode-only throughput", replay_fps / decode_fps.max(1e-9));
    if args.replay.out.is_none() {
        std::fs::remove_dir_all(&job.out).ok();
    }
    Ok(())
}
