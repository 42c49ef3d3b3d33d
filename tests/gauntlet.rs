//! The gauntlet with scripted engines (`pbrain-tengen puppet`): a folder of opponents, the engine under test, and
//! what the gauntlet prints and writes. Linux only (the opponents are shell scripts, as engine builds are there).
#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use tengen::records::{NO_SCORE, Outcome, read_training};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

/// Black has B2-E2 and White F3-F6, Black to move: F2 makes five for whoever plays it.
const OPENING: &str = "b2 f3 c2 f4 d2 f5 e2 f6";

/// An executable script in `dir` that runs a puppet with `script`.
fn engine(dir: &Path, file: &str, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(file);
    std::fs::write(&path, format!("#!/bin/sh\nexec '{BIN}' puppet {script}\n")).expect("write engine");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// A folder of opponents: `weak` never makes five; `strong` makes it at once as Black (and loses as White, where the
/// engine has made it first); `only_freestyle` plays freestyle only; a text file that is no engine.
fn opponents(dir: &Path) -> PathBuf {
    let folder = dir.join("engines");
    std::fs::create_dir_all(&folder).expect("dir");
    engine(&folder, "pbrain-weak", "a15 a13 a11");
    engine(&folder, "pbrain-strong", "f2");
    engine(&folder, "pbrain-only_freestyle", "a15 a13 a11");
    std::fs::write(folder.join("README.txt"), "not an engine\n").expect("write");
    folder
}

fn gauntlet(dir: &Path, extra: &[&str]) -> (bool, String) {
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("{OPENING}\n")).expect("write openings");
    // Twice the script: a kept process may play both games of a match (when one worker takes both), and a puppet
    // answers from where its script stands.
    let me = format!("'{BIN}' puppet say:MESSAGE_score_25_depth_3 f2 say:MESSAGE_score_25_depth_3 f2");
    let mut args: Vec<String> = vec!["gauntlet".into(), "--engine".into(), me, "--name".into(), "me".into()];
    args.extend(["--openings".into(), openings.display().to_string(), "--turn-ms".into(), "2000".into()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(BIN).args(&args).env_remove("GAUNTLET").output().expect("run");
    // The report where it succeeds, the error where it fails.
    let ok = out.status.success();
    (ok, String::from_utf8_lossy(if ok { &out.stdout } else { &out.stderr }).into_owned())
}

fn table_line<'a>(out: &'a str, opponent: &str, rule: &str) -> &'a str {
    let after = out.split("gauntlet of me:").nth(1).unwrap_or_else(|| panic!("no table in:\n{out}"));
    after
        .lines()
        .find(|l| l.split_whitespace().take(2).eq([opponent, rule]))
        .unwrap_or_else(|| panic!("no line for {opponent} ({rule}) in:\n{out}"))
}

#[test]
fn the_gauntlet_plays_every_opponent_of_its_rule_and_reports_each_colour() {
    let dir = common::scratch("gauntlet", "report");
    let folder = opponents(&dir);
    let out_dir = dir.join("out");
    let (ok, out) =
        gauntlet(&dir, &["--opponents", &folder.display().to_string(), "--out", &out_dir.display().to_string()]);
    assert!(ok, "{out}");
    // Two games per opponent by default (the one opening, colours swapped); the freestyle-only engine sits out.
    let strong = table_line(&out, "strong", "renju");
    assert!(strong.contains("2 games  1-1-0   50.0%"), "{strong}");
    assert!(strong.contains("pairs [0, 0, 1, 0, 0]"), "{strong}");
    assert!(strong.contains("as Black 1-0-0, as White 0-1-0"), "{strong}");
    let weak = table_line(&out, "weak", "renju");
    assert!(weak.contains("2 games  2-0-0  100.0%  Elo +inf"), "{weak}");
    assert!(weak.contains("as Black 1-0-0, as White 1-0-0"), "{weak}");
    assert!(!out.contains("only_freestyle"), "{out}");
    assert!(!out.contains("README"), "{out}");
    // The match's own colour line.
    assert!(out.contains("  me as Black 1-0-0, as White 0-1-0\n"), "{out}");

    // The results file merges into the same score.
    let results = out_dir.join("strong-renju-kept.results");
    let merged = Command::new(BIN).arg("merge").arg(&results).output().expect("merge");
    let merged = String::from_utf8_lossy(&merged.stdout);
    assert!(merged.contains("Score of me vs strong: 1 - 1 - 0"), "{merged}");

    // The games as training records: the players named, the score the engine said on its move, none elsewhere.
    let bytes = std::fs::read(out_dir.join("strong-renju-kept.tgr")).expect("game file");
    let data = read_training(&bytes, &mut |e| panic!("{e}"));
    assert_eq!(data.games.len(), 2);
    // Written as the games end (two at a time): find each by its players.
    let game = |black: &str| {
        let names = Some([black.to_string(), (if black == "me" { "strong" } else { "me" }).to_string()]);
        data.games.iter().find(|g| g.players == names).unwrap_or_else(|| panic!("no game with {black} as Black"))
    };
    let (first, second) = (game("me"), game("strong"));
    assert_eq!(first.outcome, Outcome::BlackWins);
    assert_eq!((first.opening, first.moves.len()), (8, 9));
    let scores = first.scores.as_ref().expect("scores");
    assert_eq!(scores[8], 25);
    assert!(scores[..8].iter().all(|&s| s == NO_SCORE));
    // The opponent, Black, said nothing and won at once.
    assert_eq!(second.outcome, Outcome::BlackWins);
    assert_eq!(second.scores, None);
}

#[test]
fn rules_opponents_and_shards_are_chosen_by_options() {
    let dir = common::scratch("gauntlet", "options");
    let folder = opponents(&dir);
    let folder_text = folder.display().to_string();
    let out_dir = dir.join("out");
    // Freestyle as well: the freestyle-only engine plays there, and only there.
    let (ok, out) = gauntlet(
        &dir,
        &[
            "--opponents",
            &folder_text,
            "--rule",
            "renju,freestyle",
            "--only",
            "only_freestyle,weak",
            "--out",
            &out_dir.display().to_string(),
            "--shard",
            "1/1",
        ],
    );
    assert!(ok, "{out}");
    assert!(table_line(&out, "only_freestyle", "freestyle").contains("2-0-0"), "{out}");
    assert!(table_line(&out, "weak", "freestyle").contains("2-0-0"), "{out}");
    assert!(table_line(&out, "weak", "renju").contains("2-0-0"), "{out}");
    assert!(!out.contains("strong"), "{out}");
    assert!(out_dir.join("weak-freestyle-kept.shard1-1.results").exists());
    assert!(!out_dir.join("only_freestyle-renju-kept.shard1-1.results").exists());

    // GAUNTLET=DIR stands for --opponents.
    let openings = dir.join("openings.txt");
    let out = Command::new(BIN)
        .args(["gauntlet", "--engine", "x", "--only", "weak", "--games", "2", "--turn-ms", "300"])
        .arg("--openings")
        .arg(&openings)
        .env("GAUNTLET", &folder)
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    // The engine 'x' cannot start: it forfeits both games, and the gauntlet still reports.
    assert!(text.contains("weak             renju     kept     2 games  0-2-0"), "{text}");

    // Mistakes are told, naming what is wrong.
    for (args, says) in [
        (vec!["--opponents", "/nonexistent/engines"], "cannot read the gauntlet folder"),
        (vec!["--opponents", &folder_text, "--only", "nobody"], "no opponent 'nobody'"),
        (vec!["--opponents", &folder_text, "--sprt", "0,5"], "--sprt is not a gauntlet option"),
        (vec!["--opponents", &folder_text, "--rule", "caro", "--only", "only_freestyle"], "no opponent plays"),
        (vec!["--opponents", &folder_text, "--engine", "a", "--engine", "b"], "one --engine"),
        (vec!["--opponents", &folder_text, "--bogus", "1"], "unknown option '--bogus'"),
        (vec!["--opponents", &folder_text, "--processes", "warm"], "--processes is fresh, kept or both"),
        // The files after --unseen-in reach the match, which wants random openings for them.
        (vec!["--opponents", &folder_text, "--unseen-in", "a.tgr", "b.tgr"], "--unseen-in goes with --random-openings"),
        (vec![], "--opponents DIR"),
    ] {
        let (ok, out) = gauntlet(&dir, &args);
        assert!(!ok, "{args:?}: {out}");
        assert!(out.contains(says), "{args:?}: {out}");
    }
}

#[test]
fn kept_processes_play_game_after_game_and_both_ways_are_compared() {
    let dir = common::scratch("gauntlet", "kept");
    let folder = dir.join("engines");
    std::fs::create_dir_all(&folder).expect("dir");
    // An opponent that notes each start of its process, then plays F2 (a five as Black) at every request.
    let starts = dir.join("starts.txt");
    let path = folder.join("pbrain-counted");
    let script = format!("#!/bin/sh\necho start >> '{}'\nexec '{BIN}' puppet f2 f2 f2 f2\n", starts.display());
    std::fs::write(&path, script).expect("write engine");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let folder_text = folder.display().to_string();
    let out_dir = dir.join("out");
    let out_text = out_dir.display().to_string();
    let count = || std::fs::read_to_string(&starts).map_or(0, |t| t.lines().count());
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("{OPENING}\n")).expect("write openings");
    // The engine under test has moves enough for every game one process may play.
    let gauntlet = |extra: &[&str]| {
        let me = format!("'{BIN}' puppet f2 f2 f2 f2");
        let out = Command::new(BIN)
            .args(["gauntlet", "--engine", &me, "--name", "me", "--turn-ms", "2000"])
            .arg("--openings")
            .arg(&openings)
            .args(extra)
            .output()
            .expect("run");
        (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    // Four games, one at a time: a fresh process each game, or one kept for all four.
    for (mode, started) in [("fresh", 4), ("kept", 1)] {
        let _ = std::fs::remove_file(&starts);
        let args = ["--opponents", &folder_text, "--games", "4", "--concurrency", "1", "--processes", mode];
        let (ok, out) = gauntlet(&[&args[..], &["--out", &out_text]].concat());
        assert!(ok, "{out}");
        assert_eq!(count(), started, "{mode}: {out}");
        let line = table_line(&out, "counted", "renju");
        assert!(line.contains(&format!("renju     {mode:<5}    4 games  2-2-0")), "{line}");
    }
    let fresh = std::fs::read_to_string(out_dir.join("counted-renju.results")).expect("fresh results");
    let kept = std::fs::read_to_string(out_dir.join("counted-renju-kept.results")).expect("kept results");
    assert!(fresh.contains("\nprocesses fresh\n") && kept.contains("\nprocesses kept\n"), "{fresh}\n{kept}");
    // The two runs do not merge as one, but compare pair by pair.
    let merged = Command::new(BIN)
        .arg("merge")
        .arg(out_dir.join("counted-renju.results"))
        .arg(out_dir.join("counted-renju-kept.results"))
        .output()
        .expect("merge");
    assert!(String::from_utf8_lossy(&merged.stderr).contains("'processes kept' against 'processes fresh'"));
    assert!(merged.stdout.is_empty() && merged.status.code() == Some(2));
    // Both ways in one gauntlet: each row, and the comparison.
    let args =
        ["--opponents", &folder_text, "--games", "2", "--concurrency", "1", "--processes", "both", "--out", &out_text];
    let (ok, out) = gauntlet(&args);
    assert!(ok, "{out}");
    let after = out.split("gauntlet of me:").nth(1).expect("table");
    assert!(after.contains("counted          renju     fresh    2 games  1-1-0"), "{out}");
    assert!(after.contains("counted          renju     kept     2 games  1-1-0"), "{out}");
    assert!(after.contains("me (fresh processes)") && after.contains("me (kept processes)"), "{out}");
    assert!(after.contains("the same in 1"), "{out}");
}

#[test]
fn a_forbidden_move_is_kept_in_the_game_file_and_other_forfeits_are_not() {
    let dir = common::scratch("gauntlet", "forfeits");
    let folder = dir.join("engines");
    std::fs::create_dir_all(&folder).expect("dir");
    // Black to move, with J8 a double three (H8-I8-J8 across, H10-I9-J8 diagonally).
    let opening = "h8 a1 i8 a3 h10 a5 i9 a7";
    engine(&folder, "pbrain-forbidder", "j8");
    engine(&folder, "pbrain-crasher", "crash");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("{opening}\n")).expect("write openings");
    let out_dir = dir.join("out");
    let args = [
        "gauntlet".to_string(),
        "--engine".to_string(),
        format!("'{BIN}' puppet j8"),
        "--name".to_string(),
        "me".to_string(),
        "--openings".to_string(),
        openings.display().to_string(),
        "--opponents".to_string(),
        folder.display().to_string(),
        "--out".to_string(),
        out_dir.display().to_string(),
    ];
    let out = Command::new(BIN).args(&args).env_remove("GAUNTLET").output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let games = |name: &str| {
        let bytes = std::fs::read(out_dir.join(format!("{name}-renju-kept.tgr"))).expect("game file");
        read_training(&bytes, &mut |e| panic!("{e}")).games
    };
    let j8 = tengen::types::Pos::parse("j8", 15).ok();
    // Both Black moves were the forbidden J8: White won each, and the point is kept after the opening's eight moves.
    let forbidden = games("forbidder");
    assert_eq!(forbidden.len(), 2, "{text}");
    for g in &forbidden {
        assert_eq!((g.outcome, g.forbidden_end, g.moves.len(), g.opening), (Outcome::WhiteWins, j8, 8, 8));
    }
    // Against the crasher only the game it won by my forbidden move is a record: its crash is not the position's.
    let crashed = games("crasher");
    assert_eq!(crashed.len(), 1, "{text}");
    assert_eq!(crashed[0].players, Some(["me".to_string(), "crasher".to_string()]));
    assert_eq!(crashed[0].forbidden_end, j8);
}
