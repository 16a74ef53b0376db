//! `--metric mtm` on `solve` (one position or `--file`), `crosscheck` and `compare`: the same
//! arguments, searched by the MTM engines of [`crate::mtm`] and printed with the MTM move
//! count first and the STM length of the same path beside it.
//!
//! The engines: `automaton` (the reference's tree run by the generated automaton: what `solve`
//! runs when no `--engine` is given, on the boards it is generated for, on `--threads` threads),
//! `ida` (the reference MTM IDA*, the default on the others) and `bfs` (SLIDING's style 3).
//! `--heuristic` names the MTM lower bound (`walking`, `relabel`, `default`) and `--tables DIR`
//! where the relabelled 4x4 table is kept; `--prune` (fsm by default, none with `--all`) whether
//! the IDA* engines walk the board's duplicate-pruning machine of jump words. Flags that mean
//! nothing here (`--order`, `--threads` above 1 with another engine than the automaton or
//! outside `solve`, `--prune` with bfs, and in `compare` `--peer` and `--korf50`) are refused
//! rather than ignored.

use super::batch::Line;
use super::compare::{CompareArgs, Row};
use super::crosscheck::{check_positions_with, CrosscheckArgs, Judge};
use super::live::{BoundLines, Ticker};
use super::solve::{
    convention_hint, nodes_line, print_solutions, search_failure, stopped_report, SolveArgs,
};
use super::Failure;
use crate::differential::EngineRun;
use crate::engine::{
    BoundStats, Engine, EngineError, EngineKind, Live, SearchOptions, SearchOutcome, Stopped,
};
use crate::heuristic::store::Choice;
use crate::mtm::automaton::MtmAutomaton;
use crate::mtm::check::{disagreements, outcome_length, summary};
use crate::mtm::notation::{moves_text, pictures};
use crate::mtm::tables::lower_bound;
use crate::mtm::{BoundChoice, Config};
use crate::notation::Mover;
use crate::position::{MoveNotation, Position};
use crate::prune::Prune;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// One bound of `--json`'s `bounds` in MTM.
fn bound_json(b: &BoundStats) -> serde_json::Value {
    serde_json::json!({
        "bound": b.happy, "nodes": b.nodes, "seconds": b.seconds,
        "completed": b.completed, "solutions": b.solutions,
    })
}

/// The line of a bound without solution: ` ... no solution with N moves (T sec)`.
pub fn bound_line_mtm(bound: &BoundStats) -> String {
    format!(
        " ... no solution with {} moves ({:.2} sec)",
        bound.happy, bound.seconds
    )
}

/// The MTM configuration of `--heuristic`, `--tables` and `--prune` (fsm unless it says none;
/// a search listing every optimal solution, `--all`, prunes none).
fn config(
    heuristic: Option<&Choice>,
    tables: Option<&std::path::Path>,
    (prune, all): (Option<Prune>, bool),
) -> Result<Config, Failure> {
    let name = heuristic.map(|c| c.to_string());
    if all && prune == Some(Prune::Fsm) {
        return Err(Failure::BadInput(super::ALL_PRUNES_NONE.into()));
    }
    Ok(Config {
        bound: BoundChoice::parse(name.as_deref()).map_err(Failure::BadInput)?,
        prune: prune.unwrap_or(Prune::Fsm),
        tables: tables.map(std::path::Path::to_path_buf),
    })
}

/// The engine of `solve --metric mtm` on `board` (any: `None`): the one named, else the
/// automaton where it is generated and the reference search elsewhere.
fn solve_engine(
    args: &SolveArgs,
    engine_given: bool,
    board: Option<crate::board::Board>,
) -> Result<Box<dyn Engine>, Failure> {
    let kind = if engine_given {
        args.engine
    } else if board.is_none_or(MtmAutomaton::supports) {
        EngineKind::Automaton
    } else {
        EngineKind::Ida
    };
    let config = config(
        args.heuristic.heuristic.as_ref(),
        args.heuristic.tables.as_deref(),
        (args.heuristic.prune, args.all),
    )?;
    crate::mtm::engine(kind, &config).map_err(Failure::BadInput)
}

/// Refuses `--heuristic relabel` on a board other than 4x4.
fn check_board(args: &SolveArgs, board: crate::board::Board) -> Result<(), Failure> {
    let choice = config(args.heuristic.heuristic.as_ref(), None, (None, false))?.bound;
    if choice == BoundChoice::Relabel && board != crate::board::Board::fifteen() {
        return Err(Failure::BadInput(format!(
            "--heuristic relabel is a 4x4 table; a {board} board has walking distance (the default)"
        )));
    }
    Ok(())
}

/// Refuses what has no meaning in MTM.
fn check_solve_flags(args: &SolveArgs, engine_given: bool) -> Result<(), Failure> {
    let engine = solve_engine(args, engine_given, None)?;
    let refuse = |what: &str| Err(Failure::BadInput(format!("{what} with --metric mtm")));
    if args.order.is_some() {
        return refuse("--order is for the STM reference engine, not");
    }
    if engine.name() == "bfs" && args.heuristic.prune.is_some() {
        return refuse("--prune is for the IDA* engines; bfs meets each position once, not");
    }
    if engine.name() == "bfs" && args.heuristic.heuristic.is_some() {
        return refuse("--heuristic is for the IDA* engine; bfs needs no lower bound, not");
    }
    if engine.name() != "automaton" && args.threads.threads.is_some_and(|n| n > 1) {
        // The engine refuses, not the metric (issue 41).
        return Err(Failure::BadInput(format!(
            "--engine {} searches on one thread in MTM (only the automaton searches on several): \
             drop --threads, or use --engine automaton",
            engine.name()
        )));
    }
    if engine.name() == "bfs" && args.all {
        return refuse("--all is for the IDA* engine, not with bfs");
    }
    if engine.name() != "bfs" && args.memory.is_some() {
        return refuse("--memory bounds the bfs engine's table; the MTM IDA* engines store no positions (add --engine bfs, or leave --memory out)");
    }
    Ok(())
}

/// The options of a solve by `engine`: the automaton searches on `--threads` threads (every
/// core by default), the other MTM engines on one; progress told to `live`.
fn options(args: &SolveArgs, engine: &dyn Engine, live: Option<Arc<Live>>) -> SearchOptions {
    SearchOptions {
        all: args.all,
        live,
        stop: args.stop(),
        memory_limit: args.memory,
        threads: match engine.name() {
            "automaton" => args.threads.count(),
            _ => 1,
        },
        ..SearchOptions::default()
    }
}

/// `fifteen solve --metric mtm POSITION`.
pub fn solve(args: &SolveArgs, engine_given: bool) -> Result<(), Failure> {
    let mut out = std::io::stdout();
    let report = super::Report {
        out: &mut out,
        live: true,
    };
    solve_to(args, engine_given, report)
}

/// `fifteen solve --metric mtm POSITION`, its report written to `report.out`; the bound lines
/// and the progress line only with `report.live` (see [`super::solve::run_to`]).
pub fn solve_to(
    args: &SolveArgs,
    engine_given: bool,
    report: super::Report,
) -> Result<(), Failure> {
    let super::Report { out, live } = report;
    check_solve_flags(args, engine_given)?;
    let text = args.position.join(" ");
    let start = Position::parse(&text, args.board.size, args.board.convention)
        .map_err(Failure::bad_input)?;
    check_board(args, start.board())?;
    let goal = args.goal.read(Some(start.board()), args.board.convention)?;
    let engine = solve_engine(args, engine_given, Some(start.board()))?;
    if !super::solve::reachable(&start, goal.as_ref()).map_err(Failure::BadInput)? {
        return unsolvable(&start, args, out);
    }
    let engine = super::GoalArgs::engine(goal.as_ref(), engine);
    let (ticker, progress_line) = match engine.name() {
        "bfs" => (None, None),
        _ if !live => (None, None),
        _ => Ticker::start().unzip(),
    };
    let mut lines = BoundLines::new(args.json, ticker);
    // The bounds searched to their end, for the report of a stopped search.
    let mut finished = Vec::new();
    let mut progress = |bound: &BoundStats| {
        if bound.solutions == 0 && live {
            lines.print(&bound_line_mtm(bound));
        }
        finished.push(bound_json(bound));
    };
    let options = options(args, engine.as_ref(), progress_line);
    let _interruptible = options.stop.as_ref().map(super::live::interruptible);
    let outcome = match engine.solve(&start, &options, &mut progress) {
        Ok(outcome) => outcome,
        Err(error) => {
            let report = |stopped: &Stopped| {
                let mut report =
                    stopped_report(&start, args.board.convention, stopped, finished.clone());
                report["metric"] = "mtm".into();
                report
            };
            return Err(search_failure(error, lines, (out, args.json), &report));
        }
    };
    lines.finish()?;
    if args.json {
        writeln!(
            out,
            "{}",
            json_report(&start, args, engine.name(), &outcome)
        )?;
    } else {
        print_text(out, &start, args, engine.name(), &outcome)?;
    }
    Ok(())
}

fn unsolvable(start: &Position, args: &SolveArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let hint = match args.goal.goal {
        None => convention_hint(start, args.board.convention),
        Some(_) => None,
    };
    if let Some(hint) = hint {
        eprintln!("{hint}");
    }
    if args.json {
        let report = serde_json::json!({
            "position": start.notation(args.board.convention),
            "metric": "mtm",
            "solvable": false,
        });
        writeln!(out, "{report}")?;
        return Err(Failure::NoSolution(String::new()));
    }
    Err(Failure::NoSolution(EngineError::Unsolvable.to_string()))
}

/// `Solution in N moves (S in STM)`, the moves in the chosen notation, and `time`.
fn solution_text(
    start: &Position,
    args: &SolveArgs,
    solution: &crate::engine::Solution,
    time: &str,
) -> String {
    let mtm = crate::mtm::moves::length(start, &solution.moves).unwrap_or(0);
    let head = format!("Solution in {mtm} moves ({} in STM)", solution.len());
    let convention = args.board.convention;
    match args.moves {
        MoveNotation::Tiles => {
            let moves = moves_text(start, &solution.moves, Mover::Tiles, convention);
            format!("{head}: {moves}{time}\n")
        }
        MoveNotation::Blank => {
            let moves = moves_text(start, &solution.moves, Mover::Blank, convention);
            format!("{head} (blank): {moves}{time}\n")
        }
        MoveNotation::Board => format!(
            "{head}{time}:\n{}",
            pictures(start, &solution.moves, convention)
        ),
    }
}

fn print_text(
    out: &mut dyn Write,
    start: &Position,
    args: &SolveArgs,
    engine: &str,
    outcome: &SearchOutcome,
) -> std::io::Result<()> {
    print_solutions(out, outcome, args.all, &|solution, time| {
        solution_text(start, args, solution, time)
    })?;
    if args.stats {
        if let Some(first) = outcome.solutions.first() {
            writeln!(
                out,
                "{} moves in the multi-tile metric; the same path is {} in the single-tile metric ({} happy, {} sad)",
                outcome_length(start, outcome).unwrap_or(0),
                first.len(),
                first.happy,
                first.sad
            )?;
        }
        if engine != "bfs" {
            let config = config(
                args.heuristic.heuristic.as_ref(),
                args.heuristic.tables.as_deref(),
                (None, false),
            )
            .unwrap_or_default();
            let bound = lower_bound(start.board(), &config);
            writeln!(
                out,
                "Lower bound {} estimates {} moves",
                bound.name(),
                bound.estimate(&super::solve::searched(args, start).0)
            )?;
        }
        nodes_line(out, &outcome.stats)?;
    }
    Ok(())
}

fn json_report(
    start: &Position,
    args: &SolveArgs,
    engine: &str,
    outcome: &SearchOutcome,
) -> serde_json::Value {
    let convention = args.board.convention;
    let first = outcome.solutions.first();
    let text = |s: &crate::engine::Solution| moves_text(start, &s.moves, Mover::Tiles, convention);
    let config = config(
        args.heuristic.heuristic.as_ref(),
        args.heuristic.tables.as_deref(),
        (None, false),
    )
    .unwrap_or_default();
    let bound = lower_bound(start.board(), &config);
    let bounds: Vec<serde_json::Value> = outcome.stats.bounds.iter().map(bound_json).collect();
    let (searched, goal) = super::solve::searched(args, start);
    let mut report = serde_json::json!({
        "position": start.notation(convention),
        "goal": goal.map(|g| g.position().notation(convention)),
        "board": start.board().to_string(),
        "convention": convention,
        "metric": "mtm",
        "engine": engine,
        "solvable": true,
        // The name `--heuristic` picks it by, as in the STM reports (issue 41).
        "heuristic": (engine != "bfs").then(|| match config.bound.uses_table(start.board()) {
            true => "relabel",
            false => "walking",
        }),
        "lower_bound": (engine != "bfs").then(|| bound.name()),
        "estimate": (engine != "bfs").then(|| bound.estimate(&searched)),
        "length": outcome_length(start, outcome),
        "stm_length": first.map(|s| s.len()),
        "moves": first.map(text),
        "blank_moves": first.map(|s| moves_text(start, &s.moves, Mover::Blank, convention)),
        "tiles": first.map(|s| start.moves_notation(&s.moves, convention)),
        "nodes": outcome.stats.nodes,
        "seconds": outcome.stats.seconds,
        "bounds": bounds,
    });
    if args.all {
        report["solutions"] = outcome.solutions.iter().map(text).collect();
    }
    report
}

/// `fifteen solve --metric mtm --file FILE`: one line (or JSON object) per position, then
/// `N positions solved, NODES nodes, T sec`; exit status as in STM.
pub fn batch(args: &SolveArgs, file: &std::path::Path, engine_given: bool) -> Result<(), Failure> {
    check_solve_flags(args, engine_given)?;
    let goal = args.goal.read(args.board.size, args.board.convention)?;
    super::batch::solve_lines(args, file, solution_text, &mut |start, live| {
        if let Err(Failure::BadInput(message)) = check_board(args, start.board()) {
            return Ok(Line::Bad(message));
        }
        match super::solve::reachable(start, goal.as_ref()) {
            Err(message) => return Ok(Line::Bad(message)),
            Ok(false) => return Ok(Line::Unsolvable),
            Ok(true) => {}
        }
        let engine = solve_engine(args, engine_given, Some(start.board()))?;
        let engine = super::GoalArgs::engine(goal.as_ref(), engine);
        let options = options(args, engine.as_ref(), live);
        let _interruptible = options.stop.as_ref().map(super::live::interruptible);
        let result = engine.solve(start, &options, &mut |_| {});
        Ok(Line::of(result, args.json, &|outcome| {
            json_report(start, args, engine.name(), outcome)
        }))
    })
}

/// The MTM engines of `--engines` (default: automaton, ida and bfs).
fn engines(kinds: &[EngineKind], config: &Config) -> Result<Vec<Box<dyn Engine>>, Failure> {
    let kinds = if kinds.is_empty() {
        vec![EngineKind::Automaton, EngineKind::Ida, EngineKind::Bfs]
    } else {
        kinds.to_vec()
    };
    kinds
        .into_iter()
        .map(|kind| crate::mtm::engine(kind, config).map_err(Failure::BadInput))
        .collect()
}

/// `fifteen crosscheck --metric mtm`: seeded positions, every MTM engine on each, every answer
/// checked ([`crate::mtm::check`]); the lines of the STM cross-check.
pub fn crosscheck(args: &CrosscheckArgs) -> Result<(), Failure> {
    crosscheck_to(args, &mut super::out(), true)?.verdict()
}

/// [`crosscheck`] with its lines written to `out` (the progress bar on stderr when
/// `progress`): the counts, whether or not something disagreed.
pub fn crosscheck_to(
    args: &CrosscheckArgs,
    out: &mut dyn Write,
    progress: bool,
) -> Result<super::crosscheck::Report, Failure> {
    if args.count == 0 {
        return Err(Failure::BadInput("--count must be at least 1".into()));
    }
    let config = config(
        args.heuristic.heuristic.as_ref(),
        args.heuristic.tables.as_deref(),
        (args.heuristic.prune, false),
    )?;
    if config.bound == BoundChoice::Relabel && args.size != crate::board::Board::fifteen() {
        return Err(Failure::BadInput(
            "--heuristic relabel is a 4x4 table; leave it out on other boards".into(),
        ));
    }
    if args.threads.threads.is_some_and(|n| n > 1) {
        return Err(Failure::BadInput(
            "crosscheck runs the MTM engines on one thread: leave --threads out with --metric mtm"
                .into(),
        ));
    }
    let goal = args
        .goal
        .read(Some(args.size), crate::position::Convention::Knuth)?;
    let all = [EngineKind::Automaton, EngineKind::Ida, EngineKind::Bfs];
    let kinds = super::GoalArgs::kinds(
        goal.as_ref(),
        crate::mtm::Metric::Mtm,
        &args.selection.engines,
        &all,
    )?;
    let engines: Vec<Box<dyn Engine>> = engines(&kinds, &config)?
        .into_iter()
        .map(|engine| super::GoalArgs::engine(goal.as_ref(), engine))
        .collect();
    let options = SearchOptions {
        memory_limit: Some(args.selection.memory),
        ..SearchOptions::default()
    };
    let engines: Vec<&dyn Engine> = engines.iter().map(|e| e.as_ref()).collect();
    let positions = super::crosscheck::positions(args, goal.as_ref());
    let judge = Judge {
        disagreements,
        summary,
    };
    Ok(check_positions_with(
        positions,
        &engines,
        &options,
        out,
        progress,
        &judge,
        goal.as_ref(),
    )?)
}

/// `fifteen compare --metric mtm`: every MTM engine once on every position with the answers
/// checked, then timed `--repeat` times round-robin; one row per position and engine (MTM
/// length, STM length of its path, nodes, median seconds, nodes per second) as a table,
/// `--json` or `--csv`, and `--plot`'s chart, as in STM ([`super::compare::report`]).
pub fn compare(args: &CompareArgs) -> Result<(), Failure> {
    let unsupported = [
        (
            !args.peer.is_empty(),
            "--peer is not available with --metric mtm: a peer's solution line is counted in single tiles",
        ),
        (
            args.korf50.is_some(),
            "--korf50 is not available with --metric mtm: its 5x5 boards have no MTM table, and walking distance alone would not solve them",
        ),
        (
            args.heuristic.len() > 1,
            "more than one --heuristic is not available with --metric mtm yet",
        ),
        (
            args.prune.len() > 1,
            "more than one --prune is not available with --metric mtm yet",
        ),
        (
            args.threads.threads.is_some_and(|n| n > 1),
            "the MTM search runs on one thread: leave --threads out with --metric mtm",
        ),
    ];
    if let Some((_, why)) = unsupported.iter().find(|(given, _)| *given) {
        return Err(Failure::BadInput(why.to_string()));
    }
    if args.repeat == 0 || args.repeat > super::compare::MAX_REPEAT {
        return Err(Failure::BadInput(format!(
            "--repeat takes 1 to {} timed runs, not {}",
            super::compare::MAX_REPEAT,
            args.repeat
        )));
    }
    let (positions, left_out) = super::compare::positions_of(args)?;
    if positions.is_empty() {
        return Err(Failure::BadInput(
            "no positions: give POSITIONs, --korf100, --file or --random".into(),
        ));
    }
    let config = config(
        args.heuristic.first(),
        args.tables.as_deref(),
        (args.prune.first().copied(), false),
    )?;
    if config.bound == BoundChoice::Relabel
        && positions
            .iter()
            .any(|(_, p)| p.board() != crate::board::Board::fifteen())
    {
        return Err(Failure::BadInput(
            "--heuristic relabel is a 4x4 table; leave it out on other boards".into(),
        ));
    }
    let all = [EngineKind::Automaton, EngineKind::Ida, EngineKind::Bfs];
    let goal = args.goal.read(args.size, args.convention)?;
    if config.bound == BoundChoice::Relabel && goal.is_some_and(|goal| !goal.in_corner()) {
        let error = EngineError::CornerGoal("--heuristic relabel".into());
        return Err(Failure::BadInput(error.to_string()));
    }
    let kinds = super::compare::goal_kinds(args, crate::mtm::Metric::Mtm, &all)?;
    let engines = engines(&kinds, &config)?;
    let options = SearchOptions {
        memory_limit: Some(args.selection.memory),
        ..SearchOptions::default()
    };
    let bar = crate::progress::spinner();
    let count = positions.len();
    let mut problems = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    for (p, (label, start)) in positions.iter().enumerate() {
        bar.set_message(format!(
            "checking {label} ({p} of {count} positions checked)"
        ));
        let answers: Vec<EngineRun> = engines
            .iter()
            .map(|engine| EngineRun::new(engine.as_ref(), start, &options))
            .collect();
        for found in disagreements(start, &answers) {
            problems.push(format!("{label}: {found}"));
        }
        for run in &answers {
            let outcome = run.result.as_ref().ok();
            rows.push(Row {
                position: label.clone(),
                engine: run.engine.to_string(),
                length: outcome.and_then(|o| outcome_length(start, o)),
                stm_length: outcome.and_then(|o| o.solutions.first()).map(|s| s.len()),
                nodes: outcome.and_then(|o| o.stats.nodes),
                runs: Vec::new(),
                seconds: 0.0,
                nodes_per_second: None,
                skipped: run.skipped(),
            });
        }
    }
    if !problems.is_empty() {
        bar.finish_and_clear();
        return Err(Failure::Disagreement(problems.join("\n")));
    }
    for repeat in 0..args.repeat {
        for (p, (label, start)) in positions.iter().enumerate() {
            bar.set_message(format!(
                "timed run {} of {}: {label} ({p} of {count} positions done)",
                repeat + 1,
                args.repeat
            ));
            for (e, engine) in engines.iter().enumerate() {
                let row = &mut rows[p * engines.len() + e];
                if row.skipped.is_some() {
                    continue;
                }
                let clock = Instant::now();
                let timed = engine.solve(start, &options, &mut |_| {});
                let seconds = clock.elapsed().as_secs_f64();
                if timed.is_ok() {
                    row.runs.push(seconds);
                }
            }
        }
    }
    bar.finish_and_clear();
    let names: Vec<String> = engines.iter().map(|e| e.name().to_string()).collect();
    super::compare::report(args, &mut rows, &names, &[])?;
    if left_out.0 > 0 {
        return Err(Failure::BadInput(format!(
            "{} bad lines left out",
            left_out.0
        )));
    }
    if left_out.1 > 0 {
        return Err(Failure::NoSolution(String::new()));
    }
    Ok(())
}
