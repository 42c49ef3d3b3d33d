//! `pbrain-tengen book build|learn|reached|show`: grows an opening book by searching its leaves (src/book/build.rs),
//! counts the results of games through it (src/book/learn.rs), lists the positions games reached past it
//! (src/book/reached.rs), and shows a position's book moves.

use super::Done;
use super::OptionCursor;
use crate::book::Book;
use crate::book::build::{BuildOptions, Step, build};
use crate::engine::Engine;
use crate::pattern::PatternBoard;
use crate::problems::Problems;
use crate::search::SearchLimits;
use crate::types::{Pos, Rule};
use std::io::Write;
use std::time::{Duration, Instant};

/// `book build`'s settings.
#[derive(Clone, Debug, PartialEq)]
struct BuildCommand {
    out: String,
    rule: Rule,
    size: usize,
    openings: Option<String>,
    ms: u64,
    nodes: u64,
    depth: i32,
    threads: usize,
    options: BuildOptions,
}

/// Runs `book build …` or `book show FILE MOVES…`.
pub(super) fn book_command(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
    match args.split_first() {
        Some((cmd, rest)) if cmd == "build" => {
            let c = parse_build(rest)?;
            run_build(&c, out)
        }
        Some((cmd, rest)) if cmd == "learn" => run_learn(rest, out, p),
        Some((cmd, rest)) if cmd == "reached" => run_reached(rest, out, p),
        Some((cmd, rest)) if cmd == "show" => {
            let (path, moves) = rest.split_first().ok_or("book show FILE MOVES…: the book file is missing")?;
            Ok(writeln!(out, "{}", Book::load(path)?.show(moves)?))
        }
        _ => {
            Err("expected book build --out FILE [options], book learn FILE GAMES…, book reached FILE GAMES… [options] \
                 or book show FILE MOVES…"
                .to_string())
        }
    }
}

fn parse_build(args: &[String]) -> Result<BuildCommand, String> {
    let mut c = BuildCommand {
        out: String::new(),
        rule: Rule::Renju,
        size: 15,
        openings: None,
        ms: 1000,
        nodes: 0,
        depth: 0,
        threads: std::thread::available_parallelism().map_or(1, usize::from),
        options: BuildOptions::default(),
    };
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        let mut number = |what: &str, max: u64| cursor.number(&name, &inline, what, 0..=max);
        match name.as_str() {
            "--out" => c.out = cursor.value(&name, &inline)?,
            "--rule" => c.rule = cursor.value(&name, &inline)?.parse()?,
            "--size" => c.size = number("size", 22)? as usize,
            "--openings" => c.openings = Some(cursor.value(&name, &inline)?),
            "--ms" => c.ms = number("time", 3_600_000)?,
            "--nodes" => c.nodes = number("node count", u64::MAX)?,
            "--depth" => c.depth = number("depth", 60)? as i32,
            "--threads" => c.threads = number("thread count", 256)?.max(1) as usize,
            "--searches" => c.options.searches = number("search count", u64::from(u32::MAX))? as usize,
            "--max-drop" => c.options.max_drop = number("drop", 1_000_000)? as i32,
            "--stone-cost" => c.options.stone_cost = number("cost", 1_000_000)? as i32,
            "--max-stones" => c.options.max_stones = number("stone count", 225)? as usize,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if c.out.is_empty() {
        return Err("book build needs --out FILE (an existing book there is grown further)".to_string());
    }
    Ok(c)
}

fn run_build(c: &BuildCommand, out: &mut dyn Write) -> Done {
    let mut book = Book::load_or_new(&c.out, c.rule, c.size)?;
    let starts: Vec<Vec<Pos>> = match &c.openings {
        Some(path) => crate::openings::read_openings_file(path, c.size, c.rule)?,
        None => crate::openings::renju_openings(c.size, c.rule),
    };
    let mut engine = Engine::new(c.size, c.rule).map_err(|e| e.to_string())?;
    engine.configure(|s| s.search.threads = c.threads);
    let empty = PatternBoard::new(c.size, c.rule).map_err(|e| e.to_string())?;
    let (ms, nodes, depth) = (c.ms, c.nodes, c.depth);
    let mut search = |pb: &PatternBoard, exclude: &[Pos]| -> Option<(Pos, i32, u16)> {
        engine.set_up(pb.board().moves()).ok()?;
        let deadline = (nodes == 0 && depth == 0).then(|| Instant::now() + Duration::from_millis(ms));
        let limits =
            SearchLimits { depth, nodes, optimum: deadline, maximum: deadline, exclude, ..SearchLimits::default() };
        let report = engine.think_with(&limits, |_| {});
        report.best.map(|b| (b, report.score, report.depth.clamp(0, 255) as u16))
    };
    let started = Instant::now();
    let before = book.len();
    let mut failed = None;
    let searches = build(&mut book, &empty, &starts, c.options, &mut search, |book, step| {
        let line = match step {
            Step::Start(moves) => format!("start {}", names(moves, c.size)),
            Step::Expanded(moves, cost) => format!("expanded {} (cost {cost})", names(moves, c.size)),
            Step::Complete => "complete: no move within the drop".to_string(),
        };
        let shown = writeln!(out, "{:>7.1} s  {} positions  {line}", started.elapsed().as_secs_f64(), book.len());
        if let Err(e) = shown.and_then(|()| out.flush()) {
            failed = Some(format!("output: {e}"));
            return false;
        }
        // Written after every step, through a temporary file, so that a run stopped anywhere resumes.
        if let Err(e) = book.save(&c.out) {
            failed = Some(e);
            return false;
        }
        true
    });
    if let Some(e) = failed {
        return Err(e);
    }
    // Once more at the end: a run with nothing to do (`--searches 0`) writes the book as it reads it, scores backed
    // up, so a book written before they were shows them.
    book.save(&c.out)?;
    let summary = format!(
        "{searches} searches in {:.1} s: {} positions (was {before}), {} moves, written to {}",
        started.elapsed().as_secs_f64(),
        book.len(),
        book.entries.values().map(Vec::len).sum::<usize>(),
        c.out
    );
    Ok(writeln!(out, "{summary}"))
}

/// `book learn FILE GAMES…`: sets the tallies of the book in FILE from the game files (`.tgr`), from scratch, and
/// writes it back.
fn run_learn(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
    let (path, files) = args.split_first().ok_or("book learn FILE GAMES…: the book file is missing")?;
    if files.is_empty() {
        return Err("book learn FILE GAMES…: no game files (.tgr) given".to_string());
    }
    let mut book = Book::load(path)?;
    let games = crate::records::read_learning_games(files, p)?;
    let learned = crate::book::learn::learn(&mut book, &games);
    book.save(path)?;
    Ok(writeln!(
        out,
        "{} games read, {} under the book's rule and size, {} through the book; {} book moves played; the first \
         choice changed in {} of {} positions; written to {path}",
        games.len(),
        learned.games,
        learned.used,
        learned.counted,
        learned.changed,
        book.len()
    ))
}

/// `book reached FILE GAMES… [--player NAME] [--min-games N] [--max-stones S]`: the positions past the book that the
/// games reached, one opening line each (what `book build --openings` reads), with how many games reached each and
/// their results for the side to move in a comment.
fn run_reached(args: &[String], out: &mut dyn Write, p: &mut Problems) -> Done {
    let mut options = crate::book::reached::ReachedOptions { player: None, max_stones: 16, min_games: 8 };
    let mut files = Vec::new();
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        match name.as_str() {
            "--player" => options.player = Some(cursor.value(&name, &inline)?),
            "--min-games" => options.min_games = cursor.number(&name, &inline, "game count", 1..=1_000_000)? as usize,
            "--max-stones" => options.max_stones = cursor.number(&name, &inline, "stone count", 0..=225)? as usize,
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            _ => files.push(name),
        }
    }
    let Some((path, files)) = files.split_first() else {
        return Err("book reached FILE GAMES…: the book file is missing".to_string());
    };
    if files.is_empty() {
        return Err("book reached FILE GAMES…: no game files (.tgr) given".to_string());
    }
    let book = Book::load(path)?;
    let games = crate::records::read_games(files, p)?;
    let list = crate::book::reached::reached(&book, &games, &options);
    let result = (|| {
        writeln!(
            out,
            "# {} positions past {path} reached by {} games or more (of {}), at most {} stones{}",
            list.len(),
            options.min_games,
            games.len(),
            options.max_stones,
            options.player.as_ref().map_or(String::new(), |p| format!(", {p} to move"))
        )?;
        for r in &list {
            writeln!(
                out,
                "{}   # {} games, {} for the side to move",
                names(&r.moves, book.size),
                r.games,
                r.tally.text()
            )?;
        }
        Ok(())
    })();
    Ok(result)
}

/// Moves as `H8 H9 J10`.
fn names(moves: &[Pos], size: usize) -> String {
    moves.iter().map(|p| p.notation(size)).collect::<Vec<_>>().join(" ")
}
