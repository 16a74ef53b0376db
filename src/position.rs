//! Positions: a board plus the tile standing on each cell, always stored in Knuth's convention
//! (goal = tiles 1, 2, … in order, blank last).
//!
//! Parsing and printing are the only places where notations and conventions exist: a position
//! that leaves this module is a valid permutation, and nothing downstream re-validates it.
//! Korf's convention (goal = blank first, then 1, 2, …) converts to Knuth's by rotating the board
//! 180 degrees and renaming every tile `x > 0` as `N - x` (N = number of cells); the map is its
//! own inverse, so the same function converts both ways.
//!
//! Solvability (any `R x C`): the permutation taking each cell to the home cell of its tile must
//! have the parity of the blank's Manhattan distance from its home, because every move is one
//! transposition and moves the blank one step.

use crate::board::{Board, Direction, MAX_CELLS};
use std::fmt;

/// Which goal the user's numbers refer to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Convention {
    /// Knuth's: goal `123456789abcdef0` (blank last).
    #[default]
    Knuth,
    /// Korf's: goal `0123456789abcdef` (blank first).
    Korf,
}

/// A fault in a position given by the user. Messages follow Knuth's programs; they name the
/// position as the start position ([`fmt::Display`]) or as another ([`PositionError::message`]:
/// `--goal`'s is "the goal").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    Empty,
    NotHex,
    NotANumber(String),
    HexTooLarge(Board),
    UnknownSize {
        found: usize,
    },
    NoBoard {
        found: usize,
    },
    WrongCount {
        found: usize,
        board: Board,
    },
    /// Fewer tiles than the board has cells (none out of range, none twice): `missing` names
    /// the tiles not used, in order.
    TooFew {
        found: usize,
        board: Board,
        missing: Vec<String>,
    },
    OutOfRange {
        tile: String,
        board: Board,
    },
    Twice(String),
    Ragged {
        row: usize,
        found: usize,
        expected: usize,
    },
    NoShape {
        rows: usize,
        cols: usize,
    },
    WrongShape {
        rows: usize,
        cols: usize,
        board: Board,
    },
}

/// What a position given by the user stands for, as its error messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The position to solve or replay from: "the start position".
    Start,
    /// `--goal`'s position: "the goal".
    Goal,
}

impl PositionError {
    /// The one-line message, naming the position as `subject`.
    pub fn message(&self, subject: Subject) -> String {
        let what = match subject {
            Subject::Start => "start position",
            Subject::Goal => "goal",
        };
        match self {
            PositionError::Empty => format!("The {what} is empty!"),
            PositionError::NotHex => {
                format!("The {what} should use only hex digits (0123456789abcdef)!")
            }
            PositionError::NotANumber(token) => format!(
                "The {what} should list tiles as decimal numbers separated by commas or spaces, and {token:?} is not one!"
            ),
            PositionError::HexTooLarge(board) => format!(
                "Hex notation only works for boards of at most 16 cells; list the tiles of a {board} board as decimal numbers separated by commas!"
            ),
            PositionError::UnknownSize { found } => format!(
                "The {what} has {found_tiles}; give --size RxC for a board of that many cells (4, 9, 12, 16 and 25 are recognised without it)!",
                found_tiles = tiles(*found)
            ),
            PositionError::NoBoard { found } => format!(
                "The {what} has {found_tiles}, and no board has that many cells (boards of 2 to 5 rows and columns have 4, 6, 8, 9, 10, 12, 15, 16, 20 or 25)!",
                found_tiles = tiles(*found)
            ),
            PositionError::WrongCount { found, board } => format!(
                "The {what} has {found_tiles}, but a {board} board needs {}!",
                board.cells(),
                found_tiles = tiles(*found)
            ),
            PositionError::TooFew {
                found,
                board,
                missing,
            } => format!(
                "The {what} has {found_tiles}, but a {board} board needs {}: {} missing!",
                board.cells(),
                missing_tiles(missing),
                found_tiles = tiles(*found)
            ),
            PositionError::OutOfRange { tile, board } => format!(
                "Your {what} uses {tile}, but a {board} board has tiles 0 to {} only!",
                board.cells() - 1
            ),
            PositionError::Twice(tile) => format!("Your {what} uses {tile} twice!"),
            PositionError::Ragged {
                row,
                found,
                expected,
            } => format!(
                "Row {row} of the {what} has {found_tiles}, but the first row has {expected}!",
                found_tiles = tiles(*found)
            ),
            PositionError::NoShape { rows, cols } => format!(
                "The {what} has {rows} rows of {cols} tiles; boards have 2 to 5 rows and columns!"
            ),
            PositionError::WrongShape { rows, cols, board } => format!(
                "The {what} has {rows} rows of {cols} tiles, but --size says {board}!"
            ),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Subject::Start))
    }
}

/// `1 tile`, `2 tiles`.
pub(crate) fn tiles(count: usize) -> String {
    if count == 1 {
        "1 tile".to_string()
    } else {
        format!("{count} tiles")
    }
}

/// The tiles a short position lacks, named in `names`: "0 (the blank) is", "3 and 8 are",
/// "0 (the blank), 1, 2 and 5 more are".
pub(crate) fn missing_tiles(names: &[String]) -> String {
    let shown: Vec<String> = names
        .iter()
        .map(|name| match name.as_str() {
            "0" => "0 (the blank)".to_string(),
            other => other.to_string(),
        })
        .collect();
    match shown.as_slice() {
        [one] => format!("{one} is"),
        [init @ .., last] if init.len() < 4 => format!("{} and {last} are", init.join(", ")),
        _ => format!("{} and {} more are", shown[..3].join(", "), shown.len() - 3),
    }
}

/// A pushed tile that is not next to the blank: a move string that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index} pushes tile {tile}, which is not next to the blank")]
pub struct ReplayError {
    pub index: usize,
    pub tile: u8,
}

/// A board and its tiles; `tiles[cell]` is the tile on `cell` (0 = blank), Knuth's convention.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    tiles: [u8; MAX_CELLS],
}

impl Position {
    /// The solved position of `board`: every tile on its home.
    pub fn goal(board: Board) -> Position {
        let mut tiles = [0u8; MAX_CELLS];
        for tile in 1..board.cells() {
            let tile = tile_number(tile);
            tiles[board.home(tile)] = tile;
        }
        Position { board, tiles }
    }

    /// Builds a position from tiles listed row by row in Knuth's convention.
    pub fn from_tiles(board: Board, tiles: &[u8]) -> Result<Position, PositionError> {
        let hex = board.uses_hex();
        let name = |t: u8| tile_name(t, hex);
        if tiles.len() != board.cells() {
            return Err(PositionError::WrongCount {
                found: tiles.len(),
                board,
            });
        }
        let mut seen = [false; MAX_CELLS];
        for &t in tiles {
            let slot = seen
                .get_mut(usize::from(t))
                .filter(|_| usize::from(t) < board.cells())
                .ok_or_else(|| PositionError::OutOfRange {
                    tile: name(t),
                    board,
                })?;
            if *slot {
                return Err(PositionError::Twice(name(t)));
            }
            *slot = true;
        }
        let mut array = [0u8; MAX_CELLS];
        array[..tiles.len()].copy_from_slice(tiles);
        Ok(Position {
            board,
            tiles: array,
        })
    }

    /// Parses the user's notation: hex digits (boards of at most 16 cells) or decimal tiles
    /// separated by commas and/or white space. Without `size`, the board is inferred from the
    /// number of tiles (9: 3x3, 12: 3x4, 16: 4x4, 25: 5x5).
    pub fn parse(
        text: &str,
        size: Option<Board>,
        convention: Convention,
    ) -> Result<Position, PositionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(PositionError::Empty);
        }
        // Rows as players write them, `1 2 3/4 5 6/7 8 0`: the board is their shape.
        let rows: Vec<&str> = text.split('/').map(str::trim).collect();
        let mut values = Vec::new();
        let mut hex = false;
        let mut width = None;
        for (row, part) in rows.iter().enumerate() {
            let (row_values, row_hex) = row_values(part)?;
            hex |= row_hex;
            let expected = *width.get_or_insert(row_values.len());
            if rows.len() > 1 && row_values.len() != expected {
                return Err(PositionError::Ragged {
                    row: row + 1,
                    found: row_values.len(),
                    expected,
                });
            }
            values.extend(row_values);
        }
        let shape = (rows.len() > 1).then(|| (rows.len(), width.unwrap_or(0)));
        let board = match (size, shape) {
            (Some(board), Some((r, c))) if (board.rows(), board.cols()) != (r, c) => {
                return Err(PositionError::WrongShape {
                    rows: r,
                    cols: c,
                    board,
                })
            }
            (Some(board), _) => board,
            (None, Some((rows, cols))) => {
                Board::new(rows, cols).map_err(|_| PositionError::NoShape { rows, cols })?
            }
            (None, None) => infer_board(values.len())?,
        };
        if hex && !board.uses_hex() {
            return Err(PositionError::HexTooLarge(board));
        }
        // More tiles than the board has cells cannot be mended by naming one tile.
        if values.len() > board.cells() {
            return Err(PositionError::WrongCount {
                found: values.len(),
                board,
            });
        }
        let name = |t: usize| {
            if hex {
                format!("{t:x}")
            } else {
                t.to_string()
            }
        };
        // Then Knuth's order of checks: bad symbols, repeats, then too few tiles (and which).
        let mut seen = vec![false; board.cells()];
        for &v in &values {
            match seen.get_mut(v) {
                None => {
                    return Err(PositionError::OutOfRange {
                        tile: name(v),
                        board,
                    })
                }
                Some(true) => return Err(PositionError::Twice(name(v))),
                Some(slot) => *slot = true,
            }
        }
        if values.len() < board.cells() {
            // Too few: the count is the fault, and the tiles not used say which were left out
            // (most often the blank, written 0).
            return Err(PositionError::TooFew {
                found: values.len(),
                board,
                missing: (0..board.cells()).filter(|&t| !seen[t]).map(name).collect(),
            });
        }
        let tiles: Vec<u8> = values.into_iter().map(tile_number).collect();
        let position = Position::from_tiles(board, &tiles)?;
        Ok(match convention {
            Convention::Knuth => position,
            Convention::Korf => position.korf_flipped(),
        })
    }

    /// The same position written in the other convention (an involution).
    fn korf_flipped(&self) -> Position {
        let n = self.board.cells();
        let mut tiles = [0u8; MAX_CELLS];
        for (cell, tile) in tiles.iter_mut().enumerate().take(n) {
            *tile = convert_tile(self.tiles[n - 1 - cell], n);
        }
        Position {
            board: self.board,
            tiles,
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    /// The tiles row by row (Knuth's convention).
    pub fn tiles(&self) -> &[u8] {
        &self.tiles[..self.board.cells()]
    }

    /// The tile on `cell`.
    pub fn tile(&self, cell: usize) -> u8 {
        self.tiles[cell]
    }

    /// The cell of the blank.
    pub fn blank(&self) -> usize {
        self.tiles().iter().position(|&t| t == 0).unwrap_or(0)
    }

    pub fn is_goal(&self) -> bool {
        *self == Position::goal(self.board)
    }

    /// The Manhattan lower bound: the number of happy moves any solution needs at least.
    pub fn manhattan(&self) -> usize {
        self.tiles()
            .iter()
            .enumerate()
            .map(|(cell, &t)| self.board.tile_distance(t, cell))
            .sum()
    }

    /// Whether the goal can be reached (the general parity rule, see the module comment).
    pub fn is_solvable(&self) -> bool {
        let homes: Vec<usize> = self.tiles().iter().map(|&t| self.board.home(t)).collect();
        let inversions: usize = (0..homes.len())
            .map(|i| homes[i + 1..].iter().filter(|&&h| h < homes[i]).count())
            .sum();
        let blank = self.blank();
        let goal = self.board.home(0);
        let blank_steps = self.board.row(blank).abs_diff(self.board.row(goal))
            + self.board.col(blank).abs_diff(self.board.col(goal));
        inversions % 2 == blank_steps % 2
    }

    /// Moves the blank in direction `d`; returns the tile pushed, or `None` off the board.
    pub fn move_blank(&mut self, d: Direction) -> Option<u8> {
        let blank = self.blank();
        let from = self.board.neighbour(blank, d)?;
        let tile = self.tiles[from];
        self.tiles[blank] = tile;
        self.tiles[from] = 0;
        Some(tile)
    }

    /// The blank's move that pushes `tile`, if it stands next to the blank.
    pub fn direction_of(&self, tile: u8) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&d| tile != 0 && self.tile_beyond_blank(d) == Some(tile))
    }

    /// Pushes `tile` into the blank, if it stands next to it.
    pub fn push(&mut self, tile: u8) -> bool {
        self.direction_of(tile)
            .and_then(|d| self.move_blank(d))
            .is_some()
    }

    /// Plays a sequence of pushed tiles (Knuth's numbering) and returns the final position.
    pub fn replay(&self, moves: &[u8]) -> Result<Position, ReplayError> {
        let mut position = *self;
        for (index, &tile) in moves.iter().enumerate() {
            if !position.push(tile) {
                return Err(ReplayError { index, tile });
            }
        }
        Ok(position)
    }

    /// The position written in the user's notation: hex digits for boards of at most 16
    /// cells, otherwise decimal tiles separated by commas.
    pub fn notation(&self, convention: Convention) -> String {
        let shown = match convention {
            Convention::Knuth => *self,
            Convention::Korf => self.korf_flipped(),
        };
        format_tiles(shown.tiles(), self.board.uses_hex())
    }

    /// A move string (pieces pushed, Knuth's numbering) in the user's convention and notation.
    pub fn moves_notation(&self, moves: &[u8], convention: Convention) -> String {
        let shown: Vec<u8> = moves.iter().map(|&t| self.shown(t, convention)).collect();
        format_tiles(&shown, self.board.uses_hex())
    }

    /// A tile's number (Knuth's numbering) in the user's convention.
    fn shown(&self, tile: u8, convention: Convention) -> u8 {
        match convention {
            Convention::Knuth => tile,
            Convention::Korf => convert_tile(tile, self.board.cells()),
        }
    }
}

/// How `solve` writes a solution's moves (`--moves`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MoveNotation {
    /// The tiles pushed, one after the other (Knuth's output).
    #[default]
    Tiles,
    /// The blank's moves as U, D, L, R (the notation of puzzle sites).
    Blank,
    /// A picture of the board after each move.
    Board,
}

impl Position {
    /// The tile next to the blank in direction `d`, if there is a cell there.
    fn tile_beyond_blank(&self, d: Direction) -> Option<u8> {
        self.board
            .neighbour(self.blank(), d)
            .map(|cell| self.tiles[cell])
    }

    /// The board drawn in the user's convention (rows of tiles, the blank as `.`).
    pub fn picture(&self, convention: Convention) -> String {
        match convention {
            Convention::Knuth => self.to_string(),
            Convention::Korf => self.korf_flipped().to_string(),
        }
    }

    /// The pictures of the board after each move, each headed by the move's number and the
    /// tile pushed, in the user's numbering and in decimal as the pictures draw it.
    pub fn board_moves(&self, moves: &[u8], convention: Convention) -> String {
        let mut position = *self;
        let mut text = String::new();
        for (i, &tile) in moves.iter().enumerate() {
            if !position.push(tile) {
                break;
            }
            let name = self.shown(tile, convention);
            text.push_str(&format!(
                "{}. {name}\n{}",
                i + 1,
                position.picture(convention)
            ));
        }
        text
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({} {})",
            self.board,
            self.notation(Convention::Knuth)
        )
    }
}

impl fmt::Display for Position {
    /// The board drawn as rows of tiles, the blank shown as `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = if self.board.cells() > 10 { 2 } else { 1 };
        for r in 0..self.board.rows() {
            let row: Vec<String> = (0..self.board.cols())
                .map(|c| match self.tiles[r * self.board.cols() + c] {
                    0 => format!("{:>width$}", "."),
                    t => format!("{t:>width$}"),
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
}

/// Converts a tile number between Knuth's and Korf's conventions on a board of `n` cells.
fn convert_tile(tile: u8, n: usize) -> u8 {
    if tile == 0 {
        0
    } else {
        tile_number(n - usize::from(tile))
    }
}

/// A tile number as stored; callers have checked that it is below the number of cells (<= 25).
fn tile_number(value: usize) -> u8 {
    u8::try_from(value).unwrap_or(u8::MAX)
}

fn tile_name(tile: u8, hex: bool) -> String {
    if hex {
        format!("{tile:x}")
    } else {
        tile.to_string()
    }
}

/// Tiles as hex digits run together, or as decimal numbers separated by commas.
pub fn format_tiles(tiles: &[u8], hex: bool) -> String {
    if hex {
        tiles.iter().map(|&t| tile_name(t, true)).collect()
    } else {
        tiles
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The values of one row of a position (or of the whole position): decimal numbers separated
/// by commas or spaces, else hex digits; and whether they were hex digits.
pub(crate) fn row_values(text: &str) -> Result<(Vec<usize>, bool), PositionError> {
    if text.contains(|c: char| c == ',' || c.is_whitespace()) {
        let values = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|token| !token.is_empty())
            .map(|token| {
                token
                    .parse::<usize>()
                    .map_err(|_| PositionError::NotANumber(token.to_string()))
            })
            .collect::<Result<Vec<usize>, _>>()?;
        return Ok((values, false));
    }
    let values = text
        .chars()
        .map(|c| {
            c.to_digit(16)
                .map(|d| d as usize)
                .ok_or(PositionError::NotHex)
        })
        .collect::<Result<Vec<usize>, _>>()?;
    Ok((values, true))
}

/// The board recognised from a number of tiles alone.
pub fn infer_board(count: usize) -> Result<Board, PositionError> {
    let (rows, cols) = match count {
        4 => (2, 2),
        9 => (3, 3),
        12 => (3, 4),
        16 => (4, 4),
        25 => (5, 5),
        // Say --size only where some board has that many cells.
        found if (2..=5).any(|rows| found % rows == 0 && (2..=5).contains(&(found / rows))) => {
            return Err(PositionError::UnknownSize { found })
        }
        found => return Err(PositionError::NoBoard { found }),
    };
    Board::new(rows, cols).map_err(|_| PositionError::UnknownSize { found: count })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Position, PositionError> {
        Position::parse(text, None, Convention::Knuth)
    }

    #[test]
    fn knuth_examples() {
        let p = parse("159d26ae37bf48c0").expect("valid");
        assert_eq!(p.manhattan(), 40);
        assert!(p.is_solvable());
        let q = parse("bc9e80df3412a756").expect("valid");
        assert_eq!(q.manhattan(), 56);
        assert!(parse("123456789abcdef0").expect("valid").is_goal());
        assert!(!parse("123456789abcdfe0").expect("valid").is_solvable());
    }

    #[test]
    fn korf_convention_round_trips() {
        // Korf's instance 1, both conventions, from korf100.tsv.
        let korf = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
        let p = Position::parse(korf, None, Convention::Korf).expect("valid");
        assert_eq!(p.notation(Convention::Knuth), "d68cfe0ab7459132");
        assert_eq!(p.notation(Convention::Korf), "edf7bc95602148a3");
        assert_eq!(p.manhattan(), 41);
        let goal = Position::parse("0123456789abcdef", None, Convention::Korf).expect("valid");
        assert!(goal.is_goal());
    }

    #[test]
    fn rows_as_players_write_them_give_the_board() {
        let board = |r, c| Board::new(r, c).expect("a board");
        let p = parse("1 2 3/4 5 6/7 8 0").expect("rows");
        assert_eq!(p, parse("123456780").expect("hex"));
        // Six tiles are 2x3 or 3x2: the rows tell which.
        assert_eq!(parse("1 2 3/4 5 0").map(|p| p.board()), Ok(board(2, 3)));
        assert_eq!(parse("1 2/3 4/5 0").map(|p| p.board()), Ok(board(3, 2)));
        assert_eq!(parse("12/30").map(|p| p.board()), Ok(board(2, 2)));
        assert_eq!(
            parse("1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0"),
            parse("123456789abcdef0")
        );
        assert_eq!(
            parse("1 2 3/4 5/6 7 8 0"),
            Err(PositionError::Ragged {
                row: 2,
                found: 2,
                expected: 3
            })
        );
        assert_eq!(
            parse("1/2/3/0"),
            Err(PositionError::NoShape { rows: 4, cols: 1 })
        );
        assert_eq!(
            Position::parse("1 2 3/4 5 0", Some(board(3, 2)), Convention::Knuth),
            Err(PositionError::WrongShape {
                rows: 2,
                cols: 3,
                board: board(3, 2)
            })
        );
    }

    #[test]
    fn errors_follow_knuth() {
        assert_eq!(parse("12345678g"), Err(PositionError::NotHex));
        assert_eq!(parse("123456788"), Err(PositionError::Twice("8".into())));
        assert_eq!(parse("1234567"), Err(PositionError::NoBoard { found: 7 }));
        assert_eq!(parse("123"), Err(PositionError::NoBoard { found: 3 }));
        assert_eq!(
            parse("12345670"),
            Err(PositionError::UnknownSize { found: 8 })
        );
        assert_eq!(
            parse("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,0"),
            Err(PositionError::NoBoard { found: 19 })
        );
        assert_eq!(
            Position::parse("1234567", Board::new(3, 3).ok(), Convention::Knuth),
            Err(PositionError::TooFew {
                found: 7,
                board: Board::new(3, 3).expect("3x3"),
                missing: vec!["0".into(), "8".into()]
            })
        );
        assert_eq!(parse("1,2,x"), Err(PositionError::NotANumber("x".into())));
        assert!(matches!(
            parse("1,2,3,4,5,6,7,8,9"),
            Err(PositionError::OutOfRange { .. })
        ));
        assert_eq!(parse(""), Err(PositionError::Empty));
    }

    #[test]
    fn five_by_five_uses_decimal() {
        let text: Vec<String> = (1..25).chain(0..1).map(|t| t.to_string()).collect();
        let p = parse(&text.join(",")).expect("valid");
        assert!(p.is_goal());
        assert_eq!(p.notation(Convention::Knuth), text.join(","));
        assert!(matches!(
            Position::parse("123", Board::new(5, 5).ok(), Convention::Knuth),
            Err(PositionError::HexTooLarge(_))
        ));
    }

    #[test]
    fn replay_checks_adjacency() {
        let goal = Position::goal(Board::fifteen());
        let after = goal.replay(&[12, 8]).expect("legal moves");
        assert_eq!(after.notation(Convention::Knuth), "123456709ab8defc");
        assert_eq!(goal.replay(&[1]), Err(ReplayError { index: 0, tile: 1 }));
    }
}
