//! The machine on disk: built once (about a second), kept in the tables' directory as
//! `fsm-DEPTH.bin` (single-tile metric) or `fsm-mtm-RxC-DEPTH.bin` (multi-tile metric, a board
//! of R rows and C columns) in the tables' file format (one CRC-32 a 4 KiB block, replaced atomically),
//! and read back by later processes in about a millisecond.
//!
//! Invariant: a machine is handed out only when its file checks out — the format's checksums,
//! a key naming its depth, spelling and the version of the word rules that built it
//! ([`super::words::RULES`]), then the machine itself: every transition is dead or names a state
//! of the machine, so the engines' lookups stay inside it. Anything else is rebuilt (and the file
//! written again); a file of other rules is named as such (`OLD:` in `tables list`).
//!
//! Payload (u32, little-endian): the number of forbidden words, then the transitions
//! `next[n * state + s]` (`n *` the next state, or `u32::MAX`), `n` the spelling's symbols.

use super::{words::RULES, Machine, Spelling, DEAD};
use crate::heuristic::cache::{self, TableFile};
use std::path::{Path, PathBuf};

/// Largest machine file read (a machine of depth 16 has about 8 MB of transitions).
const MAX_BYTES: u64 = 1 << 30;

/// The file of the machine of depth `depth` spelled in `spelling` in `dir`.
pub fn path(dir: &Path, depth: usize, spelling: Spelling) -> PathBuf {
    match spelling.within {
        None => dir.join(format!("fsm-{depth}.bin")),
        Some((rows, cols)) => dir.join(format!("fsm-mtm-{rows}x{cols}-{depth}.bin")),
    }
}

/// The board and depth of a file of the multi-tile metric's machine, read off its name
/// (`fsm-mtm-RxC-DEPTH.bin`), with its spelling.
pub fn mtm_file(file: &Path) -> Option<(Spelling, usize)> {
    let name = file.file_name()?.to_str()?;
    let rest = name.strip_prefix("fsm-mtm-")?.strip_suffix(".bin")?;
    let (size, depth) = rest.split_once('-')?;
    let (rows, cols) = size.split_once('x')?;
    let (rows, cols): (usize, usize) = (rows.parse().ok()?, cols.parse().ok()?);
    let spelling = Spelling::mtm(rows, cols);
    let depth = depth.parse().ok()?;
    (path(file.parent()?, depth, spelling) == file).then_some((spelling, depth))
}

/// What the file's header says it holds: the machine, then the rules that built it.
fn key(depth: usize, spelling: Spelling) -> String {
    format!("{}, word rules {RULES}", machine_key(depth, spelling))
}

/// The machine a file's key names, whatever rules built it (a file written before the rules
/// were named holds only this).
fn machine_key(depth: usize, spelling: Spelling) -> String {
    let words =
        format!("duplicate-pruning machine of the forbidden words of at most {depth} moves");
    match spelling.within {
        None => words,
        Some((rows, cols)) => format!(
            "{words} of jumps of 1 to {} cells on {rows}x{cols}",
            spelling.longest
        ),
    }
}

/// Why a machine's file was not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unread {
    /// The machine the file should hold, built under other word rules: rebuilt, not damaged.
    #[error("machine file {0} was built under other word rules ({1}; now rules {RULES})")]
    OtherRules(String, String),
    /// Anything else: missing, damaged, foreign.
    #[error("{0}")]
    Bad(String),
}

/// The machine's bytes.
pub fn payload(machine: &Machine) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + 4 * machine.next.len());
    bytes.extend_from_slice(&(machine.words as u32).to_le_bytes());
    for &next in machine.next.iter() {
        bytes.extend_from_slice(&next.to_le_bytes());
    }
    bytes
}

/// Reads the machine of depth `depth` spelled in `spelling` from `file`, checked.
pub fn read(file: &Path, depth: usize, spelling: Spelling) -> Result<Machine, Unread> {
    let symbols = spelling.symbols();
    let opened = match TableFile::open_within(file, &key(depth, spelling), 20..=MAX_BYTES) {
        Ok(opened) => opened,
        Err(cache::CacheError::ForeignKey(_, found, _))
            if found
                .strip_prefix(&machine_key(depth, spelling))
                .is_some_and(|rules| rules.is_empty() || rules.starts_with(", word rules ")) =>
        {
            let rules = found
                .rsplit_once(", word rules ")
                .map_or("rules unnamed".into(), |(_, n)| format!("rules {n}"));
            return Err(Unread::OtherRules(file.display().to_string(), rules));
        }
        Err(error) => return Err(Unread::Bad(error.to_string())),
    };
    let bytes = opened.read_all().map_err(|e| Unread::Bad(e.to_string()))?;
    let bad = |what: &str| Unread::Bad(format!("machine file {} {what}", file.display()));
    let mut words = bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    let count = words.next().ok_or_else(|| bad("is empty"))?;
    let next: Box<[u32]> = words.collect();
    if bytes.len() % (4 * symbols) != 4 || next.is_empty() {
        return Err(bad("does not hold whole states"));
    }
    let len = next.len() as u64;
    if next
        .iter()
        .any(|&n| n != DEAD && (!(n as usize).is_multiple_of(symbols) || u64::from(n) >= len))
    {
        return Err(bad("names a state it does not have"));
    }
    Ok(Machine {
        next,
        spelling,
        depth,
        words: count as usize,
    })
}

/// Where a machine came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Origin {
    /// Read from its file.
    Cached,
    /// Built in `seconds`; `kept` when its file was written.
    Built { seconds: f64, kept: bool },
}

/// The machine of depth `depth` spelled in `spelling`: read from `dir`, or built and written
/// there (a file that does not check out is named on stderr and replaced; a directory that
/// cannot be written only means building again next time). `None` for `dir`: built in memory.
/// A build shows a spinner on stderr (hidden when it is not a terminal); with `announce`, a
/// line first says what is built and where it is kept, as the pattern databases' builds do
/// (`tables build` says it on stdout once the machine is done, and leaves this off).
pub fn load(
    dir: Option<&Path>,
    depth: usize,
    spelling: Spelling,
    announce: bool,
) -> (Machine, Origin) {
    let file = dir.map(|dir| path(dir, depth, spelling));
    if let Some(file) = file.as_deref().filter(|f| f.exists()) {
        match read(file, depth, spelling) {
            Ok(machine) => return (machine, Origin::Cached),
            Err(message) => eprintln!("{message}; building it again"),
        }
    }
    let what = name(spelling);
    if announce {
        match dir {
            Some(dir) => eprintln!("building the {what} (once; kept in {})", dir.display()),
            None => eprintln!("building the {what} (not kept)"),
        }
    }
    let bar = crate::progress::spinner();
    bar.set_message(format!("building the {what}"));
    let clock = std::time::Instant::now();
    let machine = Machine::build_for(depth, spelling);
    let seconds = clock.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let kept = file.is_some_and(|file| {
        let written = cache::write(&file, &key(depth, spelling), &payload(&machine));
        if let (Err(error), true) = (&written, announce) {
            eprintln!("cannot keep the {what} in {}: {error}", file.display());
        }
        written.is_ok()
    });
    (machine, Origin::Built { seconds, kept })
}

/// What a machine is called in the lines about it.
pub fn name(spelling: Spelling) -> String {
    match spelling.within {
        None => "duplicate-pruning machine".into(),
        Some((rows, cols)) => format!("duplicate-pruning machine of MTM jumps on {rows}x{cols}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const STM: Spelling = Spelling::STM;

    #[test]
    fn a_machine_comes_back_as_it_was_written_and_damage_is_caught() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let (built, origin) = load(Some(dir.path()), 8, STM, false);
        assert!(matches!(origin, Origin::Built { kept: true, .. }));
        let file = path(dir.path(), 8, STM);
        assert!(file.exists());
        assert_eq!(read(&file, 8, STM), Ok(built.clone()));
        assert_eq!(
            load(Some(dir.path()), 8, STM, false),
            (built.clone(), Origin::Cached)
        );
        // Another depth's key is refused.
        assert!(read(&file, 10, STM).is_err());
        // A flipped bit fails its block's checksum.
        let mut bytes = std::fs::read(&file).expect("readable");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&file, &bytes).expect("writable");
        assert!(read(&file, 8, STM).is_err());
        // ... and is rebuilt.
        assert_eq!(load(Some(dir.path()), 8, STM, false).0, built);
        assert_eq!(read(&file, 8, STM), Ok(built.clone()));
        // A well-formed file whose transitions leave the machine is refused.
        let mut wild = payload(&built);
        wild[4..8].copy_from_slice(&(4 * built.states() as u32).to_le_bytes());
        cache::write(&file, &key(8, STM), &wild).expect("written");
        assert!(read(&file, 8, STM).is_err_and(|e| e.to_string().contains("names a state")));
        // A machine of the same depth built under other rules (or before rules were named) is
        // told apart from a damaged one, and rebuilt.
        for old in [
            machine_key(8, STM),
            format!("{}, word rules 0", machine_key(8, STM)),
        ] {
            cache::write(&file, &old, &payload(&built)).expect("written");
            assert!(
                matches!(read(&file, 8, STM), Err(Unread::OtherRules(..))),
                "{old}"
            );
            assert_eq!(load(Some(dir.path()), 8, STM, false).0, built);
            assert_eq!(read(&file, 8, STM), Ok(built.clone()));
        }
        // Another machine's key is not mistaken for other rules.
        cache::write(&file, &machine_key(9, STM), &payload(&built)).expect("written");
        assert!(matches!(read(&file, 8, STM), Err(Unread::Bad(..))));
    }
}
