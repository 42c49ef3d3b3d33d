//! A seeded protocol fuzzer. Each session sends what managers and careless scripts send: START (sizes from 0 to
//! 2^64+1), INFO rule, legal and illegal TURNs, BEGIN, BOARD and YXBOARD blocks (some with bad lines, some cut by
//! the next command), TAKEBACK of the last move or of anything, RESTART, commands sent while the engine thinks
//! (YXSTOP, RESTART, TURN, END), and lines mangled byte by byte (invalid UTF-8 read as the reader reads it, huge
//! numbers, megabyte lines) or made of random bytes. A model of the game, kept with the engine's own rules code
//! from the commands the session accepts, checks every answer: each command gets the answer its kind calls for (a
//! move, `OK`, one `ERROR`/`UNKNOWN` line, or nothing) within a bound far above its time, nothing panics, and every
//! move Tengen plays is on an empty point of the model's board and, for Black under renju, never a forbidden point.
//!
//! `FUZZ_SESSIONS=N` (default 16) and `FUZZ_SEED=S` choose the run (docs/development.md, "Fuzzing"); a failure
//! names its session's seed and shows the session's last lines.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::time::{Duration, Instant};
use tengen::engine::Engine;
use tengen::protocol::Session;
use tengen::protocol::command::{Assembler, Command, ParseError, read_stones};
use tengen::types::{Color, MAX_SIZE, MIN_SIZE, Pos, Rule};

/// Far above any answer's time (the engine thinks for at most 30 ms here): only a hang passes it.
const ANSWER_BOUND: Duration = Duration::from_secs(20);
/// Commands a session sends.
const STEPS: usize = 70;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The game as the session should hold it, from the commands it accepted.
struct Model {
    /// `None` when a command the model does not follow was accepted (until the next START or RESTART).
    engine: Option<Engine>,
    /// The session's size and rule for its next game.
    size: Option<usize>,
    rule: Rule,
    ended: bool,
}

impl Model {
    fn new_game(&mut self) {
        self.engine = self.size.and_then(|size| Engine::new(size, self.rule).ok());
    }

    fn over(engine: &Engine) -> bool {
        engine.winner().is_some() || engine.board().board().is_full()
    }
}

/// Whether `reply` is a move `x,y`, and which.
fn move_reply(reply: &str) -> Option<Pos> {
    let (x, y) = reply.split_once(',')?;
    let (x, y): (usize, usize) = (x.parse().ok()?, y.parse().ok()?);
    (x < 256 && y < 256).then(|| Pos::new(x, y))
}

fn is_refusal(reply: &str) -> bool {
    reply.starts_with("ERROR ") || reply.starts_with("UNKNOWN ")
}

/// What the moves checked against the model were.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// Moves checked on the model's board.
    checked: usize,
    /// Of those, Black's moves under renju with forbidden points on the board.
    beside_forbidden: usize,
}

/// Checks the engine's move `reply` on the model's game, and plays it there.
fn engine_move(engine: &mut Engine, reply: &str, tally: &mut Tally) -> Result<(), String> {
    let over = Model::over(engine);
    let Some(p) = move_reply(reply) else {
        return if over && is_refusal(reply) { Ok(()) } else { Err(format!("a move was due, not {reply:?}")) };
    };
    let size = engine.board().size();
    if !p.on_board(size) || !engine.board().board().is_empty(p) {
        return Err(format!("{reply} is off the board or taken"));
    }
    let side = engine.side_to_move();
    let mut pb = engine.board().clone();
    if side == Color::Black && !over && pb.rule().has_forbidden() {
        if !pb.is_five(side, p)
            && let Some(kind) = pb.forbidden_kind(p)
        {
            return Err(format!("{reply} is forbidden for Black ({kind})"));
        }
        tally.beside_forbidden += usize::from(!pb.forbidden_points().is_empty());
    }
    tally.checked += 1;
    let _ = engine.play(p, side);
    Ok(())
}

/// Checks the replies (MESSAGE and DEBUG lines left out) to one assembled command, and brings the model up to date.
fn check(
    model: &mut Model,
    parsed: Option<Result<Command, ParseError>>,
    replies: &[String],
    tally: &mut Tally,
) -> Result<(), String> {
    let one = |what: &str| -> Result<&str, String> {
        match replies {
            [reply] => Ok(reply),
            _ => Err(format!("one line was due ({what}), not {replies:?}")),
        }
    };
    let nothing_or_refusal = || match replies {
        [] => Ok(()),
        [r] if is_refusal(r) => Ok(()),
        _ => Err(format!("nothing or a refusal was due, not {replies:?}")),
    };
    let Some(parsed) = parsed else {
        return if replies.is_empty() { Ok(()) } else { Err(format!("nothing was due in a block, not {replies:?}")) };
    };
    let command = match parsed {
        Err(_) => {
            return if is_refusal(one("a refusal")?) { Ok(()) } else { Err(format!("a refusal was due: {replies:?}")) };
        }
        Ok(command) => command,
    };
    match command {
        Command::Start(size) | Command::RectStart(size, _) => {
            let valid = (MIN_SIZE..=MAX_SIZE).contains(&size) && !matches!(command, Command::RectStart(w, h) if w != h);
            let reply = one("START")?;
            match (valid, reply) {
                (true, "OK") => {
                    model.size = Some(size);
                    model.new_game();
                }
                (false, r) if is_refusal(r) => {}
                _ => return Err(format!("START {size}: {reply:?}")),
            }
        }
        Command::Restart => match (model.size.is_some(), one("RESTART")?) {
            (true, "OK") => model.new_game(),
            (false, r) if is_refusal(r) => {}
            (_, r) => return Err(format!("RESTART: {r:?}")),
        },
        Command::Begin | Command::Turn(_) | Command::Board { think: true, .. } => {
            let reply = one("a move")?;
            let Some(engine) = model.engine.as_mut() else {
                // A game the model does not follow: the move must still be a point of the board or a refusal.
                let size = model.size.unwrap_or(MAX_SIZE);
                return match move_reply(reply) {
                    Some(p) if p.on_board(size) => Ok(()),
                    None if is_refusal(reply) => Ok(()),
                    _ => Err(format!("{reply:?} is no answer")),
                };
            };
            let accepted = match &command {
                Command::Begin => engine.board().board().stone_count() == 0,
                Command::Turn(p) => {
                    let side = engine.side_to_move();
                    p.on_board(engine.board().size()) && engine.play(*p, side).is_ok()
                }
                Command::Board { stones, .. } => read_stones(stones).is_ok_and(|s| engine.set_up(&s).is_ok()),
                _ => unreachable!(),
            };
            if accepted {
                engine_move(engine, reply, tally)?;
            } else if !is_refusal(reply) {
                return Err(format!("{command:?} should be refused, not answered {reply:?}"));
            }
        }
        Command::Board { stones, think: false } => {
            nothing_or_refusal()?;
            if let Some(engine) = model.engine.as_mut() {
                let accepted = read_stones(&stones).is_ok_and(|s| engine.set_up(&s).is_ok());
                if accepted != replies.is_empty() {
                    return Err(format!("YXBOARD accepted {accepted}, answered {replies:?}"));
                }
            }
        }
        Command::Takeback(p) => {
            let reply = one("TAKEBACK")?;
            if let Some(engine) = model.engine.as_mut() {
                let last = engine.board().board().moves().last().map(|&(q, _)| q);
                match (last == Some(p), reply) {
                    (true, "OK") => drop(engine.undo()),
                    (false, r) if is_refusal(r) => {}
                    _ => return Err(format!("TAKEBACK {},{} after {last:?}: {reply:?}", p.x, p.y)),
                }
            }
        }
        Command::Info(key, value) => {
            if !replies.is_empty() {
                return Err(format!("INFO {key} {value}: {replies:?}"));
            }
            if let ("rule", Ok(n)) = (key.as_str(), value.trim().parse::<i64>())
                && (0..16).contains(&n)
            {
                model.rule = if n == 2 { Rule::Renju } else { Rule::from_info(n as u32) };
                if let Some(engine) = model.engine.as_mut() {
                    engine.switch_rule(model.rule);
                }
            }
        }
        Command::End => {
            model.ended = true;
            if !replies.is_empty() {
                return Err(format!("END: {replies:?}"));
            }
        }
        Command::Stop | Command::HashClear | Command::BlockReset | Command::Block { .. } => nothing_or_refusal()?,
        // Commands the model does not follow: their answers are theirs; the game is unknown until the next one.
        _ => model.engine = None,
    }
    Ok(())
}

/// A point for the opponent: mostly an empty point near the stones that is legal for the side to move.
fn opponent_point(model: &Model, rng: &mut StdRng) -> (usize, usize) {
    let Some(engine) = &model.engine else { return (rng.random_range(0..24), rng.random_range(0..24)) };
    let size = engine.board().size();
    if rng.random_bool(0.15) {
        return (rng.random_range(0..size + 3), rng.random_range(0..size + 3));
    }
    let mut pb = engine.board().clone();
    let side = engine.side_to_move();
    let stones = pb.board().moves().to_vec();
    for _ in 0..50 {
        // Next to a stone (where the game is), or anywhere.
        let (x, y) = match stones.get(rng.random_range(0..stones.len() + 2)) {
            Some(&(q, _)) => {
                let mut near = |c: u8| (usize::from(c) + rng.random_range(0..5)).saturating_sub(2).min(size - 1);
                (near(q.x), near(q.y))
            }
            None => (rng.random_range(0..size), rng.random_range(0..size)),
        };
        let p = Pos::new(x, y);
        let forbidden = side == Color::Black && pb.forbidden_kind(p).is_some();
        if pb.board().is_empty(p) && !forbidden && !pb.is_five(side, p) {
            return (x, y);
        }
    }
    (rng.random_range(0..size), rng.random_range(0..size))
}

/// A BOARD or YXBOARD block: stones of a random game, sometimes with a bad line or not closed.
fn board_block(model: &Model, rng: &mut StdRng, think: bool) -> Vec<String> {
    let size = model.engine.as_ref().map_or(15, |e| e.board().size());
    let mut lines = vec![if think { "BOARD" } else { "YXBOARD" }.to_string()];
    let mut game = Engine::new(size, model.rule).expect("size");
    // Mostly a few stones; sometimes a crowded board, where Black has forbidden points.
    let crowded = rng.random_bool(0.3);
    let stones = if crowded { rng.random_range(20..60) } else { rng.random_range(0..12) };
    // A crowded board's stones lie in the middle nine lines, where they make threes and fours.
    let (low, high) = if crowded && size >= 9 { (size / 2 - 4, size / 2 + 5) } else { (0, size) };
    for _ in 0..stones {
        let p = Pos::new(rng.random_range(low..high), rng.random_range(low..high));
        let side = game.side_to_move();
        let mut pb = game.board().clone();
        let forbidden = side == Color::Black && pb.forbidden_kind(p).is_some();
        if pb.board().is_empty(p) && !pb.is_five(side, p) && !forbidden {
            game.play(p, side).expect("a legal move");
        }
    }
    // The side to move is the engine: its stones are 1, the opponent's 2.
    let ours = game.side_to_move();
    for &(p, c) in game.board().board().moves() {
        lines.push(format!("{},{},{}", p.x, p.y, if c == ours { 1 } else { 2 }));
    }
    match rng.random_range(0..10) {
        0 => lines.insert(rng.random_range(1..=lines.len()), mangled("7,7,1", rng)),
        1 => lines.push(format!("{},{},{}", rng.random_range(0..30), rng.random_range(0..30), rng.random_range(0..5))),
        _ => {}
    }
    if rng.random_range(0..12) != 0 {
        lines.push("DONE".to_string());
    }
    lines
}

/// `line` with one or a few bytes changed, cut, doubled or replaced by extreme numbers; read as the reader reads
/// bytes (invalid UTF-8 replaced), without line breaks.
fn mangled(line: &str, rng: &mut StdRng) -> String {
    let mut bytes = line.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=bytes.len());
        match rng.random_range(0..8) {
            0 if !bytes.is_empty() => {
                let i = at.min(bytes.len() - 1);
                bytes[i] ^= 1 << rng.random_range(0..8);
            }
            1 => bytes.truncate(at),
            2 => bytes.insert(at, rng.random()),
            3 if at < bytes.len() => drop(bytes.remove(at)),
            4 => {
                let numbers = ["0", "-1", "4294967296", "18446744073709551617", "99999999999999999999999", "1e9"];
                let n = numbers[rng.random_range(0..numbers.len())];
                bytes.splice(at..at, n.bytes()).for_each(drop);
            }
            5 => bytes.insert(at, [b',', b' ', b'\t', b'\r'][rng.random_range(0..4)]),
            6 => {
                let copy = bytes.clone();
                bytes.extend(copy);
            }
            _ => bytes.insert(at, 0x80 | rng.random::<u8>()),
        }
    }
    String::from_utf8_lossy(&bytes).replace('\n', " ")
}

/// A line of random bytes (sometimes a megabyte long).
fn random_line(rng: &mut StdRng) -> String {
    let length = if rng.random_range(0..40) == 0 { 1 << 20 } else { rng.random_range(0..40) };
    let bytes: Vec<u8> = (0..length).map(|_| rng.random()).collect();
    String::from_utf8_lossy(&bytes).replace('\n', " ")
}

/// The next lines to send, and a line that arrives while the engine thinks about the last of them.
fn next_lines(model: &Model, rng: &mut StdRng) -> (Vec<String>, Option<String>) {
    let turn = |rng: &mut StdRng| {
        let (x, y) = opponent_point(model, rng);
        format!("TURN {x},{y}")
    };
    let lines = match rng.random_range(0..100) {
        0..=29 => vec![turn(rng)],
        30..=34 => vec!["BEGIN".to_string()],
        35..=42 => board_block(model, rng, true),
        43..=46 => board_block(model, rng, false),
        47..=52 => {
            let last = model.engine.as_ref().and_then(|e| e.board().board().moves().last().map(|&(p, _)| p));
            let (x, y) = match last {
                Some(p) if rng.random_bool(0.7) => (p.x, p.y),
                _ => (rng.random_range(0..20), rng.random_range(0..20)),
            };
            vec![format!("TAKEBACK {x},{y}")]
        }
        53..=55 => vec!["RESTART".to_string()],
        56..=58 => {
            let sizes = ["15", "20", "5", "22", "0", "4", "23", "18446744073709551617", "-3", "15 15", "x"];
            vec![format!("START {}", sizes[rng.random_range(0..sizes.len())])]
        }
        59..=62 => vec![format!("INFO rule {}", [0, 1, 2, 4, 5, 8, 9, 16, -1][rng.random_range(0..9)])],
        63..=72 => {
            // A move request, then a command that arrives while the engine thinks.
            let lines = if rng.random_bool(0.7) { vec![turn(rng)] } else { board_block(model, rng, true) };
            let during = ["YXSTOP", "yxstop", "RESTART", "INFO timeout_turn 7", "BEGIN", "END", "ABOUT"];
            let pick = rng.random_range(0..during.len() + 2);
            let line = match during.get(pick) {
                Some(&"END") if rng.random_bool(0.7) => "YXSTOP".to_string(),
                Some(line) => (*line).to_string(),
                None if pick == during.len() => turn(rng),
                None => random_line(rng),
            };
            return (lines, Some(line));
        }
        73..=88 => {
            let templates = ["TURN 7,7", "BEGIN", "START 15", "TAKEBACK 7,7", "INFO rule 4", "RESTART", "yxboard"];
            vec![mangled(templates[rng.random_range(0..templates.len())], rng)]
        }
        _ => vec![random_line(rng)],
    };
    (lines, None)
}

/// The replies in `out`, MESSAGE and DEBUG lines left out.
fn replies(out: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(out);
    text.lines().filter(|l| !l.starts_with("MESSAGE") && !l.starts_with("DEBUG")).map(String::from).collect()
}

/// One session's run: the session, the model, the line assembler that mirrors the session's, and what was sent.
struct Run {
    session: Session,
    model: Model,
    mirror: Assembler,
    sent: Vec<String>,
    tally: Tally,
}

impl Run {
    /// Sends `line` and returns the command the session assembled from it, if any.
    fn send(&mut self, line: &str, out: &mut Vec<u8>) -> Result<Option<Result<Command, ParseError>>, String> {
        self.sent.push(line.to_string());
        self.session.line(line, out).map_err(|e| e.to_string())?;
        let text = line.trim_matches(|c: char| c == '\r' || c == '\n' || c.is_whitespace());
        Ok(if text.is_empty() || self.model.ended { None } else { self.mirror.push(text) })
    }

    /// Waits for the session's search (no longer than the bound) and returns the replies written.
    fn finish(&mut self, out: &mut Vec<u8>, started: Instant) -> Result<Vec<String>, String> {
        while self.session.is_thinking() {
            self.session.finish(out).map_err(|e| e.to_string())?;
        }
        if started.elapsed() > ANSWER_BOUND {
            return Err(format!("no answer within {ANSWER_BOUND:?}"));
        }
        Ok(replies(out))
    }

    fn check(&mut self, command: Option<Result<Command, ParseError>>, replies: &[String]) -> Result<(), String> {
        check(&mut self.model, command, replies, &mut self.tally)
    }

    /// Sends `lines` one by one, each answered before the next (the last while `during` arrives, when given).
    fn step(&mut self, lines: &[String], during: Option<&str>) -> Result<(), String> {
        for (i, line) in lines.iter().enumerate() {
            let mut out = Vec::new();
            let started = Instant::now();
            let command = self.send(line, &mut out)?;
            let Some(during) = during.filter(|_| i + 1 == lines.len()) else {
                let replies = self.finish(&mut out, started)?;
                self.check(command, &replies)?;
                continue;
            };
            let second = self.send(during, &mut out)?;
            let mut replies = self.finish(&mut out, started)?;
            if matches!(second, Some(Ok(Command::End))) {
                // END while the engine thinks: its move is never printed (a refusal came before END).
                self.model.ended = true;
                return match replies.as_slice() {
                    [] => Ok(()),
                    [r] if is_refusal(r) => Ok(()),
                    _ => Err(format!("after END: {replies:?}")),
                };
            }
            // A command answers with one line at once (a move, or a refusal); what arrived later answers after it.
            let first: Vec<String> = replies.drain(..usize::from(command.is_some()).min(replies.len())).collect();
            self.check(command, &first)?;
            self.check(second, &replies)?;
        }
        Ok(())
    }
}

/// Runs one session; on failure, says why with its last lines.
fn session(seed: u64) -> Result<Tally, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let model = Model { engine: None, size: None, rule: Rule::Freestyle, ended: false };
    let mut run =
        Run { session: Session::new(), model, mirror: Assembler::default(), sent: Vec::new(), tally: Tally::default() };
    let opening = vec![
        "START 15".to_string(),
        format!("INFO timeout_turn {}", rng.random_range(5..30)),
        format!("INFO rule {}", [0, 1, 4, 4][rng.random_range(0..4)]),
    ];
    run.step(&opening, None).map_err(|e| format!("seed {seed}, opening: {e}"))?;
    for step in 0..STEPS {
        let (lines, during) = next_lines(&run.model, &mut rng);
        if let Err(e) = run.step(&lines, during.as_deref()) {
            let tail = run.sent.iter().rev().take(14).rev();
            let shown: Vec<String> = tail.map(|l| format!("  > {}", l.chars().take(80).collect::<String>())).collect();
            return Err(format!("seed {seed}, step {step}: {e}\n{}", shown.join("\n")));
        }
        if run.model.ended {
            break;
        }
    }
    Ok(run.tally)
}

#[test]
fn mangled_sessions_get_their_answers_and_every_move_is_legal() {
    let sessions = env_number("FUZZ_SESSIONS", 16);
    let seed = env_number("FUZZ_SEED", 0x7e46_e095);
    let started = Instant::now();
    let mut tally = Tally::default();
    for i in 0..sessions {
        match session(seed.wrapping_add(i)) {
            Ok(t) => {
                (tally.checked, tally.beside_forbidden) =
                    (tally.checked + t.checked, tally.beside_forbidden + t.beside_forbidden)
            }
            Err(e) => panic!("{e}"),
        }
    }
    eprintln!("{sessions} sessions from seed {seed}: {tally:?} in {:.1?}", started.elapsed());
    // Enough moves, and Black's moves beside forbidden points among them, or the run proves little.
    assert!(tally.checked >= 10 * sessions as usize && tally.beside_forbidden >= 1, "{tally:?}");
}

#[test]
fn random_bytes_through_the_reader_end_without_a_panic() {
    // The reader thread's own path: bytes (invalid UTF-8, NULs, CR without LF) and a search under way at the end.
    let mut rng = StdRng::seed_from_u64(env_number("FUZZ_SEED", 0x7e46_e095));
    for _ in 0..env_number("FUZZ_SESSIONS", 16) / 4 {
        let mut input = b"START 15\nINFO timeout_turn 10\nINFO rule 4\n".to_vec();
        for _ in 0..rng.random_range(0..60) {
            match rng.random_range(0..4) {
                0 => input.extend(format!("TURN {},{}\n", rng.random_range(0..16), rng.random_range(0..16)).bytes()),
                1 => input.extend(b"BOARD\n7,7,1\n8,8,2\n"),
                _ => input.extend((0..rng.random_range(0..30)).map(|_| rng.random::<u8>())),
            }
        }
        input.extend(b"\nBEGIN\n");
        let mut out = Vec::new();
        tengen::protocol::run(std::io::Cursor::new(input), &mut out).expect("output");
        let text = String::from_utf8(out).expect("the replies are UTF-8");
        assert!(text.starts_with("OK\n"), "{text}");
    }
}
