//! The shared instance corpus (`tests/data/corpus.tsv`) against every engine: the same positions,
//! the same facts, whatever the engine — the way regex-automata runs one corpus on all its engines.
//! Each line gives a position of some board size with its optimal length and, for the IDA*
//! engines, the bounds that failed and the nodes generated in them (independent of search order).
#![forbid(unsafe_code)]

use clap::ValueEnum;
use fifteen::{Board, Convention, EngineKind, Position, SearchOptions};

struct Case {
    line: usize,
    position: Position,
    manhattan: usize,
    length: usize,
    completed_bounds: usize,
    completed_nodes: u64,
}

fn corpus() -> Vec<Case> {
    let text = include_str!("data/corpus.tsv");
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("board\t") {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 7, "line {}: {line}", index + 1);
        let board: Board = f[0].parse().expect("a board size");
        let number = |i: usize| f[i].parse::<u64>().expect("a number");
        cases.push(Case {
            line: index + 1,
            position: Position::parse(f[1], Some(board), Convention::Knuth).expect("a position"),
            manhattan: number(2) as usize,
            length: number(3) as usize,
            completed_bounds: number(4) as usize,
            completed_nodes: number(5),
        });
    }
    cases
}

#[test]
fn corpus_covers_every_shape_class() {
    let cases = corpus();
    assert!(cases.len() >= 150);
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)] {
        let board = Board::new(rows, cols).expect("a board");
        assert!(
            cases.iter().filter(|c| c.position.board() == board).count() >= 4,
            "{board}"
        );
    }
    for case in &cases {
        assert_eq!(
            case.position.manhattan(),
            case.manhattan,
            "line {}",
            case.line
        );
        assert!(case.position.is_solvable(), "line {}", case.line);
        assert_eq!(case.length % 2, case.manhattan % 2, "line {}", case.line);
    }
}

#[test]
fn every_engine_agrees_with_the_corpus() {
    let options = SearchOptions {
        memory_limit: Some(256 << 20),
        ..SearchOptions::default()
    };
    let cases = corpus();
    for kind in EngineKind::value_variants() {
        let engine = kind.engine();
        // Breadth-first search of boards above 10 cells is the crosscheck's job; every other
        // case is checked by every engine: none may decline one (for a limit or its board).
        let wanted = |case: &&Case| *kind != EngineKind::Bfs || case.position.board().cells() <= 10;
        let mut checked = 0;
        for case in cases.iter().filter(wanted) {
            let start = &case.position;
            let outcome = match engine.solve(start, &options, &mut |_| {}) {
                Ok(outcome) => outcome,
                Err(error) => panic!("{kind} on line {}: {error}", case.line),
            };
            checked += 1;
            let where_ = format!("{kind} on line {} ({start:?})", case.line);
            assert_eq!(outcome.length(), Some(case.length), "{where_}");
            let solution = &outcome.solutions[0];
            assert!(solution.solves(start), "{where_}");
            assert_eq!(
                (solution.happy - solution.sad) as usize,
                case.manhattan,
                "{where_}"
            );
            if engine.iterative_deepening() {
                let completed = outcome.stats.completed_nodes();
                assert_eq!(completed.len(), case.completed_bounds, "{where_}");
                let nodes: Option<u64> = completed.iter().map(|(_, n)| *n).sum();
                assert_eq!(nodes, Some(case.completed_nodes), "{where_}");
            }
        }
        // The corpus's 154 cases, 74 of them on boards of at most 10 cells.
        let expected = if *kind == EngineKind::Bfs { 74 } else { 154 };
        assert_eq!(checked, expected, "cases {kind} checked");
        assert_eq!(checked, cases.iter().filter(wanted).count());
    }
}
