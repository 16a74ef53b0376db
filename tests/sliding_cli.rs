//! `fifteen sliding` and `fifteen solve --engine bfs` from the outside: the seed's output
//! format, the exit statuses (0 solved, 1 no solution, 2 bad input), and one test per kind of
//! malformed input with its one-line message.

mod common;

use common::*;
use predicates::prelude::*;

fn sliding(style: &str, input: &str) -> assert_cmd::assert::Assert {
    with_input(&["sliding", "--style", style], input)
}

const SILLY: &str = "tests/data/sliding/silly.txt";

#[test]
fn silly_style_zero_prints_the_seed_format() {
    let expected = std::fs::read_to_string("tests/data/sliding/output/silly_style0.txt").unwrap();
    fifteen()
        .args(["sliding", "--style", "0", SILLY])
        .assert()
        .success()
        .stdout(expected);
}

/// The output of `fifteen ARGS`, which must succeed, as text.
fn output(args: &[&str]) -> String {
    let out = fifteen()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("utf-8 output")
}

/// Our output for `style` on a puzzle of `tests/data/sliding`, as text.
fn sliding_output(style: &str, puzzle: &str) -> String {
    output(&[
        "sliding",
        "--style",
        style,
        &format!("tests/data/sliding/{puzzle}.txt"),
    ])
}

/// The part of an output up to the solution line (the search itself, not the path).
fn up_to_solution(text: &str) -> &str {
    let end = text.find("... Solution!").expect("a solution line");
    &text[..end]
}

/// The original's output recorded in `tests/data/sliding/output`.
fn recorded(style: &str, puzzle: &str) -> String {
    std::fs::read_to_string(format!(
        "tests/data/sliding/output/{puzzle}_style{style}.txt"
    ))
    .expect("recorded output")
}

#[test]
fn superpieces_come_in_the_seed_order() {
    for (style, puzzle) in [("3", "klotski"), ("4", "pennant")] {
        let ours = sliding_output(style, puzzle);
        assert_eq!(ours, recorded(style, puzzle), "{puzzle} style {style}");
    }
}

#[test]
fn paths_are_explored_in_the_seed_order() {
    for (style, puzzle) in [("5", "klotski"), ("2", "century")] {
        let (ours, original) = (sliding_output(style, puzzle), recorded(style, puzzle));
        assert_eq!(
            up_to_solution(&ours),
            up_to_solution(&original),
            "{puzzle} style {style}"
        );
    }
}

#[test]
fn silly_style_two_prints_distances_and_the_path() {
    let text = output(&["sliding", "--style", "2", SILLY]);
    assert!(text.starts_with("Starting configuration:\n          \n 1-1-1    \n   |      \n"));
    assert!(text
        .contains("(using moves of style 2)\n*** Distance 0:\n1200000000033.\n*** Distance 1:\n"));
    assert!(text.contains(" and 28 more.\n*** Distance 2:\n"));
    assert!(text.contains("... Solution!\n\n3:\n"));
    assert!(text.contains("\n2:\n") && text.contains("\n1:\n") && !text.contains("\n4:\n"));
}

#[test]
fn quiet_prints_only_distances_and_the_result() {
    fifteen()
        .args(["sliding", "--style", "5", "--quiet", SILLY])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "*** Distance 0:\n1200000000033.\n",
        ))
        .stdout(predicate::str::ends_with("... Solution!\n"))
        .stdout(predicate::str::contains("Starting").not())
        .stdout(predicate::str::contains("*** Distance 2:\n"));
}

#[test]
fn verbose_numbers_every_configuration() {
    fifteen()
        .args(["sliding", "--style", "0", "--verbose", "tests/data/sliding/five_puzzle_2x3.txt"])
        .assert()
        .success()
        .stdout(predicate::str::contains("*** Distance 0:\n12345 (0=#0, from #0)\n*** Distance 1:\n123405 (1=#1, from #0)\n120453 (2=#2, from #0)\n"))
        .stdout(predicate::str::contains("450123 (359=#167, from #"))
        .stdout(predicate::str::contains("and").not());
}

#[test]
fn solved_in_zero_moves() {
    sliding("0", "1 x 3 t\n1 = 1\n1\n1\n")
        .success()
        .stdout(predicate::str::ends_with(
            "*** Distance 0:\n1\nYou're joking: That puzzle is solved in zero moves!\n",
        ));
}

#[test]
fn no_solution_exits_one_with_the_reachable_count() {
    sliding("0", "1 x 3 t\n1 = 1\n2 = 1\n12\n21\n")
        .code(1)
        .stdout(predicate::str::contains("*** Distance 3:\nNo solution: the stopping configuration is not among the 3 configurations reachable from the start (the farthest at distance 2).\n"));
}

#[test]
fn levels_without_a_stop_explore_everything() {
    with_input(
        &["sliding", "--style", "0", "--levels", "--quiet"],
        "1 x 3 t\n1 = 1\n2 = 1\n12\n",
    )
    .success()
    .stdout(predicate::str::contains("Level sizes (all distances 0..2): 1 1 1\nTotal: 3 configurations\n3 configurations are reachable; the farthest are at distance 2.\n"));
}

#[test]
fn json_gives_distance_levels_and_moves() {
    let out = output(&["sliding", "--style", "1", "--json", SILLY]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["distance"], 10);
    assert_eq!(report["solved"], true);
    assert_eq!(report["levels"].as_array().unwrap().len(), 10);
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 10);
    for m in moves {
        let blocks = m.as_array().unwrap();
        assert_eq!(blocks.len(), 1, "style 1 moves one block");
        assert!(blocks[0]["piece"].is_string() && blocks[0]["from"] != blocks[0]["to"]);
    }
    assert_eq!(report["path"][0], "1200000000033");
}

#[test]
fn json_superpiece_moves_list_every_block() {
    let out = output(&[
        "sliding",
        "--style",
        "4",
        "--json",
        "tests/data/sliding/twins_corridor.txt",
    ]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["distance"], 1);
    assert_eq!(
        report["moves"][0],
        serde_json::json!([
            {"piece": "1", "from": [1, 1], "to": [1, 3]},
            {"piece": "1", "from": [1, 2], "to": [1, 4]},
        ]),
        "blocks listed in row-major order of where they were, cells counted from 1"
    );
}

#[test]
fn style_out_of_range_is_a_usage_error() {
    fifteen()
        .args(["sliding", "--style", "6", SILLY])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the style should be between 0 and 5",
        ));
}

#[test]
fn memory_limit_names_the_limit_and_the_distance() {
    fifteen()
        .args(["sliding", "--style", "0", "--memory", "64K", "tests/data/sliding/eight_puzzle.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::is_match(r"^the memory limit of 64K was reached at distance \d+ \(\d+ configurations in memory\); give a larger --memory\n$").unwrap());
}

#[test]
fn bad_memory_sizes_are_usage_errors() {
    for size in ["12Q", "", "10", "99999999999999999999G"] {
        fifteen()
            .args(["sliding", "--style", "0", "--memory", size, SILLY])
            .assert()
            .code(2);
    }
}

#[test]
fn missing_file_is_bad_input() {
    fifteen()
        .args(["sliding", "--style", "0", "no/such/puzzle.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("no/such/puzzle.txt: "));
}

/// Each malformed input: exit status 2 and exactly one line naming the line and the problem.
#[test]
fn malformed_inputs_get_one_line_each() {
    let cases: [(&str, &str); 20] = [
        ("", "line 1: the input is empty"),
        ("five by five\n1 = 1\n1\n1\n", "line 1: bad board size"),
        ("0 x 5\n1 = 1\n1\n1\n", "line 1: bad board size"),
        ("17 x 16\n1 = 1\n1\n1\n", "line 1: a 17 x 16 board has 272 cells; at most 256"),
        ("2 x 2\ng = 1\n1\n1\n", "line 2: bad piece name \"g\""),
        ("2 x 2\n1 = 12\n1\n1\n", "line 2: bad character '2' in the pattern of piece 1"),
        ("2 x 2\n1 = 00/0\n1\n1\n", "line 2: piece 1 is empty"),
        ("2 x 2\n1 = 1\n\n1 = 11\n1\n1\n", "line 4: piece 1 is defined twice (first on line 2)"),
        ("2 x 2\n1\n1\n", "line 2: no piece is defined"),
        ("2 x 2\n1 = 1\n2\n2\n", "line 3: the starting configuration uses piece 2, which is not defined"),
        ("2 x 2\n1 = 1\n11111\n1\n", "line 3: the starting configuration names more cells than the 4-cell board has"),
        ("2 x 2\n1 = 11\n01\n1\n", "line 3: in the starting configuration, piece 1 placed at row 1, column 2 sticks out of the board"),
        ("2 x 2\n1 = 1\n1-\n1\n", "line 3: bad character '-' in the starting configuration"),
        ("2 x 3\n1 = 1/1\n2 = 11\n012\n012\n", "line 4: in the starting configuration, piece 2 placed at row 1, column 3 sticks out"),
        ("2 x 2\n1 = 1/1\n2 = 01/11\n12\n12\n", "line 4: in the starting configuration, piece 2 placed at row 1, column 2 fills row 2, column 1 a second time"),
        ("2 x 2\n1 = 1\n1x\n10\n", "line 4: the dead cells (x) differ between the starting and stopping configurations (row 1, column 2)"),
        ("2 x 2\n1 = 1\n2 = 1\n12\n11\n", "line 5: the stopping configuration has 2 piece(s) 1, the starting configuration 1"),
        ("2 x 2\n1 = 1\n", "line 3: missing the starting configuration"),
        ("2 x 2\n1 = 1\n1\n", "line 4: missing the stopping configuration"),
        ("2 x 2\n1 = 1\n0000\n0\n", "line 3: the puzzle has no pieces"),
    ];
    for (input, message) in cases {
        let assert = sliding("0", input).code(2).stdout("");
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(
            stderr.starts_with(&format!("standard input: {message}")),
            "input {input:?}: got {stderr:?}, wanted {message:?}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    }
}

#[test]
fn more_malformed_inputs() {
    for (input, message) in [
        (
            "2 x 2\n1 = 1\n1?\n1\n",
            "line 3: '?' may only appear in a stopping configuration",
        ),
        (
            "2 x 2\n1 = 1\n1\n1\nextra\n",
            "line 5: the stopping configuration uses piece e, which is not defined",
        ),
        (
            "2 x 2\n1 = 1\n1\n\u{e9}\n",
            "line 4: the line contains a byte that is not ASCII",
        ),
        ("2 x 2\n1 = 1\n1\n1x\n", "line 4: the dead cells (x) differ"),
    ] {
        let assert = sliding("0", input).code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(
            stderr.starts_with(&format!("standard input: {message}")),
            "{stderr:?}"
        );
    }
}

#[test]
fn solve_engine_bfs_finds_the_same_length_as_ida() {
    let line = |engine: &str| output(&["solve", "--engine", engine, "8,6,7,2,5,4,3,0,1"]);
    let bfs = line("bfs");
    assert!(bfs.starts_with("Solution in 26+5 moves: "), "{bfs}");
    assert!(line("ida").contains("Solution in 26+5 moves: "));
}

#[test]
fn solve_engine_bfs_respects_memory_and_refuses_all_and_order() {
    for (args, message) in [
        (
            &["--memory", "64K", "8,6,7,2,5,4,3,0,1"][..],
            "the memory limit of 64K was reached at distance",
        ),
        (
            &["--all", "1,2,3,4,5,6,0,7,8"],
            "--all is for the IDA* engines",
        ),
        (
            &["--order", "SEWN", "1,2,3,4,5,6,0,7,8"],
            "--order works only with --engine ida",
        ),
        (
            &[
                "--size",
                "5x4",
                "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,0,19",
            ],
            "bfs engine has no board of size",
        ),
    ] {
        fifteen()
            .args(["solve", "--engine", "bfs"])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

/// 2^32 superpieces can move from the start: the search must stop at the memory limit, not
/// collect them first.
#[test]
fn astronomically_many_superpieces_stop_at_the_memory_limit() {
    let input = format!(
        "1 x 64 row\n1 = 1\n{}\n{}\n",
        "10".repeat(32),
        "01".repeat(32)
    );
    for style in ["3", "4", "5"] {
        let args = ["sliding", "--style", style, "--quiet", "--memory", "1M"];
        with_input(&args, &input)
            .code(2)
            .stderr(predicate::str::starts_with(
                "the memory limit of 1M was reached at distance 1 (",
            ));
    }
}

/// The library's other names for its puzzles are accepted (issue 33: Red Donkey, L'Ane Rouge
/// and Huarong Dao are Klotski, Dad's Puzzle is the Pennant Puzzle) and listed.
#[test]
fn aliases_are_accepted_and_listed() {
    for (name, moves) in [
        ("red_donkey", 81),
        ("ane_rouge", 81),
        ("Huarong-Dao", 81),
        ("dads_puzzle", 59),
    ] {
        let json = output(&["sliding", "--puzzle", name, "--style", "2", "--json"]);
        let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        assert_eq!(value["distance"], moves, "{name}");
    }
    let list = output(&["sliding", "--list"]);
    let klotski = list
        .lines()
        .find(|l| l.starts_with("klotski "))
        .expect("listed");
    assert!(
        klotski.ends_with("; also huarong_dao, red_donkey, ane_rouge, forget_me_not"),
        "{klotski}"
    );
}

/// `--puzzle NAME` without `--style`: one line naming the styles of the published counts (the
/// count depends on the style, so none is assumed), exit status 2.
#[test]
fn a_puzzle_without_a_style_names_the_published_styles() {
    fifteen()
        .args(["sliding", "--puzzle", "klotski"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "--puzzle klotski needs --style N (0-5): its published counts are 81 moves in style 2, \
             90 moves in style 1, 116 moves in style 0 (e.g. --style 2)\n",
        );
}

/// The path is listed as the original lists it, from the configuration reached back to the
/// start's first move; with a partial stop the configuration reached comes first, under the
/// stop drawn with `?` (as docs/sliding.md says).
#[test]
fn a_partial_stops_path_begins_with_the_configuration_reached() {
    let output = fifteen()
        .args(["sliding", "--puzzle", "klotski", "--style", "2"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let path = text.split("... Solution!\n").nth(1).expect("a path");
    let heads: Vec<&str> = path.lines().filter(|l| l.ends_with(':')).collect();
    assert_eq!(heads.first(), Some(&"81:"), "{path}");
    assert_eq!(heads.last(), Some(&"1:"), "{path}");
    assert_eq!(heads.len(), 81);
}
