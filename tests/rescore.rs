//! `rescore`: games re-scored by deeper searches keep their moves, gain a score and a best move at the positions
//! searched, and come out the same whatever the thread count and however the run is sharded.

mod common;

use std::path::Path;
use tengen::pattern::{MoveOutcome, PatternBoard};
use tengen::records::{GameRecord, NO_SCORE, read_training, write_game, write_header};
use tengen::types::Color;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

fn read(path: &Path) -> Vec<GameRecord> {
    let bytes = std::fs::read(path).expect("game file");
    read_training(&bytes, &mut |e| panic!("{}: {e}", path.display())).games
}

fn run(args: &[&str]) -> String {
    common::run_ok(BIN, args)
}

#[test]
fn rescored_games_keep_their_moves_and_gain_legal_best_moves_whatever_the_threads_and_shards() {
    let dir = common::scratch("rescore", "games");
    // Five renju games against PentaZen (Tengen's moves scored, PentaZen's not) from the gauntlet's data.
    let source = read(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/games/gauntlet1-pentazen-renju.tgr")));
    let games: Vec<GameRecord> = source.into_iter().take(5).collect();
    let input = dir.join("in.tgr");
    let mut bytes = Vec::new();
    write_header(&mut bytes).expect("write");
    for g in &games {
        write_game(&mut bytes, g).expect("write");
    }
    std::fs::write(&input, bytes).expect("write");
    let input_text = input.display().to_string();
    let path = |name: &str| dir.join(name).display().to_string();

    let one = path("one.tgr");
    let text = run(&["rescore", "--nodes", "3000", "--every", "2", "--out", &one, &input_text]);
    assert!(text.contains("wrote 5 games"), "{text}");
    let two = path("two.tgr");
    run(&["rescore", "--nodes", "3000", "--every", "2", "--concurrency", "2", "--out", &two, &input_text]);
    assert_eq!(std::fs::read(&one).expect("one"), std::fs::read(&two).expect("two"), "threads changed the output");

    // Shards joined in order are the whole run.
    let (s1, s2, joined) = (path("s1.tgr"), path("s2.tgr"), path("joined.tgr"));
    run(&["rescore", "--nodes", "3000", "--every", "2", "--shard", "1/2", "--out", &s1, &input_text]);
    run(&["rescore", "--nodes", "3000", "--every", "2", "--shard", "2/2", "--out", &s2, &input_text]);
    assert_eq!(read(Path::new(&s1)).len() + read(Path::new(&s2)).len(), 5);
    run(&["merge", "--out", &joined, &s1, &s2]);
    assert_eq!(std::fs::read(&one).expect("one"), std::fs::read(&joined).expect("joined"), "shards differ");

    let rescored = read(Path::new(&one));
    assert_eq!(rescored.len(), games.len());
    let mut searched = 0;
    for (old, new) in games.iter().zip(&rescored) {
        assert_eq!(
            (&old.moves, old.outcome, old.opening, &old.players),
            (&new.moves, new.outcome, new.opening, &new.players)
        );
        let (scores, best) = (new.scores.as_ref().expect("scores"), new.best.as_ref().expect("best moves"));
        let old_scores = old.scores.clone().unwrap_or_else(|| vec![NO_SCORE; old.moves.len()]);
        let mut pb = PatternBoard::new(new.size, new.rule).expect("board");
        let mut side = Color::Black;
        for (i, &m) in new.moves.iter().enumerate() {
            let chosen = i >= new.opening && (i - new.opening) % 2 == 0;
            if chosen {
                // A searched position has a score and a move that is legal there (never a forbidden Black point).
                let b = best[i].unwrap_or_else(|| panic!("no best move at ply {i}"));
                assert_ne!(pb.outcome(b, side), MoveOutcome::Illegal, "ply {i}: {b:?} is taken");
                assert!(!matches!(pb.outcome(b, side), MoveOutcome::Forbidden(_)), "ply {i}: {b:?} is forbidden");
                assert_ne!(scores[i], NO_SCORE);
                searched += 1;
            } else {
                // The others keep what they had.
                assert_eq!((scores[i], best[i]), (old_scores[i], None), "ply {i}");
            }
            if pb.outcome(m, side) == MoveOutcome::Win {
                break;
            }
            pb.make(m, side);
            side = side.opponent();
        }
    }
    assert!(searched > 20, "{searched}");
    // Mistakes are named, on stderr.
    let (code, out, err) = common::run_split(BIN, &["rescore", "--out", &path("x.tgr"), "/no/such.tgr"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.starts_with("error: cannot read /no/such.tgr: "), "{err}");
    assert!(!dir.join("x.tgr").exists());
}

#[test]
fn a_rescore_that_cannot_read_or_write_names_the_file_and_fails() {
    let dir = common::scratch("rescore", "failures");
    let gomocup = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gomocup");
    let learning = format!("{gomocup}/renju-2020");
    // An output that is a folder, or in a folder that is not there: the error names it, before any search.
    let folder = dir.display().to_string();
    let (code, out, err) = common::run_split(BIN, &["rescore", "--nodes", "100", "--out", &folder, &learning]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(err.starts_with(&format!("error: {folder}: ")), "{err}");
    let missing = dir.join("missing/x.tgr").display().to_string();
    let (code, out, err) = common::run_split(BIN, &["rescore", "--nodes", "100", "--out", &missing, &learning]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(err.starts_with(&format!("error: {missing}: ")) && err.contains("No such file"), "{err}");
    // A record that cannot be read: named with its file, and with nothing else to re-score, no file and exit 2.
    let corrupt = format!("{gomocup}/bad/renju-2020-5_8_4_2.psq");
    let o = dir.join("o.tgr").display().to_string();
    let (code, out, err) = common::run_split(BIN, &["rescore", "--out", &o, "--nodes", "100", &corrupt]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with(&format!("error: {corrupt}: ")), "{err}");
    assert_eq!(lines.last(), Some(&format!("error: {corrupt}: no game read").as_str()), "{err}");
    assert!(!dir.join("o.tgr").exists(), "no empty game file");
    // With a good file beside it, the good one is re-scored and written; the bad one is counted, and the exit code 1.
    let (code, out, err) = common::run_split(BIN, &["rescore", "--out", &o, "--nodes", "100", &corrupt, &learning]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("wrote 1 games") && !out.contains("error"), "{out}");
    assert!(err.starts_with(&format!("error: {corrupt}: ")), "{err}");
    assert!(err.ends_with("error: 1 input skipped, each named above\n"), "{err}");
    assert_eq!(read(&dir.join("o.tgr")).len(), 1);
}

#[test]
fn gomocup_judging_games_are_never_rescored_into_labels() {
    let dir = common::scratch("rescore", "split");
    let gomocup = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gomocup");
    let (learning, judging) = (format!("{gomocup}/renju-2020"), format!("{gomocup}/renju-2021"));
    let out = dir.join("labels.tgr");
    let out_text = out.display().to_string();
    // Renju 2020 learns (one game here); renju 2021 judges (four): only the learning game is searched and written,
    // and one warning on stderr counts the judging files left out (left out on purpose: the run succeeds).
    let args = ["rescore", "--nodes", "200", "--every", "8", "--out", &out_text, &learning, &judging];
    let (code, said, err) = common::run_split(BIN, &args);
    assert_eq!(code, Some(0), "{said}{err}");
    assert!(err.starts_with("warning: 4 of Gomocup's judging files left out"), "{err}");
    assert!(said.contains("wrote 1 games"), "{said}");
    let written = read(&out);
    assert_eq!(written.len(), 1);
    assert!(written[0].best.as_ref().is_some_and(|b| b.iter().any(Option::is_some)));
    // Given only judging games, there is nothing to re-score: an error, and no file.
    let none = dir.join("none.tgr");
    let (code, said, err) =
        common::run_split(BIN, &["rescore", "--nodes", "200", "--out", &none.display().to_string(), &judging]);
    assert_eq!((code, said.as_str()), (Some(2), ""), "{err}");
    assert!(
        err.contains("judging files left out") && err.ends_with(&format!("error: {judging}: no game read\n")),
        "{err}"
    );
    assert!(!none.exists());
}
