//! Criterion benchmarks of the automaton engine (Knuth's KORF1, generated) against the
//! reference IDA* (KORF0) on fixed positions, nodes uncounted (the plain solve) and counted;
//! and both with the same pattern databases (5-5-5, built in memory first), where the
//! automaton updates the bound by lookups and the reference computes it from scratch; and the
//! automaton with those tables without and with duplicate pruning (`prune`), and the same on a
//! fixed 24-puzzle search with the 6-6-6-6 tables when they are cached (`twenty_four`); Korf's
//! 100 with the 7-8 tables when they are cached (`seven_eight`); and
//! the multi-tile metric's automaton against its reference on Korf's instance 2 with the
//! relabelled 4x4 table, when it is cached (`multi_tile`).
#![forbid(unsafe_code)]
use criterion::{criterion_group, criterion_main, Criterion};
use fifteen::engine::automaton::Automaton;
use fifteen::engine::reference::ReferenceIda;
use fifteen::heuristic::partition::Partition;
use fifteen::heuristic::store::{Choice, Store};
use fifteen::heuristic::{pdb, Heuristic};
use fifteen::korf50;
use fifteen::prune::Machine;
use fifteen::{Board, Convention, Engine, Position, SearchOptions};
use std::sync::Arc;

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

/// Both engines with the 4x4 5-5-5 tables, on positions the reference solves in well under
/// a second (its bound is computed from scratch at every node).
fn tables(c: &mut Criterion) {
    let Ok(partition) = Partition::preset(Board::fifteen(), "5-5-5") else {
        return;
    };
    let Ok(db) = pdb::build(&partition) else {
        return;
    };
    let options = SearchOptions {
        heuristic: Heuristic::Tables(Arc::new(db)),
        ..SearchOptions::default()
    };
    let mut group = c.benchmark_group("tables");
    group.sample_size(10);
    for text in ["124c08b35a76d9ef", "61347528ad9be0fc"] {
        let start = Position::parse(text, None, Convention::Knuth).expect("valid position");
        let contenders: [(&str, &dyn Engine); 2] =
            [("automaton", &Automaton), ("ida", &ReferenceIda)];
        for (engine_name, engine) in contenders {
            group.bench_function(format!("{engine_name}/5-5-5/{text}"), |b| {
                b.iter(|| {
                    engine
                        .solve(&start, &options, &mut |_| {})
                        .map(|o| o.length())
                })
            });
        }
    }
    group.finish();
}

/// The automaton with the 4x4 5-5-5 tables, without and with duplicate pruning (`--prune`).
fn pruning(c: &mut Criterion) {
    let Ok(partition) = Partition::preset(Board::fifteen(), "5-5-5") else {
        return;
    };
    let Ok(db) = pdb::build(&partition) else {
        return;
    };
    let heuristic = Heuristic::Tables(Arc::new(db));
    let machine = Arc::new(Machine::build(fifteen::prune::DEPTH));
    let mut group = c.benchmark_group("prune");
    group.sample_size(10);
    for text in ["124c08b35a76d9ef", "61347528ad9be0fc"] {
        let start = Position::parse(text, None, Convention::Knuth).expect("valid position");
        for (name, prune) in [("none", Arc::default()), ("fsm", machine.clone())] {
            let options = SearchOptions {
                heuristic: heuristic.clone(),
                prune,
                ..SearchOptions::default()
            };
            group.bench_function(format!("automaton/5-5-5/{name}/{text}"), |b| {
                b.iter(|| {
                    Automaton
                        .solve(&start, &options, &mut |_| {})
                        .map(|o| o.length())
                })
            });
        }
    }
    group.finish();
}

/// The tables of partition `name` for `board` when they are cached; otherwise `None`, with a
/// note saying so.
fn cached(board: Board, name: &str) -> Option<Heuristic> {
    let store = Store::new(None).ok()?;
    let missing = store
        .known()
        .iter()
        .any(|(path, .., partition)| partition.name() == name && !path.exists());
    if missing {
        let dir = store.dir().display();
        eprintln!("skipped: the {board} {name} tables are not cached in {dir}");
        return None;
    }
    store.heuristic(&Choice::Tables(name.into()), board).ok()
}

/// A fixed 5x5 search with the 6-6-6-6 tables, without and with duplicate pruning: Korf &
/// Felner's #40 (82 moves; 32.6 M nodes without, 19.5 M with). Skipped, with a note, unless
/// the tables are cached (`fifteen tables build --size 5x5`: about two minutes).
fn twenty_four(c: &mut Criterion) {
    let Some(heuristic) = cached(Board::new(5, 5).expect("a board"), "6-6-6-6") else {
        return;
    };
    let Some(instance) = korf50::instances().into_iter().find(|i| i.id == 40) else {
        return;
    };
    let machine = Arc::new(Machine::build(fifteen::prune::DEPTH));
    let mut group = c.benchmark_group("twenty_four");
    group.sample_size(10);
    for (name, prune) in [("none", Arc::default()), ("fsm", machine)] {
        let options = SearchOptions {
            heuristic: heuristic.clone(),
            prune,
            ..SearchOptions::default()
        };
        group.bench_function(format!("automaton/6-6-6-6/{name}/korf50-40"), |b| {
            b.iter(|| {
                Automaton
                    .solve(&instance.position, &options, &mut |_| {})
                    .map(|o| o.length())
            })
        });
    }
    group.finish();
}

/// Fixed 4x4 searches with the 7-8 tables and duplicate pruning, on one thread: all of Korf's
/// 100 (1.57 M nodes). Skipped, with a note, unless the tables are cached (`fifteen tables
/// build --heuristic 7-8`: about two minutes).
fn seven_eight(c: &mut Criterion) {
    let Some(heuristic) = cached(Board::fifteen(), "7-8") else {
        return;
    };
    let options = SearchOptions {
        heuristic,
        prune: Arc::new(Machine::build(fifteen::prune::DEPTH)),
        ..SearchOptions::default()
    };
    let instances = fifteen::korf100::instances();
    let mut group = c.benchmark_group("seven_eight");
    group.sample_size(10);
    group.bench_function("automaton/7-8/fsm/korf100", |b| {
        b.iter(|| {
            instances
                .iter()
                .filter_map(|i| Automaton.solve(&i.position, &options, &mut |_| {}).ok())
                .filter_map(|o| o.length())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn multi_tile(c: &mut Criterion) {
    use fifteen::mtm::{automaton::MtmAutomaton, search::MtmIda, store, BoundChoice, Config};
    let Some(dir) = store::directory(None) else {
        return;
    };
    if !dir.join(store::NAME).exists() {
        eprintln!("skipped: the MTM table is not cached in {}", dir.display());
        return;
    }
    let Ok(start) = Position::parse("a510f9de28476cb3", None, Convention::Knuth) else {
        return;
    };
    let config = Config {
        bound: BoundChoice::Relabel,
        prune: fifteen::prune::Prune::Fsm,
        tables: Some(dir),
    };
    let automaton = MtmAutomaton {
        config: config.clone(),
    };
    let reference = MtmIda { config };
    let engines: [(&str, &dyn Engine); 2] = [("automaton", &automaton), ("ida", &reference)];
    let mut group = c.benchmark_group("multi_tile");
    group.sample_size(10);
    for (name, engine) in engines {
        group.bench_function(format!("{name}/relabel/korf2"), |b| {
            b.iter(|| {
                engine
                    .solve(&start, &SearchOptions::default(), &mut |_| {})
                    .map(|o| o.length())
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    engines,
    tables,
    pruning,
    twenty_four,
    seven_eight,
    multi_tile
);
criterion_main!(benches);
