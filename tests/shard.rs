//! Sharded runs put back together: `selfplay --shard` and `match --shard` play exactly their part of the run, and
//! `merge` gives the unsharded run's games and statistics, refusing files that do not belong together.
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

/// Runs the binary in `dir`; returns whether it succeeded, and its stdout where it did (nothing on stderr then), its
/// stderr where it did not (nothing on stdout then).
fn run(dir: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(BIN).current_dir(dir).args(args).output().expect("run");
    let ok = out.status.success();
    let (text, other) = if ok { (&out.stdout, &out.stderr) } else { (&out.stderr, &out.stdout) };
    let text = String::from_utf8_lossy(text).into_owned();
    assert!(other.is_empty(), "{args:?}: {text}{}", String::from_utf8_lossy(other));
    (ok, text)
}

fn run_ok(dir: &Path, args: &[&str]) -> String {
    let (ok, text) = run(dir, args);
    assert!(ok, "{args:?} failed: {text}");
    text
}

/// Runs a command that must fail; returns its `error:` line.
fn run_err(dir: &Path, args: &[&str]) -> String {
    let (ok, text) = run(dir, args);
    assert!(!ok, "{args:?} should have failed: {text}");
    text.lines().find(|l| l.starts_with("error:")).unwrap_or_else(|| panic!("no error line in:\n{text}")).to_string()
}

const SELFPLAY: [&str; 12] = [
    "selfplay",
    "--games",
    "10",
    "--nodes",
    "400",
    "--openings",
    "varied",
    "--random-plies",
    "4",
    "--seed",
    "11",
    "--rule",
];

#[test]
fn selfplay_shards_merged_are_the_unsharded_runs_games() {
    let dir = common::scratch("shard", "selfplay");
    let mut whole: Vec<&str> = SELFPLAY.to_vec();
    whole.extend(["renju", "--concurrency", "2", "--record", "all.tgr"]);
    run_ok(&dir, &whole);
    // Three shards of five game pairs: 1, 2 and 2 pairs; the middle one run with two games at a time.
    for (i, concurrency) in [(1, "1"), (2, "2"), (3, "1")] {
        let (shard, file) = (format!("{i}/3"), format!("s{i}.tgr"));
        let mut args: Vec<&str> = SELFPLAY.to_vec();
        args.extend(["renju", "--concurrency", concurrency, "--record", &file, "--shard", &shard]);
        let out = run_ok(&dir, &args);
        let games = out.lines().filter(|l| l.starts_with("game ")).count();
        assert_eq!(games, [2, 4, 4][i - 1], "shard {shard}:\n{out}");
    }
    let out = run_ok(&dir, &["merge", "--out", "merged.tgr", "s1.tgr", "s2.tgr", "s3.tgr"]);
    assert!(out.contains("merged.tgr: 10 games from 3 files (renju, 15x15)"), "{out}");
    let (merged, all) = (std::fs::read(dir.join("merged.tgr")).expect("merged"), std::fs::read(dir.join("all.tgr")));
    assert_eq!(merged, all.expect("all"), "the shards' games joined differ from the unsharded run's");
    // Shards in another order are the same games in another order, so not the same file.
    run_ok(&dir, &["merge", "--out", "other.tgr", "s2.tgr", "s1.tgr", "s3.tgr"]);
    assert_ne!(std::fs::read(dir.join("other.tgr")).expect("other"), merged);
}

#[test]
fn selfplay_resumed_after_a_stop_writes_the_uninterrupted_runs_file() {
    let dir = common::scratch("shard", "resume");
    let mut whole: Vec<&str> = SELFPLAY.to_vec();
    whole.extend(["renju", "--record", "all.tgr"]);
    run_ok(&dir, &whole);
    let all = std::fs::read(dir.join("all.tgr")).expect("all");
    let ranges = tengen::records::game_ranges(&all).expect("a readable file");
    assert_eq!(ranges.len(), 10);
    // Stopped while writing its fifth game: four complete games and half a record.
    let cut = ranges[4].2.start + ranges[4].2.len() / 2;
    std::fs::write(dir.join("part.tgr"), &all[..cut]).expect("write");
    let mut resumed: Vec<&str> = SELFPLAY.to_vec();
    resumed.extend(["renju", "--record", "part.tgr", "--resume"]);
    let out = run_ok(&dir, &resumed);
    assert!(out.contains("resumed: 4 of the run's 10 games are in part.tgr"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 6, "{out}");
    assert_eq!(
        std::fs::read(dir.join("part.tgr")).expect("part"),
        all,
        "the resumed file differs from the whole run's"
    );
    // A finished run resumed plays nothing more; a file that is not a game file, or none given, is an error.
    let out = run_ok(&dir, &resumed);
    assert!(out.contains("resumed: 10 of the run's 10 games"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("game ")), "{out}");
    assert_eq!(std::fs::read(dir.join("part.tgr")).expect("part"), all);
    // A shard resumed: shard 2 of 3 (games 3-6) stopped inside its second game.
    let mut shard: Vec<&str> = SELFPLAY.to_vec();
    shard.extend(["renju", "--shard", "2/3", "--record", "s2.tgr"]);
    run_ok(&dir, &shard);
    let whole_shard = std::fs::read(dir.join("s2.tgr")).expect("s2");
    let shard_ranges = tengen::records::game_ranges(&whole_shard).expect("a readable file");
    assert_eq!(shard_ranges.len(), 4);
    let cut = shard_ranges[1].2.start + 3;
    std::fs::write(dir.join("s2.tgr"), &whole_shard[..cut]).expect("write");
    shard.push("--resume");
    let out = run_ok(&dir, &shard);
    assert!(out.contains("resumed: 1 of the run's 4 games are in s2.tgr"), "{out}");
    assert_eq!(std::fs::read(dir.join("s2.tgr")).expect("s2"), whole_shard, "the resumed shard differs");
    // The whole run's file is not shard 2's: refused, and left as it was.
    std::fs::copy(dir.join("all.tgr"), dir.join("s2.tgr")).expect("copy");
    let out = Command::new(BIN).current_dir(&dir).args(&shard).output().expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("more than this run's 4: not its file"), "{stderr}");
    assert_eq!(std::fs::read(dir.join("s2.tgr")).expect("s2"), all);
    // A damaged record inside the file (not a torn last one) is an error, and nothing after it is cut off.
    let mut damaged = all.clone();
    damaged[ranges[2].2.start] = 0;
    std::fs::write(dir.join("bad.tgr"), &damaged).expect("write");
    let mut bad: Vec<&str> = SELFPLAY.to_vec();
    bad.extend(["renju", "--record", "bad.tgr", "--resume"]);
    let out = Command::new(BIN).current_dir(&dir).args(&bad).output().expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("bad.tgr: record 3 at byte"), "{stderr}");
    assert_eq!(std::fs::read(dir.join("bad.tgr")).expect("bad"), damaged);
    std::fs::write(dir.join("text.tgr"), "not games").expect("write");
    let mut other: Vec<&str> = SELFPLAY.to_vec();
    other.extend(["renju", "--record", "text.tgr", "--resume"]);
    let mut bare: Vec<&str> = SELFPLAY.to_vec();
    bare.extend(["renju", "--resume"]);
    for (args, why) in [(other, "text.tgr: not a Tengen game file"), (bare, "--resume goes on with the game file")] {
        let (ok, text) = run(&dir, &args);
        assert!(!ok && text.starts_with("error: ") && text.contains(why), "{args:?}: {text}");
    }
    assert_eq!(std::fs::read(dir.join("text.tgr")).expect("text"), b"not games", "a file not read is left as it was");
}

#[test]
fn game_files_of_another_rule_or_damaged_are_not_mixed_in() {
    let dir = common::scratch("shard", "games");
    for (rule, file) in [("renju", "renju.tgr"), ("freestyle", "free.tgr")] {
        let mut args: Vec<&str> = SELFPLAY.to_vec();
        args[2] = "2";
        args.extend([rule, "--record", file]);
        run_ok(&dir, &args);
    }
    let e = run_err(&dir, &["merge", "--out", "x.tgr", "renju.tgr", "free.tgr"]);
    assert!(e.contains("free.tgr: record 1 is freestyle") && e.contains("renju.tgr starts with renju"), "{e}");
    let bytes = std::fs::read(dir.join("renju.tgr")).expect("file");
    std::fs::write(dir.join("cut.tgr"), &bytes[..bytes.len() - 3]).expect("write");
    let e = run_err(&dir, &["merge", "--out", "x.tgr", "renju.tgr", "cut.tgr"]);
    assert!(e.contains("cut.tgr: record 2 at byte") && e.contains("truncated"), "{e}");
    let mut bad = bytes.clone();
    bad[5] = 77; // record 1's rule
    std::fs::write(dir.join("bad.tgr"), &bad).expect("write");
    let e = run_err(&dir, &["merge", "--out", "x.tgr", "bad.tgr"]);
    assert!(e.contains("bad.tgr: record 1 at byte 4: unknown rule 77"), "{e}");
    assert!(!dir.join("x.tgr").exists(), "nothing is written when a file is refused");
    std::fs::write(dir.join("text.tgr"), "hello\n").expect("write");
    let e = run_err(&dir, &["merge", "--out", "x.tgr", "text.tgr"]);
    assert!(e.contains("text.tgr: not a Tengen game file"), "{e}");
    let e = run_err(&dir, &["merge", "--out", "renju.tgr", "renju.tgr"]);
    assert!(e.contains("one of the files to merge"), "{e}");
    assert_eq!(std::fs::read(dir.join("renju.tgr")).expect("file"), bytes, "an input is never overwritten");
}

/// The match every test below shards: two fixed-depth engines without the book (whose choice among its moves is
/// drawn at random), so games do not depend on timing or chance; four openings.
fn match_args(dir: &Path, extra: &[&str]) -> Vec<String> {
    std::fs::write(dir.join("openings.txt"), "h8 h9 h10\nh8 h9 i10\nh8 h9 j10\nh8 h9 i9\n").expect("openings");
    let mut args: Vec<String> = [
        "match",
        "--engine",
        &format!("'{BIN}' --max-depth 2 --no-book"),
        "--name",
        "deep",
        "--engine",
        &format!("'{BIN}' --max-depth 1 --no-book"),
        "--name",
        "shallow",
        "--games",
        "8",
        "--openings",
        "openings.txt",
        "--turn-ms",
        "5000",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn run_match(dir: &Path, extra: &[&str]) -> String {
    let args = match_args(dir, extra);
    run_ok(dir, &args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The report after the games, without the slowest-answer line (a time, not a result).
fn report(out: &str) -> Vec<String> {
    let from = out.lines().position(|l| l.ends_with("games played")).unwrap_or_else(|| panic!("no report:\n{out}"));
    out.lines().skip(from).filter(|l| !l.contains("slowest answer")).map(str::to_string).collect()
}

/// A results file's game lines without their answer times.
fn game_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {}", f[..6].join(" "), f[8])
        })
        .collect()
}

#[test]
fn match_shards_merged_report_what_one_run_reports() {
    let dir = common::scratch("shard", "match");
    let whole = run_match(&dir, &["--results", "all.res", "--concurrency", "2"]);
    let mut shard_lines = Vec::new();
    for i in 1..=3 {
        let (shard, file) = (format!("{i}/3"), format!("s{i}.res"));
        let out = run_match(&dir, &["--shard", &shard, "--results", &file]);
        // Shard 2 of 3 plays opening pair 1 of 0 to 3 (shard 3 plays pairs 2 and 3): games 3 and 4, numbered as in
        // the whole run.
        if i == 2 {
            let rounds: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).map(|l| &l[..8]).collect();
            assert_eq!(rounds, ["game 3/8", "game 4/8"], "{out}");
        }
        shard_lines.extend(game_lines(&std::fs::read_to_string(dir.join(&file)).expect("results")));
    }
    let merged = run_ok(&dir, &["merge", "s3.res", "s1.res", "s2.res"]);
    assert!(merged.starts_with("merged 3 results files: 8 of the run's 8 games\n"), "{merged}");
    assert_eq!(report(&merged), report(&whole), "merged:\n{merged}\nwhole:\n{whole}");
    assert!(merged.contains("pentanomial") && merged.contains("Score of deep vs shallow"), "{merged}");
    // Game for game: the shards played the unsharded run's games with its results.
    let mut all = game_lines(&std::fs::read_to_string(dir.join("all.res")).expect("results"));
    all.sort();
    shard_lines.sort();
    assert_eq!(shard_lines, all);
    // The unsharded run's own file merges to its own report.
    assert_eq!(report(&run_ok(&dir, &["merge", "all.res"])), report(&whole));
    // With --by-opening the same report, then each opening's games as the game lines give them: the first engine
    // ("deep") as Black and as White, and the opening's pair (games 2k and 2k + 1) won, even or lost.
    let by = run_ok(&dir, &["merge", "--by-opening", "s2.res", "s1.res", "s3.res"]);
    let by_report = report(&by);
    let (plain, extra) = by_report.split_at(report(&whole).len());
    assert_eq!(plain, report(&whole), "{by}");
    let mut rows =
        vec!["by opening, deep vs shallow (pairs: won both ways or one and a draw, even, lost):".to_string()];
    let mut black_won = 0;
    for (k, opening) in ["h8 h9 h10", "h8 h9 i10", "h8 h9 j10", "h8 h9 i9"].iter().enumerate() {
        let (mut as_colour, mut pair) = ([[0; 3]; 2], 0);
        for f in all.iter().map(|l| l.split_whitespace().collect::<Vec<_>>()) {
            let (game, points, winner) =
                (f[3].parse::<usize>().expect("game"), f[4].parse::<usize>().expect("points"), f[6]);
            if game / 2 != k {
                continue;
            }
            let deep_black = match winner {
                "draw" => game % 2 == 0,
                w => (w == "black") == (points == 2),
            };
            as_colour[usize::from(!deep_black)][[1, 2, 0][points]] += 1;
            pair += points;
            black_won += usize::from(winner == "black");
        }
        let [[bw, bl, bd], [ww, wl, wd]] = as_colour;
        let pairs = [usize::from(pair >= 3), usize::from(pair == 2), usize::from(pair <= 1)];
        rows.push(format!(
            "  {opening:<9}  as Black {bw}-{bl}-{bd}, as White {ww}-{wl}-{wd}, pairs {}-{}-{}",
            pairs[0], pairs[1], pairs[2]
        ));
    }
    assert_eq!(extra[..5], rows[..], "{by}");
    assert!(extra[5].starts_with(&format!("  Black won {black_won} of 8 games, ")), "{by}");
    // A missing shard is said, and the figures are for the games there are.
    let part = run_ok(&dir, &["merge", "s1.res", "s3.res"]);
    assert!(part.contains("6 of the run's 8 games") && part.contains("shard 2/3 is missing"), "{part}");
    // A run compared with itself pair by pair: every pair the same, no difference; its shards, joined by commas,
    // pair as the whole run; a lone shard pairs over its own pairs and is named as part of a run; a lone file is refused.
    let same = run_ok(&dir, &["merge", "--paired", "all.res", "all.res"]);
    assert!(same.contains("4 opening pairs in both") && same.contains("the same in 4"), "{same}");
    assert!(same.contains("deep minus deep: +0.000 +/- 0.000 points a pair"), "{same}");
    let sharded = run_ok(&dir, &["merge", "--paired", "s1.res,s2.res,s3.res", "all.res"]);
    let figures = |t: &str| t.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(figures(&sharded), figures(&same), "{sharded}");
    let part = run_ok(&dir, &["merge", "--paired", "all.res", "s1.res"]);
    assert!(part.contains("its shards 2/3, 3/3 are not given") && !part.contains("4 opening pairs"), "{part}");
    assert!(run_err(&dir, &["merge", "--paired", "s1.res,s1.res", "all.res"]).contains("given twice"));
    assert!(run_err(&dir, &["merge", "--paired", "all.res"]).contains("merge --paired A.results B.results"));
}

#[test]
fn merge_refuses_results_that_do_not_belong_together() {
    let dir = common::scratch("shard", "refuse");
    run_match(&dir, &["--shard", "1/2", "--results", "a.res"]);
    let text = std::fs::read_to_string(dir.join("a.res")).expect("results");
    let write = |name: &str, t: &str| std::fs::write(dir.join(name), t).expect("write");
    write("slower.res", &text.replace("turn-ms 5000", "turn-ms 500").replace("shard 1/2", "shard 2/2"));
    let e = run_err(&dir, &["merge", "a.res", "slower.res"]);
    assert!(e.contains("slower.res: its settings differ from a.res's: 'turn-ms 500' against 'turn-ms 5000'"), "{e}");
    let e = run_err(&dir, &["merge", "a.res", "a.res"]);
    assert!(e.contains("shard 1/2 is given twice"), "{e}");
    write("other-split.res", &text.replace("shard 1/2", "shard 2/3"));
    let e = run_err(&dir, &["merge", "a.res", "other-split.res"]);
    assert!(e.contains("shard 2/3 of a run in 3 shards"), "{e}");
    // A shard that stopped before its end line, and one cut inside its settings.
    let unfinished: String = text.lines().filter(|l| !l.starts_with("end ")).map(|l| format!("{l}\n")).collect();
    write("unfinished.res", &unfinished);
    let e = run_err(&dir, &["merge", "unfinished.res"]);
    assert!(e.contains("unfinished.res: incomplete: no end line after 4 games"), "{e}");
    write("cut.res", &text[..text.find("shard").expect("shard line")]);
    assert!(run_err(&dir, &["merge", "cut.res"]).contains("cut.res: truncated"));
    // A damaged game line is named by its line.
    let damaged = text.replacen("game 1 0 0 ", "game 1 0 zero ", 1);
    write("damaged.res", &damaged);
    let line = damaged.lines().position(|l| l.starts_with("game 1 ")).expect("game 1") + 1;
    let e = run_err(&dir, &["merge", "damaged.res"]);
    assert!(e.contains(&format!("damaged.res: line {line}: expected a game line")), "{e}");
    // A game of the other shard's block.
    write("foreign.res", &text.replacen("game 1 0 0 ", "game 7 0 6 ", 1));
    assert!(run_err(&dir, &["merge", "foreign.res"]).contains("game 7 is not one of shard 1/2's games"));
    write("notes.txt", "hello\n");
    assert!(run_err(&dir, &["merge", "notes.txt"]).contains("notes.txt: not a match results file"));
    assert!(run_err(&dir, &["merge"]).contains("merge needs files"));
    assert!(run_err(&dir, &["match", "--engine", "a", "--engine", "b", "--shard", "3/2"]).contains("I/N"));
}

/// The numbers inside the first `[...]` of the line that starts with `prefix` (trimmed).
fn bracketed(out: &str, prefix: &str) -> Vec<usize> {
    let line = out.lines().map(str::trim).find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}:\n{out}"));
    let inner = &line[line.find('[').expect("[") + 1..line.find(']').expect("]")];
    inner.split(", ").map(|n| n.parse().expect("a count")).collect()
}

#[test]
fn whole_runs_pool_into_one_report_with_their_pairs_kept() {
    let dir = common::scratch("shard", "runs");
    run_match(&dir, &["--results", "all.res", "--concurrency", "2"]);
    let text = std::fs::read_to_string(dir.join("all.res")).expect("results");
    let write = |name: &str, t: &str| std::fs::write(dir.join(name), t).expect("write");
    // The same games again under another name of the first engine: a second run of the same build.
    write("again.res", &text.replacen("engine deep\n", "engine deep-again\n", 1));
    let one = run_ok(&dir, &["merge", "all.res"]);
    let both = run_ok(&dir, &["merge", "--runs", "all.res", "again.res"]);
    assert!(both.starts_with("pooled 2 runs: 16 games, the engines named as in all.res\n"), "{both}");
    let score = |out: &str| -> Vec<usize> {
        let line = out.lines().find(|l| l.starts_with("Score of deep vs shallow: ")).unwrap_or_else(|| panic!("{out}"));
        line.rsplit(": ").next().expect("score").split(" - ").map(|n| n.parse().expect("count")).collect()
    };
    assert_eq!(score(&both), score(&one).iter().map(|n| 2 * n).collect::<Vec<_>>(), "{both}");
    // Each run's pairs stay pairs: twice the pentanomial counts, not pairs made across the runs.
    let penta = bracketed(&one, "pentanomial");
    assert_eq!(bracketed(&both, "pentanomial"), penta.iter().map(|n| 2 * n).collect::<Vec<_>>(), "{both}");
    assert_eq!(penta.iter().sum::<usize>(), 4);
    // By opening, every count doubles too.
    let rows = |out: &str| -> Vec<Vec<usize>> {
        out.lines()
            .filter_map(|l| l.split_once("as Black "))
            .filter(|(head, _)| head.trim_start().starts_with("h8"))
            .map(|(_, counts)| {
                counts
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|n| !n.is_empty())
                    .map(|n| n.parse().expect("count"))
                    .collect()
            })
            .collect()
    };
    let by_one = rows(&run_ok(&dir, &["merge", "--by-opening", "all.res"]));
    let by_both = rows(&run_ok(&dir, &["merge", "--runs", "--by-opening", "all.res", "again.res"]));
    assert_eq!(by_one.len(), 4);
    let doubled: Vec<Vec<usize>> = by_one.iter().map(|r| r.iter().map(|n| 2 * n).collect()).collect();
    assert_eq!(by_both, doubled);
    // A run with a game missing (its first pair half played) pools with another such run without pairing their
    // lone games: three whole pairs each, not seven pairs.
    let part: String = text
        .lines()
        .filter(|l| !l.starts_with("game 2 "))
        .map(|l| if l.starts_with("end ") { "end 7\n".to_string() } else { format!("{l}\n") })
        .collect();
    write("part.res", &part);
    write("part-again.res", &part.replacen("engine deep\n", "engine deep-again\n", 1));
    let halves = run_ok(&dir, &["merge", "--runs", "part.res", "part-again.res"]);
    assert!(halves.starts_with("pooled 2 runs: 14 games"), "{halves}");
    assert_eq!(bracketed(&halves, "pentanomial").iter().sum::<usize>(), 6, "{halves}");
    // Refused: a shard, another opponent, another time, the same run twice, --paired beside it, game files.
    run_match(&dir, &["--shard", "1/2", "--results", "half.res"]);
    assert!(run_err(&dir, &["merge", "--runs", "all.res", "half.res"]).contains("--runs pools whole runs"));
    write("rival.res", &text.replacen("engine shallow\n", "engine rival\n", 1));
    let e = run_err(&dir, &["merge", "--runs", "all.res", "rival.res"]);
    assert!(e.contains("rival.res: not the same match as all.res but for the first engine: 'engine rival'"), "{e}");
    write("slower.res", &text.replace("turn-ms 5000", "turn-ms 500"));
    assert!(run_err(&dir, &["merge", "--runs", "all.res", "slower.res"]).contains("'turn-ms 500' against"));
    assert!(run_err(&dir, &["merge", "--runs", "all.res", "all.res"]).contains("the same run given twice"));
    assert!(run_err(&dir, &["merge", "--runs", "--paired", "all.res", "again.res"]).contains("one or the other"));
    assert!(run_err(&dir, &["merge", "--runs", "--out", "x.res", "all.res"]).contains("no --out"));
    let first_game = text.lines().find(|l| l.starts_with("game 1 ")).expect("game 1");
    let doubled = text.replacen(first_game, &format!("{first_game}\n{first_game}"), 1).replace("end 8", "end 9");
    write("doubled.res", &doubled);
    assert!(run_err(&dir, &["merge", "--runs", "doubled.res"]).contains("game 1 is there twice"));
}
