//! The breadth-first engine: Knuth's SLIDING for general sliding-block puzzles.
//!
//! The idea (seed sections 19–41): the configurations at distance `d` are the new ones among
//! the moves from distance `d − 1`; a move from distance `d − 1` can only reach distances
//! `d − 2`, `d − 1` or `d`, so only those three levels take part in the newness test. Every move
//! can be undone by a move of the same style, so the predecessor of a configuration is found
//! again among its own moves when the path is read backwards (the seed stores a link instead).
//! Configurations are packed into nybbles, one per cell not covered by an earlier block
//! ([`pack`]); several blocks of one kind are indistinguishable because only kinds are packed.
//!
//! The invariant that makes the answer right: when level `d` is complete it holds exactly the
//! configurations whose shortest distance from the start is `d`. It rests on the move
//! generators ([`moves`], [`ideals`]) producing *exactly* the configurations one move
//! away in the chosen style; they are checked against [`reference`](mod@reference), a deliberately naive
//! generator over explicit sets of blocks.
//!
//! Where this departs from the seed: styles 2 and 5 explore each mover's displacements with a
//! private visited mark instead of the seed's global-table trick of section 44, which can
//! leave a configuration one move too far when a different mover reached it first from the
//! same source (then the style-5 distance can even exceed the style-2 distance).
//!
//! Files: [`spec`] reads the input format, [`pack`] packs configurations, [`moves`] and
//! [`ideals`] generate moves (in the seed's order), [`keys`] rewrites a successor's key from
//! its parent's ([`units`] makes the successor keys of n-puzzles directly), [`bfs`] searches,
//! [`output`] prints in SLIDING's format, [`reference`](mod@reference) is the test oracle,
//! [`npuzzle`] serves `fifteen solve --engine bfs`.

pub mod bfs;
pub mod ideals;
pub mod keys;
pub mod library;
pub mod moves;
pub mod npuzzle;
pub mod occupancy;
pub mod output;
pub mod pack;
pub mod reference;
pub mod spec;
pub mod stops;
pub mod units;

pub use bfs::{format_size, Event, Goal, MemoryLimit};
pub use pack::{Geometry, State};
pub use spec::{Problem, Puzzle, SpecError, Style};
use std::convert::Infallible;
use std::ops::ControlFlow;
pub use stops::Stops;

/// Default memory budget: 2 GiB, well under the development machine's RAM.
pub const DEFAULT_MEMORY: u64 = 2 << 30;

/// How a whole solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A stop is `distance` moves away; `path` runs from start to the first configuration
    /// found that matches one, the stop numbered `stop` (from 0, in the input's order).
    Solved {
        distance: u32,
        stop: usize,
        path: Vec<Vec<u64>>,
        /// Sizes of the levels completed before the stop was found.
        levels: Vec<u64>,
        generated: u64,
        /// How many waypoint restarts the path needed.
        restarts: u32,
    },
    /// Every reachable configuration was seen; the stop was not among them (or none was given).
    Exhausted { levels: Vec<u64>, generated: u64 },
}

/// Solves `puzzle` in `style` within `memory` bytes. Progress goes to `observer`; each waypoint
/// restart is announced to `on_restart` with the level whose way back was forgotten.
pub fn solve(
    puzzle: &Puzzle,
    style: Style,
    memory: u64,
    observer: &mut dyn FnMut(Event),
    on_restart: &mut dyn FnMut(u32),
) -> Result<Outcome, MemoryLimit> {
    let mut observer = |event: Event| -> ControlFlow<Infallible> {
        observer(event);
        ControlFlow::Continue(())
    };
    solve_observed(puzzle, style, memory, &mut observer, on_restart).map_err(|halt| match halt {
        Halt::Memory(limit) => limit,
        Halt::Observer(never) => match never {},
    })
}

/// Why [`solve_observed`] gave no outcome.
#[derive(Debug)]
pub enum Halt<B> {
    /// The memory budget was exceeded.
    Memory(MemoryLimit),
    /// The observer returned `Break(reason)`.
    Observer(B),
}

/// [`solve`] with an observer that may stop the search (its output is gone, say): its
/// `Break(reason)` ends the search at once with `Halt::Observer(reason)`. The waypoint
/// restarts are not observed.
pub fn solve_observed<B>(
    puzzle: &Puzzle,
    style: Style,
    memory: u64,
    observer: &mut dyn FnMut(Event) -> ControlFlow<B>,
    on_restart: &mut dyn FnMut(u32),
) -> Result<Outcome, Halt<B>> {
    let geometry = Geometry::new(puzzle);
    let start = geometry.key_of(&puzzle.start);
    let mut stops = Stops::new(&geometry, puzzle);
    // One full stop is found by its key, as in the original; others by testing.
    let single = stops.single_key().map(<[u64]>::to_vec);
    let everything = stops.is_empty();
    let mut test = |key: &[u64]| stops.matching(&geometry, key).is_some();
    let goal = match &single {
        Some(key) => Goal::Key(key),
        None if everything => Goal::Everything,
        None => Goal::Test(&mut test),
    };
    let mut reason = None;
    let mut observer = |event: Event| match observer(event) {
        ControlFlow::Continue(()) => ControlFlow::Continue(()),
        ControlFlow::Break(why) => {
            reason = Some(why);
            ControlFlow::Break(())
        }
    };
    let report = bfs::search(&geometry, &start, goal, style, memory, &mut observer);
    // A search its observer stopped returns what it has: the reason is what counts.
    if let Some(why) = reason {
        return Err(Halt::Observer(why));
    }
    let report = report.map_err(Halt::Memory)?;
    let Some(found) = report.found else {
        return Ok(Outcome::Exhausted {
            levels: report.levels,
            generated: report.generated,
        });
    };
    let mut path = found.path;
    let mut first_level = found.first_level;
    let mut restarts = 0;
    while first_level > 0 {
        on_restart(first_level);
        restarts += 1;
        let waypoint = path[0].clone();
        let again = bfs::search(
            &geometry,
            &start,
            Goal::Key(&waypoint),
            style,
            memory,
            &mut |_| ControlFlow::Continue(()),
        )
        .map_err(Halt::Memory)?;
        let Some(part) = again.found else {
            break; // cannot happen: the waypoint was reached before
        };
        if part.first_level >= first_level {
            break; // cannot happen: the waypoint's level is live when it is found
        }
        let mut head = part.path;
        head.pop();
        head.extend(path);
        path = head;
        first_level = part.first_level;
    }
    let stop = path
        .last()
        .and_then(|key| stops.matching(&geometry, key))
        .unwrap_or(0);
    Ok(Outcome::Solved {
        distance: found.distance,
        stop,
        path,
        levels: report.levels,
        generated: report.generated,
        restarts,
    })
}

/// One block's part in a move: its kind and its anchor (row, column; 0-based), before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BlockMove {
    pub piece: char,
    pub from: (usize, usize),
    pub to: (usize, usize),
}

/// The move of `style` leading from `before` to `after` (the blocks that move, in row-major
/// order of where they were), if there is one.
pub fn find_move(
    geometry: &Geometry,
    style: Style,
    before: &[u64],
    after: &[u64],
) -> Option<Vec<BlockMove>> {
    let mut state = geometry.empty_state();
    state.unpack(geometry, before);
    let origin = state.clone();
    let mut mover = moves::Mover::new();
    let mut answer = None;
    mover.successors(geometry, &mut state, style, |next, movers, _| {
        if next.pack_vec(geometry) == after {
            answer = Some(
                sorted(movers)
                    .into_iter()
                    .map(|b| {
                        let was = origin.blocks[usize::from(b)];
                        let now = next.blocks[usize::from(b)];
                        BlockMove {
                            piece: spec::kind_name(was.kind),
                            from: geometry.row_col(was.anchor),
                            to: geometry.row_col(now.anchor),
                        }
                    })
                    .collect(),
            );
        }
        answer.is_none()
    });
    answer
}

/// Block numbers in increasing order, which is the row-major order of their anchors.
fn sorted(movers: &[u16]) -> Vec<u16> {
    let mut movers = movers.to_vec();
    movers.sort_unstable();
    movers
}
