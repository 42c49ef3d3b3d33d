//! The engine facade: a game (size, rule, moves), checked play and undo with typed errors, and `think`, which runs
//! the search under the clock and options and always answers a legal move when one exists. It owns the
//! transposition table; the protocol and command-line layers talk only to this.

use crate::movegen::is_legal;
use crate::pattern::{MoveOutcome, PatternBoard, SetupError};
use crate::search::time::Clock;
use crate::search::tt::Table;
use crate::search::{Report, SearchLimits, SearchOptions, search};
use crate::types::{Color, Pos, Rule};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub use crate::openings::RENJU_OPENINGS;

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

/// The largest transposition table: 4 GiB (what `yxshowinfo` announces).
pub const MAX_HASH_BYTES: usize = 4 << 30;

/// Memory for the transposition table when nothing is said: 64 MiB.
pub const DEFAULT_HASH_BYTES: usize = 64 << 20;

/// Engine settings that outlive a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Search options (threads, draw rule, threat solvers).
    pub search: SearchOptions,
    /// The clock.
    pub clock: Clock,
    /// Deepest iteration (0: no limit).
    pub max_depth: i32,
    /// Node limit per move (0: none).
    pub max_nodes: u64,
}

/// A game and the means to think about it.
pub struct Engine {
    pb: PatternBoard,
    table: Table,
    /// Settings; change them freely between moves.
    pub settings: Settings,
    /// Points the engine must not play (Yixin-Board's yxblock), kept across positions.
    pub blocked: Vec<Pos>,
    winner: Option<Color>,
}

impl Engine {
    /// A new game on an empty board.
    ///
    /// # Errors
    /// A size outside 5..=22.
    pub fn new(size: usize, rule: Rule) -> Result<Engine, SetupError> {
        Ok(Engine {
            pb: PatternBoard::new(size, rule)?,
            table: Table::new(DEFAULT_HASH_BYTES),
            settings: Settings::default(),
            blocked: Vec::new(),
            winner: None,
        })
    }

    /// Starts a new game (size and rule may change); the table and settings stay.
    ///
    /// # Errors
    /// A size outside 5..=22.
    pub fn new_game(&mut self, size: usize, rule: Rule) -> Result<(), SetupError> {
        self.pb = PatternBoard::new(size, rule)?;
        self.winner = None;
        Ok(())
    }

    /// Resizes the transposition table to at most `bytes` bytes (it starts empty).
    pub fn set_hash_bytes(&mut self, bytes: usize) {
        let bytes = bytes.min(MAX_HASH_BYTES);
        if bytes != self.table.bytes() {
            self.table = Table::new(bytes);
        }
    }

    /// Sizes the table for a process memory limit (`INFO max_memory`; 0: no limit, the default size): at most
    /// half the limit, leaving room for the solvers' tables, the threads and the program.
    pub fn set_memory_limit(&mut self, bytes: u64) {
        let table = if bytes == 0 { DEFAULT_HASH_BYTES } else { (bytes / 2).min(MAX_HASH_BYTES as u64) as usize };
        self.set_hash_bytes(table);
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn hash_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Empties the transposition table (a fresh zeroed allocation: writing zeros over a large table costs tens of
    /// milliseconds, a new one costs nothing until used).
    pub fn clear_hash(&mut self) {
        self.table = Table::new(self.table.bytes());
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
        let size = self.pb.size();
        let board = self.pb.board();
        let mut out = Vec::new();
        for k in 0..8 {
            let map = |q: Pos| q.transform(size, k);
            if board.moves().iter().all(|&(q, c)| board.cell(map(q)) == crate::board::Cell::Stone(c)) {
                let image = map(p);
                if !out.contains(&image) {
                    out.push(image);
                }
            }
        }
        out
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
        let budget = self.settings.clock.budget(self.pb.board().stone_count());
        let side = self.side_to_move();
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
            };
            let report = search(&self.pb, side, &self.table, &limits, &self.settings.search, &mut on_iteration);
            let Some(best) = report.best.filter(|b| !found.contains(b)) else { break };
            found.push(best);
            found.extend(same(best).into_iter().filter(|&q| q != best));
            reports.push(report);
            if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break;
            }
        }
        reports
    }

    /// Balancing moves for an opening: `count` (1 or 2) moves, the first for the side to move and the second for
    /// its opponent, chosen among the most natural moves so that the side to move's score after them (a shallow
    /// search) is nearest `bias`. The moves are not played.
    pub fn balance(&mut self, count: usize, bias: i32, stop: Option<&AtomicBool>) -> Vec<Pos> {
        const WIDTH: usize = 10;
        const DEPTH: i32 = 4;
        let side = self.side_to_move();
        let natural = |pb: &mut PatternBoard, c: Color| -> Vec<Pos> {
            let mut moves = crate::movegen::near_moves(pb, c);
            moves.sort_by_key(|&m| {
                let p4 = |k: Color| pb.pattern4(k, m) as i32;
                (std::cmp::Reverse(p4(c) * 2 + p4(c.opponent())), m.index())
            });
            moves.into_iter().take(WIDTH).collect()
        };
        let options = SearchOptions { threads: 1, ..self.settings.search };
        let score_after = |pb: &PatternBoard, to_move: Color| -> i32 {
            let limits = SearchLimits { depth: DEPTH, stop, ..SearchLimits::default() };
            let r = search(pb, to_move, &self.table, &limits, &options, |_| {});
            if to_move == side { r.score } else { -r.score }
        };
        let mut best: Option<(i32, Vec<Pos>)> = None;
        let mut pb = self.pb.clone();
        for first in natural(&mut pb, side) {
            if pb.is_five(side, first) {
                continue; // a five ends the game: never balanced
            }
            pb.make(first, side);
            let seconds: Vec<Option<Pos>> =
                if count >= 2 { natural(&mut pb, side.opponent()).into_iter().map(Some).collect() } else { vec![None] };
            for second in seconds {
                if let Some(s) = second {
                    if pb.is_five(side.opponent(), s) {
                        continue;
                    }
                    pb.make(s, side.opponent());
                }
                let to_move = if second.is_some() { side } else { side.opponent() };
                let distance = (score_after(&pb, to_move) - bias).abs();
                if second.is_some() {
                    pb.undo();
                }
                if best.as_ref().is_none_or(|(d, _)| distance < *d) {
                    best = Some((distance, std::iter::once(first).chain(second).collect()));
                }
            }
            pb.undo();
            if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break;
            }
        }
        best.map(|(_, moves)| moves).unwrap_or_default()
    }

    /// Three opening stones (Black, White, Black) near the centre whose position is nearest to even by a shallow
    /// search, for the first player of swap2. The board is left as it was.
    pub fn balance_opening(&mut self, stop: Option<&AtomicBool>) -> Vec<Pos> {
        let c = self.pb.size() / 2;
        let at = |dx: isize, dy: isize| Pos::new(c.saturating_add_signed(dx), c.saturating_add_signed(dy));
        let shapes =
            [[(0, 0), (1, 0), (-1, 2)], [(0, 0), (0, 1), (2, 2)], [(0, 0), (1, -1), (1, 2)], [(0, 0), (2, 0), (0, 3)]];
        let mut best: Option<(i32, Vec<Pos>)> = None;
        for shape in shapes {
            let stones: Vec<Pos> = shape.iter().map(|&(dx, dy)| at(dx, dy)).collect();
            let Ok(mut pb) = PatternBoard::new(self.pb.size(), self.pb.rule()) else { break };
            let mut ok = true;
            for (i, &p) in stones.iter().enumerate() {
                let color = if i % 2 == 0 { Color::Black } else { Color::White };
                ok &= pb.board().is_empty(p) && !pb.is_five(color, p);
                if ok {
                    pb.make(p, color);
                }
            }
            if !ok {
                continue;
            }
            let limits = SearchLimits { depth: 5, stop, ..SearchLimits::default() };
            let options = SearchOptions { threads: 1, ..self.settings.search };
            let score = search(&pb, Color::White, &self.table, &limits, &options, |_| {}).score.abs();
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, stones));
            }
        }
        best.map(|(_, stones)| stones).unwrap_or_default()
    }

    /// A shallow search's score for `side` to move in `pb` (depth `depth`, no clock; `stop` ends it).
    fn shallow_score(&self, pb: &PatternBoard, side: Color, depth: i32, stop: Option<&AtomicBool>) -> i32 {
        let limits = SearchLimits { depth, stop, ..SearchLimits::default() };
        let options = SearchOptions { threads: 1, ..self.settings.search };
        search(pb, side, &self.table, &limits, &options, |_| {}).score
    }

    /// Soosõrv step 1: the renju opening (of the 26) nearest to even by a shallow search, as three stones.
    pub fn soosorv_opening(&mut self, stop: Option<&AtomicBool>) -> Vec<Pos> {
        let size = self.pb.size();
        let mut best: Option<(i32, Vec<Pos>)> = None;
        for opening in RENJU_OPENINGS {
            let stones: Vec<Pos> = opening.split_whitespace().filter_map(|w| Pos::parse(w, 15).ok()).collect();
            let Ok(mut pb) = PatternBoard::new(size, self.pb.rule()) else { break };
            let offset = (size as isize - 15) / 2;
            let stones: Vec<Pos> = stones
                .iter()
                .map(|p| Pos::new((p.x as isize + offset) as usize, (p.y as isize + offset) as usize))
                .collect();
            for (i, &p) in stones.iter().enumerate() {
                pb.make(p, if i % 2 == 0 { Color::Black } else { Color::White });
            }
            let score = self.shallow_score(&pb, Color::White, 4, stop).abs();
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, stones));
            }
            if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break;
            }
        }
        best.map(|(_, s)| s).unwrap_or_default()
    }

    /// The side to move's shallow score, for swap decisions.
    pub fn score_to_move(&mut self, stop: Option<&AtomicBool>) -> i32 {
        let side = self.side_to_move();
        self.shallow_score(&self.pb.clone(), side, 5, stop)
    }

    /// Soosõrv step 6 (White): of Black's offered fifth moves, the one after which White stands best.
    pub fn choose_offer(&mut self, offers: &[Pos], stop: Option<&AtomicBool>) -> Option<Pos> {
        let side = self.side_to_move();
        let mut best: Option<(i32, Pos)> = None;
        for &m in offers {
            let mut pb = self.pb.clone();
            if !crate::movegen::is_legal(&mut pb, side, m) {
                continue;
            }
            if pb.is_five(side, m) {
                return Some(m); // cannot happen in a fair offer, but a five is the answer then
            }
            pb.make(m, side);
            let white = self.shallow_score(&pb, side.opponent(), 5, stop);
            if best.is_none_or(|(s, _)| white > s) {
                best = Some((white, m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// Thinks without a clock, to `limits` alone.
    pub fn think_with(&mut self, limits: &SearchLimits<'_>, on_iteration: impl FnMut(&Report)) -> Report {
        let side = self.side_to_move();
        search(&self.pb, side, &self.table, limits, &self.settings.search, on_iteration)
    }
}
