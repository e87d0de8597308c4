//! Clean event streams: what a perfect tracker reports when players move as the Laws ask.

use shakmaty::{Chess, Move, Position, Square};

use super::rng::Rng;
use crate::types::{Event, EventKind, HandId, Placement, Side};

/// How one move is carried out by the hand.
#[derive(Debug, Clone, Default)]
pub struct MoveStyle {
    /// A taken piece is lifted off before the capturing piece is set down.
    pub capture_first: bool,
    /// Promotion: the new piece is set down before the pawn is taken off.
    pub promotion_piece_first: bool,
    /// Promotion: the pawn is first set on the promotion square, then swapped.
    pub pawn_onto_last_rank: bool,
    /// The moving piece is touched in a frame of its own before it is lifted.
    pub touch_first: bool,
    /// An own piece adjusted after saying "j'adoube".
    pub announced_adjust: Option<Square>,
}

/// Writes events on a timeline of `step` seconds at `fps` frames a second.
#[derive(Debug, Clone)]
pub struct StreamWriter {
    pub events: Vec<Event>,
    t: f64,
    fps: f64,
    step: f64,
    hold: bool,
    next_hand: u32,
}

impl StreamWriter {
    pub fn new(fps: f64, step: f64) -> StreamWriter {
        StreamWriter { events: Vec::new(), t: 0.0, fps, step, hold: false, next_hand: 0 }
    }

    /// The next event happens in the same instant as the last one.
    pub fn same_instant(&mut self) {
        self.hold = true;
    }

    pub fn push(&mut self, kind: EventKind) {
        if !std::mem::take(&mut self.hold) {
            self.t += self.step;
        }
        let t = (self.t * 1e6).round() / 1e6;
        self.events.push(Event { t, frame: Some((t * self.fps).round() as u64), kind });
    }

    /// A hand id never used before in this stream.
    pub fn new_hand(&mut self) -> HandId {
        self.next_hand += 1;
        HandId(self.next_hand - 1)
    }

    /// Reserves ids below `n` for hands the caller numbers itself.
    pub fn reserve_hands(&mut self, n: u32) {
        self.next_hand = self.next_hand.max(n);
    }

    /// `hand` lifts the piece on `from`, sets it on `to` and lets go.
    pub fn carry(&mut self, hand: HandId, from: Square, to: Square) {
        self.push(EventKind::Lift { hand, square: from });
        self.push(EventKind::Place { hand, square: to, piece: None, color: None });
        self.push(EventKind::Release { hand, square: to });
    }

    /// `hand` sets the piece it holds on `to` and lets go.
    pub fn carry_held(&mut self, hand: HandId, to: Square) {
        self.push(EventKind::Place { hand, square: to, piece: None, color: None });
        self.push(EventKind::Release { hand, square: to });
    }

    pub fn board(&mut self, pos: &Chess) {
        self.push(EventKind::Board { placement: Placement::from(pos.board()), h1_light: Some(true), white: None });
    }

    /// The acts of one hand carrying out `m` from `pos` (no enter, leave or clock).
    pub fn acts(&mut self, pos: &Chess, m: Move, hand: HandId, style: &MoveStyle) {
        let mover = pos.turn();
        if let Some(sq) = style.announced_adjust {
            self.push(EventKind::AdjustAnnounced { side: mover.into() });
            self.carry(hand, sq, sq);
        }
        let lift = |w: &mut Self, square| w.push(EventKind::Lift { hand, square });
        let place = |w: &mut Self, square| w.push(EventKind::Place { hand, square, piece: None, color: None });
        let release = |w: &mut Self, square| w.push(EventKind::Release { hand, square });
        let from = match m {
            Move::Castle { king, .. } => king,
            other => other.from().unwrap_or(other.to()),
        };
        if style.touch_first {
            self.push(EventKind::Touch { hand, square: from });
        }
        match m {
            Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_king_side(rook.file() > king.file());
                self.carry(hand, king, side.king_to(mover));
                self.carry(hand, rook, side.rook_to(mover));
            }
            Move::Normal { from, to, promotion: Some(role), capture, .. } => {
                let taken = capture.map(|_| to);
                if style.promotion_piece_first {
                    if style.capture_first {
                        taken.into_iter().for_each(|sq| lift(self, sq));
                    }
                    self.push(EventKind::Place { hand, square: to, piece: Some(role), color: None });
                    release(self, to);
                    if !style.capture_first {
                        taken.into_iter().for_each(|sq| lift(self, sq));
                    }
                    lift(self, from);
                } else {
                    if style.capture_first {
                        taken.into_iter().for_each(|sq| lift(self, sq));
                    }
                    lift(self, from);
                    if style.pawn_onto_last_rank && (style.capture_first || taken.is_none()) {
                        place(self, to);
                        release(self, to);
                        lift(self, to);
                    }
                    self.push(EventKind::Place { hand, square: to, piece: Some(role), color: None });
                    release(self, to);
                    if !style.capture_first {
                        taken.into_iter().for_each(|sq| lift(self, sq));
                    }
                }
            }
            other => {
                let to = other.to();
                let taken = crate::rules::captured_square(other);
                if style.capture_first {
                    taken.into_iter().for_each(|sq| lift(self, sq));
                }
                lift(self, from);
                place(self, to);
                release(self, to);
                if !style.capture_first {
                    taken.into_iter().for_each(|sq| lift(self, sq));
                }
            }
        }
    }

    /// A whole move: a new hand enters, carries it out, leaves; the clock is pressed.
    pub fn whole_move(&mut self, pos: &Chess, m: Move, style: &MoveStyle, clock: bool) {
        let hand = self.new_hand();
        let side: Side = pos.turn().into();
        self.push(EventKind::HandEnter { hand, side });
        self.acts(pos, m, hand, style);
        self.push(EventKind::HandLeave { hand });
        if clock {
            self.push(EventKind::Clock { side });
        }
    }
}

/// A varied but clean style for `m`, drawn from `rng`.
pub fn random_style(pos: &Chess, m: Move, rng: &mut Rng) -> MoveStyle {
    let mut style = MoveStyle {
        capture_first: rng.chance(0.5),
        promotion_piece_first: rng.chance(0.5),
        pawn_onto_last_rank: rng.chance(0.5),
        touch_first: rng.chance(0.3),
        announced_adjust: None,
    };
    if rng.chance(0.05) {
        let involved = crate::rules::move_squares(m);
        let own: Vec<Square> = pos.us().into_iter().filter(|s| !involved.contains(*s)).collect();
        if !own.is_empty() {
            style.announced_adjust = Some(own[rng.below(own.len())]);
        }
    }
    style
}

/// The event stream of a whole clean game: the board at the start, then each move by its own
/// hand in a style drawn from `seed`, each followed by the clock.
pub fn game_events(start: &Chess, moves: &[Move], seed: u64) -> Vec<Event> {
    let mut rng = Rng::new(seed);
    let mut w = StreamWriter::new(30.0, 0.1);
    w.board(start);
    let mut pos = start.clone();
    for &m in moves {
        let style = random_style(&pos, m, &mut rng);
        w.whole_move(&pos, m, &style, true);
        pos.play_unchecked(m);
    }
    w.events
}
