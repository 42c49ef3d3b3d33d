//! `play`: its options read, and a game against the engine in the terminal ([`crate::terminal::play`]) played on the
//! command's input and output.

use super::OptionCursor;
use crate::terminal::PlayOptions;
use crate::types::{Color, MAX_SIZE, MIN_SIZE, Rule};

/// Parses `[--rule R] [--size N] [--black|--white] [--ms N] [--opening-rule R]`.
///
/// # Errors
/// A message naming the bad or unknown option.
pub fn parse_play(args: &[String]) -> Result<PlayOptions, String> {
    let mut opts = PlayOptions { rule: Rule::Renju, size: 15, human: Color::Black, ms: 1_000, opening_rule: None };
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        match name.as_str() {
            "--rule" => opts.rule = cursor.value(&name, &inline)?.parse()?,
            "--size" => opts.size = cursor.number(&name, &inline, "board size", MIN_SIZE..=MAX_SIZE)?,
            "--black" if inline.is_none() => opts.human = Color::Black,
            "--white" if inline.is_none() => opts.human = Color::White,
            "--ms" => opts.ms = cursor.number(&name, &inline, "time (milliseconds a move)", 1..=3_600_000)?,
            "--opening-rule" => opts.opening_rule = Some(cursor.value(&name, &inline)?.parse()?),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(opts)
}
