//! `pbrain-tengen lib`: RenLib libraries dumped, and turned into SGF and back.

use super::Done;
use crate::gametree::{renlib, sgf};
use std::io::{self, Write};

/// Runs `lib dump|to-sgf|from-sgf`.
pub(super) fn lib_command(args: &[String], out: &mut dyn Write) -> Done {
    if let Some(a) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!("unknown option '{a}'"));
    }
    let read = |path: &str| std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"));
    match args {
        [cmd, path] if cmd == "dump" => {
            let (tree, error) = renlib::read(&read(path)?);
            let written = renlib::dump(&tree).iter().try_for_each(|line| writeln!(out, "{line}"));
            finish(written, error.map(|e| format!("{path}: {e}")))
        }
        [cmd, path, rest @ ..] if cmd == "to-sgf" && rest.len() <= 1 => {
            let (tree, error) = renlib::read(&read(path)?);
            let text = sgf::write(&tree);
            let written = match rest.first() {
                Some(target) => {
                    std::fs::write(target, text).map_err(|e| format!("cannot write {target}: {e}"))?;
                    Ok(())
                }
                None => out.write_all(&text),
            };
            let nodes = tree.len() - 1;
            finish(written, error.map(|e| format!("{path}: {e} (the {nodes} nodes before it were written)")))
        }
        [cmd, path, target] if cmd == "from-sgf" => {
            let tree = sgf::read(&read(path)?).map_err(|e| format!("{path}: {e}"))?;
            let bytes = renlib::write(&tree)?;
            std::fs::write(target, bytes).map_err(|e| format!("cannot write {target}: {e}"))?;
            Ok(writeln!(out, "{target}: {} nodes", tree.len() - 1))
        }
        _ => {
            Err("expected lib dump FILE.lib, lib to-sgf FILE.lib [OUT.sgf] or lib from-sgf FILE.sgf OUT.lib"
                .to_string())
        }
    }
}

/// The output so far, then the reading error (the command fails with it).
fn finish(written: io::Result<()>, error: Option<String>) -> Done {
    match (written, error) {
        (Err(e), _) => Ok(Err(e)),
        (Ok(()), Some(e)) => Err(e),
        (Ok(()), None) => Ok(Ok(())),
    }
}
