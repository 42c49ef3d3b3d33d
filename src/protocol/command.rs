//! Protocol lines parsed into typed commands, multi-line blocks (`BOARD … DONE` and the like) assembled into one
//! command each by [`Assembler`]. Only this layer knows protocol text.

use super::opening_steps::OpeningStep;
use crate::engine::PositionError;
use crate::types::{Color, Pos};

/// One command: a line, or a whole block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` or `START n n`.
    Start(usize),
    /// `RECTSTART w,h`.
    RectStart(usize, usize),
    /// `RESTART`.
    Restart,
    /// `BEGIN`: move first on an empty board.
    Begin,
    /// `TURN x,y`: the opponent's move, then ours.
    Turn(Pos),
    /// `BOARD` or `YXBOARD` with the block's stones.
    Board {
        /// The stones and their fields (1 ours, 2 the opponent's, 3 a continuous game's winning-line stone).
        stones: Vec<(Pos, u8)>,
        /// A move of ours is wanted (`BOARD`), or not (`YXBOARD`).
        think: bool,
    },
    /// `INFO key value`.
    Info(String, String),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `TAKEBACK x,y`.
    Takeback(Pos),
    /// `PLAY x,y` (after SUGGEST; we never suggest, so it is an ordinary move of ours).
    Play(Pos),
    /// `YXSTOP` or `STOP`: answer now.
    Stop,
    /// `YXSHOWFORBID`.
    ShowForbid,
    /// `YXHASHCLEAR`.
    HashClear,
    /// `YXSHOWINFO`.
    ShowInfo,
    /// `YXNBEST n`: the n best moves (the best is played back).
    NBest(usize),
    /// `YXBALANCEONE s`: one move that leaves the position balanced (the mover's score nearest `s`).
    BalanceOne(i32),
    /// `YXBALANCETWO s`: two moves (ours, then the opponent's) that leave it balanced.
    BalanceTwo(i32),
    /// `YXSEARCHDEFEND`: the best defence, as a move.
    SearchDefend,
    /// `YXBLOCK` or `YXBLOCKUNDO` with the block's points.
    Block {
        /// The `x,y` points.
        points: Vec<Pos>,
        /// Points the engine must not play (`YXBLOCK`), or may play again (`YXBLOCKUNDO`).
        add: bool,
    },
    /// `YXBLOCKRESET`: no point is blocked any more.
    BlockReset,
    /// `SWAP2BOARD` with its stones (`x,y` or `x,y,c` lines in move order).
    Swap2Board(Vec<Pos>),
    /// Yixin-Board's `YXSWAP2STEP1` to `3` on the position of the last yxboard (0, 3 or 5 stones).
    YxSwap2Step(u8),
    /// An opening rule's step: Yixin-Board's `YXSOOSORVSTEP1` to `6`, and `YXRIFSTEP`, `YXYAMAGUCHISTEP` and
    /// `YXTARAGUCHISTEP` in the same form (see `opening_steps`), with the block's stones.
    OpeningStep(OpeningStep),
}

/// One line of a BOARD block: a stone and its field (1 ours, 2 the opponent's, 3 a winning-line or forbidden
/// stone in a continuous game), or the closing `DONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoardLine {
    /// A stone.
    Stone(Pos, u8),
    /// `DONE`.
    Done,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a command we know: the reply is `UNKNOWN`.
    Unknown(String),
    /// A known command with bad arguments: the reply is `ERROR`.
    Bad(String),
}

/// `x,y` as a point (no range check: the session knows the board size).
fn point(text: &str) -> Option<Pos> {
    let (x, y) = text.trim().split_once(',')?;
    let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x < 1 << 15 && y < 1 << 15).then(|| Pos::new(x.min(255), y.min(255)))
}

/// A block being read: what it will be, and what it holds so far.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Open {
    Board { stones: Vec<(Pos, u8)>, think: bool },
    Block { points: Vec<Pos>, add: bool },
    Swap2 { stones: Vec<Pos> },
    Step(OpeningStep),
}

/// A command line: a whole command, or the first line of a block.
enum Head {
    Command(Command),
    Opens(Open),
}

/// Parses one line outside a block.
///
/// # Errors
/// [`ParseError::Unknown`] for an unknown command, [`ParseError::Bad`] for bad arguments.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    match parse_head(line)? {
        Head::Command(c) => Ok(c),
        Head::Opens(_) => Err(ParseError::Bad(format!("'{}' starts a block: use an Assembler", line.trim()))),
    }
}

/// Parses one non-empty line (already trimmed of its line end) outside a block.
fn parse_head(line: &str) -> Result<Head, ParseError> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let name = word.to_ascii_uppercase();
    let at = |what: &str| point(rest).ok_or_else(|| ParseError::Bad(format!("bad coordinates '{rest}' after {what}")));
    if let Some(step) = OpeningStep::parse(word, rest) {
        let (step, block) = step.map_err(ParseError::Bad)?;
        return Ok(if block { Head::Opens(Open::Step(step)) } else { Head::Command(Command::OpeningStep(step)) });
    }
    let command = match name.as_str() {
        "START" => {
            let numbers: Vec<&str> = rest.split([' ', ',']).filter(|s| !s.is_empty()).collect();
            let sizes: Option<Vec<usize>> = numbers.iter().map(|n| n.parse().ok()).collect();
            match sizes.as_deref() {
                Some([n]) => Ok(Command::Start(*n)),
                Some([w, h]) if w == h => Ok(Command::Start(*w)),
                Some([w, h]) => Err(ParseError::Bad(format!("only square boards are supported, not {w}x{h}"))),
                _ => Err(ParseError::Bad(format!("bad START parameter '{rest}'"))),
            }
        }
        "RECTSTART" => match point(rest) {
            Some(p) => Ok(Command::RectStart(usize::from(p.x), usize::from(p.y))),
            None => Err(ParseError::Bad(format!("bad RECTSTART parameter '{rest}'"))),
        },
        "RESTART" => Ok(Command::Restart),
        "BEGIN" => Ok(Command::Begin),
        "TURN" => at("TURN").map(Command::Turn),
        "BOARD" => return Ok(Head::Opens(Open::Board { stones: Vec::new(), think: true })),
        "YXBOARD" => return Ok(Head::Opens(Open::Board { stones: Vec::new(), think: false })),
        "INFO" => {
            let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if key.is_empty() {
                return Err(ParseError::Bad("INFO without a key".to_string()));
            }
            Ok(Command::Info(key.to_ascii_lowercase(), value.trim().to_string()))
        }
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "TAKEBACK" => at("TAKEBACK").map(Command::Takeback),
        "PLAY" => at("PLAY").map(Command::Play),
        "YXSTOP" | "STOP" => Ok(Command::Stop),
        "YXSHOWFORBID" => Ok(Command::ShowForbid),
        "YXHASHCLEAR" => Ok(Command::HashClear),
        "YXSHOWINFO" => Ok(Command::ShowInfo),
        "YXNBEST" => match rest.parse::<usize>() {
            Ok(n) if (1..=64).contains(&n) => Ok(Command::NBest(n)),
            _ => Err(ParseError::Bad(format!("bad YXNBEST count '{rest}' (1 to 64)"))),
        },
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let bias = if rest.is_empty() { Ok(0) } else { rest.parse::<i32>() };
            match bias {
                Ok(b) if name == "YXBALANCEONE" => Ok(Command::BalanceOne(b.clamp(-10_000, 10_000))),
                Ok(b) => Ok(Command::BalanceTwo(b.clamp(-10_000, 10_000))),
                Err(_) => Err(ParseError::Bad(format!("bad {word} bias '{rest}'"))),
            }
        }
        "YXSEARCHDEFEND" => Ok(Command::SearchDefend),
        "YXBLOCK" => return Ok(Head::Opens(Open::Block { points: Vec::new(), add: true })),
        "YXBLOCKUNDO" => return Ok(Head::Opens(Open::Block { points: Vec::new(), add: false })),
        "YXBLOCKRESET" => Ok(Command::BlockReset),
        "SWAP2BOARD" => return Ok(Head::Opens(Open::Swap2 { stones: Vec::new() })),
        "YXSWAP2STEP1" => Ok(Command::YxSwap2Step(1)),
        "YXSWAP2STEP2" => Ok(Command::YxSwap2Step(2)),
        "YXSWAP2STEP3" => Ok(Command::YxSwap2Step(3)),
        _ => Err(ParseError::Unknown(format!("command '{word}' is not supported"))),
    };
    command.map(Head::Command)
}

/// Turns lines into commands: a single-line command at once, a block (`BOARD`, `YXBOARD`, `YXBLOCK`,
/// `YXBLOCKUNDO`, `SWAP2BOARD`, `YXSOOSORVSTEP2`–`6`) as one command at its `DONE`. A bad line inside a block makes
/// the whole block one error at its `DONE`; `END` is obeyed inside a block (the block is dropped).
#[derive(Debug, Default)]
pub struct Assembler {
    open: Option<Open>,
    /// The block's first bad line, with what the refusal leaves unchanged.
    error: Option<String>,
}

impl Assembler {
    /// Takes one non-empty line: `None` while a block is being read, else the command or why there is none.
    pub fn push(&mut self, line: &str) -> Option<Result<Command, ParseError>> {
        let Some(open) = self.open.as_mut() else {
            return match parse_head(line) {
                Ok(Head::Command(c)) => Some(Ok(c)),
                Ok(Head::Opens(open)) => {
                    self.open = Some(open);
                    None
                }
                Err(e) => Some(Err(e)),
            };
        };
        if line.trim().eq_ignore_ascii_case("end") {
            self.open = None;
            self.error = None;
            return Some(Ok(Command::End));
        }
        let done = line.trim().eq_ignore_ascii_case("done");
        if self.error.is_some() {
            if !done {
                return None; // the block is already bad: its DONE gets the one error
            }
            self.open = None;
            return self.error.take().map(|e| Err(ParseError::Bad(e)));
        }
        let unchanged = if matches!(open, Open::Block { .. }) {
            "the blocked points are unchanged"
        } else {
            "the board is unchanged"
        };
        let added = match open {
            Open::Board { stones, .. } => parse_board_line(line).map(|l| match l {
                BoardLine::Stone(p, f) => stones.push((p, f)),
                BoardLine::Done => {}
            }),
            Open::Block { points, .. } => parse_point_line(line).map(|p| points.extend(p)),
            Open::Swap2 { stones } => parse_swap2_line(line).map(|p| stones.extend(p)),
            Open::Step(step) => parse_point_line(line).map(|p| step.stones.extend(p)),
        };
        if let Err(msg) = added {
            self.error = Some(format!("{msg}; {unchanged}"));
            return None;
        }
        if !done {
            return None;
        }
        Some(Ok(match self.open.take()? {
            Open::Board { stones, think } => Command::Board { stones, think },
            Open::Block { points, add } => Command::Block { points, add },
            Open::Swap2 { stones } => Command::Swap2Board(stones),
            Open::Step(step) => Command::OpeningStep(step),
        }))
    }
}

/// Parses one line inside a BOARD block.
///
/// # Errors
/// A message when the line is neither `x,y,f` (f 1 to 3) nor `DONE`.
fn parse_board_line(line: &str) -> Result<BoardLine, String> {
    let line = line.trim();
    if line.eq_ignore_ascii_case("done") {
        return Ok(BoardLine::Done);
    }
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    match fields.as_slice() {
        [x, y, f] => {
            let p = point(&format!("{x},{y}"));
            let f: Option<u8> = f.parse().ok().filter(|f| (1..=3).contains(f));
            match (p, f) {
                (Some(p), Some(f)) => Ok(BoardLine::Stone(p, f)),
                _ => Err(format!("bad board line '{line}': x,y,who or DONE expected")),
            }
        }
        _ => Err(format!("bad board line '{line}': x,y,who or DONE expected")),
    }
}

/// Parses one line of a SWAP2BOARD block: `x,y` (the spec) or `x,y,c` (Rapfi's form; the colour follows from the
/// order anyway), or `DONE` (`None`).
///
/// # Errors
/// A message when the line is none of these.
fn parse_swap2_line(line: &str) -> Result<Option<Pos>, String> {
    let line = line.trim();
    let fields: Vec<&str> = line.split(',').collect();
    if fields.len() == 3 && fields[2].trim().parse::<u8>().is_ok_and(|c| (1..=3).contains(&c)) {
        return parse_point_line(&format!("{},{}", fields[0], fields[1]));
    }
    parse_point_line(line)
}

/// Parses one line of a YXBLOCK block: `x,y`, or `DONE` (`None`).
///
/// # Errors
/// A message when the line is neither.
fn parse_point_line(line: &str) -> Result<Option<Pos>, String> {
    let line = line.trim();
    if line.eq_ignore_ascii_case("done") {
        return Ok(None);
    }
    point(line).map(Some).ok_or_else(|| format!("bad point line '{line}': x,y or DONE expected"))
}

/// The colours of a BOARD block's stones, in any order. Fields 1 and 2 are the engine's and the opponent's
/// stones when their numbers allow it: as many of each (the engine is Black, to move) or one opponent stone more
/// (the engine is White). When the engine has one stone more, as Yixin-Board's set-up positions may, they are
/// Black's (1) and White's (2) and White is to move. A block with field-3 stones (Piskvork's continuous games) is
/// read in move order: a field-3 stone's colour is its place's, Black first.
///
/// # Errors
/// [`PositionError::Counts`] when the numbers fit no reading.
pub fn read_stones(stones: &[(Pos, u8)]) -> Result<Vec<(Pos, Color)>, PositionError> {
    let count = |field: u8| stones.iter().filter(|&&(_, f)| f == field).count();
    let (own, theirs) = (count(1), count(2));
    let ours = if own + theirs < stones.len() {
        Color::to_move(stones.len())
    } else if own == theirs {
        Color::Black
    } else if theirs == own + 1 {
        Color::White
    } else if own == theirs + 1 {
        Color::Black // 1 = Black, 2 = White
    } else {
        return Err(PositionError::Counts(own.max(theirs), own.min(theirs)));
    };
    let colour = |i: usize, field: u8| match field {
        1 => ours,
        2 => ours.opponent(),
        _ => Color::to_move(i),
    };
    Ok(stones.iter().enumerate().map(|(i, &(p, f))| (p, colour(i, f))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_any_case() {
        assert_eq!(parse("start 15"), Ok(Command::Start(15)));
        assert_eq!(parse("START 15 15"), Ok(Command::Start(15)));
        assert_eq!(parse("Turn 7,8"), Ok(Command::Turn(Pos::new(7, 8))));
        assert_eq!(parse("info Timeout_Turn 5000"), Ok(Command::Info("timeout_turn".into(), "5000".into())));
        assert_eq!(parse("yxstop"), Ok(Command::Stop));
        assert!(matches!(parse("START 15 20"), Err(ParseError::Bad(_))));
        assert!(matches!(parse("TURN 7"), Err(ParseError::Bad(_))));
        assert!(matches!(parse("TURN -1,3"), Err(ParseError::Bad(_))));
        assert!(matches!(parse("FLY"), Err(ParseError::Unknown(_))));
    }

    #[test]
    fn blocks_arrive_as_one_command_and_a_bad_line_spoils_only_its_block() {
        let mut a = Assembler::default();
        assert_eq!(a.push("BOARD"), None);
        assert_eq!(a.push("7,7,1"), None);
        assert_eq!(a.push("8,8,2"), None);
        let board = Command::Board { stones: vec![(Pos::new(7, 7), 1), (Pos::new(8, 8), 2)], think: true };
        assert_eq!(a.push("done"), Some(Ok(board)));
        assert_eq!(a.push("yxblock"), None);
        assert_eq!(a.push("3,4"), None);
        assert_eq!(a.push("three,4"), None);
        assert_eq!(a.push("5,5"), None);
        assert!(
            matches!(a.push("DONE"), Some(Err(ParseError::Bad(m))) if m.ends_with("the blocked points are unchanged"))
        );
        let step1 =
            OpeningStep { rule: crate::opening_rule::OpeningRule::Soosorv(8), step: 1, n: 0, stones: Vec::new() };
        assert_eq!(a.push("yxsoosorvstep1"), Some(Ok(Command::OpeningStep(step1))));
        assert_eq!(a.push("swap2board"), None);
        assert_eq!(a.push("end"), Some(Ok(Command::End)));
        assert_eq!(a.push("about"), Some(Ok(Command::About)));
    }

    #[test]
    fn board_lines() {
        assert_eq!(parse_board_line("7,7,1"), Ok(BoardLine::Stone(Pos::new(7, 7), 1)));
        assert_eq!(parse_board_line("done"), Ok(BoardLine::Done));
        assert!(parse_board_line("7,7,4").is_err());
        assert!(parse_board_line("7,7").is_err());
    }
}
