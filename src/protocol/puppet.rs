//! The puppet (`pbrain-tengen puppet`): a scripted protocol engine for testing match runners. It answers `START`
//! with `OK`, ignores `INFO`, and answers each move request (`BEGIN`, `TURN`, `BOARD … DONE`) with the next move of
//! its script, whatever the position. Script steps:
//!
//! - `h8`: a move in `H8` notation (on the board size `START` gave);
//! - `x,y`: a move in raw Piskvork coordinates, which may be off the board (`15,3`, `-1,0`);
//! - `sleep:MS`: wait MS milliseconds before the next answer;
//! - `memory:MB`: take and touch MB MiB of memory and keep it;
//! - `say:TEXT`: write the line TEXT (underscores become spaces) before the next answer;
//! - `reply:LINE|LINE…`: answer the next request with these lines (underscores become spaces); an opening-rule
//!   step (`yxrifstep1`, `yxsoosorvstep3` … `DONE`, `SWAP2BOARD` … `DONE`) is a request too, answered by the
//!   steps up to its `reply:` (or a move);
//! - `crash`: exit at once without answering; `hang`: never answer again (but keep reading).
//!
//! When the script runs out the puppet exits, as a crashed engine would. `END` exits at once.

use crate::types::Pos;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// One step of the script.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Move(String),
    Raw(i64, i64),
    Sleep(u64),
    Memory(usize),
    Say(String),
    Reply(Vec<String>),
    Crash,
    Hang,
}

fn parse_step(word: &str) -> Result<Step, String> {
    let lower = word.to_ascii_lowercase();
    if let Some(ms) = lower.strip_prefix("sleep:") {
        return ms.parse().map(Step::Sleep).map_err(|_| format!("bad sleep '{word}'"));
    }
    if let Some(mb) = lower.strip_prefix("memory:") {
        return mb.parse().map(Step::Memory).map_err(|_| format!("bad memory '{word}'"));
    }
    if let Some(text) = word.strip_prefix("say:") {
        return Ok(Step::Say(text.replace('_', " ")));
    }
    if let Some(text) = word.strip_prefix("reply:") {
        return Ok(Step::Reply(text.split('|').map(|l| l.replace('_', " ")).collect()));
    }
    match lower.as_str() {
        "crash" => return Ok(Step::Crash),
        "hang" => return Ok(Step::Hang),
        _ => {}
    }
    if let Some((x, y)) = lower.split_once(',') {
        let n = |v: &str| v.trim().parse::<i64>().map_err(|_| format!("bad point '{word}'"));
        return Ok(Step::Raw(n(x)?, n(y)?));
    }
    Pos::parse(&lower, 22).map(|_| Step::Move(lower)).map_err(|_| format!("bad step '{word}'"))
}

/// Runs the puppet over `input`/`out` with the script `args`. Returns the exit code (0 at END or EOF, 3 when it
/// crashes or runs out of moves, 2 for a bad script).
///
/// # Errors
/// Output I/O errors.
pub fn puppet(args: &[String], input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<u8> {
    let steps: Result<Vec<Step>, String> = args
        .iter()
        .flat_map(|a| a.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .map(|w| parse_step(&w))
        .collect();
    let steps = match steps {
        Ok(s) => s,
        Err(e) => {
            writeln!(out, "error: {e}")?;
            out.flush()?;
            return Ok(2);
        }
    };
    let mut steps = steps.into_iter();
    let mut size = 15usize;
    let mut in_board = false;
    let mut hung = false;
    let mut hoard: Vec<Vec<u8>> = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(0);
        }
        let text = line.trim();
        let upper = text.to_ascii_uppercase();
        let word = upper.split_whitespace().next().unwrap_or("");
        let wants_move = if in_board {
            if upper == "DONE" {
                in_board = false;
                true
            } else {
                false
            }
        } else {
            match word {
                "START" => {
                    size = upper.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(15);
                    writeln!(out, "OK")?;
                    false
                }
                "BOARD" | "SWAP2BOARD" => {
                    in_board = true;
                    false
                }
                _ if super::opening_steps::OpeningStep::parse(word, "8").is_some() => {
                    // An opening step: answered at once, or at the DONE of its block.
                    let block = super::opening_steps::OpeningStep::parse(word, "8")
                        .is_some_and(|s| s.is_ok_and(|(_, block)| block));
                    in_board = block;
                    !block
                }
                "BEGIN" | "TURN" => true,
                "ABOUT" => {
                    writeln!(out, "name=\"puppet\", version=\"1\", author=\"tengen tests\"")?;
                    false
                }
                "END" => return Ok(0),
                _ => false,
            }
        };
        out.flush()?;
        if !wants_move || hung {
            continue;
        }
        loop {
            match steps.next() {
                None | Some(Step::Crash) => return Ok(3),
                Some(Step::Hang) => {
                    hung = true;
                    break;
                }
                Some(Step::Sleep(ms)) => std::thread::sleep(Duration::from_millis(ms)),
                Some(Step::Memory(mb)) => {
                    // Touch every page so that it is resident.
                    let block = vec![1u8; mb << 20];
                    hoard.push(std::hint::black_box(block));
                }
                Some(Step::Say(text)) => writeln!(out, "{text}")?,
                Some(Step::Reply(lines)) => {
                    for l in lines {
                        writeln!(out, "{l}")?;
                    }
                    break;
                }
                Some(Step::Raw(x, y)) => {
                    writeln!(out, "{x},{y}")?;
                    break;
                }
                Some(Step::Move(name)) => {
                    match Pos::parse(&name, size) {
                        Ok(p) => writeln!(out, "{},{}", p.x, p.y)?,
                        Err(_) => writeln!(out, "-1,-1")?,
                    }
                    break;
                }
            }
        }
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(script: &str, input: &str) -> (u8, String) {
        let mut out = Vec::new();
        let args: Vec<String> = script.split_whitespace().map(str::to_string).collect();
        let code = puppet(&args, &mut input.as_bytes(), &mut out).expect("io");
        (code, String::from_utf8_lossy(&out).into_owned())
    }

    #[test]
    fn it_plays_its_script_whatever_the_position() {
        let (code, out) =
            run("h8 15,3 say:MESSAGE_hi i9", "START 15\nINFO rule 4\nBOARD\n7,7,2\nDONE\nTURN 1,1\nTURN 2,2\nEND\n");
        assert_eq!(code, 0);
        assert_eq!(out, "OK\n7,7\n15,3\nMESSAGE hi\n8,6\n");
        let (code, out) = run("h8 crash", "START 15\nBEGIN\nTURN 1,1\n");
        assert_eq!((code, out.as_str()), (3, "OK\n7,7\n"));
        let (code, out) = run("hang", "START 15\nBEGIN\nTURN 1,1\nEND\n");
        assert_eq!((code, out.as_str()), (0, "OK\n"));
        assert_eq!(run("h8 zz", "").0, 2);
    }
}
