//! The pattern-database heuristics against facts: exact breadth-first distances of every
//! 8-puzzle position (admissible, parity, consistent with unit steps), the reflection, random
//! walks on the larger boards, and the reference engine (bounds from scratch at every node)
//! against the automaton (bounds by incremental lookups) on the shared corpus: the same
//! lengths and the same node counts in every bound both searched completely.
//!
//! Tables are built inside the tests (a second or two in all): the exact 8-puzzle table, a
//! weaker 4-4 split of the 8-puzzle, the 3x4 and 4x3 halves and the 4x4 5-5-5 partition.
#![forbid(unsafe_code)]

use fifteen::engine::automaton::Automaton;
use fifteen::engine::reference::ReferenceIda;
use fifteen::heuristic::partition::{mirror_cells, Partition};
use fifteen::heuristic::pdb::{self, piece_cells, PatternDb, MIRROR};
use fifteen::heuristic::Heuristic;
use fifteen::random::PositionSource;
use fifteen::{Board, Convention, Direction, Engine, Position, SearchOptions};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, OnceLock};

fn board(rows: usize, cols: usize) -> Board {
    Board::new(rows, cols).expect("a valid board")
}

fn built(partition: Partition) -> Arc<PatternDb> {
    Arc::new(pdb::build(&partition).expect("the tables build"))
}

fn preset(rows: usize, cols: usize, name: &str) -> Arc<PatternDb> {
    static BUILT: OnceLock<std::sync::Mutex<HashMap<String, Arc<PatternDb>>>> = OnceLock::new();
    let cache = BUILT.get_or_init(Default::default);
    let key = format!("{rows}x{cols} {name}");
    let mut map = cache.lock().expect("not poisoned");
    map.entry(key)
        .or_insert_with(|| built(Partition::preset(board(rows, cols), name).expect("a preset")))
        .clone()
}

/// The 8-puzzle split into two groups of four: not exact, so admissibility means something.
fn eight_split() -> Arc<PatternDb> {
    let partition = Partition::new(board(3, 3), "4-4", vec![vec![1, 2, 4, 5], vec![3, 6, 7, 8]])
        .expect("a partition");
    built(partition)
}

/// Exact distances of every solvable 8-puzzle position, by breadth-first search.
fn eight_puzzle_distances() -> HashMap<Position, u32> {
    let goal = Position::goal(board(3, 3));
    let mut distance = HashMap::from([(goal, 0u32)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(position) = queue.pop_front() {
        let d = distance[&position];
        for direction in Direction::ALL {
            let mut next = position;
            if next.move_blank(direction).is_some() && !distance.contains_key(&next) {
                distance.insert(next, d + 1);
                queue.push_back(next);
            }
        }
    }
    distance
}

#[test]
fn every_8_puzzle_position_is_bounded_consistently() {
    let distances = eight_puzzle_distances();
    assert_eq!(distances.len(), 181_440);
    let exact = Heuristic::Tables(preset(3, 3, "8"));
    let split = Heuristic::Tables(eight_split());
    for heuristic in [Heuristic::Manhattan, exact.clone(), split] {
        let estimates: HashMap<Position, u32> = distances
            .keys()
            .map(|p| (*p, heuristic.estimate(p)))
            .collect();
        for (position, &d) in &distances {
            let h = estimates[position];
            assert!(
                h <= d,
                "{heuristic:?} overestimates {position:?}: {h} > {d}"
            );
            assert_eq!(h % 2, d % 2, "{heuristic:?} parity at {position:?}");
            if heuristic == exact {
                assert_eq!(h, d, "the single 8-tile table is exact");
            }
            for direction in Direction::ALL {
                let mut next = *position;
                if next.move_blank(direction).is_some() {
                    assert_eq!(h.abs_diff(estimates[&next]), 1, "{heuristic:?} one step");
                }
            }
        }
    }
}

/// Pseudo-random directions (xorshift from `seed`) for random walks.
fn directions(mut seed: u64) -> impl FnMut() -> Direction {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        Direction::ALL[(seed % 4) as usize]
    }
}

/// On random walks, every move changes every heuristic by exactly one, and the lookups on
/// the reflection are the position's lookups of the reflected position.
#[test]
fn random_walks_move_the_bound_by_one_and_reflect() {
    let cases = [
        (board(3, 4), preset(3, 4, "6-5")),
        (board(4, 3), preset(4, 3, "6-5")),
        (board(4, 4), preset(4, 4, "5-5-5")),
    ];
    let mut source = PositionSource::new(7);
    let mut random_direction = directions(0x9e37_79b9_7f4a_7c15);
    for (board, db) in cases {
        let mirror = mirror_cells(board);
        for _ in 0..4 {
            let mut position = source.random_walk(board, 40);
            let mut h = db.estimate_position(&position);
            for _ in 0..150 {
                if position.move_blank(random_direction()).is_none() {
                    continue;
                }
                let next = db.estimate_position(&position);
                assert_eq!(h.abs_diff(next), 1, "{board} {position:?}");
                h = next;
                if let Some(mirror) = &mirror {
                    let (at, blank) = piece_cells(&position);
                    let values = db.values(&at, blank);
                    let mut tiles = vec![0u8; board.cells()];
                    for (cell, &tile) in position.tiles().iter().enumerate() {
                        let image = |x: usize| usize::from(mirror[x]);
                        tiles[image(cell)] = if tile == 0 {
                            0
                        } else {
                            image(usize::from(tile) - 1) as u8 + 1
                        };
                    }
                    let reflected = Position::from_tiles(board, &tiles).expect("a position");
                    let (at, blank) = piece_cells(&reflected);
                    let mirrored = db.values(&at, blank);
                    // The reflection's half of the position is the position's half of the
                    // reflection.
                    assert_eq!(values[MIRROR / 8], mirrored[0], "{position:?}");
                }
            }
        }
    }
}

/// On random walks, the lookups' values and entries that `PatternDb::step` keeps move by move
/// (each entry's rank updated from the cells the move passes) are those found from scratch,
/// on every board shape with tables: square (with the reflection) and not, with groups of 3
/// to 8 tiles.
#[test]
fn values_and_entries_kept_move_by_move_are_those_from_scratch() {
    let cases = [
        (board(3, 3), preset(3, 3, "8")),
        (board(3, 3), eight_split()),
        (board(3, 4), preset(3, 4, "6-5")),
        (board(4, 3), preset(4, 3, "6-5")),
        (board(4, 4), preset(4, 4, "5-5-5")),
    ];
    let mut source = PositionSource::new(11);
    let mut random_direction = directions(0x2545_f491_4f6c_dd1d);
    for (board, db) in cases {
        for _ in 0..4 {
            let mut position = source.random_walk(board, 30);
            let (at, blank) = piece_cells(&position);
            let (mut values, mut entries) = (db.values(&at, blank), db.entries(&at));
            for _ in 0..300 {
                let before = position;
                let Some(tile) = position.move_blank(random_direction()) else {
                    continue;
                };
                // The tile goes from the blank's new cell to its old one.
                let the_move = (tile - 1, position.blank() as u8, before.blank() as u8);
                (values, entries) =
                    db.step(values, &entries, &pdb::board_pieces(&before), the_move);
                let (at, blank) = piece_cells(&position);
                assert_eq!(entries, db.entries(&at), "{board} {position:?}");
                assert_eq!(values, db.values(&at, blank), "{board} {position:?}");
            }
        }
    }
}

struct Case {
    position: Position,
    length: usize,
    manhattan_nodes: u64,
}

fn corpus(boards: &[&str]) -> Vec<Case> {
    include_str!("data/corpus.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("board\t"))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| boards.contains(&f[0]))
        .map(|f| Case {
            position: Position::parse(f[1], f[0].parse().ok(), Convention::Knuth)
                .expect("a position"),
            length: f[3].parse().expect("a length"),
            manhattan_nodes: f[5].parse().expect("a node count"),
        })
        .collect()
}

/// Both engines with `heuristic` on `start`: the corpus length, and equal node counts in
/// every completed bound.
fn agree(start: &Position, length: usize, heuristic: &Heuristic) {
    let options = SearchOptions {
        heuristic: heuristic.clone(),
        ..SearchOptions::default()
    };
    let fast = Automaton
        .solve(start, &options, &mut |_| {})
        .expect("automaton");
    let slow = ReferenceIda
        .solve(start, &options, &mut |_| {})
        .expect("reference");
    assert_eq!(fast.length(), Some(length), "{heuristic:?} {start:?}");
    assert_eq!(slow.length(), Some(length), "{heuristic:?} {start:?}");
    assert!(fast.solutions.iter().all(|s| s.solves(start)));
    assert_eq!(
        fast.stats.completed_nodes(),
        slow.stats.completed_nodes(),
        "{heuristic:?} {start:?}"
    );
    // The first bound tried is the heuristic's estimate.
    let first = fast.stats.bounds.first().map(|b| b.length());
    assert_eq!(first, Some(heuristic.estimate(start)));
}

#[test]
fn engines_agree_on_the_corpus_with_every_heuristic() {
    let small = [
        Heuristic::Tables(preset(3, 3, "8")),
        Heuristic::Tables(eight_split()),
    ];
    for case in corpus(&["3x3"]) {
        for heuristic in &small {
            agree(&case.position, case.length, heuristic);
        }
    }
    for (name, rows, cols) in [("3x4", 3, 4), ("4x3", 4, 3)] {
        let heuristic = Heuristic::Tables(preset(rows, cols, "6-5"));
        for case in corpus(&[name]) {
            agree(&case.position, case.length, &heuristic);
        }
    }
    // The reference computes every bound from scratch: keep to the corpus's easier half.
    let heuristic = Heuristic::Tables(preset(4, 4, "5-5-5"));
    let cases = corpus(&["4x4"]);
    let mut tried = 0;
    for case in cases.iter().filter(|c| c.manhattan_nodes < 300_000) {
        agree(&case.position, case.length, &heuristic);
        tried += 1;
    }
    assert!(tried >= 15);
}

/// The automaton with tables finds every optimal solution with `--all`, as Manhattan does.
#[test]
fn all_solutions_are_the_same_set_with_tables() {
    let start = Position::parse("867254301", None, Convention::Knuth).expect("Hiroi's position");
    let mut sets = Vec::new();
    for heuristic in [Heuristic::Manhattan, Heuristic::Tables(eight_split())] {
        let options = SearchOptions {
            all: true,
            heuristic,
            ..SearchOptions::default()
        };
        for engine in [&Automaton as &dyn Engine, &ReferenceIda] {
            let outcome = engine.solve(&start, &options, &mut |_| {}).expect("solves");
            let mut moves: Vec<Vec<u8>> = outcome.solutions.into_iter().map(|s| s.moves).collect();
            moves.sort();
            sets.push(moves);
        }
    }
    assert_eq!(sets[0].len(), 40, "Hiroi's 40 optimal solutions");
    assert!(sets.iter().all(|s| *s == sets[0]));
}
