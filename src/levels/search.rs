//! The breadth-first enumeration, two bits a configuration (Korf's two-bit search), level by
//! level on every core.
//!
//! Each slot of [`Grid`]'s index holds one of four labels: unseen, *done*, or the label of the
//! level being expanded or of the one being found; levels take the labels 1 and 2 in turn. To
//! expand level `d`, every block with a slot labelled `d`'s label is read. Its moves along a row
//! stay in the block: their slots are found with a few shifts of its word, set in one atomic
//! `or` with the expanded slots' *done*. Its moves along a column carry a tile into another
//! order: their rank is the block's with a few of its Lehmer digits rewritten ([`Step`]), and
//! their slot is set by its own `or`. The digits are carried from block to block through a
//! chunk ([`Counter`]): neither the tiles' order nor a division is needed between chunks.
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
/// [`FEW`], all of them (read from the labels once the level is complete).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub size: u64,
    /// The least index (`block * cells + cell`) among them.
    pub first: u64,
    /// Every index, in increasing order, when `size <= FEW`; otherwise the first.
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
    /// The moves of the blank along its column, for each cell, as steps of one row: the
    /// first `column_steps[cell]` of `columns[cell]`.
    columns: [[Step; 2 * MAX_CELLS]; MAX_CELLS],
    column_steps: [u8; MAX_CELLS],
    /// By the parity of a slot's order: its Lehmer digit of index `tiles − 2`, in place.
    odd_digit: [u128; 2],
    /// `weight[i]`: the factorial of order index i's place, `(tiles − 1 − i)!`.
    weight: [u64; MAX_CELLS],
    lows: Lows,
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
        let reach = match metric {
            Metric::Stm => 1,
            Metric::Mtm => grid.rows() - 1,
        };
        let mut columns = [[Step::default(); 2 * MAX_CELLS]; MAX_CELLS];
        let mut column_steps = [0; MAX_CELLS];
        for c in 0..cells {
            let steps = Step::chains(cols, cells, c, reach);
            columns[c][..steps.len()].copy_from_slice(&steps);
            column_steps[c] = steps.len() as u8;
        }
        let odd_digit = [0, 1 << (8 * (grid.tiles() - 2))];
        let weight = std::array::from_fn(|i| grid.factorial(grid.tiles().saturating_sub(i + 1)));
        let chunks = words.len().div_ceil(CHUNK);
        let label = Self::label(levels.len() as u32 - 1);
        Enumeration {
            lows: Lows::new(&grid),
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
            column_steps,
            odd_digit,
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
        let few = self.gather(to, tally.size);
        let level = Level {
            size: tally.size,
            first: few.first().copied().unwrap_or(0),
            few,
        };
        if level.size > 0 {
            self.levels.push(level.size);
            self.last = level.clone();
        }
        Some(level)
    }

    /// The indices of the slots labelled `to`, in increasing order: all of them when they are
    /// at most [`FEW`], otherwise the first. The busy map names the chunks to read.
    fn gather(&self, to: u32, size: u64) -> Vec<u64> {
        let want = if size <= FEW as u64 { size as usize } else { 1 };
        let cells = self.grid.cells() as u64;
        let mut few = Vec::with_capacity(want);
        for chunk in (0..self.busy.len()).filter(|&c| self.busy[c].load(Relaxed) & to as u8 != 0) {
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(self.words.len());
            for block in start..end {
                let mut slots = labelled(self.words[block].load(Relaxed), to, self.low);
                while slots != 0 && few.len() < want {
                    few.push(block as u64 * cells + u64::from(slots.trailing_zeros() / 2));
                    slots &= slots - 1;
                }
                if few.len() == want {
                    return few;
                }
            }
        }
        few
    }

    fn expand_chunk(&self, chunk: usize, from: u32, to: u32, tally: &mut Tally) {
        let start = chunk * CHUNK;
        let end = (start + CHUNK).min(self.words.len());
        let mut counter = Counter::default();
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
            let fresh = near & labelled(old, 0, self.low);
            if fresh != 0 {
                tally.add(fresh.count_ones(), block, &self.busy, to);
            }
            // Along the columns: into other blocks, their lines asked for now and written a
            // few dozen moves later.
            let (digits, parity) = counter.seek(&self.grid, &self.lows, block as u64);
            let mut cells_left = front;
            while cells_left != 0 {
                let cell = (cells_left.trailing_zeros() / 2) as usize;
                cells_left &= cells_left - 1;
                self.along_columns(digits, parity, block as u64, cell, |rank, dest| {
                    let target = (rank / 2) as usize;
                    crate::sliding::bfs::prefetch(&self.words[target]);
                    if pending.push(target, dest) {
                        self.settle(&mut pending, to, tally);
                    }
                });
            }
        }
        self.settle(&mut pending, to, tally);
        self.busy[chunk].fetch_and(!(from as u8), Relaxed);
    }

    /// Visits the moves along a column from slot `cell` of `block`, given the Lehmer digits of
    /// the block's even rank and that order's parity: each move's rank and the blank's cell.
    #[inline(always)]
    fn along_columns(
        &self,
        digits: u128,
        parity: u8,
        block: u64,
        cell: usize,
        mut visit: impl FnMut(u64, u8),
    ) {
        // The slot's order: the block's even rank's, or the odd one after it.
        let odd = self.grid.parity(cell) ^ parity;
        let start = digits | self.odd_digit[usize::from(odd)];
        let base = 2 * block + u64::from(odd);
        let (mut moved, mut rank) = (start.to_le_bytes(), base);
        for step in &self.columns[cell][..usize::from(self.column_steps[cell])] {
            if !step.chained {
                (moved, rank) = (start.to_le_bytes(), base);
            }
            rank = rank.wrapping_add(step.rotate(&mut moved, &self.weight));
            visit(rank, step.dest);
        }
    }

    /// Labels the unseen among the pending moves' slots.
    fn settle(&self, pending: &mut Pending, to: u32, tally: &mut Tally) {
        for &(target, dest) in &pending.moves[..pending.len] {
            let shift = 2 * u32::from(dest);
            let word = &self.words[target];
            if (word.load(Relaxed) >> shift) & 3 != 0 {
                continue;
            }
            let old = word.fetch_or(to << shift, Relaxed);
            if (old >> shift) & 3 == 0 {
                tally.add(1, target, &self.busy, to);
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

/// One row of a move of the blank along its column: the order indices `a..=b` it rotates, and
/// the blank's cell after it. A move of several rows (the multi-tile metric) is a chain of
/// steps, each from where the one before left the blank.
///
/// The blank moving down, the tile below it comes up from index `b` to `a` and the tiles
/// between move one index on; moving up, the tile above it goes down from `a` to `b`. The
/// indices outside `a..=b` keep their tiles and their Lehmer digits (the tiles after them are
/// the same set), so only the rank's digits `a..=b` change. And they can be found from the
/// digits alone, without the tiles: the tile at `k` is smaller than the tile at `j > k` exactly
/// when `d[k]` is at most the rank of `j`'s tile among the tiles after `k`.
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    down: bool,
    a: u8,
    b: u8,
    dest: u8,
    /// The step goes on from the configuration of the step before, not from the slot's.
    chained: bool,
}

impl Step {
    /// The moves along the column of the blank in `cell`: up to `reach` rows each way.
    fn chains(cols: usize, cells: usize, cell: usize, reach: usize) -> Vec<Step> {
        let mut steps = Vec::new();
        for down in [true, false] {
            let mut at = cell;
            for row in 0..reach {
                let dest = if down {
                    at + cols
                } else {
                    at.wrapping_sub(cols)
                };
                if dest >= cells {
                    break;
                }
                let (a, b) = if down {
                    (at, at + cols - 1)
                } else {
                    (dest, at - 1)
                };
                steps.push(Step {
                    down,
                    a: a as u8,
                    b: b as u8,
                    dest: dest as u8,
                    chained: row > 0,
                });
                at = dest;
            }
        }
        steps
    }

    /// Rewrites the Lehmer digits `d` of an order as the step moves its tiles, and returns the
    /// change of the rank (mod 2⁶⁴) for the `weight`s of the indices.
    fn rotate(&self, d: &mut Order, weight: &[u64; MAX_CELLS]) -> u64 {
        let (a, b) = (usize::from(self.a), usize::from(self.b));
        let mut delta = 0u64;
        if self.down {
            // The tile `t` at `b` goes to `a`. `r`: its rank among the tiles after `k`.
            let mut r = d[b];
            delta = delta.wrapping_sub(u64::from(r) * weight[b]);
            for k in (a..b).rev() {
                let old = d[k];
                let smaller = u8::from(old <= r);
                r += smaller;
                // `t` no longer after it: one fewer, when `t` was smaller.
                let new = old + smaller - 1;
                delta = delta
                    .wrapping_add(u64::from(new) * weight[k + 1])
                    .wrapping_sub(u64::from(old) * weight[k]);
                d[k + 1] = new;
            }
            d[a] = r;
            delta.wrapping_add(u64::from(r) * weight[a])
        } else {
            // The tile `t` at `a` goes to `b`. `c`: the tiles smaller than `t` from `k` on.
            let mut c = d[a];
            delta = delta.wrapping_sub(u64::from(c) * weight[a]);
            for k in a + 1..=b {
                let old = d[k];
                let smaller = u8::from(old < c);
                c -= smaller;
                // `t` now after it: one more, when `t` is smaller.
                let new = old + 1 - smaller;
                delta = delta
                    .wrapping_add(u64::from(new) * weight[k - 1])
                    .wrapping_sub(u64::from(old) * weight[k]);
                d[k - 1] = new;
            }
            d[b] = c;
            delta.wrapping_add(u64::from(c) * weight[b])
        }
    }
}

/// Moves along a column waiting for their slot's line.
struct Pending {
    moves: [(usize, u8); PENDING],
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
        self.moves[self.len] = (target, dest);
        self.len += 1;
        self.len == PENDING
    }
}

/// The last [`LOW`] Lehmer digits (all of them on a board of fewer tiles) for each value of
/// the rank's part they make, `rank mod LOW!`, and their parity.
struct Lows {
    /// How many digits: the last `width` indices.
    width: usize,
    /// `width!`.
    modulus: u64,
    /// A byte a digit, the first index lowest.
    digits: Vec<u128>,
    parity: Vec<u8>,
}

/// Digits a [`Lows`] table holds: 720 entries.
const LOW: usize = 6;

impl Lows {
    fn new(grid: &Grid) -> Lows {
        let tiles = grid.tiles();
        let width = tiles.min(LOW);
        let modulus = grid.factorial(width);
        let (digits, parity) = (0..modulus)
            .map(|value| {
                // The value's digits are the rank's of the order of `width` tiles it ranks.
                let mut rest = value;
                let mut digits = [0u8; MAX_CELLS];
                let mut parity = 0;
                for (j, digit) in digits[tiles - width..tiles].iter_mut().enumerate() {
                    let f = grid.factorial(width - 1 - j);
                    *digit = (rest / f) as u8;
                    rest %= f;
                    parity ^= *digit & 1;
                }
                (u128::from_le_bytes(digits), parity)
            })
            .unzip();
        Lows {
            width,
            modulus,
            digits,
            parity,
        }
    }
}

/// The Lehmer digits of a block's even rank and their parity, carried from block to block
/// through a chunk: the next block's rank is two on, which the last [`LOW`] digits take from a
/// table, and the digit before them, with its carries, once in `LOW! / 2` blocks.
#[derive(Default)]
struct Counter {
    /// The block whose digits these are, once one is.
    block: Option<u64>,
    /// The digits before the last `LOW` (those zero), and their parity.
    high: Order,
    high_parity: u8,
    /// The rank mod `LOW!`.
    low: u64,
    /// The high digits as one number, a byte a digit (the first index lowest).
    high_bits: u128,
}

/// Blocks a counter steps through rather than find afresh with divisions.
const STRIDE: u64 = 64;

impl Counter {
    /// The digits of `block`'s even rank, a byte a digit (the first index lowest), and its
    /// order's parity. (As one number, not an array: a copy of an array just written a byte
    /// at a time waits for the writes to reach the cache, 12% of the time.)
    fn seek(&mut self, grid: &Grid, lows: &Lows, block: u64) -> (u128, u8) {
        let tiles = grid.tiles();
        match self.block {
            Some(at) if at <= block && block - at <= STRIDE => {
                self.low += 2 * (block - at);
                while self.low >= lows.modulus {
                    self.low -= lows.modulus;
                    self.carry(tiles - lows.width - 1, tiles);
                }
            }
            _ => {
                let (digits, parity) = grid.lehmer(2 * block);
                self.low = (2 * block) % lows.modulus;
                self.high = digits;
                self.high[tiles - lows.width..].fill(0);
                self.high_parity = parity ^ lows.parity[self.low as usize];
                self.high_bits = u128::from_le_bytes(self.high);
            }
        }
        self.block = Some(block);
        let low = self.low as usize;
        (
            self.high_bits | lows.digits[low],
            self.high_parity ^ lows.parity[low],
        )
    }

    /// Adds one to the high digit of index `i` (which can take it: the caller stays below the
    /// last block).
    fn carry(&mut self, mut i: usize, tiles: usize) {
        loop {
            self.high[i] += 1;
            self.high_parity ^= 1;
            if usize::from(self.high[i]) < tiles - i {
                self.high_bits = u128::from_le_bytes(self.high);
                return;
            }
            // Its base back to 0, and one into the digit before.
            self.high_parity ^= ((tiles - i) & 1) as u8;
            self.high[i] = 0;
            i -= 1;
        }
    }
}

/// A thread's count of the configurations it found, and how many of them it has reported.
#[derive(Default)]
struct Tally {
    size: u64,
    reported: u64,
}

impl Tally {
    /// Counts `found` configurations in `block`, and marks its chunk busy with `label`.
    fn add(&mut self, found: u32, block: usize, busy: &[AtomicU8], label: u32) {
        self.size += u64::from(found);
        let chunk = &busy[block / CHUNK];
        if chunk.load(Relaxed) & label as u8 == 0 {
            chunk.fetch_or(label as u8, Relaxed);
        }
    }

    fn merge(self, other: Tally) -> Tally {
        Tally {
            size: self.size + other.size,
            reported: self.reported + other.reported,
        }
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
        let boards = [
            (2, 2),
            (3, 3),
            (2, 4),
            (4, 2),
            (2, 3),
            (3, 2),
            (2, 5),
            (5, 2),
        ];
        for (rows, cols) in boards {
            for metric in [Metric::Stm, Metric::Mtm] {
                let grid = Grid::new(rows, cols, rows * cols - 1).unwrap();
                let enumeration = Enumeration::new(grid.clone(), metric);
                let cells = grid.cells();
                let mut counter = Counter::default();
                for block in 0..grid.blocks() {
                    let (digits, parity) = counter.seek(&grid, &enumeration.lows, block);
                    let (order, _) = grid.lehmer(2 * block);
                    assert_eq!(
                        (digits, parity),
                        (u128::from_le_bytes(order), grid.unrank(2 * block).1),
                        "counter at {block}"
                    );
                    for cell in 0..cells {
                        let board = grid.board(block, cell);
                        assert_eq!(grid.slot(&board[..cells]), Some((block, cell)));
                        let mut moves = 0;
                        enumeration.along_columns(digits, parity, block, cell, |rank, dest| {
                            let dest = usize::from(dest);
                            let moved = slide(&board, cols, cell, dest);
                            assert_eq!(
                                grid.slot(&moved[..cells]),
                                Some((rank / 2, dest)),
                                "{rows}x{cols} {metric:?}: block {block}, cell {cell} to {dest}"
                            );
                            assert_eq!(grid.order(rank / 2, dest), grid.unrank(rank).0);
                            moves += 1;
                        });
                        let (row, others) = (cell / cols, rows - 1);
                        let expected = match metric {
                            Metric::Stm => usize::from(row > 0) + usize::from(row < others),
                            Metric::Mtm => others,
                        };
                        assert_eq!(moves, expected, "{rows}x{cols} {metric:?}: cell {cell}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_counter_jumps_as_it_steps() {
        let grid = Grid::new(3, 4, 0).unwrap();
        let lows = Lows::new(&grid);
        let mut counter = Counter::default();
        let mut block = 0;
        for gap in (0..4000).map(|i| [1, 2, 3, 7, 64, 65, 1000, 64, 64, 63][i % 10]) {
            block += gap;
            let (digits, parity) = counter.seek(&grid, &lows, block);
            let (order, order_parity) = grid.lehmer(2 * block);
            assert_eq!((digits, parity), (u128::from_le_bytes(order), order_parity));
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
