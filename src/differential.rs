//! Differential checking: several engines answer the same position, and their answers are
//! checked against the position and against each other.
//!
//! What must hold for every engine that answered: each solution replays move by move to the goal;
//! its happy/sad split is the replay's and `happy - sad` is the start's Manhattan distance; every
//! engine reports the same optimal length; and engines that search bound by bound (the IDA*
//! engines) generated exactly the same number of nodes in every bound they searched completely
//! with the same heuristic — the trees of a completed bound are the same whatever the order of
//! the children.
//! An engine that declines a position for a limit (the BFS engine's memory) or a board it
//! cannot search is *skipped*, which is reported but is not a disagreement.

use crate::engine::{Engine, EngineError, SearchOptions, SearchOutcome};
use crate::position::{Convention, Position};
use std::time::Instant;

/// One engine's answer to one position.
#[derive(Clone, Debug)]
pub struct EngineRun {
    pub engine: &'static str,
    /// Whether the engine's per-bound node counts are Korf's IDA* counts (comparable).
    pub iterative_deepening: bool,
    /// The heuristic it searched with (node counts compare only between equal heuristics).
    pub heuristic: String,
    pub result: Result<SearchOutcome, EngineError>,
    /// Wall-clock seconds of the whole call.
    pub seconds: f64,
}

impl EngineRun {
    /// Runs `engine` on `start`.
    pub fn new(engine: &dyn Engine, start: &Position, options: &SearchOptions) -> EngineRun {
        let clock = Instant::now();
        let result = engine.solve(start, options, &mut |_| {});
        EngineRun {
            engine: engine.name(),
            iterative_deepening: engine.iterative_deepening(),
            heuristic: options.heuristic.name(),
            result,
            seconds: clock.elapsed().as_secs_f64(),
        }
    }

    /// The length found, or why there is none.
    pub fn summary(&self) -> String {
        match &self.result {
            Ok(outcome) => match outcome.length() {
                Some(length) => format!("{} moves", length),
                None => "no solution".to_string(),
            },
            Err(error) => format!("error: {error}"),
        }
    }

    /// `Some(reason)` when the engine declined the position: a limit (the BFS engine's
    /// memory), or a board it has no search for.
    pub fn skipped(&self) -> Option<String> {
        match &self.result {
            Err(EngineError::Limit(reason)) => Some(reason.clone()),
            Err(error @ EngineError::UnsupportedBoard { .. }) => Some(error.to_string()),
            _ => None,
        }
    }
}

/// Node counts of the completed bounds: (length, nodes).
type BoundNodes = Vec<(u32, Option<u64>)>;

/// The runs that answered with their outcomes, and a problem for every run that failed
/// (declining a position for a limit or a board is not a failure).
pub fn answers(runs: &[EngineRun]) -> (Vec<(&EngineRun, &SearchOutcome)>, Vec<String>) {
    let mut problems = Vec::new();
    let mut answered: Vec<(&EngineRun, &SearchOutcome)> = Vec::new();
    for run in runs {
        match &run.result {
            Ok(outcome) => answered.push((run, outcome)),
            Err(EngineError::Limit(_) | EngineError::UnsupportedBoard { .. }) => {}
            Err(error) => problems.push(format!("{} failed: {error}", run.engine)),
        }
    }
    (answered, problems)
}

/// What is wrong with one answer to `start` alone, in either metric: no solution, or a
/// solution whose moves do not replay to the goal or whose happy+sad split is not its moves'.
pub fn unsound(start: &Position, run: &EngineRun, outcome: &SearchOutcome) -> Vec<String> {
    let mut problems = Vec::new();
    if outcome.solutions.is_empty() {
        problems.push(format!("{} found no solution", run.engine));
    }
    let manhattan = start.manhattan();
    for solution in &outcome.solutions {
        let moves = start.moves_notation(&solution.moves, Convention::Knuth);
        if !solution.solves(start) {
            problems.push(format!(
                "{}: moves {moves} do not replay to the goal",
                run.engine
            ));
        } else if crate::engine::Solution::from_moves(start, solution.moves.clone()).as_ref()
            != Some(solution)
            || (solution.happy as usize).checked_sub(solution.sad as usize) != Some(manhattan)
        {
            problems.push(format!(
                "{}: {}+{} is not the happy+sad split of {moves}",
                run.engine, solution.happy, solution.sad
            ));
        }
    }
    problems
}

/// Everything wrong with a set of answers to `start`; empty when they all agree.
pub fn disagreements(start: &Position, runs: &[EngineRun]) -> Vec<String> {
    let (answered, mut problems) = answers(runs);
    for (run, outcome) in &answered {
        problems.extend(unsound(start, run, outcome));
    }
    let lengths: Vec<String> = answered
        .iter()
        .map(|(run, outcome)| format!("{} {}", run.engine, run_length(outcome)))
        .collect();
    let first_length = answered.first().map(|(_, o)| o.length());
    if answered
        .iter()
        .any(|(_, o)| Some(o.length()) != first_length)
    {
        problems.push(format!("lengths differ: {}", lengths.join(", ")));
    }
    let counted: Vec<(&EngineRun, BoundNodes)> = answered
        .iter()
        .filter(|(run, outcome)| run.iterative_deepening && outcome.stats.nodes.is_some())
        .map(|(run, outcome)| (*run, outcome.stats.completed_nodes()))
        .collect();
    for (i, (run, nodes)) in counted.iter().enumerate() {
        // Against the first run with the same heuristic.
        let Some((first, first_nodes)) = counted[..i]
            .iter()
            .find(|(other, _)| other.heuristic == run.heuristic)
        else {
            continue;
        };
        // Compare the bounds both searched completely.
        for (length, count) in nodes {
            if let Some((_, other)) = first_nodes.iter().find(|(l, _)| l == length) {
                if other != count {
                    problems.push(format!(
                        "nodes in the completed bound of {length} moves differ: {} {}, {} {}",
                        first.engine,
                        other.map_or("-".into(), |n| n.to_string()),
                        run.engine,
                        count.map_or("-".into(), |n| n.to_string()),
                    ));
                }
            }
        }
    }
    problems
}

fn run_length(outcome: &SearchOutcome) -> String {
    outcome
        .length()
        .map_or("none".to_string(), |l| format!("{l} moves"))
}
