//! One game between two engine processes, played as GomocupJudge plays it and judged by our own rules.
//!
//! Each engine gets a fresh process: `START size`, `INFO timeout_turn`, `timeout_match`, `max_memory`,
//! `game_type 1` and `rule`, then it is suspended. On its first turn it is resumed and gets `INFO time_left` and the
//! position so far as `BOARD … DONE` (stones in move order; `BEGIN` on an empty board), later `INFO time_left` and
//! `TURN x,y`. It has `min(timeout_turn, time left) + tolerance` to answer; lines that are not `x,y` are skipped as
//! the judge skips them. Then it is suspended again and its memory (unique set size of its process group) is
//! checked. At the end both get `END` and are killed half a second later if they have not exited.
//!
//! [`play_kept`] plays a game on processes the runner keeps from game to game, as Piskvork and c-gomoku-cli keep
//! them: an engine that played before gets `START` and the settings again (its memory of earlier games is its own
//! affair), and after the game it is suspended rather than ended, unless it lost by time, a crash or its memory.

use super::negotiation::negotiate;
pub use super::process::EngineProcess;
use super::process::Read;
use super::terms::{Forfeit, GameSetup, parse_move};
use crate::opening_rule::Player;
use crate::pattern::{MoveOutcome, PatternBoard, find_five};
use crate::types::{Color, Pos};
use std::time::{Duration, Instant};

/// The value `INFO time_left` carries when there is no match clock (as Piskvork sends it).
pub const NO_LIMIT: i64 = 2_147_483_647;

/// How long an engine may take to exit after `END` before it is killed (GomocupJudge's 0.5 s).
const END_GRACE: Duration = Duration::from_millis(500);

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` made five (the stones of the five).
    Five(Color, Vec<Pos>),
    /// `loser` forfeited.
    Forfeit(Color, Forfeit),
    /// A draw: the board is full or the stone limit was reached (the number of stones).
    Draw(usize),
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Five(c, _) => Some(*c),
            Outcome::Forfeit(c, _) => Some(c.opponent()),
            Outcome::Draw(_) => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn score(&self) -> &'static str {
        match self.winner() {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The opening stones.
    pub opening: Vec<Pos>,
    /// The engines' moves with their colour and the time each took (ms).
    pub moves: Vec<(Pos, Color, u64)>,
    /// Per move of `moves`, the score its engine said it searched (a `MESSAGE score N` line before the move, as
    /// Tengen writes with `--say-score`), if it said one.
    pub scores: Vec<Option<i32>>,
    /// How it ended.
    pub outcome: Outcome,
    /// Time used by Black and White (ms).
    pub used_ms: [u64; 2],
    /// The slowest answer of each side (ms).
    pub slowest_ms: [u64; 2],
    /// The most memory seen for each side (bytes).
    pub peak_memory: [u64; 2],
    /// Whether each engine exited by itself after END (a process kept for the next game: true).
    pub clean_exit: [bool; 2],
    /// The `MESSAGE`/`DEBUG` and other non-move lines the engines wrote, with their colour (at most a few hundred).
    pub log: Vec<(Color, String)>,
    /// Under an opening rule: the second command (the second player) played Black.
    pub swapped: bool,
    /// Under an opening rule: each accepted step, with its player.
    pub negotiation: Vec<(Player, String)>,
}

/// What the engine answered to a move request.
enum Answer {
    /// A point, and the last score the engine said on the way.
    Move(i64, i64, Option<i32>),
    Timeout,
    Closed,
}

/// Plays one game on fresh processes.
#[must_use]
pub fn play(setup: &GameSetup) -> GameRecord {
    play_on(setup, &mut [None, None], false)
}

/// Plays one game on the processes of `seats` (Black's and White's engines of `setup.commands`, in that order),
/// starting one where a seat is empty or its process has exited. Afterwards `seats` holds, in the same order, the
/// processes that may play again (suspended); one that lost by time, a crash or its memory, or that has exited, is
/// ended and its seat emptied.
#[must_use]
pub fn play_kept(setup: &GameSetup, seats: &mut [Option<EngineProcess>; 2]) -> GameRecord {
    play_on(setup, seats, true)
}

/// Ends the kept processes of a runner's worker (`END`, then kill) once its games are played.
pub fn end_kept(processes: impl IntoIterator<Item = EngineProcess>) {
    let handles: Vec<_> = processes.into_iter().map(|e| std::thread::spawn(move || e.end(END_GRACE))).collect();
    for h in handles {
        let _ = h.join();
    }
}

/// Whether a side's process may play another game after one that ended so.
fn reusable(outcome: &Outcome, color: Color) -> bool {
    !matches!(outcome, Outcome::Forfeit(c, Forfeit::Time(_) | Forfeit::Crash | Forfeit::Memory(_) | Forfeit::Start(_))
        if *c == color)
}

fn play_on(setup: &GameSetup, seats: &mut [Option<EngineProcess>; 2], keep: bool) -> GameRecord {
    let mut record = GameRecord {
        opening: setup.opening.clone(),
        moves: Vec::new(),
        scores: Vec::new(),
        outcome: Outcome::Draw(0),
        used_ms: [0; 2],
        slowest_ms: [0; 2],
        peak_memory: [0; 2],
        clean_exit: [false; 2],
        log: Vec::new(),
        swapped: false,
        negotiation: Vec::new(),
    };
    let mut referee = match PatternBoard::new(setup.size, setup.rule) {
        Ok(pb) => pb,
        Err(e) => {
            record.outcome = Outcome::Forfeit(Color::Black, Forfeit::Start(e.to_string()));
            return record;
        }
    };
    let mut engines: [Option<EngineProcess>; 2] = [seats[0].take(), seats[1].take()];
    for color in [Color::Black, Color::White] {
        let kept = engines[color.index()].take();
        match start(setup, &setup.commands[color.index()], kept) {
            Ok(e) => engines[color.index()] = Some(e),
            Err(e) => {
                record.outcome = Outcome::Forfeit(color, Forfeit::Start(e.to_string()));
                return leave(setup, engines, seats, keep, record);
            }
        }
    }
    if let Some(rule) = setup.opening_rule {
        // The first moves are negotiated; the engines then play by colour.
        let negotiated = negotiate(setup, rule, &mut engines, &mut record.negotiation);
        match &negotiated {
            Ok(neg) => {
                record.opening = neg.stones().to_vec();
                record.swapped = neg.black() == Player::Second;
            }
            Err((player, color, forfeit)) => {
                record.swapped = (*player == Player::Second) == (*color == Color::Black);
                record.outcome = Outcome::Forfeit(*color, forfeit.clone());
            }
        }
        if record.swapped {
            engines.swap(0, 1);
        }
        if negotiated.is_err() {
            return leave(setup, engines, seats, keep, record);
        }
    }
    let mut side = Color::Black;
    for &p in &record.opening {
        referee.make(p, side);
        side = side.opponent();
    }
    let mut informed = [false; 2];
    record.outcome = loop {
        let stones = referee.board().stone_count();
        if stones >= setup.draw_at || referee.board().is_full() {
            break Outcome::Draw(stones);
        }
        let i = side.index();
        let Some(engine) = engines[i].as_mut() else { break Outcome::Forfeit(side, Forfeit::Crash) };
        engine.resume();
        let left = if setup.match_ms > 0 { setup.match_ms as i64 - record.used_ms[i] as i64 } else { NO_LIMIT };
        let mut request = vec![format!("INFO time_left {left}")];
        if informed[i] {
            if let Some(&(p, _, _)) = record.moves.last() {
                request.push(format!("TURN {},{}", p.x, p.y));
            }
        } else if referee.board().stone_count() == 0 {
            request.push("BEGIN".to_string());
        } else {
            request.push("BOARD".to_string());
            for &(p, c) in referee.board().moves() {
                request.push(format!("{},{},{}", p.x, p.y, if c == side { 1 } else { 2 }));
            }
            request.push("DONE".to_string());
        }
        informed[i] = true;
        let budget = if setup.match_ms > 0 { setup.turn_ms.min(left.max(0) as u64) } else { setup.turn_ms };
        let started = Instant::now();
        let deadline = started + Duration::from_millis(budget + setup.tolerance_ms);
        let sent = request.iter().try_for_each(|line| engine.send(line));
        let answer = if sent.is_err() { Answer::Closed } else { read_move(engine, deadline, side, &mut record.log) };
        let took = started.elapsed().as_millis() as u64;
        record.used_ms[i] += took;
        record.slowest_ms[i] = record.slowest_ms[i].max(took);
        let (x, y, said) = match answer {
            Answer::Timeout => break Outcome::Forfeit(side, Forfeit::Time(took)),
            Answer::Closed => break Outcome::Forfeit(side, Forfeit::Crash),
            Answer::Move(x, y, said) => (x, y, said),
        };
        if setup.suspend {
            engine.suspend();
        }
        if took > budget + setup.tolerance_ms {
            break Outcome::Forfeit(side, Forfeit::Time(took));
        }
        if let Some(bytes) = engine.memory() {
            record.peak_memory[i] = record.peak_memory[i].max(bytes);
            if setup.max_memory > 0 && bytes > setup.max_memory {
                break Outcome::Forfeit(side, Forfeit::Memory(bytes));
            }
        }
        let size = setup.size as i64;
        if !(0..size).contains(&x) || !(0..size).contains(&y) {
            break Outcome::Forfeit(side, Forfeit::OffBoard(x, y));
        }
        let p = Pos::new(x as usize, y as usize);
        match referee.outcome(p, side) {
            MoveOutcome::Illegal => break Outcome::Forfeit(side, Forfeit::Occupied(p)),
            MoveOutcome::Forbidden(kind) => break Outcome::Forfeit(side, Forfeit::Forbidden(p, kind.to_string())),
            MoveOutcome::Win => {
                referee.make(p, side);
                record.moves.push((p, side, took));
                record.scores.push(said);
                let five = find_five(referee.board(), setup.rule, side).unwrap_or_else(|| vec![p]);
                break Outcome::Five(side, five);
            }
            MoveOutcome::Normal => {
                referee.make(p, side);
                record.moves.push((p, side, took));
                record.scores.push(said);
            }
        }
        side = side.opponent();
    };
    leave(setup, engines, seats, keep, record)
}

/// The game is over: the engines are ended, or with `keep` the reusable ones go back to `seats` (in the order of
/// `setup.commands`, undoing a negotiated swap) and the others are ended.
fn leave(
    setup: &GameSetup,
    mut engines: [Option<EngineProcess>; 2],
    seats: &mut [Option<EngineProcess>; 2],
    keep: bool,
    mut record: GameRecord,
) -> GameRecord {
    if keep {
        for color in [Color::Black, Color::White] {
            let slot = &mut engines[color.index()];
            if let Some(e) = slot.as_mut()
                && reusable(&record.outcome, color)
                && !e.exited()
            {
                if setup.suspend {
                    e.suspend();
                }
                record.clean_exit[color.index()] = true;
                // Kept: `finish` below has nothing of it to end.
                let kept = slot.take();
                let seat = if record.swapped { color.opponent() } else { color };
                seats[seat.index()] = kept;
            }
        }
    }
    finish(engines, &mut record.clean_exit);
    record
}

/// Starts an engine (or takes `kept`, a process that played before and still runs) and sends it the game's
/// settings, then suspends it.
fn start(setup: &GameSetup, command: &str, kept: Option<EngineProcess>) -> std::io::Result<EngineProcess> {
    let mut e = match kept.and_then(|mut e| (!e.exited()).then_some(e)) {
        Some(mut e) => {
            e.resume();
            // Whatever it said after its last move belongs to the last game.
            while let Read::Line(_) = e.read_until(Instant::now()) {}
            e
        }
        None => EngineProcess::spawn(command)?,
    };
    let lines = [
        format!("START {}", setup.size),
        format!("INFO timeout_turn {}", setup.turn_ms),
        format!("INFO timeout_match {}", setup.match_ms),
        format!("INFO max_memory {}", setup.max_memory),
        "INFO game_type 1".to_string(),
        format!("INFO rule {}", setup.rule.info()),
    ];
    // An engine that has already died is found out when it is asked for a move.
    for line in &lines {
        if e.send(line).is_err() {
            break;
        }
    }
    if setup.suspend {
        e.suspend();
    }
    Ok(e)
}

/// Reads lines until one parses as `x,y`; other lines go to the log, and the last `MESSAGE score N` among them
/// is the move's score.
fn read_move(engine: &mut EngineProcess, deadline: Instant, side: Color, log: &mut Vec<(Color, String)>) -> Answer {
    let mut said = None;
    loop {
        match engine.read_until(deadline) {
            Read::Timeout => return Answer::Timeout,
            Read::Closed => return Answer::Closed,
            Read::Line(line) => {
                if let Some((x, y)) = parse_move(&line) {
                    return Answer::Move(x, y, said);
                }
                said = said_score(&line).or(said);
                if log.len() < 500 && !line.trim().is_empty() {
                    log.push((side, line));
                }
            }
        }
    }
}

/// The score of a `MESSAGE score N …` line (the first two words in any case, `N` an integer).
#[must_use]
pub fn said_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    let (Some(m), Some(s), Some(n)) = (words.next(), words.next(), words.next()) else { return None };
    (m.eq_ignore_ascii_case("MESSAGE") && s.eq_ignore_ascii_case("score")).then(|| n.parse().ok()).flatten()
}

/// Ends both engines (END, a grace period, then kill) at once, noting in `clean_exit` whether each exited by itself.
fn finish(engines: [Option<EngineProcess>; 2], clean_exit: &mut [bool; 2]) {
    let handles: Vec<_> = engines
        .into_iter()
        .enumerate()
        .filter_map(|(i, e)| e.map(|e| (i, std::thread::spawn(move || e.end(END_GRACE)))))
        .collect();
    for (i, h) in handles {
        clean_exit[i] = h.join().unwrap_or(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn outcomes_name_their_winner() {
        assert_eq!(Outcome::Five(Color::White, vec![]).winner(), Some(Color::White));
        assert_eq!(Outcome::Forfeit(Color::White, Forfeit::Crash).winner(), Some(Color::Black));
        assert_eq!(Outcome::Draw(200).score(), "1/2-1/2");
        assert_eq!(Rule::Renju.info(), 4);
    }

    #[test]
    fn a_said_score_is_read_from_its_message_line_only() {
        assert_eq!(said_score("MESSAGE score -35 depth 12"), Some(-35));
        assert_eq!(said_score("message SCORE 20010"), Some(20010));
        assert_eq!(said_score("MESSAGE dep 1-1 ev 0 nd 1"), None);
        assert_eq!(said_score("MESSAGE score x"), None);
        assert_eq!(said_score("DEBUG score 5"), None);
        assert_eq!(said_score("MESSAGE nbest 1: 7,7 score 5"), None);
    }
}
