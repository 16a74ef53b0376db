//! An additive pattern-database heuristic: one zero-aware table per group of a partition,
//! looked up on the position and, on square boards, on its reflection about the main diagonal;
//! the estimate is the larger of the two sums.
//!
//! Both sums have the parity of the Manhattan distance and move by exactly one per move, so
//! their maximum does too: every move is *happy* (the estimate drops by one) or *sad* (it
//! rises by one), the budget of Knuth's KORF0 and KORF1 unchanged.
//!
//! The search engines speak of *lookups*: lookup `g` is group `g` on the position, lookup
//! `MIRROR + g` group `g` on the reflection. Their values travel packed, one byte each, in two
//! `u64` words, one for each half ([`Values`]). A move of one piece changes one lookup of each
//! half, and [`PatternDb::step`] finds the new values from the entries after the move alone
//! (one bit each).
//!
//! Not here, measured (2026-11-26): the maximum over a second partition of the board (5x5
//! 6-6-6-6 with a second 6-6-6-6 and its reflection, its lookups made only where the first
//! partition does not already refuse a move) took 1.2-2.8 times fewer nodes on Korf & Felner's
//! instances but cost 1.6-1.8 times as much per node: a node's cost is the wait on its table
//! words. It was faster on 2 of 7 instances and 5-42% slower on the others (#47: 184 s of CPU
//! against 251 s); 4x4 7-8 with 6-6-3 saved 5% of the nodes of Korf's 100.
//!
//! Invariant: `values(at, blank)` equals, byte for byte, the tables' exact values of the
//! position; `step` keeps it so.

use super::bits::Bits;
use super::grid::Grid;
use super::partition::{mirror_cells, Partition, MAX_GROUPS};
use super::table::GroupTable;
use crate::board::MAX_CELLS;
use crate::position::Position;

/// Byte offset of the reflection's lookups in [`Values`].
pub const MIRROR: usize = MAX_GROUPS;

/// One byte per lookup: groups on the position in bytes `0..MIRROR` (word 0), on the reflection
/// from byte `MIRROR` on (word 1).
pub type Values = [u64; 2];

/// One lookup: a table, and which pieces stand for its slots.
#[derive(Clone, Debug)]
struct Lookup {
    table: usize,
    /// The piece of the position whose cell gives each slot's cell (on the reflection: the
    /// piece that the reflection turns into the slot's piece).
    sources: Vec<u8>,
    /// The cell of the lookup's entry for each cell of the position: the reflection's, or the
    /// identity (32 long, so that any cell of a `u32` mask indexes it).
    map: [u8; 32],
    /// Byte of this lookup in [`Values`].
    byte: usize,
}

/// The tables of a partition, ready for lookups.
#[derive(Debug)]
pub struct PatternDb {
    partition: Partition,
    tables: Vec<GroupTable>,
    lookups: Vec<Lookup>,
    /// For each piece (by home cell): the lookups whose entry it changes, with its slot there.
    affected: Vec<Vec<(usize, usize)>>,
}

impl PatternDb {
    /// Puts the tables of `partition` together (one per group, in order).
    pub fn new(partition: Partition, tables: Vec<GroupTable>) -> PatternDb {
        let board = partition.board();
        let reflection = mirror_cells(board);
        let mut lookups = Vec::new();
        let mut affected = vec![Vec::new(); board.cells()];
        for (g, table) in tables.iter().enumerate() {
            lookups.push(Lookup {
                table: g,
                sources: table.homes().to_vec(),
                map: cell_map(None),
                byte: g,
            });
            for (slot, &piece) in table.homes().iter().enumerate() {
                affected[usize::from(piece)].push((lookups.len() - 1, slot));
            }
        }
        if let Some(mirror) = &reflection {
            for (g, table) in tables.iter().enumerate() {
                let sources: Vec<u8> = table
                    .homes()
                    .iter()
                    .map(|&p| mirror[usize::from(p)])
                    .collect();
                for (slot, &piece) in sources.iter().enumerate() {
                    affected[usize::from(piece)].push((lookups.len(), slot));
                }
                lookups.push(Lookup {
                    table: g,
                    sources,
                    map: cell_map(Some(mirror)),
                    byte: MIRROR + g,
                });
            }
        }
        PatternDb {
            partition,
            tables,
            lookups,
            affected,
        }
    }

    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The first damage found in a table's file, if any (see [`super::Heuristic::damage`]).
    pub fn damage(&self) -> Option<String> {
        self.tables
            .iter()
            .find_map(|table| table.bits().damage().map(str::to_string))
    }

    /// Each table's checksum, in the partition's order (see [`Bits::checksum`]).
    pub fn checksums(&self) -> Vec<u32> {
        self.tables
            .iter()
            .map(|table| table.bits().checksum())
            .collect()
    }

    /// Reads every table whole now (a batch will look at nearly all of them), checking each
    /// block; the first damage found is the error.
    pub fn load_all(&self) -> Result<(), String> {
        self.tables
            .iter()
            .try_for_each(|table| table.bits().load_all())
    }

    /// The cells and blank of one lookup, with `at[piece]` the cell of each piece.
    #[inline]
    fn entry(&self, lookup: &Lookup, at: &[u8], blank: u8, cells: &mut [u8]) -> u8 {
        let map = |cell: u8| lookup.map[usize::from(cell & 31)];
        for (slot, &source) in cells.iter_mut().zip(&lookup.sources) {
            *slot = map(at[usize::from(source)]);
        }
        map(blank)
    }

    /// Every lookup's exact value, from scratch (by descent in each table); `at[piece]` is the
    /// cell of each piece (named by its home cell), `blank` the blank's cell.
    pub fn values(&self, at: &[u8], blank: u8) -> Values {
        let mut cells = [0u8; MAX_CELLS];
        let mut values = Values::default();
        for lookup in &self.lookups {
            let table = &self.tables[lookup.table];
            let cells = &mut cells[..lookup.sources.len()];
            let blank = self.entry(lookup, at, blank, cells);
            let value = u64::from(table.value(cells, blank).min(255) as u8);
            values[lookup.byte / 8] |= value << (8 * (lookup.byte % 8));
        }
        values
    }

    /// The estimate from the lookups' values: the larger of the two sums.
    #[inline]
    pub fn estimate(values: Values) -> u32 {
        let sum = |half: u64| (half.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
        sum(values[0]).max(sum(values[1]))
    }

    /// The estimate of a position, from scratch.
    pub fn estimate_position(&self, position: &Position) -> u32 {
        self.estimate_tiles(position.tiles())
    }

    /// The estimate of the tiles `tiles` (row by row, Knuth's numbering), from scratch.
    pub fn estimate_tiles(&self, tiles: &[u8]) -> u32 {
        let (at, blank) = tile_cells(tiles);
        Self::estimate(self.values(&at, blank))
    }

    /// Whether a move that changed the lookups' values from `before` to `after` is happy.
    #[inline]
    pub fn happy(before: Values, after: Values) -> bool {
        Self::estimate(after) < Self::estimate(before)
    }

    /// The lookups' values after `piece` moves from `from` into the blank at `to`, given their
    /// values before and the pieces' cells before the move.
    #[inline]
    pub fn step(&self, values: Values, at: &[u8], piece: u8, from: u8, to: u8) -> Values {
        let mut after = values;
        for &(l, slot) in &self.affected[usize::from(piece)] {
            let lookup = &self.lookups[l];
            let table = &self.tables[lookup.table];
            let map = |cell: u8| lookup.map[usize::from(cell & 31)];
            let cells = lookup.sources.iter().enumerate().map(|(i, &source)| {
                map(if i == slot {
                    to
                } else {
                    at[usize::from(source)]
                })
            });
            let index = table.placements().index_of(cells, map(from));
            let (word, shift) = (lookup.byte / 8, 8 * (lookup.byte % 8));
            let before = (values[word] >> shift) as u32 & 0xff;
            let value = table.next_value(before, index);
            after[word] = (after[word] & !(0xff << shift)) | u64::from(value) << shift;
        }
        after
    }
}

/// The cell map of a lookup: `reflection`'s, or the identity; cells past the board map to
/// themselves.
fn cell_map(reflection: Option<&[u8]>) -> [u8; 32] {
    let mut map = [0u8; 32];
    for (cell, m) in map.iter_mut().enumerate() {
        *m = reflection
            .and_then(|r| r.get(cell))
            .copied()
            .unwrap_or(cell as u8);
    }
    map
}

/// The cell of each piece (named by its home cell: tile `x` is piece `x - 1`) and the blank's.
pub fn piece_cells(position: &Position) -> ([u8; MAX_CELLS], u8) {
    tile_cells(position.tiles())
}

fn tile_cells(tiles: &[u8]) -> ([u8; MAX_CELLS], u8) {
    let mut at = [0u8; MAX_CELLS];
    let mut blank = 0;
    for (cell, &tile) in tiles.iter().enumerate() {
        if tile == 0 {
            blank = cell as u8;
        } else {
            at[usize::from(tile) - 1] = cell as u8;
        }
    }
    (at, blank)
}

/// Builds every table of `partition` in memory (with progress bars on a terminal).
pub fn build(partition: &Partition) -> Result<PatternDb, String> {
    let grid = Grid::new(partition.board());
    let groups = partition.groups();
    let tables = groups
        .iter()
        .enumerate()
        .map(|(g, tiles)| {
            let homes: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
            let label = format!("{partition} table {} of {}", g + 1, groups.len());
            let (bytes, _) = super::build::build(grid, &homes, &label)?;
            GroupTable::new(grid, homes, Bits::from_bytes(&bytes)?)
                .ok_or_else(|| format!("{label}: wrong table size"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PatternDb::new(partition.clone(), tables))
}
