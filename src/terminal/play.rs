//! A game against the engine in the terminal (`pbrain-tengen play`). The board is drawn after every move with the last move in
//! brackets and, in renju, Black's forbidden points as `#`; moves are typed as `h8`, with `undo`, `hint` and
//! `quit`. A bad entry gets a one-line reason and the prompt again; the game ends as the rules say.

use super::board_text;
use crate::engine::Engine;
use crate::opening_rule::{OpeningRule, Player};
use crate::pattern::MoveOutcome;
use crate::problems::Problems;
use crate::types::{Color, Pos, Rule};
use std::io::{self, BufRead, Write};

/// What `play` was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// The person's colour.
    pub human: Color,
    /// The engine's time a move, in milliseconds.
    pub ms: u64,
    /// Negotiate the opening by this rule first (the person is tentative Black with `--black`, the default).
    pub opening_rule: Option<OpeningRule>,
}

/// A colour's name.
fn name(c: Color) -> &'static str {
    if c == Color::Black { "Black" } else { "White" }
}

/// Plays one game: the person's moves come from `input`, everything else goes to `out`, but for an error that ends
/// the game at its start (on `problems`).
///
/// # Errors
/// Output I/O errors only (the end of the input ends the game).
pub fn play(
    opts: &PlayOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    problems: &mut Problems,
) -> io::Result<()> {
    let rule = opts.opening_rule.map_or(opts.rule, |o| o.game_rule(opts.rule));
    let Ok(mut engine) = Engine::new(opts.size, rule) else {
        return problems.fail(format_args!("board size {} is not supported", opts.size));
    };
    engine.configure(|s| s.clock.turn_ms = opts.ms);
    let size = opts.size;
    let mut human = opts.human;
    // The stones before this many moves are the opening's: undo does not take them back.
    let mut fixed = 0;
    if let Some(opening_rule) = opts.opening_rule {
        let person = if opts.human == Color::Black { Player::First } else { Player::Second };
        let Some((stones, colour)) =
            super::opening::negotiate(&mut engine, opening_rule, opts.rule, person, input, out, problems)?
        else {
            return out.flush();
        };
        let placed: Vec<(Pos, Color)> = stones.iter().enumerate().map(|(i, &p)| (p, Color::to_move(i))).collect();
        if let Err(e) = engine
            .new_game(size, rule)
            .map_err(|e| e.to_string())
            .and_then(|()| engine.set_up(&placed).map_err(|e| e.to_string()))
        {
            return problems.fail(e);
        }
        human = colour;
        fixed = stones.len();
    }
    let opts = &PlayOptions { human, rule, ..*opts };
    writeln!(
        out,
        "Tengen, {} rule, {size}x{size}: you play {} (X is Black, O is White{}).",
        opts.rule,
        name(opts.human),
        if opts.rule == Rule::Renju { ", # a point forbidden for Black" } else { "" }
    )?;
    writeln!(out, "Type a move like h8, or undo, hint, quit.")?;
    let mut line = String::new();
    loop {
        let side = engine.side_to_move();
        if let Some(result) = result(&engine) {
            writeln!(out, "{}", board(&engine))?;
            writeln!(out, "{result}")?;
            return out.flush();
        }
        if side != opts.human {
            let report = engine.think(None, |_| {});
            let Some(m) = report.best else {
                writeln!(out, "Draw: no legal move is left.")?;
                return out.flush();
            };
            let seen = outlook(&engine, report.score, side);
            let outcome = engine.play(m, side);
            writeln!(out, "Tengen plays {} (Tengen: {seen})", m.notation(size))?;
            if let Ok(MoveOutcome::Forbidden(kind)) = outcome {
                writeln!(out, "(a {kind}: forbidden)")?;
            }
            continue;
        }
        writeln!(out, "{}", board(&engine))?;
        write!(out, "{} to move> ", name(side))?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return out.flush();
        }
        let word = line.trim().to_ascii_lowercase();
        match word.as_str() {
            "" => {}
            "quit" | "q" | "exit" => {
                writeln!(out, "Game left unfinished.")?;
                return out.flush();
            }
            "undo" | "u" => {
                // Back to the person's previous turn: the engine's answer and the person's move before it.
                let moves = engine.board().board().moves();
                let mine = moves.iter().skip(fixed).filter(|&&(_, c)| c == opts.human).count();
                if mine == 0 {
                    writeln!(out, "Nothing to take back: you have not moved yet.")?;
                    continue;
                }
                while let Ok((_, c)) = engine.undo() {
                    if c == opts.human {
                        break;
                    }
                }
                writeln!(out, "Taken back.")?;
            }
            "hint" | "h" => {
                let report = engine.think(None, |_| {});
                match report.best {
                    Some(m) => {
                        let seen = outlook(&engine, report.score, side);
                        writeln!(out, "Hint: {} (you: {seen} with it)", m.notation(size))?;
                    }
                    None => writeln!(out, "Hint: no legal move.")?,
                }
            }
            _ => match Pos::parse(&word, size) {
                Err(e) => writeln!(out, "{e}; type a move like h8, or undo, hint, quit.")?,
                Ok(p) if !engine.board().board().is_empty(p) => {
                    writeln!(out, "{} is taken; choose an empty point.", p.notation(size))?;
                }
                Ok(p) => {
                    let mut pb = engine.board().clone();
                    if let Some(kind) = pb.forbidden_kind(p).filter(|_| side == Color::Black) {
                        writeln!(
                            out,
                            "{} is forbidden for Black ({kind}): it would lose; choose another.",
                            p.notation(size)
                        )?;
                        continue;
                    }
                    if let Err(e) = engine.play(p, side) {
                        writeln!(out, "{}: {e}", p.notation(size))?;
                    }
                }
            },
        }
    }
}

/// The board as drawn for the person.
fn board(engine: &Engine) -> String {
    let mut pb = engine.board().clone();
    let forbidden = if engine.board().rule().has_forbidden() { pb.forbidden_points() } else { Vec::new() };
    board_text(&pb, &forbidden)
}

/// How the game ended, if it has.
fn result(engine: &Engine) -> Option<String> {
    let moves = engine.board().board().moves();
    let size = engine.board().size();
    if let Some(winner) = engine.winner() {
        let &(last, c) = moves.last()?;
        return Some(if c == winner {
            format!("{} wins: {} makes five.", name(winner), last.notation(size))
        } else {
            format!("{} wins: Black's {} is forbidden.", name(winner), last.notation(size))
        });
    }
    engine.board().board().is_full().then(|| "Draw: the board is full.".to_string())
}

/// What a search of the engine's position that scored `score` for `side`, to move, means for `side`: its win rate on
/// the calibrated curve, or a win or loss in so many moves.
fn outlook(engine: &Engine, score: i32, side: Color) -> String {
    let pb = engine.board();
    let text = crate::engine::Outlook::of(score, side, side, pb.rule(), pb.board().stone_count()).text();
    if text.ends_with('%') { format!("win rate {text}") } else { text }
}
