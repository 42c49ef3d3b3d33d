//! Move lists by kind, read off the threat classes of a [`PatternBoard`].

use crate::board::DIRS;
use crate::pattern::{Pattern4, PatternBoard};
use crate::types::{CELLS, Color, MAX_SIZE, Pos};
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

/// The first of the opponent's five points that `side` may legally block (none when every block is forbidden).
pub fn legal_five_block(pb: &mut PatternBoard, side: Color) -> Option<Pos> {
    let fives = five_points(pb, side.opponent());
    fives.into_iter().find(|&f| is_legal(pb, side, f))
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

/// Sorts `moves` by `key`, smallest first and stably, computing each move's key once.
pub fn sort_by_cached_key(moves: &mut MoveList, key: impl Fn(Pos) -> u32) {
    // Key, then position in the list (which keeps equal keys in order), then the point itself.
    // (Filled in place: collecting into an array this large would copy it.)
    let mut keyed = ArrayVec::<u64, { MAX_SIZE * MAX_SIZE }>::new();
    for (i, &p) in moves.iter().enumerate() {
        keyed.push((u64::from(key(p)) << 32) | ((i as u64) << 16) | p.index() as u64);
    }
    keyed.sort_unstable();
    for (slot, k) in moves.iter_mut().zip(&keyed) {
        *slot = Pos::from_index((k & 0xffff) as usize);
    }
}

/// Chebyshev distance between two points.
#[must_use]
pub fn distance(a: Pos, b: Pos) -> u32 {
    u32::from(a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)))
}

/// Whether `m` lies on a line (row, column or diagonal) through `o`, within `reach` steps of it (`o` itself too).
#[must_use]
pub fn on_line_within(m: Pos, o: Pos, reach: u8) -> bool {
    let (dx, dy) = (m.x.abs_diff(o.x), m.y.abs_diff(o.y));
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= reach
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

/// The moves a full-width search should consider for `side`, to move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // built once per node and consumed at once: boxing would only add an allocation
pub enum Candidates {
    /// `side` makes a five here.
    Win(Pos),
    /// The opponent has a five point that `side` cannot stop (two of them, or a renju block that is forbidden).
    Lost,
    /// The moves, unordered. `forced` when they answer a threat (a four or an open three) rather than being every
    /// move near the stones.
    Moves {
        /// The moves.
        moves: MoveList,
        /// Whether they are answers to a threat.
        forced: bool,
    },
}

/// The search's moves for `side`: its five, else the stops of the opponent's four, else against an open three
/// (an opponent point of class [`Pattern4::Flex4`]) its own fours and the moves after which the opponent has no
/// such point left, else every legal move within two steps of a stone (the centre on an empty board). In renju
/// Black's forbidden points are never generated: a White four whose only block is forbidden is [`Candidates::Lost`]
/// for Black.
pub fn candidates(pb: &mut PatternBoard, side: Color) -> Candidates {
    if let Some(f) = pb.five_points(side).next() {
        return Candidates::Win(f);
    }
    let opp = side.opponent();
    if pb.five_points(opp).next().is_some() {
        let fives: LinePoints = pb.five_points(opp).take(16).collect();
        let stops = five_stops(pb, side, &fives);
        if stops.is_empty() {
            return Candidates::Lost;
        }
        return Candidates::Moves { moves: stops.iter().copied().collect(), forced: true };
    }
    if pb.class_counts()[opp.index()][Pattern4::Flex4 as usize] > 0 {
        let defences = three_defences(pb, side);
        if !defences.is_empty() {
            return Candidates::Moves { moves: defences, forced: true };
        }
    }
    Candidates::Moves { moves: near_moves(pb, side), forced: false }
}

/// Every legal move for `side` within two points of a stone (the centre on an empty board).
pub fn near_moves(pb: &mut PatternBoard, side: Color) -> MoveList {
    let mut moves = MoveList::new();
    let size = pb.size();
    let mut forbidden = MoveList::new();
    for y in 0..size {
        for x in 0..size {
            let p = Pos::new(x, y);
            if pb.is_near(p) && pb.board().is_empty(p) {
                if side == Color::Black && pb.pattern4(side, p) == Pattern4::Forbidden {
                    forbidden.push(p);
                } else {
                    moves.push(p);
                }
            }
        }
    }
    for p in forbidden {
        if is_legal(pb, side, p) {
            moves.push(p);
        }
    }
    if pb.board().stone_count() == 0 {
        moves.push(Pos::new(size / 2, size / 2));
    }
    moves
}

/// The legal moves for `side`, other than `exclude`, nearest the stones (the centre on an empty board): every one
/// at the least distance (counted in king's moves) that has any. For lists of several moves on a board where the
/// moves near the stones run out (the second best move on an empty board).
pub fn nearest_moves(pb: &mut PatternBoard, side: Color, exclude: &[Pos]) -> MoveList {
    let size = pb.size();
    let stones: Vec<Pos> = pb.board().moves().iter().map(|&(p, _)| p).collect();
    let centre = [Pos::new(size / 2, size / 2)];
    let anchors = if stones.is_empty() { &centre[..] } else { &stones[..] };
    let distance = |p: Pos| {
        let d = |a: u8, b: u8| a.abs_diff(b);
        anchors.iter().map(|q| d(p.x, q.x).max(d(p.y, q.y))).min().unwrap_or(0)
    };
    let mut moves = MoveList::new();
    let mut nearest = u8::MAX;
    for p in pb.board().points() {
        if exclude.contains(&p) || !is_legal(pb, side, p) {
            continue;
        }
        let d = distance(p);
        if d < nearest {
            nearest = d;
            moves.clear();
        }
        if d == nearest {
            moves.push(p);
        }
    }
    moves
}

/// Against the opponent's open threes: `side`'s fours, and the legal moves on the lines through the opponent's
/// straight-four points after which it has none left (only the fours when nothing stops them).
fn three_defences(pb: &mut PatternBoard, side: Color) -> MoveList {
    let opp = side.opponent();
    let size = pb.size() as i32;
    let mut points = MoveList::new();
    let mut seen = [0u64; CELLS.div_ceil(64)];
    let mut add = |q: Pos| {
        let (word, bit) = (q.index() / 64, 1u64 << (q.index() % 64));
        if seen[word] & bit == 0 {
            seen[word] |= bit;
            points.push(q);
        }
    };
    // Straight-four points are in the four set.
    let threats: MoveList = pb.four_candidates(opp).filter(|&p| pb.pattern4(opp, p) == Pattern4::Flex4).collect();
    for &f in &threats {
        add(f);
        for &(dx, dy) in &DIRS {
            for k in (-4i32..=4).filter(|&k| k != 0) {
                let (x, y) = (i32::from(f.x) + k * dx, i32::from(f.y) + k * dy);
                if x < 0 || y < 0 || x >= size || y >= size {
                    continue;
                }
                let q = Pos::new(x as usize, y as usize);
                if pb.board().is_empty(q) {
                    add(q);
                }
            }
        }
    }
    // A stone changes the classes only of the points on its lines within five steps: a move off the lines of one
    // of the threats leaves it a threat (the first thing has_class_after would find).
    let reaches_all = |q: Pos| {
        threats.iter().all(|f| {
            let (dx, dy) = (i32::from(q.x) - i32::from(f.x), i32::from(q.y) - i32::from(f.y));
            (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && dx.abs().max(dy.abs()) <= 5
        })
    };
    let mut out = four_moves(pb, side);
    for q in points {
        if !reaches_all(q) || out.contains(&q) || !is_legal(pb, side, q) {
            continue;
        }
        if !pb.has_class_after(q, side, opp, 1 << Pattern4::Flex4 as u16) {
            out.push(q);
        }
    }
    out
}
