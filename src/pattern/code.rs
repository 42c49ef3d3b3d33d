//! Pattern codes: a point's four line patterns for one colour, taken as a multiset (the direction each came from
//! does not matter). Twelve patterns taken four at a time with repetition make [`CODES`] = 1,365 codes; code 0 is
//! four `Dead` lines, which is also what every stone reads as. The learned evaluation gives each code a value and
//! sums the values of every empty point for each colour; [`CodeValues`] holds those values spread over all 65,536
//! packed pattern words, so that the board keeps the sums up to date with one lookup per changed point.

use super::Pattern;
use crate::types::Color;
use std::sync::OnceLock;

/// How many pattern codes there are: C(12 + 4 − 1, 4).
pub const CODES: usize = 1365;

/// The packed pattern words (four nibbles, direction `d` at bits `4d`).
const PACKED: usize = 1 << 16;

struct CodeTables {
    /// Packed pattern word → code.
    of_packed: Box<[u16; PACKED]>,
    /// Code → its four patterns, weakest first.
    patterns: Box<[[Pattern; 4]; CODES]>,
}

static CODE_TABLES: OnceLock<CodeTables> = OnceLock::new();

fn code_tables() -> &'static CodeTables {
    CODE_TABLES.get_or_init(|| {
        // Codes in order of their sorted pattern quadruples (a ≤ b ≤ c ≤ d).
        let n = Pattern::ALL.len();
        let mut sorted_index = vec![0u16; n * n * n * n];
        let mut patterns = Box::new([[Pattern::Dead; 4]; CODES]);
        let mut next = 0;
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        sorted_index[((a * n + b) * n + c) * n + d] = next as u16;
                        patterns[next] = [a, b, c, d].map(|k| Pattern::ALL[k]);
                        next += 1;
                    }
                }
            }
        }
        debug_assert_eq!(next, CODES);
        let mut of_packed = Box::new([0u16; PACKED]);
        for (packed, slot) in of_packed.iter_mut().enumerate() {
            let mut pats = [0, 1, 2, 3].map(|d| Pattern::from_bits(((packed >> (4 * d)) & 0xf) as u8) as usize);
            pats.sort_unstable();
            *slot = sorted_index[((pats[0] * n + pats[1]) * n + pats[2]) * n + pats[3]];
        }
        CodeTables { of_packed, patterns }
    })
}

/// The code of four packed patterns (a nibble no pattern has reads as `Dead`).
#[inline]
#[must_use]
pub fn code_of(packed: u16) -> usize {
    usize::from(code_tables().of_packed[usize::from(packed)])
}

/// The code of four patterns, in any order.
#[must_use]
pub fn code_of_patterns(pats: [Pattern; 4]) -> usize {
    let packed = pats.iter().enumerate().fold(0u16, |w, (d, &p)| w | ((p as u16) << (4 * d)));
    code_of(packed)
}

/// The four patterns of a code, weakest first.
#[must_use]
pub fn code_patterns(code: usize) -> [Pattern; 4] {
    code_tables().patterns[code % CODES]
}

/// Per colour, the two values of every packed pattern word (the values of its code): as the side to move's point
/// and as the opponent's. The board keeps both sums of each colour.
pub struct CodeValues {
    /// Per colour and packed word: the side-to-move value in the low 16 bits, the opponent value in the high 16.
    values: [Box<[u32; PACKED]>; 2],
}

impl CodeValues {
    /// Values from tables of code values per colour, `[as the side to move, as the opponent]`. Code 0 (four dead
    /// lines, and every stone) is always worth nothing, whatever the tables say, so that the sums run over empty
    /// points only.
    #[must_use]
    pub fn new(black: [&[i16; CODES]; 2], white: [&[i16; CODES]; 2]) -> CodeValues {
        let tables = code_tables();
        let spread = |[own, opp]: [&[i16; CODES]; 2]| {
            let mut values = Box::new([0u32; PACKED]);
            for (slot, &code) in values.iter_mut().zip(tables.of_packed.iter()) {
                let k = usize::from(code);
                if k != 0 {
                    *slot = u32::from(own[k] as u16) | (u32::from(opp[k] as u16) << 16);
                }
            }
            values
        };
        CodeValues { values: [spread(black), spread(white)] }
    }

    /// Colour `c`'s packed pattern word's values: as the side to move's point, and as the opponent's.
    #[inline(always)]
    #[must_use]
    pub fn value(&self, c: Color, packed: u16) -> [i32; 2] {
        let v = self.values[c.index()][usize::from(packed)];
        [i32::from(v as u16 as i16), i32::from((v >> 16) as u16 as i16)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_multisets_of_four_patterns() {
        let mut seen = [false; CODES];
        for (code, seen) in seen.iter_mut().enumerate() {
            let pats = code_patterns(code);
            assert!(pats.windows(2).all(|w| w[0] <= w[1]), "code {code}: {pats:?} not sorted");
            assert_eq!(code_of_patterns(pats), code);
            // Every order of the same patterns gives the same code.
            let [a, b, c, d] = pats;
            assert_eq!(code_of_patterns([d, b, a, c]), code);
            *seen = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(code_of(0), 0);
        assert_eq!(code_patterns(0), [Pattern::Dead; 4]);
        // Nibbles no pattern has read as Dead.
        assert_eq!(code_of(0xffff), 0);
    }

    #[test]
    fn values_follow_the_code_and_code_zero_is_worth_nothing() {
        let mut up = [0i16; CODES];
        let mut down = [0i16; CODES];
        for k in 0..CODES {
            up[k] = k as i16;
            down[k] = -(k as i16);
        }
        let v = CodeValues::new([&up, &down], [&down, &up]);
        let flex3 = code_of_patterns([Pattern::Flex3, Pattern::Flex2, Pattern::Dead, Pattern::Dead]) as i32;
        let packed = (Pattern::Flex2 as u16) | ((Pattern::Flex3 as u16) << 8);
        assert_eq!(v.value(Color::Black, packed), [flex3, -flex3]);
        assert_eq!(v.value(Color::White, packed), [-flex3, flex3]);
        assert_eq!(v.value(Color::Black, 0), [0, 0]);
    }
}
