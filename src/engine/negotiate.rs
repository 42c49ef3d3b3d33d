//! The engine's side of an opening negotiation ([`crate::opening_rule`]): one decision function per kind of step,
//! each searching the positions the step leads to and returning a typed [`Action`] that keeps to the rule (the
//! negotiation's own referee accepts every one: legal stones within their areas, the declared number of offers,
//! distinct and pairwise non-symmetric).

use super::Engine;
use super::opening::SWAP_MARGIN;
use crate::movegen::{is_legal, near_moves};
use crate::opening_rule::{Action, Area, Negotiation, Request, images, within};
use crate::pattern::PatternBoard;
use crate::types::{Color, Pos};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Each fifth move Black must offer beyond the first is worth this much to White (White keeps the best for it).
const OFFER_COST: i32 = 30;
/// Depth of the searches that weigh placements and swaps.
const SHALLOW: i32 = 4;
/// Black declares one more offer for every this much it stands better after the opening (Yamaguchi, Soosõrv).
const DECLARE_STEP: i32 = 100;

impl Engine {
    /// The engine's action at the negotiation's current step (it must be the deciding player's): `None` once the
    /// negotiation is over. The engine's own game is replaced by the negotiation's position.
    pub fn negotiate(&mut self, negotiation: &Negotiation, start: Instant, stop: &AtomicBool) -> Option<Action> {
        let turn = negotiation.turn()?;
        self.pb = negotiation.board().clone();
        self.winner = None;
        Some(match turn.request {
            Request::Place { areas, declare } => self.place(negotiation, &areas, declare, start, stop),
            Request::Swap => Action::Swap(self.swap_wanted(negotiation, stop)),
            Request::Swap2 => match self.swap2_decision(start, stop, |_| {}) {
                super::Swap2Decision::Swap => Action::Swap(true),
                super::Swap2Decision::Play(m) => Action::Place(vec![m], None),
                super::Swap2Decision::NoMove => Action::Swap(false),
            },
            Request::Offer { count, or_place } => {
                if let Some(area) = or_place
                    && let Some((p, score)) = self.most_even(area, stop)
                    && score.abs() <= SWAP_MARGIN
                {
                    // Taraguchi: a fifth stone that leaves the game even makes White's swap a coin toss.
                    Action::Place(vec![p], None)
                } else {
                    Action::Offer(self.offers(count, start, stop))
                }
            }
            // No offer is legal only when the offers broke the rule, which the referee has already refused.
            Request::Choose { offers } => {
                Action::Choose(self.choose_offer(&offers, Some(stop)).or(offers.first().copied())?)
            }
        })
    }

    /// Stones to place: the opening (the one of the 26, or swap2's three, nearest to even), a Taraguchi stone (the
    /// point of its square that leaves the game nearest to even, since the opponent may swap next), or White's
    /// fourth move (the search's best), with the declaration when one is due.
    fn place(
        &mut self,
        negotiation: &Negotiation,
        areas: &[Area],
        declare: Option<usize>,
        start: Instant,
        stop: &AtomicBool,
    ) -> Action {
        let stones = match areas {
            [Some(1), Some(3), Some(5)] => self.soosorv_opening(Some(stop)),
            [None, None, None] => self.balance_opening(Some(stop)),
            [None] => self.think_from(start, Some(stop), |_| {}).best.into_iter().collect(),
            [area] => self.most_even(*area, stop).map(|(p, _)| p).into_iter().collect(),
            _ => Vec::new(),
        };
        let declared = declare.map(|max| {
            // Black's advantage after the stones, from White's score to move: the more Black stands better, the
            // more fifth moves it must offer.
            let mut pb = negotiation.board().clone();
            let mut color = if pb.board().stone_count() % 2 == 0 { Color::Black } else { Color::White };
            for &p in &stones {
                pb.make(p, color);
                color = color.opponent();
            }
            let white = self.shallow_score(&pb, Color::White, SHALLOW, Some(stop));
            (1 + (-white).max(0) / DECLARE_STEP).clamp(1, max as i32) as usize
        });
        Action::Place(stones, declared)
    }

    /// Whether the player deciding a swap of the colour whose holder decides wants the other colour: it does when
    /// the colour it holds stands worse than the margin (for Black, less the cost of the offers still to make).
    fn swap_wanted(&mut self, negotiation: &Negotiation, stop: &AtomicBool) -> bool {
        let Some(turn) = negotiation.turn() else { return false };
        let held = if negotiation.black() == turn.player { Color::Black } else { Color::White };
        let to_move = if negotiation.stones().len() % 2 == 0 { Color::Black } else { Color::White };
        let score = self.shallow_score(negotiation.board(), to_move, SHALLOW + 1, Some(stop));
        let mut value = if held == to_move { score } else { -score };
        if let Some(n) = negotiation.declared().filter(|_| negotiation.stones().len() == 4) {
            let cost = OFFER_COST * (n as i32 - 1);
            value += if held == Color::Black { -cost } else { cost };
        }
        value < -SWAP_MARGIN
    }

    /// A legal move within the central square `area` for the side to move after which the opponent's shallow score
    /// is near even (drawn among the few most even), with that score.
    fn most_even(&mut self, area: Area, stop: &AtomicBool) -> Option<(Pos, i32)> {
        let size = self.pb.size();
        let side = self.side_to_move();
        let mut pb = self.pb.clone();
        let mut scored: Vec<(i32, (Pos, i32))> = Vec::new();
        for p in self.pb.board().points() {
            if area.is_some_and(|side_len| !within(p, size, side_len))
                || pb.is_five(side, p)
                || !is_legal(&mut pb, side, p)
            {
                continue;
            }
            pb.make(p, side);
            let score = self.shallow_score(&pb, side.opponent(), SHALLOW - 1, Some(stop));
            pb.undo();
            scored.push((score.abs(), (p, score)));
        }
        self.near_best(scored)
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

    #[test]
    fn ten_offers_are_legal_distinct_and_not_symmetric_even_on_a_symmetric_position() {
        // Taraguchi-10 after a symmetric opening: the offers must still be ten non-symmetric points.
        let mut n = Negotiation::new(OpeningRule::Taraguchi(10), 15, Rule::Renju).expect("rule");
        let at = |s: &str| Pos::parse(s, 15).expect("point");
        for (stone, swap) in [("h8", false), ("h9", false), ("h10", false), ("h6", false)] {
            n.apply(Action::Place(vec![at(stone)], None)).expect("stone");
            n.apply(Action::Swap(swap)).expect("swap");
        }
        let mut engine = Engine::new(15, Rule::Renju).expect("engine");
        engine.configure(|s| s.clock = Clock { turn_ms: 50, match_ms: 0, left_ms: None });
        engine.pb = n.board().clone();
        let stop = AtomicBool::new(false);
        let offers = engine.offers(10, Instant::now(), &stop);
        assert_eq!(offers.len(), 10, "{offers:?}");
        n.apply(Action::Offer(offers)).expect("the referee accepts them");
    }
}
