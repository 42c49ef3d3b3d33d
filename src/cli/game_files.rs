//! The commands' reading of game files ([`crate::records::read_game_files`]): every bad record, and for the trainers
//! every file that cannot be read, an `error:` line on the output.

use crate::records::{GameRecord, TrainingSet, read_game_files};
use std::io::{self, Write};
use std::path::Path;

/// The games of `paths`, in order, for the commands that read games (`rescore`, `positions`, `book`).
///
/// # Errors
/// A file that cannot be read or holds c-gomoku-cli samples rather than games.
pub(super) fn read_games<P: AsRef<Path>>(paths: &[P], out: &mut dyn Write) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    for file in read_game_files(paths) {
        let file = file?;
        for problem in &file.problems {
            let _ = writeln!(out, "error: {problem}");
        }
        games.extend(file.games()?);
    }
    Ok(games)
}

/// The training set of `paths` for the trainers (`tune`, `train`): a file that cannot be read is an `error:` line and
/// the others are read.
///
/// # Errors
/// Output I/O errors.
pub(super) fn read_training_set<P: AsRef<Path>>(paths: &[P], out: &mut dyn Write) -> io::Result<TrainingSet> {
    let mut set = TrainingSet::default();
    for file in read_game_files(paths) {
        match file {
            Ok(file) => {
                for problem in &file.problems {
                    writeln!(out, "error: {problem}")?;
                }
                set.add(file);
            }
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
    Ok(set)
}
