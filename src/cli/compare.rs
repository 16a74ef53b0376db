//! `fifteen compare`: the engines (and optionally external programs) on the same positions,
//! timed side by side.
//!
//! First every engine solves every position once with node counting, and the answers are checked
//! against each other ([`crate::differential`]): a disagreement is an error, not a data point.
//! Then the timed runs go round-robin — for each repeat, each position, each engine in turn — so
//! that a noisy machine's drift hits every engine alike. Each cell of the table is the median of
//! the repeats; the summary compares total times, in the style of hyperfine, with the spread
//! over the repeats.
//!
//! Either metric: with `--metric mtm` the contestants are the MTM engines ([`super::mtm`]),
//! each with the one `--heuristic` and `--prune` (no peers, no `--korf50`), judged by
//! [`crate::mtm::check`], and the rows show MTM lengths with the STM length of the same path.

use super::{Failure, Resolver};
use crate::board::Board;
use crate::differential::EngineRun;
use crate::engine::{Engine, EngineKind, SearchOptions};
use crate::heuristic::store::Choice;
use crate::heuristic::Heuristic;
use crate::mtm::{BoundChoice, Metric};
use crate::position::{Convention, Position};
use crate::prune::Prune;
use crate::random::PositionSource;
use crate::{korf100, korf50};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::process::Command;
use std::time::Instant;

/// Korf instances that `--korf100` runs by default: those whose reference search generates
/// fewer nodes than this (well under a second each).
const QUICK_KORF_NODES: u64 = 50_000_000;

/// Korf's 24-puzzle instances that `--korf50` runs by default: those that took Korf and
/// Felner fewer node expansions than this (seconds to a minute each here).
const QUICK_KORF50_EXPANSIONS: u64 = 1_000_000_000;

/// Why the reference engine's times with pattern databases measure nothing but itself.
const ORACLE: &str = "with pattern databases the reference engine ida is an unoptimised oracle: it recomputes each child's bound from scratch, hundreds of times slower than the automaton";

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Positions to run (hex digits or decimal tiles; quote lists with spaces).
    #[arg(value_name = "POSITION")]
    pub positions: Vec<String>,

    /// Board size RxC of the given, random or file positions (inferred for 4/9/12/16/25 tiles).
    #[arg(long, value_name = "RxC")]
    pub size: Option<Board>,

    /// Convention of the given positions.
    #[arg(long, value_enum, default_value_t = Convention::Knuth)]
    pub convention: Convention,

    /// Time the positions toward this goal (written as they are, with --size and
    /// --convention); each is timed as its standard problem, the same search, which --peer
    /// programs are given too. See solve's --goal.
    #[command(flatten)]
    pub goal: super::GoalArgs,

    #[command(flatten)]
    pub selection: super::EngineSelection,

    /// Korf's 100 instances: without a value the quick ones (under 50 million IDA* nodes),
    /// `all` for every one, or a comma-separated list of numbers such as `1,9,88`.
    #[arg(long, value_name = "IDS", num_args = 0..=1, default_missing_value = "quick")]
    pub korf100: Option<String>,

    /// Korf's 50 24-puzzle instances (Korf & Felner 2002): without a value the quick ones
    /// (under a billion node expansions in their runs), `all`, or numbers such as `1,38`.
    /// Each needs the 5x5 6-6-6-6 tables (built on first use: about 1.5 minutes and 0.25 GB
    /// of memory; 90 MB read whole once built).
    #[arg(long, value_name = "IDS", num_args = 0..=1, default_missing_value = "quick")]
    pub korf50: Option<String>,

    /// A file with one position per line (`#` starts a comment).
    #[arg(long, value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,

    /// This many seeded random positions (uniformly random solvable, or walks with --walk;
    /// at most 100000).
    #[arg(long, value_name = "N")]
    pub random: Option<usize>,

    /// Seed of the random positions (default 1).
    #[arg(long, requires = "random")]
    pub seed: Option<u64>,

    /// With --random: random walks of this many moves from the goal.
    #[arg(long, value_name = "L", requires = "random", value_parser = super::crosscheck::parse_walk)]
    pub walk: Option<usize>,

    /// Timed runs of every engine on every position (at most 1000).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,

    /// Also time an external program: the position (Knuth's hex) is appended as its last
    /// argument; its `Solution in H+S moves: MOVES` line is checked by replaying the moves.
    /// May be given several times.
    #[arg(long, value_name = "CMD")]
    pub peer: Vec<String>,

    /// Seconds a peer may take on one position before it is stopped (an error).
    #[arg(long, value_name = "SECS", default_value_t = 600.0)]
    pub peer_timeout: f64,

    /// Heuristics of the IDA* engines, separated by commas (e.g. manhattan,6-6-3,7-8): each
    /// engine runs with each; default manhattan (with --korf50: default, the 6-6-6-6 tables).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = super::heuristic_names(), hide_possible_values = true)]
    pub heuristic: Vec<Choice>,

    /// Directory of the pattern-database tables (default: $FIFTEEN_TABLES, else the user's
    /// cache directory).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<std::path::PathBuf>,

    /// Duplicate pruning of the IDA* engines, separated by commas (fsm, none): each engine
    /// runs with each; default fsm with pattern databases and in MTM (one only), none with
    /// manhattan (see solve).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub prune: Vec<Prune>,

    #[command(flatten)]
    pub threads: super::ThreadArgs,

    /// Print the results as one JSON object.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,

    /// Print the results as CSV.
    #[arg(long)]
    pub csv: bool,

    /// Also draw the run as an SVG chart in FILE (seconds and nodes per instance, log
    /// scales), written once the table is out.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<std::path::PathBuf>,

    /// How moves are counted: stm, one tile one cell (everything above), or mtm, the
    /// multi-tile metric (the blank jumps 1 to side-1 cells along a line, one move); with mtm
    /// the engines are automaton, ida and bfs (MTM's), and the table, --json and --csv show MTM lengths with the
    /// STM length of the same path (--peer and --korf50 are STM only)
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = crate::mtm::Metric::Stm)]
    pub metric: crate::mtm::Metric,
}

/// A contestant: one of our engines (with a heuristic, for the IDA* engines) or an external
/// program.
enum Contestant {
    Engine {
        engine: Box<dyn Engine>,
        /// Its heuristic (`None`: the MTM engines, which carry their lower bound).
        heuristic: Option<Choice>,
        /// Its duplicate pruning (`None`: the default for its heuristic).
        prune: Option<Prune>,
        /// Shown as `engine/heuristic/prune` (when several heuristics or prunings run).
        name: String,
        /// The reference engine with a pattern database (an oracle, not a contender).
        oracle: bool,
    },
    Peer {
        name: String,
        argv: Vec<String>,
    },
}

impl Contestant {
    fn name(&self) -> String {
        match self {
            Contestant::Engine { name, .. } | Contestant::Peer { name, .. } => name.clone(),
        }
    }
}

/// One row of the table: a contestant on a position.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    pub position: String,
    pub engine: String,
    /// In the metric compared (`--metric`).
    pub length: Option<usize>,
    /// With `--metric mtm`: the single-tile length of the same path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stm_length: Option<usize>,
    pub nodes: Option<u64>,
    /// Seconds of every timed run.
    pub runs: Vec<f64>,
    pub seconds: f64,
    pub nodes_per_second: Option<f64>,
    /// Why the engine declined this position (the BFS engine's memory budget), if it did.
    pub skipped: Option<String>,
}

/// One line of the summary: `faster` ran `ratio ± spread` times faster than `slower`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Speedup {
    pub faster: String,
    pub slower: String,
    pub ratio: f64,
    /// The standard deviation over the repeats; none with one repeat (`null` in JSON).
    pub spread: Option<f64>,
    /// The positions the ratio is taken over (those every contestant ran).
    pub positions: usize,
}

/// The most seeded random positions one comparison takes (`--random`).
pub const MAX_RANDOM: usize = 100_000;
/// The most timed repeats (`--repeat`).
pub const MAX_REPEAT: usize = 1_000;
/// The most timed runs in all (positions x contestants x repeats), whose times are all kept.
pub const MAX_TIMED_RUNS: usize = 10_000_000;

/// Why some lines of `--file` were left out: they decide the exit status at the end.
#[derive(Default)]
struct LeftOut {
    bad: usize,
    unsolvable: usize,
}

pub fn run(args: &CompareArgs) -> Result<(), Failure> {
    check_flags(args)?;
    let mut left_out = LeftOut::default();
    let mut published = Vec::new();
    let positions = collect_positions(args, &mut left_out, &mut published)?;
    if args.metric == Metric::Mtm {
        // Korf's published lengths count single tiles.
        published.clear();
    }
    if positions.is_empty() {
        let problem = match args.metric {
            Metric::Stm if left_out.bad + left_out.unsolvable > 0 => "no position left to compare",
            Metric::Stm => "no positions: give POSITIONs, --korf100, --korf50, --file or --random",
            // MTM refuses --korf50 (and, as before it took this path, says no more).
            Metric::Mtm => "no positions: give POSITIONs, --korf100, --file or --random",
        };
        return Err(Failure::BadInput(problem.into()));
    }
    let (mut contestants, left_out_oracle) = match args.metric {
        Metric::Stm => stm_engines(args)?,
        Metric::Mtm => (mtm_engines(args, &positions)?, false),
    };
    if left_out_oracle {
        eprintln!("(ida left out: {ORACLE}; name it in --engines to time it anyway)");
    } else if contestants
        .iter()
        .any(|c| matches!(c, Contestant::Engine { oracle: true, .. }))
    {
        eprintln!("(note: {ORACLE}; its times are not the tables' speed)");
    }
    let mut resolver = Resolver::new(args.tables.clone());
    for command in &args.peer {
        let argv: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if argv.is_empty() {
            return Err(Failure::BadInput("--peer needs a command".into()));
        }
        contestants.push(Contestant::Peer {
            name: command.clone(),
            argv,
        });
    }
    let timed_runs = positions
        .len()
        .saturating_mul(contestants.len())
        .saturating_mul(args.repeat);
    if timed_runs > MAX_TIMED_RUNS {
        return Err(Failure::BadInput(format!(
            "{} positions x {} contestants x {} repeats is {timed_runs} timed runs; at most {MAX_TIMED_RUNS} are kept",
            positions.len(),
            contestants.len(),
            args.repeat
        )));
    }
    let timeout = std::time::Duration::from_secs_f64(args.peer_timeout);
    let metric = args.metric;
    // Positions can differ a thousandfold in time, so no estimate of the time left: the line
    // says what runs now, how many positions are done, and the time elapsed.
    let bar = crate::progress::spinner();
    let count = positions.len();

    // Check: every contestant once, with node counting, and the answers must agree.
    let mut rows: Vec<Row> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    let counting = SearchOptions {
        memory_limit: Some(args.selection.memory),
        threads: match args.metric {
            Metric::Stm => args.threads.count(),
            // The MTM engines search on one thread here (more are refused).
            Metric::Mtm => 1,
        },
        ..SearchOptions::default()
    };
    let mut with_tables = vec![false; contestants.len()];
    for (p, (label, start)) in positions.iter().enumerate() {
        let mut runs = Vec::new();
        let mut lengths = Vec::new();
        for (c, contestant) in contestants.iter().enumerate() {
            bar.set_message(format!(
                "checking {label} with {} ({p} of {count} positions checked)",
                contestant.name()
            ));
            let row_index = rows.len();
            rows.push(Row {
                position: label.clone(),
                engine: contestant.name(),
                length: None,
                stm_length: None,
                nodes: None,
                runs: Vec::new(),
                seconds: 0.0,
                nodes_per_second: None,
                skipped: None,
            });
            match contestant {
                Contestant::Engine {
                    engine,
                    heuristic,
                    prune,
                    oracle,
                    ..
                } => {
                    let tuning = (heuristic.as_ref(), *prune);
                    let counting = engine_options(&mut resolver, tuning, start, args, &counting)?;
                    with_tables[c] |= *oracle && counting.heuristic != Heuristic::Manhattan;
                    let run = EngineRun::new(engine.as_ref(), start, &counting);
                    let length = run
                        .result
                        .as_ref()
                        .ok()
                        .and_then(|o| metric.length(start, o));
                    if let Ok(outcome) = &run.result {
                        rows[row_index].length = length;
                        rows[row_index].stm_length = metric.stm_length(outcome);
                        rows[row_index].nodes = outcome.stats.nodes;
                    }
                    rows[row_index].skipped = run.skipped();
                    lengths.push((contestant.name(), length));
                    runs.push(run);
                }
                Contestant::Peer { name, argv } => {
                    let (length, _) = run_peer(argv, start, timeout)?;
                    rows[row_index].length = Some(length);
                    lengths.push((name.clone(), Some(length)));
                }
            }
        }
        let mut found = (super::crosscheck::judge(metric).disagreements)(start, &runs);
        let answered: Vec<&(String, Option<usize>)> = lengths
            .iter()
            .filter(|(name, _)| {
                !runs
                    .iter()
                    .any(|r| r.engine == name && r.skipped().is_some())
            })
            .collect();
        if answered.windows(2).any(|w| w[0].1 != w[1].1) {
            let said: Vec<String> = answered
                .iter()
                .map(|(n, l)| format!("{n} {}", l.map_or("none".into(), |l| l.to_string())))
                .collect();
            found.push(format!("lengths differ: {}", said.join(", ")));
        }
        if let Some((_, length)) = published.iter().find(|(l, _)| l == label) {
            for (name, said) in &answered {
                if *said != Some(*length) {
                    let said = said.map_or("none".into(), |l| l.to_string());
                    found.push(format!("{name} found {said} moves, published {length}"));
                }
            }
        }
        found.dedup();
        for problem in found {
            problems.push(format!("{label}: {problem}"));
        }
    }
    if !problems.is_empty() {
        bar.finish_and_clear();
        return Err(Failure::Disagreement(format!(
            "the engines disagree, so there is nothing to compare:\n{}",
            problems.join("\n")
        )));
    }

    // Timed runs, round-robin.
    let plain = SearchOptions {
        count_nodes: false,
        ..counting.clone()
    };
    let width = contestants.len();
    for repeat in 0..args.repeat {
        for (p, (label, start)) in positions.iter().enumerate() {
            for (c, contestant) in contestants.iter().enumerate() {
                let row = &mut rows[p * width + c];
                if row.skipped.is_some() {
                    continue;
                }
                bar.set_message(format!(
                    "timed run {} of {}: {label} with {} ({p} of {count} positions done)",
                    repeat + 1,
                    args.repeat,
                    contestant.name()
                ));
                let seconds = match contestant {
                    Contestant::Engine {
                        engine,
                        heuristic,
                        prune,
                        ..
                    } => {
                        let tuning = (heuristic.as_ref(), *prune);
                        let plain = engine_options(&mut resolver, tuning, start, args, &plain)?;
                        let clock = Instant::now();
                        let result = engine.solve(start, &plain, &mut |_| {});
                        let seconds = clock.elapsed().as_secs_f64();
                        result.ok().map(|_| seconds)
                    }
                    Contestant::Peer { argv, .. } => Some(run_peer(argv, start, timeout)?.1),
                };
                if let Some(seconds) = seconds {
                    row.runs.push(seconds);
                }
            }
        }
    }
    bar.finish_and_clear();
    let names: Vec<String> = contestants.iter().map(Contestant::name).collect();
    let oracles: Vec<String> = contestants
        .iter()
        .zip(&with_tables)
        .filter(|(_, &tables)| tables)
        .map(|(c, _)| c.name())
        .collect();
    report(args, &mut rows, &names, &oracles)?;
    if left_out.bad > 0 {
        // (MTM says `1 bad lines`, as it did before it took this path.)
        let one = left_out.bad == 1 && metric == Metric::Stm;
        return Err(Failure::BadInput(format!(
            "{} bad line{} left out",
            left_out.bad,
            if one { "" } else { "s" }
        )));
    }
    if left_out.unsolvable > 0 {
        return Err(Failure::NoSolution(String::new()));
    }
    Ok(())
}

/// Refuses what `args` cannot compare: in MTM, what its engines do not take; any metric, a
/// `--repeat` out of range; in STM a `--peer-timeout` that is not a time (MTM takes no peer).
fn check_flags(args: &CompareArgs) -> Result<(), Failure> {
    let mtm = args.metric == Metric::Mtm;
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
    if let Some((_, why)) = unsupported.iter().find(|(given, _)| mtm && *given) {
        return Err(Failure::BadInput(why.to_string()));
    }
    if args.repeat == 0 || args.repeat > MAX_REPEAT {
        return Err(Failure::BadInput(format!(
            "--repeat takes 1 to {MAX_REPEAT} timed runs, not {}",
            args.repeat
        )));
    }
    let timeout = args.peer_timeout;
    if !mtm && (timeout <= 0.0 || !timeout.is_finite()) {
        return Err(Failure::BadInput(format!(
            "--peer-timeout takes a positive number of seconds, not {}",
            args.peer_timeout
        )));
    }
    Ok(())
}

/// The STM contestants of `args` (see [`engines`]): the heuristics named (default Manhattan,
/// with `--korf50` the default tables) with every engine that takes them.
fn stm_engines(args: &CompareArgs) -> Result<(Vec<Contestant>, bool), Failure> {
    let heuristics = if !args.heuristic.is_empty() {
        args.heuristic.clone()
    } else if args.korf50.is_some() {
        // Manhattan would not finish a single one of them.
        vec![Choice::Default]
    } else {
        vec![Choice::Manhattan]
    };
    let kinds = goal_kinds(args)?;
    Ok(engines(args, &kinds, &heuristics))
}

/// The MTM contestants of `args`: every engine named (default: all), each with the one
/// `--heuristic` and `--prune` ([`super::mtm`]), which must serve every board of `positions`.
fn mtm_engines(args: &CompareArgs, positions: &Labelled) -> Result<Vec<Contestant>, Failure> {
    let config = super::mtm::config(
        args.heuristic.first(),
        args.tables.as_deref(),
        (args.prune.first().copied(), false),
    )?;
    super::mtm::check_boards(&config, positions.iter().map(|(_, p)| p.board()))?;
    let goal = args.goal.read(args.size, args.convention)?;
    if config.bound == BoundChoice::Relabel && goal.is_some_and(|goal| !goal.in_corner()) {
        let error = crate::engine::EngineError::CornerGoal("--heuristic relabel".into());
        return Err(Failure::BadInput(error.to_string()));
    }
    let kinds = goal_kinds(args)?;
    kinds
        .into_iter()
        .map(|kind| {
            let engine = super::mtm::engine(kind, &config)?;
            Ok(Contestant::Engine {
                name: engine.name().to_string(),
                engine,
                heuristic: None,
                prune: None,
                oracle: false,
            })
        })
        .collect()
}

/// The options of an engine's run on `start`: `base` with the engine's heuristic (resolved
/// for the board) and its pruning, `tuning`; the MTM engines (no heuristic) carry theirs.
fn engine_options(
    resolver: &mut Resolver,
    tuning: (Option<&Choice>, Option<Prune>),
    start: &Position,
    args: &CompareArgs,
    base: &SearchOptions,
) -> Result<SearchOptions, Failure> {
    let (Some(choice), prune) = tuning else {
        return Ok(base.clone());
    };
    let heuristic = resolver.get(start.board(), choice)?;
    Ok(SearchOptions {
        prune: super::pruning(prune, &heuristic, false, args.tables.as_deref())?,
        heuristic,
        ..base.clone()
    })
}

/// The timed rows as the flags ask (`--json`, `--csv`, else the table with its summary),
/// then the chart of `--plot`; each row's median and rate are filled in first. `oracles`:
/// contestants whose times are not their tables' speed. Either metric (`args.metric`).
fn report(
    args: &CompareArgs,
    rows: &mut [Row],
    names: &[String],
    oracles: &[String],
) -> Result<(), Failure> {
    for row in rows.iter_mut() {
        row.seconds = median(&row.runs);
        row.nodes_per_second = row
            .nodes
            .filter(|_| row.seconds > 0.0)
            .map(|n| n as f64 / row.seconds);
    }
    let positions = rows.len() / names.len().max(1);
    let summary = speedups(rows, names, positions, args.repeat);
    let mtm = args.metric == Metric::Mtm;
    let mut out = super::out();
    if args.json {
        let report = serde_json::json!({ "metric": args.metric, "rows": rows, "summary": summary });
        writeln!(out, "{report}")?;
    } else if args.csv {
        let stm = if mtm { "stm_length," } else { "" };
        writeln!(
            out,
            "position,engine,length,{stm}nodes,seconds,nodes_per_second"
        )?;
        for row in rows.iter() {
            let count = |n: Option<usize>| n.map_or(String::new(), |n| n.to_string());
            let stm = if mtm {
                format!("{},", count(row.stm_length))
            } else {
                String::new()
            };
            writeln!(
                out,
                "{},{},{},{stm}{},{:.6},{}",
                row.position,
                row.engine,
                count(row.length),
                row.nodes.map_or(String::new(), |n| n.to_string()),
                row.seconds,
                row.nodes_per_second
                    .map_or(String::new(), |r| format!("{r:.0}")),
            )?;
        }
    } else {
        print_table(&mut out, rows, &summary, oracles, mtm)?;
    }
    if rows.iter().all(|row| row.runs.is_empty()) {
        return Err(Failure::Disagreement(
            "nothing was timed: every contestant declined every position".into(),
        ));
    }
    if let Some(path) = &args.plot {
        super::write_plot(path, &chart(rows, names, args.repeat, args.metric))?;
    }
    Ok(())
}

/// Our contestants: every named engine (each IDA* engine with each heuristic), or by default
/// every engine, the reference engine only with Manhattan (with tables it is an oracle,
/// hundreds of times slower). Also whether the default left the reference engine out.
fn engines(
    args: &CompareArgs,
    kinds: &[EngineKind],
    heuristics: &[Choice],
) -> (Vec<Contestant>, bool) {
    let named = !args.selection.engines.is_empty();
    let mut contestants = Vec::new();
    let mut left_out_oracle = false;
    for &kind in kinds {
        let engine = kind.engine();
        let ida = engine.iterative_deepening();
        let choices = if ida {
            heuristics.to_vec()
        } else {
            vec![Choice::Manhattan]
        };
        let prunings: Vec<Option<Prune>> = if args.prune.is_empty() || !ida {
            vec![None]
        } else {
            args.prune.iter().copied().map(Some).collect()
        };
        for heuristic in choices {
            let oracle = kind == EngineKind::Ida && heuristic != Choice::Manhattan;
            if oracle && !named {
                left_out_oracle = true;
                continue;
            }
            for &prune in &prunings {
                let mut name = engine.name().to_string();
                if !args.heuristic.is_empty() && ida {
                    name = format!("{name}/{heuristic}");
                }
                if let Some(prune) = prune {
                    name = format!("{name}/{}", prune.name());
                }
                contestants.push(Contestant::Engine {
                    engine: kind.engine(),
                    heuristic: Some(heuristic.clone()),
                    prune,
                    name,
                    oracle,
                });
            }
        }
    }
    (contestants, left_out_oracle)
}

/// One of a published set of instances, with its optimal length.
struct Published {
    id: u32,
    /// Run when no numbers are given.
    quick: bool,
    position: Position,
    length: usize,
}

/// The instances of `--NAME IDS` (`quick`, `all` or numbers separated by commas), labelled
/// `NAME-id` (`korf100-9`); their published lengths go into `published` under those labels.
fn choose_published(
    name: &str,
    ids: &str,
    all: &[Published],
    published: &mut Vec<(String, usize)>,
) -> Result<Vec<(String, Position)>, Failure> {
    let chosen: Vec<&Published> = match ids {
        "quick" => all.iter().filter(|i| i.quick).collect(),
        "all" => all.iter().collect(),
        list => list
            .split(',')
            .map(str::trim)
            .map(|id| {
                id.parse::<u32>()
                    .ok()
                    .and_then(|n| all.iter().find(|i| i.id == n))
                    .ok_or_else(|| {
                        Failure::BadInput(format!(
                            "--{name} takes `all` or numbers from 1 to {} separated by commas, not {id:?}",
                            all.len()
                        ))
                    })
            })
            .collect::<Result<_, _>>()?,
    };
    Ok(chosen
        .into_iter()
        .map(|i| {
            let label = format!("{name}-{}", i.id);
            published.push((label.clone(), i.length));
            (label, i.position)
        })
        .collect())
}

/// Positions with the labels they are shown under.
type Labelled = Vec<(String, Position)>;

/// The engines of `args` (all of them when none is named); toward a goal whose blank is not in
/// a corner, peers (given the standard problem as text, which cannot say where the goal's
/// blank is) are refused in one line.
fn goal_kinds(args: &CompareArgs) -> Result<Vec<EngineKind>, Failure> {
    let goal = args.goal.read(args.size, args.convention)?;
    if goal.as_ref().is_some_and(|goal| !goal.in_corner()) && !args.peer.is_empty() {
        return Err(Failure::BadInput(
            "--peer is given each position as its standard problem, which has the blank's goal in the last cell; toward a goal with the blank elsewhere, leave --peer out".into(),
        ));
    }
    Ok(match args.selection.engines.as_slice() {
        [] => EngineKind::value_variants().to_vec(),
        named => named.to_vec(),
    })
}

/// The positions to run, each with the label it is shown under (at most [`MAX_RANDOM`] random
/// ones, either metric).
fn collect_positions(
    args: &CompareArgs,
    left_out: &mut LeftOut,
    published: &mut Vec<(String, usize)>,
) -> Result<Vec<(String, Position)>, Failure> {
    if args.random.is_some_and(|n| n > MAX_RANDOM) {
        return Err(Failure::BadInput(format!(
            "--random takes at most {MAX_RANDOM} positions (crosscheck streams any number)"
        )));
    }
    let goal = args.goal.read(args.size, args.convention)?;
    if goal.is_some() && (args.korf100.is_some() || args.korf50.is_some()) {
        return Err(Failure::BadInput(
            "--korf100 and --korf50 are published toward the standard goal; leave --goal out"
                .into(),
        ));
    }
    // Toward --goal, each position is timed as its standard problem (the same search, which
    // peers are given too), shown as written.
    let problem = |p: Position| match &goal {
        None => Ok(p),
        Some(goal) => goal.standard(&p).map_err(|e| e.to_string()),
    };
    // A position read: its label (Knuth's notation, as written toward the goal) and problem.
    let read = |text: &str| {
        let p = Position::parse(text, args.size, args.convention).map_err(|e| e.to_string())?;
        Ok::<_, String>((p.notation(Convention::Knuth), problem(p)?))
    };
    let mut positions = Vec::new();
    for text in &args.positions {
        let labelled = read(text).map_err(|e| Failure::BadInput(format!("{text}: {e}")))?;
        positions.push(labelled);
    }
    if let Some(path) = &args.file {
        // As `solve --file`: a bad or unsolvable line is named on stderr and left out.
        let text = super::batch::read(path)?;
        for (number, line) in super::batch::lines(&text) {
            let where_ = format!("{} line {number}", path.display());
            match read(line) {
                Err(e) => {
                    eprintln!("{where_}: {e}");
                    left_out.bad += 1;
                }
                Ok((_, p)) if !p.is_solvable() => {
                    eprintln!(
                        "{where_}: {line}: the goal is unreachable from that position; left out"
                    );
                    left_out.unsolvable += 1;
                }
                Ok(labelled) => positions.push(labelled),
            }
        }
    }
    if let Some(ids) = &args.korf100 {
        let all: Vec<Published> = korf100::instances()
            .into_iter()
            .map(|i| Published {
                id: i.id,
                quick: i.ida_nodes < QUICK_KORF_NODES,
                position: i.position,
                length: i.optimal_length as usize,
            })
            .collect();
        positions.extend(choose_published("korf100", ids, &all, published)?);
    }
    if let Some(ids) = &args.korf50 {
        let all: Vec<Published> = korf50::instances()
            .into_iter()
            .map(|i| Published {
                id: i.id,
                quick: i.expansions < QUICK_KORF50_EXPANSIONS,
                position: i.position,
                length: i.optimal_length as usize,
            })
            .collect();
        positions.extend(choose_published("korf50", ids, &all, published)?);
    }
    if let Some(count) = args.random {
        // The standard problems' board (toward a goal whose blank is not in a corner, the
        // board with the blank's home on its cell).
        let board = match &goal {
            Some(goal) => goal.searched(),
            None => args.size.unwrap_or_else(Board::fifteen),
        };
        let mut source = PositionSource::new(args.seed.unwrap_or(1));
        for _ in 0..count {
            let p = match args.walk {
                Some(length) => source.random_walk(board, length),
                None => source.random_solvable(board),
            };
            let shown = match &goal {
                Some(goal) => goal.from_standard(&p),
                None => p,
            };
            positions.push((shown.notation(Convention::Knuth), p));
        }
    }
    if let Some((label, _)) = positions.iter().find(|(_, p)| !p.is_solvable()) {
        return Err(Failure::BadInput(format!(
            "{label}: the goal is unreachable from that position, so there is nothing to time"
        )));
    }
    Ok(positions)
}

/// Runs an external solver on `start` (stopped after `timeout`), checks its answer by
/// replaying the moves it printed, and returns the length and its wall-clock time.
fn run_peer(
    argv: &[String],
    start: &Position,
    timeout: std::time::Duration,
) -> Result<(usize, f64), Failure> {
    use std::io::Read;
    use wait_timeout::ChildExt;
    let (program, rest) = argv
        .split_first()
        .ok_or_else(|| Failure::BadInput("--peer needs a command".into()))?;
    let position = start.notation(Convention::Knuth);
    let clock = Instant::now();
    let mut child = Command::new(program)
        .args(rest)
        .arg(&position)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| Failure::BadInput(format!("--peer {program}: {e}")))?;
    // Read its output while it runs, so a talkative peer never blocks on a full pipe.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            text
        })
    };
    let reader = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let errors = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    // A failure names the peer and the position, and ends with the peer's own last word on
    // stderr (once it has exited: a peer stopped by the timeout may have left a child holding
    // the pipe).
    let failed = |what: String, errors: Option<std::thread::JoinHandle<Vec<u8>>>| {
        let said = errors
            .and_then(|e| e.join().ok())
            .map(|text| last_line(&String::from_utf8_lossy(&text)))
            .filter(|line| !line.is_empty())
            .map_or(String::new(), |line| format!("; its stderr: {line}"));
        Failure::Disagreement(format!("peer {program} {what} on {position}{said}"))
    };
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(failed(
                format!(
                    "timed out after {} sec (--peer-timeout)",
                    timeout.as_secs_f64()
                ),
                None,
            ));
        }
        Err(e) => return Err(failed(format!("could not be waited for: {e}"), None)),
    };
    let seconds = clock.elapsed().as_secs_f64();
    let text = reader.join().unwrap_or_default();
    let errors = Some(errors);
    if !status.success() {
        return Err(failed(
            match status.code() {
                Some(code) => format!("failed (exit {code})"),
                None => "failed (killed by a signal)".to_string(),
            },
            errors,
        ));
    }
    let text = String::from_utf8_lossy(&text);
    let Some((length, moves)) = text.lines().find_map(parse_solution) else {
        return Err(failed(
            "printed no `Solution in H+S moves: …` line".into(),
            errors,
        ));
    };
    let replayed = parse_moves(&moves, start)
        .and_then(|moves| start.replay(&moves).ok().map(|end| (moves.len(), end)));
    match replayed {
        Some((count, end)) if end.is_goal() && count == length => Ok((length, seconds)),
        Some((count, _)) if count != length => Err(failed(
            format!("claims {length} moves but lists {count}: {moves}"),
            errors,
        )),
        _ => Err(failed(
            format!("gave moves that do not replay to the goal: {moves}"),
            errors,
        )),
    }
}

/// The last non-blank line of a peer's stderr, trimmed and cut to 200 characters (it goes into
/// a one-line message).
fn last_line(text: &str) -> String {
    let line = text.lines().rev().map(str::trim).find(|l| !l.is_empty());
    line.unwrap_or_default().chars().take(200).collect()
}

/// The length and the moves of a line `Solution in H+S moves: MOVES (T sec)`.
fn parse_solution(line: &str) -> Option<(usize, String)> {
    let length = parse_solution_line(line)?;
    let moves = line.split_once(':').map_or("", |(_, rest)| rest);
    let moves = moves.split('(').next().unwrap_or_default().trim();
    Some((length, moves.to_string()))
}

/// Tiles pushed, in Knuth's numbering: hex digits run together on boards of at most 16 cells,
/// else decimal numbers separated by commas.
fn parse_moves(text: &str, start: &Position) -> Option<Vec<u8>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    if start.board().uses_hex() {
        text.chars()
            .map(|c| c.to_digit(16).and_then(|d| u8::try_from(d).ok()))
            .collect()
    } else {
        text.split(',')
            .map(|t| t.trim().parse::<u8>().ok())
            .collect()
    }
}

/// The length in a line `Solution in H+S moves: …`.
pub fn parse_solution_line(line: &str) -> Option<usize> {
    let rest = line.trim_start().strip_prefix("Solution in ")?;
    let (split, _) = rest.split_once(" moves")?;
    let (happy, sad) = split.split_once('+')?;
    Some(happy.trim().parse::<usize>().ok()? + sad.trim().parse::<usize>().ok()?)
}

/// The median of some times (0 for none).
pub(crate) fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The summary: the fastest contestant among those that ran every position is compared with
/// each other one over the positions both ran, as mean ± standard deviation over the repeats of
/// the ratio of their total times. A contestant that ran no position is left out.
fn speedups(rows: &[Row], names: &[String], positions: usize, repeat: usize) -> Vec<Speedup> {
    let width = names.len();
    let ran = |p: usize, c: usize| rows[p * width + c].runs.len() == repeat;
    let total = |c: usize, r: usize, shared: &[usize]| -> f64 {
        shared.iter().map(|&p| rows[p * width + c].runs[r]).sum()
    };
    let everywhere: Vec<usize> = (0..width)
        .filter(|&c| (0..positions).all(|p| ran(p, c)))
        .collect();
    let all_positions: Vec<usize> = (0..positions).collect();
    let Some(fastest) = everywhere.iter().copied().min_by(|&a, &b| {
        let time = |c| {
            (0..repeat)
                .map(|r| total(c, r, &all_positions))
                .sum::<f64>()
        };
        time(a).total_cmp(&time(b))
    }) else {
        return Vec::new();
    };
    (0..width)
        .filter(|&c| c != fastest)
        .filter_map(|c| {
            let shared: Vec<usize> = (0..positions).filter(|&p| ran(p, c)).collect();
            if shared.is_empty() {
                return None;
            }
            let ratios: Vec<f64> = (0..repeat)
                .map(|r| total(c, r, &shared) / total(fastest, r, &shared).max(1e-12))
                .collect();
            let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
            let variance = (ratios.len() > 1).then(|| {
                ratios.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (ratios.len() - 1) as f64
            });
            Some(Speedup {
                faster: names[fastest].clone(),
                slower: names[c].clone(),
                ratio: mean,
                spread: variance.map(f64::sqrt),
                positions: shared.len(),
            })
        })
        .collect()
}

/// The chart of `--plot`: each contestant's median time and node count per position.
fn chart(rows: &[Row], names: &[String], repeat: usize, metric: Metric) -> String {
    let width = names.len().max(1);
    let instances: Vec<String> = rows
        .iter()
        .step_by(width)
        .map(|r| r.position.clone())
        .collect();
    let series = names
        .iter()
        .enumerate()
        .map(|(c, name)| {
            let cells: Vec<&Row> = rows.iter().skip(c).step_by(width).collect();
            crate::plot::Series {
                name: name.clone(),
                seconds: cells
                    .iter()
                    .map(|r| (!r.runs.is_empty()).then_some(r.seconds))
                    .collect(),
                nodes: cells
                    .iter()
                    .map(|r| r.nodes.filter(|_| r.skipped.is_none()))
                    .collect(),
            }
        })
        .collect();
    crate::plot::runs(&crate::plot::Runs {
        title: match metric {
            Metric::Stm => "fifteen compare: time and nodes per instance".into(),
            Metric::Mtm => "fifteen compare --metric mtm: time and nodes per instance".into(),
        },
        timing: format!(
            "median of {repeat} timed run{}",
            if repeat == 1 { "" } else { "s" }
        ),
        instances,
        series,
    })
}

/// The table, its notes (skipped rows; the reference engine's runs with tables, named in
/// `oracles`) and the summary, if there is anything to compare. With `mtm`, the lengths are
/// in the multi-tile metric and a column `stm` has the single-tile length of the same path.
fn print_table(
    out: &mut dyn Write,
    rows: &[Row],
    summary: &[Speedup],
    oracles: &[String],
    mtm: bool,
) -> std::io::Result<()> {
    let width = rows
        .iter()
        .map(|r| r.position.len())
        .max()
        .unwrap_or(8)
        .max(8);
    let engine_width = rows
        .iter()
        .map(|r| r.engine.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let stm = |text: String| {
        if mtm {
            format!("  {text:>6}")
        } else {
            String::new()
        }
    };
    writeln!(
        out,
        "{:<width$}  {:<engine_width$}  {:>6}{}  {:>12}  {:>9}  {:>12}",
        "position",
        "engine",
        "length",
        stm("stm".into()),
        "nodes",
        "seconds",
        "nodes/s"
    )?;
    for row in rows {
        let count = |n: Option<usize>| n.map_or("-".into(), |n| n.to_string());
        writeln!(
            out,
            "{:<width$}  {:<engine_width$}  {:>6}{}  {:>12}  {:>9.4}  {:>12}",
            row.position,
            row.engine,
            match &row.skipped {
                Some(_) => "skip".to_string(),
                None => count(row.length),
            },
            stm(count(row.stm_length)),
            row.nodes.map_or("-".into(), |n| n.to_string()),
            row.seconds,
            row.nodes_per_second
                .map_or("-".into(), |r| format!("{:.1}M", r / 1e6)),
        )?;
    }
    if mtm {
        writeln!(
            out,
            "(lengths in the multi-tile metric; stm: the same path counted one tile at a time)"
        )?;
    }
    if let Some(row) = rows.iter().find(|r| r.skipped.is_some()) {
        writeln!(
            out,
            "(skip: {} declined, e.g. {}: {})",
            row.engine,
            row.position,
            row.skipped.as_deref().unwrap_or_default()
        )?;
    }
    if !oracles.is_empty() {
        writeln!(
            out,
            "({}: {ORACLE}; its times are not the tables' speed)",
            oracles.join(", ")
        )?;
    }
    if summary.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "Summary")?;
    for s in summary {
        // One repeat has no spread to show.
        let spread = s
            .spread
            .map_or(String::new(), |spread| format!(" ± {spread:.2}"));
        writeln!(
            out,
            "  {} ran {:.2}{spread} times faster than {} ({} position{})",
            s.faster,
            s.ratio,
            s.slower,
            s.positions,
            if s.positions == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}
