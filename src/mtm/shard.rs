//! One MTM bound's cut as independent pieces of work (`fifteen shard --metric mtm`), as
//! [`crate::engine::shard`] is for the single-tile metric: the items of the walk that
//! [`super::parallel`] cuts, one subtree rebuilt from the tiles pushed to its root, and searched
//! on its own by either MTM engine.
//!
//! A path of tiles pushed names its jumps without a mark between them: consecutive jumps are on
//! different axes (the search never makes two on one axis in a row), so each jump is a maximal
//! run of one direction.
//!
//! Invariant: a subtree rebuilt by [`subtree`] from an item's path is the item's subtree (the
//! same root, last jump, depth, parts' states, relabelled codes and machine state; the codes'
//! distances are exact at a node the walk keeps), so [`search`] finds what a thread of the
//! parallel search finds there: the same nodes, least `g + h` cut off and solutions.

use super::bound::LowerBound;
use super::moves::Jump;
use super::search::{Item, JumpTree, Subtree};
use crate::engine::ida::{self, Pass};
use crate::engine::{EngineError, EngineKind, Stop};
use crate::position::Position;
use crate::prune::Machine;

/// A bound's cut: the nodes above it, the least `g + h` the walk cut off (`u32::MAX`: none)
/// and the items in one thread's order.
pub struct Cut {
    pub above: u64,
    pub next: u32,
    pub items: Vec<Item>,
}

/// The cut of the bound `limit` from `start` (every solution with `all`), with at least
/// `wanted` subtrees where the tree has them, going on below a node while `deeper` of its path
/// is not 0. The start at the goal is one solution above the cut, with no moves.
pub fn plan(
    start: &Position,
    searched: (&LowerBound, &Machine),
    (limit, all): (u32, bool),
    wanted: usize,
    deeper: &dyn Fn(&[u8]) -> u32,
) -> Cut {
    if limit == 0 {
        let goal = Item {
            before: 0,
            kind: crate::engine::parallel::Kind::Solution(Vec::new()),
        };
        return Cut {
            above: 0,
            next: u32::MAX,
            items: vec![goal],
        };
    }
    let walk = super::parallel::cut(start, searched, (limit, all), wanted, deeper);
    Cut {
        above: walk.nodes,
        next: walk.next,
        items: walk.items,
    }
}

/// The subtree of the bound `limit` at the end of the tiles `path` pushed from `start`; `None`
/// if a tile cannot be pushed, there is no move, two jumps in a row are on one axis, a jump
/// completes a word the pruning machine forbids, or the root is not a node the bound keeps
/// (`g + h` above `limit`, or the goal).
pub fn subtree(
    start: &Position,
    (bound, prune): (&LowerBound, &Machine),
    path: &[u8],
    limit: u32,
) -> Option<Subtree> {
    let (mut root, mut came, mut g, mut machine) = (*start, None::<Jump>, 0, Machine::START);
    let mut rest = path;
    while let Some(&first) = rest.first() {
        let direction = root.direction_of(first)?;
        let mut distance = 0u8;
        while let Some(&tile) = rest.first() {
            if root.direction_of(tile) != Some(direction) {
                break;
            }
            root.move_blank(direction)?;
            distance += 1;
            rest = &rest[1..];
        }
        let jump = Jump {
            direction,
            distance,
        };
        if came.is_some_and(|before| before.axis() == jump.axis()) {
            return None;
        }
        machine = prune.jump(machine, direction, distance)?;
        (came, g) = (Some(jump), g + 1);
    }
    let came = came?;
    let parts = bound.states(&root);
    // The estimate the search gives a child: walking distance with the next jump on the
    // other axis, or the relabelled table's exact bound.
    let estimate = match bound.table {
        Some(_) => bound.estimate(&root),
        None => bound.combine(parts.0, parts.1, Some(came.axis().other())),
    };
    (estimate > 0 && g + estimate <= limit).then(|| Subtree {
        codes: bound.codes(root.tiles()),
        root,
        came,
        g,
        parts,
        machine,
        path: path.to_vec(),
    })
}

/// Searches `subtree` in the bound `limit` with the engine `kind`, to the end (`all`) or to its
/// first solution: the nodes generated below its root, the least `g + h` cut off and the
/// solutions, as tiles pushed from the start. With `stop`, looked at before the search and,
/// by the reference engine, every [`Stop::EVERY`] nodes: `None` when it ended the search.
pub fn search(
    kind: EngineKind,
    searched: (&LowerBound, &Machine),
    subtree: &Subtree,
    (limit, all): (u32, bool),
    stop: Option<&Stop>,
) -> Result<Option<Pass>, EngineError> {
    if stop.is_some_and(|stop| stop.should_stop(0)) {
        return Ok(None);
    }
    let mut found = match kind {
        EngineKind::Automaton => super::automaton::search_subtree(searched, subtree, (limit, all))?,
        EngineKind::Ida => {
            let (bound, prune) = searched;
            let tree = JumpTree::new(&subtree.root, bound, prune);
            let mut walk = ida::Search::new(tree, limit, all);
            walk.stop = stop;
            walk.run(JumpTree::subtree_root(subtree), subtree.g)
        }
        EngineKind::Bfs => return Err(EngineError::Limit(crate::engine::shard::NO_BFS.into())),
    };
    if let Some(stop) = stop {
        stop.spend(found.nodes);
        if stop.raised() {
            return Ok(None);
        }
    }
    for moves in &mut found.solutions {
        *moves = [subtree.path.as_slice(), moves].concat();
    }
    Ok(Some(found))
}
