//! Static evaluation from the pattern board's class counts: for each colour, how many empty points would give it
//! each threat class ([`Pattern4`]), weighted, the side to move's threats counted at full weight and the
//! opponent's at a discount (it moves second). The weights live in one table, [`WEIGHTS`], ready to be tuned.

use crate::pattern::{Pattern4, PatternBoard};
use crate::types::Color;

/// Evaluation weights per [`Pattern4`] class (indexed by its value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A point where the side to move would make this class.
    pub own: [i32; 14],
    /// A point where the opponent would make this class.
    pub opp: [i32; 14],
}

/// The weights in use. Order: None, Forbidden, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2,
/// Block4, Block4Plus, Block4Flex3, Flex4, Five. A renju Black forbidden point is a hole in Black's shape (a
/// small minus for Black, whichever side is to move).
pub const WEIGHTS: Weights = Weights {
    own: [0, -4, 4, 6, 14, 16, 20, 40, 100, 16, 40, 400, 600, 2000],
    opp: [0, 4, 3, 4, 10, 12, 14, 28, 60, 12, 28, 200, 300, 1000],
};

/// The most an evaluation can say; scores beyond it are wins and losses.
pub const EVAL_LIMIT: i32 = 20_000;

/// The position's value for `side`, to move, in evaluation units.
#[must_use]
pub fn evaluate(pb: &PatternBoard, side: Color) -> i32 {
    evaluate_with(pb, side, &WEIGHTS)
}

/// [`evaluate`] with other weights.
#[must_use]
pub fn evaluate_with(pb: &PatternBoard, side: Color, weights: &Weights) -> i32 {
    let counts = pb.class_counts();
    let (me, them) = (&counts[side.index()], &counts[side.opponent().index()]);
    let mut score = 0;
    for class in Pattern4::ALL {
        let k = class as usize;
        score += weights.own[k] * i32::from(me[k]) - weights.opp[k] * i32::from(them[k]);
    }
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

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
        let black = evaluate(&pb, Color::Black);
        let white = evaluate(&pb, Color::White);
        assert!(black > 0, "Black to move with an open three: {black}");
        assert!(white < 0, "White to move against an open three: {white}");
        assert!(black > -white, "the side to move gets more from its threats: {black} vs {white}");
    }

    #[test]
    fn the_empty_board_is_even() {
        let pb = PatternBoard::new(15, Rule::Renju).expect("board");
        assert_eq!(evaluate(&pb, Color::Black), 0);
    }
}
