//! The move policy's trainer (`pbrain-tengen train --policy`): every position of the games that carries a searched
//! best move (game-file flag bit 2, written by `rescore`) becomes one sample, the search's candidate moves there
//! (as [`crate::movegen::candidates`] gives them, Black's forbidden points never among them) with the features
//! the policy reads ([`Features`]), and the best move among them. The float model is the policy before rounding:
//! a softmax over the candidates of `attack[own code] + defend[opp code] + w_own · clip(h_own) + w_opp ·
//! clip(h_opp)`, fitted by Adam on the cross-entropy against the best move, the tables pulled towards the
//! ordering's tables it starts from (`l2`), then rounded into a [`Policy`].
//!
//! Deterministic for a seed whatever the thread count: a batch is cut into chunks of [`super::CHUNK`] samples,
//! each chunk's gradient is summed in its own order on whichever thread takes it, and the chunks are added in
//! their order.

use super::{Adam, CHUNK, step_size};
use crate::eval::network::{Accumulator, F, Group, Network, ONE, TRAINED_SIZE};
use crate::eval::policy::{Features, NEAR, Policy, UNITS, WEIGHT_SCALE, network_checksum};
use crate::eval::{Family, Weights, order_value};
use crate::movegen::{Candidates, candidates};
use crate::pattern::{CODES, PatternBoard};
use crate::records::GameRecord;
use crate::types::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

/// One candidate move of a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Its point's index (ties between equal scores go to the lower index, as in the search's picker).
    pub point: u16,
    /// What the policy reads there.
    pub x: Features,
    /// Its value by today's ordering ([`order_value`] with the given weights), to compare with.
    pub order: i32,
}

/// One position with a searched best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Where its candidates start in [`PolicyData::candidates`].
    pub start: u32,
    /// How many candidates it has (two or more).
    pub len: u16,
    /// The best move's place among them.
    pub best: u16,
    /// The side to move.
    pub side: Color,
    /// The game it comes from (its order among the games read), for splitting by game.
    pub game: u32,
}

/// The samples of one rule group.
#[derive(Clone, Debug)]
pub struct PolicyData {
    /// The group.
    pub group: Group,
    /// Every sample's candidates, one after another.
    pub candidates: Vec<Candidate>,
    /// The samples.
    pub samples: Vec<Sample>,
    /// Games read (of the group and the trained size, with best moves).
    pub games: u32,
    /// Positions with a best move left out: forced (one candidate) or the best move not among the candidates.
    pub skipped: usize,
}

impl PolicyData {
    /// No samples yet, for `group`.
    #[must_use]
    pub fn new(group: Group) -> PolicyData {
        PolicyData { group, candidates: Vec::new(), samples: Vec::new(), games: 0, skipped: 0 }
    }

    /// Adds the positions of `game` that have a best move, their features read from `net`'s sums and today's
    /// ordering by `weights`. Games of another group or size, or without best moves, add nothing. Returns how
    /// many samples it added.
    pub fn add_game(&mut self, game: &GameRecord, net: &'static Network, weights: &Weights) -> usize {
        if Group::of(game.rule) != self.group || game.size != TRAINED_SIZE {
            return 0;
        }
        let Some(best) = &game.best else { return 0 };
        let Ok(mut pb) = PatternBoard::new(game.size, game.rule) else { return 0 };
        let mut acc = Accumulator::new(net, pb.board());
        let before = self.samples.len();
        let mut side = Color::Black;
        for (i, &m) in game.moves.iter().enumerate() {
            if let Some(Some(b)) = best.get(i) {
                self.add_position(&mut pb, &acc, side, *b, weights);
            }
            if !pb.board().is_empty(m) || pb.is_five(side, m) {
                break; // the game ends here (a five), or the record is wrong
            }
            pb.make(m, side);
            acc.make(pb.board(), m);
            side = side.opponent();
        }
        self.games += 1;
        self.samples.len() - before
    }

    fn add_position(&mut self, pb: &mut PatternBoard, acc: &Accumulator, side: Color, best: Pos, weights: &Weights) {
        let Candidates::Moves { moves, .. } = candidates(pb, side) else { return };
        let Some(at) = moves.iter().position(|&m| m == best).filter(|_| moves.len() >= 2) else {
            self.skipped += 1;
            return;
        };
        self.samples.push(Sample {
            start: self.candidates.len() as u32,
            len: moves.len() as u16,
            best: at as u16,
            side,
            game: self.games,
        });
        for &m in &moves {
            let x = Features::at(pb, acc, side, m);
            self.candidates.push(Candidate { point: m.index() as u16, x, order: order_value(pb, side, m, weights) });
        }
    }

    /// The candidates of sample `s`.
    #[must_use]
    pub fn of(&self, s: &Sample) -> &[Candidate] {
        &self.candidates[s.start as usize..s.start as usize + usize::from(s.len)]
    }

    /// The samples' indices split by game: the games of `held` (a set of game numbers) held out.
    #[must_use]
    pub fn split_by_game(&self, held: &[usize]) -> [Vec<usize>; 2] {
        let mut out = [Vec::new(), Vec::new()];
        let mut is_held = vec![false; self.games as usize];
        for &g in held {
            if let Some(h) = is_held.get_mut(g) {
                *h = true;
            }
        }
        for (i, s) in self.samples.iter().enumerate() {
            out[usize::from(is_held[s.game as usize])].push(i);
        }
        out
    }
}

/// How a policy run trains.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyOptions {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size (falling linearly to a tenth over the run).
    pub lr: f64,
    /// The seed of the order.
    pub seed: u64,
    /// How hard the code tables are pulled back towards the tables they start from (per step, on the logit scale).
    pub l2: f64,
    /// Units of a hidden layer over the point's features beside the linear policy (0: none). A measurement: the
    /// engine's policy file holds the linear part alone (see [`PolicyModel::with_hidden`]).
    pub hidden: usize,
}

impl Default for PolicyOptions {
    fn default() -> PolicyOptions {
        PolicyOptions { epochs: 40, batch: 256, lr: 0.05, seed: 1, l2: 0.0, hidden: 0 }
    }
}

/// Values per side of tables: both code tables, both views' weights, both tables of buckets.
const SIDE_LEN: usize = 2 * CODES + 2 * F + 2 * NEAR;
/// Where the bucket tables start in a side.
const NEAR_AT: usize = 2 * CODES + 2 * F;
/// The hidden layer's inputs: both views' clipped sums (in `[0, 1]`) and the two buckets, one-hot.
const INPUTS: usize = 2 * F + 2 * NEAR;
/// Values per hidden unit: its input weights, its bias and its output weight.
const UNIT_LEN: usize = INPUTS + 2;
/// The largest weight of a sum that the rounded policy can hold.
const WEIGHT_LIMIT: f32 = (i16::MAX as f64 / WEIGHT_SCALE) as f32;

/// The policy in floats: per side of tables, `attack`, `defend` (logits), the mover's view's weights and the
/// opponent's (logits per unit of a clipped feature), the buckets' values; then, where it has a hidden layer, per
/// side its units (each `relu(w · x + b)` times its output weight, added to the logit; `x` the point's clipped sums
/// and buckets, [`INPUTS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyModel {
    /// The group.
    pub group: Group,
    /// The values: the linear part side after side, then the hidden units side after side.
    pub params: Vec<f32>,
    /// Units of the hidden layer per side (0: none).
    pub hidden: usize,
}

/// The hidden layer's input vector of `x`.
fn inputs(x: &Features) -> [f32; INPUTS] {
    let mut v = [0.0; INPUTS];
    let one = f32::from(ONE);
    for i in 0..F {
        v[i] = f32::from(x.own[i]) / one;
        v[F + i] = f32::from(x.opp[i]) / one;
    }
    v[2 * F + usize::from(x.last)] = 1.0;
    v[2 * F + NEAR + usize::from(x.before)] = 1.0;
    v
}

/// A hidden unit's value before the ReLU: its bias plus its input weights times `input`.
fn pre_activation(unit: &[f32], input: &[f32; INPUTS]) -> f32 {
    unit[INPUTS] + unit[..INPUTS].iter().zip(input).map(|(w, x)| w * x).sum::<f32>()
}

/// The rule whose tables a group's sides start from.
fn rule_of(group: Group) -> Rule {
    match group {
        Group::Freestyle => Rule::Freestyle,
        Group::Standard => Rule::Standard,
        Group::Renju => Rule::Renju,
    }
}

impl PolicyModel {
    /// Today's ordering as a policy: `weights`' attack and defence tables (taken as logits × [`UNITS`] and
    /// multiplied by `temperature`), no weight on the sums.
    #[must_use]
    pub fn from_ordering(group: Group, weights: &Weights, temperature: f32) -> PolicyModel {
        let mut params = vec![0.0; group.tables() * SIDE_LEN];
        for (t, side) in params.chunks_mut(SIDE_LEN).enumerate() {
            let colour = if t == 0 { Color::Black } else { Color::White };
            let family = Family::of(rule_of(group), colour).index();
            for c in 0..CODES {
                side[c] = f32::from(weights.attack[family][c]) * temperature / UNITS as f32;
                side[CODES + c] = f32::from(weights.defend[family][c]) * temperature / UNITS as f32;
            }
        }
        PolicyModel { group, params, hidden: 0 }
    }

    /// The model with a hidden layer of `units` units per side added (their input weights small and seeded by
    /// `seed`, their output weights zero: the logits are unchanged until training moves them).
    #[must_use]
    pub fn with_hidden(mut self, units: usize, seed: u64) -> PolicyModel {
        let mut rng = StdRng::seed_from_u64(seed);
        let scale = 1.0 / (INPUTS as f32).sqrt();
        self.params.truncate(self.linear_len());
        for _ in 0..self.group.tables() * units {
            for _ in 0..INPUTS {
                self.params.push(rng.random_range(-scale..scale));
            }
            self.params.push(rng.random_range(0.0..scale));
            self.params.push(0.0);
        }
        self.hidden = units;
        self
    }

    fn base(&self, side: Color) -> usize {
        self.table_of(side) * SIDE_LEN
    }

    fn table_of(&self, side: Color) -> usize {
        side.index().min(self.group.tables() - 1)
    }

    /// How many values the linear part holds (the hidden units follow).
    fn linear_len(&self) -> usize {
        self.group.tables() * SIDE_LEN
    }

    /// Where `side`'s hidden units lie in the values.
    fn hidden_range(&self, side: Color) -> std::ops::Range<usize> {
        let at = self.linear_len() + self.table_of(side) * self.hidden * UNIT_LEN;
        at..at + self.hidden * UNIT_LEN
    }

    /// The logit of candidate features `x` for `side`.
    #[must_use]
    pub fn logit(&self, side: Color, x: &Features) -> f32 {
        let p = &self.params[self.base(side)..][..SIDE_LEN];
        let mut v = p[usize::from(x.own_code)]
            + p[CODES + usize::from(x.opp_code)]
            + p[NEAR_AT + usize::from(x.last)]
            + p[NEAR_AT + NEAR + usize::from(x.before)];
        let one = f32::from(ONE);
        for i in 0..F {
            v += p[2 * CODES + i] * f32::from(x.own[i]) / one + p[2 * CODES + F + i] * f32::from(x.opp[i]) / one;
        }
        if self.hidden > 0 {
            let input = inputs(x);
            for unit in self.params[self.hidden_range(side)].chunks(UNIT_LEN) {
                v += unit[INPUTS + 1] * pre_activation(unit, &input).max(0.0);
            }
        }
        v
    }

    /// Adds the gradient of `d` (the loss's derivative by the logit of `x`) into `grad`.
    fn backward(&self, side: Color, x: &Features, d: f32, grad: &mut [f32]) {
        let g = &mut grad[self.base(side)..][..SIDE_LEN];
        g[usize::from(x.own_code)] += d;
        g[CODES + usize::from(x.opp_code)] += d;
        g[NEAR_AT + usize::from(x.last)] += d;
        g[NEAR_AT + NEAR + usize::from(x.before)] += d;
        let one = f32::from(ONE);
        for i in 0..F {
            g[2 * CODES + i] += d * f32::from(x.own[i]) / one;
            g[2 * CODES + F + i] += d * f32::from(x.opp[i]) / one;
        }
        if self.hidden > 0 {
            let input = inputs(x);
            let range = self.hidden_range(side);
            for (unit, g) in self.params[range.clone()].chunks(UNIT_LEN).zip(grad[range].chunks_mut(UNIT_LEN)) {
                let pre = pre_activation(unit, &input);
                if pre > 0.0 {
                    g[INPUTS + 1] += d * pre;
                    let back = d * unit[INPUTS + 1];
                    g[INPUTS] += back;
                    for (g, x) in g[..INPUTS].iter_mut().zip(&input) {
                        *g += back * x;
                    }
                }
            }
        }
    }

    /// Rounded into a policy, reading the sums of `net` (the linear part: a hidden layer is left out).
    #[must_use]
    pub fn round(&self, net: &Network) -> Policy {
        let mut policy = Policy::zero(self.group, network_checksum(net));
        let table = |v: f32| (f64::from(v) * UNITS).round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
        let weight =
            |v: f32| (f64::from(v) * WEIGHT_SCALE).round().clamp(-f64::from(i16::MAX), f64::from(i16::MAX)) as i16;
        for (s, p) in policy.sides.iter_mut().zip(self.params.chunks(SIDE_LEN)) {
            for c in 0..CODES {
                s.attack[c] = table(p[c]);
                s.defend[c] = table(p[CODES + c]);
            }
            for i in 0..F {
                s.own[i] = weight(p[2 * CODES + i]);
                s.opp[i] = weight(p[2 * CODES + F + i]);
            }
            for b in 0..NEAR {
                s.last[b] = table(p[NEAR_AT + b]);
                s.before[b] = table(p[NEAR_AT + NEAR + b]);
            }
        }
        policy
    }
}

/// The softmax cross-entropy over a sample's candidates of the logits `logits` against the best, and each
/// candidate's derivative (`p − [best]`) written into `logits`.
fn softmax_loss(logits: &mut [f32], best: usize) -> f64 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f64 = logits.iter().map(|&l| f64::from(l - max).exp()).sum();
    let loss = sum.ln() - f64::from(logits[best] - max);
    for (j, l) in logits.iter_mut().enumerate() {
        *l = (f64::from(*l - max).exp() / sum) as f32 - if j == best { 1.0 } else { 0.0 };
    }
    loss
}

/// How well a scorer picks the best move over some samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Samples.
    pub samples: usize,
    /// Samples whose best move the scorer ranks first.
    pub top1: usize,
    /// Samples whose best move it ranks among the first three.
    pub top3: usize,
}

impl Agreement {
    /// `top-1 A% top-3 B% (of N)`.
    #[must_use]
    pub fn text(&self) -> String {
        let pct = |k: usize| 100.0 * k as f64 / self.samples.max(1) as f64;
        format!("top-1 {:.1}% top-3 {:.1}% (of {})", pct(self.top1), pct(self.top3), self.samples)
    }
}

/// The agreement over `which` of a scorer (`score(side, candidate)`, higher first, the lower point first among
/// equals, as the search's picker orders).
pub fn agreement<T: PartialOrd>(
    data: &PolicyData,
    which: &[usize],
    score: impl Fn(Color, &Candidate) -> T + Sync,
) -> Agreement {
    which
        .par_iter()
        .map(|&i| {
            let s = &data.samples[i];
            let cands = data.of(s);
            let best = &cands[usize::from(s.best)];
            let b = score(s.side, best);
            let ahead = cands
                .iter()
                .filter(|c| {
                    let v = score(s.side, c);
                    v > b || (v == b && c.point < best.point)
                })
                .count();
            Agreement { samples: 1, top1: usize::from(ahead == 0), top3: usize::from(ahead < 3) }
        })
        .reduce(Agreement::default, |a, b| Agreement {
            samples: a.samples + b.samples,
            top1: a.top1 + b.top1,
            top3: a.top3 + b.top3,
        })
}

/// The temperature that fits today's ordering best to the best moves of `which` as a softmax (the least mean
/// cross-entropy over a grid of 41 points from 1/100 to 1, evenly spaced on the log scale).
#[must_use]
pub fn fit_temperature(data: &PolicyData, which: &[usize], weights: &Weights) -> f32 {
    let at = |k: i32| 10f32.powf(-2.0 + k as f32 / 20.0);
    let loss_at = |k: i32| loss(&PolicyModel::from_ordering(data.group, weights, at(k)), data, which);
    let best = (0..=40).map(|k| (loss_at(k), k)).min_by(|a, b| a.0.total_cmp(&b.0)).map_or(40, |(_, k)| k);
    at(best)
}

/// The mean cross-entropy of `model` over `which`.
#[must_use]
pub fn loss(model: &PolicyModel, data: &PolicyData, which: &[usize]) -> f64 {
    if which.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = which
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&i| {
                    let s = &data.samples[i];
                    let mut logits: Vec<f32> = data.of(s).iter().map(|c| model.logit(s.side, &c.x)).collect();
                    softmax_loss(&mut logits, usize::from(s.best))
                })
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / which.len() as f64
}

/// Fits `model` to the samples `split[0]`, reporting the mean cross-entropy on both parts after every epoch (and
/// before the first) as `(epoch, [train, held out])`.
pub fn train_policy(
    model: &mut PolicyModel,
    data: &PolicyData,
    split: [&[usize]; 2],
    options: &PolicyOptions,
    mut progress: impl FnMut(usize, [f64; 2]),
) {
    let measure = |model: &PolicyModel| split.map(|s| loss(model, data, s));
    progress(0, measure(model));
    let len = model.params.len();
    let start = model.params.clone();
    let mut adam = Adam::new(len);
    let batch = options.batch.max(1);
    let mut sums: Vec<Vec<f32>> = (0..batch.div_ceil(CHUNK)).map(|_| vec![0.0; len]).collect();
    let mut total = vec![0.0f32; len];
    let mut order = split[0].to_vec();
    let mut rng = StdRng::seed_from_u64(options.seed);
    for epoch in 1..=options.epochs {
        let lr = step_size(options.lr, epoch, options.epochs);
        order.shuffle(&mut rng);
        for step in order.chunks(batch) {
            let scale = 1.0 / step.len() as f32;
            let model_ref: &PolicyModel = model;
            sums.par_iter_mut().zip(step.par_chunks(CHUNK)).for_each(|(grad, chunk)| {
                let mut logits = Vec::new();
                for &i in chunk {
                    let s = &data.samples[i];
                    let cands = data.of(s);
                    logits.clear();
                    logits.extend(cands.iter().map(|c| model_ref.logit(s.side, &c.x)));
                    softmax_loss(&mut logits, usize::from(s.best));
                    for (c, &d) in cands.iter().zip(&logits) {
                        model_ref.backward(s.side, &c.x, d * scale, grad);
                    }
                }
            });
            // The chunks' sums, added in chunk order.
            for grad in &mut sums[..step.len().div_ceil(CHUNK)] {
                for (t, g) in total.iter_mut().zip(grad.iter_mut()) {
                    *t += *g;
                    *g = 0.0;
                }
            }
            // The tables are pulled towards where they started.
            let l2 = options.l2 as f32;
            let linear = model.linear_len();
            if l2 > 0.0 {
                let sides = total[..linear].chunks_mut(SIDE_LEN);
                let sides = sides.zip(model.params[..linear].chunks(SIDE_LEN)).zip(start.chunks(SIDE_LEN));
                for ((g, p), s) in sides {
                    for ((g, p), s) in g[..2 * CODES].iter_mut().zip(&p[..2 * CODES]).zip(&s[..2 * CODES]) {
                        *g += l2 * (p - s);
                    }
                }
            }
            let (c1, c2) = adam.next_step();
            for i in 0..len {
                if total[i] != 0.0 || adam.m[i] != 0.0 {
                    adam.step_one(&mut model.params, &total, i, lr, c1, c2);
                }
                total[i] = 0.0;
            }
            for side in model.params[..linear].chunks_mut(SIDE_LEN) {
                for w in &mut side[2 * CODES..NEAR_AT] {
                    *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
                }
            }
        }
        progress(epoch, measure(model));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::default_weights;
    use crate::eval::network::default_network;
    use crate::records::Outcome;

    /// A renju game whose every position's best move is the move played.
    fn game(moves: &[&str]) -> GameRecord {
        let moves: Vec<Pos> = moves.iter().map(|m| Pos::parse(m, 15).expect("a point")).collect();
        let best = Some(moves.iter().map(|&m| Some(m)).collect());
        GameRecord {
            rule: Rule::Renju,
            size: 15,
            outcome: Outcome::BlackWins,
            opening: 0,
            moves,
            scores: None,
            players: None,
            best,
            forbidden_end: None,
        }
    }

    fn data() -> Option<(PolicyData, &'static Network)> {
        let net = default_network(Rule::Renju, 15)?;
        let mut data = PolicyData::new(Group::Renju);
        let games = [
            game(&["h8", "h9", "j10", "g7", "i9", "g9", "g10", "j8", "k11", "l12", "f9", "e8", "g8", "i10"]),
            game(&["h8", "i9", "j8", "g8", "i7", "h7", "h6", "g5", "j7", "j6", "k6", "l5", "g10", "h9"]),
            game(&["h8", "g9", "h10", "h9", "i9", "j10", "g7", "f6", "i8", "i7", "j8", "k8", "g8", "f8"]),
        ];
        for g in &games {
            data.add_game(g, net, default_weights());
        }
        Some((data, net))
    }

    #[test]
    fn samples_are_the_positions_with_a_best_move_among_several_candidates() {
        let Some((data, _)) = data() else { return };
        assert_eq!(data.games, 3);
        assert!(data.samples.len() > 20, "{} samples", data.samples.len());
        for s in &data.samples {
            let cands = data.of(s);
            assert!(cands.len() >= 2 && usize::from(s.best) < cands.len());
            // No point twice, and the best move's features are its own.
            let mut points: Vec<u16> = cands.iter().map(|c| c.point).collect();
            points.sort_unstable();
            points.dedup();
            assert_eq!(points.len(), cands.len());
        }
        let [train, held] = data.split_by_game(&[1]);
        assert_eq!(train.len() + held.len(), data.samples.len());
        assert!(held.iter().all(|&i| data.samples[i].game == 1) && !held.is_empty());
    }

    #[test]
    fn the_ordering_as_a_policy_ranks_as_the_ordering_and_training_fits_the_moves() {
        let Some((data, net)) = data() else { return };
        let all: Vec<usize> = (0..data.samples.len()).collect();
        let start = PolicyModel::from_ordering(Group::Renju, default_weights(), 1.0);
        // Rounded, the ordering's own tables score each candidate as the ordering does.
        let rounded = start.round(net);
        let ordering = agreement(&data, &all, |_, c| c.order);
        assert_eq!(agreement(&data, &all, |side, c| rounded.score_of(side, &c.x)), ordering);
        // Training starts from the ordering at its best temperature (at 1 it is far too sure of itself).
        let temperature = fit_temperature(&data, &all, default_weights());
        assert!(temperature < 0.5, "temperature {temperature}");
        let start = PolicyModel::from_ordering(Group::Renju, default_weights(), temperature);
        assert!(
            loss(&start, &data, &all)
                < loss(&PolicyModel::from_ordering(Group::Renju, default_weights(), 1.0), &data, &all)
        );
        let mut model = start.clone();
        let options = PolicyOptions { epochs: 30, batch: 16, lr: 0.05, seed: 3, l2: 0.0, hidden: 0 };
        let mut losses = Vec::new();
        train_policy(&mut model, &data, [&all, &[]], &options, |_, l| losses.push(l[0]));
        assert!(losses[losses.len() - 1] < 0.7 * losses[0], "losses {losses:?}");
        let fitted = agreement(&data, &all, |side, c| model.round(net).score_of(side, &c.x));
        assert!(fitted.top1 > ordering.top1, "{fitted:?} vs {ordering:?}");
        // The same seed gives the same model, with one thread or several.
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
        let mut again = start.clone();
        one.install(|| train_policy(&mut again, &data, [&all, &[]], &options, |_, _| {}));
        assert_eq!(again, model);
    }

    #[test]
    fn a_hidden_layer_starts_as_the_linear_policy_and_its_gradient_is_the_logits_slope() {
        let Some((data, _)) = data() else { return };
        let linear = PolicyModel::from_ordering(Group::Renju, default_weights(), 0.1);
        let mut model = linear.clone().with_hidden(4, 9);
        assert_eq!(model.params.len(), linear.params.len() + 2 * 4 * UNIT_LEN);
        let s = &data.samples[data.samples.len() / 2];
        let cands = data.of(s);
        for c in cands {
            assert_eq!(model.logit(s.side, &c.x), linear.logit(s.side, &c.x), "zero output weights add nothing");
        }
        // Output weights away from zero, then each of the hidden layer's values checked against a finite difference.
        let hidden_at = linear.params.len();
        for (i, v) in model.params[hidden_at..].iter_mut().enumerate() {
            if i % UNIT_LEN == INPUTS + 1 {
                *v = 0.5 - (i / UNIT_LEN) as f32 * 0.3;
            }
        }
        let x = &cands[0].x;
        let mut grad = vec![0.0; model.params.len()];
        model.backward(s.side, x, 1.0, &mut grad);
        let mut moved = 0;
        for (i, &g) in grad.iter().enumerate().skip(hidden_at) {
            let mut up = model.clone();
            up.params[i] += 1e-2;
            let mut down = model.clone();
            down.params[i] -= 1e-2;
            let slope = (up.logit(s.side, x) - down.logit(s.side, x)) / 2e-2;
            assert!((slope - g).abs() < 1e-2, "value {i}: slope {slope}, gradient {g}");
            moved += usize::from(g != 0.0);
        }
        assert!(moved > 4, "the hidden layer's gradient is not all zero ({moved})");
        // Training with it lowers the loss as the linear policy's does.
        let all: Vec<usize> = (0..data.samples.len()).collect();
        let before = loss(&model, &data, &all);
        let options = PolicyOptions { epochs: 10, batch: 16, lr: 0.02, seed: 3, l2: 0.0, hidden: 4 };
        train_policy(&mut model, &data, [&all, &[]], &options, |_, _| {});
        assert!(loss(&model, &data, &all) < 0.8 * before);
    }
}
