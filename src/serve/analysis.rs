//! The browser board's background work on a copy of a game: the analysis of one position (a deepening search whose
//! best line and candidates the page polls) and the review of a whole game (a search at every position, feeding the
//! evaluation graph). Both run on their own thread with their own engine and stop when asked or when their game goes.

use crate::engine::{Engine, Outlook};
use crate::search::Report;
use crate::search::time::Clock;
use crate::types::{Color, Pos, Rule};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// Hash table of each game's engine (its moves) and of a review: a game that has searched holds this much, and
/// up to [`super::api::MAX_GAMES`] games are kept.
pub const GAME_HASH_BYTES: usize = 16 << 20;
/// Hash table of a running analysis (long searches; freed when it ends).
const ANALYSIS_HASH_BYTES: usize = 64 << 20;
/// Candidates the analysis marks on the board.
const CANDIDATES: usize = 3;
/// The analysis stops by itself after a search of this long.
const ANALYSIS_MAX_MS: u64 = 120_000;
/// The review's time per position: the least and the most a request may ask.
pub const REVIEW_MS: (u64, u64) = (20, 10_000);

/// Black's win rate from a search's score for `side`, to move, with `stones` on the board under `rule` (the
/// calibrated curve of [`Outlook`]; a win 1, a loss 0).
pub fn win_rate(score: i32, side: Color, rule: Rule, stones: usize) -> f64 {
    Outlook::of(score, side, Color::Black, rule, stones).chance()
}

/// The same as a player reads it: `Black 62%`, `Black wins in 3` or `White wins in 3` (in the winner's moves).
pub fn verdict(score: i32, side: Color, rule: Rule, stones: usize) -> String {
    match Outlook::of(score, side, Color::Black, rule, stones) {
        Outlook::Win(n) => format!("Black wins in {n}"),
        Outlook::Loss(n) => format!("White wins in {n}"),
        seen => format!("Black {}", seen.text()),
    }
}

/// A lock that a panicked holder did not spoil (what it guards is whole after every write).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Forced replies (a four's block) looked past before a position is scored: the search answers them at once with
/// score 0, which says nothing about who stands better.
const FORCED_PLIES: usize = 8;

/// The engine's search of its position, looking past forced replies: while the answer is a lone forced move, it is
/// played and the position after it searched; the report is for the position itself (the forced moves lead its
/// principal variation, the score is for the side to move here). The engine's position is left as it was.
pub fn search_past_forced(
    engine: &mut Engine,
    stop: Option<&AtomicBool>,
    mut on_iteration: impl FnMut(&Report),
) -> Report {
    let mut forced = Vec::new();
    let through = |forced: &[Pos], r: &Report| {
        let mut out = r.clone();
        if !forced.is_empty() {
            out.score = if forced.len() % 2 == 0 { r.score } else { -r.score };
            out.pv = forced.iter().chain(&r.pv).copied().collect();
            out.best = forced.first().copied();
        }
        out
    };
    let mut report = engine.think(stop, &mut on_iteration);
    let first = report.clone();
    while report.source == "forced" && report.score == 0 && forced.len() < FORCED_PLIES {
        let Some(best) = report.best else { break };
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) || engine.play(best, engine.side_to_move()).is_err() {
            break;
        }
        if engine.winner().is_some() {
            let _ = engine.undo();
            break;
        }
        forced.push(best);
        report = engine.think(stop, |r| on_iteration(&through(&forced, r)));
    }
    for _ in 0..forced.len() {
        let _ = engine.undo();
    }
    if forced.is_empty() || report.best.is_none() {
        return first;
    }
    let mut out = through(&forced, &report);
    out.source = first.source;
    out
}

/// An engine with a table of `hash_bytes` at the position after `moves`, each move checked by the engine's rules.
///
/// # Errors
/// The board size, or the first move the engine does not accept.
pub fn engine_at(size: usize, rule: Rule, moves: &[Pos], hash_bytes: usize) -> Result<Engine, String> {
    let mut engine = Engine::new(size, rule).map_err(|e| e.to_string())?;
    engine.set_hash_bytes(hash_bytes);
    for (i, &p) in moves.iter().enumerate() {
        engine.play(p, Color::to_move(i)).map_err(|e| e.to_string())?;
    }
    Ok(engine)
}

/// Black's win rate at the positions of one line of play (the game's moves and its redo list), by number of moves.
/// Another line (a move off the redo list, a loaded game) starts a new generation, and a review still writing for
/// the old one is ignored.
#[derive(Debug, Default)]
pub struct Evals {
    generation: u64,
    points: BTreeMap<usize, f64>,
}

impl Evals {
    /// The line changed after `ply` moves: the evaluations past it no longer belong to it.
    pub fn branch(&mut self, ply: usize) {
        self.generation += 1;
        self.points.retain(|&p, _| p <= ply);
    }

    /// Records Black's win rate after `ply` moves.
    pub fn set(&mut self, ply: usize, rate: f64) {
        self.points.insert(ply, rate);
    }

    /// The evaluations, by number of moves.
    pub fn points(&self) -> &BTreeMap<usize, f64> {
        &self.points
    }
}

/// What the analysis thread publishes.
#[derive(Clone, Debug, Default)]
struct Snapshot {
    running: bool,
    report: Option<Report>,
    candidates: Vec<Report>,
}

/// A running analysis of one position: its stop flag and what it found so far.
pub struct Analysis {
    stop: Arc<AtomicBool>,
    snapshot: Arc<Mutex<Snapshot>>,
    /// The number of moves of the position it analyses.
    pub ply: usize,
}

impl Analysis {
    /// Starts analysing the position after `moves`.
    ///
    /// # Errors
    /// A move the engine does not accept.
    pub fn start(size: usize, rule: Rule, moves: &[Pos]) -> Result<Analysis, String> {
        let engine = engine_at(size, rule, moves, ANALYSIS_HASH_BYTES)?;
        let stop = Arc::new(AtomicBool::new(false));
        let snapshot = Arc::new(Mutex::new(Snapshot { running: true, ..Snapshot::default() }));
        let (thread_stop, thread_snapshot) = (Arc::clone(&stop), Arc::clone(&snapshot));
        std::thread::spawn(move || analyse(engine, &thread_stop, &thread_snapshot));
        Ok(Analysis { stop, snapshot, ply: moves.len() })
    }

    /// Stops the search; returns its deepest report, if it completed an iteration.
    pub fn stop(self) -> Option<Report> {
        self.stop.store(true, Ordering::Relaxed);
        lock(&self.snapshot).report.clone().filter(|r| r.depth > 0)
    }

    /// Whether it still searches, its best line so far and its candidates.
    pub fn read(&self) -> (bool, Option<Report>, Vec<Report>) {
        let s = lock(&self.snapshot);
        (s.running, s.report.clone(), s.candidates.clone())
    }
}

/// The analysis thread: searches of doubling length, the best line published at every iteration and the
/// candidates after each search, until stopped or [`ANALYSIS_MAX_MS`].
fn analyse(mut engine: Engine, stop: &AtomicBool, snapshot: &Mutex<Snapshot>) {
    let mut ms = 250;
    while !stop.load(Ordering::Relaxed) {
        engine.configure(|s| s.clock = Clock { turn_ms: ms, match_ms: 0, left_ms: None });
        let report = search_past_forced(&mut engine, Some(stop), |r| {
            let mut s = lock(snapshot);
            if s.report.as_ref().is_none_or(|old| r.depth >= old.depth) {
                s.report = Some(r.clone());
            }
        });
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let candidates = engine.think_best(Instant::now(), Some(stop), CANDIDATES, |_| {});
        {
            let mut s = lock(snapshot);
            if s.report.as_ref().is_none_or(|old| report.depth >= old.depth) {
                s.report = Some(report.clone());
            }
            if !stop.load(Ordering::Relaxed) || s.candidates.is_empty() {
                s.candidates = candidates;
            }
        }
        if ms >= ANALYSIS_MAX_MS || report.depth == 0 {
            break; // deep enough, or a forced answer that no longer search changes
        }
        ms = (ms * 2).min(ANALYSIS_MAX_MS);
    }
    lock(snapshot).running = false;
}

/// How far a review has come.
#[derive(Clone, Copy, Debug, Default)]
struct Progress {
    done: usize,
    running: bool,
}

/// A running review of a whole line of play: a search of fixed length at each of its positions, each result written
/// to the game's [`Evals`] as it comes.
pub struct Review {
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Progress>>,
    /// Positions to evaluate (the line's moves and one).
    pub total: usize,
    /// Time per position.
    pub ms: u64,
}

impl Review {
    /// Starts reviewing `line` (from the empty board) under `rule` at `ms` a position, writing to `evals` while its
    /// generation stays what it is now.
    ///
    /// # Errors
    /// A move of the line the engine does not accept.
    pub fn start(
        size: usize,
        rule: Rule,
        line: Vec<Pos>,
        ms: u64,
        evals: &Arc<Mutex<Evals>>,
    ) -> Result<Review, String> {
        let engine = engine_at(size, rule, &[], GAME_HASH_BYTES)?;
        let ms = ms.clamp(REVIEW_MS.0, REVIEW_MS.1);
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(Progress { done: 0, running: true }));
        let generation = lock(evals).generation;
        let total = line.len() + 1;
        let (thread_stop, thread_progress, thread_evals) =
            (Arc::clone(&stop), Arc::clone(&progress), Arc::clone(evals));
        std::thread::spawn(move || {
            review(engine, &line, ms, generation, &thread_stop, &thread_progress, &thread_evals);
        });
        Ok(Review { stop, progress, total, ms })
    }

    /// Positions evaluated so far, and whether it still runs.
    pub fn read(&self) -> (usize, bool) {
        let p = *lock(&self.progress);
        (p.done, p.running)
    }

    /// Asks the thread to stop (it ends within a node check).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for Review {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The review thread: at each position of `line` in turn, Black's win rate from a search of `ms` (a decided game:
/// 1 or 0), until the end of the line, a stop, or a new generation of the evaluations.
fn review(
    mut engine: Engine,
    line: &[Pos],
    ms: u64,
    generation: u64,
    stop: &AtomicBool,
    progress: &Mutex<Progress>,
    evals: &Mutex<Evals>,
) {
    engine.configure(|s| s.clock = Clock { turn_ms: ms, match_ms: 0, left_ms: None });
    for ply in 0..=line.len() {
        if stop.load(Ordering::Relaxed) || lock(evals).generation != generation {
            break;
        }
        let side = Color::to_move(ply);
        let rate = match engine.winner() {
            Some(winner) => Some(if winner == Color::Black { 1.0 } else { 0.0 }),
            None if engine.board().board().is_full() => Some(0.5),
            None => {
                let report = search_past_forced(&mut engine, Some(stop), |_| {});
                (report.best.is_some() && !stop.load(Ordering::Relaxed))
                    .then(|| win_rate(report.score, side, engine.board().rule(), ply))
            }
        };
        {
            let mut e = lock(evals);
            if e.generation != generation {
                break;
            }
            if let Some(rate) = rate {
                e.set(ply, rate);
            }
        }
        lock(progress).done = ply + 1;
        let Some(&p) = line.get(ply) else { break };
        if engine.winner().is_some() || engine.play(p, side).is_err() {
            break;
        }
    }
    lock(progress).running = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forced_block_is_looked_past_and_the_position_is_kept() {
        // Freestyle: Black's four H8-K8 is closed at G8; White's only move is L8, which the search answers at once.
        let moves: Vec<Pos> =
            ["h8", "g8", "i8", "a1", "j8", "a3", "k8"].iter().filter_map(|m| Pos::parse(m, 15).ok()).collect();
        let mut engine = engine_at(15, Rule::Freestyle, &moves, 1 << 20).expect("engine");
        engine.configure(|s| s.clock = Clock { turn_ms: 100, match_ms: 0, left_ms: None });
        let plain = engine.think(None, |_| {});
        assert_eq!((plain.source, plain.score), ("forced", 0), "{plain:?}");
        let mut seen = Vec::new();
        let report = search_past_forced(&mut engine, None, |r| seen.push(r.clone()));
        let l8 = Pos::parse("l8", 15).ok();
        assert_eq!((report.best, report.pv.first().copied()), (l8, l8), "{report:?}");
        assert!(report.pv.len() > 1 && report.depth > 0 && report.score != 0, "{report:?}");
        assert!(seen.iter().skip(1).all(|r| r.best == l8), "iterations past the block lead with it: {seen:?}");
        assert_eq!(engine.board().board().moves().len(), moves.len(), "the position is kept");
        assert_eq!(engine.side_to_move(), Color::White);
    }
}
