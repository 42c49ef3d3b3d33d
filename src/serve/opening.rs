//! An opening rule negotiated on the browser board: the person answers each of their steps in words (the same
//! answers as `play --opening-rule`: points such as `h8 h9 j10`, `swap` or `keep`, the declared number last), the
//! engine takes its own steps at once, and the referee refuses a step that breaks the rule with the reason.

use super::Refused;
use crate::engine::Engine;
use crate::opening_rule::{Negotiation, OpeningRule, Player};
use crate::opening_text;
use crate::search::time::Clock;
use crate::types::{Color, Pos, Rule};
use serde_json::{Value, json};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A negotiation between the person and the engine.
pub struct OpeningSession {
    rule: OpeningRule,
    negotiation: Negotiation,
    person: Player,
    engine: Engine,
}

impl OpeningSession {
    /// Starts negotiating `rule` on an empty board, the person as `person`; the engine takes its steps (`ms` a
    /// step) until the person's turn or the end.
    ///
    /// # Errors
    /// A rule that does not fit the board, or an engine step the referee refuses (a bug, reported as 409).
    pub fn start(rule: OpeningRule, size: usize, gomoku: Rule, person: Player, ms: u64) -> Result<Self, Refused> {
        let negotiation = Negotiation::new(rule, size, gomoku).map_err(|e| Refused::new(400, e.to_string()))?;
        let mut engine = Engine::new(size, gomoku).map_err(|e| Refused::new(400, e.to_string()))?;
        engine.set_hash_bytes(16 << 20);
        engine.configure(|s| s.clock = Clock { turn_ms: ms, match_ms: 0, left_ms: None });
        let mut session = OpeningSession { rule, negotiation, person, engine };
        session.engine_steps()?;
        Ok(session)
    }

    /// The engine's steps while it is the engine's turn.
    fn engine_steps(&mut self) -> Result<(), Refused> {
        let stop = AtomicBool::new(false);
        while let Some(turn) = self.negotiation.turn() {
            if turn.player == self.person {
                break;
            }
            let Some(action) = self.engine.negotiate(&self.negotiation, Instant::now(), &stop) else { break };
            self.negotiation
                .apply(action)
                .map_err(|e| Refused::new(409, format!("Tengen's step broke the rule: {e}")))?;
        }
        Ok(())
    }

    /// The person's answer to their step, then the engine's steps.
    ///
    /// # Errors
    /// A 409 when it is not the person's turn, a 400 with the reason and the question again when the answer cannot
    /// be read or breaks the rule (nothing changes then).
    pub fn answer(&mut self, text: &str) -> Result<(), Refused> {
        let size = self.negotiation.board().size();
        let turn = self.negotiation.turn().ok_or_else(|| Refused::new(409, "the opening is settled"))?;
        if turn.player != self.person {
            return Err(Refused::new(409, "it is Tengen's step"));
        }
        opening_text::read(&turn.request, text, size)
            .and_then(|a| self.negotiation.apply(a).map_err(|e| e.describe(size)))
            .map_err(|e| Refused::new(400, format!("{e}; {}", opening_text::ask(&turn.request, size))))?;
        self.engine_steps()
    }

    /// The rule negotiated.
    pub fn rule(&self) -> OpeningRule {
        self.rule
    }

    /// The stones placed so far, in move order.
    pub fn stones(&self) -> &[Pos] {
        self.negotiation.stones()
    }

    /// Whether the negotiation is still going on.
    pub fn under_way(&self) -> bool {
        self.negotiation.turn().is_some()
    }

    /// The person's colour (final once the negotiation is settled).
    pub fn person_colour(&self) -> Color {
        if self.negotiation.black() == self.person { Color::Black } else { Color::White }
    }

    /// The negotiation as JSON: the rule and its summary, each step taken in words, the person's colour, and the
    /// question when it is the person's turn (`offers` when White chooses among them).
    pub fn json(&self) -> Value {
        let size = self.negotiation.board().size();
        let steps: Vec<String> = self
            .negotiation
            .record()
            .iter()
            .map(|(player, action)| {
                let who = if *player == self.person { "You" } else { "Tengen" };
                format!("{who}: {}", action.describe(size))
            })
            .collect();
        let question = self.negotiation.turn().map(|t| opening_text::ask(&t.request, size));
        json!({
            "rule": self.rule.to_string(),
            "summary": opening_text::summary(self.rule),
            "steps": steps,
            "you": if self.person_colour() == Color::Black { "black" } else { "white" },
            "question": question,
            "offers": self.negotiation.offers().iter().map(|p| p.notation(size)).collect::<Vec<_>>(),
            "done": !self.under_way(),
        })
    }
}
