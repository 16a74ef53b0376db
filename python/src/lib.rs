//! `fifteen._core`: the Rust core of fifteen called from Python, behind the package `fifteen`
//! (python/fifteen/), which builds the command lines and turns the answers into Python objects.
//!
//! Every call reads its arguments as the `fifteen` binary reads its command line (the same
//! parser, the same one-line messages), runs the library's code for that command without
//! holding the GIL, and returns text: the JSON of `solve --json`, of a plan or of a result, or
//! the lines of `shard merge` or of `crosscheck` (with its counts). Bad input is a `ValueError`
//! with the binary's message; a position without solution is `fifteen.NoSolution`, a
//! `ValueError` too. Tables are kept for the life of the process ([`fifteen::cli::kept`]): read
//! once, shared by all threads and calls.
//!
//! This crate cannot forbid `unsafe_code`, because PyO3's macros expand to it; none is
//! written here.

use fifteen::cli::{self, shard, Cli, Command, Failure};
use fifteen::engine::{Cause, Stop};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

create_exception!(
    _core,
    NoSolution,
    PyValueError,
    "The position cannot reach the goal (fifteen's exit status 1)."
);

create_exception!(
    _core,
    Stopped,
    PyRuntimeError,
    "The search was stopped before its end: by --max-nodes or --time-limit (fifteen's exit \
     status 3), or because its caller no longer wanted it (shard_run's stop)."
);

/// A failure of the library as the Python exception that says the same line.
fn raise(failure: Failure) -> PyErr {
    match failure {
        Failure::BadInput(message) => PyValueError::new_err(message),
        Failure::NoSolution(message) => NoSolution::new_err(message),
        Failure::Disagreement(message) => PyRuntimeError::new_err(message),
        Failure::Output(error) => PyOSError::new_err(error.to_string()),
        Failure::Stopped { message, .. } => Stopped::new_err(message),
    }
}

/// How often a search's `stop` callable is asked whether to go on.
const POLL: Duration = Duration::from_millis(200);

/// Runs `search` (without the GIL) on a thread of its own while this one asks the Python
/// callable `stop` every [`POLL`] whether to stop, and looks at Python's signals (Ctrl-C):
/// either raises `flag` (the search, which looks at it every few million nodes, then ends).
/// The search's result, or the error of `stop` or of a signal.
fn watched<T: Send>(
    py: Python<'_>,
    flag: &Stop,
    stop: &Py<PyAny>,
    search: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let mut failed = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel();
            let searching = scope.spawn(move || {
                let result = search();
                let _ = done.send(());
                result
            });
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(POLL) {
                if flag.raised() {
                    continue;
                }
                let asked = Python::attach(|py| {
                    py.check_signals()?;
                    stop.call0(py)?.is_truthy(py)
                });
                match asked {
                    Ok(false) => {}
                    Ok(true) => flag.raise(Cause::Cancelled),
                    Err(error) => {
                        failed = Some(error);
                        flag.raise(Cause::Interrupt);
                    }
                }
            }
            searching.join()
        })
    });
    if let Some(error) = failed {
        return Err(error);
    }
    result.map_err(|_| PyRuntimeError::new_err("the search's thread panicked"))
}

/// The command line `argv` (without the program's name) as the binary reads it.
fn parse(argv: Vec<String>) -> Result<(Cli, bool), Failure> {
    let mut words = vec!["fifteen".to_string()];
    words.extend(argv);
    cli::parse_from(&words)
}

fn not_for(what: &str) -> Failure {
    Failure::BadInput(format!("this call takes the arguments of {what}"))
}

/// `fifteen solve ARGV --json`, its JSON object (for a position without solution too: its
/// `solvable` is false); the bound lines and progress line on stderr as the binary shows
/// them when `live`.
#[pyfunction]
fn solve(py: Python<'_>, argv: Vec<String>, live: bool) -> PyResult<String> {
    let (cli, engine_given) = parse(argv).map_err(raise)?;
    let Command::Solve(mut args) = cli.command else {
        return Err(raise(not_for("fifteen solve")));
    };
    if args.file.is_some() {
        return Err(raise(not_for("fifteen solve without --file")));
    }
    args.json = true;
    let mut out = Vec::new();
    let solved = py.detach(|| {
        let report = cli::Report {
            out: &mut out,
            live,
        };
        cli::solve::run_to(&args, engine_given, report)
    });
    match solved {
        // No solution: the report says `"solvable": false`.
        Ok(()) | Err(Failure::NoSolution(_)) if !out.is_empty() => {
            Ok(String::from_utf8_lossy(&out).into_owned())
        }
        Ok(()) => Err(PyRuntimeError::new_err("fifteen solve wrote no report")),
        Err(failure) => Err(raise(failure)),
    }
}

/// `fifteen shard plan ARGV` (without `--out`): the plan as JSON.
#[pyfunction]
fn shard_plan(py: Python<'_>, mut argv: Vec<String>) -> PyResult<String> {
    // The plan is returned, not written: `--out` is required by the binary only.
    argv.extend(["--out".to_string(), "(returned, not written)".to_string()]);
    let mut words = vec!["shard".to_string(), "plan".to_string()];
    words.extend(argv);
    let (cli, _) = parse(words).map_err(raise)?;
    let Command::Shard(cli::shard::ShardArgs {
        command: shard::ShardCommand::Plan(args),
    }) = cli.command
    else {
        return Err(raise(not_for("fifteen shard plan")));
    };
    let plan = py.detach(|| shard::make_plan(&args)).map_err(raise)?;
    serde_json::to_string(&plan).map_err(|error| PyValueError::new_err(error.to_string()))
}

/// The plan of the JSON `text`, named in messages by its id if it has one.
fn read_plan(text: &str) -> Result<shard::Plan, Failure> {
    let id = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|json| json["id"].as_str().map(str::to_string));
    let name = id.map_or_else(|| "the plan".to_string(), |id| format!("plan {id}"));
    shard::read_plan(text, &name)
}

/// The name of `plan` in messages.
fn plan_name(plan: &shard::Plan) -> String {
    format!("plan {}", plan.id)
}

/// `fifteen shard run` of the items `items` of the plan `plan` (JSON) with the tables of
/// `tables`: each item's result as JSON, in the order searched (none after an item with a
/// solution, unless the plan lists every solution). With `stop`, a callable asked every 0.2 s
/// (with the GIL) while the search runs without it: once it returns true, the search ends
/// within a few million nodes (seconds at most) and `Stopped` is raised; Ctrl-C (Python's
/// signals) ends it too, raising `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (plan, items, tables=None, stop=None))]
fn shard_run(
    py: Python<'_>,
    plan: &str,
    items: Vec<usize>,
    tables: Option<PathBuf>,
    stop: Option<Py<PyAny>>,
) -> PyResult<Vec<String>> {
    let plan = read_plan(plan).map_err(raise)?;
    let flag = Stop::new(None, None);
    let mut results = Vec::new();
    let mut search = |flag: Option<&Stop>| {
        shard::run_items(
            &plan,
            &plan_name(&plan),
            &items,
            (tables.as_deref(), flag),
            &mut |result| {
                let text = serde_json::to_string(&result).map_err(Failure::bad_input)?;
                results.push(text);
                Ok(())
            },
        )
    };
    match &stop {
        None => py.detach(|| search(None)),
        Some(stop) => watched(py, &flag, stop, || search(Some(&flag)))?,
    }
    .map_err(raise)?;
    Ok(results)
}

/// Whether this process can search the plan `plan` (JSON) with the tables of `tables`: its
/// version and the tables' checksums are the plan's (else a `ValueError` saying which differ).
/// The tables are read here, once for the process.
#[pyfunction]
#[pyo3(signature = (plan, tables=None))]
fn shard_check(py: Python<'_>, plan: &str, tables: Option<PathBuf>) -> PyResult<()> {
    let plan = read_plan(plan).map_err(raise)?;
    py.detach(|| shard::plan_heuristic(&plan, &plan_name(&plan), tables.as_deref()))
        .map_err(raise)?;
    Ok(())
}

/// `fifteen shard merge` of the plan `plan` (JSON) and its `results` (JSON, each named in
/// messages by its item): the lines the binary prints.
#[pyfunction]
fn shard_merge(py: Python<'_>, plan: &str, results: Vec<String>) -> PyResult<Vec<String>> {
    let plan = read_plan(plan).map_err(raise)?;
    let mut read = Vec::new();
    for (n, text) in results.iter().enumerate() {
        let result: shard::ShardResult = serde_json::from_str(text).map_err(|error| {
            PyValueError::new_err(format!(
                "result {n} is not a result of fifteen shard: {error}"
            ))
        })?;
        read.push((format!("the result of item {}", result.item), result));
    }
    py.detach(|| shard::merge_lines(&plan, &plan_name(&plan), read))
        .map_err(raise)
}

/// `fifteen crosscheck ARGV`: the lines it prints (one per position where something disagreed,
/// then the summary) and its counts: positions, engine runs, disagreements, skipped runs. A
/// disagreement is no error here (the binary's exit status 1): its count says it.
#[pyfunction]
fn crosscheck(py: Python<'_>, mut argv: Vec<String>) -> PyResult<(Vec<String>, [u64; 4])> {
    argv.insert(0, "crosscheck".to_string());
    let (cli, _) = parse(argv).map_err(raise)?;
    let Command::Crosscheck(args) = cli.command else {
        return Err(raise(not_for("fifteen crosscheck")));
    };
    let mut out = Vec::new();
    let report = py
        .detach(|| cli::crosscheck::run_to(&args, &mut out, false))
        .map_err(raise)?;
    let text = String::from_utf8_lossy(&out);
    let lines = text.lines().map(str::to_string).collect();
    let counts = [
        report.positions,
        report.runs,
        report.disagreements,
        report.skipped,
    ];
    Ok((lines, counts))
}

/// How many heuristics this process has read from their files (or built) and kept, a copy
/// each: the tests' proof that threads asking for the same tables at once share one.
#[pyfunction]
fn _tables_read() -> usize {
    cli::kept::reads()
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    cli::kept::keep_tables();
    module.add("__version__", fifteen::VERSION)?;
    module.add("NoSolution", module.py().get_type::<NoSolution>())?;
    module.add("Stopped", module.py().get_type::<Stopped>())?;
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(shard_plan, module)?)?;
    module.add_function(wrap_pyfunction!(shard_run, module)?)?;
    module.add_function(wrap_pyfunction!(shard_check, module)?)?;
    module.add_function(wrap_pyfunction!(shard_merge, module)?)?;
    module.add_function(wrap_pyfunction!(crosscheck, module)?)?;
    module.add_function(wrap_pyfunction!(_tables_read, module)?)?;
    Ok(())
}
