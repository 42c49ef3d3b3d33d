//! The transposition table shared by all search threads: a power-of-two array of two-word slots, lock-free. Each
//! slot stores `key ^ data` and `data`; a reader accepts the data only when the two xor back to its key, so a slot
//! torn by a concurrent write reads as a miss instead of as wrong data.

use super::MATE_BOUND;
use crate::types::Pos;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (the search failed low).
    Upper = 1,
    /// The true score is at least this (the search failed high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

impl Bound {
    /// The bound a search of window (`alpha`, `beta`) gives its result `score`.
    #[must_use]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a search of window (`alpha`, `beta`): an exact score, a
    /// lower bound at or above beta, an upper bound at or below alpha.
    #[must_use]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// What a slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found, if any.
    pub best: Option<Pos>,
    /// The score, with mate scores relative to this node (see `search::to_tt` / `from_tt`).
    pub score: i32,
    /// The depth searched.
    pub depth: i32,
    /// How `score` bounds the true score.
    pub bound: Bound,
    /// Whether the position was, or once was, on a principal variation (stored with its PV node's result, kept by
    /// the searches of it after).
    pub pv: bool,
}

/// The shared table.
pub struct Table {
    /// Two words a slot: `key ^ data`, then `data`.
    words: Box<[AtomicU64]>,
    generation: AtomicU64,
}

const SLOT_BYTES: usize = 16;
const NO_MOVE: u64 = 0x3ff;
/// Where a data word keeps the generation of the search that stored it (six bits).
const GENERATION_SHIFT: u32 = 42;
const GENERATION_MASK: u64 = 0x3f;

/// The generation a data word was stored in.
fn generation_of(data: u64) -> u64 {
    (data >> GENERATION_SHIFT) & GENERATION_MASK
}

impl Table {
    /// The size in bytes of [`Table::new`]`(bytes)` (when the system can give it).
    #[must_use]
    pub fn new_size(bytes: usize) -> usize {
        let wanted = (bytes / SLOT_BYTES).max(1024);
        (1usize << (usize::BITS - 1 - wanted.leading_zeros())) * SLOT_BYTES
    }

    /// A table of at most `bytes` bytes (at least 1024 slots), rounded down to a power of two.
    #[must_use]
    pub fn new(bytes: usize) -> Table {
        // A table the system cannot give is halved until it can (never below the minimum).
        let mut len = Table::new_size(bytes) / SLOT_BYTES;
        let words = loop {
            match zeroed_words(2 * len) {
                Some(words) => break words,
                None if len > 1024 => len /= 2,
                None => break (0..2 * len).map(|_| AtomicU64::new(0)).collect(),
            }
        };
        Table { words, generation: AtomicU64::new(0) }
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.words.len() / 2 * SLOT_BYTES
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for word in &*self.words {
            word.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: entries of older searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Of the first thousand slots (or all, in a smaller table), how many per mille hold an entry of this search:
    /// how full the table is (the protocol's `hashfull`).
    #[must_use]
    pub fn full_permille(&self) -> usize {
        let generation = self.current_generation();
        let sample = (self.words.len() / 2).min(1000);
        let used = (0..sample)
            .filter(|&i| {
                let data = self.words[2 * i + 1].load(Ordering::Relaxed);
                data != 0 && generation_of(data) == generation
            })
            .count();
        used * 1000 / sample
    }

    /// The generation this search stores its entries in (as a data word keeps it).
    fn current_generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & GENERATION_MASK
    }

    /// The slot's two words: check, data.
    fn slot(&self, key: u64) -> (&AtomicU64, &AtomicU64) {
        let i = 2 * ((key as usize) & (self.words.len() / 2 - 1));
        (&self.words[i], &self.words[i + 1])
    }

    /// Asks the processor to start loading `key`'s slot, so that a probe made after some other work finds it in
    /// the cache (the table is far larger than the caches; a probe otherwise waits on memory). A hint only.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let (check, _) = self.slot(key);
            // SAFETY: SSE is part of every x86-64 processor, and a prefetch reads nothing and cannot fault (the
            // address is the slot's own, inside the table, in any case).
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(check.as_ptr().cast::<i8>());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let (check, data) = self.slot(key);
        let data = data.load(Ordering::Relaxed);
        let check = check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        unpack(data)
    }

    /// Stores an entry for `key`, replacing an entry of the same key or of an older search, or a shallower one.
    pub fn store(&self, key: u64, entry: Entry) {
        let (check, data_word) = self.slot(key);
        let generation = self.current_generation();
        let old = data_word.load(Ordering::Relaxed);
        let same = check.load(Ordering::Relaxed) ^ old == key;
        if old != 0 && !same {
            let old_generation = generation_of(old);
            let old_depth = ((old >> 26) & 0xff) as i32 - 128;
            if old_generation == generation && old_depth > entry.depth + 2 {
                return; // keep a much deeper entry of this search
            }
        }
        let mut best = entry.best.map_or(NO_MOVE, |p| p.index() as u64 & 0x3ff);
        if same && entry.best.is_none() {
            best = old & 0x3ff; // keep the old move
        }
        let score = u64::from((entry.score.clamp(-32_767, 32_767) + 32_768) as u16);
        let depth = (entry.depth.clamp(-127, 127) + 128) as u64;
        let data = best
            | (score << 10)
            | (depth << 26)
            | ((entry.bound as u64) << 34)
            | (generation << GENERATION_SHIFT)
            | (1 << 48)
            | (u64::from(entry.pv) << 49);
        data_word.store(data, Ordering::Relaxed);
        check.store(key ^ data, Ordering::Relaxed);
    }
}

/// `n` zeroed atomic words, allocated zeroed by the system so that a large table costs nothing until it is used
/// (building it word by word took tens of milliseconds for 128 MiB, time a first move in a tournament pays for);
/// `None` when the system refuses.
fn zeroed_words(n: usize) -> Option<Box<[AtomicU64]>> {
    let layout = std::alloc::Layout::array::<AtomicU64>(n).ok().filter(|l| l.size() > 0)?;
    // SAFETY: the layout is non-zero-sized and that of `n` `AtomicU64`s; `AtomicU64` has the same size and bit
    // validity as `u64`, so all-zero bytes are `n` valid atomics holding 0; the pointer comes from the global
    // allocator with exactly this layout, which is what `Box<[AtomicU64]>` frees it with.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        (!ptr.is_null()).then(|| Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)))
    }
}

fn unpack(data: u64) -> Option<Entry> {
    let best = data & 0x3ff;
    let bound = match (data >> 34) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        best: (best != NO_MOVE).then(|| Pos::from_index(best as usize)),
        score: ((data >> 10) & 0xffff) as i32 - 32_768,
        depth: ((data >> 26) & 0xff) as i32 - 128,
        bound,
        pv: (data >> 49) & 1 != 0,
    })
}

/// A score as stored in the table: mates counted from this node rather than from the root.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score back at a node `ply` plies from the root.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_as_stored() {
        let table = Table::new(1 << 16);
        let entry = Entry { best: Some(Pos::new(7, 7)), score: -29_990, depth: 12, bound: Bound::Lower, pv: true };
        table.store(0xdead_beef_1234_5678, entry);
        assert_eq!(table.probe(0xdead_beef_1234_5678), Some(entry));
        assert_eq!(table.probe(0xdead_beef_1234_5679), None);
        let none = Entry { best: None, score: 5, depth: -1, bound: Bound::Upper, pv: false };
        table.store(42, none);
        assert_eq!(table.probe(42), Some(none));
        table.clear();
        assert_eq!(table.probe(42), None);
    }

    #[test]
    fn fullness_counts_this_search_entries_only() {
        let table = Table::new(1 << 14); // 1,024 slots
        assert_eq!(table.full_permille(), 0);
        for i in 0..500u64 {
            table.store(i, Entry { best: None, score: 0, depth: 1, bound: Bound::Exact, pv: false });
        }
        assert_eq!(table.full_permille(), 500);
        table.new_search();
        assert_eq!(table.full_permille(), 0);
        table.store(1, Entry { best: None, score: 0, depth: 1, bound: Bound::Exact, pv: false });
        assert_eq!(table.full_permille(), 1);
    }

    #[test]
    fn a_new_entry_of_the_same_key_keeps_the_old_move_when_it_has_none() {
        let table = Table::new(1 << 16);
        table.store(7, Entry { best: Some(Pos::new(3, 4)), score: 1, depth: 3, bound: Bound::Exact, pv: false });
        table.store(7, Entry { best: None, score: 2, depth: 4, bound: Bound::Upper, pv: false });
        assert_eq!(table.probe(7).and_then(|e| e.best), Some(Pos::new(3, 4)));
    }
}
