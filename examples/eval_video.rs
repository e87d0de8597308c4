//! `make eval`, the camera half: figures for the tracker on ideal observations of rendered real
//! games (what it does when vision is perfect), and for `replay` on the real clips of
//! `../shared/real/video/` against their expected moves; then on the same clips turned, dimmed,
//! flattened and halved (with `ffmpeg`, which `scripts/setup.sh` installs): footage we have not
//! seen will be shot from other sides, darker and smaller, and must read as well.

use std::path::Path;
use std::process::Command;

use shakmaty::Position;
use touchmove::rules::{Rules, RulesConfig};
use touchmove::sim::camera::Camera;
use touchmove::sim::observe::{ideal, operator_inputs};
use touchmove::sim::scenes::game_scene;
use touchmove::sim::timeline;
use touchmove::tracker::{Tracker, TrackerConfig};
use touchmove::types::DecisionKind;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pgn = root.join("../shared/real/pgn/twic1599.pgn");
    let games = touchmove::sim::pgn::read_games(&std::fs::read_to_string(&pgn).expect("twic1599.pgn")).expect("parses");
    let (mut exact, mut tried, mut plies, mut clean) = (0, 0, 0, 0);
    for (i, g) in games.iter().enumerate().step_by(37).take(30) {
        let n = g.moves.len().min(60);
        let scene = game_scene(&g.start, &g.moves[..n], i as u64);
        let tl = timeline::run(&scene).expect("scene runs");
        let start = scene.start_position().expect("legal");
        let mut tracker = Tracker::new(TrackerConfig { start: start.board().clone(), ..TrackerConfig::default() });
        let mut rules = Rules::new(RulesConfig { start: start.clone(), white_sits: None });
        let mut moves = Vec::new();
        let mut violations = 0;
        let obs = ideal(&tl, &Camera::new(&scene.camera));
        let mut operator = operator_inputs(&tl);
        let mut events: Vec<_> = obs
            .iter()
            .flat_map(|o| {
                let mut batch = tracker.observe(o);
                batch.extend(operator.due(o.t));
                batch
            })
            .collect();
        events.extend(tracker.finish());
        for e in &events {
            for d in rules.apply(e) {
                match d.kind {
                    DecisionKind::Move { uci, .. } => moves.push(uci),
                    DecisionKind::Violation { article, ref detail, .. } => {
                        violations += 1;
                        if std::env::var_os("EVAL_VERBOSE").is_some() {
                            eprintln!("game {}: {article} at {:.1} s: {detail}", i + 1, d.t);
                        }
                    }
                    _ => {}
                }
            }
        }
        let want: Vec<String> = g.moves[..n].iter().map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()).collect();
        tried += 1;
        plies += n;
        exact += usize::from(moves == want);
        clean += usize::from(violations == 0);
    }
    println!("tracker on ideal observations of rendered real games: {exact}/{tried} recorded exactly ({plies} plies), {clean}/{tried} without a violation");

    let exe = root.join("target/release/touchmove");
    let clips = [
        ("play-chess-with-a-webcam/scholarsmate.avi", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"),
        ("play-chess-with-a-webcam/emptyBoard001.avi", ""),
        ("play-chess-with-a-webcam/baxter.avi", "(no crash, no invented violation)"),
        ("chess-testmedia/scholarsMate2019-11-18.avi", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"),
        ("chess-testmedia/TK_scholarsmate7.avi", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"),
        ("knightvision/sample_clip_3s.mp4", "e4 e5"),
    ];
    println!("replay on real clips (expected → recorded):");
    for (clip, expected) in clips {
        let (recorded, _) = replayed(&exe, &root.join("../shared/real/video").join(clip), &clip.replace('/', "-"));
        println!("  {clip}: {expected} → {recorded}");
    }

    // The clips with a game, as other footage may show it: each look is an ffmpeg filter.
    let looks = [
        ("turned 90°", "transpose=1"),
        ("turned 180°", "transpose=1,transpose=1"),
        ("turned 270°", "transpose=2"),
        ("dimmed", "eq=brightness=-0.08"),
        ("flatter", "eq=contrast=0.8"),
        ("half size", "scale=iw/2:ih/2"),
    ];
    println!("replay on the real clips under other looks (recorded exactly, with no violation):");
    let (mut right, mut tried) = (0, 0);
    for (clip, expected) in clips.iter().filter(|(_, e)| e.starts_with("e4")) {
        let mut misses = Vec::new();
        for (look, filter) in looks {
            let name = format!("{}-{}", clip.replace('/', "-"), look.replace([' ', '°'], ""));
            let video = std::env::temp_dir().join(format!("touchmove-eval-{name}.mp4"));
            let made = Command::new("ffmpeg")
                .args(["-loglevel", "fatal", "-y", "-i", root.join("../shared/real/video").join(clip).to_str().unwrap(), "-vf", filter, "-c:v", "libx264", "-crf", "18", video.to_str().unwrap()])
                .status();
            if !made.is_ok_and(|s| s.success()) {
                println!("  ffmpeg could not make the {look} copy of {clip}: run scripts/setup.sh");
                return;
            }
            let (recorded, exact) = replayed(&exe, &video, &name);
            let exact = exact && recorded == format!("{expected} (0 violations)");
            tried += 1;
            right += usize::from(exact);
            if !exact {
                misses.push(format!("{look}: {recorded}"));
            }
        }
        println!("  {clip}: {}/{} looks{}", looks.len() - misses.len(), looks.len(), misses.iter().map(|m| format!("\n    {m}")).collect::<String>());
    }
    println!("  in all: {right}/{tried}");
}

/// The moves `touchmove replay` records from `video` and how many violations ("error: …" where
/// it failed), and whether it ran.
fn replayed(exe: &Path, video: &Path, name: &str) -> (String, bool) {
    let out = std::env::temp_dir().join(format!("touchmove-eval-{name}"));
    let _ = std::fs::remove_dir_all(&out);
    match Command::new(exe).args(["replay", video.to_str().unwrap(), "--out", out.to_str().unwrap()]).output() {
        Ok(o) if o.status.success() => {
            let text = std::fs::read_to_string(out.join("decisions.jsonl")).unwrap_or_default();
            let sans: Vec<String> = text.lines().filter_map(|l| serde_json::from_str::<touchmove::types::Decision>(l).ok()).filter_map(|d| match d.kind { DecisionKind::Move { san, .. } => Some(san), _ => None }).collect();
            let violations = text.lines().filter(|l| l.contains("\"kind\":\"violation\"")).count();
            (format!("{} ({} violations)", sans.join(" "), violations), true)
        }
        Ok(o) => (format!("error: {}", String::from_utf8_lossy(&o.stderr).lines().last().unwrap_or("")), false),
        Err(e) => (format!("could not run {}: {e}", exe.display()), false),
    }
}
