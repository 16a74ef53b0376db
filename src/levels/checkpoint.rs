//! A run's checkpoint: its board, metric and start, the sizes of the levels done, and every
//! label. It is written at a level boundary to `FILE.part` and renamed over `FILE`, so a kill
//! at any moment leaves the last whole checkpoint. The header and every block of labels carry
//! a CRC-32: a damaged, cut or foreign file is refused in one line, never trusted.

use super::grid::Grid;
use super::search::{Enumeration, Level, FEW};
use crate::mtm::Metric;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use thiserror::Error;

const MAGIC: &[u8; 16] = b"fifteen levels\n\0";
/// The format's version; a file of another is refused.
pub const VERSION: u32 = 1;
/// Words a checksummed block (4 MiB).
const BLOCK_WORDS: usize = 1 << 20;

/// Why a checkpoint was not read.
#[derive(Debug, Error)]
pub enum CheckpointError {
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}: not a checkpoint of fifteen levels")]
    Foreign { path: String },
    #[error("{path}: a checkpoint of format {found}; this fifteen reads format {VERSION} (start again without --resume)")]
    Version { path: String, found: u32 },
    #[error("{path}: a checkpoint of {theirs}, not of this run ({ours})")]
    OtherRun {
        path: String,
        theirs: String,
        ours: String,
    },
    #[error("{path}: damaged ({what}); start again without --resume")]
    Damaged { path: String, what: String },
}

/// The run a checkpoint belongs to, in words.
fn describe(rows: usize, cols: usize, blank: usize, metric: Metric) -> String {
    let metric = super::metric_name(metric);
    format!(
        "{rows}x{cols} in the {metric} metric with the blank starting at row {}, column {}",
        blank / cols + 1,
        blank % cols + 1
    )
}

fn metric_byte(metric: Metric) -> u8 {
    match metric {
        Metric::Stm => 0,
        Metric::Mtm => 1,
    }
}

/// The part file a checkpoint is written to before it is renamed.
fn part_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// Writes the enumeration's checkpoint to `path` (through `path.part`, renamed).
pub fn save(path: &Path, enumeration: &Enumeration) -> std::io::Result<()> {
    let part = part_of(path);
    let grid = enumeration.grid();
    let mut out = BufWriter::with_capacity(1 << 20, File::create(&part)?);
    let mut header = Vec::new();
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&[
        grid.rows() as u8,
        grid.cols() as u8,
        grid.blank() as u8,
        metric_byte(enumeration.metric()),
    ]);
    let levels = enumeration.levels();
    header.extend_from_slice(&(levels.len() as u32).to_le_bytes());
    for size in levels {
        header.extend_from_slice(&size.to_le_bytes());
    }
    header.extend_from_slice(&(enumeration.words().len() as u64).to_le_bytes());
    let last = enumeration.last();
    header.extend_from_slice(&last.first.to_le_bytes());
    header.extend_from_slice(&(last.few.len() as u32).to_le_bytes());
    for index in &last.few {
        header.extend_from_slice(&index.to_le_bytes());
    }
    let crc = crc32fast::hash(&header);
    out.write_all(&header)?;
    out.write_all(&crc.to_le_bytes())?;
    let mut bytes = Vec::with_capacity(4 * BLOCK_WORDS);
    for block in enumeration.words().chunks(BLOCK_WORDS) {
        bytes.clear();
        for word in block {
            bytes.extend_from_slice(&word.load(Relaxed).to_le_bytes());
        }
        out.write_all(&bytes)?;
        out.write_all(&crc32fast::hash(&bytes).to_le_bytes())?;
    }
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&part, path)
}

/// Reads the checkpoint at `path` of the run of `grid` and `metric`.
pub fn load(path: &Path, grid: &Grid, metric: Metric) -> Result<Enumeration, CheckpointError> {
    let name = path.display().to_string();
    let io = |error: std::io::Error| CheckpointError::Io {
        path: name.clone(),
        error,
    };
    let damaged = |what: &str| CheckpointError::Damaged {
        path: name.clone(),
        what: what.to_string(),
    };
    let mut input = BufReader::with_capacity(1 << 20, File::open(path).map_err(io)?);
    // Reads exactly `buffer`'s length; a short file is damaged.
    let mut read = |buffer: &mut [u8]| -> Result<(), CheckpointError> {
        input.read_exact(buffer).map_err(|error| {
            if error.kind() == std::io::ErrorKind::UnexpectedEof {
                damaged("it ends early")
            } else {
                io(error)
            }
        })
    };
    let mut fixed = [0u8; 16 + 4 + 4 + 4];
    read(&mut fixed).map_err(|_| CheckpointError::Foreign { path: name.clone() })?;
    if &fixed[..16] != MAGIC {
        return Err(CheckpointError::Foreign { path: name.clone() });
    }
    let version = u32::from_le_bytes([fixed[16], fixed[17], fixed[18], fixed[19]]);
    if version != VERSION {
        return Err(CheckpointError::Version {
            path: name.clone(),
            found: version,
        });
    }
    let [rows, cols, blank, their_metric] = [fixed[20], fixed[21], fixed[22], fixed[23]];
    let count = u32::from_le_bytes([fixed[24], fixed[25], fixed[26], fixed[27]]) as usize;
    if count == 0 || count > 4096 {
        return Err(damaged("its header"));
    }
    let mut rest = vec![0u8; 8 * count + 8 + 8 + 4];
    read(&mut rest)?;
    let few = u32::from_le_bytes(rest[rest.len() - 4..].try_into().unwrap_or_default()) as usize;
    if few > FEW {
        return Err(damaged("its header"));
    }
    let mut tail = vec![0u8; 8 * few + 4];
    read(&mut tail)?;
    let mut header = fixed.to_vec();
    header.extend_from_slice(&rest);
    header.extend_from_slice(&tail[..tail.len() - 4]);
    let rest = &header[fixed.len()..];
    let crc = u32::from_le_bytes(tail[tail.len() - 4..].try_into().unwrap_or_default());
    if crc32fast::hash(&header) != crc {
        return Err(damaged("its header fails its checksum"));
    }
    if (rows, cols, blank) != (grid.rows() as u8, grid.cols() as u8, grid.blank() as u8)
        || their_metric != metric_byte(metric)
    {
        let theirs = match their_metric {
            0 | 1 => describe(
                usize::from(rows),
                usize::from(cols).max(1),
                usize::from(blank),
                if their_metric == 0 {
                    Metric::Stm
                } else {
                    Metric::Mtm
                },
            ),
            _ => "another kind".to_string(),
        };
        return Err(CheckpointError::OtherRun {
            path: name.clone(),
            theirs,
            ours: describe(grid.rows(), grid.cols(), grid.blank(), metric),
        });
    }
    let levels: Vec<u64> = rest[..8 * count]
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
        .collect();
    let number = |at: usize| u64::from_le_bytes(rest[at..at + 8].try_into().unwrap_or_default());
    let words = number(8 * count);
    let last = Level {
        size: levels.last().copied().unwrap_or(0),
        first: number(8 * count + 8),
        few: (0..few).map(|i| number(8 * count + 20 + 8 * i)).collect(),
    };
    let total = levels
        .iter()
        .try_fold(0u64, |sum, &size| sum.checked_add(size));
    if words != grid.blocks() || total.is_none_or(|t| t > grid.configurations()) {
        return Err(damaged("its header"));
    }
    let labels: Vec<AtomicU32> = bytemuck::zeroed_vec(words as usize);
    let mut bytes = vec![0u8; 4 * BLOCK_WORDS + 4];
    for block in labels.chunks(BLOCK_WORDS) {
        let bytes = &mut bytes[..4 * block.len() + 4];
        read(bytes)?;
        let (body, crc) = bytes.split_at(4 * block.len());
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().unwrap_or_default()) {
            return Err(damaged("a block of labels fails its checksum"));
        }
        for (word, b) in block.iter().zip(body.chunks_exact(4)) {
            word.store(
                u32::from_le_bytes(b.try_into().unwrap_or_default()),
                Relaxed,
            );
        }
    }
    let mut extra = [0u8; 1];
    if input.read(&mut extra).map_err(io)? != 0 {
        return Err(damaged("it goes on after its last block"));
    }
    Ok(Enumeration::with_words(
        grid.clone(),
        metric,
        labels,
        levels,
        last,
    ))
}
