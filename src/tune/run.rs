//! A tuning run as `pbrain-tengen tune` makes it: what it is asked ([`TuneRun`]), the game files read (Tengen's
//! `.tgr`, c-gomoku-cli's `-sample format=bin`), games and samples split into training and held-out parts before
//! their positions are taken, the evaluation and the move-ordering values fitted ([`super::tune`]) with the progress
//! reported on the command's output, and the weights file written with its provenance.

use super::data::Dataset;
use super::{Progress, TuneOptions, split_games_and_samples, tune, weights_from};
use crate::eval::{Family, Weights, default_weights};
use crate::problems::{Problems, named};
use crate::records::{TrainingSet, read_training_set};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::io::{self, Write};
use std::time::Instant;

/// What a tuning run (`pbrain-tengen tune`) is asked.
#[derive(Clone, Debug)]
pub struct TuneRun {
    /// The data files.
    pub files: Vec<String>,
    /// Where the weights go (nothing is written without it).
    pub out: Option<String>,
    /// The starting weights: `prior`, `embedded` or a weights file.
    pub init: String,
    /// Held-out fraction of the games.
    pub held_out: f64,
    /// Positions whose side to move has a VCF within this many nodes are dropped (0: none are).
    pub drop_vcf: u64,
    /// The fit's options.
    pub options: TuneOptions,
    /// The command line, for the provenance.
    pub line: String,
}

/// Runs `tune` as the command prints it: reads the files (each bad record skipped on `problems`), fits, prints the
/// progress and writes the weights; a run that cannot start or has nothing to learn from fails on `problems`.
///
/// # Errors
/// Output I/O errors, and a weights file that cannot be written (`PATH: reason`).
pub fn run(c: &TuneRun, out: &mut dyn Write, problems: &mut Problems) -> io::Result<()> {
    let init: &Weights = match c.init.as_str() {
        "prior" => &Weights::prior(),
        "embedded" => default_weights(),
        path => match Weights::load(path) {
            Ok(w) => w,
            Err(e) => return problems.fail(e),
        },
    };
    let start = Instant::now();
    let TrainingSet { games, samples, sources, .. } = read_training_set(&c.files, problems);
    let [(train_games, held_games), (train_samples, held_samples)] =
        split_games_and_samples(games.len(), samples.len(), c.held_out, c.options.seed);
    let mut data = Dataset { vcf_nodes: c.drop_vcf, ..Dataset::default() };
    let mut ranges = [(0, 0, 0, 0); 2];
    for (part, (g, s)) in [(train_games, train_samples), (held_games, held_samples)].into_iter().enumerate() {
        let (e0, m0) = (data.evals.len(), data.moves.len());
        for i in g {
            data.add_game(&games[i]);
        }
        for i in s {
            data.add_sample(&samples[i]);
        }
        ranges[part] = (e0, data.evals.len(), m0, data.moves.len());
    }
    let evals: [Vec<usize>; 2] = ranges.map(|(a, b, _, _)| (a..b).collect());
    let moves: [Vec<usize>; 2] = ranges.map(|(_, _, a, b)| (a..b).collect());
    let families = data.family_counts();
    let per_family: Vec<String> =
        Family::ALL.iter().zip(families).filter(|&(_, n)| n > 0).map(|(f, n)| format!("{} {n}", f.name())).collect();
    let dropped = if c.drop_vcf > 0 { format!(", {} with a VCF dropped", data.vcf_dropped) } else { String::new() };
    let summary = format!(
        "{} games and {} samples: {} positions ({}{dropped}), {} held out; {} move choices, {} held out",
        games.len(),
        samples.len(),
        data.evals.len(),
        per_family.join(", "),
        evals[1].len(),
        data.moves.len(),
        moves[1].len()
    );
    writeln!(out, "data: {summary} (read in {:.1} s)", start.elapsed().as_secs_f64())?;
    if data.evals.is_empty() && c.options.epochs > 0 {
        return problems.fail(format_args!("{}: no positions to learn from", c.files.join(", ")));
    }
    // A shuffled order inside each part does not change the result; it only spreads the families over batches.
    let mut rng = StdRng::seed_from_u64(c.options.seed);
    let [mut train_e, held_e] = evals;
    let [mut train_m, held_m] = moves;
    train_e.shuffle(&mut rng);
    train_m.shuffle(&mut rng);
    let mut report = |p: &Progress| {
        let _ = writeln!(
            out,
            "epoch {:>3}: eval loss {:.5} held-out {:.5}; order loss {:.4} held-out {:.4} ({:.0} s)",
            p.epoch,
            p.eval[0],
            p.eval[1],
            p.order[0],
            p.order[1],
            start.elapsed().as_secs_f64()
        );
        let _ = out.flush();
    };
    let tuned = tune(&data, [&train_e, &held_e], [&train_m, &held_m], init, &c.options, &mut report);
    let (f, l) = (tuned.first, tuned.last);
    let header = vec![
        "Tengen evaluation weights, trained by pbrain-tengen tune (see README, Training)".to_string(),
        format!("command: {}", c.line),
        format!("data: {}", sources.join("; ")),
        format!("positions: {summary}"),
        format!("init: {}; K = {:.1}; score weight {}", c.init, tuned.k, c.options.score_weight),
        format!(
            "eval loss: train {:.5} -> {:.5}, held-out {:.5} -> {:.5}; order loss: train {:.4} -> {:.4}, held-out {:.4} -> {:.4}",
            f.eval[0], l.eval[0], f.eval[1], l.eval[1], f.order[0], l.order[0], f.order[1], l.order[1]
        ),
    ];
    writeln!(out, "K = {:.1}", tuned.k)?;
    let weights = weights_from(&tuned.eval, &tuned.order, header);
    if let Some(path) = &c.out {
        std::fs::write(path, weights.to_text()).map_err(named(path))?;
        writeln!(out, "wrote {path}")?;
    }
    Ok(())
}
