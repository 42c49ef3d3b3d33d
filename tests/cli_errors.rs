//! Bad input given as users and scripts give it by accident (issue 95): every command keeps its data on stdout and
//! its errors on stderr, each error names its file, and the exit code tells a script what happened: 0 done, 1 done
//! with inputs skipped (counted on stderr), 2 not done.

mod common;

use common::run_split;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

fn gomocup(rel: &str) -> String {
    format!("{}/tests/data/gomocup/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn positions_keeps_its_lines_on_stdout_and_names_a_bad_file_on_stderr() {
    let (bad, good) = (gomocup("bad/renju-2020-5_8_4_2.psq"), gomocup("renju-2020/0_0_1_1.psq"));
    let (code, out, err) = run_split(BIN, &["positions", &bad, &good]);
    // Every stdout line is a position line (black, white, side to move), the same as for the good file alone.
    assert!(!out.is_empty() && out.lines().all(|l| l.split('\t').count() == 3), "{out}");
    assert_eq!(out, run_split(BIN, &["positions", &good]).1);
    // The bad file on stderr with its path, then the count; exit code 1.
    let errors: Vec<&str> = err.lines().collect();
    assert!(errors[0].starts_with(&format!("error: {bad}: ")) && errors[0].contains("taken point"), "{err}");
    assert_eq!(errors[1..], ["error: 1 input skipped, each named above"], "{err}");
    assert_eq!(code, Some(1));
}

#[test]
fn positions_of_a_file_that_holds_no_game_fails() {
    let dir = common::scratch("cli_errors", "random");
    let random = dir.join("random.psq");
    let mut rng = common::Rng::new(95);
    let bytes: Vec<u8> = (0..4000).map(|_| rng.next() as u8).collect();
    std::fs::write(&random, bytes).expect("write");
    let random = random.display().to_string();
    let (code, out, err) = run_split(BIN, &["positions", &random]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    let errors: Vec<&str> = err.lines().collect();
    assert!(errors[0].starts_with(&format!("error: {random}: ")), "{err}");
    assert_eq!(errors.last(), Some(&format!("error: {random}: no game read").as_str()), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_names_the_collection_that_holds_no_game() {
    let dir = common::scratch("cli_errors", "merge");
    let empty = dir.join("empty.psq");
    std::fs::write(&empty, "").expect("write");
    let empty = empty.display().to_string();
    let (code, out, err) = run_split(BIN, &["merge", "--sgf", "tengen", &empty]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert_eq!(err, format!("error: {empty}: the collection holds no game\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_command_line_is_told_on_stderr_with_exit_code_2() {
    for args in [&["positions", "--bogus", "x.tgr"][..], &["frobnicate"], &["--max-depth"]] {
        let (code, out, err) = run_split(BIN, args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}
