//! Move generation in the six styles of section 3 of the seed.
//!
//! A move shifts a *mover* — one block (styles 0–2) or a superpiece (styles 3–5, see
//! [`super::superpieces`]) — by a displacement `δ` (a padded index offset) while every other
//! block stays put. Styles 0 and 3 take one unit step; 1 and 4 any number of unit steps in one
//! direction; 2 and 5 any sequence of unit steps. A mover of several blocks is lifted off the
//! board, tried at each displacement, and put back; a single block stays on the board while it
//! is tried, its own cells counting as empty, and is shown at a displacement only to emit the
//! move. Every intermediate displacement must be a legal place for the mover, so a step never
//! leaves the padded board.
//!
//! Styles 2 and 5 explore the displacements of one mover by depth-first search with a visited
//! mark per displacement, private to that mover. This is where the seed's section 44 differs:
//! it marks nothing and prunes with the global table instead, which misses continuations when a
//! configuration was already reached from the same source by a *different* mover (see the
//! report in `mod.rs`). Invariant here: each displacement reachable by the mover is emitted
//! exactly once per mover, so the successors of a configuration are exactly the configurations
//! one move away (possibly several times, when different movers give the same configuration).

use super::pack::WALL;
use super::pack::{Geometry, State};
use super::superpieces::{insert, members, BlockSet, Superpieces};
use super::Style;

/// Reusable scratch space for generating moves.
pub struct Mover {
    walker: Walker,
    members: Vec<u16>,
    superpieces: Superpieces,
}

/// Scratch space for moving one mover around.
struct Walker {
    /// `stamp[padded + δ] == generation` marks displacement `δ` as reached (styles 2 and 5).
    stamp: Vec<u32>,
    generation: u32,
    stack: Vec<i32>,
}

/// How a mover may travel.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    Step,
    Line,
    Path,
}

impl Mover {
    pub fn new(geometry: &Geometry) -> Mover {
        Mover {
            walker: Walker {
                stamp: vec![0; 2 * geometry.padded + 1],
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
    pub fn successors<F>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        style: Style,
        mut emit: F,
    ) where
        F: FnMut(&State, &[u16], i32) -> bool,
    {
        let reach = match style.0 % 3 {
            0 => Reach::Step,
            1 => Reach::Line,
            _ => Reach::Path,
        };
        let mut movers = std::mem::take(&mut self.members);
        if style.0 < 3 {
            // Only a block with an empty cell just beyond it in a direction can move that way.
            let mut candidates = [BlockSet::default(); 4];
            for &p in &geometry.live {
                if state.cells[p as usize] != 0 {
                    continue;
                }
                for (k, &dir) in geometry.dirs.iter().enumerate() {
                    let v = state.cells[(p as i32 - dir) as usize];
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
                    if !self
                        .walker
                        .travel(geometry, state, &movers, 0, reach, &mut emit)
                    {
                        break;
                    }
                }
            } else {
                'directions: for (k, candidates) in candidates.iter().enumerate() {
                    for b in descending(candidates) {
                        movers.clear();
                        movers.push(b);
                        if !self
                            .walker
                            .travel(geometry, state, &movers, k, reach, &mut emit)
                        {
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
                    walker.travel(geometry, state, &movers, k, reach, &mut emit)
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
    fn walk(
        &mut self,
        geometry: &Geometry,
        mut visit: impl FnMut(i32, usize) -> Option<bool>,
    ) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let origin = geometry.padded as i32;
        self.stamp[origin as usize] = self.generation;
        self.stack.clear();
        self.stack.push(0);
        while let Some(at) = self.stack.pop() {
            for (i, &step) in geometry.dirs.iter().enumerate() {
                let delta = at + step;
                let mark = (origin + delta) as usize;
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
    /// paths); false when `emit` asked to stop. The state is restored either way.
    fn travel<F>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        k: usize,
        reach: Reach,
        emit: &mut F,
    ) -> bool
    where
        F: FnMut(&State, &[u16], i32) -> bool,
    {
        if let [single] = movers {
            return self.travel_one(geometry, state, movers, *single, k, reach, emit);
        }
        lift(geometry, state, movers, 0);
        let mut go = true;
        match reach {
            Reach::Step | Reach::Line => {
                let dir = geometry.dirs[k];
                let mut delta = dir;
                while go && fits(geometry, state, movers, delta, k) {
                    drop_at(geometry, state, movers, delta);
                    go = emit(state, movers, delta);
                    lift(geometry, state, movers, delta);
                    if reach == Reach::Step {
                        break;
                    }
                    delta += dir;
                }
            }
            Reach::Path => {
                go = self.walk(geometry, |delta, i| {
                    if !fits(geometry, state, movers, delta, i) {
                        return None;
                    }
                    drop_at(geometry, state, movers, delta);
                    let go = emit(state, movers, delta);
                    lift(geometry, state, movers, delta);
                    Some(go)
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
    fn travel_one<F>(
        &mut self,
        geometry: &Geometry,
        state: &mut State,
        movers: &[u16],
        b: u16,
        k: usize,
        reach: Reach,
        emit: &mut F,
    ) -> bool
    where
        F: FnMut(&State, &[u16], i32) -> bool,
    {
        let block = state.blocks[usize::from(b)];
        let fronts = &geometry.fronts[usize::from(block.kind)];
        let anchor = block.anchor as i32;
        let me = b + 1;
        // Whether the block fits at `delta`, reached by a step in direction `i` from a place
        // where it fits.
        let fits = |state: &State, delta: i32, i: usize| {
            let at = anchor + delta;
            fronts[i].iter().all(|&off| {
                let v = state.cells[(at + off) as usize];
                v == 0 || v == me
            })
        };
        // Shows the block at `delta`, emits, and puts it back.
        let mut show = |state: &mut State, delta: i32| {
            state.clear_block(geometry, b);
            state.blocks[usize::from(b)].anchor = (anchor + delta) as u32;
            state.put_block(geometry, b);
            let go = emit(state, movers, delta);
            state.clear_block(geometry, b);
            state.blocks[usize::from(b)].anchor = anchor as u32;
            state.put_block(geometry, b);
            go
        };
        match reach {
            Reach::Step | Reach::Line => {
                let dir = geometry.dirs[k];
                let mut delta = dir;
                while fits(state, delta, k) {
                    if !show(state, delta) {
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
                    fits(state, delta, i).then(|| show(state, delta))
                })
            }
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
        geometry.fronts[usize::from(block.kind)][k]
            .iter()
            .all(|&off| state.cells[(at + off) as usize] == 0)
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
