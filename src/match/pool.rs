//! Several whole runs of one match pooled into one report (`merge --runs FILE…`): an engine measured on several days
//! against the same opponent, on the same openings and time, as one run of all their games would have reported it.
//!
//! The runs may differ only in the first engine's name and command (a build's own name each time, a book given as a
//! file): the opponent, rule, size, time and openings must agree, as for `--paired`. Each file must be a whole run
//! (merge a run's shards first), and each run's opening pairs stay pairs: the pentanomial counts and the margins
//! treat the runs' games as one longer run's. The report names the engines as the first file does.

use super::shard::{ShardFile, config_of, first_difference, read};
use super::tally::{self, Ledger};
use std::collections::BTreeSet;
use std::io::{self, Write};

/// `merge --runs`: the results files (name, text) of whole runs of the same match, pooled; with `by_opening`, each
/// opening's games too.
///
/// # Errors
/// A file that is not a whole finished run, runs whose settings differ other than in the first engine's name and
/// command, a file given twice, or a game that is not one of its run's.
pub fn pool(files: &[(String, String)], by_opening: bool, out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let runs: Vec<ShardFile> = files.iter().map(|(name, text)| read(name, text)).collect::<Result<_, _>>()?;
    let Some(first) = runs.first() else { return Err("merge --runs needs at least one results file".to_string()) };
    // The settings that must agree: all but the first engine's name and command.
    let shared = |r: &ShardFile| r.settings.get(2..).unwrap_or(&[]).to_vec();
    for (k, r) in runs.iter().enumerate() {
        if r.shard.count != 1 {
            return Err(format!(
                "{}: shard {} of a run: --runs pools whole runs, one results file each",
                r.name, r.shard
            ));
        }
        if let Some(i) = runs[..k].iter().position(|o| o.settings == r.settings && o.games == r.games) {
            return Err(format!("{} and {} are the same run given twice", runs[i].name, r.name));
        }
        let (mine, theirs) = (shared(r), shared(first));
        if mine != theirs {
            return Err(format!(
                "{}: not the same match as {} but for the first engine: {}",
                r.name,
                first.name,
                first_difference(&mine, &theirs)
            ));
        }
    }
    let (config, _) = config_of(&first.settings).map_err(|e| format!("{}: {e}", first.name))?;
    let pairs = config.pairs();
    let openings: Vec<String> =
        first.settings.iter().filter_map(|l| l.strip_prefix("opening ")).map(str::to_string).collect();
    let mut ledger = Ledger::new(pairs.len());
    let mut per_opening = vec![Ledger::new(pairs.len()); openings.len()];
    // Run k's games are numbered after run k - 1's, an even step on so that a pair's two games stay together and a
    // draw's colours (told by the game's number) stay as they were.
    let step = config.games + config.games % 2;
    for (k, r) in runs.iter().enumerate() {
        let mut rounds = BTreeSet::new();
        for g in &r.games {
            let fits = g.pair < pairs.len() && g.game < config.games && g.round == g.game * pairs.len() + g.pair + 1;
            if !fits {
                return Err(format!("{}: game {} is not one of its run's games", r.name, g.round));
            }
            if !rounds.insert(g.round) {
                return Err(format!("{}: game {} is there twice", r.name, g.round));
            }
            let pooled = tally::GameResult { game: g.game + k * step, ..*g };
            ledger.add(&pooled);
            if !openings.is_empty() {
                per_opening[(g.game / 2) % openings.len()].add(&pooled);
            }
        }
    }
    Ok((|| {
        writeln!(out, "pooled {} runs: {} games, the engines named as in {}", runs.len(), ledger.games, first.name)?;
        // No SPRT verdict: the runs were not one sequential test.
        let summary = ledger.summary(&pairs, None);
        tally::write_results(&config, &ledger, &summary, out)?;
        if by_opening {
            tally::write_by_opening(&config, &openings, &per_opening, out)?;
        }
        Ok(())
    })())
}
