//! The engine facade: a game (size, rule, moves), checked play and undo with typed errors, and `think`, which runs
//! the search under the clock and options and always answers a legal move when one exists. It owns the
//! transposition table; the protocol and command-line layers talk only to this.

use crate::movegen::is_legal;
use crate::pattern::{MoveOutcome, PatternBoard, SetupError};
use crate::search::time::Clock;
use crate::search::{MATE_BOUND, Report, SearchLimits, SearchOptions, search};
use crate::types::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

mod bench;
mod census;
mod memory;
mod negotiate;
mod opening;
mod outlook;
mod table;

pub use crate::openings::RENJU_OPENINGS;
pub use bench::{BenchLine, bench};
pub use census::{
    CensusRun, Iteration, bench_positions, census, read_positions, read_positions_file, summary as census_summary,
    write_census,
};
pub use memory::minimum_bytes;
pub use opening::{Swap2Decision, opening_scorer};
pub use outlook::{Calibration, Outlook};

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// Off the board.
    OffBoard,
    /// The point is taken.
    Occupied,
    /// The game is over (a five is on the board, or the board is full).
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::OffBoard => "the point is off the board",
            PlayError::Occupied => "the point is taken",
            PlayError::GameOver => "the game is over",
        })
    }
}

impl std::error::Error for PlayError {}

/// Why a set-up position was refused (the game is left as it was).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A stone off the board.
    OffBoard(Pos),
    /// A point given twice.
    Twice(Pos),
    /// A five already on the board (this stone completes one): the game is over.
    Five(Pos),
    /// The two colours' numbers of stones are this far apart (or the second has more): no side can be to move.
    Counts(usize, usize),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::OffBoard(p) => write!(f, "{},{} is off the board", p.x, p.y),
            PositionError::Twice(p) => write!(f, "{},{} is given twice", p.x, p.y),
            PositionError::Five(p) => write!(f, "{},{} makes a five: the game is over", p.x, p.y),
            PositionError::Counts(a, b) => {
                write!(f, "{a} stones of one colour and {b} of the other fit no side to move")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// A seed from the clock and the process, so that two engines started together still choose differently.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// The largest transposition table: 4 GiB (what `yxshowinfo` announces).
pub const MAX_HASH_BYTES: usize = 4 << 30;

/// The most search threads.
pub const MAX_THREADS: usize = 64;

/// Memory for the transposition table when nothing is said: 64 MiB.
pub const DEFAULT_HASH_BYTES: usize = 64 << 20;

/// Engine settings that outlive a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Search options (threads, draw rule, threat solvers).
    pub search: SearchOptions,
    /// The clock.
    pub clock: Clock,
    /// Deepest iteration (0: no limit).
    pub max_depth: i32,
    /// Node limit per move (0: none).
    pub max_nodes: u64,
    /// The opening book played from while a game is in it.
    pub book: crate::book::BookChoice,
    /// How far below the book's best move a move may score and still be played from the book (variety).
    pub book_margin: i32,
}

/// Book moves within this of the best are played (in search units: a twentieth of the renju calibration's scale,
/// about two and a half points of win rate).
pub const BOOK_MARGIN: i32 = 10;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            search: SearchOptions::default(),
            clock: Clock::default(),
            max_depth: 0,
            max_nodes: 0,
            book: crate::book::BookChoice::default(),
            book_margin: BOOK_MARGIN,
        }
    }
}

/// A game and the means to think about it.
pub struct Engine {
    pb: PatternBoard,
    table: table::LazyTable,
    settings: Settings,
    /// Points the engine must not play (Yixin-Board's yxblock), kept across positions, in board order.
    blocked: Vec<Pos>,
    winner: Option<Color>,
    /// Varies the opening choices among near-equal ones (seeded from the clock; `set_seed` fixes it).
    rng: StdRng,
    /// The process's memory limit in bytes (`INFO max_memory`; 0: none).
    memory_limit: u64,
    /// The table size asked for (`INFO hash_size`, [`Engine::set_hash_bytes`]), if any.
    hash_wanted: Option<usize>,
    /// The stones' hash after the engine's last move, when the search that chose it proved a win.
    proved_after: Option<u64>,
}

impl Engine {
    /// A new game on an empty board.
    ///
    /// # Errors
    /// A size outside 5..=22.
    pub fn new(size: usize, rule: Rule) -> Result<Engine, SetupError> {
        Ok(Engine {
            pb: PatternBoard::new(size, rule)?,
            table: table::LazyTable::new(DEFAULT_HASH_BYTES),
            settings: Settings::default(),
            blocked: Vec::new(),
            winner: None,
            rng: StdRng::seed_from_u64(clock_seed()),
            memory_limit: 0,
            hash_wanted: None,
            proved_after: None,
        })
    }

    /// Fixes the seed of the opening choices' variety (it comes from the clock otherwise).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes the settings (they apply from the next search on).
    pub fn configure(&mut self, change: impl FnOnce(&mut Settings)) {
        let before = (self.settings.search.threads, self.settings.search.eval);
        change(&mut self.settings);
        self.settings.search.threads = self.settings.search.threads.clamp(1, MAX_THREADS);
        if self.memory_limit > 0 && before != (self.settings.search.threads, self.settings.search.eval) {
            self.apply_memory();
        }
    }

    /// The points the engine must not play.
    #[must_use]
    pub fn blocked(&self) -> &[Pos] {
        &self.blocked
    }

    /// Adds points the engine must not play (those off the board are ignored).
    pub fn block(&mut self, points: &[Pos]) {
        let size = self.pb.size();
        self.blocked.extend(points.iter().filter(|p| p.on_board(size)));
        self.blocked.sort_by_key(|p| p.index());
        self.blocked.dedup();
    }

    /// Lets the engine play `points` again (all of them when `None`).
    pub fn unblock(&mut self, points: Option<&[Pos]>) {
        match points {
            Some(points) => self.blocked.retain(|p| !points.contains(p)),
            None => self.blocked.clear(),
        }
    }

    /// Starts a new game (size and rule may change); the table and settings stay.
    ///
    /// # Errors
    /// A size outside 5..=22.
    pub fn new_game(&mut self, size: usize, rule: Rule) -> Result<(), SetupError> {
        self.pb = PatternBoard::new(size, rule)?;
        self.winner = None;
        self.proved_after = None;
        Ok(())
    }

    /// Sets up a position of the same size and rule: the stones in the order given when Black's and White's
    /// alternate from Black's, else Black's and White's taken in turn. Nothing is judged forbidden (a set-up
    /// position has no history to judge), so the colours' counts, the points and the fives alone are checked.
    ///
    /// # Errors
    /// See [`PositionError`]; the game is unchanged then.
    pub fn set_up(&mut self, stones: &[(Pos, Color)]) -> Result<(), PositionError> {
        let size = self.pb.size();
        let (mut black, mut white): (Vec<Pos>, Vec<Pos>) = (Vec::new(), Vec::new());
        for &(p, c) in stones {
            if !p.on_board(size) {
                return Err(PositionError::OffBoard(p));
            }
            if c == Color::Black { black.push(p) } else { white.push(p) }
        }
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return Err(PositionError::Counts(black.len(), white.len()));
        }
        let alternating = stones.iter().enumerate().all(|(i, &(_, c))| (c == Color::Black) == (i % 2 == 0));
        let order: Vec<(Pos, Color)> = if alternating {
            stones.to_vec()
        } else {
            let whites = white.iter().map(|&p| Some((p, Color::White))).chain(std::iter::repeat(None));
            black.iter().zip(whites).flat_map(|(&b, w)| std::iter::once((b, Color::Black)).chain(w)).collect()
        };
        let mut pb = self.pb.clone();
        while pb.undo().is_some() {}
        for &(p, c) in &order {
            if !pb.board().is_empty(p) {
                return Err(PositionError::Twice(p));
            }
            if pb.is_five(c, p) {
                return Err(PositionError::Five(p));
            }
            pb.make(p, c);
        }
        self.pb = pb;
        self.winner = None;
        Ok(())
    }

    /// Switches the game to `rule`, keeping its moves when they are a legal game under it, else starting it afresh;
    /// the table is cleared.
    pub fn switch_rule(&mut self, rule: Rule) {
        if self.pb.rule() == rule {
            return;
        }
        let moves = self.pb.board().moves().to_vec();
        let size = self.pb.size();
        let Ok(pb) = PatternBoard::new(size, rule) else { return };
        self.pb = pb;
        self.winner = None;
        // A win proved under one rule may not be one under another.
        self.proved_after = None;
        let fresh = self.pb.clone();
        for &(p, c) in &moves {
            if !matches!(self.play(p, c), Ok(MoveOutcome::Normal)) {
                // Not a game under this rule: an empty board.
                self.pb = fresh;
                self.winner = None;
                break;
            }
        }
        self.clear_hash();
        // The evaluation may change with the rule (a network or not): the memory plan with it.
        if self.memory_limit > 0 {
            self.apply_memory();
        }
    }

    /// Resizes the transposition table to at most `bytes` bytes (it starts empty); under a memory limit, to what
    /// the limit leaves when that is less.
    pub fn set_hash_bytes(&mut self, bytes: usize) {
        self.hash_wanted = Some(bytes);
        self.apply_memory();
    }

    /// Makes `bytes` a hard limit on the process's resident memory (`INFO max_memory`; 0: no limit): the table and
    /// the leaf VCF solvers are sized so that the whole process stays within it (see `memory.rs`), now and when
    /// the thread count or the evaluation changes.
    ///
    /// # Errors
    /// The least limit the engine accepts with its threads, when `bytes` is below it (the engine then runs with
    /// the least it needs, which is more than the limit).
    pub fn set_memory_limit(&mut self, bytes: u64) -> Result<(), u64> {
        self.memory_limit = bytes;
        self.apply_memory();
        self.memory_shortfall().map_or(Ok(()), Err)
    }

    /// The memory limit in bytes (0: none).
    #[must_use]
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }

    /// The least limit the engine accepts with its present threads and evaluation, when the memory limit is below
    /// it.
    #[must_use]
    pub fn memory_shortfall(&self) -> Option<u64> {
        self.memory_plan()?.err()
    }

    /// The plan for the memory limit with the present threads and evaluation (`None` without a limit; the least
    /// limit accepted when it is below that).
    fn memory_plan(&self) -> Option<Result<memory::MemoryPlan, u64>> {
        let network = self.settings.search.eval.network(self.pb.rule(), self.pb.board().size()).is_some();
        (self.memory_limit > 0).then(|| memory::plan(self.memory_limit, self.settings.search.threads, network))
    }

    /// Sizes the table and the leaf VCF solvers for the memory limit and the table size asked for.
    fn apply_memory(&mut self) {
        let wanted = self.hash_wanted.unwrap_or(DEFAULT_HASH_BYTES).min(MAX_HASH_BYTES);
        let (table, vcf_memory, solver_nodes) = match self.memory_plan() {
            None => (wanted, crate::search::params::VCF_MEMORY, crate::search::params::SOLVER_NODES),
            Some(Ok(p)) => (
                if self.hash_wanted.is_some() { wanted.min(p.table_bytes) } else { p.table_bytes },
                p.vcf_memory,
                p.solver_nodes,
            ),
            Some(Err(_)) => (memory::MIN_TABLE_BYTES as usize, memory::MIN_VCF_MEMORY, memory::MIN_SOLVER_NODES),
        };
        self.settings.search.vcf_memory = vcf_memory;
        self.settings.search.solver_nodes = solver_nodes;
        // A table of another size is given back now and allocated by the next search.
        self.table.resize(table);
    }

    /// The table's size in bytes (allocated by the first search).
    #[must_use]
    pub fn hash_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The bytes of table taken from the system: 0 until the engine first searches.
    #[must_use]
    pub fn hash_allocated_bytes(&self) -> usize {
        self.table.allocated_bytes()
    }

    /// Empties the transposition table (given back; the next search takes a fresh zeroed allocation: writing zeros
    /// over a large table costs tens of milliseconds, a new one costs nothing until used).
    pub fn clear_hash(&mut self) {
        self.table.clear();
    }

    /// The position.
    #[must_use]
    pub fn board(&self) -> &PatternBoard {
        &self.pb
    }

    /// Whose move it is: Black when both have as many stones, else White... unless the moves say otherwise.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        match self.pb.board().moves().last() {
            Some(&(_, c)) => c.opponent(),
            None => Color::Black,
        }
    }

    /// The winner, once a five is on the board.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// Plays `p` for `c` (normally [`Engine::side_to_move`]). A renju Black move on a forbidden point is played
    /// and loses: the winner becomes White.
    ///
    /// # Errors
    /// Off the board, taken, or the game is over.
    pub fn play(&mut self, p: Pos, c: Color) -> Result<MoveOutcome, PlayError> {
        if self.winner.is_some() || self.pb.board().is_full() {
            return Err(PlayError::GameOver);
        }
        if !p.on_board(self.pb.size()) {
            return Err(PlayError::OffBoard);
        }
        let outcome = self.pb.outcome(p, c);
        match outcome {
            MoveOutcome::Illegal => return Err(PlayError::Occupied),
            MoveOutcome::Win => self.winner = Some(c),
            MoveOutcome::Forbidden(_) => self.winner = Some(c.opponent()),
            MoveOutcome::Normal => {}
        }
        self.pb.make(p, c);
        Ok(outcome)
    }

    /// Takes back the last move.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] standing for "nothing to take back" when the board is empty.
    pub fn undo(&mut self) -> Result<(Pos, Color), PlayError> {
        let undone = self.pb.undo().ok_or(PlayError::GameOver)?;
        self.winner = None;
        Ok(undone)
    }

    /// Whether `p` is a legal move for `c` now.
    pub fn is_legal(&mut self, p: Pos, c: Color) -> bool {
        p.on_board(self.pb.size()) && is_legal(&mut self.pb, c, p)
    }

    /// Thinks for the side to move under the clock and settings; `stop` ends the search early (it still answers).
    /// `on_iteration` sees each completed iteration.
    pub fn think(&mut self, stop: Option<&AtomicBool>, on_iteration: impl FnMut(&Report)) -> Report {
        self.think_from(Instant::now(), stop, on_iteration)
    }

    /// [`Engine::think`] with the clock started at `start` (when the request arrived, say).
    pub fn think_from(
        &mut self,
        start: Instant,
        stop: Option<&AtomicBool>,
        on_iteration: impl FnMut(&Report),
    ) -> Report {
        let mut reports = self.think_best(start, stop, 1, on_iteration);
        reports.pop().unwrap_or_else(|| Report {
            best: None,
            score: 0,
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
            elapsed: start.elapsed(),
            source: "none",
        })
    }

    /// The `n` best moves, best first: `n` searches sharing the move's time, each without the moves found before.
    /// Fewer when the board runs out of moves.
    pub fn think_best(
        &mut self,
        start: Instant,
        stop: Option<&AtomicBool>,
        n: usize,
        on_iteration: impl FnMut(&Report),
    ) -> Vec<Report> {
        self.think_distinct(start, stop, n, |p| vec![p], on_iteration)
    }

    /// The points a move is the same as on this board: its images under every symmetry of the board that maps the
    /// stones (with their colours) onto themselves, itself included.
    #[must_use]
    pub fn equivalent_moves(&self, p: Pos) -> Vec<Pos> {
        crate::opening_rule::images(&self.pb, p)
    }

    /// [`Engine::think_best`] where a move found also rules out the moves `same(move)` lists (its symmetric
    /// images, say), so that the `n` moves are all different in that sense.
    pub fn think_distinct(
        &mut self,
        start: Instant,
        stop: Option<&AtomicBool>,
        n: usize,
        same: impl Fn(Pos) -> Vec<Pos>,
        mut on_iteration: impl FnMut(&Report),
    ) -> Vec<Report> {
        let n = n.max(1);
        let budget = self.settings.clock.budget(self.pb.board().stone_count(), &self.settings.search.params);
        let side = self.side_to_move();
        let proved = self.answers_own_proof();
        // Set again below when this search's move is chosen; a search that chooses none leaves nothing behind.
        self.proved_after = None;
        let mut found: Vec<Pos> = self.blocked.clone();
        let mut reports = Vec::new();
        for i in 1..=n {
            let share = |d: std::time::Duration| d * i as u32 / n as u32;
            let limits = SearchLimits {
                depth: self.settings.max_depth,
                nodes: self.settings.max_nodes,
                optimum: Some(start + share(budget.optimum)),
                maximum: Some(start + share(budget.maximum)),
                stop,
                exclude: &found,
                only: None,
                proved: proved && i == 1,
                census: None,
            };
            let report = search(&self.pb, side, self.table.get(), &limits, &self.settings.search, &mut on_iteration);
            let Some(best) = report.best.filter(|b| !found.contains(b)) else { break };
            found.push(best);
            found.extend(same(best).into_iter().filter(|&q| q != best));
            if i == 1 {
                // A proved win, or the one answer to a four in a position proved won, leaves a won position.
                let won = report.score > MATE_BOUND;
                let kept = proved && report.source == "forced";
                self.proved_after = (won || kept).then(|| self.pb.board().hash_after(best, side));
            }
            reports.push(report);
            if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break;
            }
        }
        reports
    }

    /// Whether the position is the one the engine's last move left, proved won, with one stone of the opponent's
    /// added: then it is still won, whatever the answer was.
    fn answers_own_proof(&self) -> bool {
        let board = self.pb.board();
        match (self.proved_after, board.moves().last()) {
            // With `p` on the board, `hash_after(p, c)` takes the stone away (the hash is an exclusive or).
            (Some(hash), Some(&(p, c))) => c == self.side_to_move().opponent() && board.hash_after(p, c) == hash,
            _ => false,
        }
    }

    /// The book's moves at this position, best first (none when it is not in the book or the book is off).
    #[must_use]
    pub fn book_moves(&self) -> Vec<crate::book::BookMove> {
        self.settings.book.get(self.pb.rule(), self.pb.board().size()).map_or_else(Vec::new, |b| b.moves(&self.pb))
    }

    /// The move the book gives for this position, at once (`None` when the position is not in the book, the book
    /// is off, or none of its moves can be played here). Among the moves within the margin of the book's best, one
    /// is picked at random.
    pub fn book_move(&mut self, start: Instant) -> Option<Report> {
        let book = self.settings.book.get(self.pb.rule(), self.pb.board().size())?;
        let side = self.side_to_move();
        let rng = &mut self.rng;
        let m = book.choose(&self.pb, side, self.settings.book_margin, &self.blocked, |n| rng.random_range(0..n))?;
        Some(Report {
            best: Some(m.point),
            score: m.score,
            depth: i32::from(m.depth),
            pv: vec![m.point],
            nodes: 0,
            elapsed: start.elapsed(),
            source: "book",
        })
    }

    /// Thinks without a clock, to `limits` alone.
    pub fn think_with(&mut self, limits: &SearchLimits<'_>, on_iteration: impl FnMut(&Report)) -> Report {
        let side = self.side_to_move();
        search(&self.pb, side, self.table.get(), limits, &self.settings.search, on_iteration)
    }
}
