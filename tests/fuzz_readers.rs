//! A seeded fuzzer for the game-file readers: `.psq` records, SGF (the tree reader and the browser board's game
//! reader), RenLib libraries and Tengen's `.tgr` game files (with c-gomoku-cli's samples, read by the same call).
//! Each reader gets good files cut short, with bits flipped, bytes inserted, removed or doubled, and random
//! bytes: it must give an error or a result that holds together (every move on the board and on an empty point),
//! never panic; random bytes must be refused.
//!
//! `FUZZ_SESSIONS=N` (default 16) reads 100 × N files per reader, from `FUZZ_SEED=S` (docs/development.md,
//! "Fuzzing"); a failure names its seed and file number.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::panic::{AssertUnwindSafe, catch_unwind};
use tengen::gametree::{Tree, join_comment, renlib, sgf};
use tengen::records::{GameRecord, MAGIC, PSQ_MAGIC, read_psq, read_training, write_game, write_header};
use tengen::records::{Outcome, complete_games, game_ranges};
use tengen::types::{Pos, Rule};

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Files per reader, and the first seed.
fn run_size() -> (u64, u64) {
    (env_number("FUZZ_SESSIONS", 16) * 100, env_number("FUZZ_SEED", 0x7e46_e095))
}

/// `good` damaged in one of the ways files are: cut, bits flipped, bytes inserted, removed or doubled, a stretch
/// copied over another; or random bytes (the second value says which).
fn damaged(good: &[u8], rng: &mut StdRng) -> (Vec<u8>, bool) {
    let mut bytes = good.to_vec();
    let kind = rng.random_range(0..10);
    if kind == 0 || bytes.is_empty() {
        let len = rng.random_range(16..600);
        return ((0..len).map(|_| rng.random()).collect(), true);
    }
    for _ in 0..rng.random_range(1..5) {
        let at = rng.random_range(0..bytes.len().max(1));
        match kind {
            1 | 2 => bytes.truncate(rng.random_range(0..=bytes.len())),
            3 | 4 if !bytes.is_empty() => bytes[at] ^= 1 << rng.random_range(0..8),
            5 => bytes.insert(at.min(bytes.len()), rng.random()),
            6 if at < bytes.len() => drop(bytes.remove(at)),
            7 => {
                let end = (at + rng.random_range(1..40)).min(bytes.len());
                let copy = bytes[at.min(end)..end].to_vec();
                bytes.splice(at.min(bytes.len())..at.min(bytes.len()), copy).for_each(drop);
            }
            8 if !bytes.is_empty() => {
                let from = rng.random_range(0..bytes.len());
                let len = rng.random_range(1..16).min(bytes.len() - from).min(bytes.len() - at);
                bytes.copy_within(from..from + len, at);
            }
            _ => {
                let from = at.min(bytes.len().saturating_sub(1));
                bytes[from..].iter_mut().take(4).for_each(|b| *b = rng.random());
            }
        }
    }
    (bytes, false)
}

/// Runs `read` on `files` damaged copies of `goods`; `read` returns whether it refused the bytes.
fn fuzz(name: &str, goods: &[Vec<u8>], read: impl Fn(&[u8]) -> Result<(), String>) {
    let (files, seed) = run_size();
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut refused, mut random) = (0, 0);
    for i in 0..files {
        let (bytes, is_random) = damaged(&goods[rng.random_range(0..goods.len())], &mut rng);
        let outcome = catch_unwind(AssertUnwindSafe(|| read(&bytes)));
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned();
        match outcome {
            Err(_) => panic!("{name}, seed {seed}, file {i}: the reader panicked on {shown:?}"),
            Ok(Ok(())) if is_random => panic!("{name}, seed {seed}, file {i}: random bytes read as good: {shown:?}"),
            Ok(result) => refused += usize::from(result.is_err()),
        }
        random += usize::from(is_random);
    }
    eprintln!("{name}: {files} files from seed {seed}, {refused} refused ({random} random)");
    // The damage is real: a good share of the files is refused.
    assert!(refused * 5 >= files as usize, "{name}: only {refused} of {files} refused");
}

/// Every move on the board and on an empty point.
fn moves_hold(size: usize, moves: &[Pos]) -> Result<(), String> {
    let mut seen = std::collections::BTreeSet::new();
    for (i, p) in moves.iter().enumerate() {
        if !p.on_board(size) || !seen.insert(*p) {
            return Err(format!("move {} ({},{}) is off the {size} board or on a taken point", i + 1, p.x, p.y));
        }
    }
    Ok(())
}

/// A tree that holds together: every node's line is on the board and on empty points.
fn tree_holds(tree: &Tree) -> Result<(), String> {
    for id in 0..tree.len() {
        moves_hold(tree.size, &tree.moves(id)).map_err(|e| format!("node {id}: {e}"))?;
    }
    Ok(())
}

/// A small tree with variations, comments, marks and a board text.
fn sample_tree() -> Tree {
    let mut tree = Tree::new(15);
    let h8 = tree.play(Tree::ROOT, Pos::new(7, 7));
    let i9 = tree.play(h8, Pos::new(8, 6));
    let j10 = tree.play(i9, Pos::new(9, 5));
    tree.node_mut(j10).comment = Some(join_comment(b"Sure", Some("a win, é".as_bytes())));
    tree.node_mut(j10).mark = true;
    let g9 = tree.play(h8, Pos::new(6, 6));
    tree.node_mut(g9).start = true;
    let mut line = g9;
    for (x, y) in [(5, 5), (4, 4), (8, 8), (9, 9), (10, 3)] {
        line = tree.play(line, Pos::new(x, y));
    }
    tree.add(
        h8,
        tengen::gametree::Node { point: Some(Pos::new(3, 3)), board_text: Some(b"A".to_vec()), ..Default::default() },
    );
    tree
}

#[test]
fn damaged_psq_records_are_refused_without_a_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gomocup");
    let mut goods = Vec::new();
    for sub in ["renju-2021", "standard-2021", "freestyle-2021", "bad"] {
        for entry in std::fs::read_dir(dir.join(sub)).expect("gomocup data").flatten() {
            if entry.path().extension().is_some_and(|e| e == "psq") {
                goods.push(std::fs::read(entry.path()).expect("a record"));
            }
        }
    }
    assert!(goods.len() >= 4, "{}", goods.len());
    fuzz("psq", &goods, |bytes| {
        if !bytes.starts_with(PSQ_MAGIC) {
            return Err("not a record".to_string());
        }
        let game = read_psq(&String::from_utf8_lossy(bytes), "0_0_10_1.psq")?;
        moves_hold(game.record.size, &game.record.moves)
    });
}

#[test]
fn damaged_sgf_files_are_refused_without_a_panic() {
    let tree = sample_tree();
    let board_game = tengen::serve::sgf::write(15, Rule::Renju, &[Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 8)]);
    let goods = vec![
        sgf::write(&tree),
        board_game.into_bytes(),
        b"(;GM[4]SZ[20]RU[renju];B[jj];W[kk](;B[ll])(;B[aa]C[x]))".to_vec(),
    ];
    fuzz("sgf", &goods, |bytes| {
        // Both readers on the same bytes: the tree reader, and the browser board's reader of one game.
        let tree = sgf::read(bytes).and_then(|t| tree_holds(&t).map(|()| t));
        let game = tengen::serve::sgf::read(&String::from_utf8_lossy(bytes), Rule::Renju)
            .and_then(|(size, _, moves)| moves_hold(size, &moves));
        let _ = tengen::serve::sgf::read_moves(&String::from_utf8_lossy(bytes), 15);
        tree.map(drop).and(game)
    });
}

#[test]
fn damaged_renlib_libraries_are_refused_without_a_panic() {
    let goods = vec![renlib::write(&sample_tree()).expect("a library")];
    fuzz("renlib", &goods, |bytes| {
        // A damaged library keeps what came before the damage: that part must hold together too.
        let (tree, error) = renlib::read(bytes);
        tree_holds(&tree)?;
        error.map_or(Ok(()), |e| Err(e.to_string()))
    });
}

#[test]
fn damaged_game_files_are_refused_without_a_panic() {
    let game = |rule, moves: &[(usize, usize)], scores: bool| GameRecord {
        rule,
        size: 15,
        outcome: Outcome::BlackWins,
        opening: 3,
        moves: moves.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
        scores: scores.then(|| (0..moves.len() as i16).map(|i| i * 37 - 100).collect()),
        players: scores.then(|| ["Tengen".to_string(), "Ütter".to_string()]),
        best: scores.then(|| moves.iter().map(|&(x, y)| Some(Pos::new(y, x))).collect()),
        forbidden_end: None,
    };
    let line = [(7, 7), (8, 8), (7, 8), (8, 7), (7, 9), (7, 6), (7, 10), (7, 11), (7, 5)];
    let mut file = Vec::new();
    write_header(&mut file).expect("header");
    write_game(&mut file, &game(Rule::Renju, &line, true)).expect("game");
    write_game(&mut file, &game(Rule::Freestyle, &line[..5], false)).expect("game");
    write_game(&mut file, &game(Rule::Standard, &line[2..], true)).expect("game");
    let goods = vec![file.clone(), file[MAGIC.len()..].to_vec()];
    fuzz("tgr", &goods, |bytes| {
        let mut problems = Vec::new();
        let data = read_training(bytes, &mut |e| problems.push(e));
        for g in &data.games {
            moves_hold(g.size, &g.moves)?;
        }
        for s in &data.samples {
            moves_hold(s.size, &s.moves)?;
        }
        let strict = game_ranges(bytes);
        let _ = complete_games(bytes);
        // A file the strict reader takes whole has no bad record.
        if strict.is_ok() && !problems.is_empty() {
            return Err(format!("read whole, yet {problems:?}"));
        }
        match (data.games.is_empty() && data.samples.is_empty(), problems.first()) {
            (_, Some(problem)) => Err(problem.clone()),
            (true, None) if !bytes.is_empty() => Err("nothing read".to_string()),
            _ => Ok(()),
        }
    });
}
