//! The SPSA tuner (`pbrain-tengen spsa`): its state file round-trips and a bad one is refused with a message naming
//! the line; a run at fixed nodes plays the same games whatever the number of threads, resumes where it stopped,
//! and the values it writes can be played by the protocol binary's `--params`.

mod common;

use tengen::search::params::Params;
use tengen::tune::spsa::{Selection, State};

/// The exit code, then stdout, or for a failing run its error on stderr (stdout empty).
fn cli(args: &[&str]) -> (u8, String) {
    common::cli_told(args)
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-spsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_state_file_round_trips() {
    let mut s = State {
        iterations: 777,
        done: 123,
        batch: 3,
        seed: 99,
        r_end: 0.0125,
        selection: Selection::All,
        rule: "freestyle".to_string(),
        nodes: 0,
        turn_ms: 80,
        match_ms: 4_000,
        eval: "network".to_string(),
        score: [50, 40, 33],
        ..State::default()
    };
    // Values anywhere in their ranges, with every bit of their fractions.
    for (i, spec) in Params::SPECS.iter().enumerate() {
        let t = (i as f64 * 0.618_033_988_749).fract();
        s.theta[i] = f64::from(spec.min) + t * f64::from(spec.max - spec.min);
    }
    let text = s.to_text();
    let back = State::parse(&text).expect("its own file");
    assert_eq!(back, s);
    assert_eq!(back.to_text(), text);
    // The protocol binary's --params reads the same file: the rounded values.
    assert_eq!(Params::from_text(&text).expect("params"), s.params());
}

#[test]
fn a_bad_state_file_is_refused_with_its_line() {
    let good = State::default().to_text();
    let cases: [(&str, String); 8] = [
        ("SPSA state", "iterations 10\n".to_string()),
        ("line 2: bad iterations", good.replace("iterations 10000", "iterations ten")),
        ("unknown setting 'colour'", good.clone() + "colour red\n"),
        ("unknown parameter 'nonsense'", good.clone() + "param nonsense 3\n"),
        (
            "outside",
            good.replace(
                &format!("param rfp_margin {:?}", f64::from(Params::DEFAULT.rfp_margin)),
                "param rfp_margin 9999",
            ),
        ),
        ("'seed' given twice", good.clone() + "seed 5\n"),
        ("no 'seed' line", good.replace("seed 1\n", "")),
        ("unknown parameter group", good.replace("tune search", "tune everything")),
    ];
    for (expected, text) in cases {
        let err = State::parse(&text).expect_err(expected);
        assert!(err.contains(expected), "expected '{expected}', got '{err}'");
    }
    // Through the command: an error line, a failing exit code, and the file left as it was.
    let path = temp("bad.spsa");
    std::fs::write(&path, "tengen-spsa 1\niterations 5\ndone 9\nseed 1\nrule renju\n").expect("write");
    let (code, text) = cli(&["spsa", "--state", path.to_str().expect("path")]);
    assert_ne!(code, 0);
    assert!(text.contains("error:") && text.contains("past iterations"), "{text}");
    assert!(std::fs::read_to_string(&path).expect("read").contains("done 9"));
}

#[test]
fn a_run_is_the_same_on_one_thread_or_two_and_resumes() {
    let (one, two, resumed) = (temp("one.spsa"), temp("two.spsa"), temp("resumed.spsa"));
    // (The classical evaluation: with this seed its games are not all split pairs, so the values move.)
    let settings = ["--nodes", "300", "--iterations", "6", "--batch", "3", "--seed", "4", "--r-end", "0.05"];
    let settings = [settings.as_slice(), &["--eval", "classical"]].concat();
    let run = |path: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["spsa", "--state", path.to_str().expect("path")];
        args.extend_from_slice(&settings);
        args.extend_from_slice(extra);
        let (code, text) = cli(&args);
        assert_eq!(code, 0, "{text}");
        text
    };
    let text = run(&one, &["--concurrency", "1"]);
    assert!(text.contains("iteration 3 ") && text.contains("iteration 6 "), "the path, batch by batch: {text}");
    run(&two, &["--concurrency", "2"]);
    run(&resumed, &["--stop-after", "3"]);
    let half = State::parse(&std::fs::read_to_string(&resumed).expect("read")).expect("state");
    assert_eq!(half.done, 3);
    let text = cli(&["spsa", "--state", resumed.to_str().expect("path"), "--concurrency", "2"]).1;
    assert!(text.starts_with("resuming"), "{text}");
    let read = |p: &std::path::Path| State::parse(&std::fs::read_to_string(p).expect("read")).expect("state");
    let (a, b, c) = (read(&one), read(&two), read(&resumed));
    assert_eq!(a.done, 6);
    assert_eq!(a.score.iter().sum::<u64>(), 12, "two games an iteration");
    assert_eq!(a, b, "the thread count changed the games");
    assert_eq!(a, c, "a resumed run differs from one played through");
    assert_ne!(a.theta, State::default().theta, "the games moved the values");
    // A finished run plays nothing more.
    let text = cli(&["spsa", "--state", one.to_str().expect("path")]).1;
    assert_eq!(read(&one), a, "{text}");
}

#[test]
fn the_protocol_binary_plays_a_params_file_and_refuses_a_bad_one() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let (good, bad) = (temp("good.params"), temp("bad.params"));
    std::fs::write(&good, "param rfp_margin 95\nparam leaf_vcf_nodes 32\n").expect("write");
    std::fs::write(&bad, "param rfp_margin lots\n").expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
        .args(["--params", bad.to_str().expect("path")])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(text.contains("bad value 'lots' of rfp_margin"), "{text}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
        .args(["--params", good.to_str().expect("path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"START 15\nINFO timeout_turn 200\nBEGIN\n").expect("write");
    stdin.flush().expect("flush");
    let reader = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let answers: Vec<String> = std::io::BufRead::lines(reader)
        .map_while(Result::ok)
        .filter(|l| !l.starts_with("MESSAGE") && !l.starts_with("DEBUG"))
        .take(2)
        .collect();
    let _ = stdin.write_all(b"END\n");
    drop(stdin);
    let _ = child.wait();
    assert_eq!(answers.first().map(String::as_str), Some("OK"), "{answers:?}");
    assert!(answers.get(1).is_some_and(|l| l.split(',').count() == 2), "a move: {answers:?}");
}
