//! VCF: the attacker plays only fours, the defender must block each one.
//!
//! A depth-first search over (four, forced block) pairs. The defender's block may itself make a four, which the
//! attacker must block next, with a move that is again a four. Renju: Black never plays a forbidden point (a five is
//! never forbidden), and a White four wins at once when Black's only block is forbidden. Positions already refuted
//! are remembered by zobrist key with the number of fours they were refuted with, so that iterative deepening on
//! that number (the shortest-VCF mode) reuses them. Length is counted in attacker fours, the final five not
//! counted (as `testdata/vcf/lfz084_puzzles.tsv` counts it).

use super::{Limits, Solution, Stats, ZobristMap};
use crate::movegen::{LinePoints, MoveList, distance, five_stops, four_moves_into, is_legal, sort_by_cached_key};
use crate::pattern::{Pattern4, PatternBoard};
use crate::types::{Color, Pos};
use arrayvec::ArrayVec;

/// Options of a VCF run.
#[derive(Clone, Copy, Debug, Default)]
pub struct VcfOptions<'a> {
    /// Find a VCF with the fewest attacker fours (iterative deepening) rather than the first one.
    pub shortest: bool,
    /// At most this many attacker fours, the final five not counted (0: no limit).
    pub max_moves: u32,
    /// Budgets.
    pub limits: Limits<'a>,
}

/// The most bytes a table of refuted positions made by [`Vcf::with_capacity`] for `entries` takes: the standard
/// library's hash map keeps its slots a power of two, at most 7/8 full, each slot a key, a value and a control byte.
#[must_use]
pub const fn table_bytes(entries: usize) -> usize {
    let slots = if entries < 8 { 8 } else { (entries * 8 / 7).next_power_of_two() };
    slots * (std::mem::size_of::<(u64, u32)>() + 1) + 16
}

/// The most entries a table of refuted positions of at most `bytes` holds without growing (see [`table_bytes`]).
#[must_use]
pub const fn table_entries(bytes: usize) -> usize {
    let per_slot = std::mem::size_of::<(u64, u32)>() + 1;
    let slots = bytes.saturating_sub(16) / per_slot;
    if slots < 8 {
        return 0;
    }
    let slots = 1usize << (usize::BITS - 1 - slots.leading_zeros());
    slots / 8 * 7
}

/// A VCF solver for one attacker. Its table of refuted positions lives as long as the solver.
pub struct Vcf<'a> {
    attacker: Color,
    options: VcfOptions<'a>,
    refuted: ZobristMap<u64, u32>,
    stats: Stats,
    stopped: bool,
    /// The node count at which the current call stops (see [`Vcf::solve_within`]).
    call_end: u64,
    /// Whether some node failed only because it ran out of attacker moves (so a longer search might succeed).
    cut: bool,
}

/// The classes of a point that may make two five points: [`Pattern4::Flex4`], and [`Pattern4::Forbidden`], which
/// may hide one (one bit per class).
const FINISHERS: u16 = (1 << Pattern4::Flex4 as u16) | (1 << Pattern4::Forbidden as u16);

/// The budget of an unlimited search: more fours than any board holds, so refutations under it are final.
const UNLIMITED: u32 = u32::MAX / 2;

enum Step {
    Win,
    Fail,
    Stop,
}

impl<'a> Vcf<'a> {
    /// A solver for `attacker`.
    #[must_use]
    pub fn new(attacker: Color, options: VcfOptions<'a>) -> Vcf<'a> {
        Vcf {
            attacker,
            options,
            refuted: ZobristMap::default(),
            stats: Stats::default(),
            stopped: false,
            call_end: u64::MAX,
            cut: false,
        }
    }

    /// A solver for `attacker` whose table of refuted positions holds `entries` without growing (allocated now,
    /// filled as the searches go: [`table_bytes`] bounds what it can take).
    #[must_use]
    pub fn with_capacity(attacker: Color, options: VcfOptions<'a>, entries: usize) -> Vcf<'a> {
        Vcf {
            refuted: ZobristMap::with_capacity_and_hasher(entries, Default::default()),
            ..Vcf::new(attacker, options)
        }
    }

    /// The side this solver attacks for.
    #[must_use]
    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// How many refuted positions the solver remembers.
    #[must_use]
    pub fn remembered(&self) -> usize {
        self.refuted.len()
    }

    /// Forgets the refuted positions (to bound memory in a long search).
    pub fn forget(&mut self) {
        self.refuted.clear();
    }

    /// Counters so far.
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Looks for a VCF for the attacker, who is to move in `pb`. The board is left as it was.
    pub fn solve(&mut self, pb: &mut PatternBoard) -> Solution {
        self.solve_within(pb, u64::MAX)
    }

    /// As [`Vcf::solve`], but `Unknown` after `nodes` more nodes (on top of the budgets of the options).
    pub fn solve_within(&mut self, pb: &mut PatternBoard, nodes: u64) -> Solution {
        self.run(pb, nodes, self.options.max_moves)
    }

    /// As [`Vcf::solve_within`], with at most `max_moves` attacker fours (0: no limit) instead of the options'
    /// limit. The refuted positions are shared by every limit (each remembers the budget it was refuted with), so
    /// one solver can serve searches of different lengths and each learns from the others.
    pub fn solve_with_moves(&mut self, pb: &mut PatternBoard, nodes: u64, max_moves: u32) -> Solution {
        self.run(pb, nodes, max_moves)
    }

    fn run(&mut self, pb: &mut PatternBoard, nodes: u64, max_moves: u32) -> Solution {
        self.call_end = self.stats.nodes.saturating_add(nodes);
        let empties = (pb.size() * pb.size() - pb.board().stone_count()) as u32;
        let most = match (max_moves, self.options.shortest) {
            (0, true) => empties.div_ceil(2),
            (0, false) => UNLIMITED,
            (n, _) => n,
        };
        self.stopped = false;
        let mut line = Vec::new();
        let first = if self.options.shortest { 1 } else { most };
        for budget in first..=most {
            self.cut = false;
            match self.attack(pb, budget, &mut line) {
                Step::Win => return Solution::Win(line),
                Step::Stop => return Solution::Unknown,
                Step::Fail if !self.cut => return Solution::None,
                Step::Fail => {}
            }
        }
        if self.cut && max_moves == 0 { Solution::Unknown } else { Solution::None }
    }

    /// The attacker is to move with at most `budget` fours left (a five needs none).
    fn attack(&mut self, pb: &mut PatternBoard, budget: u32, line: &mut Vec<Pos>) -> Step {
        self.stats.nodes += 1;
        if self.stopped
            || self.stats.nodes >= self.call_end
            || (self.stats.nodes & 255 == 0 && self.options.limits.exceeded(self.stats.nodes))
        {
            self.stopped = true;
            return Step::Stop;
        }
        let a = self.attacker;
        let d = a.opponent();
        if let Some(f) = pb.five_points(a).next() {
            line.push(f);
            return Step::Win;
        }
        if budget == 0 {
            self.cut = true;
            return Step::Fail;
        }
        let hash = pb.board().hash();
        if let Some(&refuted) = self.refuted.get(&hash)
            && refuted >= budget
        {
            // A refutation found with a limited budget is a cut here too.
            self.cut |= refuted < UNLIMITED;
            return Step::Fail;
        }
        let mut moves = MoveList::new();
        four_moves_into(pb, a, &mut moves);
        if pb.five_points(d).next().is_some() {
            // The defender threatens five: the answer must stop it and be a four as well.
            let theirs: MoveList = pb.five_points(d).collect();
            let stops = five_stops(pb, a, &theirs);
            moves.retain(|m| stops.contains(m));
        }
        let mut pruned = false;
        if budget == 1 && !(d == Color::Black && pb.rule().has_forbidden()) {
            // The last four must leave two five points: a four with a single five point is blocked and the budget
            // is spent (unless a renju Black block is forbidden, which only making the move tells).
            let before = moves.len();
            moves.retain(|m| pb.pattern4(a, *m) >= Pattern4::Flex4);
            pruned = moves.len() < before;
        }
        self.order(pb, &mut moves, line);
        let base = line.len();
        // Whether this subtree ran out of budget somewhere: if not, its refutation holds for any budget.
        let outer_cut = std::mem::replace(&mut self.cut, false);
        self.cut = pruned;
        // With two fours left, a four that leaves one five point is followed by a last four only if some point
        // makes two five points after it (see `after_four`): asked without making the four.
        let last_but_one = budget == 2 && !(d == Color::Black && pb.rule().has_forbidden());
        for &m in &moves {
            if last_but_one
                && matches!(pb.pattern4(a, m), Pattern4::Block4 | Pattern4::Block4Plus | Pattern4::Block4Flex3)
                && !pb.has_class_after(m, a, a, FINISHERS)
            {
                self.cut = true;
                continue;
            }
            if self.refuted_reply(pb, m, budget - 1) {
                continue;
            }
            pb.make(m, a);
            line.push(m);
            let step = self.after_four(pb, budget - 1, line);
            pb.undo();
            match step {
                Step::Win | Step::Stop => {
                    self.cut |= outer_cut;
                    return step;
                }
                Step::Fail => line.truncate(base),
            }
        }
        self.refuted.insert(hash, if self.cut { budget } else { UNLIMITED });
        self.cut |= outer_cut;
        Step::Fail
    }

    /// Whether the four `m`, answered by its only block, leads to a position already refuted with at least
    /// `budget` fours: then `after_four` would make both moves only to fail there at once, which this sees
    /// without making them (and counts the node and the cut as that visit would). Only for a single four outside
    /// caro whose block is surely legal (a renju Black block whose class would not be Forbidden), and not where
    /// that visit would stop the search.
    fn refuted_reply(&mut self, pb: &PatternBoard, m: Pos, budget: u32) -> bool {
        let (a, d) = (self.attacker, self.attacker.opponent());
        let single = matches!(pb.pattern4(a, m), Pattern4::Block4 | Pattern4::Block4Plus | Pattern4::Block4Flex3);
        let next = self.stats.nodes + 1;
        if !single
            || budget == 0
            || pb.rule().five_needs_open_end()
            || self.stopped
            || next >= self.call_end
            || next & 255 == 0
        {
            return false;
        }
        let [block] = pb.five_points_after(m, a)[..] else { return false };
        // A renju Black block is legal unless its class is Forbidden (a White stone only takes from Black's lines).
        if d == Color::Black && pb.rule().has_forbidden() && pb.class_after(m, a, block, d) == Pattern4::Forbidden {
            return false;
        }
        let board = pb.board();
        let hash = board.hash_after(m, a) ^ board.hash_after(block, d) ^ board.hash();
        match self.refuted.get(&hash) {
            Some(&refuted) if refuted >= budget => {
                self.stats.nodes = next;
                self.cut |= refuted < UNLIMITED;
                true
            }
            _ => false,
        }
    }

    /// The attacker has just played the four `m`; the defender must answer it.
    fn after_four(&mut self, pb: &mut PatternBoard, budget: u32, line: &mut Vec<Pos>) -> Step {
        let a = self.attacker;
        let d = a.opponent();
        // The attacker had no five point before `m` (see `attack`), so every five point now is one `m` made.
        let fives: LinePoints = pb.five_points(a).take(16).collect();
        if fives.is_empty() {
            return Step::Fail;
        }
        // The defender's legal answers (a renju Black block on a forbidden point is no block).
        let blocks = five_stops(pb, d, &fives);
        if blocks.is_empty() && fives.len() == 1 {
            return Step::Win; // the only block is forbidden for Black: White wins now
        }
        if blocks.is_empty() {
            // Two five points: the defender blocks one (if it legally can) and the attacker plays the other.
            if let Some(&block) = fives.iter().find(|&&f| is_legal(pb, d, f)) {
                // The five still open after the block (in caro a block can also close another five).
                pb.make(block, d);
                let win = pb.five_points(a).next();
                pb.undo();
                line.push(block);
                line.extend(win);
            }
            return Step::Win;
        }
        if budget == 1 && !(d == Color::Black && pb.rule().has_forbidden()) && !self.finisher_left(pb) {
            // The last four must leave two five points, and no point makes them after this four (the block cannot
            // make one: a defender stone only weakens the attacker's lines, and a Forbidden point, which a block
            // could turn into a straight four, counts as one).
            self.cut = true;
            return Step::Fail;
        }
        // Every legal answer must be met. There is one, except in caro, where the far end of a five can be closed
        // too.
        let base = line.len();
        let mut shown: Option<Vec<Pos>> = None;
        for &block in &blocks {
            line.truncate(base);
            pb.make(block, d);
            line.push(block);
            let step = self.attack(pb, budget, line);
            pb.undo();
            match step {
                Step::Win => {
                    if shown.is_none() {
                        shown = Some(line[base..].to_vec());
                    }
                }
                other => {
                    line.truncate(base);
                    return other;
                }
            }
        }
        line.truncate(base);
        line.extend(shown.unwrap_or_default());
        Step::Win
    }

    /// Whether the attacker has a point that makes two five points (or a Forbidden point, which may hide one).
    fn finisher_left(&self, pb: &PatternBoard) -> bool {
        let a = self.attacker;
        pb.four_candidates(a).any(|p| FINISHERS & (1 << pb.pattern4(a, p) as u16) != 0)
    }

    /// Strongest fours first (a straight four or four-three wins sooner), then those nearest the last moves.
    fn order(&self, pb: &PatternBoard, moves: &mut MoveList, line: &[Pos]) {
        let a = self.attacker;
        let recent: ArrayVec<Pos, 4> = line.iter().rev().take(4).copied().collect();
        sort_by_cached_key(moves, |p| {
            let class = pb.pattern4(a, p) as u32;
            let near = recent.iter().map(|&r| distance(r, p)).min().unwrap_or(0).min(15);
            ((Pattern4::Five as u32 - class) << 16) | near
        });
    }
}
