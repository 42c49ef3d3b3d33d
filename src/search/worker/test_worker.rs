//! A worker for the unit tests of the search's parts: one thread, a small table, the classical evaluation.

use super::Worker;
use crate::eval::EvalChoice;
use crate::pattern::PatternBoard;
use crate::search::busy::Busy;
use crate::search::guard::Guard;
use crate::search::params::Params;
use crate::search::tt::Table;
use crate::search::{SearchOptions, Shared};
use crate::types::Color;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

/// `f` run on a worker set on `pb` with `side` to move and the search's values `params`.
pub fn with_worker<R>(pb: &PatternBoard, side: Color, params: Params, f: impl FnOnce(&mut Worker) -> R) -> R {
    let (table, stop, total) = (Table::new(1 << 20), AtomicBool::new(false), AtomicU64::new(0));
    let shared = Shared {
        table: &table,
        stop: &stop,
        external: None,
        total: &total,
        node_limit: 0,
        hard: None,
        late_vct_nodes: 1,
        start: Instant::now(),
        cut: AtomicU64::new(u64::MAX),
        results: std::sync::Mutex::new(vec![None]),
        root_moves: &[],
        busy: Busy::new(false),
        guard: Guard::default(),
        census: None,
    };
    let options = SearchOptions { eval: EvalChoice::Classical, params, ..SearchOptions::default() };
    let mut worker = Worker::new(pb.clone(), side, &shared, options, 0);
    f(&mut worker)
}
