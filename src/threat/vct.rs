//! VCT: victory by continuous threats, by df-pn (depth-first proof-number search) with a transposition table.
//!
//! A threat is a move after which the attacker would have a VCF if the defender passed: a four, an open three (its
//! straight four is a two-move VCF), or a quieter move that sets up a VCF (a "fukumi"). The attacker's VCF and the
//! defender's VCF are found by the VCF solver, whose refutation tables live as long as this solver.
//!
//! - Attacker nodes (OR): a five wins; a defender four must be blocked; a VCF wins; otherwise, while the depth
//!   (attacker threat moves, the final VCF not counted) allows, every legal move that makes at least an open two
//!   on some line; the defender node below tells whether it was a threat.
//! - Defender nodes (AND): a defender five point means the attack failed; an attacker four must be blocked (renju:
//!   White wins when Black's only blocks are forbidden); without a threat (no attacker VCF if the defender passed)
//!   the attack failed, and so it did if the defender has a VCF of its own. Otherwise the defender may play its
//!   fours, and every move after which the attacker has no VCF. Only moves on the threat's VCF line (or near the
//!   defender's forced blocks in it, where a stone can turn a block into a counter-four) can do that, so those are
//!   the candidates; each is confirmed by the VCF solver. Against an open three these are exactly the gaps and ends
//!   (the far ends of split threes included) that stop the straight four.
//!
//! In renju a forbidden point is neither an attack nor a defence for Black. Depth grows by iterative deepening, so
//! the shortest threat sequences are found first, and `None` means no win within the depth limit.
//!
//! Known limit: a White stone far from Black's threat line can in principle make a point of that line forbidden (by
//! turning a pseudo double-three real); such remote defences are not generated.

use super::{Limits, Solution, Stats, Vcf, VcfOptions};
use crate::board::DIRS;
use crate::movegen::{MoveList, distance, five_points, four_moves, is_legal};
use crate::pattern::{Pattern, Pattern4, PatternBoard};
use crate::types::{Color, Pos};
use std::collections::HashMap;
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
    table: HashMap<u64, Numbers>,
    /// Node expansions by position and side to move: df-pn comes back to a node many times.
    expansions: HashMap<(u64, bool), Expansion>,
    stats: Stats,
    stopped: bool,
    /// The attacker's VCF: an attacker node with a VCF is proven.
    attacker_vcf: Vcf<'a>,
    /// The attacker's short VCF, the test of a threat.
    threat_vcf: Vcf<'a>,
    /// The defender's VCF: against a threat that is not a four, a defender with a VCF wins first.
    defender_vcf: Vcf<'a>,
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
        let vcf_options = VcfOptions { limits: Limits { nodes: 0, ..options.limits }, ..VcfOptions::default() };
        Vct {
            attacker,
            options,
            table: HashMap::new(),
            expansions: HashMap::new(),
            stats: Stats::default(),
            stopped: false,
            attacker_vcf: Vcf::new(attacker, vcf_options),
            threat_vcf: Vcf::new(attacker, VcfOptions { max_moves: 1, ..vcf_options }),
            defender_vcf: Vcf::new(attacker.opponent(), vcf_options),
        }
    }

    /// Counters so far (the VCF searches inside included).
    #[must_use]
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.stats.nodes
                + self.attacker_vcf.stats().nodes
                + self.threat_vcf.stats().nodes
                + self.defender_vcf.stats().nodes,
        }
    }

    /// Looks for a VCT for the attacker, who is to move in `pb`. The board is left as it was.
    pub fn solve(&mut self, pb: &mut PatternBoard) -> Solution {
        let most = if self.options.max_depth == 0 { DEFAULT_DEPTH } else { self.options.max_depth };
        let longest = if self.options.threat_fours == 0 { DEFAULT_THREAT_FOURS } else { self.options.threat_fours };
        // Fours and threes first (cheap and usually enough), then the longer threats.
        let mut passes = vec![1];
        if longest > 1 {
            passes.push(longest);
        }
        for threat_fours in passes {
            self.set_threat_fours(threat_fours);
            for depth in 0..=most {
                let root = Node { or: true, depth };
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
            }
        }
        Solution::None
    }

    /// Threats become moves that leave a VCF of at most `fours` fours; what was learnt under other threats goes.
    fn set_threat_fours(&mut self, fours: u32) {
        let vcf_options = VcfOptions { limits: Limits { nodes: 0, ..self.options.limits }, ..VcfOptions::default() };
        self.threat_vcf = Vcf::new(self.attacker, VcfOptions { max_moves: fours, ..vcf_options });
        self.table.clear();
        self.expansions.clear();
    }

    fn key(pb: &PatternBoard, node: Node) -> u64 {
        pb.board().hash() ^ u64::from(node.depth).wrapping_mul(0x9e37_79b9_7f4a_7c15)
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
        loop {
            let mut best = 0;
            let (mut best_value, mut second) = (INF + 1, INF + 1);
            let (mut min_value, mut sum) = (INF, 0u32);
            for (i, &m) in moves.iter().enumerate() {
                pb.make(m, side);
                let child = self.lookup(pb, next);
                pb.undo();
                // At an OR node we minimise the children's pn and add their dn; at an AND node the reverse.
                let (select, add) = if node.or { (child.pn, child.dn) } else { (child.dn, child.pn) };
                sum = sum.saturating_add(add).min(INF);
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
                return here;
            }
            let m = moves[best];
            pb.make(m, side);
            let child = self.lookup(pb, next);
            let (child_pn, child_dn) = if node.or {
                (second.saturating_add(1).min(pn_limit), dn_limit.saturating_sub(here.dn).saturating_add(child.dn))
            } else {
                (pn_limit.saturating_sub(here.pn).saturating_add(child.pn), second.saturating_add(1).min(dn_limit))
            };
            self.search(pb, next, child_pn.min(INF), child_dn.min(INF));
            pb.undo();
        }
    }

    /// The end of the search at this node, or its moves in search order.
    fn expand(&mut self, pb: &mut PatternBoard, node: Node) -> Expansion {
        let cache_key = (pb.board().hash(), node.or);
        let expansion = match self.expansions.get(&cache_key) {
            Some(e) => e.clone(),
            None => {
                let e = self.expand_position(pb, node.or);
                if !self.stopped {
                    self.expansions.insert(cache_key, e.clone());
                }
                e
            }
        };
        match expansion {
            Expansion::Moves { forced: false, .. } if node.or && node.depth == 0 => Expansion::Done(DISPROVEN),
            e => e,
        }
    }

    /// [`Vct::expand`] without the depth limit and the cache.
    fn expand_position(&mut self, pb: &mut PatternBoard, or: bool) -> Expansion {
        let node = Node { or, depth: 1 };
        let a = self.attacker;
        let d = a.opponent();
        let (mover, waiter) = if node.or { (a, d) } else { (d, a) };
        let (win, loss) = if node.or { (PROVEN, DISPROVEN) } else { (DISPROVEN, PROVEN) };
        if !five_points(pb, mover).is_empty() {
            return Expansion::Done(win);
        }
        let threats = five_points(pb, waiter);
        if !threats.is_empty() {
            // The waiting side threatens five: block it, or lose.
            let blocks: MoveList = threats.iter().copied().filter(|&f| is_legal(pb, mover, f)).collect();
            if threats.len() >= 2 || blocks.is_empty() {
                return Expansion::Done(loss);
            }
            return Expansion::Moves { moves: Rc::from([blocks[0]].as_slice()), forced: node.or };
        }
        let mut moves = if node.or {
            match self.attacker_vcf.solve(pb) {
                Solution::Win(_) => return Expansion::Done(PROVEN),
                Solution::Unknown => {
                    self.stopped = true;
                    return Expansion::Done(UNKNOWN);
                }
                Solution::None => {}
            }
            self.attacks(pb)
        } else {
            let threat = match self.threat_vcf.solve(pb) {
                Solution::Win(line) => line,
                Solution::None => return Expansion::Done(DISPROVEN), // no threat: the defender plays freely
                Solution::Unknown => {
                    self.stopped = true;
                    return Expansion::Done(UNKNOWN);
                }
            };
            match self.defender_vcf.solve(pb) {
                Solution::Win(_) => return Expansion::Done(DISPROVEN),
                Solution::Unknown => {
                    self.stopped = true;
                    return Expansion::Done(UNKNOWN);
                }
                Solution::None => {}
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
        moves.sort_by_key(|p| {
            let class = pb.pattern4(mover, *p) as u32;
            let near = recent.iter().map(|&r| distance(r, *p)).min().unwrap_or(0);
            (u32::MAX - class, near)
        });
        Expansion::Moves { moves: Rc::from(moves.as_slice()), forced: false }
    }

    /// The attacker's candidate threats: legal moves that make at least an open two on some line (a move that sets
    /// up a VCF need not make a three: it may add a stone to a line the VCF fills later).
    fn attacks(&self, pb: &mut PatternBoard) -> MoveList {
        let a = self.attacker;
        let mut moves = MoveList::new();
        let mut to_check = MoveList::new();
        pb.for_each_empty(|p, cls| {
            let class = cls[a.index()];
            let shape = (0..4).any(|dir| pb.pattern(a, p, dir) >= Pattern::Flex2);
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
            let attacker_still_wins = self.attacker_vcf.solve(pb);
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
            let mut chosen = None;
            for &m in moves.iter() {
                pb.make(m, side);
                let mut child = self.lookup(pb, next);
                if child.pn != 0 {
                    child = self.search(pb, next, INF - 1, INF - 1);
                }
                pb.undo();
                if child.pn == 0 {
                    chosen = Some(m);
                    break;
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

/// Empty points where a defender stone might break the attacker's VCF `threat`: the points of the line itself,
/// and the points near the defender's forced blocks on lines where one more defender stone would turn the block
/// into a four (a counter-four in the middle of the VCF).
fn threat_candidates(pb: &PatternBoard, defender: Color, threat: &[Pos]) -> MoveList {
    let size = pb.size() as i32;
    let mut out = MoveList::new();
    let add = |q: Pos, out: &mut MoveList| {
        if pb.board().is_empty(q) && !out.contains(&q) {
            out.push(q);
        }
    };
    for (i, &p) in threat.iter().enumerate() {
        add(p, &mut out);
        if i % 2 == 0 {
            continue; // an attacker move
        }
        for (dir, &(dx, dy)) in DIRS.iter().enumerate() {
            let pattern = pb.pattern(defender, p, dir);
            if !(pattern == Pattern::Block3 || pattern == Pattern::Flex3) {
                continue;
            }
            for k in (-4i32..=4).filter(|&k| k != 0) {
                let (x, y) = (i32::from(p.x) + k * dx, i32::from(p.y) + k * dy);
                if x >= 0 && y >= 0 && x < size && y < size {
                    add(Pos::new(x as usize, y as usize), &mut out);
                }
            }
        }
    }
    out
}
