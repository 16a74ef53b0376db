//! Helpers shared by the command-line tests (`mod common;` in each file): the binary, with its
//! pattern databases kept under the build's scratch directory (never in the user's cache), and
//! its output as text.
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

/// Runs `fifteen ARGS`, returning (status, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    texts(&fifteen().args(args).output().expect("fifteen runs"))
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
