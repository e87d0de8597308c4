//! Hands found in rendered frames (many cameras, boards, skins, sleeves and lights): the number
//! of arms over the board and the square under the fingertips, against the renderer's truth;
//! and in real footage, against frames marked by eye.
//! Prints the figures; `cargo test --release --test hands -- --nocapture` shows them.

mod common;

use touchmove::sim::camera::square_at;
use touchmove::sim::render::Renderer;
use touchmove::sim::scenes::{STAGED_NAMES, game_scene, staged_scene};
use touchmove::sim::scene::Scene;
use touchmove::sim::timeline::{self, WorldFrame};
use touchmove::types::{BoardGeometry, EventKind, HandObs, ImageSide, Side};
use touchmove::vision::geometry::Pose;
use touchmove::vision::hands::HandDetector;
use touchmove::vision::rectify::Rectifier;

/// A rendered scene's camera at 640 × 360, with the hand finder on the board's true outline
/// and the camera's pose.
struct Filming {
    rect: Rectifier,
    renderer: Renderer,
    detector: HandDetector,
    /// Where the camera is, cm over the board's centre.
    centre: [f64; 3],
}

/// The scene's timeline, and its camera.
fn filmed(scene: Scene) -> (timeline::Timeline, Filming) {
    let shot = common::shoot(scene);
    let (w, h) = (shot.camera.spec.width as f64, shot.camera.spec.height as f64);
    let detector = HandDetector::with_pose(Pose::from_board(&shot.geometry, w, h));
    let centre = shot.camera.centre();
    (shot.timeline, Filming { rect: shot.rect, renderer: shot.renderer, detector, centre })
}

impl Filming {
    /// The arms found reaching over the playing area in the next frame: what the tracker acts on.
    fn arms(&mut self, world: &WorldFrame) -> Vec<HandObs> {
        let (img, _) = self.renderer.render(world).unwrap();
        let view = self.rect.warp(&img).unwrap();
        self.detector.detect(&self.rect, &view).unwrap().into_iter().filter(|h| h.extremity_square.is_some() || !h.covers.is_empty()).collect()
    }

    /// How far from the board's centre (cm, the larger of the two axes) the camera sees `tip`
    /// on the board: the point of the board's plane straight behind it along the line of sight.
    /// Fingertips held up over the board's edge are seen beyond it, in the view's margin or
    /// further out, over no square.
    fn seen_at(&self, tip: [f64; 3]) -> f64 {
        let c = self.centre;
        let k = c[2] / (c[2] - tip[2]);
        (c[0] + (tip[0] - c[0]) * k).abs().max((c[1] + (tip[1] - c[1]) * k).abs())
    }
}

#[test]
fn hand_count_and_fingertip_square_on_rendered_scenes() {
    let (mut frames, mut count_right, mut tips, mut tips_right) = (0, 0, 0, 0);
    let (mut touches, mut touches_right) = (0, 0);
    let mut touch_misses = Vec::new();
    // At each touch, how far the fingertips are seen from the touched square's centre.
    let mut distances = Vec::new();
    let mut confusion = std::collections::BTreeMap::new();
    // Arms over the board in frames where fewer were found, by where the camera sees their
    // fingertips: over the board, in the view's margin, beyond it.
    let mut unfound_seen = [0; 3];
    let margin = touchmove::sim::camera::HALF_BOARD_CM + common::VIEW_MARGIN * touchmove::sim::camera::SQUARE_CM;
    // Six breach scenes, and an opening under four more looks (each of its moves a grasp).
    let moves = common::uci_line(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "e1g1", "e8g8"]);
    let staged = STAGED_NAMES.iter().take(6).enumerate().map(|(k, &(_, s))| staged_scene(s, 20 + k as u64));
    let games = [1u64, 2, 5, 7].map(|seed| game_scene(&shakmaty::Chess::default(), &moves, seed));
    for (k, scene) in staged.chain(games).enumerate() {
        let (tl, mut camera) = filmed(scene);
        // The frames where a hand's fingers are on a piece: a touch, or the grasp that lifts it.
        let mut touched = std::collections::BTreeMap::new();
        for e in &tl.events {
            if let (Some(f), EventKind::Touch { hand, square } | EventKind::Lift { hand, square }) = (e.frame, &e.kind) {
                touched.insert(f as usize, (hand.0, *square));
            }
        }
        for (f, world) in tl.frames.iter().enumerate() {
            let hands = camera.arms(world);
            // Arms whose fingertips are over the playing area.
            let reach = 20.0;
            let truth: Vec<_> = world.hands.iter().filter(|h| h.tip[0].abs() < reach && h.tip[1].abs() < reach).collect();
            *confusion.entry((hands.len(), truth.len())).or_insert(0) += 1;
            if hands.len() < truth.len() {
                for t in &truth {
                    let at = camera.seen_at(t.tip);
                    unfound_seen[if at <= reach { 0 } else if at <= margin { 1 } else { 2 }] += 1;
                }
            }
            frames += 1;
            if hands.len() == truth.len() {
                count_right += 1;
            }
            if let Some(&(id, square)) = touched.get(&f) {
                // The arm of the touching hand's player: the one whose fingertips should be there.
                let side = world.hands.iter().find(|h| h.id == id).map(|h| Side::from(h.side));
                let theirs: Vec<_> = hands.iter().filter(|h| h.side == side).collect();
                touches += 1;
                let centre = [square.file() as u32 as f32 + 0.5, square.rank() as u32 as f32 + 0.5];
                if let Some(d) = theirs.iter().filter_map(|h| h.extremity_board).map(|b| (b[0] - centre[0]).hypot(b[1] - centre[1])).min_by(f32::total_cmp) {
                    distances.push(d);
                }
                if theirs.iter().any(|h| h.extremity_square == Some(square)) {
                    touches_right += 1;
                } else {
                    touch_misses.push((k, f, square, theirs.iter().map(|h| h.extremity_square).collect::<Vec<_>>()));
                }
            }
            if let ([h], [t]) = (hands.as_slice(), truth.as_slice()) {
                tips += 1;
                if h.extremity_square == square_at(t.tip) {
                    tips_right += 1;
                }
            }
        }
    }
    println!("(found, truth) → frames: {confusion:?}");
    println!(
        "arms over the board in frames with fewer found, by where their fingertips are seen (on the board's plane, along the line of sight): over the board {}, in the view's margin {}, beyond it {}",
        unfound_seen[0], unfound_seen[1], unfound_seen[2]
    );
    let count_rate = count_right as f64 / frames as f64;
    let tip_rate = tips_right as f64 / tips.max(1) as f64;
    println!("hand count right in {count_right}/{frames} frames ({:.1}%), fingertip square right in {tips_right}/{tips} ({:.1}%)", count_rate * 100.0, tip_rate * 100.0);
    let touch_rate = touches_right as f64 / touches.max(1) as f64;
    println!("touched square right in {touches_right}/{touches} touches ({:.1}%); missed (scene, frame, square, read): {touch_misses:?}", touch_rate * 100.0);
    distances.sort_by(f32::total_cmp);
    let quantile = |q: f64| distances.get(((distances.len() as f64 - 1.0) * q) as usize).copied().unwrap_or(f32::NAN);
    println!("fingertips from the touched square's centre (squares): median {:.2}, p90 {:.2}", quantile(0.5), quantile(0.9));
    // Measured here: hand count 95.1%, the fingertips' square 77.1% of all frames with one arm
    // (most of them arms travelling above the pieces, whose tips are not at a piece's height)
    // and 92.6% of the touches and grasps, 87 of 94 (issue #4 asks 99% and 95%); the fingertips
    // seen a median 0.13 squares from the touched square's centre (p90 0.36). Taking the single
    // furthest pixel for the fingertips, not the middle of the fingers' ends, gave 74.5%, 85 of
    // 94 and 0.17 (p90 0.41); centring them also where the arm does not reach over the board,
    // 88 of 94, but an arm coming in wholly in the margin was then given fingertips on c1 (a
    // false 4.3.1 in rendered game 350 at 40 plies). The misses (470 frames miscounted; counted
    // when they were 467, before the two-hands scene's second arm came from the player's other
    // shoulder): of the 467, 352 have the fingertips within 3 cm of the board's edge, an arm seen a few frames late as
    // it comes in over the board's edge (or early, its shadow first, or still seen going out, or
    // a hand held above the edge squares furthest from a camera aslant, seen wholly beyond the
    // view's margin; or a brown hand over a brown table, its sleeve beyond the view:
    // illegal-then-clock, seed 25, grasping g1, not found for 25 frames, and not with the view
    // widened to 1.7 squares either). Where the camera sees those fingertips (on the board's
    // plane, straight behind them along the line of sight), for the 336 arms over the board in
    // the frames where fewer were found: over the board 46, in the view's margin 194, beyond it
    // 96. Those in the margin are mostly fingertips held 5–15 cm up, 0–3 cm inside the board's
    // edge: the picture shows them where a hand lower down, outside the board, would be, and
    // over no square;
    // one arm seen as two; at touches, the king grasped from the side at the first rank
    // (three), and the arm over the table the table's colour, so that only the fingers over the
    // board's border show (three). These bounds guard against getting worse meanwhile.
    assert!(count_rate > 0.9, "{count_rate}");
    assert!(tip_rate > 0.7, "{tip_rate}");
    assert!(touch_rate > 0.92, "{touch_rate}");
}

/// The frames of a real clip in which vision reports an arm over the playing area (its
/// fingertips over a square, or a square under it), vision started as replay starts it.
fn frames_with_hands(clip: &str, start: &shakmaty::Board) -> Vec<bool> {
    use touchmove::source::{SourceSpec, open};
    let path = format!("{}/../shared/real/video/{clip}", env!("CARGO_MANIFEST_DIR"));
    let mut source = open(&SourceSpec::parse(&path)).unwrap();
    // Frame 0 of scholarsmate.avi carries a title over the picture; replay's opening skips such
    // a frame, as this does.
    let _ = source.next();
    let first = source.next().unwrap().unwrap();
    let mut vision = touchmove::vision::frame::Vision::start(&first.image, None, start).unwrap();
    let mut out = vec![false, false];
    for frame in source.flatten() {
        let obs = vision.observe(frame.index, frame.t, &frame.image).unwrap();
        assert_eq!(frame.index as usize, out.len());
        out.push(obs.hands.iter().any(|h| h.extremity_square.is_some() || !h.covers.is_empty()));
    }
    out
}

/// `video/play-chess-with-a-webcam/scholarsmate.avi`, marked by eye: frames with an arm over
/// the board, and frames with none (away from an arm's leaving, which is still reported for a
/// few frames). The webcam changes its exposure and the light in the first half second (a lamp's
/// hard shadows give way to diffuse light) and players' shadows cross the table: none of it is an
/// arm. Every arm is found; of the frames with none, 10 of 14 are right (before the settled view
/// followed exposure and shadows: 6). The phantoms left: frame 16 (the light still changing),
/// 272 and 280 (the queen gone from h5, whose head leant out of the picture), 296 (a shadow
/// over the side of the board).
#[test]
fn arms_over_a_real_board_are_found_and_light_changes_are_not_arms() {
    let seen = frames_with_hands("play-chess-with-a-webcam/scholarsmate.avi", &shakmaty::Board::default());
    let arms = [40, 48, 56, 72, 96, 104, 152, 160, 168, 176, 200, 232, 240, 248, 256];
    let none = [8, 16, 120, 128, 136, 216, 272, 280, 288, 296, 304, 312, 320, 328];
    let missed: Vec<usize> = arms.iter().copied().filter(|&f| !seen[f]).collect();
    let phantoms: Vec<usize> = none.iter().copied().filter(|&f| seen[f]).collect();
    println!("scholarsmate.avi: arms found in {}/{} marked frames, none reported in {}/{} (phantoms in {phantoms:?})", arms.len() - missed.len(), arms.len(), none.len() - phantoms.len(), none.len());
    assert!(missed.is_empty(), "arms missed in frames {missed:?}");
    assert!(phantoms.len() <= 4, "phantom arms in frames {phantoms:?}");
}

/// `video/chess-testmedia/scholarsMate2019-11-18.avi`, marked by eye: the board fills the
/// picture, so the first-rank pieces' heads are cut by its edge; where one has left (the queen
/// from d1, the bishop from f1), the change runs off the view as an arm does. Arms pass over it
/// every few moves, and it never stayed still the seconds an arm must: it was reported as an
/// arm for the rest of the game, hiding the squares round it. Small as a square (counting only
/// what the picture shows of it), it now settles as soon as a piece set down inside the board
/// does, and is not then held as an arm lost for a moment: no arm in frames where there is none.
/// The player here moves for both sides within a second of each other; the ghosts of 2. Qh5 (d1
/// left, the queen's head on h5 leaning out of the picture) were arms until frame 109, when
/// Black's arm came in, and the tracker credited the queen's move to it.
#[test]
fn a_piece_gone_from_the_pictures_edge_is_no_arm() {
    let seen = frames_with_hands("chess-testmedia/scholarsMate2019-11-18.avi", &shakmaty::Board::default());
    let arms = [24, 32, 88, 112, 176, 200];
    // Armless, and an arm's leaving (held a few frames) long past: before, arms were reported
    // on d1 and f1 in frames 144 and 240, and on d1 and h5 in frames 104-108 (White's arm gone
    // at frame 95).
    let none = [8, 72, 104, 106, 108, 144, 240];
    let missed: Vec<usize> = arms.iter().copied().filter(|&f| !seen[f]).collect();
    let phantoms: Vec<usize> = none.iter().copied().filter(|&f| seen[f]).collect();
    assert!(missed.is_empty(), "arms missed in frames {missed:?}");
    assert!(phantoms.is_empty(), "phantom arms in frames {phantoms:?}");
}

/// `video/play-chess-with-a-webcam/emptyBoard001.avi`: an empty board and no one near it.
#[test]
fn no_arm_over_an_empty_real_board() {
    let seen = frames_with_hands("play-chess-with-a-webcam/emptyBoard001.avi", &shakmaty::Board::empty());
    let phantoms: Vec<usize> = (0..seen.len()).filter(|&f| seen[f]).collect();
    assert!(phantoms.is_empty(), "phantom arms in frames {phantoms:?}");
}

/// A drawn board (40 px squares, a green table round it) with, if `reach` is given, a plain arm
/// coming in from White's edge over the d-file, its end `reach` squares over the board.
fn drawn(reach: Option<f64>) -> opencv::core::Mat {
    drawn_over(reach.map(|r| (400 - (r * 40.0) as i32, 480)))
}

/// The drawn board with, if `rows` is given, a plain arm a square wide over the d-file from
/// picture row `rows.0` to `rows.1` (the board spans rows 80–400 of 480).
fn drawn_over(rows: Option<(i32, i32)>) -> opencv::core::Mat {
    drawn_with(&rows.map(|(top, bottom)| opencv::core::Rect::new(200, top, 40, bottom - top)).into_iter().collect::<Vec<_>>())
}

/// The top-down view of the drawn board, White at the bottom.
fn drawn_view() -> Rectifier {
    let g = BoardGeometry { corners: [[80.0, 80.0], [400.0, 80.0], [400.0, 400.0], [80.0, 400.0]], white: ImageSide::Bottom, h1_light: true };
    Rectifier::new(&g, 32, common::VIEW_MARGIN).unwrap()
}

/// The drawn board with plain changes (arms, pieces) where `parts` lie, in picture pixels.
fn drawn_with(parts: &[opencv::core::Rect]) -> opencv::core::Mat {
    use opencv::core::{Mat, Rect, Scalar};
    use opencv::imgproc;
    let mut img = Mat::new_rows_cols_with_default(480, 480, opencv::core::CV_8UC3, Scalar::new(60.0, 110.0, 60.0, 0.0)).unwrap();
    for rank in 0..8 {
        for file in 0..8 {
            let level = if (rank + file) % 2 == 0 { 90.0 } else { 200.0 };
            let r = Rect::new(80 + 40 * file, 80 + 40 * (7 - rank), 40, 40);
            imgproc::rectangle(&mut img, r, Scalar::all(level), -1, imgproc::LINE_8, 0).unwrap();
        }
    }
    for &part in parts {
        imgproc::rectangle(&mut img, part, Scalar::new(120.0, 150.0, 210.0, 0.0), -1, imgproc::LINE_8, 0).unwrap();
    }
    img
}

/// A hand finder that has watched the drawn board bare for three frames (and seen no arm).
fn watching_the_drawn_board(rect: &Rectifier) -> HandDetector {
    let mut detector = HandDetector::new();
    for _ in 0..3 {
        assert!(detector.detect(rect, &rect.warp(&drawn(None)).unwrap()).unwrap().is_empty());
    }
    detector
}

/// Whether an arm is still reported in the frame after it vanished from view, having reached
/// over the board as far as `path` says frame by frame (squares).
fn held_after_vanishing(path: &[f64]) -> bool {
    let rect = drawn_view();
    let mut detector = watching_the_drawn_board(&rect);
    for &reach in path {
        let seen = detector.detect(&rect, &rect.warp(&drawn(Some(reach))).unwrap()).unwrap();
        assert_eq!(seen.len(), 1, "reaching {reach}: {seen:?}");
    }
    !detector.detect(&rect, &rect.warp(&drawn(None)).unwrap()).unwrap().is_empty()
}

/// An arm lost from one frame to the next is blurred or the colour of what it covers, and is
/// held where it was a few frames, far over the board or coming in at its edge; one seen last
/// back at the edge after reaching further in was withdrawing, and is gone at once (held, it
/// would be counted over the board after it left).
#[test]
fn an_arm_withdrawn_to_the_edge_is_gone_at_once_one_lost_elsewhere_is_held() {
    assert!(held_after_vanishing(&[1.0, 2.0, 3.0, 4.0]), "lost far over the board");
    assert!(held_after_vanishing(&[0.2, 0.4]), "lost coming in");
    assert!(!held_after_vanishing(&[1.0, 2.0, 3.0, 2.0, 1.0, 0.4]), "withdrawn");
}

/// An arm stretched over the whole board loses its way in when its forearm at its own edge
/// goes unseen, and may then reach the far margin with its fingers (rendered game 370: Black's
/// arm crossed no margin for six frames, was dropped, and came back crossing White's margin
/// only, as a new arm of White's: a false 4.2.1). It stays the arm it was, Black's, with its
/// id, for as long as it lies where it lay.
#[test]
fn an_arm_that_loses_its_way_in_stays_the_players_it_was() {
    let rect = drawn_view();
    let mut detector = HandDetector::new();
    let mut see = |rows: Option<(i32, i32)>| detector.detect(&rect, &rect.warp(&drawn_over(rows)).unwrap()).unwrap();
    for _ in 0..3 {
        assert!(see(None).is_empty());
    }
    // Black's arm comes in from the top, down to the third rank.
    let mut id = None;
    for bottom in [200, 260, 320, 340] {
        let seen = see(Some((0, bottom)));
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen[0].side, Some(Side::Black));
        id = Some(seen[0].id);
    }
    // Its forearm unseen, well past the frames an arm lost is held; then its fingers reach
    // White's margin.
    for (k, rows) in std::iter::repeat_n((100, 350), 10).chain(std::iter::repeat_n((100, 480), 5)).enumerate() {
        let seen = see(Some(rows));
        assert_eq!(seen.len(), 1, "frame {k}: {seen:?}");
        assert_eq!((seen[0].id, seen[0].side), (id.unwrap(), Some(Side::Black)), "frame {k}");
    }
    // A piece-sized change left where it lay is no arm.
    for _ in 0..12 {
        see(Some((300, 340)));
    }
    assert!(see(Some((300, 340))).is_empty());
}

/// What an arm leaves under it along its own edge, however large (the king and rook just
/// castled, and the squares they left: rendered game 260, taken for the arm that had gone, they
/// hid the castling), is no arm once the arm's few frames of being held are over.
#[test]
fn pieces_left_along_the_edge_are_not_the_arm_that_left_them() {
    use opencv::core::Rect;
    let rect = drawn_view();
    let mut detector = watching_the_drawn_board(&rect);
    let mut see = |parts: &[Rect]| detector.detect(&rect, &rect.warp(&drawn_with(parts)).unwrap()).unwrap();
    // Black's arm over the e- to h-files of the eighth rank, its hand over the four squares.
    let castled = Rect::new(240, 75, 160, 45);
    for bottom in [100, 110, 125] {
        let seen = see(&[Rect::new(300, 0, 40, bottom), castled]);
        assert_eq!(seen.len(), 1, "{seen:?}");
    }
    let after: Vec<usize> = (0..12).map(|_| see(&[castled]).len()).collect();
    assert_eq!(after[..6], [1; 6], "held while it may be lost");
    assert_eq!(after[8..], [0; 4], "{after:?}");
}

/// A king's step from the far edge into the board (e8 left, f7 taken, its head leaning in over
/// g6 on a low camera): the print it leaves comes in through the margin and reaches two squares
/// and more into the board, as a hand at rest does, and the arm that made it was a hand a frame
/// before over it. But that arm ran off the view, and once it has gone the print does not: it
/// is no hand at rest whose arm is unseen, and is no arm once it has held still as a print must
/// (rendered game 220's 16... Kf7: held as a hand at rest for three seconds after the arm left,
/// it hid the move until after the clock was pressed, a false 7.5.3).
#[test]
fn the_print_a_piece_left_stepping_in_from_the_edge_is_not_the_arm_that_left_it() {
    use opencv::core::Rect;
    let rect = drawn_view();
    let mut detector = watching_the_drawn_board(&rect);
    let mut see = |parts: &[Rect]| detector.detect(&rect, &rect.warp(&drawn_with(parts)).unwrap()).unwrap();
    // From the margin over the eighth rank to the sixth, half a square into it.
    let print = Rect::new(240, 60, 40, 120);
    for bottom in [100, 140, 180] {
        let seen = see(&[Rect::new(240, 0, 40, bottom), print]);
        assert_eq!(seen.len(), 1, "{seen:?}");
    }
    let after: Vec<usize> = (0..40).map(|_| see(&[print]).len()).collect();
    assert_eq!(after[30..], [0; 10], "{after:?}");
}

/// White's hand at rest on the third rank, its arm the table's colour: its change comes in
/// through the margin but never runs off the view, as the print a piece left on an edge square
/// does. Held still for over a second it is still a hand: it reaches two and a half squares
/// into the board, and a print reaches no further in than its square (rendered game 300: the
/// hand resting on e3 was taken for a print after eight frames' stillness, and the squares
/// under it, read through it, for moves).
#[test]
fn a_hand_at_rest_whose_arm_is_the_tables_colour_stays_a_hand() {
    use opencv::core::Rect;
    let rect = drawn_view();
    let mut detector = watching_the_drawn_board(&rect);
    let mut see = |parts: &[Rect]| detector.detect(&rect, &rect.warp(&drawn_with(parts)).unwrap()).unwrap();
    // From the margin's outer half (the view ends at picture row 430) up to the third rank.
    for top in [380, 340, 300] {
        let seen = see(&[Rect::new(200, top, 40, 420 - top)]);
        assert_eq!(seen.len(), 1, "coming in to row {top}: {seen:?}");
    }
    let resting: Vec<usize> = (0..40).map(|_| see(&[Rect::new(200, 300, 40, 120)]).len()).collect();
    assert_eq!(resting, [1; 40]);
}

/// Black's arm the colour of the board's frame and of the table: its change begins at the
/// board's edge and crosses no margin. Reaching in over the eighth rank three squares deep, it
/// is Black's arm, and stays one at rest (rendered game 300: Black's brown arm over a brown frame
/// was no arm for seconds while it moved pieces). A piece-sized change at the edge is not.
#[test]
fn an_arm_the_colour_of_the_boards_frame_is_an_arm() {
    use opencv::core::Rect;
    let rect = drawn_view();
    let mut detector = watching_the_drawn_board(&rect);
    let mut see = |parts: &[Rect]| detector.detect(&rect, &rect.warp(&drawn_with(parts)).unwrap()).unwrap();
    for bottom in [180, 200, 220] {
        let seen = see(&[Rect::new(190, 80, 60, bottom - 80)]);
        assert_eq!(seen.len(), 1, "reaching to row {bottom}: {seen:?}");
        assert_eq!(seen[0].side, Some(Side::Black));
    }
    let resting: Vec<usize> = (0..30).map(|_| see(&[Rect::new(190, 80, 60, 140)]).len()).collect();
    assert_eq!(resting, [1; 30]);
    let mut detector = HandDetector::new();
    let mut see = |parts: &[Rect]| detector.detect(&rect, &rect.warp(&drawn_with(parts)).unwrap()).unwrap();
    for _ in 0..3 {
        see(&[]);
    }
    for bottom in [100, 120] {
        assert!(see(&[Rect::new(200, 80, 40, bottom - 80)]).is_empty(), "a piece-sized change at the edge");
    }
}

/// A sleeve passing between camera and board (a wide band across the whole view, top to
/// bottom, or wider than any arm), with an arm reaching in beside it: everything over the board
/// hides squares, but no fingertips are told while it passes — its fringe and what it cuts
/// apart are as likely as an arm (rendered game 100: a sleeve crossing the camera was seen as
/// arms with fingertips on h2 and b2, and gave false touch-move breaches). Once it has gone,
/// the arm's fingertips are told again.
#[test]
fn something_passing_across_the_view_has_no_fingertips() {
    use opencv::core::{Rect, Scalar};
    use opencv::imgproc;
    let rect = drawn_view();
    let mut detector = watching_the_drawn_board(&rect);
    let arm = drawn(Some(3.0));
    assert!(detector.detect(&rect, &rect.warp(&arm).unwrap()).unwrap().iter().all(|h| h.extremity_square.is_some()));
    // A band three squares wide over files f–h, from the view's top to its bottom.
    let mut passing = arm.clone();
    imgproc::rectangle(&mut passing, Rect::new(280, 0, 120, 480), Scalar::new(70.0, 30.0, 130.0, 0.0), -1, imgproc::LINE_8, 0).unwrap();
    for _ in 0..3 {
        let seen = detector.detect(&rect, &rect.warp(&passing).unwrap()).unwrap();
        assert!(seen.iter().any(|h| h.covers.contains(&shakmaty::Square::G4)), "{seen:?}");
        assert!(seen.iter().all(|h| h.extremity_square.is_none() && h.extremity_board.is_none()), "{seen:?}");
    }
    let seen = detector.detect(&rect, &rect.warp(&arm).unwrap()).unwrap();
    assert!(seen.iter().any(|h| h.extremity_square.is_some()), "{seen:?}");
}

/// What passed across the view, seen for a frame as a stub over the far edge as it leaves and
/// then gone, is held a few frames (it may be an arm lost for a moment) but with no fingertips:
/// its tail is no hand at rest (rendered game 100: a black sleeve crossing a low camera, its
/// tail seen for a frame over b8, was held there six frames and touched the knight, a false
/// 4.3.1). The same stub seen coming in, with nothing passing before it, is held with them.
#[test]
fn the_tail_of_what_passed_across_is_held_without_fingertips() {
    use opencv::core::{Rect, Scalar};
    use opencv::imgproc;
    let rect = drawn_view();
    let band = |bottom: i32| {
        let mut img = drawn(None);
        imgproc::rectangle(&mut img, Rect::new(280, 0, 120, bottom), Scalar::new(70.0, 30.0, 130.0, 0.0), -1, imgproc::LINE_8, 0).unwrap();
        img
    };
    // Across the whole view for `across` frames, then a stub reaching 1.5 squares over the
    // board from Black's edge for one frame, then gone: the fingertips told in the frames after.
    let tail = |across: usize| {
        let mut detector = watching_the_drawn_board(&rect);
        for _ in 0..across {
            detector.detect(&rect, &rect.warp(&band(480)).unwrap()).unwrap();
        }
        let stub = detector.detect(&rect, &rect.warp(&band(140)).unwrap()).unwrap();
        assert_eq!(stub.len(), 1, "{stub:?}");
        assert!(stub[0].extremity_square.is_some(), "{stub:?}");
        (0..3).map(|_| detector.detect(&rect, &rect.warp(&drawn(None)).unwrap()).unwrap()).collect::<Vec<_>>()
    };
    let held = tail(4);
    assert!(held.iter().all(|seen| seen.len() == 1 && seen[0].extremity_square.is_none() && seen[0].extremity_board.is_none()), "{held:?}");
    let held = tail(0);
    assert!(held.iter().all(|seen| seen.len() == 1 && seen[0].extremity_square.is_some()), "{held:?}");
}

/// The arms seen in the drawn board's frames, one list per frame, with White's arm up the
/// d-file reaching as far as `path` says frame by frame (squares over the board).
fn seen_reaching(path: &[f64]) -> Vec<Vec<HandObs>> {
    let rect = drawn_view();
    let mut detector = watching_the_drawn_board(&rect);
    path.iter().map(|&reach| detector.detect(&rect, &rect.warp(&drawn(Some(reach))).unwrap()).unwrap()).collect()
}

/// A hand lost over the board, its arm still seen, leaves the arm's stub: its far end falls
/// back squares in one frame, and is no fingertips (rendered game 375 at 40 plies: the hand
/// over b4 went unseen for fifteen frames, and the stub's end on c1 was taken for a touch of the
/// bishop there: a false 4.3.3). Once it stirs, it is a hand again. An arm withdrawn to the same
/// place at a hand's pace keeps its fingertips there, and so does a hand that jumps back as far
/// but stays well over the board: it went back to grasp a piece (`scholarsMate2019-11-18.avi`:
/// the hand back from f7 to the queen on h5 in one frame).
#[test]
fn an_arms_stub_left_when_its_hand_is_lost_is_no_fingertips() {
    use shakmaty::Square;
    let reaching = [1.0, 2.0, 3.0, 4.0, 4.05, 4.0, 4.05];
    let lost = [reaching.as_slice(), &[0.75; 8], &[1.5, 2.5]].concat();
    let seen = seen_reaching(&lost);
    for (frame, arms) in seen.iter().enumerate() {
        assert_eq!(arms.len(), 1, "frame {frame}: {arms:?}");
        let tip = arms[0].extremity_square;
        match frame {
            3..=6 => assert!(matches!(tip, Some(Square::D4)), "frame {frame}: {tip:?}"),
            7..=14 => {
                assert_eq!(tip, None, "frame {frame}");
                assert!(arms[0].covers.contains(&Square::D1), "frame {frame}: {:?}", arms[0].covers);
            }
            15.. => assert!(tip.is_some(), "frame {frame}: {tip:?}"),
            _ => {}
        }
    }
    let withdrawn = [reaching.as_slice(), &[3.5, 3.0, 2.5, 2.0, 1.5, 1.0], &[0.75; 8]].concat();
    let seen = seen_reaching(&withdrawn);
    for (frame, arms) in seen.iter().enumerate().skip(reaching.len()) {
        assert_eq!(arms.len(), 1, "frame {frame}: {arms:?}");
        assert!(arms[0].extremity_square.is_some(), "frame {frame}: {arms:?}");
    }
    assert_eq!(seen.last().unwrap()[0].extremity_square, Some(Square::D1));
    let further_in = [reaching.as_slice(), &[5.0, 6.0, 6.05, 6.0], &[3.5; 8]].concat();
    let seen = seen_reaching(&further_in);
    for (frame, arms) in seen.iter().enumerate().skip(reaching.len() + 4) {
        assert_eq!(arms.len(), 1, "frame {frame}: {arms:?}");
        assert_eq!(arms[0].extremity_square, Some(Square::D4), "frame {frame}: {arms:?}");
    }
}

/// The drawn board with White's arm up the d-file: its sleeve from the view's edge to picture
/// row `sleeve`, then its hand, nearly the colour of the light squares (15 levels off), up to
/// row `hand` — a change over the dark squares only, patches cut off from the sleeve — and the
/// pieces in `parts`.
fn drawn_light_hand(sleeve: i32, hand: i32, parts: &[opencv::core::Rect]) -> opencv::core::Mat {
    drawn_light_hand_at(sleeve, hand, 0, parts)
}

/// [`drawn_light_hand`], its hand `dx` pixels to the right.
fn drawn_light_hand_at(sleeve: i32, hand: i32, dx: i32, parts: &[opencv::core::Rect]) -> opencv::core::Mat {
    use opencv::core::{Rect, Scalar};
    let mut img = drawn_with(&[[Rect::new(200, sleeve, 40, 480 - sleeve)].as_slice(), parts].concat());
    opencv::imgproc::rectangle(&mut img, Rect::new(204 + dx, hand, 32, sleeve - hand), Scalar::all(215.0), -1, opencv::imgproc::LINE_8, 0).unwrap();
    img
}

/// A hand the colour of the light squares shows only over the dark ones, as patches cut off
/// from its arm (the rendered under-promotion scene, seed 24: the patches over d7 and e7 were
/// read as white pieces, and the pawn lifted from e7 was never missed). They are the arm's: the
/// squares under the hand are hidden and its fingertips are at its end, for as long as it stays
/// there. A piece the arm set down and left behind as it withdrew is not.
#[test]
fn a_hand_the_colour_of_the_light_squares_is_one_with_its_arm() {
    use opencv::core::Rect;
    use shakmaty::Square;
    let rect = drawn_view();
    let mut detector = HandDetector::new();
    let mut see = |img: opencv::core::Mat| detector.detect(&rect, &rect.warp(&img).unwrap()).unwrap();
    for _ in 0..3 {
        assert!(see(drawn_with(&[])).is_empty());
    }
    // The arm comes in, its hand in shade (seen whole), up to d6.
    for top in [330, 290, 250, 200, 170] {
        assert_eq!(see(drawn_over(Some((top, 480)))).len(), 1);
    }
    // Out of the shade: its sleeve ends on d2, its hand over d3–d6 shows over d4 and d6 only,
    // two patches a light square apart from the sleeve and from each other. It holds nearly
    // still there, as a hand setting a piece down does (its fingertips stir a little). The
    // frame it comes out, all of it changes, as an arm on the move does, and is not judged.
    for frame in 0..20 {
        let stir = 2 * (frame % 2);
        let seen = see(drawn_light_hand_at(330, 170 + stir, stir, &[]));
        if frame == 0 {
            continue;
        }
        assert_eq!(seen.len(), 1, "frame {frame}: {seen:?}");
        assert!([Square::D4, Square::D5, Square::D6].iter().all(|s| seen[0].covers.contains(s)), "frame {frame}: {:?}", seen[0].covers);
        assert!(matches!(seen[0].extremity_square, Some(Square::D6 | Square::D7)), "frame {frame}: {:?}", seen[0].extremity_square);
    }
    // It sets a piece down on d4 and withdraws, leaving the piece behind.
    let piece = [Rect::new(208, 248, 24, 24)];
    for bottom_of_hand in [250, 290, 330] {
        see(drawn_light_hand(330, bottom_of_hand, &piece));
    }
    for sleeve in [370, 410, 450] {
        let seen = see(drawn_light_hand(sleeve, sleeve, &piece));
        assert!(seen.iter().all(|h| !h.covers.contains(&Square::D4) && h.extremity_square != Some(Square::D4)), "sleeve to row {sleeve}: {seen:?}");
    }
}

/// `img` with a body leaning in over White's edge: a soft shade over the near half of the board,
/// `depth` levels darker at its heart, none at its rim.
fn shaded(mut img: opencv::core::Mat, depth: f64) -> opencv::core::Mat {
    use opencv::prelude::*;
    let cols = img.cols() as usize;
    let data = img.data_bytes_mut().unwrap();
    for (i, px) in data.chunks_exact_mut(3).enumerate() {
        let (x, y) = ((i % cols) as f64, (i / cols) as f64);
        let d = (x - 220.0).hypot(y - 440.0);
        let shade = depth * (1.0 - (d - 200.0).max(0.0) / 60.0).clamp(0.0, 1.0);
        for c in px {
            *c = (f64::from(*c) - shade).clamp(0.0, 255.0) as u8;
        }
    }
    img
}

/// Through a real camera much of the picture differs a little from the settled view while a
/// player leans in (the light shifts, the camera compresses: the real clip `knightvision`, a
/// tenth of the unchanged board by 10 to 16 levels). A piece the arm set down, lying still as
/// the arm withdraws, joined to it by that faint change only, is no part of it (that clip's
/// pawn just set on e5 was: it and e4 were hidden until the clip ended, and 1... e5 was never
/// recorded).
#[test]
fn a_piece_left_behind_in_a_leaning_player_s_shade_is_no_part_of_the_arm() {
    use opencv::core::Rect;
    use shakmaty::Square;
    let rect = drawn_view();
    let mut detector = HandDetector::new();
    let mut frame = 0;
    let mut see = |parts: &[Rect]| {
        frame += 1;
        let depth = if parts.is_empty() { 0.0 } else { 14.0 + f64::from(frame % 3) };
        detector.detect(&rect, &rect.warp(&shaded(drawn_with(parts), depth)).unwrap()).unwrap()
    };
    for _ in 0..3 {
        assert!(see(&[]).is_empty());
    }
    // The arm comes in up the d-file to d5 and sets a piece down on d4.
    for top in [330, 290, 250, 210, 210] {
        assert_eq!(see(&[Rect::new(200, top, 40, 480 - top)]).len(), 1);
    }
    // It lets go and draws back a little, then away.
    let piece = Rect::new(208, 248, 24, 24);
    for top in [210, 250, 290, 290, 290] {
        see(&[Rect::new(200, top, 40, 480 - top), piece]);
    }
    for top in [330, 370, 410] {
        let seen = see(&[Rect::new(200, top, 40, 480 - top), piece]);
        assert!(seen.iter().all(|h| !h.covers.contains(&Square::D4) && h.extremity_square != Some(Square::D4)), "arm to row {top}: {seen:?}");
    }
}

/// Specks of change just beyond an arm's end (its blurred fringe, the shadow of the piece it
/// lifts) are no part of its hand, even where a faint change joins them to it: they do not draw
/// its fingertips a square on (the real clip `scholarsmate.avi`: specks by the fingers lifting
/// the pawn from e2 drew them onto d2, and the lift went unseen).
#[test]
fn specks_by_an_arm_do_not_draw_its_fingertips_on() {
    use opencv::core::{Rect, Scalar};
    use shakmaty::Square;
    let rect = drawn_view();
    let mut detector = HandDetector::new();
    let mut see = |img: opencv::core::Mat| detector.detect(&rect, &rect.warp(&img).unwrap()).unwrap();
    for _ in 0..3 {
        assert!(see(drawn_with(&[])).is_empty());
    }
    for top in [380, 340, 300, 290] {
        assert_eq!(see(drawn_over(Some((top, 480)))).len(), 1);
    }
    // Its end on d3 (rows 280–320), specks over d4 joined to it by a faint change.
    for frame in 0..6 {
        let mut img = drawn_over(Some((290, 480)));
        opencv::imgproc::rectangle(&mut img, Rect::new(200, 250, 40, 40), Scalar::new(105.0, 105.0, 105.0, 0.0), -1, opencv::imgproc::LINE_8, 0).unwrap();
        for x in [206, 224] {
            opencv::imgproc::rectangle(&mut img, Rect::new(x + frame % 2, 256, 9, 9), Scalar::new(120.0, 150.0, 210.0, 0.0), -1, opencv::imgproc::LINE_8, 0).unwrap();
        }
        let seen = see(img);
        assert_eq!(seen.len(), 1, "frame {frame}: {seen:?}");
        assert_eq!(seen[0].extremity_square, Some(Square::D3), "frame {frame}: {seen:?}");
    }
}

/// A low camera aslant behind White's edge (rendered game 230's look, seed 46): Black's queen
/// leaves d8, on the far edge, whose head leant out of the view, for 4... Qxd1+. The square it
/// left ran off the view as an arm does and was held as Black's arm for three seconds after the
/// arm had gone, hiding d8 and the squares round it, and the move with them. Now it settles as
/// a change in the margin does.
#[test]
fn the_square_a_tall_piece_left_on_the_far_edge_is_no_arm() {
    let moves = common::uci_line(&["e2e4", "c7c6", "g1f3", "d7d5", "d2d3", "d5e4", "d3e4", "d8d1"]);
    let (tl, mut camera) = filmed(game_scene(&shakmaty::Chess::default(), &moves, 46));
    // Frames with no arm over the board since the last one withdrew, and those of them with
    // an arm reported, over the last move's end.
    let (mut armless, mut phantoms) = (0, 0);
    let last_lift = tl.events.iter().rev().find(|e| matches!(e.kind, EventKind::Lift { .. })).and_then(|e| e.frame).unwrap() as usize;
    for (f, world) in tl.frames.iter().enumerate() {
        let hands = camera.arms(world);
        if f > last_lift && world.hands.is_empty() {
            armless += 1;
            phantoms += usize::from(!hands.is_empty());
        }
    }
    println!("after 4... Qxd1+: an arm reported in {phantoms} of {armless} frames with none");
    assert!(armless >= 30, "{armless}");
    assert!(phantoms <= 20, "{phantoms} of {armless}");
}

/// Each White move of a rendered game, in frames from its first touch or lift to its last
/// release (a castling's rook's).
fn white_moves(tl: &timeline::Timeline) -> Vec<std::ops::RangeInclusive<usize>> {
    let mut spans = Vec::new();
    // While White's arm is over the board: its first touch or lift, and its last release.
    let mut open: Option<(Option<usize>, Option<usize>)> = None;
    for e in &tl.events {
        match (&e.kind, e.frame) {
            (EventKind::HandEnter { side, .. }, _) => open = (*side == Side::White).then_some((None, None)),
            (EventKind::Touch { .. } | EventKind::Lift { .. }, Some(f)) => {
                if let Some((first @ None, _)) = &mut open {
                    *first = Some(f as usize);
                }
            }
            (EventKind::Release { .. }, Some(f)) => {
                if let Some((Some(_), last)) = &mut open {
                    *last = Some(f as usize);
                }
            }
            (EventKind::HandLeave { .. }, _) => {
                if let Some((Some(a), Some(b))) = open.take() {
                    spans.push(a..=b);
                }
            }
            _ => {}
        }
    }
    spans
}

/// The arms White's side is seen with over the last White move of a rendered game: per frame
/// of that move, the ids of White's arms reported.
fn white_arms_in_last_move(moves: &[&str], seed: u64) -> Vec<Vec<u32>> {
    let (tl, mut camera) = filmed(game_scene(&shakmaty::Chess::default(), &common::uci_line(moves), seed));
    let last = white_moves(&tl).pop().expect("White moves");
    let mut out = Vec::new();
    for (f, world) in tl.frames.iter().enumerate().take(last.end() + 1) {
        let hands = camera.arms(world);
        if last.contains(&f) {
            out.push(hands.iter().filter(|h| h.side == Some(Side::White)).map(|h| h.id).collect());
        }
    }
    out
}

/// A camera behind White's edge looking down steeply (rendered game 410's look, seed 82), the
/// first-rank pieces' heads leaning over the margin, White's arm the table's colour there. In
/// castling the king leaves e1 and the rook h1: the change each leaves reaches into the margin
/// as an arm does, and was reported as a second arm of White's for half a second, still, beside
/// the moving hand; the tracker saw the castling made with two hands, or the rook touched
/// first (a false 4.4.2). A change that comes in from the margin but not off the view, is no
/// arm by where it runs off, and has not stirred for as long as a piece set down takes to
/// settle, is not reported as an arm while it settles.
#[test]
fn the_squares_castling_leaves_by_the_near_edge_are_no_second_arm() {
    let frames = white_arms_in_last_move(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1"], 82);
    let two = frames.iter().filter(|ids| ids.len() > 1).count();
    println!("O-O, seed 82: {} frames, {two} with two White arms {frames:?}", frames.len());
    assert!(frames.len() >= 30, "{}", frames.len());
    assert_eq!(two, 0);
}

/// A low camera behind Black's edge (rendered game 405's look, seed 81): White's arm, the
/// table's colour, is seen only where it crosses the board's frame. For O-O-O the hand sets the
/// king on c1, takes the rook on a1 and slides it along the edge to d1; on the way it was lost
/// for a few frames (too small a part of it in view) and came back further along the edge than
/// an arm coming back in the same place, as a new arm: the tracker saw two hands make one move
/// (a false 4.1). An arm lost a few frames is taken up again where it comes back along the
/// same side, the further the longer it was lost.
#[test]
fn an_arm_lost_while_sliding_along_the_edge_keeps_its_id() {
    let frames = white_arms_in_last_move(&["d2d4", "d7d5", "b1c3", "b8c6", "c1f4", "c8f5", "d1d2", "d8d7", "e1c1"], 81);
    let ids: std::collections::BTreeSet<u32> = frames.iter().flatten().copied().collect();
    println!("O-O-O, seed 81: {} frames, White arms {frames:?}", frames.len());
    assert!(frames.len() >= 30, "{}", frames.len());
    assert_eq!(ids.len(), 1, "{ids:?}");
}

/// A camera behind Black's edge (rendered game 425's look, seed 85): for O-O White's arm lies
/// beyond the far margin, and only its hand and a little of the arm show over the board, less
/// than an arm's least area. It was dropped as the head of a piece leaning out of the view, and
/// the tracker lost the castling's king. An arm stirring now, reaching in past the far margin
/// with no other arm on its side, is reported down to a quarter of an arm's least area. It is
/// still missed while it holds still (33 of the castling's 73 frames; 58 without this): enough
/// for the tracker to follow the castling here, not yet for the hand count.
#[test]
fn an_arm_reaching_in_past_the_far_margin_is_seen_however_little_shows() {
    let frames = white_arms_in_last_move(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1"], 85);
    let unseen = frames.iter().filter(|ids| ids.is_empty()).count();
    println!("O-O, seed 85: {} frames, {unseen} with no White arm {frames:?}", frames.len());
    assert!(frames.len() >= 30, "{}", frames.len());
    assert!(2 * unseen < frames.len(), "{unseen} of {}", frames.len());
}

/// The same camera, White's arm the table's colour where it crosses the margin and over the
/// board's frame. For 6. Bc4 the hand rests a second on the bishop on f1, its wrist touching the
/// view's edge by a few pixels or, for a frame, not at all: it settled into the view after half
/// a second as the square a piece left would, and once the hand moved on, its print in the
/// settled view was seen as a second arm beside it, the move as made with two hands (a false
/// 4.1). For 8. a4 the hand on a2 showed apart from its wrist, the arm over the frame unseen: a
/// hand reaching in from nowhere and a strip of wrist too small to be an arm, neither reported,
/// and a1 under the hand was read empty. Now an arm goes on being one while it keeps touching
/// the view's edge, and a hand within half a square of its wrist is part of it.
#[test]
fn an_arm_resting_on_a_first_rank_piece_stays_one_arm() {
    let moves = common::uci_line(&["e2e4", "c7c6", "g1f3", "d7d5", "d2d3", "d5e4", "d3e4", "d8d1", "e1d1", "f7f6", "f1c4", "e7e5", "c1e3", "b8d7", "a2a4"]);
    let (tl, mut camera) = filmed(game_scene(&shakmaty::Chess::default(), &moves, 46));
    let spans = white_moves(&tl);
    let mut counts = vec![(0, 0, 0); spans.len()];
    for (f, world) in tl.frames.iter().enumerate() {
        let hands = camera.arms(world);
        if let Some(k) = spans.iter().position(|s| s.contains(&f)) {
            let white = hands.iter().filter(|h| h.side == Some(Side::White)).count();
            let c = &mut counts[k];
            *c = (c.0 + 1, c.1 + usize::from(white == 1), c.2 + usize::from(white > 1));
        }
    }
    println!("White's moves, touch to release (frames, one White arm, two or more): {counts:?}");
    assert_eq!(counts.len(), 8);
    for (frames, one, two) in counts {
        assert!(frames >= 20, "{frames}");
        assert!(one * 10 >= frames * 9, "{one} of {frames}");
        assert_eq!(two, 0);
    }
}

/// Where the fingertips are read as each rook is lifted to castle, both sides castling short:
/// per lift, the rook's square and the squares of that player's arms' fingertips.
fn rook_grasps_in_castling(seed: u64) -> Vec<(shakmaty::Square, Vec<Option<shakmaty::Square>>)> {
    let moves = common::uci_line(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "e1g1", "e8g8"]);
    let (tl, mut camera) = filmed(game_scene(&shakmaty::Chess::default(), &moves, seed));
    let mut lifts = std::collections::BTreeMap::new();
    for e in &tl.events {
        if let (Some(f), EventKind::Lift { hand, square }) = (e.frame, &e.kind) {
            if matches!(square, shakmaty::Square::H1 | shakmaty::Square::H8) {
                lifts.insert(f as usize, (hand.0, *square));
            }
        }
    }
    let last = *lifts.keys().last().expect("both rooks lifted");
    let mut out = Vec::new();
    for (f, world) in tl.frames.iter().enumerate().take(last + 1) {
        let hands = camera.arms(world);
        if let Some(&(id, square)) = lifts.get(&f) {
            let side = world.hands.iter().find(|h| h.id == id).map(|h| Side::from(h.side));
            out.push((square, hands.iter().filter(|h| h.side == side).map(|h| h.extremity_square).collect()));
        }
    }
    out
}

/// Castling with one hand (two looks, seeds 2 and 5): the king is set down on g1 and the fingers
/// close on the rook on h1 a moment later. The king's change is joined to the hand until the
/// hand has gone, and the region's far end was the king's head: the rook's lift was read on
/// g1 (or g8, g7), a touch of the king again. The far end is now sought in the part of the
/// region that stirred lately, which a piece set down and let go is not.
#[test]
fn a_rook_grasped_beside_the_king_just_set_down_is_read_on_its_square() {
    for seed in [2, 5] {
        let grasps = rook_grasps_in_castling(seed);
        println!("seed {seed}: rook lifts (square, fingertips read) {grasps:?}");
        assert_eq!(grasps.len(), 2, "{grasps:?}");
        for (square, read) in grasps {
            assert!(read.contains(&Some(square)), "seed {seed}: {square} read as {read:?}");
        }
    }
}

/// An arm lost because it joined another (a print beside the hand, taken into its region as
/// the hand comes over it: rendered game 310, the queen's d8 beside the hand setting her on c7)
/// is not held where it was: it is not lost but part of the one seen, and held it would go on
/// counting as a second arm, its fingertips a touch.
#[test]
fn an_arm_that_joined_another_is_not_held_as_a_second_one() {
    use opencv::core::Rect;
    let rect = drawn_view();
    let mut detector = watching_the_drawn_board(&rect);
    let mut see = |parts: &[Rect]| detector.detect(&rect, &rect.warp(&drawn_with(parts)).unwrap()).unwrap();
    // Two of White's arms come in over the c- and f-files, well apart.
    for top in [360, 320, 280] {
        let seen = see(&[Rect::new(160, top, 40, 480 - top), Rect::new(280, top + 20, 40, 460 - top)]);
        assert_eq!(seen.len(), 2, "{seen:?}");
    }
    // Then one region spans both.
    for _ in 0..4 {
        let seen = see(&[Rect::new(160, 280, 160, 200)]);
        assert_eq!(seen.len(), 1, "{seen:?}");
    }
}

/// An arm that held still long enough to settle into the view leaves, when it goes, no arm
/// behind: where the view shows again what it showed before the arm settled, that is taken
/// back at once (rendered game 330: Black's fingers at rest on f8 settled; their hole, an arm's
/// shape, was seen as an arm frozen over the eighth rank for seconds, and the rook's move was
/// told only after the press).
#[test]
fn an_arm_that_settled_leaves_no_arm_behind_when_it_goes() {
    let rect = drawn_view();
    let mut detector = HandDetector::new();
    let mut see = |reach: Option<f64>| detector.detect(&rect, &rect.warp(&drawn(reach)).unwrap()).unwrap();
    for _ in 0..3 {
        assert!(see(None).is_empty());
    }
    for reach in [1.0, 2.0, 3.0] {
        assert_eq!(see(Some(reach)).len(), 1);
    }
    // Still for long enough to settle.
    let still: Vec<usize> = (0..200).map(|_| see(Some(3.0)).len()).collect();
    assert_eq!(still.last(), Some(&0), "the still arm never settled: {still:?}");
    let after: Vec<usize> = (0..4).map(|_| see(None).len()).collect();
    assert_eq!(after, [0; 4], "{after:?}");
}
