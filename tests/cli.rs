//! The `touchmove rules` command as other tools use it: decisions on stdout, a one-line error
//! naming the input on stderr and a non-zero exit for bad input, never a panic.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn touchmove(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn example() -> String {
    format!("{}/examples/scholars-mate-with-breaches.jsonl", env!("CARGO_MANIFEST_DIR"))
}

fn stderr_line(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    assert!(!text.contains("panicked"), "{text}");
    text
}

#[test]
fn the_example_game_gives_its_moves_and_breaches() {
    let out = touchmove(&["rules", "--events", &example()], None);
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let sans: Vec<&str> = lines.iter().filter(|l| l["kind"] == "move").map(|l| l["san"].as_str().unwrap()).collect();
    assert_eq!(sans, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    let violations: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l["kind"] == "violation")
        .map(|l| (l["article"].as_str().unwrap(), l["side"].as_str().unwrap()))
        .collect();
    assert_eq!(violations, [("4.3.1", "white"), ("7.5.3", "black")]);
}

#[test]
fn writes_a_pgn_that_reads_back_to_the_same_moves() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("touchmove-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("game.pgn");
    let out = touchmove(&["rules", "--events", &example(), "--pgn", pgn.to_str().unwrap(), "--white", "Alice"], None);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[White \"Alice\"]") && text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("violation 4.3.1"));
    let games = touchmove::sim::pgn::read_games(&text).unwrap();
    assert_eq!(games[0].moves.len(), 7);
}

#[test]
fn reads_standard_input_with_a_dash() {
    let events = std::fs::read(example()).unwrap();
    let out = touchmove(&["rules", "--events", "-"], Some(&events));
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Qxf7#"));
}

#[test]
fn a_malformed_line_is_one_error_naming_file_and_line_and_keeps_what_came_before() {
    let input = b"{\"t\":1,\"kind\":\"hand_enter\",\"hand\":0,\"side\":\"white\"}\n{\"t\":2,\"kind\":\"lift\",\"hand\":0,\"square\":\"e2\"}\n{\"t\":3,\"kind\":\"place\",\"hand\":0,\"square\":\"e4\"}\n{\"t\":4,\"kind\":\"release\",\"hand\":0,\"square\":\"e4\"}\n{\"t\":5,\"kind\":\"tuch\"}\n";
    let out = touchmove(&["rules", "--events", "-"], Some(input));
    assert!(!out.status.success());
    let err = stderr_line(&out);
    assert!(err.contains("<stdin>: line 5") && err.contains("tuch"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"san\":\"e4\""), "decided before the bad line stays printed");
}

#[test]
fn time_going_back_is_an_error() {
    let input = b"{\"t\":2,\"kind\":\"clock\",\"side\":\"black\"}\n{\"t\":1,\"kind\":\"clock\",\"side\":\"black\"}\n";
    let out = touchmove(&["rules", "--events", "-"], Some(input));
    assert!(!out.status.success());
    assert!(stderr_line(&out).contains("line 2: time goes back"));
}

#[test]
fn a_missing_events_file_names_it() {
    let out = touchmove(&["rules", "--events", "/nonexistent/events.jsonl"], None);
    assert!(!out.status.success());
    assert!(stderr_line(&out).contains("/nonexistent/events.jsonl: cannot open"));
}

#[test]
fn an_illegal_fen_is_refused_in_one_line() {
    for fen in ["not a fen", "8/8/8/8/8/8/8/8 w - - 0 1", "kk6/8/8/8/8/8/8/KK6 w - - 0 1"] {
        let out = touchmove(&["rules", "--events", &example(), "--fen", fen], None);
        assert!(!out.status.success(), "{fen}");
        assert!(stderr_line(&out).contains("--fen"), "{fen}");
    }
}

#[test]
fn a_start_position_from_fen_is_followed() {
    let input = b"{\"t\":1,\"kind\":\"lift\",\"hand\":0,\"square\":\"e7\"}\n{\"t\":2,\"kind\":\"place\",\"hand\":0,\"square\":\"e8\",\"piece\":\"N\"}\n{\"t\":3,\"kind\":\"release\",\"hand\":0,\"square\":\"e8\"}\n";
    let out = touchmove(&["rules", "--events", "-", "--fen", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"], Some(input));
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"san\":\"e8=N\""));
}

#[test]
fn binary_garbage_fails_cleanly() {
    let out = touchmove(&["rules", "--events", "-"], Some(&[0xff, 0x00, 0x13, b'\n', b'{']));
    assert!(!out.status.success());
    assert!(stderr_line(&out).contains("line 1"));
}

#[test]
fn help_teaches_the_command() {
    let out = touchmove(&["rules", "--help"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--events") && text.contains("--fen") && text.contains("Example"));
    let top = touchmove(&["--help"], None);
    assert!(String::from_utf8_lossy(&top.stdout).contains("rules"));
}

#[test]
fn sims_help_names_a_script_that_renders_and_every_staged_scene() {
    let help = String::from_utf8_lossy(&touchmove(&["sim", "--help"], None).stdout).to_string();
    assert!(help.contains("examples/scenes/e4-e5.json"), "{help}");
    let words: Vec<String> = help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).map(str::to_owned).collect();
    for (name, _) in touchmove::sim::scenes::STAGED_NAMES {
        assert!(words.iter().any(|w| w == name), "--help names no staged scene {name}");
    }
    let dir = tempfile::tempdir().unwrap();
    let script = format!("{}/examples/scenes/e4-e5.json", env!("CARGO_MANIFEST_DIR"));
    let out = touchmove(&["sim", &script, "--out", dir.path().to_str().unwrap(), "--no-video"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 moves"), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn doctor_finds_onnx_runtime_without_any_variable_and_names_a_bad_override() {
    let out = Command::new(env!("CARGO_BIN_EXE_touchmove")).arg("doctor").env_remove("ORT_DYLIB_PATH").env_remove("TOUCHMOVE_PIECE_MODEL").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("ONNX Runtime: /opt/onnxruntime/lib/libonnxruntime.so") && text.contains("FFmpeg"), "{text}");
    let bad = Command::new(env!("CARGO_BIN_EXE_touchmove")).arg("doctor").env("ORT_DYLIB_PATH", "/nonexistent/libonnxruntime.so").output().unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("ORT_DYLIB_PATH=/nonexistent/libonnxruntime.so: no such file") && !err.contains("panicked"), "{err}");
}

#[test]
fn doctor_loads_the_piece_model_and_names_a_damaged_one() {
    let out = Command::new(env!("CARGO_BIN_EXE_touchmove")).arg("doctor").env_remove("TOUCHMOVE_PIECE_MODEL").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("piece model: built in"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let damaged = dir.path().join("piece.onnx");
    std::fs::write(&damaged, b"\x08\x07not a model").unwrap();
    let bad = Command::new(env!("CARGO_BIN_EXE_touchmove")).arg("doctor").env("TOUCHMOVE_PIECE_MODEL", &damaged).output().unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    let line = err.lines().find(|l| l.contains("piece model")).unwrap_or_default();
    assert!(line.contains("is damaged") && line.contains("rebuild.sh") && !err.contains("panicked"), "{err}");
}
