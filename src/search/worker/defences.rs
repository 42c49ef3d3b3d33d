//! The answers to a threat the pattern classes show (`threat_defence`): where the opponent has a four-three or a
//! double three to play next, a node searches only the moves that stop it and the side's own fours.

use super::Worker;
use crate::movegen::{MoveList, on_line_within};
use crate::pattern::Pattern4;
use crate::threat::static_win;
use crate::types::{Color, Pos};

/// How far along a line from the threat's point (or its four's block) a stone can change what the threat makes:
/// a pattern reads four points each way, and a fifth decides an overline.
const REACH: u8 = 5;

/// Slots of the [`DefenceCache`] (a power of two).
const SLOTS: usize = 1 << 12;
/// The most answers a slot keeps (a node with more tries its moves again).
const SLOT_MOVES: usize = 14;
/// A slot's length when its node has no answers to a threat (every move is searched).
const NOT_FORCED: u8 = u8::MAX;
/// A slot's length before anything is stored in it.
const EMPTY: u8 = u8::MAX - 1;

/// The answers found at recent nodes, by position key: a node searched again (a re-search of a reduced move, the
/// next iteration) takes them without trying its moves on the board again. The answers depend on the position
/// alone, so the search is the same with it and without it.
pub(super) struct DefenceCache {
    slots: Box<[Slot]>,
}

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    len: u8,
    moves: [Pos; SLOT_MOVES],
}

impl Default for DefenceCache {
    fn default() -> Self {
        let empty = Slot { key: 0, len: EMPTY, moves: [Pos::new(0, 0); SLOT_MOVES] };
        DefenceCache { slots: vec![empty; SLOTS].into_boxed_slice() }
    }
}

impl DefenceCache {
    /// The node `key`'s answers, if stored: `Some(None)` where it has none.
    fn get(&self, key: u64) -> Option<Option<MoveList>> {
        let slot = &self.slots[key as usize & (SLOTS - 1)];
        match slot.len {
            EMPTY => None,
            _ if slot.key != key => None,
            NOT_FORCED => Some(None),
            len => Some(Some(slot.moves[..usize::from(len)].iter().copied().collect())),
        }
    }

    /// Stores the node `key`'s answers (`None`: it has none), when they fit.
    fn put(&mut self, key: u64, answers: Option<&MoveList>) {
        let slot = &mut self.slots[key as usize & (SLOTS - 1)];
        match answers {
            None => *slot = Slot { key, len: NOT_FORCED, ..*slot },
            Some(moves) if moves.len() <= SLOT_MOVES => {
                slot.key = key;
                slot.len = moves.len() as u8;
                slot.moves[..moves.len()].copy_from_slice(moves);
            }
            Some(_) => {}
        }
    }
}

impl Worker<'_> {
    /// With `threat_defence`, where the opponent has a four-three or a double three to play next (a win the classes
    /// show), the moves after which it has no such win and the side's own fours, as answers to a threat (`forced`);
    /// `moves` as they are where it has none, or where nothing stops it.
    ///
    /// With `threat_defence 1` every move is tried on the board. With 2 only the moves that can stop the threat
    /// are: those on a line through its point or, for a four-three, through the point that blocks the four (within
    /// `REACH`), and those that make a three of the side's own (the double three's win counts on the side having
    /// no four to make). A move elsewhere changes no pattern the win reads, so it stops the win only where it
    /// makes a Black point forbidden that the classes count as a four to make (a point the win then ignores
    /// wrongly), or makes forbidden, through another line, a point a Black three needs: neither is a defence
    /// worth a search.
    pub(super) fn defences(&mut self, side: Color, moves: MoveList) -> (MoveList, bool) {
        let opp = side.opponent();
        let counts = self.pb.class_counts()[opp.index()];
        if counts[Pattern4::Block4Flex3 as usize] == 0 && counts[Pattern4::Flex3x2 as usize] == 0 {
            return (moves, false);
        }
        let key = self.key(side);
        match self.defence_cache.get(key) {
            Some(Some(answers)) => return (answers, true),
            Some(None) => return (moves, false),
            None => {}
        }
        let Some(win) = static_win(&mut self.pb, opp) else {
            self.defence_cache.put(key, None);
            return (moves, false);
        };
        let narrow = self.options.params.threat_defence >= 2;
        let block = if narrow && self.pb.pattern4(opp, win.first) == Pattern4::Block4Flex3 {
            self.pb.make(win.first, opp);
            let block = self.pb.five_points(opp).next();
            self.pb.undo();
            block
        } else {
            None
        };
        let mut answers = MoveList::new();
        for &m in &moves {
            let own = self.pb.pattern4(side, m);
            let tried = !narrow
                || on_line_within(m, win.first, REACH)
                || block.is_some_and(|b| on_line_within(m, b, REACH))
                || (own >= Pattern4::Block3 && own != Pattern4::Flex2x2);
            let keep = own >= Pattern4::Block4
                || (tried && {
                    self.pb.make(m, side);
                    let stopped = static_win(&mut self.pb, opp).is_none();
                    self.pb.undo();
                    stopped
                });
            if keep {
                answers.push(m);
            }
        }
        if answers.is_empty() {
            self.defence_cache.put(key, None);
            (moves, false)
        } else {
            self.defence_cache.put(key, Some(&answers));
            (answers, true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_worker::with_worker;
    use super::*;
    use crate::movegen::{Candidates, candidates};
    use crate::pattern::PatternBoard;
    use crate::search::params::Params;
    use crate::types::{Pos, Rule};

    /// The defences of Black (to move) with `threat_defence` at `mode`, and whether they were answers to a threat.
    fn defences(pb: &PatternBoard, mode: i32) -> (Vec<Pos>, bool) {
        let Candidates::Moves { moves, forced: false } = candidates(&mut pb.clone(), Color::Black) else {
            panic!("the position has every move near the stones for Black");
        };
        let params = Params { threat_defence: mode, ..Params::DEFAULT };
        with_worker(pb, Color::Black, params, |worker| {
            let (answers, forced) = worker.defences(Color::Black, moves);
            let mut answers: Vec<Pos> = answers.into_iter().collect();
            answers.sort_unstable();
            (answers, forced)
        })
    }

    #[test]
    fn the_cache_gives_back_what_a_key_stored_and_nothing_for_another_key() {
        let mut cache = DefenceCache::default();
        let answers: MoveList = [Pos::new(7, 7), Pos::new(3, 4)].into_iter().collect();
        let (key, other) = (0x1234_5678_9abc_def0, 0x1234_5678_9abc_def0 ^ (1 << 40));
        assert_eq!(cache.get(key), None);
        cache.put(key, Some(&answers));
        assert_eq!(cache.get(key), Some(Some(answers)));
        assert_eq!(cache.get(other), None, "the same slot, another position");
        cache.put(other, None);
        assert_eq!(cache.get(other), Some(None));
        assert_eq!(cache.get(key), None, "replaced");
        let many: MoveList = (0..=SLOT_MOVES).map(|i| Pos::new(i, 0)).collect();
        cache.put(key, Some(&many));
        assert_eq!(cache.get(key), None, "too many answers are not kept");
    }

    #[test]
    fn the_narrow_defences_are_the_moves_that_stop_the_double_three_on_its_lines_or_by_a_three() {
        let p = |s: &str| Pos::parse(s, 15).expect("point");
        // White (F9 G9 and I8 K6) makes a double three at H9 next; Black has no four to make.
        let line = "h7 i8 h5 h8 j8 i7 i6 g9 j6 k6 g8 j5 i4 f9";
        let mut pb = PatternBoard::new(15, Rule::Renju).expect("board");
        for (i, word) in line.split_whitespace().enumerate() {
            pb.make(p(word), if i % 2 == 0 { Color::Black } else { Color::White });
        }
        assert_eq!(pb.pattern4(Color::White, p("h9")), Pattern4::Flex3x2);
        let (all, forced_all) = defences(&pb, 1);
        let (narrow, forced_narrow) = defences(&pb, 2);
        assert!(forced_all && forced_narrow);
        assert!(narrow.contains(&p("h9")), "the threat's own point stops it: {narrow:?}");
        assert!(narrow.iter().all(|m| all.contains(m)), "{narrow:?} within {all:?}");
        // F4 makes G4 a forbidden point that the classes count as a Black four to make, so the double three no
        // longer shows as a win; it stops nothing.
        assert!(all.contains(&p("f4")) && !narrow.contains(&p("f4")));
        for m in all.iter().filter(|m| !narrow.contains(m)) {
            let own = pb.pattern4(Color::Black, *m);
            assert!(!on_line_within(*m, p("h9"), REACH), "{m:?} is on a line of the threat");
            assert!(own < Pattern4::Block3 || own == Pattern4::Flex2x2, "{m:?} makes a three");
        }
    }
}
