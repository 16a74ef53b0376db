//! What a plan of `fifteen shard` searches, in either metric and toward any goal: the
//! [`Problem`] (the start and goal as given, and the standard problem the engines search, see
//! [`crate::goal`]) and the metric's [`Searcher`] (the single-tile heuristic and pruning
//! machine, or the MTM lower bound and machine of jump words), which cuts a bound into items
//! and searches one item.
//!
//! Invariant: plans and results hold paths of the standard problem, as the engines find them;
//! only the lines of `merge` turn them back into the tiles of the start ([`Problem::back`]).
//! A planner and a worker that make a `Searcher` of one plan's fields make the same one (its
//! name and checksums say so, [`Searcher::name`], [`Searcher::checksums`]).

use super::shard::PlanItem;
use super::{Failure, HeuristicArgs};
use crate::engine::parallel::{self, Found, Kind};
use crate::engine::{shard, EngineKind, Stop};
use crate::goal::Goal;
use crate::heuristic::store::Choice;
use crate::heuristic::Heuristic;
use crate::mtm::bound::LowerBound;
use crate::mtm::{self, Metric};
use crate::position::{Convention, Position};
use crate::prune::{Machine, Prune};
use std::sync::Arc;

/// The problem of a plan.
pub struct Problem {
    /// The start as given, and its convention.
    pub start: Position,
    pub convention: Convention,
    /// `--goal`, if given.
    pub goal: Option<Goal>,
    /// The start of the standard problem: the engines search from here.
    pub searched: Position,
}

impl Problem {
    /// The problem from `start` toward `goal` (the convention's without one).
    pub fn new(
        start: Position,
        convention: Convention,
        goal: Option<Goal>,
    ) -> Result<Problem, Failure> {
        let searched = match &goal {
            Some(goal) => goal
                .standard(&start)
                .map_err(|error| Failure::BadInput(error.to_string()))?,
            None => start,
        };
        Ok(Problem {
            start,
            convention,
            goal,
            searched,
        })
    }

    /// The tiles pushed on a path of the standard problem, as pushed from the start.
    pub fn back(&self, moves: &[u8]) -> Vec<u8> {
        match &self.goal {
            Some(goal) => goal.tiles_back(moves),
            None => moves.to_vec(),
        }
    }

    /// The engine that cuts and searches in `metric`: the one `named`, or by default the
    /// automaton, except in MTM where it is not generated; never bfs.
    pub fn engine(&self, metric: Metric, named: Option<EngineKind>) -> Result<EngineKind, Failure> {
        let kind = match named {
            Some(kind) => kind,
            None if metric == Metric::Mtm => {
                super::mtm::solve_kind(None, Some(self.searched.board()))
            }
            None => EngineKind::Automaton,
        };
        if kind == EngineKind::Bfs {
            return Err(Failure::BadInput(
                "shard cuts the bounds of the IDA* engines: --engine automaton or ida, not bfs"
                    .into(),
            ));
        }
        Ok(kind)
    }
}

/// What cuts a bound into items and searches them, in one metric.
pub enum Searcher {
    /// The single-tile metric: the heuristic and the duplicate-pruning machine.
    Stm(Heuristic, Arc<Machine>),
    /// The multi-tile metric: the lower bound and the machine of jump words.
    Mtm(Arc<LowerBound>, Arc<Machine>),
}

/// What one item's search found: its nodes and solutions, and in MTM the least `g + h` cut off.
pub struct ItemFound {
    pub found: Found,
    pub next: Option<u32>,
}

impl Searcher {
    /// The searcher of `metric` for `board` (the standard problem's) with the heuristic,
    /// tables and pruning of `args`, every optimal solution when `all`.
    pub fn new(
        metric: Metric,
        args: &HeuristicArgs,
        all: bool,
        board: crate::board::Board,
    ) -> Result<Searcher, Failure> {
        match metric {
            Metric::Stm => {
                let heuristic = args.resolve(board, Choice::Default, true)?;
                let machine = args.machine(&heuristic, all)?;
                Ok(Searcher::Stm(heuristic, machine))
            }
            Metric::Mtm => {
                let tables = args.tables.as_deref();
                let config =
                    super::mtm::config(args.heuristic.as_ref(), tables, (args.prune, all))?;
                super::mtm::check_board(&config, board).map_err(Failure::BadInput)?;
                let bound = mtm::tables::lower_bound(board, &config);
                let machine = mtm::tables::machine(board, &config, all);
                Ok(Searcher::Mtm(bound, machine))
            }
        }
    }

    /// The heuristic's name, as `--heuristic` takes it back.
    pub fn name(&self) -> String {
        match self {
            Searcher::Stm(heuristic, _) => heuristic.name(),
            Searcher::Mtm(bound, _) if bound.table.is_some() => "relabel".into(),
            Searcher::Mtm(..) => "walking".into(),
        }
    }

    /// The CRC-32 (hex) of each table the search reads: the pattern databases' in the
    /// partition's order, or the relabelled 4x4 table's bytes.
    pub fn checksums(&self) -> Vec<String> {
        let crcs = match self {
            Searcher::Stm(heuristic, _) => heuristic.checksums(),
            Searcher::Mtm(bound, _) => bound
                .table
                .iter()
                .map(|table| crc32fast::hash(table.bytes()))
                .collect(),
        };
        crcs.iter().map(|crc| format!("{crc:08x}")).collect()
    }

    /// Whether it reads pattern databases (the single-tile metric's tables).
    pub fn has_tables(&self) -> bool {
        matches!(self, Searcher::Stm(heuristic, _) if heuristic.has_tables())
    }

    /// The duplicate pruning searched with.
    pub fn prune(&self) -> Prune {
        let (Searcher::Stm(_, machine) | Searcher::Mtm(_, machine)) = self;
        match machine.is_none() {
            true => Prune::None,
            false => Prune::Fsm,
        }
    }

    /// The estimate of `start`: the first bound's, `happy - sad` in STM and the bound in MTM.
    pub fn estimate(&self, start: &Position) -> u32 {
        match self {
            Searcher::Stm(heuristic, _) => heuristic.estimate(start),
            Searcher::Mtm(bound, _) => bound.estimate(start),
        }
    }

    /// Damage found in the tables read so far, if any.
    pub fn damage(&self) -> Option<String> {
        match self {
            Searcher::Stm(heuristic, _) => heuristic.damage(),
            Searcher::Mtm(..) => None,
        }
    }

    /// The cut of the bound `(happy, sad)` (MTM: `happy`) from `start` by the engine `kind`,
    /// with at least `wanted` subtrees where the tree has them, deeper where `splits` says, in
    /// the walk's order or (`best_first`, single-tile metric) [`parallel::best_first`]'s: the
    /// nodes above the cut, in MTM the least `g + h` cut off there, and the items.
    pub fn cut(
        &self,
        kind: EngineKind,
        start: &Position,
        ((happy, sad), all): ((u32, u32), bool),
        (wanted, best_first): (usize, bool),
        splits: &shard::Splits,
    ) -> Result<(u64, Option<u32>, Vec<PlanItem>), Failure> {
        match self {
            Searcher::Stm(heuristic, machine) => {
                let bound = (happy, sad);
                let (above, mut items) =
                    shard::plan(kind, heuristic, machine, start, bound, wanted, splits)
                        .map_err(Failure::bad_input)?;
                if best_first {
                    items = parallel::best_first(heuristic, start, above, items);
                }
                let items = items.into_iter().map(|item| match item.kind {
                    Kind::Subtree(subtree) => {
                        (item.before, subtree.path, subtree.happy, subtree.sad)
                    }
                    Kind::Solution(moves) => (item.before, moves, 0, 0),
                });
                Ok((above, None, items.map(PlanItem::from).collect()))
            }
            Searcher::Mtm(bound, machine) => {
                let deeper = |path: &[u8]| splits.deeper(path);
                let searched = (bound.as_ref(), machine.as_ref());
                let cut = mtm::shard::plan(start, searched, (happy, all), wanted, &deeper);
                let items = cut.items.into_iter().map(|item| match item.kind {
                    Kind::Subtree(subtree) => (item.before, subtree.path, happy - subtree.g, 0),
                    Kind::Solution(moves) => (item.before, moves, 0, 0),
                });
                let next = (cut.next != u32::MAX).then_some(cut.next);
                Ok((cut.above, next, items.map(PlanItem::from).collect()))
            }
        }
    }

    /// Searches `item` of the bound `(happy, sad)` (MTM: `happy`) from `start` with the engine
    /// `kind`, to the end (`all`) or to its first solution, looking at `stop` as it goes:
    /// `Ok(None)` when it ended the search; an error names an item that is no node of the
    /// bound.
    pub fn search(
        &self,
        kind: EngineKind,
        start: &Position,
        item: &PlanItem,
        ((happy, _), all): ((u32, u32), bool),
        stop: Option<&Stop>,
    ) -> Result<Option<ItemFound>, Failure> {
        let not_a_node = || {
            Failure::BadInput("does not lead to a node of the bound (the plan was changed)".into())
        };
        match self {
            Searcher::Stm(heuristic, machine) => {
                let subtree =
                    shard::subtree(heuristic, machine, start, &item.moves, item.happy, item.sad)
                        .ok_or_else(not_a_node)?;
                let found = match stop {
                    None => shard::search(kind, heuristic, machine, &subtree, all).map(Some),
                    Some(stop) => {
                        shard::search_stopping(kind, heuristic, machine, &subtree, all, stop)
                    }
                };
                let found = found.map_err(Failure::bad_input)?;
                Ok(found.map(|found| ItemFound { found, next: None }))
            }
            Searcher::Mtm(bound, machine) => {
                let searched = (bound.as_ref(), machine.as_ref());
                let subtree = mtm::shard::subtree(start, searched, &item.moves, happy)
                    .filter(|subtree| subtree.g + item.happy == happy)
                    .ok_or_else(not_a_node)?;
                let found = mtm::shard::search(kind, searched, &subtree, (happy, all), stop)
                    .map_err(Failure::bad_input)?;
                Ok(found.map(|pass| ItemFound {
                    found: Found {
                        nodes: pass.nodes,
                        solutions: pass.solutions,
                    },
                    next: (pass.next != u32::MAX).then_some(pass.next),
                }))
            }
        }
    }
}
