//! The `fifteen` command line (clap): one file per subcommand.
//!
//! `solve` (one position, and `--file` in batch.rs), `crosscheck` and `compare` take either
//! metric on one path: the metric is a value ([`crate::mtm::Metric`]) that decides the
//! engines (plan.rs for `solve`; mtm.rs builds MTM's), the lower bound, and how a solution is
//! counted and written (metric.rs, outcome.rs).
//!
//! Every failure becomes one line on stderr (or Knuth's "Sorry …" line on stdout) and an exit
//! status: 0 solved, 1 no solution exists, 2 bad input or usage, 3 a search stopped by its
//! `--max-nodes` or `--time-limit` before its end, 130 one stopped by Ctrl-C. Nothing here
//! panics on input.

pub mod apply;
pub mod batch;
pub mod compare;
pub mod crosscheck;
pub mod kept;
pub mod levels;
pub mod live;
pub mod manual;
pub mod metric;
pub mod moves;
pub mod mtm;
pub mod outcome;
pub mod plan;
pub mod scramble;
pub mod serve;
pub mod shard;
pub mod shard_search;
pub mod sliding;
pub mod solve;
pub mod tables;

use crate::board::Board;
use crate::engine::EngineKind;
use crate::heuristic::store::{Choice, Store};
use crate::heuristic::Heuristic;
use crate::prune::{Machine, Prune};
use clap::{Args, Parser, Subcommand};
use std::process::ExitCode;
use std::sync::Arc;

/// Provably shortest solutions to sliding puzzles.
#[derive(Debug, Parser)]
#[command(name = "fifteen", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve n-puzzle positions optimally (IDA* with pattern databases or Manhattan).
    Solve(solve::SolveArgs),
    /// Random solvable positions, one a line (uniform, or a random walk from the goal).
    Scramble(scramble::ScrambleArgs),
    /// Replay moves in any notation fifteen prints: the position reached, and whether it is
    /// the goal.
    #[command(visible_alias = "verify")]
    Apply(apply::ApplyArgs),
    /// The moves that undo a move string, from the position it reaches.
    Invert(moves::MovesArgs),
    /// A move string without the steps the next one undoes (`L R`), its runs as MTM moves.
    Simplify(moves::MovesArgs),
    /// A move string in another notation (`--to tiles|blank|letters|mtm`).
    Convert(moves::MovesArgs),
    /// Solve seeded positions with several engines and check that they agree.
    Crosscheck(crosscheck::CrosscheckArgs),
    /// Time engines (and external programs) side by side on the same positions.
    Compare(compare::CompareArgs),
    /// Shortest solutions of general sliding-block puzzles (Knuth's SLIDING, breadth-first).
    Sliding(sliding::SlidingArgs),
    /// Every configuration of a tile puzzle (up to 16 cells), counted by distance, in RAM.
    Levels(levels::LevelsArgs),
    /// Build or list the pattern databases (the tables of the stronger heuristics).
    Tables(tables::TablesArgs),
    /// One bound of a search cut into items for other processes or machines: plan, run, merge.
    Shard(shard::ShardArgs),
    /// Play, solve and watch in a browser: the page and its JSON API on a local HTTP server.
    Serve(serve::ServeArgs),
    /// The shell completions of fifteen, on stdout.
    Completions(manual::CompletionsArgs),
    /// The manual pages of fifteen: its page on stdout, or one per command into a folder.
    Man(manual::ManArgs),
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

/// The board and the goal convention of the positions of a command.
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Board size RxC (2 to 5 each); inferred from 4, 9, 12, 16 or 25 tiles when omitted.
    #[arg(long, value_name = "RxC")]
    pub size: Option<Board>,

    /// Goal convention of the position and of the printed moves.
    #[arg(long, value_enum, default_value_t = crate::position::Convention::Knuth)]
    pub convention: crate::position::Convention,
}

/// A goal other than the standard one (see [`crate::goal`]).
#[derive(Debug, Args)]
pub struct GoalArgs {
    /// Solve toward this goal instead of the convention's (written as a position is, with the
    /// same --size and --convention): any position of the board, of either parity, the blank
    /// anywhere (a start of the other parity has no solution). With the blank in a corner,
    /// every engine and table serves it unchanged; elsewhere the tables are built for that
    /// goal, and in MTM the engines search with walking distance, the relabelled table being
    /// built for the corner.
    #[arg(long, value_name = "POSITION")]
    pub goal: Option<String>,
}

impl GoalArgs {
    /// The goal, read on `board` (inferred when `None`) in `convention`; `None` without
    /// `--goal`.
    pub fn read(
        &self,
        board: Option<crate::board::Board>,
        convention: crate::position::Convention,
    ) -> Result<Option<crate::goal::Goal>, Failure> {
        self.goal
            .as_deref()
            .map(|text| crate::goal::parse(text, board, convention).map_err(Failure::BadInput))
            .transpose()
    }

    /// Whether `--goal` names a goal whose blank is not in a corner (read on `board` in
    /// `convention`; a goal that does not read is left to the command, which says why).
    pub fn off_corner(
        &self,
        board: Option<crate::board::Board>,
        convention: crate::position::Convention,
    ) -> bool {
        self.read(board, convention)
            .is_ok_and(|goal| goal.is_some_and(|goal| !goal.in_corner()))
    }

    /// `engine`, searching toward the goal if there is one.
    pub fn engine(
        goal: Option<&crate::goal::Goal>,
        engine: Box<dyn crate::engine::Engine>,
    ) -> Box<dyn crate::engine::Engine> {
        match goal {
            Some(goal) => Box::new(crate::goal::Toward {
                engine,
                goal: goal.clone(),
            }),
            None => engine,
        }
    }
}

/// How many threads the IDA* engines search each bound on.
#[derive(Debug, Args)]
pub struct ThreadArgs {
    /// Threads to search each bound on (default: every core; 1 is the single-threaded search).
    /// The answer and the node counts of completed bounds are the same for any number. Table
    /// builds use every core whatever this says (RAYON_NUM_THREADS=N limits them).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

impl ThreadArgs {
    /// The number of search threads. (Rayon's pool, for table builds and whole-table reads, is
    /// started only when one happens: a small solve starts no thread at all.)
    pub fn count(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        self.threads.map_or(cores, usize::from)
    }
}

/// A value parser that accepts what `parse` accepts, and offers `values` to the shell
/// completions (`fifteen completions`) without making them the only ones: `--heuristic` also
/// takes partitions of the user's and lists joined by `+`, and the command names a wrong value
/// itself. Its arguments hide the values from `--help`, whose text names them.
#[derive(Clone)]
pub struct Hinted<T> {
    parse: fn(&str) -> Result<T, String>,
    values: Vec<&'static str>,
}

impl<T: Clone + Send + Sync + 'static> clap::builder::TypedValueParser for Hinted<T> {
    type Value = T;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        self.parse.parse_ref(command, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            self.values
                .iter()
                .map(|&v| clap::builder::PossibleValue::new(v)),
        ))
    }
}

/// `--heuristic`'s parser: any name, the completions offering default, manhattan, every
/// board's preset partitions and named catalogues, and the multi-tile metric's bounds.
pub fn heuristic_names() -> Hinted<Choice> {
    use crate::heuristic::{catalogue::Catalogue, partition::Partition};
    let mut values = vec!["default", "manhattan"];
    let boards = (2..=5).flat_map(|r| (2..=5).filter_map(move |c| Board::new(r, c).ok()));
    for board in boards {
        values.extend(Partition::names(board));
        values.extend(Catalogue::names(board));
    }
    values.extend(["walking", "relabel"]);
    let mut seen = std::collections::HashSet::new();
    values.retain(|v| seen.insert(*v));
    Hinted {
        parse: |text| text.parse(),
        values,
    }
}

/// `sliding --puzzle`'s parser: any name (the command names a wrong one and the library's), the
/// completions offering the library's puzzles.
pub fn puzzle_names() -> Hinted<String> {
    Hinted {
        parse: |text| Ok(text.to_string()),
        values: crate::sliding::library::entries()
            .iter()
            .map(|e| e.name)
            .collect(),
    }
}

/// The lower bound of the IDA* engines and where its tables are kept.
#[derive(Debug, Args)]
pub struct HeuristicArgs {
    /// Lower bound: manhattan (Knuth's), a pattern-database partition (4x4: 5-5-5, 6-6-3,
    /// 7-8; 3x3: 8; 3x4 and 4x3: 6-5; 5x5: 6-6-6-6), a catalogue, the largest of several
    /// partitions (5x5: small; 4x4: 7-8+6-6-3; or any joined by +, such as 6-6-3+5-5-5), or
    /// default: the strongest partition whose
    /// tables are cached, else one built on first use (seconds; 5x5: 6-6-6-6, about 1.5
    /// minutes and 0.25 GB of memory to build; one solve holds only the blocks it reads, a
    /// batch all 90 MB).
    #[arg(long, value_name = "NAME", value_parser = heuristic_names(), hide_possible_values = true)]
    pub heuristic: Option<Choice>,

    /// Directory of the pattern-database tables (default: $FIFTEEN_TABLES, else the user's
    /// cache directory).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<std::path::PathBuf>,

    /// Duplicate pruning of the IDA* engines: fsm never extends a path that ends in a move
    /// string another string of the same effect replaces (Taylor & Korf's machine); none
    /// prunes only the move undoing the one before. Default: fsm with pattern databases and in
    /// MTM (its machine spells jumps), none with manhattan (Knuth's programs, their node
    /// counts). --all means none: it lists every optimal path.
    #[arg(long, value_enum, value_name = "HOW")]
    pub prune: Option<Prune>,
}

impl HeuristicArgs {
    /// The duplicate-pruning machine for a search with `heuristic`, listing every optimal path
    /// when `all`.
    pub fn machine(&self, heuristic: &Heuristic, all: bool) -> Result<Arc<Machine>, Failure> {
        pruning(self.prune, heuristic, all, self.tables.as_deref())
    }
}

/// Why `--all` refuses `--prune fsm` (in both metrics).
pub const ALL_PRUNES_NONE: &str =
    "--all lists every optimal path, so it prunes none: leave out --prune fsm";

/// The duplicate-pruning machine `prune` asks for (by default: fsm with pattern databases,
/// none with Manhattan) for a search with `heuristic`, listing every optimal path when `all`;
/// kept with the tables in `dir` (default: the tables' directory).
pub fn pruning(
    prune: Option<Prune>,
    heuristic: &Heuristic,
    all: bool,
    dir: Option<&std::path::Path>,
) -> Result<Arc<Machine>, Failure> {
    let prune = match (prune, all) {
        (Some(Prune::Fsm), true) => return Err(Failure::BadInput(ALL_PRUNES_NONE.into())),
        (_, true) => Prune::None,
        (Some(prune), false) => prune,
        (None, false) => match heuristic {
            Heuristic::Manhattan => Prune::None,
            Heuristic::Tables(_) | Heuristic::Catalogue(_) => Prune::Fsm,
        },
    };
    Ok(machine(prune, dir))
}

/// The machine `prune` asks for, read from the tables' directory (or `dir`) or built there,
/// once per process.
pub fn machine(prune: Prune, dir: Option<&std::path::Path>) -> Arc<Machine> {
    static FSM: std::sync::OnceLock<Arc<Machine>> = std::sync::OnceLock::new();
    match prune {
        Prune::None => Arc::default(),
        Prune::Fsm => FSM
            .get_or_init(|| {
                let dir = crate::heuristic::cache::table_dir(dir).ok();
                let (machine, _) = crate::prune::cache::load(
                    dir.as_deref(),
                    crate::prune::DEPTH,
                    crate::prune::Spelling::STM,
                    false,
                );
                Arc::new(machine)
            })
            .clone(),
    }
}

impl HeuristicArgs {
    /// The heuristic for `board`, `fallback` when none was named; its tables loaded or built,
    /// whole, or a block at a time as the search looks at them when `lazy` (one position).
    pub fn resolve(
        &self,
        board: Board,
        fallback: Choice,
        lazy: bool,
    ) -> Result<Heuristic, Failure> {
        let choice = self.heuristic.clone().unwrap_or(fallback);
        if choice == Choice::Manhattan {
            return Ok(Heuristic::Manhattan);
        }
        let key = kept::Key {
            dir: crate::heuristic::cache::table_dir(self.tables.as_deref()).ok(),
            choice: choice.clone(),
            board,
        };
        let _one_at_a_time = kept::loading();
        if let Some(heuristic) = kept::get(&key, lazy) {
            return Ok(heuristic);
        }
        let found = Store::new(self.tables.as_deref()).and_then(|mut store| {
            store.lazy = lazy;
            store.heuristic(&choice, board)
        });
        match found {
            Ok(heuristic) => {
                kept::put(key, lazy, &heuristic);
                Ok(heuristic)
            }
            // Unasked-for tables that cannot be had (no cache directory, no memory) are no
            // reason to fail: Knuth's bound always works.
            Err(message) if choice == Choice::Default => {
                eprintln!("{message}; searching with --heuristic manhattan");
                Ok(Heuristic::Manhattan)
            }
            Err(message) => Err(Failure::BadInput(message)),
        }
    }
}

/// Heuristics resolved once per board and choice, for commands that run many positions.
pub struct Resolver {
    tables: Option<std::path::PathBuf>,
    store: Option<Store>,
    known: std::collections::HashMap<(Board, Choice), Heuristic>,
}

impl Resolver {
    pub fn new(tables: Option<std::path::PathBuf>) -> Resolver {
        Resolver {
            tables,
            store: None,
            known: std::collections::HashMap::new(),
        }
    }

    /// The heuristic `choice` for `board`, its tables loaded (or built) the first time.
    pub fn get(&mut self, board: Board, choice: &Choice) -> Result<Heuristic, Failure> {
        if *choice == Choice::Manhattan {
            return Ok(Heuristic::Manhattan);
        }
        if let Some(h) = self.known.get(&(board, choice.clone())) {
            return Ok(h.clone());
        }
        if self.store.is_none() {
            self.store = Some(Store::new(self.tables.as_deref()).map_err(Failure::BadInput)?);
        }
        let store = self
            .store
            .as_ref()
            .ok_or_else(|| Failure::BadInput("no store".into()))?;
        let h = store.heuristic(choice, board).map_err(Failure::BadInput)?;
        self.known.insert((board, choice.clone()), h.clone());
        Ok(h)
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
    /// Standard output could not be written: a closed pipe ends the command quietly (exit
    /// status 0, as `head` expects); any other error is one line on stderr (exit status 2).
    Output(std::io::Error),
    /// A search stopped before its end (the message goes to stderr): by Ctrl-C (exit status
    /// 130, as a shell reports a process ended by SIGINT) or by a limit (exit status 3).
    Stopped { message: String, interrupted: bool },
}

/// The exit status of a search stopped by `--max-nodes` or `--time-limit`.
pub const STOPPED: u8 = 3;

/// The exit status of a search stopped by Ctrl-C.
pub const INTERRUPTED: u8 = 130;

impl From<crate::engine::Stopped> for Failure {
    fn from(stopped: crate::engine::Stopped) -> Failure {
        Failure::Stopped {
            interrupted: stopped.cause == crate::engine::Cause::Interrupt,
            message: stopped.to_string(),
        }
    }
}

/// A search's error as the command's failure: a stop as such, anything else bad input.
pub fn engine_failure(error: crate::engine::EngineError) -> Failure {
    match error {
        crate::engine::EngineError::Stopped(stopped) => stopped.into(),
        other => Failure::bad_input(other),
    }
}

/// A duration as the user wrote it (`--time-limit`): the time, and its text for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duration {
    pub time: std::time::Duration,
    pub text: String,
}

/// Parses a duration: seconds, or a whole number with `s`, `m` or `h` (`90`, `90s`, `10m`,
/// `2h`; the grammar of `levels --checkpoint-every`), above 0.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let (seconds, t) = duration_seconds(text, "90s, 10m or 2h")?;
    if seconds == 0 {
        return Err(format!(
            "a duration of {text:?} leaves no time; write e.g. 90s, 10m or 2h"
        ));
    }
    Ok(Duration {
        time: std::time::Duration::from_secs(seconds),
        text: t.to_string(),
    })
}

/// The seconds of a duration written as a number and a unit (`s`, the default, `m` or `h`), and
/// the text trimmed; an error names the text and gives the `examples`.
pub(crate) fn duration_seconds<'a>(
    text: &'a str,
    examples: &str,
) -> Result<(u64, &'a str), String> {
    let bad = || format!("bad duration {text:?}; write e.g. {examples}");
    let t = text.trim();
    let (digits, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let number: u64 = digits.parse().map_err(|_| bad())?;
    let seconds = match unit {
        "" | "s" => number,
        "m" => number.checked_mul(60).ok_or_else(bad)?,
        "h" => number.checked_mul(3600).ok_or_else(bad)?,
        _ => return Err(bad()),
    };
    Ok((seconds, t))
}

impl Failure {
    pub fn bad_input(error: impl std::fmt::Display) -> Failure {
        Failure::BadInput(error.to_string())
    }
}

impl From<std::io::Error> for Failure {
    /// Write errors on standard output; `?` after every `writeln!` turns them into this.
    fn from(error: std::io::Error) -> Failure {
        Failure::Output(error)
    }
}

/// Standard output, buffered by lines as Rust's own; write with `writeln!(out(), …)?` and end
/// with [`finish`] so that an error of the last flush is not lost at exit.
pub fn out() -> std::io::StdoutLock<'static> {
    std::io::stdout().lock()
}

/// Flushes standard output, so that a failed final write (a full device) is reported.
pub fn finish() -> Result<(), Failure> {
    use std::io::Write;
    std::io::stdout().flush()?;
    Ok(())
}

/// Where a solve's report goes: the command line's standard output with its bound lines and
/// progress line as the search goes (`live`), or any writer, with the report alone.
pub struct Report<'a> {
    pub out: &'a mut dyn std::io::Write,
    pub live: bool,
}

/// Whether `solve`'s `--engine` was given on the command line (with `--metric mtm` the
/// default engine depends on the board otherwise).
fn engine_given(matches: &clap::ArgMatches) -> bool {
    matches
        .subcommand_matches("solve")
        .and_then(|m| m.value_source("engine"))
        == Some(clap::parser::ValueSource::CommandLine)
}

/// The command line `argv` (its first word the program's name) read as the binary reads it,
/// and whether `solve --engine` was given; a usage error is the binary's one line.
pub fn parse_from(argv: &[String]) -> Result<(Cli, bool), Failure> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command()
        .try_get_matches_from(argv)
        .map_err(|error| Failure::BadInput(one_line(&error.render().to_string())))?;
    let cli = Cli::from_arg_matches(&matches)
        .map_err(|error| Failure::BadInput(one_line(&error.render().to_string())))?;
    Ok((cli, engine_given(&matches)))
}

/// Runs the command line and returns the process's exit status.
pub fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(error) if !error.use_stderr() => {
            // --help and --version: clap prints them to stdout, where a write error is one
            // line and status 2, as any command's output.
            let printed = error
                .print()
                .map_err(Failure::Output)
                .and_then(|()| finish());
            return ExitCode::from(report(printed));
        }
        Err(error) => {
            use clap::error::ErrorKind;
            match error.kind() {
                // No subcommand, or a misspelt one: clap's usage and its "similar subcommand"
                // tip are what the user needs, in full.
                ErrorKind::InvalidSubcommand
                | ErrorKind::MissingSubcommand
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = error.print();
                }
                _ => eprintln!("{}", one_line(&error.render().to_string())),
            }
            return ExitCode::from(2);
        }
    };
    // Whether `solve --engine` was given: MTM's default engine depends on the board (plan.rs).
    let engine_given = engine_given(&matches);
    // In this process (not in the Python package's) Ctrl-C stops a search (live.rs).
    live::catch_interrupts();
    let result = match cli.command {
        // `solve --file` is batch.rs's; it plans its searches as solve.rs does (plan.rs),
        // which knows nothing of it. Each command takes either metric.
        Command::Solve(args) => match &args.file {
            Some(file) => batch::run(&args, file, engine_given),
            None => solve::run(&args, engine_given),
        },
        Command::Crosscheck(args) => crosscheck::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Sliding(args) => sliding::run(&args),
        Command::Levels(args) => levels::run(&args),
        Command::Tables(args) => tables::run(&args),
        Command::Shard(args) => shard::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Scramble(args) => scramble::run(&args),
        Command::Apply(args) => apply::run(&args),
        Command::Invert(args) => moves::run(&args, moves::Rewrite::Invert),
        Command::Simplify(args) => moves::run(&args, moves::Rewrite::Simplify),
        Command::Convert(args) => moves::run(&args, moves::Rewrite::Convert),
        Command::Completions(args) => manual::completions(&args),
        Command::Man(args) => manual::man(&args),
    };
    let result = result.and_then(|()| finish());
    ExitCode::from(report(result))
}

/// Writes a command's failure where it belongs and returns the exit status:
/// 0 success, 1 no solution or a disagreement, 2 bad input or usage, 3 a search stopped by a
/// limit, 130 one stopped by Ctrl-C.
pub fn report(result: Result<(), Failure>) -> u8 {
    match result {
        Ok(()) => 0,
        Err(Failure::NoSolution(message)) => {
            use std::io::Write;
            if message.is_empty() {
                return 1;
            }
            let written = writeln!(out(), "{message}").and_then(|()| out().flush());
            match written {
                Ok(()) => 1,
                Err(error) => report(Err(Failure::Output(error))),
            }
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
        Err(Failure::Stopped {
            message,
            interrupted,
        }) => {
            if !message.is_empty() {
                eprintln!("{message}");
            }
            if interrupted {
                INTERRUPTED
            } else {
                STOPPED
            }
        }
        Err(Failure::Output(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(Failure::Output(error)) => {
            eprintln!("cannot write the output: {error}");
            2
        }
    }
}

/// Writes the chart of `--plot FILE` (once the command's text is out): a failure is one line
/// naming the path and the reason, and exit status 2.
pub fn write_plot(path: &std::path::Path, svg: &str) -> Result<(), Failure> {
    crate::plot::save(path, svg).map_err(|error| {
        Failure::BadInput(format!("cannot write the plot {}: {error}", path.display()))
    })
}

/// Squeezes a clap usage error into one line: its text up to the first blank line (the usage
/// and `--help` hints follow it), with line breaks and indentation folded into single spaces.
fn one_line(message: &str) -> String {
    let head = message.split("\n\n").next().unwrap_or(message);
    head.split_whitespace().collect::<Vec<_>>().join(" ")
}
