//! Criterion benchmarks of the engines on fixed positions.
#![forbid(unsafe_code)]
use criterion::{criterion_group, criterion_main, Criterion};
use fifteen::{Convention, Engine, Position, SearchOptions};

fn reference(c: &mut Criterion) {
    let engine = fifteen::engine::reference::ReferenceIda;
    let start = Position::parse("01f69a43e8cb572d", None, Convention::Knuth).expect("valid");
    let options = SearchOptions::default();
    c.bench_function("ida/korf9", |b| {
        b.iter(|| {
            engine
                .solve(&start, &options, &mut |_| {})
                .map(|o| o.length())
        })
    });
}

criterion_group!(benches, reference);
criterion_main!(benches);
