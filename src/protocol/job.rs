//! A think request on its own thread: what it asks for ([`Job`]), the thread that searches it and hands the engine
//! back with its answer ([`Thinking`]), pondering on the opponent's time, and the answer's move played on the board.

use super::opening_steps::OpeningStep;
use super::reply::{Answer, summary};
use crate::engine::{Engine, Swap2Decision};
use crate::opening_rule::Negotiation;
use crate::search::Report;
use crate::search::time::Clock;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::Instant;

/// What a think request asks for.
#[derive(Clone, Debug)]
pub(super) enum Job {
    /// The move to play (BEGIN, TURN, BOARD, YXSEARCHDEFEND).
    Move,
    /// The n best moves.
    NBest(usize),
    /// One (1) or two (2) balancing moves, with the bias.
    Balance(usize, i32),
    /// A swap2 decision on a board of 0, 3 or 5 stones.
    Swap2(usize),
    /// The same for Yixin-Board's swap2 step 1, 2 or 3.
    YixinSwap2(u8),
    /// An opening rule's step, at the negotiation it stands at.
    Opening(OpeningStep, Box<Negotiation>),
}

/// A search running on its own thread: it hands the engine back with its answer.
pub(super) struct Thinking {
    pub handle: JoinHandle<(Engine, Answer)>,
    pub stop: Arc<AtomicBool>,
    /// Completed iterations with the side to move's win rate, for the realtime output.
    pub iterations: Receiver<(Report, f64)>,
    /// A search on the opponent's time: nothing is printed for it.
    pub ponder: bool,
}

impl Thinking {
    /// Starts `job` on `engine` under `clock`, the move's time counted from `start`; with `detail` every completed
    /// iteration is sent for the realtime output.
    pub(super) fn start(mut engine: Engine, job: Job, clock: Clock, start: Instant, detail: bool) -> Thinking {
        engine.configure(|s| s.clock = clock);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let (sender, iterations) = mpsc::channel();
        let (rule, stones, mover) =
            (engine.board().rule(), engine.board().board().stone_count(), engine.side_to_move());
        let handle = std::thread::spawn(move || {
            let on_iteration = |r: &Report| {
                log::debug!("{}", summary(r));
                let winrate = crate::engine::Outlook::of(r.score, mover, mover, rule, stones).chance();
                // The receiver lives as long as the session waits for this thread.
                if detail && sender.send((r.clone(), winrate)).is_err() {
                    log::debug!("iteration not shown: the session is gone");
                }
            };
            let answer = match job {
                Job::Move => Answer::Moves(match engine.book_move(start) {
                    Some(report) => vec![report],
                    None => engine.think_best(start, Some(&flag), 1, on_iteration),
                }),
                Job::NBest(n) => Answer::Moves(engine.think_best(start, Some(&flag), n, on_iteration)),
                Job::Balance(count, bias) => Answer::Balance(engine.balance(count, bias, Some(&flag))),
                Job::Swap2(0) => Answer::Swap2Opening(engine.balance_opening(start, Some(&flag))),
                Job::Swap2(_) => Answer::Swap2(engine.swap2_decision(start, &flag, on_iteration)),
                Job::Opening(step, negotiation) => {
                    let before = negotiation.stones().len();
                    let action = engine.negotiate(&negotiation, start, &flag);
                    Answer::Opening(action.map(|a| step.reply_lines(&a, before)).unwrap_or_default())
                }
                Job::YixinSwap2(1) => Answer::YixinSwap2Opening(engine.balance_opening(start, Some(&flag))),
                Job::YixinSwap2(step) => Answer::YixinSwap2(step, engine.swap2_decision(start, &flag, on_iteration)),
            };
            if let Answer::Moves(reports) = &answer
                && let Some(r) = reports.first()
            {
                log::info!("move {}", summary(r));
            }
            (engine, answer)
        });
        Thinking { handle, stop, iterations, ponder: false }
    }

    /// Starts pondering: a search for the side to move (the opponent) with no clock, until it is stopped.
    pub(super) fn ponder(mut engine: Engine) -> Thinking {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let (_sender, iterations) = mpsc::channel();
        let handle = std::thread::spawn(move || {
            let limits = crate::search::SearchLimits { stop: Some(&flag), ..crate::search::SearchLimits::default() };
            let report = engine.think_with(&limits, |_| {});
            (engine, Answer::Moves(vec![report]))
        });
        Thinking { handle, stop, iterations, ponder: true }
    }

    /// Asks the search to stop (it answers with what it has).
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Plays the move an answer gives on the engine's board: the first report's move, or swap2's move on three or
/// five stones. The search chose it among the legal moves, so the game takes it.
pub(super) fn play_answer(engine: &mut Engine, answer: &Answer) {
    let m = match answer {
        Answer::Moves(reports) => reports.first().and_then(|r| r.best),
        Answer::Swap2(Swap2Decision::Play(m)) => Some(*m),
        _ => None,
    };
    if let Some(m) = m {
        let side = engine.side_to_move();
        if let Err(e) = engine.play(m, side) {
            log::warn!("the answer {},{} was not played: {e}", m.x, m.y);
        }
    }
}
