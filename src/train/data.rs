//! The network's training positions: every position of the games (and every c-gomoku-cli sample) of one rule
//! group, kept as the moves that lead to it, the head's flags, the side to move's result and the search's score.

use crate::board::Board;
use crate::eval::network::Group;
use crate::eval::network_flags;
use crate::pattern::PatternBoard;
use crate::records::{GameRecord, NO_SCORE, Sample};
use crate::records::{replay_game, replay_moves};
use crate::threat::{Solution, Vcf, VcfOptions};
use crate::tune::data::target;
use crate::types::{Color, Pos};

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    /// Where its moves start in [`NetData::moves`].
    pub start: u32,
    /// How many moves lead to it.
    pub len: u16,
    /// Board side.
    pub size: u8,
    /// The head's flags (see [`network_flags`]).
    pub flags: u32,
    /// Whether White is to move.
    pub white: bool,
    /// The side to move's result: 0, ½ or 1.
    pub result: f32,
    /// The side to move's search score ([`NO_SCORE`] for none).
    pub score: i16,
    /// The classical evaluation of the position for the side to move (the embedded weights), which a residual
    /// network adds to its own output.
    pub classical: i16,
}

impl Position {
    /// The side to move.
    #[must_use]
    pub fn side(&self) -> Color {
        if self.white { Color::White } else { Color::Black }
    }
}

/// The positions of one rule group.
#[derive(Clone, Debug)]
pub struct NetData {
    /// The group whose games are taken (others are skipped).
    pub group: Group,
    /// The moves of every game and sample, one after another.
    pub moves: Vec<Pos>,
    /// The positions.
    pub positions: Vec<Position>,
    /// When above 0, a position whose side to move has a VCF found within this many nodes is left out: the
    /// search's leaves settle those with their VCF probe and never ask the evaluation.
    pub vcf_nodes: u64,
    /// How many positions that filter left out.
    pub vcf_dropped: usize,
    /// Games and samples of another group, skipped. (Every board size is learned from: on a size other than
    /// [`crate::eval::network::TRAINED_SIZE`] the model shifts its pools as the engine does.)
    pub other_group: usize,
}

impl NetData {
    /// No positions yet, for `group`.
    #[must_use]
    pub fn new(group: Group, vcf_nodes: u64) -> NetData {
        NetData { group, moves: Vec::new(), positions: Vec::new(), vcf_nodes, vcf_dropped: 0, other_group: 0 }
    }

    /// Adds every position of a game where neither side has a five point (a game that breaks the rules stops
    /// where it does). Returns how many it added.
    pub fn add_game(&mut self, game: &GameRecord) -> usize {
        if Group::of(game.rule) != self.group {
            self.other_group += 1;
            return 0;
        }
        let start = self.moves.len();
        let before = self.positions.len();
        let replayed = replay_game(game, |pb, i, side, result, score, _| {
            self.add_position(pb, start, i, side, result, score);
        });
        let Some(pb) = replayed else { return 0 };
        self.moves.extend_from_slice(&game.moves[..pb.board().stone_count()]);
        self.positions.len() - before
    }

    /// Adds a c-gomoku-cli sample's position. Returns whether it was usable.
    pub fn add_sample(&mut self, sample: &Sample) -> bool {
        if Group::of(sample.rule) != self.group {
            self.other_group += 1;
            return false;
        }
        let Some((mut pb, side)) = replay_moves(sample.size, sample.rule, &sample.moves) else { return false };
        let start = self.moves.len();
        let before = self.positions.len();
        self.add_position(&mut pb, start, sample.moves.len(), side, sample.result, NO_SCORE);
        self.moves.extend_from_slice(&sample.moves);
        self.positions.len() > before
    }

    /// Adds the position after `moves` from `pb` (`side`'s first, then the colours in turn), which `line` (Black
    /// first) leads to: whoever is then to move, no result (½) and no score (a choice pair's child, see
    /// [`super::choice`]). Returns whether it was kept (not when a five point is on the board or, with `vcf_nodes`,
    /// the side to move has a VCF).
    pub fn add_line(&mut self, pb: &mut PatternBoard, line: &[Pos], side: Color, moves: &[Pos]) -> bool {
        let start = self.moves.len();
        let before = self.positions.len();
        let mut c = side;
        for &m in moves {
            pb.make(m, c);
            c = c.opponent();
        }
        self.add_position(pb, start, line.len() + moves.len(), c, 0.5, NO_SCORE);
        for _ in moves {
            pb.undo();
        }
        let kept = self.positions.len() > before;
        if kept {
            self.moves.extend_from_slice(line);
            self.moves.extend_from_slice(moves);
        }
        kept
    }

    fn add_position(&mut self, pb: &mut PatternBoard, start: usize, len: usize, side: Color, result: f32, score: i16) {
        if pb.five_points(side).next().is_some() || pb.five_points(side.opponent()).next().is_some() {
            return;
        }
        if self.vcf_nodes > 0
            && pb.four_candidates(side).next().is_some()
            && matches!(Vcf::new(side, VcfOptions::default()).solve_within(pb, self.vcf_nodes), Solution::Win(_))
        {
            self.vcf_dropped += 1;
            return;
        }
        self.positions.push(Position {
            start: start as u32,
            len: len as u16,
            size: pb.size() as u8,
            flags: network_flags(pb, side),
            white: side == Color::White,
            result,
            score,
            classical: crate::eval::evaluate(pb, side, crate::eval::default_weights()) as i16,
        });
    }

    /// The stones of position `i` on a board.
    #[must_use]
    pub fn board(&self, i: usize) -> Board {
        let p = self.positions[i];
        let mut board = Board::new(usize::from(p.size));
        let mut c = Color::Black;
        for &m in &self.moves[p.start as usize..p.start as usize + usize::from(p.len)] {
            board.make(m, c);
            c = c.opponent();
        }
        board
    }

    /// Each position's offset to the network's logit: its classical evaluation over `k` when the network is
    /// residual, else 0.
    #[must_use]
    pub fn bases(&self, k: f64, residual: bool) -> Vec<f32> {
        self.positions.iter().map(|p| if residual { (f64::from(p.classical) / k) as f32 } else { 0.0 }).collect()
    }

    /// Each position's target: its result, or with a search score `lambda · sigmoid(score / k) + (1 − lambda) ·
    /// result`.
    #[must_use]
    pub fn targets(&self, k: f64, lambda: f64) -> Vec<f32> {
        self.positions.iter().map(|p| target(p.result, p.score, k, lambda)).collect()
    }
}
