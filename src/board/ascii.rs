//! ASCII boards in and out: `X` black, `O` white, `.` empty, the top line is the highest row, with an optional
//! frame of row numbers on the left and column letters below (as in `testdata/forbidden/quintet_cases.txt`).
//!
//! Any other non-space character on a row marks an empty point (tests use it to mark expected forbidden points).

use super::{Board, Cell};
use crate::types::{Color, MAX_SIZE, MIN_SIZE, Pos};
use std::fmt::Write;

/// A position read from an ASCII board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AsciiPosition {
    /// Side length (the number of rows).
    pub size: usize,
    /// Black stones, row by row from the top.
    pub black: Vec<Pos>,
    /// White stones, row by row from the top.
    pub white: Vec<Pos>,
    /// Empty points marked with some other character, with that character.
    pub marks: Vec<(Pos, char)>,
}

/// Reads an ASCII board. Blank lines and the column-letter footer are skipped; a row may start with its number.
///
/// # Errors
/// A message when the rows are ragged, the size is out of range or a row number is wrong.
pub fn parse_ascii(text: &str) -> Result<AsciiPosition, String> {
    let mut rows: Vec<(Option<usize>, Vec<char>)> = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || is_footer(line) {
            continue;
        }
        let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
        let (number, rest) =
            if digits.is_empty() { (None, line) } else { (digits.parse::<usize>().ok(), &line[digits.len()..]) };
        let cells: Vec<char> = rest.chars().filter(|c| !c.is_whitespace()).collect();
        rows.push((number, cells));
    }
    let size = rows.len();
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!("board has {size} rows; expected {MIN_SIZE} to {MAX_SIZE}"));
    }
    let mut pos = AsciiPosition { size, ..AsciiPosition::default() };
    for (y, (number, cells)) in rows.iter().enumerate() {
        if let Some(n) = number
            && *n != size - y
        {
            return Err(format!("row labelled {n} is row {} of a {size}-row board", size - y));
        }
        if cells.len() != size {
            return Err(format!("row {} has {} points; expected {size}", size - y, cells.len()));
        }
        for (x, &ch) in cells.iter().enumerate() {
            let p = Pos::new(x, y);
            match ch {
                'X' | 'x' | 'B' | 'b' => pos.black.push(p),
                'O' | 'o' | 'W' | 'w' => pos.white.push(p),
                '.' | '_' | '+' | '-' => {}
                other => pos.marks.push((p, other)),
            }
        }
    }
    Ok(pos)
}

fn is_footer(line: &str) -> bool {
    line.chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .all(|(i, c)| u32::from(c.to_ascii_uppercase()) == u32::from(b'A') + i as u32)
}

impl Board {
    /// The board as text with the row-number and column-letter frame.
    #[must_use]
    pub fn to_ascii(&self) -> String {
        self.to_ascii_marked(&[])
    }

    /// The board as text, with the given empty points shown by their mark characters.
    #[must_use]
    pub fn to_ascii_marked(&self, marks: &[(Pos, char)]) -> String {
        let size = self.size();
        let mut out = String::new();
        for y in 0..size {
            let _ = write!(out, "{:>2}", size - y);
            for x in 0..size {
                let p = Pos::new(x, y);
                let ch = match self.cell(p) {
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    Cell::Empty => marks.iter().find(|(q, _)| *q == p).map_or('.', |&(_, m)| m),
                };
                out.push(' ');
                out.push(ch);
            }
            out.push('\n');
        }
        out.push_str("  ");
        for x in 0..size {
            out.push(' ');
            out.push((b'A' + x as u8) as char);
        }
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_frame_and_marks() {
        let mut b = Board::new(7);
        b.make(Pos::new(3, 3), Color::Black);
        b.make(Pos::new(4, 2), Color::White);
        let text = b.to_ascii_marked(&[(Pos::new(0, 6), '3')]);
        assert!(text.contains(" 1 3 . . . . . ."), "{text}");
        let back = parse_ascii(&text).unwrap();
        assert_eq!(back.size, 7);
        assert_eq!(back.black, vec![Pos::new(3, 3)]);
        assert_eq!(back.white, vec![Pos::new(4, 2)]);
        assert_eq!(back.marks, vec![(Pos::new(0, 6), '3')]);
    }

    #[test]
    fn bare_rows_parse_and_ragged_rows_fail() {
        let ok = parse_ascii(".....\n..X..\n..O..\n.....\n.....\n").unwrap();
        assert_eq!(ok.black, vec![Pos::new(2, 1)]);
        assert!(parse_ascii(".....\n....\n.....\n.....\n.....\n").is_err());
        assert!(parse_ascii("...\n...\n...\n").is_err());
        assert!(parse_ascii(" 5 .....\n 3 .....\n 3 .....\n 2 .....\n 1 .....\n").is_err());
    }
}
