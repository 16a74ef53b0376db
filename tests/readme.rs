//! README.md shows what the binary does: every command of its ```console blocks (a line that
//! starts with `$ `) is run through `sh -c`, in order, in one fresh directory, with `fifteen` on
//! the PATH and the tables kept under the build's scratch directory; it must succeed, and its
//! standard output must be the lines the README shows after it (up to the next `$ ` or the end
//! of the block): exactly, except the figures of times (`(0.01 sec)`, `built in 0.4 sec`,
//! `4.16 M nodes/sec`), which change from run to run and are compared by their shape. The README
//! stays a front page (under 200 lines), and CI runs its test command as it is written there.
#![forbid(unsafe_code)]

mod common;

use common::scratch;
use std::path::Path;
use std::process::Command;

/// One command of a ```console block and the output the README shows for it.
#[derive(Debug)]
struct Example {
    /// The README's line number of the command, counted from 1.
    line: usize,
    command: String,
    expected: String,
}

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    std::fs::read_to_string(&path).expect("README.md is readable")
}

/// The commands of the ```console blocks of `text`, each with the lines that follow it.
fn examples(text: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_end();
        if !in_console {
            in_console = trimmed == "```console";
            continue;
        }
        if trimmed == "```" {
            in_console = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                line: index + 1,
                command: command.to_string(),
                expected: String::new(),
            });
        } else {
            let example = examples.last_mut().unwrap_or_else(|| {
                panic!(
                    "README.md line {}: output before any `$ ` command",
                    index + 1
                )
            });
            example.expected.push_str(line);
            example.expected.push('\n');
        }
    }
    assert!(!in_console, "README.md ends inside a ```console block");
    examples
}

/// `text` with every figure of a time written `T`: a number followed by ` sec` or ` M nodes/sec`
/// (`(0.01 sec)` becomes `(T sec)`, `3.51 M nodes/sec` becomes `T M nodes/sec`).
fn timeless(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(first) = rest.chars().next() {
        if first.is_ascii_digit() {
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            let after = &rest[end..];
            if after.starts_with(" sec") || after.starts_with(" M nodes/sec") {
                out.push('T');
            } else {
                out.push_str(&rest[..end]);
            }
            rest = after;
        } else {
            out.push(first);
            rest = &rest[first.len_utf8()..];
        }
    }
    out
}

#[test]
fn timeless_hides_the_figures_of_times_only() {
    assert_eq!(
        timeless("Solution in 49+8 moves: 45ac (0.13 sec)\n3 positions, 254164 nodes, 0.01 sec"),
        "Solution in 49+8 moves: 45ac (T sec)\n3 positions, 254164 nodes, T sec"
    );
    assert_eq!(
        timeless("19718 nodes generated in 12 sec (4.16 M nodes/sec)"),
        "19718 nodes generated in T sec (T M nodes/sec)"
    );
    assert_eq!(timeless("fsm-12.bin, 0.2 MB"), "fsm-12.bin, 0.2 MB");
    // A changed figure that is not a time is a difference.
    assert_ne!(timeless("0.7 MB (1.2 sec)"), timeless("0.8 MB (1.2 sec)"));
}

#[test]
fn examples_are_parsed_from_console_blocks_only() {
    let text = "```\n$ not run\n```\ntext\n```console\n$ one\na\nb\n$ two\n```\n```console\n$ three\n```\n";
    let found = examples(text);
    let summary: Vec<(usize, &str, &str)> = found
        .iter()
        .map(|e| (e.line, e.command.as_str(), e.expected.as_str()))
        .collect();
    assert_eq!(
        summary,
        [(6, "one", "a\nb\n"), (9, "two", ""), (12, "three", "")]
    );
}

#[test]
fn every_example_of_the_readme_prints_what_the_readme_shows() {
    let examples = examples(&readme());
    assert!(
        examples
            .iter()
            .any(|e| e.command == "fifteen solve d68cfe0ab7459132"),
        "README.md has no ```console example of `fifteen solve d68cfe0ab7459132`: {examples:#?}"
    );
    run_examples("README.md", &examples);
}

/// The ```console examples of the docs pages too (the move verbs' page has at least six).
#[test]
fn every_example_of_the_docs_pages_prints_what_it_shows() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut pages = 0;
    for entry in std::fs::read_dir(&docs).expect("docs/ is readable") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable page");
        let examples = examples(&text);
        let name = format!(
            "docs/{}",
            path.file_name().expect("a name").to_string_lossy()
        );
        if name == "docs/moves.md" {
            assert!(examples.len() >= 6, "{examples:#?}");
        }
        pages += usize::from(!examples.is_empty());
        run_examples(&name, &examples);
    }
    assert!(
        pages >= 2,
        "docs/ has {pages} pages with ```console examples"
    );
}

/// Runs `examples` of the file `name` and fails, naming each line, where one does not print
/// what it shows.
fn run_examples(name: &str, examples: &[Example]) {
    let binary = Path::new(env!("CARGO_BIN_EXE_fifteen"));
    let bin_dir = binary.parent().expect("the binary has a directory");
    let path = match std::env::var_os("PATH") {
        Some(path) => {
            let mut dirs = vec![bin_dir.to_path_buf()];
            dirs.extend(std::env::split_paths(&path));
            std::env::join_paths(dirs).expect("a PATH")
        }
        None => bin_dir.as_os_str().to_owned(),
    };
    // Commands that write files (`> positions.txt`, `--tables my-tables`) write them here.
    let cwd = tempfile::tempdir_in(scratch()).expect("a scratch directory");
    let mut failures = Vec::new();
    for example in examples {
        let output = Command::new("sh")
            .arg("-c")
            .arg(&example.command)
            .current_dir(cwd.path())
            .env("PATH", &path)
            .env("FIFTEEN_TABLES", scratch().join("readme-tables"))
            .output()
            .expect("sh runs");
        let (status, stdout, stderr) = common::texts(&output);
        if status != 0 {
            failures.push(format!(
                "{name} line {}: `{}` exited with status {status}\nstderr:\n{stderr}",
                example.line, example.command
            ));
        } else if timeless(&stdout) != timeless(&example.expected) {
            failures.push(format!(
                "{name} line {}: `{}` printed\n{stdout}--- where it shows\n{}--- (stderr:\n{stderr})",
                example.line, example.command, example.expected
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} examples of {name} differ:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_readme_stays_a_front_page() {
    let lines = readme().lines().count();
    assert!(
        lines < 200,
        "README.md has {lines} lines: reference material belongs in docs/"
    );
}

/// The lines of the plain ``` blocks of `text` (not ```console or other languages).
fn plain_block_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        match fence {
            None if trimmed.starts_with("```") => fence = Some(&trimmed[3..]),
            None => {}
            Some(_) if trimmed == "```" => fence = None,
            Some("") => lines.push(trimmed),
            Some(_) => {}
        }
    }
    lines
}

#[test]
fn the_readme_gives_the_two_commands_and_ci_runs_its_test_command() {
    let text = readme();
    let commands = plain_block_lines(&text);
    for command in [
        "cargo run --release -- solve d68cfe0ab7459132",
        "cargo test --release --workspace",
    ] {
        assert!(
            commands.contains(&command),
            "README.md has no ``` block with `{command}`: {commands:?}"
        );
    }
    let ci = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run");
    let script = std::fs::read_to_string(&ci).expect(".ci/run is readable");
    assert!(
        script
            .lines()
            .any(|line| line.trim() == "cargo test --release --workspace"),
        ".ci/run does not run the README's test command `cargo test --release --workspace`"
    );
}
