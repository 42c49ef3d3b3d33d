//! Which empty points count as near a stone: the search's quiet candidates are the empty points near a stone.
//!
//! Tengen has always taken the 5×5 square around every stone. Engines differ here: Rapfi's default adds the
//! points three steps away (a 7×7 square) and four steps away on the stone's lines, PentaZen keeps the points two
//! steps away on the stone's four lines only. A wider reach finds the quiet defence or build-up far from the
//! stones that a longer search can afford to look at; a narrower one searches deeper at the same nodes.

/// A neighbourhood of a stone, as the offsets from it whose points it makes near.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reach {
    /// The 5×5 square (24 points).
    #[default]
    Square2,
    /// The 5×5 square and the points three steps away on the stone's lines (32 points).
    Square2Line3,
    /// The 7×7 square and the points four steps away on the stone's lines (56 points).
    Square3Line4,
    /// The points one and two steps away on the stone's four lines (16 points).
    Line2,
}

impl Reach {
    /// The reach numbered `n` as the search's `cand_range` value counts them (0: [`Reach::Square2`], 1:
    /// [`Reach::Square2Line3`], 2: [`Reach::Square3Line4`], 3: [`Reach::Line2`]; others: the default).
    #[must_use]
    pub fn from_number(n: i32) -> Reach {
        match n {
            1 => Reach::Square2Line3,
            2 => Reach::Square3Line4,
            3 => Reach::Line2,
            _ => Reach::Square2,
        }
    }

    /// Whether a stone at offset `(dx, dy)` from a point makes that point near (the stone's own point is not).
    #[must_use]
    pub const fn covers(self, dx: i32, dy: i32) -> bool {
        let (ax, ay) = (dx.abs(), dy.abs());
        let square = if ax > ay { ax } else { ay };
        let on_line = ax == 0 || ay == 0 || ax == ay;
        if square == 0 {
            return false;
        }
        match self {
            Reach::Square2 => square <= 2,
            Reach::Square2Line3 => square <= 2 || (square == 3 && on_line),
            Reach::Square3Line4 => square <= 3 || (square == 4 && on_line),
            Reach::Line2 => square <= 2 && on_line,
        }
    }

    /// How far the reach goes, in king's steps.
    #[must_use]
    pub const fn radius(self) -> i32 {
        match self {
            Reach::Square2 | Reach::Line2 => 2,
            Reach::Square2Line3 => 3,
            Reach::Square3Line4 => 4,
        }
    }

    /// The offsets the reach covers, row by row.
    #[must_use]
    pub fn offsets(self) -> &'static [(i8, i8)] {
        match self {
            Reach::Square2 => &SQUARE2,
            Reach::Square2Line3 => &SQUARE2_LINE3,
            Reach::Square3Line4 => &SQUARE3_LINE4,
            Reach::Line2 => &LINE2,
        }
    }
}

/// The `N` offsets `reach` covers, row by row.
const fn offsets_of<const N: usize>(reach: Reach) -> [(i8, i8); N] {
    let mut out = [(0i8, 0i8); N];
    let mut n = 0;
    let r = reach.radius();
    let mut dy = -r;
    while dy <= r {
        let mut dx = -r;
        while dx <= r {
            if reach.covers(dx, dy) {
                out[n] = (dx as i8, dy as i8);
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    assert!(n == N, "the reach covers another number of points");
    out
}

static SQUARE2: [(i8, i8); 24] = offsets_of(Reach::Square2);
static SQUARE2_LINE3: [(i8, i8); 32] = offsets_of(Reach::Square2Line3);
static SQUARE3_LINE4: [(i8, i8); 56] = offsets_of(Reach::Square3Line4);
static LINE2: [(i8, i8); 16] = offsets_of(Reach::Line2);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::PatternBoard;
    use crate::types::{Color, Pos, Rule};

    /// The points near the stones, by notation.
    fn near(pb: &PatternBoard) -> Vec<String> {
        pb.board().points().filter(|&p| pb.is_near(p) && pb.board().is_empty(p)).map(|p| p.notation(15)).collect()
    }

    #[test]
    fn a_board_counts_the_points_its_reach_covers_through_moves_and_undos() {
        let mut pb = PatternBoard::new(15, Rule::Renju).expect("a 15 board");
        pb.make(Pos::new(7, 7), Color::Black);
        assert_eq!(near(&pb).len(), 24);
        for (reach, points) in [(Reach::Line2, 16), (Reach::Square2Line3, 32), (Reach::Square3Line4, 56)] {
            pb.set_reach(reach);
            assert_eq!(near(&pb).len(), points, "{reach:?}");
        }
        // Near the edge the reach is cut by it; moves and undos keep the counts a fresh count gives.
        pb.set_reach(Reach::Square2Line3);
        let before = near(&pb);
        pb.make(Pos::new(1, 0), Color::White);
        pb.make(Pos::new(9, 8), Color::Black);
        let mut fresh = PatternBoard::new(15, Rule::Renju).expect("a 15 board");
        fresh.set_reach(Reach::Square2Line3);
        for (p, c) in [(Pos::new(7, 7), Color::Black), (Pos::new(1, 0), Color::White), (Pos::new(9, 8), Color::Black)] {
            fresh.make(p, c);
        }
        assert_eq!(near(&pb), near(&fresh));
        assert!(near(&pb).contains(&Pos::new(4, 0).notation(15)) && !near(&pb).contains(&Pos::new(4, 1).notation(15)));
        pb.undo();
        pb.undo();
        assert_eq!(near(&pb), before);
        pb.set_reach(Reach::Square2);
        assert_eq!(near(&pb).len(), 24);
    }

    #[test]
    fn reaches_cover_the_points_their_names_say() {
        let counts: Vec<usize> =
            [Reach::Square2, Reach::Square2Line3, Reach::Square3Line4, Reach::Line2].map(|r| r.offsets().len()).into();
        assert_eq!(counts, vec![24, 32, 56, 16]);
        assert!(Reach::Square2.covers(1, 2) && !Reach::Line2.covers(1, 2) && Reach::Line2.covers(-2, 2));
        assert!(Reach::Square2Line3.covers(0, -3) && !Reach::Square2Line3.covers(1, 3));
        assert!(Reach::Square3Line4.covers(3, -2) && Reach::Square3Line4.covers(-4, -4));
        assert!(!Reach::Square3Line4.covers(4, 1));
        assert_eq!(Reach::from_number(0), Reach::Square2);
        assert_eq!(Reach::from_number(9), Reach::Square2);
        assert_eq!(Reach::from_number(3), Reach::Line2);
    }
}
