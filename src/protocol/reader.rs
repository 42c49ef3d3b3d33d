//! The session's input: a reader thread turns stdin into timestamped lines, and the loop hands them to the session
//! while polling the search in progress, so that a command is read the moment it arrives.

use super::session::Session;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A line and when it arrived, or `None` at the end of the input.
type Incoming = Option<(Instant, String)>;

/// Runs a session over `input` until END or EOF: a reader thread feeds the lines, searches run on their own threads.
///
/// # Errors
/// Output I/O errors only.
pub fn run(input: impl BufRead + Send + 'static, out: &mut dyn Write) -> io::Result<()> {
    run_with(input, out, Vec::new())
}

/// [`run`] with settings applied to the engine when START creates it, as if sent by `INFO key value` first (the
/// manager's own INFO lines come later and win). Keys: the INFO keys, and [`super::PRESET_THREATS`].
///
/// # Errors
/// Output I/O errors only.
pub fn run_with(
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
    presets: Vec<(String, String)>,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel::<Incoming>();
    std::thread::spawn(move || read_lines(input, &tx));
    serve(&rx, out, Session::with_presets(presets))
}

/// Sends every line of `input` with its arrival time, then `None` at its end (or on a read error). Stops early
/// when the session is gone.
fn read_lines(mut input: impl BufRead, tx: &mpsc::Sender<Incoming>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let line = match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some((Instant::now(), String::from_utf8_lossy(&buf).into_owned())),
        };
        let last = line.is_none();
        if tx.send(line).is_err() || last {
            return;
        }
    }
}

fn serve(rx: &Receiver<Incoming>, out: &mut dyn Write, mut session: Session) -> io::Result<()> {
    loop {
        let message = if session.is_thinking() {
            match rx.recv_timeout(Duration::from_millis(2)) {
                Ok(m) => Some(m),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(None),
            }
        } else {
            Some(rx.recv().unwrap_or(None))
        };
        match message {
            None => session.poll(out)?,
            Some(Some((received, line))) => {
                session.line_at(&line, received, out)?;
                if session.ended() {
                    // END: the search (if any) was told to stop; leave without waiting for it.
                    return Ok(());
                }
                session.poll(out)?;
            }
            Some(None) => {
                // EOF: answer the search in progress and every request that waited for it, then stop.
                while session.is_thinking() {
                    session.finish(out)?;
                }
                return Ok(());
            }
        }
    }
}
