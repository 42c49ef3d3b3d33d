//! `pbrain-tengen`: the engine binary.

use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_none_or(|a| a.starts_with("--") && a != "--help" && a != "--version") {
        // The protocol on stdin/stdout, as GUIs and the Gomocup judge run it (options preset the engine).
        let presets = match tengen::cli::protocol_presets(&args) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}\n{}", tengen::cli::protocol_usage());
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
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match tengen::cli::run(&args, &mut io::BufReader::new(io::stdin()), &mut out, &mut io::stderr()) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `RUST_LOG=debug` writes every protocol line in and out and each search iteration, `RUST_LOG=info` a line per
/// move, to stderr (which GUIs and the judge ignore), each with the milliseconds since the engine started.
fn init_logging() {
    use std::io::Write;
    let start = std::time::Instant::now();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .format(move |buf, record| {
            let ms = start.elapsed().as_millis();
            writeln!(buf, "[{ms:>8} ms {:<5}] {}", record.level(), record.args())
        })
        .init();
}
