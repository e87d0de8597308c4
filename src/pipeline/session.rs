//! The game as it is published: the rules' decisions in order, each with the number it has on
//! the live feed (its line in `decisions.jsonl`), the alerts an arbiter acts on, the operator's
//! corrections, and the logs a crash must not lose.
//!
//! Everything a session decides follows from two journals, `events.jsonl` (the tracker's
//! events, and "j'adoube" said) and `operator.jsonl` (the corrections, each with how many
//! events came before it): [`Session::resume`] replays them and gets the same decisions, the
//! same numbers and the same record. `checkpoint.json` says how far a resumed game can trust
//! them: the last moment no hand was over the board.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::{Board, CastlingMode, Chess, EnPassantMode, Position};

use crate::output::jsonl::JsonlWriter;
use crate::output::pgn::{self, Tags};
use crate::output::write_whole;
use crate::rules::{Rules, RulesConfig};
use super::journal::{read_events, read_journal};
use crate::types::{Correction, Decision, DecisionKind, Event, EventKind, HandId, ImageSide, Journalled, Side, parse_position};

/// What an arbiter made of an alert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertStatus {
    Open,
    Dismissed,
    Confirmed,
}

/// A violation, as the arbiter sees it.
#[derive(Debug, Clone)]
pub struct Alert {
    /// The violation's number on the feed.
    pub id: u64,
    pub decision: Decision,
    pub status: AlertStatus,
    /// The frame where it happened, as a file name under `snapshots/`, once written.
    pub snapshot: Option<String>,
}

/// A decision with its number on the feed.
#[derive(Debug, Clone)]
pub struct Published {
    pub id: u64,
    pub decision: Decision,
}

impl Published {
    /// The decision's JSON line with its number added (`"id"`), as the feed sends it.
    pub fn to_json(&self) -> String {
        with_id(&self.decision, self.id).to_string()
    }
}

/// A decision's JSON object with its number on the feed added (`"id"`).
fn with_id(decision: &Decision, id: u64) -> serde_json::Value {
    let mut v = serde_json::to_value(decision).expect("decisions always serialise");
    if let Some(o) = v.as_object_mut() {
        o.insert("id".into(), id.into());
    }
    v
}

/// Why a correction was not made; the server answers 400 or 409 with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Conflict(String),
}

/// What a correction did: the decisions it published and, where the position was set, the
/// board the tracker must now expect.
#[derive(Debug, Default)]
pub struct Corrected {
    pub published: Vec<Published>,
    pub board: Option<Board>,
}

/// How far the logs can be trusted on resuming: the last moment no hand was over the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub events: u64,
    pub corrections: u64,
    /// The time and frame of the source at that moment.
    pub t: f64,
    pub frame: Option<u64>,
}

struct Logs {
    events: JsonlWriter<BufWriter<File>>,
    decisions: JsonlWriter<BufWriter<File>>,
    /// Opened at the first correction: a replay has none.
    operator: Option<JsonlWriter<BufWriter<File>>>,
    dir: PathBuf,
}

impl Logs {
    fn create(dir: &Path) -> Result<Logs> {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the output folder", dir.display()))?;
        let open = |name: &str| -> Result<JsonlWriter<BufWriter<File>>> {
            let path = dir.join(name);
            let f = OpenOptions::new().create(true).write(true).truncate(true).open(&path).with_context(|| format!("{}: cannot create", path.display()))?;
            Ok(JsonlWriter::new(BufWriter::new(f)))
        };
        let operator = dir.join("operator.jsonl");
        match std::fs::remove_file(&operator) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e).with_context(|| format!("{}: cannot remove the old journal", operator.display())),
            _ => {}
        }
        Ok(Logs { events: open("events.jsonl")?, decisions: open("decisions.jsonl")?, operator: None, dir: dir.to_path_buf() })
    }
}

/// The rules, the record they build and the operator's corrections, written as they happen.
pub struct Session {
    tags: Tags,
    start: Chess,
    /// The moves before the operator set a position the record could not reach: the record
    /// starts again from it, and the PGN says what came before in its first comment.
    note: Option<String>,
    rules: Rules,
    /// What the PGN shows, with each decision's number; moves taken back are gone from it.
    record: Vec<Published>,
    alerts: Vec<Alert>,
    next_id: u64,
    events: u64,
    corrections: u64,
    last_t: f64,
    last_frame: Option<u64>,
    on_board: BTreeSet<HandId>,
    next_hand: u32,
    logs: Logs,
}

impl Session {
    /// A new game in `dir`: the logs there are started afresh.
    pub fn create(dir: &Path, tags: Tags, start: Chess, white_sits: Option<ImageSide>) -> Result<Session> {
        let logs = Logs::create(dir)?;
        let rules = Rules::new(RulesConfig { start: start.clone(), white_sits });
        let s = Session { tags, start, note: None, rules, record: Vec::new(), alerts: Vec::new(), next_id: 0, events: 0, corrections: 0, last_t: 0.0, last_frame: None, on_board: BTreeSet::new(), next_hand: 0, logs };
        s.write_pgn()?;
        Ok(s)
    }

    /// The game in `dir` as its logs left it, up to its checkpoint: what came after is dropped
    /// from the logs (the source is read again from there). Returns the checkpoint.
    pub fn resume(dir: &Path, tags: Tags, start: Chess, white_sits: Option<ImageSide>) -> Result<(Session, Checkpoint)> {
        let cp_path = dir.join("checkpoint.json");
        let checkpoint: Checkpoint = match std::fs::read_to_string(&cp_path) {
            Ok(text) => serde_json::from_str(&text).with_context(|| format!("{}: not a checkpoint this program wrote; move it away to replay the logs from the start", cp_path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Checkpoint::default(),
            Err(e) => return Err(e).with_context(|| format!("{}: cannot read", cp_path.display())),
        };
        let events = read_events(&dir.join("events.jsonl"))?;
        let corrections = read_journal(&dir.join("operator.jsonl"))?;
        if (events.len() as u64) < checkpoint.events || (corrections.len() as u64) < checkpoint.corrections {
            bail!("{}: the checkpoint counts more than the logs hold (events.jsonl or operator.jsonl was cut short); nothing was changed", cp_path.display());
        }
        let mut s = Session::create(dir, tags, start, white_sits)?;
        let mut pending = corrections.into_iter().take(checkpoint.corrections as usize).peekable();
        for e in events.into_iter().take(checkpoint.events as usize) {
            while let Some(j) = pending.next_if(|j| j.after_events <= s.events) {
                s.replay_correction(&j.correction)?;
            }
            s.apply(e)?;
        }
        for j in pending {
            s.replay_correction(&j.correction)?;
        }
        for a in &mut s.alerts {
            let name = snapshot_name(a.id);
            if dir.join("snapshots").join(&name).is_file() {
                a.snapshot = Some(name);
            }
        }
        s.write_pgn()?;
        Ok((s, checkpoint))
    }

    fn replay_correction(&mut self, c: &Correction) -> Result<()> {
        if let Err(refused) = self.correct(c)? {
            eprintln!("touchmove: {}: a journalled correction is refused on replay ({refused}); skipped", self.logs.dir.join("operator.jsonl").display());
        }
        Ok(())
    }

    /// Judges one tracker event, logging it and what it leads to.
    pub fn apply(&mut self, event: Event) -> Result<Vec<Published>> {
        self.logs.events.line(&event.to_json()).with_context(|| self.log_error("events.jsonl"))?;
        self.events += 1;
        self.last_t = self.last_t.max(event.t);
        self.last_frame = event.frame.or(self.last_frame);
        match event.kind {
            EventKind::HandEnter { hand, .. } => {
                self.on_board.insert(hand);
                self.next_hand = self.next_hand.max(hand.0 + 1);
            }
            EventKind::HandLeave { hand } => {
                self.on_board.remove(&hand);
            }
            _ => {}
        }
        let decisions = self.rules.apply(&event);
        self.publish(decisions)
    }

    /// The end of the game's stream: a rook move held back as castling stands.
    pub fn finish(&mut self) -> Result<Vec<Published>> {
        let decisions = self.rules.finish();
        let out = self.publish(decisions)?;
        self.write_pgn()?;
        Ok(out)
    }

    fn publish(&mut self, decisions: Vec<Decision>) -> Result<Vec<Published>> {
        let mut out = Vec::new();
        let mut changed = false;
        for decision in decisions {
            self.logs.decisions.line(&decision.to_json()).with_context(|| self.log_error("decisions.jsonl"))?;
            let p = Published { id: self.next_id, decision };
            self.next_id += 1;
            match p.decision.kind {
                DecisionKind::Move { .. } | DecisionKind::Penalty { .. } => changed = true,
                DecisionKind::Violation { .. } => {
                    changed = true;
                    self.alerts.push(Alert { id: p.id, decision: p.decision.clone(), status: AlertStatus::Open, snapshot: None });
                }
                _ => {}
            }
            self.record.push(p.clone());
            out.push(p);
        }
        if changed {
            self.write_pgn()?;
        }
        Ok(out)
    }

    /// Makes an operator's correction, journals it and says what it did, or why not.
    pub fn correct(&mut self, c: &Correction) -> Result<Result<Corrected, Refused>> {
        let mut done = Corrected::default();
        // A rook move held back as possible castling stands before the record is touched.
        let held = self.rules.finish();
        done.published = self.publish(held)?;
        let note = match c {
            Correction::Undo => {
                let Some(last) = self.record.iter().rposition(|p| matches!(p.decision.kind, DecisionKind::Move { .. })) else {
                    return Ok(Err(Refused::Conflict("there is no move to take back".into())));
                };
                let removed = self.record.remove(last);
                let DecisionKind::Move { ply, san, side, .. } = &removed.decision.kind else { unreachable!("found as a move") };
                let before = self.position_before(last);
                let line = format!("operator: {} taken back", numbered(*ply, *side, san));
                self.rules.set_position(before.clone(), ply.saturating_sub(1));
                done.board = Some(before.board().clone());
                line
            }
            Correction::SetFen { fen } => {
                let pos = match parse_position(fen) {
                    Ok(p) => p,
                    Err(why) => return Ok(Err(Refused::BadRequest(why.to_string()))),
                };
                let (line, published) = self.set_position(&pos)?;
                done.published.extend(published);
                done.board = Some(pos.board().clone());
                line
            }
            Correction::Adjust { side } => {
                let e = Event { t: self.last_t, frame: self.last_frame, kind: EventKind::AdjustAnnounced { side: *side } };
                self.journal(c)?;
                done.published.extend(self.apply(e)?);
                return Ok(Ok(done));
            }
            Correction::Dismiss { alert } | Correction::Confirm { alert } => {
                let status = if matches!(c, Correction::Dismiss { .. }) { AlertStatus::Dismissed } else { AlertStatus::Confirmed };
                let Some(a) = self.alerts.iter_mut().find(|a| a.id == *alert) else {
                    return Ok(Err(Refused::BadRequest(format!("there is no alert {alert}"))));
                };
                a.status = status;
                let verb = if status == AlertStatus::Dismissed { "dismissed" } else { "confirmed" };
                let article = a.decision.violation().map_or(String::new(), |(art, _)| format!(" ({art})"));
                format!("operator: alert {alert}{article} {verb}")
            }
        };
        self.journal(c)?;
        let state = Decision { t: self.last_t, frame: self.last_frame, kind: DecisionKind::State { detail: note } };
        done.published.extend(self.publish(vec![state])?);
        self.write_pgn()?;
        Ok(Ok(done))
    }

    fn journal(&mut self, c: &Correction) -> Result<()> {
        let j = Journalled { after_events: self.events, correction: c.clone() };
        if self.logs.operator.is_none() {
            let path = self.logs.dir.join("operator.jsonl");
            let f = File::create(&path).with_context(|| format!("{}: cannot create", path.display()))?;
            self.logs.operator = Some(JsonlWriter::new(BufWriter::new(f)));
        }
        let line = serde_json::to_string(&j)?;
        let what = self.log_error("operator.jsonl");
        self.logs.operator.as_mut().expect("opened above").line(&line).context(what)?;
        self.corrections += 1;
        Ok(())
    }

    /// The position before the record's entry `index`: after the last move before it.
    fn position_before(&self, index: usize) -> Chess {
        self.record[..index]
            .iter()
            .rev()
            .find_map(|p| match &p.decision.kind {
                DecisionKind::Move { fen, .. } => parse_position(fen).ok(),
                _ => None,
            })
            .unwrap_or_else(|| self.start.clone())
    }

    /// The operator's position: a position of the record takes the record back to it; one
    /// legal move on from the current one is that move; anything else starts the record again.
    fn set_position(&mut self, pos: &Chess) -> Result<(String, Vec<Published>)> {
        let key = position_key(pos);
        let moves: Vec<usize> = self.record.iter().enumerate().filter(|(_, p)| matches!(p.decision.kind, DecisionKind::Move { .. })).map(|(i, _)| i).collect();
        let now = self.rules.position().clone();
        if position_key(&now) == key {
            return Ok(("operator: position confirmed as it stands".into(), Vec::new()));
        }
        // Back to a position the record went through.
        for (n, &i) in moves.iter().enumerate().rev() {
            let DecisionKind::Move { fen, ply, .. } = &self.record[i].decision.kind else { continue };
            if parse_position(fen).ok().is_some_and(|p| position_key(&p) == key) {
                let ply = *ply;
                let taken = moves.len() - n - 1;
                for &j in moves[n + 1..].iter().rev() {
                    self.record.remove(j);
                }
                self.rules.set_position(pos.clone(), ply);
                return Ok((format!("operator: position set, {taken} move(s) taken back"), Vec::new()));
            }
        }
        if position_key(&self.start) == key {
            for &j in moves.iter().rev() {
                self.record.remove(j);
            }
            self.rules.set_position(pos.clone(), 0);
            return Ok((format!("operator: position set to the start, {} move(s) taken back", moves.len()), Vec::new()));
        }
        // One legal move on: the move the camera missed.
        for m in now.legal_moves() {
            let mut after = now.clone();
            after.play_unchecked(m);
            if position_key(&after) == key {
                let san = shakmaty::san::SanPlus::from_move(now.clone(), m).to_string();
                let ply = self.rules.ply() + 1;
                let side = Side::from(now.turn());
                let fen = Fen::from_position(&after, EnPassantMode::Legal).to_string();
                let uci = m.to_uci(CastlingMode::Standard).to_string();
                let decision = Decision { t: self.last_t, frame: self.last_frame, kind: DecisionKind::Move { ply, side, uci, san: san.clone(), fen } };
                let published = self.publish(vec![decision])?;
                self.rules.set_position(after, ply);
                return Ok((format!("operator: {} entered by hand", numbered(ply, side, &san)), published));
            }
        }
        // Anything else: the record starts again from the operator's position.
        let before = pgn::plain_moves(&self.start, &self.kept_decisions());
        let before = if before.is_empty() { "no move".to_string() } else { before };
        self.note = Some(format!("the operator set the position after {before}"));
        self.record.clear();
        self.start = pos.clone();
        self.rules.set_position(pos.clone(), 0);
        Ok(("operator: position set; the record starts again from it".into(), Vec::new()))
    }

    fn kept_decisions(&self) -> Vec<Decision> {
        let dismissed: BTreeSet<u64> = self.alerts.iter().filter(|a| a.status == AlertStatus::Dismissed).map(|a| a.id).collect();
        self.record.iter().filter(|p| !dismissed.contains(&p.id)).map(|p| p.decision.clone()).collect()
    }

    /// The PGN as it stands: the main line, dismissed alerts left out.
    pub fn pgn(&self) -> String {
        pgn::write_noted(&self.tags, &self.start, self.note.as_deref(), &self.kept_decisions())
    }

    fn write_pgn(&self) -> Result<()> {
        write_whole(&self.logs.dir.join("game.pgn"), self.pgn())
    }

    /// Notes that the alert's frame was saved as `snapshots/<name>`.
    pub fn set_snapshot(&mut self, id: u64, name: String) {
        if let Some(a) = self.alerts.iter_mut().find(|a| a.id == id) {
            a.snapshot = Some(name);
        }
    }

    /// No hand is over the board: a resumed game may start again from here.
    pub fn quiet(&self) -> bool {
        self.on_board.is_empty()
    }

    /// Records that the logs so far can be trusted up to the source's time `t`.
    pub fn checkpoint(&self, t: f64, frame: Option<u64>) -> Result<()> {
        let cp = Checkpoint { events: self.events, corrections: self.corrections, t, frame };
        write_whole(&self.logs.dir.join("checkpoint.json"), serde_json::to_string(&cp)?)
    }

    /// The first hand id a tracker started now must use.
    pub fn next_hand(&self) -> u32 {
        self.next_hand
    }

    /// The board as the hands have left it.
    pub fn board(&self) -> Board {
        self.rules.board()
    }

    pub fn position(&self) -> &Chess {
        self.rules.position()
    }

    pub fn alerts(&self) -> &[Alert] {
        &self.alerts
    }

    pub fn dir(&self) -> &Path {
        &self.logs.dir
    }

    /// Moves and violations recorded (violations not dismissed).
    pub fn counts(&self) -> (usize, usize) {
        let kept = self.kept_decisions();
        (kept.iter().filter(|d| matches!(d.kind, DecisionKind::Move { .. })).count(), kept.iter().filter(|d| d.violation().is_some()).count())
    }

    /// What the viewer page shows: the position, the moves, the alerts.
    pub fn state_json(&self) -> serde_json::Value {
        let moves: Vec<serde_json::Value> = self
            .record
            .iter()
            .filter_map(|p| match &p.decision.kind {
                DecisionKind::Move { ply, side, uci, san, .. } => Some(serde_json::json!({"id": p.id, "ply": ply, "side": side, "uci": uci, "san": san, "t": p.decision.t})),
                _ => None,
            })
            .collect();
        let alerts: Vec<serde_json::Value> = self
            .alerts
            .iter()
            .map(|a| {
                let mut v = with_id(&a.decision, a.id);
                if let Some(o) = v.as_object_mut() {
                    o.insert("status".into(), serde_json::to_value(a.status).expect("plain enum"));
                    o.insert("snapshot".into(), a.snapshot.as_ref().map(|n| format!("/snapshots/{n}")).into());
                }
                v
            })
            .collect();
        let pos = self.rules.position();
        serde_json::json!({
            "fen": Fen::from_position(pos, EnPassantMode::Legal).to_string(),
            "turn": Side::from(pos.turn()),
            "moves": moves,
            "last_move": moves.last(),
            "alerts": alerts,
            "result": self.rules.result().unwrap_or("*"),
            "note": self.note,
        })
    }

    fn log_error(&self, name: &str) -> String {
        format!("{}: cannot write", self.logs.dir.join(name).display())
    }
}

/// The file name an alert's frame is saved under.
pub fn snapshot_name(id: u64) -> String {
    format!("alert-{id}.jpg")
}

fn numbered(ply: u32, side: Side, san: &str) -> String {
    let n = ply.div_ceil(2).max(1);
    match side {
        Side::White => format!("{n}. {san}"),
        Side::Black => format!("{n}... {san}"),
    }
}

/// What makes two positions the same for the record: the pieces, the side to move, the
/// castling rights and en passant (not the move counters).
fn position_key(pos: &Chess) -> String {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::Script;

    fn session(dir: &Path) -> Session {
        Session::create(dir, Tags::default(), Chess::default(), None).unwrap()
    }

    fn play(s: &mut Session, script: &Script) {
        for e in script.events() {
            s.apply(e).unwrap();
        }
    }

    fn sans(s: &Session) -> Vec<String> {
        s.state_json()["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap().to_string()).collect()
    }

    #[test]
    fn undo_takes_the_last_move_out_of_the_main_line_and_the_game_goes_on_from_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path());
        play(&mut s, &Script::new().mv("e2e4").mv("e7e5"));
        let done = s.correct(&Correction::Undo).unwrap().unwrap();
        assert_eq!(sans(&s), ["e4"]);
        assert_eq!(done.board.as_ref(), Some(Script::new().mv("e2e4").position().board()));
        assert!(s.pgn().contains("1. e4") && !s.pgn().contains("e5") && !s.pgn().contains('('), "{}", s.pgn());
        // Black plays another move from the position restored.
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        play(&mut s, &Script::from_fen(after_e4).enter(7, crate::types::Side::Black).mv_with(7, "c7c5"));
        assert_eq!(sans(&s), ["e4", "c5"]);
        assert!(s.pgn().contains("1... c5"), "{}", s.pgn());
        s.correct(&Correction::Undo).unwrap().unwrap();
        s.correct(&Correction::Undo).unwrap().unwrap();
        assert_eq!(s.correct(&Correction::Undo).unwrap().unwrap_err(), Refused::Conflict("there is no move to take back".into()));
    }

    #[test]
    fn a_fen_goes_back_in_the_record_adds_the_one_missed_move_or_starts_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path());
        play(&mut s, &Script::new().mv("e2e4").mv("e7e5").mv("g1f3"));
        // Back to after 1. e4: two moves taken back.
        s.correct(&Correction::SetFen { fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into() }).unwrap().unwrap();
        assert_eq!(sans(&s), ["e4"]);
        // One legal move on: recorded, as if seen.
        let done = s.correct(&Correction::SetFen { fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".into() }).unwrap().unwrap();
        assert_eq!(sans(&s), ["e4", "e5"]);
        assert!(done.published.iter().any(|p| matches!(p.decision.kind, DecisionKind::Move { .. })));
        // Anything else: the record starts again from it, the moves before kept in a note.
        s.correct(&Correction::SetFen { fen: "4k3/8/8/8/8/8/8/4K2R w K - 0 40".into() }).unwrap().unwrap();
        assert!(sans(&s).is_empty());
        let pgn = s.pgn();
        assert!(pgn.contains("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 40\"]") && pgn.contains("after 1. e4 e5"), "{pgn}");
        // A bad FEN changes nothing.
        assert!(matches!(s.correct(&Correction::SetFen { fen: "not a fen".into() }).unwrap(), Err(Refused::BadRequest(_))));
        assert!(matches!(s.correct(&Correction::SetFen { fen: "8/8/8/8/8/8/8/8 w - - 0 1".into() }).unwrap(), Err(Refused::BadRequest(_))));
    }

    #[test]
    fn a_dismissed_alert_leaves_the_pgn_a_confirmed_one_stays() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path());
        // 4.3.1: Ng1 touched, e2 moved.
        play(&mut s, &Script::new().enter(0, crate::types::Side::White).touch(0, "g1").lift(0, "e2").place(0, "e4").release(0, "e4").leave(0));
        let id = s.alerts().first().expect("a touch-move alert").id;
        assert!(s.pgn().contains("violation 4.3.1"));
        s.correct(&Correction::Confirm { alert: id }).unwrap().unwrap();
        assert!(s.pgn().contains("violation 4.3.1"));
        s.correct(&Correction::Dismiss { alert: id }).unwrap().unwrap();
        assert!(!s.pgn().contains("violation"), "{}", s.pgn());
        assert_eq!(s.alerts()[0].status, AlertStatus::Dismissed);
        assert!(matches!(s.correct(&Correction::Dismiss { alert: 999 }).unwrap(), Err(Refused::BadRequest(_))));
    }

    #[test]
    fn a_resumed_session_replays_its_journals_to_the_same_record() {
        let dir = tempfile::tempdir().unwrap();
        let script = Script::new().mv("e2e4").mv("e7e5").mv("g1f3");
        let (pgn, decisions) = {
            let mut s = session(dir.path());
            play(&mut s, &script);
            s.correct(&Correction::Undo).unwrap().unwrap();
            s.correct(&Correction::Adjust { side: crate::types::Side::White }).unwrap().unwrap();
            s.checkpoint(10.0, Some(300)).unwrap();
            (s.pgn(), std::fs::read_to_string(dir.path().join("decisions.jsonl")).unwrap())
        };
        // A line cut short by the kill is dropped; events after the checkpoint are dropped.
        let events = dir.path().join("events.jsonl");
        let mut text = std::fs::read_to_string(&events).unwrap();
        text.push_str("{\"t\":11.0,\"kind\":\"hand_ent");
        std::fs::write(&events, text).unwrap();
        let (s, cp) = Session::resume(dir.path(), Tags::default(), Chess::default(), None).unwrap();
        assert_eq!(cp.t, 10.0);
        assert_eq!(s.pgn(), pgn);
        assert_eq!(std::fs::read_to_string(dir.path().join("decisions.jsonl")).unwrap(), decisions);
        assert_eq!(sans(&s), ["e4", "e5"]);
    }

    #[test]
    fn a_log_damaged_before_its_end_is_refused_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mut s = session(dir.path());
            play(&mut s, &Script::new().mv("e2e4"));
            s.checkpoint(5.0, None).unwrap();
        }
        let events = dir.path().join("events.jsonl");
        let text = std::fs::read_to_string(&events).unwrap();
        std::fs::write(&events, format!("garbage\n{text}")).unwrap();
        let err = Session::resume(dir.path(), Tags::default(), Chess::default(), None).err().expect("refused");
        assert!(format!("{err:#}").contains("events.jsonl: line 1"), "{err:#}");
    }
}
