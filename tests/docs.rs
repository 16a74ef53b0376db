//! The docs pages cover their commands, and the links to them hold: every long option that a
//! command's `--help` lists (and each subcommand's, for `tables` and `shard`) is named in the
//! command's page under docs/; every link of README.md to docs/ and every relative link of a page
//! resolves to an existing file, and its `#anchor` to a heading of that file; and every path in
//! the README's Layout section exists.
#![forbid(unsafe_code)]

mod common;

use common::run;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each command (its words after `fifteen`) and the page that documents it.
const PAGES: &[(&[&str], &str)] = &[
    (&["solve"], "solve.md"),
    (&["scramble"], "scramble.md"),
    (&["sliding"], "sliding.md"),
    (&["levels"], "levels.md"),
    (&["tables"], "tables.md"),
    (&["tables", "build"], "tables.md"),
    (&["tables", "list"], "tables.md"),
    (&["crosscheck"], "compare-and-crosscheck.md"),
    (&["compare"], "compare-and-crosscheck.md"),
    (&["shard", "plan"], "shard-and-dask.md"),
    (&["shard", "run"], "shard-and-dask.md"),
    (&["shard", "merge"], "shard-and-dask.md"),
    (&["apply"], "moves.md"),
    (&["invert"], "moves.md"),
    (&["simplify"], "moves.md"),
    (&["convert"], "moves.md"),
    (&["completions"], "shell.md"),
    (&["man"], "shell.md"),
    (&["serve"], "serve.md"),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{} unreadable: {e}", path.display()))
}

/// The long options that `help` defines: the `--name`s of its option lines (`      --file
/// <FILE>`, `  -h, --help  Print help`), not those its descriptions mention; without `--help`
/// and `--version`.
fn long_options(help: &str) -> Vec<String> {
    let mut options = Vec::new();
    for line in help.lines() {
        let line = line.trim_start();
        // `--file <FILE>` or `-h, --help`; not a possible value's line (`- knuth: …`).
        if !(line.starts_with("--") || line.get(2..5) == Some(", -")) {
            continue;
        }
        // On a short help line the description follows the definition after two spaces.
        let definition = line.split("  ").next().unwrap_or(line);
        for word in definition.split([' ', ',']) {
            if let Some(name) = word.strip_prefix("--") {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                if !name.is_empty() && name != "help" && name != "version" {
                    options.push(format!("--{name}"));
                }
            }
        }
    }
    options
}

/// Whether `text` names `option` as a whole word (`--peer` is not named by `--peer-timeout`).
fn names(text: &str, option: &str) -> bool {
    text.match_indices(option).any(|(at, _)| {
        !text[at + option.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
    })
}

#[test]
fn long_options_are_read_from_option_lines_only() {
    let help = "Usage: fifteen x [OPTIONS]\n\nOptions:\n      --file <FILE>\n          Solve a file (--all means none)\n      --item <I>...        The items (`--item 3,4`)\n  -h, --help          Print help\n  -V, --version  Print version\n";
    assert_eq!(long_options(help), ["--file", "--item"]);
    assert!(names("with `--peer-timeout` and `--peer CMD`", "--peer"));
    assert!(!names("with `--peer-timeout` only", "--peer"));
}

#[test]
fn every_page_names_every_long_option_of_its_command() {
    let mut missing = Vec::new();
    for (words, page) in PAGES {
        let mut args = words.to_vec();
        args.push("--help");
        let (status, help, stderr) = run(&args);
        assert_eq!(status, 0, "fifteen {} --help: {stderr}", words.join(" "));
        let options = long_options(&help);
        assert!(
            !options.is_empty() || [&["shard", "merge"][..], &["completions"]].contains(words),
            "fifteen {} --help lists no option:\n{help}",
            words.join(" ")
        );
        let text = read(&root().join("docs").join(page));
        for option in options {
            if !names(&text, &option) {
                missing.push(format!(
                    "docs/{page} does not name {option} of `fifteen {}`",
                    words.join(" ")
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Every command that `fifteen --help` lists has its page (a new command cannot go
/// undocumented).
#[test]
fn every_command_has_a_page() {
    let (status, help, _) = run(&["--help"]);
    assert_eq!(status, 0);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|&name| name != "help")
        .collect();
    assert!(commands.len() >= 13, "{help}");
    for command in commands {
        assert!(
            PAGES.iter().any(|(words, _)| words[0] == command),
            "`fifteen {command}` has no page in docs/ (PAGES)"
        );
    }
}

/// The lines of `text` outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push(line);
        }
    }
    lines
}

/// The targets of the Markdown links and images of `text`, outside code blocks: what stands
/// between `](` and its closing parenthesis (parentheses inside it balanced).
fn links(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let mut depth = 0;
            let end = rest.char_indices().find_map(|(i, c)| match c {
                '(' => {
                    depth += 1;
                    None
                }
                ')' if depth == 0 => Some(i),
                ')' => {
                    depth -= 1;
                    None
                }
                _ => None,
            });
            let end = end.unwrap_or(rest.len());
            targets.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    targets
}

/// The anchors GitHub gives the headings of a Markdown text: lower case, only letters, digits,
/// spaces, `-` and `_` kept, spaces made `-`.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .into_iter()
        .filter(|line| line.starts_with('#'))
        .map(|line| {
            line.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// Checks that `target`, a link of the file `from`, resolves (relative to `from`'s directory,
/// with its anchor); `None` when it does, else what is wrong.
fn broken(from: &Path, target: &str) -> Option<String> {
    let (file, anchor) = match target.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (target, None),
    };
    let path: PathBuf = if file.is_empty() {
        from.to_path_buf()
    } else {
        from.parent().expect("a directory").join(file)
    };
    if !path.exists() {
        return Some(format!(
            "{}: link `{target}`: no file {}",
            from.display(),
            path.display()
        ));
    }
    let anchor = anchor?;
    let headings = anchors(&read(&path));
    (!headings.contains(anchor)).then(|| {
        format!(
            "{}: link `{target}`: {} has no heading with anchor #{anchor} (it has {headings:?})",
            from.display(),
            path.display()
        )
    })
}

#[test]
fn the_readme_links_to_docs_pages_that_exist() {
    let readme = root().join("README.md");
    let targets: Vec<String> = links(&read(&readme))
        .into_iter()
        .filter(|t| t.starts_with("docs/") || t.starts_with('#'))
        .collect();
    assert!(
        targets.iter().any(|t| t.starts_with("docs/")),
        "README.md links to no page of docs/"
    );
    for (_, page) in PAGES {
        let link = format!("docs/{page}");
        assert!(
            targets.iter().any(|t| t.split('#').next() == Some(&link)),
            "README.md does not link to {link}"
        );
    }
    let broken: Vec<String> = targets.iter().filter_map(|t| broken(&readme, t)).collect();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_links_between_docs_pages_resolve() {
    let mut broken_links = Vec::new();
    let entries = std::fs::read_dir(root().join("docs")).expect("docs/ is readable");
    for entry in entries {
        let path = entry.expect("a docs/ entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            for target in links(&read(&path)) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                broken_links.extend(broken(&path, &target));
            }
        }
    }
    assert!(broken_links.is_empty(), "{}", broken_links.join("\n"));
}

#[test]
fn the_readme_layout_names_paths_that_exist() {
    let text = read(&root().join("README.md"));
    let layout: Vec<&str> = prose(&text)
        .into_iter()
        .skip_while(|line| *line != "## Layout")
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .collect();
    assert!(!layout.is_empty(), "README.md has no `## Layout` section");
    let mut paths = Vec::new();
    for line in &layout {
        // The code spans: every other piece between backquotes.
        for span in line.split('`').skip(1).step_by(2) {
            if span.contains('/') || span.ends_with(".rs") {
                paths.push(span);
            }
        }
    }
    assert!(
        paths.len() >= 5,
        "the Layout section names few paths: {paths:?}"
    );
    let missing: Vec<&&str> = paths.iter().filter(|p| !root().join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "README.md's Layout names paths that do not exist: {missing:?}"
    );
}
