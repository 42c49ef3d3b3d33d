//! `train`: its options read into a training run ([`TrainRun`]), which reads the game files, fits the network
//! ([`crate::train::run`]) or with `--policy` the move policy ([`crate::train::policy_run`]) and prints as it goes.

use super::OptionCursor;
use super::options::non_negative;
use crate::train::config::TrainRun;

/// Parses the options of `train`.
///
/// # Errors
/// A message naming a bad or unknown option.
pub fn parse_train(args: &[String]) -> Result<TrainRun, String> {
    let mut c = TrainRun::new(format!("pbrain-tengen train {}", args.join(" ")));
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&name, &inline);
        let mut real = |what: &str| non_negative(&value()?, what);
        match name.as_str() {
            "--rule" => c.rule = value()?.parse()?,
            "--out" => c.out = Some(value()?),
            "--init" => c.init = Some(value()?),
            "--epochs" => {
                c.options.epochs = real("epoch count")? as usize;
                c.policy_options.epochs = c.options.epochs;
            }
            "--batch" => {
                c.options.batch = (real("batch size")? as usize).max(1);
                c.policy_options.batch = c.options.batch;
            }
            "--lr" => {
                c.options.lr = real("step size")?;
                c.policy_options.lr = c.options.lr;
            }
            "--seed" => {
                c.options.seed = real("seed")? as u64;
                c.policy_options.seed = c.options.seed;
            }
            "--l2" => c.policy_options.l2 = real("pull")?,
            "--hidden" => c.policy_options.hidden = (real("unit count")? as usize).min(256),
            "--network" => c.network = Some(value()?),
            "--players" => c.gomocup.strongest = (real("engine count")? as usize).max(1),
            "--engines" => {
                c.gomocup.engines = value()?.split(',').map(|s| s.trim().to_string()).collect();
            }
            "--min-ms" => c.gomocup.min_ms = real("time")? as u32,
            "--judging" => c.judging.push(value()?),
            "--choices" => c.choices.push(value()?),
            "--choice-against" => c.choice_against.push(value()?),
            "--choice-alternatives" => c.choice_alternatives = (real("alternative count")? as usize).min(16),
            "--choice-weight" => c.choice_weight = real("weight")?,
            "--choice-repeat" => c.choice_repeat = (real("repeat count")? as usize).clamp(1, 100),
            "--choice-fours" => c.choice_fours = true,
            "--policy" if inline.is_none() => c.policy = true,
            "--k" => c.k = Some(real("K")?.max(1.0)),
            "--units" => c.units = real("units")?.clamp(0.01, 10.0),
            "--score-weight" => c.score_weight = real("weight")?.min(1.0),
            "--held-out" => c.held_out = real("fraction")?.min(0.9),
            "--drop-vcf" => c.drop_vcf = real("node count")? as u64,
            "--head-epochs" => c.head_epochs = real("epoch count")? as usize,
            "--standalone" if inline.is_none() => c.residual = false,
            "--empty-only" if inline.is_none() => c.empty_only = true,
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            file => c.files.push(file.to_string()),
        }
    }
    Ok(c)
}
