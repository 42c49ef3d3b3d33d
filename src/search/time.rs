//! Time: a budget per move from the protocol's clock values, and the manager that decides after each iteration
//! whether to start another.
//!
//! A budget has an optimum (what a move should take) and a maximum (where the search stops, whatever it is doing).
//! Under a turn limit alone the two are equal: time not used is lost, so the search runs to the maximum and the
//! move comes from the last iteration's best move so far. When the match clock is the tighter limit the optimum is
//! the clock's share for this move; the manager's target is the optimum made smaller when the best move has been
//! stable and larger when it changes or the score drops. No iteration starts past the target, and one that runs
//! long is cut a little after it ([`Manager::cut`], never past the maximum): its best root move so far still
//! counts, so the move spends about its target rather than stopping where it predicts the next iteration cannot
//! finish (which left half of the clock unspent).

use super::params::{MATCH_MARGIN_MS, Params, TURN_MARGIN_DIV, TURN_MARGIN_MS};
use crate::types::Pos;
use std::time::{Duration, Instant};

/// The clock values a manager sends (`INFO timeout_turn`, `timeout_match`, `time_left`), in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Most time per move (0: answer at once).
    pub turn_ms: u64,
    /// Match time (0: unlimited).
    pub match_ms: u64,
    /// Match time left, when the manager sent it (it can be negative).
    pub left_ms: Option<i64>,
}

impl Default for Clock {
    /// Gomocup's usual freestyle control: 5 s a move, 180 s a game.
    fn default() -> Clock {
        Clock { turn_ms: 5_000, match_ms: 180_000, left_ms: None }
    }
}

/// Kept back from a turn of `turn_ms`: process start-up, output, the scheduler of a busy machine and the judge's
/// own clock. It grows with the turn (a twelfth of it) between 10 ms and 250 ms.
#[must_use]
pub fn margin_ms(turn_ms: u64) -> u64 {
    (turn_ms / TURN_MARGIN_DIV).clamp(TURN_MARGIN_MS.0, TURN_MARGIN_MS.1)
}

/// The limits of one move's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// What the move should take: the manager's target, scaled by how settled the search is.
    pub optimum: Duration,
    /// The search stops after this long.
    pub maximum: Duration,
}

impl Budget {
    /// The two limits as instants from `start`.
    #[must_use]
    pub fn deadlines(&self, start: Instant) -> (Instant, Instant) {
        (start + self.optimum, start + self.maximum)
    }
}

impl Clock {
    /// The budget of the next move. `stones` is the number of stones on the board (games rarely outlast ~225);
    /// `params` say over how many moves the match clock is spread.
    #[must_use]
    pub fn budget(&self, stones: usize, params: &Params) -> Budget {
        let turn = self.turn_ms;
        // The unlimited sentinel pair of Yixin-Board, and "no limit" values.
        let left = match self.left_ms {
            Some(l) if l >= 2_147_483_647 => None,
            Some(l) => Some(l.max(0) as u64),
            None if self.match_ms > 0 => Some(self.match_ms),
            None => None,
        };
        let turn_cap = turn.saturating_sub(margin_ms(turn));
        let (optimum, maximum) = match left {
            Some(left) => {
                let usable = left.saturating_sub(MATCH_MARGIN_MS.min(left / 10));
                let moves_to_go = (params.moves_to_go.max(1) as u64)
                    .saturating_sub(stones as u64 / params.moves_to_go_stones.max(1) as u64)
                    .max(params.min_moves_to_go.max(1) as u64);
                let share = usable / moves_to_go;
                let maximum = turn_cap.min(usable / 3).min(share * 3);
                (turn_cap.min(share).min(maximum), maximum)
            }
            None => (turn_cap, turn_cap),
        };
        Budget { optimum: Duration::from_millis(optimum), maximum: Duration::from_millis(maximum.max(optimum)) }
    }
}

/// Decides after each completed iteration whether the search goes on.
#[derive(Clone, Debug)]
pub struct Manager {
    start: Instant,
    optimum: Duration,
    maximum: Duration,
    /// The best move of the last iteration, and for how many iterations in a row it has been best.
    best: Option<Pos>,
    stable: u32,
    /// The last iteration's score.
    score: Option<i32>,
    /// The factors on the optimum by the best move's stability (hundredths).
    stability: [i32; 5],
    /// The factors on the optimum when the score fell by more than the bounds (hundredths).
    falling: [(i32, i32); 2],
    /// How far past its target an iteration may run before it is cut (hundredths of the target).
    stretch: i32,
    /// Where the running iteration is cut (since the start), once the manager has set a target.
    cut: Option<Duration>,
}

impl Manager {
    /// A manager for a search that started at `start` with `optimum` and `maximum` as instants (none: no limit),
    /// spending by the factors of `params`.
    #[must_use]
    pub fn new(start: Instant, optimum: Option<Instant>, maximum: Option<Instant>, params: &Params) -> Manager {
        let far = Duration::from_secs(1 << 30);
        let since = |i: Option<Instant>| i.map_or(far, |i| i.saturating_duration_since(start));
        let maximum = since(maximum);
        Manager {
            start,
            optimum: since(optimum).min(maximum),
            maximum,
            best: None,
            stable: 0,
            score: None,
            stability: [
                params.stability_0,
                params.stability_1,
                params.stability_2,
                params.stability_3,
                params.stability_4,
            ],
            falling: [(params.falling_drop, params.falling_factor), (params.slipping_drop, params.slipping_factor)],
            stretch: params.cut_percent,
            cut: None,
        }
    }

    /// Where the iteration the search goes on with is cut, as time since the start: a share past the target set by
    /// the last [`Manager::stop_after`], never past the maximum (none under a turn limit alone, or before the first
    /// iteration ends: the maximum holds there).
    #[must_use]
    pub fn cut(&self) -> Option<Duration> {
        self.cut
    }

    /// An instant a share of the optimum from now (`div` its divisor), never past the maximum: the deadline of a
    /// task the search makes room for between iterations.
    #[must_use]
    pub fn share_from_now(&self, div: u32) -> Instant {
        let now = self.start.elapsed();
        self.start + (now + self.optimum / div.max(1)).min(self.maximum)
    }

    /// Records an iteration that ended now with `best` and `score`; whether to stop rather than start another.
    pub fn stop_after(&mut self, best: Option<Pos>, score: i32) -> bool {
        self.stop_after_at(best, score, self.start.elapsed())
    }

    /// [`Manager::stop_after`] at `elapsed` since the start.
    pub fn stop_after_at(&mut self, best: Option<Pos>, score: i32, elapsed: Duration) -> bool {
        self.stable = if best == self.best { self.stable + 1 } else { 0 };
        self.best = best;
        let drop = self.score.map_or(0, |s| s - score);
        self.score = Some(score);
        if self.optimum >= self.maximum {
            // A turn limit alone: the search uses all of it (a stopped iteration still gives its best move).
            return elapsed >= self.maximum;
        }
        let stability = f64::from(self.stability[(self.stable as usize).min(self.stability.len() - 1)]) / 100.0;
        let falling = self.falling.iter().find(|&&(bound, _)| drop > bound).map_or(1.0, |&(_, f)| f64::from(f) / 100.0);
        let target = self.optimum.mul_f64(stability * falling).min(self.maximum);
        self.cut = Some(target.mul_f64(f64::from(self.stretch.max(100)) / 100.0).min(self.maximum));
        elapsed >= target
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_turn_limit_alone_is_used_to_its_margin() {
        let b = Clock { turn_ms: 500, match_ms: 0, left_ms: None }.budget(0, &Params::DEFAULT);
        assert_eq!(b.maximum, ms(500 - margin_ms(500)));
        assert_eq!(b.optimum, b.maximum);
        assert!(margin_ms(500) >= 30 && margin_ms(500) <= 50, "a tenth of a 0.5 s turn is too much");
        assert!(margin_ms(100) >= 10 && margin_ms(60_000) <= 250);
    }

    #[test]
    fn the_match_clock_is_shared_over_the_moves_to_come() {
        let clock = Clock { turn_ms: 30_000, match_ms: 10_000, left_ms: Some(10_000) };
        let b = clock.budget(10, &Params::DEFAULT);
        assert!(b.maximum < ms(10_000 / 3), "{b:?}");
        assert!(b.optimum > Duration::ZERO && b.optimum < b.maximum, "{b:?}");
        let late = Clock { left_ms: Some(100), ..clock }.budget(100, &Params::DEFAULT);
        assert!(late.maximum <= ms(34), "{late:?}");
        let out = Clock { left_ms: Some(-5), ..clock }.budget(100, &Params::DEFAULT);
        assert_eq!(out.maximum, Duration::ZERO);
    }

    /// The clock left after `moves` moves of ours that each take their optimum (the opponent's moves in between),
    /// and the least optimum of them.
    fn spend(clock: Clock, moves: usize) -> (u64, Duration) {
        let mut left = clock.match_ms;
        let mut least = Duration::MAX;
        for k in 0..moves {
            let b = Clock { left_ms: Some(left as i64), ..clock }.budget(3 + 2 * k, &Params::DEFAULT);
            least = least.min(b.optimum);
            left -= b.optimum.as_millis() as u64;
        }
        (left, least)
    }

    #[test]
    fn the_match_clock_is_spent_over_a_game_of_usual_length_and_lasts_a_long_one() {
        // A fifth of Gomocup's fastgame (1 s, 24 s), fastgame itself, and the final league's control.
        for (turn_ms, match_ms) in [(1_000, 24_000), (5_000, 120_000), (300_000, 1_000_000)] {
            let clock = Clock { turn_ms, match_ms, left_ms: None };
            // A game of 25 moves a side leaves at most a quarter of the clock unspent…
            let (left, _) = spend(clock, 25);
            assert!(left <= match_ms / 4, "{turn_ms}/{match_ms}: {left} ms left after 25 moves");
            // …and one of 100 moves a side still has time for every move.
            let (left, least) = spend(clock, 100);
            assert!(left > 0 && least >= Duration::from_millis(match_ms / 20_000), "{turn_ms}/{match_ms}: {least:?}");
        }
    }

    #[test]
    fn zero_turn_time_means_answer_at_once() {
        let b = Clock { turn_ms: 0, match_ms: 0, left_ms: None }.budget(0, &Params::DEFAULT);
        assert_eq!(b, Budget { optimum: Duration::ZERO, maximum: Duration::ZERO });
    }

    #[test]
    fn no_match_limit_sentinel() {
        let b = Clock { turn_ms: 1_000, match_ms: 0, left_ms: Some(2_147_483_647) }.budget(0, &Params::DEFAULT);
        assert_eq!(b.maximum, ms(1_000 - margin_ms(1_000)));
    }

    #[test]
    fn under_a_turn_limit_alone_iterations_go_on_to_the_maximum() {
        let start = Instant::now();
        let mut m = Manager::new(start, Some(start + ms(400)), Some(start + ms(400)), &Params::DEFAULT);
        let p = Some(Pos::new(7, 7));
        for (i, t) in [10, 30, 90, 270].into_iter().enumerate() {
            assert!(!m.stop_after_at(p, i as i32, ms(t)), "stopped at {t} ms");
        }
        assert!(m.stop_after_at(p, 0, ms(400)));
    }

    #[test]
    fn a_stable_best_move_stops_early_and_a_changing_one_spends_more() {
        let start = Instant::now();
        let (opt, max) = (Some(start + ms(100)), Some(start + ms(1_000)));
        let p = Some(Pos::new(7, 7));
        let mut stable = Manager::new(start, opt, max, &Params::DEFAULT);
        let ends = [5, 10, 20, 40, 80];
        let stopped = ends.iter().position(|&t| stable.stop_after_at(p, 0, ms(t)));
        // Five iterations with one best move: the target falls to 70 ms, passed at 80 ms.
        assert_eq!(stopped, Some(4));
        let mut changing = Manager::new(start, opt, max, &Params::DEFAULT);
        for (i, &t) in ends.iter().enumerate() {
            let best = Some(Pos::new(i, 7));
            assert!(!changing.stop_after_at(best, 0, ms(t)), "a new best move at every iteration stopped at {t} ms");
        }
    }

    #[test]
    fn an_iteration_that_runs_long_is_cut_past_its_target_never_past_the_maximum() {
        let start = Instant::now();
        let p = Some(Pos::new(7, 7));
        let mut m = Manager::new(start, Some(start + ms(400)), Some(start + ms(1_000)), &Params::DEFAULT);
        assert_eq!(m.cut(), None, "before an iteration ends the maximum holds");
        // 300 ms an iteration: the next one starts (the old rule stopped here, predicting it ends after 1 s)…
        assert!(!m.stop_after_at(p, 0, ms(100)));
        assert!(!m.stop_after_at(None, 0, ms(400)), "a new best move lifts the target to 600 ms");
        // …and is cut a share past its target.
        let cut = m.cut().expect("a target is set");
        assert_eq!(cut, ms(600).mul_f64(f64::from(Params::DEFAULT.cut_percent) / 100.0).min(ms(1_000)));
        assert!(cut > ms(600) && cut <= ms(1_000), "{cut:?}");
        let mut near = Manager::new(start, Some(start + ms(900)), Some(start + ms(1_000)), &Params::DEFAULT);
        assert!(!near.stop_after_at(None, 0, ms(100)));
        assert_eq!(near.cut(), Some(ms(1_000)), "never past the maximum");
        let mut turn = Manager::new(start, Some(start + ms(500)), Some(start + ms(500)), &Params::DEFAULT);
        assert!(!turn.stop_after_at(p, 0, ms(100)));
        assert_eq!(turn.cut(), None, "a turn limit alone: the search runs to the maximum");
    }

    #[test]
    fn a_share_of_the_optimum_from_now_never_passes_the_maximum() {
        let start = Instant::now();
        let m = Manager::new(start, Some(start + ms(400)), Some(start + ms(900)), &Params::DEFAULT);
        let half = m.share_from_now(2);
        assert!(half >= start + ms(200) && half <= start + ms(900), "{:?}", half - start);
        assert!(m.share_from_now(0) <= start + ms(900), "a divisor of 0 counts as 1");
        let short = Manager::new(start, Some(start + ms(400)), Some(start + ms(50)), &Params::DEFAULT);
        assert_eq!(short.share_from_now(1), start + ms(50), "capped at the maximum");
    }

    #[test]
    fn a_falling_score_spends_more() {
        let start = Instant::now();
        let (opt, max) = (Some(start + ms(100)), Some(start + ms(1_000)));
        let p = Some(Pos::new(7, 7));
        let run = |scores: [i32; 4]| {
            let mut m = Manager::new(start, opt, max, &Params::DEFAULT);
            [30, 50, 80, 110].iter().zip(scores).any(|(&t, s)| m.stop_after_at(p, s, ms(t)))
        };
        assert!(run([0, 0, 0, 0]), "steady: stops at 110 ms");
        assert!(!run([0, 0, 0, -100]), "a drop of 100 raises the target to 150 ms");
    }
}
