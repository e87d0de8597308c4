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

mod acts;
mod aim;
mod castle;
mod changes;
mod doubt;
mod gone;
mod inferred;
mod hands;
use hands::JOIN_SECS;
mod misread;
mod moves;
mod stream;
mod unattended;

use std::collections::BTreeMap;

use shakmaty::{Board, Color, Piece, Role, Square};

use crate::types::{Event, EventKind, HandId, Observation, Placement, Side, SquareState};
use moves::{can_stand, castling, on_far_rank, reaches};

/// How long a piece that left in a hand may still turn up in another hand, seconds.
const LOOSE_SECS: f64 = 3.0;

/// How far fingertips may drift, in squares, and still be at rest.
const STILL_SQUARES: f32 = 0.15;

/// How far inside a square, in squares, fingertips must rest for a touch.
const TOUCH_INSET: f32 = 0.2;

/// How long a piece seen gone is looked for on squares still in doubt before the board is
/// reported without it, seconds.
const UNFOUND_SECS: f64 = 1.5;

/// The most squares one move changes (castling).
const MOVE_SQUARES: usize = 4;

/// How long an arm may stay off the playing area before it counts as gone, seconds.
const LEAVE_SECS: f64 = 0.4;

/// How soon after an arm left another of its player's may come in and be taken for the same
/// arm, seen again under a new id (vision lost it for a frame or two as it swung), seconds.
const RESUME_SECS: f64 = 0.25;

/// How long after an arm hid a square a change seen there with no hand near is still taken
/// for that arm's doing (it set the piece down and withdrew), seconds.
pub const REVEAL_SECS: f64 = 1.0;
/// How long after a square was last seen the arm that changes it may come in: an arm reaching
/// in at once may find the square already hidden, by the opponent's arm still withdrawing over
/// it or by vision's caution next to that arm (scholarsmate.avi: Black's arm comes in as
/// White's, having played e4, leaves over e5), seconds.
const REACH_SECS: f64 = 1.5;

/// How the tracker reads time.
#[derive(Debug, Clone)]
pub struct TrackerConfig {
    /// The board at the start (its pieces' identities).
    pub start: Board,
    /// Frames a changed square must be seen the same before it counts.
    pub confirm_frames: u32,
    /// The same for a square no hand was near.
    pub unattended_frames: u32,
    /// The same for a square no hand is near but one hid a moment ago (see [`REVEAL_SECS`]): a
    /// piece set down under an arm that has gone, seen as the arm withdraws.
    pub revealed_frames: u32,
    /// How long fingertips must stay on a piece for a touch, seconds.
    pub dwell_secs: f64,
    /// How long the board must stay still, with no hand over it, before a `board` snapshot.
    pub settle_secs: f64,
    /// The first hand id to write: a game resumed from its logs goes on counting, so an id in
    /// the record names one hand's visit only.
    pub first_hand: u32,
    /// The player to move at the start: an arm vision cannot place on either player's side is
    /// taken for the player expected to move.
    pub to_move: Color,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        TrackerConfig { start: Board::default(), confirm_frames: 2, unattended_frames: 30, revealed_frames: 4, dwell_secs: 0.2, settle_secs: 0.3, first_hand: 0, to_move: Color::White }
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
    /// The id written in events: new each time an arm reaches in, as the contract asks.
    event_id: u32,
    side: Side,
    /// When it was last over the playing area.
    last_over: f64,
    /// When it came in.
    entered: f64,
    /// The longest stay over each square during this hand's visit.
    longest: BTreeMap<Square, Visit>,
    current: Option<(Square, Visit)>,
    /// Each square the fingertips stayed over as long as a touch takes, and when the first
    /// such stay began: where, and from when, the hand can have grasped a piece (see `gone.rs`,
    /// `touches_first`).
    grasped_from: BTreeMap<Square, f64>,
    /// When the fingertips, over the board, were first lost for as long as a touch takes:
    /// from then on the hand may have grasped anything unseen. And since when they have been
    /// lost, while they are.
    blind_from: Option<f64>,
    lost_since: Option<f64>,
    /// Where the fingertips came to rest and since when (board squares), while they stay.
    still: Option<([f32; 2], (u64, f64))>,
    touched: Vec<Square>,
    held: Vec<Held>,
    /// Squares this hand lifted a piece from: a pawn may go diagonally to one of them.
    lifted: shakmaty::Bitboard,
    /// Squares this hand set a piece down on.
    placed: shakmaty::Bitboard,
    /// Whether it has lifted or set down a piece yet.
    acted: bool,
    /// Where it is an arm seen before under other ids: each old id's event id, with when the
    /// next id took over from it, earliest first.
    came_back: Vec<(u32, f64)>,
}

/// A piece in a hand, and when it was lifted: it is set down no earlier.
#[derive(Debug, Clone, Copy)]
struct Held {
    piece: Piece,
    at: (u64, f64),
    /// The square it was lifted from.
    from: Square,
    /// When that square was last seen with it: it was lifted no earlier (where its lift was
    /// found only as the arm uncovered the square, long after).
    since: f64,
    /// The queued lift event's number, where the lift was a guess: the event waits until the
    /// piece shows elsewhere or leaves with the hand, and is taken back if the piece shows
    /// again where it stood (a square read empty a moment is far likelier than a hand
    /// adjusting a piece its fingertips were nowhere near).
    guessed: Option<u64>,
    /// Whether it was a piece of the player expected to move when it was lifted (see
    /// [`Tracker::own_piece`]).
    movers: bool,
}

impl Tracker {
    /// A piece just lifted from `from` at `at`, its square last seen with it at `since`: one of
    /// the movers' if of the side expected to move now.
    fn held(&self, piece: Piece, at: (u64, f64), from: Square, since: f64, guessed: Option<u64>) -> Held {
        Held { piece, at, from, since, guessed, movers: piece.color == self.to_move }
    }
}

/// A piece that left the board in a hand.
#[derive(Debug, Clone, Copy)]
struct Loose {
    piece: Piece,
    /// When the hand left.
    at: f64,
    /// When it was lifted.
    lifted: (u64, f64),
    /// When its square was last seen with it (see [`Held::since`]).
    since: f64,
    /// The squares the fingertips were over on the way.
    over: shakmaty::Bitboard,
    /// Whose hand it was.
    side: Side,
    /// The square it was lifted from.
    from: Square,
    /// The event id of the hand it left in.
    hand: u32,
    /// Whether it is its hand's player's own piece, not a capture's victim carried off (see
    /// [`Tracker::own_piece`]).
    own: bool,
}

/// A change seen on a square, turned into an act.
#[derive(Debug, Clone, Copy)]
struct Act {
    /// When the hand's stay over the square ended (a lift), or its middle (a place).
    at: (u64, f64),
    /// When the stay ended: the release of a piece set down, or when the fingertips left the
    /// square with a piece lifted.
    until: (u64, f64),
    hand: Option<u32>,
    square: Square,
    lift: bool,
    /// For a place: the colour seen, and the type if vision could tell.
    colour: Option<Color>,
    role: Option<Role>,
    /// Credited to a hand whose fingertips were seen too far off to have done it: see
    /// [`Held::guessed`].
    guessed: bool,
    /// The event id of an arm gone a moment ago that did it (see `gone.rs`); `hand` is then
    /// `None`.
    gone: Option<u32>,
}

impl Act {
    /// Whether `p` can be the piece set down: of the colour seen (any, where vision could not
    /// tell it), of the type seen if vision named one, and able to stand on the square.
    fn admits(&self, p: &Piece) -> bool {
        self.admits_any_type(p) && self.role.is_none_or(|r| r == p.role)
    }

    /// [`admits`](Self::admits) whatever type vision named: it names pieces only on the first
    /// and last ranks, and as a promotion's, so a king castled into shade on its own first rank,
    /// read as of colour untold, may be called a queen.
    fn admits_any_type(&self, p: &Piece) -> bool {
        self.colour.is_none_or(|c| p.color == c) && can_stand(*p, self.square)
    }

    /// Whether vision names the piece set down as another type than `p`, in a name that can
    /// be `p`'s: a piece of colour untold on the first or last rank is named as the side's
    /// that promotes there (see `vision/pieces/promotion.rs`), which says nothing of a piece
    /// of the other side (the staged rook-first scene read from pixels, seed 11: the rook set
    /// on f1 read untold, named Black's bishop, was kept in the hand and castling then begun
    /// with the rook went unseen).
    fn names_other_than(&self, p: &Piece) -> bool {
        self.role.is_some_and(|r| r != p.role) && (self.colour.is_some() || on_far_rank(p.color, self.square))
    }

    /// Of `items`, the last whose piece (`None`: not a candidate) the act admits, else the last
    /// it admits whatever type vision named.
    fn pick<T>(&self, items: &[T], piece: impl Fn(&T) -> Option<&Piece>) -> Option<usize> {
        items.iter().rposition(|x| piece(x).is_some_and(|p| self.admits(p))).or_else(|| items.iter().rposition(|x| piece(x).is_some_and(|p| self.admits_any_type(p))))
    }
}

pub struct Tracker {
    cfg: TrackerConfig,
    belief: [Option<Piece>; 64],
    candidate: [(SquareState, u32); 64],
    hands: BTreeMap<u32, HandTrack>,
    /// Arms gone a moment ago, and when: one seen again under a new id goes on as it was.
    left: Vec<(f64, HandTrack)>,
    next_hand: u32,
    clock_was: [bool; 2],
    /// Presses not yet told, waiting for the board (see `clock.rs`): when each was made, when
    /// its player's arm was last seen over the board (else when it was made), and whose.
    presses: Vec<(((u64, f64), f64), Side)>,
    /// Pieces still in a hand when it left: a hand-over to the other hand shows only as the
    /// other hand setting the piece down.
    loose: Vec<Loose>,
    /// Pieces seen gone from a square no hand was near, for where they turn up.
    unattended: Vec<(Piece, Square)>,
    pending: Vec<(u64, Event)>,
    seq: u64,
    last_t: f64,
    last_frame: u64,
    last_seen_t: f64,
    fps_hint: f64,
    quiet_since: Option<f64>,
    /// When each square was last hidden (by an arm, or read as no look).
    hidden_at: [f64; 64],
    /// When an arm was last seen over each square.
    covered_at: [f64; 64],
    /// When an arm was last seen over the board: a square last covered before then was seen
    /// uncovered by an arm still in view.
    arm_seen_at: f64,
    /// When each square's present candidate change was first seen.
    changed_at: [f64; 64],
    /// When each square was last seen (not hidden), and, for a square seen changed, when it was
    /// last seen as it was before: the change was made at some time in between.
    seen_at: [f64; 64],
    unchanged_at: [f64; 64],
    /// When each square was last seen as the tracker believes it with no fingertips on it or
    /// beside it and no arm over it: a hand's stay that ended before then did not change it.
    clear_at: [f64; 64],
    /// Whose arm first hid each square in the spell it was last hidden, where an arm (over it
    /// or next to it) did.
    hid_first: [Option<Side>; 64],
    /// When that spell began.
    hid_since: [f64; 64],
    /// The colour each square last read as told (`None`: empty), from the start board on: a
    /// piece of colour untold is taken for a capture only where the colour it replaces is the
    /// one last read there, so that the taker, once believed, is not taken back.
    told: [Option<Color>; 64],
    /// The colour believed on each square when it was last read as told.
    told_over: [Option<Color>; 64],
    /// Squares whose change was taken and found to be no act (a piece from nowhere): still
    /// looked at, but no snapshot waits for them.
    refused: shakmaty::Bitboard,
    /// Since when each square in `refused` has been.
    refused_at: [f64; 64],
    /// Squares whose piece vision reads in the other colour (see `misread.rs`): that
    /// colour read there is the piece, until the square reads otherwise.
    miscoloured: shakmaty::Bitboard,
    /// Squares whose piece was taken to have left though vision read it still there (see
    /// `inferred.rs`: a tall neighbour leaning over them), with that colour and since when:
    /// that colour read there is the lean, no change, until the square reads otherwise or a
    /// hand's fingertips rest on it.
    leaned_over: [Option<(Color, f64)>; 64],
    /// When the board was last told to the rules as settled.
    told_at: f64,
    /// The board last told (see [`castling_king_unheard`](Self::castling_king_unheard)).
    told_board: Board,
    /// The player expected to move: the other one than whose piece was set down last.
    to_move: Color,
    /// Whose hands have come over the board so far.
    hands_seen: shakmaty::ByColor<bool>,
    dirty: bool,
    /// Whether the board changed with no hand seen since the last snapshot: such changes have
    /// written no event, so only a snapshot tells the rules of them.
    unheard: bool,
    /// Squares the last frame showed unsure (hidden or misread).
    unsure: usize,
    /// When the latest touch queued was dated, taken back since or not (see `gone.rs`,
    /// `sole_arm`: a touch that may have come after a piece left its square stops the move
    /// from being credited to an arm).
    touched_at: f64,
    started: bool,
    out: Vec<Event>,
}

impl Tracker {
    pub fn new(cfg: TrackerConfig) -> Tracker {
        let mut belief = [None; 64];
        for (sq, p) in cfg.start.iter() {
            belief[usize::from(sq)] = Some(p);
        }
        let candidate = std::array::from_fn(|i| (SquareState::of(belief[i]), 0));
        let told = belief.map(|p| p.map(|p| p.color));
        let (next_hand, to_move) = (cfg.first_hand, cfg.to_move);
        Tracker { cfg, to_move, belief, candidate, hands: BTreeMap::new(), left: Vec::new(), next_hand, clock_was: [false; 2], presses: Vec::new(), loose: Vec::new(), unattended: Vec::new(), pending: Vec::new(), seq: 0, last_t: 0.0, last_frame: 0, last_seen_t: 0.0, fps_hint: 30.0, quiet_since: None, hidden_at: [f64::NEG_INFINITY; 64], covered_at: [f64::NEG_INFINITY; 64], arm_seen_at: f64::NEG_INFINITY, changed_at: [f64::NEG_INFINITY; 64], seen_at: [f64::NEG_INFINITY; 64], unchanged_at: [f64::NEG_INFINITY; 64], clear_at: [f64::NEG_INFINITY; 64], hid_first: [None; 64], hid_since: [f64::NEG_INFINITY; 64], told, told_over: told, refused: shakmaty::Bitboard::EMPTY, refused_at: [f64::NEG_INFINITY; 64], miscoloured: shakmaty::Bitboard::EMPTY, leaned_over: [None; 64], told_at: f64::NEG_INFINITY, told_board: Board::empty(), hands_seen: shakmaty::ByColor::default(), dirty: false, unheard: false, unsure: 0, touched_at: f64::NEG_INFINITY, started: false, out: Vec::new() }
    }

    /// The squares the tracker believes hold a piece.
    fn occupied(&self) -> shakmaty::Bitboard {
        Square::ALL.into_iter().filter(|s| self.belief[usize::from(*s)].is_some()).collect()
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

    /// The operator set the position: the board is believed to stand so from now on, and what
    /// differs from it is read as changes (the hands seen so far keep their ids).
    pub fn set_board(&mut self, board: &Board) {
        for sq in Square::ALL {
            let p = board.piece_at(sq);
            self.belief[usize::from(sq)] = p;
            self.candidate[usize::from(sq)] = (SquareState::of(p), 0);
            self.told[usize::from(sq)] = p.map(|p| p.color);
            self.told_over[usize::from(sq)] = p.map(|p| p.color);
        }
        self.unattended.clear();
        self.loose.clear();
        self.left.clear();
        self.leaned_over = [None; 64];
    }

    /// The game's board after a move the rules decided. Where it shows the same colour on every
    /// square as the tracker believes, its names stand: the rules tell pieces apart by what is
    /// legal (a castling's king from its rook) where the tracker could only guess, and a wrong
    /// guess kept would later read as pieces displaced.
    pub fn agree(&mut self, game: &Board) {
        let colours = |p: Option<Piece>| p.map(|p| p.color);
        if Square::ALL.into_iter().all(|sq| colours(self.belief[usize::from(sq)]) == colours(game.piece_at(sq))) {
            for sq in Square::ALL {
                self.belief[usize::from(sq)] = game.piece_at(sq);
            }
        }
    }

    /// Judges one frame's observation; returns the events it reveals, in time order.
    pub fn observe(&mut self, obs: &Observation) -> Vec<Event> {
        let now = (obs.frame, obs.t);
        self.last_frame = obs.frame;
        self.last_seen_t = obs.t;
        if obs.frame > 0 && obs.t > 0.0 {
            self.fps_hint = obs.frame as f64 / obs.t;
        }
        if !self.started {
            self.started = true;
            self.told_board = self.board();
            self.emit(now, EventKind::Board { placement: Placement::from(&self.told_board), h1_light: None, white: None });
        }
        self.follow_hands(obs, now);
        let covered: Vec<Square> = obs.hands.iter().flat_map(|h| h.covers.iter().copied()).collect();
        if !obs.hands.is_empty() {
            self.arm_seen_at = obs.t;
        }
        let acts = self.confirm_changes(obs, &covered);
        self.apply_acts(acts);
        let arm_hid = self.unread_since_arm(obs);
        self.tell_unheard(now, obs);
        self.hands_gone(obs, now);
        self.snapshot(obs, now, arm_hid);
        self.clock(obs, now, arm_hid);
        self.flush(&covered);
        self.unsure = obs.squares.iter().filter(|s| s.state == SquareState::Occluded).count();
        std::mem::take(&mut self.out)
    }

    /// Whether a square an arm hid has not been read for sure since: what the arm did there
    /// shows only once it is (rendered game 20's 16... O-O, the king's e8 read as no look for a
    /// second after the arm left, was told as Rf8 with the king still on e8, then the king on
    /// g8 as a 7.6). Such a square is one still unread since an arm hid it, or one read, within
    /// [`REVEAL_SECS`] of the arm leaving it, as a piece of colour untold where that arm's
    /// player had one: the piece may have gone in the hand and the empty square be read in the
    /// arm's passing shadow (rendered game 275's 9... O-O: e8, read as a piece's shape for five
    /// frames after the arm left, was told with the king still on it, Rf8 the move and the king
    /// a 7.6).
    pub(super) fn unread_since_arm(&self, obs: &Observation) -> bool {
        self.unread_since_arm_but(obs, shakmaty::Bitboard::EMPTY)
    }

    /// As [`unread_since_arm`](Self::unread_since_arm), `excused` squares still unread aside.
    fn unread_since_arm_but(&self, obs: &Observation, excused: shakmaty::Bitboard) -> bool {
        obs.squares.iter().enumerate().any(|(i, s)| match s.state {
            SquareState::Occluded => self.hid_first[i].is_some() && !excused.contains(Square::new(i as u32)),
            SquareState::Piece => {
                let own = self.belief[i].is_some_and(|p| self.hid_first[i].is_some_and(|side| p.color == Color::from(side)));
                own && obs.t - self.covered_at[i] < REVEAL_SECS
            }
            _ => false,
        })
    }

    /// The end of the stream: every act still held back is written.
    pub fn finish(&mut self) -> Vec<Event> {
        let ids: Vec<u32> = self.hands.keys().copied().collect();
        let now = (self.last_frame, self.last_t.max(self.last_seen_t));
        // A piece seen gone with no hand near and found nowhere, while no square is in doubt
        // where it could stand, was misread gone: no hand took it off the board, and nothing
        // more will show where it went. It stands where it stood (rendered game 20: the c6 pawn
        // read empty for the last seconds kept Black's last move, Qe7+, from being told).
        if self.unsure == 0 {
            for (piece, sq) in std::mem::take(&mut self.unattended) {
                let i = usize::from(sq);
                if self.belief[i].is_none() {
                    self.belief[i] = Some(piece);
                    self.dirty = true;
                }
            }
        }
        // A settled board not yet told (a piece seen gone still looked for when the recording
        // ended) is told as it stands: there is nothing more to wait for.
        if ids.is_empty() && self.dirty && self.settled() {
            self.tell_board(now);
        }
        for id in ids {
            if let Some(track) = self.hands.remove(&id) {
                self.emit(now, EventKind::HandLeave { hand: HandId(track.event_id) });
            }
        }
        self.tell_presses(now, false);
        self.flush(&[]);
        std::mem::take(&mut self.out)
    }

    /// A board snapshot: the rules hear of every change made so far, those no hand made too.
    fn tell_board(&mut self, now: (u64, f64)) {
        self.told_at = now.1;
        self.told_board = self.board();
        self.dirty = false;
        self.unheard = false;
        self.emit(now, EventKind::Board { placement: Placement::from(&self.told_board), h1_light: None, white: None });
    }

    /// Changes no hand made reach the rules only by a snapshot: one is due as soon as they are
    /// whole (no square still changing, every piece seen gone found again) while no hand over
    /// the board has done anything yet, so that they are judged before any hand's acts: the
    /// board may have no time to settle before the next arm comes in (fast play). But not from a
    /// board read badly as a whole (moving, or in changing light), where more squares away from
    /// the arms were unsure than a move changes. Nor while a square an arm hid is still unread
    /// (see [`unread_since_arm`](Self::unread_since_arm)): what the arm did there is not known
    /// yet (rendered game 65's 13... O-O: g8 read as no look for a second after the arm left;
    /// a second arm seen coming in had the board told with the rook on f8 taken for the king,
    /// Kf8 the move and the rook a 7.6).
    ///
    /// Squares next to an arm now over the board, hidden only since the first of the arms now
    /// over the board came in, are that arm's: where it has done nothing yet, what they showed
    /// before stands. Only squares hidden since before (by an arm gone, and not read since), or
    /// unread away from every arm, keep the board from being told. Without this, play where
    /// each arm comes in a few frames after the other left never had its board told:
    /// `scholarsmate.avi` turned 270°, 3. Bc4 and 3... Nf6 made under arms were heard only
    /// after the queen's capture that followed, recorded as 3. Qxf7+ and a 7.6.
    fn tell_unheard(&mut self, now: (u64, f64), obs: &Observation) {
        if !self.unheard {
            return;
        }
        let near = obs.hands.iter().flat_map(|h| h.covers.iter().copied()).fold(shakmaty::Bitboard::EMPTY, |b, c| b | shakmaty::attacks::king_attacks(c).with(c));
        let came = self.hands.values().map(|t| t.entered).fold(obs.t, f64::min) - 1.0 / self.fps_hint;
        let theirs: shakmaty::Bitboard = near.into_iter().filter(|&sq| {
            let i = usize::from(sq);
            self.hid_since[i] >= came || self.seen_at[i] >= self.hidden_at[i]
        }).collect();
        let arm_hid = self.unread_since_arm_but(obs, theirs);
        let apart = Square::ALL.into_iter().filter(|&sq| obs.squares[usize::from(sq)].state == SquareState::Occluded && !near.contains(sq)).count();
        let readable = apart <= MOVE_SQUARES;
        let idle = self.hands.values().all(|t| t.held.is_empty() && t.touched.is_empty());
        if (!arm_hid || self.castling_king_unheard()) && readable && idle && self.unattended.is_empty() && self.settled() {
            self.set_down_misread(obs);
            self.tell_board(now);
        }
    }

    /// Whether no square is changing, but those whose change was found to be no act while no
    /// piece is about that could yet be the one seen there (one seen gone, or in a hand), and
    /// those where a piece seems to have turned the other colour though no arm hid the square
    /// lately: no piece does so where it stands, and a capture comes with an arm, so such a
    /// reading is far more often a misread (a cream queen at the picture's edge read black by
    /// turns kept scholarsMate2019-11-18.avi's 2... Nc6 from being told until after White's next
    /// move). It still counts as a change once it has lasted as long as one no hand made must.
    /// (Where an arm hid the square a moment ago, it is a capture made under it, and is waited
    /// for: rendered game 40's Qxe2.)
    fn settled(&self) -> bool {
        let none_about = self.unattended.is_empty() && self.loose.is_empty() && self.hands.values().all(|t| t.held.is_empty());
        let turned = |sq: Square, state: SquareState| {
            let i = usize::from(sq);
            self.last_seen_t - self.hidden_at[i] > REVEAL_SECS && colour(state).is_some_and(|c| self.belief[i].is_some_and(|p| p.color != c))
        };
        self.candidate.iter().zip(Square::ALL).all(|(&(state, n), sq)| n == 0 || (none_about && self.refused.contains(sq)) || turned(sq, state))
    }

    fn snapshot(&mut self, obs: &Observation, now: (u64, f64), arm_hid: bool) {
        let still = self.hands.is_empty() && self.settled();
        if !still {
            self.quiet_since = None;
            return;
        }
        self.set_down_misread(obs);
        let since = *self.quiet_since.get_or_insert(obs.t);
        // Every square seen, none in doubt, every piece that left a square found again: the
        // board is whole, and the rules need not wait to hear of it.
        let hidden = arm_hid || obs.squares.iter().any(|s| s.state == SquareState::Occluded);
        // A player's own piece that left in a hand a moment ago is about to be set down: the
        // arm was lost from view with the piece still in it (rendered game 165's O-O: the board
        // told then, the king not yet on g1, made the rook's move a move and the king a 7.6).
        // A piece of the other side's carried off is a capture's victim, gone for good.
        let in_hand = self.loose.iter().any(|l| l.own && l.at >= obs.t - LOOSE_SECS);
        let whole = self.unattended.is_empty() && !hidden && !in_hand;
        // A piece seen gone may be on a square still in doubt (next to where an arm withdrew):
        // it is looked for a while longer before the board is told without it, as is a square
        // unseen since an arm hid it, or a piece just gone in a hand.
        let wait = if in_hand || (hidden && (!self.unattended.is_empty() || arm_hid)) { UNFOUND_SECS } else { self.cfg.settle_secs };
        if self.dirty && (whole || obs.t - since >= wait) {
            if !whole {
                self.set_down_unseen(obs);
            }
            self.tell_board(now);
        }
    }
}

fn colour(s: SquareState) -> Option<Color> {
    match s {
        SquareState::White => Some(Color::White),
        SquareState::Black => Some(Color::Black),
        _ => None,
    }
}

mod clock;

#[cfg(test)]
mod testkit;

#[cfg(test)]
mod side_unknown;

#[cfg(test)]
mod colour_untold;
#[cfg(test)]
mod who;
#[cfg(test)]
mod victim;

#[cfg(test)]
mod hidden_lift;
#[cfg(test)]
mod leaning;

#[cfg(test)]
mod agree;

#[cfg(test)]
mod grasp;
#[cfg(test)]
mod rest;
#[cfg(test)]
mod told;
#[cfg(test)]
mod hidden_castling;
#[cfg(test)]
mod reach;

#[cfg(test)]
mod named;
#[cfg(test)]
mod resumed;
#[cfg(test)]
mod shade;
#[cfg(test)]
mod sole_arm;
#[cfg(test)]
mod two_hands;
