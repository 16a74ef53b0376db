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
//! half, and [`PatternDb::look`] finds the new values from the entries after the move alone
//! (one bit each).
//!
//! A search also keeps each lookup's *entry* ([`Entries`]): the rank of the order of its
//! group's pieces and the cells the group occupies ([`super::placement`]). A move changes the
//! order of the two lookups it touches by an amount found from the few cells it passes
//! (`Lookup::next_entry`), so a lookup costs a few dozen instructions instead of ranking all of
//! a group's tiles: Korf's 100 with 6-6-3 1.27x faster, the 7-8 transposition 1.3x (measured
//! 2026-11-27, one thread; the same nodes). The set of cells and the blank's region are then
//! looked up from the occupied cells ([`super::placement::Layout::index`]).
//! A piece with a lookup in each half (every piece of a square board's partition) is looked
//! up by constant index, without the iterators over one or two probes ([`PatternDb::look`]):
//! 430 to 400 instructions a node (cachegrind, 5x5 6-6-6-6, Korf & Felner #40), Korf's 100
//! with 6-6-3 in 1.10-1.16 s against 1.19-1.39 s, Korf & Felner's #25, #38 and #40 in 9.4-11.4
//! s against 11.1-12.7 s (three interleaved rounds, one thread, the same nodes).
//!
//! The generated automaton also passes its square board's columns (`COLS`): the position's
//! lookup then reads the passed cells without mapping them, and a move along a column of
//! either frame passes exactly `COLS - 1` cells, none masked out
//! (`Lookup::next_entry_square`). A value moves by one in its byte (an add or a subtract,
//! not a byte replaced), and `look` no longer returns the table indices nobody read. With the
//! automaton's happy test taking the node's estimate from its quota `t` instead of summing the
//! values before the move (`macros/`), Korf & Felner's #40 took 4.84e9 instructions instead of
//! 5.40e9 (the process, cachegrind; the same 9,430,030 nodes), and the five quickest 17.1-18.8
//! s of CPU on one thread against 19.0-21.5 s (three interleaved rounds, 2026-11-29).
//!
//! Where no sad move is left (`sad_refused`), a move that raises the larger sum is refused
//! whatever the other half does, so when the position's sum is the larger (or equal) and its
//! lookup rises, the reflection's lookup is not made: #40 in 4.43e9 instructions instead of
//! 4.84e9, the five quickest in 14.8-16.4 s of CPU against 16.7-19.5 s (three interleaved
//! rounds, the same nodes). Doing the same for the reflection's sum when it is the larger
//! (its lookup first) took 0.7% fewer instructions and no less time: not kept.
//!
//! Not here, measured:
//! - (2026-11-26) the maximum over a second partition of the board (5x5 6-6-6-6 with a second
//!   6-6-6-6 and its reflection, its lookups made only where the first partition does not
//!   already refuse a move) took 1.2-2.8 times fewer nodes on Korf & Felner's instances but
//!   cost 1.6-1.8 times as much per node. It was faster on 2 of 7 instances and 5-42% slower
//!   on the others (#47: 184 s of CPU against 251 s); 4x4 7-8 with 6-6-3 saved 5% of the nodes
//!   of Korf's 100.
//! - (2026-11-27) *lanes*: K searches of subtrees interleaved in one thread, each asking for
//!   its table words (address computed, line prefetched) and handing over to the next until
//!   they arrive, the generated automaton cut at every lookup. With this module's cheaper
//!   lookups a node costs about 430 instructions, and 6-6-3 (its tables in the caches) runs
//!   at 43 ns a node against 65-70 ns for 7-8: the memory is at most a third of a node.
//!   K = 8 gained nothing on the 7-8 transposition (5.13 s against 5.17 s, one thread): each
//!   software prefetch waits about 7 ns for its page walk (4 KiB pages; perf put 21% of the
//!   time on the two prefetches of a node), and the split lookups cost more instructions. With
//!   the tables in transparent huge pages (glibc's malloc tunable, for the measurement) lanes
//!   gained 10% on 7-8 and lost 50% on 5x5 6-6-6-6 (Korf & Felner #25: 5.7 s against 3.7 s).
//! - (2026-11-27) tables read whole (`--file`) in transparent huge pages, safely: an anonymous
//!   `memmap2` mapping advised `HugePage` before it is filled (the kernel granted every 2 MiB
//!   page). Korf & Felner's three quickest (#25, #38, #40) in one process, one thread, three
//!   interleaved pairs: search 10.85-11.46 s against 11.14-11.61 s (3-5%), but filling the
//!   1.2 GB took 2.3-2.5 s of system time against 0.65 s, so the batch took longer (12.1-12.7
//!   s against 11.6-12.2 s). Korf's 100 with 7-8: 0.23 s against 0.40 s, but 0.78 s when the
//!   VM first backs the huge pages. Below the bar on the work that takes time.
//!
//! Invariant: `values(at, blank)` equals, byte for byte, the tables' exact values of the
//! position, and `entries(at)` their entries; `look` and `commit` keep them so.

use super::bits::Bits;
use super::grid::Grid;
use super::partition::{mirror_cells, Partition, MAX_GROUPS};
use super::placement::{mask, Layout};
use super::table::GroupTable;
use crate::board::MAX_CELLS;
use crate::position::Position;
use std::hint::select_unpredictable;

/// Byte offset of the reflection's lookups in [`Values`].
pub const MIRROR: usize = MAX_GROUPS;

/// The piece on each cell (named by its home cell), 32 cells long so that any cell of a `u32`
/// mask indexes it; the blank's cell and the cells past the board hold anything.
pub type Board32 = [u8; 32];

/// One byte per lookup: groups on the position in bytes `0..MIRROR` (word 0), on the reflection
/// from byte `MIRROR` on (word 1).
pub type Values = [u64; 2];

/// The sum of the values in one half of [`Values`] (each below 256, their sum too).
#[inline(always)]
pub fn half_sum(half: u64) -> u32 {
    (half.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// The most lookups of a partition: each group on the position and on its reflection.
pub const LOOKUPS: usize = 2 * MAX_GROUPS;

/// Each lookup's entry at a node, by lookup number: the rank of the order of its group's
/// pieces (in the lookup's frame of cells, [`super::placement::Layout::order`]) times 2^32, plus the mask of the
/// cells the group occupies. A search keeps them up to date move by move
/// ([`PatternDb::commit`], [`PatternDb::restore`]).
pub type Entries = [u64; LOOKUPS];

/// The entries a move changed, as they were before it ([`PatternDb::commit`]): one a half.
pub type Before = [u64; 2];

/// What a move changes ([`PatternDb::look`]): the entries of the lookups it changes, after it
/// (in the order of the moved piece's lookups: one on the position, one on its reflection).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    entries: [u64; 2],
}

/// One lookup: a table, and which pieces stand for its slots.
#[derive(Clone, Debug)]
pub(super) struct Lookup {
    pub(super) table: usize,
    /// The piece of the position whose cell gives each slot's cell (on the reflection: the
    /// piece that the reflection turns into the slot's piece).
    pub(super) sources: Vec<u8>,
    /// The cell of the lookup's entry for each cell of the position (its *frame*): the
    /// reflection's, or the identity (32 long, so that any cell of a `u32` mask indexes it),
    /// and back.
    pub(super) map: [u8; 32],
    unmap: [u8; 32],
    /// Byte of this lookup in [`Values`].
    pub(super) byte: usize,
    /// Each piece's slot in the lookup plus one (0 for a piece of another group), and that
    /// slot's weight in the order's rank (0 for another group's).
    after: [u8; 32],
    weight: [u64; 32],
}

/// The most cells a move passes in a lookup's frame: `cols - 1` on the widest board.
const PASSED: usize = 4;

/// A move as a lookup sees it: the piece's cell, the blank's (cells of the position), and
/// whether it goes along a column of the lookup's frame (and so passes cells).
type Move = (u8, u8, bool);

/// What a move of one piece changes in one lookup, laid out for [`PatternDb::look`]: the
/// lookup's number (its entry in [`Entries`]) and table, its value's word and shift in
/// [`Values`], and the piece's slot and that slot's weight.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Probe {
    pub(super) lookup: u8,
    pub(super) table: u8,
    pub(super) word: u8,
    pub(super) shift: u8,
    pub(super) slot: u8,
    pub(super) weight: u64,
}

impl Lookup {
    /// The lookup of `table` (whose layout is `layout`) with `sources[slot]` standing for each
    /// slot, in the frame of cells `map`, its value at byte `byte` of [`Values`].
    pub(super) fn new(
        table: usize,
        layout: &Layout,
        sources: Vec<u8>,
        map: [u8; 32],
        byte: usize,
    ) -> Lookup {
        let (mut unmap, mut after, mut weight) = ([0; 32], [0; 32], [0; 32]);
        for (cell, &image) in map.iter().enumerate() {
            unmap[usize::from(image & 31)] = cell as u8;
        }
        for (slot, &piece) in sources.iter().enumerate() {
            let piece = usize::from(piece & 31);
            (after[piece], weight[piece]) = (slot as u8 + 1, layout.weight(slot));
        }
        Lookup {
            table,
            sources,
            map,
            unmap,
            byte,
            after,
            weight,
        }
    }

    /// The cells of the lookup's slots and blank (in its frame), with `at[piece]` the cell of
    /// each piece and `blank` the blank's.
    #[inline]
    pub(super) fn cells(&self, at: &[u8], blank: u8, cells: &mut [u8]) -> u8 {
        let map = |cell: u8| self.map[usize::from(cell & 31)];
        for (slot, &source) in cells.iter_mut().zip(&self.sources) {
            *slot = map(at[usize::from(source)]);
        }
        map(blank)
    }

    /// The lookup's entry (order and occupied cells) in its table `table`, with `at[piece]`
    /// the cell of each piece.
    pub(super) fn entry(&self, table: &GroupTable, at: &[u8]) -> u64 {
        let mut cells = [0u8; MAX_CELLS];
        let cells = &mut cells[..self.sources.len().min(MAX_CELLS)];
        self.cells(at, 0, cells);
        table.layout().order(cells) << 32 | u64::from(mask(cells))
    }

    /// The lookup's exact value, by descent in its table `table`, with `at[piece]` the cell of
    /// each piece and `blank` the blank's.
    pub(super) fn value(&self, table: &GroupTable, at: &[u8], blank: u8) -> u32 {
        let mut cells = [0u8; MAX_CELLS];
        let cells = &mut cells[..self.sources.len().min(MAX_CELLS)];
        let blank = self.cells(at, blank, cells);
        table.value(cells, blank)
    }

    /// The probe of this lookup (number `number` in [`Entries`]) for a move of `piece`, if the
    /// piece is one of its slots.
    pub(super) fn probe(&self, number: usize, piece: usize) -> Option<Probe> {
        let slot = usize::from(self.after[piece & 31]).checked_sub(1)?;
        Some(Probe {
            lookup: number as u8,
            table: self.table as u8,
            word: (self.byte / 8) as u8,
            shift: (8 * (self.byte % 8)) as u8,
            slot: slot as u8,
            weight: self.weight[piece & 31],
        })
    }

    /// The entry (rank, occupied cells) after the group's piece `piece` moves from `from` to
    /// the blank at `to` (cells of the position), from the entry before; `board[cell]` is the
    /// piece on each cell other than the blank's.
    ///
    /// The rank of an order is `sum(w_i * #{j > i: c_j < c_i})` over its slots
    /// ([`super::placement`]). Moving slot `s` from `a` up to `b` changes the counts only
    /// for slots on the cells strictly between `a` and `b`: a later slot there is now below
    /// `s` (`+w_s`), an earlier slot there no longer has `s` below it (`-w_i`); moving down,
    /// the other way round. A move along a row of the frame passes no cell, and leaves the
    /// order as it is; one along a column passes `cols - 1` (at most [`PASSED`]).
    #[inline(always)]
    pub(super) fn next_entry(
        &self,
        probe: &Probe,
        entry: u64,
        board: &Board32,
        the_move: Move,
    ) -> u64 {
        let (from, to, column) = the_move;
        let (s, w) = (probe.slot, probe.weight);
        let (a, b) = (
            self.map[usize::from(from & 31)],
            self.map[usize::from(to & 31)],
        );
        let (low, high) = (usize::from(a.min(b)), usize::from(a.max(b)));
        // The slots on the cells passed, each counted as it changes the rank when `b > a`
        // (a fixed number of cells looked at, those not strictly between masked out).
        let mut passed = 0u64;
        for k in 1..=PASSED * usize::from(column) {
            let cell = low + k;
            let other = usize::from(board[usize::from(self.unmap[cell & 31] & 31)] & 31);
            let change = self.passing(other, s, w);
            passed = passed.wrapping_add(select_unpredictable(cell < high, change, 0));
        }
        Self::moved(entry, (a, b), passed)
    }

    /// What passing `other`, the piece on a cell passed, adds to the rank of a move of the
    /// piece of slot `s` and weight `w` upwards: `-w_i` for an earlier slot `i` (0 for a piece
    /// of another group, whose `after` is 0), `w` for a later one; without branches, which
    /// would go either way at random.
    #[inline(always)]
    fn passing(&self, other: usize, s: u8, w: u64) -> u64 {
        select_unpredictable(self.after[other] <= s, self.weight[other].wrapping_neg(), w)
    }

    /// `entry` after its piece moves from cell `a` to cell `b` (of the lookup's frame),
    /// `passed` the sum of [`Lookup::passing`] over the cells between them.
    #[inline(always)]
    fn moved(entry: u64, (a, b): (u8, u8), passed: u64) -> u64 {
        let passed = select_unpredictable(b > a, passed, passed.wrapping_neg());
        let rank = (entry >> 32).wrapping_add(passed);
        let occupied = (entry as u32) ^ (1 << (a & 31)) ^ (1 << (b & 31));
        rank << 32 | u64::from(occupied)
    }

    /// [`Lookup::next_entry`] on a square board of `COLS` columns, in the position's frame
    /// (the identity: no cell mapped) or the reflection's (`TRANSPOSED`). A move along a
    /// column of the frame passes exactly `COLS - 1` cells, so none is masked out.
    #[inline(always)]
    pub(super) fn next_entry_square<const COLS: usize, const TRANSPOSED: bool>(
        &self,
        probe: &Probe,
        entry: u64,
        board: &Board32,
        (from, to, column): Move,
    ) -> u64 {
        let (s, w) = (probe.slot, probe.weight);
        let frame = |cell: u8| match TRANSPOSED {
            true => self.map[usize::from(cell & 31)],
            false => cell,
        };
        let (a, b) = (frame(from), frame(to));
        let low = usize::from(a.min(b));
        let mut passed = 0u64;
        if column {
            for k in 1..COLS {
                let cell = match TRANSPOSED {
                    true => self.unmap[(low + k) & 31],
                    false => (low + k) as u8,
                };
                let other = usize::from(board[usize::from(cell & 31)] & 31);
                passed = passed.wrapping_add(self.passing(other, s, w));
            }
        }
        Self::moved(entry, (a, b), passed)
    }
}

/// The tables of a partition, ready for lookups.
#[derive(Debug)]
pub struct PatternDb {
    partition: Partition,
    tables: Vec<GroupTable>,
    lookups: Vec<Lookup>,
    /// For each piece (by home cell): what its moves change, one lookup per half (`probed`
    /// of them: 2 on square boards, else 1).
    probes: [[Probe; 2]; 32],
    probed: [u8; 32],
}

impl PatternDb {
    /// Puts the tables of `partition` together (one per group, in order).
    pub fn new(partition: Partition, tables: Vec<GroupTable>) -> PatternDb {
        let board = partition.board();
        let reflection = mirror_cells(board);
        let mut lookups = Vec::new();
        let mut probes = [[Probe::default(); 2]; 32];
        let mut probed = [0u8; 32];
        let mut add = |table: usize, sources: Vec<u8>, map: [u8; 32], byte: usize| {
            let lookup = Lookup::new(table, tables[table].layout(), sources, map, byte);
            for piece in 0..32 {
                // Groups are disjoint: a piece is in one lookup of each half.
                let (Some(probe), Some(slot)) = (
                    lookup.probe(lookups.len(), piece),
                    probes[piece].get_mut(usize::from(probed[piece])),
                ) else {
                    continue;
                };
                *slot = probe;
                probed[piece] += 1;
            }
            lookups.push(lookup);
        };
        for (g, table) in tables.iter().enumerate() {
            add(g, table.homes().to_vec(), cell_map(None), g);
        }
        if let Some(mirror) = &reflection {
            for (g, table) in tables.iter().enumerate() {
                let sources = table
                    .homes()
                    .iter()
                    .map(|&p| mirror[usize::from(p)])
                    .collect();
                add(g, sources, cell_map(Some(mirror)), MIRROR + g);
            }
        }
        debug_assert!(lookups.len() <= LOOKUPS);
        // A piece with two probes has its position's first (`look_both`).
        debug_assert!(
            (0..32).all(|p| probed[p] < 2 || (probes[p][0].word, probes[p][1].word) == (0, 1))
        );
        PatternDb {
            partition,
            tables,
            lookups,
            probes,
            probed,
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

    /// Every lookup's exact value, from scratch (by descent in each table); `at[piece]` is the
    /// cell of each piece (named by its home cell), `blank` the blank's cell.
    pub fn values(&self, at: &[u8], blank: u8) -> Values {
        let mut values = Values::default();
        for lookup in &self.lookups {
            let value = lookup.value(&self.tables[lookup.table], at, blank);
            values[lookup.byte / 8] |= u64::from(value.min(255)) << (8 * (lookup.byte % 8));
        }
        values
    }

    /// Every lookup's entry, from scratch; `at[piece]` is the cell of each piece.
    pub fn entries(&self, at: &[u8]) -> Entries {
        entries_of(&self.lookups, &self.tables, at)
    }

    /// The estimate from the lookups' values: the larger of the two sums.
    #[inline]
    pub fn estimate(values: Values) -> u32 {
        half_sum(values[0]).max(half_sum(values[1]))
    }

    /// The estimate of a position, from scratch.
    pub fn estimate_position(&self, position: &Position) -> u32 {
        self.estimate_tiles(position.tiles())
    }

    /// The estimate of the tiles `tiles` (row by row, Knuth's numbering), from scratch.
    pub fn estimate_tiles(&self, tiles: &[u8]) -> u32 {
        let (at, blank) = tile_cells(self.partition.board(), tiles);
        Self::estimate(self.values(&at, blank))
    }

    /// Whether a move with the lookups' values `after` after it is happy at a node whose
    /// estimate is `h`.
    #[inline]
    pub fn happy(h: u32, after: Values) -> bool {
        Self::estimate(after) < h
    }

    /// The lookups' values and entries after `piece` moves from `from` into the blank at `to`,
    /// given their values and entries before; `board[cell]` is the piece on each cell (named
    /// by its home cell) but the blank's, before or after the move.
    pub fn step(
        &self,
        values: Values,
        entries: &Entries,
        board: &Board32,
        (piece, from, to): (u8, u8, u8),
    ) -> (Values, Entries) {
        let the_move = (piece, from, to);
        let (v, e, b) = (values, entries, board);
        // The square boards with tables as the generated automaton looks them up; any other
        // the general way.
        let (after, changed) = match (from.abs_diff(to) > 1, self.square_cols()) {
            (true, 3) => self.look::<true, 3>(v, e, b, the_move, false),
            (true, 4) => self.look::<true, 4>(v, e, b, the_move, false),
            (true, 5) => self.look::<true, 5>(v, e, b, the_move, false),
            (true, _) => self.look::<true, 0>(v, e, b, the_move, false),
            (false, 3) => self.look::<false, 3>(v, e, b, the_move, false),
            (false, 4) => self.look::<false, 4>(v, e, b, the_move, false),
            (false, 5) => self.look::<false, 5>(v, e, b, the_move, false),
            (false, _) => self.look::<false, 0>(v, e, b, the_move, false),
        };
        let mut entries = *entries;
        self.commit(&mut entries, piece, &changed);
        (after, entries)
    }

    /// The columns of a square board, or 0.
    fn square_cols(&self) -> usize {
        let board = self.partition.board();
        match board.rows() == board.cols() {
            true => board.cols(),
            false => 0,
        }
    }

    /// The probes of a move of `piece`.
    #[inline(always)]
    fn probes(&self, piece: u8) -> &[Probe] {
        let piece = usize::from(piece & 31);
        let count = usize::from(self.probed[piece]).min(2);
        &self.probes[piece][..count]
    }

    /// One probe of a move of a piece from `from` to the blank at `to`, along a column of the
    /// probe's frame or not: the entry of its lookup after the move, and the probe's half of
    /// the values (`half`) with the lookup's value after the move. With `COLS` > 0 the board
    /// is square with `COLS` columns and the frame the position's or, `TRANSPOSED`, the
    /// reflection's ([`Lookup::next_entry_square`]); with 0, any board and frame. (A probe of
    /// no lookup, which no partition makes, changes nothing.)
    #[inline(always)]
    fn probe<const COLS: usize, const TRANSPOSED: bool>(
        &self,
        probe: &Probe,
        (entries, board): (&Entries, &Board32),
        (from, to, column): Move,
        half: u64,
    ) -> (u64, u64) {
        let l = usize::from(probe.lookup);
        let (Some(lookup), Some(table)) = (
            self.lookups.get(l),
            self.tables.get(usize::from(probe.table)),
        ) else {
            return (0, half);
        };
        let before = entries[l % LOOKUPS];
        let the_move = (from, to, column);
        let entry = match COLS {
            0 => lookup.next_entry(probe, before, board, the_move),
            _ => lookup.next_entry_square::<COLS, TRANSPOSED>(probe, before, board, the_move),
        };
        // The blank takes the piece's cell (unmapped in a square board's own frame).
        let blank = match COLS > 0 && !TRANSPOSED {
            true => from,
            false => lookup.map[usize::from(from & 31)],
        };
        let index = table.layout().index(entry >> 32, entry as u32, blank);
        // The value moves by one: down or up by one in its byte (values stay below 255).
        let shift = probe.shift & 63;
        let old = (half >> shift) as u32 & 0xff;
        let step = 1u64 << shift;
        let half = select_unpredictable(
            table.goes_down(old, index),
            half.wrapping_sub(step),
            half.wrapping_add(step),
        );
        (entry, half)
    }

    /// Looks up the move of `piece` from `from` into the blank at `to` (`VERTICAL` or not),
    /// given the lookups' values and entries before it and `board[cell]`, the piece on each
    /// cell but the blank's: the values after the move, and what it changes, for
    /// [`PatternDb::commit`] if it is made; with `sad_refused`, possibly only enough of them
    /// to say that the move is sad. `COLS` is the board's number of columns, or 0 for
    /// any board (the generated automaton knows it, and passes it; see [`PatternDb::probe`]).
    /// (Not inlined: the search loops call it from every move state, and one copy of it keeps
    /// their code small.)
    ///
    /// The position's lookup (a piece's first probe) sees a vertical move along a column of its
    /// frame, the reflection's a horizontal one. A piece with a probe in each half (every piece
    /// of a square board's partition) has them by constant index, the position's in word 0
    /// (see `new`): without the iterators over one or two probes, 7% fewer instructions a node.
    #[inline(never)]
    pub fn look<const VERTICAL: bool, const COLS: usize>(
        &self,
        values: Values,
        entries: &Entries,
        board: &Board32,
        (piece, from, to): (u8, u8, u8),
        sad_refused: bool,
    ) -> (Values, Changed) {
        let found = (entries, board);
        let piece = usize::from(piece & 31);
        if COLS > 0 && self.probed[piece] == 2 {
            // Written out: as a loop over the two, LLVM keeps the loop (1.7x the instructions).
            let probes = &self.probes[piece];
            let (e0, h0) =
                self.probe::<COLS, false>(&probes[0], found, (from, to, VERTICAL), values[0]);
            let (before, other) = (half_sum(values[0]), half_sum(values[1]));
            if sad_refused & (half_sum(h0) > before) & (before >= other) {
                // The larger sum rose: the move is sad, and refused.
                return ([h0, values[1]], Changed { entries: [e0, 0] });
            }
            let (e1, h1) =
                self.probe::<COLS, true>(&probes[1], found, (from, to, !VERTICAL), values[1]);
            return ([h0, h1], Changed { entries: [e0, e1] });
        }
        self.look_one::<VERTICAL>(values, found, (piece as u8, from, to))
    }

    /// [`PatternDb::look`] for a piece with one probe or none (boards that are not square), or
    /// on a board of columns not known (`COLS` = 0), out of the way of the common case.
    #[inline(never)]
    fn look_one<const VERTICAL: bool>(
        &self,
        values: Values,
        found: (&Entries, &Board32),
        (piece, from, to): (u8, u8, u8),
    ) -> (Values, Changed) {
        let mut changed = Changed::default();
        let mut after = values;
        let probes = self.probes(piece).iter().zip([VERTICAL, !VERTICAL]);
        for (h, (probe, column)) in probes.enumerate() {
            let word = usize::from(probe.word & 1);
            let probed = self.probe::<0, false>(probe, found, (from, to, column), after[word]);
            (changed.entries[h], after[word]) = probed;
        }
        (after, changed)
    }

    /// Makes the move of `piece` that `changed` was looked up for in `entries`; returns the
    /// entries it changes as they were, for [`PatternDb::restore`].
    #[inline]
    pub fn commit(&self, entries: &mut Entries, piece: u8, changed: &Changed) -> Before {
        let mut before = [0; 2];
        let probes = self.probes(piece).iter();
        for ((probe, &after), old) in probes.zip(&changed.entries).zip(&mut before) {
            if let Some(entry) = entries.get_mut(usize::from(probe.lookup)) {
                *old = std::mem::replace(entry, after);
            }
        }
        before
    }

    /// Takes back the move of `piece` whose [`PatternDb::commit`] returned `before` (a piece
    /// of no group, such as 31, changes nothing).
    #[inline]
    pub fn restore(&self, entries: &mut Entries, piece: u8, before: Before) {
        for (probe, &old) in self.probes(piece).iter().zip(&before) {
            if let Some(entry) = entries.get_mut(usize::from(probe.lookup)) {
                *entry = old;
            }
        }
    }
}

/// The entry of each of `lookups` (of `tables`), from scratch; `at[piece]` is the cell of each
/// piece.
pub(super) fn entries_of<const N: usize>(
    lookups: &[Lookup],
    tables: &[GroupTable],
    at: &[u8],
) -> [u64; N] {
    let mut entries = [0; N];
    for (lookup, entry) in lookups.iter().zip(&mut entries) {
        *entry = lookup.entry(&tables[lookup.table], at);
    }
    entries
}

/// The cell map of a lookup: `reflection`'s, or the identity; cells past the board map to
/// themselves.
pub(super) fn cell_map(reflection: Option<&[u8]>) -> [u8; 32] {
    let mut map = [0u8; 32];
    for (cell, m) in map.iter_mut().enumerate() {
        *m = reflection
            .and_then(|r| r.get(cell))
            .copied()
            .unwrap_or(cell as u8);
    }
    map
}

/// The cell of each piece (named by its home cell, [`crate::board::Board::home`]: tile `x` is
/// piece `x - 1` when the goal's blank is on the last cell) and the blank's.
pub fn piece_cells(position: &Position) -> ([u8; MAX_CELLS], u8) {
    tile_cells(position.board(), position.tiles())
}

/// The piece on each cell (named by its home cell; the blank's cell holds 31), as the searches
/// keep their boards for [`PatternDb::step`].
pub fn board_pieces(position: &Position) -> Board32 {
    let board = position.board();
    let mut pieces = [31; 32];
    for (cell, &tile) in pieces.iter_mut().zip(position.tiles()) {
        if tile != 0 {
            *cell = board.home(tile) as u8 & 31;
        }
    }
    pieces
}

/// [`piece_cells`] of the tiles `tiles` on `board`.
pub(super) fn tile_cells(board: crate::board::Board, tiles: &[u8]) -> ([u8; MAX_CELLS], u8) {
    let mut at = [0u8; MAX_CELLS];
    let mut blank = 0;
    for (cell, &tile) in tiles.iter().enumerate() {
        if tile == 0 {
            blank = cell as u8;
        } else {
            at[board.home(tile)] = cell as u8;
        }
    }
    (at, blank)
}

/// Builds every table of `partition` in memory (with progress bars on a terminal).
pub fn build(partition: &Partition) -> Result<PatternDb, String> {
    let groups = partition.groups();
    let tables = groups
        .iter()
        .enumerate()
        .map(|(g, tiles)| {
            let label = format!("{partition} table {} of {}", g + 1, groups.len());
            build_group(partition.board(), tiles, &label)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PatternDb::new(partition.clone(), tables))
}

/// Builds the table of the group `tiles` on `board` in memory (called `label` on the progress
/// bar).
pub fn build_group(
    board: crate::board::Board,
    tiles: &[u8],
    label: &str,
) -> Result<GroupTable, String> {
    let grid = Grid::new(board);
    let homes: Vec<u8> = tiles.iter().map(|&t| board.home(t) as u8).collect();
    let (bytes, _) = super::build::build(grid, &homes, label)?;
    GroupTable::new(grid, homes, Bits::from_bytes(&bytes)?)
        .ok_or_else(|| format!("{label}: wrong table size"))
}
