//! The match runner: engine commands play each other over the Gomocup protocol, a fresh process per game as
//! GomocupJudge runs them ([`game`]), judged by our own rules (the pattern board's exact checks, never the search).
//!
//! Every pair of engines plays `games` games; the first engine of a pair has Black in the odd games (1, 3, …), and
//! each opening serves two games in a row with colours swapped, so game pairs give pentanomial counts for the
//! Elo margin and the SPRT ([`stats`]). Games run `concurrency` at a time; each finished game is printed at once
//! (and written as SGF when asked); the match ends with a results table and, for two engines, the line
//! `Score of A vs B: W - L - D` from the first engine's side.

pub mod game;
mod negotiation;
pub mod process;
pub mod sgf;
pub mod stats;

pub use game::{Forfeit, GameRecord, GameSetup, Outcome};
pub use stats::{Decision, Sprt, elo_estimate, elo_pentanomial};

use crate::types::{Color, Pos, Rule};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// An engine taking part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its name in the output.
    pub name: String,
    /// The shell command line that starts it.
    pub command: String,
}

/// A match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines; every pair plays.
    pub engines: Vec<EngineSpec>,
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Games per pair of engines.
    pub games: usize,
    /// Time per move (ms).
    pub turn_ms: u64,
    /// Time per game and side (ms; 0: none).
    pub match_ms: u64,
    /// How late an answer may be (ms).
    pub tolerance_ms: u64,
    /// Memory limit per engine (bytes; 0: none).
    pub max_memory: u64,
    /// Draw when this many stones are on the board.
    pub draw_at: usize,
    /// The openings, each used for two games in a row; empty: every game from the empty board.
    pub openings: Vec<Vec<Pos>>,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Where SGF records go.
    pub sgf_dir: Option<PathBuf>,
    /// Stop early when the SPRT decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Suspend engines while it is not their turn (GomocupJudge does).
    pub suspend: bool,
    /// Negotiate the first moves by this opening rule instead of playing the openings (the pair's first engine is
    /// the tentative Black of the odd games).
    pub opening_rule: Option<crate::opening_rule::OpeningRule>,
}

impl MatchConfig {
    /// A match of `engines` with the judge's defaults: renju on 15×15, two games, 1 s a move, no game clock,
    /// 1000 ms tolerance, 350 MiB, the renju league's draw at `size² − 25` stones, the 26 renju openings.
    #[must_use]
    pub fn new(engines: Vec<EngineSpec>) -> MatchConfig {
        MatchConfig {
            engines,
            rule: Rule::Renju,
            size: 15,
            games: 2,
            turn_ms: 1_000,
            match_ms: 0,
            tolerance_ms: 1_000,
            max_memory: 367_001_600,
            draw_at: default_draw_at(Rule::Renju, 15),
            openings: crate::openings::renju_openings(15, Rule::Renju),
            concurrency: 1,
            sgf_dir: None,
            sprt: None,
            suspend: true,
            opening_rule: None,
        }
    }
}

/// The stone count at which a game is drawn by default: `size² − 25` in renju (GomocupJudge's 200-stone rule on
/// 15×15), the full board otherwise.
#[must_use]
pub fn default_draw_at(rule: Rule, size: usize) -> usize {
    if rule == Rule::Renju { size * size - 25 } else { size * size }
}

/// One pair's results, from the first engine's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins, losses and draws of the pair's first engine.
    pub wins: usize,
    /// Losses.
    pub losses: usize,
    /// Draws.
    pub draws: usize,
    /// Game pairs (same opening, colours swapped) by the first engine's points: 0, ½, 1, 1½, 2.
    pub penta: [usize; 5],
    /// Forfeits of the first and the second engine.
    pub forfeits: [usize; 2],
    /// The slowest answer of the first and the second engine over the pair's games (ms).
    pub slowest_ms: [u64; 2],
}

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Per pair `(i, j)` of engine indices, from `i`'s side.
    pub pairs: Vec<((usize, usize), Tally)>,
    /// Games played.
    pub games: usize,
    /// The SPRT's decision, if one ran.
    pub sprt: Option<Decision>,
}

/// A game to play.
#[derive(Clone, Copy, Debug)]
struct Job {
    /// Index into the pair list.
    pair: usize,
    /// Game number within the pair, from 0 (even: the pair's first engine has Black).
    game: usize,
}

/// Plays the match, writing a line per game and the results.
///
/// # Errors
/// Output I/O errors, and SGF files that cannot be written.
pub fn run(config: &MatchConfig, out: &mut dyn Write) -> io::Result<MatchSummary> {
    let n = config.engines.len();
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect();
    let jobs: Vec<Job> =
        (0..config.games).flat_map(|game| (0..pairs.len()).map(move |pair| Job { pair, game })).collect();
    if let Some(dir) = &config.sgf_dir {
        std::fs::create_dir_all(dir)?;
    }
    let mut tallies = vec![Tally::default(); pairs.len()];
    // The first game of each opening pair, waiting for its partner: (pair, game / 2) → first engine's points ×2.
    let mut halves: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut played = 0;
    let mut decision = None;
    // Black's wins, losses and draws over all games (what an opening rule is meant to balance).
    let mut black = [0usize; 3];
    let total = jobs.len();
    let (tx, rx) = channel::<(usize, GameRecord)>();
    let result: io::Result<()> = std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, 64).min(total.max(1)) {
            let tx = tx.clone();
            let (jobs, pairs, next, stop) = (&jobs, &pairs, &next, &stop);
            scope.spawn(move || {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(k) else { return };
                    let record = game::play(&setup(config, pairs[job.pair], job.game));
                    if tx.send((k, record)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for (k, record) in rx {
            let job = jobs[k];
            let (first, second) = pairs[job.pair];
            // Under an opening rule the colours come out of the negotiation.
            let first_black = (job.game % 2 == 0) != record.swapped;
            let names = if first_black {
                [config.engines[first].name.as_str(), config.engines[second].name.as_str()]
            } else {
                [config.engines[second].name.as_str(), config.engines[first].name.as_str()]
            };
            played += 1;
            let first_color = if first_black { Color::Black } else { Color::White };
            let points = match record.outcome.winner() {
                None => 1,
                Some(c) if c == first_color => 2,
                Some(_) => 0,
            };
            black[match record.outcome.winner() {
                Some(Color::Black) => 0,
                Some(Color::White) => 1,
                None => 2,
            }] += 1;
            let tally = &mut tallies[job.pair];
            match points {
                2 => tally.wins += 1,
                0 => tally.losses += 1,
                _ => tally.draws += 1,
            }
            if let Outcome::Forfeit(c, _) = record.outcome {
                tally.forfeits[usize::from(c != first_color)] += 1;
            }
            for c in [Color::Black, Color::White] {
                let k = usize::from(c != first_color);
                tally.slowest_ms[k] = tally.slowest_ms[k].max(record.slowest_ms[c.index()]);
            }
            if let Some(other) = halves.remove(&(job.pair, job.game / 2)) {
                tally.penta[other + points] += 1;
            } else {
                halves.insert((job.pair, job.game / 2), points);
            }
            let round = k + 1;
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
            if let Some(dir) = &config.sgf_dir {
                let path = dir.join(format!("game-{round:04}.sgf"));
                std::fs::write(path, sgf::game_sgf(&record, names, config.rule, config.size, round))?;
            }
            if let Some(sprt) = &config.sprt
                && decision.is_none()
            {
                let d = sprt.decide(&tallies[0].penta);
                if d != Decision::Continue {
                    decision = Some(d);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        Ok(())
    });
    result?;
    if config.opening_rule.is_some() && played > 0 {
        let [w, l, d] = black;
        let (elo, margin) = elo_estimate(w, l, d);
        let score = (w as f64 + d as f64 / 2.0) / played as f64;
        // The score's 95% margin from the Elo margin's width around the score.
        let half = ((stats::score_of_elo(elo + margin) - stats::score_of_elo(elo - margin)) / 2.0).abs();
        writeln!(
            out,
            "Black: {w} - {l} - {d}, score {:.1}% +/- {:.1}% (95%)",
            score * 100.0,
            if half.is_finite() { half * 100.0 } else { 50.0 }
        )?;
    }
    let summary = MatchSummary {
        pairs: pairs.iter().copied().zip(tallies).collect(),
        games: played,
        sprt: config.sprt.map(|_| decision.unwrap_or(Decision::Continue)),
    };
    report(config, &summary, out)?;
    Ok(summary)
}

/// Whether an engine's non-move line is worth showing: not the `OK` to START, nor a `MESSAGE` or `DEBUG` line.
fn unexpected(line: &str) -> bool {
    let upper = line.trim().to_ascii_uppercase();
    !(upper == "OK" || upper.starts_with("MESSAGE") || upper.starts_with("DEBUG"))
}

/// The setup of game `game` (from 0) of the pair `(first, second)`.
fn setup(config: &MatchConfig, (first, second): (usize, usize), game: usize) -> GameSetup {
    let (black, white) = if game % 2 == 0 { (first, second) } else { (second, first) };
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

/// The results table, the SPRT's state and the score lines.
fn report(config: &MatchConfig, summary: &MatchSummary, out: &mut dyn Write) -> io::Result<()> {
    let name = |i: usize| config.engines[i].name.as_str();
    writeln!(out, "{} games played", summary.games)?;
    if config.engines.len() > 2 {
        writeln!(
            out,
            "{:<4} {:<16} {:>6} {:>6} {:>6} {:>6} {:>7}",
            "rank", "engine", "games", "wins", "losses", "draws", "score"
        )?;
        let mut rows: Vec<(usize, [usize; 3])> = (0..config.engines.len()).map(|i| (i, [0; 3])).collect();
        for &((i, j), ref t) in &summary.pairs {
            for (k, w, l) in [(i, t.wins, t.losses), (j, t.losses, t.wins)] {
                rows[k].1[0] += w;
                rows[k].1[1] += l;
                rows[k].1[2] += t.draws;
            }
        }
        let points = |r: &[usize; 3]| 2 * r[0] + r[2];
        rows.sort_by_key(|(i, r)| (std::cmp::Reverse(points(r)), *i));
        for (rank, (i, r)) in rows.iter().enumerate() {
            let games = r.iter().sum::<usize>().max(1);
            let score = points(r) as f64 / (2 * games) as f64 * 100.0;
            writeln!(
                out,
                "{:<4} {:<16} {:>6} {:>6} {:>6} {:>6} {:>6.1}%",
                rank + 1,
                name(*i),
                r.iter().sum::<usize>(),
                r[0],
                r[1],
                r[2],
                score
            )?;
        }
    }
    for &((i, j), ref t) in &summary.pairs {
        let pairs: usize = t.penta.iter().sum();
        // A score of 0% or 100% has no finite Elo.
        let one_sided = (t.wins + t.draws == 0 || t.losses + t.draws == 0).then_some(t.wins > 0);
        let elo_text = |(elo, margin): (f64, f64)| match one_sided {
            Some(true) => "Elo +inf (every game won)".to_string(),
            Some(false) => "Elo -inf (every game lost)".to_string(),
            None => format!("Elo {elo:+.0} +/- {margin:.0} (95%)"),
        };
        let games = t.wins + t.losses + t.draws;
        let score = if games == 0 { 0.0 } else { (t.wins as f64 + t.draws as f64 / 2.0) / games as f64 * 100.0 };
        writeln!(
            out,
            "{} vs {}: {games} games, score {score:.1}%, {}",
            name(i),
            name(j),
            elo_text(elo_estimate(t.wins, t.losses, t.draws))
        )?;
        if pairs > 0 {
            writeln!(
                out,
                "  pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for {}): {:?}, {}",
                name(i),
                t.penta,
                elo_text(elo_pentanomial(&t.penta))
            )?;
        }
        if t.forfeits != [0, 0] {
            writeln!(out, "  forfeits: {} {}, {} {}", name(i), t.forfeits[0], name(j), t.forfeits[1])?;
        }
        if games > 0 {
            writeln!(out, "  slowest answer: {} {} ms, {} {} ms", name(i), t.slowest_ms[0], name(j), t.slowest_ms[1])?;
        }
    }
    if let (Some(sprt), Some(decision)) = (&config.sprt, summary.sprt) {
        let penta = &summary.pairs[0].1.penta;
        let (low, high) = sprt.bounds();
        let verdict = match decision {
            Decision::H1 => "H1 accepted",
            Decision::H0 => "H0 accepted",
            Decision::Continue => "no decision",
        };
        writeln!(
            out,
            "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} (bounds {low:.2}, {high:.2}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(penta)
        )?;
    }
    for &((i, j), ref t) in &summary.pairs {
        writeln!(out, "Score of {} vs {}: {} - {} - {}", name(i), name(j), t.wins, t.losses, t.draws)?;
    }
    out.flush()
}
