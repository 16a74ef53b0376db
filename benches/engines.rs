//! Criterion benchmarks: every engine on the same fixed positions, per board size, so that a
//! regression in any engine shows up in `cargo bench` (CI only builds them). Engines that
//! decline a position (a memory limit, an unsupported board) are left out of that group.
#![forbid(unsafe_code)]
use clap::ValueEnum;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fifteen::{Board, Convention, EngineKind, Position, SearchOptions};

/// (group, board, positions): a few positions per size, each solved in well under a second.
fn fixed_positions() -> Vec<(&'static str, Board, Vec<&'static str>)> {
    let board = |r, c| Board::new(r, c).expect("a supported board");
    vec![
        ("3x3", board(3, 3), vec!["867254301", "647850321"]),
        ("3x4", board(3, 4), vec!["41230756b98a", "152634b70a98"]),
        // Korf's instances 9 and 79, and 42.
        (
            "4x4",
            board(4, 4),
            vec!["01f69a43e8cb572d", "16a8ec42db3597f0", "61f85ad03427e9bc"],
        ),
        (
            "5x5",
            board(5, 5),
            vec!["6,2,3,0,10,1,18,12,5,4,16,7,13,9,15,8,11,19,14,20,21,17,22,23,24"],
        ),
    ]
}

fn engines(c: &mut Criterion) {
    let options = SearchOptions {
        count_nodes: false,
        ..SearchOptions::default()
    };
    for (group_name, board, texts) in fixed_positions() {
        let mut group = c.benchmark_group(group_name);
        group.sample_size(10);
        for text in texts {
            let start = Position::parse(text, Some(board), Convention::Knuth).expect("valid");
            for kind in EngineKind::value_variants() {
                let engine = kind.engine();
                if engine.solve(&start, &options, &mut |_| {}).is_err() {
                    continue;
                }
                group.bench_with_input(BenchmarkId::new(kind.name(), text), &start, |b, start| {
                    b.iter(|| {
                        engine
                            .solve(start, &options, &mut |_| {})
                            .map(|o| o.length())
                    })
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
