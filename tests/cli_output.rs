//! `fifteen sliding` and its standard output: write errors end the run (a full device with
//! one line and exit status 2, a closed pipe quietly, and both stop the search), files as
//! people write them (CRLF, no final newline, `-` for standard input), the level sizes a
//! search stopped by `--memory` completed, and flags that would do nothing refused.

mod common;

use common::*;
use predicates::prelude::*;
use std::io::BufRead;
use std::process::Stdio;

const SILLY: &str = "tests/data/sliding/silly.txt";

/// The 15-puzzle from the solved position with no stop line and `--levels`: a search through
/// about 10^13 configurations, which ends at the 16M memory limit (exit status 2 with a message)
/// after about a second unless something stops it first. Its first line is the heading
/// `Starting configuration:`.
fn endless() -> String {
    let text = std::fs::read_to_string("tests/data/sliding/fifteen_puzzle_d15.txt")
        .expect("the 15-puzzle");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.pop(); // the stop line
    lines.join("\n") + "\n"
}

fn endless_file() -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::io::Write::write_all(&mut file, endless().as_bytes()).expect("written");
    file
}

fn dev_full() -> Stdio {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full exists on Linux");
    Stdio::from(file)
}

/// Runs `fifteen ARGS` with standard output on /dev/full: its exit status and stderr.
fn into_dev_full(args: &[&str]) -> (Option<i32>, String) {
    let output = command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(dev_full())
        .stderr(Stdio::piped())
        .output()
        .expect("fifteen runs");
    (
        output.status.code(),
        String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    )
}

#[test]
fn a_full_device_is_one_line_and_exit_status_two() {
    for args in [
        &["sliding", "--style", "0", SILLY][..],
        &["sliding", "--style", "2", "--quiet", SILLY],
        &["sliding", "--style", "1", "--json", SILLY],
    ] {
        let (code, stderr) = into_dev_full(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("cannot write the output: "),
            "{args:?}: {stderr:?}"
        );
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
    }
}

/// A write error stops the search: the endless search would end at the memory limit, with
/// that message, if it went on.
#[test]
fn a_full_device_stops_the_search() {
    let file = endless_file();
    let path = file.path().to_str().expect("a UTF-8 temporary path");
    for flag in ["--verbose", "--quiet"] {
        let args = [
            "sliding", "--style", "0", "--levels", "--memory", "16M", flag, path,
        ];
        let (code, stderr) = into_dev_full(&args);
        assert_eq!(code, Some(2), "{flag}: {stderr}");
        assert!(
            stderr.starts_with("cannot write the output: "),
            "{flag}: {stderr:?}"
        );
        assert!(!stderr.contains("memory limit"), "{flag}: {stderr:?}");
    }
}

/// `fifteen sliding … | head -1`: the reader goes away after one line (or before any); the
/// search stops quietly with exit status 0 instead of running on to the memory limit.
#[test]
fn a_closed_pipe_stops_the_search_quietly() {
    let file = endless_file();
    let path = file.path().to_str().expect("a UTF-8 temporary path");
    for (flag, lines_read) in [("--verbose", 1), ("--quiet", 1), ("--verbose", 0)] {
        let mut child = command()
            .args([
                "sliding", "--style", "0", "--levels", "--memory", "16M", flag, path,
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("fifteen starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut reader = std::io::BufReader::new(stdout);
        for _ in 0..lines_read {
            let mut line = String::new();
            reader.read_line(&mut line).expect("one line");
            let first = if flag == "--quiet" {
                "*** Distance 0:\n"
            } else {
                "Starting configuration:\n"
            };
            assert_eq!(line, first);
        }
        drop(reader);
        let output = child.wait_with_output().expect("fifteen ends");
        let stderr = String::from_utf8(output.stderr).expect("UTF-8 stderr");
        assert_eq!(stderr, "", "{flag} after {lines_read} line(s)");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{flag} after {lines_read} line(s)"
        );
    }
}

fn silly_style(style: &str) -> String {
    let path = format!("tests/data/sliding/output/silly_style{style}.txt");
    std::fs::read_to_string(path).expect("recorded output")
}

#[test]
fn crlf_and_no_final_newline_read_like_the_lf_file() {
    let lf = std::fs::read_to_string(SILLY).expect("the seed's example");
    let crlf = lf.replace('\n', "\r\n");
    let unterminated = lf.strip_suffix('\n').expect("ends with LF").to_string();
    let both = crlf
        .strip_suffix("\r\n")
        .expect("ends with CRLF")
        .to_string();
    let expected = silly_style("0");
    for text in [crlf, unterminated, both] {
        fifteen()
            .args(["sliding", "--style", "0"])
            .write_stdin(text.clone())
            .assert()
            .success()
            .stderr("")
            .stdout(expected.clone());
        let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
        std::io::Write::write_all(&mut file, text.as_bytes()).expect("written");
        fifteen()
            .args(["sliding", "--style", "0"])
            .arg(file.path())
            .assert()
            .success()
            .stdout(expected.clone());
    }
}

#[test]
fn a_dash_reads_standard_input() {
    let text = std::fs::read_to_string(SILLY).expect("the seed's example");
    fifteen()
        .args(["sliding", "--style", "0", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(silly_style("0"));
    fifteen()
        .args(["sliding", "--style", "0", "-"])
        .write_stdin("2 x 2\n1 = 1\n1?\n1\n")
        .assert()
        .code(2)
        .stderr("standard input: line 3: '?' may only appear in a stopping configuration: the start must name every cell\n");
}

/// The 8-puzzle's level sizes from the solved position (OEIS A089473).
const EIGHT_LEVELS: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
    16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

/// The search `--memory` stops ends its open line and prints the level sizes it completed,
/// then (on stderr) the message naming the distance it was working on.
#[test]
fn the_memory_limit_prints_the_completed_level_sizes_first() {
    for quiet in [false, true] {
        let mut command = fifteen();
        command.args(["sliding", "--style", "0", "--memory", "64K"]);
        if quiet {
            command.arg("--quiet");
        }
        let assert = command
            .arg("tests/data/sliding/eight_puzzle.txt")
            .assert()
            .code(2);
        let output = assert.get_output();
        let stdout = String::from_utf8(output.stdout.clone()).expect("UTF-8");
        let stderr = String::from_utf8(output.stderr.clone()).expect("UTF-8");
        let reached = memory_limit_distance(&stderr)
            .unwrap_or_else(|| panic!("the memory message: {stderr:?}"));
        assert!(reached > 1, "{stderr}");
        let completed = &EIGHT_LEVELS[..reached];
        let sizes: Vec<String> = completed.iter().map(u64::to_string).collect();
        let total: u64 = completed.iter().sum();
        let tail = format!(
            "Level sizes (completed distances 0..{}): {}\nTotal: {total} configurations\n",
            reached - 1,
            sizes.join(" ")
        );
        assert!(
            stdout.ends_with(&tail),
            "{stdout:?} should end with {tail:?}"
        );
        // The line of the unfinished distance (its first configuration) was ended.
        let before = &stdout[..stdout.len() - tail.len()];
        let unfinished = format!("*** Distance {reached}:\n");
        let last_line = before
            .rsplit_once(&unfinished)
            .map(|(_, rest)| rest)
            .unwrap_or_else(|| panic!("{unfinished:?} in {stdout:?}"));
        assert!(
            last_line.ends_with('\n')
                && last_line.trim_end().chars().all(|c| c.is_ascii_hexdigit()),
            "{last_line:?}"
        );
    }
}

/// The distance named by `the memory limit of 64K was reached at distance D (…)`.
fn memory_limit_distance(stderr: &str) -> Option<usize> {
    let rest = stderr.strip_prefix("the memory limit of 64K was reached at distance ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if !rest[digits.len()..].starts_with(" (") || stderr.lines().count() != 1 {
        return None;
    }
    digits.parse().ok()
}

#[test]
fn json_with_verbose_or_quiet_is_a_usage_error() {
    for flag in ["--verbose", "--quiet"] {
        fifteen()
            .args(["sliding", "--style", "0", "--json", flag, SILLY])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("cannot be used with"));
    }
}
