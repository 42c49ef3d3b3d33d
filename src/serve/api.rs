//! The browser board's JSON API: every request is a method, a path and a body, answered with a status and a body.
//! Games live in a [`Games`] store under random ids, each behind its own lock, so that tabs do not wait on each
//! other. Bad requests get a 4xx with `{"error": "..."}`.
//!
//! | method and path | body | answer |
//! |---|---|---|
//! | `POST /api/games` | `{"size": 15, "rule": "renju"}` (both optional) | `{"id", "state"}` |
//! | `GET /api/games/ID` | | the state (see [`Game::state_json`]) |
//! | `DELETE /api/games/ID` | | `{}` |
//! | `POST /api/games/ID/play` | `{"move": "h8"}` (or `"7,7"`) | the state |
//! | `POST /api/games/ID/undo`, `/redo` | | the state |
//! | `POST /api/games/ID/goto` | `{"ply": 3}` | the state |
//! | `POST /api/games/ID/engine` | `{"ms": 1000}` | `{"report", "state"}`: the engine's move, played |
//! | `GET /api/games/ID/threats` | | both sides' five, four and open-three points, VCF and VCT lines |
//! | `POST /api/games/ID/analysis` | | starts the analysis; `GET` reads it, `DELETE` stops it |
//! | `POST /api/games/ID/review` | `{"ms": 300}` | evaluates every position for the graph; `GET` reads, `DELETE` stops |
//! | `GET /api/games/ID/sgf`, `/moves` | | the game as SGF, as a move list |
//! | `POST /api/games/ID/opening` | `{"rule": "rif", "side": "first", "ms": 1000}` | the state, with `opening` |
//! | `POST /api/games/ID/opening/answer` | `{"answer": "h8 h9 j10"}` (or `"swap"`, `"keep"`, offers…) | the state |
//! | `POST /api/games/ID/load` | `{"sgf": "..."}`, `{"lib": "base64"}` or `{"moves": "h8 h9", "rule", "size"}` | the state |
//! | `POST /api/games/ID/tree` | | the state, the game's line now the first line of a tree |
//! | `POST /api/games/ID/tree/select` | `{"node": 12}` | the state, at that node of the tree |
//! | `POST /api/games/ID/tree/comment` | `{"title": "...", "body": "..."}` | the state |
//! | `POST /api/games/ID/tree/mark` | `{"mark": true, "start": false}` (either) | the state |
//! | `POST /api/games/ID/tree/text` | `{"point": "j10", "text": "A"}` (`""` takes it away) | the state |
//! | `POST /api/games/ID/tree/evaluation` | | the state, the analysis's verdict added to the comment |
//! | `GET /api/games/ID/lib` | | `{"lib": "base64", "nodes"}`: the tree as a RenLib library |
//!
//! An SGF with variations, comments or labels, and every library, opens as a tree (`state.tree`: the comment,
//! marks, variations and board texts at the current node); the line played is then always a path of the tree.

use super::Refused;
use super::analysis::lock;
use super::game::{Game, MAX_THINK_MS};
use super::sgf;
use super::study::{Study, base64_decode};
use crate::gametree::{self, renlib};
use crate::opening_rule::{OpeningRule, Player};
use crate::types::Rule;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Most games kept at once; the least recently used goes when a new one would pass it. A game takes its engine's
/// table when it first searches ([`super::analysis::GAME_HASH_BYTES`]) and gives it back when it goes: 32 games'
/// tables take at most 512 MiB (measured with `scripts/serve-memory.py`: README, "The board in the browser").
pub const MAX_GAMES: usize = 32;
/// The page, with its style and script.
const PAGE: &str = include_str!("page.html");

/// An answer: HTTP status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub content_type: &'static str,
    /// Body.
    pub body: String,
}

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        Reply { status, content_type: "application/json", body: value.to_string() }
    }

    /// A refusal: its status, with `{"error": message}`.
    pub fn refused(refused: &Refused) -> Reply {
        Reply::json(refused.status, &json!({ "error": refused.message }))
    }

    fn text(content_type: &'static str, body: String) -> Reply {
        Reply { status: 200, content_type, body }
    }
}

/// A held game and when it was last asked about.
type Held = (Arc<Mutex<Game>>, Instant);

/// The games of every tab.
pub struct Games {
    games: Mutex<BTreeMap<String, Held>>,
    rng: Mutex<StdRng>,
}

impl Default for Games {
    fn default() -> Games {
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
                ^ u64::from(std::process::id());
        Games { games: Mutex::new(BTreeMap::new()), rng: Mutex::new(StdRng::seed_from_u64(seed)) }
    }
}

impl Games {
    /// Number of games held.
    pub fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// Whether no game is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of transposition table the games hold ([`Game::table_bytes`]; waits for requests under way).
    pub fn table_bytes(&self) -> usize {
        let games: Vec<_> = lock(&self.games).values().map(|(game, _)| Arc::clone(game)).collect();
        games.iter().map(|game| lock(game).table_bytes()).sum()
    }

    fn insert(&self, game: Game) -> String {
        let id = format!("{:016x}", lock(&self.rng).random::<u64>());
        let mut games = lock(&self.games);
        while games.len() >= MAX_GAMES {
            let oldest = games.iter().min_by_key(|(_, (_, used))| *used).map(|(id, _)| id.clone());
            if let Some(oldest) = oldest {
                games.remove(&oldest);
            }
        }
        games.insert(id.clone(), (Arc::new(Mutex::new(game)), Instant::now()));
        id
    }

    fn get(&self, id: &str) -> Result<Arc<Mutex<Game>>, Refused> {
        let mut games = lock(&self.games);
        let (game, used) = games.get_mut(id).ok_or_else(|| Refused::new(404, format!("no game '{id}'")))?;
        *used = Instant::now();
        Ok(Arc::clone(game))
    }

    /// Answers one request.
    pub fn handle(&self, method: &str, path: &str, body: &str) -> Reply {
        let path = path.split('?').next().unwrap_or("");
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            ("GET", [""] | ["index.html"]) => Reply::text("text/html; charset=utf-8", PAGE.to_string()),
            (_, ["api", ..]) => match self.api(method, &parts[1..], body) {
                Ok(reply) => reply,
                Err(refused) => Reply::refused(&refused),
            },
            ("GET", _) => Reply::refused(&Refused::new(404, format!("no page {path}"))),
            _ => Reply::refused(&Refused::new(405, format!("{method} {path} is not allowed"))),
        }
    }

    fn api(&self, method: &str, parts: &[&str], body: &str) -> Result<Reply, Refused> {
        let ok = |value: Value| Ok(Reply::json(200, &value));
        match (method, parts) {
            ("POST", ["games"]) => {
                let body = parse(body)?;
                let size = optional_number(&body, "size")?.unwrap_or(15) as usize;
                let rule = optional_rule(&body)?.unwrap_or(Rule::Renju);
                let game = Game::new(size, rule)?;
                let state = game.state_json();
                let id = self.insert(game);
                ok(json!({ "id": id, "state": state }))
            }
            (_, ["games", id, rest @ ..]) => {
                if method == "DELETE" && rest.is_empty() {
                    return match lock(&self.games).remove(*id) {
                        Some(_) => ok(json!({})),
                        None => Err(Refused::new(404, format!("no game '{id}'"))),
                    };
                }
                let game = self.get(id)?;
                let mut game = lock(&game);
                game_request(&mut game, method, rest, body)
            }
            _ => Err(Refused::new(404, format!("no API path /api/{}", parts.join("/")))),
        }
    }
}

/// One request about one game.
fn game_request(game: &mut Game, method: &str, rest: &[&str], body: &str) -> Result<Reply, Refused> {
    let state = |game: &Game| Ok(Reply::json(200, &game.state_json()));
    let changes = matches!(rest, ["play" | "undo" | "redo" | "goto" | "engine" | "load" | "analysis" | "tree", ..]);
    if method == "POST" && changes && game.opening_under_way() {
        return Err(Refused::new(409, "the opening is being negotiated: answer its step first"));
    }
    match (method, rest) {
        ("GET", []) => state(game),
        ("POST", ["play"]) => {
            let body = parse(body)?;
            let text = required_str(&body, "move", "a point like \"h8\"")?;
            let p = game.point(text)?;
            game.play(p)?;
            state(game)
        }
        ("POST", ["undo"]) => {
            game.undo()?;
            state(game)
        }
        ("POST", ["redo"]) => {
            game.redo()?;
            state(game)
        }
        ("POST", ["goto"]) => {
            let ply = optional_number(&parse(body)?, "ply")?.ok_or_else(|| missing("ply", "a number of moves"))?;
            game.go_to(ply as usize)?;
            state(game)
        }
        ("POST", ["engine"]) => {
            let ms = optional_number(&parse(body)?, "ms")?.unwrap_or(1000).clamp(1, MAX_THINK_MS);
            let report = game.engine_move(ms)?;
            Ok(Reply::json(200, &json!({ "report": report, "state": game.state_json() })))
        }
        ("POST", ["opening"]) => {
            let body = parse(body)?;
            let text = required_str(&body, "rule", "rif, yamaguchi, soosorv8, taraguchi10 or swap2")?;
            let rule: OpeningRule = text.parse().map_err(|e: String| Refused::new(400, e))?;
            let person = match optional_str(&body, "side")? {
                None | Some("first") => Player::First,
                Some("second") => Player::Second,
                Some(other) => return Err(Refused::new(400, format!("\"side\" is first or second, not '{other}'"))),
            };
            let ms = optional_number(&body, "ms")?.unwrap_or(1000);
            game.start_opening(rule, person, ms)?;
            state(game)
        }
        ("POST", ["opening", "answer"]) => {
            let body = parse(body)?;
            let text = required_str(&body, "answer", "the step's answer, e.g. \"h8 h9 j10\" or \"swap\"")?;
            game.answer_opening(text)?;
            state(game)
        }
        ("GET", ["threats"]) => Ok(Reply::json(200, &game.threats_json())),
        ("POST", ["analysis"]) => {
            game.start_analysis()?;
            Ok(Reply::json(200, &game.analysis_json()))
        }
        ("GET", ["analysis"]) => Ok(Reply::json(200, &game.analysis_json())),
        ("DELETE", ["analysis"]) => {
            game.stop_analysis();
            state(game)
        }
        ("POST", ["review"]) => {
            let ms = optional_number(&parse(body)?, "ms")?.unwrap_or(300);
            game.start_review(ms)?;
            Ok(Reply::json(200, &game.review_json()))
        }
        ("GET", ["review"]) => Ok(Reply::json(200, &game.review_json())),
        ("DELETE", ["review"]) => {
            game.stop_review();
            state(game)
        }
        ("GET", ["sgf"]) => Ok(Reply::text(
            "application/x-go-sgf",
            match game.study() {
                Some(study) => study.sgf_text(),
                None => sgf::write(game.size(), game.rule(), game.moves()),
            },
        )),
        ("GET", ["lib"]) => {
            let study = game.study().ok_or_else(|| Refused::new(409, "the game has no tree to save as a library"))?;
            Ok(Reply::json(200, &json!({ "lib": study.library_base64()?, "nodes": study.nodes() })))
        }
        ("POST", ["tree"]) => {
            game.start_study();
            state(game)
        }
        ("POST", ["tree", what]) => {
            let body = parse(body)?;
            let text = |field: &str| optional_str(&body, field).map(Option::unwrap_or_default);
            match *what {
                "select" => {
                    let node = optional_number(&body, "node")?.ok_or_else(|| missing("node", "a node number"))?;
                    game.select(node)?;
                }
                "comment" => {
                    let (title, comment) = (text("title")?, text("body")?);
                    game.study_mut()?.set_comment(title, comment);
                }
                "mark" => {
                    let (mark, start) = (optional_bool(&body, "mark")?, optional_bool(&body, "start")?);
                    game.study_mut()?.set_marks(mark, start);
                }
                "text" => {
                    let p = game.point(required_str(&body, "point", "a point")?)?;
                    let label = text("text")?;
                    game.study_mut()?.set_text(p, label);
                }
                "evaluation" => {
                    let a = game.analysis_json();
                    let here = a["ply"].as_u64() == Some(game.moves().len() as u64);
                    let (Some(best), Some(verdict), true) = (a["best"].as_str(), a["verdict"].as_str(), here) else {
                        return Err(Refused::new(409, "no analysis of this position yet: turn the analysis on first"));
                    };
                    let line = format!("Tengen: {verdict}, best {best}, depth {}", a["depth"]);
                    game.study_mut()?.append_comment(&line);
                }
                other => return Err(Refused::new(404, format!("no tree request '{other}'"))),
            }
            state(game)
        }
        ("GET", ["moves"]) => {
            let size = game.size();
            let words: Vec<String> = game.moves().iter().map(|p| p.notation(size).to_ascii_lowercase()).collect();
            Ok(Reply::text("text/plain; charset=utf-8", words.join(" ")))
        }
        ("POST", ["load"]) => {
            let body = parse(body)?;
            let rule = optional_rule(&body)?;
            let (lib, sgf, moves) =
                (optional_str(&body, "lib")?, optional_str(&body, "sgf")?, optional_str(&body, "moves")?);
            if let Some(text) = lib {
                let bytes = base64_decode(text).map_err(|e| Refused::new(400, e))?;
                let (tree, error) = renlib::read(&bytes);
                if tree.is_empty()
                    && let Some(e) = error
                {
                    return Err(Refused::new(400, format!("library: {e}")));
                }
                let warning = error.map(|e| format!("the library is damaged at {e}; what came before it is open"));
                game.open_study(15, rule.unwrap_or(Rule::Renju), Study::new(tree, warning))?;
                return state(game);
            }
            if let Some(text) = sgf
                && let Ok(tree) = gametree::sgf::read(text.as_bytes())
                && is_study(&tree)
            {
                let rule = rule.or(tree.rule).unwrap_or(game.rule());
                game.open_study(tree.size, rule, Study::new(tree, None))?;
                return state(game);
            }
            let (size, rule, moves) = if let Some(text) = sgf {
                sgf::read(text, rule.unwrap_or(game.rule())).map_err(|e| Refused::new(400, format!("SGF: {e}")))?
            } else if let Some(text) = moves {
                let size = optional_number(&body, "size")?.map_or(game.size(), |s| s as usize);
                let moves = sgf::read_moves(text, size).map_err(|e| Refused::new(400, e))?;
                (size, rule.unwrap_or(game.rule()), moves)
            } else {
                return Err(missing("sgf\" or \"moves", "the game's text"));
            };
            game.load(size, rule, &moves)?;
            state(game)
        }
        ("GET" | "POST" | "DELETE", _) => Err(Refused::new(404, format!("no game request '{}'", rest.join("/")))),
        _ => Err(Refused::new(405, format!("{method} is not allowed here"))),
    }
}

/// Whether an SGF tree is more than one game's moves: variations, comments, marks or labels.
fn is_study(tree: &gametree::Tree) -> bool {
    tree.nodes.iter().any(|n| n.children.len() > 1 || n.comment.is_some() || n.mark || n.start || !n.is_move)
}

/// The body as a JSON object (an empty body is an empty object).
fn parse(body: &str) -> Result<Value, Refused> {
    if body.trim().is_empty() {
        return Ok(json!({}));
    }
    let value: Value = serde_json::from_str(body).map_err(|e| Refused::new(400, format!("malformed JSON: {e}")))?;
    if value.is_object() { Ok(value) } else { Err(Refused::new(400, "the body must be a JSON object")) }
}

fn missing(field: &str, what: &str) -> Refused {
    Refused::new(400, format!("\"{field}\" is missing: {what}"))
}

/// A non-negative whole number field, when present.
fn optional_number(body: &Value, field: &str) -> Result<Option<u64>, Refused> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| Refused::new(400, format!("\"{field}\" must be a whole number"))),
    }
}

/// A string field, when present (a field of another type is refused, never read as absent).
fn optional_str<'a>(body: &'a Value, field: &str) -> Result<Option<&'a str>, Refused> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(Refused::new(400, format!("\"{field}\" must be a string"))),
    }
}

/// A string field that must be there; `what` says what it holds.
fn required_str<'a>(body: &'a Value, field: &str, what: &str) -> Result<&'a str, Refused> {
    optional_str(body, field)?.ok_or_else(|| missing(field, what))
}

/// A true-or-false field, when present.
fn optional_bool(body: &Value, field: &str) -> Result<Option<bool>, Refused> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_bool().map(Some).ok_or_else(|| Refused::new(400, format!("\"{field}\" must be true or false"))),
    }
}

/// The `rule` field, when present.
fn optional_rule(body: &Value) -> Result<Option<Rule>, Refused> {
    match optional_str(body, "rule") {
        Ok(Some(s)) => s.parse().map(Some).map_err(|e: String| Refused::new(400, e)),
        Ok(None) => Ok(None),
        Err(_) => Err(Refused::new(400, "\"rule\" must be a string such as \"renju\"")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(games: &Games, method: &str, path: &str, body: &str) -> (u16, Value) {
        let reply = games.handle(method, path, body);
        (reply.status, serde_json::from_str(&reply.body).unwrap_or(Value::Null))
    }

    #[test]
    fn a_renju_game_refuses_a_forbidden_point_and_bad_requests_say_why() {
        let games = Games::default();
        let (status, v) = call(&games, "POST", "/api/games", r#"{"rule": "renju"}"#);
        assert_eq!(status, 200);
        let id = v["id"].as_str().expect("id").to_string();
        let path = |rest: &str| format!("/api/games/{id}/{rest}");
        // The judge's double-three vector: after these, Black may not play g9.
        for m in ["h8", "h9", "i7", "i9", "h10", "i6", "i11", "i12"] {
            let (status, v) = call(&games, "POST", &path("play"), &format!(r#"{{"move": "{m}"}}"#));
            assert_eq!(status, 200, "{m}: {v}");
        }
        let (_, state) = call(&games, "GET", &format!("/api/games/{id}"), "");
        let forbidden = state["forbidden"].as_array().expect("forbidden");
        assert!(forbidden.iter().any(|f| f["point"] == "G9" && f["kind"] == "double-three"), "{state}");
        let (status, v) = call(&games, "POST", &path("play"), r#"{"move": "g9"}"#);
        assert_eq!(status, 409, "{v}");
        assert!(v["error"].as_str().is_some_and(|e| e.contains("forbidden")), "{v}");
        for (body, needle) in [
            ("{not json", "malformed"),
            ("[1]", "object"),
            (r#"{"move": 5}"#, "move"),
            (r#"{"move": "z99"}"#, "bad point"),
            (r#"{"move": "h8"}"#, "taken"),
        ] {
            let (status, v) = call(&games, "POST", &path("play"), body);
            assert!((400..500).contains(&status), "{body}: {status}");
            assert!(v["error"].as_str().is_some_and(|e| e.contains(needle)), "{body}: {v}");
        }
        assert_eq!(call(&games, "POST", "/api/games", r#"{"rule": "chess"}"#).0, 400);
        assert_eq!(call(&games, "POST", "/api/games", r#"{"size": 99}"#).0, 400);
        assert_eq!(call(&games, "GET", "/api/games/nope", "").0, 404);
        assert_eq!(call(&games, "PUT", "/api/games", "").0, 404);
        // Undo, redo and the state stay consistent.
        assert_eq!(call(&games, "POST", &path("undo"), "").1["moves"].as_array().map(Vec::len), Some(7));
        assert_eq!(call(&games, "POST", &path("redo"), "").1["moves"].as_array().map(Vec::len), Some(8));
        assert_eq!(call(&games, "POST", &path("redo"), "").0, 409);
        assert_eq!(call(&games, "POST", &path("goto"), r#"{"ply": 2}"#).1["redo"].as_array().map(Vec::len), Some(6));
    }

    #[test]
    fn tabs_hold_separate_games_and_games_load_and_save() {
        let games = Games::default();
        let a = call(&games, "POST", "/api/games", "").1["id"].as_str().map(String::from).expect("a");
        let b = call(&games, "POST", "/api/games", r#"{"rule": "freestyle", "size": 9}"#).1["id"]
            .as_str()
            .map(String::from)
            .expect("b");
        assert_ne!(a, b);
        call(&games, "POST", &format!("/api/games/{a}/load"), r#"{"moves": "h8 h9 j10"}"#);
        let (_, vb) = call(&games, "GET", &format!("/api/games/{b}"), "");
        assert_eq!((vb["size"].as_u64(), vb["moves"].as_array().map(Vec::len)), (Some(9), Some(0)));
        let sgf = games.handle("GET", &format!("/api/games/{a}/sgf"), "").body;
        let body = json!({ "sgf": sgf }).to_string();
        let (status, vb) = call(&games, "POST", &format!("/api/games/{b}/load"), &body);
        assert_eq!(status, 200, "{vb}");
        assert_eq!((vb["size"].as_u64(), vb["rule"].as_str()), (Some(15), Some("renju")));
        assert_eq!(games.handle("GET", &format!("/api/games/{b}/moves"), "").body, "h8 h9 j10");
        let (status, v) = call(&games, "POST", &format!("/api/games/{b}/load"), r#"{"moves": "h8 h8"}"#);
        assert_eq!(status, 400, "{v}");
        assert_eq!(call(&games, "GET", &format!("/api/games/{b}/moves"), "").0, 200, "the game is kept");
    }

    #[test]
    fn a_rif_opening_is_negotiated_step_by_step_and_moves_wait_for_it() {
        let games = Games::default();
        let id = call(&games, "POST", "/api/games", "").1["id"].as_str().map(String::from).expect("id");
        let path = |rest: &str| format!("/api/games/{id}/{rest}");
        let answer = |text: &str| call(&games, "POST", &path("opening/answer"), &json!({ "answer": text }).to_string());
        // The person is the second player: Tengen places the opening, the person decides the swap.
        let (status, state) = call(&games, "POST", &path("opening"), r#"{"rule": "rif", "side": "second", "ms": 50}"#);
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["moves"].as_array().map(Vec::len), Some(3), "{state}");
        assert!(state["opening"]["question"].as_str().is_some_and(|q| q.contains("swap")), "{state}");
        assert_eq!(call(&games, "POST", &path("play"), r#"{"move": "a1"}"#).0, 409, "moves wait for the opening");
        let (status, v) = answer("perhaps");
        assert!(status == 400 && v["error"].as_str().is_some_and(|e| e.contains("swap")), "{v}");
        let (status, state) = answer("keep");
        assert_eq!(status, 200, "{state}");
        // The person holds White and plays the fourth anywhere; Tengen offers two fifths; the person keeps one.
        let (status, state) = answer("a1");
        assert_eq!(status, 200, "{state}");
        let offers: Vec<String> = state["opening"]["offers"]
            .as_array()
            .expect("offers")
            .iter()
            .filter_map(|o| o.as_str().map(String::from))
            .collect();
        assert_eq!(offers.len(), 2, "{state}");
        assert_eq!(answer("a2").0, 400, "not offered");
        let (status, state) = answer(&offers[0]);
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["opening"]["done"], json!(true), "{state}");
        assert_eq!(state["opening"]["you"], json!("white"), "{state}");
        assert_eq!(state["moves"].as_array().map(Vec::len), Some(5), "{state}");
        assert_eq!(state["toMove"], json!("white"));
        assert_eq!(call(&games, "POST", &path("play"), r#"{"move": "a15"}"#).0, 200, "the game goes on");
    }

    #[test]
    fn a_game_takes_its_table_when_it_first_searches_and_gives_it_back_when_it_goes() {
        let games = Games::default();
        let ids: Vec<String> = (0..200).map(|_| new_game(&games, "{}")).collect();
        assert_eq!(games.len(), MAX_GAMES);
        assert_eq!(games.table_bytes(), 0, "games that never searched hold no table");
        let id = &ids[199];
        let path = |rest: &str| format!("/api/games/{id}/{rest}");
        // Out of the opening book, so that the engine searches.
        assert_eq!(call(&games, "POST", &path("play"), r#"{"move": "a1"}"#).0, 200);
        assert_eq!(call(&games, "POST", &path("engine"), r#"{"ms": 20}"#).0, 200);
        assert_eq!(games.table_bytes(), crate::serve::analysis::GAME_HASH_BYTES);
        // A reload replaces the game's engine: the table goes with it until the next search.
        assert_eq!(call(&games, "POST", &path("load"), r#"{"moves": "h8 h9"}"#).0, 200);
        assert_eq!(games.table_bytes(), 0);
        assert_eq!(call(&games, "POST", &path("play"), r#"{"move": "a1"}"#).0, 200);
        assert_eq!(call(&games, "POST", &path("engine"), r#"{"ms": 20}"#).0, 200);
        assert_eq!(games.table_bytes(), crate::serve::analysis::GAME_HASH_BYTES);
        for id in &ids {
            games.handle("DELETE", &format!("/api/games/{id}"), "");
        }
        assert!(games.is_empty());
        assert_eq!(games.table_bytes(), 0);
    }

    #[test]
    fn a_field_of_the_wrong_type_is_refused_by_name_never_read_as_absent() {
        let games = Games::default();
        let id = new_game(&games, "{}");
        assert_eq!(call(&games, "POST", &format!("/api/games/{id}/tree"), "").0, 200);
        for (rest, body, field) in [
            ("", r#"{"size": "15"}"#, "size"),
            ("", r#"{"rule": 4}"#, "rule"),
            ("/play", r#"{"move": 5}"#, "move"),
            ("/goto", r#"{"ply": "2"}"#, "ply"),
            ("/engine", r#"{"ms": 1.5}"#, "ms"),
            ("/opening", r#"{"rule": "rif", "side": 1, "ms": 5}"#, "side"),
            ("/opening", r#"{"rule": ["rif"], "side": "first"}"#, "rule"),
            ("/opening", r#"{"rule": "rif", "ms": "5"}"#, "ms"),
            ("/opening/answer", r#"{"answer": true}"#, "answer"),
            ("/review", r#"{"ms": -3}"#, "ms"),
            ("/tree/select", r#"{"node": "1"}"#, "node"),
            ("/tree/comment", r#"{"title": 1, "body": "x"}"#, "title"),
            ("/tree/comment", r#"{"title": "x", "body": {}}"#, "body"),
            ("/tree/mark", r#"{"mark": "yes"}"#, "mark"),
            ("/tree/mark", r#"{"start": 0}"#, "start"),
            ("/tree/text", r#"{"point": 7, "text": "A"}"#, "point"),
            ("/tree/text", r#"{"point": "h8", "text": 1}"#, "text"),
            ("/load", r#"{"lib": 5}"#, "lib"),
            ("/load", r#"{"sgf": ["(;)"]}"#, "sgf"),
            ("/load", r#"{"moves": 88}"#, "moves"),
            ("/load", r#"{"moves": "h8", "size": "9"}"#, "size"),
            ("/load", r#"{"moves": "h8", "rule": false}"#, "rule"),
        ] {
            let path = if rest.is_empty() { "/api/games".to_string() } else { format!("/api/games/{id}{rest}") };
            let (status, v) = call(&games, "POST", &path, body);
            assert_eq!(status, 400, "{path} {body}: {v}");
            let error = v["error"].as_str().unwrap_or_default();
            assert!(error.contains(&format!("\"{field}\" must be")), "{path} {body}: {v}");
        }
        let (_, state) = call(&games, "GET", &format!("/api/games/{id}"), "");
        assert!(state["opening"].is_null() && state["moves"] == json!([]), "nothing was done: {state}");
    }

    fn new_game(games: &Games, body: &str) -> String {
        call(games, "POST", "/api/games", body).1["id"].as_str().map(String::from).expect("id")
    }

    fn points(v: &Value) -> Vec<&str> {
        v.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
    }

    #[test]
    fn threats_list_each_sides_five_four_and_three_points_and_a_winning_line() {
        let games = Games::default();
        let id = new_game(&games, r#"{"rule": "freestyle"}"#);
        // Black: an open three H8 J8 K8 and a two on column E; White scattered.
        let body = json!({ "moves": "h8 a1 i8 a3 j8 o1 e5 o3 e6 a15" }).to_string();
        assert_eq!(call(&games, "POST", &format!("/api/games/{id}/load"), &body).0, 200);
        let (status, t) = call(&games, "GET", &format!("/api/games/{id}/threats"), "");
        assert_eq!(status, 200, "{t}");
        let black = &t["black"];
        assert!(points(&black["five"]).is_empty(), "{t}");
        for p in ["G8", "K8", "F8", "L8"] {
            assert!(points(&black["four"]).contains(&p), "{p}: {t}");
        }
        for p in ["E7", "E4", "E3", "E8"] {
            assert!(points(&black["three"]).contains(&p), "{p}: {t}");
        }
        assert!(!points(&black["four"]).contains(&"E7"), "{t}");
        // Black to move wins by a straight four: the VCT line starts with a four point and ends with Black's five.
        let vct = points(&black["vct"]);
        assert!(vct.len() % 2 == 1 && ["G8", "K8"].contains(&vct[0]), "{t}");
        assert!(points(&t["white"]["four"]).is_empty() && t["white"]["vcf"].is_null(), "{t}");
    }

    #[test]
    fn a_review_evaluates_every_position_of_the_line_and_a_new_line_drops_the_rest() {
        let games = Games::default();
        let id = new_game(&games, r#"{"rule": "freestyle"}"#);
        let path = |rest: &str| format!("/api/games/{id}/{rest}");
        // Black makes an open four with the seventh move and five with the ninth.
        let body = json!({ "moves": "h8 a1 i8 a3 j8 o1 k8 o3 l8" }).to_string();
        assert_eq!(call(&games, "POST", &path("load"), &body).0, 200);
        assert_eq!(call(&games, "POST", &path("goto"), r#"{"ply": 4}"#).0, 200);
        let (status, v) = call(&games, "POST", &path("review"), r#"{"ms": 30}"#);
        assert_eq!((status, v["total"].as_u64()), (200, Some(10)), "{v}");
        let started = Instant::now();
        while call(&games, "GET", &path("review"), "").1["running"] == json!(true) {
            assert!(started.elapsed().as_secs() < 60, "the review does not end");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let (_, state) = call(&games, "GET", &format!("/api/games/{id}"), "");
        let evals: Vec<(u64, f64)> = state["evals"]
            .as_array()
            .expect("evals")
            .iter()
            .filter_map(|e| Some((e[0].as_u64()?, e[1].as_f64()?)))
            .collect();
        assert_eq!(evals.iter().map(|e| e.0).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>(), "{state}");
        assert_eq!(evals[9].1, 1.0, "Black has won");
        assert!(evals[5].1 > 0.5, "Black's open three: {state}");
        assert!(evals[6].1 > 0.99 && evals[7].1 > 0.99, "White did not block: {state}");
        assert!(evals.iter().all(|e| (0.0..=1.0).contains(&e.1)), "{state}");
        // Another fifth move keeps the evaluations up to the branch point only.
        let (_, state) = call(&games, "POST", &path("play"), r#"{"move": "b2"}"#);
        let plies: Vec<u64> = state["evals"].as_array().expect("evals").iter().filter_map(|e| e[0].as_u64()).collect();
        assert_eq!(plies, vec![0, 1, 2, 3, 4], "{state}");
        assert_eq!(call(&games, "POST", &path("review"), r#"{"ms": "x"}"#).0, 400);
    }
}
