//! `gauntlet`: the engine against every engine of a folder ([`crate::matches::gauntlet`]). Its own options pick the
//! engine, the opponents, the rules and the output folder; every other option is a `match` option and is read by
//! the match's parser, once per rule, so the two cannot disagree.

use super::Done;
use crate::matches::gauntlet::{self, Opponent};
use crate::matches::{EngineSpec, MatchConfig};
use crate::problems::Problems;
use crate::types::Rule;
use std::io::Write;
use std::path::PathBuf;

/// A move's time when none is given: the claims' control.
const DEFAULT_TURN_MS: &str = "500";
/// Games at a time when none is given: two on a two-core machine.
const DEFAULT_CONCURRENCY: &str = "2";

/// The `match` options with a value that the gauntlet passes to each match (with the flags `--symmetries` and
/// `--no-suspend`, and `--unseen-in` with its files).
const MATCH_OPTIONS: [&str; 16] = [
    "--size",
    "--games",
    "--turn-ms",
    "--match-ms",
    "--tolerance-ms",
    "--max-memory",
    "--draw-at",
    "--openings",
    "--random-openings",
    "--opening-stones",
    "--opening-depth",
    "--seed",
    "--concurrency",
    "--sgf",
    "--opening-rule",
    "--shard",
];

/// What `gauntlet` was asked.
#[derive(Debug)]
pub(super) struct GauntletCommand {
    /// The engine under test.
    pub engine: EngineSpec,
    /// Its opponents.
    pub opponents: Vec<Opponent>,
    /// One match configuration per rule and way of running the processes (the engines are filled in per opponent).
    pub templates: Vec<MatchConfig>,
    /// Where the results and game files go.
    pub out_dir: Option<PathBuf>,
}

/// The engine under test when `--engine` is not given: this binary, saying its scores for the game records.
fn own_engine() -> String {
    let exe = std::env::current_exe().map_or_else(|_| "pbrain-tengen".to_string(), |p| p.display().to_string());
    format!("{} --say-score", gauntlet::shell_quote(&exe))
}

/// Parses `gauntlet`'s options; the match options left over are parsed by `parse_match` for each rule.
fn parse_gauntlet(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Result<GauntletCommand, String> {
    let (mut engine, mut name, mut dir, mut out_dir) = (None::<String>, None::<String>, None::<PathBuf>, None);
    let (mut rules, mut only, mut rest) = (Vec::<Rule>::new(), Vec::<String>::new(), Vec::<String>::new());
    let (mut games_given, mut turn_given, mut concurrency_given) = (false, false, false);
    // Kept processes by default: as Piskvork and c-gomoku-cli play, and every game its own (fresh processes of two
    // engines that answer a position alike replay their games; docs/matches.md).
    let mut modes = vec![true];
    let mut cursor = super::OptionCursor::new(args);
    while let Some((option, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&option, &inline);
        match option.as_str() {
            "--engine" if engine.is_some() => return Err("the gauntlet plays one --engine".to_string()),
            "--engine" => engine = Some(value()?).filter(|c| !c.trim().is_empty()).or(Some(String::new())),
            "--name" => name = Some(value()?),
            "--opponents" => dir = Some(PathBuf::from(value()?)),
            "--out" => out_dir = Some(PathBuf::from(value()?)),
            "--only" => only.extend(value()?.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty())),
            "--rule" => {
                for word in value()?.split(',') {
                    let rule: Rule = word.parse()?;
                    if !rules.contains(&rule) {
                        rules.push(rule);
                    }
                }
            }
            "--processes" => {
                let word = value()?;
                modes = match crate::matches::keeps_processes(&word) {
                    Some(kept) => vec![kept],
                    None if word == "both" => vec![false, true],
                    None => return Err(format!("--processes is fresh, kept or both, not '{word}'")),
                };
            }
            "--results" | "--sprt" => return Err(format!("{option} is not a gauntlet option (see --out)")),
            "--symmetries" | "--no-suspend" if inline.is_none() => rest.push(option.clone()),
            "--unseen-in" => {
                rest.extend([option.clone(), value()?]);
                rest.extend(cursor.more_values()); // its further files, for the match to read
            }
            _ if MATCH_OPTIONS.contains(&option.as_str()) => {
                games_given |= option == "--games";
                turn_given |= option == "--turn-ms";
                concurrency_given |= option == "--concurrency";
                rest.push(option.clone());
                rest.push(value()?);
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    let engine = match engine {
        Some(c) if c.is_empty() => return Err("--engine needs a command".to_string()),
        Some(c) => c,
        None => own_engine(),
    };
    let engine = EngineSpec { name: name.unwrap_or_else(|| "tengen".to_string()), command: engine };
    let dir = dir
        .or_else(|| std::env::var_os("GAUNTLET").map(PathBuf::from))
        .ok_or("--opponents DIR (or GAUNTLET=DIR) names the folder of opponent engines")?;
    let mut opponents = gauntlet::opponents(&dir)?;
    if !only.is_empty() {
        if let Some(missing) = only.iter().find(|n| !opponents.iter().any(|o| &o.name == *n)) {
            let names: Vec<&str> = opponents.iter().map(|o| o.name.as_str()).collect();
            return Err(format!("no opponent '{missing}' in {} (it has {})", dir.display(), names.join(", ")));
        }
        opponents.retain(|o| only.contains(&o.name));
    }
    if rules.is_empty() {
        rules.push(Rule::Renju);
    }
    if !turn_given {
        rest.extend(["--turn-ms".to_string(), DEFAULT_TURN_MS.to_string()]);
    }
    if !concurrency_given {
        rest.extend(["--concurrency".to_string(), DEFAULT_CONCURRENCY.to_string()]);
    }
    let mut templates = Vec::new();
    for rule in rules {
        if !opponents.iter().any(|o| o.plays(rule)) {
            p.warn(format_args!("no opponent in {} plays {rule}; it is left out", dir.display()));
            continue;
        }
        let mut args = vec!["--engine".to_string(), "a".to_string(), "--engine".to_string(), "b".to_string()];
        args.extend(rest.iter().cloned());
        args.extend(["--rule".to_string(), rule.to_string()]);
        let mut config = super::match_options::parse_match(&args, out, p)?;
        if !games_given {
            // Every opening once with each colour.
            config.games = 2 * config.openings.len().max(1);
        }
        for &keep in &modes {
            templates.push(MatchConfig { keep_processes: keep, ..config.clone() });
        }
    }
    if templates.is_empty() {
        return Err("no opponent plays any rule asked for".to_string());
    }
    Ok(GauntletCommand { engine, opponents, templates, out_dir })
}

/// `gauntlet`: plays the matches and prints the table.
pub(super) fn gauntlet_command(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
    let command = parse_gauntlet(args, out, p)?;
    Ok(gauntlet::run(&command.templates, &command.engine, &command.opponents, command.out_dir.as_deref(), out)
        .map(|_| ()))
}
