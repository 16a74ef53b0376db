//! The backtrack over ideals with the seed's own data structures (sections 46–54), kept step
//! for step: the board copied into `aboard`, each vertex's cells linked from the highest down,
//! and the arcs in linked lists built exactly as the seed builds them (vertices in increasing
//! order, each from its highest cell down, every arc put at the head of its lists, a repeated
//! arc from the same vertex skipped only when it is the latest one). It works for any number
//! of blocks, and is the standard the bit-set version ([`super::bits`]) is tested against.

use super::walls::{backup, Walls};
use crate::sliding::pack::{Geometry, State, CELL_MASK, PADDED_MAX};

/// Room for the vertices: the stuck vertex and at most 256 blocks.
const VERTICES: usize = 512;

/// Masks a vertex number or a backtrack level (a no-op for real ones).
const VERTEX_MASK: usize = VERTICES - 1;

/// Scratch space for the ideals of one configuration, reused between configurations. The
/// arrays have fixed sizes, and indices are masked into them, so that no access can fail.
pub struct Lists {
    /// Per padded cell: the vertex on it (0 for walls and dead cells), −1 when empty.
    aboard: Box<[i32; PADDED_MAX]>,
    /// Per padded cell: the next lower cell of the same vertex, −1 at the end.
    link: Box<[i32; PADDED_MAX]>,
    /// Per cell: the next arc of the same list.
    olink: Box<[i32; PADDED_MAX]>,
    ilink: Box<[i32; PADDED_MAX]>,
    /// Vertices are `0..=n`.
    n: usize,
    /// Per vertex: its highest cell.
    head: Box<[i32; VERTICES]>,
    /// Per vertex: the first arc out (a cell of the target) and in (a cell of the source).
    out: Box<[i32; VERTICES]>,
    into: Box<[i32; VERTICES]>,
    perm: Box<[usize; VERTICES]>,
    iperm: Box<[usize; VERTICES]>,
    /// Per backtrack level.
    decision: Box<[bool; VERTICES]>,
    inx: Box<[usize; VERTICES]>,
    lstart: Box<[usize; VERTICES]>,
    /// The blocks of the current superpiece (our numbering): the first `count`.
    members: Box<[u16; VERTICES]>,
    count: usize,
    walls: Walls,
}

impl Default for Lists {
    fn default() -> Self {
        Lists {
            aboard: Box::new([0; PADDED_MAX]),
            link: Box::new([-1; PADDED_MAX]),
            olink: Box::new([-1; PADDED_MAX]),
            ilink: Box::new([-1; PADDED_MAX]),
            n: 0,
            head: Box::new([-1; VERTICES]),
            out: Box::new([-1; VERTICES]),
            into: Box::new([-1; VERTICES]),
            perm: Box::new([0; VERTICES]),
            iperm: Box::new([0; VERTICES]),
            decision: Box::new([false; VERTICES]),
            inx: Box::new([0; VERTICES]),
            lstart: Box::new([0; VERTICES]),
            members: Box::new([0; VERTICES]),
            count: 0,
            walls: Walls::default(),
        }
    }
}

impl Lists {
    /// Copies and links the board of `state` (section 46).
    pub fn prepare(&mut self, geometry: &Geometry, state: &State) {
        let n = state.blocks.len().min(VERTICES - 2);
        if self.walls.update(geometry) {
            // Walls and dead cells are the stuck vertex; live cells are all set below.
            self.aboard.fill(0);
        }
        self.n = n;
        self.head[..=n].fill(-1);
        for &p in &geometry.live {
            let j = p as usize & CELL_MASK;
            let v = state.cells[j];
            if v == 0 {
                self.aboard[j] = -1;
                continue;
            }
            let vertex = n.wrapping_sub(usize::from(v - 1)) & VERTEX_MASK;
            self.aboard[j] = vertex as i32;
            self.link[j] = self.head[vertex];
            self.head[vertex] = j as i32;
        }
    }

    /// Calls `visit(k, movers)` for every superpiece of the prepared configuration, `k` being
    /// the direction (an index into `geometry.dirs`): the shifts by a row (down, up) first, then
    /// by a column (right, left), each in the seed's backtrack order. False when `visit` asked
    /// to stop.
    pub fn for_each(
        &mut self,
        geometry: &Geometry,
        mut visit: impl FnMut(usize, &[u16]) -> bool,
    ) -> bool {
        let stride = geometry.stride as i32;
        self.digraph(geometry, stride, 0) && self.backtrack(2, &mut visit) && {
            self.digraph(geometry, 1, 1) && self.backtrack(0, &mut visit)
        }
    }

    /// Builds the arcs for shifts by `del` (sections 47–48), whose wall list is `walls[side]`.
    /// Always true.
    fn digraph(&mut self, geometry: &Geometry, del: i32, side: usize) -> bool {
        let first_cell = geometry.stride as i32;
        let n = self.n;
        self.out[..=n].fill(-1);
        self.into[..=n].fill(-1);
        // The stuck vertex 0 first, then the blocks, each from its highest cell down.
        let walls = std::mem::take(&mut self.walls.cells[side]);
        for &k in &walls {
            self.arc_into(0, k, del);
        }
        self.walls.cells[side] = walls;
        for j in 1..=n {
            let mut k = self.head[j];
            while k >= first_cell {
                self.arc_into(j, k, del);
                k = self.link[k as usize & CELL_MASK];
            }
        }
        true
    }

    /// The arc into vertex `j` from what would land on its cell `k` when shifted by `del`
    /// (none from an empty cell or from `j` itself; a repeated one only when it is not the
    /// latest arc of its source).
    #[inline]
    fn arc_into(&mut self, j: usize, k: i32, del: i32) {
        let below = (k - del) as usize & CELL_MASK;
        let t = self.aboard[below];
        if t != j as i32 && t >= 0 {
            let t = t as usize & VERTEX_MASK;
            let latest = self.out[t];
            if latest < 0 || self.aboard[latest as usize & CELL_MASK] != j as i32 {
                self.olink[k as usize & CELL_MASK] = latest;
                self.out[t] = k;
                self.ilink[below] = self.into[j & VERTEX_MASK];
                self.into[j & VERTEX_MASK] = k - del;
            }
        }
    }

    /// Moves vertex `u` to position `t` of the permutation.
    #[inline]
    fn bring(&mut self, u: usize, t: usize) {
        let (displaced, from) = (self.perm[t & VERTEX_MASK], self.iperm[u & VERTEX_MASK]);
        self.perm[t & VERTEX_MASK] = u;
        self.perm[from & VERTEX_MASK] = displaced;
        self.iperm[u & VERTEX_MASK] = t;
        self.iperm[displaced & VERTEX_MASK] = from;
    }

    /// The backtrack of section 50; `k` is the direction of `+del` (`k + 1` that of `−del`).
    fn backtrack(&mut self, k: usize, visit: &mut impl FnMut(usize, &[u16]) -> bool) -> bool {
        let n = self.n;
        for v in 0..=n {
            self.perm[v] = v;
            self.iperm[v] = v;
        }
        self.count = 0;
        self.inx[0] = 0;
        let mut l = 0usize;
        let mut include = false;
        loop {
            // Decide `perm[inx[l]]`, dragging along what the decision forces.
            let level = l & VERTEX_MASK;
            self.decision[level] = include;
            if include {
                self.count = self.lstart[level];
            } else {
                self.lstart[level] = self.count;
            }
            let stuck_in = self.decision[0];
            let mut j = self.inx[level];
            let mut t = j + 1;
            while j < t {
                let v = self.perm[j & VERTEX_MASK];
                let mut cell = if include {
                    self.out[v & VERTEX_MASK]
                } else {
                    self.into[v & VERTEX_MASK]
                };
                while cell >= 0 {
                    let c = cell as usize & CELL_MASK;
                    let u = self.aboard[c] as usize & VERTEX_MASK;
                    if self.iperm[u] >= t {
                        self.bring(u, t);
                        t += 1;
                    }
                    cell = if include {
                        self.olink[c]
                    } else {
                        self.ilink[c]
                    };
                }
                // Moving: the included blocks (`+del`), or the excluded ones (`−del`); our
                // block number of vertex `v` is `n − v`.
                if include != stuck_in {
                    self.members[self.count & VERTEX_MASK] = n.wrapping_sub(v) as u16;
                    self.count += 1;
                }
                j += 1;
            }
            if t <= n {
                l += 1;
                self.inx[l & VERTEX_MASK] = t;
                include = false;
                continue;
            }
            if self.count > 0 {
                let direction = k + usize::from(stuck_in);
                let members = &self.members[..self.count.min(VERTICES)];
                if !visit(direction, members) {
                    return false;
                }
            }
            if !include {
                include = true;
                continue;
            }
            match backup(&self.decision[..], l) {
                Some(level) => l = level,
                None => return true,
            }
        }
    }
}
