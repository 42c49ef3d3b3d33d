//! The float reference model of the network (see [`crate::eval::network`]): the same function in single
//! precision with unrounded tables, its forward and backward passes over one position, and its rounding into a
//! [`Network`]. On a board of another size than [`TRAINED_SIZE`] the pools are shifted as the engine shifts them
//! (the trained size's empty-board pools added, this size's subtracted: see
//! [`crate::eval::network::Accumulator::shift`]), and the gradient flows through the shift too: a 20×20 position
//! teaches the network what it reads there.

use crate::board::Board;
use crate::eval::network::features::{row, window_at};
use crate::eval::network::{F, FLAGS, Group, H1, H2, INPUTS, Network, ONE, ROWS, TRAINED_SIZE};
use crate::types::Color;

/// Where each part of the parameter vector starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Tables (one per view in renju, one shared otherwise), row-major.
    pub tables: usize,
    /// First layer, input-major.
    pub w1: usize,
    /// Its biases.
    pub b1: usize,
    /// Second layer, input-major.
    pub w2: usize,
    /// Its biases.
    pub b2: usize,
    /// Output weights.
    pub w3: usize,
    /// Output bias.
    pub b3: usize,
    /// Total length.
    pub len: usize,
}

impl Layout {
    /// The layout of a group's model.
    #[must_use]
    pub const fn of(group: Group) -> Layout {
        let w1 = group.tables() * ROWS * F;
        let b1 = w1 + INPUTS * H1;
        let w2 = b1 + H1;
        let b2 = w2 + H1 * H2;
        let w3 = b2 + H2;
        let b3 = w3 + H2;
        Layout { tables: 0, w1, b1, w2, b2, w3, b3, len: b3 + 1 }
    }
}

/// The largest table value (the 16-bit tables must hold four of them summed).
pub const TABLE_LIMIT: f32 = 15.9;

/// The float model.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The rules it serves.
    pub group: Group,
    /// Every parameter, as [`Layout`] places them.
    pub params: Vec<f32>,
    /// Whether only the empty points are pooled (see [`Network::empty_only`]).
    pub empty_only: bool,
}

/// What the forward pass keeps for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Points pooled per view: the board's, and on another size than the trained one the two empty boards' too.
    points: usize,
    /// Per pooled point (the same in both views): +1 where it adds to the pool, -1 where it is subtracted (the
    /// empty board of the position's own size).
    signs: Vec<f32>,
    /// Per view, point and direction: the table row (offset of its first value in the parameters).
    rows: Vec<u32>,
    /// Per view and point: `h`.
    h: Vec<[f32; F]>,
    /// The head's inputs.
    x: Vec<f32>,
    y1: [f32; H1],
    y2: [f32; H2],
    /// The logit.
    pub logit: f32,
}

impl Model {
    /// A model whose parameters are drawn from `seed`: table values around 0.05 (so that most points start with
    /// their features inside the clip), small head weights.
    #[must_use]
    pub fn random(group: Group, seed: u64) -> Model {
        let layout = Layout::of(group);
        let mut s = seed ^ 0x9e37_79b9_7f4a_7c15;
        let mut uniform = move || {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((s >> 40) as f32) / (1u64 << 24) as f32
        };
        let mut params = vec![0.0; layout.len];
        for (i, p) in params.iter_mut().enumerate() {
            *p = if i < layout.w1 {
                0.05 + 0.2 * (uniform() - 0.5)
            } else if i < layout.b1 {
                0.2 * (uniform() - 0.5)
            } else if i < layout.w2 {
                0.5
            } else if i < layout.b2 {
                2.0 * (uniform() - 0.5) / (H1 as f32).sqrt()
            } else if i < layout.w3 {
                0.5
            } else if i < layout.b3 {
                2.0 * (uniform() - 0.5) / (H2 as f32).sqrt()
            } else {
                0.0
            };
        }
        Model { group, params, empty_only: false }
    }

    /// Its layout.
    #[must_use]
    pub fn layout(&self) -> Layout {
        Layout::of(self.group)
    }

    /// The side to move's logit for the position `board`, `side` to move, with the head's `flags`; `trace` keeps
    /// what the backward pass needs.
    pub fn forward(&self, board: &Board, side: Color, flags: u32, trace: &mut Trace) -> f32 {
        let l = self.layout();
        let p = &self.params;
        // The boards pooled, each with its sign: the position's, and on another size the shift's two empty boards.
        let shift = (board.size() != TRAINED_SIZE).then(|| [Board::new(TRAINED_SIZE), Board::new(board.size())]);
        let mut boards: Vec<(&Board, f32)> = vec![(board, 1.0)];
        if let Some([trained, own]) = &shift {
            boards.extend([(trained, 1.0), (own, -1.0)]);
        }
        trace.signs.clear();
        for &(b, sign) in &boards {
            trace.signs.extend(std::iter::repeat_n(sign, b.size() * b.size()));
        }
        trace.points = trace.signs.len();
        trace.rows.clear();
        trace.h.clear();
        let mut pools = [[0.0f32; F]; 2];
        for (v, pool) in pools.iter_mut().enumerate() {
            let base = v.min(self.group.tables() - 1) * ROWS * F;
            for &(b, sign) in &boards {
                for q in b.points() {
                    let mut h = [0.0f32; F];
                    if self.empty_only && !b.is_empty(q) {
                        // Not pooled: a sum of zero passes no gradient to the rows kept for it.
                        trace.rows.extend([0; 4]);
                        trace.h.push(h);
                        continue;
                    }
                    for d in 0..4 {
                        let (word, along) = b.line(d, q);
                        let r = base + row(v, window_at(word, along, 0)) * F;
                        trace.rows.push(r as u32);
                        let t: &[f32; F] = p[r..r + F].try_into().expect("a row");
                        for i in 0..F {
                            h[i] += t[i];
                        }
                    }
                    for (a, x) in pool.iter_mut().zip(&h) {
                        *a += sign * x.clamp(0.0, 1.0);
                    }
                    trace.h.push(h);
                }
            }
        }
        let (own, opp) = (side.index(), side.opponent().index());
        trace.x.clear();
        trace.x.extend(pools[own].iter().chain(&pools[opp]).map(|a| a / 32.0));
        trace.x.extend((0..FLAGS).map(|i| if flags >> i & 1 != 0 { 1.0 } else { 0.0 }));
        let mut z1: [f32; H1] = p[l.b1..l.b1 + H1].try_into().expect("biases");
        for (i, &x) in trace.x.iter().enumerate() {
            let w = &p[l.w1 + i * H1..l.w1 + (i + 1) * H1];
            for j in 0..H1 {
                z1[j] += x * w[j];
            }
        }
        trace.y1 = z1.map(|z| z.clamp(0.0, 1.0));
        let mut z2: [f32; H2] = p[l.b2..l.b2 + H2].try_into().expect("biases");
        for (j, &y) in trace.y1.iter().enumerate() {
            let w = &p[l.w2 + j * H2..l.w2 + (j + 1) * H2];
            for k in 0..H2 {
                z2[k] += y * w[k];
            }
        }
        trace.y2 = z2.map(|z| z.clamp(0.0, 1.0));
        let mut out = p[l.b3];
        for k in 0..H2 {
            out += trace.y2[k] * p[l.w3 + k];
        }
        trace.logit = out;
        out
    }

    /// Adds to `grad` the gradient of the loss with respect to every parameter, given the loss's derivative
    /// `dlogit` with respect to the logit of the position `trace` was taken on (`side` to move); calls `touch`
    /// with the offset of every table row it adds to.
    pub fn backward(&self, trace: &Trace, side: Color, dlogit: f32, grad: &mut [f32], mut touch: impl FnMut(u32)) {
        let l = self.layout();
        let p = &self.params;
        grad[l.b3] += dlogit;
        let mut dz2 = [0.0f32; H2];
        for k in 0..H2 {
            grad[l.w3 + k] += dlogit * trace.y2[k];
            let y = trace.y2[k];
            if y > 0.0 && y < 1.0 {
                dz2[k] = dlogit * p[l.w3 + k];
            }
        }
        let mut dz1 = [0.0f32; H1];
        for j in 0..H1 {
            let w = &p[l.w2 + j * H2..l.w2 + (j + 1) * H2];
            let g = &mut grad[l.w2 + j * H2..l.w2 + (j + 1) * H2];
            let mut dy = 0.0;
            for k in 0..H2 {
                g[k] += trace.y1[j] * dz2[k];
                dy += w[k] * dz2[k];
            }
            let y = trace.y1[j];
            if y > 0.0 && y < 1.0 {
                dz1[j] = dy;
            }
        }
        for k in 0..H2 {
            grad[l.b2 + k] += dz2[k];
        }
        for j in 0..H1 {
            grad[l.b1 + j] += dz1[j];
        }
        // The pools' gradients: only the pool inputs, not the flags.
        let mut dpool = [[0.0f32; F]; 2];
        for (i, &x) in trace.x.iter().enumerate() {
            let w = &p[l.w1 + i * H1..l.w1 + (i + 1) * H1];
            let g = &mut grad[l.w1 + i * H1..l.w1 + (i + 1) * H1];
            let mut dx = 0.0;
            for j in 0..H1 {
                g[j] += x * dz1[j];
                dx += w[j] * dz1[j];
            }
            if i < 2 * F {
                let view = if i < F { side.index() } else { side.opponent().index() };
                dpool[view][i % F] = dx / 32.0;
            }
        }
        for (v, dp) in dpool.iter().enumerate() {
            for q in 0..trace.points {
                let h = &trace.h[v * trace.points + q];
                let sign = trace.signs[q];
                let mut dg = [0.0f32; F];
                let mut any = false;
                for i in 0..F {
                    if h[i] > 0.0 && h[i] < 1.0 {
                        dg[i] = sign * dp[i];
                        any = true;
                    }
                }
                if !any {
                    continue;
                }
                for d in 0..4 {
                    let r = trace.rows[(v * trace.points + q) * 4 + d];
                    touch(r);
                    let g: &mut [f32; F] = (&mut grad[r as usize..r as usize + F]).try_into().expect("a row");
                    for i in 0..F {
                        g[i] += dg[i];
                    }
                }
            }
        }
    }

    /// Keeps the tables inside what 16-bit integers hold.
    pub fn clip(&mut self) {
        let w1 = self.layout().w1;
        for v in &mut self.params[..w1] {
            *v = v.clamp(-TABLE_LIMIT, TABLE_LIMIT);
        }
    }

    /// The network: tables rounded to 1/[`ONE`], the head as it is, `scale` evaluation units per logit.
    #[must_use]
    pub fn quantise(&self, scale: f32, header: Vec<String>) -> Network {
        let l = self.layout();
        let p = &self.params;
        let mut net = Network::zero(self.group);
        for (t, table) in net.tables.iter_mut().enumerate() {
            for (r, out) in table.iter_mut().enumerate() {
                let at = (t * ROWS + r) * F;
                for i in 0..F {
                    *out.get_mut(i).expect("F values") = (p[at + i] * f32::from(ONE)).round() as i16;
                }
            }
        }
        for i in 0..INPUTS {
            net.w1[i].copy_from_slice(&p[l.w1 + i * H1..l.w1 + (i + 1) * H1]);
        }
        net.b1.copy_from_slice(&p[l.b1..l.b1 + H1]);
        for j in 0..H1 {
            net.w2[j].copy_from_slice(&p[l.w2 + j * H2..l.w2 + (j + 1) * H2]);
        }
        net.b2.copy_from_slice(&p[l.b2..l.b2 + H2]);
        net.w3.copy_from_slice(&p[l.w3..l.w3 + H2]);
        net.b3 = p[l.b3];
        net.scale = scale;
        net.empty_only = self.empty_only;
        net.header = header;
        net
    }

    /// The model of a network (its tables as they were rounded).
    #[must_use]
    pub fn from_network(net: &Network) -> Model {
        let l = Layout::of(net.group);
        let mut params = vec![0.0; l.len];
        for (t, table) in net.tables.iter().enumerate() {
            for (r, values) in table.iter().enumerate() {
                for i in 0..F {
                    params[(t * ROWS + r) * F + i] = f32::from(values[i]) / f32::from(ONE);
                }
            }
        }
        for i in 0..INPUTS {
            params[l.w1 + i * H1..l.w1 + (i + 1) * H1].copy_from_slice(&net.w1[i]);
        }
        params[l.b1..l.b1 + H1].copy_from_slice(&net.b1);
        for j in 0..H1 {
            params[l.w2 + j * H2..l.w2 + (j + 1) * H2].copy_from_slice(&net.w2[j]);
        }
        params[l.b2..l.b2 + H2].copy_from_slice(&net.b2);
        params[l.w3..l.w3 + H2].copy_from_slice(&net.w3);
        params[l.b3] = net.b3;
        Model { group: net.group, params, empty_only: net.empty_only }
    }
}
