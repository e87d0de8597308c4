//! The rules core: tracker events in, decisions out, per `RULES.md`.
//!
//! [`Rules`] holds the game (a shakmaty position) and the board as the hands have left it
//! ([`physical`]). After each act it asks whether that board now shows the game after exactly
//! one legal move ([`completion`]): if so the move is made, and the touches, hands and releases
//! of the move in progress are judged against it. One file per article group holds the clause
//! logic and the tests named after each clause.

mod castling;
mod claims;
mod completion;
pub mod follow;
pub mod dead_position;
mod displaced;
mod hands;
mod held;
mod illegal;
mod physical;
mod promotion;
mod setup;
#[cfg(test)]
pub(crate) mod testkit;
mod touch;

use std::collections::HashMap;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Bitboard, ByColor, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Piece, Position, Role, Square};

use crate::types::{Article, Cell, Decision, DecisionKind, Event, EventKind, HandId, ImageSide, Placement, Side};
use physical::{Physical, Unreleased};
use touch::Touch;

pub use completion::{captured_square, destination, move_squares};

/// A clause breached, as the clause logic reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Breach {
    pub article: Article,
    pub detail: String,
    pub confidence: f64,
}

/// What the rules need to know before the first event.
#[derive(Debug, Clone, Default)]
pub struct RulesConfig {
    /// The position the game starts from.
    pub start: Chess,
    /// Where the player who has White by the pairing sits, to tell colours reversed (7.3).
    pub white_sits: Option<ImageSide>,
}

#[derive(Debug, Clone, Copy)]
struct HandInfo {
    side: Color,
    entered: f64,
    left: Option<f64>,
    /// Whether it has touched, lifted or set down anything.
    acted: bool,
    /// When it first did (infinity: never) and when it last did (minus infinity: never).
    first_act: f64,
    last_act: f64,
    /// Squares it adjusted while its player did not have the move, already reported (4.2.1).
    adjusted: Bitboard,
}

impl HandInfo {
    /// A hand of `side`'s that came over the board at `entered` and has done nothing yet.
    fn new(side: Color, entered: f64) -> HandInfo {
        HandInfo { side, entered, left: None, acted: false, first_act: f64::INFINITY, last_act: f64::NEG_INFINITY, adjusted: Bitboard::EMPTY }
    }
}

/// A hand acting on a square (touch, lift, place or release).
#[derive(Debug, Clone, Copy)]
struct Act {
    hand: HandId,
    side: Color,
    square: Square,
    how: Contact,
}

/// How a hand acted on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Contact {
    Touched,
    /// Touched by the player on move after saying he adjusts: no sign that what he then moved
    /// was in hand here.
    Adjusted,
    /// Lifted, placed or released: the piece handled, not only touched.
    Handled,
}

/// The move in progress of the player having the move.
#[derive(Debug, Default)]
struct Turn {
    touches: Vec<Touch>,
    /// Lifts under an announced adjustment (4.2.1): they bind nothing, unless the piece lifted
    /// turns out to be one the move moved; then it was no adjusting, and the lift is the touch
    /// it was, in its place in the order (rendered game 95: "j'adoube" said for a hand that
    /// touched nothing seen, the king lifted to castle under it, and the rook's lift taken for
    /// the first touch, a false 4.3.1).
    adjusting: Vec<Touch>,
    acts: Vec<Act>,
    group: u32,
    last_touch_at: Option<(f64, Option<u64>)>,
    /// Squares where a piece was released on purpose, and the squares those pieces came from.
    deliberate: Bitboard,
    king_landing: Option<CastlingSide>,
    promo_choice: Option<(Square, Role)>,
    warned: Option<String>,
    /// Pieces of the mover's that left the board in a hand that went (vision lost the arm for
    /// a moment): one that comes back is set down by whichever hand of the player brings it.
    carried_off: Vec<physical::Held>,
    /// Per square of the mover's, how many of `touches` were heard before a board seen with
    /// no hand over it still showed his piece there: those touches came before that piece
    /// moved, whether or not vision saw its lift.
    stood_after: Vec<(Square, usize)>,
}

/// A rook move that may yet turn out to be castling begun with the rook (4.4.2).
#[derive(Debug, Clone, Copy)]
struct Pending {
    m: Move,
    t: f64,
    frame: Option<u64>,
}

/// The piece the last mover released, which he may not move on (4.7).
#[derive(Debug, Clone, Copy)]
struct JustMoved {
    color: Color,
    /// Where it was released as the move.
    square: Square,
    /// Where it stands now.
    at: Square,
    lifted: bool,
    reported: bool,
}

/// The rules engine. Feed it events in time order with [`Rules::apply`]; call [`Rules::finish`]
/// at the end of the stream.
pub struct Rules {
    start: Chess,
    pos: Chess,
    ply: u32,
    phys: Physical,
    hands: HashMap<HandId, HandInfo>,
    turn: Turn,
    announced: ByColor<bool>,
    /// The side that made the last move and has not pressed its clock yet, and whether it
    /// used two hands.
    awaiting_clock: Option<(Color, bool)>,
    /// Whose clock runs, as far as the presses tell (none before the first).
    running: Option<Color>,
    /// When the clock was last pressed (never: minus infinity).
    pressed_at: f64,
    illegal: ByColor<u8>,
    known: Vec<displaced::Known>,
    claims: Vec<claims::Open>,
    pending: Option<Pending>,
    just_moved: Option<JustMoved>,
    result: Option<&'static str>,
    over_noted: bool,
    setup_seen: bool,
    white_sits: Option<ImageSide>,
    /// A seen board taken in while a hand was at work, not yet judged: the next board judges
    /// it even if it shows nothing new.
    unjudged: bool,
    now: (f64, Option<u64>),
    out: Vec<Decision>,
    /// Events held back since an act of the player not on move (see [`held`]).
    held: Vec<Event>,
}

impl Rules {
    pub fn new(config: RulesConfig) -> Rules {
        Rules {
            phys: Physical::new(config.start.board()),
            pos: config.start.clone(),
            start: config.start,
            ply: 0,
            hands: HashMap::new(),
            turn: Turn::default(),
            announced: ByColor::default(),
            awaiting_clock: None,
            running: None,
            pressed_at: f64::NEG_INFINITY,
            illegal: ByColor::default(),
            known: Vec::new(),
            claims: Vec::new(),
            pending: None,
            just_moved: None,
            result: None,
            over_noted: false,
            setup_seen: false,
            white_sits: config.white_sits,
            unjudged: false,
            now: (0.0, None),
            out: Vec::new(),
            held: Vec::new(),
        }
    }

    /// The position the game started from (after a 7.2.1 restart, the one seen).
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The game position now.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The result, once the game has ended (`"1-0"`, `"0-1"`, `"1/2-1/2"`).
    pub fn result(&self) -> Option<&'static str> {
        self.result
    }

    /// The board as the hands have left it (pieces in hand are off it).
    pub fn board(&self) -> shakmaty::Board {
        self.phys.board()
    }

    /// Plies played since the record's start (the `ply` of the last move).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// An operator's correction: the game goes on from `pos`, `ply` plies into the record (a
    /// move taken back, or the position set by hand). The board is taken to stand as `pos`
    /// says: what the camera sees from then on is read against it, so the players restore the
    /// position (7.5.1) or the move is seen again. The move in progress, claims and a rook move
    /// held back as castling are forgotten; who is on the board and the illegal-move count stay.
    pub fn set_position(&mut self, pos: Chess, ply: u32) {
        self.phys = Physical::new(pos.board());
        self.pos = pos;
        self.ply = ply;
        self.turn = Turn::default();
        self.announced = ByColor::default();
        self.awaiting_clock = None;
        self.claims.clear();
        self.known.clear();
        self.pending = None;
        self.just_moved = None;
        self.result = None;
        self.over_noted = false;
        self.setup_seen = true;
        self.held.clear();
    }

    /// Takes one event; returns the decisions it leads to, in order. An act of the player not
    /// on move, and what follows it, may be judged only with a later event (see [`held`]).
    pub fn apply(&mut self, event: &Event) -> Vec<Decision> {
        self.apply_holding(event)
    }

    /// Judges one event; returns the decisions it leads to, in order.
    fn judge(&mut self, event: &Event) -> Vec<Decision> {
        self.now = (event.t, event.frame);
        if self.result.is_some() {
            if !self.over_noted && !matches!(event.kind, EventKind::Board { .. }) {
                self.over_noted = true;
                let result = self.result.unwrap_or("*");
                self.state(format!("the game is over ({result}): what happens on the board now is not judged"));
            }
            return std::mem::take(&mut self.out);
        }
        match event.kind {
            EventKind::HandEnter { hand, side } => {
                self.hands.entry(hand).or_insert(HandInfo::new(side.into(), event.t));
            }
            EventKind::Touch { hand, square } => self.on_touch(hand, square),
            EventKind::Lift { hand, square } => self.on_lift(hand, square),
            EventKind::Place { hand, square, piece, color } => self.on_place(hand, square, piece, color.map(Color::from)),
            EventKind::Release { hand, square } => self.on_release(hand, square),
            EventKind::HandLeave { hand } => self.on_leave(hand),
            EventKind::Clock { side } => self.on_clock(side.into()),
            EventKind::AdjustAnnounced { side } => self.announced[Color::from(side)] = true,
            EventKind::Board { ref placement, h1_light, white } => self.on_board(placement, h1_light, white),
        }
        std::mem::take(&mut self.out)
    }

    /// The end of the stream: events held back are judged, and a rook move held back as
    /// possible castling stands.
    pub fn finish(&mut self) -> Vec<Decision> {
        let mut out = self.release_held();
        self.settle_pending();
        out.append(&mut self.out);
        out
    }

    fn emit_at(&mut self, at: (f64, Option<u64>), kind: DecisionKind) {
        self.out.push(Decision { t: at.0, frame: at.1, kind });
    }

    fn emit(&mut self, kind: DecisionKind) {
        self.emit_at(self.now, kind);
    }

    fn violation_at(&mut self, at: (f64, Option<u64>), side: Option<Color>, b: Breach) {
        if let Some(offender) = side.filter(|_| b.article.claimable_until_touch()) {
            self.claims.push(claims::Open { article: b.article, offender, t: at.0 });
        }
        self.emit_at(at, DecisionKind::Violation { article: b.article, side: side.map(Side::from), detail: b.detail, confidence: b.confidence });
    }

    fn violation(&mut self, side: Option<Color>, b: Breach) {
        self.violation_at(self.now, side, b);
    }

    fn warning(&mut self, side: Color, detail: String, article: Option<Article>) {
        self.emit(DecisionKind::Warning { side: side.into(), detail, article });
    }

    fn state(&mut self, detail: String) {
        self.emit(DecisionKind::State { detail });
    }

    /// The player a hand belongs to. A hand never announced is taken as the mover's.
    fn side_of(&mut self, hand: HandId) -> Color {
        let (turn, t) = (self.pos.turn(), self.now.0);
        self.hands.entry(hand).or_insert(HandInfo::new(turn, t)).side
    }

    fn hands_on_board(&self) -> bool {
        self.hands.values().any(|h| h.left.is_none())
    }

    /// Whether a hand over the board has touched, lifted or set down anything: a hand that has
    /// only come in cannot have made what a board seen now shows.
    fn hands_at_work(&self) -> bool {
        self.hands.values().any(|h| h.left.is_none() && h.acted)
    }

    /// Records an act; a piece this hand set down elsewhere and did not release was dropped.
    fn act(&mut self, hand: HandId, side: Color, square: Square, how: Contact) {
        for u in self.phys.unreleased_by(hand) {
            if u.square != square {
                self.phys.release(hand, u.square);
                // The king set on its castling square, the hand going on to that side's rook:
                // castling goes on, the king let go (its release told late, as when the arm
                // uncovered both squares at once), not dropped.
                let mover = self.pos.turn();
                let castling_on = side == mover
                    && u.piece == Piece { color: mover, role: Role::King }
                    && castling::landing(&self.pos, u.origin, u.square).is_some_and(|cs| castling::corner_side(mover, square) == Some(cs));
                if castling_on {
                    self.released(side, u);
                } else {
                    self.dropped(u);
                }
            }
        }
        self.turn.acts.push(Act { hand, side, square, how });
        if let Some(h) = self.hands.get_mut(&hand) {
            h.acted = true;
            h.first_act = h.first_act.min(self.now.0);
            h.last_act = self.now.0;
        }
    }

    /// A piece set down and never let go was knocked or dropped, not placed: contact with it
    /// was accidental (4.2.2), so it binds nothing.
    fn dropped(&mut self, u: Unreleased) {
        if let Some(origin) = u.origin {
            self.turn.touches.retain(|t| !(t.square == origin && t.piece == u.piece));
        }
    }

    /// A touch or lift by `side` (a held-back rook move already settled, see
    /// [`settle_unless_castling`](Self::settle_unless_castling)): records the touch for the
    /// mover; closes the opponent's claims (4.8).
    fn contact(&mut self, hand: HandId, side: Color, sq: Square, piece: Piece, lifted: bool) {
        let mover = self.pos.turn();
        let how = if lifted {
            Contact::Handled
        } else if side == mover && self.announced[mover] {
            Contact::Adjusted
        } else {
            Contact::Touched
        };
        self.act(hand, side, sq, how);
        if side != mover {
            return;
        }
        self.just_moved = None;
        if self.turn.last_touch_at != Some(self.now) {
            self.turn.group += 1;
            self.turn.last_touch_at = Some(self.now);
        }
        let touch = Touch { square: sq, piece, group: self.turn.group };
        if self.announced[mover] {
            if lifted {
                self.turn.adjusting.push(touch);
            }
            return;
        }
        let closed = claims::close(&mut self.claims, mover);
        for kind in closed {
            self.emit(kind);
        }
        self.turn.touches.push(touch);
    }

    fn on_touch(&mut self, hand: HandId, sq: Square) {
        let side = self.side_of(hand);
        let Some(piece) = self.phys.top(sq) else { return };
        if self.announced[side] {
            self.emit(DecisionKind::Adjust { side: side.into(), square: sq });
            // Fingers that said they adjust, resting on a piece, adjust it, whether or not the
            // camera sees it rise (a knight raised and set back under the hand, its square never
            // uncovered: the rendered scene of "j'adoube" said off move).
            if side != self.pos.turn() {
                self.adjusted_off_move(hand, side, sq, piece, 0.8);
            }
        }
        self.settle_unless_castling(side, sq);
        self.contact(hand, side, sq, piece, false);
    }

    fn on_lift(&mut self, hand: HandId, sq: Square) {
        let side = self.side_of(hand);
        // Before the board loses the piece: the held-back rook move stands only while the board
        // shows it, and a rook lifted again from where it was released is being moved on (4.7).
        self.settle_unless_castling(side, sq);
        let Some(piece) = self.phys.lift(hand, side, sq) else {
            self.state(format!("a piece was lifted from {sq}, where the board has none: the events disagree with the board"));
            return;
        };
        self.contact(hand, side, sq, piece, true);
        if let Some(j) = self.just_moved.as_mut().filter(|j| j.color == side && j.at == sq) {
            j.lifted = true;
        }
        // A hand that has left holds nothing: a lift told after its leave (found late, as the
        // arm uncovered the square) is a piece it took away, as its leave would have said.
        // Held on, it kept every later move of its side made by hand from being seen.
        if self.hands.get(&hand).is_some_and(|h| h.left.is_some()) {
            let gone = self.phys.drop_held(hand);
            self.turn.carried_off.extend(gone);
        }
        self.evaluate(false);
    }

    fn on_place(&mut self, hand: HandId, sq: Square, role: Option<Role>, color: Option<Color>) {
        let side = self.side_of(hand);
        let (piece, origin) = match role {
            Some(role) => {
                // A piece from off the board: whatever this hand held has been put down off it.
                self.phys.drop_held(hand);
                (Piece { color: color.unwrap_or(side), role }, None)
            }
            None => match self.phys.take_from_hand(hand, side, castling::piece_for(self.phys.held(), hand, side, sq)).or_else(|| {
                // A piece of the player's that left in an arm now gone, brought back: an arm
                // lost by vision and seen again has a new id (rendered game 235's 10. O-O, the
                // king lifted by one id, set on g1 by the next).
                let k = self.turn.carried_off.iter().rposition(|h| h.piece.color == side)?;
                Some(self.turn.carried_off.remove(k))
            }) {
                Some(held) => (held.piece, held.origin),
                None => {
                    self.state(format!("a piece was placed on {sq} by a hand holding none, and no piece was named: ignored"));
                    return;
                }
            },
        };
        if self.pending.is_some() && side != self.pos.turn() {
            self.settle_pending();
        }
        self.phys.place(hand, sq, piece, origin);
        self.act(hand, side, sq, Contact::Handled);
        if side == self.pos.turn() && role.is_some() {
            if let Some(b) = promotion::choice(&self.pos, &mut self.turn.promo_choice, sq, piece.role) {
                self.violation(Some(side), b);
            }
        }
        if let Some(j) = self.just_moved.filter(|j| j.color == side && j.lifted) {
            if j.square != sq && !j.reported {
                let b = Breach {
                    article: Article::A4_7,
                    detail: format!("released {} as a legal move, then moved it on to {sq}", completion::piece_name(piece, j.square)),
                    confidence: 1.0,
                };
                self.violation(Some(side), b);
                self.mark_known(&[j.square, sq], Some(side), Article::A4_7);
            }
            let reported = j.reported || j.square != sq;
            self.just_moved = Some(JustMoved { at: sq, lifted: false, reported, ..j });
        }
    }

    fn on_release(&mut self, hand: HandId, sq: Square) {
        let side = self.side_of(hand);
        if let Some(u) = self.phys.release(hand, sq) {
            self.act(hand, side, sq, Contact::Handled);
            self.released(side, u);
        }
        self.evaluate(false);
    }

    /// A piece let go on purpose: its square and the one it came from were handled deliberately.
    fn released(&mut self, side: Color, u: Unreleased) {
        self.turn.deliberate.add(u.square);
        self.turn.deliberate.extend(u.origin);
        self.let_go(side, u);
    }

    /// 4.2.1: `side`, not having the move, adjusted `piece` on `sq` (reported once per hand and
    /// square: a touch after "j'adoube", then the lift and setting back the camera saw, are one
    /// adjustment).
    fn adjusted_off_move(&mut self, hand: HandId, side: Color, sq: Square, piece: Piece, confidence: f64) {
        let Some(h) = self.hands.get_mut(&hand) else { return };
        if h.adjusted.contains(sq) {
            return;
        }
        h.adjusted.add(sq);
        let detail = format!("adjusted {} while the opponent has the move", completion::piece_name(piece, sq));
        self.violation(Some(side), Breach { article: Article::A4_2_1, detail, confidence });
    }

    /// A piece set down is let go: an adjustment if it is back on its own square, a king on a
    /// castling square binds to castle (4.7.2).
    fn let_go(&mut self, side: Color, u: Unreleased) {
        let mover = self.pos.turn();
        if u.origin == Some(u.square) {
            let told = self.hands.get(&u.hand).is_some_and(|h| h.adjusted.contains(u.square));
            if !told {
                self.emit(DecisionKind::Adjust { side: side.into(), square: u.square });
            }
            if side != mover {
                self.adjusted_off_move(u.hand, side, u.square, u.piece, 1.0);
            }
        }
        if side == mover && u.piece == (Piece { color: mover, role: Role::King }) {
            if let Some(landing) = castling::landing(&self.pos, u.origin, u.square) {
                self.turn.king_landing = Some(landing);
            }
        }
    }

    fn on_leave(&mut self, hand: HandId) {
        let side = self.side_of(hand);
        let gone = self.phys.drop_held(hand);
        self.turn.carried_off.extend(gone);
        for u in self.phys.unreleased_by(hand) {
            self.phys.release(hand, u.square);
            if u.origin != Some(u.square) {
                self.dropped(u);
            }
            self.let_go(side, u);
        }
        let acted = self.hands.get_mut(&hand).map(|h| {
            h.left = Some(self.now.0);
            h.acted
        });
        // "J'adoube" covers the adjusting the hand came to do, not what a later hand does; a
        // hand that touched nothing has not used it yet (an arm seen leaving and coming back).
        if acted != Some(false) {
            self.announced[side] = false;
        }
        // A piece of the mover's own gone off the board in a hand that left this turn (this one
        // or one before it) was set down where its arm hid it, more often than taken away: the
        // board seen next says where, and no leave calls anything displaced or illegal before
        // then (rendered game 65's 14... O-O, the arm seen whole at the far edge: the king
        // lifted and the rook set on f8 by one hand that left with the king, set on g8 unseen,
        // was judged Rf8 with e8 displaced). The clock, or the next board, judges it.
        let carried = self.turn.carried_off.iter().any(|h| h.piece.color == self.pos.turn());
        let quiet = !self.hands_on_board() && !carried;
        self.evaluate(quiet);
    }

    fn known_mask(&self) -> Bitboard {
        self.known.iter().map(|k| k.square).collect()
    }

    /// Whether the board now shows a move made; `quiet` when no hand is over the board (or the
    /// clock was pressed): then a displaced piece or an illegal move is called what it is.
    fn evaluate(&mut self, quiet: bool) {
        if self.result.is_some() {
            return;
        }
        self.resolve_known();
        let mover = self.pos.turn();
        let hands = &self.hands;
        let of_mover = |hand: HandId, piece: Piece| piece.color == mover && hands.get(&hand).is_none_or(|h| h.side == mover);
        if self.phys.held().iter().any(|h| of_mover(h.hand, h.piece))
            || self.phys.unreleased().iter().any(|u| of_mover(u.hand, u.piece))
            || !self.phys.crowded().is_empty()
        {
            return;
        }
        let board = self.phys.board();
        let masked = self.known_mask();
        if let Some(m) = completion::exact_match(&self.pos, &board, masked) {
            let held_back = self.pending.filter(|p| p.m == m);
            // Held back with no hand over the board too: vision may lose the arm between the
            // rook and the king (the staged rook-first scene, seed 11, its hands read from the
            // pixels: the arm lost for four frames after the rook was released on f1 had Rf1
            // recorded, and the king's move then a displaced piece). The clock, a touch of
            // anything but the king, or the other side's act settles it.
            if castling::rook_first_shape(&self.pos, m) || castling::misnamed_shape(&self.pos, m) {
                self.pending = Some(held_back.unwrap_or(Pending { m, t: self.now.0, frame: self.now.1 }));
                return;
            }
            let at = held_back.map_or(self.now, |p| (p.t, p.frame));
            self.complete(m, Bitboard::EMPTY, at);
            return;
        }
        if !quiet || self.castling_under_way(&board, masked) {
            return;
        }
        let acted: Bitboard = self.turn.acts.iter().map(|a| a.square).collect();
        if let Some((m, extra)) = completion::match_with_displacement(&self.pos, &board, masked, acted, self.turn.deliberate) {
            self.complete(m, extra, self.now);
            return;
        }
        let d = completion::diff(&board, self.pos.board()) & !masked;
        if d.is_empty() {
            return;
        }
        let by_other: Bitboard = self.turn.acts.iter().filter(|a| a.side != mover).map(|a| a.square).collect();
        if (d & !by_other).is_empty() {
            let detail = displaced::describe(self.pos.board(), &board, d);
            self.warning(!mover, format!("{detail}: he must restore it in his own time"), Some(Article::A7_4_1));
            self.mark_known(&d.into_iter().collect::<Vec<_>>(), Some(!mover), Article::A7_4_1);
        } else {
            let (what, article) = illegal::describe(&self.pos, &board);
            let detail = format!("illegal move on the board ({what}); not completed until the clock");
            if self.turn.warned.as_deref() != Some(detail.as_str()) {
                self.turn.warned = Some(detail.clone());
                self.warning(mover, detail, article);
            }
        }
    }

    /// Whether the board shows castling under way (4.7.2): the king set down on a castling
    /// square with the rook still in its corner. That is no move yet and nothing displaced —
    /// the player may take his hand away between king and rook (rendered game 95's O-O, the arm
    /// lost above the far rank between the two, was a 7.6) — but only that castling may follow.
    fn castling_under_way(&mut self, board: &shakmaty::Board, masked: Bitboard) -> bool {
        let Some(side) = castling::king_set_alone(&self.pos, board, masked) else { return false };
        if self.turn.king_landing != Some(side) {
            self.turn.king_landing = Some(side);
            let mover = self.pos.turn();
            let rook = self.pos.castles().rook(mover, side).map_or_else(String::new, |r| format!(" on {r}"));
            self.state(format!("castling begun: the king set down on {}, the rook{rook} still to be moved", side.king_to(mover)));
        }
        true
    }

    /// A touch or lift of anything but the king at home, by either side, ends the wait for
    /// the king of a rook-first castling.
    fn settle_unless_castling(&mut self, side: Color, sq: Square) {
        if self.pending.is_some() && !(side == self.pos.turn() && sq == castling::king_home(side)) {
            self.settle_pending();
        }
    }

    /// The held-back rook move stands, if the board still shows it.
    fn settle_pending(&mut self) {
        let Some(p) = self.pending.take() else { return };
        let board = self.phys.board();
        if completion::exact_match(&self.pos, &board, self.known_mask()) == Some(p.m) {
            self.complete(p.m, Bitboard::EMPTY, (p.t, p.frame));
        }
    }

    /// Makes move `m`, judged against the move in progress; `extra` squares were displaced
    /// while it was made.
    fn complete(&mut self, m: Move, extra: Bitboard, at: (f64, Option<u64>)) {
        self.pending = None;
        let mover = self.pos.turn();
        let before = self.pos.clone();
        let mut breaches: Vec<Breach> = Vec::new();
        // Which came first, a touch or the moved piece, is known only when the hand was seen
        // at the moved piece's square; a move read from the board alone (an arm vision missed)
        // binds no touch, since the piece may have been in hand before it (a false 4.3 or 4.4
        // is worse than a missed one).
        // Nor is it known from fingers adjusting the piece there (rendered game 135: the king
        // adjusted under an announcement, then castled by its rook lifted and a king's lift
        // vision missed, was taken for the rook touched first).
        let origin_seen = m.from().is_some_and(|from| self.turn.acts.iter().any(|a| a.side == mover && a.square == from && a.how != Contact::Adjusted));
        let touches: Vec<Touch> = if origin_seen {
            let moved = touch::moved_from(m);
            self.turn.touches.iter().chain(self.turn.adjusting.iter().filter(|t| moved.contains(t.square))).copied().collect()
        } else {
            // Touches heard before a board, seen clear of hands, still showed the moved piece
            // at home did come first, however the move itself went unseen (rendered touch-own
            // scene: the knight on b1 touched, the hand withdrawn, Ng1-f3 made under an arm).
            let heard = m.from().and_then(|from| self.turn.stood_after.iter().find(|(sq, _)| *sq == from)).map_or(0, |&(_, n)| n);
            self.turn.touches[..heard.min(self.turn.touches.len())].to_vec()
        };
        breaches.extend(touch::breach(&before, &touches, m));
        breaches.extend(castling::released_king(&before, self.turn.king_landing, m));
        let acts: Vec<(HandId, Square)> = self.turn.acts.iter().filter(|a| a.side == mover && a.how == Contact::Handled).map(|a| (a.hand, a.square)).collect();
        let two_hands = hands::two_hands(&self.hands, &acts, m);
        breaches.extend(two_hands.clone());
        let san = SanPlus::from_move(before.clone(), m).to_string();
        let uci = m.to_uci(CastlingMode::Standard).to_string();
        self.pos.play_unchecked(m);
        self.ply += 1;
        let fen = Fen::from_position(&self.pos, EnPassantMode::Legal).to_string();
        self.emit_at(at, DecisionKind::Move { ply: self.ply, side: mover.into(), uci, san, fen });
        for b in breaches {
            self.violation_at(at, Some(mover), b);
        }
        self.awaiting_clock = Some((mover, two_hands.is_some()));
        self.announced[mover] = false;
        self.turn = Turn::default();
        let square = completion::destination(m);
        self.just_moved = Some(JustMoved { color: mover, square, at: square, lifted: false, reported: false });
        if !extra.is_empty() {
            let board = self.phys.board();
            let detail = displaced::describe(self.pos.board(), &board, extra);
            self.warning(mover, format!("{detail} while moving: he must restore it in his own time"), Some(Article::A7_4_1));
            self.mark_known(&extra.into_iter().collect::<Vec<_>>(), Some(mover), Article::A7_4_1);
        }
        // Mate and stalemate leave no move to judge. A dead position also ends the game in law
        // (5.2.2), but players often play on and the record must keep what they play.
        if self.pos.is_checkmate() {
            self.result = Some(if mover == Color::White { "1-0" } else { "0-1" });
        } else if self.pos.is_stalemate() {
            self.result = Some("1/2-1/2");
        }
    }

    fn on_clock(&mut self, side: Color) {
        self.settle_pending();
        // A button whose clock is stopped does nothing when pressed: it cannot be 7.5.3.
        let stopped = self.running == Some(!side);
        self.running = Some(!side);
        self.pressed_at = self.now.0;
        if self.result.is_none() && side == self.pos.turn() && self.awaiting_clock.is_none_or(|(c, _)| c != side) {
            // Pressed by the player having the move: the board may still show a move made
            // with a displaced piece; otherwise no legal move was completed.
            self.evaluate(true);
        }
        match self.awaiting_clock {
            Some((c, two_hands)) if c == side => {
                self.awaiting_clock = None;
                self.announced[side] = false;
                if two_hands {
                    let b = Breach {
                        article: Article::A7_5_4,
                        detail: "used two hands for a single move and pressed the clock".into(),
                        confidence: 1.0,
                    };
                    self.violation(Some(side), b);
                    self.penalise(side);
                }
                self.report_unrestored(side);
            }
            _ if side == self.pos.turn() && self.result.is_none() && !stopped => self.clock_without_move(side),
            _ => {}
        }
    }

    fn on_board(&mut self, placement: &Placement, h1_light: Option<bool>, white: Option<ImageSide>) {
        if !self.setup_seen && self.ply == 0 && self.turn.acts.is_empty() {
            self.setup_seen = true;
            self.check_setup(placement, h1_light, white);
        }
        self.note_standing(placement);
        self.follow_seen_board(placement);
    }

    /// Notes the mover's pieces a board seen with no hand over it shows still at home, for
    /// the touches heard so far (see `Turn::stood_after`).
    fn note_standing(&mut self, placement: &Placement) {
        if self.hands_on_board() || self.turn.touches.is_empty() {
            return;
        }
        let mover = self.pos.turn();
        let heard = self.turn.touches.len();
        for sq in self.pos.board().by_color(mover) {
            if matches!(placement.cell(sq), Cell::Piece(p) if p.color == mover) {
                self.turn.stood_after.retain(|(s, _)| *s != sq);
                self.turn.stood_after.push((sq, heard));
            }
        }
    }
}

#[cfg(test)]
mod contradictions;
