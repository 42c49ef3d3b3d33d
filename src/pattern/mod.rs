//! Line patterns, the per-cell threat class, and the exact renju forbidden check.
//!
//! For every empty point, direction and colour the board keeps a [`Pattern`]: what a stone of that colour placed
//! there makes on that line. The four directions combine into a [`Pattern4`], the point's threat class. Both are
//! looked up in tables built once per rule (see `table`) and updated incrementally by
//! [`PatternBoard::make`]/[`PatternBoard::undo`], touching only the points within five steps of the move on its four
//! lines.

mod board;
mod code;
mod forbid;
mod reach;
mod table;

pub use board::{ClassCounts, MoveOutcome, PatternBoard, SetupError, find_five};
pub use code::{CODES, CodeValues, code_of, code_of_patterns, code_patterns};
pub use reach::Reach;
pub use table::{EMPTY, LineCells, OPP, OWN, WALL, classify_line, combine};

/// What a stone placed on an empty point makes on one line, for one colour. Ordered by strength except
/// [`Pattern::Overline`], which sits low because for the colours it applies to it wins nothing.
///
/// Diagrams show the line after the move: `X` own stone, `*` the stone just placed, `o` opponent stone or edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made through this point on this line (`oX*XXo`).
    Dead = 0,
    /// Six or more in a row for a colour that needs exactly five: `XX*XXX` (renju Black: forbidden).
    Overline = 1,
    /// One stone that can grow only into a blocked two: `o*....`.
    Block1 = 2,
    /// One stone that can grow into an open two: `..*...`.
    Flex1 = 3,
    /// Two that can become a blocked three only: `oX*...`.
    Block2 = 4,
    /// Two that can become an open three: `..X*..`.
    Flex2 = 5,
    /// Three that can become a four, but not a straight four: `oXX*..`.
    Block3 = 6,
    /// Open three: one more stone makes a straight four (`..XX*..`, `.X*.X.`). In renju, whether Black's three is
    /// real also depends on that stone being legal, which only the full forbidden check decides.
    Flex3 = 7,
    /// Four with one point left to make five: `oXXX*.`, `XX*.X`.
    Block4 = 8,
    /// Straight four: two five points around one run of four: `.XX*X.`.
    Flex4 = 9,
    /// Two fours on the same line with different five points: `X.X*X.X`, `XX.*X.XX`, `XXX.*.XXX`.
    DoubleFour = 10,
    /// A five that wins under the rule.
    Five = 11,
}

impl Pattern {
    /// Every pattern, by value.
    pub const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::Block1,
        Pattern::Flex1,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::DoubleFour,
        Pattern::Five,
    ];

    /// The pattern of a 4-bit table value (`Dead` for values no table holds).
    #[must_use]
    pub const fn from_bits(bits: u8) -> Pattern {
        if (bits as usize) < Pattern::ALL.len() { Pattern::ALL[bits as usize] } else { Pattern::Dead }
    }

    /// How many fours this line pattern counts for in the double-four rule.
    #[must_use]
    pub const fn fours(self) -> u32 {
        match self {
            Pattern::Block4 | Pattern::Flex4 => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// A point's threat class for one colour, from its four line patterns. Ordered so that `>=` reads "at least as
/// strong as"; [`Pattern4::Forbidden`] sits just above `None` because it is never a move Black may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern4 {
    /// Nothing of note.
    None = 0,
    /// Renju Black only: an overline, two or more fours, or two or more line threes with no five. Overlines and
    /// double fours are final; a double three is a candidate that [`PatternBoard::forbidden_kind`] confirms.
    Forbidden = 1,
    /// One open two.
    Flex2 = 2,
    /// One blocked three.
    Block3 = 3,
    /// Two or more open twos.
    Flex2x2 = 4,
    /// A blocked three with another three or two.
    Block3Plus = 5,
    /// One open three.
    Flex3 = 6,
    /// An open three with a blocked three or an open two.
    Flex3Plus = 7,
    /// Two or more open threes (for renju Black this is [`Pattern4::Forbidden`] instead).
    Flex3x2 = 8,
    /// One four.
    Block4 = 9,
    /// A four with a blocked three or an open two.
    Block4Plus = 10,
    /// A four and an open three: the classic winning shape.
    Block4Flex3 = 11,
    /// A straight four, or two fours: the opponent cannot stop both five points.
    Flex4 = 12,
    /// Makes a five.
    Five = 13,
}

impl Pattern4 {
    /// Every class, by value.
    pub const ALL: [Pattern4; 14] = [
        Pattern4::None,
        Pattern4::Forbidden,
        Pattern4::Flex2,
        Pattern4::Block3,
        Pattern4::Flex2x2,
        Pattern4::Block3Plus,
        Pattern4::Flex3,
        Pattern4::Flex3Plus,
        Pattern4::Flex3x2,
        Pattern4::Block4,
        Pattern4::Block4Plus,
        Pattern4::Block4Flex3,
        Pattern4::Flex4,
        Pattern4::Five,
    ];

    /// The class of a table byte (`None` for values no table holds).
    #[must_use]
    pub const fn from_bits(bits: u8) -> Pattern4 {
        if (bits as usize) < Pattern4::ALL.len() { Pattern4::ALL[bits as usize] } else { Pattern4::None }
    }
}

/// Why a black move is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForbidKind {
    /// Six or more in a row.
    Overline,
    /// Two or more fours (possibly on one line).
    DoubleFour,
    /// Two or more real threes.
    DoubleThree,
}

impl std::fmt::Display for ForbidKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ForbidKind::Overline => "overline",
            ForbidKind::DoubleFour => "double-four",
            ForbidKind::DoubleThree => "double-three",
        })
    }
}

/// A game's moves in "h8 h9 j10" notation (spaces or commas), Black first, played on a new board.
///
/// # Errors
/// A bad point, a point given twice, or a five on the board.
pub fn position_from_moves(text: &str, size: usize, rule: crate::types::Rule) -> Result<PatternBoard, String> {
    use crate::types::{Color, Pos};
    let mut pb = PatternBoard::new(size, rule).map_err(|e| e.to_string())?;
    let mut side = Color::Black;
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let p = Pos::parse(word, size)?;
        if !pb.board().is_empty(p) {
            return Err(format!("{word} is played twice"));
        }
        if pb.is_five(side, p) {
            return Err(format!("{word} makes a five: the game is over"));
        }
        pb.make(p, side);
        side = side.opponent();
    }
    Ok(pb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip() {
        for (i, p) in Pattern::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i);
            assert_eq!(Pattern::from_bits(i as u8), *p);
        }
        for (i, p) in Pattern4::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i);
            assert_eq!(Pattern4::from_bits(i as u8), *p);
        }
        assert_eq!(Pattern::from_bits(15), Pattern::Dead);
        assert_eq!(Pattern4::from_bits(200), Pattern4::None);
    }
}
