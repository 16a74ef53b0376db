//! The perfect index of a tile puzzle's configurations: the order of the tiles read row by row
//! with the blank left out, and the blank's cell (Tarakanov's split).
//!
//! The order's lexicographic rank, halved, names a *block*; the block has one slot per cell of
//! the blank. Orders `2k` and `2k + 1` differ only in their last two tiles, so in parity: of the
//! two, the one a slot holds is the one whose parity the blank's cell asks for.
//!
//! Invariant (why half the ranks are enough): on a board of at least two rows and two columns,
//! exactly the configurations where the order's parity, plus the blank's row when the width is
//! even, has the start's value are reachable. A move along a row keeps the order; a move along a
//! column carries a tile over `cols − 1` others, and changes the blank's row by one. So every
//! reachable configuration has exactly one slot, and every slot one configuration: the index
//! `block * cells + cell` is perfect. A move along a row stays in its block.

use thiserror::Error;

/// The most cells a board may have: a block's slots are the 2-bit fields of one `u32`.
pub const MAX_CELLS: usize = 16;

/// The order of the tiles (each `0..tiles`), read row by row, the blank left out.
pub type Order = [u8; MAX_CELLS];

/// Why a board cannot be enumerated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridError {
    #[error("a {rows}x{cols} board cannot be enumerated: it needs at least 2 rows and 2 columns")]
    TooThin { rows: usize, cols: usize },
    #[error(
        "a {rows}x{cols} board has {} cells; the enumerator takes at most {MAX_CELLS}",
        rows * cols
    )]
    TooBig { rows: usize, cols: usize },
    #[error("the blank's cell (row {row}, column {col}) is not on a {rows}x{cols} board")]
    BlankOffBoard {
        row: usize,
        col: usize,
        rows: usize,
        cols: usize,
    },
}

/// A board of `rows` by `cols` cells, with the start's blank cell (its tiles in order around
/// it), and what the index needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    rows: usize,
    cols: usize,
    blank: usize,
    /// `factorial[i] = i!`.
    factorial: [u64; MAX_CELLS],
    /// The order's parity of the reachable configurations with the blank in each cell.
    parity: [u8; MAX_CELLS],
}

impl Grid {
    /// The board, its start's blank in cell `blank` (row by row, from 0).
    pub fn new(rows: usize, cols: usize, blank: usize) -> Result<Grid, GridError> {
        if rows < 2 || cols < 2 {
            return Err(GridError::TooThin { rows, cols });
        }
        if rows * cols > MAX_CELLS {
            return Err(GridError::TooBig { rows, cols });
        }
        if blank >= rows * cols {
            return Err(GridError::BlankOffBoard {
                row: blank / cols + 1,
                col: blank % cols + 1,
                rows,
                cols,
            });
        }
        let mut factorial = [1u64; MAX_CELLS];
        for i in 1..MAX_CELLS {
            factorial[i] = factorial[i - 1] * i as u64;
        }
        let mut parity = [0u8; MAX_CELLS];
        if cols.is_multiple_of(2) {
            for (cell, p) in parity.iter_mut().enumerate().take(rows * cols) {
                *p = ((cell / cols + blank / cols) % 2) as u8;
            }
        }
        Ok(Grid {
            rows,
            cols,
            blank,
            factorial,
            parity,
        })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    pub fn tiles(&self) -> usize {
        self.cells() - 1
    }

    /// The start's blank cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The number of blocks: `tiles! / 2`.
    pub fn blocks(&self) -> u64 {
        self.factorial[self.tiles()] / 2
    }

    /// The number of reachable configurations: `cells! / 2`.
    pub fn configurations(&self) -> u64 {
        self.blocks() * self.cells() as u64
    }

    /// `i!`.
    pub fn factorial(&self, i: usize) -> u64 {
        self.factorial[i]
    }

    /// The parity an order has in a slot of `cell`.
    pub fn parity(&self, cell: usize) -> u8 {
        self.parity[cell]
    }

    /// The lexicographic rank of an order of `tiles` tiles (its Lehmer code read as a number in
    /// the factorial base).
    pub fn rank(&self, order: &[u8]) -> u64 {
        let tiles = self.tiles();
        let mut left: u32 = (1 << tiles) - 1;
        let mut rank = 0;
        for (i, &tile) in order[..tiles].iter().enumerate() {
            let smaller = left & ((1 << tile) - 1);
            rank += u64::from(smaller.count_ones()) * self.factorial[tiles - 1 - i];
            left &= !(1 << tile);
        }
        rank
    }

    /// The Lehmer code of rank `rank` (digit `i`: the tiles after index `i` smaller than the
    /// tile there, in `0..tiles − i`), and the order's parity (the digits' sum's).
    pub fn lehmer(&self, mut rank: u64) -> (Order, u8) {
        let tiles = self.tiles();
        let mut digits = [0u8; MAX_CELLS];
        let mut parity = 0;
        for (i, digit) in digits[..tiles].iter_mut().enumerate() {
            let f = self.factorial[tiles - 1 - i];
            *digit = (rank / f) as u8;
            rank %= f;
            parity ^= *digit & 1;
        }
        (digits, parity)
    }

    /// The order of rank `rank`, and its parity.
    pub fn unrank(&self, mut rank: u64) -> (Order, u8) {
        let tiles = self.tiles();
        let mut order = [0u8; MAX_CELLS];
        let mut left: u32 = (1 << tiles) - 1;
        let mut parity = 0;
        for (i, slot) in order[..tiles].iter_mut().enumerate() {
            let f = self.factorial[tiles - 1 - i];
            let digit = (rank / f) as u32;
            rank %= f;
            parity ^= digit & 1;
            // The `digit`-th tile still left.
            let mut bits = left;
            for _ in 0..digit {
                bits &= bits - 1;
            }
            let tile = bits.trailing_zeros();
            *slot = tile as u8;
            left &= !(1 << tile);
        }
        (order, parity as u8)
    }

    /// The order in slot `cell` of `block`.
    pub fn order(&self, block: u64, cell: usize) -> Order {
        let (mut order, parity) = self.unrank(2 * block);
        if parity != self.parity[cell] {
            let tiles = self.tiles();
            order.swap(tiles - 2, tiles - 1);
        }
        order
    }

    /// The board of slot `cell` of `block`: each cell's tile, `1..=tiles`, the blank 0.
    pub fn board(&self, block: u64, cell: usize) -> [u8; MAX_CELLS] {
        let order = self.order(block, cell);
        let mut board = [0u8; MAX_CELLS];
        let mut tiles = order[..self.tiles()].iter();
        for (c, square) in board.iter_mut().enumerate().take(self.cells()) {
            if c != cell {
                *square = tiles.next().map_or(0, |&t| t + 1);
            }
        }
        board
    }

    /// The block and cell of a board (each cell's tile `1..=tiles`, the blank 0), or `None`
    /// when it is no configuration of this board or not reachable from the start.
    pub fn slot(&self, board: &[u8]) -> Option<(u64, usize)> {
        let cells = self.cells();
        if board.len() != cells {
            return None;
        }
        let mut seen = 0u32;
        let mut order = [0u8; MAX_CELLS];
        let mut blank = None;
        let mut next = 0;
        for (c, &tile) in board.iter().enumerate() {
            if seen & (1 << tile) != 0 || usize::from(tile) >= cells {
                return None;
            }
            seen |= 1 << tile;
            if tile == 0 {
                blank = Some(c);
            } else {
                order[next] = tile - 1;
                next += 1;
            }
        }
        let blank = blank?;
        let rank = self.rank(&order);
        let parity = self.unrank(rank).1;
        (parity == self.parity[blank]).then_some((rank / 2, blank))
    }

    /// A board written row by row, a hex digit a cell (the blank `0`), rows joined by `/`.
    pub fn write(&self, board: &[u8]) -> String {
        let digits = b"0123456789abcdef";
        let mut text = String::new();
        for (c, &tile) in board.iter().enumerate().take(self.cells()) {
            if c > 0 && c % self.cols == 0 {
                text.push('/');
            }
            text.push(char::from(digits[usize::from(tile & 15)]));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_on_every_order_of_seven_tiles() {
        let grid = Grid::new(2, 4, 7).unwrap();
        for rank in 0..grid.factorial[7] {
            let (order, parity) = grid.unrank(rank);
            assert_eq!(grid.rank(&order), rank);
            // Parity by counting inversions.
            let mut inversions = 0;
            for i in 0..7 {
                for j in i + 1..7 {
                    inversions += u8::from(order[i] > order[j]);
                }
            }
            assert_eq!(parity, inversions % 2, "{rank}");
        }
    }

    #[test]
    fn the_start_is_block_zero() {
        for (rows, cols) in [(2, 2), (3, 3), (2, 7), (4, 3), (3, 4), (4, 4)] {
            for blank in 0..rows * cols {
                let grid = Grid::new(rows, cols, blank).unwrap();
                let mut board = [0u8; MAX_CELLS];
                let mut tile = 1;
                for (c, square) in board.iter_mut().enumerate().take(rows * cols) {
                    if c != blank {
                        *square = tile;
                        tile += 1;
                    }
                }
                assert_eq!(grid.slot(&board[..rows * cols]), Some((0, blank)));
                assert_eq!(grid.board(0, blank), board);
            }
        }
    }

    #[test]
    fn boards_that_cannot_be_enumerated_are_named() {
        assert_eq!(
            Grid::new(1, 5, 0).unwrap_err().to_string(),
            "a 1x5 board cannot be enumerated: it needs at least 2 rows and 2 columns"
        );
        assert_eq!(
            Grid::new(3, 6, 0).unwrap_err().to_string(),
            "a 3x6 board has 18 cells; the enumerator takes at most 16"
        );
        assert!(Grid::new(4, 4, 15).is_ok());
    }
}
