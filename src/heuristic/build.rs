//! Building a zero-aware table by breadth-first search from the goal.
//!
//! The search runs over entries (placement, blank cell). Layer `d` holds the entries at
//! distance `d`. Expanding an entry expands its whole region at once (every cell of the region
//! has the same value): each group tile next to the region may step into it, at cost 1, and
//! the blank is then free in the new region of the cell the tile left, whose entries all get
//! `d + 1` if they have none yet. Layers are found by scanning the placements in parallel
//! (rayon); two threads may write the same entry, but only ever the same value, through atomics.
//!
//! Memory: half a byte an entry while building, plus the table itself (one bit an entry). The
//! half byte holds the value modulo 15 (15: none yet), so a scan for layer `d` also meets the
//! entries of layers `d - 15`, `d - 30`: expanding them again finds nothing new, which costs
//! time but no correctness. Bit 1 of an entry's value goes into the table when it is reached.
//! (The 4x4 8-tile table: 2.1 GB while building, instead of 4.2 GB with a byte an entry.)
//!
//! Invariant after layer `d`: exactly the entries at distance `<= d + 1` have values, their
//! half bytes are their distances modulo 15, and their table bits are bit 1 of the distances.

use super::grid::Grid;
use super::placement::{mask, Placements};
use super::table::GroupTable;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

/// No value yet (in a byte of [`byte_values`]).
#[cfg(test)]
const UNSEEN: u8 = u8::MAX;
/// No value yet, in a half byte.
const NONE: u8 = 15;
/// Placements scanned per parallel task.
const CHUNK: u64 = 1 << 12;
/// Distances no table reaches (the largest 4x4 8-tile value is 38).
const TOO_FAR: u8 = 250;

/// What a build found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildReport {
    pub entries: u64,
    /// Entries reached (all of them, unless the group and the blank fill the board).
    pub reached: u64,
    pub max_value: u8,
}

/// The values modulo 15 of the entries, two to a byte.
struct Residues(Vec<AtomicU8>);

impl Residues {
    fn new(entries: u64, label: &str) -> Result<Residues, String> {
        let bytes = entries.div_ceil(2) as usize;
        let mut cells: Vec<AtomicU8> = Vec::new();
        cells
            .try_reserve_exact(bytes)
            .map_err(|_| format!("not enough memory to build {label} ({bytes} bytes)"))?;
        cells.extend((0..bytes).map(|_| AtomicU8::new(0xff)));
        Ok(Residues(cells))
    }

    #[inline]
    fn get(&self, entry: u64) -> u8 {
        (self.0[(entry / 2) as usize].load(Relaxed) >> (4 * (entry % 2))) & 0xf
    }

    /// Gives `entry` the residue `code` if it has none; whether it had none.
    #[inline]
    fn claim(&self, entry: u64, code: u8) -> bool {
        let cell = &self.0[(entry / 2) as usize];
        let shift = 4 * (entry % 2);
        if (cell.load(Relaxed) >> shift) & 0xf != NONE {
            return false;
        }
        let before = cell.fetch_and(!((NONE ^ code) << shift), Relaxed);
        (before >> shift) & 0xf == NONE
    }
}

/// Builds the table of the pieces `homes` (named by home cell, in slot order) on `grid`, with
/// a progress bar labelled `label` on stderr (hidden when stderr is not a terminal).
pub fn build(grid: Grid, homes: &[u8], label: &str) -> Result<(GroupTable, BuildReport), String> {
    let cells = grid.board().cells();
    let placements = Placements::new(cells, homes.len());
    let entries = placements.entries();
    let free = placements.free() as u64;
    let residues = Residues::new(entries, label)?;
    let table_bytes = GroupTable::bytes(&placements) as usize;
    let mut bits: Vec<AtomicU8> = Vec::new();
    bits.try_reserve_exact(table_bytes)
        .map_err(|_| format!("not enough memory for {label} ({table_bytes} bytes)"))?;
    bits.extend((0..table_bytes).map(|_| AtomicU8::new(0)));

    let bar = ProgressBar::new(entries);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {percent}% {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let set = |rank: u64, region: u32, occupied: u32, value: u8| -> u64 {
        let mut newly = 0;
        let mut rest = region;
        while rest != 0 {
            let blank = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let entry = placements.index(rank, occupied, blank);
            if residues.claim(entry, value % NONE) {
                if (value >> 1) & 1 == 1 {
                    bits[(entry / 8) as usize].fetch_or(1 << (entry % 8), Relaxed);
                }
                newly += 1;
            }
        }
        newly
    };
    // The goal: every piece home, the blank anywhere in the region of its own home.
    let goal_occupied = mask(homes);
    let goal_region = grid.region(1 << (cells - 1), grid.all() & !goal_occupied);
    let mut reached = set(placements.rank(homes), goal_region, goal_occupied, 0);
    bar.inc(reached);

    let mut depth: u8 = 0;
    loop {
        bar.set_message(format!("{label}: distance {depth}"));
        let grew = AtomicBool::new(false);
        let found = AtomicU64::new(0);
        let code = depth % NONE;
        let chunks = placements.count().div_ceil(CHUNK);
        (0..chunks).into_par_iter().for_each(|chunk| {
            let mut placed = vec![0u8; homes.len()];
            let mut next = vec![0u8; homes.len()];
            let mut newly = 0;
            let end = ((chunk + 1) * CHUNK).min(placements.count());
            for rank in chunk * CHUNK..end {
                let base = rank * free;
                if !(base..base + free).any(|entry| residues.get(entry) == code) {
                    continue;
                }
                placements.unrank(rank, &mut placed);
                let occupied = mask(&placed);
                let open = grid.all() & !occupied;
                let mut done = 0u32;
                for blank in (0..cells as u8).filter(|b| open & 1 << b != 0) {
                    if done & 1 << blank != 0
                        || residues.get(placements.index(rank, occupied, blank)) != code
                    {
                        continue;
                    }
                    let region = grid.region(1 << blank, open);
                    done |= region;
                    for slot in 0..placed.len() {
                        let from = placed[slot];
                        let mut targets = grid.spread(1 << from) & region;
                        while targets != 0 {
                            let to = targets.trailing_zeros() as u8;
                            targets &= targets - 1;
                            next.copy_from_slice(&placed);
                            next[slot] = to;
                            let now = mask(&next);
                            let region = grid.region(1 << from, grid.all() & !now);
                            newly += set(placements.rank(&next), region, now, depth + 1);
                        }
                    }
                }
            }
            if newly > 0 {
                grew.store(true, Relaxed);
                found.fetch_add(newly, Relaxed);
                bar.inc(newly);
            }
        });
        reached += found.load(Relaxed);
        if !grew.load(Relaxed) {
            break;
        }
        depth += 1;
        if depth == TOO_FAR {
            return Err(format!("{label}: distances beyond {depth}"));
        }
    }
    bar.finish_and_clear();
    drop(residues);
    let bits = bits.into_iter().map(AtomicU8::into_inner).collect();
    let table = GroupTable::new(grid, homes.to_vec(), bits)
        .ok_or_else(|| format!("{label}: wrong table size"))?;
    Ok((
        table,
        BuildReport {
            entries,
            reached,
            max_value: depth,
        },
    ))
}

/// The exact values of every entry, as bytes ([`UNSEEN`] where unreachable): the same search,
/// for tests that check the bits and the descent against it.
#[cfg(test)]
pub fn byte_values(grid: Grid, homes: &[u8]) -> Vec<u8> {
    // A plain, single-threaded breadth-first search with a queue of regions.
    let cells = grid.board().cells();
    let placements = Placements::new(cells, homes.len());
    let mut values = vec![UNSEEN; placements.entries() as usize];
    let mut queue = std::collections::VecDeque::new();
    let goal_occupied = mask(homes);
    let goal_region = grid.region(1 << (cells - 1), grid.all() & !goal_occupied);
    let mark = |values: &mut Vec<u8>, cells: &[u8], region: u32, value: u8| -> bool {
        let rank = placements.rank(cells);
        let occupied = mask(cells);
        let mut fresh = false;
        let mut rest = region;
        while rest != 0 {
            let blank = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let v = &mut values[placements.index(rank, occupied, blank) as usize];
            if *v == UNSEEN {
                *v = value;
                fresh = true;
            }
        }
        fresh
    };
    mark(&mut values, homes, goal_region, 0);
    queue.push_back((homes.to_vec(), goal_region, 0u8));
    while let Some((cells_now, region, value)) = queue.pop_front() {
        for slot in 0..cells_now.len() {
            let from = cells_now[slot];
            for to in grid.neighbours(from).filter(|&to| region & 1 << to != 0) {
                let mut next = cells_now.clone();
                next[slot] = to;
                let new_region = grid.region(1 << from, grid.all() & !mask(&next));
                if mark(&mut values, &next, new_region, value + 1) {
                    queue.push_back((next, new_region, value + 1));
                }
            }
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn check(rows: usize, cols: usize, homes: &[u8]) {
        let grid = Grid::new(Board::new(rows, cols).expect("valid board"));
        let (table, report) = build(grid, homes, "test").expect("builds");
        let exact = byte_values(grid, homes);
        let placements = table.placements().clone();
        assert_eq!(report.entries, exact.len() as u64);
        let reached = exact.iter().filter(|&&v| v != UNSEEN).count() as u64;
        assert_eq!(report.reached, reached);
        if homes.len() + 1 < rows * cols {
            assert_eq!(reached, report.entries, "every entry is reachable");
        }
        let mut cells = vec![0u8; homes.len()];
        for rank in 0..placements.count() {
            placements.unrank(rank, &mut cells);
            let occupied = mask(&cells);
            for blank in (0..(rows * cols) as u8).filter(|b| occupied & 1 << b == 0) {
                let index = placements.index(rank, occupied, blank);
                let value = exact[index as usize];
                if value == UNSEEN {
                    continue;
                }
                assert_eq!(table.bit(index), u32::from(value >> 1) & 1);
                if rank % 7 == 0 {
                    assert_eq!(
                        table.value(&cells, blank),
                        u32::from(value),
                        "{cells:?} {blank}"
                    );
                }
            }
        }
    }

    #[test]
    fn bits_and_descent_match_a_plain_search() {
        check(2, 3, &[0, 1, 2, 3, 4]); // the whole 2x3 puzzle: half the entries reachable
        check(3, 3, &[0, 1, 3]);
        check(3, 3, &[4, 7, 2, 6]);
        check(3, 4, &[0, 5, 10]);
    }
}
