//! The book learns from games: every game that passes through a book position counts, for the move played there,
//! a win, a draw or a loss for the side that played it ([`Tally`]), and the engine chooses among a position's moves
//! by a value that blends the search's score with those results ([`learned_score`]).
//!
//! The search scores a book position from its own point of view; the games say how its lines went against the
//! engines that answered them. Where the search finds every move lost (the renju openings that favour Black put
//! White near −600 at the fourth move) its ranking says little about which line an opponent gets wrong, and a line
//! lost every time it was played should give way to one that was won. The blend is a Bayesian mean in win-rate
//! terms: the search's score, through the logistic curve, counts as [`LEARN_PRIOR`] games, and the results are added
//! to it; a move is ranked by a lower bound on that mean ([`LEARN_Z`]), so that a few games cannot outweigh a wide
//! gap in the search while many can. A position no game went through is ranked by its scores alone.
//!
//! The tallies are recomputed from scratch from the games given (`pbrain-tengen book learn`), so a book's tallies
//! reproduce from the committed game files.

use super::{Book, Key, canonical, first_choice, key_under};
use crate::records::{GameRecord, Outcome};
use crate::types::{Color, Pos};

/// Score units per unit of the logistic curve that turns a book score into a win rate (renju's calibration in
/// `engine/outlook.rs` uses 200 to 300).
pub const LEARN_SCALE: f64 = 250.0;
/// How many games the search's own score counts as.
pub const LEARN_PRIOR: f64 = 8.0;
/// Standard errors of the lower bound a move is ranked by (Wilson's bound on the blended win rate): a move is
/// ranked by what its games show at the least, so a few lucky games do not lift a move the search found far worse,
/// and of two moves with the same record the one played more often ranks first.
pub const LEARN_Z: f64 = 1.0;
/// Scores at or beyond this are proved (a win or a loss found by the solvers): results do not move them.
const PROVED: i32 = 20_000;

/// The games that played a book move, from the point of view of the side that played it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the mover went on to win.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the mover went on to lose.
    pub losses: u32,
}

impl Tally {
    /// How many games it counts.
    #[must_use]
    pub fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mover's points (a draw a half).
    #[must_use]
    pub fn points(self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Counts a game that ended `outcome`, for `mover`'s side.
    pub fn count(&mut self, outcome: Outcome, mover: Color) {
        match (outcome, mover) {
            (Outcome::Draw, _) => self.draws += 1,
            (Outcome::BlackWins, Color::Black) | (Outcome::WhiteWins, Color::White) => self.wins += 1,
            _ => self.losses += 1,
        }
    }

    /// `W/D/L`, as the book file writes it.
    #[must_use]
    pub fn text(self) -> String {
        format!("{}/{}/{}", self.wins, self.draws, self.losses)
    }

    /// Reads `W/D/L`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Tally> {
        let mut it = text.split('/').map(str::parse::<u32>);
        match (it.next(), it.next(), it.next(), it.next()) {
            (Some(Ok(wins)), Some(Ok(draws)), Some(Ok(losses)), None) => Some(Tally { wins, draws, losses }),
            _ => None,
        }
    }
}

/// The value a book move is ranked by where some move of its position has games: the score whose win rate is
/// Wilson's lower bound ([`LEARN_Z`]) on the mean of the search's win rate (counted as [`LEARN_PRIOR`] games) and
/// the games' results. It is the same increasing function of the score for every move no game played, so those keep
/// their order. A proved score stays as it is.
#[must_use]
pub fn learned_score(score: i32, tally: Tally) -> i32 {
    if score.abs() >= PROVED {
        return score;
    }
    let prior = 1.0 / (1.0 + (-f64::from(score) / LEARN_SCALE).exp());
    let n = f64::from(tally.games()) + LEARN_PRIOR;
    let mean = (tally.points() + LEARN_PRIOR * prior) / n;
    let z2 = LEARN_Z * LEARN_Z;
    let spread = LEARN_Z * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt();
    let bound = ((mean + z2 / (2.0 * n) - spread) / (1.0 + z2 / n)).clamp(1e-6, 1.0 - 1e-6);
    let value = LEARN_SCALE * (bound / (1.0 - bound)).ln();
    value.round().clamp(-f64::from(PROVED - 1), f64::from(PROVED - 1)) as i32
}

/// What [`learn`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Games under the book's rule and board size.
    pub games: usize,
    /// Of those, games that played at least one book move.
    pub used: usize,
    /// Book moves played, summed over the games.
    pub counted: usize,
    /// Positions whose first choice ([`super::first_choice`]) is another move than before.
    pub changed: usize,
}

/// Sets every book move's tally from `games` (the tallies there were are cleared first): at each position of a
/// game that the book holds, the move played, if it is one of the book's (or an image of one under a symmetry of the
/// position), counts the game's result for the side that played it. The opening's given moves do not count.
pub fn learn<'a>(book: &mut Book, games: impl IntoIterator<Item = &'a GameRecord>) -> Learned {
    let before: Vec<Option<Pos>> = book.entries.values().map(|m| first_choice(m)).collect();
    for moves in book.entries.values_mut() {
        for m in moves {
            m.tally = Tally::default();
        }
    }
    let mut learned = Learned::default();
    let deepest = book.entries.keys().map(Vec::len).max().unwrap_or(0);
    for game in games {
        if game.rule != book.rule || game.size != book.size {
            continue;
        }
        learned.games += 1;
        let mut stones: Vec<(Pos, Color)> = Vec::with_capacity(game.moves.len());
        let mut used = false;
        for (i, &p) in game.moves.iter().enumerate() {
            let side = Color::to_move(i);
            if i >= game.opening
                && stones.len() <= deepest
                && let Some(slot) = book_move_of(book, &stones, p)
            {
                slot.tally.count(game.outcome, side);
                learned.counted += 1;
                used = true;
            }
            stones.push((p, side));
        }
        learned.used += usize::from(used);
    }
    learned.changed = book.entries.values().zip(&before).filter(|(m, b)| first_choice(m) != **b).count();
    learned
}

/// The book's entry for the move `p` at the position `stones`, matched in every orientation that leaves the
/// position as it is.
fn book_move_of<'b>(book: &'b mut Book, stones: &[(Pos, Color)], p: Pos) -> Option<&'b mut super::BookMove> {
    let size = book.size;
    let (key, _): (Key, usize) = canonical(stones, size);
    let moves = book.entries.get_mut(&key)?;
    let images: Vec<Pos> =
        (0..8).filter(|&k| key_under(stones, size, k) == key).map(|k| p.transform(size, k)).collect();
    moves.iter_mut().find(|m| images.contains(&m.point))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::BookMove;
    use crate::types::Rule;

    #[test]
    fn results_outweigh_the_search_only_with_enough_games() {
        let t = |wins, losses| Tally { wins, draws: 0, losses };
        let none = Tally::default();
        assert_eq!(learned_score(30_000, t(0, 50)), 30_000, "a proved win stays one");
        assert_eq!(learned_score(-30_000, t(50, 0)), -30_000, "a proved loss stays one");
        // Moves no game played keep their order.
        assert!(learned_score(-616, none) > learned_score(-699, none));
        assert!(learned_score(300, none) > learned_score(295, none));
        // Lost every time: lower than the search alone; won often: higher.
        assert!(learned_score(-616, t(0, 36)) < learned_score(-699, none));
        assert!(learned_score(-736, t(29, 67)) > learned_score(-616, none));
        // A few lucky wins do not lift a move the search found lost past one that many games found hard.
        assert!(learned_score(-3059, t(2, 1)) < learned_score(-871, t(39, 216)));
        // A line that won its few games keeps its place against an untried move scored a little better.
        assert!(learned_score(300, t(3, 0)) > learned_score(305, none));
        // Of two equal records, the longer ranks first.
        assert!(learned_score(0, t(5, 5)) < learned_score(0, t(50, 50)));
        assert_eq!(Tally::parse("3/1/20"), Some(Tally { wins: 3, draws: 1, losses: 20 }));
        assert_eq!(Tally::parse("3/1"), None);
        assert_eq!(Tally::parse("3/1/2/4"), None);
        assert_eq!(Tally { wins: 3, draws: 1, losses: 20 }.text(), "3/1/20");
    }

    #[test]
    fn games_count_for_the_mover_in_any_orientation_and_symmetric_images() {
        let p = |s: &str| Pos::parse(s, 15).expect("point");
        let mv = |s: &str, score| BookMove::new(p(s), score, 10);
        let mut book = Book::new(Rule::Renju, 15);
        // H8 H7 H10 is symmetric about the H file: G7 and I7 are one move.
        let start = [(p("h8"), Color::Black), (p("h7"), Color::White), (p("h10"), Color::Black)];
        book.insert(&start, &[mv("g7", -650), mv("i6", -700)]);
        let game = crate::book::tests::renju_game;
        // Mirrored left to right (a → o): the same position; I7 is G7's image.
        let flip = |s: &str| Pos::parse(s, 15).expect("point").transform(15, 1).notation(15);
        let mirrored: Vec<String> = ["h8", "h7", "h10", "i7", "i9"].iter().map(|m| flip(m)).collect();
        let mirrored: Vec<&str> = mirrored.iter().map(String::as_str).collect();
        let games = vec![
            game(&["h8", "h7", "h10", "g7", "g9"], Outcome::BlackWins),
            game(&["h8", "h7", "h10", "i7", "g9"], Outcome::WhiteWins),
            game(&mirrored, Outcome::Draw),
            game(&["h8", "h7", "h10", "i6"], Outcome::WhiteWins),
            game(&["h8", "h7", "h10", "k11"], Outcome::WhiteWins),
            GameRecord { rule: Rule::Freestyle, ..game(&["h8", "h7", "h10", "i6"], Outcome::WhiteWins) },
        ];
        let learned = learn(&mut book, &games);
        assert_eq!(learned, Learned { games: 5, used: 4, counted: 4, changed: 0 });
        let start_pb = {
            let mut pb = crate::pattern::PatternBoard::new(15, Rule::Renju).expect("board");
            for &(q, c) in &start {
                pb.make(q, c);
            }
            pb
        };
        let tallies: Vec<(String, Tally)> =
            book.moves(&start_pb).iter().map(|m| (m.point.notation(15), m.tally)).collect();
        assert!(tallies.contains(&("G7".to_string(), Tally { wins: 1, draws: 1, losses: 1 })), "{tallies:?}");
        assert!(tallies.contains(&("I6".to_string(), Tally { wins: 1, draws: 0, losses: 0 })), "{tallies:?}");
        // Learning again from nothing clears them.
        learn(&mut book, &[]);
        assert!(book.moves(&start_pb).iter().all(|m| m.tally == Tally::default()));
    }
}
