//! The reference IDA* (Knuth's KORF0) against known facts: the seeds' examples, Hiroi's 8- and
//! 11-puzzle results, and Korf's instances with their optimal lengths and exact node counts.
#![forbid(unsafe_code)]

use fifteen::engine::reference::ReferenceIda;
use fifteen::{Board, Convention, Direction, Engine, Position, SearchOptions, SearchOutcome};

fn position(text: &str) -> Position {
    Position::parse(text, None, Convention::Knuth).expect("a valid position")
}

fn solve(start: &Position, options: &SearchOptions) -> SearchOutcome {
    ReferenceIda
        .solve(start, options, &mut |_| {})
        .expect("a solvable position")
}

/// Korf's up, left, right, down, seen through the 180-degree conversion.
const KORF_ORDER: [Direction; 4] = [
    Direction::South,
    Direction::East,
    Direction::West,
    Direction::North,
];

#[test]
fn happy_moves_only_example() {
    let start = position("bc9e80df3412a756");
    let outcome = solve(&start, &SearchOptions::default());
    let solution = &outcome.solutions[0];
    assert_eq!((solution.happy, solution.sad), (56, 0));
    assert!(solution.solves(&start));
    // Knuth's KORF0 prints exactly this line for it.
    assert_eq!(
        start.moves_notation(&solution.moves, Convention::Knuth),
        "41d4831d2f48c9e48c9b31d2ceb3192756fceb32756eb756ad956aef"
    );
    assert_eq!(outcome.stats.bounds.len(), 1);
}

#[test]
fn transpose_has_bound_forty() {
    // 72 moves is far too slow for the reference engine; its first bound is checked instead.
    let start = position("159d26ae37bf48c0");
    assert_eq!(start.manhattan(), 40);
    assert!(start.is_solvable());
}

#[test]
fn eight_puzzle_has_forty_optimal_solutions() {
    let start = position("867254301");
    let options = SearchOptions {
        all: true,
        ..SearchOptions::default()
    };
    let outcome = solve(&start, &options);
    assert_eq!(outcome.solutions.len(), 40);
    let mut distinct: Vec<&Vec<u8>> = outcome.solutions.iter().map(|s| &s.moves).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 40);
    for solution in &outcome.solutions {
        assert_eq!(solution.len(), 31);
        assert!(solution.solves(&start));
    }
}

#[test]
fn eleven_puzzle_needs_fifty_three() {
    // Hiroi's 11-puzzle `0 3 2 1 / 8 7 6 5 / 4 11 10 9`.
    let start = Position::parse("0,3,2,1,8,7,6,5,4,11,10,9", None, Convention::Knuth)
        .expect("a valid 3x4 position");
    assert_eq!(start.board(), Board::new(3, 4).expect("3x4"));
    assert_eq!(position("032187654ba9"), start);
    let outcome = solve(&start, &SearchOptions::default());
    assert_eq!(outcome.length(), Some(53));
    assert!(outcome.solutions[0].solves(&start));
}

#[test]
fn goal_needs_no_moves() {
    let start = Position::goal(Board::fifteen());
    let outcome = solve(&start, &SearchOptions::default());
    assert_eq!(outcome.length(), Some(0));
    assert_eq!(outcome.stats.nodes, Some(1));
}

#[test]
fn unsolvable_is_refused() {
    let start = position("123456789abcdfe0");
    assert_eq!(
        ReferenceIda
            .solve(&start, &SearchOptions::default(), &mut |_| {})
            .err(),
        Some(fifteen::EngineError::Unsolvable)
    );
}

#[test]
fn bounds_are_reported_in_order() {
    let start = fifteen::korf100::instance(9).expect("instance 9").position;
    let mut seen = Vec::new();
    let outcome = ReferenceIda
        .solve(&start, &SearchOptions::default(), &mut |b| {
            seen.push((b.happy, b.sad))
        })
        .expect("solvable");
    // Manhattan 32, optimal 46: bounds 32+0, 33+1, ..., 39+7.
    let expected: Vec<(u32, u32)> = (0..8).map(|k| (32 + k, k)).collect();
    assert_eq!(seen, expected);
    assert_eq!(outcome.stats.bounds.len(), 8);
    let last = outcome.stats.bounds.last().expect("a last bound");
    assert!(!last.completed);
}

/// One test per Korf instance: optimal length and the exact node count of Korf's table.
macro_rules! korf_instances {
    ($($id:literal)*) => {
        paste::paste! {
            $(
                #[test]
                fn [<korf_instance_ $id>]() {
                    let instance = fifteen::korf100::instance($id).expect("a Korf instance");
                    let options = SearchOptions { order: Some(KORF_ORDER), ..SearchOptions::default() };
                    let outcome = solve(&instance.position, &options);
                    assert_eq!(outcome.length(), Some(instance.optimal_length as usize));
                    assert_eq!(outcome.stats.nodes, Some(instance.ida_nodes));
                    assert!(outcome.solutions[0].solves(&instance.position));
                }
            )*
        }
    };
}

// The instances that take the reference engine well under a second each.
korf_instances!(2 5 9 12 13 16 19 20 23 28 30 31 42 45 47 48 55 57 58 61 65 71 73 74 77 78 79 81 85 86 90 93 94 95 96 97);
