//! The move policy: how likely each legal point is to be the best move for the side to move, as a score in the
//! ordering's units (a softmax logit × [`UNITS`], the units of [`super::order_value`], so that the search's killer
//! and history bonuses mean the same beside it).
//!
//! A point's score is the sum of these parts, each read off state the search already keeps:
//! - the mover's pattern code at the point (what the move makes) through a table, and the opponent's code there
//!   (what it stops) through another: [`super::order_value`]'s two tables, relearned;
//! - where the point lies from the opponent's last move and from the mover's own last move ([`near_bucket`]), each
//!   through a table: the fights are where the last stones went;
//! - the network's sums `h` at the point (see [`super::network`]): both views, clipped to `[0, 1]` per feature as
//!   the pools read them, each through a learned weight. They see the nine-point shapes of the point's four lines
//!   as the network learned them, and where the lines meet.
//!
//! Everything is integer (the tables 16-bit, the weights 16-bit against the sums' 16-bit clipped values, summed in
//! 32 bits and shifted), so the portable and vector paths of the accumulator give the same score bit for bit, and
//! the score after any make and undo is the score of the position built from scratch. One policy per rule group, two
//! sides of tables in renju (Black's moves, White's moves) as in the network; fitted by `pbrain-tengen train
//! --policy` (see [`crate::train::policy`]) to the best moves of searches deeper than the games' own, over the
//! sums of one network, whose file checksum it records: the build uses it only beside that network.

use super::network::{Accumulator, F, Group, Network, ONE, Reader, Row, seal, write_provenance};
use crate::pattern::{CODES, PatternBoard, code_of};
use crate::types::{Color, Pos};
use std::fmt;
use std::sync::OnceLock;

/// Score units per unit of the softmax logit (as [`super::order_value`]'s).
pub const UNITS: f64 = 100.0;
/// A weight `w` of the sums (logit per unit of a clipped feature) is kept as `round(w · WEIGHT_SCALE)`, and its
/// dot product with the clipped sums (in `[0, ONE]`) is shifted right by `WEIGHT_SHIFT`: the score is then in
/// [`UNITS`].
pub const WEIGHT_SHIFT: u32 = 15;
/// What a float weight is multiplied by to be stored.
pub const WEIGHT_SCALE: f64 = UNITS * (1u32 << WEIGHT_SHIFT) as f64 / ONE as f64;

/// The first bytes of a policy file.
const MAGIC: &[u8; 5] = b"TGPL\x01";

/// Buckets of where a point lies from an earlier move: 0 no such move, 1 to 4 on one of its lines at that
/// distance, 5 off its lines within two steps, 6 anywhere else.
pub const NEAR: usize = 7;

/// The bucket of `m` from the earlier move `q` (see [`NEAR`]).
#[must_use]
pub fn near_bucket(m: Pos, q: Option<Pos>) -> u8 {
    let Some(q) = q else { return 0 };
    let (dx, dy) = ((i32::from(m.x) - i32::from(q.x)).abs(), (i32::from(m.y) - i32::from(q.y)).abs());
    let d = dx.max(dy);
    if (dx == 0 || dy == 0 || dx == dy) && (1..=4).contains(&d) {
        d as u8
    } else if d <= 2 {
        5
    } else {
        6
    }
}

/// One side's tables: the moves of one colour (renju) or of both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// Per pattern code of the mover at the point.
    pub attack: Vec<i16>,
    /// Per pattern code of the opponent at the point.
    pub defend: Vec<i16>,
    /// Per feature of the mover's view of the point's sums.
    pub own: Row,
    /// Per feature of the opponent's view.
    pub opp: Row,
    /// Per bucket of the point from the opponent's last move ([`near_bucket`]).
    pub last: [i16; NEAR],
    /// Per bucket of the point from the mover's own last move.
    pub before: [i16; NEAR],
}

impl Side {
    fn zero() -> Side {
        Side {
            attack: vec![0; CODES],
            defend: vec![0; CODES],
            own: [0; F],
            opp: [0; F],
            last: [0; NEAR],
            before: [0; NEAR],
        }
    }
}

/// What the policy reads at one point for one mover: the two codes and the two views' clipped sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// The mover's pattern code at the point.
    pub own_code: u16,
    /// The opponent's pattern code at the point.
    pub opp_code: u16,
    /// The mover's view of the point's sums, clipped to `[0, ONE]`.
    pub own: Row,
    /// The opponent's view, clipped.
    pub opp: Row,
    /// The point's bucket from the opponent's last move.
    pub last: u8,
    /// Its bucket from the mover's own last move.
    pub before: u8,
}

impl Features {
    /// The features of `side`'s move `m` on `pb`, read from `acc` (settled, following `pb`'s board).
    #[must_use]
    pub fn at(pb: &PatternBoard, acc: &Accumulator, side: Color, m: Pos) -> Features {
        let clip = |r: &Row| -> Row { std::array::from_fn(|i| r[i].clamp(0, ONE)) };
        let moves = pb.board().moves();
        let back = |k: usize| moves.len().checked_sub(k).map(|i| moves[i].0);
        Features {
            last: near_bucket(m, back(1)),
            before: near_bucket(m, back(2)),
            own_code: code_of(pb.packed_patterns(side, m)) as u16,
            opp_code: code_of(pb.packed_patterns(side.opponent(), m)) as u16,
            own: clip(acc.sums(side, m)),
            opp: clip(acc.sums(side.opponent(), m)),
        }
    }
}

/// A move policy of one rule group.
#[derive(Clone, PartialEq, Eq)]
pub struct Policy {
    /// The rules it serves.
    pub group: Group,
    /// The FNV-1a checksum of the network file (its bytes as [`Network::to_bytes`] writes them) whose sums it reads.
    pub network: u64,
    /// Per side of tables ([`Group::tables`]).
    pub sides: Vec<Side>,
    /// The provenance: the data, the command line, the agreement it reached.
    pub header: Vec<String>,
}

impl fmt::Debug for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Policy({}, {})", self.group.name(), self.header.first().map_or("", String::as_str))
    }
}

impl Policy {
    /// A policy of zeros for `group`, reading the network of checksum `network`.
    #[must_use]
    pub fn zero(group: Group, network: u64) -> Policy {
        Policy { group, network, sides: (0..group.tables()).map(|_| Side::zero()).collect(), header: Vec::new() }
    }

    /// The tables of `mover`'s moves.
    #[inline]
    #[must_use]
    pub fn side(&self, mover: Color) -> &Side {
        &self.sides[mover.index().min(self.sides.len() - 1)]
    }

    /// The score of features `x` for `mover`.
    #[inline]
    #[must_use]
    pub fn score_of(&self, mover: Color, x: &Features) -> i32 {
        let s = self.side(mover);
        let mut dot = 0i32;
        for i in 0..F {
            dot += i32::from(s.own[i]) * i32::from(x.own[i]) + i32::from(s.opp[i]) * i32::from(x.opp[i]);
        }
        i32::from(s.attack[usize::from(x.own_code)])
            + i32::from(s.defend[usize::from(x.opp_code)])
            + i32::from(s.last[usize::from(x.last)])
            + i32::from(s.before[usize::from(x.before)])
            + (dot >> WEIGHT_SHIFT)
    }

    /// The score of `side`'s move `m` on `pb`, the network's state in `acc` (settled).
    #[inline]
    #[must_use]
    pub fn score(&self, pb: &PatternBoard, acc: &Accumulator, side: Color, m: Pos) -> i32 {
        self.score_of(side, &Features::at(pb, acc, side, m))
    }

    /// The policy as a file: the bytes `TGPL` and version 1; the provenance (a 4-byte length, then that many bytes
    /// of UTF-8); the group (0 freestyle, 1 standard, 2 renju); the network's checksum (8 bytes); the shape
    /// ([`CODES`], [`F`], [`NEAR`], 4 bytes each); per side of tables, the attack table, the defence table, the
    /// mover's weights, the opponent's, the buckets from the last move and from the one before (16-bit values); an
    /// FNV-1a checksum of everything before it (8 bytes). All little-endian.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.sides.len() * (4 * CODES + 4 * F) + 1000);
        out.extend_from_slice(MAGIC);
        write_provenance(&mut out, &self.header);
        out.push(self.group as u8);
        out.extend_from_slice(&self.network.to_le_bytes());
        for dim in [CODES, F, NEAR] {
            out.extend_from_slice(&(dim as u32).to_le_bytes());
        }
        for s in &self.sides {
            for v in s.attack.iter().chain(&s.defend).chain(&s.own).chain(&s.opp).chain(&s.last).chain(&s.before) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        seal(&mut out);
        out
    }

    /// Reads a policy file (see [`Policy::to_bytes`]).
    ///
    /// # Errors
    /// A message naming the byte offset and what was expected there: a file cut short, another format, a shape
    /// this build does not have, a checksum that does not match.
    pub fn from_bytes(bytes: &[u8]) -> Result<Policy, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len(), "the bytes TGPL and version 1")? != MAGIC {
            return Err("offset 0: not a Tengen policy file (expected the bytes TGPL and version 1)".into());
        }
        let header = r.provenance()?;
        let at = r.at;
        let group_byte = r.take(1, "the rule group")?[0];
        let group = Group::ALL
            .into_iter()
            .find(|g| *g as u8 == group_byte)
            .ok_or_else(|| format!("offset {at}: unknown rule group {group_byte} (expected 0, 1 or 2)"))?;
        let network = r.u64("the network's checksum")?;
        for (dim, name) in [(CODES, "pattern codes"), (F, "features"), (NEAR, "buckets")] {
            let at = r.at;
            let got = r.u32(name)? as usize;
            if got != dim {
                return Err(format!("offset {at}: {name} {got}, this build's policies have {dim} (wrong shape)"));
            }
        }
        let mut policy = Policy::zero(group, network);
        policy.header = header;
        for s in &mut policy.sides {
            let values = s.attack.iter_mut().chain(s.defend.iter_mut()).chain(s.own.iter_mut()).chain(s.opp.iter_mut());
            let values = values.chain(s.last.iter_mut()).chain(s.before.iter_mut());
            for v in values {
                let b = r.take(2, "a table value")?;
                *v = i16::from_le_bytes([b[0], b[1]]);
            }
        }
        r.sealed()?;
        Ok(policy)
    }

    /// Writes the policy to a file.
    ///
    /// # Errors
    /// I/O errors, with the path.
    pub fn save(&self, path: &str) -> Result<(), String> {
        std::fs::write(path, self.to_bytes()).map_err(|e| format!("cannot write {path}: {e}"))
    }
}

/// The checksum a policy records for `net`.
#[must_use]
pub fn network_checksum(net: &Network) -> u64 {
    super::network::checksum(&net.to_bytes())
}

/// The policies the build embeds (`data/network/<group>.tgpl`), where one was trained.
const EMBEDDED: [Option<&[u8]>; 3] = [
    Some(include_bytes!("../../data/network/freestyle.tgpl")),
    Some(include_bytes!("../../data/network/standard.tgpl")),
    Some(include_bytes!("../../data/network/renju.tgpl")),
];

/// The embedded policy of `group`, if the build has one.
#[must_use]
pub fn embedded(group: Group) -> Option<&'static Policy> {
    static POLICIES: [OnceLock<Option<Policy>>; 3] = [const { OnceLock::new() }; 3];
    let g = group as usize;
    POLICIES[g].get_or_init(|| EMBEDDED[g].and_then(|bytes| Policy::from_bytes(bytes).ok())).as_ref()
}

/// The policy to use beside `net`: the embedded policy of its group when it was fitted to that very network (the
/// build's embedded network, checked by checksum once), else none.
#[must_use]
pub fn for_network(net: &'static Network) -> Option<&'static Policy> {
    static MATCHES: [OnceLock<bool>; 3] = [const { OnceLock::new() }; 3];
    let policy = embedded(net.group)?;
    let default = super::network::embedded_network(net.group)?;
    if !std::ptr::eq(net, default) {
        return None;
    }
    MATCHES[net.group as usize].get_or_init(|| network_checksum(net) == policy.network).then_some(policy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn some_policy() -> Policy {
        let mut rng = StdRng::seed_from_u64(7);
        let mut p = Policy::zero(Group::Renju, 42);
        for s in &mut p.sides {
            let values = s.attack.iter_mut().chain(s.defend.iter_mut()).chain(s.own.iter_mut()).chain(s.opp.iter_mut());
            for v in values.chain(s.last.iter_mut()).chain(s.before.iter_mut()) {
                *v = rng.random_range(-3000..3000);
            }
        }
        p.header = vec!["a test policy".into(), "second line".into()];
        p
    }

    #[test]
    fn a_policy_file_reads_back_and_a_damaged_one_is_refused() {
        let p = some_policy();
        let bytes = p.to_bytes();
        assert_eq!(Policy::from_bytes(&bytes).expect("reads"), p);
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(Policy::from_bytes(&bad).unwrap_err().contains("checksum"));
        assert!(Policy::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err().contains("truncated"));
        assert!(Policy::from_bytes(b"TGNN\x01rest").unwrap_err().contains("not a Tengen policy"));
    }

    #[test]
    fn the_score_after_random_makes_and_undos_is_the_score_from_scratch() {
        let Some(net) = super::super::network::default_network(Rule::Renju, 15) else { return };
        let p = some_policy();
        let mut rng = StdRng::seed_from_u64(11);
        for simd in [true, false] {
            let mut pb = PatternBoard::new(15, Rule::Renju).expect("board");
            let mut acc = Accumulator::new(net, pb.board());
            if !simd {
                acc = acc.portable();
            }
            let mut placed: Vec<(Pos, Color)> = Vec::new();
            let mut side = Color::Black;
            for step in 0..300 {
                if !placed.is_empty() && (rng.random_range(0..3) == 0 || placed.len() > 40) {
                    let (m, _) = placed.pop().expect("a stone");
                    acc.unmake(pb.board(), m);
                    pb.undo();
                    side = side.opponent();
                } else {
                    let empty: Vec<Pos> = pb.board().points().filter(|&q| pb.board().is_empty(q)).collect();
                    let m = empty[rng.random_range(0..empty.len())];
                    pb.make(m, side);
                    acc.make(pb.board(), m);
                    placed.push((m, side));
                    side = side.opponent();
                }
                if step % 10 == 0 {
                    let fresh = Accumulator::new(net, pb.board());
                    for q in pb.board().points().filter(|&q| pb.board().is_empty(q)) {
                        let score = p.score(&pb, &acc, side, q);
                        assert_eq!(score, p.score(&pb, &fresh, side, q), "at {q:?}, step {step}");
                        assert_eq!(score, p.score_of(side, &Features::at(&pb, &fresh, side, q)));
                    }
                }
            }
        }
    }

    #[test]
    fn the_embedded_policy_was_fitted_to_the_embedded_network() {
        for group in Group::ALL {
            if let Some(policy) = embedded(group) {
                let net = super::super::network::embedded_network(group).expect("a policy needs its network");
                assert_eq!(policy.group, group);
                assert_eq!(policy.network, network_checksum(net), "{group:?}: retrain the policy beside the network");
                assert!(for_network(net).is_some());
            }
        }
        assert!(Group::ALL.iter().all(|&g| embedded(g).is_some()), "the build ships a policy for every group");
    }
}
