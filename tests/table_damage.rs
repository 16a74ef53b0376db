//! A damaged table never gives a wrong answer. A single solve reads its tables a block at a
//! time, as the search first looks at each block, checking each against its checksum: a byte
//! flipped in a block the search reads is named on stderr, the table is rebuilt and the search
//! runs again, and what stdout shows is what an undamaged run shows (no bound line twice, the
//! same solution). Damage to a header, a truncated file and a file of another group under a
//! table's name are caught when the file is opened.
#![forbid(unsafe_code)]

use std::io::Read;
use std::path::Path;
use std::process::Command;

/// Runs `fifteen ARGS` with its tables in `dir`: the exit status and stdout and stderr merged
/// in the order they were written.
fn run_merged(dir: &Path, args: &[&str]) -> (i32, String) {
    let (mut reader, writer) = std::io::pipe().expect("a pipe");
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("fifteen"));
    command
        .env("FIFTEEN_TABLES", dir)
        .args(args)
        .stdout(writer.try_clone().expect("a second writer"))
        .stderr(writer);
    let mut child = command.spawn().expect("fifteen runs");
    drop(command); // closes the writers kept by the command
    let mut merged = String::new();
    reader.read_to_string(&mut merged).expect("the output");
    let status = child.wait().expect("fifteen ends");
    (status.code().unwrap_or(-1), merged)
}

/// The lines of `output` that an undamaged run prints too, without their times.
fn answer(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| !line.contains("building") && !line.starts_with("table file"))
        .map(|line| line.split(" (").next().unwrap_or(line).to_string())
        .collect()
}

/// Flips one bit of `path` at `at`.
fn flip(path: &Path, good: &[u8], at: usize) {
    let mut bytes = good.to_vec();
    bytes[at] ^= 0x10;
    std::fs::write(path, bytes).expect("write the damaged table");
}

/// The payload of a table file starts at its first 4096-byte boundary after the header.
const BLOCK: usize = 4096;

#[test]
fn flipped_blocks_are_caught_and_the_answer_stays_right() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let solve = [
        "solve",
        "--heuristic",
        "6-6-3",
        "--threads",
        "1",
        "a510f9de28476cb3",
    ];
    let (status, clean) = run_merged(dir.path(), &solve);
    assert_eq!(status, 0, "{clean}");
    let clean = answer(&clean);
    assert_eq!(clean.len(), 6, "{clean:?}"); // five bounds without a solution, then one
    assert!(
        clean[5].starts_with("Solution in 49+6 moves: "),
        "{clean:?}"
    );
    // A 6-tile table (361 blocks): the search first reads blocks 0 and 12 in its first bound,
    // 40, 107 and 205 later (of the 189 it reads; a change to what a node looks up may move
    // them, so scan all 361 again when this fails).
    let path = dir.path().join("4x4_1-5-6-9-10-13.pdb");
    let good = std::fs::read(&path).expect("the table was kept");
    let blocks = (good.len() - BLOCK).div_ceil(BLOCK);
    assert_eq!(blocks, 361);
    let mut after_a_bound = 0;
    for block in [0, 12, 40, 107, 205] {
        flip(&path, &good, BLOCK + block * BLOCK + 100);
        let (status, output) = run_merged(dir.path(), &solve);
        assert_eq!(status, 0, "{output}");
        let damage = format!(
            "table file {} is corrupted (block {} of {blocks}: checksum mismatch); building it again",
            path.display(),
            block + 1
        );
        let said = output.lines().position(|line| line == damage);
        let said = said.unwrap_or_else(|| panic!("block {block}: {output}"));
        assert_eq!(answer(&output), clean, "block {block}: {output}");
        assert_eq!(std::fs::read(&path).expect("rebuilt"), good);
        // Bound lines printed before the damaged block was read are not printed again.
        after_a_bound +=
            usize::from(said > 0 && output.lines().take(said).all(|l| l.starts_with(" ...")));
    }
    assert!(
        after_a_bound >= 2,
        "damage found mid-search {after_a_bound} times"
    );

    // Two tables of the same size swapped: each holds another table.
    let other = dir.path().join("4x4_7-8-11-12-14-15.pdb");
    let second = std::fs::read(&other).expect("the second table");
    std::fs::write(&path, &second).expect("swap");
    std::fs::write(&other, &good).expect("swap");
    let (status, output) = run_merged(dir.path(), &solve);
    assert_eq!(status, 0, "{output}");
    assert_eq!(output.matches("holds another table").count(), 2, "{output}");
    assert_eq!(answer(&output), clean, "{output}");
    assert_eq!(std::fs::read(&path).expect("rebuilt"), good);
    assert_eq!(std::fs::read(&other).expect("rebuilt"), second);
}

#[test]
fn damaged_headers_and_truncated_files_are_caught_when_opened() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let solve = ["solve", "--heuristic", "8", "867254301"];
    let (status, clean) = run_merged(dir.path(), &solve);
    assert_eq!(status, 0, "{clean}");
    let clean = answer(&clean);
    assert_eq!(
        clean,
        ["Solution in 26+5 moves: 3256741365874136287413528741256"]
    );
    let path = dir.path().join("3x3_1-2-3-4-5-6-7-8.pdb");
    let good = std::fs::read(&path).expect("the table was kept");
    let blocks = (good.len() - BLOCK).div_ceil(BLOCK);
    let cases: [(&dyn Fn(), String); 5] = [
        (&|| flip(&path, &good, 30), "has a corrupted header".into()),
        (&|| flip(&path, &good, 100), "has a corrupted header".into()),
        (
            &|| flip(&path, &good, BLOCK + 5),
            format!("(block 1 of {blocks}: checksum mismatch)"),
        ),
        (
            &|| flip(&path, &good, good.len() - 1),
            format!("(block {blocks} of {blocks}: checksum mismatch)"),
        ),
        (
            &|| std::fs::write(&path, &good[..good.len() - 1]).expect("truncate"),
            "is truncated".into(),
        ),
    ];
    for (damage, said) in cases {
        damage();
        let (status, output) = run_merged(dir.path(), &solve);
        assert_eq!(status, 0, "{output}");
        assert!(
            output.contains(&said) && output.contains("building it again"),
            "{said}: {output}"
        );
        assert_eq!(answer(&output), clean, "{output}");
        assert_eq!(std::fs::read(&path).expect("rebuilt"), good);
    }
}
