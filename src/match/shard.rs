//! A match spread over machines: shard `I` of `N` plays one contiguous block of the run's opening pairs (both
//! games of each, so its pentanomial pairs are whole), numbered as in the whole run, and writes a results file:
//! the settings that define the run, then one line per game. `merge` reads the shards' files, refuses any whose
//! settings differ or that are damaged, and prints the run's statistics exactly as one run would have.
//!
//! The results file is text, one item a line:
//!
//! ```text
//! tengen-match-results 1
//! engine NAME            (per engine, in order, each followed by its command line)
//! command COMMAND
//! rule renju             (then size, games, turn-ms, match-ms, tolerance-ms, max-memory, draw-at, suspend,
//!                         processes, opening-rule, sprt, and one `opening MOVES` line per opening)
//! shard I/N
//! game ROUND PAIR GAME POINTS FORFEIT SLOWEST-FIRST SLOWEST-SECOND WINNER
//! end GAMES
//! ```
//!
//! `POINTS` is the pair's first engine's points doubled (0, 1, 2), `FORFEIT` `-`, `first` or `second`, the slowest
//! answers in ms, `WINNER` `black`, `white` or `draw`. A file without its `end` line is a shard that did not finish.

use super::config::{EngineSpec, MatchConfig, Shard};
use super::stats::{Decision, Sprt};
use super::tally::{self, GameResult, Ledger};
use crate::openings::format_opening;
use crate::types::Color;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// The first line of a results file.
pub const RESULTS_MAGIC: &str = "tengen-match-results 1";

/// The lines that define a run: two shards merge only when these are equal.
fn settings(config: &MatchConfig) -> Vec<String> {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    let mut lines = Vec::new();
    for e in &config.engines {
        lines.push(format!("engine {}", one_line(&e.name)));
        lines.push(format!("command {}", one_line(&e.command)));
    }
    lines.push(format!("rule {}", config.rule));
    lines.push(format!("size {}", config.size));
    lines.push(format!("games {}", config.games));
    lines.push(format!("turn-ms {}", config.turn_ms));
    lines.push(format!("match-ms {}", config.match_ms));
    lines.push(format!("tolerance-ms {}", config.tolerance_ms));
    lines.push(format!("max-memory {}", config.max_memory));
    lines.push(format!("draw-at {}", config.draw_at));
    lines.push(format!("suspend {}", if config.suspend { "yes" } else { "no" }));
    lines.push(processes_line(config.keep_processes));
    lines.push(format!("opening-rule {}", config.opening_rule.map_or("none".to_string(), |r| r.to_string())));
    lines.push(match config.sprt {
        Some(s) => format!("sprt {},{},{},{}", s.elo0, s.elo1, s.alpha, s.beta),
        None => "sprt none".to_string(),
    });
    for o in &config.openings {
        lines.push(format!("opening {}", format_opening(o, config.size)));
    }
    lines
}

/// The settings line that says how the engines' processes were run.
fn processes_line(kept: bool) -> String {
    format!("{PROCESSES}{}", super::config::processes_word(kept))
}

/// The start of the settings line that says how the processes were run (`processes fresh` or `processes kept`).
pub(super) const PROCESSES: &str = "processes ";

/// Writes a results file as the games end (flushed after each line, so a stopped shard keeps what it played).
pub struct ResultsWriter {
    file: BufWriter<File>,
}

impl ResultsWriter {
    /// Creates (or empties) `path` and writes the run's settings and the shard's line.
    ///
    /// # Errors
    /// I/O errors, as `PATH: reason`.
    pub fn create(path: &Path, config: &MatchConfig) -> io::Result<ResultsWriter> {
        let mut file = BufWriter::new(File::create(path).map_err(crate::problems::named(path.display()))?);
        writeln!(file, "{RESULTS_MAGIC}")?;
        for line in settings(config) {
            writeln!(file, "{line}")?;
        }
        writeln!(file, "shard {}", config.shard.unwrap_or(Shard { index: 1, count: 1 }))?;
        file.flush()?;
        Ok(ResultsWriter { file })
    }

    /// Appends a game.
    ///
    /// # Errors
    /// I/O errors.
    pub fn game(&mut self, r: &GameResult) -> io::Result<()> {
        let forfeit = match r.forfeit {
            None => "-",
            Some(0) => "first",
            Some(_) => "second",
        };
        let winner = match r.winner {
            Some(Color::Black) => "black",
            Some(Color::White) => "white",
            None => "draw",
        };
        writeln!(
            self.file,
            "game {} {} {} {} {forfeit} {} {} {winner}",
            r.round, r.pair, r.game, r.points, r.slowest_ms[0], r.slowest_ms[1]
        )?;
        self.file.flush()
    }

    /// Ends the file: `games` were played.
    ///
    /// # Errors
    /// I/O errors.
    pub fn finish(mut self, games: usize) -> io::Result<()> {
        writeln!(self.file, "end {games}")?;
        self.file.flush()
    }
}

/// One shard's results file, read.
#[derive(Clone, Debug)]
pub(super) struct ShardFile {
    pub(super) name: String,
    pub(super) settings: Vec<String>,
    pub(super) shard: Shard,
    pub(super) games: Vec<GameResult>,
}

impl ShardFile {
    /// The settings two runs of one engine against the same opponent share: all but the first engine's name and
    /// command (what `--paired` and `--runs` let differ), the opponents' programs named by their file names (two
    /// machines keep the same build in different folders).
    pub(super) fn shared_settings(&self) -> Vec<String> {
        let settings = self.settings.get(2..).unwrap_or(&[]);
        settings.iter().map(|l| l.strip_prefix("command ").map_or_else(|| l.clone(), program_named)).collect()
    }
}

/// A command line with its program (the first word) named by its file name alone: `command pbrain-pentazen`.
fn program_named(command: &str) -> String {
    let (program, args) = command.split_once(' ').unwrap_or((command, ""));
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    if args.is_empty() { format!("command {name}") } else { format!("command {name} {args}") }
}

/// Reads one results file's text; `name` is how errors name it.
pub(super) fn read(name: &str, text: &str) -> Result<ShardFile, String> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    match lines.next() {
        Some((_, l)) if l.trim_end() == RESULTS_MAGIC => {}
        _ => return Err(format!("{name}: not a match results file (its first line is not '{RESULTS_MAGIC}')")),
    }
    let mut settings = Vec::new();
    let mut shard = None;
    let mut games = Vec::new();
    let mut end = None;
    for (number, line) in lines {
        let at = |what: &str| format!("{name}: line {number}: {what}, not '{line}'");
        if end.is_some() {
            if line.trim().is_empty() {
                continue;
            }
            return Err(at("nothing may follow the end line"));
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match (key, shard) {
            ("shard", None) => shard = Some(Shard::parse(rest).map_err(|e| at(&e))?),
            ("game", Some(_)) => games.push(parse_game(rest).ok_or_else(|| at("expected a game line"))?),
            ("end", Some(_)) => {
                let n: usize = rest.trim().parse().map_err(|_| at("expected 'end GAMES'"))?;
                if n != games.len() {
                    return Err(at(&format!("the end line counts {n} games, the file holds {}", games.len())));
                }
                end = Some(n);
            }
            (_, None) if !line.is_empty() => settings.push(line.to_string()),
            _ => return Err(at("expected a game or end line")),
        }
    }
    let shard = shard.ok_or_else(|| format!("{name}: truncated: no shard line after the settings"))?;
    // Files written before the runner could keep processes played on fresh ones.
    if !settings.iter().any(|l| l.starts_with(PROCESSES))
        && let Some(at) = settings.iter().position(|l| l.starts_with("suspend "))
    {
        settings.insert(at + 1, processes_line(false));
    }
    if end.is_none() {
        return Err(format!(
            "{name}: incomplete: no end line after {} games (the shard {shard} did not finish)",
            games.len()
        ));
    }
    Ok(ShardFile { name: name.to_string(), settings, shard, games })
}

/// A game line's fields after `game`.
fn parse_game(rest: &str) -> Option<GameResult> {
    let f: Vec<&str> = rest.split_whitespace().collect();
    let [round, pair, game, points, forfeit, slow0, slow1, winner] = f[..] else { return None };
    let number = |s: &str| s.parse::<usize>().ok();
    let points = number(points).filter(|&p| p <= 2)?;
    let forfeit = match forfeit {
        "-" => None,
        "first" => Some(0),
        "second" => Some(1),
        _ => return None,
    };
    let winner = match winner {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        "draw" => None,
        _ => return None,
    };
    Some(GameResult {
        round: number(round).filter(|&r| r > 0)?,
        pair: number(pair)?,
        game: number(game)?,
        points,
        forfeit,
        slowest_ms: [slow0.parse().ok()?, slow1.parse().ok()?],
        winner,
    })
}

/// The configuration a results file's settings describe, as far as the report needs it (engines, opening rule,
/// SPRT), and the number of games of the whole run.
fn config_of(settings: &[String]) -> Result<(MatchConfig, usize), String> {
    let mut config = MatchConfig::new(Vec::new());
    let mut games_per_pair = None;
    for line in settings {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "engine" => config.engines.push(EngineSpec { name: rest.to_string(), command: String::new() }),
            "command" => match config.engines.last_mut() {
                Some(e) => e.command = rest.to_string(),
                None => return Err(format!("a command line before any engine: '{line}'")),
            },
            "games" => games_per_pair = rest.parse::<usize>().ok(),
            "opening-rule" if rest != "none" => config.opening_rule = Some(rest.parse()?),
            "sprt" if rest != "none" => config.sprt = Some(Sprt::parse(rest)?),
            _ => {}
        }
    }
    if config.engines.len() < 2 {
        return Err("the settings name fewer than two engines".to_string());
    }
    let games = games_per_pair.ok_or("the settings have no games line")?;
    config.games = games;
    let total = games * config.pairs().len();
    Ok((config, total))
}

/// The first line where two files' settings differ, as `'MINE' against 'THEIRS'` (`(nothing)` past a shorter
/// list's end).
pub(super) fn first_difference(mine: &[String], theirs: &[String]) -> String {
    let (a, b) = mine
        .iter()
        .map(Some)
        .chain(std::iter::repeat(None))
        .zip(theirs.iter().map(Some).chain(std::iter::repeat(None)))
        .find(|(a, b)| a != b)
        .unwrap_or((None, None));
    let show = |l: Option<&String>| l.map_or("(nothing)".to_string(), |l| format!("'{l}'"));
    format!("{} against {}", show(a), show(b))
}

/// The totals of a run's games as `merge` and `merge --runs` build them: all games, and each opening's.
pub(super) struct Totals {
    pub(super) config: MatchConfig,
    /// The pairs of engines, in the config's order.
    pairs: Vec<(usize, usize)>,
    /// The run's openings as their settings lines give them.
    openings: Vec<String>,
    pub(super) ledger: Ledger,
    per_opening: Vec<Ledger>,
}

impl Totals {
    /// Empty totals for the run the settings describe, with the number of games of the whole run.
    pub(super) fn new(settings: &[String]) -> Result<(Totals, usize), String> {
        let (config, total) = config_of(settings)?;
        let pairs = config.pairs();
        let openings: Vec<String> =
            settings.iter().filter_map(|l| l.strip_prefix("opening ")).map(str::to_string).collect();
        let per_opening = vec![Ledger::new(pairs.len()); openings.len()];
        Ok((Totals { ledger: Ledger::new(pairs.len()), config, pairs, openings, per_opening }, total))
    }

    /// Whether `g` is numbered as a game of the run: game by game, each pair of engines in turn.
    pub(super) fn fits(&self, g: &GameResult) -> bool {
        g.pair < self.pairs.len() && g.game < self.config.games && g.round == g.game * self.pairs.len() + g.pair + 1
    }

    /// Enters a game, numbered `offset` games on in the totals (its opening still told by its own number).
    pub(super) fn add(&mut self, g: &GameResult, offset: usize) {
        let entered = GameResult { game: g.game + offset, ..*g };
        self.ledger.add(&entered);
        if !self.openings.is_empty() {
            self.per_opening[(g.game / 2) % self.openings.len()].add(&entered);
        }
    }

    /// The report as one run prints it, with the SPRT's verdict where there is one; with `by_opening`, each
    /// opening's games too.
    pub(super) fn write(&self, sprt: Option<Decision>, by_opening: bool, out: &mut dyn Write) -> io::Result<()> {
        let summary = self.ledger.summary(&self.pairs, sprt);
        tally::write_results(&self.config, &self.ledger, &summary, out)?;
        if by_opening {
            tally::write_by_opening(&self.config, &self.openings, &self.per_opening, out)?;
        }
        Ok(())
    }
}

/// `merge` of match results: the texts of shards' results files (with the names errors give them) merged and
/// reported as one run; with `by_opening`, each opening's games too ([`tally::write_by_opening`]).
///
/// # Errors
/// A file that is not a finished results file, settings that differ between files, a shard given twice, or a game
/// that is not one of the run's.
pub fn merge(files: &[(String, String)], by_opening: bool, out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let shards: Vec<ShardFile> = files.iter().map(|(name, text)| read(name, text)).collect::<Result<_, _>>()?;
    let Some(first) = shards.first() else { return Err("merge needs at least one results file".to_string()) };
    for s in &shards[1..] {
        if s.settings != first.settings {
            return Err(format!(
                "{}: its settings differ from {}'s: {} (not the same run)",
                s.name,
                first.name,
                first_difference(&s.settings, &first.settings)
            ));
        }
        if s.shard.count != first.shard.count {
            return Err(format!(
                "{}: shard {} of a run in {} shards, but {} is shard {}",
                s.name, s.shard, s.shard.count, first.name, first.shard
            ));
        }
    }
    let mut seen_shards: BTreeMap<usize, &str> = BTreeMap::new();
    for s in &shards {
        if let Some(other) = seen_shards.insert(s.shard.index, &s.name) {
            return Err(format!("shard {} is given twice: {other} and {}", s.shard, s.name));
        }
    }
    let (mut totals, total) = Totals::new(&first.settings).map_err(|e| format!("{}: {e}", first.name))?;
    let mut rounds: BTreeMap<usize, &str> = BTreeMap::new();
    for s in &shards {
        for g in &s.games {
            if !totals.fits(g) || !s.shard.plays(totals.config.games, g.game) {
                return Err(format!("{}: game {} is not one of shard {}'s games", s.name, g.round, s.shard));
            }
            if let Some(other) = rounds.insert(g.round, &s.name) {
                return Err(format!("game {} is in both {other} and {}", g.round, s.name));
            }
            totals.add(g, 0);
        }
    }
    Ok((|| {
        let missing: Vec<String> = (1..=first.shard.count)
            .filter(|i| !seen_shards.contains_key(i))
            .map(|i| Shard { index: i, count: first.shard.count }.to_string())
            .collect();
        writeln!(out, "merged {} results files: {} of the run's {total} games", shards.len(), totals.ledger.games)?;
        if !missing.is_empty() {
            let (noun, verb) = if missing.len() == 1 { ("shard", "is") } else { ("shards", "are") };
            writeln!(out, "note: {noun} {} {verb} missing: these figures are for part of the run", missing.join(", "))?;
        }
        // As one run: the SPRT's verdict on all the games (one run would have stopped where it decided).
        let sprt = totals.config.sprt.map(|s| s.decide(&totals.ledger.tallies[0].penta));
        totals.write(sprt, by_opening, out)
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_lines_read_back_and_bad_ones_are_refused() {
        let g = parse_game("17 0 16 2 second 312 298 black").expect("a game line");
        assert_eq!((g.round, g.pair, g.game, g.points, g.forfeit), (17, 0, 16, 2, Some(1)));
        assert_eq!((g.slowest_ms, g.winner), ([312, 298], Some(Color::Black)));
        for bad in ["17 0 16 3 - 1 1 draw", "17 0 16 2 - 1 1", "0 0 0 1 - 1 1 draw", "1 0 0 1 x 1 1 draw"] {
            assert!(parse_game(bad).is_none(), "{bad}");
        }
    }
}
