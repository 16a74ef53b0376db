//! Successor keys rewritten from the parent's key instead of packed afresh.
//!
//! A move changes the cells of its movers only: their old cells and their new ones, all between
//! `lo`, the smallest of them, and `hi`, the largest. Packing writes the same nybbles as the
//! parent's before `lo` (nothing before it changed) and after `hi` (as many nybbles come before
//! `hi + 1` in both, since both keys have the same length), so only the nybbles from
//! `rank[lo]` to `rank[hi + 1]` need writing, from the successor's `heads` between `lo` and
//! `hi` — where `rank[p]`, kept by [`State::unpack`], counts the nybbles before cell `p`.
//!
//! The successor's heads between `lo` and `hi` are made on the board (the movers' old heads
//! cleared, their new ones written) and put back afterwards.
//!
//! Movers that are single cells (every tile of an n-puzzle) need not even that: no cell is
//! skipped before or after the move, so every rank stays, and the key changes only in the
//! nybbles of the movers' old cells (their kinds go) and new cells (their kinds come).
//!
//! When the key is one word and the board fits in the [`Occupancy`] bits (every bundled puzzle
//! but the n-puzzles, which take the single-cell way above), no heads are made at all: the
//! move is worked on the key itself, by the cells that hold its nybbles
//! ([`State::nybble_cells`]). Nybble `i` belongs to the `i`-th of those cells, so a cell's
//! nybble is at its rank, the number of those cells before it. The movers' cells change which
//! cells hold nybbles: a cell newly covered (not as an anchor) loses its nybble, a cell
//! uncovered gains one (0, empty), and every other nybble keeps its value, only moving up or
//! down with the cells gained and lost before it. So: clear the movers' kinds at their old
//! anchors (a lost cell then holds 0: it was empty or such an anchor); delete the lost cells'
//! nybbles, from the last cell back (the ranks before each are still the parent's); insert
//! the gained cells' zeros, from the last back (ranked among the cells kept); and write the
//! kinds at the new anchors, ranked among the successor's cells. That is a few shifts and
//! popcounts per mover instead of a pass over the window (klotski style 3: 184M instructions
//! instead of 208M for the whole search).
//!
//! Invariant: the key shown for a move equals `State::pack` of the state showing the move
//! (checked against it over random walks in the tests of [`super`]).

use super::walk::{Next, Sink};
use crate::sliding::occupancy::Occupancy;
use crate::sliding::pack::{shift, word, Geometry, State, CELL_MASK, SKIP};

/// The sink of [`super::Mover::successor_keys`]: `emit` gets each successor's key.
pub struct KeySink<const W: usize, F> {
    parent: [u64; W],
    emit: F,
    /// The single block being moved has its heads taken off the board (not its cells).
    heads_lifted: bool,
}

impl<const W: usize, F> KeySink<W, F>
where
    F: FnMut(&[u64; W]) -> Next,
{
    pub fn new(parent: [u64; W], emit: F) -> Self {
        KeySink {
            parent,
            emit,
            heads_lifted: false,
        }
    }

    /// The parent's key with nybbles `rank[lo]..rank[hi + 1]` written from the state's heads of
    /// cells `lo..=hi`.
    #[inline]
    fn window(&self, state: &State, lo: usize, hi: usize) -> [u64; W] {
        let first = usize::from(state.rank[lo & CELL_MASK]);
        let end = usize::from(state.rank[(hi + 1) & CELL_MASK]);
        let mut key = self.parent;
        // Clear nybbles `first..end`: in word `w`, the bits of its nybbles in that range.
        for w in (first >> 4)..=(end.max(1) - 1) >> 4 {
            let from = first.saturating_sub(16 * w);
            let to = (end - 16 * w).min(16);
            let below = |n: usize| u64::MAX.checked_shr(4 * n as u32).unwrap_or(0);
            key[w & (W - 1)] &= !(below(from) & !below(to));
        }
        let mut i = first;
        for &head in &state.heads[lo..=hi] {
            let keep = usize::from(head != SKIP);
            key[word::<W>(i)] |= (u64::from(head & 0xf) * keep as u64) << shift(i);
            i += keep;
        }
        key
    }

    /// The occupancy bits when keys are rewritten by them: one-word keys ([`Geometry::key_bits`]),
    /// which need `W == 1` (a wider sink is for wider keys), and not n-puzzles, whose single
    /// cells keep their ranks ([`KeySink::unit_moves`] is quicker).
    #[inline]
    fn bits_for(geometry: &Geometry) -> Option<&Occupancy> {
        geometry.key_bits().filter(|_| W == 1 && !geometry.all_unit)
    }

    /// The parent's key, one word whose cells are `state.nybble_cells`, with `movers`
    /// displaced by `delta` (see the module's doc).
    #[inline]
    fn by_bits(&self, bits: &Occupancy, state: &State, movers: &[u16], delta: i32) -> [u64; W] {
        let base = bits.base();
        let before = state.nybble_cells;
        let mut key = self.parent[0];
        let (mut left, mut entered, mut anchors) = (0u64, 0u64, 0u64);
        for &b in movers {
            let block = state.blocks[usize::from(b)];
            let from = (block.anchor as usize).wrapping_sub(base) & 63;
            let to = (from as i32 + delta) as usize & 63;
            let shape = bits.shape(usize::from(block.kind));
            left |= shape << from;
            entered |= shape << to;
            anchors |= 1 << to;
            key &= !(0xf << shift(rank(before, from)));
        }
        // Cells left become empty cells with nybbles, cells entered hold none but the anchors.
        let after = (before | left) & !(entered & !anchors);
        let mut lost = before & !after;
        while lost != 0 {
            let cell = 63 - lost.leading_zeros() as usize;
            lost ^= 1 << cell;
            let head = first_nybbles(rank(before, cell));
            key = key & head | (key << 4) & !head;
        }
        let kept = before & after;
        let mut gained = after & !before;
        while gained != 0 {
            let cell = 63 - gained.leading_zeros() as usize;
            gained ^= 1 << cell;
            let head = first_nybbles(rank(kept, cell));
            key = key & head | (key & !head) >> 4;
        }
        for &b in movers {
            let block = state.blocks[usize::from(b)];
            let to = ((block.anchor as usize).wrapping_sub(base) as i32 + delta) as usize & 63;
            key |= u64::from(block.kind) << shift(rank(after, to));
        }
        let mut words = self.parent;
        words[0] = key;
        words
    }

    /// The parent's key with the kinds of single-cell `movers` moved by `delta`.
    #[inline]
    fn unit_moves(&self, state: &State, movers: &[u16], delta: i32) -> [u64; W] {
        let mut key = self.parent;
        // The kinds leave their old cells first: a new cell may be another mover's old one.
        for &b in movers {
            let block = state.blocks[usize::from(b)];
            let i = usize::from(state.rank[block.anchor as usize & CELL_MASK]);
            key[word::<W>(i)] ^= u64::from(block.kind) << shift(i);
        }
        for &b in movers {
            let block = state.blocks[usize::from(b)];
            let to = (block.anchor as i32 + delta) as usize & CELL_MASK;
            let i = usize::from(state.rank[to]);
            key[word::<W>(i)] ^= u64::from(block.kind) << shift(i);
        }
        key
    }
}

impl<const W: usize, F> KeySink<W, F>
where
    F: FnMut(&[u64; W]) -> Next,
{
    /// The key with `movers` (not all single cells), whose heads are off the board, displaced
    /// by `delta` (their heads are put there for the window and taken off again).
    #[inline]
    fn displaced(
        &self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> [u64; W] {
        for &b in movers {
            put_heads(geometry, state, b, delta);
        }
        let (lo, hi) = bounds(geometry, state, movers, delta);
        let key = self.window(state, lo, hi);
        for &b in movers {
            clear_heads(geometry, state, b, delta);
        }
        key
    }

    /// The successor's key by the first quick way that applies: by the occupancy bits or by
    /// the units' nybbles; `None` when only the window on the board will do. Always inlined:
    /// left to itself the compiler does not, and the 8-puzzle in style 4 takes 9% more
    /// instructions.
    #[inline(always)]
    fn quick(
        &self,
        geometry: &Geometry,
        state: &State,
        movers: &[u16],
        delta: i32,
    ) -> Option<[u64; W]> {
        if let Some(bits) = Self::bits_for(geometry) {
            return Some(self.by_bits(bits, state, movers, delta));
        }
        if all_unit(geometry, state, movers) {
            return Some(self.unit_moves(state, movers, delta));
        }
        None
    }
}

/// The number of cells of `cells` before cell `cell` (bit `cell`).
#[inline]
fn rank(cells: u64, cell: usize) -> usize {
    (cells & ((1 << (cell & 63)) - 1)).count_ones() as usize
}

/// The bits of a key's first `n` nybbles (`n` below 16).
#[inline]
fn first_nybbles(n: usize) -> u64 {
    !(u64::MAX >> ((4 * n) & 63))
}

/// Whether every mover is a single cell (its key changes in two nybbles per mover).
#[inline]
fn all_unit(geometry: &Geometry, state: &State, movers: &[u16]) -> bool {
    movers
        .iter()
        .all(|&b| geometry.unit[usize::from(state.blocks[usize::from(b)].kind) & 15])
}

/// Writes the heads of block `b` displaced by `delta`: its kind at the anchor, skips elsewhere.
#[inline]
fn put_heads(geometry: &Geometry, state: &mut State, b: u16, delta: i32) {
    let block = state.blocks[usize::from(b)];
    let anchor = block.anchor as i32 + delta;
    for &off in &geometry.cover[usize::from(block.kind) & 15] {
        state.heads[(anchor + off) as usize & CELL_MASK] = SKIP;
    }
    state.heads[anchor as usize & CELL_MASK] = block.kind;
}

/// Clears the heads of block `b` displaced by `delta`.
#[inline]
fn clear_heads(geometry: &Geometry, state: &mut State, b: u16, delta: i32) {
    let block = state.blocks[usize::from(b)];
    let anchor = block.anchor as i32 + delta;
    for &off in &geometry.cover[usize::from(block.kind) & 15] {
        state.heads[(anchor + off) as usize & CELL_MASK] = 0;
    }
}

/// The cells between which `movers` (anchors as recorded) and their displacement by `delta`
/// lie (movers come in any order: a superpiece lists its blocks in the order of its ideal).
#[inline]
fn bounds(geometry: &Geometry, state: &State, movers: &[u16], delta: i32) -> (usize, usize) {
    let lo = movers
        .iter()
        .map(|&b| state.blocks[usize::from(b)].anchor as i32)
        .min()
        .unwrap_or(0);
    let hi = movers
        .iter()
        .map(|&b| {
            let block = state.blocks[usize::from(b)];
            block.anchor as i32 + geometry.extent[usize::from(block.kind) & 15]
        })
        .max()
        .unwrap_or(lo);
    ((lo + delta.min(0)) as usize, (hi + delta.max(0)) as usize)
}

impl<const W: usize, F> Sink for KeySink<W, F>
where
    F: FnMut(&[u64; W]) -> Next,
{
    #[inline]
    fn show_one(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> Next {
        if let Some(key) = self.quick(geometry, state, movers, delta) {
            return (self.emit)(&key);
        }
        // Else the block's heads come off the board, and back at `finish_one`.
        if !self.heads_lifted {
            clear_heads(geometry, state, movers[0], 0);
            self.heads_lifted = true;
        }
        let key = self.displaced(geometry, state, movers, delta);
        (self.emit)(&key)
    }

    #[inline]
    fn show_lifted(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> Next {
        // The lifting cleared the movers' heads.
        let key = match self.quick(geometry, state, movers, delta) {
            Some(key) => key,
            None => self.displaced(geometry, state, movers, delta),
        };
        (self.emit)(&key)
    }

    #[inline]
    fn show_step(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> Next {
        if let Some(key) = self.quick(geometry, state, movers, delta) {
            return (self.emit)(&key);
        }
        // Only the heads take the step, and take it back.
        for &b in movers {
            clear_heads(geometry, state, b, 0);
        }
        let key = self.displaced(geometry, state, movers, delta);
        for &b in movers {
            put_heads(geometry, state, b, 0);
        }
        (self.emit)(&key)
    }

    /// Keys rewritten by bits (or by the units' ranks) read only the movers' records.
    fn reads_board(&self, geometry: &Geometry) -> bool {
        W != 1 || geometry.key_bits().is_none()
    }

    #[inline]
    fn finish_one(&mut self, geometry: &Geometry, state: &mut State, movers: &[u16]) {
        if self.heads_lifted {
            put_heads(geometry, state, movers[0], 0);
            self.heads_lifted = false;
        }
    }
}
