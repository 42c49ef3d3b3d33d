//! Late moves: how many plies a late quiet move is searched less (late move reductions, from log(depth) · log(move
//! number)), and after how many moves the quiet ones are not searched at all (move-count pruning).

use super::params::Params;

/// Depths and move numbers past the table's size use its last row or column.
const SIZE: usize = 64;

/// The base reduction in hundredths of a ply, by depth and move number, and the move-count limits by depth, for one
/// set of parameters.
pub struct Reductions {
    /// In hundredths of a ply, rounded down (whole plies are these divided by 100).
    fine: Box<[[i16; SIZE]; SIZE]>,
    /// The number of moves after which quiet moves are skipped, by whether the position is improving and by depth
    /// (`usize::MAX`: none are).
    limits: [[usize; SIZE]; 2],
}

impl Reductions {
    /// The table of `params.lmr_base + ln(depth) · ln(moves) / params.lmr_divisor` (both in hundredths), rounded
    /// down, and the move-count limits of `params` (see [`Reductions::move_limit`]).
    #[must_use]
    pub fn new(params: &Params) -> Reductions {
        let base = f64::from(params.lmr_base) / 100.0;
        let divisor = f64::from(params.lmr_divisor.max(1)) / 100.0;
        let mut fine = Box::new([[0; SIZE]; SIZE]);
        for depth in 1..SIZE {
            for moves in 1..SIZE {
                let plies = (base + (depth as f64).ln() * (moves as f64).ln() / divisor).clamp(0.0, 100.0);
                fine[depth][moves] = (plies * 100.0) as i16;
            }
        }
        let mut limits = [[usize::MAX; SIZE]; 2];
        for (improving, row) in limits.iter_mut().enumerate() {
            for (depth, limit) in row.iter_mut().enumerate() {
                *limit = move_limit(params, depth as i32, improving == 1);
            }
        }
        Reductions { fine, limits }
    }

    /// The base reduction, in whole plies, of the move numbered `moves` (from 0) at `depth`: none for the first
    /// move.
    #[must_use]
    pub fn get(&self, depth: i32, moves: usize) -> i32 {
        self.get_fine(depth, moves) / 100
    }

    /// The base reduction in hundredths of a ply, not rounded down (see [`Reductions::get`]).
    #[must_use]
    pub fn get_fine(&self, depth: i32, moves: usize) -> i32 {
        if moves == 0 || depth <= 0 {
            return 0;
        }
        let d = (depth as usize).min(SIZE - 1);
        i32::from(self.fine[d][moves.min(SIZE - 1)])
    }

    /// How many moves a node of `depth` searches before it skips the quiet ones (`usize::MAX`: it skips none).
    #[must_use]
    pub fn move_limit(&self, depth: i32, improving: bool) -> usize {
        self.limits[usize::from(improving)][depth.clamp(0, SIZE as i32 - 1) as usize]
    }
}

/// The move-count limit of `params` at `depth`: with `lmp_power` 0, `lmp_base + lmp_scale · depth²` up to
/// `lmp_depth` and `lmp_cap` deeper (where it is not 0), whether or not the position is improving; else
/// `lmp_curve_base + lmp_curve_scale · depth^(lmp_power / 100)` (hundredths) at every depth, times `lmp_worsening`
/// hundredths where the position is not improving; never fewer than one move.
fn move_limit(params: &Params, depth: i32, improving: bool) -> usize {
    let p = params;
    if p.lmp_power == 0 {
        return if depth <= p.lmp_depth {
            (p.lmp_base + p.lmp_scale * depth * depth).max(0) as usize
        } else if p.lmp_cap > 0 {
            p.lmp_cap as usize
        } else {
            usize::MAX
        };
    }
    let power = f64::from(p.lmp_power) / 100.0;
    let full =
        (f64::from(p.lmp_curve_base) + f64::from(p.lmp_curve_scale) * f64::from(depth.max(0)).powf(power)) / 100.0;
    let limit = if improving { full } else { full * f64::from(p.lmp_worsening) / 100.0 };
    (limit as usize).max(1)
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
        // In hundredths: 0.43 + ln 10 · ln 10 / 1.40 = 4.2171 plies at depth 10, move 10 (the defaults' 43 and 140).
        assert_eq!((Params::DEFAULT.lmr_base, Params::DEFAULT.lmr_divisor), (43, 140));
        assert_eq!((r.get_fine(10, 10), r.get(10, 10)), (421, 4));
        assert!(r.get_fine(20, 40) > r.get_fine(20, 30));
        assert_ne!(r.get_fine(10, 10) % 100, 0, "a fraction of a ply");
    }

    #[test]
    fn without_the_curve_the_move_limits_stop_at_their_depth_and_ignore_improvement() {
        let p = Params { lmp_power: 0, ..Params::DEFAULT };
        let r = Reductions::new(&p);
        for depth in 0..=p.lmp_depth {
            let limit = (p.lmp_base + p.lmp_scale * depth * depth) as usize;
            assert_eq!((r.move_limit(depth, true), r.move_limit(depth, false)), (limit, limit), "depth {depth}");
        }
        assert_eq!(r.move_limit(p.lmp_depth + 1, true), usize::MAX);
        assert_eq!(r.move_limit(100, false), usize::MAX);
        let capped = Reductions::new(&Params { lmp_cap: 40, ..p });
        assert_eq!(capped.move_limit(p.lmp_depth + 1, true), 40);
    }

    #[test]
    fn the_curve_prunes_at_every_depth_and_halves_where_the_position_is_not_improving() {
        let p =
            Params { lmp_power: 130, lmp_curve_base: 300, lmp_curve_scale: 100, lmp_worsening: 50, ..Params::DEFAULT };
        let r = Reductions::new(&p);
        // 3 + 10^1.3 = 22.95 moves at depth 10; half of it where not improving.
        assert_eq!((r.move_limit(10, true), r.move_limit(10, false)), (22, 11));
        for depth in 1..63 {
            assert!(r.move_limit(depth, true) <= r.move_limit(depth + 1, true));
            assert!(r.move_limit(depth, false) <= r.move_limit(depth, true));
            assert!(r.move_limit(depth, false) >= 1);
        }
        assert!(r.move_limit(40, true) < usize::MAX);
    }
}
