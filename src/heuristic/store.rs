//! Choosing a heuristic by name, and getting its tables: from the cache directory when a
//! checked file is there, else built (and then written back for the next run).
//!
//! A table file that is missing, truncated, corrupted or holds another table is reported in
//! one line on stderr and rebuilt: a bad file never gives a wrong answer. A store that reads
//! `lazily` (a single solve) checks each file's header when it opens it and each block of it
//! when a search first looks there (a damaged block ends that search: see
//! [`super::Heuristic::damage`]); otherwise (batches, `tables build`) every block is read and
//! checked before the tables are handed out. The default for a
//! board is the strongest partition whose tables are all cached, else the preset built on first
//! use (seconds; on 5x5 the 6-6-6-6 tables, about 1.5 minutes, without which a random
//! 24-puzzle is out of reach), else Manhattan.

use super::bits::Bits;
use super::build::BuildReport;
use super::cache::{self, TableFile};
use super::catalogue::Catalogue;
use super::grid::Grid;
use super::maxdb::CatalogueDb;
use super::partition::Partition;
use super::pdb::PatternDb;
use super::placement::Layout;
use super::table::GroupTable;
use super::Heuristic;
use crate::board::Board;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What the user asked for with `--heuristic`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// The strongest available for the board.
    Default,
    Manhattan,
    /// A preset partition by name (`6-6-3`).
    Tables(String),
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Default => f.write_str("default"),
            Choice::Manhattan => f.write_str("manhattan"),
            Choice::Tables(name) => f.write_str(name),
        }
    }
}

impl std::str::FromStr for Choice {
    type Err = String;

    fn from_str(text: &str) -> Result<Choice, String> {
        match text {
            "" => Err(
                "--heuristic needs a name: manhattan, default or a partition such as 6-6-3".into(),
            ),
            "default" => Ok(Choice::Default),
            "manhattan" => Ok(Choice::Manhattan),
            name => Ok(Choice::Tables(name.to_string())),
        }
    }
}

/// The preset built on first use by default, per board.
fn first_use(board: Board) -> Option<&'static str> {
    match (board.rows(), board.cols()) {
        (3, 3) => Some("8"),
        (3, 4) | (4, 3) => Some("6-5"),
        (4, 4) => Some("6-6-3"),
        (5, 5) => Some("6-6-6-6"),
        _ => None,
    }
}

/// What a user waiting on a search with `heuristic` on `board` would gain from: the command
/// that builds the board's strongest tables and what that build costs, when `heuristic` is
/// weaker (`None` when it is the strongest, or the board has no tables); `dir` is the
/// `--tables` directory the user named, if any.
pub fn stronger_tables(board: Board, heuristic: &str, dir: Option<&Path>) -> Option<String> {
    let strongest = *Partition::names(board).last()?;
    let cost = match strongest {
        "7-8" => "about 2 minutes on two cores and 0.7 GB of memory, once",
        "6-6-6-6" => "about 1.5 minutes on two cores and 0.25 GB of memory, once",
        _ => "seconds, once",
    };
    let mut size = match (board.rows(), board.cols()) {
        (4, 4) => String::new(),
        _ => format!(" --size {board}"),
    };
    if let Some(dir) = dir {
        size += &format!(" --tables {}", dir.display());
    }
    // A catalogue (or a partition of the user's) is the user's choice of something stronger.
    let weaker = heuristic == "manhattan" || Partition::names(board).contains(&heuristic);
    (weaker && heuristic != strongest).then(|| {
        format!(
            "(this search with {heuristic} is taking a while: `fifteen tables build{size} \
             --heuristic {strongest}` builds the strongest tables for {board}, {cost}; with \
             them such searches take many times fewer nodes)"
        )
    })
}

/// Whether this run has said that its table directory cannot be written (once is enough).
static UNWRITABLE_SAID: AtomicBool = AtomicBool::new(false);

/// Where tables are kept, and whether to talk about it.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    /// Say on stderr when tables are built or rejected.
    pub verbose: bool,
    /// With `verbose`, also say which table is about to be built (`tables build` says it
    /// once, on stdout, when the table is done, and leaves this off).
    pub announce: bool,
    /// Read each table a block at a time, as searches first look at its entries, instead of
    /// whole when it is loaded.
    pub lazy: bool,
}

impl Store {
    /// The store in `explicit` (`--tables DIR`), else `$FIFTEEN_TABLES`, else the user's cache
    /// directory.
    pub fn new(explicit: Option<&Path>) -> Result<Store, String> {
        let dir = cache::table_dir(explicit).map_err(|e| e.to_string())?;
        Ok(Store {
            dir,
            verbose: true,
            announce: true,
            lazy: false,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of the table of `tiles` on `board`.
    pub fn path(&self, board: Board, tiles: &[u8]) -> PathBuf {
        self.dir.join(format!(
            "{}_{}.pdb",
            board.goal_name(),
            tile_list(tiles, "-")
        ))
    }

    /// The heuristic `choice` for `board`, loading or building its tables.
    pub fn heuristic(&self, choice: &Choice, board: Board) -> Result<Heuristic, String> {
        let name = match choice {
            Choice::Manhattan => return Ok(Heuristic::Manhattan),
            Choice::Tables(name) => name.clone(),
            Choice::Default => match self.default_name(board) {
                Some(name) => name.to_string(),
                None => return Ok(Heuristic::Manhattan),
            },
        };
        let catalogue = Catalogue::parse(board, &name).map_err(|e| e.to_string())?;
        match catalogue.partitions() {
            [partition] => self
                .load(partition)
                .map(|db| Heuristic::Tables(Arc::new(db))),
            _ => self
                .load_catalogue(&catalogue)
                .map(|db| Heuristic::Catalogue(Arc::new(db))),
        }
    }

    /// The tables of `catalogue`, one for each of its distinct groups.
    pub fn load_catalogue(&self, catalogue: &Catalogue) -> Result<CatalogueDb, String> {
        CatalogueDb::with_tables(catalogue, |tiles, label| {
            let (table, _) = self.group_table(catalogue.board(), tiles, label)?;
            Ok(table)
        })
    }

    /// The name of the default heuristic's partition for `board`, if it has tables.
    pub fn default_name(&self, board: Board) -> Option<&'static str> {
        let names = Partition::names(board);
        names
            .iter()
            .rev()
            .find(|name| {
                Partition::preset(board, name).is_ok_and(|p| {
                    p.groups()
                        .iter()
                        .all(|tiles| self.path(board, tiles).is_file())
                })
            })
            .copied()
            .or_else(|| first_use(board))
    }

    /// The tables of `partition`: each read from its file, or built and written.
    pub fn load(&self, partition: &Partition) -> Result<PatternDb, String> {
        let tables = (0..partition.groups().len())
            .map(|g| self.table(partition, g).map(|(table, _)| table))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PatternDb::new(partition.clone(), tables))
    }

    /// The table of group `g` of `partition`, and where it came from.
    pub fn table(&self, partition: &Partition, g: usize) -> Result<(GroupTable, Source), String> {
        let groups = partition.groups();
        let label = format!("{partition} table {} of {}", g + 1, groups.len());
        self.group_table(partition.board(), &groups[g], &label)
    }

    /// The table of the group `tiles` on `board` (called `label` when it is built), and where
    /// it came from.
    pub fn group_table(
        &self,
        board: Board,
        tiles: &[u8],
        label: &str,
    ) -> Result<(GroupTable, Source), String> {
        let grid = Grid::new(board);
        let homes: Vec<u8> = tiles.iter().map(|&t| board.home(t) as u8).collect();
        let path = self.path(board, tiles);
        let key = key(board, tiles);
        let layout = Layout::shared(grid, homes.len())?;
        let len = GroupTable::bytes(&layout);
        let wrong_size = format!("{}: wrong table size", path.display());
        let table = |bits| GroupTable::new(grid, homes.clone(), bits).ok_or(wrong_size.clone());
        match self.cached(&path, &key, len) {
            Ok(Some(bits)) => return Ok((table(bits)?, Source::Cached(path))),
            Ok(None) => {}
            Err(Unusable::NoMemory(error)) => return Err(error),
            Err(Unusable::Damaged(error)) => {
                if self.verbose {
                    eprintln!("{error}; building it again");
                }
            }
        }
        // One builder at a time: a second process waits for the first, then reads its file.
        let lock = self.lock(&path);
        if let Ok((_, true)) = &lock {
            if let Ok(Some(bits)) = self.cached(&path, &key, len) {
                return Ok((table(bits)?, Source::Cached(path)));
            }
        }
        if self.verbose {
            let dir = self.dir.display();
            match &lock {
                Ok(_) if self.announce => eprintln!("building the {label} (once; kept in {dir})"),
                Ok(_) => {}
                // Said once for the whole run, however many tables it builds (issue 41).
                Err(error) if !UNWRITABLE_SAID.swap(true, Ordering::Relaxed) => eprintln!(
                    "building the {label}; the tables cannot be kept ({dir}: {error}), so every \
                     run builds them again: --tables DIR or FIFTEEN_TABLES names another directory"
                ),
                Err(_) if self.announce => eprintln!("building the {label} (not kept)"),
                Err(_) => {}
            }
        }
        let clock = Instant::now();
        let (bytes, report) = super::build::build(grid, &homes, label)?;
        let seconds = clock.elapsed().as_secs_f64();
        // Kept: read back from the file (the page cache has it), as a cached table is.
        let kept = cache::write(&path, &key, &bytes)
            .map_err(|error| Unusable::Damaged(error.to_string()))
            .and_then(|()| self.cached(&path, &key, len));
        let (bits, kept) = match kept {
            Ok(Some(bits)) => (bits, Some(path)),
            Ok(None) => (Bits::from_bytes(&bytes)?, None),
            Err(Unusable::NoMemory(error) | Unusable::Damaged(error)) => {
                // (A directory that could not be locked in was said already.)
                if self.verbose && lock.is_ok() {
                    eprintln!("{error}; the table is not kept");
                }
                (Bits::from_bytes(&bytes)?, None)
            }
        };
        let source = Source::Built {
            seconds,
            report,
            kept,
        };
        Ok((table(bits)?, source))
    }

    /// The lock on building the table file `path` (a lock file beside it, held until the
    /// returned guard is dropped, which removes it), and whether another process held it
    /// first; an error when the directory cannot be written.
    fn lock(&self, path: &Path) -> std::io::Result<(BuildLock, bool)> {
        std::fs::create_dir_all(&self.dir)?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let lock_path = self.dir.join(format!(".{name}.lock"));
        let mut waited = false;
        loop {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock_path)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    if self.verbose && !waited {
                        eprintln!("waiting for another process that builds {}", path.display());
                    }
                    waited = true;
                    file.lock()?;
                }
                Err(std::fs::TryLockError::Error(error)) => return Err(error),
            }
            // A holder that finished removed the file it locked: this lock is then on a file
            // no longer there, and the next builder locks a new one.
            if BuildLock::still_there(&file, &lock_path) {
                let lock = BuildLock {
                    file,
                    path: lock_path,
                };
                return Ok((lock, waited));
            }
        }
    }

    /// Every preset table this store can hold: (file, key, payload length, partition).
    pub fn known(&self) -> Vec<(PathBuf, String, u64, Partition)> {
        let mut known = Vec::new();
        for partition in Partition::all() {
            let board = partition.board();
            for tiles in partition.groups() {
                let Ok(layout) = Layout::shared(Grid::new(board), tiles.len()) else {
                    continue;
                };
                let len = GroupTable::bytes(&layout);
                let path = self.path(board, tiles);
                known.push((path, key(board, tiles), len, partition.clone()));
            }
        }
        known
    }

    /// What the file `path` of this store's directory holds, read off its name
    /// (`RxC_TILES.pdb`, `RxC-blank-rRcC_TILES.pdb` toward a goal with the blank on row R,
    /// column C): the key and payload length of the table of that group.
    pub fn table_of_file(&self, path: &Path) -> Option<(String, u64)> {
        let name = path.file_name()?.to_str()?.strip_suffix(".pdb")?;
        let (size, tiles) = name.split_once('_')?;
        let board = Board::from_goal_name(size)?;
        let tiles: Vec<u8> = tiles
            .split('-')
            .map(|t| t.parse().ok())
            .collect::<Option<_>>()?;
        let fits = tiles
            .iter()
            .all(|&t| t >= 1 && usize::from(t) < board.cells());
        // A group a partition could hold (`Partition::new`), no larger.
        let placements = (0..tiles.len()).fold(1u64, |p, j| {
            p.saturating_mul(board.cells().saturating_sub(j) as u64)
        });
        let small = placements <= u64::from(u32::MAX);
        if !fits || !small || tiles.is_empty() || self.path(board, &tiles) != path {
            return None;
        }
        let layout = Layout::shared(Grid::new(board), tiles.len()).ok()?;
        Some((key(board, &tiles), GroupTable::bytes(&layout)))
    }

    /// The bits of the table file `path` if there is one (`None`): its header checked, and
    /// every block too unless the store reads lazily.
    fn cached(&self, path: &Path, key: &str, len: u64) -> Result<Option<Bits>, Unusable> {
        let damaged = |error: cache::CacheError| Unusable::Damaged(error.to_string());
        let bits = match TableFile::open(path, key, len) {
            Ok(file) => Bits::lazy(file).map_err(Unusable::NoMemory)?,
            Err(cache::CacheError::NotFound(_)) => return Ok(None),
            Err(error) => return Err(damaged(error)),
        };
        if !self.lazy {
            bits.load_all().map_err(Unusable::Damaged)?;
        }
        Ok(Some(bits))
    }
}

/// Why a table file was not used: damaged (or foreign: rebuilt), or no memory to hold it
/// (building it would not help).
enum Unusable {
    Damaged(String),
    NoMemory(String),
}

/// Where a table came from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Read from this file.
    Cached(PathBuf),
    /// Built now, in `seconds`, and written to `kept` (if it could be).
    Built {
        seconds: f64,
        report: BuildReport,
        kept: Option<PathBuf>,
    },
}

/// What a table file holds, in one line.
pub fn key(board: Board, tiles: &[u8]) -> String {
    format!(
        "{} zero-aware 1-bit table of tiles {}",
        board.goal_name(),
        tile_list(tiles, ",")
    )
}

fn tile_list(tiles: &[u8], separator: &str) -> String {
    tiles
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

/// A held lock on building one table: its lock file, removed when the lock is given up (under
/// the lock, so that a process waiting on the removed file sees it gone and locks anew).
struct BuildLock {
    file: std::fs::File,
    path: PathBuf,
}

impl BuildLock {
    /// Whether `file` is still the file at `path`.
    #[cfg(unix)]
    fn still_there(file: &std::fs::File, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(held), Ok(named)) => (held.dev(), held.ino()) == (named.dev(), named.ino()),
            _ => false,
        }
    }

    /// Elsewhere lock files are left in place, so the file locked is always the one named.
    #[cfg(not(unix))]
    fn still_there(_: &std::fs::File, _: &Path) -> bool {
        true
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        #[cfg(unix)]
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weaker_tables_name_the_build_of_the_strongest() {
        let board = |r, c| Board::new(r, c).expect("a board");
        let hint = stronger_tables(board(4, 4), "6-6-3", None).expect("7-8 is stronger");
        assert!(
            hint.contains("`fifteen tables build --heuristic 7-8`") && hint.contains("2 minutes"),
            "{hint}"
        );
        let hint = stronger_tables(board(5, 5), "manhattan", Some(Path::new("/t")))
            .expect("6-6-6-6 is stronger");
        assert!(
            hint.contains("`fifteen tables build --size 5x5 --tables /t --heuristic 6-6-6-6`"),
            "{hint}"
        );
        assert_eq!(stronger_tables(board(4, 4), "7-8", None), None);
        assert_eq!(stronger_tables(board(5, 5), "small", None), None);
        assert_eq!(stronger_tables(board(4, 4), "6-6-3+5-5-5", None), None);
        assert_eq!(stronger_tables(board(3, 3), "8", None), None);
        assert_eq!(stronger_tables(board(2, 3), "manhattan", None), None);
    }
}
