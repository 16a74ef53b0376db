//! Successor keys of n-puzzles: styles 0–2 when every block is a single cell.
//!
//! A single-cell block fits exactly where a cell is empty, so the moves need no shapes and no
//! fronts: in direction `k`, the block just before an empty cell `e` (at `e − dirs[k]`) can
//! move onto `e` (and, in style 1, on along the run of empty cells beyond). Its key is the
//! parent's with the block's kind taken from the nybble of its old cell and put into that of
//! its new cell. No cell is ever skipped, so nybble `i` is always live cell `i`: the moves are
//! read off the key itself, without unpacking it.
//!
//! Invariant: the keys come in the order of [`super::Mover::successors`] — direction by
//! direction, the blocks within a direction from the largest number down, which is from the
//! last cell back, as blocks are numbered in cell order. Style 2 comes here only when there is
//! a single empty cell: then every path is the one step onto it, in the order of style 0. The
//! tests of [`super`] check it against the general generator.

use super::walk::{Next, Reach};
use crate::sliding::pack::{shift, word, Geometry, NO_CELL};

/// Nybble `i` of a key of `W` words.
#[inline]
fn nybble<const W: usize>(key: &[u64; W], i: usize) -> u8 {
    ((key[word::<W>(i)] >> shift(i)) & 0xf) as u8
}

/// The key with `kind` moved from nybble `from` to nybble `to` (which holds 0).
#[inline]
fn moved<const W: usize>(key: &[u64; W], kind: u8, from: usize, to: usize) -> [u64; W] {
    let mut key = *key;
    for i in [from, to] {
        key[word::<W>(i)] ^= u64::from(kind) << shift(i);
    }
    key
}

/// Calls `emit` with the key of every move of the single-cell blocks of configuration `key`
/// in a step or along a line, until it answers [`Next::Stop`]: for each direction, the
/// blocks just before an empty cell, from the last empty cell back (the blocks from the
/// largest number down, as blocks are numbered in cell order). Nybble `i` is live cell `i`
/// (no cell is ever skipped), whose neighbours are [`Geometry::steps`]`[i]`; the empty cells
/// are the zero nybbles, found a word at a time.
pub(super) fn successor_keys<const W: usize, F>(
    geometry: &Geometry,
    key: &[u64; W],
    reach: Reach,
    mut emit: F,
) where
    F: FnMut(&[u64; W]) -> Next,
{
    let nybbles = geometry.nybbles;
    // The empty cells: a bit per zero nybble (in a word, the lowest is the last one).
    let zeros: [u64; W] = std::array::from_fn(|w| {
        let word = key[w];
        let zeros = !(word | word >> 1 | word >> 2 | word >> 3) & 0x1111_1111_1111_1111;
        // Only the nybbles of the configuration (the last word may be partly unused).
        let used = nybbles.saturating_sub(16 * w).min(16);
        zeros & u64::MAX.checked_shl(4 * (16 - used) as u32).unwrap_or(0)
    });
    let steps = &geometry.steps;
    let next = |i: usize, k: usize| usize::from(steps.get(i).map_or(NO_CELL, |s| s[k]));
    for k in 0..4 {
        // The empty cells, last first.
        for (w, &zeros) in zeros.iter().enumerate().rev() {
            let mut rest = zeros;
            while rest != 0 {
                let e = 16 * w + 15 - (rest.trailing_zeros() / 4) as usize;
                rest &= rest - 1;
                // The block just before `e`, opposite to direction `k`.
                let from = next(e, k ^ 1);
                if from == usize::from(NO_CELL) {
                    continue;
                }
                let kind = nybble(key, from);
                if kind == 0 {
                    continue;
                }
                let mut to = e;
                loop {
                    if emit(&moved(key, kind, from, to)) == Next::Stop {
                        return;
                    }
                    if reach == Reach::Step {
                        break;
                    }
                    to = next(to, k);
                    if to == usize::from(NO_CELL) || nybble(key, to) != 0 {
                        break;
                    }
                }
            }
        }
    }
}
