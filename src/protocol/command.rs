//! Protocol lines parsed into typed commands. Only this layer (with `session`) knows protocol text.

use crate::types::Pos;

/// One command line (the lines inside a BOARD block are read by the session as [`BoardLine`]s).
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
    /// `BOARD`: a position follows, then a move of ours.
    Board,
    /// `YXBOARD`: a position follows, no move wanted.
    YxBoard,
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
    /// `YXBLOCK`: points follow (`x,y` lines, then `DONE`) that the engine must not play.
    Block,
    /// `YXBLOCKUNDO`: points follow that may be played again.
    BlockUndo,
    /// `YXBLOCKRESET`: no point is blocked any more.
    BlockReset,
    /// `SWAP2BOARD`: 0, 3 or 5 stones follow (`x,y` or `x,y,c` lines in move order, then `DONE`).
    Swap2Board,
    /// Yixin-Board's `YXSWAP2STEP1` to `3` on the position of the last yxboard (0, 3 or 5 stones).
    YxSwap2Step(u8),
    /// Yixin-Board's `YXSOOSORVSTEP1` to `6` (the Soosõrv-8 opening), with the declared number of fifth moves for
    /// steps 4 and 5; from step 2 on, `x,y` lines and `DONE` follow.
    YxSoosorvStep(u8, usize),
}

/// One line of a BOARD block: a stone and its field (1 ours, 2 the opponent's, 3 a winning-line or forbidden
/// stone in a continuous game), or the closing `DONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardLine {
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

/// Parses one non-empty line (already trimmed of its line end).
///
/// # Errors
/// [`ParseError::Unknown`] for an unknown command, [`ParseError::Bad`] for bad arguments.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let name = word.to_ascii_uppercase();
    let at = |what: &str| point(rest).ok_or_else(|| ParseError::Bad(format!("bad coordinates '{rest}' after {what}")));
    match name.as_str() {
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
        "BOARD" => Ok(Command::Board),
        "YXBOARD" => Ok(Command::YxBoard),
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
        "YXBLOCK" => Ok(Command::Block),
        "YXBLOCKUNDO" => Ok(Command::BlockUndo),
        "YXBLOCKRESET" => Ok(Command::BlockReset),
        "SWAP2BOARD" => Ok(Command::Swap2Board),
        "YXSWAP2STEP1" => Ok(Command::YxSwap2Step(1)),
        "YXSWAP2STEP2" => Ok(Command::YxSwap2Step(2)),
        "YXSWAP2STEP3" => Ok(Command::YxSwap2Step(3)),
        "YXSOOSORVSTEP1" | "YXSOOSORVSTEP2" | "YXSOOSORVSTEP3" | "YXSOOSORVSTEP4" | "YXSOOSORVSTEP5"
        | "YXSOOSORVSTEP6" => {
            let step = name.as_bytes()[13] - b'0';
            match (step, rest.parse::<usize>()) {
                (4 | 5, Ok(n)) if (1..=16).contains(&n) => Ok(Command::YxSoosorvStep(step, n)),
                (4 | 5, _) => Err(ParseError::Bad(format!("{word} needs the number of fifth moves (1 to 16)"))),
                _ => Ok(Command::YxSoosorvStep(step, 0)),
            }
        }
        _ => Err(ParseError::Unknown(format!("command '{word}' is not supported"))),
    }
}

/// Parses one line inside a BOARD block.
///
/// # Errors
/// A message when the line is neither `x,y,f` (f 1 to 3) nor `DONE`.
pub fn parse_board_line(line: &str) -> Result<BoardLine, String> {
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
pub fn parse_swap2_line(line: &str) -> Result<Option<Pos>, String> {
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
pub fn parse_point_line(line: &str) -> Result<Option<Pos>, String> {
    let line = line.trim();
    if line.eq_ignore_ascii_case("done") {
        return Ok(None);
    }
    point(line).map(Some).ok_or_else(|| format!("bad point line '{line}': x,y or DONE expected"))
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
    fn board_lines() {
        assert_eq!(parse_board_line("7,7,1"), Ok(BoardLine::Stone(Pos::new(7, 7), 1)));
        assert_eq!(parse_board_line("done"), Ok(BoardLine::Done));
        assert!(parse_board_line("7,7,4").is_err());
        assert!(parse_board_line("7,7").is_err());
    }
}
