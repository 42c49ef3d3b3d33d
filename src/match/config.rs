//! What defines a match: its engines, rule, clock, openings, and which shard of the run this is. The runner
//! ([`super::run`]), the totals ([`super::tally`]) and the shards' results files ([`super::shard`]) read it.

use super::stats::Sprt;
use crate::types::{Pos, Rule};
use std::ops::Range;
use std::path::PathBuf;

/// An engine taking part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its name in the output.
    pub name: String,
    /// The shell command line that starts it.
    pub command: String,
}

/// A match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines; every pair plays.
    pub engines: Vec<EngineSpec>,
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Games per pair of engines.
    pub games: usize,
    /// Time per move (ms).
    pub turn_ms: u64,
    /// Time per game and side (ms; 0: none).
    pub match_ms: u64,
    /// How late an answer may be (ms).
    pub tolerance_ms: u64,
    /// Memory limit per engine (bytes; 0: none).
    pub max_memory: u64,
    /// Draw when this many stones are on the board.
    pub draw_at: usize,
    /// The openings, each used for two games in a row; empty: every game from the empty board.
    pub openings: Vec<Vec<Pos>>,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Where SGF records go.
    pub sgf_dir: Option<PathBuf>,
    /// Stop early when the SPRT decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Suspend engines while it is not their turn (GomocupJudge does).
    pub suspend: bool,
    /// Keep each engine's process from game to game (Piskvork and c-gomoku-cli do; GomocupJudge and the default
    /// start fresh ones each game).
    pub keep_processes: bool,
    /// Negotiate the first moves by this opening rule instead of playing the openings (the pair's first engine is
    /// the tentative Black of the odd games).
    pub opening_rule: Option<crate::opening_rule::OpeningRule>,
    /// Play only this shard's games (whole opening pairs: see [`Shard`]).
    pub shard: Option<Shard>,
    /// Where the settings and every game's result go, for `merge`.
    pub results: Option<PathBuf>,
    /// Where the games go as training records (a `.tgr` file: the players named, the scores they said).
    pub games_out: Option<PathBuf>,
}

impl MatchConfig {
    /// Every pair of engines `(i, j)` with `i < j`, in the order the match plays and reports them.
    #[must_use]
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
    }

    /// A match of `engines` with the judge's defaults: renju on 15×15, two games, 1 s a move, no game clock,
    /// 1000 ms tolerance, 350 MiB, the renju league's draw at `size² − 25` stones, the 26 renju openings.
    #[must_use]
    pub fn new(engines: Vec<EngineSpec>) -> MatchConfig {
        MatchConfig {
            engines,
            rule: Rule::Renju,
            size: 15,
            games: 2,
            turn_ms: 1_000,
            match_ms: 0,
            tolerance_ms: 1_000,
            max_memory: 367_001_600,
            draw_at: default_draw_at(Rule::Renju, 15),
            openings: crate::openings::renju_openings(15, Rule::Renju),
            concurrency: 1,
            sgf_dir: None,
            sprt: None,
            suspend: true,
            keep_processes: false,
            opening_rule: None,
            shard: None,
            results: None,
            games_out: None,
        }
    }
}

/// How a match runs its engines' processes, in a word: `kept` (from game to game) or `fresh` (new each game), as
/// options, results files and reports write it.
#[must_use]
pub fn processes_word(kept: bool) -> &'static str {
    if kept { "kept" } else { "fresh" }
}

/// Whether `word` (`kept` or `fresh`) keeps processes; `None` for any other word.
#[must_use]
pub fn keeps_processes(word: &str) -> Option<bool> {
    [false, true].into_iter().find(|&kept| processes_word(kept) == word)
}

/// The stone count at which a game is drawn by default: `size² − 25` in renju (GomocupJudge's 200-stone rule on
/// 15×15), the full board otherwise.
#[must_use]
pub fn default_draw_at(rule: Rule, size: usize) -> usize {
    if rule == Rule::Renju { size * size - 25 } else { size * size }
}

/// Shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: usize,
    /// How many shards the run has.
    pub count: usize,
}

impl Shard {
    /// Parses `I/N` with `1 <= I <= N`.
    ///
    /// # Errors
    /// What is wrong with the text.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("a shard is I/N with 1 <= I <= N (as a job array's task id of its size), not '{text}'");
        let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) =
            (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The units (opening pairs, numbered from 0) of a run of `units` that this shard plays: a contiguous block,
    /// the blocks of shards 1 to N in order covering `0..units` once.
    #[must_use]
    pub fn pairs(&self, units: usize) -> Range<usize> {
        let at = |k: usize| units * k / self.count.max(1);
        at(self.index - 1)..at(self.index)
    }

    /// Whether game `game` (from 0, each opening serving games `2k` and `2k + 1`) of a run of `games` games per pair
    /// of engines is this shard's.
    #[must_use]
    pub fn plays(&self, games: usize, game: usize) -> bool {
        self.pairs(games.div_ceil(2)).contains(&(game / 2))
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_run_once_in_order() {
        for units in [0, 1, 5, 13, 104] {
            for count in 1..=7 {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard { index, count }.pairs(units);
                    assert_eq!(r.start, next, "{units} units, shard {index}/{count}");
                    next = r.end;
                }
                assert_eq!(next, units);
            }
        }
        assert_eq!(Shard::parse(" 2/5 "), Ok(Shard { index: 2, count: 5 }));
        for bad in ["0/3", "4/3", "2", "a/b", "1/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
