//! The nodes the threads are searching, for Lazy SMP's deferral (a simplified ABDADA): a thread entering a deep
//! node marks its key in a small shared array and clears it on leaving; another thread about to search a late move
//! whose position is marked searches its other moves first, so that two threads rarely do the same work at once.
//! A collision or a torn mark only changes the order in which moves are searched.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the array (a power of two).
const SLOTS: usize = 1 << 13;

/// The shared marks (empty, and never consulted, with one thread).
pub struct Busy {
    marks: Box<[AtomicU64]>,
}

impl Busy {
    /// The marks for a search with more than one thread (`shared`), else none.
    pub fn new(shared: bool) -> Busy {
        let len = if shared { SLOTS } else { 0 };
        Busy { marks: (0..len).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Whether other threads share the marks (with one thread nothing is marked or deferred).
    pub fn is_shared(&self) -> bool {
        !self.marks.is_empty()
    }

    fn slot(&self, key: u64) -> Option<&AtomicU64> {
        (!self.marks.is_empty()).then(|| &self.marks[(key as usize) & (SLOTS - 1)])
    }

    /// Whether another thread is searching the node `key`.
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).is_some_and(|s| s.load(Ordering::Relaxed) == key)
    }

    /// Marks the node `key` as searched by this thread, when its slot is free; true if it was marked (the caller
    /// then calls [`Busy::leave`]).
    pub fn enter(&self, key: u64) -> bool {
        self.slot(key).is_some_and(|s| s.compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed).is_ok())
    }

    /// Clears the mark [`Busy::enter`] made.
    pub fn leave(&self, key: u64) {
        if let Some(s) = self.slot(key) {
            let _ = s.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_node_is_busy_until_left_and_one_thread_marks_nothing() {
        let busy = Busy::new(true);
        assert!(!busy.is_busy(12345));
        assert!(busy.enter(12345));
        assert!(busy.is_busy(12345));
        // The slot is taken: another key of the same slot is not marked.
        assert!(!busy.enter(12345 + SLOTS as u64));
        busy.leave(12345);
        assert!(!busy.is_busy(12345));
        let alone = Busy::new(false);
        assert!(!alone.enter(1));
        assert!(!alone.is_busy(1));
    }
}
