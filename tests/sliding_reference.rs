//! The engine against the naive oracle (`sliding::reference`): level sizes and distances in all
//! six styles on many small random puzzles (odd shapes, disconnected pieces, dead cells,
//! indistinguishable blocks), and every solution path replayed move by move.

use fifteen::sliding::reference::{Blocks, Reference};
use fifteen::sliding::spec::{Layout, PlacedBlock};
use fifteen::sliding::{self, Geometry, Outcome, Puzzle, Style};

/// A small deterministic generator (64-bit LCG), so failures reproduce.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A random puzzle in SLIDING's text format (start = stop).
fn random_puzzle(rng: &mut Lcg, max_blocks: usize) -> String {
    let rows = 1 + rng.next(4) as usize;
    let cols = 2 + rng.next(3) as usize;
    let patterns = [
        "1", "1", "11", "1/1", "11/1", "101", "11/11", "01/11", "1/01",
    ];
    let kinds = 1 + rng.next(3) as usize;
    let mut text = format!("{rows} x {cols} random\n");
    let mut shapes: Vec<Vec<(usize, isize)>> = Vec::new();
    for k in 1..=kinds {
        let pattern = patterns[rng.next(patterns.len() as u64) as usize];
        text.push_str(&format!("{k} = {pattern}\n"));
        let mut cells = Vec::new();
        for (r, row) in pattern.split('/').enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '1' {
                    cells.push((r, c as isize));
                }
            }
        }
        let (r0, c0) = cells[0];
        shapes.push(cells.iter().map(|&(r, c)| (r - r0, c - c0)).collect());
    }
    let n = rows * cols;
    let mut grid = vec!['.'; n]; // '.' open, 'x' dead, '#' covered, kind char = anchor
    for cell in grid.iter_mut() {
        if rng.next(10) == 0 {
            *cell = 'x';
        }
    }
    let target = 1 + rng.next(max_blocks as u64) as usize;
    let mut placed = 0;
    for _ in 0..40 {
        if placed == target {
            break;
        }
        let k = rng.next(kinds as u64) as usize;
        let anchor = rng.next(n as u64) as usize;
        let (ar, ac) = (anchor / cols, (anchor % cols) as isize);
        let cells: Option<Vec<usize>> = shapes[k]
            .iter()
            .map(|&(dr, dc)| {
                let (r, c) = (ar + dr, ac + dc);
                (r < rows && c >= 0 && (c as usize) < cols && grid[r * cols + c as usize] == '.')
                    .then_some(r * cols + c as usize)
            })
            .collect();
        if let Some(cells) = cells {
            for &c in &cells {
                grid[c] = '#';
            }
            grid[anchor] = char::from_digit(k as u32 + 1, 16).unwrap();
            placed += 1;
        }
    }
    if placed == 0 {
        return random_puzzle(rng, max_blocks);
    }
    let mut line = String::new();
    for &cell in &grid {
        match cell {
            '#' => {}
            '.' => line.push('0'),
            c => line.push(c),
        }
    }
    text.push_str(&format!("{line}\n{line}\n"));
    text
}

fn layout_of(puzzle: &Puzzle, blocks: &Blocks) -> Layout {
    let mut placed: Vec<PlacedBlock> = blocks
        .iter()
        .map(|&(kind, r, c)| PlacedBlock {
            kind,
            anchor: r as usize * puzzle.cols + c as usize,
        })
        .collect();
    placed.sort_by_key(|b| b.anchor);
    Layout {
        dead: puzzle.start.dead.clone(),
        blocks: placed,
        any: vec![false; puzzle.cells()],
    }
}

/// Checks one puzzle in one style against the oracle; returns the number of levels.
fn check(text: &str, style: Style, rng: &mut Lcg) -> usize {
    let mut puzzle = Puzzle::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let oracle = Reference::new(&puzzle);
    let start = oracle.blocks_of(&puzzle.start);
    let (levels, _) = oracle.levels(&start, &start, style);

    // Exhaustive search: the level sizes agree.
    puzzle.stops.clear();
    let outcome = sliding::solve(&puzzle, style, 1 << 30, &mut |_| {}, &mut |_| {}).unwrap();
    let Outcome::Exhausted { levels: ours, .. } = outcome else {
        panic!("no stop given, yet solved\n{text}");
    };
    assert_eq!(ours, levels, "level sizes, style {}\n{text}", style.0);

    // A random reachable stop: the distance agrees and the path replays move by move.
    let reachable = all_reachable(&oracle, &start, style);
    let (stop, distance) = &reachable[rng.next(reachable.len() as u64) as usize];
    puzzle.stops = vec![layout_of(&puzzle, stop)];
    let outcome = sliding::solve(&puzzle, style, 1 << 30, &mut |_| {}, &mut |_| {}).unwrap();
    let Outcome::Solved {
        distance: ours,
        path,
        ..
    } = outcome
    else {
        panic!("reachable stop not found, style {}\n{text}", style.0);
    };
    assert_eq!(ours, *distance, "distance, style {}\n{text}", style.0);
    let geometry = Geometry::new(&puzzle);
    let configs: Vec<Blocks> = path
        .iter()
        .map(|k| oracle.blocks_of_key(&geometry, k))
        .collect();
    assert_eq!(configs.first(), Some(&start));
    assert_eq!(configs.last(), Some(stop));
    for pair in configs.windows(2) {
        assert!(
            oracle.successors(&pair[0], style).contains(&pair[1]),
            "illegal step {:?} -> {:?}, style {}\n{text}",
            pair[0],
            pair[1],
            style.0
        );
    }
    for pair in path.windows(2) {
        assert!(sliding::find_move(&geometry, style, &pair[0], &pair[1]).is_some());
    }
    levels.len()
}

/// A random puzzle's parts for the per-configuration tests: the puzzle, its geometry, the
/// oracle, and the start as the oracle's blocks.
fn parts_of(text: &str) -> (Puzzle, Geometry, Reference, Blocks) {
    let puzzle = Puzzle::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let geometry = Geometry::new(&puzzle);
    let oracle = Reference::new(&puzzle);
    let start = oracle.blocks_of(&puzzle.start);
    (puzzle, geometry, oracle, start)
}

fn all_reachable(oracle: &Reference, start: &Blocks, style: Style) -> Vec<(Blocks, u32)> {
    let mut seen = std::collections::HashMap::from([(start.clone(), 0u32)]);
    let mut frontier = vec![start.clone()];
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for c in &frontier {
            for s in oracle.successors(c, style) {
                if !seen.contains_key(&s) {
                    seen.insert(s.clone(), d);
                    next.push(s);
                }
            }
        }
        frontier = next;
    }
    let mut all: Vec<(Blocks, u32)> = seen.into_iter().collect();
    all.sort();
    all
}

/// 150 random puzzles of at most `max_blocks` blocks from `seed`, each checked in every style
/// of `styles`.
fn random_puzzles(seed: u64, max_blocks: usize, styles: [Style; 3]) {
    let mut rng = Lcg(seed);
    for _ in 0..150 {
        let text = random_puzzle(&mut rng, max_blocks);
        for style in styles {
            check(&text, style, &mut rng);
        }
    }
}

#[test]
fn random_puzzles_single_piece_styles() {
    random_puzzles(20_201_124, 6, [Style(0), Style(1), Style(2)]);
}

#[test]
fn random_puzzles_superpiece_styles() {
    random_puzzles(4657, 5, [Style(3), Style(4), Style(5)]);
}

#[test]
fn the_silly_example_agrees_with_the_oracle_in_every_style() {
    let text = std::fs::read_to_string("tests/data/sliding/silly.txt").unwrap();
    let mut rng = Lcg(1);
    for style in Style::ALL {
        assert!(check(&text, style, &mut rng) > 2);
    }
}

/// Indistinguishable pieces that several superpieces carry to the same configuration: the
/// situation where the seed's depth-first trick of section 44 stops exploring too early.
#[test]
fn identical_pieces_in_style_five_agree_with_the_oracle() {
    let text = "2 x 4 twins\n1 = 1\n2 = 11\n11002\n11002\n";
    let mut rng = Lcg(7);
    for style in Style::ALL {
        check(text, style, &mut rng);
    }
}

/// The implementations of the seed's backtrack over ideals give the same superpieces in the
/// same order in every configuration reachable in random puzzles: the seed's lists, the bit
/// sets, and the bit sets without their shortcut.
#[test]
fn random_puzzles_have_the_same_superpieces_by_lists_and_by_bits() {
    use fifteen::sliding::moves::ideals::{bits::Bits, listing, lists::Lists};
    let mut rng = Lcg(1_963);
    let mut compared = 0;
    let (mut lists, mut bits, mut backtrack) =
        (Lists::default(), Bits::default(), Bits::backtrack_only());
    for _ in 0..60 {
        let text = random_puzzle(&mut rng, 8);
        let (puzzle, geometry, oracle, start) = parts_of(&text);
        for (blocks, _) in all_reachable(&oracle, &start, Style(3)) {
            let state = geometry.state_of(&layout_of(&puzzle, &blocks));
            lists.prepare(&geometry, &state);
            let by_lists = listing(|visit| lists.for_each(&geometry, visit));
            bits.prepare(&geometry, &state);
            let by_bits = listing(|visit| bits.for_each(&geometry, visit));
            backtrack.prepare(&geometry, &state);
            let by_backtrack = listing(|visit| backtrack.for_each(&geometry, visit));
            assert_eq!(by_lists, by_backtrack, "{blocks:?}\n{text}");
            assert_eq!(by_lists, by_bits, "{blocks:?}\n{text}");
            compared += 1;
        }
    }
    assert!(compared > 1_000, "{compared} configurations");
}

/// The move generator against the oracle's moves, in every configuration reachable in random
/// puzzles and in every style: the same (blocks, shift) pairs, each once. So a mover walking
/// along paths never shows a place twice, even when it is a superpiece of several directions
/// or its first step leads nowhere but back. Both with fits tested on the occupancy bits and
/// cell by cell, as on large boards.
#[test]
fn every_move_is_shown_once_and_only_the_oracles_moves_are() {
    use fifteen::sliding::moves::Mover;
    let mut rng = Lcg(31_415);
    let mut mover = Mover::new();
    let mut compared = 0;
    for _ in 0..40 {
        let text = random_puzzle(&mut rng, 5);
        let (puzzle, by_bits, oracle, start) = parts_of(&text);
        assert!(by_bits.occupancy.is_some());
        let by_cells = by_bits.clone().by_cells();
        for (style, geometry) in Style::ALL
            .into_iter()
            .flat_map(|style| [(style, &by_bits), (style, &by_cells)])
        {
            for (blocks, _) in all_reachable(&oracle, &start, style) {
                let mut state = geometry.state_of(&layout_of(&puzzle, &blocks));
                let mut ours = Vec::new();
                mover.successors(geometry, &mut state, style, |after, movers, delta| {
                    let mut shift = (0, 0);
                    let mut moved: Blocks = movers
                        .iter()
                        .map(|&b| {
                            let block = after.blocks[usize::from(b)];
                            let (r1, c1) = geometry.row_col(block.anchor);
                            let (r0, c0) = geometry.row_col((block.anchor as i32 - delta) as u32);
                            shift = (r1 as i32 - r0 as i32, c1 as i32 - c0 as i32);
                            (block.kind, r0 as i32, c0 as i32)
                        })
                        .collect();
                    moved.sort_unstable();
                    ours.push((moved, shift));
                    true
                });
                let mut expected = oracle.moves(&blocks, style);
                ours.sort_unstable();
                expected.sort_unstable();
                assert_eq!(ours, expected, "style {}, {blocks:?}\n{text}", style.0);
                compared += 1;
            }
        }
    }
    assert!(compared > 4_000, "{compared} configurations");
}

/// Unpacking by the occupancy bits (boards whose window fits in 64 bits) rebuilds
/// exactly the state that the cell-by-cell pass does, cells, heads, ranks (when kept), the
/// cells holding nybbles, blocks and empty cells, in every configuration reachable in random
/// puzzles, over whatever the state held before.
#[test]
fn unpacking_by_bits_and_cell_by_cell_agree() {
    let mut rng = Lcg(2_718);
    let mut compared = 0;
    for _ in 0..60 {
        let text = random_puzzle(&mut rng, 8);
        let (puzzle, geometry, oracle, start) = parts_of(&text);
        let (mut unpacked, mut by_cells) = (geometry.empty_state(), geometry.empty_state());
        for (blocks, _) in all_reachable(&oracle, &start, Style(2)) {
            let key = geometry.key_of(&layout_of(&puzzle, &blocks));
            unpacked.unpack(&geometry, &key);
            by_cells.unpack_cell_by_cell(&geometry, &key);
            if geometry.key_bits().is_some() {
                // Keys rewritten by the cells that hold nybbles need no ranks.
                by_cells.rank = unpacked.rank;
            }
            assert!(unpacked == by_cells, "{blocks:?}\n{text}");
            assert_eq!(unpacked.pack_vec(&geometry), key);
            compared += 1;
        }
    }
    assert!(compared > 1_000, "{compared} configurations");
}
