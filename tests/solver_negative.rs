//! Positions without a VCF: the VCF solver must answer `None` (not `Unknown`) within a node budget, in both its
//! normal and its shortest mode, and the VCT solver must never claim a win that the line checker rejects.
//!
//! Every case is confirmed first by the checker's own exhaustive VCF search (`naive_vcf`), written apart from the
//! solver. The cases come from the puzzles, with a defender stone on the first attacker move of the known shortest
//! line (kept only when `naive_vcf` then finds nothing), and from random middle-game positions under renju and
//! freestyle where the attacker has fours to play but no VCF.

mod common;

use common::{LFZ084, Rng, lfz_puzzles, quintet_mates};
use std::sync::LazyLock;
use std::time::Instant;
use tengen::pattern::{MoveOutcome, PatternBoard};
use tengen::threat::{Limits, Solution, Vcf, VcfOptions, Vct, VctOptions, check_line, naive_vcf};
use tengen::types::{Color, Pos, Rule, format_line, parse_point_list};

/// One position without a VCF for `attacker`, who is to move.
struct Negative {
    /// Where it came from, for messages.
    name: String,
    rule: Rule,
    black: Vec<Pos>,
    white: Vec<Pos>,
    attacker: Color,
}

impl Negative {
    fn board(&self) -> PatternBoard {
        PatternBoard::from_stones(15, self.rule, &self.black, &self.white).expect("a checked position")
    }

    /// The `solve` input line (black stones, white stones, side to move), for messages.
    fn line(&self) -> String {
        let side = if self.attacker == Color::Black { "black" } else { "white" };
        format!("{}\t{}\t{side}", format_line(&self.black, 15), format_line(&self.white, 15))
    }
}

/// The stones of `pb` of colour `c`, in the order they were placed.
fn stones(pb: &PatternBoard, c: Color) -> Vec<Pos> {
    pb.board().moves().iter().filter(|(_, k)| *k == c).map(|&(p, _)| p).collect()
}

/// The position with a defender stone on `key`, when that is a legal defender move making no five and leaves the
/// attacker (to move) without a VCF by `naive_vcf`.
fn with_defender_stone(
    rule: Rule,
    black: &[Pos],
    white: &[Pos],
    attacker: Color,
    key: Pos,
    name: String,
) -> Option<Negative> {
    let defender = attacker.opponent();
    let mut pb = PatternBoard::from_stones(15, rule, black, white).expect("a puzzle position");
    if pb.outcome(key, defender) != MoveOutcome::Normal {
        return None; // taken, a five, or forbidden for Black
    }
    let (mut black, mut white) = (black.to_vec(), white.to_vec());
    if defender == Color::Black { &mut black } else { &mut white }.push(key);
    let mut pb = PatternBoard::from_stones(15, rule, &black, &white).ok()?;
    naive_vcf(&mut pb, attacker).is_none().then_some(Negative { name, rule, black, white, attacker })
}

/// The lfz084 puzzles with a defender stone on the first move of the file's shortest line.
fn lfz_negatives() -> Vec<Negative> {
    let lines: Vec<&str> = LFZ084.lines().collect();
    lfz_puzzles()
        .iter()
        .filter_map(|p| {
            let fields: Vec<&str> = lines[p.number - 1].split('\t').collect();
            let key = parse_point_list(fields[4], 15).expect("the file's line")[0];
            let name =
                format!("lfz084 line {} ({}) + {} on {}", p.number, p.name, p.attacker.opponent(), key.notation(15));
            with_defender_stone(Rule::Renju, &p.black, &p.white, p.attacker, key, name)
        })
        .collect()
}

/// quintet's VCF puzzles with a defender stone on the first move of the expected line.
fn quintet_negatives() -> Vec<Negative> {
    let mut out = Vec::new();
    for case in quintet_mates() {
        for exp in case.expectations.iter().filter(|e| e.mode == "VCFDFS") {
            let Some(line) = &exp.line else { continue };
            let pb = case.position();
            let (black, white) = (stones(&pb, Color::Black), stones(&pb, Color::White));
            let name = format!("{} + {} on {}", case.name, exp.attacker.opponent(), line[0].notation(15));
            out.extend(with_defender_stone(Rule::Renju, &black, &white, exp.attacker, line[0], name));
        }
    }
    out
}

/// Random play near the stones (Black opening at H8, no fives, no forbidden points) until `stones` are down.
fn random_board(rng: &mut Rng, rule: Rule, stones: usize) -> Option<PatternBoard> {
    let mut pb = PatternBoard::new(15, rule).expect("size 15");
    let mut color = Color::Black;
    pb.make(Pos::new(7, 7), color);
    color = color.opponent();
    while pb.board().stone_count() < stones {
        let near: Vec<Pos> = pb
            .board()
            .points()
            .filter(|&p| {
                pb.board().is_empty(p)
                    && pb.board().moves().iter().any(|(q, _)| {
                        (i32::from(p.x) - i32::from(q.x)).abs() <= 2 && (i32::from(p.y) - i32::from(q.y)).abs() <= 2
                    })
            })
            .collect();
        let p = (0..20).map(|_| near[rng.below(near.len())]).find(|&p| pb.outcome(p, color) == MoveOutcome::Normal)?;
        pb.make(p, color);
        color = color.opponent();
    }
    Some(pb)
}

/// Random middle-game positions (30 to 60 stones, renju and freestyle, either side to move) where the side to move
/// has at least two fours to play but `naive_vcf` finds no VCF.
fn random_negatives(count: usize) -> Vec<Negative> {
    let mut rng = Rng::new(0x0e6a_7173_0000_0005);
    let mut out = Vec::new();
    let mut tried = 0;
    while out.len() < count {
        tried += 1;
        assert!(tried < 100 * count, "only {} negative positions in {tried} tries", out.len());
        let rule = if tried % 2 == 0 { Rule::Renju } else { Rule::Freestyle };
        let stones_down = 30 + rng.below(31);
        let Some(pb) = random_board(&mut rng, rule, stones_down) else { continue };
        let attacker = Color::to_move(pb.board().stone_count());
        let (black, white) = (stones(&pb, Color::Black), stones(&pb, Color::White));
        let Ok(mut pb) = PatternBoard::from_stones(15, rule, &black, &white) else { continue };
        let fours = pb.board().points().filter(|&p| pb.board().is_empty(p) && pb.fours(attacker, p) > 0).count();
        if fours >= 2 && naive_vcf(&mut pb, attacker).is_none() {
            let name = format!("random position {tried} ({rule}, {fours} fours to play)");
            out.push(Negative { name, rule, black, white, attacker });
        }
    }
    out
}

/// Every negative case: the puzzles' and 40 random ones, both colours attacking among them. Built once and shared
/// by the tests.
static NEGATIVES: LazyLock<Vec<Negative>> = LazyLock::new(|| {
    let start = Instant::now();
    let mut all = quintet_negatives();
    all.extend(lfz_negatives());
    all.extend(random_negatives(40));
    eprintln!("{} negative cases confirmed by naive_vcf in {:.1} s", all.len(), start.elapsed().as_secs_f64());
    all
});

/// The node budget within which `None` must come.
/// The node budget within which `None` must come (the slowest case, a 31-stone lfz084 position, takes about 140,000
/// nodes to refute in the normal mode and 950,000 in the shortest mode).
const VCF_NODES: u64 = 2_000_000;

#[test]
fn there_are_enough_negative_cases_of_each_kind_and_colour() {
    let all = &*NEGATIVES;
    let from_puzzles = all.iter().filter(|n| !n.name.starts_with("random")).count();
    let random = all.len() - from_puzzles;
    let white = all.iter().filter(|n| n.attacker == Color::White).count();
    let freestyle = all.iter().filter(|n| n.rule == Rule::Freestyle).count();
    eprintln!(
        "{} negative cases: {from_puzzles} from puzzles, {random} random, {white} with White attacking",
        all.len()
    );
    assert!(all.len() >= 50, "only {} negative cases", all.len());
    assert!(from_puzzles >= 25 && random >= 25, "{from_puzzles} from puzzles, {random} random");
    assert!(white >= 10 && all.len() - white >= 10, "{white} of {} with White attacking", all.len());
    assert!(freestyle >= 10, "only {freestyle} freestyle cases");
}

#[test]
fn positions_without_a_vcf_answer_none_within_the_budget() {
    let mut most_nodes = (0, String::new());
    let all = &*NEGATIVES;
    for case in all {
        let mut pb = case.board();
        let before = pb.board().hash();
        for shortest in [false, true] {
            let limits = Limits { nodes: VCF_NODES, ..Limits::default() };
            let mut vcf = Vcf::new(case.attacker, VcfOptions { shortest, limits, ..VcfOptions::default() });
            let solution = vcf.solve(&mut pb);
            assert_eq!(pb.board().hash(), before, "{}: the solver must leave the board as it was", case.name);
            assert_eq!(
                solution,
                Solution::None,
                "{} (shortest: {shortest}, {} nodes): {}",
                case.name,
                vcf.stats().nodes,
                case.line()
            );
            if vcf.stats().nodes > most_nodes.0 {
                most_nodes = (vcf.stats().nodes, case.name.clone());
            }
        }
    }
    eprintln!("{} cases answered None; most nodes {} ({})", all.len(), most_nodes.0, most_nodes.1);
}

#[test]
fn vct_on_positions_without_a_vcf_claims_only_checked_wins() {
    // The quintet and random cases and every eighth lfz084 one: a VCT run costs far more than a VCF run.
    let all: Vec<&Negative> = NEGATIVES
        .iter()
        .enumerate()
        .filter(|(i, n)| !n.name.starts_with("lfz") || i % 8 == 0)
        .map(|(_, n)| n)
        .collect();
    assert!(all.len() >= 100, "only {} cases", all.len());
    let (mut wins, mut nones, mut unknowns) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in &all {
        let mut pb = case.board();
        let before = pb.board().hash();
        let limits = Limits { nodes: 20_000, ..Limits::default() };
        let mut vct = Vct::new(case.attacker, VctOptions { limits, ..VctOptions::default() });
        let solution = vct.solve(&mut pb);
        assert_eq!(pb.board().hash(), before, "{}: the solver must leave the board as it was", case.name);
        match solution {
            Solution::Win(line) => {
                wins += 1;
                if let Err(e) = check_line(&pb, case.attacker, &line, true) {
                    failures.push(format!(
                        "{}: {}: VCT {} rejected: {e}",
                        case.name,
                        case.line(),
                        format_line(&line, 15)
                    ));
                }
            }
            Solution::None => nones += 1,
            Solution::Unknown => unknowns += 1,
        }
    }
    eprintln!("VCT on {} positions without a VCF: {wins} wins, {nones} none, {unknowns} unknown", all.len());
    assert!(failures.is_empty(), "{} rejected lines:\n{}", failures.len(), failures.join("\n"));
    assert!(wins + nones > 0, "every VCT run ran out of budget");
}
