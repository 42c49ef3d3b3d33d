//! An SPSA run (`pbrain-tengen spsa`): the search's parameters tuned by games between two perturbed copies of the
//! engine, played in self-play ([`crate::selfplay::winner`]) in this process on every core asked for (see
//! [`super::spsa`] for the method and the state file). The state is read with the command line's settings over it,
//! and written after every batch, so that the same command resumes the run; the parameter path is printed as it
//! goes and, at the end, the values to ship.

use super::spsa::{Perturbation, State};
use crate::eval::EvalChoice;
use crate::search::params::Params;
use crate::selfplay::{Match, OpeningChoice, Player, openings, winner};
use crate::types::{Color, Rule};
use rayon::prelude::*;
use std::io::{self, Write};
use std::time::Instant;

/// What an SPSA run (`pbrain-tengen spsa`) is asked.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaRun {
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

/// The state to run: the file's (when it exists) with the command line's settings over it, checked.
fn load_state(c: &SpsaRun) -> Result<(State, bool), String> {
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
    std::fs::write(&tmp, state.to_text())
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(crate::problems::named(path))
}

/// Runs `spsa` as the command prints it.
///
/// # Errors
/// A bad state file or setting (as a message), output I/O errors and a state file that cannot be written.
pub fn run_spsa(c: &SpsaRun, out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let (mut state, resumed) = load_state(c)?;
    let rule: Rule = state.rule.parse()?;
    let eval = eval_choice(&state.eval)?;
    Ok(run(c, &mut state, resumed, rule, eval, out))
}

fn run(
    c: &SpsaRun,
    state: &mut State,
    resumed: bool,
    rule: Rule,
    eval: EvalChoice,
    out: &mut dyn Write,
) -> io::Result<()> {
    let start = Instant::now();
    writeln!(
        out,
        "{} {}: {} iterations planned, {} done; {} {}, tuning {} values ({}), batch {}, r_end {}, seed {}",
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
        state.selection.name(),
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
