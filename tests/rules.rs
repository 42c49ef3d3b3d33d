//! The rules of RULES.md, checked on hand-made ASCII boards.
//!
//! Every renju board carries its expectations as marks on empty points (see [`check_renju`]):
//!
//! | mark | meaning for a black stone on that point |
//! |---|---|
//! | `3` | forbidden: double-three |
//! | `4` | forbidden: double-four |
//! | `6` | forbidden: overline |
//! | `5` | a winning five (and so never forbidden) |
//! | `*` | a point of interest that is an ordinary legal move (no five, not forbidden) |
//!
//! The `3`/`4`/`6` marks must be *all* of Black's forbidden points on the board, so every board also pins down the
//! verdict on every unmarked point. The boards were built by hand and each verdict reasoned out from RULES.md
//! (the comments give the reasoning for the point the test is about).

use tengen::board::{Board, parse_ascii};
use tengen::pattern::{ForbidKind, MoveOutcome, Pattern4, PatternBoard, SetupError, find_five};
use tengen::types::{Color, Pos, Rule, format_point_list};

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

/// The board of `text` under `rule` (panics with the setup error otherwise).
#[track_caller]
fn setup(text: &str, rule: Rule) -> PatternBoard {
    PatternBoard::from_ascii(text, rule).unwrap_or_else(|e| panic!("board does not set up under {rule}: {e}\n{text}"))
}

/// A point in `H8` notation on `board`.
#[track_caller]
fn at(board: &PatternBoard, name: &str) -> Pos {
    Pos::parse(name, board.size()).unwrap_or_else(|e| panic!("{e}"))
}

/// The marked empty points of an ASCII board.
#[track_caller]
fn marks(text: &str) -> Vec<(Pos, char)> {
    parse_ascii(text).unwrap_or_else(|e| panic!("{e}")).marks
}

/// The same board with the colours exchanged (marks and frame kept; the column letters are left alone).
fn swap_colours(text: &str) -> String {
    let swap_row = |line: &str| -> String {
        line.chars()
            .map(|c| match c {
                'X' => 'O',
                'O' => 'X',
                other => other,
            })
            .collect()
    };
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with(|c: char| c.is_ascii_digit()) { swap_row(line) } else { line.to_string() }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A plain stone board (no rule, so it may hold fives) from an ASCII board.
#[track_caller]
fn stones(text: &str) -> Board {
    let pos = parse_ascii(text).unwrap_or_else(|e| panic!("{e}"));
    let mut board = Board::new(pos.size);
    for &p in &pos.black {
        board.make(p, Color::Black);
    }
    for &p in &pos.white {
        board.make(p, Color::White);
    }
    board
}

fn mark_of(kind: ForbidKind) -> char {
    match kind {
        ForbidKind::DoubleThree => '3',
        ForbidKind::DoubleFour => '4',
        ForbidKind::Overline => '6',
    }
}

/// The board as the engine sees it: Black's forbidden points marked `3`/`4`/`6`, Black's five points `5`.
fn engine_view(board: &mut PatternBoard) -> String {
    let mut shown = Vec::new();
    for p in board.board().points().collect::<Vec<_>>() {
        if let Some(kind) = board.forbidden_kind(p) {
            shown.push((p, mark_of(kind)));
        } else if board.board().is_empty(p) && board.is_five(Color::Black, p) {
            shown.push((p, '5'));
        }
    }
    board.board().to_ascii_marked(&shown)
}

/// Asserts that `board` is still `before` and still agrees with a from-scratch rebuild.
#[track_caller]
fn assert_untouched(board: &PatternBoard, before: &PatternBoard, what: &str) {
    if let Some(diff) = board.difference(before) {
        panic!("{what} changed the board: {diff}");
    }
    if let Some(diff) = board.difference(&board.rebuilt()) {
        panic!("{what} left the board out of step with its stones: {diff}");
    }
}

/// Sets up a renju board and checks every mark on it (see the module comment), and that the `3`/`4`/`6` marks are
/// exactly Black's forbidden points. Also checks that White may play each of those points and that no check
/// changes the board. Returns the board for further checks.
#[track_caller]
fn check_renju(name: &str, text: &str) -> PatternBoard {
    let mut board = setup(text, Rule::Renju);
    let before = board.clone();
    let size = board.size();
    let mut expected_forbidden = Vec::new();
    for (p, mark) in marks(text) {
        let point = format!("{name}: {}", p.notation(size));
        let kind = match mark {
            '3' => Some(ForbidKind::DoubleThree),
            '4' => Some(ForbidKind::DoubleFour),
            '6' => Some(ForbidKind::Overline),
            '5' | '*' => None,
            other => panic!("{point}: unknown mark '{other}'"),
        };
        let outcome = board.outcome(p, Color::Black);
        let found = board.forbidden_kind(p);
        assert_untouched(&board, &before, &point);
        let view = || engine_view(&mut board.clone());
        match kind {
            Some(kind) => {
                expected_forbidden.push(p);
                assert_eq!(found, Some(kind), "{point} should be {kind}; engine's view:\n{}", view());
                assert_eq!(outcome, MoveOutcome::Forbidden(kind), "{point}");
                assert_eq!(board.pattern4(Color::Black, p), Pattern4::Forbidden, "{point}");
                // White has no forbidden moves: a black hole is just a point for White.
                assert!(
                    matches!(board.outcome(p, Color::White), MoveOutcome::Normal | MoveOutcome::Win),
                    "{point}: White may play here"
                );
            }
            None if mark == '5' => {
                assert_eq!(found, None, "{point}: a five is never forbidden; engine's view:\n{}", view());
                assert_eq!(outcome, MoveOutcome::Win, "{point}");
                assert_eq!(board.pattern4(Color::Black, p), Pattern4::Five, "{point}");
            }
            None => {
                assert_eq!(found, None, "{point} should be legal; engine's view:\n{}", view());
                assert_eq!(outcome, MoveOutcome::Normal, "{point}");
            }
        }
    }
    let got = board.forbidden_points();
    assert_untouched(&board, &before, &format!("{name}: forbidden_points"));
    assert_eq!(
        format_point_list(&got, size),
        format_point_list(&expected_forbidden, size),
        "{name}: Black's forbidden points (got vs marked); engine's view:\n{}",
        engine_view(&mut board.clone())
    );
    board
}

/// Every renju board of this file, for the whole-file checks.
const RENJU_BOARDS: &[(&str, &str)] = &[
    ("OVERLINE", OVERLINE),
    ("FIVE_AND_OVERLINE", FIVE_AND_OVERLINE),
    ("FIVE_AND_DOUBLE_FOUR", FIVE_AND_DOUBLE_FOUR),
    ("DOUBLE_FOUR_WITHOUT_FIVE", DOUBLE_FOUR_WITHOUT_FIVE),
    ("FIVE_AND_DOUBLE_THREE", FIVE_AND_DOUBLE_THREE),
    ("DOUBLE_THREE_WITHOUT_FIVE", DOUBLE_THREE_WITHOUT_FIVE),
    ("SAME_LINE_DOUBLE_FOURS", SAME_LINE_DOUBLE_FOURS),
    ("FOUR_THREE", FOUR_THREE),
    ("FAKE_FOUR", FAKE_FOUR),
    ("FAKE_FOUR_CONTROL", FAKE_FOUR_CONTROL),
    ("PSEUDO_THREE_FOUR_POINT_DOUBLE_FOUR", PSEUDO_THREE_FOUR_POINT_DOUBLE_FOUR),
    ("PSEUDO_THREE_FOUR_POINT_OVERLINE", PSEUDO_THREE_FOUR_POINT_OVERLINE),
    ("PSEUDO_THREE_CONTROL", PSEUDO_THREE_CONTROL),
    ("NESTED_REAL", NESTED_REAL),
    ("NESTED_PSEUDO", NESTED_PSEUDO),
    ("NESTED3_PSEUDO", NESTED3_PSEUDO),
    ("NESTED3_REAL", NESTED3_REAL),
    ("THREE_ON_FIVE_POINT", THREE_ON_FIVE_POINT),
    ("THREE_ON_FIVE_POINT_CONTROL", THREE_ON_FIVE_POINT_CONTROL),
];

// ---------------------------------------------------------------------------------------------------------------
// 1. Overlines in renju
// ---------------------------------------------------------------------------------------------------------------

/// Row 8 `XXX.XX` and row 12 `XXXX.X`: filling the gap makes six for Black, forbidden (`6`); C12 on the other
/// side of the row-12 four makes an exact five and wins (`5`). Row 4 is row 8's shape in White: G4 is a six for
/// White, which wins (`*`: for Black G4 is just a point between white stones).
const OVERLINE: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . 5 X X X X 6 X . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . . . . . . . . . . . .
 9 . . . . . . . . . . . . . . .
 8 . . . X X X 6 X X . . . . . .
 7 . . . . . . . . . . . . . . .
 6 . . . . . . . . . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . O O O * O O . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: Black's overline is forbidden (not a win, not a five), while White's overline of the same shape wins.
#[test]
fn renju_black_overline_is_forbidden_white_overline_wins() {
    let mut board = check_renju("OVERLINE", OVERLINE);
    let (g8, h12, g4) = (at(&board, "G8"), at(&board, "H12"), at(&board, "G4"));
    for p in [g8, h12] {
        assert!(!board.is_five(Color::Black, p));
        assert_eq!(board.outcome(p, Color::Black), MoveOutcome::Forbidden(ForbidKind::Overline));
    }
    // White's six wins, as a five does.
    assert!(board.is_five(Color::White, g4));
    assert_eq!(board.pattern4(Color::White, g4), Pattern4::Five);
    assert_eq!(board.outcome(g4, Color::White), MoveOutcome::Win);
    board.make(g4, Color::White);
    let six = find_five(board.board(), Rule::Renju, Color::White).expect("White's six is a win");
    assert_eq!(six.len(), 6);
    board.undo();
    // Black's six, once on the board, is no win.
    board.make(g8, Color::Black);
    assert_eq!(find_five(board.board(), Rule::Renju, Color::Black), None);
    board.undo();

    // The same position with the colours exchanged: now White's shapes are Black's and vice versa.
    let mut swapped = setup(&swap_colours(OVERLINE), Rule::Renju);
    assert_eq!(swapped.outcome(g8, Color::White), MoveOutcome::Win);
    assert_eq!(swapped.outcome(h12, Color::White), MoveOutcome::Win);
    assert_eq!(swapped.outcome(g4, Color::Black), MoveOutcome::Forbidden(ForbidKind::Overline));
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Five beats every prohibition
// ---------------------------------------------------------------------------------------------------------------

/// H8 makes the exact five D8-H8 and the six H6-H11 at once: a win. (F9 is a plain double-three: F9-G8-H7 on
/// the anti-diagonal and E8-F9-.-H11 on the diagonal.)
const FIVE_AND_OVERLINE: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . X . . . . . . .
10 . . . . . . . X . . . . . . .
 9 . . . . . 3 . X . . . . . . .
 8 . . 5 X X X X 5 . . . . . . .
 7 . . . . . . . X . . . . . . .
 6 . . . . . . . X . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// H8 makes the five D8-H8 and two fours: H5-H8 (five point H9, H4 is White) and H8-K11 (five point G7).
const FIVE_AND_DOUBLE_FOUR: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . O . . .
11 . . . . . . . . . . X . . . .
10 . . . . . . . . . X . . . . .
 9 . . . . . . . . X . . . . . .
 8 . . 5 X X X X 5 . . . . . . .
 7 . . . . . . . X . . . . . . .
 6 . . . . . . . X . . . . . . .
 5 . . . . . . . X . . . . . . .
 4 . . . . . . . O . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Control: the same fours without the five on row 8 make H8 a double-four.
const DOUBLE_FOUR_WITHOUT_FIVE: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . O . . .
11 . . . . . . . . . . X . . . .
10 . . . . . . . . . X . . . . .
 9 . . . . . . . . X . . . . . .
 8 . . . . . . . 4 . . . . . . .
 7 . . . . . . . X . . . . . . .
 6 . . . . . . . X . . . . . . .
 5 . . . . . . . X . . . . . . .
 4 . . . . . . . O . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// H8 makes the five D8-H8 and two open threes: H8-H10 and H8-J6.
const FIVE_AND_DOUBLE_THREE: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . 5 X X X X 5 . . . . . . .
 7 . . . . . . . . X . . . . . .
 6 . . . . . . . . . X . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Control: the same threes without the five make H8 a double-three.
const DOUBLE_THREE_WITHOUT_FIVE: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . . . . . 3 . . . . . . .
 7 . . . . . . . . X . . . . . .
 6 . . . . . . . . . X . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: a black move that makes a five wins even when it also makes an overline, a double-four or a
/// double-three on other lines (the controls show those other lines alone would be forbidden).
#[test]
fn renju_five_beats_every_prohibition() {
    for (name, text) in [
        ("FIVE_AND_OVERLINE", FIVE_AND_OVERLINE),
        ("FIVE_AND_DOUBLE_FOUR", FIVE_AND_DOUBLE_FOUR),
        ("FIVE_AND_DOUBLE_THREE", FIVE_AND_DOUBLE_THREE),
    ] {
        let mut board = check_renju(name, text);
        let h8 = at(&board, "H8");
        assert_eq!(board.outcome(h8, Color::Black), MoveOutcome::Win, "{name}");
        assert_eq!(board.forbidden_kind(h8), None, "{name}");
        board.make(h8, Color::Black);
        let five = find_five(board.board(), Rule::Renju, Color::Black).expect("the five wins");
        let row8: Vec<String> = five.iter().map(|p| p.notation(15)).collect();
        assert_eq!(row8.join(","), "D8,E8,F8,G8,H8", "{name}");
    }
    let mut df = check_renju("DOUBLE_FOUR_WITHOUT_FIVE", DOUBLE_FOUR_WITHOUT_FIVE);
    let h8 = at(&df, "H8");
    assert_eq!(df.outcome(h8, Color::Black), MoveOutcome::Forbidden(ForbidKind::DoubleFour));
    let mut dt = check_renju("DOUBLE_THREE_WITHOUT_FIVE", DOUBLE_THREE_WITHOUT_FIVE);
    assert_eq!(dt.outcome(h8, Color::Black), MoveOutcome::Forbidden(ForbidKind::DoubleThree));
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Fours: same-line double-fours, four-three, and a "four" that is none
// ---------------------------------------------------------------------------------------------------------------

/// The three same-line double-fours, the move on the `4`:
/// row 13 `X.X4X.X`, making `X.XXX.X` (fives C13-G13 and E13-I13),
/// row 9 `XX.X4.XX` (fives C9-G9 and F9-J9), row 5 `XXX.4.XXX` (fives B5-F5 and F5-J5).
const SAME_LINE_DOUBLE_FOURS: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . X . X 4 X . X . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . . . . . . . . . . . .
 9 . . X X . X 4 . X X . . . . .
 8 . . . . . . . . . . . . . . .
 7 . . . . . . . . . . . . . . .
 6 . . . . . . . . . . . . . . .
 5 . X X X . 4 . X X X . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: each same-line double-four shape is forbidden for Black, but the same move is an ordinary (strong,
/// `Flex4`-class) move for White in renju, and for Black in freestyle and standard.
#[test]
fn same_line_double_fours_are_forbidden_for_black_only() {
    let mut board = check_renju("SAME_LINE_DOUBLE_FOURS", SAME_LINE_DOUBLE_FOURS);
    let points: Vec<Pos> = ["F13", "G9", "F5"].iter().map(|n| at(&board, n)).collect();
    for &p in &points {
        assert_eq!(board.outcome(p, Color::Black), MoveOutcome::Forbidden(ForbidKind::DoubleFour));
    }
    // White, same shapes.
    let mut white = setup(&swap_colours(SAME_LINE_DOUBLE_FOURS), Rule::Renju);
    assert!(white.forbidden_points().is_empty(), "no black stones, no forbidden points");
    for &p in &points {
        assert_eq!(white.outcome(p, Color::White), MoveOutcome::Normal, "{}", p.notation(15));
        assert_eq!(white.pattern4(Color::White, p), Pattern4::Flex4, "{}", p.notation(15));
    }
    // Black, other rules.
    for rule in [Rule::Freestyle, Rule::Standard] {
        let mut other = setup(SAME_LINE_DOUBLE_FOURS, rule);
        for &p in &points {
            assert_eq!(other.forbidden_kind(p), None, "{rule} {}", p.notation(15));
            assert_eq!(other.outcome(p, Color::Black), MoveOutcome::Normal, "{rule} {}", p.notation(15));
            assert_eq!(other.pattern4(Color::Black, p), Pattern4::Flex4, "{rule} {}", p.notation(15));
        }
        assert!(other.forbidden_points().is_empty(), "{rule}");
    }
}

/// H8 makes the four E8-H8 (five point I8; D8 is White) and the open three H8-H10: a four-three.
const FOUR_THREE: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . . . . X . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . O X X X * . . . . . . .
 7 . . . . . . . . . . . . . . .
 6 . . . . . . . . . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: a four-three is legal for Black (RULES.md: "Black's main winning weapon").
#[test]
fn four_three_is_legal() {
    let mut board = check_renju("FOUR_THREE", FOUR_THREE);
    let h8 = at(&board, "H8");
    assert_eq!(board.pattern4(Color::Black, h8), Pattern4::Block4Flex3);
    assert_eq!(board.outcome(h8, Color::Black), MoveOutcome::Normal);
}

/// H8 makes the four E8-H8 on row 8, and on column H the run H6-H9 of four stones, `X.XXXX.X`: both ends of
/// that run would make six, so for Black it is no four, and H8 is a single four, legal. (F9 is a plain
/// double-three: F9-G8-H7 and E8-F9-.-H11.)
const FAKE_FOUR: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . X . . . . . . .
10 . . . . . . . . . . . . . . .
 9 . . . . . 3 . X . . . . . . .
 8 . . . O X X X * . . . . . . .
 7 . . . . . . . X . . . . . . .
 6 . . . . . . . X . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . X . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Control: without H11 and H4 the column run H6-H9 is a straight four, and H8 a double-four.
const FAKE_FOUR_CONTROL: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . . . . . . . . . . . .
 9 . . . . . . . X . . . . . . .
 8 . . . O X X X 4 . . . . . . .
 7 . . . . . . . X . . . . . . .
 6 . . . . . . . X . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: four stones in a row that can only grow into an overline are no four for Black (so no double-four),
/// while the same column without the outer stones is a (straight) four.
#[test]
fn a_four_that_can_only_make_an_overline_is_no_four() {
    let mut board = check_renju("FAKE_FOUR", FAKE_FOUR);
    let h8 = at(&board, "H8");
    assert_eq!(board.outcome(h8, Color::Black), MoveOutcome::Normal);
    // For White, to whom a six is a win, the same column is a straight four (both ends make six).
    let white = setup(&swap_colours(FAKE_FOUR), Rule::Renju);
    assert_eq!(white.pattern4(Color::White, h8), Pattern4::Flex4);
    let mut control = check_renju("FAKE_FOUR_CONTROL", FAKE_FOUR_CONTROL);
    assert_eq!(control.outcome(h8, Color::Black), MoveOutcome::Forbidden(ForbidKind::DoubleFour));
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Pseudo double-threes: the straight-four point is itself forbidden
// ---------------------------------------------------------------------------------------------------------------
//
// The three boards share one frame. D8 makes two threes: on row 8, `O.*XX..` (B8 is White) whose only
// straight-four point is G8 (D8-G8, five points C8 and H8; filling C8 gives only a blocked four), and on column
// D the open three D6-D8. Only what stands on column G differs.

/// G9-G11 with G12 White: after D8, G8 would make the straight four D8-G8 *and* the four G8-G11: a double-four.
/// So the row-8 three is no three and D8 is legal. (Before D8, G8 is a four-three: legal, `*`.)
const PSEUDO_THREE_FOUR_POINT_DOUBLE_FOUR: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . O . . . . . . . .
11 . . . . . . X . . . . . . . .
10 . . . . . . X . . . . . . . .
 9 . . . . . . X . . . . . . . .
 8 . O . * X X * . . . . . . . .
 7 . . . X . . . . . . . . . . .
 6 . . . X . . . . . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// G7 and G9-G12 (G13 White): G8 is an overline whatever happens on row 8, so again D8 is legal.
const PSEUDO_THREE_FOUR_POINT_OVERLINE: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . O . . . . . . . .
12 . . . . . . X . . . . . . . .
11 . . . . . . X . . . . . . . .
10 . . . . . . X . . . . . . . .
 9 . . . . . . X . . . . . . . .
 8 . O . * X X 6 . . . . . . . .
 7 . . . X . . X . . . . . . . .
 6 . . . X . . . . . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Control: only G9-G10 (G12 White). After D8, G8 makes the straight four plus the three G8-G10 (a legal
/// four-three), so both of D8's threes are real: D8 is a double-three. G8 itself is one too (E8-G8 and G8-G10).
const PSEUDO_THREE_CONTROL: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . O . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . . . X . . . . . . . .
 9 . . . . . . X . . . . . . . .
 8 . O . 3 X X 3 . . . . . . . .
 7 . . . X . . . . . . . . . . .
 6 . . . X . . . . . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: two threes meeting at a point are no double-three when every straight-four point of one of them is
/// forbidden (double-four or overline); with that point free the same move is a double-three.
#[test]
fn pseudo_double_three_when_the_four_point_is_forbidden() {
    for (name, text, expected) in [
        ("PSEUDO_THREE_FOUR_POINT_DOUBLE_FOUR", PSEUDO_THREE_FOUR_POINT_DOUBLE_FOUR, None),
        ("PSEUDO_THREE_FOUR_POINT_OVERLINE", PSEUDO_THREE_FOUR_POINT_OVERLINE, None),
        ("PSEUDO_THREE_CONTROL", PSEUDO_THREE_CONTROL, Some(ForbidKind::DoubleThree)),
    ] {
        let mut board = check_renju(name, text);
        let d8 = at(&board, "D8");
        // Both are line threes, so D8 is a double-three candidate in every version...
        assert_eq!(board.pattern4(Color::Black, d8), Pattern4::Forbidden, "{name}");
        // ...and only the full, recursive check tells them apart.
        assert_eq!(board.forbidden_kind(d8), expected, "{name}");
    }
    // In the double-four version, once D8 is played G8 is indeed a double-four.
    let mut board = setup(PSEUDO_THREE_FOUR_POINT_DOUBLE_FOUR, Rule::Renju);
    let (d8, g8) = (at(&board, "D8"), at(&board, "G8"));
    board.make(d8, Color::Black);
    assert_eq!(board.forbidden_kind(g8), Some(ForbidKind::DoubleFour));
    board.undo();
    // In the control, after D8 the point G8 is a legal four-three.
    let mut control = setup(PSEUDO_THREE_CONTROL, Rule::Renju);
    control.make(d8, Color::Black);
    assert_eq!(control.forbidden_kind(g8), None);
    assert_eq!(control.pattern4(Color::Black, g8), Pattern4::Flex4);
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Nested double-threes
// ---------------------------------------------------------------------------------------------------------------
//
// Frame: as in section 4, D8 makes the column-D three and the row-8 three `O.*XX..` whose only straight-four
// point is q = G8. After D8, G8 makes the straight four D8-G8 and two threes: C = G8-G10 on column G (real:
// G7 and G11 are free) and D = G8-H7-I6 on the anti-diagonal, blocked at E10 by White so that its only
// straight-four point is r = J5 (G8-J5, five points F9 and K4). Whether G8 is a four-three (legal) or a
// four-three-three (forbidden) thus depends on whether J5 is legal, which is decided by row 5.

/// Row 5: K5-M5 with N5 White. After D8 and G8, J5 would make the straight four G8-J5 and the four J5-M5: a
/// double-four. So D is no three, G8 is a legal four-three, the row-8 three is real, and D8 is a double-three.
/// Before D8, G8 is a double-three (E8-G8 and G8-G10 are real, D is not), and J5 is a legal four-three.
const NESTED_REAL: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . O . X . . . . . . . .
 9 . . . . . . X . . . . . . . .
 8 . O . 3 X X 3 . . . . . . . .
 7 . . . X . . . X . . . . . . .
 6 . . . X . . . . X . . . . . .
 5 . . . . . . . . . * X X X O .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Row 5: only K5-L5. After D8 and G8, J5 makes the straight four plus the three J5-L5: a legal four-three. So D
/// is a real three, G8 is a forbidden four-three-three, the row-8 three is no three, and D8 is legal. J5 is a
/// double-three on the board as it stands (J5-L5 and H7-J5, which can become a straight four at G8 or K4).
const NESTED_PSEUDO: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . O . X . . . . . . . .
 9 . . . . . . X . . . . . . . .
 8 . O . * X X 3 . . . . . . . .
 7 . . . X . . . X . . . . . . .
 6 . . . X . . . . X . . . . . .
 5 . . . . . . . . . 3 X X . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: D8's double-three depends on its four point G8, whose own double-three depends on a third point, J5:
/// J5 forbidden => G8 legal => D8 forbidden; J5 legal => G8 forbidden => D8 legal.
#[test]
fn nested_double_three_two_levels() {
    let mut real = check_renju("NESTED_REAL", NESTED_REAL);
    let (d8, g8, j5) = (at(&real, "D8"), at(&real, "G8"), at(&real, "J5"));
    assert_eq!(real.forbidden_kind(d8), Some(ForbidKind::DoubleThree));
    real.make(d8, Color::Black);
    assert_eq!(real.pattern4(Color::Black, g8), Pattern4::Forbidden, "G8 is a four-three-three candidate");
    assert_eq!(real.forbidden_kind(g8), None, "G8 is a four-three: its anti-diagonal three is pseudo");
    real.make(g8, Color::Black);
    assert_eq!(real.forbidden_kind(j5), Some(ForbidKind::DoubleFour));
    real.undo();
    real.undo();

    let mut pseudo = check_renju("NESTED_PSEUDO", NESTED_PSEUDO);
    assert_eq!(pseudo.pattern4(Color::Black, d8), Pattern4::Forbidden);
    assert_eq!(pseudo.forbidden_kind(d8), None);
    pseudo.make(d8, Color::Black);
    assert_eq!(pseudo.forbidden_kind(g8), Some(ForbidKind::DoubleThree), "a four-three-three");
    pseudo.make(g8, Color::Black);
    // J5: the straight four G8-J5 and the three J5-L5, legal.
    assert_eq!(pseudo.forbidden_kind(j5), None);
    assert_eq!(pseudo.pattern4(Color::Black, j5), Pattern4::Flex4);
    pseudo.make(j5, Color::Black);
    assert_eq!(find_five(pseudo.board(), Rule::Renju, Color::Black), None);
}

/// One level deeper. As NESTED_PSEUDO, but J5 also has a third line: the diagonal three J5-K6-L7, blocked at H3
/// by White, whose only straight-four point is s = M8 (J5-M8, five points I4 and N9). Column M holds M9-M11
/// with M12 White, so after D8, G8 and J5, M8 would make the straight four J5-M8 and the four M8-M11: a
/// double-four. So that diagonal three is no three, J5 is a legal four-three, D is real, G8 is forbidden, and
/// D8 is legal.
const NESTED3_PSEUDO: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . O . .
11 . . . . . . . . . . . . X . .
10 . . . . O . X . . . . . X . .
 9 . . . . . . X . . . . . X . .
 8 . O . * X X 3 . . . . . * . .
 7 . . . X . . . X . . . X . . .
 6 . . . X . . . . X . X 3 . . .
 5 . . . . . . . . . 3 X X . . .
 4 . . . . . . . . . . 3 . . . .
 3 . . . . . . . O . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Control one level deeper: M11 removed. Now M8 is a legal four-three, so J5 is a forbidden
/// four-three-three, D is no three, G8 is a legal four-three, and D8 is a double-three.
const NESTED3_REAL: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . O . .
11 . . . . . . . . . . . . . . .
10 . . . . O . X . . . . . X . .
 9 . . . . . . X . . . . . X . .
 8 . O . 3 X X 3 . . . . . 3 . .
 7 . . . X . . . X . . . X . . .
 6 . . . X . . . . X . X 3 . . .
 5 . . . . . . . . . 3 X X . . .
 4 . . . . . . . . . . * . . . .
 3 . . . . . . . O . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: a three-level chain D8 -> G8 -> J5 -> M8, where removing one stone far away (M11) flips D8's verdict.
#[test]
fn nested_double_three_three_levels() {
    let mut pseudo = check_renju("NESTED3_PSEUDO", NESTED3_PSEUDO);
    let d8 = at(&pseudo, "D8");
    assert_eq!(pseudo.forbidden_kind(d8), None);
    let mut real = check_renju("NESTED3_REAL", NESTED3_REAL);
    assert_eq!(real.forbidden_kind(d8), Some(ForbidKind::DoubleThree));
    // Step through the chain in NESTED3_PSEUDO.
    let (g8, j5, m8) = (at(&pseudo, "G8"), at(&pseudo, "J5"), at(&pseudo, "M8"));
    pseudo.make(d8, Color::Black);
    assert_eq!(pseudo.forbidden_kind(g8), Some(ForbidKind::DoubleThree));
    pseudo.make(g8, Color::Black);
    assert_eq!(pseudo.forbidden_kind(j5), None);
    pseudo.make(j5, Color::Black);
    assert_eq!(pseudo.forbidden_kind(m8), Some(ForbidKind::DoubleFour));
}

// ---------------------------------------------------------------------------------------------------------------
// 6. A three whose straight-four point is a five point
// ---------------------------------------------------------------------------------------------------------------

/// Black already has the four G9-G12 (G13 White) whose five point is G8. D8 makes the open three D6-D8 and the
/// row-8 "three" `O.*XX..` whose only straight-four point is G8, but a stone there makes a five, so that is no
/// three (RULES.md, three (a)): D8 is legal.
const THREE_ON_FIVE_POINT: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . O . . . . . . . .
12 . . . . . . X . . . . . . . .
11 . . . . . . X . . . . . . . .
10 . . . . . . X . . . . . . . .
 9 . . . . . . X . . . . . . . .
 8 . O . * X X 5 . . . . . . . .
 7 . . . X . . . . . . . . . . .
 6 . . . X . . . . . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Control: the four moved up one point (G10-G13, G14 White): its five point is G9, G8 is an ordinary point
/// (after D8, a straight four), and D8 is a double-three.
const THREE_ON_FIVE_POINT_CONTROL: &str = "
15 . . . . . . . . . . . . . . .
14 . . . . . . O . . . . . . . .
13 . . . . . . X . . . . . . . .
12 . . . . . . X . . . . . . . .
11 . . . . . . X . . . . . . . .
10 . . . . . . X . . . . . . . .
 9 . . . . . . 5 . . . . . . . .
 8 . O . 3 X X * . . . . . . . .
 7 . . . X . . . . . . . . . . .
 6 . . . X . . . . . . . . . . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O
";

/// Shows: when Black has a four elsewhere, a three whose only straight-four point is that four's five point is
/// no three, so together with a real three it makes no double-three.
#[test]
fn a_three_whose_four_point_is_a_five_point_is_no_three() {
    let mut board = check_renju("THREE_ON_FIVE_POINT", THREE_ON_FIVE_POINT);
    let d8 = at(&board, "D8");
    assert_eq!(board.pattern4(Color::Black, d8), Pattern4::Forbidden, "two line threes: a candidate");
    assert_eq!(board.forbidden_kind(d8), None);
    assert_eq!(board.outcome(d8, Color::Black), MoveOutcome::Normal);
    let mut control = check_renju("THREE_ON_FIVE_POINT_CONTROL", THREE_ON_FIVE_POINT_CONTROL);
    assert_eq!(control.outcome(d8, Color::Black), MoveOutcome::Forbidden(ForbidKind::DoubleThree));
}

// ---------------------------------------------------------------------------------------------------------------
// 7. Freestyle and standard: the overline
// ---------------------------------------------------------------------------------------------------------------

/// `XXX.XX` for Black on row 7 and `OOO.OO` for White on row 3: E7 / E3 make six in a row.
const SIX_GAP: &str = "
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . X X X . X X . .
 6 . . . . . . . . .
 5 . . . . . . . . .
 4 . . . . . . . . .
 3 . O O O . O O . .
 2 . . . . . . . . .
 1 . . . . . . . . .
   A B C D E F G H I
";

/// Shows: six in a row wins in freestyle and does not in standard, for both colours (and in renju, only for
/// White).
#[test]
fn overline_wins_in_freestyle_not_in_standard() {
    for (rule, black_wins, white_wins) in
        [(Rule::Freestyle, true, true), (Rule::Standard, false, false), (Rule::Renju, false, true)]
    {
        let mut board = setup(SIX_GAP, rule);
        for (color, point, wins) in [(Color::Black, "E7", black_wins), (Color::White, "E3", white_wins)] {
            let p = at(&board, point);
            let what = format!("{rule}, {color} at {point}");
            let expected = if wins {
                MoveOutcome::Win
            } else if rule == Rule::Renju {
                MoveOutcome::Forbidden(ForbidKind::Overline)
            } else {
                MoveOutcome::Normal
            };
            assert_eq!(board.outcome(p, color), expected, "{what}");
            assert_eq!(board.is_five(color, p), wins, "{what}");
            board.make(p, color);
            let found = find_five(board.board(), rule, color);
            assert_eq!(found.as_ref().map(Vec::len), wins.then_some(6), "{what}: find_five");
            // A position holding the six is refused as already won exactly when the six wins.
            let text = board.board().to_ascii();
            let setup_result = PatternBoard::from_ascii(&text, rule);
            assert_eq!(matches!(setup_result, Err(SetupError::FiveOnBoard(c, _)) if c == color), wins, "{what}");
            board.undo();
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 8. Caro: a five needs an open end
// ---------------------------------------------------------------------------------------------------------------

/// Black's fours, each completed by the empty point in its row:
/// row 8 G8: C8-G8 with White on B8 and H8, blocked at both ends;
/// row 6 G6: C6-G6 with White on B6 only;
/// row 4 E4: A4-E4 against the edge, White on F4 (the edge does not block);
/// row 2 E2: B2-G2, a six, with White on A2 and H2.
const CARO: &str = "
 9 . . . . . . . . .
 8 . O X X X X . O .
 7 . . . . . . . . .
 6 . O X X X X . . .
 5 . . . . . . . . .
 4 X X X X . O . . .
 3 . . . . . . . . .
 2 O X X X . X X O .
 1 . . . . . . . . .
   A B C D E F G H I
";

/// Shows: under caro (rule 9) an exact five wins unless opponent stones block both its ends (the edge is no
/// block) and an overline never wins; under caro8 (rule 8) the same, except that an overline wins, even blocked.
/// Freestyle and standard are shown alongside for contrast. Both colours (the board with colours exchanged).
#[test]
fn caro_five_needs_an_open_end() {
    // (point, freestyle, standard, caro8, caro)
    let cases = [
        ("G8", true, true, false, false),
        ("G6", true, true, true, true),
        ("E4", true, true, true, true),
        ("E2", true, false, true, false),
    ];
    for (text, color) in [(CARO.to_string(), Color::Black), (swap_colours(CARO), Color::White)] {
        for (point, freestyle, standard, caro8, caro) in cases {
            for (rule, wins) in [
                (Rule::Freestyle, freestyle),
                (Rule::Standard, standard),
                (Rule::CaroOverline, caro8),
                (Rule::Caro, caro),
            ] {
                let mut board = setup(&text, rule);
                let p = at(&board, point);
                let what = format!("{rule}, {color} at {point}");
                let expected = if wins { MoveOutcome::Win } else { MoveOutcome::Normal };
                assert_eq!(board.outcome(p, color), expected, "{what}");
                board.make(p, color);
                assert_eq!(find_five(board.board(), rule, color).is_some(), wins, "{what}: find_five");
                board.undo();
            }
        }
    }
    // A five blocked at both ends may stand on a caro board (nobody has won), but not on a freestyle one.
    let mut board = setup(CARO, Rule::Caro);
    board.make(at(&board, "G8"), Color::Black);
    let text = board.board().to_ascii();
    assert!(PatternBoard::from_ascii(&text, Rule::Caro).is_ok());
    assert!(PatternBoard::from_ascii(&text, Rule::CaroOverline).is_ok());
    assert!(matches!(PatternBoard::from_ascii(&text, Rule::Freestyle), Err(SetupError::FiveOnBoard(Color::Black, _))));
}

// ---------------------------------------------------------------------------------------------------------------
// 9. Win detection and the full-board draw
// ---------------------------------------------------------------------------------------------------------------

/// Shows: find_five finds an existing five in each of the four directions and names its stones, and finds none
/// where there is none (a broken five, a four).
#[test]
fn find_five_in_every_direction() {
    let cases = [
        // (board, colour, expected five or "-")
        (
            "
             7 . . . . . . .
             6 . X X X X X .
             5 . . . . . . .
             4 . O O O O . .
             3 . . . . . . .
             2 . . . . . . .
             1 . . . . . . .
               A B C D E F G
            ",
            Color::Black,
            "B6,C6,D6,E6,F6",
        ),
        (
            "
             7 . . . . . . O
             6 . X . . . . O
             5 . X . . . . O
             4 . X . . . . O
             3 . X . . . . O
             2 . . . . . . .
             1 . . . . . . .
               A B C D E F G
            ",
            Color::White,
            "G3,G4,G5,G6,G7",
        ),
        (
            "
             7 . . . . . . .
             6 . . . . . X .
             5 . . . . X . .
             4 . . . X . . .
             3 . . X . . . .
             2 . X . . . . .
             1 . . . . . . .
               A B C D E F G
            ",
            Color::Black,
            "B2,C3,D4,E5,F6",
        ),
        (
            "
             7 O . . . . . .
             6 . O . . . . .
             5 . . O . . . .
             4 . . . O . . .
             3 . . . . O . .
             2 . . . . . . .
             1 . . . . . . .
               A B C D E F G
            ",
            Color::White,
            "A7,B6,C5,D4,E3",
        ),
        (
            "
             7 . . . . . . .
             6 X X . X X X .
             5 . . . . . . .
             4 . O O O O . .
             3 . . . . . . .
             2 . . . . . . .
             1 . . . . . . .
               A B C D E F G
            ",
            Color::Black,
            "-",
        ),
    ];
    for (text, color, expected) in cases {
        let board = stones(text);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            let found = find_five(&board, rule, color).unwrap_or_default();
            assert_eq!(format_point_list(&found, board.size()), expected, "{rule}, {color}:\n{text}");
            // The other colour has no five on these boards.
            assert_eq!(find_five(&board, rule, color.opponent()), None, "{rule}:\n{text}");
        }
    }
}

/// 13 black and 12 white stones fill the 5x5 board in 2x1 blocks: no line holds more than two stones of a colour
/// in a row.
const FULL_DRAW: &str = "
 5 X X O O X
 4 O O X X O
 3 X X O O X
 2 O O X X O
 1 X X O O X
   A B C D E
";

/// Shows: a full board with no five is a draw: the board is full, nobody has a five under any rule, every point
/// is an illegal move, and there are no forbidden points.
#[test]
fn full_board_without_five_is_a_draw() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::CaroOverline, Rule::Caro] {
        let mut board = setup(FULL_DRAW, rule);
        assert!(board.board().is_full(), "{rule}");
        assert_eq!(board.board().stone_count(), 25);
        for color in Color::BOTH {
            assert_eq!(find_five(board.board(), rule, color), None, "{rule} {color}");
            for p in board.board().points().collect::<Vec<_>>() {
                assert_eq!(board.outcome(p, color), MoveOutcome::Illegal, "{rule} {color}");
            }
        }
        assert!(board.forbidden_points().is_empty(), "{rule}");
        // The text round-trips.
        assert_eq!(parse_ascii(&board.board().to_ascii()).unwrap(), parse_ascii(FULL_DRAW).unwrap());
    }
    // One stone short of full is not full, and that point is a legal move again.
    let mut board = setup(FULL_DRAW, Rule::Freestyle);
    let (p, c) = board.undo().expect("a full board has stones");
    assert!(!board.board().is_full());
    assert_eq!(board.outcome(p, c), MoveOutcome::Normal);
    assert_eq!(board.difference(&board.rebuilt()), None);
}

// ---------------------------------------------------------------------------------------------------------------
// 10. The checks leave the board as they found it
// ---------------------------------------------------------------------------------------------------------------

/// Shows: on every renju board of this file, asking about any point (forbidden_kind, outcome for both colours,
/// forbidden_points) and making and taking back any move leaves the board unchanged and in step with a rebuild
/// from its stones; and the verdicts do not change when asked twice.
#[test]
fn forbidden_checks_leave_the_board_unchanged() {
    for &(name, text) in RENJU_BOARDS {
        let mut board = check_renju(name, text);
        let before = board.clone();
        assert_untouched(&board, &before, name);
        let first = board.forbidden_points();
        for p in board.board().points().collect::<Vec<_>>() {
            let kind = board.forbidden_kind(p);
            assert_untouched(&board, &before, &format!("{name}: forbidden_kind {}", p.notation(15)));
            for color in Color::BOTH {
                board.outcome(p, color);
                assert_untouched(&board, &before, &format!("{name}: outcome {} {color}", p.notation(15)));
                if board.board().is_empty(p) {
                    board.make(p, color);
                    board.forbidden_points();
                    board.undo();
                    assert_untouched(&board, &before, &format!("{name}: make/undo {} {color}", p.notation(15)));
                }
            }
            assert_eq!(board.forbidden_kind(p), kind, "{name}: {} asked twice", p.notation(15));
        }
        assert_eq!(board.forbidden_points(), first, "{name}");
        assert_eq!(board.board().to_ascii(), before.board().to_ascii(), "{name}");
        // Taking back a stone of the set-up position and putting it back also gives the same board.
        let (p, c) = board.undo().expect("every board has stones");
        assert_eq!(board.difference(&board.rebuilt()), None, "{name}: undo of a set-up stone");
        board.make(p, c);
        assert_untouched(&board, &before, &format!("{name}: undo and redo of the set-up stone {}", p.notation(15)));
        assert_eq!(board.forbidden_points(), first, "{name}");
    }
}
