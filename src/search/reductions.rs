//! Late move reductions: how many plies a late quiet move is searched less, from log(depth) · log(move number).

use super::params::Params;

/// Depths and move numbers past the table's size use its last row or column.
const SIZE: usize = 64;

/// The base reduction in whole plies, by depth and move number, for one set of parameters.
pub struct Reductions {
    table: Box<[[i8; SIZE]; SIZE]>,
}

impl Reductions {
    /// The table of `params.lmr_base + ln(depth) · ln(moves) / params.lmr_divisor` (both in hundredths), rounded
    /// down.
    #[must_use]
    pub fn new(params: &Params) -> Reductions {
        let base = f64::from(params.lmr_base) / 100.0;
        let divisor = f64::from(params.lmr_divisor.max(1)) / 100.0;
        let mut table = Box::new([[0; SIZE]; SIZE]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                let plies = base + (depth as f64).ln() * (moves as f64).ln() / divisor;
                *r = plies.clamp(0.0, 100.0) as i8;
            }
        }
        Reductions { table }
    }

    /// The base reduction, in whole plies, of the move numbered `moves` (from 0) at `depth`: none for the first
    /// move.
    #[must_use]
    pub fn get(&self, depth: i32, moves: usize) -> i32 {
        if moves == 0 || depth <= 0 {
            return 0;
        }
        let d = (depth as usize).min(SIZE - 1);
        i32::from(self.table[d][moves.min(SIZE - 1)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number_and_spare_the_first_move() {
        let r = Reductions::new(&Params::DEFAULT);
        assert_eq!(r.get(10, 0), 0);
        for depth in 1..40 {
            for moves in 1..100 {
                assert!(r.get(depth, moves) <= r.get(depth + 1, moves));
                assert!(r.get(depth, moves) <= r.get(depth, moves + 1));
            }
        }
        assert!(r.get(20, 40) >= 3);
        // A smaller divisor reduces more.
        let steep = Reductions::new(&Params { lmr_divisor: 100, ..Params::DEFAULT });
        assert!(steep.get(20, 40) > r.get(20, 40));
    }
}
