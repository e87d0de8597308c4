//! The live server (`touchmove live --serve ADDR`): the game for a broadcast and the arbiter,
//! as it is made.
//!
//! - `GET /game.pgn` — the game so far, main line only, for a platform that polls a PGN URL;
//! - `GET /events` — server-sent events: every decision (`event: decision`, `id:` its number,
//!   data its JSON line with `"id"` added), source notices (`event: source`) and the end;
//!   a client that reconnects with `Last-Event-ID` gets what it missed;
//! - `GET /` — the viewer page; `GET /state.json` — what it shows; `GET /snapshots/alert-N.jpg`
//!   — the frame where alert N happened;
//! - `POST /undo`, `POST /fen` (`{"fen": …}`), `POST /adjust` (`{"side": "white"}`),
//!   `POST /alerts/N/dismiss`, `POST /alerts/N/confirm` — the operator's corrections, each
//!   with the token printed at start (`Authorization: Bearer TOKEN` or `?token=TOKEN`).
//!
//! A malformed, oversized or unauthorised request gets a 4xx with a one-line reason; nothing a
//! client sends can stop the server. The server only reads the [`Feed`] the pipeline fills and
//! passes corrections on as [`OperatorRequest`]s; it never touches the game itself.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use crossbeam_channel::{Receiver, Sender};
use tiny_http::{Header, Method, Request, Response, StatusCode};

use crate::types::{Correction, Side};

/// The largest request body accepted (a FEN is under 100 bytes).
pub const MAX_BODY: usize = 16 * 1024;
/// The longest request target accepted.
pub const MAX_URL: usize = 2048;
/// Event-stream clients served at once.
pub const MAX_STREAMS: usize = 64;
/// Requests (streams included) handled at once; beyond, a 503 and no thread.
pub const MAX_REQUESTS: usize = MAX_STREAMS + 64;
/// How long a correction waits for the pipeline before the server gives up on it.
const REPLY_WAIT: Duration = Duration::from_secs(5);
/// An event stream with nothing to say sends a comment this often (and so finds a client gone).
const KEEPALIVE: Duration = Duration::from_secs(10);

const VIEWER: &str = include_str!("viewer.html");

/// The pipeline's answer to a correction.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Done(serde_json::Value),
    BadRequest(String),
    Conflict(String),
}

/// A correction from the operator, with where to send the answer.
pub struct OperatorRequest {
    pub correction: Correction,
    pub reply: Sender<Reply>,
}

#[derive(Default)]
struct FeedState {
    pgn: String,
    state: serde_json::Value,
    source: serde_json::Value,
    /// Every message sent so far, with its decision number where it is one.
    backlog: Vec<(Option<u64>, String)>,
    streams: Vec<Sender<String>>,
    ended: bool,
}

/// What the server shows, filled by the pipeline as the game goes.
#[derive(Default)]
pub struct Feed {
    inner: Mutex<FeedState>,
}

impl Feed {
    pub fn new() -> Arc<Feed> {
        Arc::new(Feed::default())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FeedState> {
        // A panicking holder leaves plain data behind: still fit to serve.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game's PGN and the page's state, as they stand now.
    pub fn set_game(&self, pgn: String, state: serde_json::Value) {
        let mut f = self.lock();
        f.pgn = pgn;
        f.state = state;
    }

    /// A decision (its JSON line with `"id"`), sent to every stream.
    pub fn decision(&self, id: u64, json: &str) {
        self.send(Some(id), format!("id: {id}\nevent: decision\ndata: {json}\n\n"));
    }

    /// The source's condition (`{"status": "playing"|"lost"|…, …}`), shown on the page and sent.
    pub fn source(&self, json: serde_json::Value) {
        let text = json.to_string();
        self.lock().source = json;
        self.send(None, format!("event: source\ndata: {text}\n\n"));
    }

    /// The game is over: streams get `event: end` and are closed.
    pub fn end(&self) {
        self.send(None, "event: end\ndata: {}\n\n".into());
        let mut f = self.lock();
        f.ended = true;
        f.streams.clear();
    }

    fn send(&self, id: Option<u64>, message: String) {
        let mut f = self.lock();
        f.streams.retain(|s| s.send(message.clone()).is_ok());
        f.backlog.push((id, message));
    }

    /// The messages after decision `after` (all, without it), and a receiver for the rest.
    fn subscribe(&self, after: Option<u64>) -> (Vec<String>, Option<Receiver<String>>) {
        let mut f = self.lock();
        let start = match after {
            Some(n) => f.backlog.iter().position(|(id, _)| id.is_some_and(|id| id > n)).unwrap_or(f.backlog.len()),
            None => 0,
        };
        let past = f.backlog[start..].iter().map(|(_, m)| m.clone()).collect();
        if f.ended {
            return (past, None);
        }
        let (tx, rx) = crossbeam_channel::unbounded();
        f.streams.push(tx);
        (past, Some(rx))
    }

    fn state_json(&self) -> String {
        let f = self.lock();
        let mut state = f.state.clone();
        if let Some(o) = state.as_object_mut() {
            o.insert("source".into(), f.source.clone());
            o.insert("ended".into(), f.ended.into());
        }
        state.to_string()
    }
}

/// A running server; dropping it stops it.
pub struct Server {
    addr: SocketAddr,
    http: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    feed: Arc<Feed>,
    token: String,
    commands: Sender<OperatorRequest>,
    snapshots: PathBuf,
    streams: AtomicUsize,
    requests: AtomicUsize,
}

impl Server {
    /// Listens on `addr` (port 0: any free port; [`Server::addr`] says which).
    pub fn start(addr: &str, token: String, feed: Arc<Feed>, commands: Sender<OperatorRequest>, snapshots: PathBuf) -> Result<Server> {
        let http = tiny_http::Server::http(addr).map_err(|e| anyhow!("{addr}: cannot listen there ({e}); give another --serve address"))?;
        let addr = http.server_addr().to_ip().context("the server is not on an IP address")?;
        let http = Arc::new(http);
        let shared = Arc::new(Shared { feed, token, commands, snapshots, streams: AtomicUsize::new(0), requests: AtomicUsize::new(0) });
        let listener = http.clone();
        let thread = std::thread::Builder::new().name("serve".into()).spawn(move || {
            for request in listener.incoming_requests() {
                if shared.requests.fetch_add(1, Ordering::SeqCst) >= MAX_REQUESTS {
                    shared.requests.fetch_sub(1, Ordering::SeqCst);
                    let _ = request.respond(text(503, "too many requests at once: try again"));
                    continue;
                }
                let shared = shared.clone();
                // One thread a request: a correction waits for the pipeline, a stream stays open.
                let spawned = std::thread::Builder::new().name("request".into()).spawn({
                    let shared = shared.clone();
                    move || {
                        handle(request, &shared);
                        shared.requests.fetch_sub(1, Ordering::SeqCst);
                    }
                });
                if spawned.is_err() {
                    shared.requests.fetch_sub(1, Ordering::SeqCst);
                }
            }
        })?;
        Ok(Server { addr, http, thread: Some(thread) })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.http.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A fresh operator token: 128 bits from the system's random source.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    let ok = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes)).is_ok();
    if !ok {
        // No /dev/urandom: the standard library's per-process random keys, twice.
        use std::hash::{BuildHasher, RandomState};
        let a = RandomState::new().hash_one(std::time::SystemTime::now());
        let b = RandomState::new().hash_one(std::process::id());
        bytes[..8].copy_from_slice(&a.to_le_bytes());
        bytes[8..].copy_from_slice(&b.to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

fn text(status: u16, body: impl Into<String>) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut body = body.into();
    if !body.ends_with('\n') {
        body.push('\n');
    }
    Response::from_string(body).with_status_code(StatusCode(status)).with_header(header("Content-Type", "text/plain; charset=utf-8"))
}

fn json(status: u16, body: String) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(body).with_status_code(StatusCode(status)).with_header(header("Content-Type", "application/json"))
}

fn handle(request: Request, shared: &Shared) {
    if request.url().len() > MAX_URL {
        let _ = request.respond(text(414, "the request target is too long"));
        return;
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let path = path.to_string();
    match (request.method(), path.as_str()) {
        (Method::Get, "/events") => stream(request, shared),
        (Method::Get | Method::Head, _) => {
            let response = get(&path, shared);
            let _ = request.respond(response);
        }
        (Method::Post, _) => {
            let token = query.split('&').find_map(|kv| kv.strip_prefix("token=")).map(str::to_string);
            post(request, &path, token, shared);
        }
        (Method::Options, _) => {
            let _ = request.respond(text(204, "").with_header(header("Allow", "GET, HEAD, POST, OPTIONS")));
        }
        _ => {
            let _ = request.respond(text(405, "only GET and POST are served here").with_header(header("Allow", "GET, HEAD, POST, OPTIONS")));
        }
    }
}

fn get(path: &str, shared: &Shared) -> Response<std::io::Cursor<Vec<u8>>> {
    match path {
        "/" | "/index.html" => {
            // The state as it stands goes in the page, so it shows the game at once (and in a
            // browser that runs no script after load); the event stream keeps it current.
            let state = shared.feed.state_json().replace("</", "<\\/");
            Response::from_string(VIEWER.replacen("/*STATE*/null", &state, 1)).with_header(header("Content-Type", "text/html; charset=utf-8"))
        }
        "/game.pgn" => {
            let pgn = shared.feed.lock().pgn.clone();
            Response::from_string(pgn)
                .with_header(header("Content-Type", "application/x-chess-pgn; charset=utf-8"))
                .with_header(header("Access-Control-Allow-Origin", "*"))
                .with_header(header("Cache-Control", "no-cache"))
        }
        "/state.json" => json(200, shared.feed.state_json()).with_header(header("Cache-Control", "no-cache")),
        _ => match path.strip_prefix("/snapshots/").filter(|n| is_snapshot_name(n)) {
            Some(name) => match std::fs::read(shared.snapshots.join(name)) {
                Ok(bytes) => Response::from_data(bytes).with_header(header("Content-Type", "image/jpeg")),
                Err(_) => text(404, format!("{path}: no such snapshot")),
            },
            None => text(404, format!("{path}: not found (try /, /game.pgn, /events or /state.json)")),
        },
    }
}

/// `alert-N.jpg` and nothing else: no path leaves the snapshots folder.
fn is_snapshot_name(name: &str) -> bool {
    name.strip_prefix("alert-").and_then(|r| r.strip_suffix(".jpg")).is_some_and(|n| !n.is_empty() && n.len() < 20 && n.bytes().all(|b| b.is_ascii_digit()))
}

fn stream(request: Request, shared: &Shared) {
    if shared.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        shared.streams.fetch_sub(1, Ordering::SeqCst);
        let _ = request.respond(text(503, "too many event streams open"));
        return;
    }
    let after = request.headers().iter().find(|h| h.field.equiv("Last-Event-ID")).and_then(|h| h.value.as_str().trim().parse::<u64>().ok());
    let (past, live) = shared.feed.subscribe(after);
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\nAccess-Control-Allow-Origin: *\r\n\r\n";
    let mut ok = out.write_all(head.as_bytes()).is_ok();
    for m in past {
        ok = ok && out.write_all(m.as_bytes()).is_ok();
    }
    ok = ok && out.flush().is_ok();
    if let Some(rx) = live {
        while ok {
            match rx.recv_timeout(KEEPALIVE) {
                Ok(m) => ok = out.write_all(m.as_bytes()).is_ok() && out.flush().is_ok(),
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => ok = out.write_all(b": keep-alive\n\n").is_ok() && out.flush().is_ok(),
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            }
        }
    }
    shared.streams.fetch_sub(1, Ordering::SeqCst);
}

fn post(mut request: Request, path: &str, query_token: Option<String>, shared: &Shared) {
    let bearer = request.headers().iter().find(|h| h.field.equiv("Authorization")).and_then(|h| h.value.as_str().strip_prefix("Bearer ").map(|t| t.trim().to_string()));
    let given = bearer.or(query_token);
    if !given.is_some_and(|t| constant_time_eq(t.as_bytes(), shared.token.as_bytes())) {
        let _ = request.respond(text(401, "a correction needs the operator token printed at start (Authorization: Bearer TOKEN)"));
        return;
    }
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        let _ = request.respond(text(413, format!("the body is over {MAX_BODY} bytes")));
        return;
    }
    let mut body = Vec::new();
    // A body sent without a length (chunked) is read up to the limit and no further.
    if request.as_reader().take(MAX_BODY as u64 + 1).read_to_end(&mut body).is_err() {
        let _ = request.respond(text(400, "the body could not be read"));
        return;
    }
    if body.len() > MAX_BODY {
        let _ = request.respond(text(413, format!("the body is over {MAX_BODY} bytes")));
        return;
    }
    let correction = match correction(path, &body) {
        Ok(c) => c,
        Err((status, why)) => {
            let _ = request.respond(text(status, why));
            return;
        }
    };
    let (tx, rx) = crossbeam_channel::bounded(1);
    if shared.commands.send(OperatorRequest { correction, reply: tx }).is_err() {
        let _ = request.respond(text(503, "the game is over: no correction can be made"));
        return;
    }
    let response = match rx.recv_timeout(REPLY_WAIT) {
        Ok(Reply::Done(v)) => json(200, v.to_string()),
        Ok(Reply::BadRequest(why)) => text(400, why),
        Ok(Reply::Conflict(why)) => text(409, why),
        Err(_) => text(503, "the game did not answer in time: try again"),
    };
    let _ = request.respond(response);
}

/// The correction a `POST` asks for, or the status and reason to refuse it.
fn correction(path: &str, body: &[u8]) -> Result<Correction, (u16, String)> {
    let field = |name: &str| -> Result<String, (u16, String)> {
        let v: serde_json::Value = serde_json::from_slice(body).map_err(|e| (400, format!("the body is not JSON: {e}")))?;
        v.get(name).and_then(|f| f.as_str()).map(str::to_string).ok_or((400, format!("the body needs a \"{name}\" text field")))
    };
    match path {
        "/undo" => Ok(Correction::Undo),
        "/fen" => Ok(Correction::SetFen { fen: field("fen")? }),
        "/adjust" => match field("side")?.as_str() {
            "white" => Ok(Correction::Adjust { side: Side::White }),
            "black" => Ok(Correction::Adjust { side: Side::Black }),
            other => Err((400, format!("\"{other}\" is not a side (white or black)"))),
        },
        _ => {
            let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
            match parts.as_slice() {
                ["alerts", n, verb] => {
                    let alert = n.parse::<u64>().map_err(|_| (400, format!("\"{n}\" is not an alert number")))?;
                    match *verb {
                        "dismiss" => Ok(Correction::Dismiss { alert }),
                        "confirm" => Ok(Correction::Confirm { alert }),
                        _ => Err((404, format!("{path}: an alert can be dismissed or confirmed"))),
                    }
                }
                _ => Err((404, format!("{path}: no such correction (undo, fen, adjust, alerts/N/dismiss, alerts/N/confirm)"))),
            }
        }
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_are_read_from_path_and_body() {
        assert_eq!(correction("/undo", b""), Ok(Correction::Undo));
        assert_eq!(correction("/fen", br#"{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1"}"#), Ok(Correction::SetFen { fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into() }));
        assert_eq!(correction("/adjust", br#"{"side":"black"}"#), Ok(Correction::Adjust { side: Side::Black }));
        assert_eq!(correction("/alerts/3/dismiss", b""), Ok(Correction::Dismiss { alert: 3 }));
        assert_eq!(correction("/alerts/3/confirm", b""), Ok(Correction::Confirm { alert: 3 }));
        assert_eq!(correction("/fen", b"{not json").unwrap_err().0, 400);
        assert_eq!(correction("/adjust", br#"{"side":"green"}"#).unwrap_err().0, 400);
        assert_eq!(correction("/alerts/x/dismiss", b"").unwrap_err().0, 400);
        assert_eq!(correction("/alerts/3/frobnicate", b"").unwrap_err().0, 404);
        assert_eq!(correction("/reboot", b"").unwrap_err().0, 404);
    }

    #[test]
    fn only_plain_snapshot_names_are_served() {
        assert!(is_snapshot_name("alert-12.jpg"));
        for bad in ["alert-.jpg", "../game.pgn", "alert-1.jpg/../../x", "alert-1a.jpg", "x-1.jpg", "alert-99999999999999999999999.jpg"] {
            assert!(!is_snapshot_name(bad), "{bad}");
        }
    }

    #[test]
    fn tokens_are_new_each_time_and_compared_whole() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(constant_time_eq(a.as_bytes(), a.as_bytes()));
        assert!(!constant_time_eq(a.as_bytes(), &a.as_bytes()[..31]));
    }

    #[test]
    fn a_stream_opened_late_gets_what_it_missed_after_its_last_id() {
        let feed = Feed::new();
        feed.decision(0, "{\"id\":0}");
        feed.source(serde_json::json!({"status": "playing"}));
        feed.decision(1, "{\"id\":1}");
        let (all, _) = feed.subscribe(None);
        assert_eq!(all.len(), 3);
        let (missed, rx) = feed.subscribe(Some(0));
        assert_eq!(missed, ["id: 1\nevent: decision\ndata: {\"id\":1}\n\n"]);
        feed.decision(2, "{\"id\":2}");
        assert!(rx.expect("open").try_recv().expect("sent").starts_with("id: 2\n"));
        feed.end();
        let (_, after_end) = feed.subscribe(Some(2));
        assert!(after_end.is_none());
    }
}
