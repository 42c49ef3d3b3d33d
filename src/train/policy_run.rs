//! The move policy's training run (`pbrain-tengen train --policy`): game files with searched best moves (`rescore`
//! writes them) and Gomocup's `.psq` games (the moves the strongest engines played) read, the move policy of one
//! rule group fitted over the sums of a network (see [`super::policy`]), both losses reported after every epoch and
//! the top-1 and top-3 agreement with the best moves beside today's ordering's (and on Gomocup's judging games
//! beside the shipped policy's), and the policy file written with its provenance.

use super::config::TrainRun;
use super::gomocup::games_with_best_moves;
use super::policy::{Agreement, PolicyData, PolicyModel, agreement, fit_temperature, train_policy};
use crate::eval::network::{Group, Network, embedded_network};
use crate::eval::{Weights, default_weights, policy};
use crate::problems::Problems;
use crate::records::read_psq_files;
use crate::records::selection::{Selection, played_as_best};
use crate::tune::split;
use std::io::{self, Write};
use std::time::Instant;

/// Runs `train --policy` as the command prints it: each bad record skipped on `problems`; a run that cannot start,
/// or has nothing to learn from, fails there.
///
/// # Errors
/// Output I/O errors.
pub fn run_policy(c: &TrainRun, out: &mut dyn Write, problems: &mut Problems) -> io::Result<()> {
    let start = Instant::now();
    let group = Group::of(c.rule);
    let net: &'static Network = match &c.network {
        Some(path) => match Network::load(path) {
            Ok(net) if net.group == group => net,
            Ok(net) => {
                return problems.fail(format_args!("{path} is a {} network, not {}", net.group.name(), group.name()));
            }
            Err(e) => return problems.fail(e),
        },
        None => match embedded_network(group) {
            Some(net) => net,
            None => return problems.fail(format_args!("this build has no {} network to read", group.name())),
        },
    };
    let (games, sources) = games_with_best_moves(&c.files, &c.gomocup, problems);
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
        let files = c.files.join(", ");
        return problems.fail(format_args!("{files}: no {} positions with a best move to learn from", group.name()));
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
    if c.policy_options.hidden > 0 {
        model = model.with_hidden(c.policy_options.hidden, c.policy_options.seed);
    }
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
    let hidden = (model.hidden > 0).then_some(&model);
    if let Some(model) = hidden {
        let float = parts.map(|p| agreement(&data, p, |side, cand| model.logit(side, &cand.x)));
        writeln!(
            out,
            "policy with its hidden layer (floats; the file holds the linear part alone): held-out {}; train {}",
            float[1].text(),
            float[0].text()
        )?;
    }
    let judged = if c.judging.is_empty() { None } else { judging(c, net, weights, &policy, hidden, out, problems)? };
    let o = &c.policy_options;
    policy.header = vec![
        format!("Tengen {} move policy, trained by pbrain-tengen train --policy (see docs/engine.md)", group.name()),
        format!("command: {}", c.line),
        format!("network: {}", net.name()),
        format!("data: {}", sources.join("; ")),
        format!("positions: {summary}"),
        format!(
            "start: the ordering at temperature {temperature:.3}; epochs {}, batch {}, lr {}, l2 {}, seed {}, hidden {}",
            o.epochs, o.batch, o.lr, o.l2, o.seed, o.hidden
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
    policy.header.extend(judged);
    if let Some(path) = &c.out {
        match policy.save(path) {
            Ok(()) => writeln!(out, "wrote {path}")?,
            Err(e) => problems.fail(e)?,
        }
    }
    Ok(())
}

/// Measures on Gomocup's judging games `c.judging` the top-1 and top-3 agreement with the moves the yardstick takes
/// (each league's two strongest engines' moves of a second or more: docs/agreement.md) of today's ordering, the
/// build's policy for `net` (if it has one), `fitted` and the float model with its hidden layer (if it has one),
/// and prints them; the lines for the policy's header, or `None` where no position could be read.
fn judging(
    c: &TrainRun,
    net: &'static Network,
    weights: &Weights,
    fitted: &policy::Policy,
    hidden: Option<&PolicyModel>,
    out: &mut dyn Write,
    problems: &mut Problems,
) -> io::Result<Option<String>> {
    let games = match read_psq_files(&c.judging) {
        Ok((games, bad)) => {
            problems.skip_all(bad);
            games
        }
        Err(e) => {
            problems.skip(e);
            return Ok(None);
        }
    };
    let (records, skipped) = played_as_best(&games, &Selection::default());
    problems.skip_all(skipped);
    let mut data = PolicyData::new(Group::of(c.rule));
    for record in &records {
        data.add_game(record, net, weights);
    }
    if data.samples.is_empty() {
        problems.skip(format_args!("{}: no {} judging positions", c.judging.join(", "), Group::of(c.rule).name()));
        return Ok(None);
    }
    let all: Vec<usize> = (0..data.samples.len()).collect();
    let mut rows: Vec<(&str, Agreement)> = vec![("today's ordering", agreement(&data, &all, |_, cand| cand.order))];
    if let Some(shipped) = policy::for_network(net) {
        rows.push(("the build's policy", agreement(&data, &all, |side, cand| shipped.score_of(side, &cand.x))));
    }
    rows.push(("this policy", agreement(&data, &all, |side, cand| fitted.score_of(side, &cand.x))));
    if let Some(model) = hidden {
        rows.push(("with its hidden layer", agreement(&data, &all, |side, cand| model.logit(side, &cand.x))));
    }
    let rows: Vec<String> = rows.iter().map(|(name, a)| format!("{name} {}", a.text())).collect();
    let line = format!(
        "Gomocup's judging games ({} positions of {} games; {} with one answer or the move off the list left out): {}",
        data.samples.len(),
        data.games,
        data.skipped,
        rows.join("; ")
    );
    writeln!(out, "judging: {line}")?;
    Ok(Some(format!("judging: {line}")))
}
