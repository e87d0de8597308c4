//! Rules-core throughput: events judged per second on clean event streams of real games
//! (`../shared/real/pgn/twic1599.pgn`, first 100 games) and on random games when the corpus is
//! absent; and the 7.5.5 dead-position search on a locked pawn chain.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};
use touchmove::rules::dead_position::can_checkmate;
use touchmove::rules::{Rules, RulesConfig};
use touchmove::sim::events::game_events;
use touchmove::sim::pgn::read_games;
use touchmove::sim::rng::Rng;
use touchmove::types::Event;

fn streams() -> Vec<(Chess, Vec<Event>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real/pgn/twic1599.pgn");
    if let Ok(text) = std::fs::read_to_string(path) {
        if let Ok(games) = read_games(&text) {
            return games.iter().take(100).enumerate().map(|(i, g)| (g.start.clone(), game_events(&g.start, &g.moves, i as u64))).collect();
        }
    }
    (0..100u64)
        .map(|seed| {
            let mut rng = Rng::new(seed);
            let mut pos = Chess::default();
            let mut moves = Vec::new();
            for _ in 0..80 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                pos.play_unchecked(m);
                moves.push(m);
            }
            (Chess::default(), game_events(&Chess::default(), &moves, seed))
        })
        .collect()
}

fn rules_throughput(c: &mut Criterion) {
    let streams = streams();
    let events: usize = streams.iter().map(|(_, e)| e.len()).sum();
    let mut group = c.benchmark_group("rules");
    group.throughput(Throughput::Elements(events as u64));
    group.sample_size(10);
    group.bench_function("clean_games_events", |b| {
        b.iter(|| {
            let mut decisions = 0usize;
            for (start, stream) in &streams {
                let mut rules = Rules::new(RulesConfig { start: start.clone(), white_sits: None });
                for e in stream {
                    decisions += rules.apply(e).len();
                }
            }
            decisions
        })
    });
    group.finish();
}

fn dead_position(c: &mut Criterion) {
    let pos: Chess = "1b6/3k4/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let mut group = c.benchmark_group("dead_position");
    group.sample_size(10);
    group.bench_function("locked_chain_proof", |b| b.iter(|| can_checkmate(&pos, Color::Black, 400_000)));
    group.bench_function("initial_position_mate", |b| b.iter(|| can_checkmate(&Chess::default(), Color::Black, 400_000)));
    group.finish();
}

criterion_group!(benches, rules_throughput, dead_position);
criterion_main!(benches);
