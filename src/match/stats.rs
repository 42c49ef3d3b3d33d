//! Match statistics: Elo from a score with its 95% margin, from game results (trinomial) and from game pairs
//! (pentanomial: the two games of an opening with colours swapped, scored 0, ½, 1, 1½ or 2 together), and a
//! sequential probability ratio test on the pentanomial counts as engine testers run it.
//!
//! The SPRT compares H0 "the Elo difference is `elo0`" with H1 "it is `elo1`" (logistic Elo). With the pair
//! scores' mean `m` and variance `v` (per pair, of the score halved to 0..1) over `N` pairs, and `s0`, `s1` the
//! expected scores of the two hypotheses, the log-likelihood ratio of a normal model of the mean is
//! `LLR = N (s1 − s0)(2m − s0 − s1) / (2v)`. The test accepts H1 when the LLR reaches `ln((1 − β)/α)` and H0 when
//! it falls to `ln(β/(1 − α))`. Counting pairs rather than games takes out the variance that the openings' colour
//! bias adds, so it decides with fewer games.

/// The expected score of an Elo difference (logistic).
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score (clamped away from 0 and 1).
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    // Adding 0 turns the -0 of an even score into 0.
    -400.0 * (1.0 / score.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10() + 0.0
}

/// Elo difference and its 95% margin from game results (draws count half), by the normal approximation.
#[must_use]
pub fn elo_estimate(wins: usize, losses: usize, draws: usize) -> (f64, f64) {
    let n = (wins + losses + draws) as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let score = (wins as f64 + draws as f64 / 2.0) / n;
    let variance =
        (wins as f64 * (1.0 - score).powi(2) + losses as f64 * score.powi(2) + draws as f64 * (0.5 - score).powi(2))
            / n;
    interval(score, (variance / n).sqrt())
}

fn interval(score: f64, error: f64) -> (f64, f64) {
    let (low, high) = (elo_of_score(score - 1.96 * error), elo_of_score(score + 1.96 * error));
    (elo_of_score(score), (high - low) / 2.0)
}

/// Mean and variance of the pair scores (halved, 0..1) of pentanomial counts; `None` without pairs.
fn pair_moments(penta: &[usize; 5]) -> Option<(f64, f64, f64)> {
    let n: usize = penta.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = penta.iter().enumerate().map(|(k, &c)| k as f64 / 4.0 * c as f64).sum::<f64>() / n;
    let var = penta.iter().enumerate().map(|(k, &c)| (k as f64 / 4.0 - mean).powi(2) * c as f64).sum::<f64>() / n;
    Some((n, mean, var))
}

/// Elo difference and its 95% margin from pentanomial counts (index k: pairs that scored k/2 points of 2).
#[must_use]
pub fn elo_pentanomial(penta: &[usize; 5]) -> (f64, f64) {
    match pair_moments(penta) {
        None => (0.0, 0.0),
        Some((n, mean, var)) => interval(mean, (var / n).sqrt()),
    }
}

/// The difference of two runs on the same opening pairs ([`elo_paired`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    /// The mean difference in points a pair (of 2).
    pub mean: f64,
    /// Its standard error.
    pub error: f64,
    /// The Elo difference of the mean.
    pub elo: f64,
    /// Its 95% margin.
    pub margin: f64,
}

/// The Elo difference of two runs from their pair-by-pair point differences (each of 2 a pair: −2..=2): that of a
/// score of `½ + mean/2`, with the margin of the standard error (sample standard deviation over `√N`).
#[must_use]
pub fn elo_paired(diffs: &[f64]) -> Paired {
    let n = diffs.len() as f64;
    if diffs.is_empty() {
        return Paired { mean: 0.0, error: 0.0, elo: 0.0, margin: 0.0 };
    }
    let mean = diffs.iter().sum::<f64>() / n;
    let var = if diffs.len() > 1 { diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    let error = (var / n).sqrt();
    let (elo, margin) = interval(0.5 + mean / 2.0, error / 2.0);
    Paired { mean, error, elo, margin }
}

/// The SPRT's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Not decided: play on.
    Continue,
    /// H0 accepted (the change is not the gain tested for).
    H0,
    /// H1 accepted.
    H1,
}

impl Sprt {
    /// Parses `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (α = β = 0.05 by default).
    ///
    /// # Errors
    /// What is wrong with the text.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let values: Vec<f64> = text
            .split(',')
            .map(|v| v.trim().parse::<f64>().map_err(|_| format!("bad SPRT value '{v}'")))
            .collect::<Result<_, _>>()?;
        let (elo0, elo1, alpha, beta) = match values[..] {
            [a, b] => (a, b, 0.05, 0.05),
            [a, b, c, d] => (a, b, c, d),
            _ => return Err(format!("--sprt takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, not '{text}'")),
        };
        if !elo0.is_finite() || !elo1.is_finite() || elo0 >= elo1 {
            return Err(format!("SPRT bounds must be numbers with ELO0 < ELO1, not '{text}'"));
        }
        if !(0.0..0.5).contains(&alpha) || !(0.0..0.5).contains(&beta) || alpha == 0.0 || beta == 0.0 {
            return Err("SPRT alpha and beta must lie between 0 and 0.5".to_string());
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The lower and upper LLR bounds.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 for pentanomial counts. The mean and variance include a prior
    /// worth 1.5 pairs centred on an even score (counts ¼, ¼, ½, ¼, ¼), so that no single pair decides and a run of
    /// identical pairs still has a variance; over hundreds of pairs it does not matter.
    #[must_use]
    pub fn llr(&self, penta: &[usize; 5]) -> f64 {
        const PRIOR: [f64; 5] = [0.25, 0.25, 0.5, 0.25, 0.25];
        let n: usize = penta.iter().sum();
        if n == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = penta.iter().zip(PRIOR).map(|(&c, p)| c as f64 + p).collect();
        let total: f64 = counts.iter().sum();
        let mean = counts.iter().enumerate().map(|(k, c)| k as f64 / 4.0 * c).sum::<f64>() / total;
        let var = counts.iter().enumerate().map(|(k, c)| (k as f64 / 4.0 - mean).powi(2) * c).sum::<f64>() / total;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision for pentanomial counts.
    #[must_use]
    pub fn decide(&self, penta: &[usize; 5]) -> Decision {
        let llr = self.llr(penta);
        let (low, high) = self.bounds();
        if llr >= high {
            Decision::H1
        } else if llr <= low {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_an_even_score_is_zero_and_of_a_better_one_positive() {
        assert_eq!(elo_estimate(5, 5, 0).0, 0.0);
        let (elo, margin) = elo_estimate(30, 10, 10);
        assert!(elo > 100.0 && elo < 250.0, "{elo}");
        assert!(margin > 30.0 && margin < 200.0, "{margin}");
        assert!((elo_of_score(score_of_elo(73.0)) - 73.0).abs() < 1e-9);
    }

    #[test]
    fn pairs_give_the_same_elo_as_games_but_a_narrower_margin_when_colours_cancel() {
        // Every opening won by Black: each pair 1-1. The games alone look like coin flips.
        let (elo, margin) = elo_pentanomial(&[0, 0, 20, 0, 0]);
        assert_eq!(elo, 0.0);
        assert!(margin < 1e-6);
        let (e, m) = elo_estimate(20, 20, 0);
        assert_eq!(e, 0.0);
        assert!(m > 100.0);
        let (elo, margin) = elo_pentanomial(&[1, 2, 5, 8, 4]);
        assert!(elo > 50.0 && margin > 20.0, "{elo} {margin}");
    }

    #[test]
    fn the_sprt_accepts_h1_on_a_clear_gain_and_plays_on_at_an_even_score() {
        let sprt = Sprt::parse("0,10").expect("valid");
        let (low, high) = sprt.bounds();
        assert!((high - 2.944).abs() < 0.01 && (low + 2.944).abs() < 0.01);
        // 30 pairs, nearly all won by the first engine.
        assert_eq!(sprt.decide(&[0, 1, 2, 7, 20]), Decision::H1);
        // An even match of 30 pairs: no decision yet.
        assert_eq!(sprt.decide(&[3, 6, 12, 6, 3]), Decision::Continue);
        // A long even match ends in H0 (no gain of 10 Elo).
        assert_eq!(sprt.decide(&[300, 600, 1200, 600, 300]), Decision::H0);
        // Clearly worse: H0 at once.
        assert_eq!(sprt.decide(&[20, 7, 2, 1, 0]), Decision::H0);
        assert_eq!(sprt.decide(&[0; 5]), Decision::Continue);
        // One won pair decides nothing; eleven in a row do.
        assert_eq!(sprt.decide(&[0, 0, 0, 0, 1]), Decision::Continue);
        assert_eq!(Sprt::parse("0,20").expect("valid").decide(&[0, 0, 0, 0, 11]), Decision::H1);
        // The LLR grows with the evidence.
        assert!(sprt.llr(&[2, 4, 10, 8, 6]) < sprt.llr(&[4, 8, 20, 16, 12]));
    }

    /// Pair scores drawn from a model of two engines `elo` apart, about a third of the games drawn: the number of
    /// pairs until the SPRT decides (or `limit`), and the decision.
    fn simulate(sprt: &Sprt, elo: f64, seed: u64, limit: usize) -> (usize, Decision) {
        let mut state = seed;
        let mut uniform = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let p = score_of_elo(elo);
        let draw = 0.3;
        let (win, loss) = (p - draw / 2.0, 1.0 - p - draw / 2.0);
        let mut penta = [0usize; 5];
        for pairs in 1..=limit {
            let mut points = 0;
            for _ in 0..2 {
                let u = uniform();
                points += if u < win {
                    2
                } else if u < win + loss {
                    0
                } else {
                    1
                };
            }
            penta[points] += 1;
            let d = sprt.decide(&penta);
            if d != Decision::Continue {
                return (pairs, d);
            }
        }
        (limit, Decision::Continue)
    }

    #[test]
    fn simulated_matches_stop_on_a_clear_difference_and_run_on_without_one() {
        let sprt = Sprt::parse("0,20").expect("valid");
        for seed in 1..=20 {
            // 150 Elo apart: H1 within a few hundred games.
            let (pairs, d) = simulate(&sprt, 150.0, seed, 2_000);
            assert_eq!(d, Decision::H1, "seed {seed}");
            assert!(pairs < 150, "seed {seed}: {pairs} pairs");
            // Equal engines: never H1, and no decision in the first 50 pairs.
            let (pairs, d) = simulate(&sprt, 0.0, seed, 5_000);
            assert_ne!(d, Decision::H1, "seed {seed}");
            assert!(pairs > 50, "seed {seed}: decided after {pairs} pairs");
        }
    }

    #[test]
    fn a_paired_difference_is_the_elo_of_half_its_mean_with_the_margin_of_its_error() {
        // 104 pairs, 0.058 a pair better with a standard deviation of 0.714: +20 +/- 48, as in history.md.
        let mut diffs = vec![0.0; 104];
        let n = diffs.len();
        for (i, d) in diffs.iter_mut().enumerate() {
            *d = if i < 31 {
                1.0
            } else if i < 56 {
                -1.0
            } else {
                0.0
            };
        }
        let p = elo_paired(&diffs);
        assert!((p.mean - 6.0 / n as f64).abs() < 1e-12, "{p:?}");
        assert!((p.elo - elo_of_score(0.5 + p.mean / 2.0)).abs() < 1e-9, "{p:?}");
        assert!(p.elo > 15.0 && p.elo < 25.0 && p.margin > 40.0 && p.margin < 55.0, "{p:?}");
        // No difference in any pair: nothing either way, and no spread.
        let same = elo_paired(&[0.0; 10]);
        assert_eq!((same.elo, same.margin), (0.0, 0.0));
        assert_eq!(elo_paired(&[]).margin, 0.0);
    }

    #[test]
    fn bad_sprt_settings_are_refused() {
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0").is_err());
        assert!(Sprt::parse("0,5,0.7,0.05").is_err());
        assert!(Sprt::parse("a,b").is_err());
        assert_eq!(Sprt::parse("-3, 2, 0.1, 0.2").map(|s| s.alpha), Ok(0.1));
    }
}
