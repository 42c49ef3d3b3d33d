//! `pbrain-tengen solve`: one answer line per position line (`win <line>`, `none` or `unknown`) on stdout; a bad line
//! none, but `error: stdin: line N: …` on stderr, the run going on and its exit code 1; exit code 2 for bad options. Every `win` line is replayed by the
//! independent line checker.

mod common;

use common::{LFZ084, MateCase, lfz_puzzles, quintet_mates};
use std::io::Write;
use std::process::{Command, Stdio};
use tengen::pattern::PatternBoard;
use tengen::threat::{LineEnd, Solution, Vcf, VcfOptions, check_line, naive_vcf};
use tengen::types::{Color, Pos, Rule, format_line, parse_point_list};

/// The exit code and the lines of stdout, and of stderr.
fn run_with_errors(args: &[&str], input: &str) -> (u8, Vec<String>, Vec<String>) {
    let args: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = tengen::cli::run(&args, &mut input.as_bytes(), &mut out, &mut err).expect("writing to memory");
    let lines = |bytes: Vec<u8>| String::from_utf8(bytes).expect("utf-8").lines().map(str::to_string).collect();
    (code, lines(out), lines(err))
}

/// The exit code and the lines of stdout (nothing may come on stderr).
fn run_in_memory(args: &[&str], input: &str) -> (u8, Vec<String>) {
    let (code, out, err) = run_with_errors(args, input);
    assert!(err.is_empty(), "{args:?}: {err:?}");
    (code, out)
}

/// The moves of a `win …` answer, after checking them from `pb` with `attacker` to move.
fn checked_win(answer: &str, pb: &PatternBoard, attacker: Color, vct: bool) -> (Vec<Pos>, LineEnd) {
    let moves = answer.strip_prefix("win ").unwrap_or_else(|| panic!("expected a win, got '{answer}'"));
    let line = parse_point_list(moves, pb.size()).unwrap_or_else(|e| panic!("'{answer}': {e}"));
    let end = check_line(pb, attacker, &line, vct).unwrap_or_else(|e| panic!("'{answer}' is rejected: {e}"));
    (line, end)
}

/// Attacker fours of a checked line (the final five not counted).
fn fours(line: &[Pos], end: LineEnd) -> u32 {
    let attacker_moves = line.len().div_ceil(2) as u32;
    if end == LineEnd::Five { attacker_moves - 1 } else { attacker_moves }
}

fn side_name(c: Color) -> &'static str {
    if c == Color::Black { "black" } else { "white" }
}

/// A position line with the side to move named.
fn position_line(pb: &PatternBoard, to_move: Color) -> String {
    let stones =
        |c: Color| -> Vec<Pos> { pb.board().moves().iter().filter(|(_, k)| *k == c).map(|&(p, _)| p).collect() };
    format!(
        "{}\t{}\t{}",
        format_line(&stones(Color::Black), 15),
        format_line(&stones(Color::White), 15),
        side_name(to_move)
    )
}

fn mate(name: &str) -> MateCase {
    quintet_mates().into_iter().find(|c| c.name.starts_with(name)).unwrap_or_else(|| panic!("no case {name}"))
}

/// The first line of the lfz084 file, as it stands (side named, answer columns after it), and its position.
fn first_lfz_line() -> (String, PatternBoard, Color) {
    let text = LFZ084.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).expect("a puzzle line");
    let p = &lfz_puzzles()[0];
    let pb = PatternBoard::from_stones(15, Rule::Renju, &p.black, &p.white).expect("puzzle");
    (text.to_string(), pb, p.attacker)
}

/// An lfz084 puzzle with a defender stone on the first move of its VCF, confirmed by `naive_vcf` to have none.
fn position_without_a_vcf() -> (String, PatternBoard, Color) {
    for p in lfz_puzzles() {
        let mut pb = PatternBoard::from_stones(15, Rule::Renju, &p.black, &p.white).expect("puzzle");
        let Solution::Win(line) = Vcf::new(p.attacker, VcfOptions::default()).solve(&mut pb) else { continue };
        let (mut black, mut white) = (p.black.clone(), p.white.clone());
        if p.attacker == Color::Black { &mut white } else { &mut black }.push(line[0]);
        let Ok(mut pb) = PatternBoard::from_stones(15, Rule::Renju, &black, &white) else { continue };
        if naive_vcf(&mut pb, p.attacker).is_none() {
            return (position_line(&pb, p.attacker), pb, p.attacker);
        }
    }
    panic!("no lfz084 puzzle loses its VCF to a defender stone on the first move");
}

#[test]
fn a_vcf_puzzle_gets_a_checked_win() {
    let (text, pb, attacker) = first_lfz_line();
    let (code, lines) = run_in_memory(&["solve"], &format!("{text}\n"));
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 1, "{lines:?}");
    checked_win(&lines[0], &pb, attacker, false);

    // White to move, named in the third field (the counts alone would say Black).
    let case = mate("mate 2 ");
    let pb = case.position();
    let input = position_line(&pb, Color::White);
    let (_, lines) = run_in_memory(&["solve"], &format!("{input}\n"));
    let (line, end) = checked_win(&lines[0], &pb, Color::White, false);
    // quintet's shortest VCF here has five fours.
    assert!(fours(&line, end) >= 5, "{}", lines[0]);
}

#[test]
fn a_position_without_a_vcf_gets_none() {
    let (input, _, _) = position_without_a_vcf();
    for args in [&["solve"][..], &["solve", "--shortest"], &["solve", "--nodes", "10000000"]] {
        let (code, lines) = run_in_memory(args, &format!("{input}\n"));
        assert_eq!((code, lines), (0, vec!["none".to_string()]), "{args:?} on {input}");
    }
    // An empty board has no VCF either, under every rule.
    for rule in ["renju", "freestyle", "standard", "caro"] {
        let (_, lines) = run_in_memory(&["solve", "--rule", rule], "H8\tI9\n");
        assert_eq!(lines, vec!["none"], "{rule}");
    }
}

#[test]
fn vct_puzzles_get_checked_wins() {
    for (name, attacker) in [("mate 6 ", Color::Black), ("mate 7 ", Color::White)] {
        let case = mate(name);
        let pb = case.position();
        let input = position_line(&pb, attacker);
        // No VCF, so the plain `solve` says none; `--vct` finds the threes.
        let (_, lines) = run_in_memory(&["solve"], &format!("{input}\n"));
        assert_eq!(lines, vec!["none"], "{name}");
        let (code, lines) = run_in_memory(&["solve", "--vct", "--ms", "20000"], &format!("{input}\n"));
        assert_eq!(code, 0);
        assert_eq!(lines.len(), 1, "{name}: {lines:?}");
        let (line, _) = checked_win(&lines[0], &pb, attacker, true);
        // A VCT, not a VCF: some attacker move is not a four.
        assert!(check_line(&pb, attacker, &line, false).is_err(), "{name}: {} is a plain VCF", lines[0]);
    }
}

#[test]
fn an_exhausted_budget_gives_unknown() {
    // mate 15 (quintet's bench_vct_small_but_long) needs far more than a handful of nodes or no time at all.
    let case = mate("mate 15 ");
    let input = position_line(&case.position(), Color::Black);
    for args in
        [&["solve", "--vct", "--ms", "0"][..], &["solve", "--vct", "--nodes", "1"], &["solve", "--vct", "--ms=0"]]
    {
        let (code, lines) = run_in_memory(args, &format!("{input}\n{input}\n"));
        assert_eq!((code, lines), (0, vec!["unknown".to_string(), "unknown".to_string()]), "{args:?}");
    }
    // A 70-four VCF (quintet's test_vcf_long) does not fit in one node either.
    let case = mate("mate 3 ");
    let input = position_line(&case.position(), Color::Black);
    let (_, lines) = run_in_memory(&["solve", "--nodes", "1"], &format!("{input}\n"));
    assert_eq!(lines, vec!["unknown"]);
    let (_, lines) = run_in_memory(&["solve"], &format!("{input}\n"));
    checked_win(&lines[0], &case.position(), Color::Black, false);
}

#[test]
fn shortest_gives_the_fewest_fours() {
    // The first puzzle where the first VCF found is longer than the shortest: --shortest must make a difference.
    let mut tried = 0;
    for p in lfz_puzzles() {
        let mut pb = PatternBoard::from_stones(15, Rule::Renju, &p.black, &p.white).expect("puzzle");
        let Solution::Win(first) = Vcf::new(p.attacker, VcfOptions::default()).solve(&mut pb) else {
            panic!("line {}: no VCF", p.number);
        };
        tried += 1;
        if first.len().div_ceil(2) as u32 <= p.fours + 1 {
            continue;
        }
        let input = position_line(&pb, p.attacker);
        let (_, plain) = run_in_memory(&["solve"], &format!("{input}\n"));
        let (line, end) = checked_win(&plain[0], &pb, p.attacker, false);
        assert!(fours(&line, end) > p.fours, "line {}: {}", p.number, plain[0]);
        let (code, short) = run_in_memory(&["solve", "--shortest"], &format!("{input}\n"));
        assert_eq!(code, 0);
        let (line, end) = checked_win(&short[0], &pb, p.attacker, false);
        assert_eq!(fours(&line, end), p.fours, "line {} ({}): {}", p.number, p.name, short[0]);
        return;
    }
    panic!("in {tried} puzzles the first VCF found was always a shortest one");
}

#[test]
fn the_rule_option_decides_overlines() {
    // Black four in a row with a gap to a fifth stone: G8 makes six. A win in freestyle; in renju an overline is
    // forbidden for Black and in standard it is no five, so no VCF there. White's overline wins in renju, not in
    // standard.
    let black_line = "C8,D8,E8,F8,H8\tB8,A1,A15,O1,O15\tblack\n";
    let (_, lines) = run_in_memory(&["solve", "--rule", "freestyle"], black_line);
    assert_eq!(lines, vec!["win G8"]);
    for rule in ["renju", "standard"] {
        let (_, lines) = run_in_memory(&["solve", "--rule", rule], black_line);
        assert_eq!(lines, vec!["none"], "{rule}");
    }
    let white_line = "B8,A1,A15,O1,O15,N8\tC8,D8,E8,F8,H8\twhite\n";
    let (_, lines) = run_in_memory(&["solve"], white_line);
    assert_eq!(lines, vec!["win G8"]);
    let (_, lines) = run_in_memory(&["solve", "--rule", "standard"], white_line);
    assert_eq!(lines, vec!["none"]);
}

#[test]
fn bad_lines_get_errors_naming_the_line_and_the_run_goes_on() {
    let (lfz, pb, attacker) = first_lfz_line();
    let input = format!(
        "# a comment, then a blank line\n\
         \n\
         H8,Z3\tA1\n\
         H8,H16\tA1\n\
         H8,I9\tH8\n\
         H7,H8,H9,H10,H11\tA1,A2,A3,A4\n\
         A1,B1\tO15,N15,M15,L15,K15\n\
         H8\tH9\tpurple\n\
         H8,H9,H10\t\n\
         A1,A3,A5\tH8\n\
         H8 I9\tA1\n\
         {lfz}\n"
    );
    for args in [&["solve"][..], &["solve", "--vct", "--ms", "5000"], &["solve", "--shortest"]] {
        let (code, answers, errors) = run_with_errors(args, &input);
        assert_eq!(code, 1, "{args:?}");
        assert_eq!(answers.len(), 1, "{args:?}: {answers:#?}");
        assert_eq!(errors.len(), 10, "{args:?}: {errors:#?}");
        let mut lines = Vec::new();
        for (i, line) in errors.iter().take(9).enumerate() {
            let head = format!("error: stdin: line {}: ", i + 3);
            lines.push(line.strip_prefix(&head).unwrap_or_else(|| panic!("{args:?}: {line}: not {head}")).to_string());
        }
        assert_eq!(errors[9], "error: 9 inputs skipped, each named above");
        assert!(lines[0].contains("Z3"), "{}", lines[0]);
        assert!(lines[1].contains("H16"), "{}", lines[1]);
        assert!(lines[2].contains("twice") && lines[2].contains("H8"), "{}", lines[2]);
        assert!(lines[3].contains("black already has a five"), "{}", lines[3]);
        assert!(lines[4].contains("white already has a five"), "{}", lines[4]);
        assert!(lines[5].contains("purple"), "{}", lines[5]);
        assert!(lines[6].contains("side to move"), "{}", lines[6]);
        assert!(lines[7].contains("side to move"), "{}", lines[7]);
        // The last line is still answered, with a checked win.
        checked_win(&answers[0], &pb, attacker, args.contains(&"--vct"));
    }
}

#[test]
fn bad_options_exit_with_code_two() {
    for args in [
        &["solve", "--ms", "abc"][..],
        &["solve", "--ms"],
        &["solve", "--nodes", "-5"],
        &["solve", "--rule", "chess"],
        &["solve", "--size", "99"],
        &["solve", "--vct=yes"],
        &["solve", "--depth", "3"],
        &["forbid", "--vct"],
        &["forbid", "--ms", "100"],
    ] {
        let (code, out, lines) = run_with_errors(args, "H8\tI9\n");
        assert_eq!((code, out.len()), (2, 0), "{args:?}");
        // One error line; an unknown option is followed by the command's usage.
        let usage = lines.len() > 1 && lines[0].contains("unknown option") && lines[1].starts_with("usage: ");
        assert!(lines.len() == 1 || usage, "{args:?}: {lines:?}");
        assert!(lines[0].starts_with("error: "), "{args:?}: {}", lines[0]);
    }
    let (_, _, lines) = run_with_errors(&["solve", "--ms", "abc"], "");
    assert!(lines[0].contains("abc"), "{}", lines[0]);
    let (_, _, lines) = run_with_errors(&["forbid", "--vct"], "");
    assert!(lines[0].contains("--vct"), "{}", lines[0]);
}

#[test]
fn the_binary_answers_each_line_on_stdout_and_a_bad_one_on_stderr() {
    let (lfz, pb, attacker) = first_lfz_line();
    let (negative, _, _) = position_without_a_vcf();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
        .args(["solve", "--ms", "10000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-tengen");
    let input = format!("{lfz}\r\nH8,H8\t\r\n{negative}\r\n");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(1), "a line was skipped");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    checked_win(lines[0], &pb, attacker, false);
    assert_eq!(lines[1], "none");
    let err = String::from_utf8(out.stderr).expect("utf-8");
    assert!(err.starts_with("error: stdin: line 2: ") && err.ends_with("error: 1 input skipped, each named above\n"));
}
