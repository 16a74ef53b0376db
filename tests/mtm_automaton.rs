//! The generated MTM automaton against the reference MTM IDA*: the same tree in the same
//! order, so the same bounds, the same node count in every bound (completed or not), the same
//! solutions in the same order (`--all` too), and lengths equal to breadth-first search's —
//! on the far 3x3 positions and a sample of the rest (and the automaton alone on every 3x3
//! position), samples of 2x4, 4x2, 3x4 and 4x3, and
//! 4x4 random walks and two of Korf's instances with both bounds.

mod common;

use fifteen::engine::{Engine, SearchOptions, SearchOutcome};
use fifteen::mtm::automaton::{MtmAutomaton, SIZES};
use fifteen::mtm::bfs::distances;
use fifteen::mtm::moves::length;
use fifteen::mtm::search::MtmIda;
use fifteen::mtm::{BoundChoice, Config};
use fifteen::prune::Prune;
use fifteen::random::PositionSource;
use fifteen::{Board, Convention, Position};

/// The engines' configuration with `bound`, walking the duplicate-pruning machine as users'
/// searches do.
fn config(bound: BoundChoice) -> Config {
    with_pruning(bound, Prune::Fsm)
}

fn with_pruning(bound: BoundChoice, prune: Prune) -> Config {
    // The relabelled table and the machines are kept with the other tests' (built once, then
    // read).
    Config {
        bound,
        prune,
        tables: Some(common::tables()),
    }
}

/// Each bound as (bound, nodes, completed, solutions).
fn bounds(outcome: &SearchOutcome) -> Vec<(u32, Option<u64>, bool, u64)> {
    outcome
        .stats
        .bounds
        .iter()
        .map(|b| (b.happy, b.nodes, b.completed, b.solutions))
        .collect()
}

/// Solves `start` with both engines, with and without the pruning machine, and checks they
/// searched alike (the machine only takes nodes away, never the first solution); returns the
/// MTM length.
fn same_search(start: &Position, bound: BoundChoice, all: bool) -> usize {
    let options = SearchOptions {
        all,
        ..SearchOptions::default()
    };
    let solve = |engine: &dyn Engine| {
        engine
            .solve(start, &options, &mut |_| {})
            .expect("solvable")
    };
    let mut searches = Vec::new();
    for prune in [Prune::None, Prune::Fsm] {
        let config = with_pruning(bound, prune);
        let automaton = solve(&MtmAutomaton {
            config: config.clone(),
        });
        let reference = solve(&MtmIda { config });
        assert_eq!(
            bounds(&automaton),
            bounds(&reference),
            "{start:?} {prune:?}"
        );
        assert_eq!(
            automaton.solutions, reference.solutions,
            "{start:?} {prune:?}"
        );
        searches.push(automaton);
    }
    // The machine takes nodes away (none with `all`), never the first solution.
    let (plain, automaton) = (&searches[0], &searches[1]);
    assert_eq!(automaton.solutions, plain.solutions, "{start:?}");
    let nodes = |o: &SearchOutcome| o.stats.bounds.iter().filter_map(|b| b.nodes).sum::<u64>();
    assert!(nodes(automaton) <= nodes(plain), "{start:?}");
    if all {
        assert_eq!(bounds(automaton), bounds(plain), "{start:?}");
    }
    assert!(!automaton.solutions.is_empty(), "{start:?}");
    let mtm = length(start, &automaton.solutions[0].moves).expect("legal moves");
    for solution in &automaton.solutions {
        assert!(solution.solves(start), "{start:?}");
        assert_eq!(length(start, &solution.moves), Some(mtm), "{start:?}");
    }
    let last = automaton.stats.bounds.last().expect("a bound");
    assert_eq!(last.happy as usize, mtm, "{start:?}");
    mtm
}

#[test]
fn the_boards_of_at_most_16_cells_are_generated() {
    let mut sizes = SIZES.to_vec();
    sizes.sort_unstable();
    // 4x4 is listed twice: walking distance and the relabelled table have a loop each.
    assert_eq!(sizes.iter().filter(|&&s| s == (4, 4)).count(), 2);
    sizes.dedup();
    let small: Vec<(usize, usize)> = (2..=5)
        .flat_map(|r| (2..=5).map(move |c| (r, c)))
        .filter(|(r, c)| r * c <= 16)
        .collect();
    assert_eq!(sizes, small);
    assert!(!fifteen::mtm::automaton::generated_for(
        Board::new(5, 5).expect("valid")
    ));
}

#[test]
fn the_far_3x3_positions_and_a_sample_of_the_others() {
    let board = Board::new(3, 3).expect("valid");
    let all = distances(board, 1 << 30).expect("small board");
    let mut sorted: Vec<(&Position, &u32)> = all.iter().collect();
    sorted.sort_by_key(|(p, _)| p.notation(Convention::Knuth));
    let mut far = 0;
    for (i, (start, &distance)) in sorted.into_iter().enumerate() {
        // The 24-move antipodes and the 23-move positions, and every 211th other.
        if distance < 23 && i % 211 != 0 {
            continue;
        }
        far += usize::from(distance >= 23);
        let mtm = same_search(start, BoundChoice::Walking, false);
        assert_eq!(mtm, distance as usize, "{start:?}");
    }
    assert!(far > 0);
}

#[test]
fn every_3x3_position_at_its_breadth_first_distance() {
    let board = Board::new(3, 3).expect("valid");
    let all = distances(board, 1 << 30).expect("small board");
    assert_eq!(all.len(), 181_440);
    let engine = MtmAutomaton {
        config: config(BoundChoice::Walking),
    };
    for (start, &distance) in &all {
        common::solve_in_mtm(&engine, start, &SearchOptions::default(), distance);
    }
}

#[test]
fn samples_of_2x4_4x2_3x4_and_4x3() {
    let mut source = PositionSource::new(31);
    for (rows, cols, count) in [(2, 4, 30), (4, 2, 30), (3, 4, 12), (4, 3, 12)] {
        let board = Board::new(rows, cols).expect("valid");
        let all = (rows * cols <= 8)
            .then(|| distances(board, 1 << 30))
            .flatten();
        for _ in 0..count {
            let start = match &all {
                Some(_) => source.random_solvable(board),
                None => source.random_walk(board, 24),
            };
            let mtm = same_search(&start, BoundChoice::Walking, false);
            if let Some(all) = &all {
                assert_eq!(Some(&(mtm as u32)), all.get(&start), "{start:?}");
            }
        }
    }
}

#[test]
fn every_optimal_solution_in_the_same_order() {
    let start = Position::parse("867254301", None, Convention::Knuth).expect("valid");
    same_search(&start, BoundChoice::Walking, true);
    let mut source = PositionSource::new(7);
    for _ in 0..3 {
        let start = source.random_walk(Board::fifteen(), 30);
        same_search(&start, BoundChoice::Walking, true);
    }
}

#[test]
fn random_walks_on_4x4_with_both_bounds() {
    let mut source = PositionSource::new(31);
    for _ in 0..10 {
        let start = source.random_walk(Board::fifteen(), 40);
        let walking = same_search(&start, BoundChoice::Walking, false);
        let relabel = same_search(&start, BoundChoice::Relabel, false);
        assert_eq!(walking, relabel, "{start:?}");
    }
}

#[test]
fn two_of_korfs_instances_with_the_relabelled_table() {
    for id in [46, 86] {
        let start = fifteen::korf100::instance(id)
            .expect("an instance")
            .position;
        same_search(&start, BoundChoice::Relabel, false);
    }
}

/// The automaton on `threads` threads, every bound split.
fn on_threads(start: &Position, threads: usize, all: bool) -> SearchOutcome {
    let options = SearchOptions {
        all,
        threads,
        split_after: 0.0,
        ..SearchOptions::default()
    };
    MtmAutomaton {
        config: config(BoundChoice::Walking),
    }
    .solve(start, &options, &mut |_| {})
    .expect("solvable")
}

#[test]
fn several_threads_give_the_answer_and_the_nodes_of_one() {
    let mut source = PositionSource::new(5);
    for (rows, cols, walk) in [(3, 3, 40), (3, 4, 40), (4, 4, 40), (4, 4, 60)] {
        let start = source.random_walk(Board::new(rows, cols).expect("valid"), walk);
        for all in [false, true] {
            let one = on_threads(&start, 1, all);
            let three = on_threads(&start, 3, all);
            assert_eq!(three.solutions, one.solutions, "{start:?}");
            assert_eq!(
                three.stats.completed_nodes(),
                one.stats.completed_nodes(),
                "{start:?}"
            );
            // With every solution wanted, the last bound is complete too.
            if all {
                assert_eq!(bounds(&three), bounds(&one), "{start:?}");
            }
        }
    }
}

/// Told to a [`Live`] (for a progress line), the automaton splits its bounds on one thread
/// too, with the answer and the completed bounds' nodes of the plain search; each completed
/// bound it reports had every subtree searched and was named by its length.
#[test]
fn a_search_that_tells_its_progress_gives_the_answer_of_one_thread() {
    let mut source = PositionSource::new(7);
    for (rows, cols, walk) in [(3, 4, 40), (4, 4, 60)] {
        let start = source.random_walk(Board::new(rows, cols).expect("valid"), walk);
        let plain = on_threads(&start, 1, false);
        let live = std::sync::Arc::new(fifteen::engine::Live::new(0.0));
        let options = SearchOptions {
            live: Some(live.clone()),
            ..SearchOptions::default()
        };
        let mut told = 0;
        let outcome = MtmAutomaton {
            config: config(BoundChoice::Walking),
        }
        .solve(&start, &options, &mut |bound| {
            let Some(seen) = live.read().filter(|s| s.subtrees > 0) else {
                return;
            };
            assert_eq!(seen.label, format!("{} moves", bound.happy));
            if bound.completed {
                assert_eq!(seen.searched, seen.subtrees, "{start:?}");
                assert!(seen.nodes <= bound.nodes.unwrap_or(0), "{start:?}");
                told += 1;
            }
        })
        .expect("solvable");
        assert_eq!(outcome.solutions, plain.solutions, "{start:?}");
        assert_eq!(
            outcome.stats.completed_nodes(),
            plain.stats.completed_nodes(),
            "{start:?}"
        );
        assert!(told > 0, "{start:?}: no bound was told");
    }
}
