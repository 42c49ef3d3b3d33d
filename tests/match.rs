//! The match runner judged with scripted engines (`pbrain-tengen puppet`): each test sets up a position as the
//! opening, lets a puppet play a known move, and checks how the runner scored it. Linux only (process groups,
//! suspension and memory are read through /proc).
#![cfg(target_os = "linux")]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

fn puppet(script: &str) -> String {
    format!("'{BIN}' puppet {script}")
}

/// Runs `match` with two puppets from one opening; returns the output.
fn run_match(name: &str, opening: &str, black: &str, white: &str, extra: &[&str]) -> String {
    let dir = common::scratch("match", name);
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("# {name}\n{opening}\n")).expect("write openings");
    let mut args: Vec<String> = vec![
        "match".into(),
        "--engine".into(),
        puppet(black),
        "--engine".into(),
        puppet(white),
        "--games".into(),
        "1".into(),
        "--openings".into(),
        openings.display().to_string(),
        "--turn-ms".into(),
        "1000".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    run_ok(Command::new(BIN).args(&args))
}

/// Runs a command that must succeed; returns its output.
fn run_ok(command: &mut Command) -> String {
    let out = command.output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "failed: {text}");
    text
}

fn game_line(out: &str) -> &str {
    out.lines().find(|l| l.starts_with("game 1/")).unwrap_or_else(|| panic!("no game line in:\n{out}"))
}

// White's stones far from the action, on column A (never five).
const WHITE_FAR: [&str; 9] = ["a1", "a3", "a5", "a7", "a9", "a11", "a13", "a15", "c1"];

/// Interleaves Black's stones with White's far stones (Black first), `extra_white` more White stones at the end.
fn opening(black: &[&str], white: usize) -> String {
    let mut moves = Vec::new();
    for (i, b) in black.iter().enumerate() {
        moves.push(b.to_string());
        if i < white {
            moves.push(WHITE_FAR[i].to_string());
        }
    }
    moves.join(" ")
}

#[test]
fn black_double_three_double_four_and_overline_lose_in_renju() {
    // J8 makes two open threes: H8-I8-J8 and H10-I9-J8.
    let out = run_match("double-three", &opening(&["h8", "i8", "h10", "i9"], 4), "j8", "o15", &[]);
    let line = game_line(&out);
    assert!(line.contains("0-1 Black played the forbidden point J8 (double-three)"), "{out}");
    assert!(out.ends_with("Score of A vs B: 0 - 1 - 0\n"), "{out}");
    // H8 makes two fours: E8-H8 across and H5-H8 down.
    let out = run_match("double-four", &opening(&["e8", "f8", "g8", "h5", "h6", "h7"], 6), "h8", "o15", &[]);
    assert!(game_line(&out).contains("0-1 Black played the forbidden point H8 (double-four)"), "{out}");
    // G8 fills D8-I8 with six stones.
    let out = run_match("overline", &opening(&["d8", "e8", "f8", "h8", "i8"], 5), "g8", "o15", &[]);
    assert!(game_line(&out).contains("0-1 Black played the forbidden point G8 (overline)"), "{out}");
    // Under freestyle the same overline wins.
    let out =
        run_match("overline-free", &opening(&["d8", "e8", "f8", "h8", "i8"], 5), "g8", "o15", &["--rule", "freestyle"]);
    assert!(game_line(&out).contains("1-0 Black made five (D8 E8 F8 G8 H8 I8)"), "{out}");
}

#[test]
fn a_black_five_that_also_makes_an_overline_wins_in_renju() {
    // G8: an overline D8-I8 across and an exact five G4-G8 down. The five wins.
    let out = run_match(
        "five-and-overline",
        &opening(&["d8", "e8", "f8", "h8", "i8", "g4", "g5", "g6", "g7"], 9),
        "g8",
        "o15",
        &[],
    );
    let line = game_line(&out);
    assert!(line.contains("1-0 Black made five (G8 G7 G6 G5 G4)"), "{out}");
    assert!(out.ends_with("Score of A vs B: 1 - 0 - 0\n"), "{out}");
}

#[test]
fn a_white_overline_wins_in_renju_but_not_in_standard() {
    // Black's stones spaced on column O; White's D8-F8 and H8-I8, White to move.
    let moves = "o1 d8 o3 e8 o5 f8 o7 h8 o9 i8 o11";
    let out = run_match("white-overline", moves, "o15", "g8", &[]);
    assert!(game_line(&out).contains("0-1 White made five (D8 E8 F8 G8 H8 I8)"), "{out}");
    // Standard: the overline is an ordinary move and the game goes on (G8, O13, B2) until Black's script ends.
    let out = run_match("white-overline-standard", moves, "o13", "g8 b2", &["--rule", "standard"]);
    let line = game_line(&out);
    assert!(line.contains("0-1 Black crashed"), "{out}");
    assert!(line.contains(", 3 moves,"), "{out}");
}

#[test]
fn standard_needs_exactly_five() {
    // Black's G8 makes six across (no win in standard), then M8 completes M4-M8.
    let black = opening(&["d8", "e8", "f8", "h8", "i8", "m4", "m5", "m6", "m7"], 9);
    let out = run_match("standard-five", &black, "g8 m8", "n1", &["--rule", "standard"]);
    let line = game_line(&out);
    assert!(line.contains("1-0 Black made five (M8 M7 M6 M5 M4)"), "{out}");
    assert!(line.contains(", 3 moves,"), "{out}");
}

#[test]
fn caro_needs_a_five_not_blocked_at_both_ends() {
    // Black D8-G8 with White on C8 and I8: H8 makes a five blocked at both ends, no win in caro.
    let both = "d8 c8 e8 i8 f8 a1 g8 a3";
    let out = run_match("caro-blocked", both, "h8 crash", "o15", &["--rule", "caro"]);
    let line = game_line(&out);
    assert!(line.contains("0-1 Black crashed"), "{out}");
    assert!(line.contains(", 2 moves,"), "{out}");
    let out = run_match("caro-free", both, "h8", "o15", &["--rule", "freestyle"]);
    assert!(game_line(&out).contains("1-0 Black made five (D8 E8 F8 G8 H8)"), "{out}");
    // Blocked at one end only: it wins.
    let out = run_match("caro-open", "d8 c8 e8 a5 f8 a1 g8 a3", "h8", "o15", &["--rule", "caro"]);
    assert!(game_line(&out).contains("1-0 Black made five (D8 E8 F8 G8 H8)"), "{out}");
}

#[test]
fn occupied_off_board_late_and_crashed_moves_forfeit() {
    let open = opening(&["h8"], 1);
    let out = run_match("occupied", &open, "o15", "h8", &[]);
    assert!(game_line(&out).contains("1-0 White played H8 (7,7), which is occupied"), "{out}");
    let out = run_match("off-board", &open, "o15", "15,3", &[]);
    assert!(game_line(&out).contains("1-0 White played 15,3, off the board"), "{out}");
    let out = run_match("negative", &open, "o15", "-1,0", &[]);
    assert!(game_line(&out).contains("1-0 White played -1,0, off the board"), "{out}");
    let out = run_match("late", &open, "o15", "sleep:900 g8", &["--turn-ms", "100", "--tolerance-ms", "200"]);
    assert!(game_line(&out).contains("1-0 White out of time"), "{out}");
    // Within the tolerance a late answer stands.
    let out = run_match("late-ok", &open, "o15 crash", "sleep:150 g8", &["--turn-ms", "100", "--tolerance-ms", "400"]);
    assert!(game_line(&out).contains("0-1 Black crashed"), "{out}");
    // The match's slowest answers: White's 150 ms sleep is counted, Black answered at once.
    let slowest = out.lines().find_map(|l| l.trim().strip_prefix("slowest answer: A ")).expect("slowest line");
    let ms: Vec<u64> =
        slowest.split(" ms").filter_map(|part| part.trim_start_matches(", B ").trim().parse().ok()).collect();
    assert_eq!(ms.len(), 2, "{out}");
    assert!(ms[0] < 150 && (150..550).contains(&ms[1]), "{out}");
    let out = run_match("crash", &open, "o15", "crash", &[]);
    assert!(game_line(&out).contains("1-0 White crashed"), "{out}");
    // Chatter is skipped as the judge skips it: the move after it counts.
    let out = run_match("chatter", &open, "o15 crash", "say:MESSAGE_thinking say:DEBUG_x say:ERROR_oops g8", &[]);
    assert!(game_line(&out).contains("0-1 Black crashed"), "{out}");
    assert!(out.contains("B said: ERROR oops"), "{out}");
    assert!(!out.contains("thinking"), "{out}");
}

#[test]
fn the_match_clock_runs_out_across_moves() {
    // 300 ms of match time: two answers of 200 ms each spend it; the tolerance is 50 ms.
    let open = opening(&["h8"], 1);
    let out = run_match(
        "match-clock",
        &open,
        "o15 o13 o11",
        "sleep:200 g8 sleep:200 g9",
        &["--turn-ms", "1000", "--match-ms", "300", "--tolerance-ms", "50"],
    );
    let line = game_line(&out);
    assert!(line.contains("1-0 White out of time"), "{out}");
    assert!(line.contains(", 3 moves,"), "{out}");
}

#[test]
fn an_engine_over_the_memory_limit_forfeits() {
    let open = opening(&["h8"], 1);
    let out = run_match("memory", &open, "o15", "memory:96 g8", &["--max-memory", "67108864"]);
    assert!(game_line(&out).contains("1-0 White used too much memory"), "{out}");
    let out = run_match("memory-ok", &open, "o15 crash", "memory:8 g8", &["--max-memory", "67108864"]);
    assert!(game_line(&out).contains("0-1 Black crashed"), "{out}");
}

#[test]
fn a_silent_engine_is_killed_at_the_limit_and_the_match_goes_on() {
    let dir = common::scratch("match", "hang");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "h8 h9\n").expect("write");
    let marker = format!("say:hang-marker-{}", std::process::id());
    let start = Instant::now();
    let text = run_ok(Command::new(BIN).args([
        "match",
        "--engine",
        &puppet(&format!("{marker} hang")),
        "--engine",
        &puppet("a1 b2 c3"),
        "--games",
        "2",
        "--openings",
        &openings.display().to_string(),
        "--turn-ms",
        "200",
        "--tolerance-ms",
        "200",
        "--sgf",
        &dir.display().to_string(),
    ]));
    assert!(start.elapsed() < Duration::from_secs(30));
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(games[0].contains("0-1 Black out of time"), "{text}");
    assert!(games[1].contains("1-0 White out of time"), "{text}");
    assert!(text.ends_with("Score of A vs B: 0 - 2 - 0\n"), "{text}");
    // Both records were written, and no puppet of the silent engine is left running.
    for k in 1..=2 {
        let sgf = std::fs::read_to_string(dir.join(format!("game-{k:04}.sgf"))).expect("sgf");
        assert!(sgf.contains("RE[") && sgf.contains("out of time"), "{sgf}");
    }
    std::thread::sleep(Duration::from_millis(200));
    let needle = marker.trim_start_matches("say:");
    let alive = std::fs::read_dir("/proc")
        .expect("proc")
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|c| String::from_utf8_lossy(c).contains(needle) && !String::from_utf8_lossy(c).contains("match"))
        .count();
    assert_eq!(alive, 0, "a silent engine survived the match");
}

/// Points of a 15×15 board coloured so that no line of four consecutive points holds three stones of one colour:
/// `(x + 2y) / 2` even is Black. Nobody ever gets a three, a four or a five, so Black is never forbidden.
fn draw_fill() -> (Vec<String>, Vec<String>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for y in 0..15usize {
        for x in 0..15usize {
            let name = format!("{}{}", (b'a' + x as u8) as char, 15 - y);
            if ((x + 2 * y) / 2) % 2 == 0 { black.push(name) } else { white.push(name) }
        }
    }
    (black, white)
}

#[test]
fn the_renju_league_draws_at_200_stones() {
    let (black, white) = draw_fill();
    assert!(black.len() >= 100 && white.len() >= 100);
    let open = format!("{} {}", black[0], white[0]);
    let out = run_match("draw-200", &open, &black[1..].join(" "), &white[1..].join(" "), &[]);
    let line = game_line(&out);
    assert!(line.contains("1/2-1/2 draw at 200 stones"), "{out}");
    assert!(line.contains(", 198 moves,"), "{out}");
    assert!(out.ends_with("Score of A vs B: 0 - 0 - 1\n"), "{out}");
    // Freestyle goes on to the full board; the scripts run out first (White's 101st stone), a crash.
    let out =
        run_match("draw-full", &open, &black[1..101].join(" "), &white[1..101].join(" "), &["--rule", "freestyle"]);
    assert!(game_line(&out).contains("0-1 Black crashed"), "{out}");
}

#[test]
fn the_sprt_stops_a_one_sided_match_early() {
    // E1 makes five for both sides (Black's A1-D1, White's E2-E5). A plays it at once with either colour; B plays
    // N8 first, so A wins every game.
    let dir = common::scratch("match", "sprt");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "a1 e2 b1 e3 c1 e4 d1 e5\n").expect("write");
    let text = run_ok(Command::new(BIN).args([
        "match",
        "--engine",
        &puppet("e1"),
        "--engine",
        &puppet("n8 e1"),
        "--games",
        "200",
        "--openings",
        &openings.display().to_string(),
        "--sprt",
        "0,20",
        "--concurrency",
        "2",
    ]));
    let games = text.lines().filter(|l| l.starts_with("game ")).count();
    assert!(games < 40, "{text}");
    assert!(text.contains("H1 accepted"), "{text}");
    assert!(text.contains("Elo +inf (every game won)"), "{text}");
    let score = text.lines().last().unwrap_or("");
    assert_eq!(score, format!("Score of A vs B: {games} - 0 - 0"), "{text}");
}

#[test]
fn three_engines_play_a_round_robin_with_standings() {
    let dir = common::scratch("match", "round-robin");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "a1 e2 b1 e3 c1 e4 d1 e5\n").expect("write");
    let text = run_ok(
        Command::new(BIN)
            .args(["match", "--engine", &puppet("crash"), "--name", "loser", "--engine", &puppet("n8 e1")])
            .args(["--engine", &puppet("e1"), "--name", "winner", "--games", "2", "--concurrency", "3"])
            .args(["--openings", &openings.display().to_string()]),
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 6, "{text}");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()) && l.ends_with('%'))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert_eq!(rows[0][..6], ["1", "winner", "4", "4", "0", "0"], "{text}");
    assert_eq!(rows[1][..6], ["2", "B", "4", "2", "2", "0"], "{text}");
    assert_eq!(rows[2][..6], ["3", "loser", "4", "0", "4", "0"], "{text}");
    for pair in
        ["Score of loser vs B: 0 - 2 - 0", "Score of loser vs winner: 0 - 2 - 0", "Score of B vs winner: 0 - 2 - 0"]
    {
        assert!(text.contains(pair), "{pair} missing:\n{text}");
    }
}

#[test]
fn the_sprt_runs_on_when_the_engines_are_even() {
    // Opening 1 as above (A wins both games); opening 2 has a stone on E1, so A's first move is on a taken point
    // and B wins both. Pairs score 2, 0, 2, 0, …: an even match with a large variance, which 40 games do not decide.
    let dir = common::scratch("match", "sprt-even");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "a1 e2 b1 e3 c1 e4 d1 e5\ne1 o15\n").expect("write");
    let text = run_ok(
        Command::new(BIN)
            .args(["match", "--engine", &puppet("e1"), "--engine", &puppet("n8 e1"), "--games", "40", "--sprt", "0,20"])
            .args(["--openings", &openings.display().to_string(), "--concurrency", "2"]),
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 40, "{text}");
    assert!(text.contains("no decision"), "{text}");
    assert!(text.contains("[10, 0, 0, 0, 10]"), "{text}");
    assert!(text.ends_with("Score of A vs B: 20 - 20 - 0\n"), "{text}");
}

#[test]
fn the_default_openings_are_the_26_of_the_testdata_file() {
    let text = include_str!("data/renju26.tsv");
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("line"))
        .filter_map(|l| l.split('\t').nth(4))
        .collect();
    assert_eq!(listed, tengen::openings::RENJU_OPENINGS.to_vec());
    // The match runner plays them in that order, each twice.
    let text = run_ok(Command::new(BIN).args([
        "match",
        "--engine",
        &puppet("crash"),
        "--engine",
        &puppet("crash"),
        "--games",
        "6",
    ]));
    let used: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("game "))
        .filter_map(|l| l.split("opening ").nth(1)?.split(':').next())
        .collect();
    assert_eq!(used, [listed[0], listed[0], listed[1], listed[1], listed[2], listed[2]], "{text}");
}

#[test]
fn bad_match_options_are_refused_with_an_error_line() {
    for args in [
        vec!["match", "--engine", "x"],
        vec!["match", "--engine", "x", "--engine", "y", "--games", "zero"],
        vec!["match", "--engine", "x", "--engine", "y", "--sprt", "5,1"],
        vec!["match", "--engine", "x", "--engine", "y", "--openings", "/no/such/file"],
    ] {
        let out = Command::new(BIN).args(&args).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty() && String::from_utf8_lossy(&out.stderr).starts_with("error: "), "{args:?}");
    }
    // A bad opening line is reported on stderr with its file and skipped; the good ones are used, and the skipped
    // lines counted with the exit code 1.
    let dir = common::scratch("match", "bad-openings");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "h8 h8\nh8 zz\nh8 h9\n").expect("write");
    let out = Command::new(BIN)
        .args(["match", "--engine", &puppet("crash"), "--engine", &puppet("crash"), "--games", "1"])
        .args(["--openings", &openings.display().to_string()])
        .output()
        .expect("run");
    let (text, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    let named = format!("error: {}: line", openings.display());
    assert!(err.starts_with(&format!("{named} 1: H8 is played twice\n{named} 2:")), "{err}");
    assert!(err.ends_with("error: 2 inputs skipped, each named above\n"), "{err}");
    assert!(text.contains("opening h8 h9: 0-1 Black crashed") && !text.contains("error"), "{text}");
}
