//! One bound of an IDA* search on several threads, with the answer of one thread.
//!
//! The bound's tree is cut at a shallow depth: a plain depth-first walk in the engine's own
//! order lists, in that order, the *items* at the cut — subtrees still to search (their root
//! position, the move that reached it and the happy and sad moves left), and solutions met
//! above the cut. Worker threads take the subtrees in list order and search them with the
//! engine itself (the generated automaton starts at the state the move into the subtree's root
//! enters; the reference engine recurses from there). Invariant: the items' solutions, taken in
//! list order, are the bound's solutions in the order one thread finds them, and the nodes of
//! the walk plus the subtrees' are the nodes one thread generates. So `--all` gives the same
//! list, a completed bound the same node count, and the first solution is the one of the
//! earliest item that has one: once a subtree finds a solution, no later subtree is started,
//! and the earlier ones are searched to the end before it counts.

use crate::board::Direction;
use crate::heuristic::Heuristic;
use crate::position::Position;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Subtrees wanted per thread, so that threads finishing at different times stay busy.
const SUBTREES_PER_THREAD: usize = 64;

/// What one subtree (or a whole bound) yields: the nodes generated below its root and its
/// solutions, each the moves (pieces pushed) from its root, in the engine's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub nodes: u64,
    pub solutions: Vec<Vec<u8>>,
}

/// The root of a subtree: the position there, the blank's last move, the moves that led there
/// from the start, and the happy and sad moves left.
#[derive(Clone, Debug)]
pub struct Subtree {
    pub root: Position,
    pub came: Direction,
    pub path: Vec<u8>,
    pub happy: u32,
    pub sad: u32,
}

/// An item of the cut, in the order one thread meets it.
enum Item {
    Subtree(Subtree),
    /// A solution above the cut: its moves from the start.
    Solution(Vec<u8>),
}

/// An IDA* engine as the parallel bound sees it.
pub trait Splittable: Sync {
    /// What one worker thread keeps between subtrees (the automaton's machine).
    type Worker: Send;

    fn worker(&self) -> Self::Worker;

    /// The blank's directions tried at a node reached by the blank's move `came` (`None` at
    /// the start), in the engine's order; the move back is never among them.
    fn order(&self, came: Option<Direction>) -> Vec<Direction>;

    /// Searches the subtree below `subtree.root` completely (or to its first solution when
    /// not `all`).
    fn search(&self, worker: &mut Self::Worker, subtree: &Subtree, all: bool) -> Found;
}

/// Whether the move from `position` to `after` lowers the heuristic.
fn is_happy(heuristic: &Heuristic, position: &Position, after: &Position) -> bool {
    match heuristic.tables() {
        Some(db) => db.estimate_position(after) < db.estimate_position(position),
        None => {
            // The piece goes from the blank's new cell to its old one.
            let from = after.blank();
            let piece = position.tiles()[from];
            position.board().is_happy(piece, from, position.blank())
        }
    }
}

/// Expands one subtree root by one level: the nodes generated (one per move tried) and the
/// items below it, in the engine's order.
fn expand(
    engine: &impl Splittable,
    heuristic: &Heuristic,
    subtree: &Subtree,
    items: &mut Vec<Item>,
) -> u64 {
    let mut nodes = 0;
    for d in engine.order(Some(subtree.came)) {
        nodes += step(heuristic, &subtree.root, d, subtree, items);
    }
    nodes
}

/// Tries the blank's move `d` from `from` (reached along `parent`'s path with its quota):
/// one node, and the item it leads to, if the quota allows it.
fn step(
    heuristic: &Heuristic,
    from: &Position,
    d: Direction,
    parent: &Subtree,
    items: &mut Vec<Item>,
) -> u64 {
    let mut after = *from;
    let Some(piece) = after.move_blank(d) else {
        return 0;
    };
    let (happy, sad) = if is_happy(heuristic, from, &after) {
        match parent.happy {
            0 => return 1,
            happy => (happy - 1, parent.sad),
        }
    } else {
        match parent.sad {
            0 => return 1,
            sad => (parent.happy, sad - 1),
        }
    };
    let mut path = parent.path.clone();
    path.push(piece);
    items.push(if happy == 0 && sad == 0 {
        Item::Solution(path)
    } else {
        Item::Subtree(Subtree {
            root: after,
            came: d,
            path,
            happy,
            sad,
        })
    });
    1
}

/// The cut of the bound with `happy` and `sad` moves from `start`: the nodes above it and
/// its items, with at least `wanted` subtrees where the tree is deep enough.
fn cut(
    engine: &impl Splittable,
    heuristic: &Heuristic,
    start: &Position,
    happy: u32,
    sad: u32,
    wanted: usize,
) -> (u64, Vec<Item>) {
    let root = Subtree {
        root: *start,
        came: Direction::East,
        path: Vec::new(),
        happy,
        sad,
    };
    let mut items = Vec::new();
    let mut nodes = 0;
    for d in engine.order(None) {
        nodes += step(heuristic, start, d, &root, &mut items);
    }
    loop {
        let subtrees = items
            .iter()
            .filter(|i| matches!(i, Item::Subtree(_)))
            .count();
        if subtrees == 0 || subtrees >= wanted {
            return (nodes, items);
        }
        let mut deeper = Vec::with_capacity(items.len() * 3);
        for item in items {
            match item {
                Item::Subtree(subtree) => {
                    nodes += expand(engine, heuristic, &subtree, &mut deeper);
                }
                solution => deeper.push(solution),
            }
        }
        items = deeper;
    }
}

/// Searches one bound (`happy` and `sad` moves from `start`) on `threads` threads of rayon's
/// pool: the solutions from the start in one thread's order (all, or the first) and the nodes.
pub fn search_bound(
    engine: &impl Splittable,
    heuristic: &Heuristic,
    start: &Position,
    happy: u32,
    sad: u32,
    all: bool,
    threads: usize,
) -> Found {
    let (above, items) = cut(
        engine,
        heuristic,
        start,
        happy,
        sad,
        threads * SUBTREES_PER_THREAD,
    );
    // The earliest item known to hold a solution: no item after it is started.
    let first = AtomicUsize::new(
        items
            .iter()
            .position(|i| matches!(i, Item::Solution(_)))
            .filter(|_| !all)
            .unwrap_or(usize::MAX),
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Found>>> = Mutex::new(vec![None; items.len()]);
    let work = || {
        let mut worker = engine.worker();
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= items.len() || i > first.load(Ordering::SeqCst) {
                break;
            }
            let found = match &items[i] {
                Item::Subtree(subtree) => {
                    let mut found = engine.search(&mut worker, subtree, all);
                    for moves in &mut found.solutions {
                        let mut whole = subtree.path.clone();
                        whole.append(moves);
                        *moves = whole;
                    }
                    found
                }
                Item::Solution(moves) => Found {
                    nodes: 0,
                    solutions: vec![moves.clone()],
                },
            };
            if !all && !found.solutions.is_empty() {
                first.fetch_min(i, Ordering::SeqCst);
            }
            if let Ok(mut results) = results.lock() {
                results[i] = Some(found);
            }
        }
    };
    rayon::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|_| work());
        }
    });
    let results = results.into_inner().unwrap_or_default();
    let mut bound = Found {
        nodes: above,
        solutions: Vec::new(),
    };
    for found in results.into_iter().flatten() {
        bound.nodes += found.nodes;
        if all || bound.solutions.is_empty() {
            bound.solutions.extend(found.solutions);
        }
    }
    if !all {
        bound.solutions.truncate(1);
    }
    bound
}
