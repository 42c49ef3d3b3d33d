//! The stone board: cells, the four directional line keys, the zobrist hash, make and undo.
//!
//! Each of the four directions keeps one `u64` per board line with two bits per point: `00` empty, `01` black,
//! `10` white, `11` wall. Every line is padded with five walls on each side, so the eleven points centred on any
//! board point (the window the pattern tables read) are always inside the word, and points off the board read as
//! walls. The board knows nothing of patterns; `pattern::PatternBoard` builds on it. A board's text: ASCII boards
//! (`ascii.rs`) and position lines (`position_line.rs`).

mod ascii;
mod position_line;
mod zobrist;

pub use ascii::{AsciiPosition, parse_ascii};
pub use position_line::{PositionLine, parse_position_line};

use crate::types::{CELLS, Color, MAX_SIZE, MIN_SIZE, Pos, STRIDE};

/// Unit steps of the four line directions: horizontal, vertical, diagonal (x+1, y+1), anti-diagonal (x+1, y-1).
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
/// Flat-index step of one point along each direction.
pub const DIR_STEP: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, 1 - STRIDE as isize];
/// Walls kept on each side of a line word.
pub const PAD: usize = 5;
/// Lines per direction (diagonals of a 22×22 board number 43).
pub const LINES: usize = 2 * MAX_SIZE - 1;

const WALL_WORD: u64 = u64::MAX;

/// The two line bits of a colour.
#[must_use]
pub const fn color_bits(c: Color) -> u64 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// What occupies a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A stone of that colour.
    Stone(Color),
}

/// A board of stones with incremental line keys and zobrist hash.
#[derive(Clone)]
pub struct Board {
    size: usize,
    cells: [u8; CELLS],
    lines: [[u64; LINES]; 4],
    hash: u64,
    moves: Vec<(Pos, Color)>,
}

impl Board {
    /// An empty board of side `size`.
    ///
    /// # Panics
    /// When `size` is outside `MIN_SIZE..=MAX_SIZE`; callers validate sizes that come from outside.
    #[must_use]
    pub fn new(size: usize) -> Board {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size} out of range");
        let mut lines = [[WALL_WORD; LINES]; 4];
        for y in 0..size {
            for x in 0..size {
                for (d, dir_lines) in lines.iter_mut().enumerate() {
                    let (line, along) = line_of(size, d, x, y);
                    dir_lines[line] &= !(3u64 << (2 * (along + PAD)));
                }
            }
        }
        Board { size, cells: [0; CELLS], lines, hash: 0, moves: Vec::with_capacity(size * size) }
    }

    /// Side length.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// What stands on `p` (which must be on the board).
    #[must_use]
    pub fn cell(&self, p: Pos) -> Cell {
        match self.cells[p.index()] {
            0 => Cell::Empty,
            1 => Cell::Stone(Color::Black),
            _ => Cell::Stone(Color::White),
        }
    }

    /// Whether `p` is on the board and empty.
    #[must_use]
    pub fn is_empty(&self, p: Pos) -> bool {
        p.on_board(self.size) && self.cells[p.index()] == 0
    }

    /// Whether the flat index `i` (of a point on the board) is empty.
    #[inline]
    #[must_use]
    pub fn is_empty_index(&self, i: usize) -> bool {
        self.cells[i] == 0
    }

    /// Zobrist hash of the stones (independent of move order and side to move).
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash the board would have with a stone of colour `c` added on `p`.
    #[inline]
    #[must_use]
    pub fn hash_after(&self, p: Pos, c: Color) -> u64 {
        self.hash ^ zobrist::key(c, p.index())
    }

    /// Stones played, oldest first.
    #[must_use]
    pub fn moves(&self) -> &[(Pos, Color)] {
        &self.moves
    }

    /// The last stone of colour `c`: below a search's null move the stones do not alternate, so the stone two
    /// moves back need not be the side's own.
    #[must_use]
    pub fn last_of(&self, c: Color) -> Option<Pos> {
        self.moves.iter().rev().find(|&&(_, s)| s == c).map(|&(p, _)| p)
    }

    /// Number of stones on the board.
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.moves.len()
    }

    /// Whether no empty point is left.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.moves.len() == self.size * self.size
    }

    /// Every point of the board, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Pos> + use<> {
        let size = self.size;
        (0..size * size).map(move |i| Pos::new(i % size, i / size))
    }

    /// The line word of direction `d` through `p`, and `p`'s index along it (without padding).
    #[must_use]
    pub fn line(&self, d: usize, p: Pos) -> (u64, usize) {
        let (line, along) = line_of(self.size, d, p.x as usize, p.y as usize);
        (self.lines[d][line], along)
    }

    /// The 20-bit key of the ten points around `p` in direction `d` (five on each side, `p` itself left out):
    /// bits 0..10 hold the points before `p`, farthest first; bits 10..20 the points after it.
    #[must_use]
    pub fn window_key(&self, d: usize, p: Pos) -> u32 {
        let (word, along) = self.line(d, p);
        key_of_window(word >> (2 * along))
    }

    /// Places a stone of colour `c` on the empty point `p`.
    pub fn make(&mut self, p: Pos, c: Color) {
        debug_assert!(self.is_empty(p), "make on a taken or off-board point {p:?}");
        let bits = color_bits(c);
        self.toggle(p, bits);
        self.cells[p.index()] = bits as u8;
        self.hash ^= zobrist::key(c, p.index());
        self.moves.push((p, c));
    }

    /// Takes back the last stone, returning it, or `None` on an empty history.
    pub fn undo(&mut self) -> Option<(Pos, Color)> {
        let (p, c) = self.moves.pop()?;
        self.toggle(p, color_bits(c));
        self.cells[p.index()] = 0;
        self.hash ^= zobrist::key(c, p.index());
        Some((p, c))
    }

    fn toggle(&mut self, p: Pos, bits: u64) {
        for d in 0..4 {
            let (line, along) = line_of(self.size, d, p.x as usize, p.y as usize);
            self.lines[d][line] ^= bits << (2 * (along + PAD));
        }
    }

    /// Recomputes the line words and the hash from the cells, for checking the incremental state.
    #[must_use]
    pub fn rebuilt(&self) -> Board {
        let mut fresh = Board::new(self.size);
        for &(p, c) in &self.moves {
            fresh.make(p, c);
        }
        fresh
    }

    /// Whether line words, cells and hash equal those of `other` (the move order may differ).
    #[must_use]
    pub fn same_position(&self, other: &Board) -> bool {
        self.size == other.size && self.cells == other.cells && self.lines == other.lines && self.hash == other.hash
    }
}

/// The line of direction `d` through `(x, y)` and the point's index along it.
#[inline]
#[must_use]
pub const fn line_of(size: usize, d: usize, x: usize, y: usize) -> (usize, usize) {
    match d {
        0 => (y, x),
        1 => (x, y),
        2 => (x + size - 1 - y, x),
        _ => (x + y, x),
    }
}

/// The 20-bit key of a window word whose bits 0..22 hold eleven points, the centre at bits 10..12.
#[inline]
#[must_use]
pub const fn key_of_window(window: u64) -> u32 {
    ((window & 0x3ff) | ((window >> 12) & 0x3ff) << 10) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_read_walls_off_the_board() {
        let b = Board::new(15);
        // A corner: the five points before it in every direction are walls (bits 11), after it empty or wall.
        let key = b.window_key(0, Pos::new(0, 0));
        assert_eq!(key & 0x3ff, 0x3ff);
        assert_eq!(key >> 10, 0);
        // Anti-diagonal through the top-left corner: only the corner itself is on the board.
        assert_eq!(b.window_key(3, Pos::new(0, 0)), 0xfffff);
        let centre = b.window_key(2, Pos::new(7, 7));
        assert_eq!(centre, 0);
    }

    #[test]
    fn make_undo_restores_lines_and_hash() {
        let mut b = Board::new(15);
        let start = b.clone();
        b.make(Pos::new(7, 7), Color::Black);
        b.make(Pos::new(8, 7), Color::White);
        assert_ne!(b.hash(), start.hash());
        // The white stone sits right of the black one: in the window of H8 it is the first point after the centre.
        assert_eq!((b.window_key(0, Pos::new(7, 7)) >> 10) & 3, 2);
        assert!(b.same_position(&b.rebuilt()));
        b.undo();
        b.undo();
        assert!(b.same_position(&start));
        assert_eq!(b.undo(), None);
    }

    #[test]
    fn last_of_finds_each_colours_last_stone() {
        let mut b = Board::new(15);
        assert_eq!(b.last_of(Color::Black), None);
        b.make(Pos::new(7, 7), Color::Black);
        b.make(Pos::new(8, 7), Color::White);
        // Two black stones in a row, as below a search's null move: the stone two back is Black's own, not White's.
        b.make(Pos::new(9, 9), Color::Black);
        b.make(Pos::new(6, 6), Color::Black);
        assert_eq!(b.last_of(Color::Black), Some(Pos::new(6, 6)));
        assert_eq!(b.last_of(Color::White), Some(Pos::new(8, 7)));
    }
}
