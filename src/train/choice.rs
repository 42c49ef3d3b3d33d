//! Choice pairs (issue 74): the network learns to prefer, in a game's position, the position after the move a
//! strong player chose over the positions after the moves today's ordering ranks highest among the rest. Each pair
//! is two positions, the chosen move's child and an alternative's, each with the opponent to move (but see `fours`
//! below); the loss is the logistic loss of the mover's value of the first over the second (a Bradley-Terry
//! comparison of the two children).
//!
//! The moves taken are a game record's best moves (`GameRecord::best`: for Gomocup's `.psq` games, the moves the
//! strongest engines played, chosen as `train --policy` chooses them). Pairs whose children have a five point for
//! either side are left out: a four's child is one the search follows to its block and never evaluates. With
//! `fours` (`train --choice-fours`), a move that makes a single four takes part as the position after it and its
//! block, the mover to move again (what the search evaluates there): the mover's value of that child is its logit,
//! not minus it. Caro's fours give no pair (there a four may also be stopped at the line's far end).

use super::data::NetData;
use crate::eval::network::Group;
use crate::eval::{Weights, order_value};
use crate::movegen::{Candidates, candidates, is_legal};
use crate::pattern::PatternBoard;
use crate::records::GameRecord;
use crate::records::replay_game;
use crate::types::{Color, Pos, Rule};

/// The pairs of one rule group: child `2j` is pair `j`'s chosen move's, child `2j + 1` its alternative's.
#[derive(Clone, Debug)]
pub struct Choices {
    /// The children, two a pair.
    pub children: NetData,
    /// Each pair's game (its index among the games given), for the split by game.
    pub game: Vec<u32>,
    /// The alternatives taken a position: today's ordering's highest among the other candidates (and the other
    /// player's move, see [`Choices::add_game_against`]).
    pub alternatives: usize,
    /// Positions with a chosen move that gave no pair: forced, the move off the candidate list, or every child
    /// forcing.
    pub skipped: usize,
    /// Whether a single four and its block make a child (see the module's notes).
    pub fours: bool,
    /// Each pair's mover: a child with it to move is valued by its logit, one with the opponent to move by minus it.
    pub mover: Vec<Color>,
}

impl Choices {
    /// No pairs yet, for `group`, `alternatives` a position.
    #[must_use]
    pub fn new(group: Group, alternatives: usize) -> Choices {
        Choices {
            children: NetData::new(group, 0),
            game: Vec::new(),
            alternatives,
            skipped: 0,
            fours: false,
            mover: Vec::new(),
        }
    }

    /// The sign that turns child `c`'s logit into minus its mover's value (the pair loss's convention): 1 for a
    /// child with the opponent to move, -1 for a four's child with the mover to move again.
    #[must_use]
    pub fn sign(&self, c: usize) -> f32 {
        if self.children.positions[c].side() == self.mover[c / 2] { -1.0 } else { 1.0 }
    }

    /// Whether pair `j` has a four's child (one with the mover to move again).
    #[must_use]
    pub fn has_four(&self, j: usize) -> bool {
        self.sign(2 * j) < 0.0 || self.sign(2 * j + 1) < 0.0
    }

    /// The number of pairs.
    #[must_use]
    pub fn len(&self) -> usize {
        self.game.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    /// Adds the pairs of the positions of `game` that have a best move, the alternatives ranked by `weights`'
    /// ordering; `index` names the game for the split. Games of another group (of any board size), or without best
    /// moves, add nothing. Returns how many pairs it added.
    pub fn add_game(&mut self, game: &GameRecord, index: u32, weights: &Weights) -> usize {
        self.add_game_against(game, None, index, weights)
    }

    /// [`Choices::add_game`], and where `against` (per move, as [`GameRecord::best`] keeps them: another player's
    /// choice in the same position, say Tengen's own search's) has a move other than the chosen one, a pair of the
    /// chosen move against it too.
    pub fn add_game_against(
        &mut self,
        game: &GameRecord,
        against: Option<&[Option<Pos>]>,
        index: u32,
        weights: &Weights,
    ) -> usize {
        if Group::of(game.rule) != self.children.group {
            return 0;
        }
        let Some(best) = &game.best else { return 0 };
        let before = self.len();
        replay_game(game, |pb, i, side, _, _, _| {
            if let Some(Some(chosen)) = best.get(i) {
                let other = against.and_then(|a| a.get(i).copied().flatten()).filter(|o| o != chosen);
                self.add_position(pb, &game.moves[..i], side, (*chosen, other), index, weights);
            }
        });
        self.len() - before
    }

    fn add_position(
        &mut self,
        pb: &mut PatternBoard,
        line: &[Pos],
        side: Color,
        (chosen, against): (Pos, Option<Pos>),
        game: u32,
        weights: &Weights,
    ) {
        let Candidates::Moves { moves, forced: false } = candidates(pb, side) else {
            self.skipped += 1;
            return;
        };
        let fours = self.fours;
        let Some(chosen_line) = moves.contains(&chosen).then(|| child_line(pb, side, chosen, fours)).flatten() else {
            self.skipped += 1;
            return;
        };
        if moves.len() < 2 {
            self.skipped += 1;
            return;
        }
        // The other usable candidates with their lines, highest in today's ordering first; ties by point, so that
        // the pairs do not depend on the candidates' order.
        let mut usable: Vec<(i32, Pos, Vec<Pos>)> = moves
            .iter()
            .filter(|&&m| m != chosen)
            .filter_map(|&m| child_line(pb, side, m, fours).map(|l| (order_value(pb, side, m, weights), m, l)))
            .collect();
        usable.sort_by_key(|&(v, m, _)| (std::cmp::Reverse(v), m.index()));
        // The other player's move first (where it is a usable candidate), then the ordering's.
        let against = against.and_then(|a| usable.iter().position(|&(_, m, _)| m == a));
        let ordered = (0..usable.len()).filter(|&i| Some(i) != against).take(self.alternatives);
        let mut added = false;
        for i in against.into_iter().chain(ordered) {
            let first = self.children.add_line(pb, line, side, &chosen_line);
            let second = self.children.add_line(pb, line, side, &usable[i].2);
            debug_assert!(first && second, "quiet children and blocked fours' children are always kept");
            self.game.push(game);
            self.mover.push(side);
            added = true;
        }
        if !added {
            self.skipped += 1;
        }
    }

    /// The pairs of the games `held` (by game index) and the others: `[training, held out]`.
    #[must_use]
    pub fn split_by_game(&self, held: &[bool]) -> [Vec<usize>; 2] {
        let mut parts = [Vec::new(), Vec::new()];
        for (j, &g) in self.game.iter().enumerate() {
            parts[usize::from(held.get(g as usize).copied().unwrap_or(false))].push(j);
        }
        parts
    }
}

/// The moves from the position to the child that stands for `side`'s move `m`: `m` alone where it leaves no five
/// point for either side (no four made, none left open); with `fours`, `m` and the opponent's block where `m` makes
/// a single four whose legal block leaves no five point for either side; else none.
fn child_line(pb: &mut PatternBoard, side: Color, m: Pos, fours: bool) -> Option<Vec<Pos>> {
    let opp = side.opponent();
    let quiet = |pb: &PatternBoard| pb.five_points(side).next().is_none() && pb.five_points(opp).next().is_none();
    pb.make(m, side);
    let line = if quiet(pb) {
        Some(vec![m])
    } else if fours
        && !matches!(pb.rule(), Rule::Caro | Rule::CaroOverline)
        && pb.five_points(opp).next().is_none()
        && pb.five_points(side).count() == 1
    {
        let block = pb.five_points(side).next();
        block.filter(|&b| is_legal(pb, opp, b)).and_then(|b| {
            pb.make(b, opp);
            let blocked = quiet(pb);
            pb.undo();
            blocked.then(|| vec![m, b])
        })
    } else {
        None
    };
    pb.undo();
    line
}

/// The logistic loss of a pair whose children's signed logits (each with its base added, times
/// [`Choices::sign`]: minus the mover's value of the child) are `chosen` and `other`, and its derivatives with
/// respect to the two: the loss is `softplus(-(v_chosen - v_other))`.
#[must_use]
pub fn pair_loss(chosen: f64, other: f64) -> (f64, f64, f64) {
    let margin = other - chosen; // v_chosen - v_other
    let loss = if margin > 0.0 { (-margin).exp().ln_1p() } else { -margin + margin.exp().ln_1p() };
    let p = 1.0 / (1.0 + (-margin).exp());
    // d loss / d margin = p - 1; margin = other - chosen.
    (loss, 1.0 - p, p - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Outcome;
    use crate::types::{Rule, parse_point_list};

    fn game(moves: &str, best: &[(usize, &str)]) -> GameRecord {
        let moves = parse_point_list(moves, 15).expect("moves");
        let mut b = vec![None; moves.len()];
        for &(i, m) in best {
            b[i] = Some(parse_point_list(m, 15).expect("point")[0]);
        }
        GameRecord {
            rule: Rule::Renju,
            size: 15,
            outcome: Outcome::Draw,
            opening: 0,
            moves,
            scores: None,
            players: None,
            best: Some(b),
            forbidden_end: None,
        }
    }

    #[test]
    fn a_chosen_move_gives_pairs_with_the_orderings_best_other_moves() {
        let weights = crate::eval::default_weights();
        let mut c = Choices::new(Group::Renju, 3);
        // After H8 H9 I9 (White to move), White's chosen move J10; and at ply 4 (Black) G7.
        let g = game("H8,H9,I9,J10,G7,F6", &[(3, "J10"), (4, "G7")]);
        assert_eq!(c.add_game(&g, 0, weights), 6);
        assert_eq!(c.children.positions.len(), 12);
        let j10 = parse_point_list("J10", 15).expect("point")[0];
        for j in 0..3 {
            let (chosen, other) = (c.children.board(2 * j), c.children.board(2 * j + 1));
            assert_eq!(chosen.stone_count(), 4);
            assert!(!chosen.is_empty(j10), "the chosen child has the chosen stone");
            assert!(other.is_empty(j10), "the alternative's child does not");
            assert_eq!(c.children.positions[2 * j].side(), Color::Black);
        }
        // The alternatives differ from each other.
        let last = |i: usize| *c.children.moves[..].get(c.children.positions[i].start as usize + 3).expect("a move");
        assert!(last(1) != last(3) && last(3) != last(5) && last(1) != last(5));
        assert_eq!(c.game, vec![0; 6]);
        let held = c.split_by_game(&[true]);
        assert_eq!((held[0].len(), held[1].len()), (0, 6));
    }

    #[test]
    fn another_players_move_is_an_alternative_first_when_it_differs() {
        let weights = crate::eval::default_weights();
        let g = game("H8,H9,I9,J10,G7,F6", &[(3, "J10"), (4, "G7")]);
        let p = |m: &str| parse_point_list(m, 15).expect("point")[0];
        // At ply 3 the other player chose G7 (not J10): a pair against it comes first; at ply 4 it agreed.
        let against = vec![None, None, None, Some(p("G7")), Some(p("G7")), None];
        let mut c = Choices::new(Group::Renju, 1);
        assert_eq!(c.add_game_against(&g, Some(&against), 0, weights), 3);
        let last = |i: usize| {
            c.children.moves[c.children.positions[i].start as usize + c.children.positions[i].len as usize - 1]
        };
        assert_eq!((last(0), last(1)), (p("J10"), p("G7")));
        assert_ne!(last(3), p("G7"));
        assert_eq!(last(4), p("G7"));
    }

    #[test]
    fn a_forced_answer_or_a_move_that_makes_a_four_gives_no_pair() {
        let weights = crate::eval::default_weights();
        let mut c = Choices::new(Group::Renju, 2);
        // Black's H8 I8 J8 K8 is a four after White's moves: White's block at G8 or L8 is forced.
        let forced = game("H8,H1,I8,A1,J8,A15,K8,G8", &[(7, "G8")]);
        assert_eq!(c.add_game(&forced, 0, weights), 0);
        // Black's J8 makes an open three's four: the chosen child has a five point.
        let four = game("H8,H1,I8,A1,J8,A15,K8", &[(6, "K8")]);
        assert_eq!(c.add_game(&four, 1, weights), 0);
        assert_eq!(c.skipped, 2);
    }

    #[test]
    fn with_fours_a_single_four_is_taken_after_its_block_with_the_mover_to_move_again() {
        let weights = crate::eval::default_weights();
        let p = |m: &str| parse_point_list(m, 15).expect("point")[0];
        // White's G8 closes Black's H8 I8 J8 on the left: Black's K8 makes a four whose one five point is L8.
        let g = game("H8,G8,I8,A1,J8,A15,K8", &[(6, "K8")]);
        let mut plain = Choices::new(Group::Renju, 3);
        assert_eq!(plain.add_game(&g, 0, weights), 0, "without fours the four gives no pair");
        let mut c = Choices::new(Group::Renju, 3);
        c.fours = true;
        assert_eq!(c.add_game(&g, 0, weights), 3);
        assert_eq!(c.mover, vec![Color::Black; 3]);
        for j in 0..3 {
            let chosen = c.children.board(2 * j);
            assert_eq!(chosen.stone_count(), 8, "the four and its block");
            assert!(!chosen.is_empty(p("K8")) && !chosen.is_empty(p("L8")));
            assert_eq!(c.children.positions[2 * j].side(), Color::Black);
            assert_eq!(c.sign(2 * j), -1.0, "the mover is to move again: its value is the logit");
            // An alternative is a quiet child (the opponent to move) or another four after its block.
            let (alt, side) = (c.children.board(2 * j + 1), c.children.positions[2 * j + 1].side());
            assert_eq!(alt.stone_count() == 8, side == Color::Black);
            assert_eq!(c.sign(2 * j + 1), if side == Color::Black { -1.0 } else { 1.0 });
        }
        // L8 (J8 I8 H8 and L8 about the hole at K8) is Black's other single four: a pair against it, after its block.
        let l8 = (0..3).find(|&j| !c.children.board(2 * j + 1).is_empty(p("L8")));
        let l8 = l8.expect("the ordering ranks the other four among its three highest");
        assert!(!c.children.board(2 * l8 + 1).is_empty(p("K8")), "White's block at K8");
    }

    #[test]
    fn the_pair_loss_falls_as_the_chosen_child_looks_worse_for_the_opponent() {
        let (even, d_chosen, d_other) = pair_loss(0.0, 0.0);
        assert!((even - std::f64::consts::LN_2).abs() < 1e-12);
        assert!((d_chosen - 0.5).abs() < 1e-12 && (d_other + 0.5).abs() < 1e-12);
        let (good, ..) = pair_loss(-2.0, 1.0);
        let (bad, ..) = pair_loss(1.0, -2.0);
        assert!(good < 0.1 && bad > 2.9, "{good} {bad}");
        // The derivative matches the loss's slope.
        let h = 1e-6;
        let (l0, dc, dx) = pair_loss(0.3, -0.4);
        assert!(((pair_loss(0.3 + h, -0.4).0 - l0) / h - dc).abs() < 1e-4);
        assert!(((pair_loss(0.3, -0.4 + h).0 - l0) / h - dx).abs() < 1e-4);
    }
}
