//! The opening rules' step commands in Yixin-Board's style: `yxsoosorvstep1–6` as Yixin-Board sends them, and in
//! the same form `yxrifstep1–5`, `yxyamaguchistep1–5 [N]` and `yxtaraguchistep1–4 N`. A step's block holds the
//! stones so far (`x,y` lines in move order, then the offered fifth moves where White chooses) and `DONE`; the
//! engine answers `MESSAGE <RULE> …` lines. Both sides of the conversation live here: the engine reads a step into
//! the negotiation it stands at and renders its action; the match runner writes the step for a negotiation's turn
//! and reads the reply back into an action.
//!
//! | rule | step | stones | asks |
//! |---|---|---|---|
//! | RIF, Yamaguchi | 1 | 0 | the opening (`MOVE1–3`; Yamaguchi also `N n`) |
//! | | 2 | 3 | swap (`SWAP1 Y/N`) |
//! | | 3 | 3 | White's 4th (`MOVE4 a b`) |
//! | | 4 | 4 | Black's offers (`MOVE5 REFRESH`, `MOVE5 a b` ×N, `MOVE5 DONE`) |
//! | | 5 | 4 + N | White's choice (`MOVE5C a b`) |
//! | Soosõrv-N | 1 | 0 | the opening |
//! | | 2 | 3 | swap 1 |
//! | | 3 | 3 | White's 4th and N (`MOVE4 a b N`) |
//! | | 4 N | 4 | swap 2 (`SWAP2 Y/N`) |
//! | | 5 N | 4 | Black's N offers |
//! | | 6 | 4 + N | White's choice |
//! | Taraguchi-N | 1 N | k (0–3) | stone k + 1 in its square (`MOVEk+1 a b`) |
//! | | 2 N | k (1–5) | swap after stone k (`SWAPk Y/N`) |
//! | | 3 N | 4 | Black's fifth within 9×9 (`MOVE5 a b`) or N offers |
//! | | 4 N | 4 + N | White's choice |

use crate::opening_rule::{Action, Negotiation, OpeningRule, Request};
use crate::types::{Pos, Rule};

/// One step command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningStep {
    /// The rule (Soosõrv's N is 8 as Yixin-Board plays it, Taraguchi's the command's N).
    pub rule: OpeningRule,
    /// The step, from 1.
    pub step: u8,
    /// The N the command carries (0 when it carries none).
    pub n: usize,
    /// The block's stones.
    pub stones: Vec<Pos>,
}

/// The rule family of a command name (upper case, without the step digit), and its number of steps.
fn family(name: &str) -> Option<(&'static str, u8)> {
    match name {
        "YXRIFSTEP" => Some(("RIF", 5)),
        "YXYAMAGUCHISTEP" => Some(("YAMAGUCHI", 5)),
        "YXSOOSORVSTEP" => Some(("SOOSORV", 6)),
        "YXTARAGUCHISTEP" => Some(("TARAGUCHI", 4)),
        _ => None,
    }
}

/// The `MESSAGE` word of a rule.
fn word(rule: OpeningRule) -> &'static str {
    match rule {
        OpeningRule::Rif => "RIF",
        OpeningRule::Yamaguchi => "YAMAGUCHI",
        OpeningRule::Soosorv(_) => "SOOSORV",
        OpeningRule::Taraguchi(_) => "TARAGUCHI",
        OpeningRule::Swap2 => "SWAP2",
    }
}

impl OpeningStep {
    /// Reads a command word (`yxrifstep3`, any case) and its argument: the step, N, and whether a block of stones
    /// follows. `None` when the word is no step command; `Some(Err)` for a bad step or N.
    #[must_use]
    pub fn parse(word: &str, rest: &str) -> Option<Result<(OpeningStep, bool), String>> {
        let upper = word.to_ascii_uppercase();
        let digits = upper.trim_start_matches(|c: char| !c.is_ascii_digit());
        let (name, _) = upper.split_at(upper.len() - digits.len());
        let (rule_word, steps) = family(name)?;
        Some((|| {
            let step: u8 = digits.parse().ok().filter(|s| (1..=steps).contains(s)).ok_or_else(|| {
                format!("{} has steps 1 to {steps}", word.trim_end_matches(|c: char| c.is_ascii_digit()))
            })?;
            let n: Option<usize> =
                rest.trim().parse().ok().filter(|n| (1..=crate::opening_rule::MAX_DECLARED).contains(n));
            let needs_n = match rule_word {
                "TARAGUCHI" => true,
                "SOOSORV" => step == 4 || step == 5,
                "YAMAGUCHI" => (2..=4).contains(&step),
                _ => false,
            };
            if needs_n && n.is_none() {
                return Err(format!(
                    "{word} needs the number of fifth moves (1 to {})",
                    crate::opening_rule::MAX_DECLARED
                ));
            }
            let n = n.unwrap_or(0);
            let rule = match rule_word {
                "RIF" => OpeningRule::Rif,
                "YAMAGUCHI" => OpeningRule::Yamaguchi,
                "SOOSORV" => OpeningRule::Soosorv(8),
                _ => OpeningRule::Taraguchi(n),
            };
            let block = !(step == 1 && rule_word != "TARAGUCHI");
            Ok((OpeningStep { rule, step, n, stones: Vec::new() }, block))
        })())
    }

    /// The negotiation this step stands at: the stones replayed by the rule (a swap changes no stone, so each is
    /// replayed as not taken; the deciding player's colour is what the step says).
    ///
    /// # Errors
    /// A message when the stones do not fit the step or break the rule.
    pub fn negotiation(&self, size: usize) -> Result<Negotiation, String> {
        let mut neg = Negotiation::new(self.rule, size, Rule::Renju)?;
        let s = &self.stones;
        let name = format!("yx{}step{}", word(self.rule).to_ascii_lowercase(), self.step);
        let need = |count: usize, exact: bool| -> Result<(), String> {
            let ok = if exact { s.len() == count } else { s.len() > count };
            let more = if exact { "" } else { " and the offers" };
            if ok { Ok(()) } else { Err(format!("{name} needs {count} stones{more}, not {}", s.len())) }
        };
        let apply = |neg: &mut Negotiation, action: Action| neg.apply(action).map_err(|e| format!("{name}: {e}"));
        match (self.rule, self.step) {
            (OpeningRule::Taraguchi(_), step) => {
                let (count, swap_last) = match step {
                    1 => (s.len(), true),
                    2 => (s.len(), false),
                    _ => (4, true),
                };
                match step {
                    1 if s.len() > 3 => return Err(format!("{name} needs 0 to 3 stones, not {}", s.len())),
                    2 if s.is_empty() || s.len() > 5 => {
                        return Err(format!("{name} needs 1 to 5 stones, not {}", s.len()));
                    }
                    3 => need(4, true)?,
                    4 => need(4, false)?,
                    _ => {}
                }
                for (i, &p) in s[..count].iter().enumerate() {
                    apply(&mut neg, Action::Place(vec![p], None))?;
                    if swap_last || i + 1 < count {
                        apply(&mut neg, Action::Swap(false))?;
                    }
                }
                if step == 4 {
                    apply(&mut neg, Action::Offer(s[4..].to_vec()))?;
                }
            }
            (_, 1) => {}
            (rule, step) => {
                need(3, step <= 3)?;
                if step >= 4 {
                    need(4, step == 4 || (rule == OpeningRule::Soosorv(8) && step == 5))?;
                }
                let declared = (rule == OpeningRule::Yamaguchi).then(|| match self.n {
                    0 => s.len().saturating_sub(4).max(1),
                    n => n,
                });
                apply(&mut neg, Action::Place(s[..3].to_vec(), declared))?;
                if step >= 3 {
                    apply(&mut neg, Action::Swap(false))?;
                }
                if step >= 4 {
                    let soosorv = matches!(rule, OpeningRule::Soosorv(_));
                    let declared = soosorv.then(|| if step == 6 { s.len() - 4 } else { self.n });
                    apply(&mut neg, Action::Place(vec![s[3]], declared))?;
                    if soosorv && step >= 5 {
                        apply(&mut neg, Action::Swap(false))?;
                    }
                    if (soosorv && step == 6) || (!soosorv && step == 5) {
                        apply(&mut neg, Action::Offer(s[4..].to_vec()))?;
                    }
                }
            }
        }
        if neg.turn().is_none() {
            return Err(format!("{name}: nothing is left to decide"));
        }
        Ok(neg)
    }

    /// The engine's reply to this step: its action as `MESSAGE <RULE> …` lines. `before` is the number of stones
    /// on the board before the action (the move numbers count from it).
    #[must_use]
    pub fn reply_lines(&self, action: &Action, before: usize) -> Vec<String> {
        let w = word(self.rule);
        let at = |p: &Pos| format!("{} {}", p.x, p.y);
        match action {
            Action::Place(stones, declared) => {
                let mut lines: Vec<String> = stones
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("MESSAGE {w} MOVE{} {}", before + i + 1, at(p)))
                    .collect();
                match (self.rule, declared) {
                    (OpeningRule::Soosorv(_), Some(n)) => {
                        if let Some(last) = lines.last_mut() {
                            last.push_str(&format!(" {n}"));
                        }
                    }
                    (_, Some(n)) => lines.push(format!("MESSAGE {w} N {n}")),
                    _ => {}
                }
                lines
            }
            Action::Swap(swap) => {
                let k = match self.rule {
                    OpeningRule::Soosorv(_) => before.saturating_sub(2),
                    OpeningRule::Taraguchi(_) => before,
                    _ => 1,
                };
                vec![format!("MESSAGE {w} SWAP{k} {}", if *swap { "Y" } else { "N" })]
            }
            Action::Offer(offers) => {
                let mut lines = vec![format!("MESSAGE {w} MOVE5 REFRESH")];
                lines.extend(offers.iter().map(|p| format!("MESSAGE {w} MOVE5 {}", at(p))));
                lines.push(format!("MESSAGE {w} MOVE5 DONE"));
                lines
            }
            Action::Choose(p) => vec![format!("MESSAGE {w} MOVE5C {}", at(p))],
        }
    }

    /// The step command for a negotiation's current turn (the match runner's side); `None` when it is over or
    /// the rule has no such commands (Swap2).
    #[must_use]
    pub fn for_turn(neg: &Negotiation) -> Option<OpeningStep> {
        let turn = neg.turn()?;
        let stones = neg.stones().len();
        let rule = neg.rule();
        let (step, n) = match (rule, &turn.request) {
            (OpeningRule::Swap2, _) => return None,
            (OpeningRule::Taraguchi(n), Request::Place { .. }) => (1, n),
            (OpeningRule::Taraguchi(n), Request::Swap) => (2, n),
            (OpeningRule::Taraguchi(n), Request::Offer { .. }) => (3, n),
            (OpeningRule::Taraguchi(n), _) => (4, n),
            (OpeningRule::Soosorv(_), req) => match (req, stones) {
                (Request::Place { .. }, 0) => (1, 0),
                (Request::Swap, 3) => (2, 0),
                (Request::Place { .. }, _) => (3, 0),
                (Request::Swap, _) => (4, neg.declared().unwrap_or(1)),
                (Request::Offer { count, .. }, _) => (5, *count),
                _ => (6, 0),
            },
            (_, req) => {
                let n = if rule == OpeningRule::Yamaguchi { neg.declared().unwrap_or(0) } else { 0 };
                match (req, stones) {
                    (Request::Place { .. }, 0) => (1, 0),
                    (Request::Swap, _) => (2, n),
                    (Request::Place { .. }, _) => (3, n),
                    (Request::Offer { .. }, _) => (4, n),
                    _ => (5, n),
                }
            }
        };
        let mut all = neg.stones().to_vec();
        all.extend_from_slice(neg.offers());
        Some(OpeningStep { rule, step, n, stones: all })
    }

    /// The lines of this command: the word (with N where the step carries one) and, with a block, the stones and
    /// `DONE`.
    #[must_use]
    pub fn command_lines(&self) -> Vec<String> {
        let w = word(self.rule).to_ascii_lowercase();
        let mut head = format!("yx{w}step{}", self.step);
        if self.n > 0 {
            head.push_str(&format!(" {}", self.n));
        }
        let mut lines = vec![head];
        let block = self.step != 1 || matches!(self.rule, OpeningRule::Taraguchi(_));
        if block {
            lines.extend(self.stones.iter().map(|p| format!("{},{}", p.x, p.y)));
            lines.push("done".to_string());
        }
        lines
    }

    /// Whether `lines` (an engine's output so far) hold a whole reply to `request`.
    #[must_use]
    pub fn reply_complete(&self, request: &Request, lines: &[String]) -> bool {
        let prefix = format!("MESSAGE {} ", word(self.rule));
        let ours: Vec<Vec<&str>> = lines
            .iter()
            .filter_map(|l| l.trim().strip_prefix(prefix.as_str()))
            .map(|rest| rest.split_whitespace().collect())
            .collect();
        fn first<'a>(f: &[&'a str]) -> &'a str {
            f.first().copied().unwrap_or("")
        }
        let refresh = ours.iter().any(|f| first(f) == "MOVE5" && f.get(1).is_some_and(|w| w.starts_with('R')));
        match request {
            Request::Swap => ours.iter().any(|f| first(f).starts_with("SWAP")),
            Request::Choose { .. } => ours.iter().any(|f| first(f) == "MOVE5C"),
            Request::Offer { .. } => ours.iter().any(|f| {
                first(f) == "MOVE5" && (f.get(1).is_some_and(|w| w.starts_with('D')) || (!refresh && f.len() >= 3))
            }),
            Request::Place { areas, declare } => {
                let moves: Vec<&Vec<&str>> = ours
                    .iter()
                    .filter(|f| first(f).starts_with("MOVE") && first(f) != "MOVE5C" && f.len() >= 3)
                    .collect();
                let declared = declare.is_none()
                    || ours.iter().any(|f| first(f) == "N")
                    || moves.last().is_some_and(|f| f.len() >= 4);
                moves.len() >= areas.len() && declared
            }
            Request::Swap2 => false,
        }
    }

    /// Reads an engine's `MESSAGE <RULE> …` reply lines into its action for `request` (other lines are ignored).
    ///
    /// # Errors
    /// A message when the reply does not answer the request.
    pub fn parse_reply(&self, request: &Request, lines: &[String]) -> Result<Action, String> {
        let prefix = format!("MESSAGE {} ", word(self.rule));
        let mut moves: Vec<(usize, Pos, Option<usize>)> = Vec::new();
        let (mut declared, mut swap, mut offers, mut chosen) = (None, None, Vec::new(), None);
        let number = |t: Option<&str>| t.and_then(|t| t.parse::<usize>().ok());
        for line in lines {
            let Some(rest) = line.trim().strip_prefix(&prefix) else { continue };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let point = |i: usize| match (number(fields.get(i).copied()), number(fields.get(i + 1).copied())) {
                (Some(x), Some(y)) if x < 256 && y < 256 => Some(Pos::new(x, y)),
                _ => None,
            };
            match fields.first().copied().unwrap_or("") {
                "N" => declared = number(fields.get(1).copied()),
                "MOVE5C" => chosen = point(1),
                "MOVE5" if fields.get(1).is_some_and(|f| f.starts_with(['R', 'D'])) => {}
                "MOVE5" if matches!(request, Request::Offer { .. }) && lines.iter().any(|l| l.contains("MOVE5 R")) => {
                    offers.extend(point(1));
                }
                f if f.starts_with("SWAP") => swap = fields.get(1).map(|a| a.starts_with(['Y', 'y'])),
                f if f.starts_with("MOVE") => {
                    let k = f[4..].parse::<usize>().unwrap_or(0);
                    if let Some(p) = point(1) {
                        moves.push((k, p, number(fields.get(3).copied())));
                    }
                }
                _ => {}
            }
        }
        let bad = || format!("no answer to {request:?} in the reply");
        match request {
            Request::Swap => swap.map(Action::Swap).ok_or_else(bad),
            Request::Choose { .. } => chosen.map(Action::Choose).ok_or_else(bad),
            Request::Offer { .. } if !offers.is_empty() => Ok(Action::Offer(offers)),
            Request::Offer { .. } => moves.first().map(|&(_, p, _)| Action::Place(vec![p], None)).ok_or_else(bad),
            Request::Place { declare, .. } => {
                if moves.is_empty() {
                    return Err(bad());
                }
                moves.sort_by_key(|&(k, _, _)| k);
                let declared = declare.and(declared.or_else(|| moves.last().and_then(|&(_, _, n)| n)));
                Ok(Action::Place(moves.iter().map(|&(_, p, _)| p).collect(), declared))
            }
            Request::Swap2 => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_with_their_n_and_block() {
        let parse = |w: &str, r: &str| OpeningStep::parse(w, r).expect("a step command");
        assert_eq!(
            parse("yxrifstep1", ""),
            Ok((OpeningStep { rule: OpeningRule::Rif, step: 1, n: 0, stones: vec![] }, false))
        );
        assert!(matches!(
            parse("YXTARAGUCHISTEP1", "10"),
            Ok((OpeningStep { rule: OpeningRule::Taraguchi(10), .. }, true))
        ));
        assert!(parse("yxtaraguchistep1", "").is_err());
        assert!(parse("yxrifstep6", "").is_err());
        assert!(parse("yxyamaguchistep3", "").is_err());
        assert!(OpeningStep::parse("yxswap2step1", "").is_none());
    }

    #[test]
    fn every_turn_of_a_negotiation_round_trips_through_its_command_and_reply() {
        // The runner writes the step for each turn; the engine side reads it back into the same negotiation state
        // and its reply is read back into the same action.
        let at = |s: &str| Pos::parse(s, 15).expect("point");
        for (rule, actions) in [
            (
                OpeningRule::Rif,
                vec![
                    Action::Place(vec![at("h8"), at("h9"), at("j10")], None),
                    Action::Swap(true),
                    Action::Place(vec![at("k12")], None),
                    Action::Offer(vec![at("g7"), at("f6")]),
                    Action::Choose(at("f6")),
                ],
            ),
            (
                OpeningRule::Yamaguchi,
                vec![
                    Action::Place(vec![at("h8"), at("i9"), at("j8")], Some(3)),
                    Action::Swap(false),
                    Action::Place(vec![at("c3")], None),
                    Action::Offer(vec![at("g7"), at("f6"), at("k10")]),
                    Action::Choose(at("k10")),
                ],
            ),
            (
                OpeningRule::Soosorv(8),
                vec![
                    Action::Place(vec![at("h8"), at("i9"), at("j8")], None),
                    Action::Swap(false),
                    Action::Place(vec![at("c3")], Some(2)),
                    Action::Swap(true),
                    Action::Offer(vec![at("g7"), at("f6")]),
                    Action::Choose(at("g7")),
                ],
            ),
            (
                OpeningRule::Taraguchi(10),
                vec![
                    Action::Place(vec![at("h8")], None),
                    Action::Swap(false),
                    Action::Place(vec![at("i9")], None),
                    Action::Swap(true),
                    Action::Place(vec![at("j10")], None),
                    Action::Swap(false),
                    Action::Place(vec![at("k11")], None),
                    Action::Swap(false),
                    Action::Place(vec![at("g4")], None),
                    Action::Swap(true),
                ],
            ),
        ] {
            let mut neg = Negotiation::new(rule, 15, Rule::Renju).expect("rule");
            for action in actions {
                let turn = neg.turn().expect("a turn");
                let step = OpeningStep::for_turn(&neg).expect("a step");
                let lines = step.command_lines();
                let (word, rest) = lines[0].split_once(' ').unwrap_or((&lines[0], ""));
                let (mut read, block) = OpeningStep::parse(word, rest).expect("step").expect("valid");
                if block {
                    read.stones = lines[1..lines.len() - 1]
                        .iter()
                        .map(|l| {
                            let (x, y) = l.split_once(',').expect("x,y");
                            Pos::new(x.parse().expect("x"), y.parse().expect("y"))
                        })
                        .collect();
                }
                let replayed = read.negotiation(15).unwrap_or_else(|e| panic!("{rule} {lines:?}: {e}"));
                assert_eq!(replayed.turn().map(|t| t.request), Some(turn.request.clone()), "{rule} {lines:?}");
                let reply = read.reply_lines(&action, neg.stones().len());
                assert!(step.reply_complete(&turn.request, &reply), "{rule} {reply:?}");
                assert!(!step.reply_complete(&turn.request, &reply[..reply.len() - 1]), "{rule} {reply:?}");
                assert_eq!(step.parse_reply(&turn.request, &reply), Ok(action.clone()), "{rule} {reply:?}");
                neg.apply(action).expect("legal");
            }
            assert!(neg.is_done(), "{rule}");
        }
    }
}
