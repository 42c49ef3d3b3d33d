//! What a training run (`pbrain-tengen train`) is asked: the network's run (`run.rs`) and the move policy's
//! (`policy_run.rs`) read it, and the command chooses between them.

use super::TrainOptions;
use super::policy::PolicyOptions;
use crate::records::selection::Selection;
use crate::types::Rule;

/// What a training run (`pbrain-tengen train`) is asked.
#[derive(Clone, Debug)]
pub struct TrainRun {
    /// The data files.
    pub files: Vec<String>,
    /// The rule whose group is trained.
    pub rule: Rule,
    /// Where the network goes (nothing is written without it).
    pub out: Option<String>,
    /// A network file to start from (else a seeded random start).
    pub init: Option<String>,
    /// Held-out fraction of the games.
    pub held_out: f64,
    /// Positions whose side to move has a VCF within this many nodes are left out (0: none are).
    pub drop_vcf: u64,
    /// The weight of the search's score in the target.
    pub score_weight: f64,
    /// Evaluation units per logit (None: fitted to the classical evaluation, so both speak the same units).
    pub k: Option<f64>,
    /// The network's output is written at this fraction of `k` units per logit (1: the classical units). Below 1
    /// the search hears less of what the network adds (a residual network) or less of all of it (standalone).
    pub units: f64,
    /// Whether the network learns what the classical evaluation misses (its output added to the classical
    /// evaluation) rather than the whole value.
    pub residual: bool,
    /// Whether only the empty points are pooled (see [`Network::empty_only`]).
    pub empty_only: bool,
    /// The fit's options.
    pub options: TrainOptions,
    /// Epochs in which the head alone learns on the rounded tables, after the fit (0: none).
    pub head_epochs: usize,
    /// Whether the move policy is trained instead of the network (see [`super::policy`]).
    pub policy: bool,
    /// The policy's options (`--epochs`, `--batch`, `--lr`, `--seed` and `--l2` set them too).
    pub policy_options: PolicyOptions,
    /// The network whose sums the policy reads (None: the build's embedded network of the rule).
    pub network: Option<String>,
    /// With `policy`, which moves of Gomocup's `.psq` games the policy learns (the moves played; the judging
    /// games are never read).
    pub gomocup: Selection,
    /// With `policy`, Gomocup's judging games to measure the policies on (the yardstick's positions: the moves its
    /// selection takes from each league's judging games).
    pub judging: Vec<String>,
    /// Games whose best moves the network learns to prefer as choice pairs (Gomocup's `.psq` records, with the moves
    /// `gomocup` takes; game files with best moves), beside the positions of `files` (see [`super::choice`]).
    pub choices: Vec<String>,
    /// Game files of the same games with another player's choices as their best moves (`rescore`'s: Tengen's own
    /// search's), each a further alternative where it differs from the chosen move.
    pub choice_against: Vec<String>,
    /// The alternatives a chosen move is compared with: today's ordering's highest among the other candidates.
    pub choice_alternatives: usize,
    /// A pair's gradient against a position's.
    pub choice_weight: f64,
    /// How many times each training pair counts an epoch.
    pub choice_repeat: usize,
    /// Whether a move that makes a single four takes part in pairs, as the position after its block.
    pub choice_fours: bool,
    /// The command line, for the provenance.
    pub line: String,
}

impl TrainRun {
    /// A run of the network on no files with the command's defaults; `line` is its command line.
    #[must_use]
    pub fn new(line: String) -> TrainRun {
        TrainRun {
            files: Vec::new(),
            rule: Rule::Renju,
            out: None,
            init: None,
            held_out: 0.1,
            drop_vcf: 0,
            score_weight: 0.5,
            k: None,
            units: 1.0,
            residual: true,
            empty_only: false,
            options: TrainOptions::default(),
            head_epochs: 2,
            policy: false,
            policy_options: PolicyOptions::default(),
            network: None,
            gomocup: Selection { split: None, ..Selection::default() },
            judging: Vec::new(),
            choices: Vec::new(),
            choice_against: Vec::new(),
            choice_alternatives: 3,
            choice_weight: 1.0,
            choice_repeat: 1,
            choice_fours: false,
            line,
        }
    }

    /// Runs it: the move policy's run with [`TrainRun::policy`], else the network's.
    ///
    /// # Errors
    /// Output I/O errors.
    pub fn run(&self, out: &mut dyn std::io::Write, problems: &mut crate::problems::Problems) -> std::io::Result<()> {
        if self.policy {
            super::policy_run::run_policy(self, out, problems)
        } else {
            super::run::run(self, out, problems)
        }
    }
}
