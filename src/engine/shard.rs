//! One bound's cut as independent pieces of work, whatever the engine: the items of
//! [`parallel::cut`] for another process to search (`fifteen shard`), one subtree searched on
//! its own, and the subtree rebuilt from the moves that lead to its root.
//!
//! Invariant: a subtree rebuilt by [`subtree`] from an item's moves is the item's subtree (the
//! same root, last move, happy and sad moves left and lookups' values), so [`search`] finds
//! what a thread of the parallel search finds there, and [`parallel::merge`] of the results
//! is the answer of one thread.

use super::parallel::{self, Found, Item, Kind, Splittable, Subtree, Visit};
use super::{automaton, reference, EngineError, EngineKind, Stop};
use crate::board::Board;
use crate::heuristic::Heuristic;
use crate::position::Position;
use crate::prune::Machine;
use std::collections::{HashMap, HashSet};

/// Hands `visit` the engine `kind` for `board` with `heuristic` and the pruning `machine`.
fn visit<V: Visit>(
    kind: EngineKind,
    heuristic: &Heuristic,
    machine: &Machine,
    board: Board,
    visit: V,
) -> Result<V::Output, EngineError> {
    match kind {
        EngineKind::Automaton => automaton::visit_split(heuristic, machine, board, visit),
        EngineKind::Ida => Ok(reference::visit_split(heuristic, machine, visit)),
        EngineKind::Bfs => Err(EngineError::Limit(NO_BFS.into())),
    }
}

/// Why the breadth-first engine has no items, in either metric.
pub const NO_BFS: &str =
    "the bfs engine searches no bounds to cut: shard takes --engine automaton or ida";

/// Where a cut goes deeper than its uniform depth: below the node at the end of each path
/// given, down to that many moves from the start (and down to the node itself on the way).
#[derive(Clone, Debug, Default)]
pub struct Splits {
    /// The depth wanted below each path given.
    depth: HashMap<Vec<u8>, u32>,
    /// Every proper prefix of a path given.
    on_the_way: HashSet<Vec<u8>>,
}

impl Splits {
    /// The cut goes at least `depth` moves deep below the node at the end of `path`.
    pub fn add(&mut self, path: &[u8], depth: u32) {
        let wanted = self.depth.entry(path.to_vec()).or_insert(0);
        *wanted = (*wanted).max(depth);
        for length in 0..path.len() {
            self.on_the_way.insert(path[..length].to_vec());
        }
    }

    /// The moves to go on below the node at the end of `path`, where the cut has reached it.
    pub fn deeper(&self, path: &[u8]) -> u32 {
        if self.on_the_way.contains(path) {
            return 1;
        }
        (0..=path.len())
            .filter_map(|length| self.depth.get(&path[..length]))
            .map(|&depth| depth.saturating_sub(path.len() as u32))
            .max()
            .unwrap_or(0)
    }
}

/// The cut of the bound with `happy` and `sad` moves (the engine's: `happy - sad` is the
/// heuristic's estimate) from `start`, with at least `wanted` subtrees where the tree has
/// them, and deeper where `splits` says: the nodes above the cut and the items. The start at
/// the goal is one solution above the cut, with no moves.
pub fn plan(
    kind: EngineKind,
    heuristic: &Heuristic,
    machine: &Machine,
    start: &Position,
    (happy, sad): (u32, u32),
    wanted: usize,
    splits: &Splits,
) -> Result<(u64, Vec<Item>), EngineError> {
    if happy + sad == 0 {
        let goal = Item {
            before: 0,
            kind: Kind::Solution(Vec::new()),
        };
        return Ok((0, vec![goal]));
    }
    struct Cut<'a> {
        heuristic: &'a Heuristic,
        start: &'a Position,
        bound: (u32, u32),
        wanted: usize,
        splits: &'a Splits,
    }
    impl Visit for Cut<'_> {
        type Output = (u64, Vec<Item>);
        fn visit<E: Splittable>(self, engine: &E) -> Self::Output {
            let Cut {
                heuristic,
                start,
                bound,
                wanted,
                splits,
            } = self;
            let deeper = |path: &[u8]| splits.deeper(path);
            parallel::cut_deeper(engine, heuristic, start, bound, wanted, &deeper)
        }
    }
    let cut = Cut {
        heuristic,
        start,
        bound: (happy, sad),
        wanted,
        splits,
    };
    visit(kind, heuristic, machine, start.board(), cut)
}

/// Searches `subtree` with the engine `kind`, to the end (`all`) or to its first solution: the
/// nodes generated below its root and the solutions, as moves from the start.
pub fn search(
    kind: EngineKind,
    heuristic: &Heuristic,
    machine: &Machine,
    subtree: &Subtree,
    all: bool,
) -> Result<Found, EngineError> {
    struct One<'a>(&'a Subtree, bool);
    impl Visit for One<'_> {
        type Output = Found;
        fn visit<E: Splittable>(self, engine: &E) -> Found {
            engine.search(&mut engine.worker(), self.0, self.1)
        }
    }
    let one = One(subtree, all);
    let mut found = visit(kind, heuristic, machine, subtree.root.board(), one)?;
    for moves in &mut found.solutions {
        let mut whole = subtree.path.clone();
        whole.append(moves);
        *moves = whole;
    }
    Ok(found)
}

/// [`search`], looking at `stop` between pieces of the subtree a few million nodes each
/// ([`parallel::search_stopping`]): the same nodes and solutions, or `None` when `stop` ended
/// it first (the nodes spent told to it).
pub fn search_stopping(
    kind: EngineKind,
    heuristic: &Heuristic,
    machine: &Machine,
    subtree: &Subtree,
    all: bool,
    stop: &Stop,
) -> Result<Option<Found>, EngineError> {
    struct Stopping<'a>(&'a Heuristic, &'a Subtree, bool, &'a Stop);
    impl Visit for Stopping<'_> {
        type Output = Option<Found>;
        fn visit<E: Splittable>(self, engine: &E) -> Option<Found> {
            let Stopping(heuristic, subtree, all, stop) = self;
            parallel::search_stopping(engine, heuristic, subtree, all, stop)
        }
    }
    let stopping = Stopping(heuristic, subtree, all, stop);
    let found = visit(kind, heuristic, machine, subtree.root.board(), stopping)?;
    Ok(found.map(|mut found| {
        for moves in &mut found.solutions {
            let mut whole = subtree.path.clone();
            whole.append(moves);
            *moves = whole;
        }
        found
    }))
}

/// The subtree at the end of the moves `path` (pieces pushed) from `start`, with `happy` and
/// `sad` moves left; `None` if a move is illegal, there is no move, the moves complete a word
/// the pruning `machine` forbids, or the root's estimate is not `happy - sad` (the invariant of
/// every node of the search).
pub fn subtree(
    heuristic: &Heuristic,
    machine: &Machine,
    start: &Position,
    path: &[u8],
    happy: u32,
    sad: u32,
) -> Option<Subtree> {
    // The path replayed: the root, the blank's last move and the machine's state.
    let (mut root, mut came, mut state) = (*start, None, Machine::START);
    for &piece in path {
        let d = root.direction_of(piece)?;
        state = machine.step(state, d)?;
        root.move_blank(d)?;
        came = Some(d);
    }
    let came = came?;
    let values = heuristic.kept(&root);
    let estimate = values
        .estimate()
        .unwrap_or_else(|| heuristic.estimate(&root));
    (i64::from(estimate) == i64::from(happy) - i64::from(sad)).then(|| Subtree {
        root,
        came,
        path: path.to_vec(),
        happy,
        sad,
        values,
        machine: state,
    })
}

#[cfg(test)]
mod tests {
    use super::Splits;

    #[test]
    fn splits_go_down_to_their_nodes_then_to_their_depth() {
        let mut splits = Splits::default();
        splits.add(&[3, 5], 4);
        splits.add(&[3, 5], 3);
        splits.add(&[7], 1);
        // On the way to [3, 5], one move at a time.
        assert_eq!(splits.deeper(&[]), 1);
        assert_eq!(splits.deeper(&[3]), 1);
        // Below it, down to 4 moves from the start (the deeper of the two asked).
        assert_eq!(splits.deeper(&[3, 5]), 2);
        assert_eq!(splits.deeper(&[3, 5, 1]), 1);
        assert_eq!(splits.deeper(&[3, 5, 1, 2]), 0);
        // Elsewhere, or as deep as asked already, nothing.
        assert_eq!(splits.deeper(&[3, 6]), 0);
        assert_eq!(splits.deeper(&[7]), 0);
        assert_eq!(splits.deeper(&[8, 1, 2]), 0);
    }
}
