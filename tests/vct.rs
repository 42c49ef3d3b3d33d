//! VCT solver against quintet's VCT puzzles, every line checked by the independent line checker.

mod common;

use common::quintet_mates;
use std::time::{Duration, Instant};
use tengen::threat::{Limits, Solution, Vct, VctOptions, check_line};

/// Every VCT case of the file: mates 6 to 15 (12 to 15 are quintet's benchmark cases).
const VCT_CASES: [&str; 10] = [
    "mate 6 ", "mate 7 ", "mate 8 ", "mate 9 ", "mate 10 ", "mate 11 ", "mate 12 ", "mate 13 ", "mate 14 ", "mate 15 ",
];

#[test]
fn quintet_vct_puzzles_are_solved_with_checked_lines() {
    let mut solved = 0;
    for case in quintet_mates() {
        if !VCT_CASES.iter().any(|s| case.name.starts_with(s)) {
            continue;
        }
        let exp = case.expectations.iter().find(|e| e.mode.starts_with("VCT") && e.line.is_some()).expect("a VCT");
        let mut pb = case.position();
        let before = pb.board().hash();
        let limits = Limits { deadline: Some(Instant::now() + Duration::from_secs(90)), ..Limits::default() };
        let mut vct = Vct::new(exp.attacker, VctOptions { limits, ..VctOptions::default() });
        let solution = vct.solve(&mut pb);
        assert_eq!(pb.board().hash(), before, "the solver must leave the board as it was");
        assert!(
            pb.tracking() && pb.difference(&pb.rebuilt()).is_none(),
            "{}: derived state after the solve",
            case.name
        );
        let Solution::Win(line) = solution else { panic!("{}: no VCT found: {solution:?}", case.name) };
        check_line(&pb, exp.attacker, &line, true).unwrap_or_else(|e| panic!("{}: bad line {line:?}: {e}", case.name));
        solved += 1;
    }
    assert_eq!(solved, VCT_CASES.len());
}

#[test]
fn a_vct_needing_only_threes_is_found_with_threat_fours_one() {
    // mate 6 is solved by fours and threes alone; mate 10 needs a quiet move that sets up a three-four VCF.
    let cases = quintet_mates();
    let find = |name: &str| cases.iter().find(|c| c.name.starts_with(name)).expect("case");
    for (name, expect_win) in [("mate 6 ", true), ("mate 10 ", false)] {
        let case = find(name);
        let mut pb = case.position();
        let attacker = case.expectations[0].attacker;
        let mut vct = Vct::new(attacker, VctOptions { threat_fours: 1, ..VctOptions::default() });
        let solution = vct.solve(&mut pb);
        assert_eq!(matches!(solution, Solution::Win(_)), expect_win, "{name}: {solution:?}");
        if !expect_win {
            assert_eq!(solution, Solution::None, "{name}: threes alone are proven not to win");
        }
    }
}
