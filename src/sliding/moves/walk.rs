//! One mover's moves: the displacements a mover reaches from where it stands, in the seed's
//! order, each shown to a [`Sink`], which answers what [`Next`].
//!
//! A mover of several blocks is lifted off the board, tried at each displacement, and put
//! back; a single block stays on the board while it is tried, its own cells counting as empty,
//! and is shown at a displacement only to emit the move. Every intermediate displacement must
//! be a legal place for the mover, so a step never leaves the padded board. Whether the mover
//! fits is one test on the configuration's [`Occupancy`] bits when the board has them (boards
//! of up to about 64 padded cells), else a look at the cells its front meets.
//!
//! A step is one displacement, a line goes on in its direction while the mover fits, and a
//! path is explored depth first as the seed's recursion does (section 45). Invariant: the
//! visited marks are private to each mover and forgotten with each configuration, so without
//! pruning each displacement reachable by a mover is shown exactly once per mover.

use crate::sliding::occupancy::Occupancy;
use crate::sliding::pack::{Geometry, State, CELL_MASK};
use crate::sliding::spec::Style;

/// A set of blocks (at most 256, as there are at most 256 cells), as a bit set.
pub type BlockSet = [u64; 4];

/// Adds block `b` to a set.
#[inline]
pub fn insert(set: &mut BlockSet, b: usize) {
    set[b >> 6] |= 1 << (b & 63);
}

/// What the caller wants after seeing a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Stop generating.
    Stop,
    /// Go on; along paths (styles 2 and 5), also look beyond this configuration.
    Explore,
    /// Go on, but along paths do not look beyond this configuration: it is at a smaller
    /// distance, so whatever lies beyond is reached from it directly (section 44).
    Prune,
}

/// Where the moves go. The walk decides which displacements are legal and in what order; the
/// sink is shown each of them, either with the state showing the move
/// ([`super::Mover::successors`]) or as the successor's key computed from the parent's
/// ([`super::Mover::successor_keys`]), and answers what next.
pub trait Sink {
    /// Single block `movers[0]` is on the board at its recorded anchor and fits displaced by
    /// `delta` (its own cells counting as empty).
    fn show_one(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> Next;
    /// The lifted `movers` (off the board, anchors recorded where they stood) fit displaced by
    /// `delta`.
    fn show_lifted(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> Next;
    /// Whether [`Sink::show_lifted`] reads the board (the cells or heads of the lifted movers'
    /// neighbourhood); if not, and fits are tested on occupancy bits, movers need not be lifted.
    fn reads_board(&self, _geometry: &Geometry) -> bool {
        true
    }
    /// The single block `movers[0]` is done with; the state must be as before its first show.
    fn finish_one(&mut self, _geometry: &Geometry, _state: &mut State, _movers: &[u16]) {}
    /// The `movers` (on the board) take one step `delta`, known to fit.
    fn show_step(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> Next {
        lift(geometry, state, movers, 0);
        let next = self.show_lifted(geometry, state, movers, delta);
        drop_at(geometry, state, movers, 0);
        next
    }
}

/// Scratch space for moving one mover around.
#[derive(Default)]
pub(super) struct Walker {
    /// Per mover seen from the current configuration, in order (its slot): its blocks.
    /// `marks[slot][padded + δ] == generation` when displacement `δ` was reached by that mover.
    trails: Vec<BlockSet>,
    marks: Vec<Vec<u32>>,
    generation: u32,
    /// The depth-first path: (displacement, direction it was entered by, next direction).
    stack: Vec<(i32, usize, usize)>,
}

/// How a mover may travel.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    Step,
    Line,
    Path,
}

impl Reach {
    pub(super) fn of(style: Style) -> Reach {
        match style.0 % 3 {
            0 => Reach::Step,
            1 => Reach::Line,
            _ => Reach::Path,
        }
    }
}

impl Walker {
    /// Forgets the displacements reached from the previous configuration.
    pub(super) fn next_configuration(&mut self, geometry: &Geometry) {
        self.trails.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            for marks in &mut self.marks {
                marks.fill(0);
            }
            self.generation = 1;
        }
        let size = 2 * geometry.padded + 1;
        if self.marks.first().is_some_and(|marks| marks.len() != size) {
            self.marks.clear();
        }
    }

    /// The slot of marks of `movers` for the current configuration, with the origin marked.
    fn slot(&mut self, geometry: &Geometry, movers: &[u16]) -> usize {
        let mut blocks = BlockSet::default();
        for &b in movers {
            insert(&mut blocks, usize::from(b));
        }
        if let Some(slot) = self.trails.iter().position(|&trail| trail == blocks) {
            return slot;
        }
        self.new_slot(geometry, blocks)
    }

    /// A slot for the set `blocks`, with the origin marked.
    fn new_slot(&mut self, geometry: &Geometry, blocks: BlockSet) -> usize {
        let slot = self.trails.len();
        self.trails.push(blocks);
        if self.marks.len() == slot {
            self.marks.push(vec![0; 2 * geometry.padded + 1]);
        }
        self.marks[slot][geometry.padded] = self.generation;
        slot
    }

    /// Depth first over the displacements reachable from 0 by unit steps, starting with a step
    /// in direction `first`, in the seed's order (section 45): `show(state, δ)` for each
    /// displacement not yet reached by this mover where it `fits(state, δ, i)`, entered by a
    /// step in direction `i`, answers what next (a displacement where the mover does not fit is
    /// not entered, and may be reached again from elsewhere). `fitted` says the first step is
    /// known to fit. False when a visit asked to stop.
    ///
    /// A first step that leads nowhere but back is shown without a slot: no other walk of this
    /// mover can reach it, since every way to it passes through the origin, where walks never
    /// go back to. Most superpieces have only that step, and so skip the marks.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn walk(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        first: usize,
        fitted: bool,
        fits: impl Fn(&State, i32, usize) -> bool,
        mut show: impl FnMut(&mut State, i32) -> Next,
    ) -> bool {
        let dirs = geometry.dirs;
        let step = dirs[first];
        if !fitted && !fits(state, step, first) {
            return true;
        }
        let onward = (0..4).fold(false, |onward, i| {
            onward | ((i != first ^ 1) & fits(state, step + dirs[i], i))
        });
        if !onward {
            return show(state, step) != Next::Stop;
        }
        let slot = self.slot(geometry, movers);
        let origin = geometry.padded as i32;
        let generation = self.generation;
        let marks = &mut self.marks[slot];
        let stack = &mut self.stack;
        stack.clear();
        // Enters `delta` (where the mover fits) by a step in direction `i`.
        let mut enter = |state: &mut State, delta: i32, i: usize, stack: &mut Vec<_>| {
            let mark = (origin + delta) as usize;
            if marks[mark] == generation {
                return true;
            }
            match show(state, delta) {
                Next::Stop => false,
                next => {
                    marks[mark] = generation;
                    if next == Next::Explore {
                        stack.push((delta, i, 0));
                    }
                    true
                }
            }
        };
        if !enter(state, step, first, stack) {
            return false;
        }
        while let Some(top) = stack.last_mut() {
            let (at, came, i) = *top;
            if i == 4 {
                stack.pop();
                continue;
            }
            top.2 += 1;
            // Never straight back (`i ^ 1` is the opposite of direction `i`).
            if i == came ^ 1 || !fits(state, at + dirs[i], i) {
                continue;
            }
            if !enter(state, at + dirs[i], i, stack) {
                return false;
            }
        }
        true
    }

    /// Moves `movers` as `reach` allows (along direction `k` for steps and lines; anywhere for
    /// paths); false when the sink asked to stop. The state is restored either way. `fitted`
    /// says the first step in direction `k` is known to fit (a superpiece of direction `k`).
    /// `bits` are the board's [`Occupancy`] masks and the configuration's occupied cells, when
    /// the board has them: then fits are tested on bits rather than on the cells.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn travel<S: Sink>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        k: usize,
        reach: Reach,
        fitted: bool,
        bits: Option<(&Occupancy, u64)>,
        sink: &mut S,
    ) -> bool {
        if let [single] = movers {
            let block = state.blocks[usize::from(*single)];
            let go = match bits {
                Some((bits, occupied)) => {
                    let mine = bits.mask(block.kind, block.anchor);
                    let others = occupied & !mine;
                    let fits =
                        |_: &State, delta: i32, _: usize| Occupancy::clear(mine, delta, others);
                    self.travel_one(geometry, state, movers, k, reach, fitted, fits, sink)
                }
                None => {
                    let fronts = &geometry.fronts[usize::from(block.kind) & 15];
                    let (anchor, me) = (block.anchor as i32, single + 1);
                    // The block stays on the board: its own cells count as empty.
                    let fits = |state: &State, delta: i32, i: usize| {
                        let at = anchor + delta;
                        fronts[i].iter().all(|&off| {
                            let v = state.cells[(at + off) as usize & CELL_MASK];
                            v == 0 || v == me
                        })
                    };
                    self.travel_one(geometry, state, movers, k, reach, fitted, fits, sink)
                }
            };
            sink.finish_one(geometry, state, movers);
            return go;
        }
        // Several blocks move only as a superpiece of direction `k`, which can take that step.
        debug_assert!(fitted);
        if reach == Reach::Step {
            return sink.show_step(geometry, state, movers, geometry.dirs[k]) != Next::Stop;
        }
        match bits {
            Some((bits, occupied)) => {
                let mine = movers.iter().fold(0, |mine, &b| {
                    let block = state.blocks[usize::from(b)];
                    mine | bits.mask(block.kind, block.anchor)
                });
                let others = occupied & !mine;
                let fits = |_: &State, delta: i32, _: usize| Occupancy::clear(mine, delta, others);
                let lift = sink.reads_board(geometry);
                self.travel_lifted(geometry, state, movers, k, reach, lift, fits, sink)
            }
            None => {
                let fits =
                    |state: &State, delta: i32, i: usize| fits(geometry, state, movers, delta, i);
                self.travel_lifted(geometry, state, movers, k, reach, true, fits, sink)
            }
        }
    }

    /// [`Walker::travel`] of several blocks along a line or a path, lifted off the board
    /// meanwhile when `lift` (else neither `fits` nor the sink looks at the board); `fits` tests
    /// a displacement of the lifted blocks.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn travel_lifted<S: Sink>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        k: usize,
        reach: Reach,
        lift: bool,
        fits: impl Fn(&State, i32, usize) -> bool,
        sink: &mut S,
    ) -> bool {
        if lift {
            self::lift(geometry, state, movers, 0);
        }
        let go = if reach == Reach::Path {
            self.walk(geometry, state, movers, k, true, fits, |state, delta| {
                sink.show_lifted(geometry, state, movers, delta)
            })
        } else {
            let dir = geometry.dirs[k];
            let mut delta = dir;
            loop {
                if sink.show_lifted(geometry, state, movers, delta) == Next::Stop {
                    break false;
                }
                delta += dir;
                if !fits(state, delta, k) {
                    break true;
                }
            }
        };
        // Back where `lift(…, 0)` found them.
        if lift {
            drop_at(geometry, state, movers, 0);
        }
        go
    }

    /// [`Walker::travel`] for a single block (`movers == [b]`), which stays on the board
    /// except while a move is shown: `fits` counts its own cells as empty when it is tried
    /// somewhere, which is what lifting it would give. Emits the same moves in the same order.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn travel_one<S: Sink>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        k: usize,
        reach: Reach,
        fitted: bool,
        fits: impl Fn(&State, i32, usize) -> bool,
        sink: &mut S,
    ) -> bool {
        match reach {
            Reach::Step | Reach::Line => {
                let dir = geometry.dirs[k];
                let mut delta = dir;
                if !fitted && !fits(state, delta, k) {
                    return true;
                }
                loop {
                    if sink.show_one(geometry, state, movers, delta) == Next::Stop {
                        return false;
                    }
                    delta += dir;
                    if reach == Reach::Step || !fits(state, delta, k) {
                        return true;
                    }
                }
            }
            Reach::Path => self.walk(geometry, state, movers, k, fitted, fits, |state, delta| {
                sink.show_one(geometry, state, movers, delta)
            }),
        }
    }
}

/// The members of a set from the largest down (the seed's block order).
pub(super) fn descending(set: &BlockSet) -> impl Iterator<Item = u16> + '_ {
    (0..4).rev().flat_map(move |w| {
        let mut bits = set[w];
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let top = 63 - bits.leading_zeros() as usize;
            bits &= !(1 << top);
            Some((w * 64 + top) as u16)
        })
    })
}

/// Clears the cells of `movers`, which stand displaced by `delta` from their anchors' record;
/// their anchors go back to the undisplaced places.
#[inline]
pub(super) fn lift(geometry: &Geometry, state: &mut State, movers: &[u16], delta: i32) {
    for &b in movers {
        state.clear_block(geometry, b);
        let block = &mut state.blocks[usize::from(b)];
        block.anchor = (block.anchor as i32 - delta) as u32;
    }
}

/// Whether `movers` (lifted) fit at displacement `delta`, reached by a step in direction `k`
/// from a displacement where they fit: only the front cells of each block need looking at,
/// the others land where the block itself stood, which the lifting emptied.
#[inline]
fn fits(geometry: &Geometry, state: &State, movers: &[u16], delta: i32, k: usize) -> bool {
    movers.iter().all(|&b| {
        let block = state.blocks[usize::from(b)];
        let at = block.anchor as i32 + delta;
        geometry.fronts[usize::from(block.kind) & 15][k]
            .iter()
            .all(|&off| state.cells[(at + off) as usize & CELL_MASK] == 0)
    })
}

/// Puts the lifted `movers` down at displacement `delta`, updating their anchors.
#[inline]
pub(super) fn drop_at(geometry: &Geometry, state: &mut State, movers: &[u16], delta: i32) {
    for &b in movers {
        let block = &mut state.blocks[usize::from(b)];
        block.anchor = (block.anchor as i32 + delta) as u32;
        state.put_block(geometry, b);
    }
}
