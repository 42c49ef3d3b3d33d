//! **c-gomoku-cli's samples** (`-sample format=bin`): one entry per position, `4 + 2·ply` bytes: a `u16` with the
//! result for the side to move in bits 0–1 (0 loss, 1 draw, 2 win), the ply in bits 2–10 and the board size in
//! bits 11–15; a `u16` with the rule in bits 0–2 (0, 1 or 4) and the move played in bits 3–15; then `ply` moves,
//! Black first, each packed as a game file's moves are.

use super::{Bad, Sample, read_moves, rule_of_number, unpack};

/// The entries of a c-gomoku-cli sample file.
pub(super) fn read_samples(bytes: &[u8], error: &mut dyn FnMut(String)) -> Vec<Sample> {
    let mut samples = Vec::new();
    let mut at = 0;
    let mut number = 0;
    while at < bytes.len() {
        number += 1;
        if bytes.len() - at < 4 {
            error(format!("record {number}: truncated ({} of its 4 header bytes)", bytes.len() - at));
            break;
        }
        let h0 = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let h1 = u16::from_le_bytes([bytes[at + 2], bytes[at + 3]]);
        let (result, ply, size) = (h0 & 3, usize::from((h0 >> 2) & 0x1ff), usize::from(h0 >> 11));
        let (rule_code, played) = ((h1 & 7) as u8, h1 >> 3);
        let len = 4 + 2 * ply;
        if bytes.len() - at < len {
            error(format!("record {number}: truncated ({} of its {len} bytes)", bytes.len() - at));
            break;
        }
        let words = (0..ply).map(|i| u16::from_le_bytes([bytes[at + 4 + 2 * i], bytes[at + 5 + 2 * i]]));
        let checked = (|| {
            let rule = match rule_code {
                0 | 1 | 4 => rule_of_number(rule_code).ok_or_else(|| Bad::Corrupt(String::new()))?,
                r => return Err(Bad::Corrupt(format!("unknown rule {r}"))),
            };
            if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
                return Err(Bad::Corrupt(format!("board size {size}")));
            }
            if result > 2 {
                return Err(Bad::Corrupt(format!("result {result}")));
            }
            let moves = read_moves(words, size)?;
            let played = unpack(played, size)
                .filter(|p| !moves.contains(p))
                .ok_or_else(|| Bad::Corrupt(format!("the move played (0x{played:04x}) is off the board or taken")))?;
            Ok(Sample { rule, size, moves, played, result: f32::from(result) / 2.0 })
        })();
        match checked {
            Ok(sample) => samples.push(sample),
            Err(Bad::Corrupt(why)) => error(format!("record {number}: {why}; skipped")),
            Err(Bad::Truncated(..)) => {}
        }
        at += len;
    }
    samples
}

#[cfg(test)]
mod tests {
    use crate::records::read_training;
    use crate::types::{Pos, Rule};

    /// A c-gomoku-cli entry built field by field as its README lays it out.
    fn entry(result: u16, size: u16, rule: u16, played: (u16, u16), moves: &[(u16, u16)]) -> Vec<u8> {
        let h0 = result | ((moves.len() as u16) << 2) | (size << 11);
        let h1 = rule | (((played.0 << 5) | played.1) << 3);
        let mut bytes = [h0.to_le_bytes(), h1.to_le_bytes()].concat();
        for &(x, y) in moves {
            bytes.extend_from_slice(&((x << 5) | y).to_le_bytes());
        }
        bytes
    }

    #[test]
    fn c_gomoku_cli_samples_are_read_and_bad_entries_skipped() {
        let mut bytes = entry(2, 15, 4, (8, 8), &[(7, 7), (7, 8)]);
        bytes.extend(entry(1, 15, 3, (8, 8), &[(7, 7)])); // rule 3 does not exist
        bytes.extend(entry(0, 20, 0, (1, 2), &[(10, 10), (11, 11), (12, 12)]));
        bytes.extend(entry(0, 15, 0, (7, 7), &[(7, 7)])); // the move played is taken
        bytes.extend(&entry(0, 15, 1, (7, 7), &[(1, 1), (2, 2)])[..6]);
        let mut errors = Vec::new();
        let data = read_training(&bytes, &mut |e| errors.push(e));
        assert_eq!(data.samples.len(), 2);
        let s = &data.samples[0];
        assert_eq!((s.rule, s.size, s.result), (Rule::Renju, 15, 1.0));
        assert_eq!(s.moves, vec![Pos::new(7, 7), Pos::new(7, 8)]);
        assert_eq!(s.played, Pos::new(8, 8));
        let s = &data.samples[1];
        assert_eq!((s.rule, s.size, s.result, s.played), (Rule::Freestyle, 20, 0.0, Pos::new(1, 2)));
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with("record 2:") && errors[0].contains("rule 3"));
        assert!(errors[1].starts_with("record 4:") && errors[1].contains("taken"));
        assert!(errors[2].starts_with("record 5: truncated"));
    }
}
