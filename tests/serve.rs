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

/// Sends `bytes` as they are on a new connection, closes the sending side, and returns every answer that came back:
/// status and body, in order.
fn raw(server: &Server, bytes: &[u8]) -> Vec<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
    // The server may answer and close before reading all of a bad request: a failed write is not the test's.
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut received = Vec::new();
    let _ = stream.read_to_end(&mut received);
    answers(&received).unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&received)))
}

/// The answers in `bytes`, each checked: a status line, a Content-Length the body has, a JSON `error` in a 4xx or 5xx.
fn answers(mut bytes: &[u8]) -> Result<Vec<(u16, String)>, String> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let end = bytes.windows(4).position(|w| w == b"\r\n\r\n").ok_or("an answer without the end of its head")?;
        let head = std::str::from_utf8(&bytes[..end]).map_err(|_| "a head that is not UTF-8")?;
        let status: u16 = head
            .strip_prefix("HTTP/1.1 ")
            .and_then(|rest| rest.get(..3))
            .and_then(|s| s.parse().ok())
            .ok_or("no status line")?;
        if status == 100 {
            // `100 Continue` before the answer to a request that expected it: no body.
            bytes = &bytes[end + 4..];
            continue;
        }
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .and_then(|n| n.parse().ok())
            .ok_or("no Content-Length")?;
        let body = bytes.get(end + 4..end + 4 + length).ok_or("a body shorter than its Content-Length")?;
        let body = String::from_utf8(body.to_vec()).map_err(|_| "a body that is not UTF-8")?;
        if status >= 400 && !(body.starts_with("{\"error\":\"") && body.ends_with("\"}")) {
            return Err(format!("a {status} without an error: {body}"));
        }
        out.push((status, body));
        bytes = &bytes[end + 4 + length..];
    }
    Ok(out)
}

/// A request with its Content-Length.
fn http(method: &str, path: &str, body: &str) -> Vec<u8> {
    format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[test]
fn every_malformed_request_gets_an_http_answer_that_says_what_is_wrong() {
    let server = start();
    let (_, body) = request(&server, "POST", "/api/games", "{}");
    let id = field(&body, "id").expect("id");
    let chunked = |chunks: &[u8]| {
        let mut bytes = b"POST /api/games HTTP/1.1
Transfer-Encoding: chunked

"
        .to_vec();
        bytes.extend(chunks);
        bytes
    };
    let opening = format!("/api/games/{id}/opening");
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        // The issue's three: a raw byte above 127 in the target, a number for "side", a malformed chunked body.
        (b"GET /api/games/\xE9 HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(), 400, "target is not UTF-8"),
        (http("POST", &opening, r#"{"rule":"rif","side":1,"ms":5}"#), 400, "\\\"side\\\" must be a string"),
        (chunked(b"zz\r\n{}\r\n0\r\n\r\n"), 400, "body is malformed"),
        (chunked(b"2\r\n{}"), 400, "body is malformed"),
        (chunked(b"2\r\n\xff\xfe\r\n0\r\n\r\n"), 400, "body is not UTF-8"),
        (http("POST", "/api/games", "{\"rule\":\"re\u{0}"), 400, "malformed JSON"),
        (http("POST", "/api/games", "[]"), 400, "JSON object"),
        (http("POST", &format!("/api/games/{id}/play"), r#"{"move":true}"#), 400, "\\\"move\\\" must be a string"),
        (b"GET / HTTP/1.1\r\nHost\r\n\r\n".to_vec(), 400, "no colon"),
        (b"GET / HTTP/2.0\r\n\r\n".to_vec(), 505, "HTTP/1.1"),
        (b"\x00\x01\x02\r\n\r\n".to_vec(), 400, "request line"),
        (b"GET /".to_vec(), 400, "ends within its first line"),
        (b"POST /api/games HTTP/1.1\r\nContent-Length: 10\r\n\r\n{}".to_vec(), 400, "ends before"),
        (b"POST /api/games HTTP/1.1\r\nContent-Length: 9999999\r\n\r\n{}".to_vec(), 413, "too large"),
        (format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(20_000)).into_bytes(), 431, "too long"),
        (http("GET", "/api/games/%E9", ""), 404, "no game '%E9'"),
        (http("PUT", "/", ""), 405, "not allowed"),
    ];
    for (bytes, status, needle) in cases {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(100)]).into_owned();
        let got = raw(&server, &bytes);
        assert_eq!(got.len(), 1, "{shown:?}: {got:?}");
        assert_eq!(got[0].0, status, "{shown:?}: {got:?}");
        assert!(got[0].1.contains(needle), "{shown:?}: {got:?}");
    }
    // Two requests on one connection are both answered; the game was never changed by the bad ones.
    let mut two = http("GET", &format!("/api/games/{id}/moves"), "");
    two.extend(http("GET", &format!("/api/games/{id}"), ""));
    let got = raw(&server, &two);
    assert_eq!(got.iter().map(|a| a.0).collect::<Vec<_>>(), [200, 200], "{got:?}");
    assert!(got[1].1.contains("\"moves\":[]") && got[1].1.contains("\"opening\":null"), "{got:?}");
}

#[test]
fn mangled_requests_each_get_an_answer_and_the_server_goes_on() {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let requests = std::env::var("FUZZ_SESSIONS").ok().and_then(|v| v.parse::<u64>().ok()).unwrap_or(16) * 20;
    let seed = std::env::var("FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x7e46_e095_u64);
    let server = start();
    let (_, body) = request(&server, "POST", "/api/games", "{}");
    let id = field(&body, "id").expect("id");
    let game = |rest: &str| format!("/api/games/{id}{rest}");
    let mut templates = vec![
        http("POST", "/api/games", r#"{"rule":"renju","size":15}"#),
        http("GET", &game(""), ""),
        http("POST", &game("/play"), r#"{"move":"h8"}"#),
        http("POST", &game("/undo"), ""),
        http("POST", &game("/goto"), r#"{"ply":0}"#),
        http("POST", &game("/load"), r#"{"moves":"h8 h9 j10","rule":"renju"}"#),
        http("GET", &game("/sgf"), ""),
        http("POST", &game("/tree/comment"), r#"{"title":"é","body":"x"}"#),
        http("GET", "/", ""),
    ];
    templates.push(
        format!("POST {} HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n4\r\n{{\"mo\r\nd\r\nve\":\"a1\"}}   \r\n0\r\n\r\n", game("/play"))
            .into_bytes(),
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let mut statuses = std::collections::BTreeMap::new();
    for i in 0..requests {
        let mut bytes = templates[rng.random_range(0..templates.len())].clone();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..=bytes.len());
            match rng.random_range(0..6) {
                0 if at < bytes.len() => bytes[at] ^= 1 << rng.random_range(0..8),
                1 => bytes.truncate(at),
                2 => bytes.insert(at, rng.random()),
                3 if at < bytes.len() => drop(bytes.remove(at)),
                4 => bytes.splice(at..at, *b"\r\n").for_each(drop),
                _ => {
                    let some = b"0123456789:-\xe9 ";
                    bytes.insert(at, some[rng.random_range(0..some.len())]);
                }
            }
        }
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned();
        let got = raw(&server, &bytes);
        // Nothing comes back only when nothing but line ends was sent.
        let blank = bytes.iter().all(|b| matches!(b, b'\r' | b'\n'));
        assert!(!got.is_empty() || blank, "seed {seed}, request {i}: no answer to {shown:?}");
        for (status, _) in got {
            *statuses.entry(status).or_insert(0) += 1;
        }
    }
    eprintln!("{requests} mangled requests from seed {seed}: answers by status {statuses:?}");
    assert_eq!(request(&server, "GET", &game(""), "").0, 200, "the server goes on");
    assert!(statuses.keys().any(|&s| s == 200) && statuses.keys().any(|&s| s == 400), "{statuses:?}");
}
