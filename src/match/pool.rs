//! Several whole runs of one match pooled into one report (`merge --runs FILE…`): an engine measured on several days
//! against the same opponent, on the same openings and time, as one run of all their games would have reported it.
//!
//! The runs may differ only in the first engine's name and command (a build's own name each time, a book given as a
//! file): the opponent, rule, size, time and openings must agree, as for `--paired`. Each file must be a whole run
//! (merge a run's shards first), and each run's opening pairs stay pairs: the pentanomial counts and the margins
//! treat the runs' games as one longer run's. The report names the engines as the first file does.

use super::shard::{ShardFile, Totals, first_difference, read};
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
        if r.shared_settings() != first.shared_settings() {
            return Err(format!(
                "{}: not the same match as {} but for the first engine: {}",
                r.name,
                first.name,
                first_difference(&r.shared_settings(), &first.shared_settings())
            ));
        }
    }
    let (mut totals, _) = Totals::new(&first.settings).map_err(|e| format!("{}: {e}", first.name))?;
    // Run k's games are numbered after run k - 1's, an even step on so that a pair's two games stay together and a
    // draw's colours (told by the game's number) stay as they were.
    let step = totals.config.games + totals.config.games % 2;
    for (k, r) in runs.iter().enumerate() {
        let mut rounds = BTreeSet::new();
        for g in &r.games {
            if !totals.fits(g) {
                return Err(format!("{}: game {} is not one of its run's games", r.name, g.round));
            }
            if !rounds.insert(g.round) {
                return Err(format!("{}: game {} is there twice", r.name, g.round));
            }
            totals.add(g, k * step);
        }
    }
    Ok((|| {
        let games = totals.ledger.games;
        writeln!(out, "pooled {} runs: {games} games, the engines named as in {}", runs.len(), first.name)?;
        // No SPRT verdict: the runs were not one sequential test.
        totals.write(None, by_opening, out)
    })())
}
