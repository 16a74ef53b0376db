//! `fifteen solve POSITION`: optimal solutions of one n-puzzle position, in either metric,
//! printed in the lines of Knuth's KORF0 (` ... no solution with H+S moves (T sec)` per failed
//! bound, flushed as each bound finishes, then `Solution in H+S moves: PIECES (T sec)`; in MTM
//! ` ... no solution with N moves` and `Solution in N moves (S in STM)`), or as one JSON
//! object.
//!
//! One path for both metrics: the flags become a search ([`super::plan`]), the search's bound
//! lines and outcome are written in the metric's words ([`super::metric`],
//! [`super::outcome`]).

use super::live::{BoundLines, Ticker};
use super::outcome::{json_report, print_text};
use super::plan::Solver;
use super::Failure;
use crate::board::Direction;
use crate::engine::{BoundStats, Cause, EngineError, EngineKind, Stop, Stopped};
use crate::goal::Goal;
use crate::heuristic::store::{stronger_tables, Choice};
use crate::mtm::Metric;
use crate::position::{Convention, MoveNotation, Position};
use clap::Args;
use indicatif::ProgressBar;
use std::io::Write;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The start position: hex digits row by row (`159d26ae37bf48c0`, boards of at most 16
    /// cells) or decimal tiles separated by commas or spaces; 0 is the blank.
    #[arg(
        required_unless_present = "file",
        conflicts_with = "file",
        num_args = 1..,
        value_name = "POSITION"
    )]
    pub position: Vec<String>,

    /// Solve every position of a file instead (one per line, `-` for standard input; blank
    /// lines and `#` comments are skipped): one result line each, then a summary.
    #[arg(long, value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub goal: super::GoalArgs,

    #[command(flatten)]
    pub board: super::BoardArgs,

    /// Which engine searches.
    #[arg(long, value_enum, default_value_t = EngineKind::Automaton)]
    pub engine: EngineKind,

    /// Order in which the blank's directions are tried, a permutation of E, N, W, S
    /// (reference engine only; default ENWS as in KORF0).
    #[arg(long, value_name = "ORDER", value_parser = parse_order)]
    pub order: Option<[Direction; 4]>,

    /// Print every optimal solution instead of the first (IDA* engines).
    #[arg(long)]
    pub all: bool,

    /// How the solution's moves are written: the tiles pushed (Knuth's line), the blank's
    /// moves as U/D/L/R, or a picture of the board after each move.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = MoveNotation::Tiles)]
    pub moves: MoveNotation,

    /// Also print the number of nodes generated and the nodes per second.
    #[arg(long)]
    pub stats: bool,

    /// Print one JSON object instead of text lines.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub heuristic: super::HeuristicArgs,

    #[command(flatten)]
    pub threads: super::ThreadArgs,

    /// Memory budget for engines that store positions (bfs), e.g. 512M, 2G or bytes.
    #[arg(long, value_name = "SIZE", value_parser = super::sliding::parse_size)]
    pub memory: Option<u64>,

    /// Give up a search still unfinished after this long (90s, 10m, 2h; with --file, each
    /// position has this long): one line on stderr names the bound reached and the nodes
    /// spent (bfs: the distance worked on and the configurations found), exit status 3.
    #[arg(long, value_name = "DURATION", value_parser = super::parse_duration)]
    pub time_limit: Option<super::Duration>,

    /// Give up a search still unfinished after this many nodes (with --file, each position
    /// has as many), as --time-limit does; the search stops within a small part of the bound
    /// past N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,

    /// How moves are counted: stm, one tile one cell (everything above), or mtm, the
    /// multi-tile metric (the blank jumps 1 to side-1 cells along a line, one move). With mtm
    /// the engine is the MTM automaton (automaton: the default on boards of at most 16 cells),
    /// the reference MTM IDA* (ida: the default on larger boards; the same tree and nodes) or
    /// bfs (SLIDING style 3); --heuristic is walking (walking distance in MTM), relabel (4x4: a
    /// 76 MB table of the board relabelled two ways, alone: walking distance left out as slower; built in about 25 s on first use and kept in
    /// --tables DIR, else $FIFTEEN_TABLES, else the cache directory, beside the pattern databases) or default (relabel
    /// on 4x4). Moves are written as players write them: the direction the TILES move and a
    /// count above one (`D3 R L2 U`: three tiles down, one right, ...), --moves blank the
    /// blank's directions; the MTM count comes first, the STM length of the same path beside.
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = crate::mtm::Metric::Stm)]
    pub metric: crate::mtm::Metric,
}

/// Parses `--order`: the four letters E, N, W, S, each once.
pub fn parse_order(text: &str) -> Result<[Direction; 4], String> {
    let bad = || {
        format!("--order takes the four directions E, N, W, S, each once (e.g. SEWN), not {text:?}")
    };
    let letters: Vec<Direction> = text
        .chars()
        .map(Direction::from_letter)
        .collect::<Option<Vec<_>>>()
        .ok_or_else(bad)?;
    let order: [Direction; 4] = letters.try_into().map_err(|_| bad())?;
    if Direction::ALL.iter().all(|d| order.contains(d)) {
        Ok(order)
    } else {
        Err(bad())
    }
}

impl SolveArgs {
    /// Whether `--max-nodes` or `--time-limit` is given.
    pub fn limited(&self) -> bool {
        self.max_nodes.is_some() || self.time_limit.is_some()
    }

    /// A new stop for one position's search, from now: its limits, and Ctrl-C in the binary;
    /// `None` where nothing could stop it.
    pub fn stop(&self) -> Option<Arc<Stop>> {
        let limit = self
            .time_limit
            .as_ref()
            .map(|limit| (limit.time, limit.text.clone()));
        (self.limited() || super::live::interrupts_caught())
            .then(|| Arc::new(Stop::new(self.max_nodes, limit)))
    }

    /// Whether the searches count their nodes: asked (`--stats`, `--json`), or to tell them
    /// when a limit stops a search (and to keep `--max-nodes`).
    pub fn count_nodes(&self) -> bool {
        self.stats || self.json || self.limited()
    }
}

/// The JSON object of a search stopped before its end (`--json`): the position, `"stopped"`
/// (the cause, as the line names it), the bound reached, the nodes spent, the seconds, and
/// the bounds searched to their end.
pub fn stopped_report(
    start: &Position,
    convention: Convention,
    stopped: &Stopped,
    bounds: Vec<serde_json::Value>,
) -> serde_json::Value {
    serde_json::json!({
        "position": start.notation(convention),
        "board": start.board().to_string(),
        "solvable": true,
        "stopped": stopped.cause.to_string(),
        "bound": stopped.bound,
        "nodes": stopped.nodes,
        "seconds": stopped.seconds,
        "bounds": bounds,
    })
}

/// A search's error as the command's failure; a stopped search's JSON object (with `json`)
/// written to `out` first, and the progress line of `lines` left as it was if Ctrl-C stopped
/// it (else cleared).
pub fn search_failure(
    error: EngineError,
    lines: BoundLines,
    (out, json): (&mut dyn Write, bool),
    report: &dyn Fn(&Stopped) -> serde_json::Value,
) -> Failure {
    let EngineError::Stopped(stopped) = error else {
        return match lines.finish() {
            Ok(()) => Failure::bad_input(error),
            Err(written) => Failure::Output(written),
        };
    };
    let ended = match stopped.cause {
        Cause::Interrupt => lines.interrupted(),
        _ => lines.finish(),
    };
    if let Err(written) = ended {
        return Failure::Output(written);
    }
    if json {
        if let Err(written) = writeln!(out, "{}", report(&stopped)) {
            return Failure::Output(written);
        }
    }
    stopped.into()
}

/// The start position of the command line: the arguments joined (`1 2 3 …` may come as
/// separate words); several complete positions are named as such.
pub fn parse_start(args: &SolveArgs) -> Result<Position, Failure> {
    let text = args.position.join(" ");
    Position::parse(&text, args.board.size, args.board.convention).map_err(|error| {
        // (In MTM, as before the two metrics shared this path, without the hint.)
        let whole = args.metric == Metric::Stm
            && args.position.len() > 1
            && args
                .position
                .iter()
                .all(|p| Position::parse(p, args.board.size, args.board.convention).is_ok());
        if whole {
            Failure::BadInput(format!(
                "{} positions were given, but solve takes one; to solve several, write them one per line to a file and use --file FILE (or --file - for standard input)",
                args.position.len()
            ))
        } else {
            Failure::bad_input(error)
        }
    })
}

/// The usual cause of an unsolvable 4x4 position is the other convention: say so on stderr.
pub fn convention_hint(start: &Position, convention: Convention) -> Option<String> {
    let other = match convention {
        Convention::Knuth => Convention::Korf,
        Convention::Korf => Convention::Knuth,
    };
    let text = start.notation(convention);
    let again = Position::parse(&text, Some(start.board()), other).ok()?;
    again.is_solvable().then(|| {
        format!(
            "(the goal {} is unreachable from {text}; it is solvable with --convention {})",
            match convention {
                Convention::Knuth => "in Knuth's convention",
                Convention::Korf => "in Korf's convention",
            },
            match other {
                Convention::Knuth => "knuth",
                Convention::Korf => "korf",
            }
        )
    })
}

/// Solves the one position of the command line (`--file` is [`super::batch`]'s, which plans
/// its searches as this does: the command line picks one of the two); `engine_given`: whether
/// `--engine` was on the command line.
pub fn run(args: &SolveArgs, engine_given: bool) -> Result<(), Failure> {
    let mut out = std::io::stdout();
    let report = super::Report {
        out: &mut out,
        live: true,
    };
    run_to(args, engine_given, report)
}

/// Solves the one position of `args`, its report (text or `--json`) written to `report.out`;
/// with `report.live`, the bound lines and the progress line as the command line shows them.
pub fn run_to(args: &SolveArgs, engine_given: bool, report: super::Report) -> Result<(), Failure> {
    run_hooked(args, engine_given, report, Hooks::default())
}

/// What a caller other than the command line (`fifteen serve`) adds to a solve: its own stop
/// (in place of the limits of `args` and Ctrl-C), and where each bound line goes as the
/// search finishes the bound (the lines the command line prints), with the bound's moves.
#[derive(Default)]
pub struct Hooks<'a> {
    pub stop: Option<Arc<Stop>>,
    pub bound_line: Option<&'a mut dyn FnMut(String, u32)>,
}

/// [`run_to`], with the `hooks` of a caller that is not the command line.
pub fn run_hooked(
    args: &SolveArgs,
    engine_given: bool,
    report: super::Report,
    hooks: Hooks,
) -> Result<(), Failure> {
    let super::Report { out, live } = report;
    let Hooks {
        stop,
        mut bound_line,
    } = hooks;
    let solver = Solver::new(args, engine_given)?;
    let start = parse_start(args)?;
    let board = start.board();
    let goal = args.goal.read(Some(board), args.board.convention)?;
    // Tables are built toward the goal (see crate::goal).
    let searched = goal.as_ref().map_or(board, Goal::searched);
    solver.check_board(searched).map_err(Failure::BadInput)?;
    if !reachable(&start, goal.as_ref()).map_err(Failure::BadInput)? {
        return unsolvable(&start, args, goal.is_none(), out);
    }
    // One position reads its tables a block at a time, as the search looks at them.
    let heuristic = solver.heuristic(args, searched, true)?;
    let mut search = solver.search(args, board, heuristic, goal.as_ref())?;
    let (ticker, progress_line) = match search.kind {
        EngineKind::Bfs => (None, None),
        _ if !live => (None, None),
        _ => Ticker::start().unzip(),
    };
    search.options.live = progress_line;
    // The stronger STM tables, if the search takes long (the MTM bound has none).
    let hint =
        live && args.metric == Metric::Stm && args.heuristic.heuristic != Some(Choice::Manhattan);
    if search.kind != EngineKind::Bfs && hint {
        hint_after(
            std::time::Duration::from_secs(10),
            stronger_tables(
                board,
                &search.options.heuristic.name(),
                args.heuristic.tables.as_deref(),
            ),
            ticker.as_ref().map(Ticker::bar),
        );
    }
    let mut lines = BoundLines::new(args.json, ticker);
    // Ctrl-C stops the search too (not a caller's own stop: it stops its searches itself).
    let own_stop = stop.is_none();
    search.options.stop = stop.or_else(|| args.stop());
    let _interruptible = (search.options.stop.as_ref())
        .filter(|_| own_stop)
        .map(super::live::interruptible);
    // Bound lines printed: a search that starts again prints only the bounds after them.
    let mut printed = 0;
    let mut checked_whole = false;
    // The bounds searched to their end, for the report of a stopped search.
    let mut finished = Vec::new();
    let searched = loop {
        let mut bounds = 0;
        let mut progress = |bound: &BoundStats| {
            bounds += 1;
            if bound.solutions == 0 && bounds > printed {
                if live {
                    lines.print(&args.metric.bound_line(bound));
                }
                if let Some(hook) = bound_line.as_mut() {
                    hook(
                        args.metric.bound_line(bound),
                        args.metric.bound_moves(bound),
                    );
                }
                printed = bounds;
            }
            if bounds > finished.len() {
                finished.push(args.metric.bound_json(bound));
            }
        };
        match search.engine.solve(&start, &search.options, &mut progress) {
            // A table block failed its checksum: check the tables whole (the damaged one is
            // named and rebuilt) and search again; the bounds already printed stand, since
            // they were reported before any damaged block was read.
            Err(EngineError::DamagedTable(_)) if !checked_whole => {
                search.options.heuristic = solver.heuristic(args, searched, false)?;
                checked_whole = true;
            }
            result => break result,
        }
    };
    let outcome = match searched {
        Ok(outcome) => outcome,
        Err(error) => {
            let report = |stopped: &Stopped| {
                let convention = args.board.convention;
                let mut report = stopped_report(&start, convention, stopped, finished.clone());
                args.metric.tag(&mut report);
                report
            };
            return Err(search_failure(error, lines, (out, args.json), &report));
        }
    };
    lines.finish()?;
    if args.json {
        let report = json_report(&start, (args, &solver), &search, &outcome);
        writeln!(out, "{report}")?;
    } else {
        print_text(out, &start, (args, &solver), &search, &outcome)?;
    }
    Ok(())
}

/// Says that `start` has no solution (and, on stderr, when it would have one in the other
/// convention toward the `standard` goal): its JSON object with `--json`, else the line.
fn unsolvable(
    start: &Position,
    args: &SolveArgs,
    standard: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if standard {
        if let Some(hint) = convention_hint(start, args.board.convention) {
            eprintln!("{hint}");
        }
    }
    if args.json {
        let mut report = serde_json::json!({
            "position": start.notation(args.board.convention),
            "solvable": false,
        });
        args.metric.tag(&mut report);
        writeln!(out, "{report}")?;
        return Err(Failure::NoSolution(String::new()));
    }
    Err(Failure::NoSolution(EngineError::Unsolvable.to_string()))
}

/// Whether `start` can reach the goal (`--goal`'s, or the convention's); a start on another
/// board than `--goal`'s is bad input (said).
pub fn reachable(start: &Position, goal: Option<&Goal>) -> Result<bool, String> {
    match goal {
        None => Ok(start.is_solvable()),
        Some(goal) => goal
            .standard(start)
            .map(|standard| standard.is_solvable())
            .map_err(|e| e.to_string()),
    }
}

/// The position the engines search for `start`: itself, or its standard problem toward
/// `--goal` (whose lower bounds and Manhattan distance are those toward the goal); and the
/// goal, if given.
pub fn searched(args: &SolveArgs, start: &Position) -> (Position, Option<Goal>) {
    match args.goal.read(Some(start.board()), args.board.convention) {
        Ok(Some(goal)) => (goal.standard(start).unwrap_or(*start), Some(goal)),
        _ => (*start, None),
    }
}

/// Says `hint` once on stderr if the process is still running after `wait` (a thread of its
/// own, which ends with the process), around the progress `line` if there is one.
fn hint_after(wait: std::time::Duration, hint: Option<String>, line: Option<ProgressBar>) {
    if let Some(hint) = hint {
        let spawned = std::thread::Builder::new().spawn(move || {
            std::thread::sleep(wait);
            match line {
                Some(line) => line.suspend(|| eprintln!("{hint}")),
                None => eprintln!("{hint}"),
            }
        });
        drop(spawned); // without the thread, no hint
    }
}
