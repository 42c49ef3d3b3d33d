//! `pbrain-tengen serve`: a board in the browser. A local HTTP server (tiny_http) serves one page (HTML, CSS and
//! script embedded in the binary, nothing fetched) and the JSON API of [`api`] over the engine facade. It listens
//! on 127.0.0.1 unless told otherwise; a few worker threads answer requests, each game behind its own lock.

pub mod analysis;
pub mod api;
pub mod game;
pub mod opening;
pub mod sgf;
pub mod study;

use std::io::{self, Read, Write};
use std::sync::Arc;

/// Worker threads answering requests (an engine move holds one for its time).
const WORKERS: usize = 8;
/// The largest request body read.
const MAX_BODY: u64 = 1 << 20;

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
    let server = tiny_http::Server::http((opts.host.as_str(), opts.port))
        .map_err(|e| io::Error::other(format!("cannot listen on {}:{}: {e}", opts.host, opts.port)))?;
    let port = server.server_addr().to_ip().map_or(opts.port, |a| a.port());
    writeln!(out, "Tengen's board: http://{}:{port}/", opts.host)?;
    out.flush()?;
    large_blocks_from_the_system();
    let server = Arc::new(server);
    let games = Arc::new(api::Games::default());
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (server, games) = (Arc::clone(&server), Arc::clone(&games));
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    answer(&games, request);
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.join();
    }
    Ok(())
}

/// Makes the C allocator map every block of a megabyte or more from the system and unmap it when freed, so that a
/// game's table (and a search's solver tables) go back to the system when the game goes. Left to itself, glibc
/// raises that threshold to the size of the first such block freed (up to 32 MiB), and then serves the 16 MiB
/// tables from per-thread heaps that keep them: 32 games that had searched left 250 MB resident once deleted
/// (12 MB with this; `scripts/serve-memory.py`).
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

/// Reads one request, answers it (a panic in the handler becomes a 500, the server goes on).
fn answer(games: &api::Games, mut request: tiny_http::Request) {
    let method = request.method().as_str().to_ascii_uppercase();
    let url = request.url().to_string();
    let mut body = String::new();
    let reply = if request.as_reader().take(MAX_BODY + 1).read_to_string(&mut body).is_err() {
        api::Reply {
            status: 400,
            content_type: "application/json",
            body: r#"{"error":"the body is not UTF-8"}"#.into(),
        }
    } else if body.len() as u64 > MAX_BODY {
        api::Reply {
            status: 413,
            content_type: "application/json",
            body: r#"{"error":"the body is too large"}"#.into(),
        }
    } else {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| games.handle(&method, &url, &body))).unwrap_or_else(
            |_| api::Reply {
                status: 500,
                content_type: "application/json",
                body: r#"{"error":"internal error"}"#.into(),
            },
        )
    };
    log::debug!("{method} {url} -> {}", reply.status);
    let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], reply.content_type.as_bytes());
    let mut response = tiny_http::Response::from_string(reply.body).with_status_code(reply.status);
    if let Ok(header) = header {
        response = response.with_header(header);
    }
    let _ = request.respond(response);
}
