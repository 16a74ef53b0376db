//! Boards in memory and configurations packed into nybbles (sections 6–23 of the seed).
//!
//! A [`Geometry`] is the fixed part of a puzzle: the board padded with a wall border (stride
//! `cols + 1`, so that moving right, left, down, up adds `1, -1, stride, -stride` to a cell
//! index, and every step off the board lands on a wall), the live cells in row-major order, and
//! every kind's shape as offsets in that padded index space.
//!
//! A [`State`] is one configuration unpacked: `cells[p]` is 0 (empty), `b + 1` (block `b`) or
//! [`WALL`] (border or dead cell); block `b` has a kind and an anchor, the padded index of its
//! topmost-leftmost cell. Blocks are numbered in the row-major order of their anchors. Cell
//! arrays have the fixed length [`PADDED_MAX`], a power of two above every padded board
//! (`(rows + 2)(cols + 1) ≤ 771` when `rows · cols ≤ 256`), so that indices are masked into
//! range instead of checked; everything beyond the padded board is wall.
//!
//! The packed form is the seed's: walk the live cells in row-major order, skipping cells
//! covered by a block already met, and write one nybble per cell met — the kind of the block
//! anchored there, or 0. Invariant: every configuration of a puzzle packs into the same number
//! of nybbles, `live cells − cells covered by blocks + blocks`, so packed configurations are
//! fixed-length words `[u64; W]` (nybble `i` in bits `60 − 4(i mod 16)` of word `i / 16`, the
//! words beyond the last one zero); equal configurations, with indistinguishable blocks of one
//! kind, have equal keys. Since a block's cells all follow its anchor in row-major order, the
//! unpacking meets every anchor before the rest of its block.

use super::occupancy::Occupancy;
use super::spec::{Layout, Puzzle};
use std::sync::atomic::{AtomicU64, Ordering};

/// Cell value of the border and of dead cells.
pub const WALL: u16 = u16::MAX;

/// Length of every cell array: a power of two above the largest padded board (771 cells).
pub const PADDED_MAX: usize = 1024;

/// Masks an index into a cell array (a no-op for the indices of a padded board).
pub const CELL_MASK: usize = PADDED_MAX - 1;

/// No neighbour (a wall or a dead cell) in [`Geometry::steps`].
pub const NO_CELL: u16 = u16::MAX;

/// The fixed part of a puzzle.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// A number no other geometry made in this process has (its clones share it), so that
    /// scratch space kept from one configuration to the next knows its board is the same.
    pub id: u64,
    pub rows: usize,
    pub cols: usize,
    pub stride: usize,
    /// Length of a padded cell array.
    pub padded: usize,
    /// Padded indices of the live (not dead) cells, row-major.
    pub live: Vec<u32>,
    /// Shape of each kind as padded offsets from the anchor (first offset 0, the others
    /// increasing); index 0 unused.
    pub shapes: [Vec<i32>; 16],
    /// `cover[k]`: kind `k`'s shape, for writing its cells: when no used shape has more than 8
    /// cells, every used one is filled up to the longest one's length by repeating its first
    /// offset (writing a cell twice changes nothing), so that loops over them run the same
    /// number of times, which the branch predictor learns; else the shapes.
    pub cover: [Vec<i32>; 16],
    /// `extent[k]`: the largest offset of kind `k`'s shape (its last cell in row-major order).
    pub extent: [i32; 16],
    /// `unit[k]`: kind `k` is a single cell.
    pub unit: [bool; 16],
    /// Every kind on the board is a single cell (an n-puzzle): no cell is ever skipped in
    /// packing, so the ranks are the same in every configuration.
    pub all_unit: bool,
    /// Blocks in every configuration.
    pub block_count: usize,
    /// Nybbles in a packed configuration.
    pub nybbles: usize,
    /// 64-bit words needed for them.
    pub words: usize,
    /// Offsets for moving right, left, down, up (the seed's `delta`).
    pub dirs: [i32; 4],
    /// `steps[i][k]`: the live cell one step from live cell `i` in direction `dirs[k]`, by
    /// its position in `live`, or [`NO_CELL`].
    pub steps: Vec<[u16; 4]>,
    /// `fronts[k][i]`: the offsets of kind `k`'s cells whose neighbour in direction `dirs[i]`
    /// is not part of the shape — the only cells that can bump into anything on a step.
    pub fronts: [[Vec<i32>; 4]; 16],
    /// `landing[side][k]`: the cells, as offsets from the anchor, that kind `k`'s block lands on
    /// outside its own when shifted by a row (side 0, down) or a column (side 1, right). Every
    /// used kind's list is padded to one length by repeating its first cell (landing on a cell
    /// twice changes nothing), so loops over them run the same number of times, which the
    /// branch predictor learns.
    pub landing: [[Vec<i32>; 16]; 2],
    /// The padded indices of the first and the last live cell.
    pub span: (usize, usize),
    /// The state with every live cell empty, which [`State::unpack`] starts from.
    blank: State,
    /// The board as bits, for unpacking and fit tests, when it fits in 64 bits.
    pub occupancy: Option<Occupancy>,
}

/// One block of a [`State`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub kind: u8,
    pub anchor: u32,
}

/// An unpacked configuration.
///
/// `heads` mirrors `cells` with what [`State::pack`] writes for each cell: the kind of the block
/// anchored there, 0 for an empty cell, [`SKIP`] for a cell covered by a block anchored
/// elsewhere (and for walls). Every change of `cells` updates it ([`State::clear_block`],
/// [`State::put_block`]), so packing reads one byte per live cell and never branches.
///
/// `rank`, `nybble_cells` and `empties` describe the configuration as unpacked (or built by
/// [`Geometry::state_of`]) and are not updated when blocks are moved: `rank[p]` is the number
/// of nybbles packing writes before reaching padded cell `p`, and `nybble_cells` the cells
/// that packing writes a nybble for, as [`Occupancy`] bits (so a successor's key can be
/// rewritten from its parent's where they differ, see [`super::moves::keys`]: by the bits when
/// [`Geometry::key_bits`] has them, which unpacking then keeps instead of the ranks; else by
/// the ranks); `empties` lists the empty live cells in row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub cells: [u16; PADDED_MAX],
    pub heads: [u8; PADDED_MAX],
    pub rank: [u16; PADDED_MAX],
    pub nybble_cells: u64,
    pub blocks: Vec<Block>,
    pub empties: Vec<u32>,
}

/// `heads` value of a cell that contributes no nybble.
pub const SKIP: u8 = 0xff;

/// Nybble `i` of a key.
#[inline]
pub fn nybble(key: &[u64], i: usize) -> u8 {
    let word = key.get(i >> 4).copied().unwrap_or(0);
    ((word >> shift(i)) & 0xf) as u8
}

/// Shift of nybble `i` in its word.
#[inline]
pub fn shift(i: usize) -> u32 {
    (60 - 4 * (i & 15)) as u32
}

/// Word of nybble `i` in a `W`-word key (`W` is a power of two above every nybble's word).
#[inline]
pub fn word<const W: usize>(i: usize) -> usize {
    (i >> 4) & (W - 1)
}

impl Geometry {
    /// The geometry of `puzzle` (whose start layout fixes the dead cells and the key length).
    pub fn new(puzzle: &Puzzle) -> Geometry {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let stride = cols + 1;
        let padded = (rows + 2) * stride;
        let live: Vec<u32> = (0..rows * cols)
            .filter(|&cell| !puzzle.start.dead[cell])
            .map(|cell| ((cell / cols + 1) * stride + cell % cols) as u32)
            .collect();
        // Only the kinds on the board matter (and only their offsets are known to be small:
        // they were placed on it).
        let used = |kind: usize| {
            puzzle
                .start
                .blocks
                .iter()
                .any(|b| usize::from(b.kind) == kind)
        };
        let shapes: [Vec<i32>; 16] = std::array::from_fn(|kind| {
            if !used(kind) {
                return Vec::new();
            }
            puzzle
                .shape(kind as u8)
                .iter()
                .map(|&(dr, dc)| dr * stride as i32 + dc)
                .collect()
        });
        let covered: usize = puzzle
            .start
            .blocks
            .iter()
            .map(|b| shapes[usize::from(b.kind)].len())
            .sum();
        let nybbles = live.len() - covered + puzzle.start.blocks.len();
        let s = stride as i32;
        let dirs = [1, -1, s, -s];
        let fronts: [[Vec<i32>; 4]; 16] = std::array::from_fn(|kind| {
            let shape: &Vec<i32> = &shapes[kind];
            std::array::from_fn(|i| {
                shape
                    .iter()
                    .copied()
                    .filter(|off| !shape.contains(&(off + dirs[i])))
                    .collect()
            })
        });
        let landing = [2, 0].map(|i| {
            let mut lists: [Vec<i32>; 16] = std::array::from_fn(|kind| {
                fronts[kind][i].iter().map(|off| off + dirs[i]).collect()
            });
            let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
            for list in lists.iter_mut() {
                if let Some(&first) = list.first() {
                    list.resize(longest, first);
                }
            }
            lists
        });
        let longest = shapes.iter().map(Vec::len).max().unwrap_or(0);
        let cover = shapes.clone().map(|mut shape| {
            if let Some(&first) = shape.first().filter(|_| longest <= 8) {
                shape.resize(longest, first);
            }
            shape
        });
        let extent = std::array::from_fn(|kind| shapes[kind].iter().copied().max().unwrap_or(0));
        let unit: [bool; 16] = std::array::from_fn(|kind| shapes[kind].len() == 1);
        let all_unit = puzzle
            .start
            .blocks
            .iter()
            .all(|b| unit[usize::from(b.kind)]);
        let first = live.first().map_or(0, |&p| p as usize);
        let last = live.last().map_or(0, |&p| p as usize);
        let mut blank = State {
            cells: [WALL; PADDED_MAX],
            heads: [SKIP; PADDED_MAX],
            rank: [0; PADDED_MAX],
            nybble_cells: 0,
            blocks: Vec::with_capacity(puzzle.start.blocks.len()),
            empties: Vec::with_capacity(nybbles),
        };
        for &p in &live {
            blank.cells[p as usize] = 0;
            blank.heads[p as usize] = 0;
        }
        // The ranks of the empty board, which are those of every configuration when no
        // block covers more than one cell; else unpacking rewrites the span's.
        let mut before = 0;
        for (p, rank) in blank.rank.iter_mut().enumerate() {
            *rank = before;
            before += u16::from(blank.heads[p] == 0);
        }
        blank.rank[last + 1..].fill(nybbles as u16);
        let occupancy = Occupancy::new(&live, (first, last), stride, &shapes);
        let mut position = vec![NO_CELL; PADDED_MAX];
        for (i, &p) in live.iter().enumerate() {
            position[p as usize] = i as u16;
        }
        let steps = live
            .iter()
            .map(|&p| dirs.map(|dir| position[(p as i32 + dir) as usize & CELL_MASK]))
            .collect();
        static MADE: AtomicU64 = AtomicU64::new(1);
        Geometry {
            id: MADE.fetch_add(1, Ordering::Relaxed),
            rows,
            cols,
            stride,
            padded,
            live,
            shapes,
            cover,
            extent,
            unit,
            all_unit,
            block_count: puzzle.start.blocks.len(),
            nybbles,
            words: nybbles.div_ceil(16).max(1),
            dirs,
            steps,
            fronts,
            landing,
            span: (first, last),
            blank,
            occupancy,
        }
    }

    /// The same geometry without its occupancy bits, so that unpacking and fit tests go cell
    /// by cell as on boards too large for them (for testing that way on small boards).
    pub fn by_cells(mut self) -> Geometry {
        self.occupancy = None;
        self
    }

    /// The occupancy bits when a key is one word and its cells fit in them: then successor keys
    /// are rewritten by [`State::nybble_cells`] ([`super::moves::keys`]), and unpacking keeps
    /// no ranks.
    pub fn key_bits(&self) -> Option<&Occupancy> {
        self.occupancy.as_ref().filter(|_| self.words == 1)
    }

    /// The padded index of board cell `cell` (row-major, unpadded).
    pub fn pad(&self, cell: usize) -> u32 {
        ((cell / self.cols + 1) * self.stride + cell % self.cols) as u32
    }

    /// Row and column (0-based) of a padded index.
    pub fn row_col(&self, padded: u32) -> (usize, usize) {
        let p = padded as usize;
        (p / self.stride - 1, p % self.stride)
    }

    /// An all-wall board with the live cells empty.
    pub fn empty_state(&self) -> State {
        self.blank.clone()
    }

    /// The state of a parsed layout.
    pub fn state_of(&self, layout: &Layout) -> State {
        let mut state = self.empty_state();
        for (b, placed) in layout.blocks.iter().enumerate() {
            let anchor = self.pad(placed.anchor);
            state.blocks.push(Block {
                kind: placed.kind,
                anchor,
            });
            state.put_block(self, b as u16);
        }
        // The ranks and the empty cells come with unpacking.
        let key = state.pack_vec(self);
        state.unpack(self, &key);
        state
    }

    /// Packs a layout (convenience for the driver and tests).
    pub fn key_of(&self, layout: &Layout) -> Vec<u64> {
        self.state_of(layout).pack_vec(self)
    }

    /// The seed's hex form of a key: its nybbles up to the last nonzero one.
    pub fn key_hex(&self, key: &[u64]) -> String {
        let end = (0..self.nybbles)
            .rev()
            .find(|&i| nybble(key, i) != 0)
            .map_or(0, |i| i + 1);
        (0..end)
            .map(|i| char::from_digit(u32::from(nybble(key, i)), 16).unwrap_or('?'))
            .collect()
    }
}

impl State {
    /// Packs into `W` words (`W` at least `geometry.words`).
    #[inline]
    pub fn pack<const W: usize>(&self, geometry: &Geometry) -> [u64; W] {
        let mut key = [0u64; W];
        let mut i = 0usize;
        for &p in &geometry.live {
            let head = self.heads[p as usize & CELL_MASK];
            let keep = usize::from(head != SKIP);
            // After the last nybble `i >> 4` may reach `W`; only zeros are written then.
            key[(i >> 4).min(W - 1)] |=
                (u64::from(head & 0xf) * keep as u64) << (60 - 4 * (i & 15));
            i += keep;
        }
        key
    }

    /// Packs into exactly `geometry.words` words.
    pub fn pack_vec(&self, geometry: &Geometry) -> Vec<u64> {
        let mut key = vec![0u64; geometry.words];
        let mut i = 0usize;
        for &p in &geometry.live {
            let head = self.heads[p as usize & CELL_MASK];
            if head != SKIP {
                key[i >> 4] |= u64::from(head) << (60 - 4 * (i & 15));
                i += 1;
            }
        }
        key
    }

    /// Takes block `b` off the board (its record stays).
    #[inline]
    pub fn clear_block(&mut self, geometry: &Geometry, b: u16) {
        let block = self.blocks[usize::from(b)];
        for &off in &geometry.cover[usize::from(block.kind) & 15] {
            let p = (block.anchor as i32 + off) as usize & CELL_MASK;
            self.cells[p] = 0;
            self.heads[p] = 0;
        }
    }

    /// Puts block `b` on the board at its recorded anchor.
    #[inline]
    pub fn put_block(&mut self, geometry: &Geometry, b: u16) {
        let block = self.blocks[usize::from(b)];
        for &off in &geometry.cover[usize::from(block.kind) & 15] {
            let p = (block.anchor as i32 + off) as usize & CELL_MASK;
            self.cells[p] = b + 1;
            self.heads[p] = SKIP;
        }
        self.heads[block.anchor as usize & CELL_MASK] = block.kind;
    }

    /// Rebuilds the state from a key produced by [`State::pack`] for the same geometry.
    ///
    /// One pass over the span of live cells: a cell not yet covered takes the next nybble, and
    /// a nonzero nybble puts a block there (covering cells ahead of the pass only).
    #[inline]
    pub fn unpack(&mut self, geometry: &Geometry, key: &[u64]) {
        if geometry.all_unit {
            return self.unpack_units(geometry, key);
        }
        if let Some(bits) = &geometry.occupancy {
            return self.unpack_by_bits(geometry, bits, key);
        }
        self.unpack_cell_by_cell(geometry, key);
    }

    /// [`State::unpack`] on any board: one pass over the span, a branch per cell.
    pub fn unpack_cell_by_cell(&mut self, geometry: &Geometry, key: &[u64]) {
        let (first, last) = geometry.span;
        let blank = &geometry.blank;
        self.cells[first..=last].copy_from_slice(&blank.cells[first..=last]);
        self.heads[first..=last].copy_from_slice(&blank.heads[first..=last]);
        self.blocks.clear();
        self.empties.clear();
        let mut i = 0usize;
        let mut word = 0u64;
        let base = geometry.occupancy.as_ref().map(Occupancy::base);
        self.nybble_cells = 0;
        for p in first..last + 1 {
            self.rank[p & CELL_MASK] = i as u16;
            if self.cells[p & CELL_MASK] != 0 {
                continue; // a wall, or covered by a block met before
            }
            if let Some(base) = base {
                self.nybble_cells |= 1 << ((p - base) & 63);
            }
            if i & 15 == 0 {
                word = key.get(i >> 4).copied().unwrap_or(0);
            }
            let kind = (word >> 60) as u8;
            word <<= 4;
            i += 1;
            if kind == 0 {
                self.empties.push(p as u32);
                continue;
            }
            let b = self.blocks.len() as u16;
            self.blocks.push(Block {
                kind,
                anchor: p as u32,
            });
            for &off in &geometry.shapes[usize::from(kind)] {
                let q = (p as i32 + off) as usize & CELL_MASK;
                self.cells[q] = b + 1;
                self.heads[q] = SKIP;
            }
            self.heads[p & CELL_MASK] = kind;
        }
    }

    /// [`State::unpack`] by the [`Occupancy`] bits: one round per nybble, at the lowest live
    /// cell not yet covered, without a branch on what it holds; then the blocks' cells, and
    /// the ranks, counting the cells met (unless keys are rewritten by the cells met).
    #[inline]
    fn unpack_by_bits(&mut self, geometry: &Geometry, bits: &Occupancy, key: &[u64]) {
        let (first, last) = geometry.span;
        let blank = &geometry.blank;
        self.cells[first..=last].copy_from_slice(&blank.cells[first..=last]);
        self.heads[first..=last].copy_from_slice(&blank.heads[first..=last]);
        // Every configuration has as many blocks and empty cells; one slot more in each list
        // takes the write that the other list's nybble makes in passing.
        let block_count = geometry.block_count;
        self.blocks
            .resize(block_count + 1, Block { kind: 0, anchor: 0 });
        self.empties.resize(geometry.nybbles - block_count + 1, 0);
        let (mut b, mut e) = (0usize, 0usize);
        let base = bits.base();
        let mut free = bits.live();
        let mut met = 0u64;
        let mut word = 0u64;
        for i in 0..geometry.nybbles {
            if i & 15 == 0 {
                word = key.get(i >> 4).copied().unwrap_or(0);
            }
            let kind = (word >> 60) as usize;
            word <<= 4;
            let at = free.trailing_zeros() & 63;
            met |= 1 << at;
            // An empty cell covers just itself.
            free &= !((bits.shape(kind) | 1) << at);
            let p = base + at as usize;
            let is_block = usize::from(kind != 0);
            if let Some(slot) = self.blocks.get_mut(b) {
                *slot = Block {
                    kind: kind as u8,
                    anchor: p as u32,
                };
            }
            if let Some(slot) = self.empties.get_mut(e) {
                *slot = p as u32;
            }
            b += is_block;
            e += 1 - is_block;
        }
        self.blocks.truncate(b);
        self.empties.truncate(e);
        self.nybble_cells = met;
        // The blocks' cells (the empty ones are as on the blank board), as many per block.
        for (b, block) in self.blocks.iter().enumerate() {
            let anchor = block.anchor as i32;
            for &off in &geometry.cover[usize::from(block.kind) & 15] {
                let q = (anchor + off) as usize & CELL_MASK;
                self.cells[q] = b as u16 + 1;
                self.heads[q] = SKIP;
            }
            self.heads[anchor as usize & CELL_MASK] = block.kind;
        }
        if geometry.key_bits().is_some() {
            return;
        }
        let (mut before, skip) = (0u16, first - base);
        for (i, rank) in self.rank[first..=last].iter_mut().enumerate() {
            *rank = before;
            before += (met >> ((skip + i) & 63) & 1) as u16;
        }
    }

    /// [`State::unpack`] when every block is a single cell: one nybble per live cell, no
    /// skipping, ranks as on the empty board. The blocks and empty cells are as many in every
    /// configuration, so they are written in place.
    #[inline]
    fn unpack_units(&mut self, geometry: &Geometry, key: &[u64]) {
        self.nybble_cells = geometry.occupancy.as_ref().map_or(0, Occupancy::live);
        self.blocks
            .resize(geometry.block_count, Block { kind: 0, anchor: 0 });
        self.empties
            .resize(geometry.nybbles - geometry.block_count, 0);
        let (mut b, mut e) = (0usize, 0usize);
        let mut word = 0u64;
        for (i, &p) in geometry.live.iter().enumerate() {
            if i & 15 == 0 {
                word = key.get(i >> 4).copied().unwrap_or(0);
            }
            let kind = (word >> 60) as u8;
            word <<= 4;
            let p = p as usize & CELL_MASK;
            self.heads[p] = kind;
            if kind == 0 {
                self.cells[p] = 0;
                if let Some(slot) = self.empties.get_mut(e) {
                    *slot = p as u32;
                }
                e += 1;
            } else {
                b += 1;
                self.cells[p] = b as u16;
                if let Some(slot) = self.blocks.get_mut(b - 1) {
                    *slot = Block {
                        kind,
                        anchor: p as u32,
                    };
                }
            }
        }
    }

    /// The kind on each board cell (row-major, unpadded): 0 for empty and dead cells.
    pub fn kinds(&self, geometry: &Geometry) -> Vec<u8> {
        (0..geometry.rows * geometry.cols)
            .map(|cell| match self.cells[geometry.pad(cell) as usize] {
                0 | WALL => 0,
                v => self.blocks[usize::from(v - 1)].kind,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry_and_start(text: &str) -> (Geometry, Puzzle) {
        let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
        (Geometry::new(&puzzle), puzzle)
    }

    #[test]
    fn the_silly_start_packs_as_in_the_seed() {
        let text = "5 x 5 (a silly example)\n1 = 111/01\n2 = 101/111\n3 = 1\n1xx200000000033\n000xx00033001002\n";
        let (geometry, puzzle) = geometry_and_start(text);
        // Section 20: "the silly starting configuration is the hexadecimal number 12000000000033".
        let key = geometry.key_of(&puzzle.start);
        assert_eq!(geometry.key_hex(&key), "1200000000033");
        assert_eq!(geometry.nybbles, 16);
        let mut state = geometry.empty_state();
        state.unpack(&geometry, &key);
        assert_eq!(state, geometry.state_of(&puzzle.start));
        assert_eq!(state.pack_vec(&geometry), key);
        assert_eq!(state.pack::<1>(&geometry).to_vec(), key);
    }

    #[test]
    fn keys_longer_than_one_word_round_trip() {
        let text = "3 x 7 wide\n1 = 1\n1000000x0000000000001\n1000000x0000000000001\n";
        let (geometry, puzzle) = geometry_and_start(text);
        assert_eq!(geometry.words, 2);
        let key = geometry.key_of(&puzzle.start);
        let mut state = geometry.empty_state();
        state.unpack(&geometry, &key);
        assert_eq!(state.pack::<2>(&geometry).to_vec(), key);
        assert_eq!(state.pack::<4>(&geometry)[..2].to_vec(), key);
        assert_eq!(geometry.key_hex(&key), "10000000000000000001");
    }
}
