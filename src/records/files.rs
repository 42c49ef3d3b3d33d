//! Whole game files for the commands: read in order with each bad record named by its file (the one reader every
//! command uses, [`read_game_files`], and its two readers that report the problems, [`read_games`] and
//! [`read_training_set`]), the training set the trainers learn from, and game files created or appended to. A folder
//! stands for the game files under it ([`expand_folders`]); a `.psq` file is one game.

use super::gomocup::{Split, judging_left_out};
use super::{
    GameRecord, Joined, PSQ_MAGIC, PsqGame, Sample, TrainingData, complete_games, join_game_files, read_psq,
    read_training, write_header,
};
use crate::problems::{Problems, named};
use crate::types::Rule;
use std::fs::File;
use std::io::{self, BufWriter, Seek};
use std::path::{Path, PathBuf};

/// Whole game files (each name with its bytes) checked and joined by [`join_game_files`] into the file `target`
/// (`merge --out`), which may not be one of them.
///
/// # Errors
/// `target` among the files, a problem of the files (nothing is written then), or the writing.
pub fn write_joined_game_files(files: &[(String, Vec<u8>)], target: &str) -> Result<Joined, String> {
    let same_file = |a: &str| match (std::fs::canonicalize(a), std::fs::canonicalize(target)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    if files.iter().any(|(name, _)| same_file(name)) {
        return Err(format!("{target} is one of the files to merge: write the merged file elsewhere"));
    }
    let joined = join_game_files(files)?;
    std::fs::write(target, &joined.bytes).map_err(|e| format!("cannot write {target}: {e}"))?;
    Ok(joined)
}

/// `paths` in order, each folder replaced by the game files under it at any depth (`.psq` and `.tgr`), sorted by
/// path so that a run sees them in the same order on every machine.
///
/// # Errors
/// A folder that cannot be listed.
pub fn expand_folders<P: AsRef<Path>>(paths: &[P]) -> Result<Vec<PathBuf>, String> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            let path = entry.path();
            // Not `path.is_dir()`: a link to a folder above would never end.
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                walk(&path, found)?;
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("psq") || e.eq_ignore_ascii_case("tgr")) {
                found.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        let p = p.as_ref();
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found)?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.to_path_buf());
        }
    }
    Ok(out)
}

/// `.psq` games, each with its path, and each file that could not be read as `PATH: reason`.
pub type PsqFiles = (Vec<(String, PsqGame)>, Vec<String>);

/// The `.psq` games of `paths` (folders expanded) with their move times, each named by its path; every file that is
/// not a readable `.psq` record is a problem `PATH: reason`, and the rest are read.
///
/// # Errors
/// A folder that cannot be listed.
pub fn read_psq_files<P: AsRef<Path>>(paths: &[P]) -> Result<PsqFiles, String> {
    let mut games = Vec::new();
    let mut problems = Vec::new();
    for path in expand_folders(paths)? {
        let name = path.display().to_string();
        match std::fs::read(&path) {
            Ok(bytes) => match psq_game(&bytes, &name) {
                Ok(game) => games.push((name, game)),
                Err(e) => problems.push(format!("{name}: {e}")),
            },
            Err(e) => problems.push(format!("{name}: cannot read: {e}")),
        }
    }
    Ok((games, problems))
}

/// The game of a `.psq` file's bytes, read from `path` (its name gives the result); a byte that is not UTF-8, in an
/// engine's name say, is read as a replacement character.
fn psq_game(bytes: &[u8], path: &str) -> Result<PsqGame, String> {
    if !bytes.starts_with(PSQ_MAGIC) {
        return Err("not a Piskvork record (.psq)".to_string());
    }
    read_psq(&String::from_utf8_lossy(bytes), path)
}

/// One game file as read.
#[derive(Clone, Debug)]
pub struct GameFile {
    /// Its path, as given.
    pub path: String,
    /// Its games or samples, the bad records left out.
    pub data: TrainingData,
    /// Each bad record as `PATH: record N: …`, in the file's order: what the commands skip, each an `error:` line on
    /// stderr.
    pub problems: Vec<String>,
}

impl GameFile {
    /// Its games.
    ///
    /// # Errors
    /// The file holds c-gomoku-cli samples rather than games.
    pub fn games(self) -> Result<Vec<GameRecord>, String> {
        if !self.data.samples.is_empty() {
            return Err(format!("{} holds c-gomoku-cli samples, not games", self.path));
        }
        Ok(self.data.games)
    }
}

/// Reads game files (Tengen's `.tgr`, a Piskvork `.psq` record or c-gomoku-cli's samples, whichever each holds;
/// a folder is the game files under it) one at a time as the iterator is walked, so that a command reports a file's
/// problems before the next is read: a file that cannot be read is the error `cannot read PATH: …`, and every other
/// is read whole, its bad records left out and named in [`GameFile::problems`] (a bad `.psq` file is one problem,
/// `PATH: reason`).
pub fn read_game_files<P: AsRef<Path>>(paths: &[P]) -> impl Iterator<Item = Result<GameFile, String>> + '_ {
    let (files, listing) = match expand_folders(paths) {
        Ok(files) => (files, None),
        Err(e) => (Vec::new(), Some(Err(e))),
    };
    listing.into_iter().chain(files.into_iter().map(|p| {
        let path = p.display().to_string();
        let bytes = std::fs::read(&p).map_err(|e| format!("cannot read {path}: {e}"))?;
        let mut problems = Vec::new();
        let data = if bytes.starts_with(PSQ_MAGIC) {
            match psq_game(&bytes, &path) {
                Ok(game) => TrainingData { games: vec![game.record], samples: Vec::new() },
                Err(e) => {
                    problems.push(format!("{path}: {e}"));
                    TrainingData::default()
                }
            }
        } else {
            read_training(&bytes, &mut |e| problems.push(format!("{path}: {e}")))
        };
        Ok(GameFile { path, data, problems })
    }))
}

/// The games of `paths`, in order, for the commands that read games (`positions`, `book reached`): each bad
/// record skipped on `problems`.
///
/// # Errors
/// A file that cannot be read or holds c-gomoku-cli samples rather than games, and no game read at all.
pub fn read_games<P: AsRef<Path>>(paths: &[P], problems: &mut Problems) -> Result<Vec<GameRecord>, String> {
    read_games_of(paths, false, problems)
}

/// The games of `paths` as [`read_games`] reads them, for the commands whose output is learned from (`rescore`,
/// `book learn`): Gomocup's judging games ([`Split::Judge`]) are left out with one warning that counts them, as the
/// trainers leave them out, so that no label or book move is ever made from a game that judges.
///
/// # Errors
/// As [`read_games`].
pub fn read_learning_games<P: AsRef<Path>>(paths: &[P], problems: &mut Problems) -> Result<Vec<GameRecord>, String> {
    read_games_of(paths, true, problems)
}

/// [`read_games`], less Gomocup's judging files (counted on one line) where `learning_only`.
fn read_games_of<P: AsRef<Path>>(
    paths: &[P],
    learning_only: bool,
    problems: &mut Problems,
) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    let mut judging = Vec::new();
    for file in read_game_files(paths) {
        let file = file?;
        if learning_only && Split::of_path(&file.path) == Some(Split::Judge) {
            judging.push(file.path);
            continue;
        }
        problems.skip_all(&file.problems);
        games.extend(file.games()?);
    }
    if let Some(first) = judging.first() {
        problems.warn(judging_left_out(judging.len(), first));
    }
    if games.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.as_ref().display().to_string()).collect();
        return Err(format!("{}: no game read", names.join(", ")));
    }
    Ok(games)
}

/// The training set of `paths` for the trainers (`tune`, `train`): each bad record, and each file that cannot be
/// read, skipped on `problems`; the rest is read. Gomocup's judging games ([`Split::Judge`]) are never learned
/// from: they are left out with one warning that counts them.
pub fn read_training_set<P: AsRef<Path>>(paths: &[P], problems: &mut Problems) -> TrainingSet {
    let mut set = TrainingSet::default();
    let mut judging = Vec::new();
    for file in read_game_files(paths) {
        match file {
            Ok(file) if Split::of_path(&file.path) == Some(Split::Judge) => judging.push(file.path),
            Ok(file) => {
                problems.skip_all(&file.problems);
                set.add(file);
            }
            Err(e) => problems.skip(e),
        }
    }
    set.close();
    if let Some(first) = judging.first() {
        problems.warn(judging_left_out(judging.len(), first));
    }
    set
}

/// The games and samples the trainers learn from, with a line per file for the provenance.
#[derive(Clone, Debug, Default)]
pub struct TrainingSet {
    /// The games.
    pub games: Vec<GameRecord>,
    /// The samples.
    pub samples: Vec<Sample>,
    /// Per file: `PATH (G games, S samples…)`; per folder of `.psq` records, `FOLDER/*.psq (F files, G games…)`.
    pub sources: Vec<String>,
    /// Per folder of `.psq` records not yet written into `sources`: files, games kept, games left out.
    psq: Vec<(String, [usize; 3])>,
}

impl TrainingSet {
    /// Adds a file's samples and its games, less those that ended by Black's forbidden move: the rule decided them,
    /// not the position. They are counted in the file's source line (a `.psq` record in its folder's).
    pub fn add(&mut self, file: GameFile) {
        let total = file.data.games.len();
        let kept: Vec<GameRecord> = file.data.games.into_iter().filter(|g| g.forbidden_end.is_none()).collect();
        if let Some(folder) = file.path.strip_suffix(".psq").map(|_| psq_folder(&file.path)) {
            if self.psq.last().is_none_or(|(f, _)| *f != folder) {
                self.psq.push((folder, [0; 3]));
            }
            if let Some((_, n)) = self.psq.last_mut() {
                *n = [n[0] + 1, n[1] + kept.len(), n[2] + total - kept.len()];
            }
        } else {
            let forfeits = forfeits(total - kept.len());
            let samples = file.data.samples.len();
            self.sources.push(format!("{} ({} games, {samples} samples{forfeits})", file.path, kept.len()));
        }
        self.games.extend(kept);
        self.samples.extend(file.data.samples);
    }

    /// Writes the `.psq` folders' source lines.
    fn close(&mut self) {
        for (folder, [files, games, left]) in std::mem::take(&mut self.psq) {
            self.sources.push(format!("{folder}/*.psq ({files} files, {games} games{})", forfeits(left)));
        }
    }
}

/// `, N more that ended by a forbidden move left out`, or nothing for none.
fn forfeits(n: usize) -> String {
    match n {
        0 => String::new(),
        n => format!(", {n} more that ended by a forbidden move left out"),
    }
}

/// The folder of a `.psq` record's path (`.` for none).
fn psq_folder(path: &str) -> String {
    match Path::new(path).parent().map(|d| d.display().to_string()) {
        Some(d) if !d.is_empty() => d,
        _ => ".".to_string(),
    }
}

/// A new game file at `path` (an old one there is replaced), its header written.
///
/// # Errors
/// I/O errors, as `PATH: reason`.
pub fn create_game_file(path: &Path) -> io::Result<BufWriter<File>> {
    let mut file = BufWriter::new(File::create(path).map_err(named(path.display()))?);
    write_header(&mut file).map_err(named(path.display()))?;
    Ok(file)
}

/// The game file at `path` opened to append games to; created, with its header, when it does not exist or is empty.
///
/// # Errors
/// I/O errors, as `PATH: reason`.
pub fn append_game_file(path: &Path) -> io::Result<BufWriter<File>> {
    let open = || {
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        if file.metadata()?.len() == 0 {
            write_header(&mut file)?;
        }
        Ok(file)
    };
    open().map(BufWriter::new).map_err(named(path.display()))
}

/// The game file at `path` opened to go on with a run that stopped: its complete games are the run's first ones (how
/// many is returned), a torn last record is cut off, and new games are appended. A missing or empty file is created
/// with its header (no games). The file is changed only once it is known to be the run's: every game of `rule` on a
/// board of `size`, and at most `games` of them.
///
/// # Errors
/// I/O errors, a file that is not a game file or has a damaged record, and one that is not the run's.
pub fn resume_game_file(path: &Path, games: usize, rule: Rule, size: usize) -> io::Result<(BufWriter<File>, usize)> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(named(path.display())(e)),
    };
    if bytes.is_empty() {
        return Ok((append_game_file(path)?, 0));
    }
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}", path.display()));
    let held = complete_games(&bytes).map_err(invalid)?;
    if held.len() > games {
        return Err(invalid(format!("{} games, more than this run's {games}: not its file", held.len())));
    }
    if let Some(&(r, s, _)) = held.iter().find(|&&(r, s, _)| (r, s) != (rule, size)) {
        return Err(invalid(format!(
            "a {r} game on {s}x{s}, where this run plays {rule} on {size}x{size}: not its file"
        )));
    }
    let end = held.last().map_or(super::MAGIC.len(), |(_, _, range)| range.end);
    let cut = || {
        let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
        file.set_len(end as u64)?;
        file.seek(io::SeekFrom::End(0))?;
        Ok(file)
    };
    Ok((BufWriter::new(cut().map_err(named(path.display()))?), held.len()))
}
