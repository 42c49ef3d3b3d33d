//! The command-line subcommands of `pbrain-tengen` (DESIGN.md). Each command reads its options (`options.rs`: the one
//! option reader), calls the library and prints; the work lives in the rooms below (`crate::selfplay`,
//! `crate::matches`, `crate::tune`, `crate::train`, `crate::terminal` and the others). Data go to stdout, errors and
//! warnings to stderr through [`Problems`]. The position-reading commands write one answer line per position; a bad
//! line is skipped, `error: stdin: line N: …` on stderr, and the run goes on (`lines.rs`).

mod agree;
mod book;
mod gauntlet;
mod help;
mod library;
mod lines;
mod match_options;
mod merge;
mod openings;
mod options;
mod play;
mod positions;
mod presets;
mod rescore;
mod selfplay;
mod solve;
mod spsa;
mod think;
mod train;
mod tune;
mod usage;
mod usage_records;

pub use lines::{Input, Options, parse_options};
pub use presets::protocol_presets;
pub use solve::{forbid, solve};

pub(crate) use options::OptionCursor;

use crate::problems::Problems;
use options::parse_serve;

/// What a command's run returns: its error (the run fails with it, exit code 2), or how writing its output went.
type Done = Result<io::Result<()>, String>;
use std::io::{self, Write};

/// `pbrain-tengen --version`: the version, the commit it was built from, and the evaluation it plays with.
#[must_use]
pub fn version_text() -> String {
    let (version, commit) = (env!("CARGO_PKG_VERSION"), env!("TENGEN_COMMIT"));
    format!("pbrain-tengen {version} (commit {commit})\nevaluation: {}", crate::eval::provenance())
}

/// The protocol's usage (the binary without a subcommand).
#[must_use]
pub fn protocol_usage() -> &'static str {
    help::PROTOCOL
}

/// Runs the command line `args` (without the program name): the command's data on `out`, its errors and warnings
/// on `err` ([`Problems`]). Returns the exit code: 0 done, 1 done with inputs skipped, 2 not done.
///
/// # Errors
/// Only I/O errors on the output.
pub fn run(args: &[String], input: Input<'_>, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let Some(command) = args.first() else {
        writeln!(err, "error: no command (without arguments the binary speaks the protocol)\n{}", help::overview())?;
        return Ok(2);
    };
    let rest = &args[1..];
    let help = |a: &String| a == "--help" || a == "-h";
    let text = match (command.as_str(), help::command(command)) {
        ("help" | "--help" | "-h", _) => {
            Some(rest.first().and_then(|c| help::command(c)).map_or_else(help::overview, help::usage))
        }
        ("version" | "--version" | "-V", _) => Some(version_text()),
        (_, Some(c)) if rest.iter().any(help) => Some(help::usage(c)),
        _ => None,
    };
    if let Some(text) = text {
        writeln!(out, "{text}")?;
        out.flush()?;
        return Ok(0);
    }
    let p = &mut Problems::new(err);
    let result = match command.as_str() {
        "forbid" => parse_options(rest, false).map(|opts| forbid(&opts, input, out, p)),
        "solve" => parse_options(rest, true).map(|opts| solve(&opts, input, out, p)),
        "bench" => think::bench_command(rest, out, p),
        "analyze" => think::analyze_command(rest, out, p),
        "selfplay" => selfplay::parse_selfplay(rest).map(|m| crate::selfplay::run(&m, out)),
        "tune" => tune::parse_tune(rest).map(|c| crate::tune::run::run(&c, out, p)),
        "train" => train::parse_train(rest).map(|c| c.run(out, p)),
        "spsa" => spsa::parse_spsa(rest).and_then(|c| crate::tune::spsa_run::run_spsa(&c, out)),
        "match" => match_options::parse_match(rest, out, p).map(|c| crate::matches::run(&c, out).map(|_| ())),
        "gauntlet" => gauntlet::gauntlet_command(rest, out, p),
        "positions" => positions::parse_positions(rest).and_then(|p_| positions::run_positions(&p_, out, p)),
        "agree" => agree::agree_command(rest, out, p),
        "rescore" => rescore::parse_rescore(rest).and_then(|r| crate::tune::rescore::run(&r, out, p)),
        "lib" => library::lib_command(rest, out),
        "merge" => merge::merge_command(rest, out),
        "book" => book::book_command(rest, out, p),
        "openings" => openings::openings_command(rest, out, p),
        "puppet" => match rest.iter().find(|a| a.starts_with("--")) {
            Some(a) => Err(format!("unknown option '{a}'")),
            None => return crate::protocol::puppet(rest, input, out),
        },
        "play" => play::parse_play(rest).map(|o| crate::terminal::play(&o, input, out, p)),
        "serve" => parse_serve(rest).map(|o| crate::serve::serve(&o, out)),
        other => Err(format!("unknown command '{other}'\n{}", help::overview())),
    };
    match result {
        Ok(io_result) => {
            io_result?;
            out.flush()?;
            Ok(p.finish())
        }
        Err(msg) => {
            let usage = help::command(command).filter(|_| msg.starts_with("unknown option")).map(help::usage);
            let _ = p.fail(usage.map_or(msg.clone(), |u| format!("{msg}\n{u}")));
            out.flush()?;
            Ok(p.finish())
        }
    }
}
