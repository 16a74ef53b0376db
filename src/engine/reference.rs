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
//! That search is the one IDA* of both metrics ([`super::ida`]) over the blank's steps
//! ([`super::steps`]) with the bound `h + 2k`: its pass keeps the children with `g + h <= h +
//! 2k`, which are KORF0's, and meets the goal where both kinds of moves are used up. Only the
//! bound's line says `happy+sad`, from the length and the start's Manhattan distance.
//!
//! Node counting follows Korf (1985): the root counts 1 (once, in the first iteration), every generated child
//! counts 1 (including the ones the bound then prunes), the move undoing the previous one is never
//! generated, the goal is recognised when a child is generated, and the search stops at the first
//! solution (unless every optimal solution is wanted).

use super::ida::{self, Bounds, Pass};
use super::parallel::{self, Found, Subtree};
use super::steps::{Node, Scratch, Steps};
use super::{
    Answer, BoundStats, Engine, EngineError, Progress, SearchOptions, SearchOutcome, Solution, Stop,
};
use crate::board::Direction;
use crate::heuristic::Heuristic;
use crate::position::Position;
use crate::prune;

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
        if h == 0 {
            // The start is the goal: the root is the only node (Knuth skips the search here).
            return Ok(SearchOutcome::at_goal(Some(1)));
        }
        let tables = &options.heuristic;
        let machine = &options.prune;
        let split = Split {
            order,
            tables,
            machine,
            stop: options.stop.as_deref(),
        };
        let stop = options.stop.as_deref();
        let lines = Lines { manhattan };
        // The bounds so far, as far as the cut of the next needs them (their nodes and times).
        let mut before: Vec<BoundStats> = Vec::new();
        let mut pass = |length: u32| {
            let clock = std::time::Instant::now();
            let label = || {
                let (happy, sad) = lines.label(length);
                format!("{happy}+{sad}")
            };
            options.bound_starts(true, || format!("{} moves", label()));
            let stopped = || match stop {
                Some(stop) => stop.stopped(label(), true),
                None => EngineError::Limit("stopped".into()),
            };
            if stop.is_some_and(|stop| stop.should_stop(0)) {
                return Err(stopped());
            }
            let sad = (length - h) / 2;
            let found = match options.cut(&before) {
                Some(how) => parallel::search_bound(&split, start, (h + sad, sad), how, options)
                    .ok_or_else(stopped)?,
                None => {
                    let found =
                        split.pass(start, None, (h, prune::Machine::START), length, options.all);
                    if let Some(stop) = stop {
                        stop.spend(found.nodes);
                        if stop.raised() {
                            return Err(stopped());
                        }
                    }
                    found
                }
            };
            super::check_tables(options)?;
            let root = u64::from(before.is_empty());
            before.push(BoundStats::searched(
                (length, manhattan),
                Some(found.nodes + root),
                clock.elapsed().as_secs_f64(),
                found.solutions.len(),
                options.all,
            ));
            Ok(Pass {
                nodes: found.nodes,
                next: u32::MAX,
                solutions: found.solutions,
            })
        };
        ida::deepen(h, &lines, options.all, progress, &mut pass)
    }
}

/// KORF0's bounds: `h + 2k` moves for `k = 0, 1, …`, each named `happy+sad` by the start's
/// Manhattan distance (whatever the heuristic, so that the lines read as Knuth's).
struct Lines {
    manhattan: u32,
}

impl Bounds for Lines {
    fn after(&self, length: u32, _: u32) -> Option<u32> {
        Some(length + 2)
    }

    fn label(&self, length: u32) -> (u32, u32) {
        let manhattan = self.manhattan;
        ((length + manhattan) / 2, (length - manhattan) / 2)
    }

    fn solution(&self, moves: Vec<u8>) -> Option<Solution> {
        Some(Solution::with_length(moves, self.manhattan))
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
        let (happy, sad) = (subtree.happy, subtree.sad);
        let root = (happy - sad, subtree.machine);
        self.pass(&subtree.root, Some(subtree.came), root, happy + sad, all)
    }
}

impl Split<'_> {
    /// The pass of `length` moves below `root`, reached by the blank's move `came` (`None`: the
    /// start), its estimate and the pruning machine's state there `(h, machine)`: its nodes and
    /// solutions (the pieces pushed from `root`).
    fn pass(
        &self,
        root: &Position,
        came: Option<Direction>,
        (h, machine): (u32, u32),
        length: u32,
        all: bool,
    ) -> Found {
        let order = |came: Option<Direction>| parallel::Splittable::order(self, came);
        let estimate = Scratch::new(self.tables, root.board());
        let tree = Steps::new(root, &order, self.machine, &[], estimate);
        let mut search = ida::Search::new(tree, length, all);
        search.stop = self.stop;
        let node = Node {
            blank: root.blank(),
            came,
            h,
            machine,
            state: (),
        };
        let pass = search.run(node, 0);
        Found {
            nodes: pass.nodes,
            solutions: pass.solutions,
        }
    }
}
