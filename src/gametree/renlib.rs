//! RenLib libraries (`.lib`), read into a [`Tree`] and written back byte for byte.
//!
//! The format (RenLib 3.x, written from its published description):
//! - a 20-byte header: `FF 'R' 'e' 'n' 'L' 'i' 'b' FF`, the major and minor version (3 and 0 or 4 and later), then
//!   ten bytes `FF`;
//! - the nodes in preorder, each a record of two bytes: the point (high nibble the row from the top, 0–14; low
//!   nibble the column from 1; `00` for no point) and the command bits: `DOWN` 0x80 (a later sibling follows this
//!   node's subtree), `RIGHT` 0x40 (no child: the variation ends), `OLDCOMMENT` 0x20, `MARK` 0x10, `COMMENT` 0x08,
//!   `START` 0x04, `NOMOVE` 0x02 (a mark on the board, not a move), `EXTENSION` 0x01 (two more bytes follow: a
//!   big-endian word of further bits, 0x0001 of them meaning a board text follows);
//! - after a record with `COMMENT` (or `OLDCOMMENT`), its comment: the one-line comment, optionally 0x08 and the
//!   multi-line one, ended by a zero byte and padded with one more zero to an even length; after a record with the
//!   board-text bit, the text in the same way.
//!
//! The 3.4 form starts with a record for the empty board (point `00`); the older 3.0 form starts with the first
//! move. Reading follows the bits: a node with `DOWN` leaves its parent on a stack; a node without `RIGHT` has the
//! next record as its first child; a node with `RIGHT` and without `DOWN` ends a variation, and the next record is
//! a sibling of the node whose parent comes off the stack (the file ends when the stack is empty). An empty library
//! is the header alone, or the header and a root record with or without `RIGHT` (22 bytes).

use super::{Node, NodeId, Raw, Tree, decode};
use crate::types::Pos;

/// The header's length.
pub const HEADER_LEN: usize = 20;

/// The header RenLib 3.4 writes.
pub const HEADER_34: [u8; HEADER_LEN] =
    [0xff, b'R', b'e', b'n', b'L', b'i', b'b', 0xff, 3, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];

/// The header's first eight bytes, which every RenLib library starts with.
const MAGIC: [u8; 8] = [0xff, b'R', b'e', b'n', b'L', b'i', b'b', 0xff];

/// Command bits.
const DOWN: u8 = 0x80;
const RIGHT: u8 = 0x40;
const OLD_COMMENT: u8 = 0x20;
const MARK: u8 = 0x10;
const COMMENT: u8 = 0x08;
const START: u8 = 0x04;
const NO_MOVE: u8 = 0x02;
const EXTENSION: u8 = 0x01;
/// The extension word's bit for a board text.
const BOARD_TEXT: u16 = 0x0001;

/// Where a library stopped making sense, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibError {
    /// The byte offset in the file.
    pub offset: usize,
    /// What was expected there (and what was found).
    pub expected: String,
}

impl std::fmt::Display for LibError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: expected {}", self.offset, self.expected)
    }
}

/// Reads a library. The tree holds every node read before an error, which comes with it.
#[must_use]
pub fn read(bytes: &[u8]) -> (Tree, Option<LibError>) {
    let mut tree = Tree::new(15);
    let error = Reader { bytes, at: 0 }.read_into(&mut tree).err();
    (tree, error)
}

/// The library's bytes: the tree's header, then its nodes. RenLib libraries are 15×15.
///
/// # Errors
/// A tree on another board size, or a point off the board.
pub fn write(tree: &Tree) -> Result<Vec<u8>, String> {
    if tree.size != 15 {
        return Err(format!("a RenLib library is 15x15; this tree is {0}x{0}", tree.size));
    }
    let mut out = Vec::with_capacity(HEADER_LEN + 4 * tree.len());
    out.extend_from_slice(&tree.header);
    let root = tree.node(Tree::ROOT);
    // The 3.0 form has no place for the root's comment and marks: such a tree is written in the 3.4 form.
    let root_record =
        tree.root_record || root.comment.is_some() || root.board_text.is_some() || root.mark || root.start;
    for id in tree.preorder() {
        if id == Tree::ROOT && !root_record {
            continue;
        }
        write_node(tree, id, &mut out)?;
    }
    Ok(out)
}

/// One node's record and texts.
fn write_node(tree: &Tree, id: NodeId, out: &mut Vec<u8>) -> Result<(), String> {
    let node = tree.node(id);
    let point = match node.point {
        Some(p) if p.on_board(15) => (p.y << 4) | (p.x + 1),
        Some(p) => return Err(format!("the point {},{} is off the 15x15 board", p.x, p.y)),
        None => 0,
    };
    let mut command = 0;
    if id != Tree::ROOT && tree.next_sibling(id).is_some() {
        command |= DOWN;
    }
    if node.children.is_empty() && !(id == Tree::ROOT && node.raw.root_open) {
        command |= RIGHT;
    }
    if node.comment.is_some() {
        command |= if node.raw.old_comment { OLD_COMMENT } else { COMMENT };
    }
    if node.mark {
        command |= MARK;
    }
    if node.start {
        command |= START;
    }
    if !node.is_move {
        command |= NO_MOVE;
    }
    let extension = match (node.raw.extension, &node.board_text) {
        (Some(word), Some(_)) => Some(word | BOARD_TEXT),
        (Some(word), None) => Some(word & !BOARD_TEXT),
        (None, Some(_)) => Some(BOARD_TEXT),
        (None, None) => None,
    };
    if extension.is_some() {
        command |= EXTENSION;
    }
    out.extend_from_slice(&[point, command]);
    if let Some(word) = extension {
        out.extend_from_slice(&word.to_be_bytes());
    }
    if let Some(comment) = &node.comment {
        write_text(comment, node.raw.comment_padded, out);
    }
    if let Some(text) = &node.board_text {
        write_text(text, node.raw.text_padded, out);
    }
    Ok(())
}

/// A text, its zero, and the padding zero (by RenLib's habit unless `padded` says otherwise). A zero inside the
/// text would end it early, so the text stops at its first zero.
fn write_text(text: &[u8], padded: Option<bool>, out: &mut Vec<u8>) {
    let text = text.split(|&b| b == 0).next().unwrap_or_default();
    out.extend_from_slice(text);
    out.push(0);
    if padded.unwrap_or(habit_pads(text.len())) {
        out.push(0);
    }
}

/// Whether RenLib pads a text of `len` bytes: text and zero together come to an even length.
fn habit_pads(len: usize) -> bool {
    (len + 1) % 2 == 1
}

/// A cursor over a library's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error<T>(&self, offset: usize, expected: impl Into<String>) -> Result<T, LibError> {
        Err(LibError { offset, expected: expected.into() })
    }

    fn byte(&mut self, what: &str) -> Result<u8, LibError> {
        match self.bytes.get(self.at) {
            Some(&b) => {
                self.at += 1;
                Ok(b)
            }
            None => self.error(self.at, format!("{what}, found the end of the file")),
        }
    }

    fn read_into(&mut self, tree: &mut Tree) -> Result<(), LibError> {
        let found = self.bytes.len().min(MAGIC.len());
        if self.bytes[..found] != MAGIC[..found] {
            let at = self.bytes.iter().zip(MAGIC).position(|(&b, m)| b != m).unwrap_or(0);
            return self.error(at, "a RenLib header (FF 'RenLib' FF)");
        }
        if self.bytes.len() < HEADER_LEN {
            return self
                .error(self.bytes.len(), format!("the {HEADER_LEN}-byte RenLib header, found the end of the file"));
        }
        let major = self.bytes[8];
        if major != 3 {
            return self.error(8, format!("RenLib version 3 (found {major}.{})", self.bytes[9]));
        }
        tree.header.copy_from_slice(&self.bytes[..HEADER_LEN]);
        tree.root_record = false;
        self.at = HEADER_LEN;
        // The parents that later siblings hang from, innermost last.
        let mut stack: Vec<NodeId> = Vec::new();
        let mut parent = Tree::ROOT;
        let mut first = true;
        loop {
            if self.at == self.bytes.len() && first {
                // A library with no node (written back as its header alone).
                return Ok(());
            }
            let start = self.at;
            let point_byte = self.byte("a record (its point byte)")?;
            let command = self.byte("the record's command byte")?;
            let is_root = first && point_byte == 0;
            first = false;
            let point = if point_byte == 0 {
                None
            } else {
                let (x, y) = (point_byte & 0x0f, point_byte >> 4);
                if x == 0 || y > 14 {
                    return self.error(start, format!("a point (row 0-14, column 1-15), found {point_byte:#04x}"));
                }
                Some(Pos::new(usize::from(x - 1), usize::from(y)))
            };
            if point.is_none() && command & NO_MOVE == 0 && !is_root {
                return self.error(start, "a point for a move (00 stands only for the empty board or a no-move mark)");
            }
            let extension = if command & EXTENSION != 0 {
                let high = self.byte("the extension word")?;
                let low = self.byte("the extension word's second byte")?;
                Some(u16::from_be_bytes([high, low]))
            } else {
                None
            };
            let mut raw = Raw::default();
            let comment = if command & (COMMENT | OLD_COMMENT) != 0 {
                raw.old_comment = command & COMMENT == 0;
                let (text, padded) = self.text("comment")?;
                raw.comment_padded = (padded != habit_pads(text.len())).then_some(padded);
                Some(text)
            } else {
                None
            };
            let board_text = if extension.is_some_and(|w| w & BOARD_TEXT != 0) {
                let (text, padded) = self.text("board text")?;
                raw.text_padded = (padded != habit_pads(text.len())).then_some(padded);
                Some(text)
            } else {
                None
            };
            raw.extension = match (extension, &board_text) {
                (Some(BOARD_TEXT), Some(_)) => None,
                (w, _) => w,
            };
            let node = Node {
                point,
                is_move: command & NO_MOVE == 0,
                mark: command & MARK != 0,
                start: command & START != 0,
                comment,
                board_text,
                children: Vec::new(),
                parent: None,
                raw,
            };
            if is_root {
                if command & DOWN != 0 {
                    return self.error(start + 1, "a root record without DOWN (the empty board has no sibling)");
                }
                tree.root_record = true;
                let children = std::mem::take(&mut tree.nodes[Tree::ROOT].children);
                tree.nodes[Tree::ROOT] = Node { children, ..node };
                if command & RIGHT != 0 {
                    break;
                }
                if self.at == self.bytes.len() && self.at == start + 2 {
                    // A bare root and nothing after it: an empty library whose writer always writes the root. (A
                    // root whose texts end the file is a library cut short, as a cut anywhere else is.)
                    tree.nodes[Tree::ROOT].raw.root_open = true;
                    return Ok(());
                }
                continue;
            }
            let id = tree.add(parent, node);
            if command & DOWN != 0 {
                stack.push(parent);
            }
            if command & RIGHT == 0 {
                parent = id;
            } else if let Some(up) = stack.pop() {
                parent = up;
            } else {
                break;
            }
        }
        if self.at < self.bytes.len() {
            return self.error(self.at, "the end of the file after the tree's last variation");
        }
        Ok(())
    }

    /// A zero-ended text and whether a padding zero followed.
    fn text(&mut self, what: &str) -> Result<(Vec<u8>, bool), LibError> {
        let start = self.at;
        let Some(len) = self.bytes[start..].iter().position(|&b| b == 0) else {
            return self
                .error(start, format!("a zero byte ending the {what} that starts here, found the end of the file"));
        };
        self.at = start + len + 1;
        // RenLib pads to an even length; a writer that did not leaves the next record's point byte here, which is
        // zero only for a no-move mark without a point.
        let padded = habit_pads(len) && self.bytes.get(self.at) == Some(&0);
        if padded {
            self.at += 1;
        }
        Ok((self.bytes[start..start + len].to_vec(), padded))
    }
}

/// The library as lines for people: the header's (version, form, counts), then one per variation's end and per node
/// with something to say: the moves that lead there (in H8 notation), then its marks, board text and comment
/// (`pbrain-tengen lib dump`).
#[must_use]
pub fn dump(tree: &Tree) -> Vec<String> {
    let moves = tree.nodes.iter().filter(|n| n.is_move && n.point.is_some()).count();
    let leaves = tree.nodes.iter().skip(1).filter(|n| n.children.is_empty()).count();
    let (major, minor) = (tree.header[8], tree.header[9]);
    let form = if tree.root_record { "with a root record" } else { "first move first" };
    let mut lines = vec![format!(
        "RenLib {major}.{minor} ({form}): {} nodes, {moves} moves, {leaves} variation ends",
        tree.len() - 1
    )];
    for id in tree.preorder() {
        let node = tree.node(id);
        let said = node.comment.is_some() || node.mark || node.start || !node.is_move || node.board_text.is_some();
        if said || (id != Tree::ROOT && node.children.is_empty()) {
            lines.push(dump_line(tree, id, node));
        }
    }
    lines
}

/// One node's dump line.
fn dump_line(tree: &Tree, id: NodeId, node: &Node) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_take_the_row_from_the_top_in_the_high_nibble() {
        let mut bytes = HEADER_34.to_vec();
        bytes.extend_from_slice(&[0x00, 0x00, 0x78, 0x40]);
        let (tree, error) = read(&bytes);
        assert_eq!(error, None);
        assert_eq!(tree.moves(1), [Pos::new(7, 7)]);
        assert_eq!(Pos::new(7, 7).notation(15), "H8");
        assert_eq!(write(&tree), Ok(bytes));
    }
}
