//! The move policy's training run (`pbrain-tengen train --policy`): game files with searched best moves (`rescore`
//! writes them) read, the move policy of one rule group fitted over the sums of a network (see [`super::policy`]),
//! both losses reported after every epoch and the top-1 and top-3 agreement with the best moves beside today's
//! ordering's, and the policy file written with its provenance.

use super::policy::{PolicyData, PolicyModel, agreement, fit_temperature, train_policy};
use super::run::TrainRun;
use crate::eval::default_weights;
use crate::eval::network::{Group, Network, embedded_network};
use crate::records::{TrainingSet, read_training_set};
use crate::tune::split;
use std::io::{self, Write};
use std::time::Instant;

/// Runs `train --policy` as the command prints it.
///
/// # Errors
/// Output I/O errors.
pub fn run_policy(c: &TrainRun, out: &mut dyn Write) -> io::Result<()> {
    let start = Instant::now();
    let group = Group::of(c.rule);
    let net: &'static Network = match &c.network {
        Some(path) => match Network::load(path) {
            Ok(net) if net.group == group => net,
            Ok(net) => return writeln!(out, "error: {path} is a {} network, not {}", net.group.name(), group.name()),
            Err(e) => return writeln!(out, "error: {e}"),
        },
        None => match embedded_network(group) {
            Some(net) => net,
            None => return writeln!(out, "error: this build has no {} network to read", group.name()),
        },
    };
    let TrainingSet { games, sources, .. } = read_training_set(&c.files, out)?;
    let (_, held_games) = split(games.len(), c.held_out, c.policy_options.seed);
    let mut is_held = vec![false; games.len()];
    for &g in &held_games {
        is_held[g] = true;
    }
    let weights = default_weights();
    let mut data = PolicyData::new(group);
    let mut held = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let number = data.games as usize;
        data.add_game(game, net, weights);
        if data.games as usize > number && is_held[i] {
            held.push(number);
        }
    }
    let [train_part, held_part] = data.split_by_game(&held);
    let summary = format!(
        "{} games read, {} {} games with best moves: {} positions ({} held out, from {} games), {:.1} candidates \
         each; {} forced or with the best move off the list left out",
        games.len(),
        data.games,
        group.name(),
        data.samples.len(),
        held_part.len(),
        held.len(),
        data.candidates.len() as f64 / data.samples.len().max(1) as f64,
        data.skipped
    );
    writeln!(out, "data: {summary} (read in {:.1} s)", start.elapsed().as_secs_f64())?;
    if train_part.is_empty() {
        return writeln!(out, "error: no {} positions with a best move to learn from", group.name());
    }
    let parts = [&train_part[..], &held_part[..]];
    let ordering = parts.map(|p| agreement(&data, p, |_, cand| cand.order));
    writeln!(
        out,
        "today's ordering (attack and defence values): held-out {}; train {}",
        ordering[1].text(),
        ordering[0].text()
    )?;
    // The ordering's values as logits are far too sure of themselves: the start is the ordering at the temperature
    // that fits the training moves best.
    let temperature = fit_temperature(&data, parts[0], weights);
    writeln!(out, "the ordering's values as logits: temperature {temperature:.3} fits best")?;
    let mut model = PolicyModel::from_ordering(group, weights, temperature);
    let mut first = None;
    let mut last = [0.0; 2];
    train_policy(&mut model, &data, parts, &c.policy_options, |epoch, loss| {
        let _ = writeln!(
            out,
            "epoch {epoch:>3}: loss {:.5} held-out {:.5} ({:.0} s)",
            loss[0],
            loss[1],
            start.elapsed().as_secs_f64()
        );
        let _ = out.flush();
        first.get_or_insert(loss);
        last = loss;
    });
    let first = first.unwrap_or(last);
    let mut policy = model.round(net);
    let fitted = parts.map(|p| agreement(&data, p, |side, cand| policy.score_of(side, &cand.x)));
    writeln!(out, "policy (rounded): held-out {}; train {}", fitted[1].text(), fitted[0].text())?;
    let o = &c.policy_options;
    policy.header = vec![
        format!("Tengen {} move policy, trained by pbrain-tengen train --policy (see docs/engine.md)", group.name()),
        format!("command: {}", c.line),
        format!("network: {}", net.name()),
        format!("data: {}", sources.join("; ")),
        format!("positions: {summary}"),
        format!(
            "start: the ordering at temperature {temperature:.3}; epochs {}, batch {}, lr {}, l2 {}, seed {}",
            o.epochs, o.batch, o.lr, o.l2, o.seed
        ),
        format!(
            "loss: train {:.5} -> {:.5}, held-out {:.5} -> {:.5}; held-out agreement: ordering {}, policy {}",
            first[0],
            last[0],
            first[1],
            last[1],
            ordering[1].text(),
            fitted[1].text()
        ),
    ];
    if let Some(path) = &c.out {
        match policy.save(path) {
            Ok(()) => writeln!(out, "wrote {path}")?,
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
    Ok(())
}
