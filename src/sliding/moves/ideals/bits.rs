//! The backtrack over ideals on bit sets, for configurations of at most 63 blocks.
//!
//! The backtrack walks an arc list only to bring the list's undecided ends forward, in the
//! list's order; so all it needs of a list is which vertices it reaches, and in what order,
//! and both are known without building it. The seed makes the arcs target by target, from
//! vertex 0 up, putting each at the head of its source's out-list: an out-list holds its
//! targets in decreasing vertex number, and a bit set per vertex says everything about it. A
//! target's in-list gets its sources as they are first met walking the target's cells from
//! the highest down, each put at the head: the in-list is that order reversed, kept (`met`)
//! beside the bit set. It matters only where an in-list brings several vertices forward at
//! once, so it is made for those targets only, when the backtrack first needs it, from a copy
//! of the configuration taken when the backtrack was found to be needed.
//!
//! The backtrack keeps the seed's permutation, which decides the vertex decided next, but the
//! undecided vertices not yet brought forward are a bit set too, so the vertices that an arc
//! list brings forward are one `and` away. Where the vertices left undecided have no arcs
//! among them, no decision below brings anything forward and the permutation stays as it is:
//! the leaves below are their subsets in binary counting order, made without the backtrack
//! ([`Bits::subsets`]). Invariant: the superpieces come out in exactly the order of
//! [`super::lists::Lists`] (checked on every configuration near the starts of the test
//! puzzles, and on random puzzles).

use super::walls::{backup, Walls};
use crate::sliding::pack::{Block, Geometry, State, CELL_MASK, PADDED_MAX, WALL};

/// Room for the vertices: the stuck vertex and at most 63 blocks, one bit each.
const VERTICES: usize = 64;

/// Masks a vertex number, a permutation position or a level (a no-op for real ones).
const MASK: usize = VERTICES - 1;

/// Room for the vertices and `TRASH`, where the arcs to empty cells go.
const ROOM: usize = 2 * VERTICES;
const ROOM_MASK: usize = ROOM - 1;
const TRASH: usize = ROOM - 1;

/// The cell values a slot is kept for: walls, empty cells and the blocks.
const SLOTS: usize = 128;

/// Scratch space for the ideals of one configuration, reused between configurations. Side 0
/// is the digraph of shifts by a row, side 1 that of shifts by a column.
pub struct Bits {
    /// Vertices are `0..=n`.
    n: usize,
    /// `out[side][u]`: the targets of `u`'s arcs (`u` below 64; the rest stays 0).
    out: [[u64; ROOM]; 2],
    /// `into[side][v]`: the sources of the arcs into `v` (and `TRASH`, written, never read).
    into: [[u64; ROOM]; 2],
    /// `met[side][v]`: those sources in the order they were met (the seed's in-list reversed).
    met: Box<[[[u8; VERTICES]; VERTICES]; 2]>,
    met_len: [[u8; VERTICES]; 2],
    /// Per side: the vertices whose `met` is made for this configuration.
    met_made: [u64; 2],
    /// The cells (around the live span) and the blocks of the configuration, copied when a
    /// side needs the backtrack, for making `met`.
    board: Box<[u16; PADDED_MAX]>,
    blocks: Vec<Block>,
    perm: [u8; VERTICES],
    iperm: [u8; VERTICES],
    /// Per backtrack level.
    decision: [bool; VERTICES],
    inx: [u8; VERTICES],
    lstart: [u8; VERTICES],
    /// The undecided vertices, those at positions `inx[l]..` of `perm`.
    free: [u64; VERTICES],
    /// The blocks of the current superpiece (our numbering): the first `count`.
    members: [u16; VERTICES],
    count: usize,
    walls: Walls,
    /// Per side: the ideals found by [`Bits::chains`] among the free vertices and among the
    /// stuck ones, in increasing order; and how many, if that is how the side goes.
    chains: Box<[[[u64; VERTICES]; 2]; 2]>,
    plans: [Plan; 2],
    /// The vertex and the arc bit of each cell value's slot ([`slot_of`]), for `n`.
    slot_vertex: [u8; SLOTS],
    slot_bit: [u64; SLOTS],
    numbered: bool,
    /// Whether [`Bits::chains`] may stand in for the backtrack, and [`Bits::subsets`] for
    /// its last levels (always, but in tests).
    shortcut: bool,
}

impl Default for Bits {
    fn default() -> Self {
        Bits {
            n: 0,
            out: [[0; ROOM]; 2],
            into: [[0; ROOM]; 2],
            met: Box::new([[[0; VERTICES]; VERTICES]; 2]),
            met_len: [[0; VERTICES]; 2],
            met_made: [0; 2],
            board: Box::new([WALL; PADDED_MAX]),
            blocks: Vec::new(),
            perm: [0; VERTICES],
            iperm: [0; VERTICES],
            decision: [false; VERTICES],
            inx: [0; VERTICES],
            lstart: [0; VERTICES],
            free: [0; VERTICES],
            members: [0; VERTICES],
            count: 0,
            walls: Walls::default(),
            chains: Box::new([[[0; VERTICES]; 2]; 2]),
            plans: [Plan {
                stuck: 0,
                ups: None,
                downs: None,
            }; 2],
            slot_vertex: [TRASH as u8; SLOTS],
            slot_bit: [0; SLOTS],
            numbered: false,
            shortcut: true,
        }
    }
}

impl Bits {
    /// The same, but always by the backtrack (to test the shortcut against it).
    pub fn backtrack_only() -> Bits {
        Bits {
            shortcut: false,
            ..Bits::default()
        }
    }

    /// Whether the blocks of `state` are few enough.
    pub fn fits(state: &State) -> bool {
        state.blocks.len() < VERTICES
    }

    /// Finds the arcs of both digraphs of `state`, which [`Bits::fits`], and how to go
    /// through the ideals of each.
    pub fn prepare(&mut self, geometry: &Geometry, state: &State) {
        let n = state.blocks.len() & MASK;
        self.walls.update(geometry);
        if self.n != n || !self.numbered {
            self.number(n);
        }
        self.n = n;
        for side in 0..2 {
            self.into[side][..=n].fill(0);
        }
        // From each block to what its cells land on (without a branch: an empty cell is
        // vertex `TRASH` and no arc).
        for (b, block) in state.blocks.iter().enumerate() {
            let source = n.wrapping_sub(b) & MASK;
            let kind = usize::from(block.kind) & 15;
            for side in 0..2 {
                let mut arcs = 0;
                for &offset in &geometry.landing[side][kind] {
                    let w = state.cells[(block.anchor as i32 + offset) as usize & CELL_MASK];
                    let slot = slot_of(w);
                    arcs |= self.slot_bit[slot];
                    self.into[side][usize::from(self.slot_vertex[slot]) & ROOM_MASK] |= 1 << source;
                }
                self.out[side][source] = arcs;
            }
        }
        // From the stuck vertex to the blocks its cells face.
        for (side, del) in [geometry.stride as i32, 1].into_iter().enumerate() {
            let mut arcs = 0;
            for &k in &self.walls.facing[side] {
                let slot = slot_of(state.cells[(k + del) as usize & CELL_MASK]);
                arcs |= self.slot_bit[slot];
                self.into[side][usize::from(self.slot_vertex[slot]) & ROOM_MASK] |= 1;
            }
            self.out[side][0] = arcs;
        }
        let reached = reached_from_stuck(&self.into, &self.out, u64::MAX >> (MASK - n));
        for (side, reached) in reached.into_iter().enumerate() {
            self.plans[side] = self.chains(side, reached);
        }
        if self
            .plans
            .iter()
            .any(|plan| plan.ups.is_none() || plan.downs.is_none())
        {
            // Every cell an in-list looks at: live cells, and the walls just above them.
            let (first, last) = geometry.span;
            let from = first.saturating_sub(geometry.stride);
            self.board[from..=last].copy_from_slice(&state.cells[from..=last]);
            self.blocks.clone_from(&state.blocks);
            self.met_made = [0; 2];
        }
    }

    /// The vertex and the arc bit of each cell value, for `n + 1` vertices.
    fn number(&mut self, n: usize) {
        self.slot_vertex = [TRASH as u8; SLOTS];
        self.slot_bit = [0; SLOTS];
        self.slot_vertex[slot_of(WALL)] = 0;
        self.slot_bit[slot_of(WALL)] = 1;
        for w in 1..=n {
            // Block `w − 1` is vertex `n − (w − 1)`.
            let v = n + 1 - w;
            self.slot_vertex[slot_of(w as u16)] = v as u8;
            self.slot_bit[slot_of(w as u16)] = 1 << v;
        }
        self.numbered = true;
    }

    /// Makes `met[side][v]` unless made: the sources of `v`'s arcs in the order they are met
    /// walking its cells from the highest down (without a branch on the board: each source is
    /// written at the end of the list, which grows only if the source is new there, and an
    /// empty cell has no bit, so it never is).
    fn met_of(&mut self, geometry: &Geometry, side: usize, v: usize) {
        let (side, v) = (side & 1, v & MASK);
        if self.met_made[side] >> v & 1 == 1 {
            return;
        }
        self.met_made[side] |= 1 << v;
        let del = [geometry.stride as i32, 1][side];
        let (board, slot_bit, slot_vertex) = (&self.board, &self.slot_bit, &self.slot_vertex);
        let met = &mut self.met[side][v];
        let mut listed = 1u64 << v;
        let mut len = 0;
        let mut meet = |k: i32| {
            let slot = slot_of(board[(k - del) as usize & CELL_MASK]);
            let fresh = slot_bit[slot] & !listed;
            met[len & MASK] = slot_vertex[slot];
            len += usize::from(fresh != 0);
            listed |= fresh;
        };
        if v == 0 {
            self.walls.cells[side].iter().for_each(|&k| meet(k));
        } else {
            // Vertex `v` is our block `n − v`.
            let block = self.blocks[self.n.wrapping_sub(v)];
            for &offset in geometry.shapes[usize::from(block.kind) & 15].iter().rev() {
                meet(block.anchor as i32 + offset);
            }
        }
        self.met_len[side][v] = len as u8;
    }

    /// Calls `visit(k, movers)` for every superpiece of the prepared configuration, as
    /// [`super::Ideals::for_each`] does.
    pub fn for_each(
        &mut self,
        geometry: &Geometry,
        mut visit: impl FnMut(usize, &[u16]) -> bool,
    ) -> bool {
        self.side(geometry, 0, 2, &mut visit) && self.side(geometry, 1, 0, &mut visit)
    }

    /// The superpieces of one digraph: from its chains when [`Bits::chains`] found both,
    /// otherwise by the backtrack (which takes the chain of `stuck` for its last part when
    /// there is one).
    fn side(
        &mut self,
        geometry: &Geometry,
        side: usize,
        k: usize,
        visit: &mut impl FnMut(usize, &[u16]) -> bool,
    ) -> bool {
        let side = side & 1;
        let plan = self.plans[side];
        let (Some(ups), Some(_)) = (plan.ups, plan.downs) else {
            return self.backtrack(geometry, side, k, visit);
        };
        self.visit_chain(side, 0, ups, 0, k, visit) && self.downs(side, k, visit)
    }

    /// Shows, moving in direction `k`, what the first `len` ideals of chain `part` of `side`
    /// leave of `whole` (a superset of each ideal; 0 for the ideals themselves).
    fn visit_chain(
        &mut self,
        side: usize,
        part: usize,
        len: usize,
        whole: u64,
        k: usize,
        visit: &mut impl FnMut(usize, &[u16]) -> bool,
    ) -> bool {
        for i in 0..len {
            let ideal = self.chains[side & 1][part & 1][i & MASK];
            if !self.visit_set(k, whole ^ ideal, visit) {
                return false;
            }
        }
        true
    }

    /// The superpieces for `−del` of a side whose `stuck` vertices have a chain of ideals:
    /// what each ideal leaves of `stuck`, shrinking to nothing.
    fn downs(
        &mut self,
        side: usize,
        k: usize,
        visit: &mut impl FnMut(usize, &[u16]) -> bool,
    ) -> bool {
        let side = side & 1;
        let plan = self.plans[side];
        if plan.stuck != 0 && !self.visit_set(k + 1, plan.stuck, visit) {
            return false;
        }
        // The last ideal is all of `stuck`, which leaves nothing.
        let len = plan.downs.unwrap_or(0).saturating_sub(1);
        self.visit_chain(side, 1, len, plan.stuck, k + 1, visit)
    }

    /// The ideals of one digraph without the backtrack, for each part where the order the
    /// backtrack finds them in does not depend on the permutation (`None` where it may).
    ///
    /// Deciding the stuck vertex first leaves, when it is excluded, the vertices `free` that do
    /// not lead to it, and when it is included, the vertices `stuck` that it does not lead to.
    /// When the ideals of each part are totally ordered by inclusion, the backtrack meets them
    /// in increasing order whatever vertex it decides first: excluding a vertex gives the
    /// ideals without it, all smaller than those with it. So the superpieces for `+del` are
    /// the nonempty ideals of `free`, growing; those for `−del` are what the ideals of `stuck`
    /// leave of it, shrinking to nothing. The part of `stuck` comes last, so its chain serves
    /// even after a backtrack over the other part.
    fn chains(&mut self, side: usize, [to_stuck, from_stuck]: [u64; 2]) -> Plan {
        let side = side & 1;
        let all = u64::MAX >> (MASK - self.n);
        let free = all & !to_stuck;
        let stuck = all & !from_stuck;
        if !self.shortcut {
            return Plan {
                stuck,
                ups: None,
                downs: None,
            };
        }
        let [ups, downs] = &mut self.chains[side];
        Plan {
            stuck,
            ups: chain(&self.out[side], free, ups),
            downs: chain(&self.out[side], stuck, downs),
        }
    }

    /// Shows the superpiece of the vertices `set` (not the stuck vertex) moving in direction `k`.
    #[inline]
    fn visit_set(
        &mut self,
        k: usize,
        set: u64,
        visit: &mut impl FnMut(usize, &[u16]) -> bool,
    ) -> bool {
        let mut count = 0;
        let mut rest = set;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.members[count & MASK] = self.n.wrapping_sub(v) as u16;
            count += 1;
        }
        visit(k, &self.members[..count.min(VERTICES)])
    }

    /// Moves vertex `u` to position `t` of the permutation.
    #[inline]
    fn bring(&mut self, u: usize, t: usize) {
        let (displaced, from) = (self.perm[t & MASK], self.iperm[u & MASK]);
        self.perm[t & MASK] = u as u8;
        self.perm[usize::from(from) & MASK] = displaced;
        self.iperm[u & MASK] = t as u8;
        self.iperm[usize::from(displaced) & MASK] = from;
    }

    /// The backtrack of section 50 on the digraph of `side`; `k` is the direction of `+del`
    /// (`k + 1` that of `−del`).
    fn backtrack(
        &mut self,
        geometry: &Geometry,
        side: usize,
        k: usize,
        visit: &mut impl FnMut(usize, &[u16]) -> bool,
    ) -> bool {
        let side = side & 1;
        let n = self.n;
        for v in 0..=n {
            self.perm[v] = v as u8;
            self.iperm[v] = v as u8;
        }
        self.count = 0;
        self.inx[0] = 0;
        self.free[0] = u64::MAX >> (MASK - n);
        let mut l = 0usize;
        let mut include = false;
        loop {
            // Decide `perm[inx[l]]`, dragging along what the decision forces.
            let level = l & MASK;
            self.decision[level] = include;
            if include {
                self.count = usize::from(self.lstart[level]);
            } else {
                self.lstart[level] = self.count as u8;
            }
            let stuck_in = self.decision[0];
            let first = usize::from(self.inx[level]);
            let mut t = first + 1;
            // The undecided vertices not brought forward yet (at positions `t..`).
            let mut pending = self.free[level] & !(1 << self.perm[first & MASK]);
            let mut j = first;
            while j < t {
                let v = usize::from(self.perm[j & MASK]);
                let arcs = if include {
                    self.out[side][v]
                } else {
                    self.into[side][v]
                };
                let new = arcs & pending;
                if new != 0 {
                    pending &= !new;
                    if include {
                        // An out-list: decreasing vertex numbers.
                        let mut rest = new;
                        while rest != 0 {
                            let u = 63 - rest.leading_zeros() as usize;
                            rest ^= 1 << u;
                            self.bring(u, t);
                            t += 1;
                        }
                    } else if new & (new - 1) == 0 {
                        self.bring(new.trailing_zeros() as usize, t);
                        t += 1;
                    } else {
                        // An in-list: the sources in the reverse of the order met.
                        self.met_of(geometry, side, v);
                        for i in (0..usize::from(self.met_len[side][v])).rev() {
                            let u = usize::from(self.met[side][v][i & MASK]);
                            if new >> (u & MASK) & 1 == 1 {
                                self.bring(u, t);
                                t += 1;
                            }
                        }
                    }
                }
                // Moving: the included blocks (`+del`), or the excluded ones (`−del`); our
                // block number of vertex `v` is `n − v`.
                if include != stuck_in {
                    self.members[self.count & MASK] = n.wrapping_sub(v) as u16;
                    self.count += 1;
                }
                j += 1;
            }
            let below = if pending == 0 {
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
                l
            } else if self.shortcut && self.isolated(side, pending) {
                // No decision below brings anything forward: the leaves are every subset of
                // the rest, in the order of the permutation, as the backtrack would give them;
                // the last one includes them all.
                let direction = k + usize::from(stuck_in);
                if !self.subsets(t, stuck_in, direction, visit) {
                    return false;
                }
                include = true;
                l + 1
            } else {
                l += 1;
                self.inx[l & MASK] = t as u8;
                self.free[l & MASK] = pending;
                include = false;
                continue;
            };
            // Back up from a leaf below level `below` with its vertex included.
            match backup(&self.decision[..], below) {
                // What is left are the superpieces for `−del`, the last part of the backtrack:
                // when the ideals of `stuck` are a chain, their order is known.
                Some(0) if self.plans[side].downs.is_some() => return self.downs(side, k, visit),
                Some(level) => l = level,
                None => return true,
            }
        }
    }

    /// Whether no arc joins two of the vertices `set`.
    #[inline]
    fn isolated(&self, side: usize, set: u64) -> bool {
        let mut reached = 0;
        let mut rest = set;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            reached |= self.out[side & 1][v & MASK];
        }
        reached & set == 0
    }

    /// The leaves of the backtrack below a level whose undecided vertices, at positions `t..`
    /// of the permutation, are [`Bits::isolated`]: each vertex decided in turn, excluded
    /// first, brings nothing forward, so the leaves are the subsets of those vertices in
    /// binary counting order (the first one the most significant, a set bit an inclusion),
    /// each adding to the superpiece made so far the included vertices, or the excluded ones
    /// when `stuck_in`. False when `visit` asked to stop.
    fn subsets(
        &mut self,
        t: usize,
        stuck_in: bool,
        direction: usize,
        visit: &mut impl FnMut(usize, &[u16]) -> bool,
    ) -> bool {
        let n = self.n;
        let rest = n + 1 - t;
        let made = self.count;
        for leaf in 0..1u64 << rest {
            let mut count = made;
            for i in 0..rest {
                let included = leaf >> (rest - 1 - i) & 1 == 1;
                let v = usize::from(self.perm[(t + i) & MASK]);
                self.members[count & MASK] = n.wrapping_sub(v) as u16;
                count += usize::from(included != stuck_in);
            }
            if count > 0 && !visit(direction, &self.members[..count.min(VERTICES)]) {
                return false;
            }
        }
        true
    }
}

/// The slot of cell value `w` in [`Bits::slot_vertex`] and [`Bits::slot_bit`]: 0 for a wall, 1 for
/// an empty cell, `w + 1` for a block.
#[inline]
fn slot_of(w: u16) -> usize {
    usize::from(w.wrapping_add(1)) & (SLOTS - 1)
}

/// What [`Bits::chains`] found of a side: `ups` ideals of the free vertices, `downs` of the
/// `stuck` ones, when they are chains.
#[derive(Clone, Copy)]
struct Plan {
    stuck: u64,
    ups: Option<usize>,
    downs: Option<usize>,
}

/// The vertices `from` and all they lead to by `arcs` within `within`.
#[inline]
fn closure<const N: usize>(arcs: &[u64; N], from: u64, within: u64) -> u64 {
    let mut seen = from;
    let mut frontier = from;
    while frontier != 0 {
        let v = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = arcs[v & MASK] & within & !seen;
        seen |= new;
        frontier |= new;
    }
    seen
}

/// Per side, the vertices that lead to the stuck vertex and those it leads to (itself among
/// them), among `all`: the four closures side by side, one vertex of each per round, so that
/// their chains of dependent loads overlap. A closure that is done looks at vertex 64, which
/// no list has (its `into` and `out` entries stay 0).
fn reached_from_stuck(into: &[[u64; ROOM]; 2], out: &[[u64; ROOM]; 2], all: u64) -> [[u64; 2]; 2] {
    let arcs = [&into[0], &out[0], &into[1], &out[1]];
    let mut seen = [1u64; 4];
    let mut frontier = [1u64; 4];
    while frontier.iter().any(|&f| f != 0) {
        for c in 0..4 {
            let v = frontier[c].trailing_zeros() as usize;
            frontier[c] &= frontier[c].wrapping_sub(1);
            let new = arcs[c][v & ROOM_MASK] & all & !seen[c];
            seen[c] |= new;
            frontier[c] |= new;
        }
    }
    [[seen[0], seen[1]], [seen[2], seen[3]]]
}

/// The nonempty ideals of the vertices `within` (sets closed under `arcs`) in increasing
/// order, in the front of `room`, when they are totally ordered by inclusion: how many;
/// `None` when they are not. They are then the down-closures of the vertices.
fn chain(arcs: &[u64; ROOM], within: u64, room: &mut [u64; VERTICES]) -> Option<usize> {
    let mut len = 0;
    let mut rest = within;
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let down = closure(arcs, 1 << v, within);
        // Past the sets it holds; it must be the next one or lie inside it.
        let mut at = 0;
        while at < len && room[at & MASK] & !down == 0 && room[at & MASK] != down {
            at += 1;
        }
        if at < len {
            if room[at & MASK] == down {
                continue;
            }
            if down & !room[at & MASK] != 0 {
                return None;
            }
        }
        for i in (at..len).rev() {
            room[(i + 1) & MASK] = room[i & MASK];
        }
        room[at & MASK] = down;
        len += 1;
    }
    Some(len)
}
