//! Tracker events: what hands did to pieces, one JSON object a line (DESIGN.md, "Events").
//!
//! Reading is strict where a wrong guess would corrupt a game record (unknown kind, bad square,
//! missing field, time going backwards) and lenient where the contract may grow (extra fields are
//! ignored, so a newer tracker can add confidences without breaking an older rules core).

use std::io::BufRead;

use serde::{Deserialize, Serialize};
use shakmaty::{Role, Square};

use super::{Placement, Side};

/// A hand's id. Ids are never reused: a hand that leaves and comes back is a new id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HandId(pub u32);

/// Which edge of the image a player sits at, as `touchmove calibrate` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ImageSide {
    Bottom,
    Top,
    Left,
    Right,
}

/// One tracker event: when, in which frame, and what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Seconds since the start of the source.
    pub t: f64,
    /// Frame index, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<u64>,
    #[serde(flatten)]
    pub kind: EventKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    /// A hand reaches over the board from `side`'s edge: it is that player's hand.
    HandEnter { hand: HandId, side: Side },
    /// Contact with the piece on `square`, no lift (yet).
    Touch {
        hand: HandId,
        #[serde(with = "super::square_serde")]
        square: Square,
    },
    /// The piece leaves `square`.
    Lift {
        hand: HandId,
        #[serde(with = "super::square_serde")]
        square: Square,
    },
    /// A piece is set on `square`. `piece` names it when it came from off the board (promotion);
    /// its colour is the hand's player's unless `color` says otherwise (a captured piece put back).
    Place {
        hand: HandId,
        #[serde(with = "super::square_serde")]
        square: Square,
        #[serde(default, with = "super::role_serde", skip_serializing_if = "Option::is_none")]
        piece: Option<Role>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<Side>,
    },
    /// The hand lets go of the piece on `square`.
    Release {
        hand: HandId,
        #[serde(with = "super::square_serde")]
        square: Square,
    },
    /// The hand is gone; a piece it still held has left the board.
    HandLeave { hand: HandId },
    /// `side`'s clock button was pressed.
    Clock { side: Side },
    /// Operator input: `side` said "j'adoube".
    AdjustAnnounced { side: Side },
    /// The settled board as seen. `white` (additive): the image edge where the white pieces
    /// stand, used to tell colours reversed (7.3) against the pairing.
    Board {
        placement: Placement,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        h1_light: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        white: Option<ImageSide>,
    },
}

impl EventKind {
    /// The hand this event is about, if any.
    pub fn hand(&self) -> Option<HandId> {
        match *self {
            EventKind::HandEnter { hand, .. }
            | EventKind::Touch { hand, .. }
            | EventKind::Lift { hand, .. }
            | EventKind::Place { hand, .. }
            | EventKind::Release { hand, .. }
            | EventKind::HandLeave { hand } => Some(hand),
            _ => None,
        }
    }
}

impl Event {
    pub fn new(t: f64, frame: Option<u64>, kind: EventKind) -> Event {
        Event { t, frame, kind }
    }

    /// One JSONL line, without the newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("events always serialise")
    }
}

/// A line of an event stream that cannot be read, with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct EventError {
    pub line: usize,
    pub message: String,
}

/// Events known ahead of the frames they fall among (the operator's input, "j'adoube" heard,
/// given from a file or a scene's script), in time order, handed out as the frames reach their
/// time.
#[derive(Debug, Clone, Default)]
pub struct DueEvents {
    pending: std::collections::VecDeque<Event>,
}

impl DueEvents {
    pub fn new(events: impl IntoIterator<Item = Event>) -> DueEvents {
        DueEvents { pending: events.into_iter().collect() }
    }

    /// The events due by time `t`, taken off.
    pub fn due(&mut self, t: f64) -> Vec<Event> {
        let n = self.pending.iter().take_while(|e| e.t <= t).count();
        self.pending.drain(..n).collect()
    }

    /// All those left, taken off.
    pub fn rest(&mut self) -> Vec<Event> {
        self.pending.drain(..).collect()
    }
}

/// Reads events from JSONL, one at a time, checking each line and that time never goes back.
/// Blank lines are skipped. Stops at the first error: a record built past a bad line would be
/// a guess.
pub struct EventReader<R> {
    input: R,
    line: usize,
    last_t: f64,
    buf: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> EventReader<R> {
    pub fn new(input: R) -> Self {
        EventReader { input, line: 0, last_t: f64::NEG_INFINITY, buf: Vec::new(), failed: false }
    }

    fn error(&mut self, message: impl Into<String>) -> Option<Result<Event, EventError>> {
        self.failed = true;
        Some(Err(EventError { line: self.line, message: message.into() }))
    }
}

impl<R: BufRead> Iterator for EventReader<R> {
    type Item = Result<Event, EventError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            self.buf.clear();
            self.line += 1;
            match self.input.read_until(b'\n', &mut self.buf) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => return self.error(format!("cannot read: {e}")),
            }
            let Ok(text) = std::str::from_utf8(&self.buf) else {
                return self.error("not UTF-8 text");
            };
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            let value: serde_json::Value = match serde_json::from_str(text) {
                Ok(v) => v,
                Err(e) => return self.error(format!("not JSON ({e})")),
            };
            let Some(object) = value.as_object() else {
                return self.error("an event must be a JSON object");
            };
            match object.get("kind") {
                None => return self.error("missing field `kind`"),
                Some(k) if !k.is_string() => return self.error("field `kind` must be a string"),
                _ => {}
            }
            if !object.get("t").is_some_and(|t| t.is_number()) {
                return self.error("missing or non-numeric field `t` (seconds)");
            }
            let event: Event = match serde_json::from_value(value) {
                Ok(e) => e,
                Err(e) => return self.error(e.to_string()),
            };
            if !event.t.is_finite() || event.t < 0.0 {
                return self.error(format!("time {} is not a non-negative number of seconds", event.t));
            }
            if event.t < self.last_t {
                let message = format!("time goes back: t={} after t={}", event.t, self.last_t);
                return self.error(message);
            }
            self.last_t = event.t;
            return Some(Ok(event));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Vec<Event>, EventError> {
        EventReader::new(text.as_bytes()).collect()
    }

    #[test]
    fn reads_every_kind_of_the_contract() {
        let text = r#"{"t":1.20,"frame":36,"kind":"hand_enter","hand":0,"side":"white"}
{"t":1.50,"frame":45,"kind":"touch","hand":0,"square":"g1"}
{"t":1.70,"frame":51,"kind":"lift","hand":0,"square":"g1"}

{"t":2.10,"frame":63,"kind":"place","hand":0,"square":"f3"}
{"t":2.10,"frame":63,"kind":"place","hand":0,"square":"f8","piece":"Q"}
{"t":2.20,"frame":66,"kind":"release","hand":0,"square":"f3"}
{"t":2.60,"frame":78,"kind":"hand_leave","hand":0}
{"t":3.00,"frame":90,"kind":"clock","side":"white"}
{"t":3.00,"kind":"adjust_announced","side":"white"}
{"t":3.10,"frame":93,"kind":"board","placement":"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R","h1_light":true}
"#;
        let events = read(text).unwrap();
        assert_eq!(events.len(), 10);
        assert_eq!(events[1].kind, EventKind::Touch { hand: HandId(0), square: Square::G1 });
        assert!(matches!(events[4].kind, EventKind::Place { piece: Some(Role::Queen), .. }));
        assert_eq!(events[8].frame, None);
        // Serialising gives back what was read.
        for e in &events {
            assert_eq!(read(&e.to_json()).unwrap()[0], *e);
        }
    }

    #[test]
    fn errors_name_the_line_and_the_fault() {
        let cases = [
            ("{\"t\":1,\"kind\":\"tuch\",\"hand\":0,\"square\":\"g1\"}", "unknown variant `tuch`"),
            ("{\"t\":1,\"kind\":\"touch\",\"hand\":0,\"square\":\"i9\"}", "\"i9\" is not a square"),
            ("{\"t\":1,\"kind\":\"touch\",\"hand\":0}", "missing field `square`"),
            ("{\"kind\":\"clock\",\"side\":\"white\"}", "field `t`"),
            ("{\"t\":1,\"side\":\"white\"}", "missing field `kind`"),
            ("{\"t\":1,\"kind\":\"clock\",\"side\":\"red\"}", "unknown variant `red`"),
            ("{\"t\":1,\"kind\":\"place\",\"hand\":0,\"square\":\"e8\",\"piece\":\"X\"}", "not a piece letter"),
            ("{\"t\":-1,\"kind\":\"clock\",\"side\":\"white\"}", "non-negative"),
            ("[1,2]", "JSON object"),
            ("{\"t\":1,", "not JSON"),
            ("{\"t\":1,\"kind\":\"board\",\"placement\":\"8/8\"}", "8 ranks"),
        ];
        for (line, expected) in cases {
            let text = format!("{{\"t\":0,\"kind\":\"clock\",\"side\":\"black\"}}\n{line}\n");
            let err = read(&text).unwrap_err();
            assert_eq!(err.line, 2, "{line}");
            assert!(err.to_string().starts_with("line 2: "), "{err}");
            assert!(err.message.contains(expected), "{line}: {err}");
        }
    }

    #[test]
    fn time_may_repeat_but_never_go_back() {
        let same = "{\"t\":1,\"kind\":\"touch\",\"hand\":0,\"square\":\"g1\"}\n{\"t\":1,\"kind\":\"touch\",\"hand\":0,\"square\":\"b1\"}\n";
        assert_eq!(read(same).unwrap().len(), 2);
        let back = "{\"t\":2,\"kind\":\"clock\",\"side\":\"white\"}\n{\"t\":1.5,\"kind\":\"clock\",\"side\":\"black\"}\n";
        let err = read(back).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("time goes back"));
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let err = EventReader::new(&b"\xff\xfe\n"[..]).next().unwrap().unwrap_err();
        assert_eq!(err.line, 1);
    }
}
