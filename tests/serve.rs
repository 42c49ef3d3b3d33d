//! `pbrain-tengen serve` over real HTTP: the binary listens on a free port, a game is played, the engine answers,
//! the analysis finds a best move, the threats are listed, and bad requests get a 4xx while the server goes on.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

/// The server process, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    let mut child = Command::new(BIN)
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let port = line.trim().trim_end_matches('/').rsplit(':').next().and_then(|p| p.parse().ok());
    let port = port.unwrap_or_else(|| panic!("no port in {line:?}"));
    Server { child, port }
}

/// One request; returns the status and the body.
fn request(server: &Server, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let status = response.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// The value of a top-level JSON string field (enough for these answers).
fn field(body: &str, name: &str) -> Option<String> {
    let start = body.find(&format!("\"{name}\":\""))? + name.len() + 4;
    Some(body[start..].split('"').next()?.to_string())
}

#[test]
fn a_game_is_played_analysed_and_bad_requests_are_refused() {
    let server = start();
    let (status, page) = request(&server, "GET", "/", "");
    assert!(status == 200 && page.contains("<svg id=\"board\""), "{status}");
    let (status, body) = request(&server, "POST", "/api/games", r#"{"rule":"renju","size":15}"#);
    assert_eq!(status, 200, "{body}");
    let id = field(&body, "id").expect("id");
    let game = |rest: &str| format!("/api/games/{id}{rest}");
    // The person plays h8, the engine answers.
    assert_eq!(request(&server, "POST", &game("/play"), r#"{"move":"h8"}"#).0, 200);
    let (status, body) = request(&server, "POST", &game("/engine"), r#"{"ms":200}"#);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"moves\":[\"H8\",\""), "{body}");
    // The page shows the verdict as a player reads it: Black's win rate, or who wins in how many moves.
    let verdict = field(&body, "verdict").expect("a verdict");
    let rate = verdict.strip_prefix("Black ").and_then(|t| t.strip_suffix('%')).and_then(|n| n.parse::<u32>().ok());
    assert!(rate.is_some_and(|r| r <= 100) || verdict.contains(" wins in "), "{verdict}");
    // Bad requests: each a 4xx with a message; the game is unchanged.
    for (method, path, body, expected) in [
        ("POST", game("/play"), "{\"move\":", 400),
        ("POST", game("/play"), r#"{"move":"h8"}"#, 409),
        ("POST", game("/play"), r#"{"move":"q99"}"#, 400),
        ("POST", "/api/games".to_string(), r#"{"rule":"go"}"#, 400),
        ("GET", "/api/games/0000/threats".to_string(), "", 404),
        ("POST", game("/goto"), r#"{"ply":-1}"#, 400),
    ] {
        let (status, answer) = request(&server, method, &path, body);
        assert_eq!(status, expected, "{method} {path} {body}: {answer}");
        assert!(answer.contains("\"error\""), "{answer}");
    }
    let (_, state) = request(&server, "GET", &game(""), "");
    assert!(state.contains("\"toMove\":\"black\""), "{state}");
    // Threats and analysis.
    let (status, threats) = request(&server, "GET", &game("/threats"), "");
    assert!(status == 200 && threats.contains("\"black\"") && threats.contains("\"three\""), "{threats}");
    assert_eq!(request(&server, "POST", &game("/analysis"), "").0, 200);
    let started = Instant::now();
    let best = loop {
        let (_, analysis) = request(&server, "GET", &game("/analysis"), "");
        if let Some(best) = field(&analysis, "best") {
            break best;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "no best move: {analysis}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(best.len() >= 2, "{best}");
    assert_eq!(request(&server, "DELETE", &game("/analysis"), "").0, 200);
    // A second game (another tab) is separate.
    let (_, other) = request(&server, "POST", "/api/games", r#"{"rule":"freestyle"}"#);
    let other_id = field(&other, "id").expect("id");
    assert_ne!(other_id, id);
    let (_, other_state) = request(&server, "GET", &format!("/api/games/{other_id}"), "");
    assert!(other_state.contains("\"moves\":[]"), "{other_state}");
    // The SGF comes back.
    let (status, sgf) = request(&server, "GET", &game("/sgf"), "");
    assert!(status == 200 && sgf.starts_with("(;FF[4]GM[4]") && sgf.contains(";B[hh]"), "{sgf}");
}
