//! Criterion benchmarks of the breadth-first engine (SLIDING) on the classic puzzles.
#![forbid(unsafe_code)]
use criterion::{criterion_group, criterion_main, Criterion};
use fifteen::sliding::{self, Puzzle, Style};

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
    eight.stop = None;
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

criterion_group!(benches, classic);
criterion_main!(benches);
