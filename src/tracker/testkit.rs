//! What the tracker's tests share: frames of a board with one White arm over it, and a reel
//! that plays them through a tracker.

use super::*;
use crate::types::{HandObs, SquareObs};

/// Where White's arm is: its fingertips' square and the squares it hides.
pub type Arm<'a> = Option<(Square, &'a [Square])>;

/// `board` as seen at 30 frames a second with White's arm `id` (if any) hiding its squares.
pub fn arm_frame(n: u64, board: &Board, arm: Arm, id: u32) -> Observation {
    let hidden: &[Square] = arm.map_or(&[], |(_, c)| c);
    let squares = Square::ALL
        .iter()
        .map(|&sq| SquareObs { state: if hidden.contains(&sq) { SquareState::Occluded } else { SquareState::of(board.piece_at(sq)) }, confidence: 1.0, role: None })
        .collect();
    let hands = arm.map(|(tip, covers)| HandObs {
        id,
        side: Some(Side::White),
        polygon: Vec::new(),
        extremity: [0.0, 0.0],
        extremity_square: Some(tip),
        covers: covers.to_vec(),
        extremity_board: Some([u32::from(tip.file()) as f32 + 0.5, u32::from(tip.rank()) as f32 + 0.5]),
        extremity_lean: None,
    });
    Observation { frame: n, t: n as f64 / 30.0, squares, hands: hands.into_iter().collect(), clock: None, board_lost: false }
}

/// A square read as `state`, as sure as vision says it (a piece of colour untold, half).
pub fn square_obs(state: SquareState) -> SquareObs {
    SquareObs { state, confidence: if state == SquareState::Piece { 0.5 } else { 1.0 }, role: None }
}

/// `o` with `sq` read as `state`: a misreading, or a square fitting no look.
pub fn read_as(o: &mut Observation, sq: Square, state: SquareState) {
    o.squares[usize::from(sq)] = square_obs(state);
}

/// `board` with each piece in turn moved `from` → `to` (whatever stood on `to` taken off).
pub fn moved(board: &Board, moves: &[(Square, Square)]) -> Board {
    let mut b = board.clone();
    for &(from, to) in moves {
        let piece = b.remove_piece_at(from).expect("a piece to move");
        b.set_piece_at(to, piece);
    }
    b
}

/// Which squares hold white pieces and which black: all a camera tells for sure.
pub fn colours(b: &Board) -> (shakmaty::Bitboard, shakmaty::Bitboard) {
    (b.by_color(Color::White), b.by_color(Color::Black))
}

/// `board` with the pieces on `squares` taken off (a piece in a hand, a square read empty).
pub fn without(board: &Board, squares: &[Square]) -> Board {
    let mut b = board.clone();
    for &sq in squares {
        b.discard_piece_at(sq);
    }
    b
}

/// The lifts and settings down written, with their hands, in the order written.
pub fn handling(events: &[Event]) -> Vec<(HandId, Square, bool)> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Lift { hand, square } => Some((hand, square, true)),
            EventKind::Place { hand, square, .. } => Some((hand, square, false)),
            _ => None,
        })
        .collect()
}

/// A tracker fed frame after frame, with the events it wrote.
pub struct Reel {
    pub tracker: Tracker,
    pub events: Vec<Event>,
    n: u64,
    /// The arm's id in the frames to come.
    pub arm_id: u32,
}

impl Reel {
    /// Starts from `start`, seen once with no arm.
    pub fn new(start: &Board) -> Reel {
        let mut tracker = Tracker::new(TrackerConfig { start: start.clone(), ..TrackerConfig::default() });
        let events = tracker.observe(&arm_frame(0, start, None, 0));
        Reel { tracker, events, n: 1, arm_id: 1 }
    }

    /// `frames` frames of `board` with the arm as given.
    pub fn run(&mut self, frames: u64, board: &Board, arm: Arm) -> &mut Reel {
        self.run_seen(frames, board, arm, |_| {})
    }

    /// The same, each frame as `seen` changes it (a square misread, a colour untold).
    pub fn run_seen(&mut self, frames: u64, board: &Board, arm: Arm, seen: impl Fn(&mut Observation)) -> &mut Reel {
        for _ in 0..frames {
            let mut o = arm_frame(self.n, board, arm, self.arm_id);
            seen(&mut o);
            self.feed(o);
        }
        self
    }

    /// `frames` frames of `board` with two arms, each hiding its squares: `first` under id
    /// `ids.0`, `second` under `ids.1` (one arm vision sees under two ids for a moment).
    pub fn run_two(&mut self, frames: u64, board: &Board, first: (Square, &[Square]), second: (Square, &[Square]), ids: (u32, u32)) -> &mut Reel {
        for _ in 0..frames {
            let mut o = arm_frame(self.n, board, Some(first), ids.0);
            for &sq in second.1 {
                read_as(&mut o, sq, SquareState::Occluded);
            }
            o.hands.extend(arm_frame(self.n, board, Some(second), ids.1).hands);
            self.feed(o);
        }
        self
    }

    /// The number the next frame fed will carry.
    pub fn next_frame(&self) -> u64 {
        self.n
    }

    /// Feeds one observation made by hand (numbered [`next_frame`](Self::next_frame)).
    pub fn feed(&mut self, o: Observation) {
        self.events.extend(self.tracker.observe(&o));
        self.n += 1;
    }

    /// The board believed so far, and the events written so far, the reel going on.
    pub fn finish_keep(reel: &mut Reel) -> (Board, Vec<Event>) {
        (reel.tracker.board(), reel.events.clone())
    }

    /// The end of the stream: the board believed, and every event.
    pub fn finish(mut self) -> (Board, Vec<Event>) {
        self.events.extend(self.tracker.finish());
        (self.tracker.board(), self.events)
    }
}
