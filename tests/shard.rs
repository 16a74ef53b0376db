//! `fifteen shard plan | run | merge`, run serially bound after bound, gives the answer of
//! `fifteen solve --threads 1`: every bound line, every bound's node count and the solution
//! line, on 3x3, 4x4 and 5x5 boards, with Manhattan and pattern databases, both IDA* engines,
//! and a cut deep enough for hundreds of items. A worker whose tables or version differ from
//! the plan's refuses it; merge refuses results of another plan and names a missing one.
#![forbid(unsafe_code)]

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Runs `fifteen ARGS`, asserting success; its standard output.
fn ok(args: &[&str]) -> String {
    let (status, stdout, stderr) = run(args);
    assert_eq!(status, 0, "fifteen {args:?}: {stderr}");
    stdout
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("a JSON file");
    serde_json::from_str(&text).expect("JSON")
}

/// `line` without the ` (T sec)` that `solve` appends.
fn untimed(line: &str) -> String {
    match line.rfind(" (") {
        Some(at) if line.ends_with(" sec)") => line[..at].to_string(),
        _ => line.to_string(),
    }
}

/// What a search printed: its bound lines and solution line (untimed), and each bound's nodes.
#[derive(Debug, PartialEq)]
struct Answer {
    lines: Vec<String>,
    nodes: Vec<u64>,
}

/// `fifteen solve --threads 1` on `position` with `flags`.
fn solve(position: &str, flags: &[&str]) -> Answer {
    let mut args = vec!["solve", position, "--threads", "1", "--stats"];
    args.extend(flags);
    let lines = ok(&args)
        .lines()
        .filter(|l| {
            l.starts_with(" ... no solution")
                || l.starts_with("Solution in")
                || l.contains(" optimal solution")
        })
        .map(untimed)
        .collect();
    args.push("--json");
    let json: Value = serde_json::from_str(ok(&args).trim()).expect("solve's JSON");
    let nodes = json["bounds"]
        .as_array()
        .expect("bounds")
        .iter()
        .map(|b| b["nodes"].as_u64().expect("nodes counted"))
        .collect();
    Answer { lines, nodes }
}

/// The plan's items: how many, and whether item `i` is a solution above the cut.
fn items(plan: &Value) -> Vec<bool> {
    plan["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["happy"] == 0 && i["sad"] == 0)
        .collect()
}

/// Runs `shard run` on item `i` of `plan`; the result's path.
fn run_item(dir: &Path, plan: &Path, i: usize) -> PathBuf {
    let out = dir.join(format!("result{i}.json"));
    let item = i.to_string();
    let (plan, out_text) = (plan.to_str().expect("path"), out.to_str().expect("path"));
    ok(&["shard", "run", plan, "--item", &item, "--out", out_text]);
    out
}

/// How the bounds are cut and run.
#[derive(Clone, Copy)]
struct Way {
    /// Subtrees wanted by the uniform cut.
    wanted: usize,
    /// Each plan cuts deeper below some items of the bound before (`plan --split`).
    split: bool,
    /// Items run by one `shard run` (`--item I,J,... --out-dir`), in list order; 0: one each,
    /// with `--out`.
    batch: usize,
}

const ONE_BY_ONE: Way = Way {
    wanted: 200,
    split: false,
    batch: 0,
};

/// `plan --split`'s list for the bound after the plan `json`: two moves deeper below every
/// third item, one below the next ones, and a path that is no node.
fn splits(json: &Value) -> Value {
    let mut list = vec![serde_json::json!({"moves": [99, 98], "depth": 9})];
    for (i, item) in json["items"].as_array().expect("items").iter().enumerate() {
        let moves = item["moves"].as_array().expect("moves");
        if i % 3 != 2 {
            let depth = moves.len() + 2 - i % 3;
            list.push(serde_json::json!({"moves": moves, "depth": depth}));
        }
    }
    Value::Array(list)
}

/// Runs the subtrees `batch` of `plan` in one `shard run --out-dir`; their results' paths.
fn run_batch(dir: &Path, plan: &Path, batch: &[usize]) -> Vec<PathBuf> {
    let list: Vec<String> = batch.iter().map(usize::to_string).collect();
    let (plan, out) = (plan.to_str().expect("path"), dir.to_str().expect("path"));
    ok(&[
        "shard",
        "run",
        plan,
        "--item",
        &list.join(","),
        "--out-dir",
        out,
    ]);
    batch
        .iter()
        .map(|i| dir.join(format!("{i}.json")))
        .filter(|path| path.exists())
        .collect()
}

/// The search as plan, run and merge, bound after bound: subtrees run in list order up to the
/// first that finds a solution (in the last bound every one, handed to merge last first).
/// Returns the answer and the largest number of items of a bound, and of their depths.
fn shard(position: &str, flags: &[&str], way: Way) -> (Answer, usize, usize) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let plan = dir.path().join("plan.json");
    let plan_text = plan.to_str().expect("path").to_string();
    let split = dir.path().join("split.json");
    let mut answer = Answer {
        lines: Vec::new(),
        nodes: Vec::new(),
    };
    let (mut bound, mut most, mut depths) = (None::<String>, 0, 0);
    let wanted = way.wanted.to_string();
    for number in 0.. {
        let mut args = vec!["shard", "plan", position, "--items", &wanted];
        args.extend(flags);
        if let Some(bound) = &bound {
            args.extend(["--bound", bound]);
        }
        if way.split && number > 0 {
            args.extend(["--split", split.to_str().expect("path")]);
        }
        args.extend(["--out", &plan_text]);
        ok(&args);
        let json = read_json(&plan);
        if way.split {
            std::fs::write(&split, splits(&json).to_string()).expect("written");
        }
        let kinds = items(&json);
        let all = json["all"] == true;
        most = most.max(kinds.len());
        let mut lengths: Vec<usize> = json["items"]
            .as_array()
            .expect("items")
            .iter()
            .map(|i| i["moves"].as_array().expect("moves").len())
            .collect();
        lengths.dedup();
        lengths.sort_unstable();
        lengths.dedup();
        depths = depths.max(lengths.len());
        let subtrees: Vec<usize> = (0..kinds.len()).filter(|&i| !kinds[i]).collect();
        let mut results = Vec::new();
        let bound_dir = dir.path().join(number.to_string());
        std::fs::create_dir(&bound_dir).expect("a directory");
        for (at, batch) in subtrees.chunks(way.batch.max(1)).enumerate() {
            let ran = if way.batch == 0 {
                vec![run_item(&bound_dir, &plan, batch[0])]
            } else {
                run_batch(&bound_dir, &plan, batch)
            };
            let found = ran.iter().position(|result| {
                !read_json(result)["solutions"]
                    .as_array()
                    .expect("solutions")
                    .is_empty()
            });
            if let Some(k) = found.filter(|_| !all) {
                // A batch searches nothing after the solution it finds.
                assert_eq!(ran.len(), k + 1, "{position}: {batch:?}");
            }
            results.extend(ran);
            let last = *batch.last().expect("a batch");
            if !all && (found.is_some() || kinds[..last].iter().any(|&s| s)) {
                // One thread stops here; the rest are run only to be left out by merge (a
                // batch up to its first solution).
                for chunk in subtrees.chunks(way.batch.max(1)).skip(at + 1) {
                    match way.batch {
                        0 => results.push(run_item(&bound_dir, &plan, chunk[0])),
                        _ => results.extend(run_batch(&bound_dir, &plan, chunk)),
                    }
                }
                break;
            }
        }
        results.reverse();
        let mut args = vec!["shard".to_string(), "merge".into(), plan_text.clone()];
        args.extend(
            results
                .iter()
                .map(|r| r.to_str().expect("path").to_string()),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let merged = ok(&args);
        let count = |l: &&str| l.contains(" nodes generated in bound ");
        let next = |l: &&str| l.starts_with("next bound: ");
        let lines = merged.lines().filter(|l| !count(l) && !next(l));
        answer.lines.extend(lines.map(str::to_string));
        let nodes = merged.lines().find(count).and_then(|l| l.split(' ').next());
        let nodes = nodes.and_then(|n| n.parse().ok());
        answer
            .nodes
            .push(nodes.unwrap_or_else(|| panic!("no node count: {merged}")));
        match merged.lines().find(next) {
            Some(line) => bound = Some(line["next bound: ".len()..].to_string()),
            None => return (answer, most, depths),
        }
    }
    unreachable!("the bounds never end")
}

/// Solve and shard agree on `position`; the cut gave at least `least` items in some bound.
fn agree(position: &str, flags: &[&str], least: usize) {
    agree_cut(position, flags, least, ONE_BY_ONE);
}

/// [`agree`], the bounds cut and run `way`.
fn agree_cut(position: &str, flags: &[&str], least: usize, way: Way) {
    let one = solve(position, flags);
    let (sharded, most, _) = shard(position, flags, way);
    assert_eq!(sharded, one, "{position} {flags:?}");
    assert!(one.lines.iter().any(|l| l.starts_with("Solution in")));
    assert!(most >= least, "{position} {flags:?}: at most {most} items");
}

#[test]
fn shards_give_the_answer_of_one_thread_on_3x3() {
    // The table is exact: it leaves one path (and its first moves' siblings) to search.
    agree("076823514", &["--heuristic", "8"], 1);
    agree("076823514", &["--heuristic", "manhattan"], 200);
    agree(
        "473016825",
        &["--heuristic", "manhattan", "--engine", "ida"],
        200,
    );
}

#[test]
fn shards_give_the_answer_of_one_thread_on_4x4() {
    agree("26071e5349afcdb8", &["--heuristic", "manhattan"], 200);
    agree(
        "26071e5349afcdb8",
        &["--heuristic", "manhattan", "--engine", "ida"],
        200,
    );
    agree("96d4103f72c5eab8", &["--heuristic", "5-5-5"], 200);
    let reference = ["--heuristic", "5-5-5", "--engine", "ida"];
    agree("96d4103f72c5eab8", &reference, 200);
}

#[test]
fn shards_give_every_solution_of_one_thread_with_all() {
    // 8 and 40 optimal solutions, listed in one thread's order.
    agree(
        "61347528ad9be0fc",
        &["--heuristic", "manhattan", "--all"],
        200,
    );
    agree("867254301", &["--heuristic", "manhattan", "--all"], 200);
}

/// A cut of a few dozen items, each run by a process of its own.
const A_FEW: Way = Way {
    wanted: 30,
    split: false,
    batch: 0,
};

#[test]
fn shards_give_the_answer_of_one_thread_in_mtm() {
    // Walking distance on 3x3, the relabelled table on 4x4 (the default), both engines;
    // bounds are N moves, the next the least g + h cut off anywhere.
    agree_cut("473016825", &["--metric", "mtm"], 30, A_FEW);
    agree_cut(
        "473016825",
        &["--metric", "mtm", "--engine", "ida"],
        30,
        A_FEW,
    );
    agree_cut("26071e5349afcdb8", &["--metric", "mtm"], 30, A_FEW);
    let walking = [
        "--metric",
        "mtm",
        "--heuristic",
        "walking",
        "--engine",
        "ida",
    ];
    agree_cut("61347528ad9be0fc", &walking, 30, A_FEW);
    // 2 and 4 optimal solutions, in one thread's order.
    agree_cut("867254301", &["--metric", "mtm", "--all"], 30, A_FEW);
    let all = ["--metric", "mtm", "--all", "--engine", "ida"];
    agree_cut("473016825", &all, 30, A_FEW);
}

#[test]
fn shards_give_the_answer_of_one_thread_toward_another_goal() {
    // The goal's blank in a corner, and off the corners (tables built for that goal; in MTM
    // the reference engine with walking distance); solutions in the start's tiles.
    let corner = ["--goal", "012345678", "--heuristic", "manhattan"];
    agree_cut("867254301", &corner, 30, A_FEW);
    agree_cut("867254301", &["--goal", "123405678"], 1, A_FEW);
    let centre = ["--goal", "123405678", "--metric", "mtm"];
    agree_cut("867254301", &centre, 30, A_FEW);
    let tables = ["--goal", "1234506789abcdef", "--heuristic", "5-5-5"];
    agree_cut("61347528ad9be0fc", &tables, 30, A_FEW);
    let mtm = ["--goal", "1234506789abcdef", "--metric", "mtm"];
    agree_cut("61347528ad9be0fc", &mtm, 30, A_FEW);
}

#[test]
fn shards_give_the_answer_of_one_thread_on_5x5() {
    agree(
        "6,2,3,0,10,1,18,12,5,4,16,7,13,9,15,8,11,19,14,20,21,17,22,23,24",
        &["--heuristic", "manhattan"],
        200,
    );
}

#[test]
fn cuts_deeper_in_places_and_batches_of_items_give_the_answer_of_one_thread() {
    let cases: [(&str, &[&str]); 4] = [
        ("96d4103f72c5eab8", &["--heuristic", "5-5-5"]),
        ("61347528ad9be0fc", &["--metric", "mtm"]),
        (
            "26071e5349afcdb8",
            &["--heuristic", "manhattan", "--engine", "ida"],
        ),
        ("61347528ad9be0fc", &["--heuristic", "manhattan", "--all"]),
    ];
    for (position, flags) in cases {
        let one = solve(position, flags);
        for batch in [1, 7] {
            let way = Way {
                wanted: 20,
                split: true,
                batch,
            };
            let (sharded, most, depths) = shard(position, flags, way);
            assert_eq!(sharded, one, "{position} {flags:?} batches of {batch}");
            // The splits made items deeper in places, and many more of them.
            assert!(depths >= 3, "{position}: items at {depths} depths");
            assert!(most >= 50, "{position}: at most {most} items");
        }
    }
}

/// `--order best-first` (the default on boards of more than 16 cells with tables): plan, run
/// and merge, bound after bound, search each root once (of those at one depth), closest to the
/// goal first, every item after the whole walk. The bounds are `solve`'s, the solution as
/// long (merge replays it), and no completed bound has more nodes than one thread's in the
/// walk's order: fewer where the walk meets a root twice (without the pruning machine, and
/// with a cut deeper in places). Refused, in one line, with `--all`, Manhattan or MTM.
#[test]
fn best_first_plans_give_an_optimal_answer_in_no_more_nodes() {
    let batches = Way {
        wanted: 100,
        split: false,
        batch: 100,
    };
    let deeper = Way {
        wanted: 40,
        split: true,
        batch: 100,
    };
    let cases: [(&str, &[&str], Way, bool); 3] = [
        (
            "1fad0b47c653e892",
            &["--heuristic", "5-5-5"],
            batches,
            false,
        ),
        (
            "08ef1ab547d6329c",
            &["--heuristic", "5-5-5", "--prune", "none"],
            batches,
            true,
        ),
        (
            "08ef1ab547d6329c",
            &["--heuristic", "5-5-5", "--prune", "none"],
            deeper,
            true,
        ),
    ];
    for (position, flags, way, merges) in cases {
        let one = solve(position, flags);
        let best = [flags, &["--order", "best-first"]].concat();
        let (sharded, most, _) = shard(position, &best, way);
        assert!(most >= 50, "{position} {flags:?}: at most {most} items");
        let length = |line: &String| line.split(':').next().map(str::to_string);
        let lines = |answer: &Answer| answer.lines.iter().map(length).collect::<Vec<_>>();
        assert_eq!(lines(&sharded), lines(&one), "{position} {flags:?}");
        let completed = one.nodes.len() - 1;
        let (walk, best) = (&one.nodes[..completed], &sharded.nodes[..completed]);
        assert!(
            walk.iter().zip(best).all(|(w, b)| b <= w),
            "{position} {flags:?}: {best:?} against {walk:?}"
        );
        assert_eq!(merges, best != walk, "{position} {flags:?}: {best:?}");
    }
    // Every item after the whole walk, and fewer items than the walk's with roots met twice.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("plan.json");
    let out = path.to_str().expect("path");
    let plan = |order: &str| {
        let flags = ["--prune", "none", "--bound", "47+5", "--items", "300"];
        let args = ["shard", "plan", "08ef1ab547d6329c", "--heuristic", "5-5-5"];
        let said = ok(&[&args[..], &flags, &["--order", order, "--out", out]].concat());
        (said, read_json(&path))
    };
    let (walk_said, walk) = plan("walk");
    let (best_said, best) = plan("best-first");
    assert!(best_said.contains(", best first; plan"), "{best_said}");
    assert!(!walk_said.contains("best first"), "{walk_said}");
    assert_eq!(best["order"], "best-first");
    assert!(walk.get("order").is_none(), "the walk's order is left out");
    let count = |plan: &Value| plan["items"].as_array().expect("items").len();
    assert!(count(&best) < count(&walk), "{best_said} {walk_said}");
    assert_eq!(best["above"], walk["above"]);
    let items = best["items"].as_array().expect("items");
    assert!(items.iter().all(|item| item["before"] == best["above"]));
    for (flags, says) in [
        (
            &["--heuristic", "8", "--all"][..],
            "would lose solutions of --all",
        ),
        (
            &["--heuristic", "manhattan"],
            "takes a --heuristic with tables",
        ),
        (&["--metric", "mtm"], "is for the single-tile metric"),
    ] {
        let args = ["shard", "plan", "867254301", "--order", "best-first"];
        let (status, _, stderr) = run(&[&args[..], flags, &["--out", out]].concat());
        assert_eq!(
            (status, stderr.lines().count()),
            (2, 1),
            "{flags:?}: {stderr}"
        );
        assert!(stderr.contains(says), "{flags:?}: {stderr}");
    }
}

#[test]
fn a_batch_of_items_needs_out_dir_and_items_of_the_plan() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let plan = hiroi_plan(dir.path(), "manhattan", &["--bound", "25+4"]);
    let plan_text = plan.to_str().expect("path");
    let out = dir.path().join("r.json");
    let out = out.to_str().expect("path");
    for (args, says) in [
        (
            vec!["--item", "0,1", "--out", out],
            "give --out-dir DIR for several",
        ),
        (vec!["--item", "0,1000", "--out-dir", "."], "not 1000"),
        (vec!["--item", "0"], "--out"),
    ] {
        let (status, _, stderr) = run(&[&["shard", "run", plan_text][..], &args].concat());
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let split = dir.path().join("split.json");
    std::fs::write(&split, r#"[{"moves": [1], "levels": 2}]"#).expect("written");
    let (status, _, stderr) = run(&[
        "shard",
        "plan",
        "867254301",
        "--split",
        split.to_str().expect("p"),
        "--out",
        out,
    ]);
    assert_eq!((status, stderr.lines().count()), (2, 1), "{stderr}");
    assert!(
        stderr.contains("is not a list of splits of fifteen shard"),
        "{stderr}"
    );
}

/// A plan of Hiroi's 3x3 position with `heuristic`, in `dir` (`flags` adds a bound).
fn hiroi_plan(dir: &Path, heuristic: &str, flags: &[&str]) -> PathBuf {
    let plan = dir.join("plan.json");
    let out = plan.to_str().expect("path");
    let args = ["shard", "plan", "867254301", "--heuristic", heuristic];
    ok(&[&args[..], flags, &["--items", "20", "--out", out]].concat());
    plan
}

/// `shard run` on item 0 of `plan` with the tables of `tables` (the scratch ones when `None`):
/// (status, stderr).
fn worker(plan: &Path, tables: Option<&Path>, out: &Path) -> (i32, String) {
    let mut args = vec!["shard", "run", plan.to_str().expect("path"), "--item", "0"];
    args.extend(["--out", out.to_str().expect("path")]);
    if let Some(tables) = tables {
        args.extend(["--tables", tables.to_str().expect("path")]);
    }
    let (status, _, stderr) = run(&args);
    (status, stderr)
}

#[test]
fn a_worker_refuses_a_plan_of_other_tables_or_another_version() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let plan = hiroi_plan(dir.path(), "8", &[]);
    let out = dir.path().join("result.json");
    let (status, stderr) = worker(&plan, None, &out);
    assert_eq!(status, 0, "{stderr}");
    let first = std::fs::read(&out).expect("a result");
    // The same input gives the same bytes.
    assert_eq!(worker(&plan, None, &out).0, 0);
    assert_eq!(std::fs::read(&out).expect("a result"), first);

    // The same table with one bit changed, kept in a directory of its own.
    let store = fifteen::heuristic::store::Store::new(Some(&scratch().join("tables")));
    let known = store.expect("a store").known();
    let name = "3x3_1-2-3-4-5-6-7-8.pdb";
    let (good, key, len, _) = known
        .iter()
        .find(|(path, ..)| path.ends_with(name))
        .expect("the 8 table is a preset");
    let mut bytes = fifteen::heuristic::cache::read(good, key, *len).expect("the table reads");
    bytes[100] ^= 1;
    let other = dir.path().join("other");
    fifteen::heuristic::cache::write(&other.join(name), key, &bytes).expect("written");
    let (status, stderr) = worker(&plan, Some(&other), &dir.path().join("refused.json"));
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("tables (checksums "), "{stderr}");
    assert!(!dir.path().join("refused.json").exists());

    // The plan edited: another checksum, another version.
    let text = std::fs::read_to_string(&plan).expect("the plan");
    let json = read_json(&plan);
    let crc = json["tables"][0].as_str().expect("a checksum").to_string();
    let version = format!("\"version\":\"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version));
    let edited = dir.path().join("edited.json");
    for (plan, said) in [
        (
            text.replace(&crc, "00000000"),
            "are not the plan's (8 00000000)",
        ),
        (
            text.replace(&version, "\"version\":\"0.0.0-other\""),
            "planned by fifteen 0.0.0-other",
        ),
    ] {
        std::fs::write(&edited, plan).expect("written");
        let (status, stderr) = worker(&edited, None, &out);
        assert_eq!((status, stderr.lines().count()), (2, 1), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
    }
    // The result of the good plan is untouched.
    assert_eq!(std::fs::read(&out).expect("a result"), first);
}

#[test]
fn merge_refuses_results_of_another_plan_and_names_a_missing_one() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Manhattan's bounds before 26+5 have no solution: every item counts.
    let plan = hiroi_plan(dir.path(), "manhattan", &["--bound", "25+4"]);
    let other_dir = dir.path().join("other");
    std::fs::create_dir(&other_dir).expect("a directory");
    let other = hiroi_plan(&other_dir, "manhattan", &["--bound", "24+3"]);
    let ours = run_item(dir.path(), &plan, 0);
    let theirs = run_item(&other_dir, &other, 1);
    let plan_text = plan.to_str().expect("path");
    let (status, stdout, stderr) = run(&[
        "shard",
        "merge",
        plan_text,
        ours.to_str().expect("path"),
        theirs.to_str().expect("path"),
    ]);
    assert_eq!((status, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("is a result of another plan"), "{stderr}");

    let (status, _, stderr) = run(&["shard", "merge", plan_text, ours.to_str().expect("p")]);
    assert_eq!((status, stderr.lines().count()), (2, 1), "{stderr}");
    assert!(stderr.contains("no result for item 1 "), "{stderr}");

    let (status, _, stderr) = run(&["shard", "merge", plan_text, plan_text]);
    assert_eq!((status, stderr.lines().count()), (2, 1), "{stderr}");
    assert!(
        stderr.contains("is not a result of fifteen shard"),
        "{stderr}"
    );
}
