//! Rescoring (`pbrain-tengen rescore`): game files re-scored by deeper searches than the games' own, as training
//! targets beside the result.
//!
//! Every chosen position of every game (the position before each move, from the move after the opening on, every
//! `every`-th one) is searched to `nodes` nodes with the engine's default evaluation for the rule, on one thread with
//! a transposition table of its own per game; the search's score (for the side to move) replaces the move's score,
//! and its best move is kept (game-file flag bit 2: what a move policy learns from). Positions not chosen keep the
//! score they had. A game is searched by one thread from start to end, so the output does not depend on
//! `concurrency`, and games are written in input order: shards (a contiguous block of the input's games each)
//! joined in shard order by `merge --out` are the unsharded run's file, byte for byte.

use crate::matches::Shard;
use crate::problems::Problems;
use crate::records::replay_game;
use crate::records::{GameRecord, NO_SCORE, create_game_file, read_learning_games, stored_score, write_game};
use crate::search::tt::Table;
use crate::search::{SearchLimits, SearchOptions, search};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The transposition table of each game's searches.
const TABLE_BYTES: usize = 16 << 20;

/// What a rescoring run (`pbrain-tengen rescore`) is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rescore {
    /// Nodes a search.
    pub nodes: u64,
    /// Search every this-many-th position (1: all).
    pub every: usize,
    /// Games searched at a time.
    pub concurrency: usize,
    /// This shard's games only.
    pub shard: Option<Shard>,
    /// Only the games one of these engines played (by name, any case; none: every game). Sharding counts the games
    /// kept.
    pub engines: Vec<String>,
    /// The output game file.
    pub out: PathBuf,
    /// The input game files, in order.
    pub inputs: Vec<PathBuf>,
}

/// One game re-scored; returns it and how many positions were searched.
fn rescore_game(game: &GameRecord, r: &Rescore) -> (GameRecord, usize) {
    let mut scores = game.scores.clone().unwrap_or_else(|| vec![NO_SCORE; game.moves.len()]);
    scores.resize(game.moves.len(), NO_SCORE);
    let mut best = game.best.clone().unwrap_or_else(|| vec![None; game.moves.len()]);
    best.resize(game.moves.len(), None);
    let table = Table::new(TABLE_BYTES);
    let limits = SearchLimits { nodes: r.nodes, ..SearchLimits::default() };
    let options = SearchOptions::default();
    let mut searched = 0;
    replay_game(game, |pb, i, side, _, _, _| {
        if i < game.opening || (i - game.opening) % r.every != 0 {
            return;
        }
        let report = search(pb, side, &table, &limits, &options, |_| {});
        scores[i] = stored_score(report.score);
        best[i] = report.best;
        searched += 1;
    });
    (GameRecord { scores: Some(scores), best: Some(best), ..game.clone() }, searched)
}

/// Whether one of `engines` (by name, any case) played `game`; never for a game without names.
fn played_by(game: &GameRecord, engines: &[String]) -> bool {
    game.players.as_ref().is_some_and(|names| names.iter().any(|n| engines.iter().any(|e| e.eq_ignore_ascii_case(n))))
}

/// Runs `rescore` as the command prints it: reads the games (each bad record skipped on `problems`), re-scores this
/// shard's, writes them in input order and prints the progress and a summary.
///
/// # Errors
/// A game file that cannot be read, no game read, no game that `engines` played, or an output file that cannot be
/// created (as a message naming it); output and file I/O errors.
pub fn run(r: &Rescore, out: &mut dyn Write, problems: &mut Problems) -> Result<io::Result<()>, String> {
    let mut games = read_learning_games(&r.inputs, problems)?;
    if !r.engines.is_empty() {
        let all = games.len();
        games.retain(|g| played_by(g, &r.engines));
        let _ = writeln!(out, "{} of {all} games played by {}", games.len(), r.engines.join(" or "));
        if games.is_empty() {
            return Err(format!("no game played by {} (names as the records spell them)", r.engines.join(" or ")));
        }
    }
    let range = r.shard.map_or(0..games.len(), |s| s.pairs(games.len()));
    let games = &games[range.clone()];
    let mut file = create_game_file(&r.out).map_err(|e| e.to_string())?;
    Ok((|| {
        let start = Instant::now();
        let next = AtomicUsize::new(0);
        let (tx, rx) = std::sync::mpsc::channel::<(usize, GameRecord, usize)>();
        let mut positions = 0;
        std::thread::scope(|scope| -> io::Result<()> {
            for _ in 0..r.concurrency.min(games.len().max(1)) {
                let tx = tx.clone();
                let next = &next;
                scope.spawn(move || {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(game) = games.get(k) else { return };
                        let (done, searched) = rescore_game(game, r);
                        if tx.send((k, done, searched)).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(tx);
            // Written in input order whatever order they finish in.
            let mut waiting = BTreeMap::new();
            let mut written = 0;
            for (k, game, searched) in rx {
                waiting.insert(k, game);
                positions += searched;
                while let Some(game) = waiting.remove(&written) {
                    write_game(&mut file, &game)?;
                    written += 1;
                    if written % 10 == 0 || written == games.len() {
                        file.flush()?;
                        writeln!(
                            out,
                            "rescored {written}/{} games, {positions} positions, {:.0} s",
                            games.len(),
                            start.elapsed().as_secs_f64()
                        )?;
                        out.flush()?;
                    }
                }
            }
            Ok(())
        })?;
        file.flush()?;
        writeln!(
            out,
            "wrote {} games (input games {}..{}), {positions} positions searched to {} nodes, to {} in {:.0} s",
            games.len(),
            range.start + 1,
            range.end,
            r.nodes,
            r.out.display(),
            start.elapsed().as_secs_f64()
        )?;
        out.flush()
    })())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Outcome;

    /// A two-move freestyle game between `players`, Black's win.
    fn game(players: Option<[&str; 2]>) -> GameRecord {
        GameRecord {
            rule: crate::types::Rule::Freestyle,
            size: 15,
            outcome: Outcome::BlackWins,
            opening: 1,
            moves: vec![crate::types::Pos::new(7, 7), crate::types::Pos::new(7, 8)],
            scores: None,
            players: players.map(|p| p.map(str::to_string)),
            best: None,
            forbidden_end: None,
        }
    }

    #[test]
    fn the_engine_filter_keeps_the_games_a_named_engine_played() {
        let names = vec!["Barbakan".to_string(), "KATAGOMO21.F".to_string()];
        assert!(played_by(&game(Some(["BARBAKAN", "EGO21"])), &names));
        assert!(played_by(&game(Some(["EGO21", "katagomo21.f"])), &names));
        assert!(!played_by(&game(Some(["EGO21", "JUDE"])), &names));
        assert!(!played_by(&game(None), &names), "a game without names is never taken");
    }

    #[test]
    fn engines_that_played_no_game_are_an_error_and_no_file() {
        let dir = std::env::temp_dir().join(format!("tengen-rescore-engines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary folder");
        let input = dir.join("games.tgr");
        {
            let mut file = create_game_file(&input).expect("game file");
            write_game(&mut file, &game(Some(["EGO21", "JUDE"]))).expect("written");
            file.flush().expect("flushed");
        }
        let r = Rescore {
            nodes: 10,
            every: 1,
            concurrency: 1,
            shard: None,
            engines: vec!["BARBAKAN".to_string()],
            out: dir.join("out.tgr"),
            inputs: vec![input.clone()],
        };
        let mut said = Vec::new();
        let err = run(&r, &mut said, &mut Problems::new(&mut Vec::new())).expect_err("no game of BARBAKAN");
        assert!(err.contains("no game played by BARBAKAN"), "{err}");
        assert!(String::from_utf8_lossy(&said).contains("0 of 1 games played by BARBAKAN"));
        assert!(!r.out.exists(), "no output file is written");
        let kept = Rescore { engines: vec!["jude".to_string()], ..r.clone() };
        run(&kept, &mut Vec::new(), &mut Problems::new(&mut Vec::new())).expect("read").expect("written");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
