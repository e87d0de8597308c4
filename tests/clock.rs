//! The clock read from rendered frames (many cameras, tables, lights, skins): found beside the
//! board where its buttons are in view, each press seen for the right player about when it
//! happens, and nothing where it is not; and no clock made up in real footage, which shows none.
//! `cargo test --release --test clock -- --nocapture` prints the figures.

mod common;

use touchmove::sim::camera::HALF_BOARD_CM;
use touchmove::sim::scene::Scene;
use touchmove::sim::scenes::{breach_scene, game_scene};
use touchmove::sim::breaches::BreachKind;
use touchmove::types::{EventKind, Side};
use touchmove::vision::clock::ClockWatch;

/// Frames a press may be seen before the button goes down (the hand is on the clock on its way
/// to the button) or after.
const EARLY: i64 = 15;
const LATE: i64 = 3;

/// What one scene shows of the clock: whether both buttons are in the picture; the presses
/// rendered and those seen (frame, side); whether a clock was found.
struct Seen {
    in_view: bool,
    found: bool,
    truth: Vec<(i64, Side)>,
    seen: Vec<(i64, Side)>,
}

fn watch(scene: Scene) -> Seen {
    let common::Shot { timeline: tl, camera: cam, rect, mut renderer, .. } = common::shoot(scene);
    // The renderer's clock stands beside the h-file; its caps at ±4 cm either side of the middle.
    let x = HALF_BOARD_CM + 14.0;
    let in_view = [-4.0, 4.0].iter().all(|&y| {
        [[x - 1.5, y - 1.5], [x + 1.5, y + 1.5]].iter().all(|&[px, py]| {
            let [u, v] = cam.project([px, py, 7.2]);
            (0.0..640.0).contains(&u) && (0.0..360.0).contains(&v)
        })
    });
    let truth: Vec<(i64, Side)> =
        tl.events.iter().filter_map(|e| match (e.frame, &e.kind) { (Some(f), EventKind::Clock { side }) => Some((f as i64, *side)), _ => None }).collect();
    let mut frames = tl.frames.iter();
    let (first, _) = renderer.render(frames.next().unwrap()).unwrap();
    let mut clock = ClockWatch::find(&first, &rect).unwrap();
    let found = clock.is_some();
    let mut seen = Vec::new();
    let mut was = [false; 2];
    for (f, world) in frames.enumerate() {
        let (img, _) = renderer.render(world).unwrap();
        let Some(c) = clock.as_mut() else { break };
        let obs = c.observe(&img).unwrap();
        for (i, side) in [Side::White, Side::Black].into_iter().enumerate() {
            if obs.pressed[i] && !was[i] {
                seen.push((f as i64 + 1, side));
            }
        }
        was = obs.pressed;
    }
    Seen { in_view, found, truth, seen }
}

/// Each press rendered matched by one seen for the same player within [`EARLY`]/[`LATE`]
/// frames; what is left over on either side.
fn matched(s: &Seen) -> (usize, Vec<(i64, Side)>, Vec<(i64, Side)>) {
    let mut left = s.seen.clone();
    let mut missed = Vec::new();
    let mut right = 0;
    for &(f, side) in &s.truth {
        match left.iter().position(|&(g, sd)| sd == side && g >= f - EARLY && g <= f + LATE) {
            Some(k) => {
                left.remove(k);
                right += 1;
            }
            None => missed.push((f, side)),
        }
    }
    (right, missed, left)
}

#[test]
fn presses_are_seen_for_the_right_player_where_the_clock_is_in_view() {
    let mut scenes: Vec<(String, Scene)> = (11..19).map(|seed| (format!("clock-without-move {seed}"), breach_scene(BreachKind::ClockWithoutMove, seed))).collect();
    let moves = common::uci_line(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
    scenes.extend([3u64, 4, 6, 8].map(|seed| (format!("game {seed}"), game_scene(&shakmaty::Chess::default(), &moves, seed))));
    let (mut in_view, mut found_in_view, mut presses, mut right, mut extra) = (0, 0, 0, 0, 0);
    for (name, scene) in scenes {
        let s = watch(scene);
        let (ok, missed, left) = matched(&s);
        println!("{name}: buttons in view {}, clock found {}, presses {} seen right {ok}, missed {missed:?}, made up {left:?}", s.in_view, s.found, s.truth.len());
        if s.in_view {
            in_view += 1;
            found_in_view += s.found as usize;
            if s.found {
                presses += s.truth.len();
                right += ok;
            }
        }
        // Wherever a clock is found (in view or only partly), no press is made up.
        extra += left.len();
    }
    println!("clock found in {found_in_view}/{in_view} scenes with both buttons in view; presses seen right {right}/{presses}; made up {extra}");
    assert!(in_view >= 6, "the scenes show the clock often enough to judge: {in_view}");
    assert_eq!(found_in_view, in_view, "a clock with both buttons in view is found");
    assert!(right as f64 >= 0.9 * presses as f64, "{right}/{presses}");
    assert_eq!(extra, 0, "no press is made up");
}

#[test]
fn no_clock_is_found_in_real_footage_that_shows_none() {
    use touchmove::source::{SourceSpec, open};
    let clips = [
        "play-chess-with-a-webcam/scholarsmate.avi",
        "play-chess-with-a-webcam/emptyBoard001.avi",
        "play-chess-with-a-webcam/baxter.avi",
        "chess-testmedia/TK_scholarsmate7.avi",
        "chess-testmedia/scholarsMate2019-11-18.avi",
        "knightvision/sample_clip_3s.mp4",
    ];
    let mut tried = 0;
    for clip in clips {
        let path = common::real(&format!("video/{clip}"));
        let source = open(&SourceSpec::parse(path.to_str().unwrap())).unwrap();
        let start = if clip.contains("empty") { shakmaty::Board::empty() } else { shakmaty::Board::default() };
        // Whichever frame the game starts from: replay waits for the view to settle.
        for frame in source.flatten().filter(|f| [1, 5, 10, 20, 40].contains(&f.index)) {
            let Ok(vision) = touchmove::vision::frame::Vision::start(&frame.image, None, &start) else { continue };
            tried += 1;
            assert_eq!(vision.clock_beside(), None, "{clip}, frame {}", frame.index);
        }
    }
    assert!(tried >= 20, "{tried}");
}
