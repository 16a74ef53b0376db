//! The board: an `R x C` grid of cells numbered row by row, `cell = r * cols + c`.
//!
//! Directions are the blank's, encoded as Knuth does (powers of `i` in the complex plane):
//! east = 0, north = 1, west = 2, south = 3, so `d ^ 2` is the direction that undoes `d`.
//! Moving the blank east pushes the piece to its east one cell west.
//!
//! Tiles are numbered in Knuth's convention: tile `x` (1 <= x < R*C) belongs on cell `x - 1`,
//! and the blank (tile 0) on the last cell. The Manhattan distance of a board is the sum, over
//! the tiles, of each tile's row and column distance from its home cell; the blank does not count.
//!
//! A board may instead have its goal's blank on another cell ([`Board::with_blank_home`]): the
//! tiles then fill the other cells in order, row by row, and every home, distance and parity
//! derived here follows. That is how a goal whose blank no mirror brings to a corner is searched
//! ([`crate::goal`]); the engines and tables built for the last cell refuse such a board.

use std::fmt;

/// Smallest and largest number of rows or columns a board may have.
pub const MIN_SIDE: usize = 2;
pub const MAX_SIDE: usize = 5;
/// The most cells any board has (5 x 5).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// A direction in which the blank moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    East = 0,
    North = 1,
    West = 2,
    South = 3,
}

impl Direction {
    /// All four, in Knuth's code order (east, north, west, south).
    pub const ALL: [Direction; 4] = [
        Direction::East,
        Direction::North,
        Direction::West,
        Direction::South,
    ];

    /// The direction with Knuth's code `d` (taken modulo 4).
    pub fn from_code(d: u8) -> Direction {
        Self::ALL[usize::from(d & 3)]
    }

    /// Knuth's code: east 0, north 1, west 2, south 3.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The move that undoes this one.
    pub fn reverse(self) -> Direction {
        Self::from_code(self.code() ^ 2)
    }

    /// One-letter name, as used by `--order` (`E`, `N`, `W`, `S`).
    pub fn letter(self) -> char {
        match self {
            Direction::East => 'E',
            Direction::North => 'N',
            Direction::West => 'W',
            Direction::South => 'S',
        }
    }

    /// Parses a one-letter name (either case).
    pub fn from_letter(letter: char) -> Option<Direction> {
        match letter.to_ascii_uppercase() {
            'E' => Some(Direction::East),
            'N' => Some(Direction::North),
            'W' => Some(Direction::West),
            'S' => Some(Direction::South),
            _ => None,
        }
    }
}

/// The shape of a board. Everything else about it (neighbours, home cells) is derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    /// The goal's blank cell: the last one but on a board made by [`Board::with_blank_home`].
    blank_home: usize,
}

/// A board shape outside the supported range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the board must have {MIN_SIDE} to {MAX_SIDE} rows and columns, not {rows}x{cols}")]
pub struct BoardSizeError {
    pub rows: usize,
    pub cols: usize,
}

impl Board {
    /// A board of `rows x cols` cells, each side from 2 to 5.
    pub fn new(rows: usize, cols: usize) -> Result<Board, BoardSizeError> {
        let ok = |side: usize| (MIN_SIDE..=MAX_SIDE).contains(&side);
        if ok(rows) && ok(cols) {
            Ok(Board {
                rows,
                cols,
                blank_home: rows * cols - 1,
            })
        } else {
            Err(BoardSizeError { rows, cols })
        }
    }

    /// The classic 4 x 4 board.
    pub fn fifteen() -> Board {
        Board {
            rows: 4,
            cols: 4,
            blank_home: 15,
        }
    }

    /// This board with the goal's blank on `cell` (a cell of the board), the tiles in order on
    /// the others.
    pub fn with_blank_home(self, cell: usize) -> Board {
        debug_assert!(cell < self.cells());
        Board {
            blank_home: cell.min(self.cells() - 1),
            ..self
        }
    }

    /// Whether the goal's blank is on the last cell, as the automata and the tables have it.
    pub fn is_standard(self) -> bool {
        self.blank_home == self.cells() - 1
    }

    /// The goal's blank cell.
    pub fn blank_home(self) -> usize {
        self.blank_home
    }

    /// The board with its goal, as files built for it are named: `4x4` when the goal's blank
    /// is on the last cell, else `4x4-blank-r2c2` (its row and column counted from 1).
    pub fn goal_name(self) -> String {
        match self.is_standard() {
            true => self.to_string(),
            false => format!(
                "{self}-blank-r{}c{}",
                self.row(self.blank_home) + 1,
                self.col(self.blank_home) + 1
            ),
        }
    }

    /// The board of a [`Board::goal_name`], if `name` is one.
    pub fn from_goal_name(name: &str) -> Option<Board> {
        let (size, blank) = match name.split_once("-blank-r") {
            Some((size, blank)) => (size, Some(blank)),
            None => (name, None),
        };
        let board: Board = size.parse().ok()?;
        let Some(blank) = blank else {
            return Some(board);
        };
        let (row, col) = blank.split_once('c')?;
        let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
        let fits = (1..=board.rows).contains(&row) && (1..=board.cols).contains(&col);
        fits.then(|| board.with_blank_home((row - 1) * board.cols + col - 1))
    }

    pub fn rows(self) -> usize {
        self.rows
    }

    pub fn cols(self) -> usize {
        self.cols
    }

    /// Number of cells (= number of tiles including the blank).
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    pub fn row(self, cell: usize) -> usize {
        cell / self.cols
    }

    pub fn col(self, cell: usize) -> usize {
        cell % self.cols
    }

    /// The cell a tile belongs on in the goal (Knuth's convention: blank last, or on the
    /// board's blank home, the tiles in order around it).
    pub fn home(self, tile: u8) -> usize {
        let tile = usize::from(tile);
        match tile {
            0 => self.blank_home,
            _ if tile <= self.blank_home => tile - 1,
            _ => tile,
        }
    }

    /// The cell next to `cell` in direction `d`, if it is on the board.
    pub fn neighbour(self, cell: usize, d: Direction) -> Option<usize> {
        let (r, c) = (self.row(cell), self.col(cell));
        match d {
            Direction::East if c + 1 < self.cols => Some(cell + 1),
            Direction::North if r > 0 => Some(cell - self.cols),
            Direction::West if c > 0 => Some(cell - 1),
            Direction::South if r + 1 < self.rows => Some(cell + self.cols),
            _ => None,
        }
    }

    /// Manhattan distance of `tile` standing on `cell` from its home (0 for the blank).
    pub fn tile_distance(self, tile: u8, cell: usize) -> usize {
        if tile == 0 {
            return 0;
        }
        let home = self.home(tile);
        self.row(home).abs_diff(self.row(cell)) + self.col(home).abs_diff(self.col(cell))
    }

    /// Whether pushing `tile` from `from` into the blank at `to` brings it closer to home
    /// (a *happy* move); otherwise the move is *sad* and takes it one step farther away.
    pub fn is_happy(self, tile: u8, from: usize, to: usize) -> bool {
        self.tile_distance(tile, to) < self.tile_distance(tile, from)
    }

    /// The number of move states `(r, c, d, p)` of Knuth's automaton for this board:
    /// the sum over cells of (number of neighbours)^2.
    pub fn automaton_states(self) -> usize {
        (0..self.cells())
            .map(|cell| {
                let n = Direction::ALL
                    .iter()
                    .filter(|&&d| self.neighbour(cell, d).is_some())
                    .count();
                n * n
            })
            .sum()
    }

    /// Whether tiles of this board are written as single hex digits (at most 16 cells).
    pub fn uses_hex(self) -> bool {
        self.cells() <= 16
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl std::str::FromStr for Board {
    type Err = String;

    /// Parses `RxC` (also `R,C` or `RXC`), for example `3x4`.
    fn from_str(text: &str) -> Result<Board, String> {
        let (rows, cols) = rows_and_columns(text).ok_or_else(|| {
            format!("a board size is written RxC with 2 <= R, C <= 5 (e.g. 3x4), not {text:?}")
        })?;
        Board::new(rows, cols).map_err(|e| e.to_string())
    }
}

/// The rows and columns of a size written `RxC` (also `R,C` or `RXC`), any numbers.
pub fn rows_and_columns(text: &str) -> Option<(usize, usize)> {
    let (r, c) = text.split_once(['x', 'X', ','])?;
    Some((r.trim().parse().ok()?, c.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn automaton_state_counts_match_knuth() {
        let count = |r, c| Board::new(r, c).map(Board::automaton_states);
        assert_eq!(count(4, 4), Ok(152));
        assert_eq!(count(3, 3), Ok(68));
        assert_eq!(count(3, 4), Ok(102));
        assert_eq!(count(5, 5), Ok(268));
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let b = Board::new(3, 4).expect("3x4 is a valid board");
        assert_eq!(b.neighbour(0, Direction::North), None);
        assert_eq!(b.neighbour(0, Direction::West), None);
        assert_eq!(b.neighbour(0, Direction::East), Some(1));
        assert_eq!(b.neighbour(0, Direction::South), Some(4));
        assert_eq!(b.neighbour(11, Direction::East), None);
        assert_eq!(b.neighbour(11, Direction::South), None);
        assert_eq!(b.neighbour(11, Direction::North), Some(7));
    }

    #[test]
    fn sizes_are_parsed_and_checked() {
        assert_eq!(
            "3x4".parse::<Board>().map(|b| (b.rows(), b.cols())),
            Ok((3, 4))
        );
        assert!("6x4".parse::<Board>().is_err());
        assert!("1x4".parse::<Board>().is_err());
        assert!("four".parse::<Board>().is_err());
    }

    #[test]
    fn reverse_undoes() {
        for d in Direction::ALL {
            assert_eq!(d.reverse().reverse(), d);
            assert_ne!(d.reverse(), d);
        }
    }
}
