//! `bench` (the fixed positions searched to fixed depths, [`crate::engine::bench`]: the behaviour signature and the
//! speed) and `analyze` (one position as a person reads it, [`crate::terminal::analysis`], or every position line of
//! a file searched as a move would be).

use super::Done;
use super::OptionCursor;
use super::lines::{Options, Tally, for_each_position};
use crate::pattern::position_from_moves;
use crate::problems::Problems;
use crate::search::tt::Table;
use crate::search::{MATE_BOUND, SearchLimits, SearchOptions, mate_distance, search};
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// `bench [depth]`: one line per position and the total, `<N> nodes <NPS> nps`.
pub(super) fn bench_command(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
    if args.first().is_some_and(|a| a == "--census") {
        return census_command(&args[1..], out);
    }
    let depth = match args {
        [] => None,
        [d] if d.starts_with('-') => return Err(format!("unknown option '{d}'")),
        [d] => match d.parse::<i32>() {
            Ok(d) if (1..=crate::search::MAX_DEPTH).contains(&d) => Some(d),
            _ => return Err(format!("bad bench depth '{d}' (1 to {})", crate::search::MAX_DEPTH)),
        },
        _ => return Err("bench takes at most one argument, a depth".to_string()),
    };
    Ok(bench(depth, out, p))
}

/// Prints the bench's lines and total.
fn bench(depth: Option<i32>, out: &mut dyn Write, p: &mut Problems) -> io::Result<()> {
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for (rule, moves, report) in crate::engine::bench(depth) {
        let report = match report {
            Ok(report) => report,
            Err(e) => {
                p.skip(format_args!("bench position '{moves}': {e}"));
                continue;
            }
        };
        nodes += report.nodes;
        time += report.elapsed;
        writeln!(
            out,
            "{:<10} {:<40} depth {:>2} best {:<4} score {:>6} nodes {:>9}",
            rule.name(),
            moves,
            report.depth,
            report.best.map_or("-".to_string(), |p| p.notation(15)),
            report.score,
            report.nodes
        )?;
    }
    let nps = nodes as f64 / time.as_secs_f64().max(1e-9);
    writeln!(out, "{nodes} nodes {nps:.0} nps")
}

/// `bench --census [--nodes N] [--file FILE] [--params FILE]`: every position searched to N nodes, one line each,
/// then the census's summary as `name value` lines.
fn census_command(args: &[String], out: &mut dyn Write) -> Done {
    let (mut nodes, mut params) = (1_000_000u64, crate::search::params::Params::DEFAULT);
    let mut positions = crate::engine::bench_positions();
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let value = cursor.value(&name, &inline)?;
        match name.as_str() {
            "--nodes" => nodes = value.parse().ok().filter(|&n| n > 0).ok_or(format!("bad node count '{value}'"))?,
            "--params" => params = crate::search::params::Params::load(&value)?,
            "--file" => positions = crate::engine::read_positions_file(&value)?,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    crate::engine::write_census(&positions, nodes, params, out)
}

/// `analyze [--rule R] [--size N] [--ms N] [--depth N] [--threads N] [--weights FILE] [--eval default|classical|network]
/// [--network FILE] <moves>`.
pub(super) fn analyze_command(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
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
        let source = if path == "-" { "stdin" } else { &path };
        return Ok(analyze_file(&opts, ms, depth, &options, (&mut input, source), out, p));
    }
    let mut pb = position_from_moves(&moves.join(" "), size, rule)?;
    let options = crate::search::SearchOptions { threads, weights, eval, params, ..Default::default() };
    Ok(crate::terminal::analyze(&mut pb, ms, depth, &options, raw, out))
}

/// `analyze --file`: every position line of `input` searched as a game's move of `ms` milliseconds would be (the
/// root's VCF and VCT, then the search), one line each: `win MOVE in N plies (SOURCE)` when the search proves a win
/// for the side to move, else `no MOVE score S (SOURCE)`; then `# proved W of T …`. The measure of issue 41: how
/// many of a set of won positions a turn plays as won.
///
/// # Errors
/// Output I/O errors only; a bad line is skipped, its error on `p`.
fn analyze_file(
    opts: &Options,
    ms: u64,
    depth: i32,
    options: &SearchOptions,
    (input, source): (super::Input<'_>, &str),
    out: &mut dyn Write,
    p: &mut Problems,
) -> io::Result<()> {
    let tally = Tally::default();
    let errors = for_each_position(opts, input, source, out, p, |board, pos| {
        let side = pos.side_to_move()?;
        let start = Instant::now();
        let deadline = Some(start + Duration::from_millis(ms));
        let limits = SearchLimits { depth, optimum: deadline, maximum: deadline, ..SearchLimits::default() };
        let table = Table::new(16 << 20);
        let report = search(&board, side, &table, &limits, options, |_| {});
        let size = board.size();
        let best = report.best.map_or("-".to_string(), |p| p.notation(size));
        Ok(if report.score >= MATE_BOUND {
            tally.count(&tally.proved);
            let plies = mate_distance(report.score).unwrap_or(0);
            format!("win {best} in {plies} plies ({})", report.source)
        } else {
            tally.count(&tally.none);
            format!("no {best} score {} ({})", report.score, report.source)
        })
    })?;
    writeln!(out, "# {} by the search within {ms} ms a position", tally.text("not proved", errors))?;
    out.flush()
}
