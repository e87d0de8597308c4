//! `make eval`, promotions: the rendered under-promotion scene (a pawn taken off e7 and a new
//! piece brought from off the board to e8) with the new piece swapped for each a pawn can
//! become, over many seeds (cameras, boards, sets, light), replayed through `touchmove replay`
//! as a user would run it. Prints, per piece, how often the move was recorded with that piece,
//! with another, or not at all: the piece model's figure for issue #7's "promotions to Q, R, B,
//! N recorded right in every case"; and how often with no violation besides (every staged
//! scene must record "the right violation id for the right side, and nothing else").
//!
//! `cargo run --release --example eval_promotions -- [SEEDS]` (default 24; needs
//! `target/release/touchmove`, which `make eval` builds first).

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

use shakmaty::Role;
use touchmove::sim::scenes::{Staged, staged_scene};
use touchmove::sim::video::render_scene;

const ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// What one replay recorded: the promotion's piece (`None` for no promotion recorded), and the
/// articles of any violations.
fn recorded(exe: &Path, seed: u64, role: Role) -> Result<(Option<char>, Vec<String>), String> {
    let scene = staged_scene(Staged::UnderPromotion, seed).promoting_to(role);
    let dir = std::env::temp_dir().join(format!("touchmove-eval-promotion-{seed}-{}", role.char()));
    render_scene(&scene, &dir, true, |_, _| {}).map_err(|e| format!("seed {seed}: rendering: {e}"))?;
    let out = dir.join("out");
    let run = Command::new(exe)
        .args(["replay", dir.join("video.mp4").to_str().unwrap_or_default(), "--fen", &scene.start, "--out", out.to_str().unwrap_or_default()])
        .output()
        .map_err(|e| format!("could not run {}: {e}", exe.display()))?;
    if !run.status.success() {
        return Err(format!("seed {seed}: replay failed: {}", String::from_utf8_lossy(&run.stderr).lines().last().unwrap_or("")));
    }
    let text = std::fs::read_to_string(out.join("decisions.jsonl")).map_err(|e| format!("seed {seed}: {e}"))?;
    std::fs::remove_dir_all(&dir).ok();
    let decisions: Vec<_> = text.lines().filter_map(|l| serde_json::from_str::<touchmove::types::Decision>(l).ok()).collect();
    let promoted = decisions.iter().find_map(|d| match &d.kind {
        touchmove::types::DecisionKind::Move { san, .. } => san.split_once('=').and_then(|(_, p)| p.chars().next()),
        _ => None,
    });
    let violations = decisions
        .iter()
        .filter_map(|d| match &d.kind {
            touchmove::types::DecisionKind::Violation { article, .. } => Some(article.to_string()),
            _ => None,
        })
        .collect();
    Ok((promoted, violations))
}

fn main() {
    let seeds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(24);
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/touchmove");
    let jobs: Mutex<Vec<(u64, Role)>> = Mutex::new((1..=seeds).flat_map(|s| ROLES.map(|r| (s, r))).rev().collect());
    type Outcome = Result<(Option<char>, Vec<String>), String>;
    let results: Mutex<Vec<(u64, Role, Outcome)>> = Mutex::new(Vec::new());
    // Two at a time: each replay decodes on one thread and reads frames on the other core.
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some((seed, role)) = jobs.lock().map(|mut j| j.pop()).ok().flatten() {
                    let r = recorded(&exe, seed, role);
                    if let Ok(mut all) = results.lock() {
                        all.push((seed, role, r));
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    println!("promotions on the rendered under-promotion scene, seeds 1-{seeds} (right / right with no violation / recorded with another piece / no promotion recorded / violations):");
    for role in ROLES {
        let of: Vec<_> = results.iter().filter(|r| r.1 == role).collect();
        let is_right = |r: &&&(u64, Role, Outcome)| matches!(&r.2, Ok((Some(c), _)) if *c == role.upper_char());
        let right = of.iter().filter(is_right).count();
        let clean = of.iter().filter(is_right).filter(|r| matches!(&r.2, Ok((_, v)) if v.is_empty())).count();
        let wrong: Vec<String> = of.iter().filter_map(|r| match &r.2 { Ok((Some(c), _)) if *c != role.upper_char() => Some(format!("{}:{c}", r.0)), _ => None }).collect();
        let none: Vec<String> = of.iter().filter(|r| matches!(&r.2, Ok((None, _)))).map(|r| r.0.to_string()).collect();
        let flagged: Vec<String> = of.iter().filter_map(|r| match &r.2 { Ok((_, v)) if !v.is_empty() => Some(format!("{}:{}", r.0, v.join(","))), _ => None }).collect();
        println!(
            "  {}: {right}/{}, {clean} with no violation   other piece (seed:piece) [{}]   none (seeds) [{}]   violations (seed:articles) [{}]",
            role.upper_char(),
            of.len(),
            wrong.join(" "),
            none.join(" "),
            flagged.join(" ")
        );
        for r in of.iter().filter_map(|r| r.2.as_ref().err()) {
            println!("    {r}");
        }
    }
}
