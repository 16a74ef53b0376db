//! The parallel search gives the answer of one thread: on the shared corpus (3x3, 3x4, 4x4),
//! with both IDA* engines and with Manhattan and pattern databases, `threads = 2` (and more
//! threads than cores) finds the same first solution, the same `--all` list in the same order,
//! and the same node count in every bound (the last, stopped at its first solution, too) as
//! `threads = 1`. A search that tells its progress splits its bounds on one thread too, with
//! the same answer.
#![forbid(unsafe_code)]

use fifteen::engine::automaton::Automaton;
use fifteen::engine::parallel::{self, Item, Kind, Splittable, Subtree, Visit};
use fifteen::engine::reference::{self, ReferenceIda};
use fifteen::engine::Live;
use fifteen::heuristic::partition::Partition;
use fifteen::heuristic::pdb;
use fifteen::heuristic::{Heuristic, Kept};
use fifteen::prune::Machine;
use fifteen::{Board, Convention, Engine, Position, SearchOptions};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

struct Case {
    position: Position,
    length: usize,
    completed_nodes: u64,
}

fn corpus(board: &str, most_nodes: u64) -> Vec<Case> {
    include_str!("data/corpus.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("board\t"))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[0] == board)
        .map(|f| Case {
            position: Position::parse(f[1], f[0].parse().ok(), Convention::Knuth)
                .expect("a position"),
            length: f[3].parse().expect("a length"),
            completed_nodes: f[5].parse().expect("a node count"),
        })
        .filter(|c| c.completed_nodes <= most_nodes)
        .collect()
}

/// `engine` on `start` with 1 and with `threads` threads: the same answers.
fn same_answer(engine: &dyn Engine, start: &Position, heuristic: &Heuristic, all: bool) {
    let options = |threads| SearchOptions {
        all,
        heuristic: heuristic.clone(),
        threads,
        split_after: 0.0, // every bound, however small
        ..SearchOptions::default()
    };
    let one = engine
        .solve(start, &options(1), &mut |_| {})
        .expect("solves");
    for threads in [2, 3] {
        let many = engine
            .solve(start, &options(threads), &mut |_| {})
            .expect("solves");
        let what = format!(
            "{} {} threads {threads} all {all} {start:?}",
            engine.name(),
            heuristic.name()
        );
        assert_eq!(many.solutions, one.solutions, "{what}");
        assert_eq!(
            many.stats.completed_nodes(),
            one.stats.completed_nodes(),
            "{what}"
        );
        assert_eq!(many.stats.bounds.len(), one.stats.bounds.len(), "{what}");
        // The last bound too, though its search stopped at the first solution.
        let nodes = |outcome: &fifteen::SearchOutcome| {
            outcome
                .stats
                .bounds
                .iter()
                .map(|b| b.nodes)
                .collect::<Vec<_>>()
        };
        assert_eq!(nodes(&many), nodes(&one), "{what}");
    }
}

#[test]
fn threads_give_the_answer_of_one_with_manhattan() {
    let engines: [&dyn Engine; 2] = [&Automaton, &ReferenceIda];
    let mut tried = 0;
    for (board, most_nodes) in [("3x3", u64::MAX), ("3x4", 2_000_000), ("4x4", 2_000_000)] {
        for case in corpus(board, most_nodes) {
            for engine in engines {
                same_answer(engine, &case.position, &Heuristic::Manhattan, false);
            }
            let outcome = Automaton
                .solve(
                    &case.position,
                    &SearchOptions {
                        threads: 2,
                        split_after: 0.0,
                        ..SearchOptions::default()
                    },
                    &mut |_| {},
                )
                .expect("solves");
            assert_eq!(outcome.length(), Some(case.length));
            let nodes: Option<u64> = outcome.stats.completed_nodes().iter().map(|b| b.1).sum();
            assert_eq!(nodes, Some(case.completed_nodes), "{:?}", case.position);
            tried += 1;
        }
    }
    assert!(tried >= 40, "{tried} positions");
}

#[test]
fn threads_give_every_solution_in_the_same_order() {
    let engines: [&dyn Engine; 2] = [&Automaton, &ReferenceIda];
    for (board, most_nodes) in [("3x3", 200_000), ("3x4", 200_000), ("4x4", 200_000)] {
        let cases = corpus(board, most_nodes);
        assert!(cases.len() >= 3, "{board}");
        for case in cases.iter().take(8) {
            for engine in engines {
                same_answer(engine, &case.position, &Heuristic::Manhattan, true);
            }
        }
    }
    // Hiroi's 8-puzzle: 40 optimal solutions, in the same order with two threads.
    let start = Position::parse("867254301", None, Convention::Knuth).expect("a position");
    same_answer(&Automaton, &start, &Heuristic::Manhattan, true);
}

#[test]
fn threads_give_the_answer_of_one_with_pattern_databases() {
    let board = |rows, cols| Board::new(rows, cols).expect("a board");
    let built = |rows, cols, name| {
        let partition = Partition::preset(board(rows, cols), name).expect("a preset");
        Heuristic::Tables(Arc::new(pdb::build(&partition).expect("builds")))
    };
    let engines: [&dyn Engine; 2] = [&Automaton, &ReferenceIda];
    for (name, rows, cols, table, most_nodes) in [
        ("3x3", 3, 3, "8", u64::MAX),
        ("3x4", 3, 4, "6-5", u64::MAX),
        ("4x4", 4, 4, "5-5-5", 300_000),
    ] {
        let heuristic = built(rows, cols, table);
        for case in corpus(name, most_nodes).iter().take(10) {
            for engine in engines {
                same_answer(engine, &case.position, &heuristic, false);
            }
            same_answer(&Automaton, &case.position, &heuristic, true);
        }
    }
}

/// A search told to a [`Live`] (for a progress line) splits its bounds on one thread too: the
/// same solutions and nodes in every bound; when the engine reports a completed bound, the
/// progress it told names it, has every subtree searched, and counts no more nodes than it.
#[test]
fn a_search_that_tells_its_progress_gives_the_answer_of_one_thread() {
    let engines: [&dyn Engine; 2] = [&Automaton, &ReferenceIda];
    for (board, most_nodes) in [("3x4", 500_000), ("4x4", 500_000)] {
        // Searches large enough to leave subtrees below the cut of their last bounds.
        let cases: Vec<Case> = corpus(board, most_nodes)
            .into_iter()
            .filter(|c| c.completed_nodes >= 20_000)
            .take(6)
            .collect();
        assert!(cases.len() >= 3, "{board}");
        for case in &cases {
            for engine in engines {
                let start = &case.position;
                let plain = engine
                    .solve(start, &SearchOptions::default(), &mut |_| {})
                    .expect("solves");
                // Every bound told, however small.
                let live = Arc::new(Live::new(0.0));
                let options = SearchOptions {
                    live: Some(live.clone()),
                    ..SearchOptions::default()
                };
                let mut told = 0;
                let outcome = engine
                    .solve(start, &options, &mut |bound| {
                        let Some(seen) = live.read().filter(|s| s.subtrees > 0) else {
                            return;
                        };
                        assert_eq!(seen.label, format!("{}+{} moves", bound.happy, bound.sad));
                        assert!(seen.nodes <= bound.nodes.unwrap_or(0), "{start:?}");
                        if bound.completed {
                            assert_eq!(seen.searched, seen.subtrees, "{start:?}");
                            told += 1;
                        }
                    })
                    .expect("solves");
                let what = format!("{} {start:?}", engine.name());
                assert_eq!(outcome.solutions, plain.solutions, "{what}");
                let nodes = |o: &fifteen::SearchOutcome| {
                    o.stats.bounds.iter().map(|b| b.nodes).collect::<Vec<_>>()
                };
                assert_eq!(nodes(&outcome), nodes(&plain), "{what}");
                assert!(told > 0, "{what}: no bound was told");
            }
        }
    }
}

/// The duplicate-pruning machine the best-first tests walk: forbidden words of at most 8
/// moves, so that a kept subtree's machine state matters (and it builds at once).
fn machine() -> Arc<Machine> {
    static MACHINE: OnceLock<Arc<Machine>> = OnceLock::new();
    MACHINE.get_or_init(|| Arc::new(Machine::build(8))).clone()
}

fn tables_5_5_5() -> Heuristic {
    static TABLES: OnceLock<Heuristic> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let board = Board::new(4, 4).expect("a board");
            let partition = Partition::preset(board, "5-5-5").expect("a preset");
            Heuristic::Tables(Arc::new(pdb::build(&partition).expect("builds")))
        })
        .clone()
}

/// At least six positions of `board` whose searches take half a million nodes or more with
/// Manhattan distance: with tables, bounds of thousands of nodes, large enough to be cut deep.
fn sizeable(board: &str) -> Vec<Case> {
    let cases: Vec<Case> = corpus(board, u64::MAX)
        .into_iter()
        .filter(|c| c.completed_nodes >= 500_000)
        .collect();
    assert!(cases.len() >= 6, "{board}: {} positions", cases.len());
    cases
}

/// The options of a search with `heuristic` and the best-first tests' machine on `threads`
/// threads, searched best first from the bound after `best_first_after` nodes on.
fn best_first_options(
    heuristic: &Heuristic,
    threads: usize,
    best_first_after: u64,
) -> SearchOptions {
    SearchOptions {
        heuristic: heuristic.clone(),
        prune: machine(),
        threads,
        best_first_after: Some(best_first_after),
        ..SearchOptions::default()
    }
}

/// No completed bound of `best` (searched best first) took more nodes than in `walked` (the
/// walk's order): the merged roots only take subtrees away.
fn no_bound_grew(start: &Position, walked: &fifteen::SearchOutcome, best: &fifteen::SearchOutcome) {
    let pairs = walked.stats.completed_nodes().into_iter();
    for ((bound, plain), (_, first)) in pairs.zip(best.stats.completed_nodes()) {
        assert!(
            first <= plain,
            "{start:?} bound {bound}: {first:?} > {plain:?}"
        );
    }
}

/// Bounds searched best first (every bound here, with `best_first_after: Some(0)`, though 4x4
/// is never searched so by default): the optimal length, replayed; both engines node for node
/// alike in every completed bound; the same answer on one, two and three threads; and no
/// completed bound with more nodes than in the walk's order (the merged roots only take
/// subtrees away).
#[test]
fn best_first_bounds_are_optimal_and_one_answer_on_any_threads() {
    let heuristic = tables_5_5_5();
    let options =
        |threads, best_first_after| best_first_options(&heuristic, threads, best_first_after);
    let nodes =
        |o: &fifteen::SearchOutcome| o.stats.bounds.iter().map(|b| b.nodes).collect::<Vec<_>>();
    let mut fewer = 0;
    for case in sizeable("4x4").iter().take(6) {
        let start = &case.position;
        let solve = |engine: &dyn Engine, options: &SearchOptions| {
            engine.solve(start, options, &mut |_| {}).expect("solves")
        };
        let walked = solve(&Automaton, &options(1, u64::MAX));
        let best = solve(&Automaton, &options(1, 0));
        assert_eq!(best.length(), Some(case.length), "{start:?}");
        assert!(best.solutions[0].solves(start), "{start:?}");
        no_bound_grew(start, &walked, &best);
        fewer += usize::from(best.stats.nodes < walked.stats.nodes);
        // The reference engine walks in KORF0's order, and so meets other solutions first.
        let reference = solve(&ReferenceIda, &options(1, 0));
        assert_eq!(reference.length(), Some(case.length), "{start:?}");
        assert_eq!(
            reference.stats.completed_nodes(),
            best.stats.completed_nodes(),
            "{start:?}"
        );
        for threads in [2, 3] {
            let many = solve(&Automaton, &options(threads, 0));
            assert_eq!(
                many.solutions, best.solutions,
                "{start:?} {threads} threads"
            );
            assert_eq!(nodes(&many), nodes(&best), "{start:?} {threads} threads");
        }
    }
    assert!(fewer > 0, "best first never took a node off");
}

/// One bound's cut of a search of `start` by the reference engine, with at least `wanted`
/// subtrees, best first and as the walk met it.
struct BestFirstCut<'a> {
    heuristic: &'a Heuristic,
    start: Position,
    length: u32,
    wanted: usize,
}

impl Visit for BestFirstCut<'_> {
    type Output = (u64, Vec<Item>, Vec<Item>);

    fn visit<E: Splittable>(self, engine: &E) -> Self::Output {
        let h = self.heuristic.estimate(&self.start);
        let sad = (self.length - h) / 2;
        let (above, walked) = parallel::cut(
            engine,
            self.heuristic,
            &self.start,
            h + sad,
            sad,
            self.wanted,
        );
        let best = parallel::best_first(self.heuristic, &self.start, above, walked.clone());
        (above, walked, best)
    }
}

/// The cut, as the walk met it and best first, of the bound four moves past `case`'s optimal
/// length (tens of thousands of nodes), with at least 2,000 subtrees.
fn cut_beyond(heuristic: &Heuristic, case: &Case) -> (u64, Vec<Item>, Vec<Item>) {
    let cut = BestFirstCut {
        heuristic,
        start: case.position,
        length: case.length as u32 + 4,
        wanted: 2_000,
    };
    reference::visit_split(heuristic, &machine(), cut)
}

/// The subtrees among a cut's items.
fn subtrees(items: &[Item]) -> Vec<Subtree> {
    items
        .iter()
        .filter_map(|i| match &i.kind {
            Kind::Subtree(s) => Some(s.clone()),
            Kind::Solution(_) => None,
        })
        .collect()
}

/// The best-first cut keeps one subtree per root: the one whose path comes first in search
/// order (by direction codes), with its machine state; it keeps every root, puts every item
/// after the whole walk, and takes the subtrees by the least sum of the lookups' values, then
/// the least Manhattan distance.
#[test]
fn the_best_first_cut_keeps_the_first_path_to_each_root_and_orders_by_the_tables() {
    let heuristic = tables_5_5_5();
    let spelled = |start: &Position, path: &[u8]| {
        let mut at = *start;
        path.iter()
            .map(|&piece| {
                let d = at.direction_of(piece).expect("a move").code();
                assert!(at.push(piece));
                d
            })
            .collect::<Vec<u8>>()
    };
    let mut merged = 0;
    for case in sizeable("4x4").iter().take(6) {
        let start = case.position;
        let (above, walked, best) = cut_beyond(&heuristic, case);
        assert!(best.iter().all(|i| i.before == above));
        let (walked, best) = (subtrees(&walked), subtrees(&best));
        let mut first: HashMap<Position, (Vec<u8>, &Subtree)> = HashMap::new();
        for s in &walked {
            let path = spelled(&start, &s.path);
            match first.get(&s.root) {
                Some((least, _)) if *least <= path => {}
                _ => {
                    first.insert(s.root, (path, s));
                }
            }
        }
        assert_eq!(best.len(), first.len(), "{start:?}: one subtree per root");
        merged += walked.len() - best.len();
        for s in &best {
            let (_, least) = first[&s.root];
            assert_eq!(s.path, least.path, "{start:?}");
            assert_eq!(s.machine, least.machine, "{start:?}");
            assert_eq!(
                (s.came, s.happy, s.sad),
                (least.came, least.happy, least.sad)
            );
        }
        let sum = |v: u64| v.to_le_bytes().iter().map(|&b| u32::from(b)).sum::<u32>();
        let keys: Vec<(u32, usize)> = best
            .iter()
            .map(|s| match s.values {
                Kept::Tables(v) => (sum(v[0]) + sum(v[1]), s.root.manhattan()),
                other => panic!("{start:?}: the partition's values not kept: {other:?}"),
            })
            .collect();
        assert!(
            keys.windows(2).all(|w| w[0] <= w[1]),
            "{start:?}: out of order"
        );
    }
    assert!(merged > 0, "no root was met twice");
}

/// With a catalogue the cut follows the catalogue's lookups move by move, as it does a
/// partition's: each subtree starts with the catalogue's values at its root, equal to those
/// found from scratch (before, the walk and each subtree's search found them by descent in
/// every table, and a 24-puzzle best first with `small` took four times as long), and best
/// first takes the subtrees by its estimate. Searched best first on one and two threads, the
/// answer is the walk's: the same optimal length, and no completed bound with more nodes.
#[test]
fn a_catalogue_cut_keeps_each_subtrees_values_and_orders_by_its_estimate() {
    use fifteen::heuristic::catalogue::Catalogue;
    use fifteen::heuristic::maxdb;
    let board = Board::new(4, 4).expect("a board");
    let catalogue =
        Catalogue::parse(board, "5-5-5+1-2-3-4-5/6-7-8-9-10/11-12-13-14-15").expect("a catalogue");
    let heuristic = Heuristic::Catalogue(Arc::new(maxdb::build(&catalogue).expect("builds")));
    for case in sizeable("4x4").iter().take(3) {
        let start = case.position;
        let (_, walked, best) = cut_beyond(&heuristic, case);
        let walked = subtrees(&walked);
        assert!(
            walked.len() >= 2_000,
            "{start:?}: {} subtrees",
            walked.len()
        );
        for s in &walked {
            assert!(matches!(s.values, Kept::Catalogue(_)), "{start:?}");
            assert_eq!(s.values, heuristic.kept(&s.root), "{start:?} {:?}", s.path);
        }
        let keys: Vec<(Option<u32>, usize)> = subtrees(&best)
            .iter()
            .map(|s| (s.values.estimate(), s.root.manhattan()))
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{start:?}");

        let solve = |threads, best_first_after| {
            let options = best_first_options(&heuristic, threads, best_first_after);
            Automaton
                .solve(&start, &options, &mut |_| {})
                .expect("solves")
        };
        let walked = solve(1, u64::MAX);
        for threads in [1, 2] {
            let best = solve(threads, 0);
            assert_eq!(best.length(), Some(case.length), "{start:?}");
            assert!(best.solutions[0].solves(&start), "{start:?}");
            no_bound_grew(&start, &walked, &best);
        }
    }
}
