//! Solver speed on the puzzle files. Run with `cargo bench --bench solver`.
//!
//! - VCF: every VCF puzzle of tests/data/quintet_mate_cases.txt ("mate 1" .. "mate 5") and all 1927 of
//!   tests/data/lfz084_puzzles.tsv, in the normal (first VCF found) and the shortest mode. Each time is the best of
//!   three runs with a fresh solver; nodes per second is the total of `Vcf::stats().nodes` over the total time.
//! - VCT: quintet's VCT puzzles ("mate 6" .. "mate 15"), the attacker from the case's first solve line, one run
//!   each with a 10 s deadline.
//!
//! Every answer is replayed by the line checker outside the timing; a line it rejects counts as not solved.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{lfz_puzzles, quintet_mates};
use std::time::{Duration, Instant};
use tengen::pattern::PatternBoard;
use tengen::threat::{Limits, Solution, Vcf, VcfOptions, Vct, VctOptions, check_line};
use tengen::types::{Color, Rule};

const VCF_TARGET: Duration = Duration::from_millis(50);
const VCT_TARGET: Duration = Duration::from_secs(2);
const VCT_DEADLINE: Duration = Duration::from_secs(10);
const RUNS: usize = 3;

/// One VCF puzzle.
struct Puzzle {
    name: String,
    board: PatternBoard,
    attacker: Color,
}

/// One puzzle's result: best time, nodes in that run, and whether the line was a checked win.
struct Timed {
    name: String,
    time: Duration,
    nodes: u64,
    solved: bool,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn vcf_puzzles() -> (Vec<Puzzle>, Vec<Puzzle>) {
    let mut quintet = Vec::new();
    for case in quintet_mates() {
        for exp in case.expectations.iter().filter(|e| e.mode == "VCFDFS" && e.line.is_some()) {
            quintet.push(Puzzle { name: case.name.clone(), board: case.position(), attacker: exp.attacker });
        }
    }
    let lfz = lfz_puzzles()
        .into_iter()
        .map(|p| Puzzle {
            name: format!("lfz084 line {} ({})", p.number, p.name),
            board: PatternBoard::from_stones(15, Rule::Renju, &p.black, &p.white).expect("puzzle"),
            attacker: p.attacker,
        })
        .collect();
    (quintet, lfz)
}

fn time_vcf(puzzle: &mut Puzzle, shortest: bool) -> Timed {
    let mut best: Option<(Duration, u64, Solution)> = None;
    for _ in 0..RUNS {
        let mut vcf = Vcf::new(puzzle.attacker, VcfOptions { shortest, ..VcfOptions::default() });
        let start = Instant::now();
        let solution = std::hint::black_box(vcf.solve(&mut puzzle.board));
        let time = start.elapsed();
        if best.as_ref().is_none_or(|(t, _, _)| time < *t) {
            best = Some((time, vcf.stats().nodes, solution));
        }
    }
    let (time, nodes, solution) = best.expect("at least one run");
    let solved = match &solution {
        Solution::Win(line) => check_line(&puzzle.board, puzzle.attacker, line, false).is_ok(),
        _ => false,
    };
    Timed { name: puzzle.name.clone(), time, nodes, solved }
}

/// The case name up to its closing parenthesis (without the source).
fn short_name(name: &str) -> &str {
    name.find(") ").map_or(name, |i| &name[..=i])
}

fn report_vcf(set: &str, mode: &str, results: &[Timed], slow: &mut Vec<String>) {
    let mut times: Vec<Duration> = results.iter().map(|r| r.time).collect();
    times.sort();
    let median = times[times.len() / 2];
    let slowest = results.iter().max_by_key(|r| r.time).expect("results");
    let total: Duration = times.iter().sum();
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    let solved = results.iter().filter(|r| r.solved).count();
    let over = results.iter().filter(|r| r.time >= VCF_TARGET).count();
    println!(
        "{set:<8} {mode:<9} {:>9} {:>9.3} {:>9.2} {:>10.0} {:>6}  {}",
        format!("{solved}/{}", results.len()),
        ms(median),
        ms(slowest.time),
        nodes as f64 / total.as_secs_f64(),
        over,
        short_name(&slowest.name)
    );
    for r in results.iter().filter(|r| r.time >= VCF_TARGET || !r.solved) {
        let status = if r.solved { "" } else { ", NOT SOLVED" };
        slow.push(format!("  {set} {mode}: {} {:.1} ms, {} nodes{status}", short_name(&r.name), ms(r.time), r.nodes));
    }
}

fn main() {
    // Build the pattern tables first so that no timing includes them.
    let _ = PatternBoard::new(15, Rule::Renju).expect("size 15");

    let (mut quintet, mut lfz) = vcf_puzzles();
    println!("VCF puzzles (best of {RUNS} runs each); target: every puzzle < {} ms", VCF_TARGET.as_millis());
    println!("set      mode         solved median ms    max ms    nodes/s  >50ms  slowest");
    let mut slow = Vec::new();
    for (set, puzzles) in [("quintet", &mut quintet), ("lfz084", &mut lfz)] {
        for (mode, shortest) in [("normal", false), ("shortest", true)] {
            let results: Vec<Timed> = puzzles.iter_mut().map(|p| time_vcf(p, shortest)).collect();
            report_vcf(set, mode, &results, &mut slow);
        }
    }
    if !slow.is_empty() {
        println!("over {} ms or not solved:", VCF_TARGET.as_millis());
        for line in &slow {
            println!("{line}");
        }
    }

    println!();
    println!(
        "VCT puzzles (one run each, {} s deadline); target: every puzzle < {} s",
        VCT_DEADLINE.as_secs(),
        VCT_TARGET.as_secs()
    );
    println!("case                                   attacker    time ms      nodes    nodes/s  result");
    let (mut solved, mut within_target, mut cases) = (0, 0, 0);
    for case in quintet_mates() {
        let Some(exp) = case.expectations.iter().find(|e| e.mode.starts_with("VCT")) else { continue };
        cases += 1;
        let mut pb = case.position();
        let limits = Limits { deadline: Some(Instant::now() + VCT_DEADLINE), ..Limits::default() };
        let mut vct = Vct::new(exp.attacker, VctOptions { limits, ..VctOptions::default() });
        let start = Instant::now();
        let solution = vct.solve(&mut pb);
        let time = start.elapsed();
        let nodes = vct.stats().nodes;
        let result = match &solution {
            Solution::Win(line) => match check_line(&pb, exp.attacker, line, true) {
                Ok(_) => {
                    solved += 1;
                    if time < VCT_TARGET {
                        within_target += 1;
                    }
                    format!("solved ({} moves)", line.len())
                }
                Err(e) => format!("win REJECTED by the checker: {e}"),
            },
            Solution::None => "none".to_string(),
            Solution::Unknown => "unknown".to_string(),
        };
        println!(
            "{:<38} {:<8} {:>10.1} {:>10} {:>10.0}  {result}",
            short_name(&case.name),
            exp.attacker.to_string(),
            ms(time),
            nodes,
            nodes as f64 / time.as_secs_f64()
        );
    }
    println!("VCT: {solved} of {cases} solved, {within_target} within {} s", VCT_TARGET.as_secs());
}
