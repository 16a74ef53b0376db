//! `--metric mtm` on the command line: the players' notation replays to the goal in as many
//! moves as breadth-first search finds, the JSON and the pictures say the same, a batch and
//! the cross-check and comparison agree, and what cannot be done is one line and status 2.

mod common;
use common::{assert_lines_start, numbered_lines, run};
use fifteen::mtm::bfs::distances;
use fifteen::notation::{mtm_length, read, Mover};
use fifteen::{Board, Convention, Position};

const START: &str = "867254301";
/// Korf's instance 46 (Knuth's convention): 28 MTM moves, solved in milliseconds.
const KORF46: &str = "509db7631e42fac8";

/// The MTM distance of a 3x3 position, by breadth-first search.
fn distance(position: &str) -> usize {
    let start = Position::parse(position, None, Convention::Knuth).expect("valid");
    distances(Board::new(3, 3).expect("valid"), 1 << 30).expect("small")[&start] as usize
}

/// Plays moves in players' notation from `start` and says whether they reach the goal, and
/// how many moves they are.
fn replays(start: &str, moves: &str, convention: Convention) -> (bool, usize) {
    let position = Position::parse(start, None, convention).expect("valid");
    let steps = read(&position, moves, convention, Mover::Tiles).expect("players' notation");
    let words = moves.split_whitespace().count();
    assert_eq!(mtm_length(&steps), words, "{moves}");
    (fifteen::notation::play(&position, &steps).is_goal(), words)
}

#[test]
fn a_solution_in_players_notation() {
    let (status, out, err) = run(&["solve", "--metric", "mtm", START]);
    assert_eq!(status, 0, "{err}");
    let last = out.lines().last().expect("a solution line");
    let (head, rest) = last.split_once(": ").expect("Solution in …: MOVES (T sec)");
    let moves = rest.rsplit_once(" (").expect("a time").0;
    let d = distance(START);
    assert!(
        head.starts_with(&format!("Solution in {d} moves (")),
        "{last}"
    );
    assert_eq!(replays(START, moves, Convention::Knuth), (true, d));
    // Every line before it is a bound below the distance.
    for line in out.lines().rev().skip(1) {
        assert!(line.starts_with(" ... no solution with "), "{line}");
    }
    // Korf's convention turns the board round: the letters change, the count does not.
    let korf = Position::parse(START, None, Convention::Knuth)
        .expect("valid")
        .notation(Convention::Korf);
    let (status, out, _) = run(&["solve", "--metric", "mtm", "--convention", "korf", &korf]);
    assert_eq!(status, 0);
    let last = out.lines().last().expect("a solution line");
    let moves = last
        .split_once(": ")
        .expect("moves")
        .1
        .rsplit_once(" (")
        .expect("time")
        .0;
    assert_eq!(replays(&korf, moves, Convention::Korf), (true, d));
}

#[test]
fn json_stats_and_pictures_agree() {
    let (status, out, _) = run(&["solve", "--metric", "mtm", "--json", START]);
    assert_eq!(status, 0);
    let report: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let d = distance(START);
    assert_eq!(report["metric"], "mtm");
    // The automaton is the default engine where it is generated; its lower bound named as
    // `--heuristic` picks it, as in the STM reports (3x3: walking distance).
    assert_eq!(report["engine"], "automaton");
    assert_eq!(report["heuristic"], "walking");
    assert_eq!(report["length"], d);
    let tiles = report["tiles"].as_str().expect("tiles pushed");
    assert_eq!(report["stm_length"], tiles.len());
    let moves = report["moves"].as_str().expect("moves");
    assert_eq!(replays(START, moves, Convention::Knuth), (true, d));
    let bounds = report["bounds"].as_array().expect("bounds");
    assert_eq!(bounds.last().expect("a bound")["bound"], d);
    let nodes: u64 = bounds
        .iter()
        .map(|b| b["nodes"].as_u64().expect("nodes"))
        .sum();
    assert_eq!(report["nodes"], nodes);

    let (status, out, _) = run(&["solve", "--metric", "mtm", "--stats", START]);
    assert_eq!(status, 0);
    assert!(
        out.contains(&format!("{d} moves in the multi-tile metric")),
        "{out}"
    );
    assert!(out.contains(&format!("{nodes} nodes generated")), "{out}");

    let (status, out, _) = run(&["solve", "--metric", "mtm", "--moves", "board", START]);
    assert_eq!(status, 0);
    assert_eq!(numbered_lines(&out).len(), d, "{out}");
    assert!(out.trim_end().ends_with("1 2 3\n4 5 6\n7 8 ."), "{out}");
}

#[test]
fn both_engines_and_a_batch() {
    let d = distance(START);
    let (status, out, _) = run(&["solve", "--metric", "mtm", "--engine", "bfs", START]);
    assert_eq!(status, 0);
    assert!(out.starts_with(&format!("Solution in {d} moves")), "{out}");
    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(
        file.path(),
        format!("{START}\n# a comment\n123456780\n12345678x\n"),
    )
    .expect("written");
    let path = file.path().to_str().expect("a path");
    let (status, out, err) = run(&["solve", "--metric", "mtm", "--file", path]);
    assert_eq!(status, 2, "the bad line");
    assert!(err.contains("line 4"), "{err}");
    assert_lines_start(
        &out,
        &[
            &format!("{START}: Solution in {d} moves"),
            "123456780: Solution in 0 moves",
            "2 positions solved",
        ],
    );
}

#[test]
fn the_automaton_on_two_threads_finds_the_solution_of_one() {
    let solution = |threads: &str| {
        let (status, out, err) = run(&["solve", "--metric", "mtm", "--threads", threads, KORF46]);
        assert_eq!(status, 0, "{err}");
        let last = out.lines().last().unwrap_or_default().to_string();
        // Without the time.
        last.rsplit_once(" (").map(|(moves, _)| moves.to_string())
    };
    let one = solution("1");
    assert!(
        one.as_deref()
            .is_some_and(|s| s.starts_with("Solution in ")),
        "{one:?}"
    );
    assert_eq!(solution("2"), one);
}

#[test]
fn crosscheck_and_compare() {
    // `crosscheck --metric mtm` with `args`: its summary line (status 0 asserted).
    let crosscheck = |args: &[&str]| {
        let argv = [&["crosscheck", "--metric", "mtm"][..], args].concat();
        let (status, out, err) = run(&argv);
        assert_eq!(status, 0, "{argv:?}: {out}{err}");
        out
    };
    // With the duplicate-pruning machine (the default) and without it.
    for prune in ["fsm", "none"] {
        let out = crosscheck(&["--size", "3x3", "--count", "25", "--prune", prune]);
        assert_eq!(out.trim(), "25 positions, 75 engine runs, 0 disagreements");
    }
    let out = crosscheck(&["--size", "2x4", "--count", "25", "--walk", "30"]);
    assert!(out.ends_with(", 0 disagreements\n"), "{out}");
    // The automaton and the reference on larger boards (breadth-first search would mostly
    // run out of its 64M there): equal lengths and equal nodes in every completed bound.
    for (size, walk, prune) in [
        ("3x4", "40", "fsm"),
        ("4x4", "60", "fsm"),
        ("4x4", "60", "none"),
    ] {
        let out = crosscheck(&[
            "--size",
            size,
            "--count",
            "10",
            "--walk",
            walk,
            "--engines",
            "automaton,ida",
            "--prune",
            prune,
        ]);
        assert_eq!(out.trim(), "10 positions, 20 engine runs, 0 disagreements");
    }

    let (status, out, err) = run(&["compare", "--metric", "mtm", "--repeat", "1", START]);
    assert_eq!(status, 0, "{err}");
    let d = distance(START).to_string();
    let rows: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| l.starts_with(START))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert_eq!(
        (rows[0][1], rows[1][1], rows[2][1]),
        ("automaton", "ida", "bfs")
    );
    assert!(rows.iter().all(|r| r[2] == d), "{out}");
}

/// `compare --metric mtm` in its three other forms: the JSON rows, the CSV lines and the
/// chart's marks carry each engine's MTM length (BFS's distance), the STM length of its path
/// (at least as long) and its node count, the same in all three.
#[test]
fn compare_as_json_csv_and_chart() {
    let d = distance(START);
    let (status, out, err) = run(&[
        "compare", "--metric", "mtm", "--repeat", "2", "--json", START,
    ]);
    assert_eq!(status, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(report["metric"], "mtm");
    let rows = report["rows"].as_array().expect("rows");
    let engines: Vec<&str> = rows
        .iter()
        .map(|r| r["engine"].as_str().expect("engine"))
        .collect();
    assert_eq!(engines, ["automaton", "ida", "bfs"]);
    let mut nodes = Vec::new();
    for row in rows {
        assert_eq!(row["position"], START);
        assert_eq!(row["length"], d);
        assert!(
            row["stm_length"].as_u64().expect("stm_length") >= d as u64,
            "{row}"
        );
        assert_eq!(row["runs"].as_array().expect("runs").len(), 2, "{row}");
        nodes.push(row["nodes"].as_u64().expect("nodes"));
    }
    let summary = report["summary"].as_array().expect("summary");
    assert_eq!(summary.len(), 2, "{report}");

    let (status, out, err) = run(&[
        "compare", "--metric", "mtm", "--repeat", "1", "--csv", START,
    ]);
    assert_eq!(status, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "position,engine,length,stm_length,nodes,seconds,nodes_per_second"
    );
    assert_eq!(lines.len(), 4, "{out}");
    for (line, (engine, n)) in lines[1..].iter().zip(engines.iter().zip(&nodes)) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[..3], [START, engine, &d.to_string()], "{line}");
        assert!(
            fields[3].parse::<usize>().expect("stm length") >= d,
            "{line}"
        );
        assert_eq!(fields[4], n.to_string(), "{line}");
    }

    let dir = tempfile::tempdir().expect("a temporary directory");
    let chart = dir.path().join("mtm.svg");
    let path = chart.to_str().expect("UTF-8 path");
    let args = [
        "compare", "--metric", "mtm", "--repeat", "1", "--plot", path, START,
    ];
    let (status, out, err) = run(&args);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("lengths in the multi-tile metric"), "{out}");
    let text = std::fs::read_to_string(&chart).expect("the chart was written");
    let document = roxmltree::Document::parse(&text).expect("the chart is XML");
    let mut marked: Vec<(&str, &str, &str)> = document
        .descendants()
        .filter(|n| n.attribute("class") == Some("mark"))
        .filter(|n| n.attribute("data-panel") == Some("nodes"))
        .map(|n| {
            let get = |a| n.attribute(a).expect("a mark's data");
            (get("data-instance"), get("data-series"), get("data-value"))
        })
        .collect();
    marked.sort();
    let nodes: Vec<String> = nodes.iter().map(u64::to_string).collect();
    assert_eq!(
        marked,
        [
            (START, "automaton", nodes[0].as_str()),
            (START, "bfs", nodes[2].as_str()),
            (START, "ida", nodes[1].as_str())
        ]
    );
}

/// The duplicate-pruning machine, on by default, changes no answer and takes nodes away.
#[test]
fn pruning_keeps_the_answer_and_takes_nodes_away() {
    // The solution line without its time, and the nodes generated.
    let solve = |prune: &[&str]| {
        let mut args = vec!["solve", "--metric", "mtm", "--stats", KORF46];
        args.extend_from_slice(prune);
        let (status, out, err) = run(&args);
        assert_eq!(status, 0, "{err}");
        let solution = out
            .lines()
            .find(|l| l.starts_with("Solution in"))
            .unwrap_or_default();
        let nodes = out
            .lines()
            .find(|l| l.contains(" nodes generated in "))
            .and_then(|l| l.split(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        (
            solution[..solution.rfind(" (").unwrap_or(0)].to_string(),
            nodes,
        )
    };
    let default = solve(&[]);
    let with = solve(&["--prune", "fsm"]);
    let without = solve(&["--prune", "none"]);
    assert!(with.0.starts_with("Solution in 28 moves"), "{with:?}");
    assert_eq!(default, with);
    assert_eq!(with.0, without.0);
    assert!(0 < with.1 && with.1 < without.1, "{with:?} {without:?}");
}

#[test]
fn what_cannot_be_done_is_one_line() {
    let ida_threads = [
        "solve",
        "--metric",
        "mtm",
        "--engine",
        "ida",
        "--threads",
        "2",
        START,
    ];
    for args in [
        &["solve", "--metric", "mtm", "--heuristic", "6-6-3", START][..],
        &["solve", "--metric", "mtm", "--heuristic", "relabel", START],
        &["solve", "--metric", "mtm", "--order", "SEWN", START],
        &ida_threads,
        &["solve", "--metric", "mtm", "--prune", "fsm", "--all", START],
        &[
            "solve", "--metric", "mtm", "--engine", "bfs", "--prune", "none", START,
        ],
        &["compare", "--metric", "mtm", "--prune", "fsm,none", START],
        &[
            "solve", "--metric", "mtm", "--engine", "bfs", "--all", START,
        ],
        &["compare", "--metric", "mtm", "--korf50", "38"],
        &["compare", "--metric", "mtm", "--peer", "true", START],
        &["compare", "--metric", "mtm", "--random", "100001"],
        &["solve", "--metric", "xtm", START],
    ] {
        let (status, out, err) = run(args);
        assert_eq!(status, 2, "{args:?}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    // The engine refuses threads, not the metric (issue 41).
    let (_, _, err) = run(&ida_threads);
    assert!(
        err.starts_with("--engine ida searches on one thread in MTM"),
        "{err}"
    );
    // Korf & Felner's instances are 5x5: no MTM table, so no comparison (none is searched).
    let (_, _, err) = run(&["compare", "--metric", "mtm", "--korf50", "38"]);
    assert!(
        err.starts_with("--korf50 is not available with --metric mtm"),
        "{err}"
    );
    // 5x5 has no MTM automaton: named, it declines in one line (status 2); by default the
    // reference search solves it.
    let five = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24";
    let (status, _, err) = run(&["solve", "--metric", "mtm", "--engine", "automaton", five]);
    assert_eq!((status, err.lines().count()), (2, 1), "{err}");
    let (status, out, _) = run(&["solve", "--metric", "mtm", "--json", five]);
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("\"engine\":\"ida\""), "{out}");
    // Unsolvable: Knuth's line, status 1.
    let (status, out, _) = run(&["solve", "--metric", "mtm", "123456870"]);
    assert_eq!(status, 1);
    assert!(out.starts_with("Sorry"), "{out}");
}

#[test]
fn the_relabelled_table_is_kept_with_the_tables_and_listed() {
    // A 4x4 solve reads the relabelled table from the tables' directory, or builds it there.
    let (status, _, err) = run(&["solve", "--metric", "mtm", "--heuristic", "relabel", KORF46]);
    assert_eq!(status, 0, "{err}");
    let (status, list, _) = run(&["tables", "list"]);
    assert_eq!(status, 0);
    let line = list
        .lines()
        .find(|l| l.contains("mtm-relabel-4x4.bin"))
        .unwrap_or_default();
    // Its 75.7 MB of distances in the tables' own format: a header and a checksum per block.
    assert!(
        line.contains("75.8 MB")
            && line.contains(
                "(multi-tile metric: the 4x4 board relabelled two ways, distances mod 3)"
            ),
        "{list}"
    );
    // So is the duplicate-pruning machine of jump words the solve walked.
    let line = list
        .lines()
        .find(|l| l.contains("fsm-mtm-4x4-10.bin"))
        .unwrap_or_default();
    assert!(
        line.contains("(duplicate-pruning machine of MTM jumps on 4x4: 31227 forbidden words of at most 10 moves, 35439 states)"),
        "{list}"
    );
    // `tables build --metric mtm` finds both there, checks them and says so, a line each.
    let (status, out, err) = run(&["tables", "build", "--metric", "mtm"]);
    assert_eq!(status, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(
            "4x4 multi-tile metric tables of the board relabelled two ways: 151351200 entries each, 75.7 MB, cached in "
        ) && lines[0].ends_with("mtm-relabel-4x4.bin"),
        "{out}"
    );
    assert!(
        lines[1]
            .starts_with("duplicate-pruning machine of MTM jumps on 4x4: 31227 forbidden words")
            && lines[1].ends_with("fsm-mtm-4x4-10.bin"),
        "{out}"
    );
}

/// The first MTM search of a board builds its duplicate-pruning machine of jumps (seconds on
/// 4x4) and says so on stderr, as the tables' builds do (issue 53: nothing was said for 8 s); a
/// later run reads it without a word.
#[test]
fn the_first_build_of_the_jump_machine_is_announced() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let tables = dir.path().to_str().expect("UTF-8");
    let args = [
        "solve",
        "--metric",
        "mtm",
        "--heuristic",
        "walking",
        "--tables",
        tables,
        "123456789abc0def",
    ];
    let (status, _, err) = run(&args);
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        err,
        format!(
            "building the duplicate-pruning machine of MTM jumps on 4x4 (once; kept in {tables})\n"
        )
    );
    assert!(dir.path().join("fsm-mtm-4x4-10.bin").exists());
    let (status, _, err) = run(&args);
    assert_eq!((status, err.as_str()), (0, ""));
}

/// The relabelled table is kept in the tables' own file format (a header naming it, a checksum
/// per block); a file of its own older format (`FIFMTM05`, before) is listed as `OLD:`, not as
/// damaged, and is rebuilt when next used.
#[test]
fn a_relabelled_table_of_the_older_format_is_listed_as_old() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut old = b"FIFMTM05".to_vec();
    old.extend([0u8; 100]);
    std::fs::write(dir.path().join("mtm-relabel-4x4.bin"), old).expect("written");
    let tables = dir.path().to_str().expect("UTF-8");
    let (status, list, err) = run(&["tables", "list", "--tables", tables]);
    assert_eq!(status, 0, "{err}");
    assert!(
        list.contains(
            "mtm-relabel-4x4.bin  OLD: the MTM table of an older format, rebuilt when next used\n"
        ),
        "{list}"
    );
    assert!(!list.contains("damaged"), "{list}");
}
