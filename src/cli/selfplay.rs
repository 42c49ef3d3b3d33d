//! `selfplay`: two configurations of this engine play each other in one process, each with its own engine and
//! clock, several games at a time. A referee board judges every move by the rules. It prints one line per game,
//! the score, an Elo estimate with its 95% margin, the slowest answer and the peak resident memory, and with
//! `--record FILE` appends every game to a game file for training (see [`crate::records`]).
//!
//! Openings: the 26 renju openings in order (each twice, colours swapped: the default), or for training data
//! (`--openings varied`) one per pair of games chosen by the seed: half of them a renju opening under a random
//! symmetry, half one of 64 random balanced openings (`pbrain-tengen openings`) under a random symmetry; then in the first `--random-plies` moves,
//! each side plays, one time in two, a random move among the four its ordering values like best (never when it
//! must answer a threat). The seed fixes all of it; with a node limit per move (`--nodes`) the games themselves
//! are fixed too.

use super::OptionCursor;
use super::matchcmd::{GenOptions, random_openings};
use crate::engine::{Engine, RENJU_OPENINGS};
use crate::eval::{EvalChoice, Weights, WeightsRef, order_value};
use crate::matches::{Shard, elo_estimate};
use crate::movegen::{Candidates, candidates};
use crate::pattern::{MoveOutcome, PatternBoard};
use crate::records::{GameRecord, NO_SCORE, Outcome, append_game_file, write_game};
use crate::search::MATE;
use crate::search::params::Params;
use crate::search::time::Clock;
use crate::types::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningChoice {
    /// The 26 renju openings in order, each twice.
    Renju26,
    /// Per pair of games: a renju opening under a random symmetry, or a random balanced opening.
    Varied,
}

/// A self-play match.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// The seed of every random choice.
    pub seed: u64,
    /// Play only this shard's games (a block of the game pairs, numbered and seeded as in the whole run).
    pub shard: Option<Shard>,
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
            seed: 1,
            shard: None,
        }
    }
}

/// How a game ended, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    BlackWins(&'static str),
    WhiteWins(&'static str),
    Draw(&'static str),
}

/// One game played.
struct Played {
    end: End,
    /// Moves after the opening.
    moves: usize,
    slowest: Duration,
    /// Time the engines thought, over all their answers and over the answers that came from a search.
    thought: Duration,
    searched: (usize, Duration),
    record: GameRecord,
}

/// The totals, kept as games end.
#[derive(Default)]
struct Tally {
    wins: usize,
    losses: usize,
    draws: usize,
    slowest: Duration,
    moves: usize,
    answers: usize,
    thought: Duration,
    searched: (usize, Duration),
}

/// Parses the options of `selfplay`.
///
/// # Errors
/// A message naming a bad or unknown option.
pub fn parse_selfplay(args: &[String]) -> Result<Match, String> {
    let mut m = Match::default();
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&name, &inline);
        let mut number = |what: &str| -> Result<u64, String> {
            let v = value()?;
            v.trim().parse().map_err(|_| format!("bad {what} '{v}'"))
        };
        let depth = |d: u64| d.min(crate::search::MAX_DEPTH as u64) as i32;
        match name.as_str() {
            "--rule" => m.rule = value()?.parse()?,
            "--games" => m.games = number("game count")? as usize,
            "--turn-ms" => m.turn_ms = number("time")?,
            "--match-ms" => m.match_ms = number("time")?,
            "--draw-at" => m.draw_at = Some(number("stone count")? as usize),
            "--max-memory" => m.max_memory = number("memory limit")?,
            "--a-depth" => m.a.depth = depth(number("depth")?),
            "--b-depth" => m.b.depth = depth(number("depth")?),
            "--nodes" => (m.a.nodes, m.b.nodes) = number("node count").map(|n| (n, n))?,
            "--a-nodes" => m.a.nodes = number("node count")?,
            "--b-nodes" => m.b.nodes = number("node count")?,
            "--a-no-threats" if inline.is_none() => m.a.threats = false,
            "--b-no-threats" if inline.is_none() => m.b.threats = false,
            "--weights" => {
                (m.a.weights, m.b.weights) = Weights::load(&value()?).map(|w| (WeightsRef(w), WeightsRef(w)))?
            }
            "--a-weights" => m.a.weights = WeightsRef(Weights::load(&value()?)?),
            "--b-weights" => m.b.weights = WeightsRef(Weights::load(&value()?)?),
            "--eval" => (m.a.eval, m.b.eval) = value()?.parse::<EvalChoice>().map(|e| (e, e))?,
            "--a-eval" => m.a.eval = value()?.parse::<EvalChoice>()?,
            "--b-eval" => m.b.eval = value()?.parse::<EvalChoice>()?,
            "--network" => (m.a.eval, m.b.eval) = EvalChoice::load(&value()?).map(|e| (e, e))?,
            "--params" => (m.a.params, m.b.params) = Params::load(&value()?).map(|p| (p, p))?,
            "--a-params" => m.a.params = Params::load(&value()?)?,
            "--b-params" => m.b.params = Params::load(&value()?)?,
            "--a-network" => m.a.eval = EvalChoice::load(&value()?)?,
            "--b-network" => m.b.eval = EvalChoice::load(&value()?)?,
            "--concurrency" => m.concurrency = (number("game count")? as usize).clamp(1, 64),
            "--record" => m.record = Some(value()?),
            "--openings" => {
                m.openings = match value()?.as_str() {
                    "renju26" => OpeningChoice::Renju26,
                    "varied" => OpeningChoice::Varied,
                    other => return Err(format!("unknown openings '{other}' (renju26 or varied)")),
                }
            }
            "--random-plies" => m.random_plies = number("move count")? as usize,
            "--seed" => m.seed = number("seed")?,
            "--shard" => m.shard = Some(Shard::parse(&value()?)?),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(m)
}

/// The opening of each pair of games.
pub(crate) fn openings(m: &Match) -> Vec<Vec<Pos>> {
    let pairs = m.games.div_ceil(2);
    let renju = |i: usize, symmetry: usize| -> Vec<Pos> {
        let text = RENJU_OPENINGS[i % RENJU_OPENINGS.len()];
        text.split_whitespace().filter_map(|w| Pos::parse(w, 15).ok()).map(|p| p.transform(15, symmetry)).collect()
    };
    match m.openings {
        OpeningChoice::Renju26 => (0..pairs).map(|i| renju(i, 0)).collect(),
        OpeningChoice::Varied => {
            let mut rng = StdRng::seed_from_u64(m.seed);
            // Three stones near the centre make a few hundred distinct openings: a pool of 64 serves every pair.
            let pool_size = (pairs / 2).min(RANDOM_POOL);
            let options = GenOptions { rule: m.rule, count: pool_size, seed: m.seed, ..GenOptions::default() };
            let pool: Vec<Vec<Pos>> = if pool_size > 0 {
                random_openings(&options).into_iter().map(|(moves, _)| moves).collect()
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
const NODE_LIMITED_TURN_MS: u64 = 600_000;

/// How many random balanced openings the varied openings draw from.
const RANDOM_POOL: usize = 64;

/// Plays the match and writes the report.
///
/// # Errors
/// Output I/O errors, and a game file that cannot be written.
pub fn selfplay(m: &Match, out: &mut dyn Write) -> io::Result<()> {
    let openings = openings(m);
    let mut record = match &m.record {
        Some(path) => Some(append_game_file(std::path::Path::new(path))?),
        None => None,
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(m.concurrency).build().map_err(io::Error::other)?;
    let (tx, rx) = mpsc::channel::<(usize, Played)>();
    let mut t = Tally::default();
    let mut failed = None;
    // This shard's games (all of them unsharded), in the run's order: the game file keeps that order whatever order
    // the games end in, so the shards' files joined in shard order are the unsharded run's file.
    let games: Vec<usize> = (0..m.games).filter(|&g| m.shard.is_none_or(|s| s.plays(m.games, g))).collect();
    // Games ended but not yet in the file, and how many of `games` are.
    let mut waiting: BTreeMap<usize, GameRecord> = BTreeMap::new();
    let mut recorded = 0;
    std::thread::scope(|scope| {
        let (openings, games) = (&openings, &games);
        scope.spawn(move || {
            // Games are taken in order, one per free worker, so they also end roughly in order.
            let next = AtomicUsize::new(0);
            pool.broadcast(|_| {
                while let Some(&game) = games.get(next.fetch_add(1, Ordering::Relaxed)) {
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
            match (played.end, a_black) {
                (End::Draw(_), _) => t.draws += 1,
                (End::BlackWins(_), true) | (End::WhiteWins(_), false) => t.wins += 1,
                _ => t.losses += 1,
            }
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
    writeln!(out, "Score of A vs B: {} - {} - {}", t.wins, t.losses, t.draws)
}

/// A random move among the four that `side`'s ordering values like best, unless it must answer a threat.
fn random_good_move(pb: &mut PatternBoard, side: Color, weights: &WeightsRef, rng: &mut StdRng) -> Option<Pos> {
    let Candidates::Moves { mut moves, forced: false } = candidates(pb, side) else { return None };
    moves.sort_by_key(|&m| (std::cmp::Reverse(order_value(pb, side, m, weights)), m.index()));
    moves.truncate(4);
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}

/// The two engines and the referee of a game, and its record so far.
struct Table {
    referee: PatternBoard,
    engines: Vec<Engine>,
    record: GameRecord,
}

impl Table {
    /// Plays `p` for `side` on the referee's board and both engines', and records it with the mover's score.
    fn put(&mut self, p: Pos, side: Color, score: i16) {
        self.referee.make(p, side);
        for e in &mut self.engines {
            // The engines follow the referee's board, which has just taken the move.
            let followed = e.play(p, side);
            debug_assert!(followed.is_ok(), "an engine refused a move the referee took");
        }
        self.record.moves.push(p);
        if let Some(s) = self.record.scores.as_mut() {
            s.push(score);
        }
    }

    fn finish(
        self,
        end: End,
        moves: usize,
        slowest: Duration,
        thought: Duration,
        searched: (usize, Duration),
    ) -> Played {
        let outcome = match end {
            End::BlackWins(_) => Outcome::BlackWins,
            End::WhiteWins(_) => Outcome::WhiteWins,
            End::Draw(_) => Outcome::Draw,
        };
        Played { end, moves, slowest, thought, searched, record: GameRecord { outcome, ..self.record } }
    }
}

/// Plays one game from `opening`; `players` are Black's and White's configurations.
fn play_game(m: &Match, opening: &[Pos], players: [Player; 2], seed: u64) -> Played {
    let record = GameRecord {
        rule: m.rule,
        size: 15,
        outcome: Outcome::Draw,
        opening: opening.len(),
        moves: Vec::new(),
        scores: Some(Vec::new()),
        players: None,
        best: None,
        forbidden_end: None,
    };
    let no_game = |why| Played {
        end: End::Draw(why),
        moves: 0,
        slowest: Duration::ZERO,
        thought: Duration::ZERO,
        searched: (0, Duration::ZERO),
        record: record.clone(),
    };
    let Ok(referee) = PatternBoard::new(15, m.rule) else { return no_game("no board") };
    let mut engines: Vec<Engine> = Vec::new();
    for p in players {
        let Ok(mut e) = Engine::new(15, m.rule) else { return no_game("no engine") };
        e.configure(|s| {
            s.max_depth = p.depth;
            s.max_nodes = p.nodes;
            s.search.threats = p.threats;
            s.search.draw_at = m.draw_at;
            s.search.weights = p.weights;
            s.search.eval = p.eval;
            s.search.params = p.params;
        });
        // Several games share the machine: a smaller table unless a memory limit says otherwise.
        if m.max_memory == 0 {
            e.set_hash_bytes(16 << 20);
        } else {
            // Each engine is sized as a protocol session under that limit would be (a limit below its least runs
            // with the least, as there).
            let _ = e.set_memory_limit(m.max_memory);
        }
        engines.push(e);
    }
    let mut table = Table { referee, engines, record: record.clone() };
    let mut side = Color::Black;
    for &p in opening {
        if table.referee.outcome(p, side) != MoveOutcome::Normal {
            return no_game("bad opening");
        }
        table.put(p, side, NO_SCORE);
        side = side.opponent();
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut left = [m.match_ms as i64; 2];
    let mut slowest = Duration::ZERO;
    let (mut thought, mut searched) = (Duration::ZERO, (0, Duration::ZERO));
    let mut moves = 0;
    let end = loop {
        let stones = table.referee.board().stone_count();
        if table.referee.board().is_full() || m.draw_at.is_some_and(|n| stones >= n) {
            break End::Draw("board full or stone limit");
        }
        let i = side.index();
        let random = (moves < m.random_plies && rng.random_bool(0.5))
            .then(|| random_good_move(&mut table.referee, side, &players[i].weights, &mut rng))
            .flatten();
        let (p, score) = if let Some(p) = random {
            (p, NO_SCORE)
        } else {
            let engine = &mut table.engines[i];
            let turn_ms = if players[i].nodes > 0 { m.turn_ms.max(NODE_LIMITED_TURN_MS) } else { m.turn_ms };
            let clock = Clock { turn_ms, match_ms: m.match_ms, left_ms: (m.match_ms > 0).then_some(left[i]) };
            engine.configure(|s| s.clock = clock);
            let start = Instant::now();
            let report = engine.think(None, |_| {});
            let took = start.elapsed();
            slowest = slowest.max(took);
            thought += took;
            if report.source == "search" {
                searched.0 += 1;
                searched.1 += took;
            }
            left[i] -= took.as_millis() as i64;
            if m.match_ms > 0 && left[i] < 0 {
                break lose(side, "out of time");
            }
            let Some(p) = report.best else { break End::Draw("no move") };
            (p, report.score.clamp(-MATE, MATE) as i16)
        };
        moves += 1;
        match table.referee.outcome(p, side) {
            MoveOutcome::Illegal => break lose(side, "illegal move"),
            MoveOutcome::Forbidden(_) => {
                table.put(p, side, score);
                break lose(side, "forbidden move");
            }
            MoveOutcome::Win => {
                table.put(p, side, score);
                break lose(side.opponent(), "five");
            }
            MoveOutcome::Normal => table.put(p, side, score),
        }
        side = side.opponent();
    };
    table.finish(end, moves, slowest, thought, searched)
}

/// The winner of one game of `m` from `opening` between `players` (Black's and White's configurations), its random
/// moves drawn from `seed`; none for a draw.
pub(crate) fn winner(m: &Match, opening: &[Pos], players: [Player; 2], seed: u64) -> Option<Color> {
    match play_game(m, opening, players, seed).end {
        End::BlackWins(_) => Some(Color::Black),
        End::WhiteWins(_) => Some(Color::White),
        End::Draw(_) => None,
    }
}

/// The game lost by `side`.
fn lose(side: Color, reason: &'static str) -> End {
    if side == Color::Black { End::WhiteWins(reason) } else { End::BlackWins(reason) }
}

/// The process's peak resident size, from /proc (Linux), or "unknown".
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l["VmHWM:".len()..].trim().to_string()))
        .unwrap_or_else(|| "unknown".to_string())
}
