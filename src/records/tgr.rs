//! **Tengen's game file** (`.tgr`), little-endian: the four bytes `TGR1`, then one record per game:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | `0xA7`, the record marker (a reader that meets a bad record looks for the next one) |
//! | 1 | rule, as Gomocup's `INFO rule`: 0 freestyle, 1 standard, 4 renju, 8 caro with overlines, 9 caro |
//! | 1 | board size, 5 to 22 |
//! | 1 | result: 0 White won, 1 draw, 2 Black won |
//! | 1 | flags: bit 0 set when each move has a score, bit 1 when the players are named, bit 2 when each position has a searched best move, bit 3 when Black's next move was forbidden (renju) and lost the game |
//! | 1 | how many of the first moves were the opening (given, not chosen by the players) |
//! | 2 | the number of moves `n` |
//! | 2·n | the moves in order, Black first, each `(x << 5) \| y` with Gomocup's `x`, `y` |
//! | 2·n | with flag bit 0: per move, the mover's search score (`i16`; −32768 for none, as for opening moves) |
//! | 2 + a + b | with flag bit 1: Black's name (a length byte `a`, then `a` bytes of UTF-8), then White's (`b`) |
//! | 2·n | with flag bit 2: per move, the best move a search found in the position before it (packed as the moves; `0xFFFF` for none) |
//! | 2 | with flag bit 3: the forbidden point Black played after the last move (packed as a move; the result is White's) |
//!
//! A reader that meets a damaged record reports it and looks for the next marker that starts a readable one; the
//! strict reader of a join ([`game_ranges`]) stops at it instead.

use super::{Bad, GameRecord, Outcome, pack, read_moves, rule_of_number, unpack};
use crate::types::Rule;
use std::io::{self, Write};

/// The first bytes of Tengen's game file.
pub const MAGIC: &[u8; 4] = b"TGR1";
/// The byte that starts every record.
const MARKER: u8 = 0xA7;
/// A best move that was not given.
const NO_MOVE: u16 = 0xFFFF;

/// Writes the file header (for a new, empty file).
///
/// # Errors
/// I/O errors.
pub fn write_header(out: &mut dyn Write) -> io::Result<()> {
    out.write_all(MAGIC)
}

/// Writes one game record.
///
/// # Errors
/// I/O errors, or a game too long for the format.
pub fn write_game(out: &mut dyn Write, game: &GameRecord) -> io::Result<()> {
    let n = u16::try_from(game.moves.len()).map_err(|_| io::Error::other("a game of over 65535 moves"))?;
    let scores = game.scores.as_ref().filter(|s| s.len() == game.moves.len());
    let best = game.best.as_ref().filter(|b| b.len() == game.moves.len());
    let opening = u8::try_from(game.opening.min(game.moves.len())).unwrap_or(u8::MAX);
    let flags = u8::from(scores.is_some())
        | (u8::from(game.players.is_some()) << 1)
        | (u8::from(best.is_some()) << 2)
        | (u8::from(game.forbidden_end.is_some()) << 3);
    let mut bytes = vec![MARKER, game.rule.info() as u8, game.size as u8, game.outcome as u8, flags, opening];
    bytes.extend_from_slice(&n.to_le_bytes());
    for &p in &game.moves {
        bytes.extend_from_slice(&pack(p).to_le_bytes());
    }
    for &s in scores.into_iter().flatten() {
        bytes.extend_from_slice(&s.to_le_bytes());
    }
    for name in game.players.iter().flatten() {
        let name = short_name(name);
        bytes.push(name.len() as u8);
        bytes.extend_from_slice(name.as_bytes());
    }
    for b in best.into_iter().flatten() {
        bytes.extend_from_slice(&b.map_or(NO_MOVE, pack).to_le_bytes());
    }
    if let Some(p) = game.forbidden_end {
        bytes.extend_from_slice(&pack(p).to_le_bytes());
    }
    out.write_all(&bytes)
}

/// `name` cut to at most 255 bytes on a character boundary (a name's length is one byte).
fn short_name(name: &str) -> &str {
    let mut end = name.len().min(255);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Reads one game record at the start of `bytes`; returns it and its length.
fn read_game(bytes: &[u8]) -> Result<(GameRecord, usize), Bad> {
    const HEAD: usize = 8;
    if bytes.len() < HEAD {
        return Err(Bad::Truncated(bytes.len(), HEAD));
    }
    if bytes[0] != MARKER {
        return Err(Bad::Corrupt(format!("no record marker (0x{:02x})", bytes[0])));
    }
    let rule = rule_of_number(bytes[1]).ok_or_else(|| Bad::Corrupt(format!("unknown rule {}", bytes[1])))?;
    let size = usize::from(bytes[2]);
    if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
        return Err(Bad::Corrupt(format!("board size {size}")));
    }
    let outcome = match bytes[3] {
        0 => Outcome::WhiteWins,
        1 => Outcome::Draw,
        2 => Outcome::BlackWins,
        r => return Err(Bad::Corrupt(format!("result {r}"))),
    };
    let flags = bytes[4];
    if flags > 15 {
        return Err(Bad::Corrupt(format!("flags {flags}")));
    }
    let opening = usize::from(bytes[5]);
    let n = usize::from(u16::from_le_bytes([bytes[6], bytes[7]]));
    if n > size * size || opening > n {
        return Err(Bad::Corrupt(format!("{n} moves with {opening} opening moves on a {size}x{size} board")));
    }
    let mut len = HEAD + 2 * n * (1 + usize::from(flags & 1));
    if bytes.len() < len {
        return Err(Bad::Truncated(bytes.len(), len));
    }
    let word = |i: usize| u16::from_le_bytes([bytes[HEAD + 2 * i], bytes[HEAD + 2 * i + 1]]);
    let moves = read_moves((0..n).map(word), size)?;
    let scores = (flags & 1 != 0).then(|| (n..2 * n).map(|i| word(i) as i16).collect());
    let mut players = None;
    if flags & 2 != 0 {
        let mut names = [String::new(), String::new()];
        for name in &mut names {
            let Some(&k) = bytes.get(len) else { return Err(Bad::Truncated(bytes.len(), len + 1)) };
            let end = len + 1 + usize::from(k);
            let text = bytes.get(len + 1..end).ok_or(Bad::Truncated(bytes.len(), end))?;
            *name = std::str::from_utf8(text)
                .map_err(|_| Bad::Corrupt("a player's name is not UTF-8".to_string()))?
                .to_string();
            len = end;
        }
        players = Some(names);
    }
    let mut best = None;
    if flags & 4 != 0 {
        let end = len + 2 * n;
        let words = bytes.get(len..end).ok_or(Bad::Truncated(bytes.len(), end))?;
        let mut list = Vec::with_capacity(n);
        for (i, w) in words.chunks_exact(2).enumerate() {
            let m = u16::from_le_bytes([w[0], w[1]]);
            list.push(if m == NO_MOVE {
                None
            } else {
                Some(unpack(m, size).ok_or_else(|| Bad::Corrupt(format!("best move {} is off the board", i + 1)))?)
            });
        }
        best = Some(list);
        len = end;
    }
    let mut forbidden_end = None;
    if flags & 8 != 0 {
        let end = len + 2;
        let w = bytes.get(len..end).ok_or(Bad::Truncated(bytes.len(), end))?;
        let p = unpack(u16::from_le_bytes([w[0], w[1]]), size)
            .filter(|p| !moves.contains(p))
            .ok_or_else(|| Bad::Corrupt("the forbidden last move is off the board or on a stone".to_string()))?;
        if outcome != Outcome::WhiteWins || moves.len() % 2 != 0 {
            return Err(Bad::Corrupt("a forbidden last move that is not Black's loss".to_string()));
        }
        forbidden_end = Some(p);
        len = end;
    }
    Ok((GameRecord { rule, size, outcome, opening, moves, scores, players, best, forbidden_end }, len))
}

/// Every record of a whole Tengen game file (magic included), strictly: each record's rule, board size and byte
/// range in `bytes`, or the first problem (`not a Tengen game file`, `record N: …`). For joining game files, where a
/// damaged record must stop the join rather than be skipped.
///
/// # Errors
/// The first problem met.
pub fn game_ranges(bytes: &[u8]) -> Result<Vec<(Rule, usize, std::ops::Range<usize>)>, String> {
    ranges_of(bytes, false)
}

/// The complete records of a game file whose last record may be torn (a run stopped while writing it), as
/// [`game_ranges`] gives them: the last one's range ends where the file is whole.
///
/// # Errors
/// Bytes that do not start with the header, and a damaged record (not merely cut short at the end).
pub fn complete_games(bytes: &[u8]) -> Result<Vec<(Rule, usize, std::ops::Range<usize>)>, String> {
    ranges_of(bytes, true)
}

/// [`game_ranges`], a record cut short at the end left out rather than an error where `torn_end`.
fn ranges_of(bytes: &[u8], torn_end: bool) -> Result<Vec<(Rule, usize, std::ops::Range<usize>)>, String> {
    let Some(body) = bytes.strip_prefix(MAGIC.as_slice()) else {
        return Err("not a Tengen game file (no TGR1 at its start)".to_string());
    };
    let mut ranges = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let number = ranges.len() + 1;
        match read_game(&body[at..]) {
            Ok((game, len)) => {
                ranges.push((game.rule, game.size, MAGIC.len() + at..MAGIC.len() + at + len));
                at += len;
            }
            Err(Bad::Truncated(..)) if torn_end => break,
            Err(Bad::Truncated(have, want)) => {
                return Err(format!(
                    "record {number} at byte {}: truncated ({have} of its {want} bytes)",
                    MAGIC.len() + at
                ));
            }
            Err(Bad::Corrupt(why)) => return Err(format!("record {number} at byte {}: {why}", MAGIC.len() + at)),
        }
    }
    Ok(ranges)
}

/// Game files joined into one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Joined {
    /// The joined file, header included.
    pub bytes: Vec<u8>,
    /// How many games it holds.
    pub games: usize,
    /// Their rule and board size (none when there is no game).
    pub rule: Option<(Rule, usize)>,
}

/// Whole game files (each name with its bytes) joined into one, in the order given, every record checked by
/// [`game_ranges`], so that a damaged record or a file of another rule or board size is reported and never mixed in.
///
/// # Errors
/// The first such problem, naming its file (`…; nothing was written`).
pub fn join_game_files(files: &[(String, Vec<u8>)]) -> Result<Joined, String> {
    let mut joined = MAGIC.to_vec();
    let mut first: Option<(Rule, usize, &str)> = None;
    let mut count = 0;
    for (name, bytes) in files {
        let ranges = game_ranges(bytes).map_err(|e| format!("{name}: {e}; nothing was written"))?;
        for (number, (rule, size, range)) in ranges.into_iter().enumerate() {
            match first {
                None => first = Some((rule, size, name)),
                Some((r, s, from)) if (r, s) != (rule, size) => {
                    return Err(format!(
                        "{name}: record {} is {rule} on {size}x{size}, but {from} starts with {r} on {s}x{s}; \
                         nothing was written",
                        number + 1
                    ));
                }
                Some(_) => {}
            }
            joined.extend_from_slice(&bytes[range]);
            count += 1;
        }
    }
    Ok(Joined { bytes: joined, games: count, rule: first.map(|(r, s, _)| (r, s)) })
}

/// The game records of a Tengen game file's body.
pub(super) fn read_games(bytes: &[u8], error: &mut dyn FnMut(String)) -> Vec<GameRecord> {
    let mut games = Vec::new();
    let mut at = 0;
    let mut number = 0;
    while at < bytes.len() {
        number += 1;
        match read_game(&bytes[at..]) {
            Ok((game, len)) => {
                games.push(game);
                at += len;
            }
            Err(Bad::Truncated(have, want)) => {
                error(format!("record {number}: truncated ({have} of its {want} bytes)"));
                break;
            }
            Err(Bad::Corrupt(why)) => {
                error(format!("record {number}: {why}; skipped"));
                // On to the next marker that starts a readable record.
                at += 1;
                while at < bytes.len()
                    && !(bytes[at] == MARKER && matches!(read_game(&bytes[at..]), Ok(_) | Err(Bad::Truncated(..))))
                {
                    at += 1;
                }
            }
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{NO_SCORE, read_training};
    use crate::types::Pos;

    fn game(moves: &[&str], outcome: Outcome, scores: bool) -> GameRecord {
        let moves: Vec<Pos> = moves.iter().map(|m| Pos::parse(m, 15).expect("point")).collect();
        let scores = scores.then(|| (0..moves.len()).map(|i| if i < 2 { NO_SCORE } else { i as i16 * 10 }).collect());
        GameRecord {
            rule: Rule::Renju,
            size: 15,
            outcome,
            opening: 2,
            moves,
            scores,
            players: None,
            best: None,
            forbidden_end: None,
        }
    }

    fn file(games: &[GameRecord]) -> Vec<u8> {
        let mut bytes = Vec::new();
        write_header(&mut bytes).expect("write");
        for g in games {
            write_game(&mut bytes, g).expect("write");
        }
        bytes
    }

    #[test]
    fn games_round_trip() {
        let games = [
            game(&["h8", "h9", "j10", "g8"], Outcome::BlackWins, true),
            game(&["h8", "i9"], Outcome::Draw, false),
            game(&["h8", "a1", "o15", "b2", "n14"], Outcome::WhiteWins, true),
        ];
        let mut errors = Vec::new();
        let data = read_training(&file(&games), &mut |e| errors.push(e));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data.games, games);
        assert!(data.samples.is_empty());
    }

    #[test]
    fn named_players_round_trip_and_a_cut_name_is_truncation() {
        let mut named = game(&["h8", "h9", "j10", "g8"], Outcome::WhiteWins, true);
        named.players = Some(["tengen".to_string(), "PentaZen 0.4 — ü".to_string()]);
        let long = "x".repeat(300);
        let mut unscored = game(&["h8", "i9"], Outcome::Draw, false);
        unscored.players = Some([long.clone(), String::new()]);
        let mut searched = game(&["h8", "g9", "j10"], Outcome::BlackWins, false);
        searched.best = Some(vec![None, Pos::parse("a1", 15).ok(), Pos::parse("o15", 15).ok()]);
        let games = [named, searched, unscored];
        let bytes = file(&games);
        let mut errors = Vec::new();
        let data = read_training(&bytes, &mut |e| errors.push(e));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data.games[..2], games[..2]);
        // A name is at most 255 bytes.
        assert_eq!(data.games[2].players, Some([long[..255].to_string(), String::new()]));
        // The join's strict reader agrees on every record's length.
        let ranges = game_ranges(&bytes).expect("whole");
        assert_eq!(ranges.last().map(|r| r.2.end), Some(bytes.len()));
        // Cut inside White's name: the last record is reported truncated, the others are kept.
        let mut errors = Vec::new();
        let data = read_training(&bytes[..bytes.len() - 1], &mut |e| errors.push(e));
        assert_eq!(data.games.len(), 2);
        assert!(errors[0].starts_with("record 3: truncated"), "{errors:?}");
    }

    #[test]
    fn a_forbidden_last_move_round_trips_and_must_be_blacks_loss() {
        let mut lost = game(&["h8", "a1", "i8", "a3", "h10", "a5", "i9", "a7"], Outcome::WhiteWins, true);
        lost.forbidden_end = Pos::parse("j8", 15).ok();
        lost.players = Some(["black".to_string(), "white".to_string()]);
        let plain = game(&["h8", "i9"], Outcome::Draw, false);
        let mut errors = Vec::new();
        let bytes = file(&[lost.clone(), plain.clone()]);
        let data = read_training(&bytes, &mut |e| errors.push(e));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data.games, [lost.clone(), plain.clone()]);
        assert_eq!(game_ranges(&bytes).expect("whole").len(), 2);
        // Cut inside the point: truncated.
        let one = file(&[lost.clone()]);
        let mut errors = Vec::new();
        let data = read_training(&one[..one.len() - 1], &mut |e| errors.push(e));
        assert!(data.games.is_empty() && errors[0].starts_with("record 1: truncated"), "{errors:?}");
        // On a stone, won by Black, or after White's move: not a forbidden move of Black's that lost.
        let mut on_stone = lost.clone();
        on_stone.forbidden_end = Pos::parse("h8", 15).ok();
        let mut black_won = lost.clone();
        black_won.outcome = Outcome::BlackWins;
        let mut whites_turn = lost.clone();
        whites_turn.moves.pop();
        for bad in [on_stone, black_won, whites_turn] {
            let mut errors = Vec::new();
            let data = read_training(&file(&[bad, plain.clone()]), &mut |e| errors.push(e));
            assert_eq!(data.games, std::slice::from_ref(&plain));
            assert!(errors.len() == 1 && errors[0].starts_with("record 1:"), "{errors:?}");
        }
    }

    #[test]
    fn a_corrupt_record_is_named_and_the_rest_is_read() {
        let games = [
            game(&["h8", "h9", "j10"], Outcome::BlackWins, false),
            game(&["h8", "i9", "j10"], Outcome::WhiteWins, true),
            game(&["h8", "g9"], Outcome::Draw, false),
        ];
        let mut bytes = file(&games);
        // The second record's third move repeats its first (h8); its length is unchanged.
        let second = 4 + 8 + 6;
        assert_eq!(bytes[second], MARKER);
        let (first_move0, first_move1) = (bytes[second + 8], bytes[second + 9]);
        bytes[second + 12] = first_move0;
        bytes[second + 13] = first_move1;
        let mut errors = Vec::new();
        let data = read_training(&bytes, &mut |e| errors.push(e));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("record 2:") && errors[0].contains("taken"), "{errors:?}");
        assert_eq!(data.games, vec![games[0].clone(), games[2].clone()]);
        // A bad rule byte in the first record: reported, and the reader finds the next record.
        let mut bytes = file(&games);
        bytes[5] = 7;
        let mut errors = Vec::new();
        let data = read_training(&bytes, &mut |e| errors.push(e));
        assert!(errors[0].starts_with("record 1:") && errors[0].contains("rule 7"), "{errors:?}");
        assert_eq!(data.games, games[1..].to_vec());
    }

    #[test]
    fn a_truncated_file_keeps_its_whole_records() {
        let games = [game(&["h8", "h9", "j10"], Outcome::BlackWins, true), game(&["h8", "i9"], Outcome::Draw, true)];
        let bytes = file(&games);
        let mut errors = Vec::new();
        let data = read_training(&bytes[..bytes.len() - 3], &mut |e| errors.push(e));
        assert_eq!(data.games, vec![games[0].clone()]);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("record 2: truncated"), "{errors:?}");
    }
}
