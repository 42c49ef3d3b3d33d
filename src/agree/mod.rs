//! The agreement yardstick (`pbrain-tengen agree`): how often an engine chooses the move the strongest engines of a
//! Gomocup league chose after a real think, and how far below its own choice Tengen rates the move they played
//! (the regret). Sharp where games at a long control are blunt, and one search (two with the regret) a position.
//!
//! The positions come from `.psq` games through [`crate::records::selection`] (which the move policy's trainer
//! learns from too), with the split of learning and judging games; `kinds.rs` names the threats each holds;
//! `engines.rs` asks the measured engine (Tengen in this process, or any protocol engine); `results.rs` writes and
//! reads the results file and makes the report. docs/agreement.md has the split, the validation and the commands.

pub mod engines;
pub mod kinds;
pub mod results;

use crate::eval::EvalChoice;
use crate::eval::network::{Group, TRAINED_SIZE, WIDE_BOARD};
use crate::matches::Shard;
use crate::problems::{Problems, named};
use crate::records::read_psq_files;
use crate::records::selection::{self, Position, Selection};
use crate::search::params::Params;
use crate::types::Rule;
use engines::{Budget, Measured, WorkerState};
use results::{Answer, Judged, Kinds, judged_line, read_answers, read_judged, report};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What an agreement run is asked.
#[derive(Clone, Debug)]
pub struct Agree {
    /// `.psq` files and folders of them.
    pub inputs: Vec<PathBuf>,
    /// Which moves become positions.
    pub selection: Selection,
    /// The engine measured.
    pub measured: Measured,
    /// Its budget a search.
    pub budget: Budget,
    /// Positions searched at a time.
    pub concurrency: usize,
    /// This shard's positions only.
    pub shard: Option<Shard>,
    /// At most this many positions: a fixed sample (ordered by a hash of their keys, so a smaller sample is part of
    /// a larger one), before the shard takes its part.
    pub sample: Option<usize>,
    /// The results file: answered positions are appended, and those already in it are not searched again.
    pub out: Option<PathBuf>,
}

impl Agree {
    /// What the results file's first line says was measured, so that a run resumed with another engine, network,
    /// search values or budget is refused: the engine; for Tengen the evaluation of each rule group among
    /// `positions` (renju's where there are none) with its network's checksum, and the values it changes from the
    /// shipped ones; the budget.
    #[must_use]
    pub fn label(&self, positions: &[Position]) -> String {
        let spent = match self.budget {
            Budget::Nodes(n) => format!("{n} nodes"),
            Budget::Ms(ms) => format!("{ms} ms"),
            Budget::Depth(depth) => format!("depth {depth}"),
        };
        match &self.measured {
            Measured::Outside(engine) => format!("engine '{}', {spent} a move", engine.command),
            Measured::Tengen(tengen) => format!(
                "Tengen {} ({}){}, {spent} a move",
                env!("TENGEN_COMMIT"),
                evaluation_label(tengen.options.eval, positions),
                changed_params(&tengen.options.params)
            ),
        }
    }
}

/// The evaluation Tengen searches `positions` with: per rule group among them (renju where there are none), the
/// network's checksum or the classical evaluation, and within a group per board class where the wide boards (of
/// [`WIDE_BOARD`] and more) play with another network than the group's 15×15 one; each named where there are several.
fn evaluation_label(eval: EvalChoice, positions: &[Position]) -> String {
    let plays = |rule: Rule, size: usize| eval.network(rule, size).map(|n| n as *const _);
    let wide = |rule: Rule, size: usize| size >= WIDE_BOARD && plays(rule, size) != plays(rule, TRAINED_SIZE);
    let mut rules: BTreeMap<(usize, bool), (Rule, usize)> = BTreeMap::new();
    for p in positions {
        rules.entry((Group::of(p.rule) as usize, wide(p.rule, p.size))).or_insert((p.rule, p.size));
    }
    if rules.is_empty() {
        rules.insert((Group::Renju as usize, false), (Rule::Renju, 15));
    }
    let one = |(rule, size): (Rule, usize)| match eval.network(rule, size) {
        Some(net) => format!("network evaluation {:016x}", crate::eval::policy::network_checksum(net)),
        None => "classical evaluation".to_string(),
    };
    if rules.len() == 1 {
        return rules.values().map(|&at| one(at)).collect();
    }
    let named = |(&(_, wide), &at): (&(usize, bool), &(Rule, usize))| {
        let group = Group::of(at.0).name();
        let name = if wide { format!("{group} on {WIDE_BOARD}x{WIDE_BOARD} and wider") } else { group.to_string() };
        format!("{name}: {}", one(at))
    };
    rules.iter().map(named).collect::<Vec<_>>().join("; ")
}

/// The search values `params` changes from the shipped ones, as `, params NAME VALUE ...` (nothing where it changes
/// none).
fn changed_params(params: &Params) -> String {
    let changed: Vec<String> = Params::SPECS
        .iter()
        .zip(params.values())
        .filter(|(spec, v)| spec.default != *v)
        .map(|(spec, v)| format!("{} {v}", spec.name))
        .collect();
    if changed.is_empty() { String::new() } else { format!(", params {}", changed.join(" ")) }
}

/// A key's hash, the sample's order: FNV-1a, then splitmix64's finaliser. FNV-1a alone leaves the top bits to the
/// key's start (keys that differ only in their last characters, the positions of one game, differ little there), so
/// a sample ordered by it took whole games: 2,000 positions from 204 of them.
fn key_hash(key: &str) -> u64 {
    let mut z = key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The positions of a run: selected, sampled and sharded; how many the games gave before the sample and the shard
/// took theirs; and the kind of every position of the games.
///
/// # Errors
/// A folder that cannot be listed.
pub fn positions_of(a: &Agree, problems: &mut Vec<String>) -> Result<(Vec<Position>, usize, Kinds), String> {
    let (games, bad) = read_psq_files(&a.inputs)?;
    problems.extend(bad);
    let kinds = kinds::kinds(&games);
    let (mut positions, skipped) = selection::select(&games, &a.selection);
    problems.extend(skipped);
    let selected = positions.len();
    if let Some(n) = a.sample {
        positions.sort_by_key(|p| (key_hash(&p.key), p.key.clone()));
        positions.truncate(n);
    }
    if let Some(shard) = a.shard {
        positions = positions
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % shard.count == shard.index - 1)
            .map(|(_, p)| p)
            .collect();
    }
    Ok((positions, selected, kinds))
}

/// Runs `agree`: selects the positions (each bad file skipped on `problems`), answers those the results file does
/// not hold yet, appending each answer, and prints the progress and the report over all of this run's positions.
///
/// # Errors
/// A folder or results file that cannot be read, or no position to answer (as a message), and output and file I/O
/// errors.
pub fn run(a: &Agree, out: &mut dyn Write, problems: &mut Problems) -> Result<io::Result<()>, String> {
    let mut bad = Vec::new();
    let (positions, selected, kinds) = positions_of(a, &mut bad)?;
    problems.skip_all(bad);
    if selected == 0 {
        return Err(format!("{}: no position to answer", names(&a.inputs)));
    }
    let label = a.label(&positions);
    let mut done = BTreeMap::new();
    if let Some(path) = &a.out
        && path.exists()
    {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        resumable(path, &text, &format!("# agree: {label}"))?;
        let mut bad = Vec::new();
        done = read_answers(&text, &path.display().to_string(), &mut bad);
        problems.skip_all(bad);
        // Positions the engine did not answer are asked again.
        done.retain(|_, answer| answer.chosen.is_some());
    }
    Ok((|| {
        let todo: Vec<&Position> = positions.iter().filter(|p| !done.contains_key(&p.key)).collect();
        writeln!(
            out,
            "{selected} positions in the games, {} in this run ({} answered before, {} to search) with {}",
            positions.len(),
            positions.len() - todo.len(),
            todo.len(),
            label
        )?;
        out.flush()?;
        let mut file = match &a.out {
            Some(path) => {
                let header = format!(
                    "# agree: {label}\n# key\trule\tmover\tplayed\tchosen\tscore\tplayed_score\tdepth\tnodes\tms"
                );
                Some(open_results(path, &header)?)
            }
            None => None,
        };
        let (mut answered, mut agreed) = (0, 0);
        pool(
            &todo,
            a.concurrency,
            |p, state| Some(a.measured.answer(p, a.budget, state)),
            |answer| {
                answered += 1;
                agreed += usize::from(answer.agrees());
                if let Some(f) = file.as_mut() {
                    writeln!(f, "{}", answer.line())?;
                    f.flush()?;
                }
                if answered % 50 == 0 || answered == todo.len() {
                    writeln!(out, "answered {answered}/{}, agreeing {agreed}", todo.len())?;
                    out.flush()?;
                }
                done.insert(answer.key.clone(), answer);
                Ok(())
            },
        )?;
        let mine: Vec<&Answer> = positions.iter().filter_map(|p| done.get(&p.key)).collect();
        write!(out, "{}", report(&mine, &kinds, &Judged::new()))
    })())
}

/// The kinds of the positions of `games` (`.psq` files and folders), for a report's breakdown; each file that is
/// not a readable record a problem (a results file given after `--games` is named so).
///
/// # Errors
/// A folder that cannot be listed.
pub fn kinds_of(games: &[PathBuf], problems: &mut Vec<String>) -> Result<Kinds, String> {
    let (read, bad) = read_psq_files(games)?;
    problems.extend(bad);
    Ok(kinds::kinds(&read))
}

/// Whether the file at `path` is empty or starts with `header`: a file of another run, or of another kind, is not
/// resumed or appended to.
fn resumable(path: &Path, text: &str, header: &str) -> Result<(), String> {
    match text.lines().next() {
        None => Ok(()),
        Some(first) if first == header => Ok(()),
        Some(first) => Err(format!("{} holds something else ('{first}'), not this run ('{header}')", path.display())),
    }
}

/// `agree --report FILE… [--games DIR…]`: the report over the answers of results files (shards pooled; a key
/// answered twice counts once, its last answer), each bad line skipped on `problems`; with the games, by kind too.
///
/// # Errors
/// A file that cannot be read, or no answer in the files.
pub fn report_files(
    paths: &[String],
    (kinds, judged): (&Kinds, &Judged),
    out: &mut dyn Write,
    problems: &mut Problems,
) -> Result<io::Result<()>, String> {
    let (answers, bad) = read_files(paths)?;
    problems.skip_all(bad);
    if answers.is_empty() {
        return Err(format!("{}: no answer read", paths.join(", ")));
    }
    Ok(write!(out, "{}", report(&answers.values().collect::<Vec<_>>(), kinds, judged)))
}

/// `agree --paired A[,A2…] B[,B2…]`: two runs compared on the positions both answered; each bad line skipped on
/// `problems`.
///
/// # Errors
/// A file that cannot be read, or a run with no answer.
pub fn paired_files(
    (a, b): (&str, &str),
    (kinds, judged): (&Kinds, &Judged),
    out: &mut dyn Write,
    problems: &mut Problems,
) -> Result<io::Result<()>, String> {
    let mut read = |run: &str| {
        let (answers, bad) =
            read_files(&run.split(',').filter(|p| !p.is_empty()).map(str::to_string).collect::<Vec<_>>())?;
        problems.skip_all(bad);
        if answers.is_empty() {
            return Err(format!("{run}: no answer read"));
        }
        Ok(answers)
    };
    let (a, b) = (read(a)?, read(b)?);
    Ok(write!(out, "{}", results::paired(&a, &b, kinds, judged)))
}

/// A judge's scores read from its files (pooled), each bad line a problem.
///
/// # Errors
/// A file that cannot be read.
pub fn judged_of(paths: &[String], problems: &mut Vec<String>) -> Result<Judged, String> {
    let mut judged = Judged::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        judged.extend(read_judged(&text, path, problems));
    }
    Ok(judged)
}

/// `agree --judge RESULTS[,RESULTS…]`: Tengen in this process, as a judge, scores every move that the results files
/// chose in this run's positions, and the played move, each searched alone with the run's budget; each score is
/// appended to the run's `--out` file (`key rule move score nodes ms`), and moves already scored there are not
/// searched again. `--report`/`--paired` with `--judged FILE` then say how much worse than the played move the
/// judge rates each engine's choices.
///
/// # Errors
/// A folder or a file that cannot be read, or a run without `--out` or measuring another engine (as a message), and
/// output and file I/O errors.
pub fn judge(
    a: &Agree,
    results: &[String],
    out: &mut dyn Write,
    problems: &mut Problems,
) -> Result<io::Result<()>, String> {
    let Measured::Tengen(tengen) = &a.measured else {
        return Err("the judge is Tengen in this process: no --engine".to_string());
    };
    let path = a.out.as_ref().ok_or("--judge needs --out FILE for the judge's scores")?;
    let mut bad = Vec::new();
    let (positions, selected, _) = positions_of(a, &mut bad)?;
    let (answers, more) = read_each(results)?;
    bad.extend(more);
    let measured = a.label(&positions);
    let label = format!("# judge: {measured}");
    let mut done = Judged::new();
    if path.exists() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        resumable(path, &text, &label)?;
        done = read_judged(&text, &path.display().to_string(), &mut bad);
    }
    problems.skip_all(bad);
    if selected == 0 {
        return Err(format!("{}: no position to judge", names(&a.inputs)));
    }
    let mut todo: Vec<(&Position, crate::types::Pos)> = Vec::new();
    for p in &positions {
        let mut moves = vec![p.played];
        for file in &answers {
            if let Some(m) = file.get(&p.key).and_then(|x| x.chosen)
                && !moves.contains(&m)
            {
                moves.push(m);
            }
        }
        todo.extend(moves.into_iter().filter(|&m| !done.contains_key(&(p.key.clone(), m))).map(|m| (p, m)));
    }
    Ok((|| {
        writeln!(out, "{} positions, {} moves to score with {measured}", positions.len(), todo.len())?;
        out.flush()?;
        let mut file = open_results(path, &format!("{label}\n# key\trule\tmove\tscore\tnodes\tms"))?;
        let mut scored = 0;
        let score = |&(p, m): &(&Position, crate::types::Pos), state: &mut WorkerState| {
            let start = std::time::Instant::now();
            let (score, nodes) = tengen.score_alone(p, m, a.budget, state.table())?;
            Some(judged_line(&p.key, p.rule, m, score, nodes, start.elapsed().as_millis() as u64))
        };
        pool(&todo, a.concurrency, score, |line| {
            writeln!(file, "{line}")?;
            file.flush()?;
            scored += 1;
            if scored % 100 == 0 || scored == todo.len() {
                writeln!(out, "scored {scored}/{}", todo.len())?;
                out.flush()?;
            }
            Ok(())
        })
    })())
}

/// Works through `todo` on `concurrency` threads, each with a worker state of its own (a table, an engine's
/// process) kept from item to item, and hands each result to `take` on this thread as it comes (in the order they
/// finish); an item whose work gives nothing is skipped.
///
/// # Errors
/// The first error of `take`; the workers then stop after their current item.
fn pool<T: Sync, R: Send>(
    todo: &[T],
    concurrency: usize,
    work: impl Fn(&T, &mut WorkerState) -> Option<R> + Sync,
    mut take: impl FnMut(R) -> io::Result<()>,
) -> io::Result<()> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<R>();
    std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..concurrency.clamp(1, todo.len().max(1)) {
            let (tx, next, work) = (tx.clone(), &next, &work);
            scope.spawn(move || {
                let mut state = WorkerState::default();
                while let Some(item) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Some(result) = work(item, &mut state)
                        && tx.send(result).is_err()
                    {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            take(result)?;
        }
        Ok(())
    })
}

/// Each results file's answers, apart.
/// The results file at `path` opened to append to, `header` written first into a new or empty one.
///
/// # Errors
/// I/O errors, as `PATH: reason`.
fn open_results(path: &Path, header: &str) -> io::Result<std::fs::File> {
    let open = || {
        let fresh = !path.exists() || std::fs::metadata(path)?.len() == 0;
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        if fresh {
            writeln!(file, "{header}")?;
        }
        Ok(file)
    };
    open().map_err(named(path.display()))
}

/// Paths as `A, B, C`.
fn names(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

fn read_each(paths: &[String]) -> Result<(Vec<Answers>, Vec<String>), String> {
    let mut all = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        let (answers, more) = read_files(std::slice::from_ref(path))?;
        all.push(answers);
        problems.extend(more);
    }
    Ok((all, problems))
}

type Answers = BTreeMap<String, Answer>;

fn read_files(paths: &[String]) -> Result<(Answers, Vec<String>), String> {
    let mut answers = BTreeMap::new();
    let mut problems = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        answers.extend(read_answers(&text, path, &mut problems));
    }
    Ok((answers, problems))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchOptions;

    #[test]
    fn a_sample_spreads_over_the_games() {
        // 100 games of 40 positions: the first 400 by hash come from most of the games, not a tenth of them.
        let mut keys: Vec<String> =
            (0..100).flat_map(|g| (0..40).map(move |n| format!("renju-2021/{g}_1_2_1.psq#{n}"))).collect();
        keys.sort_by_key(|k| key_hash(k));
        let games: std::collections::BTreeSet<&str> = keys[..400].iter().filter_map(|k| k.split('#').next()).collect();
        assert!(games.len() > 90, "{}", games.len());
    }

    /// A run of Tengen in this process with `options` (the command's defaults otherwise).
    fn tengen_run(budget: Budget, options: SearchOptions) -> Agree {
        Agree {
            inputs: vec![PathBuf::from("g")],
            selection: Selection::default(),
            measured: Measured::Tengen(Box::new(engines::Tengen { options, table_bytes: 64 << 20 })),
            budget,
            concurrency: 1,
            shard: None,
            sample: None,
            out: None,
        }
    }

    #[test]
    fn the_label_names_the_network_and_the_changed_values_so_that_no_other_resumes_a_run() {
        use crate::eval::network::default_network;
        use crate::types::Pos;
        let a = tengen_run(Budget::Nodes(5), SearchOptions::default());
        let default = a.label(&[]);
        let classical_options = SearchOptions { eval: EvalChoice::Classical, ..SearchOptions::default() };
        let classical = tengen_run(Budget::Nodes(5), classical_options);
        let classical_label = classical.label(&[]);
        assert!(classical_label.contains("(classical evaluation)"), "{classical_label}");
        if let Some(net) = default_network(Rule::Renju, 15) {
            let sum = format!("{:016x}", crate::eval::policy::network_checksum(net));
            // Byte for byte the line of every renju results file so far, so that they resume.
            assert_eq!(default, format!("Tengen {} (network evaluation {sum}), 5 nodes a move", env!("TENGEN_COMMIT")));
        }
        assert_ne!(default, classical_label);
        assert!(!default.contains("params"), "{default}");
        // The network named is the one that searches the positions' rule: standard's for standard's positions, and
        // each group's by name where the positions hold several.
        let at = |rule| Position {
            key: "k".into(),
            rule,
            size: 15,
            moves: Vec::new(),
            played: Pos::new(7, 7),
            mover: "E".into(),
        };
        assert_eq!(a.label(&[at(Rule::Renju)]), default);
        if let (Some(renju), Some(standard)) = (default_network(Rule::Renju, 15), default_network(Rule::Standard, 15)) {
            let [r, s] = [renju, standard].map(|n| format!("{:016x}", crate::eval::policy::network_checksum(n)));
            let label = a.label(&[at(Rule::Standard), at(Rule::Standard)]);
            assert!(label.contains(&format!("(network evaluation {s})")), "{label}");
            let both = a.label(&[at(Rule::Standard), at(Rule::Renju)]);
            assert!(
                both.contains(&format!("(standard: network evaluation {s}; renju: network evaluation {r})")),
                "{both}"
            );
        }
        // Freestyle's 20x20 positions play with its wide-board network, and a run holding both sizes names both;
        // where both sizes play with one network (standard, or a network given), one label.
        let sized = |rule, size| Position { rule, size, ..at(rule) };
        let narrow = default_network(Rule::Freestyle, 15).expect("freestyle's network");
        let wide = default_network(Rule::Freestyle, 20).expect("freestyle's 20x20 network");
        let [n, w] = [narrow, wide].map(|n| format!("{:016x}", crate::eval::policy::network_checksum(n)));
        assert_ne!(n, w);
        let label = a.label(&[sized(Rule::Freestyle, 20), sized(Rule::Freestyle, 20)]);
        assert!(label.contains(&format!("(network evaluation {w})")), "{label}");
        let both = a.label(&[sized(Rule::Freestyle, 15), sized(Rule::Freestyle, 20)]);
        assert!(
            both.contains(&format!(
                "(freestyle: network evaluation {n}; freestyle on 18x18 and wider: network evaluation {w})"
            )),
            "{both}"
        );
        let standard = a.label(&[sized(Rule::Standard, 15), sized(Rule::Standard, 20)]);
        assert!(!standard.contains("wider") && !standard.contains(';'), "{standard}");
        let one = classical.label(&[sized(Rule::Freestyle, 15), sized(Rule::Freestyle, 20)]);
        assert!(one.contains("(classical evaluation)"), "{one}");
        let outside = Agree {
            measured: Measured::Outside(engines::Outside {
                command: "./pz".to_string(),
                max_memory: 350 << 20,
                tolerance_ms: 1000,
            }),
            budget: Budget::Ms(500),
            ..a.clone()
        };
        assert_eq!(outside.label(&[at(Rule::Standard)]), "engine './pz', 500 ms a move");
        let params = Params::from_text("param lmp_power 0\nparam rfp_margin 97\n").expect("valid values");
        let trial = tengen_run(Budget::Nodes(5), SearchOptions { params, ..SearchOptions::default() }).label(&[]);
        assert!(trial.ends_with(", params lmp_power 0, 5 nodes a move"), "{trial}");
    }
}
