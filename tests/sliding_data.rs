//! The classic puzzles of `tests/data/sliding/`: their distances in every style (the table of
//! the README there), every solution replayed move by move, the 8-puzzle's level sizes (OEIS
//! A089473), and the orderings between styles that hold for every puzzle.

use fifteen::sliding::reference::{Blocks, Reference};
use fifteen::sliding::{self, Geometry, Outcome, Puzzle, Style};

const TABLE: [(&str, [u32; 6]); 9] = [
    ("silly", [20, 10, 4, 10, 4, 2]),
    ("klotski", [116, 90, 81, 72, 58, 55]),
    ("century", [131, 112, 99, 80, 71, 68]),
    ("pennant", [83, 62, 59, 53, 38, 38]),
    ("eight_puzzle", [31, 31, 31, 20, 20, 20]),
    ("five_puzzle_2x3", [21, 21, 21, 18, 18, 18]),
    ("fifteen_puzzle_d15", [15, 15, 15, 12, 12, 12]),
    ("twins_corridor", [4, 2, 2, 2, 1, 1]),
    ("twins_style5", [3, 2, 1, 2, 2, 1]),
];

fn load(name: &str) -> Puzzle {
    let path = format!("tests/data/sliding/{name}.txt");
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Puzzle::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Solves and checks the path: it starts at the start, ends at the stop, and each step is one
/// move of the style according to the naive oracle (superpiece styles: every subset is tried,
/// so only for puzzles with few blocks) or, for many blocks, to the engine's move finder.
fn solve_and_replay(name: &str, puzzle: &Puzzle, style: Style) -> u32 {
    let outcome = sliding::solve(puzzle, style, 1 << 30, &mut |_| {}, &mut |_| {}).unwrap();
    let Outcome::Solved { distance, path, .. } = outcome else {
        panic!("{name}: style {} unsolved", style.0);
    };
    assert_eq!(path.len(), distance as usize + 1, "{name}");
    let geometry = Geometry::new(puzzle);
    let oracle = Reference::new(puzzle);
    let configs: Vec<Blocks> = path
        .iter()
        .map(|k| oracle.blocks_of_key(&geometry, k))
        .collect();
    assert_eq!(configs[0], oracle.blocks_of(&puzzle.start), "{name}");
    let stop = &puzzle.stops[0];
    assert_eq!(configs[configs.len() - 1], oracle.blocks_of(stop), "{name}");
    let few_blocks = puzzle.start.blocks.len() <= 10;
    for (step, pair) in configs.windows(2).enumerate() {
        if !style.superpieces() || few_blocks {
            assert!(
                oracle.successors(&pair[0], style).contains(&pair[1]),
                "{name}: style {} step {step} is not a move",
                style.0
            );
        } else {
            assert!(sliding::find_move(&geometry, style, &path[step], &path[step + 1]).is_some());
        }
    }
    distance
}

#[test]
fn every_classic_puzzle_has_its_distance_in_every_style() {
    for (name, distances) in TABLE {
        let puzzle = load(name);
        let found: Vec<u32> = Style::ALL
            .iter()
            .map(|&style| solve_and_replay(name, &puzzle, style))
            .collect();
        assert_eq!(found, distances, "{name}");
        // A superpiece made of one piece is a piece.
        assert!(
            found[3] <= found[0] && found[4] <= found[1] && found[5] <= found[2],
            "{name}"
        );
        // Longer moves contain shorter ones.
        assert!(found[2] <= found[1] && found[1] <= found[0], "{name}");
        assert!(found[5] <= found[4] && found[4] <= found[3], "{name}");
    }
}

#[test]
fn eight_puzzle_level_sizes_are_oeis_a089473() {
    const A089473: [u64; 32] = [
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
        10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
    ];
    let mut puzzle = load("eight_puzzle");
    puzzle.stops.clear();
    let outcome = sliding::solve(&puzzle, Style(0), 1 << 30, &mut |_| {}, &mut |_| {}).unwrap();
    let Outcome::Exhausted { levels, .. } = outcome else {
        panic!("no stop, yet solved");
    };
    assert_eq!(levels, A089473);
    assert_eq!(levels.iter().sum::<u64>(), 181_440);
}

/// Every configuration reachable from the goal of an n-puzzle, by distance (the files in
/// `levels/` have no stop line).
fn all_levels(name: &str) -> Vec<u64> {
    let path = format!("tests/data/sliding/levels/{name}.txt");
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let puzzle = Puzzle::parse_with(&text, true).unwrap_or_else(|e| panic!("{path}: {e}"));
    let outcome = sliding::solve(&puzzle, Style(0), 3 << 30, &mut |_| {}, &mut |_| {}).unwrap();
    let Outcome::Exhausted { levels, .. } = outcome else {
        panic!("no stop, yet solved");
    };
    levels
}

#[test]
fn seven_puzzle_level_sizes_are_oeis_a090035() {
    const A090035: [u64; 37] = [
        1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788, 985, 1194,
        1414, 1664, 1884, 1999, 1958, 1770, 1463, 1076, 667, 361, 190, 88, 39, 19, 7, 1,
    ];
    assert_eq!(all_levels("seven_puzzle"), A090035);
}

#[test]
fn reachable_counts_match_the_readme() {
    for (name, count) in [
        ("silly", 2457),
        ("klotski", 25955),
        ("century", 81340),
        ("pennant", 1398),
        ("five_puzzle_2x3", 360),
    ] {
        let mut puzzle = load(name);
        puzzle.stops.clear();
        let outcome = sliding::solve(&puzzle, Style(0), 1 << 30, &mut |_| {}, &mut |_| {}).unwrap();
        let Outcome::Exhausted { levels, .. } = outcome else {
            panic!("{name}: no stop, yet solved");
        };
        assert_eq!(levels.iter().sum::<u64>(), count, "{name}");
    }
}

/// A tight memory budget forgets old levels, and the path is rebuilt through waypoint
/// restarts: same distance, same kind of path.
#[test]
fn forgotten_levels_are_rebuilt_through_waypoints() {
    let puzzle = load("century");
    let mut restarts = Vec::new();
    let outcome = sliding::solve(&puzzle, Style(2), 400 << 10, &mut |_| {}, &mut |level| {
        restarts.push(level)
    })
    .unwrap();
    let Outcome::Solved { distance, path, .. } = outcome else {
        panic!("unsolved");
    };
    assert_eq!(distance, 99);
    assert!(
        !restarts.is_empty(),
        "the budget should have forced a restart"
    );
    let geometry = Geometry::new(&puzzle);
    for pair in path.windows(2) {
        assert!(sliding::find_move(&geometry, Style(2), &pair[0], &pair[1]).is_some());
    }
    let oracle = Reference::new(&puzzle);
    assert_eq!(
        oracle.blocks_of_key(&geometry, &path[0]),
        oracle.blocks_of(&puzzle.start)
    );
}

#[test]
fn a_budget_too_small_for_three_levels_is_refused() {
    let puzzle = load("eight_puzzle");
    let error = sliding::solve(&puzzle, Style(0), 64 << 10, &mut |_| {}, &mut |_| {}).unwrap_err();
    assert_eq!(error.limit, 64 << 10);
    assert!(error.distance > 5, "{error}");
    assert!(error.to_string().contains("64K"), "{error}");
}
