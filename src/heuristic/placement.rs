//! Where a group's tiles stand and which region the blank is in, as a number: the index of a
//! table entry.
//!
//! A zero-aware value depends on the blank only through its *region*, the cells it reaches
//! without moving a group tile ([`super::table`]). So an entry is one region of one
//! placement, not one cell of the blank: a placement of `k` pieces on `n` cells is the *set*
//! of cells they occupy and the *order* of the pieces on it, and
//!
//! `index = order * pairs + pair(set, region)`
//!
//! - the set's rank is its position among the `C(n, k)` sets in colexicographic order (the
//!   sum of `C(c_i, i + 1)` over its cells in increasing order), found from the set's mask in
//!   three lookups in a table of partial sums ([`Layout::set_rank`]);
//! - the free cells of each set fall into regions, the largest first ([`set_regions`]); the
//!   *pair* of a set's first region is the set's rank, so that where the blank nearly always
//!   is the index needs nothing but the set's mask; the pairs of the other regions follow
//!   those of all sets, and each set's *labels* give the region of each free cell (a few bits
//!   each, by the cell's rank among the free cells) and where its other regions' pairs begin;
//! - the order is the Lehmer code of the pieces on the set: slot `s` counts the later slots on
//!   lower cells, with weight `(k - 1 - s)!` ([`Layout::order`]).
//!
//! The order is the index's high part: a move along a row of the board leaves the order as it
//! is and changes the set a little, so the entries a search looks at lie closer together than
//! with the pair high (Korf & Felner's #38, one thread: 6.0-6.8 s against 7.8-8.7 s, the
//! tables one entry a cell of the blank took 6.7-6.8 s). A lookup costs about 15% more
//! instructions than with one entry a cell (the set's rank and its first region), and the
//! smaller tables pay most of it back: Korf & Felner's five quickest on one thread 38.2 s
//! against 36.2 s (two threads: 23.2 s against 21.6 s) in 98 MB instead of 1.19 GB; Korf's
//! 100 with 7-8 in 0.22-0.24 s of search against 0.20-0.21 s, 0.37-0.39 s of CPU for the
//! process against 0.64-0.90 s (measured 2026-11-28, side by side, the same nodes).
//!
//! On 5x5 a 6-tile group has 1.42 regions a set against 19 free cells, so this takes 13 times
//! fewer entries than one per cell of the blank (22.6 MB a table instead of 303 MB); on 4x4
//! the 8-tile group of `7-8` has 2.75 regions a set against 8 free cells (178 MB instead of
//! 519 MB).
//!
//! Invariant: [`Layout::index`] is a bijection between (placement, region of a free cell) and
//! `0..entries`; [`Layout::order`] and [`Layout::unorder`] are inverse on each set; cell sets
//! are bit masks (`n <= 25`).

use super::grid::Grid;
use crate::board::MAX_CELLS;
use std::sync::{Arc, Mutex, OnceLock};

/// The table of colexicographic partial sums: what the cells of a part of a set's mask add to
/// its rank, the sum of `C(cell, below + t + 1)` over the part's `t`-th cell when `below` of
/// the set's cells lie under the part. Cells 0-8 (`low`, nothing below them), then 9-16 and
/// 17-24 (`high[part][below][byte]`): three lookups for any board up to 5x5, the same for
/// every group size.
struct Colex {
    low: [u32; 512],
    high: [[[u32; 256]; 32]; 2],
}

impl std::fmt::Debug for Colex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Colex")
    }
}

/// The first cell of each part of a mask after the low one.
const HIGH: [usize; 2] = [9, 17];

/// The table of colexicographic partial sums, made once per process.
fn colex() -> &'static Colex {
    static MADE: OnceLock<Box<Colex>> = OnceLock::new();
    MADE.get_or_init(|| {
        let binomial = |n: usize, r: usize| -> u32 {
            if r > n {
                return 0;
            }
            let c = (0..r as u64).fold(1u64, |c, i| c * (n as u64 - i) / (i + 1));
            u32::try_from(c).unwrap_or(u32::MAX)
        };
        // What the cells `first..` in `bits` add with `below` cells under them.
        let sum = |first: usize, bits: usize, below: usize| -> u32 {
            (0..9)
                .filter(|b| bits >> b & 1 == 1)
                .enumerate()
                .map(|(t, b)| binomial(first + b, below + t + 1))
                .sum()
        };
        let mut table = Box::new(Colex {
            low: [0; 512],
            high: [[[0; 256]; 32]; 2],
        });
        for (bits, low) in table.low.iter_mut().enumerate() {
            *low = sum(0, bits, 0);
        }
        for (part, rows) in table.high.iter_mut().enumerate() {
            for (below, row) in rows.iter_mut().enumerate() {
                for (bits, high) in row.iter_mut().enumerate() {
                    *high = sum(HIGH[part], bits, below);
                }
            }
        }
        table
    })
}

/// What one set of occupied cells contributes to the index: the region of each free cell (by
/// its rank among the free cells), and the pair of its region `r >= 1`, minus `r`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SetInfo {
    labels: u64,
    more: u64,
}

/// The regions of the cells that the set `occupied` leaves free, numbered as the tables number
/// them: the largest first (the lowest cell first among equals), where the blank nearly always
/// is; then the others in the order of their lowest cells.
pub fn set_regions(grid: Grid, occupied: u32) -> Vec<u32> {
    let open = grid.all() & !occupied;
    let mut todo = open;
    let mut regions = Vec::new();
    while todo != 0 {
        let region = grid.region(todo & todo.wrapping_neg(), open);
        todo &= !region;
        regions.push(region);
    }
    let largest = (0..regions.len())
        .max_by_key(|&r| (regions[r].count_ones(), std::cmp::Reverse(r)))
        .unwrap_or(0);
    let first = regions.remove(largest);
    regions.insert(0, first);
    regions
}

/// Calls `visit` with every set of `pieces` cells of `grid`'s board, in colexicographic order
/// (the order of their ranks), and its regions ([`set_regions`]).
pub fn each_set(grid: Grid, pieces: usize, mut visit: impl FnMut(u32, &[u32])) {
    let mut set = (1u32 << pieces) - 1;
    while set < 1 << grid.board().cells() {
        visit(set, &set_regions(grid, set));
        set = next_set(set);
    }
}

/// The set after `set` in colexicographic order: the next mask with as many bits (Gosper's).
fn next_set(set: u32) -> u32 {
    let low = set & set.wrapping_neg();
    let up = set + low;
    up | (((set ^ up) >> 2) / low)
}

/// The entries of the tables of `k`-piece groups on one board.
#[derive(Debug)]
pub struct Layout {
    grid: Grid,
    pieces: usize,
    /// `(k - 1 - s)!`: the weight of slot `s` in the order's Lehmer code.
    weight: Vec<u64>,
    orders: u64,
    colex: &'static Colex,
    sets: Vec<SetInfo>,
    /// The cells of each set's first region (apart from `sets`, which a lookup seldom needs:
    /// 0.7 MB for a 6-tile group on 5x5, which stays in a core's second-level cache). Measured
    /// and not kept (2026-11-29): each set's free cells outside its first region as a two-byte
    /// number of one of 3,321 such masks (0.35 MB): Korf & Felner's five quickest, one thread,
    /// 17.4-18.4 s against 17.6-19.3 s of CPU, within the noise of three rounds.
    first: Vec<u32>,
    label_bits: u32,
    label_mask: u64,
    regions: u64,
}

impl Layout {
    /// The layout of `pieces`-piece groups on `grid`'s board; an error when a board is so
    /// large that the labels of a set do not fit 64 bits (no board up to 5x5 with the pieces
    /// of a preset).
    pub fn new(grid: Grid, pieces: usize) -> Result<Layout, String> {
        let cells = grid.board().cells();
        if pieces == 0 || pieces >= cells || cells > MAX_CELLS {
            return Err(format!("no table of {pieces} pieces on {}", grid.board()));
        }
        let free = cells - pieces;
        let weight: Vec<u64> = (0..pieces)
            .map(|s| (1..(pieces - s) as u64).product())
            .collect();
        let orders = (1..=pieces as u64).product();

        // Every set in colexicographic order: the masks of `pieces` bits in increasing order.
        let mut labels: Vec<u8> = Vec::new();
        let mut counts: Vec<u8> = Vec::new();
        let mut first = Vec::new();
        each_set(grid, pieces, |set, regions| {
            let mut rest = grid.all() & !set;
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let label = regions.iter().position(|&r| r & cell != 0).unwrap_or(0);
                labels.push(label as u8);
            }
            counts.push(regions.len() as u8);
            first.push(regions.first().copied().unwrap_or(0));
        });
        let most = u32::from(counts.iter().copied().max().unwrap_or(1));
        let label_bits = 32 - (most - 1).leading_zeros();
        if label_bits as usize * free > 64 {
            return Err(format!(
                "no table of {pieces} pieces on {}: up to {most} regions of {free} cells",
                grid.board()
            ));
        }
        let mut sets = Vec::with_capacity(counts.len());
        // The pairs of the sets' other regions come after the first regions of all sets.
        let mut pairs = counts.len() as u64;
        for (count, own) in counts.iter().zip(labels.chunks(free)) {
            let labels = own.iter().enumerate().fold(0u64, |m, (i, &l)| {
                m | u64::from(l) << (label_bits as usize * i)
            });
            sets.push(SetInfo {
                labels,
                more: pairs.wrapping_sub(1),
            });
            pairs += u64::from(*count) - 1;
        }

        Ok(Layout {
            grid,
            pieces,
            weight,
            orders,
            colex: colex(),
            sets,
            first,
            label_bits,
            label_mask: (1 << label_bits) - 1,
            regions: pairs,
        })
    }

    /// The layout of `pieces`-piece groups on `grid`'s board, one per process: the tables of
    /// a partition's groups of equal size share it (and its room in the caches).
    pub fn shared(grid: Grid, pieces: usize) -> Result<Arc<Layout>, String> {
        static MADE: Mutex<Vec<Arc<Layout>>> = Mutex::new(Vec::new());
        let mut made = MADE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(layout) = made.iter().find(|l| l.grid == grid && l.pieces == pieces) {
            return Ok(Arc::clone(layout));
        }
        let layout = Arc::new(Layout::new(grid, pieces)?);
        made.push(Arc::clone(&layout));
        Ok(layout)
    }

    pub fn grid(&self) -> Grid {
        self.grid
    }

    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// Number of orders of the pieces on a set: `k!`.
    pub fn orders(&self) -> u64 {
        self.orders
    }

    /// Number of sets of occupied cells: `C(n, k)`.
    pub fn sets(&self) -> u64 {
        self.sets.len() as u64
    }

    /// Number of (set, region) pairs.
    pub fn regions(&self) -> u64 {
        self.regions
    }

    /// Number of table entries.
    pub fn entries(&self) -> u64 {
        self.regions * self.orders
    }

    /// The weight of slot `slot` in an order's rank, `(k - 1 - slot)!` (0 past the last slot).
    pub fn weight(&self, slot: usize) -> u64 {
        self.weight.get(slot).copied().unwrap_or(0)
    }

    /// The rank of the set of cells `occupied` (`k` of them).
    #[inline(always)]
    pub fn set_rank(&self, occupied: u32) -> usize {
        let m = occupied as usize;
        // (At most 24 cells below the last part: `& 31` tells the compiler so.)
        let below = |cells: usize| (m & ((1 << cells) - 1)).count_ones() as usize & 31;
        let colex = self.colex;
        (colex.low[m & 511]
            + colex.high[0][below(HIGH[0])][m >> HIGH[0] & 255]
            + colex.high[1][below(HIGH[1])][m >> HIGH[1] & 255]) as usize
    }

    /// The rank of the order of the pieces on `cells` (one cell per slot, all distinct).
    #[inline]
    pub fn order(&self, cells: &[u8]) -> u64 {
        let mut later = 0u32;
        let mut rank = 0;
        for (&cell, &weight) in cells.iter().zip(&self.weight).rev() {
            let lower = (later & ((1u32 << cell) - 1)).count_ones();
            rank += u64::from(lower) * weight;
            later |= 1 << cell;
        }
        rank
    }

    /// The cells of the slots whose order on the set `occupied` has rank `order`, written into
    /// `cells`.
    pub fn unorder(&self, mut order: u64, occupied: u32, cells: &mut [u8]) {
        let mut left = occupied;
        for (cell, &weight) in cells.iter_mut().zip(&self.weight) {
            let digit = order / weight;
            order %= weight;
            let mut pick = left;
            for _ in 0..digit {
                pick &= pick - 1;
            }
            let chosen = pick.trailing_zeros();
            *cell = chosen as u8;
            left &= !(1 << chosen);
        }
    }

    /// The region of the free cell `blank` of the set `info` of the cells `occupied`.
    #[inline(always)]
    fn label(&self, info: SetInfo, occupied: u32, blank: u8) -> u64 {
        let below = (occupied & ((1u32 << (blank & 31)) - 1)).count_ones();
        let shift = self.label_bits * (u32::from(blank) - below);
        (info.labels >> (shift & 63)) & self.label_mask
    }

    /// The number of regions of the set of rank `set`.
    pub fn regions_of(&self, set: usize) -> u64 {
        let more = |set: usize| {
            self.sets
                .get(set)
                .map_or(self.regions, |info| info.more.wrapping_add(1))
        };
        1 + more(set + 1) - more(set)
    }

    /// The (set, region) pair of the region of `blank`, a free cell of the set of rank `set`
    /// whose cells are `occupied`: the set's rank for its first region, whose entries come
    /// first; the others after those of every set.
    #[inline(always)]
    pub fn pair(&self, set: usize, occupied: u32, blank: u8) -> u64 {
        let first = self.first.get(set).copied().unwrap_or(0);
        if first >> (blank & 31) & 1 == 0 {
            // A branch, not a select: the blank is nearly always in the first region, and
            // then the table's word is asked for before the set's cells arrive.
            return self.other_region(set, occupied, blank);
        }
        set as u64
    }

    /// [`Layout::pair`] of a region other than the set's first (out of the way of the first's).
    #[cold]
    #[inline(never)]
    fn other_region(&self, set: usize, occupied: u32, blank: u8) -> u64 {
        let info = self.sets.get(set).copied().unwrap_or_default();
        info.more.wrapping_add(self.label(info, occupied, blank))
    }

    /// The index of the entry of the pieces in order `order` on the cells `occupied`, the
    /// blank on the free cell `blank`.
    #[inline(always)]
    pub fn index(&self, order: u64, occupied: u32, blank: u8) -> u64 {
        order * self.regions + self.pair(self.set_rank(occupied), occupied, blank)
    }

    /// The index of the entry of the pieces on `cells` (slot order) with the blank on `blank`.
    pub fn index_of(&self, cells: &[u8], blank: u8) -> u64 {
        self.index(self.order(cells), mask(cells), blank)
    }
}

/// Every placement of `k` pieces on `n` cells, in slot order (for tests).
#[cfg(test)]
pub fn every_placement(n: u8, k: usize) -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = vec![vec![]];
    for _ in 0..k {
        let mut longer = Vec::new();
        for p in &all {
            for c in (0..n).filter(|c| !p.contains(c)) {
                let mut q = p.clone();
                q.push(c);
                longer.push(q);
            }
        }
        all = longer;
    }
    all
}

/// The mask of the cells in `cells`.
#[inline]
pub fn mask(cells: &[u8]) -> u32 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn layout(rows: usize, cols: usize, pieces: usize) -> Layout {
        let grid = Grid::new(Board::new(rows, cols).expect("a board"));
        Layout::new(grid, pieces).expect("a layout")
    }

    #[test]
    fn sets_rank_in_colexicographic_order() {
        for (rows, cols, k) in [(2, 2, 1), (3, 3, 4), (4, 4, 7), (5, 5, 3)] {
            let layout = layout(rows, cols, k);
            let mut set = (1u32 << k) - 1;
            let mut rank = 0;
            while set < 1 << (rows * cols) {
                assert_eq!(layout.set_rank(set), rank, "{set:b}");
                rank += 1;
                set = next_set(set);
            }
            assert_eq!(rank as u64, layout.sets());
        }
    }

    #[test]
    fn orders_are_a_bijection_on_each_set() {
        let layout = layout(3, 3, 4);
        for cells in every_placement(9, 4) {
            let order = layout.order(&cells);
            assert!(order < layout.orders());
            let mut back = [0u8; 4];
            layout.unorder(order, mask(&cells), &mut back);
            assert_eq!(back.as_slice(), cells.as_slice());
        }
    }

    #[test]
    fn indices_cover_the_regions_of_every_placement_once() {
        for (rows, cols, k) in [(2, 3, 2), (3, 3, 4), (3, 4, 5), (4, 3, 3)] {
            let layout = layout(rows, cols, k);
            let grid = layout.grid();
            let mut seen = vec![false; layout.entries() as usize];
            for cells in every_placement((rows * cols) as u8, k) {
                let open = grid.all() & !mask(&cells);
                let mut todo = open;
                while todo != 0 {
                    let region = grid.region(todo & todo.wrapping_neg(), open);
                    todo &= !region;
                    // Every cell of a region has its index; no other region has it.
                    let first = layout.index_of(&cells, region.trailing_zeros() as u8);
                    let mut rest = region;
                    while rest != 0 {
                        let blank = rest.trailing_zeros() as u8;
                        rest &= rest - 1;
                        assert_eq!(layout.index_of(&cells, blank), first);
                    }
                    assert!(!seen[first as usize], "{cells:?} {region:b}");
                    seen[first as usize] = true;
                }
            }
            assert!(seen.iter().all(|&s| s), "{rows}x{cols} {k}");
        }
    }

    #[test]
    fn region_counts_are_those_of_the_boards() {
        // Counted by a flood fill over every set (1.42 regions a set on 5x5 with 6 tiles).
        for (rows, cols, k, regions, most) in [
            (3, 3, 8, 9, 1),
            (4, 4, 7, 27_748, 7),
            (4, 4, 8, 35_347, 8),
            (5, 5, 6, 251_400, 5),
        ] {
            let layout = layout(rows, cols, k);
            assert_eq!(layout.regions(), regions);
            let largest = (0..layout.sets() as usize)
                .map(|s| layout.regions_of(s))
                .max();
            assert_eq!(largest, Some(most));
        }
    }
}
