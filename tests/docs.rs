//! The documentation cannot drift: every relative link of every Markdown page of the repository (README.md, `docs/`,
//! the data folders' READMEs) names a file that exists (and, into a page, a heading that page has); every page of
//! `docs/` that the code, the scripts or the data files cite (`docs/PAGE.md`, `docs/PAGE.md#anchor`,
//! `docs/PAGE.md, "Heading"`) exists and has that heading; and every `pbrain-tengen …` command line quoted in README.md
//! and `docs/` (in a code block or in inline code, also as `target/release/pbrain-tengen …`, `cargo run --release --
//! …` or an engine command in quotes) names a subcommand the binary has and only options its `--help` lists. A
//! placeholder (`COMMAND`, `FILE`, `…`) is fine. When a page quotes a new option, its command's text in
//! `src/cli/usage.rs` says it too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The pages: README.md, then every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    let mut all = vec![Path::new(ROOT).join("README.md")];
    all.extend(docs);
    all
}

/// Every file under `dir` (not in `target/`, `node_modules/`, `dist/` or a hidden folder), in a fixed order.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !path.is_dir() {
            out.push(path);
        } else if !name.starts_with('.') && !matches!(name, "target" | "node_modules" | "dist") {
            files_under(&path, out);
        }
    }
}

/// The repository's files whose name ends with one of `extensions`.
fn repository_files(extensions: &[&str]) -> Vec<PathBuf> {
    let mut all = Vec::new();
    files_under(Path::new(ROOT), &mut all);
    all.retain(|p| p.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.contains(&e)));
    all
}

/// A page cut into its code lines (inside fences, continuation lines joined) and its prose (paragraphs joined into
/// one line each), each with its first line number; and its headings.
#[derive(Default)]
struct Page {
    code: Vec<(usize, String)>,
    prose: Vec<(usize, String)>,
    headings: Vec<String>,
}

fn parse(text: &str) -> Page {
    let mut page = Page::default();
    let mut fence = false;
    let mut paragraph: Option<(usize, String)> = None;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            page.prose.extend(paragraph.take());
            page.code.extend(pending.take());
            fence = !fence;
            continue;
        }
        if fence {
            let (start, mut joined) = pending.take().unwrap_or((number, String::new()));
            joined.push_str(trimmed);
            match joined.strip_suffix('\\') {
                Some(open) => pending = Some((start, format!("{open} "))),
                None => page.code.push((start, joined)),
            }
            continue;
        }
        if trimmed.is_empty() {
            page.prose.extend(paragraph.take());
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix('#') {
            page.prose.extend(paragraph.take());
            page.headings.push(heading.trim_start_matches('#').trim().to_string());
            page.prose.push((number, heading.to_string()));
            continue;
        }
        match &mut paragraph {
            Some((_, text)) => {
                text.push(' ');
                text.push_str(trimmed);
            }
            None => paragraph = Some((number, trimmed.to_string())),
        }
    }
    page.prose.extend(paragraph);
    page.code.extend(pending);
    page
}

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (a repeated heading gets `-1`, `-2`, … as on GitHub).
fn anchors(page: &Page) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    page.headings
        .iter()
        .map(|h| {
            let a = anchor(h);
            let n = seen.entry(a.clone()).or_insert(0);
            *n += 1;
            if *n == 1 { a } else { format!("{a}-{}", *n - 1) }
        })
        .collect()
}

/// The inline code spans of a prose line.
fn inline_code(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// A prose line without its inline code (where `](` may stand for itself).
fn without_code(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The targets of a prose line's links and images: `[text](target)` and `![alt](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let text = without_code(line);
    let mut targets = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        targets.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    targets
}

/// What is wrong with the page's relative links: a file that does not exist, or an anchor its page lacks.
fn link_problems(path: &Path, page: &Page, read: &dyn Fn(&Path) -> Option<String>) -> Vec<String> {
    let mut problems = Vec::new();
    let dir = path.parent().expect("a page is in a folder");
    for (number, line) in &page.prose {
        for target in link_targets(line) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if file.is_empty() { path.to_path_buf() } else { dir.join(file) };
            let shown = format!("{}:{number}: {target}", shown(path));
            let Some(text) = read(&linked) else {
                problems.push(format!("{shown}: no such file"));
                continue;
            };
            if !fragment.is_empty() && linked.extension().is_some_and(|e| e == "md") {
                let known = anchors(&parse(&text));
                if !known.iter().any(|a| a == fragment) {
                    problems.push(format!("{shown}: no heading '{fragment}' (it has: {})", known.join(", ")));
                }
            }
        }
    }
    problems
}

/// A text's lines joined into one, each without its indentation and comment marker (`//!`, `///`, `//`, `#`), so
/// that a citation wrapped over two comment lines reads as one.
fn joined_comments(text: &str) -> String {
    let lines = text.lines().map(|l| {
        let l = l.trim_start();
        let l = ["//!", "///", "//", "#"].iter().find_map(|m| l.strip_prefix(m)).unwrap_or(l);
        l.trim()
    });
    lines.collect::<Vec<_>>().join(" ")
}

/// Whether a heading begins with the cited words (case and spacing aside): comments cite a section by its first words.
fn begins_with(heading: &str, cited: &str) -> bool {
    let words = |t: &str| t.to_lowercase().split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let (heading, cited) = (words(heading), words(cited));
    !cited.is_empty() && heading.starts_with(&cited)
}

/// What is wrong with a text's citations of `docs/`: `docs/PAGE.md` that does not exist, `#anchor` or `, "Heading"`
/// (also `, Heading` unquoted, up to `)`, `,`, `;` or `.`) that the page lacks.
fn citation_problems(path: &Path, text: &str, read: &dyn Fn(&Path) -> Option<String>) -> Vec<String> {
    let text = joined_comments(text);
    let mut problems = Vec::new();
    for (at, _) in text.match_indices("docs/") {
        let rest = &text[at + 5..];
        let name_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
        let Some(after) = rest[name_len..].strip_prefix(".md") else { continue };
        let page = format!("docs/{}.md", &rest[..name_len]);
        let shown = format!("{}: {page}", shown(path));
        let Some(page_text) = read(&Path::new(ROOT).join(&page)) else {
            problems.push(format!("{shown}: no such file"));
            continue;
        };
        let parsed = parse(&page_text);
        if let Some(fragment) = after.strip_prefix('#') {
            let end = fragment.find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')).unwrap_or(fragment.len());
            let fragment = &fragment[..end];
            if !anchors(&parsed).iter().any(|a| a == fragment) {
                problems.push(format!("{shown}#{fragment}: no such heading"));
            }
            continue;
        }
        let cited = if let Some(quoted) = after.strip_prefix(", \"") {
            quoted.split('"').next().unwrap_or("")
        } else if let Some(plain) = after.strip_prefix(", ").filter(|t| t.starts_with(|c: char| c.is_uppercase())) {
            plain.split([')', ',', ';', '.']).next().unwrap_or("")
        } else {
            continue;
        };
        if !parsed.headings.iter().any(|h| begins_with(h, cited)) {
            problems.push(format!("{shown}, \"{cited}\": no heading begins so"));
        }
    }
    problems
}

/// A page's path from the repository's root.
fn shown(path: &Path) -> String {
    path.strip_prefix(ROOT).unwrap_or(path).display().to_string()
}

fn read_file(path: &Path) -> Option<String> {
    if path.is_dir() {
        return Some(String::new());
    }
    std::fs::read(path).ok().map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// A shell-like reading of a command line: words (quotes removed; `quoted` says a word was in quotes), the
/// operators `|`, `||`, `&&` and `;` as words of their own, and nothing after an unquoted `#` that starts a word.
fn words(line: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut in_word, mut quote) = (false, false, None::<char>);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                quoted = true;
                in_word = true;
            }
            (None, '#') if !in_word => break,
            (None, c) if c.is_whitespace() || c == ';' => {
                if in_word {
                    out.push((std::mem::take(&mut word), quoted));
                }
                if c == ';' {
                    out.push((";".to_string(), false));
                }
                (quoted, in_word) = (false, false);
            }
            (None, '|' | '&') if !in_word && chars.peek().is_none_or(|n| n.is_whitespace() || *n == c) => {
                let mut op = c.to_string();
                if chars.peek() == Some(&c) {
                    op.push(chars.next().expect("peeked"));
                }
                out.push((op, false));
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push((word, quoted));
    }
    out
}

/// Whether a word runs Tengen: `pbrain-tengen` or a path ending in `/pbrain-tengen`.
fn is_tengen(word: &str) -> bool {
    word == "pbrain-tengen" || word.ends_with("/pbrain-tengen")
}

/// The argument lists of every Tengen command in a command line: each pipeline stage that runs the binary
/// (after `$ ` and any `NAME=value`), `cargo run … -- ARGS`, and every quoted engine command that runs it.
fn invocations(line: &str) -> Vec<Vec<String>> {
    let line = line.trim().trim_start_matches("$ ");
    let all = words(line);
    let mut found = Vec::new();
    for stage in all.split(|(w, quoted)| !quoted && matches!(w.as_str(), "|" | "||" | "&&" | ";")) {
        let mut stage: Vec<&(String, bool)> = stage.iter().collect();
        while stage.first().is_some_and(|(w, q)| !q && w.contains('=') && !w.starts_with('-')) {
            stage.remove(0);
        }
        let plain: Vec<String> = stage.iter().map(|(w, _)| w.clone()).collect();
        match plain.first().map(String::as_str) {
            Some(first) if is_tengen(first) => found.push(plain[1..].to_vec()),
            Some("cargo") if plain.get(1).is_some_and(|w| w == "run") => {
                let separator = plain.iter().position(|w| w == "--");
                let example = plain.iter().any(|w| w == "--example" || w == "--bin" || w == "--bench");
                if let (Some(at), false) = (separator, example) {
                    found.push(plain[at + 1..].to_vec());
                }
            }
            _ => {}
        }
        for (word, quoted) in &stage {
            if *quoted && word.split_whitespace().next().is_some_and(is_tengen) {
                found.extend(invocations(word));
            }
        }
    }
    found
}

/// A placeholder where a subcommand stands: `COMMAND`, `…`.
fn is_placeholder(word: &str) -> bool {
    word.contains('…')
        || word.contains("...")
        || word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// What `pbrain-tengen ARGS` prints and returns.
fn run(args: &[&str]) -> (u8, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let code = tengen::cli::run(&args, &mut &b""[..], &mut out, &mut Vec::new()).expect("io");
    (code, String::from_utf8(out).expect("utf8"))
}

/// The help text that lists a subcommand's options (`None`: no such subcommand), or the protocol's for `""`.
fn help(command: &str, cache: &mut BTreeMap<String, Option<String>>) -> Option<String> {
    cache
        .entry(command.to_string())
        .or_insert_with(|| {
            if command.is_empty() {
                // The overview: the protocol's options, --help and --version.
                let (code, text) = run(&["--help"]);
                assert_eq!(code, 0);
                assert!(text.contains(tengen::cli::protocol_usage()), "{text}");
                return Some(format!("{text}\n--help -h --version -V"));
            }
            let (code, text) = run(&[command, "--help"]);
            let usage = format!("usage: pbrain-tengen {command}");
            (code == 0 && text.starts_with(&usage)).then_some(text)
        })
        .clone()
}

/// Whether `option` appears in `text` as a whole word (not as the start of a longer option).
fn lists(text: &str, option: &str) -> bool {
    text.match_indices(option).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + option.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

/// What is wrong with one invocation: an unknown subcommand, or options its help does not list.
fn command_problems(args: &[String], cache: &mut BTreeMap<String, Option<String>>) -> Vec<String> {
    // Usage syntax: `[--opt X]`, `--black|--white`.
    let args: Vec<String> = args
        .iter()
        .flat_map(|a| a.split('|').map(|p| p.trim_matches(['[', ']']).to_string()).collect::<Vec<_>>())
        .filter(|a| !a.is_empty())
        .collect();
    let (command, options) = match args.first() {
        None => return Vec::new(),
        Some(first) if first.starts_with('-') => (String::new(), &args[..]),
        Some(first) if is_placeholder(first) => return Vec::new(),
        Some(first) => (first.clone(), &args[1..]),
    };
    let Some(mut text) = help(&command, cache) else {
        return vec![format!("'{command}' is not a subcommand (pbrain-tengen {command} --help fails)")];
    };
    if command == "gauntlet" {
        // Its usage says that every other match option is passed on to each match.
        text.push_str(&help("match", cache).expect("match has a usage"));
    }
    options
        .iter()
        .filter(|o| o.starts_with("--") && o.len() > 2)
        .map(|o| o.split('=').next().unwrap_or(o).trim_end_matches([',', ';', ':', ')', '.']))
        .filter(|o| !lists(&text, o))
        .map(|o| format!("{o} is not in `{}`", format!("pbrain-tengen {command} --help").replace("  ", " ")))
        .collect()
}

/// Every invocation of a page, with where it is.
fn page_invocations(path: &Path, page: &Page) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    for (number, line) in &page.code {
        found.extend(invocations(line).into_iter().map(|a| (format!("{}:{number}", shown(path)), a)));
    }
    for (number, line) in &page.prose {
        for span in inline_code(line) {
            found.extend(invocations(span).into_iter().map(|a| (format!("{}:{number}", shown(path)), a)));
        }
    }
    found
}

#[test]
fn every_relative_link_names_a_file_and_a_heading_that_exist() {
    let mut problems = Vec::new();
    let mut links = 0;
    let markdown = repository_files(&["md"]);
    for page in pages() {
        assert!(markdown.contains(&page), "{} is not among the pages checked", shown(&page));
    }
    for path in markdown {
        let page = parse(&read_file(&path).expect("readable"));
        links += page.prose.iter().map(|(_, l)| link_targets(l).len()).sum::<usize>();
        problems.extend(link_problems(&path, &page, &read_file));
    }
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
    assert!(links > 50, "only {links} links found: the reader misses them");
}

#[test]
fn every_page_the_code_cites_has_the_heading_it_names() {
    let mut problems = Vec::new();
    let mut cited = 0;
    let this = Path::new(ROOT).join("tests/docs.rs");
    for path in repository_files(&["rs", "py", "sh", "mjs", "js", "html", "toml", "params", "spsa", "txt"]) {
        // This file's own examples cite pages that do not exist, on purpose.
        let Some(text) = read_file(&path).filter(|_| path != this) else { continue };
        cited += text.matches("docs/").count();
        problems.extend(citation_problems(&path, &text, &read_file));
    }
    assert!(problems.is_empty(), "citations of docs/ that do not hold:\n{}", problems.join("\n"));
    assert!(cited > 20, "only {cited} citations of docs/ found");
}

#[test]
fn every_quoted_command_line_names_a_subcommand_and_options_its_help_lists() {
    let mut cache = BTreeMap::new();
    let mut problems = Vec::new();
    let mut count = 0;
    let mut commands = std::collections::BTreeSet::new();
    for path in pages() {
        let page = parse(&read_file(&path).expect("readable"));
        for (place, args) in page_invocations(&path, &page) {
            count += 1;
            commands.insert(args.first().cloned().unwrap_or_default());
            problems.extend(command_problems(&args, &mut cache).into_iter().map(|p| format!("{place}: {p}")));
        }
    }
    assert!(problems.is_empty(), "commands the binary does not take:\n{}", problems.join("\n"));
    assert!(count > 80, "only {count} command lines found: the reader misses them");
    for quoted in ["play", "serve", "match", "gauntlet", "selfplay", "train", "tune", "spsa", "lib", "book", "merge"] {
        assert!(commands.contains(quoted), "no page quotes `pbrain-tengen {quoted}`");
    }
}

#[test]
fn the_readme_is_a_front_page_and_the_reference_is_in_docs() {
    let readme = read_file(&Path::new(ROOT).join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md has {lines} lines: move the reference to docs/");
    for page in ["protocol", "rules", "engine", "training", "matches", "library", "development", "history"] {
        let link = format!("docs/{page}.md");
        assert!(Path::new(ROOT).join(&link).is_file(), "{link} is missing");
        assert!(readme.contains(&format!("]({link})")), "README.md does not link {link}");
    }
    // The table of commands: a row for every subcommand the overview lists, and for nothing else.
    let (_, overview) = run(&["--help"]);
    let listed: Vec<&str> = overview
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !w.starts_with('-'))
        .collect();
    let rows: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .filter(|w| *w != "pbrain-tengen")
        .collect();
    assert!(listed.len() > 10, "{overview}");
    for command in &listed {
        assert!(rows.contains(command), "README.md's table of commands lacks `{command}`");
    }
    for row in &rows {
        assert!(listed.contains(row), "README.md's table of commands has `{row}`, which `--help` does not list");
    }
    let license = read_file(&Path::new(ROOT).join("LICENSE")).expect("LICENSE");
    assert!(license.starts_with("MIT License"), "LICENSE is not the MIT licence Cargo.toml names");
    assert!(readme.contains("](LICENSE)"));
}

#[test]
fn the_checks_catch_a_drifted_page() {
    let page = parse(
        "# A page\n\nSee [there](missing.md), [here](#a-page), [nowhere](#nowhere) and [web](https://x.org/y).\n\n\
         ```sh\n$ printf 'x' | pbrain-tengen solve --vct \\\n    --no-such-flag   # --also-not-checked\n\
         GAUNTLET=dir target/release/pbrain-tengen frobnicate\ncargo run --release -q -- play --white\n```\n\n\
         Inline `match --engine \"pbrain-tengen --max-depth 4 --bogus\"` and `pbrain-tengen COMMAND --help`.\n",
    );
    let path = Path::new(ROOT).join("docs/example.md");
    let read = |p: &Path| (p == path).then(|| "# A page\n".to_string());
    let links = link_problems(&path, &page, &read);
    assert_eq!(links.len(), 2, "{links:?}");
    assert!(links[0].ends_with("missing.md: no such file") && links[1].contains("no heading 'nowhere'"), "{links:?}");

    let mut cache = BTreeMap::new();
    let found: Vec<Vec<String>> = page_invocations(&path, &page).into_iter().map(|(_, a)| a).collect();
    assert_eq!(found.len(), 5, "{found:?}");
    let problems: Vec<Vec<String>> = found.iter().map(|a| command_problems(a, &mut cache)).collect();
    assert_eq!(problems[0], ["--no-such-flag is not in `pbrain-tengen solve --help`"]);
    assert_eq!(problems[1], ["'frobnicate' is not a subcommand (pbrain-tengen frobnicate --help fails)"]);
    assert!(problems[2].is_empty(), "play --white: {:?}", problems[2]);
    assert_eq!(problems[3], ["--bogus is not in `pbrain-tengen --help`"]);
    assert!(problems[4].is_empty(), "a placeholder: {:?}", problems[4]);
    // A listed option is one word: --a-nodes is not --a-nodes-max, and --rule is listed whole.
    assert!(lists("--rule R   --a-nodes N", "--rule") && !lists("--a-nodes-max", "--a-nodes"));
    let code = "// docs/example.md, \"A page\" and docs/example.md#a-page; docs/example.md, A page.\n\
                // docs/missing.md and docs/example.md#nowhere, and (docs/example.md, \"Not\n// there\")\n";
    let cited = citation_problems(&Path::new(ROOT).join("src/x.rs"), code, &read);
    assert_eq!(cited.len(), 3, "{cited:?}");
    assert!(cited[0].ends_with("docs/missing.md: no such file"), "{cited:?}");
    assert!(cited[1].ends_with("docs/example.md#nowhere: no such heading"), "{cited:?}");
    assert!(cited[2].contains("\"Not there\": no heading begins so"), "{cited:?}");
    assert!(begins_with("The late VCT bounded by time (issue 61)", "the late  VCT") && !begins_with("Memory", ""));
    assert_eq!(anchor("Tuning the search by games (SPSA)"), "tuning-the-search-by-games-spsa");
    assert_eq!(anchor("Trees on the browser board"), "trees-on-the-browser-board");
}
