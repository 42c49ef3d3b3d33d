//! The opening helpers: balancing stones, the 26 openings weighed, swap2's swap and the choice among offers, each
//! from shallow searches and returned as typed decisions for the protocol layer to render.

use super::{Engine, RENJU_OPENINGS};
use crate::pattern::PatternBoard;
use crate::search::{Report, SearchLimits, SearchOptions, search};
use crate::types::{Color, Pos};
use rand::RngExt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Swap2: White takes Black instead when its search score is below minus this.
pub(super) const SWAP_MARGIN: i32 = 150;
/// The most even openings and stones, this many of them, are all candidates; one is drawn at random, so that
/// negotiations vary from game to game.
pub(super) const VARIETY: usize = 4;

/// White's answer on swap2's three or five stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Decision {
    /// Take Black (White stands clearly worse).
    Swap,
    /// Stay White and play this move.
    Play(Pos),
    /// No legal move.
    NoMove,
}

impl Engine {
    /// White to move on 3 or 5 swap2 stones: swap when White stands clearly worse, else its move.
    pub fn swap2_decision(
        &mut self,
        start: Instant,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Report),
    ) -> Swap2Decision {
        let report = self.think_from(start, Some(stop), on_iteration);
        match report.best {
            Some(_) if report.score < -SWAP_MARGIN => Swap2Decision::Swap,
            Some(m) => Swap2Decision::Play(m),
            None => Swap2Decision::NoMove,
        }
    }

    /// Balancing moves for an opening: `count` (1 or 2) moves, the first for the side to move and the second for
    /// its opponent, chosen among the most natural moves so that the side to move's score after them (a shallow
    /// search) is nearest `bias`. The moves are not played.
    pub fn balance(&mut self, count: usize, bias: i32, stop: Option<&AtomicBool>) -> Vec<Pos> {
        const WIDTH: usize = 10;
        const DEPTH: i32 = 4;
        let side = self.side_to_move();
        let natural = |pb: &mut PatternBoard, c: Color| -> Vec<Pos> {
            let mut moves = crate::movegen::near_moves(pb, c);
            moves.sort_by_key(|&m| {
                let p4 = |k: Color| pb.pattern4(k, m) as i32;
                (std::cmp::Reverse(p4(c) * 2 + p4(c.opponent())), m.index())
            });
            moves.into_iter().take(WIDTH).collect()
        };
        let options = SearchOptions { threads: 1, ..self.settings.search };
        let score_after = |pb: &PatternBoard, to_move: Color| -> i32 {
            let limits = SearchLimits { depth: DEPTH, stop, ..SearchLimits::default() };
            let r = search(pb, to_move, &self.table, &limits, &options, |_| {});
            if to_move == side { r.score } else { -r.score }
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
                let to_move = if second.is_some() { side } else { side.opponent() };
                let distance = (score_after(&pb, to_move) - bias).abs();
                if second.is_some() {
                    pb.undo();
                }
                if best.as_ref().is_none_or(|(d, _)| distance < *d) {
                    best = Some((distance, std::iter::once(first).chain(second).collect()));
                }
            }
            pb.undo();
            if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break;
            }
        }
        best.map(|(_, moves)| moves).unwrap_or_default()
    }

    /// Three opening stones (Black, White, Black) near the centre whose position is nearest to even by a shallow
    /// search, for the first player of swap2. The board is left as it was.
    pub fn balance_opening(&mut self, stop: Option<&AtomicBool>) -> Vec<Pos> {
        let c = self.pb.size() / 2;
        let at = |dx: isize, dy: isize| Pos::new(c.saturating_add_signed(dx), c.saturating_add_signed(dy));
        let shapes =
            [[(0, 0), (1, 0), (-1, 2)], [(0, 0), (0, 1), (2, 2)], [(0, 0), (1, -1), (1, 2)], [(0, 0), (2, 0), (0, 3)]];
        let mut best: Option<(i32, Vec<Pos>)> = None;
        for shape in shapes {
            let stones: Vec<Pos> = shape.iter().map(|&(dx, dy)| at(dx, dy)).collect();
            let Ok(mut pb) = PatternBoard::new(self.pb.size(), self.pb.rule()) else { break };
            let mut ok = true;
            for (i, &p) in stones.iter().enumerate() {
                let color = if i % 2 == 0 { Color::Black } else { Color::White };
                ok &= pb.board().is_empty(p) && !pb.is_five(color, p);
                if ok {
                    pb.make(p, color);
                }
            }
            if !ok {
                continue;
            }
            let score = self.shallow_score(&pb, Color::White, 5, stop).abs();
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, stones));
            }
        }
        best.map(|(_, stones)| stones).unwrap_or_default()
    }

    /// A shallow search's score for `side` to move in `pb` (depth `depth`, no clock; `stop` ends it).
    pub(super) fn shallow_score(&self, pb: &PatternBoard, side: Color, depth: i32, stop: Option<&AtomicBool>) -> i32 {
        let limits = SearchLimits { depth, stop, ..SearchLimits::default() };
        let options = SearchOptions { threads: 1, ..self.settings.search };
        search(pb, side, &self.table, &limits, &options, |_| {}).score
    }

    /// A renju opening (of the 26) near even by a shallow search, as three stones: drawn among the [`VARIETY`]
    /// most even.
    pub(super) fn soosorv_opening(&mut self, stop: Option<&AtomicBool>) -> Vec<Pos> {
        let size = self.pb.size();
        let mut scored: Vec<(i32, Vec<Pos>)> = Vec::new();
        for opening in RENJU_OPENINGS {
            let stones: Vec<Pos> = opening.split_whitespace().filter_map(|w| Pos::parse(w, 15).ok()).collect();
            let Ok(mut pb) = PatternBoard::new(size, self.pb.rule()) else { break };
            let offset = (size as isize - 15) / 2;
            let stones: Vec<Pos> = stones
                .iter()
                .map(|p| Pos::new((p.x as isize + offset) as usize, (p.y as isize + offset) as usize))
                .collect();
            for (i, &p) in stones.iter().enumerate() {
                pb.make(p, if i % 2 == 0 { Color::Black } else { Color::White });
            }
            scored.push((self.shallow_score(&pb, Color::White, 4, stop).abs(), stones));
            if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break;
            }
        }
        self.near_best(scored).unwrap_or_default()
    }

    /// One of `scored` (distance from even, choice) drawn at random among the [`VARIETY`] nearest to even.
    pub(super) fn near_best<T>(&mut self, mut scored: Vec<(i32, T)>) -> Option<T> {
        if scored.is_empty() {
            return None;
        }
        scored.sort_by_key(|(d, _)| *d);
        scored.truncate(VARIETY);
        let i = self.rng.random_range(0..scored.len());
        Some(scored.swap_remove(i).1)
    }

    /// White's choice among Black's offered fifth moves: the one after which White stands best.
    pub(super) fn choose_offer(&mut self, offers: &[Pos], stop: Option<&AtomicBool>) -> Option<Pos> {
        let side = self.side_to_move();
        let mut best: Option<(i32, Pos)> = None;
        for &m in offers {
            let mut pb = self.pb.clone();
            if !crate::movegen::is_legal(&mut pb, side, m) {
                continue;
            }
            if pb.is_five(side, m) {
                return Some(m); // cannot happen in a fair offer, but a five is the answer then
            }
            pb.make(m, side);
            let white = self.shallow_score(&pb, side.opponent(), 5, stop);
            if best.is_none_or(|(s, _)| white > s) {
                best = Some((white, m));
            }
        }
        best.map(|(_, m)| m)
    }
}
