//! `--metric mtm --engine bfs`: breadth-first search in SLIDING's style 3 (superpieces one
//! step), which on an n-puzzle is exactly the multi-tile metric: the tiles between the blank
//! and a cell of its row or column move one step together.
//!
//! The engine is [`BfsEngine`] in that style: the path's configurations give the blank's cell
//! after each move, the jump between two is played one tile at a time, so the solution is an
//! STM path whose runs are the MTM moves.
//! [`distances`] runs the same search from the goal over everything reachable, giving every
//! position's MTM distance (the tests' oracle). Invariant: a reported solution has as many
//! runs as the breadth-first distance.

use crate::board::Board;
use crate::engine::bfs::{puzzle_of, BfsEngine};
use crate::position::Position;
use crate::sliding::bfs::{search, Event, Goal};
use crate::sliding::{Geometry, Style};
use std::collections::HashMap;
use std::ops::ControlFlow;

/// SLIDING's style for the multi-tile metric.
pub const MTM_STYLE: Style = Style(3);

/// The breadth-first MTM engine.
pub fn engine() -> BfsEngine {
    BfsEngine { style: MTM_STYLE }
}

/// The MTM distance of every solvable position of a board (at most 16 cells) from the goal,
/// by one breadth-first search in style 3 from the goal; `None` for larger boards or when
/// `memory` bytes do not suffice.
pub fn distances(board: Board, memory: u64) -> Option<HashMap<Position, u32>> {
    let goal = Position::goal(board);
    let puzzle = puzzle_of(&goal)?;
    let geometry = Geometry::new(&puzzle);
    let start = geometry.key_of(&puzzle.start);
    let mut found = HashMap::new();
    let mut distance = 0;
    let mut observer = |event: Event| {
        match event {
            Event::Distance(d) => distance = d,
            Event::New { key, .. } => {
                let mut state = geometry.empty_state();
                state.unpack(&geometry, key);
                if let Ok(p) = Position::from_tiles(board, &state.kinds(&geometry)) {
                    found.insert(p, distance);
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    };
    search(
        &geometry,
        &start,
        Goal::Everything,
        MTM_STYLE,
        memory,
        &mut observer,
    )
    .ok()?;
    Some(found)
}
