//! VCF solver against the puzzle files, with every line checked by the independent line checker.

mod common;

use common::{lfz_puzzles, quintet_mates};
use tengen::pattern::PatternBoard;
use tengen::threat::{LineEnd, Solution, Vcf, VcfOptions, check_line};
use tengen::types::{Color, Pos, Rule};

fn solve(pb: &mut PatternBoard, attacker: Color, shortest: bool, max_moves: u32) -> Solution {
    let before = pb.board().hash();
    let mut vcf = Vcf::new(attacker, VcfOptions { shortest, max_moves, ..VcfOptions::default() });
    let s = vcf.solve(pb);
    assert_eq!(pb.board().hash(), before, "the solver must leave the board as it was");
    s
}

/// Attacker moves of a line that is not a five at its end, i.e. the fours.
fn fours(line: &[Pos], end: LineEnd) -> u32 {
    let attacker_moves = line.len().div_ceil(2) as u32;
    match end {
        LineEnd::Five => attacker_moves - 1,
        LineEnd::ForbiddenBlock => attacker_moves,
    }
}

#[test]
fn quintet_vcf_puzzles_are_solved_shortest() {
    let mut solved = 0;
    for case in quintet_mates() {
        for exp in case.expectations.iter().filter(|e| e.mode == "VCFDFS") {
            let mut pb = case.position();
            match &exp.line {
                Some(expected) => {
                    for shortest in [false, true] {
                        let Solution::Win(line) = solve(&mut pb, exp.attacker, shortest, 0) else {
                            panic!("{}: no VCF found", case.name);
                        };
                        let end = check_line(&pb, exp.attacker, &line, false)
                            .unwrap_or_else(|e| panic!("{}: bad line {line:?}: {e}", case.name));
                        if shortest {
                            // quintet's lines stop at the unstoppable four: every attacker move is a four.
                            let expected_fours = expected.len().div_ceil(2) as u32;
                            assert_eq!(fours(&line, end), expected_fours, "{}: shortest length", case.name);
                            assert_eq!(exp.limit.unwrap_or(expected_fours), expected_fours, "{}", case.name);
                        }
                    }
                    solved += 1;
                }
                None => {
                    // quintet's limit counts attacker fours: one fewer than the shortest finds nothing.
                    let limit = exp.limit.expect("a limit");
                    assert_eq!(solve(&mut pb, exp.attacker, true, limit), Solution::None, "{}", case.name);
                    assert_eq!(solve(&mut pb, exp.attacker, false, limit), Solution::None, "{}", case.name);
                }
            }
        }
    }
    assert_eq!(solved, 5);
}

#[test]
fn lfz084_puzzles_are_solved_with_checked_shortest_lines() {
    let puzzles = lfz_puzzles();
    assert_eq!(puzzles.len(), 1927);
    for p in &puzzles {
        let mut pb = PatternBoard::from_stones(15, Rule::Renju, &p.black, &p.white)
            .unwrap_or_else(|e| panic!("line {}: {e}", p.number));
        let Solution::Win(line) = solve(&mut pb, p.attacker, true, 0) else {
            panic!("line {} ({}): no VCF found", p.number, p.name);
        };
        let end = check_line(&pb, p.attacker, &line, false)
            .unwrap_or_else(|e| panic!("line {} ({}): bad line: {e}", p.number, p.name));
        assert_eq!(fours(&line, end), p.fours, "line {} ({}): shortest length", p.number, p.name);
    }
}
