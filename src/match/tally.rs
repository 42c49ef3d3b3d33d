//! What a match keeps as its games end and prints at the end: per pair of engines the wins, losses and draws, the
//! pentanomial counts of game pairs (same opening, colours swapped), forfeits and the slowest answers. A game enters
//! as a [`GameResult`], the same whether it was just played or read back from a shard's results file
//! ([`super::shard`]), so a merged run prints exactly what one run would have.

use super::config::MatchConfig;
use super::stats::{self, Decision, elo_estimate, elo_pentanomial};
use crate::types::Color;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Per pair `(i, j)` of engine indices, from `i`'s side.
    pub pairs: Vec<((usize, usize), Tally)>,
    /// Games played.
    pub games: usize,
    /// The SPRT's decision, if one ran.
    pub sprt: Option<Decision>,
}

/// One finished game as the statistics see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Its number in the whole run's order, from 1.
    pub round: usize,
    /// Index into the pair list.
    pub pair: usize,
    /// Game number within the pair, from 0 (each opening serves games `2k` and `2k + 1`).
    pub game: usize,
    /// The pair's first engine's points, doubled: 0, 1 (a draw) or 2.
    pub points: usize,
    /// Which engine of the pair forfeited (0 the first, 1 the second), if one did.
    pub forfeit: Option<usize>,
    /// The slowest answer of the pair's first and second engine in this game (ms).
    pub slowest_ms: [u64; 2],
    /// The winner's colour (none: a draw).
    pub winner: Option<Color>,
}

/// One pair's results, from the first engine's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins, losses and draws of the pair's first engine.
    pub wins: usize,
    /// Losses.
    pub losses: usize,
    /// Draws.
    pub draws: usize,
    /// Game pairs (same opening, colours swapped) by the first engine's points: 0, ½, 1, 1½, 2.
    pub penta: [usize; 5],
    /// Forfeits of the first and the second engine.
    pub forfeits: [usize; 2],
    /// The slowest answer of the first and the second engine over the pair's games (ms).
    pub slowest_ms: [u64; 2],
    /// The first engine's wins, losses and draws in the games it played Black (the rest it played White).
    pub as_black: [usize; 3],
}

impl Tally {
    /// The first engine's wins, losses and draws in the games it played White.
    #[must_use]
    pub fn as_white(&self) -> [usize; 3] {
        let [w, l, d] = self.as_black;
        [self.wins - w, self.losses - l, self.draws - d]
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> usize {
        self.wins + self.losses + self.draws
    }

    /// The first engine's score in percent (0 without games).
    #[must_use]
    pub fn score_percent(&self) -> f64 {
        let games = self.games();
        if games == 0 { 0.0 } else { (self.wins as f64 + self.draws as f64 / 2.0) / games as f64 * 100.0 }
    }

    /// An Elo estimate `(elo, margin)` of these games as text; a score of 0% or 100% has no finite Elo.
    #[must_use]
    pub fn elo_text(&self, (elo, margin): (f64, f64)) -> String {
        match (self.wins + self.draws == 0 || self.losses + self.draws == 0).then_some(self.wins > 0) {
            Some(true) => "Elo +inf (every game won)".to_string(),
            Some(false) => "Elo -inf (every game lost)".to_string(),
            None => format!("Elo {elo:+.0} +/- {margin:.0} (95%)"),
        }
    }

    /// How the first engine fared with each colour: `as Black W-L-D, as White W-L-D`.
    #[must_use]
    pub fn colours_text(&self) -> String {
        let ([bw, bl, bd], [ww, wl, wd]) = (self.as_black, self.as_white());
        format!("as Black {bw}-{bl}-{bd}, as White {ww}-{wl}-{wd}")
    }
}

/// The results table, the SPRT's state and the score lines.
fn report(config: &MatchConfig, summary: &MatchSummary, out: &mut dyn Write) -> io::Result<()> {
    let name = |i: usize| config.engines[i].name.as_str();
    writeln!(out, "{} games played", summary.games)?;
    if config.engines.len() > 2 {
        writeln!(
            out,
            "{:<4} {:<16} {:>6} {:>6} {:>6} {:>6} {:>7}",
            "rank", "engine", "games", "wins", "losses", "draws", "score"
        )?;
        let mut rows: Vec<(usize, [usize; 3])> = (0..config.engines.len()).map(|i| (i, [0; 3])).collect();
        for &((i, j), ref t) in &summary.pairs {
            for (k, w, l) in [(i, t.wins, t.losses), (j, t.losses, t.wins)] {
                rows[k].1[0] += w;
                rows[k].1[1] += l;
                rows[k].1[2] += t.draws;
            }
        }
        let points = |r: &[usize; 3]| 2 * r[0] + r[2];
        rows.sort_by_key(|(i, r)| (std::cmp::Reverse(points(r)), *i));
        for (rank, (i, r)) in rows.iter().enumerate() {
            let games = r.iter().sum::<usize>().max(1);
            let score = points(r) as f64 / (2 * games) as f64 * 100.0;
            writeln!(
                out,
                "{:<4} {:<16} {:>6} {:>6} {:>6} {:>6} {:>6.1}%",
                rank + 1,
                name(*i),
                r.iter().sum::<usize>(),
                r[0],
                r[1],
                r[2],
                score
            )?;
        }
    }
    for &((i, j), ref t) in &summary.pairs {
        let pairs: usize = t.penta.iter().sum();
        let games = t.games();
        writeln!(
            out,
            "{} vs {}: {games} games, score {:.1}%, {}",
            name(i),
            name(j),
            t.score_percent(),
            t.elo_text(elo_estimate(t.wins, t.losses, t.draws))
        )?;
        if pairs > 0 {
            writeln!(
                out,
                "  pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for {}): {:?}, {}",
                name(i),
                t.penta,
                t.elo_text(elo_pentanomial(&t.penta))
            )?;
        }
        if games > 0 {
            writeln!(out, "  {} {}", name(i), t.colours_text())?;
        }
        if t.forfeits != [0, 0] {
            writeln!(out, "  forfeits: {} {}, {} {}", name(i), t.forfeits[0], name(j), t.forfeits[1])?;
        }
        if games > 0 {
            writeln!(out, "  slowest answer: {} {} ms, {} {} ms", name(i), t.slowest_ms[0], name(j), t.slowest_ms[1])?;
        }
    }
    if let (Some(sprt), Some(decision)) = (&config.sprt, summary.sprt) {
        let penta = &summary.pairs[0].1.penta;
        let (low, high) = sprt.bounds();
        let verdict = match decision {
            Decision::H1 => "H1 accepted",
            Decision::H0 => "H0 accepted",
            Decision::Continue => "no decision",
        };
        writeln!(
            out,
            "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} (bounds {low:.2}, {high:.2}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(penta)
        )?;
    }
    for &((i, j), ref t) in &summary.pairs {
        writeln!(out, "Score of {} vs {}: {} - {} - {}", name(i), name(j), t.wins, t.losses, t.draws)?;
    }
    out.flush()
}

/// The running totals of a match.
#[derive(Clone, Debug)]
pub struct Ledger {
    /// Per pair of engines.
    pub tallies: Vec<Tally>,
    /// The first game of each opening pair, waiting for its partner: (pair, game / 2) → first engine's points.
    halves: BTreeMap<(usize, usize), usize>,
    /// Black's wins, losses and draws over all games (what an opening rule is meant to balance).
    black: [usize; 3],
    /// Games entered.
    pub games: usize,
}

impl Ledger {
    /// Empty totals for `pairs` pairs of engines.
    #[must_use]
    pub fn new(pairs: usize) -> Ledger {
        Ledger { tallies: vec![Tally::default(); pairs], halves: BTreeMap::new(), black: [0; 3], games: 0 }
    }

    /// Enters a game (its pair must be one of the ledger's).
    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        self.black[match r.winner {
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
            None => 2,
        }] += 1;
        let tally = &mut self.tallies[r.pair];
        let result = match r.points {
            2 => 0,
            0 => 1,
            _ => 2,
        };
        *[&mut tally.wins, &mut tally.losses, &mut tally.draws][result] += 1;
        // The first engine's colour: the winner's or the loser's; a draw goes by the game's number (the colours an
        // opening rule gave are not kept for it).
        let first_black = match (r.winner, r.points) {
            (Some(c), 2) => c == Color::Black,
            (Some(c), _) => c == Color::White,
            (None, _) => r.game % 2 == 0,
        };
        if first_black {
            tally.as_black[result] += 1;
        }
        if let Some(k) = r.forfeit {
            tally.forfeits[k.min(1)] += 1;
        }
        for (slowest, &this) in tally.slowest_ms.iter_mut().zip(&r.slowest_ms) {
            *slowest = (*slowest).max(this);
        }
        if let Some(other) = self.halves.remove(&(r.pair, r.game / 2)) {
            tally.penta[other + r.points] += 1;
        } else {
            self.halves.insert((r.pair, r.game / 2), r.points);
        }
    }

    /// The match's results: each of `pairs` (the config's, in order) with its totals, and the SPRT's decision.
    #[must_use]
    pub fn summary(&self, pairs: &[(usize, usize)], sprt: Option<Decision>) -> MatchSummary {
        MatchSummary {
            pairs: pairs.iter().copied().zip(self.tallies.iter().cloned()).collect(),
            games: self.games,
            sprt,
        }
    }

    /// Black's score line, printed when the colours came out of an opening rule.
    ///
    /// # Errors
    /// Output I/O errors.
    pub fn write_black(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.games == 0 {
            return Ok(());
        }
        let [w, l, d] = self.black;
        let (elo, margin) = elo_estimate(w, l, d);
        let score = (w as f64 + d as f64 / 2.0) / self.games as f64;
        // The score's 95% margin from the Elo margin's width around the score.
        let half = ((stats::score_of_elo(elo + margin) - stats::score_of_elo(elo - margin)) / 2.0).abs();
        writeln!(
            out,
            "Black: {w} - {l} - {d}, score {:.1}% +/- {:.1}% (95%)",
            score * 100.0,
            if half.is_finite() { half * 100.0 } else { 50.0 }
        )
    }
}

/// `merge --by-opening`: per pair of engines, each opening's games from the first engine's side (W-L-D as Black and
/// as White, and its opening pairs won, even and lost), then how many games Black won and how many opening pairs
/// came out even (each engine won with one colour): the pairs that separate two engines are the others.
/// `openings` are the run's openings as text and `ledgers` their games, one ledger an opening, in the same order.
///
/// # Errors
/// Output I/O errors.
pub fn write_by_opening(
    config: &MatchConfig,
    openings: &[String],
    ledgers: &[Ledger],
    out: &mut dyn Write,
) -> io::Result<()> {
    let width = openings.iter().map(String::len).max().unwrap_or(0);
    for (k, &(i, j)) in config.pairs().iter().enumerate() {
        let (first, second) = (&config.engines[i].name, &config.engines[j].name);
        writeln!(out, "by opening, {first} vs {second} (pairs: won both ways or one and a draw, even, lost):")?;
        let mut black = [0; 3];
        let mut pairs = [0; 3];
        for (opening, ledger) in openings.iter().zip(ledgers) {
            let t = &ledger.tallies[k];
            if t.games() == 0 {
                continue;
            }
            let ([bw, bl, bd], [ww, wl, wd]) = (t.as_black, t.as_white());
            let p = [t.penta[3] + t.penta[4], t.penta[2], t.penta[0] + t.penta[1]];
            writeln!(
                out,
                "  {opening:<width$}  as Black {bw}-{bl}-{bd}, as White {ww}-{wl}-{wd}, pairs {}-{}-{}",
                p[0], p[1], p[2]
            )?;
            // Black's games: the first engine's wins as Black and its losses as White.
            for (total, n) in black.iter_mut().zip([bw + wl, bl + ww, bd + wd]) {
                *total += n;
            }
            for (total, n) in pairs.iter_mut().zip(p) {
                *total += n;
            }
        }
        let games: usize = black.iter().sum();
        let all: usize = pairs.iter().sum();
        writeln!(
            out,
            "  Black won {} of {games} games, White {}, {} drawn; of {all} opening pairs {} were even, {} decided \
             ({} for {first}, {} for {second})",
            black[0],
            black[1],
            black[2],
            pairs[1],
            pairs[0] + pairs[2],
            pairs[0],
            pairs[2]
        )?;
    }
    Ok(())
}

/// Everything printed after the games: Black's line under an opening rule, the results table, the SPRT's state
/// and the score lines.
///
/// # Errors
/// Output I/O errors.
pub fn write_results(
    config: &MatchConfig,
    ledger: &Ledger,
    summary: &MatchSummary,
    out: &mut dyn Write,
) -> io::Result<()> {
    if config.opening_rule.is_some() {
        ledger.write_black(out)?;
    }
    report(config, summary, out)
}
