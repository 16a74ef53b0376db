//! A table's bits in memory, read from its file one block at a time, when first looked at.
//!
//! A single solve looks at few of a large table's blocks (4 KiB each). So a solve from a new
//! process reads and checks just those, each against its own checksum, and the answer comes
//! after milliseconds instead of after the whole table (Korf's 100 with the 196 MB of 7-8: a
//! median 19 ms a process, against 80 ms reading them whole); a batch, which will look at
//! nearly everything, reads every block at once instead ([`Bits::load_all`]).
//!
//! The words live in memory that the system hands out zeroed and lazily, so a block never
//! read costs nothing; they are atomics only so that any search thread may fill a block (two
//! that fill the same one store the same words), and are read with plain loads.
//!
//! Invariant: a word is read only after its block's `ready` bit is set, and that bit is set
//! only after the block was read and matched its checksum, or else after `damage` was set:
//! a damaged table's lookups go on (with zeros) so that a search ends, and every engine asks
//! [`Bits::damage`] before it reports a bound, so nothing found with them is ever printed.

use super::cache::{TableFile, BLOCK};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Bits of an entry index that select the bit within one block.
const BLOCK_BITS: u32 = (BLOCK * 8).trailing_zeros();
const WORDS_PER_BLOCK: usize = BLOCK / 8;
/// Blocks read at once by [`Bits::load_all`]: one word of `ready`.
const RUN: usize = 64;

/// The bits of one table: bit `i % 8` of byte `i / 8` of the file's payload is bit `i`.
#[derive(Debug)]
pub struct Bits {
    /// Payload length in bytes.
    len: u64,
    /// The payload as little-endian words.
    words: Box<[AtomicU64]>,
    /// One bit per block: its words are there.
    ready: Box<[AtomicU64]>,
    /// Where blocks not yet ready are read from (`None`: every block is ready).
    file: Option<TableFile>,
    /// The first damage found in a block, in one line naming the file.
    damage: OnceLock<String>,
}

impl Bits {
    /// The bits of `bytes`, every block ready.
    pub fn from_bytes(bytes: &[u8]) -> Result<Bits, String> {
        let bits = Bits::empty(bytes.len() as u64, None)?;
        bits.store(0, bytes);
        for ready in bits.ready.iter() {
            ready.store(u64::MAX, Ordering::Relaxed);
        }
        Ok(bits)
    }

    /// The bits of the table file `file` (its header already checked), each block read and
    /// checked when first looked at.
    pub fn lazy(file: TableFile) -> Result<Bits, String> {
        Bits::empty(file.len(), Some(file))
    }

    /// Zeroed bits for `len` bytes (memory the system maps as it is first written), or a
    /// one-line error when there is not that much memory to be had.
    fn empty(len: u64, file: Option<TableFile>) -> Result<Bits, String> {
        let blocks = usize::try_from(len.div_ceil(BLOCK as u64)).unwrap_or(usize::MAX);
        let zeroed = |n: usize| bytemuck::allocation::try_zeroed_slice_box(n).ok();
        let words = blocks.checked_mul(WORDS_PER_BLOCK).and_then(zeroed);
        let ready = zeroed(blocks.div_ceil(64));
        match (words, ready) {
            (Some(words), Some(ready)) => Ok(Bits {
                len,
                words,
                ready,
                file,
                damage: OnceLock::new(),
            }),
            _ => Err(format!("not enough memory for a table of {len} bytes")),
        }
    }

    /// Payload length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What identifies the content: the file's header checksum ([`TableFile::checksum`]), or
    /// for a table not kept on disk the CRC-32 of its bytes.
    pub fn checksum(&self) -> u32 {
        if let Some(file) = &self.file {
            return file.checksum();
        }
        let mut hasher = crc32fast::Hasher::new();
        let mut left = self.len;
        for word in self.words.iter() {
            let bytes = word.load(Ordering::Relaxed).to_le_bytes();
            let n = left.min(8) as usize;
            hasher.update(&bytes[..n]);
            left -= n as u64;
        }
        hasher.finalize()
    }

    /// Reads every block not yet ready, a run of blocks at a time on all of rayon's threads,
    /// checking each; the first damage found is the error.
    pub fn load_all(&self) -> Result<(), String> {
        use rayon::prelude::*;
        let runs = self.ready.len();
        let buffer = || vec![0u8; RUN * BLOCK];
        (0..runs)
            .into_par_iter()
            .for_each_init(buffer, |buffer, run| self.load_run(run, buffer));
        match self.damage() {
            Some(damage) => Err(damage.to_string()),
            None => Ok(()),
        }
    }

    /// Reads and checks the blocks of run `run` (those of one word of `ready`) and marks them
    /// ready.
    fn load_run(&self, run: usize, buffer: &mut [u8]) {
        let first = run * RUN;
        if let Some(file) = &self.file {
            match file.read_blocks(first, buffer) {
                Ok(bytes) => self.store(first, &buffer[..bytes]),
                Err(error) => {
                    let _ = self.damage.set(error.to_string());
                }
            }
        }
        if let Some(ready) = self.ready.get(run) {
            ready.store(u64::MAX, Ordering::Release);
        }
    }

    /// Stores `bytes` as the words from block `first` on.
    fn store(&self, first: usize, bytes: &[u8]) {
        let words = self.words.iter().skip(first * WORDS_PER_BLOCK);
        let chunks = bytes.chunks_exact(8);
        let rest = chunks.remainder();
        let last = (!rest.is_empty()).then(|| le_word(rest));
        for (word, value) in words.zip(chunks.map(le_word).chain(last)) {
            word.store(value, Ordering::Relaxed);
        }
    }

    /// The first damage found in a block (which then reads as zeros), if any.
    pub fn damage(&self) -> Option<&str> {
        self.damage.get().map(String::as_str)
    }

    #[inline]
    fn is_ready(&self, block: usize) -> bool {
        let word = self
            .ready
            .get(block / 64)
            .map_or(0, |w| w.load(Ordering::Acquire));
        word >> (block % 64) & 1 == 1
    }

    /// Bit `index` (0 past the end).
    #[inline]
    pub fn bit(&self, index: u64) -> u32 {
        let block = (index >> BLOCK_BITS) as usize;
        if !self.is_ready(block) {
            self.load(block);
        }
        let word = self.words.get((index / 64) as usize);
        (word.map_or(0, |w| w.load(Ordering::Relaxed)) >> (index % 64)) as u32 & 1
    }

    /// Reads block `block` from the file, checks it and marks it ready (zeros and `damage` if
    /// it does not check out).
    #[cold]
    #[inline(never)]
    fn load(&self, block: usize) {
        let Some(file) = &self.file else {
            return; // past the end: every block of an in-memory table is ready
        };
        let mut buffer = [0u8; BLOCK];
        match file.read_blocks(block, &mut buffer) {
            Ok(bytes) => self.store(block, &buffer[..bytes]),
            Err(error) => {
                let _ = self.damage.set(error.to_string());
            }
        }
        if let Some(ready) = self.ready.get(block / 64) {
            ready.fetch_or(1 << (block % 64), Ordering::Release);
        }
    }
}

/// Up to eight bytes as a little-endian word.
#[inline]
fn le_word(chunk: &[u8]) -> u64 {
    let mut bytes = [0u8; 8];
    let n = chunk.len().min(8);
    bytes[..n].copy_from_slice(&chunk[..n]);
    u64::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::super::cache;
    use super::*;

    fn bytes(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 31 % 253) as u8).collect()
    }

    fn bit_of(bytes: &[u8], index: u64) -> u32 {
        u32::from(bytes[(index / 8) as usize] >> (index % 8)) & 1
    }

    #[test]
    fn lazy_and_in_memory_bits_are_the_payloads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.pdb");
        let data = bytes(3 * BLOCK + 100);
        cache::write(&path, "key", &data).unwrap();
        let lazy = Bits::lazy(TableFile::open(&path, "key", data.len() as u64).unwrap()).unwrap();
        let memory = Bits::from_bytes(&data).unwrap();
        assert_eq!(
            (lazy.len(), memory.len()),
            (data.len() as u64, data.len() as u64)
        );
        // Backwards, so that the last (short) block is read first.
        for index in (0..data.len() as u64 * 8).rev().step_by(7) {
            assert_eq!(lazy.bit(index), bit_of(&data, index), "bit {index}");
            assert_eq!(memory.bit(index), bit_of(&data, index), "bit {index}");
        }
        assert_eq!(lazy.bit(data.len() as u64 * 8 + 5000), 0);
        assert!(lazy.damage().is_none());
        let eager = Bits::lazy(TableFile::open(&path, "key", data.len() as u64).unwrap()).unwrap();
        eager.load_all().unwrap();
        assert!((0..eager.ready.len() * 64)
            .take(4)
            .all(|b| eager.is_ready(b)));
    }

    #[test]
    fn the_checksum_names_the_content() {
        let dir = tempfile::tempdir().unwrap();
        let data = bytes(2 * BLOCK + 5);
        let mut other = data.clone();
        other[BLOCK + 3] ^= 1;
        let file = |name: &str, payload: &[u8]| {
            let path = dir.path().join(name);
            cache::write(&path, "key", payload).unwrap();
            Bits::lazy(TableFile::open(&path, "key", payload.len() as u64).unwrap())
                .unwrap()
                .checksum()
        };
        // Files: the same payload the same checksum, one bit changed another.
        assert_eq!(file("a.pdb", &data), file("b.pdb", &data));
        assert_ne!(file("a.pdb", &data), file("c.pdb", &other));
        // In memory: the CRC-32 of the bytes, the last word's padding left out.
        assert_eq!(
            Bits::from_bytes(&data).unwrap().checksum(),
            crc32fast::hash(&data)
        );
        assert_ne!(
            Bits::from_bytes(&other).unwrap().checksum(),
            crc32fast::hash(&data)
        );
    }

    #[test]
    fn a_damaged_block_is_reported_when_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.pdb");
        let data = bytes(4 * BLOCK);
        cache::write(&path, "key", &data).unwrap();
        let file = TableFile::open(&path, "key", data.len() as u64).unwrap();
        let mut raw = std::fs::read(&path).unwrap();
        // Flip a bit of block 2 after the header was checked: blocks 0, 1 and 3 still read.
        let at = raw.len() - 2 * BLOCK + 17;
        raw[at] ^= 4;
        std::fs::write(&path, &raw).unwrap();
        let lazy = Bits::lazy(file).unwrap();
        assert_eq!(lazy.bit(5), bit_of(&data, 5));
        assert_eq!(
            lazy.bit(3 * 8 * BLOCK as u64 + 1),
            bit_of(&data, 3 * 8 * BLOCK as u64 + 1)
        );
        assert!(lazy.damage().is_none());
        assert_eq!(lazy.bit(2 * 8 * BLOCK as u64 + 17 * 8 + 2), 0);
        let damage = lazy.damage().unwrap();
        assert!(
            damage.contains("corrupted") && damage.contains("block 3 of 4"),
            "{damage}"
        );
        assert!(damage.contains(&*path.to_string_lossy()), "{damage}");
        let eager = Bits::lazy(TableFile::open(&path, "key", data.len() as u64).unwrap()).unwrap();
        assert_eq!(eager.load_all().unwrap_err(), damage);
    }
}
