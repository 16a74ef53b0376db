//! The reference IDA*: Knuth's 15PUZZLE-KORF0 (and M. Hiroi's iterative deepening), written
//! plainly so that it is obviously correct. Every faster engine is checked against it.
//!
//! For `k = 0, 1, 2, …` a depth-first search tries to reach the goal with exactly `h + k`
//! *happy* moves (the lower bound drops by one) and `k` *sad* ones (it rises by one), where `h`
//! is the lower bound of the start: with Manhattan, a move is happy when its piece comes one
//! step closer to home; with pattern databases, the bound is computed from scratch at every
//! node. Invariant at every node: happy moves left minus sad moves left equals the node's lower
//! bound; so a node with nothing left is the goal, and a move is possible only while its kind
//! of move is left.
//!
//! Node counting follows Korf (1985): the root counts 1 (once, in the first iteration), every generated child
//! counts 1 (including the ones the bound then prunes), the move undoing the previous one is never
//! generated, the goal is recognised when a child is generated, and the search stops at the first
//! solution (unless every optimal solution is wanted).

use super::parallel::{self, Found, Subtree};
use super::{
    Answer, BoundStats, Engine, EngineError, Progress, SearchOptions, SearchOutcome, SearchStats,
    Solution, Stop,
};
use crate::board::{Board, Direction, MAX_CELLS};
use crate::heuristic::Heuristic;
use crate::position::Position;
use crate::prune;
use std::time::Instant;

/// The blank's directions in KORF0's order: east, north, west, south.
pub const KNUTH_ORDER: [Direction; 4] = Direction::ALL;

/// The reference engine (`--engine ida`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ReferenceIda;

impl Engine for ReferenceIda {
    fn name(&self) -> &'static str {
        "ida"
    }

    fn solve(&self, start: &Position, options: &SearchOptions, progress: Progress<'_>) -> Answer {
        if !start.is_solvable() {
            return Err(EngineError::Unsolvable);
        }
        let order = options.order.unwrap_or(KNUTH_ORDER);
        let h = options.heuristic.estimate(start);
        super::check_tables(options)?;
        let manhattan = start.manhattan() as u32;
        let mut bounds = Vec::new();
        let mut solutions = Vec::new();
        if h == 0 {
            // The start is the goal: the root is the only node (Knuth skips the search here).
            bounds.push(BoundStats {
                happy: 0,
                sad: 0,
                nodes: Some(1),
                seconds: 0.0,
                completed: true,
                solutions: 1,
            });
            solutions.push(Solution {
                moves: Vec::new(),
                happy: 0,
                sad: 0,
            });
            return Ok(SearchOutcome {
                solutions,
                stats: SearchStats::from_bounds(bounds),
            });
        }
        let tables = &options.heuristic;
        let machine = &options.prune;
        let split = Split {
            order,
            tables,
            machine,
            stop: options.stop.as_deref(),
        };
        for sad in 0.. {
            let clock = Instant::now();
            let length = h + 2 * sad;
            let label = || {
                let (happy, sad) = ((length + manhattan) / 2, (length - manhattan) / 2);
                format!("{happy}+{sad}")
            };
            options.bound_starts(true, || format!("{} moves", label()));
            let stopped = || match &options.stop {
                Some(stop) => stop.stopped(label(), true),
                None => EngineError::Limit("stopped".into()),
            };
            let stop = options.stop.as_deref();
            if stop.is_some_and(|stop| stop.should_stop(0)) {
                return Err(stopped());
            }
            let found = match options.subtrees(&bounds) {
                Some(wanted) => {
                    parallel::search_bound(&split, start, (h + sad, sad), wanted, options)
                        .ok_or_else(stopped)?
                }
                None => {
                    let mut search = Search::new(start, order, options.all, tables, machine);
                    search.stop = stop;
                    search.explore(start.blank(), None, h + sad, sad, prune::Machine::START);
                    if let Some(stop) = stop {
                        stop.spend(search.nodes);
                        if stop.raised() {
                            return Err(stopped());
                        }
                    }
                    search.found()
                }
            };
            // The root counts once for the whole search, in the first bound.
            let root = u64::from(sad == 0);
            let bound = BoundStats::searched(
                (length, manhattan),
                Some(found.nodes + root),
                clock.elapsed().as_secs_f64(),
                found.solutions.len(),
                options.all,
            );
            super::check_tables(options)?;
            progress(&bound);
            bounds.push(bound);
            if !found.solutions.is_empty() {
                solutions = found
                    .solutions
                    .into_iter()
                    .map(|moves| Solution::with_length(moves, manhattan))
                    .collect();
                break;
            }
        }
        Ok(SearchOutcome {
            solutions,
            stats: SearchStats::from_bounds(bounds),
        })
    }
}

/// Hands `visit` the reference engine in KORF0's order as the parallel search sees it, for one
/// bound's cut or one subtree of it (the shard commands).
pub fn visit_split<V: parallel::Visit>(
    tables: &Heuristic,
    machine: &prune::Machine,
    visit: V,
) -> V::Output {
    visit.visit(&Split {
        order: KNUTH_ORDER,
        tables,
        machine,
        stop: None,
    })
}

/// The reference engine as the parallel search sees it: a subtree is searched by the same
/// recursion, started at its root.
struct Split<'a> {
    order: [Direction; 4],
    tables: &'a Heuristic,
    machine: &'a prune::Machine,
    /// Looked at every [`Stop::EVERY`] nodes of a subtree (ended early when it says so).
    stop: Option<&'a Stop>,
}

impl parallel::Splittable for Split<'_> {
    type Worker = ();

    fn worker(&self) {}

    fn machine(&self) -> &prune::Machine {
        self.machine
    }

    fn order(&self, came: Option<Direction>) -> Vec<Direction> {
        let back = came.map(Direction::reverse);
        self.order
            .into_iter()
            .filter(|&d| Some(d) != back)
            .collect()
    }

    fn search(&self, _: &mut (), subtree: &Subtree, all: bool) -> Found {
        let mut search = Search::new(&subtree.root, self.order, all, self.tables, self.machine);
        search.stop = self.stop;
        let (happy, sad) = (subtree.happy, subtree.sad);
        let (blank, came) = (subtree.root.blank(), Some(subtree.came));
        search.explore(blank, came, happy, sad, subtree.machine);
        search.found()
    }
}

/// The state of one depth-first pass with a fixed bound.
struct Search<'a> {
    board: Board,
    order: [Direction; 4],
    all: bool,
    /// The heuristic: Manhattan (found here move by move) or tables (from scratch).
    tables: &'a Heuristic,
    /// The duplicate-pruning machine: a move completing a forbidden word is not generated.
    machine: &'a prune::Machine,
    /// `next[cell][d]`: the cell next to `cell` in direction `d`.
    next: Vec<[Option<usize>; 4]>,
    /// `distance[tile][cell]`: how far `tile` on `cell` is from home.
    distance: Vec<Vec<usize>>,
    tiles: [u8; MAX_CELLS],
    /// The pieces pushed so far on the current path.
    path: Vec<u8>,
    nodes: u64,
    /// The solutions found, each the pieces pushed from the pass's root.
    solutions: Vec<Vec<u8>>,
    /// Looked at every [`Stop::EVERY`] nodes: the pass ends when it says so.
    stop: Option<&'a Stop>,
}

impl<'a> Search<'a> {
    fn new(
        start: &Position,
        order: [Direction; 4],
        all: bool,
        tables: &'a Heuristic,
        machine: &'a prune::Machine,
    ) -> Search<'a> {
        let board = start.board();
        let cells = board.cells();
        let next = (0..cells)
            .map(|cell| Direction::ALL.map(|d| board.neighbour(cell, d)))
            .collect();
        let distance = (0..cells)
            .map(|tile| {
                (0..cells)
                    .map(|cell| board.tile_distance(tile as u8, cell))
                    .collect()
            })
            .collect();
        let mut tiles = [0u8; MAX_CELLS];
        tiles[..cells].copy_from_slice(start.tiles());
        Search {
            board,
            order,
            all,
            tables,
            machine,
            next,
            distance,
            tiles,
            path: Vec::new(),
            nodes: 0,
            solutions: Vec::new(),
            stop: None,
        }
    }

    /// What the pass found.
    fn found(self) -> Found {
        Found {
            nodes: self.nodes,
            solutions: self.solutions,
        }
    }

    /// Tries every move from the node whose blank is on `blank`, reached by moving the blank in
    /// direction `came` (none at the root), with `happy` and `sad` moves left and the pruning
    /// machine in `state`. Returns `true` when the search should stop (a solution was found and
    /// not all are wanted).
    fn explore(
        &mut self,
        blank: usize,
        came: Option<Direction>,
        happy: u32,
        sad: u32,
        state: u32,
    ) -> bool {
        let cells = self.board.cells();
        let here = self.tables.table_estimate(&self.tiles[..cells]);
        for d in self.order {
            if came.map(Direction::reverse) == Some(d) {
                continue; // never undo the previous move
            }
            let Some(from) = self.next[blank][d.code() as usize] else {
                continue;
            };
            let Some(state_after) = self.machine.step(state, d) else {
                continue; // it would complete a forbidden word: not generated
            };
            self.nodes += 1;
            if self.nodes.is_multiple_of(Stop::EVERY) {
                if let Some(stop) = self.stop {
                    if stop.should_stop(self.nodes) {
                        return true;
                    }
                }
            }
            let tile = self.tiles[from];
            let is_happy = match here {
                Some(before) => {
                    // The bound of the child, from scratch.
                    self.tiles[blank] = tile;
                    self.tiles[from] = 0;
                    let after = self.tables.table_estimate(&self.tiles[..cells]);
                    self.tiles[from] = tile;
                    self.tiles[blank] = 0;
                    let after = after.unwrap_or(before + 1);
                    debug_assert_eq!(after.abs_diff(before), 1, "a consistent heuristic");
                    after < before
                }
                None => self.distance[tile as usize][blank] < self.distance[tile as usize][from],
            };
            let (happy_left, sad_left) = match (is_happy, happy, sad) {
                (true, 1.., _) => (happy - 1, sad),
                (false, _, 1..) => (happy, sad - 1),
                _ => continue, // this kind of move is used up: pruned
            };
            self.tiles[blank] = tile;
            self.tiles[from] = 0;
            self.path.push(tile);
            let stop = if happy_left == 0 && sad_left == 0 {
                // Manhattan distance 0: the goal.
                debug_assert!(self.tiles[..self.board.cells()]
                    .iter()
                    .enumerate()
                    .all(|(cell, &t)| self.board.home(t) == cell));
                self.solutions.push(self.path.clone());
                !self.all
            } else {
                self.explore(from, Some(d), happy_left, sad_left, state_after)
            };
            self.path.pop();
            self.tiles[from] = tile;
            self.tiles[blank] = 0;
            if stop {
                return true;
            }
        }
        false
    }
}
