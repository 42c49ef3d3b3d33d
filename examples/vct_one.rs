//! Solves the quintet VCT puzzles whose names contain the first argument (all VCT puzzles without one).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;
use tengen::threat::{Solution, Vct, VctOptions};

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    for case in common::quintet_mates() {
        let Some(exp) = case.expectations.iter().find(|e| e.mode.starts_with("VCT")) else { continue };
        if !case.name.contains(&filter) {
            continue;
        }
        let mut pb = case.position();
        let mut vct = Vct::new(exp.attacker, VctOptions::default());
        let start = Instant::now();
        let solution = vct.solve(&mut pb);
        let time = start.elapsed();
        let len = match &solution {
            Solution::Win(line) => line.len(),
            _ => 0,
        };
        println!("{} {:.1} ms {} nodes len {len}", case.name, time.as_secs_f64() * 1e3, vct.stats().nodes);
    }
}
