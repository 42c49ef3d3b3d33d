//! The options of `match` read into a match configuration (the openings from a file, the 26, or random ones
//! generated here): the reader of `match`, and of the gauntlet for each of its matches, so that the two cannot
//! disagree.

use super::options::{number, parse_size};
use crate::engine::opening_scorer;
use crate::matches::{self, EngineSpec, MatchConfig, Sprt};
use crate::openings::{GenOptions, read_openings_skipping, renju_openings, symmetric_images, unseen_random_openings};
use crate::problems::Problems;
use crate::types::Pos;
use std::io::Write;
use std::path::PathBuf;

/// Parses the options of `match` into a configuration; the random openings are generated here.
pub(super) fn parse_match(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Result<MatchConfig, String> {
    let mut config = MatchConfig::new(Vec::new());
    let (mut openings_file, mut symmetries, mut draw_at) = (None::<String>, false, None::<usize>);
    let mut random = None::<usize>;
    let mut generator = GenOptions::default();
    let mut unseen_in = Vec::new();
    let mut cursor = super::OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&name, &inline);
        match name.as_str() {
            "--engine" => {
                let command = value()?;
                if command.trim().is_empty() {
                    return Err("--engine needs a command".to_string());
                }
                let letter = (b'A' + (config.engines.len() % 26) as u8) as char;
                config.engines.push(EngineSpec { name: letter.to_string(), command });
            }
            "--name" => {
                let v = value()?;
                match config.engines.last_mut() {
                    Some(e) => e.name = v,
                    None => return Err("--name names the --engine before it".to_string()),
                }
            }
            "--rule" => config.rule = value()?.parse()?,
            "--size" => config.size = parse_size(&value()?)?,
            "--games" => config.games = number(&value()?, "game count")?,
            "--turn-ms" => config.turn_ms = number(&value()?, "time")?,
            "--match-ms" => config.match_ms = number(&value()?, "time")?,
            "--tolerance-ms" => config.tolerance_ms = number(&value()?, "time")?,
            "--max-memory" => config.max_memory = number(&value()?, "memory limit")?,
            "--draw-at" => draw_at = Some(number(&value()?, "stone count")?),
            "--openings" => openings_file = Some(value()?),
            "--symmetries" if inline.is_none() => symmetries = true,
            "--random-openings" => random = Some(number(&value()?, "opening count")?),
            "--opening-stones" => generator.stones = number(&value()?, "stone count")?,
            "--opening-depth" => {
                generator.depth = number::<i32>(&value()?, "depth")?.clamp(1, crate::search::MAX_DEPTH)
            }
            "--seed" => generator.seed = number(&value()?, "seed")?,
            "--unseen-in" => {
                unseen_in.push(PathBuf::from(value()?));
                unseen_in.extend(cursor.more_values().into_iter().map(PathBuf::from));
            }
            "--concurrency" => {
                config.concurrency = number(&value()?, "concurrency")?;
                if !(1..=64).contains(&config.concurrency) {
                    return Err("--concurrency takes 1 to 64".to_string());
                }
            }
            "--sgf" => config.sgf_dir = Some(PathBuf::from(value()?)),
            "--sprt" => config.sprt = Some(Sprt::parse(&value()?)?),
            "--no-suspend" if inline.is_none() => config.suspend = false,
            "--processes" => {
                let word = value()?;
                config.keep_processes = matches::keeps_processes(&word)
                    .ok_or_else(|| format!("--processes is fresh or kept, not '{word}'"))?;
            }
            "--opening-rule" => config.opening_rule = Some(value()?.parse()?),
            "--shard" => config.shard = Some(matches::Shard::parse(&value()?)?),
            "--results" => config.results = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if config.engines.len() < 2 {
        return Err("a match needs two --engine commands at least".to_string());
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return Err("--sprt needs exactly two engines".to_string());
    }
    if config.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    if let Some(rule) = config.opening_rule {
        // The renju rules are played under renju; Swap2 under the rule given.
        config.rule = rule.game_rule(config.rule);
    }
    if random.is_none() && !unseen_in.is_empty() {
        return Err("--unseen-in goes with --random-openings".to_string());
    }
    config.draw_at = draw_at.unwrap_or_else(|| matches::default_draw_at(config.rule, config.size));
    config.openings = if let Some(path) = openings_file {
        read_openings_skipping(&path, config.size, config.rule, p)?
    } else if let Some(count) = random {
        generator.rule = config.rule;
        generator.size = config.size;
        generator.count = count;
        if generator.stones == 0 || generator.stones > 12 {
            return Err("--opening-stones takes 1 to 12".to_string());
        }
        let (found, refused) = unseen_random_openings(&generator, &unseen_in, &mut opening_scorer(&generator), p)?;
        let list: Vec<Vec<Pos>> = found.into_iter().map(|(m, _)| m).collect();
        let _ = write!(
            out,
            "generated {} random openings of {} stones (seed {})",
            list.len(),
            generator.stones,
            generator.seed
        );
        if !unseen_in.is_empty() {
            let _ = write!(out, ", {refused} drawn and left out as games of the files given started from them");
        }
        let _ = writeln!(out);
        list
    } else {
        renju_openings(config.size, config.rule)
    };
    if symmetries {
        config.openings = config.openings.iter().flat_map(|o| symmetric_images(o, config.size)).collect();
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::opening_key;
    use crate::types::Rule;

    #[test]
    fn match_options_parse_and_bad_ones_are_named() {
        let args = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let (mut sink, mut none) = (Vec::new(), std::io::sink());
        let p = &mut Problems::new(&mut none);
        let c = parse_match(
            &args("--engine a --name new --engine b --games 10 --rule standard --sprt 0,5 --concurrency 2"),
            &mut sink,
            p,
        )
        .expect("valid");
        assert_eq!(c.engines[0].name, "new");
        assert_eq!(c.engines[1].name, "B");
        assert_eq!((c.games, c.rule, c.concurrency, c.draw_at), (10, Rule::Standard, 2, 225));
        assert_eq!(c.openings.len(), 26);
        let r = parse_match(&args("--engine a --engine b"), &mut sink, p).expect("valid");
        assert_eq!(r.draw_at, 200);
        let s = parse_match(&args("--engine a --engine b --symmetries"), &mut sink, p).expect("valid");
        assert!(s.openings.len() > 26 * 4);
        assert!(parse_match(&args("--engine a"), &mut sink, p).unwrap_err().contains("two"));
        assert!(parse_match(&args("--engine a --engine b --bogus"), &mut sink, p).unwrap_err().contains("--bogus"));
        assert!(parse_match(&args("--engine a --engine b --games x"), &mut sink, p).is_err());
        assert!(parse_match(&args("--engine a --engine b --engine c --sprt 0,5"), &mut sink, p).is_err());
        assert!(parse_match(&args("--engine a --engine b --openings /nonexistent"), &mut sink, p).is_err());
        let f = parse_match(&args("--engine a --engine b --size 20 --rule freestyle"), &mut sink, p).expect("valid");
        assert_eq!(f.openings[0][0], Pos::new(10, 10));
    }

    #[test]
    fn random_openings_leave_out_those_games_started_from() {
        use crate::records::{GameRecord, Outcome, create_game_file, write_game};
        let args = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let (mut sink, mut none) = (Vec::new(), std::io::sink());
        let p = &mut Problems::new(&mut none);
        let random = "--random-openings 4 --opening-depth 2 --seed 7";
        let all = parse_match(&args(&format!("--engine a --engine b {random}")), &mut sink, p).expect("valid").openings;
        // A game file with one game, from the second opening.
        let path = std::env::temp_dir().join(format!("tengen-unseen-match-{}.tgr", std::process::id()));
        let game = GameRecord {
            rule: Rule::Renju,
            size: 15,
            outcome: Outcome::Draw,
            opening: 3,
            moves: all[1].clone(),
            scores: None,
            players: None,
            best: None,
            forbidden_end: None,
        };
        let mut file = create_game_file(&path).expect("create");
        write_game(&mut file, &game).and_then(|()| std::io::Write::flush(&mut file)).expect("write");
        let e = parse_match(&args(&format!("--engine a --engine b --unseen-in {}", path.display())), &mut sink, p);
        assert!(e.unwrap_err().contains("--random-openings"));
        // Files may follow --unseen-in one after another, as a shell pattern gives them.
        let c = parse_match(
            &args(&format!("--engine a --engine b {random} --unseen-in {0} {0}", path.display())),
            &mut sink,
            p,
        )
        .expect("valid");
        assert!(!c.openings.iter().any(|o| opening_key(o, 15) == opening_key(&all[1], 15)));
        assert!(String::from_utf8_lossy(&sink).contains("left out"));
        let e = parse_match(
            &args(&format!("--engine a --engine b {random} --unseen-in {} stray", path.display())),
            &mut sink,
            p,
        );
        assert!(e.unwrap_err().contains("stray"));
        let _ = std::fs::remove_file(&path);
    }
}
