//! The reading of position lines for the commands that answer them (`forbid`, `solve`, `analyze --file`): their
//! shared options, and the lines answered in parallel, in input order, a bad line skipped with its error on stderr.

use super::OptionCursor;
use crate::board::{PositionLine, parse_position_line};
use crate::pattern::PatternBoard;
use crate::problems::Problems;
use crate::types::Rule;
use std::io::{self, BufRead, Write};

/// What a command reads its lines from (stdin or a file), read on a thread of its own.
pub type Input<'a> = &'a mut (dyn BufRead + Send);

/// Options shared by the position-reading subcommands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The rule the positions are judged under.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// `solve`: look for a VCT rather than a VCF.
    pub vct: bool,
    /// `solve`: the time budget per position in milliseconds (`None`: VCF unlimited, VCT 10 s).
    pub ms: Option<u64>,
    /// `solve`: the node budget per position (0: none).
    pub nodes: u64,
    /// `solve`: the VCF with the fewest fours.
    pub shortest: bool,
    /// Positions answered in parallel (`--jobs N`; all cores by default).
    pub jobs: usize,
    /// `solve`: a last line counting the answers (`--summary`).
    pub summary: bool,
}

impl Default for Options {
    fn default() -> Options {
        let jobs = std::thread::available_parallelism().map_or(1, usize::from);
        Options { rule: Rule::Renju, size: 15, vct: false, ms: None, nodes: 0, shortest: false, jobs, summary: false }
    }
}

/// Parses `--rule R`, `--size N` and `--jobs N` (also `--rule=R`), and when `solver` is set the `solve` options `--vct`,
/// `--ms N`, `--nodes N` and `--shortest`.
///
/// # Errors
/// A message naming the bad or unknown option.
pub fn parse_options(args: &[String], solver: bool) -> Result<Options, String> {
    let mut opts = Options::default();
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&name, &inline);
        match name.as_str() {
            "--rule" => opts.rule = value()?.parse()?,
            "--size" => {
                let v = value()?;
                let size: usize = v.parse().map_err(|_| format!("bad board size '{v}'"))?;
                if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
                    return Err(format!("board size {size} is not supported (use 5 to 22)"));
                }
                opts.size = size;
            }
            "--jobs" => {
                let v = value()?;
                opts.jobs =
                    v.parse().ok().filter(|j| (1..=256).contains(j)).ok_or_else(|| format!("bad job count '{v}'"))?;
            }
            "--vct" if solver && inline.is_none() => opts.vct = true,
            "--shortest" if solver && inline.is_none() => opts.shortest = true,
            "--summary" if solver && inline.is_none() => opts.summary = true,
            "--ms" if solver => {
                let v = value()?;
                opts.ms = Some(v.parse().map_err(|_| format!("bad time budget '{v}' (milliseconds)"))?);
            }
            "--nodes" if solver => {
                let v = value()?;
                opts.nodes = v.parse().map_err(|_| format!("bad node budget '{v}'"))?;
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(opts)
}

/// Position lines answered at once, at most (a batch is also cut where the input pauses).
const BATCH: usize = 4096;

/// Calls `answer` for each position line of `input` (blank lines and `#` comments skipped) and writes what it
/// returns in input order; a bad line is skipped, as `SOURCE: line N: …` on `problems`. With `opts.jobs` above 1 the
/// lines read so far are answered in parallel: a reader thread takes the input, and each batch is what it has read
/// when the last one is done, so that a line typed by hand is still answered at once. Returns how many lines were
/// skipped.
pub(super) fn for_each_position(
    opts: &Options,
    input: Input<'_>,
    source: &str,
    out: &mut dyn Write,
    problems: &mut Problems,
    answer: impl Fn(PatternBoard, &PositionLine) -> Result<String, String> + Sync,
) -> io::Result<usize> {
    let before = problems.skipped();
    let reply = |number: usize, text: &str| -> Option<Result<String, String>> {
        if text.trim().is_empty() || text.trim_start().starts_with('#') {
            return None;
        }
        let reply = parse_position_line(text, opts.size).and_then(|pos| {
            PatternBoard::from_stones(opts.size, opts.rule, &pos.black, &pos.white)
                .map_err(|e| e.to_string())
                .and_then(|board| answer(board, &pos))
        });
        Some(reply.map_err(|e| format!("{source}: line {number}: {e}")))
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.jobs.max(1)).build().map_err(io::Error::other)?;
    let (tx, rx) = std::sync::mpsc::channel::<io::Result<(usize, String)>>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut line = Vec::new();
            for number in 1.. {
                line.clear();
                match input.read_until(b'\n', &mut line) {
                    Ok(0) => return,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Ok((number, text))).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        // The receiver moves in here: an output error drops it, which stops the reader at its next line.
        let rx = rx;
        while let Ok(first) = rx.recv() {
            let mut batch = vec![first?];
            while batch.len() < BATCH.max(opts.jobs)
                && let Ok(next) = rx.try_recv()
            {
                batch.push(next?);
            }
            let replies: Vec<Option<Result<String, String>>> = if opts.jobs > 1 && batch.len() > 1 {
                use rayon::prelude::*;
                pool.install(|| batch.par_iter().map(|(n, text)| reply(*n, text)).collect())
            } else {
                batch.iter().map(|(n, text)| reply(*n, text)).collect()
            };
            for r in replies.into_iter().flatten() {
                match r {
                    Ok(r) => writeln!(out, "{r}")?,
                    Err(e) => problems.skip(e),
                }
            }
            out.flush()?;
        }
        Ok(problems.skipped() - before)
    })
}

/// Counts of a run over position lines (shared by the parallel answers).
#[derive(Default)]
pub(super) struct Tally {
    pub(super) proved: std::sync::atomic::AtomicUsize,
    pub(super) none: std::sync::atomic::AtomicUsize,
    pub(super) unknown: std::sync::atomic::AtomicUsize,
}

impl Tally {
    pub(super) fn count(&self, what: &std::sync::atomic::AtomicUsize) {
        what.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// `proved W of T (W%; N <none>, U unknown, E errors)`, `none` naming the second kind, `e` the lines answered
    /// by an error.
    pub(super) fn text(&self, none: &str, e: usize) -> String {
        let get = |a: &std::sync::atomic::AtomicUsize| a.load(std::sync::atomic::Ordering::Relaxed);
        let (w, n, u) = (get(&self.proved), get(&self.none), get(&self.unknown));
        let total = w + n + u;
        let percent = if total == 0 { 0.0 } else { 100.0 * w as f64 / total as f64 };
        format!("proved {w} of {total} ({percent:.1}%; {n} {none}, {u} unknown, {e} errors)")
    }
}
