//! The puzzle library (`puzzles/`): every published optimal move count is what the engine
//! finds, in the style the literature counts in, by a path that the plain reference replays
//! move by move and that ends on a configuration matching the stop reported (matched block by
//! block, not by the engine's stop test); every puzzle file is compiled in; and the
//! command line lists and runs them.

mod sliding_path;

use assert_cmd::Command;
use fifteen::sliding::{library, Puzzle};

#[test]
fn every_published_count_is_reproduced() {
    let entries = library::entries();
    assert!(entries.len() >= 10);
    let mut checked = 0;
    for entry in &entries {
        let puzzle = Puzzle::parse(entry.text.as_bytes()).expect("a valid puzzle");
        for &(style, published) in &entry.published {
            // Every library puzzle is small enough for the reference's moves, superpieces too
            // (at most 12 blocks).
            let (distance, _) = sliding_path::solve_and_check(entry.name, &puzzle, style);
            assert_eq!(distance, published, "{} style {}", entry.name, style.0);
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} counts");
}

#[test]
fn every_file_of_the_directory_is_in_the_library() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .expect("puzzles/")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".txt").map(str::to_string))
        .collect();
    on_disk.sort();
    let mut compiled: Vec<String> = library::FILES.iter().map(|(n, _)| n.to_string()).collect();
    compiled.sort();
    assert_eq!(on_disk, compiled);
    for (name, text) in library::FILES {
        let path = format!("{dir}/{name}.txt");
        assert_eq!(std::fs::read_to_string(&path).ok().as_deref(), Some(*text));
    }
}

#[test]
fn the_command_line_lists_and_runs_the_library() {
    let list = Command::cargo_bin("fifteen")
        .expect("binary")
        .args(["sliding", "--list"])
        .output()
        .expect("runs");
    assert_eq!(list.status.code(), Some(0));
    let text = String::from_utf8_lossy(&list.stdout);
    for entry in library::entries() {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{} ", entry.name)))
            .unwrap_or_else(|| panic!("{} listed", entry.name));
        assert!(
            line.contains(&format!("{}x{}", entry.rows, entry.cols)),
            "{line}"
        );
    }
    let json = Command::cargo_bin("fifteen")
        .expect("binary")
        .args(["sliding", "--puzzle", "klotski", "--style", "2", "--json"])
        .output()
        .expect("runs");
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(value["distance"], 81);
    let unknown = Command::cargo_bin("fifteen")
        .expect("binary")
        .args(["sliding", "--puzzle", "klotsky", "--style", "2"])
        .output()
        .expect("runs");
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        stderr
            .starts_with("there is no puzzle \"klotsky\" in the library; choose one of klotski, "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    // A puzzle and a file at once: a usage error.
    let both = Command::cargo_bin("fifteen")
        .expect("binary")
        .args(["sliding", "--puzzle", "klotski", "--style", "2", "x.txt"])
        .output()
        .expect("runs");
    assert_eq!(both.status.code(), Some(2));
}
