//! `bench`'s positions: fixed positions searched to fixed depths on one thread, whose node count is the behaviour
//! signature (no clock is read by the search) and whose time is the speed.

use super::Engine;
use crate::pattern::position_from_moves;
use crate::search::{Report, SearchLimits};
use crate::types::Rule;

/// The bench positions: rule, opening moves (Black first), depth.
pub(crate) const BENCH: &[(Rule, &str, i32)] = &[
    (Rule::Renju, "h8 h9 h10", 7),
    (Rule::Renju, "h8 h9 j10", 7),
    (Rule::Renju, "h8 i9 j10", 7),
    (Rule::Renju, "h8 h7 i9 g9 g8 j10 i8", 7),
    (Rule::Renju, "h8 i7 g7 i9 i8 g9 j8 k8 f6 e5", 6),
    (Rule::Freestyle, "h8 i9 h9", 7),
    (Rule::Freestyle, "h8 h9 i8 g8 i10 i9 j9 k10", 7),
    (Rule::Standard, "h8 i8 i9", 7),
    (Rule::Standard, "h8 g9 i9 g7 g8 f8 j10 h10", 6),
];

/// One bench position searched: its rule, its moves and the search's report, or why it could not be set up.
pub type BenchLine = (Rule, &'static str, Result<Report, String>);

/// Searches the bench positions in order, each on a fresh engine with one thread and a 16 MiB table, to `depth`
/// (each position's own when `None`).
#[must_use]
pub fn bench(depth: Option<i32>) -> Vec<BenchLine> {
    BENCH
        .iter()
        .map(|&(rule, moves, default_depth)| {
            let engine = position_from_moves(moves, 15, rule).and_then(|pb| {
                let mut engine = Engine::new(15, rule).map_err(|e| e.to_string())?;
                engine.set_hash_bytes(16 << 20);
                engine.configure(|s| s.search.threads = 1);
                engine.set_up(pb.board().moves()).map_err(|e| e.to_string())?;
                Ok(engine)
            });
            let report = engine.map(|mut engine| {
                let limits = SearchLimits { depth: depth.unwrap_or(default_depth), ..SearchLimits::default() };
                engine.think_with(&limits, |_| {})
            });
            (rule, moves, report)
        })
        .collect()
}
