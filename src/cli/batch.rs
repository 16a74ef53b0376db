//! `fifteen solve --file F`: many positions in one run, in either metric, the tables loaded
//! once per board; each searched as one position is ([`super::plan`], [`super::outcome`]).
//!
//! Each position gets one result (its solution line prefixed by the position, or one JSON
//! object per line), then a summary line: positions, total nodes, total seconds. A bad line is
//! named by its number on stderr and the others are still solved. `--max-nodes` and
//! `--time-limit` hold for each position: one that reaches them gets the line of its stop
//! (`POSITION: stopped by …`) and the next is searched; Ctrl-C stops the position being
//! searched and ends the batch. Exit status: 2 if any line was bad input, else 130 after
//! Ctrl-C, else 3 if a limit stopped a position, else 1 if any position has no solution, else
//! 0.

use super::live::{around, Ticker};
use super::outcome::{json_report, solution_text};
use super::plan::Solver;
use super::solve::{convention_hint, SolveArgs};
use super::Failure;
use crate::board::Board;
use crate::engine::{Cause, EngineError, Live, SearchOutcome, Stopped};
use crate::goal::Goal;
use crate::heuristic::Heuristic;
use crate::position::Position;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;

/// The positions of a file: (line number, text), blank lines and comments left out.
pub fn lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty())
        .collect()
}

pub fn read(file: &Path) -> Result<String, Failure> {
    let mut text = String::new();
    let result = if file == Path::new("-") {
        std::io::stdin().read_to_string(&mut text)
    } else {
        std::fs::File::open(file).and_then(|mut f| f.read_to_string(&mut text))
    };
    result.map_err(|e| Failure::BadInput(format!("cannot read {}: {e}", file.display())))?;
    // A byte-order mark, as some editors write at the start of a UTF-8 file, is no position.
    match text.strip_prefix('\u{feff}') {
        Some(rest) => Ok(rest.to_string()),
        None => Ok(text),
    }
}

/// What one position of a batch came to, as its solver tells [`solve_lines`].
pub enum Line {
    /// Not searched: why, said on stderr with the line's number (a bad line).
    Bad(String),
    /// A position with no solution.
    Unsolvable,
    /// Searched: the outcome, and its JSON object with `--json`.
    Solved(SearchOutcome, Option<serde_json::Value>),
    /// Stopped before its end (`--max-nodes`, `--time-limit`, Ctrl-C).
    Stopped(Stopped),
}

impl Line {
    /// What a search's `result` comes to: its outcome (its JSON object made by `report` with
    /// `--json`), its stop, or the engine's refusal as a bad line.
    pub fn of(
        result: Result<SearchOutcome, EngineError>,
        json: bool,
        report: &dyn Fn(&SearchOutcome) -> serde_json::Value,
    ) -> Line {
        match result {
            Ok(outcome) => {
                let report = json.then(|| report(&outcome));
                Line::Solved(outcome, report)
            }
            Err(EngineError::Stopped(stopped)) => Line::Stopped(stopped),
            Err(error) => Line::Bad(error.to_string()),
        }
    }
}

/// The search of one position, told where to tell its progress.
type Solve<'a> = dyn FnMut(&Position, Option<Arc<Live>>) -> Result<Line, Failure> + 'a;

/// The loop of `solve --file`: each position line goes to `solve` (with where to tell its
/// progress, on a terminal: see [`super::live`]), its result is printed as it comes (each
/// solution's line after the position, or a JSON object), then the summary and the exit
/// status ([`close`]).
fn solve_lines(args: &SolveArgs, file: &Path, solve: &mut Solve) -> Result<(), Failure> {
    let contents = read(file)?;
    let (mut bad, mut unsolvable, mut stopped) = (0usize, 0usize, 0usize);
    let mut interrupted = false;
    let (mut positions, mut nodes, mut seconds) = (0usize, 0u64, 0.0f64);
    let mut out = super::out();
    let (progress, live) = Ticker::start().unzip();
    let ticker = progress.as_ref();
    let position_lines = lines(&contents);
    if position_lines.is_empty() {
        eprintln!(
            "({} holds no position, only blank lines and # comments: nothing to solve, exit status 0)",
            file.display()
        );
    }
    for (number, line) in position_lines {
        let start = match Position::parse(line, args.board.size, args.board.convention) {
            Ok(start) => start,
            Err(error) => {
                around(ticker, || eprintln!("line {number}: {error}"));
                bad += 1;
                continue;
            }
        };
        match solve(&start, live.clone())? {
            Line::Bad(message) => {
                around(ticker, || eprintln!("line {number}: {message}"));
                bad += 1;
            }
            Line::Unsolvable => {
                unsolvable += 1;
                around(ticker, || report_unsolvable(&mut out, number, &start, args))?;
            }
            Line::Solved(outcome, report) => {
                positions += 1;
                nodes += outcome.stats.nodes.unwrap_or(0);
                seconds += outcome.stats.seconds;
                around(ticker, || {
                    write_result(&mut out, number, &start, args, &outcome, report)
                })?;
            }
            Line::Stopped(stop) => {
                stopped += 1;
                nodes += stop.nodes.unwrap_or(0);
                seconds += stop.seconds;
                around(ticker, || {
                    report_stopped(&mut out, number, &start, args, &stop)
                })?;
                if stop.cause == Cause::Interrupt {
                    interrupted = true;
                    break;
                }
            }
        }
    }
    drop(progress);
    close(
        &mut out,
        args.json,
        file,
        (positions, nodes, seconds),
        (bad, unsolvable, stopped, interrupted),
    )
}

/// Says that the search of line `number` was stopped: `POSITION: stopped by …`, or its JSON
/// object with `--json`.
fn report_stopped(
    out: &mut dyn Write,
    number: usize,
    start: &Position,
    args: &SolveArgs,
    stopped: &Stopped,
) -> std::io::Result<()> {
    if args.json {
        let mut report =
            super::solve::stopped_report(start, args.board.convention, stopped, Vec::new());
        report["line"] = number.into();
        writeln!(out, "{report}")?;
    } else {
        writeln!(out, "{}: {stopped}", start.notation(args.board.convention))?;
    }
    out.flush()
}

/// `fifteen solve --file`, its searches planned as one position's are (`engine_given`:
/// whether `--engine` was on the command line); the tables loaded once per board, whole.
pub fn run(args: &SolveArgs, file: &Path, engine_given: bool) -> Result<(), Failure> {
    let solver = Solver::new(args, engine_given)?;
    let goal = args.goal.read(args.board.size, args.board.convention)?;
    let mut heuristics: HashMap<Board, Heuristic> = HashMap::new();
    solve_lines(args, file, &mut |start, live| {
        let board = start.board();
        let on_board = goal
            .as_ref()
            .filter(|goal| goal.position().board() == board);
        if let Err(message) = solver.check_board(on_board.map_or(board, Goal::searched)) {
            return Ok(Line::Bad(message));
        }
        match super::solve::reachable(start, goal.as_ref()) {
            Err(message) => return Ok(Line::Bad(message)),
            Ok(false) => return Ok(Line::Unsolvable),
            Ok(true) => {}
        }
        // Tables are built toward the goal (see crate::goal).
        let board = goal.as_ref().map_or(board, Goal::searched);
        let heuristic = match heuristics.get(&board) {
            Some(h) => h.clone(),
            None => match solver.heuristic(args, board, false) {
                Ok(h) => heuristics.entry(board).or_insert(h).clone(),
                Err(Failure::BadInput(message)) => return Ok(Line::Bad(message)),
                Err(other) => return Err(other),
            },
        };
        let mut search = solver.search(args, board, heuristic, goal.as_ref())?;
        // The summary adds up the nodes of every position.
        search.options.count_nodes = true;
        search.options.live = live;
        search.options.stop = args.stop();
        let _interruptible = search.options.stop.as_ref().map(super::live::interruptible);
        let result = search.engine.solve(start, &search.options, &mut |_| {});
        Ok(Line::of(result, args.json, &|outcome| {
            json_report(start, (args, &solver), &search, outcome)
        }))
    })
}

/// One position's result: its JSON object `report` with its line number, or without one each
/// solution's line (given the search's time) after the position.
fn write_result(
    out: &mut dyn Write,
    number: usize,
    start: &Position,
    args: &SolveArgs,
    outcome: &SearchOutcome,
    report: Option<serde_json::Value>,
) -> std::io::Result<()> {
    match report {
        Some(mut report) => {
            report["line"] = number.into();
            writeln!(out, "{report}")?;
        }
        None => {
            let notation = start.notation(args.board.convention);
            let time = format!(" ({:.2} sec)", outcome.stats.seconds);
            for solution in &outcome.solutions {
                write!(
                    out,
                    "{notation}: {}",
                    solution_text(start, args, solution, &time)
                )?;
            }
            if args.stats {
                write!(out, "{notation}: ")?;
                super::outcome::nodes_line(out, &outcome.stats)?;
            }
        }
    }
    out.flush()
}

/// Says that the position of line `number` has no solution (and, on stderr, when it would
/// have one in the other convention): a line, or a JSON object with `--json`.
fn report_unsolvable(
    out: &mut dyn Write,
    number: usize,
    start: &Position,
    args: &SolveArgs,
) -> Result<(), Failure> {
    let notation = start.notation(args.board.convention);
    let hint = match args.goal.goal {
        None => convention_hint(start, args.board.convention),
        Some(_) => None,
    };
    if let Some(hint) = hint {
        eprintln!("line {number}: {hint}");
    }
    if args.json {
        let report = serde_json::json!({
            "line": number, "position": notation, "solvable": false,
        });
        writeln!(out, "{report}")?;
    } else {
        writeln!(out, "{notation}: {}", EngineError::Unsolvable)?;
    }
    Ok(())
}

/// The summary line of a batch (`N positions solved, NODES nodes, T sec`, with `K stopped`
/// after the positions when a limit or Ctrl-C stopped some; on stderr with `--json`) and its
/// exit status: bad lines first, then Ctrl-C, then positions stopped by a limit, then
/// positions without solution.
fn close(
    out: &mut dyn Write,
    json: bool,
    file: &Path,
    (positions, nodes, seconds): (usize, u64, f64),
    (bad, unsolvable, stopped, interrupted): (usize, usize, usize, bool),
) -> Result<(), Failure> {
    let plural = if positions == 1 { "" } else { "s" };
    let stops = match stopped {
        0 => String::new(),
        n => format!(", {n} stopped"),
    };
    let summary =
        format!("{positions} position{plural} solved{stops}, {nodes} nodes, {seconds:.2} sec");
    if json {
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}")?;
    }
    let stopped_line = |why: &str| {
        format!(
            "{stopped} position{} of {} stopped {why} before {}",
            if stopped == 1 { "" } else { "s" },
            file.display(),
            if stopped == 1 { "its end" } else { "their end" }
        )
    };
    if bad > 0 {
        Err(Failure::BadInput(format!(
            "{bad} bad line{} in {}",
            if bad == 1 { "" } else { "s" },
            file.display()
        )))
    } else if interrupted {
        Err(Failure::Stopped {
            message: stopped_line("(the last by Ctrl-C)"),
            interrupted: true,
        })
    } else if stopped > 0 {
        Err(Failure::Stopped {
            message: stopped_line("by a limit"),
            interrupted: false,
        })
    } else if unsolvable > 0 {
        Err(Failure::NoSolution(String::new()))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_and_comments_are_skipped() {
        let text = "# Korf's first\nd68cfe0ab7459132  # 57 moves\n\n   \n867254301\n";
        assert_eq!(lines(text), [(2, "d68cfe0ab7459132"), (5, "867254301")]);
    }
}
