//! One self-play game: two engines and a referee board, the opening played out, then the engines' answers (or a
//! random good move in the first plies) judged move by move until a five, a forbidden move, a loss on time, a full
//! board or the stone limit.

use super::{BOARD_SIZE, Match, NODE_LIMITED_TURN_MS, Player};
use crate::engine::Engine;
use crate::eval::{WeightsRef, order_value};
use crate::movegen::{Candidates, candidates};
use crate::pattern::{MoveOutcome, PatternBoard};
use crate::records::{GameRecord, NO_SCORE, Outcome};
use crate::search::MATE;
use crate::search::time::Clock;
use crate::types::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::time::{Duration, Instant};

/// How a game ended, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    BlackWins(&'static str),
    WhiteWins(&'static str),
    Draw(&'static str),
}

/// One game played.
pub(super) struct Played {
    pub(super) end: End,
    /// Moves after the opening.
    pub(super) moves: usize,
    pub(super) slowest: Duration,
    /// Time the engines thought, over all their answers and over the answers that came from a search.
    pub(super) thought: Duration,
    pub(super) searched: (usize, Duration),
    pub(super) record: GameRecord,
}

/// A random move among the four that `side`'s ordering values like best, unless it must answer a threat.
fn random_good_move(pb: &mut PatternBoard, side: Color, weights: &WeightsRef, rng: &mut StdRng) -> Option<Pos> {
    let Candidates::Moves { mut moves, forced: false } = candidates(pb, side) else { return None };
    moves.sort_by_key(|&m| (std::cmp::Reverse(order_value(pb, side, m, weights)), m.index()));
    moves.truncate(4);
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}

/// Adds up to `plies` moves to `opening` (on self-play's board under `rule`), each a random good move of the side to
/// move ([`random_good_move`] with the default ordering tables); stops early where a side must answer a threat or the
/// opening cannot be set up.
pub(super) fn extend_opening(opening: &mut Vec<Pos>, rule: Rule, plies: usize, rng: &mut StdRng) {
    let Ok(mut pb) = PatternBoard::new(BOARD_SIZE, rule) else { return };
    let mut side = Color::Black;
    for &p in opening.iter() {
        if !pb.board().is_empty(p) {
            return;
        }
        pb.make(p, side);
        side = side.opponent();
    }
    for _ in 0..plies {
        let Some(p) = random_good_move(&mut pb, side, &WeightsRef::default(), rng) else { return };
        pb.make(p, side);
        opening.push(p);
        side = side.opponent();
    }
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
pub(super) fn play_game(m: &Match, opening: &[Pos], players: [Player; 2], seed: u64) -> Played {
    let record = GameRecord {
        rule: m.rule,
        size: BOARD_SIZE,
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
    let Ok(referee) = PatternBoard::new(BOARD_SIZE, m.rule) else { return no_game("no board") };
    let mut engines: Vec<Engine> = Vec::new();
    for p in players {
        let Ok(mut e) = Engine::new(BOARD_SIZE, m.rule) else { return no_game("no engine") };
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

/// The game lost by `side`.
fn lose(side: Color, reason: &'static str) -> End {
    if side == Color::Black { End::WhiteWins(reason) } else { End::BlackWins(reason) }
}
