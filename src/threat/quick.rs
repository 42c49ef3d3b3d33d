//! Static win detection: wins the pattern classes show without a search, for the side to move.
//!
//! - a five point: the five on this move;
//! - a straight four (or two fours) to make, when the opponent has no five point: the five on the third move,
//!   since one block cannot stop two five points and the opponent's own fours come too late;
//! - a four-three whose four the opponent can only block with a stone that makes it no four: the five on the
//!   fifth move (the block is made and checked on the board, so a renju three that cannot become a legal straight
//!   four is not counted);
//! - two open threes with one stone when the opponent has no four to make at all: the five on the fifth move.
//!
//! In renju every Black stone of these wins is checked legal. Caro, where a five blocked at both ends wins
//! nothing, has only the first kind.

use crate::movegen::is_legal;
use crate::pattern::{Pattern4, PatternBoard};
use crate::types::{Color, Pos};

/// A win found statically: the move to play and the ply of the five, counting this move as ply 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticWin {
    /// The first move.
    pub first: Pos,
    /// The five comes on this move of the line (1, 3 or 5).
    pub plies: u32,
}

/// The quickest static win of `side`, to move, if the classes show one.
pub fn static_win(pb: &mut PatternBoard, side: Color) -> Option<StaticWin> {
    if let Some(first) = pb.five_points(side).next() {
        return Some(StaticWin { first, plies: 1 });
    }
    let opp = side.opponent();
    if pb.rule().five_needs_open_end() || pb.five_points(opp).next().is_some() {
        return None;
    }
    let counts = pb.class_counts()[side.index()];
    let legal = |pb: &mut PatternBoard, p: Pos| side == Color::White || pb.forbidden_kind(p).is_none();
    if counts[Pattern4::Flex4 as usize] > 0 {
        let fours: crate::movegen::MoveList = pb.four_candidates(side).collect();
        for p in fours {
            if pb.pattern4(side, p) == Pattern4::Flex4 && legal(pb, p) {
                return Some(StaticWin { first: p, plies: 3 });
            }
        }
    }
    if counts[Pattern4::Block4Flex3 as usize] > 0 {
        let fours: crate::movegen::MoveList = pb.four_candidates(side).collect();
        for p in fours {
            if pb.pattern4(side, p) == Pattern4::Block4Flex3 && legal(pb, p) && four_three_wins(pb, side, p) {
                return Some(StaticWin { first: p, plies: 5 });
            }
        }
    }
    if counts[Pattern4::Flex3x2 as usize] > 0 && pb.four_candidates(opp).next().is_none() {
        let mut found = None;
        pb.for_each_empty(|p, classes| {
            if found.is_none() && classes[side.index()] == Pattern4::Flex3x2 {
                found = Some(p);
            }
        });
        if let Some(first) = found
            && legal(pb, first)
        {
            return Some(StaticWin { first, plies: 5 });
        }
    }
    None
}

/// Whether `side`'s four-three at `p` wins: after the opponent's only block (when it may play it) the opponent
/// has no five point and `side` has a legal straight four to make.
fn four_three_wins(pb: &mut PatternBoard, side: Color, p: Pos) -> bool {
    let opp = side.opponent();
    pb.make(p, side);
    let fives: crate::movegen::LinePoints = pb.five_points(side).take(2).collect();
    let wins = match fives.as_slice() {
        [block] => {
            let block = *block;
            if is_legal(pb, opp, block) {
                pb.make(block, opp);
                let safe = pb.five_points(opp).next().is_none();
                let straight = safe && {
                    let fours: crate::movegen::MoveList = pb.four_candidates(side).collect();
                    fours.into_iter().any(|q| {
                        pb.pattern4(side, q) == Pattern4::Flex4
                            && (side == Color::White || pb.forbidden_kind(q).is_none())
                    })
                };
                pb.undo();
                straight
            } else {
                true // the block is forbidden for Black: the five follows
            }
        }
        [] => false,
        _ => true, // two five points (the class said otherwise, but either way one block stops neither)
    };
    pb.undo();
    wins
}
