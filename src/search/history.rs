//! Move-ordering statistics gathered by the search: the history of quiet moves that caused cut-offs, per colour
//! and point, and the two killer moves of each ply (kept in the search stack, see [`super::stack`]).

use super::params::{HISTORY_MAX, HISTORY_ORDER_CAP};
use crate::types::{CELLS, Color, Pos};

/// The butterfly history: how often and how deep a quiet move of a colour on a point has refuted a line; and
/// the counter moves: per colour and opponent's move, the quiet move that last refuted it.
pub struct History {
    table: Box<[[i32; CELLS]; 2]>,
    counter: Box<[[Option<Pos>; CELLS]; 2]>,
}

impl Default for History {
    fn default() -> History {
        History { table: Box::new([[0; CELLS]; 2]), counter: Box::new([[None; CELLS]; 2]) }
    }
}

impl History {
    /// The history's contribution to `side`'s move ordering value of `m`, the capped value divided by `div`.
    #[must_use]
    pub fn order_bonus(&self, side: Color, m: Pos, div: i32) -> i32 {
        self.table[side.index()][m.index()].min(HISTORY_ORDER_CAP) / div.max(1)
    }

    /// Records that `side`'s quiet move `m` caused a cut-off at `depth`.
    pub fn reward(&mut self, side: Color, m: Pos, depth: i32) {
        let h = &mut self.table[side.index()][m.index()];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// `side`'s quiet move that last refuted the opponent's move `last`.
    #[must_use]
    pub fn counter(&self, side: Color, last: Pos) -> Option<Pos> {
        self.counter[side.index()][last.index()]
    }

    /// Records that `side`'s quiet move `m` refuted the opponent's move `last`.
    pub fn set_counter(&mut self, side: Color, last: Pos, m: Pos) {
        self.counter[side.index()][last.index()] = Some(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_move_is_kept_per_colour_and_the_newest_replaces_the_older() {
        let mut h = History::default();
        let (last, a, b) = (Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 6));
        assert_eq!(h.counter(Color::White, last), None);
        h.set_counter(Color::White, last, a);
        assert_eq!(h.counter(Color::White, last), Some(a));
        assert_eq!(h.counter(Color::Black, last), None);
        assert_eq!(h.counter(Color::White, a), None);
        h.set_counter(Color::White, last, b);
        assert_eq!(h.counter(Color::White, last), Some(b));
    }
}
