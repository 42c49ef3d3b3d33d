//! Game records for training, in two formats.
//!
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
//! **c-gomoku-cli's samples** (`-sample format=bin`): one entry per position, `4 + 2·ply` bytes: a `u16` with the
//! result for the side to move in bits 0–1 (0 loss, 1 draw, 2 win), the ply in bits 2–10 and the board size in
//! bits 11–15; a `u16` with the rule in bits 0–2 (0, 1 or 4) and the move played in bits 3–15; then `ply` moves,
//! Black first, packed as above.
//!
//! Readers never stop at a bad record: it is reported (`record N: …`) and the rest is used. A file cut short
//! reports its last record as truncated.

use crate::types::{Pos, Rule};
use std::io::{self, Write};

/// The first bytes of Tengen's game file.
pub const MAGIC: &[u8; 4] = b"TGR1";
/// The byte that starts every record.
const MARKER: u8 = 0xA7;
/// A score that was not given.
pub const NO_SCORE: i16 = i16::MIN;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White won.
    WhiteWins = 0,
    /// Nobody won.
    Draw = 1,
    /// Black won.
    BlackWins = 2,
}

impl Outcome {
    /// Black's score: 0, ½ or 1.
    #[must_use]
    pub fn black_score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}

/// One whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule it was played under.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// How it ended.
    pub outcome: Outcome,
    /// How many of the first moves were given (the opening).
    pub opening: usize,
    /// Every move, Black first.
    pub moves: Vec<Pos>,
    /// Per move, the mover's search score ([`NO_SCORE`] for none), if kept.
    pub scores: Option<Vec<i16>>,
    /// Black's and White's names (engines of a match; self-play leaves them out).
    pub players: Option<[String; 2]>,
    /// Per move, the best move a search (`rescore`) found in the position before it, if kept.
    pub best: Option<Vec<Option<Pos>>>,
    /// The forbidden point Black played after the last move, which lost the game (renju): the result is White's,
    /// but the position did not decide it, so training leaves such games out and the book counts them.
    pub forbidden_end: Option<Pos>,
}

/// A search score as a game file keeps it: within what 16 bits hold, never [`NO_SCORE`].
#[must_use]
pub fn stored_score(score: i32) -> i16 {
    score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}

/// A best move that was not given.
const NO_MOVE: u16 = 0xFFFF;

/// One position from a sample file: the moves that lead to it, the move played there, and the result for the
/// side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// The moves so far, Black first.
    pub moves: Vec<Pos>,
    /// The move the engine played.
    pub played: Pos,
    /// The side to move's result: 0, ½ or 1.
    pub result: f32,
}

/// What a training file held.
#[derive(Clone, Debug, Default)]
pub struct TrainingData {
    /// Whole games (Tengen's file).
    pub games: Vec<GameRecord>,
    /// Single positions (c-gomoku-cli's samples).
    pub samples: Vec<Sample>,
}

fn pack(p: Pos) -> u16 {
    (u16::from(p.x) << 5) | u16::from(p.y)
}

fn unpack(m: u16, size: usize) -> Option<Pos> {
    let (x, y) = (usize::from((m >> 5) & 0x1f), usize::from(m & 0x1f));
    (x < size && y < size && m >> 10 == 0).then(|| Pos::new(x, y))
}

/// The rule of a stored Gomocup rule number (one of the five [`Rule::info`] values).
fn rule_of_number(n: u8) -> Option<Rule> {
    Rule::ALL.into_iter().find(|r| r.info() == u32::from(n))
}

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

/// Why a record could not be read.
enum Bad {
    /// The bytes end inside it.
    Truncated(usize, usize),
    /// It is malformed: the reason.
    Corrupt(String),
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

/// Unpacks moves, checking that each is on the board and on an empty point.
fn read_moves(words: impl Iterator<Item = u16>, size: usize) -> Result<Vec<Pos>, Bad> {
    let mut taken = vec![false; size * size];
    let mut moves = Vec::new();
    for (i, m) in words.enumerate() {
        let p = unpack(m, size).ok_or_else(|| Bad::Corrupt(format!("move {} (0x{m:04x}) is off the board", i + 1)))?;
        let at = usize::from(p.y) * size + usize::from(p.x);
        if std::mem::replace(&mut taken[at], true) {
            return Err(Bad::Corrupt(format!("move {} ({}) is on a taken point", i + 1, p.notation(size))));
        }
        moves.push(p);
    }
    Ok(moves)
}

/// Reads Tengen's game file (after its magic) or c-gomoku-cli's samples, whichever `bytes` holds; every bad
/// record is reported to `error` as `record N: reason` and skipped.
pub fn read_training(bytes: &[u8], error: &mut dyn FnMut(String)) -> TrainingData {
    let mut data = TrainingData::default();
    if let Some(rest) = bytes.strip_prefix(MAGIC.as_slice()) {
        data.games = read_games(rest, error);
    } else {
        data.samples = read_samples(bytes, error);
    }
    data
}

/// Every record of a whole Tengen game file (magic included), strictly: each record's rule, board size and byte
/// range in `bytes`, or the first problem (`not a Tengen game file`, `record N: …`). For joining game files, where a
/// damaged record must stop the join rather than be skipped.
///
/// # Errors
/// The first problem met.
pub fn game_ranges(bytes: &[u8]) -> Result<Vec<(Rule, usize, std::ops::Range<usize>)>, String> {
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

/// The game records of a Tengen game file's body.
fn read_games(bytes: &[u8], error: &mut dyn FnMut(String)) -> Vec<GameRecord> {
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

/// The entries of a c-gomoku-cli sample file.
fn read_samples(bytes: &[u8], error: &mut dyn FnMut(String)) -> Vec<Sample> {
    let mut samples = Vec::new();
    let mut at = 0;
    let mut number = 0;
    while at < bytes.len() {
        number += 1;
        if bytes.len() - at < 4 {
            error(format!("record {number}: truncated ({} of its 4 header bytes)", bytes.len() - at));
            break;
        }
        let h0 = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let h1 = u16::from_le_bytes([bytes[at + 2], bytes[at + 3]]);
        let (result, ply, size) = (h0 & 3, usize::from((h0 >> 2) & 0x1ff), usize::from(h0 >> 11));
        let (rule_code, played) = ((h1 & 7) as u8, h1 >> 3);
        let len = 4 + 2 * ply;
        if bytes.len() - at < len {
            error(format!("record {number}: truncated ({} of its {len} bytes)", bytes.len() - at));
            break;
        }
        let words = (0..ply).map(|i| u16::from_le_bytes([bytes[at + 4 + 2 * i], bytes[at + 5 + 2 * i]]));
        let checked = (|| {
            let rule = match rule_code {
                0 | 1 | 4 => rule_of_number(rule_code).ok_or_else(|| Bad::Corrupt(String::new()))?,
                r => return Err(Bad::Corrupt(format!("unknown rule {r}"))),
            };
            if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
                return Err(Bad::Corrupt(format!("board size {size}")));
            }
            if result > 2 {
                return Err(Bad::Corrupt(format!("result {result}")));
            }
            let moves = read_moves(words, size)?;
            let played = unpack(played, size)
                .filter(|p| !moves.contains(p))
                .ok_or_else(|| Bad::Corrupt(format!("the move played (0x{played:04x}) is off the board or taken")))?;
            Ok(Sample { rule, size, moves, played, result: f32::from(result) / 2.0 })
        })();
        match checked {
            Ok(sample) => samples.push(sample),
            Err(Bad::Corrupt(why)) => error(format!("record {number}: {why}; skipped")),
            Err(Bad::Truncated(..)) => {}
        }
        at += len;
    }
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A c-gomoku-cli entry built field by field as its README lays it out.
    fn entry(result: u16, size: u16, rule: u16, played: (u16, u16), moves: &[(u16, u16)]) -> Vec<u8> {
        let h0 = result | ((moves.len() as u16) << 2) | (size << 11);
        let h1 = rule | (((played.0 << 5) | played.1) << 3);
        let mut bytes = [h0.to_le_bytes(), h1.to_le_bytes()].concat();
        for &(x, y) in moves {
            bytes.extend_from_slice(&((x << 5) | y).to_le_bytes());
        }
        bytes
    }

    #[test]
    fn c_gomoku_cli_samples_are_read_and_bad_entries_skipped() {
        let mut bytes = entry(2, 15, 4, (8, 8), &[(7, 7), (7, 8)]);
        bytes.extend(entry(1, 15, 3, (8, 8), &[(7, 7)])); // rule 3 does not exist
        bytes.extend(entry(0, 20, 0, (1, 2), &[(10, 10), (11, 11), (12, 12)]));
        bytes.extend(entry(0, 15, 0, (7, 7), &[(7, 7)])); // the move played is taken
        bytes.extend(&entry(0, 15, 1, (7, 7), &[(1, 1), (2, 2)])[..6]);
        let mut errors = Vec::new();
        let data = read_training(&bytes, &mut |e| errors.push(e));
        assert_eq!(data.samples.len(), 2);
        let s = &data.samples[0];
        assert_eq!((s.rule, s.size, s.result), (Rule::Renju, 15, 1.0));
        assert_eq!(s.moves, vec![Pos::new(7, 7), Pos::new(7, 8)]);
        assert_eq!(s.played, Pos::new(8, 8));
        let s = &data.samples[1];
        assert_eq!((s.rule, s.size, s.result, s.played), (Rule::Freestyle, 20, 0.0, Pos::new(1, 2)));
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with("record 2:") && errors[0].contains("rule 3"));
        assert!(errors[1].starts_with("record 4:") && errors[1].contains("taken"));
        assert!(errors[2].starts_with("record 5: truncated"));
    }
}
