//! A small, obviously correct oracle for the engine's tests: explicit sets of blocks and a
//! plain `HashMap` breadth-first search.
//!
//! A configuration is the sorted list of its blocks `(kind, row, column)` of anchors; a move
//! picks a set of blocks (a single block in styles 0–2, *every* nonempty subset in styles 3–5)
//! and shifts them rigidly by a displacement such that every cell they cover lies on the board,
//! is not dead and is not covered by a block outside the set — after each unit step, for the
//! multi-step styles. Nothing is clever here; it is exponential in the number of blocks for
//! styles 3–5 and meant for small puzzles only.

use super::pack::Geometry;
use super::spec::{Layout, Puzzle, Style};
use std::collections::{HashMap, HashSet, VecDeque};

/// A configuration: sorted blocks `(kind, row, column)`.
pub type Blocks = Vec<(u8, i32, i32)>;

/// The fixed data of a puzzle, as plain coordinates.
pub struct Reference {
    rows: i32,
    cols: i32,
    dead: HashSet<(i32, i32)>,
    shapes: Vec<Vec<(i32, i32)>>,
}

const UNIT: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

impl Reference {
    pub fn new(puzzle: &Puzzle) -> Reference {
        let cols = puzzle.cols;
        Reference {
            rows: puzzle.rows as i32,
            cols: cols as i32,
            dead: (0..puzzle.cells())
                .filter(|&c| puzzle.start.dead[c])
                .map(|c| ((c / cols) as i32, (c % cols) as i32))
                .collect(),
            shapes: (0..16u8).map(|k| puzzle.shape(k).to_vec()).collect(),
        }
    }

    /// The blocks of a parsed layout.
    pub fn blocks_of(&self, layout: &Layout) -> Blocks {
        let mut blocks: Blocks = layout
            .blocks
            .iter()
            .map(|b| {
                (
                    b.kind,
                    (b.anchor / self.cols as usize) as i32,
                    (b.anchor % self.cols as usize) as i32,
                )
            })
            .collect();
        blocks.sort_unstable();
        blocks
    }

    /// The blocks of a packed key of the engine (decoded with the engine's own unpacking).
    pub fn blocks_of_key(&self, geometry: &Geometry, key: &[u64]) -> Blocks {
        let mut state = geometry.empty_state();
        state.unpack(geometry, key);
        let mut blocks: Blocks = state
            .blocks
            .iter()
            .map(|b| {
                let (r, c) = geometry.row_col(b.anchor);
                (b.kind, r as i32, c as i32)
            })
            .collect();
        blocks.sort_unstable();
        blocks
    }

    fn cells(&self, block: (u8, i32, i32), shift: (i32, i32)) -> Vec<(i32, i32)> {
        self.shapes[usize::from(block.0)]
            .iter()
            .map(|&(dr, dc)| (block.1 + dr + shift.0, block.2 + dc + shift.1))
            .collect()
    }

    /// Whether the blocks `movers` shifted by `shift` avoid the edges, dead cells and `others`.
    fn legal(
        &self,
        movers: &[(u8, i32, i32)],
        shift: (i32, i32),
        others: &HashSet<(i32, i32)>,
    ) -> bool {
        movers.iter().all(|&b| {
            self.cells(b, shift).iter().all(|&(r, c)| {
                r >= 0
                    && c >= 0
                    && r < self.rows
                    && c < self.cols
                    && !self.dead.contains(&(r, c))
                    && !others.contains(&(r, c))
            })
        })
    }

    /// Every configuration one move of `style` away from `config`.
    pub fn successors(&self, config: &Blocks, style: Style) -> HashSet<Blocks> {
        self.moves(config, style)
            .into_iter()
            .map(|(movers, (dr, dc))| {
                let mut next: Blocks = config
                    .iter()
                    .map(|&(k, r, c)| {
                        if movers.contains(&(k, r, c)) {
                            (k, r + dr, c + dc)
                        } else {
                            (k, r, c)
                        }
                    })
                    .collect();
                next.sort_unstable();
                next
            })
            .collect()
    }

    /// Every move of `style` from `config`: the set of blocks that moves (a single block in
    /// styles 0–2, any nonempty subset in styles 3–5), sorted, and the shift `(rows, columns)`.
    /// A mover whose shifts are reached by unit steps (styles 2 and 5) lists each shift once.
    pub fn moves(&self, config: &Blocks, style: Style) -> Vec<(Blocks, (i32, i32))> {
        let n = config.len();
        let subsets: Vec<Vec<usize>> = if style.superpieces() {
            (1u64..(1 << n))
                .map(|mask| (0..n).filter(|&i| mask >> i & 1 == 1).collect())
                .collect()
        } else {
            (0..n).map(|i| vec![i]).collect()
        };
        let mut result = Vec::new();
        for subset in subsets {
            let movers: Blocks = subset.iter().map(|&i| config[i]).collect();
            let others: HashSet<(i32, i32)> = (0..n)
                .filter(|i| !subset.contains(i))
                .flat_map(|i| self.cells(config[i], (0, 0)))
                .collect();
            let mut shifts = Vec::new();
            match style.0 % 3 {
                0 => shifts.extend(
                    UNIT.iter()
                        .copied()
                        .filter(|&s| self.legal(&movers, s, &others)),
                ),
                1 => {
                    for (dr, dc) in UNIT {
                        let mut k = 1;
                        while self.legal(&movers, (k * dr, k * dc), &others) {
                            shifts.push((k * dr, k * dc));
                            k += 1;
                        }
                    }
                }
                _ => {
                    let mut seen = HashSet::from([(0, 0)]);
                    let mut queue = VecDeque::from([(0, 0)]);
                    while let Some((r, c)) = queue.pop_front() {
                        for (dr, dc) in UNIT {
                            let next = (r + dr, c + dc);
                            if !seen.contains(&next) && self.legal(&movers, next, &others) {
                                seen.insert(next);
                                queue.push_back(next);
                                shifts.push(next);
                            }
                        }
                    }
                }
            }
            result.extend(shifts.into_iter().map(|shift| (movers.clone(), shift)));
        }
        result
    }

    /// Plain breadth-first search: the level sizes from `start` (all of them, until nothing new
    /// appears) and the distance of `stop` if it is reachable.
    pub fn levels(&self, start: &Blocks, stop: &Blocks, style: Style) -> (Vec<u64>, Option<u32>) {
        let mut distance: HashMap<Blocks, u32> = HashMap::from([(start.clone(), 0)]);
        let mut frontier = vec![start.clone()];
        let mut levels = Vec::new();
        let mut d = 0;
        while !frontier.is_empty() {
            levels.push(frontier.len() as u64);
            let mut next = Vec::new();
            for config in &frontier {
                for succ in self.successors(config, style) {
                    if !distance.contains_key(&succ) {
                        distance.insert(succ.clone(), d + 1);
                        next.push(succ);
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        (levels, distance.get(stop).copied())
    }
}
