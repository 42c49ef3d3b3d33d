//! Opening rules through the match runner: two engines negotiate the first moves over the protocol before the game
//! is played on, and a step that breaks the rule forfeits. Linux only, as the match runner's tests.
#![cfg(target_os = "linux")]

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

fn run_match(engines: [&str; 2], rule: &str, games: usize) -> String {
    let mut args: Vec<String> = vec!["match".into()];
    for (name, command) in ["A", "B"].iter().zip(engines) {
        args.extend(["--engine".into(), command.to_string(), "--name".into(), name.to_string()]);
    }
    let games = games.to_string();
    args.extend(
        ["--games", &games, "--turn-ms", "150", "--opening-rule", rule, "--rule", "freestyle"].map(String::from),
    );
    let out = Command::new(BIN).args(&args).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    text
}

fn puppet(script: &str) -> String {
    format!("'{BIN}' puppet '{script}'")
}

#[test]
fn every_rule_is_negotiated_between_two_engines_without_a_forfeit() {
    let tengen = format!("'{BIN}' --hash-mb 8");
    for (rule, steps) in [("rif", 5), ("yamaguchi", 5), ("soosorv8", 6), ("taraguchi10", 10), ("swap2", 2)] {
        let text = run_match([&tengen, &tengen], rule, 2);
        let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 2, "{rule}: {text}");
        for line in games {
            assert!(!line.contains("broke the opening rule") && !line.contains("out of time"), "{rule}: {line}");
            let (_, negotiation) = line.split_once(&format!("({rule}: ")).unwrap_or_else(|| panic!("{line}"));
            let taken = negotiation.split(')').next().unwrap_or("").split("; ").count();
            assert!(taken >= steps.min(3), "{rule}: too few steps in {line}");
        }
        assert!(text.contains("Black: "), "{rule}: {text}");
        assert!(!text.contains("forfeits:"), "{rule}: {text}");
    }
}

#[test]
fn a_step_that_breaks_the_rule_forfeits() {
    let tengen = format!("'{BIN}' --hash-mb 8");
    // A third opening stone outside the central 5x5 square.
    let outside = puppet("reply:MESSAGE_RIF_MOVE1_7_7|MESSAGE_RIF_MOVE2_7_6|MESSAGE_RIF_MOVE3_11_11 hang");
    let text = run_match([&outside, &tengen], "rif", 1);
    assert!(text.contains("A (black) vs B (white)") && text.contains("0-1 Black broke the opening rule: "), "{text}");
    assert!(text.contains("outside the central 5x5 square"), "{text}");
    // Fewer offers than RIF asks (two): tentative Black places the opening, White keeps its colour and plays the
    // fourth, then Black offers one fifth move.
    let short = puppet(
        "reply:MESSAGE_RIF_MOVE1_7_7|MESSAGE_RIF_MOVE2_7_6|MESSAGE_RIF_MOVE3_8_5 \
         reply:MESSAGE_RIF_MOVE5_REFRESH|MESSAGE_RIF_MOVE5_3_3|MESSAGE_RIF_MOVE5_DONE hang",
    );
    let keeper = puppet("reply:MESSAGE_RIF_SWAP1_N reply:MESSAGE_RIF_MOVE4_3_11 hang");
    let text = run_match([&short, &keeper], "rif", 1);
    assert!(text.contains("broke the opening rule: 1 given where the rule asks 2"), "{text}");
    // Two offers that mirror each other on a symmetric position: h8 h9 h10 and White's fourth on the same column.
    let symmetric_black = puppet(
        "reply:MESSAGE_RIF_MOVE1_7_7|MESSAGE_RIF_MOVE2_7_6|MESSAGE_RIF_MOVE3_7_5 \
         reply:MESSAGE_RIF_MOVE5_REFRESH|MESSAGE_RIF_MOVE5_6_8|MESSAGE_RIF_MOVE5_8_8|MESSAGE_RIF_MOVE5_DONE hang",
    );
    let keeper = puppet("reply:MESSAGE_RIF_SWAP1_N reply:MESSAGE_RIF_MOVE4_7_11 hang");
    let text = run_match([&symmetric_black, &keeper], "rif", 1);
    assert!(text.contains("are symmetric offers"), "{text}");
    // An engine that answers a step with ERROR forfeits too (a puppet says it for Yamaguchi's opening).
    let refusing = puppet("reply:ERROR_no hang");
    let text = run_match([&refusing, &tengen], "yamaguchi", 1);
    assert!(text.contains("broke the opening rule: answered 'ERROR no'"), "{text}");
}
