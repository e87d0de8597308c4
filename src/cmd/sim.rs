//! `touchmove sim`: renders a scene script to `DIR/video.mp4` and `DIR/truth.json` (per-frame
//! placement, hands, the events and the decisions that must follow). It can also write the
//! script itself from a real game (`--from-pgn`) or a staged breach (`--breach`).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};

use crate::sim::scene::Scene;
use crate::sim::scenes::{STAGED_NAMES, game_scene, staged_scene};
use crate::sim::video::render_scene;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  touchmove sim examples/scenes/e4-e5.json --out out/e4\n  touchmove sim --breach rook-first --seed 3 --out out/rook-first\n  touchmove sim --from-pgn ../shared/real/pgn/twic1599.pgn --game 12 --plies 20 --out out/game12\n\nStaged scenes (--breach): touch-own, touch-opponent, rook-first, two-hands,\nclock-without-move, illegal-then-clock, pawn-on-last-rank, adjust-not-on-move, knocked,\nmoved-on, adjust-announced-not-on-move; and, with no breach in them: en-passant,\nunder-promotion, adjust-announced, slide.")]
pub struct SimArgs {
    /// The scene script (JSON; see src/sim/scene.rs for the format).
    #[arg(value_name = "SCRIPT", required_unless_present_any = ["breach", "from_pgn"])]
    pub script: Option<PathBuf>,
    /// Where to write video.mp4, truth.json (and scene.json when generated).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Generate the scene: a short game with this breach (or special move) staged in it.
    #[arg(long, value_name = "KIND", conflicts_with_all = ["script", "from_pgn"])]
    pub breach: Option<String>,
    /// Generate the scene: a game from this PGN file, played by clean hands.
    #[arg(long, value_name = "FILE", conflicts_with = "script")]
    pub from_pgn: Option<PathBuf>,
    /// With --from-pgn: which game (1-based).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// With --from-pgn: at most this many plies.
    #[arg(long)]
    pub plies: Option<usize>,
    /// With --breach / --from-pgn: the seed that picks camera, look and hands.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write truth.json only (frames are still rendered for their truth).
    #[arg(long)]
    pub no_video: bool,
}

fn scene_for(args: &SimArgs) -> Result<Scene> {
    if let Some(name) = &args.breach {
        let Some((_, staged)) = STAGED_NAMES.iter().find(|(n, _)| n == name) else {
            let names: Vec<&str> = STAGED_NAMES.iter().map(|(n, _)| *n).collect();
            bail!("--breach {name}: unknown; one of {}", names.join(", "));
        };
        return Ok(staged_scene(*staged, args.seed));
    }
    if let Some(path) = &args.from_pgn {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read the PGN file", path.display()))?;
        let games = crate::sim::pgn::read_games(&text).with_context(|| format!("{}", path.display()))?;
        let Some(game) = games.get(args.game.wrapping_sub(1)) else {
            bail!("{}: --game {} is out of range (the file holds {} games)", path.display(), args.game, games.len());
        };
        let plies = args.plies.unwrap_or(game.moves.len()).min(game.moves.len());
        return Ok(game_scene(&game.start, &game.moves[..plies], args.seed));
    }
    let path = args.script.as_ref().expect("clap requires a script otherwise");
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read the scene script", path.display()))?;
    Scene::parse(&text).with_context(|| format!("{}: not a valid scene script", path.display()))
}

pub fn run(args: SimArgs) -> Result<()> {
    let scene = scene_for(&args)?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("{}: cannot create the output folder", args.out.display()))?;
    if args.script.is_none() {
        let path = args.out.join("scene.json");
        std::fs::write(&path, serde_json::to_string_pretty(&scene)?).with_context(|| format!("{}: cannot write", path.display()))?;
    }
    let bar = ProgressBar::new(0);
    bar.set_style(ProgressStyle::with_template("rendering {bar:30} {pos}/{len} frames  {per_sec}  eta {eta}").expect("valid template"));
    let rendered = render_scene(&scene, &args.out, !args.no_video, |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })?;
    bar.finish_and_clear();
    let moves = rendered.decisions.iter().filter(|d| matches!(d.kind, crate::types::DecisionKind::Move { .. })).count();
    let violations: Vec<String> = rendered.decisions.iter().filter_map(|d| d.violation()).map(|(a, s)| format!("{a} {}", s.map_or("-".into(), |s| s.to_string()))).collect();
    println!(
        "{}: {} frames, {} events, {} moves, violations: {}",
        args.out.display(),
        rendered.frames,
        rendered.events.len(),
        moves,
        if violations.is_empty() { "none".into() } else { violations.join(", ") }
    );
    Ok(())
}
