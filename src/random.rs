//! Seeded random positions, for the cross-checker, the comparison runs and the tests.
//!
//! Two kinds: a *random walk* of `L` blank moves from the goal that never undoes its previous
//! move (so its optimal solution has at most `L` moves), and a *uniformly random solvable
//! position* (a uniform permutation, with two tiles swapped when it has the wrong parity —
//! swapping two tiles flips solvability, so both halves map onto the solvable half evenly).
//! The generator is ChaCha8 seeded from a `u64`, so a seed names the same positions on every
//! machine and in every version.

use crate::board::{Board, Direction};
use crate::position::Position;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded source of positions.
pub struct PositionSource {
    rng: ChaCha8Rng,
}

impl PositionSource {
    pub fn new(seed: u64) -> PositionSource {
        PositionSource {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A walk of `length` blank moves from the goal, never undoing the previous move.
    pub fn random_walk(&mut self, board: Board, length: usize) -> Position {
        walk(&mut self.rng, board, length)
    }

    /// A uniformly random solvable position of `board`.
    pub fn random_solvable(&mut self, board: Board) -> Position {
        let mut tiles: Vec<u8> = (0..board.cells()).map(|t| t as u8).collect();
        // Fisher–Yates.
        for i in (1..tiles.len()).rev() {
            let j = self.rng.random_range(0..=i);
            tiles.swap(i, j);
        }
        let position = Position::from_tiles(board, &tiles);
        match position {
            Ok(p) if p.is_solvable() => p,
            _ => {
                // Swap the first two non-blank tiles: this flips the parity.
                let mut nonblank = (0..tiles.len()).filter(|&i| tiles[i] != 0);
                if let (Some(a), Some(b)) = (nonblank.next(), nonblank.next()) {
                    tiles.swap(a, b);
                }
                Position::from_tiles(board, &tiles).unwrap_or_else(|_| Position::goal(board))
            }
        }
    }
}

/// A random walk with any random source (used by the property tests too).
pub fn walk(rng: &mut impl Rng, board: Board, length: usize) -> Position {
    let mut position = Position::goal(board);
    let mut came: Option<Direction> = None;
    for _ in 0..length {
        let blank = position.blank();
        let choices: Vec<Direction> = Direction::ALL
            .into_iter()
            .filter(|&d| board.neighbour(blank, d).is_some() && Some(d.reverse()) != came)
            .collect();
        let d = choices[rng.random_range(0..choices.len())];
        position.move_blank(d);
        came = Some(d);
    }
    position
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_repeat_and_positions_are_solvable() {
        let board = Board::fifteen();
        let mut a = PositionSource::new(7);
        let mut b = PositionSource::new(7);
        for _ in 0..50 {
            let p = a.random_solvable(board);
            assert_eq!(p, b.random_solvable(board));
            assert!(p.is_solvable());
        }
        let w = a.random_walk(board, 30);
        assert!(w.is_solvable());
        assert!(w.manhattan() <= 30);
    }
}
