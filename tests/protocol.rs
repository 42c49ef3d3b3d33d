//! Replays every transcript in `protocol-fixtures/` against an in-memory session: `> line` is sent, `< line` must
//! be the next reply exactly, `<~ pattern` must match it (`\d+` one or more digits, `.*` anything, the rest
//! literal), and `<* pattern` lets lines matching it come before the next expected one (realtime output whose
//! amount depends on the machine's speed). A reply is awaited (the search finished) before it is compared; no
//! reply may be left over.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fs;
use std::path::Path;
use tengen::protocol::Session;

/// Whether `text` matches `pattern` (`\d+`, `.*`, literal characters).
fn matches(pattern: &str, text: &str) -> bool {
    if let Some(rest) = pattern.strip_prefix(r"\d+") {
        let digits = text.chars().take_while(char::is_ascii_digit).count();
        return (1..=digits).rev().any(|n| matches(rest, &text[n..]));
    }
    if let Some(rest) = pattern.strip_prefix(".*") {
        return (0..=text.len()).filter(|&n| text.is_char_boundary(n)).any(|n| matches(rest, &text[n..]));
    }
    match (pattern.chars().next(), text.chars().next()) {
        (None, None) => true,
        (Some(p), Some(t)) if p == t => matches(&pattern[p.len_utf8()..], &text[t.len_utf8()..]),
        _ => false,
    }
}

fn replay(path: &Path) {
    let name = path.display().to_string();
    let text = fs::read_to_string(path).expect("fixture");
    let mut session = Session::new();
    let mut out: Vec<u8> = Vec::new();
    let mut read = 0; // bytes of `out` already taken as lines
    let mut skip: Option<String> = None; // a `<*` pattern: lines matching it may come first
    // The next reply line, waiting for the search when none is there yet.
    let next_line = |session: &mut Session, out: &mut Vec<u8>, read: &mut usize| -> Option<String> {
        if !out[*read..].contains(&b'\n') {
            session.finish(out).expect("io");
        }
        let rest = &out[*read..];
        let end = rest.iter().position(|&b| b == b'\n')?;
        let line = String::from_utf8_lossy(&rest[..end]).into_owned();
        *read += end + 1;
        Some(line)
    };
    for (number, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", number + 1);
        if let Some(sent) = line.strip_prefix("> ").or(line.strip_prefix(">").filter(|s| s.is_empty())) {
            session.line(sent, &mut out).expect("io");
        } else if let Some(pattern) = line.strip_prefix("<* ") {
            skip = Some(pattern.to_string());
        } else if let Some(expected) = line.strip_prefix("<") {
            let (pattern, exact) = match expected.strip_prefix("~ ") {
                Some(p) => (p, false),
                None => (expected.strip_prefix(' ').unwrap_or(expected), true),
            };
            let mut got = next_line(&mut session, &mut out, &mut read);
            while let (Some(g), Some(optional)) = (&got, &skip) {
                let wanted = if exact { g == pattern } else { matches(pattern, g) };
                if wanted || !matches(optional, g) {
                    break;
                }
                got = next_line(&mut session, &mut out, &mut read);
            }
            skip = None;
            let ok = got.as_deref().is_some_and(|g| if exact { g == pattern } else { matches(pattern, g) });
            assert!(ok, "{at}: expected {pattern:?}, got {got:?}");
        } else {
            assert!(line.is_empty() || line.starts_with('#'), "{at}: not a transcript line: {line:?}");
        }
    }
    session.finish(&mut out).expect("io");
    let left = String::from_utf8_lossy(&out[read..]).into_owned();
    assert!(left.is_empty(), "{name}: replies nobody expected: {left:?}");
}

#[test]
fn every_fixture_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-fixtures");
    let mut files: Vec<_> = fs::read_dir(&dir).expect("fixtures").filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    for file in files {
        replay(&file);
    }
}

#[test]
fn the_matcher_matches() {
    assert!(matches(r"\d+,\d+", "7,12"));
    assert!(!matches(r"\d+,\d+", "7,"));
    assert!(!matches(r"\d+,\d+", "OK"));
    assert!(matches("UNKNOWN .*", "UNKNOWN command 'X'"));
    assert!(!matches("OK", "OK "));
}

/// The points of a session's `MESSAGE nbest` lines, and its move line.
fn nbest(lines: &[&str]) -> (Vec<(i32, i32)>, String) {
    let mut session = Session::new();
    let mut out = Vec::new();
    for line in lines {
        session.line(line, &mut out).expect("io");
    }
    session.finish(&mut out).expect("io");
    let text = String::from_utf8(out).expect("utf8");
    let point = |s: &str| {
        let (x, y) = s.split_once(',').expect("x,y");
        (x.parse().expect("x"), y.parse().expect("y"))
    };
    let points = text
        .lines()
        .filter_map(|l| l.strip_prefix("MESSAGE nbest "))
        .map(|l| point(l.split_whitespace().nth(1).expect("point")))
        .collect();
    (points, text.lines().last().unwrap_or_default().to_string())
}

#[test]
fn the_n_best_moves_of_an_empty_or_nearly_full_board_are_distinct_and_never_too_many() {
    // An empty board: the centre first, then distinct points next to it (the corner came second before).
    let (points, played) = nbest(&["START 15", "INFO timeout_turn 200", "INFO rule 4", "YXNBEST 5"]);
    assert_eq!(points.len(), 5, "{points:?}");
    assert_eq!(points[0], (7, 7));
    assert_eq!(played, "7,7");
    for (i, p) in points.iter().enumerate() {
        assert!(!points[..i].contains(p), "{points:?}");
        assert!((p.0 - 7).abs() <= 2 && (p.1 - 7).abs() <= 2, "{points:?}");
    }
    // A 5x5 board with two empty points: two lines at most.
    let mut lines = vec!["START 5", "INFO timeout_turn 200", "YXBOARD"];
    let stones = [
        "0,0,1", "1,0,2", "2,0,1", "3,0,2", "4,0,1", "0,1,2", "1,1,1", "2,1,2", "3,1,1", "4,1,2", "0,2,2", "1,2,1",
        "2,2,2", "3,2,1", "4,2,2", "0,3,1", "1,3,2", "2,3,1", "3,3,2", "4,3,1", "0,4,2", "1,4,1", "2,4,2",
    ];
    lines.extend(stones);
    lines.extend(["DONE", "YXNBEST 5"]);
    let (points, _) = nbest(&lines);
    assert!(points.len() <= 2, "{points:?}");
}

#[test]
fn crlf_lines_and_any_case_work() {
    let mut session = Session::new();
    let mut out = Vec::new();
    for line in ["sTaRt 15\r\n", "\r\n", "info timeout_turn 100\r\n", "BeGiN\r\n"] {
        session.line(line, &mut out).expect("io");
    }
    session.finish(&mut out).expect("io");
    assert_eq!(String::from_utf8(out).expect("utf8"), "OK\n7,7\n");
}

#[test]
fn random_lines_never_panic_or_hang() {
    // A reader fuzz: random bytes and random mixes of real commands with garbage arguments.
    let words = [
        "START",
        "TURN",
        "BOARD",
        "DONE",
        "INFO",
        "BEGIN",
        "TAKEBACK",
        "yxboard",
        "yxstop",
        "RESTART",
        "PLAY",
        "yxrifstep2",
        "yxrifstep5",
        "yxtaraguchistep2 10",
        "yxsoosorvstep6",
        "SWAP2BOARD",
    ];
    let mut rng = StdRng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
    let mut rand = move |n: u64| rng.random_range(0..n);
    for _ in 0..20 {
        let mut session = Session::new();
        let mut out = Vec::new();
        session.line("START 15", &mut out).expect("io");
        session.line("INFO timeout_turn 5", &mut out).expect("io");
        for _ in 0..300 {
            let line = match rand(3) {
                0 => (0..rand(20)).map(|_| char::from(rand(95) as u8 + 32)).collect::<String>(),
                1 => format!("{} {},{}", words[rand(words.len() as u64) as usize], rand(30), rand(30)),
                _ => format!("{},{},{}", rand(17), rand(17), rand(4)),
            };
            session.line(&line, &mut out).expect("io");
            session.finish(&mut out).expect("io");
        }
        assert!(!session.ended());
    }
}

#[test]
fn pondering_searches_between_moves_and_stops_for_the_next_command() {
    let mut session = Session::new();
    let mut out = Vec::new();
    for line in ["START 15", "INFO timeout_turn 100", "INFO pondering 1", "BEGIN"] {
        session.line(line, &mut out).expect("io");
    }
    session.finish(&mut out).expect("io");
    assert_eq!(String::from_utf8_lossy(&out), "OK\n7,7\n");
    assert!(session.is_thinking(), "the engine ponders after its move");
    session.line("TURN 8,8", &mut out).expect("io");
    session.finish(&mut out).expect("io");
    let text = String::from_utf8_lossy(&out).into_owned();
    assert_eq!(text.lines().count(), 3, "one move for TURN, none for the pondering: {text:?}");
    session.line("INFO pondering 0", &mut out).expect("io");
    session.line("TURN 0,0", &mut out).expect("io");
    session.finish(&mut out).expect("io");
    assert!(!session.is_thinking(), "no pondering once it is switched off");
}

#[test]
fn at_end_of_input_every_waiting_request_is_answered() {
    let input = std::io::Cursor::new(b"START 15\nINFO timeout_turn 50\nBEGIN\nTURN 0,0\nTURN 14,14\n".to_vec());
    let mut out = Vec::new();
    tengen::protocol::run(input, &mut out).expect("io");
    let text = String::from_utf8(out).expect("utf8");
    assert_eq!(text.lines().count(), 4, "OK and three moves: {text:?}");
}

#[test]
fn a_block_with_a_bad_line_gets_one_error_at_its_done_and_end_works_inside_a_block() {
    let mut session = Session::new();
    let mut out = Vec::new();
    for line in ["START 15", "BOARD", "7,7,1", "7,x,2", "8,8,1", "DONE", "BOARD", "7,7,2", "END", "8,8,1"] {
        session.line(line, &mut out).expect("io");
    }
    session.finish(&mut out).expect("io");
    assert_eq!(
        String::from_utf8_lossy(&out),
        "OK\nERROR bad board line '7,x,2': x,y,who or DONE expected; the board is unchanged\n"
    );
    assert!(session.ended());
}

#[test]
fn settings_sent_during_a_search_apply_to_the_next_one() {
    let mut session = Session::new();
    let mut out = Vec::new();
    for line in ["START 15", "INFO timeout_turn 300", "BEGIN", "INFO rule 4", "INFO max_depth 1"] {
        session.line(line, &mut out).expect("io");
    }
    session.finish(&mut out).expect("io");
    // Under renju now: Black's double three at G9 (the judge's rule vector) is forbidden.
    for line in
        ["yxboard", "7,7,1", "7,6,2", "8,8,1", "8,6,2", "7,5,1", "8,9,2", "8,4,1", "8,3,2", "done", "yxshowforbid"]
    {
        session.line(line, &mut out).expect("io");
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    assert!(text.ends_with("FORBID 0606.\n"), "{text:?}");
}

#[test]
fn symmetric_moves_are_recognised_for_the_fifth_move_offers() {
    use tengen::engine::Engine;
    use tengen::types::{Color, Pos, Rule};
    let mut engine = Engine::new(15, Rule::Renju).expect("engine");
    engine.play(Pos::new(7, 7), Color::Black).expect("move");
    engine.play(Pos::new(7, 6), Color::White).expect("move");
    // Mirror-symmetric about the column x = 7: (6,8) and (8,8) are the same move.
    let images = engine.equivalent_moves(Pos::new(6, 8));
    assert!(images.contains(&Pos::new(8, 8)) && images.contains(&Pos::new(6, 8)), "{images:?}");
    engine.play(Pos::new(9, 5), Color::Black).expect("move");
    assert_eq!(engine.equivalent_moves(Pos::new(6, 8)), vec![Pos::new(6, 8)], "no symmetry is left");
    // Offers on the symmetric position are pairwise non-symmetric.
    let mut session = Session::new();
    let mut out = Vec::new();
    for line in ["start 15", "info rule 2", "info max_depth 3", "yxsoosorvstep5 3", "7,7", "7,6", "7,9", "7,4", "done"]
    {
        session.line(line, &mut out).expect("io");
    }
    session.finish(&mut out).expect("io");
    let text = String::from_utf8_lossy(&out).into_owned();
    let offers: Vec<(i32, i32)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("MESSAGE SOOSORV MOVE5 "))
        .filter_map(|rest| rest.split_once(' ').and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?))))
        .collect();
    assert_eq!(offers.len(), 3, "{text}");
    for (i, a) in offers.iter().enumerate() {
        for b in &offers[i + 1..] {
            assert!(!(a.1 == b.1 && a.0 + b.0 == 14), "{a:?} and {b:?} mirror each other: {text}");
        }
    }
}

#[test]
fn random_opening_steps_always_get_an_answer_and_never_panic() {
    // Every opening-rule step with random stones (some off the board, taken twice, outside their squares): each
    // gets one answer, MESSAGE lines or a single ERROR, and the session goes on.
    let steps = [
        "yxrifstep2",
        "yxrifstep3",
        "yxrifstep4",
        "yxrifstep5",
        "yxyamaguchistep2 3",
        "yxyamaguchistep4 2",
        "yxsoosorvstep2",
        "yxsoosorvstep4 2",
        "yxsoosorvstep5 3",
        "yxsoosorvstep6",
        "yxtaraguchistep1 10",
        "yxtaraguchistep2 10",
        "yxtaraguchistep3 4",
        "yxtaraguchistep4 2",
    ];
    let mut rng = StdRng::seed_from_u64(0x0bad_5eed);
    let mut session = Session::new();
    let mut out = Vec::new();
    for line in ["START 15", "INFO rule 4", "INFO timeout_turn 20", "INFO max_depth 2"] {
        session.line(line, &mut out).expect("io");
    }
    let mut answered = [0usize; 2]; // refused, decided
    for _ in 0..150 {
        out.clear();
        let step = steps[rng.random_range(0..steps.len())];
        session.line(step, &mut out).expect("io");
        // A legal sequence (a direct opening, a far fourth, far offers) cut at a random length, sometimes with one
        // stone replaced by a random point (anywhere, off the board, or a repeat).
        let mut stones: Vec<(usize, usize)> = vec![(7, 7), (7, 6), (8, 5), (3, 3), (2, 12), (12, 2), (1, 1), (13, 13)];
        stones.truncate(rng.random_range(0..9));
        if !stones.is_empty() && rng.random_bool(0.3) {
            let i = rng.random_range(0..stones.len());
            stones[i] = (rng.random_range(0..17), rng.random_range(0..17));
        }
        for (x, y) in stones {
            session.line(&format!("{x},{y}"), &mut out).expect("io");
        }
        session.line("done", &mut out).expect("io");
        session.finish(&mut out).expect("io");
        let text = String::from_utf8_lossy(&out).into_owned();
        let errors = text.lines().filter(|l| l.starts_with("ERROR")).count();
        let messages = text.lines().filter(|l| l.starts_with("MESSAGE")).count();
        assert!(errors == 1 && messages == 0 || errors == 0 && messages >= 1, "{step}: {text:?}");
        answered[usize::from(messages > 0)] += 1;
    }
    // Both kinds turn up, or the test proves little.
    eprintln!("refused, decided: {answered:?}");
    assert!(answered.iter().all(|&n| n >= 5), "refused, decided: {answered:?}");
}

#[test]
fn a_refused_memory_limit_is_said_once_and_again_only_when_the_least_changes() {
    use tengen::engine::minimum_bytes;
    let mut session = Session::new();
    let mut said = |lines: &[&str]| {
        let mut out = Vec::new();
        for line in lines {
            session.line(line, &mut out).expect("io");
        }
        let text = String::from_utf8(out).expect("utf8");
        text.lines().filter(|l| l.contains("refused")).map(String::from).collect::<Vec<_>>()
    };
    let refusal = |limit: u64, least: u64, threads: usize| {
        format!(
            "MESSAGE max_memory {limit} refused: Tengen needs at least {least} bytes with {threads} thread(s); it runs \
             with that least"
        )
    };
    // The issue's order: the limit, then settings that leave the least as it was.
    let said_first = said(&["START 15", "INFO max_memory 10000000", "INFO thread_num 1", "INFO rule 4"]);
    assert_eq!(said_first, [refusal(10_000_000, minimum_bytes(1, true), 1)]);
    // Another thread count needs more: said again, once.
    assert_eq!(said(&["INFO thread_num 2", "INFO thread_num 2"]), [refusal(10_000_000, minimum_bytes(2, true), 2)]);
    // The classical evaluation needs less.
    assert_eq!(said(&["INFO evaluation classical"]), [refusal(10_000_000, minimum_bytes(2, false), 2)]);
    // No limit, then the same limit again: a new refusal.
    assert!(said(&["INFO max_memory 0", "INFO rule 4"]).is_empty());
    assert_eq!(said(&["INFO max_memory 10000000"]), [refusal(10_000_000, minimum_bytes(2, false), 2)]);
    // A limit at the least is accepted.
    assert!(said(&[&format!("INFO max_memory {}", minimum_bytes(2, false))]).is_empty());
}

#[test]
fn a_lost_position_searched_to_depth_one_still_gets_a_move() {
    // Renju, Black to move: White's straight four at E11 wins whatever Black does, and J9 and L7 are forbidden.
    // The search to depth 1 found every move losing at once and gave none: the engine answered "ERROR no legal
    // move: the board is full" (found by tests/fuzz_protocol.rs, seed 2118574918).
    let stones = [
        "3,11,1", "4,3,2", "7,6,1", "10,8,2", "6,10,1", "9,7,2", "8,10,1", "8,8,2", "10,7,1", "5,10,2", "11,10,1",
        "10,5,2", "11,7,1", "5,11,2", "8,5,1", "4,5,2", "5,4,1", "7,5,2", "6,11,1", "4,6,2", "11,4,1", "12,8,2",
        "8,6,1", "4,12,2",
    ];
    let mut session = Session::new();
    let mut out = Vec::new();
    for line in ["START 15", "INFO rule 4", "INFO max_depth 1", "BOARD"].into_iter().chain(stones).chain(["DONE"]) {
        session.line(line, &mut out).expect("io");
    }
    session.finish(&mut out).expect("io");
    let text = String::from_utf8(out).expect("utf8");
    let answer = text.lines().last().unwrap_or_default();
    let point = answer.split_once(',').and_then(|(x, y)| Some((x.parse::<u8>().ok()?, y.parse::<u8>().ok()?)));
    let (x, y) = point.unwrap_or_else(|| panic!("no move: {text:?}"));
    let taken = stones.iter().any(|s| s.starts_with(&format!("{x},{y},")));
    assert!(x < 15 && y < 15 && !taken && (x, y) != (9, 6) && (x, y) != (11, 8), "{answer} is not legal");
}
