//! Openings: the 26 renju openings, opening lines as match files hold them (`h8 h9 j10`, Black first, spaces or
//! commas between moves, `#` starts a comment), their checking under a rule, and their images under the eight board
//! symmetries; random balanced openings (`random.rs`). Used by the engine, the match runner and self-play; nothing
//! here searches.

mod random;

pub use random::{
    GenOptions, Scored, Scorer, random_openings, random_openings_where, seen_openings, unseen_random_openings,
};

use crate::pattern::{MoveOutcome, PatternBoard};
use crate::problems::Problems;
use crate::types::{Color, Pos, Rule};

/// The 26 renju openings (the first three stones), Black first.
pub const RENJU_OPENINGS: [&str; 26] = [
    "h8 h9 h10",
    "h8 h9 i10",
    "h8 h9 j10",
    "h8 h9 i9",
    "h8 h9 j9",
    "h8 h9 i8",
    "h8 h9 j8",
    "h8 h9 h7",
    "h8 h9 i7",
    "h8 h9 j7",
    "h8 h9 h6",
    "h8 h9 i6",
    "h8 h9 j6",
    "h8 i9 j10",
    "h8 i9 j9",
    "h8 i9 j8",
    "h8 i9 j7",
    "h8 i9 j6",
    "h8 i9 i8",
    "h8 i9 i7",
    "h8 i9 i6",
    "h8 i9 h7",
    "h8 i9 h6",
    "h8 i9 g7",
    "h8 i9 g6",
    "h8 i9 f6",
];

/// Parses one opening line: moves in `H8` notation separated by spaces or commas, Black first; a `#` starts a
/// comment. Returns `Ok(None)` for a blank or comment-only line. The moves are checked under `rule`: on the board,
/// each on an empty point, no five, and no forbidden Black move.
///
/// # Errors
/// What is wrong with the line.
pub fn parse_opening(line: &str, size: usize, rule: Rule) -> Result<Option<Vec<Pos>>, String> {
    let text = line.split('#').next().unwrap_or("");
    let words: Vec<&str> = text.split([' ', ',', '\t', ';']).filter(|w| !w.trim().is_empty()).collect();
    if words.is_empty() {
        return Ok(None);
    }
    let moves = words.iter().map(|w| Pos::parse(w, size)).collect::<Result<Vec<_>, _>>()?;
    check_opening(&moves, size, rule)?;
    Ok(Some(moves))
}

/// Checks that `moves` (Black first) can be played in order under `rule` and leave a game in progress.
///
/// # Errors
/// The first move that cannot be played, and why.
pub fn check_opening(moves: &[Pos], size: usize, rule: Rule) -> Result<(), String> {
    let mut pb = PatternBoard::new(size, rule).map_err(|e| e.to_string())?;
    let mut side = Color::Black;
    for &p in moves {
        let name = p.notation(size);
        if !p.on_board(size) {
            return Err(format!("move {} is off the board", moves.iter().position(|&q| q == p).unwrap_or(0) + 1));
        }
        match pb.outcome(p, side) {
            MoveOutcome::Illegal => return Err(format!("{name} is played twice")),
            MoveOutcome::Win => return Err(format!("{name} makes a five")),
            MoveOutcome::Forbidden(kind) => return Err(format!("{name} is forbidden for Black ({kind})")),
            MoveOutcome::Normal => pb.make(p, side),
        }
        side = side.opponent();
    }
    if pb.board().is_full() {
        return Err("the opening fills the board".to_string());
    }
    Ok(())
}

/// The openings of the file at `path` (as [`parse_openings`] reads them) on a board of `size` under `rule`.
///
/// # Errors
/// `PATH: reason` for a file that cannot be read or holds no opening, `PATH: line N: reason` for a bad line.
pub fn read_openings_file(path: &str, size: usize, rule: Rule) -> Result<Vec<Vec<Pos>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut openings = Vec::new();
    for (line, parsed) in parse_openings(&text, size, rule) {
        openings.push(parsed.map_err(|e| format!("{path}: line {line}: {e}"))?);
    }
    if openings.is_empty() {
        return Err(format!("{path}: no openings"));
    }
    Ok(openings)
}

/// The openings of the file at `path` as a match reads them: each bad line skipped on `problems`
/// (`PATH: line N: reason`), the rest played.
///
/// # Errors
/// `PATH: reason` for a file that cannot be read or holds no usable opening.
pub fn read_openings_skipping(
    path: &str,
    size: usize,
    rule: Rule,
    problems: &mut Problems,
) -> Result<Vec<Vec<Pos>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut openings = Vec::new();
    for (line, parsed) in parse_openings(&text, size, rule) {
        match parsed {
            Ok(moves) => openings.push(moves),
            Err(e) => problems.skip(format_args!("{path}: line {line}: {e}")),
        }
    }
    if openings.is_empty() {
        return Err(format!("{path}: no usable opening"));
    }
    Ok(openings)
}

/// Parses a whole openings file. Each line's result comes with its line number; blank and comment lines are left
/// out. A tab-separated line (a table such as the testdata's `renju26.tsv`) gives the first of its fields that is an
/// opening; a first table line without one is taken for the header and left out.
#[must_use]
pub fn parse_openings(text: &str, size: usize, rule: Rule) -> Vec<(usize, Result<Vec<Pos>, String>)> {
    let mut out = Vec::new();
    let mut seen_content = false;
    for (i, line) in text.lines().enumerate() {
        let parsed = if line.contains('\t') {
            let fields: Vec<_> = line.split('\t').map(|f| parse_opening(f, size, rule)).collect();
            match fields.iter().find_map(|f| f.clone().ok().flatten()) {
                Some(moves) => Ok(Some(moves)),
                None if !seen_content && !line.trim_start().starts_with('#') => {
                    seen_content = true;
                    continue;
                }
                None => fields.into_iter().find(Result::is_err).unwrap_or(Ok(None)),
            }
        } else {
            parse_opening(line, size, rule)
        };
        match parsed {
            Ok(None) => {}
            Ok(Some(moves)) => out.push((i + 1, Ok(moves))),
            Err(e) => out.push((i + 1, Err(e))),
        }
        seen_content |= !line.trim().is_empty() && !line.trim_start().starts_with('#');
    }
    out
}

/// The 26 renju openings, moved from 15×15's centre to the centre of a board of side `size`; those that leave the
/// board or cannot be played under `rule` are left out.
#[must_use]
pub fn renju_openings(size: usize, rule: Rule) -> Vec<Vec<Pos>> {
    let shift = size as isize / 2 - 7;
    let moved = |p: &Pos| {
        let (x, y) = (p.x as isize + shift, p.y as isize + shift);
        let on = |v: isize| (0..size as isize).contains(&v);
        (on(x) && on(y)).then(|| Pos::new(x as usize, y as usize))
    };
    RENJU_OPENINGS
        .iter()
        .filter_map(|o| parse_opening(o, 15, Rule::Freestyle).ok().flatten())
        .filter_map(|m| m.iter().map(moved).collect::<Option<Vec<Pos>>>())
        .filter(|m| check_opening(m, size, rule).is_ok())
        .collect()
}

/// Whether two openings put the same stones of each colour on the board (the order of the moves may differ).
#[must_use]
pub fn same_opening(a: &[Pos], b: &[Pos]) -> bool {
    sides(a.iter().copied()) == sides(b.iter().copied())
}

/// An opening's stones by colour (Black's, then White's), each sorted.
fn sides(moves: impl Iterator<Item = Pos>) -> [Vec<Pos>; 2] {
    let mut sides = [Vec::new(), Vec::new()];
    for (i, p) in moves.enumerate() {
        sides[i % 2].push(p);
    }
    sides.iter_mut().for_each(|s| s.sort());
    sides
}

/// The opening's distinct images under the eight board symmetries, the opening itself first.
#[must_use]
pub fn symmetric_images(moves: &[Pos], size: usize) -> Vec<Vec<Pos>> {
    let mut out: Vec<Vec<Pos>> = Vec::new();
    for k in 0..8 {
        let image: Vec<Pos> = moves.iter().map(|p| p.transform(size, k)).collect();
        if !out.iter().any(|o| same_opening(o, &image)) {
            out.push(image);
        }
    }
    out
}

/// One key for an opening and all its symmetric images: its stones by colour, sorted, in the image whose key is
/// least. Two openings have the same key when they put the same stones on the board up to a symmetry, in any order.
#[must_use]
pub fn opening_key(moves: &[Pos], size: usize) -> [Vec<Pos>; 2] {
    (0..8).map(|k| sides(moves.iter().map(|p| p.transform(size, k)))).min().unwrap_or_default()
}

/// Formats an opening as a line of the openings file (`h8 h9 j10`).
#[must_use]
pub fn format_opening(moves: &[Pos], size: usize) -> String {
    moves.iter().map(|p| p.notation(size).to_ascii_lowercase()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_26_openings_parse_and_are_distinct() {
        let all: Vec<Vec<Pos>> =
            RENJU_OPENINGS.iter().map(|o| parse_opening(o, 15, Rule::Renju).ok().flatten().expect("opening")).collect();
        for (i, a) in all.iter().enumerate() {
            assert_eq!(a.len(), 3);
            for b in &all[i + 1..] {
                assert!(!symmetric_images(a, 15).contains(b), "{a:?} and {b:?} are the same opening");
            }
        }
    }

    #[test]
    fn lines_take_commas_spaces_and_comments_and_bad_ones_say_why() {
        let p = |s: &str| parse_opening(s, 15, Rule::Renju);
        assert_eq!(p("  # only a comment"), Ok(None));
        assert_eq!(p(""), Ok(None));
        let m = p("h8, h9 ,J10 # sosei").expect("ok").expect("moves");
        assert_eq!(format_opening(&m, 15), "h8 h9 j10");
        assert!(p("h8 h8").unwrap_err().contains("twice"));
        assert!(p("h8 z9").is_err());
        assert!(p("h8 p1").unwrap_err().contains("off"));
        // Black's fourth stone at J8 makes a double three (H8-I8-J8 across, J8 on the diagonal H10-I9-J8).
        assert!(p("h8 a1 i8 a3 h10 a5 i9 a7 j8").unwrap_err().contains("forbidden"));
        assert!(parse_opening("h8 a1 i8 a3 h10 a5 i9 a7 j8", 15, Rule::Freestyle).is_ok());
        assert!(p("a1 b1 a2 b2 a3 b3 a4 b4 a5").unwrap_err().contains("five"));
    }

    #[test]
    fn an_opening_and_its_images_share_one_key_and_others_do_not() {
        let o = parse_opening("h8 g6 g5 i8 j7", 15, Rule::Renju).ok().flatten().expect("moves");
        let key = opening_key(&o, 15);
        for image in symmetric_images(&o, 15) {
            assert_eq!(opening_key(&image, 15), key);
        }
        // The same stones played in another order.
        let reordered = parse_opening("h8 i8 g5 g6 j7", 15, Rule::Renju).ok().flatten().expect("moves");
        assert_eq!(opening_key(&reordered, 15), key);
        // The same points with the colours of two stones exchanged, and one stone moved.
        let swapped = parse_opening("h8 g5 g6 i8 j7", 15, Rule::Renju).ok().flatten().expect("moves");
        assert_ne!(opening_key(&swapped, 15), key);
        let moved = parse_opening("h8 g6 g5 i8 j6", 15, Rule::Renju).ok().flatten().expect("moves");
        assert_ne!(opening_key(&moved, 15), key);
    }

    #[test]
    fn a_symmetric_opening_has_fewer_images() {
        let centre = vec![Pos::new(7, 7)];
        assert_eq!(symmetric_images(&centre, 15).len(), 1);
        let kansei = parse_opening("h8 h9 h10", 15, Rule::Renju).ok().flatten().expect("moves");
        assert_eq!(symmetric_images(&kansei, 15).len(), 4);
        let keigetsu = parse_opening("h8 h9 i10", 15, Rule::Renju).ok().flatten().expect("moves");
        assert_eq!(symmetric_images(&keigetsu, 15).len(), 8);
        // A table: the header is left out, each row gives its opening column.
        let table = "# source\nline\tname\tmoves\n1\tKansei\th8 h9 h10\n2\tbad\th8 h8\n";
        let rows = parse_openings(table, 15, Rule::Renju);
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(rows[0], (3, Ok(kansei.clone())));
        assert!(rows[1].1.is_err());
        let parsed = parse_openings("h8 h9\n# c\n\nh8 q9\n", 15, Rule::Renju);
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[1].0, 4);
        assert!(parsed[1].1.is_err());
    }
}
