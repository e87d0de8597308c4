//! What each square looked like when its state was last settled: a square whose picture has
//! not changed keeps that state, whatever the looks say of it now.
//!
//! The looks ([`SquareReader`](super::SquareReader)) are learned per square colour and shared
//! by all squares of that colour. A dark piece on a dark wooden square can sit halfway between
//! "empty" and "black" (scholarsMate2019-11-18.avi: the black bishop on f8, the pawns on e7 and
//! g7), and a small drift of the looks tips it either way, though nothing there moved. Its
//! picture says so: it is the picture of the first frame, where the position was known. So the
//! looks decide a square only once its picture has changed and then held still; an unchanged
//! square reads as it was remembered. A remembered state that was wrong is not kept for ever:
//! when the looks read the same square surely otherwise for seconds on end, they win.

use shakmaty::{Bitboard, Square};

use super::Reading;
use super::features::{SIG, Signature};
use crate::types::{SquareObs, SquareState};

/// How far (8-bit Lab) a cell of a square's signature may be from the remembered one, the
/// whole board's change of lightness taken out, and not count as changed. A piece set down or
/// lifted changes its cells by 40 and more; compression noise, averaged over a cell, by 2–4.
const CELL_CHANGE: f32 = 12.0;
/// Cells (of SIG×SIG) that may change in a square that is still the same: a shadow's edge
/// grazing it, a rim of the neighbouring piece leaning in.
const CHANGED_CELLS: usize = 4;
/// Frames a changed picture must hold still before it is remembered with the state read then.
const SETTLE_FRAMES: u16 = 3;
/// How fast an unchanged square's remembered picture follows slow changes of the light.
const FOLLOW: f32 = 0.05;
/// Frames in a row the looks must read an unchanged square surely otherwise before they are
/// believed over the memory (about three seconds).
const OVERRULE_FRAMES: u16 = 90;
/// Confidence a reading needs to be remembered, or to count against the memory.
const SURE: f32 = 0.9;
/// Pictures a square showed before its present one, kept to know it again when it shows one of
/// them once more.
const EARLIER: usize = 4;

#[derive(Debug, Clone)]
struct Remembered {
    sig: Signature,
    state: SquareState,
}

/// Per square, the picture and state it last settled with.
#[derive(Debug, Clone)]
pub struct SquareMemory {
    remembered: Vec<Option<Remembered>>,
    /// A changed picture waiting to hold still, and for how many frames it has.
    pending: Vec<Option<(Signature, u16)>>,
    /// Frames in a row the looks have surely read an unchanged square otherwise.
    overruled: [u16; 64],
    /// Per square, the pictures it settled with before the present one, the latest last.
    earlier: Vec<Vec<Remembered>>,
}

fn sure_look(obs: &SquareObs) -> bool {
    matches!(obs.state, SquareState::Empty | SquareState::White | SquareState::Black) && obs.confidence >= SURE
}

/// Cells of `now` that differ from `then` by more than CELL_CHANGE, `shift` (the board's change
/// of lightness) taken out.
fn changed_cells(now: &Signature, then: &Signature, shift: f32) -> usize {
    now.iter()
        .zip(then)
        .filter(|(a, b)| (a[0] - b[0] - shift).abs() > CELL_CHANGE || (a[1] - b[1]).abs() > CELL_CHANGE || (a[2] - b[2]).abs() > CELL_CHANGE)
        .count()
}

fn mean_lightness_change(now: &Signature, then: &Signature) -> f32 {
    now.iter().zip(then).map(|(a, b)| a[0] - b[0]).sum::<f32>() / (SIG * SIG) as f32
}

impl SquareMemory {
    /// Remembers the first frame's squares as `known` (the position the game starts from),
    /// except where the looks surely read another state there: a square the caller is wrong
    /// about is left for the looks to decide.
    pub fn new(reading: &Reading, known: &[SquareState; 64]) -> SquareMemory {
        let remembered = (0..64)
            .map(|sq| {
                let obs = &reading.squares[sq];
                let sig = reading.signatures[sq]?;
                (!sure_look(obs) || obs.state == known[sq]).then_some(Remembered { sig, state: known[sq] })
            })
            .collect();
        SquareMemory { remembered, pending: vec![None; 64], overruled: [0; 64], earlier: vec![Vec::new(); 64] }
    }

    /// Corrects a frame's `squares` (64, a1 first, as read from `reading`) where a square's
    /// picture is unchanged, and remembers squares that changed and have held still since.
    /// Squares in `hidden` (under or beside an arm) are left as they are and teach nothing.
    pub fn apply(&mut self, reading: &Reading, squares: &mut [SquareObs], hidden: Bitboard) {
        let clear = |sq: usize| !hidden.contains(Square::new(sq as u32));
        // The board's change of lightness since the squares were remembered (an exposure step):
        // the median over the squares in view, most of which did not change.
        let mut shifts: Vec<f32> = (0..64)
            .filter(|&sq| clear(sq))
            .filter_map(|sq| Some(mean_lightness_change(reading.signatures[sq].as_ref()?, &self.remembered[sq].as_ref()?.sig)))
            .collect();
        shifts.sort_by(f32::total_cmp);
        let shift = shifts.get(shifts.len() / 2).copied().unwrap_or(0.0);
        for (sq, obs) in squares.iter_mut().enumerate().take(64) {
            let Some(sig) = reading.signatures[sq].filter(|_| clear(sq)) else {
                self.pending[sq] = None;
                self.overruled[sq] = 0;
                continue;
            };
            let unchanged = self.remembered[sq].as_ref().is_some_and(|r| changed_cells(&sig, &r.sig, shift) <= CHANGED_CELLS);
            if unchanged {
                self.pending[sq] = None;
                let Some(r) = self.remembered[sq].as_mut() else { continue };
                for (m, c) in r.sig.iter_mut().zip(&sig) {
                    for k in 0..3 {
                        m[k] += FOLLOW * (c[k] - m[k]);
                    }
                }
                if obs.state == r.state {
                    self.overruled[sq] = 0;
                    continue;
                }
                if sure_look(obs) {
                    self.overruled[sq] = self.overruled[sq].saturating_add(1);
                    if self.overruled[sq] >= OVERRULE_FRAMES {
                        r.state = obs.state;
                        self.overruled[sq] = 0;
                        continue;
                    }
                } else {
                    self.overruled[sq] = 0;
                }
                *obs = SquareObs { state: r.state, confidence: SURE, role: obs.role };
                continue;
            }
            self.overruled[sq] = 0;
            // A picture the square showed before, shown again, is the state it had then: the
            // shadow of an arm reaching past a dark piece on a dark square changes its picture,
            // the looks call it empty, and that settles while the arm is still over the board
            // (scholarsMate2019-11-18.avi: d8, f8 and c7 read empty after 3... Nf6, the queen
            // taken for moved); once the shadow has gone, the square shows its old picture.
            if let Some(k) = self.earlier[sq].iter().rposition(|e| changed_cells(&sig, &e.sig, shift) <= CHANGED_CELLS) {
                let again = self.earlier[sq].remove(k);
                *obs = SquareObs { state: again.state, confidence: SURE, role: obs.role };
                self.pending[sq] = None;
                self.keep_earlier(sq, again);
                continue;
            }
            let held = match self.pending[sq] {
                Some((ref p, n)) if changed_cells(&sig, p, 0.0) <= CHANGED_CELLS => n.saturating_add(1),
                _ => 1,
            };
            self.pending[sq] = Some((sig, held));
            if held >= SETTLE_FRAMES && sure_look(obs) {
                self.keep_earlier(sq, Remembered { sig, state: obs.state });
                self.pending[sq] = None;
            }
        }
    }

    /// Makes `now` the square's remembered picture, the one it replaces kept among the earlier.
    fn keep_earlier(&mut self, sq: usize, now: Remembered) {
        if let Some(before) = self.remembered[sq].replace(now) {
            let earlier = &mut self.earlier[sq];
            earlier.push(before);
            if earlier.len() > EARLIER {
                earlier.remove(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY_LOOK: [f32; 3] = [90.0, 130.0, 135.0];

    /// A square's picture: board of one lightness, with `piece` (cells) of a darker blob.
    fn picture(piece: usize, light: f32) -> Signature {
        std::array::from_fn(|c| if c < piece { [40.0 + light, 140.0, 150.0] } else { [EMPTY_LOOK[0] + light, EMPTY_LOOK[1], EMPTY_LOOK[2]] })
    }

    fn obs(state: SquareState, confidence: f32) -> SquareObs {
        SquareObs { state, confidence, role: None }
    }

    /// A frame where every square shows `pictures[sq]` and is read `read[sq]`.
    fn reading(pictures: &[Signature; 64], read: &[SquareObs]) -> Reading {
        Reading { squares: read.to_vec(), features: vec![None; 64], signatures: pictures.iter().map(|p| Some(*p)).collect() }
    }

    /// Squares 0–15 hold black pieces (a dark blob of 20 cells), the rest are empty.
    fn start() -> ([Signature; 64], [SquareState; 64]) {
        let pictures = std::array::from_fn(|sq| picture(if sq < 16 { 20 } else { 0 }, 0.0));
        let states = std::array::from_fn(|sq| if sq < 16 { SquareState::Black } else { SquareState::Empty });
        (pictures, states)
    }

    fn read_as(states: &[SquareState; 64], confidence: f32) -> Vec<SquareObs> {
        states.iter().map(|&s| obs(s, confidence)).collect()
    }

    #[test]
    fn an_unchanged_square_keeps_its_state_against_an_unsure_reading() {
        let (pictures, states) = start();
        let mut memory = SquareMemory::new(&reading(&pictures, &read_as(&states, 0.95)), &states);
        // The looks drift: square 5 now reads empty, unsurely; the board got a little darker.
        let darker: [Signature; 64] = std::array::from_fn(|sq| picture(if sq < 16 { 20 } else { 0 }, -8.0));
        let mut read = read_as(&states, 0.95);
        read[5] = obs(SquareState::Empty, 0.6);
        read[6] = obs(SquareState::Occluded, 0.7);
        let frame = reading(&darker, &read);
        memory.apply(&frame, &mut read, Bitboard::EMPTY);
        assert_eq!(read[5].state, SquareState::Black);
        assert_eq!(read[6].state, SquareState::Black);
        assert_eq!(read[20].state, SquareState::Empty);
    }

    #[test]
    fn a_changed_square_takes_the_sure_reading_once_its_picture_holds_still() {
        let (mut pictures, mut states) = start();
        let mut memory = SquareMemory::new(&reading(&pictures, &read_as(&states, 0.95)), &states);
        // A piece is set down on square 30: its picture changes, and is read black.
        pictures[30] = picture(24, 0.0);
        states[30] = SquareState::Black;
        for n in 1..=SETTLE_FRAMES {
            let mut read = read_as(&states, 0.95);
            memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
            assert_eq!(read[30].state, SquareState::Black, "frame {n}: a changed square reads as the looks say");
        }
        // Remembered now: a later unsure "empty" on that same picture is overruled.
        let mut read = read_as(&states, 0.95);
        read[30] = obs(SquareState::Empty, 0.5);
        memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
        assert_eq!(read[30].state, SquareState::Black);
        // A changed square read unsurely is not remembered, and its reading stands.
        pictures[31] = picture(24, 0.0);
        for _ in 0..2 * SETTLE_FRAMES {
            let mut read = read_as(&states, 0.95);
            read[31] = obs(SquareState::White, 0.6);
            memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
            assert_eq!(read[31].state, SquareState::White);
        }
    }

    #[test]
    fn a_square_showing_again_a_picture_it_had_reads_as_it_did_then() {
        let (mut pictures, states) = start();
        let mut memory = SquareMemory::new(&reading(&pictures, &read_as(&states, 0.95)), &states);
        // A shadow darkens square 10's piece and board alike; the looks surely call it empty,
        // and that picture holds still long enough to be remembered.
        let original = pictures[10];
        pictures[10] = std::array::from_fn(|c| if c % 2 == 0 { [20.0, 128.0, 128.0] } else { original[c] });
        for _ in 0..SETTLE_FRAMES {
            let mut read = read_as(&states, 0.95);
            read[10] = obs(SquareState::Empty, 0.95);
            memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
            assert_eq!(read[10].state, SquareState::Empty);
        }
        // The shadow goes: the square shows its first picture again, read empty as unsurely as
        // a dark piece on a dark square is. It holds the piece it held then.
        pictures[10] = original;
        let mut read = read_as(&states, 0.95);
        read[10] = obs(SquareState::Empty, 0.6);
        memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
        assert_eq!(read[10].state, SquareState::Black);
        // A picture never seen there before is read as the looks say.
        pictures[11] = picture(0, 0.0);
        let mut read = read_as(&states, 0.95);
        read[11] = obs(SquareState::Empty, 0.6);
        memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
        assert_eq!(read[11].state, SquareState::Empty);
    }

    #[test]
    fn squares_under_an_arm_are_left_alone_and_teach_nothing() {
        let (mut pictures, states) = start();
        let mut memory = SquareMemory::new(&reading(&pictures, &read_as(&states, 0.95)), &states);
        // An arm over square 40 for many frames, read (wrongly) surely black.
        pictures[40] = picture(40, 0.0);
        let arm = Bitboard::from(Square::new(40));
        for _ in 0..10 {
            let mut read = read_as(&states, 0.95);
            read[40] = SquareObs::OCCLUDED;
            memory.apply(&reading(&pictures, &read), &mut read, arm);
            assert_eq!(read[40], SquareObs::OCCLUDED);
        }
        // The arm leaves: the square's picture is the one remembered, empty, whatever is read.
        pictures[40] = picture(0, 0.0);
        let mut read = read_as(&states, 0.95);
        read[40] = obs(SquareState::White, 0.7);
        memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
        assert_eq!(read[40].state, SquareState::Empty);
    }

    #[test]
    fn sure_readings_held_for_seconds_overrule_the_memory() {
        let (pictures, states) = start();
        // The caller was wrong about square 3: it is empty, yet its picture never changes.
        let mut memory = SquareMemory::new(&reading(&pictures, &read_as(&states, 0.5)), &states);
        for n in 1..=OVERRULE_FRAMES {
            let mut read = read_as(&states, 0.95);
            read[3] = obs(SquareState::Empty, 0.95);
            memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
            let want = if n < OVERRULE_FRAMES { SquareState::Black } else { SquareState::Empty };
            assert_eq!(read[3].state, want, "frame {n}");
        }
        // A square the first frame surely reads otherwise than the caller says is not remembered.
        let mut read = read_as(&states, 0.95);
        read[4] = obs(SquareState::Empty, 0.95);
        let mut memory = SquareMemory::new(&reading(&pictures, &read), &states);
        memory.apply(&reading(&pictures, &read), &mut read, Bitboard::EMPTY);
        assert_eq!(read[4].state, SquareState::Empty);
    }
}
