//! `fifteen crosscheck`: seeded positions, every selected engine on each, and every answer
//! checked, in either metric (see [`crate::differential`], and [`crate::mtm::check`] for
//! `--metric mtm`, whose engines [`super::mtm`] builds). Exit status 0 only when nothing
//! disagrees.
//!
//! The last line is always `N positions, M engine runs, D disagreements`; before it, one line
//! per position where something disagreed, naming the position and what each engine said.

use super::Failure;
use crate::board::Board;
use crate::differential::{disagreements, EngineRun};
use crate::engine::{Engine, EngineKind, SearchOptions};
use crate::goal::Goal;
use crate::mtm::Metric;
use crate::position::{Convention, Position};
use crate::random::PositionSource;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;

#[derive(Debug, Args)]
pub struct CrosscheckArgs {
    /// How many positions to generate (made one at a time, so any count runs in bounded
    /// memory).
    #[arg(long, default_value_t = 100)]
    pub count: u64,

    /// Seed of the position generator (the same seed gives the same positions).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Board size RxC.
    #[arg(long, value_name = "RxC", default_value = "3x3")]
    pub size: Board,

    /// Random walks of this many moves from the goal instead of uniformly random positions
    /// (at most 1000000).
    #[arg(long, value_name = "L", value_parser = parse_walk)]
    pub walk: Option<usize>,

    #[command(flatten)]
    pub selection: super::EngineSelection,

    /// The IDA* engines' lower bound (default here: manhattan).
    #[command(flatten)]
    pub heuristic: super::HeuristicArgs,

    #[command(flatten)]
    pub threads: super::ThreadArgs,

    /// Draw the positions toward this goal (Knuth's numbering, --size's board) and check every
    /// answer to it; see solve's --goal.
    #[command(flatten)]
    pub goal: super::GoalArgs,

    /// How moves are counted: stm, one tile one cell (everything above), or mtm, the
    /// multi-tile metric (the blank jumps 1 to side-1 cells along a line, one move); with mtm
    /// the engines are automaton, ida and bfs
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = crate::mtm::Metric::Stm)]
    pub metric: crate::mtm::Metric,
}

/// The longest random walk: far past the point where a walk's end is as mixed as a uniformly
/// random position, and still a moment's work.
pub const MAX_WALK: usize = 1_000_000;

/// Parses `--walk`: a number of moves up to [`MAX_WALK`].
pub fn parse_walk(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&length| length <= MAX_WALK)
        .ok_or_else(|| format!("--walk takes a number of moves from 0 to {MAX_WALK}, not {text:?}"))
}

/// What a cross-check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub positions: u64,
    /// Engine runs that answered (the skipped ones not counted).
    pub runs: u64,
    pub disagreements: u64,
    pub skipped: u64,
}

pub fn run(args: &CrosscheckArgs) -> Result<(), Failure> {
    run_to(args, &mut super::out(), true)?.verdict()
}

/// The cross-check of `args` with its lines written to `out` (the progress bar on stderr when
/// `progress`): the counts, whether or not something disagreed.
pub fn run_to(
    args: &CrosscheckArgs,
    out: &mut dyn Write,
    progress: bool,
) -> Result<Report, Failure> {
    if args.count == 0 {
        return Err(Failure::BadInput("--count must be at least 1".into()));
    }
    // The MTM engines are built with their bound and pruning.
    let config = match args.metric {
        Metric::Stm => None,
        Metric::Mtm => Some(mtm_config(args)?),
    };
    let goal = args.goal.read(Some(args.size), Convention::Knuth)?;
    let kinds = match args.selection.engines.as_slice() {
        [] => EngineKind::value_variants(),
        named => named,
    };
    let engines = kinds
        .iter()
        .map(|&kind| {
            let engine = match &config {
                None => kind.engine(),
                Some(config) => super::mtm::engine(kind, config)?,
            };
            Ok(super::GoalArgs::engine(goal.as_ref(), engine))
        })
        .collect::<Result<Vec<Box<dyn Engine>>, Failure>>()?;
    let engines: Vec<&dyn Engine> = engines.iter().map(|e| e.as_ref()).collect();
    let positions = positions(args, goal.as_ref());
    let options = match config {
        None => stm_options(args, goal.as_ref())?,
        Some(_) => SearchOptions {
            memory_limit: Some(args.selection.memory),
            ..SearchOptions::default()
        },
    };
    Ok(check_positions_with(
        positions,
        &engines,
        &options,
        out,
        progress,
        judge(args.metric),
        goal.as_ref(),
    )?)
}

/// The MTM engines' configuration of `--heuristic`, `--tables` and `--prune`; what they
/// cannot take (relabel off 4x4, several threads) refused.
fn mtm_config(args: &CrosscheckArgs) -> Result<crate::mtm::Config, Failure> {
    let config = super::mtm::config(
        args.heuristic.heuristic.as_ref(),
        args.heuristic.tables.as_deref(),
        (args.heuristic.prune, false),
    )?;
    super::mtm::check_boards(&config, std::iter::once(args.size))?;
    if args.threads.threads.is_some_and(|n| n > 1) {
        return Err(Failure::BadInput(
            "crosscheck runs the MTM engines on one thread: leave --threads out with --metric mtm"
                .into(),
        ));
    }
    Ok(config)
}

/// The STM engines' options: the heuristic (Manhattan by default; tables built toward the
/// goal, see [`crate::goal`]), its pruning, and the threads.
fn stm_options(args: &CrosscheckArgs, goal: Option<&Goal>) -> Result<SearchOptions, Failure> {
    let board = goal.map_or(args.size, Goal::searched);
    let manhattan = crate::heuristic::store::Choice::Manhattan;
    let heuristic = args.heuristic.resolve(board, manhattan, false)?;
    Ok(SearchOptions {
        memory_limit: Some(args.selection.memory),
        prune: args.heuristic.machine(&heuristic, false)?,
        heuristic,
        threads: args.threads.count(),
        ..SearchOptions::default()
    })
}

/// The seeded positions of a cross-check: uniformly random or random walks, from the standard
/// goal, or from `--goal` (the positions whose standard problems those are).
pub fn positions<'a>(
    args: &'a CrosscheckArgs,
    goal: Option<&'a Goal>,
) -> impl Iterator<Item = Position> + 'a {
    let mut source = PositionSource::new(args.seed);
    (0..args.count).map(move |_| {
        // The standard problems' board: toward a goal whose blank is not in a corner, the
        // board with the blank's home on its cell.
        let board = goal.map_or(args.size, Goal::searched);
        let standard = match args.walk {
            Some(length) => source.random_walk(board, length),
            None => source.random_solvable(board),
        };
        match goal {
            Some(goal) => goal.from_standard(&standard),
            None => standard,
        }
    })
}

impl Report {
    /// Success only when nothing disagreed (the lines saying what did are already written).
    pub fn verdict(&self) -> Result<(), Failure> {
        if self.disagreements == 0 {
            Ok(())
        } else {
            Err(Failure::Disagreement(String::new()))
        }
    }
}

/// Solves every position with every engine, writes a line per position with a disagreement and
/// the closing summary line to `out`, and returns the counts. The progress bar (stderr) shows
/// only when `progress` is set and stderr is a terminal.
///
/// The positions are taken one at a time and forgotten, so memory stays bounded for any count.
pub fn check_positions(
    positions: impl IntoIterator<Item = Position>,
    engines: &[&dyn Engine],
    options: &SearchOptions,
    out: &mut dyn Write,
    progress: bool,
) -> std::io::Result<Report> {
    check_positions_with(positions, engines, options, out, progress, &STM, None)
}

/// How a cross-check judges answers: the problems with one position's runs, and what a run
/// said (its length), for the line of a disagreement.
pub struct Judge {
    pub disagreements: fn(&Position, &[EngineRun]) -> Vec<String>,
    pub summary: fn(&Position, &EngineRun) -> String,
}

/// The single-tile metric's judge ([`crate::differential`]).
pub const STM: Judge = Judge {
    disagreements,
    summary: stm_summary,
};

/// The multi-tile metric's judge ([`crate::mtm::check`]).
pub const MTM: Judge = Judge {
    disagreements: crate::mtm::check::disagreements,
    summary: crate::mtm::check::summary,
};

/// The judge of `metric`'s answers.
pub fn judge(metric: Metric) -> &'static Judge {
    match metric {
        Metric::Stm => &STM,
        Metric::Mtm => &MTM,
    }
}

fn stm_summary(_: &Position, run: &EngineRun) -> String {
    run.summary()
}

/// The problems with runs toward `goal` from `start`: each solution must replay to the goal,
/// and, in the standard problem's names, satisfy `judge` there as any run does.
fn toward(goal: &Goal, start: &Position, runs: &[EngineRun], judge: &Judge) -> Vec<String> {
    let mut problems = Vec::new();
    let mut standard_runs = runs.to_vec();
    for run in &mut standard_runs {
        if let Ok(outcome) = &mut run.result {
            for solution in &mut outcome.solutions {
                if !goal.reached(start, &solution.moves) {
                    problems.push(format!(
                        "{}: moves {} do not replay to the goal {}",
                        run.engine,
                        start.moves_notation(&solution.moves, Convention::Knuth),
                        goal.position().notation(Convention::Knuth)
                    ));
                }
                solution.moves = goal.tiles_forward(&solution.moves);
            }
        }
    }
    match goal.standard(start) {
        Ok(standard) => problems.extend((judge.disagreements)(&standard, &standard_runs)),
        Err(error) => problems.push(error.to_string()),
    }
    problems
}

/// [`check_positions`] with a metric's judge, toward a goal.
pub fn check_positions_with(
    positions: impl IntoIterator<Item = Position>,
    engines: &[&dyn Engine],
    options: &SearchOptions,
    out: &mut dyn Write,
    progress: bool,
    judge: &Judge,
    goal: Option<&Goal>,
) -> std::io::Result<Report> {
    let positions = positions.into_iter();
    let bar = if progress {
        match positions.size_hint() {
            (low, Some(high)) if low == high => ProgressBar::new(high as u64),
            _ => ProgressBar::no_length(),
        }
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed} ({eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut report = Report::default();
    let mut skip_reasons: Vec<String> = Vec::new();
    for start in positions {
        let runs: Vec<EngineRun> = engines
            .iter()
            .map(|engine| EngineRun::new(*engine, &start, options))
            .collect();
        report.positions += 1;
        for run in &runs {
            if let Some(reason) = run.skipped() {
                report.skipped += 1;
                if skip_reasons.is_empty() {
                    skip_reasons.push(format!("{}: {reason}", run.engine));
                }
            } else {
                report.runs += 1;
            }
        }
        let problems = match goal {
            None => (judge.disagreements)(&start, &runs),
            Some(goal) => toward(goal, &start, &runs, judge),
        };
        if !problems.is_empty() {
            report.disagreements += 1;
            let said: Vec<String> = runs
                .iter()
                .map(|r| format!("{} {}", r.engine, (judge.summary)(&start, r)))
                .collect();
            bar.suspend(|| {
                writeln!(
                    out,
                    "DISAGREEMENT {} {}: {} ({})",
                    start.board(),
                    start.notation(Convention::Knuth),
                    problems.join("; "),
                    said.join(", ")
                )
            })?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if report.skipped > 0 {
        writeln!(
            out,
            "{} engine runs skipped, the first because {}",
            report.skipped,
            skip_reasons.join("; ")
        )?;
    }
    let skipped = if report.skipped > 0 {
        format!(" ({} skipped)", report.skipped)
    } else {
        String::new()
    };
    writeln!(
        out,
        "{} positions, {} engine runs{skipped}, {} disagreement{}",
        report.positions,
        report.runs,
        report.disagreements,
        if report.disagreements == 1 { "" } else { "s" }
    )?;
    Ok(report)
}
