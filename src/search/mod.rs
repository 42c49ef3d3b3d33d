//! The search: iterative deepening with aspiration windows over a principal variation search, a shared lock-free
//! transposition table, move ordering by TT move, learned attack and defence values per pattern code, killers and
//! history, late move reductions, the VCF solver as the quiescence search at the leaves and VCF/VCT attempts at the
//! root, and Lazy SMP threads.
//!
//! Scores are from the side to move's point of view. A win whose five is the move made at ply `p` (the root's
//! moves are ply 1) scores `MATE - p`; a loss the reverse; a draw 0.

mod busy;
mod census;
mod guard;
mod history;
pub mod params;
mod picker;
mod reductions;
mod stack;
pub mod time;
pub mod tt;
mod vote;
mod worker;

use crate::eval::{EvalChoice, WeightsRef, order_value};
use crate::movegen::{Candidates, candidates};
use crate::pattern::PatternBoard;
use crate::threat::{Limits, Solution, Vcf, VcfOptions, Vct, VctOptions};
use crate::types::{Color, Pos};
use busy::Busy;
pub use census::{CENSUS_DEPTHS, Census, CensusSink};
use guard::Guard;
use params::ROOT_VCF_NODES;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::Table;
use worker::Worker;

/// The score of a five made on the next move.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses found by the search.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub(crate) const INFINITE: i32 = MATE + 1;
/// The deepest ply a search reaches.
pub const MAX_PLY: usize = 120;
/// The deepest iteration.
pub const MAX_DEPTH: i32 = 60;

/// What bounds one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLimits<'a> {
    /// Deepest iteration (0: [`MAX_DEPTH`]).
    pub depth: i32,
    /// Stop after about this many nodes (0: no limit).
    pub nodes: u64,
    /// When the search should end: the time manager's target (see [`time::Manager`]), which it may stretch
    /// towards `maximum` when the best move is unsettled or shrink when it is stable.
    pub optimum: Option<Instant>,
    /// The search stops at this instant.
    pub maximum: Option<Instant>,
    /// Set by another thread to stop the search (it still answers a move).
    pub stop: Option<&'a AtomicBool>,
    /// Root moves not to consider (for the n best moves: the ones already found). With any, the root's forced
    /// answers, VCF and VCT shortcuts are skipped and every legal move near the stones is searched.
    pub exclude: &'a [Pos],
    /// Search this root move alone, to score it (the agreement yardstick's regret): the root's forced answers, VCF
    /// and VCT shortcuts are skipped and the move is searched even though it is the only one.
    pub only: Option<Pos>,
    /// The side to move proved a win at its previous move and the opponent has answered: the position is won (a
    /// proof holds against every answer), and the root's VCT gets a larger share of the time to find the win again
    /// ([`params::Params::proved_vct_percent`]).
    pub proved: bool,
    /// Where the search adds its census (what its nodes were spent on), if one is asked for.
    pub census: Option<&'a CensusSink>,
}

/// The deadline and node cap of the root's VCT: a share of the optimum, never all of it (a sixth or so), or most of
/// it where the side to move proved a win at its previous move; its nodes bounded only by what the memory allows
/// (`solver_nodes`), so that it keeps pace with the search at any time a move. A search bounded by nodes or depth
/// caps it at `root_vct_kilonodes` even in a proved position: its clock is only a backstop (`selfplay --nodes` gives
/// it ten minutes), and its moves must cost about the nodes asked for and be the same on any machine.
fn root_vct_budget(
    limits: &SearchLimits,
    params: &params::Params,
    solver_nodes: u64,
    start: Instant,
) -> (Option<Instant>, u64) {
    let by_time = bounded_by_time(limits);
    let deadline = limits.optimum.map(|o| {
        let optimum = o.saturating_duration_since(start);
        if proved_share(limits, params) {
            start + optimum * params.proved_vct_percent.clamp(0, 100) as u32 / 100
        } else {
            start + optimum / params.root_vct_div.max(1) as u32
        }
    });
    let nodes = solver_cap(by_time, params.root_vct_kilonodes, solver_nodes);
    (deadline.or(limits.maximum), node_share(limits.nodes, nodes, params.root_vct_div))
}

/// A root threat solver's node cap `nodes` in a search of `node_limit` nodes (0: none): at most the limit divided
/// by `div`, as its share of a turn's time is the optimum divided by it, so that the solvers run inside the search's
/// budget (their nodes count as the search's) and a search at a few thousand nodes is not a solver's; at least one.
fn node_share(node_limit: u64, nodes: u64, div: i32) -> u64 {
    if node_limit == 0 { nodes } else { nodes.min(node_limit / div.max(1) as u64).max(1) }
}

/// Whether the root's VCT gets a proved position's share of the time ([`params::Params::proved_vct_percent`]): not in
/// a search that leaves root moves out (`exclude`, `only`), where the root's VCT is not tried.
fn proved_share(limits: &SearchLimits, params: &params::Params) -> bool {
    limits.proved
        && bounded_by_time(limits)
        && params.proved_vct_percent > 0
        && limits.exclude.is_empty()
        && limits.only.is_none()
}

/// The late VCT's node cap ([`solver_cap`]), or 0 (no late VCT) where the root's VCT had a proved position's share:
/// the late VCT is the same solver from the same position, and run again after that share failed it would take the
/// time the search has left (a turn's last quarter, where the search must find the proof again by itself).
fn late_vct_nodes(limits: &SearchLimits, params: &params::Params, solver_nodes: u64) -> u64 {
    if proved_share(limits, params) {
        0
    } else {
        let nodes = solver_cap(bounded_by_time(limits), params.late_vct_kilonodes, solver_nodes);
        node_share(limits.nodes, nodes, params.late_vct_div)
    }
}

/// Whether a search is bounded by time alone (an optimum, no node cap, no depth short of the most): then the root's
/// threat solvers may use whatever nodes the memory allows within their share of the time. A search bounded by
/// nodes or depth keeps their node caps, so that its moves cost about the nodes asked for on any machine.
fn bounded_by_time(limits: &SearchLimits) -> bool {
    limits.nodes == 0 && (limits.depth <= 0 || limits.depth >= MAX_DEPTH) && limits.optimum.is_some()
}

/// The node cap of a root threat solver with its own cap of `kilonodes` thousand (the root's VCT, the late VCT): in
/// a search bounded by time, whatever the memory allows (`solver_nodes`; its share of the optimum bounds it), else
/// its own cap within that; at least one. Capped at a million nodes (about a second), the late VCT missed wins at
/// 2 s and 5 s a move that three to eight million nodes prove (docs/history.md, "The late VCT bounded by time").
fn solver_cap(by_time: bool, kilonodes: i32, solver_nodes: u64) -> u64 {
    let nodes = if by_time { solver_nodes } else { kilonodes.max(1) as u64 * 1000 };
    nodes.min(solver_nodes).max(1)
}

/// How the search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Worker threads (Lazy SMP); 1 by default.
    pub threads: usize,
    /// A game ends drawn when this many stones are on the board (the Gomocup renju league's 200), if set.
    pub draw_at: Option<usize>,
    /// Use the threat solvers (VCF at the leaves, VCF and VCT at the root).
    pub threats: bool,
    /// The evaluation and move-ordering tables (the embedded ones by default).
    pub weights: WeightsRef,
    /// The evaluation: the classical one (from `weights`) or a network.
    pub eval: EvalChoice,
    /// Refuted positions each thread's leaf VCF solvers keep before they start afresh ([`params::VCF_MEMORY`]
    /// unless a memory limit asks for less; see [`leaf_vcf_bytes`]).
    pub vcf_memory: usize,
    /// The most nodes a root threat solver (the root's VCT, the late VCT, the guard) may use, whatever its own cap
    /// or time: what the memory leaves it ([`params::SOLVER_NODES`] unless a memory limit asks for fewer).
    pub solver_nodes: u64,
    /// The tunable margins, depths and factors of the search and its time manager.
    pub params: params::Params,
}

/// The most bytes one search thread's two leaf VCF solvers take when they keep `vcf_memory` refuted positions.
#[must_use]
pub const fn leaf_vcf_bytes(vcf_memory: usize) -> usize {
    2 * crate::threat::vcf_table_bytes(vcf_memory + params::LEAF_VCF_SLACK)
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            draw_at: None,
            threats: true,
            weights: WeightsRef::default(),
            eval: EvalChoice::Default,
            vcf_memory: params::VCF_MEMORY,
            solver_nodes: params::SOLVER_NODES,
            params: params::Params::DEFAULT,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The move to play (always a legal move when the board has one).
    pub best: Option<Pos>,
    /// Its score for the side to move.
    pub score: i32,
    /// The last completed iteration (0 when the move was found without searching).
    pub depth: i32,
    /// The expected line, starting with `best`.
    pub pv: Vec<Pos>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// How the move was found: "five", "forced", "vcf", "vct", "search" or "none".
    pub source: &'static str,
}

impl Report {
    fn quick(best: Option<Pos>, score: i32, pv: Vec<Pos>, source: &'static str, start: Instant) -> Report {
        Report { best, score, depth: 0, pv, nodes: 0, elapsed: start.elapsed(), source }
    }
}

/// Whether `score` is a win or a loss, and in how many plies.
#[must_use]
pub fn mate_distance(score: i32) -> Option<i32> {
    (score.abs() > MATE_BOUND).then(|| MATE - score.abs())
}

/// Searches `pb` for `side`, to move, and returns the move to play. `on_iteration` is called after every completed
/// iteration of the main thread.
pub fn search(
    pb: &PatternBoard,
    side: Color,
    table: &Table,
    limits: &SearchLimits<'_>,
    options: &SearchOptions,
    mut on_iteration: impl FnMut(&Report),
) -> Report {
    let start = Instant::now();
    let mut board = pb.clone();
    // The workers search clones of this board, so they keep its reach.
    board.set_reach(crate::pattern::Reach::from_number(options.params.cand_range));
    let excluding = !limits.exclude.is_empty() || limits.only.is_some();
    let generated = if let Some(m) = limits.only {
        Candidates::Moves { moves: std::iter::once(m).collect(), forced: false }
    } else if excluding {
        let mut moves = crate::movegen::near_moves(&mut board, side);
        moves.retain(|m| !limits.exclude.contains(m));
        if moves.is_empty() {
            moves = crate::movegen::nearest_moves(&mut board, side, limits.exclude);
        }
        Candidates::Moves { moves, forced: false }
    } else {
        candidates(&mut board, side)
    };
    let moves = match generated {
        Candidates::Win(p) => return Report::quick(Some(p), MATE - 1, vec![p], "five", start),
        Candidates::Lost => {
            let delay = delaying_move(&mut board, side, &options.weights);
            return Report::quick(delay, -(MATE - 2), delay.into_iter().collect(), "forced", start);
        }
        Candidates::Moves { moves, .. } => moves,
    };
    // Until an iteration completes, the move that makes or stops the most is the answer (also at 0 ms).
    let Some(fallback) = favourite(&board, side, moves.iter().copied(), &options.weights) else {
        return Report::quick(any_legal(&mut board, side), 0, Vec::new(), "none", start);
    };
    let stop = AtomicBool::new(false);
    let external = limits.stop;
    let stopped = || stop.load(Ordering::Relaxed) || external.is_some_and(|s| s.load(Ordering::Relaxed));
    // Helpers (Lazy SMP) start at once, searching while the main thread tries the threat solvers.
    let helpers = if moves.len() > 1 && !stopped() { options.threads.max(1) - 1 } else { 0 };
    table.new_search();
    let total = AtomicU64::new(0);
    let max_depth = if limits.depth <= 0 { MAX_DEPTH } else { limits.depth.min(MAX_DEPTH) };
    let shared = Shared {
        table,
        stop: &stop,
        external,
        total: &total,
        node_limit: limits.nodes,
        hard: limits.maximum,
        late_vct_nodes: late_vct_nodes(limits, &options.params, options.solver_nodes),
        start,
        cut: AtomicU64::new(u64::MAX),
        results: std::sync::Mutex::new(vec![None; helpers + 1]),
        root_moves: &moves,
        busy: Busy::new(helpers > 0),
        guard: Guard::default(),
        census: limits.census,
    };
    let mut root_census = Census::default();
    let (mut best, searched) = std::thread::scope(|scope| {
        for id in 1..=helpers {
            let shared = &shared;
            let board = board.clone();
            scope.spawn(move || {
                let mut helper = Worker::new(board, side, shared, *options, id);
                helper.iterate(max_depth, None, |report| {
                    if let Ok(mut results) = shared.results.lock() {
                        results[id] = Some(report.clone());
                    }
                });
            });
        }
        let quick = (|| {
            if options.threats && !excluding {
                let threat_limits = |nodes| Limits { nodes, deadline: limits.maximum, abort: external };
                let vcf_nodes = node_share(limits.nodes, ROOT_VCF_NODES, options.params.root_vct_div);
                let vcf_options = VcfOptions { limits: threat_limits(vcf_nodes), ..VcfOptions::default() };
                let mut vcf = Vcf::new(side, vcf_options);
                let solution = vcf.solve(&mut board);
                total.fetch_add(vcf.stats().nodes, Ordering::Relaxed);
                root_census.root_vcf = vcf.stats().nodes;
                if let Solution::Win(line) = solution {
                    return Some(Report::quick(line.first().copied(), MATE - line.len() as i32, line, "vcf", start));
                }
                let (vct_deadline, vct_nodes) = root_vct_budget(limits, &options.params, options.solver_nodes, start);
                let vct_limits = Limits { deadline: vct_deadline, ..threat_limits(vct_nodes) };
                let vct_start = Instant::now();
                let mut vct = Vct::new(side, VctOptions { limits: vct_limits, ..VctOptions::default() });
                let solution = vct.solve(&mut board);
                total.fetch_add(vct.stats().nodes, Ordering::Relaxed);
                root_census.root_vct = vct.stats().nodes;
                log::debug!(
                    "root vct: {} nodes, {} ms (the search's {} ms), won {}",
                    vct.stats().nodes,
                    vct_start.elapsed().as_millis(),
                    start.elapsed().as_millis(),
                    matches!(solution, Solution::Win(_))
                );
                if let Solution::Win(line) = solution {
                    return Some(Report::quick(line.first().copied(), MATE - line.len() as i32, line, "vct", start));
                }
            }
            if moves.len() == 1 && limits.only.is_none() {
                // One answer (to a four, or a lost three): no search needed to choose it.
                return Some(Report::quick(Some(fallback), 0, vec![fallback], "forced", start));
            }
            stopped().then(|| Report::quick(Some(fallback), 0, vec![fallback], "search", start))
        })();
        if let Some(report) = quick {
            stop.store(true, Ordering::Relaxed);
            log::debug!("search: {} ms, quick ({})", start.elapsed().as_millis(), report.source);
            return (report, false);
        }
        let mut best = Report {
            best: Some(fallback),
            score: 0,
            depth: 0,
            pv: vec![fallback],
            nodes: 0,
            elapsed: start.elapsed(),
            source: "search",
        };
        let mut main = Worker::new(board.clone(), side, &shared, *options, 0);
        let manager = time::Manager::new(start, limits.optimum, limits.maximum, &options.params);
        main.iterate(max_depth, Some(manager), |report| {
            let kept = best.best;
            best = Report { elapsed: start.elapsed(), ..report.clone() };
            // An iteration where every move loses at once keeps no move (none beats the mate-distance bound at the
            // root): the move it had stays the answer.
            if best.best.is_none() {
                (best.best, best.pv) = (kept, kept.into_iter().collect());
            }
            on_iteration(&best);
        });
        stop.store(true, Ordering::Relaxed);
        log::debug!(
            "search: {} ms, depth {}, {} nodes, table {} per mille full",
            start.elapsed().as_millis(),
            best.depth,
            best.nodes,
            shared.table.full_permille()
        );
        (best, true)
    });
    if let Some(sink) = limits.census
        && let Ok(mut census) = sink.lock()
    {
        census.add(&root_census);
    }
    if !searched {
        return Report { elapsed: start.elapsed(), nodes: total.load(Ordering::Relaxed), ..best };
    }
    // With helpers, once all have stopped, the threads vote (the main thread without a completed iteration votes
    // for the heuristic move).
    if let Ok(mut results) = shared.results.lock()
        && results.len() > 1
    {
        results[0] = Some(best.clone());
        let refuted = |r: &Report| r.best.is_some_and(|m| shared.guard.is_refuted(m));
        let reports: Vec<Report> = results.iter_mut().filter_map(Option::take).filter(|r| !refuted(r)).collect();
        if let Some(chosen) = vote::choose(&reports) {
            best = reports[chosen].clone();
        }
    }
    // A move the guard refuted is played only when the search stopped before it found another: then the move the
    // heuristic likes best among the others.
    if best.best.is_some_and(|m| shared.guard.is_refuted(m)) {
        let refuted = shared.guard.refuted();
        let others = moves.iter().copied().filter(|m| !refuted.contains(m));
        if let Some(m) = favourite(&board, side, others, &options.weights) {
            best = Report { best: Some(m), score: 0, depth: 0, pv: vec![m], ..best };
        }
    }
    best.nodes = total.load(Ordering::Relaxed);
    best.elapsed = start.elapsed();
    best
}

/// The move of a lost position (the opponent has five points `side` cannot all stop): a legal block of one five
/// point, which at least makes the opponent find the other, else the legal move near the stones the ordering
/// likes best, else any legal move.
fn delaying_move(pb: &mut PatternBoard, side: Color, weights: &WeightsRef) -> Option<Pos> {
    if let Some(block) = crate::movegen::legal_five_block(pb, side) {
        return Some(block);
    }
    let near = crate::movegen::near_moves(pb, side);
    favourite(pb, side, near.iter().copied(), weights).or_else(|| any_legal(pb, side))
}

/// Of `moves`, the one the ordering likes best for `side` (what it makes and stops), the first on the board on a tie.
fn favourite(pb: &PatternBoard, side: Color, moves: impl Iterator<Item = Pos>, weights: &WeightsRef) -> Option<Pos> {
    moves.max_by_key(|&m| (order_value(pb, side, m, weights), std::cmp::Reverse(m.index())))
}

/// A legal move for `side`, if the board has one (the first in board order).
fn any_legal(pb: &mut PatternBoard, side: Color) -> Option<Pos> {
    pb.board().points().find(|&p| crate::movegen::is_legal(pb, side, p))
}

/// What the threads share.
pub(crate) struct Shared<'a> {
    table: &'a Table,
    stop: &'a AtomicBool,
    external: Option<&'a AtomicBool>,
    total: &'a AtomicU64,
    node_limit: u64,
    hard: Option<Instant>,
    /// The late VCT's node cap ([`late_vct_nodes`]; 0: no late VCT).
    late_vct_nodes: u64,
    /// When the search started.
    start: Instant,
    /// Where the time manager cuts the running iteration, in milliseconds since `start` (`u64::MAX`: nowhere).
    cut: AtomicU64,
    /// Each thread's last completed iteration (the main thread's is filled in at the end).
    results: std::sync::Mutex<Vec<Option<Report>>>,
    /// The root's moves (without the excluded ones).
    root_moves: &'a [Pos],
    /// The nodes the threads are searching, for deferring moves another thread is on.
    busy: Busy,
    /// The root's guard: the moves checked for an opponent's VCT after them, and the ones refuted.
    guard: Guard,
    /// Where each thread adds its census at the end, if one is asked for.
    census: Option<&'a CensusSink>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_vct_is_bounded_by_time_and_memory_in_a_search_bounded_by_time() {
        let params = params::Params::DEFAULT;
        let start = Instant::now();
        let optimum = start + Duration::from_secs(600);
        let timed = SearchLimits { optimum: Some(optimum), maximum: Some(optimum), ..Default::default() };
        let capped = params.root_vct_kilonodes as u64 * 1000;
        let memory = params::SOLVER_NODES;
        // Bounded by time: a share of the optimum and as many nodes as the memory allows, more in a proved position.
        let (deadline, nodes) = root_vct_budget(&timed, &params, memory, start);
        assert_eq!((deadline, nodes), (Some(start + Duration::from_secs(600) / params.root_vct_div as u32), memory));
        let proved = SearchLimits { proved: true, ..timed };
        let (deadline, nodes) = root_vct_budget(&proved, &params, memory, start);
        assert_eq!(nodes, memory);
        assert_eq!(deadline, Some(start + Duration::from_secs(600) * params.proved_vct_percent as u32 / 100));
        // Bounded by nodes (the clock only a backstop): the plain cap and share, proved or not, within the node
        // limit's share (a sixth of 20,000 nodes; all of the cap at a million).
        for limits in [timed, proved] {
            let by_nodes = SearchLimits { nodes: 20_000, ..limits };
            let (deadline, nodes) = root_vct_budget(&by_nodes, &params, memory, start);
            assert_eq!(nodes, 20_000 / params.root_vct_div as u64);
            let by_many = SearchLimits { nodes: 1_000_000, ..limits };
            assert_eq!(root_vct_budget(&by_many, &params, memory, start).1, capped);
            assert_eq!(deadline, Some(start + Duration::from_secs(600) / params.root_vct_div as u32));
            // A smaller memory caps every budget.
            assert_eq!(root_vct_budget(&by_nodes, &params, 2_000, start).1, 2_000);
            assert_eq!(root_vct_budget(&limits, &params, 5_000, start).1, 5_000);
        }
        // Bounded by depth, or without an optimum: the plain cap.
        assert_eq!(root_vct_budget(&SearchLimits { depth: 3, ..timed }, &params, memory, start).1, capped);
        assert_eq!(root_vct_budget(&SearchLimits { depth: MAX_DEPTH, ..timed }, &params, memory, start).1, memory);
        assert_eq!(root_vct_budget(&SearchLimits::default(), &params, memory, start).1, capped);
    }

    #[test]
    fn the_late_vct_has_the_memorys_nodes_only_in_a_search_bounded_by_time() {
        let params = params::Params::DEFAULT;
        let start = Instant::now();
        let optimum = start + Duration::from_secs(5);
        let timed = SearchLimits { optimum: Some(optimum), maximum: Some(optimum), ..Default::default() };
        assert!(bounded_by_time(&timed));
        assert!(bounded_by_time(&SearchLimits { depth: MAX_DEPTH, ..timed }));
        assert!(!bounded_by_time(&SearchLimits { nodes: 200_000, ..timed }));
        assert!(!bounded_by_time(&SearchLimits { depth: 12, ..timed }));
        assert!(!bounded_by_time(&SearchLimits::default()));
        let capped = params.late_vct_kilonodes as u64 * 1000;
        let memory = params::SOLVER_NODES;
        assert!(memory > capped);
        let late = params.late_vct_kilonodes;
        assert_eq!(solver_cap(true, late, memory), memory);
        assert_eq!(solver_cap(false, late, memory), capped);
        // A small memory bounds both.
        assert_eq!(solver_cap(true, late, 5_000), 5_000);
        assert_eq!(solver_cap(false, late, 5_000), 5_000);
        assert_eq!(solver_cap(true, late, 0), 1);
        // After a proved position's share of the root's VCT, none: the search keeps the rest of the turn.
        let proved = SearchLimits { proved: true, ..timed };
        assert_eq!(late_vct_nodes(&timed, &params, memory), memory);
        assert_eq!(late_vct_nodes(&proved, &params, memory), 0);
        let by_nodes = SearchLimits { nodes: 200_000, ..proved };
        assert_eq!(late_vct_nodes(&by_nodes, &params, memory), 200_000 / params.late_vct_div as u64);
        let by_many = SearchLimits { nodes: 100_000_000, ..proved };
        assert_eq!(late_vct_nodes(&by_many, &params, memory), capped);
        let off = params::Params { proved_vct_percent: 0, ..params };
        assert_eq!(late_vct_nodes(&proved, &off, memory), memory);
        // A search that leaves root moves out tries no root VCT, so the late one stays.
        let blocked = [Pos::new(7, 7)];
        assert_eq!(late_vct_nodes(&SearchLimits { exclude: &blocked, ..proved }, &params, memory), memory);
        assert_eq!(late_vct_nodes(&SearchLimits { only: Some(Pos::new(7, 7)), ..proved }, &params, memory), memory);
    }
}
