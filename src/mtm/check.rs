//! What "the MTM engines agree" means, for `crosscheck` and `compare` with `--metric mtm`.
//!
//! For every engine that answered: each solution replays to the goal and its happy/sad split
//! is its STM path's; every engine reports the same number of MTM moves (the runs of its
//! path); an IDA* engine's solution is as long as its last bound; and IDA* engines generated
//! the same nodes in every bound they both searched completely (the tree of a bound does not
//! depend on the order of the children). An engine that declined a position for a limit or a
//! board is skipped, as in [`crate::differential`].

use super::moves::length;
use crate::differential::{answers, unsound, EngineRun};
use crate::engine::SearchOutcome;
use crate::position::Position;

/// Node counts of the completed bounds: (bound, nodes).
type BoundNodes = Vec<(u32, Option<u64>)>;

/// The MTM length of an outcome's first solution.
pub fn outcome_length(start: &Position, outcome: &SearchOutcome) -> Option<usize> {
    outcome
        .solutions
        .first()
        .and_then(|s| length(start, &s.moves))
}

/// What a run found, in words (MTM moves).
pub fn summary(start: &Position, run: &EngineRun) -> String {
    match &run.result {
        Ok(outcome) => match outcome_length(start, outcome) {
            Some(length) => format!("{length} moves"),
            None => "no solution".into(),
        },
        Err(error) => format!("error: {error}"),
    }
}

/// Everything wrong with a set of MTM answers to `start`; empty when they all agree.
pub fn disagreements(start: &Position, runs: &[EngineRun]) -> Vec<String> {
    let (answered, mut problems) = answers(runs);
    for (run, outcome) in &answered {
        problems.extend(unsound(start, run, outcome));
        let first = outcome_length(start, outcome);
        for solution in outcome.solutions.iter().filter(|s| s.solves(start)) {
            if length(start, &solution.moves) != first {
                problems.push(format!(
                    "{}: optimal solutions of different lengths",
                    run.engine
                ));
            }
        }
        let last = outcome.stats.bounds.last().map(|b| b.happy as usize);
        if first.is_some() && last != first {
            problems.push(format!(
                "{}: {} MTM moves found in the bound of {}",
                run.engine,
                first.unwrap_or(0),
                last.unwrap_or(0)
            ));
        }
    }
    let lengths: Vec<Option<usize>> = answered
        .iter()
        .map(|(_, o)| outcome_length(start, o))
        .collect();
    if lengths.windows(2).any(|pair| pair[0] != pair[1]) {
        let said: Vec<String> = answered
            .iter()
            .map(|(run, _)| format!("{} {}", run.engine, summary(start, run)))
            .collect();
        problems.push(format!("lengths differ: {}", said.join(", ")));
    }
    let counted: Vec<(&EngineRun, BoundNodes)> = answered
        .iter()
        .filter(|(run, _)| run.iterative_deepening)
        .map(|(run, outcome)| (*run, outcome.stats.completed_nodes()))
        .collect();
    for (i, (run, nodes)) in counted.iter().enumerate().skip(1) {
        let (first, first_nodes) = &counted[0];
        for (bound, count) in nodes {
            if let Some((_, other)) = first_nodes.iter().find(|(b, _)| b == bound) {
                if other != count {
                    problems.push(format!(
                        "nodes in the completed bound of {bound} moves differ: {} {other:?}, {} {count:?}",
                        first.engine, run.engine
                    ));
                }
            }
        }
        let _ = i;
    }
    problems
}
