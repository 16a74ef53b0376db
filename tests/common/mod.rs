//! Helpers shared by the command-line tests (`mod common;` in each file): the binary, with its
//! pattern databases kept under the build's scratch directory (never in the user's cache), its
//! output as text, and the checks several of them make on it; and a check the MTM engines'
//! tests share.
#![allow(dead_code)] // each test file uses some of them

use std::process::Output;

/// The binary as `assert_cmd` drives it (`.assert()`, `.write_stdin(…)`).
pub fn fifteen() -> assert_cmd::Command {
    assert_cmd::Command::from_std(command())
}

/// The binary as a plain [`std::process::Command`], for standard streams of one's own choice
/// (`/dev/full`, a pipe closed early) and `spawn`.
pub fn command() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_fifteen"));
    command.env("FIFTEEN_TABLES", scratch().join("tables"));
    command
}

/// The build's scratch directory for tests.
pub fn scratch() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
}

/// The directory of the tests' pattern databases and machines (built once, then read).
pub fn tables() -> std::path::PathBuf {
    scratch().join("tables")
}

/// Runs `fifteen ARGS`, returning (status, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    texts(&fifteen().args(args).output().expect("fifteen runs"))
}

/// Runs `fifteen ARGS` with `input` on its standard input, returning (status, stdout, stderr).
pub fn run_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    let output = fifteen().args(args).write_stdin(input).output();
    texts(&output.expect("fifteen runs"))
}

/// `fifteen ARGS` with `input` on its standard input, to assert on (`.success()`, `.stdout(…)`).
pub fn with_input(args: &[&str], input: &str) -> assert_cmd::assert::Assert {
    fifteen().args(args).write_stdin(input).assert()
}

/// Runs `fifteen ARGS`, which must refuse them as bad input or usage (status 2); its stderr.
pub fn refused(args: &[&str]) -> String {
    let (status, stdout, stderr) = run(args);
    assert_eq!(status, 2, "{args:?}: {stdout}{stderr}");
    stderr
}

/// Checks that `text` has one line per prefix, each starting with its prefix.
pub fn assert_lines_start(text: &str, prefixes: &[&str]) {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), prefixes.len(), "{text}");
    for (line, prefix) in lines.iter().zip(prefixes) {
        assert!(line.starts_with(prefix), "{prefix:?}: {text}");
    }
}

/// The numbered lines of `text`, `N. …`, as the move lists of `--moves board` write them.
pub fn numbered_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .collect()
}

/// A finished run's (status, stdout, stderr); a run killed by a signal has status -1.
pub fn texts(output: &Output) -> (i32, String, String) {
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `text` with every time in seconds, `(1.23 sec)`, written `(T sec)`: its shape is checked, not
/// the figure, which a descheduled process changes.
pub fn timeless(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let figure = after
            .find(" sec)")
            .map(|end| &after[..end])
            .filter(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit() || c == '.'));
        match figure {
            Some(figure) => {
                out.push_str("(T sec)");
                rest = &after[figure.len() + " sec)".len()..];
            }
            None => {
                out.push('(');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The length and the moves of the last line of `solve`: `Solution in H+S moves: MOVES (T
/// sec)`, or the multi-tile metric's `Solution in N moves (S in STM): MOVES (T sec)`.
pub fn solution(out: &str) -> (usize, String) {
    let last = out.lines().last().expect("a solution line");
    let (head, rest) = last.split_once(": ").expect("Solution in …: MOVES (T sec)");
    let moves = rest.rsplit_once(" (").expect("a time").0.to_string();
    let count = head
        .trim_start_matches("Solution in ")
        .split(' ')
        .next()
        .expect("a length");
    let length = count
        .split('+')
        .map(|n| n.parse::<usize>().expect("a number"))
        .sum();
    (length, moves)
}

/// Solves `start` with `engine` and checks the first solution: it replays, and takes `start` to
/// the goal in `distance` moves of the multi-tile metric. The outcome.
pub fn solve_in_mtm(
    engine: &dyn fifteen::Engine,
    start: &fifteen::Position,
    options: &fifteen::SearchOptions,
    distance: u32,
) -> fifteen::SearchOutcome {
    let outcome = engine.solve(start, options, &mut |_| {}).expect("solvable");
    let solution = &outcome.solutions[0];
    assert!(solution.solves(start), "{start:?}");
    assert_eq!(
        fifteen::mtm::moves::length(start, &solution.moves),
        Some(distance as usize),
        "{start:?}"
    );
    outcome
}
