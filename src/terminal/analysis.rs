//! `analyze`: one position as a person reads it: the board with Black's forbidden points, the threats of both sides
//! and the answers to the opponent's VCF, both evaluations as win rates, and the search's move.

use super::board_text;
use crate::movegen::five_points;
use crate::pattern::{Pattern4, PatternBoard};
use crate::search::tt::Table;
use crate::search::{MATE_BOUND, Report, SearchLimits, SearchOptions, mate_distance, search};
use crate::threat::{Limits, Solution, Vcf, VcfOptions};
use crate::types::{Color, Pos, format_line, format_point_list};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The side to move after the moves of `pb`.
fn to_move(pb: &PatternBoard) -> Color {
    pb.board().moves().last().map_or(Color::Black, |&(_, c)| c.opponent())
}

/// `analyze`: the board with Black's forbidden points, the threats of both sides, both evaluations and the search's
/// move, win rate (or win or loss in N), depth and principal variation; with `raw` also the raw score and the
/// evaluation's parts.
///
/// # Errors
/// Output I/O errors only.
pub fn analyze(
    pb: &mut PatternBoard,
    ms: u64,
    depth: i32,
    options: &SearchOptions,
    raw: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let weights = options.weights;
    let size = pb.size();
    let side = to_move(pb);
    let forbidden = if pb.rule().has_forbidden() { pb.forbidden_points() } else { Vec::new() };
    writeln!(out, "{}", board_text(pb, &forbidden))?;
    writeln!(out, "rule {}, {} stones, {side} to move", pb.rule().name(), pb.board().stone_count())?;
    if pb.rule().has_forbidden() {
        writeln!(out, "forbidden for Black (#): {}", format_point_list(&forbidden, size))?;
    }
    // The opponent's VCF, were it to move: the mover's answers to it follow.
    let mut threat = None;
    for c in [side, side.opponent()] {
        let fives = five_points(pb, c);
        let fours: Vec<Pos> = pb.four_candidates(c).filter(|&p| pb.pattern4(c, p) < Pattern4::Five).collect();
        let mut threes = Vec::new();
        pb.for_each_empty(|p, classes| {
            if classes[c.index()] == Pattern4::Flex4 {
                threes.push(p);
            }
        });
        let limits = Limits { nodes: 200_000, ..Limits::default() };
        let vcf = match Vcf::new(c, VcfOptions { limits, ..VcfOptions::default() }).solve(pb) {
            Solution::Win(line) => {
                let text = format!("VCF {}", format_line(&line, size));
                if c != side {
                    threat = Some(line);
                }
                text
            }
            Solution::None => "no VCF".to_string(),
            Solution::Unknown => "VCF unknown".to_string(),
        };
        writeln!(
            out,
            "{c}: five at {}; fours at {}; straight fours at {}; {vcf}{}",
            format_point_list(&fives, size),
            format_point_list(&fours, size),
            format_point_list(&threes, size),
            if c == side { "" } else { " (if it were to move)" }
        )?;
    }
    // Without a five or a four of either side to settle first, the moves that may break the opponent's VCF.
    let settled = pb.five_points(side).next().is_some() || pb.five_points(side.opponent()).next().is_some();
    if let Some(line) = threat.filter(|_| !settled) {
        let answers = crate::threat::vcf_defences(pb, side, &line);
        if answers.is_empty() {
            writeln!(out, "{side} cannot break {}'s VCF: lost", side.opponent())?;
        } else {
            writeln!(out, "{side}'s moves that may break it: {}", format_point_list(&answers, size))?;
        }
    }
    let (rule, stones) = (pb.rule(), pb.board().stone_count());
    let rate = |units: i32| crate::engine::Outlook::of(units, side, side, rule, stones).text();
    let parts = crate::eval::parts(pb, side, &weights);
    writeln!(out, "classical evaluation: {side}'s win rate {}", rate(parts.total))?;
    if raw {
        writeln!(
            out,
            "  raw: {} = own codes {} - opponent codes {} + threat term {} (key {:05b}|{:05b}: the side to move's \
             flags, then the opponent's; {})",
            parts.total,
            parts.own,
            parts.opp,
            parts.threat,
            parts.key & 31,
            parts.key >> crate::eval::THREAT_FLAGS,
            weights.header.first().map_or("weights", String::as_str)
        )?;
    }
    match options.eval.network(pb.rule(), size).or(crate::eval::EvalChoice::Network(None).network(pb.rule(), size)) {
        Some(net) => {
            let acc = crate::eval::network::Accumulator::new(net, pb.board());
            let units = crate::eval::network_evaluate(&acc, pb, side, &weights);
            writeln!(out, "network evaluation: {side}'s win rate {}", rate(units))?;
            if raw {
                let mut how =
                    if net.residual { ", the classical evaluation plus its correction" } else { "" }.to_string();
                if net.empty_only {
                    how += ", the empty points pooled";
                }
                writeln!(out, "  raw: {units} (in the classical evaluation's units{how}; {})", net.name())?;
            }
        }
        None => writeln!(out, "network evaluation: none for {} in this build", pb.rule().name())?,
    }
    writeln!(out, "the search evaluates with the {} evaluation", options.eval.name(pb.rule(), size))?;
    let start = Instant::now();
    let limits = SearchLimits {
        depth,
        optimum: Some(start + Duration::from_millis(ms)),
        maximum: Some(start + Duration::from_millis(ms)),
        ..SearchLimits::default()
    };
    let table = Table::new(64 << 20);
    let report = search(pb, side, &table, &limits, options, |_| {});
    let seen = crate::engine::Outlook::of(report.score, side, side, rule, stones);
    writeln!(out, "{}", report_text(&report, size, side, seen, raw))
}

/// One line describing a search result: the move, what it means for `side` (its win rate, or a win or loss in so
/// many moves), depth, principal variation, nodes and time; with `raw`, the search's score too.
#[must_use]
pub fn report_text(report: &Report, size: usize, side: Color, seen: crate::engine::Outlook, raw: bool) -> String {
    let verdict = match seen {
        crate::engine::Outlook::Chance(_) => format!("{side}'s win rate {}", seen.text()),
        _ => format!("{side}: {}", seen.text()),
    };
    let score = match mate_distance(report.score) {
        _ if !raw => String::new(),
        Some(d) if report.score > MATE_BOUND => format!(" (score: mate in {d} plies)"),
        Some(d) => format!(" (score: mated in {d} plies)"),
        None => format!(" (score {})", report.score),
    };
    format!(
        "best {} {verdict}{score} depth {} ({}) pv {} nodes {} time {} ms",
        report.best.map_or("-".to_string(), |p| p.notation(size)),
        report.depth,
        report.source,
        if report.pv.is_empty() { "-".to_string() } else { format_line(&report.pv, size) },
        report.nodes,
        report.elapsed.as_millis()
    )
}
