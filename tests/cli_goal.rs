//! `--goal`: solving toward any goal, its blank on any cell, in either parity class and either
//! convention, gives the length a plain breadth-first search from that goal finds (every
//! engine that serves the goal, both metrics), with moves that `apply --goal` replays from the
//! start to the goal; a start of the other class gets Knuth's "Sorry" line (status 1); toward
//! a goal whose blank is not in a corner the automata search (with tables built for that goal
//! in STM), and the relabelled table, built for the corner, is refused in one line (status 2); `--file` and `--json` follow the goal too; errors in the goal's
//! position name the goal.
#![forbid(unsafe_code)]

mod common;

use common::{refused, run, scratch, solution};
use fifteen::{Board, Convention, Direction, Position};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;

/// The distances of every position from `goal`, single-tile moves (`jump` false) or runs along
/// a line as one move (the multi-tile metric), by breadth-first search from the goal.
fn distances(goal: Position, jump: bool) -> HashMap<Position, usize> {
    let mut seen = HashMap::from([(goal, 0)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(p) = queue.pop_front() {
        let d = seen[&p];
        for direction in Direction::ALL {
            let mut next = p;
            while next.move_blank(direction).is_some() {
                seen.entry(next).or_insert_with(|| {
                    queue.push_back(next);
                    d + 1
                });
                if !jump {
                    break;
                }
            }
        }
    }
    seen
}

/// The positions within `depth` moves of `goal` with their distances, in the order a
/// breadth-first search from the goal meets them (single-tile moves, or with `jump` runs along
/// a line as one move).
fn near(goal: Position, jump: bool, depth: usize) -> Vec<(Position, usize)> {
    let mut seen = HashSet::from([goal]);
    let mut order = vec![(goal, 0)];
    let mut next = 0;
    while let Some(&(p, d)) = order.get(next) {
        next += 1;
        if d == depth {
            continue;
        }
        for direction in Direction::ALL {
            let mut after = p;
            while after.move_blank(direction).is_some() {
                if seen.insert(after) {
                    order.push((after, d + 1));
                }
                if !jump {
                    break;
                }
            }
        }
    }
    order
}

/// Positions at random from the class of `goal` (walks of random length from it).
fn starts(goal: Position, count: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let mut p = goal;
            for _ in 0..40 + next() % 40 {
                p.move_blank(Direction::ALL[(next() % 4) as usize]);
            }
            p
        })
        .collect()
}

#[test]
fn every_engine_and_metric_reaches_each_corner_goal_in_the_fewest_moves() {
    let board = Board::new(3, 3).expect("3x3");
    // A goal per corner, in both parity classes, and one in Korf's convention.
    let goals = [
        ("087654321", Convention::Knuth),
        ("123456780", Convention::Knuth),
        ("213456780", Convention::Knuth),
        ("320145678", Convention::Knuth),
        ("864213075", Convention::Knuth),
        ("087654321", Convention::Korf),
    ];
    for (i, (text, convention)) in goals.into_iter().enumerate() {
        let goal = Position::parse(text, Some(board), convention).expect("a goal");
        let stm = distances(goal, false);
        let mtm = distances(goal, true);
        assert_eq!(stm.len(), 181_440);
        let name = match convention {
            Convention::Knuth => "knuth",
            Convention::Korf => "korf",
        };
        for start in starts(goal, 5, 1 + i as u64) {
            let start_text = start.notation(convention);
            let base = ["--goal", text, "--convention", name];
            // Solves with `options`, in `distance` moves, and replays the moves with `apply`:
            // the length and what `apply` says.
            let solve_and_apply = |options: [&str; 2], distance: usize| {
                let mut args = vec!["solve", &start_text];
                args.extend(options);
                args.extend(base);
                let (status, out, err) = run(&args);
                assert_eq!(status, 0, "{args:?}: {err}");
                let (length, moves) = solution(&out);
                assert_eq!(length, distance, "{args:?}");
                let mut check = vec!["apply", &start_text, &moves];
                check.extend(base);
                let (status, reached, _) = run(&check);
                assert_eq!(status, 0, "{check:?}: {reached}");
                (length, reached)
            };
            for engine in ["automaton", "ida", "bfs"] {
                let (length, reached) = solve_and_apply(["--engine", engine], stm[&start]);
                assert!(
                    reached.contains(&format!(": the goal, after {length} move")),
                    "{reached}"
                );
            }
            let (length, reached) = solve_and_apply(["--metric", "mtm"], mtm[&start]);
            assert!(
                reached.ends_with(&format!(" ({length} in MTM)\n")),
                "{reached}"
            );
        }
        // A start of the other class never reaches the goal.
        let mut other = goal;
        let tiles: Vec<u8> = {
            let mut t = other.tiles().to_vec();
            let (a, b) = match (t[0], t[1]) {
                (0, _) => (1, 2),
                (_, 0) => (0, 2),
                _ => (0, 1),
            };
            t.swap(a, b);
            t
        };
        other = Position::from_tiles(board, &tiles).expect("a permutation");
        let other_text = other.notation(convention);
        let (status, out, _) = run(&["solve", &other_text, "--goal", text, "--convention", name]);
        assert_eq!(
            (status, out.as_str()),
            (
                1,
                "Sorry ... the goal is unreachable from that start position!\n"
            )
        );
    }
}

#[test]
fn loyds_puzzle_is_solved_from_its_own_side() {
    // Loyd's 14-15 goal; a start of its class: a position of the usual class with 14 and 15
    // swapped. The same search as the start with them not swapped toward the usual goal.
    let loyd = "123456789abcdfe0";
    let (status, toward, err) = run(&["solve", "--goal", loyd, "0283174e6dcf59ab"]);
    assert_eq!(status, 0, "{err}");
    let (status, usual, _) = run(&["solve", "0283174f6dce59ab"]);
    assert_eq!(status, 0);
    let (length, moves) = solution(&toward);
    assert_eq!(length, solution(&usual).0);
    // The usual search, its tiles 14 and 15 named the other way round.
    let swapped: String = solution(&usual)
        .1
        .chars()
        .map(|c| match c {
            'e' => 'f',
            'f' => 'e',
            c => c,
        })
        .collect();
    assert_eq!(moves, swapped);
    let (status, reached, _) = run(&["apply", "--goal", loyd, "0283174e6dcf59ab", &moves]);
    assert_eq!(status, 0, "{reached}");
    assert_eq!(
        reached,
        format!("{loyd}: the goal, after {length} moves (20 in MTM)\n")
    );
    // Without --goal, the usual goal: not reached.
    let (status, _, _) = run(&["apply", "0283174e6dcf59ab", &moves]);
    assert_eq!(status, 1);
}

/// The goal with its blank on `cell` of `board` and the tiles in order around it.
fn goal_with_blank_on(board: Board, cell: usize) -> Position {
    let mut tiles: Vec<u8> = (1..board.cells() as u8).collect();
    tiles.insert(cell, 0);
    Position::from_tiles(board, &tiles).expect("a permutation")
}

/// Issue 53: toward a goal with the blank on each cell of 3x3 and 4x4, `solve` answers in
/// both metrics with the length of a breadth-first search from the goal (the whole of 3x3;
/// 4x4 within 14 moves, 8 in MTM, its starts the farthest met), by its default engine and by
/// bfs, and `apply --goal` replays every answer to the goal.
#[test]
fn every_cell_of_3x3_and_4x4_is_a_goal_reached_in_the_fewest_moves() {
    for (board, depths, count) in [
        (Board::new(3, 3).expect("3x3"), (usize::MAX, usize::MAX), 3),
        (Board::fifteen(), (14, 8), 2),
    ] {
        for cell in 0..board.cells() {
            let goal = goal_with_blank_on(board, cell);
            let text = goal.notation(Convention::Knuth);
            for (metric, depth) in [("stm", depths.0), ("mtm", depths.1)] {
                let layers = near(goal, metric == "mtm", depth);
                if board.cells() == 9 {
                    assert_eq!(layers.len(), 181_440);
                }
                // The farthest positions met, and one halfway.
                let mut picks: Vec<&(Position, usize)> = layers.iter().rev().take(count).collect();
                picks.push(&layers[layers.len() / 2]);
                for &(start, length) in picks {
                    let start_text = start.notation(Convention::Knuth);
                    for engine in [None, Some("bfs")] {
                        let mut args = vec!["solve", &start_text, "--goal", &text];
                        args.extend(["--metric", metric]);
                        if let Some(engine) = engine {
                            args.extend(["--engine", engine, "--memory", "1G"]);
                        }
                        let (status, out, err) = run(&args);
                        assert_eq!(status, 0, "{args:?}: {err}");
                        let (found, moves) = solution(&out);
                        let found = match metric {
                            // "Solution in N moves (M in STM)": N, the MTM count.
                            "mtm" => out
                                .lines()
                                .last()
                                .and_then(|l| l.strip_prefix("Solution in "))
                                .and_then(|l| l.split(' ').next())
                                .and_then(|n| n.parse().ok())
                                .expect("an MTM count"),
                            _ => found,
                        };
                        assert_eq!(found, length, "{args:?}");
                        let check = ["apply", &start_text, &moves, "--goal", &text];
                        let (status, reached, _) = run(&check);
                        assert_eq!(status, 0, "{check:?}: {reached}");
                        assert!(reached.starts_with(&format!("{text}: the goal, after ")));
                    }
                }
            }
        }
    }
}

/// Toward a goal whose blank is not in a corner, what is built for the corner is refused in
/// one line naming it: the relabelled table, by `solve` and `shard plan` (which writes no plan).
/// The MTM automaton serves such a goal (its tiles named after their homes): it agrees with
/// the reference engine node for node in a cross-check, and on Korf's instance toward a
/// centre goal at the bound before the solution. The STM automaton and the pattern databases
/// serve such a goal too (below).
#[test]
fn what_is_built_for_the_corner_is_refused_toward_another_goal() {
    let goal = "1234506789abcdef";
    let start = "d68cfe0ab7459132";
    let plan = scratch().join("refused-plan.json");
    let plan = plan.to_str().expect("a path");
    for command in [&["solve"][..], &["shard", "plan", "--out", plan]] {
        let mut all = command.to_vec();
        all.extend([
            "--goal",
            goal,
            start,
            "--metric",
            "mtm",
            "--heuristic",
            "relabel",
        ]);
        let (status, out, err) = run(&all);
        assert_eq!((status, out.as_str()), (2, ""), "{all:?}");
        assert_eq!(
            err,
            "--heuristic relabel is built for goals with the blank in a corner; toward this goal the MTM engines search with walking distance\n",
        );
        assert!(!Path::new(plan).exists());
    }
    let crosscheck = ["crosscheck", "--goal", "123405678", "--count", "20"];
    for metric in ["stm", "mtm"] {
        let (status, out, err) = run(&[&crosscheck[..], &["--metric", metric]].concat());
        assert_eq!(status, 0, "{err}");
        assert_eq!(out, "20 positions, 60 engine runs, 0 disagreements\n");
    }
    // Korf's first instance toward the goal: the automaton and the reference engine, one
    // thread, node for node in every bound completed within 3,000,000 nodes (23 to 29; the
    // solution takes 35).
    let limited = [
        "--metric",
        "mtm",
        "--threads",
        "1",
        "--json",
        "--max-nodes",
        "3000000",
    ];
    let bounds: Vec<Vec<serde_json::Value>> = ["automaton", "ida"]
        .iter()
        .map(|engine| {
            let args = [
                &["solve", "--goal", goal, start, "--engine", engine][..],
                &limited,
            ];
            let (status, out, err) = run(&args.concat());
            assert_eq!(status, 3, "{engine}: {err}");
            let report: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
            let bounds = report["bounds"].as_array().expect("bounds").clone();
            assert_eq!(bounds.len(), 7, "{engine}: {out}");
            bounds
        })
        .collect();
    assert_eq!(bounds[0].len(), bounds[1].len());
    for (a, b) in bounds[0].iter().zip(&bounds[1]) {
        assert_eq!((&a["bound"], &a["nodes"]), (&b["bound"], &b["nodes"]));
    }
}

/// `--stats` names the bound searched toward the goal: in MTM toward a goal off the corners,
/// walking distance and its estimate toward the goal, the first bound (it named the
/// relabelled 4x4 table, built for the last cell, which the search did not use, and gave
/// 26; with `--heuristic walking`, 19: walking distance toward the last cell).
#[test]
fn stats_name_the_bound_searched_toward_the_goal() {
    let goal = ["--goal", "1234506789abcdef", "61347528ad9be0fc"];
    let (status, out, err) = run(&[&["solve", "--metric", "mtm", "--stats"][..], &goal].concat());
    assert_eq!(status, 0, "{err}");
    assert!(out.starts_with(" ... no solution with 17 moves ("), "{out}");
    let line = "\nLower bound walking distance in MTM estimates 17 moves\n";
    assert!(out.contains(line), "{out}");
    let json = ["solve", "--metric", "mtm", "--json"];
    let (status, out, err) = run(&[&json[..], &goal].concat());
    assert_eq!(status, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(report["heuristic"], "walking", "{out}");
}

/// Issue 53: toward a goal with the blank on a centre cell, the automaton searches with pattern
/// databases built for that goal and kept under a name that says it: Korf's first instance in
/// 65 moves, as the reference engine with Manhattan distance finds, replayed to the goal; the
/// automaton and the reference engine agree, node for node, with each table toward the four
/// kinds of goal a mirror leaves (a centre cell, an edge, a corner's neighbour, the last row).
#[test]
fn the_automaton_and_the_tables_serve_any_goal() {
    let tables = tempfile::tempdir().expect("a temporary directory");
    let dir = tables.path().to_str().expect("a UTF-8 path");
    let (goal, start) = ("1234506789abcdef", "d68cfe0ab7459132");
    let mut lengths = Vec::new();
    for args in [
        vec!["--tables", dir],
        vec!["--engine", "ida", "--heuristic", "manhattan"],
    ] {
        let all = [&["solve", "--goal", goal, start][..], &args].concat();
        let (status, out, err) = run(&all);
        assert_eq!(status, 0, "{all:?}: {err}");
        let (length, moves) = solution(&out);
        let check = ["apply", start, &moves, "--goal", goal];
        let (status, reached, _) = run(&check);
        assert_eq!(status, 0, "{check:?}: {reached}");
        lengths.push(length);
    }
    assert_eq!(lengths, [65, 65]);
    let names: Vec<String> = std::fs::read_dir(tables.path())
        .expect("the tables")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into()
        })
        .filter(|name: &String| name.ends_with(".pdb"))
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(
        names.iter().all(|n| n.starts_with("4x4-blank-r3c3_")),
        "{names:?}"
    );
    // `tables list` reads the goal off the names.
    let (status, out, err) = run(&["tables", "list", "--tables", dir]);
    assert_eq!(status, 0, "{err}");
    let listed = out
        .matches("(4x4-blank-r3c3 zero-aware 1-bit table of tiles ")
        .count();
    assert_eq!(listed, 3, "{out}");
    for goal in [
        "1234506789abcdef",
        "1023456789abcdef",
        "0123456789abcdef",
        "123456789abcde0f",
    ] {
        for heuristic in ["6-6-3", "5-5-5+6-6-3"] {
            let args = [
                "crosscheck",
                "--size",
                "4x4",
                "--goal",
                goal,
                "--count",
                "6",
                "--walk",
                "36",
                "--heuristic",
                heuristic,
                "--engines",
                "automaton,ida",
                "--tables",
                dir,
            ];
            let (status, out, err) = run(&args);
            assert_eq!(status, 0, "{args:?}: {out}{err}");
            assert_eq!(
                out, "6 positions, 12 engine runs, 0 disagreements\n",
                "{args:?}"
            );
        }
    }
}

#[test]
fn goals_out_of_reach_are_one_line() {
    let err = refused(&["solve", "--goal", "123456780", "d68cfe0ab7459132"]);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("--goal \"123456780\": "), "{err}");
}

/// `--goal`'s position errors name the goal, not the start position, and a goal too short
/// names its count and the tile left out (issue 53: "Your start position doesn't use 0!").
#[test]
fn errors_in_the_goal_name_the_goal() {
    let cases = [
        (
            "12345678",
            "The goal has 8 tiles, but a 3x3 board needs 9: 0 (the blank) is missing!",
        ),
        ("123456788", "Your goal uses 8 twice!"),
        (
            "12345678g",
            "The goal should use only hex digits (0123456789abcdef)!",
        ),
        ("", "The goal is empty!"),
    ];
    for (goal, message) in cases {
        for command in [vec!["solve", "867254301"], vec!["apply", "867254301", "1"]] {
            let mut args = command.clone();
            args.extend(["--size", "3x3", "--goal", goal]);
            let (status, out, err) = run(&args);
            assert_eq!((status, out.as_str()), (2, ""), "{args:?}");
            assert_eq!(err, format!("--goal {goal:?}: {message}\n"), "{args:?}");
        }
    }
}

/// `apply --goal` replays toward any goal, its blank on any cell (issue 53: it refused a goal
/// whose blank is off the corners).
#[test]
fn apply_replays_toward_a_goal_with_the_blank_anywhere() {
    // The blank in the centre of 3x3, and on an edge of 4x4.
    for (goal, start, moves) in [
        ("123405678", "123450678", "5"),
        ("123405678", "120453678", "35"),
        ("123456789ab0cdef", "123456789abfcde0", "f"),
    ] {
        let (status, out, err) = run(&["apply", "--goal", goal, start, moves]);
        assert_eq!(status, 0, "{goal} {start} {moves}: {err}");
        assert!(
            out.starts_with(&format!("{goal}: the goal, after ")),
            "{out}"
        );
        // Without --goal, the convention's goal, which this is not.
        let (status, out, _) = run(&["apply", start, moves]);
        assert_eq!(status, 1, "{out}");
        assert!(
            out.starts_with(&format!("{goal}: not the goal, after ")),
            "{out}"
        );
    }
}

#[test]
fn a_file_and_json_follow_the_goal() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let file = dir.path().join("positions.txt");
    // Two starts toward 087654321, one of the other class, and a 2x2 line (another board).
    std::fs::write(&file, "867254301\n807654321\n687254301\n1230\n").expect("written");
    let path = file.to_str().expect("UTF-8");
    let (status, out, err) = run(&["solve", "--goal", "087654321", "--file", path]);
    assert_eq!(status, 2, "{out}{err}");
    let goal = Position::parse("087654321", None, Convention::Knuth).expect("a goal");
    let stm = distances(goal, false);
    let lines: Vec<&str> = out.lines().collect();
    for (line, start) in lines.iter().zip(["867254301", "807654321"]) {
        let p = Position::parse(start, None, Convention::Knuth).expect("a start");
        let (length, _) = solution(line.split_once(": ").expect("position: answer").1);
        assert_eq!(length, stm[&p], "{line}");
    }
    assert_eq!(
        lines[2],
        "687254301: Sorry ... the goal is unreachable from that start position!"
    );
    assert!(err.contains("line 4: "), "{err}");
    let (status, out, _) = run(&["solve", "--goal", "087654321", "--json", "867254301"]);
    assert_eq!(status, 0);
    let report: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(report["goal"], "087654321");
    assert_eq!(report["position"], "867254301");
    let p = Position::parse("867254301", None, Convention::Knuth).expect("a start");
    assert_eq!(report["length"], stm[&p]);
    let manhattan = report["manhattan"].as_u64().expect("a number") as usize;
    assert!(
        manhattan <= stm[&p] && manhattan % 2 == stm[&p] % 2,
        "{report}"
    );
}

#[test]
fn crosscheck_checks_every_answer_toward_the_goal() {
    for args in [
        vec!["crosscheck", "--goal", "213456780"],
        vec![
            "crosscheck",
            "--goal",
            "213456780",
            "--metric",
            "mtm",
            "--count",
            "40",
        ],
        vec![
            "crosscheck",
            "--size",
            "2x4",
            "--goal",
            "01234567",
            "--count",
            "40",
        ],
    ] {
        let (status, out, err) = run(&args);
        assert_eq!(status, 0, "{args:?}: {out}{err}");
        let count = if args.contains(&"--count") { 40 } else { 100 };
        assert_eq!(
            out,
            format!(
                "{count} positions, {} engine runs, 0 disagreements\n",
                3 * count
            ),
            "{args:?}"
        );
    }
}

/// `compare --goal` times the positions toward the goal, with the lengths of a breadth-first
/// search from it, by every engine of either metric, toward a goal whose blank is in a corner
/// and one whose blank is in the centre.
#[test]
fn compare_times_the_positions_toward_the_goal() {
    for goal_text in ["213456780", "123405678"] {
        compare_toward(goal_text);
    }
    let err = refused(&["compare", "--goal", "0123456789abcdef", "--korf100"]);
    assert_eq!(
        err,
        "--korf100 and --korf50 are published toward the standard goal; leave --goal out\n"
    );
}

/// The three engines time each position in STM and in MTM.
fn compare_toward(goal_text: &str) {
    let goal = Position::parse(goal_text, None, Convention::Knuth).expect("a goal");
    let stm = distances(goal, false);
    for metric in ["stm", "mtm"] {
        let args = [
            "compare", "--goal", goal_text, "--size", "3x3", "--random", "4", "--repeat", "1",
            "--json", "--metric", metric,
        ];
        let (status, out, err) = run(&args);
        assert_eq!(status, 0, "{args:?}: {err}");
        let report: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
        let rows = report["rows"].as_array().expect("rows");
        assert_eq!(rows.len(), 4 * 3, "{report}");
        let table = if metric == "mtm" {
            distances(goal, true)
        } else {
            stm.clone()
        };
        for row in rows {
            let label = row["position"].as_str().expect("a label");
            let p = Position::parse(label, None, Convention::Knuth).expect("a position");
            assert_eq!(row["length"], table[&p], "{row}");
        }
    }
}

/// Every command that takes `--goal` says in its help that either parity is a goal (issue 53:
/// it said "the standard goal's parity", which Loyd's puzzle above disproves).
#[test]
fn the_help_of_goal_says_either_parity() {
    for command in ["solve", "apply", "crosscheck", "compare"] {
        let (status, help, _) = run(&[command, "--help"]);
        assert_eq!(status, 0, "{command}");
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let any = match command {
            "apply" => "any position of the board, of either parity, the blank anywhere",
            _ => "any position of the board, of either parity, the blank anywhere",
        };
        assert!(help.contains(any), "{command}: {help}");
        assert!(!help.contains("the standard goal's parity"), "{command}");
    }
}
