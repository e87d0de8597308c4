//! A rendered real game read through the pixels: every frame through the vision pass (true board
//! outline, frames in memory), then the tracker and the rules, against the moves played. The
//! whole sweep over eight games, with figures, is `make eval` (examples/diag_vision); this pins
//! one game that vision reads exactly today — castling and two captures included — so that a
//! change to vision, tracker or rules that loses it is caught.

use shakmaty::Position;
use touchmove::rules::{Rules, RulesConfig};
use touchmove::sim::camera::Camera;
use touchmove::sim::render::Renderer;
use touchmove::sim::scenes::game_scene;
use touchmove::sim::timeline;
use touchmove::tracker::{Tracker, TrackerConfig};
use touchmove::types::{BoardGeometry, DecisionKind, ImageSide};
use touchmove::vision::frame::Vision;

#[test]
fn a_rendered_game_read_through_vision_records_exactly_its_moves() {
    let pgn = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real/pgn/twic1599.pgn")).expect("twic1599.pgn");
    let games = touchmove::sim::pgn::read_games(&pgn).expect("parses");
    // twic1599 game 5, look and hands from seed 1: 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O
    // 5. Bd3 d5 6. cxd5 exd5.
    let g = &games[4];
    let moves = &g.moves[..12];
    let scene = game_scene(&g.start, moves, 1);
    let tl = timeline::run(&scene).expect("scene runs");
    let cam = Camera::new(&scene.camera);
    let start = scene.start_position().expect("legal start");
    let mut renderer = Renderer::new(cam.clone(), &scene.style, scene.seed).expect("renderer");
    let geometry = BoardGeometry { corners: cam.board_corners(), white: ImageSide::Bottom, h1_light: true };
    let mut tracker = Tracker::new(TrackerConfig { start: start.board().clone(), ..TrackerConfig::default() });
    let mut rules = Rules::new(RulesConfig { start: start.clone(), white_sits: None });
    let mut vision: Option<Vision> = None;
    let mut events = Vec::new();
    for (i, world) in tl.frames.iter().enumerate() {
        let (img, _) = renderer.render(world).expect("renders");
        let v = match vision.as_mut() {
            Some(v) => v,
            None => vision.insert(Vision::start(&img, Some(geometry), start.board()).expect("vision starts")),
        };
        let obs = v.observe(i as u64, i as f64 / tl.fps, &img).expect("observes");
        events.extend(tracker.observe(&obs));
    }
    events.extend(tracker.finish());
    let (mut recorded, mut violations) = (Vec::new(), Vec::new());
    for e in &events {
        for d in rules.apply(e) {
            match d.kind {
                DecisionKind::Move { uci, .. } => recorded.push(uci),
                DecisionKind::Violation { article, ref detail, .. } => violations.push(format!("{article}: {detail}")),
                _ => {}
            }
        }
    }
    let played: Vec<String> = moves.iter().map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()).collect();
    assert_eq!(recorded, played);
    assert!(violations.is_empty(), "{violations:?}");
}
