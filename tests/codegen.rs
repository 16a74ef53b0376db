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
    let binary = env!("CARGO_BIN_EXE_fifteen");
    let output = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn", "-C", binary])
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut loops = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.ends_with(">:") {
            current = line
                .split_once('<')
                .map(|(_, name)| name.trim_end_matches(">:").to_string())
                .filter(|name| {
                    name.contains("automaton::board")
                        && (name.ends_with("Machine::run_plain")
                            || name.ends_with("Machine::run_counted")
                            || name.ends_with("Machine::run_pruned")
                            || name.ends_with("TablesMachine::run_tables"))
                });
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
    if cfg!(debug_assertions) {
        eprintln!("skipped: the dispatch is only copied in optimized builds (use --release)");
        return;
    }
    let Some(loops) = search_loops() else {
        eprintln!("skipped: objdump is not available");
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
