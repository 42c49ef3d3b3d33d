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
        if bytes != self.table.bytes() {
            self.table = Table::new(bytes);
        }
    }

    /// Sizes the table for a process memory limit (`INFO max_memory`; 0: no limit, the default size): at most
    /// half the limit, leaving room for the solvers' tables, the threads and the program.
    pub fn set_memory_limit(&mut self, bytes: u64) {
        let table = if bytes == 0 { DEFAULT_HASH_BYTES } else { (bytes / 2).min(1 << 34) as usize };
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
        let budget = self.settings.clock.budget(self.pb.board().stone_count());
        let (soft, hard) = budget.deadlines(start);
        let limits = SearchLimits {
            depth: self.settings.max_depth,
            nodes: self.settings.max_nodes,
            soft: Some(soft),
            hard: Some(hard),
            stop,
        };
        let side = self.side_to_move();
        search(&self.pb, side, &self.table, &limits, &self.settings.search, on_iteration)
    }

    /// Thinks without a clock, to `limits` alone.
    pub fn think_with(&mut self, limits: &SearchLimits<'_>, on_iteration: impl FnMut(&Report)) -> Report {
        let side = self.side_to_move();
        search(&self.pb, side, &self.table, limits, &self.settings.search, on_iteration)
    }
}
