//! `pbrain-tengen`: the engine binary.

use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_none_or(|a| a.starts_with("--") && a != "--help") {
        // The protocol on stdin/stdout, as GUIs and the Gomocup judge run it (options preset the engine).
        let presets = match tengen::cli::protocol_presets(&args) {
            Ok(p) => p,
            Err(e) => {
                println!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let stdout = io::stdout();
        let mut out = stdout.lock();
        return match tengen::protocol::run_with(io::BufReader::new(io::stdin()), &mut out, presets) {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::from(1),
        };
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match tengen::cli::run(&args, &mut stdin.lock(), &mut out) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
