//! Every tunable of the search and its time manager, in one place.
//!
//! The values a game can tune (the pruning margins and depths, the reductions, the ordering bonuses, the leaf
//! probe's size and the time manager's factors) are fields of [`Params`], carried in the search's options so that
//! the SPSA tuner (`pbrain-tengen spsa`) can play two sets against each other in one process. [`Params::SPECS`]
//! gives each its default, the range the tuner keeps it in and the tuner's step. The rest are constants: limits of
//! memory and safety margins of the clock that no match should trade away.

// Threat solvers.
/// Refuted positions a leaf VCF solver keeps before it starts afresh (17 to 34 bytes each; a memory limit may ask
/// for fewer, `SearchOptions::vcf_memory`).
pub const VCF_MEMORY: usize = 1 << 18;
/// Room in a leaf solver's table beyond its `vcf_memory`: what one probe may add after the check (the largest
/// probe [`Params::leaf_vcf_nodes`] may ask for, and a little more).
pub const LEAF_VCF_SLACK: usize = LEAF_VCF_NODES_MAX as usize + 8;
/// The largest leaf probe the tuner may try.
const LEAF_VCF_NODES_MAX: i32 = 256;
/// Nodes the root's VCF attempt may use.
pub const ROOT_VCF_NODES: u64 = 200_000;
/// The bytes a root threat solver (the root's VCT, the late VCT, the guard) takes for every node it searches, with a
/// margin: `solve --vct` on hard middle-game positions took at most 25 a node from 300,000 to 3 million nodes.
pub const SOLVER_BYTES_PER_NODE: u64 = 40;
/// The most nodes a root threat solver may use without a memory limit (256 MiB at [`SOLVER_BYTES_PER_NODE`]); a
/// limit may give fewer (`SearchOptions::solver_nodes`).
pub const SOLVER_NODES: u64 = (256 << 20) / SOLVER_BYTES_PER_NODE;

// Threads.
/// From this depth on a node is marked while a thread searches it, and other threads defer late moves into it.
pub const DEFER_DEPTH: i32 = 4;

// Move ordering.
/// A history value never grows past this.
pub const HISTORY_MAX: i32 = 1 << 20;
/// The history value counted in the ordering is at most this (divided by [`Params::history_order_div`]).
pub const HISTORY_ORDER_CAP: i32 = 1 << 12;

// Time: the safety margins.
/// The margin kept back from a turn is this fraction of it…
pub const TURN_MARGIN_DIV: u64 = 12;
/// …and between these bounds, in milliseconds.
pub const TURN_MARGIN_MS: (u64, u64) = (10, 250);
/// Kept back from the match clock before it is shared over the moves to come.
pub const MATCH_MARGIN_MS: u64 = 100;

/// What a tunable value steers: the search (it matters in games at fixed nodes), the time manager (only under a
/// match clock), or a part under trial or switched on or off as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Pruning, extensions, reductions, ordering, the leaf probe (bundle3n's numeric values among them).
    Search,
    /// How the match clock is spent.
    Time,
    /// Parts on trial or switched as a whole, which the tuner leaves alone unless asked (`--tune trial`): those off
    /// by default (the VCT probe in the tree, the root's guard, the move policy in the ordering, the trials not in
    /// bundle3n), the root and late VCT's budgets, and bundle3n's switches, on by default.
    Trial,
}

/// One tunable value: its name (the field of [`Params`]), default, range and the tuner's step (the perturbation
/// at the end of a run, in the value's own units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// The field's name.
    pub name: &'static str,
    /// The value shipped.
    pub default: i32,
    /// The least value the tuner tries.
    pub min: i32,
    /// The greatest.
    pub max: i32,
    /// The perturbation at the end of a tuning run.
    pub step: f64,
    /// What it steers.
    pub group: Group,
}

macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $name:ident = $default:literal in $min:literal ..= $max:literal step $step:literal $group:ident;)*) => {
        /// The search's and the time manager's tunable values (see [`Params::SPECS`] for their ranges).
        /// Fractions are in hundredths.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl Params {
            /// The values shipped.
            pub const DEFAULT: Params = Params { $($name: $default,)* };
            /// Every tunable value, in the order of [`Params::values`].
            pub const SPECS: &'static [Spec] = &[
                $(Spec { name: stringify!($name), default: $default, min: $min, max: $max, step: $step, group: Group::$group },)*
            ];

            /// The values in the order of [`Params::SPECS`].
            #[must_use]
            pub fn values(&self) -> Vec<i32> {
                vec![$(self.$name),*]
            }

            /// The parameters with `values` in the order of [`Params::SPECS`] (missing ones keep their
            /// defaults), each kept in its range.
            #[must_use]
            pub fn from_values(values: &[i32]) -> Params {
                let mut p = Params::DEFAULT;
                let mut it = values.iter().zip(Params::SPECS);
                $(if let Some((&v, spec)) = it.next() { p.$name = v.clamp(spec.min, spec.max); })*
                p
            }
        }
    };
}

tunables! {
    // Iterative deepening.
    /// Iterations from this depth on start with a window around the last score…
    aspiration_depth = 3 in 2..=10 step 1.0 Search;
    /// …of this half-width; it doubles at every fail.
    aspiration_window = 36 in 10..=150 step 6.0 Search;
    // Pruning.
    /// Razoring up to this depth…
    razor_depth = 3 in 0..=5 step 1.0 Search;
    /// …when the static evaluation is this much per ply below alpha.
    razor_margin = 162 in 30..=500 step 20.0 Search;
    /// Reverse futility pruning up to this depth…
    rfp_depth = 6 in 0..=7 step 1.0 Search;
    /// …when the static evaluation is this much per ply above beta.
    rfp_margin = 97 in 20..=300 step 10.0 Search;
    /// Null move pruning from this depth on (64: never)…
    nmp_depth = 5 in 2..=64 step 1.0 Search;
    /// …with a reduction of this many plies…
    nmp_reduction = 2 in 1..=6 step 1.0 Search;
    /// …and one more for every this many plies of depth.
    nmp_depth_div = 6 in 2..=10 step 1.0 Search;
    /// With `lmp_power` 0 (not the default), move-count pruning up to this depth: quiet moves after the first
    /// `lmp_base + lmp_scale · depth²` are skipped.
    lmp_depth = 6 in 0..=6 step 1.0 Search;
    /// See `lmp_depth`.
    lmp_base = 2 in 1..=16 step 1.0 Search;
    /// See `lmp_depth`.
    lmp_scale = 1 in 1..=8 step 1.0 Search;
    /// Up to this depth, quiet moves that make no pattern for either side are skipped.
    idle_depth = 2 in 0..=5 step 1.0 Search;
    // Extensions.
    /// Singular extensions from this depth on, when the table's entry is at most `se_tt_depth` plies shallower…
    se_depth = 7 in 3..=12 step 1.0 Search;
    /// See `se_depth`.
    se_tt_depth = 4 in 1..=6 step 1.0 Search;
    /// …with the other moves searched against the table's score less this much per ply.
    se_margin = 5 in 1..=20 step 1.0 Search;
    // Late move reductions.
    /// Quiet moves after the first are reduced from this depth on, by `lmr_base + ln(depth) · ln(move number) /
    /// lmr_divisor` plies (both in hundredths), rounded down (move numbers counted from 0)…
    lmr_depth = 3 in 1..=6 step 1.0 Search;
    /// See `lmr_depth` (hundredths of a ply).
    lmr_base = 43 in 0..=200 step 10.0 Search;
    /// See `lmr_depth` (hundredths).
    lmr_divisor = 140 in 80..=500 step 15.0 Search;
    /// …a ply less at PV nodes, for killers, and for moves that make or stop a blocked three…
    lmr_less = 1 in 0..=2 step 0.5 Search;
    /// …and a ply less again for a move whose history ordering bonus is at least this.
    lmr_history = 24 in 0..=64 step 4.0 Search;
    /// A late move that makes or stops one open three (and nothing stronger) is reduced by this many hundredths
    /// of a quiet move's reduction (0: never reduced, as fours are not).
    lmr_three = 100 in 0..=100 step 10.0 Search;
    // Move ordering.
    /// Added to the ordering value of the first killer…
    killer_first = 96 in 0..=400 step 12.0 Search;
    /// …and of the second.
    killer_second = 77 in 0..=400 step 12.0 Search;
    /// The history value counted in the ordering is divided by this.
    history_order_div = 66 in 8..=256 step 8.0 Search;
    // Threat solvers.
    /// Nodes a leaf's VCF probe may use.
    leaf_vcf_nodes = 41 in 0..=256 step 8.0 Search;
    // Time.
    /// Time left in a match is spread over this many further moves of ours, a move fewer every
    /// `moves_to_go_stones` stones on the board, at least `min_moves_to_go`. Most games against strong engines end
    /// by 25 to 35 moves a side: the clock is spent over those, with a reserve for the longer ones.
    moves_to_go = 22 in 8..=60 step 2.0 Time;
    /// See `moves_to_go`.
    moves_to_go_stones = 4 in 1..=40 step 1.0 Time;
    /// See `moves_to_go`.
    min_moves_to_go = 16 in 3..=30 step 1.0 Time;
    /// The optimum times this (hundredths) after 0, 1, 2, 3 and more iterations with one best move.
    stability_0 = 150 in 50..=300 step 8.0 Time;
    /// See `stability_0`.
    stability_1 = 115 in 50..=300 step 8.0 Time;
    /// See `stability_0`.
    stability_2 = 100 in 40..=250 step 8.0 Time;
    /// See `stability_0`.
    stability_3 = 85 in 30..=250 step 8.0 Time;
    /// See `stability_0`.
    stability_4 = 70 in 20..=250 step 8.0 Time;
    /// The optimum times `falling_factor` (hundredths) when the score fell by more than this since the last
    /// iteration…
    falling_drop = 80 in 20..=400 step 10.0 Time;
    /// See `falling_drop`.
    falling_factor = 150 in 100..=300 step 8.0 Time;
    /// …or times `slipping_factor` when it fell by more than this.
    slipping_drop = 30 in 5..=200 step 5.0 Time;
    /// See `slipping_drop`.
    slipping_factor = 120 in 100..=250 step 6.0 Time;
    /// An iteration still running at its target is cut at this share (hundredths) of it, never past the maximum.
    cut_percent = 130 in 100..=300 step 10.0 Time;
    // Threat solvers in the tree.
    /// Nodes the VCT probe of a node near the root may use (0: none): the side to move's VCT at every node
    /// `tree_vct_ply` plies or fewer below the root with `tree_vct_depth` plies or more left, once a search.
    tree_vct_nodes = 0 in 0..=20000 step 500.0 Trial;
    /// See `tree_vct_nodes`.
    tree_vct_ply = 1 in 1..=4 step 1.0 Trial;
    /// See `tree_vct_nodes`.
    tree_vct_depth = 3 in 1..=12 step 1.0 Trial;
    /// The root's VCT attempt may use this many thousand nodes in a search bounded by nodes or depth (one bounded
    /// by time alone gives it its share of the optimum, whatever the nodes, within what the memory allows)…
    root_vct_kilonodes = 60 in 10..=2000 step 20.0 Trial;
    /// …and the optimum time divided by this.
    root_vct_div = 6 in 1..=12 step 1.0 Trial;
    /// After an iteration of at least `late_vct_depth` plies whose score for the side to move is `late_vct_score`
    /// or more (a position that looks won), the main thread tries the root's VCT again, once a search, with the
    /// optimum divided by `late_vct_div` and, in a search bounded by nodes or depth, `late_vct_kilonodes` thousand
    /// nodes (one bounded by time alone gives it what the memory allows) (a score of 0: never).
    late_vct_score = 1200 in 0..=3000 step 60.0 Trial;
    /// See `late_vct_score`.
    late_vct_depth = 6 in 1..=16 step 1.0 Trial;
    /// See `late_vct_score`.
    late_vct_div = 2 in 1..=12 step 1.0 Trial;
    /// See `late_vct_score`.
    late_vct_kilonodes = 1000 in 10..=5000 step 50.0 Trial;
    /// Where the side to move proved a win at its previous move (`SearchLimits::proved`), the root's VCT may take
    /// this share (hundredths) of the optimum and any number of nodes, since a proof it found once it can find
    /// again (0: the budget of any other position).
    proved_vct_percent = 75 in 0..=100 step 5.0 Trial;
    /// The root's guard (see `guard.rs`): after an iteration of this many plies or more, the opponent's VCT after
    /// its best move, when that move was not checked before…
    guard_depth = 5 in 1..=16 step 1.0 Trial;
    /// …within this many thousand nodes (0: no guard, the default: tried at 300 against PentaZen it lost or held
    /// level, see history.md)…
    guard_kilonodes = 0 in 0..=5000 step 25.0 Trial;
    /// …and the optimum time divided by this…
    guard_div = 5 in 1..=20 step 1.0 Trial;
    /// …for at most this many moves a search, and only where the iteration scored the position this much or more
    /// for the side to move (a position that already looks lost is not guarded: there most moves let a VCT in, and
    /// the move the search likes best is still the hardest for the opponent to win against).
    guard_checks = 2 in 1..=8 step 1.0 Trial;
    /// See `guard_checks`.
    guard_score = -300 in -3000..=1000 step 50.0 Trial;
    // The move policy.
    /// A move's ordering value is the move policy's score times this (hundredths) in place of its attack and
    /// defence values (0: those values), where the build has a policy fitted to the network that evaluates.
    policy_order = 0 in 0..=4000 step 100.0 Trial;
    /// Deeper than `lmp_depth`, quiet moves after the first this many are skipped (0: none are), as PentaZen caps
    /// the moves of every node.
    lmp_cap = 0 in 0..=64 step 4.0 Trial;
    /// A node whose only move is a forced answer (the block of a four) searches it this many plies deeper than
    /// other nodes search their moves (1: a four and its block cost one ply, not two; 0: the block is free only at
    /// the horizon, where a node of depth 0 or less searches it at depth 0).
    forced_ext = 0 in 0..=1 step 1.0 Trial;
    /// Added to the ordering value of the quiet move that last refuted the opponent's last move (the counter
    /// move; 0: none), as PentaZen orders its moves.
    counter_bonus = 96 in 0..=400 step 12.0 Search;
    /// Added to the ordering value of a point next to the opponent's last move, and half of it two steps from it
    /// (0: none): PentaZen favours the points near the last moves, and Tengen's moves lie further from the
    /// opponent's last move than PentaZen's (2.9 points against 2.2 at 2 s a move).
    near_last = 0 in 0..=200 step 8.0 Trial;
    /// Which empty points are the search's quiet candidates: 0 those within the 5×5 square around a stone; 1 those
    /// and the points three steps from a stone on its lines; 2 the 7×7 square and the points four steps away on the
    /// stone's lines (Rapfi's default); 3 the points one and two steps from a stone on its lines only (PentaZen's).
    cand_range = 0 in 0..=3 step 1.0 Trial;
    // Issue 73's trials: a search shaped at a million nodes, on by default (bundle3n) but `four_ext`.
    /// Move-count pruning at every depth (0: only to `lmp_depth`, as tuned at 20,000 nodes): quiet moves after the
    /// first `lmp_curve_base + lmp_curve_scale · depth^(lmp_power / 100)` (both in hundredths) are skipped, and
    /// after `lmp_worsening` hundredths of that where the position is not improving (its static evaluation no
    /// better than two plies before).
    lmp_power = 130 in 0..=200 step 10.0 Search;
    /// See `lmp_power`.
    lmp_curve_base = 300 in 0..=1000 step 50.0 Search;
    /// See `lmp_power`.
    lmp_curve_scale = 100 in 25..=800 step 25.0 Search;
    /// See `lmp_power`.
    lmp_worsening = 50 in 20..=100 step 5.0 Search;
    /// Where the position is improving, the reverse futility margin counts this many hundredths of a ply less (0:
    /// the margin ignores it).
    rfp_improving = 100 in 0..=200 step 25.0 Search;
    /// Where it is not improving, late moves are reduced this many plies more (0: the same).
    lmr_worsening = 1 in 0..=2 step 1.0 Trial;
    /// At a node that answers an open three, the defences after the first that make no four are reduced by this
    /// many hundredths of a quiet move's reduction (0: searched at full depth).
    forced_lmr = 50 in 0..=100 step 10.0 Search;
    /// The history with gravity (0: without): a quiet move that refutes moves its value `depth²` towards this bound,
    /// and every quiet move searched before it at that node as far towards its negative, each step shrinking as the
    /// value nears the bound.
    history_gravity = 4096 in 0..=16384 step 512.0 Search;
    /// Internal iterative reduction: a node this deep or deeper whose position the table does not know (no move
    /// to try first) is searched a ply shallower (0: never).
    iir_depth = 6 in 0..=16 step 1.0 Search;
    /// The quiescence search plays the side to move's fours and their forced blocks, up to this many pairs deep, and
    /// takes the best of standing pat and each line's evaluation (0: the static evaluation unless a VCF wins).
    qs_fours = 2 in 0..=4 step 1.0 Trial;
    /// A move that makes a four is searched this many plies deeper (its block is forced, so a four and its block
    /// cost one ply instead of two), within twice the iteration's depth from the root (0: as any move).
    four_ext = 0 in 0..=1 step 1.0 Trial;
    /// The static evaluation that prunes (reverse futility, razoring's test, the null move's test) is replaced by
    /// the table's score where the entry's bound says the true score lies beyond it: a lower bound above it, an upper
    /// bound below it, an exact score (0: the static evaluation alone). The quiescence search stands pat on the
    /// static evaluation.
    tt_eval = 1 in 0..=1 step 1.0 Trial;
    /// Once a move at a PV node raised alpha without a cut-off, the moves after it are searched this many plies
    /// shallower (where at least a ply is left to them, the score not a mate; 0: at the node's depth).
    alpha_reduce = 1 in 0..=2 step 1.0 Trial;
    /// A late move that is reduced (a quiet move, or a defence against an open three under `forced_lmr`) and lies
    /// more than two steps from both of the last two moves is reduced this many plies more (0: the same).
    far_lmr = 1 in 0..=2 step 1.0 Trial;
    /// A late move at a non-PV node whose position the table marks as having been on a principal variation (a PV
    /// node stores the mark, a later search of the position keeps it) is reduced this many plies less (0: the same).
    tt_pv_lmr = 1 in 0..=2 step 1.0 Trial;
    /// Plies more of late-move reduction at an expected cut node: a non-PV node searched with a null window as a
    /// late move's reduced search, or as the first answer of an expected all node (issue 73, idea 6).
    cut_lmr = 1 in 0..=3 step 1.0 Trial;
    // Issue 97's trials: the table and the ordering, on by default (bundle3n), the defences at every depth.
    /// The leaves read and write the table (0: a leaf returns before the probe): a non-PV leaf whose entry's bound
    /// decides against the window returns its score, and every leaf stores its quiescence result at depth 0.
    leaf_tt = 1 in 0..=1 step 1.0 Trial;
    /// A node that fails low stores no move in the table, so that the move there before is kept (0: the best of the
    /// failed moves is stored over it).
    fail_low_keep = 1 in 0..=1 step 1.0 Trial;
    /// A node clears the killers of the ply two below it when it is entered, so that its grandchildren order by
    /// killers found under it (0: killers stay from anywhere at that ply).
    clear_killers = 1 in 0..=1 step 1.0 Trial;
    /// A node finds the opponent's last stone and its own by colour (0: the last stone and the one before it, which
    /// below a null move are the other way round).
    last_by_colour = 1 in 0..=1 step 1.0 Trial;
    /// A cut-off from the table's entry rewards the history of the entry's move where it is quiet, as a searched
    /// quiet cut-off does (0: only searched cut-offs teach the history).
    tt_cut_history = 1 in 0..=1 step 1.0 Trial;
    /// Where the opponent has a four-three or a double three to play next, a node searches only the moves that stop
    /// it and its own fours, as answers to a threat (0: every move near the stones; 1: every move tried on the
    /// board; 2: only those on its lines or making a three tried, `search/worker/defences.rs`).
    threat_defence = 2 in 0..=2 step 1.0 Trial;
    /// `threat_defence` only at this remaining depth or more (below it the leaves find the threat's win anyway; at 2,
    /// 11% more nodes a second, +17.8 Elo by the clock, issue 97).
    defence_depth = 2 in 0..=8 step 1.0 Trial;
    // Issue 97's trials: fractional depth, fours reduced, a local quiescence, on by default (bundle3n) up to
    // `qs_local`.
    /// A node whose only move is a forced answer (the block of a four, or a lone defence) is searched this many
    /// hundredths of a ply deeper, within twice the iteration's depth from the root (fractional depth: a four and its block cost two
    /// plies less this; 0: the block costs a ply, but nothing at the horizon).
    answer_ext = 33 in 0..=150 step 10.0 Search;
    /// Late move reductions in hundredths of a ply, from the same formula not rounded down, the modifiers still in
    /// whole plies (0: whole plies, rounded down).
    lmr_fraction = 1 in 0..=1 step 1.0 Trial;
    /// A late four (not the table's move) is reduced by this many hundredths of a quiet move's reduction (0: fours
    /// are never reduced).
    four_lmr = 50 in 0..=100 step 10.0 Search;
    /// With `qs_fours`, the quiescence's first four lies on a line through the side's own last move within four
    /// steps of it, and the later ones make a four and something more (0: every four, at every pair).
    qs_local = 1 in 0..=1 step 1.0 Trial;
    /// Attacks (moves that make an open three or more, at a node no threat forces) keep a history of their own,
    /// rewarded at their cut-offs and penalized when another move refutes, which orders them (0: attacks are
    /// ordered by the quiet moves' history and teach nothing).
    attack_history = 0 in 0..=1 step 1.0 Trial;
    /// A cut-off by the table's move rewards the killers, the history (the attacks' too) and the counter move as any
    /// other move's does (0: only moves after the table's teach them).
    tt_move_reward = 0 in 0..=1 step 1.0 Trial;
    /// Move-count pruning also skips the late moves that make or stop one open three (no more: no double three, no
    /// four), as it skips quiet ones (0: only quiet moves are skipped).
    lmp_threes = 0 in 0..=1 step 1.0 Trial;
    /// After the root's search fails high on its aspiration window, the search again is this many plies shallower
    /// for every fail high in a row (at least one ply deep; 0: at the iteration's depth).
    fail_high_reduce = 0 in 0..=2 step 1.0 Trial;
    /// A likely fail high: at an expected cut node (non-PV) that no threat forces, whose evaluation stands this much
    /// a ply of depth above beta, every move that makes no four is searched a ply shallower (0: off).
    fh_margin = 0 in 0..=200 step 10.0 Trial;
    /// A reduced move that beats alpha is searched again a ply deeper than its full depth where its score stands
    /// this much above the node's best so far, and a ply shallower where it stands less than an eighth of it above
    /// (0: again at its full depth).
    lmr_deeper = 0 in 0..=200 step 10.0 Trial;
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

impl Params {
    /// Reads the `param NAME VALUE` lines of a text (an SPSA state file is one; other lines are skipped): each value,
    /// rounded, replaces the default.
    ///
    /// # Errors
    /// A message naming an unknown parameter, a bad or out-of-range value, or a text without `param` lines.
    pub fn from_text(text: &str) -> Result<Params, String> {
        let mut values = Params::DEFAULT.values();
        let mut read = 0;
        for (n, line) in text.lines().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() != Some(&"param") {
                continue;
            }
            let [_, name, value] = words.as_slice() else {
                return Err(format!("line {}: 'param' takes a name and a value", n + 1));
            };
            let (i, v) = Params::parse_value(name, value).map_err(|e| format!("line {}: {e}", n + 1))?;
            values[i] = v.round() as i32;
            read += 1;
        }
        if read == 0 {
            return Err("no 'param NAME VALUE' lines".to_string());
        }
        Ok(Params::from_values(&values))
    }

    /// The index in [`Params::SPECS`] of the value named `name`, and `value` read as a number within its range.
    ///
    /// # Errors
    /// A message naming an unknown parameter, a value that is not a number, or one outside the range.
    pub fn parse_value(name: &str, value: &str) -> Result<(usize, f64), String> {
        let Some(i) = Params::SPECS.iter().position(|s| s.name == name) else {
            return Err(format!("unknown parameter '{name}'"));
        };
        let spec = &Params::SPECS[i];
        let v: f64 = value.parse().map_err(|_| format!("bad value '{value}' of {name}"))?;
        if !(v.is_finite() && f64::from(spec.min) <= v && v <= f64::from(spec.max)) {
            return Err(format!("{name} {value} is outside {}..={}", spec.min, spec.max));
        }
        Ok((i, v))
    }

    /// The parameters of real `values` in the order of [`Params::SPECS`], each rounded and kept in its range.
    #[must_use]
    pub fn rounded(values: &[f64]) -> Params {
        Params::from_values(&values.iter().map(|v| v.round() as i32).collect::<Vec<_>>())
    }

    /// [`Params::from_text`] of a file.
    ///
    /// # Errors
    /// A message when the file cannot be read or is not understood.
    pub fn load(path: &str) -> Result<Params, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Params::from_text(&text).map_err(|e| format!("{path}: {e}"))
    }

    /// The killer bonuses, first and second.
    #[must_use]
    pub fn killer_bonus(&self) -> [i32; 2] {
        [self.killer_first, self.killer_second]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_lie_in_their_ranges_and_the_names_are_distinct() {
        let values = Params::DEFAULT.values();
        assert_eq!(values.len(), Params::SPECS.len());
        for (spec, v) in Params::SPECS.iter().zip(values) {
            assert_eq!(spec.default, v, "{}", spec.name);
            assert!(spec.min <= v && v <= spec.max && spec.step > 0.0, "{}", spec.name);
            assert_eq!(Params::SPECS.iter().filter(|s| s.name == spec.name).count(), 1, "{}", spec.name);
        }
        assert!(Params::SPECS.iter().any(|s| s.name == "leaf_vcf_nodes" && s.max <= LEAF_VCF_NODES_MAX));
    }

    #[test]
    fn values_round_trip_and_are_kept_in_range() {
        let mut values = Params::DEFAULT.values();
        values[0] += 1;
        let p = Params::from_values(&values);
        assert_eq!(p.values(), values);
        assert_eq!(p.aspiration_depth, Params::DEFAULT.aspiration_depth + 1);
        let wild: Vec<i32> = Params::SPECS.iter().map(|s| s.max + 1000).collect();
        let clamped = Params::from_values(&wild);
        assert!(Params::SPECS.iter().zip(clamped.values()).all(|(s, v)| v == s.max));
    }

    #[test]
    fn a_params_text_sets_what_it_names_and_refuses_what_it_cannot_read() {
        let p = Params::from_text("# tuned\nseed 3\nparam rfp_margin 91.6\nparam lmr_less 0.2\n").expect("valid");
        assert_eq!((p.rfp_margin, p.lmr_less, p.razor_margin), (92, 0, Params::DEFAULT.razor_margin));
        for bad in ["param nonsense 3", "param rfp_margin x", "param rfp_margin 100000", "param rfp_margin", "seed 3"] {
            assert!(Params::from_text(bad).is_err(), "{bad}");
        }
    }
}
