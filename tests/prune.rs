//! Duplicate pruning (`--prune fsm`) loses no position and no optimal length:
//! - completeness: on 3x3 (every position), 3x4 and 4x4 (as deep as a test affords), every
//!   position at distance `d` from the goal (a plain breadth-first search) is the end of some
//!   path of `d` moves that the machine lets through;
//! - on the shared corpus and with pattern databases, both IDA* engines find the optimal
//!   lengths with and without pruning, agree with each other on every completed bound's node
//!   count with pruning, generate fewer nodes with it, and give one thread's answer on two;
//! - Knuth's searches are untouched: Manhattan without `--prune` prunes nothing;
//! - in the multi-tile metric, the machine of jump words is complete in the same sense (3x3
//!   every position, 3x4 and 4x4 as deep as a test affords), and refuses what it should.
#![forbid(unsafe_code)]

use fifteen::engine::automaton::Automaton;
use fifteen::engine::reference::ReferenceIda;
use fifteen::heuristic::partition::Partition;
use fifteen::heuristic::pdb;
use fifteen::heuristic::Heuristic;
use fifteen::mtm::moves::{Jump, JumpFrom, Jumps};
use fifteen::prune::{Machine, Spelling, DEPTH};
use fifteen::{Board, Convention, Direction, Engine, Position, SearchOptions};
use rustc_hash::FxHashSet;
use std::sync::{Arc, OnceLock};

fn machine() -> Arc<Machine> {
    static MACHINE: OnceLock<Arc<Machine>> = OnceLock::new();
    MACHINE
        .get_or_init(|| Arc::new(Machine::build(DEPTH)))
        .clone()
}

/// A position of at most 16 cells packed four bits a cell.
fn pack(tiles: &[u8]) -> u64 {
    tiles
        .iter()
        .enumerate()
        .fold(0, |code, (cell, &t)| code | (u64::from(t) << (4 * cell)))
}

fn tile(code: u64, cell: usize) -> u64 {
    (code >> (4 * cell)) & 15
}

/// The position after the blank on `blank` moves to `to`.
fn moved(code: u64, blank: usize, to: usize) -> u64 {
    let piece = tile(code, to);
    code & !(15 << (4 * to)) | (piece << (4 * blank))
}

fn blank_of(code: u64, cells: usize) -> usize {
    (0..cells).find(|&c| tile(code, c) == 0).unwrap_or(0)
}

/// The positions one move from `code` (the blank on `blank`), each with the machine's state
/// after the move from `state` (`None`: the machine refuses it).
type Successors<'a> = dyn Fn(u64, usize, u32) -> Vec<(u64, Option<u32>)> + 'a;

/// Checks, distance by distance up to `depth` (or until the board is exhausted), that every
/// position a breadth-first search from the goal meets at distance `d` (moves as `successors`
/// makes them) ends some machine-legal path of `d` moves; returns the number of positions
/// checked.
fn complete_with(board: Board, depth: usize, successors: &Successors) -> usize {
    let cells = board.cells();
    let goal: Vec<u8> = (1..cells as u8).chain([0]).collect();
    let goal = pack(&goal);
    let mut seen: FxHashSet<u64> = [goal].into_iter().collect();
    let mut frontier = vec![goal];
    // Every (position, machine state) at the end of a machine-legal path of `d` moves.
    let mut legal: FxHashSet<(u64, u32)> = [(goal, Machine::START)].into_iter().collect();
    let mut checked = 1;
    for d in 1..=depth {
        let mut next_frontier = Vec::new();
        for &code in &frontier {
            for (after, _) in successors(code, blank_of(code, cells), Machine::START) {
                if seen.insert(after) {
                    next_frontier.push(after);
                }
            }
        }
        let mut next_legal = FxHashSet::default();
        for &(code, state) in &legal {
            for (after, machine) in successors(code, blank_of(code, cells), state) {
                if let Some(machine) = machine {
                    next_legal.insert((after, machine));
                }
            }
        }
        let reached: FxHashSet<u64> = next_legal.iter().map(|&(code, _)| code).collect();
        let missing = next_frontier
            .iter()
            .filter(|c| !reached.contains(c))
            .count();
        assert_eq!(
            missing, 0,
            "{board}: {missing} positions at distance {d} lost"
        );
        checked += next_frontier.len();
        if next_frontier.is_empty() {
            break;
        }
        frontier = next_frontier;
        legal = next_legal;
    }
    checked
}

/// [`complete_with`] in the single-tile metric, with the machine of depth [`DEPTH`].
fn complete(rows: usize, cols: usize, depth: usize) -> usize {
    let board = Board::new(rows, cols).expect("a board");
    let machine = machine();
    complete_with(board, depth, &|code, blank, state| {
        Direction::ALL
            .into_iter()
            .filter_map(|dir| {
                let to = board.neighbour(blank, dir)?;
                Some((moved(code, blank, to), machine.step(state, dir)))
            })
            .collect()
    })
}

#[test]
fn every_position_of_the_8_puzzle_keeps_its_distance() {
    // The whole board: 181,440 positions, the farthest at 31 moves.
    assert_eq!(complete(3, 3, 40), 181_440);
}

#[test]
fn no_position_near_the_goal_of_3x4_or_4x4_is_lost() {
    // Twice the machine's depth, so that forbidden words meet the walls and each other: 3.4
    // million positions each.
    assert!(complete(3, 4, 24) > 3_000_000);
    assert!(complete(4, 4, 20) > 3_000_000);
}

#[test]
fn the_machine_forbids_what_it_should() {
    let machine = machine();
    let walk = |letters: &str| {
        machine.walk(
            letters
                .chars()
                .map(|c| Direction::from_letter(c).expect("a direction")),
        )
    };
    // Undoing a move is forbidden; so is the later of two ways three times round a 2x2 block.
    assert!(walk("EW").is_none());
    assert!(walk("NS").is_none());
    let ways = [walk("ESWNES"), walk("SENWSE")];
    assert_eq!(ways.iter().filter(|w| w.is_none()).count(), 1);
    assert!(
        walk("EENNWWSS").is_some(),
        "round a 3x3 block is no duplicate"
    );
    assert!(machine.words() > 2_000 && machine.states() > machine.words());
}

struct Case {
    position: Position,
    length: usize,
}

fn corpus(board: &str) -> Vec<Case> {
    include_str!("data/corpus.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("board\t"))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[0] == board && f[5].parse::<u64>().is_ok_and(|n| n <= 3_000_000))
        .map(|f| Case {
            position: Position::parse(f[1], f[0].parse().ok(), Convention::Knuth)
                .expect("a position"),
            length: f[3].parse().expect("a length"),
        })
        .collect()
}

/// Both engines with `heuristic`, pruned and not, on `cases`: optimal lengths, solutions
/// replayed, completed bounds equal between the pruned engines and never larger than without
/// pruning; two threads give one thread's answer. Returns the completed nodes (unpruned,
/// pruned) summed.
fn check(cases: &[Case], heuristic: &Heuristic) -> (u64, u64) {
    let options = |prune: bool, threads| SearchOptions {
        heuristic: heuristic.clone(),
        prune: if prune { machine() } else { Arc::default() },
        threads,
        split_after: 0.0,
        ..SearchOptions::default()
    };
    let completed = |outcome: &fifteen::SearchOutcome| -> u64 {
        outcome
            .stats
            .completed_nodes()
            .iter()
            .filter_map(|b| b.1)
            .sum()
    };
    let (mut plain, mut pruned) = (0, 0);
    for case in cases {
        let start = &case.position;
        let solve = |engine: &dyn Engine, prune, threads| {
            let outcome = engine
                .solve(start, &options(prune, threads), &mut |_| {})
                .expect("solves");
            assert_eq!(outcome.length(), Some(case.length), "{start:?}");
            assert!(outcome.solutions[0].solves(start));
            outcome
        };
        let automaton = solve(&Automaton, true, 1);
        let reference = solve(&ReferenceIda, true, 1);
        assert_eq!(
            automaton.stats.completed_nodes(),
            reference.stats.completed_nodes(),
            "{start:?}"
        );
        let unpruned = solve(&Automaton, false, 1);
        for (a, b) in unpruned
            .stats
            .completed_nodes()
            .iter()
            .zip(automaton.stats.completed_nodes())
        {
            assert!(b.1 <= a.1, "{start:?}: pruning generated more nodes");
        }
        plain += completed(&unpruned);
        pruned += completed(&automaton);
        let two = solve(&Automaton, true, 2);
        assert_eq!(two.solutions, automaton.solutions, "{start:?}");
        let nodes =
            |o: &fifteen::SearchOutcome| o.stats.bounds.iter().map(|b| b.nodes).collect::<Vec<_>>();
        assert_eq!(nodes(&two), nodes(&automaton), "{start:?}");
        let two = solve(&ReferenceIda, true, 2);
        assert_eq!(two.solutions, reference.solutions, "{start:?}");
    }
    (plain, pruned)
}

#[test]
fn pruning_keeps_the_optimal_lengths_with_manhattan() {
    for board in ["3x3", "3x4", "4x4"] {
        let cases = corpus(board);
        assert!(cases.len() >= 10, "{board}");
        let (plain, pruned) = check(&cases, &Heuristic::Manhattan);
        assert!(
            pruned < plain,
            "{board}: {pruned} nodes pruned, {plain} not"
        );
    }
}

#[test]
fn pruning_keeps_the_optimal_lengths_with_pattern_databases() {
    for (rows, cols, name) in [(3, 3, "8"), (3, 4, "6-5"), (4, 4, "5-5-5")] {
        let board = Board::new(rows, cols).expect("a board");
        let partition = Partition::preset(board, name).expect("a preset");
        let heuristic = Heuristic::Tables(Arc::new(pdb::build(&partition).expect("builds")));
        let cases: Vec<Case> = corpus(&board.to_string()).into_iter().take(12).collect();
        let (plain, pruned) = check(&cases, &heuristic);
        // The exact 3x3 table leaves no bound to complete.
        assert!(
            pruned < plain || name == "8",
            "{board}: {pruned} nodes pruned, {plain} not"
        );
    }
}

#[test]
fn knuths_searches_prune_nothing_unless_asked() {
    // The default options are Knuth's: his node count for his first example.
    let start = Position::parse("bc9e80df3412a756", None, Convention::Knuth).expect("a position");
    assert!(SearchOptions::default().prune.is_none());
    let outcome = Automaton
        .solve(&start, &SearchOptions::default(), &mut |_| {})
        .expect("solves");
    let pruned = Automaton
        .solve(
            &start,
            &SearchOptions {
                prune: machine(),
                ..SearchOptions::default()
            },
            &mut |_| {},
        )
        .expect("solves");
    assert_eq!(outcome.length(), pruned.length());
    assert!(pruned.stats.nodes < outcome.stats.nodes);
}

/// The multi-tile metric's machine of `board`, as the engines load it (kept with the other
/// tests' tables).
fn jump_machine(rows: usize, cols: usize) -> Machine {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tables");
    let spelling = Spelling::mtm(rows, cols);
    let depth = fifteen::prune::mtm_depth(rows, cols);
    fifteen::prune::cache::load(Some(&dir), depth, spelling, false).0
}

/// The position after the blank jumps along `jump` (the tiles it passes slide back one cell).
fn jumped(mut code: u64, blank: usize, jump: &JumpFrom) -> u64 {
    let mut here = blank;
    for &cell in jump.passed() {
        code = moved(code, here, usize::from(cell));
        here = usize::from(cell);
    }
    code
}

/// [`complete_with`] in the multi-tile metric, with the board's machine of jump words.
fn complete_mtm(rows: usize, cols: usize, depth: usize) -> usize {
    let board = Board::new(rows, cols).expect("a board");
    let jumps = Jumps::new(board);
    let machine = jump_machine(rows, cols);
    complete_with(board, depth, &|code, blank, state| {
        jumps
            .from(blank)
            .iter()
            .map(|jump| {
                let Jump {
                    direction,
                    distance,
                } = jump.jump;
                (
                    jumped(code, blank, jump),
                    machine.jump(state, direction, distance),
                )
            })
            .collect()
    })
}

#[test]
fn every_position_of_the_8_puzzle_keeps_its_mtm_distance() {
    // The whole board, the farthest at 24 jumps.
    assert_eq!(complete_mtm(3, 3, 30), 181_440);
}

#[test]
fn no_position_near_the_goal_of_3x4_or_4x4_is_lost_in_mtm() {
    // Past the machine's depth (10), so that forbidden words meet the walls and each other.
    let (small, large) = (complete_mtm(3, 4, 17), complete_mtm(4, 4, 13));
    assert!(small > 3_000_000 && large > 3_000_000, "{small} {large}");
}

#[test]
fn the_jump_machine_forbids_what_it_should() {
    let machine = jump_machine(4, 4);
    let walk = |jumps: &str| {
        jumps.split(' ').try_fold(Machine::START, |state, jump| {
            let direction = Direction::from_letter(jump.chars().next()?)?;
            let distance = jump[1..].parse().ok()?;
            machine.jump(state, direction, distance)
        })
    };
    // Two jumps on one axis are one jump, or none: forbidden.
    for pair in ["E1 E1", "E1 W1", "E2 W1", "N1 S3", "S2 S1"] {
        assert!(walk(pair).is_none(), "{pair}");
    }
    // Three times round a 2x2 block one way or the other: the later of the two is forbidden.
    let ways = [walk("E1 S1 W1 N1 E1 S1"), walk("S1 E1 N1 W1 S1 E1")];
    assert_eq!(ways.iter().filter(|w| w.is_none()).count(), 1);
    // Round a 3x3 block is no duplicate; nor is a jump longer than the board allows a move.
    assert!(walk("E2 S2 W2 N2").is_some());
    assert!(walk("E4").is_none());
    assert_eq!(machine.depth(), 10);
    assert!(machine.words() > 10_000 && machine.states() > 10_000);
}
