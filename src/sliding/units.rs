//! Successor keys of n-puzzles: styles 0–2 when every block is a single cell.
//!
//! A single-cell block fits exactly where a cell is empty, so the moves need no shapes and no
//! fronts: in direction `k`, the block just before an empty cell `e` (at `e − dirs[k]`) can
//! move onto `e` (and, in style 1, on along the run of empty cells beyond). Its key is the
//! parent's with the block's kind taken from the nybble of its old cell and put into that of
//! its new cell, at ranks that are the same in every configuration (no cell is ever skipped).
//!
//! Invariant: the keys come in the order of [`super::moves::Mover::successors`] — direction by
//! direction, the blocks within a direction from the largest number down, which is from the
//! last cell back, as blocks are numbered in cell order. Style 2 comes here only when there is
//! a single empty cell: then every path is the one step onto it, in the order of style 0. The
//! tests of [`super::keys`] check it against the general generator.

use super::moves::{Next, Reach};
use super::pack::{Geometry, State, CELL_MASK, SKIP};

/// The parent's `key` with `kind` moved from the nybble of cell `from` to that of cell `to`.
#[inline]
fn moved<const W: usize>(
    state: &State,
    key: &[u64; W],
    kind: u8,
    from: usize,
    to: usize,
) -> [u64; W] {
    let mut key = *key;
    for cell in [from, to] {
        let i = usize::from(state.rank[cell & CELL_MASK]);
        key[(i >> 4) & (W - 1)] ^= u64::from(kind) << (60 - 4 * (i & 15));
    }
    key
}

/// Calls `emit` with the key of every move of the single-cell blocks of `state` (unpacked from
/// `key`) in a step or along a line, until it answers [`Next::Stop`]: for each direction, the
/// blocks just before an empty cell, from the last empty cell back (the blocks from the
/// largest number down, as blocks are numbered in cell order).
pub(super) fn successor_keys<const W: usize, F>(
    geometry: &Geometry,
    state: &State,
    key: &[u64; W],
    reach: Reach,
    mut emit: F,
) where
    F: FnMut(&[u64; W]) -> Next,
{
    // The kind of the block on a cell; 0 for an empty cell, SKIP for a wall.
    let kind_at = |cell: i32| state.heads[cell as usize & CELL_MASK];
    let is_block = |kind: u8| kind != 0 && kind != SKIP;
    for &dir in &geometry.dirs {
        for &e in state.empties.iter().rev() {
            let from = e as i32 - dir;
            let kind = kind_at(from);
            if !is_block(kind) {
                continue;
            }
            let mut to = e as i32;
            loop {
                if emit(&moved(state, key, kind, from as usize, to as usize)) == Next::Stop {
                    return;
                }
                to += dir;
                if reach == Reach::Step || kind_at(to) != 0 {
                    break;
                }
            }
        }
    }
}
