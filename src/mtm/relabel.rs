//! A non-additive table over a relabelled 4x4 board (Rokicki's relabelling, as in slidy): the
//! tiles fall into four classes, tiles of a class are indistinguishable, and the table holds
//! the exact MTM distance of every arrangement of the classes and the blank to the goal's:
//!
//! ```text
//! 1 1 2 2
//! 3 3 2 2
//! 3 3 4 4
//! 3 4 4 .
//! ```
//!
//! Any MTM path of the puzzle is one of the relabelled board, so the table's distance is a
//! lower bound; a position and its transposition (the board reflected about the main
//! diagonal, tiles renamed to match) have the same MTM distance, so the bound is the larger of
//! the two lookups. There are C(16,2) * C(14,4) * C(10,4) * C(6,5) = 151,351,200 arrangements,
//! one byte each. The table is built breadth-first from the goal, a level at a time by
//! scanning for the states of the level before.
//!
//! *Ranks.* The board's halves, rows 0-1 (cells 0-7) and rows 2-3 (cells 8-15), each read as
//! eight base-5 digits (the classes, 0 for the blank; the half's first cell least
//! significant), are its two *codes*. The arrangements are numbered by the classes' counts in
//! the top half, then by the top half's arrangement, then by the bottom's, each half's
//! arrangements of given counts numbered in the order of their codes; so the rank is
//! `high[top code] + low[bottom code]`, two reads of small tables ([`Index`]). A search keeps
//! the codes of the position and of its transposition packed in two words ([`Codes`]) and
//! changes them by a constant times the tile's class for each tile a jump slides: no lookup
//! looks at the 16 tiles. A move within the bottom half lands within a few kilobytes of its
//! parent's entry.
//!
//! Invariant: `distance[rank]` is the fewest MTM moves from the arrangement of rank `rank` to
//! the goal's, and [`Codes::slide`] of a node's codes are the codes of the child's tiles.

use crate::position::Position;

/// The class of each tile (index = tile, Knuth's numbering; 0 is the blank's class 0).
pub const CLASSES: [u8; 16] = [0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 3, 4, 4];
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
const CLASS_OF: [[u64; 32]; 2] = {
    let mut classes = [[0u64; 32]; 2];
    let mut tile = 1;
    while tile < 16 {
        classes[0][tile] = CLASSES[tile] as u64;
        classes[1][tile] = CLASSES[transposed_cell(tile - 1) + 1] as u64;
        tile += 1;
    }
    classes
};

/// A packed code after a piece of class `class` slides from cell `from` to cell `to`.
#[inline(always)]
fn slide(code: u64, class: u64, from: usize, to: usize) -> u64 {
    code.wrapping_add(class.wrapping_mul(WEIGHTS[to].wrapping_sub(WEIGHTS[from])))
}

/// The packed codes of a board's relabelling and of its transposition's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Codes {
    pub board: u64,
    pub transposed: u64,
}

impl Codes {
    /// The codes of a 4x4 board's tiles (0 on the blank's cell).
    pub fn of(tiles: &[u8]) -> Codes {
        let mut codes = Codes::default();
        for (cell, &tile) in tiles.iter().enumerate().take(16) {
            let tile = usize::from(tile & 31);
            codes.board += CLASS_OF[0][tile] * WEIGHTS[cell];
            codes.transposed += CLASS_OF[1][tile] * WEIGHTS[transposed_cell(cell)];
        }
        codes
    }

    /// The codes after `tile` slides from cell `from` to the blank's cell `to`; with constant
    /// cells, two multiplications by constants.
    #[inline(always)]
    pub fn slide(self, tile: u8, from: usize, to: usize) -> Codes {
        let tile = usize::from(tile & 31);
        let (t_from, t_to) = (transposed_cell(from), transposed_cell(to));
        Codes {
            board: slide(self.board, CLASS_OF[0][tile], from, to),
            transposed: slide(self.transposed, CLASS_OF[1][tile], t_from, t_to),
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

/// The small tables of the ranks ([`RelabelTable`]'s module doc).
#[derive(Clone, Debug)]
pub struct Index {
    high: Box<[u32]>,
    low: Box<[u16]>,
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
        let mut low = vec![0u16; 1 << 19];
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
        let mut high = vec![0u32; 1 << 19];
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
        Index {
            high: high.into_boxed_slice(),
            low: low.into_boxed_slice(),
            halves,
        }
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

/// The table of MTM distances of every arrangement.
pub struct RelabelTable {
    index: Index,
    distance: Vec<u8>,
}

impl std::fmt::Debug for RelabelTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RelabelTable({} entries)", self.distance.len())
    }
}

impl RelabelTable {
    /// Builds the table (about 151 MB) breadth-first from the goal, reporting each level's
    /// size to `level`.
    pub fn build(level: &mut dyn FnMut(u8, u64)) -> RelabelTable {
        let index = Index::new();
        let mut distance = vec![UNSEEN; STATES];
        let goal: [u8; 16] = std::array::from_fn(|cell| ((cell + 1) % 16) as u8);
        distance[index.rank(Codes::of(&goal).board)] = 0;
        let paths = jump_paths();
        let mut d = 0u8;
        loop {
            let mut found = 0u64;
            index.each(|code| {
                if distance[index.rank(code)] != d {
                    return;
                }
                let classes = classes_of(code);
                let blank = classes.iter().position(|&c| c == 0).unwrap_or(0);
                for path in &paths[blank] {
                    let (mut after, mut here) = (code, blank);
                    for &cell in path {
                        after = slide(after, u64::from(classes[cell]), cell, here);
                        here = cell;
                    }
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
        RelabelTable { index, distance }
    }

    /// A table from its bytes (one distance per rank); `None` when there are not
    /// [`STATES`] of them.
    pub fn from_bytes(distance: Vec<u8>) -> Option<RelabelTable> {
        (distance.len() == STATES).then(|| RelabelTable {
            index: Index::new(),
            distance,
        })
    }

    /// The distances, one byte per rank.
    pub fn bytes(&self) -> &[u8] {
        &self.distance
    }

    /// The larger of the distances of the arrangements of a node's codes.
    #[inline]
    pub fn estimate_codes(&self, codes: Codes) -> u32 {
        let a = self.distance[self.index.rank(codes.board)];
        let b = self.distance[self.index.rank(codes.transposed)];
        u32::from(a.max(b))
    }

    /// The larger of `known` and [`RelabelTable::estimate_codes`], except that the lookup on
    /// the transposition is not made when the first already gives a value above `budget` and
    /// at least `settled` (see [`super::bound::LowerBound::child`]).
    #[inline]
    pub fn at_least(&self, known: u32, codes: Codes, budget: u32, settled: u32) -> u32 {
        let a = known.max(u32::from(self.distance[self.index.rank(codes.board)]));
        if a > budget && a >= settled {
            return a;
        }
        a.max(u32::from(self.distance[self.index.rank(codes.transposed)]))
    }

    /// Asks for the cache lines of both entries of a node's codes.
    #[inline(always)]
    pub fn prefetch(&self, codes: Codes) {
        for code in [codes.board, codes.transposed] {
            if let Some(entry) = self.distance.get(self.index.rank(code)) {
                #[cfg(target_arch = "x86_64")]
                safe_arch::prefetch_t0(entry);
            }
        }
    }

    pub fn estimate(&self, position: &Position) -> u32 {
        self.estimate_codes(Codes::of(position.tiles()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Direction};

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
            let classes = classes_of(codes.board);
            for (cell, &tile) in tiles.iter().enumerate() {
                assert_eq!(classes[cell], CLASSES[usize::from(tile)]);
            }
        }
    }
}
