//! Boards in memory and configurations packed into nybbles (sections 6–23 of the seed).
//!
//! A [`Geometry`] is the fixed part of a puzzle: the board padded with a wall border (stride
//! `cols + 1`, so that moving right, left, down, up adds `1, -1, stride, -stride` to a cell
//! index, and every step off the board lands on a wall), the live cells in row-major order, and
//! every kind's shape as offsets in that padded index space.
//!
//! A [`State`] is one configuration unpacked: `cells[p]` is 0 (empty), `b + 1` (block `b`) or
//! [`WALL`] (border or dead cell); block `b` has a kind and an anchor, the padded index of its
//! topmost-leftmost cell. Blocks are numbered in the row-major order of their anchors.
//!
//! The packed form is the seed's: walk the live cells in row-major order, skipping cells
//! covered by a block already met, and write one nybble per cell met — the kind of the block
//! anchored there, or 0. Invariant: every configuration of a puzzle packs into the same number
//! of nybbles, `live cells − cells covered by blocks + blocks`, so packed configurations are
//! fixed-length words `[u64; W]` (nybble `i` in bits `60 − 4(i mod 16)` of word `i / 16`, the
//! words beyond the last one zero); equal configurations, with indistinguishable blocks of one
//! kind, have equal keys.

use super::spec::{Layout, Puzzle};

/// Cell value of the border and of dead cells.
pub const WALL: u16 = u16::MAX;

/// The fixed part of a puzzle.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub rows: usize,
    pub cols: usize,
    pub stride: usize,
    /// Length of a padded cell array.
    pub padded: usize,
    /// Padded indices of the live (not dead) cells, row-major.
    pub live: Vec<u32>,
    /// Shape of each kind as padded offsets from the anchor (first offset 0); index 0 unused.
    pub shapes: [Vec<i32>; 16],
    /// Nybbles in a packed configuration.
    pub nybbles: usize,
    /// 64-bit words needed for them.
    pub words: usize,
    /// Offsets for moving right, left, down, up (the seed's `delta`).
    pub dirs: [i32; 4],
    /// `fronts[k][i]`: the offsets of kind `k`'s cells whose neighbour in direction `dirs[i]`
    /// is not part of the shape — the only cells that can bump into anything on a step.
    pub fronts: [[Vec<i32>; 4]; 16],
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub cells: Vec<u16>,
    pub heads: Vec<u8>,
    pub blocks: Vec<Block>,
}

/// `heads` value of a cell that contributes no nybble.
pub const SKIP: u8 = 0xff;

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
        let fronts = std::array::from_fn(|kind| {
            let shape: &Vec<i32> = &shapes[kind];
            std::array::from_fn(|i| {
                shape
                    .iter()
                    .copied()
                    .filter(|off| !shape.contains(&(off + dirs[i])))
                    .collect()
            })
        });
        Geometry {
            rows,
            cols,
            stride,
            padded,
            live,
            shapes,
            nybbles,
            words: nybbles.div_ceil(16).max(1),
            dirs,
            fronts,
        }
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
        let mut cells = vec![WALL; self.padded];
        let mut heads = vec![SKIP; self.padded];
        for &p in &self.live {
            cells[p as usize] = 0;
            heads[p as usize] = 0;
        }
        State {
            cells,
            heads,
            blocks: Vec::new(),
        }
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
        state
    }

    /// Packs a layout (convenience for the driver and tests).
    pub fn key_of(&self, layout: &Layout) -> Vec<u64> {
        self.state_of(layout).pack_vec(self)
    }

    /// The seed's hex form of a key: its nybbles up to the last nonzero one.
    pub fn key_hex(&self, key: &[u64]) -> String {
        let nybble = |i: usize| (key[i / 16] >> (60 - 4 * (i % 16))) & 0xf;
        let end = (0..self.nybbles)
            .rev()
            .find(|&i| nybble(i) != 0)
            .map_or(0, |i| i + 1);
        (0..end)
            .map(|i| char::from_digit(nybble(i) as u32, 16).unwrap_or('?'))
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
            let head = self.heads[p as usize];
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
            let head = self.heads[p as usize];
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
        for &off in &geometry.shapes[usize::from(block.kind)] {
            let p = (block.anchor as i32 + off) as usize;
            self.cells[p] = 0;
            self.heads[p] = 0;
        }
    }

    /// Puts block `b` on the board at its recorded anchor.
    #[inline]
    pub fn put_block(&mut self, geometry: &Geometry, b: u16) {
        let block = self.blocks[usize::from(b)];
        for &off in &geometry.shapes[usize::from(block.kind)] {
            let p = (block.anchor as i32 + off) as usize;
            self.cells[p] = b + 1;
            self.heads[p] = SKIP;
        }
        self.heads[block.anchor as usize] = block.kind;
    }

    /// Rebuilds the state from a key produced by [`State::pack`] for the same geometry.
    #[inline]
    pub fn unpack(&mut self, geometry: &Geometry, key: &[u64]) {
        for &p in &geometry.live {
            self.cells[p as usize] = 0;
            self.heads[p as usize] = 0;
        }
        self.blocks.clear();
        let mut i = 0usize;
        for &p in &geometry.live {
            if self.cells[p as usize] != 0 {
                continue;
            }
            let kind = ((key[i >> 4] >> (60 - 4 * (i & 15))) & 0xf) as u8;
            i += 1;
            if kind != 0 {
                self.blocks.push(Block { kind, anchor: p });
                self.put_block(geometry, (self.blocks.len() - 1) as u16);
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
