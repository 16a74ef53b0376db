//! One MTM bound on several threads, with the answer of one thread (as the STM engines'
//! [`crate::engine::parallel`], whose scheduler and merge it uses).
//!
//! The reference search walks the bound's tree down to a shallow cut ([`ida::cut`]),
//! listing in its own order the nodes kept there and the solutions met above it; the
//! automaton searches the subtrees below those nodes on the worker threads. Invariant: the
//! items' solutions in list order are the bound's in one thread's order, the walk's nodes plus
//! the subtrees' are one thread's, and the next bound is the least `g + h` cut off by the walk
//! or any subtree; so every completed bound counts the same nodes and the answer is the same
//! as one thread's.

use super::bound::LowerBound;
use super::search::{Item, JumpTree, Subtree};
use crate::engine::ida::{self, Pass, Walked};
use crate::engine::parallel::{merge, search_items, Found, Kind};
use crate::engine::{Live, Stop};
use crate::position::Position;
use crate::prune::Machine;
use std::sync::atomic::{AtomicU32, Ordering};

/// The walk above the cut at the shallowest depth that lists at least `wanted` subtrees (or
/// none deeper), going on below a node at the cut while `deeper` of its path is not 0: the one
/// IDA*'s cut ([`ida::cut`]) of the jumps' tree, ending at its first solution unless `all`.
pub(super) fn cut(
    start: &Position,
    (bound, prune): (&LowerBound, &Machine),
    (limit, all): (u32, bool),
    wanted: usize,
    deeper: &dyn Fn(&[u8]) -> u32,
) -> Walked<Subtree> {
    let root = JumpTree::root(start, bound);
    let tree = || JumpTree::new(start, bound, prune);
    ida::cut(&tree, (root, 0), (limit, all), wanted, deeper)
}

/// The pass of the bound `limit` from `start` on `threads` threads, cut into at least
/// `wanted` subtrees ([`crate::engine::SearchOptions::subtrees`]), walking the pruning machine
/// `prune` above the cut: `search(worker, subtree)` searches below a node of the cut (its
/// solutions from that node), each thread with a `worker` of its own; each subtree's nodes are
/// told to `live` as it is searched, and to `stop`, which ends the pass early (`None`).
pub fn pass<W>(
    start: &Position,
    bound: &LowerBound,
    prune: &Machine,
    ((limit, all, threads), wanted): ((u32, bool, usize), usize),
    (live, stop): (Option<&Live>, Option<&Stop>),
    worker: &(dyn Fn() -> W + Sync),
    search: &(dyn Fn(&mut W, &Subtree) -> Pass + Sync),
) -> Option<Pass> {
    let walk = cut(start, (bound, prune), (limit, all), wanted, &|_| 0);
    if let Some(stop) = stop {
        stop.spend(walk.nodes);
    }
    let items: &[Item] = &walk.items;
    let first = items
        .iter()
        .position(|i| matches!(i.kind, Kind::Solution(_)))
        .filter(|_| !all)
        .unwrap_or(usize::MAX);
    let next = AtomicU32::new(walk.next);
    let results = search_items(
        items.len(),
        first,
        (threads, live, stop),
        all,
        worker,
        &|w, i| match &items[i].kind {
            Kind::Subtree(subtree) => {
                let found = search(w, subtree);
                next.fetch_min(found.next, Ordering::SeqCst);
                let solutions = found
                    .solutions
                    .into_iter()
                    .map(|moves| [subtree.path.clone(), moves].concat())
                    .collect();
                Found {
                    nodes: found.nodes,
                    solutions,
                }
            }
            Kind::Solution(moves) => Found {
                nodes: 0,
                solutions: vec![moves.clone()],
            },
        },
    );
    // Every item up to the first with a solution was searched (no thread passes `first`),
    // unless the pass was stopped.
    let befores = items.iter().map(|item| item.before);
    let merged = merge(walk.nodes, befores.zip(results), all).ok()?;
    Some(Pass {
        nodes: merged.nodes,
        next: next.into_inner(),
        solutions: merged.solutions,
    })
}
