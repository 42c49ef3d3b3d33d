//! One search thread: iterative deepening over a principal variation search, with the VCF solver as its
//! quiescence search (and the root's VCT again between iterations where the position looks won: the late VCT).

mod defences;
mod iterate;
mod ordering;
mod quiesce;
mod solvers;
#[cfg(test)]
mod test_worker;

use super::census::{Census, bucket};
use super::history::History;
use super::params::DEFER_DEPTH;
use super::picker::MovePicker;
use super::reductions::Reductions;
use super::stack::Stack;
use super::tt::{Bound, Entry, from_tt, to_tt};
use super::{INFINITE, MATE, MATE_BOUND, MAX_PLY, Report, SearchOptions, Shared};
use crate::eval::network::Accumulator;
use crate::eval::policy::{self, Policy};
use crate::eval::{EVAL_LIMIT, evaluate, network_evaluate};
use crate::movegen::{Candidates, MoveList, candidates, distance};
use crate::pattern::{Pattern4, PatternBoard};
use crate::threat::{Limits, Vcf, VcfOptions, ZobristMap, static_win};
use crate::types::{Color, Pos};
use std::time::Duration;

/// What kind of node a search is at, known when the code is compiled.
pub trait NodeType {
    /// A node of the principal variation, searched with an open window.
    const PV: bool;
    /// The root, whose moves are the search's root move list.
    const ROOT: bool;
}

/// The root.
pub struct Root;
/// A node of the principal variation below the root.
pub struct Pv;
/// A node searched with a null window.
pub struct NonPv;

impl NodeType for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}
impl NodeType for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}
impl NodeType for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

/// A side-to-move key mixed into the TT key (the stones alone do not tell whose move it is after a set-up).
const WHITE_TO_MOVE: u64 = 0x5bd1_e995_9e37_79b9;

/// One search thread.
pub struct Worker<'a> {
    pb: PatternBoard,
    root_side: Color,
    shared: &'a Shared<'a>,
    options: SearchOptions,
    id: usize,
    nodes: u64,
    stopped: bool,
    /// Leaf VCF probes, one solver per colour (their refutation tables are reused).
    vcf: [Vcf<'a>; 2],
    stack: Stack,
    history: History,
    /// The best root move of the iteration under way, once one has been searched to its end: its score and line.
    root_best: Option<(Pos, i32, Vec<Pos>)>,
    /// The network's state, following the board, when a network evaluates.
    acc: Option<Accumulator>,
    /// The late move reductions of the options' tunable values.
    reductions: Reductions,
    /// The VCT probes made near the root in this search, by node key: the winning line, or `None`.
    vct_probes: ZobristMap<u64, Option<Vec<Pos>>>,
    /// The move policy that orders the moves, when one is asked for (`policy_order`) and fits the network.
    policy: Option<&'static Policy>,
    /// Whether every node not answering a threat takes its static evaluation, for the trials that ask whether the
    /// position is improving (`lmp_power`, `rfp_improving`, `lmr_worsening`).
    tracks_improving: bool,
    /// The depth of the iteration under way (the four extension stops at twice it from the root).
    root_depth: i32,
    /// What this thread's nodes were spent on, added to the search's census at the end.
    census: Census,
    /// Nodes counted before the last flush into the shared total (with `nodes`, this thread's count so far).
    flushed: u64,
    /// The answers to threats found at recent nodes (`threat_defence`).
    defence_cache: defences::DefenceCache,
}

impl<'a> Worker<'a> {
    /// A thread searching `pb` for `root_side`; thread `id` 0 is the main thread.
    pub fn new(
        mut pb: PatternBoard,
        root_side: Color,
        shared: &'a Shared<'a>,
        options: SearchOptions,
        id: usize,
    ) -> Self {
        // The board keeps the evaluation's code sums from here on.
        pb.set_code_values(Some(options.weights.0.code_values(pb.rule())));
        let net = options.eval.network(pb.rule(), pb.board().size());
        let acc = net.map(|net| Accumulator::new(net, pb.board()));
        let policy = net.filter(|_| options.params.policy_order > 0).and_then(policy::for_network);
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
            vcf: Color::BOTH
                .map(|c| Vcf::with_capacity(c, vcf_options, options.vcf_memory + super::params::LEAF_VCF_SLACK)),
            stack: Stack::default(),
            history: History::default(),
            root_best: None,
            acc,
            reductions: Reductions::new(&options.params),
            vct_probes: ZobristMap::default(),
            policy,
            tracks_improving: {
                let p = &options.params;
                p.lmp_power > 0 || p.rfp_improving > 0 || p.lmr_worsening > 0
            },
            root_depth: 0,
            census: Census::default(),
            flushed: 0,
            defence_cache: defences::DefenceCache::default(),
        }
    }

    /// This thread's nodes so far.
    fn node_count(&self) -> u64 {
        self.flushed + self.nodes
    }

    /// Adds this thread's census to the search's, where one is asked for.
    fn report_census(&mut self) {
        if let Some(sink) = self.shared.census
            && let Ok(mut census) = sink.lock()
        {
            census.add(&self.census);
        }
        self.census = Census::default();
    }

    /// The static evaluation of the position for `side`, to move: the network's when one evaluates, else the
    /// classical one.
    #[inline]
    fn evaluate(&mut self, side: Color) -> i32 {
        match &mut self.acc {
            Some(acc) => {
                acc.settle(self.pb.board());
                network_evaluate(acc, &self.pb, side, &self.options.weights)
            }
            None => evaluate(&self.pb, side, &self.options.weights),
        }
    }

    /// Places `side`'s stone on `m`. The network follows it only when the child evaluates or places a stone (see
    /// `Accumulator::defer`).
    fn place(&mut self, m: Pos, side: Color) {
        if let Some(acc) = &mut self.acc {
            acc.settle(self.pb.board());
        }
        self.pb.make(m, side);
        if let Some(acc) = &mut self.acc {
            acc.defer(m);
        }
    }

    /// Takes back the last stone, on `m`, with the network following.
    fn take_back(&mut self, m: Pos) {
        if let Some(acc) = &mut self.acc {
            acc.take_back(self.pb.board(), m);
        }
        self.pb.undo();
    }

    fn key(&self, side: Color) -> u64 {
        self.pb.board().hash() ^ if side == Color::White { WHITE_TO_MOVE } else { 0 }
    }

    /// The key of the position after `side` plays `m`.
    fn child_key(&self, m: Pos, side: Color) -> u64 {
        self.pb.board().hash_after(m, side) ^ if side == Color::Black { WHITE_TO_MOVE } else { 0 }
    }

    /// The principal variation search at one node of kind `N`; `cut`: an expected cut node (a null-window search
    /// that the parent expects to fail high: a late move's reduced search, or the first answer of an expected all node).
    fn node<N: NodeType>(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        side: Color,
        cut: bool,
    ) -> i32 {
        // 1. Bookkeeping: the node count, the clock, a full board or the stone limit. The hundredths of a ply beyond
        // `depth` that the parent passed (fractional depth) are taken, so that a later call that passes none has none.
        self.stack.at_mut(ply).pv.clear();
        let frac = std::mem::take(&mut self.stack.at_mut(ply).frac);
        self.nodes += 1;
        self.census.by_depth[bucket(depth)] += 1;
        if self.nodes >= 1024 {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        if self.options.params.clear_killers > 0 {
            self.stack.at_mut(ply + 2).killers = [None; 2];
        }
        // The table slot starts loading while the node looks for wins and generates its moves (step 7 reads it).
        self.shared.table.prefetch(self.key(side));
        let stones = self.pb.board().stone_count();
        if self.pb.board().is_full() || self.options.draw_at.is_some_and(|n| stones >= n) {
            return 0;
        }
        // 2. Mate distance pruning: nothing here beats a five on the next move or loses faster than to one.
        alpha = alpha.max(-(MATE - ply as i32 - 2));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // 3. A win the pattern classes show (a five, a straight four, a four-three, a double three) needs no search.
        if !N::ROOT
            && self.options.threats
            && let Some(win) = static_win(&mut self.pb, side)
        {
            self.stack.at_mut(ply).pv.push(win.first);
            return MATE - ply as i32 - win.plies as i32;
        }
        // 3b. Near the root, deep enough: the side to move's VCT, once a search (a move at ply 0 that lets the
        // opponent's VCT in at ply 1 is lost).
        if !N::ROOT
            && self.options.threats
            && self.options.params.tree_vct_nodes > 0
            && ply <= self.options.params.tree_vct_ply as usize
            && depth >= self.options.params.tree_vct_depth
            && self.stack.at(ply).excluded.is_none()
            && let Some(line) = self.vct_probe(side)
        {
            let score = MATE - (ply + line.len()) as i32;
            self.stack.at_mut(ply).pv = line;
            return score;
        }
        // 4. A leaf without fives on the board: the quiescence search (the full move list is not needed).
        let four_against = self.pb.five_points(side.opponent()).next().is_some();
        if depth <= 0 && !four_against && self.pb.five_points(side).next().is_none() {
            return self.leaf_with_table::<N>(ply, side, alpha, beta);
        }
        // 5. The moves: the root's list, or a five, a lost position, the answers to a threat, or every move near
        // the stones.
        let (moves, forced): (MoveList, bool) = if N::ROOT {
            (self.shared.root_moves.iter().copied().collect(), false)
        } else {
            match candidates(&mut self.pb, side) {
                Candidates::Win(p) => {
                    self.stack.at_mut(ply).pv.push(p);
                    return MATE - ply as i32 - 1;
                }
                Candidates::Lost => {
                    self.show_loss(ply, side);
                    return -(MATE - ply as i32 - 2);
                }
                Candidates::Moves { moves, forced }
                    if forced
                        || self.options.params.threat_defence == 0
                        || depth < self.options.params.defence_depth =>
                {
                    (moves, forced)
                }
                Candidates::Moves { moves, .. } => self.defences(side, moves),
            }
        };
        if moves.is_empty() {
            return 0;
        }
        if forced {
            self.census.forced += 1;
            self.census.forced_single += u64::from(moves.len() == 1);
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(side);
        }
        // 6. A single forced answer (the block of a four) costs no depth at the horizon, so threats are followed to
        // their end, and `forced_ext` plies and `answer_ext` hundredths less elsewhere (the latter within twice the
        // iteration's depth from the root).
        let (depth, frac) = if forced && moves.len() == 1 {
            let p = &self.options.params;
            let capped = if ply < 2 * self.root_depth.max(1) as usize { p.answer_ext } else { 0 };
            let total = (depth + p.forced_ext) * 100 + frac + capped;
            if total < 100 { (1, 0) } else { (total / 100, total % 100) }
        } else {
            (depth, frac)
        };
        if depth <= 0 {
            return self.leaf(ply, side, alpha, beta);
        }
        // 7. The transposition table: a cut-off at non-PV nodes, the table move for the ordering. A search that
        // leaves out one move (the singular extension's, step 10) neither reads nor writes the table.
        let excluded = self.stack.at(ply).excluded;
        let key = self.key(side);
        let mut tt_move = None;
        let mut tt_entry = None;
        if excluded.is_none()
            && let Some(entry) = self.shared.table.probe(key)
        {
            tt_entry = Some(entry);
            tt_move = entry.best;
            let score = from_tt(entry.score, ply);
            if !N::PV && entry.depth >= depth && entry.bound.cuts(score, alpha, beta) {
                self.census.tt_cuts += 1;
                if self.options.params.tt_cut_history > 0
                    && entry.bound != Bound::Upper
                    && let Some(m) = entry.best
                    && self.pb.pattern4(side, m) < Pattern4::Flex3
                    && self.pb.pattern4(side.opponent(), m) < Pattern4::Flex3
                {
                    self.history.reward(side, m, depth, self.options.params.history_gravity);
                }
                return score;
            }
        }
        // A node on a principal variation now or at an earlier search of it (the table's mark), for `tt_pv_lmr`.
        let tt_pv = N::PV || tt_entry.is_some_and(|e| e.pv);
        // 7b. Internal iterative reduction: a deep node the table knows nothing of is searched a ply shallower.
        let iir = self.options.params.iir_depth;
        let depth = if iir > 0 && depth >= iir && tt_move.is_none() && excluded.is_none() && !forced {
            depth - 1
        } else {
            depth
        };
        // 8. The static evaluation, where it prunes or where the trials ask whether the position is improving (better
        // for the side to move than two plies before). Reverse futility pruning: at a shallow non-PV node that no
        // threat forces, a static evaluation this far above beta is taken to hold; razoring: one this far below
        // alpha drops into the quiescence search, whose result is taken when it does not beat alpha.
        let p = &self.options.params;
        let pruning = !N::PV
            && !forced
            && excluded.is_none()
            && beta.abs() < MATE_BOUND
            && (depth <= p.rfp_depth || depth >= p.nmp_depth);
        let static_eval = if !forced && (pruning || self.tracks_improving) { Some(self.evaluate(side)) } else { None };
        self.stack.at_mut(ply).eval = static_eval;
        let improving = self.stack.improving(ply, static_eval);
        // With `tt_eval`, the table's bound refines the evaluation that prunes (the quiescence search still stands
        // pat on the static one).
        let raw_eval = static_eval;
        let static_eval = match (static_eval, tt_entry) {
            (Some(eval), Some(entry)) if self.options.params.tt_eval > 0 && entry.score.abs() < MATE_BOUND => {
                let score = from_tt(entry.score, ply);
                let beyond = match entry.bound {
                    Bound::Lower => score > eval,
                    Bound::Upper => score < eval,
                    Bound::Exact => true,
                };
                Some(if beyond { score } else { eval })
            }
            _ => static_eval,
        };
        if pruning && let Some(eval) = static_eval {
            let p = &self.options.params; // again: the evaluation above borrowed the worker
            let margin = p.rfp_margin * depth - if improving { p.rfp_margin * p.rfp_improving / 100 } else { 0 };
            if depth <= p.rfp_depth && eval - margin >= beta {
                return eval;
            }
            if depth <= self.options.params.razor_depth && eval + self.options.params.razor_margin * depth < alpha {
                let stand = raw_eval.unwrap_or(eval).clamp(-EVAL_LIMIT, EVAL_LIMIT);
                let score = self.quiesce(ply, side, alpha, beta, stand);
                if score <= alpha {
                    return score;
                }
            }
            // 9. Null move pruning: at a deep non-PV node that no threat forces, where passing would still hold
            // beta at a reduced depth (the opponent moving twice), the node is taken to hold.
            if depth >= self.options.params.nmp_depth
                && eval >= beta
                && !(ply > 0 && self.stack.at(ply - 1).null_move)
                && self.pb.four_candidates(side.opponent()).next().is_none()
            {
                let reduction = self.options.params.nmp_reduction + depth / self.options.params.nmp_depth_div.max(1);
                self.stack.at_mut(ply).null_move = true;
                let score =
                    -self.node::<NonPv>(depth - 1 - reduction, ply + 1, -beta, -beta + 1, side.opponent(), !cut);
                self.stack.at_mut(ply).null_move = false;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        // A likely fail high (`fh_margin`): the moves that make no four a ply shallower.
        let fh = self.options.params.fh_margin;
        let likely_fail_high = fh > 0
            && !N::PV
            && cut
            && excluded.is_none()
            && beta.abs() < MATE_BOUND
            && static_eval.is_some_and(|eval| eval >= beta + fh * depth);
        // 10. Singular extension: when the table move holds a score every other move falls short of by a margin, at
        // a reduced depth with the table move left out, it is searched a ply deeper; when even without it the node
        // holds beta, it is taken to (multi-cut).
        let mut extended = None;
        if !N::ROOT
            && !forced
            && depth >= self.options.params.se_depth
            && let Some(entry) = tt_entry
            && let Some(m) = entry.best
            && entry.depth >= depth - self.options.params.se_tt_depth
            && entry.bound != Bound::Upper
            && entry.score.abs() < MATE_BOUND
        {
            let singular_beta = from_tt(entry.score, ply) - self.options.params.se_margin * depth;
            self.stack.at_mut(ply).excluded = Some(m);
            let score = self.node::<NonPv>((depth - 1) / 2, ply, singular_beta - 1, singular_beta, side, cut);
            self.stack.at_mut(ply).excluded = None;
            if self.stopped {
                return 0;
            }
            if score < singular_beta {
                extended = Some(m);
            } else if singular_beta >= beta {
                return singular_beta;
            }
        }
        // 11. The moves, best first: the first with an open window, the others with a null window (reduced when
        // quiet and late), searched again with an open window when they beat alpha. At shallow depths quiet moves
        // after the first few are pruned (move-count pruning), and so are moves that make no pattern for either side.
        let opp = side.opponent();
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        if self.policy.is_some()
            && let Some(acc) = &mut self.acc
        {
            acc.settle(self.pb.board());
        }
        let refuted = if N::ROOT { self.shared.guard.refuted() } else { Vec::new() };
        // The opponent's last stone and the side's own, found by colour (below a null move they do not alternate).
        let (last, own_last) = if self.options.params.last_by_colour > 0 {
            (self.pb.board().last_of(opp), self.pb.board().last_of(side))
        } else {
            let mut back = self.pb.board().moves().iter().rev().map(|&(p, _)| p);
            (back.next(), back.next())
        };
        // Plies less for the moves after one that raised alpha (`alpha_reduce`).
        let mut raised = 0;
        let mut picker = MovePicker::new(&moves, tt_move, |m| self.order_value(side, ply, last, m));
        let mut i = 0;
        // Lazy SMP: a deep node is marked while this thread searches it, and a late move into a node another thread
        // is searching waits until the other moves are done.
        let share = depth >= DEFER_DEPTH && excluded.is_none() && self.shared.busy.is_shared();
        let marked = share && self.shared.busy.enter(key);
        let mut deferred = MoveList::new();
        let mut next_deferred = 0;
        // The quiet moves searched here that did not refute, for the history's penalties.
        let mut quiets_failed = MoveList::new();
        // And the attacks (`attack_history`).
        let mut attacks_failed = MoveList::new();
        loop {
            let m = if let Some(m) = picker.next() {
                m
            } else if let Some(&m) = deferred.get(next_deferred) {
                next_deferred += 1;
                m
            } else {
                break;
            };
            if Some(m) == excluded || (N::ROOT && refuted.contains(&m)) {
                continue;
            }
            if share && i > 0 && next_deferred == 0 && self.shared.busy.is_busy(self.child_key(m, side)) {
                deferred.push(m);
                continue;
            }
            let (own, theirs) = (self.pb.pattern4(side, m), self.pb.pattern4(opp, m));
            let quiet_kind = !forced && own < Pattern4::Flex3 && theirs < Pattern4::Flex3;
            let quiet = quiet_kind && Some(m) != tt_move;
            // With `lmp_threes`, a move that makes or stops an open three (no four) is pruned as late as a quiet one.
            let prunable = quiet
                || (self.options.params.lmp_threes > 0
                    && !forced
                    && Some(m) != tt_move
                    && own.max(theirs) <= Pattern4::Flex3Plus);
            let attack = !forced
                && own >= Pattern4::Flex3
                && self.options.params.attack_history > 0
                && (Some(m) != tt_move || self.options.params.tt_move_reward > 0);
            if prunable && !N::ROOT && i > 0 && best_score > -MATE_BOUND {
                let p = &self.options.params;
                let late = i >= self.reductions.move_limit(depth, improving);
                let idle = quiet && depth <= p.idle_depth && own == Pattern4::None && theirs == Pattern4::None;
                if late || idle {
                    self.census.pruned_by_depth[bucket(depth)] += 1;
                    continue;
                }
            }
            self.census.moves_by_depth[bucket(depth)] += 1;
            self.place(m, side);
            // A four costs `four_ext` plies less (its block is forced), within twice the iteration's depth. The
            // child's depth in hundredths of a ply: whole plies, and the fraction passed in the child's frame.
            let four = own >= Pattern4::Block4 && ply < 2 * self.root_depth.max(1) as usize;
            let new_depth = depth - 1 + i32::from(extended == Some(m)) - raised
                + if four { self.options.params.four_ext } else { 0 }
                - i32::from(likely_fail_high && own < Pattern4::Block4);
            let new_total = new_depth * 100 + frac;
            self.stack.at_mut(ply + 1).frac = frac;
            let score = if i == 0 {
                if N::PV {
                    -self.node::<Pv>(new_depth, ply + 1, -beta, -alpha, opp, false)
                } else {
                    -self.node::<NonPv>(new_depth, ply + 1, -beta, -alpha, opp, !cut)
                }
            } else {
                // A late move that makes or stops one open three (no more) is reduced by `lmr_three` hundredths of
                // a quiet move's reduction, a late defence against an open three that makes no four by `forced_lmr`
                // hundredths, and a late four (not the table's move) by `four_lmr` hundredths.
                let top = own.max(theirs);
                let three = !forced && Some(m) != tt_move && (Pattern4::Flex3..=Pattern4::Flex3Plus).contains(&top);
                let defence = forced && !four_against && own < Pattern4::Block4 && Some(m) != tt_move;
                let late_four = !four_against && own >= Pattern4::Block4 && Some(m) != tt_move;
                let p = &self.options.params;
                let share = if quiet {
                    100
                } else if three {
                    p.lmr_three
                } else if defence {
                    p.forced_lmr
                } else if late_four {
                    p.four_lmr
                } else {
                    0
                };
                // The reduction in hundredths of a ply.
                let reduction = if share > 0 && depth >= p.lmr_depth {
                    // Never into the quiescence search (a move after one that raised alpha has less depth left).
                    // At an expected cut node (a non-PV node whose parent searched it with a null window, not as its first
                    // answer) `cut_lmr` plies more.
                    let cut_more = if cut && !N::PV { p.cut_lmr } else { 0 };
                    let (far_lmr, fine) = (p.far_lmr, p.lmr_fraction > 0);
                    let r = self.late_reduction::<N>(depth, ply, i, side, m, (own, theirs), improving, tt_pv);
                    let r = if fine {
                        (r + cut_more * 100) * share / 100
                    } else {
                        (r / 100 + cut_more) * share / 100 * 100
                    };
                    let r = r.min(new_total - 100).max(0);
                    // A move far from both last moves (`far_lmr`).
                    if far_lmr > 0 && r > 0 && [last, own_last].iter().all(|p| p.is_none_or(|p| distance(m, p) > 2)) {
                        (r + far_lmr * 100).min(new_total - 100)
                    } else {
                        r
                    }
                } else {
                    0
                };
                let reduced = new_total - reduction;
                self.stack.at_mut(ply + 1).frac = reduced.rem_euclid(100);
                let mut score = -self.node::<NonPv>(reduced.div_euclid(100), ply + 1, -alpha - 1, -alpha, opp, true);
                if score > alpha && reduction > 0 {
                    // With `lmr_deeper`, a ply deeper for a score well above the best so far, a ply shallower for one
                    // barely above it (searched again only when that is deeper than the reduced search).
                    let deeper = self.options.params.lmr_deeper;
                    let again = if deeper > 0 && score.abs() < MATE_BOUND && best_score > -MATE_BOUND {
                        let more = if score > best_score + deeper {
                            1
                        } else if score < best_score + deeper / 8 {
                            -1
                        } else {
                            0
                        };
                        (new_depth + more).min(depth)
                    } else {
                        new_depth
                    };
                    if again * 100 + frac > reduced {
                        let before = self.node_count();
                        self.stack.at_mut(ply + 1).frac = frac;
                        score = -self.node::<NonPv>(again, ply + 1, -alpha - 1, -alpha, opp, !cut);
                        self.census.researches += 1;
                        self.census.research_nodes += self.node_count() - before;
                    }
                }
                if N::PV && score > alpha && score < beta {
                    let before = self.node_count();
                    self.stack.at_mut(ply + 1).frac = frac;
                    score = -self.node::<Pv>(new_depth, ply + 1, -beta, -alpha, opp, false);
                    self.census.pv_researches += 1;
                    self.census.pv_research_nodes += self.node_count() - before;
                }
                score
            };
            self.take_back(m);
            i += 1;
            if self.stopped {
                if marked {
                    self.shared.busy.leave(key);
                }
                return 0;
            }
            // 12. A new best move: the principal variation, and at a cut-off the killers and the history.
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let less = self.options.params.alpha_reduce;
                    if score < beta && depth >= 2 + less.max(1) && score.abs() < MATE_BOUND {
                        raised = less;
                    }
                    self.stack.update_pv(ply, m);
                    if N::ROOT {
                        self.root_best = Some((m, score, self.stack.at(0).pv.clone()));
                    }
                    if score >= beta {
                        let gravity = self.options.params.history_gravity;
                        if attack {
                            self.history.reward_attack(side, m, depth, gravity);
                            for &q in &attacks_failed {
                                self.history.penalize_attack(side, q, depth, gravity);
                            }
                        }
                        if quiet || (quiet_kind && self.options.params.tt_move_reward > 0) {
                            self.stack.at_mut(ply).add_killer(m);
                            self.history.reward(side, m, depth, gravity);
                            for &q in &quiets_failed {
                                self.history.penalize(side, q, depth, gravity);
                            }
                            if let Some(last) = last {
                                self.history.set_counter(side, last, m);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && self.options.params.history_gravity > 0 {
                let _ = quiets_failed.try_push(m); // a full list leaves the rest unpenalized
            }
            if attack && self.options.params.history_gravity > 0 {
                let _ = attacks_failed.try_push(m);
            }
        }
        if marked {
            self.shared.busy.leave(key);
        }
        // 13. The result into the table (a search without one move: alpha when it had no other).
        if excluded.is_some() {
            return if best_move.is_none() { alpha } else { best_score };
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        let best = if bound == Bound::Upper && self.options.params.fail_low_keep > 0 { None } else { best_move };
        self.shared.table.store(key, Entry { best, score: to_tt(best_score, ply), depth, bound, pv: tt_pv });
        best_score
    }

    /// A leaf (see [`Worker::leaf`]), with `leaf_tt`: a non-PV leaf whose table entry decides against the window
    /// returns the entry's score, and the leaf's result is stored at depth 0 with the bound the window gives it.
    fn leaf_with_table<N: NodeType>(&mut self, ply: usize, side: Color, alpha: i32, beta: i32) -> i32 {
        if self.options.params.leaf_tt == 0 || self.stack.at(ply).excluded.is_some() {
            return self.leaf(ply, side, alpha, beta);
        }
        let key = self.key(side);
        if !N::PV
            && let Some(entry) = self.shared.table.probe(key)
        {
            let score = from_tt(entry.score, ply);
            if entry.bound.cuts(score, alpha, beta) {
                self.census.tt_cuts += 1;
                return score;
            }
        }
        let score = self.leaf(ply, side, alpha, beta);
        if self.stopped {
            return score;
        }
        let bound = Bound::of(score, alpha, beta);
        let entry = Entry { best: None, score: to_tt(score, ply), depth: 0, bound, pv: N::PV };
        self.shared.table.store(key, entry);
        score
    }

    /// The end of a lost line for the principal variation: a legal block of one of the opponent's five points and
    /// the five that follows (nothing when every block is forbidden).
    fn show_loss(&mut self, ply: usize, side: Color) {
        let opp = side.opponent();
        if let Some(block) = crate::movegen::legal_five_block(&mut self.pb, side) {
            self.pb.make(block, side);
            let five = self.pb.five_points(opp).next();
            self.pb.undo();
            let pv = &mut self.stack.at_mut(ply).pv;
            pv.push(block);
            pv.extend(five);
        }
    }
}

impl Report {
    /// A search's report with nothing filled in.
    fn searched() -> Report {
        Report { best: None, score: 0, depth: 0, pv: Vec::new(), nodes: 0, elapsed: Duration::ZERO, source: "search" }
    }

    /// A search's report of a win its late VCT proved.
    fn vct() -> Report {
        Report { source: "vct", ..Report::searched() }
    }
}
