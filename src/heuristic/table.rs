//! One zero-aware pattern database (Clausecker & Reinefeld 2019): for every placement of a
//! group's tiles and every region of the blank, the fewest moves *of the group's tiles* that
//! bring them home, the other tiles being indistinguishable and free to move at no cost. The
//! blank's cell matters only through its *region*, the cells it reaches without moving a group
//! tile, so the table has one entry per region ([`super::placement`]).
//!
//! Such a table is consistent: one move changes its value by exactly one. And every value has
//! the parity of the group's Manhattan distance. So one bit per entry, bit 1 of the value, is
//! enough: knowing a value `v`, the value after a move is `v - 1` or `v + 1`, and those differ
//! in bit 1. A value with nothing known is found by *descent*: `v mod 4` is read off the entry
//! (bit 1) and the parity, and from any entry but the goal a move of a group tile leads to an
//! entry one lower, recognised by its `v mod 4`; the number of steps down to the goal is `v`.
//!
//! Invariant: `bits` holds bit 1 of the exact value of every reachable entry (built by
//! [`super::build`]); entries that cannot occur (an odd permutation when the group and the
//! blank fill the board) hold 0 and are never read.

use super::bits::Bits;
use super::grid::Grid;
use super::placement::{mask, Layout};
use crate::board::MAX_CELLS;
use std::hint::select_unpredictable;
use std::sync::Arc;

/// The table of one group.
#[derive(Debug)]
pub struct GroupTable {
    grid: Grid,
    /// The group's pieces, named by their home cell, in slot order.
    homes: Vec<u8>,
    layout: Arc<Layout>,
    /// The region of the blank in the goal: value 0 there.
    goal_region: u32,
    goal_occupied: u32,
    /// Bit `i` is bit 1 of entry `i`'s value (the file's payload).
    bits: Bits,
}

impl GroupTable {
    /// Wraps bits built for `homes` on `grid`; `None` if their number is wrong.
    pub fn new(grid: Grid, homes: Vec<u8>, bits: Bits) -> Option<GroupTable> {
        let layout = Layout::shared(grid, homes.len()).ok()?;
        if bits.len() != Self::bytes(&layout) {
            return None;
        }
        let goal_occupied = mask(&homes);
        let blank_home = 1u32 << grid.board().blank_home();
        let goal_region = grid.region(blank_home, grid.all() & !goal_occupied);
        Some(GroupTable {
            grid,
            homes,
            layout,
            goal_region,
            goal_occupied,
            bits,
        })
    }

    /// The number of bytes of a table with the entries of `layout`.
    pub fn bytes(layout: &Layout) -> u64 {
        layout.entries().div_ceil(8)
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn homes(&self) -> &[u8] {
        &self.homes
    }

    pub fn bits(&self) -> &Bits {
        &self.bits
    }

    /// Bit 1 of the value of entry `index`.
    #[inline]
    pub fn bit(&self, index: u64) -> u32 {
        self.bits.bit(index)
    }

    /// The entry of the group's pieces on `cells` (slot order) with the blank on `blank`.
    #[inline]
    pub fn index(&self, cells: &[u8], blank: u8) -> u64 {
        self.layout.index_of(cells, blank)
    }

    /// `v mod 4` of the entry, from its bit and the parity of the group's Manhattan distance.
    fn residue(&self, cells: &[u8], blank: u8) -> u32 {
        let manhattan: u32 = self
            .homes
            .iter()
            .zip(cells)
            .map(|(&home, &cell)| self.grid.distance(home, cell))
            .sum();
        2 * self.bit(self.index(cells, blank)) + (manhattan & 1)
    }

    /// The value after a move that changes the group's entry to (`cells`, `blank`), from
    /// `before`, the value before it.
    #[inline]
    pub fn next_value(&self, before: u32, index: u64) -> u32 {
        // Without a branch: which way a move goes is as good as random.
        select_unpredictable(
            self.goes_down(before, index),
            before.wrapping_sub(1),
            before + 1,
        )
    }

    /// Whether the value after a move that changes the group's entry to `index` is one less
    /// than `before`, the value before it (else it is one more).
    #[inline]
    pub fn goes_down(&self, before: u32, index: u64) -> bool {
        (before > 0) & ((before.wrapping_sub(1) >> 1) & 1 == self.bit(index))
    }

    /// The exact value of the group's pieces on `cells` with the blank on `blank`, by descent.
    pub fn value(&self, cells: &[u8], blank: u8) -> u32 {
        let k = cells.len();
        let mut here = [0u8; MAX_CELLS];
        here[..k].copy_from_slice(cells);
        let mut blank = blank;
        let mut steps = 0;
        // A consistent table reaches the goal within its largest value (< 256).
        while steps < 256 {
            let cells = &mut here[..k];
            if *cells == *self.homes {
                let free = self.grid.all() & !self.goal_occupied;
                if self.grid.region(1 << blank, free) & self.goal_region != 0 {
                    return steps;
                }
            }
            let region = self.grid.region(1 << blank, self.grid.all() & !mask(cells));
            let lower = (self.residue(cells, blank) + 3) % 4;
            let mut stepped = false;
            'slots: for slot in 0..k {
                let from = cells[slot];
                let mut targets = self.grid.spread(1 << from) & region;
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    cells[slot] = to;
                    if self.residue(cells, from) == lower {
                        blank = from;
                        stepped = true;
                        break 'slots;
                    }
                    cells[slot] = from;
                }
            }
            if !stepped {
                break; // cannot happen in a consistent table: every entry has a lower neighbour
            }
            steps += 1;
        }
        steps
    }
}
