//! Shared by the tests: readers for the puzzle files in tests/data, and scratch directories.
#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tengen::board::parse_position_line;
use tengen::pattern::PatternBoard;
use tengen::types::{Color, Pos, Rule, parse_point_list};

/// quintet's mate cases (renju-note/quintet @ d8bdf3c, MIT, src/mate/solve.rs tests), copied from
/// ../shared/testdata/vcf/quintet_mate_cases.txt.
pub const QUINTET_MATES: &str = include_str!("../data/quintet_mate_cases.txt");
/// 1927 renju VCF puzzles from the lfz084 renju site, copied from ../shared/testdata/vcf/lfz084_puzzles.tsv.
pub const LFZ084: &str = include_str!("../data/lfz084_puzzles.tsv");

/// One `solve` expectation of a mate case.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// VCFDFS, VCTDFS, VCTPNS, VCTDFPNS or VCTLAZY.
    pub mode: String,
    /// Most attacker moves (the final five included), `None` for `u8::MAX`.
    pub limit: Option<u32>,
    /// The attacker.
    pub attacker: Color,
    /// The expected line, or `None` for `none`.
    pub line: Option<Vec<Pos>>,
}

/// One `=== mate` case.
#[derive(Clone, Debug)]
pub struct MateCase {
    /// The header after `=== `.
    pub name: String,
    /// The board text.
    pub board: String,
    /// Its `solve` lines.
    pub expectations: Vec<Expectation>,
}

impl MateCase {
    /// The position under renju.
    pub fn position(&self) -> PatternBoard {
        PatternBoard::from_ascii(&self.board, Rule::Renju).unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }
}

/// Every mate case of the quintet file.
pub fn quintet_mates() -> Vec<MateCase> {
    let mut cases: Vec<MateCase> = Vec::new();
    for line in QUINTET_MATES.lines() {
        if let Some(name) = line.strip_prefix("=== ") {
            cases.push(MateCase { name: name.to_string(), board: String::new(), expectations: vec![] });
            continue;
        }
        let Some(case) = cases.last_mut() else { continue };
        if let Some(rest) = line.strip_prefix("solve ") {
            let (spec, answer) = rest.split_once(" -> ").expect("solve line has ->");
            let mut words = spec.split_whitespace();
            let mode = words.next().expect("mode").to_string();
            let mut limit = None;
            let mut attacker = Color::Black;
            for w in words {
                if let Some(v) = w.strip_prefix("limit=") {
                    limit = v.parse().ok();
                } else if let Some(v) = w.strip_prefix("attacker=") {
                    attacker = if v == "White" { Color::White } else { Color::Black };
                }
            }
            let line = (answer.trim() != "none").then(|| parse_point_list(answer, 15).expect("solve line"));
            case.expectations.push(Expectation { mode, limit, attacker, line });
        } else if !line.starts_with('#') {
            case.board.push_str(line);
            case.board.push('\n');
        }
    }
    cases
}

/// One lfz084 puzzle.
pub struct LfzPuzzle {
    /// Line number in the file.
    pub number: usize,
    /// The position.
    pub black: Vec<Pos>,
    /// The position.
    pub white: Vec<Pos>,
    /// Side to move, the attacker.
    pub attacker: Color,
    /// Fewest attacker fours (the final five not counted).
    pub fours: u32,
    /// Its name upstream.
    pub name: String,
}

/// Every lfz084 puzzle.
pub fn lfz_puzzles() -> Vec<LfzPuzzle> {
    LFZ084
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split('\t').collect();
            let pos = parse_position_line(&format!("{}\t{}", fields[0], fields[1]), 15).expect("lfz line");
            LfzPuzzle {
                number: i + 1,
                black: pos.black,
                white: pos.white,
                attacker: if fields[2] == "white" { Color::White } else { Color::Black },
                fours: fields[3].parse().expect("count"),
                name: fields.get(5).unwrap_or(&"").to_string(),
            }
        })
        .collect()
}

/// A seeded generator (rand's `StdRng`), so failures reproduce.
pub struct Rng(StdRng);

impl Rng {
    /// The generator of `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(StdRng::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0.random()
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }
}

/// The standard output of the binary `bin` (the test's `CARGO_BIN_EXE_pbrain-tengen`) for `args`, which must succeed.
pub fn run_ok(bin: &str, args: &[&str]) -> String {
    let (code, text, err) = run_split(bin, args);
    assert_eq!(code, Some(0), "{args:?}: {text}{err}");
    text
}

/// The exit code of the command line `args` run in this process (no input), with its standard output where it
/// succeeds (nothing may come on stderr then) or its standard error where it fails (nothing on stdout then).
pub fn cli_told(args: &[&str]) -> (u8, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = tengen::cli::run(&args, &mut &b""[..], &mut out, &mut err).expect("io");
    let (out, err) = (String::from_utf8(out).expect("utf8"), String::from_utf8(err).expect("utf8"));
    let (text, other) = if code == 0 { (out, err) } else { (err, out) };
    assert_eq!(other, "", "{args:?} (exit {code}): {text}");
    (code, text)
}

/// The exit code of the binary `bin` for `args`, with its standard output where it succeeds (nothing may come on
/// stderr then) or its standard error where it fails (nothing may come on stdout then): data and errors apart.
pub fn run_told(bin: &str, args: &[&str]) -> (Option<i32>, String) {
    let (code, out, err) = run_split(bin, args);
    let (text, other) = if code == Some(0) { (out, err) } else { (err, out) };
    assert_eq!(other, "", "{args:?} (exit {code:?}): {text}");
    (code, text)
}

/// The exit code, the standard output and the standard error of the binary `bin` for `args`.
pub fn run_split(bin: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(bin).args(args).output().expect("run");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A fresh scratch directory of its own for test `name` of the suite `suite` (emptied if a run left it behind).
pub fn scratch(suite: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
