//! The quiescence search at a leaf: the static evaluation, unless the side to move has a short VCF; with
//! `qs_fours` (on by default), also the best of the lines where it plays a four and the opponent blocks it.

use super::Worker;
use crate::eval::EVAL_LIMIT;
use crate::movegen::{MoveList, is_legal, on_line_within};
use crate::pattern::Pattern4;
use crate::search::{MATE, MAX_PLY};
use crate::threat::Solution;
use crate::types::Color;

impl Worker<'_> {
    /// A leaf: the quiescence search from the static evaluation.
    pub(super) fn leaf(&mut self, ply: usize, side: Color, alpha: i32, beta: i32) -> i32 {
        self.census.leaves += 1;
        let eval = self.evaluate(side).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        self.quiesce(ply, side, alpha, beta, eval)
    }

    /// The quiescence search: `eval`, the position's static evaluation, unless the side to move has a short VCF. An
    /// evaluation at or above `beta` stands (a win would fail high as well), so the probe is spared. With
    /// `qs_fours`, the side to move may also play its fours (see [`Worker::fours`]).
    pub(super) fn quiesce(&mut self, ply: usize, side: Color, alpha: i32, beta: i32, eval: i32) -> i32 {
        if eval >= beta {
            return eval;
        }
        if self.options.threats && self.pb.four_candidates(side).next().is_some() {
            let vcf = &mut self.vcf[side.index()];
            if vcf.remembered() > self.options.vcf_memory {
                vcf.forget();
            }
            let before = vcf.stats().nodes;
            let solution = vcf.solve_within(&mut self.pb, self.options.params.leaf_vcf_nodes.max(0) as u64);
            // The probe is this search's quiescence search: its nodes are nodes of the search.
            let probed = vcf.stats().nodes - before;
            self.nodes += probed;
            self.census.leaf_probes += 1;
            self.census.probe_nodes += probed;
            if let Solution::Win(line) = solution {
                let score = MATE - (ply + line.len()) as i32;
                self.stack.at_mut(ply).pv = line;
                return score;
            }
            let pairs = self.options.params.qs_fours;
            if pairs > 0 {
                return self.fours(ply, side, alpha, beta, eval, pairs);
            }
        }
        eval
    }

    /// The best for `side` of standing pat on `eval` and of each of its single fours followed by the opponent's
    /// block, evaluated there or searched on the same way, `pairs` pairs of moves at most: a leaf's tempo moves
    /// minimaxed rather than only proved. A block that makes a four for the opponent ends no line (the side would
    /// have to answer it; the line is left out), and a block Black may not play is a win. No fives are on the board
    /// for either side here.
    fn fours(&mut self, ply: usize, side: Color, mut alpha: i32, beta: i32, eval: i32, pairs: i32) -> i32 {
        let mut best = eval;
        alpha = alpha.max(eval);
        if eval >= beta || pairs <= 0 || ply + 2 >= MAX_PLY - 2 {
            return best;
        }
        let opp = side.opponent();
        // With `qs_local`: the first four on a line through the side's last move, within four steps; later ones
        // that make more than a four.
        let local = self.options.params.qs_local > 0;
        let first = pairs == self.options.params.qs_fours;
        // The side's own last stone (below a null move the stones do not alternate).
        let own_last = self.pb.board().last_of(side);
        let fours: MoveList = self
            .pb
            .four_candidates(side)
            .filter(|&m| match self.pb.pattern4(side, m) {
                Pattern4::Block4 => !local || (first && own_last.is_some_and(|o| on_line_within(m, o, LOCAL_REACH))),
                Pattern4::Block4Plus => !local || !first || own_last.is_some_and(|o| on_line_within(m, o, LOCAL_REACH)),
                _ => false,
            })
            .collect();
        for m in fours {
            if !is_legal(&mut self.pb, side, m) {
                continue;
            }
            self.nodes += 1;
            self.census.quiescence += 1;
            self.place(m, side);
            let Some(block) = self.pb.five_points(side).next() else {
                self.take_back(m);
                continue;
            };
            if !is_legal(&mut self.pb, opp, block) {
                self.take_back(m);
                return MATE - ply as i32 - 3; // Black cannot block: the five follows
            }
            self.place(block, opp);
            let score = if self.pb.five_points(opp).next().is_some() {
                None
            } else {
                let child = self.evaluate(side).clamp(-EVAL_LIMIT, EVAL_LIMIT);
                Some(self.fours(ply + 2, side, alpha, beta, child, pairs - 1))
            };
            self.take_back(block);
            self.take_back(m);
            if let Some(score) = score {
                best = best.max(score);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// How far along a line from the side's last stone a local four may lie (a four through the stone lies within it).
const LOCAL_REACH: u8 = 4;

#[cfg(test)]
mod tests {
    use super::super::test_worker::with_worker;
    use super::*;
    use crate::eval::evaluate;
    use crate::pattern::PatternBoard;
    use crate::search::SearchOptions;
    use crate::search::params::Params;
    use crate::types::{Pos, Rule};

    /// The leaf of a position where White (to move) has fours to make and no VCF, with `qs_fours` pairs and `qs_local`…
    /// …and the fours it tried.
    fn leaf(pb: &PatternBoard, qs_fours: i32, qs_local: i32) -> (i32, u64) {
        let params = Params { qs_fours, qs_local, ..Params::DEFAULT };
        with_worker(pb, Color::White, params, |worker| {
            let score = worker.leaf(0, Color::White, -MATE, MATE);
            (score, worker.census.quiescence)
        })
    }

    #[test]
    fn a_leaf_takes_the_best_of_standing_pat_and_its_fours_followed_by_their_blocks() {
        let mut pb = PatternBoard::new(15, Rule::Renju).expect("board");
        let stones = [("g8", Color::Black), ("h8", Color::White), ("e5", Color::Black), ("i8", Color::White)];
        let more = [("d4", Color::Black), ("j8", Color::White), ("c12", Color::Black), ("k10", Color::White)];
        let last = [("m3", Color::Black)];
        for (p, c) in stones.iter().chain(&more).chain(&last) {
            pb.make(Pos::parse(p, 15).expect("point"), *c);
        }
        let options = SearchOptions::default();
        let mut probe = pb.clone();
        probe.set_code_values(Some(options.weights.0.code_values(Rule::Renju)));
        let stand = evaluate(&probe, Color::White, &options.weights).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        // Each single four of White's, Black's block, and the evaluation there: the leaf is the best of them and
        // of standing pat.
        let fours: Vec<Pos> = probe
            .four_candidates(Color::White)
            .filter(|&m| matches!(probe.pattern4(Color::White, m), Pattern4::Block4 | Pattern4::Block4Plus))
            .collect();
        assert_eq!(fours.len(), 2, "K8 and L8 make the four");
        let mut lines = Vec::new();
        for &m in &fours {
            probe.make(m, Color::White);
            let block = probe.five_points(Color::White).next().expect("a four");
            probe.make(block, Color::Black);
            lines.push(evaluate(&probe, Color::White, &options.weights).clamp(-EVAL_LIMIT, EVAL_LIMIT));
            probe.undo();
            probe.undo();
        }
        let best_line = lines.iter().copied().max().expect("two lines");
        assert_ne!(best_line, stand, "the position tells the two apart");
        assert_eq!(leaf(&pb, 0, 0), (stand, 0));
        assert_eq!(leaf(&pb, 1, 0), (stand.max(best_line), 2));
        // Locally, only K8 (on the column of White's last stone, K10, two steps away) is tried; L8 is off its lines.
        let k8 = fours.iter().position(|&m| m == Pos::parse("k8", 15).expect("point")).expect("K8 is a four");
        assert_eq!(leaf(&pb, 1, 1), (stand.max(lines[k8]), 1));
    }

    #[test]
    fn near_on_a_line_means_a_row_column_or_diagonal_within_four_steps() {
        let p = |s: &str| Pos::parse(s, 15).expect("point");
        let near = |m: &str, o: &str| on_line_within(p(m), p(o), LOCAL_REACH);
        assert!(near("h8", "h12") && near("h8", "l12") && near("h8", "d4"));
        assert!(!near("h8", "h13") && !near("h8", "i10") && !near("h8", "m13"));
    }
}
