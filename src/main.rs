//! The `touchmove` command line: parsing and dispatch only; the work is in the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "touchmove",
    version,
    about = "Records over-the-board chess from an overhead camera and flags breaches of the FIDE Laws on the act of moving.",
    long_about = "Records over-the-board chess from an overhead camera and flags every breach of the FIDE Laws \
on the act of moving (Article 4) and on irregularities (Article 7): touch-move, castling begun with the rook, \
two hands, a clock pressed without a move or after an illegal move, a promotion left half done, a displaced piece.\n\n\
Decisions are JSON lines; every `article` is a clause id of RULES.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay a recorded game: game.pgn, events.jsonl and decisions.jsonl in --out.
    Replay(touchmove::cmd::replay::ReplayArgs),
    /// Follow a game live (camera, stream, or a file at its own pace): the replay files, written
    /// as they happen, and a server for the broadcast (PGN, events), the arbiter and the operator.
    Live(touchmove::cmd::live::LiveArgs),
    /// Replay throughput beside decode-only throughput of the same file, their ratio, and the CPU each stage took a frame.
    Bench(touchmove::cmd::bench::BenchArgs),
    /// Judge a stream of tracker events (JSONL) and print the decisions (JSONL): the rules core alone.
    Rules(touchmove::cmd::rules::RulesArgs),
    /// Find the board in an image, a video or a camera; write the calibration file and print its
    /// corners (a8, h8, h1, a1) and White's edge as one JSON line.
    Calibrate(touchmove::cmd::calibrate::CalibrateArgs),
    /// Check that OpenCV (with FFmpeg), ONNX Runtime with the piece model, and cameras are there, and say what is missing.
    Doctor(touchmove::cmd::doctor::DoctorArgs),
    /// Print the placement seen in each image (FEN board field, `?` where a square is hidden).
    Board(touchmove::cmd::board::BoardArgs),
    /// Render a scene script (or a generated game or breach) to video.mp4 and truth.json.
    Sim(touchmove::cmd::sim::SimArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Rules(args) => touchmove::cmd::rules::run(args),
        Command::Sim(args) => touchmove::cmd::sim::run(args),
        Command::Doctor(args) => touchmove::cmd::doctor::run(args),
        Command::Replay(args) => touchmove::cmd::replay::run(args),
        Command::Live(args) => touchmove::cmd::live::run(args),
        Command::Bench(args) => touchmove::cmd::bench::run(args),
        Command::Board(args) => touchmove::cmd::board::run(args),
        Command::Calibrate(args) => touchmove::cmd::calibrate::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("touchmove: {e:#}");
            ExitCode::from(1)
        }
    }
}
