//! The engines the yardstick measures: Tengen's own search in this process (its move, and the played move searched
//! alone for the regret), or any Gomocup protocol engine (its move only), given each position as `BOARD … DONE`.

use super::results::Answer;
use crate::matches::parse_move;
use crate::matches::process::{EngineProcess, Read};
use crate::pattern::PatternBoard;
use crate::records::replay_moves;
use crate::records::selection::Position;
use crate::search::time::Clock;
use crate::search::tt::Table;
use crate::search::{SearchLimits, SearchOptions, search};
use crate::types::{Color, Pos};
use std::time::{Duration, Instant};

/// What each search may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// About this many nodes (the same on any machine, whatever else it runs).
    Nodes(u64),
    /// This many milliseconds a move, spent as the engine spends a move of that time with no match clock.
    Ms(u64),
    /// Iterations to this depth, whatever they cost (Tengen in this process only): what a shallow search, or the
    /// evaluation at depth 1, chooses.
    Depth(u32),
}

/// How long a search bounded by nodes may run at most (a backstop, as self-play's).
const NODES_BACKSTOP: Duration = Duration::from_secs(600);

/// Tengen's search, in this process, one thread a position.
#[derive(Clone, Debug)]
pub struct Tengen {
    /// Its options (evaluation, tables, tunable values).
    pub options: SearchOptions,
    /// Its transposition table's bytes (a fresh table for each search).
    pub table_bytes: usize,
}

impl Tengen {
    fn limits(&self, budget: Budget, stones: usize, only: Option<Pos>) -> SearchLimits<'static> {
        let start = Instant::now();
        match budget {
            Budget::Nodes(nodes) => {
                SearchLimits { nodes, maximum: Some(start + NODES_BACKSTOP), only, ..SearchLimits::default() }
            }
            Budget::Depth(depth) => SearchLimits {
                depth: depth as i32,
                maximum: Some(start + NODES_BACKSTOP),
                only,
                ..SearchLimits::default()
            },
            Budget::Ms(ms) => {
                let clock = Clock { turn_ms: ms, match_ms: 0, left_ms: None };
                let (optimum, maximum) = clock.budget(stones, &self.options.params).deadlines(start);
                SearchLimits { optimum: Some(optimum), maximum: Some(maximum), only, ..SearchLimits::default() }
            }
        }
    }

    /// Its answer in `p`: its own move and score, and where that is not the played move, the played move's score
    /// searched alone with the same budget (each search on a fresh table). The played move alone has the whole
    /// budget to itself and so is searched deeper than the choice it is compared with: the regret leans low, and a
    /// deeper look can rate the played move above the choice (a negative regret).
    #[must_use]
    pub fn answer(&self, p: &Position, budget: Budget, table: &mut Option<Table>) -> Answer {
        let mut answer = Answer::unanswered(p);
        let Some((pb, side)) = replay_moves(p.size, p.rule, &p.moves) else { return answer };
        let table = table.get_or_insert_with(|| Table::new(self.table_bytes));
        let start = Instant::now();
        table.clear();
        let own = search(&pb, side, table, &self.limits(budget, p.moves.len(), None), &self.options, |_| {});
        answer.chosen = own.best;
        answer.score = Some(own.score);
        answer.depth = own.depth;
        answer.nodes = own.nodes;
        if own.best.is_some_and(|b| b != p.played) {
            let (score, nodes) = self.alone(&pb, side, p, p.played, budget, table);
            answer.played_score = Some(score);
            answer.nodes += nodes;
        }
        answer.ms = start.elapsed().as_millis() as u64;
        answer
    }

    /// The score (for the side to move) of `m` in `p` searched alone with `budget` on a fresh table, and the nodes
    /// it took: a lost score for a move the side may not play (a taken point, a forbidden one); `None` when the
    /// position cannot be set up.
    #[must_use]
    pub fn score_alone(&self, p: &Position, m: Pos, budget: Budget, table: &mut Option<Table>) -> Option<(i32, u64)> {
        let (mut pb, side) = replay_moves(p.size, p.rule, &p.moves)?;
        if !m.on_board(p.size) || !crate::movegen::is_legal(&mut pb, side, m) {
            return Some((-(crate::search::MATE - 1), 0));
        }
        let table = table.get_or_insert_with(|| Table::new(self.table_bytes));
        Some(self.alone(&pb, side, p, m, budget, table))
    }

    /// The search of the legal move `m` alone in `pb` (`p`'s position, `side` to move) on a fresh table: its score
    /// and nodes.
    fn alone(&self, pb: &PatternBoard, side: Color, p: &Position, m: Pos, budget: Budget, table: &Table) -> (i32, u64) {
        table.clear();
        let report = search(pb, side, table, &self.limits(budget, p.moves.len(), Some(m)), &self.options, |_| {});
        (report.score, report.nodes)
    }
}

/// A Gomocup protocol engine: one process a worker, kept from position to position (`START` again for each) and
/// started afresh after it fails to answer.
#[derive(Clone, Debug)]
pub struct Outside {
    /// Its command line.
    pub command: String,
    /// The memory it is allowed (`INFO max_memory`), bytes.
    pub max_memory: u64,
    /// Milliseconds it may take beyond its turn before it counts as not answering.
    pub tolerance_ms: u64,
}

impl Outside {
    /// Its answer in `p` (no scores: only its move), restarting `process` if it fails.
    pub fn answer(&self, p: &Position, budget: Budget, process: &mut Option<EngineProcess>) -> Answer {
        let start = Instant::now();
        let chosen = self.ask(p, budget, process);
        if chosen.is_none()
            && let Some(e) = process.take()
        {
            e.end(Duration::from_millis(200));
        }
        Answer { chosen, ms: start.elapsed().as_millis() as u64, ..Answer::unanswered(p) }
    }

    /// The engine's move, or `None` when it cannot be started, does not answer in time or answers off the board.
    fn ask(&self, p: &Position, budget: Budget, process: &mut Option<EngineProcess>) -> Option<Pos> {
        if process.is_none() {
            *process = Some(EngineProcess::spawn(&self.command).ok()?);
        }
        let engine = process.as_mut()?;
        // Whatever it said after its last answer belongs to that position.
        while let Read::Line(_) = engine.read_until(Instant::now()) {}
        let (turn_ms, nodes) = match budget {
            Budget::Ms(ms) => (ms, None),
            Budget::Nodes(n) => (NODES_BACKSTOP.as_millis() as u64, Some(n)),
            // The protocol has no depth limit: the command refuses --depth with --engine.
            Budget::Depth(_) => (NODES_BACKSTOP.as_millis() as u64, None),
        };
        let mut lines = vec![
            format!("START {}", p.size),
            format!("INFO timeout_turn {turn_ms}"),
            "INFO timeout_match 0".to_string(),
            format!("INFO max_memory {}", self.max_memory),
            "INFO game_type 1".to_string(),
            format!("INFO rule {}", p.rule.info()),
        ];
        if let Some(n) = nodes {
            lines.push(format!("INFO max_node {n}"));
        }
        lines.push(format!("INFO time_left {}", crate::matches::game::NO_LIMIT));
        if p.moves.is_empty() {
            lines.push("BEGIN".to_string());
        } else {
            lines.push("BOARD".to_string());
            let mover = p.moves.len() % 2;
            for (i, m) in p.moves.iter().enumerate() {
                lines.push(format!("{},{},{}", m.x, m.y, if i % 2 == mover { 1 } else { 2 }));
            }
            lines.push("DONE".to_string());
        }
        let deadline = Instant::now() + Duration::from_millis(turn_ms + self.tolerance_ms);
        // `START` may be answered with `OK` (or `ERROR`, which the move request then also meets).
        lines.iter().try_for_each(|l| engine.send(l)).ok()?;
        loop {
            match engine.read_until(deadline) {
                Read::Line(line) => {
                    if let Some((x, y)) = parse_move(&line) {
                        let on = |v: i64| usize::try_from(v).ok().filter(|&v| v < p.size);
                        return Some(Pos::new(on(x)?, on(y)?));
                    }
                }
                Read::Timeout | Read::Closed => return None,
            }
        }
    }
}

/// A measured engine.
#[derive(Clone, Debug)]
pub enum Measured {
    /// Tengen in this process.
    Tengen(Box<Tengen>),
    /// A protocol engine.
    Outside(Outside),
}

/// One worker's state: a table or a process, kept from position to position.
#[derive(Default)]
pub struct WorkerState {
    table: Option<Table>,
    process: Option<EngineProcess>,
}

impl Drop for WorkerState {
    fn drop(&mut self) {
        if let Some(e) = self.process.take() {
            e.end(Duration::from_millis(500));
        }
    }
}

impl WorkerState {
    /// Its table, for a judge's searches.
    pub fn table(&mut self) -> &mut Option<Table> {
        &mut self.table
    }
}

impl Measured {
    /// Its answer in `p`.
    pub fn answer(&self, p: &Position, budget: Budget, state: &mut WorkerState) -> Answer {
        match self {
            Measured::Tengen(t) => t.answer(p, budget, &mut state.table),
            Measured::Outside(o) => o.answer(p, budget, &mut state.process),
        }
    }
}
