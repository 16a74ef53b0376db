//! `fifteen solve --max-nodes N` and `--time-limit DURATION`, and Ctrl-C (issue 53): a search
//! still unfinished at its limit ends with one line on stderr naming the bound reached and the
//! nodes spent, exit status 3 (130 after Ctrl-C), on every IDA* engine, one thread or two, in
//! both metrics; with `--file` each position has its own limit.
#![forbid(unsafe_code)]

mod common;

use common::{assert_lines_start, command, run};
use std::process::Stdio;

/// Korf's first instance with Manhattan distance: 9 bounds, 203,514,570 nodes.
const KORF1: &str = "d68cfe0ab7459132";
/// The transposition: minutes of search with Manhattan distance, tens of seconds in MTM.
const LONG: &str = "159d26ae37bf48c0";

/// The parts of a stop line: `stopped by CAUSE in bound B, unfinished: N nodes spent in T
/// sec` as (cause, bound, nodes, seconds); `None` for the nodes of a search that counts none.
/// A line announcing the build of a table or machine the search needs (the first run on a fresh
/// checkout builds them) comes before it and is passed over.
fn stop_line(stderr: &str) -> (String, String, Option<u64>, f64) {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|line| !line.starts_with("building the "))
        .collect();
    assert_eq!(lines.len(), 1, "one line on stderr: {stderr:?}");
    let line = lines[0];
    let rest = line.strip_prefix("stopped by ").expect(line);
    let (cause, rest) = rest.split_once(" in bound ").expect(line);
    let (bound, rest) = rest.split_once(", unfinished: ").expect(line);
    let (nodes, seconds) = rest.rsplit_once(" in ").expect(line);
    let nodes = match nodes.strip_suffix(" nodes spent") {
        Some(n) => Some(n.parse().expect(line)),
        None => {
            assert_eq!(nodes, "nodes not counted (--stats counts them)", "{line}");
            None
        }
    };
    let seconds = seconds
        .strip_suffix(" sec")
        .expect(line)
        .parse()
        .expect(line);
    (cause.to_string(), bound.to_string(), nodes, seconds)
}

/// Runs `fifteen ARGS`, which a limit must stop (status 3) before any solution: its stdout and
/// the parts of its stop line (see [`stop_line`]).
fn stopped(args: &[&str]) -> (String, (String, String, Option<u64>, f64)) {
    let (status, out, err) = run(args);
    assert_eq!(status, 3, "{args:?}: {err}");
    assert!(!out.contains("Solution"), "{args:?}: {out}");
    (out, stop_line(&err))
}

/// Sends `child` SIGINT, as Ctrl-C does, and returns its stderr once it has ended, with status
/// 130.
fn interrupted(child: std::process::Child) -> String {
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let output = child.wait_with_output().expect("it ends");
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(130), "{err}");
    err
}

/// Every bound of a whole search's `--json`: (H+S, nodes).
fn bounds(args: &[&str]) -> Vec<(String, u64)> {
    let mut all = vec!["solve", "--json"];
    all.extend(args);
    let (status, out, _) = run(&all);
    assert_eq!(status, 0);
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    report["bounds"]
        .as_array()
        .expect("bounds")
        .iter()
        .map(|b| {
            let label = match b.get("bound") {
                Some(bound) => bound.to_string(),
                None => format!("{}+{}", b["happy"], b["sad"]),
            };
            (label, b["nodes"].as_u64().expect("nodes"))
        })
        .collect()
}

/// The bound in which a search spends its `max`-th node: the first whose nodes and those of
/// the bounds before reach it.
fn bound_reaching(bounds: &[(String, u64)], max: u64) -> (String, u64) {
    let mut sum = 0;
    for (label, nodes) in bounds {
        if sum + nodes >= max {
            return (label.clone(), sum);
        }
        sum += nodes;
    }
    panic!("the search ends before {max} nodes")
}

#[test]
fn max_nodes_stops_every_engine_in_the_bound_that_reaches_them() {
    let whole = bounds(&["--heuristic", "manhattan", "--threads", "1", KORF1]);
    assert_eq!(whole.iter().map(|b| b.1).sum::<u64>(), 203_514_570);
    let max = 1_000_000;
    let (bound, before) = bound_reaching(&whole, max);
    assert_eq!(bound, "46+5");
    let done = whole.iter().position(|b| b.0 == bound).expect("the bound");
    for engine in [
        ["--engine", "automaton", "--threads", "1"],
        ["--engine", "automaton", "--threads", "2"],
        ["--engine", "ida", "--threads", "1"],
        ["--engine", "ida", "--threads", "2"],
    ] {
        let mut args = vec![
            "solve",
            "--heuristic",
            "manhattan",
            "--max-nodes",
            "1000000",
        ];
        args.extend(engine);
        args.push(KORF1);
        let (out, (cause, stopped_in, nodes, _)) = stopped(&args);
        assert_eq!(cause, "--max-nodes 1000000", "{engine:?}");
        assert_eq!(stopped_in, bound, "{engine:?}");
        // At least the budget, and less than the bounds up to the one it stopped in.
        let nodes = nodes.expect("counted");
        let within = before + whole[done].1;
        assert!(nodes >= max && nodes < within, "{engine:?}: {nodes}");
        // The bounds before were searched to their end, and printed; no solution.
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), done, "{engine:?}: {out}");
        assert!(lines
            .iter()
            .all(|l| l.starts_with(" ... no solution with ")));
    }
    // On one thread the cut, and so the nodes spent, are the same from run to run; the
    // reference engine looks at the budget every 65,536 nodes.
    let once = |engine: &str| {
        let args = [
            "solve",
            "--heuristic",
            "manhattan",
            "--max-nodes",
            "1000000",
            "--threads",
            "1",
            "--engine",
            engine,
            KORF1,
        ];
        let (_, (_, _, nodes, _)) = stopped(&args);
        nodes.expect("counted")
    };
    assert_eq!(once("automaton"), once("automaton"));
    assert!(once("ida") < max + 65_536);
}

#[test]
fn max_nodes_stops_both_mtm_engines() {
    let args = [
        "--metric",
        "mtm",
        "--heuristic",
        "walking",
        "--threads",
        "1",
        "4a6f0d8c2e3b5917",
    ];
    let whole = bounds(&args);
    let total: u64 = whole.iter().map(|b| b.1).sum();
    let max = total / 3;
    let (bound, before) = bound_reaching(&whole, max);
    let max_text = max.to_string();
    for engine in [["--engine", "automaton"], ["--engine", "ida"]] {
        let mut all = vec!["solve", "--max-nodes", &max_text];
        all.extend(engine);
        all.extend(args);
        let (_, (cause, stopped_in, nodes, _)) = stopped(&all);
        assert_eq!(cause, format!("--max-nodes {max}"));
        assert_eq!(stopped_in, bound, "{engine:?}");
        let nodes = nodes.expect("counted");
        assert!(
            nodes >= max && nodes < total,
            "{engine:?}: {nodes} of {total}"
        );
        assert!(nodes >= before);
    }
}

#[test]
fn a_time_limit_stops_a_long_search_on_every_engine() {
    for engine in [
        "--heuristic manhattan --engine automaton --threads 1",
        "--heuristic manhattan --engine automaton --threads 2",
        "--heuristic manhattan --engine ida --threads 1",
        "--metric mtm --heuristic walking --engine automaton",
        "--metric mtm --heuristic walking --engine ida",
    ] {
        let mut args = vec!["solve", "--time-limit", "1s"];
        args.extend(engine.split_whitespace());
        args.push(LONG);
        let (_, (cause, _, nodes, seconds)) = stopped(&args);
        assert_eq!(cause, "--time-limit 1s");
        // Limits count the nodes even where the plain search does not.
        assert!(nodes.is_some_and(|n| n > 0), "{engine:?}");
        assert!(seconds >= 1.0, "{engine:?}: {seconds}");
    }
}

/// SIGINT, as Ctrl-C sends it, once the search has printed a bound line: a clean end on
/// every engine, status 130, and the line of the stop.
#[test]
fn ctrl_c_ends_every_engine_cleanly() {
    use std::io::{BufRead, BufReader};
    for engine in [
        "--heuristic manhattan --engine automaton --threads 1",
        "--heuristic manhattan --engine automaton --threads 2",
        "--heuristic manhattan --engine ida --threads 1 --stats",
        "--metric mtm --heuristic walking --engine ida",
    ] {
        let mut child = command()
            .arg("solve")
            .args(engine.split_whitespace())
            .arg(LONG)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("fifteen runs");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        out.read_line(&mut first).expect("a bound line");
        assert!(first.starts_with(" ... no solution with "), "{first:?}");
        let err = interrupted(child);
        let (cause, _, nodes, _) = stop_line(&err);
        assert_eq!(cause, "Ctrl-C");
        // The automaton with Manhattan distance counts no nodes unless asked.
        let counted = !(engine.contains("automaton") && engine.contains("manhattan"));
        assert_eq!(nodes.is_some(), counted, "{engine:?}: {err}");
    }
}

#[test]
fn with_a_file_each_position_has_its_limit() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let file = dir.path().join("positions.txt");
    std::fs::write(&file, format!("867254301\n{KORF1}\n123456078\n")).expect("written");
    let file = file.to_str().expect("a path");
    let args = [
        "solve",
        "--heuristic",
        "manhattan",
        "--max-nodes",
        "100000",
        "--threads",
        "1",
    ];
    let (status, out, err) = run(&[&args[..], &["--file", file]].concat());
    assert_eq!(status, 3, "{err}");
    assert_lines_start(
        &out,
        &[
            "867254301: Solution in 26+5 moves: ",
            &format!("{KORF1}: stopped by --max-nodes 100000 in bound 45+4, unfinished: "),
            "123456078: Solution in 2+0 moves: ",
            "2 positions solved, 1 stopped, ",
        ],
    );
    assert_eq!(
        err.trim(),
        format!("1 position of {file} stopped by a limit before its end")
    );
    // With --json, an object for the stopped position too.
    let (status, out, _) = run(&[&args[..], &["--json", "--file", file]].concat());
    assert_eq!(status, 3);
    let stopped: serde_json::Value =
        serde_json::from_str(out.lines().nth(1).expect("a line")).expect("JSON");
    assert_eq!(stopped["line"], 2);
    assert_eq!(stopped["stopped"], "--max-nodes 100000");
    assert_eq!(stopped["bound"], "45+4");
    assert!(stopped["nodes"].as_u64().is_some_and(|n| n >= 100_000));
}

/// The breadth-first engines stop too (issue 53: they refused the limits, and Ctrl-C killed
/// them without a word): at the distance they were working on, with the configurations found
/// as the nodes, in both metrics; Ctrl-C ends them cleanly.
#[test]
fn the_bfs_engines_stop_at_a_limit_and_at_ctrl_c() {
    for metric in ["stm", "mtm"] {
        let args = [
            "solve",
            "--engine",
            "bfs",
            "--metric",
            metric,
            "--max-nodes",
            "200000",
            KORF1,
        ];
        let (out, (cause, bound, nodes, _)) = stopped(&args);
        assert_eq!(out, "", "{args:?}");
        assert_eq!(cause, "--max-nodes 200000");
        let bound: u32 = bound.parse().expect("a distance");
        // Korf #1 is 57 moves away (fewer in MTM): 200,000 configurations are found long
        // before.
        assert!((5..20).contains(&bound), "{metric}: {bound}");
        let nodes = nodes.expect("counted");
        assert!((200_000..200_000 + (1 << 16)).contains(&nodes), "{nodes}");
    }
    let (_, (cause, _, _, seconds)) =
        stopped(&["solve", "--engine", "bfs", "--time-limit", "1s", KORF1]);
    assert_eq!(cause, "--time-limit 1s");
    assert!(seconds >= 1.0, "{seconds}");
    let child = command()
        .args(["solve", "--engine", "bfs", KORF1])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fifteen runs");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(stop_line(&interrupted(child)).0, "Ctrl-C");
}

#[test]
fn bad_limits_are_one_line() {
    for (args, said) in [
        (vec!["--time-limit", "0"], "leaves no time"),
        (vec!["--time-limit", "soon"], "bad duration \"soon\""),
        (vec!["--max-nodes", "0"], "--max-nodes"),
    ] {
        let mut all = vec!["solve"];
        all.extend(&args);
        all.push("867254301");
        let (status, out, err) = run(&all);
        assert_eq!(status, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
}
