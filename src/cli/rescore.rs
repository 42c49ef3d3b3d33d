//! `rescore`: its options read into a rescoring run ([`crate::tune::rescore`]), which re-scores the games by deeper
//! searches and writes them.

use crate::matches::Shard;
use crate::tune::rescore::Rescore;
use std::path::PathBuf;

/// Parses `rescore --nodes N --out FILE [--every K] [--concurrency K] [--shard I/N] [--engines A,B] FILE…`.
pub(super) fn parse_rescore(args: &[String]) -> Result<Rescore, String> {
    let mut r = Rescore {
        nodes: 200_000,
        every: 1,
        concurrency: 1,
        shard: None,
        engines: Vec::new(),
        out: PathBuf::new(),
        inputs: Vec::new(),
    };
    let mut out = None;
    let mut cursor = super::OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        match name.as_str() {
            "--nodes" => r.nodes = cursor.number(&name, &inline, "node count", 1..=u64::MAX)?,
            "--every" => r.every = cursor.number(&name, &inline, "step", 1..=1000)? as usize,
            "--concurrency" => r.concurrency = cursor.number(&name, &inline, "thread count", 1..=256)? as usize,
            "--shard" => r.shard = Some(Shard::parse(&cursor.value(&name, &inline)?)?),
            "--out" => out = Some(PathBuf::from(cursor.value(&name, &inline)?)),
            "--engines" => {
                let names = cursor.value(&name, &inline)?;
                r.engines = names.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
                if r.engines.is_empty() {
                    return Err("--engines needs engine names, separated by commas".to_string());
                }
            }
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            file => r.inputs.push(PathBuf::from(file)),
        }
    }
    r.out = out.ok_or("--out FILE names the game file to write")?;
    if r.inputs.is_empty() {
        return Err("rescore needs game files to read (.tgr, Gomocup's .psq, or folders of them)".to_string());
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_and_mistakes_named() {
        let args = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let r = parse_rescore(&args("--nodes 5000 --every 3 --concurrency 2 --shard 2/3 --out o.tgr a.tgr b.tgr"))
            .expect("valid");
        assert_eq!((r.nodes, r.every, r.concurrency), (5000, 3, 2));
        assert_eq!(r.shard, Some(Shard { index: 2, count: 3 }));
        assert_eq!(r.inputs, vec![PathBuf::from("a.tgr"), PathBuf::from("b.tgr")]);
        assert!(r.engines.is_empty());
        let r = parse_rescore(&args("--engines BARBAKAN,KATAGOMO21.F --out o.tgr d")).expect("valid");
        assert_eq!(r.engines, vec!["BARBAKAN".to_string(), "KATAGOMO21.F".to_string()]);
        assert!(parse_rescore(&args("--engines , --out o.tgr d")).unwrap_err().contains("engine names"));
        assert!(parse_rescore(&args("a.tgr")).unwrap_err().contains("--out"));
        assert!(parse_rescore(&args("--out o.tgr")).unwrap_err().contains("game files"));
        assert!(parse_rescore(&args("--out o.tgr --nodes 0 a.tgr")).is_err());
        assert!(parse_rescore(&args("--out o.tgr --bogus a.tgr")).unwrap_err().contains("--bogus"));
    }
}
