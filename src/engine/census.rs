//! `bench --census`: positions searched to a fixed node count on one thread, as self-play at a node limit searches
//! them, with the census of each search (what its nodes were spent on, [`crate::search::Census`]) and the nodes and
//! time at which each iteration completed. Fixed by the positions, the node count and the parameters: two builds or
//! two parameter sets are compared on the same work.

use super::Engine;
use crate::pattern::position_from_moves;
use crate::search::params::Params;
use crate::search::{Census, CensusSink, Report, SearchLimits, search};
use crate::types::Rule;
use std::time::{Duration, Instant};

/// The table each census search has (self-play's and the bench's).
const CENSUS_HASH_BYTES: usize = 16 << 20;

/// The clock of a search bounded by nodes, as self-play gives one (its `NODE_LIMITED_TURN_MS`): long enough never to
/// bind, so that the solvers' shares are the node limit's.
const BACKSTOP: Duration = Duration::from_secs(600);

/// One completed iteration: its depth, the nodes searched by its end and the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The iteration's depth.
    pub depth: i32,
    /// Nodes searched when it completed.
    pub nodes: u64,
    /// Time taken when it completed.
    pub elapsed: Duration,
}

/// One position's search: its report, the census and the iterations.
#[derive(Clone, Debug)]
pub struct CensusRun {
    /// The search's answer.
    pub report: Report,
    /// What its nodes were spent on.
    pub census: Census,
    /// Each completed iteration, in order.
    pub iterations: Vec<Iteration>,
}

/// Searches the position of `moves` (Black first, on 15×15 under `rule`) to `nodes` nodes with `params` on a fresh
/// engine with one thread.
///
/// # Errors
/// A message when the moves do not make a position.
pub fn census(rule: Rule, moves: &str, nodes: u64, params: Params) -> Result<CensusRun, String> {
    let pb = position_from_moves(moves, 15, rule)?;
    let mut engine = Engine::new(15, rule).map_err(|e| e.to_string())?;
    engine.set_hash_bytes(CENSUS_HASH_BYTES);
    engine.configure(|s| {
        s.search.threads = 1;
        s.search.params = params;
    });
    engine.set_up(pb.board().moves()).map_err(|e| e.to_string())?;
    let sink = CensusSink::default();
    let start = Instant::now();
    let limits = SearchLimits {
        nodes,
        optimum: Some(start + BACKSTOP),
        maximum: Some(start + BACKSTOP),
        census: Some(&sink),
        ..SearchLimits::default()
    };
    let mut iterations = Vec::new();
    let side = engine.side_to_move();
    let report = search(&engine.pb, side, engine.table.get(), &limits, &engine.settings.search, |r| {
        iterations.push(Iteration { depth: r.depth, nodes: r.nodes, elapsed: r.elapsed });
    });
    let census = sink.into_inner().map_err(|_| "a search thread panicked".to_string())?;
    Ok(CensusRun { report, census, iterations })
}

/// The bench's positions (their rules and moves), the census's positions unless a file gives others.
#[must_use]
pub fn bench_positions() -> Vec<(Rule, String)> {
    super::bench::BENCH.iter().map(|&(rule, moves, _)| (rule, moves.to_string())).collect()
}

/// [`read_positions`] of the file at `path`.
///
/// # Errors
/// `PATH: reason` or `PATH: line N: reason`.
pub fn read_positions_file(path: &str) -> Result<Vec<(Rule, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    read_positions(&text).map_err(|e| format!("{path}: {e}"))
}

/// Reads a census positions file: one position a line, its moves (Black first) before an optional `#` comment,
/// blank and comment lines skipped, an optional leading rule word (`renju`, `freestyle`, `standard`, `caro`; renju
/// when none).
///
/// # Errors
/// `line N: reason` for a line whose rule or moves cannot be read.
pub fn read_positions(text: &str) -> Result<Vec<(Rule, String)>, String> {
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (rule, moves) = match line.split_once(char::is_whitespace) {
            Some((first, rest)) if first.parse::<Rule>().is_ok() => (first.parse::<Rule>()?, rest.trim()),
            _ => (Rule::Renju, line),
        };
        position_from_moves(moves, 15, rule).map_err(|e| format!("line {}: {e}", n + 1))?;
        positions.push((rule, moves.to_string()));
    }
    Ok(positions)
}

/// `bench --census`: every position searched to `nodes` nodes with `params`, one line each, then the
/// [`summary`]'s `name<TAB>value` lines.
///
/// # Errors
/// A position that cannot be set up (the outer error); output I/O errors (the inner one).
pub fn write_census(
    positions: &[(Rule, String)],
    nodes: u64,
    params: Params,
    out: &mut dyn std::io::Write,
) -> Result<std::io::Result<()>, String> {
    let mut runs = Vec::new();
    for (rule, moves) in positions {
        let run = census(*rule, moves, nodes, params)?;
        let r = &run.report;
        let line = writeln!(
            out,
            "{:<10} {:<48} depth {:>2} best {:<4} score {:>6} nodes {:>9} ms {:>6}",
            rule.name(),
            moves,
            r.depth,
            r.best.map_or("-".to_string(), |p| p.notation(15)),
            r.score,
            r.nodes,
            r.elapsed.as_millis()
        );
        if let Err(e) = line {
            return Ok(Err(e));
        }
        runs.push(run);
    }
    Ok(summary(&runs).iter().try_for_each(|(name, value)| writeln!(out, "{name}\t{value}")))
}

/// The median of `values` (the lower of the two middle ones), if any.
fn median(mut values: Vec<u64>) -> Option<u64> {
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied()
}

/// The summary of a census over several positions, as `name value` pairs in a fixed order (what `bench --census`
/// prints and `scripts/census.sh` sets side by side for two builds): the nodes and time, the depth reached, the
/// median nodes and time to complete each depth, the main search's nodes and moves by remaining depth, and the
/// counts by kind.
#[must_use]
pub fn summary(runs: &[CensusRun]) -> Vec<(String, String)> {
    let mut lines: Vec<(String, String)> = Vec::new();
    let mut put = |name: String, value: String| lines.push((name, value));
    let mut total = Census::default();
    runs.iter().for_each(|r| total.add(&r.census));
    let nodes: u64 = runs.iter().map(|r| r.report.nodes).sum();
    let time: Duration = runs.iter().map(|r| r.report.elapsed).sum();
    put("positions".into(), runs.len().to_string());
    put("nodes".into(), nodes.to_string());
    put("ms".into(), time.as_millis().to_string());
    put("nps".into(), format!("{:.0}", nodes as f64 / time.as_secs_f64().max(1e-9)));
    let depths: Vec<u64> = runs.iter().map(|r| r.report.depth.max(0) as u64).collect();
    put("depth_median".into(), median(depths.clone()).unwrap_or(0).to_string());
    let mean = depths.iter().sum::<u64>() as f64 / depths.len().max(1) as f64;
    put("depth_mean".into(), format!("{mean:.2}"));
    let deepest = runs.iter().flat_map(|r| r.iterations.last()).map(|i| i.depth).max().unwrap_or(0);
    for d in 1..=deepest {
        let reached: Vec<&Iteration> = runs.iter().filter_map(|r| r.iterations.iter().find(|i| i.depth == d)).collect();
        let nodes = median(reached.iter().map(|i| i.nodes).collect()).unwrap_or(0);
        let ms = median(reached.iter().map(|i| i.elapsed.as_millis() as u64).collect()).unwrap_or(0);
        put(format!("to_depth_{d:02}"), format!("{} reached, median {nodes} nodes {ms} ms", reached.len()));
    }
    let main = total.main_nodes();
    put("main_nodes".into(), main.to_string());
    for (d, &n) in total.by_depth.iter().enumerate() {
        let moves = total.moves_by_depth[d];
        let pruned = total.pruned_by_depth[d];
        let width = moves as f64 / n.max(1) as f64;
        put(
            format!("main_depth_{d:02}"),
            format!("{n} nodes ({:.1}%), {moves} moves ({width:.2} a node), {pruned} pruned", percent(n, main)),
        );
    }
    for (name, value) in total.named() {
        put(name.to_string(), format!("{value} ({:.1}% of nodes)", percent(value, nodes)));
    }
    lines
}

/// `part` as a percentage of `whole`.
fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_census_counts_the_search_it_describes_and_is_fixed_by_its_inputs() {
        let run = census(Rule::Renju, "h8 h9 j10 g8", 30_000, Params::DEFAULT).expect("a position");
        let again = census(Rule::Renju, "h8 h9 j10 g8", 30_000, Params::DEFAULT).expect("a position");
        assert_eq!((run.report.nodes, run.census), (again.report.nodes, again.census));
        let c = &run.census;
        // Every node the search counted is the main search's, a leaf probe's, the quiescence's or a solver's.
        let solvers = c.root_vcf + c.root_vct + c.late_vct + c.guard + c.tree_vct;
        assert_eq!(c.main_nodes() + c.probe_nodes + c.quiescence + solvers, run.report.nodes);
        // The node limit holds (a poll comes every 1,024 nodes) and the root's solvers had their share of it.
        assert!(run.report.nodes >= 30_000 && run.report.nodes < 32_000, "{}", run.report.nodes);
        assert!(c.root_vct <= 30_000 / Params::DEFAULT.root_vct_div as u64);
        assert!(run.iterations.windows(2).all(|w| w[0].depth < w[1].depth && w[0].nodes <= w[1].nodes));
        assert_eq!(run.iterations.last().map(|i| i.depth), Some(run.report.depth));
        let summary = summary(&[run.clone(), again]);
        let value = |name: &str| summary.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        assert_eq!(value("nodes"), Some((2 * run.report.nodes).to_string()));
        assert_eq!(value("depth_median"), Some(run.report.depth.to_string()));
        assert!(value("to_depth_01").is_some_and(|v| v.starts_with("2 reached")));
    }

    #[test]
    fn positions_files_give_a_rule_or_renju_and_name_the_bad_line() {
        let text = "# comment\nh8 h9 j10  # a game\n\nfreestyle h8 i9\n";
        let positions = read_positions(text).expect("good lines");
        assert_eq!(positions, vec![(Rule::Renju, "h8 h9 j10".to_string()), (Rule::Freestyle, "h8 i9".to_string())]);
        let bad = read_positions("h8 h9\nh8 h8\n").expect_err("a stone twice");
        assert!(bad.starts_with("line 2:"), "{bad}");
    }
}
