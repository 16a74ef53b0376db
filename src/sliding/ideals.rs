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

use super::pack::{Geometry, State};

/// Scratch space for the ideals of one configuration, reused between configurations.
#[derive(Default)]
pub struct Ideals {
    /// Per padded cell: the vertex on it (0 for walls and dead cells), −1 when empty.
    aboard: Vec<i32>,
    /// Per padded cell: the next lower cell of the same vertex, −1 at the end.
    link: Vec<i32>,
    /// Per vertex: its highest cell.
    head: Vec<i32>,
    /// Per vertex: the first arc out (a cell of the target) and in (a cell of the source).
    out: Vec<i32>,
    into: Vec<i32>,
    /// Per cell: the next arc of the same list.
    olink: Vec<i32>,
    ilink: Vec<i32>,
    perm: Vec<usize>,
    iperm: Vec<usize>,
    decision: Vec<bool>,
    inx: Vec<usize>,
    lstart: Vec<usize>,
    /// The blocks of the current superpiece (our numbering).
    members: Vec<u16>,
    /// The live cells of the board the walls below were found for.
    live: Vec<u32>,
    /// The cells of the stuck vertex that can have arcs, from the highest down, for shifts by
    /// a row and by a column: walls and dead cells `k` with a live cell at `k − del` (the
    /// others only meet the stuck vertex itself). They never change.
    walls: [Vec<i32>; 2],
}

impl Ideals {
    /// Copies and links the board of `state` (section 46).
    pub fn prepare(&mut self, geometry: &Geometry, state: &State) {
        let cells = geometry.padded;
        let n = state.blocks.len();
        if self.live != geometry.live || self.aboard.len() != cells {
            self.find_walls(geometry);
        }
        self.head.clear();
        self.head.resize(n + 1, -1);
        for &p in &geometry.live {
            let j = p as usize;
            let v = state.cells[j];
            if v == 0 {
                self.aboard[j] = -1;
                continue;
            }
            let vertex = n - usize::from(v - 1);
            self.aboard[j] = vertex as i32;
            self.link[j] = self.head[vertex];
            self.head[vertex] = j as i32;
        }
        self.out.resize(n + 1, -1);
        self.into.resize(n + 1, -1);
        self.perm.resize(n + 1, 0);
        self.iperm.resize(n + 1, 0);
        self.decision.resize(n + 1, false);
        self.inx.resize(n + 1, 0);
        self.lstart.resize(n + 1, 0);
        self.members.reserve(n);
    }

    /// The parts of the board that never change: the stuck vertex's cells.
    fn find_walls(&mut self, geometry: &Geometry) {
        let cells = geometry.padded;
        self.live.clone_from(&geometry.live);
        self.aboard = vec![0; cells];
        self.link = vec![-1; cells];
        self.olink = vec![-1; cells];
        self.ilink = vec![-1; cells];
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
        self.out.fill(-1);
        self.into.fill(-1);
        // The stuck vertex 0 first, then the blocks, each from its highest cell down.
        let walls = std::mem::take(&mut self.walls[side]);
        for &k in &walls {
            self.arc_into(0, k, del);
        }
        self.walls[side] = walls;
        for j in 1..self.head.len() {
            let mut k = self.head[j];
            while k >= first_cell {
                self.arc_into(j, k, del);
                k = self.link[k as usize];
            }
        }
        true
    }

    /// The arc into vertex `j` from what would land on its cell `k` when shifted by `del`
    /// (none from an empty cell or from `j` itself; a repeated one only when it is not the
    /// latest arc of its source).
    #[inline]
    fn arc_into(&mut self, j: usize, k: i32, del: i32) {
        let below = (k - del) as usize;
        let t = self.aboard[below];
        if t != j as i32 && t >= 0 {
            let t = t as usize;
            let latest = self.out[t];
            if latest < 0 || self.aboard[latest as usize] != j as i32 {
                self.olink[k as usize] = latest;
                self.out[t] = k;
                self.ilink[below] = self.into[j];
                self.into[j] = k - del;
            }
        }
    }

    /// Our block number of vertex `v` (which is never the stuck vertex 0 here).
    fn block_of(&self, v: usize) -> u16 {
        (self.head.len() - 1 - v) as u16
    }

    /// Moves vertex `u` to position `t` of the permutation.
    fn bring(&mut self, u: usize, t: usize) {
        let (displaced, from) = (self.perm[t], self.iperm[u]);
        self.perm[t] = u;
        self.perm[from] = displaced;
        self.iperm[u] = t;
        self.iperm[displaced] = from;
    }

    /// The backtrack of section 50; `k` is the direction of `+del` (`k + 1` that of `−del`).
    fn backtrack(&mut self, k: usize, visit: &mut impl FnMut(usize, &[u16]) -> bool) -> bool {
        let n = self.head.len() - 1;
        for v in 0..=n {
            self.perm[v] = v;
            self.iperm[v] = v;
        }
        self.members.clear();
        self.inx[0] = 0;
        let mut l = 0usize;
        let mut include = false;
        loop {
            // Decide `perm[inx[l]]`, dragging along what the decision forces.
            self.decision[l] = include;
            if include {
                self.members.truncate(self.lstart[l]);
            } else {
                self.lstart[l] = self.members.len();
            }
            let mut j = self.inx[l];
            let mut t = j + 1;
            while j < t {
                let v = self.perm[j];
                let mut cell = if include { self.out[v] } else { self.into[v] };
                while cell >= 0 {
                    let u = self.aboard[cell as usize] as usize;
                    if self.iperm[u] >= t {
                        self.bring(u, t);
                        t += 1;
                    }
                    cell = if include {
                        self.olink[cell as usize]
                    } else {
                        self.ilink[cell as usize]
                    };
                }
                // Moving: the included blocks (`+del`), or the excluded ones (`−del`).
                if include != self.decision[0] {
                    self.members.push(self.block_of(v));
                }
                j += 1;
            }
            if t <= n {
                l += 1;
                self.inx[l] = t;
                include = false;
                continue;
            }
            if !self.members.is_empty() {
                let direction = k + usize::from(self.decision[0]);
                if !visit(direction, &self.members) {
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
                if !self.decision[l] {
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
