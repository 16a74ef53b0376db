//! The board as the bits of one `u64`: unpacking finds the cell of each nybble with one
//! `trailing_zeros`, and whether a mover fits somewhere is one `and` instead of a loop over its
//! front cells (whose length varies with the kind and the direction, a branch the predictor
//! keeps missing).
//!
//! Bit `p − base` stands for padded cell `p`, where `base` is the cell just above the first
//! live one: the window covers the live span and one row of wall on either side, which is as
//! far as a mover is ever tried (only one step from a place where it fits). A block's cells
//! are its kind's shape bits shifted to its anchor; a mover of several blocks is the union of
//! theirs. Invariant: the clear bits of [`Occupancy::of`] are the empty cells, every other bit
//! is set (blocks, walls, beyond the board), so a mover fits where its mask, displaced, meets
//! no set bit once its own are cleared. Displacing is a rotation, which equals a shift since
//! no bit of a mover tried one step from a place where it fits leaves the window. Boards whose
//! window is wider than 64 cells go by the cells.

/// The bit masks of a geometry whose window fits in 64 bits.
#[derive(Clone, Debug)]
pub struct Occupancy {
    /// The padded cell of bit 0.
    base: usize,
    /// The live cells.
    live: u64,
    /// `shape[k]`: kind `k`'s cells, from its anchor at bit 0.
    shape: [u64; 16],
}

impl Occupancy {
    /// The masks for the `live` cells, from `first` to `last`, of a board of row length
    /// `stride`, with the kinds' shapes as padded offsets; `None` when the window is wider
    /// than 64 cells.
    pub fn new(
        live: &[u32],
        (first, last): (usize, usize),
        stride: usize,
        shapes: &[Vec<i32>; 16],
    ) -> Option<Self> {
        let base = first.checked_sub(stride)?;
        let width = last + stride - base + 1;
        if width > 64 {
            return None;
        }
        let shape = std::array::from_fn(|kind| {
            shapes[kind]
                .iter()
                .fold(0, |bits, &off| bits | 1u64 << (off & 63))
        });
        let live = live
            .iter()
            .fold(0, |bits, &p| bits | 1 << ((p as usize - base) & 63));
        Some(Occupancy { base, live, shape })
    }

    /// The padded cell of bit 0, the first of the window.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The live cells.
    pub fn live(&self) -> u64 {
        self.live
    }

    /// The cells of a configuration that are not empty: all but `empties`, the padded indices
    /// of its empty cells.
    #[inline]
    pub fn of(&self, empties: &[u32]) -> u64 {
        empties.iter().fold(u64::MAX, |bits, &p| {
            bits & !(1 << ((p as usize).wrapping_sub(self.base) & 63))
        })
    }

    /// Kind `kind`'s cells, from its anchor at bit 0 (none for kind 0).
    #[inline]
    pub fn shape(&self, kind: usize) -> u64 {
        self.shape[kind & 15]
    }

    /// The cells of a block of kind `kind` anchored on padded cell `anchor`.
    #[inline]
    pub fn mask(&self, kind: u8, anchor: u32) -> u64 {
        let at = (anchor as usize).wrapping_sub(self.base) & 63;
        self.shape[usize::from(kind) & 15] << at
    }

    /// Whether the cells `mask`, displaced by `delta`, meet none of `others`.
    #[inline]
    pub fn clear(mask: u64, delta: i32, others: u64) -> bool {
        mask.rotate_left(delta as u32 & 63) & others == 0
    }
}
