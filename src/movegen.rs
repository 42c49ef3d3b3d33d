//! Move lists by kind, read off the threat classes of a [`PatternBoard`].

use crate::board::DIRS;
use crate::pattern::{Pattern4, PatternBoard};
use crate::types::{Color, MAX_SIZE, Pos};
use arrayvec::ArrayVec;

/// A list that can hold every point of the largest board.
pub type MoveList = ArrayVec<Pos, { MAX_SIZE * MAX_SIZE }>;

/// A few points on the lines through one point (the five points one move creates: never more than 8).
pub type LinePoints = ArrayVec<Pos, 16>;

/// The moves that stop a set of five points: the five point itself, and in caro up to two far-end closes on each
/// of its four lines (a stop of several five points stops each of them), so never more than 9.
pub type StopList = ArrayVec<Pos, 32>;

/// Whether colour `c` may play `p`: on the board, empty, and for renju Black not forbidden (a five always may).
pub fn is_legal(pb: &mut PatternBoard, c: Color, p: Pos) -> bool {
    if !pb.board().is_empty(p) {
        return false;
    }
    c == Color::White || pb.pattern4(c, p) != Pattern4::Forbidden || pb.forbidden_kind(p).is_none()
}

/// Every point where colour `c` would make a winning five.
#[must_use]
pub fn five_points(pb: &PatternBoard, c: Color) -> MoveList {
    pb.five_points(c).collect()
}

/// The points within four steps of `p` on its four lines where colour `c` would make a winning five. After `c`
/// plays `p`, these are the five points the move created (a move can only create fives on its own lines).
#[must_use]
pub fn five_points_around(pb: &PatternBoard, c: Color, p: Pos) -> LinePoints {
    let size = pb.size() as i32;
    let mut out = LinePoints::new();
    for &(dx, dy) in &DIRS {
        for k in (-4i32..=4).filter(|&k| k != 0) {
            let (x, y) = (i32::from(p.x) + k * dx, i32::from(p.y) + k * dy);
            if x < 0 || y < 0 || x >= size || y >= size {
                continue;
            }
            let q = Pos::new(x as usize, y as usize);
            if pb.board().is_empty(q) && pb.is_five(c, q) && !out.is_full() && !out.contains(&q) {
                out.push(q);
            }
        }
    }
    out
}

/// Every legal point where colour `c` would make at least one four but no five.
pub fn four_moves(pb: &mut PatternBoard, c: Color) -> MoveList {
    let mut out = MoveList::new();
    four_moves_into(pb, c, &mut out);
    out
}

/// [`four_moves`] into `out` (which is cleared first), without moving a large list around.
pub fn four_moves_into(pb: &mut PatternBoard, c: Color, out: &mut MoveList) {
    out.clear();
    let mut forbidden = false;
    for p in pb.four_candidates(c) {
        match pb.pattern4(c, p) {
            Pattern4::Five => {}
            Pattern4::Forbidden => forbidden = true,
            _ => out.push(p),
        }
    }
    if forbidden {
        let candidates: MoveList =
            pb.four_candidates(c).filter(|&p| pb.pattern4(c, p) == Pattern4::Forbidden).collect();
        for p in candidates {
            // A Forbidden class may hide a legal four (a four-three-three whose threes are not all real).
            if pb.fours(c, p) == 1 && pb.forbidden_kind(p).is_none() {
                out.push(p);
            }
        }
    }
}

/// Chebyshev distance between two points.
#[must_use]
pub fn distance(a: Pos, b: Pos) -> u32 {
    u32::from(a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)))
}

/// The legal moves for `mover` after which the opponent has none of its five points `fives` left: the five point
/// itself when there is one (two cannot both be blocked), and in caro, where a five blocked at both ends wins
/// nothing, also a point beyond a five point that closes the five's far end.
pub fn five_stops(pb: &mut PatternBoard, mover: Color, fives: &[Pos]) -> StopList {
    let mut out = StopList::new();
    if !pb.rule().five_needs_open_end() {
        if let [f] = fives
            && is_legal(pb, mover, *f)
        {
            out.push(*f);
        }
        return out;
    }
    let size = pb.size() as i32;
    let mut candidates = MoveList::new();
    for &f in fives {
        for &(dx, dy) in &DIRS {
            for k in -5i32..=5 {
                let (x, y) = (i32::from(f.x) + k * dx, i32::from(f.y) + k * dy);
                if x < 0 || y < 0 || x >= size || y >= size {
                    continue;
                }
                let q = Pos::new(x as usize, y as usize);
                if pb.board().is_empty(q) && !candidates.contains(&q) {
                    candidates.push(q);
                }
            }
        }
    }
    let threat = mover.opponent();
    for q in candidates {
        if !is_legal(pb, mover, q) {
            continue;
        }
        pb.make(q, mover);
        let stopped = pb.five_points(threat).next().is_none();
        pb.undo();
        if stopped && out.try_push(q).is_err() {
            break; // cannot happen: see StopList
        }
    }
    out
}
