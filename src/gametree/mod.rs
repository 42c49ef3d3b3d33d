//! Game trees: a position's variations with their comments, marks and board texts, as opening libraries keep them.
//! RenLib libraries ([`renlib`], `.lib`) and SGF with variations ([`sgf`]) load into the same [`Tree`] and are
//! written back out of it; the opening book and the browser board read trees through this module.
//!
//! Texts are kept as the file's bytes, in whatever 8-bit encoding the writer's machine used (RenLib libraries are
//! Windows code pages: Western, Cyrillic, Chinese): [`decode`] turns them into text for people without ever failing.

pub mod renlib;
pub mod sgf;

use crate::types::{Color, Pos, Rule};

/// A node's index in its tree (the root is 0).
pub type NodeId = usize;

/// The byte that separates a RenLib comment's one-line part from its multi-line part.
pub const COMMENT_SEPARATOR: u8 = 0x08;

/// One node: a move, or a mark on the board that is not a move (a RenLib "no move" record carrying a board text).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Node {
    /// The move; for a node that is not a move, the point its board text stands on; `None` at the root.
    pub point: Option<Pos>,
    /// Whether the node is a move. At the root: whether its record lacked RenLib's "no move" bit.
    pub is_move: bool,
    /// RenLib's mark on the node (a variation the author marked).
    pub mark: bool,
    /// RenLib's start mark (where a "start position" search begins).
    pub start: bool,
    /// The comment as RenLib stores it: the one-line comment, then, when there is one, [`COMMENT_SEPARATOR`] and
    /// the multi-line comment with its lines ending in CR LF.
    pub comment: Option<Vec<u8>>,
    /// A text shown on the board at `point` (one to a few characters: `A`, `1`, `x`).
    pub board_text: Option<Vec<u8>>,
    /// The node's variations, in order.
    pub children: Vec<NodeId>,
    /// The node above (`None` at the root).
    pub parent: Option<NodeId>,
    /// What a RenLib file said beyond the above, so that the file is written back byte for byte.
    pub raw: Raw,
}

impl Node {
    /// The comment's bytes in the present form: an old-form comment's 7-bit Swedish letters as the 8-bit ones.
    #[must_use]
    pub fn comment_bytes(&self) -> Option<Vec<u8>> {
        let comment = self.comment.as_ref()?;
        Some(if self.raw.old_comment { old_comment_bytes(comment) } else { comment.clone() })
    }

    /// The comment for people: its one-line part and its multi-line part (lines joined by `\n`; empty when there
    /// is none).
    #[must_use]
    pub fn comment_text(&self) -> Option<(String, String)> {
        let bytes = self.comment_bytes()?;
        let (title, body) = split_comment(&bytes);
        Some((decode(title), body.map(|b| decode(&b)).unwrap_or_default()))
    }
}

/// The parts of a RenLib record that carry no meaning of their own. `None` and `false` everywhere is what RenLib
/// writes; a file that did otherwise keeps its choice here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Raw {
    /// The comment was stored in the old form (RenLib's OLDCOMMENT bit: 7-bit text with Swedish letters).
    pub old_comment: bool,
    /// The extension word, when it was not just the board-text bit of a node with a board text.
    pub extension: Option<u16>,
    /// Whether a padding zero followed the comment's terminator, when it differed from RenLib's habit (texts are
    /// padded to an even length).
    pub comment_padded: Option<bool>,
    /// The same for the board text.
    pub text_padded: Option<bool>,
    /// The root's record lacked RIGHT though no move followed: an empty library from a writer that always writes
    /// the root (`00 00`, 22 bytes in all).
    pub root_open: bool,
}

/// A tree of variations from the empty board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// The nodes; `nodes[0]` is the root (the empty board).
    pub nodes: Vec<Node>,
    /// The board's side.
    pub size: usize,
    /// The rule the tree is about, when its file names one (RenLib libraries are renju).
    pub rule: Option<Rule>,
    /// The RenLib header the tree was read with (the 3.4 header for a new tree).
    pub header: [u8; renlib::HEADER_LEN],
    /// Whether the root is written as a record of its own (RenLib 3.4 and later) or the first move comes first
    /// (the 3.0 form).
    pub root_record: bool,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new(15)
    }
}

impl Tree {
    /// An empty tree on a board of side `size`.
    #[must_use]
    pub fn new(size: usize) -> Tree {
        Tree {
            nodes: vec![Node { is_move: true, ..Node::default() }],
            size,
            rule: None,
            header: renlib::HEADER_34,
            root_record: true,
        }
    }

    /// The root's index.
    pub const ROOT: NodeId = 0;

    /// Node `id`.
    #[must_use]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// Node `id`, to change.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id]
    }

    /// How many nodes the tree has (the root included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is only its root.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Adds `node` as the last variation of `parent` and returns its index.
    pub fn add(&mut self, parent: NodeId, mut node: Node) -> NodeId {
        let id = self.nodes.len();
        node.parent = Some(parent);
        node.children.clear();
        self.nodes.push(node);
        self.nodes[parent].children.push(id);
        id
    }

    /// Adds the move `point` below `parent`, or finds it there; returns its index.
    pub fn play(&mut self, parent: NodeId, point: Pos) -> NodeId {
        match self.child(parent, point) {
            Some(id) => id,
            None => self.add(parent, Node { point: Some(point), is_move: true, ..Node::default() }),
        }
    }

    /// The move `point` among `parent`'s variations.
    #[must_use]
    pub fn child(&self, parent: NodeId, point: Pos) -> Option<NodeId> {
        self.nodes[parent]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].is_move && self.nodes[c].point == Some(point))
    }

    /// The nodes from the root's first child down to `id`.
    #[must_use]
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = self.nodes[at].parent {
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    /// The moves played to reach `id` (its own included when it is a move).
    #[must_use]
    pub fn moves(&self, id: NodeId) -> Vec<Pos> {
        self.path(id).into_iter().filter(|&n| self.nodes[n].is_move).filter_map(|n| self.nodes[n].point).collect()
    }

    /// The colour of the stone move `id` puts down (Black first; nodes that are not moves do not count).
    #[must_use]
    pub fn color(&self, id: NodeId) -> Color {
        let before = self.moves(id).len() - usize::from(self.nodes[id].is_move && id != Tree::ROOT);
        Color::to_move(before)
    }

    /// The nodes in the order a RenLib file lists them (each node, then its variations' subtrees in order).
    #[must_use]
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![Tree::ROOT];
        while let Some(id) = stack.pop() {
            order.push(id);
            stack.extend(self.nodes[id].children.iter().rev());
        }
        order
    }

    /// The next variation after `id` among its parent's.
    #[must_use]
    pub fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        let parent = self.nodes[id].parent?;
        let siblings = &self.nodes[parent].children;
        let i = siblings.iter().position(|&c| c == id)?;
        siblings.get(i + 1).copied()
    }

    /// Whether the trees hold the same variations, comments, marks and texts in the same order, whatever their
    /// files' headers and node numbering.
    #[must_use]
    pub fn same_content(&self, other: &Tree) -> bool {
        fn same(a: &Tree, x: NodeId, b: &Tree, y: NodeId) -> bool {
            let (n, m) = (&a.nodes[x], &b.nodes[y]);
            (x == Tree::ROOT || (n.point == m.point && n.is_move == m.is_move))
                && n.mark == m.mark
                && n.start == m.start
                && n.comment == m.comment
                && n.board_text == m.board_text
                && n.children.len() == m.children.len()
                && n.children.iter().zip(&m.children).all(|(&c, &d)| same(a, c, b, d))
        }
        self.size == other.size && same(self, Tree::ROOT, other, Tree::ROOT)
    }
}

/// A comment's one-line part and its multi-line part (lines joined by `\n`), as stored bytes.
#[must_use]
pub fn split_comment(comment: &[u8]) -> (&[u8], Option<Vec<u8>>) {
    match comment.iter().position(|&b| b == COMMENT_SEPARATOR) {
        Some(i) => {
            let body = &comment[i + 1..];
            let mut lines = Vec::with_capacity(body.len());
            let mut k = 0;
            while k < body.len() {
                if body[k] == b'\r' && body.get(k + 1) == Some(&b'\n') {
                    k += 1;
                    continue;
                }
                lines.push(body[k]);
                k += 1;
            }
            (&comment[..i], Some(lines))
        }
        None => (comment, None),
    }
}

/// The stored form of a comment with a one-line part `title` and a multi-line part `body` (lines ending `\n` or
/// CR LF; stored with CR LF).
#[must_use]
pub fn join_comment(title: &[u8], body: Option<&[u8]>) -> Vec<u8> {
    let mut out = title.to_vec();
    if let Some(body) = body {
        out.push(COMMENT_SEPARATOR);
        for (i, &b) in body.iter().enumerate() {
            if b == b'\n' && (i == 0 || body[i - 1] != b'\r') {
                out.push(b'\r');
            }
            out.push(b);
        }
    }
    out
}

/// Text for people from a file's bytes: UTF-8 when the bytes are UTF-8, otherwise each byte as the Windows
/// Western code page (cp1252) reads it. Never fails; control bytes other than line ends become spaces.
#[must_use]
pub fn decode(bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| cp1252(b)).collect(),
    };
    text.chars().map(|c| if c.is_control() && c != '\n' && c != '\r' && c != '\t' { ' ' } else { c }).collect()
}

/// One byte of the Windows Western code page.
fn cp1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}', '\u{90}', '‘',
        '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9f => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// An old-form RenLib comment's bytes in the Western code page: the 7-bit Swedish letters (`{` for `ä`, `|` for
/// `ö`, `}` for `å` and their capitals) as the 8-bit ones.
#[must_use]
pub fn old_comment_bytes(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .map(|&b| match b {
            b'{' => 0xe4,
            b'|' => 0xf6,
            b'}' => 0xe5,
            b'[' => 0xc4,
            b'\\' => 0xd6,
            b']' => 0xc5,
            _ => b,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_colours_and_order_follow_the_variations() {
        let mut tree = Tree::new(15);
        let h8 = tree.play(Tree::ROOT, Pos::new(7, 7));
        let h9 = tree.play(h8, Pos::new(7, 6));
        let i9 = tree.play(h8, Pos::new(8, 6));
        assert_eq!(tree.play(h8, Pos::new(7, 6)), h9, "a move already there is found, not added");
        let text =
            tree.add(h9, Node { point: Some(Pos::new(9, 9)), board_text: Some(b"A".to_vec()), ..Node::default() });
        let j10 = tree.play(h9, Pos::new(9, 5));
        assert_eq!(tree.moves(j10), [Pos::new(7, 7), Pos::new(7, 6), Pos::new(9, 5)]);
        assert_eq!(tree.moves(text), [Pos::new(7, 7), Pos::new(7, 6)]);
        assert_eq!((tree.color(h8), tree.color(h9), tree.color(j10)), (Color::Black, Color::White, Color::Black));
        assert_eq!(tree.preorder(), [Tree::ROOT, h8, h9, text, j10, i9]);
        assert_eq!((tree.next_sibling(h9), tree.next_sibling(i9)), (Some(i9), None));
        assert!(tree.same_content(&tree.clone()));
        let mut other = tree.clone();
        other.node_mut(j10).mark = true;
        assert!(!tree.same_content(&other));
    }

    #[test]
    fn comments_split_and_join_and_any_bytes_decode() {
        let stored = join_comment(b"Sure win", Some(b"first line\nsecond"));
        assert_eq!(stored, b"Sure win\x08first line\r\nsecond");
        let (title, body) = split_comment(&stored);
        assert_eq!((title, body.as_deref()), (&b"Sure win"[..], Some(&b"first line\nsecond"[..])));
        assert_eq!(split_comment(b"only a title"), (&b"only a title"[..], None));
        assert_eq!(decode("Säker vinst".as_bytes()), "Säker vinst");
        assert_eq!(decode(b"S\xe4ker \x80 \x01"), "Säker €  ");
        assert_eq!(decode(&old_comment_bytes(b"S{ker")), "Säker");
    }
}
