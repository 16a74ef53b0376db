//! The board as bit masks: cell `r * cols + c` is bit `r * cols + c` of a `u32`, so that a set
//! of cells and the region the blank can reach in it are computed a row at a time.
//!
//! Invariant: every mask a `Grid` returns lies within the board (`all`).

use crate::board::{Board, Direction};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    board: Board,
    all: u32,
    /// Cells with a neighbour to the east (not in the last column), to the west (not in the
    /// first).
    has_east: u32,
    has_west: u32,
}

impl Grid {
    pub fn new(board: Board) -> Grid {
        let cells = board.cells();
        let column = |pick: &dyn Fn(usize) -> bool| {
            (0..cells)
                .filter(|&c| pick(board.col(c)))
                .fold(0u32, |m, c| m | 1 << c)
        };
        Grid {
            board,
            all: (1u32 << cells) - 1,
            has_east: column(&|col| col + 1 < board.cols()),
            has_west: column(&|col| col > 0),
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    /// Every cell.
    pub fn all(&self) -> u32 {
        self.all
    }

    /// The cells next to some cell of `cells`.
    #[inline]
    pub fn spread(&self, cells: u32) -> u32 {
        let cols = self.board.cols();
        ((cells & self.has_east) << 1)
            | ((cells & self.has_west) >> 1)
            | (cells >> cols)
            | ((cells << cols) & self.all)
    }

    /// The cells of `free` reachable from `start` through cells of `free` (`start` included if
    /// free).
    #[inline]
    pub fn region(&self, start: u32, free: u32) -> u32 {
        let mut region = start & free;
        loop {
            let grown = region | (self.spread(region) & free);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The neighbours of `cell`, as cells.
    pub fn neighbours(&self, cell: u8) -> impl Iterator<Item = u8> + '_ {
        Direction::ALL
            .into_iter()
            .filter_map(move |d| self.board.neighbour(usize::from(cell), d))
            .map(|c| c as u8)
    }

    /// Manhattan distance between two cells.
    #[inline]
    pub fn distance(&self, a: u8, b: u8) -> u32 {
        let (a, b) = (usize::from(a), usize::from(b));
        let board = self.board;
        (board.row(a).abs_diff(board.row(b)) + board.col(a).abs_diff(board.col(b))) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_agrees_with_neighbours() {
        for (rows, cols) in [(2, 2), (3, 4), (4, 3), (5, 5)] {
            let grid = Grid::new(Board::new(rows, cols).expect("valid board"));
            for cell in 0..(rows * cols) as u8 {
                let expected = grid.neighbours(cell).fold(0, |m, c| m | 1 << c);
                assert_eq!(
                    grid.spread(1 << cell),
                    expected,
                    "{rows}x{cols} cell {cell}"
                );
            }
        }
    }

    #[test]
    fn regions_stop_at_walls() {
        let grid = Grid::new(Board::fifteen());
        // Column 1 occupied: the left column is cut off from the rest.
        let wall = 0b0010_0010_0010_0010u32;
        let free = grid.all() & !wall;
        assert_eq!(grid.region(1, free), 0b0001_0001_0001_0001);
        assert_eq!(grid.region(1 << 15, free).count_ones(), 8);
    }
}
