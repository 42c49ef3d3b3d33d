//! `match`, `openings` and the protocol presets: the command-line side of the match runner ([`crate::matches`]),
//! the random balanced opening generator (which needs the search, so it lives here, above the engine), and the
//! options that start the protocol with a weakened engine (`pbrain-tengen --max-depth 2`).

use crate::engine::Engine;
use crate::matches::{self, EngineSpec, MatchConfig, Sprt};
use crate::openings::{
    check_opening, format_opening, opening_key, parse_openings, renju_openings, same_opening, symmetric_images,
};
use crate::search::time::Clock;
use crate::types::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::PathBuf;

/// Options of the opening generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// The rule the openings are judged under.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// How many openings.
    pub count: usize,
    /// Stones per opening.
    pub stones: usize,
    /// The depth of the search that scores them.
    pub depth: i32,
    /// The largest score (for the side to move) kept.
    pub max_score: i32,
    /// Random seed.
    pub seed: u64,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions { rule: Rule::Renju, size: 15, count: 20, stones: 3, depth: 6, max_score: 150, seed: 1 }
    }
}

/// Random openings of `stones` stones within three points of the centre (the first on the centre in renju), kept
/// when they are legal, nobody has a four or a five to play, no earlier opening is a symmetric image of them, and a
/// search of `depth` plies scores them within `max_score` for the side to move. Returns each with its score; fewer
/// than `count` when too many tries fail.
#[must_use]
pub fn random_openings(opts: &GenOptions) -> Vec<(Vec<Pos>, i32)> {
    random_openings_where(opts, &|_| true)
}

/// [`random_openings`], keeping only the openings `keep` accepts. It is asked before the search, and the openings it
/// refuses leave the others as they were: the list is the one without `keep`, less those it refused, and longer at
/// the end to make up the count.
#[must_use]
pub fn random_openings_where(opts: &GenOptions, keep: &dyn Fn(&[Pos]) -> bool) -> Vec<(Vec<Pos>, i32)> {
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let mut found: Vec<(Vec<Pos>, i32)> = Vec::new();
    let c = opts.size / 2;
    let reach = 3.min(c);
    for _ in 0..opts.count.saturating_mul(200).max(200) {
        if found.len() >= opts.count {
            break;
        }
        let mut moves: Vec<Pos> = Vec::new();
        for i in 0..opts.stones {
            let p = if i == 0 && opts.rule == Rule::Renju {
                Pos::new(c, c)
            } else {
                Pos::new(c - reach + rng.random_range(0..2 * reach + 1), c - reach + rng.random_range(0..2 * reach + 1))
            };
            moves.push(p);
        }
        if check_opening(&moves, opts.size, opts.rule).is_err()
            || found.iter().any(|(f, _)| symmetric_images(f, opts.size).iter().any(|img| same_opening(img, &moves)))
            || !keep(&moves)
        {
            continue;
        }
        let Ok(mut engine) = Engine::new(opts.size, opts.rule) else { return found };
        let mut side = Color::Black;
        let mut ok = true;
        for &p in &moves {
            ok &= engine.play(p, side).is_ok();
            side = side.opponent();
        }
        // A four (or five) for either side is no opening.
        let pb = engine.board();
        if !ok || [Color::Black, Color::White].iter().any(|&k| pb.four_candidates(k).next().is_some()) {
            continue;
        }
        engine.configure(|s| {
            s.max_depth = opts.depth;
            s.search.threads = 1;
            s.clock = Clock { turn_ms: 600_000, match_ms: 0, left_ms: None };
        });
        let report = engine.think(None, |_| {});
        if report.score.abs() <= opts.max_score {
            found.push((moves, report.score));
        }
    }
    found
}

/// The openings the games of `files` (`.tgr`) started from, as [`opening_key`]s: the first `stones` moves of each
/// game of the rule and board size given (the files may hold others). Damaged records are skipped, as the trainer
/// skips them.
///
/// # Errors
/// A file that cannot be read, or no game of the rule and size in any of them.
pub fn seen_openings(
    files: &[PathBuf],
    rule: Rule,
    size: usize,
    stones: usize,
) -> Result<BTreeSet<[Vec<Pos>; 2]>, String> {
    let mut seen = BTreeSet::new();
    let mut games = 0;
    for file in crate::records::read_game_files(files) {
        for g in file?.data.games.iter().filter(|g| g.rule == rule && g.size == size) {
            games += 1;
            if g.moves.len() >= stones {
                seen.insert(opening_key(&g.moves[..stones], size));
            }
        }
    }
    if games == 0 {
        return Err(format!("no {rule} game on {size}x{size} in the files given to --unseen-in"));
    }
    Ok(seen)
}

/// Openings, each with the score the generator's search gave it.
type Scored = Vec<(Vec<Pos>, i32)>;

/// Random openings as [`random_openings`] makes them, less those the games of `unseen_in` started from; with how
/// many distinct openings were left out for that.
fn generate(opts: &GenOptions, unseen_in: &[PathBuf]) -> Result<(Scored, usize), String> {
    let seen = if unseen_in.is_empty() {
        BTreeSet::new()
    } else {
        seen_openings(unseen_in, opts.rule, opts.size, opts.stones)?
    };
    let refused = RefCell::new(BTreeSet::new());
    let keep = |m: &[Pos]| {
        let key = opening_key(m, opts.size);
        let fresh = !seen.contains(&key);
        if !fresh {
            refused.borrow_mut().insert(key);
        }
        fresh
    };
    let found = random_openings_where(opts, &keep);
    Ok((found, refused.into_inner().len()))
}

/// `openings [--rule R] [--size N] [--count N] [--stones K] [--depth D] [--max-score S] [--seed S]
/// [--unseen-in GAMES.tgr ...]`: prints random balanced openings, one per line with its score as a comment.
pub(super) fn openings_command(args: &[String], out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let mut opts = GenOptions::default();
    let mut unseen_in = Vec::new();
    let mut cursor = super::OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut value = || cursor.value(&name, &inline);
        match name.as_str() {
            "--rule" => opts.rule = value()?.parse()?,
            "--size" => opts.size = parse_size(&value()?)?,
            "--count" => opts.count = number(&value()?, "count")?,
            "--stones" => opts.stones = number(&value()?, "stone count")?,
            "--depth" => opts.depth = number::<i32>(&value()?, "depth")?.clamp(1, crate::search::MAX_DEPTH),
            "--max-score" => opts.max_score = number(&value()?, "score")?,
            "--seed" => opts.seed = number(&value()?, "seed")?,
            "--unseen-in" => {
                unseen_in.push(PathBuf::from(value()?));
                unseen_in.extend(cursor.more_values().into_iter().map(PathBuf::from));
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if opts.stones == 0 || opts.stones > 12 {
        return Err("--stones takes 1 to 12".to_string());
    }
    let (found, refused) = generate(&opts, &unseen_in)?;
    Ok((|| {
        for (moves, score) in found {
            writeln!(out, "{} # score {score:+} at depth {}", format_opening(&moves, opts.size), opts.depth)?;
        }
        if !unseen_in.is_empty() {
            writeln!(
                out,
                "# {refused} openings drawn and left out before their search: games of the files given started from them"
            )?;
        }
        out.flush()
    })())
}

fn number<T: std::str::FromStr>(v: &str, what: &str) -> Result<T, String> {
    v.trim().parse().map_err(|_| format!("bad {what} '{v}'"))
}

fn parse_size(v: &str) -> Result<usize, String> {
    let size: usize = number(v, "board size")?;
    if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
        return Err(format!("board size {size} is not supported (use 5 to 22)"));
    }
    Ok(size)
}

/// Parses the options of `match` into a configuration; the random openings are generated here.
pub(super) fn parse_match(args: &[String], out: &mut dyn Write) -> Result<MatchConfig, String> {
    let mut config = MatchConfig::new(Vec::new());
    let (mut openings_file, mut symmetries, mut draw_at) = (None::<PathBuf>, false, None::<usize>);
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
            "--openings" => openings_file = Some(PathBuf::from(value()?)),
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
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut list = Vec::new();
        for (line, parsed) in parse_openings(&text, config.size, config.rule) {
            match parsed {
                Ok(moves) => list.push(moves),
                Err(e) => {
                    let _ = writeln!(out, "error: {} line {line}: {e} (skipped)", path.display());
                }
            }
        }
        if list.is_empty() {
            return Err(format!("no usable opening in {}", path.display()));
        }
        list
    } else if let Some(count) = random {
        generator.rule = config.rule;
        generator.size = config.size;
        generator.count = count;
        if generator.stones == 0 || generator.stones > 12 {
            return Err("--opening-stones takes 1 to 12".to_string());
        }
        let (found, refused) = generate(&generator, &unseen_in)?;
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

/// `match`: runs a match and prints its games and results.
pub(super) fn match_command(args: &[String], out: &mut dyn Write) -> Result<io::Result<()>, String> {
    let config = parse_match(args, out)?;
    Ok(matches::run(&config, out).map(|_| ()))
}

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
    fn match_options_parse_and_bad_ones_are_named() {
        let args = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let mut sink = Vec::new();
        let c = parse_match(
            &args("--engine a --name new --engine b --games 10 --rule standard --sprt 0,5 --concurrency 2"),
            &mut sink,
        )
        .expect("valid");
        assert_eq!(c.engines[0].name, "new");
        assert_eq!(c.engines[1].name, "B");
        assert_eq!((c.games, c.rule, c.concurrency, c.draw_at), (10, Rule::Standard, 2, 225));
        assert_eq!(c.openings.len(), 26);
        let r = parse_match(&args("--engine a --engine b"), &mut sink).expect("valid");
        assert_eq!(r.draw_at, 200);
        let s = parse_match(&args("--engine a --engine b --symmetries"), &mut sink).expect("valid");
        assert!(s.openings.len() > 26 * 4);
        assert!(parse_match(&args("--engine a"), &mut sink).unwrap_err().contains("two"));
        assert!(parse_match(&args("--engine a --engine b --bogus"), &mut sink).unwrap_err().contains("--bogus"));
        assert!(parse_match(&args("--engine a --engine b --games x"), &mut sink).is_err());
        assert!(parse_match(&args("--engine a --engine b --engine c --sprt 0,5"), &mut sink).is_err());
        assert!(parse_match(&args("--engine a --engine b --openings /nonexistent"), &mut sink).is_err());
        let f = parse_match(&args("--engine a --engine b --size 20 --rule freestyle"), &mut sink).expect("valid");
        assert_eq!(f.openings[0][0], Pos::new(10, 10));
    }

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

    #[test]
    fn generated_openings_are_legal_distinct_and_balanced() {
        let opts = GenOptions { count: 3, depth: 2, max_score: 400, ..GenOptions::default() };
        let found = random_openings(&opts);
        assert_eq!(found.len(), 3);
        for (i, (m, score)) in found.iter().enumerate() {
            assert_eq!(m.len(), 3);
            assert!(check_opening(m, 15, Rule::Renju).is_ok());
            assert!(score.abs() <= 400);
            for (other, _) in &found[i + 1..] {
                assert!(!same_opening(m, other));
            }
        }
        assert_eq!(found, random_openings(&opts), "the seed fixes the openings");
    }

    #[test]
    fn openings_that_games_started_from_are_left_out_and_the_rest_keep_their_order() {
        use crate::records::{GameRecord, Outcome, write_game, write_header};
        let opts = GenOptions { count: 5, depth: 2, max_score: 400, seed: 7, ..GenOptions::default() };
        let all: Vec<Vec<Pos>> = random_openings(&opts).into_iter().map(|(m, _)| m).collect();
        assert_eq!(all.len(), 5);
        // A game that started from the second opening, mirrored and with Black's stones in another order, and a
        // freestyle game from the third, which a renju generator does not count.
        let mut mirrored: Vec<Pos> = all[1].iter().map(|p| p.transform(15, 5)).collect();
        mirrored.swap(0, 2);
        mirrored.extend([Pos::new(0, 0), Pos::new(14, 14)]);
        let game = |rule, moves: &Vec<Pos>| GameRecord {
            rule,
            size: 15,
            outcome: Outcome::Draw,
            opening: 3,
            moves: moves.clone(),
            scores: None,
            players: None,
            best: None,
            forbidden_end: None,
        };
        let mut bytes = Vec::new();
        write_header(&mut bytes).expect("header");
        write_game(&mut bytes, &game(Rule::Renju, &mirrored)).expect("game");
        write_game(&mut bytes, &game(Rule::Freestyle, &all[2])).expect("game");
        let path = std::env::temp_dir().join(format!("tengen-unseen-{}.tgr", std::process::id()));
        std::fs::write(&path, &bytes).expect("write");

        let seen = seen_openings(std::slice::from_ref(&path), Rule::Renju, 15, 3).expect("read");
        assert_eq!(seen.len(), 1);
        assert!(seen.contains(&opening_key(&all[1], 15)));
        let (kept, refused) = generate(&GenOptions { count: 4, ..opts }, std::slice::from_ref(&path)).expect("made");
        let kept: Vec<Vec<Pos>> = kept.into_iter().map(|(m, _)| m).collect();
        assert_eq!(kept, [&all[0], &all[2], &all[3], &all[4]].map(Clone::clone).to_vec());
        assert_eq!(refused, 1, "one opening was seen");
        // Without a file nothing is left out; a file with no game of the rule is an error, and so is the option
        // where no openings are generated.
        assert_eq!(generate(&opts, &[]).expect("made").1, 0);
        assert!(seen_openings(std::slice::from_ref(&path), Rule::Standard, 15, 3).unwrap_err().contains("standard"));
        assert!(seen_openings(&[PathBuf::from("/no/such.tgr")], Rule::Renju, 15, 3).is_err());
        let args = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let mut sink = Vec::new();
        let e = parse_match(&args(&format!("--engine a --engine b --unseen-in {}", path.display())), &mut sink);
        assert!(e.unwrap_err().contains("--random-openings"));
        // Files may follow --unseen-in one after another, as a shell pattern gives them.
        let random = "--random-openings 4 --opening-depth 2 --seed 7";
        let c = parse_match(
            &args(&format!("--engine a --engine b {random} --unseen-in {0} {0}", path.display())),
            &mut sink,
        )
        .expect("valid");
        assert!(!c.openings.iter().any(|o| opening_key(o, 15) == opening_key(&all[1], 15)));
        assert!(String::from_utf8_lossy(&sink).contains("left out"));
        let e = parse_match(
            &args(&format!("--engine a --engine b {random} --unseen-in {} stray", path.display())),
            &mut sink,
        );
        assert!(e.unwrap_err().contains("stray"));
        let _ = std::fs::remove_file(&path);
    }
}
