//! The search: iterative deepening with aspiration windows over a principal variation search, a shared lock-free
//! transposition table, move ordering by TT move, learned attack and defence values per pattern code, killers and
//! history, late move reductions, the VCF solver as the quiescence search at the leaves and VCF/VCT attempts at the
//! root, and Lazy SMP threads.
//!
//! Scores are from the side to move's point of view. A win whose five is the move made at ply `p` (the root's
//! moves are ply 1) scores `MATE - p`; a loss the reverse; a draw 0.

pub mod time;
pub mod tt;

use crate::eval::{EVAL_LIMIT, WeightsRef, evaluate, order_value};
use crate::movegen::{Candidates, MoveList, candidates};
use crate::pattern::{Pattern4, PatternBoard};
use crate::threat::{Limits, Solution, Vcf, VcfOptions, Vct, VctOptions};
use crate::types::{CELLS, Color, Pos};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::{Bound, Entry, Table};

/// The score of a five made on the next move.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses found by the search.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITE: i32 = MATE + 1;
/// The deepest ply a search reaches.
pub const MAX_PLY: usize = 120;
/// The deepest iteration.
pub const MAX_DEPTH: i32 = 60;

/// Nodes a leaf's VCF probe may use.
const LEAF_VCF_NODES: u64 = 64;
/// Refuted positions a leaf VCF solver keeps before it starts afresh (about 24 bytes each).
const VCF_MEMORY: usize = 1 << 18;
/// Nodes the root's VCF attempt may use.
const ROOT_VCF_NODES: u64 = 200_000;
/// Nodes the root's VCT attempt may use.
const ROOT_VCT_NODES: u64 = 60_000;

/// What bounds one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLimits<'a> {
    /// Deepest iteration (0: [`MAX_DEPTH`]).
    pub depth: i32,
    /// Stop after about this many nodes (0: no limit).
    pub nodes: u64,
    /// No iteration starts after this.
    pub soft: Option<Instant>,
    /// The search stops at this instant.
    pub hard: Option<Instant>,
    /// Set by another thread to stop the search (it still answers a move).
    pub stop: Option<&'a AtomicBool>,
    /// Root moves not to consider (for the n best moves: the ones already found). With any, the root's forced
    /// answers, VCF and VCT shortcuts are skipped and every legal move near the stones is searched.
    pub exclude: &'a [Pos],
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
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions { threads: 1, draw_at: None, threats: true, weights: WeightsRef::default() }
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
    let excluding = !limits.exclude.is_empty();
    let generated = if excluding {
        let mut moves = crate::movegen::near_moves(&mut board, side);
        moves.retain(|m| !limits.exclude.contains(m));
        Candidates::Moves { moves, forced: false }
    } else {
        candidates(&mut board, side)
    };
    let moves = match generated {
        Candidates::Win(p) => return Report::quick(Some(p), MATE - 1, vec![p], "five", start),
        Candidates::Lost => {
            let any = any_legal(&mut board, side);
            return Report::quick(any, -(MATE - 2), any.into_iter().collect(), "forced", start);
        }
        Candidates::Moves { moves, .. } => moves,
    };
    // Until an iteration completes, the move that makes or stops the most is the answer (also at 0 ms).
    let heuristic = |m: &Pos| order_value(&board, side, *m, &options.weights);
    let Some(fallback) = moves.iter().copied().max_by_key(|m| (heuristic(m), std::cmp::Reverse(m.index()))) else {
        return Report::quick(any_legal(&mut board, side), 0, Vec::new(), "none", start);
    };
    let stop = AtomicBool::new(false);
    let external = limits.stop;
    let stopped = || stop.load(Ordering::Relaxed) || external.is_some_and(|s| s.load(Ordering::Relaxed));
    if options.threats && !excluding {
        let threat_limits = |nodes| Limits { nodes, deadline: limits.hard, abort: external };
        let vcf_options = VcfOptions { limits: threat_limits(ROOT_VCF_NODES), ..VcfOptions::default() };
        if let Solution::Win(line) = Vcf::new(side, vcf_options).solve(&mut board) {
            return Report::quick(line.first().copied(), MATE - line.len() as i32, line, "vcf", start);
        }
        // The VCT gets a share of the soft limit, never all of it.
        let vct_deadline = limits.soft.map(|soft| start + soft.saturating_duration_since(start) / 3);
        let vct_limits = Limits { deadline: vct_deadline.or(limits.hard), ..threat_limits(ROOT_VCT_NODES) };
        if let Solution::Win(line) =
            Vct::new(side, VctOptions { limits: vct_limits, ..VctOptions::default() }).solve(&mut board)
        {
            return Report::quick(line.first().copied(), MATE - line.len() as i32, line, "vct", start);
        }
    }
    if moves.len() == 1 {
        // One answer (to a four, or a lost three): no search needed to choose it.
        return Report::quick(Some(fallback), 0, vec![fallback], "forced", start);
    }
    if stopped() {
        return Report::quick(Some(fallback), 0, vec![fallback], "search", start);
    }
    table.new_search();
    let total = AtomicU64::new(0);
    let max_depth = if limits.depth <= 0 { MAX_DEPTH } else { limits.depth.min(MAX_DEPTH) };
    let shared = Shared {
        table,
        stop: &stop,
        external,
        total: &total,
        node_limit: limits.nodes,
        hard: limits.hard,
        deepest: std::sync::Mutex::new(None),
        exclude: limits.exclude,
    };
    let mut best = Report {
        best: Some(fallback),
        score: 0,
        depth: 0,
        pv: vec![fallback],
        nodes: 0,
        elapsed: start.elapsed(),
        source: "search",
    };
    std::thread::scope(|scope| {
        for id in 1..options.threads.max(1) {
            let shared = &shared;
            let board = board.clone();
            scope.spawn(move || {
                let mut helper = Worker::new(board, side, shared, *options, id);
                helper.iterate(max_depth, None, |report| {
                    // A helper's completed iteration deeper than any other counts too.
                    if let Ok(mut deepest) = shared.deepest.lock()
                        && deepest.as_ref().is_none_or(|d| d.depth < report.depth)
                    {
                        *deepest = Some(report.clone());
                    }
                });
            });
        }
        let mut main = Worker::new(board.clone(), side, &shared, *options, 0);
        main.iterate(max_depth, limits.soft, |report| {
            best = Report { elapsed: start.elapsed(), ..report.clone() };
            on_iteration(&best);
        });
        if let Ok(deepest) = shared.deepest.lock()
            && let Some(deeper) = deepest.as_ref().filter(|d| d.depth > best.depth)
        {
            best = deeper.clone();
        }
        stop.store(true, Ordering::Relaxed);
    });
    best.nodes = total.load(Ordering::Relaxed);
    best.elapsed = start.elapsed();
    best
}

/// A legal move for `side`, if the board has one (the first in board order).
fn any_legal(pb: &mut PatternBoard, side: Color) -> Option<Pos> {
    pb.board().points().find(|&p| crate::movegen::is_legal(pb, side, p))
}

/// What the threads share.
struct Shared<'a> {
    table: &'a Table,
    stop: &'a AtomicBool,
    external: Option<&'a AtomicBool>,
    total: &'a AtomicU64,
    node_limit: u64,
    hard: Option<Instant>,
    /// The deepest iteration a helper thread completed.
    deepest: std::sync::Mutex<Option<Report>>,
    /// Root moves not to search.
    exclude: &'a [Pos],
}

/// One search thread.
struct Worker<'a> {
    pb: PatternBoard,
    root_side: Color,
    shared: &'a Shared<'a>,
    options: SearchOptions,
    id: usize,
    nodes: u64,
    stopped: bool,
    /// Leaf VCF probes, one solver per colour (their refutation tables are reused).
    vcf: [Vcf<'a>; 2],
    killers: Vec<[Option<Pos>; 2]>,
    history: Box<[[i32; CELLS]; 2]>,
    pv: Vec<Vec<Pos>>,
}

/// A side-to-move key mixed into the TT key (the stones alone do not tell whose move it is after a set-up).
const WHITE_TO_MOVE: u64 = 0x5bd1_e995_9e37_79b9;

impl<'a> Worker<'a> {
    fn new(mut pb: PatternBoard, root_side: Color, shared: &'a Shared<'a>, options: SearchOptions, id: usize) -> Self {
        // The board keeps the evaluation's code sums from here on.
        pb.set_code_values(Some(options.weights.0.code_values(pb.rule())));
        let vcf_limits = Limits { nodes: 0, deadline: None, abort: Some(shared.stop) };
        let vcf_options = VcfOptions { limits: vcf_limits, ..VcfOptions::default() };
        Worker {
            pb,
            root_side,
            shared,
            options,
            id,
            nodes: 0,
            stopped: false,
            vcf: Color::BOTH.map(|c| Vcf::new(c, vcf_options)),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Box::new([[0; CELLS]; 2]),
            pv: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    /// Iterative deepening: depth 1, 2, … up to `max_depth`, or until `soft` has passed after an iteration, or the
    /// search is stopped. `report` gets every completed iteration.
    fn iterate(&mut self, max_depth: i32, soft: Option<Instant>, mut report: impl FnMut(&Report)) {
        let mut score: i32 = 0;
        // Helpers search every other depth, out of step with the main thread, so that one of them is often an
        // iteration ahead (the table they share makes each iteration cheaper for the others).
        let (first, step) = if self.id == 0 { (1, 1) } else { (1 + (self.id % 2) as i32, 2) };
        for depth in (first..=max_depth).step_by(step) {
            let (mut alpha, mut beta, mut delta) = if depth >= 5 && score.abs() < MATE_BOUND {
                (score - 40, score + 40, 40)
            } else {
                (-INFINITE, INFINITE, 0)
            };
            let value = loop {
                let value = self.node(depth, 0, alpha, beta, self.root_side, true);
                if self.stopped {
                    break value;
                }
                if value <= alpha && alpha > -INFINITE {
                    alpha = (alpha - delta).max(-INFINITE);
                    delta *= 2;
                } else if value >= beta && beta < INFINITE {
                    beta = (beta + delta).min(INFINITE);
                    delta *= 2;
                } else {
                    break value;
                }
            };
            self.flush_nodes();
            if self.stopped {
                break;
            }
            score = value;
            let pv = self.pv[0].clone();
            report(&Report {
                best: pv.first().copied(),
                score,
                depth,
                pv,
                nodes: self.shared.total.load(Ordering::Relaxed),
                elapsed: Duration::ZERO,
                source: "search",
            });
            if soft.is_some_and(|s| Instant::now() >= s) {
                break;
            }
            if mate_distance(score).is_some_and(|d| d < depth) {
                break; // a proven result: deeper iterations would find the same
            }
        }
    }

    fn flush_nodes(&mut self) {
        self.shared.total.fetch_add(self.nodes, Ordering::Relaxed);
        self.nodes = 0;
    }

    /// Checks the stop flags, the node limit and the hard deadline.
    fn poll(&mut self) {
        self.flush_nodes();
        let s = self.shared;
        if s.stop.load(Ordering::Relaxed)
            || s.external.is_some_and(|e| e.load(Ordering::Relaxed))
            || (s.node_limit != 0 && s.total.load(Ordering::Relaxed) >= s.node_limit)
            || s.hard.is_some_and(|h| Instant::now() >= h)
        {
            s.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    fn key(&self, side: Color) -> u64 {
        self.pb.board().hash() ^ if side == Color::White { WHITE_TO_MOVE } else { 0 }
    }

    /// The principal variation search at one node.
    fn node(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32, side: Color, pv_node: bool) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.nodes >= 1024 {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        let stones = self.pb.board().stone_count();
        if self.pb.board().is_full() || self.options.draw_at.is_some_and(|n| stones >= n) {
            return 0;
        }
        // Mate distance pruning: nothing here beats a five on the next move or loses faster than to one.
        alpha = alpha.max(-(MATE - ply as i32 - 2));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // At a leaf only fives matter before the evaluation: the full move list is not needed.
        let four_against = self.pb.five_points(side.opponent()).next().is_some();
        if depth <= 0 && !four_against && self.pb.five_points(side).next().is_none() {
            return self.leaf(ply, side);
        }
        let (mut moves, forced) = if ply == 0 && !self.shared.exclude.is_empty() {
            let mut all = crate::movegen::near_moves(&mut self.pb, side);
            all.retain(|m| !self.shared.exclude.contains(m));
            (all, false)
        } else {
            match candidates(&mut self.pb, side) {
                Candidates::Win(p) => {
                    self.pv[ply].push(p);
                    return MATE - ply as i32 - 1;
                }
                Candidates::Lost => {
                    self.show_loss(ply, side);
                    return -(MATE - ply as i32 - 2);
                }
                Candidates::Moves { moves, forced } => (moves, forced),
            }
        };
        if moves.is_empty() {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(&self.pb, side, &self.options.weights);
        }
        // A single forced answer costs no depth (the blocks of fours), so threats are followed to their end.
        let depth = if forced && moves.len() == 1 { depth.max(1) } else { depth };
        if depth <= 0 {
            return self.leaf(ply, side);
        }
        let key = self.key(side);
        let mut tt_move = None;
        if let Some(entry) = self.shared.table.probe(key) {
            tt_move = entry.best;
            let score = from_tt(entry.score, ply);
            if !pv_node && entry.depth >= depth {
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        self.order(&mut moves, side, ply, tt_move);
        let opp = side.opponent();
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        for (i, &m) in moves.iter().enumerate() {
            let quiet = !forced
                && self.pb.pattern4(side, m) < Pattern4::Flex3
                && self.pb.pattern4(opp, m) < Pattern4::Flex3
                && Some(m) != tt_move;
            self.pb.make(m, side);
            let score = if i == 0 {
                -self.node(depth - 1, ply + 1, -beta, -alpha, opp, pv_node)
            } else {
                let reduction = if quiet && depth >= 3 && i >= 3 { 1 + i32::from(i >= 10 && depth >= 5) } else { 0 };
                let mut score = -self.node(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, opp, false);
                if score > alpha && reduction > 0 {
                    score = -self.node(depth - 1, ply + 1, -alpha - 1, -alpha, opp, false);
                }
                if score > alpha && score < beta {
                    score = -self.node(depth - 1, ply + 1, -beta, -alpha, opp, true);
                }
                score
            };
            self.pb.undo();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let h = &mut self.history[side.index()][m.index()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.table.store(key, Entry { best: best_move, score: to_tt(best_score, ply), depth, bound });
        best_score
    }

    /// The end of a lost line for the principal variation: a legal block of one of the opponent's five points and
    /// the five that follows (nothing when every block is forbidden).
    fn show_loss(&mut self, ply: usize, side: Color) {
        let opp = side.opponent();
        let fives: MoveList = self.pb.five_points(opp).collect();
        if let Some(&block) = fives.iter().find(|&&f| crate::movegen::is_legal(&mut self.pb, side, f)) {
            self.pb.make(block, side);
            let five = self.pb.five_points(opp).next();
            self.pb.undo();
            self.pv[ply].push(block);
            self.pv[ply].extend(five);
        }
    }

    /// A leaf: the static evaluation, unless the side to move has a short VCF.
    fn leaf(&mut self, ply: usize, side: Color) -> i32 {
        if self.options.threats && self.pb.four_candidates(side).next().is_some() {
            let vcf = &mut self.vcf[side.index()];
            if vcf.remembered() > VCF_MEMORY {
                vcf.forget();
            }
            let before = vcf.stats().nodes;
            let solution = vcf.solve_within(&mut self.pb, LEAF_VCF_NODES);
            // The probe is this search's quiescence search: its nodes are nodes of the search.
            self.nodes += vcf.stats().nodes - before;
            if let Solution::Win(line) = solution {
                let score = MATE - (ply + line.len()) as i32;
                self.pv[ply] = line;
                return score;
            }
        }
        evaluate(&self.pb, side, &self.options.weights).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Orders `moves`: the TT move, then by the learned values of the codes made and stopped, killers, history.
    fn order(&self, moves: &mut MoveList, side: Color, ply: usize, tt_move: Option<Pos>) {
        let killers = self.killers[ply];
        let history = &self.history[side.index()];
        // Sort keys: the score descending, then the point's index ascending, packed into one integer (filled in
        // place: collecting into an array this large would copy it).
        let mut keys = arrayvec::ArrayVec::<u64, { crate::types::MAX_SIZE * crate::types::MAX_SIZE }>::new();
        for &m in moves.iter() {
            let score = if Some(m) == tt_move {
                i32::MAX
            } else {
                order_value(&self.pb, side, m, &self.options.weights)
                    + if killers[0] == Some(m) {
                        90
                    } else if killers[1] == Some(m) {
                        80
                    } else {
                        0
                    }
                    + history[m.index()].min(1 << 12) / 64
            };
            keys.push((((i64::from(i32::MAX) - i64::from(score)) as u64) << 16) | m.index() as u64);
        }
        keys.sort_unstable();
        moves.clear();
        moves.extend(keys.iter().map(|&k| Pos::from_index((k & 0xffff) as usize)));
    }
}

/// A score as stored in the table: mates counted from this node rather than from the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score back at a node `ply` plies from the root.
fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
