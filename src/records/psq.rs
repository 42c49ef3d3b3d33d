//! **Piskvork's game record** (`.psq`), as Gomocup publishes every tournament game (read only):
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0      the board's size
//! 8,9,0                          a move a line: x,y counted from 1 (y from the top), the mover's milliseconds
//! …
//! KATAGOMO21.R.zip               Black's engine, then White's
//! EMBRYO21.R.zip
//! -1
//! 2,Renju                        a number, and the league
//! ```
//!
//! The file's name ends in the result (`…_1.psq`: Black won; `_2` White, `_0` a draw): in Gomocup's 2020-2021 files
//! it names the last mover as the winner in every game that ended in a five, while the trailer's number differs from
//! it in about two files of three, so it is not the result and is not read. The rule is the league's (`Renju`,
//! `Standard1`, `Freestyle2`, `Fastgame`, …). The leading moves of 0 ms are the tournament's opening stones, not the engines' choices. A renju
//! game that White won by Black's forbidden move ends with that move: it becomes the record's `forbidden_end`.

use super::{GameRecord, Outcome};
use crate::pattern::PatternBoard;
use crate::types::{Color, MAX_SIZE, MIN_SIZE, Pos, Rule};

/// The first word of every `.psq` file.
pub const PSQ_MAGIC: &[u8] = b"Piskvorky";

/// One game as a `.psq` file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqGame {
    /// The game (players named, Black first; the opening stones counted in `opening`).
    pub record: GameRecord,
    /// Per move of `record.moves`, the milliseconds its mover spent.
    pub times: Vec<u32>,
}

/// The rule a league's name says (`Renju`, `Standard1`, `Freestyle2`, `Fastgame`, `Caro`), if any.
fn rule_of_league(name: &str) -> Option<Rule> {
    let name = name.to_ascii_lowercase();
    let rules = [
        ("renju", Rule::Renju),
        ("standard", Rule::Standard),
        ("freestyle", Rule::Freestyle),
        ("fastgame", Rule::Freestyle),
        ("caro", Rule::Caro),
    ];
    rules.into_iter().find(|(word, _)| name.starts_with(word)).map(|(_, rule)| rule)
}

/// The result a file name ends in (`…_1.psq`), if it ends in one.
fn outcome_of_name(file_name: &str) -> Option<Outcome> {
    let name = file_name.rsplit(['/', '\\']).next()?;
    let stem = name.get(..name.len().checked_sub(4)?).filter(|_| name.to_ascii_lowercase().ends_with(".psq"))?;
    match stem.rsplit_once('_')?.1 {
        "0" => Some(Outcome::Draw),
        "1" => Some(Outcome::BlackWins),
        "2" => Some(Outcome::WhiteWins),
        _ => None,
    }
}

/// The board's side from the first line (`Piskvorky 15x15, …`).
fn size_of_header(line: &str) -> Result<usize, String> {
    let dims = line
        .strip_prefix("Piskvorky ")
        .and_then(|rest| rest.split(',').next())
        .ok_or_else(|| format!("not a Piskvork record (its first line is '{}')", short(line)))?;
    let (w, h) = dims.split_once('x').ok_or_else(|| format!("no board size in '{}'", short(line)))?;
    let (w, h) = (w.trim().parse::<usize>(), h.trim().parse::<usize>());
    match (w, h) {
        (Ok(w), Ok(h)) if w == h && (MIN_SIZE..=MAX_SIZE).contains(&w) => Ok(w),
        (Ok(w), Ok(h)) => Err(format!("a {w}x{h} board (square boards of {MIN_SIZE} to {MAX_SIZE} are read)")),
        _ => Err(format!("no board size in '{}'", short(line))),
    }
}

/// A line as an error message quotes it: at most 40 characters.
fn short(line: &str) -> String {
    line.chars().take(40).collect()
}

/// A move line `x,y,ms`, if the line is one.
fn move_line(line: &str) -> Option<Result<(usize, usize, u32), String>> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [x, y, ms] = fields[..] else { return None };
    let numbers = (x.parse::<i64>(), y.parse::<i64>(), ms.parse::<i64>());
    let (Ok(x), Ok(y), Ok(ms)) = numbers else { return None };
    let from_one = |v: i64| v.checked_sub(1).and_then(|v| usize::try_from(v).ok());
    Some(match (from_one(x), from_one(y), u32::try_from(ms).ok()) {
        (Some(x), Some(y), Some(ms)) => Ok((x, y, ms)),
        _ => Err(format!("move '{}' is off the board or has a negative time", short(line))),
    })
}

/// Reads one `.psq` record; `file_name` (its path is enough) gives the result.
///
/// # Errors
/// The file is not a Piskvork record, its moves are off the board, on taken points or continue after a five, its
/// file name gives no result, or it names no rule.
pub fn read_psq(text: &str, file_name: &str) -> Result<PsqGame, String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let size = size_of_header(lines.next().ok_or("an empty file")?)?;
    let mut moves = Vec::new();
    let mut times = Vec::new();
    let mut trailer = Vec::new();
    for line in lines {
        match move_line(line) {
            Some(m) if trailer.is_empty() => {
                let (x, y, ms) = m?;
                if x >= size || y >= size {
                    return Err(format!(
                        "move {} ({},{}) is off the {size}x{size} board",
                        moves.len() + 1,
                        x + 1,
                        y + 1
                    ));
                }
                moves.push(Pos::new(x, y));
                times.push(ms);
            }
            _ => trailer.push(line),
        }
    }
    let names: Vec<String> =
        trailer.iter().filter(|l| l.parse::<i64>().is_err() && !l.contains(',')).map(|l| engine_name(l)).collect();
    let league = trailer.iter().find_map(|l| l.split_once(',').filter(|(n, _)| n.trim().parse::<u8>().is_ok()));
    let rule = league
        .and_then(|(_, name)| rule_of_league(name))
        .ok_or("the record names no rule (a last line such as '2,Renju')")?;
    let outcome = outcome_of_name(file_name).ok_or("no result: the file name does not end in _0, _1 or _2")?;
    let players = match &names[..] {
        [black, white, ..] => Some([black.clone(), white.clone()]),
        _ => None,
    };
    let opening = times.iter().take_while(|&&ms| ms == 0).count();
    let forbidden_end = check_moves(&mut moves, size, rule, outcome)?;
    times.truncate(moves.len());
    let record = GameRecord {
        rule,
        size,
        outcome,
        opening: opening.min(moves.len()),
        moves,
        scores: None,
        players,
        best: None,
        forbidden_end,
    };
    Ok(PsqGame { record, times })
}

/// An engine's name as the record gives it, without its `.zip`.
fn engine_name(line: &str) -> String {
    let name = line.strip_suffix(".zip").or_else(|| line.strip_suffix(".ZIP")).unwrap_or(line);
    name.to_string()
}

/// Checks that the moves are on empty points and stop at the first five; a renju game White won whose last move is
/// Black's forbidden point loses that move, returned as the forbidden end.
fn check_moves(moves: &mut Vec<Pos>, size: usize, rule: Rule, outcome: Outcome) -> Result<Option<Pos>, String> {
    let mut pb = PatternBoard::new(size, rule).map_err(|e| e.to_string())?;
    let mut side = Color::Black;
    let last = moves.len();
    for (i, &m) in moves.iter().enumerate() {
        if !pb.board().is_empty(m) {
            return Err(format!("move {} ({}) is on a taken point", i + 1, m.notation(size)));
        }
        if i + 1 == last && side == Color::Black && outcome == Outcome::WhiteWins && pb.forbidden_kind(m).is_some() {
            moves.pop();
            return Ok(Some(m));
        }
        if pb.is_five(side, m) && i + 1 < last {
            return Err(format!("move {} ({}) makes five and the game goes on", i + 1, m.notation(size)));
        }
        pb.make(m, side);
        side = side.opponent();
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "Piskvorky 15x15, 11:11, 0\n8,9,0\n9,8,0\n8,11,0\n8,8,0\n10,8,0\n9,9,69564\n9,10,79638\n\
                        KATAGOMO21.R.zip\nEMBRYO21.R.zip\n-1\n0,Renju\n";

    #[test]
    fn a_record_is_read_with_its_opening_players_times_and_result() {
        let game = read_psq(GAME, "renju-2021/0_0_7_0.psq").expect("valid");
        let r = &game.record;
        assert_eq!((r.rule, r.size, r.outcome, r.opening), (Rule::Renju, 15, Outcome::Draw, 5));
        assert_eq!(r.moves.len(), 7);
        assert_eq!(r.moves[0], Pos::new(7, 8), "x,y are counted from 1");
        assert_eq!(r.moves[5].notation(15), "I7");
        assert_eq!(game.times[5..], [69_564, 79_638]);
        assert_eq!(r.players, Some(["KATAGOMO21.R".to_string(), "EMBRYO21.R".to_string()]));
        assert_eq!(r.forbidden_end, None);
    }

    #[test]
    fn the_result_comes_from_the_file_name_and_the_rule_from_the_trailer() {
        // The trailer's number is not the result (Gomocup's files: see the module's head).
        assert_eq!(read_psq(GAME, "a/b_7_1.psq").expect("valid").record.outcome, Outcome::BlackWins);
        assert_eq!(read_psq(GAME, "b_7_2.psq").expect("valid").record.outcome, Outcome::WhiteWins);
        assert!(read_psq(GAME, "x.psq").unwrap_err().contains("no result"));
        assert!(read_psq(GAME, "x_3.psq").unwrap_err().contains("no result"));
        let bare = GAME.replace("0,Renju\n", "");
        assert!(read_psq(&bare, "a_1.psq").unwrap_err().contains("no rule"));
        let no_result = GAME.replace("0,Renju", "x,Renju");
        assert!(read_psq(&no_result, "a.psq").unwrap_err().contains("no rule"));
    }

    #[test]
    fn bad_records_are_named() {
        let cases = [
            ("", "empty"),
            ("hello\n8,8,0\n", "not a Piskvork record"),
            ("Piskvorky 15x20, 11:11, 0\n", "15x20"),
            ("Piskvorky 15x15, 11:11, 0\n16,1,5\n0,Renju\n", "off the"),
            ("Piskvorky 15x15, 11:11, 0\n0,1,5\n0,Renju\n", "off the board"),
            ("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,5\n0,Renju\n", "taken point"),
        ];
        for (text, what) in cases {
            let e = read_psq(text, "g_0.psq").unwrap_err();
            assert!(e.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn black_s_losing_forbidden_move_becomes_the_forbidden_end() {
        // Black's h8 makes a double three (h6 h7 _, f8 g8 _); White (elsewhere) won by it.
        let moves = "8,10,0\n1,1,0\n8,9,0\n1,3,0\n6,8,0\n1,5,0\n7,8,0\n1,7,0\n8,8,900\n";
        let text = format!("Piskvorky 15x15, 11:11, 0\n{moves}B.zip\nW.zip\n-1\n2,Renju\n");
        let game = read_psq(&text, "0_0_1_2.psq").expect("valid");
        assert_eq!(game.record.forbidden_end.map(|p| p.notation(15)), Some("H8".to_string()));
        assert_eq!((game.record.moves.len(), game.times.len()), (8, 8));
        // The same move in freestyle is just a move.
        let free = text.replace("2,Renju", "2,Freestyle1");
        assert_eq!(read_psq(&free, "0_0_1_2.psq").expect("valid").record.forbidden_end, None);
    }

    #[test]
    fn moves_after_a_five_make_the_record_bad() {
        let moves = "1,1,0\n1,15,0\n2,1,9\n2,15,9\n3,1,9\n3,15,9\n4,1,9\n4,15,9\n5,1,9\n5,15,9\n6,1,9\n";
        let text = format!("Piskvorky 15x15, 11:11, 0\n{moves}B.zip\nW.zip\n-1\n1,Freestyle1\n");
        assert!(read_psq(&text, "g_1.psq").unwrap_err().contains("makes five"));
    }
}
