//! The tracker: per-frame observations → the hands' acts (the contract's events), each with the
//! frame and time it happened.
//!
//! The board changes only when seen: a square under a hand keeps its last settled state, and a
//! change counts once a few frames agree. When a hand uncovers squares that changed, each change
//! is given to the hand whose fingertips dwelt on that square and timed by that dwell, so acts
//! hidden under the hand come out in the order the hand made them (king before rook, pawn off
//! before the new queen). A fingertip dwelling on a piece is a touch; a hand sweeping past is not.
//! Pieces are followed by identity (what was lifted is what is set down), starting from the
//! known position.

use std::collections::BTreeMap;

use shakmaty::{Board, Color, Piece, Role, Square};

use crate::types::{Event, EventKind, HandId, Observation, Placement, Side, SquareState};

/// How the tracker reads time.
#[derive(Debug, Clone)]
pub struct TrackerConfig {
    /// The board at the start (its pieces' identities).
    pub start: Board,
    /// Frames a changed square must be seen the same before it counts.
    pub confirm_frames: u32,
    /// How long fingertips must stay on a piece for a touch, seconds.
    pub dwell_secs: f64,
    /// How long the board must stay still, with no hand over it, before a `board` snapshot.
    pub settle_secs: f64,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        TrackerConfig { start: Board::default(), confirm_frames: 2, dwell_secs: 0.2, settle_secs: 0.3 }
    }
}

/// A stay of the fingertips over one square.
#[derive(Debug, Clone, Copy)]
struct Visit {
    start: (u64, f64),
    end: (u64, f64),
}

impl Visit {
    fn length(&self) -> f64 {
        self.end.1 - self.start.1
    }
}

#[derive(Debug, Clone)]
struct HandTrack {
    side: Side,
    /// The longest stay over each square during this hand's visit.
    longest: BTreeMap<Square, Visit>,
    current: Option<(Square, Visit)>,
    touched: Vec<Square>,
    held: Vec<Piece>,
}

/// A change seen on a square, turned into an act.
#[derive(Debug, Clone, Copy)]
struct Act {
    at: (u64, f64),
    hand: Option<u32>,
    square: Square,
    lift: bool,
    /// For a place: the colour seen, and the type if vision could tell.
    colour: Option<Color>,
    role: Option<Role>,
}

pub struct Tracker {
    cfg: TrackerConfig,
    belief: [Option<Piece>; 64],
    candidate: [(SquareState, u32); 64],
    hands: BTreeMap<u32, HandTrack>,
    clock_was: [bool; 2],
    last_t: f64,
    fps_hint: f64,
    quiet_since: Option<f64>,
    dirty: bool,
    started: bool,
    out: Vec<Event>,
}

fn state_of(p: Option<Piece>) -> SquareState {
    match p {
        None => SquareState::Empty,
        Some(p) if p.color == Color::White => SquareState::White,
        Some(_) => SquareState::Black,
    }
}

impl Tracker {
    pub fn new(cfg: TrackerConfig) -> Tracker {
        let mut belief = [None; 64];
        for (sq, p) in cfg.start.iter() {
            belief[usize::from(sq)] = Some(p);
        }
        let candidate = std::array::from_fn(|i| (state_of(belief[i]), 0));
        Tracker { cfg, belief, candidate, hands: BTreeMap::new(), clock_was: [false; 2], last_t: 0.0, fps_hint: 30.0, quiet_since: None, dirty: false, started: false, out: Vec::new() }
    }

    /// The board as the tracker believes it stands.
    pub fn board(&self) -> Board {
        let mut b = Board::empty();
        for sq in Square::ALL {
            if let Some(p) = self.belief[usize::from(sq)] {
                b.set_piece_at(sq, p);
            }
        }
        b
    }

    fn emit(&mut self, at: (u64, f64), kind: EventKind) {
        // Acts inferred after the fact can carry an earlier time than one already written;
        // the stream's time never goes back, so such an act is written at the latest time.
        let t = at.1.max(self.last_t);
        let frame = if t > at.1 { ((t * self.fps_hint).round() as u64).max(at.0) } else { at.0 };
        self.last_t = t;
        self.out.push(Event { t: (t * 1e6).round() / 1e6, frame: Some(frame), kind });
    }

    /// Judges one frame's observation; returns the events it reveals, in time order.
    pub fn observe(&mut self, obs: &Observation) -> Vec<Event> {
        let now = (obs.frame, obs.t);
        if obs.frame > 0 && obs.t > 0.0 {
            self.fps_hint = obs.frame as f64 / obs.t;
        }
        if !self.started {
            self.started = true;
            self.emit(now, EventKind::Board { placement: Placement::from(&self.board()), h1_light: None, white: None });
        }
        self.follow_hands(obs, now);
        let covered: Vec<Square> = obs.hands.iter().flat_map(|h| h.covers.iter().copied()).collect();
        let acts = self.confirm_changes(obs, &covered);
        self.apply_acts(acts);
        self.hands_gone(obs, now);
        self.clock(obs, now);
        self.snapshot(obs, now);
        std::mem::take(&mut self.out)
    }

    fn follow_hands(&mut self, obs: &Observation, now: (u64, f64)) {
        for h in &obs.hands {
            let over = h.extremity_square.is_some() || !h.covers.is_empty();
            if !over {
                continue;
            }
            if !self.hands.contains_key(&h.id) {
                let side = h.side.unwrap_or(Side::White);
                self.hands.insert(h.id, HandTrack { side, longest: BTreeMap::new(), current: None, touched: Vec::new(), held: Vec::new() });
                self.emit(now, EventKind::HandEnter { hand: HandId(h.id), side });
                self.dirty = true;
            }
            let dwell = self.cfg.dwell_secs;
            let occupied = h.extremity_square.is_some_and(|sq| self.belief[usize::from(sq)].is_some());
            let track = self.hands.get_mut(&h.id).expect("inserted above");
            match (h.extremity_square, track.current) {
                (Some(sq), Some((cur, mut visit))) if cur == sq => {
                    visit.end = now;
                    track.current = Some((sq, visit));
                }
                (sq, current) => {
                    if let Some((cur, visit)) = current {
                        let best = track.longest.entry(cur).or_insert(visit);
                        if visit.length() >= best.length() {
                            *best = visit;
                        }
                    }
                    track.current = sq.map(|s| (s, Visit { start: now, end: now }));
                }
            }
            if let Some((sq, visit)) = track.current {
                if occupied && visit.length() >= dwell && !track.touched.contains(&sq) {
                    track.touched.push(sq);
                    let at = visit.start;
                    self.emit(at, EventKind::Touch { hand: HandId(h.id), square: sq });
                }
            }
        }
    }

    /// The longest stay of hand `id` over `sq`, the current one included.
    fn visit_of(&self, id: u32, sq: Square) -> Option<Visit> {
        let track = self.hands.get(&id)?;
        let current = track.current.filter(|(s, _)| *s == sq).map(|(_, v)| v);
        match (track.longest.get(&sq).copied(), current) {
            (Some(a), Some(b)) => Some(if b.length() >= a.length() { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    fn confirm_changes(&mut self, obs: &Observation, covered: &[Square]) -> Vec<Act> {
        let mut acts = Vec::new();
        for sq in Square::ALL {
            let i = usize::from(sq);
            let Some(seen) = obs.squares.get(i).map(|s| s.state) else { continue };
            if seen == SquareState::Occluded || covered.contains(&sq) {
                continue;
            }
            let settled = state_of(self.belief[i]);
            if seen == settled {
                self.candidate[i] = (settled, 0);
                continue;
            }
            let (cand, count) = self.candidate[i];
            self.candidate[i] = if cand == seen { (seen, count + 1) } else { (seen, 1) };
            if self.candidate[i].1 < self.cfg.confirm_frames {
                continue;
            }
            self.candidate[i] = (seen, 0);
            // The hand that dwelt longest on this square did it, timed by the end of that stay.
            let who = self
                .hands
                .keys()
                .filter_map(|&id| self.visit_of(id, sq).map(|v| (id, v)))
                .max_by(|a, b| a.1.length().total_cmp(&b.1.length()));
            let at = who.map_or((obs.frame, obs.t), |(_, v)| v.end);
            let hand = who.map(|(id, _)| id).or_else(|| self.hands.keys().next_back().copied());
            let role = obs.squares[i].role;
            match (settled, seen) {
                (SquareState::Empty, c) => acts.push(Act { at, hand, square: sq, lift: false, colour: colour(c), role }),
                (_, SquareState::Empty) => acts.push(Act { at, hand, square: sq, lift: true, colour: None, role: None }),
                (_, c) => {
                    // A colour change: the taken piece off, the taker on.
                    acts.push(Act { at, hand, square: sq, lift: true, colour: None, role: None });
                    acts.push(Act { at, hand, square: sq, lift: false, colour: colour(c), role });
                }
            }
        }
        acts
    }

    fn apply_acts(&mut self, mut acts: Vec<Act>) {
        acts.sort_by(|a, b| a.at.1.total_cmp(&b.at.1).then(b.lift.cmp(&a.lift)));
        let step = 1.0 / self.fps_hint;
        for act in acts {
            self.dirty = true;
            let i = usize::from(act.square);
            let Some(id) = act.hand else {
                // No hand was ever over the board: the square changed by itself (a camera or
                // vision fault, or a piece falling); the next board snapshot reports it.
                self.belief[i] = act.colour.map(|color| Piece { color, role: act.role.unwrap_or(Role::Pawn) });
                continue;
            };
            let hand = HandId(id);
            if act.lift {
                if let Some(p) = self.belief[i].take() {
                    if let Some(t) = self.hands.get_mut(&id) {
                        t.held.push(p);
                    }
                    self.emit(act.at, EventKind::Lift { hand, square: act.square });
                }
                continue;
            }
            let colour = act.colour.unwrap_or(Color::White);
            // What this hand lifted, else what another hand of the player holds (a hand-over),
            // else a piece from off the board (a promotion).
            let mut take = |t: &mut HandTrack| t.held.iter().rposition(|p| p.color == colour).map(|k| t.held.remove(k));
            let carried = match self.hands.get_mut(&id).and_then(&mut take) {
                Some(p) => Some(p),
                None => self.hands.values_mut().find_map(&mut take),
            };
            let carried = carried.or_else(|| self.lift_unseen(id, act.square, colour));
            let (piece, named) = match carried {
                Some(p) => (p, None),
                None => {
                    let role = act.role.unwrap_or(Role::Queen);
                    (Piece { color: colour, role }, Some(role))
                }
            };
            self.belief[i] = Some(piece);
            // Fingers resting on the piece just put down are not a new touch.
            if let Some(t) = self.hands.get_mut(&id) {
                t.touched.push(act.square);
            }
            let color = (named.is_some() && self.hands.get(&id).is_some_and(|t| Color::from(t.side) != colour)).then_some(Side::from(colour));
            self.emit(act.at, EventKind::Place { hand, square: act.square, piece: named, color });
            self.emit((act.at.0 + 1, act.at.1 + step), EventKind::Release { hand, square: act.square });
        }
    }

    /// A piece set down by a hand that holds none came from a square the arm still hides: the
    /// one of that colour the hand dwelt on longest, from where that piece could reach the
    /// square. Its lift is written now, timed by that dwell; when the square is uncovered and
    /// seen empty, nothing more happens.
    fn lift_unseen(&mut self, id: u32, to: Square, colour: Color) -> Option<Piece> {
        let occupied: shakmaty::Bitboard = Square::ALL.into_iter().filter(|s| self.belief[usize::from(*s)].is_some()).collect();
        let track = self.hands.get(&id)?;
        let (from, visit) = track
            .longest
            .iter()
            .map(|(s, v)| (*s, *v))
            .chain(track.current)
            .filter(|(s, _)| *s != to)
            .filter(|(s, _)| self.belief[usize::from(*s)].is_some_and(|p| p.color == colour && reaches(p, *s, to, occupied)))
            .max_by(|a, b| a.1.length().total_cmp(&b.1.length()))?;
        let piece = self.belief[usize::from(from)].take()?;
        self.emit(visit.end, EventKind::Lift { hand: HandId(id), square: from });
        Some(piece)
    }

    fn hands_gone(&mut self, obs: &Observation, now: (u64, f64)) {
        let present: Vec<u32> = obs.hands.iter().filter(|h| h.extremity_square.is_some() || !h.covers.is_empty()).map(|h| h.id).collect();
        let gone: Vec<u32> = self.hands.keys().copied().filter(|id| !present.contains(id)).collect();
        for id in gone {
            self.hands.remove(&id);
            self.emit(now, EventKind::HandLeave { hand: HandId(id) });
        }
    }

    fn clock(&mut self, obs: &Observation, now: (u64, f64)) {
        let pressed = obs.clock.map_or([false; 2], |c| c.pressed);
        for (i, side) in [(0, Side::White), (1, Side::Black)] {
            if pressed[i] && !self.clock_was[i] {
                self.emit(now, EventKind::Clock { side });
            }
        }
        self.clock_was = pressed;
    }

    fn snapshot(&mut self, obs: &Observation, now: (u64, f64)) {
        let still = self.hands.is_empty() && self.candidate.iter().all(|(_, n)| *n == 0);
        if !still {
            self.quiet_since = None;
            return;
        }
        let since = *self.quiet_since.get_or_insert(obs.t);
        if self.dirty && obs.t - since >= self.cfg.settle_secs {
            self.dirty = false;
            self.emit(now, EventKind::Board { placement: Placement::from(&self.board()), h1_light: None, white: None });
        }
    }
}

/// Whether `piece` on `from` could move to `to` on a board with `occupied` squares (any
/// capture allowed): enough to pick which hidden square a piece came from.
fn reaches(piece: Piece, from: Square, to: Square, occupied: shakmaty::Bitboard) -> bool {
    use shakmaty::attacks;
    match piece.role {
        Role::Pawn => {
            let forward: i32 = if piece.color == Color::White { 1 } else { -1 };
            let df = u32::from(to.file()) as i32 - u32::from(from.file()) as i32;
            let dr = u32::from(to.rank()) as i32 - u32::from(from.rank()) as i32;
            (df.abs() <= 1 && dr == forward) || (df == 0 && dr == 2 * forward)
        }
        Role::King => attacks::king_attacks(from).contains(to) || (from.file() == shakmaty::File::E && (u32::from(to.file()) as i32 - 4).abs() == 2 && to.rank() == from.rank()),
        role => attacks::attacks(from, Piece { color: piece.color, role }, occupied).contains(to),
    }
}

fn colour(s: SquareState) -> Option<Color> {
    match s {
        SquareState::White => Some(Color::White),
        SquareState::Black => Some(Color::Black),
        _ => None,
    }
}
