//! The tuners: this module fits the evaluation and the move-ordering values to game records (`pbrain-tengen
//! tune`, a whole run in [`run`]); [`spsa`] tunes the search's parameters by games (`pbrain-tengen spsa`, a whole
//! run in [`spsa_run`]); [`rescore`] re-scores game files by deeper searches, as targets for both trainers.
//!
//! - Evaluation: logistic regression. A position's value `e` (the sparse sum of [`data`]'s features times the
//!   parameters, in evaluation units) predicts the side to move's result as `sigmoid(e / K)`. `K` is fitted
//!   first, to the starting weights (a golden-section search on the loss), and then held, so that the learned
//!   values stay in the units the search's margins are written in; then the parameters follow Adam on the
//!   cross-entropy in mini-batches (the step size falling linearly to a tenth), with an L2 pull towards the starting weights that keeps rarely seen codes
//!   where they began.
//!   The target is the game's result, or with `score_weight` a blend of it with the search's score there.
//! - Move ordering: a softmax over the legal moves near the stones, each move's logit being (attack value of the
//!   code it makes + defence value of the code it stops) / 100, against the move the engine played.
//!
//! Gradients are summed over fixed chunks of each batch on all cores (rayon) and then added in chunk order, so a
//! run gives the same weights whatever the number of threads. Games are split into a training and a held-out
//! set by a seeded shuffle before their positions are taken, so that no game is on both sides.

pub mod data;
pub mod rescore;
pub mod run;
pub mod spsa;
pub mod spsa_run;

use crate::eval::{FAMILIES, Weights};
use crate::pattern::CODES;
use data::{DEFEND_AT, Dataset, EVAL_PARAMS, OPP_AT, ORDER_PARAMS, OWN_AT, THREAT_AT};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

/// Positions per gradient chunk (one task of the thread pool).
const CHUNK: usize = 256;

/// How a run goes.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size for the evaluation, in evaluation units.
    pub eval_lr: f64,
    /// Adam's step size for the ordering values, in their units (logits × 100).
    pub order_lr: f64,
    /// The L2 pull towards the starting weights, per parameter and unit.
    pub l2: f64,
    /// The seed of the shuffles.
    pub seed: u64,
    /// A fixed `K`, instead of fitting it.
    pub k: Option<f64>,
    /// How much of each evaluation target is the search's score (as `sigmoid(score / K)`) rather than the game's
    /// result, where the game kept scores.
    pub score_weight: f64,
}

impl Default for TuneOptions {
    fn default() -> TuneOptions {
        TuneOptions {
            epochs: 30,
            batch: 4096,
            eval_lr: 1.0,
            order_lr: 4.0,
            l2: 1e-7,
            seed: 1,
            k: None,
            score_weight: 0.0,
        }
    }
}

/// Adam's state for one parameter vector.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    fn step(&mut self, params: &mut [f64], grad: &[f64], lr: f64) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        for i in 0..params.len() {
            let g = grad[i];
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            params[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-12);
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of a prediction `p` against a target `y`, kept finite.
fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The evaluation parameters of a set of weights, as the tuner lays them out.
#[must_use]
pub fn eval_params(w: &Weights) -> Vec<f64> {
    let mut p = vec![0.0; EVAL_PARAMS];
    for f in 0..FAMILIES {
        for k in 0..CODES {
            p[OWN_AT + f * CODES + k] = f64::from(w.own[f][k]);
            p[OPP_AT + f * CODES + k] = f64::from(w.opp[f][k]);
        }
        for (k, &v) in w.threat[f].iter().enumerate() {
            p[THREAT_AT + f * w.threat[f].len() + k] = f64::from(v);
        }
    }
    p
}

/// The ordering parameters of a set of weights.
#[must_use]
pub fn order_params(w: &Weights) -> Vec<f64> {
    let mut p = vec![0.0; ORDER_PARAMS];
    for f in 0..FAMILIES {
        for k in 0..CODES {
            p[f * CODES + k] = f64::from(w.attack[f][k]);
            p[DEFEND_AT + f * CODES + k] = f64::from(w.defend[f][k]);
        }
    }
    p
}

/// Weights from the tuner's parameters (rounded, within 16 bits; code 0 stays worth nothing).
#[must_use]
pub fn weights_from(eval: &[f64], order: &[f64], header: Vec<String>) -> Weights {
    let round = |v: f64| v.round().clamp(-32_000.0, 32_000.0) as i16;
    let mut w = Weights::zero();
    for f in 0..FAMILIES {
        for k in 1..CODES {
            w.own[f][k] = round(eval[OWN_AT + f * CODES + k]);
            w.opp[f][k] = round(eval[OPP_AT + f * CODES + k]);
            w.attack[f][k] = round(order[f * CODES + k]);
            w.defend[f][k] = round(order[DEFEND_AT + f * CODES + k]);
        }
        let threats = w.threat[f].len();
        for k in 0..threats {
            w.threat[f][k] = round(eval[THREAT_AT + f * threats + k]);
        }
    }
    w.header = header;
    w
}

/// A sample's evaluation under `params`.
fn value(data: &Dataset, i: usize, params: &[f64]) -> f64 {
    let s = data.evals[i];
    let features = &data.features[s.start as usize..s.start as usize + usize::from(s.len)];
    features.iter().map(|&(k, c)| params[k as usize] * f64::from(c)).sum::<f64>() + params[s.threat as usize]
}

/// The mean evaluation loss over the samples `which` with `K`, against `targets` (one per sample).
#[must_use]
pub fn eval_loss(data: &Dataset, targets: &[f32], which: &[usize], params: &[f64], k: f64) -> f64 {
    if which.is_empty() {
        return 0.0;
    }
    let sum: f64 = which
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&i| cross_entropy(sigmoid(value(data, i, params) / k), f64::from(targets[i])))
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    sum / which.len() as f64
}

/// A move sample's softmax over its candidates: the probabilities, and the loss of the move played.
fn softmax(data: &Dataset, i: usize, params: &[f64], probs: &mut Vec<f64>) -> f64 {
    let s = data.moves[i];
    let cands = &data.candidates[s.start as usize..s.start as usize + usize::from(s.len)];
    probs.clear();
    probs.extend(cands.iter().map(|&(a, d)| (params[usize::from(a)] + params[usize::from(d)]) / 100.0));
    let max = probs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for p in probs.iter_mut() {
        *p = (*p - max).exp();
        total += *p;
    }
    for p in probs.iter_mut() {
        *p /= total;
    }
    -probs[usize::from(s.played)].max(1e-12).ln()
}

/// The mean ordering loss over the move samples `which`.
#[must_use]
pub fn order_loss(data: &Dataset, which: &[usize], params: &[f64]) -> f64 {
    if which.is_empty() {
        return 0.0;
    }
    let sum: f64 = which
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut probs = Vec::new();
            chunk.iter().map(|&i| softmax(data, i, params, &mut probs)).sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    sum / which.len() as f64
}

/// The `K` that makes `params` fit the samples' results best: a golden-section search on the loss over log K.
#[must_use]
pub fn fit_k(data: &Dataset, which: &[usize], params: &[f64]) -> f64 {
    let results: Vec<f32> = data.evals.iter().map(|s| s.result).collect();
    let loss = |log_k: f64| eval_loss(data, &results, which, params, log_k.exp());
    let (mut lo, mut hi) = (10f64.ln(), 5_000f64.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
    let (mut f1, mut f2) = (loss(x1), loss(x2));
    for _ in 0..40 {
        if f1 < f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - phi * (hi - lo);
            f1 = loss(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + phi * (hi - lo);
            f2 = loss(x2);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Sums per-chunk gradients in chunk order (the same result on any number of threads).
fn add_in_order(parts: Vec<(Vec<f64>, f64)>, n: usize) -> (Vec<f64>, f64) {
    let mut grad = vec![0.0; n];
    let mut loss = 0.0;
    for (g, l) in parts {
        for (a, b) in grad.iter_mut().zip(&g) {
            *a += b;
        }
        loss += l;
    }
    (grad, loss)
}

/// The mean evaluation gradient over `batch`.
fn eval_gradient(data: &Dataset, targets: &[f32], batch: &[usize], params: &[f64], k: f64) -> Vec<f64> {
    let parts: Vec<(Vec<f64>, f64)> = batch
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut g = vec![0.0; EVAL_PARAMS];
            for &i in chunk {
                let s = data.evals[i];
                let p = sigmoid(value(data, i, params) / k);
                let d = (p - f64::from(targets[i])) / k;
                for &(f, c) in &data.features[s.start as usize..s.start as usize + usize::from(s.len)] {
                    g[f as usize] += d * f64::from(c);
                }
                g[s.threat as usize] += d;
            }
            (g, 0.0)
        })
        .collect();
    let (mut grad, _) = add_in_order(parts, EVAL_PARAMS);
    let n = batch.len().max(1) as f64;
    grad.iter_mut().for_each(|g| *g /= n);
    grad
}

/// The mean ordering gradient over `batch`.
fn order_gradient(data: &Dataset, batch: &[usize], params: &[f64]) -> Vec<f64> {
    let parts: Vec<(Vec<f64>, f64)> = batch
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut g = vec![0.0; ORDER_PARAMS];
            let mut probs = Vec::new();
            for &i in chunk {
                softmax(data, i, params, &mut probs);
                let s = data.moves[i];
                let cands = &data.candidates[s.start as usize..s.start as usize + usize::from(s.len)];
                for (j, (&(a, d), &p)) in cands.iter().zip(&probs).enumerate() {
                    let dz = (p - f64::from(u8::from(j == usize::from(s.played)))) / 100.0;
                    g[usize::from(a)] += dz;
                    g[usize::from(d)] += dz;
                }
            }
            (g, 0.0)
        })
        .collect();
    let (mut grad, _) = add_in_order(parts, ORDER_PARAMS);
    let n = batch.len().max(1) as f64;
    grad.iter_mut().for_each(|g| *g /= n);
    grad
}

/// What a run reports after each epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The epoch just finished (0: before training).
    pub epoch: usize,
    /// Evaluation loss on the training and held-out positions.
    pub eval: [f64; 2],
    /// Ordering loss on the training and held-out positions.
    pub order: [f64; 2],
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The evaluation parameters.
    pub eval: Vec<f64>,
    /// The ordering parameters.
    pub order: Vec<f64>,
    /// The `K` used.
    pub k: f64,
    /// The losses before and after.
    pub first: Progress,
    /// The losses at the end.
    pub last: Progress,
}

/// Fits both models to `train`, reporting the losses on `train` and `held` after every epoch.
pub fn tune(
    data: &Dataset,
    split: [&[usize]; 2],
    move_split: [&[usize]; 2],
    init: &Weights,
    options: &TuneOptions,
    mut progress: impl FnMut(&Progress),
) -> Tuned {
    let mut eval = eval_params(init);
    let mut order = order_params(init);
    let (eval0, order0) = (eval.clone(), order.clone());
    let k = options.k.unwrap_or_else(|| fit_k(data, split[0], &eval));
    let targets = data.targets(k, options.score_weight);
    let measure = |epoch: usize, eval: &[f64], order: &[f64]| Progress {
        epoch,
        eval: split.map(|s| eval_loss(data, &targets, s, eval, k)),
        order: move_split.map(|s| order_loss(data, s, order)),
    };
    let first = measure(0, &eval, &order);
    progress(&first);
    let mut last = first;
    let (mut adam_eval, mut adam_order) = (Adam::new(EVAL_PARAMS), Adam::new(ORDER_PARAMS));
    let mut rng = StdRng::seed_from_u64(options.seed);
    let (mut evals, mut moves) = (split[0].to_vec(), move_split[0].to_vec());
    let batch = options.batch.max(1);
    for epoch in 1..=options.epochs {
        // The step size falls linearly to a tenth over the run, so that the last epochs settle.
        let decay = 1.0 - 0.9 * (epoch - 1) as f64 / options.epochs.max(1) as f64;
        evals.shuffle(&mut rng);
        moves.shuffle(&mut rng);
        // As many steps for both models: the move batches are as many as the evaluation's.
        let steps = evals.len().div_ceil(batch).max(1);
        let move_batch = moves.len().div_ceil(steps).max(1);
        for step in 0..steps {
            let b = &evals[(step * batch).min(evals.len())..((step + 1) * batch).min(evals.len())];
            if !b.is_empty() {
                let mut g = eval_gradient(data, &targets, b, &eval, k);
                for ((g, p), p0) in g.iter_mut().zip(&eval).zip(&eval0) {
                    *g += options.l2 * (p - p0);
                }
                adam_eval.step(&mut eval, &g, options.eval_lr * decay);
            }
            let m = &moves[(step * move_batch).min(moves.len())..((step + 1) * move_batch).min(moves.len())];
            if !m.is_empty() {
                let mut g = order_gradient(data, m, &order);
                for ((g, p), p0) in g.iter_mut().zip(&order).zip(&order0) {
                    *g += options.l2 * (p - p0);
                }
                adam_order.step(&mut order, &g, options.order_lr * decay);
            }
        }
        // Code 0 is worth nothing: no stone nor dead point counts.
        for f in 0..FAMILIES {
            eval[OWN_AT + f * CODES] = 0.0;
            eval[OPP_AT + f * CODES] = 0.0;
        }
        last = measure(epoch, &eval, &order);
        progress(&last);
    }
    Tuned { eval, order, k, first, last }
}

/// Splits `0..n` into a training and a held-out part (`fraction` of it), by a seeded shuffle.
#[must_use]
pub fn split(n: usize, fraction: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut all: Vec<usize> = (0..n).collect();
    all.shuffle(&mut StdRng::seed_from_u64(seed));
    let held = ((n as f64) * fraction.clamp(0.0, 1.0)).round() as usize;
    let train = all.split_off(held);
    (train, all)
}

/// The training and held-out parts of `games` games and `samples` samples: each split by [`split`], the samples
/// with a seed of their own, before their positions are taken, so that no game is on both sides.
#[must_use]
pub fn split_games_and_samples(
    games: usize,
    samples: usize,
    fraction: f64,
    seed: u64,
) -> [(Vec<usize>, Vec<usize>); 2] {
    [split(games, fraction, seed), split(samples, fraction, seed ^ 0x5a5a)]
}
