//! The answers to the opponent's VCF (`vcf_defences`, which `analyze` lists) include every move that refutes it,
//! judged by the solver after each legal move, on puzzles of the renju VCF set read with the defender to move, in
//! renju and (where the VCF also wins there) freestyle and standard.

mod common;

use common::lfz_puzzles;
use tengen::movegen::is_legal;
use tengen::pattern::{Pattern4, PatternBoard};
use tengen::threat::{Solution, Vcf, VcfOptions, line_survives, vcf_defences};
use tengen::types::{Color, Pos, Rule};

/// The attacker's VCF after the defender's move `m`, as far as a bounded solver can tell.
fn vcf_after(pb: &mut PatternBoard, defender: Color, m: Pos) -> Solution {
    pb.make(m, defender);
    let mut vcf = Vcf::new(defender.opponent(), VcfOptions::default());
    let s = vcf.solve_within(pb, 400_000);
    pb.undo();
    s
}

#[test]
fn every_move_that_refutes_the_vcf_is_kept() {
    let puzzles = lfz_puzzles();
    let (mut positions, mut refutations, mut dropped_total, mut kept_total) = (0, 0, 0, 0);
    for p in puzzles.iter().step_by(11) {
        for rule in [Rule::Renju, Rule::Freestyle, Rule::Standard] {
            let Ok(mut pb) = PatternBoard::from_stones(15, rule, &p.black, &p.white) else { continue };
            let (attacker, defender) = (p.attacker, p.attacker.opponent());
            // As at a search node: no five for either side and no straight four against the defender (those
            // nodes answer the threat before any VCF is looked for).
            let opens = pb.class_counts()[attacker.index()][Pattern4::Flex4 as usize] > 0
                || pb.five_points(attacker).next().is_some();
            if pb.five_points(defender).next().is_some() || opens {
                continue;
            }
            let mut vcf = Vcf::new(attacker, VcfOptions::default());
            let Solution::Win(line) = vcf.solve_within(&mut pb, 400_000) else { continue };
            let before = pb.board().hash();
            assert!(line_survives(&mut pb, attacker, &line), "line {} {rule:?}: the line itself plays out", p.number);
            let kept = vcf_defences(&mut pb, defender, &line);
            assert_eq!(pb.board().hash(), before, "the board is left as it was");
            positions += 1;
            kept_total += kept.len();
            for y in 0..15 {
                for x in 0..15 {
                    let m = Pos::new(x, y);
                    if !is_legal(&mut pb, defender, m) || kept.contains(&m) {
                        continue;
                    }
                    dropped_total += 1;
                    // A dropped move must leave the attacker a win (or at least not be proven to refute it).
                    let after = vcf_after(&mut pb, defender, m);
                    assert!(
                        after != Solution::None,
                        "line {} {rule:?}: {} refutes the VCF {:?} but was dropped",
                        p.number,
                        m.notation(15),
                        line.iter().map(|q| q.notation(15)).collect::<Vec<_>>()
                    );
                }
            }
            refutations += kept.iter().filter(|&&m| vcf_after(&mut pb, defender, m) == Solution::None).count();
        }
    }
    // The restriction does something: most legal moves are dropped, and many of those kept do refute.
    println!("{positions} positions: {kept_total} moves kept ({refutations} refute), {dropped_total} dropped");
    assert!(positions >= 60, "{positions} positions");
    assert!(dropped_total > kept_total * 3, "{dropped_total} moves dropped, {kept_total} kept");
    assert!(refutations * 4 > kept_total, "{refutations} of {kept_total} kept moves refute");
}
