//! Threat-space solvers: VCF (victory by continuous fours) and VCT (by fours and threes). Both return the whole
//! winning line, honour node and time budgets and an abort flag, and work for every rule and either attacker.

mod check;
mod vcf;
mod vct;

pub use check::{LineEnd, check_line, naive_vcf};
pub use vcf::{Vcf, VcfOptions};
pub use vct::{Vct, VctOptions};

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
