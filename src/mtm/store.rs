//! Where the relabelled 4x4 table ([`super::relabel`]) is kept: a file `mtm-relabel-4x4.bin`
//! beside the pattern databases (`--tables DIR`, else `$FIFTEEN_TABLES`, else the user's cache
//! directory, `~/.cache/fifteen`). The file is a header (magic, number of entries, CRC-32 of the
//! entries) and the arrangements' distances mod 3, four a byte, of one relabelling then the other; a file whose header or checksum does not match is
//! named on stderr and rebuilt. A new table is written to a temporary file beside it and
//! renamed, so a reader never sees half a table. Invariant: a table handed out either was
//! built in this process or matched its checksum when read.

use super::relabel::{RelabelTable, BYTES, STATES};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Format 5: two relabellings' distances mod 3, four a byte, ranked by the halves' codes as
/// [`super::relabel`] says (format 4 had the first relabelling only, format 3 a byte an entry,
/// format 2 ranked the classes' cells in turn, format 1 the blank first).
const MAGIC: &[u8; 8] = b"FIFMTM05";
/// The table's file name.
pub const NAME: &str = "mtm-relabel-4x4.bin";

/// The directory of the MTM tables: the pattern databases' (`dir` if given, else
/// `$FIFTEEN_TABLES` if set and non-empty, else the user's cache directory).
pub fn directory(dir: Option<&Path>) -> Option<PathBuf> {
    crate::heuristic::cache::table_dir(dir).ok()
}

/// Checks the table file `path` whole (`tables list`).
pub fn check(path: &Path) -> Result<(), String> {
    match read(path)? {
        Some(_) => Ok(()),
        None => Err("no such file".into()),
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
            Err(why) => eprintln!("{}: {why}; building it again", path.display()),
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

/// The table of a file: `Ok(None)` when there is no file, `Err` when it is not a good one.
fn read(path: &Path) -> Result<Option<RelabelTable>, String> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error.to_string()),
    };
    let mut header = [0u8; 20];
    file.read_exact(&mut header)
        .map_err(|_| "too short for an MTM table".to_string())?;
    let count = u64::from_le_bytes(header[8..16].try_into().unwrap_or_default());
    if header[..6] == MAGIC[..6] && header[..8] != MAGIC[..] {
        return Err("an MTM table of an older format".into());
    }
    if &header[..8] != MAGIC || count != 2 * STATES as u64 {
        return Err("not an MTM table of this program".into());
    }
    let crc = u32::from_le_bytes(header[16..20].try_into().unwrap_or_default());
    let mut bytes = Vec::with_capacity(BYTES);
    file.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() != BYTES || crc32fast::hash(&bytes) != crc {
        return Err("damaged (its checksum does not match)".into());
    }
    RelabelTable::from_bytes(bytes)
        .map(Some)
        .ok_or_else(|| "of the wrong size".to_string())
}

/// Writes the table atomically (a temporary file, then renamed).
fn write(path: &Path, table: &RelabelTable) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let temporary = path.with_extension(format!("tmp{}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(MAGIC)?;
        file.write_all(&(2 * STATES as u64).to_le_bytes())?;
        file.write_all(&crc32fast::hash(table.bytes()).to_le_bytes())?;
        file.write_all(table.bytes())?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
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
        let damaged = Err("damaged (its checksum does not match)".to_string());
        assert_eq!(read_changed(|b| b[1000] ^= 4), damaged);
        assert_eq!(read_changed(|b| b.truncate(b.len() - 1)), damaged);
        assert_eq!(
            read_changed(|b| b[7] = b'4'),
            Err("an MTM table of an older format".to_string())
        );
        assert_eq!(
            read_changed(|b| b[0] = b'X'),
            Err("not an MTM table of this program".to_string())
        );
        assert_eq!(
            read_changed(|b| b.truncate(10)),
            Err("too short for an MTM table".to_string())
        );
        let dir = tempfile::tempdir().expect("a directory");
        assert_eq!(read(&dir.path().join(NAME)).map(|t| t.is_some()), Ok(false));
    }
}
