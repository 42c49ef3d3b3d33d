//! The threat solvers a worker runs: between iterations on the main thread (the guard's check of the best move, the
//! late VCT of a position that looks won), and inside the tree (the VCT probe, remembered by the node's key).

use super::Worker;
use crate::search::MATE_BOUND;
use crate::search::guard::Verdict;
use crate::threat::{Limits, Solution, Vct, VctOptions};
use crate::types::{Color, Pos};
use std::sync::atomic::Ordering;
use std::time::Instant;

impl<'a> Worker<'a> {
    /// Whether an iteration to `depth` that scored `score` with `best` asks for the guard's check of that move: the
    /// main thread of a search with a deadline, threats on (see `guard.rs`).
    pub(super) fn guard_wanted(&self, depth: i32, score: i32, best: Option<Pos>) -> bool {
        self.id == 0
            && self.shared.hard.is_some()
            && self.options.threats
            && self.shared.guard.wants(&self.options.params, depth, score, best, self.shared.root_moves.len())
    }

    /// Whether the opponent has a VCT after the root move `m`, found by `deadline` (never past the search's
    /// maximum) within the guard's nodes, and `m` is left out (see `Verdict`). Its nodes count as the search's.
    pub(super) fn guard_refutes(&mut self, m: Pos, deadline: Instant) -> bool {
        let limits = self.between_iterations(self.options.params.guard_kilonodes.max(1) as u64 * 1000, deadline);
        let side = self.root_side;
        let start = Instant::now();
        self.pb.make(m, side);
        let (line, nodes) = self.vct_line(side.opponent(), limits);
        let refuted = line.is_some();
        self.nodes += nodes;
        self.census.guard += nodes;
        self.pb.undo();
        log::debug!("guard: {nodes} nodes, {} ms, refuted {refuted}", start.elapsed().as_millis());
        self.shared.guard.record(&self.options.params, m, refuted) == Verdict::Refuted
    }

    /// Whether an iteration to `depth` that scored `score` asks for the late VCT: the main thread of a search with
    /// a deadline (not one limited by nodes or depth alone), threats on, a position that looks won but is not proved,
    /// and not one where the root's VCT already had a proved position's share (`late_vct_nodes` 0).
    pub(super) fn late_vct_wanted(&self, depth: i32, score: i32) -> bool {
        let p = &self.options.params;
        self.id == 0
            && self.shared.hard.is_some()
            && self.options.threats
            && self.shared.late_vct_nodes > 0
            && p.late_vct_score > 0
            && depth >= p.late_vct_depth
            && score >= p.late_vct_score
            && score < MATE_BOUND
    }

    /// The root's VCT for the side to move until `deadline` (the manager's, never past the search's maximum) and
    /// within the late VCT's nodes (all the memory allows in a search bounded by time): its line when it wins. Its
    /// nodes count as the search's (the root's first VCT's do too).
    pub(super) fn late_vct(&mut self, deadline: Instant) -> Option<Vec<Pos>> {
        let limits = self.between_iterations(self.shared.late_vct_nodes, deadline);
        let start = Instant::now();
        let (line, nodes) = self.vct_line(self.root_side, limits);
        self.nodes += nodes;
        self.census.late_vct += nodes;
        self.flush_nodes();
        let line = line.filter(|line| !line.is_empty());
        log::debug!("late vct: {nodes} nodes, {} ms, won {}", start.elapsed().as_millis(), line.is_some());
        line
    }

    /// The limits of a solver the main thread runs between iterations (the late VCT, the guard): `nodes` (at least
    /// one, at most what the memory allows), `deadline`, and the search's stop flags.
    pub(super) fn between_iterations(&self, nodes: u64, deadline: Instant) -> Limits<'a> {
        Limits {
            nodes: nodes.clamp(1, self.options.solver_nodes.max(1)),
            deadline: Some(deadline),
            abort: self.shared.external.or(Some(self.shared.stop)),
        }
    }

    /// `side`'s VCT on the worker's board within `limits`: its line when it wins, and the nodes it searched.
    pub(super) fn vct_line(&mut self, side: Color, limits: Limits) -> (Option<Vec<Pos>>, u64) {
        let mut vct = Vct::new(side, VctOptions { limits, ..VctOptions::default() });
        let line = match vct.solve(&mut self.pb) {
            Solution::Win(line) => Some(line),
            Solution::None | Solution::Unknown => None,
        };
        (line, vct.stats().nodes)
    }

    /// The side to move's VCT within the tunable node budget, remembered by the node's key for the rest of the
    /// search: its line when it wins.
    pub(super) fn vct_probe(&mut self, side: Color) -> Option<Vec<Pos>> {
        let key = self.key(side);
        if let Some(known) = self.vct_probes.get(&key) {
            return known.clone();
        }
        let limits = Limits {
            nodes: self.options.params.tree_vct_nodes.max(0) as u64,
            deadline: self.shared.hard,
            abort: Some(self.shared.stop),
        };
        let (line, nodes) = self.vct_line(side, limits);
        self.nodes += nodes;
        self.census.tree_vct += nodes;
        if self.shared.stop.load(Ordering::Relaxed) {
            return None; // a stopped probe proves nothing and is not remembered
        }
        self.vct_probes.insert(key, line.clone());
        line
    }
}
