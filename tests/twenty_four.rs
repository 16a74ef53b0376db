//! The 24-puzzle with pattern databases small enough to build inside a test: eight groups of
//! three tiles (a weak bound, but the same machinery as the 6-6-6-6 tables: 5x5 ranks, the
//! reflection, eight lookups a half). On seeded random walks, the generated automaton with
//! these tables (one thread and two), the reference engine with them and the reference engine
//! with Manhattan all find the same length; the two engines with tables generate the same
//! nodes in every completed bound, and every solution replays.
#![forbid(unsafe_code)]

use fifteen::engine::automaton::Automaton;
use fifteen::engine::reference::ReferenceIda;
use fifteen::heuristic::partition::Partition;
use fifteen::heuristic::pdb;
use fifteen::heuristic::Heuristic;
use fifteen::random::PositionSource;
use fifteen::{Board, Engine, SearchOptions};
use std::sync::Arc;

fn threes() -> Heuristic {
    let board = Board::new(5, 5).expect("5x5");
    let groups = vec![
        vec![1, 2, 3],
        vec![4, 5, 9],
        vec![6, 7, 8],
        vec![10, 14, 15],
        vec![11, 12, 16],
        vec![13, 17, 18],
        vec![19, 20, 24],
        vec![21, 22, 23],
    ];
    let partition = Partition::new(board, "3x8", groups).expect("a partition");
    Heuristic::Tables(Arc::new(pdb::build(&partition).expect("the tables build")))
}

#[test]
fn small_tables_solve_random_walks_like_the_reference() {
    let tables = threes();
    let board = Board::new(5, 5).expect("5x5");
    let mut source = PositionSource::new(24);
    let options = |heuristic: &Heuristic, threads| SearchOptions {
        heuristic: heuristic.clone(),
        threads,
        split_after: 0.0,
        ..SearchOptions::default()
    };
    let mut lengths = Vec::new();
    for walk in (20..=56).step_by(6) {
        let start = source.random_walk(board, walk);
        let estimate = tables.estimate(&start);
        assert!(estimate as usize >= start.manhattan(), "{start:?}");
        let fast = Automaton
            .solve(&start, &options(&tables, 1), &mut |_| {})
            .expect("automaton");
        let length = fast.length().expect("a solution");
        assert!(fast.solutions.iter().all(|s| s.solves(&start)), "{start:?}");
        assert!(estimate as usize <= length, "{start:?}");
        let parallel = Automaton
            .solve(&start, &options(&tables, 2), &mut |_| {})
            .expect("automaton, two threads");
        assert_eq!(parallel.solutions, fast.solutions, "{start:?}");
        let slow = ReferenceIda
            .solve(&start, &options(&tables, 1), &mut |_| {})
            .expect("reference");
        assert_eq!(slow.length(), Some(length), "{start:?}");
        assert_eq!(
            slow.stats.completed_nodes(),
            fast.stats.completed_nodes(),
            "{start:?}"
        );
        let manhattan = ReferenceIda
            .solve(&start, &options(&Heuristic::Manhattan, 2), &mut |_| {})
            .expect("reference, Manhattan");
        assert_eq!(manhattan.length(), Some(length), "{start:?}");
        lengths.push(length);
    }
    // The walks are long enough to mean something.
    assert!(lengths.iter().any(|&l| l >= 40), "{lengths:?}");
}
