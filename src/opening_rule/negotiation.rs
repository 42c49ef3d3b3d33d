//! The referee of one negotiation under an opening rule: its state, whose turn it is and what is asked, and whether
//! each action keeps to the rule.

use super::{Action, Area, Breach, MAX_DECLARED, OpeningRule, Player, Request, Turn, images, within};
use crate::movegen::is_legal;
use crate::pattern::PatternBoard;
use crate::types::{Color, Pos, Rule};
use std::fmt;

/// Where a negotiation stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// The first player places the opening stones (RIF, Yamaguchi with its declaration, Soosõrv, Swap2).
    Opening,
    /// Taraguchi: the holder of the side to move places stone `n` (1 to 4) within its square.
    TaraguchiStone(usize),
    /// The holder of `color` may swap; `then` follows.
    Swap(Color, Box<Stage>),
    /// White places the 4th stone (anywhere); Soosõrv also declares.
    Fourth,
    /// Swap2's second player decides on three stones.
    Swap2Choice,
    /// Black offers the fifth moves (Taraguchi: or places one within 9×9).
    Offer,
    /// White keeps one offer.
    Choose,
    /// The game proper.
    Done,
}

/// One negotiation under an opening rule: its state, and the referee of each step.
#[derive(Clone)]
pub struct Negotiation {
    rule: OpeningRule,
    board: PatternBoard,
    /// The stones in move order, Black first.
    stones: Vec<Pos>,
    /// Who holds Black now.
    black: Player,
    /// The number of fifth moves to offer, once known.
    declared: Option<usize>,
    offers: Vec<Pos>,
    stage: Stage,
    /// Every accepted action, with its player.
    record: Vec<(Player, Action)>,
}

impl fmt::Debug for Negotiation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Negotiation")
            .field("rule", &self.rule)
            .field("stones", &self.stones)
            .field("black", &self.black)
            .field("declared", &self.declared)
            .field("offers", &self.offers)
            .field("stage", &self.stage)
            .finish_non_exhaustive()
    }
}

impl Negotiation {
    /// A negotiation under `rule` on an empty board of side `size` (the game rule: renju for the renju opening
    /// rules, `gomoku` for Swap2).
    ///
    /// # Errors
    /// A board size outside 5 to 22, or too small for the rule's central squares (9×9 for Taraguchi).
    pub fn new(rule: OpeningRule, size: usize, gomoku: Rule) -> Result<Negotiation, String> {
        let board = PatternBoard::new(size, rule.game_rule(gomoku)).map_err(|e| e.to_string())?;
        let needed = if matches!(rule, OpeningRule::Taraguchi(_)) { 9 } else { 5 };
        if size < needed {
            return Err(format!("{rule} needs a board of at least {needed}x{needed}"));
        }
        let stage = if matches!(rule, OpeningRule::Taraguchi(_)) { Stage::TaraguchiStone(1) } else { Stage::Opening };
        let declared = match rule {
            OpeningRule::Rif => Some(2),
            OpeningRule::Taraguchi(n) => Some(n),
            _ => None,
        };
        Ok(Negotiation {
            rule,
            board,
            stones: Vec::new(),
            black: Player::First,
            declared,
            offers: Vec::new(),
            stage,
            record: Vec::new(),
        })
    }

    /// The rule.
    #[must_use]
    pub fn rule(&self) -> OpeningRule {
        self.rule
    }

    /// The stones placed so far, in move order (Black first).
    #[must_use]
    pub fn stones(&self) -> &[Pos] {
        &self.stones
    }

    /// The position so far.
    #[must_use]
    pub fn board(&self) -> &PatternBoard {
        &self.board
    }

    /// Who holds Black now.
    #[must_use]
    pub fn black(&self) -> Player {
        self.black
    }

    /// The number of fifth moves Black is to offer, once known.
    #[must_use]
    pub fn declared(&self) -> Option<usize> {
        self.declared
    }

    /// The fifth moves offered, once offered.
    #[must_use]
    pub fn offers(&self) -> &[Pos] {
        &self.offers
    }

    /// Every accepted action with its player, in order.
    #[must_use]
    pub fn record(&self) -> &[(Player, Action)] {
        &self.record
    }

    /// Whether the game proper has started.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// The holder of `color`.
    #[must_use]
    pub fn holder(&self, color: Color) -> Player {
        if color == Color::Black { self.black } else { self.black.other() }
    }

    /// The colour to move on the board.
    fn to_move(&self) -> Color {
        Color::to_move(self.stones.len())
    }

    /// Who decides what next; `None` once the game proper has started.
    #[must_use]
    pub fn turn(&self) -> Option<Turn> {
        let (player, request) = match &self.stage {
            Stage::Done => return None,
            Stage::Opening => {
                let areas =
                    if self.rule == OpeningRule::Swap2 { vec![None; 3] } else { vec![Some(1), Some(3), Some(5)] };
                let declare = (self.rule == OpeningRule::Yamaguchi).then_some(MAX_DECLARED);
                (Player::First, Request::Place { areas, declare })
            }
            Stage::TaraguchiStone(n) => {
                (self.holder(self.to_move()), Request::Place { areas: vec![Some(2 * n - 1)], declare: None })
            }
            Stage::Swap(color, _) => (self.holder(*color), Request::Swap),
            Stage::Fourth => {
                let declare = match self.rule {
                    OpeningRule::Soosorv(n) => Some(n),
                    _ => None,
                };
                (self.holder(Color::White), Request::Place { areas: vec![None], declare })
            }
            Stage::Swap2Choice => (Player::Second, Request::Swap2),
            Stage::Offer => {
                let or_place = matches!(self.rule, OpeningRule::Taraguchi(_)).then_some(Some(9));
                let count = self.declared.unwrap_or(1);
                (self.holder(Color::Black), Request::Offer { count, or_place })
            }
            Stage::Choose => (self.holder(Color::White), Request::Choose { offers: self.offers.clone() }),
        };
        Some(Turn { player, request })
    }

    /// Applies the deciding player's `action`, after checking it against the rule; a refused action changes
    /// nothing.
    ///
    /// # Errors
    /// The [`Breach`] of the rule.
    pub fn apply(&mut self, action: Action) -> Result<(), Breach> {
        let turn = self.turn().ok_or(Breach::Over)?;
        let next = match (&turn.request, &action) {
            (Request::Place { areas, declare }, Action::Place(stones, declared)) => {
                self.check_stones(stones, areas)?;
                match (declare, declared) {
                    (Some(max), Some(n)) if !(1..=*max).contains(n) => return Err(Breach::Declared(*n, *max)),
                    (Some(_), Some(_)) | (None, None) => {}
                    _ => return Err(Breach::Kind),
                }
                self.after_place()
            }
            (Request::Swap, Action::Swap(_)) => match &self.stage {
                Stage::Swap(_, then) => (**then).clone(),
                _ => return Err(Breach::Kind),
            },
            // Swap (take Black), or stay White with the 4th left to the game proper.
            (Request::Swap2, Action::Swap(_)) => Stage::Done,
            (Request::Swap2, Action::Place(stones, None)) if stones.len() == 1 => {
                // Staying White with the 4th placed now: the game proper starts after it.
                self.check_stones(stones, &[None])?;
                Stage::Done
            }
            (Request::Swap2, Action::Place(stones, None)) => {
                self.check_stones(stones, &[None, None])?;
                Stage::Swap(Color::Black, Box::new(Stage::Done))
            }
            (Request::Offer { count, .. }, Action::Offer(offers)) => {
                self.check_offers(offers, *count)?;
                Stage::Choose
            }
            (Request::Offer { or_place: Some(area), .. }, Action::Place(stones, None)) => {
                self.check_stones(stones, &[*area])?;
                Stage::Swap(Color::White, Box::new(Stage::Done))
            }
            (Request::Choose { offers }, Action::Choose(p)) => {
                if !offers.contains(p) {
                    return Err(Breach::NotOffered(*p));
                }
                Stage::Done
            }
            _ => return Err(Breach::Kind),
        };
        // The checks passed: the action takes effect.
        match &action {
            Action::Place(stones, declared) => {
                for &p in stones {
                    let c = self.to_move();
                    self.board.make(p, c);
                    self.stones.push(p);
                }
                if declared.is_some() {
                    self.declared = *declared;
                }
            }
            Action::Swap(true) => self.black = self.black.other(),
            Action::Swap(false) => {}
            Action::Offer(offers) => self.offers = offers.clone(),
            Action::Choose(p) => {
                self.board.make(*p, Color::Black);
                self.stones.push(*p);
            }
        }
        self.record.push((turn.player, action));
        self.stage = next;
        Ok(())
    }

    /// The stage after stones are placed at the current stage.
    fn after_place(&self) -> Stage {
        match (&self.stage, self.rule) {
            (Stage::Opening, OpeningRule::Swap2) => Stage::Swap2Choice,
            (Stage::Opening, _) => Stage::Swap(Color::White, Box::new(Stage::Fourth)),
            (Stage::TaraguchiStone(n), _) => {
                // The opponent of the stone's colour may swap; after the 4th stone Black chooses its option.
                let placed = if n % 2 == 1 { Color::Black } else { Color::White };
                let then = if *n < 4 { Stage::TaraguchiStone(n + 1) } else { Stage::Offer };
                Stage::Swap(placed.opponent(), Box::new(then))
            }
            (Stage::Fourth, OpeningRule::Soosorv(_)) => Stage::Swap(Color::Black, Box::new(Stage::Offer)),
            (Stage::Fourth, _) => Stage::Offer,
            _ => Stage::Done,
        }
    }

    /// Checks stones to be placed in move order from the side to move, the i-th within `areas[i]`.
    fn check_stones(&self, stones: &[Pos], areas: &[Area]) -> Result<(), Breach> {
        if stones.len() != areas.len() {
            return Err(Breach::Count(areas.len(), stones.len()));
        }
        let mut board = self.board.clone();
        let mut color = self.to_move();
        for (&p, area) in stones.iter().zip(areas) {
            if !p.on_board(board.size()) || !board.board().is_empty(p) {
                return Err(Breach::Taken(p));
            }
            if let Some(side) = *area
                && !within(p, board.size(), side)
            {
                return Err(Breach::Area(p, side));
            }
            if board.is_five(color, p) || !is_legal(&mut board, color, p) {
                return Err(Breach::Illegal(p));
            }
            board.make(p, color);
            color = color.opponent();
        }
        Ok(())
    }

    /// Checks Black's offered fifth moves: `count` of them, legal, distinct, pairwise not symmetric.
    fn check_offers(&self, offers: &[Pos], count: usize) -> Result<(), Breach> {
        if offers.len() != count {
            return Err(Breach::Count(count, offers.len()));
        }
        let mut board = self.board.clone();
        for (i, &p) in offers.iter().enumerate() {
            if !p.on_board(board.size()) || !board.board().is_empty(p) {
                return Err(Breach::Taken(p));
            }
            if board.is_five(Color::Black, p) || !is_legal(&mut board, Color::Black, p) {
                return Err(Breach::Illegal(p));
            }
            if let Some(&q) = offers[..i].iter().find(|&&q| q == p) {
                return Err(Breach::Twice(q));
            }
            let same = images(&self.board, p);
            if let Some(&q) = offers[..i].iter().find(|q| same.contains(q)) {
                return Err(Breach::Symmetric(q, p));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opening_rule::symmetric;

    fn at(s: &str) -> Pos {
        Pos::parse(s, 15).expect("point")
    }

    fn place(s: &str) -> Action {
        Action::Place(s.split_whitespace().map(at).collect(), None)
    }

    #[test]
    fn a_rif_negotiation_runs_to_the_sixth_move_and_every_breach_is_refused() {
        let mut n = Negotiation::new(OpeningRule::Rif, 15, Rule::Renju).expect("rule");
        let turn = n.turn().expect("turn");
        assert_eq!(turn.player, Player::First);
        // The third stone outside 5x5, and a swap where stones are asked, are refused and change nothing.
        assert_eq!(n.apply(place("h8 h9 l12")), Err(Breach::Area(at("l12"), 5)));
        assert_eq!(n.apply(Action::Swap(true)), Err(Breach::Kind));
        assert_eq!(n.apply(place("h8 h9")), Err(Breach::Count(3, 2)));
        assert!(n.stones().is_empty());
        n.apply(place("h8 h9 j10")).expect("the 26 openings' shape");
        // Tentative White swaps: the second player now holds Black.
        assert_eq!(n.turn().map(|t| (t.player, t.request)), Some((Player::Second, Request::Swap)));
        n.apply(Action::Swap(true)).expect("swap");
        assert_eq!(n.black(), Player::Second);
        // White (now the first player) plays the 4th anywhere.
        assert_eq!(n.turn().map(|t| t.player), Some(Player::First));
        assert_eq!(n.apply(place("h8")), Err(Breach::Taken(at("h8"))));
        n.apply(place("a1")).expect("the 4th anywhere");
        // Black offers two: not one, not twice the same.
        assert_eq!(n.turn().map(|t| t.request), Some(Request::Offer { count: 2, or_place: None }));
        assert_eq!(n.apply(Action::Offer(vec![at("g7")])), Err(Breach::Count(2, 1)));
        assert_eq!(n.apply(Action::Offer(vec![at("g7"), at("g7")])), Err(Breach::Twice(at("g7"))));
        n.apply(Action::Offer(vec![at("g7"), at("k7")])).expect("offers");
        assert_eq!(n.apply(Action::Choose(at("j7"))), Err(Breach::NotOffered(at("j7"))));
        n.apply(Action::Choose(at("k7"))).expect("choice");
        assert!(n.is_done() && n.turn().is_none());
        assert_eq!(n.stones(), &[at("h8"), at("h9"), at("j10"), at("a1"), at("k7")][..]);
        assert_eq!(n.record().len(), 5);
        assert_eq!(n.apply(Action::Swap(false)), Err(Breach::Over));
    }

    #[test]
    fn symmetric_offers_are_refused() {
        // h8 h9 (a direct opening's first two stones) and White far away on the axis: g7 and i7 mirror each other.
        let mut n = Negotiation::new(OpeningRule::Rif, 15, Rule::Renju).expect("rule");
        n.apply(place("h8 h9 h10")).expect("opening");
        n.apply(Action::Swap(false)).expect("no swap");
        n.apply(place("h4")).expect("4th on the axis");
        assert!(symmetric(n.board(), at("g7"), at("i7")));
        assert_eq!(n.apply(Action::Offer(vec![at("g7"), at("i7")])), Err(Breach::Symmetric(at("g7"), at("i7"))));
        n.apply(Action::Offer(vec![at("g7"), at("g11")])).expect("not symmetric");
    }

    #[test]
    fn yamaguchi_declares_with_the_opening_and_soosorv_with_the_fourth() {
        let mut y = Negotiation::new(OpeningRule::Yamaguchi, 15, Rule::Renju).expect("rule");
        let stones = vec![at("h8"), at("i9"), at("j8")];
        assert_eq!(y.apply(Action::Place(stones.clone(), None)), Err(Breach::Kind));
        assert_eq!(y.apply(Action::Place(stones.clone(), Some(0))), Err(Breach::Declared(0, MAX_DECLARED)));
        y.apply(Action::Place(stones, Some(3))).expect("opening and N");
        y.apply(Action::Swap(false)).expect("swap");
        y.apply(place("f4")).expect("4th");
        assert_eq!(y.turn().map(|t| t.request), Some(Request::Offer { count: 3, or_place: None }));

        let mut s = Negotiation::new(OpeningRule::Soosorv(8), 15, Rule::Renju).expect("rule");
        s.apply(place("h8 i9 j8")).expect("opening");
        s.apply(Action::Swap(true)).expect("swap 1");
        assert_eq!(s.turn().map(|t| t.player), Some(Player::First)); // White after the swap
        assert_eq!(s.apply(Action::Place(vec![at("f4")], Some(9))), Err(Breach::Declared(9, 8)));
        s.apply(Action::Place(vec![at("f4")], Some(2))).expect("4th and N");
        // Swap 2: the holder of Black (the second player) decides, then offers.
        assert_eq!(s.turn().map(|t| (t.player, t.request)), Some((Player::Second, Request::Swap)));
        s.apply(Action::Swap(false)).expect("swap 2");
        assert_eq!(
            s.turn().map(|t| (t.player, t.request)),
            Some((Player::Second, Request::Offer { count: 2, or_place: None }))
        );
    }

    #[test]
    fn taraguchi_grows_its_squares_and_black_may_place_the_fifth_instead_of_offering() {
        let mut n = Negotiation::new(OpeningRule::Taraguchi(10), 15, Rule::Renju).expect("rule");
        assert_eq!(n.apply(place("h9")), Err(Breach::Area(at("h9"), 1)));
        n.apply(place("h8")).expect("centre");
        n.apply(Action::Swap(false)).expect("swap after 1");
        assert_eq!(n.apply(place("h10")), Err(Breach::Area(at("h10"), 3)));
        n.apply(place("i9")).expect("3x3");
        n.apply(Action::Swap(true)).expect("swap after 2");
        n.apply(place("j10")).expect("5x5");
        n.apply(Action::Swap(false)).expect("swap after 3");
        assert_eq!(n.apply(place("l12")), Err(Breach::Area(at("l12"), 7)));
        n.apply(place("k11")).expect("7x7");
        n.apply(Action::Swap(false)).expect("swap after 4");
        let mut offering = n.clone();
        // Option 1: the fifth within 9x9, then White may swap, and the game starts.
        assert_eq!(n.apply(place("m4")), Err(Breach::Area(at("m4"), 9)));
        n.apply(place("g4")).expect("9x9");
        assert_eq!(n.turn().map(|t| t.request), Some(Request::Swap));
        n.apply(Action::Swap(false)).expect("last swap");
        assert!(n.is_done() && n.stones().len() == 5);
        // Option 2: ten offers anywhere, White keeps one.
        let offers: Vec<Pos> = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10"].map(at).to_vec();
        offering.apply(Action::Offer(offers)).expect("ten offers");
        offering.apply(Action::Choose(at("a5"))).expect("choice");
        assert!(offering.is_done() && offering.stones().len() == 5);
    }

    #[test]
    fn swap2_has_its_three_branches() {
        let new = || {
            let mut n = Negotiation::new(OpeningRule::Swap2, 15, Rule::Freestyle).expect("rule");
            n.apply(place("a1 o15 c3")).expect("anywhere");
            n
        };
        let mut swap = new();
        swap.apply(Action::Swap(true)).expect("take Black");
        assert!(swap.is_done() && swap.black() == Player::Second);
        let mut stay = new();
        stay.apply(place("h8")).expect("stay White with the 4th");
        assert!(stay.is_done() && stay.stones().len() == 4 && stay.black() == Player::First);
        let mut add = new();
        add.apply(place("h8 h9")).expect("two more");
        assert_eq!(add.turn().map(|t| (t.player, t.request)), Some((Player::First, Request::Swap)));
        add.apply(Action::Swap(true)).expect("the first player takes White");
        assert!(add.is_done() && add.black() == Player::Second && add.stones().len() == 5);
    }
}
