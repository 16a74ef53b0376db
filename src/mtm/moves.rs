//! MTM moves: the blank jumps 1 to `side - 1` cells along its row or column, and every tile it
//! passes slides one cell back, all as one move (the multi-tile metric of speed-solvers).
//!
//! A [`Jump`] is the blank's direction and distance. [`Jumps`] lists, for every cell of a board,
//! the jumps that stay on the board with the cells the blank passes, in order (the last is where
//! it lands). Invariant: a jump of distance `k` is exactly `k` steps of the single-tile metric in
//! one direction, so a jump sequence is also an STM path, and an STM path splits back into
//! jumps by its runs of one direction ([`jumps_of`]): in an MTM tree two consecutive moves are
//! never on the same axis (they would merge into one move or undo each other).

use crate::board::{Board, Direction};
use crate::position::Position;

/// The axis a move is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// East and west: the blank stays in its row.
    Horizontal,
    /// North and south: the blank stays in its column.
    Vertical,
}

impl Axis {
    /// The axis of a direction of the blank.
    pub fn of(direction: Direction) -> Axis {
        match direction {
            Direction::East | Direction::West => Axis::Horizontal,
            Direction::North | Direction::South => Axis::Vertical,
        }
    }

    /// The other axis.
    pub fn other(self) -> Axis {
        match self {
            Axis::Horizontal => Axis::Vertical,
            Axis::Vertical => Axis::Horizontal,
        }
    }
}

/// One MTM move: the blank moves `distance` cells in `direction` (the tiles the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    pub direction: Direction,
    pub distance: u8,
}

impl Jump {
    pub fn axis(self) -> Axis {
        Axis::of(self.direction)
    }
}

/// A jump from one cell: the jump, and the cells the blank passes (`cells[..len]`, in order,
/// the last one where it lands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JumpFrom {
    pub jump: Jump,
    pub cells: [u8; 4],
    pub len: u8,
}

impl JumpFrom {
    /// The cells the blank passes, in order.
    pub fn passed(&self) -> &[u8] {
        &self.cells[..usize::from(self.len)]
    }

    /// Where the blank lands.
    pub fn to(&self) -> usize {
        usize::from(self.cells[usize::from(self.len) - 1])
    }
}

/// Every jump of every cell of a board, in Knuth's direction order (east, north, west, south)
/// and by increasing distance.
#[derive(Clone, Debug)]
pub struct Jumps {
    from: Vec<Vec<JumpFrom>>,
}

impl Jumps {
    pub fn new(board: Board) -> Jumps {
        let from = (0..board.cells())
            .map(|cell| {
                let mut list = Vec::new();
                for direction in Direction::ALL {
                    let mut cells = [0u8; 4];
                    let mut here = cell;
                    let mut len = 0u8;
                    while let Some(next) = board.neighbour(here, direction) {
                        cells[usize::from(len)] = next as u8;
                        len += 1;
                        here = next;
                        list.push(JumpFrom {
                            jump: Jump {
                                direction,
                                distance: len,
                            },
                            cells,
                            len,
                        });
                    }
                }
                list
            })
            .collect();
        Jumps { from }
    }

    /// The jumps of the blank from `cell`.
    pub fn from(&self, cell: usize) -> &[JumpFrom] {
        &self.from[cell]
    }
}

/// Plays a jump on a position; `None` when it leaves the board. Returns the tiles pushed, in
/// the order the single-tile metric pushes them.
pub fn play(position: &mut Position, jump: Jump) -> Option<Vec<u8>> {
    let mut pushed = Vec::with_capacity(usize::from(jump.distance));
    let mut after = *position;
    for _ in 0..jump.distance {
        pushed.push(after.move_blank(jump.direction)?);
    }
    *position = after;
    Some(pushed)
}

/// The position after `jumps` from `start` and the tiles pushed on the way; `None` when a
/// jump leaves the board.
pub fn play_all(start: &Position, jumps: &[Jump]) -> Option<(Position, Vec<u8>)> {
    let mut position = *start;
    let mut tiles = Vec::new();
    for &jump in jumps {
        tiles.extend(play(&mut position, jump)?);
    }
    Some((position, tiles))
}

/// The jumps of an STM path (tiles pushed, Knuth's numbering) from `start`: its maximal runs
/// of one direction. `None` when a push is not legal.
pub fn jumps_of(start: &Position, tiles: &[u8]) -> Option<Vec<Jump>> {
    let mut position = *start;
    let mut jumps: Vec<Jump> = Vec::new();
    for &tile in tiles {
        let direction = Direction::ALL.into_iter().find(|&d| {
            start
                .board()
                .neighbour(position.blank(), d)
                .is_some_and(|cell| position.tile(cell) == tile && tile != 0)
        })?;
        position.move_blank(direction);
        match jumps.last_mut() {
            Some(last) if last.direction == direction => last.distance += 1,
            _ => jumps.push(Jump {
                direction,
                distance: 1,
            }),
        }
    }
    Some(jumps)
}

/// The number of MTM moves of an STM path (its runs of one direction); `None` when a push is
/// not legal.
pub fn length(start: &Position, tiles: &[u8]) -> Option<usize> {
    jumps_of(start, tiles).map(|jumps| jumps.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Convention;

    #[test]
    fn a_4x4_cell_has_six_jumps_and_they_stay_on_the_board() {
        let jumps = Jumps::new(Board::fifteen());
        for cell in 0..16 {
            let list = jumps.from(cell);
            assert_eq!(list.len(), 6, "cell {cell}");
            for j in list {
                assert_eq!(usize::from(j.len), usize::from(j.jump.distance));
                assert!(j.passed().iter().all(|&c| c < 16));
            }
        }
        let corner: Vec<(Direction, u8, usize)> = jumps
            .from(15)
            .iter()
            .map(|j| (j.jump.direction, j.jump.distance, j.to()))
            .collect();
        assert_eq!(
            corner,
            [
                (Direction::North, 1, 11),
                (Direction::North, 2, 7),
                (Direction::North, 3, 3),
                (Direction::West, 1, 14),
                (Direction::West, 2, 13),
                (Direction::West, 3, 12),
            ]
        );
    }

    #[test]
    fn stm_paths_split_into_runs() {
        let goal = Position::goal(Board::fifteen());
        let up = Jump {
            direction: Direction::North,
            distance: 3,
        };
        assert_eq!(play_all(&goal, &[up]).map(|(_, t)| t), Some(vec![12, 8, 4]));
        let left = Jump {
            direction: Direction::West,
            distance: 2,
        };
        let (mut p, tiles) = play_all(&goal, &[up, left]).expect("on the board");
        assert_eq!(p.notation(Convention::Knuth), "102356749ab8defc");
        assert_eq!(length(&goal, &tiles), Some(2));
        assert_eq!(length(&goal, &[1]), None);
        let off = play(
            &mut p,
            Jump {
                direction: Direction::North,
                distance: 1,
            },
        );
        assert_eq!(off, None);
    }
}
