//! Move-ordering statistics gathered by the search: the history of quiet moves that caused cut-offs, per colour
//! and point, and the two killer moves of each ply (kept in the search stack, see [`super::stack`]).

use super::params::{HISTORY_MAX, HISTORY_ORDER_CAP};
use crate::types::{CELLS, Color, Pos};

/// The butterfly history: how often and how deep a quiet move of a colour on a point has refuted a line.
pub struct History {
    table: Box<[[i32; CELLS]; 2]>,
}

impl Default for History {
    fn default() -> History {
        History { table: Box::new([[0; CELLS]; 2]) }
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
}
