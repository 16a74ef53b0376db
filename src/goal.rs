//! Goals other than the standard one (`--goal`), served by every engine and every table
//! unchanged: the problem "from `start` to `goal`" is turned into the standard problem by a
//! symmetry of the board and a relabelling of the tiles, solved as usual, and its answer turned
//! back.
//!
//! - The *symmetry* (a mirror of the rows, of the columns, or both) brings the goal's blank as
//!   near the last cell as it goes: to the last cell from a corner (the standard goal's), into
//!   the last quarter of the board from elsewhere (on 4x4 a centre cell goes to the diagonal,
//!   where the tables' reflection still serves). Mirrors keep every move a move and every
//!   distance a distance.
//! - Off the corners the standard problem is on the board whose goal has the blank on that
//!   cell ([`Board::with_blank_home`]): every tile's home, Manhattan and walking distance, the
//!   pattern databases (built for that goal, named after it) and the automaton follow from it;
//!   the MTM automaton and the relabelled 4x4 table, built for the last cell, refuse it
//!   ([`Goal::in_corner`] tells which).
//! - The *relabelling* renames each tile after the standard goal's tile on the cell where the
//!   mirrored goal has it, so that the mirrored goal becomes the standard one.
//!
//! A goal of either parity is served: a start reaches it exactly when its standard problem is
//! solvable (when both are of one class; Loyd's 14-15 puzzle is solved from its own side).
//!
//! Invariant: `standard(p)` is as many moves from the standard goal as `p` is from the goal,
//! and the tiles pushed on a path of `standard(p)`, renamed back by [`Goal::tiles_back`], are
//! pushed on the path of `p` (a mirror moves the same tiles; it only turns their directions).
//! Manhattan distances, happy and sad moves carry over: a tile's distance to its home is kept
//! by the mirror.

use crate::board::Board;
use crate::engine::{Answer, Engine, EngineError, Progress, SearchOptions};
use crate::position::{Position, PositionError, Subject};

/// A goal position, ready to turn problems into standard ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    goal: Position,
    /// The board of the standard problems: the goal's, or with the blank's home on the goal's
    /// blank cell when that is not a corner.
    searched: Board,
    flip_rows: bool,
    flip_cols: bool,
    /// `to_standard[t]`: the standard name of the goal's tile `t`.
    to_standard: Vec<u8>,
    /// `from_standard[s]`: the goal's tile that the standard tile `s` stands for.
    from_standard: Vec<u8>,
}

/// A start that cannot be turned toward the goal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoalError {
    #[error("the goal has a {goal} board and the position a {start} board")]
    OtherBoard { goal: String, start: String },
}

impl Goal {
    /// The goal `goal` (in Knuth's numbering, as every position inside), its blank on any cell.
    pub fn new(goal: Position) -> Goal {
        let board = goal.board();
        let blank = goal.blank();
        let (row, col) = (board.row(blank), board.col(blank));
        // The mirrors that bring the blank nearest the last cell (to it from a corner).
        let flip_rows = 2 * row < board.rows() - 1;
        let flip_cols = 2 * col < board.cols() - 1;
        let row = if flip_rows {
            board.rows() - 1 - row
        } else {
            row
        };
        let col = if flip_cols {
            board.cols() - 1 - col
        } else {
            col
        };
        let mut this = Goal {
            goal,
            searched: board.with_blank_home(row * board.cols() + col),
            flip_rows,
            flip_cols,
            to_standard: vec![0; board.cells()],
            from_standard: vec![0; board.cells()],
        };
        let mirrored = this.mirror(&goal);
        let standard = Position::goal(this.searched);
        for cell in 0..board.cells() {
            let (tile, name) = (mirrored.tile(cell), standard.tile(cell));
            this.to_standard[usize::from(tile)] = name;
            this.from_standard[usize::from(name)] = tile;
        }
        this
    }

    /// Whether the goal's blank is in a corner: its standard problems are on the standard
    /// board, which every engine and table serves.
    pub fn in_corner(&self) -> bool {
        self.searched.is_standard()
    }

    /// The board of the standard problems: the goal's, or on a goal whose blank is not in a
    /// corner, the board with the blank's home on the goal's blank cell.
    pub fn searched(&self) -> Board {
        self.searched
    }

    /// The goal as given.
    pub fn position(&self) -> Position {
        self.goal
    }

    /// Whether this is the standard goal (nothing to turn).
    pub fn is_standard(&self) -> bool {
        self.goal.is_goal()
    }

    /// `position` with its cells mirrored as the goal's are.
    fn mirror(&self, position: &Position) -> Position {
        let board = position.board();
        let tiles: Vec<u8> = (0..board.cells())
            .map(|cell| {
                let (mut row, mut col) = (board.row(cell), board.col(cell));
                if self.flip_rows {
                    row = board.rows() - 1 - row;
                }
                if self.flip_cols {
                    col = board.cols() - 1 - col;
                }
                position.tile(row * board.cols() + col)
            })
            .collect();
        // A mirror of a permutation is a permutation of the same board.
        Position::from_tiles(board, &tiles).unwrap_or(*position)
    }

    /// The standard problem of `start` (toward this goal): mirrored and relabelled. Solvable
    /// exactly when `start` can reach the goal.
    pub fn standard(&self, start: &Position) -> Result<Position, GoalError> {
        if start.board() != self.goal.board() {
            return Err(GoalError::OtherBoard {
                goal: self.goal.board().to_string(),
                start: start.board().to_string(),
            });
        }
        Ok(Self::relabel(
            &self.mirror(start),
            &self.to_standard,
            self.searched,
        ))
    }

    /// The position whose standard problem is `standard` (the inverse of [`Goal::standard`]).
    pub fn from_standard(&self, standard: &Position) -> Position {
        self.mirror(&Self::relabel(
            standard,
            &self.from_standard,
            self.goal.board(),
        ))
    }

    /// `position` with its tiles renamed by `names`, on `board` (of its size).
    fn relabel(position: &Position, names: &[u8], board: Board) -> Position {
        let tiles: Vec<u8> = position
            .tiles()
            .iter()
            .map(|&t| names[usize::from(t)])
            .collect();
        // Renaming the tiles of a permutation one-to-one (the blank stays 0) is one too.
        Position::from_tiles(board, &tiles).unwrap_or(*position)
    }

    /// The tiles pushed on a path toward the goal, as the tiles of the standard problem (the
    /// inverse of [`Goal::tiles_back`]).
    pub fn tiles_forward(&self, moves: &[u8]) -> Vec<u8> {
        moves
            .iter()
            .map(|&t| self.to_standard[usize::from(t)])
            .collect()
    }

    /// The tiles pushed on a path of the standard problem, as the tiles of the given goal's
    /// problem.
    pub fn tiles_back(&self, moves: &[u8]) -> Vec<u8> {
        moves
            .iter()
            .map(|&t| self.from_standard[usize::from(t)])
            .collect()
    }
}

impl Goal {
    /// Whether `start` can reach this goal.
    pub fn reachable(&self, start: &Position) -> bool {
        self.standard(start).is_ok_and(|p| p.is_solvable())
    }

    /// Whether the tiles `moves` pushed from `start` lead to this goal.
    pub fn reached(&self, start: &Position, moves: &[u8]) -> bool {
        start.replay(moves).is_ok_and(|end| end == self.goal)
    }
}

/// An engine searching toward a goal: it solves the standard problem and gives its answers back
/// in the tiles of the start (node counts and bounds are the standard problem's, which are the
/// same search).
pub struct Toward {
    pub engine: Box<dyn Engine>,
    pub goal: Goal,
}

impl Engine for Toward {
    fn name(&self) -> &'static str {
        self.engine.name()
    }

    fn iterative_deepening(&self) -> bool {
        self.engine.iterative_deepening()
    }

    fn solve(&self, start: &Position, options: &SearchOptions, progress: Progress<'_>) -> Answer {
        if let Some(board) = options.heuristic.board() {
            if board != self.goal.searched() {
                return Err(EngineError::Limit(format!(
                    "the tables of --heuristic {} are built for {}, not for this goal ({})",
                    options.heuristic.name(),
                    board.goal_name(),
                    self.goal.searched().goal_name()
                )));
            }
        }
        let standard = self
            .goal
            .standard(start)
            .map_err(|e| EngineError::Limit(e.to_string()))?;
        let mut outcome = self.engine.solve(&standard, options, progress)?;
        for solution in &mut outcome.solutions {
            solution.moves = self.goal.tiles_back(&solution.moves);
        }
        Ok(outcome)
    }
}

/// Reads a goal written as a position is (the same board size and convention as the start).
pub fn parse(
    text: &str,
    board: Option<crate::Board>,
    convention: crate::Convention,
) -> Result<Goal, String> {
    parse_position(text, board, convention).map(Goal::new)
}

/// Reads a goal as a replay takes it: any position (no symmetry is needed to replay moves).
pub fn parse_position(
    text: &str,
    board: Option<crate::Board>,
    convention: crate::Convention,
) -> Result<Position, String> {
    Position::parse(text, board, convention)
        .map_err(|e: PositionError| format!("--goal {text:?}: {}", e.message(Subject::Goal)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::Convention;

    fn parse_position(text: &str) -> Position {
        Position::parse(text, None, Convention::Knuth).expect("a position")
    }

    #[test]
    fn the_standard_goal_changes_nothing() {
        let goal = Goal::new(Position::goal(Board::fifteen()));
        assert!(goal.is_standard());
        let start = parse_position("d68cfe0ab7459132");
        assert_eq!(goal.standard(&start), Ok(start));
        assert_eq!(goal.tiles_back(&[1, 2, 15]), vec![1, 2, 15]);
    }

    /// A mirror brings the goal's blank as near the last cell as it goes: into the last
    /// quarter, a centre cell to the diagonal (where the tables' reflection serves).
    #[test]
    fn the_blank_goes_near_the_last_cell() {
        for (text, cell) in [
            ("0123456789abcdef", 15),
            ("1234506789abcdef", 10),
            ("1234560789abcdef", 10),
            ("123456789abcde0f", 14),
            ("1023456789abcdef", 14),
            ("1234056789abcdef", 11),
        ] {
            let searched = Goal::new(parse_position(text)).searched();
            assert_eq!(searched.blank_home(), cell, "{text}");
        }
        let three = Goal::new(parse_position("123405678")).searched();
        assert_eq!(three.blank_home(), 4);
        assert_eq!(three.goal_name(), "3x3-blank-r2c2");
        assert_eq!(Board::from_goal_name("3x3-blank-r2c2"), Some(three));
        assert_eq!(Board::from_goal_name("3x3-blank-r4c2"), None);
        assert_eq!(Board::from_goal_name("4x4"), Some(Board::fifteen()));
    }

    #[test]
    fn each_goal_becomes_a_standard_one() {
        for text in [
            "0123456789abcdef",
            "1230456789abcdef",
            "123456789abc0def",
            "123456789ab0cdef",
            "1234506789abcdef",
        ] {
            let goal = Goal::new(parse_position(text));
            let corner = !text.contains("b0c") && !text.contains("506");
            assert_eq!(goal.in_corner(), corner, "{text}");
            assert!(goal.standard(&goal.position()).expect("a board").is_goal());
            let start = parse_position("d68cfe0ab7459132");
            let standard = goal.standard(&start).expect("a board");
            assert_eq!(goal.from_standard(&standard), start);
            // Distances kept: the Manhattan distance toward the goal, tile by tile.
            let toward = |p: &Position| -> usize {
                let board = p.board();
                (0..board.cells())
                    .filter(|&cell| p.tile(cell) != 0)
                    .map(|cell| {
                        let home = goal
                            .position()
                            .tiles()
                            .iter()
                            .position(|&t| t == p.tile(cell));
                        let home = home.expect("every tile");
                        board.row(cell).abs_diff(board.row(home))
                            + board.col(cell).abs_diff(board.col(home))
                    })
                    .sum()
            };
            assert_eq!(standard.manhattan(), toward(&start), "{text}");
        }
    }

    #[test]
    fn goals_of_the_other_parity_or_board_are_told() {
        // Loyd's 14-15 puzzle, the other parity: reached from its own class only.
        let loyd = Goal::new(parse_position("123456789abcdfe0"));
        assert!(!loyd.reachable(&parse_position("d68cfe0ab7459132")));
        assert!(loyd.reachable(&parse_position("123456789abcdf0e")));
        assert!(loyd.standard(&loyd.position()).expect("a board").is_goal());
        let goal = Goal::new(parse_position("0123456789abcdef"));
        assert!(matches!(
            goal.standard(&parse_position("123456780")),
            Err(GoalError::OtherBoard { .. })
        ));
    }
}
