//! Gomocup's `.psq` records read from real tournament files (tests/data/gomocup, with their source), bad ones named
//! and skipped; and the agreement yardstick run on them: its positions, its results file (resumed, pooled, paired)
//! and a protocol engine measured beside Tengen.

mod common;

use std::path::{Path, PathBuf};
use tengen::problems::Problems;
use tengen::records::gomocup::Split;
use tengen::records::selection::{Selection, select};
use tengen::records::{Outcome, read_games, read_psq_files};
use tengen::types::{Pos, Rule};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gomocup").join(rel)
}

fn run(args: &[&str]) -> String {
    common::run_ok(BIN, args)
}

#[test]
fn real_gomocup_records_are_read_and_bad_ones_named() {
    let (games, problems) = read_psq_files(&[data("")]).expect("folder");
    assert_eq!(games.len(), 7, "{problems:?}");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("fastgame-2021-9_16_15_1.psq: move '0,0,98' is off the board"), "{}", problems[0]);
    assert!(problems[1].contains("renju-2020-5_8_4_2.psq: move 47 (L9) is on a taken point"), "{}", problems[1]);
    let (path, first) = games.iter().find(|(p, _)| p.ends_with("0_0_10_1.psq")).expect("the KataGomo game");
    assert!(path.contains("renju-2021"));
    let r = &first.record;
    assert_eq!((r.rule, r.size, r.outcome, r.opening, r.moves.len()), (Rule::Renju, 15, Outcome::BlackWins, 5, 47));
    assert_eq!(r.players, Some(["KATAGOMO21.R".to_string(), "EMBRYO21.R".to_string()]));
    // `9,14,6082` is the last line: Piskvork's x,y from 1, so Gomocup's (8,13); Black's five (47 moves).
    assert_eq!(r.moves.last(), Some(&Pos::new(8, 13)));
    assert_eq!((first.times[5], first.times[46]), (69_564, 6_082));
    let standard = games.iter().find(|(p, _)| p.contains("standard-2021")).expect("standard game");
    assert_eq!(standard.1.record.rule, Rule::Standard);
    let freestyle = games.iter().find(|(p, _)| p.contains("freestyle-2021")).expect("freestyle game");
    assert_eq!((freestyle.1.record.rule, freestyle.1.record.size), (Rule::Freestyle, 20));
    // The commands that read game files read .psq files and folders of them, each bad file skipped with an
    // `error: PATH: …` line and counted.
    let mut out = Vec::new();
    let mut problems = Problems::new(&mut out);
    let read = read_games(&[data("renju-2021"), data("bad")], &mut problems).expect("read");
    assert_eq!((read.len(), problems.skipped()), (4, 2));
    let said = String::from_utf8_lossy(&out);
    let bad = format!("error: {}/", data("bad").display());
    assert_eq!(said.lines().filter(|l| l.starts_with(&bad)).count(), 2, "{said}");
}

#[test]
fn positions_are_the_strongest_engines_thought_choices_in_the_games_of_the_split() {
    let (games, _) = read_psq_files(&[data("")]).expect("folder");
    let (judge, problems) = select(&games, &Selection::default());
    assert!(problems.is_empty(), "{problems:?}");
    assert!(judge.len() > 40, "{}", judge.len());
    for p in &judge {
        assert!(["KATAGOMO21.R", "EMBRYO21.R", "KATAGOMO21.S", "RAPFI21"].contains(&p.mover.as_str()), "{}", p.mover);
        assert!(p.key.starts_with("renju-2021/") || p.key.starts_with("standard-2021/league1/7_8_0_2"), "{}", p.key);
        let game =
            &games.iter().find(|(path, _)| path.ends_with(p.key.split('#').next().unwrap_or("?"))).expect("game").1;
        let i = p.moves.len();
        assert!(i >= game.record.opening && game.times[i] >= 1000, "{}", p.key);
        assert_eq!(game.record.moves[i], p.played);
    }
    let learn = Selection { split: Some(Split::Learn), ..Selection::default() };
    let (learning, _) = select(&games, &learn);
    assert!(learning.iter().any(|p| p.key.starts_with("renju-2020/")), "{learning:?}");
    assert!(learning.iter().any(|p| p.key.starts_with("freestyle-2021/league1/0_0_1_1.psq#")));
    assert!(learning.iter().all(|p| p.key.starts_with("renju-2020/") || p.key.starts_with("freestyle-2021/")));
    let pentazen = Selection { engines: vec!["PENTAZEN21.15".to_string()], ..Selection::default() };
    let (theirs, _) = select(&games, &pentazen);
    assert!(!theirs.is_empty() && theirs.iter().all(|p| p.key.starts_with("renju-2021/7_2_5_2.psq#")));
}

#[test]
fn an_agreement_run_resumes_pools_and_pairs_and_measures_a_protocol_engine() {
    let dir = common::scratch("agree", "run");
    let results = dir.join("tengen.tsv").display().to_string();
    let games = data("renju-2021").display().to_string();
    let base = ["agree", "--nodes", "3000", "--sample", "6", "--concurrency", "2"];
    let first = run(&[&base[..], &["--out", &results, &games]].concat());
    assert!(first.contains("in this run (0 answered before, 6 to search)"), "{first}");
    assert!(first.contains("agreement: ") && first.contains("(6 positions, 0 unanswered)"), "{first}");
    assert!(first.contains("regret (win-rate points below its own choice): mean"), "{first}");
    let again = run(&[&base[..], &["--out", &results, &games]].concat());
    assert!(again.contains("(6 answered before, 0 to search)"), "{again}");
    let lines = std::fs::read_to_string(&results).expect("results");
    assert_eq!(lines.lines().filter(|l| !l.starts_with('#')).count(), 6);
    // A judge scores the run's moves and the played ones, each alone; a second judging run has nothing left to do.
    let judged = dir.join("judge.tsv").display().to_string();
    let judging = [&base[..], &["--judge", &results, "--out", &judged, &games]].concat();
    let first_judge = run(&judging);
    assert!(first_judge.contains("6 positions, ") && !first_judge.contains(", 0 moves to score"), "{first_judge}");
    assert!(run(&judging).contains("6 positions, 0 moves to score"));
    let with_judge = run(&["agree", "--report", &results, "--judged", &judged, "--games", &games]);
    assert!(with_judge.contains("judged loss (the judge's win-rate points"), "{with_judge}");
    // Two shards pool to the same positions.
    let (s1, s2) = (dir.join("s1.tsv").display().to_string(), dir.join("s2.tsv").display().to_string());
    run(&[&base[..], &["--shard", "1/2", "--out", &s1, &games]].concat());
    run(&[&base[..], &["--shard", "2/2", "--out", &s2, &games]].concat());
    let pooled = run(&["agree", "--report", &s1, &s2]);
    assert!(pooled.contains("(6 positions, 0 unanswered)"), "{pooled}");
    // The same search on the same positions agrees with itself.
    let paired = run(&["agree", "--paired", &results, &format!("{s1},{s2}")]);
    assert!(paired.contains("paired on 6 positions") && paired.contains("A - B agreement, points: 0.00"), "{paired}");
    // Tengen through the protocol (INFO max_node) answers; an engine that never answers is counted as such.
    let outside = dir.join("outside.tsv").display().to_string();
    let text = run(&["agree", "--nodes", "3000", "--sample", "2", "--engine", BIN, "--out", &outside, &games]);
    assert!(text.contains("(2 positions, 0 unanswered)"), "{text}");
    assert!(text.contains("regret: - (no played move scored)"), "{text}");
    let mute = run(&["agree", "--ms", "50", "--sample", "2", "--engine", "cat", &games]);
    assert!(mute.contains("(2 positions, 2 unanswered)"), "{mute}");
    // A run bounded by depth searches every position to that depth (the results' depth column) and says so.
    let shallow = dir.join("depth2.tsv").display().to_string();
    let text = run(&["agree", "--depth", "2", "--sample", "4", "--out", &shallow, &games]);
    assert!(text.contains("(4 positions, 0 unanswered)"), "{text}");
    let lines = std::fs::read_to_string(&shallow).expect("results");
    assert!(lines.lines().next().is_some_and(|l| l.contains("depth 2 a move")), "{lines}");
    let depths: Vec<&str> =
        lines.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split('\t').nth(7)).collect();
    assert!(depths.len() == 4 && depths.iter().all(|d| *d == "2" || *d == "0"), "{depths:?}");
}

#[test]
fn agree_names_its_mistakes() {
    let (code, out, err) = common::run_split(BIN, &["agree", "--nodes", "100"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("error: agree needs Gomocup games"), "{err}");
    let (code, out, err) = common::run_split(BIN, &["agree", "--report", "/no/such.tsv"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("error: cannot read /no/such.tsv"), "{err}");
}

#[test]
fn a_report_on_a_file_that_is_no_results_file_fails_with_each_line_named() {
    // A game record given as a results file: every line is skipped on stderr with its file and number, nothing is
    // reported on stdout, and the exit code says that nothing could be read.
    let game = data("renju-2021/0_0_10_1.psq").display().to_string();
    let (code, out, err) = common::run_split(BIN, &["agree", "--report", &game]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() > 40, "{err}");
    assert!(lines[0].starts_with(&format!("error: {game}: line 1: ")), "{err}");
    assert!(lines[1].starts_with(&format!("error: {game}: line 2: ")), "{err}");
    assert_eq!(lines.last(), Some(&format!("error: {game}: no answer read").as_str()), "{err}");
}

#[test]
fn the_policy_learns_the_moves_played_in_the_learning_games_and_is_judged_on_the_others() {
    let dir = common::scratch("agree", "policy");
    let file = dir.join("gomocup.tgpl").display().to_string();
    let (learning, judging) = (data("renju-2020").display().to_string(), data("renju-2021").display().to_string());
    let args = ["train", "--policy", "--epochs", "2", "--held-out", "0", "--judging", &judging, "--out", &file];
    // The judging games given to learn from are left out, with one warning on stderr that counts them (no failure).
    let (code, said, err) = common::run_split(BIN, &[&args[..], &[&learning, &judging]].concat());
    assert_eq!(code, Some(0), "{said}{err}");
    assert!(err.starts_with("warning: 4 of Gomocup's judging files left out"), "{err}");
    assert!(!said.contains("judging files left out"), "{said}");
    // One learning game: Yixin's and Embryo's thought moves after the opening are its positions.
    let data_line = said.lines().find(|l| l.starts_with("data: ")).expect("data line");
    assert!(data_line.contains("1 renju games with best moves"), "{data_line}");
    let judged = said.lines().find(|l| l.starts_with("judging: ")).expect("judging line");
    for row in ["today's ordering top-1", "the build's policy top-1", "this policy top-1"] {
        assert!(judged.contains(row), "{judged}");
    }
    let header = std::fs::read(&file).expect("policy written");
    assert!(String::from_utf8_lossy(&header).contains("judging: Gomocup's judging games"));
    // The network's trainer never reads them either.
    let mut out = Vec::new();
    let mut problems = Problems::new(&mut out);
    let set = tengen::records::read_training_set(&[data("renju-2021")], &mut problems);
    assert!(set.games.is_empty());
    assert_eq!(problems.skipped(), 0);
    assert!(String::from_utf8_lossy(&out).starts_with("warning: 4 of Gomocup's judging files left out"));
}
