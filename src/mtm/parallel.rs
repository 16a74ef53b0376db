//! One MTM bound on several threads, with the answer of one thread (as the STM engines'
//! [`crate::engine::parallel`], whose search of a cut's items it uses).
//!
//! The reference search walks the bound's tree down to a shallow cut ([`ida::cut`]),
//! listing in its own order the nodes kept there and the solutions met above it; the
//! automaton searches the subtrees below those nodes on the worker threads. Invariant: the
//! items' solutions in list order are the bound's in one thread's order, the walk's nodes plus
//! the subtrees' are one thread's, and the next bound is the least `g + h` cut off by the walk
//! or any subtree; so every completed bound counts the same nodes and the answer is the same
//! as one thread's.

use super::bound::LowerBound;
use super::search::{JumpTree, Subtree};
use crate::engine::ida::{self, Pass, Walked};
use crate::engine::parallel::search_cut;
use crate::engine::{Live, Stop};
use crate::position::Position;
use crate::prune::Machine;

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
/// told to `live` as it is searched, and to `stop`, which ends the pass early (`None`). The
/// items are searched as the single-tile metric's are ([`search_cut`]).
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
    let cut = (walk.nodes, walk.next, walk.items.as_slice());
    let threads = ((threads, all), live, stop);
    search_cut(cut, threads, worker, search, |subtree| &subtree.path)
}
