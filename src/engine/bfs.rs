//! `fifteen solve --engine bfs`: the n-puzzle as a SLIDING problem ([`crate::sliding`]).
//!
//! Each tile is a one-cell piece of its own kind (so at most 15 tiles: boards of at most 16
//! cells), the stop configuration is the goal, the style is 0. The breadth-first search finds
//! one shortest path; the tile pushed at each step is the one that moves onto the blank's cell.
//! It reports a single "bound", the distance, searched completely.

use super::{BoundStats, Engine, EngineError, SearchOptions, SearchOutcome, SearchStats, Solution};
use crate::position::Position;
use crate::sliding::spec::{Layout, PlacedBlock, Puzzle, Shape};
use crate::sliding::{solve, Geometry, Outcome, Style, DEFAULT_MEMORY};
use std::time::Instant;

/// The breadth-first engine for n-puzzles.
pub struct BfsEngine;

/// The SLIDING puzzle of a position (Knuth's convention) and the goal.
pub fn puzzle_of(start: &Position) -> Option<Puzzle> {
    let board = start.board();
    let cells = board.cells();
    if cells > 16 {
        return None;
    }
    let layout = |tiles: &[u8]| Layout {
        dead: vec![false; cells],
        blocks: tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, &t)| PlacedBlock {
                kind: t,
                anchor: cell,
            })
            .collect(),
        any: vec![false; cells],
    };
    let goal = Position::goal(board);
    let mut shapes: [Option<Shape>; 16] = Default::default();
    for shape in shapes.iter_mut().take(cells).skip(1) {
        *shape = Some(Shape {
            offsets: vec![(0, 0)],
        });
    }
    Some(Puzzle {
        rows: board.rows(),
        cols: board.cols(),
        title: format!("{}-puzzle", cells - 1),
        shapes,
        start: layout(&start.tiles()[..cells]),
        stops: vec![layout(&goal.tiles()[..cells])],
    })
}

impl Engine for BfsEngine {
    fn name(&self) -> &'static str {
        "bfs"
    }

    fn iterative_deepening(&self) -> bool {
        false
    }

    fn solve(
        &self,
        start: &Position,
        options: &SearchOptions,
        progress: &mut dyn FnMut(&BoundStats),
    ) -> Result<SearchOutcome, EngineError> {
        if options.order.is_some() {
            return Err(EngineError::OrderNotSupported { engine: "bfs" });
        }
        if options.all {
            return Err(EngineError::Limit(
                "the bfs engine finds one shortest solution; --all works only with --engine ida"
                    .into(),
            ));
        }
        let Some(puzzle) = puzzle_of(start) else {
            return Err(EngineError::UnsupportedBoard {
                engine: "bfs",
                board: start.board().to_string(),
            });
        };
        let clock = Instant::now();
        let memory = options.memory_limit.unwrap_or(DEFAULT_MEMORY);
        let outcome = solve(&puzzle, Style(0), memory, &mut |_| {}, &mut |_| {})
            .map_err(|e| EngineError::Limit(e.to_string()))?;
        let Outcome::Solved {
            path, generated, ..
        } = outcome
        else {
            return Err(EngineError::Unsolvable);
        };
        let geometry = Geometry::new(&puzzle);
        let kinds: Vec<Vec<u8>> = path
            .iter()
            .map(|key| {
                let mut state = geometry.empty_state();
                state.unpack(&geometry, key);
                state.kinds(&geometry)
            })
            .collect();
        let moves: Vec<u8> = kinds
            .windows(2)
            .filter_map(|pair| {
                let blank = pair[0].iter().position(|&k| k == 0)?;
                Some(pair[1][blank])
            })
            .collect();
        let solution = Solution::from_moves(start, moves).ok_or_else(|| {
            EngineError::Limit("internal error: the bfs path does not replay".into())
        })?;
        let seconds = clock.elapsed().as_secs_f64();
        let bound = BoundStats {
            happy: solution.happy,
            sad: solution.sad,
            nodes: Some(generated),
            seconds,
            completed: true,
            solutions: 1,
        };
        progress(&bound);
        Ok(SearchOutcome {
            solutions: vec![solution],
            stats: SearchStats::from_bounds(vec![bound]),
        })
    }
}
