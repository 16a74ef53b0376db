//! Criterion benchmarks of the automaton engine (Knuth's KORF1, generated) against the
//! reference IDA* (KORF0) on fixed positions, nodes uncounted (the plain solve) and counted.
#![forbid(unsafe_code)]
use criterion::{criterion_group, criterion_main, Criterion};
use fifteen::engine::automaton::Automaton;
use fifteen::engine::reference::ReferenceIda;
use fifteen::{Convention, Engine, Position, SearchOptions};

/// Korf's instances 9 and 2 (15-puzzle), and a 24-puzzle random walk.
const POSITIONS: [(&str, &str); 3] = [
    ("korf9", "01f69a43e8cb572d"),
    ("korf2", "a510f9de28476cb3"),
    (
        "walk5x5",
        "2,7,8,5,10,1,12,9,3,4,6,21,13,14,15,18,16,17,23,19,11,24,22,20,0",
    ),
];

fn engines(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (name, text) in POSITIONS {
        let start = Position::parse(text, None, Convention::Knuth).expect("valid position");
        for count_nodes in [false, true] {
            let options = SearchOptions {
                count_nodes,
                ..SearchOptions::default()
            };
            let suffix = if count_nodes { "/counted" } else { "" };
            let contenders: [(&str, &dyn Engine); 2] =
                [("automaton", &Automaton), ("ida", &ReferenceIda)];
            for (engine_name, engine) in contenders {
                group.bench_function(format!("{engine_name}/{name}{suffix}"), |b| {
                    b.iter(|| {
                        engine
                            .solve(&start, &options, &mut |_| {})
                            .map(|o| o.length())
                    })
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, engines);
criterion_main!(benches);
