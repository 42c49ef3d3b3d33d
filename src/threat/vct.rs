//! VCT: the attacker plays fours and threes; df-pn (depth-first proof-number search) with a transposition table.
//!
//! Attacker nodes (OR): a five wins; a defender four must be blocked; otherwise every legal four and every legal
//! move that makes an open three on some line. Defender nodes (AND): a defender five point means the attack failed;
//! an attacker four must be blocked (renju: White wins when Black's only blocks are forbidden); otherwise the
//! attacker must have a three, i.e. a legal point that makes a straight four, and the defender may play every move
//! after which no such point is left (the gaps and ends of the three, the far ends of split threes), or any four
//! of its own. In renju a forbidden point is neither an attack for Black nor a defence for Black.
//!
//! Known limit: a White stone far from a Black three can in principle make the three's straight-four point
//! forbidden (by turning a pseudo double-three real); such remote defences are not generated.

use super::{Limits, Solution, Stats, Vcf, VcfOptions};
use crate::board::DIRS;
use crate::movegen::{MoveList, distance, five_points, four_moves, is_legal};
use crate::pattern::{Pattern, Pattern4, PatternBoard};
use crate::types::{Color, Pos};
use std::collections::HashMap;

/// Options of a VCT run.
#[derive(Clone, Copy, Debug, Default)]
pub struct VctOptions<'a> {
    /// Budgets.
    pub limits: Limits<'a>,
}

const INF: u32 = u32::MAX / 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    pn: u32,
    dn: u32,
}

const PROVEN: Numbers = Numbers { pn: 0, dn: INF };
const DISPROVEN: Numbers = Numbers { pn: INF, dn: 0 };
const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };

/// A VCT solver for one attacker.
pub struct Vct<'a> {
    attacker: Color,
    options: VctOptions<'a>,
    table: HashMap<u64, Numbers>,
    stats: Stats,
    stopped: bool,
    /// The attacker's VCF: an attacker node with a VCF is proven without searching threes.
    attacker_vcf: Vcf<'a>,
    /// The defender's VCF: against a mere three, a defender with a VCF wins first.
    defender_vcf: Vcf<'a>,
}

/// What a node offers: the end of the game, or the moves to search.
enum Expansion {
    Done(Numbers),
    Moves(MoveList),
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
            stats: Stats::default(),
            stopped: false,
            attacker_vcf: Vcf::new(attacker, vcf_options),
            defender_vcf: Vcf::new(attacker.opponent(), vcf_options),
        }
    }

    /// Counters so far (the VCF searches inside included).
    #[must_use]
    pub fn stats(&self) -> Stats {
        Stats { nodes: self.stats.nodes + self.attacker_vcf.stats().nodes + self.defender_vcf.stats().nodes }
    }

    /// Looks for a VCT for the attacker, who is to move in `pb`. The board is left as it was.
    pub fn solve(&mut self, pb: &mut PatternBoard) -> Solution {
        let root = self.search(pb, true, INF - 1, INF - 1);
        if self.stopped {
            return Solution::Unknown;
        }
        match (root.pn, root.dn) {
            (0, _) => self.principal_line(pb).map_or(Solution::Unknown, Solution::Win),
            (_, 0) => Solution::None,
            _ => Solution::Unknown,
        }
    }

    fn lookup(&self, pb: &PatternBoard) -> Numbers {
        self.table.get(&pb.board().hash()).copied().unwrap_or(UNKNOWN)
    }

    /// df-pn's multiple iterative deepening at one node; `or` when the attacker is to move.
    fn search(&mut self, pb: &mut PatternBoard, or: bool, pn_limit: u32, dn_limit: u32) -> Numbers {
        self.stats.nodes += 1;
        if self.stopped || (self.stats.nodes & 255 == 0 && self.options.limits.exceeded(self.stats.nodes)) {
            self.stopped = true;
            return self.lookup(pb);
        }
        let hash = pb.board().hash();
        let known = self.lookup(pb);
        if known.pn >= pn_limit || known.dn >= dn_limit {
            return known;
        }
        let moves = match self.expand(pb, or) {
            Expansion::Done(n) => {
                self.table.insert(hash, n);
                return n;
            }
            Expansion::Moves(moves) => moves,
        };
        let side = if or { self.attacker } else { self.attacker.opponent() };
        loop {
            // Gather the children's numbers.
            let mut best = 0;
            let (mut best_value, mut second) = (INF + 1, INF + 1);
            let (mut min_value, mut sum) = (INF, 0u32);
            for (i, &m) in moves.iter().enumerate() {
                pb.make(m, side);
                let child = self.lookup(pb);
                pb.undo();
                // At an OR node the child is an AND node: we minimise its pn; at an AND node its dn.
                let (select, add) = if or { (child.pn, child.dn) } else { (child.dn, child.pn) };
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
            let here = if or { Numbers { pn: min_value, dn: sum } } else { Numbers { pn: sum, dn: min_value } };
            if here.pn >= pn_limit || here.dn >= dn_limit || self.stopped {
                self.table.insert(hash, here);
                return here;
            }
            let m = moves[best];
            pb.make(m, side);
            let child = self.lookup(pb);
            let (child_pn, child_dn) = if or {
                (second.saturating_add(1).min(pn_limit), dn_limit.saturating_sub(here.dn).saturating_add(child.dn))
            } else {
                (pn_limit.saturating_sub(here.pn).saturating_add(child.pn), second.saturating_add(1).min(dn_limit))
            };
            self.search(pb, !or, child_pn.min(INF), child_dn.min(INF));
            pb.undo();
        }
    }

    /// The end of the game at this node, or its moves in search order.
    fn expand(&mut self, pb: &mut PatternBoard, or: bool) -> Expansion {
        let a = self.attacker;
        let d = a.opponent();
        let (mover, waiter) = if or { (a, d) } else { (d, a) };
        if !five_points(pb, mover).is_empty() {
            return Expansion::Done(if or { PROVEN } else { DISPROVEN });
        }
        let threats = five_points(pb, waiter);
        let mut moves = MoveList::new();
        if !threats.is_empty() {
            // The waiting side threatens five: block it, or lose.
            let blocks: MoveList = threats.iter().copied().filter(|&f| is_legal(pb, mover, f)).collect();
            if threats.len() >= 2 || blocks.is_empty() {
                return Expansion::Done(if or { DISPROVEN } else { PROVEN });
            }
            moves.push(blocks[0]);
            return Expansion::Moves(moves);
        }
        if or {
            match self.attacker_vcf.solve(pb) {
                Solution::Win(_) => return Expansion::Done(PROVEN),
                Solution::Unknown => self.stopped = true,
                Solution::None => {}
            }
            moves = self.attacks(pb);
        } else {
            let points = straight_four_points(pb, a);
            if points.is_empty() {
                return Expansion::Done(DISPROVEN); // no threat: the defender plays freely
            }
            // The attacker threatens only a straight four: a defender VCF comes first.
            match self.defender_vcf.solve(pb) {
                Solution::Win(_) => return Expansion::Done(DISPROVEN),
                Solution::Unknown => self.stopped = true,
                Solution::None => {}
            }
            moves = defences(pb, d, a, &points);
        }
        if moves.is_empty() {
            return Expansion::Done(if or { DISPROVEN } else { PROVEN });
        }
        let recent: Vec<Pos> = pb.board().moves().iter().rev().take(4).map(|&(p, _)| p).collect();
        moves.sort_by_key(|p| {
            let class = pb.pattern4(mover, *p) as u32;
            let near = recent.iter().map(|&r| distance(r, *p)).min().unwrap_or(0);
            (u32::MAX - class, near)
        });
        Expansion::Moves(moves)
    }

    /// The attacker's fours and three-making moves, legal.
    fn attacks(&self, pb: &mut PatternBoard) -> MoveList {
        let a = self.attacker;
        let mut moves = four_moves(pb, a);
        let mut threes = MoveList::new();
        pb.for_each_empty(|p, cls| {
            let class = cls[a.index()];
            if (Pattern4::Flex3..Pattern4::Block4).contains(&class)
                || (class == Pattern4::Forbidden && (0..4).any(|dir| pb.pattern(a, p, dir) == Pattern::Flex3))
            {
                threes.push(p);
            }
        });
        for p in threes {
            if !moves.contains(&p) && is_legal(pb, a, p) {
                moves.push(p);
            }
        }
        moves
    }

    /// A line from the root through the proven tree: the attacker's proven moves and the defender's replies.
    fn principal_line(&mut self, pb: &mut PatternBoard) -> Option<Vec<Pos>> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        let mut line = Vec::new();
        let mut or = true;
        let start = pb.board().stone_count();
        let result = loop {
            let side = if or { a } else { d };
            let moves = match self.expand(pb, or) {
                Expansion::Done(n) if n == PROVEN && or => {
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
                        // Two threes or more and no move stops them all: stop as many as one move can.
                        least_bad_defence(pb, d, a)
                    } else {
                        // An unstoppable four: block one end (none when every block is forbidden for Black).
                        fives.iter().copied().find(|&f| is_legal(pb, d, f))
                    };
                    let Some(reply) = reply else { break (!fives.is_empty()).then_some(line) };
                    line.push(reply);
                    pb.make(reply, d);
                    or = true;
                    continue;
                }
                Expansion::Done(_) => break None,
                Expansion::Moves(moves) => moves,
            };
            let mut next = None;
            for &m in &moves {
                pb.make(m, side);
                let mut child = self.lookup(pb);
                if child.pn != 0 {
                    child = self.search(pb, !or, INF - 1, INF - 1);
                }
                pb.undo();
                if child.pn == 0 {
                    next = Some(m);
                    break;
                }
            }
            let Some(m) = next else { break None };
            line.push(m);
            pb.make(m, side);
            or = !or;
        };
        while pb.board().stone_count() > start {
            pb.undo();
        }
        result
    }
}

/// The legal defender move near the attacker's straight-four points that leaves the fewest of them.
fn least_bad_defence(pb: &mut PatternBoard, defender: Color, attacker: Color) -> Option<Pos> {
    let points = straight_four_points(pb, attacker);
    let mut best: Option<(usize, Pos)> = None;
    for q in defence_candidates(pb, attacker, &points) {
        if !is_legal(pb, defender, q) {
            continue;
        }
        pb.make(q, defender);
        let left = remaining_threats(pb, attacker, &points);
        pb.undo();
        if best.is_none_or(|(n, _)| left < n) {
            best = Some((left, q));
        }
    }
    best.map(|(_, q)| q)
}

/// Every legal point where `c` would make a straight four (a point with a `Flex4` line for `c`).
fn straight_four_points(pb: &mut PatternBoard, c: Color) -> MoveList {
    let mut out = MoveList::new();
    let mut maybe = MoveList::new();
    pb.for_each_empty(|p, cls| {
        if (0..4).any(|dir| pb.pattern(c, p, dir) == Pattern::Flex4) {
            if cls[c.index()] == Pattern4::Forbidden { maybe.push(p) } else { out.push(p) }
        }
    });
    for p in maybe {
        if is_legal(pb, c, p) {
            out.push(p);
        }
    }
    out
}

/// Empty points that might stop the straight-four points `points`: the points themselves and the points within
/// five steps of them on the lines where they make a straight four.
fn defence_candidates(pb: &PatternBoard, attacker: Color, points: &MoveList) -> MoveList {
    let size = pb.size() as i32;
    let mut candidates = MoveList::new();
    for &w in points {
        if !candidates.contains(&w) {
            candidates.push(w);
        }
        for (dir, &(dx, dy)) in DIRS.iter().enumerate() {
            if pb.pattern(attacker, w, dir) != Pattern::Flex4 {
                continue;
            }
            for k in (-5i32..=5).filter(|&k| k != 0) {
                let (x, y) = (i32::from(w.x) + k * dx, i32::from(w.y) + k * dy);
                if x >= 0 && y >= 0 && x < size && y < size {
                    let q = Pos::new(x as usize, y as usize);
                    if pb.board().is_empty(q) && !candidates.contains(&q) {
                        candidates.push(q);
                    }
                }
            }
        }
    }
    candidates
}

/// How many of `points` are still legal straight-four points for `attacker`.
fn remaining_threats(pb: &mut PatternBoard, attacker: Color, points: &MoveList) -> usize {
    points
        .iter()
        .filter(|&&w| {
            pb.board().is_empty(w)
                && (0..4).any(|dir| pb.pattern(attacker, w, dir) == Pattern::Flex4)
                && is_legal(pb, attacker, w)
        })
        .count()
}

/// The defender's answers to the attacker's three(s): moves after which `attacker` has no straight-four point,
/// and the defender's own fours.
fn defences(pb: &mut PatternBoard, defender: Color, attacker: Color, points: &MoveList) -> MoveList {
    let mut out = MoveList::new();
    for q in defence_candidates(pb, attacker, points) {
        if !is_legal(pb, defender, q) {
            continue;
        }
        pb.make(q, defender);
        let stopped = remaining_threats(pb, attacker, points) == 0;
        pb.undo();
        if stopped {
            out.push(q);
        }
    }
    for q in four_moves(pb, defender) {
        if !out.contains(&q) {
            out.push(q);
        }
    }
    out
}
