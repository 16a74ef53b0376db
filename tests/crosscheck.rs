//! The cross-checker catches a wrong engine, and `fifteen crosscheck` / `fifteen compare` work
//! end to end from the command line.
#![forbid(unsafe_code)]

use assert_cmd::Command;
use fifteen::cli::crosscheck::{check_positions, Report};
use fifteen::engine::reference::ReferenceIda;
use fifteen::engine::{Answer, Progress};
use fifteen::random::PositionSource;
use fifteen::{Board, Convention, Engine, Position, SearchOptions, SearchOutcome};
use std::process::Output;

/// An engine that answers like the reference, then tampers with the answer.
struct Tampered {
    name: &'static str,
    tamper: fn(&mut SearchOutcome),
}

impl Engine for Tampered {
    fn name(&self) -> &'static str {
        self.name
    }

    fn solve(&self, start: &Position, options: &SearchOptions, progress: Progress<'_>) -> Answer {
        let mut outcome = ReferenceIda.solve(start, options, progress)?;
        (self.tamper)(&mut outcome);
        Ok(outcome)
    }
}

/// Runs `fifteen ARGS` to its end.
fn fifteen(args: &[&str]) -> Output {
    Command::cargo_bin("fifteen")
        .expect("binary")
        .args(args)
        .output()
        .expect("runs")
}

/// Runs `fifteen ARGS`, which must succeed (status 0); its stdout.
fn succeeds(args: &[&str]) -> String {
    let output = fifteen(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(0), "{args:?}: {stdout}");
    stdout
}

/// Drops the last two moves of long solutions: two moves short, and they do not replay.
const TRUNCATING: Tampered = Tampered {
    name: "truncating",
    tamper: |outcome| {
        for solution in &mut outcome.solutions {
            if solution.len() > 20 {
                solution.moves.truncate(solution.len() - 2);
            }
        }
    },
};

/// Counts one node too many in every bound.
const MISCOUNTING: Tampered = Tampered {
    name: "miscounting",
    tamper: |outcome| {
        for bound in &mut outcome.stats.bounds {
            bound.nodes = bound.nodes.map(|n| n + 1);
        }
    },
};

/// Cross-checks `positions` with `engines`; returns the counts and what was written.
fn check(positions: &[Position], engines: &[&dyn Engine]) -> (Report, String) {
    let mut out = Vec::new();
    let report = check_positions(
        positions.iter().copied(),
        engines,
        &SearchOptions::default(),
        &mut out,
        false,
    )
    .expect("writing to a vector");
    (report, String::from_utf8_lossy(&out).into_owned())
}

fn positions(count: usize) -> Vec<Position> {
    let mut source = PositionSource::new(20261121);
    let board = Board::new(3, 3).expect("3x3");
    (0..count).map(|_| source.random_solvable(board)).collect()
}

#[test]
fn a_wrong_engine_is_caught_and_the_position_named() {
    let positions = positions(30);
    let long = positions
        .iter()
        .filter(|p| {
            ReferenceIda
                .solve(p, &SearchOptions::default(), &mut |_| {})
                .ok()
                .and_then(|o| o.length())
                .is_some_and(|l| l > 20)
        })
        .count();
    assert!(long > 0, "some random 8-puzzles need more than 20 moves");
    let (report, text) = check(&positions, &[&ReferenceIda, &TRUNCATING]);
    assert_eq!(report.disagreements, long as u64);
    assert_eq!(
        fifteen::cli::report(report.verdict()),
        1,
        "crosscheck exits with status 1"
    );
    assert_eq!(report.positions, 30);
    assert_eq!(report.runs, 60);
    let first_bad = text.lines().next().unwrap_or_default();
    assert!(first_bad.starts_with("DISAGREEMENT 3x3 "), "{text}");
    assert!(first_bad.contains("do not replay"), "{first_bad}");
    assert!(first_bad.contains("lengths differ"), "{first_bad}");
    // The position named is one the truncating engine got wrong.
    let named = first_bad.split_whitespace().nth(2).unwrap_or_default();
    let named = Position::parse(named.trim_end_matches(':'), None, Convention::Knuth)
        .expect("the line names a position");
    assert!(positions.contains(&named));
    assert!(text.lines().last().is_some_and(|l| l
        == format!(
            "30 positions, 60 engine runs, {long} disagreement{}",
            if long == 1 { "" } else { "s" }
        )));
}

#[test]
fn node_count_differences_are_disagreements() {
    let positions = positions(5);
    let (report, text) = check(&positions, &[&ReferenceIda, &MISCOUNTING]);
    // Every random 8-puzzle here needs more than its Manhattan bound, so it has a completed bound.
    assert_eq!(report.disagreements, 5, "{text}");
    assert!(text.contains("nodes in the completed bound of"), "{text}");
}

#[test]
fn agreeing_engines_pass() {
    let positions = positions(20);
    let (report, text) = check(&positions, &[&ReferenceIda, &ReferenceIda]);
    assert_eq!(report.disagreements, 0);
    assert_eq!(fifteen::cli::report(report.verdict()), 0);
    assert_eq!(
        text.trim_end(),
        "20 positions, 40 engine runs, 0 disagreements"
    );
}

#[test]
fn crosscheck_command_reports_and_exits_zero() {
    let stdout = succeeds(&[
        "crosscheck",
        "--count",
        "25",
        "--seed",
        "7",
        "--size",
        "3x4",
        "--walk",
        "30",
        "--memory",
        "4M",
    ]);
    let last = stdout.lines().last().unwrap_or_default();
    // 3x4 positions are too large for bfs within 4M now and then: those runs are skipped,
    // and the runs counted are the ones that answered.
    let counts: Vec<u64> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(counts.len(), 4, "{last}");
    assert_eq!(counts[0], 25, "{last}");
    assert_eq!(
        counts[1] + counts[2],
        75,
        "three engines on 25 positions: {last}"
    );
    // The automaton and the reference answer every 3x4 position (50 runs); only bfs declines,
    // when its search outgrows 4M, and it answers some (the positions nearer the goal).
    assert!((51..75).contains(&counts[1]), "runs answered: {last}");
    assert!(
        last.ends_with(&format!(
            " engine runs ({} skipped), 0 disagreements",
            counts[2]
        )),
        "{last}"
    );
}

#[test]
fn compare_prints_table_and_summary() {
    let binary = assert_cmd::cargo::cargo_bin("fifteen");
    let peer = format!(
        "{} solve --engine ida --heuristic manhattan",
        binary.display()
    );
    let stdout = succeeds(&[
        "compare",
        "--engines",
        "ida",
        "--repeat",
        "2",
        "--peer",
        &peer,
        "01f69a43e8cb572d",
        "867254301",
        "41230756b98a",
    ]);
    let positions = ["01f69a43e8cb572d", "867254301", "41230756b98a"];
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| positions.iter().any(|p| l.starts_with(p)))
        .collect();
    assert_eq!(rows.len(), 6, "{stdout}");
    // position, engine, length, nodes (counted for our engines only), seconds, nodes/s.
    let ida_row = |position: &str| -> Vec<String> {
        stdout
            .lines()
            .find(|l| l.starts_with(position) && l.contains(" ida "))
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let korf9 = ida_row("01f69a43e8cb572d");
    assert_eq!(korf9.len(), 6, "{stdout}");
    assert_eq!(korf9[2], "46");
    assert!(
        korf9[3].parse::<u64>().is_ok_and(|n| n > 1_000_000),
        "{stdout}"
    );
    assert!(korf9[4].parse::<f64>().is_ok(), "{stdout}");
    assert_eq!(ida_row("41230756b98a")[2], "36", "{stdout}");
    assert_eq!(ida_row("867254301")[2], "31", "{stdout}");
    assert!(stdout.contains("times faster than"), "{stdout}");
}

#[test]
fn compare_runs_korf100_from_the_shipped_data() {
    let stdout = succeeds(&[
        "compare",
        "--engines",
        "ida",
        "--repeat",
        "1",
        "--korf100",
        "9,79",
        "--json",
    ]);
    let value: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    let rows = value["rows"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["position"], "korf100-9");
    assert_eq!(rows[0]["length"], 46);
    assert_eq!(rows[1]["position"], "korf100-79");
    assert_eq!(rows[1]["length"], 42);
}

#[test]
fn compare_refuses_bad_input() {
    for (args, message) in [
        (vec!["compare"], "no positions"),
        (vec!["compare", "--korf100", "101"], "--korf100 takes"),
        (vec!["compare", "--korf50", "0"], "--korf50 takes"),
        (vec!["compare", "123456789abcdfe0"], "unreachable"),
        (
            vec!["compare", "--repeat", "0", "867254301"],
            "--repeat takes 1 to 1000",
        ),
    ] {
        let output = fifteen(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(message),
            "{args:?}"
        );
    }
}

#[test]
fn compare_runs_every_engine_by_default() {
    let stdout = succeeds(&[
        "compare",
        "--repeat",
        "2",
        "867254301",
        "647850321",
        "123456780",
    ]);
    for engine in ["automaton", "ida", "bfs"] {
        let rows: Vec<&str> = stdout
            .lines()
            .filter(|l| l.split_whitespace().nth(1) == Some(engine))
            .collect();
        assert_eq!(rows.len(), 3, "{engine}: {stdout}");
        for row in rows {
            let fields: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(fields.len(), 6, "{row}");
            let expected = match fields[0] {
                "123456780" => "0",
                _ => "31",
            };
            assert_eq!(fields[2], expected, "{row}");
            assert!(fields[3].parse::<u64>().is_ok(), "nodes of {row}");
            assert!(fields[4].parse::<f64>().is_ok(), "seconds of {row}");
        }
    }
    let summary: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(" times faster than "))
        .collect();
    assert_eq!(summary.len(), 2, "{stdout}");
}
