//! The kinds of threat a yardstick position holds for the side to move: what the report breaks agreement down by.
//! The positions themselves are chosen from the games by [`crate::records::selection`].

use crate::pattern::{Pattern4, PatternBoard};
use crate::records::gomocup::file_key;
use crate::records::{PsqGame, replay_game};
use std::collections::BTreeMap;

/// What threats a position holds, for the side to move: the kinds of position the report breaks agreement down by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The opponent has an open three: the move answers it (or counters with fours).
    Defend,
    /// The side to move has an open three of its own (a point that makes a straight four), and nothing to answer.
    Attack,
    /// Neither has an open three, but one side or both can make a four.
    Fours,
    /// No four or straight four can be made by either side.
    Quiet,
}

impl Kind {
    /// Every kind, in the report's order.
    pub const ALL: [Kind; 4] = [Kind::Defend, Kind::Attack, Kind::Fours, Kind::Quiet];

    /// The kind of `pb` with `side` to move.
    #[must_use]
    pub fn of(pb: &PatternBoard, side: crate::types::Color) -> Kind {
        let counts = pb.class_counts();
        let has = |c: crate::types::Color, from: Pattern4| {
            counts[c.index()][from as usize..=Pattern4::Flex4 as usize].iter().any(|&n| n > 0)
        };
        if has(side.opponent(), Pattern4::Flex4) {
            Kind::Defend
        } else if has(side, Pattern4::Flex4) {
            Kind::Attack
        } else if has(side, Pattern4::Block4) || has(side.opponent(), Pattern4::Block4) {
            Kind::Fours
        } else {
            Kind::Quiet
        }
    }

    /// Its name in the report.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Defend => "answering an open three",
            Kind::Attack => "with an open three to play",
            Kind::Fours => "fours only",
            Kind::Quiet => "quiet",
        }
    }
}

/// The kind of every position after the opening of `games`, by key.
#[must_use]
pub fn kinds(games: &[(String, PsqGame)]) -> BTreeMap<String, Kind> {
    let mut out = BTreeMap::new();
    for (path, game) in games {
        let key = file_key(path);
        replay_game(&game.record, |pb, i, side, _, _, _| {
            if i >= game.record.opening {
                out.insert(format!("{key}#{i}"), Kind::of(pb, side));
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::replay_moves;
    use crate::types::{Pos, Rule};

    #[test]
    fn kinds_name_the_threats_on_the_board() {
        use crate::types::Color;
        let board = |moves: &str| {
            let moves: Vec<Pos> = moves.split(' ').map(|m| Pos::parse(m, 15).expect("point")).collect();
            replay_moves(15, Rule::Renju, &moves).expect("position")
        };
        // Black's open three f8 g8 h8, White far away: White must answer it; Black, to move, has it to play.
        let (three, side) = board("f8 a1 g8 a3 h8");
        assert_eq!((side, Kind::of(&three, side)), (Color::White, Kind::Defend));
        assert_eq!(Kind::of(&three, Color::Black), Kind::Attack);
        // Blocked at e8: a four can still be made, nothing else.
        assert_eq!(Kind::of(&board("f8 e8 g8 a1 h8 a3").0, Color::Black), Kind::Fours);
        assert_eq!(Kind::of(&board("h8 a1").0, Color::Black), Kind::Quiet);
    }
}
