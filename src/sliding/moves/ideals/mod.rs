//! Superpieces in the seed's order (sections 46–54): Knuth's backtrack over the ideals of the
//! "would bump into" digraph, so that styles 3–5 visit the superpieces of a configuration in
//! the same sequence as SLIDING, hence number new configurations the same way.
//!
//! The vertices are the stuck vertex 0 (walls and dead cells) and the blocks, numbered as the
//! seed's `unpack` numbers them: the block met first in row-major order is vertex `n`, the last
//! one vertex 1 (our block `b` is vertex `n − b`). For a shift by `+del` (down, then right) an
//! arc `u → v` means that `u` moved by `del` would land on `v`. The order of the arc lists
//! decides the order of the permutation below, so it is the seed's.
//!
//! The backtrack keeps a permutation `perm` of the vertices; at level `l` the vertices
//! `perm[inx[l]..]` are undecided, and deciding `perm[inx[l]]` (first *exclude* it, with every
//! vertex that leads to it; then *include* it, with every vertex it leads to) moves the
//! vertices decided with it to the positions right after it, in the order the arc lists meet
//! them. Invariant: every leaf is an ideal (a set closed under the arcs), and every ideal is
//! one leaf. The stuck vertex is decided first: an ideal without it is a superpiece for
//! `+del`; the complement of an ideal with it (an ideal of the reversed digraph) is a
//! superpiece for `−del`.
//!
//! Two implementations give the same superpieces in the same order: [`lists::Lists`], the
//! seed's linked lists for any number of blocks, and [`bits::Bits`], bit sets for at most 63
//! blocks (every puzzle of the test data), several times faster. [`Ideals`] picks one, and
//! on n-puzzles remembers what it found for each layout of empty cells ([`layouts`]). What both
//! backtracks share (the stuck vertex's cells, the step back) is in `walls.rs`, below them.

mod walls;

pub mod bits;
pub mod lists;

mod layouts;

use crate::sliding::pack::{Geometry, State};
use bits::Bits;
use layouts::{Known, Layouts};
use lists::Lists;

/// The superpieces of a configuration, by whichever implementation fits it.
#[derive(Default)]
pub struct Ideals {
    /// Each implementation is made when first needed: their scratch space (some 50 KB in all)
    /// is written when made, and most runs need one of them (styles 3–5) or none.
    lists: Option<Box<Lists>>,
    bits: Option<Box<Bits>>,
    /// The prepared configuration has few enough blocks for the bit sets.
    small: bool,
    layouts: Layouts,
    /// The prepared configuration's superpieces, when its layout's are remembered.
    known: Option<Known>,
}

impl Ideals {
    /// Takes in the board of `state`.
    pub fn prepare(&mut self, geometry: &Geometry, state: &State) {
        self.known = None;
        // On an n-puzzle, the layout is which cells are occupied.
        let layout = geometry
            .occupancy
            .as_ref()
            .filter(|_| geometry.all_unit)
            .map(|bits| bits.of(&state.empties));
        if let Some(layout) = layout {
            self.layouts.serve(geometry);
            self.known = self.layouts.get(layout);
            if self.known.is_some() {
                return;
            }
        }
        self.small = Bits::fits(state);
        if self.small {
            self.bits.get_or_insert_default().prepare(geometry, state);
        } else {
            self.lists.get_or_insert_default().prepare(geometry, state);
        }
        if let Some(layout) = layout.filter(|_| self.layouts.has_room()) {
            let (bits, lists, small) = (&mut self.bits, &mut self.lists, self.small);
            self.known = self
                .layouts
                .record(layout, |visit| walk(bits, lists, small, geometry, visit));
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
        if let Some(known) = self.known {
            return self.layouts.replay(known, visit);
        }
        // One instance of each implementation for every caller (and for the recording of
        // layouts): a call per superpiece costs less than copies of the backtrack cost room in
        // the binary (and in resident memory: code is mapped in 64 KB windows).
        let visit: &mut dyn FnMut(usize, &[u16]) -> bool = &mut visit;
        walk(&mut self.bits, &mut self.lists, self.small, geometry, visit)
    }
}

/// The superpieces of the prepared configuration by the bit sets when `small`, else by the
/// lists (as [`Ideals::for_each`]).
fn walk(
    bits: &mut Option<Box<Bits>>,
    lists: &mut Option<Box<Lists>>,
    small: bool,
    geometry: &Geometry,
    visit: &mut dyn FnMut(usize, &[u16]) -> bool,
) -> bool {
    if small {
        bits.get_or_insert_default().for_each(geometry, visit)
    } else {
        lists.get_or_insert_default().for_each(geometry, visit)
    }
}

/// Every superpiece that `for_each` shows, as (direction, sorted blocks): how the
/// implementations are compared with each other in the tests.
pub fn listing(
    for_each: impl FnOnce(&mut dyn FnMut(usize, &[u16]) -> bool) -> bool,
) -> Vec<(usize, Vec<u16>)> {
    let mut seen = Vec::new();
    for_each(&mut |k, movers| {
        let mut movers = movers.to_vec();
        movers.sort_unstable();
        seen.push((k, movers));
        true
    });
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sliding::moves::Mover;
    use crate::sliding::pack::WALL;
    use crate::sliding::pack::{Geometry, State};
    use crate::sliding::spec::Puzzle;
    use crate::sliding::Style;
    use std::collections::BTreeSet;

    fn state_of(text: &str) -> (Geometry, State) {
        let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
        let geometry = Geometry::new(&puzzle);
        let state = geometry.state_of(&puzzle.start);
        (geometry, state)
    }

    /// The order of [`Ideals`], which must be that of [`Lists`] and of [`Bits`], with and
    /// without its shortcut (the members of a superpiece may come in any order: sorted here).
    fn knuth_order(
        ideals: &mut Ideals,
        geometry: &Geometry,
        state: &State,
    ) -> Vec<(usize, Vec<u16>)> {
        ideals.prepare(geometry, state);
        let chosen = listing(|visit| ideals.for_each(geometry, visit));
        let mut lists = Lists::default();
        lists.prepare(geometry, state);
        let by_lists = listing(|visit| lists.for_each(geometry, visit));
        let mut bits = Bits::default();
        bits.prepare(geometry, state);
        let by_bits = listing(|visit| bits.for_each(geometry, visit));
        let mut backtrack = Bits::backtrack_only();
        backtrack.prepare(geometry, state);
        let by_backtrack = listing(|visit| backtrack.for_each(geometry, visit));
        let at = geometry.key_hex(&state.pack_vec(geometry));
        assert_eq!(by_lists, by_backtrack, "{at}");
        assert_eq!(by_lists, by_bits, "{at}");
        assert_eq!(chosen, by_bits);
        chosen
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
        check(
            include_str!("../../../../tests/data/sliding/klotski.txt"),
            300,
        );
        check(
            include_str!("../../../../tests/data/sliding/silly.txt"),
            300,
        );
        check(
            include_str!("../../../../tests/data/sliding/pennant.txt"),
            300,
        );
        check(
            include_str!("../../../../tests/data/sliding/eight_puzzle.txt"),
            300,
        );
    }

    /// Every configuration within `steps` style-3 moves of the start of `text`, as keys, with
    /// its geometry.
    fn near_start(text: &str, steps: usize) -> (Geometry, Vec<Vec<u64>>) {
        let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
        let geometry = Geometry::new(&puzzle);
        let mut seen = vec![geometry.key_of(&puzzle.start)];
        let (mut state, mut mover) = (geometry.empty_state(), Mover::new());
        let mut from = 0;
        for _ in 0..steps {
            let to = seen.len();
            for i in from..to {
                state.unpack(&geometry, &seen[i].clone());
                mover.successors(&geometry, &mut state, Style(3), |next, _, _| {
                    let next = next.pack_vec(&geometry);
                    if !seen.contains(&next) {
                        seen.push(next);
                    }
                    true
                });
            }
            from = to;
        }
        (geometry, seen)
    }

    /// The layout (occupied cells) of every configuration, and the superpieces each shows,
    /// checked against the implementations by [`knuth_order`].
    fn layouts_and_order(ideals: &mut Ideals, text: &str, steps: usize) -> BTreeSet<Vec<u32>> {
        let (geometry, keys) = near_start(text, steps);
        let mut state = geometry.empty_state();
        let mut layouts = BTreeSet::new();
        for key in &keys {
            state.unpack(&geometry, key);
            knuth_order(ideals, &geometry, &state);
            // Twice: a replayed or a fresh walk shows the same again.
            assert_eq!(
                listing(|visit| ideals.for_each(&geometry, visit)),
                knuth_order(ideals, &geometry, &state)
            );
            layouts.insert(state.empties.clone());
        }
        layouts
    }

    /// On n-puzzles the superpieces are remembered per layout of the empty cells (each found
    /// once and shown again for every configuration of that layout, as [`knuth_order`]
    /// checks): near the 8-puzzle's start there are as many as cells the blank visits.
    #[test]
    fn n_puzzle_superpieces_are_remembered_by_layout() {
        let mut ideals = Ideals::default();
        let eight = include_str!("../../../../tests/data/sliding/eight_puzzle.txt");
        let layouts = layouts_and_order(&mut ideals, eight, 6);
        assert!(layouts.len() >= 5, "{layouts:?}");
        assert_eq!(ideals.layouts.len(), layouts.len());
        // Not across boards: the same text again is another geometry, and starts afresh.
        layouts_and_order(&mut ideals, eight, 1);
        assert!(ideals.layouts.len() < layouts.len());
        // Other puzzles remember nothing.
        let held = ideals.layouts.len();
        let klotski = include_str!("../../../../tests/data/sliding/klotski.txt");
        layouts_and_order(&mut ideals, klotski, 3);
        assert_eq!(ideals.layouts.len(), held);
    }

    /// Layouts whose superpieces do not fit in the room left are found afresh, every time,
    /// and no more layouts are remembered after one did not fit.
    #[test]
    fn layouts_past_the_room_are_found_afresh() {
        let text = "3 x 4 (two blanks)\n1 = 1\n2 = 1\n3 = 1\n1231231230\n1231231230\n";
        let mut ideals = Ideals {
            layouts: Layouts::with_room(100),
            ..Ideals::default()
        };
        let layouts = layouts_and_order(&mut ideals, text, 4);
        assert!(layouts.len() > 4, "{layouts:?}");
        assert!(ideals.layouts.len() >= 1);
        assert!(ideals.layouts.len() < layouts.len());
        assert!(!ideals.layouts.has_room());
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

    /// Beyond 63 blocks the seed's lists take over: on a 9 x 9 board full of unit tiles but
    /// for the bottom right corner, the superpieces are the runs of tiles ending next to the
    /// blank, in its column (moving down) and in its row (moving right).
    #[test]
    fn many_blocks_go_by_the_lists() {
        let mut text = String::from("9 x 9\n1 = 1\n");
        text.push_str(&"1".repeat(80));
        text.push('\n');
        text.push_str(&"1".repeat(80));
        text.push('\n');
        let (geometry, state) = state_of(&text);
        assert!(!Bits::fits(&state));
        let mut ideals = Ideals::default();
        ideals.prepare(&geometry, &state);
        let mut seen = Vec::new();
        ideals.for_each(&geometry, |k, movers| {
            let mut movers = movers.to_vec();
            movers.sort_unstable();
            seen.push((k, movers));
            true
        });
        let mut expected: Vec<(usize, Vec<u16>)> = Vec::new();
        for length in 1..=8u16 {
            let column = (1..=length).map(|i| 80 - 9 * i).rev().collect();
            expected.push((2, column));
        }
        for length in 1..=8u16 {
            expected.push((0, (80 - length..80).collect()));
        }
        seen.sort();
        expected.sort();
        assert_eq!(seen, expected);
    }
}
