//! The search's state per ply: what each node keeps for its children and its siblings.

use super::MAX_PLY;
use crate::types::Pos;

/// One ply's state.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// The two most recent quiet moves that caused a cut-off at this ply, newest first.
    pub killers: [Option<Pos>; 2],
    /// The principal variation from this ply.
    pub pv: Vec<Pos>,
    /// Whether the move made at this ply is a pass (null move pruning's).
    pub null_move: bool,
    /// The move a singular extension's search leaves out at this ply.
    pub excluded: Option<Pos>,
    /// The static evaluation of this ply's node for the side to move, where it was taken (not at a node that
    /// answers a threat): what tells its grandchildren whether the position is improving.
    pub eval: Option<i32>,
    /// The hundredths of a ply this ply's node searches beyond its whole depth (fractional depth: set by the parent
    /// just before the call, taken by the node when it is entered, so that a call that sets none passes none).
    pub frac: i32,
}

impl Frame {
    /// Records a quiet move that caused a cut-off.
    pub fn add_killer(&mut self, m: Pos) {
        if self.killers[0] != Some(m) {
            self.killers[1] = self.killers[0];
            self.killers[0] = Some(m);
        }
    }

    /// Which killer `m` is, if it is one.
    #[must_use]
    pub fn killer_rank(&self, m: Pos) -> Option<usize> {
        self.killers.iter().position(|&k| k == Some(m))
    }
}

/// A frame for every ply the search can reach.
pub struct Stack {
    frames: Vec<Frame>,
}

impl Default for Stack {
    fn default() -> Stack {
        Stack { frames: vec![Frame::default(); MAX_PLY + 1] }
    }
}

impl Stack {
    /// The frame of `ply`.
    #[must_use]
    pub fn at(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }

    /// The frame of `ply`, to change.
    pub fn at_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply]
    }

    /// Sets the principal variation of `ply` to `m` followed by the child's (`ply + 1`).
    pub fn update_pv(&mut self, ply: usize, m: Pos) {
        let (head, tail) = self.frames.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(m);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// Whether the static evaluation `eval` at `ply` is better than the same side's two plies before (four where
    /// that node answered a threat); true where there is nothing to compare with.
    #[must_use]
    pub fn improving(&self, ply: usize, eval: Option<i32>) -> bool {
        let Some(eval) = eval else { return true };
        let earlier = [2, 4].iter().filter(|&&back| ply >= back).find_map(|&back| self.frames[ply - back].eval);
        earlier.is_none_or(|e| eval > e)
    }
}
