//! The geometry the opening rules speak of: the central squares stones must lie in, and the board's symmetries under
//! which two moves lead to the same game.

use crate::pattern::PatternBoard;
use crate::types::Pos;

/// Whether `p` lies within the central square of side `side` of a board of side `size`.
#[must_use]
pub fn within(p: Pos, size: usize, side: usize) -> bool {
    let c = (size / 2) as i32;
    let r = (side / 2) as i32;
    (i32::from(p.x) - c).abs() <= r && (i32::from(p.y) - c).abs() <= r
}

/// The board's symmetries (0 to 7, see `Pos::transform`) that map the stones of `board`, with their colours, onto
/// themselves.
#[must_use]
pub fn symmetries(board: &PatternBoard) -> Vec<usize> {
    let size = board.size();
    let b = board.board();
    (0..8)
        .filter(|&k| b.moves().iter().all(|&(q, c)| b.cell(q.transform(size, k)) == crate::board::Cell::Stone(c)))
        .collect()
}

/// The distinct images of `p` under the position's symmetries ([`symmetries`]), `p` first: the moves that lead to
/// the same game as `p`.
#[must_use]
pub fn images(board: &PatternBoard, p: Pos) -> Vec<Pos> {
    let mut out: Vec<Pos> = Vec::new();
    for k in symmetries(board) {
        let image = p.transform(board.size(), k);
        if !out.contains(&image) {
            out.push(image);
        }
    }
    out
}

/// Whether a symmetry of the position maps `p` onto `q` (two such moves lead to the same game).
#[must_use]
pub fn symmetric(board: &PatternBoard, p: Pos, q: Pos) -> bool {
    symmetries(board).into_iter().any(|k| p.transform(board.size(), k) == q)
}
