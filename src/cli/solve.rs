//! `fifteen solve POSITION`: optimal solutions of one n-puzzle position, printed in the lines of
//! Knuth's KORF0 (` ... no solution with H+S moves (T sec)` per failed bound, flushed as each
//! bound finishes, then `Solution in H+S moves: PIECES (T sec)`), or as one JSON object.

use super::Failure;
use crate::board::{Board, Direction};
use crate::engine::{BoundStats, EngineKind, SearchOptions, SearchOutcome};
use crate::heuristic::store::Choice;
use crate::heuristic::Heuristic;
use crate::position::{Convention, Position};
use clap::Args;
use std::io::Write;

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

    /// Board size RxC (2 to 5 each); inferred from 9, 12, 16 or 25 tiles when omitted.
    #[arg(long, value_name = "RxC")]
    pub size: Option<Board>,

    /// Goal convention of the position and of the printed moves.
    #[arg(long, value_enum, default_value_t = Convention::Knuth)]
    pub convention: Convention,

    /// Which engine searches.
    #[arg(long, value_enum, default_value_t = EngineKind::Automaton)]
    pub engine: EngineKind,

    /// Order in which the blank's directions are tried, a permutation of E, N, W, S
    /// (reference engine only; default ENWS as in KORF0).
    #[arg(long, value_name = "ORDER", value_parser = parse_order)]
    pub order: Option<[Direction; 4]>,

    /// Print every optimal solution instead of the first.
    #[arg(long)]
    pub all: bool,

    /// Also print the number of nodes generated and the nodes per second.
    #[arg(long)]
    pub stats: bool,

    /// Print one JSON object instead of text lines.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub heuristic: super::HeuristicArgs,

    /// Memory budget for engines that store positions (bfs), e.g. 512M, 2G or bytes.
    #[arg(long, value_name = "SIZE", value_parser = super::sliding::parse_size)]
    pub memory: Option<u64>,
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

pub fn run(args: &SolveArgs) -> Result<(), Failure> {
    if let Some(file) = &args.file {
        return super::batch::run(args, file);
    }
    let text = args.position.join(" ");
    let start = Position::parse(&text, args.size, args.convention).map_err(Failure::bad_input)?;
    let options = SearchOptions {
        all: args.all,
        count_nodes: args.stats || args.json,
        order: args.order,
        memory_limit: args.memory,
        heuristic: Heuristic::Manhattan,
    };
    if !start.is_solvable() {
        if args.json {
            let report = serde_json::json!({
                "position": start.notation(args.convention),
                "solvable": false,
            });
            println!("{report}");
            return Err(Failure::NoSolution(String::new()));
        }
        return Err(Failure::NoSolution(
            crate::engine::EngineError::Unsolvable.to_string(),
        ));
    }
    let options = SearchOptions {
        heuristic: heuristic_for(args, start.board())?,
        ..options
    };
    let engine = args.engine.engine();
    let json = args.json;
    let mut progress = |bound: &BoundStats| {
        if bound.solutions == 0 {
            let line = bound_line(bound);
            if json {
                eprintln!("{line}");
            } else {
                println!("{line}");
                let _ = std::io::stdout().flush();
            }
        }
    };
    let outcome = engine
        .solve(&start, &options, &mut progress)
        .map_err(Failure::bad_input)?;
    if json {
        println!(
            "{}",
            json_report(&start, args, &options.heuristic, &outcome)
        );
    } else {
        print_text(&start, args, &options.heuristic, &outcome);
    }
    Ok(())
}

/// The heuristic of `args` for `board` (none for bfs, which refuses one).
pub fn heuristic_for(args: &SolveArgs, board: crate::board::Board) -> Result<Heuristic, Failure> {
    if args.engine == EngineKind::Bfs {
        if args.heuristic.heuristic.is_some() {
            return Err(Failure::BadInput(
                "--heuristic is for the IDA* engines; bfs needs no lower bound".into(),
            ));
        }
        return Ok(Heuristic::Manhattan);
    }
    args.heuristic.resolve(board, Choice::Default)
}

/// KORF0's line for a bound without solution.
pub fn bound_line(bound: &BoundStats) -> String {
    format!(
        " ... no solution with {}+{} moves ({:.2} sec)",
        bound.happy, bound.sad, bound.seconds
    )
}

pub fn print_text(
    start: &Position,
    args: &SolveArgs,
    heuristic: &Heuristic,
    outcome: &SearchOutcome,
) {
    let last_seconds = outcome.stats.bounds.last().map_or(0.0, |b| b.seconds);
    for solution in &outcome.solutions {
        let moves = start.moves_notation(&solution.moves, args.convention);
        if args.all {
            println!(
                "Solution in {}+{} moves: {moves}",
                solution.happy, solution.sad
            );
        } else {
            println!(
                "Solution in {}+{} moves: {moves} ({last_seconds:.2} sec)",
                solution.happy, solution.sad
            );
        }
    }
    if args.all {
        let count = outcome.solutions.len();
        let plural = if count == 1 { "" } else { "s" };
        println!("{count} optimal solution{plural} ({last_seconds:.2} sec)");
    }
    if args.stats {
        if args.engine != EngineKind::Bfs {
            println!(
                "Heuristic {} estimates {} moves (Manhattan {})",
                heuristic.name(),
                heuristic.estimate(start),
                start.manhattan()
            );
        }
        let seconds = outcome.stats.seconds;
        match outcome.stats.nodes {
            Some(nodes) => println!(
                "{nodes} nodes generated in {seconds:.2} sec ({:.2} M nodes/sec)",
                nodes as f64 / seconds.max(1e-9) / 1e6
            ),
            None => println!("(nodes not counted) {seconds:.2} sec"),
        }
    }
}

pub fn json_report(
    start: &Position,
    args: &SolveArgs,
    heuristic: &Heuristic,
    outcome: &SearchOutcome,
) -> serde_json::Value {
    let first = outcome.solutions.first();
    let moves = |s: &crate::engine::Solution| start.moves_notation(&s.moves, args.convention);
    let bounds: Vec<serde_json::Value> = outcome
        .stats
        .bounds
        .iter()
        .map(|b| {
            serde_json::json!({
                "happy": b.happy, "sad": b.sad, "nodes": b.nodes, "seconds": b.seconds,
                "completed": b.completed, "solutions": b.solutions,
            })
        })
        .collect();
    let mut report = serde_json::json!({
        "position": start.notation(args.convention),
        "board": start.board().to_string(),
        "convention": args.convention,
        "engine": args.engine.name(),
        "solvable": true,
        "manhattan": start.manhattan(),
        "heuristic": (args.engine != EngineKind::Bfs).then(|| heuristic.name()),
        "estimate": (args.engine != EngineKind::Bfs).then(|| heuristic.estimate(start)),
        "length": first.map(|s| s.len()),
        "happy": first.map(|s| s.happy),
        "sad": first.map(|s| s.sad),
        "moves": first.map(moves),
        "nodes": outcome.stats.nodes,
        "seconds": outcome.stats.seconds,
        "bounds": bounds,
    });
    if args.all {
        report["solutions"] = outcome.solutions.iter().map(moves).collect();
    }
    report
}
