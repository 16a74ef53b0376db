//! Move generation in the six styles of section 3 of the seed.
//!
//! A move shifts a *mover* — one block (styles 0–2) or a superpiece (styles 3–5, see
//! [`super::superpieces`]) — by a displacement `δ` (a padded index offset) while every other
//! block stays put. Styles 0 and 3 take one unit step; 1 and 4 any number of unit steps in one
//! direction; 2 and 5 any sequence of unit steps. A mover of several blocks is lifted off the
//! board, tried at each displacement, and put back; a single block stays on the board while it
//! is tried, its own cells counting as empty, and is shown at a displacement only to emit the
//! move. Every intermediate displacement must be a legal place for the mover, so a step never
//! leaves the padded board. A superpiece of direction `k` can take its first step that way by
//! definition, so a single step of several blocks is shown without a test.
//!
//! Where a move goes is the [`Sink`]'s business: the state showing it ([`Mover::successors`],
//! for reading paths back and for tests) or the successor's key rewritten from the parent's
//! ([`Mover::successor_keys`], for the search; [`super::units`] for n-puzzles in styles 0–2).
//! The walk is the same for both, so both see the moves in the same order.
//!
//! Styles 2 and 5 explore the displacements of one mover by depth-first search with a visited
//! mark per displacement, private to that mover. This is where the seed's section 44 differs:
//! it marks nothing and prunes with the global table instead, which misses continuations when a
//! configuration was already reached from the same source by a *different* mover (see the
//! report in `mod.rs`). Invariant here: each displacement reachable by the mover is emitted
//! exactly once per mover, so the successors of a configuration are exactly the configurations
//! one move away (possibly several times, when different movers give the same configuration).

use super::keys::KeySink;
use super::pack::{Geometry, State, CELL_MASK, WALL};
use super::superpieces::{insert, members, BlockSet, Superpieces};
use super::units;
use super::Style;

/// Reusable scratch space for generating moves.
pub struct Mover {
    walker: Walker,
    members: Vec<u16>,
    superpieces: Superpieces,
}

/// Where the moves go. The walk decides which displacements are legal and in what order; the
/// sink is shown each of them, either with the state showing the move ([`Mover::successors`])
/// or as the successor's key computed from the parent's ([`Mover::successor_keys`]).
pub trait Sink {
    /// Single block `movers[0]` is on the board at its recorded anchor and fits displaced by
    /// `delta` (its own cells counting as empty); false asks to stop.
    fn show_one(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> bool;
    /// The lifted `movers` (off the board, anchors recorded where they stood) fit displaced by
    /// `delta`; false asks to stop.
    fn show_lifted(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> bool;
    /// The single block `movers[0]` is done with; the state must be as before its first show.
    fn finish_one(&mut self, _geometry: &Geometry, _state: &mut State, _movers: &[u16]) {}
    /// The `movers` (on the board) take one step `delta`, known to fit; false asks to stop.
    fn show_step(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> bool {
        lift(geometry, state, movers, 0);
        let go = self.show_lifted(geometry, state, movers, delta);
        drop_at(geometry, state, movers, 0);
        go
    }
}

/// The sink of [`Mover::successors`]: shows the state after each move to `emit`.
struct ShowState<F>(F);

impl<F> Sink for ShowState<F>
where
    F: FnMut(&State, &[u16], i32) -> bool,
{
    #[inline]
    fn show_one(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> bool {
        let b = movers[0];
        let anchor = state.blocks[usize::from(b)].anchor;
        state.clear_block(geometry, b);
        state.blocks[usize::from(b)].anchor = (anchor as i32 + delta) as u32;
        state.put_block(geometry, b);
        let go = (self.0)(state, movers, delta);
        state.clear_block(geometry, b);
        state.blocks[usize::from(b)].anchor = anchor;
        state.put_block(geometry, b);
        go
    }

    #[inline]
    fn show_lifted(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        delta: i32,
    ) -> bool {
        drop_at(geometry, state, movers, delta);
        let go = (self.0)(state, movers, delta);
        lift(geometry, state, movers, delta);
        go
    }
}

/// Scratch space for moving one mover around.
pub(super) struct Walker {
    /// `stamp[padded + δ] == generation` marks displacement `δ` as reached (styles 2 and 5);
    /// `padded + δ` stays below twice the largest padded board.
    stamp: Box<[u32; 2 * PADDED_STAMPS]>,
    generation: u32,
    stack: Vec<i32>,
}

/// Half the length of the stamp array (displacements are less than a padded board).
const PADDED_STAMPS: usize = CELL_MASK + 1;

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

impl Mover {
    pub fn new(_geometry: &Geometry) -> Mover {
        Mover {
            walker: Walker {
                stamp: Box::new([0; 2 * PADDED_STAMPS]),
                generation: 0,
                stack: Vec::new(),
            },
            members: Vec::new(),
            superpieces: Superpieces::default(),
        }
    }

    /// Calls `emit(state, movers, δ)` for every move of `style` from `state` until it returns
    /// `false` (asking to stop), with `state`
    /// showing the configuration after the move; `state` is restored afterwards.
    pub fn successors<F>(&mut self, geometry: &Geometry, state: &mut State, style: Style, emit: F)
    where
        F: FnMut(&State, &[u16], i32) -> bool,
    {
        self.generate(geometry, state, style, &mut ShowState(emit));
    }

    /// Calls `emit(key)` with the key of every move of `style` from `state`, which must have
    /// been unpacked from `key` (so that its ranks are those of `key`), in the order of
    /// [`Mover::successors`], until it returns `false`; `state` is restored afterwards.
    pub fn successor_keys<const W: usize, F>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        key: &[u64; W],
        style: Style,
        emit: F,
    ) where
        F: FnMut(&[u64; W]) -> bool,
    {
        if geometry.all_unit && !style.superpieces() {
            let reach = Reach::of(style);
            return units::successor_keys(&mut self.walker, geometry, state, key, reach, emit);
        }
        self.generate(geometry, state, style, &mut KeySink::new(*key, emit));
    }

    fn generate<S: Sink>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        style: Style,
        sink: &mut S,
    ) {
        let reach = Reach::of(style);
        let mut movers = std::mem::take(&mut self.members);
        if style.0 < 3 {
            // Only a block with an empty cell just beyond it in a direction can move that way.
            let mut candidates = [BlockSet::default(); 4];
            for &p in &state.empties {
                for (k, &dir) in geometry.dirs.iter().enumerate() {
                    let v = state.cells[(p as i32 - dir) as usize & CELL_MASK];
                    if v != 0 && v != WALL {
                        insert(&mut candidates[k], usize::from(v - 1));
                    }
                }
            }
            if reach == Reach::Path {
                let any = candidates[1..].iter().fold(candidates[0], |acc, c| {
                    std::array::from_fn(|w| acc[w] | c[w])
                });
                for b in descending(&any) {
                    movers.clear();
                    movers.push(b);
                    if !self.walker.travel(geometry, state, &movers, 0, reach, sink) {
                        break;
                    }
                }
            } else {
                'directions: for (k, candidates) in candidates.iter().enumerate() {
                    for b in descending(candidates) {
                        movers.clear();
                        movers.push(b);
                        if !self.walker.travel(geometry, state, &movers, k, reach, sink) {
                            break 'directions;
                        }
                    }
                }
            }
        } else {
            // Superpieces are generated one at a time (there can be astronomically many);
            // along paths, a superpiece is walked only from the first direction it can take.
            self.superpieces.prepare(geometry, state);
            let walker = &mut self.walker;
            self.superpieces
                .for_each(reach == Reach::Path, |k, set: &BlockSet| {
                    members(set, &mut movers);
                    walker.travel(geometry, state, &movers, k, reach, sink)
                });
        }
        self.members = movers;
    }
}

impl Walker {
    /// Depth-first over the offsets reachable from 0 by unit steps, in the seed's order:
    /// `visit(delta, i)` for each offset not yet seen, reached by a step in direction `i`,
    /// answers `None` when the movers do not fit there (it is not entered, and may be reached
    /// again from elsewhere) or whether to go on. False when a visit asked to stop.
    #[inline]
    pub(super) fn walk(
        &mut self,
        geometry: &Geometry,
        mut visit: impl FnMut(i32, usize) -> Option<bool>,
    ) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let origin = PADDED_STAMPS as i32;
        self.stamp[origin as usize] = self.generation;
        self.stack.clear();
        self.stack.push(0);
        while let Some(at) = self.stack.pop() {
            for (i, &step) in geometry.dirs.iter().enumerate() {
                let delta = at + step;
                let mark = (origin + delta) as usize & (2 * PADDED_STAMPS - 1);
                if self.stamp[mark] == self.generation {
                    continue;
                }
                match visit(delta, i) {
                    None => continue,
                    Some(false) => return false,
                    Some(true) => {
                        self.stamp[mark] = self.generation;
                        self.stack.push(delta);
                    }
                }
            }
        }
        true
    }

    /// Moves `movers` as `reach` allows (along direction `k` for steps and lines; anywhere for
    /// paths); false when the sink asked to stop. The state is restored either way.
    #[inline]
    fn travel<S: Sink>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        k: usize,
        reach: Reach,
        sink: &mut S,
    ) -> bool {
        if let [single] = movers {
            let go = self.travel_one(geometry, state, movers, *single, k, reach, sink);
            sink.finish_one(geometry, state, movers);
            return go;
        }
        // Several blocks move only as a superpiece of direction `k`, which can take that step.
        if reach == Reach::Step {
            return sink.show_step(geometry, state, movers, geometry.dirs[k]);
        }
        lift(geometry, state, movers, 0);
        let mut go = true;
        match reach {
            Reach::Step | Reach::Line => {
                let dir = geometry.dirs[k];
                let mut delta = dir;
                while go && fits(geometry, state, movers, delta, k) {
                    go = sink.show_lifted(geometry, state, movers, delta);
                    if reach == Reach::Step {
                        break;
                    }
                    delta += dir;
                }
            }
            Reach::Path => {
                go = self.walk(geometry, |delta, i| {
                    fits(geometry, state, movers, delta, i)
                        .then(|| sink.show_lifted(geometry, state, movers, delta))
                });
            }
        }
        // Back where `lift(…, 0)` found them.
        drop_at(geometry, state, movers, 0);
        go
    }
}

impl Walker {
    /// [`Walker::travel`] for a single block `b` (`movers == [b]`), which stays on the board
    /// except while a move is shown: its own cells count as empty when it is tried somewhere,
    /// which is what lifting it would give. Emits the same moves in the same order.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn travel_one<S: Sink>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        b: u16,
        k: usize,
        reach: Reach,
        sink: &mut S,
    ) -> bool {
        let block = state.blocks[usize::from(b)];
        let fronts = &geometry.fronts[usize::from(block.kind) & 15];
        let anchor = block.anchor as i32;
        let me = b + 1;
        // Whether the block fits at `delta`, reached by a step in direction `i` from a place
        // where it fits.
        let fits = |state: &State, delta: i32, i: usize| {
            let at = anchor + delta;
            fronts[i].iter().all(|&off| {
                let v = state.cells[(at + off) as usize & CELL_MASK];
                v == 0 || v == me
            })
        };
        match reach {
            Reach::Step | Reach::Line => {
                let dir = geometry.dirs[k];
                let mut delta = dir;
                while fits(state, delta, k) {
                    if !sink.show_one(geometry, state, movers, delta) {
                        return false;
                    }
                    if reach == Reach::Step {
                        break;
                    }
                    delta += dir;
                }
                true
            }
            Reach::Path => {
                if !(0..4).any(|i| fits(state, geometry.dirs[i], i)) {
                    return true;
                }
                self.walk(geometry, |delta, i| {
                    fits(state, delta, i).then(|| sink.show_one(geometry, state, movers, delta))
                })
            }
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
