//! Gomocup's `.psq` games as training data: the moves the strongest engines played taken as each position's best
//! move, the judging games left out (the move policy's run and the network's choice pairs read them).

use crate::problems::Problems;
use crate::records::gomocup::{Split, judging_left_out};
use crate::records::selection::{Selection, played_as_best};
use crate::records::{GameRecord, TrainingSet, expand_folders, read_psq_files, read_training_set};
use std::path::PathBuf;

/// Whether `path` names a `.psq` record.
pub fn is_psq(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("psq"))
}

/// The games of Gomocup's `.psq` records `paths` with the moves `selection` takes as their best moves (the moves
/// the strongest engines played), and the source line that says so. Bad records are skipped on `problems`; judging
/// games (never learned from) are left out with a warning, and games that ended by Black's forbidden move with a
/// count.
pub fn played_games(paths: &[PathBuf], selection: &Selection, problems: &mut Problems) -> (Vec<GameRecord>, String) {
    let games = match read_psq_files(paths) {
        Ok((games, bad)) => {
            problems.skip_all(bad);
            games
        }
        Err(e) => {
            problems.skip(e);
            return (Vec::new(), "no .psq games".to_string());
        }
    };
    let total = games.len();
    let (judging, games): (Vec<_>, Vec<_>) =
        games.into_iter().partition(|(path, _)| Split::of_path(path) == Some(Split::Judge));
    if let Some((first, _)) = judging.first() {
        problems.warn(judging_left_out(judging.len(), first));
    }
    let (games, forfeits): (Vec<_>, Vec<_>) = games.into_iter().partition(|(_, g)| g.record.forbidden_end.is_none());
    let (records, skipped) = played_as_best(&games, selection);
    problems.skip_all(skipped);
    let whose = if selection.engines.is_empty() {
        format!("each league's {} strongest by its ratings.txt", selection.strongest)
    } else {
        selection.engines.join(", ")
    };
    let source = format!(
        "{total} .psq games ({} judging and {} ended by a forbidden move left out): the moves of {whose} of {} ms or \
         more after the opening, in {} games",
        judging.len(),
        forfeits.len(),
        selection.min_ms,
        records.len()
    );
    (records, source)
}

/// The games of `specs` (files and folders): `.psq` records with the moves `selection` takes from them as their best
/// moves (see [`played_games`]), and game files as they are (with `rescore`'s best moves where it kept them), with
/// the sources read; each problem on `problems`.
pub fn games_with_best_moves(
    specs: &[String],
    selection: &Selection,
    problems: &mut Problems,
) -> (Vec<GameRecord>, Vec<String>) {
    let files = match expand_folders(specs) {
        Ok(files) => files,
        Err(e) => {
            problems.skip(e);
            return (Vec::new(), Vec::new());
        }
    };
    let (psq, other): (Vec<PathBuf>, Vec<PathBuf>) = files.into_iter().partition(|p| is_psq(p));
    let TrainingSet { mut games, mut sources, .. } = read_training_set(&other, problems);
    if !psq.is_empty() {
        let (played, source) = played_games(&psq, selection, problems);
        games.extend(played);
        sources.push(source);
    }
    (games, sources)
}
