//! The MTM lower bound: walking distance along each axis, combined with the rule that an MTM
//! path alternates axes.
//!
//! Vertical MTM moves change only the vertical part of the walking distance and horizontal
//! ones only the horizontal part ([`super::walking`]), so a path needs at least `a` vertical
//! and `b` horizontal moves (`a`, `b` the two parts' distances). In the MTM tree moves
//! alternate between the axes, so a path of `n` moves that starts vertically has
//! `ceil(n / 2)` vertical and `floor(n / 2)` horizontal moves: `n >= max(2a - 1, 2b)`; one that
//! starts horizontally `n >= max(2b - 1, 2a)`. A node reached by a vertical move must go on
//! horizontally, and the root may start either way (the smaller of the two). This is never
//! below `a + b`, and often well above it when one axis dominates.
//!
//! Parts whose walking-distance tables would be too large (5 lines of 4 or 5 cells: the
//! columns of 4x5, the rows of 5x4, both of 5x5) fall back to the same
//! combination of a weaker part per axis: the tiles' distances along the axis, summed, over
//! `lines - 1` (one jump moves at most that many tiles one line each), rounded up.
//!
//! On 4x4 the relabelled board's table ([`super::relabel`]) is the bound, alone: walking
//! distance left out, and 1 where the table says 0 but the tiles are not the goal's. Taken
//! with the table, walking distance cut Korf's 100 from 380.1 M nodes to 293.9 M, but a node
//! cost 46 ns against 29 ns without it (the parts' steps are a chain of dependent loads before
//! every lookup): 10.9-11.1 s without it against 12.8-13.3 s with it, one thread, interleaved
//! (2026-11-27).
//!
//! Invariant: [`LowerBound::combine`] of the parts of a position never exceeds the number of
//! MTM moves of any path in the tree from it, and is 0 only at the goal; so does
//! [`LowerBound::relabelled`].

use super::moves::Axis;
use super::relabel::{Codes, RelabelTable};
use super::walking::WalkTable;
use crate::board::Board;
use crate::position::Position;
use std::sync::Arc;

/// The most abstract states a walking-distance table may have. The 4x4 parts have 24,964
/// states, 4 lines of 5 cells 107,712 and 5 lines of 3 cells 352,560; 5 lines of 4 cells have
/// 5,977,015 (11 seconds to build) and 5 of 5 more than 20 million: those parts fall back,
/// after a second or so spent finding out.
pub const MAX_WALK_STATES: usize = 1_000_000;

/// One axis's part of the bound.
#[derive(Clone, Debug)]
pub enum Part {
    /// Walking distance in MTM: the state is a table's state number.
    Walking(WalkTable),
    /// The sum of the tiles' distances along the axis; the part is it over `lines - 1`,
    /// rounded up.
    Distances { lines: u32 },
}

impl Part {
    /// The part of an axis of `lines` lines of `width` cells, the goal's blank in line `blank`.
    fn new(lines: usize, width: usize, blank: usize) -> Part {
        match WalkTable::build(lines, width, blank, MAX_WALK_STATES) {
            Some(table) => Part::Walking(table),
            None => Part::Distances {
                lines: lines as u32,
            },
        }
    }

    /// The part's state for a board seen along this axis: `(line, class)` of every cell, the
    /// class `None` for the blank.
    fn state(&self, cells: impl Iterator<Item = (usize, Option<usize>)>) -> u32 {
        match self {
            Part::Walking(table) => table.state_of(cells).unwrap_or(0),
            Part::Distances { .. } => cells
                .filter_map(|(line, class)| class.map(|c| line.abs_diff(c) as u32))
                .sum(),
        }
    }

    /// The state after a tile of `class` moves from line `from` to the next line `to` (and the
    /// blank the other way).
    #[inline]
    pub fn step(&self, state: u32, class: usize, from: usize, to: usize) -> u32 {
        match self {
            Part::Walking(table) => table.step(state, usize::from(to < from), class),
            Part::Distances { .. } => {
                if to.abs_diff(class) < from.abs_diff(class) {
                    state - 1
                } else {
                    state + 1
                }
            }
        }
    }

    /// The fewest moves along this axis from a state.
    #[inline]
    pub fn distance(&self, state: u32) -> u32 {
        match self {
            Part::Walking(table) => table.distance(state),
            Part::Distances { lines } => state.div_ceil(lines - 1),
        }
    }

    /// What the part is, for `--stats` and `--json`.
    pub fn name(&self) -> &'static str {
        match self {
            Part::Walking(_) => "walking distance",
            Part::Distances { .. } => "distances over jump length",
        }
    }
}

/// The lower bound of one board: its vertical part (rows) and horizontal part (columns).
#[derive(Clone, Debug)]
pub struct LowerBound {
    board: Board,
    pub vertical: Part,
    pub horizontal: Part,
    /// On 4x4, the relabelled board's table ([`super::relabel`]), when it is used.
    pub table: Option<Arc<RelabelTable>>,
}

impl LowerBound {
    /// The bound of a board, its tables built (milliseconds for boards up to 4x4).
    pub fn new(board: Board) -> LowerBound {
        let blank = board.home(0);
        let (row, col) = (board.row(blank), board.col(blank));
        let vertical = Part::new(board.rows(), board.cols(), row);
        let horizontal = if board.rows() == board.cols() && row == col {
            vertical.clone()
        } else {
            Part::new(board.cols(), board.rows(), col)
        };
        LowerBound {
            board,
            vertical,
            horizontal,
            table: None,
        }
    }

    /// The same bound, also at least the relabelled table's (4x4 only; other boards ignore it).
    pub fn with_table(mut self, table: Arc<RelabelTable>) -> LowerBound {
        if self.board == Board::fifteen() {
            self.table = Some(table);
        }
        self
    }

    /// The table's part of the bound of a node's tiles (0 without a table).
    #[inline]
    pub fn table_estimate(&self, tiles: &[u8]) -> u32 {
        let distances = self.codes(tiles).distances;
        distances.into_iter().max().map_or(0, u32::from)
    }

    /// The relabelled board's codes of a node's tiles with their exact distances, for a node
    /// met without its parent (a root); without a table, nothing to keep.
    pub fn codes(&self, tiles: &[u8]) -> Codes {
        self.table
            .as_ref()
            .map_or_else(Codes::default, |t| t.looked_up(tiles))
    }

    /// The name of the bound, as `--stats` and `--json` show it.
    pub fn name(&self) -> String {
        let (v, h) = (self.vertical.name(), self.horizontal.name());
        match self.table {
            Some(_) => "the relabelled-board table".to_string(),
            None if v == h => format!("{v} in MTM"),
            None => format!("{v} (rows), {h} (columns) in MTM"),
        }
    }

    /// The states of both parts for a position: (vertical, horizontal).
    pub fn states(&self, position: &Position) -> (u32, u32) {
        let board = self.board;
        let class = |cell: usize, of: fn(Board, usize) -> usize| {
            let tile = position.tile(cell);
            (tile != 0).then(|| of(board, board.home(tile)))
        };
        let vertical = self
            .vertical
            .state((0..board.cells()).map(|cell| (board.row(cell), class(cell, Board::row))));
        let horizontal = self
            .horizontal
            .state((0..board.cells()).map(|cell| (board.col(cell), class(cell, Board::col))));
        (vertical, horizontal)
    }

    /// The bound of a node whose parts are in the given states and whose next move must be on
    /// `next` (any axis at the root: `None`).
    #[inline]
    pub fn combine(&self, vertical: u32, horizontal: u32, next: Option<Axis>) -> u32 {
        alternating(
            self.vertical.distance(vertical),
            self.horizontal.distance(horizontal),
            next,
        )
    }

    /// The codes of a child's tiles, carrying its parent's distances (`parent`) until
    /// [`LowerBound::child`] looks it up; without a table, nothing to keep.
    #[inline]
    pub fn child_codes(&self, parent: Codes, tiles: &[u8]) -> Codes {
        match self.table {
            Some(_) => Codes {
                distances: parent.distances,
                ..Codes::of(tiles)
            },
            None => Codes::default(),
        }
    }

    /// The bound of a child: without a table its walking-distance part `walking`
    /// ([`LowerBound::combine`]); with one, [`LowerBound::relabelled`] of its codes.
    #[inline]
    pub fn child(
        &self,
        walking: u32,
        codes: &mut Codes,
        (budget, settled): (u32, u32),
        at_goal: impl FnOnce() -> bool,
    ) -> u32 {
        match &self.table {
            Some(_) => self.relabelled(codes, (budget, settled), at_goal),
            None => walking,
        }
    }

    /// The table's bound of a child whose relabelled board has the codes `codes` (their
    /// distances, the parent's, become the child's as far as they are looked up), or 1 where
    /// the table says 0 and the child is not the goal (`at_goal`, asked only then); without a
    /// table, 1 unless at the goal. Looked up only as far as it can matter: the child is
    /// searched when its bound is at most `budget`, and a child cut off changes the next bound
    /// only when its bound is below `settled`. So the exact bound (that of
    /// [`LowerBound::table_estimate`]) when it is at most `budget` or below `settled`;
    /// otherwise some value above `budget`, at least `settled`, and at most the exact bound:
    /// the search's tree, node counts and next bounds are those of the exact bound.
    #[inline]
    pub fn relabelled(
        &self,
        codes: &mut Codes,
        (budget, settled): (u32, u32),
        at_goal: impl FnOnce() -> bool,
    ) -> u32 {
        let estimate = match &self.table {
            Some(table) => table.at_least(codes, budget, settled),
            None => 0,
        };
        match estimate {
            0 => u32::from(!at_goal()),
            estimate => estimate,
        }
    }

    /// Asks for the table entries of a node's codes (without a table, nothing).
    #[inline(always)]
    pub fn prefetch(&self, codes: Codes) {
        if let Some(table) = &self.table {
            table.prefetch(codes);
        }
    }

    /// The bound of a position at the root of a search.
    pub fn estimate(&self, position: &Position) -> u32 {
        match self.table {
            Some(_) => self
                .table_estimate(position.tiles())
                .max(u32::from(!position.is_goal())),
            None => {
                let (v, h) = self.states(position);
                self.combine(v, h, None)
            }
        }
    }
}

/// The fewest moves of a path that alternates axes, needs `a` vertical and `b` horizontal
/// moves, and starts on `next` (either, when `None`).
#[inline]
pub fn alternating(a: u32, b: u32, next: Option<Axis>) -> u32 {
    let starting_vertically = (2 * a).saturating_sub(1).max(2 * b);
    let starting_horizontally = (2 * b).saturating_sub(1).max(2 * a);
    match next {
        Some(Axis::Vertical) => starting_vertically,
        Some(Axis::Horizontal) => starting_horizontally,
        None => starting_vertically.min(starting_horizontally),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Direction;
    use crate::mtm::moves::{play_all, Jump};

    fn after(board: Board, jumps: &[(Direction, u8)]) -> Position {
        let jumps: Vec<Jump> = jumps
            .iter()
            .map(|&(direction, distance)| Jump {
                direction,
                distance,
            })
            .collect();
        play_all(&Position::goal(board), &jumps)
            .expect("on the board")
            .0
    }

    #[test]
    fn alternation_counts_the_moves_between() {
        assert_eq!(alternating(0, 0, None), 0);
        assert_eq!(alternating(1, 0, None), 1);
        assert_eq!(alternating(1, 0, Some(Axis::Horizontal)), 2);
        assert_eq!(alternating(2, 0, None), 3);
        assert_eq!(alternating(2, 2, None), 4);
        assert_eq!(alternating(3, 1, Some(Axis::Vertical)), 5);
        assert_eq!(alternating(3, 1, Some(Axis::Horizontal)), 6);
    }

    #[test]
    fn positions_a_jump_or_two_away() {
        let bound = LowerBound::new(Board::fifteen());
        assert_eq!(bound.name(), "walking distance in MTM");
        assert_eq!(bound.estimate(&after(Board::fifteen(), &[])), 0);
        assert_eq!(
            bound.estimate(&after(Board::fifteen(), &[(Direction::North, 3)])),
            1
        );
        assert_eq!(
            bound.estimate(&after(Board::fifteen(), &[(Direction::West, 2)])),
            1
        );
        let two = after(
            Board::fifteen(),
            &[(Direction::North, 1), (Direction::West, 3)],
        );
        assert_eq!(bound.estimate(&two), 2);
    }

    /// Toward a goal with the blank on any cell (issue 53), the bound is 0 at the goal alone
    /// and never above the MTM distance: checked on every position within three jumps of the
    /// goal, found breadth-first, on 3x3, 3x4 and 4x4 with the goal's blank on each cell.
    #[test]
    fn the_bound_toward_a_goal_with_the_blank_anywhere() {
        use std::collections::HashMap;
        for (rows, cols) in [(3, 3), (3, 4), (4, 4)] {
            let standard = Board::new(rows, cols).expect("valid");
            for cell in 0..standard.cells() {
                let board = standard.with_blank_home(cell);
                let bound = LowerBound::new(board);
                let goal = Position::goal(board);
                assert_eq!(goal.blank(), cell);
                let mut seen = HashMap::from([(goal, 0u32)]);
                let mut layer = vec![goal];
                for depth in 1..=3 {
                    let mut next = Vec::new();
                    for p in &layer {
                        for d in Direction::ALL {
                            let mut q = *p;
                            while q.move_blank(d).is_some() {
                                seen.entry(q).or_insert_with(|| {
                                    next.push(q);
                                    depth
                                });
                            }
                        }
                    }
                    layer = next;
                }
                for (p, &distance) in &seen {
                    let estimate = bound.estimate(p);
                    assert!(estimate <= distance, "{rows}x{cols} {cell}: {p:?}");
                    assert_eq!(estimate == 0, distance == 0, "{rows}x{cols} {cell}: {p:?}");
                }
            }
        }
    }

    #[test]
    fn boards_without_tables_fall_back_to_distances() {
        // 5x5's walking-distance parts have more than MAX_WALK_STATES states.
        let five = Board::new(5, 5).expect("valid");
        let bound = LowerBound::new(five);
        assert!(matches!(bound.vertical, Part::Distances { lines: 5 }));
        assert_eq!(bound.name(), "distances over jump length in MTM");
        assert_eq!(bound.estimate(&Position::goal(five)), 0);
        // Four tiles one row each: one move, at least 1 = ceil(4 / 4).
        assert_eq!(bound.estimate(&after(five, &[(Direction::North, 4)])), 1);
        let two = after(five, &[(Direction::North, 4), (Direction::West, 4)]);
        assert_eq!(bound.estimate(&two), 2);
    }
}
