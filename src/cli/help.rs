//! The help: a subcommand's entry, the overview of them all, and the protocol's own options (the binary without a
//! subcommand). The usage texts are `usage.rs`'s and `usage_records.rs`'s.

use super::usage::{Command, PLAYING};
use super::usage_records::RECORDS;

/// Every subcommand, in the order the overview lists them.
fn commands() -> impl Iterator<Item = &'static Command> {
    PLAYING.iter().chain(RECORDS)
}

/// The protocol's own options (the binary without a subcommand).
pub(super) const PROTOCOL: &str =
    "usage: pbrain-tengen [options]   (the Gomocup/Piskvork protocol on stdin/stdout, as GUIs run it)
  --max-depth N, --max-nodes N   limits of every search
  --threads N                    search threads
  --hash-mb N                    transposition table size
  --no-threats                   turn off the threat solvers
  --weights FILE                 classical evaluation tables other than the embedded ones
  --eval E                       default (the network where the build has one), classical or network
  --network FILE                 a network file other than the embedded one
  --params FILE                  the search's tunable values from a file of 'param NAME VALUE' lines
                                 (an SPSA state file is one)
  --book FILE|builtin            play from an opening book: FILE (pbrain-tengen book build), or builtin
                                 (the renju book the binary embeds; also INFO book 1); by default none
  --no-book                      search every move, the default (also INFO book 0)
  --say-score                    a 'MESSAGE score S depth D nodes N' line before each move (for match records)";

/// What every command's usage ends with: where its output goes, and its exit status.
const STATUS: &str = "Data go to stdout; errors and warnings to stderr, each naming its file (PATH: line N: reason).
Exit status: 0 done; 1 done, inputs that could not be read skipped (each named, then counted); 2 not done.";

/// The command's usage, and how every command ends.
pub(super) fn usage(c: &Command) -> String {
    format!("{}\n{STATUS}", c.usage)
}

/// The command's entry.
pub(super) fn command(name: &str) -> Option<&'static Command> {
    commands().find(|c| c.name == name)
}

/// The overview: what the binary is, every subcommand with its summary, and where to read more.
pub(super) fn overview() -> String {
    let mut text = String::from(
        "Tengen, a renju and gomoku engine.\n\nusage: pbrain-tengen COMMAND [options]   (pbrain-tengen COMMAND --help for its options)\n",
    );
    for c in commands() {
        text.push_str(&format!("  {:<9} {}\n", c.name, c.summary));
    }
    text.push_str("  --version  the version, the commit and the evaluation\n\n");
    text.push_str(PROTOCOL);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_usage_names_its_command() {
        for c in commands() {
            assert!(c.usage.starts_with(&format!("usage: pbrain-tengen {}", c.name)), "{}", c.name);
            assert!(overview().contains(c.summary));
        }
    }
}
