//! Training positions: game records and samples replayed into the sparse features the tuner fits.
//!
//! An evaluation sample is one position with neither side holding a five point (the positions the search's leaves
//! see): the side to move's pattern codes counted over the empty points (each a parameter of its family's `own`
//! table with coefficient +count), the opponent's (its `opp` table, −count), its threat key, and the result for
//! the side to move. A move sample is a position where the engine chose its move freely (not an opening move, not
//! a random move, not an answer to a threat): every legal move near the stones with the codes it would make and
//! stop, and which of them was played.
//!
//! With [`Dataset::vcf_nodes`] set, a position whose side to move has a VCF is no evaluation sample: the search
//! never asks the evaluation there (its leaves probe for a VCF first), and the result of such a position says
//! nothing about its codes.

use crate::eval::{FAMILIES, Family, THREATS, threat_key};
use crate::movegen::{Candidates, candidates};
use crate::pattern::{CODES, PatternBoard, code_of};
use crate::records::{GameRecord, NO_SCORE, Sample, replay_game, replay_moves};
use crate::threat::{Solution, Vcf, VcfOptions};
use crate::types::{Color, Pos};

/// Where the parameters of each table start in the evaluation's parameter vector.
pub const OWN_AT: usize = 0;
/// The `opp` tables.
pub const OPP_AT: usize = FAMILIES * CODES;
/// The threat tables.
pub const THREAT_AT: usize = 2 * FAMILIES * CODES;
/// The evaluation's parameter count.
pub const EVAL_PARAMS: usize = THREAT_AT + FAMILIES * THREATS;
/// The ordering's parameters: attack tables, then defence tables.
pub const DEFEND_AT: usize = FAMILIES * CODES;
/// The ordering's parameter count.
pub const ORDER_PARAMS: usize = 2 * FAMILIES * CODES;

/// One position for the evaluation.
#[derive(Clone, Copy, Debug)]
pub struct EvalSample {
    /// Its features: `features[start..start + len]`.
    pub start: u32,
    /// How many.
    pub len: u16,
    /// The index of its threat parameter.
    pub threat: u32,
    /// The side to move's result: 0, ½ or 1.
    pub result: f32,
    /// The side to move's search score there, if the game kept one ([`NO_SCORE`] otherwise).
    pub score: i16,
}

/// One position for the move ordering.
#[derive(Clone, Copy, Debug)]
pub struct MoveSample {
    /// Its candidate moves: `moves[start..start + len]`.
    pub start: u32,
    /// How many.
    pub len: u16,
    /// Which of them was played.
    pub played: u16,
}

/// Training positions in sparse form.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Evaluation positions.
    pub evals: Vec<EvalSample>,
    /// Their features: a parameter index and its coefficient.
    pub features: Vec<(u32, i16)>,
    /// Move positions.
    pub moves: Vec<MoveSample>,
    /// Their candidates: the attack parameter and the defence parameter of each.
    pub candidates: Vec<(u16, u16)>,
    /// When above 0, a position where the side to move has a VCF found within this many nodes is no evaluation
    /// sample: the search's leaves resolve such positions with their VCF probe, not with the evaluation.
    pub vcf_nodes: u64,
    /// How many positions that filter dropped.
    pub vcf_dropped: usize,
}

/// A position's training target: its `result`, or where it has a search `score`, `lambda · sigmoid(score / k) +
/// (1 − lambda) · result`.
#[must_use]
pub fn target(result: f32, score: i16, k: f64, lambda: f64) -> f32 {
    if score == NO_SCORE || lambda == 0.0 {
        result
    } else {
        let searched = 1.0 / (1.0 + (-f64::from(score) / k).exp());
        (lambda * searched + (1.0 - lambda) * f64::from(result)) as f32
    }
}

impl Dataset {
    /// Adds the position `pb` with `side` to move, the side to move's result and its search score ([`NO_SCORE`]
    /// for none); and when `played` is given (a freely chosen move), the move sample.
    pub fn add_position(&mut self, pb: &mut PatternBoard, side: Color, result: f32, score: i16, played: Option<Pos>) {
        let opp = side.opponent();
        if pb.five_points(side).next().is_some() || pb.five_points(opp).next().is_some() {
            return;
        }
        if self.has_vcf(pb, side) {
            self.vcf_dropped += 1;
        } else {
            self.add_eval(pb, side, result, score);
        }
        self.add_move(pb, side, played);
    }

    /// Whether the VCF filter is on and finds a VCF for `side`, to move in `pb`.
    fn has_vcf(&self, pb: &mut PatternBoard, side: Color) -> bool {
        self.vcf_nodes > 0
            && pb.four_candidates(side).next().is_some()
            && matches!(Vcf::new(side, VcfOptions::default()).solve_within(pb, self.vcf_nodes), Solution::Win(_))
    }

    /// Adds the evaluation sample of the position `pb` with `side` to move.
    fn add_eval(&mut self, pb: &PatternBoard, side: Color, result: f32, score: i16) {
        let opp = side.opponent();
        let rule = pb.rule();
        let (fs, fo) = (Family::of(rule, side).index(), Family::of(rule, opp).index());
        let mut counts: Vec<(u32, i16)> = Vec::with_capacity(128);
        let mut add = |index: usize, coef: i16| match counts.iter_mut().find(|(i, _)| *i as usize == index) {
            Some(entry) => entry.1 += coef,
            None => counts.push((index as u32, coef)),
        };
        for p in pb.board().points().filter(|&p| pb.board().is_empty(p)) {
            let own = code_of(pb.packed_patterns(side, p));
            if own != 0 {
                add(OWN_AT + fs * CODES + own, 1);
            }
            let theirs = code_of(pb.packed_patterns(opp, p));
            if theirs != 0 {
                add(OPP_AT + fo * CODES + theirs, -1);
            }
        }
        counts.sort_unstable();
        self.evals.push(EvalSample {
            start: self.features.len() as u32,
            len: counts.len() as u16,
            threat: (THREAT_AT + fs * THREATS + threat_key(pb.class_counts(), side)) as u32,
            result,
            score,
        });
        self.features.extend(counts);
    }

    /// Adds the move sample of a freely chosen move `played` (nothing for `None`).
    fn add_move(&mut self, pb: &mut PatternBoard, side: Color, played: Option<Pos>) {
        let Some(played) = played else { return };
        let rule = pb.rule();
        let (opp, fs) = (side.opponent(), Family::of(rule, side).index());
        let Candidates::Moves { moves, forced: false } = candidates(pb, side) else { return };
        let Some(at) = moves.iter().position(|&m| m == played) else { return };
        self.moves.push(MoveSample { start: self.candidates.len() as u32, len: moves.len() as u16, played: at as u16 });
        for &m in &moves {
            let a = fs * CODES + code_of(pb.packed_patterns(side, m));
            let d = DEFEND_AT + fs * CODES + code_of(pb.packed_patterns(opp, m));
            self.candidates.push((a as u16, d as u16));
        }
    }

    /// Adds every position of a game (its moves replayed; a game that breaks the rules stops where it does).
    /// Moves without a score (opening and random moves) give no move sample. Returns how many positions it added.
    pub fn add_game(&mut self, game: &GameRecord) -> usize {
        let before = self.evals.len();
        replay_game(game, |pb, _, side, result, score, m| {
            self.add_position(pb, side, result, score, (score != NO_SCORE).then_some(m));
        });
        self.evals.len() - before
    }

    /// Adds a c-gomoku-cli sample (its position, result and move). Returns whether it was usable.
    pub fn add_sample(&mut self, sample: &Sample) -> bool {
        let Some((mut pb, side)) = replay_moves(sample.size, sample.rule, &sample.moves) else { return false };
        let before = self.evals.len();
        self.add_position(&mut pb, side, sample.result, NO_SCORE, Some(sample.played));
        self.evals.len() > before
    }

    /// Each evaluation sample's target: its result, or where it has a search score, `lambda · sigmoid(score / k) +
    /// (1 − lambda) · result`.
    #[must_use]
    pub fn targets(&self, k: f64, lambda: f64) -> Vec<f32> {
        self.evals.iter().map(|s| target(s.result, s.score, k, lambda)).collect()
    }

    /// The rule families the evaluation samples cover, counted.
    #[must_use]
    pub fn family_counts(&self) -> [usize; FAMILIES] {
        let mut counts = [0; FAMILIES];
        for s in &self.evals {
            counts[(s.threat as usize - THREAT_AT) / THREATS] += 1;
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn targets_blend_the_result_with_the_search_score() {
        let mut data = Dataset::default();
        let mut pb = PatternBoard::new(15, Rule::Renju).expect("board");
        pb.make(Pos::new(7, 7), Color::Black);
        data.add_position(&mut pb, Color::White, 1.0, 0, None);
        data.add_position(&mut pb, Color::White, 0.0, NO_SCORE, None);
        data.add_position(&mut pb, Color::White, 0.5, 300, None);
        assert_eq!(data.targets(100.0, 0.0), vec![1.0, 0.0, 0.5]);
        let t = data.targets(100.0, 0.5);
        assert!((t[0] - 0.75).abs() < 1e-6, "{t:?}");
        assert_eq!(t[1], 0.0);
        let searched = 1.0 / (1.0 + (-3.0f32).exp());
        assert!((t[2] - (0.5 * searched + 0.25)).abs() < 1e-6, "{t:?}");
        // A position with a five point is no evaluation sample.
        pb.make(Pos::new(0, 0), Color::White);
        for x in 8..11 {
            pb.make(Pos::new(x, 7), Color::Black);
            pb.make(Pos::new(x, 0), Color::White);
        }
        data.add_position(&mut pb, Color::Black, 1.0, NO_SCORE, None);
        assert_eq!(data.evals.len(), 3);
    }

    #[test]
    fn the_vcf_filter_drops_positions_the_leaves_resolve() {
        let mut pb = PatternBoard::new(15, Rule::Renju).expect("board");
        // Black to move with an open three (a VCF: the straight four), White's stones scattered.
        for (b, w) in [((6, 7), (0, 0)), ((7, 7), (0, 3)), ((8, 7), (3, 0))] {
            pb.make(Pos::new(b.0, b.1), Color::Black);
            pb.make(Pos::new(w.0, w.1), Color::White);
        }
        let mut kept = Dataset::default();
        kept.add_position(&mut pb, Color::Black, 1.0, NO_SCORE, None);
        assert_eq!((kept.evals.len(), kept.vcf_dropped), (1, 0));
        let mut filtered = Dataset { vcf_nodes: 1_000, ..Dataset::default() };
        filtered.add_position(&mut pb, Color::Black, 1.0, NO_SCORE, None);
        assert_eq!((filtered.evals.len(), filtered.vcf_dropped), (0, 1));
        // White to move has no four at all: the filter keeps the position.
        filtered.add_position(&mut pb, Color::White, 0.0, NO_SCORE, None);
        assert_eq!((filtered.evals.len(), filtered.vcf_dropped), (1, 1));
    }
}
