//! Records replayed move by move: a game with its result and scores at each position, or a list of moves to the
//! position they lead to. The trainers, the tuner, the yardstick and `positions` all replay through here; the last
//! through [`PositionLines`], the positions games passed through as position lines.

use super::{GameRecord, NO_SCORE};
use crate::pattern::PatternBoard;
use crate::problems::Problems;
use crate::types::{Color, Pos, Rule, format_point_list};
use std::collections::BTreeSet;
use std::path::Path;

/// Replays a game: calls `f(board, ply, side, result, score, move)` with the position before each move (`side` to
/// move, `result` its result, `score` its recorded search score or [`NO_SCORE`]), until a five or a move that breaks
/// the record (the game ends there). Returns the board after the last move made; `None` for a size no board has.
pub fn replay_game(
    game: &GameRecord,
    mut f: impl FnMut(&mut PatternBoard, usize, Color, f32, i16, Pos),
) -> Option<PatternBoard> {
    let mut pb = PatternBoard::new(game.size, game.rule).ok()?;
    let black = game.outcome.black_score();
    let mut side = Color::Black;
    for (i, &m) in game.moves.iter().enumerate() {
        let score = game.scores.as_ref().and_then(|s| s.get(i).copied()).unwrap_or(NO_SCORE);
        let result = if side == Color::Black { black } else { 1.0 - black };
        f(&mut pb, i, side, result, score, m);
        if !pb.board().is_empty(m) || pb.is_five(side, m) {
            break; // the game ends here (a five), or the record is wrong
        }
        pb.make(m, side);
        side = side.opponent();
    }
    Some(pb)
}

/// The position `moves` (Black first) lead to and the side to move, or `None` when a move is taken, a five was
/// already made or the size is not a board's.
#[must_use]
pub fn replay_moves(size: usize, rule: Rule, moves: &[Pos]) -> Option<(PatternBoard, Color)> {
    let mut pb = PatternBoard::new(size, rule).ok()?;
    let mut side = Color::Black;
    for &m in moves {
        if !pb.board().is_empty(m) || pb.is_five(side, m) {
            return None;
        }
        pb.make(m, side);
        side = side.opponent();
    }
    Some((pb, side))
}

/// The positions games passed through, as position lines (black stones, white stones, side to move; DESIGN.md), each
/// position once however many games reach it (the openings' first moves, transpositions).
#[derive(Clone, Debug, Default)]
pub struct PositionLines {
    /// Every this-many-th position after the opening (1: all).
    pub every: usize,
    /// Positions with at least this many stones.
    pub min_stones: usize,
    /// The positions given so far, by hash (with the side to move).
    seen: BTreeSet<u64>,
}

impl PositionLines {
    /// Every `every`-th position after the opening with `min_stones` stones or more.
    #[must_use]
    pub fn new(every: usize, min_stones: usize) -> PositionLines {
        PositionLines { every: every.max(1), min_stones, seen: BTreeSet::new() }
    }

    /// The lines of the games of `paths` (read as [`super::read_games`] reads them, each damaged record skipped on
    /// `problems`), of `rule` alone where it is given: what `positions` prints.
    ///
    /// # Errors
    /// As [`super::read_games`]; no game of `rule`; without `rule`, games of more than one rule or board size.
    pub fn of_files<P: AsRef<Path>>(
        &mut self,
        paths: &[P],
        rule: Option<Rule>,
        problems: &mut Problems,
    ) -> Result<Vec<String>, String> {
        let mut games = super::read_games(paths, problems)?;
        games.retain(|g| rule.is_none_or(|r| g.rule == r));
        let Some(first) = games.first() else {
            let files: Vec<String> = paths.iter().map(|f| f.as_ref().display().to_string()).collect();
            return Err(format!("{}: no {} game", files.join(", "), rule.map_or(String::new(), |r| r.to_string())));
        };
        if let Some(other) = games.iter().find(|g| (g.rule, g.size) != (first.rule, first.size)) {
            return Err(format!(
                "the games mix {} on {}x{} and {} on {}x{}: choose one rule with --rule",
                first.rule, first.size, first.size, other.rule, other.size, other.size
            ));
        }
        Ok(games.iter().flat_map(|g| self.of_game(g)).collect())
    }

    /// The lines of `game`'s positions before each move after its opening, leaving out those given before.
    pub fn of_game(&mut self, game: &GameRecord) -> Vec<String> {
        let mut lines = Vec::new();
        replay_game(game, |pb, i, side, _, _, _| {
            let stones = pb.board().stone_count();
            if i < game.opening || (i - game.opening) % self.every != 0 || stones < self.min_stones {
                return;
            }
            if !self.seen.insert(pb.board().hash() ^ u64::from(side == Color::White)) {
                return;
            }
            let size = pb.size();
            let stones_of =
                |c: Color| -> Vec<_> { pb.board().moves().iter().filter(|&&(_, s)| s == c).map(|&(m, _)| m).collect() };
            let (black, white) = (stones_of(Color::Black), stones_of(Color::White));
            let name = if side == Color::Black { "black" } else { "white" };
            lines.push(format!("{}\t{}\t{name}", format_point_list(&black, size), format_point_list(&white, size)));
        });
        lines
    }
}
