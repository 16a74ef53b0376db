//! `fifteen solve` as a user meets it: output lines, options, every bad input's message and
//! exit status (0 solved, 1 no solution, 2 bad input or usage), and no panic anywhere.
#![forbid(unsafe_code)]

mod common;

use common::*;
use predicates::prelude::*;

/// Korf's instance 9 in Knuth's notation.
const KORF9: &str = "01f69a43e8cb572d";

/// Runs `fifteen solve --engine ida --heuristic manhattan ARGS` (Knuth's search, with his
/// bound), returning (status, stdout, stderr).
fn knuths_search(args: &[&str]) -> (i32, String, String) {
    run(&[
        &["solve", "--engine", "ida", "--heuristic", "manhattan"][..],
        args,
    ]
    .concat())
}

#[test]
fn solves_with_knuths_lines() {
    let (status, stdout, _) = knuths_search(&[KORF9]);
    assert_eq!(status, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 8);
    assert!(lines[0].starts_with(" ... no solution with 32+0 moves ("));
    assert!(lines[6].starts_with(" ... no solution with 38+6 moves ("));
    let last = lines[7];
    assert!(last.starts_with("Solution in 39+7 moves: "), "{last}");
    assert!(last.ends_with(" sec)"), "{last}");
}

#[test]
fn korf_convention_reads_and_writes_korfs_numbers() {
    // Korf's instance 9 in his own notation; the moves come back in his numbering too.
    let korf = "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0";
    let (status, stdout, _) = knuths_search(&["--convention", "korf", korf]);
    assert_eq!(status, 0);
    let (_, knuth, _) = knuths_search(&[KORF9]);
    let moves = |text: &str| -> String {
        let last = text.lines().last().unwrap_or_default();
        last.split(": ")
            .nth(1)
            .unwrap_or_default()
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let converted: String = moves(&knuth)
        .chars()
        .map(|c| {
            c.to_digit(16)
                .map_or('?', |x| std::char::from_digit(16 - x, 16).unwrap_or('?'))
        })
        .collect();
    assert_eq!(moves(&stdout), converted);
    assert_eq!(moves(&stdout).len(), 46);
}

#[test]
fn all_prints_every_optimal_solution() {
    let (status, stdout, _) = run(&["solve", "--engine", "ida", "--all", "867254301"]);
    assert_eq!(status, 0);
    let solutions = stdout
        .lines()
        .filter(|l| l.starts_with("Solution in 26+5 moves: "))
        .count();
    assert_eq!(solutions, 40);
    assert!(stdout
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("40 optimal solutions")));
}

#[test]
fn stats_report_nodes() {
    let (status, stdout, _) = knuths_search(&["--order", "SEWN", "--stats", KORF9]);
    assert_eq!(status, 0);
    assert!(stdout.contains("1650696 nodes generated in "), "{stdout}");
    assert!(stdout.contains(" M nodes/sec)"));
}

#[test]
fn json_is_one_object() {
    let (status, stdout, _) = knuths_search(&["--json", "--order", "sewn", KORF9]);
    assert_eq!(status, 0);
    let value: serde_json::Value = serde_json::from_str(stdout.trim()).expect("valid JSON");
    assert_eq!(value["position"], KORF9);
    assert_eq!(value["engine"], "ida");
    assert_eq!(value["length"], 46);
    assert_eq!(value["happy"], 39);
    assert_eq!(value["sad"], 7);
    assert_eq!(value["nodes"], 1650696);
    assert_eq!(value["moves"].as_str().map(str::len), Some(46));
    assert!(value["seconds"].is_f64());
}

#[test]
fn other_sizes_and_decimal_notation() {
    let (status, stdout, _) = run(&["solve", "--engine", "ida", "--size", "2x3", "4,5,0,1,2,3"]);
    assert_eq!(status, 0, "{stdout}");
    assert!(stdout
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("Solution in ")));
    let (status, stdout, _) = run(&["solve", "--engine", "ida", "--size", "2x3", "450123"]);
    assert_eq!(status, 0);
    let moves = stdout.lines().last().unwrap_or_default().to_string();
    assert!(moves.contains("moves: "), "{moves}");
    // 5x5: a few moves from the goal, written in decimal (with Knuth's bound: the default
    // would build the 90 MB of 6-6-6-6 tables first).
    let five = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,0,24";
    let (status, stdout, _) = run(&["solve", "--engine", "ida", "--heuristic", "manhattan", five]);
    assert_eq!(status, 0);
    assert_eq!(
        timeless(&stdout).trim_end().lines().last(),
        Some("Solution in 1+0 moves: 24 (T sec)")
    );
}

#[test]
fn unsolvable_says_sorry_and_exits_one() {
    fifteen()
        .args(["solve", "123456789abcdfe0"])
        .assert()
        .code(1)
        .stdout("Sorry ... the goal is unreachable from that start position!\n");
    fifteen()
        .args(["solve", "--json", "123456789abcdfe0"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\"solvable\":false"));
}

/// Every bad input: its one-line message on stderr and exit status 2.
#[test]
fn bad_inputs_get_knuths_messages() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "123456789abcdeg0"],
            "The start position should use only hex digits (0123456789abcdef)!",
        ),
        (
            &["solve", "123456789abcdee0"],
            "Your start position uses e twice!",
        ),
        (
            &["solve", "--size", "4x4", "123456789abcde0"],
            "The start position has 15 tiles, but a 4x4 board needs 16: f is missing!",
        ),
        (
            &["solve", "1234567890"],
            "The start position has 10 tiles; give --size RxC",
        ),
        (
            &["solve", "--size", "3x3", "1,2,3,4,5,6,7,0,9"],
            "Your start position uses 9, but a 3x3 board has tiles 0 to 8 only!",
        ),
        (
            &["solve", "--size", "3x3", "1,2,3,4,5,6,7,8,0,9"],
            "The start position has 10 tiles, but a 3x3 board needs 9!",
        ),
        (&["solve", "1,2,3,4,5,6,7,8,x"], "is not one!"),
        (&["solve", "--size", "6x6", "1"], "2 to 5 rows and columns"),
        (
            &["solve", "--size", "2x2", "123"],
            "The start position has 3 tiles, but a 2x2 board needs 4: 0 (the blank) is missing!",
        ),
        (
            &["solve", "--order", "EEWS", "123456789abcdef0"],
            "--order takes the four directions",
        ),
        (
            &["solve", "--engine", "quantum", "123456789abcdef0"],
            "invalid value 'quantum'",
        ),
        (&["solve"], "required"),
        (&["solve", ""], "The start position is empty!"),
    ];
    for (args, message) in cases {
        let (status, stdout, stderr) = run(args);
        assert_eq!(status, 2, "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        if !stderr.contains("Usage") {
            assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        }
    }
}

#[test]
fn a_position_of_one_tile_is_counted_in_the_singular() {
    // It said "has 1 tiles".
    let stderr = refused(&["solve", "--size", "3x3", "1"]);
    assert_eq!(
        stderr.trim_end(),
        "The start position has 1 tile, but a 3x3 board needs 9: 0 (the blank), 2, 3 and 5 more are missing!"
    );
    let stderr = refused(&["solve", "0"]);
    assert!(
        stderr.starts_with("The start position has 1 tile, and no board has that many cells"),
        "{stderr}"
    );
    let stderr = refused(&["apply", "--size", "6x6", "7,", "U"]);
    assert!(
        stderr.contains("has 1 tile, but a 6x6 board needs 36"),
        "{stderr}"
    );
}

#[test]
fn wrong_length_on_an_explicit_board() {
    // Every tile of a 3x3 board, then one more: too many tiles is the fault to name, not the
    // repeat Knuth's order of checks would find.
    let stderr = refused(&["solve", "--size", "3x3", "1234567800"]);
    assert_eq!(
        stderr.trim_end(),
        "The start position has 10 tiles, but a 3x3 board needs 9!"
    );
    // Too few: the count is the fault (issue 53: it said "doesn't use 8!"), and the tiles
    // left out are named, the blank as such.
    let stderr = refused(&["solve", "--size", "3x3", "12345670"]);
    assert_eq!(
        stderr.trim_end(),
        "The start position has 8 tiles, but a 3x3 board needs 9: 8 is missing!"
    );
    let cases = [
        (
            "12345678",
            "8 tiles, but a 3x3 board needs 9: 0 (the blank) is missing!",
        ),
        (
            "1 2 3 4 5 6 7",
            "7 tiles, but a 3x3 board needs 9: 0 (the blank) and 8 are missing!",
        ),
        (
            "2 4",
            "2 tiles, but a 3x3 board needs 9: 0 (the blank), 1, 3 and 4 more are missing!",
        ),
    ];
    for (position, message) in cases {
        let stderr = refused(&["solve", "--size", "3x3", position]);
        assert_eq!(stderr, format!("The start position has {message}\n"));
    }
}

/// Four tiles are a 2x2 board: the help and the error for an unknown count say so with 9, 12,
/// 16 and 25 (issue 33); and the help gives the memory the 5x5 tables take, to build (once)
/// and then to solve.
#[test]
fn help_and_errors_name_every_board_known_by_its_tiles() {
    let stderr = refused(&["solve", "1234567890"]);
    assert_eq!(
        stderr.trim_end(),
        "The start position has 10 tiles; give --size RxC for a board of that many cells (4, 9, 12, 16 and 25 are recognised without it)!"
    );
    // No board has 3 cells: no --size to advise (issue 41).
    let stderr = refused(&["solve", "123"]);
    assert_eq!(
        stderr.trim_end(),
        "The start position has 3 tiles, and no board has that many cells (boards of 2 to 5 rows and columns have 4, 6, 8, 9, 10, 12, 15, 16, 20 or 25)!"
    );
    let (status, help, _) = run(&["solve", "--help"]);
    assert_eq!(status, 0);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("inferred from 4, 9, 12, 16 or 25 tiles when omitted"),
        "{help}"
    );
    assert!(
        help.contains(
            "5x5: 6-6-6-6, about 1.5 minutes and 0.25 GB of memory to build; one solve holds only the blocks it reads, a batch all 90 MB"
        ),
        "{help}"
    );
}

/// `solve --file` with one position: "1 position solved".
#[test]
fn one_position_is_one_position() {
    let (status, stdout, stderr) = run_with_input(
        &["solve", "--heuristic", "manhattan", "--file", "-"],
        "123456078\n",
    );
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("\n1 position solved, "), "{stdout}");
}

/// Positions as players write them, rows separated by `/` (their shape is the board), in a
/// file that starts with a UTF-8 byte-order mark (issue 41).
#[test]
fn rows_with_slashes_and_a_byte_order_mark() {
    let (status, stdout, stderr) = run(&["solve", "--heuristic", "manhattan", "1 2 3/4 0 5"]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(timeless(&stdout), "Solution in 1+0 moves: 5 (T sec)\n");
    let stderr = refused(&["solve", "1 2 3/4 5/6 7 8 0"]);
    assert_eq!(
        stderr.trim_end(),
        "Row 2 of the start position has 2 tiles, but the first row has 3!"
    );
    let (status, stdout, stderr) = run_with_input(
        &["solve", "--heuristic", "manhattan", "--file", "-"],
        "\u{feff}1 2 3/4 5 6/7 0 8\n",
    );
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stdout.starts_with("123456708: Solution in 1+0 moves: 8"),
        "{stdout}"
    );
}

/// `solve --file` of nothing says so, with the status it gives (0); `--file --stats` gives
/// each position's nodes line, whose counts add up to the summary's (issue 41).
#[test]
fn an_empty_file_is_said_and_stats_come_per_position() {
    let (status, stdout, stderr) = run_with_input(&["solve", "--file", "-"], "# nothing here\n\n");
    assert_eq!(status, 0);
    assert_eq!(stdout, "0 positions solved, 0 nodes, 0.00 sec\n");
    assert_eq!(
        stderr,
        "(- holds no position, only blank lines and # comments: nothing to solve, exit status 0)\n"
    );
    let (status, stdout, _) = run_with_input(
        &[
            "solve",
            "--heuristic",
            "manhattan",
            "--stats",
            "--file",
            "-",
        ],
        "867254301\n647850321\n",
    );
    assert_eq!(status, 0);
    let per_position: Vec<u64> = stdout
        .lines()
        .filter_map(|l| l.split_once(" nodes generated in "))
        .filter_map(|(head, _)| head.rsplit(' ').next()?.parse().ok())
        .collect();
    assert_eq!(per_position.len(), 2, "{stdout}");
    assert!(
        stdout
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("867254301: ")),
        "{stdout}"
    );
    let total = per_position.iter().sum::<u64>();
    assert!(
        stdout.contains(&format!("2 positions solved, {total} nodes, ")),
        "{stdout}"
    );
}

#[test]
fn duplicate_pruning_is_asked_for_and_refused_where_it_means_nothing() {
    // Korf's instance 9 with Knuth's bound: the same bounds and length, fewer nodes.
    let nodes = |stdout: &str| -> u64 {
        stdout
            .lines()
            .find_map(|l| l.split_once(" nodes generated"))
            .and_then(|(n, _)| n.trim().parse().ok())
            .unwrap_or(0)
    };
    let solve = |prune: &str| {
        let args = [
            "solve",
            "--heuristic",
            "manhattan",
            "--stats",
            "--prune",
            prune,
        ];
        let (status, stdout, stderr) = run(&[&args[..], &[KORF9]].concat());
        assert_eq!(status, 0, "{stderr}");
        stdout
    };
    let (knuth, pruned) = (solve("none"), solve("fsm"));
    let bounds = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.split(" (").next().unwrap_or_default().to_string())
            .take_while(|l| !l.starts_with("Solution"))
            .collect()
    };
    assert_eq!(bounds(&knuth), bounds(&pruned));
    assert!(knuth.contains("Solution in 39+7 moves"), "{knuth}");
    assert!(pruned.contains("Solution in 39+7 moves"), "{pruned}");
    assert!(
        0 < nodes(&pruned) && nodes(&pruned) < nodes(&knuth),
        "{knuth}{pruned}"
    );
    // --all lists every optimal path; bfs meets each position once.
    let stderr = refused(&["solve", "--all", "--prune", "fsm", "867254301"]);
    assert!(
        stderr.contains("--all lists every optimal path, so it prunes none"),
        "{stderr}"
    );
    let stderr = refused(&["solve", "--engine", "bfs", "--prune", "fsm", "867254301"]);
    assert!(
        stderr.contains("--prune is for the IDA* engines"),
        "{stderr}"
    );
}

#[test]
fn times_are_written_as_their_shape() {
    assert_eq!(
        timeless("Solution in 2+0 moves (0.00 sec):\n ... (12.5 sec) (x sec) (sec)"),
        "Solution in 2+0 moves (T sec):\n ... (T sec) (x sec) (sec)"
    );
}
