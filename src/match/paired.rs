//! Two runs against one opponent on the same openings, compared opening pair by opening pair (`merge --paired A B`;
//! a run played in shards is given as its shards' results files joined by commas, `a1.results,a2.results`).
//!
//! A gauntlet plays each opening twice, colours swapped; two builds run against the same opponent meet the same
//! pairs in the same order. Much of a pair's score is the opening's (a Black win in the 26 renju openings is common
//! to any two builds), so the difference of the two runs' scores pair by pair has far less variance than the two
//! separate Elo figures' margins suggest. With `d` the first run's pair points minus the second's (of 2 a pair) over
//! `N` pairs, its mean `m` and standard error `s = sd(d) / √N`, the difference in Elo is that of a score of
//! `½ + m/2`, with the 95% margin of `±1.96 s/2` around it.

use super::config::Shard;
use super::shard::{PROCESSES, ShardFile, read};
use super::stats::{elo_estimate, elo_paired};
use super::tally::{GameResult, Ledger};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// How one run fared: its first engine's name and its games, pair by pair.
struct Run {
    /// The run's first results file (its settings are every file's).
    file: ShardFile,
    /// The files' names, joined by `+` where the run is given in shards.
    name: String,
    /// The shards given where the run was played in shards and some are missing (`2/4, 3/4`).
    missing: Vec<String>,
    /// The first engine's points of each opening pair (doubled: 0..=4), `None` where a game of it is missing.
    pairs: Vec<Option<usize>>,
    /// Every game of its files.
    games: Vec<GameResult>,
}

/// The names of a run's files, joined by `+`.
fn name_of(shards: &[ShardFile]) -> String {
    shards.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join("+")
}

impl Run {
    /// A run from its results file, or from the files of its shards (`(name, text)` each).
    fn of(files: &[(String, String)]) -> Result<Run, String> {
        let shards: Vec<ShardFile> = files.iter().map(|(name, text)| read(name, text)).collect::<Result<_, _>>()?;
        let Some(first) = shards.first().cloned() else { return Err("a run needs a results file".to_string()) };
        let mut seen = BTreeMap::new();
        for s in &shards {
            if s.settings != first.settings || s.shard.count != first.shard.count {
                return Err(format!("{} and {} are not shards of one run", first.name, s.name));
            }
            if let Some(other) = seen.insert(s.shard.index, &s.name) {
                return Err(format!("shard {} is given twice: {other} and {}", s.shard, s.name));
            }
        }
        let engines = first.settings.iter().filter(|l| l.starts_with("engine ")).count();
        if engines != 2 {
            return Err(format!(
                "{}: a run of {engines} engines: --paired compares runs of two (A and one opponent)",
                first.name
            ));
        }
        let games: Vec<GameResult> = shards.iter().flat_map(|s| s.games.iter().copied()).collect();
        let mut played = std::collections::BTreeSet::new();
        if let Some(g) = games.iter().find(|g| !played.insert(g.game)) {
            return Err(format!("{}: game {} is given twice", name_of(&shards), g.round));
        }
        let mut halves = vec![(0, 0); games.iter().map(|g| g.game + 1).max().unwrap_or(0).div_ceil(2)];
        for g in &games {
            let (points, count) = &mut halves[g.game / 2];
            *points += g.points;
            *count += 1;
        }
        let pairs = halves.into_iter().map(|(points, count)| (count == 2).then_some(points)).collect();
        let missing = (1..=first.shard.count)
            .filter(|i| !seen.contains_key(i))
            .map(|i| Shard { index: i, count: first.shard.count }.to_string())
            .collect();
        let name = name_of(&shards);
        Ok(Run { file: first, name, missing, pairs, games })
    }

    /// The first engine's name.
    fn name(&self) -> &str {
        self.file.settings.first().and_then(|l| l.strip_prefix("engine ")).unwrap_or("?")
    }

    /// How its processes ran (`fresh` or `kept`).
    fn processes(&self) -> &str {
        self.file.settings.iter().find_map(|l| l.strip_prefix(PROCESSES)).unwrap_or("fresh")
    }

    /// The first engine's name, with the way its processes ran where the two runs differ in it.
    fn label(&self, other: &Run) -> String {
        if self.processes() == other.processes() {
            self.name().to_string()
        } else {
            format!("{} ({} processes)", self.name(), self.processes())
        }
    }
}

/// `merge --paired`: the results files `a` and `b` (name, text; a run's shards, or its one file) of two runs
/// against the same opponent on the same openings, compared pair by pair (the pairs both runs' files hold).
///
/// # Errors
/// A file that is not a run of two engines, files of one side that are not shards of one run, or runs whose
/// opponent, rule, time or openings differ.
pub fn paired(a: &[(String, String)], b: &[(String, String)], out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let (a, b) = (Run::of(a)?, Run::of(b)?);
    // Fresh processes against kept ones is a comparison worth making: the way they ran may differ.
    let compared = |x: &&String, y: &&String| x != y && !(x.starts_with(PROCESSES) && y.starts_with(PROCESSES));
    let (shared_a, shared_b) = (a.file.shared_settings(), b.file.shared_settings());
    if let Some((x, y)) = shared_a.iter().zip(&shared_b).find(|(x, y)| compared(x, y)) {
        return Err(format!(
            "{} and {} are not the same run but for the first engine: '{x}' against '{y}'",
            a.name, b.name
        ));
    }
    if shared_a.len() != shared_b.len() {
        return Err(format!("{} and {} do not have the same openings", a.name, b.name));
    }
    let opponent = shared_a.first().and_then(|l| l.strip_prefix("engine ")).unwrap_or("?").to_string();
    let diffs: Vec<f64> =
        a.pairs.iter().zip(&b.pairs).filter_map(|(&x, &y)| Some((x? as f64 - y? as f64) / 2.0)).collect();
    if diffs.is_empty() {
        return Err(format!("{} and {} have no opening pair that both finished", a.name, b.name));
    }
    let (a_label, b_label) = (a.label(&b), b.label(&a));
    Ok((|| {
        writeln!(
            out,
            "paired by opening: {} ({}) and {} ({}), each against {opponent}, {} opening pairs in both",
            a.name,
            a_label,
            b.name,
            b_label,
            diffs.len()
        )?;
        for run in [&a, &b] {
            if !run.missing.is_empty() {
                writeln!(
                    out,
                    "  note: {} is part of a run: its shards {} are not given",
                    run.name,
                    run.missing.join(", ")
                )?;
            }
        }
        for (run, run_label) in [(&a, &a_label), (&b, &b_label)] {
            let mut ledger = Ledger::new(1);
            for g in &run.games {
                ledger.add(g);
            }
            let t = &ledger.tallies[0];
            writeln!(
                out,
                "  {}: {}-{}-{}, {}, {}",
                run_label,
                t.wins,
                t.losses,
                t.draws,
                t.elo_text(elo_estimate(t.wins, t.losses, t.draws)),
                t.colours_text()
            )?;
        }
        let better = diffs.iter().filter(|&&d| d > 0.0).count();
        let worse = diffs.iter().filter(|&&d| d < 0.0).count();
        writeln!(
            out,
            "  pairs: {} scored more in {better}, {} in {worse}, the same in {}",
            a_label,
            b_label,
            diffs.len() - better - worse
        )?;
        let p = elo_paired(&diffs);
        writeln!(
            out,
            "  {} minus {}: {:+.3} +/- {:.3} points a pair (of 2, one standard error), Elo {:+.0} +/- {:.0} (95%)",
            a_label, b_label, p.mean, p.error, p.elo, p.margin
        )?;
        out.flush()
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A results file of `name` against `opponent` over the openings `h8 h9 i10` and `h8 h9 j10`, with the first
    /// engine's points (doubled) of each game.
    fn run(name: &str, opponent: &str, points: &[usize]) -> String {
        let mut text = format!(
            "tengen-match-results 1\nengine {name}\ncommand ./{name}\nengine {opponent}\ncommand ./{opponent}\n\
             rule renju\nsize 15\ngames {}\nturn-ms 500\nopening h8 h9 i10\nopening h8 h9 j10\nshard 1/1\n",
            points.len()
        );
        for (g, &p) in points.iter().enumerate() {
            let black_won = (p == 2) == (g % 2 == 0);
            let winner = if p == 1 {
                "draw"
            } else if black_won {
                "black"
            } else {
                "white"
            };
            text.push_str(&format!("game {} 0 {g} {p} - 10 10 {winner}\n", g + 1));
        }
        text.push_str(&format!("end {}\n", points.len()));
        text
    }

    /// A whole run's results file cut in two shards (its first pair, then the rest).
    fn shards_of(whole: &str) -> [String; 2] {
        let games: Vec<&str> = whole.lines().filter(|l| l.starts_with("game ")).collect();
        let head: String = whole.lines().take_while(|l| !l.starts_with("shard ")).map(|l| format!("{l}\n")).collect();
        let pairs = games.len().div_ceil(2);
        [1, 2].map(|index| {
            let shard = Shard { index, count: 2 };
            let mine: Vec<&&str> = games
                .iter()
                .filter(|l| {
                    l.split(' ')
                        .nth(3)
                        .and_then(|g| g.parse().ok())
                        .is_some_and(|g: usize| shard.pairs(pairs).contains(&(g / 2)))
                })
                .collect();
            let body: String = mine.iter().map(|l| format!("{l}\n")).collect();
            format!("{head}shard {shard}\n{body}end {}\n", mine.len())
        })
    }

    fn report_files(a: &[String], b: &[String]) -> Result<String, String> {
        let named = |side: &str, texts: &[String]| -> Vec<(String, String)> {
            texts.iter().enumerate().map(|(i, t)| (format!("{side}{}.results", i + 1), t.clone())).collect()
        };
        let mut out = Vec::new();
        paired(&named("a", a), &named("b", b), &mut out)?.map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).expect("text"))
    }

    #[test]
    fn a_run_in_shards_pairs_as_the_whole_run_and_a_missing_shard_is_named() {
        let a = run("new", "pz", &[2, 2, 2, 0, 2, 2, 2, 0]);
        let b = run("old", "pz", &[2, 2, 2, 2, 0, 0, 2, 0]);
        let whole = report(&a, &b).expect("a report");
        let sharded = report_files(&shards_of(&a), &shards_of(&b)).expect("a report");
        let figures = |t: &str| t.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
        assert_eq!(figures(&whole), figures(&sharded), "{whole}\n{sharded}");
        assert!(sharded.contains("a1.results+a2.results"), "{sharded}");
        // Half of A's run: only the pairs both hold are compared, and the report says a shard is missing.
        let half = report_files(&shards_of(&a)[..1], &[b]).expect("a report");
        assert!(half.contains("2 opening pairs in both") && half.contains("its shards 2/2 are not given"), "{half}");
        assert!(half.contains("new minus old: -0.500 +/- 0.500 points a pair"), "{half}");
    }

    fn report(a: &str, b: &str) -> Result<String, String> {
        report_files(&[a.to_string()], &[b.to_string()])
    }

    #[test]
    fn pairs_are_compared_one_by_one_and_the_difference_is_in_points_and_elo() {
        // Pair by pair A scores 2-2, 1-2, 2-0, 1-1 (points of 2): A ahead in one, B in one, the same in two.
        let a = run("new", "pz", &[2, 2, 2, 0, 2, 2, 2, 0]);
        let b = run("old", "pz", &[2, 2, 2, 2, 0, 0, 2, 0]);
        let text = report(&a, &b).expect("a report");
        assert!(text.contains("each against pz, 4 opening pairs in both"), "{text}");
        assert!(text.contains("new: 6-2-0") && text.contains("old: 5-3-0"), "{text}");
        assert!(text.contains("pairs: new scored more in 1, old in 1, the same in 2"), "{text}");
        // Differences 0, -1, +2, 0: mean +0.25, sd 1.258, standard error 0.629.
        assert!(text.contains("new minus old: +0.250 +/- 0.629 points a pair"), "{text}");
        // The same runs the other way round: the difference changes its sign, not its size.
        let back = report(&b, &a).expect("a report");
        assert!(back.contains("old minus new: -0.250 +/- 0.629 points a pair"), "{back}");
    }

    #[test]
    fn runs_that_are_not_the_same_but_for_the_first_engine_are_refused() {
        let a = run("new", "pz", &[2, 2, 2, 0]);
        let other = run("old", "mintaka", &[2, 2, 2, 0]);
        assert!(report(&a, &other).is_err_and(|e| e.contains("'engine pz' against 'engine mintaka'")));
        let longer = run("old", "pz", &[2, 2, 2, 0, 2, 2]);
        assert!(report(&a, &longer).is_err_and(|e| e.contains("games")));
        let shards = shards_of(&run("old", "pz", &[2, 2, 2, 0]));
        let both = |b: &[String]| report_files(std::slice::from_ref(&a), b).map(|_| ());
        assert!(both(&[shards[0].clone(), shards[0].clone()]).is_err_and(|e| e.contains("given twice")));
        let other_run = shards_of(&run("older", "pz", &[2, 2, 2, 0]));
        assert!(both(&[shards[0].clone(), other_run[1].clone()]).is_err_and(|e| e.contains("not shards of one run")));
        assert!(report(&a, "not a results file").is_err_and(|e| e.contains("not a match results file")));
    }
}
