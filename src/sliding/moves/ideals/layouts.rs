//! Superpieces remembered by layout, for n-puzzles.
//!
//! When every block is a single cell, the blocks are numbered by their cells in row-major
//! order, so the "would bump into" digraphs, hence the superpieces and their order, depend
//! only on which cells are empty, not on which tile stands where. The 8-puzzle has 9 such
//! layouts for its 181,440 configurations: each layout's superpieces are found once, by the
//! backtrack, and shown again for every configuration of that layout.
//!
//! Invariant: a remembered list is exactly what the backtrack shows for every configuration
//! of its layout, in its order (checked in the tests of [`super`] against the
//! implementations). The memory is bounded: once a layout's superpieces would take the held
//! members past [`ROOM`], or [`ROOM`] layouts are held, no more layouts are remembered, and
//! the others are found afresh each time.

use crate::sliding::pack::Geometry;
use rustc_hash::FxHashMap;

/// The most members (and the most layouts) remembered: at most about half a megabyte in all
/// (an n-puzzle with one blank has as many layouts as cells, each a few superpieces).
const ROOM: usize = 1 << 14;

/// A layout's superpieces: a range of [`Layouts::entries`].
pub type Known = (u32, u32);

/// The superpieces of the layouts met so far.
pub struct Layouts {
    /// The [`Geometry::id`] of the board they were found for (0 for none).
    geometry: u64,
    /// Each layout (the occupied cells, as occupancy bits) and its superpieces.
    index: FxHashMap<u64, Known>,
    /// Every superpiece remembered: its direction and the range of its blocks in `members`.
    entries: Vec<(u8, u32, u32)>,
    members: Vec<u16>,
    /// A layout did not fit: no more are remembered.
    full: bool,
    /// The most members, and the most layouts, held.
    room: usize,
}

impl Default for Layouts {
    fn default() -> Self {
        Layouts::with_room(ROOM)
    }
}

impl Layouts {
    /// Nothing remembered yet, in room for `room` members and layouts.
    pub fn with_room(room: usize) -> Self {
        Layouts {
            geometry: 0,
            index: FxHashMap::default(),
            entries: Vec::new(),
            members: Vec::new(),
            full: false,
            room,
        }
    }

    /// Forgets every layout unless they were found on `geometry`'s board.
    pub fn serve(&mut self, geometry: &Geometry) {
        if self.geometry != geometry.id {
            *self = Layouts {
                geometry: geometry.id,
                ..Layouts::with_room(self.room)
            };
        }
    }

    /// How many layouts are remembered.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// The superpieces of `layout`, when remembered.
    #[inline]
    pub fn get(&self, layout: u64) -> Option<Known> {
        self.index.get(&layout).copied()
    }

    /// Whether another layout may be remembered.
    pub fn has_room(&self) -> bool {
        !self.full && self.index.len() < self.room
    }

    /// Remembers the superpieces `for_each` shows (all of them) as those of `layout`; `None`
    /// when they do not fit in the room left (and then none of them is kept).
    pub fn record(
        &mut self,
        layout: u64,
        for_each: impl FnOnce(&mut dyn FnMut(usize, &[u16]) -> bool) -> bool,
    ) -> Option<Known> {
        let (entries, members, room) = (&mut self.entries, &mut self.members, self.room);
        let (first, held) = (entries.len(), members.len());
        let complete = for_each(&mut |k, movers| {
            if members.len() + movers.len() > room {
                return false;
            }
            let start = members.len() as u32;
            members.extend_from_slice(movers);
            entries.push((k as u8, start, members.len() as u32));
            true
        });
        if !complete {
            self.entries.truncate(first);
            self.members.truncate(held);
            self.full = true;
            return None;
        }
        let known = (first as u32, self.entries.len() as u32);
        self.index.insert(layout, known);
        Some(known)
    }

    /// Calls `visit(k, movers)` for the superpieces `known`, in order, as long as it answers
    /// true; false when it did not.
    #[inline]
    pub fn replay(&self, known: Known, mut visit: impl FnMut(usize, &[u16]) -> bool) -> bool {
        let (first, end) = (known.0 as usize, known.1 as usize);
        self.entries[first..end].iter().all(|&(k, start, end)| {
            visit(usize::from(k), &self.members[start as usize..end as usize])
        })
    }
}
