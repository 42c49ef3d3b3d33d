//! Growing the book: best-first expansion with minimax-backed scores ("drop-out expansion", as book builders for
//! engines do it).
//!
//! Every position in the book holds the moves searched there: the ones the builder went on from, whose scores are
//! the negated values of the positions they lead to, and one more, the best move the search finds when those are
//! left out (with its search score). A position's value is its best move's score. A move's cost is how much worse
//! than its position's best it is, summed along the line from a start position, plus a cost per stone so that the
//! book grows broad near the start and deep along the best lines. Each step expands the cheapest move not yet gone
//! on from: the position it leads to is searched, and its parent is searched again for the next alternative. The
//! book is complete for a drop when no move costs less. Start positions are searched first. Nothing here knows the
//! engine: the search is the caller's.

use super::{Book, BookMove, canonical};
use crate::pattern::PatternBoard;
use crate::types::{Color, Pos};
use std::collections::BTreeMap;

/// What the builder asks of a search: the best move at a position (leaving out `exclude`), with its score for the
/// side to move and the depth reached; `None` when there is no move to make.
pub type Search<'a> = dyn FnMut(&PatternBoard, &[Pos]) -> Option<(Pos, i32, u16)> + 'a;

/// How the book grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Searches to make in this run (each expansion makes two).
    pub searches: usize,
    /// The largest cost a move may have and still be expanded.
    pub max_drop: i32,
    /// The cost of each stone beyond the start position.
    pub stone_cost: i32,
    /// Stones beyond which no position is expanded.
    pub max_stones: usize,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions { searches: 200, max_drop: 120, stone_cost: 6, max_stones: 40 }
    }
}

/// What a step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A start position was searched.
    Start(Vec<Pos>),
    /// The move at the end of the line was gone on from, at this cost.
    Expanded(Vec<Pos>, i64),
    /// No move is cheap enough: the book is complete for these options.
    Complete,
}

/// The stones of `moves` played in order (Black first) on a board like `pb`'s, or `None` when one cannot be played.
fn position(empty: &PatternBoard, moves: &[Pos]) -> Option<PatternBoard> {
    let mut pb = empty.clone();
    for (i, &p) in moves.iter().enumerate() {
        if !p.on_board(pb.board().size()) || !pb.board().is_empty(p) {
            return None;
        }
        pb.make(p, Color::to_move(i));
    }
    Some(pb)
}

/// The builder's walk over the book: the cheapest move to go on from.
struct Walk<'a> {
    book: &'a Book,
    empty: &'a PatternBoard,
    options: BuildOptions,
    /// The least cost at which each position was reached in this walk.
    reached: BTreeMap<super::Key, i64>,
    best: Option<(i64, Vec<Pos>)>,
}

impl Walk<'_> {
    /// The value of the position after `moves` (its best move's score: the book is kept backed up), if the book has
    /// it.
    fn value(&self, moves: &[Pos]) -> Option<i32> {
        let pb = position(self.empty, moves)?;
        self.book.moves(&pb).iter().map(|m| m.score).max()
    }

    /// Looks for the cheapest move not gone on from below the position after `moves`, reached at `cost`.
    fn search(&mut self, moves: &mut Vec<Pos>, cost: i64, start_len: usize) {
        let Some(pb) = position(self.empty, moves) else { return };
        let (key, _) = canonical(pb.board().moves(), self.book.size);
        if self.reached.get(&key).is_some_and(|&c| c <= cost) {
            return;
        }
        self.reached.insert(key, cost);
        let Some(value) = self.value(moves) else { return };
        if moves.len() >= self.options.max_stones {
            return;
        }
        let stone = i64::from(self.options.stone_cost) * (moves.len() + 1 - start_len) as i64;
        let side = Color::to_move(moves.len());
        // A five ends the game: its score stands as the search gave it, and nothing follows it.
        for m in self.book.moves(&pb).into_iter().filter(|m| !pb.is_five(side, m.point)) {
            moves.push(m.point);
            let known = self.value(moves).is_some();
            let drop = i64::from(value) - i64::from(m.score);
            let total = cost + drop.max(0) + stone;
            if total <= i64::from(self.options.max_drop) {
                if known {
                    self.search(moves, total, start_len);
                } else if self.best.as_ref().is_none_or(|(c, line)| (total, moves.len()) < (*c, line.len())) {
                    self.best = Some((total, moves.clone()));
                }
            }
            moves.pop();
        }
    }
}

/// Runs build steps while `options.searches` allows (an expansion makes two searches) or until the book is complete; `after` sees the book after
/// each step (to save it) and may stop the run by returning `false`. Returns the searches made.
pub fn build(
    book: &mut Book,
    empty: &PatternBoard,
    starts: &[Vec<Pos>],
    options: BuildOptions,
    search: &mut Search<'_>,
    mut after: impl FnMut(&Book, &Step) -> bool,
) -> usize {
    let mut searches = 0;
    // Start positions first.
    for start in starts {
        if searches >= options.searches {
            return searches;
        }
        let Some(pb) = position(empty, start) else { continue };
        if !book.moves(&pb).is_empty() {
            continue;
        }
        searches += 1;
        if let Some((p, score, depth)) = search(&pb, &[]) {
            book.insert(pb.board().moves(), &[BookMove::new(p, score, depth)]);
        }
        book.back_up();
        if !after(book, &Step::Start(start.clone())) {
            return searches;
        }
    }
    while searches + 2 <= options.searches {
        let mut walk = Walk { book, empty, options, reached: BTreeMap::new(), best: None };
        for start in starts {
            walk.search(&mut start.clone(), 0, start.len());
        }
        let Some((cost, line)) = walk.best else {
            after(book, &Step::Complete);
            return searches;
        };
        // The position the move leads to.
        let Some(child) = position(empty, &line) else { break };
        searches += 1;
        let child_moves = match search(&child, &[]) {
            Some((p, score, depth)) => vec![BookMove::new(p, score, depth)],
            // No move (a full board): the position is a draw.
            None => vec![BookMove::new(Pos::new(0, 0), 0, 0)],
        };
        book.insert(child.board().moves(), &child_moves);
        // The parent's next alternative, the moves gone on from (and their images) left out.
        let parent_line = &line[..line.len() - 1];
        if let Some(parent) = position(empty, parent_line) {
            let mut entry = book.moves(&parent);
            let mut exclude = Vec::new();
            for m in &entry {
                exclude.extend(crate::opening_rule::images(&parent, m.point));
            }
            searches += 1;
            if let Some((p, score, depth)) = search(&parent, &exclude)
                && !exclude.contains(&p)
            {
                entry.push(BookMove::new(p, score, depth));
                book.insert(parent.board().moves(), &entry);
            }
        }
        book.back_up();
        if !after(book, &Step::Expanded(line, cost)) {
            break;
        }
    }
    searches
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    /// A made-up search on a 9×9 board: the best move is the lowest free point index not excluded, scored by how
    /// far it is from the centre (negative for the mover's far moves), so the tree's shape is known.
    fn toy(pb: &PatternBoard, exclude: &[Pos]) -> Option<(Pos, i32, u16)> {
        let size = pb.board().size();
        let mut free: Vec<Pos> = (0..size * size)
            .map(|i| Pos::new(i % size, i / size))
            .filter(|&p| pb.board().is_empty(p) && !exclude.contains(&p))
            .collect();
        free.sort_by_key(|p| ((p.x as i32 - 4).abs() + (p.y as i32 - 4).abs(), p.index()));
        let p = *free.first()?;
        Some((p, 10 - 5 * ((p.x as i32 - 4).abs() + (p.y as i32 - 4).abs()), 3))
    }

    #[test]
    fn the_book_grows_from_the_start_along_the_cheapest_moves_and_stops_when_complete() {
        let empty = PatternBoard::new(9, Rule::Freestyle).expect("board");
        let mut book = Book::new(Rule::Freestyle, 9);
        let starts = vec![vec![Pos::new(4, 4)]];
        let options = BuildOptions { searches: 30, max_drop: 40, stone_cost: 5, max_stones: 6 };
        let mut steps = Vec::new();
        let made = build(&mut book, &empty, &starts, options, &mut toy, |_, s| {
            steps.push(s.clone());
            true
        });
        assert!(made <= 30);
        assert_eq!(steps[0], Step::Start(vec![Pos::new(4, 4)]));
        // Costs never fall below the cost of the stones, and each expanded line starts at the start position.
        for s in &steps[1..] {
            if let Step::Expanded(line, cost) = s {
                assert_eq!(line[0], Pos::new(4, 4));
                assert!(*cost >= 5 * (line.len() as i64 - 1), "{s:?}");
                assert!(line.len() <= 6);
            }
        }
        // Every position in the book has a move, and the start's value is backed up from its children.
        assert!(book.len() > 3);
        let start = position(&empty, &starts[0]).expect("start");
        assert!(book.moves(&start).len() >= 2, "the start was widened");
        // The book is kept backed up: a move whose position is in the book scores minus that position's best.
        let mut backed = 0;
        for (key, moves) in &book.entries {
            let stones: Vec<(Pos, Color)> = crate::book::key_stones(key).collect();
            let side = Color::to_move(stones.len());
            for m in moves {
                let mut child = stones.clone();
                child.push((m.point, side));
                if let Some(next) = book.entries.get(&crate::book::canonical(&child, 9).0) {
                    assert_eq!(m.score, -next[0].score, "{key:?} {m:?}");
                    backed += 1;
                }
            }
        }
        assert!(backed >= 3, "{backed}");
        // With room for everything and enough searches, the run ends complete.
        let mut small = Book::new(Rule::Freestyle, 9);
        let tight = BuildOptions { searches: 1000, max_drop: 12, stone_cost: 6, max_stones: 4 };
        let mut last = None;
        build(&mut small, &empty, &starts, tight, &mut toy, |_, s| {
            last = Some(s.clone());
            true
        });
        assert_eq!(last, Some(Step::Complete));
    }

    #[test]
    fn a_resumed_build_is_the_same_as_one_run() {
        let empty = PatternBoard::new(9, Rule::Freestyle).expect("board");
        let starts = vec![vec![Pos::new(4, 4)], vec![Pos::new(3, 3)]];
        let options = BuildOptions { searches: 24, max_drop: 60, stone_cost: 5, max_stones: 8 };
        let mut once = Book::new(Rule::Freestyle, 9);
        build(&mut once, &empty, &starts, options, &mut toy, |_, _| true);
        let mut twice = Book::new(Rule::Freestyle, 9);
        let half = BuildOptions { searches: 12, ..options };
        build(&mut twice, &empty, &starts, half, &mut toy, |_, _| true);
        let mut twice = Book::parse(&twice.to_text()).expect("reads");
        build(&mut twice, &empty, &starts, half, &mut toy, |_, _| true);
        assert_eq!(once.to_text(), twice.to_text());
    }
}
