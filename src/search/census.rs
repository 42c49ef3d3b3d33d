//! The census of a search: what its nodes were spent on, by kind (issue 97). Every thread counts as it searches and
//! adds its counts to the search's census at the end, when one is asked for ([`super::SearchLimits::census`]); the
//! counting itself is always on (a few additions a node), so that a census describes the build as it plays.

use std::sync::Mutex;

/// Remaining depths counted apart; a node of this depth or more is counted in the last bucket.
pub const CENSUS_DEPTHS: usize = 20;

/// Counts of one search or of several added together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Nodes of the main search by remaining depth (index 0: depth 0 or less, at a node that must still answer a
    /// five point; the last: [`CENSUS_DEPTHS`] − 1 or more).
    pub by_depth: [u64; CENSUS_DEPTHS],
    /// Moves searched (made and searched below) at nodes of each remaining depth.
    pub moves_by_depth: [u64; CENSUS_DEPTHS],
    /// Moves skipped by move-count pruning or as idle at nodes of each remaining depth.
    pub pruned_by_depth: [u64; CENSUS_DEPTHS],
    /// Nodes whose moves are the answers to a threat (a four's block, the defences against an open three).
    pub forced: u64,
    /// Of those, the nodes with one answer (a four's block).
    pub forced_single: u64,
    /// Nodes cut by the table's entry.
    pub tt_cuts: u64,
    /// Leaves: nodes handed to the quiescence search.
    pub leaves: u64,
    /// The leaves' VCF probes, and the nodes they searched.
    pub leaf_probes: u64,
    /// See `leaf_probes`.
    pub probe_nodes: u64,
    /// Nodes of the quiescence search beyond the probes (its fours and their blocks).
    pub quiescence: u64,
    /// Nodes of the root's VCF, the root's VCT, the late VCT, the guard and the VCT probes near the root.
    pub root_vcf: u64,
    /// See `root_vcf`.
    pub root_vct: u64,
    /// See `root_vcf`.
    pub late_vct: u64,
    /// See `root_vcf`.
    pub guard: u64,
    /// See `root_vcf`.
    pub tree_vct: u64,
    /// Late moves searched again at full depth after their reduced search beat alpha, and the nodes of those
    /// searches.
    pub researches: u64,
    /// See `researches`.
    pub research_nodes: u64,
    /// Moves of a PV node searched again with an open window after their null window beat alpha, and their nodes.
    pub pv_researches: u64,
    /// See `pv_researches`.
    pub pv_research_nodes: u64,
    /// Root searches again with a wider window (aspiration fails).
    pub aspiration_fails: u64,
}

impl Census {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Census) {
        let add_all = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        add_all(&mut self.by_depth, &other.by_depth);
        add_all(&mut self.moves_by_depth, &other.moves_by_depth);
        add_all(&mut self.pruned_by_depth, &other.pruned_by_depth);
        for (a, b) in self.scalars_mut().into_iter().zip(other.scalars()) {
            *a += b;
        }
    }

    /// The main search's nodes (every depth).
    #[must_use]
    pub fn main_nodes(&self) -> u64 {
        self.by_depth.iter().sum()
    }

    /// The named counts other than the ones by depth, in a fixed order, with their names.
    #[must_use]
    pub fn named(&self) -> [(&'static str, u64); 17] {
        let names = [
            "forced",
            "forced_single",
            "tt_cuts",
            "leaves",
            "leaf_probes",
            "probe_nodes",
            "quiescence",
            "root_vcf",
            "root_vct",
            "late_vct",
            "guard",
            "tree_vct",
            "researches",
            "research_nodes",
            "pv_researches",
            "pv_research_nodes",
            "aspiration_fails",
        ];
        let values = self.scalars();
        std::array::from_fn(|i| (names[i], values[i]))
    }

    fn scalars(&self) -> [u64; 17] {
        let c = self;
        [
            c.forced,
            c.forced_single,
            c.tt_cuts,
            c.leaves,
            c.leaf_probes,
            c.probe_nodes,
            c.quiescence,
            c.root_vcf,
            c.root_vct,
            c.late_vct,
            c.guard,
            c.tree_vct,
            c.researches,
            c.research_nodes,
            c.pv_researches,
            c.pv_research_nodes,
            c.aspiration_fails,
        ]
    }

    fn scalars_mut(&mut self) -> [&mut u64; 17] {
        let c = self;
        [
            &mut c.forced,
            &mut c.forced_single,
            &mut c.tt_cuts,
            &mut c.leaves,
            &mut c.leaf_probes,
            &mut c.probe_nodes,
            &mut c.quiescence,
            &mut c.root_vcf,
            &mut c.root_vct,
            &mut c.late_vct,
            &mut c.guard,
            &mut c.tree_vct,
            &mut c.researches,
            &mut c.research_nodes,
            &mut c.pv_researches,
            &mut c.pv_research_nodes,
            &mut c.aspiration_fails,
        ]
    }
}

/// The bucket of a remaining depth.
#[must_use]
pub fn bucket(depth: i32) -> usize {
    (depth.max(0) as usize).min(CENSUS_DEPTHS - 1)
}

/// Where a search's threads add their counts.
pub type CensusSink = Mutex<Census>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_field_by_field_and_depths_fall_in_their_buckets() {
        let mut a = Census { forced: 2, late_vct: 7, ..Census::default() };
        a.by_depth[bucket(-3)] += 1;
        a.by_depth[bucket(5)] += 4;
        let mut b = Census { forced: 1, aspiration_fails: 3, ..Census::default() };
        b.by_depth[bucket(100)] += 2;
        a.add(&b);
        assert_eq!((a.forced, a.late_vct, a.aspiration_fails), (3, 7, 3));
        assert_eq!((a.by_depth[0], a.by_depth[5], a.by_depth[CENSUS_DEPTHS - 1]), (1, 4, 2));
        assert_eq!(a.main_nodes(), 7);
        let named = a.named();
        assert!(named.iter().any(|&(n, v)| n == "late_vct" && v == 7));
        assert!(named.iter().any(|&(n, v)| n == "aspiration_fails" && v == 3));
    }
}
