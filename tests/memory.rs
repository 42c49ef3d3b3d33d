//! `INFO max_memory` is a hard limit: a protocol session's peak resident memory, as the operating system counts it
//! (`VmHWM` in `/proc/PID/status`), stays within the limit at 32, 64 and 350 MB, and a limit below what the engine
//! needs is refused with a MESSAGE. Linux only (it reads `/proc`).
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Session {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    messages: Vec<String>,
}

impl Session {
    fn start(limit: u64, threads: usize) -> Session {
        Session::start_with(limit, threads, 4)
    }

    /// A session under the Gomocup rule number `rule` (4 renju, 0 freestyle: both evaluated by their network).
    fn start_with(limit: u64, threads: usize, rule: u32) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut s = Session { child, input, output, messages: Vec::new() };
        s.send("START 15");
        assert_eq!(s.answer(), "OK");
        for line in [
            format!("INFO rule {rule}"),
            format!("INFO max_memory {limit}"),
            format!("INFO thread_num {threads}"),
            "INFO timeout_turn 700".to_string(),
            "INFO timeout_match 10000000".to_string(),
        ] {
            s.send(&line);
        }
        s
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
        self.input.flush().expect("flush");
    }

    /// The next line that is not a MESSAGE (those are kept).
    fn answer(&mut self) -> String {
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).expect("the engine answers") > 0, "the engine hung up");
            let line = line.trim().to_string();
            if line.starts_with("MESSAGE") {
                self.messages.push(line);
            } else {
                return line;
            }
        }
    }

    /// The peak resident memory so far, in bytes.
    fn peak(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("/proc");
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM");
        let kb: u64 = line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("a number");
        kb * 1024
    }

    fn end(mut self) {
        self.send("END");
        let _ = self.child.wait();
    }
}

/// A game of `moves` moves of each side: the engine opens, the test answers next to the engine's last stone (the
/// first free point of a fixed ring around it), so the positions get tactical and the searches use their time. In
/// freestyle (rule 0) the search evaluates with the network.
fn play(s: &mut Session, moves: usize) {
    s.send("BEGIN");
    let mut taken = std::collections::BTreeSet::new();
    let mut last = s.answer();
    for _ in 0..moves {
        let Some((x, y)) =
            last.split_once(',').and_then(|(x, y)| Some((x.parse::<i32>().ok()?, y.parse::<i32>().ok()?)))
        else {
            panic!("not a move: {last}");
        };
        taken.insert((x, y));
        let ring = [(1, 1), (-1, 1), (1, 0), (0, 1), (-1, -1), (2, 0), (0, 2), (-2, 1), (1, -2), (2, 2), (-2, -2)];
        let Some(&(px, py)) = ring
            .iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .find(|&(px, py)| (0..15).contains(&px) && (0..15).contains(&py) && !taken.contains(&(px, py)))
            .as_ref()
        else {
            return;
        };
        taken.insert((px, py));
        s.send(&format!("TURN {px},{py}"));
        last = s.answer();
        if last.starts_with("ERROR") {
            return; // the game is over
        }
    }
}

#[test]
fn the_peak_resident_memory_stays_within_max_memory() {
    for (mb, threads, rule) in [(32u64, 1usize, 4), (32, 1, 0), (64, 1, 4), (64, 2, 4), (350, 1, 4)] {
        let limit = mb << 20;
        let mut s = Session::start_with(limit, threads, rule);
        play(&mut s, 8);
        let peak = s.peak();
        assert!(
            !s.messages.iter().any(|m| m.contains("refused")),
            "{mb} MB with {threads} threads is accepted: {:?}",
            s.messages
        );
        println!(
            "max_memory {mb} MB, {threads} thread(s), rule {rule}: peak resident {:.1} MB",
            peak as f64 / 1048576.0
        );
        assert!(peak <= limit, "{mb} MB with {threads} threads: the peak was {peak} bytes");
        s.end();
    }
}

#[test]
fn a_limit_below_what_the_engine_needs_is_refused_with_a_message_and_the_game_goes_on() {
    let mut s = Session::start(4 << 20, 1);
    s.send("BEGIN");
    let first = s.answer();
    assert_eq!(first, "7,7", "{:?}", s.messages);
    let refusal = s.messages.iter().find(|m| m.contains("max_memory 4194304 refused")).cloned();
    let refusal = refusal.unwrap_or_else(|| panic!("no refusal: {:?}", s.messages));
    let least: u64 = refusal
        .split("at least ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{refusal}"));
    // Renju plays with its network by default: the least counts the network's state.
    assert_eq!(least, tengen::engine::minimum_bytes(1, true), "{refusal}");
    assert!(least > tengen::engine::minimum_bytes(1, false), "{refusal}");
    // The least it names is accepted: no MESSAGE for it.
    s.messages.clear();
    s.send(&format!("INFO max_memory {least}"));
    s.send("TURN 8,8");
    assert!(s.answer().contains(','));
    assert!(s.messages.iter().all(|m| !m.contains("refused")), "{:?}", s.messages);
    s.end();
}

#[test]
fn the_least_the_documentation_states_is_the_one_the_engine_names() {
    use tengen::engine::minimum_bytes;
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md")).expect("the page");
    let one_line: String = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let per_thread = minimum_bytes(2, true) - minimum_bytes(1, true);
    assert_eq!(per_thread, minimum_bytes(2, false) - minimum_bytes(1, false));
    for (bytes, what) in [
        (minimum_bytes(1, true), "with one thread and the network evaluation"),
        (minimum_bytes(1, false), "with the classical one"),
        (per_thread, "more a thread"),
    ] {
        let mib = bytes as f64 / 1048576.0;
        let stated = format!("{bytes} bytes ({mib:.1} MiB) {what}");
        assert!(one_line.contains(&stated), "docs/protocol.md does not say \"{stated}\"");
    }
}
