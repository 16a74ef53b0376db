//! The state table of the multi-tile-metric (MTM) automaton, for any `R x C` board: pure data,
//! no code generation.
//!
//! An MTM move is a *jump*: the blank goes `k` cells in one direction (1 to side − 1), and the
//! `k` tiles it passes slide one cell back. After a jump on one axis only jumps on the other
//! axis follow (another one on the same axis would merge with it or undo it); at the root both
//! axes are open. So a *place* is the blank's cell and the jump that brought it there (none at
//! the root), and a *state* is a place and the index of the jump about to be tried there, or
//! one past the last: the *end* of the place, which takes the entering jump back (an *undo*)
//! or, at the root, ends the pass.
//!
//! The jumps of a cell are listed in Knuth's direction order (east, north, west, south) and by
//! increasing distance, the order of the reference search (`fifteen::mtm::moves::Jumps`); a
//! place's attempts are those of them on the open axis, in that order.
//!
//! Invariant: every move state's successor is the first state of the place its jump lands on,
//! and its fallback the next state of its own place; the states are listed place by place (by
//! cell, the root first, then the entering jumps in the order of the cell's jumps reversed),
//! which makes every expansion of the generator the same.

use crate::table::Shape;
use std::collections::BTreeMap;
use std::fmt;

/// One jump: the blank's direction (Knuth's code: east 0, north 1, west 2, south 3) and the
/// number of cells it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Jump {
    pub d: u8,
    pub k: usize,
}

impl Jump {
    /// Whether the jump is along a column (north or south).
    pub fn vertical(self) -> bool {
        self.d & 1 == 1
    }

    /// The jump that takes this one back.
    pub fn reverse(self) -> Jump {
        Jump {
            d: self.d ^ 2,
            k: self.k,
        }
    }
}

/// The name of one state: the blank's cell, the jump that entered it (`None` at the root) and
/// the attempt about to be made (its place's attempt count: the end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StateKey {
    pub cell: usize,
    pub came: Option<Jump>,
    pub attempt: usize,
}

impl fmt::Display for StateKey {
    /// `c5_n2_t1`: cell 5, entered by a jump north of 2, attempt 1; `c5_root_t0` at the root
    /// (an end is named by its attempt count, `c5_n2_t3`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}_", self.cell)?;
        match self.came {
            Some(jump) => {
                let letter = ['e', 'n', 'w', 's'][usize::from(jump.d & 3)];
                write!(f, "{letter}{}_", jump.k)?;
            }
            None => write!(f, "root_")?,
        }
        write!(f, "t{}", self.attempt)
    }
}

/// What a state does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Make `jump`: the blank passes `passed` in order (the last cell is where it lands).
    Move {
        jump: Jump,
        passed: Vec<usize>,
        /// The first state of the place the jump lands on.
        successor: StateKey,
        /// The next state of this place: where to go when the child is cut off or finished.
        fallback: StateKey,
    },
    /// Take back the jump that entered: it left `origin` and passed `passed` (the last cell
    /// is this state's); then resume whatever is on the stack.
    Undo { origin: usize, passed: Vec<usize> },
    /// The end of the root's attempts: the pass is over.
    End,
}

/// One state of the automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub key: StateKey,
    pub action: Action,
}

/// Every state of the MTM automaton for one board.
#[derive(Clone, Debug)]
pub struct Table {
    pub shape: Shape,
    pub states: Vec<State>,
    index: BTreeMap<StateKey, usize>,
}

impl Shape {
    /// The jumps from `cell` that stay on the board, with the cells the blank passes, in
    /// Knuth's direction order and by increasing distance.
    pub fn jumps(self, cell: usize) -> Vec<(Jump, Vec<usize>)> {
        let mut list = Vec::new();
        for d in 0..4 {
            let mut passed = Vec::new();
            let (mut row, mut col) = (cell / self.cols, cell % self.cols);
            while let Some((r, c)) = self.neighbour(row, col, d) {
                (row, col) = (r, c);
                passed.push(self.cell(r, c));
                list.push((Jump { d, k: passed.len() }, passed.clone()));
            }
        }
        list
    }
}

impl Table {
    /// Builds the table of an `rows x cols` board.
    pub fn new(rows: usize, cols: usize) -> Table {
        let shape = Shape { rows, cols };
        let mut states = Vec::new();
        for cell in 0..shape.cells() {
            let jumps = shape.jumps(cell);
            let places = std::iter::once(None).chain(jumps.iter().map(|(j, _)| Some(j.reverse())));
            for came in places {
                let attempts = Self::open(&jumps, came);
                for (attempt, (jump, passed)) in attempts.iter().enumerate() {
                    let landing = passed.last().copied().unwrap_or(cell);
                    let successor = StateKey {
                        cell: landing,
                        came: Some(*jump),
                        attempt: 0,
                    };
                    let fallback = StateKey {
                        cell,
                        came,
                        attempt: attempt + 1,
                    };
                    states.push(State {
                        key: StateKey {
                            cell,
                            came,
                            attempt,
                        },
                        action: Action::Move {
                            jump: *jump,
                            passed: passed.clone(),
                            successor,
                            fallback,
                        },
                    });
                }
                let end = StateKey {
                    cell,
                    came,
                    attempt: attempts.len(),
                };
                let action = match came {
                    None => Action::End,
                    Some(jump) => {
                        // The entering jump seen from its origin: the reverse of the way back.
                        let back: Vec<usize> = jumps
                            .iter()
                            .find(|(j, _)| *j == jump.reverse())
                            .map(|(_, p)| p.clone())
                            .unwrap_or_default();
                        let origin = back.last().copied().unwrap_or(cell);
                        let mut passed: Vec<usize> = back.into_iter().rev().skip(1).collect();
                        passed.push(cell);
                        Action::Undo { origin, passed }
                    }
                };
                states.push(State { key: end, action });
            }
        }
        let index = states.iter().enumerate().map(|(i, s)| (s.key, i)).collect();
        Table {
            shape,
            states,
            index,
        }
    }

    /// The jumps open after `came` (all of them at the root), in order.
    fn open(jumps: &[(Jump, Vec<usize>)], came: Option<Jump>) -> Vec<(Jump, Vec<usize>)> {
        jumps
            .iter()
            .filter(|(j, _)| came.is_none_or(|c| c.vertical() != j.vertical()))
            .cloned()
            .collect()
    }

    pub fn get(&self, key: StateKey) -> Option<&State> {
        self.index.get(&key).map(|&i| &self.states[i])
    }

    /// The first state of the root at `cell`.
    pub fn root(&self, cell: usize) -> Option<StateKey> {
        let key = StateKey {
            cell,
            came: None,
            attempt: 0,
        };
        self.get(key).map(|s| s.key)
    }

    /// The first state of the place `jump` lands on at `cell`: where the search of the
    /// subtree below that jump starts.
    pub fn entered(&self, cell: usize, jump: Jump) -> Option<StateKey> {
        let key = StateKey {
            cell,
            came: Some(jump),
            attempt: 0,
        };
        self.get(key).map(|s| s.key)
    }

    /// The cell a state's jump lands on (its own cell for an undo or an end).
    pub fn landing(&self, state: &State) -> usize {
        match &state.action {
            Action::Move { passed, .. } => passed.last().copied().unwrap_or(state.key.cell),
            _ => state.key.cell,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States of a board: per cell with `j` jumps, `j + 1` at the root and, for each of the
    /// `j` entering jumps, the jumps on the other axis plus the undo.
    fn expected(rows: usize, cols: usize) -> usize {
        let shape = Shape { rows, cols };
        (0..shape.cells())
            .map(|cell| {
                let jumps = shape.jumps(cell);
                let vertical = jumps.iter().filter(|(j, _)| j.vertical()).count();
                let horizontal = jumps.len() - vertical;
                jumps.len() + 1 + vertical * (horizontal + 1) + horizontal * (vertical + 1)
            })
            .sum()
    }

    #[test]
    fn state_counts() {
        // 4x4: 16 cells, 6 jumps each: 7 root states and 6 places of 3 attempts and an undo.
        assert_eq!(Table::new(4, 4).states.len(), 16 * (7 + 6 * 4));
        assert_eq!(Table::new(3, 3).states.len(), 9 * (5 + 4 * 3));
        for (rows, cols) in [(2, 2), (2, 5), (3, 4), (5, 3), (5, 5)] {
            assert_eq!(Table::new(rows, cols).states.len(), expected(rows, cols));
        }
    }

    #[test]
    fn jumps_follow_the_reference_order() {
        let shape = Shape { rows: 4, cols: 4 };
        let corner: Vec<(u8, usize, usize)> = shape
            .jumps(15)
            .iter()
            .map(|(j, p)| (j.d, j.k, *p.last().unwrap_or(&99)))
            .collect();
        // North 1..3, then west 1..3 (as fifteen::mtm::moves's test lists them).
        assert_eq!(
            corner,
            [
                (1, 1, 11),
                (1, 2, 7),
                (1, 3, 3),
                (2, 1, 14),
                (2, 2, 13),
                (2, 3, 12)
            ]
        );
        assert_eq!(shape.jumps(5).len(), 6);
    }

    #[test]
    fn a_place_tries_the_other_axis_then_undoes() {
        let table = Table::new(4, 4);
        // Cell 5 (row 1, column 1) entered by a jump north of 2 from cell 13.
        let came = Some(Jump { d: 1, k: 2 });
        let key = |attempt| StateKey {
            cell: 5,
            came,
            attempt,
        };
        let moves: Vec<Jump> = (0..3)
            .map(|a| match table.get(key(a)).map(|s| &s.action) {
                Some(Action::Move { jump, .. }) => *jump,
                other => panic!("attempt {a}: {other:?}"),
            })
            .collect();
        let east = |k| Jump { d: 0, k };
        assert_eq!(moves, [east(1), east(2), Jump { d: 2, k: 1 }]);
        assert_eq!(key(3).to_string(), "c5_n2_t3");
        assert_eq!(
            table.get(key(3)).map(|s| s.action.clone()),
            Some(Action::Undo {
                origin: 13,
                passed: vec![9, 5]
            })
        );
        // East 2 from cell 5 lands on 7, passing 6.
        match table.get(key(1)).map(|s| &s.action) {
            Some(Action::Move {
                passed,
                successor,
                fallback,
                ..
            }) => {
                assert_eq!(passed, &vec![6, 7]);
                assert_eq!(
                    *successor,
                    StateKey {
                        cell: 7,
                        came: Some(east(2)),
                        attempt: 0
                    }
                );
                assert_eq!(*fallback, key(2));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_transition_stays_in_the_table() {
        for (rows, cols) in [(2, 3), (3, 3), (4, 4), (4, 5)] {
            let table = Table::new(rows, cols);
            let mut roots = 0;
            for state in &table.states {
                match &state.action {
                    Action::Move {
                        successor,
                        fallback,
                        ..
                    } => {
                        assert!(table.get(*successor).is_some(), "{}", state.key);
                        assert!(table.get(*fallback).is_some(), "{}", state.key);
                        assert_eq!(
                            table.entered(
                                successor.cell,
                                successor.came.unwrap_or(Jump { d: 0, k: 0 })
                            ),
                            Some(*successor)
                        );
                    }
                    Action::Undo { origin, passed } => {
                        let came = state.key.came.unwrap_or(Jump { d: 0, k: 0 });
                        assert_eq!(passed.len(), came.k);
                        assert_eq!(passed.last(), Some(&state.key.cell));
                        // The jump from the origin passes the same cells.
                        let from_origin = table.shape.jumps(*origin);
                        assert!(from_origin.contains(&(came, passed.clone())));
                    }
                    Action::End => roots += 1,
                }
            }
            assert_eq!(roots, rows * cols);
            assert!((0..rows * cols).all(|cell| table.root(cell).is_some()));
        }
    }
}
