//! The network's inputs: for every point of the board and each of its four lines, the raw shape of the nine points
//! centred on it (four on each side: empty, own stone, opponent stone or the edge), read from one colour's view.
//! Each shape is a row of a learned table (see [`super::Network`]).
//!
//! A shape is numbered by the point itself (empty, own, opponent) and its two sides read outwards from it. A side
//! of four points has 121 possible readings (the edge can only come after the points on the board: 81 with no
//! edge, 27 with the edge at the fourth point, 9 at the third, 3 at the second, 1 at the first). A line read
//! backwards is the same shape, so the two sides are an unordered pair: 7,381 pairs, 22,143 rows in all. That
//! makes the evaluation exactly symmetric under the board's eight symmetries, and every shape trains the row of
//! its mirror image too.

use crate::board::{Board, DIR_STEP, PAD};
use crate::types::{Color, Pos};

/// How many readings one side of four points has.
pub const SIDE_SHAPES: usize = 121;
/// Unordered pairs of side readings.
pub const PAIRS: usize = SIDE_SHAPES * (SIDE_SHAPES + 1) / 2;
/// Rows of a table: the centre (empty, own, opponent) times the pairs.
pub const ROWS: usize = 3 * PAIRS;
/// The bits of a nine-point window (two a point).
pub const WINDOW_MASK: u64 = 0x3_ffff;

/// A line cell from `own`'s view: 0 empty, 1 own stone, 2 opponent stone, 3 edge.
const fn view_cell(cell: u64, own: u64) -> u64 {
    match cell {
        0 => 0,
        3 => 3,
        c if c == own => 1,
        _ => 2,
    }
}

/// The reading number of four cells given nearest first (view codes): the edge ends a reading, and whatever is
/// written after an edge is edge too.
const fn side_index(cells: [u64; 4]) -> u8 {
    let mut k = 0;
    let mut value = 0;
    let mut power = 1;
    while k < 4 && cells[k] != 3 {
        value += cells[k] * power;
        power *= 3;
        k += 1;
    }
    let offset = match k {
        4 => 0,
        3 => 81,
        2 => 108,
        1 => 117,
        _ => 120,
    };
    (offset + value) as u8
}

/// Per view (Black's, White's) and the byte of a window's first four points (bit 0 the farthest): their reading.
static BEFORE: [[u8; 256]; 2] = side_table(true);
/// Per view and the byte of a window's last four points (bit 0 the nearest): their reading.
static AFTER: [[u8; 256]; 2] = side_table(false);

const fn side_table(before: bool) -> [[u8; 256]; 2] {
    let mut out = [[0u8; 256]; 2];
    let mut v = 0;
    while v < 2 {
        let own = if v == 0 { 1 } else { 2 };
        let mut byte = 0;
        while byte < 256 {
            let b = byte as u64;
            let c = [
                view_cell(b & 3, own),
                view_cell((b >> 2) & 3, own),
                view_cell((b >> 4) & 3, own),
                view_cell((b >> 6) & 3, own),
            ];
            let cells = if before { [c[3], c[2], c[1], c[0]] } else { c };
            out[v][byte] = side_index(cells);
            byte += 1;
        }
        v += 1;
    }
    out
}

/// The row of an unordered pair of readings within a centre's block.
static PAIR: [[u16; SIDE_SHAPES]; SIDE_SHAPES] = {
    let mut out = [[0u16; SIDE_SHAPES]; SIDE_SHAPES];
    let mut a = 0;
    while a < SIDE_SHAPES {
        let mut b = 0;
        while b < SIDE_SHAPES {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            // The pairs whose lower reading is below `lo` come first: SIDE_SHAPES - i of them for each i < lo.
            out[a][b] = (lo * SIDE_SHAPES - lo * lo.saturating_sub(1) / 2 + (hi - lo)) as u16;
            b += 1;
        }
        a += 1;
    }
    out
};

/// Per view, the block of each centre cell (empty, Black, White; the edge never is one).
const CENTRE: [[u32; 4]; 2] = [[0, PAIRS as u32, 2 * PAIRS as u32, 0], [0, 2 * PAIRS as u32, PAIRS as u32, 0]];

/// The row of a nine-point window (point `j` at bits `2j`, the centre at `j = 4`) from the view of colour `view`
/// (0 Black, 1 White).
#[inline(always)]
#[must_use]
pub fn row(view: usize, window: u64) -> usize {
    let before = BEFORE[view][(window & 0xff) as usize];
    let after = AFTER[view][((window >> 10) & 0xff) as usize];
    (CENTRE[view][((window >> 8) & 3) as usize] + u32::from(PAIR[before as usize][after as usize])) as usize
}

/// The nine-point window of direction `d` centred on the point at `along + k` of a line word whose point at
/// `along` is on the board (two bits a point, [`PAD`] walls before the first).
#[inline(always)]
#[must_use]
pub fn window_at(word: u64, along: usize, k: isize) -> u64 {
    (word >> (2 * (along as isize + k + PAD as isize - 4)) as u32) & WINDOW_MASK
}

/// Calls `f(point index, direction, window)` for every point of the board and each of its four lines.
pub fn for_each_window(board: &Board, mut f: impl FnMut(usize, usize, u64)) {
    for p in board.points() {
        for d in 0..4 {
            let (word, along) = board.line(d, p);
            f(p.index(), d, window_at(word, along, 0));
        }
    }
}

/// The points whose window in direction `d` contains `p` (the nine points centred on it that are on the board),
/// with each one's window before and after the stone of colour `c` on `p`: calls `f(k, index, without, with)` for
/// the point `k` steps from `p`. The board may hold the stone or not.
#[inline(always)]
pub fn for_each_changed(board: &Board, p: Pos, c: Color, d: usize, mut f: impl FnMut(isize, usize, u64, u64)) {
    let (word, along) = board.line(d, p);
    let at = 2 * (along + PAD);
    let without = word & !(3 << at);
    let with = without | (crate::board::color_bits(c) << at);
    let centre = p.index() as isize;
    for k in -4..=4isize {
        // Off the board: the line word's walls (and a window centred there is no point's).
        if (without >> (at as isize + 2 * k) as u32) & 3 == 3 {
            continue;
        }
        let index = (centre + k * DIR_STEP[d]) as usize;
        f(k, index, window_at(without, along, k), window_at(with, along, k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_number_every_unordered_pair_once() {
        let mut seen = vec![false; PAIRS];
        for (a, pairs) in PAIR.iter().enumerate() {
            for (b, &i) in pairs.iter().enumerate().skip(a) {
                let i = i as usize;
                assert!(i < PAIRS, "{a} {b} -> {i}");
                assert!(!seen[i], "{a} {b} twice");
                seen[i] = true;
                assert_eq!(PAIR[b][a] as usize, i);
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn side_readings_are_distinct_for_board_lines() {
        // Every legal side (edge only after the points on the board) has its own reading.
        let mut seen = [false; SIDE_SHAPES];
        for k in 0..=4 {
            for value in 0..3u64.pow(k as u32) {
                let mut cells = [3u64; 4];
                let mut v = value;
                for cell in cells.iter_mut().take(k) {
                    *cell = v % 3;
                    v /= 3;
                }
                let i = side_index(cells) as usize;
                assert!(!seen[i], "{cells:?}");
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_line_read_backwards_and_the_colours_swapped_give_the_same_rows() {
        let mut rng = 12345u64;
        for _ in 0..2000 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mut w = 0u64;
            for j in 0..9 {
                let cell = (rng >> (2 * j + 20)) % 3; // no edges: every reading is then a board line
                w |= cell << (2 * j);
            }
            let mut reversed = 0u64;
            let mut swapped = 0u64;
            for j in 0..9 {
                let cell = (w >> (2 * j)) & 3;
                reversed |= cell << (2 * (8 - j));
                swapped |= [0, 2, 1, 3][cell as usize] << (2 * j);
            }
            for view in 0..2 {
                assert_eq!(row(view, w), row(view, reversed));
                assert_eq!(row(view, w), row(1 - view, swapped));
                assert!(row(view, w) < ROWS);
            }
        }
    }
}
