//! On-disk cache of pattern-database tables: a table is built once, written to a
//! file in the table directory, and read back on later runs instead of being rebuilt.
//!
//! Invariant: the bytes of a file are handed out only when everything checks out —
//! magic, format version, key (which names the table completely), payload length,
//! file length and the CRC-32 of the payload. Anything else is a one-line
//! [`CacheError`] naming the file, and the caller rebuilds. Files are replaced
//! atomically (temporary file in the same directory, fsync, rename), so a reader
//! never sees a half-written file under a table's name.
//!
//! File layout (integers little-endian, K = key length, N = payload length):
//!
//! | offset   | size | field                                        |
//! |----------|------|----------------------------------------------|
//! | 0        | 12   | magic `b"FIFTEEN-PDB\n"`                     |
//! | 12       | 4    | format version, u32 ([`FORMAT_VERSION`])     |
//! | 16       | 4    | key length K, u32 (at most 4096)             |
//! | 20       | K    | key, UTF-8                                   |
//! | 20 + K   | 8    | payload length N, u64                        |
//! | 28 + K   | 4    | CRC-32 of the payload (crc32fast), u32       |
//! | 32 + K   | N    | payload; the file ends right after it        |

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Version of the file layout above; files with another version are rejected.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 12] = b"FIFTEEN-PDB\n";
/// Longest key accepted; a longer key length in a header means it is not a table file.
const MAX_KEY_LEN: usize = 4096;
/// Header bytes besides the key: magic, version, key length, payload length, CRC.
const FIXED_HEADER_LEN: usize = 12 + 4 + 4 + 8 + 4;
const EXTENSION: &str = "pdb";

/// What a table file holds, written in its header and checked on load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// A one-line description that identifies the content completely, e.g.
    /// "4x4 zero-aware 1-bit table of tiles 1,2,5,6,9,13". Two files with equal keys hold the same table.
    pub key: String,
    /// Length of the payload in bytes.
    pub len: u64,
}

/// Why a table file could not be used or written. Every message is one line naming the file.
/// Fields: the path, then the values in the order the message names them.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("table file {0} does not exist")]
    NotFound(PathBuf),
    #[error("table file {0} is truncated ({1} of {2} bytes)")]
    Truncated(PathBuf, u64, u64),
    #[error("table file {0} is longer than its header says ({1} instead of {2} bytes)")]
    TrailingBytes(PathBuf, u64, u64),
    #[error("{0} is not a table file (bad header)")]
    NotATable(PathBuf),
    #[error("table file {0} was written by another format version (found {1}, expected {2})")]
    Version(PathBuf, u32, u32),
    #[error("table file {0} holds another table (found key {1:?}, expected key {2:?})")]
    ForeignKey(PathBuf, String, String),
    #[error("table file {0} has a payload of {1} bytes, expected {2}")]
    WrongLength(PathBuf, u64, u64),
    #[error("table file {0} is corrupted (checksum mismatch: stored {1:08x}, computed {2:08x})")]
    Checksum(PathBuf, u32, u32),
    /// The io::Error text is in the message (it is not a `source`, so it is not printed twice).
    #[error("table file {0}: {1}")]
    Io(PathBuf, io::Error),
    #[error("no table directory (no home directory found); use --tables DIR or FIFTEEN_TABLES")]
    NoTableDir,
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> CacheError + '_ {
    move |err| CacheError::Io(path.to_path_buf(), err)
}

/// The directory for tables: `explicit` if given (from a --tables DIR flag), else the environment
/// variable FIFTEEN_TABLES if set and non-empty, else the user's cache directory for the program
/// (directories::ProjectDirs::from("", "", "fifteen") -> cache_dir(), i.e. ~/.cache/fifteen on Linux).
/// Error (CacheError variant) when none can be determined (no home directory).
pub fn table_dir(explicit: Option<&Path>) -> Result<PathBuf, CacheError> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    match std::env::var_os("FIFTEEN_TABLES") {
        Some(dir) if !dir.is_empty() => Ok(PathBuf::from(dir)),
        _ => directories::ProjectDirs::from("", "", "fifteen")
            .map(|dirs| dirs.cache_dir().to_path_buf())
            .ok_or(CacheError::NoTableDir),
    }
}

/// Writes header + payload atomically: to a temporary file in the same directory (unique name,
/// with the process id and a counter), fsync'd, then renamed over `path`. Creates the directory
/// (and parents) if missing. On failure the temporary file is removed.
pub fn write(path: &Path, key: &str, payload: &[u8]) -> Result<(), CacheError> {
    let invalid = |msg: &str| io_err(path)(io::Error::new(io::ErrorKind::InvalidInput, msg));
    if key.len() > MAX_KEY_LEN {
        return Err(invalid("table key is longer than 4096 bytes"));
    }
    let name = path.file_name().ok_or_else(|| invalid("no file name"))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let (name, pid) = (name.to_string_lossy(), std::process::id());
    let tmp = dir.join(format!(".{name}.tmp.{pid}.{count}"));
    let result = write_file(&tmp, key, payload).and_then(|()| fs::rename(&tmp, path));
    if let Err(err) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io_err(path)(err));
    }
    // Best effort: make the rename itself durable (opening a directory fails on some systems).
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

fn write_file(tmp: &Path, key: &str, payload: &[u8]) -> io::Result<()> {
    let file = OpenOptions::new().write(true).create_new(true).open(tmp)?;
    let mut w = BufWriter::new(file);
    w.write_all(MAGIC)?;
    w.write_all(&FORMAT_VERSION.to_le_bytes())?;
    w.write_all(&(key.len() as u32).to_le_bytes())?;
    w.write_all(key.as_bytes())?;
    w.write_all(&(payload.len() as u64).to_le_bytes())?;
    w.write_all(&crc32fast::hash(payload).to_le_bytes())?;
    w.write_all(payload)?; // a write larger than the buffer bypasses it: no copy of the payload
    let file = w.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()
}

fn open(path: &Path) -> Result<File, CacheError> {
    File::open(path).map_err(|err| match err.kind() {
        io::ErrorKind::NotFound => CacheError::NotFound(path.to_path_buf()),
        _ => io_err(path)(err),
    })
}

/// Reads and parses the header, leaving `file` at the start of the payload.
/// Returns (header, stored CRC, header length, file length).
fn read_header(path: &Path, file: &mut File) -> Result<(Header, u32, u64, u64), CacheError> {
    let file_len = file.metadata().map_err(io_err(path))?.len();
    let mut buf = Vec::new();
    let limit = (FIXED_HEADER_LEN + MAX_KEY_LEN) as u64;
    let read = Read::take(&mut *file, limit).read_to_end(&mut buf);
    read.map_err(io_err(path))?;
    let p = || path.to_path_buf();
    let field = |start: usize, len: usize| {
        let needed = (start + len) as u64;
        buf.get(start..start + len)
            .ok_or_else(|| CacheError::Truncated(p(), file_len, needed))
    };
    let n = buf.len().min(MAGIC.len());
    if buf[..n] != MAGIC[..n] {
        return Err(CacheError::NotATable(p()));
    }
    field(0, MAGIC.len())?;
    let version = u32::from_le_bytes(array(field(12, 4)?));
    if version != FORMAT_VERSION {
        return Err(CacheError::Version(p(), version, FORMAT_VERSION));
    }
    let key_len = u32::from_le_bytes(array(field(16, 4)?)) as usize;
    if key_len > MAX_KEY_LEN {
        return Err(CacheError::NotATable(p()));
    }
    let key = std::str::from_utf8(field(20, key_len)?).map_err(|_| CacheError::NotATable(p()))?;
    let len = u64::from_le_bytes(array(field(20 + key_len, 8)?));
    let crc = u32::from_le_bytes(array(field(28 + key_len, 4)?));
    let header_len = (FIXED_HEADER_LEN + key_len) as u64;
    let seek = file.seek(SeekFrom::Start(header_len));
    seek.map_err(io_err(path))?;
    let key = key.to_owned();
    Ok((Header { key, len }, crc, header_len, file_len))
}

/// `bytes` as an array; callers pass slices of exactly `N` bytes.
fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut a = [0; N];
    a.copy_from_slice(bytes);
    a
}

/// Reads a table file and checks it: magic, format version, key == expected_key, the payload length
/// equals expected_len and the file is exactly as long as the header says, and the checksum of the payload.
/// Returns the payload.
pub fn read(path: &Path, expected_key: &str, expected_len: u64) -> Result<Vec<u8>, CacheError> {
    let mut file = open(path)?;
    let (header, crc, header_len, file_len) = read_header(path, &mut file)?;
    let p = || path.to_path_buf();
    if header.key != expected_key {
        let expected = expected_key.to_owned();
        return Err(CacheError::ForeignKey(p(), header.key, expected));
    }
    if header.len != expected_len {
        return Err(CacheError::WrongLength(p(), header.len, expected_len));
    }
    let total = header_len.saturating_add(header.len);
    if file_len < total {
        return Err(CacheError::Truncated(p(), file_len, total));
    }
    if file_len > total {
        return Err(CacheError::TrailingBytes(p(), file_len, total));
    }
    // Read the payload straight into a buffer of its exact size: no second copy.
    let mut payload = Vec::new();
    usize::try_from(header.len)
        .ok()
        .and_then(|n| payload.try_reserve_exact(n).ok())
        .ok_or_else(|| io_err(path)(io::ErrorKind::OutOfMemory.into()))?;
    let read = file.take(header.len).read_to_end(&mut payload);
    read.map_err(io_err(path))?;
    if (payload.len() as u64) < header.len {
        // The file shrank after its length was taken.
        let actual = header_len + payload.len() as u64;
        return Err(CacheError::Truncated(p(), actual, total));
    }
    let computed = crc32fast::hash(&payload);
    if computed != crc {
        return Err(CacheError::Checksum(p(), crc, computed));
    }
    Ok(payload)
}

/// One cached file, for `fifteen tables list`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    pub header: Header,
    /// File size in bytes.
    pub bytes: u64,
}

/// Every table file (extension ".pdb") in `dir` whose header reads correctly (header only; the payload's
/// checksum is not verified here), sorted by path; files with bad headers are skipped. A missing dir gives an empty list.
pub fn list(dir: &Path) -> Result<Vec<Entry>, CacheError> {
    let items = match fs::read_dir(dir) {
        Ok(items) => items,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(io_err(dir)(err)),
    };
    let mut entries = Vec::new();
    for item in items {
        let path = item.map_err(io_err(dir))?.path();
        if path.extension() != Some(OsStr::new(EXTENSION)) {
            continue;
        }
        if let Ok((header, _, _, bytes)) = open(&path).and_then(|mut f| read_header(&path, &mut f))
        {
            entries.push(Entry {
                path,
                header,
                bytes,
            });
        }
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use CacheError as E;

    const KEY: &str = "4x4 zero-aware 1-bit table of tiles 1,2,5,6,9,13";
    const LEN: u64 = 10_000;

    /// A temporary directory with a table (KEY, LEN bytes) written at `sub/dir/t.pdb`.
    fn setup() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/dir/t.pdb");
        let data: Vec<u8> = (0..LEN).map(|i| (i * 7 % 251) as u8).collect();
        write(&path, KEY, &data).unwrap();
        (dir, path, data)
    }

    /// The error of reading `path` as the KEY table, checking its message is one line.
    fn read_err(path: &Path, key: &str) -> (CacheError, String) {
        let err = read(path, key, LEN).unwrap_err();
        let msg = err.to_string();
        assert!(!msg.contains('\n'), "{msg}");
        assert!(msg.contains(&*path.to_string_lossy()), "{msg}");
        (err, msg)
    }

    #[test]
    fn round_trip_and_atomic_overwrite() {
        let (_dir, path, data) = setup();
        assert_eq!(read(&path, KEY, LEN).unwrap(), data);
        let size = (FIXED_HEADER_LEN + KEY.len()) as u64 + LEN;
        assert_eq!(fs::metadata(&path).unwrap().len(), size);
        write(&path, "second", &[9; 100]).unwrap();
        assert_eq!(read(&path, "second", 100).unwrap(), vec![9; 100]);
        write(&path, "empty", &[]).unwrap();
        assert_eq!(read(&path, "empty", 0).unwrap(), Vec::<u8>::new());
        let parent = path.parent().unwrap();
        assert_eq!(fs::read_dir(parent).unwrap().count(), 1); // just t.pdb
                                                              // A failed write (the target is a directory) removes its temporary file.
        fs::create_dir(parent.join("x.pdb")).unwrap();
        let failed = write(&parent.join("x.pdb"), KEY, &[1]);
        assert!(matches!(failed, Err(E::Io(..))));
        assert_eq!(fs::read_dir(parent).unwrap().count(), 2);
    }

    #[test]
    fn truncated_or_padded_never_panics() {
        let (_dir, path, _) = setup();
        let full = fs::read(&path).unwrap();
        let hl = FIXED_HEADER_LEN + KEY.len();
        let cuts = [
            0,
            1,
            5,
            11,
            12,
            14,
            16,
            19,
            20,
            25,
            hl - 5,
            hl - 1,
            hl,
            hl + 1,
        ];
        for cut in cuts.into_iter().chain([full.len() - 1]) {
            fs::write(&path, &full[..cut]).unwrap();
            let (err, msg) = read_err(&path, KEY);
            assert!(matches!(err, E::Truncated(..)), "{cut}: {msg}");
        }
        fs::write(&path, b"FIFTEEN-X").unwrap();
        assert!(matches!(read_err(&path, KEY).0, E::NotATable(..)));
        fs::write(&path, [&full[..], &[0]].concat()).unwrap();
        assert!(matches!(read_err(&path, KEY).0, E::TrailingBytes(..)));
    }

    #[test]
    fn flipped_bytes_give_clean_errors() {
        let (_dir, path, _) = setup();
        let original = fs::read(&path).unwrap();
        let last = original.len() - 1;
        let flips = [
            (3, 1),
            (16, 1),
            (17, 1),
            (20, 1),
            (19 + KEY.len(), 0x80),
            (last, 1),
        ];
        for (at, mask) in flips {
            let mut bytes = original.clone();
            bytes[at] ^= mask;
            fs::write(&path, &bytes).unwrap();
            let (err, msg) = read_err(&path, KEY);
            let clean = match at {
                20 => matches!(err, E::ForeignKey(..)), // still UTF-8: another table
                _ if at == last => matches!(err, E::Checksum(..)) && msg.contains("corrupted"),
                _ => matches!(err, E::ForeignKey(..) | E::NotATable(..) | E::Truncated(..)),
            };
            assert!(clean, "byte {at}: {msg}");
        }
    }

    #[test]
    fn mismatches() {
        let (dir, path, _) = setup();
        let (err, msg) = read_err(&path, "other table");
        assert!(matches!(err, E::ForeignKey(..)), "{msg}");
        assert!(msg.contains("another table") && msg.contains(KEY) && msg.contains("other table"));
        let err = read(&path, KEY, 5).unwrap_err();
        assert!(matches!(err, E::WrongLength(_, LEN, 5)), "{err}");
        let mut bytes = fs::read(&path).unwrap();
        bytes[12..16].copy_from_slice(&7u32.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        let (err, msg) = read_err(&path, KEY);
        assert!(matches!(err, E::Version(_, 7, 1)) && msg.contains("found 7, expected 1"));
        let (err, msg) = read_err(&dir.path().join("none.pdb"), KEY);
        assert!(
            matches!(err, E::NotFound(..)) && msg.contains("not exist"),
            "{msg}"
        );
    }

    #[test]
    fn list_skips_junk() {
        let dir = tempfile::tempdir().unwrap();
        assert!(list(&dir.path().join("missing")).unwrap().is_empty());
        write(&dir.path().join("b.pdb"), "table b", &[1, 2, 3]).unwrap();
        write(&dir.path().join("a.pdb"), "table a", &[]).unwrap();
        fs::write(dir.path().join("junk.pdb"), b"not a table at all").unwrap();
        fs::write(dir.path().join("notes.txt"), b"hello").unwrap();
        fs::create_dir(dir.path().join("d.pdb")).unwrap();
        let entries = list(dir.path()).unwrap();
        let keys: Vec<&str> = entries.iter().map(|e| e.header.key.as_str()).collect();
        assert_eq!(keys, ["table a", "table b"]);
        assert_eq!(entries[0].path, dir.path().join("a.pdb"));
        assert_eq!(entries[1].header.len, 3);
        assert_eq!(entries[1].bytes, (FIXED_HEADER_LEN + 7 + 3) as u64);
    }

    #[test]
    fn table_dir_precedence() {
        // The only test touching FIFTEEN_TABLES (set_var is safe in edition 2021).
        let saved = std::env::var_os("FIFTEEN_TABLES");
        let explicit = Path::new("/explicit/dir");
        std::env::set_var("FIFTEEN_TABLES", "/from/env");
        assert_eq!(table_dir(Some(explicit)).unwrap(), explicit);
        assert_eq!(table_dir(None).unwrap(), Path::new("/from/env"));
        std::env::set_var("FIFTEEN_TABLES", "");
        let empty = table_dir(None);
        std::env::remove_var("FIFTEEN_TABLES");
        let unset = table_dir(None);
        if let Some(v) = saved {
            std::env::set_var("FIFTEEN_TABLES", v);
        }
        match (empty, unset) {
            (Ok(a), Ok(b)) => assert!(a == b && a.ends_with("fifteen"), "{}", a.display()),
            (Err(E::NoTableDir), Err(E::NoTableDir)) => {}
            other => panic!("inconsistent fallback: {other:?}"),
        }
    }
}
