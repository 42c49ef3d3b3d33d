//! HTTP/1.1 for the board server, read from the raw bytes so that every request gets an HTTP answer: a request
//! line or header that cannot be read, a target that is not UTF-8, a body that is malformed or too large is a 4xx
//! with `{"error": …}` (and the connection closes, since where the next request starts is unknown), never a
//! connection dropped without a word. Persistent connections, `Content-Length` and chunked bodies, and
//! `Expect: 100-continue` are what browsers, curl and scripts use; nothing else of HTTP is needed here.
//! (tiny_http, used before, closed the connection on a request line with a byte above 127.)

use super::Refused;
use std::io::{self, BufRead, Read, Write};

/// The largest request line and headers together.
pub const MAX_HEAD: usize = 16 << 10;
/// The largest request body.
pub const MAX_BODY: usize = 1 << 20;
/// The longest line of a chunked body's framing (a chunk size and its extensions, a trailer).
const MAX_CHUNK_LINE: usize = 1 << 10;

/// One request read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The method, as sent (`GET`, `POST`, …).
    pub method: String,
    /// The request target (`/api/games/…`), as sent.
    pub target: String,
    /// The body.
    pub body: String,
    /// Whether the client keeps the connection for another request.
    pub keep_alive: bool,
}

/// What reading from a connection gave.
#[derive(Debug)]
pub enum Incoming {
    /// A request to answer.
    Request(Request),
    /// A request that cannot be read: answer this, then close.
    Refused(Refused),
    /// The client closed the connection (or went quiet) between requests.
    Closed,
}

/// Reads the next request from `reader`; a `100 Continue` goes to `writer` when the client waits for one.
pub fn read_request(reader: &mut impl BufRead, writer: &mut impl Write) -> Incoming {
    let mut budget = MAX_HEAD;
    // Empty lines before a request line are passed over (RFC 9112, 2.2).
    let line = loop {
        match read_line(reader, &mut budget) {
            Ok(Some(line)) if line.is_empty() => {}
            Ok(Some(line)) => break line,
            Ok(None) | Err(Line::Io) => return Incoming::Closed,
            Err(Line::Cut) => return Incoming::Refused(Refused::new(400, "the request ends within its first line")),
            Err(Line::TooLong) => return Incoming::Refused(Refused::new(431, "the request head is too long")),
        }
    };
    match read_rest(reader, writer, &line, &mut budget) {
        Ok(request) => Incoming::Request(request),
        Err(refused) => Incoming::Refused(refused),
    }
}

/// The request after its request line.
fn read_rest(
    reader: &mut impl BufRead,
    writer: &mut impl Write,
    line: &[u8],
    budget: &mut usize,
) -> Result<Request, Refused> {
    let bad = |message: &str| Refused::new(400, message);
    let words: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    let [method, target, version] = words[..] else {
        return Err(bad("the request line is not METHOD TARGET HTTP/1.1"));
    };
    if method.is_empty() || !method.iter().all(|b| b.is_ascii_alphabetic()) {
        return Err(bad("the request line's method is not a word"));
    }
    let target = std::str::from_utf8(target).map_err(|_| bad("the request target is not UTF-8"))?;
    if !target.starts_with('/') || target.chars().any(char::is_control) {
        return Err(bad("the request target is not a path"));
    }
    let http10 = match version {
        b"HTTP/1.1" => false,
        b"HTTP/1.0" => true,
        _ if version.starts_with(b"HTTP/") => return Err(Refused::new(505, "only HTTP/1.0 and HTTP/1.1 are spoken")),
        _ => return Err(bad("the request line does not end in HTTP/1.1")),
    };
    let head = read_headers(reader, budget)?;
    let keep_alive = match head.connection.as_deref() {
        Some(c) if c.contains("close") => false,
        Some(c) if c.contains("keep-alive") => true,
        _ => !http10,
    };
    if head.chunked || head.length.is_some_and(|n| n > 0) {
        if head.length.is_some_and(|n| n > MAX_BODY as u64) {
            return Err(Refused::new(413, "the body is too large"));
        }
        if head.continue_expected {
            let _ = writer.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").and_then(|()| writer.flush());
        }
    }
    let body = if head.chunked { read_chunked(reader)? } else { read_length(reader, head.length.unwrap_or(0))? };
    let body = String::from_utf8(body).map_err(|_| bad("the body is not UTF-8"))?;
    let method = String::from_utf8_lossy(method).into_owned();
    // A body framed by both lengths may be read differently by a proxy: the connection ends after it.
    let keep_alive = keep_alive && !(head.chunked && head.length.is_some());
    Ok(Request { method, target: target.to_string(), body, keep_alive })
}

/// What the headers say about the body and the connection.
#[derive(Default)]
struct Head {
    length: Option<u64>,
    chunked: bool,
    connection: Option<String>,
    continue_expected: bool,
}

fn read_headers(reader: &mut impl BufRead, budget: &mut usize) -> Result<Head, Refused> {
    let mut head = Head::default();
    loop {
        let line = match read_line(reader, budget) {
            Ok(Some(line)) => line,
            Ok(None) | Err(Line::Io | Line::Cut) => {
                return Err(Refused::new(400, "the request ends within its headers"));
            }
            Err(Line::TooLong) => return Err(Refused::new(431, "the request head is too long")),
        };
        if line.is_empty() {
            return Ok(head);
        }
        // Header values may hold any byte above 127 (obs-text); the ones read here are ASCII when well formed.
        let line = String::from_utf8_lossy(&line);
        let Some((name, value)) = line.split_once(':') else {
            return Err(Refused::new(400, format!("the header line '{line}' has no colon")));
        };
        if name.is_empty() || name.ends_with([' ', '\t']) {
            return Err(Refused::new(400, format!("the header name '{name}' is malformed")));
        }
        let value = value.trim_matches([' ', '\t']).to_ascii_lowercase();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => {
                let n = value.parse::<u64>().ok().filter(|_| value.bytes().all(|b| b.is_ascii_digit()));
                let Some(n) = n.filter(|n| head.length.is_none_or(|m| m == *n)) else {
                    return Err(Refused::new(400, format!("Content-Length '{value}' is not one number")));
                };
                head.length = Some(n);
            }
            "transfer-encoding" => match value.as_str() {
                "chunked" => head.chunked = true,
                "identity" => {}
                _ => return Err(Refused::new(501, format!("transfer coding '{value}' is not supported"))),
            },
            "connection" => head.connection = Some(value),
            "expect" if value == "100-continue" => head.continue_expected = true,
            "expect" => return Err(Refused::new(417, format!("cannot meet the expectation '{value}'"))),
            _ => {}
        }
    }
}

/// A body of `length` bytes.
fn read_length(reader: &mut impl BufRead, length: u64) -> Result<Vec<u8>, Refused> {
    let mut body = Vec::new();
    match reader.take(length).read_to_end(&mut body) {
        Ok(n) if n as u64 == length => Ok(body),
        _ => Err(Refused::new(400, format!("the body ends before its Content-Length ({length} bytes)"))),
    }
}

/// A chunked body, its chunks joined.
fn read_chunked(reader: &mut impl BufRead) -> Result<Vec<u8>, Refused> {
    let malformed = |why: &str| Refused::new(400, format!("the body is malformed: {why}"));
    let mut body = Vec::new();
    loop {
        let mut budget = MAX_CHUNK_LINE;
        let line = match read_line(reader, &mut budget) {
            Ok(Some(line)) => line,
            _ => return Err(malformed("a chunk size is missing")),
        };
        let size = line.split(|&b| b == b';').next().unwrap_or_default();
        let size = std::str::from_utf8(size).ok().map(|s| s.trim_matches([' ', '\t']));
        let Some(size) = size.filter(|s| !s.is_empty()).and_then(|s| usize::from_str_radix(s, 16).ok()) else {
            return Err(malformed("a chunk size is not a hexadecimal number"));
        };
        if size == 0 {
            // Trailers, up to the empty line.
            loop {
                let mut budget = MAX_CHUNK_LINE;
                match read_line(reader, &mut budget) {
                    Ok(Some(line)) if line.is_empty() => return Ok(body),
                    Ok(Some(_)) => {}
                    _ => return Err(malformed("the last chunk's empty line is missing")),
                }
            }
        }
        if body.len().saturating_add(size) > MAX_BODY {
            return Err(Refused::new(413, "the body is too large"));
        }
        let start = body.len();
        match reader.take(size as u64).read_to_end(&mut body) {
            Ok(n) if n == size => {}
            _ => return Err(malformed("a chunk is shorter than its size")),
        }
        let mut budget = 2;
        if !matches!(read_line(reader, &mut budget), Ok(Some(end)) if end.is_empty()) {
            body.truncate(start);
            return Err(malformed("a chunk does not end where its size says"));
        }
    }
}

/// Why a line could not be read.
enum Line {
    /// Longer than what was left of the budget.
    TooLong,
    /// The input ended within the line.
    Cut,
    /// The connection failed (or timed out).
    Io,
}

/// One line without its CRLF (or bare LF), taking its length from `budget`; `None` at the end of input.
fn read_line(reader: &mut impl BufRead, budget: &mut usize) -> Result<Option<Vec<u8>>, Line> {
    let mut line = Vec::new();
    let limit = *budget as u64 + 2;
    match reader.take(limit).read_until(b'\n', &mut line) {
        Ok(0) => return Ok(None),
        Ok(_) => {}
        Err(_) => return Err(Line::Io),
    }
    if line.last() != Some(&b'\n') {
        return if line.len() as u64 >= limit { Err(Line::TooLong) } else { Err(Line::Cut) };
    }
    line.pop();
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    *budget = budget.checked_sub(line.len()).ok_or(Line::TooLong)?;
    Ok(Some(line))
}

/// Writes an answer; `close` says the connection ends after it.
///
/// # Errors
/// The connection fails.
pub fn write_reply(
    writer: &mut impl Write,
    status: u16,
    content_type: &str,
    body: &str,
    close: bool,
    head_only: bool,
) -> io::Result<()> {
    let connection = if close { "Connection: close\r\n" } else { "" };
    write!(
        writer,
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{connection}\r\n",
        reason(status),
        body.len()
    )?;
    if !head_only {
        writer.write_all(body.as_bytes())?;
    }
    writer.flush()
}

/// The reason phrase of a status.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Content Too Large",
        417 => "Expectation Failed",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> (Incoming, Vec<u8>) {
        let mut written = Vec::new();
        let incoming = read_request(&mut io::BufReader::new(bytes), &mut written);
        (incoming, written)
    }

    /// The request's first 80 bytes, for messages.
    fn shown(bytes: &[u8]) -> String {
        String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned()
    }

    fn refused(bytes: &[u8]) -> Refused {
        match read(bytes).0 {
            Incoming::Refused(r) => r,
            other => panic!("{:?} read as {other:?}", shown(bytes)),
        }
    }

    #[test]
    fn requests_are_read_with_either_framing_and_kept_alive_as_asked() {
        let (incoming, written) =
            read(b"POST /api/games HTTP/1.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n{}");
        let Incoming::Request(r) = incoming else { panic!("{incoming:?}") };
        assert_eq!(
            (r.method.as_str(), r.target.as_str(), r.body.as_str(), r.keep_alive),
            ("POST", "/api/games", "{}", true)
        );
        assert!(written.starts_with(b"HTTP/1.1 100 Continue"));
        let chunked = b"\r\nPOST /x HTTP/1.1\nTransfer-Encoding: chunked\nConnection: close\n\n3;x=1\r\n{\"a\r\n2\r\n\":\r\n3\r\n 1}\r\n0\r\nT: 1\r\n\r\n";
        let Incoming::Request(r) = read(chunked).0 else { panic!("chunked") };
        assert_eq!((r.body.as_str(), r.keep_alive), ("{\"a\": 1}", false));
        let Incoming::Request(r) = read(b"GET / HTTP/1.0\r\n\r\n").0 else { panic!("1.0") };
        assert!(!r.keep_alive);
        assert!(matches!(read(b"").0, Incoming::Closed));
        assert!(matches!(read(b"\r\n\r\n").0, Incoming::Closed));
    }

    #[test]
    fn every_malformed_request_is_refused_with_a_reason() {
        let long_header = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        for (bytes, status, needle) in [
            (&b"GET /api/games/\xE9 HTTP/1.1\r\n\r\n"[..], 400, "target is not UTF-8"),
            (b"GET /a\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n", 400, "target is not UTF-8"),
            (b"GET api HTTP/1.1\r\n\r\n", 400, "not a path"),
            (b"GET /\x01 HTTP/1.1\r\n\r\n", 400, "not a path"),
            (b"GET / HTTP/1.1 x\r\n\r\n", 400, "request line"),
            (b"G\xc3\xa9T / HTTP/1.1\r\n\r\n", 400, "method"),
            (b"GET / SPDY/3\r\n\r\n", 400, "HTTP/1.1"),
            (b"GET / HTTP/2.0\r\n\r\n", 505, "HTTP/1.0"),
            (b"GET / HTTP/1.1\r\nHost x\r\n\r\n", 400, "no colon"),
            (b"GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400, "header name"),
            (b"GET / HTTP/1.1\r\nHost: x\r\n", 400, "ends within its headers"),
            (b"GET / HTTP/1.1", 400, "ends within its first line"),
            (long_header.as_bytes(), 431, "too long"),
            (b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400, "Content-Length"),
            (b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400, "Content-Length"),
            (b"POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", 413, "too large"),
            (b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n{}", 400, "ends before"),
            (b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n\xff\xfe", 400, "body is not UTF-8"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "gzip"),
            (b"POST / HTTP/1.1\r\nExpect: magic\r\n\r\n", 417, "magic"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 400, "malformed"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\xff\r\n", 400, "malformed"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{}\r\n0\r\n\r\n", 400, "malformed"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n", 400, "malformed"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n", 400, "malformed"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n", 400, "malformed"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n", 400, "malformed"),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n", 413, "too large"),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n\xff\xfe\r\n0\r\n\r\n",
                400,
                "body is not UTF-8",
            ),
        ] {
            let r = refused(bytes);
            assert_eq!(r.status, status, "{:?}: {r:?}", shown(bytes));
            assert!(r.message.contains(needle), "{:?}: {r:?}", shown(bytes));
        }
    }

    #[test]
    fn an_answer_has_its_length_and_says_when_the_connection_closes() {
        let mut out = Vec::new();
        write_reply(&mut out, 400, "application/json", r#"{"error":"é"}"#, true, false).expect("written");
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(
            text,
            "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{\"error\":\"é\"}"
        );
    }
}
