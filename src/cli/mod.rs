//! The `fifteen` command line (clap): one file per subcommand.
//!
//! Every failure becomes one line on stderr (or Knuth's "Sorry …" line on stdout) and an exit
//! status: 0 solved, 1 no solution exists, 2 bad input or usage. Nothing here panics on input.

pub mod compare;
pub mod crosscheck;
pub mod sliding;
pub mod solve;

use crate::engine::EngineKind;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

/// Provably shortest solutions to sliding puzzles.
#[derive(Debug, Parser)]
#[command(name = "fifteen", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve an n-puzzle position optimally (IDA* with the Manhattan bound).
    Solve(solve::SolveArgs),
    /// Solve seeded positions with several engines and check that they agree.
    Crosscheck(crosscheck::CrosscheckArgs),
    /// Time engines (and external programs) side by side on the same positions.
    Compare(compare::CompareArgs),
    /// Shortest solutions of general sliding-block puzzles (Knuth's SLIDING, breadth-first).
    Sliding(sliding::SlidingArgs),
}

/// The engines a multi-engine command runs, and the BFS engine's budget.
#[derive(Debug, Args)]
pub struct EngineSelection {
    /// Engines to run, separated by commas (default: all).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
    pub engines: Vec<EngineKind>,

    /// Memory budget of the BFS engine per position (e.g. 64M, 1G); a position that needs more
    /// is skipped by it, and the output says so.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = sliding::parse_size)]
    pub memory: u64,
}

impl EngineSelection {
    /// The chosen engines, all of them when none was named.
    pub fn kinds(&self) -> Vec<EngineKind> {
        if self.engines.is_empty() {
            EngineKind::value_variants().to_vec()
        } else {
            self.engines.clone()
        }
    }
}

/// How a command ended when it did not succeed.
#[derive(Debug)]
pub enum Failure {
    /// No solution exists (exit status 1); the message goes to stdout, as Knuth's programs do.
    NoSolution(String),
    /// Something disagreed or failed a check (exit status 1); the message goes to stderr.
    Disagreement(String),
    /// Bad input or usage (exit status 2); the message goes to stderr.
    BadInput(String),
}

impl Failure {
    pub fn bad_input(error: impl std::fmt::Display) -> Failure {
        Failure::BadInput(error.to_string())
    }
}

/// Runs the command line and returns the process's exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version: clap prints them to stdout.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("{}", one_line(&error.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Crosscheck(args) => crosscheck::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Sliding(args) => sliding::run(&args),
    };
    ExitCode::from(report(result))
}

/// Writes a command's failure where it belongs and returns the exit status:
/// 0 success, 1 no solution or a disagreement, 2 bad input or usage.
pub fn report(result: Result<(), Failure>) -> u8 {
    match result {
        Ok(()) => 0,
        Err(Failure::NoSolution(message)) => {
            if !message.is_empty() {
                println!("{message}");
            }
            1
        }
        Err(Failure::Disagreement(message)) => {
            if !message.is_empty() {
                eprintln!("{message}");
            }
            1
        }
        Err(Failure::BadInput(message)) => {
            eprintln!("{message}");
            2
        }
    }
}

/// Squeezes a clap usage error into one line: its text up to the first blank line (the usage
/// and `--help` hints follow it), with line breaks and indentation folded into single spaces.
fn one_line(message: &str) -> String {
    let head = message.split("\n\n").next().unwrap_or(message);
    head.split_whitespace().collect::<Vec<_>>().join(" ")
}
