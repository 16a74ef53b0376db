//! What `solve`'s flags make of a search, in either metric: the flags that mean nothing with
//! the chosen metric and engine refused once ([`Solver::new`]), then for each board the engine
//! and its options ([`Solver::search`]). One position and `--file` plan alike.
//!
//! Invariant: a search's engine counts in `--metric`'s moves and is the one named, or the
//! metric's default for the board (STM: the automaton; MTM: the automaton where it is
//! generated, else ida); it searches toward `--goal` when there is one.

use super::solve::SolveArgs;
use super::Failure;
use crate::board::Board;
use crate::engine::{Engine, EngineKind, SearchOptions};
use crate::goal::Goal;
use crate::heuristic::store::Choice;
use crate::heuristic::Heuristic;
use crate::mtm::{Config, Metric};
use std::sync::Arc;

/// The metric's engines as `solve`'s flags choose them.
pub enum Solver {
    /// The single-tile engines: `--engine`, with the heuristic resolved for each board.
    Stm,
    /// The MTM engines built with `config`; `named` when `--engine` was given.
    Mtm {
        config: Config,
        named: Option<EngineKind>,
    },
}

/// One search ready to run: its engine (toward the goal, if any), which it is, and its options
/// (without progress and stop, which the caller adds).
pub struct Search {
    pub kind: EngineKind,
    pub engine: Box<dyn Engine>,
    pub options: SearchOptions,
}

impl Solver {
    /// The solver of `args` (`engine_given`: whether `--engine` was on the command line), once
    /// the flags that mean nothing with its metric and engine are refused.
    pub fn new(args: &SolveArgs, engine_given: bool) -> Result<Solver, Failure> {
        match args.metric {
            Metric::Stm => refuse_in_stm(args).map(|()| Solver::Stm),
            Metric::Mtm => {
                let config = super::mtm::config(
                    args.heuristic.heuristic.as_ref(),
                    args.heuristic.tables.as_deref(),
                    (args.heuristic.prune, args.all),
                )?;
                let named = engine_given.then_some(args.engine);
                refuse_in_mtm(args, super::mtm::solve_kind(named, None))?;
                Ok(Solver::Mtm { config, named })
            }
        }
    }

    /// The engine that searches `board`.
    fn kind(&self, args: &SolveArgs, board: Board) -> EngineKind {
        match self {
            Solver::Stm => args.engine,
            Solver::Mtm { named, .. } => super::mtm::solve_kind(*named, Some(board)),
        }
    }

    /// Why the flags cannot search `board`, if they cannot (before any search is made).
    pub fn check_board(&self, board: Board) -> Result<(), String> {
        match self {
            Solver::Stm => Ok(()),
            Solver::Mtm { config, .. } => super::mtm::check_board(config, board),
        }
    }

    /// The heuristic of the STM engines on `board` (none for bfs, which refuses one), its
    /// tables read `lazy`ly or whole (see [`super::HeuristicArgs::resolve`]); the MTM engines
    /// carry their lower bound in their configuration.
    pub fn heuristic(
        &self,
        args: &SolveArgs,
        board: Board,
        lazy: bool,
    ) -> Result<Heuristic, Failure> {
        match self {
            Solver::Mtm { .. } => Ok(Heuristic::Manhattan),
            Solver::Stm if args.engine != EngineKind::Bfs => {
                args.heuristic.resolve(board, Choice::Default, lazy)
            }
            Solver::Stm if args.heuristic.heuristic.is_some() => Err(Failure::BadInput(
                "--heuristic is for the IDA* engines; bfs needs no lower bound".into(),
            )),
            Solver::Stm => Ok(Heuristic::Manhattan),
        }
    }

    /// The search of `board` with `heuristic` toward `goal`: the STM automaton and ida on
    /// `--threads` threads, as the MTM automaton; the other MTM engines on one.
    pub fn search(
        &self,
        args: &SolveArgs,
        board: Board,
        heuristic: Heuristic,
        goal: Option<&Goal>,
    ) -> Result<Search, Failure> {
        let kind = self.kind(args, board);
        let (engine, prune, threads) = match self {
            Solver::Stm => (
                kind.engine(),
                args.heuristic.machine(&heuristic, args.all)?,
                args.threads.count(),
            ),
            Solver::Mtm { config, .. } => (
                super::mtm::engine(kind, config)?,
                Arc::default(),
                match kind {
                    EngineKind::Automaton => args.threads.count(),
                    _ => 1,
                },
            ),
        };
        let options = SearchOptions {
            all: args.all,
            count_nodes: args.count_nodes(),
            order: args.order,
            memory_limit: args.memory,
            heuristic,
            prune,
            threads,
            ..SearchOptions::default()
        };
        Ok(Search {
            kind,
            engine: super::GoalArgs::engine(goal, engine),
            options,
        })
    }
}

/// Refuses what means nothing with the chosen STM engine.
fn refuse_in_stm(args: &SolveArgs) -> Result<(), Failure> {
    if args.engine == EngineKind::Bfs && args.all {
        return Err(Failure::BadInput(
            "--all is for the IDA* engines, not with bfs (it finds one shortest solution)".into(),
        ));
    }
    if args.engine == EngineKind::Bfs && args.heuristic.prune.is_some() {
        return Err(Failure::BadInput(
            "--prune is for the IDA* engines, not with bfs (it meets each position once)".into(),
        ));
    }
    if args.engine != EngineKind::Bfs && args.memory.is_some() {
        return Err(Failure::BadInput(format!(
            "--memory bounds the bfs engine's table; the {} engine stores no positions (add --engine bfs, or leave --memory out)",
            args.engine
        )));
    }
    Ok(())
}

/// Refuses what means nothing in MTM with the engine `kind` (on a board not yet known):
/// `--order`, `--threads` above 1 but with the automaton, and what bfs does not take.
fn refuse_in_mtm(args: &SolveArgs, kind: EngineKind) -> Result<(), Failure> {
    let refuse = |what: &str| Err(Failure::BadInput(format!("{what} with --metric mtm")));
    let bfs = kind == EngineKind::Bfs;
    if args.order.is_some() {
        return refuse("--order is for the STM reference engine, not");
    }
    if bfs && args.heuristic.prune.is_some() {
        return refuse("--prune is for the IDA* engines; bfs meets each position once, not");
    }
    if bfs && args.heuristic.heuristic.is_some() {
        return refuse("--heuristic is for the IDA* engine; bfs needs no lower bound, not");
    }
    if kind != EngineKind::Automaton && args.threads.threads.is_some_and(|n| n > 1) {
        // The engine refuses, not the metric (issue 41).
        return Err(Failure::BadInput(format!(
            "--engine {kind} searches on one thread in MTM (only the automaton searches on several): \
             drop --threads, or use --engine automaton"
        )));
    }
    if bfs && args.all {
        return refuse("--all is for the IDA* engine, not with bfs");
    }
    if !bfs && args.memory.is_some() {
        return refuse("--memory bounds the bfs engine's table; the MTM IDA* engines store no positions (add --engine bfs, or leave --memory out)");
    }
    Ok(())
}
