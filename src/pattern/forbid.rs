//! The exact renju forbidden check (RULES.md): overline, double four, and the recursive double three.
//!
//! The threat class does the sorting: only a point whose class is [`Pattern4::Forbidden`] can be forbidden, and of
//! those only double-three candidates need the recursive test. A line three counts only when one of its
//! straight-four points is a legal move for Black that makes no five; whether that point is legal is decided by the
//! same test, in the position with the three's stone played.

use super::board::PatternBoard;
use super::{ForbidKind, Pattern, Pattern4};
use crate::board::DIRS;
use crate::types::{Color, Pos};

impl PatternBoard {
    /// Why Black may not play the empty point `p`, or `None` when the move is legal (always `None` outside renju
    /// and on a taken or off-board point).
    pub fn forbidden_kind(&mut self, p: Pos) -> Option<ForbidKind> {
        if !self.rule().has_forbidden() || !self.board.is_empty(p) {
            return None;
        }
        if self.pattern4(Color::Black, p) != Pattern4::Forbidden {
            return None;
        }
        self.confirm_forbidden(p)
    }

    /// Every point forbidden for Black, row by row from the top.
    pub fn forbidden_points(&mut self) -> Vec<Pos> {
        let mut out = Vec::new();
        if !self.rule().has_forbidden() {
            return out;
        }
        for p in self.board.points() {
            if self.forbidden_kind(p).is_some() {
                out.push(p);
            }
        }
        out
    }

    /// The full test for a point whose class is `Forbidden`.
    fn confirm_forbidden(&mut self, p: Pos) -> Option<ForbidKind> {
        let pats = [0, 1, 2, 3].map(|d| self.pattern(Color::Black, p, d));
        if pats.contains(&Pattern::Five) {
            return None;
        }
        if pats.contains(&Pattern::Overline) {
            return Some(ForbidKind::Overline);
        }
        if pats.iter().map(|q| q.fours()).sum::<u32>() >= 2 {
            return Some(ForbidKind::DoubleFour);
        }
        // Candidate double three: collect each line three's straight-four points before playing p.
        let mut points: [[Option<Pos>; 8]; 4] = [[None; 8]; 4];
        let mut lines = 0;
        for (d, pat) in pats.iter().enumerate() {
            if *pat == Pattern::Flex3 {
                points[d] = self.straight_four_points(p, d);
                lines += 1;
            }
        }
        if lines < 2 {
            return None;
        }
        self.make(p, Color::Black);
        let mut real = 0;
        for line_points in &points {
            if line_points.iter().flatten().any(|&q| self.is_legal_non_five(q)) {
                real += 1;
                if real >= 2 {
                    break;
                }
            }
        }
        self.undo();
        (real >= 2).then_some(ForbidKind::DoubleThree)
    }

    /// The empty points `q` on direction `d` through `p` such that Black stones on `p` and `q` make a straight four
    /// that contains `p`: the table entry of `p`'s window with `q` filled in is `Flex4`.
    fn straight_four_points(&self, p: Pos, d: usize) -> [Option<Pos>; 8] {
        let key = self.board.window_key(d, p);
        let (dx, dy) = DIRS[d];
        let mut out = [None; 8];
        let mut n = 0;
        for offset in -4i32..=4 {
            if offset == 0 {
                continue;
            }
            // Window point 5 + offset; the key leaves the centre out.
            let slot = if offset < 0 { 5 + offset } else { 4 + offset } as u32;
            if (key >> (2 * slot)) & 3 != 0 {
                continue;
            }
            let filled = key | (1 << (2 * slot));
            if Pattern::from_bits(self.tables.line(filled) & 0xf) == Pattern::Flex4 {
                let q = Pos::new((i32::from(p.x) + offset * dx) as usize, (i32::from(p.y) + offset * dy) as usize);
                out[n] = Some(q);
                n += 1;
            }
        }
        out
    }

    /// Whether Black may play the empty point `q` without it being a five (a three whose straight-four point is
    /// also a five point is no three) and without it being forbidden.
    fn is_legal_non_five(&mut self, q: Pos) -> bool {
        match self.pattern4(Color::Black, q) {
            Pattern4::Five => false,
            Pattern4::Forbidden => self.confirm_forbidden(q).is_none(),
            _ => true,
        }
    }
}
