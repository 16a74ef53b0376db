//! `fifteen levels` and `fifteen sliding --levels` on plain tile puzzles: the counts against
//! OEIS and the breadth-first engine, the farthest configurations, the memory check, and the
//! checkpoint (stopped, killed and damaged runs).

mod common;

use common::*;

/// OEIS A089473: the 8-puzzle from the blank in a corner.
const A089473: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
    16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

/// OEIS A090035: the 4x2 puzzle from the blank in a corner.
const A090035: [u64; 37] = [
    1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788, 985, 1194,
    1414, 1664, 1884, 1999, 1958, 1770, 1463, 1076, 667, 361, 190, 88, 39, 19, 7, 1,
];

/// The numbers of the `Level sizes` line.
fn level_sizes(stdout: &str) -> Vec<u64> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Level sizes"))
        .unwrap_or_else(|| panic!("no level sizes in {stdout}"));
    let (_, sizes) = line.split_once("): ").expect("the sizes after the heading");
    sizes
        .split(' ')
        .map(|n| n.parse().expect("a count"))
        .collect()
}

fn joined(sizes: &[u64]) -> String {
    sizes
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_eight_puzzle_s_levels_and_its_two_antipodes() {
    let (code, stdout, stderr) = run(&["levels", "--size", "3x3"]);
    assert_eq!(code, 0, "{stderr}");
    let mut expected = String::from(
        "Every configuration of the 3x3 puzzle in the single-tile metric, from the tiles in \
         order with the blank at row 3, column 3: 181440 configurations, 0.1M of memory.\n",
    );
    for (d, size) in A089473.iter().enumerate() {
        expected += &format!("Distance {d}: {size}\n");
    }
    expected += &format!(
        "Level sizes (all distances 0..31): {}\nTotal: 181440 configurations\n\
         The farthest, at distance 31: 2 configurations:\n647/850/321\n867/254/301\n",
        joined(&A089473)
    );
    assert_eq!(stdout, expected);
}

/// OEIS A090036: the 2x5 puzzle from the blank in a corner.
const A090036: [u64; 56] = [
    1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602, 851, 1232, 1783, 2530, 3567, 4996,
    6838, 9279, 12463, 16597, 21848, 28227, 35682, 44464, 54597, 65966, 78433, 91725, 104896,
    116966, 126335, 131998, 133107, 128720, 119332, 106335, 91545, 75742, 60119, 45840, 33422,
    23223, 15140, 9094, 5073, 2605, 1224, 528, 225, 75, 20, 2,
];

#[test]
fn a_blank_in_another_cell_and_either_metric() {
    let (_, stdout, _) = run(&["levels", "--size", "2x5"]);
    assert_eq!(level_sizes(&stdout), A090036);
    // The 2x4 board from a corner is the 4x2 board turned: the same counts in both metrics.
    for corner in ["1,1", "1,4", "2,1", "2,4"] {
        let (code, stdout, stderr) = run(&["levels", "--size", "2x4", "--blank", corner]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(level_sizes(&stdout), A090035, "{corner}");
    }
    let (_, tall, _) = run(&["levels", "--size", "4x2", "--metric", "mtm"]);
    let (_, wide, _) = run(&[
        "levels", "--size", "2x4", "--metric", "mtm", "--blank", "1,1",
    ]);
    assert_eq!(level_sizes(&tall), level_sizes(&wide));
    assert_eq!(level_sizes(&tall).iter().sum::<u64>(), 20_160);
    // From the centre of the 3x3 board: 4 moves at distance 1, the farthest at 30.
    let (_, centre, _) = run(&["levels", "--size", "3x3", "--blank", "2,2", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&centre).expect("JSON");
    assert_eq!(report["levels"][1], 4);
    assert_eq!(report["radius"], 30);
    assert_eq!(report["configurations"], 181_440);
    assert_eq!(report["blank"], serde_json::json!([2, 2]));
}

/// A SLIDING file of the tiles in order around a blank at `blank` (counted from 0), no stop.
fn tile_puzzle(rows: usize, cols: usize, blank: usize) -> tempfile::NamedTempFile {
    let mut text = format!("{rows} x {cols}\n");
    for tile in 1..rows * cols {
        text += &format!("{tile:x} = 1\n");
    }
    let mut tile = 1;
    for cell in 0..rows * cols {
        if cell == blank {
            text.push('0');
        } else {
            text += &format!("{tile:x}");
            tile += 1;
        }
    }
    text.push('\n');
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::io::Write::write_all(&mut file, text.as_bytes()).expect("written");
    file
}

#[test]
fn sliding_levels_of_a_tile_puzzle_agree_with_fifteen_levels_and_the_bfs_engine() {
    for (rows, cols, blank) in [(2, 3, 0), (3, 2, 4), (2, 4, 5), (3, 3, 4)] {
        let file = tile_puzzle(rows, cols, blank);
        let path = file.path().to_str().expect("UTF-8");
        let cell = format!("{},{}", blank / cols + 1, blank % cols + 1);
        let size = format!("{rows}x{cols}");
        for (style, metric) in [("0", "stm"), ("3", "mtm")] {
            let (_, enumerated, _) = run(&["sliding", "--style", style, "--levels", path]);
            // --verbose: every configuration, so the breadth-first engine.
            let (_, searched, _) =
                run(&["sliding", "--style", style, "--levels", "--verbose", path]);
            let (_, levels, _) = run(&[
                "levels", "--size", &size, "--metric", metric, "--blank", &cell,
            ]);
            let sizes = level_sizes(&enumerated);
            assert_eq!(sizes, level_sizes(&searched), "{size} {cell} style {style}");
            assert_eq!(sizes, level_sizes(&levels), "{size} {cell} style {style}");
            let tail = |out: &str| out.lines().rev().take(2).collect::<Vec<_>>().join("\n");
            assert_eq!(tail(&enumerated), tail(&searched));
        }
    }
}

#[test]
fn sliding_levels_of_a_tile_puzzle_fit_where_the_bfs_engine_does_not() {
    // The 8-puzzle's 181,440 configurations: 0.1 MB for the enumerator's labels, more than a
    // megabyte for the breadth-first engine's table.
    let path = "tests/data/sliding/eight_puzzle.txt";
    let text = std::fs::read_to_string(path).expect("the 8-puzzle");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.pop(); // the stop line
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::io::Write::write_all(&mut file, (lines.join("\n") + "\n").as_bytes()).expect("written");
    let path = file.path().to_str().expect("UTF-8");
    let (code, stdout, stderr) = run(&[
        "sliding", "--style", "0", "--levels", "--quiet", "--memory", "1M", path,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(level_sizes(&stdout), A089473);
    assert!(stdout.contains("*** Distance 31:\n"));
    assert!(stdout.ends_with(
        "Total: 181440 configurations\n181440 configurations are reachable; the farthest are at distance 31.\n"
    ));
    let stderr = refused(&[
        "sliding",
        "--style",
        "0",
        "--levels",
        "--verbose",
        "--memory",
        "1M",
        path,
    ]);
    assert!(
        stderr.contains("the memory limit of 1M was reached"),
        "{stderr}"
    );
}

#[test]
fn a_board_too_big_for_the_memory_is_refused_before_it_starts() {
    let (code, stdout, stderr) = run(&["levels", "--size", "2x7"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "every configuration of 2x7 needs 11.6G of memory (43589145600 configurations, two \
         bits each); --memory allows 2G: give --memory 12G or more\n"
    );
    let stderr = refused(&["levels", "--size", "4x4", "--memory", "100T"]);
    assert!(
        stderr.starts_with("every configuration of 4x4 needs 2435.9G of memory")
            && stderr.contains("; this machine has ")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    for (args, message) in [
        (
            &["--size", "3x6"][..],
            "a 3x6 board has 18 cells; the enumerator takes at most 16",
        ),
        (
            &["--size", "1x5"],
            "a 1x5 board cannot be enumerated: it needs at least 2 rows and 2 columns",
        ),
        (
            &["--size", "3x3", "--blank", "4,1"],
            "the blank's cell (row 4, column 1) is not on a 3x3 board",
        ),
    ] {
        let mut all = vec!["levels"];
        all.extend_from_slice(args);
        let (code, _, stderr) = run(&all);
        assert_eq!((code, stderr.as_str()), (2, &*format!("{message}\n")));
    }
    let stderr = refused(&["levels", "--size", "2by7"]);
    assert!(stderr.contains("bad board size \"2by7\""), "{stderr}");
}

/// `fifteen levels RUN --checkpoint CHECKPOINT --resume`.
fn resume(run_args: &[&str], checkpoint: &str) -> (i32, String, String) {
    let mut args = vec!["levels"];
    args.extend_from_slice(run_args);
    args.extend_from_slice(&["--checkpoint", checkpoint, "--resume"]);
    run(&args)
}

#[test]
fn a_stopped_run_resumed_prints_what_a_whole_run_prints() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("2x5.ckpt");
    let checkpoint = file.to_str().expect("UTF-8");
    let whole = run(&["levels", "--size", "2x5", "--metric", "mtm"]);
    assert_eq!(whole.0, 0);
    let kept = |more: &[&str]| {
        let mut args = vec![
            "levels",
            "--size",
            "2x5",
            "--metric",
            "mtm",
            "--checkpoint",
            checkpoint,
        ];
        args.extend_from_slice(more);
        run(&args)
    };
    let (code, stopped, stderr) = kept(&["--stop-at", "7"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stopped.contains("Distance 7: "), "{stopped}");
    assert!(!stopped.contains("Distance 8: "), "{stopped}");
    assert!(stopped.ends_with(&format!(
        "Stopped after distance 7; the checkpoint {checkpoint} goes on with --resume.\n"
    )));
    assert!(stopped.contains("Level sizes (completed distances 0..7): "));
    let resumed = kept(&["--resume"]);
    assert_eq!(resumed, whole);
    // Another run's checkpoint is named, not used.
    let (code, _, stderr) = resume(&["--size", "2x5"], checkpoint);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!(
            "{checkpoint}: a checkpoint of 2x5 in the multi-tile metric with the blank starting \
             at row 2, column 5, not of this run (2x5 in the single-tile metric with the blank \
             starting at row 2, column 5)\n"
        )
    );
}

#[test]
fn a_damaged_checkpoint_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("3x3.ckpt");
    let checkpoint = file.to_str().expect("UTF-8");
    let (code, _, stderr) = run(&[
        "levels",
        "--size",
        "3x3",
        "--checkpoint",
        checkpoint,
        "--stop-at",
        "20",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let good = std::fs::read(&file).expect("the checkpoint");
    let resume = || {
        run(&[
            "levels",
            "--size",
            "3x3",
            "--checkpoint",
            checkpoint,
            "--resume",
        ])
    };
    assert_eq!(resume().0, 0);
    let refused = |bytes: Vec<u8>, why: &str| {
        std::fs::write(&file, bytes).expect("written");
        let (code, stdout, stderr) = resume();
        assert_eq!((code, stdout.as_str()), (2, ""), "{why}");
        assert_eq!(stderr, format!("{checkpoint}: {why}\n"));
    };
    let mut label = good.clone();
    let middle = good.len() - 1000;
    label[middle] ^= 0x10;
    refused(
        label,
        "damaged (a block of labels fails its checksum); start again without --resume",
    );
    let mut header = good.clone();
    header[30] ^= 1;
    refused(
        header,
        "damaged (its header fails its checksum); start again without --resume",
    );
    refused(
        good[..good.len() - 3].to_vec(),
        "damaged (it ends early); start again without --resume",
    );
    let mut longer = good.clone();
    longer.push(0);
    refused(
        longer,
        "damaged (it goes on after its last block); start again without --resume",
    );
    refused(
        b"Starting configuration:\n".to_vec(),
        "not a checkpoint of fifteen levels",
    );
    let mut version = good.clone();
    version[16] = 9;
    refused(
        version,
        "a checkpoint of format 9; this fifteen reads format 1 (start again without --resume)",
    );
}

#[test]
fn a_killed_run_resumed_gives_the_same_counts() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("2x5.ckpt");
    let checkpoint = file.to_str().expect("UTF-8");
    let whole = run(&["levels", "--size", "2x5"]);
    let mut child = command()
        .args([
            "levels",
            "--size",
            "2x5",
            "--checkpoint",
            checkpoint,
            "--checkpoint-every",
            "0",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("fifteen starts");
    // Killed as soon as a checkpoint is there (or after the run, if it was quicker).
    while !file.exists() {
        if child.try_wait().expect("waited").is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let _ = child.kill();
    child.wait().expect("ended");
    let resumed = resume(&["--size", "2x5"], checkpoint);
    assert_eq!(resumed, whole);
}

/// The 12-cell boards in both metrics, against the breadth-first engine and OEIS: 3x4 and 2x6
/// against the engine, 4x3 and 6x2 against their transposes, the same puzzles on boards of the
/// other parity rule (odd width). About 10 seconds a board here, 1-3 minutes for the engine: run
/// by CI with `cargo test --release --test cli_levels -- --ignored`.
#[test]
#[ignore]
fn every_twelve_cell_board_in_both_metrics() {
    const A090166: [u64; 54] = [
        1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802,
        71167, 119888, 198363, 323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354,
        7647872, 10065800, 12760413, 15570786, 18171606, 20299876, 21587248, 21841159, 20906905,
        18899357, 16058335, 12772603, 9515217, 6583181, 4242753, 2503873, 1350268, 643245, 270303,
        92311, 27116, 5390, 1115, 86, 18,
    ];
    // OEIS A090167 (the 2x6 board, from a corner): its first 39 terms, of 81 (radius 80).
    const A090167: [u64; 39] = [
        1, 2, 3, 6, 11, 20, 36, 60, 95, 155, 258, 426, 688, 1106, 1723, 2615, 3901, 5885, 8851,
        13205, 19508, 28593, 41179, 58899, 83582, 118109, 165136, 228596, 312542, 423797, 568233,
        755727, 994641, 1296097, 1667002, 2119476, 2660415, 3300586, 4038877,
    ];
    for (rows, cols, oeis, stm_radius, mtm_radius) in
        [(3, 4, &A090166[..], 53, 33), (2, 6, &A090167[..], 80, 41)]
    {
        let file = tile_puzzle(rows, cols, rows * cols - 1);
        let path = file.path().to_str().expect("UTF-8");
        let size = format!("{rows}x{cols}");
        let transposed = format!("{cols}x{rows}");
        for (style, metric) in [("0", "stm"), ("3", "mtm")] {
            let levels = |size: &str| {
                let (code, levels, stderr) = run(&["levels", "--size", size, "--metric", metric]);
                assert_eq!(code, 0, "{stderr}");
                level_sizes(&levels)
            };
            let sizes = levels(&size);
            assert_eq!(sizes.iter().sum::<u64>(), 239_500_800);
            assert_eq!(levels(&transposed), sizes, "{transposed} {metric}");
            // --json: the breadth-first engine.
            let (code, searched, stderr) = run(&[
                "sliding", "--style", style, "--levels", "--memory", "3G", "--json", path,
            ]);
            assert_eq!(code, 0, "{stderr}");
            let report: serde_json::Value = serde_json::from_str(&searched).expect("JSON");
            let searched: Vec<u64> =
                serde_json::from_value(report["levels"].clone()).expect("sizes");
            assert_eq!(sizes, searched, "{size} {metric}");
            if metric == "stm" {
                assert_eq!(sizes[..oeis.len()], *oeis, "{size}");
                assert_eq!(sizes.len() - 1, stm_radius, "{size}");
            } else {
                assert_eq!(sizes.len() - 1, mtm_radius, "{size}");
            }
        }
    }
}
