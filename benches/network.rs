//! The evaluations' cost per call: for 200 middle-game renju positions (tests/data/referee_fuzz_2000.tsv) and every
//! empty point, a move made and taken back with the network's accumulator following it, and the position after
//! the move evaluated by the network and by the classical evaluation. Run with `cargo bench --bench network`
//! (`NETWORK=FILE cargo bench --bench network` times another renju network file than the build's); figures are
//! medians of several runs, nanoseconds per call.

use std::hint::black_box;
use std::time::{Duration, Instant};
use tengen::board::parse_position_line;
use tengen::eval::network::{Accumulator, Network, default_network};
use tengen::eval::{default_weights, evaluate, network_evaluate};
use tengen::pattern::PatternBoard;
use tengen::types::{Color, Pos, Rule};

const REFEREE: &str = include_str!("../tests/data/referee_fuzz_2000.tsv");
const RUNS: usize = 15;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let net = match std::env::var("NETWORK") {
        Ok(path) => Network::load(&path).unwrap_or_else(|e| panic!("{e}")),
        Err(_) => default_network(Rule::Renju, 15).expect("the build's renju network"),
    };
    println!("{net:?}");
    let weights = default_weights();
    let mut boards: Vec<PatternBoard> = REFEREE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(200)
        .filter_map(|l| parse_position_line(l, 15).ok())
        .filter_map(|p| PatternBoard::from_stones(15, Rule::Renju, &p.black, &p.white).ok())
        .collect();
    // As the search keeps them: the classical code sums follow the board.
    for board in &mut boards {
        board.set_code_values(Some(weights.code_values(Rule::Renju)));
    }
    let mut accs: Vec<Accumulator> = boards.iter().map(|b| Accumulator::new(net, b.board())).collect();
    // What is timed: make + undo alone, with the accumulator following, and with each evaluation after the move.
    let kinds = [
        "make+undo (code sums kept)",
        "make+undo, accumulator",
        "make+undo, accumulator, network",
        "make+undo, classical",
    ];
    // The kinds take turns within each run, so that a machine that slows down or speeds up meanwhile weighs on
    // all of them alike.
    let mut times: [Vec<Duration>; 4] = Default::default();
    let mut calls = 0u64;
    for _ in 0..RUNS {
        for (k, kind_times) in times.iter_mut().enumerate() {
            calls = 0;
            let start = Instant::now();
            for (board, acc) in boards.iter_mut().zip(&mut accs) {
                let side = Color::to_move(board.board().stone_count());
                for i in 0..15 * 15 {
                    let p = Pos::new(i % 15, i / 15);
                    if !board.board().is_empty(p) {
                        continue;
                    }
                    board.make(p, side);
                    if k == 1 || k == 2 {
                        acc.make(board.board(), p);
                    }
                    match k {
                        2 => black_box(network_evaluate(acc, board, side.opponent(), weights)),
                        3 => black_box(evaluate(board, side.opponent(), weights)),
                        _ => 0,
                    };
                    if k == 1 || k == 2 {
                        acc.unmake(board.board(), p);
                    }
                    board.undo();
                    calls += 1;
                }
            }
            kind_times.push(start.elapsed());
        }
    }
    let per_call = times.map(|t| median(t).as_secs_f64() * 1e9 / calls as f64);
    for (kind, ns) in kinds.iter().zip(per_call) {
        println!("{kind:<34} {ns:>8.1} ns per move ({calls} moves, median of {RUNS})");
    }
    println!(
        "accumulator update (make and undo): {:.1} ns; network head (and the classical evaluation it adds): {:.1} ns; \
         classical evaluation: {:.1} ns",
        per_call[1] - per_call[0],
        per_call[2] - per_call[1],
        per_call[3] - per_call[0]
    );
}
