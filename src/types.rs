//! Primitive types shared by every layer: colours, rules, board points.
//!
//! Coordinates follow Piskvork: `x` is the column (0 = `A`), `y` the row counted from the top (0 = the top row).
//! The human notation `H8` names the column by letter and the row by number counted from the bottom, so on a board of
//! size `n` the row number is `n - y`. On 15×15, `H8` is the centre, `x = 7, y = 7`.

use std::fmt;

/// Smallest board side the engine accepts.
pub const MIN_SIZE: usize = 5;
/// Largest board side the engine accepts.
pub const MAX_SIZE: usize = 22;
/// Row stride of the flat cell index (`y * STRIDE + x`); a power of two so that index arithmetic stays cheap.
pub const STRIDE: usize = 32;
/// Number of slots in a flat per-cell array (only `x, y < MAX_SIZE` are ever used).
pub const CELLS: usize = STRIDE * MAX_SIZE;

/// A stone colour; Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player (`X` in ASCII boards).
    Black = 0,
    /// The second player (`O` in ASCII boards).
    White = 1,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The colour to move after `moves` moves of a game Black started: also the colour of move `moves` counted
    /// from 0.
    #[must_use]
    pub const fn to_move(moves: usize) -> Color {
        if moves % 2 == 0 { Color::Black } else { Color::White }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// The rule set a game is played under (RULES.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins, for both colours (Gomocup `rule 0`).
    Freestyle = 0,
    /// Exactly five wins, for both colours; an overline wins nothing (`rule 1`).
    Standard = 1,
    /// Black: exactly five, with overline, double-four and double-three forbidden; White: five or more (`rule 4`).
    Renju = 2,
    /// Caro as GomocupJudge's `rule 8`: an overline wins, and so does an exact five unless opponent stones block
    /// both of its ends.
    CaroOverline = 3,
    /// Caro as GomocupJudge's `rule 9`: only an exact five that opponent stones do not block at both ends wins.
    Caro = 4,
}

impl Rule {
    /// Every rule, in table order.
    pub const ALL: [Rule; 5] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::CaroOverline, Rule::Caro];

    /// Index into per-rule arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The Gomocup `INFO rule` value of the rule (0, 1, 4, 8 or 9): what the judge sends, and what game files store.
    #[must_use]
    pub const fn info(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::CaroOverline => 8,
            Rule::Caro => 9,
        }
    }

    /// The rule named by a Gomocup/Yixin `INFO rule` value, as PROTOCOL.md §5 maps it: bit 4 or the Yixin value 2
    /// means renju, bit 8 caro (9 exact five), bit 1 standard, otherwise freestyle. The continuous-game bit is ignored.
    #[must_use]
    pub const fn from_info(value: u32) -> Rule {
        if value & 4 != 0 || value == 2 {
            Rule::Renju
        } else if value & 8 != 0 {
            if value & 1 != 0 { Rule::Caro } else { Rule::CaroOverline }
        } else if value & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    /// Whether `color` needs exactly five stones (an overline does not win for it).
    #[must_use]
    pub const fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Freestyle | Rule::CaroOverline => false,
            Rule::Standard | Rule::Caro => true,
            Rule::Renju => matches!(color, Color::Black),
        }
    }

    /// Whether a five must be open at one end at least (caro).
    #[must_use]
    pub const fn five_needs_open_end(self) -> bool {
        matches!(self, Rule::CaroOverline | Rule::Caro)
    }

    /// Whether Black has forbidden points.
    #[must_use]
    pub const fn has_forbidden(self) -> bool {
        matches!(self, Rule::Renju)
    }

    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::CaroOverline => "caro8",
            Rule::Caro => "caro",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Rule {
    type Err = String;

    /// Accepts the names `freestyle`, `standard`, `renju`, `caro` (rule 9), `caro8` (rule 8), case-insensitively, or
    /// a Gomocup `INFO rule` number.
    fn from_str(s: &str) -> Result<Rule, String> {
        let lower = s.trim().to_ascii_lowercase();
        match lower.as_str() {
            "freestyle" | "gomoku" => Ok(Rule::Freestyle),
            "standard" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            "caro" | "caro9" => Ok(Rule::Caro),
            "caro8" | "caro-overline" => Ok(Rule::CaroOverline),
            _ => match lower.parse::<u32>() {
                Ok(v) => Ok(Rule::from_info(v)),
                Err(_) => {
                    Err(format!("unknown rule '{s}' (expected freestyle, standard, renju, caro, caro8 or a number)"))
                }
            },
        }
    }
}

/// A point on the board. Only meaningful together with a board size (for the `H8` row number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Column, 0 = `A`.
    pub x: u8,
    /// Row from the top, 0 = the top row.
    pub y: u8,
}

impl Pos {
    /// A point from Piskvork coordinates.
    #[must_use]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos { x: x as u8, y: y as u8 }
    }

    /// Flat cell index `y * STRIDE + x`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.y as usize * STRIDE + self.x as usize
    }

    /// The point of a flat cell index.
    #[must_use]
    pub const fn from_index(index: usize) -> Pos {
        Pos::new(index % STRIDE, index / STRIDE)
    }

    /// Whether the point lies on a board of side `size`.
    #[must_use]
    pub const fn on_board(self, size: usize) -> bool {
        (self.x as usize) < size && (self.y as usize) < size
    }

    /// Parses `H8`-style notation (column letter, row number counted from the bottom) on a board of side `size`.
    ///
    /// # Errors
    /// A message naming what is wrong when the text is not a point of this board.
    pub fn parse(text: &str, size: usize) -> Result<Pos, String> {
        let t = text.trim();
        let mut chars = t.chars();
        let col = chars.next().ok_or_else(|| "empty coordinate".to_string())?;
        if !col.is_ascii_alphabetic() {
            return Err(format!("bad coordinate '{t}': expected a column letter then a row number, like H8"));
        }
        let x = (col.to_ascii_uppercase() as u8 - b'A') as usize;
        let rest = chars.as_str();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 3 {
            return Err(format!("bad coordinate '{t}': expected a column letter then a row number, like H8"));
        }
        let row: usize = rest.parse().map_err(|_| format!("bad coordinate '{t}'"))?;
        if x >= size || row == 0 || row > size {
            return Err(format!("coordinate '{t}' is off the {size}x{size} board"));
        }
        Ok(Pos::new(x, size - row))
    }

    /// The image of the point under symmetry `k` (0..8) of a board of side `size`: 0 is the identity, 1–3 the
    /// mirrors and the half turn, 4–7 the transposes and quarter turns. Every `k` maps the board onto itself.
    #[must_use]
    pub const fn transform(self, size: usize, k: usize) -> Pos {
        let n = size - 1;
        let (x, y) = (self.x as usize, self.y as usize);
        let (x, y) = match k % 8 {
            0 => (x, y),
            1 => (n - x, y),
            2 => (x, n - y),
            3 => (n - x, n - y),
            4 => (y, x),
            5 => (n - y, x),
            6 => (y, n - x),
            _ => (n - y, n - x),
        };
        Pos::new(x, y)
    }

    /// `H8`-style notation on a board of side `size`.
    #[must_use]
    pub fn notation(self, size: usize) -> String {
        format!("{}{}", (b'A' + self.x) as char, size - self.y as usize)
    }
}

/// Parses a comma-separated list of points in `H8` notation; an empty string is an empty list.
///
/// # Errors
/// The first bad coordinate, described.
pub fn parse_point_list(text: &str, size: usize) -> Result<Vec<Pos>, String> {
    let t = text.trim();
    if t.is_empty() || t == "-" {
        return Ok(Vec::new());
    }
    t.split(',').map(|p| Pos::parse(p, size)).collect()
}

/// Formats points as the testdata does: comma-separated `H8` notation sorted as strings, or `-` for none.
#[must_use]
pub fn format_point_list(points: &[Pos], size: usize) -> String {
    if points.is_empty() {
        return "-".to_string();
    }
    let mut names: Vec<String> = points.iter().map(|p| p.notation(size)).collect();
    names.sort();
    names.join(",")
}

/// Formats a sequence of points in order, comma-separated in `H8` notation (`-` for none).
#[must_use]
pub fn format_line(points: &[Pos], size: usize) -> String {
    if points.is_empty() {
        return "-".to_string();
    }
    points.iter().map(|p| p.notation(size)).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trip_and_centre() {
        let h8 = Pos::parse("H8", 15).unwrap();
        assert_eq!((h8.x, h8.y), (7, 7));
        let a15 = Pos::parse("a15", 15).unwrap();
        assert_eq!((a15.x, a15.y), (0, 0));
        let o1 = Pos::parse("O1", 15).unwrap();
        assert_eq!((o1.x, o1.y), (14, 14));
        for size in [MIN_SIZE, 15, 20, MAX_SIZE] {
            for y in 0..size {
                for x in 0..size {
                    let p = Pos::new(x, y);
                    assert_eq!(Pos::parse(&p.notation(size), size), Ok(p));
                    assert_eq!(Pos::from_index(p.index()), p);
                }
            }
        }
    }

    #[test]
    fn bad_notation_is_an_error() {
        for bad in ["", "H", "8", "P8", "H0", "H16", "H-1", "HH8", "H8x", "1H", "H 8"] {
            assert!(Pos::parse(bad, 15).is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn info_rule_mapping() {
        assert_eq!(Rule::from_info(0), Rule::Freestyle);
        assert_eq!(Rule::from_info(1), Rule::Standard);
        assert_eq!(Rule::from_info(2), Rule::Renju);
        assert_eq!(Rule::from_info(4), Rule::Renju);
        assert_eq!(Rule::from_info(6), Rule::Renju);
        assert_eq!(Rule::from_info(8), Rule::CaroOverline);
        assert_eq!(Rule::from_info(9), Rule::Caro);
        assert_eq!(Rule::from_info(3), Rule::Standard);
        assert_eq!("RENJU".parse::<Rule>(), Ok(Rule::Renju));
        assert!("chess".parse::<Rule>().is_err());
        for rule in Rule::ALL {
            assert_eq!(Rule::from_info(rule.info()), rule);
        }
    }

    #[test]
    fn point_lists_sort_like_the_testdata() {
        let pts = parse_point_list("K6,K10,E13", 15).unwrap();
        assert_eq!(format_point_list(&pts, 15), "E13,K10,K6");
        assert_eq!(format_point_list(&[], 15), "-");
    }
}
