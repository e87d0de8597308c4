//! `touchmove replay` and `touchmove bench` as a user runs them: the outputs of the contract,
//! written and readable; every kind of bad input refused in one line naming it; the bench's
//! ratio printed.

use std::process::{Command, Output};

use touchmove::sim::scenes::{Staged, staged_scene};
use touchmove::sim::video::render_scene;
use touchmove::types::{Decision, Event};

fn touchmove(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_touchmove")).args(args).output().expect("the binary runs")
}

fn one_line_error(out: &Output) -> String {
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with('[')).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("touchmove-replay-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_rendered_game_replays_into_the_three_outputs() {
    let dir = temp("scene");
    let mut scene = staged_scene(Staged::EnPassant, 3);
    scene.camera.width = 640;
    scene.camera.height = 360;
    render_scene(&scene, &dir, true, |_, _| {}).unwrap();
    let truth: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    let cal = dir.join("calibration.json");
    std::fs::write(&cal, serde_json::json!({"corners": truth["corners"], "white": truth["white"]}).to_string()).unwrap();
    let out = dir.join("out");
    let run = touchmove(&["replay", dir.join("video.mp4").to_str().unwrap(), "--calibration", cal.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let summary = String::from_utf8_lossy(&run.stdout);
    assert!(summary.contains(&format!("{} frames", truth["frames"])), "{summary}");
    let events: Vec<Event> = std::fs::read_to_string(out.join("events.jsonl")).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(events.first().is_some_and(|e| matches!(e.kind, touchmove::types::EventKind::Board { .. })));
    assert!(events.windows(2).all(|w| w[0].t <= w[1].t), "time never goes back");
    for l in std::fs::read_to_string(out.join("decisions.jsonl")).unwrap().lines() {
        serde_json::from_str::<Decision>(l).unwrap();
    }
    assert!(std::fs::read_to_string(out.join("game.pgn")).unwrap().contains("[Result "));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_position_too_sparse_to_learn_from_is_read_with_typical_looks() {
    // King and pawn against king: no black piece on a dark square to learn the look from.
    let dir = temp("sparse");
    let scene = staged_scene(Staged::Breach(touchmove::sim::breaches::BreachKind::PawnOnLastRank), 2);
    render_scene(&scene, &dir, true, |_, _| {}).unwrap();
    let out = dir.join("out");
    let run = touchmove(&["replay", dir.join("video.mp4").to_str().unwrap(), "--fen", &scene.start, "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let events: Vec<Event> = std::fs::read_to_string(out.join("events.jsonl")).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let acts: Vec<String> = events.iter().filter_map(|e| match e.kind {
        touchmove::types::EventKind::Lift { square, .. } => Some(format!("lift {square}")),
        touchmove::types::EventKind::Place { square, .. } => Some(format!("place {square}")),
        _ => None,
    }).collect();
    assert_eq!(acts, ["lift e7", "place e8"], "the pawn's way to the last rank, and nothing else");
    std::fs::remove_dir_all(&dir).ok();
}

/// The replay written to `out` decided exactly one move, `san`, and no violation.
fn assert_only_move(out: &std::path::Path, san: &str, seed: u64) {
    let decisions = std::fs::read_to_string(out.join("decisions.jsonl")).unwrap();
    let moves: Vec<&str> = decisions.lines().filter(|l| l.contains("\"kind\":\"move\"")).collect();
    assert_eq!(moves.len(), 1, "seed {seed}: {decisions}");
    assert!(moves[0].contains(&format!("\"san\":\"{san}\"")), "seed {seed}, {san}: {}", moves[0]);
    assert!(!decisions.contains("violation"), "seed {seed}: {decisions}");
}

/// A promotion in an endgame given with --fen, from the rendered under-promotion scene with the
/// new piece swapped for each a pawn can become. The pawn is taken off and the piece brought
/// from off the board (the arm leaving the view between the two); the board is turned by the
/// known position (two white pieces at opposite ends: where the light pieces stand says
/// nothing), the new piece, unlike any learned from, is read as white once nothing hides it, it
/// is taken for the promoted piece and not the pawn come back, and the piece model names it.
/// Each of the first three failed before its fix; the last needs the piece model (the queen
/// was recorded for every piece). Knights were named bishops half the time until the model
/// read 64-pixel crops; the figures over 24 seeds are in the naming module's note. Seed 9's
/// knight is read as a piece of colour untold: no promotion was recorded until the model's
/// colour was taken for it.
#[test]
fn a_promotion_in_an_endgame_given_by_fen_is_recorded_with_its_piece() {
    use shakmaty::Role;
    for (role, seed) in [(Role::Knight, 4), (Role::Queen, 2), (Role::Rook, 1), (Role::Bishop, 3), (Role::Knight, 9)] {
        assert_promotion_recorded(role, seed);
    }
}

/// The same scene where something other than the move looked like one, each recording a false
/// breach before its fix: seed 3, h3 shaded by the arm carrying the pawn off, read as a piece
/// of colour untold for five frames and taken for the pawn set down there (7.6); seed 6, the
/// hand fetching the new piece from beside the board over the clock's near edge, taken for a
/// press (7.5.3); seed 10, the edge of an arm over the sparse board read as white frame after
/// frame until the typical looks drifted and Black's king read white (7.6); seed 13, g8 shaded
/// as the queen was set down on e8, read as a second white piece (the move never recorded);
/// seed 16, the wooden knight read black by the typical looks (no promotion recorded).
#[test]
fn a_promotion_in_an_endgame_is_not_mistaken_for_breaches_by_shades_and_a_passing_hand() {
    use shakmaty::Role;
    for (role, seed) in [(Role::Queen, 3), (Role::Queen, 6), (Role::Bishop, 10), (Role::Queen, 13), (Role::Knight, 16)] {
        assert_promotion_recorded(role, seed);
    }
}

/// Renders the under-promotion scene with seed `seed` and the new piece `role`, replays it with
/// the scene's FEN, and asserts White's edge and the one move recorded, with no violation.
fn assert_promotion_recorded(role: shakmaty::Role, seed: u64) {
    let dir = temp(&format!("promotion-{seed}-{}", role.char()));
    let scene = staged_scene(Staged::UnderPromotion, seed).promoting_to(role);
    render_scene(&scene, &dir, true, |_, _| {}).unwrap();
    let white = touchmove::sim::camera::Camera::new(&scene.camera).white_edge();
    let out = dir.join("out");
    let run = touchmove(&["replay", dir.join("video.mp4").to_str().unwrap(), "--fen", &scene.start, "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let first: serde_json::Value = serde_json::from_str(std::fs::read_to_string(out.join("events.jsonl")).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(first["white"].as_str(), Some(white), "seed {seed}: White's edge");
    assert_only_move(&out, &format!("e8={}", role.upper_char()), seed);
    std::fs::remove_dir_all(&dir).ok();
}

/// A promotion that captures (exd8 onto a black rook) played by one hand in one go, the new
/// piece put where the rook stood: the square turns from black to white, never empty in
/// between, and the piece model names it still. Each seed here had the queen recorded before
/// the fix (an arrival counted only on an empty square). Several other seeds of this scene
/// record no move at all (the arm over the king's square misread): that is the tracker's, not
/// the naming's, and is in the note.
#[test]
fn a_promotion_that_captures_is_recorded_with_its_piece() {
    use shakmaty::{Position, Role};
    let start: shakmaty::Chess = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1".parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
    for (role, seed) in [(Role::Knight, 1), (Role::Rook, 2), (Role::Bishop, 2)] {
        let m = shakmaty::Move::Normal { role: Role::Pawn, from: shakmaty::Square::E7, capture: Some(Role::Rook), to: shakmaty::Square::D8, promotion: Some(role) };
        assert!(start.is_legal(m));
        let scene = touchmove::sim::scenes::game_scene(&start, &[m], seed);
        let dir = temp(&format!("capture-promotion-{seed}-{}", role.char()));
        render_scene(&scene, &dir, true, |_, _| {}).unwrap();
        let out = dir.join("out");
        let run = touchmove(&["replay", dir.join("video.mp4").to_str().unwrap(), "--fen", &scene.start, "--out", out.to_str().unwrap()]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        assert_only_move(&out, &format!("exd8={}", role.upper_char()), seed);
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// The clock's buttons given in the calibration file are the ones watched: the staged press
/// without a move is flagged; buttons given on the board are refused in one line.
#[test]
fn a_clock_given_in_the_calibration_is_read() {
    use touchmove::sim::breaches::BreachKind;
    use touchmove::sim::camera::{Camera, HALF_BOARD_CM};
    let dir = temp("clock");
    let mut scene = staged_scene(Staged::Breach(BreachKind::ClockWithoutMove), 11);
    scene.camera.width = 640;
    scene.camera.height = 360;
    render_scene(&scene, &dir, true, |_, _| {}).unwrap();
    let truth: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    // The renderer's buttons: beside the h-file, 4 cm either side of the middle, White's
    // towards White.
    let cam = Camera::new(&scene.camera);
    let button = |y: f64| cam.project([HALF_BOARD_CM + 14.0, y, 7.2]);
    let cal = dir.join("calibration.json");
    let write = |white: [f64; 2], black: [f64; 2]| {
        let clock = serde_json::json!({"white": white, "black": black});
        std::fs::write(&cal, serde_json::json!({"corners": truth["corners"], "white": truth["white"], "clock": clock}).to_string()).unwrap();
    };
    write(button(-4.0), button(4.0));
    let out = dir.join("out");
    let video = dir.join("video.mp4");
    let run = touchmove(&["replay", video.to_str().unwrap(), "--calibration", cal.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let decisions = std::fs::read_to_string(out.join("decisions.jsonl")).unwrap();
    assert!(decisions.contains("\"article\":\"7.5.3\""), "{decisions}");
    // On the board, they are no clock's.
    write(cam.project([0.0, -4.0, 0.0]), cam.project([0.0, 4.0, 0.0]));
    let err = one_line_error(&touchmove(&["replay", video.to_str().unwrap(), "--calibration", cal.to_str().unwrap(), "--out", out.to_str().unwrap()]));
    assert!(err.contains("--calibration") && err.contains("beside the a- or h-file edge"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_inputs_fail_in_one_line_naming_them() {
    let dir = temp("bad");
    let empty = dir.join("empty.mp4");
    std::fs::write(&empty, b"").unwrap();
    let text = dir.join("notes.mp4");
    std::fs::write(&text, b"this is not a video\n").unwrap();
    let cal = dir.join("cal.json");
    std::fs::write(&cal, b"{\"corners\": 3}").unwrap();
    let missing = dir.join("missing.mp4");
    for (args, expected) in [
        (vec!["replay", missing.to_str().unwrap()], "missing.mp4"),
        (vec!["replay", empty.to_str().unwrap()], "empty.mp4"),
        (vec!["replay", text.to_str().unwrap()], "notes.mp4"),
        (vec!["replay", text.to_str().unwrap(), "--calibration", cal.to_str().unwrap()], "cal.json"),
        (vec!["replay", text.to_str().unwrap(), "--fen", "nonsense"], "--fen"),
        (vec!["bench", missing.to_str().unwrap()], "missing.mp4"),
    ] {
        let err = one_line_error(&touchmove(&args));
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn replay_sans(clip: &str, name: &str) -> (Vec<String>, usize) {
    replay_file(&format!("{}/../shared/real/video/{clip}", env!("CARGO_MANIFEST_DIR")), name)
}

/// Replays `path`: the moves recorded and the number of violations.
fn replay_file(path: &str, name: &str) -> (Vec<String>, usize) {
    let dir = temp(name);
    let run = touchmove(&["replay", path, "--out", dir.to_str().unwrap()]);
    assert!(run.status.success(), "{path}: {}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(dir.join("decisions.jsonl")).unwrap();
    let decisions: Vec<Decision> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    std::fs::remove_dir_all(&dir).ok();
    let sans = decisions.iter().filter_map(|d| match &d.kind { touchmove::types::DecisionKind::Move { san, .. } => Some(san.clone()), _ => None }).collect();
    (sans, decisions.iter().filter(|d| d.violation().is_some()).count())
}

#[test]
fn real_clips_without_a_calibration_the_board_is_found() {
    // ../shared/real/video/knightvision/sample_clip_3s.mp4: oblique view, green roll-up board,
    // two different hands: 1. e4 e5.
    assert_eq!(replay_sans("knightvision/sample_clip_3s.mp4", "knight"), (vec!["e4".to_owned(), "e5".to_owned()], 0));
    // ../shared/real/video/play-chess-with-a-webcam/scholarsmate.avi: White on the right, fast
    // play, the queen set down on h5 at the picture's edge, where the shade makes her read
    // darker than any white piece learned from (a piece of colour untold, hers by where she went).
    let mate: Vec<String> = "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#".split(' ').map(str::to_owned).collect();
    assert_eq!(replay_sans("play-chess-with-a-webcam/scholarsmate.avi", "scholars"), (mate, 0));
    // ../shared/real/video/play-chess-with-a-webcam/emptyBoard001.avi: an empty board records
    // nothing.
    assert_eq!(replay_sans("play-chess-with-a-webcam/emptyBoard001.avi", "empty"), (vec![], 0));
    // ../shared/real/video/play-chess-with-a-webcam/baxter.avi: a robot arm, a board that moves:
    // no crash and no invented violation.
    assert_eq!(replay_sans("play-chess-with-a-webcam/baxter.avi", "baxter").1, 0);
}

/// The two clips cropped to the board (`../shared/real/video/chess-testmedia/`), where one
/// player moves for both sides, a second or less apart, and White's cream pieces on near-white
/// squares read close to the black pieces' look: each records the whole mate with no violation,
/// as issue #5 asks. Before: `TK_scholarsmate7.avi` (damaged) the first five moves, then a false
/// 7.6 (the knight set on f6 from a g8 that read as no look at all at the picture's corner);
/// `scholarsMate2019-11-18.avi` the seven moves with a false 4.3.2 (3. Bc4 Nf6 4. Qxf7# read
/// from one board, the capture on f7 counted as White's touch before 3. Bc4).
#[test]
fn real_clips_cropped_to_the_board_record_their_opening_moves() {
    let mate: Vec<String> = "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#".split(' ').map(str::to_owned).collect();
    assert_eq!(replay_sans("chess-testmedia/scholarsMate2019-11-18.avi", "sm1118"), (mate.clone(), 0), "scholarsMate2019-11-18.avi");
    assert_eq!(replay_sans("chess-testmedia/TK_scholarsmate7.avi", "tk7"), (mate, 0), "TK_scholarsmate7.avi");
}

/// A real clip as other footage may show it: re-encoded through an ffmpeg filter (ffmpeg is
/// installed by `scripts/setup.sh`; one thread, so that every machine makes the same file).
fn replay_look(clip: &str, filter: &str, name: &str) -> (Vec<String>, usize) {
    let path = format!("{}/../shared/real/video/{clip}", env!("CARGO_MANIFEST_DIR"));
    let dir = temp(name);
    let video = dir.join("video.mp4");
    let made = std::process::Command::new("ffmpeg")
        .args(["-loglevel", "fatal", "-y", "-i", &path, "-vf", filter, "-c:v", "libx264", "-crf", "18", "-threads", "1", video.to_str().unwrap()])
        .status();
    assert!(made.is_ok_and(|s| s.success()), "ffmpeg could not make the {filter} copy of {clip}: run scripts/setup.sh");
    let recorded = replay_file(video.to_str().unwrap(), &format!("{name}-out"));
    std::fs::remove_dir_all(&dir).ok();
    recorded
}

/// Real clips under looks they were not shot with (`make eval` replays 24 such), each pinning
/// a way short or fast footage lost moves. Knightvision's clip halved in size ends 0.2 s after
/// 1... e5 was set down, by the hand that made 1. e4, under an arm vision held a moment where it
/// lost it: e5 was never read (the recording ended first, and the black pawn in a White hand
/// was taken for a capture's victim carried off). `scholarsmate.avi` turned 270°: the arms
/// alternate within a fifth of a second, and the board with 3. Bc4 Nf6 was told only after the
/// queen's capture (3. Qxf7+ and a 7.6); and the arm that lifted the queen, found again under a
/// new id, was taken for a second hand (a false 4.1). (`TK_scholarsmate7.avi` flattened, right
/// in `make eval`, is not pinned: re-encoded on one thread rather than several, it loses
/// 2... Nc6, so close to the edge does it stand.)
#[test]
fn real_clips_under_other_looks_record_their_moves() {
    assert_eq!(replay_look("knightvision/sample_clip_3s.mp4", "scale=iw/2:ih/2", "look-half"), (vec!["e4".to_owned(), "e5".to_owned()], 0), "sample_clip_3s.mp4 halved");
    let mate: Vec<String> = "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#".split(' ').map(str::to_owned).collect();
    assert_eq!(replay_look("play-chess-with-a-webcam/scholarsmate.avi", "transpose=2", "look-r270"), (mate, 0), "scholarsmate.avi turned 270°");
}

#[test]
fn bench_prints_decode_and_replay_throughput_and_their_ratio() {
    // ../shared/real/video/chess-testmedia/scholarsMate2019-11-18.avi: cropped to the board.
    let clip = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real/video/chess-testmedia/scholarsMate2019-11-18.avi");
    let out = touchmove(&["bench", clip]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("decode only: 248 frames") && text.contains("replay:      248 frames") && text.contains("ratio:"), "{text}");
    // What bounds it: each stage's CPU a frame, and how busy the cores were.
    let cpu = text.lines().find(|l| l.starts_with("CPU a frame:")).unwrap_or_else(|| panic!("{text}"));
    let figure = |after: &str| -> f64 { cpu.split(after).nth(1).and_then(|r| r.split_whitespace().next()).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{after} in {cpu}")) };
    assert!(figure("preparing ") > 0.0 && figure("following ") > 0.0, "{cpu}");
    assert!(figure("ms; ") > 0.0, "cores busy: {cpu}");
}


/// A move made with two hands, read from the pixels: White's second hand comes in beside the
/// first, which holds the knight lifted from g1, takes it and sets it on f3. From above, the two
/// arms meet at their hands and change the view as one region; it is cut apart again by the
/// two ways in it came by (vision's `two_arms`), and the id stays with the arm that held it
/// first, so the lift and the placing are two hands' acts. Before, both seeds recorded Nf3 with
/// no violation. (Seeds 11 and 16 still do: their first hand, holding the knight up over g1,
/// is seen beyond White's edge of the board, outside the view the hands are looked for in.)
#[test]
fn a_move_made_with_two_hands_is_seen_as_two_arms_from_the_pixels() {
    for seed in [12, 13] {
        let dir = temp(&format!("two-hands-{seed}"));
        let scene = staged_scene(Staged::Breach(touchmove::sim::breaches::BreachKind::TwoHands), seed);
        render_scene(&scene, &dir, true, |_, _| {}).unwrap();
        let out = dir.join("out");
        let run = touchmove(&["replay", dir.join("video.mp4").to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let decisions: Vec<Decision> = std::fs::read_to_string(out.join("decisions.jsonl")).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let sans: Vec<String> = decisions.iter().filter_map(|d| match &d.kind {
            touchmove::types::DecisionKind::Move { san, .. } => Some(san.clone()),
            _ => None,
        }).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3"], "seed {seed}");
        let breaches: Vec<(&str, Option<touchmove::types::Side>)> = decisions.iter().filter_map(|d| d.violation().map(|(a, side)| (a.id(), side))).collect();
        assert_eq!(breaches, [("4.1", Some(touchmove::types::Side::White)), ("7.5.4", Some(touchmove::types::Side::White))], "seed {seed}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// "J'adoube" said, which the video cannot carry, given to replay in a file of the operator's
/// input (`--announced`): the staged announced adjustment, White's fingers on a piece after he
/// said it, then another piece moved. Without the file the adjustment is a touch and the move
/// breaches 4.3.1; with it, it is an adjustment and nothing is breached (the rendered 40-ply
/// game of `touchmove bench`, seed 3, went from three false 4.3.1 to none the same way).
#[test]
fn jadoube_heard_reaches_replay_from_a_file_of_the_operators_input() {
    let dir = temp("announced");
    let scene = staged_scene(Staged::AnnouncedAdjust, 3);
    render_scene(&scene, &dir, true, |_, _| {}).unwrap();
    let truth: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    let said: Vec<String> = truth["events"].as_array().unwrap().iter().filter(|e| e["kind"] == "adjust_announced").map(|e| e.to_string()).collect();
    assert_eq!(said.len(), 1);
    let file = dir.join("announced.jsonl");
    std::fs::write(&file, said.join("\n") + "\n").unwrap();
    let video = dir.join("video.mp4");
    let kinds = |out: &std::path::Path| -> Vec<String> {
        std::fs::read_to_string(out.join("decisions.jsonl")).unwrap().lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()).map(|d| format!("{} {}", d["kind"].as_str().unwrap(), d["san"].as_str().or(d["article"].as_str()).unwrap_or(""))).collect()
    };
    let (without, with) = (dir.join("without"), dir.join("with"));
    let run = touchmove(&["replay", video.to_str().unwrap(), "--out", without.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(kinds(&without), ["move e4", "move e5", "move d4", "violation 4.3.1"]);
    let run = touchmove(&["replay", video.to_str().unwrap(), "--announced", file.to_str().unwrap(), "--out", with.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let got = kinds(&with);
    assert!(got.contains(&"adjust ".to_string()), "{got:?}");
    assert_eq!(got.iter().filter(|k| !k.starts_with("adjust")).collect::<Vec<_>>(), ["move e4", "move e5", "move d4"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// A file of announcements that cannot be read, is not JSONL events, or holds what vision sees
/// (a touch) is refused in one line naming it, before any frame is read.
#[test]
fn a_bad_file_of_announcements_is_refused_naming_it() {
    let dir = temp("bad-announced");
    let run = |content: Option<&str>| {
        let file = dir.join("announced.jsonl");
        match content {
            Some(c) => std::fs::write(&file, c).unwrap(),
            None => std::fs::remove_file(&file).map_or((), |_| ()),
        }
        let out = touchmove(&["replay", "no-such-video.mp4", "--announced", file.to_str().unwrap(), "--out", dir.join("out").to_str().unwrap()]);
        one_line_error(&out)
    };
    let err = run(None);
    assert!(err.contains("announced.jsonl") && err.contains("cannot read the announcements"), "{err}");
    let err = run(Some("{\"t\":1.0,\"kind\":\"adjust_announced\",\"side\":\"white\"}\n{\"t\":2.0,\"kind\":\"adjust_ann"));
    assert!(err.contains("announced.jsonl") && err.contains("line 2"), "{err}");
    let err = run(Some("{\"t\":1.0,\"kind\":\"touch\",\"hand\":0,\"square\":\"e2\"}\n"));
    assert!(err.contains("announced.jsonl") && err.contains("event 1") && err.contains("adjust_announced"), "{err}");
    let err = run(Some("{\"t\":2.0,\"kind\":\"adjust_announced\",\"side\":\"white\"}\n{\"t\":1.0,\"kind\":\"adjust_announced\",\"side\":\"black\"}\n"));
    assert!(err.contains("time goes back"), "{err}");
    assert!(!dir.join("out").exists(), "nothing is written");
    std::fs::remove_dir_all(&dir).ok();
}
