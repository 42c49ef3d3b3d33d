//! `pbrain-tengen lib`: RenLib libraries dumped, and turned into SGF and back.

use crate::gametree::{Node, NodeId, Tree, decode, renlib, sgf};
use std::io::{self, Write};

/// Runs `lib dump|to-sgf|from-sgf`.
pub(super) fn lib_command(args: &[String], out: &mut dyn Write) -> Result<io::Result<()>, String> {
    if let Some(a) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!("unknown option '{a}'"));
    }
    let read = |path: &str| std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"));
    match args {
        [cmd, path] if cmd == "dump" => {
            let (tree, error) = renlib::read(&read(path)?);
            let written = dump(&tree, out);
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
fn finish(written: io::Result<()>, error: Option<String>) -> Result<io::Result<()>, String> {
    match (written, error) {
        (Err(e), _) => Ok(Err(e)),
        (Ok(()), Some(e)) => Err(e),
        (Ok(()), None) => Ok(Ok(())),
    }
}

/// A line per variation's end and per node with something to say: the moves that lead there (in H8 notation),
/// then its marks, board text and comment.
fn dump(tree: &Tree, out: &mut dyn Write) -> io::Result<()> {
    let moves = tree.nodes.iter().filter(|n| n.is_move && n.point.is_some()).count();
    let leaves = tree.nodes.iter().skip(1).filter(|n| n.children.is_empty()).count();
    let (major, minor) = (tree.header[8], tree.header[9]);
    let form = if tree.root_record { "with a root record" } else { "first move first" };
    writeln!(out, "RenLib {major}.{minor} ({form}): {} nodes, {moves} moves, {leaves} variation ends", tree.len() - 1)?;
    for id in tree.preorder() {
        let node = tree.node(id);
        let said = node.comment.is_some() || node.mark || node.start || !node.is_move || node.board_text.is_some();
        if !(said || (id != Tree::ROOT && node.children.is_empty())) {
            continue;
        }
        writeln!(out, "{}", line(tree, id, node))?;
    }
    Ok(())
}

/// One node's dump line.
fn line(tree: &Tree, id: NodeId, node: &Node) -> String {
    let moves: Vec<String> = tree.moves(id).iter().map(|p| p.notation(tree.size)).collect();
    let mut text = if moves.is_empty() { "(start)".to_string() } else { moves.join(" ") };
    if node.mark {
        text.push_str("  [mark]");
    }
    if node.start {
        text.push_str("  [start]");
    }
    if !node.is_move && id != Tree::ROOT {
        let at = node.point.map_or("-".to_string(), |p| p.notation(tree.size));
        let label = node.board_text.as_deref().map(decode).unwrap_or_default();
        text.push_str(&format!("  text {at} \"{label}\""));
    }
    if let Some((title, body)) = node.comment_text() {
        let mut parts = vec![title];
        parts.extend(body.lines().map(str::to_string));
        parts.retain(|p| !p.trim().is_empty());
        text.push_str(&format!("  # {}", parts.join(" / ")));
    }
    text
}
