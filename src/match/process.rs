//! One engine process: started from a shell command line with its own process group, written to line by line,
//! read by a thread that hands its stdout lines over a channel (so a silent engine never blocks the runner),
//! suspended between its moves as GomocupJudge does, measured (USS of the whole process group), and killed with its
//! children.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// What reading a line brought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// A line (without its line end).
    Line(String),
    /// The deadline passed first.
    Timeout,
    /// The engine closed its output or exited.
    Closed,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    suspended: bool,
    /// Killed and reaped: its process group id may belong to someone else now.
    killed: bool,
}

impl EngineProcess {
    /// Starts `command` through the shell (`sh -c` on Unix, `cmd /C` on Windows) in a process group of its own,
    /// stdin and stdout piped, stderr discarded.
    ///
    /// # Errors
    /// When the process cannot be started.
    pub fn spawn(command: &str) -> io::Result<EngineProcess> {
        let mut cmd = shell(command);
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| io::Error::other("no stdout pipe"))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess { child, stdin, lines: rx, suspended: false, killed: false })
    }

    /// The process id (the process group's id on Unix).
    #[must_use]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line (with `\r\n`, as the Windows judge does; engines must accept both ends).
    ///
    /// # Errors
    /// When the engine no longer reads its input.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| io::Error::other("input closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\r\n")?;
        stdin.flush()
    }

    /// The next output line, waiting until `deadline` at most.
    pub fn read_until(&mut self, deadline: Instant) -> Read {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Read::Line(line),
            Err(RecvTimeoutError::Timeout) => Read::Timeout,
            Err(RecvTimeoutError::Disconnected) => Read::Closed,
        }
    }

    /// Stops the engine's processes until [`EngineProcess::resume`] (Linux; elsewhere nothing happens), so that
    /// an engine cannot think on its opponent's time.
    pub fn suspend(&mut self) {
        if !self.suspended && signal_group(self.child.id(), Signal::Stop) {
            self.suspended = true;
        }
    }

    /// Lets a suspended engine run again.
    pub fn resume(&mut self) {
        if self.suspended {
            signal_group(self.child.id(), Signal::Continue);
            self.suspended = false;
        }
    }

    /// The memory the engine's processes hold, in bytes: the unique set size (private pages) summed over the
    /// process group, as GomocupJudge sums it over the process tree. `None` where it cannot be measured.
    #[must_use]
    pub fn memory(&self) -> Option<u64> {
        group_memory(self.child.id())
    }

    /// Whether the process has exited.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Ends the engine as the judge does: resumes it, sends `END`, waits up to `grace` for it to exit, then kills
    /// its whole process group. Returns whether it exited by itself.
    pub fn end(mut self, grace: Duration) -> bool {
        self.resume();
        let _ = self.send("END");
        self.stdin = None;
        let deadline = Instant::now() + grace;
        let exited = loop {
            if self.exited() {
                break true;
            }
            if Instant::now() >= deadline {
                break false;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        self.kill();
        exited
    }

    /// Kills the engine and every process of its group.
    pub fn kill(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        signal_group(self.child.id(), Signal::Kill);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Children of an engine that exited may still run in its group; an engine killed already is left alone.
        self.kill();
    }
}

fn shell(command: &str) -> Command {
    if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.arg("/C").arg(command);
        c
    } else {
        let mut c = Command::new("sh");
        c.arg("-c").arg(command);
        c
    }
}

#[derive(Clone, Copy)]
enum Signal {
    Stop,
    Continue,
    Kill,
}

/// Sends a signal to the process group `pgid`; false where signals are not available.
#[cfg(target_os = "linux")]
fn signal_group(pgid: u32, signal: Signal) -> bool {
    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    let number = match signal {
        Signal::Stop => 19,
        Signal::Continue => 18,
        Signal::Kill => 9,
    };
    let Ok(pid) = i32::try_from(pgid) else { return false };
    if pid <= 1 {
        return false;
    }
    // SAFETY: kill(2) reads no memory of ours; a negative pid addresses the process group the runner created for
    // this engine (`process_group(0)` made the child its leader), so no other process is signalled.
    unsafe { kill(-pid, number) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn signal_group(_pgid: u32, _signal: Signal) -> bool {
    false
}

/// The private memory of every process in group `pgid` (Linux /proc), in bytes.
fn group_memory(pgid: u32) -> Option<u64> {
    let entries = std::fs::read_dir("/proc").ok()?;
    let mut total = 0u64;
    let mut found = false;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // Fields after the command name in parentheses: state, ppid, pgrp, …
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else { continue };
        let mut fields = after.split_whitespace();
        let pgrp = fields.nth(2).and_then(|f| f.parse::<u32>().ok());
        if pgrp != Some(pgid) {
            continue;
        }
        found = true;
        total += process_memory(pid).unwrap_or(0);
    }
    found.then_some(total)
}

/// One process's unique set size (Private_Clean + Private_Dirty of smaps_rollup), or its resident size.
fn process_memory(pid: u32) -> Option<u64> {
    let kb = |text: &str, key: &str| -> Option<u64> {
        text.lines().find(|l| l.starts_with(key)).and_then(|l| l[key.len()..].split_whitespace().next()?.parse().ok())
    };
    if let Ok(rollup) = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        && let (Some(clean), Some(dirty)) = (kb(&rollup, "Private_Clean:"), kb(&rollup, "Private_Dirty:"))
    {
        return Some((clean + dirty) * 1024);
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    kb(&status, "VmRSS:").map(|k| k * 1024)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn lines_come_back_and_a_silent_process_times_out_and_is_killed() {
        let mut p = EngineProcess::spawn("read a; echo \"got $a\"; sleep 30").expect("sh");
        p.send("hello").expect("send");
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(p.read_until(deadline), Read::Line("got hello".to_string()));
        assert_eq!(p.read_until(Instant::now() + Duration::from_millis(50)), Read::Timeout);
        assert!(p.memory().is_some_and(|m| m > 0));
        let start = Instant::now();
        assert!(!p.end(Duration::from_millis(100)), "sleep does not exit at END");
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_process_that_exits_reads_as_closed() {
        let mut p = EngineProcess::spawn("echo one").expect("sh");
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(p.read_until(deadline), Read::Line("one".to_string()));
        assert_eq!(p.read_until(deadline), Read::Closed);
    }
}
