//! Game records for training, in three formats, each in its file: Tengen's game file (`.tgr`, `tgr.rs`: whole games,
//! written by the match runner, self-play and `rescore`), Piskvork's record (`.psq`, `psq.rs`: one game a file, as
//! Gomocup publishes its tournaments; read only) and c-gomoku-cli's samples (`samples.rs`: single positions, read
//! only). `files.rs` reads whole files of any of them (and folders of them) for the commands, and creates and
//! appends to game files; `gomocup.rs` says which of Gomocup's games may be learned from and which only judge.
//! Beside the formats, what the rooms above do with records: `replay.rs` replays a game or a list of moves
//! position by position, `selection.rs` chooses the positions where Gomocup's strongest engines thought (for the
//! yardstick and the move policy's trainer alike).
//!
//! Both formats pack a point in 16 bits as `(x << 5) | y`, with Gomocup's `x` and `y`. Readers never stop at a bad
//! record: it is reported (`record N: …`) and the rest is used. A file cut short reports its last record as
//! truncated.

mod files;
pub mod gomocup;
mod psq;
mod replay;
mod samples;
pub mod selection;
mod tgr;

pub use files::{
    GameFile, PsqFiles, TrainingSet, append_game_file, create_game_file, expand_folders, read_game_files, read_games,
    read_learning_games, read_psq_files, read_training_set, resume_game_file, write_joined_game_files,
};
pub use psq::{PSQ_MAGIC, PsqGame, read_psq};
pub use replay::{PositionLines, replay_game, replay_moves};
pub use tgr::{Joined, MAGIC, complete_games, game_ranges, join_game_files, write_game, write_header};

use crate::types::{Pos, Rule};

/// A score that was not given.
pub const NO_SCORE: i16 = i16::MIN;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White won.
    WhiteWins = 0,
    /// Nobody won.
    Draw = 1,
    /// Black won.
    BlackWins = 2,
}

impl Outcome {
    /// Black's score: 0, ½ or 1.
    #[must_use]
    pub fn black_score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}

/// One whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule it was played under.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// How it ended.
    pub outcome: Outcome,
    /// How many of the first moves were given (the opening).
    pub opening: usize,
    /// Every move, Black first.
    pub moves: Vec<Pos>,
    /// Per move, the mover's search score ([`NO_SCORE`] for none), if kept.
    pub scores: Option<Vec<i16>>,
    /// Black's and White's names (engines of a match; self-play leaves them out).
    pub players: Option<[String; 2]>,
    /// Per move, the best move a search (`rescore`) found in the position before it, if kept.
    pub best: Option<Vec<Option<Pos>>>,
    /// The forbidden point Black played after the last move, which lost the game (renju): the result is White's,
    /// but the position did not decide it, so training leaves such games out and the book counts them.
    pub forbidden_end: Option<Pos>,
}

/// A search score as a game file keeps it: within what 16 bits hold, never [`NO_SCORE`].
#[must_use]
pub fn stored_score(score: i32) -> i16 {
    score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}

/// One position from a sample file: the moves that lead to it, the move played there, and the result for the
/// side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// The moves so far, Black first.
    pub moves: Vec<Pos>,
    /// The move the engine played.
    pub played: Pos,
    /// The side to move's result: 0, ½ or 1.
    pub result: f32,
}

/// What a training file held.
#[derive(Clone, Debug, Default)]
pub struct TrainingData {
    /// Whole games (Tengen's file).
    pub games: Vec<GameRecord>,
    /// Single positions (c-gomoku-cli's samples).
    pub samples: Vec<Sample>,
}

fn pack(p: Pos) -> u16 {
    (u16::from(p.x) << 5) | u16::from(p.y)
}

fn unpack(m: u16, size: usize) -> Option<Pos> {
    let (x, y) = (usize::from((m >> 5) & 0x1f), usize::from(m & 0x1f));
    (x < size && y < size && m >> 10 == 0).then(|| Pos::new(x, y))
}

/// The rule of a stored Gomocup rule number (one of the five [`Rule::info`] values).
fn rule_of_number(n: u8) -> Option<Rule> {
    Rule::ALL.into_iter().find(|r| r.info() == u32::from(n))
}

/// Why a record could not be read.
enum Bad {
    /// The bytes end inside it.
    Truncated(usize, usize),
    /// It is malformed: the reason.
    Corrupt(String),
}

/// Unpacks moves, checking that each is on the board and on an empty point.
fn read_moves(words: impl Iterator<Item = u16>, size: usize) -> Result<Vec<Pos>, Bad> {
    let mut taken = vec![false; size * size];
    let mut moves = Vec::new();
    for (i, m) in words.enumerate() {
        let p = unpack(m, size).ok_or_else(|| Bad::Corrupt(format!("move {} (0x{m:04x}) is off the board", i + 1)))?;
        let at = usize::from(p.y) * size + usize::from(p.x);
        if std::mem::replace(&mut taken[at], true) {
            return Err(Bad::Corrupt(format!("move {} ({}) is on a taken point", i + 1, p.notation(size))));
        }
        moves.push(p);
    }
    Ok(moves)
}

/// Reads Tengen's game file (after its magic) or c-gomoku-cli's samples, whichever `bytes` holds; every bad
/// record is reported to `error` as `record N: reason` and skipped.
pub fn read_training(bytes: &[u8], error: &mut dyn FnMut(String)) -> TrainingData {
    let mut data = TrainingData::default();
    if let Some(rest) = bytes.strip_prefix(MAGIC.as_slice()) {
        data.games = tgr::read_games(rest, error);
    } else {
        data.samples = samples::read_samples(bytes, error);
    }
    data
}
