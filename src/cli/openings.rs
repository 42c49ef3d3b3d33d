//! `openings`: random balanced openings ([`crate::openings::random_openings`], scored by the engine's search), one
//! line each with its score as a comment, less those games of given files started from.

use super::Done;
use super::options::{number, parse_size};
use crate::engine::opening_scorer;
use crate::openings::{GenOptions, format_opening, unseen_random_openings};
use crate::problems::Problems;
use std::io::Write;
use std::path::PathBuf;

/// `openings [--rule R] [--size N] [--count N] [--stones K] [--depth D] [--max-score S] [--seed S]
/// [--unseen-in GAMES.tgr ...]`: prints random balanced openings, one per line with its score as a comment.
pub(super) fn openings_command(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
    let mut opts = GenOptions::default();
    let mut unseen_in = Vec::new();
    let mut cursor = super::OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&name, &inline);
        match name.as_str() {
            "--rule" => opts.rule = value()?.parse()?,
            "--size" => opts.size = parse_size(&value()?)?,
            "--count" => opts.count = number(&value()?, "count")?,
            "--stones" => opts.stones = number(&value()?, "stone count")?,
            "--depth" => opts.depth = number::<i32>(&value()?, "depth")?.clamp(1, crate::search::MAX_DEPTH),
            "--max-score" => opts.max_score = number(&value()?, "score")?,
            "--seed" => opts.seed = number(&value()?, "seed")?,
            "--unseen-in" => {
                unseen_in.push(PathBuf::from(value()?));
                unseen_in.extend(cursor.more_values().into_iter().map(PathBuf::from));
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if opts.stones == 0 || opts.stones > 12 {
        return Err("--stones takes 1 to 12".to_string());
    }
    let (found, refused) = unseen_random_openings(&opts, &unseen_in, &mut opening_scorer(&opts), p)?;
    Ok((|| {
        for (moves, score) in found {
            writeln!(out, "{} # score {score:+} at depth {}", format_opening(&moves, opts.size), opts.depth)?;
        }
        if !unseen_in.is_empty() {
            writeln!(
                out,
                "# {refused} openings drawn and left out before their search: games of the files given started from them"
            )?;
        }
        out.flush()
    })())
}
