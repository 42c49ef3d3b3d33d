//! Board-core speed: make+undo pairs per second in middle-game positions, and a full forbidden scan (every empty
//! point) of the 2000 referee positions. Run with `cargo bench --bench board`; figures are medians of several runs.
//!
//! The positions are tests/data/referee_fuzz_2000.tsv (random dense renju positions from ../shared/testdata).

use std::hint::black_box;
use std::time::{Duration, Instant};
use tengen::board::parse_position_line;
use tengen::pattern::PatternBoard;
use tengen::types::{Color, Pos, Rule};

const REFEREE: &str = include_str!("../tests/data/referee_fuzz_2000.tsv");
const RUNS: usize = 11;

fn positions() -> Vec<(Vec<Pos>, Vec<Pos>)> {
    REFEREE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let p = parse_position_line(l, 15).expect("testdata line");
            (p.black, p.white)
        })
        .collect()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let positions = positions();
    // Build the tables first so that no timing includes them.
    for rule in Rule::ALL {
        let start = Instant::now();
        let _ = PatternBoard::new(15, rule).expect("size 15");
        println!("tables {:<10} {:>8.1} ms (first use)", rule.name(), start.elapsed().as_secs_f64() * 1e3);
    }

    for rule in [Rule::Renju, Rule::Freestyle] {
        let mut boards: Vec<PatternBoard> =
            positions.iter().take(200).filter_map(|(b, w)| PatternBoard::from_stones(15, rule, b, w).ok()).collect();
        let mut pairs = 0u64;
        let mut times = Vec::new();
        for _ in 0..RUNS {
            pairs = 0;
            let start = Instant::now();
            for board in &mut boards {
                let side = Color::to_move(board.board().stone_count());
                for i in 0..15 * 15 {
                    let p = Pos::new(i % 15, i / 15);
                    if board.board().is_empty(p) {
                        board.make(p, side);
                        black_box(board.pattern4(side, p));
                        board.undo();
                        pairs += 1;
                    }
                }
            }
            times.push(start.elapsed());
        }
        let t = median(times);
        println!(
            "make+undo {:<10} {:>10.0} pairs/s  ({} pairs in {:.2} ms, median of {RUNS})",
            rule.name(),
            pairs as f64 / t.as_secs_f64(),
            pairs,
            t.as_secs_f64() * 1e3
        );
    }

    let mut boards: Vec<PatternBoard> = positions
        .iter()
        .map(|(b, w)| PatternBoard::from_stones(15, Rule::Renju, b, w).expect("referee position"))
        .collect();
    let mut scan_times = Vec::new();
    let mut found = 0;
    for _ in 0..RUNS {
        let start = Instant::now();
        found = 0;
        for board in &mut boards {
            found += black_box(board.forbidden_points()).len();
        }
        scan_times.push(start.elapsed());
    }
    let t = median(scan_times);
    println!(
        "forbidden scan of {} positions: {:.2} ms ({} forbidden points, median of {RUNS})",
        boards.len(),
        t.as_secs_f64() * 1e3,
        found
    );

    let mut setup_times = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        let mut found = 0;
        for (b, w) in &positions {
            let mut board = PatternBoard::from_stones(15, Rule::Renju, b, w).expect("referee position");
            found += board.forbidden_points().len();
        }
        black_box(found);
        setup_times.push(start.elapsed());
    }
    let t = median(setup_times);
    println!(
        "set-up + forbidden scan of {} positions: {:.2} ms (median of {RUNS})",
        positions.len(),
        t.as_secs_f64() * 1e3
    );
}
