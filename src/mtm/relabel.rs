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
//! one byte each, ranked as the cells of classes 1, 2, 4 and 3 in turn, each among the cells
//! left (colex ranks of subsets); the blank takes the last cell. The table is built
//! breadth-first from the goal, a level at a time by scanning for the states of the level
//! before.
//!
//! Invariant: `distance[rank(a)]` is the fewest MTM moves from arrangement `a` to the goal's.

use crate::board::Board;
use crate::position::Position;

/// The class of each tile (index = tile, Knuth's numbering; 0 is the blank's class 0).
pub const CLASSES: [u8; 16] = [0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 3, 4, 4];
/// Tiles of the blank's class 0 and of classes 1 to 4.
const SIZES: [usize; 5] = [1, 2, 4, 5, 4];
/// The order in which the classes' cells are ranked, most significant first: the blank's cell
/// is what the other classes leave. A move changes the blank's digit and the moved tiles'
/// classes' (and those ranked after them), so the classes of most tiles come last and most
/// moves stay within a few kilobytes of the table (with the blank ranked first, every move
/// jumped megabytes and every lookup missed the caches).
const ORDER: [usize; 5] = [1, 2, 4, 3, 0];
/// Arrangements in all.
pub const STATES: usize = 151_351_200;
const UNSEEN: u8 = u8::MAX;

/// `choose[n][k]` for n, k <= 16.
fn binomials() -> [[u32; 17]; 17] {
    let mut c = [[0u32; 17]; 17];
    for n in 0..17 {
        c[n][0] = 1;
        for k in 1..=n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
        }
    }
    c
}

/// Ranks and unranks arrangements.
#[derive(Clone, Debug)]
pub struct Ranker {
    choose: [[u32; 17]; 17],
    /// The number of subsets of class k's size among the cells left before it.
    radix: [u32; 5],
}

impl Default for Ranker {
    fn default() -> Self {
        Ranker::new()
    }
}

impl Ranker {
    pub fn new() -> Ranker {
        let choose = binomials();
        let mut radix = [0u32; 5];
        let mut left = 16;
        for (k, &class) in ORDER.iter().enumerate() {
            radix[k] = choose[left][SIZES[class]];
            left -= SIZES[class];
        }
        Ranker { choose, radix }
    }

    /// The rank of an arrangement given as the cells of each class (bit masks; class 0 is
    /// the blank).
    #[inline]
    pub fn rank(&self, masks: &[u16; 5]) -> usize {
        let mut remaining: u32 = 0xffff;
        let mut rank = 0usize;
        for (k, &class) in ORDER.iter().enumerate().take(4) {
            let mask = masks[class];
            let mut cells = u32::from(mask);
            let mut sub = 0u32;
            let mut j = 1;
            while cells != 0 {
                let cell = cells.trailing_zeros();
                cells &= cells - 1;
                let index = (remaining & ((1u32 << cell) - 1)).count_ones() as usize;
                sub += self.choose[index][j];
                j += 1;
            }
            rank = rank * self.radix[k] as usize + sub as usize;
            remaining &= !u32::from(mask);
        }
        rank
    }

    /// The class of every cell of the arrangement of rank `rank`.
    pub fn unrank(&self, mut rank: usize) -> [u8; 16] {
        let mut subs = [0u32; 4];
        for k in (0..4).rev() {
            subs[k] = (rank % self.radix[k] as usize) as u32;
            rank /= self.radix[k] as usize;
        }
        let mut classes = [ORDER[4] as u8; 16];
        let mut free: Vec<usize> = (0..16).collect();
        for (&sub, &class) in subs.iter().zip(&ORDER) {
            // Colex unranking: the largest index first.
            let mut sub = sub;
            let mut chosen = Vec::with_capacity(SIZES[class]);
            for j in (1..=SIZES[class]).rev() {
                let mut index = j - 1;
                while self.choose[index + 1][j] <= sub {
                    index += 1;
                }
                sub -= self.choose[index][j];
                chosen.push(index);
            }
            for &index in &chosen {
                classes[free[index]] = class as u8;
            }
            chosen.sort_unstable();
            for &index in chosen.iter().rev() {
                free.remove(index);
            }
        }
        classes
    }
}

/// The masks of an arrangement given as the class of every cell.
pub fn masks_of(classes: &[u8; 16]) -> [u16; 5] {
    let mut masks = [0u16; 5];
    for (cell, &class) in classes.iter().enumerate() {
        masks[usize::from(class)] |= 1 << cell;
    }
    masks
}

/// The table of MTM distances of every arrangement.
pub struct RelabelTable {
    ranker: Ranker,
    distance: Vec<u8>,
    /// `transposed[tile]`: the tile whose home is the transposition of this tile's home.
    transposed: [u8; 16],
}

impl std::fmt::Debug for RelabelTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RelabelTable({} entries)", self.distance.len())
    }
}

/// `transposed[tile]`: the tile whose home is the transposition of this tile's home.
fn transposed_tiles() -> [u8; 16] {
    let board = Board::fifteen();
    std::array::from_fn(|tile| {
        if tile == 0 {
            return 0;
        }
        let home = board.home(tile as u8);
        (board.col(home) * 4 + board.row(home) + 1) as u8
    })
}

/// The 4x4 jumps from every cell: the cells the blank passes, in order.
fn jump_paths() -> Vec<Vec<Vec<usize>>> {
    let jumps = super::moves::Jumps::new(Board::fifteen());
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

impl RelabelTable {
    /// Builds the table (about 151 MB) breadth-first from the goal, reporting each level's
    /// size to `level`.
    pub fn build(level: &mut dyn FnMut(u8, u64)) -> RelabelTable {
        let ranker = Ranker::new();
        let mut distance = vec![UNSEEN; STATES];
        let goal: [u8; 16] = std::array::from_fn(|cell| CLASSES[(cell + 1) % 16]);
        distance[ranker.rank(&masks_of(&goal))] = 0;
        let paths = jump_paths();
        let mut d = 0u8;
        loop {
            let mut found = 0u64;
            for i in 0..STATES {
                if distance[i] != d {
                    continue;
                }
                let classes = ranker.unrank(i);
                let masks = masks_of(&classes);
                let blank = masks[0].trailing_zeros() as usize;
                for path in &paths[blank] {
                    let mut after = masks;
                    let mut here = blank;
                    for &cell in path {
                        let class = usize::from(classes[cell]);
                        after[class] ^= (1 << cell) | (1 << here);
                        here = cell;
                    }
                    after[0] = 1 << here;
                    let j = ranker.rank(&after);
                    if distance[j] == UNSEEN {
                        distance[j] = d + 1;
                        found += 1;
                    }
                }
            }
            if found == 0 {
                break;
            }
            d += 1;
            level(d, found);
        }
        RelabelTable {
            ranker,
            distance,
            transposed: transposed_tiles(),
        }
    }

    /// A table from its bytes (one distance per rank); `None` when there are not
    /// [`STATES`] of them.
    pub fn from_bytes(distance: Vec<u8>) -> Option<RelabelTable> {
        (distance.len() == STATES).then(|| RelabelTable {
            ranker: Ranker::new(),
            distance,
            transposed: transposed_tiles(),
        })
    }

    /// The distances, one byte per rank.
    pub fn bytes(&self) -> &[u8] {
        &self.distance
    }

    /// The larger of the distances of the position's arrangement and its transposition's.
    #[inline]
    pub fn estimate_tiles(&self, tiles: &[u8]) -> u32 {
        let (masks, masks_t) = self.masks(tiles);
        let a = self.distance[self.ranker.rank(&masks)];
        let b = self.distance[self.ranker.rank(&masks_t)];
        u32::from(a.max(b))
    }

    /// The classes' masks of the tiles' arrangement and of its transposition's.
    #[inline]
    fn masks(&self, tiles: &[u8]) -> ([u16; 5], [u16; 5]) {
        let mut masks = [0u16; 5];
        let mut masks_t = [0u16; 5];
        for (cell, &tile) in tiles.iter().enumerate().take(16) {
            masks[usize::from(CLASSES[usize::from(tile)])] |= 1 << cell;
            let t = usize::from(self.transposed[usize::from(tile)]);
            let cell_t = (cell % 4) * 4 + cell / 4;
            masks_t[usize::from(CLASSES[t])] |= 1 << cell_t;
        }
        (masks, masks_t)
    }

    /// The larger of `known` and [`RelabelTable::estimate_tiles`], except that the lookup on
    /// the transposition is not made when the first already gives a value above `budget` and
    /// at least `settled` (see [`super::bound::LowerBound::child`]). Never inlined: the
    /// automaton calls it from hundreds of states.
    #[inline(never)]
    pub fn at_least(&self, known: u32, tiles: &[u8], budget: u32, settled: u32) -> u32 {
        let (masks, masks_t) = self.masks(tiles);
        let a = known.max(u32::from(self.distance[self.ranker.rank(&masks)]));
        if a > budget && a >= settled {
            return a;
        }
        a.max(u32::from(self.distance[self.ranker.rank(&masks_t)]))
    }

    pub fn estimate(&self, position: &Position) -> u32 {
        self.estimate_tiles(position.tiles())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_on_samples() {
        let ranker = Ranker::new();
        assert_eq!(
            ranker.radix.iter().map(|&r| r as usize).product::<usize>(),
            STATES
        );
        for rank in (0..STATES).step_by(9973).chain([0, STATES - 1]) {
            let classes = ranker.unrank(rank);
            for (k, &size) in SIZES.iter().enumerate() {
                assert_eq!(
                    classes.iter().filter(|&&c| usize::from(c) == k).count(),
                    size
                );
            }
            assert_eq!(ranker.rank(&masks_of(&classes)), rank);
        }
    }
}
