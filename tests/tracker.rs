//! The tracker on ideal observations of rendered scenes (what a perfect vision stage reports):
//! the events it writes, judged by the rules, must record exactly the scene's moves and its
//! staged violations, and each move must be decided within 2 frames of its completing release
//! becoming visible.

use shakmaty::{CastlingMode, Chess, Position};
use touchmove::rules::{Rules, RulesConfig};
use touchmove::sim::camera::Camera;
use touchmove::sim::observe::{ideal, operator_inputs};
use touchmove::sim::scene::Scene;
use touchmove::sim::scenes::{STAGED_NAMES, Staged, game_scene, staged_scene};
use touchmove::sim::timeline;
use touchmove::sim::video::decisions_for;
use touchmove::tracker::{Tracker, TrackerConfig};
use touchmove::types::{Decision, DecisionKind, Event};

/// Tracker + rules over a scene's ideal observations: the events and, per decision, the
/// observation frame at which it came out.
fn track(scene: &Scene) -> (Vec<Event>, Vec<(u64, Decision)>) {
    let tl = timeline::run(scene).unwrap();
    let cam = Camera::new(&scene.camera);
    let start = scene.start_position().unwrap();
    let mut tracker = Tracker::new(TrackerConfig { start: start.board().clone(), ..TrackerConfig::default() });
    let mut rules = Rules::new(RulesConfig { start, white_sits: None });
    let (mut events, mut decisions) = (Vec::new(), Vec::new());
    // "J'adoube" is operator input, not vision: it joins the stream at its time.
    let mut operator = operator_inputs(&tl);
    for obs in ideal(&tl, &cam) {
        let mut batch = tracker.observe(&obs);
        batch.extend(operator.due(obs.t));
        for e in batch {
            for d in rules.apply(&e) {
                // As the pipeline does: the game's names for the pieces after a move.
                if matches!(d.kind, DecisionKind::Move { .. }) {
                    tracker.agree(rules.position().board());
                }
                decisions.push((obs.frame, d));
            }
            events.push(e);
        }
    }
    (events, decisions)
}

fn sans(d: &[(u64, Decision)]) -> Vec<String> {
    d.iter().filter_map(|(_, x)| match &x.kind { DecisionKind::Move { san, .. } => Some(san.clone()), _ => None }).collect()
}

fn violations(d: &[(u64, Decision)]) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = d.iter().filter_map(|(_, x)| x.violation()).map(|(a, _)| a.id()).collect();
    v.sort();
    v
}

#[test]
fn staged_scenes_give_the_same_moves_and_violations_as_their_truth() {
    for &(name, staged) in STAGED_NAMES {
        // A piece lifted and put back under the hand leaves no trace on the squares, a knocked
        // piece looks like one set down, and a piece moved on and back while the arm hides both
        // squares looks unmoved: these need vision to report more than squares (a piece seen
        // shifted, fingers seen letting go).
        use touchmove::sim::breaches::BreachKind;
        // A slid piece rests on each square it crosses long enough to be seen there, so it
        // reads as set down on the first: telling a push from a placement is still to do.
        if matches!(staged, Staged::Breach(BreachKind::AdjustNotOnMove | BreachKind::Knocked | BreachKind::MovedOn) | Staged::AnnouncedAdjustNotOnMove | Staged::Slide) {
            continue;
        }
        for seed in [1, 2] {
            let scene = staged_scene(staged, seed);
            let tl = timeline::run(&scene).unwrap();
            let truth: Vec<(u64, Decision)> = decisions_for(&scene, &tl.events).unwrap().into_iter().map(|d| (0, d)).collect();
            let (events, got) = track(&scene);
            let dump = || events.iter().map(|e| e.to_json()).collect::<Vec<_>>().join("\n");
            assert_eq!(sans(&got), sans(&truth), "{name} seed {seed}\n{}", dump());
            assert_eq!(violations(&got), violations(&truth), "{name} seed {seed}\n{}", dump());
        }
    }
}

/// TWIC 1599's game 1074 (60 plies, the look of seed 1073, as `make eval` sweeps it): a hand
/// there carries a piece other than the one the square then shows, and the observation's name
/// for it must win. It was lost when the tracker took vision's name over a carried piece only
/// for pawns on the last rank (the rule is now narrowed to the far rank alone).
#[test]
fn the_piece_a_square_shows_corrects_the_one_a_hand_was_thought_to_carry() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real/pgn/twic1599.pgn");
    let games = touchmove::sim::pgn::read_games(&std::fs::read_to_string(path).unwrap()).unwrap();
    let i = 1073;
    let g = &games[i];
    let plies = g.moves.len().min(60);
    let scene = game_scene(&g.start, &g.moves[..plies], i as u64);
    let (_, got) = track(&scene);
    let mut pos: Chess = g.start.clone();
    let want: Vec<String> = g.moves[..plies].iter().map(|m| shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, *m).to_string()).collect();
    assert_eq!(sans(&got), want);
    assert!(violations(&got).is_empty(), "{:?}", violations(&got));
}

#[test]
fn real_games_rendered_by_clean_hands_record_exactly_their_moves() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real/pgn/twic1599.pgn");
    let games = touchmove::sim::pgn::read_games(&std::fs::read_to_string(path).unwrap()).unwrap();
    for (i, g) in games.iter().enumerate().step_by(97).take(8) {
        let plies = g.moves.len().min(40);
        let scene = game_scene(&g.start, &g.moves[..plies], i as u64);
        let (_, got) = track(&scene);
        let want: Vec<String> = {
            let mut pos: Chess = g.start.clone();
            g.moves[..plies]
                .iter()
                .map(|m| {
                    let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, *m).to_string();
                    san
                })
                .collect()
        };
        assert_eq!(sans(&got), want, "game {}", i + 1);
        assert!(violations(&got).is_empty(), "game {}: {:?}", i + 1, violations(&got));
        let _ = CastlingMode::Standard;
    }
}

#[test]
fn each_move_is_decided_within_two_frames_of_its_completing_release_becoming_visible() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real/pgn/twic1599.pgn");
    let games = touchmove::sim::pgn::read_games(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut checked = 0;
    for (i, g) in games.iter().enumerate().skip(5).step_by(131).take(4) {
        let scene = game_scene(&g.start, &g.moves[..g.moves.len().min(24)], i as u64 + 1000);
        let tl = timeline::run(&scene).unwrap();
        let obs = ideal(&tl, &Camera::new(&scene.camera));
        let truth = decisions_for(&scene, &tl.events).unwrap();
        let (_, got) = track(&scene);
        let truth_moves: Vec<&Decision> = truth.iter().filter(|d| matches!(d.kind, DecisionKind::Move { .. })).collect();
        let got_moves: Vec<u64> = got.iter().filter(|(_, d)| matches!(d.kind, DecisionKind::Move { .. })).map(|(f, _)| *f).collect();
        assert_eq!(truth_moves.len(), got_moves.len(), "game {}", i + 1);
        for (t, decided) in truth_moves.iter().zip(got_moves) {
            let DecisionKind::Move { uci, san, .. } = &t.kind else { unreachable!() };
            let m = uci.parse::<shakmaty::uci::UciMove>().unwrap();
            let mut squares: Vec<shakmaty::Square> = match m {
                shakmaty::uci::UciMove::Normal { from, to, .. } => vec![from, to],
                _ => vec![],
            };
            // Castling is completed by the rook: its squares count too.
            if san.starts_with("O-O") {
                let rank = squares[0].rank();
                let (corner, crossed) = if san.starts_with("O-O-O") { (shakmaty::File::A, shakmaty::File::D) } else { (shakmaty::File::H, shakmaty::File::F) };
                squares.push(shakmaty::Square::from_coords(corner, rank));
                squares.push(shakmaty::Square::from_coords(crossed, rank));
            }
            let release = t.frame.unwrap() as usize;
            // The first frame from the release on where every square of the move is in view.
            let visible = (release..obs.len())
                .find(|&f| squares.iter().all(|sq| obs[f].squares[usize::from(*sq)].state != touchmove::types::SquareState::Occluded))
                .unwrap_or(obs.len()) as u64;
            assert!(decided <= visible + 2, "game {} {uci}: released at {release}, in view at {visible}, decided at {decided}", i + 1);
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked} moves checked");
}
