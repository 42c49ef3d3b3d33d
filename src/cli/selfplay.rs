//! `selfplay`: two configurations of this engine play each other in one process, each with its own engine and
//! clock, from the 26 renju openings (each opening twice, colours swapped). A referee board judges every move by
//! the rules. It prints one line per game, the score, an Elo estimate with its 95% margin, the slowest answer and
//! the peak resident memory. The match runner of the protocol will replace it for engine-vs-engine matches.

use crate::engine::{Engine, RENJU_OPENINGS};
use crate::matches::elo_estimate;
use crate::pattern::{MoveOutcome, PatternBoard};
use crate::search::time::Clock;
use crate::types::{Color, Pos, Rule};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// One side's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Deepest iteration (0: no limit).
    pub depth: i32,
    /// Whether the threat solvers are used.
    pub threats: bool,
}

/// A self-play match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
}

/// How a game ended, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    BlackWins(&'static str),
    WhiteWins(&'static str),
    Draw(&'static str),
}

/// Plays the match and writes the report.
///
/// # Errors
/// Output I/O errors only.
pub fn selfplay(m: &Match, out: &mut dyn Write) -> io::Result<()> {
    let (mut wins, mut losses, mut draws) = (0usize, 0usize, 0usize);
    let mut slowest = Duration::ZERO;
    let mut moves_played = 0usize;
    for game in 0..m.games {
        let a_black = game % 2 == 0;
        let opening = RENJU_OPENINGS[(game / 2) % RENJU_OPENINGS.len()];
        let (black, white) = if a_black { (m.a, m.b) } else { (m.b, m.a) };
        let (end, moves, slow) = play_game(m, opening, [black, white]);
        slowest = slowest.max(slow);
        moves_played += moves;
        let a_result = match (end, a_black) {
            (End::Draw(_), _) => 0,
            (End::BlackWins(_), true) | (End::WhiteWins(_), false) => 1,
            _ => -1,
        };
        match a_result {
            1 => wins += 1,
            -1 => losses += 1,
            _ => draws += 1,
        }
        let how = match end {
            End::BlackWins(r) => format!("1-0 ({r})"),
            End::WhiteWins(r) => format!("0-1 ({r})"),
            End::Draw(r) => format!("1/2 ({r})"),
        };
        writeln!(
            out,
            "game {:>3}: {} black, opening {opening}: {how}, {moves} moves, slowest {} ms",
            game + 1,
            if a_black { "A" } else { "B" },
            slow.as_millis()
        )?;
        out.flush()?;
    }
    let (elo, margin) = elo_estimate(wins, losses, draws);
    writeln!(out, "moves {moves_played}, slowest answer {} ms, peak resident {}", slowest.as_millis(), peak_memory())?;
    writeln!(out, "Elo of A vs B: {elo:+.0} +/- {margin:.0} (95%)")?;
    writeln!(out, "Score of A vs B: {wins} - {losses} - {draws}")
}

/// Plays one game; returns how it ended, the number of moves after the opening, and the slowest answer.
fn play_game(m: &Match, opening: &str, players: [Player; 2]) -> (End, usize, Duration) {
    let mut referee = match PatternBoard::new(15, m.rule) {
        Ok(pb) => pb,
        Err(_) => return (End::Draw("no board"), 0, Duration::ZERO),
    };
    let mut engines: Vec<Engine> = Vec::new();
    for p in players {
        let Ok(mut e) = Engine::new(15, m.rule) else { return (End::Draw("no engine"), 0, Duration::ZERO) };
        e.settings.max_depth = p.depth;
        e.settings.search.threats = p.threats;
        e.settings.search.draw_at = m.draw_at;
        e.set_memory_limit(m.max_memory);
        engines.push(e);
    }
    let mut side = Color::Black;
    for word in opening.split_whitespace() {
        let Ok(p) = Pos::parse(word, 15) else { return (End::Draw("bad opening"), 0, Duration::ZERO) };
        referee.make(p, side);
        for e in &mut engines {
            let _ = e.play(p, side);
        }
        side = side.opponent();
    }
    let mut left = [m.match_ms as i64; 2];
    let mut slowest = Duration::ZERO;
    let mut moves = 0;
    loop {
        if referee.board().is_full() || m.draw_at.is_some_and(|n| referee.board().stone_count() >= n) {
            return (End::Draw("board full or stone limit"), moves, slowest);
        }
        let i = side.index();
        let engine = &mut engines[i];
        engine.settings.clock =
            Clock { turn_ms: m.turn_ms, match_ms: m.match_ms, left_ms: (m.match_ms > 0).then_some(left[i]) };
        let start = Instant::now();
        let report = engine.think(None, |_| {});
        let took = start.elapsed();
        slowest = slowest.max(took);
        left[i] -= took.as_millis() as i64;
        moves += 1;
        let lose = |reason| if side == Color::Black { End::WhiteWins(reason) } else { End::BlackWins(reason) };
        let win = |reason| if side == Color::Black { End::BlackWins(reason) } else { End::WhiteWins(reason) };
        if m.match_ms > 0 && left[i] < 0 {
            return (lose("out of time"), moves, slowest);
        }
        let Some(p) = report.best else { return (End::Draw("no move"), moves, slowest) };
        match referee.outcome(p, side) {
            MoveOutcome::Illegal => return (lose("illegal move"), moves, slowest),
            MoveOutcome::Forbidden(_) => return (lose("forbidden move"), moves, slowest),
            MoveOutcome::Win => return (win("five"), moves, slowest),
            MoveOutcome::Normal => {}
        }
        referee.make(p, side);
        for e in &mut engines {
            let _ = e.play(p, side);
        }
        side = side.opponent();
    }
}

/// The process's peak resident size, from /proc (Linux), or "unknown".
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l["VmHWM:".len()..].trim().to_string()))
        .unwrap_or_else(|| "unknown".to_string())
}
