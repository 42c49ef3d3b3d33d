//! The opening book: `book build` grows a book and resumes it, and a protocol session plays the book's move at
//! once while the position is in the book, searches when it is not or when the book is turned off.

mod common;

use std::process::Command;
use tengen::book::{Book, BookMove};
use tengen::pattern::{MoveOutcome, PatternBoard};
use tengen::protocol::{PRESET_BOOK, Session};
use tengen::records::replay_moves;
use tengen::types::{Color, Pos, Rule};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-book-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The exit code, then stdout, or for a failing run stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    common::run_told(BIN, args)
}

#[test]
fn a_book_is_built_from_the_openings_and_a_second_run_grows_it() {
    let dir = scratch("build");
    let file = dir.join("renju.book");
    let path = file.to_str().expect("path");
    let (code, text) = run(&["book", "build", "--out", path, "--nodes", "1500", "--threads", "1", "--searches", "34"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("start H8 H9 H10") && text.contains("expanded "), "{text}");
    let first = Book::load(path).expect("a book");
    // The 26 openings, then four steps (two searches each), each adding a position unless it reached one already.
    assert!((27..=30).contains(&first.len()), "{text}");
    let (code, text) = run(&["book", "build", "--out", path, "--nodes", "1500", "--threads", "1", "--searches", "6"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("start "), "the openings are not searched again: {text}");
    let second = Book::load(path).expect("a book");
    assert!(second.len() > first.len() && second.len() <= first.len() + 3);
    assert!(first.entries.keys().all(|k| second.entries.contains_key(k)));
    let (code, text) = run(&["book", "show", path, "h8", "h9", "h10"]);
    assert_eq!(code, Some(0));
    assert!(text.starts_with(&format!("{} positions; here: ", second.len())), "{text}");
    // A book written with each move's own search score (as before scores were backed up): a run with nothing to
    // do writes it back with J8 scored by what Black's answer found (-773), below I8, and the file as read.
    let raw = dir.join("raw.book");
    let raw_path = raw.to_str().expect("path");
    std::fs::write(
        &raw,
        "tengen-book 1\nrule renju\nsize 15\nH8,I10\tH9\tJ8 -490 15,I8 -550 15\nH8,I10\tH9,J8\tG9 773 14\n",
    )
    .expect("write");
    let (code, text) = run(&["book", "build", "--out", raw_path, "--searches", "0"]);
    assert_eq!(code, Some(0), "{text}");
    let written = std::fs::read_to_string(&raw).expect("the book");
    assert!(written.contains(" -773 15") && !written.contains("-490"), "{written}");
    let line = written.lines().find(|l| l.contains("-773")).expect("the opening's line");
    assert!(line.find(" -550 15") < line.find(" -773 15"), "best first: {line}");
    assert_eq!(Book::parse(&written).expect("reads").to_text(), written);
    let (code, text) = run(&["book", "build", "--out", path, "--rule", "freestyle"]);
    assert_eq!(code, Some(2));
    assert!(text.contains("is a renju book"), "{text}");
    let (code, text) = run(&["book", "build", "--nodes", "10"]);
    assert_eq!(code, Some(2));
    assert!(text.contains("--out"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The replies of a session given `lines`, each search awaited.
fn session(presets: Vec<(String, String)>, lines: &[&str]) -> Vec<String> {
    let mut s = Session::with_presets(presets);
    let mut out = Vec::new();
    for l in lines {
        s.line(l, &mut out).expect("io");
        s.finish(&mut out).expect("io");
    }
    String::from_utf8_lossy(&out).lines().map(String::from).collect()
}

#[test]
fn the_session_plays_the_book_move_and_searches_without_the_book() {
    let dir = scratch("session");
    let file = dir.join("odd.book");
    // After H8 H9 H10 the book says A1: no search would play it.
    let pb = board_after(&["h8", "h9", "h10"]);
    let mut book = Book::new(Rule::Renju, 15);
    book.insert(pb.board().moves(), &[BookMove::new(Pos::parse("a1", 15).expect("a1"), 0, 1)]);
    std::fs::write(&file, book.to_text()).expect("write");
    let preset = vec![(PRESET_BOOK.to_string(), file.display().to_string())];
    // Tengen is White: its own stone (1) is H9, Black's (2) are H8 and H10.
    let game = ["START 15", "INFO rule 4", "INFO timeout_turn 300", "BOARD", "7,7,2", "7,6,1", "7,5,2", "DONE"];
    let replies = session(preset.clone(), &game);
    assert_eq!(replies.last().map(String::as_str), Some("0,14"), "{replies:?}");
    // The same position turned upside down is the same book position: A1 becomes A15 (or, the position being
    // symmetric, O15).
    let mirrored = ["START 15", "INFO rule 4", "INFO timeout_turn 300", "BOARD", "7,7,2", "7,8,1", "7,9,2", "DONE"];
    let reply = session(preset.clone(), &mirrored);
    assert!(matches!(reply.last().map(String::as_str), Some("0,0" | "14,0")), "{reply:?}");
    // Out of the book (one stone more), and with the book off, the engine searches.
    let mut off = vec!["START 15", "INFO rule 4", "INFO book 0"];
    off.extend(&game[2..]);
    let replies = session(preset.clone(), &off);
    assert!(replies.last().is_some_and(|r| r != "0,14" && r.contains(',')), "{replies:?}");
    let mut out_of_book = game.to_vec();
    out_of_book.insert(7, "8,8,1");
    out_of_book.insert(8, "6,6,2");
    let replies = session(preset, &out_of_book);
    assert!(replies.last().is_some_and(|r| r != "0,14" && r.contains(',')), "{replies:?}");
    // A bad book file on the command line is refused there.
    let (code, text) = run(&["--book", dir.join("missing.book").to_str().expect("path")]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("cannot read"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The position of a book key as a pattern board (`from_stones` refuses a point off the board, a point given twice
/// and a five on the board), and the side to move: Black with as many stones as White, White one stone behind.
fn board_of(key: &[u16]) -> (PatternBoard, Color) {
    let (black, white): (Vec<u16>, Vec<u16>) = key.iter().partition(|&&s| s >> 15 == 0);
    let points = |stones: &[u16]| stones.iter().map(|&s| Pos::from_index(usize::from(s & 0x7fff))).collect::<Vec<_>>();
    let pb = PatternBoard::from_stones(15, Rule::Renju, &points(&black), &points(&white))
        .unwrap_or_else(|e| panic!("{key:?}: {e:?}"));
    let to_move = match black.len().checked_sub(white.len()) {
        Some(0) => Color::Black,
        Some(1) => Color::White,
        _ => panic!("{key:?}: {} black and {} white stones", black.len(), white.len()),
    };
    (pb, to_move)
}

/// The renju position `moves` (in `H8` notation, Black first) lead to.
fn board_after(moves: &[&str]) -> PatternBoard {
    let points: Vec<Pos> = moves.iter().map(|m| Pos::parse(m, 15).expect("point")).collect();
    replay_moves(15, Rule::Renju, &points).expect("a position").0
}

#[test]
fn the_embedded_renju_book_holds_every_opening_and_only_legal_moves() {
    let book = Book::embedded(Rule::Renju, 15).expect("the embedded book parses");
    assert!(book.len() > 26, "{} positions", book.len());
    // The file is as the builder writes it: scores backed up, so it shows what the engine chooses by.
    assert_eq!(book.to_text(), include_str!("../data/book/renju.book"));
    for (key, moves) in &book.entries {
        let (mut pb, to_move) = board_of(key);
        assert!(!moves.is_empty(), "{key:?} has no move");
        assert!(moves.windows(2).all(|w| w[0].score >= w[1].score), "{key:?}: not best first");
        for m in moves {
            let outcome = pb.outcome(m.point, to_move);
            assert!(matches!(outcome, MoveOutcome::Normal | MoveOutcome::Win), "{key:?}: {m:?} is {outcome:?}");
        }
    }
    // The 26 openings (Black's third stone played, White to move), looked up as a game reaches them.
    let openings = include_str!("data/renju26.tsv");
    let mut seen = 0;
    for line in openings.lines().filter(|l| !l.starts_with('#') && !l.starts_with("line\t")) {
        let notation = line.split('\t').nth(4).expect("renju_notation column");
        let pb = board_after(&notation.split_whitespace().collect::<Vec<_>>());
        let moves = book.moves(&pb);
        assert!(!moves.is_empty(), "opening {notation} is not in the book");
        assert!(moves.iter().all(|m| pb.board().is_empty(m.point)), "{notation}: {moves:?}");
        seen += 1;
    }
    assert_eq!(seen, 26);
}

#[test]
fn the_engine_answers_an_opening_from_the_embedded_book() {
    let book = Book::embedded(Rule::Renju, 15).expect("the embedded book parses");
    // Kagetsu (h8 h9 i10, 2I): Tengen is White; its stone H9 is 1, Black's H8 and I10 are 2.
    let pb = board_after(&["h8", "h9", "i10"]);
    let allowed: Vec<String> = book.moves(&pb).iter().map(|m| format!("{},{}", m.point.x, m.point.y)).collect();
    assert!(!allowed.is_empty());
    let game = ["START 15", "INFO rule 4", "INFO timeout_turn 2000", "BOARD", "7,7,2", "7,6,1", "8,5,2", "DONE"];
    let replies = session(Vec::new(), &game);
    let reply = replies.last().expect("a reply");
    assert!(allowed.contains(reply), "{reply} is not among the book's {allowed:?}");
}

#[test]
fn book_learn_counts_the_games_through_the_book_and_the_engine_follows_them() {
    use tengen::records::{GameRecord, Outcome, write_game, write_header};
    let dir = scratch("learn");
    let path = dir.join("learn.book");
    let path = path.to_str().expect("path");
    let p = |s: &str| Pos::parse(s, 15).expect("point");
    // After H8 H9 H10 (White to move) the search liked J8 better than I8.
    let start = board_after(&["h8", "h9", "h10"]);
    let mut book = Book::new(Rule::Renju, 15);
    book.insert(start.board().moves(), &[BookMove::new(p("j8"), -300, 14), BookMove::new(p("i8"), -380, 14)]);
    std::fs::write(path, book.to_text()).expect("write");
    // J8 lost all twelve of its games; I8 won ten of twelve, once as G8 (its mirror image: the opening is
    // symmetric about the H file). A freestyle game does not count.
    let game = |moves: &[&str], outcome, rule| GameRecord {
        rule,
        size: 15,
        outcome,
        opening: 3,
        moves: moves.iter().map(|m| p(m)).collect(),
        scores: None,
        players: Some(["pentazen".to_string(), "tengen".to_string()]),
        best: None,
        forbidden_end: None,
    };
    let mut bytes = Vec::new();
    write_header(&mut bytes).expect("header");
    for i in 0..12 {
        write_game(&mut bytes, &game(&["h8", "h9", "h10", "j8", "g10"], Outcome::BlackWins, Rule::Renju)).expect("j8");
        let (fourth, outcome) = match i {
            0 => ("g8", Outcome::WhiteWins),
            1 | 2 => ("i8", Outcome::BlackWins),
            _ => ("i8", Outcome::WhiteWins),
        };
        write_game(&mut bytes, &game(&["h8", "h9", "h10", fourth, "g10"], outcome, Rule::Renju)).expect("i8");
    }
    write_game(&mut bytes, &game(&["h8", "h9", "h10", "j8"], Outcome::WhiteWins, Rule::Freestyle)).expect("other");
    let games = dir.join("games.tgr");
    std::fs::write(&games, &bytes).expect("write");
    let games = games.to_str().expect("path");
    let (code, text) = run(&["book", "learn", path, games]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("25 games read, 24 under the book's rule and size, 24 through the book"), "{text}");
    assert!(text.contains("the first choice changed in 1 of 1 positions"), "{text}");
    let learned = std::fs::read_to_string(path).expect("the book");
    assert!(learned.contains(" -300 14 0/0/12") && learned.contains(" -380 14 10/0/2"), "{learned}");
    // A session given the learned book plays I8 (8,7 in protocol coordinates; or G8, 6,7) where the search's J8
    // (9,7) would be.
    let preset = vec![(PRESET_BOOK.to_string(), path.to_string())];
    let opening = ["START 15", "INFO rule 4", "INFO timeout_turn 300", "BOARD", "7,7,2", "7,6,1", "7,5,2", "DONE"];
    let replies = session(preset, &opening);
    assert!(matches!(replies.last().map(String::as_str), Some("8,7" | "6,7")), "{replies:?}");
    // Learning is from scratch: again from the same games, the same book.
    let (code, _) = run(&["book", "learn", path, games]);
    assert_eq!(code, Some(0));
    assert_eq!(std::fs::read_to_string(path).expect("the book"), learned);
    // No games, or a file that is not there: an error, the book untouched.
    for args in [vec!["book", "learn", path], vec!["book", "learn", path, "/nonexistent/games.tgr"]] {
        let (code, text) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {text}");
        assert!(text.starts_with("error:"), "{text}");
    }
    assert_eq!(std::fs::read_to_string(path).expect("the book"), learned);
    // Past the book: the positions after the fourth move, twelve games each (I8's and its image G8's together, shown
    // as the first game that reached them played it), Black to move.
    let (code, text) = run(&["book", "reached", path, games, "--min-games", "12"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("# 2 positions"), "{text}");
    assert!(text.contains("\nH8 H9 H10 J8   # 12 games, 12/0/0 for the side to move\n"), "{text}");
    assert!(text.contains("\nH8 H9 H10 G8   # 12 games, 2/0/10 for the side to move\n"), "{text}");
    // Black, who was to move there, is pentazen in every game.
    let (code, text) = run(&["book", "reached", path, games, "--player", "tengen", "--min-games", "1"]);
    assert!(code == Some(0) && text.starts_with("# 0 positions"), "{text}");
    for args in [
        vec!["book", "reached", path],
        vec!["book", "reached", path, games, "--min-games", "0"],
        vec!["book", "reached", path, games, "--bogus"],
    ] {
        let (code, text) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {text}");
        assert!(text.starts_with("error:"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_embedded_books_game_results_reproduce_from_the_committed_games() {
    let shipped = Book::embedded(Rule::Renju, 15).expect("the embedded book parses");
    let list = include_str!("../data/book/renju.learned-from");
    let mut games = Vec::new();
    for file in list.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let bytes = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).expect("a game file");
        games.extend(tengen::records::read_training(&bytes, &mut |e| panic!("{file}: {e}")).games);
    }
    let mut again = shipped.clone();
    let learned = tengen::book::learn::learn(&mut again, &games);
    assert!(learned.used > 1_000, "{learned:?}");
    assert_eq!(&again, shipped, "the tallies differ from what the listed games give");
}

#[test]
fn the_engine_searches_unless_a_book_is_asked_for() {
    // H8 H9 H10 is in the embedded book: a book move comes at once, with no node searched.
    let nodes = |args: &[&str]| -> u64 {
        use std::io::{BufRead, Write};
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = "START 15\nINFO rule 4\nINFO timeout_turn 300\nBOARD\n7,7,2\n7,6,1\n7,5,2\nDONE\n";
        stdin.write_all(input.as_bytes()).expect("write");
        stdin.flush().expect("flush");
        // The score line comes before the move; then the input is closed and the engine ends.
        let reader = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        let mut said = Vec::new();
        for line in reader.lines().map_while(Result::ok) {
            let is_move = line.split(',').count() == 2 && line.split(',').all(|n| n.trim().parse::<u32>().is_ok());
            said.push(line);
            if is_move {
                break;
            }
        }
        drop(stdin);
        let _ = child.wait();
        let line = said.iter().find(|l| l.starts_with("MESSAGE score")).unwrap_or_else(|| panic!("{said:?}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "nodes").unwrap_or_else(|| panic!("{line}"));
        words[at + 1].parse().unwrap_or_else(|_| panic!("{line}"))
    };
    assert!(nodes(&["--say-score"]) > 0, "the default searches");
    assert_eq!(nodes(&["--say-score", "--book", "builtin"]), 0, "--book builtin plays the embedded book");
    assert!(nodes(&["--say-score", "--book", "builtin", "--no-book"]) > 0, "--no-book after it turns it off");
}
