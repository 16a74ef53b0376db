//! The reference IDA* for the multi-tile metric, written plainly.
//!
//! A node is the tiles, the blank's cell and the axis of the move that reached it; its
//! children are the jumps of the blank along the *other* axis (at the root, along both), since
//! another move on the same axis would merge with the last one or undo it. For bounds
//! `b = h(start), …` a depth-first pass keeps the nodes with `g + h <= b`, where `h` is
//! [`LowerBound::child`]: walking distance ([`LowerBound::combine`]), or on 4x4 the relabelled
//! table's bound (an MTM move can change `h` by more than one, so there is no happy/sad budget
//! as in STM); the next bound is the least `g + h` of the nodes cut off.
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
use super::moves::{Axis, Jump, Jumps};
use super::relabel::Codes;
use super::tables;
use crate::board::{Board, MAX_CELLS};
use crate::engine::parallel::{self, Kind};
use crate::engine::{
    Answer, BoundStats, Engine, EngineError, Progress, SearchOptions, SearchOutcome, SearchStats,
    Solution, Stop,
};
use crate::position::Position;
use crate::prune::Machine;
use std::sync::Arc;
use std::time::Instant;

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
/// Each bound is reported to `progress` as it finishes; in [`BoundStats`] the bound in MTM
/// moves is `happy` and `sad` is 0.
pub fn solve_with(
    start: &Position,
    bound: &Arc<LowerBound>,
    prune: &Machine,
    (all, stop): (bool, Option<&Stop>),
    progress: Progress<'_>,
) -> Answer {
    let mut search = Search::new(start, bound, prune, all);
    search.stop = stop;
    let (vertical, horizontal) = bound.states(start);
    let codes = bound.codes(start.tiles());
    deepen(start, bound, all, progress, &mut |limit| {
        if let Some(stop) = stop {
            if stop.should_stop(0) {
                return Err(stop.stopped(limit.to_string(), true));
            }
        }
        search.nodes = 0;
        search.next = u32::MAX;
        search.limit = limit;
        search.explore(
            start.blank(),
            None,
            0,
            (vertical, horizontal),
            codes,
            Machine::START,
        );
        if let Some(stop) = stop {
            stop.spend(search.nodes);
            if stop.raised() {
                return Err(stop.stopped(limit.to_string(), true));
            }
        }
        Ok(Pass {
            nodes: search.nodes,
            next: search.next,
            solutions: std::mem::take(&mut search.solutions),
        })
    })
}

/// What one depth-first pass within a bound found: the nodes it generated (the root not
/// counted), the least `g + h` it cut off (`u32::MAX`: none), and its solutions (the tiles
/// pushed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    pub nodes: u64,
    pub next: u32,
    pub solutions: Vec<Vec<u8>>,
}

/// IDA* around `pass`, the depth-first pass of one bound (shared by the MTM engines, so that
/// they count and step bounds alike): bounds from `h(start)`, each the least `g + h` cut off
/// by the one before, until a pass finds a solution; the root counts 1 in the first bound.
pub fn deepen(
    start: &Position,
    bound: &LowerBound,
    all: bool,
    progress: Progress<'_>,
    pass: &mut dyn FnMut(u32) -> Result<Pass, EngineError>,
) -> Answer {
    let mut limit = bound.estimate(start);
    let mut bounds = Vec::new();
    loop {
        let clock = Instant::now();
        let found = if limit == 0 {
            // The start is the goal.
            Pass {
                nodes: 0,
                next: u32::MAX,
                solutions: vec![Vec::new()],
            }
        } else {
            pass(limit)?
        };
        let stats = BoundStats {
            happy: limit,
            sad: 0,
            nodes: Some(found.nodes + u64::from(bounds.is_empty())),
            seconds: clock.elapsed().as_secs_f64(),
            completed: all || found.solutions.is_empty(),
            solutions: found.solutions.len() as u64,
        };
        progress(&stats);
        bounds.push(stats);
        if !found.solutions.is_empty() || found.next == u32::MAX {
            let solutions = found
                .solutions
                .into_iter()
                .filter_map(|moves| Solution::from_moves(start, moves))
                .collect();
            return Ok(SearchOutcome {
                solutions,
                stats: SearchStats::from_bounds(bounds),
            });
        }
        limit = found.next;
    }
}

/// One depth-first pass and what it found.
pub(super) struct Search<'a> {
    board: Board,
    bound: &'a LowerBound,
    /// The duplicate-pruning machine: a jump it refuses is neither made nor counted.
    prune: &'a Machine,
    jumps: Jumps,
    all: bool,
    tiles: [u8; MAX_CELLS],
    /// `row[tile]`, `col[tile]`: the row and column of the tile's home.
    home_row: [u8; MAX_CELLS],
    home_col: [u8; MAX_CELLS],
    /// The tiles pushed so far on the current path (the STM path of its jumps).
    path: Vec<u8>,
    pub(super) limit: u32,
    /// The least `g + h` cut off in this pass.
    pub(super) next: u32,
    pub(super) nodes: u64,
    pub(super) solutions: Vec<Vec<u8>>,
    /// With a cut at depth `cut` (0: none), the nodes kept there are not searched but listed
    /// in `items`, in order, with the solutions met above the cut.
    pub(super) cut: u32,
    /// Below a node at the cut, the tiles still to push before an item (`fifteen shard plan
    /// --split`, by the node's path from the start; 0: the node is an item).
    pub(super) deeper: &'a dyn Fn(&[u8]) -> u32,
    pub(super) items: Vec<Item>,
    /// Looked at every [`Stop::EVERY`] nodes: the pass ends when it says so.
    pub(super) stop: Option<&'a Stop>,
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

impl<'a> Search<'a> {
    pub(super) fn new(
        start: &Position,
        bound: &'a LowerBound,
        prune: &'a Machine,
        all: bool,
    ) -> Search<'a> {
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
        Search {
            board,
            bound,
            prune,
            jumps: Jumps::new(board),
            all,
            tiles,
            home_row,
            home_col,
            path: Vec::new(),
            limit: 0,
            next: u32::MAX,
            nodes: 0,
            solutions: Vec::new(),
            cut: 0,
            deeper: &|_| 0,
            items: Vec::new(),
            stop: None,
        }
    }

    /// Tries every jump from the node whose blank is on `blank`, reached by a move on `came`
    /// (none at the root) after `g` moves, its parts in states `(vertical, horizontal)`, its
    /// relabelled board's codes `codes` (with their distances) and the pruning machine in state
    /// `m`. Returns `true` when the search should stop.
    pub(super) fn explore(
        &mut self,
        blank: usize,
        came: Option<Axis>,
        g: u32,
        (vertical, horizontal): (u32, u32),
        codes: Codes,
        m: u32,
    ) -> bool {
        let cols = self.board.cols();
        let count = self.jumps.from(blank).len();
        for j in 0..count {
            let jump = self.jumps.from(blank)[j];
            let axis = jump.jump.axis();
            if Some(axis) == came {
                continue;
            }
            let Some(m) = self.prune.jump(m, jump.jump.direction, jump.jump.distance) else {
                continue;
            };
            self.nodes += 1;
            if self.nodes.is_multiple_of(Stop::EVERY) {
                if let Some(stop) = self.stop {
                    if stop.should_stop(self.nodes) {
                        return true;
                    }
                }
            }
            // Slide the tiles the blank passes, one cell each, updating the moved axis's part.
            let (mut v, mut h) = (vertical, horizontal);
            let mut here = blank;
            for &cell in jump.passed() {
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
            let (budget, settled) = (
                self.limit.saturating_sub(g + 1),
                self.next.saturating_sub(g + 1),
            );
            let mut child = self.bound.child_codes(codes, tiles);
            let estimate = self
                .bound
                .child(walking, &mut child, (budget, settled), || self.is_goal());
            let f = g + 1 + estimate;
            let stop = if estimate == 0 {
                debug_assert!(self.is_goal());
                self.solutions.push(self.path.clone());
                self.list(Kind::Solution(self.path.clone()));
                !self.all
            } else if f <= self.limit
                && self.cut > 0
                && g + 1 >= self.cut
                && (self.deeper)(&self.path) == 0
            {
                let cells = &self.tiles[..self.board.cells()];
                if let Ok(root) = Position::from_tiles(self.board, cells) {
                    self.list(Kind::Subtree(Subtree {
                        root,
                        came: jump.jump,
                        g: g + 1,
                        parts: (v, h),
                        codes: child,
                        machine: m,
                        path: self.path.clone(),
                    }));
                }
                false
            } else if f <= self.limit {
                self.explore(here, Some(axis), g + 1, (v, h), child, m)
            } else {
                self.next = self.next.min(f);
                false
            };
            // Slide them back.
            for &cell in jump.passed().iter().rev() {
                let cell = usize::from(cell);
                let tile = self.path.pop().unwrap_or(0);
                let back = self
                    .board
                    .neighbour(cell, jump.jump.direction.reverse())
                    .unwrap_or(cell);
                self.tiles[cell] = tile;
                self.tiles[back] = 0;
            }
            if stop {
                return true;
            }
        }
        false
    }

    /// Lists an item of the cut (nothing without one).
    fn list(&mut self, kind: Kind<Subtree>) {
        if self.cut > 0 {
            self.items.push(Item {
                before: self.nodes,
                kind,
            });
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
