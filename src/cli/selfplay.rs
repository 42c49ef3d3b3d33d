//! `selfplay`: its options read into a self-play match ([`crate::selfplay`]), which plays it and prints the report.

use super::OptionCursor;
use crate::eval::{EvalChoice, Weights, WeightsRef};
use crate::matches::Shard;
use crate::search::params::Params;
use crate::selfplay::{Match, OpeningChoice};

/// Parses the options of `selfplay`.
///
/// # Errors
/// A message naming a bad or unknown option.
pub fn parse_selfplay(args: &[String]) -> Result<Match, String> {
    let mut m = Match::default();
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&name, &inline);
        let mut number = |what: &str| -> Result<u64, String> {
            let v = value()?;
            v.trim().parse().map_err(|_| format!("bad {what} '{v}'"))
        };
        let depth = |d: u64| d.min(crate::search::MAX_DEPTH as u64) as i32;
        match name.as_str() {
            "--rule" => m.rule = value()?.parse()?,
            "--games" => m.games = number("game count")? as usize,
            "--turn-ms" => m.turn_ms = number("time")?,
            "--match-ms" => m.match_ms = number("time")?,
            "--draw-at" => m.draw_at = Some(number("stone count")? as usize),
            "--max-memory" => m.max_memory = number("memory limit")?,
            "--a-depth" => m.a.depth = depth(number("depth")?),
            "--b-depth" => m.b.depth = depth(number("depth")?),
            "--nodes" => (m.a.nodes, m.b.nodes) = number("node count").map(|n| (n, n))?,
            "--a-nodes" => m.a.nodes = number("node count")?,
            "--b-nodes" => m.b.nodes = number("node count")?,
            "--a-no-threats" if inline.is_none() => m.a.threats = false,
            "--b-no-threats" if inline.is_none() => m.b.threats = false,
            "--weights" => {
                (m.a.weights, m.b.weights) = Weights::load(&value()?).map(|w| (WeightsRef(w), WeightsRef(w)))?
            }
            "--a-weights" => m.a.weights = WeightsRef(Weights::load(&value()?)?),
            "--b-weights" => m.b.weights = WeightsRef(Weights::load(&value()?)?),
            "--eval" => (m.a.eval, m.b.eval) = value()?.parse::<EvalChoice>().map(|e| (e, e))?,
            "--a-eval" => m.a.eval = value()?.parse::<EvalChoice>()?,
            "--b-eval" => m.b.eval = value()?.parse::<EvalChoice>()?,
            "--network" => (m.a.eval, m.b.eval) = EvalChoice::load(&value()?).map(|e| (e, e))?,
            "--params" => (m.a.params, m.b.params) = Params::load(&value()?).map(|p| (p, p))?,
            "--a-params" => m.a.params = Params::load(&value()?)?,
            "--b-params" => m.b.params = Params::load(&value()?)?,
            "--a-network" => m.a.eval = EvalChoice::load(&value()?)?,
            "--b-network" => m.b.eval = EvalChoice::load(&value()?)?,
            "--concurrency" => m.concurrency = (number("game count")? as usize).clamp(1, 64),
            "--record" => m.record = Some(value()?),
            "--resume" if inline.is_none() => m.resume = true,
            "--openings" => {
                m.openings = match value()?.as_str() {
                    "renju26" => OpeningChoice::Renju26,
                    "varied" => OpeningChoice::Varied,
                    path => OpeningChoice::Listed(crate::openings::read_openings_file(path, 15, m.rule)?),
                }
            }
            "--random-plies" => m.random_plies = number("move count")? as usize,
            "--opening-plies" => m.opening_plies = number("move count")? as usize,
            "--seed" => m.seed = number("seed")?,
            "--shard" => m.shard = Some(Shard::parse(&value()?)?),
            "--sprt" => m.sprt = Some(crate::matches::Sprt::parse(&value()?)?),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if m.resume && m.record.is_none() {
        return Err("--resume goes on with the game file of --record: give it".to_string());
    }
    Ok(m)
}
