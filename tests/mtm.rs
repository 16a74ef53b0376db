//! The multi-tile metric: the reference MTM IDA* against breadth-first search in SLIDING's
//! style 3 (exactly MTM on an n-puzzle), over every position of the small boards and samples
//! of the larger ones; every solution replayed, its MTM moves counted from its path. The
//! searches walk the duplicate-pruning machine of jump words, as users' do by default (without
//! it, `--all`, and the machine's completeness: `tests/prune.rs` and `tests/mtm_automaton.rs`).

mod common;

use fifteen::engine::{Engine, SearchOptions};
use fifteen::mtm::bfs::distances;
use fifteen::mtm::moves::length;
use fifteen::mtm::search::MtmIda;
use fifteen::mtm::{BoundChoice, Config};
use fifteen::prune::Prune;
use fifteen::random::PositionSource;
use fifteen::{Board, Position};

/// The reference engine with `bound`, walking the machine; the machines and the relabelled
/// table are kept with the other tests' tables under the build's scratch directory (built once,
/// the 4x4 relabelled table in about 15 seconds, then read).
fn reference(bound: BoundChoice) -> MtmIda {
    MtmIda {
        config: Config {
            bound,
            prune: Prune::Fsm,
            tables: Some(common::tables()),
        },
    }
}

/// The reference engine with walking distance.
fn walking() -> MtmIda {
    reference(BoundChoice::Walking)
}

/// Solves the positions of `board` that `keep` keeps (given the position's index in the
/// order of their notations and its distance) with the reference engine and checks them
/// against the breadth-first distances; returns the largest distance, the positions reachable
/// and the positions solved.
fn exhaustive_if(
    rows: usize,
    cols: usize,
    keep: impl Fn(usize, u32) -> bool,
) -> (u32, usize, usize) {
    let board = Board::new(rows, cols).expect("valid");
    let all = distances(board, 1 << 30).expect("small board");
    let engine = walking();
    let options = SearchOptions::default();
    let mut sorted: Vec<(&Position, &u32)> = all.iter().collect();
    sorted.sort_by_key(|(p, _)| p.notation(fifteen::Convention::Knuth));
    let mut solved = 0;
    for (i, (start, &distance)) in sorted.into_iter().enumerate() {
        if !keep(i, distance) {
            continue;
        }
        solved += 1;
        let outcome = common::solve_in_mtm(&engine, start, &options, distance);
        let last = outcome.stats.bounds.last().expect("a bound");
        assert_eq!(last.happy, distance, "{start:?}: the last bound");
    }
    (all.values().copied().max().unwrap_or(0), all.len(), solved)
}

/// Every position of a board.
fn exhaustive(rows: usize, cols: usize) -> (u32, usize) {
    let (max, reachable, _) = exhaustive_if(rows, cols, |_, _| true);
    (max, reachable)
}

#[test]
fn every_2x2_2x3_and_3x2_position() {
    // 12 and 360 positions (half of the permutations are unreachable).
    assert_eq!(exhaustive(2, 2).1, 12);
    assert_eq!(exhaustive(2, 3).1, 360);
    assert_eq!(exhaustive(3, 2).1, 360);
}

#[test]
fn every_2x4_and_4x2_position() {
    assert_eq!(exhaustive(2, 4).1, 20_160);
    assert_eq!(exhaustive(4, 2).1, 20_160);
}

#[test]
fn the_far_3x3_positions_and_every_13th_other() {
    // All 181,440 take about 40 seconds here: the 631 positions 22 moves or more away
    // (where a search is longest and a bound most likely to be wrong) and every 13th of the
    // others. God's number of the 8-puzzle in MTM is 24.
    let (max, reachable, solved) = exhaustive_if(3, 3, |i, d| d >= 22 || i % 13 == 0);
    assert_eq!((max, reachable), (24, 181_440));
    assert!(solved > 631 + 180_809 / 13, "{solved}");
}

/// The reference engine and the breadth-first one on `count` positions of `board` (random
/// walks of `walk` moves), with the same MTM length, and paths that replay.
fn against_bfs(board: Board, walk: usize, count: usize, engine: &dyn Engine) {
    let mut source = PositionSource::new(31);
    let options = SearchOptions {
        memory_limit: Some(1 << 30),
        ..SearchOptions::default()
    };
    for _ in 0..count {
        let start = source.random_walk(board, walk);
        let ida = engine
            .solve(&start, &options, &mut |_| {})
            .expect("solvable");
        let bfs = fifteen::mtm::bfs::engine()
            .solve(&start, &options, &mut |_| {})
            .expect("fits");
        for outcome in [&ida, &bfs] {
            assert!(outcome.solutions[0].solves(&start), "{start:?}");
        }
        let (a, b) = (
            length(&start, &ida.solutions[0].moves),
            length(&start, &bfs.solutions[0].moves),
        );
        assert_eq!(a, b, "{start:?}");
        assert_eq!(Some(bfs.stats.bounds[0].happy as usize), b, "{start:?}");
    }
}

#[test]
fn samples_of_3x4_and_4x3() {
    for (rows, cols) in [(3, 4), (4, 3)] {
        let board = Board::new(rows, cols).expect("valid");
        against_bfs(board, 20, 12, &walking());
    }
}

#[test]
fn samples_of_4x4_with_walking_distance() {
    against_bfs(Board::fifteen(), 12, 12, &walking());
}

#[test]
fn every_optimal_solution_is_as_long_as_the_first() {
    let start = Position::parse("867254301", None, fifteen::Convention::Knuth).expect("valid");
    let options = SearchOptions {
        all: true,
        ..SearchOptions::default()
    };
    let outcome = walking()
        .solve(&start, &options, &mut |_| {})
        .expect("solvable");
    let distance = distances(start.board(), 1 << 30).expect("small")[&start];
    assert!(outcome.solutions.len() > 1);
    let mut seen = std::collections::HashSet::new();
    for solution in &outcome.solutions {
        assert!(solution.solves(&start));
        assert_eq!(length(&start, &solution.moves), Some(distance as usize));
        assert!(seen.insert(solution.moves.clone()), "each solution once");
    }
}

/// The reference engine with the relabelled 4x4 table.
fn relabelled() -> MtmIda {
    reference(BoundChoice::Relabel)
}

#[test]
fn the_relabelled_table_on_4x4() {
    let engine = relabelled();
    // Against breadth-first search on short walks.
    against_bfs(Board::fifteen(), 12, 12, &engine);
    // Against walking distance alone on two of Korf's instances that it solves in seconds:
    // the same lengths, in far fewer nodes.
    let options = SearchOptions::default();
    for id in [46, 86] {
        let start = fifteen::korf100::instance(id)
            .expect("an instance")
            .position;
        let with = engine
            .solve(&start, &options, &mut |_| {})
            .expect("solvable");
        let without = walking()
            .solve(&start, &options, &mut |_| {})
            .expect("solvable");
        assert!(with.solutions[0].solves(&start));
        assert_eq!(
            length(&start, &with.solutions[0].moves),
            length(&start, &without.solutions[0].moves),
            "Korf {id}"
        );
        assert!(with.stats.nodes < without.stats.nodes, "Korf {id}");
    }
}

/// The relabelled tables (distances mod 3, exact ones found by descending to the goal) against
/// a breadth-first search of each relabelled board of its own, over every arrangement within 10
/// MTM moves of the goal's: each position with that arrangement looks up its distance.
#[test]
fn the_relabelled_tables_distances_near_the_goal() {
    use fifteen::mtm::moves::Jumps;
    use fifteen::mtm::relabel::RELABELLINGS;
    use std::collections::HashMap;
    let board = Board::fifteen();
    let bound = fifteen::mtm::tables::lower_bound(board, &relabelled().config);
    let jumps = Jumps::new(board);
    for (k, relabelling) in RELABELLINGS.iter().enumerate() {
        let goal: Vec<u8> = (0..16).map(|cell| relabelling[(cell + 1) % 16]).collect();
        let mut seen: HashMap<Vec<u8>, u32> = HashMap::from([(goal.clone(), 0)]);
        let mut level = vec![goal];
        for d in 1..=10 {
            let mut next = Vec::new();
            for classes in &level {
                let blank = classes.iter().position(|&c| c == 0).expect("a blank");
                for jump in jumps.from(blank) {
                    let mut after = classes.clone();
                    let mut here = blank;
                    for &cell in jump.passed() {
                        after.swap(here, usize::from(cell));
                        here = usize::from(cell);
                    }
                    if !seen.contains_key(&after) {
                        seen.insert(after.clone(), d);
                        next.push(after);
                    }
                }
            }
            level = next;
        }
        assert!(seen.len() > 10_000, "{} arrangements", seen.len());
        for (classes, &d) in &seen {
            // Tiles of each class on its cells, in any order.
            let mut free: Vec<Vec<u8>> = (0..5).map(|_| Vec::new()).collect();
            for tile in 0..16u8 {
                free[usize::from(relabelling[usize::from(tile)])].push(tile);
            }
            let tiles: Vec<u8> = classes
                .iter()
                .map(|&c| free[usize::from(c)].pop().expect("a tile of the class"))
                .collect();
            // View 2k is relabelling k of the board itself.
            let codes = bound.codes(&tiles);
            assert_eq!(u32::from(codes.distances[2 * k]), d, "{k}: {classes:?}");
        }
    }
}

/// `LowerBound::child`, which both MTM engines ask for a child's bound, keeps its contract on
/// the children of 4x4 positions with the relabelled table (which keeps distances mod 3: a
/// child's follow from its parent's), for every budget and settled value around the exact
/// bound (the table's, walking distance left out): the exact bound when it is at most the
/// budget or below the settled value, else a value above the budget, at least the settled
/// value, and at most the exact bound; and the distances it leaves in the child's codes are
/// the child's wherever the bound is exact.
#[test]
fn a_childs_bound_is_exact_wherever_it_matters() {
    use fifteen::mtm::moves::{play_all, Axis, Jumps};
    let config = relabelled().config;
    let bound = fifteen::mtm::tables::lower_bound(Board::fifteen(), &config);
    let jumps = Jumps::new(Board::fifteen());
    let mut source = PositionSource::new(43);
    for _ in 0..100 {
        let parent = source.random_solvable(Board::fifteen());
        let from_parent = bound.codes(parent.tiles());
        for jump in jumps.from(parent.blank()) {
            let Some((position, _)) = play_all(&parent, &[jump.jump]) else {
                panic!("{jump:?} leaves the board");
            };
            let exact_codes = bound.codes(position.tiles());
            let (v, h) = bound.states(&position);
            let axis = Axis::of(jump.jump.direction).other();
            let walking = bound.combine(v, h, Some(axis));
            let exact = bound.table_estimate(position.tiles());
            assert_eq!(bound.estimate(&position), exact.max(1));
            for budget in 0..=exact + 1 {
                for settled in 0..=exact + 1 {
                    let mut codes = bound.child_codes(from_parent, position.tiles());
                    let at_goal = || position.is_goal();
                    let got = bound.child(walking, &mut codes, (budget, settled), at_goal);
                    if exact <= budget || exact < settled {
                        assert_eq!(got, exact, "{position:?} {budget} {settled}");
                        assert_eq!(codes, exact_codes, "{position:?}");
                    } else {
                        assert!(got > budget && got >= settled && got <= exact);
                    }
                }
            }
        }
    }
    // The tables say 0 where no view tells the position from the goal (tiles 11, 12 and 15,
    // of one class in every view, turned round their cells); only the goal has bound 0.
    let goal = Position::goal(Board::fifteen());
    let mut swapped = goal.tiles().to_vec();
    (swapped[10], swapped[11], swapped[14]) = (12, 15, 11);
    let swapped = Position::from_tiles(Board::fifteen(), &swapped).expect("a position");
    assert!(swapped.is_solvable());
    assert_eq!(bound.table_estimate(swapped.tiles()), 0);
    assert_eq!((bound.estimate(&swapped), bound.estimate(&goal)), (1, 0));
    let mut codes = bound.codes(swapped.tiles());
    assert_eq!(bound.relabelled(&mut codes, (0, 0), || false), 1);
    assert_eq!(bound.relabelled(&mut codes, (0, 0), || true), 0);
}
