//! Positions where earlier versions of the solvers or the checker went wrong (found in review), pinned.

use tengen::board::parse_position_line;
use tengen::pattern::PatternBoard;
use tengen::threat::{Solution, Vcf, VcfOptions, Vct, VctOptions, check_line, naive_vcf};
use tengen::types::{Color, Rule, parse_point_list};

fn position(line: &str, rule: Rule) -> PatternBoard {
    let p = parse_position_line(line, 15).expect("position line");
    PatternBoard::from_stones(15, rule, &p.black, &p.white).expect("legal position")
}

#[test]
fn caro_four_can_be_stopped_at_the_far_end() {
    // After G8 (a four on row 8, C8 White at the other end) White may answer I8 instead of H8: the row-8 five would
    // be closed at both ends. No VCF exists, and neither the solver nor the naive search may claim one.
    // The two rules in parallel (rayon): the unlimited VCT of each takes seconds, the longest test of the suite.
    use rayon::prelude::*;
    [Rule::Caro, Rule::CaroOverline].into_par_iter().for_each(|rule| {
        let mut pb = position("D8,E8,F8,G9,G10,I4\tC8,I5,I6,I7\tblack", rule);
        assert_eq!(Vcf::new(Color::Black, VcfOptions::default()).solve(&mut pb), Solution::None, "{rule}");
        assert_eq!(naive_vcf(&mut pb, Color::Black), None, "{rule}");
        if let Solution::Win(line) = Vct::new(Color::Black, VctOptions::default()).solve(&mut pb) {
            check_line(&pb, Color::Black, &line, true).unwrap_or_else(|e| panic!("{rule}: VCT line rejected: {e}"));
        }
        // The false line of old is rejected by the checker: White's I8 answers G8.
        let old = parse_point_list("G8,H8,G7,G11,G6", 15).expect("line");
        let mut after = pb.clone();
        after.make(old[0], Color::Black);
        after.make(parse_point_list("I8", 15).expect("point")[0], Color::White);
        assert_eq!(Vcf::new(Color::Black, VcfOptions::default()).solve(&mut after), Solution::None);
    });
}

#[test]
fn caro_attacker_may_stop_a_defender_four_at_its_far_end() {
    // White threatens H3 (D3-G3); Black's I3 closes that five at its far end (C3 is Black) and makes the straight
    // four I3-I6.
    let mut pb = position("C3,I4,I5,I6\tD3,E3,F3,G3\tblack", Rule::Caro);
    let Solution::Win(line) = Vcf::new(Color::Black, VcfOptions::default()).solve(&mut pb) else {
        panic!("the VCF I3 is missed");
    };
    check_line(&pb, Color::Black, &line, false).expect("checked");
    assert!(naive_vcf(&mut pb, Color::Black).is_some());
}

#[test]
fn checker_rejects_a_line_where_the_defender_could_make_five() {
    // White has two five points (H5 and H10); Black's H5 stops one, so White wins at H10 instead of blocking.
    let pb = position("C5,C10,H6,H7,H8\tD5,E5,F5,G5,D10,E10,F10,G10\tblack", Rule::Freestyle);
    let line = parse_point_list("H5,H4,H9", 15).expect("line");
    assert!(check_line(&pb, Color::Black, &line, false).is_err());
    assert!(check_line(&pb, Color::Black, &line, true).is_err());
}

#[test]
fn vct_sees_counter_fours_made_of_two_forced_blocks() {
    // After D9 the threat line's blocks B5 and B8 plus a quiet White B7 make a White four mid-line: B7 defends, so
    // D9 does not win at depth 1.
    let mut pb = position(
        "H8,G11,I10,J6,G12,L7,E6,C6,D12,A4,C8,A8,D7\tG9,E11,H7,F10,F7,J8,J11,F14,K5,I5,G14,B9,H6\tblack",
        Rule::Renju,
    );
    let options = VctOptions { max_depth: 1, threat_fours: 3, ..VctOptions::default() };
    let solution = Vct::new(Color::Black, options).solve(&mut pb);
    if let Solution::Win(line) = &solution {
        check_line(&pb, Color::Black, line, true).expect("checked");
        assert_ne!(line[0], parse_point_list("D9", 15).expect("point")[0], "D9 is answered by B7");
    }
    let mut after = pb.clone();
    after.make(parse_point_list("D9", 15).expect("point")[0], Color::Black);
    after.make(parse_point_list("B7", 15).expect("point")[0], Color::White);
    assert_eq!(Vcf::new(Color::Black, VcfOptions::default()).solve(&mut after), Solution::None);
}
