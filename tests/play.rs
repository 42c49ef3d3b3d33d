//! `pbrain-tengen play` driven through piped input, as a person at a terminal would type.

fn play(args: &[&str], input: &str) -> String {
    let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    args.insert(0, "play".to_string());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = tengen::cli::run(&args, &mut input.as_bytes(), &mut out, &mut err).expect("io");
    assert_eq!((code, String::from_utf8_lossy(&err).as_ref()), (0, ""));
    String::from_utf8(out).expect("utf8")
}

/// Whether `line` ends with `(…: win rate N%…)`, `(…: win in N…)` or `(…: loss in N…)`.
fn speaks_win_rates(line: &str) -> bool {
    let Some(inside) = line.rsplit_once('(').map(|(_, t)| t) else { return false };
    let number = |t: &str| t.chars().next().is_some_and(|c| c.is_ascii_digit());
    ["win rate ", "win in ", "loss in "].iter().any(|k| {
        inside.split_once(k).is_some_and(|(_, rest)| {
            number(rest)
                && (!k.starts_with("win rate")
                    || rest.split_once('%').is_some_and(|(n, _)| n.parse::<u32>().is_ok_and(|n| n <= 100)))
        })
    })
}

#[test]
fn a_game_on_a_small_board_is_played_to_its_end_by_the_rules() {
    // Every point of a 5x5 board in turn: a taken one gets its reason and the prompt again, so the person always
    // plays the next free point, and the board fills (or someone makes five) before the list runs out.
    let input: String = (1..=5).rev().flat_map(|r| "abcde".chars().map(move |c| format!("{c}{r}\n"))).collect();
    let text = play(&["--rule", "freestyle", "--size", "5", "--ms", "20"], &input);
    let last = text.lines().last().unwrap_or_default();
    assert!(last == "Draw: the board is full." || last.contains(" wins: "), "{text}");
    assert!(text.contains("is taken; choose an empty point."), "{text}");
    let engine_moves = text.lines().filter(|l| l.contains("Tengen plays ")).count();
    assert!((1..=13).contains(&engine_moves), "{engine_moves} engine moves\n{text}");
}

#[test]
fn bad_entries_get_a_reason_and_the_commands_work() {
    let text = play(&["--ms", "50"], "zz\nh8\nh8\nhint\nundo\nundo\nquit\n");
    let lines: Vec<&str> = text.lines().collect();
    let find = |what: &str| lines.iter().position(|l| l.contains(what)).unwrap_or_else(|| panic!("{what}\n{text}"));
    let bad = find("bad coordinate 'zz'");
    let reply = find("Tengen plays ");
    let taken = find("H8 is taken");
    let hint = find("Hint: ");
    let back = find("Taken back.");
    let nothing = find("Nothing to take back");
    let quit = find("Game left unfinished.");
    assert!(bad < reply && reply < taken && taken < hint && hint < back && back < nothing && nothing < quit);
    // After the undo the board is empty again: the last board drawn has no stone.
    let last_board: Vec<&str> = lines[back..].iter().take_while(|l| !l.contains("to move>")).copied().collect();
    assert!(last_board.iter().all(|l| !l.contains('X') && !l.contains('O')), "{last_board:?}");
    // The engine speaks in win rates (or a win or loss in N moves), never in raw scores.
    for what in ["Tengen plays ", "Hint: "] {
        let line = lines[find(what)];
        assert!(speaks_win_rates(line) && !line.contains("score"), "{line}");
    }
    // The engine plays White: its move is drawn in brackets as the last move.
    assert!(lines[reply..taken].iter().any(|l| l.contains("[O]")), "{text}");
}

#[test]
fn the_engine_moves_first_when_the_person_takes_white_and_bad_options_are_refused() {
    let text = play(&["--white", "--ms", "30"], "quit\n");
    assert!(text.contains("you play White"), "{text}");
    assert!(text.contains("Tengen plays H8"), "{text}");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args: Vec<String> = ["play", "--ms", "fast"].iter().map(|s| s.to_string()).collect();
    let code = tengen::cli::run(&args, &mut &b""[..], &mut out, &mut err).expect("io");
    assert_eq!((code, out.len()), (2, 0));
    assert!(String::from_utf8_lossy(&err).starts_with("error: bad time (milliseconds a move) 'fast'"));
}

#[test]
fn a_person_negotiates_the_opening_step_by_step_and_a_breach_is_explained() {
    // RIF as tentative Black: a third stone outside 5x5 is refused with its reason, the opening is then placed,
    // Tengen (White) decides the swap and the fourth, the person offers two fifth moves (one twice first).
    let text = play(&["--opening-rule", "rif", "--ms", "50"], "h8 h9 l12\nh8 h9 j10\nj6 j6\nj6 g9\nquit\n");
    assert!(text.contains("Opening rule rif: you are tentative Black"), "{text}");
    assert!(text.contains("L12 is outside the central 5x5 square"), "{text}");
    if text.contains("Tengen (White) keeps its colour") {
        // Black offers: the same point twice is refused, two different points are taken.
        assert!(text.contains("J6 is offered twice"), "{text}");
        assert!(text.contains("The opening is settled: you play Black."), "{text}");
        assert!(text.contains("Tengen plays "), "{text}");
    } else {
        // Tengen took Black: the person, now White, is asked for the fourth; the script's answers do not fit it.
        assert!(text.contains("Tengen (White) swaps colours") && text.contains("Opening left unfinished."), "{text}");
    }
    let mut out = Vec::new();
    let args: Vec<String> = ["play", "--opening-rule", "fast"].iter().map(|s| s.to_string()).collect();
    assert_eq!(tengen::cli::run(&args, &mut &b""[..], &mut out, &mut Vec::new()).expect("io"), 2);
}
