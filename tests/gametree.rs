//! RenLib libraries and SGF trees: hand-built files of every record kind, random trees written and read back byte
//! for byte, damaged files refused at their offset with what came before kept, and a library equal to the same
//! tree in SGF.

mod common;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tengen::gametree::{Node, Raw, Tree, join_comment, renlib, sgf};
use tengen::types::Pos;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tengen");

/// A point from `H8` notation.
fn at(text: &str) -> Pos {
    Pos::parse(text, 15).expect("point")
}

/// The RenLib header: magic, version, ten bytes FF.
fn header(major: u8, minor: u8) -> Vec<u8> {
    let mut h = vec![0xff, b'R', b'e', b'n', b'L', b'i', b'b', 0xff, major, minor];
    h.extend([0xff; 10]);
    h
}

/// A RenLib 3.4 library with one record of each kind (see the comment on each byte).
fn fixture_34() -> Vec<u8> {
    let mut b = header(3, 4);
    b.extend([
        0x00, 0x08, // the root record: no point; COMMENT; no RIGHT, so H8 below is its first child
    ]);
    b.extend(b"Root\0\0"); // its comment "Root": 4 bytes and the zero make 5, padded with one zero to 6
    b.extend([
        0x78, 0x00, // H8 (row 7 from the top in the high nibble, column 8 in the low): a move with a child
        0x68, 0x90, // H9: DOWN (a sibling, I9, follows its subtree) and MARK
        0x5a, 0xc3, // J10: DOWN, RIGHT (no child), NOMOVE (a board mark, not a move) and EXTENSION
        0x00, 0x01, // the extension word: a board text follows
    ]);
    b.extend(b"A\0"); // the board text "A" and its zero: even, no padding
    b.extend([
        0x5a, 0x48, // J10 again, the move: RIGHT and COMMENT; the stack gives back H8 for what follows
    ]);
    b.extend(b"Win\x08line one\r\nline two\0"); // one-line part, 0x08, two lines: 22 bytes and the zero make 23
    b.push(0); // the padding zero
    b.extend([
        0x69, 0x64, // I9, H8's second variation: RIGHT, OLDCOMMENT and START; no DOWN and an empty stack: the end
    ]);
    b.extend(b"S{ker\0"); // the old-form comment "Säker" ('{' for 'ä'): 5 bytes and the zero, even
    b
}

/// The tree `fixture_34` holds.
fn fixture_34_tree() -> Tree {
    let mut t = Tree::new(15);
    t.node_mut(Tree::ROOT).comment = Some(b"Root".to_vec());
    let h8 = t.play(Tree::ROOT, at("H8"));
    let h9 = t.play(h8, at("H9"));
    t.node_mut(h9).mark = true;
    t.add(h9, Node { point: Some(at("J10")), board_text: Some(b"A".to_vec()), ..Node::default() });
    let j10 = t.play(h9, at("J10"));
    t.node_mut(j10).comment = Some(join_comment(b"Win", Some(b"line one\nline two")));
    let i9 = t.play(h8, at("I9"));
    let node = t.node_mut(i9);
    node.start = true;
    node.comment = Some(b"S{ker".to_vec());
    node.raw.old_comment = true;
    t
}

/// A RenLib 3.0 library: no root record, the first move first.
fn fixture_30() -> Vec<u8> {
    let mut b = header(3, 0);
    b.extend([
        0x78, 0x00, // H8, the first record: a move with a child
        0x68, 0xc0, // H9: DOWN and RIGHT: a leaf with a sibling next
        0x69, 0x48, // I9: RIGHT and COMMENT, no DOWN, empty stack: the last record
    ]);
    b.extend(b"Good\0\0"); // "Good", its zero and the padding zero
    b
}

#[test]
fn every_record_kind_reads_as_built_and_writes_back_byte_for_byte() {
    let bytes = fixture_34();
    let (tree, error) = renlib::read(&bytes);
    assert_eq!(error, None);
    assert!(tree.root_record);
    assert!(tree.same_content(&fixture_34_tree()), "{tree:#?}");
    let i9 = tree.node(tree.node(1).children[1]);
    assert_eq!((i9.point, i9.raw.old_comment, i9.start), (Some(at("I9")), true, true));
    assert_eq!(renlib::write(&tree), Ok(bytes.clone()));
    // The tree built by hand (a new tree is the 3.4 form) writes the same file.
    assert_eq!(renlib::write(&fixture_34_tree()), Ok(bytes));

    let bytes = fixture_30();
    let (tree, error) = renlib::read(&bytes);
    assert_eq!(error, None);
    assert!(!tree.root_record);
    let mut built = Tree::new(15);
    let h8 = built.play(Tree::ROOT, at("H8"));
    built.play(h8, at("H9"));
    let i9 = built.play(h8, at("I9"));
    built.node_mut(i9).comment = Some(b"Good".to_vec());
    assert!(tree.same_content(&built));
    assert_eq!(renlib::write(&tree), Ok(bytes));

    // Texts written without RenLib's padding, and extension bits beyond the board text, are kept as they were.
    let mut odd = header(3, 4);
    odd.extend([0x00, 0x00, 0x78, 0x09, 0x12, 0x34]);
    odd.extend(b"Hi!\0"); // an even text that RenLib would not pad...
    odd.extend([0x77, 0x48]);
    odd.extend(b"ab\0"); // ...and an odd one it would, left unpadded by another writer
    let (tree, error) = renlib::read(&odd);
    assert_eq!(error, None);
    let h8 = tree.node(1);
    assert_eq!((h8.raw.extension, h8.comment.as_deref()), (Some(0x1234), Some(&b"Hi!"[..])));
    assert_eq!(tree.node(2).raw.comment_padded, Some(false));
    assert_eq!(renlib::write(&tree), Ok(odd));
}

#[test]
fn damaged_libraries_are_refused_at_their_offset_and_keep_what_came_before() {
    let full = fixture_34();
    let (whole, _) = renlib::read(&full);
    let mut last_nodes = 0;
    for len in 0..full.len() {
        let (tree, error) = renlib::read(&full[..len]);
        let Some(error) = error else {
            // Only the header alone is a whole (empty) library: the root record has a comment, so a cut after it
            // is damage, not the bare root of an empty library.
            assert_eq!(len, 20, "a cut at {len} read without error");
            continue;
        };
        assert!(error.offset <= len, "cut at {len}: {error}");
        assert!(error.expected.contains("end of the file") || len < 20, "cut at {len}: {error}");
        // What was read is a growing prefix of the whole tree.
        assert!(tree.len() >= last_nodes && tree.len() <= whole.len(), "cut at {len}");
        last_nodes = tree.len();
    }
    assert_eq!(last_nodes, whole.len() - 1, "the last cut keeps every node but the one whose comment it cuts");

    let with = |at: usize, byte: u8| {
        let mut b = full.clone();
        b[at] = byte;
        renlib::read(&b).1.map(|e| e.to_string()).unwrap_or_default()
    };
    assert!(with(3, b'X').starts_with("byte 3: expected a RenLib header"), "{}", with(3, b'X'));
    assert!(with(8, 2).starts_with("byte 8: expected RenLib version 3"));
    assert!(with(28, 0xf1).starts_with("byte 28: expected a point"), "{}", with(28, 0xf1));
    assert!(with(28, 0x70).starts_with("byte 28: expected a point"));
    assert!(with(21, 0x88).contains("root record without DOWN"));
    assert!(with(28, 0x00).contains("a point for a move"));
    let mut long = full.clone();
    long.extend([0x78, 0x40]);
    let (tree, error) = renlib::read(&long);
    assert_eq!(
        error.map(|e| e.to_string()),
        Some(format!("byte {}: expected the end of the file after the tree's last variation", full.len()))
    );
    assert!(tree.same_content(&whole));
    let mut open = header(3, 4);
    open.extend([0x00, 0x00, 0x78, 0x08]);
    open.extend(b"never ends");
    let (tree, error) = renlib::read(&open);
    assert_eq!(
        error.map(|e| e.to_string()),
        Some(
            "byte 24: expected a zero byte ending the comment that starts here, found the end of the file".to_string()
        )
    );
    assert_eq!(tree.len(), 1, "the record whose comment is cut is not kept");
}

/// Bytes for a text: anything but the zero that ends it, the comment separator and CR (line ends are `\n`).
fn random_text(rng: &mut StdRng, most: usize) -> Vec<u8> {
    let len = rng.random_range(0..=most);
    (0..len)
        .map(|_| {
            loop {
                let b: u8 =
                    if rng.random_range(0..4) == 0 { rng.random_range(1..=255) } else { rng.random_range(32..127) };
                if b != 0x08 && b != b'\r' {
                    break b;
                }
            }
        })
        .collect()
}

/// A random tree of about `n` nodes: moves with marks and comments, board texts first among a node's
/// variations; with `raw`, also the byte-level choices other writers make (old comments, padding, extension bits).
fn random_tree(rng: &mut StdRng, n: usize, raw: bool) -> Tree {
    let mut t = Tree::new(15);
    t.root_record = !raw || rng.random_range(0..2) == 0;
    if t.root_record && rng.random_range(0..2) == 0 {
        t.node_mut(Tree::ROOT).comment = Some(random_text(rng, 12));
    }
    let mut open = vec![Tree::ROOT];
    while t.len() < n {
        let parent = open[rng.random_range(0..open.len())];
        let used: Vec<Pos> = t.moves(parent);
        // Board texts come first among a node's variations (as SGF labels read back).
        let labels = t.node(parent).children.is_empty() && rng.random_range(0..3) == 0;
        if labels {
            for _ in 0..rng.random_range(1..3) {
                let p = Pos::new(rng.random_range(0..15), rng.random_range(0..15));
                let text = random_text(rng, 3);
                t.add(parent, Node { point: Some(p), board_text: Some(text), ..Node::default() });
            }
        }
        for _ in 0..rng.random_range(1..4) {
            let p = loop {
                let p = Pos::new(rng.random_range(0..15), rng.random_range(0..15));
                if !used.contains(&p) && t.child(parent, p).is_none() {
                    break p;
                }
            };
            let id = t.play(parent, p);
            let node = t.node_mut(id);
            node.mark = rng.random_range(0..5) == 0;
            node.start = rng.random_range(0..9) == 0;
            if rng.random_range(0..4) == 0 {
                let body = (rng.random_range(0..2) == 0).then(|| random_text(rng, 30));
                node.comment = Some(join_comment(&random_text(rng, 10), body.as_deref()));
            }
            if raw {
                node.raw = Raw {
                    old_comment: node.comment.is_some() && rng.random_range(0..3) == 0,
                    extension: (rng.random_range(0..4) == 0).then(|| rng.random_range(0..u16::MAX) & !1),
                    // Another writer's unpadded text where RenLib pads (text and zero of odd length).
                    comment_padded: (node.comment.as_ref().is_some_and(|c| c.len() % 2 == 0)
                        && rng.random_range(0..3) == 0)
                        .then_some(false),
                    text_padded: None,
                    root_open: false,
                };
            }
            if used.len() < 40 {
                open.push(id);
            }
        }
        open.retain(|&o| o != parent || rng.random_range(0..2) == 0);
        if open.is_empty() {
            open.push(Tree::ROOT);
        }
    }
    t
}

#[test]
fn random_libraries_go_out_and_back_byte_for_byte() {
    let mut rng = StdRng::seed_from_u64(26);
    for round in 0..60 {
        let tree = random_tree(&mut rng, 1 + round * 7, true);
        let bytes = renlib::write(&tree).expect("writes");
        let (back, error) = renlib::read(&bytes);
        assert_eq!(error, None, "round {round}");
        assert!(back.same_content(&tree), "round {round}");
        assert_eq!(renlib::write(&back).expect("writes"), bytes, "round {round}");
    }
}

#[test]
fn random_trees_go_through_sgf_and_a_library_equals_its_sgf() {
    let mut rng = StdRng::seed_from_u64(260);
    for round in 0..60 {
        let tree = random_tree(&mut rng, 1 + round * 5, false);
        let text = sgf::write(&tree);
        let back =
            sgf::read(&text).unwrap_or_else(|e| panic!("round {round}: {e}\n{}", String::from_utf8_lossy(&text)));
        assert!(back.same_content(&tree), "round {round}:\n{}", String::from_utf8_lossy(&text));
        // Through SGF and into a library: the same file as the tree's own.
        assert_eq!(renlib::write(&back), renlib::write(&tree), "round {round}");
    }
    // The 3.4 fixture and the same tree written by hand in SGF (the old comment is plain text there).
    let (lib, _) = renlib::read(&fixture_34());
    let hand =
        "(;FF[4]GM[4]SZ[15]N[Root];B[hh](;W[hg]RM[]LB[jf:A];B[jf]N[Win]C[line one\nline two])(;W[ig]N[Säker]RS[]))";
    let mut from_sgf = sgf::read(hand.as_bytes()).expect("reads");
    let mut expected = fixture_34_tree();
    let i9 = expected.node(1).children[1];
    let node = expected.node_mut(i9);
    node.comment = Some("Säker".as_bytes().to_vec());
    node.raw.old_comment = false;
    assert!(from_sgf.same_content(&expected), "{from_sgf:#?}");
    // With the old comment written the same way, the library's tree and the SGF's are one tree.
    let mut lib_new = lib.clone();
    let i9 = lib_new.node(1).children[1];
    lib_new.node_mut(i9).comment = Some("Säker".as_bytes().to_vec());
    lib_new.node_mut(i9).raw.old_comment = false;
    from_sgf.header = lib_new.header;
    assert!(lib_new.same_content(&from_sgf));
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-gametree-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn the_lib_command_dumps_converts_and_reports_damage() {
    let dir = scratch("cli");
    let lib = dir.join("fixture.lib");
    std::fs::write(&lib, fixture_34()).expect("write");
    // The exit code, then stdout, or for a failing run stderr.
    let run = |args: &[&str]| common::run_told(BIN, args);
    let (code, text) = run(&["lib", "dump", lib.to_str().expect("path")]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("RenLib 3.4 (with a root record): 5 nodes, 4 moves, 3 variation ends\n"), "{text}");
    assert!(text.contains("(start)  # Root\n"), "{text}");
    assert!(text.contains("H8 H9  [mark]\n"), "{text}");
    assert!(text.contains("H8 H9  text J10 \"A\"\n"), "{text}");
    assert!(text.contains("H8 H9 J10  # Win / line one / line two\n"), "{text}");
    assert!(text.contains("H8 I9  [start]  # Säker\n"), "{text}");

    let sgf_path = dir.join("fixture.sgf");
    let back = dir.join("back.lib");
    let (code, _) = run(&["lib", "to-sgf", lib.to_str().expect("path"), sgf_path.to_str().expect("path")]);
    assert_eq!(code, Some(0));
    let (code, text) = run(&["lib", "from-sgf", sgf_path.to_str().expect("path"), back.to_str().expect("path")]);
    assert_eq!((code, text.as_str()), (Some(0), format!("{}: 5 nodes\n", back.display()).as_str()));
    let (tree, error) = renlib::read(&std::fs::read(&back).expect("written"));
    assert_eq!(error, None);
    assert_eq!(tree.len(), 6, "five nodes and the root");

    // A cut library: what was read is dumped, then the error with its offset, and the command fails.
    let cut = dir.join("cut.lib");
    std::fs::write(&cut, &fixture_34()[..40]).expect("write");
    let (code, text, err) = common::run_split(BIN, &["lib", "dump", cut.to_str().expect("path")]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("H8 H9  text J10 \"A\"") && !text.contains("error"), "{text}");
    assert!(
        err.contains(&format!(
            "error: {}: byte 40: expected a zero byte ending the comment that starts here, found the end of the file",
            cut.display()
        )),
        "{err}"
    );
    let (code, text) = run(&["lib", "dump", dir.join("missing.lib").to_str().expect("path")]);
    assert_eq!(code, Some(2));
    assert!(text.starts_with("error: cannot read"), "{text}");
    let (code, text) = run(&["lib", "frobnicate"]);
    assert_eq!(code, Some(2));
    assert!(text.starts_with("error: expected lib dump"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The two empty libraries: the header alone, and the header with a root record that has no child but lacks
/// RIGHT (`00 00`, 22 bytes), as a writer that always writes the root leaves an empty library.
fn empty_libraries() -> [(&'static str, Vec<u8>); 2] {
    let mut rooted = header(3, 4);
    rooted.extend([0x00, 0x00]);
    [("header-only", header(3, 4)), ("root-only", rooted)]
}

#[test]
fn empty_libraries_read_as_empty_trees_and_write_back_byte_for_byte() {
    for (name, bytes) in empty_libraries() {
        let (tree, error) = renlib::read(&bytes);
        assert_eq!(error, None, "{name}");
        assert!(tree.is_empty(), "{name}: no node but the root");
        assert_eq!(renlib::write(&tree).as_ref(), Ok(&bytes), "{name}");
    }
    let (_, rooted) = &empty_libraries()[1];
    assert_eq!(rooted.len(), 22);
    // The root with RIGHT (no child) is empty too; a root without RIGHT and with a move still has its child.
    let mut right = header(3, 4);
    right.extend([0x00, 0x40]);
    assert_eq!(renlib::read(&right).1, None);
    let mut child = rooted.clone();
    child.extend([0x78, 0x40]);
    let (tree, error) = renlib::read(&child);
    assert_eq!((error, tree.moves(1)), (None, vec![at("H8")]));
    assert_eq!(renlib::write(&tree), Ok(child));
}

#[test]
fn the_lib_command_opens_empty_libraries_as_empty() {
    let dir = scratch("empty");
    // The exit code, then stdout, or for a failing run stderr.
    let run = |args: &[&str]| common::run_told(BIN, args);
    for (name, bytes) in empty_libraries() {
        let lib = dir.join(format!("{name}.lib"));
        std::fs::write(&lib, &bytes).expect("write");
        let lib = lib.to_str().expect("path");
        let (code, text) = run(&["lib", "dump", lib]);
        assert_eq!(code, Some(0), "{name}: {text}");
        assert!(text.ends_with("): 0 nodes, 0 moves, 0 variation ends\n"), "{name}: {text}");
        assert_eq!(text.lines().count(), 1, "{name}: {text}");
        let (code, text) = run(&["lib", "to-sgf", lib]);
        assert_eq!((code, text.as_str()), (Some(0), "(;FF[4]GM[4]AP[tengen]SZ[15]CA[UTF-8])\n"), "{name}");
        let sgf_path = dir.join(format!("{name}.sgf"));
        let sgf_path = sgf_path.to_str().expect("path");
        let (code, _) = run(&["lib", "to-sgf", lib, sgf_path]);
        assert_eq!(code, Some(0), "{name}");
        let back = dir.join(format!("{name}-back.lib"));
        let (code, text) = run(&["lib", "from-sgf", sgf_path, back.to_str().expect("path")]);
        assert_eq!(code, Some(0), "{name}: {text}");
        assert!(text.ends_with(": 0 nodes\n"), "{name}: {text}");
        let (tree, error) = renlib::read(&std::fs::read(&back).expect("written"));
        assert_eq!((error, tree.is_empty()), (None, true), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
