//! Checking a path of the sliding-block engine without the engine's own move generator or stop
//! test (`mod sliding_path;` in the tests that solve): each step must be one of the plain
//! reference's successors (`fifteen::sliding::reference`, explicit blocks and a brute-force
//! move search), and stops are matched block by block from the puzzle's stop lines.
#![allow(dead_code)] // each test file uses some of it

use fifteen::sliding::reference::{Blocks, Reference};
use fifteen::sliding::spec::Layout;
use fifteen::sliding::{self, Geometry, Outcome, Puzzle, Style};
use std::collections::HashSet;

/// The most blocks for which the reference lists superpiece moves (styles 3-5: every subset of
/// the blocks, 2^blocks of them) in reasonable time.
pub const SUPERPIECE_BLOCKS: usize = 12;

/// Whether the reference can check a path of `puzzle` in `style` (see [`SUPERPIECE_BLOCKS`]).
pub fn checkable(puzzle: &Puzzle, style: Style) -> bool {
    !style.superpieces() || puzzle.start.blocks.len() <= SUPERPIECE_BLOCKS
}

/// Solves `puzzle` (named `name` in messages) in `style` within a gigabyte, and checks the path
/// with the plain reference ([`check`]): each step one move of the style, the last configuration
/// matching the stop reported and no earlier one matching any. The distance and the stop.
pub fn solve_and_check(name: &str, puzzle: &Puzzle, style: Style) -> (u32, usize) {
    let outcome = sliding::solve(puzzle, style, 1 << 30, &mut |_| {}, &mut |_| {})
        .expect("within a gigabyte");
    let Outcome::Solved {
        distance,
        stop,
        path,
        ..
    } = outcome
    else {
        panic!("{name} style {}: no solution", style.0);
    };
    assert_eq!(
        path.len(),
        distance as usize + 1,
        "{name} style {}",
        style.0
    );
    assert!(checkable(puzzle, style), "{name} style {}", style.0);
    check(puzzle, style, &path, stop);
    (distance, stop)
}

/// The cells the blocks of `config` cover.
fn covered(puzzle: &Puzzle, config: &Blocks) -> HashSet<(i32, i32)> {
    config
        .iter()
        .flat_map(|&(kind, r, c)| {
            puzzle
                .shape(kind)
                .iter()
                .map(move |&(dr, dc)| (r + dr, c + dc))
        })
        .collect()
}

/// Whether `config` matches the stop `stop`: a full stop is the configuration itself; a
/// partial one names blocks that must be there and cells that must be empty.
pub fn matches(puzzle: &Puzzle, reference: &Reference, stop: &Layout, config: &Blocks) -> bool {
    if !stop.is_partial() {
        return reference.blocks_of(stop) == *config;
    }
    let cols = puzzle.cols;
    let cell = |index: usize| ((index / cols) as i32, (index % cols) as i32);
    let blocks = stop.blocks.iter().all(|b| {
        let (r, c) = cell(b.anchor);
        config.contains(&(b.kind, r, c))
    });
    let covered = covered(puzzle, config);
    let empty = stop
        .empty_cells(&puzzle.shapes, cols)
        .into_iter()
        .all(|index| !covered.contains(&cell(index)));
    blocks && empty
}

/// Checks `path` (packed keys, start first), found for `puzzle` in `style` and reported as
/// reaching stop `stop`: it starts at the start, each step is a move of the style, the last
/// configuration matches that stop and no earlier stop, and no earlier configuration matches
/// any stop.
pub fn check(puzzle: &Puzzle, style: Style, path: &[Vec<u64>], stop: usize) {
    let geometry = Geometry::new(puzzle);
    let reference = Reference::new(puzzle);
    let configs: Vec<Blocks> = path
        .iter()
        .map(|key| reference.blocks_of_key(&geometry, key))
        .collect();
    assert_eq!(configs.first(), Some(&reference.blocks_of(&puzzle.start)));
    for (i, pair) in configs.windows(2).enumerate() {
        let next = reference.successors(&pair[0], style);
        assert!(
            next.contains(&pair[1]),
            "step {} is not a move of style {}",
            i + 1,
            style.0
        );
    }
    let first_stop = |config: &Blocks| {
        (puzzle.stops.iter()).position(|s| matches(puzzle, &reference, s, config))
    };
    let (last, earlier) = configs.split_last().expect("a path");
    assert_eq!(first_stop(last), Some(stop), "the stop reached");
    for config in earlier {
        assert_eq!(first_stop(config), None, "a stop met earlier on the path");
    }
}
