//! `fifteen scramble`: seeded positions are the same every run and differ between seeds; each
//! is a solvable position of the board, in the notation `solve` reads; uniform draws cover the
//! 2x2 puzzle's 12 solvable positions evenly; a walk of L moves ends at most L moves away, with
//! L's parity; and the output goes straight into `solve --file`.
#![forbid(unsafe_code)]

mod common;

use common::*;
use fifteen::{Board, Convention, Position};
use std::collections::HashMap;

fn scramble(args: &[&str]) -> Vec<String> {
    let mut argv = vec!["scramble"];
    argv.extend_from_slice(args);
    let (status, stdout, stderr) = run(&argv);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(stderr, "");
    stdout.lines().map(str::to_string).collect()
}

#[test]
fn seeded_positions_are_solvable_and_the_same_every_run() {
    let first = scramble(&["--count", "20", "--seed", "7"]);
    assert_eq!(first.len(), 20);
    assert_eq!(first, scramble(&["--count", "20", "--seed", "7"]));
    assert_ne!(first, scramble(&["--count", "20", "--seed", "8"]));
    for line in &first {
        let position = Position::parse(line, None, Convention::Knuth).expect("a position");
        assert_eq!(position.board(), Board::fifteen());
        assert!(position.is_solvable(), "{line}");
    }
    // Another board and Korf's convention.
    for line in scramble(&["--size", "3x4", "--count", "5", "--convention", "korf"]) {
        let board = Board::new(3, 4).ok();
        let position = Position::parse(&line, board, Convention::Korf).expect("a position");
        assert!(position.is_solvable(), "{line}");
    }
    // Without a seed, two runs draw different positions.
    assert_ne!(scramble(&["--count", "5"]), scramble(&["--count", "5"]));
}

#[test]
fn uniform_draws_cover_the_2x2_puzzle_evenly() {
    let lines = scramble(&["--size", "2x2", "--count", "12000", "--seed", "3"]);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for line in lines {
        *counts.entry(line).or_default() += 1;
    }
    // 4!/2 solvable positions, a thousand draws each expected (standard deviation about 30).
    assert_eq!(counts.len(), 12, "{counts:?}");
    assert!(
        counts.values().all(|&n| (850..1150).contains(&n)),
        "{counts:?}"
    );
}

#[test]
fn walks_end_near_the_goal_and_feed_solve() {
    let lines = scramble(&[
        "--size", "3x3", "--walk", "11", "--count", "30", "--seed", "5",
    ]);
    let input = lines.join("\n");
    let output = fifteen()
        .args(["solve", "--heuristic", "manhattan", "--file", "-"])
        .write_stdin(input)
        .output()
        .expect("solve runs");
    let (status, stdout, stderr) = texts(&output);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("30 positions solved, "), "{stdout}");
    // `POSITION: Solution in H+S moves: …`: at most 11 moves, and an odd number of them.
    for line in stdout.lines().filter(|l| l.contains("Solution in ")) {
        let split = line.split("Solution in ").nth(1).unwrap_or_default();
        let moves = split.split(' ').next().unwrap_or_default();
        let (happy, sad) = moves.split_once('+').unwrap_or_default();
        let length = happy.parse::<u32>().unwrap_or(99) + sad.parse::<u32>().unwrap_or(99);
        assert!(length <= 11 && length % 2 == 1, "{line}");
    }
}
