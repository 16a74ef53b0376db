//! Lower bounds for the IDA* engines: Knuth's Manhattan distance, and additive zero-aware
//! pattern databases (Korf & Felner 2002; Clausecker & Reinefeld 2019) with the reflection
//! about the main diagonal.
//!
//! Every heuristic here is *consistent with unit steps*: one move changes it by exactly one,
//! and it has the parity of the Manhattan distance. So every move is happy or sad, as in
//! Knuth's programs, and a bound of `h + k` happy and `k` sad moves is searched the same way
//! whichever heuristic gives `h`.
//!
//! - [`placement`]: placements of a group as table indices; [`grid`]: the board as bit masks;
//! - [`table`]: one group's table (one bit an entry) and its exact values by descent, its
//!   bits read from the file a block at a time ([`bits`]);
//! - [`build`]: the breadth-first search that builds a table;
//! - [`partition`]: which tiles share a table (the presets); [`catalogue`]: several partitions
//!   at once;
//! - [`pdb`]: the tables of a partition, looked up on the position and its reflection;
//!   [`maxdb`]: those of a catalogue, the largest of its partitions' sums;
//! - [`cache`]: table files on disk; [`store`]: choosing, loading, building and caching.

pub mod bits;
pub mod build;
pub mod cache;
pub mod catalogue;
pub mod grid;
pub mod maxdb;
pub mod partition;
pub mod pdb;
pub mod placement;
pub mod store;
pub mod table;

use crate::position::Position;
use maxdb::CatalogueDb;
use pdb::PatternDb;
use std::fmt;
use std::sync::Arc;

/// The lower bound an IDA* engine searches with.
#[derive(Clone, Default)]
pub enum Heuristic {
    /// Knuth's: the sum of the tiles' distances from home.
    #[default]
    Manhattan,
    /// Additive pattern databases.
    Tables(Arc<PatternDb>),
    /// The largest of the sums of several partitions' pattern databases.
    Catalogue(Arc<CatalogueDb>),
}

impl Heuristic {
    /// The name users pick it by: `manhattan`, the partition's (`6-6-3`) or the catalogue's.
    pub fn name(&self) -> String {
        match self {
            Heuristic::Manhattan => "manhattan".to_string(),
            Heuristic::Tables(db) => db.partition().name().to_string(),
            Heuristic::Catalogue(db) => db.catalogue().name().to_string(),
        }
    }

    /// The checksum of each table it reads (none for Manhattan), in the partition's order (a
    /// catalogue's: in the order of its distinct groups).
    pub fn checksums(&self) -> Vec<u32> {
        match self {
            Heuristic::Manhattan => Vec::new(),
            Heuristic::Tables(db) => db.checksums(),
            Heuristic::Catalogue(db) => db.checksums(),
        }
    }

    /// The estimate of `position`, from scratch.
    pub fn estimate(&self, position: &Position) -> u32 {
        self.table_estimate(position.tiles())
            .unwrap_or_else(|| position.manhattan() as u32)
    }

    /// The estimate of the tiles `tiles` (row by row, Knuth's numbering) from the tables,
    /// from scratch; `None` for Manhattan.
    pub fn table_estimate(&self, tiles: &[u8]) -> Option<u32> {
        match self {
            Heuristic::Manhattan => None,
            Heuristic::Tables(db) => Some(db.estimate_tiles(tiles)),
            Heuristic::Catalogue(db) => Some(db.estimate_tiles(tiles)),
        }
    }

    /// Whether it reads tables (a partition's or a catalogue's).
    pub fn has_tables(&self) -> bool {
        !matches!(self, Heuristic::Manhattan)
    }

    /// The board (and goal) its tables are built for; none for Manhattan, which reads the
    /// homes from each position's board.
    pub fn board(&self) -> Option<crate::board::Board> {
        match self {
            Heuristic::Manhattan => None,
            Heuristic::Tables(db) => Some(db.partition().board()),
            Heuristic::Catalogue(db) => Some(db.catalogue().board()),
        }
    }

    /// The first damage found in a table's file since it was opened (a block that failed its
    /// checksum when a search first looked at it), in one line naming the file. Engines ask
    /// before they report each bound: a search with a damaged table has no answer.
    pub fn damage(&self) -> Option<String> {
        match self {
            Heuristic::Manhattan => None,
            Heuristic::Tables(db) => db.damage(),
            Heuristic::Catalogue(db) => db.damage(),
        }
    }

    /// The tables of one partition, if that is what it reads.
    pub fn tables(&self) -> Option<&PatternDb> {
        match self {
            Heuristic::Tables(db) => Some(db),
            _ => None,
        }
    }

    /// The values of the lookups at `position`, from scratch (by descent in every table).
    pub fn kept(&self, position: &Position) -> Kept {
        let (at, blank) = pdb::piece_cells(position);
        match self {
            Heuristic::Manhattan => Kept::Nothing,
            Heuristic::Tables(db) => Kept::Tables(db.values(&at, blank)),
            Heuristic::Catalogue(db) => Kept::Catalogue(db.values(&at, blank)),
        }
    }
}

/// The lookups' values at a node, as a search that followed them move by move has them, so
/// that a search starting there need not find them from scratch (by descent in every table, a
/// few microseconds a lookup).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kept {
    /// None kept (Manhattan).
    #[default]
    Nothing,
    Tables(pdb::Values),
    Catalogue(maxdb::Values),
}

impl Kept {
    /// The estimate they give, if any.
    pub fn estimate(&self) -> Option<u32> {
        match self {
            Kept::Nothing => None,
            Kept::Tables(values) => Some(PatternDb::estimate(*values)),
            Kept::Catalogue(values) => Some(CatalogueDb::estimate(*values)),
        }
    }
}

impl PartialEq for Heuristic {
    fn eq(&self, other: &Heuristic) -> bool {
        match (self, other) {
            (Heuristic::Manhattan, Heuristic::Manhattan) => true,
            (Heuristic::Tables(a), Heuristic::Tables(b)) => {
                Arc::ptr_eq(a, b) || a.partition() == b.partition()
            }
            (Heuristic::Catalogue(a), Heuristic::Catalogue(b)) => {
                Arc::ptr_eq(a, b) || a.catalogue() == b.catalogue()
            }
            _ => false,
        }
    }
}

impl Eq for Heuristic {}

impl fmt::Debug for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Heuristic::Manhattan => f.write_str("Manhattan"),
            Heuristic::Tables(db) => write!(f, "Tables({})", db.partition()),
            Heuristic::Catalogue(db) => write!(f, "Catalogue({})", db.catalogue()),
        }
    }
}
