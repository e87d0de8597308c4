//! Property tests of the rules core over random legal games:
//! - a clean event stream records exactly its moves and no violation;
//! - one staged breach of a random kind, injected at a random ply, yields exactly its violations;
//! - no input, however malformed, makes reading or judging panic.

use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Move, Position};
use touchmove::rules::{Rules, RulesConfig};
use touchmove::sim::breaches::{BreachKind, stage};
use touchmove::sim::events::{StreamWriter, game_events, random_style};
use touchmove::sim::rng::Rng;
use touchmove::types::{Decision, DecisionKind, Event, EventKind, EventReader, HandId, Side};

/// A random legal game of up to `plies` moves, biased towards captures, castling and promotions
/// so the rare moves come up often.
fn random_game(seed: u64, plies: usize) -> Vec<Move> {
    let mut rng = Rng::new(seed);
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let special: Vec<Move> = legal.iter().copied().filter(|m| m.is_castle() || m.is_promotion() || m.is_en_passant()).collect();
        let m = if !special.is_empty() && rng.chance(0.7) {
            special[rng.below(special.len())]
        } else if rng.chance(0.3) && legal.iter().any(|m| m.is_capture()) {
            let caps: Vec<Move> = legal.iter().copied().filter(|m| m.is_capture()).collect();
            caps[rng.below(caps.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

fn judge(events: &[Event]) -> Vec<Decision> {
    let mut rules = Rules::new(RulesConfig::default());
    let mut out: Vec<Decision> = events.iter().flat_map(|e| rules.apply(e)).collect();
    out.extend(rules.finish());
    out
}

fn ucis(d: &[Decision]) -> Vec<String> {
    d.iter().filter_map(|x| match &x.kind { DecisionKind::Move { uci, .. } => Some(uci.clone()), _ => None }).collect()
}

fn violations(d: &[Decision]) -> Vec<(String, Option<Side>)> {
    let mut v: Vec<_> = d.iter().filter_map(|x| x.violation()).map(|(a, s)| (a.id().to_owned(), s)).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

proptest! {
    // PROPTEST_CASES raises the count for a longer sweep (`make eval`).
    #![proptest_config(ProptestConfig::with_cases(std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96)))]

    #[test]
    fn any_legal_game_as_a_clean_stream_records_exactly_its_moves(seed in any::<u64>(), plies in 1usize..160) {
        let moves = random_game(seed, plies);
        let events = game_events(&Chess::default(), &moves, seed);
        let d = judge(&events);
        prop_assert_eq!(violations(&d), vec![]);
        let expected: Vec<String> = moves.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
        prop_assert_eq!(ucis(&d), expected);
    }

    #[test]
    fn one_injected_breach_yields_exactly_its_violation(seed in any::<u64>(), plies in 1usize..120, kind in 0usize..BreachKind::ALL.len()) {
        let kind = BreachKind::ALL[kind];
        let moves = random_game(seed, plies);
        let mut rng = Rng::new(seed ^ 0x5eed);
        let mut w = StreamWriter::new(30.0, 0.1);
        w.board(&Chess::default());
        let mut pos = Chess::default();
        let mut staged = None;
        let mut played = Vec::new();
        for &m in &moves {
            // The first move, from a random point on, where this kind of breach can be staged.
            if staged.is_none() && rng.chance(0.15) {
                staged = stage(kind, &pos, m, &mut w);
                if let Some(expected) = &staged {
                    played.push(m);
                    let mut expected: Vec<(String, Option<Side>)> = expected.iter().map(|(a, s)| (a.id().to_owned(), Some(*s))).collect();
                    expected.sort_by(|a, b| a.0.cmp(&b.0));
                    let d = judge(&w.events);
                    prop_assert_eq!(violations(&d), expected, "{:?} at ply {}", kind, played.len());
                    let recorded = ucis(&d);
                    let want: Vec<String> = played.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
                    prop_assert_eq!(recorded, want);
                    break;
                }
            }
            let style = random_style(&pos, m, &mut rng);
            w.whole_move(&pos, m, &style, true);
            pos.play_unchecked(m);
            played.push(m);
        }
    }

    #[test]
    fn reading_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        for item in EventReader::new(&bytes[..]) {
            let _ = item;
        }
    }

    #[test]
    fn judging_arbitrary_events_never_panics(script in proptest::collection::vec((0u8..9, 0u8..64, 0u32..4, 0u8..2), 0..120)) {
        let mut rules = Rules::new(RulesConfig::default());
        let mut t = 0.0;
        for (kind, sq, hand, side) in script {
            t += 0.1;
            let square = shakmaty::Square::new(sq as u32);
            let hand = HandId(hand);
            let side = if side == 0 { Side::White } else { Side::Black };
            let kind = match kind {
                0 => EventKind::HandEnter { hand, side },
                1 => EventKind::Touch { hand, square },
                2 => EventKind::Lift { hand, square },
                3 => EventKind::Place { hand, square, piece: None, color: None },
                4 => EventKind::Place { hand, square, piece: Some(shakmaty::Role::Queen), color: None },
                5 => EventKind::Release { hand, square },
                6 => EventKind::HandLeave { hand },
                7 => EventKind::Clock { side },
                _ => EventKind::AdjustAnnounced { side },
            };
            let _ = rules.apply(&Event { t, frame: None, kind });
        }
        let _ = rules.finish();
    }
}
