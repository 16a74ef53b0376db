//! What both backtracks over ideals ([`super::lists`] and [`super::bits`]) share: the cells of
//! the stuck vertex 0 (walls and dead cells) that can have arcs, and the step back of the
//! backtrack (section 50).
//!
//! Invariant: [`Walls`] describe the board of the [`Geometry`] whose [`Geometry::id`] they
//! hold, and are found again only for another board.

use crate::sliding::pack::{Geometry, PADDED_MAX};

/// Where the backtrack goes after the leaf below level `l` with its vertex included (section
/// 50's `backup`): the latest level whose vertex was excluded, to include it now; `None` when
/// there is none, and the backtrack is over.
pub(super) fn backup(decision: &[bool], l: usize) -> Option<usize> {
    (0..l)
        .rev()
        .find(|&level| decision.get(level) == Some(&false))
}

/// The cells of the stuck vertex that can have arcs, from the highest down, for shifts by a
/// row (`cells[0]`) and by a column (`cells[1]`): walls and dead cells `k` with a live cell at
/// `k − del` (the others only meet the stuck vertex itself). They depend on the board only.
#[derive(Default)]
pub(super) struct Walls {
    /// The [`Geometry::id`] of the board they were found for (0 for none).
    geometry: u64,
    pub(super) cells: [Vec<i32>; 2],
    /// The walls and dead cells `k` with a live cell at `k + del`, on which the stuck vertex's
    /// arcs land, for each side.
    pub(super) facing: [Vec<i32>; 2],
}

impl Walls {
    /// Finds the walls of `geometry`'s board unless known; true when they were found afresh.
    pub(super) fn update(&mut self, geometry: &Geometry) -> bool {
        if self.geometry == geometry.id {
            return false;
        }
        let cells = geometry.padded.min(PADDED_MAX);
        self.geometry = geometry.id;
        let mut live = vec![false; cells];
        for &p in &geometry.live {
            live[p as usize] = true;
        }
        let first_cell = geometry.stride;
        for (walls, del) in self.cells.iter_mut().zip([geometry.stride, 1]) {
            *walls = (first_cell..cells)
                .rev()
                .filter(|&k| !live[k] && live[k - del])
                .map(|k| k as i32)
                .collect();
        }
        for (facing, del) in self.facing.iter_mut().zip([geometry.stride, 1]) {
            *facing = (0..cells - del)
                .filter(|&k| !live[k] && live[k + del])
                .map(|k| k as i32)
                .collect();
        }
        true
    }
}
