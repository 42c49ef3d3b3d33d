//! The defences against a VCF: the moves that may break the opponent's winning line of fours.
//!
//! A line of fours wins as long as it can be played out: every attacker move a legal four (the five at the end),
//! every defender answer the only stop. A defender's move that leaves the line playable refutes nothing: the
//! attacker plays the same line. So the moves that may refute a VCF are exactly those after which the line found no
//! longer plays out ([`line_survives`]), and the defender's own fours (a four takes a move the line did not count
//! on, and its block may stand on the line). A move that breaks the line may still lose to another VCF; what
//! is left out is only what cannot help. (`analyze` lists these answers; see docs/engine.md, Threat solvers, for why
//! the search does not restrict its moves to them.)
//!
//! A point can only change how the line plays out if a point the line reads (its own points, and the five points
//! of a last four whose blocks are forbidden for Black) lies within five steps of it on one of its four lines: a
//! point's patterns read five points each way. In renju, whether a three is real reads the points that would make it
//! four, and theirs in turn, so whether a point is forbidden reads farther: a line that ends in a four whose blocks
//! are forbidden for Black rests on that, and there every empty point is tried at the last step; a Black four is
//! tried with every point within reach of the points its lines would make four. (A forbidden point could in
//! principle read farther still, through threes of threes; the tests try every legal move against the solver and
//! find no such case.)

use crate::board::DIRS;
use crate::movegen::{MoveList, five_points, five_stops, four_moves_into, is_legal};
use crate::pattern::{MoveOutcome, PatternBoard};
use crate::types::{Color, Pos};

/// The farthest a point's stone changes another point's patterns, in steps along a line.
const REACH: u8 = 5;

/// How one step of a line (an attacker's move and the defender's answer) plays out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The attacker's move wins: a five, or a four the defender cannot stop.
    Wins,
    /// The move is a four and the line's answer its only stop: both stand on the board.
    Goes,
    /// Anything else (nothing stays on the board).
    Broken,
}

/// Plays step `k` of `line` on `pb`, whose earlier steps are on the board: attacker move `line[2k]` legal and a
/// five, or a four whose stops are none (a double four, a renju block forbidden for Black) or `line[2k + 1]` alone,
/// blocking any four of the defender's. Anything else (a point taken, a move no longer a four, a second way to stop
/// it) counts as broken, so that the answer errs towards keeping a defence.
fn step(pb: &mut PatternBoard, attacker: Color, line: &[Pos], k: usize) -> Step {
    let defender = attacker.opponent();
    let Some(&m) = line.get(2 * k) else {
        return Step::Broken;
    };
    match pb.outcome(m, attacker) {
        MoveOutcome::Win => return Step::Wins,
        MoveOutcome::Normal => {}
        MoveOutcome::Illegal | MoveOutcome::Forbidden(_) => return Step::Broken,
    }
    // A four of the defender's must be blocked by this very move.
    let blocked = {
        let mut theirs = pb.five_points(defender);
        match theirs.next() {
            Some(f) => f == m && theirs.next().is_none(),
            None => true,
        }
    };
    if !blocked {
        return Step::Broken;
    }
    pb.make(m, attacker);
    let fives = five_points(pb, attacker);
    let result = if fives.is_empty() {
        Step::Broken
    } else {
        let stops = five_stops(pb, defender, &fives);
        match line.get(2 * k + 1) {
            _ if stops.is_empty() => Step::Wins,
            Some(&b) if stops.len() == 1 && stops[0] == b && !pb.is_five(defender, b) => {
                pb.make(b, defender);
                return Step::Goes;
            }
            _ => Step::Broken,
        }
    };
    pb.undo();
    result
}

/// Whether `line` (the attacker's moves and the defender's answers alternately, the attacker first, as the VCF
/// solver gives them) still wins for `attacker`, to move on `pb`: every step as [`step`] says, the last one a win.
/// The board is left as it was.
pub fn line_survives(pb: &mut PatternBoard, attacker: Color, line: &[Pos]) -> bool {
    let mut k = 0;
    let wins = loop {
        match step(pb, attacker, line, k) {
            Step::Goes => k += 1,
            s => break s == Step::Wins,
        }
    };
    for _ in 0..2 * k {
        pb.undo();
    }
    wins
}

/// The legal moves of `defender`, to move on `pb`, that may refute `line`, the opponent's VCF: the moves after
/// which the line no longer plays out, and the defender's own fours. Empty when nothing can: the position is lost.
///
/// A move is only tried at the steps it can change: those whose attacker move, answer or previous answer (whose
/// four, if the move makes one of it, that step must block) is within reach, and the last step when the line ends
/// in a four whose blocks are forbidden. The line is played out once, and at each step the moves that may change it
/// are put on the board in turn: a stone changes nothing out of its reach, and stones on the board commute.
pub fn vcf_defences(pb: &mut PatternBoard, defender: Color, line: &[Pos]) -> MoveList {
    let attacker = defender.opponent();
    let mut out = MoveList::new();
    four_moves_into(pb, defender, &mut out);
    let steps = line.len().div_ceil(2);
    // The five points of a last four whose blocks are all forbidden for Black: the line rests on their being
    // forbidden, which may read far (see above), so every empty point is tried at the last step.
    let mut ends = MoveList::new();
    for (i, &m) in line.iter().enumerate() {
        pb.make(m, if i % 2 == 0 { attacker } else { defender });
    }
    ends.extend(pb.five_points(attacker));
    for _ in line {
        pb.undo();
    }
    // Every other legal move with the steps it may change, one bit a step (a line of more than 64 steps, which no
    // board holds, keeps them all).
    let last = steps.saturating_sub(1);
    // Whether a renju Black four is forbidden reads the points its threes would make four, and their lines.
    let black_fours = attacker == Color::Black && pb.rule().has_forbidden();
    let near = |p: Pos, i: usize| line.get(i).is_some_and(|&q| in_reach(p, q));
    let mut tried: Vec<(Pos, u64)> = Vec::new();
    let size = pb.size();
    for y in 0..size {
        for x in 0..size {
            let p = Pos::new(x, y);
            if !pb.board().is_empty(p) || out.contains(&p) || !is_legal(pb, defender, p) {
                continue;
            }
            let mut mask = 0u64;
            for k in 0..steps.min(64) {
                if near(p, 2 * k)
                    || near(p, 2 * k + 1)
                    || (k > 0 && near(p, 2 * k - 1))
                    || (black_fours && in_second_reach(p, line[2 * k]))
                {
                    mask |= 1 << k;
                }
            }
            if !ends.is_empty() && steps <= 64 {
                mask |= 1 << last;
            }
            if steps > 64 {
                out.push(p);
            } else if mask != 0 {
                tried.push((p, mask));
            }
        }
    }
    // Every step's bit.
    let all_steps = if steps >= 64 { u64::MAX } else { (1 << steps) - 1 };
    let mut played = 0;
    for k in 0..steps.min(64) {
        let bit = 1 << k;
        let final_step = k + 1 == steps;
        // The moves that keep this step a four where the line itself wins here (a four that an earlier stone
        // made double): the rest of the line decides them, so they are tried at every step that follows.
        let mut went = Vec::new();
        for (i, (p, mask)) in tried.iter_mut().enumerate() {
            if *mask & bit == 0 {
                continue;
            }
            pb.make(*p, defender);
            let s = step(pb, attacker, line, k);
            if s == Step::Goes {
                pb.undo();
                pb.undo();
            }
            pb.undo();
            *mask &= !bit;
            match s {
                // Still the line (the rest of it out of this stone's reach), or a win sooner: no refutation.
                Step::Goes if !final_step => went.push(i),
                Step::Wins => *mask = 0,
                _ => {
                    out.push(*p);
                    *mask = 0;
                }
            }
        }
        if final_step {
            break;
        }
        match step(pb, attacker, line, k) {
            Step::Goes => {}
            Step::Wins => {
                // The moves not tried here win here too; those that went on meet the rest of the line.
                let later = all_steps & !((bit << 1) - 1);
                for (i, (_, mask)) in tried.iter_mut().enumerate() {
                    *mask = if went.contains(&i) { later } else { 0 };
                }
                if went.is_empty() {
                    break;
                }
                // Play the line's four and answer on (its step wins, so `step` did not leave them).
                pb.make(line[2 * k], attacker);
                pb.make(line[2 * k + 1], defender);
            }
            Step::Broken => break,
        }
        played += 2;
    }
    for _ in 0..played {
        pb.undo();
    }
    // A line that does not play out (the solver's always do): every move not yet settled is kept.
    out.extend(tried.iter().filter(|(_, mask)| *mask != 0).map(|&(p, _)| p));
    out
}

/// Whether `p` is within [`REACH`] of a point on `q`'s lines within four steps of `q` (the points whose classes
/// decide whether a renju Black move on `q` is a double three).
fn in_second_reach(p: Pos, q: Pos) -> bool {
    DIRS.iter().any(|&(dx, dy)| {
        (-4..=4).any(|t| {
            let (x, y) = (i32::from(q.x) + t * dx, i32::from(q.y) + t * dy);
            let (ex, ey) = ((i32::from(p.x) - x).unsigned_abs(), (i32::from(p.y) - y).unsigned_abs());
            (ex == 0 || ey == 0 || ex == ey) && ex.max(ey) <= u32::from(REACH)
        })
    })
}

/// Whether `p` and `q` share a line within [`REACH`] steps.
fn in_reach(p: Pos, q: Pos) -> bool {
    let (dx, dy) = (p.x.abs_diff(q.x), p.y.abs_diff(q.y));
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= REACH
}
