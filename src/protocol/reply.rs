//! Every line the engine prints, rendered from typed results: moves and n-best lists, opening decisions, the
//! realtime and `INFO` lines of each iteration, refusals (`ERROR …`), and the log's one-line summaries.

use crate::engine::{PlayError, PositionError, Swap2Decision};
use crate::pattern::SetupError;
use crate::search::Report;
use crate::types::{MAX_SIZE, MIN_SIZE, Pos};
use std::fmt;
use std::io::{self, Write};

/// The name and version sent in reply to ABOUT.
pub const ABOUT: &str = concat!(
    "name=\"Tengen\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"Tengen developers\", country=\"-\""
);

/// What a think request's search hands back.
pub(super) enum Answer {
    /// Reports, best first (one for a move, n for YXNBEST).
    Moves(Vec<Report>),
    /// Balancing moves (one or two), not played.
    Balance(Vec<Pos>),
    /// SWAP2BOARD on an empty board: the three opening stones.
    Swap2Opening(Vec<Pos>),
    /// SWAP2BOARD on three or five stones.
    Swap2(Swap2Decision),
    /// Yixin-Board's swap2 step 1: the three stones.
    YixinSwap2Opening(Vec<Pos>),
    /// Yixin-Board's swap2 step 2 or 3: whether to swap.
    YixinSwap2(u8, Swap2Decision),
    /// An opening rule's step: its `MESSAGE` lines (rendered by `opening_steps`).
    Opening(Vec<String>),
}

/// Why a command is refused: the text of its `ERROR` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// A command that needs a game before START.
    NoGame,
    /// START with an unsupported size.
    BoardSize(usize),
    /// RECTSTART with other than a supported square.
    NotSquare,
    /// The board could not be set up.
    Setup(SetupError),
    /// BEGIN on a board with stones.
    BeginOnStones,
    /// A point off the board.
    OffBoard(Pos),
    /// A move the game refuses.
    Play(Pos, PlayError),
    /// PLAY on a point that is not a legal move.
    NotLegal(Pos),
    /// TAKEBACK of another point than the last move.
    NotLast(Pos),
    /// A BOARD-like block whose position fits no reading.
    Position(PositionError),
    /// A block or opening step with the wrong number of stones: the command, the numbers wanted, the number given.
    StoneCount(String, String, usize),
    /// A bad line or argument, already described.
    Bad(String),
    /// No legal move is left.
    NoMove,
    /// No legal move: the board is full.
    BoardFull,
    /// The search thread failed.
    SearchFailed,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoGame => write!(f, "no game: START first"),
            Refusal::BoardSize(size) => {
                write!(f, "board size {size} is not supported (use {MIN_SIZE} to {MAX_SIZE})")
            }
            Refusal::NotSquare => write!(f, "only square boards of {MIN_SIZE} to {MAX_SIZE} are supported"),
            Refusal::Setup(e) => write!(f, "{e}"),
            Refusal::BeginOnStones => write!(f, "BEGIN on a board that has stones"),
            Refusal::OffBoard(p) => write!(f, "{},{} is off the board", p.x, p.y),
            Refusal::Play(p, e) => write!(f, "{},{}: {e}", p.x, p.y),
            Refusal::NotLegal(p) => write!(f, "{},{} is not a legal move", p.x, p.y),
            Refusal::NotLast(p) => write!(f, "{},{} is not the last move", p.x, p.y),
            Refusal::Position(e) => write!(f, "{e}; the board is unchanged"),
            Refusal::StoneCount(command, wanted, given) => write!(f, "{command} {wanted} stones, not {given}"),
            Refusal::Bad(msg) => write!(f, "{msg}"),
            Refusal::NoMove => write!(f, "no legal move"),
            Refusal::BoardFull => write!(f, "no legal move: the board is full"),
            Refusal::SearchFailed => write!(f, "internal error in the search; the board was reset"),
        }
    }
}

/// Writes one reply line and flushes it.
pub(super) fn reply(out: &mut dyn Write, line: &str) -> io::Result<()> {
    log::debug!("< {line}");
    writeln!(out, "{line}")?;
    out.flush()
}

/// Writes the `ERROR` line of a refusal.
pub(super) fn refuse(out: &mut dyn Write, refusal: &Refusal) -> io::Result<()> {
    reply(out, &format!("ERROR {refusal}"))
}

/// `x,y`, as the protocol writes a point.
fn xy(p: Pos) -> String {
    format!("{},{}", p.x, p.y)
}

/// A move played back (PLAY), as the protocol writes it.
pub(super) fn move_line(p: Pos) -> String {
    xy(p)
}

/// `x y`, as the Yixin-Board opening messages write a point.
fn x_y(p: Pos) -> String {
    format!("{} {}", p.x, p.y)
}

/// The lines of an answer. A move to play (the first report's, or swap2's) is the last line; with `say_score`
/// (`--say-score`) a move is preceded by `MESSAGE score S depth D nodes N`, its search's score for the side to move.
pub(super) fn answer_lines(answer: &Answer, say_score: bool) -> Vec<String> {
    let error = |r: Refusal| vec![format!("ERROR {r}")];
    let points = |moves: &[Pos]| moves.iter().map(|&p| xy(p)).collect::<Vec<_>>().join(" ");
    match answer {
        Answer::Moves(reports) => {
            let mut lines = Vec::new();
            if let Some(r) = reports.first().filter(|r| say_score && r.best.is_some()) {
                lines.push(format!("MESSAGE score {} depth {} nodes {}", r.score, r.depth, r.nodes));
            }
            if reports.len() > 1 {
                for (i, r) in reports.iter().enumerate() {
                    let best = r.best.map_or("-".to_string(), xy);
                    lines.push(format!("MESSAGE nbest {}: {best} score {}", i + 1, r.score));
                }
            }
            match reports.first().and_then(|r| r.best) {
                Some(p) => lines.push(xy(p)),
                None => lines.extend(error(Refusal::BoardFull)),
            }
            lines
        }
        Answer::Balance(moves) | Answer::Swap2Opening(moves) if moves.is_empty() => error(Refusal::NoMove),
        Answer::Balance(moves) | Answer::Swap2Opening(moves) => vec![points(moves)],
        Answer::Swap2(Swap2Decision::Swap) => vec!["SWAP".to_string()],
        Answer::Swap2(Swap2Decision::Play(p)) => vec![xy(*p)],
        Answer::Swap2(Swap2Decision::NoMove) => error(Refusal::NoMove),
        Answer::YixinSwap2Opening(stones) => {
            stones.iter().enumerate().map(|(i, &p)| format!("MESSAGE SWAP2 MOVE{} {}", i + 1, x_y(p))).collect()
        }
        Answer::YixinSwap2(step, decision) => {
            let yes = if *decision == Swap2Decision::Swap { "YES" } else { "NO" };
            vec![format!("MESSAGE SWAP2 SWAP{} {yes}", step - 1)]
        }
        Answer::Opening(lines) if lines.is_empty() => error(Refusal::NoMove),
        Answer::Opening(lines) => lines.clone(),
    }
}

/// One iteration as the Yixin-style GUIs read it: `MESSAGE REALTIME` lines (`show_detail` bit 1) and the `INFO`
/// detail block (bit 2), with `winrate` the side to move's (the calibrated curve of [`crate::engine::Outlook`]).
pub(super) fn iteration_lines(report: &Report, winrate: f64, show_detail: i64) -> Vec<String> {
    let Some(best) = report.best else { return Vec::new() };
    let mut lines = Vec::new();
    if show_detail & 1 != 0 {
        lines.push("MESSAGE REALTIME REFRESH".to_string());
        lines.push(format!("MESSAGE REALTIME BEST {}", xy(best)));
    }
    if show_detail & 2 != 0 {
        let eval = match crate::search::mate_distance(report.score) {
            Some(d) if report.score > 0 => format!("+M {d}"),
            Some(d) => format!("-M {d}"),
            None => report.score.to_string(),
        };
        let ms = report.elapsed.as_millis().max(1);
        let line: Vec<String> = report.pv.iter().map(|&p| xy(p)).collect();
        lines.extend([
            "INFO PV 0".to_string(),
            "INFO NUMPV 1".to_string(),
            format!("INFO DEPTH {}", report.depth),
            format!("INFO SELDEPTH {}", report.pv.len()),
            format!("INFO NODES {}", report.nodes),
            format!("INFO TOTALNODES {}", report.nodes),
            format!("INFO TOTALTIME {ms}"),
            format!("INFO SPEED {}", u128::from(report.nodes) * 1000 / ms),
            format!("INFO EVAL {eval}"),
            format!("INFO WINRATE {winrate:.3}"),
            format!("INFO BESTLINE {}", line.join(" ")),
            "INFO PV DONE".to_string(),
        ]);
    }
    lines
}

/// The answer to YXSHOWINFO.
pub(super) fn show_info_lines() -> [&'static str; 2] {
    ["MESSAGE INFO MAX_THREAD_NUM 64", "MESSAGE INFO MAX_HASH_SIZE 22"]
}

/// The answer to YXSHOWFORBID: Black's forbidden points as `xxyy` pairs.
pub(super) fn forbid_line(points: &[Pos]) -> String {
    let mut text = String::from("FORBID ");
    for p in points {
        text.push_str(&format!("{:02}{:02}", p.x, p.y));
    }
    text.push('.');
    text
}

/// A search report on one line, for the log.
pub(super) fn summary(r: &Report) -> String {
    let pv: Vec<String> = r.pv.iter().map(|&p| xy(p)).collect();
    format!(
        "{} depth {} score {} nodes {} time {} ms ({}) pv {}",
        r.best.map_or("-".to_string(), xy),
        r.depth,
        r.score,
        r.nodes,
        r.elapsed.as_millis(),
        r.source,
        pv.join(" ")
    )
}
