//! All 1,110 real games of `../shared/real/pgn/twic1599.pgn` (101,487 plies), each turned into a
//! realistic clean event stream (taken pieces removed before or after, castling king first,
//! promotion piece placed before or after the pawn leaves, announced adjustments, clocks pressed),
//! must record exactly their moves with no violation.

use std::path::PathBuf;

use shakmaty::{CastlingMode, Position};
use touchmove::rules::{Rules, RulesConfig};
use touchmove::sim::events::game_events;
use touchmove::sim::pgn::read_games;
use touchmove::types::DecisionKind;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real/pgn/twic1599.pgn")
}

#[test]
fn every_twic_game_records_exactly_its_moves_without_violation() {
    let path = corpus();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (the real-games corpus is part of shared/)", path.display()));
    let games = read_games(&text).expect("twic1599.pgn parses");
    assert_eq!(games.len(), 1110);
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    assert_eq!(plies, 101_487);

    for (i, game) in games.iter().enumerate() {
        let events = game_events(&game.start, &game.moves, i as u64);
        let mut rules = Rules::new(RulesConfig { start: game.start.clone(), white_sits: None });
        let mut recorded = Vec::new();
        for e in &events {
            for d in rules.apply(e) {
                match d.kind {
                    DecisionKind::Move { uci, .. } => recorded.push(uci),
                    DecisionKind::Violation { article, detail, .. } => {
                        panic!("game {} ({:?}): violation {article} at t={}: {detail}", i + 1, game.tag("White"), d.t)
                    }
                    _ => {}
                }
            }
        }
        rules.finish();
        let expected: Vec<String> = game.moves.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
        assert_eq!(recorded, expected, "game {} ({:?} – {:?})", i + 1, game.tag("White"), game.tag("Black"));
        assert_eq!(rules.position().board(), {
            let mut p = game.start.clone();
            for m in &game.moves {
                p.play_unchecked(*m);
            }
            p
        }.board());
    }
}
