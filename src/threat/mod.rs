//! Threat-space solvers: VCF (victory by continuous fours) and VCT (by fours and threes). Both return the whole
//! winning line, honour node and time budgets and an abort flag, and work for every rule and either attacker.
//! Beside them, static win detection: the wins the pattern classes show without a search.

mod check;
mod defence;
mod quick;
mod vcf;
mod vct;

pub use check::{LineEnd, check_line, naive_vcf};
pub use defence::{line_survives, vcf_defences};
pub use quick::{StaticWin, static_win};
pub use vcf::{Vcf, VcfOptions, table_bytes as vcf_table_bytes, table_entries as vcf_table_entries};
pub use vct::{DEFAULT_DEPTH, DEFAULT_THREAT_FOURS, Vct, VctOptions};

use crate::types::Pos;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// A win: attacker and defender moves alternately, ending with the attacker's five (or, in renju, with a White
    /// four whose only block is forbidden for Black).
    Win(Vec<Pos>),
    /// Proven that no win of this kind exists.
    None,
    /// The budget ran out (or the search was aborted) before an answer.
    Unknown,
}

/// Node, time and abort limits for a solver run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Stop after this many nodes (0: no node limit).
    pub nodes: u64,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this flag becomes true.
    pub abort: Option<&'a AtomicBool>,
}

impl Limits<'_> {
    /// Whether a run that has searched `nodes` nodes must stop now.
    #[must_use]
    pub fn exceeded(&self, nodes: u64) -> bool {
        (self.nodes != 0 && nodes >= self.nodes)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.abort.is_some_and(|a| a.load(Ordering::Relaxed))
    }
}

/// Counters of a solver run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes visited (positions where a side had to move).
    pub nodes: u64,
}

/// A hasher for zobrist keys, which are already uniformly random: one multiply mixes in the odd small key parts
/// (a side flag, a depth) and the rest passes through, much cheaper than the default SipHash.
#[derive(Clone, Copy, Default)]
pub struct ZobristHasher(u64);

impl std::hash::Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(32);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
}

/// A map keyed by zobrist hashes.
pub type ZobristMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<ZobristHasher>>;
/// A set of zobrist hashes. (A fixed hasher: the standard library's random one would import Windows'
/// bcryptprimitives.dll, which Wine 8 and Windows before 10 lack.)
pub type ZobristSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<ZobristHasher>>;
