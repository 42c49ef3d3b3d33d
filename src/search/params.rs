//! Every tunable of the search and its time manager, in one place.

// Threat solvers.
/// Nodes a leaf's VCF probe may use.
pub const LEAF_VCF_NODES: u64 = 64;
/// Refuted positions a leaf VCF solver keeps before it starts afresh (17 to 34 bytes each; a memory limit may ask
/// for fewer, `SearchOptions::vcf_memory`).
pub const VCF_MEMORY: usize = 1 << 18;
/// Room in a leaf solver's table beyond its `vcf_memory`: what one probe may add after the check.
pub const LEAF_VCF_SLACK: usize = LEAF_VCF_NODES as usize + 8;
/// Nodes the root's VCF attempt may use.
pub const ROOT_VCF_NODES: u64 = 200_000;
/// Nodes the root's VCT attempt may use.
pub const ROOT_VCT_NODES: u64 = 60_000;
/// The root's VCT attempt may use this fraction of the optimum time.
pub const ROOT_VCT_SHARE: u32 = 6;

// Iterative deepening.
/// Iterations from this depth on start with a window around the last score.
pub const ASPIRATION_DEPTH: i32 = 5;
/// The window's half-width; it doubles at every fail.
pub const ASPIRATION_WINDOW: i32 = 40;

// Pruning.
/// Razoring up to this depth…
pub const RAZOR_DEPTH: i32 = 2;
/// …when the static evaluation is this much per ply below alpha.
pub const RAZOR_MARGIN: i32 = 150;
/// Reverse futility pruning up to this depth…
pub const RFP_DEPTH: i32 = 3;
/// …when the static evaluation is this much per ply above beta.
pub const RFP_MARGIN: i32 = 80;
/// Null move pruning from this depth on…
pub const NMP_DEPTH: i32 = 4;
/// …with a reduction of this many plies…
pub const NMP_REDUCTION: i32 = 3;
/// …and one more for every this many plies of depth.
pub const NMP_DEPTH_DIV: i32 = 4;
/// Move-count pruning up to this depth: quiet moves after the first `LMP_BASE + LMP_SCALE · depth²` are skipped.
pub const LMP_DEPTH: i32 = 3;
/// See [`LMP_DEPTH`].
pub const LMP_BASE: usize = 4;
/// See [`LMP_DEPTH`].
pub const LMP_SCALE: usize = 2;
/// Up to this depth, quiet moves that make no pattern for either side are skipped.
pub const IDLE_DEPTH: i32 = 2;

// Extensions.
/// Singular extensions from this depth on, when the table's entry is at most this many plies shallower…
pub const SE_DEPTH: i32 = 6;
/// See [`SE_DEPTH`].
pub const SE_TT_DEPTH: i32 = 3;
/// …with the other moves searched against the table's score less this much per ply.
pub const SE_MARGIN: i32 = 4;

// Late move reductions.
/// Quiet moves after the first are reduced from this depth on, by `LMR_BASE + ln(depth) · ln(move number) /
/// LMR_DIVISOR` plies, rounded down (move numbers counted from 0)…
pub const LMR_DEPTH: i32 = 2;
/// See [`LMR_DEPTH`].
pub const LMR_BASE: f64 = 0.5;
/// See [`LMR_DEPTH`].
pub const LMR_DIVISOR: f64 = 2.0;
/// …a ply less at PV nodes, for killers, and for moves that make or stop a blocked three…
pub const LMR_LESS: i32 = 1;
/// …and a ply less again for a move whose history ordering bonus is at least this.
pub const LMR_HISTORY: i32 = 16;

// Threads.
/// From this depth on a node is marked while a thread searches it, and other threads defer late moves into it.
pub const DEFER_DEPTH: i32 = 4;

// Move ordering.
/// Added to the ordering value of the first and the second killer.
pub const KILLER_BONUS: [i32; 2] = [90, 80];
/// A history value never grows past this.
pub const HISTORY_MAX: i32 = 1 << 20;
/// The history value counted in the ordering is at most this…
pub const HISTORY_ORDER_CAP: i32 = 1 << 12;
/// …divided by this.
pub const HISTORY_ORDER_DIV: i32 = 64;

// Time.
/// The margin kept back from a turn is this fraction of it…
pub const TURN_MARGIN_DIV: u64 = 12;
/// …and between these bounds, in milliseconds.
pub const TURN_MARGIN_MS: (u64, u64) = (10, 250);
/// Kept back from the match clock before it is shared over the moves to come.
pub const MATCH_MARGIN_MS: u64 = 100;
/// Time left in a match is spread over this many further moves of ours (fewer as the board fills, at least
/// [`MIN_MOVES_TO_GO`]).
pub const MOVES_TO_GO: u64 = 25;
/// See [`MOVES_TO_GO`].
pub const MIN_MOVES_TO_GO: u64 = 8;
/// The optimum times this after 0, 1, 2, 3 and more iterations with one best move.
pub const STABILITY: [f64; 5] = [1.5, 1.15, 1.0, 0.85, 0.7];
/// The optimum times this when the score fell by more than the first bound, or the second, since the last
/// iteration.
pub const FALLING: [(i32, f64); 2] = [(80, 1.5), (30, 1.2)];
