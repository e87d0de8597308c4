//! Scene generators: a real game played by clean hands, or a short game with one staged breach,
//! under a camera and a look drawn from a seed (so a sweep covers many tables).

use shakmaty::{CastlingMode, Chess, Move, Position};

use super::breaches::{BreachKind, stage};
use super::camera::CameraSpec;
use super::events::{MoveStyle, StreamWriter, game_events, random_style};
use super::rng::Rng;
use super::scene::{Act, BoardLook, Light, PieceSet, Scene, Style};
use crate::types::{Event, EventKind};

/// A camera and a look drawn from `seed`: height 50–90 cm, tilt up to 30°, roll, any side for
/// White, board, pieces, light, skin tones, noise and blur all varied.
pub fn random_look(seed: u64) -> (CameraSpec, Style) {
    let mut rng = Rng::new(seed ^ 0x100C);
    let mut pick = |n: usize| rng.below(n);
    let camera = CameraSpec {
        height_cm: 50.0 + pick(41) as f64,
        tilt_deg: pick(31) as f64,
        tilt_towards_deg: [0.0, 90.0, 180.0, 270.0][pick(4)] + pick(30) as f64 - 15.0,
        roll_deg: pick(11) as f64 - 5.0,
        white_at_deg: [0.0, 90.0, 180.0, 270.0][pick(4)],
        focal_px: 0.0,
        k1: -(pick(6) as f64) / 100.0,
        width: 1280,
        height: 720,
    };
    let style = Style {
        board: [BoardLook::Wood, BoardLook::Vinyl, BoardLook::Print][pick(3)],
        coordinates: pick(2) == 0,
        pieces: [PieceSet::Wooden, PieceSet::Plastic][pick(2)],
        light: [Light::Neutral, Light::Warm, Light::Cool][pick(3)],
        uneven: pick(60) as f64 / 100.0,
        moving_shadow: pick(3) == 0,
        noise: 1.0 + pick(5) as f64,
        motion_blur: pick(5) as f64 / 10.0,
        skin: [pick(6) as u8, pick(6) as u8],
        sleeves: [[pick(256) as u8, pick(256) as u8, pick(256) as u8], [pick(256) as u8, pick(256) as u8, pick(256) as u8]],
        crf: 20 + pick(10) as u8,
    };
    (camera, style)
}

/// The acts that show a stream of events, with a pause after each clock press.
pub fn acts_from_events(events: &[Event]) -> Vec<Act> {
    let mut acts = Vec::new();
    for e in events {
        if let Some(a) = Act::from_event(&e.kind) {
            acts.push(a);
        }
        if matches!(e.kind, EventKind::Clock { .. }) {
            acts.push(Act::Wait { seconds: 0.6 });
        }
    }
    acts
}

fn fen_of(pos: &Chess) -> String {
    if *pos == Chess::default() {
        "startpos".into()
    } else {
        shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
    }
}

/// A game played cleanly, move by move, with the clock pressed after each.
pub fn game_scene(start: &Chess, moves: &[Move], seed: u64) -> Scene {
    let (camera, style) = random_look(seed);
    let events = game_events(start, moves, seed);
    Scene { start: fen_of(start), seed, fps: 30.0, camera, style, acts: acts_from_events(&events) }
}

/// What a staged scene shows: a breach of the Laws, or a special move or act that must be
/// recorded without any breach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Staged {
    Breach(BreachKind),
    /// An en passant capture.
    EnPassant,
    /// A promotion to a knight.
    UnderPromotion,
    /// "J'adoube" said, a piece adjusted, then another piece moved: no breach.
    AnnouncedAdjust,
    /// A move made by sliding the piece along the board.
    Slide,
    /// The player not on move adjusts a piece after saying "j'adoube": still 4.2.1.
    AnnouncedAdjustNotOnMove,
}

/// The staged scenes by the names the command line uses.
pub const STAGED_NAMES: &[(&str, Staged)] = &[
    ("touch-own", Staged::Breach(BreachKind::TouchOwn)),
    ("touch-opponent", Staged::Breach(BreachKind::TouchOpponent)),
    ("rook-first", Staged::Breach(BreachKind::RookFirst)),
    ("two-hands", Staged::Breach(BreachKind::TwoHands)),
    ("clock-without-move", Staged::Breach(BreachKind::ClockWithoutMove)),
    ("illegal-then-clock", Staged::Breach(BreachKind::IllegalThenClock)),
    ("pawn-on-last-rank", Staged::Breach(BreachKind::PawnOnLastRank)),
    ("adjust-not-on-move", Staged::Breach(BreachKind::AdjustNotOnMove)),
    ("knocked", Staged::Breach(BreachKind::Knocked)),
    ("moved-on", Staged::Breach(BreachKind::MovedOn)),
    ("en-passant", Staged::EnPassant),
    ("under-promotion", Staged::UnderPromotion),
    ("adjust-announced", Staged::AnnouncedAdjust),
    ("slide", Staged::Slide),
    ("adjust-announced-not-on-move", Staged::AnnouncedAdjustNotOnMove),
];

fn position(fen: &str) -> Chess {
    fen.parse::<shakmaty::fen::Fen>().expect("fixed FEN").into_position(CastlingMode::Standard).expect("legal")
}

/// A short opening that sets the scene up, then the staged act, under a look from `seed`.
pub fn staged_scene(staged: Staged, seed: u64) -> Scene {
    let (start, line, last): (Chess, &[&str], &str) = match staged {
        Staged::Breach(BreachKind::RookFirst) => (Chess::default(), &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"], "e1g1"),
        Staged::Breach(BreachKind::PawnOnLastRank) => (position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"), &[], "e7e8q"),
        Staged::Breach(BreachKind::TouchOpponent) => (Chess::default(), &["e2e4", "d7d5"], "g1f3"),
        Staged::Breach(_) => (Chess::default(), &["e2e4", "e7e5"], "g1f3"),
        Staged::EnPassant => (Chess::default(), &["e2e4", "a7a6", "e4e5", "d7d5"], "e5d6"),
        Staged::UnderPromotion => (position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"), &[], "e7e8n"),
        Staged::AnnouncedAdjust => (Chess::default(), &["e2e4", "e7e5"], "d2d4"),
        Staged::Slide => (Chess::default(), &["e2e4", "e7e5"], "d1f3"),
        Staged::AnnouncedAdjustNotOnMove => (Chess::default(), &["e2e4", "e7e5"], "g1f3"),
    };
    let mut pos = start.clone();
    let mut w = StreamWriter::new(30.0, 0.1);
    let mut rng = Rng::new(seed);
    let parse = |pos: &Chess, uci: &str| uci.parse::<shakmaty::uci::UciMove>().expect("fixed line").to_move(pos).expect("legal line");
    for uci in line {
        let m = parse(&pos, uci);
        w.whole_move(&pos, m, &random_style(&pos, m, &mut rng), true);
        pos.play_unchecked(m);
    }
    let m = parse(&pos, last);
    match staged {
        Staged::Breach(kind) => {
            stage(kind, &pos, m, &mut w).expect("every kind stages on its chosen move");
        }
        Staged::AnnouncedAdjust => {
            let style = MoveStyle { announced_adjust: Some(shakmaty::Square::G1), ..MoveStyle::default() };
            w.whole_move(&pos, m, &style, true);
        }
        Staged::EnPassant | Staged::UnderPromotion => w.whole_move(&pos, m, &random_style(&pos, m, &mut rng), true),
        Staged::AnnouncedAdjustNotOnMove => {
            let hand = w.new_hand();
            w.push(EventKind::AdjustAnnounced { side: crate::types::Side::Black });
            w.push(EventKind::HandEnter { hand, side: crate::types::Side::Black });
            w.carry(hand, shakmaty::Square::B8, shakmaty::Square::B8);
            w.push(EventKind::HandLeave { hand });
            w.whole_move(&pos, m, &MoveStyle::default(), true);
        }
        Staged::Slide => {}
    }
    let (camera, style) = random_look(seed);
    let mut acts = acts_from_events(&w.events);
    if staged == Staged::Slide {
        // The queen pushed from d1 to f3 along the diagonal, never lifted.
        let hand = 90;
        acts.extend([
            Act::Enter { hand, side: crate::types::Side::White },
            Act::Slide { hand, from: m.from().expect("a normal move"), to: m.to() },
            Act::Leave { hand },
            Act::Clock { side: crate::types::Side::White },
            Act::Wait { seconds: 0.6 },
        ]);
    }
    Scene { start: fen_of(&start), seed, fps: 30.0, camera, style, acts }
}

/// A breach staged on a short opening (see [`staged_scene`]).
pub fn breach_scene(kind: BreachKind, seed: u64) -> Scene {
    staged_scene(Staged::Breach(kind), seed)
}
