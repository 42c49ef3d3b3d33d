//! The positions Gomocup's strongest engines chose: from `.psq` games, the moves they made after a real think where
//! they had a choice (the split of those games into the ones that may be learned from and the ones that judge is
//! [`super::gomocup`]'s). The yardstick (`crate::agree`) measures engines on them; the move policy's trainer learns
//! them ([`played_as_best`]).

use super::gomocup::{Split, file_key, read_ratings};
use super::{GameRecord, PsqGame, replay_game};
use crate::movegen::{Candidates, candidates};
use crate::types::{Pos, Rule};
use std::collections::BTreeMap;
use std::path::Path;

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

/// One chosen position (of the yardstick, or a move the policy learns).
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

/// The positions of `games` (path and game) that `selection` asks for, in the games' order, and a line for each game
/// or folder left out (`PATH: why`).
#[must_use]
pub fn select(games: &[(String, PsqGame)], selection: &Selection) -> (Vec<Position>, Vec<String>) {
    let (by_game, problems) = select_by_game(games, selection);
    (by_game.into_iter().flat_map(|(_, p)| p).collect(), problems)
}

/// The games of `games` that `selection` takes positions from, each with the moves it asks for as its searched best
/// moves ([`GameRecord::best`]: the move played where a position is selected, none elsewhere), for the move
/// policy's trainer to learn what the strongest engines played; and a line for each folder left out.
#[must_use]
pub fn played_as_best(games: &[(String, PsqGame)], selection: &Selection) -> (Vec<GameRecord>, Vec<String>) {
    let (by_game, problems) = select_by_game(games, selection);
    let records = by_game
        .into_iter()
        .filter(|(_, positions)| !positions.is_empty())
        .map(|(g, positions)| {
            let mut record = games[g].1.record.clone();
            let mut best = vec![None; record.moves.len()];
            for p in positions {
                best[p.moves.len()] = Some(p.played);
            }
            record.best = Some(best);
            record
        })
        .collect();
    (records, problems)
}

/// The positions `selection` asks for, game by game (the game's index in `games`), and a line for each folder left
/// out.
fn select_by_game(games: &[(String, PsqGame)], selection: &Selection) -> (Vec<(usize, Vec<Position>)>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut strongest: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    for (g, (path, game)) in games.iter().enumerate() {
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
        out.push((g, game_positions(path, game, &engines, selection.min_ms)));
    }
    (out, problems)
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
        assert_eq!(p.played.notation(15), "I8");
    }

    #[test]
    fn the_moves_played_become_the_best_moves_of_the_selected_positions_alone() {
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n7,8,1500\n1,1,1200\n6,8,3000\n6,9,2000\n9,8,5000\n\
                    10,8,2500\nA.zip\nB.zip\n-1\n1,Freestyle1\n";
        let game = read_psq(text, "0_0_1_1.psq").expect("valid");
        let games = vec![("freestyle-2021/league1/0_0_1_1.psq".to_string(), game.clone())];
        let selection = Selection { engines: vec!["A".to_string()], split: None, ..Selection::default() };
        let (records, problems) = played_as_best(&games, &selection);
        assert!(problems.is_empty());
        let best = records[0].best.clone().expect("best moves");
        // A's thought choices are stones 2, 4 and 6 (as the positions test finds).
        let expect: Vec<Option<Pos>> = (0..8).map(|i| [2, 4, 6].contains(&i).then(|| game.record.moves[i])).collect();
        assert_eq!(best, expect);
        assert_eq!(records[0].moves, game.record.moves);
        let nobody = Selection { engines: vec!["C".to_string()], ..selection };
        assert!(played_as_best(&games, &nobody).0.is_empty());
    }
}
