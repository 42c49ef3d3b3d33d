//! The root's guard: the opponent's VCT after the move the search is about to play.
//!
//! An alpha-beta search of a few hundred milliseconds sees a win by threats only as deep as its iterations go, and
//! a strong opponent's threat sequences run deeper: most games Tengen lost against PentaZen turned on one move
//! after which the opponent had a VCT the threat solver proves in a tenth of a second. So after an iteration of
//! `guard_depth` plies or more whose best move is new, the main thread asks the VCT solver, within
//! `guard_kilonodes` thousand nodes and a share of the optimum (`guard_div`), whether the opponent wins by threats
//! after that move. A move it refutes is left out at the root for the rest of the search and the iterations start
//! again from the first (the table keeps what they found, so they soon reach the depth they had). Only positions
//! the iteration scored `guard_score` or more for the side to move are guarded. At most
//! `guard_checks` moves are checked a search; when every one of them is refuted the position looks lost whatever is
//! played and none is left out. The root's last move is never refuted, and positions the search has already scored
//! as won or lost are not checked.

use super::MATE_BOUND;
use super::params::Params;
use crate::types::Pos;
use std::sync::Mutex;

/// What a check decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The move stays: no VCT was found after it.
    Kept,
    /// The move is left out at the root from now on.
    Refuted,
    /// Every move checked was refuted and no check is left: none is left out.
    AllRefuted,
}

/// The moves checked in one search and the ones refuted, shared by the threads (the main thread checks; every
/// thread leaves the refuted moves out at the root, and they do not vote).
#[derive(Debug, Default)]
pub(crate) struct Guard {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    checked: Vec<Pos>,
    refuted: Vec<Pos>,
}

impl Guard {
    /// Whether an iteration of `depth` plies whose best move `best` scored `score` asks for the guard's check, for
    /// a root with `root_moves` moves.
    pub(crate) fn wants(&self, params: &Params, depth: i32, score: i32, best: Option<Pos>, root_moves: usize) -> bool {
        let Some(best) = best else { return false };
        let Ok(state) = self.state.lock() else { return false };
        params.guard_kilonodes > 0
            && depth >= params.guard_depth
            && score.abs() < MATE_BOUND
            && score >= params.guard_score
            && state.checked.len() < params.guard_checks.max(0) as usize
            && !state.checked.contains(&best)
            && root_moves > state.refuted.len() + 1
    }

    /// Records the check of `m`, refuted or not, and says what the search does next: when the last check a search
    /// may make refutes its move too and every move checked was refuted, the position looks lost whatever is
    /// played, and the moves come back: a move the search likes best and the opponent must still find the win
    /// against is better than one it likes less.
    pub(crate) fn record(&self, params: &Params, m: Pos, refuted: bool) -> Verdict {
        let Ok(mut state) = self.state.lock() else { return Verdict::Kept };
        state.checked.push(m);
        if !refuted {
            return Verdict::Kept;
        }
        state.refuted.push(m);
        if state.checked.len() >= params.guard_checks.max(0) as usize && state.refuted.len() == state.checked.len() {
            state.refuted.clear();
            return Verdict::AllRefuted;
        }
        Verdict::Refuted
    }

    /// The moves refuted so far.
    pub(crate) fn refuted(&self) -> Vec<Pos> {
        self.state.lock().map(|s| s.refuted.clone()).unwrap_or_default()
    }

    /// Whether `m` was refuted.
    pub(crate) fn is_refuted(&self, m: Pos) -> bool {
        self.state.lock().is_ok_and(|s| s.refuted.contains(&m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    fn on() -> Params {
        Params { guard_kilonodes: 300, guard_depth: 5, guard_checks: 2, guard_score: -300, ..Params::DEFAULT }
    }

    #[test]
    fn a_new_best_move_deep_enough_and_unsettled_is_checked_once() {
        let (g, p) = (Guard::default(), on());
        let (a, b, c) = (Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 6));
        assert!(g.wants(&p, 5, 120, Some(a), 30));
        assert!(!g.wants(&p, 4, 120, Some(a), 30), "too shallow");
        assert!(!g.wants(&p, 5, MATE - 9, Some(a), 30), "a proven win");
        assert!(!g.wants(&p, 5, -(MATE - 9), Some(a), 30), "a proven loss");
        assert!(!g.wants(&p, 5, p.guard_score - 1, Some(a), 30), "a position that looks lost");
        assert!(g.wants(&p, 5, p.guard_score, Some(a), 30));
        assert!(!g.wants(&p, 5, 0, None, 30));
        assert!(!g.wants(&Params { guard_kilonodes: 0, ..p }, 5, 0, Some(a), 30), "off");
        assert_eq!(g.record(&p, a, true), Verdict::Refuted);
        assert!(!g.wants(&p, 6, 0, Some(a), 30), "checked already");
        assert!(g.is_refuted(a) && g.refuted() == vec![a]);
        assert!(g.wants(&p, 6, 0, Some(b), 30));
        assert_eq!(g.record(&p, b, false), Verdict::Kept);
        assert!(!g.is_refuted(b) && g.is_refuted(a));
        assert!(!g.wants(&p, 7, 0, Some(c), 30), "two checks a search");
    }

    #[test]
    fn when_every_check_refutes_its_move_the_moves_come_back() {
        let (g, p) = (Guard::default(), on());
        let (a, b) = (Pos::new(7, 7), Pos::new(8, 8));
        assert_eq!(g.record(&p, a, true), Verdict::Refuted);
        assert_eq!(g.record(&p, b, true), Verdict::AllRefuted);
        assert!(g.refuted().is_empty() && !g.is_refuted(a));
        assert!(!g.wants(&p, 8, 0, Some(a), 30), "no check left");
        // One check a search can never leave a move out.
        let g = Guard::default();
        assert_eq!(g.record(&Params { guard_checks: 1, ..p }, a, true), Verdict::AllRefuted);
        assert!(g.refuted().is_empty());
    }

    #[test]
    fn the_last_move_of_the_root_is_never_refuted() {
        let (g, p) = (Guard::default(), on());
        let (a, b) = (Pos::new(7, 7), Pos::new(8, 8));
        assert!(g.wants(&p, 5, 0, Some(a), 2));
        assert_eq!(g.record(&p, a, true), Verdict::Refuted);
        assert!(!g.wants(&p, 5, 0, Some(b), 2));
    }
}
