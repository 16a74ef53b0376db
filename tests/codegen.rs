//! Guards on the machine code of the generated automaton, read back with `objdump`.
//!
//! The automaton is fast only while LLVM copies the `match` dispatch (one indirect jump) into
//! every arm, which turns the loop into threaded code; when a heuristic gives up, all arms jump
//! back through one shared indirect jump and the plain solve gets 20–40% slower, with the same
//! answers. Nothing in the source shows it, so this test counts indirect jumps in every
//! `Machine::run_plain` (and checks that no search loop, `run_pruned` and
//! `TablesMachine::run_tables` included,
//! calls a panic routine: no bounds checks, no overflow checks). Only optimized builds are judged (the README's test command is
//! `cargo test --release`); without `objdump` on the PATH the test says so and passes.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::process::Command;

/// Per search-loop function: (indirect jumps, instructions mentioning a panic routine).
fn search_loops() -> Option<BTreeMap<String, (usize, usize)>> {
    functions(|name| {
        name.contains("engine::automaton::board")
            && (name.ends_with("Machine::run_plain")
                || name.ends_with("Machine::run_counted")
                || name.ends_with("Machine::run_pruned")
                || name.ends_with("TablesMachine::run_tables"))
    })
}

/// Per function whose name `keep` keeps: (indirect jumps, instructions mentioning a panic
/// routine).
fn functions(keep: impl Fn(&str) -> bool) -> Option<BTreeMap<String, (usize, usize)>> {
    let text = disassembly()?;
    let mut loops = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.ends_with(">:") {
            current = line
                .split_once('<')
                .map(|(_, name)| name.trim_end_matches(">:").to_string())
                .filter(|name| keep(name));
            if let Some(name) = &current {
                loops.insert(name.clone(), (0, 0));
            }
            continue;
        }
        let Some(name) = &current else { continue };
        let entry = loops.entry(name.clone()).or_insert((0, 0));
        if is_indirect_jump(line) {
            entry.0 += 1;
        }
        if line.contains("panic") {
            entry.1 += 1;
        }
    }
    Some(loops)
}

/// `jmp *%rax` (position-independent code: the target is computed from a relative table) or
/// `jmp *0x…(,%rax,8)` (the non-PIE build of `.cargo/config.toml`: the table holds addresses).
fn is_indirect_jump(line: &str) -> bool {
    line.split_once("jmp")
        .is_some_and(|(_, operand)| operand.trim_start().starts_with('*'))
}

/// Indirect jumps in every MTM automaton's `Machine::run`, by board (`4x4`, …).
fn mtm_loops() -> Option<BTreeMap<String, usize>> {
    let loops =
        functions(|name| name.contains("mtm::automaton::board") && name.ends_with("::run"))?;
    let board = |name: &str| {
        name.split_once("mtm::automaton::board")
            .map_or(String::new(), |(_, rest)| {
                rest.replace("::Machine::run", "")
            })
    };
    Some(
        loops
            .into_iter()
            .map(|(name, (jumps, _))| (board(&name), jumps))
            .collect(),
    )
}

/// What `read` finds in an optimized build with `objdump` on the PATH; otherwise `None`,
/// having said why the test is skipped. Under CI (the variable `CI` set, as `.ci/run` does)
/// nothing is skipped: a build or a tool that cannot be judged fails the test.
fn judged<T>(read: fn() -> Option<T>) -> Option<T> {
    let skip = |why: &str| {
        assert!(
            std::env::var_os("CI").is_none(),
            "under CI, not skipped: {why}"
        );
        eprintln!("skipped: {why}");
    };
    if cfg!(debug_assertions) {
        skip("the dispatch is only copied in optimized builds (use --release)");
        return None;
    }
    let found = read();
    if found.is_none() {
        skip("objdump is not available, or failed");
    }
    found
}

/// The binary's machine code as `objdump` prints it; `None` without `objdump`.
fn disassembly() -> Option<String> {
    let binary = env!("CARGO_BIN_EXE_fifteen");
    let output = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn", "-C", binary])
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn the_mtm_automaton_has_one_loop_per_board_and_the_4x4_dispatch_is_copied() {
    let Some(loops) = judged(mtm_loops) else {
        return;
    };
    // The 13 boards of at most 16 cells, and 4x4 twice: with walking distance
    // (`--heuristic walking`) and with the relabelled table alone (`4x4_table`, the default).
    // Their loops call the lower bound's table lookups, which check their indexes, so unlike
    // Knuth's loops they may refer to a panic routine.
    assert_eq!(loops.len(), 14, "MTM loops found: {loops:?}");
    // 4x4 has 384 move states; when LLVM copies the dispatch, most have their own jump. With
    // the duplicate-pruning machine's lookup in each state it copies it into 274-294 places;
    // forced to copy more (`-C llvm-args=-tail-dup-indirect-size=60`: 703 jumps), Korf's 100 in
    // MTM took the same time (13.0-13.3 s both, interleaved). What this guards against is the
    // collapse to one shared jump, which made Korf #49 1.33x slower.
    let jumps = loops.get("4x4_table").copied().unwrap_or(0);
    assert!(
        jumps >= 256,
        "the 4x4 MTM table's loop has {jumps} indirect jumps"
    );
}

#[test]
fn indirect_jumps_are_recognised_in_both_code_models() {
    assert!(is_indirect_jump("  335566:\tjmp    *0x2122d0(,%rax,8)"));
    assert!(is_indirect_jump("  2fc0fc:\tjmp    *%rax"));
    assert!(!is_indirect_jump(
        "  2fc0fc:\tjmp    2fc1b1 <fifteen::x+0x281>"
    ));
}

#[test]
fn every_plain_search_loop_keeps_its_copied_dispatch_and_no_loop_can_panic() {
    let Some(loops) = judged(search_loops) else {
        return;
    };
    // 16 boards from 2 x 2 to 5 x 5, three loops each (plain, counted, pruned), and the loop
    // with pattern databases on the five boards that have them (3x3, 3x4, 4x3, 4x4, 5x5).
    assert_eq!(loops.len(), 53, "search loops found: {:?}", loops.keys());
    for (name, (jumps, panics)) in &loops {
        assert_eq!(*panics, 0, "{name} refers to a panic routine");
        if name.ends_with("run_plain") {
            // The smallest board (2 x 2) has 12 move states; each needs its own dispatch.
            assert!(
                *jumps >= 12,
                "{name} has {jumps} indirect jumps: its dispatch is no longer copied"
            );
        }
    }
}
