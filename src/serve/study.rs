//! A game's tree of variations on the browser board: the RenLib library or SGF it was opened from, with the
//! variations, comments, marks and board texts added on the page. The game's line is always a path of the tree:
//! a move played off it becomes a new variation.

use super::Refused;
use crate::gametree::{Node, NodeId, Tree, decode, join_comment, renlib, split_comment};
use crate::types::Pos;
use serde_json::{Value, json};

/// The tree and the node the game's line has reached.
#[derive(Clone, Debug)]
pub struct Study {
    /// The tree.
    pub tree: Tree,
    /// Where the game is.
    pub at: NodeId,
    /// What reading the file stopped at, when it was damaged (what came before it is in the tree).
    pub warning: Option<String>,
}

impl Study {
    /// A study of `tree`, at its root.
    #[must_use]
    pub fn new(tree: Tree, warning: Option<String>) -> Study {
        Study { tree, at: Tree::ROOT, warning }
    }

    /// Follows `moves` from the root, adding what the tree lacks; the study is then at the end of the line.
    pub fn follow(&mut self, moves: &[Pos]) {
        let mut at = Tree::ROOT;
        for &p in moves {
            at = self.tree.play(at, p);
        }
        self.at = at;
    }

    /// The first variation's moves from `id` down (the line the redo button follows).
    #[must_use]
    pub fn main_line(&self, id: NodeId) -> Vec<Pos> {
        let mut line = Vec::new();
        let mut at = id;
        while let Some(next) = self.tree.node(at).children.iter().copied().find(|&c| self.tree.node(c).is_move) {
            match self.tree.node(next).point {
                Some(p) => line.push(p),
                None => break,
            }
            at = next;
        }
        line
    }

    /// A node by its number from the page.
    ///
    /// # Errors
    /// A 400 when the tree has no such node.
    pub fn node_id(&self, id: u64) -> Result<NodeId, Refused> {
        usize::try_from(id)
            .ok()
            .filter(|&i| i < self.tree.len())
            .ok_or_else(|| Refused::new(400, format!("the tree has no node {id}")))
    }

    /// Sets the current node's comment (both parts empty: none). The page's text is UTF-8.
    pub fn set_comment(&mut self, title: &str, body: &str) {
        let node = self.tree.node_mut(self.at);
        node.raw.old_comment = false;
        node.raw.comment_padded = None;
        let body = body.trim_end();
        node.comment = match (title.trim(), body) {
            ("", "") => None,
            (t, "") => Some(t.as_bytes().to_vec()),
            (t, b) => Some(join_comment(t.as_bytes(), Some(b.as_bytes()))),
        };
    }

    /// Adds `line` to the current node's comment, as a new line of its multi-line part.
    pub fn append_comment(&mut self, line: &str) {
        let (title, body) = self.comment_parts(self.at);
        let body = if body.is_empty() { line.to_string() } else { format!("{body}\n{line}") };
        self.set_comment(&title, &body);
    }

    /// Sets the current node's marks.
    pub fn set_marks(&mut self, mark: Option<bool>, start: Option<bool>) {
        let node = self.tree.node_mut(self.at);
        node.mark = mark.unwrap_or(node.mark);
        node.start = start.unwrap_or(node.start);
    }

    /// Puts a board text on `p` at the current node (an empty text takes it away).
    pub fn set_text(&mut self, p: Pos, text: &str) {
        let at = self.at;
        let existing = self.tree.node(at).children.iter().copied().find(|&c| {
            let n = self.tree.node(c);
            !n.is_move && n.point == Some(p) && n.board_text.is_some()
        });
        match (existing, text.trim()) {
            (Some(c), "") => self.tree.node_mut(at).children.retain(|&k| k != c),
            (Some(c), t) => {
                self.tree.node_mut(c).board_text = Some(t.as_bytes().to_vec());
                self.tree.node_mut(c).raw.text_padded = None;
            }
            (None, "") => {}
            (None, t) => {
                let id = self
                    .tree
                    .add(at, Node { point: Some(p), board_text: Some(t.as_bytes().to_vec()), ..Node::default() });
                // Board texts come before the node's moves, as RenLib lists them.
                let mut children = std::mem::take(&mut self.tree.node_mut(at).children);
                children.retain(|&k| k != id);
                let first_move = children.iter().position(|&k| self.tree.node(k).is_move).unwrap_or(children.len());
                children.insert(first_move, id);
                self.tree.node_mut(at).children = children;
            }
        }
    }

    /// A node's comment for people: its one-line part and its multi-line part.
    fn comment_parts(&self, id: NodeId) -> (String, String) {
        self.tree.node(id).comment_text().unwrap_or_default()
    }

    /// What the page shows of the tree at the current node: its comment and marks, the variations from here
    /// (moves, each with its node number and marks), the board texts, and the node's siblings.
    #[must_use]
    pub fn json(&self, size: usize) -> Value {
        let tree = &self.tree;
        let node = tree.node(self.at);
        let (title, body) = self.comment_parts(self.at);
        let variations: Vec<Value> = node
            .children
            .iter()
            .filter_map(|&c| {
                let n = tree.node(c);
                let p = n.point.filter(|_| n.is_move)?;
                Some(json!({
                    "node": c, "move": p.notation(size), "mark": n.mark, "comment": n.comment.is_some(),
                    "leaf": n.children.is_empty(),
                }))
            })
            .collect();
        let texts: Vec<Value> = node
            .children
            .iter()
            .filter_map(|&c| {
                let n = tree.node(c);
                let (p, text) = (n.point?, n.board_text.as_ref()?);
                (!n.is_move).then(|| json!({ "point": p.notation(size), "text": decode(text) }))
            })
            .collect();
        let siblings: Vec<NodeId> = node.parent.map_or_else(Vec::new, |parent| {
            tree.node(parent).children.iter().copied().filter(|&c| tree.node(c).is_move).collect()
        });
        json!({
            "nodes": self.nodes(),
            "at": self.at,
            "title": title,
            "body": body,
            "mark": node.mark,
            "start": node.start,
            "variations": variations,
            "texts": texts,
            "siblings": siblings,
            "warning": self.warning,
        })
    }

    /// The tree as a RenLib library, base64 for the page.
    ///
    /// # Errors
    /// A 409 when the board is not 15×15.
    pub fn library_base64(&self) -> Result<String, Refused> {
        renlib::write(&self.tree).map(|b| base64_encode(&b)).map_err(|e| Refused::new(409, e))
    }

    /// How many nodes the tree holds (board texts taken away on the page are no longer in it).
    #[must_use]
    pub fn nodes(&self) -> usize {
        self.tree.preorder().len() - 1
    }

    /// The tree as SGF for the page: texts in UTF-8 (a library's 8-bit texts as its code page reads them).
    #[must_use]
    pub fn sgf_text(&self) -> String {
        let mut tree = self.tree.clone();
        for node in &mut tree.nodes {
            if let Some(bytes) = node.comment_bytes() {
                node.comment = Some(decode_keeping_separator(&bytes));
                node.raw.old_comment = false;
            }
            if let Some(t) = &node.board_text {
                node.board_text = Some(decode(t).into_bytes());
            }
        }
        String::from_utf8_lossy(&crate::gametree::sgf::write(&tree)).into_owned()
    }
}

/// A stored comment's bytes as UTF-8, its separator and line ends kept.
fn decode_keeping_separator(bytes: &[u8]) -> Vec<u8> {
    let (title, body) = split_comment(bytes);
    let title = decode(title);
    join_comment(title.as_bytes(), body.map(|b| decode(&b)).as_deref().map(str::as_bytes))
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
#[must_use]
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(BASE64[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes base64 (whitespace ignored, padding optional).
///
/// # Errors
/// A character outside the alphabet.
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0);
    for (i, c) in text.bytes().enumerate() {
        if c.is_ascii_whitespace() || c == b'=' {
            continue;
        }
        let v = BASE64.iter().position(|&a| a == c).ok_or_else(|| format!("base64: bad character at {i}"))?;
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_goes_both_ways() {
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(base64_decode(&base64_encode(&bytes)), Ok(bytes));
        }
        assert_eq!(base64_encode(b"Man"), "TWFu");
        assert_eq!(base64_encode(b"Ma"), "TWE=");
        assert!(base64_decode("TW!u").is_err());
    }

    #[test]
    fn a_line_off_the_tree_becomes_a_variation_and_texts_come_first() {
        let mut study = Study::new(Tree::new(15), None);
        let (h8, h9, i9) = (Pos::new(7, 7), Pos::new(7, 6), Pos::new(8, 6));
        study.follow(&[h8, h9]);
        study.follow(&[h8, i9]);
        assert_eq!(study.tree.len(), 4);
        study.follow(&[h8]);
        assert_eq!(study.main_line(study.at), [h9]);
        study.set_text(Pos::new(9, 5), "A");
        let v = study.json(15);
        assert_eq!(v["variations"].as_array().map(Vec::len), Some(2));
        assert_eq!(v["texts"][0]["text"], "A");
        assert_eq!(study.tree.node(study.at).children.len(), 3);
        assert!(!study.tree.node(study.tree.node(study.at).children[0]).is_move, "the text comes first");
        study.set_comment("Good", "first\nsecond");
        study.append_comment("Tengen: Black 55%");
        let v = study.json(15);
        assert_eq!((v["title"].as_str(), v["body"].as_str()), (Some("Good"), Some("first\nsecond\nTengen: Black 55%")));
        study.set_text(Pos::new(9, 5), "");
        assert_eq!(study.json(15)["texts"].as_array().map(Vec::len), Some(0));
    }
}
