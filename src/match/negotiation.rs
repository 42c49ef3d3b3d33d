//! An opening negotiation between two engine processes under an opening rule, before the game proper: each step
//! goes to the deciding engine as its protocol command (the `yx…step` commands of `protocol::opening_steps`, or
//! `SWAP2BOARD` for Swap2), the reply is read back into an action, and the rule's referee checks it. An engine that
//! breaks the rule, answers nothing in time or crashes forfeits.

use super::process::{EngineProcess, Read};
use super::terms::{Forfeit, GameSetup, parse_move};
use crate::opening_rule::{Action, Negotiation, OpeningRule, Player, Request};
use crate::protocol::opening_steps::OpeningStep;
use crate::types::{Color, Pos};
use std::time::{Duration, Instant};

/// A refused negotiation: who forfeits (and the colour they held then), and why.
pub(super) type Refused = (Player, Color, Forfeit);

/// Runs the negotiation; `engines` are the first and the second player's processes. Each accepted step is described
/// in `record` with its player.
pub(super) fn negotiate(
    setup: &GameSetup,
    rule: OpeningRule,
    engines: &mut [Option<EngineProcess>; 2],
    record: &mut Vec<(Player, String)>,
) -> Result<Negotiation, Refused> {
    let mut neg = Negotiation::new(rule, setup.size, setup.rule)
        .map_err(|e| (Player::First, Color::Black, Forfeit::Opening(e)))?;
    while let Some(turn) = neg.turn() {
        let player = turn.player;
        let color = if neg.black() == player { Color::Black } else { Color::White };
        let refuse = |f: Forfeit| (player, color, f);
        let index = if player == Player::First { 0 } else { 1 };
        let engine = engines[index].as_mut().ok_or_else(|| refuse(Forfeit::Crash))?;
        engine.resume();
        let started = Instant::now();
        let deadline = started + Duration::from_millis(setup.turn_ms + setup.tolerance_ms);
        let action = if rule == OpeningRule::Swap2 {
            swap2_step(engine, &neg, &turn.request, deadline)
        } else {
            rule_step(engine, &neg, &turn.request, deadline)
        }
        .map_err(refuse)?;
        if setup.suspend {
            engine.suspend();
        }
        let text = action.describe(setup.size);
        neg.apply(action).map_err(|b| refuse(Forfeit::Opening(b.to_string())))?;
        record.push((player, text));
    }
    Ok(neg)
}

/// One step of a renju opening rule over its `yx…step` command.
fn rule_step(
    engine: &mut EngineProcess,
    neg: &Negotiation,
    request: &Request,
    deadline: Instant,
) -> Result<Action, Forfeit> {
    let step = OpeningStep::for_turn(neg).ok_or_else(|| Forfeit::Opening("no command for this step".into()))?;
    for line in step.command_lines() {
        engine.send(&line).map_err(|_| Forfeit::Crash)?;
    }
    let mut lines = Vec::new();
    while !step.reply_complete(request, &lines) {
        let line = read_line(engine, deadline)?;
        if line.trim().to_ascii_uppercase().starts_with("ERROR") {
            return Err(Forfeit::Opening(format!("answered '{}'", line.trim())));
        }
        lines.push(line);
    }
    step.parse_reply(request, &lines).map_err(Forfeit::Opening)
}

/// One step of Swap2 over `SWAP2BOARD` (the Gomocup form: 0, 3 or 5 stones; the answer is three stones, `SWAP`,
/// one move or two stones, read from the side to move).
fn swap2_step(
    engine: &mut EngineProcess,
    neg: &Negotiation,
    request: &Request,
    deadline: Instant,
) -> Result<Action, Forfeit> {
    engine.send("SWAP2BOARD").map_err(|_| Forfeit::Crash)?;
    for p in neg.stones() {
        engine.send(&format!("{},{}", p.x, p.y)).map_err(|_| Forfeit::Crash)?;
    }
    engine.send("DONE").map_err(|_| Forfeit::Crash)?;
    loop {
        let line = read_line(engine, deadline)?;
        let text = line.trim().to_ascii_uppercase();
        if text.starts_with("ERROR") {
            return Err(Forfeit::Opening(format!("answered '{}' to SWAP2BOARD", line.trim())));
        }
        let swap = text.starts_with("SWAP");
        if !swap && !text.contains(',') {
            continue; // OK to START, MESSAGE, DEBUG and the like
        }
        let points: Option<Vec<Pos>> = text
            .split_whitespace()
            .map(|w| {
                let (x, y) = parse_move(w)?;
                ((0..256).contains(&x) && (0..256).contains(&y)).then(|| Pos::new(x as usize, y as usize))
            })
            .collect();
        let bad = || Forfeit::Opening(format!("answered '{}' to SWAP2BOARD", line.trim()));
        return match (request, swap, points) {
            (Request::Place { .. }, false, Some(stones)) => Ok(Action::Place(stones, None)),
            (Request::Swap2, true, _) => Ok(Action::Swap(true)),
            (Request::Swap2, false, Some(stones)) => Ok(Action::Place(stones, None)),
            // Five stones, White to move: SWAP takes Black (the first player keeps it), a move takes White.
            (Request::Swap, true, _) => Ok(Action::Swap(false)),
            (Request::Swap, false, Some(stones)) if stones.len() == 1 => Ok(Action::Swap(true)),
            _ => Err(bad()),
        };
    }
}

/// The next line of the engine's output, or the forfeit when none comes in time.
fn read_line(engine: &mut EngineProcess, deadline: Instant) -> Result<String, Forfeit> {
    match engine.read_until(deadline) {
        Read::Line(line) => Ok(line),
        Read::Timeout => Err(Forfeit::Opening("no answer in time".to_string())),
        Read::Closed => Err(Forfeit::Crash),
    }
}
