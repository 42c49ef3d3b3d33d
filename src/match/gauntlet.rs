//! The gauntlet: one engine (the working tree's Tengen, by default) plays every engine of a folder, one match per
//! opponent and rule, with the match runner ([`super::run`]). It is the yardstick of strength claims: engines that
//! Tengen did not write, played as a user would play them (the 26 openings with colours swapped, 0.5 s a move,
//! one thread each).
//!
//! An opponent is an executable file of the folder (hidden files and others are skipped), named by its file name
//! without a leading `pbrain-`. A name that holds a rule's word (`renju`, `freestyle`, `standard` or `gomoku`,
//! `caro`), as a word between `-`, `_` or `.`, plays that rule only; other engines play every rule asked for.
//! Each match writes `OPPONENT-RULE.results` (for `merge`) and `OPPONENT-RULE.tgr` (the games as training records,
//! players named, with the scores the engines said) into the output folder, with `.shardI-N` before the extension
//! for a shard.

use super::config::{EngineSpec, MatchConfig};
use super::stats::{elo_estimate, elo_pentanomial};
use super::tally::{MatchSummary, Tally};
use crate::types::Rule;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// An engine of the gauntlet's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// Its name in the reports and file names.
    pub name: String,
    /// The executable.
    pub path: PathBuf,
    /// The rules it plays (from its name); empty: every rule.
    pub rules: Vec<Rule>,
}

impl Opponent {
    /// Whether it plays `rule`.
    #[must_use]
    pub fn plays(&self, rule: Rule) -> bool {
        self.rules.is_empty() || self.rules.contains(&rule)
    }

    /// The shell command line that starts it (its path, quoted for `sh -c`).
    #[must_use]
    pub fn command(&self) -> String {
        shell_quote(&self.path.to_string_lossy())
    }
}

/// The rules named by the words of an engine's name (`pbrain-mintaka_renju-15` → renju; `gomoku` is standard, as
/// mintaka names its exact-five build).
#[must_use]
pub fn rules_in_name(name: &str) -> Vec<Rule> {
    let mut rules = Vec::new();
    for word in name.split(['-', '_', '.', ' ']) {
        let rule = match word.to_ascii_lowercase().as_str() {
            "renju" => Rule::Renju,
            "freestyle" => Rule::Freestyle,
            "standard" | "gomoku" => Rule::Standard,
            "caro" => Rule::Caro,
            _ => continue,
        };
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    rules
}

/// The engines of `dir`, sorted by name.
///
/// # Errors
/// A folder that cannot be read, or that holds no executable.
pub fn opponents(dir: &Path) -> Result<Vec<Opponent>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read the gauntlet folder {}: {e}", dir.display()))?;
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(file) = path.file_name().and_then(|f| f.to_str()).map(str::to_string) else { continue };
        if file.starts_with('.') || !is_executable(&path) {
            continue;
        }
        let stem = file.strip_suffix(".exe").unwrap_or(&file);
        let name = stem.strip_prefix("pbrain-").unwrap_or(stem).to_string();
        found.push(Opponent { rules: rules_in_name(&name), name, path });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    if found.is_empty() {
        return Err(format!("the gauntlet folder {} holds no executable engine", dir.display()));
    }
    Ok(found)
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file() && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("exe"))
}

/// `text` as one word of a `sh -c` command line.
pub(crate) fn shell_quote(text: &str) -> String {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+:,".contains(&b)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The file stem of a match's outputs: `OPPONENT-RULE`, `-kept` where the processes were kept, and `.shardI-N` for
/// a shard.
#[must_use]
pub fn output_stem(opponent: &str, rule: Rule, kept: bool, shard: Option<super::Shard>) -> String {
    let safe: String =
        opponent.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect();
    let kept = if kept { "-kept" } else { "" };
    match shard {
        Some(s) => format!("{safe}-{rule}{kept}.shard{}-{}", s.index, s.count),
        None => format!("{safe}-{rule}{kept}"),
    }
}

/// One match of the gauntlet: the engine against one opponent under one rule.
#[derive(Clone, Debug)]
pub struct Leg {
    /// The opponent's name.
    pub opponent: String,
    /// The rule.
    pub rule: Rule,
    /// Whether the processes were kept from game to game.
    pub kept: bool,
    /// The engine's results (the pair's first engine is the engine under test).
    pub tally: Tally,
    /// Its results file, where one was written.
    pub results: Option<PathBuf>,
}

/// The match of `engine` against `opponent` under `template`'s rule, openings, clock and shard, its files in `out`.
#[must_use]
pub fn leg_config(template: &MatchConfig, engine: &EngineSpec, opponent: &Opponent, out: Option<&Path>) -> MatchConfig {
    let mut config = template.clone();
    config.engines = vec![engine.clone(), EngineSpec { name: opponent.name.clone(), command: opponent.command() }];
    if let Some(dir) = out {
        let stem = output_stem(&opponent.name, config.rule, config.keep_processes, config.shard);
        config.results = Some(dir.join(format!("{stem}.results")));
        config.games_out = Some(dir.join(format!("{stem}.tgr")));
        config.sgf_dir = config.sgf_dir.as_ref().map(|d| d.join(&stem));
    }
    config
}

/// Plays every opponent under every rule of `templates` (one match configuration per rule, the engines left to
/// fill), printing each match as it goes and the gauntlet's table at the end. Opponents that do not play a rule are
/// left out of it.
///
/// # Errors
/// Output I/O errors, and results, game or SGF files that cannot be written.
pub fn run(
    templates: &[MatchConfig],
    engine: &EngineSpec,
    opponents: &[Opponent],
    out_dir: Option<&Path>,
    out: &mut dyn Write,
) -> io::Result<Vec<Leg>> {
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(dir).map_err(crate::problems::named(dir.display()))?;
    }
    let mut legs = Vec::new();
    for template in templates {
        for opponent in opponents.iter().filter(|o| o.plays(template.rule)) {
            let config = leg_config(template, engine, opponent, out_dir);
            writeln!(
                out,
                "== {} vs {} ({}, {} games, {} ms a move, {} processes)",
                engine.name,
                opponent.name,
                config.rule,
                config.games,
                config.turn_ms,
                super::config::processes_word(config.keep_processes)
            )?;
            let summary: MatchSummary = super::run(&config, out)?;
            let tally = summary.pairs.first().map(|p| p.1.clone()).unwrap_or_default();
            let (rule, kept, results) = (config.rule, config.keep_processes, config.results);
            legs.push(Leg { opponent: opponent.name.clone(), rule, kept, tally, results });
        }
    }
    writeln!(out, "gauntlet of {}:", engine.name)?;
    for leg in &legs {
        writeln!(out, "{}", leg_line(leg))?;
    }
    compare_modes(&legs, out)?;
    out.flush()?;
    Ok(legs)
}

/// Where an opponent was played both on fresh processes and on kept ones, the two runs compared opening pair by
/// pair (from their results files, over the pairs a shard played; an unwritten run is only in the table).
fn compare_modes(legs: &[Leg], out: &mut dyn Write) -> io::Result<()> {
    for fresh in legs.iter().filter(|l| !l.kept) {
        let Some(kept) = legs.iter().find(|l| l.kept && l.opponent == fresh.opponent && l.rule == fresh.rule) else {
            continue;
        };
        let (Some(a), Some(b)) = (&fresh.results, &kept.results) else { continue };
        let (Ok(ta), Ok(tb)) = (std::fs::read_to_string(a), std::fs::read_to_string(b)) else { continue };
        let (na, nb) = (a.display().to_string(), b.display().to_string());
        if let Ok(written) = super::paired::paired(&[(na, ta)], &[(nb, tb)], out) {
            written?;
        }
    }
    Ok(())
}

/// One opponent's line: games, W-L-D from the engine's side, score, Elo with its 95% margin (from games, and from
/// pentanomial pairs when there are any), the pairs, how each colour fared, and forfeits.
#[must_use]
pub fn leg_line(leg: &Leg) -> String {
    let t = &leg.tally;
    let games = t.games();
    let elo = |estimate| if games == 0 { "no games".to_string() } else { t.elo_text(estimate) };
    let mut line = format!(
        "  {:<16} {:<9} {:<5} {games:>4} games  {}-{}-{}  {:5.1}%  {}",
        leg.opponent,
        leg.rule.to_string(),
        super::config::processes_word(leg.kept),
        t.wins,
        t.losses,
        t.draws,
        t.score_percent(),
        elo(elo_estimate(t.wins, t.losses, t.draws))
    );
    if t.penta.iter().sum::<usize>() > 0 {
        line.push_str(&format!("  pairs {:?} {}", t.penta, elo(elo_pentanomial(&t.penta))));
    }
    line.push_str(&format!("  {}", t.colours_text()));
    if t.forfeits != [0, 0] {
        line.push_str(&format!("  forfeits {}/{}", t.forfeits[0], t.forfeits[1]));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_come_from_the_words_of_a_name() {
        assert_eq!(rules_in_name("mintaka_renju-15"), vec![Rule::Renju]);
        assert_eq!(rules_in_name("mintaka_gomoku-15"), vec![Rule::Standard]);
        assert_eq!(rules_in_name("mintaka_freestyle-15"), vec![Rule::Freestyle]);
        assert_eq!(rules_in_name("pentazen"), Vec::<Rule>::new());
        // A word, not a part of one.
        assert_eq!(rules_in_name("renjuboy"), Vec::<Rule>::new());
        assert_eq!(shell_quote("/a/b-c_1.exe"), "/a/b-c_1.exe");
        assert_eq!(shell_quote("/my engines/it's"), r"'/my engines/it'\''s'");
        assert_eq!(
            output_stem("a b", Rule::Renju, false, Some(super::super::Shard { index: 2, count: 4 })),
            "a_b-renju.shard2-4"
        );
        assert_eq!(output_stem("pentazen", Rule::Renju, true, None), "pentazen-renju-kept");
    }
}
