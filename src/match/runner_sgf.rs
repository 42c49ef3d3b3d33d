//! Another match runner's games, read back as a run: the SGF collection c-gomoku-cli writes with `-sgf FILE` (one
//! game a tree: `PB`, `PW`, `RE` as `B+…`, `W+…` or `0`, `TE` saying why, the opening's stones commented
//! `opening move` and each engine's move commented with its time as `123ms`). Its games are reported as one of our
//! runs is (`merge --sgf`), so that a figure from that runner carries the same Elo margin, pentanomial pairs, colours
//! and forfeits as the gauntlet's: consecutive games on the same opening with colours swapped are a pair, as
//! c-gomoku-cli plays them with `-repeat`.

use super::config::{EngineSpec, MatchConfig};
use super::tally::{self, GameResult, Ledger};
use crate::types::Color;
use std::io::{self, Write};

/// One game of the collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunnerGame {
    /// Black's and White's names.
    pub players: [String; 2],
    /// The winner (none: a draw).
    pub winner: Option<Color>,
    /// The loser lost by a forfeit (a forbidden move, time, a crash, an illegal move), not by a five.
    pub forfeit: bool,
    /// The opening's points, as the file writes them.
    pub opening: Vec<String>,
    /// The slowest answer of Black and of White (ms), from the moves' comments.
    pub slowest_ms: [u64; 2],
    /// Where it is: `game N` of its collection, `PATH: game N` once read from a file.
    pub place: String,
}

/// The games of the SGF collections at `paths`, in order.
///
/// # Errors
/// `PATH: reason` for a file that cannot be read, holds no game, or a game without its players or result.
pub fn read_files(paths: &[String]) -> Result<Vec<RunnerGame>, String> {
    let mut all = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let games = read_games(&text).map_err(|e| format!("{path}: {e}"))?;
        if games.is_empty() {
            return Err(format!("{path}: the collection holds no game"));
        }
        all.extend(games.into_iter().map(|g| RunnerGame { place: format!("{path}: {}", g.place), ..g }));
    }
    Ok(all)
}

/// The games of an SGF collection, in the file's order.
///
/// # Errors
/// A game without its players or result, with the number of the game.
pub fn read_games(text: &str) -> Result<Vec<RunnerGame>, String> {
    let mut games = Vec::new();
    for (i, tree) in text.split("(;").skip(1).enumerate() {
        let value = |key: &str| property(tree, key);
        let bad = |what: &str| format!("game {} of the collection: {what}", i + 1);
        let players = [value("PB").ok_or_else(|| bad("no PB[]"))?, value("PW").ok_or_else(|| bad("no PW[]"))?];
        let result = value("RE").ok_or_else(|| bad("no RE[]"))?;
        let winner = match result.chars().next() {
            Some('B' | 'b') => Some(Color::Black),
            Some('W' | 'w') => Some(Color::White),
            Some('0') => None,
            _ => return Err(bad(&format!("a result RE[{result}] that is not B+, W+ or 0"))),
        };
        let why = value("TE").unwrap_or_default().to_ascii_lowercase();
        let forfeit = winner.is_some() && !why.is_empty() && !why.contains("five");
        let (mut opening, mut slowest_ms) = (Vec::new(), [0; 2]);
        for (color, point, comment) in moves(tree) {
            if comment == "opening move" {
                opening.push(point);
            } else if let Some(ms) = comment.strip_suffix("ms").and_then(|t| t.trim().parse::<u64>().ok()) {
                let slot = &mut slowest_ms[color.index()];
                *slot = (*slot).max(ms);
            }
        }
        games.push(RunnerGame { players, winner, forfeit, opening, slowest_ms, place: format!("game {}", i + 1) });
    }
    Ok(games)
}

/// The first value of property `key` of a game's text (a property whose name only ends in `key` is another one).
fn property(tree: &str, key: &str) -> Option<String> {
    let mut from = 0;
    while let Some(at) = tree[from..].find(&format!("{key}[")).map(|k| k + from) {
        let before = tree[..at].chars().next_back();
        from = at + key.len() + 1;
        if before.is_some_and(|c| c.is_ascii_uppercase()) {
            continue;
        }
        let end = tree[from..].find(']')? + from;
        return Some(tree[from..end].to_string());
    }
    None
}

/// A game's moves: colour, point text and the comment after it.
fn moves(tree: &str) -> Vec<(Color, String, String)> {
    tree.split(';')
        .skip(1)
        .filter_map(|node| {
            let node = node.trim_start();
            let color = match node.as_bytes().first() {
                Some(b'B') => Color::Black,
                Some(b'W') => Color::White,
                _ => return None,
            };
            let point = node.get(2..)?.split(']').next()?.to_string();
            Some((color, point, property(node, "C").unwrap_or_default()))
        })
        .collect()
}

/// Reports `games` as a run of `player` against the other engine, as the match runner reports its own: consecutive
/// games on the same opening with `player` once each colour are a pair.
///
/// # Errors
/// No game, or a game `player` did not play, or a collection of more than two engines.
pub fn report(games: &[RunnerGame], player: &str, out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let first = games.first().ok_or("the collection holds no game")?;
    let opponent = first.players.iter().find(|n| n.as_str() != player).cloned().unwrap_or_default();
    let mut ledger = Ledger::new(1);
    let (mut k, mut unit) = (0, 0);
    while k < games.len() {
        let pair = games.get(k + 1).filter(|b| paired(&games[k], b, player)).map_or(1, |_| 2);
        for (offset, g) in games[k..k + pair].iter().enumerate() {
            let Some(seat) = g.players.iter().position(|n| n == player) else {
                return Err(format!("{}: {player} does not play in it", g.place));
            };
            if g.players[1 - seat] != opponent {
                return Err(format!("{}: {} is a third engine (one run is two)", g.place, g.players[1 - seat]));
            }
            let color = if seat == 0 { Color::Black } else { Color::White };
            // Numbered as our runner's pairs: the player has Black in the even game.
            let game = 2 * unit + usize::from(color == Color::White);
            let points = match g.winner {
                None => 1,
                Some(c) if c == color => 2,
                Some(_) => 0,
            };
            let forfeit = (g.forfeit && points != 1).then_some(usize::from(points == 2));
            let slowest_ms = [g.slowest_ms[seat], g.slowest_ms[1 - seat]];
            ledger.add(&GameResult {
                round: k + offset + 1,
                pair: 0,
                game,
                points,
                forfeit,
                slowest_ms,
                winner: g.winner,
            });
        }
        k += pair;
        unit += 1;
    }
    let mut config = MatchConfig::new(vec![
        EngineSpec { name: player.to_string(), command: String::new() },
        EngineSpec { name: opponent, command: String::new() },
    ]);
    config.games = games.len();
    let summary = ledger.summary(&config.pairs(), None);
    Ok(tally::write_results(&config, &ledger, &summary, out))
}

/// Whether two games are an opening played with colours swapped, `player` in both.
fn paired(a: &RunnerGame, b: &RunnerGame, player: &str) -> bool {
    a.opening == b.opening
        && a.players[0] == b.players[1]
        && a.players[1] == b.players[0]
        && a.players.iter().any(|n| n == player)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games of c-gomoku-cli's form on one opening, and a third alone.
    const COLLECTION: &str = "(;FF[4]GM[4]GN[1]EV[pz x tg]PB[pz]PW[tg]RE[W+1]TE[White win by five connection]\n\
        ;B[hh]C[opening move];W[hg]C[opening move];B[hf]C[opening move]\n;W[gg]C[72ms];B[ig]C[451ms];W[jf]C[3ms])\n\
        (;FF[4]GM[4]GN[2]EV[tg x pz]PB[tg]PW[pz]RE[W+1]TE[Black play forbidden move - double three]\n\
        ;B[hh]C[opening move];W[hg]C[opening move];B[hf]C[opening move];W[gg]C[460ms];B[ig]C[12ms])\n\
        (;FF[4]GM[4]GN[3]EV[tg x pz]PB[tg]PW[pz]RE[0]TE[Draw by adjudication]\n\
        ;B[hh]C[opening move];W[ig]C[opening move];B[hf]C[opening move];W[gg]C[5ms])\n";

    #[test]
    fn the_collection_reads_players_results_forfeits_openings_and_times() {
        let games = read_games(COLLECTION).expect("games");
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].players, ["pz".to_string(), "tg".to_string()]);
        assert_eq!((games[0].winner, games[0].forfeit), (Some(Color::White), false));
        assert_eq!(games[0].opening, ["hh", "hg", "hf"]);
        assert_eq!(games[0].slowest_ms, [451, 72]);
        assert_eq!((games[1].winner, games[1].forfeit), (Some(Color::White), true));
        assert_eq!((games[2].winner, games[2].forfeit), (None, false));
        assert!(read_games("(;PB[a]PW[b]RE[?])").is_err());
        assert!(read_games("(;PB[a]RE[0])").is_err());
    }

    #[test]
    fn the_games_are_reported_as_a_run_with_their_pairs_and_colours() {
        let games = read_games(COLLECTION).expect("games");
        let mut out = Vec::new();
        report(&games, "tg", &mut out).expect("report").expect("write");
        let text = String::from_utf8(out).expect("utf-8");
        // tg won the first game as White, lost the second as Black by its forbidden move, drew the third as Black.
        assert!(text.contains("Score of tg vs pz: 1 - 1 - 1"), "{text}");
        assert!(text.contains("tg as Black 0-1-1, as White 1-0-0"), "{text}");
        assert!(text.contains("forfeits: tg 1, pz 0"), "{text}");
        // One pair (the first two games, 1 point of 2): the draw is alone.
        assert!(text.contains("[0, 0, 1, 0, 0]"), "{text}");
        assert!(report(&games, "nobody", &mut Vec::new()).is_err());
    }
}
