//! The measured set of won positions (issue 41): a sample of `data/positions/won-renju.txt` in
//! `tests/data/won-renju-sample.tsv`, every line replayed by the independent line checker (never by the solver that
//! found it); `positions` turns game files into position lines; `solve --summary` and `analyze --file` count what
//! they prove.

mod common;

use std::time::{Duration, Instant};
use tengen::board::parse_position_line;
use tengen::pattern::PatternBoard;
use tengen::records::{GameRecord, Outcome, write_game, write_header};
use tengen::search::params::Params;
use tengen::search::tt::Table;
use tengen::search::{MATE_BOUND, Report, SearchLimits, SearchOptions, search};
use tengen::threat::{LineEnd, check_line};
use tengen::types::{Color, Pos, Rule, parse_point_list};

const SAMPLE: &str = include_str!("data/won-renju-sample.tsv");

/// The exit code and the lines of stdout and of stderr.
fn run(args: &[&str], input: &str) -> (u8, Vec<String>, Vec<String>) {
    let args: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = tengen::cli::run(&args, &mut input.as_bytes(), &mut out, &mut err).expect("writing to memory");
    let lines = |b: Vec<u8>| String::from_utf8(b).expect("utf-8").lines().map(str::to_string).collect();
    (code, lines(out), lines(err))
}

fn sample() -> Vec<&'static str> {
    SAMPLE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect()
}

#[test]
fn every_sample_line_is_a_winning_vct_line_by_the_line_checker() {
    let lines = sample();
    assert_eq!(lines.len(), 40);
    let mut sides = [0; 2];
    for text in lines {
        let pos = parse_position_line(text, 15).expect("a position line");
        let side = pos.side_to_move().expect("named");
        sides[side.index()] += 1;
        let pb = PatternBoard::from_stones(15, Rule::Renju, &pos.black, &pos.white).expect("a position");
        let answer = pos.extra.first().expect("the solver's line in the fourth field");
        let line = parse_point_list(answer.strip_prefix("win ").expect("a win"), 15).expect("points");
        let end = check_line(&pb, side, &line, true).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(matches!(end, LineEnd::Five | LineEnd::ForbiddenBlock));
    }
    assert!(sides[0] > 0 && sides[1] > 0, "both colours win in the sample: {sides:?}");
}

#[test]
fn positions_lists_each_position_of_game_files_once_with_its_side() {
    let dir = common::scratch("won_positions", "positions");
    let game = |moves: &str, opening: usize| GameRecord {
        rule: Rule::Renju,
        size: 15,
        outcome: Outcome::BlackWins,
        opening,
        moves: parse_point_list(moves, 15).expect("moves"),
        scores: None,
        players: None,
        best: None,
        forbidden_end: None,
    };
    let path = dir.join("two.tgr");
    let mut bytes = Vec::new();
    write_header(&mut bytes).expect("memory");
    // Two games sharing their first three moves: the positions they share are written once.
    write_game(&mut bytes, &game("H8,H9,H10,I9,G9", 3)).expect("memory");
    write_game(&mut bytes, &game("H8,H9,H10,J9,G9,G10", 3)).expect("memory");
    std::fs::write(&path, bytes).expect("write");
    let (code, lines, _) = run(&["positions", path.to_str().expect("utf-8")], "");
    assert_eq!(code, 0, "{lines:?}");
    assert_eq!(
        lines,
        ["H10,H8\tH9\twhite", "H10,H8\tH9,I9\tblack", "H10,H8\tH9,J9\tblack", "G9,H10,H8\tH9,J9\twhite",]
            .map(|l| l.to_string())
    );
    let (code, lines, errors) = run(&["positions", "--min-stones", "5", path.to_str().expect("utf-8")], "");
    assert_eq!((code, lines, errors), (0, vec!["G9,H10,H8\tH9,J9\twhite".to_string()], vec![]));
    let (code, lines, errors) = run(&["positions", "--every", "0", "x.tgr"], "");
    assert_eq!((code, lines.len()), (2, 0));
    assert!(errors[0].starts_with("error:"), "{errors:?}");
    let missing = dir.join("missing.tgr").display().to_string();
    let (code, lines, errors) = run(&["positions", &missing], "");
    assert_eq!((code, lines.len()), (2, 0));
    assert!(errors[0].starts_with(&format!("error: cannot read {missing}: ")), "{errors:?}");
}

/// Two won positions (a VCF each: the root's VCF proves them in a few thousand nodes on any machine), a position
/// without a win for the side to move, and a bad line.
fn small_set() -> String {
    // An open three: G8 or K8 makes an open four.
    let open_three = "H8,I8,J8,H10\tH9,G9,F9\tblack";
    // A VCF of four fours from a game of the set (win L10,N12,I7 is its last part).
    let vcf = "G11,G5,G9,H13,H8,I11,I8,I9,J10,J11,J12,J13,J8,K11,M11\t\
               G10,G4,G6,G7,G8,H10,H11,H12,H9,I12,J14,J7,J9,L11,L12\tblack";
    let quiet = "H8\tH9\tblack";
    format!("{open_three}\n{vcf}\n{quiet}\nH8,H8\t\tblack\n")
}

#[test]
fn solve_summary_counts_the_answers() {
    let (code, lines, errors) = run(&["solve", "--summary", "--nodes", "100000"], &small_set());
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].starts_with("win ") && lines[1].starts_with("win "), "{lines:?}");
    assert!(errors[0].starts_with("error: stdin: line 4: "), "{errors:?}");
    assert_eq!(lines[3], "# proved 2 of 3 (66.7%; 1 none, 0 unknown, 1 errors) by VCF within 100000 nodes a position");
}

#[test]
fn analyze_file_searches_each_position_and_counts_the_proved() {
    let dir = common::scratch("won_positions", "analyze");
    let path = dir.join("set.txt");
    std::fs::write(&path, small_set()).expect("write");
    let (code, lines, errors) =
        run(&["analyze", "--file", path.to_str().expect("utf-8"), "--ms", "3000", "--depth", "3"], "");
    assert_eq!(code, 1, "{lines:?}");
    assert_eq!(lines.len(), 4, "{lines:?}");
    let first = |l: &str| -> Pos {
        let word = l.split_whitespace().nth(1).expect("a move");
        parse_point_list(word, 15).expect("a point")[0]
    };
    assert!(lines[0].starts_with("win ") && lines[0].ends_with("(vcf)"), "{lines:?}");
    let open_four = parse_point_list("G8,K8", 15).expect("points");
    assert!(open_four.contains(&first(&lines[0])), "{lines:?}");
    assert!(lines[1].starts_with("win ") && lines[1].ends_with("(vcf)"), "{lines:?}");
    assert!(lines[2].starts_with("no "), "{lines:?}");
    // The bad line on stderr, named by its file and number.
    assert!(errors[0].starts_with(&format!("error: {}: line 4: ", path.display())), "{errors:?}");
    assert!(lines[3].starts_with("# proved 2 of 3 (66.7%; 1 not proved, 0 unknown, 1 errors)"), "{lines:?}");
    // Moves and --file together are refused.
    let (code, _, errors) = run(&["analyze", "--file", path.to_str().expect("utf-8"), "h8"], "");
    assert_eq!(code, 2);
    assert!(errors[0].contains("not both"), "{errors:?}");
}

/// A search of 2 plies at most with `params` and, if asked, a deadline (a generous one: node caps decide, not time).
fn search_with(pb: &PatternBoard, side: Color, params: Params, deadline: bool) -> Report {
    let table = Table::new(1 << 20);
    let maximum = deadline.then(|| Instant::now() + Duration::from_secs(60));
    let limits = SearchLimits { depth: 2, maximum, ..SearchLimits::default() };
    search(pb, side, &table, &limits, &SearchOptions { params, ..SearchOptions::default() }, |_| {})
}

#[test]
fn the_late_vct_proves_won_positions_the_first_vct_left_and_only_when_asked() {
    // The root's first VCT cut to 10,000 nodes and no late one; then the late one after the first iteration,
    // 300,000 nodes.
    let first_only = Params { root_vct_kilonodes: 10, late_vct_score: 0, ..Params::DEFAULT };
    let late =
        Params { late_vct_score: 300, late_vct_depth: 1, late_vct_div: 1, late_vct_kilonodes: 300, ..first_only };
    let by_late_vct = |r: &Report| r.source == "vct" && r.depth >= 1;
    let mut proved_late = 0;
    for text in sample().into_iter().step_by(4) {
        let pos = parse_position_line(text, 15).expect("a position line");
        let side = pos.side_to_move().expect("named");
        let pb = PatternBoard::from_stones(15, Rule::Renju, &pos.black, &pos.white).expect("a position");
        let without = search_with(&pb, side, first_only, true);
        assert!(!by_late_vct(&without), "{text}: a late VCT with late_vct_score 0: {without:?}");
        let report = search_with(&pb, side, late, true);
        if by_late_vct(&report) {
            assert!(report.score > MATE_BOUND, "{text}: {report:?}");
            assert_eq!(report.best, report.pv.first().copied());
            check_line(&pb, side, &report.pv, true).unwrap_or_else(|e| panic!("{text}: {e}: {report:?}"));
            proved_late += 1;
            // Without a deadline (a search limited by depth or nodes alone) there is no late VCT.
            assert!(!by_late_vct(&search_with(&pb, side, late, false)), "{text}");
        }
    }
    // Node caps decide, not the clock: 3 of the 10 on any machine.
    assert!(proved_late >= 3, "the late VCT proved {proved_late} of 10 positions");
}
