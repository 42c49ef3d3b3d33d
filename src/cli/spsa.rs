//! `spsa`: tunes the search's parameters by games between two perturbed copies of the engine, in this process on
//! every core asked for (see [`crate::tune::spsa`] for the method). The run's state is a text file written after
//! every batch; the same command resumes it. It prints the parameter path as it goes and, at the end, the values
//! to ship.

use super::OptionCursor;
use crate::eval::EvalChoice;
use crate::search::params::Params;
use crate::selfplay::{Match, OpeningChoice, Player, openings, winner};
use crate::tune::spsa::{Perturbation, State};
use crate::types::{Color, Rule};
use rayon::prelude::*;
use std::io::{self, Write};
use std::time::Instant;

/// What `spsa` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaCommand {
    /// The state file (read when it exists, written after every batch).
    pub state: String,
    /// Settings given on the command line, applied over the file's (or the defaults, for a new run).
    pub settings: Vec<(String, String)>,
    /// Games at a time.
    pub concurrency: usize,
    /// Iterations to play in this run at most (0: to the end of the plan).
    pub stop_after: u64,
    /// Print the path every this many batches.
    pub report: u64,
}

/// Parses the options of `spsa`.
///
/// # Errors
/// A message naming a bad or unknown option.
pub fn parse_spsa(args: &[String]) -> Result<SpsaCommand, String> {
    let mut c = SpsaCommand { state: String::new(), settings: Vec::new(), concurrency: 1, stop_after: 0, report: 1 };
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        const SETTINGS: [&str; 10] = [
            "--iterations",
            "--batch",
            "--seed",
            "--r-end",
            "--tune",
            "--rule",
            "--nodes",
            "--turn-ms",
            "--match-ms",
            "--eval",
        ];
        let known = ["--state", "--concurrency", "--stop-after", "--report"].contains(&name.as_str())
            || SETTINGS.contains(&name.as_str());
        if !known {
            return Err(format!("unknown option '{name}'"));
        }
        let value = cursor.value(&name, &inline)?;
        let number =
            |what: &str| -> Result<u64, String> { value.trim().parse().map_err(|_| format!("bad {what} '{value}'")) };
        match name.as_str() {
            "--state" => c.state = value,
            "--concurrency" => c.concurrency = (number("game count")? as usize).clamp(1, 64),
            "--stop-after" => c.stop_after = number("iteration count")?,
            "--report" => c.report = number("batch count")?.max(1),
            // The game settings go through the state file's reader (see `load_state`).
            _ => c.settings.push((name.trim_start_matches("--").replace('-', "_"), value)),
        }
    }
    if c.state.is_empty() {
        return Err("spsa needs --state FILE (a new run starts there, an old one resumes)".to_string());
    }
    Ok(c)
}

/// The state to run: the file's (when it exists) with the command line's settings over it, checked.
fn load_state(c: &SpsaCommand) -> Result<(State, bool), String> {
    let (text, resumed) = match std::fs::read_to_string(&c.state) {
        Ok(text) => (text, true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => (State::default().to_text(), false),
        Err(e) => return Err(format!("cannot read {}: {e}", c.state)),
    };
    let mut state = State::parse(&text).map_err(|e| format!("{}: {e}", c.state))?;
    if !c.settings.is_empty() {
        // The settings go through the file's own reader, so that they are checked the same way.
        let mut lines: Vec<String> = state.to_text().lines().map(str::to_string).collect();
        for (key, value) in &c.settings {
            let line = format!("{key} {value}");
            match lines.iter_mut().find(|l| l.split_whitespace().next() == Some(key.as_str())) {
                Some(l) => *l = line,
                None => lines.push(line),
            }
        }
        state = State::parse(&(lines.join("\n") + "\n")).map_err(|e| format!("the command line: {e}"))?;
    }
    state.rule.parse::<Rule>()?;
    eval_choice(&state.eval)?;
    if state.nodes == 0 && state.turn_ms == 0 && state.match_ms == 0 {
        return Err("the games need --nodes, --turn-ms or --match-ms".to_string());
    }
    Ok((state, resumed))
}

/// `default`, `classical`, `network` or a network file.
fn eval_choice(word: &str) -> Result<EvalChoice, String> {
    word.parse::<EvalChoice>().or_else(|_| EvalChoice::load(word))
}

/// Writes the state file (through a temporary file, so that a stop in the middle leaves the old one whole).
fn save(path: &str, state: &State) -> io::Result<()> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, state.to_text())?;
    std::fs::rename(&tmp, path)
}

/// Runs `spsa`.
///
/// # Errors
/// A bad state file or setting (as a message), output I/O errors and a state file that cannot be written.
pub fn run_spsa(c: &SpsaCommand, out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let (mut state, resumed) = load_state(c)?;
    let rule: Rule = state.rule.parse()?;
    let eval = eval_choice(&state.eval)?;
    Ok(run(c, &mut state, resumed, rule, eval, out))
}

fn run(
    c: &SpsaCommand,
    state: &mut State,
    resumed: bool,
    rule: Rule,
    eval: EvalChoice,
    out: &mut dyn Write,
) -> io::Result<()> {
    let start = Instant::now();
    writeln!(
        out,
        "{} {}: {} iterations planned, {} done; {} {}, tuning {} values ({:?}), batch {}, r_end {}, seed {}",
        if resumed { "resuming" } else { "starting" },
        c.state,
        state.iterations,
        state.done,
        state.rule,
        if state.nodes > 0 {
            format!("{} nodes a move", state.nodes)
        } else {
            format!("{} ms a move, {} ms a game", state.turn_ms, state.match_ms)
        },
        Params::SPECS.iter().filter(|s| state.selection.includes(s)).count(),
        state.selection,
        state.batch,
        state.r_end,
        state.seed,
    )?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(c.concurrency).build().map_err(io::Error::other)?;
    let template = Match {
        rule,
        games: 2,
        turn_ms: if state.nodes > 0 { 10_000 } else { state.turn_ms.max(1) },
        match_ms: if state.nodes > 0 { 0 } else { state.match_ms },
        openings: OpeningChoice::Varied,
        random_plies: 2,
        ..Match::default()
    };
    let nodes = state.nodes;
    let player = |params: Params| Player { nodes, eval, params, ..Player::default() };
    let mut played = 0;
    let mut batches = 0;
    while state.done < state.iterations && (c.stop_after == 0 || played < c.stop_after) {
        let mut n = state.batch.min(state.iterations - state.done);
        if c.stop_after > 0 {
            n = n.min(c.stop_after - played);
        }
        let perturbations: Vec<Perturbation> = (state.done..state.done + n).map(|k| state.perturb(k)).collect();
        // Every game of the batch at once: (iteration, the + set Black?).
        let games: Vec<(usize, bool)> = (0..perturbations.len()).flat_map(|i| [(i, true), (i, false)]).collect();
        let results: Vec<Option<bool>> = pool.install(|| {
            games
                .par_iter()
                .map(|&(i, plus_black)| {
                    let p = &perturbations[i];
                    let m = Match { seed: p.game_seed, ..template.clone() };
                    let opening = openings(&m).into_iter().next().unwrap_or_default();
                    let (plus, minus) = (player(p.plus), player(p.minus));
                    let players = if plus_black { [plus, minus] } else { [minus, plus] };
                    // Whether the + set won (none: a draw).
                    winner(&m, &opening, players, p.game_seed).map(|w| (w == Color::Black) == plus_black)
                })
                .collect()
        });
        for (i, p) in perturbations.iter().enumerate() {
            let pair = &results[2 * i..2 * i + 2];
            let wins = pair.iter().filter(|r| **r == Some(true)).count() as u64;
            let losses = pair.iter().filter(|r| **r == Some(false)).count() as u64;
            state.update(p, wins, losses, 2 - wins - losses);
            state.done += 1;
        }
        played += n;
        batches += 1;
        save(&c.state, state)?;
        if batches % c.report == 0 || state.done == state.iterations {
            let [w, l, d] = state.score;
            writeln!(out, "{} | + sets {w}-{l}-{d} | {:.0} s", state.path_line(), start.elapsed().as_secs_f64())?;
            out.flush()?;
        }
    }
    let shipped = state.params();
    writeln!(out, "values after {} iterations (rounded; the defaults in brackets):", state.done)?;
    for ((spec, v), d) in Params::SPECS.iter().zip(shipped.values()).zip(Params::DEFAULT.values()) {
        if state.selection.includes(spec) {
            writeln!(out, "  {} = {v} ({d})", spec.name)?;
        }
    }
    Ok(())
}
