//! `tune`: its options read into a tuning run ([`crate::tune::run`]), which reads the game files, fits the evaluation
//! and the move-ordering values, prints the progress and writes the weights file.

use super::OptionCursor;
use super::options::non_negative;
use crate::tune::TuneOptions;
use crate::tune::run::TuneRun;

/// Parses the options of `tune`.
///
/// # Errors
/// A message naming a bad or unknown option.
pub fn parse_tune(args: &[String]) -> Result<TuneRun, String> {
    let mut c = TuneRun {
        files: Vec::new(),
        out: None,
        init: "prior".to_string(),
        held_out: 0.1,
        drop_vcf: 0,
        options: TuneOptions::default(),
        line: format!("pbrain-tengen tune {}", args.join(" ")),
    };
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&name, &inline);
        let mut real = |what: &str| non_negative(&value()?, what);
        match name.as_str() {
            "--out" => c.out = Some(value()?),
            "--init" => c.init = value()?,
            "--epochs" => c.options.epochs = real("epoch count")? as usize,
            "--batch" => c.options.batch = (real("batch size")? as usize).max(1),
            "--lr" => c.options.eval_lr = real("step size")?,
            "--order-lr" => c.options.order_lr = real("step size")?,
            "--l2" => c.options.l2 = real("L2 weight")?,
            "--seed" => c.options.seed = real("seed")? as u64,
            "--k" => c.options.k = Some(real("K")?.max(1.0)),
            "--score-weight" => c.options.score_weight = real("weight")?.min(1.0),
            "--held-out" => c.held_out = real("fraction")?.min(0.9),
            "--drop-vcf" => c.drop_vcf = real("node count")? as u64,
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            file => c.files.push(file.to_string()),
        }
    }
    Ok(c)
}
