//! Test scripts for the clause modules: events written by hand (`enter`, `touch`, `lift`…) or
//! whole clean moves (`mv`), run through the engine, and readers for what came out.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};

use super::{Rules, RulesConfig};
use crate::sim::events::{MoveStyle, StreamWriter};
use crate::types::{Decision, DecisionKind, EventKind, HandId, ImageSide, PenaltyAction, Placement, Side};

pub const W: Side = Side::White;
pub const B: Side = Side::Black;
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

#[derive(Clone)]
pub struct Script {
    config: RulesConfig,
    writer: StreamWriter,
}

fn sq(name: &str) -> shakmaty::Square {
    name.parse().unwrap_or_else(|_| panic!("bad square {name}"))
}

impl Script {
    pub fn new() -> Script {
        let mut writer = StreamWriter::new(30.0, 0.1);
        writer.reserve_hands(100);
        Script { config: RulesConfig::default(), writer }
    }

    pub fn from_fen(fen: &str) -> Script {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let mut s = Script::new();
        s.config.start = pos;
        s
    }

    pub fn white_sits(mut self, side: ImageSide) -> Script {
        self.config.white_sits = Some(side);
        self
    }

    fn push(mut self, kind: EventKind) -> Script {
        self.writer.push(kind);
        self
    }

    /// The next event is simultaneous with the last.
    pub fn at_same_time(mut self) -> Script {
        self.writer.same_instant();
        self
    }

    pub fn enter(self, hand: u32, side: Side) -> Script {
        self.push(EventKind::HandEnter { hand: HandId(hand), side })
    }
    pub fn touch(self, hand: u32, square: &str) -> Script {
        self.push(EventKind::Touch { hand: HandId(hand), square: sq(square) })
    }
    pub fn lift(self, hand: u32, square: &str) -> Script {
        self.push(EventKind::Lift { hand: HandId(hand), square: sq(square) })
    }
    pub fn place(self, hand: u32, square: &str) -> Script {
        self.push(EventKind::Place { hand: HandId(hand), square: sq(square), piece: None, color: None })
    }
    pub fn place_new(self, hand: u32, square: &str, role: char) -> Script {
        let piece = shakmaty::Role::from_char(role.to_ascii_lowercase());
        self.push(EventKind::Place { hand: HandId(hand), square: sq(square), piece, color: None })
    }
    pub fn release(self, hand: u32, square: &str) -> Script {
        self.push(EventKind::Release { hand: HandId(hand), square: sq(square) })
    }
    pub fn leave(self, hand: u32) -> Script {
        self.push(EventKind::HandLeave { hand: HandId(hand) })
    }
    pub fn clock(self, side: Side) -> Script {
        self.push(EventKind::Clock { side })
    }
    pub fn announce(self, side: Side) -> Script {
        self.push(EventKind::AdjustAnnounced { side })
    }
    pub fn board(self, placement: &str, h1_light: bool) -> Script {
        let placement: Placement = placement.parse().unwrap();
        self.push(EventKind::Board { placement, h1_light: Some(h1_light), white: None })
    }
    pub fn board_facing(self, placement: &str, white: ImageSide) -> Script {
        let placement: Placement = placement.parse().unwrap();
        self.push(EventKind::Board { placement, h1_light: Some(true), white: Some(white) })
    }

    /// The position the engine has reached so far.
    pub fn position(&self) -> Chess {
        let mut rules = Rules::new(self.config.clone());
        for e in &self.writer.events {
            rules.apply(e);
        }
        rules.position().clone()
    }

    fn parse(&self, uci: &str) -> (Chess, shakmaty::Move) {
        let pos = self.position();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap_or_else(|e| panic!("{uci}: {e}"));
        (pos, m)
    }

    /// A clean move by a new hand of the player having the move (no clock).
    pub fn mv(mut self, uci: &str) -> Script {
        let (pos, m) = self.parse(uci);
        self.writer.whole_move(&pos, m, &MoveStyle::default(), false);
        self
    }

    /// A clean move by `hand`, already over the board, which then leaves.
    pub fn mv_with(mut self, hand: u32, uci: &str) -> Script {
        let (pos, m) = self.parse(uci);
        self.writer.acts(&pos, m, HandId(hand), &MoveStyle::default());
        self.leave(hand)
    }

    /// The events the script writes, for a stage above the rules.
    pub fn events(&self) -> Vec<crate::types::Event> {
        self.writer.events.clone()
    }

    pub fn run(&self) -> Vec<Decision> {
        let mut rules = Rules::new(self.config.clone());
        let mut out: Vec<Decision> = self.writer.events.iter().flat_map(|e| rules.apply(e)).collect();
        out.extend(rules.finish());
        out
    }
}

pub fn result_of(script: &Script) -> Option<&'static str> {
    let mut rules = Rules::new(script.config.clone());
    for e in &script.writer.events {
        rules.apply(e);
    }
    rules.result()
}

pub fn sans(d: &[Decision]) -> Vec<String> {
    d.iter().filter_map(|x| match &x.kind { DecisionKind::Move { san, .. } => Some(san.clone()), _ => None }).collect()
}

pub fn ucis(d: &[Decision]) -> Vec<String> {
    d.iter().filter_map(|x| match &x.kind { DecisionKind::Move { uci, .. } => Some(uci.clone()), _ => None }).collect()
}

pub fn move_times(d: &[Decision]) -> Vec<f64> {
    d.iter().filter(|x| matches!(x.kind, DecisionKind::Move { .. })).map(|x| x.t).collect()
}

pub fn violations(d: &[Decision]) -> Vec<(&'static str, Option<Side>)> {
    d.iter().filter_map(|x| x.violation()).map(|(a, s)| (a.id(), s)).collect()
}

pub fn detail_of(d: &[Decision], article: &str) -> String {
    d.iter()
        .find_map(|x| match &x.kind {
            DecisionKind::Violation { article: a, detail, .. } if a.id() == article => Some(detail.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

pub fn confidence_of(d: &[Decision], article: &str) -> f64 {
    d.iter()
        .find_map(|x| match &x.kind {
            DecisionKind::Violation { article: a, confidence, .. } if a.id() == article => Some(*confidence),
            _ => None,
        })
        .unwrap_or(f64::NAN)
}

pub fn penalties(d: &[Decision]) -> Vec<(&'static str, Side, Option<u32>)> {
    d.iter()
        .filter_map(|x| match x.kind {
            DecisionKind::Penalty { action, side, seconds, .. } => Some((
                match action {
                    PenaltyAction::AddTime => "add_time",
                    PenaltyAction::Loss => "loss",
                    PenaltyAction::Draw => "draw",
                },
                side,
                seconds,
            )),
            _ => None,
        })
        .collect()
}

pub fn warnings(d: &[Decision]) -> Vec<String> {
    d.iter().filter_map(|x| match &x.kind { DecisionKind::Warning { detail, .. } => Some(detail.clone()), _ => None }).collect()
}

pub fn warning_articles(d: &[Decision]) -> Vec<&'static str> {
    d.iter().filter_map(|x| match x.kind { DecisionKind::Warning { article, .. } => article.map(|a| a.id()), _ => None }).collect()
}

pub fn states(d: &[Decision]) -> Vec<String> {
    d.iter().filter_map(|x| match &x.kind { DecisionKind::State { detail } => Some(detail.clone()), _ => None }).collect()
}

pub fn adjusts(d: &[Decision]) -> Vec<(Side, String)> {
    d.iter().filter_map(|x| match x.kind { DecisionKind::Adjust { side, square } => Some((side, square.to_string())), _ => None }).collect()
}

pub fn claims_closed(d: &[Decision]) -> Vec<(&'static str, Side)> {
    d.iter().filter_map(|x| match x.kind { DecisionKind::ClaimClosed { article, side, .. } => Some((article.id(), side)), _ => None }).collect()
}

pub fn detail_of_claim(d: &[Decision]) -> String {
    d.iter().find_map(|x| match &x.kind { DecisionKind::ClaimClosed { detail, .. } => Some(detail.clone()), _ => None }).unwrap_or_default()
}
