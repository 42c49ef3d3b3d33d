//! Static evaluation, learned from games. For each colour, every empty point's pattern code (its four line
//! patterns as a multiset, see [`crate::pattern::code_of`]) has two values, one for when that colour is to move
//! and one for when it is not; the board keeps each colour's two sums over the empty points as it makes and undoes
//! moves. The position's value for the side to move is its own sum minus the opponent's, plus a threat term looked
//! up by the tempo flags of both sides (a straight four, a four-three, a four, two open threes, an open three to be
//! made): who moves next decides what those are worth.
//!
//! The tables come in four families: freestyle, standard (caro shares it), renju Black and renju White. They also
//! hold the move-ordering values per code that the search uses: attack (the mover's code at the point) and
//! defence (the opponent's). All of them are learned by `pbrain-tengen tune` (see [`crate::tune`]) and live in
//! one weights file that the build embeds ([`default_weights`]); [`Weights::prior`] is the hand-set starting point
//! they were first learned from.

pub mod network;
pub mod policy;
mod weights;

pub use weights::{Weights, WeightsRef, default_weights, embedded_identity};

use crate::pattern::{ClassCounts, Pattern4, PatternBoard, code_of};
use crate::types::{Color, Pos, Rule};

/// The most an evaluation can say; scores beyond it are wins and losses.
pub const EVAL_LIMIT: i32 = 20_000;

/// The threat flags of one side (see [`side_flags`]).
pub const THREAT_FLAGS: usize = 5;

/// How many threat keys there are: the flags of the side to move and of its opponent.
pub const THREATS: usize = 1 << (2 * THREAT_FLAGS);

/// A set of tables: which rule, and for renju which colour, they serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Freestyle, both colours.
    Freestyle = 0,
    /// Standard (exactly five) and both caro rules, both colours.
    Standard = 1,
    /// Renju, Black's codes (and the threat term with Black to move).
    RenjuBlack = 2,
    /// Renju, White's codes (and the threat term with White to move).
    RenjuWhite = 3,
}

/// How many families there are.
pub const FAMILIES: usize = 4;

impl Family {
    /// Every family, by index.
    pub const ALL: [Family; FAMILIES] = [Family::Freestyle, Family::Standard, Family::RenjuBlack, Family::RenjuWhite];

    /// The family whose tables serve colour `c` under `rule`.
    #[must_use]
    pub const fn of(rule: Rule, c: Color) -> Family {
        match (rule, c) {
            (Rule::Freestyle, _) => Family::Freestyle,
            (Rule::Standard | Rule::Caro | Rule::CaroOverline, _) => Family::Standard,
            (Rule::Renju, Color::Black) => Family::RenjuBlack,
            (Rule::Renju, Color::White) => Family::RenjuWhite,
        }
    }

    /// Its index in the tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Its name in the weights file.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Family::Freestyle => "freestyle",
            Family::Standard => "standard",
            Family::RenjuBlack => "renju-black",
            Family::RenjuWhite => "renju-white",
        }
    }
}

/// One side's threat flags from its class counts: bit 0 a point that makes a straight four (or two fours), bit 1
/// a four-three point, bit 2 a plain four point, bit 3 a point that makes two open threes, bit 4 a point that
/// makes one open three.
#[must_use]
pub fn side_flags(counts: &[u16; 16]) -> usize {
    let has = |c: Pattern4| counts[c as usize] > 0;
    usize::from(has(Pattern4::Flex4))
        | usize::from(has(Pattern4::Block4Flex3)) << 1
        | usize::from(has(Pattern4::Block4) || has(Pattern4::Block4Plus)) << 2
        | usize::from(has(Pattern4::Flex3x2)) << 3
        | usize::from(has(Pattern4::Flex3) || has(Pattern4::Flex3Plus)) << 4
}

/// The threat key of a position with `side` to move: its flags, then the opponent's.
#[must_use]
pub fn threat_key(counts: &ClassCounts, side: Color) -> usize {
    side_flags(&counts[side.index()]) | (side_flags(&counts[side.opponent().index()]) << THREAT_FLAGS)
}

/// The evaluation of a position taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalParts {
    /// The side to move's code values summed over the empty points.
    pub own: i32,
    /// The opponent's code values summed over the empty points.
    pub opp: i32,
    /// The threat term for the side to move.
    pub threat: i32,
    /// The threat key it was read from.
    pub key: usize,
    /// The value for the side to move: its sum minus the opponent's plus the threat term, within
    /// ±[`EVAL_LIMIT`].
    pub total: i32,
}

/// The position's value for `side`, to move, in evaluation units. The board's class counts must be kept (they
/// are unless turned off); its code sums are used when they are kept with `weights`' values (see
/// [`Weights::code_values`]), else summed afresh.
#[inline]
#[must_use]
pub fn evaluate(pb: &PatternBoard, side: Color, weights: &Weights) -> i32 {
    parts(pb, side, weights).total
}

/// [`evaluate`] with its parts.
#[must_use]
pub fn parts(pb: &PatternBoard, side: Color, weights: &Weights) -> EvalParts {
    let kept = pb.code_values().is_some_and(|v| std::ptr::eq(v, weights.code_values(pb.rule())));
    let sums = if kept { pb.code_sums() } else { code_sums_from_scratch(pb, weights) };
    let key = threat_key(pb.class_counts(), side);
    let threat = i32::from(weights.threat[Family::of(pb.rule(), side).index()][key]);
    let (own, opp) = (sums[side.index()][0], sums[side.opponent().index()][1]);
    let total = (own - opp + threat).clamp(-EVAL_LIMIT, EVAL_LIMIT);
    EvalParts { own, opp, threat, key, total }
}

/// Per colour, the sums of its code values over the empty points as the side to move's and as the opponent's,
/// computed from each point's patterns (the from-scratch twin of the board's running sums).
#[must_use]
pub fn code_sums_from_scratch(pb: &PatternBoard, weights: &Weights) -> [[i32; 2]; 2] {
    let rule = pb.rule();
    let mut sums = [[0; 2]; 2];
    for p in pb.board().points().filter(|&p| pb.board().is_empty(p)) {
        for c in Color::BOTH {
            let code = code_of(pb.packed_patterns(c, p));
            if code != 0 {
                let f = Family::of(rule, c).index();
                sums[c.index()][0] += i32::from(weights.own[f][code]);
                sums[c.index()][1] += i32::from(weights.opp[f][code]);
            }
        }
    }
    sums
}

/// The rule groups whose embedded network is the default evaluation, by [`network::Group`] index: all three
/// (freestyle, standard with caro, renju), where the network beats the classical evaluation at 0.5 s a move
/// (README, Network evaluation). A group set to `false` would play with the classical evaluation by default.
pub const NETWORK_BY_DEFAULT: [bool; 3] = [true, true, true];

/// What the build evaluates with, for `--version`: the classical tables' identity and the embedded networks', each
/// with the rule groups it is the default evaluation of.
#[must_use]
pub fn provenance() -> String {
    use network::Group;
    let nets: Vec<String> = network::embedded_identities().iter().map(|(name, id)| format!("{name} {id}")).collect();
    // Which rule groups play with which by default (standard's network also serves caro).
    let by_default = |network: bool| -> String {
        let groups: Vec<&str> = Group::ALL
            .iter()
            .filter(|&&g| NETWORK_BY_DEFAULT[g as usize] == network)
            .map(|g| if *g == Group::Standard { "standard, caro" } else { g.name() })
            .collect();
        if groups.is_empty() { "none".to_string() } else { groups.join(", ") }
    };
    format!(
        "classical (tables data/weights.txt {}; the default in {}), network ({}; the default in {})",
        embedded_identity(),
        by_default(false),
        if nets.is_empty() { "none embedded".to_string() } else { nets.join(", ") },
        by_default(true)
    )
}

/// Which evaluation the search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalChoice {
    /// The build's choice for the rule: its embedded network where [`NETWORK_BY_DEFAULT`] says so, else the
    /// classical evaluation.
    #[default]
    Default,
    /// The pattern-code sums and the threat term (the weights file).
    Classical,
    /// A network: the given one, or the build's embedded network for the rule (`None`). A rule without one is
    /// evaluated classically.
    Network(Option<NetworkRef>),
}

impl EvalChoice {
    /// The network that evaluates positions under `rule` on a board of `size`, if this choice and the build have
    /// one (a given network evaluates every size; the build's choice depends on it: [`network::default_network`]).
    #[must_use]
    pub fn network(self, rule: Rule, size: usize) -> Option<&'static network::Network> {
        match self {
            EvalChoice::Default if NETWORK_BY_DEFAULT[network::Group::of(rule) as usize] => {
                network::default_network(rule, size)
            }
            EvalChoice::Default | EvalChoice::Classical => None,
            EvalChoice::Network(given) => given
                .map(|n| n.0)
                .or_else(|| network::default_network(rule, size))
                .filter(|n| n.group == network::Group::of(rule)),
        }
    }

    /// The evaluation by a network file, read once per path for the whole process.
    ///
    /// # Errors
    /// The file cannot be read or is not a network of this build's shape.
    pub fn load(path: &str) -> Result<EvalChoice, String> {
        network::Network::load_cached(path).map(|n| EvalChoice::Network(Some(NetworkRef(n))))
    }

    /// The name of the evaluation it gives under `rule` on a board of `size`: `network` or `classical`.
    #[must_use]
    pub fn name(self, rule: Rule, size: usize) -> &'static str {
        if self.network(rule, size).is_some() { "network" } else { "classical" }
    }
}

impl std::str::FromStr for EvalChoice {
    type Err = String;

    /// `default` (the build's choice for the rule), `classical`, or `network` (the build's network for the rule).
    fn from_str(word: &str) -> Result<EvalChoice, String> {
        match word.trim() {
            "default" => Ok(EvalChoice::Default),
            "classical" => Ok(EvalChoice::Classical),
            "network" => Ok(EvalChoice::Network(None)),
            other => Err(format!("unknown evaluation '{other}' (default, classical or network)")),
        }
    }
}

/// A shared handle on a network: equal when it is the same one.
#[derive(Clone, Copy)]
pub struct NetworkRef(pub &'static network::Network);

impl PartialEq for NetworkRef {
    fn eq(&self, other: &NetworkRef) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for NetworkRef {}

impl std::fmt::Debug for NetworkRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// The flags the network's head reads (see [`network`]): the threat key of `side`, to move, and in renju bit 10
/// when Black is to move.
#[must_use]
pub fn network_flags(pb: &PatternBoard, side: Color) -> u32 {
    let black = pb.rule() == Rule::Renju && side == Color::Black;
    threat_key(pb.class_counts(), side) as u32 | (u32::from(black) << (2 * THREAT_FLAGS))
}

/// The network's evaluation of `pb` for `side`, to move, from an accumulator that follows the board, in the
/// search's units within ±[`EVAL_LIMIT`]; a residual network's is added to the classical evaluation by `weights`.
#[inline]
#[must_use]
pub fn network_evaluate(acc: &network::Accumulator, pb: &PatternBoard, side: Color, weights: &Weights) -> i32 {
    let net = acc.network();
    let classical = if net.residual { evaluate(pb, side, weights) } else { 0 };
    net.evaluation(acc.logit(side, network_flags(pb, side)), classical, EVAL_LIMIT)
}

/// How promising the empty point `m` is for `side`, to move: the attack value of its code for `side` plus the
/// defence value of its code for the opponent (softmax logits × 100, learned from the moves played).
#[inline]
#[must_use]
pub fn order_value(pb: &PatternBoard, side: Color, m: Pos, weights: &Weights) -> i32 {
    let family = Family::of(pb.rule(), side).index();
    let own = code_of(pb.packed_patterns(side, m));
    let opp = code_of(pb.packed_patterns(side.opponent(), m));
    i32::from(weights.attack[family][own]) + i32::from(weights.defend[family][opp])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_three_is_worth_more_to_its_owner_than_to_the_opponent() {
        let pb = PatternBoard::from_ascii(
            "
   A B C D E F G H I J K L M N O
15 . . . . . . . . . . . . . . .
14 . . . . . . . . . . . . . . .
13 . . . . . . . . . . . . . . .
12 . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . .
10 . . . . . . . . . . . . . . .
 9 . . . . . . . . . . . . . . .
 8 . . . . . . X X X . . . . . .
 7 . . . . . . . . . . . O . . .
 6 . . . . . . . . . . . . O . .
 5 . . . . . . . . . . . . . . .
 4 . . . . . . . . . . . . . . .
 3 . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . .
 1 . . . . . . . . . . . . . . .
   A B C D E F G H I J K L M N O",
            Rule::Freestyle,
        )
        .expect("board");
        for weights in [default_weights(), &Weights::prior()] {
            let black = evaluate(&pb, Color::Black, weights);
            let white = evaluate(&pb, Color::White, weights);
            assert!(black > 0, "Black to move with an open three: {black}");
            assert!(white < 0, "White to move against an open three: {white}");
            assert!(black > -white, "the side to move gets more from its threats: {black} vs {white}");
        }
    }

    #[test]
    fn freestyle_values_a_position_as_its_colour_swapped_twin() {
        // Freestyle's tables serve both colours: swapping the stones' colours and the side to move changes nothing.
        let black = ["h8", "j9", "i8", "g7"].map(|m| Pos::parse(m, 15).expect("point"));
        let white = ["h9", "h10", "k9"].map(|m| Pos::parse(m, 15).expect("point"));
        let a = PatternBoard::from_stones(15, Rule::Freestyle, &black, &white).expect("board");
        let b = PatternBoard::from_stones(15, Rule::Freestyle, &white, &black).expect("board");
        for w in [default_weights(), &Weights::prior()] {
            assert_eq!(evaluate(&a, Color::White, w), evaluate(&b, Color::Black, w));
            assert_eq!(parts(&a, Color::Black, w), parts(&b, Color::White, w));
        }
    }

    #[test]
    fn kept_sums_equal_the_from_scratch_sums() {
        let mut pb = PatternBoard::new(15, Rule::Renju).expect("board");
        let w = default_weights();
        pb.set_code_values(Some(w.code_values(Rule::Renju)));
        for (i, m) in ["h8", "h9", "j8", "g8", "j10", "j9", "k9"].iter().enumerate() {
            let p = Pos::parse(m, 15).expect("point");
            pb.make(p, Color::to_move(i));
            assert_eq!(pb.code_sums(), code_sums_from_scratch(&pb, w));
        }
        assert_ne!(pb.code_sums(), [[0, 0]; 2]);
    }

    #[test]
    fn flags_read_the_classes() {
        let mut counts = [0u16; 16];
        assert_eq!(side_flags(&counts), 0);
        counts[Pattern4::Flex4 as usize] = 1;
        counts[Pattern4::Flex3Plus as usize] = 2;
        assert_eq!(side_flags(&counts), 0b1_0001);
        counts[Pattern4::Block4Plus as usize] = 1;
        assert_eq!(side_flags(&counts), 0b1_0101);
        let mut both: ClassCounts = [[0; 16]; 2];
        both[1][Pattern4::Flex3x2 as usize] = 1;
        assert_eq!(threat_key(&both, Color::Black), 0b01000 << THREAT_FLAGS);
        assert_eq!(threat_key(&both, Color::White), 0b01000);
    }
}
