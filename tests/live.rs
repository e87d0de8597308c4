//! `touchmove live`: the server over real HTTP on loopback (endpoints, token, malformed and
//! oversized requests), a rendered game played through `--url` at real-time pace with every
//! move on `/events` and `/game.pgn` in order and in time, and a killed process resumed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use touchmove::output::serve::{Feed, OperatorRequest, Reply, Server};
use touchmove::types::Correction;

/// Sends raw bytes, returns the status code and body (the server closes or answers once).
fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.write_all(request);
    let mut reply = Vec::new();
    let _ = s.read_to_end(&mut reply);
    let text = String::from_utf8_lossy(&reply).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    raw(addr, format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
}

fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    raw(addr, format!("POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()).as_bytes())
}

/// A server over a feed, with a stand-in for the pipeline that refuses an undo (no move yet)
/// and accepts the rest.
fn test_server(dir: &Path) -> (Server, std::sync::Arc<Feed>) {
    let feed = Feed::new();
    feed.set_game("[Event \"?\"]\n\n1. e4 *\n".into(), serde_json::json!({"fen": "x", "moves": [], "alerts": []}));
    let (tx, rx) = crossbeam_channel::bounded::<OperatorRequest>(4);
    std::thread::spawn(move || {
        for r in rx {
            let reply = match r.correction {
                Correction::Undo => Reply::Conflict("there is no move to take back".into()),
                Correction::SetFen { fen } if fen.is_empty() => Reply::BadRequest("empty FEN".into()),
                other => Reply::Done(serde_json::json!({"did": format!("{other:?}")})),
            };
            let _ = r.reply.send(reply);
        }
    });
    let server = Server::start("127.0.0.1:0", "sesame".into(), feed.clone(), tx, dir.to_path_buf()).expect("starts");
    (server, feed)
}

#[test]
fn the_server_answers_every_endpoint_checks_the_token_and_survives_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("alert-3.jpg"), b"\xff\xd8jpeg").unwrap();
    let (server, _feed) = test_server(dir.path());
    let addr = server.addr();

    let (status, pgn) = get(addr, "/game.pgn");
    assert_eq!((status, pgn.contains("1. e4")), (200, true), "{pgn}");
    let (status, page) = get(addr, "/");
    assert!(status == 200 && page.contains("<html") && page.contains("/events"), "{status}");
    let (status, state) = get(addr, "/state.json");
    assert_eq!(status, 200);
    let state: serde_json::Value = serde_json::from_str(&state).expect("JSON");
    assert_eq!(state["fen"], "x");
    assert_eq!(get(addr, "/snapshots/alert-3.jpg").0, 200);
    assert_eq!(get(addr, "/snapshots/alert-4.jpg").0, 404);
    assert_eq!(get(addr, "/snapshots/../alert-3.jpg").0, 404);
    assert_eq!(get(addr, "/nothing").0, 404);

    // The token: none, a wrong one, the right one (in the header or the query).
    assert_eq!(post(addr, "/adjust", None, r#"{"side":"white"}"#).0, 401);
    assert_eq!(post(addr, "/adjust", Some("guess"), r#"{"side":"white"}"#).0, 401);
    let (status, body) = post(addr, "/adjust", Some("sesame"), r#"{"side":"white"}"#);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("Adjust"), "{body}");
    assert_eq!(post(addr, "/alerts/3/dismiss?token=sesame", None, "").0, 200);
    // What the pipeline refuses, and what never reaches it.
    assert_eq!(post(addr, "/undo", Some("sesame"), "").0, 409);
    assert_eq!(post(addr, "/fen", Some("sesame"), r#"{"fen":""}"#).0, 400);
    assert_eq!(post(addr, "/fen", Some("sesame"), "{not json").0, 400);
    assert_eq!(post(addr, "/adjust", Some("sesame"), r#"{"side":"purple"}"#).0, 400);
    assert_eq!(post(addr, "/alerts/x/confirm", Some("sesame"), "").0, 400);
    assert_eq!(post(addr, "/launch", Some("sesame"), "").0, 404);
    assert_eq!(raw(addr, b"DELETE /undo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").0, 405);

    // Oversized: a body announced too long, a chunked body too long, a request target too long.
    let big = format!("POST /fen HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sesame\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n{}", "x".repeat(1000));
    assert_eq!(raw(addr, big.as_bytes()).0, 413);
    let chunk = "x".repeat(20_000);
    let chunked = format!("POST /fen HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sesame\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n", chunk.len());
    assert_eq!(raw(addr, chunked.as_bytes()).0, 413);
    assert_eq!(get(addr, &format!("/{}", "a".repeat(5000))).0, 414);
    // Malformed: not HTTP at all, a broken request line, a connection dropped mid-request.
    let (status, _) = raw(addr, b"HELLO THERE\r\n\r\n");
    assert!(status == 0 || (400..500).contains(&status), "{status}");
    let (status, _) = raw(addr, b"GET\r\n\r\n");
    assert!(status == 0 || (400..500).contains(&status), "{status}");
    drop(TcpStream::connect(addr).and_then(|mut s| s.write_all(b"POST /undo HTTP/1.1\r\nContent-Length: 50\r\n\r\nabc")));
    // Still serving.
    assert_eq!(get(addr, "/game.pgn").0, 200);
}

#[test]
fn the_event_stream_sends_every_decision_and_resumes_after_the_last_id() {
    let dir = tempfile::tempdir().unwrap();
    let (server, feed) = test_server(dir.path());
    feed.decision(0, r#"{"kind":"move","san":"e4","id":0}"#);
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    let mut data = Vec::new();
    feed.decision(1, r#"{"kind":"move","san":"e5","id":1}"#);
    while data.len() < 2 {
        line.clear();
        assert!(r.read_line(&mut line).unwrap() > 0, "stream closed early");
        if let Some(d) = line.strip_prefix("data: ") {
            data.push(d.trim().to_string());
        }
    }
    assert!(data[0].contains("e4") && data[1].contains("e5"), "{data:?}");
    // A client back after decision 0 gets decision 1 only; after the end, the stream closes.
    feed.end();
    let (status, body) = raw(server.addr(), b"GET /events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 0\r\n\r\n");
    assert_eq!(status, 200);
    assert!(body.contains("e5") && !body.contains("e4") && body.contains("event: end"), "{body}");
}

/// A short real game rendered once for the tests that play it: twic1599 game 5 (look and
/// hands from seed 1), its first six plies, 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4.
fn rendered() -> &'static (PathBuf, Vec<(f64, String)>) {
    static GAME: OnceLock<(PathBuf, Vec<(f64, String)>)> = OnceLock::new();
    GAME.get_or_init(|| {
        let pgn = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real/pgn/twic1599.pgn")).expect("twic1599.pgn");
        let games = touchmove::sim::pgn::read_games(&pgn).expect("parses");
        let g = &games[4];
        let scene = touchmove::sim::scenes::game_scene(&g.start, &g.moves[..6], 1);
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("touchmove-live-{}", std::process::id()));
        let rendered = touchmove::sim::video::render_scene(&scene, &dir, true, |_, _| {}).expect("renders");
        let moves = rendered
            .decisions
            .iter()
            .filter_map(|d| match &d.kind {
                touchmove::types::DecisionKind::Move { san, .. } => Some((d.t, san.clone())),
                _ => None,
            })
            .collect();
        (dir.join("video.mp4"), moves)
    })
}

/// Games played at real-time pace run one at a time: on two cores, several at once would drop
/// frames, and what the timing test measures would be the other tests' load.
fn playing() -> std::sync::MutexGuard<'static, ()> {
    static PLAYING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    PLAYING.lock().unwrap_or_else(|e| e.into_inner())
}

fn touchmove() -> Command {
    Command::new(env!("CARGO_BIN_EXE_touchmove"))
}

/// Starts `touchmove live` and returns it with the address it serves (read from its stderr).
fn start_live(args: &[&str]) -> (Child, SocketAddr) {
    let mut child = touchmove().arg("live").args(args).stderr(Stdio::piped()).stdout(Stdio::null()).spawn().expect("starts");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        if err.read_line(&mut line).unwrap_or(0) == 0 {
            panic!("touchmove live stopped before serving");
        }
        if let Some(rest) = line.split("serving http://").nth(1) {
            break rest.split('/').next().unwrap().parse().expect("an address");
        }
    };
    // Keep draining stderr so the child never blocks on it.
    std::thread::spawn(move || for _ in err.lines() {});
    (child, addr)
}

fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64()
}

#[test]
fn a_rendered_game_played_live_reaches_events_and_pgn_in_order_while_it_is_played() {
    let (video, truth) = rendered();
    let _one_at_a_time = playing();
    let out = tempfile::tempdir().unwrap();
    let (mut child, addr) = start_live(&["--url", video.to_str().unwrap(), "--serve", "127.0.0.1:0", "--out", out.path().to_str().unwrap(), "--token", "t", "--event", "Test Open", "--round", "3", "--white", "Ann"]);
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut r = BufReader::new(s);
    let (mut clock, mut moves, mut pgn_after_each) = (None::<(f64, f64)>, Vec::new(), Vec::new());
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        let Some(data) = line.strip_prefix("data: ") else { continue };
        let v: serde_json::Value = serde_json::from_str(data.trim()).expect("JSON data");
        if let Some(c) = v.get("clock") {
            clock = Some((c["t"].as_f64().unwrap(), c["unix"].as_f64().unwrap()));
        }
        if v["kind"] == "move" {
            moves.push((unix_now(), v["san"].as_str().unwrap().to_string()));
            pgn_after_each.push(get(addr, "/game.pgn").1);
        }
    }
    assert!(child.wait().unwrap().success());
    let sans: Vec<&str> = moves.iter().map(|(_, s)| s.as_str()).collect();
    let played: Vec<&str> = truth.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(sans, played, "moves on /events");
    for (i, pgn) in pgn_after_each.iter().enumerate() {
        for san in &played[..=i] {
            assert!(pgn.contains(san), "/game.pgn after move {} lacks {san}:\n{pgn}", i + 1);
        }
    }
    // Live means each move is out while the game goes on: before the next move is released
    // (the last within as long). How soon, as a figure, is `make bench`'s to measure: a
    // wall-clock bound tight enough to be a figure fails whenever the machine is busy.
    let (t0, unix0) = clock.expect("the feed says when the first frame was due");
    let mut late = Vec::new();
    for (k, ((arrived, san), (t, _))) in moves.iter().zip(truth).enumerate() {
        let delay = arrived - (unix0 + (t - t0));
        let gap = truth.get(k + 1).map_or(truth.get(k.wrapping_sub(1)).map_or(3.0, |(p, _)| t - p), |(n, _)| n - t);
        eprintln!("{san}: on /events {delay:.2} s after its release (the next {gap:.2} s after it)");
        if delay > gap {
            late.push(format!("{san} {delay:.2} s"));
        }
    }
    assert!(late.is_empty(), "moves out only after the next was released: {late:?}");
    // Standard tags, the date today's for a game played live.
    let last = pgn_after_each.last().expect("moves were seen");
    for tag in ["[Event \"Test Open\"]", "[Round \"3\"]", "[White \"Ann\"]", "[Result \"*\"]"] {
        assert!(last.contains(tag), "{tag} missing:\n{last}");
    }
    let date = last.lines().find_map(|l| l.strip_prefix("[Date \"")).expect("a Date tag");
    assert!(date.len() == 12 && date[..4].parse::<u32>().is_ok_and(|y| y >= 2024), "{date}");
    let on_disk = std::fs::read_to_string(out.path().join("game.pgn")).unwrap();
    assert!(played.iter().all(|san| on_disk.contains(san)), "{on_disk}");
}

/// `touchmove live --url VIDEO --no-serve --out DIR`, returned still running once `moves` moves
/// stand in its decisions.jsonl (within two minutes).
fn live_until_moves(video: &Path, dir: &Path, moves: usize, stdout: Stdio) -> Child {
    let mut child = touchmove().args(["live", "--url", video.to_str().unwrap(), "--no-serve", "--out", dir.to_str().unwrap()]).stdout(stdout).stderr(Stdio::null()).spawn().unwrap();
    let moves_in = || std::fs::read_to_string(dir.join("decisions.jsonl")).unwrap_or_default().lines().filter(|l| l.contains(r#""kind":"move""#)).count();
    let started = Instant::now();
    while moves_in() < moves {
        assert!(started.elapsed() < Duration::from_secs(120), "not {moves} moves within two minutes");
        assert!(child.try_wait().unwrap().is_none(), "the game ended before it could be stopped");
        std::thread::sleep(Duration::from_millis(100));
    }
    child
}

#[test]
fn a_killed_live_game_resumed_from_its_logs_loses_and_repeats_no_move() {
    let (video, truth) = rendered();
    let _one_at_a_time = playing();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("game");
    let mut child = live_until_moves(video, &dir, 3, Stdio::null());
    child.kill().unwrap();
    child.wait().unwrap();
    let status = touchmove().args(["live", "--resume", dir.to_str().unwrap(), "--no-serve"]).stdout(Stdio::null()).status().unwrap();
    assert!(status.success());
    let recorded: Vec<String> = std::fs::read_to_string(dir.join("decisions.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["kind"] == "move")
        .map(|v| v["san"].as_str().unwrap().to_string())
        .collect();
    let played: Vec<String> = truth.iter().map(|(_, s)| s.clone()).collect();
    assert_eq!(recorded, played);
    let pgn = std::fs::read_to_string(dir.join("game.pgn")).unwrap();
    assert!(pgn.contains("1. d4") && pgn.contains("3... Bb4") && !pgn.contains("4."), "{pgn}");
}

#[test]
fn live_into_a_folder_that_holds_a_game_refuses_to_overwrite_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("events.jsonl"), "{\"t\":0.1,\"kind\":\"clock\",\"side\":\"white\"}\n").unwrap();
    let out = touchmove().args(["live", "--url", "/nonexistent/game.mp4", "--no-serve", "--out", dir.path().to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume"));
    assert!(std::fs::read_to_string(dir.path().join("events.jsonl")).unwrap().contains("clock"), "the game was overwritten");
}

#[test]
fn live_without_a_source_or_with_a_missing_one_fails_in_one_line() {
    let out = touchmove().args(["live", "--no-serve"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--camera") && err.trim().lines().count() == 1, "{err}");
    let out = touchmove().args(["live", "--url", "/nonexistent/game.mp4", "--no-serve", "--out", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tm-missing").to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/game.mp4") && err.trim().lines().count() == 1, "{err}");
    let out = touchmove().args(["live", "--camera", "7", "--no-serve", "--out", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tm-nocam").to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("camera 7") && err.trim().lines().count() == 1, "{err}");
    let out = touchmove().args(["live", "--resume", "/nonexistent/dir", "--no-serve"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("live.json"));
}

/// Chromium from the set-up script (Debian's `chromium`).
fn chromium(profile: &Path) -> Command {
    let found = ["chromium", "chromium-browser"].into_iter().find(|c| Command::new(c).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success()));
    let Some(bin) = found else { panic!("chromium is not installed: run scripts/setup.sh (make test does)") };
    let mut c = Command::new(bin);
    c.args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run"]).arg(format!("--user-data-dir={}", profile.display())).stderr(Stdio::null());
    c
}

#[test]
fn the_viewer_page_in_a_real_browser_shows_the_moves_and_the_alert_while_the_game_plays() {
    // A staged breach that vision reads right (1. e4 d5, then White touches the pawn d5 and
    // moves Nf3: 4.3.2), held still for a while after it so the game is still playing.
    let mut scene = touchmove::sim::scenes::staged_scene(touchmove::sim::scenes::Staged::Breach(touchmove::sim::breaches::BreachKind::TouchOpponent), 2);
    scene.acts.push(touchmove::sim::scene::Act::Wait { seconds: 12.0 });
    let work = tempfile::tempdir().unwrap();
    touchmove::sim::video::render_scene(&scene, &work.path().join("scene"), true, |_, _| {}).expect("renders");
    let video = work.path().join("scene/video.mp4");
    let _one_at_a_time = playing();
    let (mut child, addr) = start_live(&["--url", video.to_str().unwrap(), "--serve", "127.0.0.1:0", "--out", work.path().join("live").to_str().unwrap(), "--token", "op"]);
    let started = Instant::now();
    loop {
        let state: serde_json::Value = serde_json::from_str(&get(addr, "/state.json").1).unwrap_or_default();
        assert_ne!(state["ended"], true, "the game ended before the alert was seen: {state}");
        if state["alerts"].as_array().is_some_and(|a| !a.is_empty()) && state["moves"].as_array().is_some_and(|m| m.len() == 3) {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no alert within a minute: {state}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let dom = chromium(&work.path().join("chromium")).arg("--dump-dom").arg(format!("http://{addr}/?token=op")).output().expect("chromium runs");
    let dom = String::from_utf8_lossy(&dom.stdout);
    for san in ["e4", "d5", "Nf3"] {
        assert!(dom.contains(&format!(">{san}</span>")), "the page lacks the move {san}:\n{dom}");
    }
    assert!(dom.contains(r#"<span class="art">4.3.2</span>"#), "the page lacks the alert:\n{dom}");
    assert!(dom.contains(r#"data-verb="dismiss""#), "the operator's buttons are missing with the token");
    assert!(dom.contains("white to move") || dom.contains("black to move"), "whose turn is not shown");
    assert!(dom.contains(r#"last" data-square="f3""#) && dom.contains(r#"last" data-square="g1""#), "the last move is not marked");
    assert!(dom.contains(r#"class="d" data-square="a1""#) && dom.contains(r#"class="l" data-square="h1""#), "a1 must be dark, h1 light");
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewer.png");
    let _ = std::fs::remove_file(&shot);
    let ok = chromium(&work.path().join("chromium")).arg(format!("--screenshot={}", shot.display())).arg("--window-size=1100,900").arg(format!("http://{addr}/?token=op")).stdout(Stdio::null()).status().expect("chromium runs");
    assert!(ok.success());
    assert!(std::fs::metadata(&shot).is_ok_and(|m| m.len() > 10_000), "no screenshot at {}", shot.display());
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_stream_that_ends_is_reopened_and_its_time_goes_on() {
    use touchmove::pipeline::capture::{Capture, CaptureConfig, Captured};
    use touchmove::source::SourceSpec;
    // A real 52-frame clip opened as a stream: at its end the stream is "lost", then back.
    let clip = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real/video/play-chess-with-a-webcam/emptyBoard001.avi");
    let url = format!("file://{}", clip.canonicalize().expect("the clip").display());
    let capture = Capture::start(CaptureConfig { input: SourceSpec::Url(url), queue: 256, skip_until: None, retry: Duration::from_millis(10) }).expect("opens");
    let (mut times, mut indices, mut lost, mut back) = (Vec::new(), Vec::new(), 0, 0);
    while back == 0 || times.len() < 70 {
        match capture.frames.recv_timeout(Duration::from_secs(20)).expect("the stream goes on") {
            Captured::Frame(f) => {
                times.push(f.t);
                indices.push(f.index);
            }
            Captured::Lost(why) => {
                assert!(why.contains("ended"), "{why}");
                lost += 1;
            }
            Captured::Back => back += 1,
            Captured::Problem(p) => panic!("{p}"),
            Captured::End => panic!("a stream has no end"),
        }
    }
    assert!(lost >= 1 && back >= 1);
    assert!(times.windows(2).all(|w| w[1] > w[0]), "time went back across the reconnection");
    assert!(indices.windows(2).all(|w| w[1] > w[0]), "frame numbers went back across the reconnection");
}

#[test]
fn a_live_game_stopped_with_ctrl_c_is_ended_and_written_not_cut_off() {
    let (video, _) = rendered();
    let _one_at_a_time = playing();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("game");
    let child = live_until_moves(video, &dir, 2, Stdio::piped());
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "stopped with {:?}", output.status);
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(summary.contains("moves"), "no summary: {summary}");
    let pgn = std::fs::read_to_string(dir.join("game.pgn")).unwrap();
    assert!(pgn.contains("1. d4") && pgn.contains("Nf6") && pgn.trim_end().ends_with('*'), "{pgn}");
}

#[test]
fn a_board_not_in_view_at_first_is_looked_for_until_it_shows_and_never_found_fails_cleanly() {
    let (video, _) = rendered();
    let _one_at_a_time = playing();
    let work = tempfile::tempdir().unwrap();
    // One second of black, then the first two seconds of the game (the board, no move yet).
    let late = work.path().join("late.mp4");
    let made = Command::new("ffmpeg").args(["-loglevel", "error", "-y", "-t", "2", "-i", video.to_str().unwrap(), "-vf", "tpad=start_duration=1:color=black", "-c:v", "libx264", "-preset", "veryfast"]).arg(&late).status().expect("ffmpeg (scripts/setup.sh installs it)");
    assert!(made.success());
    let out = touchmove().args(["live", "--url", late.to_str().unwrap(), "--no-serve", "--out", work.path().join("a").to_str().unwrap()]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("looking again") && err.contains("the board is found"), "{err}");
    // Black throughout: the board never shows, and live says so in one line at the end.
    let black = work.path().join("black.mp4");
    let made = Command::new("ffmpeg").args(["-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=black:s=320x240:d=1", "-c:v", "libx264"]).arg(&black).status().unwrap();
    assert!(made.success());
    let out = touchmove().args(["live", "--url", black.to_str().unwrap(), "--no-serve", "--out", work.path().join("b").to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.lines().last().is_some_and(|l| l.contains("the board was never found") && l.contains("--calibration")), "{err}");
}
