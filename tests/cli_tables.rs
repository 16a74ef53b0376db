//! The pattern databases as a user meets them: `fifteen tables build|list`, table files that
//! are truncated, corrupted or belong to another table (each named in one line on stderr and
//! rebuilt, the answer still right), `--heuristic` names, and `solve --file` batches.
#![forbid(unsafe_code)]

mod common;

use common::*;
use std::path::Path;

/// Runs `fifteen ARGS` with its tables in `dir`, returning (status, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = fifteen()
        .env("FIFTEEN_TABLES", dir)
        .args(args)
        .output()
        .expect("fifteen runs");
    texts(&output)
}

/// How many files `dir` holds (none where there is no such directory).
fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

const HIROI: &str = "867254301";
const TABLE: &str = "3x3_1-2-3-4-5-6-7-8.pdb";

fn solves_hiroi(dir: &Path) -> String {
    let (status, stdout, stderr) = run(dir, &["solve", "--heuristic", "8", "--stats", HIROI]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("Solution in 26+5 moves: "), "{stdout}");
    assert!(
        stdout.contains("Heuristic 8 estimates 31 moves (Manhattan 21)"),
        "{stdout}"
    );
    stderr
}

#[test]
fn tables_are_built_once_then_listed() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (status, stdout, stderr) = run(dir.path(), &["tables", "build", "--size", "3x3"]);
    assert_eq!(status, 0);
    assert!(
        stdout.starts_with("3x3 8 table 1 of 1 (tiles 1,2,3,4,5,6,7,8): 362880 entries, "),
        "{stdout}"
    );
    assert!(stdout.contains("built in"), "{stdout}");
    // The build is said once, on stdout (issue 28: a "building" line came first on stderr).
    assert!(!stderr.contains("building"), "{stderr}");
    let (_, again, _) = run(
        dir.path(),
        &["tables", "build", "--size", "3x3", "--heuristic", "8"],
    );
    assert!(again.contains("cached in"), "{again}");
    assert_eq!(lock_files(dir.path()), Vec::<String>::new());
    let (status, list, _) = run(dir.path(), &["tables", "list"]);
    assert_eq!(status, 0);
    // The table and the duplicate-pruning machine: every file listed is counted (issue 41).
    assert!(list.starts_with("2 file(s) in "), "{list}");
    assert_eq!(
        list.lines().filter(|l| l.contains(" MB  ")).count(),
        2 + 1,
        "{list}"
    );
    assert!(
        list.contains(TABLE) && list.contains("tiles 1,2,3,4,5,6,7,8"),
        "{list}"
    );
    // The duplicate-pruning machine is built with the tables, listed beside them.
    assert!(stdout.contains("duplicate-pruning machine: 2641 forbidden words of at most 12 moves, 7970 states, built in"), "{stdout}");
    assert!(again.contains("duplicate-pruning machine: 2641 forbidden words of at most 12 moves, 7970 states, cached in"), "{again}");
    assert!(
        list.contains("fsm-12.bin  (duplicate-pruning machine: 2641 forbidden words"),
        "{list}"
    );
    // A cached table is used without a word.
    assert_eq!(solves_hiroi(dir.path()), "");
    // A damaged machine is named, rebuilt and written again.
    let machine = dir.path().join("fsm-12.bin");
    let good = std::fs::read(&machine).expect("the machine was kept");
    let mut flipped = good.clone();
    flipped[good.len() - 7] ^= 4;
    std::fs::write(&machine, &flipped).expect("flip a bit");
    let said = solves_hiroi(dir.path());
    assert!(
        said.contains("fsm-12.bin") && said.contains("building it again"),
        "{said}"
    );
    assert_eq!(std::fs::read(&machine).expect("rebuilt"), good);
}

#[test]
fn damaged_or_foreign_files_are_rejected_and_rebuilt() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(TABLE);
    let first = solves_hiroi(dir.path());
    assert!(first.contains("building the 3x3 8 table"), "{first}");
    let good = std::fs::read(&path).expect("the table was kept");

    std::fs::write(&path, &good[..good.len() / 2]).expect("truncate");
    let said = solves_hiroi(dir.path());
    assert!(
        said.contains("is truncated") && said.contains("building it again"),
        "{said}"
    );
    assert_eq!(std::fs::read(&path).expect("rebuilt"), good);

    let mut flipped = good.clone();
    let last = flipped.len() - 1000;
    flipped[last] ^= 0x10;
    std::fs::write(&path, &flipped).expect("flip a bit");
    let said = solves_hiroi(dir.path());
    assert!(
        said.contains("is corrupted (block 11 of 12: checksum"),
        "{said}"
    );
    assert_eq!(solves_hiroi(dir.path()), "", "rebuilt and kept");

    // Another board's table under this table's name.
    let (status, _, _) = run(dir.path(), &["tables", "build", "--size", "4x3"]);
    assert_eq!(status, 0);
    let foreign = std::fs::read(dir.path().join("4x3_7-8-9-10-11.pdb")).expect("built");
    std::fs::write(&path, foreign).expect("swap");
    let said = solves_hiroi(dir.path());
    assert!(said.contains("holds another table"), "{said}");
}

#[test]
fn heuristic_names_are_checked() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (status, _, stderr) = run(dir.path(), &["solve", "--heuristic", "7-8", HIROI]);
    assert_eq!(status, 2);
    assert_eq!(
        stderr.trim_end(),
        "there is no pattern database \"7-8\" for the 3x3 board; choose manhattan or 8"
    );
    let (status, _, stderr) = run(
        dir.path(),
        &[
            "solve",
            "--heuristic",
            "6-6-3",
            "--size",
            "2x3",
            "4,5,0,1,2,3",
        ],
    );
    assert_eq!(status, 2);
    assert!(
        stderr.contains("this board has only --heuristic manhattan"),
        "{stderr}"
    );
    let (status, _, stderr) = run(
        dir.path(),
        &["solve", "--engine", "bfs", "--heuristic", "8", HIROI],
    );
    assert_eq!(status, 2);
    assert!(stderr.contains("bfs needs no lower bound"), "{stderr}");
    // Manhattan needs no tables, and the default on a board without presets is Manhattan.
    let (status, stdout, _) = run(
        dir.path(),
        &["solve", "--size", "2x3", "--stats", "4,5,0,1,2,3"],
    );
    assert_eq!(status, 0);
    assert!(stdout.contains("Heuristic manhattan estimates"), "{stdout}");
    assert_eq!(files_in(dir.path()), 0);
}

#[test]
fn a_file_of_positions_with_a_bad_line_in_the_middle() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("positions.txt");
    let text = "# three positions\n867254301\n\n12345678x   # not a tile\n123456708\r\n";
    std::fs::write(&file, text).expect("write the list");
    let list = file.to_string_lossy().into_owned();
    let (status, stdout, stderr) = run(dir.path(), &["solve", "--file", &list, "--heuristic", "8"]);
    assert_eq!(status, 2, "{stdout}{stderr}");
    assert_lines_start(
        &stdout,
        &[
            "867254301: Solution in 26+5 moves: ",
            "123456708: Solution in 1+0 moves: 8 ",
            "2 positions solved, ",
        ],
    );
    assert!(
        stderr.contains("line 4: The start position should use only hex digits"),
        "{stderr}"
    );

    // One object per line with --json; an unsolvable position gives status 1.
    std::fs::write(&file, "867254301\n123456870\n").expect("write the list");
    let (status, stdout, _) = run(dir.path(), &["solve", "--file", &list, "--json"]);
    assert_eq!(status, 1);
    let objects: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["line"], 1);
    assert_eq!(objects[0]["length"], 31);
    assert_eq!(objects[0]["heuristic"], "8");
    assert_eq!(objects[0]["estimate"], 31);
    assert_eq!(objects[1]["solvable"], false);

    // `-` reads standard input.
    let output = fifteen()
        .env("FIFTEEN_TABLES", dir.path())
        .args(["solve", "--file", "-", "--heuristic", "manhattan"])
        .write_stdin("123456708\n")
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("123456708: Solution in 1+0"));
}

/// `tables build` names the board a partition belongs to (issue 33: `6-6-6-6` without
/// `--size` was "no such 4x4 partition", with `manhattan`, which has no tables, offered), and
/// builds nothing.
#[test]
fn a_partition_of_another_board_says_which() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (args, message) in [
        (
            &["tables", "build", "--heuristic", "6-6-6-6"][..],
            "\"6-6-6-6\" is a 5x5 partition, not a 4x4 one: add --size 5x5",
        ),
        (
            &["tables", "build", "--size", "3x3", "--heuristic", "6-5"],
            "\"6-5\" is a 3x4 and 4x3 partition, not a 3x3 one: use --size 3x4 or --size 4x3",
        ),
        (
            &["tables", "build", "--heuristic", "6-6"],
            "there is no pattern database \"6-6\" for the 4x4 board; its partitions are 5-5-5, 6-6-3, 7-8",
        ),
    ] {
        let (status, stdout, stderr) = run(dir.path(), args);
        assert_eq!(status, 2, "{args:?}: {stdout}");
        assert_eq!(stderr.trim_end(), message, "{args:?}");
    }
    assert_eq!(files_in(dir.path()), 0);
}

/// `tables list` checks every file whole: damaged, truncated, swapped and foreign files are
/// marked as such, and the partitions whose tables are all good are named.
#[test]
fn list_marks_damaged_and_foreign_files_and_names_complete_partitions() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (status, _, stderr) = run(dir.path(), &["tables", "build", "--heuristic", "5-5-5"]);
    assert_eq!(status, 0, "{stderr}");
    let (status, _, stderr) = run(dir.path(), &["tables", "build", "--size", "3x3"]);
    assert_eq!(status, 0, "{stderr}");
    let (_, list, _) = run(dir.path(), &["tables", "list"]);
    // Four tables and the machine.
    assert!(list.starts_with("5 file(s) in "), "{list}");
    assert!(
        list.contains("Complete partitions: 3x3 8, 4x4 5-5-5\n"),
        "{list}"
    );
    assert!(
        !list.contains("DAMAGED") && !list.contains("FOREIGN"),
        "{list}"
    );

    let path = |name: &str| dir.path().join(name);
    let first = path("4x4_1-2-3-4-7.pdb");
    let good = std::fs::read(&first).expect("a table");
    // A flipped bit in the last block, which only a whole check reads.
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    std::fs::write(&first, &flipped).expect("flip");
    // Another group's table under this group's name (the same size).
    std::fs::copy(&first, path("4x4_5-6-9-10-13.pdb")).expect("swap");
    std::fs::write(path("notes.txt"), "mine").expect("a foreign file");
    let eight = path(TABLE);
    let table = std::fs::read(&eight).expect("the 3x3 table");
    std::fs::write(&eight, &table[..table.len() - 5]).expect("truncate");
    let (status, list, _) = run(dir.path(), &["tables", "list"]);
    assert_eq!(status, 0);
    // Four tables (three damaged), the machine and the foreign file.
    assert!(list.starts_with("6 file(s) in "), "{list}");
    let line = |name: &str| {
        list.lines()
            .find(|l| l.contains(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        line("4x4_1-2-3-4-7.pdb").contains("DAMAGED: table file")
            && line("4x4_1-2-3-4-7.pdb").contains("is corrupted (block 27 of 27"),
        "{list}"
    );
    assert!(
        line("4x4_5-6-9-10-13.pdb").contains("holds another table"),
        "{list}"
    );
    assert!(
        line(TABLE).contains("DAMAGED") && line(TABLE).contains("truncated"),
        "{list}"
    );
    assert!(line("notes.txt").contains("FOREIGN"), "{list}");
    assert!(list.contains("3 damaged table(s)"), "{list}");
    assert!(list.contains("Complete partitions: none\n"), "{list}");
    assert!(
        list.contains("Incomplete: 4x4 5-5-5 (1 of 3 tables)\n"),
        "{list}"
    );
}

/// A catalogue given as a list of partitions: its tables built once each (6-6-3 and 5-5-5
/// share none), listed with the named catalogue it begins, and searched with the answer of
/// its partitions and its estimate; a list with a partition twice is refused in one line.
#[test]
fn catalogues_are_built_listed_and_solved_with() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (status, stdout, stderr) = run(
        dir.path(),
        &["tables", "build", "--heuristic", "6-6-3+5-5-5"],
    );
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stdout.starts_with("4x4 6-6-3+5-5-5 table 1 of 6 (tiles 1,5,6,9,10,13): "),
        "{stdout}"
    );
    assert_eq!(stdout.matches(" of 6 (tiles ").count(), 6, "{stdout}");
    let (status, list, _) = run(dir.path(), &["tables", "list"]);
    assert_eq!(status, 0);
    assert!(
        list.contains("Complete partitions: 4x4 5-5-5, 4x4 6-6-3\n"),
        "{list}"
    );
    assert!(
        list.contains(
            "Catalogue 4x4 7-8+6-6-3 (3 of 5 tables): the largest of 2 partitions, 7-8, 6-6-3\n"
        ),
        "{list}"
    );
    let korf = "a510f9de28476cb3";
    let solve = |heuristic: &str| {
        let args = ["solve", "--heuristic", heuristic, "--stats", korf];
        let (status, stdout, stderr) = run(dir.path(), &args);
        assert_eq!(status, 0, "{stderr}");
        assert!(!stderr.contains("building"), "{stderr}");
        stdout
    };
    let solution = |text: &str| {
        let line = text.lines().find(|l| l.starts_with("Solution in "));
        line.unwrap_or_default()
            .split(" (")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let (alone, both) = (solve("6-6-3"), solve("6-6-3+5-5-5"));
    assert!(
        solution(&both).starts_with("Solution in 49+6 moves: "),
        "{both}"
    );
    assert_eq!(solution(&alone), solution(&both));
    assert!(
        both.contains("Heuristic 6-6-3+5-5-5 estimates 45 moves (Manhattan 43)"),
        "{both}"
    );
    let (status, _, stderr) = run(dir.path(), &["solve", "--heuristic", "7-8+7-8", korf]);
    assert_eq!(status, 2);
    assert_eq!(stderr.trim_end(), "not a catalogue: 7-8 is listed twice");
}

/// A directory named by `--tables` that is not there is said to be missing (a mistyped path
/// is not an empty cache, issue 53); the default directory before any build lists no files.
#[test]
fn a_missing_table_directory_is_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let missing = dir.path().join("typo");
    let missing = missing.to_str().expect("a path");
    let (status, stdout, stderr) = run(dir.path(), &["tables", "list", "--tables", missing]);
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "--tables {missing}: no such directory (a build or solve makes it when it keeps a table)"
        )
    );
    let unbuilt = dir.path().join("unbuilt");
    let (status, stdout, _) = run(&unbuilt, &["tables", "list"]);
    assert_eq!(status, 0);
    assert!(stdout.starts_with("0 file(s) in "), "{stdout}");
}

/// A table of an older format (format 2: one entry per cell of the blank) is listed as such,
/// named on stderr by the solve that needs it, and rebuilt: the solve's answer and the table
/// that is then kept are this format's.
#[test]
fn a_table_of_an_older_format_is_named_and_rebuilt() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (status, _, stderr) = run(dir.path(), &["tables", "build", "--size", "3x3"]);
    assert_eq!(status, 0, "{stderr}");
    let eight = dir.path().join(TABLE);
    let table = std::fs::read(&eight).expect("the 3x3 table");
    let mut older = table.clone();
    older[12..16].copy_from_slice(&2u32.to_le_bytes());
    std::fs::write(&eight, &older).expect("an older format");
    let (status, list, _) = run(dir.path(), &["tables", "list"]);
    assert_eq!(status, 0);
    let line = list.lines().find(|l| l.contains(TABLE)).unwrap_or_default();
    assert!(
        line.contains("OLD: 3x3 zero-aware 1-bit table of tiles 1,2,3,4,5,6,7,8, table format 2"),
        "{list}"
    );
    assert!(!list.contains("DAMAGED"), "{list}");
    let stderr = solves_hiroi(dir.path());
    assert!(
        stderr.contains("is of an older format (2; format 3 keeps one entry per region of the blank); building it again"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&eight).expect("rebuilt"), table);
}

/// A duplicate-pruning machine written under other word rules (here: before its file named
/// them) is listed as old, not damaged, and rebuilt under today's rules (issue 50).
#[test]
fn a_machine_of_other_word_rules_is_named_and_rebuilt() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (status, _, stderr) = run(dir.path(), &["tables", "build", "--size", "3x3"]);
    assert_eq!(status, 0, "{stderr}");
    let file = dir.path().join("fsm-12.bin");
    let today = std::fs::read(&file).expect("the machine was kept");
    let machine = fifteen::prune::Machine::build(12);
    fifteen::heuristic::cache::write(
        &file,
        "duplicate-pruning machine of the forbidden words of at most 12 moves",
        &fifteen::prune::cache::payload(&machine),
    )
    .expect("written");
    let (status, list, _) = run(dir.path(), &["tables", "list"]);
    assert_eq!(status, 0);
    let line = list
        .lines()
        .find(|l| l.contains("fsm-12.bin"))
        .unwrap_or_default();
    assert!(
        line.ends_with("OLD: a duplicate-pruning machine of other word rules (rules unnamed), rebuilt when next used"),
        "{list}"
    );
    assert!(!list.contains("DAMAGED"), "{list}");
    let stderr = solves_hiroi(dir.path());
    assert!(
        stderr.contains("fsm-12.bin was built under other word rules (rules unnamed; now rules 1); building it again"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&file).expect("rebuilt"), today);
}

/// A table directory that cannot be written: the solve says so before it builds (not "once;
/// kept"), still answers, and `tables build` fails so that a set-up script notices.
#[test]
fn a_directory_that_cannot_be_written_is_said_and_fails_the_build() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let blocked = dir.path().join("a-file");
    std::fs::write(&blocked, "").expect("a file where the directory would go");
    let tables = blocked.join("tables");
    let stderr = solves_hiroi(&tables);
    assert!(
        stderr.contains("building the 3x3 8 table 1 of 1; the tables cannot be kept")
            && stderr.contains("so every run builds them again"),
        "{stderr}"
    );
    assert!(!stderr.contains("once; kept"), "{stderr}");
    // Said once for the run, however many tables it builds (issue 41): 5-5-5 has three.
    let (status, _, stderr) = run(
        &tables,
        &[
            "solve",
            "--heuristic",
            "5-5-5",
            "--prune",
            "none",
            "123456789abcdef0",
        ],
    );
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            format!(
                "building the 4x4 5-5-5 table 1 of 3; the tables cannot be kept ({}: Not a \
                 directory (os error 20)), so every run builds them again: --tables DIR or \
                 FIFTEEN_TABLES names another directory",
                tables.display()
            ),
            "building the 4x4 5-5-5 table 2 of 3 (not kept)".to_string(),
            "building the 4x4 5-5-5 table 3 of 3 (not kept)".to_string(),
        ]
    );
    let (status, stdout, stderr) = run(&tables, &["tables", "build", "--size", "3x3"]);
    assert_eq!(status, 2, "{stdout}{stderr}");
    assert!(stdout.contains("not kept"), "{stdout}");
    assert_eq!(
        stderr.lines().last(),
        Some(format!(
            "1 table(s) and the duplicate-pruning machine built but not kept in {}: every run will build them again",
            tables.display()
        ))
        .as_deref()
    );
}

/// A second process that needs a table another one is building waits for it and reads its
/// file instead of building it too (the first builder is played here by the test, holding the
/// lock file and then writing the table).
#[test]
fn a_second_builder_waits_for_the_first() {
    let built = tempfile::tempdir().expect("a temporary directory");
    solves_hiroi(built.path());
    let table = std::fs::read(built.path().join(TABLE)).expect("the table");

    let dir = tempfile::tempdir().expect("a temporary directory");
    let lock = std::fs::File::create(dir.path().join(format!(".{TABLE}.lock"))).expect("lock file");
    lock.lock().expect("the lock");
    let mut child = command()
        .env("FIFTEEN_TABLES", dir.path())
        .args(["solve", "--heuristic", "8", HIROI])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("fifteen starts");
    let mut said = String::new();
    let mut stderr = std::io::BufReader::new(child.stderr.take().expect("stderr"));
    std::io::BufRead::read_line(&mut stderr, &mut said).expect("a line");
    assert!(
        said.starts_with("waiting for another process that builds "),
        "{said}"
    );
    // The "first builder" finishes: its table, then the lock, whose file it removes first
    // (as fifteen does: the waiting process, locking a file no longer there, locks anew).
    let partial = dir.path().join(".partial");
    std::fs::write(&partial, &table).expect("write");
    std::fs::rename(&partial, dir.path().join(TABLE)).expect("rename");
    std::fs::remove_file(dir.path().join(format!(".{TABLE}.lock"))).expect("unlink");
    drop(lock);
    let output = child.wait_with_output().expect("fifteen ends");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).expect("the rest");
    assert_eq!(output.status.code(), Some(0), "{rest}");
    assert_eq!(rest, "", "nothing built");
    assert!(String::from_utf8_lossy(&output.stdout).contains("Solution in 26+5 moves"));
    assert_eq!(lock_files(dir.path()), Vec::<String>::new());
}

/// The lock files left in `dir` (none once every build is over: issue 41).
fn lock_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|name| name.ends_with(".lock"))
                .collect()
        })
        .unwrap_or_default()
}

/// `tables build --metric mtm` builds the multi-tile metric's 4x4 table (about 15 s, so not
/// here); what has no table is refused in one line before anything is built or written.
#[test]
fn the_mtm_table_is_asked_for_by_metric_and_only_where_there_is_one() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (args, said) in [
        (&["--size", "3x3"][..], "for the 4x4 board only"),
        (
            &["--size", "5x5", "--heuristic", "relabel"],
            "4x4 board only",
        ),
        (
            &["--heuristic", "walking"],
            "walking distance needs no tables",
        ),
        (
            &["--heuristic", "6-6-3"],
            "walking, relabel (4x4) or default",
        ),
        (
            &["--heuristic", "manhattan"],
            "walking, relabel (4x4) or default",
        ),
    ] {
        let mut argv = vec!["tables", "build", "--metric", "mtm"];
        argv.extend_from_slice(args);
        let (status, stdout, stderr) = run(dir.path(), &argv);
        assert_eq!(status, 2, "{argv:?}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{argv:?}: {stderr}");
        assert!(stderr.contains(said), "{argv:?}: {stderr}");
        assert!(stdout.is_empty(), "{argv:?}: {stdout}");
    }
    let (status, _, _) = run(dir.path(), &["tables", "build", "--metric", "xtm"]);
    assert_eq!(status, 2);
    assert_eq!(
        std::fs::read_dir(dir.path())
            .expect("the directory")
            .count(),
        0,
        "nothing built, nothing written"
    );
}
