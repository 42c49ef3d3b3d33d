//! `bench` (fixed positions to fixed depths: the behaviour signature and the speed) and `analyze` (one position as
//! a person reads it).

use crate::board::Cell;
use crate::engine::Engine;
use crate::movegen::five_points;
use crate::pattern::{Pattern4, PatternBoard};
use crate::search::tt::Table;
use crate::search::{MATE_BOUND, Report, SearchLimits, SearchOptions, mate_distance, search};
use crate::threat::{Limits, Solution, Vcf, VcfOptions};
use crate::types::{Color, Pos, Rule, format_line, format_point_list};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The bench positions: rule, opening moves (Black first), depth.
const BENCH: &[(Rule, &str, i32)] = &[
    (Rule::Renju, "h8 h9 h10", 7),
    (Rule::Renju, "h8 h9 j10", 7),
    (Rule::Renju, "h8 i9 j10", 7),
    (Rule::Renju, "h8 h7 i9 g9 g8 j10 i8", 7),
    (Rule::Renju, "h8 i7 g7 i9 i8 g9 j8 k8 f6 e5", 6),
    (Rule::Freestyle, "h8 i9 h9", 7),
    (Rule::Freestyle, "h8 h9 i8 g8 i10 i9 j9 k10", 7),
    (Rule::Standard, "h8 i8 i9", 7),
    (Rule::Standard, "h8 g9 i9 g7 g8 f8 j10 h10", 6),
];

/// A game's moves in "h8 h9 j10" notation (spaces or commas), Black first.
///
/// # Errors
/// A bad point, a point given twice, or a five on the board.
pub fn position_from_moves(text: &str, size: usize, rule: Rule) -> Result<PatternBoard, String> {
    let mut pb = PatternBoard::new(size, rule).map_err(|e| e.to_string())?;
    let mut side = Color::Black;
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let p = Pos::parse(word, size)?;
        if !pb.board().is_empty(p) {
            return Err(format!("{word} is played twice"));
        }
        if pb.is_five(side, p) {
            return Err(format!("{word} makes a five: the game is over"));
        }
        pb.make(p, side);
        side = side.opponent();
    }
    Ok(pb)
}

/// The side to move after the moves of `pb`.
fn to_move(pb: &PatternBoard) -> Color {
    pb.board().moves().last().map_or(Color::Black, |&(_, c)| c.opponent())
}

/// `bench [depth]`: searches the fixed positions, one thread, and prints one line per position and the total,
/// `<N> nodes <NPS> nps`. N depends only on the code (no clock is read by the search).
///
/// # Errors
/// Output I/O errors only.
pub fn bench(depth: Option<i32>, out: &mut dyn Write) -> io::Result<()> {
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for &(rule, moves, default_depth) in BENCH {
        let engine = position_from_moves(moves, 15, rule).and_then(|pb| {
            let mut engine = Engine::new(15, rule).map_err(|e| e.to_string())?;
            engine.set_hash_bytes(16 << 20);
            engine.configure(|s| s.search.threads = 1);
            engine.set_up(pb.board().moves()).map_err(|e| e.to_string())?;
            Ok(engine)
        });
        let mut engine = match engine {
            Ok(engine) => engine,
            Err(e) => {
                writeln!(out, "error: bench position '{moves}': {e}")?;
                continue;
            }
        };
        let limits = SearchLimits { depth: depth.unwrap_or(default_depth), ..SearchLimits::default() };
        let report = engine.think_with(&limits, |_| {});
        nodes += report.nodes;
        time += report.elapsed;
        writeln!(
            out,
            "{:<10} {:<40} depth {:>2} best {:<4} score {:>6} nodes {:>9}",
            rule.name(),
            moves,
            report.depth,
            report.best.map_or("-".to_string(), |p| p.notation(15)),
            report.score,
            report.nodes
        )?;
    }
    let nps = nodes as f64 / time.as_secs_f64().max(1e-9);
    writeln!(out, "{nodes} nodes {nps:.0} nps")
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
    match options.eval.network(pb.rule()).or(crate::eval::EvalChoice::Network(None).network(pb.rule())) {
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
    writeln!(out, "the search evaluates with the {} evaluation", options.eval.name(pb.rule()))?;
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

/// `analyze --file`: every position line of `input` searched as a game's move of `ms` milliseconds would be (the
/// root's VCF and VCT, then the search), one line each: `win MOVE in N plies (SOURCE)` when the search proves a win
/// for the side to move, else `no MOVE score S (SOURCE)`; then `# proved W of T …`. The measure of issue 41: how
/// many of a set of won positions a turn plays as won.
///
/// # Errors
/// Output I/O errors only; bad lines are `error:` lines.
pub(super) fn analyze_file(
    opts: &super::Options,
    ms: u64,
    depth: i32,
    options: &SearchOptions,
    input: &mut (dyn io::BufRead + Send),
    out: &mut dyn Write,
) -> io::Result<()> {
    let tally = super::Tally::default();
    let errors = super::for_each_position(opts, input, out, |board, pos| {
        let side = pos.side_to_move()?;
        let start = Instant::now();
        let deadline = Some(start + Duration::from_millis(ms));
        let limits = SearchLimits { depth, optimum: deadline, maximum: deadline, ..SearchLimits::default() };
        let table = Table::new(16 << 20);
        let report = search(&board, side, &table, &limits, options, |_| {});
        let size = board.size();
        let best = report.best.map_or("-".to_string(), |p| p.notation(size));
        Ok(if report.score >= MATE_BOUND {
            tally.count(&tally.proved);
            let plies = mate_distance(report.score).unwrap_or(0);
            format!("win {best} in {plies} plies ({})", report.source)
        } else {
            tally.count(&tally.none);
            format!("no {best} score {} ({})", report.score, report.source)
        })
    })?;
    writeln!(out, "# {} by the search within {ms} ms a position", tally.text("not proved", errors))?;
    out.flush()
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

/// The board with the column letters and row numbers, `X` Black, `O` White, `#` a forbidden point, the last move
/// in brackets.
pub(crate) fn board_text(pb: &PatternBoard, forbidden: &[Pos]) -> String {
    let size = pb.size();
    let letters: String = (0..size).map(|x| format!(" {}", (b'A' + x as u8) as char)).collect();
    let last = pb.board().moves().last().map(|&(p, _)| p);
    let mut text = format!("   {letters}\n");
    for y in 0..size {
        let row = size - y;
        text.push_str(&format!("{row:>2} "));
        for x in 0..size {
            let p = Pos::new(x, y);
            let mark = match pb.board().cell(p) {
                Cell::Stone(Color::Black) => 'X',
                Cell::Stone(Color::White) => 'O',
                _ if forbidden.contains(&p) => '#',
                _ => '.',
            };
            let before_was_last = x > 0 && last == Some(Pos::new(x - 1, y));
            text.push(if last == Some(p) {
                '['
            } else if before_was_last {
                ']'
            } else {
                ' '
            });
            text.push(mark);
        }
        let ends_with_last = last == Some(Pos::new(size - 1, y));
        text.push(if ends_with_last { ']' } else { ' ' });
        text.push_str(&format!("{row}\n"));
    }
    text.push_str(&format!("   {letters}"));
    text
}
