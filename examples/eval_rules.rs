//! `make eval`: the rules core over every real game and a sweep of staged breaches, with figures.
//! Prints how many games and plies were recorded exactly, the events judged per second, and,
//! per breach kind, how often exactly the expected violations came out.

use std::time::Instant;

use shakmaty::{CastlingMode, Chess, Position};
use touchmove::rules::{Rules, RulesConfig};
use touchmove::sim::breaches::{BreachKind, stage};
use touchmove::sim::events::{StreamWriter, game_events, random_style};
use touchmove::sim::pgn::read_games;
use touchmove::sim::rng::Rng;
use touchmove::types::DecisionKind;

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real/pgn/twic1599.pgn");
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("eval_rules: {path}: {e}");
            std::process::exit(1);
        }
    };
    let games = read_games(&text).expect("twic1599.pgn parses");
    let (mut exact, mut plies, mut events, mut violations) = (0usize, 0usize, 0usize, 0usize);
    let started = Instant::now();
    let mut judged_time = 0.0;
    for (i, g) in games.iter().enumerate() {
        let stream = game_events(&g.start, &g.moves, i as u64);
        events += stream.len();
        plies += g.moves.len();
        let t0 = Instant::now();
        let mut rules = Rules::new(RulesConfig { start: g.start.clone(), white_sits: None });
        let mut recorded = Vec::new();
        for e in &stream {
            for d in rules.apply(e) {
                match d.kind {
                    DecisionKind::Move { uci, .. } => recorded.push(uci),
                    DecisionKind::Violation { .. } => violations += 1,
                    _ => {}
                }
            }
        }
        judged_time += t0.elapsed().as_secs_f64();
        let want: Vec<String> = g.moves.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
        exact += usize::from(recorded == want);
    }
    println!("real games: {exact}/{} recorded exactly, {plies} plies, {violations} violations on clean streams", games.len());
    println!("rules core: {events} events in {judged_time:.2} s = {:.0} events/s (one core)", events as f64 / judged_time);

    println!("staged breaches on real games (exactly the expected violations):");
    for kind in BreachKind::ALL {
        let (mut tried, mut right) = (0, 0);
        for (i, g) in games.iter().enumerate().take(600) {
            let mut rng = Rng::new(i as u64 * 7919);
            let at = rng.below(g.moves.len().max(1));
            let mut w = StreamWriter::new(30.0, 0.1);
            w.board(&g.start);
            let mut pos: Chess = g.start.clone();
            for (ply, &m) in g.moves.iter().enumerate() {
                if ply >= at {
                    if let Some(expected) = stage(kind, &pos, m, &mut w) {
                        tried += 1;
                        let mut rules = Rules::new(RulesConfig { start: g.start.clone(), white_sits: None });
                        let mut got: Vec<_> = w.events.iter().flat_map(|e| rules.apply(e)).filter_map(|d| d.violation()).map(|(a, s)| (a, s)).collect();
                        got.sort_by_key(|(a, _)| *a);
                        let mut want: Vec<_> = expected.iter().map(|(a, s)| (*a, Some(*s))).collect();
                        want.sort_by_key(|(a, _)| *a);
                        right += usize::from(got == want);
                        break;
                    }
                }
                let style = random_style(&pos, m, &mut rng);
                w.whole_move(&pos, m, &style, true);
                pos.play_unchecked(m);
            }
        }
        println!("  {kind:?}: {right}/{tried}");
    }
    println!("eval took {:.1} s", started.elapsed().as_secs_f64());
}
