//! The state table of Knuth's automaton (15PUZZLE-KORF1, sections 4 and 9–22), for any
//! `R x C` board: pure data, no code generation.
//!
//! A *state* `(r, c, d, p)` means: the blank is on cell `(r, c)`, which it entered from the
//! neighbour in direction `p`, and is about to try moving in direction `d`. Directions are
//! Knuth's powers of `i`: east 0, north 1, west 2, south 3, so `p = d ^ 2` undoes `d`.
//!
//! From a cell entered from `p` the blank tries the directions `p - 1, p - 2, p - 3` (mod 4),
//! skipping those that leave the board, and finally `d = p`: an *undo* state, which puts the
//! piece back where it came from and returns to whatever is next on the stack. A *move* state
//! (`d != p`) either makes its move — pushing its *fallback* (the next state at the same cell)
//! onto the stack and going on with the *successor* at the neighbouring cell — or, when the move
//! is not allowed by the remaining quota, goes straight to its fallback.
//!
//! A *tailcode* `tailcode(r, c, d)` starts the search at the root: it tries `d` only and then
//! returns. It needs no code of its own, because it coincides with the move state `(r, c, d, p)`
//! whose fallback is already the undo state `(r, c, p, p)` — and an undo at the root only
//! scribbles on the blank's cell, whose content is never read.
//!
//! Invariant: the states are exactly the `(r, c, d, p)` with `d` and `p` both leading to
//! neighbours of `(r, c)`; so a cell with `n` neighbours has `n²` states, `n` of them undos.
//! The table lists them in Knuth's code order (`r`, `c`, `d`, `p` lexicographically), which
//! makes every expansion of the generator the same.

use std::collections::BTreeMap;
use std::fmt;

/// Knuth's direction codes.
pub const EAST: u8 = 0;
pub const NORTH: u8 = 1;
pub const WEST: u8 = 2;
pub const SOUTH: u8 = 3;

/// The board a table is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
}

impl Shape {
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    pub fn cell(self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    /// The cell next to `(row, col)` in direction `d`, if it is on the board.
    pub fn neighbour(self, row: usize, col: usize, d: u8) -> Option<(usize, usize)> {
        match d {
            EAST if col + 1 < self.cols => Some((row, col + 1)),
            NORTH if row > 0 => Some((row - 1, col)),
            WEST if col > 0 => Some((row, col - 1)),
            SOUTH if row + 1 < self.rows => Some((row + 1, col)),
            _ => None,
        }
    }

    /// The directions of `(row, col)`'s neighbours, in code order.
    pub fn directions(self, row: usize, col: usize) -> Vec<u8> {
        (0..4)
            .filter(|&d| self.neighbour(row, col, d).is_some())
            .collect()
    }

    /// The first direction the blank tries at `(row, col)` after trying `d` (or after entering
    /// from `d`): the next feasible one in the order `d - 1, d - 2, d - 3, d` (mod 4).
    pub fn next_direction(self, row: usize, col: usize, d: u8) -> u8 {
        (1..=4)
            .map(|k| (d + 4 - k) & 3)
            .find(|&e| self.neighbour(row, col, e).is_some())
            .unwrap_or(d)
    }
}

/// The name of one state, `(r, c, d, p)`; printed as Knuth's label `r1c1d1p0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StateKey {
    pub row: usize,
    pub col: usize,
    /// The direction about to be tried.
    pub d: u8,
    /// The direction the blank came from (the one that undoes the last move).
    pub p: u8,
}

impl StateKey {
    pub fn new(row: usize, col: usize, d: u8, p: u8) -> StateKey {
        StateKey { row, col, d, p }
    }

    /// Whether this state takes the last move back.
    pub fn is_undo(self) -> bool {
        self.d == self.p
    }
}

impl fmt::Display for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}d{}p{}", self.row, self.col, self.d, self.p)
    }
}

/// What a state does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Try to move the blank to `neighbour` (pushing that cell's piece onto the blank's cell).
    Move {
        /// The cell the blank moves to.
        neighbour: usize,
        /// The state at `neighbour` that goes on after a successful move.
        successor: StateKey,
        /// The next state at this cell: where to go when the move is refused, and what is
        /// pushed onto the stack to resume when the move's subtree is finished.
        fallback: StateKey,
    },
    /// Pop the stack and put back the piece of the cell the blank came from (`neighbour`).
    Undo { neighbour: usize },
}

/// One state of the automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub key: StateKey,
    /// The blank's cell, row-major.
    pub cell: usize,
    pub action: Action,
    /// Whether this state doubles as `tailcode(r, c, d)` (its fallback is the undo state).
    pub tailcode: bool,
}

/// Every state of the automaton for one board, in Knuth's code order.
#[derive(Clone, Debug)]
pub struct Table {
    pub shape: Shape,
    pub states: Vec<State>,
    index: BTreeMap<StateKey, usize>,
}

impl Table {
    /// Builds the table of an `rows x cols` board.
    pub fn new(rows: usize, cols: usize) -> Table {
        let shape = Shape { rows, cols };
        let mut states = Vec::new();
        for row in 0..rows {
            for col in 0..cols {
                let cell = shape.cell(row, col);
                let directions = shape.directions(row, col);
                for &d in &directions {
                    for &p in &directions {
                        let key = StateKey::new(row, col, d, p);
                        let (nr, nc) = shape.neighbour(row, col, d).unwrap_or((row, col));
                        let neighbour = shape.cell(nr, nc);
                        let (action, tailcode) = if d == p {
                            (Action::Undo { neighbour }, false)
                        } else {
                            let next = shape.next_direction(row, col, d);
                            let entered = d ^ 2;
                            let successor = StateKey::new(
                                nr,
                                nc,
                                shape.next_direction(nr, nc, entered),
                                entered,
                            );
                            let fallback = StateKey::new(row, col, next, p);
                            let action = Action::Move {
                                neighbour,
                                successor,
                                fallback,
                            };
                            (action, next == p)
                        };
                        states.push(State {
                            key,
                            cell,
                            action,
                            tailcode,
                        });
                    }
                }
            }
        }
        let index = states.iter().enumerate().map(|(i, s)| (s.key, i)).collect();
        Table {
            shape,
            states,
            index,
        }
    }

    pub fn get(&self, key: StateKey) -> Option<&State> {
        self.index.get(&key).map(|&i| &self.states[i])
    }

    #[cfg(test)]
    pub fn moves(&self) -> impl Iterator<Item = &State> {
        self.states
            .iter()
            .filter(|s| matches!(s.action, Action::Move { .. }))
    }

    #[cfg(test)]
    pub fn undos(&self) -> impl Iterator<Item = &State> {
        self.states
            .iter()
            .filter(|s| matches!(s.action, Action::Undo { .. }))
    }

    /// `tailcode(r, c, d)`: the state that tries `d` alone from the root at `(r, c)`.
    pub fn tailcode(&self, row: usize, col: usize, d: u8) -> Option<StateKey> {
        self.shape.neighbour(row, col, d)?;
        let p = self.shape.next_direction(row, col, d);
        let key = StateKey::new(row, col, d, p);
        self.get(key).filter(|s| s.tailcode).map(|s| s.key)
    }

    /// `entered(r, c, p)`: the state run when a move brings the blank onto `(r, c)` from its
    /// neighbour in direction `p` — every move's successor is one of these. A search may also
    /// start there, at the root of a subtree (the parallel search), with `Bottom` under it.
    pub fn entered(&self, row: usize, col: usize, p: u8) -> Option<StateKey> {
        self.shape.neighbour(row, col, p)?;
        let key = StateKey::new(row, col, self.shape.next_direction(row, col, p), p);
        self.get(key).map(|s| s.key)
    }

    /// The moves a state and its fallbacks attempt at one cell, in order, before the undo:
    /// what entering `key` tries (empty for an undo state).
    pub fn attempts(&self, key: StateKey) -> Vec<StateKey> {
        let mut chain = self.chain(key);
        chain.pop();
        chain
    }

    /// The states run at one cell when `key` and every later attempt there fail: `key`, its
    /// fallback, the fallback's fallback, …, ending with the undo state.
    pub fn chain(&self, key: StateKey) -> Vec<StateKey> {
        let mut chain = vec![key];
        let mut current = key;
        while let Some(State {
            action: Action::Move { fallback, .. },
            ..
        }) = self.get(current)
        {
            chain.push(*fallback);
            current = *fallback;
        }
        chain
    }

    /// The pieces (named by their home cell) for which the move of state `key` is happy:
    /// the piece goes from the neighbour to the blank's cell and comes closer to home.
    /// Bit `h` is set when the piece whose home is cell `h` moves happily.
    pub fn happy_mask(&self, key: StateKey) -> u64 {
        let shape = self.shape;
        let Some((nr, nc)) = shape.neighbour(key.row, key.col, key.d) else {
            return 0;
        };
        let distance = |home: usize, r: usize, c: usize| {
            (home / shape.cols).abs_diff(r) + (home % shape.cols).abs_diff(c)
        };
        (0..shape.cells())
            .filter(|&home| distance(home, key.row, key.col) < distance(home, nr, nc))
            .fold(0, |mask, home| mask | 1 << home)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> StateKey {
        let digits: Vec<usize> = text
            .chars()
            .filter_map(|c| c.to_digit(10))
            .map(|d| d as usize)
            .collect();
        StateKey::new(digits[0], digits[1], digits[2] as u8, digits[3] as u8)
    }

    fn action(table: &Table, name: &str) -> Action {
        table
            .get(key(name))
            .map(|s| s.action)
            .expect("state exists")
    }

    fn transitions(table: &Table, name: &str) -> (StateKey, StateKey) {
        match action(table, name) {
            Action::Move {
                successor,
                fallback,
                ..
            } => (successor, fallback),
            Action::Undo { .. } => panic!("{name} is an undo state"),
        }
    }

    #[test]
    fn fifteen_has_knuths_152_states() {
        let table = Table::new(4, 4);
        assert_eq!(table.states.len(), 152);
        assert_eq!(table.moves().count(), 104);
        assert_eq!(table.undos().count(), 48);
        assert!(table.undos().all(|s| s.key.is_undo()));
    }

    #[test]
    fn counts_are_sums_of_squared_neighbour_counts() {
        for (rows, cols, expected) in [(3, 3, 68), (3, 4, 102), (4, 3, 102), (5, 5, 268)] {
            let table = Table::new(rows, cols);
            let shape = table.shape;
            let formula: usize = (0..rows)
                .flat_map(|r| (0..cols).map(move |c| (r, c)))
                .map(|(r, c)| shape.directions(r, c).len().pow(2))
                .sum();
            assert_eq!(table.states.len(), expected, "{rows}x{cols}");
            assert_eq!(formula, expected, "{rows}x{cols}");
        }
        for rows in 2..=5 {
            for cols in 2..=5 {
                let table = Table::new(rows, cols);
                // Undo states: one per ordered pair of neighbouring cells.
                let pairs = 2 * (rows * (cols - 1) + cols * (rows - 1));
                assert_eq!(table.undos().count(), pairs, "{rows}x{cols}");
            }
        }
    }

    #[test]
    fn transitions_match_the_seed() {
        let table = Table::new(4, 4);
        // Section 16: r1c1d1p0 moves north to r0c1d2p3, else falls back to r1c1d0p0.
        assert_eq!(
            transitions(&table, "r1c1d1p0"),
            (key("r0c1d2p3"), key("r1c1d0p0"))
        );
        // Section 10: east from the corner, falling back on the undo south.
        assert_eq!(
            transitions(&table, "r0c0d0p3"),
            (key("r0c1d0p2"), key("r0c0d3p3"))
        );
        // Section 10: r3c0d0p1 goes to r3c1d1p2, else r3c0d1p1.
        assert_eq!(
            transitions(&table, "r3c0d0p1"),
            (key("r3c1d1p2"), key("r3c0d1p1"))
        );
        // Section 15: r1c3d2p1 goes west to r1c2d3p0, else r1c3d1p1.
        assert_eq!(
            transitions(&table, "r1c3d2p1"),
            (key("r1c2d3p0"), key("r1c3d1p1"))
        );
        // Section 16: r1c3d1p2 (north, then south before the undo west).
        assert_eq!(
            transitions(&table, "r1c3d1p2"),
            (key("r0c3d2p3"), key("r1c3d3p2"))
        );
        // Section 19: r0c3d3p2 goes south to r1c3d3p1, else r0c3d2p2.
        assert_eq!(
            transitions(&table, "r0c3d3p2"),
            (key("r1c3d3p1"), key("r0c3d2p2"))
        );
        // Section 21: r2c2d3p1 goes south to r3c2d0p1, else r2c2d2p1.
        assert_eq!(
            transitions(&table, "r2c2d3p1"),
            (key("r3c2d0p1"), key("r2c2d2p1"))
        );
        // Section 22: the undo r1c2d3p3 takes its piece back from (2,2).
        assert_eq!(action(&table, "r1c2d3p3"), Action::Undo { neighbour: 10 });
        assert_eq!(action(&table, "r0c0d0p0"), Action::Undo { neighbour: 1 });
    }

    #[test]
    fn every_successor_is_an_entered_state() {
        for (rows, cols) in [(2, 2), (3, 4), (4, 4), (5, 5)] {
            let table = Table::new(rows, cols);
            let mut entered = 0;
            for state in table.moves() {
                if let Action::Move { successor, .. } = state.action {
                    let (r, c) = (successor.row, successor.col);
                    assert_eq!(table.entered(r, c, successor.p), Some(successor));
                    // It tries every other neighbour before taking the move back.
                    let attempts = table.attempts(successor);
                    assert_eq!(attempts.len(), table.shape.directions(r, c).len() - 1);
                    assert!(attempts.iter().all(|a| a.d != successor.p));
                    entered += 1;
                }
            }
            assert!(entered > 0);
        }
        let table = Table::new(4, 4);
        // Entered from the east, (1,1) tries south, west, north: p - 1, p - 2, p - 3.
        assert_eq!(table.entered(1, 1, EAST), Some(key("r1c1d3p0")));
        assert_eq!(
            table.entered(0, 0, NORTH),
            None,
            "no neighbour to the north"
        );
    }

    #[test]
    fn tailcodes_match_the_seed() {
        let table = Table::new(4, 4);
        // Every `case tailcode(r,c,d): case code(r,c,d,p):` of sections 10–21.
        let seed = [
            "000 0003", "100 1003", "200 2003", "300 3001", "010 0103", "110 1103", "210 2103",
            "310 3102", "020 0203", "120 1203", "220 2203", "320 3202", "012 0120", "112 1121",
            "212 2121", "312 3121", "022 0220", "122 1221", "222 2221", "322 3221", "032 0323",
            "132 1321", "232 2321", "332 3321", "101 1010", "111 1110", "121 1210", "131 1313",
            "201 2010", "211 2110", "221 2210", "231 2313", "301 3010", "311 3110", "321 3210",
            "331 3312", "003 0030", "013 0132", "023 0232", "033 0332", "103 1031", "113 1132",
            "123 1232", "133 1332", "203 2031", "213 2132", "223 2232", "233 2332",
        ];
        for entry in seed {
            let (tail, state) = entry.split_at(3);
            let t: Vec<usize> = tail
                .chars()
                .filter_map(|c| c.to_digit(10))
                .map(|d| d as usize)
                .collect();
            assert_eq!(
                table.tailcode(t[0], t[1], t[2] as u8),
                Some(key(state)),
                "tailcode({},{},{})",
                t[0],
                t[1],
                t[2]
            );
        }
        // 48 tailcodes in all: one per (cell, feasible direction).
        assert_eq!(table.states.iter().filter(|s| s.tailcode).count(), 48);
        assert_eq!(table.tailcode(0, 0, NORTH), None);
        assert_eq!(table.tailcode(3, 3, EAST), None);
    }

    #[test]
    fn every_transition_stays_in_the_table() {
        for rows in 2..=5 {
            for cols in 2..=5 {
                let table = Table::new(rows, cols);
                for state in &table.states {
                    if let Action::Move {
                        successor,
                        fallback,
                        ..
                    } = state.action
                    {
                        let next = table.get(successor).expect("successor exists");
                        assert_eq!(successor.p, state.key.d ^ 2);
                        assert!(!next.key.is_undo(), "a successor never undoes at once");
                        assert!(table.get(fallback).is_some());
                        assert_eq!(
                            (fallback.row, fallback.col, fallback.p),
                            (state.key.row, state.key.col, state.key.p)
                        );
                    }
                    // Every chain ends with the undo state of its cell and entry.
                    let chain = table.chain(state.key);
                    let last = chain.last().copied().expect("non-empty");
                    assert!(last.is_undo() && last.p == state.key.p);
                    assert!(chain.len() <= 4);
                }
            }
        }
    }

    #[test]
    fn attempts_are_the_moves_of_a_chain() {
        let table = Table::new(4, 4);
        // Interior cell entered from the east: south, west, north, then the undo.
        assert_eq!(
            table.attempts(key("r1c1d3p0")),
            vec![key("r1c1d3p0"), key("r1c1d2p0"), key("r1c1d1p0")]
        );
        // A corner entered from the east tries one move; an undo state tries none.
        assert_eq!(table.attempts(key("r0c0d3p0")), vec![key("r0c0d3p0")]);
        assert!(table.attempts(key("r0c0d0p0")).is_empty());
        // Entering a cell, the blank tries every neighbour but the one it came from: one
        // attempt in a corner, two on an edge, three inside.
        for (rows, cols) in [(3, 3), (4, 4), (3, 5)] {
            let table = Table::new(rows, cols);
            for state in &table.states {
                if let Action::Move { successor, .. } = state.action {
                    let neighbours = table.shape.directions(successor.row, successor.col).len();
                    assert_eq!(
                        table.attempts(successor).len(),
                        neighbours - 1,
                        "{successor}"
                    );
                }
            }
        }
    }

    #[test]
    fn happy_masks_follow_knuths_del() {
        let table = Table::new(4, 4);
        // Moving the blank east from (0,0) pulls the piece at (0,1) west: happy exactly for the
        // pieces whose home is in column 0.
        let mask = table.happy_mask(key("r0c0d0p3"));
        assert_eq!(mask, (1 << 0) | (1 << 4) | (1 << 8) | (1 << 12));
        // Moving the blank north from (3,3): the piece comes south, happy for homes in row 3
        // (the last cell's too, a home toward a goal whose blank is elsewhere).
        let mask = table.happy_mask(key("r3c3d1p2"));
        assert_eq!(mask, (1 << 12) | (1 << 13) | (1 << 14) | (1 << 15));
        for state in table.moves() {
            let (r, c, d) = (state.key.row as i32, state.key.col as i32, state.key.d);
            let mask = table.happy_mask(state.key);
            for home in 0..16 {
                let (hr, hc) = (home / 4, home % 4);
                // Knuth's section 9 macros: del = 1 (happy) or 0x100 (sad).
                let del = match d {
                    EAST => (((c - hc) >> 2) & 0xff) + 1,
                    WEST => (((hc - c) >> 2) & 0xff) + 1,
                    NORTH => (((hr - r) >> 2) & 0xff) + 1,
                    _ => (((r - hr) >> 2) & 0xff) + 1,
                };
                assert_eq!(mask >> home & 1 == 1, del == 1, "{} home {home}", state.key);
            }
        }
    }
}
