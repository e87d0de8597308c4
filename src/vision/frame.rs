//! The whole vision pass for one frame: rectify the board, find the arms, read the squares
//! they leave in view. Set up once from the first frame of a game, where the position is known.

use opencv::core::Mat;
use opencv::prelude::*;
use shakmaty::{Board, Square};

use super::VisionError;
use super::cells::CellReader;
use super::clock::ClockWatch;
use super::hands::HandDetector;
use super::pieces::promotion::Promotions;
use super::rectify::{Rectifier, SourceMaps};
use super::squares::{Measured, Measurer, SquareMemory, SquareReader};
use crate::types::{BoardGeometry, ImageSide, Observation, SquareState};

/// Pixels per square of the rectified board: the square reader's working size.
const PX: i32 = super::squares::CELL as i32;
/// How clearly the start position must show when the board is assumed to fill the frame.
const MIN_SEPARATION: f64 = 2.0;
/// Margin around the board, in squares, where arms are seen reaching in.
const MARGIN: f64 = 0.75;
/// How far (any channel, 0–255) a pixel of a quartered frame must change to count in
/// [`view_change`].
const CHANGE_LEVEL: f64 = 20.0;
/// Frames a square must fit no look, with no arm near it, before it is read as the look it is
/// nearest: an arm the hand finder missed moves within that time, a piece unlike the ones
/// learned from (a knight promoted in an endgame given with --fen) stays.
const UNFIT_FRAMES: u16 = 30;
/// Squares that, clear of any arm, show another look than they last surely did, for the
/// board's look to have changed as a whole (a lamp switched, a webcam's exposure jumping) rather
/// than pieces moved: a move changes four squares at most (castling), and under an arm.
const RELOOK_SQUARES: usize = 5;
/// Frames a change of the whole look may last before what is read is taken as it is (the board
/// set up anew, or the light changed for good and the looks adapted as far as they can).
const RELOOK_FRAMES: u16 = 150;
/// Confidence a reading needs to count as how a square surely is.
const SURE: f32 = 0.9;

pub struct Vision {
    pub geometry: BoardGeometry,
    /// Whether the squares' looks were learned from the first frame (false: the position was
    /// too sparse, and typical looks are used; the reading is less sure).
    pub learned: bool,
    rect: Rectifier,
    squares: SquareReader,
    /// What each square looked like when it last settled.
    memory: SquareMemory,
    hands: HandDetector,
    /// Per square: frames in a row it has fit no look with no arm near it.
    unfit: [u16; 64],
    /// Per square: what it last surely showed while the board's look held.
    sure: [SquareState; 64],
    /// Per square: what it reads otherwise than `sure`, and for how many frames in a row.
    steady: [(SquareState, u16); 64],
    /// Frames in a row the board's look has been changed as a whole.
    relook: u16,
    /// Names the piece a promotion sets down; or why pieces cannot be named.
    promotions: Result<Promotions, String>,
    /// The clock beside the board, where one was seen in the first frame.
    clock: Option<ClockWatch>,
}

/// The part of a frame's vision that depends on no earlier frame: the board's view, what its
/// squares measure, the clock's strip. Replay works it out on a thread of its own, a frame or
/// more ahead of the rest, which follows the arms and the squares frame by frame.
pub struct Prepared {
    index: u64,
    t: f64,
    view: Mat,
    measured: Measured,
    /// Where a clock is watched.
    strip: Option<Mat>,
}

impl Prepared {
    /// The frame's position in its input.
    pub fn index(&self) -> u64 {
        self.index
    }
}

/// Works out [`Prepared`] for a [`Vision`], from a copy of what it fixed on its first frame.
#[derive(Clone)]
pub struct Preparer {
    rect: Rectifier,
    measurer: Measurer,
    clock: Option<SourceMaps>,
}

impl Preparer {
    pub fn prepare(&self, index: u64, t: f64, frame: &Mat) -> Result<Prepared, VisionError> {
        prepare(&self.rect, &self.measurer, self.clock.as_ref(), index, t, frame)
    }
}

fn prepare(rect: &Rectifier, measurer: &Measurer, clock: Option<&SourceMaps>, index: u64, t: f64, frame: &Mat) -> Result<Prepared, VisionError> {
    let view = rect.warp(frame)?;
    let measured = measurer.measure(&board_of(rect, &view)?)?;
    let strip = clock.map(|m| m.warp(frame)).transpose()?;
    Ok(Prepared { index, t, view, measured, strip })
}

/// The corner order for each way White can sit when the board fills the frame: a8, h8, h1, a1.
fn framed(w: f64, h: f64, white: ImageSide) -> [[f64; 2]; 4] {
    let (tl, tr, br, bl) = ([0.0, 0.0], [w, 0.0], [w, h], [0.0, h]);
    match white {
        ImageSide::Bottom => [tl, tr, br, bl],
        ImageSide::Top => [br, bl, tl, tr],
        ImageSide::Left => [tr, br, bl, tl],
        ImageSide::Right => [bl, tl, tr, br],
    }
}

/// The playing area alone, as the square reader takes it.
fn board_of(rect: &Rectifier, view: &Mat) -> Result<Mat, VisionError> {
    Ok(Mat::roi(view, rect.board_rect())?.try_clone()?)
}

/// Of a found board and the same turned half a round (the square colours fix it up to that),
/// the one whose squares show `known`'s occupancy best.
fn turned_to_fit(first: &Mat, g: BoardGeometry, known: &Board) -> Result<BoardGeometry, VisionError> {
    let c = g.corners;
    let half = BoardGeometry { corners: [c[2], c[3], c[0], c[1]], white: opposite(g.white), h1_light: g.h1_light };
    let fit = |g: &BoardGeometry| -> Result<f64, VisionError> {
        let rect = Rectifier::new(g, PX, 0.0)?;
        super::cells::occupancy_fit(&rect, &rect.warp(first)?, known)
    };
    let (a, b) = (fit(&g)?, fit(&half)?);
    if std::env::var_os("TOUCHMOVE_DEBUG").is_some() {
        eprintln!("board turned to the known position: fit {a:.2} as found, {b:.2} turned half a round");
    }
    Ok(if b > a { half } else { g })
}

fn opposite(side: ImageSide) -> ImageSide {
    match side {
        ImageSide::Bottom => ImageSide::Top,
        ImageSide::Top => ImageSide::Bottom,
        ImageSide::Left => ImageSide::Right,
        ImageSide::Right => ImageSide::Left,
    }
}

impl Vision {
    /// Starts on `first`, a frame showing `known` with no hand over it. Without a geometry the
    /// board is found in the frame; failing that, it is taken to fill the frame (footage already
    /// cropped and straightened), turned the way the known position fits best.
    pub fn start(first: &Mat, geometry: Option<BoardGeometry>, known: &Board) -> Result<Vision, VisionError> {
        let found = match geometry {
            Some(g) => Some(g),
            None => match super::geometry::find_board(first) {
                // White's edge is found from where the light pieces stand in the initial
                // position; in another (an endgame given with --fen) they may stand anywhere,
                // so the board is turned the way the known position shows best.
                Ok(g) if *known != Board::default() => Some(turned_to_fit(first, g, known)?),
                other => other.ok(),
            },
        };
        let geometry = match found {
            Some(g) => g,
            None => {
                let (w, h) = (first.cols() as f64, first.rows() as f64);
                let mut best: Option<(f64, BoardGeometry, CellReader)> = None;
                for white in [ImageSide::Bottom, ImageSide::Top, ImageSide::Left, ImageSide::Right] {
                    let g = BoardGeometry { corners: framed(w, h, white), white, h1_light: true };
                    let rect = Rectifier::new(&g, PX, 0.0)?;
                    let view = rect.warp(first)?;
                    // Learned on a turned board, the classes mix; the right turn fits tightest.
                    let reader = CellReader::learn(&rect, &view, known)?;
                    if !reader.white_is_lighter() {
                        continue;
                    }
                    let fit = reader.fit(&rect, &view, known)?;
                    if best.as_ref().is_none_or(|(f, _, _)| fit < *f) {
                        best = Some((fit, g, reader));
                    }
                }
                let (fit, g, reader) = best.ok_or_else(|| VisionError::NoBoard(String::new()))?;
                let separation = reader.separation(fit);
                if std::env::var_os("TOUCHMOVE_DEBUG").is_some() {
                    eprintln!("framed board: class separation {separation:.2}");
                }
                if separation < MIN_SEPARATION {
                    return Err(VisionError::NoBoard(format!(
                        " filling the frame (the squares do not show the start position: separation {separation:.1} < {MIN_SEPARATION})"
                    )));
                }
                g
            }
        };
        let rect = Rectifier::new(&geometry, PX, MARGIN)?;
        let view = rect.warp(first)?;
        // A position too sparse to show every look on both square colours (an endgame set up
        // with --fen) is read with typical looks, which then adapt to this board frame by frame.
        // Black where the board's surroundings are within the picture is the scene's own.
        let within = rect.within_picture(first.size()?)?;
        let open = rect.open_sides(&within)?;
        let (squares, learned) = match SquareReader::learn_within(&board_of(&rect, &view)?, known, open) {
            Ok(r) => (r, true),
            Err(VisionError::TooFewLooks(_)) => (SquareReader::typical().within(open), false),
            Err(e) => return Err(e),
        };
        let memory = SquareMemory::new(&squares.analyse(&board_of(&rect, &view)?)?, &SquareState::of_board(known));
        let pose = super::geometry::Pose::from_board(&geometry, first.cols() as f64, first.rows() as f64);
        let mut hands = HandDetector::with_pose(pose);
        hands.set_picture(within);
        hands.detect(&rect, &view)?;
        let promotions = Promotions::new(&geometry, first, known, learned);
        let clock = ClockWatch::find(first, &rect)?;
        Ok(Vision { geometry, rect, squares, memory, hands, learned, unfit: [0; 64], sure: SquareState::of_board(known), steady: [(SquareState::Occluded, 0); 64], relook: 0, promotions, clock })
    }

    /// Watches the clock whose buttons a calibration gives, in `first`, instead of any found.
    pub fn place_clock(&mut self, first: &Mat, buttons: super::clock::ClockButtons) -> Result<(), VisionError> {
        self.clock = Some(ClockWatch::at(first, &self.rect, buttons)?);
        Ok(())
    }

    /// Which file edge ('a' or 'h') a clock was found beside, if one was.
    pub fn clock_beside(&self) -> Option<char> {
        self.clock.as_ref().map(|c| c.beside)
    }

    /// Why promoted pieces cannot be named (recorded as queens), if they cannot.
    pub fn pieces_unavailable(&self) -> Option<&str> {
        self.promotions.as_ref().err().map(String::as_str)
    }

    /// What works out, ahead of [`observe_prepared`](Self::observe_prepared) and on any thread,
    /// the part of a frame's vision that depends on no earlier frame.
    pub fn preparer(&self) -> Preparer {
        Preparer { rect: self.rect.clone(), measurer: self.squares.measurer().clone(), clock: self.clock.as_ref().map(|c| c.strip_maps().clone()) }
    }

    /// What one frame shows.
    pub fn observe(&mut self, index: u64, t: f64, frame: &Mat) -> Result<Observation, VisionError> {
        let prepared = prepare(&self.rect, self.squares.measurer(), self.clock.as_ref().map(|c| c.strip_maps()), index, t, frame)?;
        self.observe_prepared(prepared, frame)
    }

    /// What one frame shows, from what a [`Preparer`] of this vision took of it (`frame`).
    pub fn observe_prepared(&mut self, prepared: Prepared, frame: &Mat) -> Result<Observation, VisionError> {
        let Prepared { index, t, view, measured, strip } = prepared;
        let hands = self.hands.detect(&self.rect, &view)?;
        // Around an arm, parts of the hand the colour of the squares and the arm's shadow
        // escape the outline; a square next to a covered one is not trusted while it is there.
        let mut hidden = shakmaty::Bitboard::EMPTY;
        for sq in hands.iter().flat_map(|h| h.covers.iter().copied()).chain(self.hands.fading().iter().copied()) {
            hidden |= shakmaty::attacks::king_attacks(sq).with(sq);
        }
        let reading = self.squares.read_measured(measured);
        // Typical looks adapt to squares clear of any arm only: the edge of an arm over a sparse
        // board, read as a white piece frame after frame, drew White's look towards it until
        // Black's king read white (the rendered under-promotion scene, seed 10). Looks learned
        // from the initial position are held by 64 known squares, and follow the light beside
        // arms too: kept from them, scholarsMate2019-11-18.avi lost 1. e4 and read a false 7.6.
        if self.learned {
            self.squares.adapt_reading(&reading, &reading.squares);
        } else {
            let mut clear = reading.squares.clone();
            for sq in hidden {
                clear[usize::from(sq)] = crate::types::SquareObs::OCCLUDED;
            }
            self.squares.adapt_reading(&reading, &clear);
        }
        let mut squares = reading.squares.clone();
        self.memory.apply(&reading, &mut squares, hidden);
        let misfits: shakmaty::Bitboard =
            Square::ALL.into_iter().filter(|&sq| squares[usize::from(sq)].state == SquareState::Occluded && !hidden.contains(sq)).collect();
        for (i, obs) in squares.iter_mut().enumerate() {
            let sq = Square::new(i as u32);
            let unfit = misfits.contains(sq);
            self.unfit[i] = if unfit { self.unfit[i].saturating_add(1) } else { 0 };
            // Clear of any arm, a square that fits no look yet clearly holds a piece is said to
            // hold one of colour untold: the tracker knows whose piece it is from where one went
            // (a queen set down in shadow is not a black piece appearing). A piece stands alone
            // on its square; an arm the hand finder missed spans its neighbours, which then fit
            // no look either.
            let alone = (shakmaty::attacks::king_attacks(sq) & misfits).is_empty();
            if unfit && alone && self.squares.clearly_a_piece(&reading, i) == Some(true) {
                *obs = crate::types::SquareObs { state: SquareState::Piece, confidence: 0.5, role: None };
                continue;
            }
            if self.unfit[i] >= UNFIT_FRAMES {
                if let Some(state) = self.squares.nearest(&reading, i) {
                    *obs = crate::types::SquareObs { state, confidence: 0.5, role: None };
                }
            }
        }
        for sq in hidden {
            squares[usize::from(sq)] = crate::types::SquareObs::OCCLUDED;
        }
        // When many squares clear of any arm read otherwise than they surely were, the light
        // changed, not the pieces: those squares are reported unsure, so the tracker keeps what
        // it knew, until the looks adapt (or, after a long while, what is read is taken).
        let differs = read_otherwise(&squares, &self.sure, &self.unfit);
        let off = differs.iter().filter(|&&d| d).count();
        self.relook = if off >= RELOOK_SQUARES { self.relook.saturating_add(1) } else { 0 };
        if self.relook > 0 && self.relook < RELOOK_FRAMES {
            if std::env::var_os("TOUCHMOVE_DEBUG").is_some() {
                eprintln!("frame {index}: {off} squares read otherwise than they surely were, with no arm over them: the light changed; reported unsure");
            }
            for (obs, _) in squares.iter_mut().zip(&differs).filter(|(_, d)| **d) {
                *obs = crate::types::SquareObs::OCCLUDED;
            }
        } else {
            renew_sure(&mut self.sure, &mut self.steady, &squares);
        }
        if let Ok(p) = self.promotions.as_mut() {
            p.name(frame, &mut squares);
        }
        let clock = match (self.clock.as_mut(), strip) {
            (Some(c), Some(strip)) => Some(c.observe_strip(&strip)?),
            (Some(c), None) => Some(c.observe(frame)?),
            (None, _) => None,
        };
        Ok(Observation { frame: index, t, squares, hands, clock, board_lost: false })
    }
}

/// While the board's look holds: a square read surely is so; and one read the same way,
/// otherwise than it surely was, for [`UNFIT_FRAMES`] in a row, though never surely (a
/// neighbour's head leaning over it, a shadow), is so too. Left as it surely was, such a square
/// counted towards every later change of the whole look: two of them with a castling's four
/// squares read as the light changing, and rendered game 95's last move was never seen.
fn renew_sure(sure: &mut [SquareState; 64], steady: &mut [(SquareState, u16); 64], squares: &[crate::types::SquareObs]) {
    for ((sure, steady), obs) in sure.iter_mut().zip(steady.iter_mut()).zip(squares) {
        let clear = matches!(obs.state, SquareState::Empty | SquareState::White | SquareState::Black);
        if clear && obs.confidence >= SURE {
            *sure = obs.state;
        }
        *steady = match *steady {
            _ if !clear || obs.state == *sure => (obs.state, 0),
            (state, n) if state == obs.state => (state, n.saturating_add(1)),
            _ => (obs.state, 1),
        };
        if steady.1 >= UNFIT_FRAMES {
            *sure = obs.state;
        }
    }
}

/// Per square, whether it reads, clear of any arm, otherwise than it surely was. A square
/// that has fit no look for long is read by the nearest one, never surely, and is no sudden
/// change: counted, a castled king and rook in the far corner, each fitting no look, made every
/// later move look like the light changing and kept its squares unsure for five seconds
/// (rendered game 105's last move was never seen).
fn read_otherwise(squares: &[crate::types::SquareObs], sure: &[SquareState; 64], unfit: &[u16; 64]) -> Vec<bool> {
    (0..64)
        .map(|i| match squares[i].state {
            _ if unfit[i] >= UNFIT_FRAMES => false,
            SquareState::Occluded => false,
            SquareState::Piece => sure[i] == SquareState::Empty,
            s => s != sure[i],
        })
        .collect()
}

/// The share of the picture (0–1) that differs between two frames by more than noise does:
/// near 0 between neighbouring frames of a still scene, large when the exposure, the white
/// balance or an overlay changes much of the view. Frames of different sizes differ wholly.
pub fn view_change(a: &Mat, b: &Mat) -> Result<f64, VisionError> {
    use opencv::core::{self, Size};
    use opencv::imgproc;
    if a.size()? != b.size()? || a.typ() != b.typ() || a.empty() {
        return Ok(1.0);
    }
    // A quarter of the size, averaged: compression noise and a pixel's jitter are not change.
    let small = |m: &Mat| -> Result<Mat, VisionError> {
        let mut s = Mat::default();
        imgproc::resize(m, &mut s, Size::new((m.cols() / 4).max(1), (m.rows() / 4).max(1)), 0.0, 0.0, imgproc::INTER_AREA)?;
        Ok(s)
    };
    let mut diff = Mat::default();
    core::absdiff(&small(a)?, &small(b)?, &mut diff)?;
    let mut channels = core::Vector::<Mat>::new();
    core::split(&diff, &mut channels)?;
    let mut most = channels.get(0)?;
    for c in channels.iter().skip(1) {
        let mut m = Mat::default();
        core::max(&most, &c, &mut m)?;
        most = m;
    }
    let mut over = Mat::default();
    imgproc::threshold(&most, &mut over, CHANGE_LEVEL, 255.0, imgproc::THRESH_BINARY)?;
    Ok(core::count_non_zero(&over)? as f64 / (over.rows() * over.cols()).max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Rect, Scalar};

    /// Prepared on another thread, ahead, frames are seen exactly as when seen whole: the clock
    /// pressed, the arm that comes in and the squares it moves a piece across.
    #[test]
    fn frames_prepared_ahead_on_another_thread_are_seen_as_when_seen_whole() {
        use crate::sim::breaches::BreachKind;
        use crate::sim::camera::Camera;
        use crate::sim::render::Renderer;
        let mut scene = crate::sim::scenes::breach_scene(BreachKind::ClockWithoutMove, 2);
        scene.camera.width = 640;
        scene.camera.height = 360;
        let tl = crate::sim::timeline::run(&scene).unwrap();
        let cam = Camera::new(&scene.camera);
        let mut renderer = Renderer::new(cam.clone(), &scene.style, scene.seed).unwrap();
        let frames: Vec<Mat> = tl.frames.iter().step_by(2).take(60).map(|w| renderer.render(w).unwrap().0).collect();
        let geometry = BoardGeometry { corners: cam.board_corners(), white: ImageSide::Bottom, h1_light: true };
        let known = scene.start_position().unwrap();
        let start = || Vision::start(&frames[0], Some(geometry), shakmaty::Position::board(&known)).unwrap();
        let (mut whole, mut ahead) = (start(), start());
        assert!(whole.clock_beside().is_some(), "the clock is watched");
        let preparer = ahead.preparer();
        let prepared: Vec<Prepared> = std::thread::scope(|s| s.spawn(|| frames.iter().enumerate().map(|(i, f)| preparer.prepare(i as u64, i as f64 / 15.0, f).unwrap()).collect()).join().unwrap());
        let (mut pressed, mut armed) = (0, 0);
        for (i, (frame, p)) in frames.iter().zip(prepared).enumerate() {
            assert_eq!(p.index(), i as u64);
            let a = whole.observe(i as u64, i as f64 / 15.0, frame).unwrap();
            let b = ahead.observe_prepared(p, frame).unwrap();
            assert_eq!(a, b, "frame {i}");
            pressed += a.clock.is_some_and(|c| c.pressed.iter().any(|&p| p)) as u32;
            armed += !a.hands.is_empty() as u32;
        }
        assert!(pressed > 0 && armed > 0, "the scene shows a press ({pressed} frames) and an arm ({armed})");
    }

    fn grey(level: f64) -> Mat {
        Mat::new_rows_cols_with_default(120, 160, opencv::core::CV_8UC3, Scalar::all(level)).unwrap()
    }

    #[test]
    fn squares_long_fitting_no_look_are_no_sign_of_the_light_changing() {
        use crate::types::SquareObs;
        let sure = SquareState::of_board(&shakmaty::Board::default());
        let mut squares: Vec<SquareObs> = sure.iter().map(|&state| SquareObs { state, confidence: 1.0, role: None }).collect();
        let mut unfit = [0u16; 64];
        // A move: e2 empty, e4 white. And g1 and h1 read by their nearest look, otherwise than
        // they were, after fitting none for long.
        squares[usize::from(Square::E2)].state = SquareState::Empty;
        squares[usize::from(Square::E4)].state = SquareState::White;
        for sq in [Square::G1, Square::H1] {
            squares[usize::from(sq)] = SquareObs { state: SquareState::Empty, confidence: 0.5, role: None };
            unfit[usize::from(sq)] = UNFIT_FRAMES;
        }
        let differs = read_otherwise(&squares, &sure, &unfit);
        let counted: Vec<Square> = Square::ALL.into_iter().filter(|&sq| differs[usize::from(sq)]).collect();
        assert_eq!(counted, [Square::E2, Square::E4]);
        // Fitting no look only a moment, they count: that is how the light changing reads.
        unfit = [0; 64];
        assert_eq!(read_otherwise(&squares, &sure, &unfit).iter().filter(|&&d| d).count(), 4);
        // Unsure squares and pieces of colour untold where one stood never count.
        squares[usize::from(Square::A1)] = SquareObs::OCCLUDED;
        squares[usize::from(Square::B1)] = SquareObs { state: SquareState::Piece, confidence: 0.5, role: None };
        assert_eq!(read_otherwise(&squares, &sure, &unfit).iter().filter(|&&d| d).count(), 4);
    }

    #[test]
    fn a_square_read_steadily_otherwise_is_so_though_never_surely() {
        use crate::types::SquareObs;
        let mut sure = SquareState::of_board(&shakmaty::Board::default());
        let mut steady = [(SquareState::Occluded, 0); 64];
        let mut squares: Vec<SquareObs> = sure.iter().map(|&state| SquareObs { state, confidence: 1.0, role: None }).collect();
        let (h1, e2, a2) = (usize::from(Square::H1), usize::from(Square::E2), usize::from(Square::A2));
        // h1 left, read empty but never surely; e2 flickers between empty and white; a2 read
        // empty surely at once.
        squares[h1] = SquareObs { state: SquareState::Empty, confidence: 0.8, role: None };
        squares[a2] = SquareObs { state: SquareState::Empty, confidence: 0.95, role: None };
        for k in 0..UNFIT_FRAMES - 1 {
            squares[e2] = SquareObs { state: if k % 2 == 0 { SquareState::Empty } else { SquareState::White }, confidence: 0.8, role: None };
            renew_sure(&mut sure, &mut steady, &squares);
        }
        assert_eq!((sure[h1], sure[a2]), (SquareState::White, SquareState::Empty), "not yet: a moment's misreading is not how a square is");
        renew_sure(&mut sure, &mut steady, &squares);
        assert_eq!(sure[h1], SquareState::Empty);
        assert_eq!(sure[e2], SquareState::White, "a flicker is never steady");
        // Hidden for a frame, the count starts again.
        squares[h1] = SquareObs { state: SquareState::White, confidence: 0.8, role: None };
        for _ in 0..UNFIT_FRAMES - 2 {
            renew_sure(&mut sure, &mut steady, &squares);
        }
        squares[h1] = SquareObs::OCCLUDED;
        renew_sure(&mut sure, &mut steady, &squares);
        squares[h1] = SquareObs { state: SquareState::White, confidence: 0.8, role: None };
        for _ in 0..UNFIT_FRAMES - 1 {
            renew_sure(&mut sure, &mut steady, &squares);
        }
        assert_eq!(sure[h1], SquareState::Empty);
        renew_sure(&mut sure, &mut steady, &squares);
        assert_eq!(sure[h1], SquareState::White);
    }

    #[test]
    fn view_change_measures_the_share_that_changed() {
        let a = grey(100.0);
        assert_eq!(view_change(&a, &a).unwrap(), 0.0);
        // Noise-sized differences are no change.
        assert_eq!(view_change(&a, &grey(110.0)).unwrap(), 0.0);
        // A brighter band over a quarter of the picture.
        let mut b = a.clone();
        Mat::roi_mut(&mut b, Rect::new(0, 0, 160, 30)).unwrap().set_to(&Scalar::all(180.0), &opencv::core::no_array()).unwrap();
        let share = view_change(&a, &b).unwrap();
        assert!((0.2..0.3).contains(&share), "{share}");
        // Nothing in common.
        assert_eq!(view_change(&a, &grey(200.0)).unwrap(), 1.0);
        let small = Mat::new_rows_cols_with_default(60, 80, opencv::core::CV_8UC3, Scalar::all(100.0)).unwrap();
        assert_eq!(view_change(&a, &small).unwrap(), 1.0);
    }
}
