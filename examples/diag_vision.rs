//! Where vision loses a rendered game: runs the vision pass on a rendered real game (frames in
//! memory, the true board geometry), compares it frame by frame with the ideal observation, and
//! feeds the tracker four mixes (vision or ideal squares × vision or ideal hands) to show which
//! half breaks the record.
//!
//! `cargo run --release --example diag_vision -- [GAME] [SEED] [PLIES]`; with DIAG_VERBOSE=1
//! the frames where vision and truth disagree (DIAG_FRAMES=A-B adds a range), DIAG_OFFSETS=1
//! the fingertips' error along and across the reach, DIAG_EVENTS=T0-T1 the tracker's events in
//! that time span for each mix, DIAG_DUMP=F,G the rendered frames F and G as /tmp/diag-F.png,
//! DIAG_SQ=b2,c3 those squares' states, true and seen, in the frames printed; DIAG_STAGED=NAME
//! runs the renderer's staged scene NAME (as `touchmove sim --breach NAME`) with SEED instead.

use shakmaty::Position;
use touchmove::rules::{Rules, RulesConfig};
use touchmove::sim::camera::Camera;
use touchmove::sim::observe::{ideal, operator_inputs};
use touchmove::sim::render::Renderer;
use touchmove::sim::scenes::{STAGED_NAMES, game_scene, staged_scene};
use touchmove::sim::timeline;
use touchmove::tracker::{Tracker, TrackerConfig};
use touchmove::types::{BoardGeometry, DecisionKind, ImageSide, Observation, SquareState};
use touchmove::vision::frame::Vision;

fn record(start: &shakmaty::Chess, obs: &[Observation], tl: &timeline::Timeline) -> (Vec<String>, Vec<String>) {
    let mut tracker = Tracker::new(TrackerConfig { start: start.board().clone(), ..TrackerConfig::default() });
    let mut rules = Rules::new(RulesConfig { start: start.clone(), white_sits: None });
    // "J'adoube" is operator input, not vision: it joins the stream at its time.
    let mut operator = operator_inputs(tl);
    let (mut moves, mut bad, mut events) = (Vec::new(), Vec::new(), Vec::new());
    let mut judge = |batch: Vec<touchmove::types::Event>, tracker: &mut Tracker, events: &mut Vec<touchmove::types::Event>| {
        for e in batch {
            for d in rules.apply(&e) {
                match d.kind {
                    DecisionKind::Move { san, .. } => {
                        moves.push(san);
                        // As the pipeline does: the game's names for the pieces.
                        tracker.agree(rules.position().board());
                    }
                    DecisionKind::Violation { article, ref detail, .. } => bad.push(format!("{article}@{:.1}: {detail}", d.t)),
                    _ => {}
                }
            }
            events.push(e);
        }
    };
    for o in obs {
        let mut batch = tracker.observe(o);
        batch.extend(operator.due(o.t));
        judge(batch, &mut tracker, &mut events);
    }
    let rest = tracker.finish();
    judge(rest, &mut tracker, &mut events);
    if let Ok(range) = std::env::var("DIAG_EVENTS") {
        let (a, b) = range.split_once('-').map(|(a, b)| (a.parse::<f64>().unwrap(), b.parse::<f64>().unwrap())).unwrap();
        for e in events.iter().filter(|e| (a..b).contains(&e.t)) {
            eprintln!("  {}", e.to_json());
        }
    }
    (moves, bad)
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("numbers")).collect();
    let game = *args.first().unwrap_or(&5) as usize;
    let seed = *args.get(1).unwrap_or(&1);
    let plies = *args.get(2).unwrap_or(&16) as usize;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = touchmove::sim::pgn::read_games(&std::fs::read_to_string(root.join("../shared/real/pgn/twic1599.pgn")).unwrap()).unwrap();
    let g = &games[game - 1];
    let n = g.moves.len().min(plies);
    // DIAG_STAGED=NAME: the renderer's staged scene of that name (touchmove sim --breach NAME)
    // with SEED, instead of a game.
    let staged = std::env::var("DIAG_STAGED").ok();
    let scene = match &staged {
        Some(name) => {
            let kind = STAGED_NAMES.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("DIAG_STAGED: one of {:?}", STAGED_NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>())).1;
            staged_scene(kind, seed)
        }
        None => game_scene(&g.start, &g.moves[..n], seed),
    };
    let tl = timeline::run(&scene).unwrap();
    let cam = Camera::new(&scene.camera);
    let start = scene.start_position().unwrap();
    let truth = ideal(&tl, &cam);
    let mut renderer = Renderer::new(cam.clone(), &scene.style, scene.seed).unwrap();
    let geometry = BoardGeometry { corners: cam.board_corners(), white: ImageSide::Bottom, h1_light: true };
    let mut vision: Option<Vision> = None;
    let mut seen = Vec::new();
    let (mut sq_total, mut sq_wrong, mut sq_untold, mut count_right, mut tip_n, mut tip_right) = (0, 0, 0, 0, 0, 0);
    let mut offsets: Vec<([f32; 2], [f32; 2])> = Vec::new();
    let verbose = std::env::var_os("DIAG_VERBOSE").is_some();
    for (i, world) in tl.frames.iter().enumerate() {
        let (img, _) = renderer.render(world).unwrap();
        let v = vision.get_or_insert_with(|| Vision::start(&img, Some(geometry), start.board()).unwrap());
        let o = v.observe(i as u64, i as f64 / tl.fps, &img).unwrap();
        if std::env::var("DIAG_DUMP").is_ok_and(|d| d.split(',').any(|f| f == i.to_string())) {
            opencv::imgcodecs::imwrite(&format!("/tmp/diag-{i}.png"), &img, &opencv::core::Vector::new()).unwrap();
        }
        let t = &truth[i];
        let over: Vec<_> = t.hands.iter().filter(|h| h.extremity_square.is_some() || !h.covers.is_empty()).collect();
        let found: Vec<_> = o.hands.iter().filter(|h| h.extremity_square.is_some() || !h.covers.is_empty()).collect();
        if over.len() == found.len() {
            count_right += 1;
        }
        if let ([a], [b]) = (over.as_slice(), found.as_slice()) {
            if a.extremity_square.is_some() {
                tip_n += 1;
                tip_right += usize::from(a.extremity_square == b.extremity_square);
                if let (Some(p), Some(q)) = (a.extremity_board, b.extremity_board) {
                    let sign = if b.side == Some(touchmove::types::Side::White) { 1.0 } else { -1.0 };
                    offsets.push((p, [(q[0] - p[0]) * sign, (q[1] - p[1]) * sign]));
                }
            }
        }
        let mut wrong_here = Vec::new();
        for k in 0..64 {
            let (a, b) = (t.squares[k].state, o.squares[k].state);
            if a == SquareState::Occluded || b == SquareState::Occluded {
                continue;
            }
            sq_total += 1;
            // A piece of colour untold where a piece stands is not wrong: vision says less.
            if b == SquareState::Piece && a != SquareState::Empty {
                sq_untold += 1;
                continue;
            }
            if a != b {
                sq_wrong += 1;
                wrong_here.push(format!("{}:{:?}→{:?}", shakmaty::Square::new(k as u32), a, b));
            }
        }
        if verbose && (!wrong_here.is_empty() || over.len() != found.len() || std::env::var("DIAG_FRAMES").is_ok_and(|r| { let (a, b) = r.split_once("-").unwrap(); (a.parse::<usize>().unwrap()..b.parse().unwrap()).contains(&i) })) {
            let tips = |hs: &[&touchmove::types::HandObs]| hs.iter().map(|h| format!("{:?}{}/{}", h.extremity_square.map(|s| s.to_string()), h.extremity_board.map(|b| format!("({:.2},{:.2})", b[0], b[1])).unwrap_or_default(), h.covers.len())).collect::<Vec<_>>().join(",");
            let watch: String = std::env::var("DIAG_SQ").unwrap_or_default().split(',').filter_map(|s| s.parse::<shakmaty::Square>().ok()).map(|s| format!("; {s} truth {:?} seen {:?}/{:.2}", t.squares[usize::from(s)].state, o.squares[usize::from(s)].state, o.squares[usize::from(s)].confidence)).collect();
            eprintln!("frame {i}: hands truth [{}] seen [{}]; wrong {}; covers {:?}{watch}", tips(&over), tips(&found), wrong_here.join(" "), found.iter().map(|h| h.covers.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>());
        }
        seen.push(o);
    }
    let frames = tl.frames.len();
    println!("game {game} seed {seed}: {frames} frames; squares wrong {sq_wrong}/{sq_total} ({:.3}%, {sq_untold} more of colour untold), hand count right {:.1}%, fingertip square {}/{} ({:.1}%)", 100.0 * sq_wrong as f64 / sq_total.max(1) as f64, 100.0 * count_right as f64 / frames as f64, tip_right, tip_n, 100.0 * tip_right as f64 / tip_n.max(1) as f64);
    if std::env::var_os("DIAG_OFFSETS").is_some() {
        let mut along: Vec<f32> = offsets.iter().map(|(_, d)| d[1]).collect();
        let mut across: Vec<f32> = offsets.iter().map(|(_, d)| d[0]).collect();
        along.sort_by(f32::total_cmp);
        across.sort_by(f32::total_cmp);
        let q = |v: &[f32], f: f64| v[((v.len() - 1) as f64 * f) as usize];
        println!("fingertip offset along the reach: p10 {:+.2} p50 {:+.2} p90 {:+.2}; across: p10 {:+.2} p50 {:+.2} p90 {:+.2}", q(&along, 0.1), q(&along, 0.5), q(&along, 0.9), q(&across, 0.1), q(&across, 0.5), q(&across, 0.9));
    }
    // A staged scene has no game to be compared with: its ideal line is the reference, and no
    // line is marked EXACT.
    let want: Vec<String> = if staged.is_some() {
        Vec::new()
    } else {
        let mut p = start.clone();
        g.moves[..n].iter().map(|m| shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut p, *m).to_string()).collect()
    };
    println!("truth:  {}", want.join(" "));
    // A staged scene's own events through the rules: the moves and violations it stages, what
    // every reading of it should come to.
    if staged.is_some() {
        let decided = touchmove::sim::video::decisions_for(&scene, &tl.events).expect("the scene's events are judged");
        let moves: Vec<String> = decided.iter().filter_map(|d| match &d.kind { DecisionKind::Move { san, .. } => Some(san.clone()), _ => None }).collect();
        let bad: Vec<String> = decided.iter().filter_map(|d| match &d.kind { DecisionKind::Violation { article, detail, .. } => Some(format!("{article}@{:.1}: {detail}", d.t)), _ => None }).collect();
        println!("{:>15}:       {} | {}", "events", moves.join(" "), bad.join("; "));
    }
    let mix = |sq_from_vision: bool, hands_from_vision: bool| -> Vec<Observation> {
        seen.iter().zip(&truth).map(|(v, t)| {
            let mut o = t.clone();
            // The clock with the hands: vision does not read it yet.
            if hands_from_vision {
                o.hands = v.hands.clone();
                o.clock = v.clock;
            }
            if sq_from_vision {
                o.squares = v.squares.clone();
            } else {
                // Ideal squares, hidden where the hands in use cover them.
                for h in &o.hands { for s in &h.covers { o.squares[usize::from(*s)] = touchmove::types::SquareObs::OCCLUDED; } }
            }
            o
        }).collect()
    };
    for (name, s, h) in [("ideal", false, false), ("vision squares", true, false), ("vision hands", false, true), ("vision", true, true)] {
        let (moves, bad) = record(&start, &mix(s, h), &tl);
        let ok = staged.is_none() && moves == want && bad.is_empty();
        println!("{name:>15}: {} {} | {}", if ok { "EXACT" } else { "     " }, moves.join(" "), bad.join("; "));
    }
}
