//! Positions on any board the move verbs take (`apply`, `invert`, `simplify`, `convert`): at
//! least 2 rows and 2 columns and at most [`MAX_CELLS`] cells (16x16, 3x7, 8x2, …), as slidy
//! takes them. Replaying moves needs no search, so these boards go beyond the engines' 5x5.
//!
//! A [`Tray`] is a [`Shape`] and its tiles in a `Vec` (Knuth's convention, blank last), where
//! the engines' [`Position`] is a fixed array of 25 cells: a shape beyond [`Board`]'s never
//! reaches an engine. A board the engines take is read by [`Position::parse`] itself, so its
//! notations and error messages are the searches'; a larger one is written in decimal tiles
//! (hex digits only up to 16 cells, as on the engines' boards), in rows with `/` or with
//! `--size RxC`; a square number of tiles above 25 is its square board.

use crate::board::{Board, Direction, MIN_SIDE};
use crate::notation::Playable;
use crate::position::{self, Convention, Position, PositionError, Subject};
use std::fmt;

/// The most cells of a board of the move verbs: 16x16, so that every tile is a `u8`.
pub const MAX_CELLS: usize = 256;

/// The shape of a board of the move verbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: usize,
    cols: usize,
}

/// A shape beyond the move verbs' bound.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the move verbs take boards of at least {MIN_SIDE} rows and {MIN_SIDE} columns and at most {MAX_CELLS} cells (16x16), not {rows}x{cols}")]
pub struct ShapeError {
    pub rows: usize,
    pub cols: usize,
}

impl Shape {
    /// A board of `rows x cols`, each at least 2, at most [`MAX_CELLS`] cells in all.
    pub fn new(rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        let cells = rows.saturating_mul(cols);
        match rows >= MIN_SIDE && cols >= MIN_SIDE && cells <= MAX_CELLS {
            true => Ok(Shape { rows, cols }),
            false => Err(ShapeError { rows, cols }),
        }
    }

    pub fn rows(self) -> usize {
        self.rows
    }

    pub fn cols(self) -> usize {
        self.cols
    }

    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// The engines' board of this shape, if they take it (2 to 5 rows and columns).
    pub fn board(self) -> Option<Board> {
        Board::new(self.rows, self.cols).ok()
    }

    /// Whether tiles are written as single hex digits (at most 16 cells), as on [`Board`].
    pub fn uses_hex(self) -> bool {
        self.cells() <= 16
    }

    /// The cell next to `cell` in direction `d`, if it is on the board.
    fn neighbour(self, cell: usize, d: Direction) -> Option<usize> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        match d {
            Direction::East if c + 1 < self.cols => Some(cell + 1),
            Direction::North if r > 0 => Some(cell - self.cols),
            Direction::West if c > 0 => Some(cell - 1),
            Direction::South if r + 1 < self.rows => Some(cell + self.cols),
            _ => None,
        }
    }
}

impl From<Board> for Shape {
    fn from(board: Board) -> Shape {
        Shape {
            rows: board.rows(),
            cols: board.cols(),
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl std::str::FromStr for Shape {
    type Err = String;

    /// Parses `RxC` (also `R,C` or `RXC`), for example `6x6` or `3x7`.
    fn from_str(text: &str) -> Result<Shape, String> {
        let (rows, cols) = crate::board::rows_and_columns(text).ok_or_else(|| {
            format!("a board size is written RxC with R, C >= 2 and at most {MAX_CELLS} cells (e.g. 6x6), not {text:?}")
        })?;
        Shape::new(rows, cols).map_err(|e| e.to_string())
    }
}

/// A fault in a position of the move verbs: one the engines' boards share with `solve`, or
/// one of a larger board, worded as `solve`'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrayError {
    /// On a board the engines take: `solve`'s own fault.
    Small(PositionError),
    /// A shape beyond the bound.
    Shape(ShapeError),
    /// More than 25 tiles, not a square number, without `--size` or rows.
    UnknownSize {
        found: usize,
    },
    /// More tiles than the bound, without `--size` or rows.
    TooMany {
        found: usize,
    },
    HexTooLarge(Shape),
    WrongCount {
        found: usize,
        shape: Shape,
    },
    TooFew {
        found: usize,
        shape: Shape,
        missing: Vec<String>,
    },
    OutOfRange {
        tile: usize,
        shape: Shape,
    },
    Twice(usize),
    Ragged {
        row: usize,
        found: usize,
        expected: usize,
    },
    WrongShape {
        rows: usize,
        cols: usize,
        shape: Shape,
    },
}

impl TrayError {
    /// The one-line message, naming the position as `subject`.
    pub fn message(&self, subject: Subject) -> String {
        let what = match subject {
            Subject::Start => "start position",
            Subject::Goal => "goal",
        };
        match self {
            TrayError::Small(error) => error.message(subject),
            TrayError::Shape(error) => format!("The {what} does not fit: {error}!"),
            TrayError::UnknownSize { found } => format!(
                "The {what} has {found_tiles}; give --size RxC for a board of that many cells (square boards up to 16x16 are recognised without it)!",
                found_tiles = position::tiles(*found)
            ),
            TrayError::TooMany { found } => format!(
                "The {what} has {found_tiles}, but the move verbs take boards of at most {MAX_CELLS} cells (16x16)!",
                found_tiles = position::tiles(*found)
            ),
            TrayError::HexTooLarge(shape) => format!(
                "Hex notation only works for boards of at most 16 cells; list the tiles of a {shape} board as decimal numbers separated by commas!"
            ),
            TrayError::WrongCount { found, shape } => format!(
                "The {what} has {found_tiles}, but a {shape} board needs {}!",
                shape.cells(),
                found_tiles = position::tiles(*found)
            ),
            TrayError::TooFew {
                found,
                shape,
                missing,
            } => format!(
                "The {what} has {found_tiles}, but a {shape} board needs {}: {} missing!",
                shape.cells(),
                position::missing_tiles(missing),
                found_tiles = position::tiles(*found)
            ),
            TrayError::OutOfRange { tile, shape } => format!(
                "Your {what} uses {tile}, but a {shape} board has tiles 0 to {} only!",
                shape.cells() - 1
            ),
            TrayError::Twice(tile) => format!("Your {what} uses {tile} twice!"),
            TrayError::Ragged {
                row,
                found,
                expected,
            } => format!(
                "Row {row} of the {what} has {found_tiles}, but the first row has {expected}!",
                found_tiles = position::tiles(*found)
            ),
            TrayError::WrongShape { rows, cols, shape } => format!(
                "The {what} has {rows} rows of {cols} tiles, but --size says {shape}!"
            ),
        }
    }
}

impl fmt::Display for TrayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Subject::Start))
    }
}

/// A position of the move verbs: a shape and the tile on each cell (0 = blank), Knuth's
/// convention; always a permutation of `0..cells`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Tray {
    shape: Shape,
    tiles: Vec<u8>,
}

impl Tray {
    /// The solved position of `shape`: tiles 1, 2, … in order, the blank last.
    pub fn goal(shape: Shape) -> Tray {
        let n = shape.cells();
        let tiles = (1..n).chain(0..1).map(tile_number).collect();
        Tray { shape, tiles }
    }

    /// Parses the user's notation as [`Position::parse`] does, on any board of the bound: a
    /// board the engines take by `Position::parse` itself; a larger one from `size`, from
    /// rows written with `/`, or from a square number of tiles above 25.
    pub fn parse(
        text: &str,
        size: Option<Shape>,
        convention: Convention,
    ) -> Result<Tray, TrayError> {
        let small = |board: Option<Board>| {
            Position::parse(text, board, convention)
                .map(|p| Tray::from(&p))
                .map_err(TrayError::Small)
        };
        if let Some(board) = size.and_then(Shape::board) {
            return small(Some(board));
        }
        if text.trim().is_empty() {
            return small(None);
        }
        // The rows and their values; a fault of notation is solve's on its own boards.
        let rows: Vec<&str> = text.trim().split('/').map(str::trim).collect();
        let mut values = Vec::new();
        let mut hex = false;
        let mut width = None;
        for (row, part) in rows.iter().enumerate() {
            let (row_values, row_hex) = position::row_values(part).map_err(TrayError::Small)?;
            hex |= row_hex;
            let expected = *width.get_or_insert(row_values.len());
            if rows.len() > 1 && row_values.len() != expected {
                return Err(TrayError::Ragged {
                    row: row + 1,
                    found: row_values.len(),
                    expected,
                });
            }
            values.extend(row_values);
        }
        let drawn = (rows.len() > 1).then(|| (rows.len(), width.unwrap_or(0)));
        let shape = match (size, drawn) {
            (Some(shape), Some((r, c))) if (shape.rows(), shape.cols()) != (r, c) => {
                return Err(TrayError::WrongShape {
                    rows: r,
                    cols: c,
                    shape,
                })
            }
            (Some(shape), _) => shape,
            (None, Some((r, c))) => match Board::new(r, c) {
                Ok(_) => return small(None),
                Err(_) => Shape::new(r, c).map_err(TrayError::Shape)?,
            },
            (None, None) if values.len() <= crate::board::MAX_CELLS => return small(None),
            (None, None) => square(values.len())?,
        };
        if hex && !shape.uses_hex() {
            return Err(TrayError::HexTooLarge(shape));
        }
        if values.len() > shape.cells() {
            return Err(TrayError::WrongCount {
                found: values.len(),
                shape,
            });
        }
        let name = |t: usize| match hex {
            true => format!("{t:x}"),
            false => t.to_string(),
        };
        let mut seen = vec![false; shape.cells()];
        for &v in &values {
            match seen.get_mut(v) {
                None => return Err(TrayError::OutOfRange { tile: v, shape }),
                Some(true) => return Err(TrayError::Twice(v)),
                Some(slot) => *slot = true,
            }
        }
        if values.len() < shape.cells() {
            return Err(TrayError::TooFew {
                found: values.len(),
                shape,
                missing: (0..shape.cells()).filter(|&t| !seen[t]).map(name).collect(),
            });
        }
        let tray = Tray {
            shape,
            tiles: values.into_iter().map(tile_number).collect(),
        };
        Ok(match convention {
            Convention::Knuth => tray,
            Convention::Korf => tray.korf_flipped(),
        })
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The tiles row by row (Knuth's convention).
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The cell of the blank.
    pub fn blank(&self) -> usize {
        self.tiles.iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// The same position in the other convention (an involution): the board turned 180
    /// degrees, each tile `x > 0` named `n - x`.
    fn korf_flipped(&self) -> Tray {
        let n = self.shape.cells();
        let tiles = self.tiles.iter().rev().map(|&t| shown(t, n)).collect();
        Tray {
            shape: self.shape,
            tiles,
        }
    }

    /// The position written in the user's notation: hex digits up to 16 cells, otherwise
    /// decimal tiles separated by commas (as [`Position::notation`]).
    pub fn notation(&self, convention: Convention) -> String {
        let shown = match convention {
            Convention::Knuth => self.clone(),
            Convention::Korf => self.korf_flipped(),
        };
        position::format_tiles(&shown.tiles, self.shape.uses_hex())
    }
}

impl From<&Position> for Tray {
    fn from(position: &Position) -> Tray {
        Tray {
            shape: Shape::from(position.board()),
            tiles: position.tiles().to_vec(),
        }
    }
}

impl fmt::Debug for Tray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tray({} {})",
            self.shape,
            self.notation(Convention::Knuth)
        )
    }
}

impl Playable for Tray {
    fn cells(&self) -> usize {
        self.shape.cells()
    }

    fn uses_hex(&self) -> bool {
        self.shape.uses_hex()
    }

    fn move_blank(&mut self, d: Direction) -> Option<u8> {
        let blank = self.blank();
        let from = self.shape.neighbour(blank, d)?;
        let tile = self.tiles[from];
        self.tiles.swap(blank, from);
        Some(tile)
    }

    fn direction_of(&self, tile: u8) -> Option<Direction> {
        let blank = self.blank();
        Direction::ALL.into_iter().find(|&d| {
            tile != 0 && self.shape.neighbour(blank, d).map(|cell| self.tiles[cell]) == Some(tile)
        })
    }

    fn moves_notation(&self, moves: &[u8], convention: Convention) -> String {
        let n = self.shape.cells();
        let shown: Vec<u8> = match convention {
            Convention::Knuth => moves.to_vec(),
            Convention::Korf => moves.iter().map(|&t| shown(t, n)).collect(),
        };
        position::format_tiles(&shown, self.shape.uses_hex())
    }
}

/// A tile's number in the other convention on a board of `n` cells (0 stays the blank).
fn shown(tile: u8, n: usize) -> u8 {
    match tile {
        0 => 0,
        t => tile_number(n - usize::from(t)),
    }
}

/// A tile number as stored; callers have checked that it is below the number of cells (<= 256).
fn tile_number(value: usize) -> u8 {
    u8::try_from(value).unwrap_or(u8::MAX)
}

/// The square board of `count` tiles above 25, or why there is none.
fn square(count: usize) -> Result<Shape, TrayError> {
    let side = (1..=count).find(|s| s * s >= count).unwrap_or(count);
    match side * side == count {
        true => Shape::new(side, side).map_err(TrayError::Shape),
        false if count > MAX_CELLS => Err(TrayError::TooMany { found: count }),
        false => Err(TrayError::UnknownSize { found: count }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, size: Option<&str>) -> Result<Tray, TrayError> {
        let size = size.map(|s| s.parse::<Shape>().expect("a shape"));
        Tray::parse(text, size, Convention::Knuth)
    }

    fn decimal(tiles: impl Iterator<Item = usize>) -> String {
        tiles.map(|t| t.to_string()).collect::<Vec<_>>().join(",")
    }

    #[test]
    fn shapes_are_bounded_by_cells() {
        assert!(Shape::new(16, 16).is_ok());
        assert!(Shape::new(3, 7).is_ok());
        assert!(Shape::new(2, 128).is_ok());
        assert_eq!(Shape::new(17, 16), Err(ShapeError { rows: 17, cols: 16 }));
        assert!(Shape::new(1, 9).is_err());
        assert!(Shape::new(usize::MAX, 2).is_err());
        assert!("6x6".parse::<Shape>().is_ok());
        assert!("six".parse::<Shape>().is_err());
    }

    #[test]
    fn large_boards_are_read_and_written() {
        let goal = decimal((1..36).chain(0..1));
        let tray = parse(&goal, None).expect("6x6 from 36 tiles");
        assert_eq!(tray, Tray::goal(Shape::new(6, 6).expect("6x6")));
        assert_eq!(tray.notation(Convention::Knuth), goal);
        // Korf's convention: the blank first.
        let korf = Tray::parse(&decimal(0..36), None, Convention::Korf).expect("6x6");
        assert_eq!(korf, tray);
        // Rows give the shape; --size a non-square one.
        let rows = "1 2 3 4 5 6 7/8 9 10 11 12 13 14/15 16 17 18 19 20 0";
        assert_eq!(
            parse(rows, None).map(|t| t.shape().to_string()),
            Ok("3x7".into())
        );
        assert_eq!(
            parse(&decimal((1..16).chain(0..1)), Some("8x2")).map(|t| t.shape().to_string()),
            Ok("8x2".into())
        );
        // Hex up to 16 cells, on a board the engines do not take.
        assert_eq!(
            parse("123456789ab0", Some("2x6")).map(|t| t.shape().to_string()),
            Ok("2x6".into())
        );
    }

    #[test]
    fn faults_are_one_line_each() {
        let message = |text: &str, size| parse(text, size).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(
            message(&decimal(1..30), None),
            Err("The start position has 29 tiles; give --size RxC for a board of that many cells (square boards up to 16x16 are recognised without it)!".into())
        );
        assert_eq!(
            message(&decimal(0..289), None),
            Err("The start position does not fit: the move verbs take boards of at least 2 rows and 2 columns and at most 256 cells (16x16), not 17x17!".into())
        );
        assert_eq!(
            message(&decimal(1..36), Some("6x6")),
            Err("The start position has 35 tiles, but a 6x6 board needs 36: 0 (the blank) is missing!".into())
        );
        assert_eq!(
            message(&decimal((0..35).chain(3..4)), Some("6x6")),
            Err("Your start position uses 3 twice!".into())
        );
        // The engines' boards keep solve's messages.
        assert_eq!(
            message("1234567", None),
            Position::parse("1234567", None, Convention::Knuth)
                .map(|_| ())
                .map_err(|e| e.to_string())
        );
    }
}
