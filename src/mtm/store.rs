//! Where the relabelled 4x4 table ([`super::relabel`]) is kept: a file `mtm-relabel-4x4.bin`
//! beside the pattern databases (`--tables DIR`, else `$FIFTEEN_TABLES`, else the user's cache
//! directory, `~/.cache/fifteen`), in the pattern databases' own file format
//! ([`crate::heuristic::cache`]: a header naming the table by its key, a CRC-32 per 4 KB block,
//! written to a temporary file and renamed). Its payload is the arrangements' distances mod 3,
//! four a byte, of one relabelling then the other. A file that does not check out (another
//! key, a damaged block, the table's own older format) is named on stderr and rebuilt.
//! Invariant: a table handed out either was built in this process or matched its checksums
//! when read.
//!
//! Read whole, not a block at a time as the pattern databases are: a search's first bounds
//! look at entries all over the table (its arrangements are ranked by the halves' codes, which
//! a move changes in any place), so a lazy read would read most blocks anyway, one at a time.
//! Measured (a count of the 4 KB blocks one `solve --metric mtm` looks at, of 18,505): 4,979
//! to 17,616 on six random 4x4 positions and Korf's first, a median of 13,687 (74 %); even a
//! search of 54,250 nodes looks at 6,821 (37 %).

use super::relabel::{RelabelTable, BYTES, STATES};
use crate::heuristic::cache;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What the file's header names: two relabellings' distances mod 3, four a byte, ranked by the
/// halves' codes as [`super::relabel`] says (layout 5; before it had a file format of its own,
/// whose files begin `FIFMTM`: layout 4 had the first relabelling only, 3 a byte an entry, 2
/// ranked the classes' cells in turn, 1 the blank first).
const KEY: &str = "4x4 multi-tile metric table of the board relabelled two ways, distances mod 3 four a byte (layout 5)";
/// How the files of the table's own older formats begin, and what is said of them.
const OLD_MAGIC: &[u8; 6] = b"FIFMTM";
const OLDER: &str = " is an MTM table of an older format";
/// The table's file name.
pub const NAME: &str = "mtm-relabel-4x4.bin";

/// The directory of the MTM tables: the pattern databases' (`dir` if given, else
/// `$FIFTEEN_TABLES` if set and non-empty, else the user's cache directory).
pub fn directory(dir: Option<&Path>) -> Option<PathBuf> {
    crate::heuristic::cache::table_dir(dir).ok()
}

/// Checks the table file `path` whole (`tables list`): `Err((older, why))`, `older` when it is
/// of the table's own older format (rebuilt when next used, not damaged).
pub fn check(path: &Path) -> Result<(), (bool, String)> {
    match read(path) {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err((false, "no such file".into())),
        Err(why) => Err((why.ends_with(OLDER), why)),
    }
}

/// Where a table came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// Read from this file.
    Cached(PathBuf),
    /// Built in `seconds`, its largest distance `largest`; `kept`: the file it was written to.
    Built {
        seconds: f64,
        largest: u8,
        kept: Option<PathBuf>,
    },
}

/// The table read from `dir`, or built (about 25 s) and kept there; the build's levels
/// and any trouble with the file go to stderr.
pub fn load_or_build(dir: Option<&Path>) -> RelabelTable {
    load_or_build_from(dir, true).0
}

/// [`load_or_build`], and where the table came from; without `announce`, nothing is said
/// about a build but a progress bar (`tables build --metric mtm` says it once it is done).
pub fn load_or_build_from(dir: Option<&Path>, announce: bool) -> (RelabelTable, Origin) {
    let path = directory(dir).map(|d| d.join(NAME));
    if let Some(path) = &path {
        match read(path) {
            Ok(Some(table)) => return (table, Origin::Cached(path.clone())),
            Ok(None) => {}
            Err(why) => eprintln!("{why}; building it again"),
        }
    }
    if announce {
        eprintln!(
            "building the MTM tables of the 4x4 board relabelled two ways (76 MB, about 25 s) ..."
        );
    }
    let clock = std::time::Instant::now();
    let bar = indicatif::ProgressBar::new(2 * STATES as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {percent}% {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message("MTM table 1 of 2: distance 0");
    bar.inc(1);
    let mut largest = 0;
    let table = RelabelTable::build(&mut |k, distance, found| {
        largest = largest.max(distance);
        bar.inc(found);
        bar.set_message(format!("MTM table {} of 2: distance {distance}", k + 1));
    });
    bar.finish_and_clear();
    let seconds = clock.elapsed().as_secs_f64();
    if announce {
        eprintln!("built in {seconds:.1} sec");
    }
    let kept = path.filter(|path| match write(path, &table) {
        Ok(()) => true,
        Err(why) => {
            eprintln!("cannot keep the MTM table in {}: {why}", path.display());
            false
        }
    });
    let origin = Origin::Built {
        seconds,
        largest,
        kept,
    };
    (table, origin)
}

/// The table of a file: `Ok(None)` when there is no file, `Err` (a line naming the file) when
/// it is not a good one.
fn read(path: &Path) -> Result<Option<RelabelTable>, String> {
    let mut head = [0u8; 6];
    match std::fs::File::open(path).and_then(|mut file| file.read_exact(&mut head)) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Ok(()) if &head == OLD_MAGIC => return Err(format!("{}{OLDER}", path.display())),
        _ => {}
    }
    let bytes = cache::read(path, KEY, BYTES as u64).map_err(|error| error.to_string())?;
    RelabelTable::from_bytes(bytes)
        .map(Some)
        .ok_or_else(|| format!("{} is of the wrong size", path.display()))
}

/// Writes the table atomically (a temporary file, then renamed).
fn write(path: &Path, table: &RelabelTable) -> Result<(), cache::CacheError> {
    cache::write(path, KEY, table.bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `read` says of the file `write` made, changed by `change`.
    fn read_changed(change: impl FnOnce(&mut Vec<u8>)) -> Result<bool, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let path = dir.path().join(NAME);
        let table = RelabelTable::from_bytes((0..BYTES).map(|i| i as u8).collect());
        write(&path, &table.ok_or("a table")?).map_err(|e| e.to_string())?;
        let mut bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
        change(&mut bytes);
        std::fs::write(&path, &bytes).map_err(|e| e.to_string())?;
        read(&path).map(|table| table.is_some_and(|t| t.bytes().len() == BYTES))
    }

    #[test]
    fn a_table_is_read_back_only_as_written() {
        assert_eq!(read_changed(|_| {}), Ok(true));
        let said = |result: Result<bool, String>, what: &str| {
            let why = result.expect_err("refused");
            assert!(why.contains(NAME) && why.contains(what), "{why}");
        };
        said(read_changed(|b| *b.last_mut().unwrap() ^= 4), "corrupted");
        said(read_changed(|b| b.truncate(b.len() - 1)), "truncated");
        said(read_changed(|b| b[0] = b'X'), "not a table file");
        said(read_changed(|b| b.truncate(10)), "truncated");
        // A file of the table's own older format.
        said(
            read_changed(|b| b[..8].copy_from_slice(b"FIFMTM05")),
            "an MTM table of an older format",
        );
        let dir = tempfile::tempdir().expect("a directory");
        assert_eq!(read(&dir.path().join(NAME)).map(|t| t.is_some()), Ok(false));
    }
}
