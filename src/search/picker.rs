//! The move picker: hands a node its moves one at a time, best first, in stages, so that a node cut off by an
//! early move never sorts the rest.
//!
//! Stages: the table move, then every other move by its ordering value (the learned attack and defence values of
//! the codes it makes and stops, the killer bonuses and the history, taken when the picker is made), the highest
//! first and the lower point index first among equals, each found by a scan of the moves not yet given. Each move
//! is kept as one key that orders both ways at once (the value above, the point index reversed below), so that the
//! scan is a plain maximum.

use crate::types::{MAX_SIZE, Pos};
use arrayvec::ArrayVec;

/// Where the picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    Rest,
}

/// Bits below a key's value: room for every point index.
const INDEX_BITS: u32 = 16;
const INDEX_MASK: i64 = (1 << INDEX_BITS) - 1;

/// A move's key: its value, then the lower point index first among equal values.
fn key(value: i32, m: Pos) -> i64 {
    (i64::from(value) << INDEX_BITS) | (INDEX_MASK - m.index() as i64)
}

/// The move a key stands for.
fn move_of(key: i64) -> Pos {
    Pos::from_index((INDEX_MASK - (key & INDEX_MASK)) as usize)
}

/// The moves of one node, given out best first.
pub struct MovePicker {
    /// The remaining moves' keys.
    keys: ArrayVec<i64, { MAX_SIZE * MAX_SIZE }>,
    table_move: Option<Pos>,
    stage: Stage,
}

impl MovePicker {
    /// A picker over `moves` that gives `table_move` first when it is one of them, then the others by
    /// `value(m)`, their ordering value. The list is borrowed, not moved: a move list is a kilobyte whatever its
    /// length.
    #[must_use]
    pub fn new(moves: &[Pos], table_move: Option<Pos>, value: impl Fn(Pos) -> i32) -> MovePicker {
        let table_move = table_move.filter(|t| moves.contains(t));
        let keys = moves.iter().filter(|&&m| Some(m) != table_move).map(|&m| key(value(m), m)).collect();
        MovePicker { keys, table_move, stage: Stage::TableMove }
    }

    /// The next move.
    pub fn next(&mut self) -> Option<Pos> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::Rest;
                    if self.table_move.is_some() {
                        return self.table_move;
                    }
                }
                Stage::Rest => {
                    // The best remaining: highest value, then lowest point index (keys are distinct).
                    let (best, _) = self.keys.iter().enumerate().max_by_key(|&(_, &k)| k)?;
                    return Some(move_of(self.keys.swap_remove(best)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::MoveList;

    fn list(points: &[(usize, usize)]) -> MoveList {
        points.iter().map(|&(x, y)| Pos::new(x, y)).collect()
    }

    #[test]
    fn the_table_move_comes_first_then_by_value_then_by_index() {
        let moves = list(&[(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]);
        let value = |m: Pos| match m.x {
            1 => 10,
            2 | 4 => 30,
            _ => 20,
        };
        let mut picker = MovePicker::new(&moves, Some(Pos::new(5, 5)), value);
        let order: Vec<usize> = std::iter::from_fn(|| picker.next()).map(|p| p.x as usize).collect();
        assert_eq!(order, [5, 2, 4, 3, 1]);
        // A table move not in the list is not given.
        let mut picker = MovePicker::new(&moves, Some(Pos::new(9, 9)), value);
        let order: Vec<usize> = std::iter::from_fn(|| picker.next()).map(|p| p.x as usize).collect();
        assert_eq!(order, [2, 4, 3, 5, 1]);
        // Negative and extreme values order the same way; equal values go by the lower index.
        let moves = list(&[(3, 0), (1, 2), (0, 1), (2, 2), (4, 0)]);
        let value = |m: Pos| match (m.x, m.y) {
            (3, 0) => i32::MIN,
            (1, 2) | (0, 1) => -7,
            (2, 2) => i32::MAX,
            _ => 0,
        };
        let mut picker = MovePicker::new(&moves, None, value);
        let order: Vec<(u8, u8)> = std::iter::from_fn(|| picker.next()).map(|p| (p.x, p.y)).collect();
        assert_eq!(order, [(2, 2), (4, 0), (0, 1), (1, 2), (3, 0)]);
    }
}
