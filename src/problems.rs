//! What a command meets that it cannot use, told apart from what it produces: its data go to stdout, and every
//! problem to stderr as it is met, named by its file (`PATH: reason`, `PATH: line N: reason`). An input skipped (a
//! file, a record, a line) is counted, and the run goes on with the rest; a failure ends the run. The command line
//! ends with the count of skipped inputs and an exit status that tells: 0 done, 1 done with inputs skipped, 2 not
//! done ([`Problems::finish`]).

use std::fmt::Display;
use std::io::{self, Write};

/// The problems of one run, written on `err` (stderr) as they come; what is written there is best effort (an error
/// writing it is ignored: the status still tells).
pub struct Problems<'a> {
    err: &'a mut dyn Write,
    skipped: usize,
    failed: bool,
}

impl<'a> Problems<'a> {
    /// Problems written on `err`, none yet.
    pub fn new(err: &'a mut dyn Write) -> Problems<'a> {
        Problems { err, skipped: 0, failed: false }
    }

    fn line(&mut self, kind: &str, what: &dyn Display) {
        let _ = writeln!(self.err, "{kind}: {what}");
        let _ = self.err.flush();
    }

    /// An input left out and the run going on without it: `error: WHAT`, counted.
    pub fn skip(&mut self, what: impl Display) {
        self.line("error", &what);
        self.skipped += 1;
    }

    /// Each of `all` skipped.
    pub fn skip_all<T: Display>(&mut self, all: impl IntoIterator<Item = T>) {
        for what in all {
            self.skip(what);
        }
    }

    /// Something to know that fails nothing (files left out on purpose, an option that changes nothing):
    /// `warning: WHAT`, not counted.
    pub fn warn(&mut self, what: impl Display) {
        self.line("warning", &what);
    }

    /// The run cannot do its work: `error: WHAT`, and the status is 2. Returns `Ok(())`, for a run that returns at once
    /// (`return problems.fail(…)`).
    ///
    /// # Errors
    /// Never.
    pub fn fail(&mut self, what: impl Display) -> io::Result<()> {
        self.line("error", &what);
        self.failed = true;
        Ok(())
    }

    /// How many inputs were skipped so far.
    #[must_use]
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// The exit status of the run: 2 when it failed, 1 when it skipped inputs (then counted in a last line
    /// `error: N inputs skipped, each named above`), 0 otherwise.
    pub fn finish(&mut self) -> u8 {
        if self.failed {
            return 2;
        }
        match self.skipped {
            0 => 0,
            n => {
                let s = if n == 1 { "" } else { "s" };
                self.line("error", &format_args!("{n} input{s} skipped, each named above"));
                1
            }
        }
    }
}

/// An I/O error on the file `path`, as `PATH: reason` (`map_err(named(path))`), so that a command's error names its
/// file.
pub fn named(path: impl Display) -> impl FnOnce(io::Error) -> io::Error {
    move |e| io::Error::new(e.kind(), format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_are_counted_warnings_are_not_and_a_failure_is_status_2() {
        let mut err = Vec::new();
        let mut p = Problems::new(&mut err);
        p.warn("a.psq: judging file left out");
        assert_eq!(p.finish(), 0);
        p.skip("b.psq: line 3: not a move");
        p.skip_all(["c.tgr: record 2: torn"]);
        assert_eq!(p.skipped(), 2);
        assert_eq!(p.finish(), 1);
        let _ = p.fail("nothing to learn from");
        assert_eq!(p.finish(), 2);
        let text = String::from_utf8(err).expect("text");
        assert_eq!(
            text,
            "warning: a.psq: judging file left out\nerror: b.psq: line 3: not a move\nerror: c.tgr: record 2: torn\n\
             error: 2 inputs skipped, each named above\nerror: nothing to learn from\n"
        );
        let e = named("out/x.tgr")(io::Error::new(io::ErrorKind::NotFound, "No such file or directory"));
        assert_eq!((e.kind(), e.to_string()), (io::ErrorKind::NotFound, "out/x.tgr: No such file or directory".into()));
    }
}
