//! The live answers of a game: a position's optimal distance in both metrics, and which of its
//! moves keep to an optimal path. Every move can be undone, so a child (the position one move
//! away) of a position at distance `d` is at `d - 1`, `d` or `d + 1` (in STM never `d`: a move
//! changes the position's parity); the position's distance is one more than its nearest
//! child's, and the optimal moves are those to its nearest children.
//!
//! The children of both metrics are searched side by side, each on a thread of its own, as a
//! race ([`Race`]): once one has a solution of `b` moves, any other that has searched a bound
//! of `b` moves or more without one is stopped, since it is farther. So no child searches far
//! beyond the nearest one's bound: the bounds above, which cost the most, are never searched.
//! Where the position's distance `d` is [`Known`] (a player's next position is one of the
//! children just searched), the race starts as if one had a solution of `d - 1` moves.
//!
//! Invariant: a move is marked optimal exactly when its child's distance is the least; a child
//! searched to its end has its distance, a stopped one has `d + 1` in STM and `at_least` `d`
//! in MTM.

use super::search::{solve, Config, Refusal, Request, SMALL};
use crate::board::Direction;
use crate::engine::{Cause, Stop};
use crate::position::Position;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
/// and goal, whether it is solvable, and (on boards of at most [`SMALL`] cells; larger ones'
/// distances are searched by `/api/stream`) for each metric the distance and every move's
/// child with its distance (or the least it can be) and whether it is optimal.
pub fn hints(
    config: &Config,
    request: &Request,
    stop: Arc<Stop>,
) -> Result<serde_json::Value, Refusal> {
    let (args, _) = request.solve_args(config)?;
    let convention = args.board.convention;
    let start = crate::cli::solve::parse_start(&args).map_err(Refusal::from_failure)?;
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
    let metrics = ["stm", "mtm"];
    let goal = goal.map(|g| g.position().notation(convention));
    let key = |metric: &str, position: &Position| {
        let board = position.board();
        let notation = position.notation(convention);
        format!("{metric} {board} {convention:?} {goal:?} {notation}")
    };
    // Each metric's children, and every child as a job: its metric and its place there.
    let moved: [Vec<Position>; 2] = metrics.map(|metric| match at_goal {
        true => Vec::new(),
        false => children(&start, metric),
    });
    let jobs: Vec<(usize, usize, Position)> = (moved.iter().enumerate())
        .flat_map(|(m, them)| them.iter().enumerate().map(move |(i, &c)| (m, i, c)))
        .collect();
    let races: [Race; 2] = std::array::from_fn(|m| {
        let known = config.known.get(&key(metrics[m], &start));
        Race::new(moved[m].len(), known.and_then(|d| d.checked_sub(1)), &stop)
    });
    let found: Vec<Result<Child, Refusal>> = std::thread::scope(|scope| {
        let threads: Vec<_> = jobs
            .iter()
            .map(|&(m, place, child)| {
                let request = request.at(child.notation(convention), metrics[m]);
                let race = &races[m];
                scope.spawn(move || race.run(config, &request, place))
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|_| Err(Refusal::internal("a child's search failed")))
            })
            .collect()
    });
    let found: Vec<Child> = found.into_iter().collect::<Result<_, _>>()?;
    for (m, metric) in metrics.into_iter().enumerate() {
        let mine = || {
            jobs.iter()
                .zip(&found)
                .filter(move |((j, _, _), _)| *j == m)
        };
        let least = mine().filter_map(|(_, found)| found.distance).min();
        let distance = match least.or(races[m].best()) {
            Some(least) => least + 1,
            None if at_goal => 0,
            None => return Err(Refusal::internal("no child's search gave a length")),
        };
        config.known.keep(key(metric, &start), distance);
        let mut moves = Vec::new();
        for ((_, _, child), found) in mine() {
            let mut hint = serde_json::json!({
                "position": child.notation(convention),
                "optimal": found.distance.is_some_and(|d| d + 1 == distance),
            });
            let exact = match (found.distance, metric) {
                (Some(exact), _) => Some(exact),
                (None, "stm") => Some(distance + 1),
                (None, _) => None,
            };
            hint["distance"] = exact.into();
            match exact {
                Some(exact) => config.known.keep(key(metric, child), exact),
                None => hint["at_least"] = distance.into(),
            }
            moves.push(hint);
        }
        report[metric] = serde_json::json!({
            "distance": distance,
            "moves": moves,
            "nodes": mine().map(|(_, found)| found.nodes).sum::<u64>(),
        });
    }
    Ok(report)
}

/// What the search of a child found: its distance, if it was searched to its end, and the
/// nodes it spent.
struct Child {
    distance: Option<u64>,
    nodes: u64,
}

/// The children of one metric searched side by side: each until it has a solution, or until
/// it has searched without one a bound of at least `best` moves, the shortest solution any of
/// them has so far (then its own stop, within the request's, is raised: it is farther than
/// that one). Invariant: a child is stopped only when its distance is more than `best`, and
/// `best` only falls, so the children with the least distance are all searched to their end.
struct Race {
    standing: Mutex<Standing>,
    stops: Vec<Arc<Stop>>,
    /// The request's stop: it ends every child's search, and the request.
    stop: Arc<Stop>,
}

/// Where a race stands: the shortest solution so far, and each child's largest bound
/// searched without a solution.
struct Standing {
    best: Option<u64>,
    searched: Vec<Option<u64>>,
}

impl Race {
    /// A race of `children`, as if one had a solution of `best` moves, within `stop`.
    fn new(children: usize, best: Option<u64>, stop: &Arc<Stop>) -> Race {
        Race {
            standing: Mutex::new(Standing {
                best,
                searched: vec![None; children],
            }),
            stops: (0..children)
                .map(|_| Arc::new(Stop::within(stop.clone())))
                .collect(),
            stop: stop.clone(),
        }
    }

    fn best(&self) -> Option<u64> {
        self.standing.lock().ok()?.best
    }

    /// Child `i` searched the bound of `moves` moves without a solution.
    fn searched(&self, i: usize, moves: u64) {
        if let Ok(mut standing) = self.standing.lock() {
            standing.searched[i] = Some(moves);
            if standing.best.is_some_and(|best| moves >= best) {
                self.stops[i].raise(Cause::Cancelled);
            }
        }
    }

    /// Child `i` has a solution of `length` moves: the children that searched a bound of as
    /// many moves without one are stopped.
    fn solved(&self, length: u64) {
        if let Ok(mut standing) = self.standing.lock() {
            let best = standing.best.map_or(length, |best| best.min(length));
            standing.best = Some(best);
            for (searched, stop) in standing.searched.iter().zip(&self.stops) {
                if searched.is_some_and(|moves| moves >= best) {
                    stop.raise(Cause::Cancelled);
                }
            }
        }
    }

    /// Searches child `i` of the race (`request`).
    fn run(&self, config: &Config, request: &Request, i: usize) -> Result<Child, Refusal> {
        let own = &self.stops[i];
        let mut searched = |_: String, moves: u32| self.searched(i, moves.into());
        match solve(config, request, own.clone(), Some(&mut searched)) {
            Ok(answer) => {
                let length = answer["length"].as_u64();
                let length = length.ok_or_else(|| Refusal::internal("a search gave no length"))?;
                self.solved(length);
                Ok(Child {
                    distance: Some(length),
                    nodes: answer["nodes"].as_u64().unwrap_or(0),
                })
            }
            Err(_) if own.raised() && !self.stop.raised() => Ok(Child {
                distance: None,
                nodes: own.spent(),
            }),
            Err(refusal) => Err(refusal),
        }
    }
}

/// The most distances [`Known`] keeps: about a megabyte.
const KEPT: usize = 10_000;

/// The exact distances the hints have found, by metric, board, convention, goal and
/// position: a player's next position is one of the children just searched, so its distance
/// is known and need not be searched again. When full, it forgets them all.
#[derive(Debug, Default)]
pub struct Known(Mutex<HashMap<String, u64>>);

impl Known {
    fn get(&self, key: &str) -> Option<u64> {
        self.0.lock().ok()?.get(key).copied()
    }

    fn keep(&self, key: String, distance: u64) {
        if let Ok(mut known) = self.0.lock() {
            if known.len() >= KEPT {
                known.clear();
            }
            known.insert(key, distance);
        }
    }
}
