//! Walking distance in the multi-tile metric, one axis at a time.
//!
//! The idea (Takahashi's walking distance, moved to MTM): forget which tile is where within a
//! line and keep, for every line (a row, for the vertical part), how many tiles of each goal
//! line stand in it, and the blank's line. A vertical MTM move of distance `k` takes one tile
//! from each of the `k` lines the blank passes and moves it one line back; a horizontal move
//! changes no row. So the vertical MTM moves of any solution are at least the distance of the
//! row counts to the goal's in this abstraction, where a jump may take *any* tile class from
//! each line it passes (the tiles in the blank's column are among them): an admissible bound.
//! The horizontal part is the same with columns.
//!
//! A [`WalkTable`] holds every abstract state reachable from the goal, numbered, with the
//! successor of each single step (the blank one line forward or back, a tile of a given class
//! the other way) and each state's distance to the goal in jumps of 1 to `lines - 1` steps in
//! one direction (breadth-first from the goal; the moves are reversible). A search keeps the
//! state number of each axis and updates it by one table step per tile a jump moves.
//! Invariant: `distance[s]` is the fewest jumps from `s` to the goal state, and 0 only there.

use rustc_hash::FxHashMap;

/// No successor (no tile of that class in that line, or the blank at the board's edge).
pub const NONE: u32 = u32::MAX;

/// The abstract states of one axis and their MTM distances.
#[derive(Clone, Debug)]
pub struct WalkTable {
    /// Lines along the axis (rows for the vertical part), which is also the number of classes.
    lines: usize,
    /// `next[(state * 2 + way) * lines + class]`: the state after the blank steps one line
    /// back (`way` 0) or forward (1) and a tile of `class` steps from there into its line.
    next: Vec<u32>,
    /// The fewest jumps to the goal.
    distance: Vec<u8>,
    /// State number of each packed state.
    index: FxHashMap<u128, u32>,
}

/// An abstract state: `counts[line * lines + class]` and the blank's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Counts {
    counts: [u8; 25],
    blank: usize,
}

impl Counts {
    fn pack(&self, lines: usize) -> u128 {
        let mut key = self.blank as u128;
        for &c in &self.counts[..lines * lines] {
            key = key << 3 | u128::from(c);
        }
        key
    }
}

impl WalkTable {
    /// The table of an axis with `lines` lines of `width` cells each (the vertical part of an
    /// R x C board: `lines = R`, `width = C`); the goal has every tile in its own line and the
    /// blank in line `blank` (the last one for the standard goal). `None` when there would be
    /// more than `limit` states.
    pub fn build(lines: usize, width: usize, blank: usize, limit: usize) -> Option<WalkTable> {
        let mut goal = Counts {
            counts: [0; 25],
            blank,
        };
        for line in 0..lines {
            goal.counts[line * lines + line] = (width - usize::from(line == blank)) as u8;
        }
        // Every state reachable by single steps, numbered in the order found.
        let mut states = vec![goal];
        let mut index = FxHashMap::default();
        index.insert(goal.pack(lines), 0u32);
        let mut next = Vec::new();
        let mut s = 0;
        while s < states.len() {
            let state = states[s];
            for way in 0..2 {
                for class in 0..lines {
                    let to = match way {
                        0 => state.blank.checked_sub(1),
                        _ => Some(state.blank + 1).filter(|&l| l < lines),
                    };
                    let successor =
                        to.filter(|&to| state.counts[to * lines + class] > 0)
                            .map(|to| {
                                let mut after = state;
                                after.counts[to * lines + class] -= 1;
                                after.counts[state.blank * lines + class] += 1;
                                after.blank = to;
                                after
                            });
                    let number = match successor {
                        None => NONE,
                        Some(after) => {
                            let key = after.pack(lines);
                            match index.get(&key) {
                                Some(&n) => n,
                                None => {
                                    if states.len() >= limit {
                                        return None;
                                    }
                                    let n = states.len() as u32;
                                    index.insert(key, n);
                                    states.push(after);
                                    n
                                }
                            }
                        }
                    };
                    next.push(number);
                }
            }
            s += 1;
        }
        let mut table = WalkTable {
            lines,
            next,
            distance: Vec::new(),
            index,
        };
        table.distance = table.distances(states.len());
        Some(table)
    }

    /// Breadth-first from the goal (state 0) over jumps: runs of 1 to `lines - 1` steps one way.
    fn distances(&self, count: usize) -> Vec<u8> {
        let mut distance = vec![u8::MAX; count];
        distance[0] = 0;
        let mut level = vec![0u32];
        let mut d = 0u8;
        while !level.is_empty() {
            d += 1;
            let mut found = Vec::new();
            for &s in &level {
                for way in 0..2 {
                    let mut reached = vec![s];
                    for _ in 1..self.lines {
                        let mut further: Vec<u32> = reached
                            .iter()
                            .flat_map(|&r| (0..self.lines).map(move |c| (r, c)))
                            .map(|(r, c)| self.step(r, way, c))
                            .filter(|&n| n != NONE)
                            .collect();
                        further.sort_unstable();
                        further.dedup();
                        for &n in &further {
                            if distance[n as usize] == u8::MAX {
                                distance[n as usize] = d;
                                found.push(n);
                            }
                        }
                        reached = further;
                    }
                }
            }
            level = found;
        }
        distance
    }

    /// The state after one step: the blank one line back (`way` 0) or forward (1), a tile of
    /// `class` the other way; [`NONE`] when impossible.
    pub fn step(&self, state: u32, way: usize, class: usize) -> u32 {
        self.next[(state as usize * 2 + way) * self.lines + class]
    }

    /// The fewest MTM moves along this axis from `state` to the goal.
    pub fn distance(&self, state: u32) -> u32 {
        u32::from(self.distance[state as usize])
    }

    /// Number of abstract states.
    pub fn len(&self) -> usize {
        self.distance.len()
    }

    pub fn is_empty(&self) -> bool {
        self.distance.is_empty()
    }

    /// The largest distance of any state.
    pub fn max_distance(&self) -> u32 {
        self.distance.iter().copied().max().map_or(0, u32::from)
    }

    /// The state of a board seen along this axis: `line_of[cell]` is the cell's line,
    /// `class_of[cell]` the line of the home of the tile on it (`None` for the blank).
    pub fn state_of(
        &self,
        lines_and_classes: impl Iterator<Item = (usize, Option<usize>)>,
    ) -> Option<u32> {
        let lines = self.lines;
        let mut counts = Counts {
            counts: [0; 25],
            blank: 0,
        };
        for (line, class) in lines_and_classes {
            match class {
                Some(class) => counts.counts[line * lines + class] += 1,
                None => counts.blank = line,
            }
        }
        self.index.get(&counts.pack(lines)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_4x4_vertical_part_has_24964_states() {
        // Takahashi's count for the 15-puzzle's walking distance.
        let table = WalkTable::build(4, 4, 3, 1 << 20).expect("small");
        assert_eq!(table.len(), 24964);
        assert_eq!(table.distance(0), 0);
        assert_eq!(
            (0..table.len() as u32)
                .filter(|&s| table.distance(s) == 0)
                .count(),
            1
        );
    }

    #[test]
    fn one_jump_reaches_three_lines_away() {
        let table = WalkTable::build(4, 4, 3, 1 << 20).expect("small");
        // From the goal, the blank jumps to the top row: one tile of each row below moves down.
        let mut s = 0;
        for class in [2, 1, 0] {
            s = table.step(s, 0, class);
            assert_ne!(s, NONE);
        }
        assert_eq!(table.distance(s), 1);
        assert_eq!(table.step(s, 0, 0), NONE, "the blank is in the first line");
    }

    #[test]
    fn a_limit_stops_the_build() {
        assert!(WalkTable::build(4, 4, 3, 1000).is_none());
    }
}
