//! The per-rule tables: line key → pattern for both colours, and four patterns → threat class.
//!
//! A line key holds the ten points around a centre (five each side, two bits a point, see
//! `board::Board::window_key`). The pattern of every key is found once, by placing stones on an eleven-point line
//! and looking for fives, fours and threes, with a memo so that "placing one more stone" reuses earlier answers.
//! Keys that no board can produce (a wall between two points of the board) are left `Dead`.

use super::{Pattern, Pattern4};
use crate::types::{Color, Rule};
use std::sync::OnceLock;

const KEYS: usize = 1 << 20;
const COMBOS: usize = 1 << 16;

/// An empty point in [`LineCells`].
pub const EMPTY: u8 = 0;
/// A stone of the colour being classified.
pub const OWN: u8 = 1;
/// An opponent stone.
pub const OPP: u8 = 2;
/// Off the board.
pub const WALL: u8 = 3;

/// Eleven points of one line seen by one colour ([`EMPTY`], [`OWN`], [`OPP`], [`WALL`]); index 5 is the point
/// being classified.
pub type LineCells = [u8; 11];

/// The tables of one rule.
pub struct RuleTables {
    /// Key → black pattern in the low nibble, white pattern in the high nibble.
    line: Box<[u8; KEYS]>,
    /// Per colour: four patterns packed as nibbles (direction `d` at bits `4d`) → [`Pattern4`].
    combo: [Box<[u8; COMBOS]>; 2],
}

static TABLES: [OnceLock<RuleTables>; 5] = [const { OnceLock::new() }; 5];

/// The tables of `rule`, built on first use.
pub fn tables(rule: Rule) -> &'static RuleTables {
    TABLES[rule.index()].get_or_init(|| RuleTables::build(rule))
}

impl RuleTables {
    /// The table byte of a line key: black pattern in the low nibble, white in the high one.
    #[inline]
    #[must_use]
    pub fn line(&self, key: u32) -> u8 {
        self.line[key as usize & (KEYS - 1)]
    }

    /// The threat class of four packed patterns for colour `c`.
    #[inline]
    #[must_use]
    pub fn combo(&self, c: Color, packed: u16) -> u8 {
        self.combo[c.index()][packed as usize]
    }

    fn build(rule: Rule) -> RuleTables {
        let mut line = boxed_array::<KEYS>();
        let mut black = Memo::new(rule, Color::Black);
        let mut white = Memo::new(rule, Color::White);
        for key in 0..KEYS as u32 {
            if !is_possible_key(key) {
                continue;
            }
            let b = black.pattern(key) as u8;
            let w = white.pattern(swap_colors(key)) as u8;
            line[key as usize] = b | (w << 4);
        }
        let combo = Color::BOTH.map(|c| {
            let forbidden = rule.has_forbidden() && c == Color::Black;
            let mut table = boxed_array::<COMBOS>();
            for (packed, slot) in table.iter_mut().enumerate() {
                let pats = [0, 1, 2, 3].map(|d| Pattern::from_bits(((packed >> (4 * d)) & 0xf) as u8));
                *slot = combine(pats, forbidden) as u8;
            }
            table
        });
        RuleTables { line, combo }
    }
}

fn boxed_array<const N: usize>() -> Box<[u8; N]> {
    match vec![0u8; N].into_boxed_slice().try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("a vector of N bytes converts to [u8; N]"),
    }
}

/// Exchanges the black and white bits of every point of a key (walls stay walls).
#[must_use]
pub const fn swap_colors(key: u32) -> u32 {
    ((key & 0x5_5555) << 1) | ((key >> 1) & 0x5_5555)
}

/// Whether some board produces this key: walls may only run in from the two outer ends of the window.
fn is_possible_key(key: u32) -> bool {
    let cell = |i: u32| (key >> (2 * i)) & 3;
    // Before the centre: points 0..5, farthest first; walls must be a prefix.
    let mut seen_board = false;
    for i in 0..5 {
        if cell(i) == 3 {
            if seen_board {
                return false;
            }
        } else {
            seen_board = true;
        }
    }
    // After the centre: points 5..10, nearest first; walls must be a suffix.
    let mut seen_wall = false;
    for i in 5..10 {
        if cell(i) == 3 {
            seen_wall = true;
        } else if seen_wall {
            return false;
        }
    }
    true
}

/// The eleven points of a key seen by Black (`01` own, `10` opponent), the centre empty.
fn cells_of_key(key: u32) -> LineCells {
    let mut cells = [EMPTY; 11];
    for i in 0..10 {
        let at = if i < 5 { i } else { i + 1 };
        cells[at] = ((key >> (2 * i)) & 3) as u8;
    }
    cells
}

fn key_of_cells(cells: &LineCells) -> u32 {
    let mut key = 0;
    for i in 0..10 {
        let at = if i < 5 { i } else { i + 1 };
        key |= u32::from(cells[at]) << (2 * i);
    }
    key
}

/// Memoised classification for one rule and colour, over keys seen from that colour (`01` = own stone).
struct Memo {
    exact: bool,
    caro: bool,
    known: Vec<u8>,
}

const UNKNOWN: u8 = 0xff;

impl Memo {
    fn new(rule: Rule, c: Color) -> Memo {
        Memo { exact: rule.exact_five(c), caro: rule.five_needs_open_end(), known: vec![UNKNOWN; KEYS] }
    }

    fn pattern(&mut self, key: u32) -> Pattern {
        let known = self.known[key as usize];
        if known != UNKNOWN {
            return Pattern::from_bits(known);
        }
        let mut cells = cells_of_key(key);
        let (exact, caro) = (self.exact, self.caro);
        let p = analyse(&mut cells, exact, caro, &mut |sub: &LineCells| self.pattern(key_of_cells(sub)));
        self.known[key as usize] = p as u8;
        p
    }
}

/// Classifies a line directly, without tables (the from-scratch twin of the table lookup): the pattern a stone of
/// the `OWN` colour makes on the empty centre of `cells` under `rule`, where `own` is that colour.
#[must_use]
pub fn classify_line(cells: &LineCells, rule: Rule, own: Color) -> Pattern {
    let (exact, caro) = (rule.exact_five(own), rule.five_needs_open_end());
    let mut work = *cells;
    analyse(&mut work, exact, caro, &mut |sub: &LineCells| classify_line(sub, rule, own))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    Short,
    Five,
    Overline,
}

/// The run through `at` (an own stone): a winning five, a non-winning overline, or neither.
fn run_at(cells: &LineCells, at: usize, exact: bool, caro: bool) -> Run {
    let mut l = at;
    while l > 0 && cells[l - 1] == OWN {
        l -= 1;
    }
    let mut r = at;
    while r < 10 && cells[r + 1] == OWN {
        r += 1;
    }
    let len = r - l + 1;
    if len < 5 {
        Run::Short
    } else if len > 5 {
        if exact { Run::Overline } else { Run::Five }
    } else if caro && l > 0 && r < 10 && cells[l - 1] == OPP && cells[r + 1] == OPP {
        // Caro: an exact five with opponent stones at both ends wins nothing (the board edge does not block).
        Run::Short
    } else {
        Run::Five
    }
}

/// The nearest empty point on each side of the centre's run of own stones (the only points where one stone can
/// complete a five that contains the centre).
fn run_gaps(cells: &LineCells) -> [Option<usize>; 2] {
    let mut l = 5;
    while l > 0 && cells[l - 1] == OWN {
        l -= 1;
    }
    let mut r = 5;
    while r < 10 && cells[r + 1] == OWN {
        r += 1;
    }
    let left = (l > 0 && cells[l - 1] == EMPTY).then(|| l - 1);
    let right = (r < 10 && cells[r + 1] == EMPTY).then(|| r + 1);
    [left, right]
}

fn analyse<F>(cells: &mut LineCells, exact: bool, caro: bool, sub: &mut F) -> Pattern
where
    F: FnMut(&LineCells) -> Pattern,
{
    debug_assert_eq!(cells[5], EMPTY);
    cells[5] = OWN;
    let result = analyse_placed(cells, exact, caro, sub);
    cells[5] = EMPTY;
    result
}

fn analyse_placed<F>(cells: &mut LineCells, exact: bool, caro: bool, sub: &mut F) -> Pattern
where
    F: FnMut(&LineCells) -> Pattern,
{
    match run_at(cells, 5, exact, caro) {
        Run::Five => return Pattern::Five,
        Run::Overline => return Pattern::Overline,
        Run::Short => {}
    }
    // Fours: points where one more stone makes a five that contains the centre.
    let mut five_points = [0usize; 2];
    let mut fours = 0;
    for f in run_gaps(cells).into_iter().flatten() {
        cells[f] = OWN;
        if run_at(cells, f, exact, caro) == Run::Five {
            five_points[fours] = f;
            fours += 1;
        }
        cells[f] = EMPTY;
    }
    match fours {
        2 if five_points[1] - five_points[0] == 5 => return Pattern::Flex4,
        2 => return Pattern::DoubleFour,
        1 => return Pattern::Block4,
        _ => {}
    }
    // Below a four: what the best next own stone on this line would let the centre make.
    cells[5] = EMPTY;
    let mut best = Pattern::Dead;
    for q in 0..11 {
        if q == 5 || cells[q] != EMPTY {
            continue;
        }
        cells[q] = OWN;
        let grown = match sub(cells) {
            Pattern::Flex4 => Pattern::Flex3,
            Pattern::Block4 | Pattern::DoubleFour => Pattern::Block3,
            Pattern::Flex3 => Pattern::Flex2,
            Pattern::Block3 => Pattern::Block2,
            Pattern::Flex2 => Pattern::Flex1,
            Pattern::Block2 => Pattern::Block1,
            _ => Pattern::Dead,
        };
        cells[q] = EMPTY;
        best = best.max(grown);
    }
    cells[5] = OWN;
    best
}

/// The threat class of four line patterns. `forbidden` is true for renju Black, whose overlines, double fours and
/// (candidate) double threes are [`Pattern4::Forbidden`] unless a five comes with them.
#[must_use]
pub fn combine(pats: [Pattern; 4], forbidden: bool) -> Pattern4 {
    let count = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
    if count(Pattern::Five) > 0 {
        return Pattern4::Five;
    }
    let fours: u32 = pats.iter().map(|p| p.fours()).sum();
    let flex3 = count(Pattern::Flex3);
    if forbidden && (count(Pattern::Overline) > 0 || fours >= 2 || flex3 >= 2) {
        return Pattern4::Forbidden;
    }
    let block3 = count(Pattern::Block3);
    let flex2 = count(Pattern::Flex2);
    if count(Pattern::Flex4) > 0 || fours >= 2 {
        Pattern4::Flex4
    } else if fours == 1 && flex3 > 0 {
        Pattern4::Block4Flex3
    } else if fours == 1 && block3 + flex2 > 0 {
        Pattern4::Block4Plus
    } else if fours == 1 {
        Pattern4::Block4
    } else if flex3 >= 2 {
        Pattern4::Flex3x2
    } else if flex3 == 1 && block3 + flex2 > 0 {
        Pattern4::Flex3Plus
    } else if flex3 == 1 {
        Pattern4::Flex3
    } else if block3 >= 1 && block3 + flex2 >= 2 {
        Pattern4::Block3Plus
    } else if flex2 >= 2 {
        Pattern4::Flex2x2
    } else if block3 == 1 {
        Pattern4::Block3
    } else if flex2 == 1 {
        Pattern4::Flex2
    } else {
        Pattern4::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line from text: `X` own, `O` opponent, `#` wall, `.` empty, `*` the (empty) centre; 11 characters.
    fn line(text: &str) -> LineCells {
        let mut cells = [EMPTY; 11];
        assert_eq!(text.len(), 11, "{text}");
        for (i, ch) in text.chars().enumerate() {
            cells[i] = match ch {
                'X' => OWN,
                'O' => OPP,
                '#' => WALL,
                _ => EMPTY,
            };
        }
        assert_eq!(cells[5], EMPTY, "centre must be empty: {text}");
        cells
    }

    fn renju_black(text: &str) -> Pattern {
        classify_line(&line(text), Rule::Renju, Color::Black)
    }

    #[test]
    fn renju_black_lines() {
        assert_eq!(renju_black("...XX*XX..."), Pattern::Five);
        assert_eq!(renju_black("..XXX*XX..."), Pattern::Overline);
        assert_eq!(renju_black("....X*XX..."), Pattern::Flex4);
        assert_eq!(renju_black("...X.*XX..."), Pattern::Block4);
        assert_eq!(renju_black("...OX*XX..."), Pattern::Block4);
        // A straight four whose far end would make six is only a four.
        assert_eq!(renju_black("..X.X*XX..."), Pattern::Block4);
        assert_eq!(renju_black("..X.X*X.X.."), Pattern::DoubleFour);
        assert_eq!(renju_black("...XX*.X..."), Pattern::Block4);
        // Filling the gap would make six: no four for Black, only a three that can still become a (blocked) four.
        assert_eq!(renju_black("...XX*.XX.."), Pattern::Block3);
        assert_eq!(renju_black(".XX.X*.XX.."), Pattern::DoubleFour);
        assert_eq!(renju_black(".....*XX..."), Pattern::Flex3);
        assert_eq!(renju_black("....X*.X..."), Pattern::Flex3);
        assert_eq!(renju_black("....O*XX..."), Pattern::Block3);
        // A three that can only become a straight four by making an overline is no open three.
        assert_eq!(renju_black("X..XX*..X.."), Pattern::Block3);
        assert_eq!(renju_black(".....*X...."), Pattern::Flex2);
        assert_eq!(renju_black("....O*X...."), Pattern::Block2);
        assert_eq!(renju_black(".....*....."), Pattern::Flex1);
        assert_eq!(renju_black("OXXXX*O...."), Pattern::Five);
        assert_eq!(renju_black("OXXXX*XO..."), Pattern::Overline);
        assert_eq!(renju_black("#####*...O."), Pattern::Dead);
        assert_eq!(renju_black("#####*....O"), Pattern::Block1);
        assert_eq!(renju_black("....O*...O."), Pattern::Dead);
    }

    #[test]
    fn white_in_renju_and_freestyle_win_with_overlines() {
        let six = line("..XXX*XX...");
        assert_eq!(classify_line(&six, Rule::Renju, Color::White), Pattern::Five);
        assert_eq!(classify_line(&six, Rule::Freestyle, Color::Black), Pattern::Five);
        assert_eq!(classify_line(&six, Rule::Standard, Color::Black), Pattern::Overline);
        let long_four = line("..X.X*XX...");
        assert_eq!(classify_line(&long_four, Rule::Freestyle, Color::Black), Pattern::Flex4);
    }

    #[test]
    fn caro_needs_an_open_end() {
        let blocked = line("OXXXX*O....");
        assert_eq!(classify_line(&blocked, Rule::Caro, Color::Black), Pattern::Dead);
        assert_eq!(classify_line(&blocked, Rule::Freestyle, Color::Black), Pattern::Five);
        let edge = line("#XXXX*O....");
        assert_eq!(classify_line(&edge, Rule::Caro, Color::Black), Pattern::Five);
        let open = line("..OXX*X....");
        assert_eq!(classify_line(&open, Rule::Caro, Color::Black), Pattern::Block4);
        let six = line("OXXXX*XO...");
        assert_eq!(classify_line(&six, Rule::Caro, Color::Black), Pattern::Overline);
        assert_eq!(classify_line(&six, Rule::CaroOverline, Color::Black), Pattern::Five);
    }

    #[test]
    fn tables_agree_with_direct_classification() {
        // Every possible key for renju and caro, sampled with a fixed stride, both colours.
        for rule in [Rule::Renju, Rule::Caro, Rule::Freestyle] {
            let t = tables(rule);
            let mut checked = 0;
            for key in (0..KEYS as u32).step_by(97) {
                if !is_possible_key(key) {
                    assert_eq!(t.line(key), 0);
                    continue;
                }
                let cells = cells_of_key(key);
                let b = classify_line(&cells, rule, Color::Black) as u8;
                let wcells = cells_of_key(swap_colors(key));
                let w = classify_line(&wcells, rule, Color::White) as u8;
                assert_eq!(t.line(key), b | (w << 4), "rule {rule} key {key:#x}");
                checked += 1;
            }
            assert!(checked > 1000);
        }
    }

    #[test]
    fn combos() {
        use Pattern::*;
        assert_eq!(combine([Block4, Flex3, Dead, Dead], true), Pattern4::Block4Flex3);
        assert_eq!(combine([Block4, Block4, Dead, Dead], true), Pattern4::Forbidden);
        assert_eq!(combine([Block4, Block4, Dead, Dead], false), Pattern4::Flex4);
        assert_eq!(combine([DoubleFour, Dead, Dead, Dead], true), Pattern4::Forbidden);
        assert_eq!(combine([Flex3, Flex3, Dead, Dead], true), Pattern4::Forbidden);
        assert_eq!(combine([Flex3, Flex3, Dead, Dead], false), Pattern4::Flex3x2);
        assert_eq!(combine([Five, Overline, Block4, Block4], true), Pattern4::Five);
        assert_eq!(combine([Overline, Dead, Dead, Dead], false), Pattern4::None);
        assert_eq!(combine([Overline, Dead, Dead, Dead], true), Pattern4::Forbidden);
    }
}
