//! The network evaluation: learned tables over the raw shapes of every point's four lines, pooled over the board,
//! and a small dense head.
//!
//! For each point `q` of the board and each view (Black's and White's), `h(q)` is the sum of four table rows, one
//! per line through `q`, chosen by the shape of the nine points of that line centred on `q` (see [`features`]).
//! The clipped `clamp(h(q), 0, 1)` (per feature, [`F`] of them) is where one point's lines meet: an open three
//! crossing a four at an empty point can light a feature that neither line lights alone. The view's pool is the sum
//! of the clipped values over the board, or over its empty points alone for an *empty-only* network
//! ([`Network::empty_only`]: a third of each table is read, and a make leaves the stones' sums alone). The head reads the side to move's pool, the opponent's pool and eleven
//! flags (the tempo flags of the classical evaluation's threat key, ten bits, and in renju whether Black is to
//! move), through two clipped layers of [`H1`] and [`H2`] units to one logit: the side to move's expected score is
//! `sigmoid(logit)`, and the evaluation is `logit · scale` in the search's units (the classical evaluation's
//! scale, so that the search's margins mean the same, or a share of it: `train --units`).
//!
//! A stone changes the shapes of at most 33 point-lines (the nine points of each of its four lines), so
//! [`Accumulator`] keeps `h` and the pools and updates only those on make and undo. Tables are 16-bit integers
//! (the float value times [`ONE`]), pools 32-bit integers; the head is in single precision (a few thousand
//! multiplications, with the pools exactly representable). One network per rule group: freestyle, standard (caro
//! shares it) and renju, where Black's view and White's view have tables of their own; freestyle has a second one for
//! wide boards ([`embedded`]).

mod accumulator;
mod embedded;
pub mod features;
pub mod simd;

pub use accumulator::{Accumulator, TRAINED_SIZE};
pub use embedded::{WIDE_BOARD, default_network, embedded_identities, embedded_network, embedded_wide_network};
pub use features::ROWS;
pub use simd::{F, ONE, Pool, Row};

use crate::types::{Color, Rule};
use std::fmt;

/// Units of the first hidden layer.
pub const H1: usize = 32;
/// Units of the second hidden layer.
pub const H2: usize = 32;
/// Flags read by the head: the ten tempo flags of the threat key and whether Black is to move (renju).
pub const FLAGS: usize = 11;
/// Inputs of the head.
pub const INPUTS: usize = 2 * F + FLAGS;
/// The scale between the pools' integers and the head's inputs: a point's clipped feature is ONE in the pool and
/// the pool is read as the sum over the board divided by 32, so that the inputs stay near 1 (a power of two: the
/// conversion is exact).
pub const POOL_SCALE: f32 = 1.0 / (ONE as f32 * 32.0);

/// Which rules a network serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// Freestyle: both colours share one table.
    Freestyle = 0,
    /// Standard and both caro rules: both colours share one table.
    Standard = 1,
    /// Renju: Black's view and White's view have a table each.
    Renju = 2,
}

impl Group {
    /// Every group, by index.
    pub const ALL: [Group; 3] = [Group::Freestyle, Group::Standard, Group::Renju];

    /// The group serving `rule`.
    #[must_use]
    pub const fn of(rule: Rule) -> Group {
        match rule {
            Rule::Freestyle => Group::Freestyle,
            Rule::Standard | Rule::Caro | Rule::CaroOverline => Group::Standard,
            Rule::Renju => Group::Renju,
        }
    }

    /// How many tables it has.
    #[must_use]
    pub const fn tables(self) -> usize {
        match self {
            Group::Renju => 2,
            _ => 1,
        }
    }

    /// Its name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Group::Freestyle => "freestyle",
            Group::Standard => "standard",
            Group::Renju => "renju",
        }
    }

    fn from_byte(b: u8) -> Option<Group> {
        Group::ALL.into_iter().find(|g| *g as u8 == b)
    }
}

/// A network, ready to evaluate.
#[derive(Clone, PartialEq)]
pub struct Network {
    /// The rules it serves.
    pub group: Group,
    /// Per table ([`Group::tables`]), [`ROWS`] rows.
    pub tables: Vec<Vec<Row>>,
    /// The first layer, input-major.
    pub w1: Vec<[f32; H1]>,
    /// Its biases.
    pub b1: [f32; H1],
    /// The second layer, input-major.
    pub w2: Vec<[f32; H2]>,
    /// Its biases.
    pub b2: [f32; H2],
    /// The output's weights.
    pub w3: [f32; H2],
    /// The output's bias.
    pub b3: f32,
    /// Evaluation units per unit of the logit.
    pub scale: f32,
    /// Whether the network is residual: its evaluation is the classical evaluation plus its own (it was trained
    /// with the classical evaluation added to its logit, and learned what that misses).
    pub residual: bool,
    /// Whether only the empty points are pooled: a stone's point adds nothing, so only the tables' rows of windows
    /// centred on an empty point are read, and a make leaves the sums of the points holding stones as they are.
    pub empty_only: bool,
    /// The provenance: the data, the command line, the losses.
    pub header: Vec<String>,
}

/// The first bytes of a network file.
const MAGIC: &[u8; 5] = b"TGNN\x01";

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pooled = if self.empty_only { ", the empty points pooled" } else { "" };
        write!(f, "Network({}, {}{pooled})", self.group.name(), self.header.first().map_or("", String::as_str))
    }
}

impl Network {
    /// A network of zeros (the trainer fills it).
    #[must_use]
    pub fn zero(group: Group) -> Network {
        Network {
            group,
            tables: vec![vec![[0; F]; ROWS]; group.tables()],
            w1: vec![[0.0; H1]; INPUTS],
            b1: [0.0; H1],
            w2: vec![[0.0; H2]; H1],
            b2: [0.0; H2],
            w3: [0.0; H2],
            b3: 0.0,
            scale: 1.0,
            residual: false,
            empty_only: false,
            header: Vec::new(),
        }
    }

    /// The same network serving `group` instead, where the two groups share a shape (freestyle and standard: one
    /// table for both colours), so that one can start the other's training; `None` to or from renju, whose two
    /// tables have no one-table twin.
    #[must_use]
    pub fn regrouped(&self, group: Group) -> Option<Network> {
        (group.tables() == self.group.tables()).then(|| Network { group, ..self.clone() })
    }

    /// The table of the view of colour `view`.
    #[inline(always)]
    #[must_use]
    pub fn table(&self, view: Color) -> &[Row] {
        &self.tables[view.index().min(self.tables.len() - 1)]
    }

    /// The side to move's logit from the two pools and the flags (bit `i` is flag `i`), on the vector path when
    /// `simd`.
    #[must_use]
    pub fn logit_with(&self, own: &Pool, opp: &Pool, flags: u32, simd: bool) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if simd {
            // SAFETY: `simd` is only true where AVX2 was detected (see `simd::vector`).
            return unsafe { self.logit_avx2(own, opp, flags) };
        }
        let _ = simd;
        self.logit_of::<false>(own, opp, flags)
    }

    /// [`Network::logit_with`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn logit_avx2(&self, own: &Pool, opp: &Pool, flags: u32) -> f32 {
        self.logit_of::<true>(own, opp, flags)
    }

    #[inline(always)]
    fn logit_of<const V: bool>(&self, own: &Pool, opp: &Pool, flags: u32) -> f32 {
        let mut x = [0.0f32; INPUTS];
        for i in 0..F {
            x[i] = own[i] as f32 * POOL_SCALE;
            x[F + i] = opp[i] as f32 * POOL_SCALE;
        }
        for (i, v) in x[2 * F..].iter_mut().enumerate() {
            *v = if flags >> i & 1 != 0 { 1.0 } else { 0.0 };
        }
        let y1 = simd::layer::<V, H1>(&x, &self.w1, &self.b1, true);
        let y2 = simd::layer::<V, H2>(&y1, &self.w2, &self.b2, true);
        let mut out = self.b3;
        for (y, w) in y2.iter().zip(&self.w3) {
            out += y * w;
        }
        out
    }

    /// The evaluation in the search's units: the logit times the scale, rounded, within ±`limit`.
    #[must_use]
    pub fn units(&self, logit: f32, limit: i32) -> i32 {
        let v = (logit * self.scale).round();
        if v.is_nan() { 0 } else { (v as i32).clamp(-limit, limit) }
    }

    /// The position's evaluation from the network's logit and the classical evaluation `classical` (which a
    /// residual network adds to its own), within ±`limit`.
    #[must_use]
    pub fn evaluation(&self, logit: f32, classical: i32, limit: i32) -> i32 {
        let own = self.units(logit, limit);
        if self.residual { (own + classical).clamp(-limit, limit) } else { own }
    }

    /// The network as a file: see [`Network::from_bytes`].
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(ROWS * F * 2 * self.tables.len() + 16_000);
        out.extend_from_slice(MAGIC);
        write_provenance(&mut out, &self.header);
        out.push(self.group as u8);
        for dim in [F, H1, H2, FLAGS, ROWS, ONE as usize] {
            out.extend_from_slice(&(dim as u32).to_le_bytes());
        }
        // Rows stored sparsely: a bit per row, then the rows that are not all zero.
        for table in &self.tables {
            let mut bits = vec![0u8; ROWS.div_ceil(8)];
            for (r, row) in table.iter().enumerate() {
                if row.iter().any(|&v| v != 0) {
                    bits[r / 8] |= 1 << (r % 8);
                }
            }
            out.extend_from_slice(&bits);
            for row in table.iter().filter(|row| row.iter().any(|&v| v != 0)) {
                for v in row {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        let floats = self.w1.iter().flatten().chain(&self.b1).chain(self.w2.iter().flatten()).chain(&self.b2);
        for v in floats.chain(&self.w3).chain([&self.b3, &self.scale]) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.push(u8::from(self.residual) | u8::from(self.empty_only) << 1);
        seal(&mut out);
        out
    }

    /// Reads a network file: the bytes `TGNN` and version 1; the provenance text (its length in 4 bytes, then
    /// UTF-8); the group (0 freestyle, 1 standard, 2 renju); the shape ([`F`], [`H1`], [`H2`], [`FLAGS`], [`ROWS`],
    /// the tables' scale [`ONE`]; 4 bytes each), which must be this build's; per table a bit per row and the rows whose bit is set ([`F`]
    /// 16-bit values each; the others are zero); the head's single-precision values (first layer input-major, its
    /// biases, second layer, biases, output weights, output bias, scale); a byte of flags (bit 0: residual, bit 1: only
    /// the empty points are pooled; no other bit is set); and
    /// an FNV-1a checksum of everything before it (8 bytes). All little-endian.
    ///
    /// # Errors
    /// A message naming the byte offset and what was expected there: a file cut short, another format, a shape
    /// this build does not have, values that are not finite, a checksum that does not match.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len(), "the bytes TGNN and version 1")? != MAGIC {
            return Err("offset 0: not a Tengen network file (expected the bytes TGNN and version 1)".into());
        }
        let header = r.provenance()?;
        let at = r.at;
        let group = Group::from_byte(r.take(1, "the rule group")?[0])
            .ok_or_else(|| format!("offset {at}: unknown rule group (expected 0, 1 or 2)"))?;
        let dims = [(F, "features"), (H1, "first layer"), (H2, "second layer"), (FLAGS, "flags"), (ROWS, "rows")];
        for (dim, name) in dims.into_iter().chain([(ONE as usize, "table scale")]) {
            let at = r.at;
            let got = r.u32(name)? as usize;
            if got != dim {
                return Err(format!("offset {at}: {name} {got}, this build's networks have {dim} (wrong shape)"));
            }
        }
        let mut net = Network::zero(group);
        net.header = header;
        for t in 0..group.tables() {
            let bits = r.take(ROWS.div_ceil(8), "the table's row bits")?.to_vec();
            for (row_index, row) in net.tables[t].iter_mut().enumerate() {
                if bits[row_index / 8] >> (row_index % 8) & 1 != 0 {
                    for v in row.iter_mut() {
                        let b = r.take(2, "a table value")?;
                        *v = i16::from_le_bytes([b[0], b[1]]);
                    }
                }
            }
        }
        let mut float = |what: &str| -> Result<f32, String> {
            let at = r.at;
            let v = f32::from_bits(r.u32(what)?);
            if v.is_finite() { Ok(v) } else { Err(format!("offset {at}: {what} is not a finite number")) }
        };
        for row in &mut net.w1 {
            for v in row.iter_mut() {
                *v = float("a first-layer weight")?;
            }
        }
        for v in &mut net.b1 {
            *v = float("a first-layer bias")?;
        }
        for row in &mut net.w2 {
            for v in row.iter_mut() {
                *v = float("a second-layer weight")?;
            }
        }
        for v in &mut net.b2 {
            *v = float("a second-layer bias")?;
        }
        for v in &mut net.w3 {
            *v = float("an output weight")?;
        }
        net.b3 = float("the output bias")?;
        net.scale = float("the scale")?;
        let at = r.at;
        let flags = r.take(1, "the flags")?[0];
        if flags > 3 {
            return Err(format!("offset {at}: unknown flags {flags:#04x} (expected bits 0 and 1 alone)"));
        }
        net.residual = flags & 1 != 0;
        net.empty_only = flags & 2 != 0;
        r.sealed()?;
        Ok(net)
    }

    /// Reads a network file from disk and keeps it for the rest of the process.
    ///
    /// # Errors
    /// The file cannot be read, or [`Network::from_bytes`] refuses it (the message names the file).
    pub fn load(path: &str) -> Result<&'static Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read network file {path}: {e}"))?;
        let net = Network::from_bytes(&bytes).map_err(|e| format!("network file {path}: {e}"))?;
        Ok(Box::leak(Box::new(net)))
    }

    /// [`Network::load`], once per path for the whole process.
    ///
    /// # Errors
    /// As [`Network::load`].
    pub fn load_cached(path: &str) -> Result<&'static Network, String> {
        static LOADED: std::sync::Mutex<Vec<(String, &'static Network)>> = std::sync::Mutex::new(Vec::new());
        let mut loaded = LOADED.lock().map_err(|_| "network cache poisoned".to_string())?;
        if let Some((_, n)) = loaded.iter().find(|(p, _)| p == path) {
            return Ok(n);
        }
        let n = Network::load(path)?;
        loaded.push((path.to_string(), n));
        Ok(n)
    }

    /// Writes the network to a file.
    ///
    /// # Errors
    /// I/O errors, with the path.
    pub fn save(&self, path: &str) -> Result<(), String> {
        std::fs::write(path, self.to_bytes()).map_err(|e| format!("cannot write {path}: {e}"))
    }

    /// A short name: the first provenance line.
    #[must_use]
    pub fn name(&self) -> &str {
        self.header.first().map_or("unnamed network", String::as_str)
    }
}

/// FNV-1a, 64 bits.
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Reads a file's fields in turn, naming the offset and the field where one is missing.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!("offset {}: the file ends where {what} was expected (truncated)", self.at));
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    pub(crate) fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn u64(&mut self, what: &str) -> Result<u64, String> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
    }

    /// The provenance [`write_provenance`] wrote: its lines.
    pub(crate) fn provenance(&mut self) -> Result<Vec<String>, String> {
        let len = self.u32("the provenance's length")? as usize;
        let text = self.take(len, "the provenance text")?;
        Ok(String::from_utf8_lossy(text).lines().map(str::to_string).collect())
    }

    /// The checksum [`seal`] wrote, checked against everything before it, and the end of the file after it.
    pub(crate) fn sealed(&mut self) -> Result<(), String> {
        let body = self.at;
        let stored = self.u64("the checksum")?;
        if stored != checksum(&self.bytes[..body]) {
            return Err(format!("offset {body}: the checksum does not match (the file is damaged)"));
        }
        if self.at != self.bytes.len() {
            let extra = self.bytes.len() - self.at;
            return Err(format!("offset {}: {extra} bytes after the checksum (expected the end)", self.at));
        }
        Ok(())
    }
}

/// Writes a file's provenance: its lines joined, after their length (4 bytes, little-endian).
pub(crate) fn write_provenance(out: &mut Vec<u8>, header: &[String]) {
    let text = header.join("\n");
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

/// Ends a file with the FNV-1a checksum of everything before it (8 bytes, little-endian).
pub(crate) fn seal(out: &mut Vec<u8>) {
    let sum = checksum(out);
    out.extend_from_slice(&sum.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_net() -> Network {
        let mut net = Network::zero(Group::Renju);
        let mut s = 99u64;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 40) as i64
        };
        for t in &mut net.tables {
            for (r, row) in t.iter_mut().enumerate() {
                if r % 3 != 0 {
                    for v in row.iter_mut() {
                        *v = (next() % 400 - 200) as i16;
                    }
                }
            }
        }
        for row in &mut net.w1 {
            for v in row.iter_mut() {
                *v = (next() % 1000) as f32 / 1000.0 - 0.5;
            }
        }
        net.b3 = 0.25;
        net.scale = 180.0;
        net.header = vec!["test network".into(), "second line".into()];
        net
    }

    #[test]
    fn a_network_file_round_trips() {
        for (residual, empty_only) in [(false, false), (true, false), (false, true), (true, true)] {
            let net = Network { residual, empty_only, ..sample_net() };
            let bytes = net.to_bytes();
            let back = Network::from_bytes(&bytes).expect("reads back");
            assert!(back == net);
            assert_eq!((back.residual, back.empty_only), (residual, empty_only));
            assert_eq!(back.header, net.header);
        }
    }

    #[test]
    fn freestyle_and_standard_networks_regroup_but_renju_does_not() {
        let renju = sample_net();
        let mut freestyle = Network { group: Group::Freestyle, ..renju.clone() };
        freestyle.tables.truncate(1);
        let standard = freestyle.regrouped(Group::Standard).expect("one table each");
        assert_eq!(standard.group, Group::Standard);
        assert!(Network { group: Group::Freestyle, ..standard.clone() } == freestyle, "only the group changes");
        // Written out, the two files differ in the group byte and the checksum alone.
        let (a, b) = (freestyle.to_bytes(), standard.to_bytes());
        assert_eq!(a.len(), b.len());
        let body: Vec<usize> = (0..a.len() - 8).filter(|&i| a[i] != b[i]).collect();
        assert!(body.len() == 1 && (a[body[0]], b[body[0]]) == (0, 1), "{body:?}");
        assert_eq!(Network::from_bytes(&b).expect("reads back").group, Group::Standard);
        assert!(renju.regrouped(Group::Standard).is_none());
        assert!(renju.regrouped(Group::Freestyle).is_none());
        assert!(standard.regrouped(Group::Renju).is_none());
    }

    #[test]
    fn unknown_flags_are_refused() {
        let mut bytes = sample_net().to_bytes();
        let at = bytes.len() - 9;
        bytes[at] = 4;
        let body = bytes.len() - 8;
        let sum = checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
        let err = Network::from_bytes(&bytes).expect_err("flag bit 2");
        assert!(err.contains("unknown flags"), "{err}");
    }

    #[test]
    fn damaged_files_are_refused_with_the_offset() {
        let bytes = sample_net().to_bytes();
        let cut = Network::from_bytes(&bytes[..bytes.len() / 2]).expect_err("truncated");
        assert!(cut.contains("truncated") && cut.starts_with("offset "), "{cut}");
        let mut flipped = bytes.clone();
        flipped[bytes.len() / 3] ^= 0x10;
        assert!(Network::from_bytes(&flipped).is_err());
        let err = Network::from_bytes(b"hello world, not a network").expect_err("not a network");
        assert!(err.contains("not a Tengen network"), "{err}");
        // A shape this build does not have.
        let mut shape = bytes.clone();
        let header_len = u32::from_le_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]) as usize;
        shape[9 + header_len + 1] = (F + 1) as u8; // features: one more than this build has
        let err = Network::from_bytes(&shape).expect_err("wrong shape");
        assert!(err.contains("wrong shape"), "{err}");
        assert!(Network::from_bytes(&[]).expect_err("empty").contains("truncated"));
        assert!(Network::load("/nonexistent/net.tgnn").expect_err("missing").contains("cannot read"));
    }
}
