//! An independent checker of winning lines, used by the tests to judge the solvers' answers.
//!
//! It replays a line move by move and asks only the rules: every move is on an empty point and legal for its side
//! (renju Black never on a forbidden point), every attacker move is a threat (VCF: a four; VCT: a four, or a move
//! after which the attacker would have a VCF if the defender passed, such as an open three; or the block of a
//! defender four), every defender move answers the threat (VCF: the five point; VCT: the five point, a four of the
//! defender's own, or a move after which the attacker has no VCF; when no move does that, any legal move), and the line ends in the attacker's five or in a White four whose every block is
//! forbidden for Black. The VCF it needs is its own small exhaustive search, written apart from the solvers.

use crate::pattern::{MoveOutcome, PatternBoard};
use crate::types::{Color, Pos};

/// How a checked line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The attacker's last move makes five.
    Five,
    /// Renju: White's last move is a four whose every block is forbidden for Black.
    ForbiddenBlock,
}

/// Checks `line` (attacker first) from `start`, where `attacker` is to move. `vct` allows threes as threats.
///
/// # Errors
/// A sentence naming the first move that breaks the rules of a VCF/VCT line.
pub fn check_line(start: &PatternBoard, attacker: Color, line: &[Pos], vct: bool) -> Result<LineEnd, String> {
    let mut pb = start.clone();
    let size = pb.size();
    let defender = attacker.opponent();
    let name = |p: Pos| p.notation(size);
    if line.is_empty() {
        return Err("empty line".to_string());
    }
    for (i, &m) in line.iter().enumerate() {
        let (side, other) = if i % 2 == 0 { (attacker, defender) } else { (defender, attacker) };
        let number = i + 1;
        let outcome = pb.outcome(m, side);
        match outcome {
            MoveOutcome::Illegal => return Err(format!("move {number} ({}) is taken or off the board", name(m))),
            MoveOutcome::Forbidden(kind) => {
                return Err(format!("move {number} ({}) is forbidden for Black ({kind})", name(m)));
            }
            MoveOutcome::Win if side == defender => {
                return Err(format!("defender move {number} ({}) makes five", name(m)));
            }
            MoveOutcome::Win => {
                return if number == line.len() {
                    Ok(LineEnd::Five)
                } else {
                    Err(format!("the line goes on after the five at move {number}"))
                };
            }
            MoveOutcome::Normal => {}
        }
        let other_fives = fives(&pb, other);
        if side == attacker {
            // A defender four must be stopped (the attacker has no five, or the line would have ended), and the
            // defender must be left without a five point.
            let blocks_four = !other_fives.is_empty();
            pb.make(m, side);
            if !fives(&pb, defender).is_empty() {
                return Err(format!("attacker move {number} ({}) leaves the defender a five", name(m)));
            }
            let threat_fives = fives(&pb, attacker);
            let threat = !threat_fives.is_empty() || (vct && naive_vcf(&mut pb, attacker).is_some());
            if !(threat || (vct && blocks_four)) {
                let kind = if vct { "a threat" } else { "a four" };
                return Err(format!("attacker move {number} ({}) is not {kind}", name(m)));
            }
            if !vct && threat_fives.is_empty() {
                return Err(format!("attacker move {number} ({}) is not a four", name(m)));
            }
            if number == line.len() {
                let black_blocks_all_forbidden = attacker == Color::White
                    && pb.rule().has_forbidden()
                    && !threat_fives.is_empty()
                    && fives(&pb, Color::Black).is_empty()
                    && threat_fives.iter().all(|&f| pb.forbidden_kind(f).is_some());
                return if black_blocks_all_forbidden {
                    Ok(LineEnd::ForbiddenBlock)
                } else {
                    Err(format!("the line stops at move {number} ({}) without a five", name(m)))
                };
            }
        } else {
            // The defender answers: a five point must be blocked; a three may be met by any move that leaves no
            // straight four, or by a four of the defender's own.
            if !other_fives.is_empty() {
                // The answer must stop every five point; against an unstoppable four, blocking one will do.
                let stops_all = |pb: &mut PatternBoard, q: Pos| {
                    pb.make(q, side);
                    let stopped = fives(pb, attacker).is_empty();
                    pb.undo();
                    stopped
                };
                if !stops_all(&mut pb, m) {
                    // Outside caro only the five point itself stops a five, so one five point is stoppable.
                    let stoppable = if pb.rule().five_needs_open_end() {
                        near_fives(&pb, &other_fives)
                            .into_iter()
                            .any(|q| matches!(pb.outcome(q, side), MoveOutcome::Normal) && stops_all(&mut pb, q))
                    } else {
                        other_fives.len() == 1
                    };
                    if stoppable || !other_fives.contains(&m) {
                        return Err(format!("defender move {number} ({}) does not stop the four", name(m)));
                    }
                }
                pb.make(m, side);
                continue;
            }
            if !vct {
                return Err(format!("before defender move {number} the attacker has no four"));
            }
            if naive_vcf(&mut pb, attacker).is_none() {
                return Err(format!("before defender move {number} the attacker threatens nothing"));
            }
            let makes_four = (0..4).any(|d| pb.pattern(side, m, d).fours() > 0);
            let stops = |pb: &mut PatternBoard, q: Pos| {
                pb.make(q, side);
                let stopped = naive_vcf(pb, attacker).is_none();
                pb.undo();
                stopped
            };
            if !makes_four && !stops(&mut pb, m) {
                // Lost anyway? Then any legal move will do; otherwise this was no answer.
                let empties: Vec<Pos> = pb.board().points().filter(|&q| pb.board().is_empty(q)).collect();
                let some_move_stops = empties
                    .into_iter()
                    .any(|q| matches!(pb.outcome(q, side), MoveOutcome::Normal) && stops(&mut pb, q));
                if some_move_stops {
                    return Err(format!("defender move {number} ({}) does not answer the threat", name(m)));
                }
            }
            pb.make(m, side);
        }
    }
    Err("the line ends with a defender move".to_string())
}

/// Every point where `c` makes a winning five.
fn fives(pb: &PatternBoard, c: Color) -> Vec<Pos> {
    // The board's set of five points (kept in step by make and undo, and checked against a rebuild by the
    // property tests): a scan of every point here took most of the checker's time.
    pb.five_points(c).collect()
}

/// The empty points within five steps of the five points `fives` on their lines (where a stone can stop a five in
/// caro, by taking its point or closing its far end), the five points first.
fn near_fives(pb: &PatternBoard, fives: &[Pos]) -> Vec<Pos> {
    let size = pb.size() as i32;
    let mut out: Vec<Pos> = fives.to_vec();
    for &f in fives {
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for k in -5i32..=5 {
                let (x, y) = (i32::from(f.x) + k * dx, i32::from(f.y) + k * dy);
                if x >= 0 && y >= 0 && x < size && y < size {
                    let q = Pos::new(x as usize, y as usize);
                    if pb.board().is_empty(q) && !out.contains(&q) {
                        out.push(q);
                    }
                }
            }
        }
    }
    out
}

/// The checker's own VCF search for `attacker` (to move, or as if the defender passed): exhaustive, with a set of
/// refuted positions. Returns a winning line.
pub fn naive_vcf(pb: &mut PatternBoard, attacker: Color) -> Option<Vec<Pos>> {
    let mut refuted = super::ZobristSet::default();
    let mut line = Vec::new();
    vcf_from(pb, attacker, &mut refuted, &mut line).then_some(line)
}

fn vcf_from(pb: &mut PatternBoard, attacker: Color, refuted: &mut super::ZobristSet<u64>, line: &mut Vec<Pos>) -> bool {
    let defender = attacker.opponent();
    if let Some(&f) = fives(pb, attacker).first() {
        line.push(f);
        return true;
    }
    if refuted.contains(&pb.board().hash()) {
        return false;
    }
    let caro = pb.rule().five_needs_open_end();
    let their = fives(pb, defender);
    let candidates: Vec<Pos> = match their.len() {
        0 => pb.board().points().collect(),
        _ if caro => near_fives(pb, &their), // a caro five can also be closed at its far end
        1 => their,
        _ => Vec::new(),
    };
    for m in candidates {
        let makes_four = pb.board().is_empty(m) && (0..4).any(|d| pb.pattern(attacker, m, d).fours() > 0);
        if !makes_four || !matches!(pb.outcome(m, attacker), MoveOutcome::Normal) {
            continue;
        }
        pb.make(m, attacker);
        if !fives(pb, defender).is_empty() {
            pb.undo(); // the defender's four is not stopped
            continue;
        }
        line.push(m);
        let blocks = fives(pb, attacker);
        // The defender's answers: a legal move after which the attacker has no five point.
        let answers: Vec<Pos> = if caro {
            near_fives(pb, &blocks)
                .into_iter()
                .filter(|&q| {
                    matches!(pb.outcome(q, defender), MoveOutcome::Normal) && {
                        pb.make(q, defender);
                        let stopped = fives(pb, attacker).is_empty();
                        pb.undo();
                        stopped
                    }
                })
                .collect()
        } else if blocks.len() == 1 {
            blocks.iter().copied().filter(|&b| matches!(pb.outcome(b, defender), MoveOutcome::Normal)).collect()
        } else {
            Vec::new()
        };
        let won = if blocks.is_empty() {
            false
        } else if answers.is_empty() {
            // Unstoppable: show a legal block of one five point and the other five, when there is one.
            if let Some(&b) = blocks.iter().find(|&&b| matches!(pb.outcome(b, defender), MoveOutcome::Normal)) {
                pb.make(b, defender);
                let win = fives(pb, attacker).first().copied();
                pb.undo();
                line.push(b);
                line.extend(win);
            }
            true
        } else {
            // Every legal block must lose (caro: a block may also close the other five).
            let base = line.len();
            let mut shown = None;
            let mut all = true;
            for &b in &answers {
                line.truncate(base);
                pb.make(b, defender);
                line.push(b);
                let won = vcf_from(pb, attacker, refuted, line);
                pb.undo();
                if !won {
                    all = false;
                    break;
                }
                shown.get_or_insert_with(|| line[base..].to_vec());
            }
            line.truncate(base);
            if all {
                line.extend(shown.unwrap_or_default());
            }
            all
        };
        pb.undo();
        if won {
            return true;
        }
        line.pop();
    }
    refuted.insert(pb.board().hash());
    false
}
