//! Random balanced openings: stones drawn near the centre by a seed, kept when they are legal, nobody has a four or
//! a five to play, no earlier one is a symmetric image of them and a search scores them near even; and the openings
//! games of given files started from, to leave out (held-out openings, for judging a book or a network on games it
//! did not learn from). The search is the caller's, a [`Scorer`] ([`crate::engine::opening_scorer`] for the commands
//! and self-play): nothing here searches.

use super::{check_opening, opening_key, same_opening, symmetric_images};
use crate::pattern::PatternBoard;
use crate::problems::Problems;
use crate::types::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// What scores a candidate opening for the side to move (its moves, Black first); `None` when it cannot.
pub type Scorer<'a> = &'a mut dyn FnMut(&[Pos]) -> Option<i32>;

/// Options of the opening generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// The rule the openings are judged under.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// How many openings.
    pub count: usize,
    /// Stones per opening.
    pub stones: usize,
    /// The depth of the search that scores them (the scorer's to read).
    pub depth: i32,
    /// The largest score (for the side to move) kept.
    pub max_score: i32,
    /// Random seed.
    pub seed: u64,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions { rule: Rule::Renju, size: 15, count: 20, stones: 3, depth: 6, max_score: 150, seed: 1 }
    }
}

/// Random openings of `stones` stones within three points of the centre (the first on the centre in renju), kept
/// when they are legal, nobody has a four or a five to play, no earlier opening is a symmetric image of them, and
/// `score` (a search of `depth` plies, [`crate::engine::opening_scorer`], where the commands and self-play generate)
/// gives them a score within `max_score` for the side to move. Returns each with its score; fewer than `count` when
/// too many tries fail.
pub fn random_openings(opts: &GenOptions, score: Scorer<'_>) -> Vec<(Vec<Pos>, i32)> {
    random_openings_where(opts, &|_| true, score)
}

/// [`random_openings`], keeping only the openings `keep` accepts. It is asked before the search, and the openings it
/// refuses leave the others as they were: the list is the one without `keep`, less those it refused, and longer at
/// the end to make up the count.
pub fn random_openings_where(
    opts: &GenOptions,
    keep: &dyn Fn(&[Pos]) -> bool,
    score: Scorer<'_>,
) -> Vec<(Vec<Pos>, i32)> {
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let mut found: Vec<(Vec<Pos>, i32)> = Vec::new();
    let c = opts.size / 2;
    let reach = 3.min(c);
    for _ in 0..opts.count.saturating_mul(200).max(200) {
        if found.len() >= opts.count {
            break;
        }
        let mut moves: Vec<Pos> = Vec::new();
        for i in 0..opts.stones {
            let p = if i == 0 && opts.rule == Rule::Renju {
                Pos::new(c, c)
            } else {
                Pos::new(c - reach + rng.random_range(0..2 * reach + 1), c - reach + rng.random_range(0..2 * reach + 1))
            };
            moves.push(p);
        }
        if check_opening(&moves, opts.size, opts.rule).is_err()
            || found.iter().any(|(f, _)| symmetric_images(f, opts.size).iter().any(|img| same_opening(img, &moves)))
            || !keep(&moves)
        {
            continue;
        }
        let Ok(mut pb) = PatternBoard::new(opts.size, opts.rule) else { return found };
        for (i, &p) in moves.iter().enumerate() {
            pb.make(p, Color::to_move(i));
        }
        // A four (or five) for either side is no opening.
        if [Color::Black, Color::White].iter().any(|&k| pb.four_candidates(k).next().is_some()) {
            continue;
        }
        let Some(score) = score(&moves) else { continue };
        if score.abs() <= opts.max_score {
            found.push((moves, score));
        }
    }
    found
}

/// The openings the games of `files` (`.tgr`) started from, as [`opening_key`]s: the first `stones` moves of each
/// game of the rule and board size given (the files may hold others). Damaged records are skipped on `problems`, as
/// the trainer skips them.
///
/// # Errors
/// A file that cannot be read, or no game of the rule and size in any of them.
pub fn seen_openings(
    files: &[PathBuf],
    rule: Rule,
    size: usize,
    stones: usize,
    problems: &mut Problems,
) -> Result<BTreeSet<[Vec<Pos>; 2]>, String> {
    let mut seen = BTreeSet::new();
    let mut games = 0;
    for file in crate::records::read_game_files(files) {
        let file = file?;
        problems.skip_all(&file.problems);
        for g in file.data.games.iter().filter(|g| g.rule == rule && g.size == size) {
            games += 1;
            if g.moves.len() >= stones {
                seen.insert(opening_key(&g.moves[..stones], size));
            }
        }
    }
    if games == 0 {
        return Err(format!("no {rule} game on {size}x{size} in the files given to --unseen-in"));
    }
    Ok(seen)
}

/// Openings, each with the score the generator's search gave it.
pub type Scored = Vec<(Vec<Pos>, i32)>;

/// Random openings as [`random_openings`] makes them, less those the games of `unseen_in` started from (none left
/// out when it is empty); with how many distinct openings were left out for that. Damaged records of the files are
/// skipped on `problems`.
///
/// # Errors
/// As [`seen_openings`].
pub fn unseen_random_openings(
    opts: &GenOptions,
    unseen_in: &[PathBuf],
    score: Scorer<'_>,
    problems: &mut Problems,
) -> Result<(Scored, usize), String> {
    let seen = if unseen_in.is_empty() {
        BTreeSet::new()
    } else {
        seen_openings(unseen_in, opts.rule, opts.size, opts.stones, problems)?
    };
    let refused = RefCell::new(BTreeSet::new());
    let keep = |m: &[Pos]| {
        let key = opening_key(m, opts.size);
        let fresh = !seen.contains(&key);
        if !fresh {
            refused.borrow_mut().insert(key);
        }
        fresh
    };
    let found = random_openings_where(opts, &keep, score);
    Ok((found, refused.into_inner().len()))
}
