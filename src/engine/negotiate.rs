//! The engine's side of an opening negotiation ([`crate::opening_rule`]): one decision function per kind of step,
//! each searching the positions the step leads to and returning a typed [`Action`] that keeps to the rule (the
//! negotiation's own referee accepts every one: legal stones within their areas, the declared number of offers,
//! distinct and pairwise non-symmetric).

use super::Engine;
use super::opening::{Ahead, SCREEN_DEPTH, distance, nearest_declaration};
use crate::movegen::{is_legal, near_moves};
use crate::opening_rule::{Action, Area, Negotiation, OpeningRule, Request, images, within};
use crate::pattern::PatternBoard;
use crate::types::{Color, Pos};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Taraguchi's fifth stone: Black places it (White may then swap) rather than offering when the most even point
/// leaves Black's expected score within this of a half, that is when Black keeps at least a quarter after White's
/// swap.
const PLACE_MARGIN: f64 = 0.25;

impl Engine {
    /// The engine's action at the negotiation's current step (it must be the deciding player's): `None` once the
    /// negotiation is over. The engine's own game is replaced by the negotiation's position.
    pub fn negotiate(&mut self, negotiation: &Negotiation, start: Instant, stop: &AtomicBool) -> Option<Action> {
        let turn = negotiation.turn()?;
        self.pb = negotiation.board().clone();
        self.winner = None;
        Some(match turn.request {
            Request::Place { areas, declare } => self.place(negotiation, &areas, declare, start, stop),
            Request::Swap => Action::Swap(self.swap_wanted(negotiation, start, stop)),
            Request::Swap2 => match self.swap2_decision(start, stop, |_| {}) {
                super::Swap2Decision::Swap => Action::Swap(true),
                super::Swap2Decision::Play(m) => Action::Place(vec![m], None),
                super::Swap2Decision::NoMove => Action::Swap(false),
            },
            Request::Offer { count, or_place } => {
                if let Some(area) = or_place
                    && let Some((p, chance)) = self.most_even(area, start, stop)
                    && distance(chance) <= PLACE_MARGIN
                {
                    // Taraguchi: a fifth stone that leaves the game even makes White's swap a coin toss.
                    Action::Place(vec![p], None)
                } else {
                    Action::Offer(self.offers(count, start, stop))
                }
            }
            // No offer is legal only when the offers broke the rule, which the referee has already refused.
            Request::Choose { offers } => {
                Action::Choose(self.choose_offer(&offers, start, Some(stop)).or(offers.first().copied())?)
            }
        })
    }

    /// Stones to place: the opening (the one of the 26, or swap2's three, nearest to even with what follows under
    /// the rule), a Taraguchi stone (the point of its square that leaves the game nearest to even, since the
    /// opponent may swap next), or White's fourth move (the search's best), with the declaration when one is due.
    fn place(
        &mut self,
        negotiation: &Negotiation,
        areas: &[Area],
        declare: Option<usize>,
        start: Instant,
        stop: &AtomicBool,
    ) -> Action {
        let (stones, declared) = match areas {
            [Some(1), Some(3), Some(5)] => {
                // Soosõrv: White will declare the number of offers after its fourth, so an opening that some
                // declaration balances (weighed as Yamaguchi's, the declaration left to White).
                let ahead = match (negotiation.rule(), declare) {
                    (_, Some(max)) | (OpeningRule::Soosorv(max), None) => Ahead::Declare(max),
                    (OpeningRule::Rif, None) => Ahead::Offers(2),
                    _ => Ahead::Nothing,
                };
                let (stones, declared) = self.renju_opening(ahead, start, Some(stop));
                (stones, declared.filter(|_| declare.is_some()))
            }
            [None, None, None] => (self.balance_opening(start, Some(stop)), None),
            [None] => {
                // With a declaration due, the fourth's search has half the time and the declaration the rest.
                let deadline = self.deadline(start);
                let clock = self.settings.clock;
                if declare.is_some() {
                    self.configure(|s| s.clock.turn_ms = clock.turn_ms / 2);
                }
                let fourth: Vec<Pos> = self.think_from(start, Some(stop), |_| {}).best.into_iter().collect();
                self.configure(|s| s.clock = clock);
                // White declares after its fourth the number of offers that leaves the game nearest to even, since
                // Black may swap next.
                let declared = declare.map(|max| {
                    let Some(board) = self.placed(&fourth) else { return 1 };
                    let chances = self.offer_chances(&board, max, deadline, Some(stop));
                    nearest_declaration(&chances).map_or(1, |(n, _)| n)
                });
                (fourth, declared)
            }
            [area] => (self.most_even(*area, start, stop).map(|(p, _)| p).into_iter().collect(), None),
            _ => (Vec::new(), None),
        };
        Action::Place(stones, declared)
    }

    /// Whether the player deciding a swap wants the other colour: it does when the colour it holds expects less
    /// than a half, looking ahead at White's fourth and the offers when they come next (RIF, Yamaguchi after the
    /// opening; Soosõrv after the fourth and its declaration).
    fn swap_wanted(&mut self, negotiation: &Negotiation, start: Instant, stop: &AtomicBool) -> bool {
        let Some(turn) = negotiation.turn() else { return false };
        let ahead = match (negotiation.rule(), negotiation.stones().len(), negotiation.declared()) {
            (OpeningRule::Rif, 3, _) => Ahead::Offers(2),
            (OpeningRule::Yamaguchi, 3, Some(n)) | (OpeningRule::Soosorv(_), 4, Some(n)) => Ahead::Offers(n),
            _ => Ahead::Nothing,
        };
        let deadline = self.deadline(start);
        let (black, _) = self.chance_ahead(negotiation.board(), ahead, deadline, Some(stop));
        // After a declaration the look-ahead reads even at the declaration target.
        let even = if negotiation.declared().is_some() { super::opening::DECLARATION_TARGET } else { 0.5 };
        if negotiation.black() == turn.player { black < even } else { black > even }
    }

    /// A legal move within the central square `area` for the side to move after which the game is nearest to
    /// even (screened at a shallow depth, the nearest weighed deeper while the time lasts, drawn among the few
    /// most even), with Black's expected score after it.
    fn most_even(&mut self, area: Area, start: Instant, stop: &AtomicBool) -> Option<(Pos, f64)> {
        let size = self.pb.size();
        let points: Vec<Vec<Pos>> = self
            .pb
            .board()
            .points()
            .filter(|&p| area.is_none_or(|side_len| within(p, size, side_len)))
            .map(|p| vec![p])
            .collect();
        let ((stones, _), chance) =
            self.most_even_stones(points, Ahead::Nothing, SCREEN_DEPTH - 1, start, Some(stop))?;
        Some((*stones.first()?, chance))
    }

    /// `count` fifth moves for Black: the search's best, each ruling out its symmetric images; when the search
    /// runs short, the moves near the stones the ordering likes best, then any legal point, so that there are
    /// always `count` legal, distinct, pairwise non-symmetric offers when the board has them.
    fn offers(&mut self, count: usize, start: Instant, stop: &AtomicBool) -> Vec<Pos> {
        let board: PatternBoard = self.pb.clone();
        let same = |p: Pos| images(&board, p);
        let reports = self.think_distinct(start, Some(stop), count, same, |_| {});
        let mut offers: Vec<Pos> = Vec::new();
        let mut pb = self.pb.clone();
        let ok = |pb: &mut PatternBoard, offers: &[Pos], p: Pos| {
            !offers.contains(&p)
                && !pb.is_five(Color::Black, p)
                && is_legal(pb, Color::Black, p)
                && !images(&board, p).iter().any(|q| offers.contains(q))
        };
        let mut near: Vec<Pos> = near_moves(&mut pb, Color::Black).to_vec();
        let weights = self.settings.search.weights;
        near.sort_by_key(|&m| std::cmp::Reverse(crate::eval::order_value(&pb, Color::Black, m, &weights)));
        let candidates: Vec<Pos> =
            reports.iter().filter_map(|r| r.best).chain(near).chain(board.board().points()).collect();
        for p in candidates {
            if offers.len() == count {
                break;
            }
            if ok(&mut pb, &offers, p) {
                offers.push(p);
            }
        }
        offers
    }
}

#[cfg(test)]
mod tests {
    use super::super::opening::WEIGH_DEPTH;
    use super::*;
    use crate::opening_rule::{OpeningRule, Player};
    use crate::search::time::Clock;
    use crate::types::Rule;

    /// Two engines negotiate under `rule`; every action must pass the referee.
    fn negotiate(rule: OpeningRule, gomoku: Rule) -> Negotiation {
        let mut n = Negotiation::new(rule, 15, gomoku).expect("rule");
        let mut engines = [Engine::new(15, gomoku).expect("engine"), Engine::new(15, gomoku).expect("engine")];
        for e in &mut engines {
            e.set_hash_bytes(1 << 20);
            e.configure(|s| s.clock = Clock { turn_ms: 30, match_ms: 0, left_ms: None });
        }
        let stop = AtomicBool::new(false);
        let mut steps = 0;
        while let Some(turn) = n.turn() {
            let engine = &mut engines[if turn.player == Player::First { 0 } else { 1 }];
            let action = engine.negotiate(&n, Instant::now(), &stop).expect("a turn");
            n.apply(action.clone()).unwrap_or_else(|e| panic!("{rule}: {action:?} breaks the rule: {e} ({n:?})"));
            steps += 1;
            assert!(steps < 20, "{rule}: the negotiation does not end");
        }
        n
    }

    #[test]
    fn the_engines_own_actions_keep_to_every_rule() {
        for (rule, gomoku, stones) in [
            (OpeningRule::Rif, Rule::Renju, 5),
            (OpeningRule::Yamaguchi, Rule::Renju, 5),
            (OpeningRule::Soosorv(8), Rule::Renju, 5),
            (OpeningRule::Taraguchi(10), Rule::Renju, 5),
        ] {
            let n = negotiate(rule, gomoku);
            assert_eq!(n.stones().len(), stones, "{rule}: {n:?}");
        }
        let n = negotiate(OpeningRule::Swap2, Rule::Freestyle);
        assert!((3..=5).contains(&n.stones().len()), "{n:?}");
    }

    /// Taraguchi-10 with these four stones placed, the colours kept after the first three: the swap after the
    /// fourth is next.
    fn taraguchi(stones: [&str; 4]) -> Negotiation {
        let mut n = Negotiation::new(OpeningRule::Taraguchi(10), 15, Rule::Renju).expect("rule");
        for (i, stone) in stones.iter().enumerate() {
            n.apply(Action::Place(vec![Pos::parse(stone, 15).expect("point")], None)).expect("stone");
            if i < 3 {
                n.apply(Action::Swap(false)).expect("swap");
            }
        }
        n
    }

    #[test]
    fn ten_offers_are_legal_distinct_and_not_symmetric_even_on_a_symmetric_position() {
        // Taraguchi-10 after a symmetric opening: the offers must still be ten non-symmetric points.
        let mut n = taraguchi(["h8", "h9", "h10", "h6"]);
        n.apply(Action::Swap(false)).expect("swap");
        let mut engine = Engine::new(15, Rule::Renju).expect("engine");
        engine.configure(|s| s.clock = Clock { turn_ms: 50, match_ms: 0, left_ms: None });
        engine.pb = n.board().clone();
        let stop = AtomicBool::new(false);
        let offers = engine.offers(10, Instant::now(), &stop);
        assert_eq!(offers.len(), 10, "{offers:?}");
        n.apply(Action::Offer(offers)).expect("the referee accepts them");
    }

    #[test]
    fn a_swap_takes_the_colour_that_stands_better_and_offers_cost_black() {
        // Taraguchi after four stones where Black (to move) has an open three: whoever holds White swaps, whoever
        // holds Black keeps it.
        let n = taraguchi(["h8", "h9", "i8", "h10"]);
        // Black's stones h8 i8 and the fifth on g8 or j8 make an open three: Black to move stands better.
        let mut engine = Engine::new(15, Rule::Renju).expect("engine");
        engine.configure(|s| s.clock = Clock { turn_ms: 200, match_ms: 0, left_ms: None });
        let stop = AtomicBool::new(false);
        engine.pb = n.board().clone();
        let black = engine.black_chance(n.board(), WEIGH_DEPTH, None, None);
        assert!(black > 0.5, "Black to move with two in a row and the move: {black}");
        let turn = n.turn().expect("a swap");
        assert_eq!(turn.request, Request::Swap);
        let holds_black = n.black() == turn.player;
        assert_eq!(engine.swap_wanted(&n, Instant::now(), &stop), !holds_black);
        // White keeps the offer best for it, so the more Black offers the less it expects.
        let chances = engine.offer_chances(n.board(), 5, Instant::now() + std::time::Duration::from_secs(5), None);
        assert_eq!(chances.len(), 5, "{chances:?}");
        assert!(chances.windows(2).all(|w| w[1] <= w[0]), "{chances:?}");
        assert!(chances[4] < chances[0], "five offers cost Black something: {chances:?}");
    }
}
