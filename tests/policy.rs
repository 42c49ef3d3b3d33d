//! The move policy: `train --policy` learns it from re-scored games and writes a file the engine reads; the
//! shipped one ranks the searched best moves of games it never saw better than today's ordering; the search with it
//! on plays legal moves and keeps the rules.

use std::process::Command;
use tengen::eval::default_weights;
use tengen::eval::network::{Group, embedded_network};
use tengen::eval::policy::{Policy, embedded, for_network, network_checksum};
use tengen::records::{read_training, write_game, write_header};
use tengen::train::policy::{PolicyData, agreement};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");
/// The gauntlet's games re-scored at 200,000 nodes (best moves at every second position).
const RESCORED: &str = "data/games/gauntlet4-pentazen-renju-rescored.tgr";

fn games() -> Vec<tengen::records::GameRecord> {
    let bytes = std::fs::read(RESCORED).expect("the re-scored games");
    read_training(&bytes, &mut |e| panic!("{RESCORED}: {e}")).games
}

#[test]
fn train_policy_writes_a_policy_that_fits_its_network_and_learns() {
    let dir = std::env::temp_dir().join(format!("tengen-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let small = dir.join("small.tgr");
    let mut bytes = Vec::new();
    write_header(&mut bytes).expect("header");
    for g in games().iter().take(80) {
        write_game(&mut bytes, g).expect("game");
    }
    std::fs::write(&small, bytes).expect("write");
    let out_file = dir.join("p.tgpl");
    let out = Command::new(BIN)
        .args(["train", "--policy", "--rule", "renju", "--epochs", "6", "--out"])
        .arg(&out_file)
        .arg(&small)
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("80 renju games with best moves"), "{text}");
    assert!(text.contains("today's ordering (attack and defence values): held-out top-1"), "{text}");
    // The loss falls from the first epoch to the last.
    let loss = |epoch: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with(epoch)).unwrap_or_else(|| panic!("{epoch} in {text}"));
        line.split_whitespace().nth(3).and_then(|v| v.parse().ok()).expect("a loss")
    };
    assert!(loss("epoch   6:") < loss("epoch   0:"), "{text}");
    let policy = Policy::from_bytes(&std::fs::read(&out_file).expect("policy file")).expect("a policy");
    let net = embedded_network(Group::Renju).expect("renju network");
    assert_eq!(policy.group, Group::Renju);
    assert_eq!(policy.network, network_checksum(net));
    assert!(policy.header.iter().any(|l| l.contains("held-out agreement")), "{:?}", policy.header);
    // A file of another kind, and data without best moves: each bad record named on stderr, then the failure.
    let plain = Command::new(BIN)
        .args(["train", "--policy", "--rule", "renju", "tests/data/renju26.tsv"])
        .output()
        .expect("run");
    let (said, err) = (String::from_utf8_lossy(&plain.stdout), String::from_utf8_lossy(&plain.stderr));
    assert_eq!(plain.status.code(), Some(2), "{said}{err}");
    assert!(!said.contains("error") && err.starts_with("error: tests/data/renju26.tsv: record 1: "), "{said}{err}");
    assert!(
        err.ends_with("error: tests/data/renju26.tsv: no renju positions with a best move to learn from\n"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_shipped_policy_ranks_held_out_best_moves_better_than_the_ordering() {
    let policy = embedded(Group::Renju).expect("the build ships a renju policy");
    let net = embedded_network(Group::Renju).expect("renju network");
    assert!(for_network(net).is_some(), "the shipped policy was fitted to the shipped network");
    // The games `train` held out with the shipped command's seed and fraction: its split is by game, 10%, seed 1.
    let games = games();
    let (_, held) = tengen::tune::split(games.len(), 0.1, 1);
    let mut data = PolicyData::new(Group::Renju);
    for &g in &held {
        data.add_game(&games[g], net, default_weights());
    }
    let all: Vec<usize> = (0..data.samples.len()).collect();
    assert!(all.len() > 1_000, "{} held-out positions", all.len());
    let ordering = agreement(&data, &all, |_, c| c.order);
    let learned = agreement(&data, &all, |side, c| policy.score_of(side, &c.x));
    assert!(learned.top1 > ordering.top1 + all.len() / 50, "{learned:?} against {ordering:?}");
    assert!(learned.top3 > ordering.top3, "{learned:?} against {ordering:?}");
}
