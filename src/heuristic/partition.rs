//! Partitions: which tiles share a pattern database.
//!
//! An additive partition splits the tiles of a board into disjoint groups; each group's table
//! counts only the moves of its own tiles, so the sum over groups never overestimates. The
//! presets are the classic ones (in Knuth's numbering, tile `x` at home on cell `x - 1`, blank
//! last): 4x4 `5-5-5`, `6-6-3` and `7-8` (Korf & Felner 2002), a single exact table for the
//! 8-puzzle, halves of the 3x4 and 4x3 boards, and quadrants of the 5x5 board (`6-6-6-6`).
//!
//! Invariant: the groups of a partition are non-empty, disjoint, and cover every tile of the
//! board exactly once; at most [`MAX_GROUPS`] of them.

use crate::board::Board;
use std::fmt;

/// Most groups in one partition (the automaton packs one byte per group and per reflection
/// into a `u128`).
pub const MAX_GROUPS: usize = 8;

/// The tiles of each group, in slot order (Knuth's numbering).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    board: Board,
    name: String,
    groups: Vec<Vec<u8>>,
}

/// The preset partitions of each board: (board, name, groups).
const PRESETS: &[(usize, usize, &str, &[&[u8]])] = &[
    (3, 3, "8", &[&[1, 2, 3, 4, 5, 6, 7, 8]]),
    (3, 4, "6-5", &[&[1, 2, 5, 6, 9, 10], &[3, 4, 7, 8, 11]]),
    (4, 3, "6-5", &[&[1, 2, 3, 4, 5, 6], &[7, 8, 9, 10, 11]]),
    (
        4,
        4,
        "5-5-5",
        &[&[1, 2, 3, 4, 7], &[5, 6, 9, 10, 13], &[8, 11, 12, 14, 15]],
    ),
    (
        4,
        4,
        "6-6-3",
        &[&[1, 5, 6, 9, 10, 13], &[7, 8, 11, 12, 14, 15], &[2, 3, 4]],
    ),
    (
        4,
        4,
        "7-8",
        &[&[1, 2, 3, 4, 5, 6, 7, 8], &[9, 10, 11, 12, 13, 14, 15]],
    ),
    (
        5,
        5,
        "6-6-6-6",
        &[
            &[1, 2, 3, 6, 7, 8],
            &[4, 5, 9, 10, 14, 15],
            &[11, 12, 16, 17, 21, 22],
            &[13, 18, 19, 20, 23, 24],
        ],
    ),
];

/// A partition that is not one of the presets, or not a partition at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    #[error("there is no pattern database {name:?} for the {board} board; {}", known(*board))]
    Unknown { name: String, board: Board },
    #[error("the groups must cover tiles 1 to {last} once each: {problem}")]
    NotAPartition { last: usize, problem: String },
    #[error("not a catalogue: {problem}")]
    NotACatalogue { problem: String },
}

fn known(board: Board) -> String {
    let mut names = Partition::names(board);
    names.extend(super::catalogue::Catalogue::names(board));
    if names.is_empty() {
        "this board has only --heuristic manhattan".to_string()
    } else {
        format!("choose manhattan or {}", names.join(", "))
    }
}

impl Partition {
    /// A partition from its groups, checked.
    pub fn new(
        board: Board,
        name: &str,
        groups: Vec<Vec<u8>>,
    ) -> Result<Partition, PartitionError> {
        let last = board.cells() - 1;
        let bad = |problem: String| PartitionError::NotAPartition { last, problem };
        if groups.is_empty() || groups.len() > MAX_GROUPS {
            return Err(bad(format!(
                "1 to {MAX_GROUPS} groups, not {}",
                groups.len()
            )));
        }
        let mut seen = vec![false; last + 1];
        for &tile in groups.iter().flatten() {
            let slot = seen
                .get_mut(usize::from(tile))
                .filter(|_| tile >= 1)
                .ok_or_else(|| bad(format!("tile {tile} is not on the board")))?;
            if std::mem::replace(slot, true) {
                return Err(bad(format!("tile {tile} is in two groups")));
            }
        }
        if let Some(missing) = (1..=last).find(|&t| !seen[t]) {
            return Err(bad(format!("tile {missing} is in no group")));
        }
        if groups.iter().any(Vec::is_empty) {
            return Err(bad("a group is empty".into()));
        }
        // A lookup keeps its placement's rank in 32 bits (`pdb::Entries`).
        let placements =
            |k: usize| (0..k).fold(1u64, |p, j| p.saturating_mul((last + 1 - j) as u64));
        if let Some(group) = groups
            .iter()
            .find(|g| placements(g.len()) > u64::from(u32::MAX))
        {
            return Err(bad(format!(
                "a group of {} tiles has too many placements for a table",
                group.len()
            )));
        }
        Ok(Partition {
            board,
            name: name.to_string(),
            groups: toward(board, groups),
        })
    }

    /// The preset called `name` for `board`.
    pub fn preset(board: Board, name: &str) -> Result<Partition, PartitionError> {
        PRESETS
            .iter()
            .find(|(r, c, n, _)| (*r, *c) == (board.rows(), board.cols()) && *n == name)
            .map(|(_, _, n, groups)| Partition {
                board,
                name: n.to_string(),
                groups: toward(board, groups.iter().map(|g| g.to_vec()).collect()),
            })
            .ok_or_else(|| PartitionError::Unknown {
                name: name.to_string(),
                board,
            })
    }

    /// Every preset of every board.
    pub fn all() -> Vec<Partition> {
        PRESETS
            .iter()
            .filter_map(|(r, c, name, _)| Partition::preset(Board::new(*r, *c).ok()?, name).ok())
            .collect()
    }

    /// The boards that have a preset called `name` (`6-5`: 3x4 and 4x3).
    pub fn boards_of(name: &str) -> Vec<Board> {
        PRESETS
            .iter()
            .filter(|(_, _, n, _)| *n == name)
            .filter_map(|(r, c, _, _)| Board::new(*r, *c).ok())
            .collect()
    }

    /// The names of the presets for `board`, weakest first.
    pub fn names(board: Board) -> Vec<&'static str> {
        names_on(PRESETS, board)
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The groups' tiles (Knuth's numbering, on the board's goal: see [`toward`]).
    pub fn groups(&self) -> &[Vec<u8>] {
        &self.groups
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board.goal_name(), self.name)
    }
}

/// Groups written as on the standard goal (tile `t` is the piece of cell `t - 1`), as tiles of
/// `board`'s goal: the same cells, but that the cell of the goal's blank gives its piece to the
/// last cell. So a preset's groups stay regions of the board toward any goal.
fn toward(board: Board, groups: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let blank = board.blank_home();
    let tile = |t: u8| {
        let cell = match usize::from(t) - 1 {
            cell if cell == blank => board.cells() - 1,
            cell => cell,
        };
        // The tile at home `cell` (`Board::home` inverted).
        (if cell < blank { cell + 1 } else { cell }) as u8
    };
    if board.is_standard() {
        return groups;
    }
    let group = |group: Vec<u8>| {
        let mut tiles: Vec<u8> = group.into_iter().map(tile).collect();
        tiles.sort_unstable();
        tiles
    };
    groups.into_iter().map(group).collect()
}

/// The names of the rows of `table` (rows, columns, name, what it names) for `board`'s size.
pub(super) fn names_on<T>(
    table: &[(usize, usize, &'static str, T)],
    board: Board,
) -> Vec<&'static str> {
    table
        .iter()
        .filter(|(r, c, _, _)| (*r, *c) == (board.rows(), board.cols()))
        .map(|(_, _, n, _)| *n)
        .collect()
}

/// The reflection about the main diagonal, on square boards: cell `(r, c)` goes to `(c, r)`.
/// It maps the goal to itself when the goal's blank is on the diagonal (the last cell is), so
/// the reflected position needs as many moves as the position, and a table looked up on it is
/// a second lower bound; toward another goal there is none.
pub fn mirror_cells(board: Board) -> Option<Vec<u8>> {
    let blank = board.blank_home();
    (board.rows() == board.cols() && board.row(blank) == board.col(blank)).then(|| {
        (0..board.cells())
            .map(|cell| (board.col(cell) * board.cols() + board.row(cell)) as u8)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_partitions() {
        for (rows, cols, name, groups) in PRESETS {
            let board = Board::new(*rows, *cols).expect("valid board");
            let groups = groups.iter().map(|g| g.to_vec()).collect();
            let checked = Partition::new(board, name, groups);
            assert!(checked.is_ok(), "{board} {name}: {checked:?}");
            assert_eq!(Partition::preset(board, name), checked);
        }
        let fifteen = Board::fifteen();
        assert_eq!(Partition::names(fifteen), ["5-5-5", "6-6-3", "7-8"]);
        assert!(Partition::preset(fifteen, "8").is_err());
        let names = |boards: Vec<Board>| boards.iter().map(Board::to_string).collect::<Vec<_>>();
        assert_eq!(names(Partition::boards_of("6-6-6-6")), ["5x5"]);
        assert_eq!(names(Partition::boards_of("6-5")), ["3x4", "4x3"]);
        assert!(Partition::boards_of("6-6").is_empty());
    }

    #[test]
    fn bad_partitions_are_named() {
        let board = Board::new(2, 2).expect("valid board");
        let error = |groups: Vec<Vec<u8>>| {
            Partition::new(board, "x", groups)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(error(vec![vec![1, 2]]).contains("tile 3 is in no group"));
        assert!(error(vec![vec![1, 2], vec![2, 3]]).contains("tile 2 is in two groups"));
        assert!(error(vec![vec![1, 2, 3, 4]]).contains("tile 4 is not on the board"));
        assert!(error(vec![vec![0, 1, 2, 3]]).contains("tile 0 is not on the board"));
        // Eight tiles of 5x5 have 25!/17! placements, more than a 32-bit rank holds.
        let five = Board::new(5, 5).expect("valid board");
        let groups = vec![(1..=8).collect(), (9..=16).collect(), (17..=24).collect()];
        let refused = Partition::new(five, "8-8-8", groups)
            .err()
            .map(|e| e.to_string());
        assert!(
            refused
                .as_deref()
                .unwrap_or_default()
                .contains("a group of 8 tiles has too many"),
            "{refused:?}"
        );
        let groups = vec![(1..=7).collect(), (8..=14).collect(), (15..=24).collect()];
        assert!(Partition::new(five, "7-7-10", groups).is_err());
    }

    #[test]
    fn the_mirror_fixes_the_goal_and_is_an_involution() {
        for side in 2..=5 {
            let board = Board::new(side, side).expect("valid board");
            let mirror = mirror_cells(board).expect("square");
            let last = board.cells() - 1;
            assert_eq!(usize::from(mirror[last]), last);
            for cell in 0..board.cells() {
                assert_eq!(usize::from(mirror[usize::from(mirror[cell])]), cell);
            }
        }
        assert_eq!(mirror_cells(Board::new(3, 4).expect("valid board")), None);
    }
}
