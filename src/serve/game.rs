//! One game of the browser board: its moves and redo list, the engine that judges and answers them, the engine's
//! evaluations for the graph, its threats, and the background analysis and review it starts and stops
//! ([`super::analysis`]).

use super::Refused;
use super::analysis::{Analysis, Evals, GAME_HASH_BYTES, Review, lock, verdict, win_rate};
use super::opening::OpeningSession;
use super::study::Study;
use crate::engine::Engine;
use crate::opening_rule::{OpeningRule, Player};
use crate::pattern::{MoveOutcome, Pattern4, PatternBoard};
use crate::search::Report;
use crate::search::time::Clock;
use crate::threat::{Limits, Solution, Vcf, VcfOptions, Vct, VctOptions};
use crate::types::{Color, Pos, Rule};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest an engine move may be asked to take.
pub const MAX_THINK_MS: u64 = 60_000;
/// Budget of the threat solvers behind the threats overlay.
const THREAT_MS: u64 = 500;

/// One game.
pub struct Game {
    engine: Engine,
    moves: Vec<Pos>,
    redo: Vec<Pos>,
    /// Black's win rate after so many moves of the line (moves and redo list), from the engine's searches.
    evals: Arc<Mutex<Evals>>,
    analysis: Option<Analysis>,
    review: Option<Review>,
    /// The opening rule being (or last) negotiated.
    opening: Option<OpeningSession>,
    /// The tree of variations the game's line belongs to, when a library or SGF tree was opened.
    study: Option<Study>,
}

impl Game {
    /// A new empty game.
    ///
    /// # Errors
    /// An unsupported board size.
    pub fn new(size: usize, rule: Rule) -> Result<Game, Refused> {
        let mut engine = Engine::new(size, rule).map_err(|e| Refused::new(400, format!("board size {size}: {e}")))?;
        engine.set_hash_bytes(GAME_HASH_BYTES);
        Ok(Game {
            engine,
            moves: Vec::new(),
            redo: Vec::new(),
            evals: Arc::default(),
            analysis: None,
            review: None,
            opening: None,
            study: None,
        })
    }

    /// The bytes of transposition table the game's engine holds: none until it first searches (an engine move),
    /// then [`GAME_HASH_BYTES`] until the game goes. (A running analysis or review holds its own, while it runs.)
    pub fn table_bytes(&self) -> usize {
        self.engine.hash_allocated_bytes()
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.engine.board().size()
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.engine.board().rule()
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Pos] {
        &self.moves
    }

    /// Parses a point in `h8` notation (or `x,y`) for this board.
    ///
    /// # Errors
    /// A 400 naming what is wrong.
    pub fn point(&self, text: &str) -> Result<Pos, Refused> {
        let size = self.size();
        if let Some((x, y)) = text.split_once(',') {
            let (Ok(x), Ok(y)) = (x.trim().parse::<usize>(), y.trim().parse::<usize>()) else {
                return Err(Refused::new(400, format!("bad point '{text}'")));
            };
            let p = Pos::new(x.min(255), y.min(255));
            return if x < size && y < size {
                Ok(p)
            } else {
                Err(Refused::new(400, format!("{text} is off the board")))
            };
        }
        Pos::parse(text, size).map_err(|e| Refused::new(400, format!("bad point '{text}': {e}")))
    }

    /// Plays `p` for the side to move. A point that is taken or off the board, a move after the end, and in renju
    /// a point forbidden for Black are refused (the game stays as it was). The redo list is cleared unless `p` is
    /// its next move.
    ///
    /// # Errors
    /// A 409 saying why.
    pub fn play(&mut self, p: Pos) -> Result<(), Refused> {
        let side = self.engine.side_to_move();
        let size = self.size();
        if self.engine.winner().is_some() || self.moves.len() >= size * size {
            return Err(Refused::new(409, "the game is over"));
        }
        let mut pb: PatternBoard = self.engine.board().clone();
        if !p.on_board(size) {
            return Err(Refused::new(409, "the point is off the board"));
        }
        if !pb.board().is_empty(p) {
            return Err(Refused::new(409, format!("{} is taken", p.notation(size))));
        }
        if side == Color::Black
            && !pb.is_five(side, p)
            && let Some(kind) = pb.forbidden_kind(p)
        {
            return Err(Refused::new(409, format!("{} is forbidden for Black ({kind})", p.notation(size))));
        }
        match self.engine.play(p, side) {
            Ok(MoveOutcome::Illegal) => return Err(Refused::new(409, "illegal move")),
            Ok(_) => {}
            Err(e) => return Err(Refused::new(409, e.to_string())),
        }
        self.stop_analysis();
        if self.redo.last() == Some(&p) {
            self.redo.pop();
        } else if !self.redo.is_empty() {
            // Off the line: what came after this position belongs to another game. (A move past the line's end
            // only extends it, and a review of its first moves goes on.)
            self.redo.clear();
            lock(&self.evals).branch(self.moves.len());
        }
        self.moves.push(p);
        if let Some(study) = &mut self.study {
            // The line is a path of the tree (a new move a new variation); redo follows its first variation.
            study.follow(&self.moves);
            self.redo = study.main_line(study.at).into_iter().rev().collect();
        }
        Ok(())
    }

    /// Takes back the last move (it can be redone).
    ///
    /// # Errors
    /// A 409 when there is no move.
    pub fn undo(&mut self) -> Result<(), Refused> {
        if self.moves.is_empty() {
            return Err(Refused::new(409, "no move to take back"));
        }
        self.engine.undo().map_err(|e| Refused::new(409, e.to_string()))?;
        self.stop_analysis();
        if let Some(p) = self.moves.pop() {
            self.redo.push(p);
        }
        if let Some(study) = &mut self.study {
            study.follow(&self.moves);
        }
        Ok(())
    }

    /// Plays the last move taken back again.
    ///
    /// # Errors
    /// A 409 when there is none.
    pub fn redo(&mut self) -> Result<(), Refused> {
        let Some(&p) = self.redo.last() else { return Err(Refused::new(409, "no move to redo")) };
        self.play(p)
    }

    /// Goes to the position after `ply` moves of the game (its moves and redo list together), by undo and redo.
    ///
    /// # Errors
    /// A 400 when the game has no such position.
    pub fn go_to(&mut self, ply: usize) -> Result<(), Refused> {
        if ply > self.moves.len() + self.redo.len() {
            return Err(Refused::new(400, format!("the game has {} moves", self.moves.len() + self.redo.len())));
        }
        while self.moves.len() > ply {
            self.undo()?;
        }
        while self.moves.len() < ply {
            self.redo()?;
        }
        Ok(())
    }

    /// Replaces the game with `moves` from the empty board (under `rule` and `size` when given).
    ///
    /// # Errors
    /// A 400 naming the first move that cannot be played; the game is then left as it was.
    pub fn load(&mut self, size: usize, rule: Rule, moves: &[Pos]) -> Result<(), Refused> {
        let mut fresh = Game::new(size, rule)?;
        for (i, &p) in moves.iter().enumerate() {
            fresh
                .play(p)
                .map_err(|e| Refused::new(400, format!("move {} ({}): {}", i + 1, p.notation(size), e.message)))?;
        }
        self.stop_analysis();
        *self = fresh;
        Ok(())
    }

    /// The tree of variations, when the game has one.
    pub fn study(&self) -> Option<&Study> {
        self.study.as_ref()
    }

    /// The tree of variations to change.
    ///
    /// # Errors
    /// A 409 when the game has none.
    pub fn study_mut(&mut self) -> Result<&mut Study, Refused> {
        self.study.as_mut().ok_or_else(|| Refused::new(409, "the game has no tree: open a library or start one"))
    }

    /// Replaces the game with the tree `study` (on a board of `size` under `rule`), at its root; redo follows its
    /// first variation.
    ///
    /// # Errors
    /// An unsupported board size.
    pub fn open_study(&mut self, size: usize, rule: Rule, study: Study) -> Result<(), Refused> {
        self.load(size, rule, &[])?;
        self.redo = study.main_line(study.at).into_iter().rev().collect();
        self.study = Some(study);
        Ok(())
    }

    /// Makes the game's line (its moves and redo list) the first line of a new tree.
    pub fn start_study(&mut self) {
        let mut study = Study::new(crate::gametree::Tree::new(self.size()), None);
        study.tree.rule = Some(self.rule());
        let line: Vec<Pos> = self.moves.iter().chain(self.redo.iter().rev()).copied().collect();
        study.follow(&line);
        study.follow(&self.moves);
        self.study = Some(study);
    }

    /// Goes to node `node` of the tree: the game's line becomes the moves that lead there.
    ///
    /// # Errors
    /// A 409 without a tree, a 400 for a node that does not exist or a line that cannot be played (a library
    /// may hold one); the game then stays where it was.
    pub fn select(&mut self, node: u64) -> Result<(), Refused> {
        let mut study = self.study.take().ok_or_else(|| Refused::new(409, "the game has no tree"))?;
        let result = study.node_id(node).and_then(|id| {
            let moves = study.tree.moves(id);
            self.load(self.size(), self.rule(), &moves)
        });
        if result.is_ok() {
            study.follow(&self.moves);
            self.redo = study.main_line(study.at).into_iter().rev().collect();
        }
        self.study = Some(study);
        result
    }

    /// Whether an opening rule is being negotiated (moves wait until it is settled).
    pub fn opening_under_way(&self) -> bool {
        self.opening.as_ref().is_some_and(OpeningSession::under_way)
    }

    /// Starts negotiating `rule` from an empty board with the person as `person` (the engine's steps take `ms`
    /// each); the board shows the stones as they are placed.
    ///
    /// # Errors
    /// A rule that does not fit the board.
    pub fn start_opening(&mut self, rule: OpeningRule, person: Player, ms: u64) -> Result<Value, Refused> {
        let gomoku = rule.game_rule(self.rule());
        let session = OpeningSession::start(rule, self.size(), gomoku, person, ms.clamp(1, MAX_THINK_MS))?;
        self.show_opening(session)
    }

    /// The person's answer to their opening step (then the engine's steps).
    ///
    /// # Errors
    /// No negotiation, not the person's turn, or an answer that cannot be read or breaks the rule.
    pub fn answer_opening(&mut self, text: &str) -> Result<Value, Refused> {
        let mut session = self.opening.take().ok_or_else(|| Refused::new(409, "no opening is being negotiated"))?;
        let answered = session.answer(text);
        let shown = self.show_opening(session);
        answered.and(shown)
    }

    /// Puts the negotiation's stones on the board and keeps the session.
    fn show_opening(&mut self, session: OpeningSession) -> Result<Value, Refused> {
        let stones = session.stones().to_vec();
        let rule = session.rule().game_rule(self.rule());
        let loaded = self.load(self.size(), rule, &stones);
        self.opening = Some(session);
        loaded.map(|()| self.opening_json())
    }

    /// The negotiation as JSON (`null` when none).
    pub fn opening_json(&self) -> Value {
        self.opening.as_ref().map_or(Value::Null, OpeningSession::json)
    }

    /// The engine's move for the side to move in about `ms` milliseconds, played on the board, with its report.
    ///
    /// # Errors
    /// A 409 when the game is over or the board has no move.
    pub fn engine_move(&mut self, ms: u64) -> Result<Value, Refused> {
        if self.engine.winner().is_some() {
            return Err(Refused::new(409, "the game is over"));
        }
        self.stop_analysis();
        let side = self.engine.side_to_move();
        self.engine.configure(|s| s.clock = Clock { turn_ms: ms.clamp(1, MAX_THINK_MS), match_ms: 0, left_ms: None });
        // The opening book's move at once while the game is in it.
        let report = match self.engine.book_move(Instant::now()) {
            Some(report) => report,
            None => self.engine.think(None, |_| {}),
        };
        let Some(best) = report.best else { return Err(Refused::new(409, "no legal move")) };
        let stones = self.moves.len();
        lock(&self.evals).set(stones, win_rate(report.score, side, self.rule(), stones));
        let info = self.report_json(&report, side, stones);
        self.play(best)?;
        Ok(info)
    }

    /// Starts analysing the position in the background (stopping an earlier analysis): the search deepens, the
    /// best line and the candidates are published for [`Game::analysis_json`].
    pub fn start_analysis(&mut self) -> Result<(), Refused> {
        self.stop_analysis();
        if self.engine.winner().is_some() {
            return Err(Refused::new(409, "the game is over"));
        }
        let analysis = Analysis::start(self.size(), self.rule(), &self.moves).map_err(|e| Refused::new(409, e))?;
        self.analysis = Some(analysis);
        Ok(())
    }

    /// Stops the analysis, if one runs.
    pub fn stop_analysis(&mut self) {
        if let Some(analysis) = self.analysis.take() {
            let ply = analysis.ply;
            if let Some(report) = analysis.stop() {
                lock(&self.evals).set(ply, win_rate(report.score, Color::to_move(ply), self.rule(), ply));
            }
        }
    }

    /// Starts evaluating every position of the line (moves and redo list) at `ms` each, in the background, for the
    /// graph (stopping an earlier review).
    ///
    /// # Errors
    /// A move the engine does not accept (not expected: the game's moves were checked when played).
    pub fn start_review(&mut self, ms: u64) -> Result<(), Refused> {
        self.review = None;
        let line: Vec<Pos> = self.moves.iter().chain(self.redo.iter().rev()).copied().collect();
        let review =
            Review::start(self.size(), self.rule(), line, ms, &self.evals).map_err(|e| Refused::new(409, e))?;
        self.review = Some(review);
        Ok(())
    }

    /// Stops the review, if one runs (the evaluations it made stay).
    pub fn stop_review(&mut self) {
        self.review = None;
    }

    /// How far the review has come: positions done of all, whether it runs, its time per position.
    pub fn review_json(&self) -> Value {
        self.review.as_ref().map_or_else(
            || json!({ "running": false }),
            |r| {
                let (done, running) = r.read();
                json!({ "running": running, "done": done, "total": r.total, "ms": r.ms })
            },
        )
    }

    /// What the analysis has found so far (`running: false` when none runs or it has ended).
    pub fn analysis_json(&self) -> Value {
        let Some(analysis) = &self.analysis else { return json!({ "running": false }) };
        let (running, report, candidates) = analysis.read();
        let side = Color::to_move(analysis.ply);
        let (rule, ply) = (self.rule(), analysis.ply);
        let mut out = report.as_ref().map_or_else(|| json!({}), |r| self.report_json(r, side, ply));
        out["running"] = json!(running);
        out["ply"] = json!(analysis.ply);
        out["candidates"] = candidates
            .iter()
            .filter_map(|r| {
                let best = r.best?;
                Some(json!({
                    "move": best.notation(self.size()),
                    "winRate": win_rate(r.score, side, rule, ply),
                    "verdict": verdict(r.score, side, rule, ply),
                    "score": r.score,
                }))
            })
            .collect();
        out
    }

    /// A search report of the position after `stones` moves as JSON: the move, the score for the side to move,
    /// Black's win rate and the verdict a player reads (`Black 62%`, `White wins in 3`), depth, nodes, time and the
    /// principal variation.
    fn report_json(&self, report: &Report, side: Color, stones: usize) -> Value {
        let (size, rule) = (self.size(), self.rule());
        json!({
            "best": report.best.map(|p| p.notation(size)),
            "score": report.score,
            "winRate": win_rate(report.score, side, rule, stones),
            "verdict": verdict(report.score, side, rule, stones),
            "depth": report.depth,
            "nodes": report.nodes,
            "ms": report.elapsed.as_millis() as u64,
            "source": report.source,
            "pv": report.pv.iter().map(|p| p.notation(size)).collect::<Vec<_>>(),
        })
    }

    /// Both sides' threats as if each had the move: the points where it would make a five, a four, an open three
    /// (in renju, Black's forbidden points are none of these), and a VCF and a VCT line (attacker and defender
    /// alternately) when the solvers find one within their budget.
    pub fn threats_json(&self) -> Value {
        let size = self.size();
        let names = |ps: &[Pos]| ps.iter().map(|p| p.notation(size)).collect::<Vec<_>>();
        let mut out = json!({});
        for c in Color::BOTH {
            let mut pb = self.engine.board().clone();
            let (mut fives, mut fours, mut threes, mut unsure) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            pb.for_each_empty(|p, classes| match classes[c.index()] {
                Pattern4::Five => fives.push(p),
                Pattern4::Block4 | Pattern4::Block4Plus | Pattern4::Block4Flex3 | Pattern4::Flex4 => fours.push(p),
                Pattern4::Flex3 | Pattern4::Flex3Plus | Pattern4::Flex3x2 => threes.push(p),
                Pattern4::Forbidden => unsure.push(p),
                _ => {}
            });
            // A double-three candidate that is not forbidden after all still makes an open three.
            threes.extend(unsure.into_iter().filter(|&p| pb.forbidden_kind(p).is_none()));
            threes.sort_unstable();
            let deadline = Some(Instant::now() + Duration::from_millis(THREAT_MS));
            let limits = Limits { nodes: 2_000_000, deadline, abort: None };
            let line = |s: Solution| match s {
                Solution::Win(line) => json!(names(&line)),
                Solution::None | Solution::Unknown => Value::Null,
            };
            let vcf = line(Vcf::new(c, VcfOptions { limits, ..VcfOptions::default() }).solve(&mut pb));
            let vct = if vcf.is_null() {
                line(Vct::new(c, VctOptions { limits, ..VctOptions::default() }).solve(&mut pb))
            } else {
                vcf.clone()
            };
            out[if c == Color::Black { "black" } else { "white" }] = json!({
                "five": names(&fives), "four": names(&fours), "three": names(&threes), "vcf": vcf, "vct": vct,
            });
        }
        out
    }

    /// The whole game as JSON: board size, rule, moves, redo list, side to move, result, Black's forbidden points
    /// with their kind (renju), the evaluations and whether an analysis runs.
    pub fn state_json(&self) -> Value {
        let size = self.size();
        let mut pb = self.engine.board().clone();
        let forbidden: Vec<Value> = if self.rule().has_forbidden() && self.engine.winner().is_none() {
            pb.forbidden_points()
                .into_iter()
                .filter_map(|p| {
                    let kind = pb.forbidden_kind(p)?;
                    Some(json!({ "point": p.notation(size), "kind": kind.to_string() }))
                })
                .collect()
        } else {
            Vec::new()
        };
        let result = match self.engine.winner() {
            Some(Color::Black) => json!("black"),
            Some(Color::White) => json!("white"),
            None if self.moves.len() >= size * size => json!("draw"),
            None => Value::Null,
        };
        json!({
            "size": size,
            "rule": self.rule().name(),
            "moves": self.moves.iter().map(|p| p.notation(size)).collect::<Vec<_>>(),
            "redo": self.redo.iter().rev().map(|p| p.notation(size)).collect::<Vec<_>>(),
            "toMove": if self.engine.side_to_move() == Color::Black { "black" } else { "white" },
            "result": result,
            "forbidden": forbidden,
            "evals": lock(&self.evals).points().iter().map(|(&ply, &w)| json!([ply, w])).collect::<Vec<_>>(),
            "analysing": self.analysis.is_some(),
            "review": self.review_json(),
            "opening": self.opening_json(),
            "tree": self.study.as_ref().map(|s| s.json(size)),
            "book": self.engine.book_moves().iter().map(|m| json!({
                "move": m.point.notation(size), "score": m.score, "depth": m.depth,
                "winRate": win_rate(m.score, self.engine.side_to_move(), self.rule(), self.moves.len()),
            })).collect::<Vec<_>>(),
        })
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        self.stop_analysis();
    }
}
