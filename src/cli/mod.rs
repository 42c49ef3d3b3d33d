//! The command-line subcommands of `pbrain-tengen` (DESIGN.md). Each command reads its options (`options.rs`: the one
//! option reader), calls the library and prints; the work lives in the rooms below (`crate::selfplay`,
//! `crate::matches`, `crate::tune`, `crate::train`, `crate::terminal` and the others). The position-reading
//! commands read position lines and write one answer line per position; a bad line gets an `error: line N: …`
//! answer and the run goes on (`lines.rs`).

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

pub use lines::{Options, parse_options};
pub use presets::protocol_presets;
pub use solve::{forbid, solve};

pub(crate) use options::OptionCursor;

use options::parse_serve;
use std::io::{self, BufRead, Write};

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

/// Runs the command line `args` (without the program name). Returns the exit code.
///
/// # Errors
/// Only I/O errors on the output; bad input becomes `error:` lines.
pub fn run(args: &[String], input: &mut (dyn BufRead + Send), out: &mut dyn Write) -> io::Result<u8> {
    let Some(command) = args.first() else {
        writeln!(out, "error: no command (without arguments the binary speaks the protocol)\n{}", help::overview())?;
        out.flush()?;
        return Ok(2);
    };
    let rest = &args[1..];
    let help = |a: &String| a == "--help" || a == "-h";
    match (command.as_str(), help::command(command)) {
        ("help" | "--help" | "-h", _) => {
            match rest.first().and_then(|c| help::command(c)) {
                Some(c) => writeln!(out, "{}", c.usage)?,
                None => writeln!(out, "{}", help::overview())?,
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
        "bench" => think::bench_command(rest, out),
        "analyze" => think::analyze_command(rest, out),
        "selfplay" => selfplay::parse_selfplay(rest).map(|m| crate::selfplay::run(&m, out)),
        "tune" => tune::parse_tune(rest).map(|c| crate::tune::run::run(&c, out)),
        "train" => train::parse_train(rest).map(|c| c.run(out)),
        "spsa" => spsa::parse_spsa(rest).and_then(|c| crate::tune::spsa_run::run_spsa(&c, out)),
        "match" => match_options::parse_match(rest, out).map(|c| crate::matches::run(&c, out).map(|_| ())),
        "gauntlet" => gauntlet::gauntlet_command(rest, out),
        "positions" => positions::parse_positions(rest).and_then(|p| positions::run_positions(&p, out)),
        "agree" => agree::agree_command(rest, out),
        "rescore" => rescore::parse_rescore(rest).and_then(|r| crate::tune::rescore::run(&r, out)),
        "lib" => library::lib_command(rest, out),
        "merge" => merge::merge_command(rest, out),
        "book" => book::book_command(rest, out),
        "openings" => openings::openings_command(rest, out),
        "puppet" => match rest.iter().find(|a| a.starts_with("--")) {
            Some(a) => Err(format!("unknown option '{a}'")),
            None => return crate::protocol::puppet(rest, input, out),
        },
        "play" => play::parse_play(rest).map(|o| crate::terminal::play(&o, input, out)),
        "serve" => parse_serve(rest).map(|o| crate::serve::serve(&o, out)),
        other => Err(format!("unknown command '{other}'\n{}", help::overview())),
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
                && let Some(c) = help::command(command)
            {
                writeln!(out, "{}", c.usage)?;
            }
            out.flush()?;
            Ok(2)
        }
    }
}
