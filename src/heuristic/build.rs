//! Building a zero-aware table by breadth-first search from the goal.
//!
//! The search runs over entries (placement, blank cell). Layer `d` holds the entries at
//! distance `d`. Expanding an entry expands its whole region at once (every cell of the region
//! has the same value): each group tile next to the region may step into it, at cost 1, and
//! the blank is then free in the new region of the cell the tile left, whose entries all get
//! `d + 1` if they have none yet. Entries are thus reached a region at a time: the entries of a
//! region are all seen or all not, and any one of them tells for the region.
//!
//! Memory: four bits an entry while building (the 4x4 8-tile table: 2.1 GB). The table itself,
//! one bit an entry; the marks, two bits an entry interleaved, `seen` (the entry has a value)
//! and `next` (it was reached in the layer being built), so that one `fetch_or` claims a whole
//! region of a placement; and the frontier, one bit an entry: the layer being expanded.
//!
//! A layer is expanded in one of two ways, over chunks of placements in parallel (rayon):
//!
//! - forwards, while the layer is smaller than what is not seen yet: the frontier is scanned a
//!   word at a time (empty placements cost nothing), and each move out of a frontier region
//!   loads the `seen` bit of the cell the tile left; only where that bit is clear is the new
//!   region worked out and its `seen` and `next` bits or-ed in. The loads of a batch of moves
//!   go before its claims, so that their cache misses overlap. Two threads may claim the same
//!   region, but only ever for the same layer;
//! - backwards, in the last layers: each region not seen yet looks for a move back into the
//!   frontier (one bit each), and its marks are set by the task that owns its placement, with
//!   plain writes.
//!
//! The rank of the placement a move leads to is the placement's rank plus the change in the
//! digits of the moving slot and of the later slots on cells between (see [`Placed::moved`]).
//! After the layer one pass moves the `next` bits into the frontier and, every entry of layer
//! `d + 1` having the same table bit (bit 1 of `d + 1`), ors that bit into the table: no
//! random writes to the table, and no layer is expanded twice.
//!
//! Invariant after layer `d` and its pass: the `seen` bits are exactly the entries at distance
//! `<= d + 1`, the frontier bits exactly those at distance `d + 1`, no `next` bit is set, and
//! the table bits of the entries at distance `<= d + 1` are bit 1 of their distances (the
//! others are 0).

use super::grid::Grid;
use super::placement::{mask, Placements};
use super::table::GroupTable;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// No value yet (in a byte of [`byte_values`]).
#[cfg(test)]
const UNSEEN: u8 = u8::MAX;
/// Placements scanned per parallel task.
const CHUNK: u64 = 1 << 12;
/// Frontier words per parallel task of the pass after a layer.
const PASS_WORDS: usize = 1 << 12;
/// Moves whose `seen` bits are loaded before any of their regions is claimed.
const BATCH: usize = 64;
/// Distances no table reaches (the largest 4x4 8-tile value is 38).
const TOO_FAR: u8 = 250;
/// The `seen` bits of a word of marks (the `next` bits are the odd ones).
const SEEN: u64 = 0x5555_5555_5555_5555;

/// What a build found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildReport {
    pub entries: u64,
    /// Entries reached (all of them, unless the group and the blank fill the board).
    pub reached: u64,
    pub max_value: u8,
}

/// `len` copies of `make()`, or an error naming `what` if the memory is not there.
fn allocate<T>(len: u64, make: impl Fn() -> T, what: &str) -> Result<Vec<T>, String> {
    let bytes = len.saturating_mul(std::mem::size_of::<T>() as u64);
    let error = || format!("not enough memory to build {what} ({bytes} bytes)");
    let len = usize::try_from(len).map_err(|_| error())?;
    let mut cells: Vec<T> = Vec::new();
    cells.try_reserve_exact(len).map_err(|_| error())?;
    cells.extend((0..len).map(|_| make()));
    Ok(cells)
}

/// A region of a placement to claim: its `seen` and `next` bits in `marks[word]` (`low`) and
/// `marks[word + 1]` (`high`).
#[derive(Clone, Copy)]
struct Target {
    word: usize,
    low: u64,
    high: u64,
}

/// The target for the region `region` of the placement of rank `rank` on `occupied`.
#[inline]
fn target(free: u64, rank: u64, occupied: u32, region: u32) -> Target {
    // Two bits (seen, next) for each blank cell of the region, by its rank among the free cells.
    let mut pair = 0u64;
    let mut rest = region;
    while rest != 0 {
        let blank = rest.trailing_zeros();
        rest &= rest - 1;
        let below = (occupied & ((1u32 << blank) - 1)).count_ones();
        pair |= 3 << (2 * (blank - below));
    }
    let bit = 2 * rank * free;
    let wide = u128::from(pair) << (bit % 64);
    Target {
        word: (bit / 64) as usize,
        low: wide as u64,
        high: (wide >> 64) as u64,
    }
}

/// A move found by expanding the frontier: the placement it leads to (its rank and occupied
/// cells) and the cell the piece left, where the blank now is.
#[derive(Clone, Copy)]
struct Move {
    rank: u64,
    occupied: u32,
    blank: u32,
}

/// Claims the regions the moves of `batch` lead to that are not seen yet: first all the
/// loads (one `seen` bit tells for the whole region), then the regions and `fetch_or`s of the
/// fresh ones.
fn claim(grid: Grid, free: u64, marks: &[AtomicU64], batch: &mut Vec<Move>) {
    let mut fresh = [false; BATCH];
    for (fresh, m) in fresh.iter_mut().zip(batch.iter()) {
        let below = (m.occupied & ((1 << m.blank) - 1)).count_ones();
        let bit = 2 * (m.rank * free + u64::from(m.blank - below));
        *fresh = marks[(bit / 64) as usize].load(Relaxed) >> (bit % 64) & 1 == 0;
    }
    for (_, m) in fresh.iter().zip(batch.iter()).filter(|(&f, _)| f) {
        let region = grid.region(1 << m.blank, grid.all() & !m.occupied);
        let t = target(free, m.rank, m.occupied, region);
        if t.low != 0 {
            marks[t.word].fetch_or(t.low, Relaxed);
        }
        if t.high != 0 {
            marks[t.word + 1].fetch_or(t.high, Relaxed);
        }
    }
    batch.clear();
}

/// The even bits of `x`, packed into 32 bits.
#[inline]
fn even_bits(x: u64) -> u64 {
    let mut x = x & SEEN;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) & 0x0000_0000_ffff_ffff
}

/// Moves the `next` bits into the frontier (which they replace) and, if `bit`, ors them into the
/// table bits; the number of entries moved.
fn advance(marks: &mut [AtomicU64], frontier: &mut [u64], bits: &mut [u8], bit: bool) -> u64 {
    frontier
        .par_chunks_mut(PASS_WORDS)
        .zip(marks.par_chunks_mut(2 * PASS_WORDS))
        .zip(bits.par_chunks_mut(8 * PASS_WORDS))
        .map(|((frontier, marks), bits)| {
            let mut moved = 0;
            for (i, word) in frontier.iter_mut().enumerate() {
                let mut take = |k: usize| {
                    marks.get_mut(k).map_or(0, |m| {
                        let m = m.get_mut();
                        if *m & !SEEN == 0 {
                            return 0;
                        }
                        let next = even_bits(*m >> 1);
                        *m &= SEEN;
                        next
                    })
                };
                let next = take(2 * i) | take(2 * i + 1) << 32;
                if *word != next {
                    *word = next;
                }
                if next != 0 {
                    moved += u64::from(next.count_ones());
                    if bit {
                        let bytes = bits.iter_mut().skip(8 * i);
                        for (b, n) in bytes.zip(next.to_le_bytes()) {
                            *b |= n;
                        }
                    }
                }
            }
            moved
        })
        .sum()
}

/// The first frontier entry in `from..end`, if any.
#[inline]
fn first_set(frontier: &[u64], from: u64, end: u64) -> Option<u64> {
    let mut w = (from / 64) as usize;
    let mut word = frontier[w] & (!0u64 << (from % 64));
    while word == 0 {
        w += 1;
        if (w as u64) * 64 >= end {
            return None;
        }
        word = frontier[w];
    }
    let entry = w as u64 * 64 + u64::from(word.trailing_zeros());
    (entry < end).then_some(entry)
}

/// The `len` (at most 32) frontier bits from entry `from`.
#[inline]
fn bits_at(frontier: &[u64], from: u64, len: u64) -> u32 {
    let w = (from / 64) as usize;
    let shift = from % 64;
    let mut word = frontier[w] >> shift;
    if shift + len > 64 {
        word |= frontier[w + 1] << (64 - shift);
    }
    (word & ((1u64 << len) - 1)) as u32
}

/// The cells of `open` whose ranks among them are the bits of `ranks`.
#[inline]
fn cells_of(ranks: u32, open: u32) -> u32 {
    let mut cells = 0u32;
    let mut rest = open;
    let mut k = 0;
    while rest != 0 {
        let cell = rest.trailing_zeros();
        rest &= rest - 1;
        cells |= (ranks >> k & 1) << cell;
        k += 1;
    }
    cells
}

/// The number of placements of the slots after each slot on the cells left (the weights of
/// the digits of a rank, as in [`Placements`]).
fn slot_weights(cells: usize, pieces: usize) -> Vec<u64> {
    (0..pieces)
        .map(|i| {
            (0..pieces - 1 - i)
                .map(|j| (cells - 1 - i - j) as u64)
                .product()
        })
        .collect()
}

/// The `n`-th (from 0) set bit of `m`, which has more than `n`.
#[inline]
fn select(mut m: u32, mut n: u32) -> u32 {
    let mut cell = 0;
    for width in [16, 8, 4, 2, 1] {
        let below = (m & ((1 << width) - 1)).count_ones();
        if n >= below {
            n -= below;
            m >>= width;
            cell += width;
        }
    }
    cell
}

/// Most pieces in a group (one cell of the largest board stays free).
const MAX_PIECES: usize = 24;

/// A placement, ready to rank the placements one move away from it.
struct Placed {
    rank: u64,
    cells: [u8; MAX_PIECES],
    pieces: usize,
    occupied: u32,
    /// The cells of the slots before each slot, and after it.
    earlier: [u32; MAX_PIECES],
    later: [u32; MAX_PIECES],
    /// The weight of each slot, and of the slot on each cell.
    weights: [u64; MAX_PIECES],
    weight_at: [u64; 32],
    /// The cells of the first `prefix` slots (those of weight at least [`PREFIX`]) depend only
    /// on `rank / weights[prefix - 1]`: they are placed again only when that changes from
    /// `key`. `prefix_used`: their cells.
    prefix: usize,
    key: u64,
    prefix_used: u32,
}

/// The shortest run of ranks over which [`Placed`] keeps the cells of its first slots.
const PREFIX: u64 = 1 << 10;

impl Placed {
    fn new(weights: &[u64]) -> Placed {
        let pieces = weights.len();
        let mut placed = Placed {
            rank: 0,
            cells: [0; MAX_PIECES],
            pieces,
            occupied: 0,
            earlier: [0; MAX_PIECES],
            later: [0; MAX_PIECES],
            weights: [0; MAX_PIECES],
            weight_at: [0; 32],
            prefix: weights.iter().take_while(|&&w| w >= PREFIX).count(),
            key: u64::MAX,
            prefix_used: 0,
        };
        placed.weights[..pieces].copy_from_slice(weights);
        placed
    }

    /// Places the slots of `slots` from `rest`, what is left of the rank after the slots
    /// before them, on the cells not in `used`; the cells used then.
    #[inline]
    fn place(&mut self, slots: std::ops::Range<usize>, mut rest: u64, mut used: u32) -> u32 {
        for slot in slots {
            let weight = self.weights[slot];
            let cell = select(!used, (rest / weight) as u32);
            rest %= weight;
            self.cells[slot] = cell as u8;
            self.earlier[slot] = used;
            self.weight_at[cell as usize] = weight;
            used |= 1 << cell;
        }
        used
    }

    /// Becomes the placement of rank `rank`.
    #[inline]
    fn unrank(&mut self, rank: u64) {
        self.rank = rank;
        let mut start = 0;
        let mut rest = rank;
        let mut used = 0;
        if self.prefix > 0 {
            let weight = self.weights[self.prefix - 1];
            let key = rank / weight;
            if key != self.key {
                self.key = key;
                self.prefix_used = self.place(0..self.prefix, rank, 0);
            }
            start = self.prefix;
            rest = rank % weight;
            used = self.prefix_used;
        }
        let used = self.place(start..self.pieces, rest, used);
        self.occupied = used;
        for slot in 0..self.pieces {
            self.later[slot] = used & !self.earlier[slot] & !(1 << self.cells[slot]);
        }
    }

    /// The rank of the placement in which the piece of `slot` has moved from its cell `from`
    /// to the free cell `to`: only the digits of that slot and of the later slots on cells
    /// between `from` and `to` change.
    #[inline]
    fn moved(&self, slot: usize, from: u32, to: u32) -> u64 {
        let (low, high) = if from < to { (from, to) } else { (to, from) };
        let between = (1u32 << high) - (2u32 << low);
        let mut delta = 0;
        let mut rest = self.later[slot] & between;
        while rest != 0 {
            delta += self.weight_at[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        let digit = high - low - (self.earlier[slot] & between).count_ones();
        delta += self.weights[slot] * u64::from(digit);
        if to > from {
            self.rank + delta
        } else {
            self.rank - delta
        }
    }
}

/// Expands the frontier forwards: claims every region one move away from it.
fn push(
    grid: Grid,
    placements: &Placements,
    weights: &[u64],
    marks: &[AtomicU64],
    frontier: &[u64],
    bar: &ProgressBar,
) {
    let free = placements.free() as u64;
    let chunks = placements.count().div_ceil(CHUNK);
    (0..chunks).into_par_iter().for_each(|chunk| {
        let mut placed = Placed::new(weights);
        let mut batch = Vec::with_capacity(BATCH);
        let mut expanded = 0;
        let end = ((chunk + 1) * CHUNK).min(placements.count());
        let mut rank = chunk * CHUNK;
        while let Some(entry) = first_set(frontier, rank * free, end * free) {
            rank = entry / free;
            let layer = bits_at(frontier, rank * free, free);
            expanded += u64::from(layer.count_ones());
            placed.unrank(rank);
            let occupied = placed.occupied;
            let open = grid.all() & !occupied;
            let mut todo = cells_of(layer, open);
            while todo != 0 {
                let region = grid.region(todo & todo.wrapping_neg(), open);
                todo &= !region;
                for slot in 0..placed.pieces {
                    let from = u32::from(placed.cells[slot]);
                    let mut targets = grid.spread(1 << from) & region;
                    while targets != 0 {
                        let to = targets.trailing_zeros();
                        targets &= targets - 1;
                        batch.push(Move {
                            rank: placed.moved(slot, from, to),
                            occupied: occupied ^ (1 << from) ^ (1 << to),
                            blank: from,
                        });
                        if batch.len() == BATCH {
                            claim(grid, free, marks, &mut batch);
                        }
                    }
                }
            }
            rank += 1;
            if rank >= end {
                break;
            }
        }
        claim(grid, free, marks, &mut batch);
        if expanded > 0 {
            bar.inc(expanded);
        }
    });
}

/// Expands the frontier backwards: every region not seen yet that is one move away from it
/// gets its `seen` and `next` bits. Each task owns the marks of its placements, so these are
/// plain writes.
fn pull(
    grid: Grid,
    placements: &Placements,
    weights: &[u64],
    marks: &mut [AtomicU64],
    frontier: &[u64],
) {
    let free = placements.free() as u64;
    // A chunk's marks: 2 * free * CHUNK bits, a whole number of words.
    let words = (2 * free * CHUNK / 64) as usize;
    marks
        .par_chunks_mut(words)
        .enumerate()
        .for_each(|(chunk, marks)| {
            let mut placed = Placed::new(weights);
            let first = chunk as u64 * CHUNK;
            let end = (first + CHUNK).min(placements.count());
            let mut rank = first;
            while rank < end {
                let bit = 2 * free * (rank - first);
                let (w, shift) = ((bit / 64) as usize, bit % 64);
                // Skip the placements of words whose entries are all seen.
                let full = |m: &mut AtomicU64| *m.get_mut() & SEEN == SEEN;
                if full(&mut marks[w]) {
                    let mut v = w + 1;
                    while v < marks.len() && full(&mut marks[v]) {
                        v += 1;
                    }
                    let after = first + v as u64 * 64 / (2 * free);
                    if after > rank {
                        rank = after;
                        continue;
                    }
                }
                let mut pairs = *marks[w].get_mut() >> shift;
                if shift + 2 * free > 64 {
                    pairs |= *marks[w + 1].get_mut() << (64 - shift);
                }
                let unseen = !even_bits(pairs) & ((1u64 << free) - 1);
                let here = rank;
                rank += 1;
                if unseen == 0 {
                    continue;
                }
                placed.unrank(here);
                let occupied = placed.occupied;
                let open = grid.all() & !occupied;
                let mut todo = cells_of(unseen as u32, open);
                while todo != 0 {
                    let region = grid.region(todo & todo.wrapping_neg(), open);
                    todo &= !region;
                    let reached = (0..placed.pieces).any(|slot| {
                        // The tile came from a cell `from` of the region, leaving the blank on
                        // `to`, its cell now, in a region of the frontier.
                        let to = u32::from(placed.cells[slot]);
                        let mut froms = grid.spread(1 << to) & region;
                        while froms != 0 {
                            let from = froms.trailing_zeros();
                            froms &= froms - 1;
                            let before = occupied ^ (1 << to) ^ (1 << from);
                            let below = (before & ((1 << to) - 1)).count_ones();
                            let entry = placed.moved(slot, to, from) * free + u64::from(to - below);
                            if frontier[(entry / 64) as usize] >> (entry % 64) & 1 == 1 {
                                return true;
                            }
                        }
                        false
                    });
                    if reached {
                        let t = target(free, here - first, occupied, region);
                        *marks[t.word].get_mut() |= t.low;
                        if t.high != 0 {
                            *marks[t.word + 1].get_mut() |= t.high;
                        }
                    }
                }
            }
        });
}

/// Whether to expand a layer of `layer` entries backwards, with `unseen` entries not seen yet:
/// when these are fewer. Backwards costs a little less an unseen entry than forwards a layer
/// entry (the 4x4 8-tile table: about 40 and 52 ns), so the two break even near equal counts.
fn backwards(unseen: u64, layer: u64) -> bool {
    unseen < layer
}

/// Builds the bits of the table of the pieces `homes` (named by home cell, in slot order) on
/// `grid` (the payload of a [`GroupTable`]), with a progress bar labelled `label` on stderr
/// (hidden when stderr is not a terminal).
pub fn build(grid: Grid, homes: &[u8], label: &str) -> Result<(Vec<u8>, BuildReport), String> {
    search(grid, homes, label, backwards)
}

/// [`build`], expanding a layer backwards when `pull_when(unseen, layer)` says so.
fn search(
    grid: Grid,
    homes: &[u8],
    label: &str,
    pull_when: fn(u64, u64) -> bool,
) -> Result<(Vec<u8>, BuildReport), String> {
    let cells = grid.board().cells();
    if homes.len() > MAX_PIECES || homes.len() >= cells {
        return Err(format!("{label}: no table for {} pieces", homes.len()));
    }
    let placements = Placements::new(cells, homes.len());
    let entries = placements.entries();
    let free = placements.free() as u64;
    let weights = slot_weights(cells, homes.len());
    let mut marks = allocate(entries.div_ceil(32), || AtomicU64::new(0), label)?;
    let mut frontier = allocate(entries.div_ceil(64), || 0u64, label)?;
    let mut bits = allocate(GroupTable::bytes(&placements), || 0u8, label)?;

    let bar = ProgressBar::new(entries);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {percent}% {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // The goal: every piece home, the blank anywhere in the region of its own home.
    let goal_occupied = mask(homes);
    let mut goal = vec![Move {
        rank: placements.rank(homes),
        occupied: goal_occupied,
        blank: cells as u32 - 1,
    }];
    claim(grid, free, &marks, &mut goal);
    let mut reached = advance(&mut marks, &mut frontier, &mut bits, false);

    let mut layer = reached;
    let mut depth: u8 = 0;
    loop {
        bar.set_message(format!("{label}: distance {depth}"));
        if pull_when(entries - reached, layer) {
            pull(grid, &placements, &weights, &mut marks, &frontier);
            bar.inc(layer);
        } else {
            push(grid, &placements, &weights, &marks, &frontier, &bar);
        }
        let bit = (depth + 1) >> 1 & 1 == 1;
        let found = advance(&mut marks, &mut frontier, &mut bits, bit);
        if found == 0 {
            break;
        }
        reached += found;
        layer = found;
        depth += 1;
        if depth == TOO_FAR {
            return Err(format!("{label}: distances beyond {depth}"));
        }
    }
    bar.finish_and_clear();
    drop(marks);
    drop(frontier);
    Ok((
        bits,
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
        let policies: [fn(u64, u64) -> bool; 3] = [backwards, |_, _| false, |_, _| true];
        for pull_when in policies {
            check_with(rows, cols, homes, pull_when);
        }
    }

    fn check_with(rows: usize, cols: usize, homes: &[u8], pull_when: fn(u64, u64) -> bool) {
        let grid = Grid::new(Board::new(rows, cols).expect("valid board"));
        let (bytes, report) = search(grid, homes, "test", pull_when).expect("builds");
        let bits = crate::heuristic::bits::Bits::from_bytes(&bytes).expect("memory");
        let table = GroupTable::new(grid, homes.to_vec(), bits).expect("the right size");
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
    fn moves_rank_as_placements_do() {
        for (rows, cols, pieces) in [(2, 3, 5), (3, 4, 4), (4, 4, 8), (5, 5, 6)] {
            let grid = Grid::new(Board::new(rows, cols).expect("valid board"));
            let placements = Placements::new(rows * cols, pieces);
            let mut placed = Placed::new(&slot_weights(rows * cols, pieces));
            let mut cells = vec![0u8; pieces];
            // Samples, each with the next ranks (which [`Placed`] unranks from its prefix).
            let step = placements.count() / 997 + 1;
            let ranks = (0..placements.count())
                .step_by(step as usize)
                .flat_map(|rank| rank..(rank + 3).min(placements.count()));
            for rank in ranks {
                placements.unrank(rank, &mut cells);
                placed.unrank(rank);
                assert_eq!(&placed.cells[..pieces], &cells[..]);
                assert_eq!(placed.occupied, mask(&cells));
                for slot in 0..pieces {
                    let from = cells[slot];
                    for to in grid.neighbours(from).filter(|&to| !cells.contains(&to)) {
                        let mut next = cells.clone();
                        next[slot] = to;
                        let moved = placed.moved(slot, u32::from(from), u32::from(to));
                        assert_eq!(moved, placements.rank(&next), "{cells:?} {slot} {to}");
                    }
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
