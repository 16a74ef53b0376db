//! `fifteen solve --engine bfs`: the n-puzzle as a SLIDING problem ([`crate::sliding`]).
//!
//! Each tile is a one-cell piece of its own kind (so at most 15 tiles: boards of at most 16
//! cells), the stop configuration is the goal, the style is 0 (or 3 for the multi-tile
//! metric). The breadth-first search finds one shortest path; the blank's cells along it give
//! the tiles pushed, one at a time. It reports a single "bound", the distance, searched
//! completely.
//!
//! A [`Stop`] (`--time-limit`, `--max-nodes`, Ctrl-C) is looked at every [`Stop::EVERY`]
//! configurations found; a stopped search names the distance it was working on as its bound,
//! and the configurations found as its nodes.

use super::{
    Answer, BoundStats, Engine, EngineError, Progress, SearchOptions, SearchOutcome, SearchStats,
    Solution, Stop,
};
use crate::board::{Board, Direction};
use crate::position::Position;
use crate::sliding::spec::{Layout, PlacedBlock, Puzzle, Shape};
use crate::sliding::{solve_observed, Event, Geometry, Halt, Outcome, Style, DEFAULT_MEMORY};
use std::ops::ControlFlow;
use std::time::Instant;

/// The breadth-first engine for n-puzzles, in a style of SLIDING: 0 (one tile one step, the
/// default) or 3 (superpieces one step: the multi-tile metric, [`crate::mtm::bfs`]).
#[derive(Clone, Copy, Debug)]
pub struct BfsEngine {
    pub style: Style,
}

impl Default for BfsEngine {
    fn default() -> Self {
        BfsEngine { style: Style(0) }
    }
}

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

/// The shortest path from `start` to the goal in a style of SLIDING (`--all` and boards of
/// more than 16 cells refused): the tiles of every configuration on it (Knuth's numbering,
/// 0 for the blank), the moves generated, and the distance.
pub fn search_path(
    start: &Position,
    options: &SearchOptions,
    style: Style,
) -> Result<(Vec<Vec<u8>>, u64, u32), EngineError> {
    if options.all {
        return Err(EngineError::Limit(
            "the bfs engine finds one shortest solution; --all works only with --engine ida".into(),
        ));
    }
    let Some(puzzle) = puzzle_of(start) else {
        return Err(EngineError::UnsupportedBoard {
            engine: "bfs",
            board: start.board().to_string(),
        });
    };
    let memory = options.memory_limit.unwrap_or(DEFAULT_MEMORY);
    let stop = options.stop.as_deref();
    // The distance worked on and the configurations found since the last look at the stop.
    let (mut distance, mut found) = (0, 0);
    let mut observer = |event: Event| {
        match event {
            Event::Distance(d) => distance = d,
            Event::New { .. } => found += 1,
            _ => {}
        }
        match stop {
            Some(stop) if found == Stop::EVERY || matches!(event, Event::Distance(_)) => {
                stop.spend(std::mem::take(&mut found));
                match stop.should_stop(0) {
                    true => ControlFlow::Break(distance),
                    false => ControlFlow::Continue(()),
                }
            }
            _ => ControlFlow::Continue(()),
        }
    };
    let outcome = solve_observed(&puzzle, style, memory, &mut observer, &mut |_| {}).map_err(
        |halt| match (halt, stop) {
            (Halt::Observer(distance), Some(stop)) => {
                stop.spend(found);
                stop.stopped(distance.to_string(), true)
            }
            (Halt::Memory(limit), _) => EngineError::Limit(limit.to_string()),
            (Halt::Observer(_), None) => EngineError::Limit("stopped".into()),
        },
    )?;
    let Outcome::Solved {
        path,
        generated,
        distance,
        ..
    } = outcome
    else {
        return Err(EngineError::Unsolvable);
    };
    let geometry = Geometry::new(&puzzle);
    let kinds = path
        .iter()
        .map(|key| {
            let mut state = geometry.empty_state();
            state.unpack(&geometry, key);
            state.kinds(&geometry)
        })
        .collect();
    Ok((kinds, generated, distance))
}

impl Engine for BfsEngine {
    fn name(&self) -> &'static str {
        "bfs"
    }

    fn iterative_deepening(&self) -> bool {
        false
    }

    fn solve(&self, start: &Position, options: &SearchOptions, progress: Progress<'_>) -> Answer {
        if options.order.is_some() {
            return Err(EngineError::OrderNotSupported { engine: "bfs" });
        }
        let clock = Instant::now();
        let (kinds, generated, distance) = search_path(start, options, self.style)?;
        let blanks: Vec<usize> = kinds
            .iter()
            .filter_map(|tiles| tiles.iter().position(|&t| t == 0))
            .collect();
        let solution = stm_path(start, &blanks)
            .and_then(|moves| Solution::from_moves(start, moves))
            .ok_or_else(|| {
                EngineError::Limit("internal error: the bfs path does not replay".into())
            })?;
        // In the multi-tile metric the one bound is the distance in its moves.
        let (happy, sad) = match self.style {
            Style(0) => (solution.happy, solution.sad),
            _ => (distance, 0),
        };
        let seconds = clock.elapsed().as_secs_f64();
        let bound = BoundStats {
            happy,
            sad,
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

/// The tiles pushed when the blank goes through `blanks` (its cell on each configuration of a
/// path, the start's first), each step along a row or column; `None` when two cells are not
/// in line.
fn stm_path(start: &Position, blanks: &[usize]) -> Option<Vec<u8>> {
    let board = start.board();
    let mut position = *start;
    let mut tiles = Vec::new();
    for &target in blanks.iter().skip(1) {
        let from = position.blank();
        let direction = toward(board, from, target)?;
        while position.blank() != target {
            tiles.push(position.move_blank(direction)?);
        }
    }
    Some(tiles)
}

/// The direction from `from` to `to` on the same row or column.
fn toward(board: Board, from: usize, to: usize) -> Option<Direction> {
    let (r0, c0, r1, c1) = (
        board.row(from),
        board.col(from),
        board.row(to),
        board.col(to),
    );
    match (r0 == r1, c0 == c1) {
        (true, false) if c1 > c0 => Some(Direction::East),
        (true, false) => Some(Direction::West),
        (false, true) if r1 > r0 => Some(Direction::South),
        (false, true) => Some(Direction::North),
        _ => None,
    }
}
