//! The protocol session: a reader thread turns stdin into lines; the session answers them, and runs each search
//! on its own thread so that INFO, YXSTOP/STOP and END are acted on while the engine thinks. Every think request
//! gets exactly one move line; END stops the search and returns at once, printing nothing; EOF ends the session.

use super::command::{BoardLine, Command, ParseError, parse, parse_board_line, parse_point_line, parse_swap2_line};
use crate::engine::Engine;
use crate::pattern::{MoveOutcome, PatternBoard};
use crate::search::Report;
use crate::search::time::Clock;
use crate::types::{CELLS, Color, MAX_SIZE, MIN_SIZE, Pos, Rule};
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Swap2: White takes Black instead when its search score is below minus this.
const SWAP_MARGIN: i32 = 150;

/// The name and version sent in reply to ABOUT.
pub const ABOUT: &str = concat!(
    "name=\"Tengen\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"Tengen developers\", country=\"-\""
);

/// What the session is doing with incoming lines.
enum Mode {
    /// Commands.
    Commands,
    /// Inside a BOARD (or YXBOARD) block: the stones so far, and whether a move is wanted at DONE.
    Board { stones: Vec<(Pos, u8)>, think: bool },
    /// Inside a YXBLOCK (`add`) or YXBLOCKUNDO block: the points so far.
    Block { points: Vec<Pos>, add: bool },
    /// Inside a SWAP2BOARD block: the stones so far, in move order.
    Swap2 { stones: Vec<Pos> },
    /// Inside a Soosõrv step's block: the step, its N, and the stones so far.
    Soosorv { step: u8, n: usize, stones: Vec<Pos> },
}

/// The block's first bad line, answered once at its DONE.
type BlockError = Option<String>;

/// A search running on its own thread: it hands the engine back with its report.
struct Thinking {
    handle: JoinHandle<(Engine, Answer)>,
    stop: Arc<AtomicBool>,
    /// Completed iterations, for the realtime output.
    iterations: Receiver<Report>,
    /// A search on the opponent's time: nothing is printed for it.
    ponder: bool,
}

/// What a think request asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Job {
    /// The move to play (BEGIN, TURN, BOARD, YXSEARCHDEFEND).
    Move,
    /// The n best moves.
    NBest(usize),
    /// One balancing move.
    BalanceOne(i32),
    /// Two balancing moves.
    BalanceTwo(i32),
    /// A swap2 decision on a board of 0, 3 or 5 stones.
    Swap2(usize),
    /// The same for Yixin-Board's swap2 step 1, 2 or 3.
    YixinSwap2(u8),
    /// A Soosõrv step with its N and, for step 6, the offered fifth moves.
    Soosorv(u8, usize, Vec<Pos>),
}

/// What a search hands back.
enum Answer {
    /// Reports, best first (one for a move).
    Moves(Vec<Report>),
    /// Balancing moves (one or two), not played.
    Balance(Vec<Pos>),
    /// A swap2 answer: stones to place, a move, or `None` for SWAP.
    Swap2(Option<Vec<Pos>>),
    /// A Yixin-Board swap2 step's answer: the three stones (step 1), or whether to swap (steps 2 and 3).
    YixinSwap2(u8, Option<Vec<Pos>>),
    /// Lines to print as they are (no move is played).
    Lines(Vec<String>),
}

/// The state of one protocol session.
pub struct Session {
    engine: Option<Engine>,
    mode: Mode,
    thinking: Option<Thinking>,
    /// Lines that arrived during a search and wait for it (everything but INFO, STOP and END).
    queued: Vec<(Instant, String)>,
    /// Engine settings (INFO) that arrived while the engine was away (searching, or before START): applied when it
    /// is back, in order.
    deferred: Vec<(String, String)>,
    /// The clock values, applied before each search.
    clock: Clock,
    /// `INFO rule` as last sent.
    rule: Rule,
    /// Board size from START.
    size: usize,
    /// The first bad line of the block being read.
    block_error: BlockError,
    /// `INFO pondering 1`: think on the opponent's time between moves.
    pondering: bool,
    /// `INFO show_detail`: bit 1 the `MESSAGE REALTIME` lines, bit 2 the `INFO` detail block, per iteration.
    show_detail: i64,
    /// When the line being handled arrived: a move's clock starts there.
    received: Instant,
    ended: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session before START.
    #[must_use]
    pub fn new() -> Session {
        Session {
            engine: None,
            mode: Mode::Commands,
            thinking: None,
            queued: Vec::new(),
            deferred: Vec::new(),
            clock: Clock::default(),
            rule: Rule::Freestyle,
            size: 0,
            show_detail: 0,
            pondering: false,
            block_error: None,
            received: Instant::now(),
            ended: false,
        }
    }

    /// Whether END was received.
    #[must_use]
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Whether a search is running.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Handles one input line, writing the replies it has now. A think request starts a search and returns; its
    /// move comes from [`Session::poll`] (or [`Session::finish`]).
    ///
    /// # Errors
    /// Output I/O errors only.
    pub fn line(&mut self, raw: &str, out: &mut dyn Write) -> io::Result<()> {
        self.line_at(raw, Instant::now(), out)
    }

    /// [`Session::line`] for a line that arrived at `received` (a move's clock starts when its command arrived).
    ///
    /// # Errors
    /// Output I/O errors only.
    pub fn line_at(&mut self, raw: &str, received: Instant, out: &mut dyn Write) -> io::Result<()> {
        let text = raw.trim_matches(|c: char| c == '\r' || c == '\n' || c.is_whitespace());
        if text.is_empty() || self.ended {
            return Ok(());
        }
        self.received = received;
        if self.thinking.as_ref().is_some_and(|t| t.ponder) {
            // Any command ends pondering (its result is not shown); the table keeps what it learnt.
            if let Some(t) = &self.thinking {
                t.stop.store(true, Ordering::Relaxed);
            }
            self.finish(out)?;
        }
        if self.thinking.is_some() {
            return self.line_while_thinking(text, out);
        }
        if !matches!(self.mode, Mode::Commands) {
            if text.eq_ignore_ascii_case("end") {
                self.ended = true; // END is obeyed even inside a block
                return Ok(());
            }
            if self.block_error.is_some() {
                // The block is already bad: its DONE gets the one ERROR, other lines wait for it.
                return if text.eq_ignore_ascii_case("done") { self.end_bad_block(out) } else { Ok(()) };
            }
            match self.mode {
                Mode::Board { .. } => return self.board_line(text, out),
                Mode::Block { .. } => return self.block_line(text),
                Mode::Swap2 { .. } => return self.swap2_line(text, out),
                Mode::Soosorv { .. } => return self.soosorv_line(text, out),
                Mode::Commands => {}
            }
        }
        match parse(text) {
            Ok(command) => self.command(command, out),
            Err(ParseError::Unknown(msg)) => reply(out, &format!("UNKNOWN {msg}")),
            Err(ParseError::Bad(msg)) => reply(out, &format!("ERROR {msg}")),
        }
    }

    fn line_while_thinking(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        match parse(text) {
            Ok(Command::Stop) => {
                if let Some(t) = &self.thinking {
                    t.stop.store(true, Ordering::Relaxed);
                }
                Ok(())
            }
            Ok(Command::End) => {
                if let Some(t) = &self.thinking {
                    t.stop.store(true, Ordering::Relaxed);
                }
                self.ended = true;
                Ok(())
            }
            Ok(Command::Info(key, value)) => self.info(&key, &value, out),
            _ => {
                self.queued.push((self.received, text.to_string()));
                Ok(())
            }
        }
    }

    /// Writes the move of a finished search, if one finished, then handles the lines that waited for it.
    ///
    /// # Errors
    /// Output I/O errors only.
    pub fn poll(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.write_iterations(out)?;
        if self.thinking.as_ref().is_some_and(|t| t.handle.is_finished()) {
            self.finish(out)?;
        }
        Ok(())
    }

    /// Waits for the running search, if any, writes its move, then handles the lines that waited for it.
    ///
    /// # Errors
    /// Output I/O errors only.
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let Some(thinking) = self.thinking.take() else { return Ok(()) };
        if thinking.ponder {
            thinking.stop.store(true, Ordering::Relaxed); // pondering never ends by itself
        }
        let joined = thinking.handle.join();
        if thinking.ponder {
            if let Ok((engine, _)) = joined {
                self.engine = Some(engine);
            } else {
                self.engine = Engine::new(self.size.max(MIN_SIZE), self.rule).ok();
            }
            return Ok(());
        }
        if !self.ended {
            for report in thinking.iterations.try_iter() {
                self.write_iteration(&report, out)?;
            }
        }
        match joined {
            Ok((mut engine, answer)) => {
                if !self.ended {
                    match answer {
                        Answer::Moves(reports) => {
                            if reports.len() > 1 {
                                for (i, r) in reports.iter().enumerate() {
                                    let score = r.score;
                                    let best = r.best.map_or("-".to_string(), |p| format!("{},{}", p.x, p.y));
                                    reply(out, &format!("MESSAGE nbest {}: {best} score {score}", i + 1))?;
                                }
                            }
                            match reports.first().and_then(|r| r.best) {
                                Some(p) => {
                                    let side = engine.side_to_move();
                                    let _ = engine.play(p, side);
                                    reply(out, &format!("{},{}", p.x, p.y))?;
                                }
                                None => reply(out, "ERROR no legal move: the board is full")?,
                            }
                        }
                        Answer::Swap2(None) => reply(out, "SWAP")?,
                        Answer::Lines(lines) => {
                            for line in lines {
                                reply(out, &line)?;
                            }
                        }
                        Answer::YixinSwap2(1, stones) => {
                            for (i, p) in stones.unwrap_or_default().iter().enumerate() {
                                reply(out, &format!("MESSAGE SWAP2 MOVE{} {} {}", i + 1, p.x, p.y))?;
                            }
                        }
                        Answer::YixinSwap2(step, decision) => {
                            let yes = if decision.is_none() { "YES" } else { "NO" };
                            reply(out, &format!("MESSAGE SWAP2 SWAP{} {yes}", step - 1))?;
                        }
                        Answer::Swap2(Some(moves)) | Answer::Balance(moves) if moves.is_empty() => {
                            reply(out, "ERROR no legal move")?;
                        }
                        Answer::Swap2(Some(moves)) => {
                            let text: Vec<String> = moves.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
                            if let [p] = moves.as_slice() {
                                let side = engine.side_to_move();
                                let _ = engine.play(*p, side);
                            }
                            reply(out, &text.join(" "))?;
                        }
                        Answer::Balance(moves) => {
                            let text: Vec<String> = moves.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
                            reply(out, &text.join(" "))?;
                        }
                    }
                }
                self.engine = Some(engine);
                if self.pondering && !self.ended && self.queued.is_empty() {
                    self.start_ponder();
                }
            }
            Err(_) => {
                // The search thread panicked: start afresh rather than lose the session.
                self.engine = Engine::new(self.size.max(MIN_SIZE), self.rule).ok();
                if !self.ended {
                    reply(out, "ERROR internal error in the search; the board was reset")?;
                }
            }
        }
        self.apply_deferred(out)?;
        for (received, line) in std::mem::take(&mut self.queued) {
            if self.thinking.is_some() {
                self.queued.push((received, line));
            } else {
                self.line_at(&line, received, out)?;
            }
        }
        Ok(())
    }

    fn command(&mut self, command: Command, out: &mut dyn Write) -> io::Result<()> {
        match command {
            Command::Start(size) => {
                if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                    return reply(
                        out,
                        &format!("ERROR board size {size} is not supported (use {MIN_SIZE} to {MAX_SIZE})"),
                    );
                }
                self.size = size;
                self.new_game(out)
            }
            Command::RectStart(w, h) => {
                if w == h && (MIN_SIZE..=MAX_SIZE).contains(&w) {
                    self.size = w;
                    self.new_game(out)
                } else {
                    reply(out, &format!("ERROR only square boards of {MIN_SIZE} to {MAX_SIZE} are supported"))
                }
            }
            Command::Restart => match self.engine {
                Some(_) => self.new_game(out),
                None => reply(out, "ERROR no game: START first"),
            },
            Command::Begin => {
                let Some(engine) = self.engine.as_ref() else { return reply(out, "ERROR no game: START first") };
                if engine.board().board().stone_count() != 0 {
                    return reply(out, "ERROR BEGIN on a board that has stones");
                }
                self.think()
            }
            Command::Turn(p) => {
                let Some(engine) = self.engine.as_mut() else { return reply(out, "ERROR no game: START first") };
                if !p.on_board(engine.board().size()) {
                    return reply(out, &format!("ERROR {},{} is off the board", p.x, p.y));
                }
                let side = engine.side_to_move();
                match engine.play(p, side) {
                    Ok(_) => self.think(),
                    Err(e) => reply(out, &format!("ERROR {},{}: {e}", p.x, p.y)),
                }
            }
            Command::Play(p) => {
                let Some(engine) = self.engine.as_mut() else { return reply(out, "ERROR no game: START first") };
                let side = engine.side_to_move();
                if !engine.is_legal(p, side) {
                    return reply(out, &format!("ERROR {},{} is not a legal move", p.x, p.y));
                }
                let _ = engine.play(p, side);
                reply(out, &format!("{},{}", p.x, p.y))
            }
            Command::Board | Command::YxBoard => {
                if self.engine.is_none() {
                    return reply(out, "ERROR no game: START first");
                }
                self.mode = Mode::Board { stones: Vec::new(), think: command == Command::Board };
                Ok(())
            }
            Command::Info(key, value) => self.info(&key, &value, out),
            Command::End => {
                self.ended = true;
                Ok(())
            }
            Command::About => reply(out, ABOUT),
            Command::Takeback(p) => {
                let Some(engine) = self.engine.as_mut() else { return reply(out, "ERROR no game: START first") };
                match engine.board().board().moves().last() {
                    Some(&(last, _)) if last == p => {
                        let _ = engine.undo();
                        reply(out, "OK")
                    }
                    _ => reply(out, &format!("ERROR {},{} is not the last move", p.x, p.y)),
                }
            }
            Command::Stop => Ok(()), // nothing is running
            Command::ShowForbid => {
                let Some(engine) = self.engine.as_ref() else { return reply(out, "FORBID .") };
                let mut text = String::from("FORBID ");
                if engine.board().rule().has_forbidden() && engine.side_to_move() == Color::Black {
                    let mut pb = engine.board().clone();
                    for p in pb.forbidden_points() {
                        text.push_str(&format!("{:02}{:02}", p.x, p.y));
                    }
                }
                text.push('.');
                reply(out, &text)
            }
            Command::HashClear => {
                if let Some(engine) = self.engine.as_mut() {
                    engine.clear_hash();
                }
                Ok(())
            }
            Command::NBest(n) => self.job_if_started(Job::NBest(n), out),
            Command::BalanceOne(bias) => self.job_if_started(Job::BalanceOne(bias), out),
            Command::BalanceTwo(bias) => self.job_if_started(Job::BalanceTwo(bias), out),
            Command::SearchDefend => self.job_if_started(Job::Move, out),
            Command::Block | Command::BlockUndo => {
                if self.engine.is_none() {
                    return reply(out, "ERROR no game: START first");
                }
                self.mode = Mode::Block { points: Vec::new(), add: command == Command::Block };
                Ok(())
            }
            Command::YxSoosorvStep(1, _) => {
                let Some(engine) = self.engine.as_mut() else { return reply(out, "ERROR no game: START first") };
                let size = engine.board().size();
                let _ = engine.new_game(size, Rule::Renju);
                self.start_job(Job::Soosorv(1, 0, Vec::new()))
            }
            Command::YxSoosorvStep(step, n) => {
                if self.engine.is_none() {
                    return reply(out, "ERROR no game: START first");
                }
                self.mode = Mode::Soosorv { step, n, stones: Vec::new() };
                Ok(())
            }
            Command::YxSwap2Step(step) => {
                let Some(engine) = self.engine.as_ref() else { return reply(out, "ERROR no game: START first") };
                let stones = engine.board().board().stone_count();
                let wanted = [0, 0, 3, 5][usize::from(step)];
                if stones != wanted {
                    return reply(out, &format!("ERROR yxswap2step{step} needs {wanted} stones, not {stones}"));
                }
                self.start_job(Job::YixinSwap2(step))
            }
            Command::Swap2Board => {
                if self.engine.is_none() {
                    return reply(out, "ERROR no game: START first");
                }
                self.mode = Mode::Swap2 { stones: Vec::new() };
                Ok(())
            }
            Command::BlockReset => {
                if let Some(engine) = self.engine.as_mut() {
                    engine.blocked.clear();
                }
                Ok(())
            }
            Command::ShowInfo => {
                reply(out, "MESSAGE INFO MAX_THREAD_NUM 64")?;
                reply(out, "MESSAGE INFO MAX_HASH_SIZE 22")
            }
        }
    }

    /// Starts `job`, or answers that there is no game.
    fn job_if_started(&mut self, job: Job, out: &mut dyn Write) -> io::Result<()> {
        if self.engine.is_none() {
            return reply(out, "ERROR no game: START first");
        }
        self.start_job(job)
    }

    /// A new game of the current size and rule (the table and settings stay).
    fn new_game(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let result = match self.engine.as_mut() {
            Some(engine) => engine.new_game(self.size, self.rule),
            None => Engine::new(self.size, self.rule).map(|e| self.engine = Some(e)),
        };
        match result {
            Ok(()) => {
                self.apply_deferred(out)?;
                reply(out, "OK")
            }
            Err(e) => reply(out, &format!("ERROR {e}")),
        }
    }

    fn info(&mut self, key: &str, value: &str, out: &mut dyn Write) -> io::Result<()> {
        let number = value.trim().parse::<i64>().ok();
        match (key, number) {
            ("timeout_turn", Some(n)) => self.clock.turn_ms = n.max(0) as u64,
            ("timeout_match", Some(n)) => self.clock.match_ms = n.max(0) as u64,
            ("time_left", Some(n)) => self.clock.left_ms = Some(n),
            ("rule", Some(n)) if (0..16).contains(&n) => {
                let rule = if n == 2 { Rule::Renju } else { Rule::from_info(n as u32) };
                self.rule = rule;
                self.with_engine(key, value, |engine| switch_rule(engine, rule));
            }
            ("max_memory", Some(n)) => self.with_engine(key, value, |e| e.set_memory_limit(n.max(0) as u64)),
            ("hash_size", Some(n)) if n > 0 => {
                self.with_engine(key, value, |e| e.set_hash_bytes((n as usize).saturating_mul(1024)))
            }
            ("thread_num", Some(n)) => {
                self.with_engine(key, value, |e| e.settings.search.threads = n.clamp(1, 64) as usize);
            }
            ("max_depth", Some(n)) => self.with_engine(key, value, |e| e.settings.max_depth = n.clamp(0, 60) as i32),
            ("show_detail", Some(n)) => self.show_detail = n,
            ("pondering", Some(n)) => self.pondering = n != 0,
            ("max_node", Some(n)) => self.with_engine(key, value, |e| e.settings.max_nodes = n.max(0) as u64),
            // Only the command line sets this (`pbrain-tengen --no-threats`), for weakened copies in matches.
            (PRESET_THREATS, Some(n)) => self.with_engine(key, value, |e| e.settings.search.threats = n != 0),
            // Only the command line sets this too (`pbrain-tengen --weights FILE`), read and checked there.
            (PRESET_WEIGHTS, _) => {
                if let Ok(w) = crate::eval::Weights::load_cached(value.trim()) {
                    self.with_engine(key, value, |e| e.settings.search.weights = crate::eval::WeightsRef(w));
                }
            }
            _ => {}
        }
        let _ = out;
        Ok(())
    }

    /// Applies a setting to the engine now; without an engine (searching, or before START) the INFO line is kept
    /// and applied when there is one.
    fn with_engine(&mut self, key: &str, value: &str, f: impl Fn(&mut Engine)) {
        match self.engine.as_mut() {
            Some(engine) => f(engine),
            None => self.deferred.push((key.to_string(), value.to_string())),
        }
    }

    /// Applies the INFO lines that waited for the engine.
    fn apply_deferred(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.engine.is_some() {
            for (key, value) in std::mem::take(&mut self.deferred) {
                self.info(&key, &value, out)?;
            }
        }
        Ok(())
    }

    /// A bad line inside a block: its message (with what stays `unchanged`) is kept for the block's DONE.
    fn bad_block_line(&mut self, msg: &str, unchanged: &str) -> io::Result<()> {
        self.block_error = Some(format!("{msg}; {unchanged}"));
        Ok(())
    }

    /// The DONE of a block with a bad line: one ERROR, and the state as it was.
    fn end_bad_block(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.mode = Mode::Commands;
        let msg = self.block_error.take().unwrap_or_default();
        reply(out, &format!("ERROR {msg}"))
    }

    fn soosorv_line(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        let point = match parse_point_line(text) {
            Ok(p) => p,
            Err(msg) => return self.bad_block_line(&msg, "the board is unchanged"),
        };
        let Mode::Soosorv { step, n, stones } = &mut self.mode else { return Ok(()) };
        let Some(p) = point else {
            let (step, n, stones) = (*step, *n, std::mem::take(stones));
            self.mode = Mode::Commands;
            let wanted = if step <= 3 { 3 } else { 4 };
            if stones.len() < wanted || (step != 6 && stones.len() != wanted) {
                return reply(out, &format!("ERROR yxsoosorvstep{step} needs {wanted} stones, not {}", stones.len()));
            }
            let (position, offers) = stones.split_at(wanted);
            let marked: Vec<(Pos, u8)> = position
                .iter()
                .enumerate()
                .map(|(i, &p)| (p, if (i % 2 == 0) == (wanted % 2 == 0) { 1 } else { 2 }))
                .collect();
            if let Some(engine) = self.engine.as_mut() {
                let size = engine.board().size();
                let _ = engine.new_game(size, Rule::Renju);
            }
            return match self.set_position(&marked) {
                Ok(()) => self.start_job(Job::Soosorv(step, n, offers.to_vec())),
                Err(msg) => reply(out, &format!("ERROR {msg}; the board is unchanged")),
            };
        };
        stones.push(p);
        Ok(())
    }

    fn swap2_line(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        let point = match parse_swap2_line(text) {
            Ok(p) => p,
            Err(msg) => return self.bad_block_line(&msg, "the board is unchanged"),
        };
        let Mode::Swap2 { stones } = &mut self.mode else { return Ok(()) };
        match point {
            Some(p) => {
                stones.push(p);
                Ok(())
            }
            None => {
                let stones = std::mem::take(stones);
                self.mode = Mode::Commands;
                if ![0, 3, 5].contains(&stones.len()) {
                    return reply(out, &format!("ERROR SWAP2BOARD holds 0, 3 or 5 stones, not {}", stones.len()));
                }
                // The side to move is ours: mark the stones from that side's point of view.
                let ours = if stones.len() % 2 == 0 { Color::Black } else { Color::White };
                let marked: Vec<(Pos, u8)> = stones
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| (p, if (i % 2 == 0) == (ours == Color::Black) { 1 } else { 2 }))
                    .collect();
                match self.set_position(&marked) {
                    Ok(()) => self.start_job(Job::Swap2(stones.len())),
                    Err(msg) => reply(out, &format!("ERROR {msg}; the board is unchanged")),
                }
            }
        }
    }

    fn block_line(&mut self, text: &str) -> io::Result<()> {
        let point = match parse_point_line(text) {
            Ok(p) => p,
            Err(msg) => return self.bad_block_line(&msg, "the blocked points are unchanged"),
        };
        let Mode::Block { points, add } = &mut self.mode else { return Ok(()) };
        match point {
            Some(p) => {
                points.push(p);
                Ok(())
            }
            None => {
                let (points, add) = (std::mem::take(points), *add);
                self.mode = Mode::Commands;
                if let Some(engine) = self.engine.as_mut() {
                    if add {
                        let size = engine.board().size();
                        engine.blocked.extend(points.iter().filter(|p| p.on_board(size)));
                        engine.blocked.sort_by_key(|p| p.index());
                        engine.blocked.dedup();
                    } else {
                        engine.blocked.retain(|p| !points.contains(p));
                    }
                }
                Ok(())
            }
        }
    }

    fn board_line(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        let line = match parse_board_line(text) {
            Ok(l) => l,
            Err(msg) => return self.bad_block_line(&msg, "the board is unchanged"),
        };
        let Mode::Board { stones, think } = &mut self.mode else { return Ok(()) };
        match line {
            BoardLine::Stone(p, f) => {
                stones.push((p, f));
                Ok(())
            }
            BoardLine::Done => {
                let (stones, think) = (std::mem::take(stones), *think);
                self.mode = Mode::Commands;
                match self.set_position(&stones) {
                    Ok(()) if think => self.think(),
                    Ok(()) => Ok(()),
                    Err(msg) => reply(out, &format!("ERROR {msg}; the board is unchanged")),
                }
            }
        }
    }

    /// Sets the position of a BOARD block: stones in move order (Black first), ours marked 1. In renju the order
    /// must alternate; in the other rules it may not, but the counts must fit.
    fn set_position(&mut self, stones: &[(Pos, u8)]) -> Result<(), String> {
        let Some(engine) = self.engine.as_ref() else { return Err("no game: START first".to_string()) };
        let size = engine.board().size();
        let ours = if stones.len() % 2 == 0 { Color::Black } else { Color::White };
        let mut colored: Vec<(Pos, Color)> = Vec::new();
        for (i, &(p, f)) in stones.iter().enumerate() {
            if !p.on_board(size) {
                return Err(format!("{},{} is off the board", p.x, p.y));
            }
            let expected = if i % 2 == 0 { Color::Black } else { Color::White };
            let color = match f {
                1 => ours,
                2 => ours.opponent(),
                _ => expected,
            };
            colored.push((p, color));
        }
        let blacks = colored.iter().filter(|(_, c)| *c == Color::Black).count();
        if blacks != stones.len().div_ceil(2) {
            return Err("the stones' colours do not fit their number".to_string());
        }
        let in_order =
            colored.iter().enumerate().all(|(i, (_, c))| *c == if i % 2 == 0 { Color::Black } else { Color::White });
        if engine.board().rule() == Rule::Renju && !in_order {
            return Err("renju stones must come in move order".to_string());
        }
        if !in_order {
            // Any order in gomoku: play them alternately, Black first.
            let (mut b, mut w): (Vec<Pos>, Vec<Pos>) = (Vec::new(), Vec::new());
            for &(p, c) in &colored {
                if c == Color::Black { b.push(p) } else { w.push(p) }
            }
            colored = b
                .iter()
                .zip(w.iter().map(Some).chain(std::iter::repeat(None)))
                .flat_map(|(&bp, wp)| std::iter::once((bp, Color::Black)).chain(wp.map(|&p| (p, Color::White))))
                .collect();
        }
        // Check the whole position on a scratch board first, so that a bad one leaves the game as it was.
        let mut scratch = PatternBoard::new(size, engine.board().rule()).map_err(|e| e.to_string())?;
        for &(p, c) in &colored {
            match scratch.outcome(p, c) {
                MoveOutcome::Illegal => return Err(format!("{},{} is given twice", p.x, p.y)),
                MoveOutcome::Win => return Err(format!("{},{} makes a five: the game is over", p.x, p.y)),
                MoveOutcome::Forbidden(_) => return Err(format!("{},{} is forbidden for Black", p.x, p.y)),
                MoveOutcome::Normal => scratch.make(p, c),
            }
        }
        let Some(engine) = self.engine.as_mut() else { return Err("no game: START first".to_string()) };
        engine.new_game(size, engine.board().rule()).map_err(|e| e.to_string())?;
        for &(p, c) in &colored {
            engine.play(p, c).map_err(|e| format!("{},{}: {e}", p.x, p.y))?;
        }
        Ok(())
    }

    /// Writes the iterations completed so far (not after END).
    fn write_iterations(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let reports: Vec<Report> = match &self.thinking {
            Some(t) if !self.ended => t.iterations.try_iter().collect(),
            _ => Vec::new(),
        };
        for report in reports {
            self.write_iteration(&report, out)?;
        }
        Ok(())
    }

    /// One iteration as the Yixin-style GUIs read it: `MESSAGE REALTIME` lines (show_detail bit 1) and the `INFO`
    /// detail block (bit 2).
    fn write_iteration(&self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        let Some(best) = report.best else { return Ok(()) };
        if self.show_detail & 1 != 0 {
            reply(out, "MESSAGE REALTIME REFRESH")?;
            reply(out, &format!("MESSAGE REALTIME BEST {},{}", best.x, best.y))?;
        }
        if self.show_detail & 2 != 0 {
            let eval = match crate::search::mate_distance(report.score) {
                Some(d) if report.score > 0 => format!("+M {d}"),
                Some(d) => format!("-M {d}"),
                None => report.score.to_string(),
            };
            let ms = report.elapsed.as_millis().max(1);
            let line: Vec<String> = report.pv.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
            let winrate = 1.0 / (1.0 + (-f64::from(report.score.clamp(-2000, 2000)) / 400.0).exp());
            for text in [
                "INFO PV 0".to_string(),
                "INFO NUMPV 1".to_string(),
                format!("INFO DEPTH {}", report.depth),
                format!("INFO SELDEPTH {}", report.pv.len()),
                format!("INFO NODES {}", report.nodes),
                format!("INFO TOTALNODES {}", report.nodes),
                format!("INFO TOTALTIME {ms}"),
                format!("INFO SPEED {}", u128::from(report.nodes) * 1000 / ms),
                format!("INFO EVAL {eval}"),
                format!("INFO WINRATE {winrate:.3}"),
                format!("INFO BESTLINE {}", line.join(" ")),
                "INFO PV DONE".to_string(),
            ] {
                reply(out, &text)?;
            }
        }
        Ok(())
    }

    /// Starts a search for the side to move.
    fn think(&mut self) -> io::Result<()> {
        self.start_job(Job::Move)
    }

    /// Starts a think request on its own thread.
    fn start_job(&mut self, job: Job) -> io::Result<()> {
        let Some(mut engine) = self.engine.take() else { return Ok(()) };
        engine.settings.clock = self.clock;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let start = self.received;
        let (sender, iterations) = mpsc::channel();
        let detail = self.show_detail != 0;
        let handle = std::thread::spawn(move || {
            let on_iteration = |r: &Report| {
                if detail {
                    let _ = sender.send(r.clone());
                }
            };
            let answer = match job {
                Job::Move => Answer::Moves(engine.think_best(start, Some(&flag), 1, on_iteration)),
                Job::NBest(n) => Answer::Moves(engine.think_best(start, Some(&flag), n, on_iteration)),
                Job::BalanceOne(bias) => Answer::Balance(engine.balance(1, bias, Some(&flag))),
                Job::BalanceTwo(bias) => Answer::Balance(engine.balance(2, bias, Some(&flag))),
                Job::Swap2(0) => Answer::Swap2(Some(engine.balance_opening(Some(&flag)))),
                Job::Swap2(_) => Answer::Swap2(swap2_decision(&mut engine, start, &flag, on_iteration)),
                Job::Soosorv(step, n, offers) => Answer::Lines(soosorv(&mut engine, step, n, &offers, start, &flag)),
                Job::YixinSwap2(1) => Answer::YixinSwap2(1, Some(engine.balance_opening(Some(&flag)))),
                Job::YixinSwap2(step) => {
                    Answer::YixinSwap2(step, swap2_decision(&mut engine, start, &flag, on_iteration))
                }
            };
            (engine, answer)
        });
        self.thinking = Some(Thinking { handle, stop, iterations, ponder: false });
        Ok(())
    }

    /// Starts pondering: a search for the side to move (the opponent) with no clock, until any command arrives.
    fn start_ponder(&mut self) {
        let Some(mut engine) = self.engine.take() else { return };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let (_sender, iterations) = mpsc::channel();
        let handle = std::thread::spawn(move || {
            let limits = crate::search::SearchLimits { stop: Some(&flag), ..crate::search::SearchLimits::default() };
            let report = engine.think_with(&limits, |_| {});
            (engine, Answer::Moves(vec![report]))
        });
        self.thinking = Some(Thinking { handle, stop, iterations, ponder: true });
    }
}

/// One Soosõrv-8 step (PROTOCOL.md §3.3), answered as the MESSAGE SOOSORV lines Yixin-Board reads.
fn soosorv(engine: &mut Engine, step: u8, n: usize, offers: &[Pos], start: Instant, stop: &AtomicBool) -> Vec<String> {
    let at = |p: Pos| format!("{} {}", p.x, p.y);
    match step {
        1 => engine
            .soosorv_opening(Some(stop))
            .into_iter()
            .enumerate()
            .map(|(i, p)| format!("MESSAGE SOOSORV MOVE{} {}", i + 1, at(p)))
            .collect(),
        // White on three stones, or Black on four with N offers to make: swap when the side to move stands worse
        // (for Black, each offer White may refuse costs a little).
        2 | 4 => {
            let penalty = if step == 4 { 30 * (n as i32 - 1) } else { 0 };
            let swap = engine.score_to_move(Some(stop)) - penalty < -SWAP_MARGIN;
            vec![format!("MESSAGE SOOSORV SWAP{} {}", step / 2, if swap { "Y" } else { "N" })]
        }
        // White's fourth move, and how many fifth moves Black must offer: more when Black stands better after it.
        3 => {
            let report = engine.think_from(start, Some(stop), |_| {});
            let Some(m) = report.best else { return vec!["ERROR no legal move".to_string()] };
            let black = -report.score;
            let count = (2 + black / 100).clamp(1, 8);
            vec![format!("MESSAGE SOOSORV MOVE4 {} {count}", at(m))]
        }
        // Black offers its n best fifth moves: White will take the one best for White among them.
        5 => {
            // The offers must not be symmetric to one another (the renju rule): a move rules out its images.
            let size = engine.board().size();
            let images: Vec<Vec<Pos>> = (0..CELLS)
                .map(Pos::from_index)
                .map(|p| if p.on_board(size) { engine.equivalent_moves(p) } else { Vec::new() })
                .collect();
            let reports = engine.think_distinct(
                start,
                Some(stop),
                n,
                |p| images.get(p.index()).cloned().unwrap_or_default(),
                |_| {},
            );
            let mut lines = vec!["MESSAGE SOOSORV MOVE5 REFRESH".to_string()];
            lines.extend(reports.iter().filter_map(|r| r.best).map(|p| format!("MESSAGE SOOSORV MOVE5 {}", at(p))));
            lines.push("MESSAGE SOOSORV MOVE5 DONE".to_string());
            lines
        }
        _ => match engine.choose_offer(offers, Some(stop)) {
            Some(p) => vec![format!("MESSAGE SOOSORV MOVE5C {}", at(p))],
            None => vec!["ERROR no legal offered fifth move".to_string()],
        },
    }
}

/// White to move on 3 or 5 stones: `None` (take Black) when White stands clearly worse, else its move.
fn swap2_decision(
    engine: &mut Engine,
    start: Instant,
    stop: &AtomicBool,
    on_iteration: impl FnMut(&Report),
) -> Option<Vec<Pos>> {
    let report = engine.think_from(start, Some(stop), on_iteration);
    match report.best {
        Some(_) if report.score < -SWAP_MARGIN => None,
        best => Some(best.into_iter().collect()),
    }
}

/// Switches a game to `rule`, keeping its moves when they are a legal game under it, else starting it afresh.
fn switch_rule(engine: &mut Engine, rule: Rule) {
    if engine.board().rule() == rule {
        return;
    }
    let moves = engine.board().board().moves().to_vec();
    let size = engine.board().size();
    if engine.new_game(size, rule).is_err() {
        return;
    }
    for &(p, c) in &moves {
        if !matches!(engine.play(p, c), Ok(MoveOutcome::Normal)) {
            let _ = engine.new_game(size, rule); // not a game under this rule: an empty board
            break;
        }
    }
    engine.clear_hash();
}

/// Writes one reply line and flushes it.
fn reply(out: &mut dyn Write, line: &str) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

/// The settings key of [`run_with`] that switches the threat solvers on (1) or off (0).
pub const PRESET_THREATS: &str = "tengen_threats";

/// The preset key of `pbrain-tengen --weights FILE`: the evaluation and ordering tables read from that file.
pub const PRESET_WEIGHTS: &str = "tengen_weights";

/// Runs a session over `input` until END or EOF: a reader thread feeds the lines, searches run on their own threads.
///
/// # Errors
/// Output I/O errors only.
pub fn run(input: impl BufRead + Send + 'static, out: &mut dyn Write) -> io::Result<()> {
    run_with(input, out, Vec::new())
}

/// [`run`] with settings applied to the engine when START creates it, as if sent by `INFO key value` first (the
/// manager's own INFO lines come later and win). Keys: the INFO keys, and [`PRESET_THREATS`].
///
/// # Errors
/// Output I/O errors only.
pub fn run_with(
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
    presets: Vec<(String, String)>,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel::<Option<(Instant, String)>>();
    std::thread::spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
                Ok(_) => {
                    if tx.send(Some((Instant::now(), String::from_utf8_lossy(&buf).into_owned()))).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let mut session = Session::new();
    session.deferred = presets;
    serve(&rx, out, session)
}

fn serve(rx: &Receiver<Option<(Instant, String)>>, out: &mut dyn Write, mut session: Session) -> io::Result<()> {
    loop {
        let message = if session.is_thinking() {
            match rx.recv_timeout(Duration::from_millis(2)) {
                Ok(m) => Some(m),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(None),
            }
        } else {
            Some(rx.recv().unwrap_or(None))
        };
        match message {
            None => session.poll(out)?,
            Some(Some((received, line))) => {
                session.line_at(&line, received, out)?;
                if session.ended() {
                    // END: the search (if any) was told to stop; leave without waiting for it.
                    return Ok(());
                }
                session.poll(out)?;
            }
            Some(None) => {
                // EOF: answer the search in progress and every request that waited for it, then stop.
                while session.is_thinking() {
                    session.finish(out)?;
                }
                return Ok(());
            }
        }
    }
}
