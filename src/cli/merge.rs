//! `pbrain-tengen merge`: the shards of a run put back together. Match results files ([`crate::matches::shard`])
//! give the whole run's statistics (with `--by-opening`, each opening's games too); game files (`.tgr`) are checked
//! record by record and concatenated, so that a file of another rule or a damaged record is reported and never mixed
//! in.

use super::Done;
use super::OptionCursor;
use crate::records::{MAGIC, write_joined_game_files};
use std::io::Write;

/// Runs `merge [--out FILE] FILE...` (or `merge --paired A[,A2...] B[,B2...]`, `merge --runs FILE...`, `merge --sgf NAME FILE...`).
pub(super) fn merge_command(args: &[String], out: &mut dyn Write) -> Done {
    let mut target = None::<String>;
    let mut by_opening = false;
    let mut paired = false;
    let mut runs = false;
    let mut sgf_player = None::<String>;
    let mut files = Vec::new();
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        match name.as_str() {
            "--out" => target = Some(cursor.value(&name, &inline)?),
            "--by-opening" => by_opening = true,
            "--paired" => paired = true,
            "--runs" => runs = true,
            "--sgf" => sgf_player = Some(cursor.value(&name, &inline)?),
            other if other.starts_with('-') => return Err(format!("unknown option '{other}'")),
            _ => files.push(name),
        }
    }
    if files.is_empty() {
        return Err("merge needs files: match results files, or --out FILE and game files".to_string());
    }
    if let Some(player) = sgf_player {
        if paired || runs || by_opening || target.is_some() {
            return Err("--sgf NAME reads another runner's SGF games and takes no other option".to_string());
        }
        let games = crate::matches::runner_sgf::read_files(&files)?;
        return crate::matches::runner_sgf::report(&games, &player, out);
    }
    if paired && runs {
        return Err("--paired compares two runs and --runs pools them: one or the other".to_string());
    }
    if runs && target.is_some() {
        return Err("--runs reports on results files and writes none: no --out".to_string());
    }
    if paired {
        let [a, b] = &files[..] else {
            return Err("merge --paired compares two runs: merge --paired A.results B.results".to_string());
        };
        if by_opening || target.is_some() {
            return Err("--paired takes two results files and no other option".to_string());
        }
        // A run played in shards is given as its shards' files joined by commas.
        let read = |paths: &String| {
            paths
                .split(',')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    std::fs::read_to_string(p).map(|t| (p.to_string(), t)).map_err(|e| format!("cannot read {p}: {e}"))
                })
                .collect::<Result<Vec<_>, _>>()
        };
        return crate::matches::paired::paired(&read(a)?, &read(b)?, out);
    }
    let mut contents = Vec::new();
    for path in &files {
        contents.push((path.clone(), std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?));
    }
    let games = contents.iter().filter(|(_, b)| b.starts_with(MAGIC)).count();
    match (games, target) {
        (0, None) => {
            let texts = contents
                .into_iter()
                .map(|(name, bytes)| {
                    String::from_utf8(bytes)
                        .map(|t| (name.clone(), t))
                        .map_err(|_| format!("{name}: not a match results file (not text; game files need --out FILE)"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if runs {
                crate::matches::pool::pool(&texts, by_opening, out)
            } else {
                crate::matches::shard::merge(&texts, by_opening, out)
            }
        }
        (_, _) if runs && games > 0 => Err("--runs reads match results files, not game files".to_string()),
        (_, _) if by_opening && games > 0 => Err("--by-opening reads match results files, not game files".to_string()),
        (0, Some(_)) => Err(format!("{}: not a Tengen game file (no TGR1 at its start)", files[0])),
        (_, None) => Err("game files are joined into a file: merge --out ALL.tgr FILE.tgr...".to_string()),
        (_, Some(target)) => join_games(&contents, &target, out),
    }
}

/// Checks every record of the game files and writes them, in the order given, into `target`.
fn join_games(files: &[(String, Vec<u8>)], target: &str, out: &mut dyn Write) -> Done {
    let joined = write_joined_game_files(files, target)?;
    let rule = joined.rule.map_or(String::new(), |(r, s)| format!(" ({r}, {s}x{s})"));
    Ok(writeln!(out, "{target}: {} games from {} files{rule}", joined.games, files.len()))
}
