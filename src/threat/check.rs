//! An independent checker of winning lines, used by the tests to judge the solvers' answers.
//!
//! It replays a line move by move and asks only the rules: every move is on an empty point and legal for its side
//! (renju Black never on a forbidden point), every attacker move is a threat (VCF: a four; VCT: a four or a three,
//! or the block of a defender four), every defender move answers the threat (VCF: the five point; VCT: the five
//! point, a point after which the attacker can no longer make a straight four, or a four of the defender's own),
//! and the line ends in the attacker's five or in a White four whose every block is forbidden for Black.

use crate::board::DIRS;
use crate::pattern::{MoveOutcome, Pattern, PatternBoard};
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
            // A defender four must be blocked (the attacker has no five, or the line would have ended).
            let blocks_four = other_fives.contains(&m);
            if !other_fives.is_empty() && !blocks_four {
                return Err(format!("attacker move {number} ({}) ignores the defender's four", name(m)));
            }
            pb.make(m, side);
            let threat_fives = fives(&pb, attacker);
            let threat = !threat_fives.is_empty() || (vct && !straight_four_points(&mut pb, attacker).is_empty());
            if !(threat || (vct && blocks_four)) {
                let kind = if vct { "a four or a three" } else { "a four" };
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
                if !other_fives.contains(&m) {
                    return Err(format!("defender move {number} ({}) does not block the four", name(m)));
                }
                pb.make(m, side);
                continue;
            }
            if !vct {
                return Err(format!("before defender move {number} the attacker has no four"));
            }
            let before = straight_four_points(&mut pb, attacker);
            if before.is_empty() {
                return Err(format!("before defender move {number} the attacker has neither a four nor a three"));
            }
            let makes_four = (0..4).any(|d| pb.pattern(side, m, d).fours() > 0);
            let stops_all = |pb: &mut PatternBoard, q: Pos| {
                pb.make(q, side);
                let stopped = straight_four_points(pb, attacker).is_empty();
                pb.undo();
                stopped
            };
            if !makes_four && !stops_all(&mut pb, m) {
                // Against two threes or more that no single move stops, a move that stops some of them will do.
                pb.make(m, side);
                let fewer = straight_four_points(&mut pb, attacker).len() < before.len();
                pb.undo();
                let empties: Vec<Pos> = pb.board().points().filter(|&q| pb.board().is_empty(q)).collect();
                let some_move_stops_all = empties.into_iter().any(|q| {
                    let legal = matches!(pb.outcome(q, side), MoveOutcome::Normal);
                    legal && stops_all(&mut pb, q)
                });
                if some_move_stops_all || !fewer {
                    return Err(format!(
                        "defender move {number} ({}) neither stops the three nor makes a four",
                        name(m)
                    ));
                }
            }
            pb.make(m, side);
        }
    }
    Err("the line ends with a defender move".to_string())
}

/// Every point where `c` makes a winning five, by reading each point's line patterns.
fn fives(pb: &PatternBoard, c: Color) -> Vec<Pos> {
    pb.board()
        .points()
        .filter(|&p| pb.board().is_empty(p) && (0..4).any(|d| pb.pattern(c, p, d) == Pattern::Five))
        .collect()
}

/// Every legal point where `c` would make a straight four (two five points on one line, not both blockable).
fn straight_four_points(pb: &mut PatternBoard, c: Color) -> Vec<Pos> {
    let size = pb.size();
    let mut out = Vec::new();
    let points: Vec<Pos> = pb.board().points().filter(|&p| pb.board().is_empty(p)).collect();
    for p in points {
        if !(0..4).any(|d| pb.pattern(c, p, d) == Pattern::Flex4) {
            continue;
        }
        if c == Color::Black && pb.forbidden_kind(p).is_some() {
            continue;
        }
        // Confirm on the board: after p, the line through p holds two five points.
        pb.make(p, c);
        let two = DIRS.iter().any(|&(dx, dy)| {
            (-4i32..=4)
                .filter(|&k| k != 0)
                .filter(|&k| {
                    let (x, y) = (i32::from(p.x) + k * dx, i32::from(p.y) + k * dy);
                    x >= 0
                        && y >= 0
                        && (x as usize) < size
                        && (y as usize) < size
                        && pb.board().is_empty(Pos::new(x as usize, y as usize))
                        && pb.is_five(c, Pos::new(x as usize, y as usize))
                })
                .count()
                >= 2
        });
        pb.undo();
        if two {
            out.push(p);
        }
    }
    out
}
