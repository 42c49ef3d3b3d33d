//! `positions`: the positions of game files as position lines (DESIGN.md), for `solve` and `analyze --file`.
//!
//! Every position before a move after the opening, each with its side to move named in the third field, so that
//! `pbrain-tengen positions games.tgr | pbrain-tengen solve --vct` judges every position a game passed through.
//! Positions repeated between games (the openings' first moves, transpositions) are written once.

use super::Done;
use crate::problems::Problems;
use crate::records::PositionLines;
use crate::types::Rule;
use std::io::Write;
use std::path::PathBuf;

/// What `positions` was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Positions {
    /// Only games of this rule (all games when `None`; their rule must then be one).
    rule: Option<Rule>,
    /// Every this-many-th position after the opening.
    every: usize,
    /// Positions with at least this many stones.
    min_stones: usize,
    /// The game files.
    inputs: Vec<PathBuf>,
}

/// Parses `positions [--rule R] [--every K] [--min-stones N] FILE.tgr…`.
pub(super) fn parse_positions(args: &[String]) -> Result<Positions, String> {
    let mut p = Positions { rule: None, every: 1, min_stones: 0, inputs: Vec::new() };
    let mut cursor = super::OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        match name.as_str() {
            "--rule" => p.rule = Some(cursor.value(&name, &inline)?.parse()?),
            "--every" => p.every = cursor.number(&name, &inline, "step", 1..=1000)? as usize,
            "--min-stones" => p.min_stones = cursor.number(&name, &inline, "stone count", 0..=484)? as usize,
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            file => p.inputs.push(PathBuf::from(file)),
        }
    }
    if p.inputs.is_empty() {
        return Err("positions needs game files (.tgr) to read".to_string());
    }
    Ok(p)
}

/// Runs `positions`: the lines on `out`, damaged records skipped on `problems`.
pub(super) fn run_positions(p: &Positions, out: &mut dyn Write, problems: &mut Problems) -> Done {
    let lines = PositionLines::new(p.every, p.min_stones).of_files(&p.inputs, p.rule, problems)?;
    Ok(lines.iter().try_for_each(|line| writeln!(out, "{line}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_and_mistakes_named() {
        let args = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let p = parse_positions(&args("--rule renju --every 2 --min-stones 9 a.tgr b.tgr")).expect("valid");
        assert_eq!((p.rule, p.every, p.min_stones), (Some(Rule::Renju), 2, 9));
        assert_eq!(p.inputs, vec![PathBuf::from("a.tgr"), PathBuf::from("b.tgr")]);
        assert!(parse_positions(&args("--every 2")).unwrap_err().contains("game files"));
        assert!(parse_positions(&args("--every 0 a.tgr")).is_err());
        assert!(parse_positions(&args("--bogus a.tgr")).unwrap_err().contains("--bogus"));
    }
}
