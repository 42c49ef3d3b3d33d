//! SGF (FF[4], GM[4]) with variations, read into a [`Tree`] and written from one.
//!
//! Moves are `B[..]`/`W[..]` with points as two letters from the top-left corner (`hh` is H8 on 15×15). A comment's
//! one-line part is the node's name `N[..]`, its multi-line part `C[..]`. A board text on a point is a label
//! `LB[pt:text]` of the node it is shown at (RenLib keeps it as a "no move" child of that node, and reading puts
//! it back there, before the node's moves). RenLib's marks have no SGF property of their own: they travel as the
//! private properties `RM[]` (mark) and `RS[]` (start mark), and a no-move node that is more than a label as
//! `NM[pt]` with its text in `TX[..]`. Values are kept as the file's bytes, in its own encoding.

use super::{Node, NodeId, Tree, join_comment, split_comment};
use crate::types::{Color, MAX_SIZE, MIN_SIZE, Pos, Rule};

/// The SGF text of `tree`.
#[must_use]
pub fn write(tree: &Tree) -> Vec<u8> {
    let mut out = format!("(;FF[4]GM[4]AP[tengen]SZ[{}]", tree.size).into_bytes();
    // The character set is named when every text is UTF-8; otherwise the texts are a library's own 8-bit bytes.
    let utf8 = |b: &Option<Vec<u8>>| b.as_ref().is_none_or(|b| std::str::from_utf8(b).is_ok());
    if tree.nodes.iter().all(|n| utf8(&n.comment) && utf8(&n.board_text) && !(n.raw.old_comment && n.comment.is_some()))
    {
        out.extend_from_slice(b"CA[UTF-8]");
    }
    if let Some(rule) = tree.rule {
        out.extend_from_slice(format!("RU[{}]", rule.name()).as_bytes());
    }
    properties(tree, Tree::ROOT, &mut out);
    // What is left to write, the next step last: a node (in parentheses when it is one of several variations),
    // or the parenthesis that closes a variation.
    enum Step {
        Node(NodeId, bool),
        Close,
    }
    let variations = |id: NodeId| -> Vec<NodeId> {
        tree.node(id).children.iter().copied().filter(|&c| !is_label(tree.node(c))).collect()
    };
    let push_variations = |id: NodeId, stack: &mut Vec<Step>| {
        let kids = variations(id);
        let several = kids.len() > 1;
        stack.extend(kids.into_iter().rev().map(|k| Step::Node(k, several)));
    };
    let mut stack = Vec::new();
    push_variations(Tree::ROOT, &mut stack);
    while let Some(step) = stack.pop() {
        let (kid, several) = match step {
            Step::Close => {
                out.push(b')');
                continue;
            }
            Step::Node(kid, several) => (kid, several),
        };
        if several {
            out.push(b'(');
            stack.push(Step::Close);
        }
        out.push(b';');
        let node = tree.node(kid);
        if node.is_move
            && let Some(p) = node.point
        {
            out.push(if tree.color(kid) == Color::Black { b'B' } else { b'W' });
            out.extend_from_slice(format!("[{}]", point(p)).as_bytes());
        } else {
            out.extend_from_slice(b"NM[");
            if let Some(p) = node.point {
                out.extend_from_slice(point(p).as_bytes());
            }
            out.push(b']');
            if let Some(text) = &node.board_text {
                value(b"TX", text, &mut out);
            }
        }
        properties(tree, kid, &mut out);
        push_variations(kid, &mut stack);
    }
    out.extend_from_slice(b")\n");
    out
}

/// Whether a node is a plain board text, written as a label of its parent.
fn is_label(node: &Node) -> bool {
    !node.is_move
        && node.point.is_some()
        && node.board_text.is_some()
        && node.comment.is_none()
        && node.children.is_empty()
        && !node.mark
        && !node.start
        && node.raw == super::Raw::default()
}

/// A node's comment, marks and labels.
fn properties(tree: &Tree, id: NodeId, out: &mut Vec<u8>) {
    let node = tree.node(id);
    if let Some(comment) = node.comment_bytes() {
        let (title, body) = split_comment(&comment);
        if !title.is_empty() || body.is_none() {
            value(b"N", title, out);
        }
        if let Some(body) = body {
            value(b"C", &body, out);
        }
    }
    if node.mark {
        out.extend_from_slice(b"RM[]");
    }
    if node.start {
        out.extend_from_slice(b"RS[]");
    }
    let labels: Vec<&Node> = node.children.iter().map(|&c| tree.node(c)).filter(|n| is_label(n)).collect();
    if !labels.is_empty() {
        out.extend_from_slice(b"LB");
        for label in labels {
            let (Some(p), Some(text)) = (label.point, &label.board_text) else { continue };
            let mut v = format!("{}:", point(p)).into_bytes();
            v.extend_from_slice(text);
            escaped(&v, out);
        }
    }
}

/// `ID[value]`, escaped.
fn value(id: &[u8], v: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(id);
    escaped(v, out);
}

/// `[value]` with `]` and `\` escaped.
fn escaped(v: &[u8], out: &mut Vec<u8>) {
    out.push(b'[');
    for &b in v {
        if b == b']' || b == b'\\' {
            out.push(b'\\');
        }
        out.push(b);
    }
    out.push(b']');
}

/// A point as SGF letters.
fn point(p: Pos) -> String {
    format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)
}

/// Reads the first game of an SGF collection into a tree.
///
/// # Errors
/// What is wrong and the byte offset where it was found.
pub fn read(bytes: &[u8]) -> Result<Tree, String> {
    let mut p = Parser { bytes, at: 0 };
    p.skip_space();
    if p.bytes[p.at..].starts_with(b"\xef\xbb\xbf") {
        p.at += 3;
        p.skip_space();
    }
    if p.peek() != Some(b'(') {
        return Err(p.error("'(' (SGF starts a game with it)"));
    }
    let mut tree = Tree::new(15);
    // The node each open '(' goes back to.
    let mut stack: Vec<NodeId> = Vec::new();
    let mut cur = Tree::ROOT;
    let mut seen_root = false;
    loop {
        p.skip_space();
        let Some(c) = p.peek() else {
            return Err(p.error(format!("')' to close {} open variation(s), found the end of the file", stack.len())));
        };
        p.at += 1;
        match c {
            b'(' => stack.push(cur),
            b')' => {
                cur = stack.pop().ok_or_else(|| p.error_at(p.at - 1, "no ')' without its '('"))?;
                if stack.is_empty() {
                    return if seen_root { Ok(tree) } else { Err(p.error_at(p.at - 1, "a node ';' before ')'")) };
                }
            }
            b';' => {
                let start = p.at - 1;
                let props = p.properties()?;
                if seen_root {
                    cur = node(&mut tree, cur, &props).map_err(|e| format!("byte {start}: {e}"))?;
                } else {
                    seen_root = true;
                    root(&mut tree, &props).map_err(|e| format!("byte {start}: {e}"))?;
                }
            }
            _ => return Err(p.error_at(p.at - 1, format!("'(', ';' or ')', found '{}'", char::from(c)))),
        }
    }
}

/// A node's properties: identifier and values.
type Properties = Vec<(String, Vec<Vec<u8>>)>;

/// The first node's properties: size, rule, comment, marks, labels.
fn root(tree: &mut Tree, props: &Properties) -> Result<(), String> {
    for (id, values) in props {
        let first = values.first().map(|v| String::from_utf8_lossy(v).trim().to_string()).unwrap_or_default();
        match id.as_str() {
            "GM" if first != "4" && !first.is_empty() => {
                return Err(format!("GM[{first}] is not gomoku/renju (GM[4])"));
            }
            "SZ" => {
                let side = first.split(':').next().unwrap_or_default();
                let size: usize = side.parse().map_err(|_| format!("bad board size SZ[{first}]"))?;
                if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                    return Err(format!("board size {size} is not supported ({MIN_SIZE} to {MAX_SIZE})"));
                }
                tree.size = size;
            }
            "RU" => tree.rule = first.parse::<Rule>().ok(),
            "B" | "W" => return Err("a move in the first node (it holds the game's settings)".to_string()),
            _ => {}
        }
    }
    annotate(tree, Tree::ROOT, props)
}

/// A node after the first: a move or a no-move mark below `parent` (returned), or, with neither, more comment
/// and labels for `parent`.
fn node(tree: &mut Tree, parent: NodeId, props: &Properties) -> Result<NodeId, String> {
    let get = |id: &str| props.iter().find(|(k, _)| k == id).map(|(_, v)| v);
    if let Some((_, _)) = props.iter().find(|(k, _)| matches!(k.as_str(), "AB" | "AW" | "AE")) {
        return Err("setup stones (AB, AW, AE) have no place in a tree of moves".to_string());
    }
    let mv = match (get("B"), get("W")) {
        (Some(_), Some(_)) => return Err("a node with both B and W".to_string()),
        (Some(v), None) => Some((Color::Black, v)),
        (None, Some(v)) => Some((Color::White, v)),
        (None, None) => None,
    };
    let id = if let Some((color, values)) = mv {
        if values.len() > 1 {
            return Err(format!("bad point: {} has {} points, a move is one", letter(color), values.len()));
        }
        let text = values.first().cloned().unwrap_or_default();
        let p = parse_point(&text, tree.size).ok_or_else(|| {
            format!("bad point {}[{}] (passes are not moves here)", letter(color), String::from_utf8_lossy(&text))
        })?;
        let turn = Color::to_move(tree.moves(parent).len());
        if color != turn {
            return Err(format!(
                "{}[{}] is out of turn: it is {}'s move",
                letter(color),
                point(p),
                if turn == Color::Black { "Black" } else { "White" }
            ));
        }
        tree.add(parent, Node { point: Some(p), is_move: true, ..Node::default() })
    } else if let Some(values) = get("NM") {
        let text = values.first().cloned().unwrap_or_default();
        let p = if text.is_empty() {
            None
        } else {
            Some(
                parse_point(&text, tree.size)
                    .ok_or_else(|| format!("bad point NM[{}]", String::from_utf8_lossy(&text)))?,
            )
        };
        let board_text = get("TX").and_then(|v| v.first().cloned());
        tree.add(parent, Node { point: p, is_move: false, board_text, ..Node::default() })
    } else {
        parent
    };
    annotate(tree, id, props)?;
    Ok(id)
}

/// Comment, marks and labels onto node `id` (a comment joins one the node already has).
fn annotate(tree: &mut Tree, id: NodeId, props: &Properties) -> Result<(), String> {
    let get = |key: &str| props.iter().find(|(k, _)| k == key).and_then(|(_, v)| v.first());
    let title = get("N");
    let body = get("C");
    if title.is_some() || body.is_some() {
        let fresh = join_comment(title.map_or(&[][..], Vec::as_slice), body.map(Vec::as_slice));
        let node = tree.node_mut(id);
        node.comment = Some(match node.comment.take() {
            Some(mut old) => {
                old.extend_from_slice(b"\r\n");
                old.extend_from_slice(&fresh);
                old
            }
            None => fresh,
        });
    }
    let node = tree.node_mut(id);
    node.mark |= get("RM").is_some();
    node.start |= get("RS").is_some();
    if let Some((_, labels)) = props.iter().find(|(k, _)| k == "LB") {
        let first_label = tree.len();
        for label in labels {
            let colon = label.iter().position(|&b| b == b':');
            let p = colon.and_then(|c| parse_point(&label[..c], tree.size));
            let (Some(c), Some(p)) = (colon, p) else {
                return Err(format!("bad label LB[{}] (expected point:text)", String::from_utf8_lossy(label)));
            };
            let text = label[c + 1..].to_vec();
            tree.add(id, Node { point: Some(p), is_move: false, board_text: Some(text), ..Node::default() });
        }
        // Labels come before the node's moves, as RenLib lists them.
        let children = std::mem::take(&mut tree.node_mut(id).children);
        let (labels, rest): (Vec<NodeId>, Vec<NodeId>) = children.into_iter().partition(|&c| c >= first_label);
        tree.node_mut(id).children = labels.into_iter().chain(rest).collect();
    }
    Ok(())
}

/// Two SGF letters on a board of `size`.
fn parse_point(text: &[u8], size: usize) -> Option<Pos> {
    match text {
        [x, y] if x.is_ascii_lowercase() && y.is_ascii_lowercase() => {
            let (x, y) = (usize::from(x - b'a'), usize::from(y - b'a'));
            (x < size && y < size).then(|| Pos::new(x, y))
        }
        _ => None,
    }
}

fn letter(c: Color) -> char {
    if c == Color::Black { 'B' } else { 'W' }
}

/// A cursor over SGF bytes.
struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn error(&self, expected: impl std::fmt::Display) -> String {
        self.error_at(self.at, expected)
    }

    fn error_at(&self, at: usize, expected: impl std::fmt::Display) -> String {
        format!("byte {at}: expected {expected}")
    }

    /// The properties of a node, up to the next `;`, `(` or `)`.
    fn properties(&mut self) -> Result<Properties, String> {
        let mut props: Properties = Vec::new();
        loop {
            self.skip_space();
            let mut id = String::new();
            while let Some(b) = self.peek().filter(u8::is_ascii_alphabetic) {
                // Lower-case letters in identifiers are an old form (FF[3]): they do not count.
                if b.is_ascii_uppercase() {
                    id.push(char::from(b));
                }
                self.at += 1;
            }
            self.skip_space();
            if id.is_empty() {
                return match self.peek() {
                    Some(b';' | b'(' | b')') | None => Ok(props),
                    Some(b) => Err(self.error(format!("a property, found '{}'", char::from(b)))),
                };
            }
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                let start = self.at;
                self.at += 1;
                let mut v = Vec::new();
                loop {
                    let Some(b) = self.peek() else {
                        return Err(
                            self.error_at(start, format!("']' to close {id}'s value, found the end of the file"))
                        );
                    };
                    self.at += 1;
                    match b {
                        b']' => break,
                        b'\\' => match self.peek() {
                            // An escaped line break is a soft one: nothing.
                            Some(b'\n' | b'\r') => {
                                let first = self.peek();
                                self.at += 1;
                                if matches!(
                                    (first, self.peek()),
                                    (Some(b'\r'), Some(b'\n')) | (Some(b'\n'), Some(b'\r'))
                                ) {
                                    self.at += 1;
                                }
                            }
                            Some(e) => {
                                v.push(e);
                                self.at += 1;
                            }
                            None => {}
                        },
                        _ => v.push(b),
                    }
                }
                values.push(v);
                self.skip_space();
            }
            if values.is_empty() {
                return Err(self.error(format!("a value '[' for {id}")));
            }
            match props.iter_mut().find(|(k, _)| *k == id) {
                Some((_, old)) => old.extend(values),
                None => props.push((id, values)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variations_comments_and_labels_go_out_and_back() {
        let text = b"(;FF[4]GM[4]SZ[15]RU[renju]C[root\\]note];B[hh]N[main](;W[hi]LB[jj:A][ii:B];B[ji])(;W[ii]RM[]))";
        let tree = read(text).expect("reads");
        assert_eq!(tree.rule, Some(Rule::Renju));
        assert_eq!(tree.node(Tree::ROOT).comment.as_deref(), Some(&b"\x08root]note"[..]));
        let h8 = tree.node(Tree::ROOT).children[0];
        assert_eq!(tree.node(h8).comment.as_deref(), Some(&b"main"[..]));
        let kids = &tree.node(h8).children;
        assert_eq!(kids.len(), 2);
        let h9 = kids[0];
        // The labels come first, then the move.
        let h9_kids: Vec<(bool, Option<Pos>)> =
            tree.node(h9).children.iter().map(|&c| (tree.node(c).is_move, tree.node(c).point)).collect();
        assert_eq!(
            h9_kids,
            [(false, Some(Pos::new(9, 9))), (false, Some(Pos::new(8, 8))), (true, Some(Pos::new(9, 8)))]
        );
        assert!(tree.node(kids[1]).mark);
        let again = read(&write(&tree)).expect("reads its own");
        assert!(tree.same_content(&again), "{}", String::from_utf8_lossy(&write(&tree)));
        assert_eq!(write(&again), write(&tree));
    }

    #[test]
    fn bad_sgf_is_refused_with_its_offset() {
        for (text, needle) in [
            (&b"nonsense"[..], "byte 0: expected '('"),
            (b"(;SZ[15];B[hh];B[hi])", "out of turn"),
            (b"(;SZ[15];B[hh]", "end of the file"),
            (b"(;SZ[99])", "size"),
            (b"(;SZ[15];B[zz])", "bad point"),
            (b"(;SZ[15];B[])", "passes"),
            (b"(;SZ[15];AB[hh])", "setup"),
            (b"(;SZ[15];W[hh]", "out of turn"),
            (b"(;SZ[15]C[open", "']'"),
            (b"(;SZ[15];B[hh]LB[xx])", "label"),
            (b"(;SZ[15]B[hh])", "first node"),
            (b"(;SZ[15];B[hh];W[hi]W[hj])", "bad point"),
        ] {
            let e = read(text).expect_err(&String::from_utf8_lossy(text));
            assert!(e.contains(needle), "{} -> {e}", String::from_utf8_lossy(text));
        }
    }
}
