//! Time budgets from the protocol's clock values: a soft limit (do not start another iteration after it) and a
//! hard limit (stop the search and answer), both kept a safety margin inside what the manager allows.

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

/// Kept back from every budget: process start-up, output, and the scheduler of a busy machine.
pub const MARGIN_MS: u64 = 50;

/// The limits of one move's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// No new iteration starts after this long.
    pub soft: Duration,
    /// The search stops after this long.
    pub hard: Duration,
}

impl Budget {
    /// The two limits as instants from `start`.
    #[must_use]
    pub fn deadlines(&self, start: Instant) -> (Instant, Instant) {
        (start + self.soft, start + self.hard)
    }
}

/// Time left in a match of `left` ms is spread over this many further moves of ours.
const MOVES_TO_GO: u64 = 25;

impl Clock {
    /// The budget of the next move. `stones` is the number of stones on the board (games rarely outlast ~225).
    #[must_use]
    pub fn budget(&self, stones: usize) -> Budget {
        // The unlimited sentinel pair of Yixin-Board, and "no limit" values.
        let turn = if self.turn_ms == 0 { 0 } else { self.turn_ms };
        let left = match self.left_ms {
            Some(l) if l >= 2_147_483_647 => None,
            Some(l) => Some(l.max(0) as u64),
            None if self.match_ms > 0 => Some(self.match_ms),
            None => None,
        };
        let turn_cap = turn.saturating_sub(MARGIN_MS);
        let (soft, hard) = match left {
            Some(left) => {
                let usable = left.saturating_sub(MARGIN_MS);
                let moves_to_go = MOVES_TO_GO.saturating_sub(stones as u64 / 20).max(8);
                let share = usable / moves_to_go;
                let hard = turn_cap.min(usable / 3).min(share * 3);
                (turn_cap.min(share).min(hard), hard)
            }
            None => (turn_cap / 2, turn_cap),
        };
        Budget { soft: Duration::from_millis(soft), hard: Duration::from_millis(hard.max(soft)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_never_gets_more_than_the_turn_limit() {
        let clock = Clock { turn_ms: 100, match_ms: 0, left_ms: None };
        let b = clock.budget(0);
        assert!(b.hard <= Duration::from_millis(100 - MARGIN_MS), "{b:?}");
        assert!(b.soft <= b.hard);
    }

    #[test]
    fn the_match_clock_is_shared_over_the_moves_to_come() {
        let clock = Clock { turn_ms: 30_000, match_ms: 10_000, left_ms: Some(10_000) };
        let b = clock.budget(10);
        assert!(b.hard < Duration::from_millis(10_000 / 3), "{b:?}");
        assert!(b.soft > Duration::ZERO && b.soft <= b.hard);
        let late = Clock { left_ms: Some(100), ..clock }.budget(100);
        assert!(late.hard <= Duration::from_millis(34), "{late:?}");
        let out = Clock { left_ms: Some(-5), ..clock }.budget(100);
        assert_eq!(out.hard, Duration::ZERO);
    }

    #[test]
    fn zero_turn_time_means_answer_at_once() {
        let b = Clock { turn_ms: 0, match_ms: 0, left_ms: None }.budget(0);
        assert_eq!(b, Budget { soft: Duration::ZERO, hard: Duration::ZERO });
    }

    #[test]
    fn no_match_limit_sentinel() {
        let b = Clock { turn_ms: 1_000, match_ms: 0, left_ms: Some(2_147_483_647) }.budget(0);
        assert_eq!(b.hard, Duration::from_millis(1_000 - MARGIN_MS));
    }
}
