//! A solve's outcome as it is written, in either metric (see [`super::metric`]): a line (or
//! pictures) per solution, `--all`'s count, `--stats`' lines, or one JSON object; one position
//! and `--file` write them alike.
//!
//! Invariant: the text and the JSON object say the same: the first solution's length in the
//! metric (and in MTM its STM length), its moves, the lower bound the search was guided by
//! (none for bfs), the nodes and the seconds.

use super::plan::{Search, Solver};
use super::solve::{searched, SolveArgs};
use crate::engine::{EngineKind, SearchOutcome, SearchStats, Solution};
use crate::mtm::Metric;
use crate::position::{MoveNotation, Position};
use std::io::Write;

/// One solution in the chosen move notation: the metric's head and `: MOVES` + `time`, or that
/// head and the board after each move.
pub fn solution_text(
    start: &Position,
    args: &SolveArgs,
    solution: &Solution,
    time: &str,
) -> String {
    let metric = args.metric;
    let head = metric.head(start, solution);
    let moves = metric.moves(start, &solution.moves, args.moves, args.board.convention);
    match args.moves {
        MoveNotation::Tiles => format!("{head}: {moves}{time}\n"),
        MoveNotation::Blank => format!("{head} (blank): {moves}{time}\n"),
        MoveNotation::Board => format!("{head}{time}:\n{moves}"),
    }
}

/// One line (or picture) per solution, `text` given its time text (the last bound's seconds,
/// none with `all`), then with `all` the count of optimal solutions.
pub fn print_solutions(
    out: &mut dyn Write,
    outcome: &SearchOutcome,
    all: bool,
    text: &dyn Fn(&Solution, &str) -> String,
) -> std::io::Result<()> {
    let last_seconds = outcome.stats.bounds.last().map_or(0.0, |b| b.seconds);
    for solution in &outcome.solutions {
        let time = if all {
            String::new()
        } else {
            format!(" ({last_seconds:.2} sec)")
        };
        write!(out, "{}", text(solution, &time))?;
    }
    if all {
        let count = outcome.solutions.len();
        let plural = if count == 1 { "" } else { "s" };
        writeln!(
            out,
            "{count} optimal solution{plural} ({last_seconds:.2} sec)"
        )?;
    }
    Ok(())
}

/// The lower bound a search was guided by, as the reports name it and what it estimates for
/// the position searched; `None` for bfs, which needs none.
struct Guide {
    /// STM: the heuristic's name; MTM: `walking` or `relabel`.
    heuristic: String,
    /// MTM: the bound's own name (`walking distance in MTM`, ...).
    lower_bound: Option<String>,
    estimate: u32,
}

fn guide(start: &Position, args: &SolveArgs, solver: &Solver, search: &Search) -> Option<Guide> {
    if search.kind == EngineKind::Bfs {
        return None;
    }
    let (searched, _) = searched(args, start);
    let heuristic = &search.options.heuristic;
    Some(match solver {
        Solver::Stm => Guide {
            heuristic: heuristic.name(),
            lower_bound: None,
            estimate: heuristic.estimate(&searched),
        },
        Solver::Mtm { config, .. } => {
            let (name, bound) = super::mtm::lower_bound(searched.board(), config);
            Guide {
                heuristic: name.to_string(),
                lower_bound: Some(bound.name()),
                estimate: bound.estimate(&searched),
            }
        }
    })
}

/// The solution lines in the chosen move notation, the `--all` count, and `--stats`.
pub fn print_text(
    out: &mut dyn Write,
    start: &Position,
    (args, solver): (&SolveArgs, &Solver),
    search: &Search,
    outcome: &SearchOutcome,
) -> std::io::Result<()> {
    print_solutions(out, outcome, args.all, &|solution, time| {
        solution_text(start, args, solution, time)
    })?;
    if !args.stats {
        return Ok(());
    }
    if let Some(first) = outcome.solutions.first() {
        let split = format!("({} happy, {} sad)", first.happy, first.sad);
        match args.metric {
            Metric::Stm => writeln!(out, "{} moves in all {split}", first.len())?,
            Metric::Mtm => writeln!(
                out,
                "{} moves in the multi-tile metric; the same path is {} in the single-tile metric {split}",
                args.metric.length(start, outcome).unwrap_or(0),
                first.len(),
            )?,
        }
    }
    if let Some(guide) = guide(start, args, solver, search) {
        match guide.lower_bound {
            None => writeln!(
                out,
                "Heuristic {} estimates {} moves (Manhattan {})",
                guide.heuristic,
                guide.estimate,
                searched(args, start).0.manhattan()
            )?,
            Some(bound) => writeln!(
                out,
                "Lower bound {bound} estimates {} moves",
                guide.estimate
            )?,
        }
    }
    nodes_line(out, &outcome.stats)
}

/// `--stats`' last line: the nodes generated, the time and the rate.
pub fn nodes_line(out: &mut dyn Write, stats: &SearchStats) -> std::io::Result<()> {
    let seconds = stats.seconds;
    match stats.nodes {
        Some(nodes) => writeln!(
            out,
            "{nodes} nodes generated in {seconds:.2} sec ({:.2} M nodes/sec)",
            nodes as f64 / seconds.max(1e-9) / 1e6
        ),
        None => writeln!(out, "(nodes not counted) {seconds:.2} sec"),
    }
}

/// The JSON object of a solved position: its first solution (every one with `--all`), the
/// bound, the nodes and every bound searched.
pub fn json_report(
    start: &Position,
    (args, solver): (&SolveArgs, &Solver),
    search: &Search,
    outcome: &SearchOutcome,
) -> serde_json::Value {
    let (metric, convention) = (args.metric, args.board.convention);
    let first = outcome.solutions.first();
    let written = |s: &Solution, how| metric.moves(start, &s.moves, how, convention);
    let moves = |s: &Solution| written(s, MoveNotation::Tiles);
    let bounds: Vec<serde_json::Value> = outcome
        .stats
        .bounds
        .iter()
        .map(|b| metric.bound_json(b))
        .collect();
    let (searched, goal) = searched(args, start);
    let guide = guide(start, args, solver, search);
    let mut report = serde_json::json!({
        "position": start.notation(convention),
        "goal": goal.map(|g| g.position().notation(convention)),
        "board": start.board().to_string(),
        "convention": convention,
        "engine": search.engine.name(),
        "solvable": true,
        "heuristic": guide.as_ref().map(|g| g.heuristic.clone()),
        "estimate": guide.as_ref().map(|g| g.estimate),
        "length": metric.length(start, outcome),
        "moves": first.map(moves),
        "blank_moves": first.map(|s| written(s, MoveNotation::Blank)),
        "nodes": outcome.stats.nodes,
        "seconds": outcome.stats.seconds,
        "bounds": bounds,
    });
    match metric {
        Metric::Stm => {
            report["manhattan"] = searched.manhattan().into();
            report["happy"] = first.map(|s| s.happy).into();
            report["sad"] = first.map(|s| s.sad).into();
        }
        Metric::Mtm => {
            report["lower_bound"] = guide.and_then(|g| g.lower_bound).into();
            report["stm_length"] = metric.stm_length(outcome).into();
            report["tiles"] = first
                .map(|s| Metric::Stm.moves(start, &s.moves, MoveNotation::Tiles, convention))
                .into();
        }
    }
    metric.tag(&mut report);
    if args.all {
        report["solutions"] = outcome.solutions.iter().map(moves).collect();
    }
    report
}
