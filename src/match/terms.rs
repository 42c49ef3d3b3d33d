//! The terms a game between two engine processes is played on: its setup, the ways a side loses other than by the
//! opponent's five, and the move syntax engines answer in. The game ([`super::game`]) and the opening negotiation
//! before it ([`super::negotiation`]) both use them.

use crate::opening_rule::OpeningRule;
use crate::types::{Pos, Rule};

/// Everything a game needs to know.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The shell command lines of Black's and White's engines.
    pub commands: [String; 2],
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Moves played before the engines take over, Black first.
    pub opening: Vec<Pos>,
    /// Time per move in milliseconds (`INFO timeout_turn`).
    pub turn_ms: u64,
    /// Time per game and side in milliseconds (`INFO timeout_match`; 0: none).
    pub match_ms: u64,
    /// How late an answer may come before it loses (the judge's 1000 ms).
    pub tolerance_ms: u64,
    /// Each engine's memory limit in bytes (`INFO max_memory`; 0: none).
    pub max_memory: u64,
    /// The game is drawn once this many stones are on the board.
    pub draw_at: usize,
    /// Suspend each engine while it is not its turn.
    pub suspend: bool,
    /// The opening rule the engines negotiate the first moves by (then `commands` are the first and the second
    /// player's, and `opening` is not used), or none.
    pub opening_rule: Option<OpeningRule>,
}

/// Why a side lost without the opponent making five.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// The process could not be started.
    Start(String),
    /// A move on a point that is taken.
    Occupied(Pos),
    /// A move off the board (the raw coordinates).
    OffBoard(i64, i64),
    /// A forbidden move by Black in renju.
    Forbidden(Pos, String),
    /// No move within the time limit (the time taken, in ms).
    Time(u64),
    /// The process closed its output or died.
    Crash,
    /// The process group held more memory than allowed (bytes).
    Memory(u64),
    /// A step of the opening negotiation that breaks the rule (or no step at all).
    Opening(String),
}

impl Forfeit {
    /// What happened, with points in `H8` notation on a board of side `size`.
    #[must_use]
    pub fn describe(&self, size: usize) -> String {
        match self {
            Forfeit::Start(e) => format!("could not start ({e})"),
            Forfeit::Occupied(p) => format!("played {} ({},{}), which is occupied", p.notation(size), p.x, p.y),
            Forfeit::OffBoard(x, y) => format!("played {x},{y}, off the board"),
            Forfeit::Forbidden(p, kind) => format!("played the forbidden point {} ({kind})", p.notation(size)),
            Forfeit::Time(ms) => format!("out of time ({ms} ms)"),
            Forfeit::Crash => "crashed (its output closed)".to_string(),
            Forfeit::Memory(bytes) => format!("used too much memory ({} MiB)", bytes >> 20),
            Forfeit::Opening(why) => format!("broke the opening rule: {why}"),
        }
    }
}

/// `x,y` (spaces allowed around the numbers), as the judge reads a move.
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.trim().split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_as_the_judge_reads_them() {
        assert_eq!(parse_move("7,7"), Some((7, 7)));
        assert_eq!(parse_move(" 10 , 3 \r"), Some((10, 3)));
        assert_eq!(parse_move("-1,20"), Some((-1, 20)));
        assert_eq!(parse_move("OK"), None);
        assert_eq!(parse_move("MESSAGE 1,2"), None);
        assert_eq!(parse_move("1,2,3"), None);
    }
}
