//! The browser board's trees through its API: a RenLib library opened, a variation followed and its comment read,
//! a new variation added with a comment, a board text, a mark and the engine's evaluation, and the tree saved back
//! as a library and as SGF; a damaged library opens up to the damage with a warning.

use serde_json::Value;
use std::time::{Duration, Instant};
use tengen::gametree::{Node, Tree, renlib};
use tengen::serve::api::Games;
use tengen::serve::study::{base64_decode, base64_encode};
use tengen::types::Pos;

fn call(games: &Games, method: &str, path: &str, body: &str) -> (u16, Value) {
    let reply = games.handle(method, path, body);
    let value = serde_json::from_str(&reply.body).unwrap_or(Value::String(reply.body.clone()));
    (reply.status, value)
}

fn at(text: &str) -> Pos {
    Pos::parse(text, 15).expect("point")
}

/// H8, then H9 (marked) or I9 (with a comment in a Western code page), and a board text below H8.
fn library() -> Vec<u8> {
    let mut t = Tree::new(15);
    let h8 = t.play(Tree::ROOT, at("H8"));
    t.add(h8, Node { point: Some(at("K10")), board_text: Some(b"A".to_vec()), ..Node::default() });
    let h9 = t.play(h8, at("H9"));
    t.node_mut(h9).mark = true;
    let i9 = t.play(h8, at("I9"));
    t.node_mut(i9).comment = Some(b"S\xe4ker\x08sure win\r\nfor Black".to_vec());
    renlib::write(&t).expect("writes")
}

fn variations(state: &Value) -> Vec<String> {
    state["tree"]["variations"]
        .as_array()
        .map(|v| v.iter().filter_map(|x| x["move"].as_str().map(String::from)).collect())
        .unwrap_or_default()
}

#[test]
fn a_library_is_opened_followed_annotated_and_saved() {
    let games = Games::default();
    let id = call(&games, "POST", "/api/games", "").1["id"].as_str().map(String::from).expect("id");
    let path = |rest: &str| format!("/api/games/{id}/{rest}");
    let body = serde_json::json!({ "lib": base64_encode(&library()) }).to_string();
    let (status, state) = call(&games, "POST", &path("load"), &body);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["tree"]["nodes"], 4);
    assert_eq!(variations(&state), ["H8"]);
    assert_eq!(state["redo"][0], "H8", "redo follows the first variation");

    // Into the tree: the variations at H8 and its board text.
    let (_, state) = call(&games, "POST", &path("play"), r#"{"move": "h8"}"#);
    assert_eq!(variations(&state), ["H9", "I9"]);
    assert_eq!(state["tree"]["texts"][0]["point"], "K10");
    assert_eq!(state["tree"]["texts"][0]["text"], "A");
    let i9 = state["tree"]["variations"][1]["node"].as_u64().expect("node");
    assert_eq!(state["tree"]["variations"][0]["mark"], true);
    // The second variation, selected by its node: its comment, read in its code page.
    let (status, state) = call(&games, "POST", &path("tree/select"), &format!(r#"{{"node": {i9}}}"#));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"], serde_json::json!(["H8", "I9"]));
    assert_eq!(state["tree"]["title"], "Säker");
    assert_eq!(state["tree"]["body"], "sure win\nfor Black");
    assert_eq!(call(&games, "POST", &path("tree/select"), r#"{"node": 999}"#).0, 400);

    // A new variation with a comment, a mark, a board text and the engine's evaluation.
    call(&games, "POST", &path("undo"), "");
    let (_, state) = call(&games, "POST", &path("play"), r#"{"move": "j9"}"#);
    assert_eq!(state["tree"]["nodes"], 5, "the move off the tree is a new variation");
    call(&games, "POST", &path("tree/comment"), r#"{"title": "new idea", "body": ""}"#);
    call(&games, "POST", &path("tree/mark"), r#"{"mark": true}"#);
    let (_, state) = call(&games, "POST", &path("tree/text"), r#"{"point": "k11", "text": "B"}"#);
    assert_eq!(state["tree"]["texts"][0]["text"], "B");
    assert_eq!(call(&games, "POST", &path("tree/evaluation"), "").0, 409, "no analysis yet");
    call(&games, "POST", &path("analysis"), "");
    let start = Instant::now();
    while call(&games, "GET", &path("analysis"), "").1["best"].is_null() {
        assert!(start.elapsed() < Duration::from_secs(30), "the analysis found no move");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (status, state) = call(&games, "POST", &path("tree/evaluation"), "");
    assert_eq!(status, 200, "{state}");
    assert!(state["tree"]["body"].as_str().is_some_and(|b| b.starts_with("Tengen: ")), "{state}");
    call(&games, "DELETE", &path("analysis"), "");

    // Saved as a library: the old variations and the new one with everything added.
    let (status, saved) = call(&games, "GET", &path("lib"), "");
    assert_eq!(status, 200, "{saved}");
    let bytes = base64_decode(saved["lib"].as_str().expect("lib")).expect("base64");
    let (tree, error) = renlib::read(&bytes);
    assert_eq!(error, None);
    let h8 = tree.child(Tree::ROOT, at("H8")).expect("h8");
    let j9 = tree.child(h8, at("J9")).expect("the new variation");
    let node = tree.node(j9);
    assert!(node.mark);
    assert!(node.comment.as_ref().is_some_and(|c| c.starts_with(b"new idea\x08Tengen: ")), "{node:?}");
    let text = tree.node(node.children[0]);
    assert_eq!((text.is_move, text.point, text.board_text.as_deref()), (false, Some(at("K11")), Some(&b"B"[..])));
    assert_eq!(
        tree.node(tree.child(h8, at("I9")).expect("i9")).comment.as_deref(),
        Some(&b"S\xe4ker\x08sure win\r\nfor Black"[..])
    );
    // And as SGF, in UTF-8.
    let sgf = games.handle("GET", &path("sgf"), "").body;
    assert!(sgf.contains("CA[UTF-8]") && sgf.contains("N[Säker]") && sgf.contains("N[new idea]"), "{sgf}");
    assert!(sgf.contains("LB[kf:A]") && sgf.contains("LB[ke:B]"), "{sgf}");
    // The SGF opens as the same tree.
    let body = serde_json::json!({ "sgf": sgf }).to_string();
    let (status, state) = call(&games, "POST", &path("load"), &body);
    assert_eq!((status, state["tree"]["nodes"].as_u64()), (200, Some(6)), "{state}");
}

#[test]
fn a_damaged_library_opens_up_to_the_damage_and_a_plain_game_has_no_tree() {
    let games = Games::default();
    let id = call(&games, "POST", "/api/games", "").1["id"].as_str().map(String::from).expect("id");
    let path = |rest: &str| format!("/api/games/{id}/{rest}");
    let bytes = library();
    let body = serde_json::json!({ "lib": base64_encode(&bytes[..bytes.len() - 3]) }).to_string();
    let (status, state) = call(&games, "POST", &path("load"), &body);
    assert_eq!(status, 200, "{state}");
    assert!(state["tree"]["warning"].as_str().is_some_and(|w| w.contains("byte")), "{state}");
    assert_eq!(state["tree"]["nodes"], 3, "the node whose comment is cut is not open");
    let (status, v) = call(&games, "POST", &path("load"), r#"{"lib": "AAAA"}"#);
    assert_eq!(status, 400);
    assert!(v["error"].as_str().is_some_and(|e| e.contains("RenLib header")), "{v}");
    assert_eq!(call(&games, "POST", &path("load"), r#"{"lib": "no base64!"}"#).0, 400);
    // A plain SGF game opens as before: the moves played, no tree; a tree can then be started from it.
    let (_, state) = call(&games, "POST", &path("load"), r#"{"sgf": "(;SZ[15];B[hh];W[hi])"}"#);
    assert_eq!((state["moves"].as_array().map(Vec::len), state["tree"].is_null()), (Some(2), true));
    assert_eq!(call(&games, "GET", &path("lib"), "").0, 409);
    assert_eq!(call(&games, "POST", &path("tree/comment"), r#"{"title": "x"}"#).0, 409);
    let (_, state) = call(&games, "POST", &path("tree"), "");
    assert_eq!(state["tree"]["nodes"], 2);
}

#[test]
fn empty_libraries_open_as_empty_trees() {
    // The header alone, and the header with a root record that has no child and lacks RIGHT (22 bytes).
    let header = renlib::HEADER_34.to_vec();
    let mut rooted = header.clone();
    rooted.extend([0x00, 0x00]);
    let games = Games::default();
    let id = call(&games, "POST", "/api/games", "").1["id"].as_str().map(String::from).expect("id");
    let path = |rest: &str| format!("/api/games/{id}/{rest}");
    for (name, bytes) in [("header-only", header), ("root-only", rooted)] {
        let body = serde_json::json!({ "lib": base64_encode(&bytes) }).to_string();
        let (status, state) = call(&games, "POST", &path("load"), &body);
        assert_eq!(status, 200, "{name}: {state}");
        assert_eq!(state["tree"]["nodes"], 0, "{name}: {state}");
        assert!(state["tree"]["warning"].is_null(), "{name}: {state}");
        assert_eq!(variations(&state), Vec::<String>::new(), "{name}");
        assert_eq!(state["moves"].as_array().map(Vec::len), Some(0), "{name}: {state}");
        // Saved back, it is the same file.
        let (status, saved) = call(&games, "GET", &path("lib"), "");
        assert_eq!(status, 200, "{name}: {saved}");
        assert_eq!(saved["lib"].as_str().map(base64_decode), Some(Ok(bytes)), "{name}");
        // A first move on the empty tree is its first variation.
        let (_, state) = call(&games, "POST", &path("play"), r#"{"move": "h8"}"#);
        assert_eq!(state["tree"]["nodes"], 1, "{name}: {state}");
    }
}
