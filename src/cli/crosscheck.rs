//! `fifteen crosscheck`: seeded positions, every selected engine on each, and every answer
//! checked (see [`crate::differential`]). Exit status 0 only when nothing disagrees.
//!
//! The last line is always `N positions, M engine runs, D disagreements`; before it, one line
//! per position where something disagreed, naming the position and what each engine said.

use super::Failure;
use crate::board::Board;
use crate::differential::{disagreements, EngineRun};
use crate::engine::{Engine, SearchOptions};
use crate::position::{Convention, Position};
use crate::random::PositionSource;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;

#[derive(Debug, Args)]
pub struct CrosscheckArgs {
    /// How many positions to generate.
    #[arg(long, default_value_t = 100)]
    pub count: usize,

    /// Seed of the position generator (the same seed gives the same positions).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Board size RxC.
    #[arg(long, value_name = "RxC", default_value = "3x3")]
    pub size: Board,

    /// Random walks of this many moves from the goal instead of uniformly random positions.
    #[arg(long, value_name = "L")]
    pub walk: Option<usize>,

    #[command(flatten)]
    pub selection: super::EngineSelection,

    /// The IDA* engines' lower bound (default here: manhattan).
    #[command(flatten)]
    pub heuristic: super::HeuristicArgs,
}

/// What a cross-check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub positions: usize,
    pub runs: usize,
    pub disagreements: usize,
    pub skipped: usize,
}

pub fn run(args: &CrosscheckArgs) -> Result<(), Failure> {
    if args.count == 0 {
        return Err(Failure::BadInput("--count must be at least 1".into()));
    }
    let engines: Vec<Box<dyn Engine>> = args.selection.kinds().iter().map(|k| k.engine()).collect();
    let engines: Vec<&dyn Engine> = engines.iter().map(|e| e.as_ref()).collect();
    let mut source = PositionSource::new(args.seed);
    let positions: Vec<Position> = (0..args.count)
        .map(|_| match args.walk {
            Some(length) => source.random_walk(args.size, length),
            None => source.random_solvable(args.size),
        })
        .collect();
    let stdout = std::io::stdout();
    let options = SearchOptions {
        memory_limit: Some(args.selection.memory),
        heuristic: args
            .heuristic
            .resolve(args.size, crate::heuristic::store::Choice::Manhattan)?,
        ..SearchOptions::default()
    };
    let report = check_positions(&positions, &engines, &options, &mut stdout.lock(), true)
        .map_err(Failure::bad_input)?;
    report.verdict()
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
pub fn check_positions(
    positions: &[Position],
    engines: &[&dyn Engine],
    options: &SearchOptions,
    out: &mut dyn Write,
    progress: bool,
) -> std::io::Result<Report> {
    let bar = if progress {
        ProgressBar::new(positions.len() as u64)
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
            .map(|engine| EngineRun::new(*engine, start, options))
            .collect();
        report.positions += 1;
        report.runs += runs.len();
        for run in &runs {
            if let Some(reason) = run.skipped() {
                report.skipped += 1;
                if skip_reasons.is_empty() {
                    skip_reasons.push(format!("{}: {reason}", run.engine));
                }
            }
        }
        let problems = disagreements(start, &runs);
        if !problems.is_empty() {
            report.disagreements += 1;
            let said: Vec<String> = runs
                .iter()
                .map(|r| format!("{} {}", r.engine, r.summary()))
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
    writeln!(
        out,
        "{} positions, {} engine runs, {} disagreement{}",
        report.positions,
        report.runs,
        report.disagreements,
        if report.disagreements == 1 { "" } else { "s" }
    )?;
    Ok(report)
}
