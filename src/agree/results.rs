//! The yardstick's results file and its report. One line a position, tab-separated, appended as each is answered
//! (so a stopped run resumes where it stopped and shards pool by concatenation):
//!
//! ```text
//! key  rule  mover  played  chosen  score  played_score  depth  nodes  ms
//! ```
//!
//! `key` is the position's (`renju-2021/0_0_10_1.psq#7`: seven stones on the board), `rule` its rule as Gomocup's
//! number (`4` renju), `mover` the engine that played
//! `played` there, `chosen` the measured engine's move (`-`: it did not answer), `score` its search's score for the
//! side to move and `played_score` that search's score for the played move alone (`-` where none: an outside engine,
//! or the same move). Lines starting with `#` say what was measured.
//!
//! The margins are 95% and clustered by game: the positions of one game are not independent draws (the same engines,
//! the same opening), so the variance is taken over the games' sums.

use super::kinds::Kind;
use crate::engine::Outlook;
use crate::types::{Color, Pos, Rule};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the measured engine answered in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The position's key.
    pub key: String,
    /// Its rule.
    pub rule: Rule,
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
    /// `p` not answered yet: no move, no score.
    #[must_use]
    pub fn unanswered(p: &crate::records::selection::Position) -> Answer {
        Answer {
            key: p.key.clone(),
            rule: p.rule,
            mover: p.mover.clone(),
            played: p.played,
            chosen: None,
            score: None,
            played_score: None,
            depth: 0,
            nodes: 0,
            ms: 0,
        }
    }

    /// Its line in a results file (moves in Gomocup's `x,y`).
    #[must_use]
    pub fn line(&self) -> String {
        let point = |p: Pos| format!("{},{}", p.x, p.y);
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.key,
            self.rule.info(),
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
        let [key, rule, mover, played, chosen, score, played_score, depth, nodes, ms] = f[..] else {
            return Err(format!("{} fields, not 10", f.len()));
        };
        let rule = Rule::ALL
            .into_iter()
            .find(|r| r.info().to_string() == rule)
            .ok_or_else(|| format!("unknown rule '{rule}'"))?;
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
            rule,
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
    /// the engine gave no score (an outside engine) or the played move was not scored.
    #[must_use]
    pub fn regret(&self) -> Option<f64> {
        let score = self.score?;
        if self.agrees() {
            return Some(0.0);
        }
        let stones = self.stones();
        let side = if stones % 2 == 0 { Color::Black } else { Color::White };
        let chance = |s: i32| 100.0 * Outlook::of(s, side, side, self.rule, stones).chance();
        Some(chance(score) - chance(self.played_score?))
    }

    /// Its expected score in win-rate points (0 to 100) for the side to move, when a search of its position scores
    /// it `score` for the side to move.
    fn chance(&self, score: i32) -> f64 {
        let stones = self.stones();
        let side = if stones % 2 == 0 { Color::Black } else { Color::White };
        100.0 * Outlook::of(score, side, side, self.rule, stones).chance()
    }

    /// How much worse its choice is than the played move by a judge's scores (each move searched alone): the
    /// played move's expected score less the choice's, in the judge's win-rate points; 0 where it agrees, `None`
    /// where it did not answer or the judge did not score both moves (the played one, where it agrees).
    #[must_use]
    pub fn judged_loss(&self, judged: &Judged) -> Option<f64> {
        let chosen = self.chosen?;
        let score = |m: Pos| judged.get(&(self.key.clone(), m)).copied();
        let played = score(self.played)?;
        if chosen == self.played {
            return Some(0.0);
        }
        Some(self.chance(played) - self.chance(score(chosen)?))
    }

    /// The game it comes from: its key without the stone count.
    #[must_use]
    pub fn game(&self) -> &str {
        self.key.rsplit_once('#').map_or(self.key.as_str(), |(g, _)| g)
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

/// The mean of `values` (each with its game) and its 95% margin clustered by game: the variance of the mean is
/// `G/(G-1) * sum over games of (the game's sum of deviations)^2 / n^2`, which with one position a game is the
/// usual `s^2/n`. Returns the mean, the margin, the count and the number of games.
#[must_use]
pub fn clustered(values: &[(&str, f64)]) -> (f64, f64, usize, usize) {
    let n = values.len();
    if n == 0 {
        return (0.0, 0.0, 0, 0);
    }
    let mean = values.iter().map(|v| v.1).sum::<f64>() / n as f64;
    let mut games: BTreeMap<&str, f64> = BTreeMap::new();
    for &(game, v) in values {
        *games.entry(game).or_default() += v - mean;
    }
    let g = games.len() as f64;
    let spread = games.values().map(|s| s * s).sum::<f64>() / (n as f64 * n as f64);
    let margin = if g > 1.0 { 1.96 * (g / (g - 1.0) * spread).sqrt() } else { f64::INFINITY };
    (mean, margin, n, games.len())
}

/// A share of positions with its clustered 95% margin: `52.3% +/- 2.4 (n 2000, 540 games)`.
fn share(answers: &[&&Answer], hit: impl Fn(&Answer) -> bool) -> String {
    let values: Vec<(&str, f64)> = answers.iter().map(|a| (a.game(), f64::from(u8::from(hit(a))))).collect();
    let (p, margin, n, g) = clustered(&values);
    if n == 0 {
        return "- (n 0)".to_string();
    }
    format!("{:.1}% +/- {:.1} (n {n}, {g} games)", 100.0 * p, 100.0 * margin)
}

/// A mean with its clustered 95% margin.
fn mean(values: &[(&str, f64)]) -> String {
    let (m, margin, n, g) = clustered(values);
    if n == 0 {
        return "- (n 0)".to_string();
    }
    format!("{m:.2} +/- {margin:.2} (n {n}, {g} games)")
}

/// The ply bands of the report, by stones on the board.
const BANDS: [(usize, usize); 5] = [(0, 9), (10, 19), (20, 29), (30, 39), (40, usize::MAX)];

/// Regret's buckets, in win-rate points.
const BUCKETS: [(f64, &str); 6] =
    [(0.0, "0"), (1.0, "(0,1]"), (5.0, "(1,5]"), (10.0, "(5,10]"), (25.0, "(10,25]"), (f64::INFINITY, ">25")];

/// Kinds of position by key (empty: no breakdown by kind).
pub type Kinds = BTreeMap<String, Kind>;

/// A judge's scores (for the side to move) of moves searched alone, by position key and move.
pub type Judged = BTreeMap<(String, Pos), i32>;

/// One judged move as a judge's file holds it: `key  rule  move  score  nodes  ms`.
#[must_use]
pub fn judged_line(key: &str, rule: Rule, m: Pos, score: i32, nodes: u64, ms: u64) -> String {
    format!("{key}\t{}\t{},{}\t{score}\t{nodes}\t{ms}", rule.info(), m.x, m.y)
}

/// The scores of a judge's file, each bad line named.
#[must_use]
pub fn read_judged(text: &str, name: &str, problems: &mut Vec<String>) -> Judged {
    let mut judged = Judged::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let parsed = match f[..] {
            [key, _, point, score, _, _] => point.split_once(',').and_then(|(x, y)| {
                let (x, y, s) = (x.parse::<usize>().ok()?, y.parse::<usize>().ok()?, score.parse::<i32>().ok()?);
                (x < crate::types::MAX_SIZE && y < crate::types::MAX_SIZE)
                    .then(|| ((key.to_string(), Pos::new(x, y)), s))
            }),
            _ => None,
        };
        match parsed {
            Some((k, s)) => {
                judged.insert(k, s);
            }
            None => problems.push(format!("{name}: line {}: not a judged move", i + 1)),
        }
    }
    judged
}

/// The report of a set of answers: agreement with its margin overall, by ply band, by the threats on the board
/// (where `kinds` knows the positions) and by engine, and the regret's mean and distribution.
#[must_use]
pub fn report(answers: &[&Answer], kinds: &Kinds, judged: &Judged) -> String {
    let mut out = String::new();
    let answered: Vec<&&Answer> = answers.iter().filter(|a| a.chosen.is_some()).collect();
    let _ = writeln!(
        out,
        "agreement: {} ({} positions, {} unanswered)",
        share(&answered, Answer::agrees),
        answers.len(),
        answers.len() - answered.len()
    );
    for (lo, hi) in BANDS {
        let band: Vec<&&Answer> = answered.iter().copied().filter(|a| (lo..=hi).contains(&a.stones())).collect();
        if !band.is_empty() {
            let label = if hi == usize::MAX { format!("{lo}+") } else { format!("{lo}-{hi}") };
            let _ = writeln!(out, "  stones {label:>6}: {}", share(&band, Answer::agrees));
        }
    }
    for kind in Kind::ALL {
        let these: Vec<&&Answer> = answered.iter().copied().filter(|a| kinds.get(&a.key) == Some(&kind)).collect();
        if !these.is_empty() {
            let _ = writeln!(out, "  {}: {}", kind.name(), share(&these, Answer::agrees));
        }
    }
    let mut engines: Vec<&str> = answered.iter().map(|a| a.mover.as_str()).collect();
    engines.sort_unstable();
    engines.dedup();
    for engine in engines {
        let theirs: Vec<&&Answer> = answered.iter().copied().filter(|a| a.mover == engine).collect();
        let _ = writeln!(out, "  with {engine}: {}", share(&theirs, Answer::agrees));
    }
    if !judged.is_empty() {
        let losses: Vec<(&str, f64)> =
            answered.iter().filter_map(|a| Some((a.game(), a.judged_loss(judged)?))).collect();
        let _ = writeln!(
            out,
            "judged loss (the judge's win-rate points, the played move's less the choice's): {}",
            mean(&losses)
        );
        let blunders: Vec<(&str, f64)> = losses.iter().map(|&(g, l)| (g, f64::from(u8::from(l > 10.0)))).collect();
        let (p, margin, n, _) = clustered(&blunders);
        if n > 0 {
            let _ = writeln!(out, "  more than 10 points: {:.1}% +/- {:.1}", 100.0 * p, 100.0 * margin);
        }
    }
    let regrets: Vec<(&str, f64)> = answered.iter().filter_map(|a| Some((a.game(), a.regret()?))).collect();
    if regrets.is_empty() {
        let _ = writeln!(out, "regret: - (no played move scored)");
        return out;
    }
    let _ = writeln!(out, "regret (win-rate points below its own choice): mean {}", mean(&regrets));
    let mut sorted: Vec<f64> = regrets.iter().map(|r| r.1).collect();
    sorted.sort_by(f64::total_cmp);
    let _ =
        writeln!(out, "  median {:.2}, 90th percentile {:.2}", sorted[sorted.len() / 2], sorted[sorted.len() * 9 / 10]);
    let mut line = format!("  negative {}", sorted.iter().filter(|&&r| r < 0.0).count());
    let mut lower = 0.0;
    for (upper, label) in BUCKETS {
        let inside = |r: f64| if upper == 0.0 { r == 0.0 } else { r > lower && r <= upper };
        let _ = write!(line, ", {label} {}", sorted.iter().filter(|&&r| inside(r)).count());
        lower = upper;
    }
    let _ = writeln!(out, "{line}");
    out
}

/// The paired comparison of two runs on the positions both answered: each one's agreement there and the difference
/// in agreement (A - B) with its margin; how often the two chose the same move, and where they kept the same move
/// other than the one played, each one's regret for it (does a deeper search keep its move and rate the played one
/// lower?); and the difference in mean regret where both scored it.
#[must_use]
pub fn paired(a: &BTreeMap<String, Answer>, b: &BTreeMap<String, Answer>, kinds: &Kinds, judged: &Judged) -> String {
    let both: Vec<(&Answer, &Answer)> = a
        .iter()
        .filter_map(|(k, x)| b.get(k).map(|y| (x, y)))
        .filter(|(x, y)| x.chosen.is_some() && y.chosen.is_some())
        .collect();
    let mut out = String::new();
    let firsts: Vec<&&Answer> = both.iter().map(|p| &p.0).collect();
    let seconds: Vec<&&Answer> = both.iter().map(|p| &p.1).collect();
    let _ = writeln!(out, "paired on {} positions both answered", both.len());
    let _ = writeln!(out, "  A agreement: {}", share(&firsts, Answer::agrees));
    let _ = writeln!(out, "  B agreement: {}", share(&seconds, Answer::agrees));
    let diffs: Vec<(&str, f64)> = both
        .iter()
        .map(|(x, y)| (x.game(), 100.0 * (f64::from(u8::from(x.agrees())) - f64::from(u8::from(y.agrees())))))
        .collect();
    let _ = writeln!(out, "  A - B agreement, points: {}", mean(&diffs));
    for (lo, hi) in BANDS {
        let band: Vec<(&str, f64)> =
            both.iter().zip(&diffs).filter(|((x, _), _)| (lo..=hi).contains(&x.stones())).map(|(_, d)| *d).collect();
        if !band.is_empty() {
            let label = if hi == usize::MAX { format!("{lo}+") } else { format!("{lo}-{hi}") };
            let _ = writeln!(out, "    stones {label:>6}: {}", mean(&band));
        }
    }
    for kind in Kind::ALL {
        let these: Vec<(&str, f64)> =
            both.iter().zip(&diffs).filter(|((x, _), _)| kinds.get(&x.key) == Some(&kind)).map(|(_, d)| *d).collect();
        if !these.is_empty() {
            let _ = writeln!(out, "    {}: {}", kind.name(), mean(&these));
        }
    }
    let same: Vec<(&str, f64)> =
        both.iter().map(|(x, y)| (x.game(), f64::from(u8::from(x.chosen == y.chosen)))).collect();
    let (p, margin, ..) = clustered(&same);
    let _ = writeln!(out, "  the same move chosen: {:.1}% +/- {:.1}", 100.0 * p, 100.0 * margin);
    let kept: Vec<&(&Answer, &Answer)> = both.iter().filter(|(x, y)| x.chosen == y.chosen && !x.agrees()).collect();
    let kept_a: Vec<(&str, f64)> = kept.iter().filter_map(|p| Some((p.0.game(), p.0.regret()?))).collect();
    let kept_b: Vec<(&str, f64)> = kept.iter().filter_map(|p| Some((p.1.game(), p.1.regret()?))).collect();
    if !kept_a.is_empty() && !kept_b.is_empty() {
        let _ = writeln!(out, "  where both kept a move other than the played one: A's regret {}", mean(&kept_a));
        let _ = writeln!(out, "    B's regret {}", mean(&kept_b));
    }
    if !judged.is_empty() {
        let losses: Vec<(&str, f64)> = both
            .iter()
            .filter_map(|(x, y)| Some((x.game(), x.judged_loss(judged)? - y.judged_loss(judged)?)))
            .collect();
        let _ = writeln!(out, "  A - B judged loss, the judge's win-rate points: {}", mean(&losses));
    }
    let regrets: Vec<(&str, f64)> =
        both.iter().filter_map(|(x, y)| Some((x.game(), x.regret()? - y.regret()?))).collect();
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
            rule: Rule::Renju,
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
        assert_eq!(problems, ["r.tsv: line 3: 2 fields, not 10"]);
    }

    #[test]
    fn regret_is_the_win_rate_given_up_and_zero_where_the_engine_agrees() {
        let same = answer("renju-2021/g.psq#8", (7, 8), Some((7, 8)), (100, None));
        assert_eq!(same.regret(), Some(0.0));
        let worse = answer("renju-2021/g.psq#8", (7, 8), Some((6, 8)), (300, Some(100)));
        let r = worse.regret().expect("scored");
        assert!(r > 10.0 && r < 40.0, "{r}");
        // An outside engine gives no score: no regret, even where it agrees.
        let outside = Answer { score: None, ..same.clone() };
        assert_eq!(outside.regret(), None);
        let unscored = answer("renju-2021/g.psq#8", (7, 8), Some((6, 8)), (300, None));
        assert_eq!(unscored.regret(), None);
        // A win thrown away costs what was left of the win rate.
        let mate = answer("renju-2021/g.psq#8", (7, 8), Some((6, 8)), (crate::search::MATE - 9, Some(0)));
        assert!(mate.regret().expect("scored") > 50.0);
    }

    #[test]
    fn a_judge_rates_each_choice_against_the_played_move() {
        let key = "renju-2021/g.psq#8";
        let text = format!(
            "# judge: x\n{}\n{}\nbad line\n",
            judged_line(key, Rule::Renju, Pos::new(7, 8), 300, 10, 1),
            judged_line(key, Rule::Renju, Pos::new(6, 8), 100, 10, 1)
        );
        let mut problems = Vec::new();
        let judged = read_judged(&text, "j.tsv", &mut problems);
        assert_eq!(problems, ["j.tsv: line 4: not a judged move"]);
        let worse = answer(key, (7, 8), Some((6, 8)), (0, None));
        let loss = worse.judged_loss(&judged).expect("both scored");
        assert!(loss > 10.0 && loss < 40.0, "{loss}");
        assert_eq!(answer(key, (7, 8), Some((7, 8)), (0, None)).judged_loss(&judged), Some(0.0));
        let elsewhere = answer("renju-2021/g.psq#9", (7, 8), Some((7, 8)), (0, None));
        assert_eq!(elsewhere.judged_loss(&judged), None, "a position the judge did not see");
        assert_eq!(answer(key, (7, 8), Some((1, 1)), (0, None)).judged_loss(&judged), None);
        assert_eq!(answer(key, (7, 8), None, (0, None)).judged_loss(&judged), None);
        let report = report(&[&worse], &Kinds::new(), &judged);
        assert!(report.contains("judged loss (the judge's win-rate points"), "{report}");
        assert!(report.contains("more than 10 points: 100.0%"), "{report}");
    }

    #[test]
    fn margins_are_clustered_by_game() {
        // One position a game: the usual s^2/n. Here s^2 = 1/3 (values 0, 1, 0, 1), so 1.96 * sqrt(1/12).
        let single = [("a", 0.0), ("b", 1.0), ("c", 0.0), ("d", 1.0)];
        let (m, margin, n, g) = clustered(&single);
        assert_eq!((m, n, g), (0.5, 4, 4));
        assert!((margin - 1.96 * (1.0f64 / 12.0).sqrt()).abs() < 1e-12, "{margin}");
        // The same values as two games whose positions agree with each other: twice as wide, as they should be.
        let pairs = [("a", 0.0), ("a", 0.0), ("b", 1.0), ("b", 1.0), ("c", 0.0), ("c", 0.0), ("d", 1.0), ("d", 1.0)];
        let (_, wide, ..) = clustered(&pairs);
        let (_, narrow, ..) = clustered(
            &[single, single]
                .concat()
                .iter()
                .enumerate()
                .map(|(i, v)| (["e", "f", "g", "h", "i", "j", "k", "l"][i], v.1))
                .collect::<Vec<_>>(),
        );
        assert!(wide > 1.3 * narrow, "{wide} {narrow}");
    }

    #[test]
    fn the_report_counts_agreement_by_band_and_engine_and_pairs_two_runs() {
        let a = [
            answer("renju-2021/g.psq#8", (7, 8), Some((7, 8)), (10, None)),
            answer("renju-2021/g.psq#12", (7, 8), Some((6, 8)), (300, Some(100))),
            answer("renju-2021/g.psq#25", (7, 8), None, (0, None)),
        ];
        let kinds: Kinds = [("renju-2021/g.psq#12".to_string(), Kind::Defend)].into_iter().collect();
        let text = report(&a.iter().collect::<Vec<_>>(), &kinds, &Judged::new());
        assert!(text.starts_with("agreement: 50.0% +/- inf (n 2, 1 games) (3 positions, 1 unanswered)"), "{text}");
        assert!(text.contains("stones    0-9: 100.0%"), "{text}");
        assert!(text.contains("stones  10-19: 0.0%"), "{text}");
        assert!(text.contains("with EMBRYO21.R: 50.0%"), "{text}");
        assert!(text.contains("answering an open three: 0.0%"), "{text}");
        assert!(!text.contains("quiet"), "{text}");
        assert!(text.contains(", 0 1,"), "{text}");
        let map = |list: &[Answer]| list.iter().map(|x| (x.key.clone(), x.clone())).collect::<BTreeMap<_, _>>();
        let b = [answer("renju-2021/g.psq#8", (7, 8), Some((1, 1)), (10, Some(0))), a[1].clone()];
        let text = paired(&map(&a), &map(&b), &Kinds::new(), &Judged::new());
        assert!(text.contains("paired on 2 positions"), "{text}");
        assert!(text.contains("A - B agreement, points: 50.00"), "{text}");
    }
}
