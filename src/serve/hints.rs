//! The live answers of a game: a position's optimal distance in both metrics, and which of its
//! moves keep to an optimal path. Every move can be undone, so the distance of a position other
//! than the goal is one more than the least distance of the positions one move away, and the
//! optimal moves are those reaching that least distance: the children alone are searched (in
//! parallel), in STM (the blank one cell) and in MTM (the blank 1 to side-1 cells along a line).

use super::search::{solve, Config, Refusal, Request, SMALL};
use crate::board::Direction;
use crate::engine::Stop;
use crate::position::Position;
use rayon::prelude::*;
use std::sync::Arc;

/// The positions one move of `metric` away from `start`.
pub fn children(start: &Position, metric: &str) -> Vec<Position> {
    let mut children = Vec::new();
    for direction in Direction::ALL {
        let mut child = *start;
        while child.move_blank(direction).is_some() {
            children.push(child);
            if metric == "stm" {
                break;
            }
        }
    }
    children
}

/// The hints of `request`'s position (its metric ignored: both are given): its notation, board
/// and goal, whether it is solvable, and (on boards of at most [`SMALL`] cells; larger ones' distances are searched by `/api/stream`) for each metric the distance and every move's child
/// with its distance and whether it is optimal.
pub fn hints(
    config: &Config,
    request: &Request,
    stop: Arc<Stop>,
) -> Result<serde_json::Value, Refusal> {
    let (args, _) = request.solve_args(config)?;
    let convention = args.board.convention;
    let start = Position::parse(&args.position.join(" "), args.board.size, convention)
        .map_err(Refusal::bad)?;
    let goal = args
        .goal
        .read(Some(start.board()), convention)
        .map_err(Refusal::from_failure)?;
    let solvable = crate::cli::solve::reachable(&start, goal.as_ref()).map_err(Refusal::bad)?;
    let at_goal = match &goal {
        Some(goal) => goal.standard(&start).is_ok_and(|s| s.is_goal()),
        None => start.is_goal(),
    };
    let mut report = serde_json::json!({
        "position": start.notation(convention),
        "board": start.board().to_string(),
        "convention": convention,
        "goal": goal.as_ref().map(|g| g.position().notation(convention)),
        "solvable": solvable,
    });
    // A board of more than 16 cells: its searches may take minutes, each streamed on its own.
    if !solvable || start.board().cells() > SMALL {
        return Ok(report);
    }
    let jobs: Vec<(&str, String)> = ["stm", "mtm"]
        .into_iter()
        .flat_map(|metric| {
            let children = if at_goal {
                Vec::new()
            } else {
                children(&start, metric)
            };
            children
                .into_iter()
                .map(move |child| (metric, child.notation(convention)))
        })
        .collect();
    let lengths: Vec<(u64, u64)> = jobs
        .par_iter()
        .map(|(metric, child)| {
            let answer = solve(
                config,
                &request.at(child.clone(), metric),
                stop.clone(),
                None,
            )?;
            let length = answer["length"].as_u64();
            let nodes = answer["nodes"].as_u64().unwrap_or(0);
            length
                .map(|length| (length, nodes))
                .ok_or_else(|| Refusal::internal("a child's search gave no length"))
        })
        .collect::<Result<_, _>>()?;
    for metric in ["stm", "mtm"] {
        let found: Vec<(&String, u64, u64)> = jobs
            .iter()
            .zip(&lengths)
            .filter(|((m, _), _)| *m == metric)
            .map(|((_, child), &(length, nodes))| (child, length, nodes))
            .collect();
        let least = found.iter().map(|&(_, length, _)| length).min();
        let moves: Vec<serde_json::Value> = found
            .iter()
            .map(|&(child, length, _)| {
                serde_json::json!({
                    "position": child,
                    "distance": length,
                    "optimal": Some(length) == least,
                })
            })
            .collect();
        report[metric] = serde_json::json!({
            "distance": least.map_or(0, |least| least + 1),
            "moves": moves,
            "nodes": found.iter().map(|&(_, _, nodes)| nodes).sum::<u64>(),
        });
    }
    Ok(report)
}
