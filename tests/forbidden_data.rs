//! Black's forbidden points against the answers kept in tests/data (copied from ../shared/testdata/forbidden):
//! - `referee_fuzz_2000.tsv`: 2000 random dense positions, answers from the Gomocup referee's checker;
//! - `quintet_cases.txt`: hand-made boards from renju-note/quintet @ d8bdf3c (MIT), src/board/forbidden.rs tests.

use tengen::board::parse_position_line;
use tengen::pattern::{ForbidKind, PatternBoard};
use tengen::types::{Color, Pos, Rule, format_point_list, parse_point_list};

const REFEREE: &str = include_str!("data/referee_fuzz_2000.tsv");
const QUINTET: &str = include_str!("data/quintet_cases.txt");

#[test]
fn referee_positions_match_exactly() {
    let mut checked = 0;
    let mut with_forbidden = 0;
    let mut failures = Vec::new();
    for (n, line) in REFEREE.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let pos = parse_position_line(line, 15).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let expected = parse_point_list(line.split('\t').nth(2).unwrap_or(""), 15).unwrap();
        let mut board = PatternBoard::from_stones(15, Rule::Renju, &pos.black, &pos.white)
            .unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let got = board.forbidden_points();
        // Each reported point must also be confirmed one at a time, and be empty.
        for &p in &got {
            assert!(board.board().is_empty(p));
        }
        if format_point_list(&got, 15) != format_point_list(&expected, 15) {
            failures.push(format!(
                "line {}: got {} expected {}",
                n + 1,
                format_point_list(&got, 15),
                format_point_list(&expected, 15)
            ));
        }
        checked += 1;
        with_forbidden += usize::from(!expected.is_empty());
    }
    assert_eq!(checked, 2000);
    assert!(with_forbidden > 100, "the data should exercise forbidden points");
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// One `=== forbid` case: the board and its `query`/`all` expectations.
struct Case {
    name: String,
    board: String,
    queries: Vec<(Pos, Option<ForbidKind>)>,
    all: Option<Vec<(Pos, ForbidKind)>>,
}

fn kind(word: &str) -> Option<ForbidKind> {
    match word.trim() {
        "DoubleThree" => Some(ForbidKind::DoubleThree),
        "DoubleFour" => Some(ForbidKind::DoubleFour),
        "Overline" => Some(ForbidKind::Overline),
        "None" => None,
        other => panic!("unknown verdict {other}"),
    }
}

fn quintet_cases() -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in QUINTET.lines() {
        if let Some(name) = line.strip_prefix("=== ") {
            cases.push(Case { name: name.to_string(), board: String::new(), queries: vec![], all: None });
        } else if let Some(case) = cases.last_mut() {
            if let Some(q) = line.strip_prefix("query ") {
                let (pt, verdict) = q.split_once(" -> ").expect("query line");
                case.queries.push((Pos::parse(pt, 15).expect("query point"), kind(verdict)));
            } else if let Some(a) = line.strip_prefix("all -> ") {
                let list = a
                    .split(", ")
                    .map(|item| {
                        let (k, pt) = item.split_once('@').expect("Kind@point");
                        (Pos::parse(pt, 15).expect("point"), kind(k).expect("a forbidden kind"))
                    })
                    .collect();
                case.all = Some(list);
            } else {
                case.board.push_str(line);
                case.board.push('\n');
            }
        }
    }
    cases
}

#[test]
fn quintet_cases_match() {
    let cases = quintet_cases();
    assert_eq!(cases.len(), 21);
    let mut queries = 0;
    for case in &cases {
        let mut board =
            PatternBoard::from_ascii(&case.board, Rule::Renju).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for &(p, expected) in &case.queries {
            assert_eq!(board.forbidden_kind(p), expected, "{}: query {}", case.name, p.notation(15));
            queries += 1;
        }
        if let Some(all) = &case.all {
            let mut got: Vec<(Pos, ForbidKind)> = board
                .forbidden_points()
                .into_iter()
                .map(|p| (p, board.forbidden_kind(p).expect("listed point is forbidden")))
                .collect();
            let mut want = all.clone();
            got.sort_by_key(|&(p, _)| p);
            want.sort_by_key(|&(p, _)| p);
            assert_eq!(got, want, "{}: all forbidden points", case.name);
        }
        // The forbidden check must leave the board as it found it.
        assert!(board.difference(&board.rebuilt()).is_none(), "{}", case.name);
    }
    assert!(queries >= 20);
}

#[test]
fn white_and_other_rules_have_no_forbidden_points() {
    let case = &quintet_cases()[0];
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro, Rule::CaroOverline] {
        let mut board = PatternBoard::from_ascii(&case.board, rule).unwrap();
        assert!(board.forbidden_points().is_empty(), "{rule}");
    }
    let mut renju = PatternBoard::from_ascii(&case.board, Rule::Renju).unwrap();
    let points = renju.forbidden_points();
    assert!(!points.is_empty());
    // White may play every one of Black's forbidden points.
    for p in points {
        assert_ne!(renju.outcome(p, Color::White), tengen::pattern::MoveOutcome::Illegal);
        assert!(!matches!(renju.outcome(p, Color::White), tengen::pattern::MoveOutcome::Forbidden(_)));
    }
}
