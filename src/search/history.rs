//! Move-ordering statistics gathered by the search: the history of quiet moves that caused cut-offs, per colour
//! and point, and the two killer moves of each ply (kept in the search stack, see [`super::stack`]).

use super::params::{HISTORY_MAX, HISTORY_ORDER_CAP};
use crate::types::{CELLS, Color, Pos};

/// The butterfly history: how often and how deep a quiet move of a colour on a point has refuted a line; and
/// the counter moves: per colour and opponent's move, the quiet move that last refuted it.
pub struct History {
    table: Box<[[i32; CELLS]; 2]>,
    /// The same for attacks (moves that make an open three or more), kept apart where `attack_history` asks.
    attack: Box<[[i32; CELLS]; 2]>,
    counter: Box<[[Option<Pos>; CELLS]; 2]>,
}

impl Default for History {
    fn default() -> History {
        History {
            table: Box::new([[0; CELLS]; 2]),
            attack: Box::new([[0; CELLS]; 2]),
            counter: Box::new([[None; CELLS]; 2]),
        }
    }
}

impl History {
    /// The history's contribution to `side`'s move ordering value of `m`, the value kept within
    /// ±[`HISTORY_ORDER_CAP`] and divided by `div`.
    #[must_use]
    pub fn order_bonus(&self, side: Color, m: Pos, div: i32) -> i32 {
        self.table[side.index()][m.index()].clamp(-HISTORY_ORDER_CAP, HISTORY_ORDER_CAP) / div.max(1)
    }

    /// The same from the attacks' history.
    #[must_use]
    pub fn attack_bonus(&self, side: Color, m: Pos, div: i32) -> i32 {
        self.attack[side.index()][m.index()].clamp(-HISTORY_ORDER_CAP, HISTORY_ORDER_CAP) / div.max(1)
    }

    /// Records that `side`'s quiet move `m` caused a cut-off at `depth`: `depth²` more, up to [`HISTORY_MAX`]; or,
    /// with `gravity` (not 0), a step of `depth²` towards `gravity` that shrinks as the value nears it.
    pub fn reward(&mut self, side: Color, m: Pos, depth: i32, gravity: i32) {
        Self::reward_in(&mut self.table, side, m, depth, gravity);
    }

    /// Records that `side`'s attack `m` caused a cut-off at `depth`, in the attacks' history (as [`History::reward`]).
    pub fn reward_attack(&mut self, side: Color, m: Pos, depth: i32, gravity: i32) {
        Self::reward_in(&mut self.attack, side, m, depth, gravity);
    }

    /// Records that `side`'s attack `m` was searched before another move caused the cut-off (as
    /// [`History::penalize`]).
    pub fn penalize_attack(&mut self, side: Color, m: Pos, depth: i32, gravity: i32) {
        Self::penalize_in(&mut self.attack, side, m, depth, gravity);
    }

    fn penalize_in(table: &mut [[i32; CELLS]; 2], side: Color, m: Pos, depth: i32, gravity: i32) {
        if gravity > 0 {
            let h = &mut table[side.index()][m.index()];
            *h = pulled(*h, -depth * depth, gravity);
        }
    }

    fn reward_in(table: &mut [[i32; CELLS]; 2], side: Color, m: Pos, depth: i32, gravity: i32) {
        let h = &mut table[side.index()][m.index()];
        if gravity > 0 {
            *h = pulled(*h, depth * depth, gravity);
        } else {
            *h = (*h + depth * depth).min(HISTORY_MAX);
        }
    }

    /// Records that `side`'s quiet move `m` was searched at `depth` before another caused the cut-off: with
    /// `gravity` (not 0), a step of `depth²` towards `-gravity` that shrinks as the value nears it; nothing without.
    pub fn penalize(&mut self, side: Color, m: Pos, depth: i32, gravity: i32) {
        Self::penalize_in(&mut self.table, side, m, depth, gravity);
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

/// `value` moved by `bonus` (at most `gravity` either way) less its share of the way already gone towards
/// ±`gravity`: the result stays within ±`gravity`, and a move that often refutes and often fails settles between.
fn pulled(value: i32, bonus: i32, gravity: i32) -> i32 {
    let b = bonus.clamp(-gravity, gravity);
    let decay = i64::from(value) * i64::from(b.abs()) / i64::from(gravity);
    (value + b - decay as i32).clamp(-gravity, gravity)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_bounds_the_history_and_penalties_pull_it_down() {
        let mut h = History::default();
        let (a, b) = (Pos::new(7, 7), Pos::new(8, 8));
        for _ in 0..1000 {
            h.reward(Color::Black, a, 30, 4096);
            h.penalize(Color::Black, b, 30, 4096);
        }
        let (ha, hb) = (h.table[0][a.index()], h.table[0][b.index()]);
        assert!((3500..=4096).contains(&ha) && (-4096..=-3500).contains(&hb), "{ha} {hb}");
        assert!(h.order_bonus(Color::Black, a, 64) > 0 && h.order_bonus(Color::Black, b, 64) < 0);
        // Without gravity penalties do nothing and rewards only add.
        let mut plain = History::default();
        plain.reward(Color::White, a, 10, 0);
        plain.penalize(Color::White, a, 10, 0);
        assert_eq!(plain.table[1][a.index()], 100);
        // A value refuted as often as it fails stays near zero.
        let mut mixed = History::default();
        for _ in 0..500 {
            mixed.reward(Color::White, b, 20, 4096);
            mixed.penalize(Color::White, b, 20, 4096);
        }
        assert!(mixed.table[1][b.index()].abs() < 400, "{}", mixed.table[1][b.index()]);
    }

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

    #[test]
    fn the_attacks_history_is_kept_apart_from_the_quiet_moves() {
        let mut h = History::default();
        let m = Pos::new(7, 7);
        h.reward_attack(Color::Black, m, 10, 4096);
        assert!(h.attack_bonus(Color::Black, m, 1) > 0);
        assert_eq!(h.order_bonus(Color::Black, m, 1), 0);
        assert_eq!(h.attack_bonus(Color::White, m, 1), 0);
        h.reward(Color::Black, m, 10, 4096);
        let attack = h.attack_bonus(Color::Black, m, 1);
        for _ in 0..20 {
            h.penalize_attack(Color::Black, m, 10, 4096);
        }
        assert!(h.attack_bonus(Color::Black, m, 1) < 0 && h.attack_bonus(Color::Black, m, 1) < attack);
        assert!(h.order_bonus(Color::Black, m, 1) > 0, "the quiet history keeps its reward");
    }
}
