//! VCT: victory by continuous threats, by df-pn (depth-first proof-number search) with a transposition table.
//!
//! A threat is a move after which the attacker would have a VCF if the defender passed: a four, an open three (its
//! straight four is a two-move VCF), or a quieter move that sets up a VCF (a "fukumi"). The attacker's VCF and the
//! defender's VCF are found by the VCF solver, whose refutation tables live as long as this solver.
//!
//! - Attacker nodes (OR): a five wins; a defender four must be blocked; a VCF wins; otherwise, while the depth
//!   (attacker threat moves, the final VCF not counted) allows, every legal move that makes at least an open two
//!   on some line; the defender node below tells whether it was a threat. When the defender has a VCF of its own
//!   (if the attacker passed), only the attacker's fours and the moves that can break that VCF remain: any other
//!   threat loses to it.
//! - The VCF probes at both kinds of node give up after a fixed number of nodes and count as "no VCF" then: an
//!   attacker VCF they miss is still found as a line of four threats, a defender VCF through the defender's fours,
//!   which are always among its answers. Without the cap a few positions full of fours but without a VCF took most
//!   of the time.
//! - Defender nodes (AND): a defender five point means the attack failed; an attacker four must be blocked (renju:
//!   White wins when Black's only blocks are forbidden); without a threat (no attacker VCF if the defender passed)
//!   the attack failed, and so it did if the defender has a VCF of its own. Otherwise the defender may play its
//!   fours, and every move after which the attacker has no VCF. Only moves on the threat's VCF line (or near the
//!   defender's forced blocks in it, where a stone can turn a block into a counter-four) can do that, so those are
//!   the candidates; each is confirmed by the VCF solver. Against an open three these are exactly the gaps and ends
//!   (the far ends of split threes included) that stop the straight four.
//!
//! In renju a forbidden point is neither an attack nor a defence for Black. Depth grows by iterative deepening up
//! to a few threat moves, so short wins are found first, then one pass goes to the depth limit; `None` means no win
//! within the depth limit. Unsearched children start with proof numbers that favour fours, then threes.
//!
//! Forbidden points: when White's threat ends in a four whose blocks are forbidden for Black, Black stones that can
//! make those blocks legal (on the lines through them and through the straight-four points of their threes) are
//! defence candidates too. Known limit: a White stone far from Black's threat line could in principle make one of
//! Black's moves there forbidden (by turning a pseudo double-three real); such remote defences are not generated.

use super::{Limits, Solution, Stats, Vcf, VcfOptions, ZobristMap};
use crate::board::DIRS;
use crate::movegen::{MoveList, distance, five_points, five_stops, four_moves, is_legal, sort_by_cached_key};
use crate::pattern::{Pattern, Pattern4, PatternBoard};
use crate::types::{Color, Pos};
use std::rc::Rc;

/// Options of a VCT run.
#[derive(Clone, Copy, Debug, Default)]
pub struct VctOptions<'a> {
    /// Budgets.
    pub limits: Limits<'a>,
    /// Most attacker threat moves before the final VCF (0: the default, [`DEFAULT_DEPTH`]).
    pub max_depth: u32,
    /// A threat is a move after which the attacker has a VCF of at most this many fours if the defender passed
    /// (0: the default, [`DEFAULT_THREAT_FOURS`]). 1 allows fours and threes only; a larger value also allows
    /// quiet moves that set up a short VCF. The search runs with 1 first, then with this value.
    pub threat_fours: u32,
}

/// Depths searched one at a time before the last pass at the full depth.
const SHALLOW: u32 = 5;

/// The threat VCF length when none is given.
pub const DEFAULT_THREAT_FOURS: u32 = 3;

/// The depth limit when none is given.
pub const DEFAULT_DEPTH: u32 = 24;

const INF: u32 = u32::MAX / 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    pn: u32,
    dn: u32,
}

const PROVEN: Numbers = Numbers { pn: 0, dn: INF };
const DISPROVEN: Numbers = Numbers { pn: INF, dn: 0 };
const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };

/// A node: whose move (`or` for the attacker) and how many threat moves the attacker has left.
#[derive(Clone, Copy, Debug)]
struct Node {
    or: bool,
    depth: u32,
}

/// A VCT solver for one attacker.
pub struct Vct<'a> {
    attacker: Color,
    options: VctOptions<'a>,
    table: ZobristMap<u64, Numbers>,
    /// Node expansions by position and side to move: df-pn comes back to a node many times.
    expansions: ZobristMap<(u64, bool), Expansion>,
    stats: Stats,
    stopped: bool,
    /// The attacker's VCF: an attacker node with a VCF is proven, and a short one (see [`Vct::threat`]) is the
    /// test of a threat. One solver serves both, so that each search reuses the positions the other refuted.
    attacker_vcf: Vcf<'a>,
    /// The most fours of a threat's VCF.
    threat_fours: u32,
    /// Whether the last iteration disproved some node only for lack of depth.
    depth_cut: bool,
    /// The defender's VCF: against a threat that is not a four, a defender with a VCF wins first.
    defender_vcf: Vcf<'a>,
    /// Buffers for the children's numbers of the nodes being searched, reused so that a visit allocates none.
    spare: Vec<Vec<Numbers>>,
}

/// What a node offers: the end of the search there, or the moves to search (`forced` when the only move is the
/// block of a five threat, which uses up no depth).
#[derive(Clone)]
enum Expansion {
    Done(Numbers),
    Moves { moves: Rc<[Pos]>, forced: bool },
}

impl<'a> Vct<'a> {
    /// A solver for `attacker`.
    #[must_use]
    pub fn new(attacker: Color, options: VctOptions<'a>) -> Vct<'a> {
        let vcf_options = inner_vcf_options(&options);
        Vct {
            attacker,
            options,
            table: ZobristMap::default(),
            expansions: ZobristMap::default(),
            stats: Stats::default(),
            stopped: false,
            attacker_vcf: Vcf::new(attacker, vcf_options),
            threat_fours: 1,
            depth_cut: false,
            defender_vcf: Vcf::new(attacker.opponent(), vcf_options),
            spare: Vec::new(),
        }
    }

    /// Counters so far (the VCF searches inside included).
    #[must_use]
    pub fn stats(&self) -> Stats {
        Stats { nodes: self.stats.nodes + self.attacker_vcf.stats().nodes + self.defender_vcf.stats().nodes }
    }

    /// Looks for a VCT for the attacker, who is to move in `pb`. The board is left as it was (its class counts and
    /// neighbourhoods, which the solver does not need, are switched off meanwhile and recomputed after).
    pub fn solve(&mut self, pb: &mut PatternBoard) -> Solution {
        let tracking = pb.tracking();
        pb.set_tracking(false);
        let solution = self.solve_untracked(pb);
        pb.set_tracking(tracking);
        solution
    }

    fn solve_untracked(&mut self, pb: &mut PatternBoard) -> Solution {
        let most = if self.options.max_depth == 0 { DEFAULT_DEPTH } else { self.options.max_depth };
        let longest = if self.options.threat_fours == 0 { DEFAULT_THREAT_FOURS } else { self.options.threat_fours };
        // Fours and threes at shallow depths first (cheap, and most wins are there), then everything: the longer
        // threats to the full depth in one pass, which shares far more of a deep proof's tree than many passes.
        let shallow: Vec<u32> = (0..=SHALLOW.min(most)).collect();
        let mut schedule = vec![(1, shallow.clone())];
        if longest > 1 {
            schedule.push((longest, vec![most]));
        } else if SHALLOW < most {
            schedule.push((1, vec![most]));
        }
        for (threat_fours, depths) in schedule {
            if threat_fours != self.threat_fours || self.expansions.is_empty() {
                self.set_threat_fours(threat_fours);
            }
            for depth in depths {
                let root = Node { or: true, depth };
                self.depth_cut = false;
                let numbers = self.search(pb, root, INF - 1, INF - 1);
                if self.stopped {
                    return Solution::Unknown;
                }
                if numbers.pn == 0 {
                    return self.principal_line(pb, root).map_or(Solution::Unknown, Solution::Win);
                }
                if numbers.dn != 0 {
                    return Solution::Unknown;
                }
                if !self.depth_cut {
                    break; // disproved without reaching the depth limit: more depth changes nothing
                }
            }
        }
        Solution::None
    }

    /// Threats become moves that leave a VCF of at most `fours` fours; what was learnt under other threats goes.
    fn set_threat_fours(&mut self, fours: u32) {
        self.threat_fours = fours;
        self.table.clear();
        self.expansions.clear();
    }

    fn key_of(hash: u64, node: Node) -> u64 {
        hash ^ u64::from(node.depth).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn key(pb: &PatternBoard, node: Node) -> u64 {
        Self::key_of(pb.board().hash(), node)
    }

    fn lookup(&self, pb: &PatternBoard, node: Node) -> Numbers {
        self.table.get(&Self::key(pb, node)).copied().unwrap_or(UNKNOWN)
    }

    /// The node reached by `m` from `node` (a forced block does not use up depth).
    fn child(node: Node, forced: bool) -> Node {
        if node.or {
            Node { or: false, depth: if forced { node.depth } else { node.depth.saturating_sub(1) } }
        } else {
            Node { or: true, depth: node.depth }
        }
    }

    /// The numbers of a child not searched yet: an attacker four leaves one reply and a three a few, while a quiet
    /// threat leaves many, so the proof of a quieter move is expected to cost more.
    fn initial(pb: &PatternBoard, node: Node, side: Color, m: Pos) -> Numbers {
        if !node.or {
            return UNKNOWN;
        }
        let pn = match pb.pattern4(side, m) {
            k if k >= Pattern4::Block4 => 1,
            k if k >= Pattern4::Flex3 => 2,
            _ => 8,
        };
        Numbers { pn, dn: 1 }
    }

    /// df-pn's multiple iterative deepening at one node.
    fn search(&mut self, pb: &mut PatternBoard, node: Node, pn_limit: u32, dn_limit: u32) -> Numbers {
        self.stats.nodes += 1;
        if self.stopped || (self.stats.nodes & 63 == 0 && self.options.limits.exceeded(self.stats().nodes)) {
            self.stopped = true;
            return self.lookup(pb, node);
        }
        let key = Self::key(pb, node);
        let known = self.lookup(pb, node);
        if known.pn >= pn_limit || known.dn >= dn_limit {
            return known;
        }
        let (moves, forced) = match self.expand(pb, node) {
            Expansion::Done(n) => {
                self.table.insert(key, n);
                return n;
            }
            Expansion::Moves { moves, forced } => (moves, forced),
        };
        let side = if node.or { self.attacker } else { self.attacker.opponent() };
        let next = Self::child(node, forced);
        // The children's numbers, read from the table once: while this node is searched, a child changes only
        // when it is the one searched, whose new numbers the search returns.
        let mut children = self.spare.pop().unwrap_or_default();
        children.clear();
        children.extend(moves.iter().map(|&m| {
            let child_key = Self::key_of(pb.board().hash_after(m, side), next);
            self.table.get(&child_key).copied().unwrap_or_else(|| Self::initial(pb, node, side, m))
        }));
        loop {
            let mut best = 0;
            let (mut best_value, mut second) = (INF + 1, INF + 1);
            let (mut min_value, mut sum) = (INF, 0u32);
            for (i, &child) in children.iter().enumerate() {
                // At an OR node we minimise the children's pn and add their dn; at an AND node the reverse.
                let (select, add) = if node.or { (child.pn, child.dn) } else { (child.dn, child.pn) };
                // Only a proven child makes the sum infinite; large finite sums stay below it.
                sum = if add >= INF || sum >= INF { INF } else { sum.saturating_add(add).min(INF - 2) };
                min_value = min_value.min(select);
                if select < best_value {
                    second = best_value;
                    best_value = select;
                    best = i;
                } else if select < second {
                    second = select;
                }
            }
            let here = if node.or { Numbers { pn: min_value, dn: sum } } else { Numbers { pn: sum, dn: min_value } };
            if here.pn >= pn_limit || here.dn >= dn_limit || self.stopped {
                self.table.insert(key, here);
                self.spare.push(children);
                return here;
            }
            let m = moves[best];
            let child = children[best];
            pb.make(m, side);
            let grow = |second: u32| second.saturating_add(1);
            let (child_pn, child_dn) = if node.or {
                (grow(second).min(pn_limit), dn_limit.saturating_sub(here.dn).saturating_add(child.dn))
            } else {
                (pn_limit.saturating_sub(here.pn).saturating_add(child.pn), grow(second).min(dn_limit))
            };
            children[best] = self.search(pb, next, child_pn.min(INF), child_dn.min(INF));
            pb.undo();
        }
    }

    /// The end of the search at this node, or its moves in search order.
    fn expand(&mut self, pb: &mut PatternBoard, node: Node) -> Expansion {
        let cache_key = (pb.board().hash(), node.or);
        let expansion = match self.expansions.get(&cache_key) {
            Some(e) => e.clone(),
            None if node.or && node.depth == 0 => {
                // Out of depth: only a five, a forced block or a VCF can decide here, so the threats are not
                // generated (nor cached: a deeper visit needs them).
                match self.settle_attacker(pb) {
                    Some(e) => {
                        if !self.stopped {
                            self.expansions.insert(cache_key, e.clone());
                        }
                        e
                    }
                    None => {
                        self.depth_cut = true;
                        return Expansion::Done(DISPROVEN);
                    }
                }
            }
            None => {
                let e = self.expand_position(pb, node.or);
                if !self.stopped {
                    self.expansions.insert(cache_key, e.clone());
                }
                e
            }
        };
        match expansion {
            Expansion::Moves { forced: false, .. } if node.or && node.depth == 0 => {
                self.depth_cut = true;
                Expansion::Done(DISPROVEN)
            }
            e => e,
        }
    }

    /// An attacker node decided without its threats: a five, the forced blocks of a defender four, or a VCF;
    /// `None` when only threats can decide it.
    fn settle_attacker(&mut self, pb: &mut PatternBoard) -> Option<Expansion> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if pb.five_points(a).next().is_some() || pb.five_points(d).next().is_some() {
            return Some(self.expand_position(pb, true));
        }
        match probe(&mut self.attacker_vcf, &self.options.limits, pb) {
            Ok(Some(_)) => Some(Expansion::Done(PROVEN)),
            Ok(None) => None,
            Err(()) => {
                self.stopped = true;
                Some(Expansion::Done(UNKNOWN))
            }
        }
    }

    /// [`Vct::expand`] without the depth limit and the cache.
    fn expand_position(&mut self, pb: &mut PatternBoard, or: bool) -> Expansion {
        let a = self.attacker;
        let d = a.opponent();
        let (mover, waiter) = if or { (a, d) } else { (d, a) };
        let (win, loss) = if or { (PROVEN, DISPROVEN) } else { (DISPROVEN, PROVEN) };
        if pb.five_points(mover).next().is_some() {
            return Expansion::Done(win);
        }
        if pb.five_points(waiter).next().is_some() {
            let threats = five_points(pb, waiter);
            // The waiting side threatens five: stop it, or lose.
            let blocks = five_stops(pb, mover, &threats);
            if blocks.is_empty() {
                return Expansion::Done(loss);
            }
            return Expansion::Moves { moves: Rc::from(blocks.as_slice()), forced: or };
        }
        let mut moves = if or {
            let Ok(vcf) = probe(&mut self.attacker_vcf, &self.options.limits, pb) else {
                self.stopped = true;
                return Expansion::Done(UNKNOWN);
            };
            if vcf.is_some() {
                return Expansion::Done(PROVEN);
            }
            let mut attacks = self.attacks(pb);
            // A defender with a VCF of its own (if the attacker passed) wins against any threat that is not a four
            // and leaves that VCF standing: only the moves that can break it, and the attacker's fours, remain.
            match probe(&mut self.defender_vcf, &self.options.limits, pb) {
                Ok(Some(line)) => {
                    let breakers = threat_candidates(pb, a, &line);
                    let fours = four_moves(pb, a);
                    attacks.retain(|m| breakers.contains(m) || fours.contains(m));
                }
                Ok(None) => {}
                Err(()) => {
                    self.stopped = true;
                    return Expansion::Done(UNKNOWN);
                }
            }
            attacks
        } else {
            let threat = match self.threat(pb) {
                Solution::Win(line) => line,
                Solution::None => return Expansion::Done(DISPROVEN), // no threat: the defender plays freely
                Solution::Unknown => {
                    self.stopped = true;
                    return Expansion::Done(UNKNOWN);
                }
            };
            // A defender with a VCF wins first (a VCF too long to probe is still searched: its fours are among
            // the defences below).
            match probe(&mut self.defender_vcf, &self.options.limits, pb) {
                Ok(Some(_)) => return Expansion::Done(DISPROVEN),
                Ok(None) => {}
                Err(()) => {
                    self.stopped = true;
                    return Expansion::Done(UNKNOWN);
                }
            }
            match self.defences(pb, &threat) {
                Some(moves) => moves,
                None => return Expansion::Done(UNKNOWN),
            }
        };
        if moves.is_empty() {
            return Expansion::Done(loss);
        }
        let recent: Vec<Pos> = pb.board().moves().iter().rev().take(4).map(|&(p, _)| p).collect();
        // Strongest class first, then nearest a recent move.
        sort_by_cached_key(&mut moves, |p| {
            let class = pb.pattern4(mover, p) as u32;
            let near = recent.iter().map(|&r| distance(r, p)).min().unwrap_or(0);
            ((Pattern4::Five as u32 - class) << 16) | near
        });
        Expansion::Moves { moves: Rc::from(moves.as_slice()), forced: false }
    }

    /// The attacker's VCF of at most [`Vct::threat_fours`] fours (as if the defender passed): a move after which
    /// there is one is a threat.
    fn threat(&mut self, pb: &mut PatternBoard) -> Solution {
        self.attacker_vcf.solve_with_moves(pb, u64::MAX, self.threat_fours)
    }

    /// The attacker's candidate threats: legal moves that make at least an open two on some line (a move that sets
    /// up a VCF need not make a three: it may add a stone to a line the VCF fills later).
    fn attacks(&self, pb: &mut PatternBoard) -> MoveList {
        let a = self.attacker;
        // With threats of one four (fours and threes), a threat makes at least a blocked three somewhere. So does
        // any threat when the attacker has no four point (nor a Forbidden one, which may hide a four): a VCF starts
        // with a four, and a move that makes no more than a two on each line makes no four point.
        let no_fours = pb.four_candidates(a).next().is_none();
        let weakest = if self.threat_fours <= 1 || no_fours { Pattern::Block3 } else { Pattern::Flex2 };
        let mut moves = MoveList::new();
        let mut to_check = MoveList::new();
        let weakest = weakest as u16;
        pb.for_each_empty(|p, cls| {
            let class = cls[a.index()];
            // The four patterns' raw values, compared in place (a pattern's value is its order).
            let packed = pb.packed_patterns(a, p);
            let shape = (0..4).any(|dir| (packed >> (4 * dir)) & 0xf >= weakest);
            if class == Pattern4::Forbidden {
                to_check.push(p);
            } else if shape {
                moves.push(p);
            }
        });
        for p in to_check {
            if is_legal(pb, a, p) {
                moves.push(p);
            }
        }
        moves
    }

    /// The defender's answers to `threat` (the attacker's VCF if the defender passed): its fours, and the moves on
    /// or near that line after which the attacker has no VCF. `None` when the budget ran out.
    fn defences(&mut self, pb: &mut PatternBoard, threat: &[Pos]) -> Option<MoveList> {
        let d = self.attacker.opponent();
        let mut out = MoveList::new();
        for q in threat_candidates(pb, d, threat) {
            if !is_legal(pb, d, q) {
                continue;
            }
            pb.make(q, d);
            let attacker_still_wins = self.threat(pb);
            pb.undo();
            match attacker_still_wins {
                Solution::None => out.push(q),
                Solution::Win(_) => {}
                Solution::Unknown => {
                    self.stopped = true;
                    return None;
                }
            }
        }
        for q in four_moves(pb, d) {
            if !out.contains(&q) {
                out.push(q);
            }
        }
        Some(out)
    }

    /// A line from the root through the proven tree: the attacker's proven moves and the defender's replies.
    fn principal_line(&mut self, pb: &mut PatternBoard, root: Node) -> Option<Vec<Pos>> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        let mut line = Vec::new();
        let mut node = root;
        let start = pb.board().stone_count();
        let result = loop {
            let side = if node.or { a } else { d };
            let moves = match self.expand(pb, node) {
                Expansion::Done(n) if n == PROVEN && node.or => {
                    // A five, or a VCF from here.
                    if let Some(&five) = five_points(pb, a).first() {
                        line.push(five);
                        break Some(line);
                    }
                    match self.attacker_vcf.solve(pb) {
                        Solution::Win(rest) => {
                            line.extend(rest);
                            break Some(line);
                        }
                        _ => break None,
                    }
                }
                Expansion::Done(n) if n == PROVEN => {
                    let fives = five_points(pb, a);
                    let reply = if fives.is_empty() {
                        // No move stops the threat: block a point of the attacker's VCF, or else play anywhere.
                        let mut candidates = match self.attacker_vcf.solve(pb) {
                            Solution::Win(threat) => threat_candidates(pb, d, &threat).to_vec(),
                            _ => Vec::new(),
                        };
                        candidates.extend(pb.board().points().filter(|&q| pb.board().is_empty(q)));
                        candidates.into_iter().find(|&q| is_legal(pb, d, q))
                    } else {
                        // An unstoppable four: block one end (none when every block is forbidden for Black).
                        fives.iter().copied().find(|&f| is_legal(pb, d, f))
                    };
                    let Some(reply) = reply else { break (!fives.is_empty()).then_some(line) };
                    line.push(reply);
                    pb.make(reply, d);
                    node = Node { or: true, depth: node.depth };
                    continue;
                }
                Expansion::Done(_) => break None,
                Expansion::Moves { moves, forced } => (moves, forced),
            };
            let (moves, forced) = moves;
            let next = Self::child(node, forced);
            // Children already proven first; search the others only when none is.
            let mut order: Vec<Pos> = moves.to_vec();
            order.sort_by_key(|&m| {
                self.table.get(&Self::key_of(pb.board().hash_after(m, side), next)).map_or(1, |n| n.pn.min(1))
            });
            let mut chosen = None;
            for &m in &order {
                pb.make(m, side);
                let mut child = self.lookup(pb, next);
                if child.pn != 0 {
                    child = self.search(pb, next, INF - 1, INF - 1);
                }
                // A defender reply is shown only if it stops every VCF, when one does (else the first proven).
                let stops = node.or || self.attacker_vcf.solve(pb) == Solution::None;
                pb.undo();
                if child.pn == 0 && (stops || chosen.is_none()) {
                    chosen = Some(m);
                    if stops {
                        break;
                    }
                }
            }
            let Some(m) = chosen else { break None };
            line.push(m);
            pb.make(m, side);
            node = next;
        };
        while pb.board().stone_count() > start {
            pb.undo();
        }
        result
    }
}

/// Most nodes of one VCF probe inside the search (see the module notes).
const PROBE_NODES: u64 = 1024;

/// A VCF probe: `Ok(Some(line))` for a win, `Ok(None)` for none or none found within [`PROBE_NODES`], `Err` when
/// the run's limits are reached.
fn probe(vcf: &mut Vcf<'_>, limits: &Limits<'_>, pb: &mut PatternBoard) -> Result<Option<Vec<Pos>>, ()> {
    match vcf.solve_within(pb, PROBE_NODES) {
        Solution::Win(line) => Ok(Some(line)),
        Solution::None => Ok(None),
        Solution::Unknown if limits.exceeded(0) => Err(()),
        Solution::Unknown => Ok(None),
    }
}

/// The options of the VCF searches inside a VCT run: its deadline and abort flag, no node limit of their own.
fn inner_vcf_options<'a>(options: &VctOptions<'a>) -> VcfOptions<'a> {
    VcfOptions { limits: Limits { nodes: 0, ..options.limits }, ..VcfOptions::default() }
}

/// Empty points where a defender stone might break the attacker's VCF `threat`: the points of the line itself;
/// the points near each forced block on lines where one more defender stone would turn the block into a four or a
/// five (a counter-threat in the middle of the VCF; judged with the line's earlier moves on the board, so that a
/// counter-four made of two blocks is seen); in caro the points that can close a five at its far end; and when the
/// line ends in a White four whose blocks are forbidden for Black, the points that can change those verdicts (on
/// the lines through them and through the straight-four points of their threes: a Black stone there can make a
/// three false).
fn threat_candidates(pb: &mut PatternBoard, defender: Color, threat: &[Pos]) -> MoveList {
    let attacker = defender.opponent();
    let caro = pb.rule().five_needs_open_end();
    let mut points: Vec<Pos> = Vec::new();
    let mut side = attacker;
    let mut played = 0;
    for (i, &p) in threat.iter().enumerate() {
        points.push(p);
        if !pb.board().is_empty(p) {
            break;
        }
        if i % 2 == 1 {
            for dir in 0..4 {
                // One more defender stone on this line turns the block into a four (or a five).
                if (Pattern::Block3..Pattern::Five).contains(&pb.pattern(defender, p, dir)) {
                    points.extend(line_points(pb, p, dir, 4));
                }
            }
        }
        pb.make(p, side);
        played += 1;
        if caro && side == attacker {
            for f in five_points(pb, attacker) {
                for dir in 0..4 {
                    points.extend(line_points(pb, f, dir, 5));
                }
            }
        }
        side = side.opponent();
    }
    if defender == Color::Black && pb.rule().has_forbidden() && threat.len() % 2 == 1 && played == threat.len() {
        points.extend(forbidden_breakers(pb, attacker));
    }
    for _ in 0..played {
        pb.undo();
    }
    let mut out = MoveList::new();
    for q in points {
        push_empty(pb, q, &mut out);
    }
    out
}

/// At the end of a White threat line: the Black points that make one of White's forbidden-for-Black five points
/// legal again.
fn forbidden_breakers(pb: &mut PatternBoard, attacker: Color) -> MoveList {
    let mut breakers = MoveList::new();
    let mut forbidden_ends = MoveList::new();
    for f in five_points(pb, attacker) {
        if pb.forbidden_kind(f).is_some() {
            forbidden_ends.push(f);
        }
    }
    for &f in &forbidden_ends {
        for dir in 0..4 {
            push_line(pb, f, dir, 5, &mut breakers);
            if pb.pattern(Color::Black, f, dir) == Pattern::Flex3 {
                for q in line_points(pb, f, dir, 4) {
                    if pb.board().is_empty(q) {
                        for qdir in 0..4 {
                            push_line(pb, q, qdir, 5, &mut breakers);
                        }
                    }
                }
            }
        }
    }
    // Keep the points that really make a forbidden end legal.
    breakers.retain(|q| {
        pb.make(*q, Color::Black);
        let breaks = forbidden_ends.iter().any(|&f| pb.forbidden_kind(f).is_none());
        pb.undo();
        breaks
    });
    breakers
}

/// The on-board points within `reach` steps of `p` along direction `dir` (not `p` itself).
fn line_points(pb: &PatternBoard, p: Pos, dir: usize, reach: i32) -> impl Iterator<Item = Pos> + use<> {
    let size = pb.size() as i32;
    let (dx, dy) = DIRS[dir];
    (-reach..=reach).filter(|&k| k != 0).filter_map(move |k| {
        let (x, y) = (i32::from(p.x) + k * dx, i32::from(p.y) + k * dy);
        (x >= 0 && y >= 0 && x < size && y < size).then(|| Pos::new(x as usize, y as usize))
    })
}

/// Adds the empty points within `reach` of `p` along `dir` to `out`.
fn push_line(pb: &PatternBoard, p: Pos, dir: usize, reach: i32, out: &mut MoveList) {
    for q in line_points(pb, p, dir, reach) {
        push_empty(pb, q, out);
    }
}

/// Adds `q` to `out` if it is empty and not there yet.
fn push_empty(pb: &PatternBoard, q: Pos, out: &mut MoveList) {
    if pb.board().is_empty(q) && !out.contains(&q) && !out.is_full() {
        out.push(q);
    }
}
