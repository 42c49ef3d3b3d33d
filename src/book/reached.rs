//! Where the games went past the book: the positions that games reached again and again beyond its edge, so that
//! the builder can search them deeply (`pbrain-tengen book reached`, then `book build --openings`).
//!
//! Against an engine that answers the same position the same way most of the time, a few lines past the book's
//! last move come back game after game, and each time the engine decides them in its own time per move. Searching
//! those positions once, for longer, and keeping the answers in the book spends the time where the games go. The
//! positions are chosen by how often they were reached, never by how the games ended: the book's moves there come
//! from its searches, and [`learn`](super::learn) counts the results afterwards as everywhere else.

use super::learn::Tally;
use super::{Book, Key, canonical};
use crate::records::GameRecord;
use crate::types::{Color, Pos};
use std::collections::BTreeMap;

/// A position out of the book that games reached, with a move played there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The moves of the first game that reached it, Black first.
    pub moves: Vec<Pos>,
    /// How many games reached it (a game counts once, in any orientation).
    pub games: usize,
    /// Those games' results for the side to move.
    pub tally: Tally,
}

/// Which positions count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReachedOptions {
    /// Only positions where a player whose name holds this was to move (games without names then do not count).
    pub player: Option<String>,
    /// Only positions with at most this many stones.
    pub max_stones: usize,
    /// Only positions reached by at least this many games.
    pub min_games: usize,
}

/// The positions out of `book` that `games` of its rule and size reached (after the opening's given moves, each
/// with a move played there), by stones and then by how many games reached them, most first.
pub fn reached<'a>(
    book: &Book,
    games: impl IntoIterator<Item = &'a GameRecord>,
    options: &ReachedOptions,
) -> Vec<Reached> {
    let mut found: BTreeMap<Key, Reached> = BTreeMap::new();
    for game in games {
        if game.rule != book.rule || game.size != book.size {
            continue;
        }
        let mut stones: Vec<(Pos, Color)> = Vec::with_capacity(game.moves.len());
        let mut seen: Vec<Key> = Vec::new();
        for (i, &p) in game.moves.iter().enumerate() {
            let side = Color::to_move(i);
            if i > options.max_stones {
                break;
            }
            let named = match (&options.player, &game.players) {
                (None, _) => true,
                (Some(name), Some(players)) => players[side.index()].contains(name.as_str()),
                (Some(_), None) => false,
            };
            if i >= game.opening && named {
                let (key, _) = canonical(&stones, book.size);
                if !book.entries.contains_key(&key) && !seen.contains(&key) {
                    let entry = found.entry(key.clone()).or_insert_with(|| Reached {
                        moves: game.moves[..i].to_vec(),
                        games: 0,
                        tally: Tally::default(),
                    });
                    entry.games += 1;
                    entry.tally.count(game.outcome, side);
                    seen.push(key);
                }
            }
            stones.push((p, side));
        }
    }
    let mut list: Vec<Reached> = found.into_values().filter(|r| r.games >= options.min_games.max(1)).collect();
    list.sort_by(|a, b| a.moves.len().cmp(&b.moves.len()).then(b.games.cmp(&a.games)).then(a.moves.cmp(&b.moves)));
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::BookMove;
    use crate::records::Outcome;
    use crate::types::Rule;

    fn p(m: &str) -> Pos {
        Pos::parse(m, 15).expect("a point")
    }

    fn game(moves: &[&str], outcome: Outcome, players: [&str; 2]) -> GameRecord {
        GameRecord { players: Some(players.map(str::to_string)), ..crate::book::tests::renju_game(moves, outcome) }
    }

    #[test]
    fn positions_past_the_book_are_counted_once_a_game_in_any_orientation() {
        // The book holds the opening h8 h9 j10 (White to move) and nothing after it.
        let mut book = Book::new(Rule::Renju, 15);
        book.insert(
            &[(p("h8"), Color::Black), (p("h9"), Color::White), (p("j10"), Color::Black)],
            &[BookMove::new(p("g8"), -50, 10)],
        );
        let games = [
            game(&["h8", "h9", "j10", "g8", "j8", "j9"], Outcome::BlackWins, ["tengen", "other"]),
            // Mirrored left to right (a <-> o): the same positions.
            game(&["h8", "h9", "f10", "i8", "f8", "f9"], Outcome::WhiteWins, ["other", "tengen"]),
            game(&["h8", "h9", "j10", "g8", "k11"], Outcome::Draw, ["tengen", "other"]),
        ];
        let all = reached(&book, &games, &ReachedOptions { player: None, max_stones: 15, min_games: 1 });
        let texts: Vec<(String, usize, String)> = all
            .iter()
            .map(|r| (r.moves.iter().map(|m| m.notation(15)).collect::<Vec<_>>().join(" "), r.games, r.tally.text()))
            .collect();
        // The opening is in the book; after G8 (Black to move) all three games, then J8 and its image F8 twice; the
        // third game's last position has no move played, so it does not count.
        assert_eq!(
            texts,
            [
                ("H8 H9 J10 G8".to_string(), 3, "1/1/1".to_string()),
                ("H8 H9 J10 G8 J8".to_string(), 2, "1/0/1".to_string()),
            ]
        );
        // Only where "tengen" was to move: Black after G8 in the first and third games, White after F8 in the second.
        let mine =
            reached(&book, &games, &ReachedOptions { player: Some("tengen".into()), max_stones: 15, min_games: 1 });
        let counts: Vec<(usize, usize)> = mine.iter().map(|r| (r.moves.len(), r.games)).collect();
        assert_eq!(counts, [(4, 2), (5, 1)]);
        // Two games at least, four stones at most.
        let few = reached(&book, &games, &ReachedOptions { player: None, max_stones: 4, min_games: 2 });
        assert_eq!(few.iter().map(|r| r.games).collect::<Vec<_>>(), [3]);
    }
}
