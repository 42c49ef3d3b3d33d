//! The network's incremental state: each point's sums `h` per view and the two pools, updated on make where the
//! stone changed a line's shape (the nine points of each of its four lines). A make keeps what it overwrote, so
//! its undo only puts that back: no table is read on the way back up the search's tree.
//!
//! The pools do not grow with the board: on a board of another size than the one the networks are trained on
//! ([`TRAINED_SIZE`]), the head reads each pool shifted by the trained size's empty-board pool minus this size's
//! ([`Accumulator::shift`]). A point far from every stone adds the same to a pool as on the empty board, so what the
//! head reads is the trained board's background plus what the stones changed: the same centred position evaluates
//! alike on 15×15, 19×19 and 20×20, and exactly the same where every stone is eight points inside every edge (the
//! windows a stone changes see that far; never so on 15×15, where the edge is part of every position). On the
//! trained size the shift is zero and nothing changes.

use super::Network;
use super::features::{for_each_changed, for_each_window, row};
use super::simd::{self, F, Pool, Row};
use crate::board::{Board, Cell};
use crate::types::{CELLS, Color, Pos};

/// The board size the networks are trained on: other sizes read their pools shifted to it.
pub const TRAINED_SIZE: usize = 15;

/// Per view, per point, the sums of the point's four rows, and per view the pool of their clipped values.
#[derive(Clone)]
pub struct Accumulator {
    net: &'static Network,
    /// Per view (Black's, White's), per flat point index: `h`.
    h: [Box<[Row; CELLS]>; 2],
    /// Per view: the sum over the board's points of `clamp(h, 0, 1)`.
    pools: [Pool; 2],
    /// Per view, on a board of another size than [`TRAINED_SIZE`]: what the head adds to the pool (the trained
    /// size's empty-board pool minus this size's).
    shift: Option<[Pool; 2]>,
    /// Whether the vector path is used.
    simd: bool,
    /// The stone placed last whose change waits until the state is needed ([`Accumulator::defer`]).
    pending: Option<Pos>,
    /// Per make not yet undone, oldest first: what it overwrote.
    frames: Vec<Frame>,
    /// The frames' points, each with its sums of both views before the make.
    saved: Vec<(u16, [Row; 2])>,
}

/// One make's record: its stone, the pools before it, and where its points begin in `saved`.
#[derive(Clone)]
struct Frame {
    pos: Pos,
    pools: [Pool; 2],
    start: usize,
}

impl Accumulator {
    /// The state of `board`, computed from scratch.
    #[must_use]
    pub fn new(net: &'static Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator::unshifted(net, board);
        acc.shift = Accumulator::shift(net, board.size());
        acc
    }

    /// The state of `board` with its pools as they are, whatever the size.
    fn unshifted(net: &'static Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            net,
            h: [Box::new([[0; F]; CELLS]), Box::new([[0; F]; CELLS])],
            pools: [[0; F]; 2],
            shift: None,
            simd: simd::vector(),
            pending: None,
            frames: Vec::new(),
            saved: Vec::new(),
        };
        acc.refresh(board);
        acc
    }

    /// Per view, what a board of `size` adds to its pools for the head: the empty [`TRAINED_SIZE`] board's pool
    /// minus the empty `size` board's (none on the trained size).
    #[must_use]
    pub fn shift(net: &'static Network, size: usize) -> Option<[Pool; 2]> {
        if size == TRAINED_SIZE {
            return None;
        }
        let trained = Accumulator::unshifted(net, &Board::new(TRAINED_SIZE)).pools;
        let this = Accumulator::unshifted(net, &Board::new(size)).pools;
        Some(std::array::from_fn(|v| std::array::from_fn(|i| trained[v][i].wrapping_sub(this[v][i]))))
    }

    /// The same state on the portable path (for tests that compare the two).
    #[must_use]
    pub fn portable(mut self) -> Accumulator {
        self.simd = false;
        self
    }

    /// The network it evaluates with.
    #[must_use]
    pub fn network(&self) -> &'static Network {
        self.net
    }

    /// Recomputes everything from the board.
    pub fn refresh(&mut self, board: &Board) {
        self.pending = None;
        self.frames.clear();
        self.saved.clear();
        let empty_only = self.net.empty_only;
        for view in Color::BOTH {
            let v = view.index();
            let table = self.net.table(view);
            let h = &mut self.h[v];
            h.fill([0; F]);
            for_each_window(board, |index, _, window| {
                // (An empty-only network leaves a stone's point at zero: nothing reads it before the stone goes.)
                if empty_only && centre_cell(window) != 0 {
                    return;
                }
                let r = &table[row(v, window)];
                for i in 0..F {
                    h[index][i] = h[index][i].wrapping_add(r[i]);
                }
            });
            let mut pool = [0; F];
            for p in board.points().filter(|&p| !empty_only || board.is_empty(p)) {
                simd::pool_change::<false>(&mut pool, &[0; F], &h[p.index()]);
            }
            self.pools[v] = pool;
        }
    }

    /// Follows a stone placed on `p` (the board already holds it).
    #[inline]
    pub fn make(&mut self, board: &Board, p: Pos) {
        if let Cell::Stone(c) = board.cell(p) {
            self.change(board, p, c, true);
        }
    }

    /// Follows the stone on `p` being taken back (call it before the board's undo: the board still holds it). When
    /// that stone was the last one [`Accumulator::make`] followed, what the make overwrote is put back; otherwise
    /// (a stone of the position the state was built from) the change is computed.
    #[inline]
    pub fn unmake(&mut self, board: &Board, p: Pos) {
        debug_assert!(self.pending.is_none(), "a waiting stone was not settled");
        if self.frames.last().is_some_and(|f| f.pos == p) {
            self.restore();
        } else if let Cell::Stone(c) = board.cell(p) {
            self.change(board, p, c, false);
        }
    }

    /// Puts back what the last make overwrote.
    #[inline]
    fn restore(&mut self) {
        if let Some(frame) = self.frames.pop() {
            for &(index, rows) in &self.saved[frame.start..] {
                self.h[0][usize::from(index)] = rows[0];
                self.h[1][usize::from(index)] = rows[1];
            }
            self.saved.truncate(frame.start);
            self.pools = frame.pools;
        }
    }

    /// Notes the stone just placed on `p` without following it yet: the work waits for [`Accumulator::settle`], and
    /// a stone taken back before that ([`Accumulator::take_back`]) costs nothing, as at a search node cut off before
    /// it evaluates or places a stone. At most one stone waits: settle before the board's next make.
    #[inline]
    pub fn defer(&mut self, p: Pos) {
        debug_assert!(self.pending.is_none(), "a stone already waits");
        self.pending = Some(p);
    }

    /// Follows the waiting stone, if any; `board` must be as it was just after that stone (nothing placed since).
    #[inline]
    pub fn settle(&mut self, board: &Board) {
        if let Some(p) = self.pending.take() {
            self.make(board, p);
        }
    }

    /// Follows the stone on `p` being taken back (before the board's undo): nothing to do when it still waits.
    #[inline]
    pub fn take_back(&mut self, board: &Board, p: Pos) {
        if self.pending == Some(p) {
            self.pending = None;
        } else {
            self.unmake(board, p);
        }
    }

    #[inline]
    fn change(&mut self, board: &Board, p: Pos, c: Color, placed: bool) {
        debug_assert!(self.pending.is_none(), "a waiting stone was not settled");
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is only set where AVX2 was detected.
            unsafe { self.change_avx2(board, p, c, placed) };
            return;
        }
        self.change_with::<false>(board, p, c, placed);
    }

    /// [`Accumulator::change`] compiled for AVX2, its kernels inlined.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn change_avx2(&mut self, board: &Board, p: Pos, c: Color, placed: bool) {
        self.change_with::<true>(board, p, c, placed);
    }

    #[inline(always)]
    fn change_with<const V: bool>(&mut self, board: &Board, p: Pos, c: Color, placed: bool) {
        let centre = p.index();
        let empty_only = self.net.empty_only;
        let tables = Color::BOTH.map(|view| self.net.table(view));
        let before = [self.h[0][centre], self.h[1][centre]];
        if placed {
            self.frames.push(Frame { pos: p, pools: self.pools, start: self.saved.len() });
            // (An empty-only network leaves the sums of the point it fills as they are: nothing to put back.)
            if !empty_only {
                self.saved.push((centre as u16, before));
            }
        }
        let mut deltas = [[0i16; F]; 2];
        // An empty-only network's sums of the stone's own point, built afresh when the stone goes.
        let mut fresh = [[0i16; F]; 2];
        // Each changed window is read once and serves both views.
        for d in 0..4 {
            for_each_changed(board, p, c, d, |k, index, without, with| {
                // Another stone's point is not pooled by an empty-only network: its sums wait as they are (the
                // search takes this stone back before that one, and an older stone's are built afresh).
                if empty_only && k != 0 && centre_cell(without) != 0 {
                    return;
                }
                let (old, new) = if placed { (without, with) } else { (with, without) };
                if placed && k != 0 {
                    self.saved.push((index as u16, [self.h[0][index], self.h[1][index]]));
                }
                for v in 0..2 {
                    let (sub, add) = (&tables[v][row(v, old)], &tables[v][row(v, new)]);
                    if k != 0 {
                        simd::update::<V>(&mut self.h[v][index], sub, add, &mut deltas[v]);
                    } else if !empty_only {
                        simd::shift::<V>(&mut self.h[v][index], sub, add);
                    } else if !placed {
                        // (Taken back, the new window is the one without the stone.)
                        simd::shift::<V>(&mut fresh[v], &[0; F], add);
                    }
                }
            });
        }
        for v in 0..2 {
            if !empty_only {
                simd::clip_change::<V>(&mut deltas[v], &before[v], &self.h[v][centre]);
            } else if placed {
                // The point leaves the pool; its sums stay, valid again once the stone is taken back.
                simd::clip_change::<V>(&mut deltas[v], &before[v], &[0; F]);
            } else {
                self.h[v][centre] = fresh[v];
                simd::clip_change::<V>(&mut deltas[v], &[0; F], &fresh[v]);
            }
            simd::widen_into::<V>(&mut self.pools[v], &deltas[v]);
        }
    }

    /// The sums `h` of point `p` in `view`'s view (settled: no stone waits).
    #[inline]
    #[must_use]
    pub fn sums(&self, view: Color, p: Pos) -> &Row {
        debug_assert!(self.pending.is_none(), "a waiting stone was not settled");
        &self.h[view.index()][p.index()]
    }

    /// The side to move's logit (see [`Network::logit_with`]).
    #[must_use]
    pub fn logit(&self, side: Color, flags: u32) -> f32 {
        debug_assert!(self.pending.is_none(), "a waiting stone was not settled");
        let (own, opp) = (side.index(), side.opponent().index());
        match &self.shift {
            None => self.net.logit_with(&self.pools[own], &self.pools[opp], flags, self.simd),
            Some(shift) => {
                let read = |v: usize| -> Pool { std::array::from_fn(|i| self.pools[v][i].wrapping_add(shift[v][i])) };
                self.net.logit_with(&read(own), &read(opp), flags, self.simd)
            }
        }
    }

    /// Whether its state equals `other`'s on the points of `board` (for the tests): the pools, and the sums of
    /// every point (of the empty points alone for an empty-only network, whose stones' sums are never read).
    #[must_use]
    pub fn same_state(&self, other: &Accumulator, board: &Board) -> bool {
        let mut points = board.points().filter(|&p| !self.net.empty_only || board.is_empty(p)).map(Pos::index);
        self.pools == other.pools && points.all(|i| self.h[0][i] == other.h[0][i] && self.h[1][i] == other.h[1][i])
    }
}

/// The cell at the centre of a nine-point window (0 empty).
#[inline(always)]
fn centre_cell(window: u64) -> u64 {
    (window >> 8) & 3
}
