//! The opening book: positions Tengen has searched deeply, each with its moves and their scores, kept under the
//! board's eight symmetries as one position. The engine plays from it at once while a game is in it ([`Book::choose`]),
//! `pbrain-tengen book build` grows it ([`build`]), and an embedded book for renju ships in the binary.
//!
//! The file is text (`data/book/renju.book` is one):
//! ```text
//! tengen-book 1
//! rule renju
//! size 15
//! # black stones, white stones, moves (point score depth, best first; the side to move's scores), tab-separated
//! H8,J10<TAB>H9<TAB>I10 24 14 3/0/1,G9 -8 14
//! ```
//! Each position is written in its canonical orientation (the image under the symmetry whose stone list is least),
//! stones in `H8` notation as position lines have them (`-` for none). A move's score is the search's, for the side
//! to move: a move whose position is in the book carries that position's backed-up (minimax) value, negated
//! ([`Book::back_up`]), so the engine chooses by what the deeper searches found. A move some games played carries
//! their results for its mover (`W/D/L`, [`learn`]), and the engine chooses by the score and the results together.

pub mod build;
pub mod learn;
pub mod reached;

use crate::pattern::{MoveOutcome, PatternBoard};
use crate::types::{Color, Pos, Rule};
use learn::{Tally, learned_score};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A position's stones in one orientation: each stone as `colour << 15 | point index`, sorted.
pub type Key = Vec<u16>;

/// A book move: the point in the canonical orientation, its score for the side to move, the search depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The point (canonical orientation).
    pub point: Pos,
    /// The score for the side to move.
    pub score: i32,
    /// The depth of the search that scored it (for a move the builder went on from: that search's).
    pub depth: u16,
    /// How the games that played it went for its mover ([`learn::learn`]).
    pub tally: Tally,
}

impl BookMove {
    /// A move a search scored, no game played yet.
    #[must_use]
    pub fn new(point: Pos, score: i32, depth: u16) -> BookMove {
        BookMove { point, score, depth, tally: Tally::default() }
    }

    /// What the engine ranks it by where games went through its position: the score blended with the games'
    /// results ([`learned_score`]).
    #[must_use]
    pub fn learned(&self) -> i32 {
        learned_score(self.score, self.tally)
    }
}

/// The book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// The rule its positions are about.
    pub rule: Rule,
    /// The board side.
    pub size: usize,
    /// Positions (canonical) → their moves, best first.
    pub entries: BTreeMap<Key, Vec<BookMove>>,
}

/// Which book the engine plays from. None by default: through a runner that keeps the opponent's process the
/// shipped book scores no better than the search alone (docs/matches.md, "Fresh or kept processes").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BookChoice {
    /// The book the binary embeds for the game's rule (renju), if any (`INFO book 1`, `--book builtin`).
    Embedded,
    /// No book: every move is searched.
    #[default]
    Off,
    /// A book read from a file (`--book FILE`).
    File(&'static Book),
}

impl BookChoice {
    /// The book for a game under `rule` on a board of `size`, if there is one.
    #[must_use]
    pub fn get(self, rule: Rule, size: usize) -> Option<&'static Book> {
        match self {
            BookChoice::Embedded => Book::embedded(rule, size),
            BookChoice::Off => None,
            BookChoice::File(book) => (book.rule == rule && book.size == size).then_some(book),
        }
    }
}

/// The inverse of symmetry `k` ([`Pos::transform`]): the quarter turns 5 and 6 undo each other, the rest are their
/// own inverses.
#[must_use]
pub const fn inverse(k: usize) -> usize {
    match k {
        5 => 6,
        6 => 5,
        k => k,
    }
}

/// The key of `stones` under symmetry `k`.
fn key_under(stones: &[(Pos, Color)], size: usize, k: usize) -> Key {
    let mut key: Key =
        stones.iter().map(|&(p, c)| ((c.index() as u16) << 15) | p.transform(size, k).index() as u16).collect();
    key.sort_unstable();
    key
}

/// The stones of a key, as [`key_under`] packs them.
pub(crate) fn key_stones(key: &[u16]) -> impl Iterator<Item = (Pos, Color)> + '_ {
    key.iter()
        .map(|&s| (Pos::from_index(usize::from(s & 0x7fff)), if s >> 15 == 0 { Color::Black } else { Color::White }))
}

/// The canonical key of `stones` and the symmetry that takes them there.
#[must_use]
pub fn canonical(stones: &[(Pos, Color)], size: usize) -> (Key, usize) {
    (0..8).map(|k| (key_under(stones, size, k), k)).min().unwrap_or_default()
}

/// The values a position's moves are ranked by: [`BookMove::learned`] where games went through the position, the
/// scores where none did.
#[must_use]
pub fn ranking(moves: &[BookMove]) -> Vec<i32> {
    let learning = moves.iter().any(|m| m.tally.games() > 0);
    moves.iter().map(|m| if learning { m.learned() } else { m.score }).collect()
}

/// The move a position's list ranks first ([`ranking`]; ties to the first).
#[must_use]
pub fn first_choice(moves: &[BookMove]) -> Option<Pos> {
    moves.iter().zip(ranking(moves)).rev().max_by_key(|&(_, v)| v).map(|(m, _)| m.point)
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new(rule: Rule, size: usize) -> Book {
        Book { rule, size, entries: BTreeMap::new() }
    }

    /// The embedded book for `rule` on a board of `size`, if one ships (renju, 15×15).
    #[must_use]
    pub fn embedded(rule: Rule, size: usize) -> Option<&'static Book> {
        static RENJU: OnceLock<Option<Book>> = OnceLock::new();
        if rule != Rule::Renju || size != 15 {
            return None;
        }
        RENJU
            .get_or_init(|| match Book::parse(include_str!("../../data/book/renju.book")) {
                Ok(book) => Some(book),
                Err(e) => {
                    log::warn!("the embedded renju book: {e}");
                    None
                }
            })
            .as_ref()
    }

    /// How many positions it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's moves at `pb`, in `pb`'s orientation, best first; empty when the position is not in the book.
    #[must_use]
    pub fn moves(&self, pb: &PatternBoard) -> Vec<BookMove> {
        let board = pb.board();
        if pb.rule() != self.rule || board.size() != self.size {
            return Vec::new();
        }
        let (key, k) = canonical(board.moves(), self.size);
        let back = inverse(k);
        self.entries.get(&key).map_or_else(Vec::new, |moves| {
            moves.iter().map(|m| BookMove { point: m.point.transform(self.size, back), ..*m }).collect()
        })
    }

    /// A move to play at `pb` for `side`: one of the book's moves within `margin` of its best, picked by `pick`
    /// (given how many there are), never one that is taken, forbidden, in `blocked` or otherwise not playable.
    /// Where some of the moves were played in games, moves are ranked by [`BookMove::learned`] (their scores and
    /// the games' results), otherwise by their scores.
    pub fn choose(
        &self,
        pb: &PatternBoard,
        side: Color,
        margin: i32,
        blocked: &[Pos],
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<BookMove> {
        let moves = self.moves(pb);
        let values = ranking(&moves);
        let best = values.iter().copied().max()?;
        let mut probe = pb.clone();
        let good: Vec<BookMove> = moves
            .into_iter()
            .zip(values)
            .filter(|&(m, v)| v >= best.saturating_sub(margin) && !blocked.contains(&m.point))
            .map(|(m, _)| m)
            .filter(|m| {
                m.point.on_board(self.size)
                    && probe.board().is_empty(m.point)
                    && !matches!(probe.outcome(m.point, side), MoveOutcome::Illegal | MoveOutcome::Forbidden(_))
            })
            .collect();
        if good.is_empty() {
            return None;
        }
        good.get(pick(good.len()).min(good.len() - 1)).copied()
    }

    /// Sets the moves of the position `stones` (given in any orientation, points in that orientation).
    pub fn insert(&mut self, stones: &[(Pos, Color)], moves: &[BookMove]) {
        let (key, k) = canonical(stones, self.size);
        let mut moves: Vec<BookMove> =
            moves.iter().map(|m| BookMove { point: m.point.transform(self.size, k), ..*m }).collect();
        moves.sort_by_key(|m| (std::cmp::Reverse(m.score), m.point.index()));
        self.entries.insert(key, moves);
    }

    /// Backs the scores up the book (minimax): a move whose position is in the book takes the negated value of that
    /// position (its best move's score, itself backed up), so a move whose line the builder found worse further on
    /// counts as worse here, and the choice and the file show it. Each position's moves are sorted best first again.
    /// Doing it twice changes nothing; [`Book::parse`] and the builder do it.
    pub fn back_up(&mut self) {
        // A position's children hold one stone more: the positions with the most stones go first.
        let mut keys: Vec<Key> = self.entries.keys().cloned().collect();
        keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
        let mut values: BTreeMap<Key, i32> = BTreeMap::new();
        for key in keys {
            let Some(mut moves) = self.entries.remove(&key) else { continue };
            let stones: Vec<(Pos, Color)> = key_stones(&key).collect();
            let side = Color::to_move(stones.len());
            for m in &mut moves {
                if !m.point.on_board(self.size) || stones.iter().any(|&(p, _)| p == m.point) {
                    continue;
                }
                let mut child = stones.clone();
                child.push((m.point, side));
                if let Some(&v) = values.get(&canonical(&child, self.size).0) {
                    m.score = v.saturating_neg();
                }
            }
            moves.sort_by_key(|m| (std::cmp::Reverse(m.score), m.point.index()));
            if let Some(best) = moves.first() {
                values.insert(key.clone(), best.score);
            }
            self.entries.insert(key, moves);
        }
    }

    /// The book as its file's text.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = format!("tengen-book 1\nrule {}\nsize {}\n", self.rule.name(), self.size);
        out.push_str(
            "# black stones\twhite stones\tmoves: point score depth [W/D/L of games], best first (for the side to move)\n",
        );
        let names = |ps: &[Pos]| {
            if ps.is_empty() {
                "-".to_string()
            } else {
                ps.iter().map(|p| p.notation(self.size)).collect::<Vec<_>>().join(",")
            }
        };
        for (key, moves) in &self.entries {
            let mut sides = [Vec::new(), Vec::new()];
            for (p, c) in key_stones(key) {
                sides[c.index()].push(p);
            }
            let list: Vec<String> = moves
                .iter()
                .map(|m| {
                    let games = if m.tally.games() > 0 { format!(" {}", m.tally.text()) } else { String::new() };
                    format!("{} {} {}{games}", m.point.notation(self.size), m.score, m.depth)
                })
                .collect();
            out.push_str(&format!("{}\t{}\t{}\n", names(&sides[0]), names(&sides[1]), list.join(",")));
        }
        out
    }

    /// Writes the book to `path` through a temporary file, so that a stop in the middle leaves the old one whole.
    ///
    /// # Errors
    /// `cannot write PATH: …`.
    pub fn save(&self, path: &str) -> Result<(), String> {
        let tmp = format!("{path}.tmp");
        std::fs::write(&tmp, self.to_text())
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {path}: {e}"))
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// The first line that is wrong, with its number.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
        let mut header = |what: &str| -> Result<String, String> {
            let (n, line) = lines.next().ok_or_else(|| format!("the book ends before its {what} line"))?;
            let (word, value) = line.split_once(' ').unwrap_or((line, ""));
            if word.trim() != what {
                return Err(format!("line {}: expected '{what} …', found '{line}'", n + 1));
            }
            Ok(value.trim().to_string())
        };
        if header("tengen-book")? != "1" {
            return Err("line 1: expected 'tengen-book 1' (this book is another version)".to_string());
        }
        let rule: Rule = header("rule")?.parse()?;
        let size: usize = header("size")?.parse().map_err(|_| "the size line is not a number".to_string())?;
        if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
            return Err(format!("board size {size} is not supported"));
        }
        let mut book = Book::new(rule, size);
        for (n, line) in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            let [black, white, list] = fields[..] else {
                return Err(format!("line {}: expected black stones, white stones and moves between tabs", n + 1));
            };
            let stones_of = |text: &str, c: Color| -> Result<Vec<(Pos, Color)>, String> {
                if text.trim() == "-" {
                    return Ok(Vec::new());
                }
                crate::types::parse_point_list(text, size)
                    .map(|ps| ps.into_iter().map(|p| (p, c)).collect())
                    .map_err(|e| format!("line {}: {e}", n + 1))
            };
            let mut stones = stones_of(black, Color::Black)?;
            stones.extend(stones_of(white, Color::White)?);
            let mut moves = Vec::new();
            for item in list.split(',').filter(|i| !i.trim().is_empty()) {
                let words: Vec<&str> = item.split_whitespace().collect();
                let (first, tally) = match words[..] {
                    [p, s, d] => (Some((p, s, d)), Some(Tally::default())),
                    [p, s, d, t] => (Some((p, s, d)), Tally::parse(t)),
                    _ => (None, None),
                };
                let parsed = first.and_then(|(p, s, d)| {
                    Pos::parse(p, size).ok().zip(s.parse::<i32>().ok()).zip(d.parse::<u16>().ok()).zip(tally)
                });
                let Some((((point, score), depth), tally)) = parsed else {
                    return Err(format!(
                        "line {}: bad move '{}' (expected point score depth [W/D/L])",
                        n + 1,
                        item.trim()
                    ));
                };
                moves.push(BookMove { point, score, depth, tally });
            }
            book.insert(&stones, &moves);
        }
        book.back_up();
        Ok(book)
    }

    /// A book file read once per process (a GUI may send the same setting again).
    ///
    /// # Errors
    /// As [`Book::load`].
    pub fn load_cached(path: &str) -> Result<&'static Book, String> {
        static LOADED: std::sync::Mutex<Vec<(String, &'static Book)>> = std::sync::Mutex::new(Vec::new());
        let mut loaded = LOADED.lock().map_err(|_| "book cache poisoned".to_string())?;
        if let Some((_, b)) = loaded.iter().find(|(p, _)| p == path) {
            return Ok(b);
        }
        let book: &'static Book = Box::leak(Box::new(Book::load(path)?));
        loaded.push((path.to_string(), book));
        Ok(book)
    }

    /// The book in `path` to grow further, or a new one of `rule` and `size` where there is no file; refused when
    /// the file holds another rule's or size's book.
    ///
    /// # Errors
    /// The file cannot be read, what is wrong in it, or its rule and size.
    pub fn load_or_new(path: &str, rule: Rule, size: usize) -> Result<Book, String> {
        let book = match std::fs::read_to_string(path) {
            Ok(text) => Book::parse(&text).map_err(|e| format!("{path}: {e}"))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Book::new(rule, size),
            Err(e) => return Err(format!("cannot read {path}: {e}")),
        };
        if (book.rule, book.size) != (rule, size) {
            return Err(format!(
                "{path} is a {} book on {}x{}, not {}",
                book.rule.name(),
                book.size,
                book.size,
                rule.name()
            ));
        }
        Ok(book)
    }

    /// What `book show` prints for the position `moves` lead to (each argument a move or a comma-separated list):
    /// how many positions the book holds, and the position's moves with their scores, depths and games.
    ///
    /// # Errors
    /// A bad or taken move.
    pub fn show(&self, moves: &[String]) -> Result<String, String> {
        let mut pb = PatternBoard::new(self.size, self.rule).map_err(|e| e.to_string())?;
        for (i, w) in moves.iter().flat_map(|m| m.split(',')).filter(|w| !w.is_empty()).enumerate() {
            let p = Pos::parse(w, self.size)?;
            if !pb.board().is_empty(p) {
                return Err(format!("{w} is taken"));
            }
            pb.make(p, Color::to_move(i));
        }
        let moves = self.moves(&pb);
        let text = if moves.is_empty() {
            "not in the book".to_string()
        } else {
            moves
                .iter()
                .map(|m| {
                    let games = match m.tally.games() {
                        0 => String::new(),
                        _ => format!(", games {}, learned {}", m.tally.text(), m.learned()),
                    };
                    format!("{} {} (depth {}{games})", m.point.notation(self.size), m.score, m.depth)
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        Ok(format!("{} positions; here: {text}", self.len()))
    }

    /// Reads a book file from disk.
    ///
    /// # Errors
    /// The file cannot be read, or what is wrong in it.
    pub fn load(path: &str) -> Result<Book, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Book::parse(&text).map_err(|e| format!("{path}: {e}"))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::records::{GameRecord, Outcome};

    /// A renju game on 15×15 from `moves` (`H8` notation), the first three the opening, for the book's tests.
    pub(crate) fn renju_game(moves: &[&str], outcome: Outcome) -> GameRecord {
        GameRecord {
            rule: Rule::Renju,
            size: 15,
            outcome,
            opening: 3,
            moves: moves.iter().map(|m| Pos::parse(m, 15).expect("point")).collect(),
            scores: None,
            players: None,
            best: None,
            forbidden_end: None,
        }
    }

    fn board(moves: &[&str]) -> PatternBoard {
        let mut pb = PatternBoard::new(15, Rule::Renju).expect("board");
        for (i, m) in moves.iter().enumerate() {
            pb.make(Pos::parse(m, 15).expect("point"), Color::to_move(i));
        }
        pb
    }

    #[test]
    fn every_symmetry_finds_the_same_position_and_maps_its_moves() {
        let pb = board(&["h8", "h9", "j10"]);
        let mut book = Book::new(Rule::Renju, 15);
        let i10 = Pos::parse("i10", 15).expect("point");
        book.insert(pb.board().moves(), &[BookMove::new(i10, 30, 12)]);
        for k in 0..8 {
            let mut image = PatternBoard::new(15, Rule::Renju).expect("board");
            for &(p, c) in pb.board().moves() {
                image.make(p.transform(15, k), c);
            }
            let moves = book.moves(&image);
            assert_eq!(moves.len(), 1, "symmetry {k}");
            assert_eq!(moves[0].point, i10.transform(15, k), "symmetry {k}");
        }
        assert!(book.moves(&board(&["h8", "h9"])).is_empty());
        for k in 0..8 {
            assert_eq!(Pos::new(3, 11).transform(15, k).transform(15, inverse(k)), Pos::new(3, 11));
        }
    }

    #[test]
    fn the_file_goes_out_and_back_and_bad_lines_say_where() {
        let mut book = Book::new(Rule::Renju, 15);
        let pb = board(&["h8", "h9", "j10"]);
        let p = |s: &str| Pos::parse(s, 15).expect("point");
        book.insert(pb.board().moves(), &[BookMove::new(p("i10"), -5, 12), BookMove::new(p("g9"), 20, 11)]);
        book.insert(&[], &[BookMove::new(p("h8"), 0, 1)]);
        let text = book.to_text();
        assert_eq!(Book::parse(&text), Ok(book.clone()));
        // Best first, in the canonical orientation.
        let line = text.lines().find(|l| l.matches(',').count() >= 1 && l.contains(" 20 11")).expect("the position");
        assert!(line.split('\t').nth(2).is_some_and(|m| m.find(" 20 11") < m.find(" -5 12")), "{text}");
        assert!(Book::parse("tengen-book 2\n").is_err_and(|e| e.contains("version")));
        assert!(Book::parse("tengen-book 1\nrule renju\nsize 15\nH8\tH9\n").is_err_and(|e| e.starts_with("line 4")));
        assert!(
            Book::parse("tengen-book 1\nrule renju\nsize 15\nH8\tH9\tZ9 1 2\n").is_err_and(|e| e.contains("bad move"))
        );
        assert!(Book::parse("tengen-book 1\nrule chess\n").is_err());
    }

    #[test]
    fn scores_are_backed_up_from_the_positions_moves_lead_to_in_any_orientation() {
        let p = |s: &str| Pos::parse(s, 15).expect("point");
        let mv = |s: &str, score: i32| BookMove::new(p(s), score, 14);
        let start = board(&["h8", "h9", "i10"]);
        let mut book = Book::new(Rule::Renju, 15);
        // White to move: J8 searched best at once, but deeper on Black answers it better than I8's reply.
        book.insert(start.board().moves(), &[mv("j8", -490), mv("i8", -550), mv("k9", -678)]);
        book.insert(board(&["h8", "h9", "i10", "j8"]).board().moves(), &[mv("g9", 773)]);
        // I8's line, stored mirrored left to right, two plies deep: White's -600 after J10 backs up to I8.
        let mirrored = |moves: &[&str]| {
            let mut pb = PatternBoard::new(15, Rule::Renju).expect("board");
            for (i, m) in moves.iter().enumerate() {
                pb.make(p(m).transform(15, 1), Color::to_move(i));
            }
            pb
        };
        book.insert(
            mirrored(&["h8", "h9", "i10", "i8"]).board().moves(),
            &[BookMove::new(p("j10").transform(15, 1), 573, 16)],
        );
        book.insert(board(&["h8", "h9", "i10", "i8", "j10"]).board().moves(), &[mv("g10", -600), mv("j9", -650)]);
        let raw = book.clone();
        assert_eq!(raw.choose(&start, Color::White, 10, &[], |_| 0).map(|m| m.point), Some(p("j8")));
        book.back_up();
        let scores: Vec<(Pos, i32)> = book.moves(&start).iter().map(|m| (m.point, m.score)).collect();
        assert_eq!(scores, vec![(p("i8"), -600), (p("k9"), -678), (p("j8"), -773)]);
        assert_eq!(book.choose(&start, Color::White, 10, &[], |_| 0).map(|m| m.point), Some(p("i8")));
        // Once is enough; reading a file backs it up, so old files are read backed up too.
        let again = {
            let mut b = book.clone();
            b.back_up();
            b
        };
        assert_eq!(again, book);
        assert_eq!(Book::parse(&raw.to_text()), Ok(book.clone()));
        assert_eq!(Book::parse(&book.to_text()), Ok(book));
    }

    #[test]
    fn where_games_went_through_a_position_their_results_rank_its_moves() {
        let pb = board(&["h8", "h9", "j10"]);
        let p = |s: &str| Pos::parse(s, 15).expect("point");
        let played = |s: &str, score, wins, draws, losses| BookMove {
            tally: Tally { wins, draws, losses },
            ..BookMove::new(p(s), score, 16)
        };
        let mut book = Book::new(Rule::Renju, 15);
        // The search's best lost every game it was played in; the third best won about a third of many.
        let moves = [played("i10", -616, 0, 0, 36), BookMove::new(p("k8"), -650, 14), played("g9", -736, 29, 6, 67)];
        book.insert(pb.board().moves(), &moves);
        assert_eq!(book.choose(&pb, Color::White, 10, &[], |_| 0).map(|m| m.point), Some(p("g9")));
        // As without games: when the best is blocked, nothing within the margin is left and the engine searches.
        assert_eq!(book.choose(&pb, Color::White, 10, &[p("g9")], |_| 0), None);
        assert_eq!(book.choose(&pb, Color::White, 800, &[p("g9")], |_| 0).map(|m| m.point), Some(p("k8")));
        // The tallies go out to the file and back; the moves stay sorted by score.
        assert_eq!(Book::parse(&book.to_text()), Ok(book.clone()));
        let text = book.to_text();
        let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("{needle} missing: {text}"));
        assert!(at(" -616 16 0/0/36,") < at(" -650 14,") && at(" -650 14,") < at(" -736 16 29/6/67\n"), "{text}");
        // Without games, the scores rank them.
        let bare: Vec<BookMove> = moves.iter().map(|m| BookMove::new(m.point, m.score, m.depth)).collect();
        book.insert(pb.board().moves(), &bare);
        assert_eq!(book.choose(&pb, Color::White, 10, &[], |_| 0).map(|m| m.point), Some(p("i10")));
        assert!(
            Book::parse("tengen-book 1\nrule renju\nsize 15\nH8\tH9\tG9 1 2 3/4\n").is_err_and(|e| e.contains("W/D/L"))
        );
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_never_plays_a_forbidden_point() {
        // Black to move; H8 would make two open threes (H7 H8 H9 and G8 H8 J8): forbidden.
        let pb = board(&["h7", "a1", "h9", "a2", "g8", "a3", "j8", "a15"]);
        let p = |s: &str| Pos::parse(s, 15).expect("point");
        assert!(pb.clone().forbidden_kind(p("h8")).is_some());
        let mut book = Book::new(Rule::Renju, 15);
        book.insert(
            pb.board().moves(),
            &[
                BookMove::new(p("h8"), 60, 10),
                BookMove::new(p("j7"), 50, 10),
                BookMove::new(p("g7"), 45, 10),
                BookMove::new(p("o15"), -100, 10),
            ],
        );
        let chosen: Vec<Pos> =
            (0..4).filter_map(|i| book.choose(&pb, Color::Black, 20, &[], |n| i % n)).map(|m| m.point).collect();
        assert_eq!(chosen.len(), 4);
        assert!(chosen.iter().all(|&c| c == p("j7") || c == p("g7")), "{chosen:?}");
        assert!(chosen.contains(&p("j7")) && chosen.contains(&p("g7")));
        assert_eq!(book.choose(&pb, Color::Black, 20, &[p("j7"), p("g7")], |_| 0), None);
        assert_eq!(book.choose(&pb, Color::Black, 200, &[p("j7"), p("g7")], |_| 0).map(|m| m.point), Some(p("o15")));
    }
}
