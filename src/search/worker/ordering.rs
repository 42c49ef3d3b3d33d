//! What a move is worth to the ordering, and how much less a late move is searched.

use super::{NodeType, Worker};
use crate::eval::order_value;
use crate::movegen::distance;
use crate::pattern::Pattern4;
use crate::types::{Color, Pos};

impl Worker<'_> {
    /// How many hundredths of a ply less the late quiet move `m`, numbered `i`, is searched (whole plies unless
    /// `lmr_fraction`): the base reduction from the depth and the move number, less at PV nodes, for killers, for
    /// moves that make or stop a blocked three (`own` is what `m` makes for `side`, `theirs` what it stops) and for
    /// moves the history likes, more where the position is not `improving`
    /// (`lmr_worsening`), less at a non-PV node that was on a principal variation (`tt_pv`, `tt_pv_lmr`); never into
    /// the quiescence search.
    #[allow(clippy::too_many_arguments)] // the node's own state, passed as the node holds it
    pub(super) fn late_reduction<N: NodeType>(
        &self,
        depth: i32,
        ply: usize,
        i: usize,
        side: Color,
        m: Pos,
        (own, theirs): (Pattern4, Pattern4),
        improving: bool,
        tt_pv: bool,
    ) -> i32 {
        let p = &self.options.params;
        let base =
            if p.lmr_fraction > 0 { self.reductions.get_fine(depth, i) } else { self.reductions.get(depth, i) * 100 };
        if base == 0 {
            return 0;
        }
        let less = p.lmr_less * 100;
        let mut r = base;
        if N::PV {
            r -= less;
        }
        if self.stack.at(ply).killer_rank(m).is_some() {
            r -= less;
        }
        if own.max(theirs) >= Pattern4::Block3 {
            r -= less;
        }
        // The move is on the board here: what it makes was read before it was placed.
        if self.history_bonus(side, m, own) >= self.options.params.lmr_history {
            r -= less;
        }
        if !improving {
            r += self.options.params.lmr_worsening * 100;
        }
        if !N::PV && tt_pv {
            r -= self.options.params.tt_pv_lmr * 100;
        }
        r.clamp(0, (depth - 2).max(0) * 100)
    }

    /// The ordering value of `side`'s move `m` at `ply`, where the opponent's last move was `last`: the move
    /// policy's score, or without one the learned values of the codes it makes and stops; the killer bonus and the
    /// history; the counter move's bonus and the bonus of a point next to (or two steps from) `last`.
    pub(super) fn order_value(&self, side: Color, ply: usize, last: Option<Pos>, m: Pos) -> i32 {
        let p = &self.options.params;
        let base = match (self.policy, &self.acc) {
            (Some(policy), Some(acc)) => policy.score(&self.pb, acc, side, m) * p.policy_order / 100,
            _ => order_value(&self.pb, side, m, &self.options.weights),
        };
        // What the move makes matters to the history only where attacks keep their own (no lookup otherwise).
        let own = if p.attack_history > 0 { self.pb.pattern4(side, m) } else { Pattern4::None };
        let (counter, near) = match last {
            Some(last) if p.counter_bonus > 0 || p.near_last > 0 => {
                let counter = if self.history.counter(side, last) == Some(m) { p.counter_bonus } else { 0 };
                let near = match distance(m, last) {
                    1 => p.near_last,
                    2 => p.near_last / 2,
                    _ => 0,
                };
                (counter, near)
            }
            _ => (0, 0),
        };
        base + self.stack.at(ply).killer_rank(m).map_or(0, |k| p.killer_bonus()[k])
            + self.history_bonus(side, m, own)
            + counter
            + near
    }

    /// The history's ordering bonus of `side`'s move `m`, which makes `own`: the attacks' history for a move that makes
    /// an open three or more where `attack_history` keeps one, else the quiet moves'.
    pub(super) fn history_bonus(&self, side: Color, m: Pos, own: Pattern4) -> i32 {
        let div = self.options.params.history_order_div;
        if self.options.params.attack_history > 0 && own >= Pattern4::Flex3 {
            self.history.attack_bonus(side, m, div)
        } else {
            self.history.order_bonus(side, m, div)
        }
    }
}
