//! The opening helpers: every opening decision weighs a position by Black's expected score, a logistic curve of a
//! search's score fitted to self-play games from random openings ([`Calibration`], in `outlook.rs`; `scripts/opening-balance.sh`
//! measures it). The 26 openings and swap2's three stones are drawn among the most even; swap2's swap and the
//! choice among offers take the better side; and the look-ahead of the offer rules (White's fourth, then Black's
//! best distinct fifth moves of which White keeps the best for it) weighs openings, declarations and swaps.

use super::Engine;
use super::outlook::Calibration;
use crate::opening_rule::images;
use crate::openings::GenOptions;
use crate::pattern::PatternBoard;
use crate::search::time::Clock;
use crate::search::{Report, SearchLimits, SearchOptions, search};
use crate::types::{Color, Pos};
use rand::RngExt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Depth of the search every candidate gets, and of the look-ahead's fourth and fifth moves.
pub(super) const SCREEN_DEPTH: i32 = 4;
/// Depth of the search that weighs the candidates the screen keeps, and the positions swaps are decided on.
pub(super) const WEIGH_DEPTH: i32 = 6;
/// How many candidates the screen keeps for weighing (as many as the time allows).
pub(super) const SHORTLIST: usize = 8;
/// The most even openings and stones, this many of them, are all candidates; one is drawn at random, so that
/// negotiations vary from game to game.
pub(super) const VARIETY: usize = 4;
/// The most fifth moves the look-ahead weighs for a declaration.
pub(super) const MAX_WEIGHED_OFFERS: usize = 10;
/// The look-ahead's expected score for Black that declarations aim at, and that openings weighed with a declaration
/// (Yamaguchi, Soosõrv) are drawn nearest: White's Soosõrv declaration after its fourth, measured in
/// 52-game matches of Tengen against itself at 0.5 s a move: declaring the number of offers whose look-ahead was
/// nearest a half, Black scored 71% (37-15); nearest a quarter, 33% (16-34-2); between the two, where Black's score
/// would cross a half, lies 0.36 (the look-ahead's shallow fifth-move searches undervalue Black after its best
/// moves). Yamaguchi's openings declared nearest a half had given Black 64% (32-17-3) and 87.5% (45-6-1).
pub(super) const DECLARATION_TARGET: f64 = 0.36;
/// Swap2's first player tries this many random three-stone openings besides its fixed shapes.
const RANDOM_OPENINGS: usize = 32;

/// Stones to place, with Black's declaration when it makes one.
type Placement = (Vec<Pos>, Option<usize>);

/// What follows an opening under the rule, for weighing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ahead {
    /// The position itself (the swap comes next, or the later steps balance it).
    Nothing,
    /// White plays the fourth and Black offers this many fifth moves (White keeps the best for it).
    Offers(usize),
    /// As `Offers`, with Black declaring how many (1 to this many).
    Declare(usize),
}

/// White's answer on swap2's three or five stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Decision {
    /// Take Black (Black stands better).
    Swap,
    /// Stay White and play this move.
    Play(Pos),
    /// No legal move.
    NoMove,
}

/// The colour to move on a negotiation's board (Black first, then alternating).
pub(super) fn to_move(pb: &PatternBoard) -> Color {
    Color::to_move(pb.board().stone_count())
}

/// The number of offers (from 1) whose chance (`chances[n - 1]`, see [`Engine::offer_chances`]) is nearest
/// [`DECLARATION_TARGET`], with that chance.
pub(super) fn nearest_declaration(chances: &[f64]) -> Option<(usize, f64)> {
    let off = |c: f64| (c - DECLARATION_TARGET).abs();
    chances.iter().enumerate().min_by(|a, b| off(*a.1).total_cmp(&off(*b.1))).map(|(i, &c)| (i + 1, c))
}

/// How far an expected score is from even.
pub(super) fn distance(chance: f64) -> f64 {
    (chance - 0.5).abs()
}

/// What scores the random balanced openings ([`crate::openings::random_openings`]): after the candidate's moves, a
/// fresh engine's search of `opts.depth` plies on one thread, its score for the side to move; none when the moves
/// cannot be played.
pub fn opening_scorer(opts: &GenOptions) -> impl FnMut(&[Pos]) -> Option<i32> + use<> {
    let (size, rule, depth) = (opts.size, opts.rule, opts.depth);
    move |moves| {
        let mut engine = Engine::new(size, rule).ok()?;
        for (i, &p) in moves.iter().enumerate() {
            engine.play(p, Color::to_move(i)).ok()?;
        }
        engine.configure(|s| {
            s.max_depth = depth;
            s.search.threads = 1;
            s.clock = Clock { turn_ms: 600_000, match_ms: 0, left_ms: None };
        });
        Some(engine.think(None, |_| {}).score)
    }
}

impl Engine {
    /// The instant by which a decision that started at `start` must be made: the clock's optimum for the position.
    pub(super) fn deadline(&self, start: Instant) -> Instant {
        start + self.settings.clock.budget(self.pb.board().stone_count(), &self.settings.search.params).optimum
    }

    /// A one-thread search of `depth` plies on `pb` for the side to move, `exclude`d root moves left out, ended by
    /// `deadline` or `stop`.
    fn search_at(
        &self,
        pb: &PatternBoard,
        depth: i32,
        exclude: &[Pos],
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Report {
        let limits =
            SearchLimits { depth, optimum: deadline, maximum: deadline, stop, exclude, ..SearchLimits::default() };
        let options = SearchOptions { threads: 1, ..self.settings.search };
        search(pb, to_move(pb), self.table.get(), &limits, &options, |_| {})
    }

    /// Black's expected score on `pb` by a search of `depth` plies ([`Calibration`]). With Black to move, the
    /// position after Black's best move is weighed instead (the calibration is measured with White to move).
    pub(super) fn black_chance(
        &self,
        pb: &PatternBoard,
        depth: i32,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> f64 {
        let report = self.search_at(pb, depth, &[], deadline, stop);
        let stones = pb.board().stone_count();
        if to_move(pb) == Color::Black
            && stones > 0
            && let Some(best) = report.best
            && !pb.is_five(Color::Black, best)
        {
            let mut after = pb.clone();
            after.make(best, Color::Black);
            let white = self.search_at(&after, depth, &[], deadline, stop).score;
            return Calibration::of(pb.rule(), stones + 1).chance(-white);
        }
        let black = if to_move(pb) == Color::Black { report.score } else { -report.score };
        Calibration::of(pb.rule(), stones).chance(black)
    }

    /// Black's expected score after what follows the opening `pb` under the rule ([`Ahead`]), with Black's
    /// declaration when it makes one (the number of offers nearest to even).
    pub(super) fn chance_ahead(
        &self,
        pb: &PatternBoard,
        ahead: Ahead,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> (f64, Option<usize>) {
        let max = match ahead {
            Ahead::Nothing => 0,
            Ahead::Offers(n) => n,
            Ahead::Declare(max) => max.min(MAX_WEIGHED_OFFERS),
        };
        let chances = if max > 0 { self.offer_chances(pb, max, deadline, stop) } else { Vec::new() };
        match (ahead, chances.last()) {
            (Ahead::Offers(_), Some(&last)) => (last, None),
            // The declaration nearest the target, its chance read against the target (so that a half is even).
            (Ahead::Declare(_), Some(_)) => {
                nearest_declaration(&chances).map_or((0.5, Some(1)), |(n, c)| (c - DECLARATION_TARGET + 0.5, Some(n)))
            }
            // Nothing to look ahead at, or no time for it: the position itself.
            _ => {
                let declared = matches!(ahead, Ahead::Declare(_)).then_some(1);
                (self.black_chance(pb, WEIGH_DEPTH, Some(deadline), stop), declared)
            }
        }
    }

    /// Black's expected score when it offers its n best distinct fifth moves (each ruling out its symmetric
    /// images) and White keeps the best for it, for n = 1, 2, … up to `max`: fewer when the board or the time runs
    /// out. On three stones White's fourth is first the screening search's best.
    pub(super) fn offer_chances(
        &self,
        pb: &PatternBoard,
        max: usize,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Vec<f64> {
        let mut pb = pb.clone();
        if to_move(&pb) == Color::White {
            let Some(fourth) = self.search_at(&pb, SCREEN_DEPTH, &[], Some(deadline), stop).best else {
                return Vec::new();
            };
            pb.make(fourth, Color::White);
        }
        let mut excluded: Vec<Pos> = Vec::new();
        let mut chances: Vec<f64> = Vec::new();
        while chances.len() < max && Instant::now() < deadline && !stopped(stop) {
            let report = self.search_at(&pb, SCREEN_DEPTH, &excluded, Some(deadline), stop);
            let Some(best) = report.best.filter(|b| !excluded.contains(b)) else { break };
            excluded.extend(images(&pb, best));
            // Each offer is weighed on the board after it (the calibration of a search from the fifth move is
            // the better measured). White keeps the offer that leaves Black least.
            pb.make(best, Color::Black);
            let chance = self.black_chance(&pb, SCREEN_DEPTH, Some(deadline), stop);
            pb.undo();
            let kept = chances.last().copied().unwrap_or(1.0);
            chances.push(kept.min(chance));
        }
        chances
    }

    /// The board after `stones` are placed on the engine's position in turn, when each is an empty, legal point
    /// that makes no five.
    pub(super) fn placed(&self, stones: &[Pos]) -> Option<PatternBoard> {
        let mut pb = self.pb.clone();
        for &p in stones {
            let color = to_move(&pb);
            if !pb.board().is_empty(p) || pb.is_five(color, p) || !crate::movegen::is_legal(&mut pb, color, p) {
                return None;
            }
            pb.make(p, color);
        }
        Some(pb)
    }

    /// Among `candidates` (stones to place in turn), the ones nearest to even: each screened in turn by a search of
    /// `screen_depth` plies, then the nearest to even (all of them when the look-ahead is offers, whose weighing the
    /// screen does not foresee) weighed with what follows ([`Engine::chance_ahead`]), both while the time lasts;
    /// one is drawn among the [`VARIETY`] most even, with Black's declaration when it makes one, and Black's
    /// expected score after it (read against the declaration target when there is one).
    pub(super) fn most_even_stones(
        &mut self,
        candidates: Vec<Vec<Pos>>,
        ahead: Ahead,
        screen_depth: i32,
        start: Instant,
        stop: Option<&AtomicBool>,
    ) -> Option<(Placement, f64)> {
        let deadline = self.deadline(start);
        let declared = matches!(ahead, Ahead::Declare(_)).then_some(1);
        let mut screened: Vec<(f64, (Placement, f64))> = Vec::new();
        for stones in candidates {
            let Some(pb) = self.placed(&stones) else { continue };
            let chance = self.black_chance(&pb, screen_depth, Some(deadline), stop);
            screened.push((distance(chance), ((stones, declared), chance)));
            if stopped(stop) || Instant::now() >= deadline {
                break; // the candidates screened so far
            }
        }
        screened.sort_by(|a, b| a.0.total_cmp(&b.0));
        let shortlist = if ahead == Ahead::Nothing { SHORTLIST } else { screened.len() };
        let mut weighed: Vec<(f64, (Placement, f64))> = Vec::new();
        for (_, ((stones, _), _)) in screened.iter().take(shortlist) {
            if Instant::now() >= deadline || stopped(stop) {
                break;
            }
            let Some(pb) = self.placed(stones) else { continue };
            let (chance, declared) = self.chance_ahead(&pb, ahead, deadline, stop);
            weighed.push((distance(chance), ((stones.clone(), declared), chance)));
        }
        // No time to weigh: the screen's choice.
        self.near_best(if weighed.is_empty() { screened } else { weighed })
    }

    /// A renju opening (one of the 26) for the first player, nearest to even with what follows under the rule
    /// (`ahead`), and Black's declaration when it makes one.
    pub(super) fn renju_opening(&mut self, ahead: Ahead, start: Instant, stop: Option<&AtomicBool>) -> Placement {
        let candidates = crate::openings::renju_openings(self.pb.size(), self.pb.rule());
        self.most_even_stones(candidates, ahead, SCREEN_DEPTH, start, stop)
            .map(|(placement, _)| placement)
            .unwrap_or_default()
    }

    /// Three opening stones (Black, White, Black) near the centre for swap2's first player, nearest to even: a few
    /// fixed shapes, random stones within three points of the centre, and (since those mostly favour Black in
    /// freestyle) random openings with White next to the centre stone and Black's second stone up to five points
    /// away. The board is left as it was.
    pub fn balance_opening(&mut self, start: Instant, stop: Option<&AtomicBool>) -> Vec<Pos> {
        let c = self.pb.size() / 2;
        let (near, far) = (3.min(c), 5.min(c));
        let at = |dx: isize, dy: isize| Pos::new(c.saturating_add_signed(dx), c.saturating_add_signed(dy));
        let shapes =
            [[(0, 0), (1, 0), (-1, 2)], [(0, 0), (0, 1), (2, 2)], [(0, 0), (1, -1), (1, 2)], [(0, 0), (2, 0), (0, 3)]];
        let mut candidates: Vec<Vec<Pos>> =
            shapes.iter().map(|shape| shape.iter().map(|&(dx, dy)| at(dx, dy)).collect()).collect();
        for i in 0..RANDOM_OPENINGS {
            let mut point = |reach: usize| {
                Pos::new(
                    c - reach + self.rng.random_range(0..=2 * reach),
                    c - reach + self.rng.random_range(0..=2 * reach),
                )
            };
            let (white, black) = if i % 2 == 0 { (point(1.min(c)), point(far)) } else { (point(near), point(near)) };
            candidates.push(vec![Pos::new(c, c), white, black]);
        }
        self.most_even_stones(candidates, Ahead::Nothing, SCREEN_DEPTH, start, stop)
            .map(|((stones, _), _)| stones)
            .unwrap_or_default()
    }

    /// White to move on 3 or 5 swap2 stones: take Black when Black's expected score is above a half, else White's
    /// move.
    pub fn swap2_decision(
        &mut self,
        start: Instant,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Report),
    ) -> Swap2Decision {
        let deadline = start + (self.deadline(start) - start) / 4;
        if self.black_chance(&self.pb, WEIGH_DEPTH, Some(deadline), Some(stop)) > 0.5 {
            return Swap2Decision::Swap;
        }
        match self.think_from(start, Some(stop), on_iteration).best {
            Some(m) => Swap2Decision::Play(m),
            None => Swap2Decision::NoMove,
        }
    }

    /// Balancing moves for an opening: `count` (1 or 2) moves, the first for the side to move and the second for
    /// its opponent, chosen among the most natural moves so that the side to move's score after them (a shallow
    /// search) is nearest `bias`. The moves are not played.
    pub fn balance(&mut self, count: usize, bias: i32, stop: Option<&AtomicBool>) -> Vec<Pos> {
        const WIDTH: usize = 10;
        let side = self.side_to_move();
        let natural = |pb: &mut PatternBoard, c: Color| -> Vec<Pos> {
            let mut moves = crate::movegen::near_moves(pb, c);
            moves.sort_by_key(|&m| {
                let p4 = |k: Color| pb.pattern4(k, m) as i32;
                (std::cmp::Reverse(p4(c) * 2 + p4(c.opponent())), m.index())
            });
            moves.into_iter().take(WIDTH).collect()
        };
        let score_after = |pb: &PatternBoard| -> i32 {
            let score = self.search_at(pb, SCREEN_DEPTH, &[], None, stop).score;
            if to_move(pb) == side { score } else { -score }
        };
        let mut best: Option<(i32, Vec<Pos>)> = None;
        let mut pb = self.pb.clone();
        for first in natural(&mut pb, side) {
            if pb.is_five(side, first) {
                continue; // a five ends the game: never balanced
            }
            pb.make(first, side);
            let seconds: Vec<Option<Pos>> =
                if count >= 2 { natural(&mut pb, side.opponent()).into_iter().map(Some).collect() } else { vec![None] };
            for second in seconds {
                if let Some(s) = second {
                    if pb.is_five(side.opponent(), s) {
                        continue;
                    }
                    pb.make(s, side.opponent());
                }
                let distance = (score_after(&pb) - bias).abs();
                if second.is_some() {
                    pb.undo();
                }
                if best.as_ref().is_none_or(|(d, _)| distance < *d) {
                    best = Some((distance, std::iter::once(first).chain(second).collect()));
                }
            }
            pb.undo();
            if stopped(stop) {
                break;
            }
        }
        best.map(|(_, moves)| moves).unwrap_or_default()
    }

    /// One of `scored` (distance from even, choice) drawn at random among the [`VARIETY`] nearest to even.
    pub(super) fn near_best<T>(&mut self, mut scored: Vec<(f64, T)>) -> Option<T> {
        if scored.is_empty() {
            return None;
        }
        scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        scored.truncate(VARIETY);
        let i = self.rng.random_range(0..scored.len());
        Some(scored.swap_remove(i).1)
    }

    /// White's choice among Black's offered fifth moves: the one that leaves Black the least.
    pub(super) fn choose_offer(&mut self, offers: &[Pos], start: Instant, stop: Option<&AtomicBool>) -> Option<Pos> {
        let deadline = self.deadline(start);
        let side = self.side_to_move();
        let mut best: Option<(f64, Pos)> = None;
        for &m in offers {
            let mut pb = self.pb.clone();
            if !crate::movegen::is_legal(&mut pb, side, m) {
                continue;
            }
            if pb.is_five(side, m) {
                return Some(m); // cannot happen in a fair offer, but a five is the answer then
            }
            pb.make(m, side);
            let black = self.black_chance(&pb, WEIGH_DEPTH, Some(deadline), stop);
            if best.is_none_or(|(b, _)| black < b) {
                best = Some((black, m));
            }
        }
        best.map(|(_, m)| m)
    }
}

/// Whether `stop` is set.
pub(super) fn stopped(stop: Option<&AtomicBool>) -> bool {
    stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}
