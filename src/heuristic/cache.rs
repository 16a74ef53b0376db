//! On-disk cache of pattern-database tables: a table is built once, written to a
//! file in the table directory, and read back on later runs instead of being rebuilt.
//!
//! Invariant: the bytes of a file are handed out only when they check out — magic, format
//! version, key (which names the table completely), payload length, file length and the
//! header's own CRC-32 when the file is opened ([`TableFile::open`]), and each block's CRC-32
//! when the block is read ([`TableFile::read_blocks`]). Anything else is a one-line
//! [`CacheError`] naming the file, and the caller rebuilds. So a solve reads and checks only
//! the blocks its search looks at, and a damaged block is still never used unnoticed. Files
//! are replaced atomically (temporary file in the same directory, fsync, rename) and never
//! changed in place, so a reader never sees a half-written file under a table's name, and an
//! open file keeps its content while a newer one replaces it.
//!
//! File layout (integers little-endian, K = key length, N = payload length, M = N / B blocks
//! rounded up, B = [`BLOCK`]):
//!
//! | offset       | size | field                                               |
//! |--------------|------|-----------------------------------------------------|
//! | 0            | 12   | magic `b"FIFTEEN-PDB\n"`                            |
//! | 12           | 4    | format version, u32 ([`FORMAT_VERSION`])            |
//! | 16           | 4    | key length K, u32 (at most 4096)                    |
//! | 20           | K    | key, UTF-8                                          |
//! | 20 + K       | 8    | payload length N, u64                               |
//! | 28 + K       | 4    | block size B, u32                                   |
//! | 32 + K       | 4 M  | CRC-32 of each block of the payload (crc32fast)     |
//! | 32 + K + 4 M | 4    | CRC-32 of all the bytes before it                   |
//! |              |      | zeros up to P, the next multiple of B               |
//! | P            | N    | payload; the file ends right after it               |

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Version of the file layout above and of the payload's meaning; files with another version
/// are rejected. Format 1 had one checksum for the whole payload; format 2 the blocks' checksums
/// and one entry per cell of the blank; format 3 one entry per region of the blank
/// ([`super::placement`]), the tables 3 to 13 times smaller.
pub const FORMAT_VERSION: u32 = 3;
/// Bytes of payload per checksum: what a solve reads when it first looks at an entry.
pub const BLOCK: usize = 4096;
const MAGIC: &[u8; 12] = b"FIFTEEN-PDB\n";
/// Longest key accepted; a longer key length in a header means it is not a table file.
const MAX_KEY_LEN: usize = 4096;
/// Header bytes besides the key and the block checksums: magic, version, key length,
/// payload length, block size, the header's CRC.
const FIXED_HEADER_LEN: usize = 12 + 4 + 4 + 8 + 4 + 4;

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
    #[error(
        "table file {0} is of an older format ({1}; format {FORMAT_VERSION} keeps one entry per \
         region of the blank)"
    )]
    Older(PathBuf, u32),
    #[error("table file {0} holds another table (found key {1:?}, expected key {2:?})")]
    ForeignKey(PathBuf, String, String),
    #[error("table file {0} has a payload of {1} bytes, expected {2}")]
    WrongLength(PathBuf, u64, u64),
    #[error("table file {0} has a corrupted header (checksum mismatch: stored {1:08x}, computed {2:08x})")]
    HeaderChecksum(PathBuf, u32, u32),
    #[error("table file {0} is corrupted (block {1} of {2}: checksum mismatch)")]
    Checksum(PathBuf, usize, usize),
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
    let mut header = Vec::new();
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    header.extend_from_slice(&(key.len() as u32).to_le_bytes());
    header.extend_from_slice(key.as_bytes());
    header.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    header.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    for block in payload.chunks(BLOCK) {
        header.extend_from_slice(&crc32fast::hash(block).to_le_bytes());
    }
    header.extend_from_slice(&crc32fast::hash(&header).to_le_bytes());
    header.resize(header.len().next_multiple_of(BLOCK), 0);
    let mut w = BufWriter::new(file);
    w.write_all(&header)?;
    w.write_all(payload)?; // a write larger than the buffer bypasses it: no copy of the payload
    let file = w.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()
}

fn open(path: &Path) -> Result<File, CacheError> {
    File::open(path).map_err(|err| match err.kind() {
        // (A directory that is a file holds no table either.)
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => {
            CacheError::NotFound(path.to_path_buf())
        }
        _ => io_err(path)(err),
    })
}

/// A parsed header: what the file holds and where its payload is.
struct Parsed {
    header: Header,
    /// The CRC-32 of each block.
    crcs: Vec<u32>,
    /// Offset of the payload.
    offset: u64,
    /// Length of the file.
    file_len: u64,
    /// The header's own CRC-32 (which covers the block checksums, so the whole content).
    checksum: u32,
}

/// Reads, parses and checks the header of `file` (its own checksum included).
fn read_header(path: &Path, file: &mut File) -> Result<Parsed, CacheError> {
    let file_len = file.metadata().map_err(io_err(path))?.len();
    let mut buf = Vec::new();
    let limit = (FIXED_HEADER_LEN + MAX_KEY_LEN) as u64;
    let read = Read::take(&mut *file, limit).read_to_end(&mut buf);
    read.map_err(io_err(path))?;
    let p = || path.to_path_buf();
    let truncated = |needed: usize| CacheError::Truncated(p(), file_len, needed as u64);
    let n = buf.len().min(MAGIC.len());
    if buf[..n] != MAGIC[..n] {
        return Err(CacheError::NotATable(p()));
    }
    let field = |start: usize, len: usize| {
        let needed = start + len;
        buf.get(start..needed).ok_or_else(|| truncated(needed))
    };
    field(0, MAGIC.len())?;
    let version = u32::from_le_bytes(array(field(12, 4)?));
    if version < FORMAT_VERSION {
        return Err(CacheError::Older(p(), version));
    }
    if version != FORMAT_VERSION {
        return Err(CacheError::Version(p(), version, FORMAT_VERSION));
    }
    let key_len = u32::from_le_bytes(array(field(16, 4)?)) as usize;
    if key_len > MAX_KEY_LEN {
        return Err(CacheError::NotATable(p()));
    }
    let key = std::str::from_utf8(field(20, key_len)?).map_err(|_| CacheError::NotATable(p()))?;
    let key = key.to_owned();
    let len = u64::from_le_bytes(array(field(20 + key_len, 8)?));
    let block = u32::from_le_bytes(array(field(28 + key_len, 4)?));
    if block as usize != BLOCK {
        return Err(CacheError::NotATable(p()));
    }
    // The block checksums (and the header's) follow, if the file is long enough to hold them.
    let blocks = len.div_ceil(BLOCK as u64);
    let end = blocks
        .checked_mul(4)
        .and_then(|sums| sums.checked_add((FIXED_HEADER_LEN + key_len) as u64))
        .unwrap_or(u64::MAX);
    if end > file_len {
        return Err(CacheError::Truncated(p(), file_len, end));
    }
    let (blocks, end) = (blocks as usize, end as usize);
    if buf.len() < end {
        let more = (end - buf.len()) as u64;
        Read::take(&mut *file, more)
            .read_to_end(&mut buf)
            .map_err(io_err(path))?;
    }
    let stored = buf.get(end - 4..end).ok_or_else(|| truncated(end))?;
    let stored = u32::from_le_bytes(array(stored));
    let computed = crc32fast::hash(&buf[..end - 4]);
    if stored != computed {
        return Err(CacheError::HeaderChecksum(p(), stored, computed));
    }
    let crcs = buf[end - 4 - 4 * blocks..end - 4]
        .chunks(4)
        .map(|c| u32::from_le_bytes(array(c)))
        .collect();
    Ok(Parsed {
        header: Header { key, len },
        crcs,
        offset: end.next_multiple_of(BLOCK) as u64,
        file_len,
        checksum: stored,
    })
}

/// `bytes` as an array; callers pass slices of exactly `N` bytes.
fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut a = [0; N];
    a.copy_from_slice(bytes);
    a
}

/// An open table file whose header checked out: its payload is read a run of blocks at a time,
/// each block checked against its checksum.
#[derive(Debug)]
pub struct TableFile {
    path: PathBuf,
    file: File,
    /// Offset and length of the payload.
    offset: u64,
    len: u64,
    crcs: Vec<u32>,
    /// The header's CRC-32, checked when the file was opened.
    checksum: u32,
}

impl TableFile {
    /// Opens the table file `path` and checks its header: magic, format version, key ==
    /// `expected_key`, payload length == `expected_len`, the file exactly as long as the header
    /// says, and the header's checksum. The payload is not read.
    pub fn open(
        path: &Path,
        expected_key: &str,
        expected_len: u64,
    ) -> Result<TableFile, CacheError> {
        TableFile::open_within(path, expected_key, expected_len..=expected_len)
    }

    /// [`TableFile::open`] for a payload whose length is known only to lie in `lengths`.
    pub fn open_within(
        path: &Path,
        expected_key: &str,
        lengths: std::ops::RangeInclusive<u64>,
    ) -> Result<TableFile, CacheError> {
        let mut file = open(path)?;
        let parsed = read_header(path, &mut file)?;
        let p = || path.to_path_buf();
        let header = parsed.header;
        if header.key != expected_key {
            let expected = expected_key.to_owned();
            return Err(CacheError::ForeignKey(p(), header.key, expected));
        }
        if !lengths.contains(&header.len) {
            let expected = header.len.clamp(*lengths.start(), *lengths.end());
            return Err(CacheError::WrongLength(p(), header.len, expected));
        }
        let total = parsed.offset.saturating_add(header.len);
        if parsed.file_len < total {
            return Err(CacheError::Truncated(p(), parsed.file_len, total));
        }
        if parsed.file_len > total {
            return Err(CacheError::TrailingBytes(p(), parsed.file_len, total));
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            file,
            offset: parsed.offset,
            len: header.len,
            crcs: parsed.crcs,
            checksum: parsed.checksum,
        })
    }

    /// Payload length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header's CRC-32: it covers the key, the length and every block's checksum, so two
    /// files of one table with the same payload have the same one (what a shard plan names).
    pub fn checksum(&self) -> u32 {
        self.checksum
    }

    /// Reads the payload from block `first` on into `buffer` (as many whole blocks as it holds,
    /// or up to the end), checking each block; returns the number of bytes read.
    pub fn read_blocks(&self, first: usize, buffer: &mut [u8]) -> Result<usize, CacheError> {
        let start = (first as u64).saturating_mul(BLOCK as u64).min(self.len);
        let bytes = (buffer.len() as u64).min(self.len - start) as usize;
        let buffer = &mut buffer[..bytes];
        read_at(&self.file, buffer, self.offset + start).map_err(|error| match error.kind() {
            io::ErrorKind::UnexpectedEof => {
                // The file shrank after it was opened.
                let total = self.offset + self.len;
                CacheError::Truncated(self.path.clone(), self.offset + start, total)
            }
            _ => io_err(&self.path)(error),
        })?;
        for (i, block) in buffer.chunks(BLOCK).enumerate() {
            let stored = self.crcs.get(first + i).copied();
            if stored != Some(crc32fast::hash(block)) {
                let (path, count) = (self.path.clone(), self.crcs.len());
                return Err(CacheError::Checksum(path, first + i + 1, count));
            }
        }
        Ok(bytes)
    }

    /// Reads every block and checks it, keeping nothing.
    pub fn check_all(&self) -> Result<(), CacheError> {
        let mut buffer = vec![0u8; 64 * BLOCK];
        let step = buffer.len() / BLOCK;
        (0..self.crcs.len())
            .step_by(step)
            .try_for_each(|first| self.read_blocks(first, &mut buffer).map(drop))
    }

    /// The whole payload, every block checked.
    pub fn read_all(&self) -> Result<Vec<u8>, CacheError> {
        let mut payload = Vec::new();
        usize::try_from(self.len)
            .ok()
            .and_then(|n| payload.try_reserve_exact(n).ok())
            .ok_or_else(|| io_err(&self.path)(io::ErrorKind::OutOfMemory.into()))?;
        payload.resize(self.len as usize, 0);
        self.read_blocks(0, &mut payload)?;
        Ok(payload)
    }
}

/// Reads exactly `buffer.len()` bytes at `offset`, leaving the file's cursor alone (so that
/// threads share one open file).
#[cfg(unix)]
fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buffer, offset)
}

#[cfg(windows)]
fn read_at(file: &File, mut buffer: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buffer.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buffer, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buffer = &mut buffer[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Reads a table file whole and checks it (see [`TableFile::open`]); returns the payload.
pub fn read(path: &Path, expected_key: &str, expected_len: u64) -> Result<Vec<u8>, CacheError> {
    TableFile::open(path, expected_key, expected_len)?.read_all()
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

    /// Bytes of the header of the KEY table, padding included.
    fn header_len() -> usize {
        let blocks = (LEN as usize).div_ceil(BLOCK);
        (FIXED_HEADER_LEN + KEY.len() + 4 * blocks).next_multiple_of(BLOCK)
    }

    #[test]
    fn round_trip_and_atomic_overwrite() {
        let (_dir, path, data) = setup();
        assert_eq!(read(&path, KEY, LEN).unwrap(), data);
        assert_eq!(
            fs::metadata(&path).unwrap().len(),
            header_len() as u64 + LEN
        );
        // Blocks one at a time, the last one short, and past the end nothing.
        let file = TableFile::open(&path, KEY, LEN).unwrap();
        let mut block = [0u8; BLOCK];
        assert_eq!(file.read_blocks(1, &mut block).unwrap(), BLOCK);
        assert_eq!(block[..], data[BLOCK..2 * BLOCK]);
        assert_eq!(
            file.read_blocks(2, &mut block).unwrap(),
            LEN as usize - 2 * BLOCK
        );
        assert_eq!(block[..LEN as usize - 2 * BLOCK], data[2 * BLOCK..]);
        assert_eq!(file.read_blocks(3, &mut block).unwrap(), 0);
        write(&path, "second", &[9; 100]).unwrap();
        assert_eq!(read(&path, "second", 100).unwrap(), vec![9; 100]);
        // The file opened before the rename still reads the table it opened.
        assert_eq!(file.read_all().unwrap(), data);
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
        let kl = FIXED_HEADER_LEN - 4 + KEY.len(); // where the block checksums start
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
            kl - 5,
            kl,
            kl + 5,
            header_len() - 1,
        ];
        for cut in cuts.into_iter().chain([header_len(), full.len() - 1]) {
            fs::write(&path, &full[..cut]).unwrap();
            let (err, msg) = read_err(&path, KEY);
            assert!(matches!(err, E::Truncated(..)), "{cut}: {msg}");
        }
        fs::write(&path, b"FIFTEEN-X").unwrap();
        assert!(matches!(read_err(&path, KEY).0, E::NotATable(..)));
        fs::write(&path, [&full[..], &[0]].concat()).unwrap();
        assert!(matches!(read_err(&path, KEY).0, E::TrailingBytes(..)));
        // A file that shrinks after it was opened: the block read says so.
        fs::write(&path, &full).unwrap();
        let file = TableFile::open(&path, KEY, LEN).unwrap();
        fs::write(&path, &full[..full.len() - 10]).unwrap();
        let err = file.read_all().unwrap_err();
        assert!(matches!(err, E::Truncated(..)), "{err}");
    }

    #[test]
    fn flipped_bytes_give_clean_errors() {
        let (_dir, path, _) = setup();
        let original = fs::read(&path).unwrap();
        let sums = FIXED_HEADER_LEN - 4 + KEY.len(); // the block checksums
        let payload = header_len();
        let flips = [
            (3, 1),
            (16, 1),
            (17, 1),
            (20, 1),
            (19 + KEY.len(), 0x80),
            (sums, 1),
            (sums + 11, 0x10),
            (sums + 12, 1), // the header's own checksum
            (payload, 1),
            (payload + BLOCK + 77, 0x40),
            (original.len() - 1, 1),
        ];
        for (at, mask) in flips {
            let mut bytes = original.clone();
            bytes[at] ^= mask;
            fs::write(&path, &bytes).unwrap();
            let (err, msg) = read_err(&path, KEY);
            let clean = match at {
                _ if at >= payload => {
                    let block = (at - payload) / BLOCK + 1;
                    let expected = format!("(block {block} of 3: checksum mismatch)");
                    matches!(err, E::Checksum(..)) && msg.contains(&expected)
                }
                12..16 => matches!(err, E::Version(..)),
                _ if at >= 20 => matches!(err, E::HeaderChecksum(..) | E::NotATable(..)),
                _ => matches!(err, E::NotATable(..) | E::Truncated(..)),
            };
            assert!(clean, "byte {at}: {msg}");
            // Whatever the damage, the blocks that check out still read.
            if let Ok(file) = TableFile::open(&path, KEY, LEN) {
                let damaged = at.checked_sub(payload).map(|b| b / BLOCK);
                for block in (0..3).filter(|&b| Some(b) != damaged) {
                    assert!(file.read_blocks(block, &mut [0; BLOCK]).is_ok());
                }
            }
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
        assert!(matches!(err, E::Version(_, 7, 3)) && msg.contains("found 7, expected 3"));
        let (err, msg) = read_err(&dir.path().join("none.pdb"), KEY);
        assert!(
            matches!(err, E::NotFound(..)) && msg.contains("not exist"),
            "{msg}"
        );
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
