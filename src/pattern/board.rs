//! `PatternBoard`: the stone board plus per-point patterns and threat classes, kept up to date by make and undo.

use super::code::CodeValues;
use super::reach::Reach;
use super::table::{RuleTables, tables};
use super::{ForbidKind, Pattern, Pattern4};
use crate::board::{AsciiPosition, Board, Cell, DIR_STEP, DIRS, PAD, color_bits, key_of_window, parse_ascii};
use crate::types::{CELLS, Color, MAX_SIZE, MIN_SIZE, Pos, Rule, STRIDE};
use arrayvec::ArrayVec;
use std::fmt;

/// Why a position could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The size is outside 5..=22.
    BadSize(usize),
    /// A point given twice (or for both colours), in `H8` notation.
    Occupied(String),
    /// The position already holds a winning five for this colour (its stones listed).
    FiveOnBoard(Color, String),
    /// The text could not be read.
    Parse(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::BadSize(n) => write!(f, "board size {n} is not supported (use {MIN_SIZE} to {MAX_SIZE})"),
            SetupError::Occupied(p) => write!(f, "stone given twice at {p}"),
            SetupError::FiveOnBoard(c, stones) => write!(f, "{c} already has a five ({stones})"),
            SetupError::Parse(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for SetupError {}

/// What a move would do, judged before it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOutcome {
    /// The point is off the board or taken.
    Illegal,
    /// The move makes a winning five (for Black in renju this beats every prohibition).
    Win,
    /// Renju Black only: the move is forbidden and loses.
    Forbidden(ForbidKind),
    /// An ordinary move.
    Normal,
}

/// A board with incrementally maintained line patterns and threat classes for both colours.
#[derive(Clone)]
pub struct PatternBoard {
    pub(super) board: Board,
    rule: Rule,
    pub(super) tables: &'static RuleTables,
    points: [PointState; CELLS],
    /// Undo log: the states that each recorded move overwrote, with the point they belong to.
    log: Vec<(u16, PointState)>,
    /// Where each recorded move's entries start in `log` and in `bits_log`.
    log_marks: Vec<(u32, u32)>,
    /// The points whose set memberships changed, with the membership bits that changed (see [`memberships`]):
    /// far fewer than the points whose patterns changed.
    bits_log: Vec<(u16, u8)>,
    /// Stones placed at set-up, which have no log entries (undoing them recomputes instead).
    setup_stones: usize,
    /// Per colour: the points whose class is `Five`, one bit each by flat index.
    five_bits: [Bits; 2],
    /// Per colour: the points whose class is a four or better, or `Forbidden` (which may hide a legal four).
    four_bits: [Bits; 2],
    /// Whether `counts` and `near` are kept (the search needs them; the threat solvers do not, and run faster
    /// without: see [`PatternBoard::set_tracking`]).
    tracking: bool,
    /// Per colour and class: how many points have that class (stones and points off the board count as `None`).
    counts: ClassCounts,
    /// `counts` before each recorded move.
    counts_log: Vec<ClassCounts>,
    /// Per point: how many stones make it near (within the 5×5 square around it, unless `reach` says otherwise).
    near: [u8; CELLS],
    /// Which points a stone makes near (see [`PatternBoard::set_reach`]).
    reach: Reach,
    /// The values of pattern codes whose sums are kept, if any (see [`PatternBoard::set_code_values`]).
    values: Option<&'static CodeValues>,
    /// Per colour: the sums of its code values over the empty points, as the side to move's and as the opponent's.
    sums: [[i32; 2]; 2],
    /// `sums` before each recorded move (kept while `values` is set).
    sums_log: Vec<[[i32; 2]; 2]>,
}

/// Per colour, per [`Pattern4`] class: a number of points.
pub type ClassCounts = [[u16; 16]; 2];

/// The counts of a board without patterns: every point of the array in class `None`.
const INITIAL_COUNTS: ClassCounts = {
    let mut counts = [[0; 16]; 2];
    counts[0][0] = CELLS as u16;
    counts[1][0] = CELLS as u16;
    counts
};

/// Per class: bit 0 when it belongs to the five set, bit 1 when it belongs to the four set.
const SET_FLAGS: [u8; 16] = {
    let mut flags = [0u8; 16];
    let mut class = 0;
    while class < 16 {
        let five = class == Pattern4::Five as usize;
        let four = (class >= Pattern4::Block4 as usize && class <= Pattern4::Five as usize)
            || class == Pattern4::Forbidden as usize;
        flags[class] = (five as u8) | ((four as u8) << 1);
        class += 1;
    }
    flags
};

/// A point's set memberships from its classes: bit `2c` for the five set of colour `c`, bit `2c + 1` for its four
/// set.
#[inline(always)]
fn memberships(p4: [u8; 2]) -> u8 {
    SET_FLAGS[p4[0] as usize & 15] | (SET_FLAGS[p4[1] as usize & 15] << 2)
}

/// The low bit of each of the eleven 2-bit points of a window.
const NEAR_POINTS: u64 = 0x15_5555;

/// One bit per flat point index.
type Bits = [u64; CELLS / 64];

/// The points whose bits are set, in index order.
fn bit_points(bits: &Bits) -> impl Iterator<Item = Pos> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Pos::from_index(w * 64 + bit)
            })
        })
    })
}

/// The patterns and classes of one point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PointState {
    /// Black patterns in bits 0..16, white in 16..32, direction `d` in the nibble at `4d`.
    pats: u32,
    /// Per colour: the [`Pattern4`] of the four patterns.
    p4: [u8; 2],
}

impl PatternBoard {
    /// An empty board.
    ///
    /// # Errors
    /// [`SetupError::BadSize`] for a size outside 5..=22.
    pub fn new(size: usize, rule: Rule) -> Result<PatternBoard, SetupError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SetupError::BadSize(size));
        }
        let mut pb = PatternBoard {
            board: Board::new(size),
            rule,
            tables: tables(rule),
            points: [PointState::default(); CELLS],
            log: Vec::new(),
            log_marks: Vec::new(),
            bits_log: Vec::new(),
            setup_stones: 0,
            five_bits: [[0; CELLS / 64]; 2],
            four_bits: [[0; CELLS / 64]; 2],
            counts: INITIAL_COUNTS,
            counts_log: Vec::new(),
            near: [0; CELLS],
            reach: Reach::Square2,
            tracking: true,
            values: None,
            sums: [[0; 2]; 2],
            sums_log: Vec::new(),
        };
        pb.recompute_all();
        Ok(pb)
    }

    /// A position from its stones (Black's, then White's; the order within a colour is the move order kept).
    ///
    /// # Errors
    /// A bad size, a point given twice, or a position where a side already has a winning five.
    pub fn from_stones(size: usize, rule: Rule, black: &[Pos], white: &[Pos]) -> Result<PatternBoard, SetupError> {
        let mut pb = PatternBoard::new(size, rule)?;
        for (stones, c) in [(black, Color::Black), (white, Color::White)] {
            for &p in stones {
                if !p.on_board(size) {
                    return Err(SetupError::Parse(format!("point ({}, {}) is off the board", p.x, p.y)));
                }
                if !pb.board.is_empty(p) {
                    return Err(SetupError::Occupied(p.notation(size)));
                }
                pb.board.make(p, c);
            }
        }
        for c in Color::BOTH {
            if let Some(five) = find_five(&pb.board, rule, c) {
                let names: Vec<String> = five.iter().map(|p| p.notation(size)).collect();
                return Err(SetupError::FiveOnBoard(c, names.join(",")));
            }
        }
        pb.recompute_all();
        Ok(pb)
    }

    /// A position from an ASCII board (see `board::parse_ascii`).
    ///
    /// # Errors
    /// As [`PatternBoard::from_stones`], or when the text is not a board.
    pub fn from_ascii(text: &str, rule: Rule) -> Result<PatternBoard, SetupError> {
        let AsciiPosition { size, black, white, .. } = parse_ascii(text).map_err(SetupError::Parse)?;
        PatternBoard::from_stones(size, rule, &black, &white)
    }

    /// The stones.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule the tables follow.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Side length.
    #[must_use]
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// Places a stone of colour `c` on the empty point `p` and updates the patterns it can change.
    #[inline]
    pub fn make(&mut self, p: Pos, c: Color) {
        self.board.make(p, c);
        let i = p.index();
        self.log_marks.push((self.log.len() as u32, self.bits_log.len() as u32));
        self.log.push((i as u16, self.points[i]));
        if self.tracking {
            self.counts_log.push(self.counts);
        }
        if self.values.is_some() {
            self.sums_log.push(self.sums);
        }
        self.set_state(i, PointState::default());
        self.refresh_lines(p, true);
        if self.tracking {
            self.add_near(p, 1);
        }
    }

    /// Adds `delta` (±1) to the stone counts of the points `p` makes near.
    #[inline]
    fn add_near(&mut self, p: Pos, delta: u8) {
        let size = self.size();
        if self.reach != Reach::Square2 {
            let (x, y) = (i32::from(p.x), i32::from(p.y));
            for &(dx, dy) in self.reach.offsets() {
                let (qx, qy) = (x + i32::from(dx), y + i32::from(dy));
                if qx >= 0 && qy >= 0 && (qx as usize) < size && (qy as usize) < size {
                    let cell = &mut self.near[qy as usize * STRIDE + qx as usize];
                    *cell = cell.wrapping_add(delta);
                }
            }
            self.near[p.index()] = self.near[p.index()].wrapping_add(delta); // a stone's own point, as the square counts it
            return;
        }
        let (x0, x1) = (usize::from(p.x).saturating_sub(2), (usize::from(p.x) + 2).min(size - 1));
        let (y0, y1) = (usize::from(p.y).saturating_sub(2), (usize::from(p.y) + 2).min(size - 1));
        for y in y0..=y1 {
            for cell in &mut self.near[y * STRIDE + x0..=y * STRIDE + x1] {
                *cell = cell.wrapping_add(delta);
            }
        }
    }

    /// Sets which points a stone makes near, for [`PatternBoard::is_near`] (the square of 5×5 on a new board), and
    /// recounts them.
    pub fn set_reach(&mut self, reach: Reach) {
        if reach != self.reach {
            self.reach = reach;
            self.recount_near();
        }
    }

    /// Counts `near` afresh from the stones (none kept without tracking).
    fn recount_near(&mut self) {
        self.near = [0; CELLS];
        if self.tracking {
            for (p, _) in self.board.moves().to_vec() {
                self.add_near(p, 1);
            }
        }
    }

    /// Turns the class counts and the stone neighbourhoods on or off (on for a new board). Turning them on
    /// recomputes the board's derived state, after which the moves made so far are undone by recomputing.
    pub fn set_tracking(&mut self, on: bool) {
        if on != self.tracking {
            self.tracking = on;
            self.recompute_all();
        }
    }

    /// Keeps, from now on, each colour's sum of code values over the empty points (see [`CodeValues`]), or stops
    /// keeping them (`None`, as for a new board). Recomputes the board's derived state, after which the moves made
    /// so far are undone by recomputing.
    pub fn set_code_values(&mut self, values: Option<&'static CodeValues>) {
        self.values = values;
        self.recompute_all();
    }

    /// The code values whose sums are kept, if any.
    #[must_use]
    pub fn code_values(&self) -> Option<&'static CodeValues> {
        self.values
    }

    /// Per colour, the sums of its code values over the empty points, as the side to move's and as the opponent's
    /// (zero unless values are kept: see [`PatternBoard::set_code_values`]).
    #[inline]
    #[must_use]
    pub fn code_sums(&self) -> [[i32; 2]; 2] {
        self.sums
    }

    /// Whether the class counts and stone neighbourhoods are kept.
    #[must_use]
    pub fn tracking(&self) -> bool {
        self.tracking
    }

    /// Whether a stone makes `p` near: lies within two steps of it (the 5×5 square around it), or as the board's
    /// reach says ([`PatternBoard::set_reach`]). Needs tracking (see [`PatternBoard::set_tracking`]).
    #[inline]
    #[must_use]
    pub fn is_near(&self, p: Pos) -> bool {
        self.near[p.index()] != 0
    }

    /// Per colour and [`Pattern4`] class, how many empty points have that class (`None` also counts stones).
    /// Needs tracking (see [`PatternBoard::set_tracking`]).
    #[inline]
    #[must_use]
    pub fn class_counts(&self) -> &ClassCounts {
        &self.counts
    }

    /// Takes back the last stone.
    #[inline]
    pub fn undo(&mut self) -> Option<(Pos, Color)> {
        let (p, c) = self.board.undo()?;
        if self.tracking {
            self.add_near(p, u8::MAX);
        }
        if self.board.stone_count() >= self.setup_stones {
            if let Some(counts) = self.counts_log.pop().filter(|_| self.tracking) {
                self.counts = counts;
            }
            if let Some(sums) = self.sums_log.pop().filter(|_| self.values.is_some()) {
                self.sums = sums;
            }
            let (start, bits_start) = self.log_marks.pop().unwrap_or_default();
            for &(i, state) in self.log[start as usize..].iter().rev() {
                self.points[i as usize] = state;
            }
            self.log.truncate(start as usize);
            let mut bits_log = std::mem::take(&mut self.bits_log);
            for &(i, delta) in &bits_log[bits_start as usize..] {
                self.flip_bits(i as usize, delta);
            }
            bits_log.truncate(bits_start as usize);
            self.bits_log = bits_log;
        } else {
            // A set-up stone: nothing was logged, so recompute what it touched.
            self.setup_stones = self.board.stone_count();
            self.refresh_lines(p, false);
            self.refresh_point(p);
            self.bits_log.clear(); // nothing below set-up stones to undo
        }
        debug_assert_eq!(self.log_marks.len(), self.board.stone_count() - self.setup_stones);
        Some((p, c))
    }

    /// The pattern a stone of colour `c` on the empty point `p` makes in direction `d` (`Dead` on a stone).
    #[inline]
    #[must_use]
    pub fn pattern(&self, c: Color, p: Pos, d: usize) -> Pattern {
        Pattern::from_bits(((self.points[p.index()].pats >> (16 * c.index() + 4 * d)) & 0xf) as u8)
    }

    /// The four patterns of `p` for colour `c`, packed as nibbles (direction `d` at bits `4d`).
    #[inline]
    #[must_use]
    pub fn packed_patterns(&self, c: Color, p: Pos) -> u16 {
        (self.points[p.index()].pats >> (16 * c.index())) as u16
    }

    /// The threat class of the empty point `p` for colour `c` (`None` on a stone).
    #[inline]
    #[must_use]
    pub fn pattern4(&self, c: Color, p: Pos) -> Pattern4 {
        Pattern4::from_bits(self.points[p.index()].p4[c.index()])
    }

    /// Whether a stone of colour `c` on the empty point `p` makes a winning five.
    #[inline]
    #[must_use]
    pub fn is_five(&self, c: Color, p: Pos) -> bool {
        self.points[p.index()].p4[c.index()] == Pattern4::Five as u8
    }

    /// How many fours a stone of colour `c` on the empty point `p` makes (a same-line double four counts two).
    #[inline]
    #[must_use]
    pub fn fours(&self, c: Color, p: Pos) -> u32 {
        let packed = self.packed_patterns(c, p);
        (0..4).map(|d| Pattern::from_bits(((packed >> (4 * d)) & 0xf) as u8).fours()).sum()
    }

    /// Calls `f` with every empty point and its threat classes for Black and White, row by row from the top.
    #[inline]
    pub fn for_each_empty(&self, mut f: impl FnMut(Pos, [Pattern4; 2])) {
        let size = self.size();
        for y in 0..size {
            for x in 0..size {
                let i = y * STRIDE + x;
                if self.board.is_empty_index(i) {
                    let [b, w] = self.points[i].p4;
                    f(Pos::new(x, y), [Pattern4::from_bits(b), Pattern4::from_bits(w)]);
                }
            }
        }
    }

    /// What the move would do: illegal, a win, a forbidden point (renju Black), or an ordinary move.
    pub fn outcome(&mut self, p: Pos, c: Color) -> MoveOutcome {
        if !self.board.is_empty(p) {
            return MoveOutcome::Illegal;
        }
        if self.is_five(c, p) {
            return MoveOutcome::Win;
        }
        if c == Color::Black
            && let Some(kind) = self.forbidden_kind(p)
        {
            return MoveOutcome::Forbidden(kind);
        }
        MoveOutcome::Normal
    }

    /// Whether, after a stone of colour `c` on the empty point `p`, some empty point would have a class for colour
    /// `qc` (either colour) in `wanted` (one bit per [`Pattern4`] value, among the classes of
    /// [`PatternBoard::four_candidates`]: a four or better, or `Forbidden`), judged without making the move: the
    /// points on `p`'s lines get the patterns that make would give them, the others keep their classes. Cheaper
    /// than make, ask and undo.
    #[must_use]
    pub fn has_class_after(&self, p: Pos, c: Color, qc: Color, wanted: u16) -> bool {
        let wants = |class: u8| wanted & (1 << (class & 15)) != 0;
        // Points off `p`'s lines (or farther than five steps along them) keep their classes.
        let (px, py) = (i32::from(p.x), i32::from(p.y));
        let off_lines = |q: Pos| {
            let (dx, dy) = (i32::from(q.x) - px, i32::from(q.y) - py);
            !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) || dx.abs().max(dy.abs()) > 5
        };
        if self.four_candidates(qc).any(|q| wants(self.points[q.index()].p4[qc.index()]) && off_lines(q)) {
            return true;
        }
        let tables = self.tables;
        let half = 16 * qc.index() as u32;
        // The other colour's stone only blocks `qc`'s lines: a point outside `qc`'s four set stays outside it.
        let only = (qc != c).then_some(&self.four_bits[qc.index()]);
        self.any_point_after(p, c, 0xf, only, |d, index, entry| {
            let pattern = u16::from(entry >> (4 * qc.index())) & 0xf;
            let state = self.points[index];
            let old = (state.pats >> half) as u16;
            let pats = (old & !(0xf << (4 * d))) | (pattern << (4 * d));
            let class = if pats == old { state.p4[qc.index()] } else { tables.combo(qc, pats) };
            wants(class)
        })
    }

    /// Walks the empty points within five steps of the empty point `p` on the lines in `dirs` (one bit per
    /// direction), with the line-table entry each would have after a stone of colour `c` on `p`, until `f`
    /// returns true; returns whether it did.
    #[inline(always)]
    fn any_point_after(
        &self,
        p: Pos,
        c: Color,
        dirs: u8,
        only: Option<&Bits>,
        mut f: impl FnMut(usize, usize, u8) -> bool,
    ) -> bool {
        let centre = p.index() as isize;
        for (d, &step) in DIR_STEP.iter().enumerate() {
            if dirs & (1 << d) == 0 {
                continue;
            }
            let (line, along) = self.board.line(d, p);
            let word = line | (color_bits(c) << (2 * (along + PAD)));
            let around = word >> (2 * along);
            let taken = (around | (around >> 1)) & NEAR_POINTS;
            let mut empty = !taken & NEAR_POINTS;
            while empty != 0 {
                let k = (empty.trailing_zeros() / 2) as isize - 5;
                empty &= empty - 1;
                let index = (centre + k * step) as usize;
                if only.is_some_and(|bits| bits[index / 64] & (1 << (index % 64)) == 0) {
                    continue;
                }
                let window = word >> (2 * (along as isize + k));
                if f(d, index, self.tables.line(key_of_window(window))) {
                    return true;
                }
            }
        }
        false
    }

    /// The class for colour `qc` that the empty point `q` would have after a stone of colour `c` on the empty point
    /// `p` (another point), found without making the move.
    #[must_use]
    pub fn class_after(&self, p: Pos, c: Color, q: Pos, qc: Color) -> Pattern4 {
        let state = self.points[q.index()];
        let (dx, dy) = (i32::from(q.x) - i32::from(p.x), i32::from(q.y) - i32::from(p.y));
        let reach = dx.abs().max(dy.abs());
        let d = match (dx.signum(), dy.signum()) {
            _ if reach > 5 || reach == 0 => None,
            (_, 0) => Some(0),
            (0, _) => Some(1),
            (sx, sy) if dx.abs() == dy.abs() && sx == sy => Some(2),
            _ if dx.abs() == dy.abs() => Some(3),
            _ => None,
        };
        let Some(d) = d else { return Pattern4::from_bits(state.p4[qc.index()]) };
        // Steps from `p` to `q` along direction `d` (whose unit step is DIRS[d]).
        let k = if DIRS[d].0 != 0 { dx * DIRS[d].0 } else { dy * DIRS[d].1 } as isize;
        let (line, along) = self.board.line(d, p);
        let word = line | (color_bits(c) << (2 * (along + PAD)));
        let window = word >> (2 * (along as isize + k));
        let pattern = u16::from(self.tables.line(key_of_window(window)) >> (4 * qc.index())) & 0xf;
        let old = (state.pats >> (16 * qc.index())) as u16;
        let pats = (old & !(0xf << (4 * d))) | (pattern << (4 * d));
        Pattern4::from_bits(if pats == old { state.p4[qc.index()] } else { self.tables.combo(qc, pats) })
    }

    /// The five points colour `c` would have after a stone on the empty point `p` that makes fours, when `c` has
    /// none before (the points that complete a five with it), found without making the move; at most two (a third
    /// is not looked for).
    #[must_use]
    pub fn five_points_after(&self, p: Pos, c: Color) -> ArrayVec<Pos, 2> {
        let mut out = ArrayVec::new();
        // No five on a line without a four through `p`.
        // (Raw pattern values, compared in place: Block4, Flex4 and DoubleFour are the patterns with fours.)
        let packed = self.packed_patterns(c, p);
        let has_four =
            |d: usize| ((Pattern::Block4 as u16)..=(Pattern::DoubleFour as u16)).contains(&((packed >> (4 * d)) & 0xf));
        let dirs = (0..4).filter(|&d| has_four(d)).fold(0u8, |m, d| m | (1 << d));
        self.any_point_after(p, c, dirs, None, |_, index, entry| {
            if (entry >> (4 * c.index())) & 0xf != Pattern::Five as u8 {
                return false;
            }
            out.push(Pos::from_index(index));
            out.is_full()
        });
        out
    }

    /// Recomputes the patterns of the empty points within five steps of `p` on its four lines, logging the old
    /// states when `log` is set.
    #[inline]
    fn refresh_lines(&mut self, p: Pos, log: bool) {
        // One copy per direction, so that its shifts, masks and step are constants.
        self.refresh_line::<0>(p, log);
        self.refresh_line::<1>(p, log);
        self.refresh_line::<2>(p, log);
        self.refresh_line::<3>(p, log);
    }

    /// [`PatternBoard::refresh_lines`] on the line of direction `D`.
    #[inline(always)]
    fn refresh_line<const D: usize>(&mut self, p: Pos, log: bool) {
        let tables = self.tables;
        let centre = p.index() as isize;
        let step = DIR_STEP[D];
        let (word, along) = self.board.line(D, p);
        // The eleven points around `p` (off the board: walls), point `j` at bits `2j`, `p` itself at `j = 5`.
        let around = word >> (2 * along);
        let taken = (around | (around >> 1)) & NEAR_POINTS;
        let mut empty = !taken & NEAR_POINTS & !(1 << 10);
        let shift = 4 * D;
        let mask = (0xf << shift) | (0xf << (16 + shift));
        while empty != 0 {
            let k = (empty.trailing_zeros() / 2) as isize - 5;
            empty &= empty - 1;
            // An empty point is on the board, so its window starts at or after the line word's first bit.
            let window = word >> (2 * (along as isize + k));
            let entry = u32::from(tables.line(key_of_window(window)));
            let index = (centre + k * step) as usize;
            let old = self.points[index].pats;
            // Black's nibble to bits 0..4, White's to bits 16..20, then into direction `D`'s place.
            let pats = (old & !mask) | (((entry | (entry << 12)) & 0x000f_000f) << shift);
            // A stone five steps away often changes neither colour's pattern here.
            if pats != old {
                self.set_patterns(index, pats, log);
            }
        }
    }

    /// Recomputes all four patterns of one empty point from the line words.
    fn refresh_point(&mut self, p: Pos) {
        let index = p.index();
        let mut pats = 0;
        for d in 0..4 {
            let entry = self.tables.line(self.board.window_key(d, p));
            pats |= (u32::from(entry & 0xf) << (4 * d)) | (u32::from(entry >> 4) << (16 + 4 * d));
        }
        if pats != self.points[index].pats {
            self.set_patterns(index, pats, false);
        }
    }

    /// Stores a point's new patterns and the classes they make (looked up only for a colour whose patterns
    /// changed), logging the old state when `log` is set.
    #[inline(always)]
    fn set_patterns(&mut self, index: usize, pats: u32, log: bool) {
        let old = self.points[index];
        if log {
            self.log.push((index as u16, old));
        }
        let changed = pats ^ old.pats;
        let mut p4 = old.p4;
        if changed & 0xffff != 0 {
            p4[0] = self.tables.combo(Color::Black, pats as u16);
        }
        if changed >> 16 != 0 {
            p4[1] = self.tables.combo(Color::White, (pats >> 16) as u16);
        }
        self.set_state(index, PointState { pats, p4 });
    }

    /// Stores a point's state and keeps the class bit sets in step (logging membership changes).
    #[inline(always)]
    fn set_state(&mut self, index: usize, state: PointState) {
        let PointState { pats: old_pats, p4: old_p4 } = self.points[index];
        if let Some(values) = self.values {
            let changed = old_pats ^ state.pats;
            for (c, shift) in [(Color::Black, 0), (Color::White, 16)] {
                if (changed >> shift) & 0xffff != 0 {
                    let new = values.value(c, (state.pats >> shift) as u16);
                    let old = values.value(c, (old_pats >> shift) as u16);
                    let sums = &mut self.sums[c.index()];
                    sums[0] += new[0] - old[0];
                    sums[1] += new[1] - old[1];
                }
            }
        }
        self.points[index] = state;
        if old_p4 == state.p4 {
            return;
        }
        if self.tracking {
            for ((counts, old), new) in self.counts.iter_mut().zip(old_p4).zip(state.p4) {
                counts[old as usize & 15] -= 1;
                counts[new as usize & 15] += 1;
            }
        }
        // Most class changes keep the point in or out of every set.
        let delta = memberships(old_p4) ^ memberships(state.p4);
        if delta != 0 {
            self.bits_log.push((index as u16, delta));
            self.flip_bits(index, delta);
        }
    }

    /// Flips the point's bits in the five and four sets of both colours where `delta` (membership bits, see
    /// [`memberships`]) says.
    #[inline(always)]
    fn flip_bits(&mut self, index: usize, delta: u8) {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        let pick = |flag: u8| if delta & flag != 0 { bit } else { 0 };
        self.five_bits[0][word] ^= pick(1);
        self.four_bits[0][word] ^= pick(2);
        self.five_bits[1][word] ^= pick(4);
        self.four_bits[1][word] ^= pick(8);
    }

    /// The empty points where colour `c` would make a winning five, in index order.
    pub fn five_points(&self, c: Color) -> impl Iterator<Item = Pos> + '_ {
        bit_points(&self.five_bits[c.index()])
    }

    /// The empty points whose class for colour `c` is a four or better, or `Forbidden` (renju Black: such a point
    /// may still be a legal four), in index order.
    pub fn four_candidates(&self, c: Color) -> impl Iterator<Item = Pos> + '_ {
        bit_points(&self.four_bits[c.index()])
    }

    fn recompute_all(&mut self) {
        self.points = [PointState::default(); CELLS];
        self.five_bits = [[0; CELLS / 64]; 2];
        self.four_bits = [[0; CELLS / 64]; 2];
        self.counts = INITIAL_COUNTS;
        self.counts_log.clear();
        self.sums = [[0; 2]; 2];
        self.sums_log.clear();
        self.recount_near();
        self.log.clear();
        self.log_marks.clear();
        self.setup_stones = self.board.stone_count();
        for p in self.board.points() {
            if self.board.cell(p) == Cell::Empty {
                self.refresh_point(p);
            }
        }
        self.bits_log.clear(); // the set-up is not undone through the log
    }

    /// A twin built from scratch from the same stones: line words, hash, patterns and classes recomputed.
    #[must_use]
    pub fn rebuilt(&self) -> PatternBoard {
        let mut fresh = self.clone();
        fresh.board = self.board.rebuilt();
        fresh.recompute_all();
        fresh
    }

    /// The first difference from `other` in stones, line words, hash, patterns or classes, described.
    #[must_use]
    pub fn difference(&self, other: &PatternBoard) -> Option<String> {
        if !self.board.same_position(&other.board) {
            return Some("stones, line words or hash differ".to_string());
        }
        for p in self.board.points() {
            let i = p.index();
            if self.points[i] != other.points[i]
                || self.five_bits != other.five_bits
                || self.four_bits != other.four_bits
                || self.counts != other.counts
                || self.sums != other.sums
                || self.near[i] != other.near[i]
            {
                return Some(format!(
                    "patterns at {} differ: {:?} vs {:?}",
                    p.notation(self.size()),
                    self.points[i],
                    other.points[i]
                ));
            }
        }
        None
    }
}

/// Scans the stones directly (no tables) for a winning five of colour `c` under `rule`; returns its stones.
#[must_use]
pub fn find_five(board: &Board, rule: Rule, c: Color) -> Option<Vec<Pos>> {
    let size = board.size() as i32;
    let at = |x: i32, y: i32| {
        (x >= 0 && y >= 0 && x < size && y < size).then(|| board.cell(Pos::new(x as usize, y as usize)))
    };
    let own = Some(Cell::Stone(c));
    let opp = Some(Cell::Stone(c.opponent()));
    for p in board.points() {
        let (x, y) = (i32::from(p.x), i32::from(p.y));
        if at(x, y) != own {
            continue;
        }
        for &(dx, dy) in &DIRS {
            if at(x - dx, y - dy) == own {
                continue; // not the start of the run
            }
            let mut len = 0;
            while at(x + len * dx, y + len * dy) == own {
                len += 1;
            }
            let wins = if len > 5 {
                !rule.exact_five(c)
            } else if len == 5 {
                let blocked = at(x - dx, y - dy) == opp && at(x + 5 * dx, y + 5 * dy) == opp;
                !(rule.five_needs_open_end() && blocked)
            } else {
                false
            };
            if wins {
                return Some((0..len).map(|i| Pos::new((x + i * dx) as usize, (y + i * dy) as usize)).collect());
            }
        }
    }
    None
}
