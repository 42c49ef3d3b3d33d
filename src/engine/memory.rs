//! `INFO max_memory` as a hard limit: the process's resident memory is split between what every session needs (the
//! program, its tables and buffers, the root's threat solvers, each search thread's stack and state), each thread's
//! leaf VCF tables, and the transposition table, so that the peak stays within the limit. A limit below what the
//! engine needs with its threads is refused (the session says so in a MESSAGE and plays with the least it needs).

use crate::search::leaf_vcf_bytes;
use crate::search::params::{SOLVER_BYTES_PER_NODE, SOLVER_NODES, VCF_MEMORY};
use crate::threat::vcf_table_entries;

/// What the process takes before any search: code, embedded tables, the pattern tables, the protocol's buffers and
/// threads (a protocol session's peak resident memory after START is 5.6 MB; see docs/protocol.md, Memory).
pub const BASE_BYTES: u64 = 8 << 20;
/// What the root's threat solvers have at least, one at a time: the root's VCF (200,000 nodes) with a margin, and
/// the root's VCT, the late VCT or the guard within [`MemoryPlan::solver_nodes`] (the table's rounding down to a
/// power of two leaves them more).
pub const ROOT_SOLVER_BYTES: u64 = 8 << 20;
/// A search thread's stack and state (the stack of positions, histories, move lists; the network's accumulator).
pub const THREAD_BYTES: u64 = 1 << 20;
/// The network evaluation's tables when the search uses them.
pub const NETWORK_BYTES: u64 = 3 << 20;
/// The smallest transposition table a limit may leave.
pub const MIN_TABLE_BYTES: u64 = 1 << 20;
/// The fewest refuted positions a leaf VCF solver may keep.
pub const MIN_VCF_MEMORY: usize = 1 << 12;
/// The fewest nodes a root threat solver may use: [`ROOT_SOLVER_BYTES`]' worth.
pub const MIN_SOLVER_NODES: u64 = ROOT_SOLVER_BYTES / SOLVER_BYTES_PER_NODE;

/// How a memory limit is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// The transposition table's size (a power of two).
    pub table_bytes: usize,
    /// Refuted positions each leaf VCF solver keeps ([`crate::search::SearchOptions::vcf_memory`]).
    pub vcf_memory: usize,
    /// Nodes a root threat solver may use ([`crate::search::SearchOptions::solver_nodes`]): [`ROOT_SOLVER_BYTES`]
    /// and what the table leaves of the limit, at [`SOLVER_BYTES_PER_NODE`], never more than without a limit.
    pub solver_nodes: u64,
}

/// The fixed part of a session's memory with `threads` search threads.
fn fixed_bytes(threads: usize, network: bool) -> u64 {
    BASE_BYTES + ROOT_SOLVER_BYTES + threads as u64 * THREAD_BYTES + if network { NETWORK_BYTES } else { 0 }
}

/// The least limit the engine accepts with `threads` search threads (and the network evaluation when `network`).
#[must_use]
pub fn minimum_bytes(threads: usize, network: bool) -> u64 {
    fixed_bytes(threads, network) + MIN_TABLE_BYTES + threads as u64 * leaf_vcf_bytes(MIN_VCF_MEMORY) as u64
}

/// The plan for a process limit of `limit` bytes with `threads` search threads: the leaf VCF tables get up to half
/// of what the fixed part leaves (their full size where it fits, never the table's least), the table the largest
/// power of two within two thirds of the rest, the root's solvers the remainder.
///
/// # Errors
/// The least limit the engine accepts, when `limit` is below it.
pub fn plan(limit: u64, threads: usize, network: bool) -> Result<MemoryPlan, u64> {
    let threads = threads.max(1);
    let minimum = minimum_bytes(threads, network);
    if limit < minimum {
        return Err(minimum);
    }
    let flexible = limit - fixed_bytes(threads, network);
    // Each thread's two tables, within half of the flexible part and leaving the table its least.
    let budget = (flexible / 2).min(flexible - MIN_TABLE_BYTES);
    let per_table = (budget / threads as u64 / 2).min(usize::MAX as u64) as usize;
    let slack = crate::search::params::LEAF_VCF_SLACK;
    let vcf_memory = vcf_table_entries(per_table).saturating_sub(slack).clamp(MIN_VCF_MEMORY, VCF_MEMORY);
    let rest = flexible - threads as u64 * leaf_vcf_bytes(vcf_memory) as u64;
    // The table gets at most two thirds of the rest, the root's solvers the remainder: under Gomocup's 350 MB a
    // 128 MiB table and some five million solver nodes (a 256 MiB table left them 1.7 million, which a late VCT at
    // 5 s a move can use up; docs/history.md, "The late VCT bounded by time").
    let table = (rest / 3 * 2).min(super::MAX_HASH_BYTES as u64).max(MIN_TABLE_BYTES);
    let table_bytes = crate::search::tt::Table::new_size(table as usize);
    let solver_bytes = ROOT_SOLVER_BYTES + rest.saturating_sub(table_bytes as u64);
    let solver_nodes = (solver_bytes / SOLVER_BYTES_PER_NODE).min(SOLVER_NODES);
    Ok(MemoryPlan { table_bytes, vcf_memory, solver_nodes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_accepted_limit_is_spent_within_itself() {
        for threads in [1, 2, 4, 16] {
            for network in [false, true] {
                let minimum = minimum_bytes(threads, network);
                assert_eq!(plan(minimum - 1, threads, network), Err(minimum));
                for limit in (0..200).map(|i| minimum + i * (i + 1) * 97_331).chain([350 << 20, 4 << 30]) {
                    let p = plan(limit, threads, network).expect("accepted");
                    let spent = fixed_bytes(threads, network) - ROOT_SOLVER_BYTES
                        + p.solver_nodes * SOLVER_BYTES_PER_NODE
                        + p.table_bytes as u64
                        + threads as u64 * leaf_vcf_bytes(p.vcf_memory) as u64;
                    assert!(spent <= limit, "{limit} with {threads} threads: {p:?} spends {spent}");
                    assert!(p.solver_nodes >= MIN_SOLVER_NODES, "{p:?}");
                    assert!(p.table_bytes.is_power_of_two() && p.table_bytes as u64 >= MIN_TABLE_BYTES);
                    assert!((MIN_VCF_MEMORY..=VCF_MEMORY).contains(&p.vcf_memory));
                }
            }
        }
        // A Gomocup limit leaves the leaf solvers their full size and the table at most two thirds of the rest…
        let p = plan(350 << 20, 1, false).expect("accepted");
        assert_eq!((p.vcf_memory, p.table_bytes), (VCF_MEMORY, 128 << 20));
        // …and the root's solvers what the table leaves: over four million nodes, five seconds and more of a VCT.
        assert!(p.solver_nodes > 4_000_000, "{p:?}");
        // The 64 MiB a match runner may give still has a 16 MiB table.
        assert_eq!(plan(64 << 20, 1, false).expect("accepted").table_bytes, 16 << 20);
        // A huge limit gives them no more than no limit does.
        assert_eq!(plan(64 << 30, 1, false).expect("accepted").solver_nodes, SOLVER_NODES);
    }
}
