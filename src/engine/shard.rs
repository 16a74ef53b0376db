//! One bound's cut as independent pieces of work, whatever the engine: the items of
//! [`parallel::cut`] for another process to search (`fifteen shard`), one subtree searched on
//! its own, and the subtree rebuilt from the moves that lead to its root.
//!
//! Invariant: a subtree rebuilt by [`subtree`] from an item's moves is the item's subtree (the
//! same root, last move, happy and sad moves left and lookups' values), so [`search`] finds
//! what a thread of the parallel search finds there, and [`parallel::merge`] of the results
//! is the answer of one thread.

use super::parallel::{self, Found, Item, Kind, Splittable, Subtree};
use super::{automaton, reference, EngineError, EngineKind};
use crate::board::{Board, Direction};
use crate::heuristic::pdb::{piece_cells, PatternDb};
use crate::heuristic::Heuristic;
use crate::position::Position;
use crate::prune::Machine;

/// Something done with an engine as the parallel search sees it (the engines' types differ
/// by board and heuristic, so they are handed to it rather than returned).
pub trait Visit {
    type Output;
    fn visit<E: Splittable>(self, engine: &E) -> Self::Output;
}

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
        EngineKind::Ida => Ok(reference::visit_split(heuristic.tables(), machine, visit)),
        EngineKind::Bfs => Err(EngineError::Limit(
            "the bfs engine searches no bounds to cut: shard takes --engine automaton or ida"
                .into(),
        )),
    }
}

/// The cut of the bound with `happy` and `sad` moves (the engine's: `happy - sad` is the
/// heuristic's estimate) from `start`, with at least `wanted` subtrees where the tree has
/// them: the nodes above the cut and the items. The start at the goal is one solution
/// above the cut, with no moves.
pub fn plan(
    kind: EngineKind,
    heuristic: &Heuristic,
    machine: &Machine,
    start: &Position,
    happy: u32,
    sad: u32,
    wanted: usize,
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
        happy: u32,
        sad: u32,
        wanted: usize,
    }
    impl Visit for Cut<'_> {
        type Output = (u64, Vec<Item>);
        fn visit<E: Splittable>(self, engine: &E) -> Self::Output {
            let Cut {
                heuristic,
                start,
                happy,
                sad,
                wanted,
            } = self;
            parallel::cut(engine, heuristic, start, happy, sad, wanted)
        }
    }
    let cut = Cut {
        heuristic,
        start,
        happy,
        sad,
        wanted,
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
    let (&last, earlier) = path.split_last()?;
    // The blank's directions along the path, for the machine.
    let board = start.board();
    let mut position = *start;
    let mut state = Machine::START;
    for &piece in path {
        let d = Direction::ALL.into_iter().find(|&d| {
            board
                .neighbour(position.blank(), d)
                .is_some_and(|cell| position.tiles()[cell] == piece)
        })?;
        state = machine.step(state, d)?;
        position.move_blank(d)?;
    }
    let before = start.replay(earlier).ok()?;
    let mut root = before;
    if !root.push(last) {
        return None;
    }
    let came = Direction::ALL
        .into_iter()
        .find(|&d| board.neighbour(before.blank(), d) == Some(root.blank()))?;
    let values = heuristic.tables().map_or(Default::default(), |db| {
        let (at, blank) = piece_cells(&root);
        db.values(&at, blank)
    });
    let estimate = match heuristic.tables() {
        Some(_) => PatternDb::estimate(values),
        None => heuristic.estimate(&root),
    };
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
