//! The engine's transposition table, taken from the system when a search first needs it: an engine that never
//! searches (a browser tab's game that only records moves, a protocol session that only answers rules questions)
//! holds none, and one that is dropped or resized gives its table back.

use crate::search::tt::Table;
use std::sync::OnceLock;

/// A table of a chosen size, allocated on first use.
pub struct LazyTable {
    /// The size asked for (see [`Table::new`]).
    bytes: usize,
    table: OnceLock<Table>,
}

impl LazyTable {
    /// A table of at most `bytes` bytes, not yet allocated.
    pub fn new(bytes: usize) -> LazyTable {
        LazyTable { bytes, table: OnceLock::new() }
    }

    /// The table, allocated now if it was not.
    pub fn get(&self) -> &Table {
        self.table.get_or_init(|| Table::new(self.bytes))
    }

    /// Its size in bytes: the allocated table's, else what it will have ([`Table::new_size`]).
    pub fn bytes(&self) -> usize {
        self.table.get().map_or_else(|| Table::new_size(self.bytes), Table::bytes)
    }

    /// The bytes taken from the system so far (0 before the first search).
    pub fn allocated_bytes(&self) -> usize {
        self.table.get().map_or(0, Table::bytes)
    }

    /// Forgets everything: the table is given back, and a fresh one of the same size comes with the next search.
    pub fn clear(&mut self) {
        self.table = OnceLock::new();
    }

    /// Changes the size to at most `bytes` (giving the table back when its size changes).
    pub fn resize(&mut self, bytes: usize) {
        if Table::new_size(bytes) != self.bytes() {
            self.clear();
        }
        self.bytes = bytes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::{Bound, Entry};

    #[test]
    fn the_table_is_taken_at_first_use_and_given_back_when_cleared_or_resized() {
        let mut table = LazyTable::new(1 << 20);
        assert_eq!((table.allocated_bytes(), table.bytes()), (0, Table::new_size(1 << 20)));
        let entry = Entry { best: None, score: 3, depth: 1, bound: Bound::Exact, pv: false };
        table.get().store(42, entry);
        assert_eq!(table.allocated_bytes(), table.bytes());
        // The same size keeps the table and what it holds; another size gives it back.
        table.resize(1 << 20);
        assert!(table.get().probe(42).is_some());
        table.resize(1 << 21);
        assert_eq!((table.allocated_bytes(), table.bytes()), (0, Table::new_size(1 << 21)));
        table.get();
        table.clear();
        assert_eq!(table.allocated_bytes(), 0);
        assert!(table.get().probe(42).is_none());
    }
}
