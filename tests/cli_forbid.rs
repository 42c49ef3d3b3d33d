//! `pbrain-tengen forbid`: one answer line per position line, `error: line N: …` for bad input, exit code 0.

use std::io::Write;
use std::process::{Command, Stdio};

fn run_in_memory(args: &[&str], input: &[u8]) -> (u8, Vec<String>) {
    let args: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
    let mut out = Vec::new();
    let code = tengen::cli::run(&args, &mut &input[..], &mut out).expect("writing to memory");
    let text = String::from_utf8(out).expect("utf-8 output");
    (code, text.lines().map(str::to_string).collect())
}

#[test]
fn answers_each_position_and_skips_comments() {
    // A double three at H8 (the classic cross) and nothing forbidden on a nearly empty board.
    let input = b"# comment\n\nH9,G8,J8,H7\tA1,A2\nH8\t\n";
    let (code, lines) = run_in_memory(&["forbid"], input);
    assert_eq!(code, 0);
    assert_eq!(lines, vec!["H8".to_string(), "-".to_string()]);
}

#[test]
fn other_rules_have_no_forbidden_points() {
    let input = b"H9,G8,J8,H7\tA1,A2\n";
    for rule in ["freestyle", "standard", "caro", "caro8", "1"] {
        let (code, lines) = run_in_memory(&["forbid", "--rule", rule], input);
        assert_eq!((code, lines), (0, vec!["-".to_string()]), "{rule}");
    }
    let (_, lines) = run_in_memory(&["forbid", "--rule=renju"], input);
    assert_eq!(lines, vec!["H8"]);
}

#[test]
fn bad_lines_get_errors_naming_the_line_and_the_run_goes_on() {
    let input: &[u8] = b"H9,G8,J8,H7\tA1,A2\n\
        H8,Z3\tA1\n\
        H8,H16\tA1\n\
        H8,I9\tH8\n\
        H8,H8\t\n\
        H8 I9\tA1\n\
        no tab here\n\
        H7,H8,H9,H10,H11\tA1,A2,A3,A4\n\
        A1,B1\tO15,N15,M15,L15,K15\n\
        H8\tH9\tpurple\n\
        \xff\xfe\tA1\n\
        H9,G8,J8,H7\tA1,A2\n";
    let (code, lines) = run_in_memory(&["forbid"], input);
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 12, "{lines:#?}");
    assert_eq!(lines[0], "H8");
    for (i, line) in lines.iter().enumerate().take(11).skip(1) {
        assert!(line.starts_with(&format!("error: line {}: ", i + 1)), "{line}");
    }
    assert!(lines[1].contains("Z3"), "{}", lines[1]);
    assert!(lines[2].contains("H16"), "{}", lines[2]);
    assert!(lines[3].contains("twice") && lines[3].contains("H8"), "{}", lines[3]);
    assert!(lines[4].contains("twice"), "{}", lines[4]);
    assert!(lines[7].contains("black already has a five"), "{}", lines[7]);
    assert!(lines[8].contains("white already has a five"), "{}", lines[8]);
    assert!(lines[9].contains("purple"), "{}", lines[9]);
    assert_eq!(lines[11], "H8");
}

#[test]
fn a_black_overline_is_a_five_only_outside_renju() {
    // Six black stones in a row: in renju that is no five (so no error), and extending it at either end is a
    // forbidden overline; in freestyle it is a five, so the position is refused.
    let input = b"C8,D8,E8,F8,G8,H8\tA1,A3,A5,A7,A9\n";
    let (_, renju) = run_in_memory(&["forbid"], input);
    assert_eq!(renju, vec!["B8,I8"]);
    let (_, free) = run_in_memory(&["forbid", "--rule", "freestyle"], input);
    assert!(free[0].starts_with("error: line 1: black already has a five"), "{free:?}");
}

#[test]
fn bad_options_are_reported() {
    let (code, lines) = run_in_memory(&["forbid", "--rule", "chess"], b"");
    assert_eq!(code, 2);
    assert!(lines[0].starts_with("error: ") && lines[0].contains("chess"));
    let (code, lines) = run_in_memory(&["forbid", "--size", "40"], b"");
    assert_eq!(code, 2);
    assert!(lines[0].contains("40"));
    let (code, _) = run_in_memory(&["forbid", "--rule"], b"");
    assert_eq!(code, 2);
    let (code, lines) = run_in_memory(&["frobnicate"], b"");
    assert_eq!(code, 2);
    assert!(lines[0].contains("frobnicate"));
}

#[test]
fn larger_boards_use_their_own_row_numbers() {
    // On 20x20 the centre is K11 (x = 10, y = 9 counted from the top).
    let input = b"K12,J11,L11,K10\tA1,A2\n";
    let (code, lines) = run_in_memory(&["forbid", "--size", "20"], input);
    assert_eq!((code, lines), (0, vec!["K11".to_string()]));
}

#[test]
fn the_binary_reads_stdin_and_exits_zero() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
        .arg("forbid")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start pbrain-tengen");
    child.stdin.take().expect("stdin").write_all(b"H9,G8,J8,H7\tA1,A2\r\nH8,H8\t\r\nH8\t\r\n").expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0], "H8");
    assert!(lines[1].starts_with("error: line 2: "));
    assert_eq!(lines[2], "-");
}
