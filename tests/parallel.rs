//! The parallel search gives the answer of one thread: on the shared corpus (3x3, 3x4, 4x4),
//! with both IDA* engines and with Manhattan and pattern databases, `threads = 2` (and more
//! threads than cores) finds the same first solution, the same `--all` list in the same order,
//! and the same node count in every bound (the last, stopped at its first solution, too) as
//! `threads = 1`. A search that tells its progress splits its bounds on one thread too, with
//! the same answer.
#![forbid(unsafe_code)]

use fifteen::engine::automaton::Automaton;
use fifteen::engine::reference::ReferenceIda;
use fifteen::engine::Live;
use fifteen::heuristic::partition::Partition;
use fifteen::heuristic::pdb;
use fifteen::heuristic::Heuristic;
use fifteen::{Board, Convention, Engine, Position, SearchOptions};
use std::sync::Arc;

struct Case {
    position: Position,
    length: usize,
    completed_nodes: u64,
}

fn corpus(board: &str, most_nodes: u64) -> Vec<Case> {
    include_str!("data/corpus.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("board\t"))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[0] == board)
        .map(|f| Case {
            position: Position::parse(f[1], f[0].parse().ok(), Convention::Knuth)
                .expect("a position"),
            length: f[3].parse().expect("a length"),
            completed_nodes: f[5].parse().expect("a node count"),
        })
        .filter(|c| c.completed_nodes <= most_nodes)
        .collect()
}

/// `engine` on `start` with 1 and with `threads` threads: the same answers.
fn same_answer(engine: &dyn Engine, start: &Position, heuristic: &Heuristic, all: bool) {
    let options = |threads| SearchOptions {
        all,
        heuristic: heuristic.clone(),
        threads,
        split_after: 0.0, // every bound, however small
        ..SearchOptions::default()
    };
    let one = engine
        .solve(start, &options(1), &mut |_| {})
        .expect("solves");
    for threads in [2, 3] {
        let many = engine
            .solve(start, &options(threads), &mut |_| {})
            .expect("solves");
        let what = format!(
            "{} {} threads {threads} all {all} {start:?}",
            engine.name(),
            heuristic.name()
        );
        assert_eq!(many.solutions, one.solutions, "{what}");
        assert_eq!(
            many.stats.completed_nodes(),
            one.stats.completed_nodes(),
            "{what}"
        );
        assert_eq!(many.stats.bounds.len(), one.stats.bounds.len(), "{what}");
        // The last bound too, though its search stopped at the first solution.
        let nodes = |outcome: &fifteen::SearchOutcome| {
            outcome
                .stats
                .bounds
                .iter()
                .map(|b| b.nodes)
                .collect::<Vec<_>>()
        };
        assert_eq!(nodes(&many), nodes(&one), "{what}");
    }
}

#[test]
fn threads_give_the_answer_of_one_with_manhattan() {
    let engines: [&dyn Engine; 2] = [&Automaton, &ReferenceIda];
    let mut tried = 0;
    for (board, most_nodes) in [("3x3", u64::MAX), ("3x4", 2_000_000), ("4x4", 2_000_000)] {
        for case in corpus(board, most_nodes) {
            for engine in engines {
                same_answer(engine, &case.position, &Heuristic::Manhattan, false);
            }
            let outcome = Automaton
                .solve(
                    &case.position,
                    &SearchOptions {
                        threads: 2,
                        split_after: 0.0,
                        ..SearchOptions::default()
                    },
                    &mut |_| {},
                )
                .expect("solves");
            assert_eq!(outcome.length(), Some(case.length));
            let nodes: Option<u64> = outcome.stats.completed_nodes().iter().map(|b| b.1).sum();
            assert_eq!(nodes, Some(case.completed_nodes), "{:?}", case.position);
            tried += 1;
        }
    }
    assert!(tried >= 40, "{tried} positions");
}

#[test]
fn threads_give_every_solution_in_the_same_order() {
    let engines: [&dyn Engine; 2] = [&Automaton, &ReferenceIda];
    for (board, most_nodes) in [("3x3", 200_000), ("3x4", 200_000), ("4x4", 200_000)] {
        let cases = corpus(board, most_nodes);
        assert!(cases.len() >= 3, "{board}");
        for case in cases.iter().take(8) {
            for engine in engines {
                same_answer(engine, &case.position, &Heuristic::Manhattan, true);
            }
        }
    }
    // Hiroi's 8-puzzle: 40 optimal solutions, in the same order with two threads.
    let start = Position::parse("867254301", None, Convention::Knuth).expect("a position");
    same_answer(&Automaton, &start, &Heuristic::Manhattan, true);
}

#[test]
fn threads_give_the_answer_of_one_with_pattern_databases() {
    let board = |rows, cols| Board::new(rows, cols).expect("a board");
    let built = |rows, cols, name| {
        let partition = Partition::preset(board(rows, cols), name).expect("a preset");
        Heuristic::Tables(Arc::new(pdb::build(&partition).expect("builds")))
    };
    let engines: [&dyn Engine; 2] = [&Automaton, &ReferenceIda];
    for (name, rows, cols, table, most_nodes) in [
        ("3x3", 3, 3, "8", u64::MAX),
        ("3x4", 3, 4, "6-5", u64::MAX),
        ("4x4", 4, 4, "5-5-5", 300_000),
    ] {
        let heuristic = built(rows, cols, table);
        for case in corpus(name, most_nodes).iter().take(10) {
            for engine in engines {
                same_answer(engine, &case.position, &heuristic, false);
            }
            same_answer(&Automaton, &case.position, &heuristic, true);
        }
    }
}

/// A search told to a [`Live`] (for a progress line) splits its bounds on one thread too: the
/// same solutions and nodes in every bound; when the engine reports a completed bound, the
/// progress it told names it, has every subtree searched, and counts no more nodes than it.
#[test]
fn a_search_that_tells_its_progress_gives_the_answer_of_one_thread() {
    let engines: [&dyn Engine; 2] = [&Automaton, &ReferenceIda];
    for (board, most_nodes) in [("3x4", 500_000), ("4x4", 500_000)] {
        // Searches large enough to leave subtrees below the cut of their last bounds.
        let cases: Vec<Case> = corpus(board, most_nodes)
            .into_iter()
            .filter(|c| c.completed_nodes >= 20_000)
            .take(6)
            .collect();
        assert!(cases.len() >= 3, "{board}");
        for case in &cases {
            for engine in engines {
                let start = &case.position;
                let plain = engine
                    .solve(start, &SearchOptions::default(), &mut |_| {})
                    .expect("solves");
                // Every bound told, however small.
                let live = Arc::new(Live::new(0.0));
                let options = SearchOptions {
                    live: Some(live.clone()),
                    ..SearchOptions::default()
                };
                let mut told = 0;
                let outcome = engine
                    .solve(start, &options, &mut |bound| {
                        let Some(seen) = live.read().filter(|s| s.subtrees > 0) else {
                            return;
                        };
                        assert_eq!(seen.label, format!("{}+{} moves", bound.happy, bound.sad));
                        assert!(seen.nodes <= bound.nodes.unwrap_or(0), "{start:?}");
                        if bound.completed {
                            assert_eq!(seen.searched, seen.subtrees, "{start:?}");
                            told += 1;
                        }
                    })
                    .expect("solves");
                let what = format!("{} {start:?}", engine.name());
                assert_eq!(outcome.solutions, plain.solutions, "{what}");
                let nodes = |o: &fifteen::SearchOutcome| {
                    o.stats.bounds.iter().map(|b| b.nodes).collect::<Vec<_>>()
                };
                assert_eq!(nodes(&outcome), nodes(&plain), "{what}");
                assert!(told > 0, "{what}: no bound was told");
            }
        }
    }
}
