//! Zobrist keys from a fixed seed, generated at compile time, so hashes are the same on every run and machine.

use crate::types::{CELLS, Color};

const SEED: u64 = 0x7465_6e67_656e_2d5a; // "tengen-Z"

const fn splitmix(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (next, z ^ (z >> 31))
}

const fn generate() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state = SEED;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (next, value) = splitmix(state);
            state = next;
            keys[c][i] = value;
            i += 1;
        }
        c += 1;
    }
    keys
}

static KEYS: [[u64; CELLS]; 2] = generate();

/// The key of a stone of colour `c` on flat index `index`.
#[inline]
pub(crate) fn key(c: Color, index: usize) -> u64 {
    KEYS[c.index()][index]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_fixed() {
        let mut all: Vec<u64> = KEYS.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * CELLS);
        // The seed is part of the contract: a change would change every hash-dependent signature.
        assert_eq!(key(Color::Black, 0), splitmix(SEED).1);
    }
}
