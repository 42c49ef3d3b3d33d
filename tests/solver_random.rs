//! The solvers against the independent checker on random middle-game positions: the VCF solver and the checker's
//! own exhaustive VCF (`naive_vcf`) agree on whether a VCF exists, every VCF line passes `check_line`, and every VCT
//! line found within a small node budget passes `check_line` as a VCT.
//!
//! Positions come from random play near the stones already on the board (a fixed-seed generator, so a failure
//! reproduces); a failure prints the position line (black stones, a tab, white stones, a tab, the side to move),
//! the rule and the attacker.

mod common;

use common::Rng;

use tengen::pattern::{MoveOutcome, Pattern4, PatternBoard};
use tengen::threat::{Limits, LineEnd, Solution, Vcf, VcfOptions, Vct, VctOptions, check_line, naive_vcf, static_win};
use tengen::types::{Color, Pos, Rule, format_line};

/// The position as a `solve` input line: black stones, a tab, white stones, a tab, the side to move.
fn position_line(pb: &PatternBoard, to_move: Color) -> String {
    let stones =
        |c: Color| -> Vec<Pos> { pb.board().moves().iter().filter(|(_, k)| *k == c).map(|&(p, _)| p).collect() };
    let side = if to_move == Color::Black { "black" } else { "white" };
    format!("{}\t{}\t{side}", format_line(&stones(Color::Black), 15), format_line(&stones(Color::White), 15))
}

/// Renju mostly, some freestyle and standard.
fn rule_for(i: usize) -> Rule {
    match i % 10 {
        0 | 1 => Rule::Freestyle,
        2 => Rule::Standard,
        _ => Rule::Renju,
    }
}

/// A random middle-game position with `to_move` to play: Black opens at H8, then each side plays a random point
/// near the stones (usually within two points of one, now and then anywhere), never a five and never a forbidden
/// point, until 30 to 61 stones are down. The stones are then set up afresh with `from_stones`, as `solve` does;
/// `None` when that refuses them.
fn random_position(rng: &mut Rng, rule: Rule, to_move: Color) -> Option<PatternBoard> {
    let mut pb = PatternBoard::new(15, rule).expect("size 15");
    let mut stones = 30 + rng.below(31);
    if (stones % 2 == 0) != (to_move == Color::Black) {
        stones += 1;
    }
    let mut color = Color::Black;
    pb.make(Pos::new(7, 7), color);
    color = color.opponent();
    while pb.board().stone_count() < stones {
        let empties: Vec<Pos> = pb.board().points().filter(|&p| pb.board().is_empty(p)).collect();
        let near: Vec<Pos> = empties
            .iter()
            .copied()
            .filter(|p| {
                pb.board().moves().iter().any(|(q, _)| {
                    (i32::from(p.x) - i32::from(q.x)).abs() <= 2 && (i32::from(p.y) - i32::from(q.y)).abs() <= 2
                })
            })
            .collect();
        let pool = if near.is_empty() || rng.below(8) == 0 { &empties } else { &near };
        let mut placed = false;
        for _ in 0..20 {
            let p = pool[rng.below(pool.len())];
            if pb.outcome(p, color) == MoveOutcome::Normal {
                pb.make(p, color);
                placed = true;
                break;
            }
        }
        if !placed {
            return None;
        }
        color = color.opponent();
    }
    let stones_of =
        |c: Color| -> Vec<Pos> { pb.board().moves().iter().filter(|(_, k)| *k == c).map(|&(p, _)| p).collect() };
    PatternBoard::from_stones(15, rule, &stones_of(Color::Black), &stones_of(Color::White)).ok()
}

/// What one attacker's comparison found, for the totals.
#[derive(Default)]
struct Tally {
    positions: usize,
    skipped: usize,
    wins: usize,
    nones: usize,
    /// `None` although the attacker had a four to play: the answers that take a search to prove.
    nones_with_fours: usize,
    forbidden_block_ends: usize,
}

/// Runs the VCF solver (first-found and, on every tenth position, shortest) and `naive_vcf` for `attacker` and
/// asserts that they agree and that every line passes the checker.
fn compare_vcf(pb: &mut PatternBoard, attacker: Color, shortest_too: bool, context: &str, tally: &mut Tally) {
    let before = pb.board().hash();
    let mut vcf = Vcf::new(attacker, VcfOptions::default());
    let solution = vcf.solve(pb);
    assert_eq!(pb.board().hash(), before, "{context}: the solver must leave the board as it was");
    let naive = naive_vcf(pb, attacker);
    assert_eq!(pb.board().hash(), before, "{context}: naive_vcf must leave the board as it was");
    match (&solution, &naive) {
        (Solution::Win(line), Some(_)) => {
            let end = check_line(pb, attacker, line, false)
                .unwrap_or_else(|e| panic!("{context}: the checker rejects the solver's VCF {line:?}: {e}"));
            tally.wins += 1;
            if end == LineEnd::ForbiddenBlock {
                tally.forbidden_block_ends += 1;
            }
            if shortest_too {
                let mut short = Vcf::new(attacker, VcfOptions { shortest: true, ..VcfOptions::default() });
                let Solution::Win(short_line) = short.solve(pb) else {
                    panic!("{context}: the shortest mode finds no VCF where the normal mode found {line:?}");
                };
                check_line(pb, attacker, &short_line, false)
                    .unwrap_or_else(|e| panic!("{context}: the checker rejects the shortest VCF {short_line:?}: {e}"));
                assert!(short_line.len() <= line.len(), "{context}: shortest {short_line:?} is longer than {line:?}");
            }
        }
        (Solution::None, None) => {
            tally.nones += 1;
            if pb.board().points().any(|p| pb.board().is_empty(p) && pb.fours(attacker, p) > 0) {
                tally.nones_with_fours += 1;
            }
        }
        (Solution::Win(line), None) => {
            panic!("{context}: the solver claims the VCF {line:?}, naive_vcf finds none")
        }
        (Solution::None, Some(line)) => {
            panic!("{context}: the solver answers None, naive_vcf finds the VCF {line:?}")
        }
        (Solution::Unknown, _) => panic!("{context}: an unlimited VCF search answered Unknown"),
    }
    if let Some(line) = &naive {
        // The checker's own search must satisfy the checker (else the comparison above means little).
        check_line(pb, attacker, line, false)
            .unwrap_or_else(|e| panic!("{context}: the checker rejects naive_vcf's own line {line:?}: {e}"));
    }
}

/// `count` random positions with `to_move` to play; the VCF of each side compared with `naive_vcf`.
fn vcf_agrees_with_naive_vcf(seed: u64, to_move: Color, count: usize) {
    let mut rng = Rng::new(seed);
    let mut tally = [Tally::default(), Tally::default()];
    let mut i = 0;
    while tally[0].positions < count {
        let rule = rule_for(i);
        i += 1;
        let Some(mut pb) = random_position(&mut rng, rule, to_move) else {
            tally[0].skipped += 1;
            continue;
        };
        tally[0].positions += 1;
        for (k, attacker) in [to_move, to_move.opponent()].into_iter().enumerate() {
            let context = format!("position {i} ({rule}, attacker {attacker}): {}", position_line(&pb, to_move));
            compare_vcf(&mut pb, attacker, i % 10 == 0, &context, &mut tally[k]);
        }
    }
    for (k, t) in tally.iter().enumerate() {
        let who = if k == 0 { "side to move" } else { "other side" };
        eprintln!(
            "{to_move} to move, VCF for the {who}: {} positions ({} skipped), {} wins ({} ending in a forbidden \
             block), {} none ({} with fours to play)",
            count, tally[0].skipped, t.wins, t.forbidden_block_ends, t.nones, t.nones_with_fours
        );
    }
    // Both answers must be common, or the comparison proves little.
    for t in &tally {
        assert!(t.wins > count / 10 && t.nones > count / 10, "too one-sided: {} wins, {} none", t.wins, t.nones);
        assert!(t.nones_with_fours > count / 20, "only {} refutations with fours to play", t.nones_with_fours);
    }
    assert!(tally[0].skipped < count / 10, "{} positions skipped", tally[0].skipped);
}

#[test]
fn vcf_agrees_with_naive_vcf_on_random_positions_black_to_move() {
    vcf_agrees_with_naive_vcf(0x5eed_0b1a_c000_0001, Color::Black, 10_000);
}

#[test]
fn vcf_agrees_with_naive_vcf_on_random_positions_white_to_move() {
    vcf_agrees_with_naive_vcf(0x5eed_3417_e000_0002, Color::White, 10_000);
}

/// Caro (a five needs an open end): a four can also be stopped at the far end of its five, and a block at one five
/// point can close another five. On 120 caro/caro8 positions (fewer than above: the checker's caro answers are
/// slow), every line, the solver's and `naive_vcf`'s, must pass the checker.
#[test]
fn caro_vcf_lines_pass_the_checker() {
    let mut rng = Rng::new(0x5eed_ca50_0000_0005);
    let mut failures = Vec::new();
    for i in 0..120 {
        let rule = if i % 2 == 0 { Rule::Caro } else { Rule::CaroOverline };
        let to_move = if i % 4 < 2 { Color::Black } else { Color::White };
        let Some(mut pb) = random_position(&mut rng, rule, to_move) else { continue };
        for attacker in [to_move, to_move.opponent()] {
            let context = format!("position {i} ({rule}, attacker {attacker}): {}", position_line(&pb, to_move));
            let solution = Vcf::new(attacker, VcfOptions::default()).solve(&mut pb);
            if let Solution::Win(line) = &solution
                && let Err(e) = check_line(&pb, attacker, line, false)
            {
                failures.push(format!("{context}: solver line {} rejected: {e}", format_line(line, 15)));
            }
            if let Some(line) = naive_vcf(&mut pb, attacker)
                && let Err(e) = check_line(&pb, attacker, &line, false)
            {
                failures.push(format!("{context}: naive_vcf line {} rejected: {e}", format_line(&line, 15)));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// VCT runs with a small node budget: every win passes the checker as a VCT, and a side with a VCF is never told
/// it has no VCT. Every failure is listed before the test fails.
fn vct_lines_pass_the_checker(seed: u64, to_move: Color, count: usize) {
    let mut rng = Rng::new(seed);
    let (mut positions, mut wins, mut nones, mut unknowns) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut i = 0;
    while positions < count {
        let rule = rule_for(i);
        i += 1;
        let Some(mut pb) = random_position(&mut rng, rule, to_move) else { continue };
        positions += 1;
        let attacker = to_move;
        let context = format!("position {i} ({rule}, attacker {attacker}): {}", position_line(&pb, to_move));
        let before = pb.board().hash();
        let limits = Limits { nodes: 20_000, ..Limits::default() };
        let mut vct = Vct::new(attacker, VctOptions { limits, ..VctOptions::default() });
        let solution = vct.solve(&mut pb);
        assert_eq!(pb.board().hash(), before, "{context}: the solver must leave the board as it was");
        match &solution {
            Solution::Win(line) => {
                if let Err(e) = check_line(&pb, attacker, line, true) {
                    failures.push(format!("{context}: the checker rejects the VCT {}: {e}", format_line(line, 15)));
                }
                wins += 1;
            }
            Solution::None => {
                if let Some(line) = naive_vcf(&mut pb, attacker) {
                    failures.push(format!("{context}: VCT answers None, naive_vcf finds {}", format_line(&line, 15)));
                }
                nones += 1;
            }
            Solution::Unknown => unknowns += 1,
        }
    }
    eprintln!("{to_move} VCT, 20000 nodes: {count} positions, {wins} wins, {nones} none, {unknowns} unknown");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(wins > count / 10, "only {wins} VCT wins in {count} positions");
}

#[test]
fn vct_lines_pass_the_checker_on_random_positions_black() {
    vct_lines_pass_the_checker(0x5eed_0b1a_c000_0003, Color::Black, 300);
}

#[test]
fn vct_lines_pass_the_checker_on_random_positions_white() {
    vct_lines_pass_the_checker(0x5eed_3417_e000_0004, Color::White, 300);
}

/// Static win detection against the solvers: every four-based static win (a five, a straight four, a four-three)
/// is a win the VCF solver finds too, every double-three win one the VCT solver finds, and in renju the first move
/// is always legal for Black. Each kind must turn up, or the comparison proves little.
fn static_wins_agree_with_the_solvers(seed: u64, to_move: Color, count: usize) {
    let mut rng = Rng::new(seed);
    let mut kinds = [0usize; 4]; // five, straight four, four-three, double three
    let mut failures = Vec::new();
    let mut i = 0;
    let mut positions = 0;
    while positions < count {
        let rule = if i % 10 == 9 { Rule::Caro } else { rule_for(i) };
        i += 1;
        let Some(mut pb) = random_position(&mut rng, rule, to_move) else { continue };
        positions += 1;
        let before = pb.board().hash();
        let Some(win) = static_win(&mut pb, to_move) else { continue };
        assert_eq!(pb.board().hash(), before, "static_win must leave the board as it was");
        let context = format!("position {i} ({rule}): {} -> {win:?}", position_line(&pb, to_move));
        if !tengen::movegen::is_legal(&mut pb, to_move, win.first) {
            failures.push(format!("{context}: the first move is not legal"));
            continue;
        }
        let class = pb.pattern4(to_move, win.first);
        let kind = match win.plies {
            1 => 0,
            3 => 1,
            _ if class == Pattern4::Flex3x2 => 3,
            _ => 2,
        };
        kinds[kind] += 1;
        let solution = if kind == 3 {
            let limits = Limits { nodes: 200_000, ..Limits::default() };
            Vct::new(to_move, VctOptions { limits, ..VctOptions::default() }).solve(&mut pb)
        } else {
            Vcf::new(to_move, VcfOptions::default()).solve(&mut pb)
        };
        if !matches!(solution, Solution::Win(_)) {
            failures.push(format!("{context}: the solver answers {solution:?}"));
        }
    }
    eprintln!(
        "{to_move}: {count} positions, static wins by kind (five, straight four, four-three, three-three) {kinds:?}"
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(kinds.iter().all(|&k| k >= 5), "too few static wins of some kind: {kinds:?}");
}

#[test]
fn static_wins_agree_with_the_solvers_black_to_move() {
    static_wins_agree_with_the_solvers(0x5eed_0b1a_c000_0006, Color::Black, 8_000);
}

#[test]
fn static_wins_agree_with_the_solvers_white_to_move() {
    static_wins_agree_with_the_solvers(0x5eed_3417_e000_0007, Color::White, 8_000);
}
