//! `forbid` (Black's forbidden points of each position line) and `solve` (a VCF or VCT for the side to move of each).

use super::lines::{Input, Options, Tally, for_each_position};
use crate::problems::Problems;
use crate::threat::{Limits, Solution, Vcf, VcfOptions, Vct, VctOptions};
use crate::types::{format_line, format_point_list};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// `forbid`: Black's forbidden points of each position, or `-`; a bad line skipped (`stdin: line N: …` on `p`).
///
/// # Errors
/// Output I/O errors only.
pub fn forbid(opts: &Options, input: Input<'_>, out: &mut dyn Write, p: &mut Problems) -> io::Result<()> {
    for_each_position(opts, input, "stdin", out, p, |mut board, _| {
        let points = board.forbidden_points();
        Ok(format_point_list(&points, board.size()))
    })
    .map(|_| ())
}

/// `solve`: `win <line>`, `none` or `unknown` for the side to move of each position; with `--summary` a last line
/// `# proved W of T (N none, U unknown, E errors) within …`; a bad line skipped, as for [`forbid`].
///
/// # Errors
/// Output I/O errors only.
pub fn solve(opts: &Options, input: Input<'_>, out: &mut dyn Write, p: &mut Problems) -> io::Result<()> {
    let tally = Tally::default();
    let ms = opts.ms.or(if opts.vct { Some(10_000) } else { None });
    let errors = for_each_position(opts, input, "stdin", out, p, |mut board, pos| {
        let attacker = pos.side_to_move()?;
        let limits = Limits {
            nodes: opts.nodes,
            deadline: ms.map(|ms| Instant::now() + Duration::from_millis(ms)),
            abort: None,
        };
        let solution = if opts.vct {
            Vct::new(attacker, VctOptions { limits, ..VctOptions::default() }).solve(&mut board)
        } else {
            Vcf::new(attacker, VcfOptions { shortest: opts.shortest, limits, ..VcfOptions::default() })
                .solve(&mut board)
        };
        Ok(match solution {
            Solution::Win(line) => {
                tally.count(&tally.proved);
                format!("win {}", format_line(&line, board.size()))
            }
            Solution::None => {
                tally.count(&tally.none);
                "none".to_string()
            }
            Solution::Unknown => {
                tally.count(&tally.unknown);
                "unknown".to_string()
            }
        })
    })?;
    if opts.summary {
        let budget = match (ms, opts.nodes) {
            (Some(ms), 0) => format!("{ms} ms"),
            (None, 0) => "no limit".to_string(),
            (Some(ms), n) => format!("{ms} ms and {n} nodes"),
            (None, n) => format!("{n} nodes"),
        };
        let kind = if opts.vct { "VCT" } else { "VCF" };
        writeln!(out, "# {} by {kind} within {budget} a position", tally.text("none", errors))?;
        out.flush()?;
    }
    Ok(())
}
