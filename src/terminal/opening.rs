//! `play --opening-rule R`: the person negotiates the opening against the engine, each step explained, before the
//! game is played on. The rule's referee judges the person's answers as it judges an engine's: a step that breaks
//! the rule gets its reason and the question again.

use super::board_text;
use crate::engine::Engine;
use crate::opening_rule::{Negotiation, OpeningRule, Player};
use crate::opening_text;
use crate::problems::Problems;
use crate::types::{Color, Pos, Rule};
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What the negotiation left: the stones in move order and the person's colour; `None` when the person left.
pub(super) type Settled = Option<(Vec<Pos>, Color)>;

/// Negotiates under `rule` (its game played under `gomoku`) with the person as `person` (the first player is
/// tentative Black), through `input` and `out`; an error that ends it goes on `problems`.
pub(super) fn negotiate(
    engine: &mut Engine,
    rule: OpeningRule,
    gomoku: Rule,
    person: Player,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    problems: &mut Problems,
) -> io::Result<Settled> {
    let size = engine.board().size();
    let mut neg = match Negotiation::new(rule, size, gomoku) {
        Ok(n) => n,
        Err(e) => {
            problems.fail(e)?;
            return Ok(None);
        }
    };
    let who = if person == Player::First { "tentative Black (the first player)" } else { "the second player" };
    writeln!(out, "Opening rule {rule}: you are {who}. {}", opening_text::summary(rule))?;
    let stop = AtomicBool::new(false);
    let mut line = String::new();
    while let Some(turn) = neg.turn() {
        let colour = |p: Player| if neg.black() == p { "Black" } else { "White" };
        if turn.player != person {
            let Some(action) = engine.negotiate(&neg, Instant::now(), &stop) else { break };
            writeln!(out, "Tengen ({}) {}", colour(turn.player), action.describe(size))?;
            if let Err(e) = neg.apply(action) {
                // The engine's own actions keep to the rule; should one not, say so rather than go on.
                problems.fail(format_args!("Tengen's step breaks the rule ({e})"))?;
                return Ok(None);
            }
            continue;
        }
        writeln!(out, "{}", board_text(neg.board(), &[]))?;
        writeln!(out, "You ({}): {}", colour(person), opening_text::ask(&turn.request, size))?;
        loop {
            write!(out, "> ")?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 || line.trim().eq_ignore_ascii_case("quit") {
                writeln!(out, "Opening left unfinished.")?;
                return Ok(None);
            }
            match opening_text::read(&turn.request, line.trim(), size)
                .and_then(|a| neg.apply(a).map_err(|e| e.describe(size)))
            {
                Ok(()) => break,
                Err(e) => writeln!(out, "{e}; {}", opening_text::ask(&turn.request, size))?,
            }
        }
    }
    let colour = if neg.black() == person { Color::Black } else { Color::White };
    writeln!(out, "The opening is settled: you play {}.", if colour == Color::Black { "Black" } else { "White" })?;
    Ok(Some((neg.stones().to_vec(), colour)))
}
