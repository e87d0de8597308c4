//! Acts → motion: where every piece and every hand is in every frame, and the frame at which
//! each act becomes visible (the ground truth's events). Acts run one after another; a hand
//! that is not acting stays where it is.

use shakmaty::{Chess, Color, Piece, Position, Role, Square};

use super::camera::{CLOCK_MID_CM, HALF_BOARD_CM, V3, square_at, square_centre};
use super::rng::Rng;
use super::scene::{Act, Scene, SceneError};
use crate::types::Event;

/// A piece in the world. `on_table` turns false once a hand carries it off.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieceState {
    pub piece: Piece,
    pub pos: V3,
    /// Which way a knight's head faces, radians.
    pub facing: f64,
    pub on_table: bool,
}

/// A hand (with its arm) in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandState {
    pub id: u32,
    pub side: Color,
    /// The fingertips' end.
    pub tip: V3,
    /// Where the arm comes from, beyond the table edge.
    pub anchor: V3,
    /// 0 open … 1 closed on a piece.
    pub grip: f64,
    pub holding: Option<usize>,
    /// A transient hand that only presses the clock.
    pub clock_only: bool,
}

/// Everything visible in one frame.
#[derive(Debug, Clone)]
pub struct WorldFrame {
    pub pieces: Vec<PieceState>,
    pub hands: Vec<HandState>,
    /// How far each button (White's, Black's) is pressed down, 0…1.
    pub buttons: [f64; 2],
    /// Where the drifting shadow is, 0…1 across its path.
    pub shadow: f64,
}

pub struct Timeline {
    pub frames: Vec<WorldFrame>,
    pub events: Vec<Event>,
    pub fps: f64,
}

/// A piece standing on `sq` (not in a hand, resting on the board).
pub fn resting_on(frame: &WorldFrame, sq: Square) -> Option<Piece> {
    frame
        .pieces
        .iter()
        .enumerate()
        .rev()
        .find(|(i, p)| p.on_table && p.pos[2] < 0.3 && square_at(p.pos) == Some(sq) && !frame.hands.iter().any(|h| h.holding == Some(*i) && h.grip > 0.5 && p.pos[2] > 0.05))
        .map(|(_, p)| p.piece)
}

pub fn piece_height(role: Role) -> f64 {
    match role {
        Role::Pawn => 4.9,
        Role::Knight => 6.0,
        Role::Bishop => 6.8,
        Role::Rook => 5.4,
        Role::Queen => 8.4,
        Role::King => 9.6,
    }
}

fn lerp(a: V3, b: V3, s: f64) -> V3 {
    [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s]
}

fn smooth(s: f64) -> f64 {
    let s = s.clamp(0.0, 1.0);
    s * s * (3.0 - 2.0 * s)
}

fn dist(a: V3, b: V3) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

fn over_board(p: V3) -> bool {
    p[0].abs() < HALF_BOARD_CM + 1.0 && p[1].abs() < HALF_BOARD_CM + 1.0
}

/// How far apart, across the table, a player's two hands come in.
const SHOULDERS_CM: f64 = 30.0;

/// Towards the player: -1 for White (rank 1 side), +1 for Black.
fn home(side: Color) -> f64 {
    if side == Color::White { -1.0 } else { 1.0 }
}

struct Sim {
    state: WorldFrame,
    frames: Vec<WorldFrame>,
    events: Vec<Event>,
    fps: f64,
    rng: Rng,
}

impl Sim {
    fn snap(&mut self) {
        let s = self.state.shadow;
        self.state.shadow = (s + 1.0 / (self.fps * 20.0)) % 1.0;
        self.frames.push(self.state.clone());
    }

    fn emit(&mut self, kind: crate::types::EventKind) {
        // The event is visible in the frame about to be written.
        let frame = self.frames.len() as u64;
        let t = (frame as f64 / self.fps * 1e6).round() / 1e6;
        self.events.push(Event { t, frame: Some(frame), kind });
    }

    fn hand(&mut self, id: u32) -> usize {
        if let Some(i) = self.state.hands.iter().position(|h| h.id == id && !h.clock_only) {
            return i;
        }
        // A hand acting without entering first comes from the player having the move side;
        // the script is trusted to say `enter`, so this is only a fallback.
        self.add_hand(id, Color::White, false)
    }

    fn add_hand(&mut self, id: u32, side: Color, clock_only: bool) -> usize {
        let spread = self.rng.below(1000) as f64 / 1000.0;
        // A player's second hand on the board at once is his other one, from his other shoulder:
        // the first is taken for his right (its anchor leans right, below), the second comes
        // in a shoulder's width to his left of it (towards +x for Black, -x for White).
        let lean = 10.0 * home(side) * -0.3;
        let other = self.state.hands.iter().find(|h| h.side == side && !h.clock_only).map(|h| h.anchor[0] - lean);
        let lateral = match other {
            _ if clock_only => CLOCK_MID_CM,
            Some(first) => first + home(side) * SHOULDERS_CM,
            None => (spread - 0.5) * 24.0,
        };
        let anchor = [lateral + lean, home(side) * (HALF_BOARD_CM + 40.0), 18.0];
        let tip = [lateral, home(side) * (HALF_BOARD_CM + 14.0), 12.0];
        self.state.hands.push(HandState { id, side, tip, anchor, grip: 0.0, holding: None, clock_only });
        self.state.hands.len() - 1
    }

    /// Moves hand `h`'s tip to `to` in `secs`, arcing over pieces when it travels far, calling
    /// `each` after every frame's position is set (to carry a piece or emit an event).
    fn travel(&mut self, h: usize, to: V3, secs: f64, mut each: impl FnMut(&mut Sim, f64)) {
        let from = self.state.hands[h].tip;
        let n = ((secs * self.fps).round() as usize).max(1);
        let arc = if dist(from, to) > 4.0 { 6.0f64.min(dist(from, to) * 0.3) } else { 0.0 };
        for i in 1..=n {
            let s = smooth(i as f64 / n as f64);
            let mut p = lerp(from, to, s);
            p[2] += arc * (std::f64::consts::PI * s).sin();
            self.state.hands[h].tip = p;
            if let Some(k) = self.state.hands[h].holding {
                let height = piece_height(self.state.pieces[k].piece.role);
                self.state.pieces[k].pos = [p[0], p[1], (p[2] - height * 0.85).max(0.0)];
            }
            each(self, s);
            self.snap();
        }
    }

    fn grip(&mut self, h: usize, to: f64, secs: f64) {
        let from = self.state.hands[h].grip;
        let n = ((secs * self.fps).round() as usize).max(1);
        for i in 1..=n {
            self.state.hands[h].grip = from + (to - from) * (i as f64 / n as f64);
            self.snap();
        }
    }

    fn idle(&mut self, secs: f64) {
        for _ in 0..(secs * self.fps).round() as usize {
            self.snap();
        }
    }

    fn travel_secs(&self, h: usize, to: V3) -> f64 {
        0.25 + dist(self.state.hands[h].tip, to) / 70.0
    }

    fn top_of(&self, sq: Square) -> Option<(usize, f64)> {
        let frame = &self.state;
        frame
            .pieces
            .iter()
            .enumerate()
            .rev()
            .find(|(_, p)| p.on_table && p.pos[2] < 0.3 && square_at(p.pos) == Some(sq))
            .map(|(i, p)| (i, piece_height(p.piece.role)))
    }

    fn act(&mut self, act: &Act) {
        // A piece set down and not released stays where it is once its hand moves on to
        // anything else (a knocked piece).
        let acting = match *act {
            Act::Touch { hand, .. } | Act::Lift { hand, .. } | Act::Leave { hand } => Some(hand),
            _ => None,
        };
        if let Some(id) = acting {
            if let Some(h) = self.state.hands.iter_mut().find(|h| h.id == id && !h.clock_only) {
                if let Some(k) = h.holding {
                    if self.state.pieces[k].pos[2] < 0.3 {
                        h.holding = None;
                        h.grip = 0.0;
                    }
                }
            }
        }
        match *act {
            Act::Enter { hand, side } => {
                let h = self.add_hand(hand, side.into(), false);
                let tip = self.state.hands[h].tip;
                // The hand comes to rest over the board's border, not over a piece: reaching
                // for a piece is the next act's motion.
                let to = [tip[0], home(side.into()) * (HALF_BOARD_CM + 1.5), 10.0];
                let mut sent = false;
                self.travel(h, to, 0.5, |sim, _| {
                    if !sent && over_board(sim.state.hands[h].tip) {
                        sent = true;
                        sim.emit(crate::types::EventKind::HandEnter { hand: crate::types::HandId(hand), side });
                    }
                });
                if !sent {
                    // Resting over the border counts as over the board: it is within reach.
                    self.emit(crate::types::EventKind::HandEnter { hand: crate::types::HandId(hand), side });
                }
            }
            Act::Touch { hand, square } => {
                let h = self.hand(hand);
                let height = self.top_of(square).map_or(0.5, |(_, z)| z);
                let c = square_centre(square);
                let to = [c[0], c[1], height + 0.2];
                let secs = self.travel_secs(h, to);
                self.travel(h, to, secs, |_, _| {});
                self.emit(act.event().expect("touch shows"));
                self.idle(0.25);
            }
            Act::Lift { hand, square } => {
                let h = self.hand(hand);
                let side = self.state.hands[h].side;
                // Where a capturing piece already stands beside the taken one, it is the taken
                // one that comes off.
                let taken = self.state.pieces.iter().enumerate().find(|(_, p)| {
                    p.on_table && p.pos[2] < 0.3 && square_at(p.pos) == Some(square) && p.piece.color != side
                });
                let crowded = self.state.pieces.iter().filter(|p| p.on_table && p.pos[2] < 0.3 && square_at(p.pos) == Some(square)).count() > 1;
                let target = match taken {
                    Some((k, p)) if crowded => Some((k, piece_height(p.piece.role))),
                    _ => self.top_of(square),
                };
                let Some((k, height)) = target else {
                    self.emit(act.event().expect("lift shows"));
                    return;
                };
                // A piece already in this hand (a taken one) goes into the palm, off the board,
                // before the fingers reach for the next.
                if let Some(old) = self.state.hands[h].holding.take() {
                    self.state.pieces[old].on_table = false;
                }
                let c = self.state.pieces[k].pos;
                let grasp = [c[0], c[1], height * 0.85];
                let secs = self.travel_secs(h, grasp);
                self.travel(h, grasp, secs, |_, _| {});
                self.grip(h, 1.0, 0.12);
                self.state.hands[h].holding = Some(k);
                let up = [c[0], c[1], height * 0.85 + 3.0];
                let mut sent = false;
                self.travel(h, up, 0.2, |sim, _| {
                    if !sent {
                        sent = true;
                        sim.emit(act.event().expect("lift shows"));
                    }
                });
            }
            Act::Place { hand, square, piece } => {
                let h = self.hand(hand);
                let side = self.state.hands[h].side;
                if let Some(role) = piece {
                    // Fetch the new piece from beside the board, at the player's right.
                    let tray = [home(side) * -(HALF_BOARD_CM + 7.0), home(side) * (HALF_BOARD_CM + 2.0), 8.0];
                    let secs = self.travel_secs(h, tray);
                    self.travel(h, tray, secs, |_, _| {});
                    if let Some(k) = self.state.hands[h].holding.take() {
                        self.state.pieces[k].on_table = false;
                    }
                    let height = piece_height(role);
                    self.state.pieces.push(PieceState { piece: Piece { color: side, role }, pos: [tray[0], tray[1], (tray[2] - height * 0.85).max(0.0)], facing: home(side) * -std::f64::consts::FRAC_PI_2, on_table: true });
                    self.state.hands[h].holding = Some(self.state.pieces.len() - 1);
                    self.state.hands[h].grip = 1.0;
                }
                if self.state.hands[h].holding.is_none() {
                    // A hand-over: reach the player's other hand and take its piece.
                    if let Some(other) = (0..self.state.hands.len()).find(|&o| o != h && self.state.hands[o].side == side && self.state.hands[o].holding.is_some()) {
                        let meet = self.state.hands[other].tip;
                        let secs = self.travel_secs(h, meet);
                        self.travel(h, meet, secs, |_, _| {});
                        self.state.hands[h].holding = self.state.hands[other].holding.take();
                        self.state.hands[h].grip = 1.0;
                        self.grip(other, 0.0, 0.12);
                    }
                }
                let Some(k) = self.state.hands[h].holding else {
                    self.emit(act.event().expect("place shows"));
                    return;
                };
                let height = piece_height(self.state.pieces[k].piece.role);
                let c = square_centre(square);
                let jitter = [(self.rng.below(100) as f64 - 50.0) / 150.0, (self.rng.below(100) as f64 - 50.0) / 150.0];
                let above = [c[0] + jitter[0], c[1] + jitter[1], height * 0.85 + 2.5];
                let secs = self.travel_secs(h, above);
                self.travel(h, above, secs, |_, _| {});
                let down = [above[0], above[1], height * 0.85];
                self.travel(h, down, 0.18, |_, _| {});
                self.emit(act.event().expect("place shows"));
                self.snap();
            }
            Act::Release { hand, square: _ } => {
                let h = self.hand(hand);
                if let Some(k) = self.state.hands[h].holding.take() {
                    self.state.pieces[k].pos[2] = 0.0;
                }
                self.emit(act.event().expect("release shows"));
                self.grip(h, 0.0, 0.12);
                let tip = self.state.hands[h].tip;
                self.travel(h, [tip[0], tip[1], tip[2] + 2.0], 0.15, |_, _| {});
            }
            Act::Leave { hand } => {
                let h = self.hand(hand);
                let side = self.state.hands[h].side;
                let tip = self.state.hands[h].tip;
                let out = [tip[0], home(side) * (HALF_BOARD_CM + 16.0), 12.0];
                let mut sent = false;
                self.travel(h, out, 0.5, |sim, _| {
                    if !sent && !over_board(sim.state.hands[h].tip) {
                        sent = true;
                        sim.emit(act.event().expect("leave shows"));
                    }
                });
                if !sent {
                    self.emit(act.event().expect("leave shows"));
                }
                if let Some(k) = self.state.hands[h].holding.take() {
                    self.state.pieces[k].on_table = false;
                }
                self.state.hands.remove(h);
            }
            Act::Clock { side } => {
                let color: Color = side.into();
                let h = self.add_hand(u32::MAX - color as u32, color, true);
                let button = [CLOCK_MID_CM, home(color) * 3.0, 7.5];
                let secs = self.travel_secs(h, button);
                self.travel(h, button, secs, |_, _| {});
                let b = if color == Color::White { 0 } else { 1 };
                let pressed = [button[0], button[1], 6.8];
                self.travel(h, pressed, 0.06, |sim, s| sim.state.buttons[b] = s);
                self.emit(act.event().expect("clock shows"));
                self.snap();
                let tip = self.state.hands[h].tip;
                let back = [tip[0], home(color) * (HALF_BOARD_CM + 20.0), 14.0];
                self.travel(h, back, 0.3, |sim, s| sim.state.buttons[b] = 1.0 - s);
                self.state.hands.remove(h);
            }
            Act::Announce { .. } => self.emit(act.event().expect("announce shows")),
            Act::Wait { seconds } => self.idle(seconds),
            Act::Slide { hand, from, to } => {
                let h = self.hand(hand);
                let Some((k, height)) = self.top_of(from) else { return };
                let c = self.state.pieces[k].pos;
                let grip_at = [c[0], c[1], height * 0.9];
                let secs = self.travel_secs(h, grip_at);
                self.travel(h, grip_at, secs, |_, _| {});
                self.grip(h, 0.6, 0.1);
                // The piece stays on the board while the fingers push it.
                let target = square_centre(to);
                let n = ((0.3 + ((target[0] - c[0]).hypot(target[1] - c[1])) / 40.0) * self.fps).round().max(2.0) as usize;
                let (mut left, mut arrived) = (false, false);
                for i in 1..=n {
                    let s = smooth(i as f64 / n as f64);
                    let p = [c[0] + (target[0] - c[0]) * s, c[1] + (target[1] - c[1]) * s, 0.0];
                    self.state.pieces[k].pos = p;
                    self.state.hands[h].tip = [p[0], p[1], height * 0.9];
                    if !left && square_at(p) != Some(from) {
                        left = true;
                        self.emit(crate::types::EventKind::Lift { hand: crate::types::HandId(hand), square: from });
                    }
                    if left && !arrived && i == n {
                        arrived = true;
                        self.emit(crate::types::EventKind::Place { hand: crate::types::HandId(hand), square: to, piece: None, color: None });
                    }
                    self.snap();
                }
                self.emit(crate::types::EventKind::Release { hand: crate::types::HandId(hand), square: to });
                self.grip(h, 0.0, 0.1);
            }
        }
    }
}

/// Plays the scene's acts. Deterministic from the scene's seed.
pub fn run(scene: &Scene) -> Result<Timeline, SceneError> {
    let start: Chess = scene.start_position()?;
    let mut rng = Rng::new(scene.seed);
    let pieces = start
        .board()
        .iter()
        .map(|(sq, piece)| {
            let c = square_centre(sq);
            let j = |rng: &mut Rng| (rng.below(100) as f64 - 50.0) / 160.0;
            let facing = if piece.color == Color::White { std::f64::consts::FRAC_PI_2 } else { -std::f64::consts::FRAC_PI_2 } + (rng.below(100) as f64 - 50.0) / 100.0;
            PieceState { piece, pos: [c[0] + j(&mut rng), c[1] + j(&mut rng), 0.0], facing, on_table: true }
        })
        .collect();
    let mut sim = Sim {
        state: WorldFrame { pieces, hands: Vec::new(), buttons: [0.0, 0.0], shadow: 0.0 },
        frames: Vec::new(),
        events: Vec::new(),
        fps: scene.fps,
        rng,
    };
    let placement = crate::types::Placement::from(start.board());
    sim.emit(crate::types::EventKind::Board { placement, h1_light: Some(true), white: None });
    sim.idle(0.5);
    for act in &scene.acts {
        sim.act(act);
    }
    sim.idle(0.5);
    Ok(Timeline { frames: sim.frames, events: sim.events, fps: scene.fps })
}
