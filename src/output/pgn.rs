//! The PGN game record: the seven-tag roster, the moves in the main line, the time of each move
//! and every violation and penalty as comments, and the result.

use std::fmt::Write as _;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use crate::types::{Decision, DecisionKind, PenaltyAction, Side};

/// The roster tags other than Result, which the game decides.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Tags {
    pub event: String,
    pub site: String,
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
}

impl Default for Tags {
    fn default() -> Tags {
        Tags { event: "?".into(), site: "?".into(), date: "????.??.??".into(), round: "?".into(), white: "?".into(), black: "?".into() }
    }
}

/// The result the decisions lead to: mate or stalemate on the board, or a 7.5.5 penalty.
pub fn result(decisions: &[Decision]) -> &'static str {
    for d in decisions.iter().rev() {
        match &d.kind {
            DecisionKind::Penalty { action: PenaltyAction::Loss, side, .. } => {
                return if *side == Side::White { "0-1" } else { "1-0" };
            }
            DecisionKind::Penalty { action: PenaltyAction::Draw, .. } => return "1/2-1/2",
            DecisionKind::Move { fen, .. } => {
                let pos: Option<Chess> = fen.parse::<Fen>().ok().and_then(|f| f.into_position(CastlingMode::Standard).ok());
                return match pos.map(|p| p.outcome()) {
                    Some(shakmaty::Outcome::Known(shakmaty::KnownOutcome::Decisive { winner: Color::White })) => "1-0",
                    Some(shakmaty::Outcome::Known(shakmaty::KnownOutcome::Decisive { winner: Color::Black })) => "0-1",
                    Some(shakmaty::Outcome::Known(shakmaty::KnownOutcome::Draw)) => "1/2-1/2",
                    _ => "*",
                };
            }
            _ => {}
        }
    }
    "*"
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

fn comment_text(d: &Decision) -> Option<String> {
    match &d.kind {
        DecisionKind::Violation { article, side, detail, .. } => {
            let who = side.map(|s| format!(" {s}")).unwrap_or_default();
            Some(format!("violation {article}{who} at {:.2} s: {detail}", d.t))
        }
        DecisionKind::Penalty { article, side, action, seconds } => Some(match action {
            PenaltyAction::AddTime => format!("penalty {article} {side}: +{} s to the opponent", seconds.unwrap_or(0)),
            PenaltyAction::Loss => format!("penalty {article} {side}: game lost"),
            PenaltyAction::Draw => format!("penalty {article} {side}: drawn, the opponent cannot checkmate"),
        }),
        _ => None,
    }
    .map(|c| c.replace(['{', '}'], ""))
}

/// The PGN of the game the decisions record, from `start`.
pub fn write(tags: &Tags, start: &Chess, decisions: &[Decision]) -> String {
    write_noted(tags, start, None, decisions)
}

/// The moves alone, numbered, no comments (`1. e4 e5 2. Nf3`), for a note.
pub fn plain_moves(start: &Chess, decisions: &[Decision]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut number = start.fullmoves().get();
    for d in decisions {
        if let DecisionKind::Move { san, side, .. } = &d.kind {
            match side {
                Side::White => out.push(format!("{number}. {san}")),
                Side::Black if out.is_empty() => out.push(format!("{number}... {san}")),
                Side::Black => out.push(san.clone()),
            }
            if *side == Side::Black {
                number += 1;
            }
        }
    }
    out.join(" ")
}

/// The PGN with `note` as the first comment of the movetext (what came before the record's
/// start, when an operator set the position).
pub fn write_noted(tags: &Tags, start: &Chess, note: Option<&str>, decisions: &[Decision]) -> String {
    let result = result(decisions);
    let mut out = String::new();
    for (name, value) in [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
        ("Round", &tags.round),
        ("White", &tags.white),
        ("Black", &tags.black),
    ] {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    let _ = writeln!(out, "[Result \"{result}\"]");
    if *start != Chess::default() {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{}\"]", Fen::from_position(start, EnPassantMode::Legal));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut comments: Vec<String> = note.map(|n| n.replace(['{', '}'], "")).into_iter().collect();
    let mut number = start.fullmoves().get();
    let flush = |tokens: &mut Vec<String>, comments: &mut Vec<String>| {
        if !comments.is_empty() {
            tokens.push(format!("{{ {} }}", comments.join("; ")));
            comments.clear();
        }
    };
    for d in decisions {
        match &d.kind {
            DecisionKind::Move { san, side, .. } => {
                flush(&mut tokens, &mut comments);
                // Every move carries its time as a comment, so a black move always follows
                // one and takes the "N..." form.
                match side {
                    Side::White => tokens.push(format!("{number}.")),
                    Side::Black => tokens.push(format!("{number}...")),
                }
                tokens.push(san.clone());
                comments.push(format!("{:.2} s", d.t));
                if *side == Side::Black {
                    number += 1;
                }
            }
            _ => comments.extend(comment_text(d)),
        }
    }
    flush(&mut tokens, &mut comments);
    tokens.push(result.to_owned());
    // Wrap at 80 columns, as PGN export format asks.
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
