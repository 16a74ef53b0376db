//! What a user trips on around the engines (issue 21): closed pipes and full devices, absurd
//! counts, boards an engine cannot take, messages that name the real fault, flags that do
//! nothing, move notations, and `compare --peer` checking its peers. Each test here failed
//! before its fix. (`fifteen sliding`'s share is in `cli_output.rs`.)
#![forbid(unsafe_code)]

mod common;

use common::*;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

/// Runs `fifteen ARGS` with standard output on the full device: (status, stderr).
fn run_into_full_device(args: &[&str]) -> (i32, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full exists on Linux");
    let output = command()
        .args(args)
        .stdout(Stdio::from(full))
        .output()
        .expect("fifteen runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `fifteen ARGS` into a pipe whose reader goes away after `lines` lines: (status, stderr).
fn run_into_closed_pipe(args: &[&str], lines: usize) -> (i32, String) {
    let mut child = command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fifteen starts");
    let stdout = child.stdout.take().expect("piped");
    let mut reader = BufReader::new(stdout);
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
    }
    drop(reader);
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut stderr).expect("stderr");
    }
    let status = child.wait().expect("fifteen ends");
    (status.code().unwrap_or(-1), stderr)
}

/// A batch of 8-puzzle positions whose output is far larger than a pipe's buffer, so that the
/// writer meets the closed pipe whatever the timing.
fn many_positions() -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("many_positions.txt");
    let mut text = String::new();
    for _ in 0..500 {
        text.push_str("867254301\n123456708\n");
    }
    std::fs::write(&path, text).expect("scratch file");
    path
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let file = many_positions();
    let file = file.to_str().expect("utf-8 path");
    let cases: Vec<(Vec<&str>, usize)> = vec![
        // Korf's #2: its bound lines come over a tenth of a second; the reader is gone at once.
        (
            vec!["solve", "--heuristic", "manhattan", "a510f9de28476cb3"],
            0,
        ),
        (vec!["solve", "--heuristic", "manhattan", "--file", file], 1),
        (
            vec!["crosscheck", "--count", "300", "--engines", "automaton,ida"],
            0,
        ),
        (
            vec![
                "compare", "--random", "3000", "--size", "2x2", "--repeat", "1", "--csv",
            ],
            1,
        ),
    ];
    for (args, lines) in cases {
        let (status, stderr) = run_into_closed_pipe(&args, lines);
        assert_eq!(status, 0, "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn a_full_device_is_one_error_line_and_status_2() {
    let file = many_positions();
    let file = file.to_str().expect("utf-8 path");
    for args in [
        vec!["solve", "--heuristic", "manhattan", "867254301"],
        vec!["solve", "--heuristic", "manhattan", "--json", "867254301"],
        vec!["solve", "--heuristic", "manhattan", "--file", file],
        vec!["crosscheck", "--count", "3"],
        vec!["compare", "--repeat", "1", "867254301"],
        vec!["tables", "list"],
    ] {
        let (status, stderr) = run_into_full_device(&args);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        // (With --json the bound lines go to stderr; the error is the last line.)
        assert_eq!(
            stderr.lines().last(),
            Some("cannot write the output: No space left on device (os error 28)"),
            "{args:?}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// `--help` and `--version` into a full device: the same line and status as any output
/// (issue 53: they exited 0).
#[test]
fn help_and_version_into_a_full_device_are_an_error() {
    for args in [
        vec!["--help"],
        vec!["--version"],
        vec!["solve", "--help"],
        vec!["help", "apply"],
    ] {
        let (status, stderr) = run_into_full_device(&args);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert_eq!(
            stderr, "cannot write the output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn huge_counts_run_in_bounded_memory_or_are_refused() {
    // Unbounded counts stream: under a 1 GB address-space limit the cross-check keeps going
    // (it used to abort at once, allocating every position first).
    let mut child = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 1000000 && exec \"$0\" crosscheck --count 18446744073709551615 --size 2x2",
            env!("CARGO_BIN_EXE_fifteen"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    // Its peak resident memory (the shell became fifteen), a second in and two seconds later.
    let peak = |pid: u32| -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    std::thread::sleep(std::time::Duration::from_secs(1));
    let early = peak(child.id());
    std::thread::sleep(std::time::Duration::from_secs(2));
    let late = peak(child.id());
    let still_running = child.try_wait().expect("waitable").is_none();
    let _ = child.kill();
    let output = child.wait_with_output().expect("ends");
    assert!(
        still_running,
        "crosscheck ended early: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Thousands of positions checked, in a few megabytes that do not grow (4 MB here).
    if std::path::Path::new("/proc/self/status").exists() {
        let (Some(early), Some(late)) = (early, late) else {
            panic!("no VmHWM in /proc for the running crosscheck");
        };
        assert!(late <= 32 << 10, "peak resident {late} kB");
        assert!(
            late <= early + (1 << 10),
            "peak grew from {early} kB to {late} kB"
        );
    }
    for (args, message) in [
        (
            vec!["crosscheck", "--walk", "18446744073709551615"],
            "--walk takes a number of moves from 0 to 1000000",
        ),
        (
            vec!["compare", "--random", "4294967296"],
            "--random takes at most 100000 positions",
        ),
        (
            vec!["compare", "--repeat", "100000000", "867254301"],
            "--repeat takes 1 to 1000 timed runs",
        ),
        (
            vec!["compare", "--random", "100000", "--repeat", "1000"],
            "timed runs; at most 10000000 are kept",
        ),
    ] {
        let (status, _, stderr) = run(&args);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn boards_bfs_cannot_take_are_skipped_with_a_note() {
    let (status, stdout, stderr) = run(&[
        "crosscheck",
        "--size",
        "5x5",
        "--walk",
        "30",
        "--count",
        "3",
    ]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(!stdout.contains("DISAGREEMENT"), "{stdout}");
    assert!(
        stdout.contains("the bfs engine has no board of size 5x5"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().last(),
        Some("3 positions, 6 engine runs (3 skipped), 0 disagreements")
    );

    let (status, stdout, stderr) = run(&[
        "compare", "--random", "2", "--size", "5x5", "--walk", "20", "--repeat", "1",
    ]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.split_whitespace().skip(1).take(2).eq(["bfs", "skip"]))
            .count(),
        2,
        "{stdout}"
    );
    assert!(stdout.contains("times faster than"), "{stdout}");

    // Nothing timed at all is a failure.
    let (status, _, stderr) = run(&[
        "compare",
        "--random",
        "2",
        "--size",
        "5x5",
        "--walk",
        "20",
        "--repeat",
        "1",
        "--engines",
        "bfs",
    ]);
    assert_eq!(status, 1);
    assert!(stderr.contains("nothing was timed"), "{stderr}");
}

#[test]
fn messages_name_the_real_fault() {
    for (args, status, message) in [
        (
            vec!["solve", "1,2,3,0,4,5,6,7,8", "--size", "2x2"],
            2,
            "The start position has 9 tiles, but a 2x2 board needs 4!",
        ),
        (
            vec!["solve", "123456780", "867254301"],
            2,
            "2 positions were given, but solve takes one",
        ),
        (
            vec!["solve", "123456789abcdfe0"],
            1,
            "it is solvable with --convention korf",
        ),
        (
            vec!["solve", "--convention", "korf", "0213456789abcdef"],
            1,
            "it is solvable with --convention knuth",
        ),
        (
            vec!["solve", "--engine", "bfs", "--all", "867254301"],
            2,
            "not with bfs",
        ),
        (
            vec!["solve", "--memory", "1G", "867254301"],
            2,
            "--memory bounds the bfs engine's table",
        ),
        (vec!["compare", "--walk", "3", "867254301"], 2, "--random"),
        (vec!["compare", "--seed", "3", "867254301"], 2, "--random"),
    ] {
        let (code, _, stderr) = run(&args);
        assert_eq!(code, status, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // Four tiles are a 2x2 board, as 9, 12, 16 and 25 name theirs.
    let (status, stdout, _) = run(&["solve", "--heuristic", "manhattan", "3210"]);
    assert_eq!(status, 1, "3210 is an unsolvable 2x2 position: {stdout}");
    let (status, stdout, _) = run(&["solve", "--heuristic", "manhattan", "1203"]);
    assert_eq!(status, 0);
    assert!(stdout.starts_with("Solution in 1+0 moves: 3 "), "{stdout}");
}

#[test]
fn usage_errors_show_clap_usage_and_its_tip() {
    let stderr = refused(&["solv", "867254301"]);
    assert!(
        stderr.contains("tip: a similar subcommand exists: 'solve'"),
        "{stderr}"
    );
    assert!(stderr.contains("Usage: fifteen"), "{stderr}");
    let stderr = refused(&[]);
    assert!(stderr.contains("Usage: fifteen <COMMAND>"), "{stderr}");
    assert!(stderr.contains("crosscheck"), "{stderr}");
}

/// Applies the blank's moves (U, D, L, R on the board as written) to `tiles` (0 is the blank).
fn apply_blank_moves(tiles: &mut [usize], cols: usize, letters: &str) {
    for letter in letters.chars() {
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        let target = match letter {
            'U' => blank - cols,
            'D' => blank + cols,
            'L' => blank - 1,
            'R' => blank + 1,
            other => panic!("not a move: {other}"),
        };
        tiles.swap(blank, target);
    }
}

#[test]
fn moves_in_the_blanks_notation_and_as_boards() {
    // Knuth's convention: the blank's moves bring the board to 1..8 with the blank last.
    let (status, stdout, _) = run(&[
        "solve",
        "--heuristic",
        "manhattan",
        "--moves",
        "blank",
        "--stats",
        "867254301",
    ]);
    assert_eq!(status, 0);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Solution in 26+5 moves (blank): "))
        .expect("a solution line");
    let letters = line
        .split(": ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("moves");
    assert_eq!(letters.len(), 31);
    let mut tiles = vec![8, 6, 7, 2, 5, 4, 3, 0, 1];
    apply_blank_moves(&mut tiles, 3, letters);
    assert_eq!(tiles, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
    assert!(
        stdout.contains("31 moves in all (26 happy, 5 sad)"),
        "{stdout}"
    );

    // Korf's convention: his board as he writes it, his goal (blank first).
    let korf = "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0";
    let (status, stdout, _) = run(&[
        "solve",
        "--heuristic",
        "manhattan",
        "--convention",
        "korf",
        "--moves",
        "blank",
        korf,
    ]);
    assert_eq!(status, 0);
    let letters = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Solution in "))
        .and_then(|l| l.split(": ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .expect("a solution line");
    let mut tiles: Vec<usize> = korf.split(' ').map(|t| t.parse().expect("tile")).collect();
    apply_blank_moves(&mut tiles, 4, letters);
    assert_eq!(tiles, (0..16).collect::<Vec<_>>());

    // Boards: the start, then one picture per move, the last the goal.
    let (status, stdout, _) = run(&[
        "solve",
        "--heuristic",
        "manhattan",
        "--moves",
        "board",
        "123456078",
    ]);
    assert_eq!(status, 0);
    assert_eq!(
        timeless(&stdout),
        "Solution in 2+0 moves (T sec):\n1 2 3\n4 5 6\n. 7 8\n\
         1. 7\n1 2 3\n4 5 6\n7 . 8\n\
         2. 8\n1 2 3\n4 5 6\n7 8 .\n"
    );
}

/// A peer program: a shell script that prints `line` whatever the position.
fn peer_script(name: &str, body: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("scratch file");
    let mut permissions = std::fs::metadata(&path).expect("written").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&path, permissions).expect("executable");
    path.display().to_string()
}

#[test]
fn peers_are_replayed_timed_out_and_their_failures_named() {
    let position = "123456078";
    let honest = peer_script("honest_peer.sh", "echo 'Solution in 2+0 moves: 78 (0 sec)'");
    let wrong = peer_script("wrong_peer.sh", "echo 'Solution in 2+0 moves: 87 (0 sec)'");
    let failing = peer_script("failing_peer.sh", "exit 3");
    let slow = peer_script("slow_peer.sh", "sleep 10");
    let (status, stdout, stderr) = run(&["compare", "--repeat", "1", "--peer", &honest, position]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains(&honest), "{stdout}");
    for (peer, message) in [
        (&wrong, "gave moves that do not replay to the goal: 87"),
        (&failing, "failed (exit 3)"),
        (&slow, "timed out after 0.5 sec"),
    ] {
        let (status, _, stderr) = run(&[
            "compare",
            "--repeat",
            "1",
            "--peer-timeout",
            "0.5",
            "--peer",
            peer,
            position,
        ]);
        assert_eq!(status, 1, "{peer}: {stderr}");
        assert!(stderr.contains(message), "{peer}: {stderr}");
        assert!(!stderr.contains("disagree"), "{peer}: {stderr}");
    }
}

#[test]
fn compare_file_notes_unsolvable_lines_and_goes_on() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare_lines.txt");
    std::fs::write(&path, "867254301\n# comment\n123456870\n123456078\n").expect("scratch");
    let path = path.to_str().expect("utf-8");
    let (status, stdout, stderr) = run(&["compare", "--repeat", "1", "--file", path]);
    assert_eq!(status, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("line 3: 123456870: the goal is unreachable"),
        "{stderr}"
    );
    assert!(stdout.contains("867254301"), "{stdout}");
    assert!(stdout.contains("123456078"), "{stdout}");
    assert!(stdout.contains("times faster than"), "{stdout}");
}

/// With pattern databases the reference engine is an oracle hundreds of times slower than the
/// automaton (issue 33): by default `compare` leaves it out and says why on stderr; named, it
/// runs, with one line on stderr and a note under the table (CSV and JSON as before).
#[test]
fn compare_with_tables_leaves_the_oracle_out_unless_named() {
    let (status, stdout, stderr) =
        run(&["compare", "--heuristic", "8", "--repeat", "1", "867254301"]);
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stderr.starts_with("(ida left out: with pattern databases the reference engine ida is an unoptimised oracle: it recomputes each child's bound from scratch"),
        "{stderr}"
    );
    let engines: Vec<&str> = stdout
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("867254301"))
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    assert_eq!(engines, ["automaton/8", "bfs"], "{stdout}");

    let named = [
        "compare",
        "--engines",
        "ida,automaton",
        "--heuristic",
        "8",
        "--repeat",
        "1",
    ];
    let (status, stdout, stderr) = run(&[&named[..], &["867254301"]].concat());
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(stderr.matches("unoptimised oracle").count(), 1, "{stderr}");
    assert!(stdout.contains("867254301  ida/8 "), "{stdout}");
    assert!(
        stdout.contains(
            "(ida/8: with pattern databases the reference engine ida is an unoptimised oracle"
        ),
        "{stdout}"
    );
    let (status, csv, _) = run(&[&named[..], &["--csv", "867254301"]].concat());
    assert_eq!(status, 0);
    assert_eq!(
        csv.lines().next(),
        Some("position,engine,length,nodes,seconds,nodes_per_second")
    );
    assert_eq!(csv.lines().count(), 3, "{csv}");
}

/// `compare --korf50`, the command docs/compare-and-crosscheck.md gives, runs the automaton alone among the IDA* engines
/// (the reference engine would take hours): the note comes before anything else, before the
/// 6-6-6-6 tables are even built (here, into an empty directory, so the run is stopped).
#[test]
fn compare_korf50_leaves_the_oracle_out() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut child = command()
        .env("FIFTEEN_TABLES", dir.path())
        .args(["compare", "--korf50", "38"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fifteen starts");
    let mut first = String::new();
    if let Some(stderr) = child.stderr.take() {
        BufReader::new(stderr)
            .read_line(&mut first)
            .expect("stderr readable");
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        first.starts_with("(ida left out: with pattern databases the reference engine ida"),
        "{first}"
    );
}

/// The progress line of `compare` on a terminal says what runs and how many positions are
/// done, with the time elapsed: no estimate of the time left, which per-run steps make wrong
/// when positions differ a thousandfold. (A terminal by script(1), from util-linux.)
#[test]
fn compare_progress_counts_positions_and_guesses_no_time_left() {
    let command = format!(
        "{} compare --repeat 2 867254301 123456078",
        env!("CARGO_BIN_EXE_fifteen")
    );
    let Ok(output) = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
    else {
        let why = "no script(1): the progress line is not checked";
        assert!(
            std::env::var_os("CI").is_none(),
            "under CI, not skipped: {why}"
        );
        eprintln!("skipped: {why}");
        return;
    };
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{shown}");
    // (The line is redrawn at most 20 times a second: only the first message is sure to show.)
    assert!(
        shown.contains("checking 867254301 with automaton (0 of 2 positions checked)"),
        "{shown}"
    );
    assert!(
        !shown.contains(" left)") && !shown.contains(" runs, "),
        "{shown}"
    );
}

/// With one contestant there is nothing to compare: no `Summary` heading; with one position the
/// summary says so in the singular; a failing peer's own last word on stderr is shown.
#[test]
fn compare_summaries_and_peer_failures_say_what_happened() {
    // Hiroi's position timed `repeat` times with `engines`: (status, stdout).
    let compare = |engines: &str, repeat: &str| {
        let args = [
            "compare",
            "--engines",
            engines,
            "--repeat",
            repeat,
            "867254301",
        ];
        let (status, stdout, _) = run(&args);
        (status, stdout)
    };
    let (status, stdout) = compare("automaton", "1");
    assert_eq!(status, 0);
    assert!(!stdout.contains("Summary"), "{stdout}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    let (status, stdout) = compare("automaton,ida", "1");
    assert_eq!(status, 0);
    assert!(stdout.contains("times faster than"), "{stdout}");
    assert!(stdout.trim_end().ends_with(" (1 position)"), "{stdout}");
    // One repeat has no spread: no `± 0.00` (issue 41); two have one.
    assert!(!stdout.contains('±'), "{stdout}");
    let (_, stdout) = compare("automaton,ida", "2");
    assert!(stdout.contains(" ± "), "{stdout}");

    let talking = peer_script(
        "talking_peer.sh",
        "echo 'cannot open tables.bin' >&2\nexit 3",
    );
    let (status, _, stderr) = run(&["compare", "--repeat", "1", "--peer", &talking, "123456078"]);
    assert_eq!(status, 1, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!("peer {talking} failed (exit 3) on 123456078; its stderr: cannot open tables.bin")
    );
}

/// `--moves board` heads each picture with the tile pushed in decimal, as the pictures draw
/// it, in either convention (Knuth's 15 and Korf's 10 were written `f` and `a`).
#[test]
fn board_moves_name_tiles_as_the_pictures_draw_them() {
    // Knuth's goal with the blank one step left; Korf's with the blank walked down twice and
    // right twice.
    for (convention, position, expected) in [
        ("knuth", "123456789abcde0f", &["1. 15"][..]),
        (
            "korf",
            "4 1 2 3 8 5 6 7 9 10 0 11 12 13 14 15",
            &["1. 10", "2. 9", "3. 8", "4. 4"],
        ),
    ] {
        let (status, stdout, _) = run(&[
            "solve",
            "--heuristic",
            "manhattan",
            "--convention",
            convention,
            "--moves",
            "board",
            position,
        ]);
        assert_eq!(status, 0);
        assert_eq!(numbered_lines(&stdout), expected, "{stdout}");
    }
}
