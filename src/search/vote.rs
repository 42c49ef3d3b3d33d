//! Lazy SMP's choice of move: every thread's last completed iteration votes for its best move, weighted by how
//! deep it went and how much better its score is than the worst thread's; a proven win is taken over any vote.

use super::{MATE_BOUND, Report};
use crate::types::{CELLS, Pos};

/// Added to every score above the lowest, so that the lowest still votes.
const VOTE_BASE: i64 = 14;

/// The index in `reports` (one per thread, the main thread's first) of the report whose move to play, or `None`
/// when there are none. A report with no move does not vote.
#[must_use]
pub fn choose(reports: &[Report]) -> Option<usize> {
    let voters: Vec<(usize, Pos)> = reports.iter().enumerate().filter_map(|(i, r)| r.best.map(|b| (i, b))).collect();
    let lowest = voters.iter().map(|&(i, _)| reports[i].score).min()?;
    let mut votes = vec![0i64; CELLS];
    for &(i, m) in &voters {
        let r = &reports[i];
        votes[m.index()] += (i64::from(r.score - lowest) + VOTE_BASE) * i64::from(r.depth.max(1));
    }
    let mut chosen = voters[0].0;
    for &(i, m) in &voters[1..] {
        let (best, r) = (&reports[chosen], &reports[i]);
        let take = if best.score >= MATE_BOUND {
            r.score > best.score // a faster win
        } else if r.score >= MATE_BOUND {
            true
        } else {
            let (theirs, ours) = (votes[m.index()], best.best.map_or(0, |b| votes[b.index()]));
            r.score > -MATE_BOUND && (theirs > ours || (theirs == ours && r.depth > best.depth))
        };
        if take {
            chosen = i;
        }
    }
    Some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    fn report(x: usize, score: i32, depth: i32) -> Report {
        let m = Pos::new(x, 7);
        Report { best: Some(m), score, depth, pv: vec![m], nodes: 0, elapsed: Default::default(), source: "search" }
    }

    #[test]
    fn the_move_most_threads_back_deepest_wins_the_vote() {
        // Two threads for x = 5 outvote a slightly deeper one for x = 3.
        let reports = [report(3, 20, 10), report(5, 18, 9), report(5, 19, 9)];
        assert_eq!(choose(&reports), Some(1));
        // One thread alone decides.
        assert_eq!(choose(&reports[..1]), Some(0));
        assert_eq!(choose(&[]), None);
    }

    #[test]
    fn a_proven_win_beats_any_vote_and_a_faster_win_beats_a_slower_one() {
        let reports = [report(3, 20, 10), report(3, 20, 10), report(6, MATE - 9, 8), report(7, MATE - 5, 6)];
        assert_eq!(choose(&reports), Some(3));
        // A thread that sees a loss does not take the move from one that does not.
        let reports = [report(3, 20, 10), report(6, -(MATE - 9), 12), report(6, -(MATE - 9), 12)];
        assert_eq!(choose(&reports), Some(0));
    }
}
