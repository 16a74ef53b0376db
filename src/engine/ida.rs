//! One IDA* for both metrics: the depth-first pass of a bound ([`Search`]), its cut into items
//! for other threads or processes ([`cut`]), and the loop of bounds around the passes
//! ([`deepen`]), over a metric's tree ([`Tree`]: the blank's steps in
//! [`super::steps`], the multi-tile metric's jumps in [`crate::mtm::search`]).
//!
//! A pass with the bound `limit` generates the children of a node one by one, keeps those
//! with `g + 1 + h(child) <= limit` and searches below them, and notes the least such `f` it
//! cuts off (the next bound, in MTM). A child whose estimate is 0 is the goal (in STM only at
//! the bound's length, see [`Tree::GOAL_AT_LIMIT`]).
//!
//! This is Knuth's KORF0 too: in STM with a consistent heuristic that changes by exactly one
//! per move, the bound `b = h(start) + 2k` of `h(start) + k` happy moves and `k` sad ones
//! leaves a node `g` moves deep with `(b - g + h) / 2` happy moves and `(b - g - h) / 2` sad
//! ones. A happy child always fits (`g + 1 + h - 1 <= b`), a sad one when a sad move is left
//! (`g + 1 + h + 1 <= b`), and the node with both used up is the one with `h = 0` and
//! `g = b`. So the one pass generates, keeps and counts KORF0's nodes.
//!
//! Node counting follows Korf (1985): every generated child counts 1, including the ones the
//! bound then cuts off; a move the duplicate-pruning machine refuses is not generated; the
//! goal is recognised when a child is generated, and a pass stops at its first solution unless
//! every optimal solution is wanted. (The root counts 1, once, in [`deepen`]'s first bound.)
//!
//! Invariant: the tree's board and path are those of the node being expanded; a child is
//! made, looked at (and searched), then unmade before the next. With a cut at depth `d`, the
//! kept nodes `d` moves deep (deeper where `deeper` of their path says so) are listed as
//! items, in the order one pass meets them and with the nodes it generated before them,
//! instead of searched; solutions met above the cut are items too. So the walk's nodes plus
//! the items' are one pass's, and the items' solutions in list order are its solutions.
//!
//! Speed, one thread unless said, interleaved against the two engines this replaced (2-core
//! machine shared with builds; every node count the same): Korf's 100 with `--engine ida`
//! (6-6-3 tables from scratch), 274-280 s against 378-395 s, as a child's tables are looked
//! up once where KORF0 looked its parent up again to compare; the first 20 of them in MTM
//! (`--metric mtm --engine ida`), 1.79-2.01 s against 1.79-2.43 s. With Manhattan distance
//! the STM reference costs about 10 % more (the 40 of Korf's 100 with the fewest nodes,
//! 415,393,932 nodes: 2.56-2.73 s against 2.30-2.42 s; cachegrind: 16 % more instructions),
//! because every generated child is made on the board before its estimate decides, where
//! KORF0 moved only the children its happy and sad moves kept: the price of one pass for a
//! metric whose estimates need the moved board. The cuts are the same pass, and their
//! searches as fast as before: `--threads 2` on Korf's 100, 1.07-1.31 s against 1.15-1.29 s,
//! and in MTM 2.67-2.99 s against 2.66-2.87 s; Korf & Felner's #38 (6-6-6-6, two threads,
//! 124,734,442 nodes), 3.4-4.6 s against 3.5-5.4 s.

use super::parallel::{Item, Kind};
use super::{
    Answer, BoundStats, EngineError, Progress, SearchOutcome, SearchStats, Solution, Stop,
};
use std::time::Instant;

/// A metric's tree, as a pass walks it: the moves from a node in the metric's order, each made
/// on the tree's board (with the child's estimate) and unmade.
pub trait Tree {
    /// What a node carries besides the board the tree holds: the blank's cell, the move that
    /// reached it, the heuristic's incremental state, the pruning machine's state.
    type Node: Copy;
    /// A move from a node, as [`Tree::step`] finds it.
    type Move: Copy;
    /// A node at a cut, as it is listed for another thread or process to search below.
    type Subtree;

    /// Whether the goal counts only at the bound's length (STM, Knuth's happy and sad moves
    /// both used up; a goal met sooner is passed through) rather than wherever it is met.
    const GOAL_AT_LIMIT: bool;

    /// How many moves there are to look at from `node` (some refused by [`Tree::step`]).
    fn moves(&self, node: &Self::Node) -> usize;

    /// The `i`th move from `node`, in the metric's order, when it is generated: a move on the
    /// board that does not undo or extend the last one, and that the pruning machine lets
    /// through.
    fn step(&self, node: &Self::Node, i: usize) -> Option<Self::Move>;

    /// Makes `m` from `node` on the board and the path: the child and its estimate. The
    /// estimate is exact where it is at most `budget` or below `settled`; elsewhere it is some
    /// value above `budget`, at least `settled` and at most the exact one (so the pass keeps,
    /// counts and cuts off as with the exact one).
    fn make(&mut self, node: &Self::Node, m: Self::Move, budget: (u32, u32)) -> (Self::Node, u32);

    /// Unmakes `m`, made from `node`.
    fn unmake(&mut self, node: &Self::Node, m: Self::Move);

    /// The pieces pushed from the pass's root (after the prefix the tree began with).
    fn path(&self) -> &[u8];

    /// The subtree below `child`, `g` moves deep in the pass of the bound `limit`.
    fn subtree(&self, child: &Self::Node, g: u32, limit: u32) -> Option<Self::Subtree>;
}

/// What one pass within a bound found: the nodes it generated (its root not counted), the
/// least `g + h` it cut off (`u32::MAX`: none), and its solutions (the pieces pushed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    pub nodes: u64,
    pub next: u32,
    pub solutions: Vec<Vec<u8>>,
}

/// A cut: the depth (from the start) where kept nodes are listed, the moves to go on below
/// a node there by its path (0: it is an item), and the items so far.
struct Cut<'a, S> {
    depth: u32,
    deeper: &'a dyn Fn(&[u8]) -> u32,
    items: Vec<Item<S>>,
}

/// One depth-first pass of the bound `limit` over the tree `T`.
pub struct Search<'a, T: Tree> {
    pub tree: T,
    limit: u32,
    all: bool,
    pub nodes: u64,
    /// The least `g + h` cut off so far.
    pub next: u32,
    pub solutions: Vec<Vec<u8>>,
    cut: Option<Cut<'a, T::Subtree>>,
    /// Looked at every [`Stop::EVERY`] nodes: the pass ends when it says so.
    pub stop: Option<&'a Stop>,
}

impl<'a, T: Tree> Search<'a, T> {
    /// The pass of the bound `limit` over `tree`, to its first solution or, with `all`, to
    /// the end.
    pub fn new(tree: T, limit: u32, all: bool) -> Search<'a, T> {
        Search {
            tree,
            limit,
            all,
            nodes: 0,
            next: u32::MAX,
            solutions: Vec::new(),
            cut: None,
            stop: None,
        }
    }

    /// The pass searched from `root`, `g` moves from the start (the tree's board at it).
    pub fn run(mut self, root: T::Node, g: u32) -> Pass {
        self.explore(root, g);
        Pass {
            nodes: self.nodes,
            next: self.next,
            solutions: self.solutions,
        }
    }

    /// Searches below `node`, `g` moves from the start. Returns `true` when the pass should
    /// stop (a solution found and not all wanted, or the stop raised).
    pub fn explore(&mut self, node: T::Node, g: u32) -> bool {
        for i in 0..self.tree.moves(&node) {
            let Some(m) = self.tree.step(&node, i) else {
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
            let g = g + 1;
            let budget = (self.limit.saturating_sub(g), self.next.saturating_sub(g));
            let (child, h) = self.tree.make(&node, m, budget);
            let f = g + h;
            let stop = if h == 0 && (!T::GOAL_AT_LIMIT || f == self.limit) {
                let moves = self.tree.path().to_vec();
                self.list(|_| Some(Kind::Solution(moves.clone())));
                self.solutions.push(moves);
                !self.all
            } else if f > self.limit {
                self.next = self.next.min(f);
                false
            } else if self.at_cut(g) {
                let limit = self.limit;
                self.list(|tree| tree.subtree(&child, g, limit).map(Kind::Subtree));
                false
            } else {
                self.explore(child, g)
            };
            self.tree.unmake(&node, m);
            if stop {
                return true;
            }
        }
        false
    }

    /// Whether a kept node `g` moves from the start is listed rather than searched.
    fn at_cut(&self, g: u32) -> bool {
        self.cut
            .as_ref()
            .is_some_and(|cut| g >= cut.depth && (cut.deeper)(self.tree.path()) == 0)
    }

    /// Lists the item `kind` makes, with the nodes so far (nothing without a cut).
    fn list(&mut self, kind: impl FnOnce(&T) -> Option<Kind<T::Subtree>>) {
        if let Some(cut) = &mut self.cut {
            if let Some(kind) = kind(&self.tree) {
                cut.items.push(Item {
                    before: self.nodes,
                    kind,
                });
            }
        }
    }
}

/// The walk above a cut and what it met: its nodes, the least `g + h` it cut off and its items.
pub struct Walked<S> {
    pub nodes: u64,
    pub next: u32,
    pub items: Vec<Item<S>>,
}

/// The cut of the bound `limit` below `root`, `g` moves from the start, at the shallowest depth
/// below it that lists at least `wanted` subtrees (or none deeper), going on below a node at
/// the cut while `deeper` of its path is not 0; `tree()` is the board at `root`. With `all`
/// every item is listed; without it the walk ends at its first solution, as a pass does.
pub fn cut<T: Tree>(
    tree: &dyn Fn() -> T,
    (root, g): (T::Node, u32),
    (limit, all): (u32, bool),
    wanted: usize,
    deeper: &dyn Fn(&[u8]) -> u32,
) -> Walked<T::Subtree> {
    let mut depth = 1;
    loop {
        let mut walk = Search::new(tree(), limit, all);
        walk.cut = Some(Cut {
            depth: g + depth,
            deeper,
            items: Vec::new(),
        });
        walk.explore(root, g);
        let items = walk.cut.map(|cut| cut.items).unwrap_or_default();
        let subtrees = items
            .iter()
            .filter(|i| matches!(i.kind, Kind::Subtree(_)))
            .count();
        if subtrees == 0 || subtrees >= wanted || g + depth >= limit {
            return Walked {
                nodes: walk.nodes,
                next: walk.next,
                items,
            };
        }
        depth += 1;
    }
}

/// How a metric steps its bounds and names them.
pub trait Bounds {
    /// The bound after `limit`, whose pass cut off `next` at least (`u32::MAX`: nothing);
    /// `None` when there is none.
    fn after(&self, limit: u32, next: u32) -> Option<u32>;

    /// The bound `limit` as its line shows it: `(happy, sad)` moves (MTM: `(limit, 0)`).
    fn label(&self, limit: u32) -> (u32, u32);

    /// The solution of the pieces pushed `moves` from the start.
    fn solution(&self, moves: Vec<u8>) -> Option<Solution>;
}

/// IDA* around `pass`, the depth-first pass of one bound: bounds from `first` (0: the start is
/// the goal), each following the one before by `bounds`, until a pass finds a solution or no
/// bound follows; each finished bound is told to `progress`, the root counted 1 in the first.
pub fn deepen(
    first: u32,
    bounds: &impl Bounds,
    all: bool,
    progress: Progress<'_>,
    pass: &mut dyn FnMut(u32) -> Result<Pass, EngineError>,
) -> Answer {
    let mut limit = first;
    let mut lines = Vec::new();
    loop {
        let clock = Instant::now();
        let found = if limit == 0 {
            Pass {
                nodes: 0,
                next: u32::MAX,
                solutions: vec![Vec::new()],
            }
        } else {
            pass(limit)?
        };
        let (happy, sad) = bounds.label(limit);
        let stats = BoundStats {
            happy,
            sad,
            nodes: Some(found.nodes + u64::from(lines.is_empty())),
            seconds: clock.elapsed().as_secs_f64(),
            completed: all || found.solutions.is_empty(),
            solutions: found.solutions.len() as u64,
        };
        progress(&stats);
        lines.push(stats);
        let after = bounds.after(limit, found.next);
        match after {
            Some(after) if found.solutions.is_empty() => limit = after,
            _ => {
                let solutions = found
                    .solutions
                    .into_iter()
                    .filter_map(|moves| bounds.solution(moves))
                    .collect();
                return Ok(SearchOutcome {
                    solutions,
                    stats: SearchStats::from_bounds(lines),
                });
            }
        }
    }
}
