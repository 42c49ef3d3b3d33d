//! The match runner: engine commands play each other over the Gomocup protocol, a fresh process per game as
//! GomocupJudge runs them, or with `keep_processes` one process per engine and concurrent game kept from game to
//! game as Piskvork and c-gomoku-cli run them ([`game`]), judged by our own rules (the pattern board's exact
//! checks, never the search).
//!
//! Every pair of engines plays `games` games; the first engine of a pair has Black in the odd games (1, 3, …), and
//! each opening serves two games in a row with colours swapped, so game pairs give pentanomial counts for the
//! Elo margin and the SPRT ([`stats`]). Games run `concurrency` at a time; each finished game is printed at once
//! (and written as SGF when asked); the match ends with a results table and, for two engines, the line
//! `Score of A vs B: W - L - D` from the first engine's side ([`tally`]). A run can be split into shards that other
//! machines play, each writing a results file that `merge` puts back together ([`shard`]).

mod config;
pub mod game;
pub mod gauntlet;
mod negotiation;
pub mod paired;
pub mod pool;
pub mod process;
pub mod runner_sgf;
pub mod sgf;
pub mod shard;
pub mod stats;
pub mod tally;
mod terms;

pub use config::{EngineSpec, MatchConfig, Shard, default_draw_at, keeps_processes, processes_word};
pub use game::{GameRecord, Outcome};
pub use stats::{Decision, Sprt, elo_estimate, elo_pentanomial};
pub use tally::{GameResult, Ledger, MatchSummary, Tally};
pub use terms::{Forfeit, GameSetup, parse_move};

use crate::types::{Color, Pos};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// A game to play.
#[derive(Clone, Copy, Debug)]
struct Job {
    /// Index into the pair list.
    pair: usize,
    /// Game number within the pair, from 0 (even: the pair's first engine has Black).
    game: usize,
}

/// Plays the match (or its shard), writing a line per game and the results.
///
/// # Errors
/// Output I/O errors, and SGF or results files that cannot be written.
pub fn run(config: &MatchConfig, out: &mut dyn Write) -> io::Result<MatchSummary> {
    let pairs = config.pairs();
    let all: Vec<Job> =
        (0..config.games).flat_map(|game| (0..pairs.len()).map(move |pair| Job { pair, game })).collect();
    let total = all.len();
    // The games of this shard, each with its index in the whole run's list (its round is the index + 1).
    let jobs: Vec<(usize, Job)> = all
        .into_iter()
        .enumerate()
        .filter(|(_, job)| config.shard.is_none_or(|s| s.plays(config.games, job.game)))
        .collect();
    if let Some(dir) = &config.sgf_dir {
        std::fs::create_dir_all(dir).map_err(crate::problems::named(dir.display()))?;
    }
    let mut results = match &config.results {
        Some(path) => Some(shard::ResultsWriter::create(path, config)?),
        None => None,
    };
    let mut games_out = match &config.games_out {
        Some(path) => Some(crate::records::create_game_file(path)?),
        None => None,
    };
    let mut ledger = Ledger::new(pairs.len());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut decision = None;
    let (tx, rx) = channel::<(usize, GameRecord)>();
    let result: io::Result<()> = std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, 64).min(jobs.len().max(1)) {
            let tx = tx.clone();
            let (jobs, pairs, next, stop) = (&jobs, &pairs, &next, &stop);
            scope.spawn(move || {
                // With kept processes each worker holds its own process of every engine, as each of a runner's
                // concurrent games has its own pair.
                let mut kept: Vec<Option<game::EngineProcess>> = config.engines.iter().map(|_| None).collect();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(_, job)) = jobs.get(k) else { break };
                    let setup = setup(config, pairs[job.pair], job.game);
                    let record = if config.keep_processes {
                        let [a, b] = seat_engines(pairs[job.pair], job.game);
                        let mut seats = [kept[a].take(), kept[b].take()];
                        let record = game::play_kept(&setup, &mut seats);
                        [kept[a], kept[b]] = seats;
                        record
                    } else {
                        game::play(&setup)
                    };
                    if tx.send((k, record)).is_err() {
                        break;
                    }
                }
                game::end_kept(kept.into_iter().flatten());
            });
        }
        drop(tx);
        for (k, record) in rx {
            let (index, job) = jobs[k];
            let (first, second) = pairs[job.pair];
            // Under an opening rule the colours come out of the negotiation.
            let first_black = (job.game % 2 == 0) != record.swapped;
            let names = if first_black {
                [config.engines[first].name.as_str(), config.engines[second].name.as_str()]
            } else {
                [config.engines[second].name.as_str(), config.engines[first].name.as_str()]
            };
            let first_color = if first_black { Color::Black } else { Color::White };
            let winner = record.outcome.winner();
            let round = index + 1;
            let game = GameResult {
                round,
                pair: job.pair,
                game: job.game,
                points: match winner {
                    None => 1,
                    Some(c) if c == first_color => 2,
                    Some(_) => 0,
                },
                forfeit: match record.outcome {
                    Outcome::Forfeit(c, _) => Some(usize::from(c != first_color)),
                    _ => None,
                },
                slowest_ms: [first_color, first_color.opponent()].map(|c| record.slowest_ms[c.index()]),
                winner,
            };
            ledger.add(&game);
            if let Some(w) = results.as_mut() {
                w.game(&game)?;
            }
            let negotiated = config.opening_rule.map_or(String::new(), |rule| {
                // The game's first player is the pair's first engine in even games.
                let tentative = if job.game % 2 == 0 { [first, second] } else { [second, first] };
                let players = tentative.map(|i| config.engines[i].name.as_str());
                format!(" ({rule}: {})", sgf::negotiation_text(&record, players))
            });
            writeln!(
                out,
                "game {round}/{total}: {} (black) vs {} (white), opening {}{negotiated}: {} {}, {} moves, {:.1} s / {:.1} s",
                names[0],
                names[1],
                opening_text(&record.opening, config.size),
                record.outcome.score(),
                sgf::describe(&record, config.size),
                record.moves.len(),
                record.used_ms[0] as f64 / 1000.0,
                record.used_ms[1] as f64 / 1000.0,
            )?;
            for (c, line) in record.log.iter().filter(|(_, l)| unexpected(l)).take(3) {
                writeln!(out, "  {} said: {line}", names[c.index()])?;
            }
            out.flush()?;
            if let (Some(file), Some(game)) = (games_out.as_mut(), training_record(&record, names, config)) {
                crate::records::write_game(file, &game)?;
                file.flush()?;
            }
            if let Some(dir) = &config.sgf_dir {
                let path = dir.join(format!("game-{round:04}.sgf"));
                let text = sgf::game_sgf(&record, names, config.rule, config.size, round);
                std::fs::write(&path, text).map_err(crate::problems::named(path.display()))?;
            }
            // A shard plays all its games: the SPRT decides on the merged results.
            if let Some(sprt) = &config.sprt
                && decision.is_none()
                && config.shard.is_none()
            {
                let d = sprt.decide(&ledger.tallies[0].penta);
                if d != Decision::Continue {
                    decision = Some(d);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        Ok(())
    });
    result?;
    if let Some(w) = results {
        w.finish(ledger.games)?;
    }
    let summary = ledger.summary(&pairs, config.sprt.map(|_| decision.unwrap_or(Decision::Continue)));
    tally::write_results(config, &ledger, &summary, out)?;
    Ok(summary)
}

/// A finished game as a training record: the opening and the moves, Black's and White's names, and the score each
/// engine said for its moves (none for the opening). A forbidden move of Black's is kept as the record's last point
/// (a loss by the rule, which the book counts and training leaves out); any other forfeit is no record: time, a
/// crash or a bad reply did not come from the position.
fn training_record(record: &GameRecord, names: [&str; 2], config: &MatchConfig) -> Option<crate::records::GameRecord> {
    use crate::records::{NO_SCORE, Outcome as Result, stored_score};
    let mut forbidden_end = None;
    let outcome = match &record.outcome {
        Outcome::Forfeit(Color::Black, Forfeit::Forbidden(p, _)) => {
            forbidden_end = Some(*p);
            Result::WhiteWins
        }
        Outcome::Forfeit(..) => return None,
        Outcome::Five(Color::Black, _) => Result::BlackWins,
        Outcome::Five(Color::White, _) => Result::WhiteWins,
        Outcome::Draw(_) => Result::Draw,
    };
    let said = record.scores.iter().map(|s| s.map_or(NO_SCORE, stored_score));
    let scores: Vec<i16> = record.opening.iter().map(|_| NO_SCORE).chain(said).collect();
    let any = scores.iter().any(|&s| s != NO_SCORE);
    Some(crate::records::GameRecord {
        rule: config.rule,
        size: config.size,
        outcome,
        opening: record.opening.len(),
        moves: record.opening.iter().copied().chain(record.moves.iter().map(|m| m.0)).collect(),
        scores: any.then_some(scores),
        players: Some(names.map(str::to_string)),
        best: None,
        forbidden_end,
    })
}

/// Whether an engine's non-move line is worth showing: not the `OK` to START, nor a `MESSAGE` or `DEBUG` line.
fn unexpected(line: &str) -> bool {
    let upper = line.trim().to_ascii_uppercase();
    !(upper == "OK" || upper.starts_with("MESSAGE") || upper.starts_with("DEBUG"))
}

/// The engines (indices into the config's list) of game `game`'s two commands: Black's and White's, or under an
/// opening rule the first and the second player's.
fn seat_engines((first, second): (usize, usize), game: usize) -> [usize; 2] {
    if game % 2 == 0 { [first, second] } else { [second, first] }
}

/// The setup of game `game` (from 0) of the pair `(first, second)`.
fn setup(config: &MatchConfig, pair: (usize, usize), game: usize) -> GameSetup {
    let [black, white] = seat_engines(pair, game);
    let opening = if config.openings.is_empty() {
        Vec::new()
    } else {
        config.openings[(game / 2) % config.openings.len()].clone()
    };
    let opening = if config.opening_rule.is_some() { Vec::new() } else { opening };
    GameSetup {
        commands: [config.engines[black].command.clone(), config.engines[white].command.clone()],
        rule: config.rule,
        size: config.size,
        opening,
        turn_ms: config.turn_ms,
        match_ms: config.match_ms,
        tolerance_ms: config.tolerance_ms,
        max_memory: config.max_memory,
        draw_at: config.draw_at,
        suspend: config.suspend,
        opening_rule: config.opening_rule,
    }
}

fn opening_text(opening: &[Pos], size: usize) -> String {
    if opening.is_empty() { "(empty)".to_string() } else { crate::openings::format_opening(opening, size) }
}
