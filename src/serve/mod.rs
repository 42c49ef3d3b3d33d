//! `pbrain-tengen serve`: a board in the browser. A local HTTP server ([`http`]) serves one page (HTML, CSS and
//! script embedded in the binary, nothing fetched) and the JSON API of [`api`] over the engine facade. It listens
//! on 127.0.0.1 unless told otherwise; a thread a connection answers its requests, each game behind its own lock.

pub mod analysis;
pub mod api;
pub mod game;
pub mod http;
pub mod opening;
pub mod sgf;
pub mod study;

use std::io::{self, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Connections served at once (a thread each; an engine move holds its connection for its time). One more is
/// answered 503.
const MAX_CONNECTIONS: usize = 64;
/// A connection quiet for this long between requests is closed.
const IDLE: Duration = Duration::from_secs(60);

/// Why a request about a game was refused: becomes an HTTP 4xx with the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// HTTP status.
    pub status: u16,
    /// What was wrong.
    pub message: String,
}

impl Refused {
    /// A 400 (the request itself is wrong) or 409 (it does not fit the game).
    pub fn new(status: u16, message: impl Into<String>) -> Refused {
        Refused { status, message: message.into() }
    }
}

/// Options of `serve`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// The address to listen on.
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions { host: "127.0.0.1".to_string(), port: 8080 }
    }
}

/// Serves until the process ends. Prints `Tengen's board: http://HOST:PORT/` once listening (with the port
/// chosen when 0 was asked).
///
/// # Errors
/// The address cannot be bound, or the first line cannot be written.
pub fn serve(opts: &ServeOptions, out: &mut dyn Write) -> io::Result<()> {
    let listener = TcpListener::bind((opts.host.as_str(), opts.port))
        .map_err(|e| io::Error::other(format!("cannot listen on {}:{}: {e}", opts.host, opts.port)))?;
    let port = listener.local_addr().map_or(opts.port, |a| a.port());
    writeln!(out, "Tengen's board: http://{}:{port}/", opts.host)?;
    out.flush()?;
    large_blocks_from_the_system();
    let games = Arc::new(api::Games::default());
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // Out of file descriptors, say: wait for connections to close.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        if open.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
            refuse(&stream, &Refused::new(503, "too many connections: try again"));
            continue;
        }
        open.fetch_add(1, Ordering::Relaxed);
        let (games, count) = (Arc::clone(&games), Arc::clone(&open));
        let spawned = std::thread::Builder::new().name("serve".into()).spawn(move || {
            connection(&games, &stream);
            count.fetch_sub(1, Ordering::Relaxed);
        });
        if spawned.is_err() {
            open.fetch_sub(1, Ordering::Relaxed);
        }
    }
    Ok(())
}

/// Answers the requests of one connection until it closes, goes quiet, or sends a request that cannot be read.
fn connection(games: &api::Games, stream: &TcpStream) {
    let _ = stream.set_read_timeout(Some(IDLE));
    let _ = stream.set_write_timeout(Some(IDLE));
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::new(stream);
    let mut writer = stream;
    loop {
        match http::read_request(&mut reader, &mut writer) {
            http::Incoming::Closed => return,
            http::Incoming::Refused(refused) => {
                log::debug!("unreadable request -> {}", refused.status);
                refuse(stream, &refused);
                return;
            }
            http::Incoming::Request(request) => {
                let reply = answer(games, &request);
                let close = !request.keep_alive;
                let head_only = request.method.eq_ignore_ascii_case("HEAD");
                let written =
                    http::write_reply(&mut writer, reply.status, reply.content_type, &reply.body, close, head_only);
                if close || written.is_err() {
                    return;
                }
            }
        }
    }
}

/// Answers `refused` and closes the connection, first reading what the client still sends (a body not read, say)
/// for a moment, so that the answer is not lost to a reset.
fn refuse(stream: &TcpStream, refused: &Refused) {
    let reply = api::Reply::refused(refused);
    let mut writer = stream;
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    if http::write_reply(&mut writer, reply.status, reply.content_type, &reply.body, true, false).is_ok() {
        let _ = stream.shutdown(Shutdown::Write);
        let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
        let _ = io::copy(&mut stream.take(4 * http::MAX_BODY as u64), &mut io::sink());
    }
}

/// Makes the C allocator map every block of a megabyte or more from the system and unmap it when freed, so that a
/// game's table (and a search's solver tables) go back to the system when the game goes. Left to itself, glibc
/// raises that threshold to the size of the first such block freed (up to 32 MiB), and then serves the 16 MiB
/// tables from per-thread heaps that keep them: 32 games that had searched left 250 MB resident once deleted
/// (8.6 MB with this; `scripts/serve-memory.py`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn large_blocks_from_the_system() {
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    /// glibc's `M_MMAP_THRESHOLD` (malloc.h); setting it also turns off the threshold's raising.
    const M_MMAP_THRESHOLD: i32 = -3;
    // SAFETY: mallopt(3) changes a setting of the allocator, reads no memory of ours, and may be called at any time.
    let _ = unsafe { mallopt(M_MMAP_THRESHOLD, 1 << 20) };
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn large_blocks_from_the_system() {}

/// Answers one request (a panic in the handler becomes a 500, the server goes on).
fn answer(games: &api::Games, request: &http::Request) -> api::Reply {
    let method = request.method.to_ascii_uppercase();
    let method = if method == "HEAD" { "GET".to_string() } else { method };
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        games.handle(&method, &request.target, &request.body)
    }))
    .unwrap_or_else(|_| api::Reply::refused(&Refused::new(500, "internal error")));
    log::debug!("{} {} -> {}", request.method, request.target, reply.status);
    reply
}
