//! The protocol session: its state, the dispatch of each command, and the think requests, each searched on its own
//! thread ([`super::job`]) so that INFO, YXSTOP/STOP and END are acted on while the engine thinks. Every think
//! request gets exactly one answer; END stops the search and returns at once, printing nothing.

use super::command::{Assembler, Command, ParseError};
use super::job::{Job, Thinking, play_answer};
use super::opening_steps::OpeningStep;
use super::reply::{
    ABOUT, Refusal, answer_lines, forbid_line, iteration_lines, move_line, refuse, reply, show_info_lines,
};
use crate::engine::Engine;
use crate::search::Report;
use crate::search::time::Clock;
use crate::types::{Color, MAX_SIZE, MIN_SIZE, Pos, Rule};
use std::io::{self, Write};
use std::time::Instant;

/// The settings key of [`super::run_with`] that switches the threat solvers on (1) or off (0).
pub const PRESET_THREATS: &str = "tengen_threats";

/// The preset key of `pbrain-tengen --weights FILE`: the evaluation and ordering tables read from that file.
pub const PRESET_WEIGHTS: &str = "tengen_weights";

/// The preset key of `pbrain-tengen --network FILE`: the network read from that file evaluates.
pub const PRESET_NETWORK: &str = "tengen_network";

/// The preset key of `pbrain-tengen --params FILE`: the search's tunable values read from that file.
pub const PRESET_PARAMS: &str = "tengen_params";
/// The INFO key the command line's `--book FILE` sets before START (a book file replacing the embedded one).
pub const PRESET_BOOK: &str = "tengen_book";

/// The preset key of `pbrain-tengen --say-score`: a `MESSAGE score S depth D nodes N` line before each move.
pub const PRESET_SAY_SCORE: &str = "tengen_say_score";

/// A command waiting for the search in progress, with when it arrived.
type Queued = (Instant, Result<Command, ParseError>);

/// The state of one protocol session.
pub struct Session {
    engine: Option<Engine>,
    assembler: Assembler,
    thinking: Option<Thinking>,
    /// Commands that arrived during a search and wait for it (everything but INFO, STOP and END).
    queued: Vec<Queued>,
    /// Engine settings (INFO) that arrived while the engine was away (searching, or before START): applied when it
    /// is back, in order.
    deferred: Vec<(String, String)>,
    /// MESSAGE lines to write after the present command (a memory limit the engine cannot keep).
    notes: Vec<String>,
    /// The memory limit refused last and the least named for it, while the refusal holds: a setting that leaves
    /// both as they were says nothing again.
    refused_memory: Option<(u64, u64)>,
    /// The clock values, applied before each search.
    clock: Clock,
    /// `INFO rule` as last sent.
    rule: Rule,
    /// Board size from START.
    size: usize,
    /// `INFO pondering 1`: think on the opponent's time between moves.
    pondering: bool,
    /// `INFO show_detail`: bit 1 the `MESSAGE REALTIME` lines, bit 2 the `INFO` detail block, per iteration.
    show_detail: i64,
    /// `--say-score`: each move is preceded by its search's score line (match runners record it).
    say_score: bool,
    /// When the command being handled arrived: a move's clock starts there.
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
            assembler: Assembler::default(),
            thinking: None,
            queued: Vec::new(),
            deferred: Vec::new(),
            notes: Vec::new(),
            refused_memory: None,
            clock: Clock::default(),
            rule: Rule::Freestyle,
            size: 0,
            show_detail: 0,
            say_score: false,
            pondering: false,
            received: Instant::now(),
            ended: false,
        }
    }

    /// A session whose engine gets `presets` (INFO keys and values) when START creates it, before the manager's
    /// own INFO lines.
    #[must_use]
    pub fn with_presets(presets: Vec<(String, String)>) -> Session {
        Session { deferred: presets, ..Session::new() }
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
        log::debug!("> {text}");
        if self.thinking.as_ref().is_some_and(|t| t.ponder) {
            // Any line ends pondering (its result is not shown); the table keeps what it learnt.
            self.finish(out)?;
        }
        let Some(parsed) = self.assembler.push(text) else { return Ok(()) };
        if self.thinking.is_some() {
            self.while_thinking(parsed, received);
        } else {
            self.dispatch(parsed, received, out)?;
        }
        for note in std::mem::take(&mut self.notes) {
            reply(out, &note)?;
        }
        Ok(())
    }

    /// A command that arrived during a search: STOP, END and INFO act now, the rest waits for the search.
    fn while_thinking(&mut self, parsed: Result<Command, ParseError>, received: Instant) {
        match parsed {
            Ok(Command::Stop) => self.stop_search(),
            Ok(Command::End) => {
                self.stop_search();
                self.ended = true;
            }
            Ok(Command::Info(key, value)) => self.info(&key, &value),
            other => self.queued.push((received, other)),
        }
    }

    fn stop_search(&self) {
        if let Some(t) = &self.thinking {
            t.stop();
        }
    }

    /// Answers a command, or says why there is none.
    fn dispatch(
        &mut self,
        parsed: Result<Command, ParseError>,
        received: Instant,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.received = received;
        match parsed {
            Ok(command) => match self.command(command, out)? {
                Ok(()) => Ok(()),
                Err(refusal) => refuse(out, &refusal),
            },
            Err(ParseError::Unknown(msg)) => reply(out, &format!("UNKNOWN {msg}")),
            Err(ParseError::Bad(msg)) => refuse(out, &Refusal::Bad(msg)),
        }
    }

    /// Writes the move of a finished search, if one finished, then handles the commands that waited for it.
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

    /// Waits for the running search, if any, writes its answer, then handles the commands that waited for it.
    ///
    /// # Errors
    /// Output I/O errors only.
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let Some(thinking) = self.thinking.take() else { return Ok(()) };
        if thinking.ponder {
            thinking.stop(); // pondering never ends by itself
        }
        let joined = thinking.handle.join();
        if thinking.ponder {
            self.engine = match joined {
                Ok((engine, _)) => Some(engine),
                Err(_) => Engine::new(self.size.max(MIN_SIZE), self.rule).ok(),
            };
            return Ok(());
        }
        if !self.ended {
            for (report, winrate) in thinking.iterations.try_iter() {
                self.write_iteration(&report, winrate, out)?;
            }
        }
        match joined {
            Ok((mut engine, answer)) => {
                if !self.ended {
                    play_answer(&mut engine, &answer);
                    for line in answer_lines(&answer, self.say_score) {
                        reply(out, &line)?;
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
                    refuse(out, &Refusal::SearchFailed)?;
                }
            }
        }
        self.apply_deferred();
        for (received, parsed) in std::mem::take(&mut self.queued) {
            if self.thinking.is_some() {
                self.queued.push((received, parsed));
            } else if !self.ended {
                self.dispatch(parsed, received, out)?;
            }
        }
        Ok(())
    }

    /// The game, or [`Refusal::NoGame`] before START.
    fn game(&mut self) -> Result<&mut Engine, Refusal> {
        self.engine.as_mut().ok_or(Refusal::NoGame)
    }

    /// Answers one command; a refusal is the command's `ERROR` line.
    fn command(&mut self, command: Command, out: &mut dyn Write) -> io::Result<Result<(), Refusal>> {
        let wants_move = matches!(command, Command::Begin | Command::Turn(_) | Command::Board { think: true, .. });
        let result = match command {
            Command::Start(size) if !(MIN_SIZE..=MAX_SIZE).contains(&size) => Err(Refusal::BoardSize(size)),
            Command::Start(size) => {
                self.size = size;
                self.new_game(out)?
            }
            Command::RectStart(w, h) if w == h && (MIN_SIZE..=MAX_SIZE).contains(&w) => {
                self.size = w;
                self.new_game(out)?
            }
            Command::RectStart(..) => Err(Refusal::NotSquare),
            Command::Restart if self.engine.is_some() => self.new_game(out)?,
            Command::Restart => Err(Refusal::NoGame),
            Command::Begin => self.game().and_then(|engine| {
                if engine.board().board().stone_count() == 0 { Ok(()) } else { Err(Refusal::BeginOnStones) }
            }),
            Command::Turn(p) => self.game().and_then(|engine| {
                if !p.on_board(engine.board().size()) {
                    return Err(Refusal::OffBoard(p));
                }
                let side = engine.side_to_move();
                engine.play(p, side).map(|_| ()).map_err(|e| Refusal::Play(p, e))
            }),
            Command::Play(p) => {
                let played = self.game().and_then(|engine| {
                    let side = engine.side_to_move();
                    if !engine.is_legal(p, side) {
                        return Err(Refusal::NotLegal(p));
                    }
                    engine.play(p, side).map(|_| ()).map_err(|e| Refusal::Play(p, e))
                });
                if played.is_ok() {
                    reply(out, &move_line(p))?;
                }
                played
            }
            Command::Board { stones, .. } => self.set_position(&stones),
            Command::Info(key, value) => {
                self.info(&key, &value);
                Ok(())
            }
            Command::End => {
                self.ended = true;
                Ok(())
            }
            Command::About => {
                reply(out, ABOUT)?;
                Ok(())
            }
            Command::Takeback(p) => {
                let taken = self.game().and_then(|engine| match engine.board().board().moves().last() {
                    Some(&(last, _)) if last == p => engine.undo().map(|_| ()).map_err(|e| Refusal::Play(p, e)),
                    _ => Err(Refusal::NotLast(p)),
                });
                if taken.is_ok() {
                    reply(out, "OK")?;
                }
                taken
            }
            Command::Stop => Ok(()), // nothing is running
            Command::ShowForbid => {
                let forbidden = match self.engine.as_ref() {
                    Some(e) if e.board().rule().has_forbidden() && e.side_to_move() == Color::Black => {
                        e.board().clone().forbidden_points()
                    }
                    _ => Vec::new(),
                };
                reply(out, &forbid_line(&forbidden))?;
                Ok(())
            }
            Command::HashClear => {
                if let Some(engine) = self.engine.as_mut() {
                    engine.clear_hash();
                }
                Ok(())
            }
            Command::NBest(n) => self.job_in_game(Job::NBest(n)),
            Command::BalanceOne(bias) => self.job_in_game(Job::Balance(1, bias)),
            Command::BalanceTwo(bias) => self.job_in_game(Job::Balance(2, bias)),
            Command::SearchDefend => self.job_in_game(Job::Move),
            Command::YxSwap2Step(step) => self.yixin_swap2(step),
            Command::Swap2Board(stones) => self.swap2_board(&stones),
            Command::OpeningStep(step) => self.opening_step(step),
            Command::Block { points, add } => {
                self.game().map(|engine| if add { engine.block(&points) } else { engine.unblock(Some(&points)) })
            }
            Command::BlockReset => {
                if let Some(engine) = self.engine.as_mut() {
                    engine.unblock(None);
                }
                Ok(())
            }
            Command::ShowInfo => {
                for line in show_info_lines() {
                    reply(out, line)?;
                }
                Ok(())
            }
        };
        if result.is_ok() && wants_move {
            self.start_job(Job::Move);
        }
        Ok(result)
    }

    /// Starts `job` on the game, or refuses before START.
    fn job_in_game(&mut self, job: Job) -> Result<(), Refusal> {
        self.game()?;
        self.start_job(job);
        Ok(())
    }

    /// Yixin-Board's swap2 step on the last yxboard's position (0, 3 or 5 stones).
    fn yixin_swap2(&mut self, step: u8) -> Result<(), Refusal> {
        let stones = self.game()?.board().board().stone_count();
        let wanted = [0, 0, 3, 5][usize::from(step)];
        if stones != wanted {
            return Err(Refusal::StoneCount(format!("yxswap2step{step} needs"), wanted.to_string(), stones));
        }
        self.start_job(Job::YixinSwap2(step));
        Ok(())
    }

    /// SWAP2BOARD: the stones in move order, the side to move ours.
    fn swap2_board(&mut self, stones: &[Pos]) -> Result<(), Refusal> {
        self.game()?;
        if ![0, 3, 5].contains(&stones.len()) {
            return Err(Refusal::StoneCount("SWAP2BOARD holds".to_string(), "0, 3 or 5".to_string(), stones.len()));
        }
        let ours_first = stones.len() % 2 == 0;
        let marked: Vec<(Pos, u8)> =
            stones.iter().enumerate().map(|(i, &p)| (p, if (i % 2 == 0) == ours_first { 1 } else { 2 })).collect();
        self.set_position(&marked)?;
        self.start_job(Job::Swap2(stones.len()));
        Ok(())
    }

    /// An opening rule's step: the stones are replayed by the rule (a step that breaks it is refused), and the
    /// engine decides on the position, which becomes its game.
    fn opening_step(&mut self, step: OpeningStep) -> Result<(), Refusal> {
        let size = self.game()?.board().size();
        let negotiation = step.negotiation(size).map_err(Refusal::Bad)?;
        self.start_job(Job::Opening(step, Box::new(negotiation)));
        Ok(())
    }

    /// A new game of the current size and rule (the table and settings stay).
    fn new_game(&mut self, out: &mut dyn Write) -> io::Result<Result<(), Refusal>> {
        let result = match self.engine.as_mut() {
            Some(engine) => engine.new_game(self.size, self.rule),
            None => Engine::new(self.size, self.rule).map(|e| self.engine = Some(e)),
        };
        Ok(match result {
            Ok(()) => {
                self.apply_deferred();
                reply(out, "OK")?;
                Ok(())
            }
            Err(e) => Err(Refusal::Setup(e)),
        })
    }

    fn info(&mut self, key: &str, value: &str) {
        let number = value.trim().parse::<i64>().ok();
        match (key, number) {
            ("timeout_turn", Some(n)) => self.clock.turn_ms = n.max(0) as u64,
            ("timeout_match", Some(n)) => self.clock.match_ms = n.max(0) as u64,
            ("time_left", Some(n)) => self.clock.left_ms = Some(n),
            ("rule", Some(n)) if (0..16).contains(&n) => {
                let rule = if n == 2 { Rule::Renju } else { Rule::from_info(n as u32) };
                self.rule = rule;
                self.with_engine(key, value, |engine| engine.switch_rule(rule));
            }
            ("max_memory", Some(n)) => {
                self.with_engine(key, value, |e| {
                    // A refusal is reported below, for this key and for those that change what the engine needs.
                    let _ = e.set_memory_limit(n.max(0) as u64);
                });
            }
            ("hash_size", Some(n)) if n > 0 => {
                self.with_engine(key, value, |e| e.set_hash_bytes((n as usize).saturating_mul(1024)))
            }
            ("thread_num", Some(n)) => {
                let threads = n.clamp(1, 64) as usize;
                self.with_engine(key, value, |e| e.configure(|s| s.search.threads = threads));
            }
            ("max_depth", Some(n)) => {
                self.with_engine(key, value, |e| e.configure(|s| s.max_depth = n.clamp(0, 60) as i32));
            }
            ("show_detail", Some(n)) => self.show_detail = n,
            ("pondering", Some(n)) => self.pondering = n != 0,
            (PRESET_SAY_SCORE, Some(n)) => self.say_score = n != 0,
            ("max_node", Some(n)) => self.with_engine(key, value, |e| e.configure(|s| s.max_nodes = n.max(0) as u64)),
            // Only the command line sets this (`pbrain-tengen --no-threats`), for weakened copies in matches.
            (PRESET_THREATS, Some(n)) => self.with_engine(key, value, |e| e.configure(|s| s.search.threats = n != 0)),
            // Only the command line sets this too (`pbrain-tengen --weights FILE`), read and checked there.
            (PRESET_WEIGHTS, _) => match crate::eval::Weights::load_cached(value.trim()) {
                Ok(w) => {
                    let weights = crate::eval::WeightsRef(w);
                    self.with_engine(key, value, |e| e.configure(|s| s.search.weights = weights));
                }
                Err(e) => log::warn!("weights {value}: {e}"),
            },
            // Tengen's own: `INFO evaluation classical|network` (also `pbrain-tengen --eval E`).
            ("evaluation", _) => match value.parse::<crate::eval::EvalChoice>() {
                Ok(eval) => self.with_engine(key, value, |e| e.configure(|s| s.search.eval = eval)),
                Err(e) => log::warn!("{e}"),
            },
            (PRESET_NETWORK, _) => match crate::eval::EvalChoice::load(value.trim()) {
                Ok(eval) => self.with_engine(key, value, |e| e.configure(|s| s.search.eval = eval)),
                Err(e) => log::warn!("network {value}: {e}"),
            },
            // The command line's too (`pbrain-tengen --params FILE`), for tuned copies in matches.
            (PRESET_PARAMS, _) => match crate::search::params::Params::load(value.trim()) {
                Ok(params) => self.with_engine(key, value, |e| e.configure(|s| s.search.params = params)),
                Err(e) => log::warn!("params {value}: {e}"),
            },
            // Tengen's own: `INFO book 0|1` turns the opening book off and on (also `pbrain-tengen --no-book`).
            ("book", Some(n)) => self.with_engine(key, value, |e| {
                e.configure(|s| {
                    s.book = match (n != 0, s.book) {
                        (false, _) => crate::book::BookChoice::Off,
                        (true, crate::book::BookChoice::Off) => crate::book::BookChoice::Embedded,
                        (true, kept) => kept,
                    }
                });
            }),
            // The command line's `--book FILE`: that book instead of the embedded one.
            (PRESET_BOOK, _) => match crate::book::Book::load_cached(value.trim()) {
                Ok(book) => {
                    self.with_engine(key, value, |e| e.configure(|s| s.book = crate::book::BookChoice::File(book)))
                }
                Err(e) => log::warn!("book {value}: {e}"),
            },
            _ => log::debug!("INFO {key} ignored"),
        }
        if matches!(key, "max_memory" | "thread_num" | "rule" | "evaluation" | PRESET_NETWORK)
            && let Some(engine) = &self.engine
        {
            // Said once when the limit is refused, and again only when the limit or the least it names changes.
            let refused = engine.memory_shortfall().map(|least| (engine.memory_limit(), least));
            if let Some((limit, least)) = refused.filter(|&r| self.refused_memory != Some(r)) {
                self.notes.push(format!(
                    "MESSAGE max_memory {limit} refused: Tengen needs at least {least} bytes with {} thread(s); it \
                     runs with that least",
                    engine.settings().search.threads
                ));
            }
            self.refused_memory = refused;
        }
    }

    /// Applies a setting to the engine now; without an engine (searching, or before START) the INFO line is kept
    /// and applied when there is one.
    fn with_engine(&mut self, key: &str, value: &str, f: impl FnOnce(&mut Engine)) {
        match self.engine.as_mut() {
            Some(engine) => f(engine),
            None => self.deferred.push((key.to_string(), value.to_string())),
        }
    }

    /// Applies the INFO lines that waited for the engine.
    fn apply_deferred(&mut self) {
        if self.engine.is_some() {
            for (key, value) in std::mem::take(&mut self.deferred) {
                self.info(&key, &value);
            }
        }
    }

    /// Sets the position of a BOARD block (see [`super::command::read_stones`]); the game is unchanged when it is refused.
    fn set_position(&mut self, stones: &[(Pos, u8)]) -> Result<(), Refusal> {
        let engine = self.game()?;
        let colored = super::command::read_stones(stones).map_err(Refusal::Position)?;
        engine.set_up(&colored).map_err(Refusal::Position)
    }

    /// Writes the iterations completed so far (not after END).
    fn write_iterations(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let reports: Vec<(Report, f64)> = match &self.thinking {
            Some(t) if !self.ended => t.iterations.try_iter().collect(),
            _ => Vec::new(),
        };
        for (report, winrate) in reports {
            self.write_iteration(&report, winrate, out)?;
        }
        Ok(())
    }

    fn write_iteration(&self, report: &Report, winrate: f64, out: &mut dyn Write) -> io::Result<()> {
        for line in iteration_lines(report, winrate, self.show_detail) {
            reply(out, &line)?;
        }
        Ok(())
    }

    /// Starts a think request on its own thread (nothing happens before START).
    fn start_job(&mut self, job: Job) {
        let Some(engine) = self.engine.take() else { return };
        self.thinking = Some(Thinking::start(engine, job, self.clock, self.received, self.show_detail != 0));
    }

    /// Starts pondering: a search for the side to move (the opponent) with no clock, until any command arrives.
    fn start_ponder(&mut self) {
        let Some(engine) = self.engine.take() else { return };
        self.thinking = Some(Thinking::ponder(engine));
    }
}
