//! The pattern-database heuristics against facts: exact breadth-first distances of every
//! 8-puzzle position (admissible, parity, consistent with unit steps), the reflection, random
//! walks on the larger boards, and the reference engine (bounds from scratch at every node)
//! against the automaton (bounds by incremental lookups) on the shared corpus: the same
//! lengths and the same node counts in every bound both searched completely.
//!
//! Catalogues (the largest of several partitions' sums) too: on every 8-puzzle position the
//! largest of their partitions' estimates, their values kept move by move equal to those from
//! scratch, and the automaton's catalogue machine (which stops looking at the first lookup that
//! makes a refused move sad) counting the reference engine's nodes.
//!
//! Tables are built inside the tests (a few seconds in all): the exact 8-puzzle table, weaker
//! splits of the 8-puzzle into two groups of four, the 3x4 and 4x3 halves and the 4x4 5-5-5 and
//! 6-6-3 partitions, and a second 5-5-5.
#![forbid(unsafe_code)]

use fifteen::engine::automaton::Automaton;
use fifteen::engine::reference::ReferenceIda;
use fifteen::heuristic::catalogue::Catalogue;
use fifteen::heuristic::maxdb::{self, CatalogueDb};
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

/// The preset tables of the boards larger than 3x3: 3x4 and 4x3 (6-5) and 4x4 (5-5-5).
fn larger_presets() -> [(Board, Arc<PatternDb>); 3] {
    [
        (board(3, 4), preset(3, 4, "6-5")),
        (board(4, 3), preset(4, 3, "6-5")),
        (board(4, 4), preset(4, 4, "5-5-5")),
    ]
}

/// On random walks, every move changes every heuristic by exactly one, and the lookups on
/// the reflection are the position's lookups of the reflected position.
#[test]
fn random_walks_move_the_bound_by_one_and_reflect() {
    let mut source = PositionSource::new(7);
    let mut random_direction = directions(0x9e37_79b9_7f4a_7c15);
    for (board, db) in larger_presets() {
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
    let eights = [
        (board(3, 3), preset(3, 3, "8")),
        (board(3, 3), eight_split()),
    ];
    let mut source = PositionSource::new(11);
    let mut random_direction = directions(0x2545_f491_4f6c_dd1d);
    for (board, db) in eights.into_iter().chain(larger_presets()) {
        let scratch = |position: &Position| {
            let (at, blank) = piece_cells(position);
            (db.values(&at, blank), db.entries(&at))
        };
        let step =
            |(values, entries): &_, board: &_, the_move| db.step(*values, entries, board, the_move);
        walks(board, &mut source, &mut random_direction, scratch, step);
    }
}

/// Four random walks of 300 moves from positions `source` gives on `board`, each move in turn
/// of `direction`: at every node, what `step` keeps move by move from the first node's
/// `scratch` equals `scratch` of the node. `step` takes the state before a move, the pieces
/// on the board before it, and the move (the piece, from, to).
fn walks<S: PartialEq + std::fmt::Debug>(
    board: Board,
    source: &mut PositionSource,
    direction: &mut impl FnMut() -> Direction,
    scratch: impl Fn(&Position) -> S,
    step: impl Fn(&S, &pdb::Board32, (u8, u8, u8)) -> S,
) {
    for _ in 0..4 {
        let mut position = source.random_walk(board, 30);
        let mut kept = scratch(&position);
        for _ in 0..300 {
            let before = position;
            let Some(tile) = position.move_blank(direction()) else {
                continue;
            };
            // The tile goes from the blank's new cell to its old one.
            let the_move = (tile - 1, position.blank() as u8, before.blank() as u8);
            kept = step(&kept, &pdb::board_pieces(&before), the_move);
            assert_eq!(kept, scratch(&position), "{board} {position:?}");
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

/// Both engines with `heuristic` on `start`, the automaton on one thread and on two: the
/// corpus length, and equal node counts in every completed bound.
fn agree(start: &Position, length: usize, heuristic: &Heuristic) {
    let options = |threads| SearchOptions {
        heuristic: heuristic.clone(),
        threads,
        split_after: 0.0,
        ..SearchOptions::default()
    };
    let fast = Automaton.solve(start, &options(1), &mut |_| {});
    let slow = ReferenceIda.solve(start, &options(1), &mut |_| {});
    let split = Automaton.solve(start, &options(2), &mut |_| {});
    let (fast, slow, split) = (
        fast.expect("automaton"),
        slow.expect("reference"),
        split.expect("two threads"),
    );
    for outcome in [&fast, &slow, &split] {
        assert_eq!(outcome.length(), Some(length), "{heuristic:?} {start:?}");
        assert!(outcome.solutions.iter().all(|s| s.solves(start)));
    }
    let nodes = fast.stats.completed_nodes();
    assert_eq!(
        nodes,
        slow.stats.completed_nodes(),
        "{heuristic:?} {start:?}"
    );
    assert_eq!(
        nodes,
        split.stats.completed_nodes(),
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

fn catalogue(board: Board, text: &str) -> Catalogue {
    Catalogue::parse(board, text).expect("a catalogue")
}

fn built_catalogue(catalogue: &Catalogue) -> Arc<CatalogueDb> {
    Arc::new(maxdb::build(catalogue).expect("the tables build"))
}

/// Three weak splits of the 8-puzzle into two groups of four.
const EIGHT: &str = "1-2-4-5/3-6-7-8+1-2-3-4/5-6-7-8+1-4-5-7/2-3-6-8";

#[test]
fn every_8_puzzle_position_gets_the_largest_of_its_partitions() {
    let nine = board(3, 3);
    let list = catalogue(nine, EIGHT);
    let db = built_catalogue(&list);
    let singles: Vec<_> = list
        .partitions()
        .iter()
        .map(|p| pdb::build(p).expect("builds"))
        .collect();
    let goal = Position::goal(nine);
    let mut distance = HashMap::from([(goal, 0u32)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(position) = queue.pop_front() {
        let d = distance[&position];
        let h = db.estimate_position(&position);
        let largest = singles.iter().map(|s| s.estimate_position(&position)).max();
        assert_eq!(Some(h), largest, "{position:?}");
        assert!(
            h <= d && (d - h).is_multiple_of(2),
            "{position:?}: {h} against {d}"
        );
        for direction in Direction::ALL {
            let mut next = position;
            if next.move_blank(direction).is_some() && !distance.contains_key(&next) {
                distance.insert(next, d + 1);
                queue.push_back(next);
            }
        }
    }
    assert_eq!(distance.len(), 181_440);
    // Somewhere each partition is the largest, and somewhere it is not.
    let strict = |i: usize| {
        distance.keys().any(|p| {
            let e: Vec<u32> = singles.iter().map(|s| s.estimate_position(p)).collect();
            e.iter().enumerate().all(|(j, &x)| j == i || x < e[i])
        })
    };
    assert!((0..3).all(strict));
}

/// On random walks a catalogue's values and entries kept move by move are those from scratch,
/// and the estimate moves by exactly one: on square boards (both frames) and on 3x4.
#[test]
fn catalogue_values_kept_move_by_move_are_those_from_scratch() {
    let cases = [
        catalogue(board(3, 3), EIGHT),
        catalogue(board(3, 4), "6-5+1-2-3-4-5-6/7-8-9-10-11"),
        catalogue(
            board(4, 4),
            "5-5-5+6-6-3+1-2-5-6-9/3-4-7-8-12/10-11-13-14-15",
        ),
    ];
    let mut source = PositionSource::new(5);
    let mut random_direction = directions(0x2545_f491_4f6c_dd1d);
    for list in &cases {
        let db = built_catalogue(list);
        let scratch = |position: &Position| {
            let (at, blank) = piece_cells(position);
            (db.values(&at, blank), db.entries(&at))
        };
        let step = |(values, entries): &_, board: &_, the_move| {
            let (after, entries) = db.step(*values, entries, board, the_move);
            let h = CatalogueDb::estimate(*values);
            assert_eq!(CatalogueDb::estimate(after).abs_diff(h), 1, "{list}");
            (after, entries)
        };
        walks(
            list.board(),
            &mut source,
            &mut random_direction,
            scratch,
            step,
        );
    }
}

#[test]
fn engines_agree_with_catalogues() {
    let eight = Heuristic::Catalogue(built_catalogue(&catalogue(board(3, 3), EIGHT)));
    for case in corpus(&["3x3"]) {
        agree(&case.position, case.length, &eight);
    }
    let halves = catalogue(board(3, 4), "6-5+1-2-3-4-5-6/7-8-9-10-11");
    let halves = Heuristic::Catalogue(built_catalogue(&halves));
    for case in corpus(&["3x4"]) {
        agree(&case.position, case.length, &halves);
    }
    // The reference finds every bound from scratch: the corpus's easier 4x4 positions.
    let fifteen = catalogue(board(4, 4), "5-5-5+6-6-3");
    let fifteen = Heuristic::Catalogue(built_catalogue(&fifteen));
    let mut tried = 0;
    for case in corpus(&["4x4"])
        .iter()
        .filter(|c| c.manhattan_nodes < 300_000)
    {
        agree(&case.position, case.length, &fifteen);
        tried += 1;
    }
    assert!(tried >= 15);
}

/// A catalogue needs no more nodes than any of its partitions, and here fewer than each.
#[test]
fn a_catalogue_takes_fewer_nodes_than_its_partitions() {
    let four = board(4, 4);
    let list = catalogue(four, "5-5-5+6-6-3");
    let nodes = |heuristic: Heuristic| {
        let options = SearchOptions {
            heuristic,
            ..SearchOptions::default()
        };
        corpus(&["4x4"])
            .iter()
            .map(|case| {
                let outcome = Automaton
                    .solve(&case.position, &options, &mut |_| {})
                    .expect("solves");
                assert_eq!(outcome.length(), Some(case.length));
                outcome.stats.nodes.expect("counted")
            })
            .sum::<u64>()
    };
    let both = nodes(Heuristic::Catalogue(built_catalogue(&list)));
    for partition in list.partitions() {
        let alone = nodes(Heuristic::Tables(Arc::new(
            pdb::build(partition).expect("builds"),
        )));
        assert!(both < alone, "{partition}: {both} against {alone}");
    }
}
