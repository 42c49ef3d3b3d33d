//! The opening rules tournaments play — RIF, Yamaguchi, Soosõrv-N, Taraguchi-N (renju) and Swap2 (gomoku) — as
//! typed sequences of decisions (here: the rules, the players, what a step asks and what answers it), and the referee
//! of one negotiation ([`Negotiation`], `negotiation.rs`): who decides what next ([`Turn`]), and whether an action
//! keeps to the rule ([`Breach`] when it does not). `geometry.rs`: the central squares and the board's symmetries
//! the rules speak of. Nothing here searches: the engine's decisions are in `engine::opening`.
//!
//! The two players are the one who starts as tentative Black ([`Player::First`]) and the other; a swap exchanges
//! their colours. A negotiation ends ([`Turn`] `None`) when the game proper starts: the stones placed, the side to
//! move, and who holds which colour are then the game's.

mod geometry;
mod negotiation;

pub use geometry::{images, symmetric, symmetries, within};
pub use negotiation::Negotiation;

use crate::types::{Pos, Rule};
use std::fmt;
use std::str::FromStr;

/// An opening rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningRule {
    /// RIF (1996–2008): tentative Black places one of the 26 openings, White may swap, White plays the 4th
    /// anywhere, Black offers two fifth moves, White keeps one.
    Rif,
    /// Yamaguchi (2009–2015): as RIF, but the first player declares N fifth moves with the opening.
    Yamaguchi,
    /// Soosõrv-N (Soosõrv-8: world championships since 2017): one of the 26 openings, swap; White plays the 4th
    /// and declares 1 to N fifth moves; swap again; Black offers that many, White keeps one.
    Soosorv(usize),
    /// Taraguchi-N (Taraguchi-10: European championships since 2010): stones 1 to 4 in growing central squares
    /// (1, 3×3, 5×5, 7×7) with a swap after each; then Black plays the 5th within 9×9 (White may swap) or offers N
    /// fifth moves anywhere (White keeps one).
    Taraguchi(usize),
    /// Swap2 (gomoku): the first player places three stones; the second swaps, stays White, or places two more
    /// and lets the first choose a colour.
    Swap2,
}

impl OpeningRule {
    /// The most fifth moves a player may declare or offer under this rule (Yamaguchi's N is free: 1 to 16 here).
    #[must_use]
    pub fn max_offers(self) -> usize {
        match self {
            OpeningRule::Rif => 2,
            OpeningRule::Yamaguchi => MAX_DECLARED,
            OpeningRule::Soosorv(n) | OpeningRule::Taraguchi(n) => n,
            OpeningRule::Swap2 => 0,
        }
    }

    /// The rule the game is played under: renju for the renju opening rules, `gomoku` for Swap2.
    #[must_use]
    pub fn game_rule(self, gomoku: Rule) -> Rule {
        if self == OpeningRule::Swap2 { gomoku } else { Rule::Renju }
    }
}

/// The most fifth moves Yamaguchi's first player may declare.
pub const MAX_DECLARED: usize = 16;

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningRule::Rif => write!(f, "rif"),
            OpeningRule::Yamaguchi => write!(f, "yamaguchi"),
            OpeningRule::Soosorv(n) => write!(f, "soosorv{n}"),
            OpeningRule::Taraguchi(n) => write!(f, "taraguchi{n}"),
            OpeningRule::Swap2 => write!(f, "swap2"),
        }
    }
}

impl FromStr for OpeningRule {
    type Err = String;

    /// `rif`, `yamaguchi`, `soosorv8` (or `soosorv-8`, any N from 1 to 16), `taraguchi10`, `swap2`.
    fn from_str(s: &str) -> Result<OpeningRule, String> {
        let t = s.trim().to_ascii_lowercase();
        let numbered = |prefix: &str| -> Option<Result<usize, String>> {
            let rest = t.strip_prefix(prefix)?;
            let rest = rest.strip_prefix('-').unwrap_or(rest);
            Some(
                rest.parse()
                    .ok()
                    .filter(|n| (1..=MAX_DECLARED).contains(n))
                    .ok_or_else(|| format!("bad N in opening rule '{s}' (1 to {MAX_DECLARED})")),
            )
        };
        match t.as_str() {
            "rif" => Ok(OpeningRule::Rif),
            "yamaguchi" => Ok(OpeningRule::Yamaguchi),
            "swap2" => Ok(OpeningRule::Swap2),
            _ => {
                if let Some(n) = numbered("soosorv") {
                    return n.map(OpeningRule::Soosorv);
                }
                if let Some(n) = numbered("taraguchi") {
                    return n.map(OpeningRule::Taraguchi);
                }
                Err(format!("unknown opening rule '{s}' (rif, yamaguchi, soosorv8, taraguchi10 or swap2)"))
            }
        }
    }
}

/// One of the two players of a negotiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The one who starts as tentative Black.
    First,
    /// The other.
    Second,
}

impl Player {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Player {
        if self == Player::First { Player::Second } else { Player::First }
    }
}

/// Where a stone may go: within the central square of this side (1: the centre point), or anywhere (`None`).
pub type Area = Option<usize>;

/// What the deciding player is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Place these stones in move order (colours alternating from the side to move), the i-th within `areas[i]`;
    /// with `declare` also declare how many fifth moves will be offered (1 to that many).
    Place {
        /// One area per stone.
        areas: Vec<Area>,
        /// The most fifth moves the player may declare, if a declaration is due.
        declare: Option<usize>,
    },
    /// Keep the colours (`Action::Swap(false)`) or exchange them (`Action::Swap(true)`).
    Swap,
    /// Swap2's second player on three stones: swap, stay White (the 4th is then the game's first move), or place
    /// the 4th and 5th stones (anywhere) and let the first player choose a colour.
    Swap2,
    /// Black offers this many fifth moves: legal, distinct and pairwise not symmetric. With `or_place`, Black may
    /// instead place the fifth stone within that area (Taraguchi).
    Offer {
        /// How many.
        count: usize,
        /// Taraguchi's other option: the fifth stone within this area.
        or_place: Option<Area>,
    },
    /// White keeps one of the offered fifth moves.
    Choose {
        /// The offers.
        offers: Vec<Pos>,
    },
}

/// A player's answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Stones placed in move order, and the declared number of fifth moves when one was due.
    Place(Vec<Pos>, Option<usize>),
    /// Swap (true) or keep the colours (false).
    Swap(bool),
    /// Fifth moves offered.
    Offer(Vec<Pos>),
    /// The offer kept.
    Choose(Pos),
}

impl Action {
    /// The action as a person reads it (points in `H8` notation on a board of side `size`): "places H8 H9 J10",
    /// "swaps", "offers H6 J9", "keeps H6"…
    #[must_use]
    pub fn describe(&self, size: usize) -> String {
        let points = |ps: &[Pos]| ps.iter().map(|p| p.notation(size)).collect::<Vec<_>>().join(" ");
        match self {
            Action::Place(stones, None) => format!("places {}", points(stones)),
            Action::Place(stones, Some(n)) => format!("places {} and declares {n} fifth moves", points(stones)),
            Action::Swap(true) => "swaps colours".to_string(),
            Action::Swap(false) => "keeps its colour".to_string(),
            Action::Offer(offers) => format!("offers {}", points(offers)),
            Action::Choose(p) => format!("keeps {}", p.notation(size)),
        }
    }
}

/// Who decides what next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The deciding player.
    pub player: Player,
    /// What is asked.
    pub request: Request,
}

/// Why an action breaks the rule (the player who made it forfeits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Breach {
    /// The action is not an answer to the request (a swap where stones were asked, say).
    Kind,
    /// The wrong number of stones or offers: wanted, given.
    Count(usize, usize),
    /// A stone outside its central square (of this side).
    Area(Pos, usize),
    /// A point taken, or off the board.
    Taken(Pos),
    /// A move forbidden for Black, or one that makes five.
    Illegal(Pos),
    /// An offer given twice.
    Twice(Pos),
    /// Two offers that a symmetry of the position maps onto each other.
    Symmetric(Pos, Pos),
    /// A kept move that was not offered.
    NotOffered(Pos),
    /// A declared number of fifth moves outside 1 to the maximum.
    Declared(usize, usize),
    /// The negotiation is over.
    Over,
}

impl Breach {
    /// The breach with its points in `H8` notation on a board of side `size` (Display writes protocol `x,y`).
    #[must_use]
    pub fn describe(&self, size: usize) -> String {
        self.text(&|p: &Pos| p.notation(size))
    }

    fn text(&self, at: &dyn Fn(&Pos) -> String) -> String {
        match self {
            Breach::Kind => "not an answer to the step asked".to_string(),
            Breach::Count(wanted, given) => format!("{given} given where the rule asks {wanted}"),
            Breach::Area(p, side) => format!("{} is outside the central {side}x{side} square", at(p)),
            Breach::Taken(p) => format!("{} is taken or off the board", at(p)),
            Breach::Illegal(p) => format!("{} is not a legal move (forbidden, or a five)", at(p)),
            Breach::Twice(p) => format!("{} is offered twice", at(p)),
            Breach::Symmetric(p, q) => format!("{} and {} are symmetric offers", at(p), at(q)),
            Breach::NotOffered(p) => format!("{} was not offered", at(p)),
            Breach::Declared(n, max) => format!("{n} fifth moves declared (1 to {max})"),
            Breach::Over => "the opening is over".to_string(),
        }
    }
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(&|p: &Pos| format!("{},{}", p.x, p.y)))
    }
}

impl std::error::Error for Breach {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_read_and_print_their_names() {
        for name in ["rif", "yamaguchi", "soosorv8", "taraguchi10", "swap2"] {
            let rule: OpeningRule = name.parse().expect("rule");
            assert_eq!(rule.to_string(), name);
        }
        assert_eq!("Soosorv-5".parse(), Ok(OpeningRule::Soosorv(5)));
        assert!("soosorv0".parse::<OpeningRule>().is_err());
        assert!("taraguchi".parse::<OpeningRule>().is_err());
        assert!("fast".parse::<OpeningRule>().is_err());
    }
}
