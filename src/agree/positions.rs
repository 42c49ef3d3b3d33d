//! The yardstick's positions: from Gomocup's `.psq` games, the moves the strongest engines made after a real think,
//! and the split of those games into the ones that may be learned from and the ones that judge.

use crate::movegen::{Candidates, candidates};
use crate::pattern::{Pattern4, PatternBoard};
use crate::records::PsqGame;
use crate::tune::data::replay_game;
use crate::types::{Pos, Rule};
use std::collections::BTreeMap;
use std::path::Path;

/// Which games a position may serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    /// Training and tuning learn from these.
    Learn,
    /// Only these judge: nothing is ever judged on what it learned from.
    Judge,
}

/// The leagues the split knows, as their archives unpack (`shared/data/gomocup/`): renju's two years split by year,
/// the single-year leagues by the opening (the first number of the file name, 0 to 11).
const LEAGUES: [(&str, LeagueSplit); 5] = [
    ("renju-2020", LeagueSplit::All(Split::Learn)),
    ("renju-2021", LeagueSplit::All(Split::Judge)),
    ("standard-2021", LeagueSplit::ByOpening),
    ("freestyle-2021", LeagueSplit::ByOpening),
    ("fastgame-2021", LeagueSplit::ByOpening),
];

/// Openings below this number learn, the rest judge (a league of twelve openings split in halves).
pub const FIRST_JUDGING_OPENING: u32 = 6;

#[derive(Clone, Copy, Debug)]
enum LeagueSplit {
    All(Split),
    ByOpening,
}

impl Split {
    /// The split of a Gomocup game file by its path, written down before anything learned from these games
    /// (docs/agreement.md): renju 2020 learns and renju 2021 judges; in standard, freestyle and fastgame 2021
    /// (one year each) the games of openings 0 to 5 learn and those of openings 6 to 11 judge. `None` for a path
    /// outside those leagues' folders.
    #[must_use]
    pub fn of_path(path: &str) -> Option<Split> {
        let parts: Vec<&str> = path.split(['/', '\\']).collect();
        let league = parts.iter().find_map(|part| LEAGUES.iter().find(|(name, _)| part.starts_with(name)))?;
        match league.1 {
            LeagueSplit::All(split) => Some(split),
            LeagueSplit::ByOpening => {
                let opening: u32 = parts.last()?.split('_').next()?.parse().ok()?;
                Some(if opening < FIRST_JUDGING_OPENING { Split::Learn } else { Split::Judge })
            }
        }
    }

    /// `learn`, `judge`.
    ///
    /// # Errors
    /// Any other word.
    pub fn parse(text: &str) -> Result<Option<Split>, String> {
        match text {
            "learn" => Ok(Some(Split::Learn)),
            "judge" => Ok(Some(Split::Judge)),
            "all" => Ok(None),
            other => Err(format!("unknown split '{other}' (judge, learn or all)")),
        }
    }
}

/// Which moves become positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The engines whose moves count: each league's this-many strongest by its `ratings.txt` (beside the games)…
    pub strongest: usize,
    /// …unless these are named.
    pub engines: Vec<String>,
    /// Moves that took less are left out (forced replies take a few milliseconds).
    pub min_ms: u32,
    /// Games of this split only (`None`: every game, and files outside the split's leagues too).
    pub split: Option<Split>,
}

impl Default for Selection {
    fn default() -> Selection {
        Selection { strongest: 2, engines: Vec::new(), min_ms: 1000, split: Some(Split::Judge) }
    }
}

/// One position of the yardstick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// `FOLDER/FILE.psq#N`: the game file (its folder and name) and the number of stones before the move.
    pub key: String,
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// The moves that led here, Black first.
    pub moves: Vec<Pos>,
    /// The move the engine played.
    pub played: Pos,
    /// The engine that played it.
    pub mover: String,
}

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

/// The names in a `ratings.txt` (`   1 10#KATAGOMO21.R  2084 …`), strongest first, without their `N#`.
#[must_use]
pub fn read_ratings(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            words.next()?.parse::<u32>().ok()?;
            let name = words.next()?;
            Some(name.split_once('#').map_or(name, |(_, n)| n).to_string())
        })
        .collect()
}

/// A game file's key prefix: its path from its league's folder on (`standard-2021/league1/7_8_0_2.psq`), else its
/// folder's name and its own.
fn file_key(path: &str) -> String {
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let league = parts.iter().position(|part| LEAGUES.iter().any(|(name, _)| part.starts_with(name)));
    let from = league.unwrap_or(parts.len().saturating_sub(2));
    parts[from..].join("/")
}

/// The positions of `games` (path and game) that `selection` asks for, in the games' order, and a line for each game
/// or folder left out (`PATH: why`).
#[must_use]
pub fn select(games: &[(String, PsqGame)], selection: &Selection) -> (Vec<Position>, Vec<String>) {
    let mut positions = Vec::new();
    let mut problems = Vec::new();
    let mut strongest: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    for (path, game) in games {
        if let Some(split) = selection.split
            && Split::of_path(path) != Some(split)
        {
            continue;
        }
        let engines = if selection.engines.is_empty() {
            let dir = Path::new(path).parent().map(|d| d.display().to_string()).unwrap_or_default();
            let found = strongest.entry(dir.clone()).or_insert_with(|| {
                let ratings = std::fs::read_to_string(Path::new(&dir).join("ratings.txt")).ok();
                let names = ratings.map(|t| read_ratings(&t)).unwrap_or_default();
                if names.is_empty() {
                    problems.push(format!("{dir}: no ratings.txt to rank its engines: name them with --engines"));
                    return None;
                }
                Some(names.into_iter().take(selection.strongest).collect())
            });
            match found {
                Some(names) => names.clone(),
                None => continue,
            }
        } else {
            selection.engines.clone()
        };
        positions.extend(game_positions(path, game, &engines, selection.min_ms));
    }
    (positions, problems)
}

/// The positions of one game: the moves after the opening by one of `engines` that took `min_ms` or more, where the
/// mover had a choice (no five to make, no lost position, more than one answer).
fn game_positions(path: &str, game: &PsqGame, engines: &[String], min_ms: u32) -> Vec<Position> {
    let record = &game.record;
    let Some(players) = &record.players else { return Vec::new() };
    let key = file_key(path);
    let mut out = Vec::new();
    replay_game(record, |pb, i, side, _, _, played| {
        let mover = &players[i % 2];
        let thought = game.times.get(i).is_some_and(|&ms| ms >= min_ms);
        if i < record.opening || !thought || !engines.iter().any(|e| e.eq_ignore_ascii_case(mover)) {
            return;
        }
        let choice = match candidates(pb, side) {
            Candidates::Moves { moves, .. } => moves.len() > 1,
            Candidates::Win(_) | Candidates::Lost => false,
        };
        if choice {
            out.push(Position {
                key: format!("{key}#{i}"),
                rule: record.rule,
                size: record.size,
                moves: record.moves[..i].to_vec(),
                played,
                mover: mover.clone(),
            });
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::read_psq;
    use crate::tune::data::replay_moves;

    #[test]
    fn the_split_is_by_year_for_renju_and_by_opening_for_the_single_year_leagues() {
        assert_eq!(Split::of_path("g/renju-2020/3_0_1_1.psq"), Some(Split::Learn));
        assert_eq!(Split::of_path("/x/renju-2021/3_0_1_1.psq"), Some(Split::Judge));
        assert_eq!(Split::of_path("standard-2021/league1/5_2_1_0.psq"), Some(Split::Learn));
        assert_eq!(Split::of_path("standard-2021/league2/6_2_1_0.psq"), Some(Split::Judge));
        assert_eq!(Split::of_path("fastgame-2021/11_0_1_2.psq"), Some(Split::Judge));
        assert_eq!(Split::of_path("freestyle-2021/league1/x_1.psq"), None);
        assert_eq!(Split::of_path("games/3_0_1_1.psq"), None);
    }

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

    #[test]
    fn ratings_are_read_strongest_first_without_their_numbers() {
        let text = "Rank Name  Elo\n   1 10#KATAGOMO21.R  2084   66\n   2 0#EMBRYO21.R     2018   60\n";
        assert_eq!(read_ratings(text), ["KATAGOMO21.R", "EMBRYO21.R"]);
    }

    #[test]
    fn positions_are_the_chosen_engines_thought_moves_with_a_choice() {
        // Black's f8 g8 h8 open three is answered by White's forced-looking but free choice; i8 then makes an open
        // four, so White's next move has no choice (it is lost): only real choices count.
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n7,8,1500\n1,1,1200\n6,8,3000\n6,9,2000\n9,8,5000\n\
                    10,8,2500\nA.zip\nB.zip\n-1\n1,Freestyle1\n";
        let game = read_psq(text, "0_0_1_1.psq").expect("valid");
        let both = ["A".to_string(), "B".to_string()];
        let keys = |engines: &[String], ms| {
            game_positions("freestyle-2021/league1/0_0_1_1.psq", &game, engines, ms)
                .iter()
                .map(|p| p.key.rsplit('#').next().unwrap_or_default().to_string())
                .collect::<Vec<_>>()
        };
        // Stones 2..: g8 (1500 ms), a15 (1200), f8 (3000), f7 (2000), i8 (5000, Black's four… an open four),
        // White's j8 is lost (no choice).
        assert_eq!(keys(&both, 1000), ["2", "3", "4", "5", "6"]);
        assert_eq!(keys(&both[..1], 1000), ["2", "4", "6"]);
        assert_eq!(keys(&both, 2000), ["4", "5", "6"]);
        let p = &game_positions("league1/0_0_1_1.psq", &game, &both, 4000)[0];
        assert_eq!((p.key.as_str(), p.mover.as_str(), p.moves.len()), ("league1/0_0_1_1.psq#6", "A", 6));
        assert_eq!(file_key("/x/freestyle-2021/league1/7_8_0_2.psq"), "freestyle-2021/league1/7_8_0_2.psq");
        assert_eq!(file_key("/x/games/7_8_0_2.psq"), "games/7_8_0_2.psq");
        assert_eq!(p.played.notation(15), "I8");
    }
}
