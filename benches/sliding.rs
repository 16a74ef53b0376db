//! Criterion benchmarks of the breadth-first engine (SLIDING) on the classic puzzles.
#![forbid(unsafe_code)]
use criterion::{criterion_group, criterion_main, Criterion};
use fifteen::sliding::moves::ideals::{bits::Bits, lists::Lists, Ideals};
use fifteen::sliding::moves::Mover;
use fifteen::sliding::{self, Geometry, Puzzle, State, Style};
use std::collections::{HashSet, VecDeque};

fn puzzle(text: &[u8]) -> Puzzle {
    Puzzle::parse(text).expect("valid puzzle")
}

fn run(puzzle: &Puzzle, style: Style) -> sliding::Outcome {
    sliding::solve(puzzle, style, 1 << 30, &mut |_| {}, &mut |_| {}).expect("fits in memory")
}

fn classic(c: &mut Criterion) {
    let klotski = puzzle(include_bytes!("../tests/data/sliding/klotski.txt"));
    let century = puzzle(include_bytes!("../tests/data/sliding/century.txt"));
    let mut eight = puzzle(include_bytes!("../tests/data/sliding/eight_puzzle.txt"));
    eight.stops.clear();
    let mut group = c.benchmark_group("sliding");
    group.sample_size(10);
    group.bench_function("klotski/style0", |b| b.iter(|| run(&klotski, Style(0))));
    group.bench_function("klotski/style5", |b| b.iter(|| run(&klotski, Style(5))));
    group.bench_function("century/style2", |b| b.iter(|| run(&century, Style(2))));
    group.bench_function("eight_puzzle/all_levels_style0", |b| {
        b.iter(|| run(&eight, Style(0)))
    });
    group.bench_function("eight_puzzle/all_levels_style3", |b| {
        b.iter(|| run(&eight, Style(3)))
    });
    group.finish();
}

/// Every configuration reachable in style 3 (the first `limit` found), unpacked.
fn reachable(puzzle: &Puzzle, limit: usize) -> (Geometry, Vec<State>) {
    let geometry = Geometry::new(puzzle);
    let start = geometry.key_of(&puzzle.start);
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    let mut states = Vec::new();
    let mut mover = Mover::new();
    while let Some(key) = queue.pop_front().filter(|_| states.len() < limit) {
        let mut state = geometry.empty_state();
        state.unpack(&geometry, &key);
        mover.successors(&geometry, &mut state, Style(3), |next, _, _| {
            let next = next.pack_vec(&geometry);
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
            true
        });
        states.push(state);
    }
    (geometry, states)
}

/// A closure giving, for a state, a sum over its superpieces by `$engine` (anything with
/// `prepare` and `for_each` as [`Ideals`] has them).
macro_rules! superpieces_by {
    ($engine:ident, $geometry:expr) => {
        |state: &State| {
            $engine.prepare($geometry, state);
            let mut count = 0usize;
            $engine.for_each($geometry, |k, movers| {
                count += k + movers.len();
                true
            });
            count
        }
    };
}

/// Times `superpieces` over all of `states`.
fn time_superpieces(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    states: &[State],
    mut superpieces: impl FnMut(&State) -> usize,
) {
    group.bench_function(name, |b| {
        b.iter(|| states.iter().map(&mut superpieces).sum::<usize>())
    });
}

/// The superpieces of every Klotski configuration, by the seed's linked lists and by the bit
/// sets (same superpieces, same order): the ratio is what the bit sets save. And those of
/// 20,000 configurations of the 8-puzzle, found afresh by the bit sets and by [`Ideals`],
/// which remembers them per layout of the blank (9 layouts): the ratio is what remembering
/// saves.
fn superpieces(c: &mut Criterion) {
    let (klotski, states) = reachable(
        &puzzle(include_bytes!("../tests/data/sliding/klotski.txt")),
        usize::MAX,
    );
    let mut group = c.benchmark_group("superpieces");
    group.sample_size(10);
    let (mut lists, mut bits) = (Lists::default(), Bits::default());
    time_superpieces(
        &mut group,
        "klotski/lists",
        &states,
        superpieces_by!(lists, &klotski),
    );
    time_superpieces(
        &mut group,
        "klotski/bits",
        &states,
        superpieces_by!(bits, &klotski),
    );
    let (eight, states) = reachable(
        &puzzle(include_bytes!("../tests/data/sliding/eight_puzzle.txt")),
        20_000,
    );
    let mut ideals = Ideals::default();
    time_superpieces(
        &mut group,
        "eight_puzzle/bits",
        &states,
        superpieces_by!(bits, &eight),
    );
    time_superpieces(
        &mut group,
        "eight_puzzle/by_layout",
        &states,
        superpieces_by!(ideals, &eight),
    );
    group.finish();
}

/// Unpacking and move generation with the geometry's occupancy bits and cell by cell (as on
/// boards too large for them), on every Klotski configuration: the ratios are what the bits
/// save (in fit tests, and in successor keys, rewritten by bits instead of through heads).
fn occupancy_bits(c: &mut Criterion) {
    let (by_bits, states) = reachable(
        &puzzle(include_bytes!("../tests/data/sliding/klotski.txt")),
        usize::MAX,
    );
    let keys: Vec<[u64; 1]> = states.iter().map(|state| state.pack(&by_bits)).collect();
    let by_cells = by_bits.clone().by_cells();
    let mut group = c.benchmark_group("occupancy_bits");
    group.sample_size(10);
    for (name, geometry) in [("bits", &by_bits), ("cells", &by_cells)] {
        let mut state = geometry.empty_state();
        group.bench_function(format!("klotski/unpack_by_{name}"), |b| {
            b.iter(|| {
                keys.iter()
                    .map(|key| {
                        state.unpack(geometry, key);
                        state.blocks.len()
                    })
                    .sum::<usize>()
            })
        });
        let mut mover = Mover::new();
        for style in [Style(0), Style(2), Style(3), Style(5)] {
            group.bench_function(format!("klotski/style{}_moves_by_{name}", style.0), |b| {
                b.iter(|| {
                    let mut count = 0u64;
                    for key in &keys {
                        mover.successor_keys(geometry, &mut state, key, style, |next| {
                            count += next[0] & 1;
                            sliding::moves::Next::Explore
                        });
                    }
                    count
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, classic, superpieces, occupancy_bits);
criterion_main!(benches);
