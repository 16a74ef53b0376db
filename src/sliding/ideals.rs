//! Superpieces in the seed's order (sections 46–54): Knuth's backtrack over the ideals of the
//! "would bump into" digraph, kept step for step so that styles 3–5 visit the superpieces of a
//! configuration in the same sequence as SLIDING, hence number new configurations the same way.
//!
//! The vertices are the stuck vertex 0 (walls and dead cells) and the blocks, numbered as the
//! seed's `unpack` numbers them: the block met first in row-major order is vertex `n`, the last
//! one vertex 1 (our block `b` is vertex `n − b`). For a shift by `+del` (down, then right) an
//! arc `u → v` means that `u` moved by `del` would land on `v`. The arc lists are built exactly
//! as the seed builds them (cells of each vertex linked from the highest down, vertices in
//! increasing order, a repeated arc from the same vertex skipped only when it is the latest
//! one), because their order decides the order of the permutation below.
//!
//! The backtrack keeps a permutation `perm` of the vertices; at level `l` the vertices
//! `perm[inx[l]..]` are undecided, and deciding `perm[inx[l]]` (first *exclude* it, with every
//! vertex that leads to it; then *include* it, with every vertex it leads to) moves the
//! vertices decided with it to the positions right after it. Invariant: every leaf is an ideal
//! (a set closed under the arcs), and every ideal is one leaf. The stuck vertex is decided
//! first: an ideal without it is a superpiece for `+del`; the complement of an ideal with it
//! (an ideal of the reversed digraph) is a superpiece for `−del`.

use super::pack::{Geometry, State, CELL_MASK, PADDED_MAX};

/// Room for the vertices: the stuck vertex and at most 256 blocks.
const VERTICES: usize = 512;

/// Masks a vertex number or a backtrack level (a no-op for real ones).
const VERTEX_MASK: usize = VERTICES - 1;

/// Scratch space for the ideals of one configuration, reused between configurations. The
/// arrays have fixed sizes, and indices are masked into them, so that no access can fail.
pub struct Ideals {
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
    /// The live cells of the board the walls below were found for.
    live: Vec<u32>,
    /// The cells of the stuck vertex that can have arcs, from the highest down, for shifts by
    /// a row and by a column: walls and dead cells `k` with a live cell at `k − del` (the
    /// others only meet the stuck vertex itself). They never change.
    walls: [Vec<i32>; 2],
}

impl Default for Ideals {
    fn default() -> Self {
        Ideals {
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
            live: Vec::new(),
            walls: [Vec::new(), Vec::new()],
        }
    }
}

impl Ideals {
    /// Copies and links the board of `state` (section 46).
    pub fn prepare(&mut self, geometry: &Geometry, state: &State) {
        let n = state.blocks.len().min(VERTICES - 2);
        if self.live != geometry.live {
            self.find_walls(geometry);
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

    /// The parts of the board that never change: the stuck vertex's cells.
    fn find_walls(&mut self, geometry: &Geometry) {
        let cells = geometry.padded.min(PADDED_MAX);
        self.live.clone_from(&geometry.live);
        self.aboard.fill(0);
        let mut live = vec![false; cells];
        for &p in &geometry.live {
            live[p as usize] = true;
        }
        let first_cell = geometry.stride;
        for (walls, del) in self.walls.iter_mut().zip([geometry.stride, 1]) {
            *walls = (first_cell..cells)
                .rev()
                .filter(|&k| !live[k] && live[k - del])
                .map(|k| k as i32)
                .collect();
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
        let walls = std::mem::take(&mut self.walls[side]);
        for &k in &walls {
            self.arc_into(0, k, del);
        }
        self.walls[side] = walls;
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
            // Back up to the latest level still to be included.
            loop {
                if l == 0 {
                    return true;
                }
                l -= 1;
                if !self.decision[l & VERTEX_MASK] {
                    break;
                }
            }
            include = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sliding::moves::Mover;
    use crate::sliding::pack::WALL;
    use crate::sliding::spec::Puzzle;
    use crate::sliding::Style;
    use std::collections::BTreeSet;

    fn state_of(text: &str) -> (Geometry, State) {
        let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
        let geometry = Geometry::new(&puzzle);
        let state = geometry.state_of(&puzzle.start);
        (geometry, state)
    }

    /// Every superpiece in the order visited, as (direction, sorted blocks).
    fn knuth_order(
        ideals: &mut Ideals,
        geometry: &Geometry,
        state: &State,
    ) -> Vec<(usize, Vec<u16>)> {
        ideals.prepare(geometry, state);
        let mut seen = Vec::new();
        ideals.for_each(geometry, |k, movers| {
            let mut movers = movers.to_vec();
            movers.sort_unstable();
            seen.push((k, movers));
            true
        });
        seen
    }

    /// Whether the blocks `set` (a bit set) can all shift one step in direction `k` together:
    /// every cell they would land on is empty or theirs.
    fn can_shift(geometry: &Geometry, state: &State, set: u64, k: usize) -> bool {
        let dir = geometry.dirs[k];
        let member = |b: usize| set >> b & 1 == 1;
        state.blocks.iter().enumerate().all(|(b, block)| {
            !member(b)
                || geometry.shapes[usize::from(block.kind)].iter().all(|&off| {
                    let v = state.cells[(block.anchor as i32 + off + dir) as usize];
                    v == 0 || (v != WALL && member(usize::from(v - 1)))
                })
        })
    }

    /// The superpieces of every configuration within a few moves of the start: exactly the
    /// nonempty sets that can shift (by brute force over all sets), each once.
    fn check(text: &str, max_configurations: usize) {
        let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
        let geometry = Geometry::new(&puzzle);
        let start = geometry.key_of(&puzzle.start);
        let mut seen = vec![start.clone()];
        let mut queue = std::collections::VecDeque::from([start]);
        let mut state = geometry.empty_state();
        let mut mover = Mover::new();
        let mut ideals = Ideals::default();
        while let Some(key) = queue.pop_front() {
            state.unpack(&geometry, &key);
            let n = state.blocks.len();
            assert!(n <= 12, "brute force over 2^n sets");
            let found = knuth_order(&mut ideals, &geometry, &state);
            let distinct: BTreeSet<_> = found.iter().cloned().collect();
            assert_eq!(distinct.len(), found.len(), "a superpiece twice");
            let mut expected = BTreeSet::new();
            for k in 0..4 {
                for set in 1u64..1 << n {
                    if can_shift(&geometry, &state, set, k) {
                        let blocks: Vec<u16> =
                            (0..n as u16).filter(|&b| set >> b & 1 == 1).collect();
                        expected.insert((k, blocks));
                    }
                }
            }
            assert_eq!(distinct, expected, "{}", geometry.key_hex(&key));
            mover.successors(&geometry, &mut state, Style(3), |next, _, _| {
                let next = next.pack_vec(&geometry);
                if seen.len() < max_configurations && !seen.contains(&next) {
                    seen.push(next.clone());
                    queue.push_back(next);
                }
                true
            });
        }
    }

    #[test]
    fn superpieces_are_exactly_the_sets_that_can_shift() {
        check(include_str!("../../tests/data/sliding/klotski.txt"), 300);
        check(include_str!("../../tests/data/sliding/silly.txt"), 300);
        check(include_str!("../../tests/data/sliding/pennant.txt"), 300);
        check(
            include_str!("../../tests/data/sliding/eight_puzzle.txt"),
            300,
        );
    }

    #[test]
    fn rows_come_first_and_a_refusal_stops_the_walk() {
        let eight =
            "3 x 3\n1 = 1\n2 = 1\n3 = 1\n4 = 1\n5 = 1\n6 = 1\n7 = 1\n8 = 1\n12345678\n87654321\n";
        let (geometry, state) = state_of(eight);
        let mut ideals = Ideals::default();
        // The blank is in the corner: tile 6 can move down, alone or with tile 3 above it,
        // and tile 8 right, alone or with tile 7; shifts by a row come first.
        assert_eq!(
            knuth_order(&mut ideals, &geometry, &state),
            vec![(2, vec![5]), (2, vec![2, 5]), (0, vec![7]), (0, vec![6, 7])]
        );
        let mut calls = 0;
        assert!(!ideals.for_each(&geometry, |_, _| {
            calls += 1;
            false
        }));
        assert_eq!(calls, 1);
    }
}
