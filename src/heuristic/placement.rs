//! Where a group's tiles stand, as a number: the index of a table entry.
//!
//! A *placement* lists the cells of a group's `k` pieces in the group's slot order; its *rank*
//! is its position among all `n!/(n-k)!` placements in lexicographic order (the Lehmer code of
//! a partial permutation: slot `i` contributes the number of free cells below its own, times
//! the number of ways to place the slots after it). A table entry is a placement and the
//! blank's cell among the `n - k` cells the group leaves free:
//! `index = rank * (n - k) + (blank's rank among the free cells)`.
//!
//! Invariant: `rank` and `unrank` are inverse bijections between placements of `k` distinct
//! cells below `n` and `0..count`; cell sets are bit masks (`n <= 25`).

/// The ranking of placements of `k` pieces on `n` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placements {
    cells: usize,
    pieces: usize,
    /// `weight[i]`: the number of placements of the slots after `i` on the cells left.
    weight: Vec<u64>,
    count: u64,
}

impl Placements {
    pub fn new(cells: usize, pieces: usize) -> Placements {
        let weight = (0..pieces)
            .map(|i| {
                (0..pieces - 1 - i)
                    .map(|j| (cells - 1 - i - j) as u64)
                    .product()
            })
            .collect();
        let count = (0..pieces).map(|j| (cells - j) as u64).product();
        Placements {
            cells,
            pieces,
            weight,
            count,
        }
    }

    /// Number of placements.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Number of table entries: placements times the blank's possible cells.
    pub fn entries(&self) -> u64 {
        self.count * self.free() as u64
    }

    /// The weight of slot `slot`: the number of placements of the slots after it on the cells
    /// left (0 past the last slot).
    pub fn weight(&self, slot: usize) -> u64 {
        self.weight.get(slot).copied().unwrap_or(0)
    }

    /// Cells the group leaves free.
    pub fn free(&self) -> usize {
        self.cells - self.pieces
    }

    /// The rank of the placement `cells` (one cell per slot, all distinct).
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        let mut used = 0u32;
        let mut rank = 0u64;
        for (&cell, &weight) in cells.iter().zip(&self.weight) {
            let below = (used & ((1u32 << cell) - 1)).count_ones();
            rank += u64::from(u32::from(cell) - below) * weight;
            used |= 1 << cell;
        }
        rank
    }

    /// The placement of rank `rank`, written into `cells`.
    pub fn unrank(&self, mut rank: u64, cells: &mut [u8]) {
        let mut used = 0u32;
        for (slot, &weight) in cells.iter_mut().zip(&self.weight) {
            let mut digit = rank / weight;
            rank %= weight;
            let mut cell = 0u8;
            loop {
                if used & (1 << cell) == 0 {
                    if digit == 0 {
                        break;
                    }
                    digit -= 1;
                }
                cell += 1;
            }
            *slot = cell;
            used |= 1 << cell;
        }
    }

    /// The index of the entry for the placement `cells` (one cell per slot, all distinct) and
    /// the blank on `blank` (a free cell): [`Placements::rank`] and [`Placements::index`] in one
    /// pass, the occupied cells gathered on the way.
    #[inline]
    pub fn index_of(&self, cells: impl Iterator<Item = u8>, blank: u8) -> u64 {
        let mut used = 0u32;
        let mut rank = 0u64;
        for (cell, &weight) in cells.zip(&self.weight) {
            let below = (used & ((1u32 << cell) - 1)).count_ones();
            rank += u64::from(u32::from(cell) - below) * weight;
            used |= 1 << cell;
        }
        self.index(rank, used, blank)
    }

    /// The index of the entry for placement rank `rank`, occupied cells `occupied` and the
    /// blank on `blank` (a free cell).
    #[inline]
    pub fn index(&self, rank: u64, occupied: u32, blank: u8) -> u64 {
        let below = (occupied & ((1u32 << blank) - 1)).count_ones();
        rank * self.free() as u64 + u64::from(u32::from(blank) - below)
    }
}

/// The mask of the cells in `cells`.
#[inline]
pub fn mask(cells: &[u8]) -> u32 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection() {
        for (n, k) in [(4, 2), (6, 3), (9, 4), (9, 8)] {
            let p = Placements::new(n, k);
            assert_eq!(
                p.count(),
                (n - k + 1..=n).map(|x| x as u64).product::<u64>()
            );
            let mut cells = vec![0u8; k];
            let mut previous: Option<Vec<u8>> = None;
            for rank in 0..p.count() {
                p.unrank(rank, &mut cells);
                assert_eq!(mask(&cells).count_ones() as usize, k, "distinct cells");
                assert!(cells.iter().all(|&c| usize::from(c) < n));
                assert_eq!(p.rank(&cells), rank);
                if let Some(before) = &previous {
                    assert!(before < &cells, "lexicographic order");
                }
                previous = Some(cells.clone());
            }
        }
    }

    #[test]
    fn indices_cover_the_entries_once() {
        let p = Placements::new(6, 3);
        let mut seen = vec![false; p.entries() as usize];
        let mut cells = [0u8; 3];
        for rank in 0..p.count() {
            p.unrank(rank, &mut cells);
            let occupied = mask(&cells);
            for blank in (0..6u8).filter(|&b| occupied & 1 << b == 0) {
                let index = p.index(rank, occupied, blank) as usize;
                assert!(!seen[index]);
                seen[index] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
