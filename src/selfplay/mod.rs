//! Self-play in one process: two configurations of this engine play each other, each with its own engine and clock,
//! several games at a time, and a referee board judges every move by the rules (`game.rs`: one game). [`run`] prints
//! one line per game, the score, an Elo estimate with its 95% margin, the slowest answer and the peak resident
//! memory, and appends every game to a game file for training when asked (see [`crate::records`]); the SPSA tuner
//! plays its games through [`winner`].
//!
//! Openings: the 26 renju openings in order (each twice, colours swapped: the default), or for training data
//! ([`OpeningChoice::Varied`]) one per pair of games chosen by the seed: half of them a renju opening under a random
//! symmetry, half one of 64 random balanced openings ([`crate::openings::random_openings`]) under a random
//! symmetry; then in the first `random_plies` moves, each side plays, one time in two, a random move among the four
//! its ordering values like best (never when it must answer a threat). The seed fixes all of it; with a node limit
//! per move the games themselves are fixed too.

mod game;

use crate::engine::{RENJU_OPENINGS, opening_scorer};
use crate::eval::{EvalChoice, WeightsRef};
use crate::matches::{Decision, Shard, Sprt, elo_estimate, elo_pentanomial};
use crate::openings::{GenOptions, random_openings};
use crate::problems::Problems;
use crate::records::{GameRecord, append_game_file, resume_game_file, write_game};
use crate::search::params::Params;
use crate::types::{Color, Pos, Rule};
use game::{End, Played, play_game};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// One side's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Deepest iteration (0: no limit).
    pub depth: i32,
    /// Nodes per move (0: no limit).
    pub nodes: u64,
    /// Whether the threat solvers are used.
    pub threats: bool,
    /// The evaluation and ordering tables.
    pub weights: WeightsRef,
    /// The evaluation: classical or a network.
    pub eval: EvalChoice,
    /// The search's tunable values.
    pub params: Params,
}

impl Default for Player {
    fn default() -> Player {
        Player {
            depth: 0,
            nodes: 0,
            threats: true,
            weights: WeightsRef::default(),
            eval: EvalChoice::Default,
            params: Params::DEFAULT,
        }
    }
}

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningChoice {
    /// The 26 renju openings in order, each twice.
    Renju26,
    /// Per pair of games: a renju opening under a random symmetry, or a random balanced opening.
    Varied,
    /// The openings of a file in order, each for a pair of games, then again under the board's next symmetry when
    /// the pairs outnumber them (eight times at most; then as at first).
    Listed(Vec<Vec<Pos>>),
}

/// A self-play match.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// The rule.
    pub rule: Rule,
    /// Games to play.
    pub games: usize,
    /// Time per move (ms).
    pub turn_ms: u64,
    /// Time per game and side (ms; 0: none).
    pub match_ms: u64,
    /// The first configuration (A).
    pub a: Player,
    /// The second (B).
    pub b: Player,
    /// Draw when this many stones are on the board.
    pub draw_at: Option<usize>,
    /// Each engine's memory limit in bytes (`INFO max_memory`; 0: none).
    pub max_memory: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// The game file every game is appended to, if any.
    pub record: Option<String>,
    /// Where the games start.
    pub openings: OpeningChoice,
    /// Moves after the opening in which a side may play a random good move.
    pub random_plies: usize,
    /// Moves added to each pair's opening, each a random one among the four the ordering likes best (fewer where a
    /// side must answer a threat), drawn from the seed and the pair: both games of a pair start from the same
    /// position, and a short list of openings serves many pairs without repeating a game.
    pub opening_plies: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// Play only this shard's games (a block of the game pairs, numbered and seeded as in the whole run).
    pub shard: Option<Shard>,
    /// Go on with a run that stopped: the complete games at the start of `record` are the run's first games, and
    /// they are not played again (a torn last record is cut off). At fixed nodes the games that follow are the
    /// ones the run would have played. The report counts the games this run plays; the game file holds them
    /// all.
    pub resume: bool,
    /// The sequential probability ratio test that stops the run once it decides (`--games` then the most games
    /// played), on the pentanomial counts of the game pairs (the two games of an opening, colours swapped). A resumed
    /// run counts the games already in its file.
    pub sprt: Option<Sprt>,
}

impl Default for Match {
    fn default() -> Match {
        Match {
            rule: Rule::Renju,
            games: 2,
            turn_ms: 1_000,
            match_ms: 0,
            a: Player::default(),
            b: Player::default(),
            draw_at: None,
            max_memory: 0,
            concurrency: 1,
            record: None,
            openings: OpeningChoice::Renju26,
            random_plies: 0,
            opening_plies: 0,
            seed: 1,
            shard: None,
            resume: false,
            sprt: None,
        }
    }
}

/// The totals, kept as games end.
#[derive(Default)]
struct Tally {
    wins: usize,
    losses: usize,
    draws: usize,
    /// Game pairs by A's points in them (0, ½, 1, 1½, 2: index 0 to 4).
    penta: [usize; 5],
    /// A's score in the first game of a pair whose second has not ended, by pair.
    halves: BTreeMap<usize, f32>,
    slowest: Duration,
    moves: usize,
    answers: usize,
    thought: Duration,
    searched: (usize, Duration),
}

impl Tally {
    /// Counts game `game`'s result, Black's score `black`: A's win, loss or draw, and the pair when both its games
    /// have ended (true then).
    fn add(&mut self, game: usize, black: f32) -> bool {
        let a = if game % 2 == 0 { black } else { 1.0 - black };
        match a {
            x if x > 0.75 => self.wins += 1,
            x if x < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
        match self.halves.remove(&(game / 2)) {
            Some(other) => {
                self.penta[((a + other) * 2.0).round().clamp(0.0, 4.0) as usize] += 1;
                true
            }
            None => {
                self.halves.insert(game / 2, a);
                false
            }
        }
    }
}

/// The opening of each pair of games, with its `opening_plies` random moves.
pub fn openings(m: &Match) -> Vec<Vec<Pos>> {
    let chosen = chosen_openings(m);
    if m.opening_plies == 0 {
        return chosen;
    }
    chosen
        .into_iter()
        .enumerate()
        .map(|(pair, mut moves)| {
            let mut rng = StdRng::seed_from_u64(m.seed ^ (pair as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            game::extend_opening(&mut moves, m.rule, m.opening_plies, &mut rng);
            moves
        })
        .collect()
}

/// The opening of each pair of games, as chosen.
fn chosen_openings(m: &Match) -> Vec<Vec<Pos>> {
    let pairs = m.games.div_ceil(2);
    let renju = |i: usize, symmetry: usize| -> Vec<Pos> {
        let text = RENJU_OPENINGS[i % RENJU_OPENINGS.len()];
        text.split_whitespace().filter_map(|w| Pos::parse(w, 15).ok()).map(|p| p.transform(15, symmetry)).collect()
    };
    match &m.openings {
        OpeningChoice::Renju26 => (0..pairs).map(|i| renju(i, 0)).collect(),
        // A list shorter than the pairs is gone through again under the next symmetry of the board.
        OpeningChoice::Listed(list) if !list.is_empty() => (0..pairs)
            .map(|i| list[i % list.len()].iter().map(|p| p.transform(15, (i / list.len()) % 8)).collect())
            .collect(),
        OpeningChoice::Listed(_) => Vec::new(),
        OpeningChoice::Varied => {
            let mut rng = StdRng::seed_from_u64(m.seed);
            // Three stones near the centre make a few hundred distinct openings: a pool of 64 serves every pair.
            let pool_size = (pairs / 2).min(RANDOM_POOL);
            let options = GenOptions { rule: m.rule, count: pool_size, seed: m.seed, ..GenOptions::default() };
            let pool: Vec<Vec<Pos>> = if pool_size > 0 {
                random_openings(&options, &mut opening_scorer(&options)).into_iter().map(|(moves, _)| moves).collect()
            } else {
                Vec::new()
            };
            (0..pairs)
                .map(|i| {
                    let symmetry = rng.random_range(0..8);
                    if i % 2 == 1 && !pool.is_empty() {
                        let moves = &pool[rng.random_range(0..pool.len())];
                        moves.iter().map(|p| p.transform(15, symmetry)).collect()
                    } else {
                        renju(rng.random_range(0..RENJU_OPENINGS.len()), symmetry)
                    }
                })
                .collect()
        }
    }
}

/// The clock of a side that moves by a node count: so long that no time limit inside the search (the root's VCT
/// takes a share of the move's time) ever binds on a loaded machine, so that the seed and the game number alone
/// fix the game.
pub(super) const NODE_LIMITED_TURN_MS: u64 = 600_000;

/// The board self-play plays on.
pub(super) const BOARD_SIZE: usize = 15;

/// How many random balanced openings the varied openings draw from.
const RANDOM_POOL: usize = 64;

/// Plays the match and writes the report.
///
/// # Errors
/// Output I/O errors, and a game file that cannot be written.
pub fn run(m: &Match, out: &mut dyn Write) -> io::Result<()> {
    let openings = openings(m);
    // This shard's games (all of them unsharded), in the run's order: the game file keeps that order whatever order
    // the games end in, so the shards' files joined in shard order are the unsharded run's file.
    let mut games: Vec<usize> = (0..m.games).filter(|&g| m.shard.is_none_or(|s| s.plays(m.games, g))).collect();
    let mut t = Tally::default();
    let (mut record, done) = match &m.record {
        Some(path) if m.resume => {
            let (file, done) = resume_game_file(std::path::Path::new(path), games.len(), m.rule, BOARD_SIZE)?;
            if done > 0 {
                writeln!(out, "resumed: {done} of the run's {} games are in {path}; the rest follow", games.len())?;
                if m.sprt.is_some() {
                    // The test goes on from the games already played.
                    let held = crate::records::read_games(&[path], &mut Problems::new(&mut io::sink()))
                        .map_err(io::Error::other)?;
                    for (record, &game) in held.iter().zip(&games).take(done) {
                        t.add(game, record.outcome.black_score());
                    }
                }
            }
            (Some(file), done)
        }
        Some(path) => (Some(append_game_file(std::path::Path::new(path))?), 0),
        None => (None, 0),
    };
    games.drain(..done);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(m.concurrency).build().map_err(io::Error::other)?;
    let (tx, rx) = mpsc::channel::<(usize, Played)>();
    // Set once the SPRT decides: no game starts after it (the ones under way end and count).
    let decided = AtomicBool::new(m.sprt.is_some_and(|s| s.decide(&t.penta) != Decision::Continue));
    let mut failed = None;
    // Games ended but not yet in the file, and how many of `games` are.
    let mut waiting: BTreeMap<usize, GameRecord> = BTreeMap::new();
    let mut recorded = 0;
    std::thread::scope(|scope| {
        let (openings, games, decided) = (&openings, &games, &decided);
        scope.spawn(move || {
            // Games are taken in order, one per free worker, so they also end roughly in order.
            let next = AtomicUsize::new(0);
            pool.broadcast(|_| {
                while !decided.load(Ordering::Relaxed)
                    && let Some(&game) = games.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    let (black, white) = if game % 2 == 0 { (m.a, m.b) } else { (m.b, m.a) };
                    let played = play_game(m, &openings[game / 2], [black, white], m.seed.wrapping_add(game as u64));
                    // The receiver outlives the senders: a send cannot fail.
                    let _ = tx.send((game, played));
                }
            });
            drop(tx);
        });
        // Lines and records are written here, as games end.
        for (game, played) in rx {
            let a_black = game % 2 == 0;
            let black = match played.end {
                End::BlackWins(_) => 1.0,
                End::WhiteWins(_) => 0.0,
                End::Draw(_) => 0.5,
            };
            let paired = t.add(game, black);
            t.slowest = t.slowest.max(played.slowest);
            t.moves += played.moves;
            t.answers += played.moves; // a random move takes no time: it counts as an answer of 0 ms
            t.thought += played.thought;
            t.searched.0 += played.searched.0;
            t.searched.1 += played.searched.1;
            let how = match played.end {
                End::BlackWins(r) => format!("1-0 ({r})"),
                End::WhiteWins(r) => format!("0-1 ({r})"),
                End::Draw(r) => format!("1/2 ({r})"),
            };
            let opening: Vec<String> = openings[game / 2].iter().map(|p| p.notation(15)).collect();
            let written = writeln!(
                out,
                "game {:>3}: {} black, opening {}: {how}, {} moves, slowest {} ms",
                game + 1,
                if a_black { "A" } else { "B" },
                opening.join(" "),
                played.moves,
                played.slowest.as_millis()
            )
            .and_then(|()| match m.sprt {
                Some(sprt) if paired => {
                    let (low, high) = sprt.bounds();
                    let verdict = sprt.decide(&t.penta);
                    if verdict != Decision::Continue {
                        decided.store(true, Ordering::Relaxed);
                    }
                    writeln!(
                        out,
                        "sprt: {} pairs {:?}, LLR {:.2} ({low:.2}, {high:.2})",
                        t.penta.iter().sum::<usize>(),
                        t.penta,
                        sprt.llr(&t.penta)
                    )
                }
                _ => Ok(()),
            })
            .and_then(|()| out.flush())
            .and_then(|()| {
                let Some(file) = record.as_mut() else { return Ok(()) };
                waiting.insert(game, played.record);
                while let Some(next) = games.get(recorded).and_then(|g| waiting.remove(g)) {
                    write_game(file, &next)?;
                    recorded += 1;
                }
                file.flush()
            });
            if let Err(e) = written {
                failed.get_or_insert(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let (elo, margin) = elo_estimate(t.wins, t.losses, t.draws);
    let mean = |total: Duration, n: usize| total.as_millis() / (n.max(1) as u128);
    writeln!(
        out,
        "moves {}, mean answer {} ms ({} searched, mean {} ms), slowest answer {} ms, peak resident {}",
        t.moves,
        mean(t.thought, t.answers),
        t.searched.0,
        mean(t.searched.1, t.searched.0),
        t.slowest.as_millis(),
        peak_memory()
    )?;
    writeln!(out, "Elo of A vs B: {elo:+.0} +/- {margin:.0} (95%)")?;
    let pairs: usize = t.penta.iter().sum();
    if pairs > 0 {
        let (elo, margin) = elo_pentanomial(&t.penta);
        writeln!(out, "Pentanomial {:?} of {pairs} pairs: Elo {elo:+.1} +/- {margin:.1} (95%)", t.penta)?;
    }
    if let Some(sprt) = m.sprt {
        let verdict = match sprt.decide(&t.penta) {
            Decision::H1 => "H1 accepted",
            Decision::H0 => "H0 accepted",
            Decision::Continue => "undecided",
        };
        let (low, high) = sprt.bounds();
        writeln!(
            out,
            "SPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({low:.2}, {high:.2}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&t.penta)
        )?;
    }
    writeln!(out, "Score of A vs B: {} - {} - {}", t.wins, t.losses, t.draws)
}

/// The winner of one game of `m` from `opening` between `players` (Black's and White's configurations), its random
/// moves drawn from `seed`; none for a draw.
pub fn winner(m: &Match, opening: &[Pos], players: [Player; 2], seed: u64) -> Option<Color> {
    match play_game(m, opening, players, seed).end {
        End::BlackWins(_) => Some(Color::Black),
        End::WhiteWins(_) => Some(Color::White),
        End::Draw(_) => None,
    }
}

/// The process's peak resident size, from /proc (Linux), or "unknown".
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l["VmHWM:".len()..].trim().to_string()))
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_counted_by_as_points_in_both_games() {
        let mut t = Tally::default();
        // Pair 0: A wins as Black (game 0) and as White (game 1, Black loses); pair 1: Black wins both (1-1);
        // pair 2: a draw and a loss.
        assert!(!t.add(0, 1.0));
        assert!(t.add(1, 0.0));
        assert!(!t.add(3, 1.0));
        assert!(t.add(2, 1.0));
        assert!(!t.add(4, 0.5));
        assert!(t.add(5, 1.0));
        assert_eq!(t.penta, [0, 1, 1, 0, 1]);
        assert_eq!((t.wins, t.losses, t.draws), (3, 2, 1));
    }

    #[test]
    fn listed_openings_come_again_under_the_next_symmetry_and_pairs_share_their_added_moves() {
        let list: Vec<Vec<Pos>> = ["h8 i9", "h8 g7 j10"]
            .iter()
            .map(|o| o.split(' ').map(|w| Pos::parse(w, 15).expect("point")).collect())
            .collect();
        let m = Match { games: 10, openings: OpeningChoice::Listed(list.clone()), ..Match::default() };
        let chosen = openings(&m);
        assert_eq!(chosen.len(), 5);
        assert_eq!(chosen[0], list[0]);
        assert_eq!(chosen[1], list[1]);
        let image: Vec<Pos> = list[0].iter().map(|p| p.transform(15, 1)).collect();
        assert_eq!(chosen[2], image);
        assert_ne!(chosen[2], chosen[0]);
        // Two moves added to each pair's opening: legal, new, drawn from the seed and the pair.
        let extended = openings(&Match { opening_plies: 2, ..m.clone() });
        for (pair, moves) in extended.iter().enumerate() {
            assert_eq!(moves.len(), chosen[pair].len() + 2);
            assert_eq!(moves[..chosen[pair].len()], chosen[pair][..]);
            let mut distinct = moves.clone();
            distinct.sort_by_key(|p| p.index());
            distinct.dedup();
            assert_eq!(distinct.len(), moves.len());
        }
        assert_eq!(extended, openings(&Match { opening_plies: 2, ..m.clone() }));
        assert_ne!(extended, openings(&Match { opening_plies: 2, seed: 2, ..m }));
    }
}
