//! Late move reductions: how many plies a late quiet move is searched less, from log(depth) · log(move number).

use super::params::{LMR_BASE, LMR_DIVISOR};
use std::sync::LazyLock;

/// Depths and move numbers past the table's size use its last row or column.
const SIZE: usize = 64;

/// The base reduction in whole plies, by depth and move number.
static TABLE: LazyLock<Box<[[i32; SIZE]; SIZE]>> = LazyLock::new(|| {
    let mut table = Box::new([[0; SIZE]; SIZE]);
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (moves, r) in row.iter_mut().enumerate().skip(1) {
            let plies = LMR_BASE + (depth as f64).ln() * (moves as f64).ln() / LMR_DIVISOR;
            *r = plies as i32;
        }
    }
    table
});

/// The base reduction, in whole plies, of the move numbered `moves` (from 0) at `depth`: none for the first move.
#[must_use]
pub fn reduction(depth: i32, moves: usize) -> i32 {
    if moves == 0 || depth <= 0 {
        return 0;
    }
    let d = (depth as usize).min(SIZE - 1);
    TABLE[d][moves.min(SIZE - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number_and_spare_the_first_move() {
        assert_eq!(reduction(10, 0), 0);
        for depth in 1..40 {
            for moves in 1..100 {
                assert!(reduction(depth, moves) <= reduction(depth + 1, moves));
                assert!(reduction(depth, moves) <= reduction(depth, moves + 1));
            }
        }
        assert!(reduction(20, 40) >= 3);
    }
}
