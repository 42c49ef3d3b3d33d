//! Iterative deepening at the root (aspiration windows, the guard and the late VCT between iterations, the time
//! manager's stops) and the checks that stop a search.

use super::{Root, Worker};
use crate::search::{INFINITE, MATE, MATE_BOUND, Report, mate_distance, time};
use crate::types::Pos;
use std::sync::atomic::Ordering;
use std::time::Instant;

impl Worker<'_> {
    /// Iterative deepening: depth 1, 2, … up to `max_depth`, until the time manager (the main thread's) says
    /// stop after an iteration, or the search is stopped. `report` gets every completed iteration, and at a stop
    /// in the middle of one the best move it had found so far when that differs from the last iteration's.
    pub fn iterate(&mut self, max_depth: i32, mut manager: Option<time::Manager>, mut report: impl FnMut(&Report)) {
        let mut score: i32 = 0;
        // Helpers search every other depth, out of step with the main thread, so that one of them is often an
        // iteration ahead (the table they share makes each iteration cheaper for the others).
        let (first, step) = if self.id == 0 { (1, 1) } else { (1 + (self.id % 2) as i32, 2) };
        let mut completed: Option<Pos> = None;
        let mut late_vct_tried = false;
        let mut depth = first - step;
        while depth + step <= max_depth {
            depth += step;
            self.root_best = None;
            let (mut alpha, mut beta, mut delta) =
                if depth >= self.options.params.aspiration_depth && score.abs() < MATE_BOUND {
                    (
                        score - self.options.params.aspiration_window,
                        score + self.options.params.aspiration_window,
                        self.options.params.aspiration_window,
                    )
                } else {
                    (-INFINITE, INFINITE, 0)
                };
            // Fail highs in a row (`fail_high_reduce`).
            let mut failed_high = 0;
            let value = loop {
                self.root_depth = depth;
                let searched = (depth - failed_high * self.options.params.fail_high_reduce).max(1);
                let value = self.node::<Root>(searched, 0, alpha, beta, self.root_side, false);
                if self.stopped {
                    break value;
                }
                if (value <= alpha && alpha > -INFINITE) || (value >= beta && beta < INFINITE) {
                    self.census.aspiration_fails += 1;
                }
                if value <= alpha && alpha > -INFINITE {
                    alpha = (alpha - delta).max(-INFINITE);
                    delta *= 2;
                    failed_high = 0;
                } else if value >= beta && beta < INFINITE {
                    beta = (beta + delta).min(INFINITE);
                    delta *= 2;
                    failed_high += 1;
                } else {
                    break value;
                }
            };
            self.flush_nodes();
            let nodes = self.shared.total.load(Ordering::Relaxed);
            if self.stopped {
                // A root move searched to this depth that beat the first one (the last best move, searched first)
                // is the better answer; the first move's own result only confirms it.
                if let Some((best, score, pv)) = self.root_best.take()
                    && completed != Some(best)
                {
                    let depth = depth - 1;
                    report(&Report { best: Some(best), score, depth, pv, nodes, ..Report::searched() });
                }
                break;
            }
            score = value;
            let pv = self.stack.at(0).pv.clone();
            completed = pv.first().copied();
            report(&Report { best: completed, score, depth, pv, nodes, ..Report::searched() });
            if self.guard_wanted(depth, score, completed)
                && let (Some(m), Some(best)) = (&manager, completed)
                && self.guard_refutes(best, m.share_from_now(self.options.params.guard_div.max(1) as u32))
            {
                // The iterations start again without the refuted move (the table keeps the rest of their work).
                (depth, score, completed) = (first - step, 0, None);
                continue;
            }
            if !late_vct_tried
                && self.late_vct_wanted(depth, score)
                && let Some(m) = &manager
            {
                late_vct_tried = true;
                // A line that starts with a move the root leaves out (`exclude`, `only`) does not score this search.
                if let Some(line) = self.late_vct(m.share_from_now(self.options.params.late_vct_div.max(1) as u32))
                    && line.first().is_some_and(|f| self.shared.root_moves.contains(f))
                {
                    let score = MATE - line.len() as i32;
                    let nodes = self.shared.total.load(Ordering::Relaxed);
                    report(&Report { best: line.first().copied(), score, depth, pv: line, nodes, ..Report::vct() });
                    break;
                }
            }
            if let Some(m) = manager.as_mut() {
                if m.stop_after(completed, score) {
                    break;
                }
                if let Some(cut) = m.cut() {
                    self.shared.cut.store(u64::try_from(cut.as_millis()).unwrap_or(u64::MAX), Ordering::Relaxed);
                }
            }
            if mate_distance(score).is_some_and(|d| d < depth) {
                break; // a proven result: deeper iterations would find the same
            }
        }
        self.flush_nodes();
        self.report_census();
    }

    pub(super) fn flush_nodes(&mut self) {
        self.shared.total.fetch_add(self.nodes, Ordering::Relaxed);
        self.flushed += self.nodes;
        self.nodes = 0;
    }

    /// Checks the stop flags, the node limit, the hard deadline and the time manager's cut.
    pub(super) fn poll(&mut self) {
        self.flush_nodes();
        let s = self.shared;
        let cut = s.cut.load(Ordering::Relaxed);
        let out_of_time = || {
            let now = Instant::now();
            s.hard.is_some_and(|h| now >= h)
                || (cut != u64::MAX && now.saturating_duration_since(s.start).as_millis() >= u128::from(cut))
        };
        if s.stop.load(Ordering::Relaxed)
            || s.external.is_some_and(|e| e.load(Ordering::Relaxed))
            || (s.node_limit != 0 && s.total.load(Ordering::Relaxed) >= s.node_limit)
            || out_of_time()
        {
            s.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }
}
