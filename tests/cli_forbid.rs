//! `pbrain-tengen forbid`: one answer line per position line on stdout; a bad line none, but `error: stdin: line N: …`
//! on stderr, the bad lines counted there and the exit code 1.

use std::io::Write;
use std::process::{Command, Stdio};

/// The exit code and the lines of stdout, and of stderr.
fn run_with_errors(args: &[&str], input: &[u8]) -> (u8, Vec<String>, Vec<String>) {
    let args: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = tengen::cli::run(&args, &mut &input[..], &mut out, &mut err).expect("writing to memory");
    let lines = |bytes: Vec<u8>| String::from_utf8(bytes).expect("utf-8").lines().map(str::to_string).collect();
    (code, lines(out), lines(err))
}

/// The exit code and the lines of stdout, or of stderr where stdout is empty.
fn run_in_memory(args: &[&str], input: &[u8]) -> (u8, Vec<String>) {
    let (code, out, err) = run_with_errors(args, input);
    (code, if out.is_empty() { err } else { out })
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
    // The answers alone on stdout; each bad line on stderr with its number, then their count; the exit code 1.
    let (code, answers, errors) = run_with_errors(&["forbid"], input);
    assert_eq!(code, 1);
    assert_eq!(answers, ["H8", "H8"]);
    assert_eq!(errors.len(), 11, "{errors:#?}");
    let mut lines = vec![String::new()];
    for (i, line) in errors.iter().enumerate().take(10) {
        let head = format!("error: stdin: line {}: ", i + 2);
        lines.push(line.strip_prefix(&head).unwrap_or_else(|| panic!("{line}: not {head}")).to_string());
    }
    assert!(lines[1].contains("Z3"), "{}", lines[1]);
    assert!(lines[2].contains("H16"), "{}", lines[2]);
    assert!(lines[3].contains("twice") && lines[3].contains("H8"), "{}", lines[3]);
    assert!(lines[4].contains("twice"), "{}", lines[4]);
    assert!(lines[7].contains("black already has a five"), "{}", lines[7]);
    assert!(lines[8].contains("white already has a five"), "{}", lines[8]);
    assert!(lines[9].contains("purple"), "{}", lines[9]);
    assert_eq!(errors[10], "error: 10 inputs skipped, each named above");
}

#[test]
fn a_black_overline_is_a_five_only_outside_renju() {
    // Six black stones in a row: in renju that is no five (so no error), and extending it at either end is a
    // forbidden overline; in freestyle it is a five, so the position is refused.
    let input = b"C8,D8,E8,F8,G8,H8\tA1,A3,A5,A7,A9\n";
    let (_, renju) = run_in_memory(&["forbid"], input);
    assert_eq!(renju, vec!["B8,I8"]);
    let (code, free) = run_in_memory(&["forbid", "--rule", "freestyle"], input);
    assert_eq!(code, 1);
    assert!(free[0].starts_with("error: stdin: line 1: black already has a five"), "{free:?}");
}

#[test]
fn bad_options_are_reported() {
    let (code, out, lines) = run_with_errors(&["forbid", "--rule", "chess"], b"");
    assert_eq!((code, out), (2, Vec::<String>::new()));
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
fn the_binary_reads_stdin_answers_on_stdout_and_errors_on_stderr() {
    let run = |input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
            .arg("forbid")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pbrain-tengen");
        child.stdin.take().expect("stdin").write_all(input).expect("write");
        let out = child.wait_with_output().expect("wait");
        let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    let (code, out, err) = run(b"H9,G8,J8,H7\tA1,A2\r\nH8\t\r\n");
    assert_eq!((code, out.as_str(), err.as_str()), (Some(0), "H8\n-\n", ""));
    // A bad line: no answer line and no error on stdout; the error on stderr, and the exit code 1.
    let (code, out, err) = run(b"H9,G8,J8,H7\tA1,A2\r\nH8,H8\t\r\nH8\t\r\n");
    assert_eq!((code, out.as_str()), (Some(1), "H8\n-\n"), "{err}");
    let errors: Vec<&str> = err.lines().collect();
    assert!(errors[0].starts_with("error: stdin: line 2: ") && errors[0].contains("twice"), "{err}");
    assert_eq!(errors[1..], ["error: 1 input skipped, each named above"], "{err}");
}
