//! The breadth-first enumeration, two bits a configuration (Korf's two-bit search), level by
//! level on every core.
//!
//! Each slot of [`Grid`]'s index holds one of four labels: unseen, *done*, or the label of the
//! level being expanded or of the one being found; levels take the labels 1 and 2 in turn. To
//! expand level `d`, every block with a slot labelled `d`'s label is read. Its moves along a row
//! stay in the block: their slots are found with a few shifts of its word, set in one atomic
//! `or` with the expanded slots' *done*. Its moves along a column carry a tile into another
//! order: their rank is found from the block's order, and their slot set by its own `or`.
//!
//! Invariant: when level `d + 1` is complete, the slots labelled with its label hold exactly the
//! configurations at distance `d + 1`; every slot of a smaller distance is *done* or (level `d`
//! until its block is read) labelled `d`'s label. It holds because a move changes the distance
//! by at most one, and because the only write into a slot while a level is found is the unseen
//! slot taking the next label: threads that race on one slot write the same bits, and the `or`'s
//! old value says which of them found it, so each configuration is counted once.
//!
//! A map of *busy* chunks (one flag a label for every [`CHUNK`] words) lets a level read only the
//! chunks it has slots in: the first and last levels, a few configurations each, read almost
//! nothing.

use super::grid::{Grid, Order, MAX_CELLS};
use crate::mtm::Metric;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Words a chunk: a thread's unit of work, and the grain of the busy map.
pub const CHUNK: usize = 1 << 12;

/// A level keeps the indices of its configurations when it has at most this many.
pub const FEW: usize = 64;

const DONE: u32 = 3;

/// What a level found: its size, its first configuration (by index) and, when it has at most
/// [`FEW`], all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub size: u64,
    /// The least index (`block * cells + cell`) among them.
    pub first: u64,
    /// Every index, in increasing order, when `size <= FEW`; otherwise some of them.
    pub few: Vec<u64>,
}

/// The enumeration of one board and metric: the labels, the busy map and the level sizes.
pub struct Enumeration {
    grid: Grid,
    metric: Metric,
    words: Vec<AtomicU32>,
    busy: Vec<AtomicU8>,
    levels: Vec<u64>,
    /// What the last level done found (level 0: the start).
    last: Level,
    /// Bit `2c` for every cell `c`.
    low: u32,
    /// The cells with a cell to their right, and to their left (as bits `2c`).
    has_right: u32,
    has_left: u32,
    /// The cells of each row.
    rows: Vec<u32>,
    /// The moves of the blank along its column, for each cell.
    columns: Vec<Vec<Shift>>,
    /// `weight[i]`: the factorial of order index i's place, `(tiles − 1 − i)!`.
    weight: [u64; MAX_CELLS],
}

/// Bit `2c` for every slot `c` of `word` labelled `label`.
fn labelled(word: u32, label: u32, low: u32) -> u32 {
    let x = !(word ^ (label * low));
    x & (x >> 1) & low
}

impl Enumeration {
    /// The start alone at distance 0. Its words are the system's zeroed pages, so memory is
    /// taken as levels reach it.
    pub fn new(grid: Grid, metric: Metric) -> Enumeration {
        let words = bytemuck::zeroed_vec(grid.blocks() as usize);
        let start = grid.blank() as u64;
        let last = Level {
            size: 1,
            first: start,
            few: vec![start],
        };
        let enumeration = Enumeration::with_words(grid, metric, words, vec![1], last);
        let blank = enumeration.grid.blank();
        enumeration.words[0].store(1 << (2 * blank), Relaxed);
        for (chunk, busy) in enumeration.busy.iter().enumerate() {
            busy.store(u8::from(chunk == 0), Relaxed);
        }
        enumeration
    }

    /// An enumeration resumed: the words, the sizes of the levels done (the last level's
    /// slots labelled, none of a later one) and what the last found. Every chunk counts as busy
    /// for the next level.
    pub fn with_words(
        grid: Grid,
        metric: Metric,
        words: Vec<AtomicU32>,
        levels: Vec<u64>,
        last: Level,
    ) -> Enumeration {
        let cells = grid.cells();
        let cols = grid.cols();
        let low = (0..cells).fold(0u32, |m, c| m | 1 << (2 * c));
        let mut has_right = 0;
        let mut has_left = 0;
        for c in 0..cells {
            if c % cols + 1 < cols {
                has_right |= 1 << (2 * c);
            }
            if c % cols > 0 {
                has_left |= 1 << (2 * c);
            }
        }
        let rows = (0..grid.rows())
            .map(|r| (0..cols).fold(0u32, |m, c| m | 1 << (2 * (r * cols + c))))
            .collect();
        let columns = (0..cells)
            .map(|c| {
                (0..grid.rows())
                    .map(|r| r * cols + c % cols)
                    .filter(|&to| {
                        let rows_apart = (to / cols).abs_diff(c / cols);
                        rows_apart == 1 || (metric == Metric::Mtm && rows_apart > 1)
                    })
                    .map(|to| Shift::new(cols, c, to))
                    .collect()
            })
            .collect();
        let weight = std::array::from_fn(|i| grid.factorial(grid.tiles().saturating_sub(i + 1)));
        let chunks = words.len().div_ceil(CHUNK);
        let label = Self::label(levels.len() as u32 - 1);
        Enumeration {
            grid,
            metric,
            words,
            weight,
            busy: (0..chunks).map(|_| AtomicU8::new(label as u8)).collect(),
            levels,
            last,
            low,
            has_right,
            has_left,
            rows,
            columns,
        }
    }

    /// The label of level `d`.
    fn label(d: u32) -> u32 {
        1 + (d & 1)
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The sizes of the levels done, from distance 0.
    pub fn levels(&self) -> &[u64] {
        &self.levels
    }

    /// The labels, a word a block.
    pub fn words(&self) -> &[AtomicU32] {
        &self.words
    }

    /// What the last level done found: at the end, the farthest configurations.
    pub fn last(&self) -> &Level {
        &self.last
    }

    /// The bytes the enumeration holds: its labels and its busy map.
    pub fn bytes(grid: &Grid) -> u64 {
        grid.blocks() * 4 + grid.blocks().div_ceil(CHUNK as u64)
    }

    /// The last distance done.
    pub fn distance(&self) -> u32 {
        self.levels.len() as u32 - 1
    }

    /// Expands the last level: finds the next one, and adds its size to the levels when it
    /// has any configuration. `found` counts the configurations as they are found. `None`
    /// when `stop` was raised before the level was complete: the labels are then of no use.
    pub fn expand(&mut self, found: &AtomicU64, stop: &AtomicBool) -> Option<Level> {
        let from = Self::label(self.distance());
        let to = Self::label(self.distance() + 1);
        let tally = (0..self.busy.len())
            .into_par_iter()
            .filter(|&chunk| self.busy[chunk].load(Relaxed) & from as u8 != 0)
            .fold(Tally::default, |mut tally, chunk| {
                if stop.load(Relaxed) {
                    return tally;
                }
                self.expand_chunk(chunk, from, to, &mut tally);
                found.fetch_add(tally.size - tally.reported, Relaxed);
                tally.reported = tally.size;
                tally
            })
            .reduce(Tally::default, Tally::merge);
        if stop.load(Relaxed) {
            return None;
        }
        let mut few = tally.few;
        few.sort_unstable();
        let level = Level {
            size: tally.size,
            first: tally.first,
            few,
        };
        if level.size > 0 {
            self.levels.push(level.size);
            self.last = level.clone();
        }
        Some(level)
    }

    fn expand_chunk(&self, chunk: usize, from: u32, to: u32, tally: &mut Tally) {
        let start = chunk * CHUNK;
        let end = (start + CHUNK).min(self.words.len());
        let cells = self.grid.cells() as u64;
        let mut walker = Walker::default();
        let mut pending = Pending::default();
        for block in start..end {
            let word = self.words[block].load(Relaxed);
            let front = labelled(word, from, self.low);
            if front == 0 {
                continue;
            }
            // Along the rows: in this word.
            let near = self.along_rows(front) & labelled(word, 0, self.low);
            let old = self.words[block].fetch_or((near * to) | (front * (DONE ^ from)), Relaxed);
            let mut fresh = near & labelled(old, 0, self.low);
            while fresh != 0 {
                let slot = block as u64 * cells + u64::from(fresh.trailing_zeros() / 2);
                tally.add(slot, &self.busy, to, self.grid.cells());
                fresh &= fresh - 1;
            }
            // Along the columns: into other blocks, their lines asked for now and written a
            // few dozen moves later.
            let (order, parity) = walker.seek(&self.grid, block as u64);
            let mut orders = Orders::new(block as u64, order, parity);
            let mut cells_left = front;
            while cells_left != 0 {
                let cell = (cells_left.trailing_zeros() / 2) as usize;
                cells_left &= cells_left - 1;
                let p = usize::from(self.grid.parity(cell));
                for shift in &self.columns[cell] {
                    let rank = orders.moved(self.grid.tiles(), &self.weight, p, shift);
                    let target = (rank / 2) as usize;
                    crate::sliding::bfs::prefetch(&self.words[target]);
                    if pending.push(target, shift.dest) {
                        self.settle(&mut pending, to, tally);
                    }
                }
            }
        }
        self.settle(&mut pending, to, tally);
        self.busy[chunk].fetch_and(!(from as u8), Relaxed);
    }

    /// Labels the unseen among the pending moves' slots.
    fn settle(&self, pending: &mut Pending, to: u32, tally: &mut Tally) {
        let cells = self.grid.cells() as u64;
        for &(target, dest) in &pending.moves[..pending.len] {
            let shift = 2 * u32::from(dest);
            let word = &self.words[target as usize];
            if (word.load(Relaxed) >> shift) & 3 != 0 {
                continue;
            }
            let old = word.fetch_or(to << shift, Relaxed);
            if (old >> shift) & 3 == 0 {
                tally.add(
                    target * cells + u64::from(dest),
                    &self.busy,
                    to,
                    self.grid.cells(),
                );
            }
        }
        pending.len = 0;
    }

    /// The slots one move along a row away from the slots `front`.
    fn along_rows(&self, front: u32) -> u32 {
        match self.metric {
            Metric::Stm => ((front & self.has_right) << 2) | ((front & self.has_left) >> 2),
            Metric::Mtm => self
                .rows
                .iter()
                .filter(|&&row| row & front != 0)
                .fold(0, |m, &row| m | row),
        }
    }
}

/// A move of the blank along a column, from a cell to another: the order indices `lo..=hi`
/// it rewrites, and for each the index its tile comes from.
#[derive(Clone, Debug)]
struct Shift {
    dest: u8,
    lo: usize,
    source: Vec<u8>,
}

impl Shift {
    fn new(cols: usize, from: usize, dest: usize) -> Shift {
        // The cell at new index i is i (the blank moving down: the cells from `from` to
        // `dest − 1`) or i + 1 (moving up). A cell of the blank's column takes the tile of
        // the cell a row further on; the others keep theirs. Old indices skip `from`.
        let (lo, hi) = (from.min(dest), from.max(dest) - 1);
        let old_index = |cell: usize| if cell > from { cell - 1 } else { cell };
        let source = (lo..=hi)
            .map(|i| {
                let cell = if dest > from { i } else { i + 1 };
                let tile_from = if cell % cols != from % cols {
                    cell
                } else if dest > from {
                    cell + cols
                } else {
                    cell - cols
                };
                old_index(tile_from) as u8
            })
            .collect();
        Shift {
            dest: dest as u8,
            lo,
            source,
        }
    }
}

/// The two orders of a block (ranks `2k` and `2k + 1`), with what a move's rank needs: the
/// rank and the tiles at and after each index, filled when a move first asks for a parity.
struct Orders {
    /// By parity: the block's order of that parity.
    order: [Order; 2],
    rank: [u64; 2],
    ready: [bool; 2],
    /// `after[p][i]`: the tiles at index `i` and after in `order[p]`.
    after: [[u32; MAX_CELLS + 1]; 2],
}

impl Orders {
    /// The orders of `block`, from its even rank's order and that order's parity.
    fn new(block: u64, order: Order, parity: u8) -> Orders {
        let p = usize::from(parity);
        let mut orders = Orders {
            order: [order; 2],
            rank: [2 * block; 2],
            ready: [false; 2],
            after: [[0; MAX_CELLS + 1]; 2],
        };
        orders.rank[p ^ 1] += 1;
        orders
    }

    fn fill(&mut self, tiles: usize, p: usize) {
        if self.rank[p] % 2 == 1 {
            self.order[p].swap(tiles - 2, tiles - 1);
        }
        for i in (0..tiles).rev() {
            self.after[p][i] = self.after[p][i + 1] | 1 << self.order[p][i];
        }
        self.ready[p] = true;
    }

    /// The rank of the order after `shift`, from a slot of parity `p`. Only the indices it
    /// rewrites change, and so only their digits of the rank (the Lehmer code: the tiles
    /// after an index smaller than its own, times the factorial of its place).
    fn moved(&mut self, tiles: usize, weight: &[u64; MAX_CELLS], p: usize, shift: &Shift) -> u64 {
        if !self.ready[p] {
            self.fill(tiles, p);
        }
        let order = &self.order[p];
        let after = &self.after[p];
        let mut left = after[shift.lo];
        let mut rank = self.rank[p];
        for (i, &source) in (shift.lo..).zip(&shift.source) {
            let tile = order[usize::from(source)];
            let old = order[i];
            let digit = (left & ((1u32 << tile) - 1)).count_ones();
            let old_digit = (after[i + 1] & ((1u32 << old) - 1)).count_ones();
            rank = rank + u64::from(digit) * weight[i] - u64::from(old_digit) * weight[i];
            left &= !(1 << tile);
        }
        rank
    }
}

/// Moves along a column waiting for their slot's line.
struct Pending {
    moves: [(u64, u8); PENDING],
    len: usize,
}

/// How many moves wait: enough misses in flight to cover a miss's latency.
const PENDING: usize = 32;

impl Default for Pending {
    fn default() -> Pending {
        Pending {
            moves: [(0, 0); PENDING],
            len: 0,
        }
    }
}

impl Pending {
    /// Adds a move; `true` when they are now as many as can wait.
    fn push(&mut self, target: usize, dest: u8) -> bool {
        self.moves[self.len] = (target as u64, dest);
        self.len += 1;
        self.len == PENDING
    }
}

/// The order of a block's even rank, carried from block to block through a chunk: the next
/// block's is two lexicographic successors on, found without the divisions of an unrank.
#[derive(Default)]
struct Walker {
    /// The block whose order this is, once one is.
    block: Option<u64>,
    order: Order,
    parity: u8,
}

/// Blocks a walker steps through rather than unrank afresh.
const STRIDE: u64 = 4;

impl Walker {
    /// The even rank's order of `block` and its parity.
    fn seek(&mut self, grid: &Grid, block: u64) -> (Order, u8) {
        match self.block {
            Some(at) if at <= block && block - at <= STRIDE => {
                let tiles = grid.tiles();
                for _ in at..block {
                    self.parity ^= next_permutation(&mut self.order[..tiles]);
                    self.parity ^= next_permutation(&mut self.order[..tiles]);
                }
            }
            _ => (self.order, self.parity) = grid.unrank(2 * block),
        }
        self.block = Some(block);
        (self.order, self.parity)
    }
}

/// Steps `order` to its lexicographic successor (which exists: the caller stays below the
/// last rank) and returns the parity of the change.
fn next_permutation(order: &mut [u8]) -> u8 {
    let n = order.len();
    let mut i = n - 1;
    while i > 0 && order[i - 1] > order[i] {
        i -= 1;
    }
    if i == 0 {
        return 0;
    }
    let mut j = n - 1;
    while order[j] < order[i - 1] {
        j -= 1;
    }
    order.swap(i - 1, j);
    order[i..].reverse();
    // One swap, and the reversal's `(n − i) / 2`.
    (1 + ((n - i) / 2) as u8) & 1
}

/// A thread's count of the configurations it found, with the least index and the first few.
#[derive(Default)]
struct Tally {
    size: u64,
    reported: u64,
    first: u64,
    few: Vec<u64>,
}

impl Tally {
    fn add(&mut self, slot: u64, busy: &[AtomicU8], label: u32, cells: usize) {
        if self.size == 0 || slot < self.first {
            self.first = slot;
        }
        self.size += 1;
        if self.few.len() < FEW {
            self.few.push(slot);
        }
        let chunk = (slot / cells as u64) as usize / CHUNK;
        if busy[chunk].load(Relaxed) & label as u8 == 0 {
            busy[chunk].fetch_or(label as u8, Relaxed);
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        if other.size > 0 && (self.size == 0 || other.first < self.first) {
            self.first = other.first;
        }
        self.size += other.size;
        self.reported += other.reported;
        self.few.extend(other.few);
        self.few.truncate(FEW);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board after the blank's move from `from` to `dest` along a column, made by hand.
    fn slide(board: &[u8; MAX_CELLS], cols: usize, from: usize, dest: usize) -> [u8; MAX_CELLS] {
        let mut board = *board;
        let mut at = from;
        while at != dest {
            let next = if dest > from { at + cols } else { at - cols };
            board.swap(at, next);
            at = next;
        }
        board
    }

    #[test]
    fn a_move_s_rank_is_the_rank_of_the_moved_board_on_every_configuration() {
        for (rows, cols) in [(3, 3), (2, 4), (4, 2), (2, 3), (3, 2)] {
            for metric in [Metric::Stm, Metric::Mtm] {
                let grid = Grid::new(rows, cols, rows * cols - 1).unwrap();
                let enumeration = Enumeration::new(grid.clone(), metric);
                let cells = grid.cells();
                let mut walker = Walker::default();
                for block in 0..grid.blocks() {
                    let (order, parity) = walker.seek(&grid, block);
                    assert_eq!((order, parity), grid.unrank(2 * block), "walker at {block}");
                    let mut orders = Orders::new(block, order, parity);
                    for cell in 0..cells {
                        let board = grid.board(block, cell);
                        assert_eq!(grid.slot(&board[..cells]), Some((block, cell)));
                        let p = usize::from(grid.parity(cell));
                        for shift in &enumeration.columns[cell] {
                            let rank = orders.moved(grid.tiles(), &enumeration.weight, p, shift);
                            let dest = usize::from(shift.dest);
                            let moved = slide(&board, cols, cell, dest);
                            assert_eq!(
                                grid.slot(&moved[..cells]),
                                Some((rank / 2, dest)),
                                "{rows}x{cols} {metric:?}: block {block}, cell {cell} to {dest}"
                            );
                            assert_eq!(grid.order(rank / 2, dest), grid.unrank(rank).0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_level_is_counted_once_whatever_the_threads() {
        let levels = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let grid = Grid::new(2, 5, 0).unwrap();
                let mut enumeration = Enumeration::new(grid, Metric::Stm);
                let (found, stop) = (AtomicU64::new(0), AtomicBool::new(false));
                while enumeration.expand(&found, &stop).unwrap().size > 0 {}
                assert_eq!(found.load(Relaxed), 1_814_400 - 1);
                enumeration.levels().to_vec()
            })
        };
        assert_eq!(levels(1), levels(4));
    }
}
