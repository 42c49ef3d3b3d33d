//! The command-line subcommands of `pbrain-tengen` (DESIGN.md). Each reads position lines and writes one answer
//! line per position; a bad line gets an `error: line N: …` answer and the run goes on.

mod book;
mod game_files;
mod gauntlet;
mod library;
mod matchcmd;
mod merge;
mod openings;
mod options;
mod play;
mod play_opening;
mod position;
mod positions;
mod presets;
mod rescore;
mod selfplay;
mod spsa;
mod think;
mod train;
mod train_policy;
mod tune;
mod usage;

pub use crate::engine::RENJU_OPENINGS;
pub use crate::matches::elo_estimate;
pub use play::{PlayOptions, parse_play, play};
pub use position::{PositionLine, parse_position_line};
pub use presets::protocol_presets;
pub use selfplay::parse_selfplay;
pub use think::{analyze, bench, position_from_moves, report_text};
pub use train::{TrainCommand, parse_train, run_train};
pub use tune::{TuneCommand, parse_tune, run_tune};

pub(crate) use options::OptionCursor;

use crate::pattern::PatternBoard;
use crate::threat::{Limits, Solution, Vcf, VcfOptions, Vct, VctOptions};
use crate::types::{Rule, format_line, format_point_list};
use options::parse_serve;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// `pbrain-tengen --version`: the version, the commit it was built from, and the evaluation it plays with.
#[must_use]
pub fn version_text() -> String {
    use crate::eval::network::Group;
    let nets: Vec<String> =
        crate::eval::network::embedded_identities().iter().map(|(g, id)| format!("{} {id}", g.name())).collect();
    // Which rule groups play with which by default (standard's network also serves caro).
    let by_default = |network: bool| -> String {
        let groups: Vec<&str> = Group::ALL
            .iter()
            .filter(|&&g| crate::eval::NETWORK_BY_DEFAULT[g as usize] == network)
            .map(|g| if *g == Group::Standard { "standard, caro" } else { g.name() })
            .collect();
        if groups.is_empty() { "none".to_string() } else { groups.join(", ") }
    };
    format!(
        "pbrain-tengen {} (commit {})\nevaluation: classical (tables data/weights.txt {}; the default in {}), network \
         ({}; the default in {})",
        env!("CARGO_PKG_VERSION"),
        env!("TENGEN_COMMIT"),
        crate::eval::embedded_identity(),
        by_default(false),
        if nets.is_empty() { "none embedded".to_string() } else { nets.join(", ") },
        by_default(true)
    )
}

/// The protocol's usage (the binary without a subcommand).
#[must_use]
pub fn protocol_usage() -> &'static str {
    usage::PROTOCOL
}

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

/// Runs the command line `args` (without the program name). Returns the exit code.
///
/// # Errors
/// Only I/O errors on the output; bad input becomes `error:` lines.
pub fn run(args: &[String], input: &mut (dyn BufRead + Send), out: &mut dyn Write) -> io::Result<u8> {
    let Some(command) = args.first() else {
        writeln!(out, "error: no command (without arguments the binary speaks the protocol)\n{}", usage::overview())?;
        out.flush()?;
        return Ok(2);
    };
    let rest = &args[1..];
    let help = |a: &String| a == "--help" || a == "-h";
    match (command.as_str(), usage::command(command)) {
        ("help" | "--help" | "-h", _) => {
            match rest.first().and_then(|c| usage::command(c)) {
                Some(c) => writeln!(out, "{}", c.usage)?,
                None => writeln!(out, "{}", usage::overview())?,
            }
            out.flush()?;
            return Ok(0);
        }
        ("version" | "--version" | "-V", _) => {
            writeln!(out, "{}", version_text())?;
            out.flush()?;
            return Ok(0);
        }
        (_, Some(c)) if rest.iter().any(help) => {
            writeln!(out, "{}", c.usage)?;
            out.flush()?;
            return Ok(0);
        }
        _ => {}
    }
    let result = match command.as_str() {
        "forbid" => parse_options(rest, false).map(|opts| forbid(&opts, input, out)),
        "solve" => parse_options(rest, true).map(|opts| solve(&opts, input, out)),
        "bench" => match rest {
            [] => Ok(bench(None, out)),
            [d] if d.starts_with('-') => Err(format!("unknown option '{d}'")),
            [d] => match d.parse::<i32>() {
                Ok(d) if (1..=crate::search::MAX_DEPTH).contains(&d) => Ok(bench(Some(d), out)),
                _ => Err(format!("bad bench depth '{d}' (1 to {})", crate::search::MAX_DEPTH)),
            },
            _ => Err("bench takes at most one argument, a depth".to_string()),
        },
        "analyze" => analyze_command(rest, out),
        "selfplay" => parse_selfplay(rest).map(|m| crate::selfplay::run(&m, out)),
        "tune" => parse_tune(rest).map(|c| run_tune(&c, out)),
        "train" => parse_train(rest).map(|c| run_train(&c, out)),
        "spsa" => spsa::parse_spsa(rest).and_then(|c| spsa::run_spsa(&c, out)),
        "match" => matchcmd::match_command(rest, out),
        "gauntlet" => gauntlet::gauntlet_command(rest, out),
        "positions" => positions::parse_positions(rest).and_then(|p| positions::run_positions(&p, out)),
        "rescore" => rescore::parse_rescore(rest).and_then(|r| rescore::run_rescore(&r, out)),
        "lib" => library::lib_command(rest, out),
        "merge" => merge::merge_command(rest, out),
        "book" => book::book_command(rest, out),
        "openings" => openings::openings_command(rest, out),
        "puppet" => match rest.iter().find(|a| a.starts_with("--")) {
            Some(a) => Err(format!("unknown option '{a}'")),
            None => return crate::protocol::puppet(rest, input, out),
        },
        "play" => parse_play(rest).map(|o| play(&o, input, out)),
        "serve" => parse_serve(rest).map(|o| crate::serve::serve(&o, out)),
        other => Err(format!("unknown command '{other}'\n{}", usage::overview())),
    };
    match result {
        Ok(io_result) => {
            io_result?;
            out.flush()?;
            Ok(0)
        }
        Err(msg) => {
            writeln!(out, "error: {msg}")?;
            if msg.starts_with("unknown option")
                && let Some(c) = usage::command(command)
            {
                writeln!(out, "{}", c.usage)?;
            }
            out.flush()?;
            Ok(2)
        }
    }
}

/// Position lines answered at once, at most (a batch is also cut where the input pauses).
const BATCH: usize = 4096;

/// Calls `answer` for each position line of `input` (blank lines and `#` comments skipped) and writes what it
/// returns, or `error: line N: …`, in input order. With `opts.jobs` above 1 the lines read so far are answered in
/// parallel: a reader thread takes the input, and each batch is what it has read when the last one is done, so
/// that a line typed by hand is still answered at once. Returns how many lines were answered by an error.
fn for_each_position(
    opts: &Options,
    input: &mut (dyn BufRead + Send),
    out: &mut dyn Write,
    answer: impl Fn(PatternBoard, &PositionLine) -> Result<String, String> + Sync,
) -> io::Result<usize> {
    let errors = std::sync::atomic::AtomicUsize::new(0);
    let reply = |number: usize, text: &str| -> Option<String> {
        if text.trim().is_empty() || text.trim_start().starts_with('#') {
            return None;
        }
        let reply = parse_position_line(text, opts.size).and_then(|pos| {
            PatternBoard::from_stones(opts.size, opts.rule, &pos.black, &pos.white)
                .map_err(|e| e.to_string())
                .and_then(|board| answer(board, &pos))
        });
        Some(match reply {
            Ok(r) => r,
            Err(e) => {
                errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                format!("error: line {number}: {e}")
            }
        })
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
            let replies: Vec<Option<String>> = if opts.jobs > 1 && batch.len() > 1 {
                use rayon::prelude::*;
                pool.install(|| batch.par_iter().map(|(n, text)| reply(*n, text)).collect())
            } else {
                batch.iter().map(|(n, text)| reply(*n, text)).collect()
            };
            for r in replies.into_iter().flatten() {
                writeln!(out, "{r}")?;
            }
            out.flush()?;
        }
        Ok(errors.load(std::sync::atomic::Ordering::Relaxed))
    })
}

/// `forbid`: Black's forbidden points of each position, or `-`.
///
/// # Errors
/// Output I/O errors only.
pub fn forbid(opts: &Options, input: &mut (dyn BufRead + Send), out: &mut dyn Write) -> io::Result<()> {
    for_each_position(opts, input, out, |mut board, _| {
        let points = board.forbidden_points();
        Ok(format_point_list(&points, board.size()))
    })
    .map(|_| ())
}

/// `solve`: `win <line>`, `none` or `unknown` for the side to move of each position; with `--summary` a last line
/// `# proved W of T (N none, U unknown, E errors) within …`.
///
/// # Errors
/// Output I/O errors only.
pub fn solve(opts: &Options, input: &mut (dyn BufRead + Send), out: &mut dyn Write) -> io::Result<()> {
    let tally = Tally::default();
    let ms = opts.ms.or(if opts.vct { Some(10_000) } else { None });
    let errors = for_each_position(opts, input, out, |mut board, pos| {
        let attacker = pos.side_to_move()?;
        let limits = Limits {
            nodes: opts.nodes,
            deadline: ms.map(|ms| Instant::now() + Duration::from_millis(ms)),
            abort: None,
        };
        let solution = if opts.vct {
            Vct::new(attacker, VctOptions { limits, ..VctOptions::default() }).solve(&mut board)
        } else {
            Vcf::new(attacker, VcfOptions { shortest: opts.shortest, limits, ..VcfOptions::default() })
                .solve(&mut board)
        };
        Ok(match solution {
            Solution::Win(line) => {
                tally.count(&tally.proved);
                format!("win {}", format_line(&line, board.size()))
            }
            Solution::None => {
                tally.count(&tally.none);
                "none".to_string()
            }
            Solution::Unknown => {
                tally.count(&tally.unknown);
                "unknown".to_string()
            }
        })
    })?;
    if opts.summary {
        let budget = match (ms, opts.nodes) {
            (Some(ms), 0) => format!("{ms} ms"),
            (None, 0) => "no limit".to_string(),
            (Some(ms), n) => format!("{ms} ms and {n} nodes"),
            (None, n) => format!("{n} nodes"),
        };
        let kind = if opts.vct { "VCT" } else { "VCF" };
        writeln!(out, "# {} by {kind} within {budget} a position", tally.text("none", errors))?;
        out.flush()?;
    }
    Ok(())
}

/// Counts of a run over position lines (shared by the parallel answers).
#[derive(Default)]
struct Tally {
    proved: std::sync::atomic::AtomicUsize,
    none: std::sync::atomic::AtomicUsize,
    unknown: std::sync::atomic::AtomicUsize,
}

impl Tally {
    fn count(&self, what: &std::sync::atomic::AtomicUsize) {
        what.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// `proved W of T (W%; N <none>, U unknown, E errors)`, `none` naming the second kind, `e` the lines answered
    /// by an error.
    fn text(&self, none: &str, e: usize) -> String {
        let get = |a: &std::sync::atomic::AtomicUsize| a.load(std::sync::atomic::Ordering::Relaxed);
        let (w, n, u) = (get(&self.proved), get(&self.none), get(&self.unknown));
        let total = w + n + u;
        let percent = if total == 0 { 0.0 } else { 100.0 * w as f64 / total as f64 };
        format!("proved {w} of {total} ({percent:.1}%; {n} {none}, {u} unknown, {e} errors)")
    }
}

/// `analyze [--rule R] [--size N] [--ms N] [--depth N] [--threads N] [--weights FILE] [--eval default|classical|network]
/// [--network FILE] <moves>`.
fn analyze_command(args: &[String], out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let (mut ms, mut depth, mut threads, mut raw) = (2_000u64, 0i32, 1usize, false);
    let mut weights = crate::eval::WeightsRef::default();
    let mut eval = crate::eval::EvalChoice::Default;
    let (mut rule, mut size) = (Options::default().rule, Options::default().size);
    let mut moves = Vec::new();
    let (mut file, mut jobs) = (None, 1usize);
    let mut params = crate::search::params::Params::default();
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        match name.as_str() {
            "--ms" => ms = cursor.number(&name, &inline, "time budget (milliseconds)", 0..=u64::MAX)?,
            "--threads" => threads = cursor.number(&name, &inline, "thread count", 1..=crate::engine::MAX_THREADS)?,
            "--depth" => depth = cursor.number(&name, &inline, "depth", 1..=crate::search::MAX_DEPTH)?,
            "--raw" if inline.is_none() => raw = true,
            "--weights" => {
                weights = crate::eval::WeightsRef(crate::eval::Weights::load(&cursor.value(&name, &inline)?)?);
            }
            "--eval" => eval = cursor.value(&name, &inline)?.parse()?,
            "--network" => eval = crate::eval::EvalChoice::load(&cursor.value(&name, &inline)?)?,
            "--rule" => rule = cursor.value(&name, &inline)?.parse()?,
            "--size" => {
                size = cursor.number(&name, &inline, "board size", crate::types::MIN_SIZE..=crate::types::MAX_SIZE)?
            }
            "--file" => file = Some(cursor.value(&name, &inline)?),
            "--params" => params = crate::search::params::Params::load(&cursor.value(&name, &inline)?)?,
            "--jobs" => jobs = cursor.number(&name, &inline, "job count", 1..=256)?,
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            _ => moves.push(name),
        }
    }
    if let Some(path) = file {
        if !moves.is_empty() {
            return Err("analyze takes moves or --file FILE, not both".to_string());
        }
        let opts = Options { rule, size, jobs, ..Options::default() };
        let options = crate::search::SearchOptions { threads, weights, eval, params, ..Default::default() };
        let mut input: Box<dyn BufRead + Send> = if path == "-" {
            Box::new(io::BufReader::new(io::stdin()))
        } else {
            Box::new(io::BufReader::new(std::fs::File::open(&path).map_err(|e| format!("cannot read {path}: {e}"))?))
        };
        return Ok(think::analyze_file(&opts, ms, depth, &options, &mut input, out));
    }
    let mut pb = position_from_moves(&moves.join(" "), size, rule)?;
    let options = crate::search::SearchOptions { threads, weights, eval, params, ..Default::default() };
    Ok(analyze(&mut pb, ms, depth, &options, raw, out))
}
