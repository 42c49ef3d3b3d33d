//! The yardstick's results file and its report. One line a position, tab-separated, appended as each is answered
//! (so a stopped run resumes where it stopped and shards pool by concatenation):
//!
//! ```text
//! key  mover  played  chosen  score  played_score  depth  nodes  ms
//! ```
//!
//! `key` is the position's (`renju-2021/0_0_10_1.psq#7`: seven stones on the board), `mover` the engine that played
//! `played` there, `chosen` the measured engine's move (`-`: it did not answer), `score` its search's score for the
//! side to move and `played_score` that search's score for the played move alone (`-` where none: an outside engine,
//! or the same move). Lines starting with `#` say what was measured.

use crate::engine::Outlook;
use crate::types::{Color, Pos, Rule};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the measured engine answered in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The position's key.
    pub key: String,
    /// The engine whose move it was.
    pub mover: String,
    /// The move played in the game.
    pub played: Pos,
    /// The measured engine's move, if it answered.
    pub chosen: Option<Pos>,
    /// Its score for the side to move.
    pub score: Option<i32>,
    /// The score of the played move searched alone, where the engine chose another.
    pub played_score: Option<i32>,
    /// The search's depth (0 where unknown).
    pub depth: i32,
    /// Nodes searched (both searches).
    pub nodes: u64,
    /// Milliseconds taken (both searches).
    pub ms: u64,
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

impl Answer {
    /// Its line in a results file (moves in Gomocup's `x,y`).
    #[must_use]
    pub fn line(&self) -> String {
        let point = |p: Pos| format!("{},{}", p.x, p.y);
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.key,
            self.mover,
            point(self.played),
            opt(self.chosen.map(point)),
            opt(self.score),
            opt(self.played_score),
            self.depth,
            self.nodes,
            self.ms
        )
    }

    /// Reads a results line.
    ///
    /// # Errors
    /// A line of the wrong shape.
    pub fn parse(line: &str) -> Result<Answer, String> {
        let f: Vec<&str> = line.split('\t').collect();
        let [key, mover, played, chosen, score, played_score, depth, nodes, ms] = f[..] else {
            return Err(format!("{} fields, not 9", f.len()));
        };
        let point = |t: &str| -> Result<Pos, String> {
            let (x, y) = t.split_once(',').ok_or_else(|| format!("bad point '{t}'"))?;
            match (x.parse::<usize>(), y.parse::<usize>()) {
                (Ok(x), Ok(y)) if x < crate::types::MAX_SIZE && y < crate::types::MAX_SIZE => Ok(Pos::new(x, y)),
                _ => Err(format!("bad point '{t}'")),
            }
        };
        fn maybe(t: &str) -> Option<&str> {
            (t != "-").then_some(t)
        }
        let number = |t: &str| t.parse::<i64>().map_err(|_| format!("bad number '{t}'"));
        Ok(Answer {
            key: key.to_string(),
            mover: mover.to_string(),
            played: point(played)?,
            chosen: maybe(chosen).map(point).transpose()?,
            score: maybe(score).map(number).transpose()?.map(|s| s as i32),
            played_score: maybe(played_score).map(number).transpose()?.map(|s| s as i32),
            depth: number(depth)? as i32,
            nodes: number(nodes)?.max(0) as u64,
            ms: number(ms)?.max(0) as u64,
        })
    }

    /// The number of stones on the board (from the key).
    #[must_use]
    pub fn stones(&self) -> usize {
        self.key.rsplit('#').next().and_then(|n| n.parse().ok()).unwrap_or(0)
    }

    /// Whether the measured engine chose the played move.
    #[must_use]
    pub fn agrees(&self) -> bool {
        self.chosen == Some(self.played)
    }

    /// How far below its own choice the engine rates the played move, in points of its expected score (win rate) for
    /// the side to move on the evaluation's calibrated curve (a win 100, a loss 0): 0 where it agrees, `None` where
    /// the played move was not scored.
    #[must_use]
    pub fn regret(&self, rule: Rule) -> Option<f64> {
        if self.agrees() {
            return Some(0.0);
        }
        let stones = self.stones();
        let side = if stones % 2 == 0 { Color::Black } else { Color::White };
        let chance = |s: i32| 100.0 * Outlook::of(s, side, side, rule, stones).chance();
        Some(chance(self.score?) - chance(self.played_score?))
    }
}

/// The rule of a position key's league (renju unless its folder names another).
#[must_use]
pub fn rule_of_key(key: &str) -> Rule {
    let lower = key.to_ascii_lowercase();
    if lower.contains("standard") {
        Rule::Standard
    } else if lower.contains("freestyle") || lower.contains("fastgame") || lower.contains("league") {
        Rule::Freestyle
    } else {
        Rule::Renju
    }
}

/// The answers of results files' lines (the last answer of a key wins), each bad line named.
#[must_use]
pub fn read_answers(text: &str, name: &str, problems: &mut Vec<String>) -> BTreeMap<String, Answer> {
    let mut answers = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match Answer::parse(line) {
            Ok(a) => {
                answers.insert(a.key.clone(), a);
            }
            Err(e) => problems.push(format!("{name}: line {}: {e}", i + 1)),
        }
    }
    answers
}

/// A share with its 95% margin (normal approximation): `52.3% +/- 2.1 (n 2000)`.
fn share(hits: usize, n: usize) -> String {
    if n == 0 {
        return "- (n 0)".to_string();
    }
    let p = hits as f64 / n as f64;
    let margin = 1.96 * (p * (1.0 - p) / n as f64).sqrt();
    format!("{:.1}% +/- {:.1} (n {n})", 100.0 * p, 100.0 * margin)
}

/// A mean with its 95% margin.
fn mean(values: &[f64]) -> String {
    if values.is_empty() {
        return "- (n 0)".to_string();
    }
    let n = values.len() as f64;
    let m = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0).max(1.0);
    format!("{m:.2} +/- {:.2} (n {})", 1.96 * (var / n).sqrt(), values.len())
}

/// The ply bands of the report, by stones on the board.
const BANDS: [(usize, usize); 5] = [(0, 9), (10, 19), (20, 29), (30, 39), (40, usize::MAX)];

/// Regret's buckets, in win-rate points.
const BUCKETS: [(f64, &str); 6] =
    [(0.0, "0"), (1.0, "(0,1]"), (5.0, "(1,5]"), (10.0, "(5,10]"), (25.0, "(10,25]"), (f64::INFINITY, ">25")];

/// The report of a set of answers: agreement with its margin overall, by ply band and by engine, and the regret's
/// mean and distribution.
#[must_use]
pub fn report(answers: &[&Answer]) -> String {
    let mut out = String::new();
    let answered: Vec<&&Answer> = answers.iter().filter(|a| a.chosen.is_some()).collect();
    let agreeing = answered.iter().filter(|a| a.agrees()).count();
    let _ = writeln!(
        out,
        "agreement: {} ({} positions, {} unanswered)",
        share(agreeing, answered.len()),
        answers.len(),
        answers.len() - answered.len()
    );
    for (lo, hi) in BANDS {
        let band: Vec<_> = answered.iter().filter(|a| (lo..=hi).contains(&a.stones())).collect();
        if !band.is_empty() {
            let label = if hi == usize::MAX { format!("{lo}+") } else { format!("{lo}-{hi}") };
            let _ =
                writeln!(out, "  stones {label:>6}: {}", share(band.iter().filter(|a| a.agrees()).count(), band.len()));
        }
    }
    let mut by_engine: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for a in &answered {
        let e = by_engine.entry(a.mover.as_str()).or_default();
        e.0 += usize::from(a.agrees());
        e.1 += 1;
    }
    for (engine, (hits, n)) in by_engine {
        let _ = writeln!(out, "  with {engine}: {}", share(hits, n));
    }
    let regrets: Vec<f64> = answered.iter().filter_map(|a| a.regret(rule_of_key(&a.key))).collect();
    if regrets.is_empty() {
        let _ = writeln!(out, "regret: - (no played move scored)");
        return out;
    }
    let _ = writeln!(out, "regret (win-rate points below its own choice): mean {}", mean(&regrets));
    let mut sorted = regrets.clone();
    sorted.sort_by(f64::total_cmp);
    let _ =
        writeln!(out, "  median {:.2}, 90th percentile {:.2}", sorted[sorted.len() / 2], sorted[sorted.len() * 9 / 10]);
    let mut line = format!("  negative {}", regrets.iter().filter(|&&r| r < 0.0).count());
    let mut lower = 0.0;
    for (upper, label) in BUCKETS {
        let inside = |r: f64| if upper == 0.0 { r == 0.0 } else { r > lower && r <= upper };
        let _ = write!(line, ", {label} {}", regrets.iter().filter(|&&r| inside(r)).count());
        lower = upper;
    }
    let _ = writeln!(out, "{line}");
    out
}

/// The paired comparison of two runs on the positions both answered: each one's agreement there and the difference
/// in agreement (A - B) with its 95% margin, and the same for the mean regret where both scored it.
#[must_use]
pub fn paired(a: &BTreeMap<String, Answer>, b: &BTreeMap<String, Answer>) -> String {
    let both: Vec<(&Answer, &Answer)> = a
        .iter()
        .filter_map(|(k, x)| b.get(k).map(|y| (x, y)))
        .filter(|(x, y)| x.chosen.is_some() && y.chosen.is_some())
        .collect();
    let mut out = String::new();
    let a_hits = both.iter().filter(|p| p.0.agrees()).count();
    let b_hits = both.iter().filter(|p| p.1.agrees()).count();
    let _ = writeln!(out, "paired on {} positions both answered", both.len());
    let _ = writeln!(out, "  A agreement: {}", share(a_hits, both.len()));
    let _ = writeln!(out, "  B agreement: {}", share(b_hits, both.len()));
    let diffs: Vec<f64> =
        both.iter().map(|(x, y)| f64::from(u8::from(x.agrees())) - f64::from(u8::from(y.agrees()))).collect();
    let scaled: Vec<f64> = diffs.iter().map(|d| 100.0 * d).collect();
    let _ = writeln!(out, "  A - B agreement, points: {}", mean(&scaled));
    let regrets: Vec<f64> = both
        .iter()
        .filter_map(|(x, y)| {
            let rule = rule_of_key(&x.key);
            Some(x.regret(rule)? - y.regret(rule)?)
        })
        .collect();
    if !regrets.is_empty() {
        let _ = writeln!(out, "  A - B regret, win-rate points: {}", mean(&regrets));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(key: &str, played: (usize, usize), chosen: Option<(usize, usize)>, scores: (i32, Option<i32>)) -> Answer {
        Answer {
            key: key.to_string(),
            mover: "EMBRYO21.R".to_string(),
            played: Pos::new(played.0, played.1),
            chosen: chosen.map(|(x, y)| Pos::new(x, y)),
            score: chosen.map(|_| scores.0),
            played_score: scores.1,
            depth: 17,
            nodes: 1_000_000,
            ms: 1300,
        }
    }

    #[test]
    fn a_line_reads_back_as_written_and_bad_lines_are_named() {
        let a = answer("renju-2021/0_0_10_1.psq#7", (7, 8), Some((6, 8)), (120, Some(-40)));
        assert_eq!(Answer::parse(&a.line()), Ok(a.clone()));
        let none = answer("renju-2021/0_0_10_1.psq#9", (7, 8), None, (0, None));
        assert!(none.line().contains("\t-\t-\t-\t"));
        assert_eq!(Answer::parse(&none.line()), Ok(none));
        let mut problems = Vec::new();
        let text = format!("# agree\n{}\nshort\tline\n", a.line());
        let read = read_answers(&text, "r.tsv", &mut problems);
        assert_eq!(read.len(), 1);
        assert_eq!(problems, ["r.tsv: line 3: 2 fields, not 9"]);
    }

    #[test]
    fn regret_is_the_win_rate_given_up_and_zero_where_the_engine_agrees() {
        let same = answer("renju-2021/g.psq#8", (7, 8), Some((7, 8)), (100, None));
        assert_eq!(same.regret(Rule::Renju), Some(0.0));
        let worse = answer("renju-2021/g.psq#8", (7, 8), Some((6, 8)), (300, Some(100)));
        let r = worse.regret(Rule::Renju).expect("scored");
        assert!(r > 10.0 && r < 40.0, "{r}");
        let unscored = answer("renju-2021/g.psq#8", (7, 8), Some((6, 8)), (300, None));
        assert_eq!(unscored.regret(Rule::Renju), None);
        // A win thrown away costs what was left of the win rate.
        let mate = answer("renju-2021/g.psq#8", (7, 8), Some((6, 8)), (crate::search::MATE - 9, Some(0)));
        assert!(mate.regret(Rule::Renju).expect("scored") > 50.0);
    }

    #[test]
    fn the_report_counts_agreement_by_band_and_engine_and_pairs_two_runs() {
        let a = [
            answer("renju-2021/g.psq#8", (7, 8), Some((7, 8)), (10, None)),
            answer("renju-2021/g.psq#12", (7, 8), Some((6, 8)), (300, Some(100))),
            answer("renju-2021/g.psq#25", (7, 8), None, (0, None)),
        ];
        let text = report(&a.iter().collect::<Vec<_>>());
        assert!(text.starts_with("agreement: 50.0% +/- 69.3 (n 2) (3 positions, 1 unanswered)"), "{text}");
        assert!(text.contains("stones    0-9: 100.0%"), "{text}");
        assert!(text.contains("stones  10-19: 0.0%"), "{text}");
        assert!(text.contains("with EMBRYO21.R: 50.0%"), "{text}");
        assert!(text.contains(", 0 1,"), "{text}");
        let map = |list: &[Answer]| list.iter().map(|x| (x.key.clone(), x.clone())).collect::<BTreeMap<_, _>>();
        let b = [answer("renju-2021/g.psq#8", (7, 8), Some((1, 1)), (10, Some(0))), a[1].clone()];
        let text = paired(&map(&a), &map(&b));
        assert!(text.contains("paired on 2 positions"), "{text}");
        assert!(text.contains("A - B agreement, points: 50.00"), "{text}");
    }
}
