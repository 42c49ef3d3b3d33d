//! A newcomer's first commands: every subcommand answers `--help` and `-h` with its own usage (which says where its
//! errors go and what its exit status tells) and exits 0, an unknown option prints the error and that usage on stderr
//! and exits 2, and `--version` names the version, the commit and the evaluation.

mod common;

use std::process::Command;

/// Every subcommand the overview lists.
const COMMANDS: [&str; 18] = [
    "play",
    "serve",
    "analyze",
    "forbid",
    "solve",
    "bench",
    "match",
    "gauntlet",
    "selfplay",
    "openings",
    "tune",
    "train",
    "spsa",
    "puppet",
    "rescore",
    "agree",
    "positions",
    "help",
];

/// The exit code, then stdout (stderr empty), or for a failing run stderr (stdout empty).
fn run(args: &[&str]) -> (u8, String) {
    common::cli_told(args)
}

#[test]
fn every_subcommand_answers_help_with_its_own_usage() {
    for command in COMMANDS.iter().filter(|&&c| c != "help") {
        for flag in ["--help", "-h"] {
            let (code, text) = run(&[command, flag]);
            assert_eq!(code, 0, "{command} {flag}: {text}");
            assert!(text.starts_with(&format!("usage: pbrain-tengen {command}")), "{command} {flag}: {text}");
            // Where its errors go, and what its exit status tells: 1 when inputs were skipped.
            assert!(text.contains("errors and warnings to stderr"), "{command}: {text}");
            assert!(text.contains("Exit status: 0 done; 1 done, inputs that could not be read skipped"), "{text}");
        }
        // Also after other options, and in `help COMMAND`.
        let (code, text) = run(&[command, "--rule", "renju", "--help"]);
        assert_eq!((code, text.starts_with(&format!("usage: pbrain-tengen {command}"))), (0, true), "{text}");
        let (code, text) = run(&["help", command]);
        assert_eq!((code, text.starts_with(&format!("usage: pbrain-tengen {command}"))), (0, true), "{text}");
    }
    let (code, text) = run(&["--help"]);
    assert_eq!(code, 0);
    for command in COMMANDS.iter().filter(|&&c| c != "help") {
        assert!(text.contains(&format!("\n  {command} ")), "the overview lists {command}: {text}");
    }
}

#[test]
fn an_unknown_option_prints_the_usage_and_exits_2() {
    for command in COMMANDS.iter().filter(|&&c| c != "help") {
        let (code, text) = run(&[command, "--no-such-option"]);
        assert_eq!(code, 2, "{command}: {text}");
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("error: unknown option '--no-such-option'"), "{command}: {text}");
        assert_eq!(
            lines.next().map(|l| l.starts_with(&format!("usage: pbrain-tengen {command}"))),
            Some(true),
            "{command}: {text}"
        );
    }
    // A bad value is an error without the usage; an unknown command lists the commands.
    let (code, text) = run(&["play", "--ms", "fast"]);
    assert_eq!((code, text.lines().count()), (2, 1), "{text}");
    let (code, text) = run(&["plya"]);
    assert_eq!(code, 2);
    assert!(text.starts_with("error: unknown command 'plya'") && text.contains("  play "), "{text}");
}

/// The exit code, then stdout, or for a failing run stderr (stdout empty).
fn binary(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen")).args(args).output().expect("the binary runs");
    if out.status.success() {
        return (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned());
    }
    assert!(out.stdout.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_binary_names_its_version_commit_and_evaluation() {
    for flag in ["--version", "-V", "version"] {
        let (code, text) = binary(&[flag]);
        assert_eq!(code, Some(0), "{flag}: {text}");
        let first = text.lines().next().unwrap_or_default();
        let expected = format!("pbrain-tengen {} (commit ", env!("CARGO_PKG_VERSION"));
        assert!(first.starts_with(&expected) && first.ends_with(')'), "{text}");
        let commit = &first[expected.len()..first.len() - 1];
        assert!(!commit.is_empty(), "{text}");
        // The evaluation: the classical tables' checksum and each embedded network's.
        let eval = text.lines().nth(1).unwrap_or_default();
        assert!(eval.starts_with("evaluation: classical") && eval.contains("renju "), "{text}");
    }
    // The protocol's own options: --help prints them, an unknown one prints them and exits 2.
    let (code, text) = binary(&["--help"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("usage: pbrain-tengen [options]"), "{text}");
    let (code, text) = binary(&["--no-such-option"]);
    assert_eq!(code, Some(2));
    assert!(text.starts_with("error: unknown option '--no-such-option'\nusage: pbrain-tengen [options]"), "{text}");
}
