//! The reference IDA* for the multi-tile metric, written plainly: the one IDA* of both metrics
//! ([`crate::engine::ida`]) over the tree of the blank's jumps ([`JumpTree`]).
//!
//! A node is the tiles, the blank's cell and the axis of the move that reached it; its
//! children are the jumps of the blank along the *other* axis (at the root, along both), since
//! another move on the same axis would merge with the last one or undo it. For bounds
//! `b = h(start), …` a depth-first pass keeps the nodes with `g + h <= b`, where `h` is
//! [`LowerBound::child`]: walking distance ([`LowerBound::combine`]), or on 4x4 the relabelled
//! table's bound (an MTM move can change `h` by more than one, so there is no happy/sad budget
//! as in STM, and the goal counts wherever it is met); the next bound is the least `g + h` of
//! the nodes cut off.
//!
//! A jump that completes a word the duplicate-pruning machine forbids ([`crate::prune`], its
//! words spelled in jumps) is neither made nor counted; the machine's state after a node's
//! path passes down to its children. With the machine that refuses nothing, the tree is the
//! plain one.
//!
//! Node counting follows Korf's for STM: the root counts 1 (in the first bound), every
//! generated child counts 1, including those the bound then cuts off; the goal is recognised
//! when a child is generated, and a pass stops at its first solution unless every optimal
//! solution is wanted (then the bound is searched to the end).
//!
//! Invariant: the parts' states at a node are those of its tiles ([`LowerBound::states`]),
//! updated by one table step per tile a jump moves, and restored on the way back. With a cut
//! (the parallel search, [`super::parallel`]) the nodes at the cut's depth are listed in the
//! order they are met instead of searched.

use super::bound::LowerBound;
use super::moves::{self, Axis, Jump, JumpFrom};
use super::relabel::Codes;
use super::tables;
use crate::board::{Board, MAX_CELLS};
use crate::engine::ida::{self, Pass};
use crate::engine::parallel;
use crate::engine::{Answer, Engine, EngineError, Progress, SearchOptions, Solution, Stop};
use crate::position::Position;
use crate::prune::Machine;
use std::sync::Arc;

/// The reference MTM engine (`--metric mtm --engine ida`).
#[derive(Clone, Debug, Default)]
pub struct MtmIda {
    pub config: super::Config,
}

impl Engine for MtmIda {
    fn name(&self) -> &'static str {
        "ida"
    }

    /// Bound lines of MTM searches carry the bound in `happy` (`sad` is 0).
    fn solve(&self, start: &Position, options: &SearchOptions, progress: Progress<'_>) -> Answer {
        let bound = tables::for_search(start, &self.config)?;
        let prune = tables::machine(start.board(), &self.config, options.all);
        solve_with(
            start,
            &bound,
            &prune,
            (options.all, options.stop.as_deref()),
            progress,
        )
    }
}

/// Solves a solvable `start` with the lower bound `bound`, every optimal solution when `all`,
/// until `stop` (if any) says to stop (looked at every [`Stop::EVERY`] nodes).
/// Each bound is reported to `progress` as it finishes; in [`crate::engine::BoundStats`] the bound in MTM
/// moves is `happy` and `sad` is 0.
pub fn solve_with(
    start: &Position,
    bound: &Arc<LowerBound>,
    prune: &Machine,
    (all, stop): (bool, Option<&Stop>),
    progress: Progress<'_>,
) -> Answer {
    let root = JumpTree::root(start, bound);
    deepen(start, bound, all, progress, &mut |limit| {
        if let Some(stop) = stop {
            if stop.should_stop(0) {
                return Err(stop.stopped(limit.to_string(), true));
            }
        }
        let mut search = ida::Search::new(JumpTree::new(start, bound, prune), limit, all);
        search.stop = stop;
        let found = search.run(root, 0);
        if let Some(stop) = stop {
            stop.spend(found.nodes);
            if stop.raised() {
                return Err(stop.stopped(limit.to_string(), true));
            }
        }
        Ok(found)
    })
}

/// IDA* around `pass`, the depth-first pass of one bound (shared by the MTM engines, so that
/// they count and step bounds alike): [`ida::deepen`] from `h(start)`, each bound the least
/// `g + h` cut off by the one before, until a pass finds a solution.
pub fn deepen(
    start: &Position,
    bound: &LowerBound,
    all: bool,
    progress: Progress<'_>,
    pass: &mut dyn FnMut(u32) -> Result<Pass, EngineError>,
) -> Answer {
    ida::deepen(bound.estimate(start), &Lines(start), all, progress, pass)
}

/// MTM's bounds: each the least `g + h` the pass before cut off, its line the length alone.
struct Lines<'a>(&'a Position);

impl ida::Bounds for Lines<'_> {
    fn after(&self, _: u32, next: u32) -> Option<u32> {
        (next != u32::MAX).then_some(next)
    }

    fn label(&self, limit: u32) -> (u32, u32) {
        (limit, 0)
    }

    fn solution(&self, moves: Vec<u8>) -> Option<Solution> {
        Solution::from_moves(self.0, moves)
    }
}

/// The tree of the blank's jumps from a position, for [`ida::Search`].
pub(super) struct JumpTree<'a> {
    board: Board,
    bound: &'a LowerBound,
    /// The duplicate-pruning machine: a jump it refuses is neither made nor counted.
    prune: &'a Machine,
    jumps: moves::Jumps,
    tiles: [u8; MAX_CELLS],
    /// `home_row[tile]`, `home_col[tile]`: the row and column of the tile's home.
    home_row: [u8; MAX_CELLS],
    home_col: [u8; MAX_CELLS],
    /// The tiles pushed so far on the current path (the STM path of its jumps).
    path: Vec<u8>,
}

/// A node: the blank's cell, the jump that reached it (none at the start), its parts' states
/// (vertical, horizontal), its relabelled board's codes (with their distances) and the
/// pruning machine's state after its path.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    blank: usize,
    came: Option<Jump>,
    parts: (u32, u32),
    codes: Codes,
    machine: u32,
}

/// A jump from a node, with the cells the blank passes, and the machine's state after it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Move {
    jump: JumpFrom,
    machine: u32,
}

impl<'a> JumpTree<'a> {
    pub(super) fn new(start: &Position, bound: &'a LowerBound, prune: &'a Machine) -> JumpTree<'a> {
        let board = start.board();
        let mut tiles = [0u8; MAX_CELLS];
        tiles[..board.cells()].copy_from_slice(start.tiles());
        let mut home_row = [0u8; MAX_CELLS];
        let mut home_col = [0u8; MAX_CELLS];
        for tile in 1..board.cells() {
            let home = board.home(tile as u8);
            home_row[tile] = board.row(home) as u8;
            home_col[tile] = board.col(home) as u8;
        }
        JumpTree {
            board,
            bound,
            prune,
            jumps: moves::Jumps::new(board),
            tiles,
            home_row,
            home_col,
            path: Vec::new(),
        }
    }

    /// The node of `start`, reached by no jump.
    pub(super) fn root(start: &Position, bound: &LowerBound) -> Node {
        Node {
            blank: start.blank(),
            came: None,
            parts: bound.states(start),
            codes: bound.codes(start.tiles()),
            machine: Machine::START,
        }
    }

    /// The node of `subtree`'s root.
    pub(super) fn subtree_root(subtree: &Subtree) -> Node {
        Node {
            blank: subtree.root.blank(),
            came: Some(subtree.came),
            parts: subtree.parts,
            codes: subtree.codes,
            machine: subtree.machine,
        }
    }

    fn is_goal(&self) -> bool {
        let board = self.board;
        self.tiles[..board.cells()]
            .iter()
            .enumerate()
            .all(|(cell, &t)| board.home(t) == cell)
    }
}

impl ida::Tree for JumpTree<'_> {
    type Node = Node;
    type Move = Move;
    type Subtree = Subtree;

    const GOAL_AT_LIMIT: bool = false;

    #[inline(always)]
    fn moves(&self, node: &Node) -> usize {
        self.jumps.from(node.blank).len()
    }

    #[inline(always)]
    fn step(&self, node: &Node, j: usize) -> Option<Move> {
        let jump = self.jumps.from(node.blank)[j];
        if node
            .came
            .is_some_and(|came| came.axis() == jump.jump.axis())
        {
            return None;
        }
        let machine = self
            .prune
            .jump(node.machine, jump.jump.direction, jump.jump.distance)?;
        Some(Move { jump, machine })
    }

    /// Slides the tiles the blank passes, one cell each, updating the moved axis's part.
    #[inline(always)]
    fn make(&mut self, node: &Node, m: Move, budget: (u32, u32)) -> (Node, u32) {
        let cols = self.board.cols();
        let axis = m.jump.jump.axis();
        let (mut v, mut h) = node.parts;
        let mut here = node.blank;
        for &cell in m.jump.passed() {
            let cell = usize::from(cell);
            let tile = self.tiles[cell];
            match axis {
                Axis::Vertical => {
                    let class = usize::from(self.home_row[usize::from(tile)]);
                    v = self.bound.vertical.step(v, class, cell / cols, here / cols);
                }
                Axis::Horizontal => {
                    let class = usize::from(self.home_col[usize::from(tile)]);
                    h = self
                        .bound
                        .horizontal
                        .step(h, class, cell % cols, here % cols);
                }
            }
            self.tiles[here] = tile;
            self.tiles[cell] = 0;
            self.path.push(tile);
            here = cell;
        }
        let walking = self.bound.combine(v, h, Some(axis.other()));
        let tiles = &self.tiles[..self.board.cells()];
        let mut codes = self.bound.child_codes(node.codes, tiles);
        let estimate = self
            .bound
            .child(walking, &mut codes, budget, || self.is_goal());
        debug_assert!(estimate > 0 || self.is_goal());
        let child = Node {
            blank: here,
            came: Some(m.jump.jump),
            parts: (v, h),
            codes,
            machine: m.machine,
        };
        (child, estimate)
    }

    /// Slides them back.
    #[inline(always)]
    fn unmake(&mut self, node: &Node, m: Move) {
        let passed = m.jump.passed();
        for (i, &cell) in passed.iter().enumerate().rev() {
            // The blank's cell before it passed `cell`.
            let before = match i {
                0 => node.blank,
                _ => usize::from(passed[i - 1]),
            };
            self.tiles[usize::from(cell)] = self.path.pop().unwrap_or(0);
            self.tiles[before] = 0;
        }
    }

    fn path(&self) -> &[u8] {
        &self.path
    }

    fn subtree(&self, child: &Node, g: u32, _: u32) -> Option<Subtree> {
        let cells = &self.tiles[..self.board.cells()];
        Some(Subtree {
            root: Position::from_tiles(self.board, cells).ok()?,
            came: child.came?,
            g,
            parts: child.parts,
            codes: child.codes,
            machine: child.machine,
            path: self.path.clone(),
        })
    }
}

/// An item of a cut ([`crate::engine::parallel::Item`]) of the MTM tree.
pub type Item = parallel::Item<Subtree>;

/// A node at a cut: its position, the jump that reached it, its depth, its parts' states
/// (vertical, horizontal), its relabelled board's codes, the pruning machine's state after
/// its path and the tiles pushed from the start.
#[derive(Clone, Debug)]
pub struct Subtree {
    pub root: Position,
    pub came: Jump,
    pub g: u32,
    pub parts: (u32, u32),
    pub codes: Codes,
    pub machine: u32,
    pub path: Vec<u8>,
}
