//! The protocol's command-line presets: the options that start the protocol with a weakened or otherwise set engine
//! (`pbrain-tengen --max-depth 2`), checked on the command line and applied when START creates the engine.

/// The protocol's command-line presets: `--max-depth N`, `--max-nodes N`, `--threads N`, `--hash-mb N`,
/// `--no-threats`, `--say-score` (a score line before each move), `--weights FILE` (evaluation and ordering tables
/// other than the embedded ones). They become settings applied when START creates the engine.
///
/// # Errors
/// A bad or unknown option.
pub fn protocol_presets(args: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut presets = Vec::new();
    let mut cursor = super::OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = |what: &str| cursor.number(&name, &inline, what, 0..=u64::MAX);
        let (key, v) = match name.as_str() {
            "--max-depth" => ("max_depth", value("depth")?),
            "--max-nodes" => ("max_node", value("node count")?),
            "--threads" => ("thread_num", value("thread count")?),
            "--hash-mb" => ("hash_size", value("size")?.saturating_mul(1024)),
            "--no-threats" if inline.is_none() => (crate::protocol::PRESET_THREATS, 0),
            "--no-book" if inline.is_none() => ("book", 0),
            "--say-score" if inline.is_none() => (crate::protocol::PRESET_SAY_SCORE, 1),
            "--book" => {
                let path = cursor.value(&name, &inline)?;
                if path == "builtin" {
                    presets.push(("book".to_string(), "1".to_string()));
                    continue;
                }
                crate::book::Book::load_cached(&path)?;
                presets.push((crate::protocol::PRESET_BOOK.to_string(), path));
                continue;
            }
            "--eval" => {
                let word = cursor.value(&name, &inline)?;
                word.parse::<crate::eval::EvalChoice>()?;
                presets.push(("evaluation".to_string(), word));
                continue;
            }
            "--network" => {
                let path = cursor.value(&name, &inline)?;
                crate::eval::EvalChoice::load(&path)?;
                presets.push((crate::protocol::PRESET_NETWORK.to_string(), path));
                continue;
            }
            "--params" => {
                let path = cursor.value(&name, &inline)?;
                crate::search::params::Params::load(&path)?;
                presets.push((crate::protocol::PRESET_PARAMS.to_string(), path));
                continue;
            }
            "--weights" => {
                let path = cursor.value(&name, &inline)?;
                // Read now, so that a bad file is an error on the command line rather than at START.
                crate::eval::Weights::load_cached(&path)?;
                presets.push((crate::protocol::PRESET_WEIGHTS.to_string(), path));
                continue;
            }
            other => return Err(format!("unknown option '{other}'")),
        };
        presets.push((key.to_string(), v.to_string()));
    }
    Ok(presets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_become_settings() {
        let args = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let p = protocol_presets(&args("--max-depth 3 --no-threats")).expect("valid");
        assert_eq!(
            p,
            vec![("max_depth".to_string(), "3".to_string()), ("tengen_threats".to_string(), "0".to_string())]
        );
        assert!(protocol_presets(&args("--max-depth")).is_err());
        assert!(protocol_presets(&args("--wat")).is_err());
        let p = protocol_presets(&args("--say-score")).expect("valid");
        assert_eq!(p, vec![(crate::protocol::PRESET_SAY_SCORE.to_string(), "1".to_string())]);
        assert!(protocol_presets(&args("--say-score=1")).is_err());
        let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/data/weights.txt");
        let p = protocol_presets(&args(&format!("--weights {weights} --threads 2"))).expect("valid");
        assert_eq!(p[0], (crate::protocol::PRESET_WEIGHTS.to_string(), weights.to_string()));
        assert_eq!(p[1], ("thread_num".to_string(), "2".to_string()));
        let e = protocol_presets(&args("--weights /no/such/file")).expect_err("a missing file");
        assert!(e.contains("/no/such/file"), "{e}");
    }
}
