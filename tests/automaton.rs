//! Differential tests of the automaton engine (Knuth's KORF1, generated) against the reference
//! IDA* (KORF0) and against facts recorded from outside: breadth-first distances of every
//! 8-puzzle position, Korf's optimal lengths, and the final lines of Knuth's own `korf1`.
//!
//! Both engines search the same tree bound by bound, in different orders; so they must agree
//! on the optimal length and on the node count of every bound searched completely, while the
//! first solution found may differ (and does, on most positions).
#![forbid(unsafe_code)]

use fifteen::engine::automaton::Automaton;
use fifteen::engine::reference::ReferenceIda;
use fifteen::random::PositionSource;
use fifteen::{
    Board, Convention, Direction, Engine, EngineError, Position, SearchOptions, SearchOutcome,
};
use std::collections::{HashMap, VecDeque};

fn counting() -> SearchOptions {
    SearchOptions::default()
}

/// The outcomes of the automaton (fast) and the reference engine (slow) on `start`.
fn both(start: &Position, options: &SearchOptions) -> (SearchOutcome, SearchOutcome) {
    let fast = Automaton
        .solve(start, options, &mut |_| {})
        .expect("automaton solves");
    let slow = ReferenceIda
        .solve(start, options, &mut |_| {})
        .expect("reference solves");
    (fast, slow)
}

/// Solves with both engines and checks that they agree; returns the optimal length.
fn agree(start: &Position) -> usize {
    let (fast, slow) = both(start, &counting());
    let length = fast.length().expect("a solution");
    assert_eq!(Some(length), slow.length(), "length of {start:?}");
    assert!(fast.solutions[0].solves(start), "{start:?}");
    assert_eq!(
        fast.stats.completed_nodes(),
        slow.stats.completed_nodes(),
        "completed-bound node counts of {start:?}"
    );
    assert_eq!(fast.stats.bounds.len(), slow.stats.bounds.len());
    let solution = &fast.solutions[0];
    assert_eq!(
        solution.happy as usize - solution.sad as usize,
        start.manhattan()
    );
    length
}

/// Random walks on one board size, checked against the reference.
fn walks_agree(rows: usize, cols: usize) {
    let board = Board::new(rows, cols).expect("valid board");
    assert!(Automaton::supports(board), "{board}");
    let (steps, count) = match rows * cols {
        ..=16 => (40, 60),
        _ => (34, 15),
    };
    let mut source = PositionSource::new((rows * 10 + cols) as u64);
    for _ in 0..count {
        agree(&source.random_walk(board, steps));
    }
}

// One test per board size from 2x2 to 5x5: `random_walks_on_4x4` and so on.
seq_macro::seq!(R in 2..=5 {
    seq_macro::seq!(C in 2..=5 {
        paste::paste! {
            #[test]
            fn [<random_walks_on_ R x C>]() {
                walks_agree(R, C);
            }
        }
    });
});

#[test]
fn random_positions_of_the_small_boards() {
    let mut source = PositionSource::new(2);
    for rows in 2..=5 {
        for cols in 2..=5 {
            let count = match rows * cols {
                ..=10 => 100,
                12 => 40,
                _ => continue,
            };
            let board = Board::new(rows, cols).expect("valid board");
            if rows * cols == 9 {
                continue; // the 8-puzzle is checked exhaustively below
            }
            for _ in 0..count {
                agree(&source.random_solvable(board));
            }
        }
    }
}

/// The generator and the board agree on Knuth's count of states, for every board.
#[test]
fn generated_state_counts() {
    for rows in 2..=5 {
        for cols in 2..=5 {
            let board = Board::new(rows, cols).expect("valid board");
            assert_eq!(
                fifteen::engine::automaton::state_count(board),
                Some(board.automaton_states()),
                "{board}"
            );
        }
    }
    assert_eq!(
        fifteen::engine::automaton::state_count(Board::fifteen()),
        Some(152)
    );
}

#[test]
fn korfs_easiest_instances() {
    let text = include_str!("../data/korf100.tsv");
    let mut rows: Vec<(String, usize, u64)> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("id"))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (
                fields[2].to_string(),
                fields[4].parse().expect("optimal_length"),
                fields[5].parse().expect("ida_nodes"),
            )
        })
        .collect();
    assert_eq!(rows.len(), 100);
    rows.sort_by_key(|row| row.2);
    for (hex, optimal, _) in rows.iter().take(8) {
        let start = Position::parse(hex, None, Convention::Knuth).expect("valid instance");
        assert_eq!(agree(&start), *optimal, "Korf's instance {hex}");
    }
}

/// Breadth-first distances of every position of a board from the goal.
fn bfs(board: Board) -> HashMap<Vec<u8>, u32> {
    let goal = Position::goal(board);
    let mut distance = HashMap::new();
    distance.insert(goal.tiles().to_vec(), 0);
    let mut queue = VecDeque::from([goal]);
    while let Some(position) = queue.pop_front() {
        let here = distance[position.tiles()];
        for d in Direction::ALL {
            let mut next = position;
            if next.move_blank(d).is_some() && !distance.contains_key(next.tiles()) {
                distance.insert(next.tiles().to_vec(), here + 1);
                queue.push_back(next);
            }
        }
    }
    distance
}

/// Every solvable 8-puzzle position, solved by the automaton, against breadth-first search;
/// every 97th also against the reference engine, node counts included.
#[test]
fn every_eight_puzzle_position_against_bfs() {
    let board = Board::new(3, 3).expect("3x3");
    let distance = bfs(board);
    assert_eq!(distance.len(), 181_440);
    assert_eq!(distance.values().max(), Some(&31));
    let plain = SearchOptions {
        count_nodes: false,
        ..SearchOptions::default()
    };
    let mut entries: Vec<(&Vec<u8>, &u32)> = distance.iter().collect();
    entries.sort();
    for (index, (tiles, &expected)) in entries.into_iter().enumerate() {
        let start = Position::from_tiles(board, tiles).expect("valid");
        let outcome = Automaton
            .solve(&start, &plain, &mut |_| {})
            .expect("solvable");
        let solution = &outcome.solutions[0];
        assert_eq!(solution.len(), expected as usize, "{start:?}");
        assert!(solution.solves(&start), "{start:?}");
        assert!(outcome.stats.nodes.is_none());
        if index % 97 == 0 {
            agree(&start);
        }
    }
}

/// `--all`: every optimal solution, the same set as the reference engine's.
#[test]
fn all_solutions_agree_with_the_reference() {
    let options = SearchOptions {
        all: true,
        ..SearchOptions::default()
    };
    let mut source = PositionSource::new(3);
    let board = Board::new(3, 3).expect("3x3");
    let mut starts = vec![Position::parse("867254301", None, Convention::Knuth).expect("valid")];
    starts.extend((0..30).map(|_| source.random_solvable(board)));
    let board = Board::fifteen();
    starts.extend((0..10).map(|_| source.random_walk(board, 30)));
    for (index, start) in starts.iter().enumerate() {
        let (fast, slow) = both(start, &options);
        let sorted = |outcome: &SearchOutcome| {
            let mut moves: Vec<Vec<u8>> =
                outcome.solutions.iter().map(|s| s.moves.clone()).collect();
            moves.sort();
            moves
        };
        assert_eq!(sorted(&fast), sorted(&slow), "{start:?}");
        if index == 0 {
            // Knuth's example: the 8-puzzle position with exactly 40 optimal solutions.
            assert_eq!(fast.solutions.len(), 40);
        }
        // With --all every bound is complete, the last one included.
        let counts = |o: &SearchOutcome| -> Vec<Option<u64>> {
            o.stats.bounds.iter().map(|b| b.nodes).collect()
        };
        assert_eq!(counts(&fast), counts(&slow), "{start:?}");
        assert!(fast.stats.bounds.iter().all(|b| b.completed));
        assert_eq!(
            fast.stats.bounds.last().map(|b| b.solutions),
            Some(fast.solutions.len() as u64)
        );
    }
}

/// Knuth's `korf1` (built with gcc from the seed) on 4 x 4 positions: the automaton searches
/// in KORF1's order, so its final line is the same, move for move.
#[test]
fn final_lines_of_knuths_korf1() {
    let data = include_str!("data/korf1_outputs.tsv");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let (position, expected) = line.split_once('\t').expect("position<TAB>line");
        let start = Position::parse(position, None, Convention::Knuth).expect("valid");
        let options = SearchOptions {
            count_nodes: false,
            ..SearchOptions::default()
        };
        let outcome = Automaton.solve(&start, &options, &mut |_| {});
        let found = match outcome {
            Ok(outcome) => {
                let s = &outcome.solutions[0];
                format!(
                    "Solution in {}+{} moves: {}",
                    s.happy,
                    s.sad,
                    start.moves_notation(&s.moves, Convention::Knuth)
                )
            }
            Err(error) => error.to_string(),
        };
        assert_eq!(found.trim_end(), expected.trim_end(), "{position}");
        checked += 1;
    }
    assert!(checked >= 10);
}

#[test]
fn refusals() {
    let start = Position::parse("d68cfe0ab7459132", None, Convention::Knuth).expect("valid");
    let options = SearchOptions {
        order: Some(Direction::ALL),
        ..SearchOptions::default()
    };
    assert_eq!(
        Automaton.solve(&start, &options, &mut |_| {}).err(),
        Some(EngineError::OrderNotSupported {
            engine: "automaton"
        })
    );
    let unsolvable = Position::parse("123456870", None, Convention::Knuth).expect("valid");
    assert_eq!(
        Automaton.solve(&unsolvable, &counting(), &mut |_| {}).err(),
        Some(EngineError::Unsolvable)
    );
    let goal = Position::goal(Board::fifteen());
    let outcome = Automaton
        .solve(&goal, &counting(), &mut |_| {})
        .expect("the goal");
    assert_eq!(outcome.length(), Some(0));
    assert_eq!(outcome.stats.nodes, Some(1));
}

/// `fifteen solve` uses the automaton by default, prints KORF1's final line, and refuses
/// `--order` unless the reference engine is chosen.
#[test]
fn command_line() {
    use assert_cmd::Command;
    let data = include_str!("data/korf1_outputs.tsv");
    let line = data
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("a recorded line");
    let (position, expected) = line.split_once('\t').expect("position<TAB>line");
    // The default heuristic (pattern databases, built here on first use) ends on the same
    // line: the first optimal solution in the automaton's order, whatever the lower bound.
    let tables = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tables");
    let output = Command::cargo_bin("fifteen")
        .expect("binary")
        .env("FIFTEEN_TABLES", &tables)
        .args(["solve", position])
        .output()
        .expect("runs");
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().expect("a final line");
    let stripped = last.rsplit_once(" (").map_or(last, |(text, _)| text);
    assert_eq!(stripped, expected.trim_end());
    let output = Command::cargo_bin("fifteen")
        .expect("binary")
        .env("FIFTEEN_TABLES", &tables)
        .args(["solve", position, "--json"])
        .output()
        .expect("runs");
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(report["engine"], "automaton");
    assert!(report["nodes"].as_u64().is_some_and(|n| n > 1));
    let refused = Command::cargo_bin("fifteen")
        .expect("binary")
        .env("FIFTEEN_TABLES", &tables)
        .args(["solve", position, "--order", "SEWN"])
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--order"));
    let accepted = Command::cargo_bin("fifteen")
        .expect("binary")
        .env("FIFTEEN_TABLES", &tables)
        .args([
            "solve",
            position,
            "--order",
            "SEWN",
            "--engine",
            "ida",
            "--heuristic",
            "manhattan",
        ])
        .output()
        .expect("runs");
    assert!(accepted.status.success());
}

/// The plain loop skips moves into dead-end corners that the counted loop makes and undoes:
/// the same search, so both find the same first solution and the same set under `--all`, on
/// every board shape.
#[test]
fn plain_and_counted_loops_search_the_same_tree() {
    let mut source = PositionSource::new(11);
    for (rows, cols, walk) in [
        (3, 3, 40),
        (3, 4, 40),
        (4, 3, 40),
        (4, 4, 40),
        (2, 5, 30),
        (5, 5, 24),
    ] {
        let board = Board::new(rows, cols).expect("board");
        for _ in 0..8 {
            let start = source.random_walk(board, walk);
            for all in [false, true] {
                let run = |count_nodes: bool| {
                    let options = SearchOptions {
                        all,
                        count_nodes,
                        ..SearchOptions::default()
                    };
                    let outcome = Automaton
                        .solve(&start, &options, &mut |_| {})
                        .expect("solves");
                    outcome
                        .solutions
                        .iter()
                        .map(|s| s.moves.clone())
                        .collect::<Vec<_>>()
                };
                let (plain, counted) = (run(false), run(true));
                assert!(!plain.is_empty());
                assert_eq!(plain, counted, "{rows}x{cols} {start:?} all={all}");
            }
        }
    }
}
