//! `spsa`: its options read into an SPSA run ([`crate::tune::spsa_run`]), which tunes the search's parameters by
//! self-play games, printing the parameter path as it goes and the values to ship at the end.

use super::OptionCursor;
use crate::tune::spsa_run::SpsaRun;

/// Parses the options of `spsa`.
///
/// # Errors
/// A message naming a bad or unknown option.
pub fn parse_spsa(args: &[String]) -> Result<SpsaRun, String> {
    let mut c = SpsaRun { state: String::new(), settings: Vec::new(), concurrency: 1, stop_after: 0, report: 1 };
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        const SETTINGS: [&str; 10] = [
            "--iterations",
            "--batch",
            "--seed",
            "--r-end",
            "--tune",
            "--rule",
            "--nodes",
            "--turn-ms",
            "--match-ms",
            "--eval",
        ];
        let known = ["--state", "--concurrency", "--stop-after", "--report"].contains(&name.as_str())
            || SETTINGS.contains(&name.as_str());
        if !known {
            return Err(format!("unknown option '{name}'"));
        }
        let value = cursor.value(&name, &inline)?;
        let number =
            |what: &str| -> Result<u64, String> { value.trim().parse().map_err(|_| format!("bad {what} '{value}'")) };
        match name.as_str() {
            "--state" => c.state = value,
            "--concurrency" => c.concurrency = (number("game count")? as usize).clamp(1, 64),
            "--stop-after" => c.stop_after = number("iteration count")?,
            "--report" => c.report = number("batch count")?.max(1),
            // The game settings go through the state file's reader (see `load_state`).
            _ => c.settings.push((name.trim_start_matches("--").replace('-', "_"), value)),
        }
    }
    if c.state.is_empty() {
        return Err("spsa needs --state FILE (a new run starts there, an old one resumes)".to_string());
    }
    Ok(c)
}
