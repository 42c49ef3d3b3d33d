//! SPSA, the tuner of the search's parameters by games (`pbrain-tengen spsa`).
//!
//! Simultaneous perturbation stochastic approximation, as engine authors run it: at iteration `k` every tuned
//! value `θᵢ` is moved by `±cₖᵢ` with a random sign `Δᵢ`, the two sets `θ + cₖΔ` and `θ − cₖΔ` play a pair of games
//! (colours swapped), and every value steps by `aₖᵢ / cₖᵢ · r · Δᵢ` where `r` is the first set's wins less its losses
//! over the pair. The perturbation shrinks as `cₖᵢ = cᵢ / k^γ` and the step as `aₖᵢ = aᵢ / (A + k)^α`, with the
//! constants chosen from the planned number of iterations `N` so that at the end the perturbation is the value's
//! `step` ([`Spec::step`]) and `aᵢ / cᵢ² = r_end` (the usual α = 0.602, γ = 0.101, A = N / 10).
//!
//! A run is a [`State`]: its settings, the values so far (real numbers; the games play them rounded) and the score
//! of the `+` sets, written to a text file after every batch so that a run resumes where it stopped. Iterations are
//! played in batches from one `θ`; each iteration's signs and opening come from the run's seed and the iteration's
//! number alone, so a run at fixed nodes plays the same games whatever the number of threads.

use crate::search::params::{Group, Params, Spec};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fmt::Write as _;

/// The exponent of the step's decay.
pub const ALPHA: f64 = 0.602;
/// The exponent of the perturbation's decay.
pub const GAMMA: f64 = 0.101;
/// The first line of a state file.
const MAGIC: &str = "tengen-spsa 1";

// A named selection keeps a bit for each tunable value.
const _: () = assert!(Params::SPECS.len() <= 128);

/// Which values a run tunes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// The search's (they matter at fixed nodes).
    Search,
    /// The time manager's (they matter only under a match clock).
    Time,
    /// The parts on trial ([`Group::Trial`]).
    Trial,
    /// All of them.
    All,
    /// The values named (a bit for each index of [`Params::SPECS`]): a bundle's values tuned as a whole, whatever
    /// their groups.
    Named(u128),
}

impl Selection {
    /// Whether `spec` is tuned.
    #[must_use]
    pub fn includes(self, spec: &Spec) -> bool {
        match self {
            Selection::Search => spec.group == Group::Search,
            Selection::Time => spec.group == Group::Time,
            Selection::Trial => spec.group == Group::Trial,
            Selection::All => true,
            Selection::Named(bits) => {
                Params::SPECS.iter().position(|s| s.name == spec.name).is_some_and(|i| bits >> i & 1 == 1)
            }
        }
    }

    /// The selection as a state file and `--tune` write it.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Selection::Search => "search".to_string(),
            Selection::Time => "time".to_string(),
            Selection::Trial => "trial".to_string(),
            Selection::All => "all".to_string(),
            Selection::Named(bits) => {
                let names: Vec<&str> =
                    Params::SPECS.iter().enumerate().filter(|(i, _)| bits >> i & 1 == 1).map(|(_, s)| s.name).collect();
                names.join(",")
            }
        }
    }
}

impl std::str::FromStr for Selection {
    type Err = String;
    fn from_str(s: &str) -> Result<Selection, String> {
        match s {
            "search" => Ok(Selection::Search),
            "time" => Ok(Selection::Time),
            "trial" => Ok(Selection::Trial),
            "all" => Ok(Selection::All),
            names => {
                let mut bits = 0u128;
                for name in names.split(',') {
                    let Some(i) = Params::SPECS.iter().position(|s| s.name == name) else {
                        return Err(format!(
                            "unknown parameter group or name '{name}' (search, time, trial, all or names with commas)"
                        ));
                    };
                    bits |= 1 << i;
                }
                Ok(Selection::Named(bits))
            }
        }
    }
}

/// The settings of a run and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The iterations planned (`N`): the schedule of the perturbation and the step follows it.
    pub iterations: u64,
    /// Iterations played.
    pub done: u64,
    /// Iterations per batch (played from one `θ`).
    pub batch: u64,
    /// The seed of the signs and the openings.
    pub seed: u64,
    /// `a / c²` at the end of the run.
    pub r_end: f64,
    /// Which values are tuned.
    pub selection: Selection,
    /// The games: the rule, nodes a move (0: by the clock), time a move and a game (ms), the evaluation.
    pub rule: String,
    /// See [`State::rule`].
    pub nodes: u64,
    /// See [`State::rule`].
    pub turn_ms: u64,
    /// See [`State::rule`].
    pub match_ms: u64,
    /// See [`State::rule`]: `default`, `classical`, `network` or a network file's path.
    pub eval: String,
    /// The `+` sets' wins, losses and draws so far.
    pub score: [u64; 3],
    /// `θ`, in the order of [`Params::SPECS`] (untuned values stay at their defaults).
    pub theta: Vec<f64>,
}

impl Default for State {
    fn default() -> State {
        State {
            iterations: 10_000,
            done: 0,
            batch: 8,
            seed: 1,
            r_end: 0.002,
            selection: Selection::Search,
            rule: "renju".to_string(),
            nodes: 20_000,
            turn_ms: 0,
            match_ms: 0,
            eval: "default".to_string(),
            score: [0; 3],
            theta: Params::SPECS.iter().map(|s| f64::from(s.default)).collect(),
        }
    }
}

/// One iteration's two sets of values and its signs.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration (from 0).
    pub iteration: u64,
    /// `θ + cₖΔ`, rounded and kept in range.
    pub plus: Params,
    /// `θ − cₖΔ`.
    pub minus: Params,
    /// `Δ` (0 for values not tuned).
    pub signs: Vec<f64>,
    /// A seed for the iteration's games (opening and random moves).
    pub game_seed: u64,
}

impl State {
    /// The tuned values' specs and indices.
    fn tuned(&self) -> impl Iterator<Item = (usize, &'static Spec)> + '_ {
        Params::SPECS.iter().enumerate().filter(move |(_, s)| self.selection.includes(s))
    }

    /// The parameters `θ` plays (rounded).
    #[must_use]
    pub fn params(&self) -> Params {
        Params::rounded(&self.theta)
    }

    /// The perturbation `cₖ` of value `spec` at iteration `k` (from 0).
    fn c(&self, spec: &Spec, k: u64) -> f64 {
        let n = self.iterations.max(1) as f64;
        spec.step * n.powf(GAMMA) / ((k + 1) as f64).powf(GAMMA)
    }

    /// The step `aₖ` of value `spec` at iteration `k` (from 0).
    fn a(&self, spec: &Spec, k: u64) -> f64 {
        let n = self.iterations.max(1) as f64;
        let big_a = n / 10.0;
        let a_end = self.r_end * spec.step * spec.step;
        a_end * (big_a + n).powf(ALPHA) / (big_a + (k + 1) as f64).powf(ALPHA)
    }

    /// Iteration `k`'s perturbation of the present `θ`: its signs come from the seed and `k` alone.
    #[must_use]
    pub fn perturb(&self, k: u64) -> Perturbation {
        let mut rng = StdRng::seed_from_u64(self.seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut signs = vec![0.0; self.theta.len()];
        let (mut plus, mut minus) = (self.theta.clone(), self.theta.clone());
        for (i, spec) in self.tuned() {
            let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            signs[i] = sign;
            let c = self.c(spec, k);
            plus[i] += c * sign;
            minus[i] -= c * sign;
        }
        Perturbation {
            iteration: k,
            plus: Params::rounded(&plus),
            minus: Params::rounded(&minus),
            signs,
            game_seed: rng.random(),
        }
    }

    /// Moves `θ` by an iteration's result: the `+` set's wins less its losses over its pair (`wins`, `losses`,
    /// `draws` of the `+` set).
    pub fn update(&mut self, p: &Perturbation, wins: u64, losses: u64, draws: u64) {
        let result = wins as f64 - losses as f64;
        let k = p.iteration;
        let steps: Vec<(usize, f64)> =
            self.tuned().map(|(i, spec)| (i, self.a(spec, k) / self.c(spec, k) * result * p.signs[i])).collect();
        for (i, step) in steps {
            let spec = &Params::SPECS[i];
            self.theta[i] = (self.theta[i] + step).clamp(f64::from(spec.min), f64::from(spec.max));
        }
        self.score[0] += wins;
        self.score[1] += losses;
        self.score[2] += draws;
    }

    /// The line of the parameter path: the iteration and every tuned value.
    #[must_use]
    pub fn path_line(&self) -> String {
        let mut line = format!("iteration {}", self.done);
        for (i, spec) in self.tuned() {
            let _ = write!(line, " {}={:.2}", spec.name, self.theta[i]);
        }
        line
    }

    /// The state file's text.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC}");
        let _ = writeln!(s, "iterations {}", self.iterations);
        let _ = writeln!(s, "done {}", self.done);
        let _ = writeln!(s, "batch {}", self.batch);
        let _ = writeln!(s, "seed {}", self.seed);
        let _ = writeln!(s, "r_end {}", self.r_end);
        let _ = writeln!(s, "tune {}", self.selection.name());
        let _ = writeln!(s, "rule {}", self.rule);
        let _ = writeln!(s, "nodes {}", self.nodes);
        let _ = writeln!(s, "turn_ms {}", self.turn_ms);
        let _ = writeln!(s, "match_ms {}", self.match_ms);
        let _ = writeln!(s, "eval {}", self.eval);
        let _ = writeln!(s, "score {} {} {}", self.score[0], self.score[1], self.score[2]);
        for (spec, v) in Params::SPECS.iter().zip(&self.theta) {
            // `{:?}` writes the shortest text that reads back as the same number.
            let _ = writeln!(s, "param {} {v:?}", spec.name);
        }
        s
    }

    /// Reads a state file's text.
    ///
    /// # Errors
    /// A message naming the line that is not understood, a value out of range or a missing setting.
    pub fn parse(text: &str) -> Result<State, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, l)) if l.trim() == MAGIC => {}
            _ => return Err(format!("not an SPSA state file (the first line should be '{MAGIC}')")),
        }
        let mut s = State::default();
        let mut seen = Vec::new();
        for (n, line) in lines {
            let at = |what: String| format!("line {}: {what}", n + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or_default();
            let rest: Vec<&str> = words.collect();
            let one = || -> Result<&str, String> {
                match rest.as_slice() {
                    [v] => Ok(*v),
                    _ => Err(at(format!("'{key}' takes one value"))),
                }
            };
            let int = || -> Result<u64, String> {
                let v = one()?;
                v.parse().map_err(|_| at(format!("bad {key} '{v}'")))
            };
            match key {
                "iterations" => s.iterations = int()?.max(1),
                "done" => s.done = int()?,
                "batch" => s.batch = int()?.max(1),
                "seed" => s.seed = int()?,
                "r_end" => {
                    let v = one()?;
                    s.r_end = v
                        .parse()
                        .ok()
                        .filter(|r: &f64| r.is_finite() && *r > 0.0)
                        .ok_or_else(|| at(format!("bad r_end '{v}'")))?;
                }
                "tune" => s.selection = one()?.parse().map_err(at)?,
                "rule" => s.rule = one()?.to_string(),
                "nodes" => s.nodes = int()?,
                "turn_ms" => s.turn_ms = int()?,
                "match_ms" => s.match_ms = int()?,
                "eval" => s.eval = one()?.to_string(),
                "score" => {
                    let parsed: Vec<u64> = rest.iter().filter_map(|v| v.parse().ok()).collect();
                    s.score = match parsed.as_slice() {
                        &[w, l, d] if rest.len() == 3 => [w, l, d],
                        _ => return Err(at("'score' takes three counts: wins, losses, draws".to_string())),
                    };
                }
                "param" => {
                    let [name, value] = rest.as_slice() else {
                        return Err(at("'param' takes a name and a value".to_string()));
                    };
                    let (i, v) = Params::parse_value(name, value).map_err(at)?;
                    s.theta[i] = v;
                }
                other => return Err(at(format!("unknown setting '{other}'"))),
            }
            if key != "param" {
                if seen.contains(&key) {
                    return Err(at(format!("'{key}' given twice")));
                }
                seen.push(key);
            }
        }
        for needed in ["iterations", "done", "seed", "rule"] {
            if !seen.contains(&needed) {
                return Err(format!("the state file has no '{needed}' line"));
            }
        }
        if s.done > s.iterations {
            return Err(format!("done {} is past iterations {}", s.done, s.iterations));
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_selection_tunes_its_values_whatever_their_groups_and_reads_back() {
        let sel: Selection = "lmp_curve_base,forced_lmr,lmr_base".parse().expect("names");
        let tuned: Vec<&str> = Params::SPECS.iter().filter(|s| sel.includes(s)).map(|s| s.name).collect();
        assert_eq!(tuned, ["lmr_base", "lmp_curve_base", "forced_lmr"]);
        assert_eq!(sel.name().parse::<Selection>(), Ok(sel));
        let state = State { selection: sel, ..State::default() };
        assert_eq!(State::parse(&state.to_text()).map(|s| s.selection), Ok(sel));
        assert!("lmr_base,nonsense".parse::<Selection>().is_err());
    }

    #[test]
    fn the_perturbation_ends_at_the_step_and_the_rate_at_r_end() {
        let s = State { iterations: 1_000, ..State::default() };
        let spec = &Params::SPECS[1];
        let last = s.iterations - 1;
        assert!((s.c(spec, last) - spec.step).abs() < 1e-9);
        assert!((s.a(spec, last) / s.c(spec, last).powi(2) - s.r_end).abs() < 1e-12);
        assert!(s.c(spec, 0) > s.c(spec, last) && s.a(spec, 0) > s.a(spec, last));
    }

    #[test]
    fn signs_come_from_the_seed_and_the_iteration_and_only_tuned_values_move() {
        let s = State { selection: Selection::Time, ..State::default() };
        let p = s.perturb(7);
        assert_eq!(p, s.perturb(7));
        assert_ne!(p.signs, s.perturb(8).signs);
        for (i, spec) in Params::SPECS.iter().enumerate() {
            let (plus, minus) = (p.plus.values()[i], p.minus.values()[i]);
            if spec.group == Group::Time {
                assert_ne!(plus, minus, "{}", spec.name);
            } else {
                assert_eq!((plus, minus), (spec.default, spec.default), "{}", spec.name);
            }
        }
    }

    #[test]
    fn a_win_of_the_plus_set_moves_theta_towards_it() {
        let mut s = State::default();
        let p = s.perturb(0);
        let before = s.theta.clone();
        s.update(&p, 2, 0, 0);
        for (i, spec) in Params::SPECS.iter().enumerate() {
            let moved = s.theta[i] - before[i];
            if s.selection.includes(spec) && before[i] > f64::from(spec.min) && before[i] < f64::from(spec.max) {
                assert!(moved * p.signs[i] > 0.0, "{} moved {moved}", spec.name);
            } else if !s.selection.includes(spec) {
                assert_eq!(moved, 0.0);
            }
        }
        assert_eq!(s.score, [2, 0, 0]);
    }
}
