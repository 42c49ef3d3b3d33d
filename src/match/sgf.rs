//! SGF records (FF[4], GM[4] = gomoku/renju) of finished games: the players, the rule, the result with its reason,
//! the opening and every move with the time it took.

use super::game::{GameRecord, Outcome};
use crate::types::{Color, Pos, Rule};
use std::fmt::Write as _;

/// SGF text of one game. `names` are Black's and White's; `round` is the game's number in the match.
#[must_use]
pub fn game_sgf(record: &GameRecord, names: [&str; 2], rule: Rule, size: usize, round: usize) -> String {
    let mut s = String::new();
    let result = match &record.outcome {
        Outcome::Five(c, _) => format!("{}+", letter(*c)),
        Outcome::Forfeit(c, f) => {
            let kind = if matches!(f, super::Forfeit::Time(_)) { "T" } else { "F" };
            format!("{}+{kind}", letter(c.opponent()))
        }
        Outcome::Draw(_) => "0".to_string(),
    };
    let _ = write!(
        s,
        "(;FF[4]GM[4]CA[UTF-8]AP[tengen match]SZ[{size}]RU[{}]RO[{round}]PB[{}]PW[{}]RE[{result}]C[{}]",
        rule.name(),
        escape(names[0]),
        escape(names[1]),
        escape(&describe(record, size)),
    );
    if !record.negotiation.is_empty() {
        // The first player held Black unless the colours were swapped in the end.
        let players = if record.swapped { [names[1], names[0]] } else { names };
        s.insert_str(s.len() - 1, &escape(&format!("; opening: {}", negotiation_text(record, players))));
    }
    let mut color = Color::Black;
    for (i, &p) in record.opening.iter().enumerate() {
        let _ = write!(s, "\n;{}[{}]", letter(color), point(p));
        if i + 1 == record.opening.len() {
            s.push_str("C[opening]");
        }
        color = color.opponent();
    }
    for &(p, c, ms) in &record.moves {
        let _ = write!(s, "\n;{}[{}]C[{ms} ms]", letter(c), point(p));
    }
    s.push_str(")\n");
    s
}

/// The negotiated opening's steps, each with its player's name (`players`: the first player's, the second's).
#[must_use]
pub fn negotiation_text(record: &GameRecord, players: [&str; 2]) -> String {
    let steps: Vec<String> = record
        .negotiation
        .iter()
        .map(|(p, text)| format!("{} {text}", players[usize::from(*p == crate::opening_rule::Player::Second)]))
        .collect();
    steps.join("; ")
}

/// A one-line account of how the game ended (without player names).
#[must_use]
pub fn describe(record: &GameRecord, size: usize) -> String {
    match &record.outcome {
        Outcome::Five(c, stones) => {
            let line: Vec<String> = stones.iter().map(|p| p.notation(size)).collect();
            format!("{} made five ({})", colour_name(*c), line.join(" "))
        }
        Outcome::Forfeit(c, f) => format!("{} {}", colour_name(*c), f.describe(size)),
        Outcome::Draw(n) => format!("draw at {n} stones"),
    }
}

fn colour_name(c: Color) -> &'static str {
    if c == Color::Black { "Black" } else { "White" }
}

fn letter(c: Color) -> char {
    if c == Color::Black { 'B' } else { 'W' }
}

/// SGF point: column letter then row letter, both from the top-left corner.
pub(crate) fn point(p: Pos) -> String {
    format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::Forfeit;

    #[test]
    fn a_record_has_the_moves_result_and_reason() {
        let record = GameRecord {
            opening: vec![Pos::new(7, 7), Pos::new(7, 6)],
            moves: vec![(Pos::new(0, 14), Color::Black, 12)],
            scores: vec![None],
            outcome: Outcome::Forfeit(Color::White, Forfeit::Time(2100)),
            used_ms: [12, 2100],
            slowest_ms: [12, 2100],
            peak_memory: [0; 2],
            clean_exit: [true; 2],
            log: Vec::new(),
            swapped: false,
            negotiation: Vec::new(),
        };
        let sgf = game_sgf(&record, ["new]", "old"], Rule::Renju, 15, 3);
        assert!(sgf.starts_with("(;FF[4]GM[4]"), "{sgf}");
        assert!(sgf.contains("SZ[15]RU[renju]RO[3]PB[new\\]]PW[old]RE[B+T]"), "{sgf}");
        assert!(sgf.contains(";B[hh]\n;W[hg]C[opening]\n;B[ao]C[12 ms])"), "{sgf}");
        assert!(sgf.contains("White out of time (2100 ms)"), "{sgf}");
        // A negotiated opening is told in the root comment, with the players' names (the second held Black).
        let negotiated = GameRecord {
            swapped: true,
            negotiation: vec![
                (crate::opening_rule::Player::First, "places H8 H9 J10".to_string()),
                (crate::opening_rule::Player::Second, "swaps".to_string()),
            ],
            ..record
        };
        let sgf = game_sgf(&negotiated, ["b", "w"], Rule::Renju, 15, 4);
        assert!(sgf.contains("(2100 ms); opening: w places H8 H9 J10; b swaps]"), "{sgf}");
    }
}
