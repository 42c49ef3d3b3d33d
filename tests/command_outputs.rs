//! Every subcommand run once on fixed, small inputs, its output compared byte for byte with the file written by the
//! build before a change (`tests/data/outputs/NAME.txt`): what keeps a refactor honest. The runs use fixed depths,
//! node counts and seeds, so that what they print does not depend on the machine; the few figures that do (times,
//! nodes a second, the peak memory, the commit) are masked by [`normalise`], case by case, and nothing else.
//!
//! The cases run one after another in one scratch folder, with short relative file names (so that no path of this
//! checkout is printed), and later cases read what earlier ones wrote (the self-play games are tuned on, the
//! rescored games train the policy). Each golden file holds the command line, its exit code, its standard output,
//! its standard error after a `-- stderr` line (where it wrote any: errors and warnings go there, never among the
//! data), and for every file the command wrote, its size and an FNV-1a hash of its bytes.
//!
//! After a change that is meant to change what a command prints, write the files again from the new build and
//! read the difference before committing it:
//!
//! ```sh
//! TENGEN_WRITE_OUTPUTS=1 cargo test --test command_outputs
//! ```
//!
//! Covered: `help`, `version`, `forbid`, `solve` (VCF and VCT), `bench`, `analyze` (a position and `--file`),
//! `selfplay` (varied openings, random plies, a game file), `openings` (with `--unseen-in`), `rescore`,
//! `positions`, `tune`, `train` (the network and `--policy`), `spsa`, `match` and `gauntlet` (scripted engines,
//! `puppet`, as opponents; a match from random openings), `merge` (results shards, `--by-opening`, `--paired`,
//! `--runs`, `--sgf`, game files), `lib`, `book` (`show`, `learn`, `reached`, `build`), `puppet`, `play` (up to
//! the first move), `serve` (its option errors only: it serves until stopped), the protocol's presets, and some
//! errors (a damaged record beside a good file, an output that is a folder, a collection with no game).
#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

/// Figures that vary from run to run, masked where a case names them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mask {
    /// A number before ` ms` (answer and search times).
    Ms,
    /// A number before ` s` (elapsed seconds).
    Secs,
    /// A number before ` nps`.
    Nps,
    /// What follows `peak resident ` (the process's memory).
    Peak,
    /// The commit in `(commit …)`.
    Commit,
}

/// One run of the binary.
struct Case {
    /// The golden file's name.
    name: &'static str,
    /// The arguments (`{BIN}` is replaced by the binary's path, for engine commands).
    args: Vec<String>,
    /// What it reads on stdin.
    input: String,
    /// What it masks.
    masks: &'static [Mask],
    /// The files it writes, compared by size and hash.
    files: &'static [&'static str],
}

fn case(name: &'static str, args: &str, masks: &'static [Mask], files: &'static [&'static str]) -> Case {
    Case { name, args: args.split_whitespace().map(str::to_string).collect(), input: String::new(), masks, files }
}

fn with_input(mut c: Case, input: &str) -> Case {
    c.input = input.to_string();
    c
}

/// `c` with the arguments `words` after its own.
fn more(mut c: Case, words: &str) -> Case {
    c.args.extend(words.split_whitespace().map(str::to_string));
    c
}

/// An engine command of this binary, as one argument.
fn engine(c: Case, option: &str, command: &str) -> Case {
    let mut c = c;
    c.args.push(option.to_string());
    c.args.push(format!("'{BIN}' {command}"));
    c
}

/// `text` with the figures of `masks` replaced by `#`.
fn normalise(text: &str, masks: &[Mask]) -> String {
    let mut units: Vec<&str> = Vec::new();
    if masks.contains(&Mask::Ms) {
        units.push(" ms");
    }
    if masks.contains(&Mask::Secs) {
        units.push(" s");
    }
    if masks.contains(&Mask::Nps) {
        units.push(" nps");
    }
    let mut lines = Vec::new();
    for line in text.split('\n') {
        let mut line = mask_numbers(line, &units);
        if masks.contains(&Mask::Peak)
            && let Some(at) = line.find("peak resident ")
        {
            line.truncate(at + "peak resident ".len());
            line.push('#');
        }
        if masks.contains(&Mask::Commit)
            && let Some(at) = line.find("(commit ")
            && let Some(end) = line[at..].find(')')
        {
            line.replace_range(at + "(commit ".len()..at + end, "#");
        }
        lines.push(line);
    }
    lines.join("\n")
}

/// Every number (digits, with a decimal point inside) directly followed by one of `units` and then by no letter or
/// digit, replaced by `#`.
fn mask_numbers(line: &str, units: &[&str]) -> String {
    let bytes = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts_number = bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
        if starts_number {
            let mut end = i;
            while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b'.') {
                end += 1;
            }
            let rest = &line[end..];
            let unit = units.iter().find(|u| {
                rest.starts_with(**u) && !rest[u.len()..].chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
            });
            if unit.is_some() {
                out.push('#');
            } else {
                out.push_str(&line[i..end]);
            }
            i = end;
            continue;
        }
        let c = line[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// FNV-1a, 64 bits: enough to tell two files apart.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// What a case printed and wrote, as its golden file holds it.
fn run(c: &Case, dir: &Path) -> String {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .args(&c.args)
        .current_dir(dir)
        .env_remove("GAUNTLET")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = c.input.clone();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("output");
    let _ = writer.join();
    let shown: Vec<String> = c.args.iter().map(|a| a.replace(BIN, "BIN")).collect();
    let mut text = format!("$ pbrain-tengen {}\nexit {}\n", shown.join(" "), out.status.code().unwrap_or(-1));
    text += &normalise(&String::from_utf8_lossy(&out.stdout), c.masks);
    if !out.stderr.is_empty() {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text += "-- stderr\n";
        text += &normalise(&String::from_utf8_lossy(&out.stderr), c.masks);
    }
    for file in c.files {
        match std::fs::read(dir.join(file)) {
            Ok(bytes) => text += &format!("\n== {file}: {} bytes, fnv1a64 {:016x}", bytes.len(), fnv(&bytes)),
            Err(_) => text += &format!("\n== {file}: not written"),
        }
    }
    text + "\n"
}

/// An executable script in `dir` that runs a puppet with `script`.
fn script(dir: &Path, file: &str, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(file);
    std::fs::write(&path, format!("#!/bin/sh\nexec '{BIN}' puppet {script}\n")).expect("write engine");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The inputs: a small game file, position lines, openings, results files, an SGF, a book and opponents.
fn inputs(dir: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let copy = |from: &str, to: &str| {
        std::fs::copy(root.join(from), dir.join(to)).unwrap_or_else(|e| panic!("{from}: {e}"));
    };
    copy("data/games/gauntlet-9d5f528-mintaka-renju.tgr", "games.tgr");
    copy("data/book/renju.book", "renju.book");
    copy("tests/data/gomocup/bad/renju-2020-5_8_4_2.psq", "bad.psq");
    std::fs::write(dir.join("empty.sgf"), "").expect("write");
    let matches = "data/matches/";
    copy(&format!("{matches}gauntlet-9d5f528-pentazen-renju-5s.shard1-2.results"), "shard1.results");
    copy(&format!("{matches}gauntlet-9d5f528-pentazen-renju-5s.shard2-2.results"), "shard2.results");
    copy(&format!("{matches}gauntlet-1769193-nobook-pentazen-renju-0.5s-fresh.results"), "fresh.results");
    copy(&format!("{matches}gauntlet-1769193-nobook-pentazen-renju-0.5s-kept.results"), "kept.results");
    copy(&format!("{matches}gauntlet-7aebc77-pentazen-renju-0.5s-lent.results"), "lent.results");
    copy(&format!("{matches}gauntlet-7aebc77-pentazen-renju-0.5s-local.results"), "local.results");
    copy(&format!("{matches}c-gomoku-cli/efd242e-pentazen-renju-0.5s.sgf"), "runner.sgf");
    let lines = |from: &str, n: usize| -> String {
        let text = std::fs::read_to_string(root.join(from)).expect("test data");
        text.lines().filter(|l| !l.starts_with('#')).take(n).map(|l| format!("{l}\n")).collect()
    };
    std::fs::write(dir.join("forbid.tsv"), lines("tests/data/referee_fuzz_2000.tsv", 20) + "bad line\nH8,Z1\tH9\n")
        .expect("write");
    std::fs::write(dir.join("vcf.tsv"), lines("tests/data/lfz084_puzzles.tsv", 12)).expect("write");
    let won: String = lines("tests/data/won-renju-sample.tsv", 4)
        .lines()
        .map(|l| l.split('\t').take(3).collect::<Vec<_>>().join("\t") + "\n")
        .collect();
    std::fs::write(dir.join("won.tsv"), won).expect("write");
    std::fs::write(dir.join("openings.txt"), "b2 f3 c2 f4 d2 f5 e2 f6\n").expect("write");
    std::fs::write(dir.join("tree.sgf"), "(;FF[4]GM[4]SZ[15];B[hh];W[hi](;B[ij]C[main line])(;B[gj]C[other]))\n")
        .expect("write");
    let engines = dir.join("engines");
    std::fs::create_dir_all(&engines).expect("dir");
    script(&engines, "pbrain-weak", "a15 a13 a11");
    script(&engines, "pbrain-strong", "f2");
}

/// Every case, in the order they run.
fn cases(dir: &Path) -> Vec<Case> {
    use Mask::*;
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect("input");
    vec![
        case("help", "help", &[], &[]),
        case("help-match", "help match", &[], &[]),
        case("version", "version", &[Commit], &[]),
        case("unknown-command", "frobnicate", &[], &[]),
        case("unknown-option", "forbid --bogus", &[], &[]),
        with_input(case("forbid", "forbid --jobs 2", &[], &[]), &read("forbid.tsv")),
        with_input(case("solve-vcf", "solve --summary --jobs 2", &[], &[]), &read("vcf.tsv")),
        with_input(case("solve-vct", "solve --vct --nodes 3000 --summary --jobs 1", &[], &[]), &read("vcf.tsv")),
        case("bench", "bench", &[Nps], &[]),
        case("bench-depth", "bench 3", &[Nps], &[]),
        case("analyze", "analyze --depth 4 h8 a1 i8 a2 j8", &[Ms], &[]),
        case("analyze-raw", "analyze --depth 3 --raw --rule freestyle h8 i9", &[Ms], &[]),
        case("analyze-file", "analyze --file won.tsv --depth 3 --ms 5000 --jobs 2", &[], &[]),
        case(
            "selfplay",
            "selfplay --nodes 100 --games 4 --seed 3 --openings varied --random-plies 2 --record selfplay.tgr",
            &[Ms, Peak],
            &["selfplay.tgr"],
        ),
        case("selfplay-renju26", "selfplay --nodes 200 --games 2 --draw-at 30", &[Ms, Peak], &[]),
        case("openings", "openings --count 3 --depth 2", &[], &[]),
        case("openings-unseen", "openings --count 3 --depth 2 --seed 4 --unseen-in selfplay.tgr games.tgr", &[], &[]),
        case("positions", "positions --every 7 games.tgr", &[], &[]),
        case("positions-bad", "positions --every 7 bad.psq games.tgr", &[], &[]),
        case(
            "rescore",
            "rescore --nodes 1000 --every 3 --shard 1/8 --out rescored.tgr games.tgr",
            &[Secs],
            &["rescored.tgr"],
        ),
        case("rescore-missing", "rescore --out none.tgr missing.tgr", &[], &[]),
        case("rescore-into-folder", "rescore --nodes 100 --out engines games.tgr", &[], &[]),
        case("tune", "tune --epochs 1 --out weights.txt games.tgr selfplay.tgr missing.tgr", &[Secs], &["weights.txt"]),
        case(
            "train",
            "train --epochs 1 --head-epochs 1 --out network.txt games.tgr:2 selfplay.tgr",
            &[Secs],
            &["network.txt"],
        ),
        case("train-policy", "train --policy --epochs 1 --out policy.txt rescored.tgr", &[Secs], &["policy.txt"]),
        case(
            "spsa",
            "spsa --state spsa.txt --nodes 100 --iterations 2 --batch 2 --seed 5 --eval classical",
            &[Secs],
            &["spsa.txt"],
        ),
        more(
            engine(
                more(
                    engine(
                        case("match", "match --games 2 --openings openings.txt --turn-ms 2000", &[Ms, Secs], &[]),
                        "--engine",
                        "puppet f2",
                    ),
                    "--name p",
                ),
                "--engine",
                "puppet a15 a13 a11",
            ),
            "--name q --concurrency 1",
        ),
        engine(
            engine(
                case(
                    "match-random",
                    "match --games 2 --random-openings 2 --opening-depth 2 --seed 3 --turn-ms 2000 --processes kept",
                    &[Ms, Secs],
                    &[],
                ),
                "--engine",
                "puppet a1 a3 a5",
            ),
            "--engine",
            "puppet o15 o13 o11",
        ),
        engine(
            case(
                "gauntlet",
                "gauntlet --name me --opponents engines --openings openings.txt --turn-ms 2000 --concurrency 1 --out gauntlet",
                &[Ms, Secs],
                &["gauntlet/strong-renju-kept.tgr", "gauntlet/weak-renju-kept.tgr"],
            ),
            "--engine",
            "puppet say:MESSAGE_score_25_depth_3 f2",
        ),
        case("merge", "merge shard1.results shard2.results", &[], &[]),
        case("merge-by-opening", "merge --by-opening shard1.results shard2.results", &[], &[]),
        case("merge-paired", "merge --paired fresh.results kept.results", &[], &[]),
        case("merge-runs", "merge --runs lent.results local.results", &[], &[]),
        case("merge-sgf", "merge --sgf tengen runner.sgf", &[], &[]),
        case("merge-sgf-empty", "merge --sgf tengen empty.sgf", &[], &[]),
        case("merge-games", "merge --out joined.tgr rescored.tgr selfplay.tgr", &[], &["joined.tgr"]),
        case("lib-from-sgf", "lib from-sgf tree.sgf tree.lib", &[], &["tree.lib"]),
        case("lib-dump", "lib dump tree.lib", &[], &[]),
        case("lib-to-sgf", "lib to-sgf tree.lib", &[], &[]),
        case("book-show", "book show renju.book h8 h9 j10", &[], &[]),
        case("book-learn", "book learn renju.book games.tgr selfplay.tgr", &[], &["renju.book"]),
        case("book-reached", "book reached renju.book games.tgr --min-games 2 --max-stones 9", &[], &[]),
        case("book-build", "book build --out new.book --nodes 300 --threads 1 --searches 4", &[Secs], &["new.book"]),
        with_input(
            case("puppet", "puppet h8 15,3 say:MESSAGE_hi i9", &[], &[]),
            "START 15\nINFO rule 4\nBEGIN\nTURN 1,1\nTURN 2,2\nEND\n",
        ),
        with_input(case("play", "play --ms 50", &[], &[]), "zz\nquit\n"),
        with_input(case("play-opening", "play --opening-rule rif --ms 50", &[], &[]), "h8 h9 l12\nquit\n"),
        case("serve-bad-port", "serve --port x", &[], &[]),
        with_input(case("protocol", "--max-depth 2 --no-book", &[], &[]), "ABOUT\nSTART 15\nINFO rule 4\nEND\n"),
        case("protocol-bad-option", "--max-depth", &[], &[]),
    ]
}

#[test]
fn every_command_prints_what_it_printed_before() {
    let dir = common::scratch("outputs", "commands");
    inputs(&dir);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/outputs");
    let write = std::env::var_os("TENGEN_WRITE_OUTPUTS").is_some();
    if write {
        std::fs::create_dir_all(&golden).expect("dir");
    }
    let mut differ = Vec::new();
    for c in cases(&dir) {
        let text = run(&c, &dir);
        let path: PathBuf = golden.join(format!("{}.txt", c.name));
        if write {
            std::fs::write(&path, &text).expect("write golden file");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| format!("{}: {e}\n", path.display()));
        if text != expected {
            differ.push(format!("--- {}\n{expected}+++ now\n{text}", c.name));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(differ.is_empty(), "{} commands print otherwise than before:\n{}", differ.len(), differ.join("\n"));
}

#[test]
fn the_normaliser_masks_only_the_figures_named() {
    let line = "game 1/2: 3 moves, 0.0 s / 1.5 s, slowest 12 ms, 40 stones, 7 searches, 3000 nodes 51234 nps";
    assert_eq!(
        normalise(line, &[Mask::Ms, Mask::Secs, Mask::Nps]),
        "game 1/2: 3 moves, # s / # s, slowest # ms, 40 stones, 7 searches, 3000 nodes # nps"
    );
    assert_eq!(normalise(line, &[]), line);
    assert_eq!(normalise("a (commit 6f6fed4-dirty) b", &[Mask::Commit]), "a (commit #) b");
    assert_eq!(normalise("x, peak resident 8932 kB", &[Mask::Peak]), "x, peak resident #");
}
