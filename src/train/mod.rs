//! The network's trainer (`pbrain-tengen train`, a whole run in [`run`]): the float model ([`model`]) fitted to positions of Tengen's games
//! ([`data`]) by Adam on the cross-entropy between `sigmoid(logit)` and each position's target (the game's result
//! blended with the search's score), then rounded into a [`crate::eval::network::Network`].
//!
//! Deterministic for a seed whatever the thread count: a batch is cut into chunks of a fixed size, each chunk's
//! gradient is summed in its own order on whichever thread takes it, and the chunks are added in their order. The
//! tables' gradients are sparse (a position touches a few thousand of their rows), so each chunk lists the rows it
//! touched and Adam moves only those (the moments of the other rows wait, as sparse Adam does).

pub mod choice;
pub mod config;
pub mod data;
pub mod gomocup;
pub mod model;
pub mod policy;
pub mod policy_run;
pub mod run;

use crate::eval::network::F;
use choice::Choices;
use data::NetData;
use model::{Layout, Model, Trace};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

/// Positions per chunk of a batch.
pub const CHUNK: usize = 64;

/// How a run trains.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size (falling linearly to a tenth over the run).
    pub lr: f64,
    /// The seed of the start, the split and the order.
    pub seed: u64,
    /// Only the head learns: the tables stay as they are (to fit the head to tables already rounded).
    pub freeze_tables: bool,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions { epochs: 10, batch: 1024, lr: 1e-3, seed: 1, freeze_tables: false }
    }
}

/// The losses after an epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// The epoch (0: the start).
    pub epoch: usize,
    /// Mean cross-entropy on the training and held-out positions.
    pub loss: [f64; 2],
    /// With choice pairs: on the training and held-out pairs, the mean pair loss and the share of pairs whose
    /// chosen child the model prefers.
    pub choice: Option<[(f64, f64); 2]>,
}

/// Choice pairs a fit learns beside the positions (see [`choice`]).
#[derive(Clone, Copy, Debug)]
pub struct Pairs<'a> {
    /// The pairs.
    pub choices: &'a Choices,
    /// Each child's offset to the logit (see [`NetData::bases`]).
    pub bases: &'a [f32],
    /// The training and held-out pairs.
    pub split: [&'a [usize]; 2],
    /// A pair's gradient, against a position's.
    pub weight: f32,
    /// How many times each training pair is counted an epoch.
    pub repeat: usize,
}

/// The mean pair loss and the share of pairs whose chosen child `model` prefers, over the pairs `which`.
#[must_use]
pub fn pair_measure(model: &Model, pairs: &Pairs, which: &[usize]) -> (f64, f64) {
    if which.is_empty() {
        return (0.0, 0.0);
    }
    let sums: Vec<(f64, f64)> = which
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut trace = Trace::default();
            let mut sum = (0.0, 0.0);
            for &j in chunk {
                let [a, b] = [2 * j, 2 * j + 1].map(|c| child_logit(model, pairs, c, &mut trace));
                sum.0 += choice::pair_loss(f64::from(a), f64::from(b)).0;
                sum.1 += f64::from(u8::from(a < b));
            }
            sum
        })
        .collect();
    let n = which.len() as f64;
    (sums.iter().map(|s| s.0).sum::<f64>() / n, sums.iter().map(|s| s.1).sum::<f64>() / n)
}

/// The logit of child `c` of the pairs (for its side to move), its base added, times the child's sign: minus the
/// pair's mover's value of it (see [`Choices::sign`]).
fn child_logit(model: &Model, pairs: &Pairs, c: usize, trace: &mut Trace) -> f32 {
    let data = &pairs.choices.children;
    let pos = data.positions[c];
    (model.forward(&data.board(c), pos.side(), pos.flags, trace) + pairs.bases[c]) * pairs.choices.sign(c)
}

/// The binary cross-entropy of a logit against a target, and its derivative with respect to the logit.
#[must_use]
pub fn cross_entropy(logit: f64, target: f64) -> (f64, f64) {
    let p = 1.0 / (1.0 + (-logit).exp());
    // log(1 + e^x) - t x, computed without overflow.
    let softplus = if logit > 0.0 { logit + (-logit).exp().ln_1p() } else { logit.exp().ln_1p() };
    (softplus - target * logit, p - target)
}

/// One chunk's sums.
struct ChunkSums {
    grad: Vec<f32>,
    touched: Vec<u32>,
    marked: Vec<u64>,
    loss: f64,
    trace: Trace,
    /// The second child's trace of a pair.
    other: Trace,
}

impl ChunkSums {
    fn new(len: usize) -> ChunkSums {
        ChunkSums {
            grad: vec![0.0; len],
            touched: Vec::new(),
            marked: vec![0; len / F / 64 + 1],
            loss: 0.0,
            trace: Trace::default(),
            other: Trace::default(),
        }
    }
}

/// The mean loss of `model` over the positions `which`, each position's logit offset by its base (see
/// [`NetData::bases`]).
#[must_use]
pub fn loss(model: &Model, data: &NetData, targets: &[f32], bases: &[f32], which: &[usize]) -> f64 {
    if which.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = which
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut trace = Trace::default();
            chunk
                .iter()
                .map(|&i| {
                    let pos = data.positions[i];
                    let logit = model.forward(&data.board(i), pos.side(), pos.flags, &mut trace) + bases[i];
                    cross_entropy(f64::from(logit), f64::from(targets[i])).0
                })
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / which.len() as f64
}

/// Adam's moments.
pub(crate) struct Adam {
    pub(crate) m: Vec<f32>,
    pub(crate) v: Vec<f32>,
    t: i32,
}

/// The step size of `epoch` (from 1) of `epochs`: `lr`, falling linearly to a tenth over the run.
pub(crate) fn step_size(lr: f64, epoch: usize, epochs: usize) -> f32 {
    (lr * (1.0 - 0.9 * (epoch - 1) as f64 / epochs.max(1) as f64)) as f32
}

impl Adam {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    const EPS: f32 = 1e-8;

    /// Moments of zero for `len` values.
    pub(crate) fn new(len: usize) -> Adam {
        Adam { m: vec![0.0; len], v: vec![0.0; len], t: 0 }
    }

    /// Counts a step and returns its bias corrections (for [`Adam::step_one`]).
    pub(crate) fn next_step(&mut self) -> (f32, f32) {
        self.t += 1;
        (1.0 - Self::B1.powi(self.t), 1.0 - Self::B2.powi(self.t))
    }

    pub(crate) fn step_one(&mut self, params: &mut [f32], grad: &[f32], i: usize, lr: f32, c1: f32, c2: f32) {
        let g = grad[i];
        self.m[i] = Self::B1 * self.m[i] + (1.0 - Self::B1) * g;
        self.v[i] = Self::B2 * self.v[i] + (1.0 - Self::B2) * g * g;
        params[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + Self::EPS);
    }
}

/// Fits `model` to the positions `split[0]` (each position's logit offset by its base), reporting the losses on
/// both parts after every epoch (and before the first). Returns the rows of the tables that training touched (one
/// flag per row).
pub fn train(
    model: &mut Model,
    data: &NetData,
    targets: &[f32],
    bases: &[f32],
    split: [&[usize]; 2],
    options: &TrainOptions,
    progress: impl FnMut(&Epoch),
) -> Vec<bool> {
    train_with(model, data, targets, bases, split, None, options, progress)
}

/// [`train`], with choice pairs learnt beside the positions where `pairs` are given: each training pair is an item
/// of the shuffled order (`repeat` times), its loss [`choice::pair_loss`] times `weight`.
#[allow(clippy::too_many_arguments)] // train's arguments and the pairs
pub fn train_with(
    model: &mut Model,
    data: &NetData,
    targets: &[f32],
    bases: &[f32],
    split: [&[usize]; 2],
    pairs: Option<&Pairs>,
    options: &TrainOptions,
    mut progress: impl FnMut(&Epoch),
) -> Vec<bool> {
    let layout: Layout = model.layout();
    let measure = |epoch: usize, model: &Model| Epoch {
        epoch,
        loss: split.map(|s| loss(model, data, targets, bases, s)),
        choice: pairs.map(|p| p.split.map(|s| pair_measure(model, p, s))),
    };
    // Items from `first_pair` on are pairs.
    let first_pair = data.positions.len();
    progress(&measure(0, model));
    let mut seen = vec![false; layout.w1 / F];
    let mut adam = Adam::new(layout.len);
    let batch = options.batch.max(1);
    let chunks_per_batch = batch.div_ceil(CHUNK);
    let mut sums: Vec<ChunkSums> = (0..chunks_per_batch).map(|_| ChunkSums::new(layout.len)).collect();
    let mut total = vec![0.0f32; layout.len];
    let mut marked = vec![0u64; layout.w1 / F / 64 + 1];
    let mut rows: Vec<u32> = Vec::new();
    let mut order = split[0].to_vec();
    if let Some(p) = pairs {
        for _ in 0..p.repeat {
            order.extend(p.split[0].iter().map(|&j| first_pair + j));
        }
    }
    let mut rng = StdRng::seed_from_u64(options.seed);
    for epoch in 1..=options.epochs {
        let lr = step_size(options.lr, epoch, options.epochs);
        order.shuffle(&mut rng);
        for step in order.chunks(batch) {
            let scale = 1.0 / step.len() as f32;
            let model_ref: &Model = model;
            sums.par_iter_mut().zip(step.par_chunks(CHUNK)).for_each(|(s, chunk)| {
                for &i in chunk {
                    let ChunkSums { grad, touched, marked, trace, other, loss } = s;
                    let mut touch = |r: u32| {
                        let row = r as usize / F;
                        if marked[row / 64] & (1 << (row % 64)) == 0 {
                            marked[row / 64] |= 1 << (row % 64);
                            touched.push(r);
                        }
                    };
                    if let Some(p) = pairs.filter(|_| i >= first_pair) {
                        // A pair: both children forward, then both backward with the pair loss's derivatives.
                        let j = i - first_pair;
                        let a = child_logit(model_ref, p, 2 * j, trace);
                        let b = child_logit(model_ref, p, 2 * j + 1, other);
                        let (l, da, db) = choice::pair_loss(f64::from(a), f64::from(b));
                        *loss += l * f64::from(p.weight);
                        let children = &p.choices.children.positions;
                        let [wa, wb] = [2 * j, 2 * j + 1].map(|c| p.weight * scale * p.choices.sign(c));
                        model_ref.backward(trace, children[2 * j].side(), da as f32 * wa, grad, &mut touch);
                        model_ref.backward(other, children[2 * j + 1].side(), db as f32 * wb, grad, &mut touch);
                        continue;
                    }
                    let pos = data.positions[i];
                    let side = pos.side();
                    let logit = model_ref.forward(&data.board(i), side, pos.flags, trace) + bases[i];
                    let (l, d) = cross_entropy(f64::from(logit), f64::from(targets[i]));
                    *loss += l;
                    model_ref.backward(trace, side, d as f32 * scale, grad, &mut touch);
                }
            });
            // The chunks' sums, added in chunk order.
            let used = step.len().div_ceil(CHUNK);
            for s in &mut sums[..used] {
                for (t, g) in total[layout.w1..].iter_mut().zip(&mut s.grad[layout.w1..]) {
                    *t += *g;
                    *g = 0.0;
                }
                for &r in &s.touched {
                    let (r, row) = (r as usize, r as usize / F);
                    s.marked[row / 64] &= !(1 << (row % 64));
                    if marked[row / 64] & (1 << (row % 64)) == 0 {
                        marked[row / 64] |= 1 << (row % 64);
                        rows.push(r as u32);
                    }
                    for (t, g) in total[r..r + F].iter_mut().zip(&mut s.grad[r..r + F]) {
                        *t += *g;
                        *g = 0.0;
                    }
                }
                s.touched.clear();
                s.loss = 0.0;
            }
            let (c1, c2) = adam.next_step();
            let params = &mut model.params;
            for &r in &rows {
                let r = r as usize;
                seen[r / F] = true;
                marked[r / F / 64] &= !(1 << ((r / F) % 64));
                for i in r..r + F {
                    if !options.freeze_tables {
                        adam.step_one(params, &total, i, lr, c1, c2);
                    }
                    total[i] = 0.0;
                }
            }
            rows.clear();
            for i in layout.w1..layout.len {
                adam.step_one(params, &total, i, lr, c1, c2);
                total[i] = 0.0;
            }
            model.clip();
        }
        progress(&measure(epoch, model));
    }
    seen
}

/// Sets the rows that training never touched to zero (the network file leaves them out).
pub fn zero_unseen(model: &mut Model, seen: &[bool]) {
    for (r, &s) in seen.iter().enumerate() {
        if !s {
            model.params[r * F..(r + 1) * F].fill(0.0);
        }
    }
}
