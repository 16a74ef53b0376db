//! Non-additive tables over the 4x4 board relabelled two ways: the tiles fall into four
//! classes, tiles of a class are indistinguishable, and a table holds the exact MTM distance
//! of every arrangement of the classes and the blank to the goal's. The first relabelling is
//! Rokicki's (slidy's), by blocks; the second is by rows, with classes of the same sizes:
//!
//! ```text
//! 1 1 2 2      2 2 2 2
//! 3 3 2 2      4 4 4 4
//! 3 3 4 4      3 3 3 3
//! 3 4 4 .      1 1 3 .
//! ```
//!
//! Any MTM path of the puzzle is one of a relabelled board, so a table's distance is a lower
//! bound; a position and its transposition (the board reflected about the main diagonal,
//! tiles renamed to match) have the same MTM distance, so the bound is the largest of four
//! lookups, the position's four *views* (each relabelling, of the board and of its
//! transposition). Blocks and rows tell different tiles apart: on Korf's 100 the second table
//! takes 84% of the nodes away (380 M to 61 M), where walking distance beside the first took
//! 23%. There are C(16,2) * C(14,4) * C(10,4) * C(6,5) = 151,351,200 arrangements in each.
//! A table is built breadth-first from the goal, a level at a time by scanning for the states
//! of the level before.
//!
//! *Residues.* An MTM move and its inverse are one move each, so neighbouring arrangements'
//! distances differ by at most one, and a child's distance follows from its parent's and its
//! own distance mod 3. The tables keep only that: 2 bits an entry, 38 MB each, where a byte an
//! entry took 151 MB. A search carries each node's four exact distances ([`Codes::distances`])
//! and finds a child's from them; a node met without a parent (a root) gets its distances by
//! descending: from any arrangement but the goal's, a neighbour whose residue is one less is
//! one move nearer.
//!
//! *Ranks.* The board's halves, rows 0-1 (cells 0-7) and rows 2-3 (cells 8-15), each read as
//! eight base-5 digits (the classes, 0 for the blank; the half's first cell least
//! significant), are its two *codes*. The arrangements are numbered by the classes' counts in
//! the top half, then by the top half's arrangement, then by the bottom's, each half's
//! arrangements of given counts numbered in the order of their codes; so the rank is
//! `high[top code] + low[bottom code]`, two reads of small tables ([`Index`], one for both
//! relabellings). A search keeps the codes of the four views packed in a word each
//! ([`Codes`]) and changes them by a constant times the tile's class for each tile a jump
//! slides: no lookup looks at the 16 tiles. A move within the bottom half lands within a few
//! kilobytes of its parent's entry.
//!
//! Invariant: entry `rank` of a relabelling's table holds the fewest MTM moves from its
//! arrangement of rank `rank` to the goal's, mod 3; [`Codes::slide`] of a node's codes are
//! the codes of the child's tiles; and the distances of a node's codes are exact wherever a
//! search reads them (a child's are its parent's until [`RelabelTable::at_least`] looks the
//! child up).

/// The two relabellings: the class of each tile (index = tile, Knuth's numbering; 0 is the
/// blank's class 0), Rokicki's blocks and rows, whose classes have the same sizes, so that one
/// [`Index`] ranks both.
pub const RELABELLINGS: [[u8; 16]; 2] = [
    [0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 3, 4, 4],
    [0, 2, 2, 2, 2, 4, 4, 4, 4, 3, 3, 3, 3, 1, 1, 3],
];
/// A position's *views*: each relabelling of the board, then of its transposition (view `v`
/// is relabelling `v / 2`, transposed when `v` is odd).
pub const VIEWS: usize = 4;
/// The order in which a child's views are looked up until one settles it.
const LOOKUPS: [usize; VIEWS] = [0, 2, 1, 3];
/// Tiles of the blank's class 0 and of classes 1 to 4.
const SIZES: [u8; 5] = [1, 2, 4, 5, 4];
/// Arrangements in all.
pub const STATES: usize = 151_351_200;
/// Codes of a half: 5^8.
const HALF: usize = 390_625;
/// A code masked with this indexes the half tables (2^19 entries) without a bounds check.
const CODE_MASK: u64 = (1 << 19) - 1;
const UNSEEN: u8 = u8::MAX;

/// The weight of a cell's class in the packed codes: the top half's code in the high 32 bits,
/// the bottom's in the low.
const WEIGHTS: [u64; 16] = {
    let mut weights = [0u64; 16];
    let mut cell = 0;
    while cell < 16 {
        let mut weight = 1u64;
        let mut i = 0;
        while i < cell % 8 {
            weight *= 5;
            i += 1;
        }
        weights[cell] = if cell < 8 { weight << 32 } else { weight };
        cell += 1;
    }
    weights
};

/// The cell a cell becomes on the transposition.
const fn transposed_cell(cell: usize) -> usize {
    (cell % 4) * 4 + cell / 4
}

/// The class of each tile, and of the tile it becomes on the transposition (the tile whose
/// home is its home's transposition); 32 entries so that a masked tile needs no bounds check.
const CLASS_OF: [[u64; 32]; VIEWS] = {
    let mut classes = [[0u64; 32]; VIEWS];
    let mut view = 0;
    while view < VIEWS {
        let relabelling = &RELABELLINGS[view / 2];
        let mut tile = 1;
        while tile < 16 {
            classes[view][tile] = match view % 2 {
                0 => relabelling[tile] as u64,
                _ => relabelling[transposed_cell(tile - 1) + 1] as u64,
            };
            tile += 1;
        }
        view += 1;
    }
    classes
};

/// The cell a cell is in view `view`.
#[inline(always)]
const fn view_cell(view: usize, cell: usize) -> usize {
    match view % 2 {
        0 => cell,
        _ => transposed_cell(cell),
    }
}

/// A packed code after a piece of class `class` slides from cell `from` to cell `to`.
#[inline(always)]
fn slide(code: u64, class: u64, from: usize, to: usize) -> u64 {
    code.wrapping_add(class.wrapping_mul(WEIGHTS[to].wrapping_sub(WEIGHTS[from])))
}

/// The packed codes of a board's views, and their exact distances once looked up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Codes {
    /// The packed code of each view.
    pub views: [u64; VIEWS],
    /// The tables' distances of the views (a child's: its parent's until it is looked up; a
    /// view is looked up only where the views before it in [`LOOKUPS`] did not settle the
    /// child).
    pub distances: [u8; VIEWS],
}

impl Codes {
    /// The codes of a 4x4 board's tiles (0 on the blank's cell).
    pub fn of(tiles: &[u8]) -> Codes {
        let mut codes = Codes::default();
        for (cell, &tile) in tiles.iter().enumerate().take(16) {
            let tile = usize::from(tile & 31);
            for (view, code) in codes.views.iter_mut().enumerate() {
                *code += CLASS_OF[view][tile] * WEIGHTS[view_cell(view, cell)];
            }
        }
        codes
    }

    /// The codes after `tile` slides from cell `from` to the blank's cell `to`; with constant
    /// cells, a multiplication by a constant a view.
    #[inline(always)]
    pub fn slide(self, tile: u8, from: usize, to: usize) -> Codes {
        let tile = usize::from(tile & 31);
        Codes {
            views: std::array::from_fn(|view| {
                let (from, to) = (view_cell(view, from), view_cell(view, to));
                slide(self.views[view], CLASS_OF[view][tile], from, to)
            }),
            distances: self.distances,
        }
    }
}

/// The classes of the cells of a half from its code.
fn digits(mut code: usize) -> [u8; 8] {
    std::array::from_fn(|_| {
        let digit = (code % 5) as u8;
        code /= 5;
        digit
    })
}

/// The classes' counts in a half's digits, as one number (base 9), if no class has more cells
/// than it has tiles.
fn counts(digits: &[u8; 8]) -> Option<usize> {
    let mut counts = [0u8; 5];
    for &d in digits {
        counts[usize::from(d)] += 1;
    }
    let fits = counts.iter().zip(&SIZES).all(|(c, s)| c <= s);
    fits.then(|| counts.iter().rev().fold(0, |n, &c| n * 9 + usize::from(c)))
}

/// The counts of the other half, given one half's (both base 9).
fn complement(counts: usize) -> usize {
    SIZES.iter().rev().fold(0, |n, &s| n * 9 + usize::from(s)) - counts
}

/// `N` zeros, in an array whose length the code that indexes it knows (a masked index needs
/// no bounds check).
fn boxed<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    match vec![T::default(); N].into_boxed_slice().try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("a vector of N entries is an array of N"),
    }
}

/// The small tables of the ranks ([`RelabelTable`]'s module doc).
#[derive(Clone, Debug)]
pub struct Index {
    high: Box<[u32; 1 << 19]>,
    low: Box<[u16; 1 << 19]>,
    /// The codes of the halves that can occur, by their counts (base 9).
    halves: Vec<(usize, Vec<u32>)>,
}

impl Default for Index {
    fn default() -> Self {
        Index::new()
    }
}

impl Index {
    pub fn new() -> Index {
        let mut halves: Vec<(usize, Vec<u32>)> = Vec::new();
        let mut group = vec![usize::MAX; 9usize.pow(5)];
        let mut low: Box<[u16; 1 << 19]> = boxed();
        for (code, low) in low.iter_mut().enumerate().take(HALF) {
            let Some(counts) = counts(&digits(code)) else {
                continue;
            };
            if group[counts] == usize::MAX {
                group[counts] = halves.len();
                halves.push((counts, Vec::new()));
            }
            let codes = &mut halves[group[counts]].1;
            *low = codes.len() as u16;
            codes.push(code as u32);
        }
        let mut high: Box<[u32; 1 << 19]> = boxed();
        let mut offset = 0usize;
        for (counts, codes) in &halves {
            // The bottom halves that complete this top half.
            let below = match group[complement(*counts)] {
                usize::MAX => 0,
                g => halves[g].1.len(),
            };
            for (i, &code) in codes.iter().enumerate() {
                high[code as usize] = (offset + i * below) as u32;
            }
            offset += codes.len() * below;
        }
        debug_assert_eq!(offset, STATES);
        Index { high, low, halves }
    }

    /// The rank of the arrangement whose halves' codes are packed in `code`.
    #[inline(always)]
    pub fn rank(&self, code: u64) -> usize {
        let high = self.high[((code >> 32) & CODE_MASK) as usize];
        let low = self.low[(code & CODE_MASK) as usize];
        high as usize + usize::from(low)
    }

    /// Every arrangement once, as its packed code, top half by top half.
    fn each(&self, mut visit: impl FnMut(u64)) {
        let group: std::collections::HashMap<usize, &Vec<u32>> =
            self.halves.iter().map(|(c, codes)| (*c, codes)).collect();
        for (counts, tops) in &self.halves {
            let Some(bottoms) = group.get(&complement(*counts)) else {
                continue;
            };
            for &top in tops {
                for &bottom in bottoms.iter() {
                    visit(u64::from(top) << 32 | u64::from(bottom));
                }
            }
        }
    }
}

/// The class of every cell of the arrangement whose packed code is `code`.
fn classes_of(code: u64) -> [u8; 16] {
    let (top, bottom) = (
        digits((code >> 32) as usize),
        digits((code & 0xffff_ffff) as usize),
    );
    std::array::from_fn(|cell| {
        if cell < 8 {
            top[cell]
        } else {
            bottom[cell - 8]
        }
    })
}

/// The 4x4 jumps from every cell: the cells the blank passes, in order.
fn jump_paths() -> Vec<Vec<Vec<usize>>> {
    let jumps = super::moves::Jumps::new(crate::board::Board::fifteen());
    (0..16)
        .map(|cell| {
            jumps
                .from(cell)
                .iter()
                .map(|j| j.passed().iter().map(|&c| usize::from(c)).collect())
                .collect()
        })
        .collect()
}

/// The exact distance of a child from its parent's (`parent`, at most 63 here) and its own
/// residue: `NEXT[parent][residue]`, the one of `parent - 1`, `parent`, `parent + 1` with that
/// residue.
const NEXT: [[u8; 4]; 64] = {
    let mut next = [[0u8; 4]; 64];
    let mut d = 0;
    while d < 64 {
        let mut r = 0;
        while r < 4 {
            let up = d + 1;
            next[d][r] = if d % 3 == r {
                d as u8
            } else if up % 3 == r {
                up as u8
            } else {
                d.saturating_sub(1) as u8
            };
            r += 1;
        }
        d += 1;
    }
    next
};

/// The tables of MTM distances, mod 3, of every arrangement of each relabelling.
pub struct RelabelTable {
    index: Index,
    /// Relabelling `k`'s entries from byte `k * PART` on, four a byte: entry `rank` in bits
    /// `2 * (rank % 4)` and up of byte `rank / 4`.
    residues: Vec<u8>,
    /// The packed code of each relabelling's goal arrangement (its transposition's too).
    goals: [u64; 2],
    /// The cells the blank passes in each jump from each cell.
    paths: Vec<Vec<Vec<usize>>>,
}

impl std::fmt::Debug for RelabelTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RelabelTable({} entries)", self.residues.len() * 4)
    }
}

/// Bytes of one relabelling's table.
pub const PART: usize = STATES / 4;
/// Bytes of both.
pub const BYTES: usize = 2 * PART;

/// The codes of the goal's tiles.
fn goal_codes() -> Codes {
    let goal: [u8; 16] = std::array::from_fn(|cell| ((cell + 1) % 16) as u8);
    Codes::of(&goal)
}

/// The packed codes of the arrangements one jump from `code`.
fn neighbours<'a>(code: u64, paths: &'a [Vec<Vec<usize>>]) -> impl Iterator<Item = u64> + 'a {
    let classes = classes_of(code);
    let blank = classes.iter().position(|&c| c == 0).unwrap_or(0);
    paths[blank].iter().map(move |path| {
        let (mut after, mut here) = (code, blank);
        for &cell in path {
            after = slide(after, u64::from(classes[cell]), cell, here);
            here = cell;
        }
        after
    })
}

/// One relabelling's distances, mod 3, four a byte, found breadth-first from its goal
/// arrangement `goal`, reporting each level's size to `level`.
fn residues(
    index: &Index,
    goal: u64,
    paths: &[Vec<Vec<usize>>],
    level: &mut dyn FnMut(u8, u64),
) -> Vec<u8> {
    let mut distance = vec![UNSEEN; STATES];
    distance[index.rank(goal)] = 0;
    let mut d = 0u8;
    loop {
        let mut found = 0u64;
        index.each(|code| {
            if distance[index.rank(code)] != d {
                return;
            }
            for after in neighbours(code, paths) {
                let j = index.rank(after);
                if distance[j] == UNSEEN {
                    distance[j] = d + 1;
                    found += 1;
                }
            }
        });
        if found == 0 {
            break;
        }
        d += 1;
        level(d, found);
    }
    distance
        .chunks_exact(4)
        .map(|four| {
            four.iter()
                .enumerate()
                .fold(0u8, |byte, (i, &d)| byte | (d % 3) << (2 * i))
        })
        .collect()
}

impl RelabelTable {
    /// Builds both relabellings' tables breadth-first from the goal (a byte an entry while
    /// each is built), reporting each level's size to `level` (relabelling, distance, count).
    pub fn build(level: &mut dyn FnMut(usize, u8, u64)) -> RelabelTable {
        let index = Index::new();
        let paths = jump_paths();
        let goal = goal_codes().views;
        let goals = [goal[0], goal[2]];
        let mut bytes = Vec::with_capacity(BYTES);
        for (k, &goal) in goals.iter().enumerate() {
            bytes.extend(residues(&index, goal, &paths, &mut |d, found| {
                level(k, d, found)
            }));
        }
        RelabelTable {
            index,
            residues: bytes,
            goals,
            paths,
        }
    }

    /// A table from its bytes ([`RelabelTable::bytes`]); `None` when there are not
    /// [`BYTES`] of them.
    pub fn from_bytes(residues: Vec<u8>) -> Option<RelabelTable> {
        let goal = goal_codes().views;
        (residues.len() == BYTES).then(|| RelabelTable {
            index: Index::new(),
            residues,
            goals: [goal[0], goal[2]],
            paths: jump_paths(),
        })
    }

    /// The residues, four entries a byte, the first relabelling's then the second's.
    pub fn bytes(&self) -> &[u8] {
        &self.residues
    }

    /// The byte of view `view`'s table holding the entry of a packed code, and the entry's
    /// place in it.
    #[inline(always)]
    fn place(&self, view: usize, code: u64) -> (usize, usize) {
        let rank = self.index.rank(code);
        ((view / 2) * PART + rank / 4, 2 * (rank % 4))
    }

    /// The residue of the arrangement of a packed code in view `view`'s relabelling.
    #[inline(always)]
    fn residue(&self, view: usize, code: u64) -> usize {
        let (byte, shift) = self.place(view, code);
        let byte = self.residues.get(byte).copied().unwrap_or(0);
        usize::from(byte >> shift & 3)
    }

    /// The exact distance of the arrangement of a packed code in view `view`'s relabelling,
    /// by descending to the goal (a neighbour whose residue is one less is one move nearer).
    pub fn distance(&self, view: usize, code: u64) -> u8 {
        let mut code = code;
        let mut d = 0u8;
        // No arrangement is further than 64 moves; the bound ends the walk on any table.
        while code != self.goals[view / 2] && d < 64 {
            let nearer = (self.residue(view, code) + 2) % 3;
            match neighbours(code, &self.paths).find(|&n| self.residue(view, n) == nearer) {
                Some(next) => code = next,
                None => break,
            }
            d += 1;
        }
        d
    }

    /// The codes of a 4x4 board's tiles with their exact distances.
    pub fn looked_up(&self, tiles: &[u8]) -> Codes {
        let codes = Codes::of(tiles);
        Codes {
            distances: std::array::from_fn(|view| self.distance(view, codes.views[view])),
            ..codes
        }
    }

    /// The distance of an arrangement of view `view` whose neighbour's is `parent`.
    #[inline(always)]
    fn after(&self, view: usize, parent: u8, code: u64) -> u8 {
        NEXT[usize::from(parent & 63)][self.residue(view, code)]
    }

    /// The largest of the distances of a child's views (their parent's distances in `codes`,
    /// replaced by the child's), except that the lookups stop, in the order of [`LOOKUPS`],
    /// once one gives a value above `budget` and at least `settled` (see
    /// [`super::bound::LowerBound::child`]).
    #[inline]
    pub fn at_least(&self, codes: &mut Codes, budget: u32, settled: u32) -> u32 {
        let mut a = 0;
        for view in LOOKUPS {
            codes.distances[view] = self.after(view, codes.distances[view], codes.views[view]);
            a = a.max(u32::from(codes.distances[view]));
            if a > budget && a >= settled {
                return a;
            }
        }
        a
    }

    /// Asks for the cache lines of the entries of a node's views.
    #[inline(always)]
    pub fn prefetch(&self, codes: Codes) {
        for (view, &code) in codes.views.iter().enumerate() {
            if let Some(entry) = self.residues.get(self.place(view, code).0) {
                #[cfg(target_arch = "x86_64")]
                safe_arch::prefetch_t0(entry);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Direction};
    use crate::position::Position;

    #[test]
    fn the_ranks_number_every_arrangement_once() {
        let index = Index::new();
        let mut seen = vec![0u64; STATES.div_ceil(64)];
        let mut count = 0usize;
        index.each(|code| {
            let rank = index.rank(code);
            assert!(rank < STATES, "{code:x} ranks {rank}");
            assert_eq!(
                seen[rank / 64] >> (rank % 64) & 1,
                0,
                "{code:x}: {rank} twice"
            );
            seen[rank / 64] |= 1 << (rank % 64);
            count += 1;
        });
        assert_eq!(count, STATES);
    }

    #[test]
    fn a_childs_distance_follows_from_its_parents_and_its_residue() {
        for (parent, next) in NEXT.iter().enumerate().take(63) {
            for child in parent.saturating_sub(1)..=parent + 1 {
                assert_eq!(usize::from(next[child % 3]), child, "{parent} {child}");
            }
        }
        // The goal is its own transposition, in each relabelling.
        let goal = goal_codes().views;
        assert_eq!((goal[0], goal[2]), (goal[1], goal[3]));
        assert_ne!(goal[0], goal[2]);
    }

    #[test]
    fn codes_kept_by_slides_are_the_boards_codes() {
        let board = Board::fifteen();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20 {
            let mut tiles: Vec<u8> = Position::goal(board).tiles().to_vec();
            let mut codes = Codes::of(&tiles);
            let mut blank = 15;
            for _ in 0..200 {
                // A random neighbour of the blank (xorshift).
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let direction = Direction::ALL[(state % 4) as usize];
                let Some(cell) = board.neighbour(blank, direction) else {
                    continue;
                };
                let tile = tiles[cell];
                codes = codes.slide(tile, cell, blank);
                tiles.swap(cell, blank);
                blank = cell;
                assert_eq!(codes, Codes::of(&tiles));
            }
            for (view, &code) in codes.views.iter().enumerate() {
                let classes = classes_of(code);
                for (cell, &tile) in tiles.iter().enumerate() {
                    // The tile on a cell, seen in a transposed view, is the one whose home is
                    // its home's transposition, on the transposed cell.
                    let (cell, tile) = match (view % 2, usize::from(tile)) {
                        (0, tile) => (cell, tile),
                        (_, 0) => (transposed_cell(cell), 0),
                        (_, tile) => (transposed_cell(cell), transposed_cell(tile - 1) + 1),
                    };
                    assert_eq!(classes[cell], RELABELLINGS[view / 2][tile], "view {view}");
                }
            }
        }
    }
}
