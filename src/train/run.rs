//! A training run as `pbrain-tengen train` makes it, from game files to the network file: the files read (`FILE:K` counts a file's training games K times), the network fitted ([`super::train`]),
//! its losses after every epoch and the head fitted again on the rounded tables, the rounded network checked against
//! the float model and beside the classical evaluation, each step reported on the command's output, and the file
//! written with its provenance. What a run is asked is `config.rs`'s; the move policy's run is `policy_run.rs`.

use super::choice::Choices;
use super::config::TrainRun;
use super::data::NetData;
use super::gomocup::games_with_best_moves;
use super::model::{Model, Trace};
use super::{Epoch, Pairs, TrainOptions, train_with, zero_unseen};
use crate::eval::network::{Accumulator, Group, Network};
use crate::eval::{EVAL_LIMIT, default_weights};
use crate::problems::Problems;
use crate::records::read_training_set;
use crate::tune::data::Dataset;
use crate::tune::{eval_loss, eval_params, fit_k, split, split_games_and_samples};
use crate::types::Pos;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Instant;

/// A data file argument: `FILE:K` (K from 1 to 100) is FILE with each training game counted K times; anything
/// else is a file counted once.
pub fn weighted(spec: &str) -> (&str, usize) {
    match spec.rsplit_once(':') {
        Some((file, k)) if !file.is_empty() => match k.parse::<usize>() {
            Ok(k) if (1..=100).contains(&k) => (file, k),
            _ => (spec, 1),
        },
        _ => (spec, 1),
    }
}

/// Runs `train` as the command prints it: the data read (each bad record skipped on `problems`), the losses after
/// every epoch, the rounded network checked against the float model, and the network written with its provenance;
/// a run that cannot start, or has nothing to learn from, fails on `problems`.
///
/// # Errors
/// Output I/O errors.
pub fn run(c: &TrainRun, out: &mut dyn Write, problems: &mut Problems) -> io::Result<()> {
    let start = Instant::now();
    let group = Group::of(c.rule);
    // `FILE:K` counts each of the file's training games K times (its held-out games once).
    let (mut games, mut samples, mut sources, mut repeats) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for spec in &c.files {
        let (file, times) = weighted(spec);
        let part = read_training_set(&[file], problems);
        repeats.extend(std::iter::repeat_n(times, part.games.len()));
        games.extend(part.games);
        samples.extend(part.samples);
        sources.extend(part.sources.into_iter().map(|t| if times > 1 { format!("{t} x{times}") } else { t }));
    }
    let [(train_games, held_games), (train_samples, held_samples)] =
        split_games_and_samples(games.len(), samples.len(), c.held_out, c.options.seed);
    let mut data = NetData::new(group, c.drop_vcf);
    // The classical evaluation's positions from the same games, for its loss on the same split.
    let mut classical = Dataset { vcf_nodes: c.drop_vcf, ..Dataset::default() };
    let mut parts: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let mut classical_parts: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    for (part, (g, s)) in [(train_games, train_samples), (held_games, held_samples)].into_iter().enumerate() {
        let (n0, c0) = (data.positions.len(), classical.evals.len());
        for i in g {
            for _ in 0..if part == 0 { repeats[i] } else { 1 } {
                if data.add_game(&games[i]) > 0 {
                    classical.add_game(&games[i]);
                }
            }
        }
        for i in s {
            if data.add_sample(&samples[i]) {
                classical.add_sample(&samples[i]);
            }
        }
        parts[part] = (n0..data.positions.len()).collect();
        classical_parts[part] = (c0..classical.evals.len()).collect();
    }
    let dropped = if c.drop_vcf > 0 { format!(", {} with a VCF left out", data.vcf_dropped) } else { String::new() };
    let summary = format!(
        "{} games and {} samples ({} of another rule group skipped): {} {} positions{dropped}, {} held out",
        games.len(),
        samples.len(),
        data.other_group,
        data.positions.len(),
        group.name(),
        parts[1].len()
    );
    writeln!(out, "data: {summary} (read in {:.1} s)", start.elapsed().as_secs_f64())?;
    if data.positions.is_empty() {
        return problems.fail(format_args!("{}: no {} positions to learn from", c.files.join(", "), group.name()));
    }
    let weights = default_weights();
    let classical_params = eval_params(weights);
    // A network continued from (`--init`) keeps the K it was trained at (its scale over `--units`), so that its
    // logits and the classical base stay in the proportion it learned and its evaluation units do not move.
    // Freestyle and standard share a shape, so either starts the other (`regrouped`); renju's stands alone.
    let init = match &c.init {
        Some(path) => match Network::load(path).map(|net| (net, net.regrouped(group))) {
            Ok((_, Some(net))) => Some(net),
            Ok((net, None)) => {
                return problems.fail(format_args!("{path} is a {} network, not {}", net.group.name(), group.name()));
            }
            Err(e) => return problems.fail(e),
        },
        None => None,
    };
    let k = match (c.k, &init) {
        (Some(k), _) => k,
        (None, Some(net)) => f64::from(net.scale) / c.units,
        (None, None) => fit_k(&classical, &classical_parts[0], &classical_params),
    };
    let targets = data.targets(k, c.score_weight);
    let bases = data.bases(k, c.residual);
    let classical_targets = classical.targets(k, c.score_weight);
    let classical_loss =
        classical_parts.clone().map(|p| eval_loss(&classical, &classical_targets, &p, &classical_params, k));
    writeln!(
        out,
        "K = {k:.1}; the classical evaluation's loss: train {:.5}, held-out {:.5}",
        classical_loss[0], classical_loss[1]
    )?;
    // Choice pairs, split by game (a seeded split of the choice games of its own).
    let choices = if c.choices.is_empty() { None } else { Some(choice_pairs(c, group, out, problems)?) };
    if choices.as_ref().is_some_and(|(ch, ..)| ch.is_empty()) {
        return problems.fail(format_args!("{}: no {} choice pairs", c.choices.join(", "), group.name()));
    }
    let choice_bases = choices.as_ref().map(|(ch, ..)| ch.children.bases(k, c.residual)).unwrap_or_default();
    let pairs = choices.as_ref().map(|(ch, parts, _)| Pairs {
        choices: ch,
        bases: &choice_bases,
        split: [&parts[0][..], &parts[1][..]],
        weight: c.choice_weight as f32,
        repeat: c.choice_repeat,
    });
    let mut model = match init {
        Some(net) => Model::from_network(&net),
        None => Model::random(group, c.options.seed),
    };
    // A network trained on all points can start one that pools the empty points alone (their rows are the same).
    model.empty_only |= c.empty_only;
    let mut first = None;
    let mut last = None;
    let split = [&parts[0][..], &parts[1][..]];
    let seen = train_with(&mut model, &data, &targets, &bases, split, pairs.as_ref(), &c.options, |e: &Epoch| {
        let _ = writeln!(
            out,
            "epoch {:>3}: loss {:.5} held-out {:.5}{} ({:.0} s)",
            e.epoch,
            e.loss[0],
            e.loss[1],
            choice_text(e),
            start.elapsed().as_secs_f64()
        );
        let _ = out.flush();
        first.get_or_insert(*e);
        last = Some(*e);
    });
    // Rows the data never reached are noise from a random start, zeroed; from `--init` they keep what the network
    // learned before (a fine-tune on a small set would otherwise wipe every row it does not hold).
    if c.options.epochs > 0 && c.init.is_none() {
        zero_unseen(&mut model, &seen);
    }
    // The tables are rounded to 1/ONE, and a row shared by hundreds of points (an empty window, say) carries its
    // rounding into all of them: the head learns again on the rounded tables, at a tenth of the step, so that the
    // network written is the model it was fitted as.
    if c.head_epochs > 0 {
        let rounded = model.quantise(1.0, Vec::new());
        model = Model::from_network(&rounded);
        let options =
            TrainOptions { epochs: c.head_epochs, lr: c.options.lr * 0.1, freeze_tables: true, ..c.options.clone() };
        train_with(&mut model, &data, &targets, &bases, split, pairs.as_ref(), &options, |e: &Epoch| {
            let what = if e.epoch == 0 { "tables rounded".to_string() } else { format!("head epoch {}", e.epoch) };
            let _ = writeln!(
                out,
                "{what}: loss {:.5} held-out {:.5}{} ({:.0} s)",
                e.loss[0],
                e.loss[1],
                choice_text(e),
                start.elapsed().as_secs_f64()
            );
            let _ = out.flush();
            last = Some(*e);
        });
    }
    let (first, last) = (
        first.unwrap_or(Epoch { epoch: 0, loss: [0.0; 2], choice: None }),
        last.unwrap_or(first.unwrap_or(Epoch { epoch: 0, loss: [0.0; 2], choice: None })),
    );
    let mut header = vec![
        format!("Tengen {} network, trained by pbrain-tengen train (see README, Network)", group.name()),
        format!("command: {}", c.line),
        format!("data: {}", sources.join("; ")),
        format!("positions: {summary}"),
        format!(
            "K = {k:.1}; score weight {}; seed {}; {}",
            c.score_weight,
            c.options.seed,
            if c.residual { "residual: added to the classical evaluation" } else { "standalone" },
        ) + if model.empty_only { "; the empty points pooled" } else { "" }
            + &if c.units == 1.0 { String::new() } else { format!("; written at {} K a logit", c.units) },
        format!(
            "loss: train {:.5} -> {:.5}, held-out {:.5} -> {:.5} (classical evaluation: train {:.5}, held-out {:.5})",
            first.loss[0], last.loss[0], first.loss[1], last.loss[1], classical_loss[0], classical_loss[1]
        ),
    ];
    if let Some((_, _, source)) = &choices {
        header.push(format!(
            "choices: {source}; weight {}, repeated {}; preferred{}",
            c.choice_weight,
            c.choice_repeat,
            choice_text(&last)
        ));
    }
    let mut net = model.quantise((k * c.units) as f32, header);
    net.residual = c.residual;
    let net: &'static Network = Box::leak(Box::new(net));
    // The rounded network on the held-out positions: its loss; on the first 2,000 its logit against the float
    // model's, and its evaluation beside the classical one (the position's own, kept with it) in the search's units.
    let mut trace = Trace::default();
    let (mut held_fixed, mut worst, mut mean) = (0.0, 0.0f64, 0.0);
    let mut pairs = Vec::new();
    for (n, &i) in parts[1].iter().enumerate() {
        let pos = data.positions[i];
        let board = data.board(i);
        let fixed = Accumulator::new(net, &board).logit(pos.side(), pos.flags);
        held_fixed += super::cross_entropy(f64::from(fixed + bases[i]), f64::from(targets[i])).0;
        if n < 2_000 {
            // (A residual network's base is the same for both and cancels.)
            let float = model.forward(&board, pos.side(), pos.flags, &mut trace);
            worst = worst.max(f64::from((float - fixed).abs()));
            mean += f64::from((float - fixed).abs());
            let classical = i32::from(pos.classical);
            pairs.push((f64::from(classical), f64::from(net.evaluation(fixed, classical, EVAL_LIMIT))));
        }
    }
    held_fixed /= parts[1].len().max(1) as f64;
    mean /= pairs.len().max(1) as f64;
    writeln!(
        out,
        "rounded network: held-out loss {held_fixed:.5}; logit against the float model on {} held-out positions: \
         largest difference {worst:.4}, mean {mean:.5} ({:.1} and {:.2} evaluation units)",
        pairs.len(),
        worst * f64::from(net.scale),
        mean * f64::from(net.scale)
    )?;
    // How the two evaluations compare on those positions: spread and agreement, in evaluation units.
    let n = pairs.len().max(1) as f64;
    let mean = |f: &dyn Fn(&(f64, f64)) -> f64| pairs.iter().map(f).sum::<f64>() / n;
    let (ma, mb) = (mean(&|p| p.0), mean(&|p| p.1));
    let (va, vb) = (mean(&|p| (p.0 - ma).powi(2)), mean(&|p| (p.1 - mb).powi(2)));
    let cov = mean(&|p| (p.0 - ma) * (p.1 - mb));
    writeln!(
        out,
        "on those positions: classical evaluation mean {ma:.0} spread {:.0}, network mean {mb:.0} spread {:.0}, \
         correlation {:.2}",
        va.sqrt(),
        vb.sqrt(),
        cov / (va.sqrt() * vb.sqrt()).max(1e-9)
    )?;
    if let Some(path) = &c.out {
        match net.save(path) {
            Ok(()) => writeln!(out, "wrote {path}")?,
            Err(e) => problems.fail(e)?,
        }
    }
    Ok(())
}

/// The choice pairs of `c.choices`, split by game into training and held-out pairs (a seeded split of these games
/// of their own: a game given both as positions and as choices may fall on different sides), and the line that says
/// what they are (printed as a `choices:` line).
fn choice_pairs(
    c: &TrainRun,
    group: Group,
    out: &mut dyn Write,
    problems: &mut Problems,
) -> io::Result<(Choices, [Vec<usize>; 2], String)> {
    let (games, sources) = games_with_best_moves(&c.choices, &c.gomocup, problems);
    let (_, held_games) = split(games.len(), c.held_out, c.options.seed);
    let mut held = vec![false; games.len()];
    for &g in &held_games {
        held[g] = true;
    }
    // Another player's choices in the same games, found by the games' moves.
    let mut against: BTreeMap<Vec<Pos>, Vec<Option<Pos>>> = BTreeMap::new();
    let mut against_source = String::new();
    if !c.choice_against.is_empty() {
        let set = read_training_set(&c.choice_against, problems);
        for game in set.games {
            if let Some(best) = game.best {
                against.insert(game.moves, best);
            }
        }
        against_source = format!("; against the best moves of {} games ({})", against.len(), set.sources.join("; "));
    }
    let mut choices = Choices::new(group, c.choice_alternatives);
    choices.fours = c.choice_fours;
    let mut matched = 0;
    for (i, game) in games.iter().enumerate() {
        let other = against.get(&game.moves).map(Vec::as_slice);
        matched += usize::from(other.is_some());
        choices.add_game_against(game, other, i as u32, default_weights());
    }
    if !c.choice_against.is_empty() {
        against_source += &format!(", {matched} of the chosen games among them");
    }
    let parts = choices.split_by_game(&held);
    let with_four = (0..choices.len()).filter(|&j| choices.has_four(j)).count();
    let fours = if c.choice_fours { format!("; {with_four} with a four's child") } else { String::new() };
    let line = format!(
        "{} pairs ({} held out{fours}) from {} games, {} alternatives a chosen move; {} positions gave none (forced, \
         the move off the candidates, or a four{}); {}",
        choices.len(),
        parts[1].len(),
        games.len(),
        c.choice_alternatives,
        choices.skipped,
        if c.choice_fours { " other than a single four, taken after its block" } else { "" },
        sources.join("; ") + &against_source
    );
    writeln!(out, "choices: {line}")?;
    Ok((choices, parts, line))
}

/// An epoch's choice figures, as its line ends (nothing without pairs).
fn choice_text(e: &Epoch) -> String {
    match e.choice {
        Some([t, h]) => format!(
            "; choices loss {:.4} held-out {:.4}, chosen preferred {:.1}% held-out {:.1}%",
            t.0,
            h.0,
            100.0 * t.1,
            100.0 * h.1
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_may_carry_its_weight() {
        assert_eq!(weighted("data/games/a.tgr:4"), ("data/games/a.tgr", 4));
        assert_eq!(weighted("a.tgr"), ("a.tgr", 1));
        assert_eq!(weighted("a.tgr:0"), ("a.tgr:0", 1));
        assert_eq!(weighted("c:/x.tgr"), ("c:/x.tgr", 1));
        assert_eq!(weighted(":3"), (":3", 1));
    }
}
