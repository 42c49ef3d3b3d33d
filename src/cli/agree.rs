//! `agree`: its options read into an agreement run ([`crate::agree`]), or its reports over results files.

use super::Done;
use super::OptionCursor;
use crate::agree::engines::{Budget, Measured, Outside, Tengen};
use crate::agree::{Agree, judge, judged_of, kinds_of, paired_files, report_files, run};
use crate::eval::{EvalChoice, Weights, WeightsRef};
use crate::matches::Shard;
use crate::problems::Problems;
use crate::records::gomocup::Split;
use crate::records::selection::Selection;
use crate::search::SearchOptions;
use crate::search::params::Params;
use std::io::Write;
use std::path::PathBuf;

/// Runs `agree [options] DIR|FILE.psq...`, `agree --report FILE...` or `agree --paired A B`.
pub(super) fn agree_command(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
    if matches!(args.first().map(String::as_str), Some("--report" | "--paired")) {
        return report_command(args, out, p);
    }
    // `--judge RESULTS[,RESULTS...]`: the run scores those files' moves instead of choosing its own.
    let (rest, judged) = match args.iter().position(|a| a == "--judge") {
        Some(at) => {
            let files = args
                .get(at + 1)
                .filter(|f| !f.starts_with("--"))
                .ok_or("--judge needs results files (joined by commas)")?;
            let rest: Vec<String> = args[..at].iter().chain(&args[at + 2..]).cloned().collect();
            (rest, Some(files.split(',').filter(|f| !f.is_empty()).map(str::to_string).collect::<Vec<_>>()))
        }
        None => (args.to_vec(), None),
    };
    let a = parse_agree(&rest)?;
    match judged {
        Some(files) => judge(&a, &files, out, p),
        None => run(&a, out, p),
    }
}

/// `--report FILE... [--games DIR...] [--judged FILE]` or `--paired A B [--games DIR...] [--judged FILE]`.
fn report_command(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
    let mut files = Vec::new();
    let mut games = Vec::new();
    let mut judged_files = Vec::new();
    let mut into_games = false;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--games" => into_games = true,
            "--judged" => {
                let file = args.get(i + 1).filter(|f| !f.starts_with("--")).ok_or("--judged needs a judge's file")?;
                judged_files.push(file.clone());
                i += 1;
            }
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            other if into_games => games.push(PathBuf::from(other)),
            other => files.push(other.to_string()),
        }
        i += 1;
    }
    let mut problems = Vec::new();
    let kinds = if games.is_empty() { Default::default() } else { kinds_of(&games, &mut problems)? };
    let judged = judged_of(&judged_files, &mut problems)?;
    p.skip_all(problems);
    if args[0] == "--report" {
        if files.is_empty() {
            return Err("agree --report needs results files".to_string());
        }
        return report_files(&files, (&kinds, &judged), out, p);
    }
    match &files[..] {
        [a, b] => paired_files((a, b), (&kinds, &judged), out, p),
        _ => Err("agree --paired compares two runs: agree --paired A.tsv[,A2.tsv] B.tsv[,B2.tsv]".to_string()),
    }
}

/// Parses an agreement run's options.
fn parse_agree(args: &[String]) -> Result<Agree, String> {
    let mut selection = Selection::default();
    let mut options = SearchOptions::default();
    let mut budget = None;
    let mut engine = None::<String>;
    let mut hash_mb = 64;
    let mut max_memory_mb = 350;
    let mut a = Agree {
        inputs: Vec::new(),
        selection: Selection::default(),
        measured: Measured::Tengen(Box::new(Tengen { options, table_bytes: 0 })),
        budget: Budget::Nodes(0),
        concurrency: 1,
        shard: None,
        sample: None,
        out: None,
    };
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        match name.as_str() {
            "--nodes" => budget = Some(Budget::Nodes(cursor.number(&name, &inline, "node count", 1..=u64::MAX)?)),
            "--ms" => budget = Some(Budget::Ms(cursor.number(&name, &inline, "time", 1..=3_600_000)?)),
            "--depth" => budget = Some(Budget::Depth(cursor.number(&name, &inline, "depth", 1..=64)? as u32)),
            "--engine" => engine = Some(cursor.value(&name, &inline)?),
            "--eval" => options.eval = cursor.value(&name, &inline)?.parse::<EvalChoice>()?,
            "--network" => options.eval = EvalChoice::load(&cursor.value(&name, &inline)?)?,
            "--weights" => options.weights = WeightsRef(Weights::load(&cursor.value(&name, &inline)?)?),
            "--params" => options.params = Params::load(&cursor.value(&name, &inline)?)?,
            "--hash-mb" => hash_mb = cursor.number(&name, &inline, "table size", 1..=65_536)?,
            "--max-memory-mb" => max_memory_mb = cursor.number(&name, &inline, "memory", 1..=1_048_576)?,
            "--players" => selection.strongest = cursor.number(&name, &inline, "engine count", 1..=1000)? as usize,
            "--engines" => {
                selection.engines = cursor.value(&name, &inline)?.split(',').map(|s| s.trim().to_string()).collect();
            }
            "--min-ms" => selection.min_ms = cursor.number(&name, &inline, "time", 0..=u64::from(u32::MAX))? as u32,
            "--split" => selection.split = Split::parse(&cursor.value(&name, &inline)?)?,
            "--sample" => a.sample = Some(cursor.number(&name, &inline, "position count", 1..=u64::MAX)? as usize),
            "--concurrency" => a.concurrency = cursor.number(&name, &inline, "thread count", 1..=256)? as usize,
            "--shard" => a.shard = Some(Shard::parse(&cursor.value(&name, &inline)?)?),
            "--out" => a.out = Some(PathBuf::from(cursor.value(&name, &inline)?)),
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            file => a.inputs.push(PathBuf::from(file)),
        }
    }
    if a.inputs.is_empty() {
        return Err("agree needs Gomocup games: .psq files or folders of them".to_string());
    }
    a.budget = budget.ok_or("--nodes N, --ms N or --depth D: what each search may spend")?;
    if engine.is_some() && matches!(a.budget, Budget::Depth(_)) {
        return Err(
            "--depth is for Tengen in this process: an engine through the protocol takes --nodes or --ms".into()
        );
    }
    a.selection = selection;
    a.measured = match engine {
        Some(command) => Measured::Outside(Outside { command, max_memory: max_memory_mb << 20, tolerance_ms: 1000 }),
        None => Measured::Tengen(Box::new(Tengen { options, table_bytes: (hash_mb as usize) << 20 })),
    };
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn options_are_read_and_mistakes_named() {
        let a = parse_agree(&args("--nodes 5000 --players 3 --min-ms 500 --split learn --sample 40 --shard 2/3 g"))
            .expect("valid");
        assert_eq!(a.budget, Budget::Nodes(5000));
        assert_eq!((a.selection.strongest, a.selection.min_ms, a.selection.split), (3, 500, Some(Split::Learn)));
        assert_eq!((a.sample, a.shard), (Some(40), Some(Shard { index: 2, count: 3 })));
        assert!(matches!(a.measured, Measured::Tengen(_)));
        let o = parse_agree(&args("--ms 500 --engine ./pz --engines A,B g")).expect("valid");
        assert!(matches!(o.measured, Measured::Outside(ref e) if e.command == "./pz"));
        assert_eq!(o.selection.engines, ["A", "B"]);
        assert!(parse_agree(&args("g")).unwrap_err().contains("--nodes"));
        assert!(parse_agree(&args("--nodes 5")).unwrap_err().contains("Gomocup games"));
        assert!(parse_agree(&args("--nodes 0 g")).is_err());
        assert!(parse_agree(&args("--nodes 5 --split some g")).unwrap_err().contains("split"));
        assert_eq!(parse_agree(&args("--depth 3 g")).expect("valid").budget, Budget::Depth(3));
        assert!(parse_agree(&args("--depth 3 --engine ./pz g")).unwrap_err().contains("in this process"));
        assert!(parse_agree(&args("--depth 0 g")).is_err());
        assert!(parse_agree(&args("--nodes 5 --bogus g")).unwrap_err().contains("--bogus"));
    }
}
