//! Move generation in the six styles of section 3 of the seed, in the seed's order.
//!
//! A move shifts a *mover* — one block (styles 0–2) or a superpiece (styles 3–5, see
//! [`super::ideals`]) — by a displacement `δ` (a padded index offset) while every other
//! block stays put. Styles 0 and 3 take one unit step; 1 and 4 any number of unit steps in one
//! direction; 2 and 5 any sequence of unit steps. A mover of several blocks is lifted off the
//! board, tried at each displacement, and put back; a single block stays on the board while it
//! is tried, its own cells counting as empty, and is shown at a displacement only to emit the
//! move. Every intermediate displacement must be a legal place for the mover, so a step never
//! leaves the padded board. Whether the mover fits is one test on the configuration's
//! [`super::occupancy`] bits when the board has them (boards of up to about 64 padded cells),
//! else a look at the cells its front meets.
//!
//! Movers come in the seed's order (sections 42 and 57), and styles 2 and 5 explore a mover's
//! displacements depth first as its recursion does (section 45), so that the search numbers new
//! configurations exactly as SLIDING does. Like the seed, the search may *prune* a path at a
//! configuration of a smaller distance (section 44: whatever lies beyond it is reached from it
//! directly). Unlike the seed, the visited marks are private to each mover: the seed asks its
//! global table instead, which also stops where a *different* mover got first from the same
//! source, and can leave a configuration one move too far (see `mod.rs`). Invariant: without
//! pruning, each displacement reachable by a mover is emitted exactly once per mover, so the
//! successors of a configuration are exactly the configurations one move away (possibly
//! several times, when different movers give the same configuration).
//!
//! Each move is shown to a [`Sink`]: [`Mover::successors`] shows the state after the move,
//! [`Mover::successor_keys`] the successor's key rewritten from the parent's ([`super::keys`])
//! or, for n-puzzles in styles 0–2, made directly ([`super::units`]); both see the moves in the
//! same order (checked in the tests of [`super::keys`]).

use super::ideals::Ideals;
use super::keys::KeySink;
use super::occupancy::Occupancy;
use super::pack::{Geometry, State, CELL_MASK, WALL};
use super::spec::Style;
use super::units;

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

/// Reusable scratch space for generating moves.
pub struct Mover {
    walker: Walker,
    members: Vec<u16>,
    ideals: Ideals,
}

/// Where the moves go. The walk decides which displacements are legal and in what order; the
/// sink is shown each of them, either with the state showing the move ([`Mover::successors`])
/// or as the successor's key computed from the parent's ([`Mover::successor_keys`]), and
/// answers what next.
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

/// The sink of [`Mover::generate_states`]: shows the state after each move to `emit`.
struct ShowState<F>(F);

impl<F> Sink for ShowState<F>
where
    F: FnMut(&State, &[u16], i32) -> Next,
{
    #[inline]
    fn show_one(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> Next {
        let b = movers[0];
        let anchor = state.blocks[usize::from(b)].anchor;
        state.clear_block(geometry, b);
        state.blocks[usize::from(b)].anchor = (anchor as i32 + delta) as u32;
        state.put_block(geometry, b);
        let next = (self.0)(state, movers, delta);
        state.clear_block(geometry, b);
        state.blocks[usize::from(b)].anchor = anchor;
        state.put_block(geometry, b);
        next
    }

    #[inline]
    fn show_lifted(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> Next {
        drop_at(geometry, state, movers, delta);
        let next = (self.0)(state, movers, delta);
        lift(geometry, state, movers, delta);
        next
    }
}

/// Scratch space for moving one mover around.
struct Walker {
    /// Per mover seen from the current configuration, in order (its slot): its blocks.
    /// `marks[slot][padded + δ] == generation` when displacement `δ` was reached by that mover.
    trails: Vec<BlockSet>,
    /// Per block: the generation when it last had a slot as a mover on its own, and the slot.
    singles: Vec<(u32, usize)>,
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
    fn of(style: Style) -> Reach {
        match style.0 % 3 {
            0 => Reach::Step,
            1 => Reach::Line,
            _ => Reach::Path,
        }
    }
}

impl Default for Mover {
    fn default() -> Self {
        Self::new()
    }
}

impl Mover {
    pub fn new() -> Mover {
        Mover {
            walker: Walker {
                trails: Vec::new(),
                singles: Vec::new(),
                marks: Vec::new(),
                generation: 0,
                stack: Vec::new(),
            },
            members: Vec::new(),
            ideals: Ideals::default(),
        }
    }

    /// Calls `emit(state, movers, δ)` for every move of `style` from `state` until it returns
    /// `false` (asking to stop), with `state` showing the configuration after the move; `state`
    /// is restored afterwards. Every configuration one move away is emitted at least once.
    pub fn successors<F>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        style: Style,
        mut emit: F,
    ) where
        F: FnMut(&State, &[u16], i32) -> bool,
    {
        self.generate_states(geometry, state, style, |after, movers, delta| {
            if emit(after, movers, delta) {
                Next::Explore
            } else {
                Next::Stop
            }
        });
    }

    /// Every move of `style` in the seed's order (see `Mover::generate`), showing the state
    /// after it; `emit` answers what next.
    pub fn generate_states<F>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        style: Style,
        emit: F,
    ) where
        F: FnMut(&State, &[u16], i32) -> Next,
    {
        self.generate(geometry, state, style, &mut ShowState(emit));
    }

    /// Calls `emit(key)` with the key of every move of `style` from the configuration `key`,
    /// in the order of `Mover::generate`. `state` is scratch space, unpacked from `key` when
    /// the moves need it: n-puzzles in styles 0–2 go by the key alone ([`units`]).
    pub fn successor_keys<const W: usize, F>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        key: &[u64; W],
        style: Style,
        emit: F,
    ) where
        F: FnMut(&[u64; W]) -> Next,
    {
        let reach = Reach::of(style);
        let empties = geometry.nybbles - geometry.block_count;
        // With one empty cell, a path of a single-cell block is the one step onto it.
        if geometry.all_unit && !style.superpieces() && (reach != Reach::Path || empties == 1) {
            let reach = if reach == Reach::Path {
                Reach::Step
            } else {
                reach
            };
            return units::successor_keys(geometry, key, reach, emit);
        }
        state.unpack(geometry, key);
        self.generate(geometry, state, style, &mut KeySink::new(*key, emit));
    }

    /// Shows every move of `style` from `state` to `sink` in the seed's order, as long as it
    /// does not answer [`Next::Stop`]; along paths (styles 2 and 5), a configuration answered
    /// with [`Next::Prune`] is not looked beyond. The order (section 42): in styles 0–2, for
    /// each direction right, left, down, up, every block in the seed's numbering (the last in
    /// row-major order first); in styles 3–5, the superpieces in the order of [`Ideals`]. A path
    /// is explored depth first, in the directions right, left, down, up, never straight back;
    /// a displacement already reached by the same mover (from this configuration) is not
    /// reached again — unlike the seed, which asks its table and so also stops where a
    /// *different* mover got first (section 44's defect).
    fn generate<S: Sink>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        style: Style,
        sink: &mut S,
    ) {
        let reach = Reach::of(style);
        self.walker.next_configuration(geometry);
        // The occupancy bits and the configuration's; in style 3 every move is a superpiece's
        // one step, known to fit: nothing to test.
        let bits = geometry
            .occupancy
            .as_ref()
            .filter(|_| style.0 != 3)
            .map(|bits| (bits, bits.of(&state.empties)));
        let mut movers = std::mem::take(&mut self.members);
        if style.0 < 3 {
            // `candidates[k]`: the blocks that may step in direction `k`; `fitted` when they
            // are known to.
            let mut candidates = [BlockSet::default(); 4];
            let fitted = match bits {
                Some((bits, occupied)) => {
                    // By the bits, exactly the blocks that can take a step in direction `k`:
                    // every block is tried in every direction, without a branch (whether a
                    // block fits is what the predictor keeps missing), and the window's at
                    // most 64 cells hold at most 64 blocks.
                    for (b, &block) in state.blocks.iter().enumerate() {
                        let mine = bits.mask(block.kind, block.anchor);
                        let others = occupied & !mine;
                        for (k, &dir) in geometry.dirs.iter().enumerate() {
                            let fits = Occupancy::clear(mine, dir, others);
                            candidates[k][0] |= u64::from(fits) << (b & 63);
                        }
                    }
                    true
                }
                None => {
                    // Only a block with an empty cell just beyond it can step that way.
                    for &p in &state.empties {
                        for (k, &dir) in geometry.dirs.iter().enumerate() {
                            let v = state.cells[(p as i32 - dir) as usize & CELL_MASK];
                            if v != 0 && v != WALL {
                                insert(&mut candidates[k], usize::from(v - 1));
                            }
                        }
                    }
                    false
                }
            };
            'directions: for (k, candidates) in candidates.iter().enumerate() {
                for b in descending(candidates) {
                    movers.clear();
                    movers.push(b);
                    if !self
                        .walker
                        .travel(geometry, state, &movers, k, reach, fitted, bits, sink)
                    {
                        break 'directions;
                    }
                }
            }
        } else {
            // Superpieces one at a time, in the seed's order (there can be astronomically many).
            self.ideals.prepare(geometry, state);
            let walker = &mut self.walker;
            self.ideals.for_each(geometry, |k, movers| {
                walker.travel(geometry, state, movers, k, reach, true, bits, sink)
            });
        }
        self.members = movers;
    }
}

impl Walker {
    /// Forgets the displacements reached from the previous configuration.
    fn next_configuration(&mut self, geometry: &Geometry) {
        self.trails.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            for marks in &mut self.marks {
                marks.fill(0);
            }
            self.singles.fill((0, 0));
            self.generation = 1;
        }
        let size = 2 * geometry.padded + 1;
        if self.marks.first().is_some_and(|marks| marks.len() != size) {
            self.marks.clear();
        }
    }

    /// The slot of marks of `movers` for the current configuration, with the origin marked.
    fn slot(&mut self, geometry: &Geometry, movers: &[u16]) -> usize {
        // A single block keeps its slot in `singles` (stamped with the generation).
        if let [b] = movers {
            let b = usize::from(*b);
            if self.singles.len() <= b {
                self.singles.resize(b + 1, (0, 0));
            }
            let (generation, slot) = self.singles[b];
            if generation == self.generation {
                return slot;
            }
            let slot = self.new_slot(geometry, BlockSet::default());
            self.singles[b] = (self.generation, slot);
            return slot;
        }
        let mut blocks = BlockSet::default();
        for &b in movers {
            insert(&mut blocks, usize::from(b));
        }
        if let Some(slot) = self.trails.iter().position(|&trail| trail == blocks) {
            return slot;
        }
        self.new_slot(geometry, blocks)
    }

    /// A slot for the set `blocks` (empty for a single block, found through `singles`), with
    /// the origin marked.
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
    fn travel<S: Sink>(
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
fn descending(set: &BlockSet) -> impl Iterator<Item = u16> + '_ {
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
fn lift(geometry: &Geometry, state: &mut State, movers: &[u16], delta: i32) {
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
fn drop_at(geometry: &Geometry, state: &mut State, movers: &[u16], delta: i32) {
    for &b in movers {
        let block = &mut state.blocks[usize::from(b)];
        block.anchor = (block.anchor as i32 + delta) as u32;
        state.put_block(geometry, b);
    }
}
