//! Building a zero-aware table by breadth-first search from the goal.
//!
//! The search runs over the table's entries, one per placement and region of the blank
//! ([`super::placement`]). Layer `d` holds the entries at distance `d`. From an entry, each
//! group tile next to the blank's region may step into it, at cost 1; the blank is then in the
//! region of the cell the tile left, in the new placement. The moves of an entry and of the
//! entries it reaches are each other's reverse, so the search may go either way.
//!
//! Memory: four bits an entry while building (the 4x4 8-tile table: 0.7 GB). The table itself,
//! one bit an entry; the marks, two bits an entry interleaved, `seen` (the entry has a value)
//! and `next` (it was reached in the layer being built), so that one `fetch_or` sets both; and
//! the frontier, one bit an entry: the layer being expanded.
//!
//! A layer is expanded in one of two ways, over chunks of entries in parallel (rayon):
//!
//! - forwards, while the layer is smaller than what is not seen yet: the frontier is scanned a
//!   word at a time (empty words cost nothing), and each move out of a frontier entry loads
//!   the `seen` bit of the entry it leads to; only where that bit is clear are its `seen` and
//!   `next` bits or-ed in. The loads of a batch of moves go before its claims, so that their
//!   cache misses overlap. Two threads may claim the same entry, but only ever for the same
//!   layer;
//! - backwards, in the last layers: each entry not seen yet looks for a move into the frontier
//!   (one bit each), and its marks are set by the task that owns it, with plain writes.
//!
//! After the layer one pass moves the `next` bits into the frontier and, every entry of layer
//! `d + 1` having the same table bit (bit 1 of `d + 1`), ors that bit into the table: no
//! random writes to the table, and no layer is expanded twice.
//!
//! Invariant after layer `d` and its pass: the `seen` bits are exactly the entries at distance
//! `<= d + 1`, the frontier bits exactly those at distance `d + 1`, no `next` bit is set, and
//! the table bits of the entries at distance `<= d + 1` are bit 1 of their distances (the
//! others are 0).

use super::grid::Grid;
use super::placement::{each_set, Layout};
use super::table::GroupTable;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries scanned per parallel task (a whole number of words of marks).
const CHUNK: u64 = 1 << 14;
/// Frontier words per parallel task of the pass after a layer.
const PASS_WORDS: usize = 1 << 12;
/// Moves whose `seen` bits are loaded before any of them is claimed.
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

/// Claims the entries of `batch` that are not seen yet: first all the loads, then a
/// `fetch_or` of `seen` and `next` for each fresh one.
fn claim(marks: &[AtomicU64], batch: &mut Vec<u64>) {
    let mut fresh = [false; BATCH];
    for (fresh, &entry) in fresh.iter_mut().zip(batch.iter()) {
        *fresh = marks[(entry / 32) as usize].load(Relaxed) >> (2 * (entry % 32)) & 1 == 0;
    }
    for (_, &entry) in fresh.iter().zip(batch.iter()).filter(|(&f, _)| f) {
        marks[(entry / 32) as usize].fetch_or(3 << (2 * (entry % 32)), Relaxed);
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

/// Most pieces in a group (one cell of the largest board stays free).
const MAX_PIECES: usize = 24;

/// The entries of a table as the search walks them: for each (set, region) pair, the cells of
/// the set, and the moves out of its entries, the same for every order of the pieces.
struct Pairs<'a> {
    layout: &'a Layout,
    occupied: Vec<u32>,
    /// The moves of pair `p` are `steps[first[p]..first[p + 1]]`.
    first: Vec<usize>,
    steps: Vec<Step>,
}

/// A move out of the entries of a pair: the piece on `from`, next to the pair's region, steps
/// into it (`to`); the entry it leads to is in `pair` whatever the order of the pieces (the
/// blank is in the region of `from`).
#[derive(Clone, Copy)]
struct Step {
    from: u8,
    to: u8,
    pair: u32,
}

impl Pairs<'_> {
    fn new<'a>(layout: &'a Layout, what: &str) -> Result<Pairs<'a>, String> {
        let grid = layout.grid();
        let mut occupied = allocate(layout.regions(), || 0u32, what)?;
        let mut region = allocate(layout.regions(), || 0u32, what)?;
        let (mut rank, mut more) = (0, layout.sets() as usize);
        each_set(grid, layout.pieces(), |set, regions| {
            // As the layout numbers them: the first region of each set by its rank, the others
            // after those of every set.
            for (r, &cells) in regions.iter().enumerate() {
                let pair = if r == 0 { rank } else { more };
                more += usize::from(r > 0);
                (occupied[pair], region[pair]) = (set, cells);
            }
            rank += 1;
        });
        let mut first = Vec::with_capacity(region.len() + 1);
        let mut steps = Vec::new();
        for (&occupied, &region) in occupied.iter().zip(&region) {
            first.push(steps.len());
            let mut froms = occupied & grid.spread(region);
            while froms != 0 {
                let from = froms.trailing_zeros() as u8;
                froms &= froms - 1;
                let mut targets = grid.spread(1 << from) & region;
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    let next = occupied ^ (1 << from) ^ (1 << to);
                    let pair = layout.index(0, next, from) as u32;
                    steps.push(Step { from, to, pair });
                }
            }
        }
        first.push(steps.len());
        Ok(Pairs {
            layout,
            occupied,
            first,
            steps,
        })
    }

    /// The entries one move away from `entry`, each passed to `reached` (which says whether
    /// to go on); `order` holds the ranks among the set's cells of the slots of an order
    /// (made anew when it is another's).
    #[inline]
    fn moves(&self, entry: u64, order: &mut Order, mut reached: impl FnMut(u64) -> bool) {
        let layout = self.layout;
        let regions = layout.regions();
        let (pair, rank) = ((entry % regions) as usize, entry / regions);
        let pieces = layout.pieces();
        if order.rank != rank {
            order.rank = rank;
            layout.unorder(rank, (1 << pieces) - 1, &mut order.ranks[..pieces]);
        }
        let mut sorted = [0u8; MAX_PIECES];
        let mut rest = self.occupied[pair];
        for cell in sorted.iter_mut().take(pieces) {
            *cell = rest.trailing_zeros() as u8;
            rest &= rest.wrapping_sub(1);
        }
        let mut cells = [0u8; MAX_PIECES];
        let mut slot_on = [0u8; 32];
        for (slot, (cell, &r)) in cells.iter_mut().zip(&order.ranks[..pieces]).enumerate() {
            *cell = sorted[usize::from(r) % MAX_PIECES];
            slot_on[usize::from(*cell & 31)] = slot as u8;
        }
        let cells = &mut cells[..pieces];
        for step in &self.steps[self.first[pair]..self.first[pair + 1]] {
            let slot = usize::from(slot_on[usize::from(step.from & 31)]);
            cells[slot] = step.to;
            let next = layout.order(cells) * regions + u64::from(step.pair);
            cells[slot] = step.from;
            if !reached(next) {
                return;
            }
        }
    }
}

/// An order of the pieces, as the ranks among the set's cells of the cells of its slots
/// ([`Pairs::moves`]).
struct Order {
    rank: u64,
    ranks: [u8; MAX_PIECES],
}

impl Order {
    fn new() -> Order {
        Order {
            rank: u64::MAX,
            ranks: [0; MAX_PIECES],
        }
    }
}

/// Expands the frontier forwards: claims every entry one move away from it.
fn push(pairs: &Pairs, marks: &[AtomicU64], frontier: &[u64], bar: &ProgressBar) {
    let entries = pairs.layout.entries();
    let chunks = entries.div_ceil(CHUNK);
    (0..chunks).into_par_iter().for_each(|chunk| {
        let mut batch = Vec::with_capacity(BATCH);
        let mut order = Order::new();
        let mut expanded = 0;
        let first = chunk * CHUNK;
        let end = (first + CHUNK).min(entries);
        let words = (first / 64) as usize..end.div_ceil(64) as usize;
        for (&word, w) in frontier[words.clone()].iter().zip(words) {
            let mut word = word;
            while word != 0 {
                let entry = w as u64 * 64 + u64::from(word.trailing_zeros());
                word &= word - 1;
                expanded += 1;
                pairs.moves(entry, &mut order, |next| {
                    batch.push(next);
                    if batch.len() == BATCH {
                        claim(marks, &mut batch);
                    }
                    true
                });
            }
        }
        claim(marks, &mut batch);
        if expanded > 0 {
            bar.inc(expanded);
        }
    });
}

/// Expands the frontier backwards: every entry not seen yet that is one move away from it gets
/// its `seen` and `next` bits. Each task owns the marks of its entries, so these are plain
/// writes.
fn pull(pairs: &Pairs, marks: &mut [AtomicU64], frontier: &[u64]) {
    let entries = pairs.layout.entries();
    marks
        .par_chunks_mut((CHUNK / 32) as usize)
        .enumerate()
        .for_each(|(chunk, marks)| {
            let first = chunk as u64 * CHUNK;
            let mut order = Order::new();
            for (w, word) in marks.iter_mut().enumerate() {
                let word = word.get_mut();
                let mut unseen = !even_bits(*word) & 0xffff_ffff;
                while unseen != 0 {
                    let bit = unseen.trailing_zeros();
                    unseen &= unseen - 1;
                    let entry = first + 32 * w as u64 + u64::from(bit);
                    if entry >= entries {
                        break;
                    }
                    let mut found = false;
                    pairs.moves(entry, &mut order, |next| {
                        found = frontier[(next / 64) as usize] >> (next % 64) & 1 == 1;
                        !found
                    });
                    if found {
                        *word |= 3 << (2 * bit);
                    }
                }
            }
        });
}

/// Whether to expand a layer of `layer` entries backwards, with `unseen` entries not seen yet:
/// when these are fewer. Backwards costs about what forwards does an entry, so the two break
/// even near equal counts.
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
    let layout = Layout::shared(grid, homes.len()).map_err(|e| format!("{label}: {e}"))?;
    let pairs = Pairs::new(&layout, label)?;
    let entries = layout.entries();
    let mut marks = allocate(entries.div_ceil(32), || AtomicU64::new(0), label)?;
    let mut frontier = allocate(entries.div_ceil(64), || 0u64, label)?;
    let mut bits = allocate(GroupTable::bytes(&layout), || 0u8, label)?;

    let bar = ProgressBar::new(entries);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {percent}% {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // The goal: every piece home, the blank in the region of its own home.
    let mut goal = vec![layout.index_of(homes, grid.board().blank_home() as u8)];
    claim(&marks, &mut goal);
    let mut reached = advance(&mut marks, &mut frontier, &mut bits, false);

    let mut layer = reached;
    let mut depth: u8 = 0;
    loop {
        bar.set_message(format!("{label}: distance {depth}"));
        if pull_when(entries - reached, layer) {
            pull(&pairs, &mut marks, &frontier);
            bar.inc(layer);
        } else {
            push(&pairs, &marks, &frontier, &bar);
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
    Ok((
        bits,
        BuildReport {
            entries,
            reached,
            max_value: depth,
        },
    ))
}

/// The exact value of every (placement, region) a group's pieces reach from the goal, by a
/// plain breadth-first search over placements as lists of cells and regions as masks,
/// independent of the table's layout: the oracle the tables are tested against.
#[cfg(test)]
pub fn plain_values(grid: Grid, homes: &[u8]) -> std::collections::HashMap<(Vec<u8>, u32), u8> {
    use super::placement::mask;
    let mut values = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    let goal_region = grid.region(1 << grid.board().blank_home(), grid.all() & !mask(homes));
    values.insert((homes.to_vec(), goal_region), 0u8);
    queue.push_back((homes.to_vec(), goal_region, 0u8));
    while let Some((now, region, value)) = queue.pop_front() {
        for slot in 0..now.len() {
            let from = now[slot];
            for to in grid.neighbours(from).filter(|&to| region & 1 << to != 0) {
                let mut next = now.clone();
                next[slot] = to;
                let new_region = grid.region(1 << from, grid.all() & !mask(&next));
                let key = (next.clone(), new_region);
                if let std::collections::hash_map::Entry::Vacant(fresh) = values.entry(key) {
                    fresh.insert(value + 1);
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
    use crate::heuristic::placement::{every_placement, mask};

    /// The table of `homes` built with `pull_when` against the plain search: every entry's bit,
    /// and the value by descent of every `every`-th placement with the blank on each free cell.
    fn check_with(board: Board, homes: &[u8], pull_when: fn(u64, u64) -> bool, every: usize) {
        let grid = Grid::new(board);
        let (rows, cols) = (board.rows(), board.cols());
        let (bytes, report) = search(grid, homes, "test", pull_when).expect("builds");
        let bits = crate::heuristic::bits::Bits::from_bytes(&bytes).expect("memory");
        let table = GroupTable::new(grid, homes.to_vec(), bits).expect("the right size");
        let exact = plain_values(grid, homes);
        assert_eq!(report.entries, table.layout().entries());
        assert_eq!(report.reached, exact.len() as u64);
        if homes.len() + 1 < rows * cols {
            assert_eq!(report.reached, report.entries, "every entry is reachable");
        }
        let largest = exact.values().copied().max();
        assert_eq!(Some(report.max_value), largest);
        for ((cells, region), &value) in &exact {
            let blank = region.trailing_zeros() as u8;
            assert_eq!(
                table.bit(table.index(cells, blank)),
                u32::from(value >> 1) & 1
            );
        }
        for cells in every_placement((rows * cols) as u8, homes.len())
            .into_iter()
            .step_by(every)
        {
            let open = grid.all() & !mask(&cells);
            for blank in (0..(rows * cols) as u8).filter(|b| open & 1 << b != 0) {
                let region = grid.region(1 << blank, open);
                let Some(&value) = exact.get(&(cells.clone(), region)) else {
                    continue;
                };
                assert_eq!(
                    table.value(&cells, blank),
                    u32::from(value),
                    "{cells:?} {blank}"
                );
            }
        }
    }

    fn check(rows: usize, cols: usize, homes: &[u8]) {
        check_toward(rows, cols, rows * cols - 1, homes);
    }

    /// [`check`] on the board whose goal has the blank on `blank`.
    fn check_toward(rows: usize, cols: usize, blank: usize, homes: &[u8]) {
        let board = Board::new(rows, cols).expect("valid board");
        let policies: [fn(u64, u64) -> bool; 3] = [backwards, |_, _| false, |_, _| true];
        for pull_when in policies {
            check_with(board.with_blank_home(blank), homes, pull_when, 1);
        }
    }

    #[test]
    fn bits_and_descent_match_a_plain_search() {
        check(2, 3, &[0, 1, 2, 3, 4]); // the whole 2x3 puzzle: half the entries reachable
        check(3, 3, &[0, 1, 3]);
        check(3, 3, &[4, 7, 2, 6]);
        check(3, 4, &[0, 5, 10]);
        check(3, 4, &[0, 1, 4, 5, 8]);
    }

    #[test]
    fn larger_boards_match_a_plain_search() {
        // Every entry's bit (874,080 and 339,048 entries); the descent from every 101st and
        // 37th placement, the blank on each free cell.
        let board = |side| Board::new(side, side).expect("valid board");
        check_with(board(4), &[0, 1, 4, 5, 8], backwards, 101);
        check_with(board(5), &[0, 1, 5, 6], backwards, 37);
    }

    /// Issue 53: toward a goal whose blank is on another cell (its region is the goal's), the
    /// pieces' homes around it, the last cell's among them.
    #[test]
    fn tables_toward_a_goal_with_the_blank_anywhere_match_a_plain_search() {
        check_toward(2, 3, 1, &[0, 2, 3, 4, 5]);
        check_toward(3, 3, 4, &[0, 1, 3, 8]);
        check_toward(3, 3, 7, &[5, 6, 8]);
        check_toward(3, 4, 5, &[0, 4, 11]);
    }
}
