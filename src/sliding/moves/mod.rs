//! Move generation in the six styles of section 3 of the seed, in the seed's order.
//!
//! A move shifts a *mover* — one block (styles 0–2) or a superpiece (styles 3–5, see
//! [`ideals`]) — by a displacement `δ` (a padded index offset) while every other block stays
//! put. Styles 0 and 3 take one unit step; 1 and 4 any number of unit steps in one direction;
//! 2 and 5 any sequence of unit steps.
//!
//! Movers come in the seed's order (sections 42 and 57), and styles 2 and 5 explore a mover's
//! displacements depth first as its recursion does (section 45), so that the search numbers new
//! configurations exactly as SLIDING does. Like the seed, the search may *prune* a path at a
//! configuration of a smaller distance (section 44: whatever lies beyond it is reached from it
//! directly). Unlike the seed, the visited marks are private to each mover: the seed asks its
//! global table instead, which also stops where a *different* mover got first from the same
//! source, and can leave a configuration one move too far (see [`crate::sliding`]). Invariant:
//! without pruning, each displacement reachable by a mover is emitted exactly once per mover,
//! so the successors of a configuration are exactly the configurations one move away (possibly
//! several times, when different movers give the same configuration).
//!
//! The files, each using only those before it: [`walk`] moves one mover (which displacements
//! it reaches, in which order) and shows each move to a [`Sink`]; [`ideals`] finds the
//! superpieces of a configuration; [`keys`] is the sink that rewrites a successor's key from
//! its parent's; [`units`] makes the successor keys of n-puzzles in styles 0–2 directly,
//! without a walk. Here, on top, [`Mover`] hands the movers in the seed's order to the walk:
//! [`Mover::successors`] shows the state after each move, [`Mover::successor_keys`] the
//! successor's key ([`keys`], or [`units`]); both see the moves in the same order (checked in
//! the tests below). [`find_move`] names the blocks of the move between two configurations.

pub mod ideals;
pub mod walk;

pub mod keys;
pub mod units;

pub use walk::{Next, Sink};

use crate::sliding::occupancy::Occupancy;
use crate::sliding::pack::{Geometry, State, CELL_MASK, WALL};
use crate::sliding::spec::{kind_name, Style};
use ideals::Ideals;
use keys::KeySink;
use walk::{descending, drop_at, insert, lift, BlockSet, Reach, Walker};

/// Reusable scratch space for generating moves.
pub struct Mover {
    walker: Walker,
    members: Vec<u16>,
    ideals: Ideals,
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

impl Default for Mover {
    fn default() -> Self {
        Self::new()
    }
}

impl Mover {
    pub fn new() -> Mover {
        Mover {
            walker: Walker::default(),
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

/// One block's part in a move: its kind and its anchor (row, column; 0-based), before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BlockMove {
    pub piece: char,
    pub from: (usize, usize),
    pub to: (usize, usize),
}

/// The move of `style` leading from `before` to `after` (the blocks that move, in row-major
/// order of where they were), if there is one.
pub fn find_move(
    geometry: &Geometry,
    style: Style,
    before: &[u64],
    after: &[u64],
) -> Option<Vec<BlockMove>> {
    let mut state = geometry.empty_state();
    state.unpack(geometry, before);
    let origin = state.clone();
    let mut mover = Mover::new();
    let mut answer = None;
    mover.successors(geometry, &mut state, style, |next, movers, _| {
        if next.pack_vec(geometry) == after {
            answer = Some(
                sorted(movers)
                    .into_iter()
                    .map(|b| {
                        let was = origin.blocks[usize::from(b)];
                        let now = next.blocks[usize::from(b)];
                        BlockMove {
                            piece: kind_name(was.kind),
                            from: geometry.row_col(was.anchor),
                            to: geometry.row_col(now.anchor),
                        }
                    })
                    .collect(),
            );
        }
        answer.is_none()
    });
    answer
}

/// Block numbers in increasing order, which is the row-major order of their anchors.
fn sorted(movers: &[u16]) -> Vec<u16> {
    let mut movers = movers.to_vec();
    movers.sort_unstable();
    movers
}

#[cfg(test)]
mod tests {
    use super::{Mover, Next};
    use crate::sliding::pack::Geometry;
    use crate::sliding::spec::{Puzzle, Style};

    /// Walks at random from the start; at each configuration the keys of
    /// [`Mover::successor_keys`] are exactly the packed states of [`Mover::successors`], in
    /// the same order, and the state is left as it was. With the geometry's occupancy bits when it
    /// has them, and cell by cell.
    fn check<const W: usize>(puzzle: &Puzzle, steps: usize, seed: u64) {
        let geometry = Geometry::new(puzzle);
        check_with::<W>(puzzle, &geometry.clone().by_cells(), steps, seed);
        check_with::<W>(puzzle, &geometry, steps, seed);
    }

    fn check_with<const W: usize>(puzzle: &Puzzle, geometry: &Geometry, steps: usize, seed: u64) {
        assert!(geometry.words <= W);
        if geometry.key_bits().is_some() && W != 1 {
            // One-word keys on such boards are rewritten by bits, in sinks of one word (and
            // unpacking keeps no ranks for the others).
            return;
        }
        let mut rng = seed;
        let mut next_random = move |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        let mut mover = Mover::new();
        for style in Style::ALL {
            let mut key = geometry.key_of(&puzzle.start);
            let mut state = geometry.empty_state();
            for _ in 0..steps {
                let words: [u64; W] = std::array::from_fn(|w| key.get(w).copied().unwrap_or(0));
                state.unpack(geometry, &key);
                let before = state.clone();
                let mut packed = Vec::new();
                mover.successors(geometry, &mut state, style, |next, _, _| {
                    packed.push(next.pack::<W>(geometry));
                    true
                });
                assert_eq!(state, before);
                let mut rewritten = Vec::new();
                mover.successor_keys(geometry, &mut state, &words, style, |next| {
                    rewritten.push(*next);
                    Next::Explore
                });
                assert_eq!(state, before);
                assert_eq!(
                    rewritten,
                    packed,
                    "style {} from {}",
                    style.0,
                    geometry.key_hex(&key)
                );
                if packed.is_empty() {
                    break;
                }
                key = packed[next_random(packed.len())][..geometry.words].to_vec();
            }
        }
    }

    #[test]
    fn rewritten_keys_are_the_packed_successors() {
        let data = |name: &str| {
            let text = std::fs::read_to_string(format!(
                "{}/tests/data/sliding/{name}.txt",
                env!("CARGO_MANIFEST_DIR")
            ))
            .expect("test data");
            Puzzle::parse(text.as_bytes()).expect("valid")
        };
        for (name, seed) in [
            ("klotski", 1),
            ("century", 2),
            ("silly", 3),
            ("pennant", 4),
            ("eight_puzzle", 5),
            ("twins_corridor", 6),
        ] {
            check::<1>(&data(name), 300, seed);
            check::<2>(&data(name), 100, seed + 10);
        }
        check::<4>(&data("fifteen_puzzle_d15"), 40, 7);
    }

    #[test]
    fn windows_wider_than_64_cells_are_rewritten() {
        // A block four rows tall on a board 31 cells wide: its window spans more than 64
        // cells, and so may long moves of the single cells.
        let text = "4 x 30 (tall)\n1 = 1/1/1/1\n2 = 1\n1202002000000020000000000000002\n";
        let puzzle = Puzzle::parse_with(text.as_bytes(), true).expect("valid");
        let geometry = Geometry::new(&puzzle);
        assert!(geometry.extent[1] >= 64);
        assert!(geometry.words > 4);
        check::<8>(&puzzle, 200, 11);
    }

    /// Single-cell blocks with several empty cells, dead cells and keys of two words: the
    /// successors read off the key ([`super::units`]) in every style.
    #[test]
    fn unit_moves_read_off_two_word_keys() {
        let text = "3 x 7 (units)\n1 = 1\n2 = 1\n12001x0210002100x0012\n12001x0210002100x0012\n";
        let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
        assert_eq!(Geometry::new(&puzzle).words, 2);
        check::<2>(&puzzle, 300, 12);
        check::<4>(&puzzle, 100, 13);
    }

    #[test]
    fn rewritten_keys_span_several_words() {
        // Mixed shapes in 18 nybbles: windows cross the word boundary.
        let text = "4 x 7 (wide)\n1 = 11/11\n2 = 1/1\n3 = 11\n4 = 1\n120340402030140040\n";
        let puzzle = Puzzle::parse_with(text.as_bytes(), true).expect("valid");
        assert_eq!(Geometry::new(&puzzle).nybbles, 18);
        check::<2>(&puzzle, 400, 9);
        check::<4>(&puzzle, 100, 10);
    }
}
