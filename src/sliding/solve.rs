//! A whole solve: the search of [`super::bfs`] from the start for the stops ([`super::stops`]),
//! and the waypoint restarts that recover the part of the path it forgot.
//!
//! When the memory budget made the search forget the levels before `f`, its path starts at the
//! configuration it reached at level `f`: the search runs again from the start with that
//! waypoint as its goal, and the two paths are joined, until the path starts at the start (the
//! seed's waypoint restart). A single full stop is found by its key, as in the seed; partial
//! or several stops by testing each new configuration.
//!
//! Invariant: an [`Outcome::Solved`] path runs from the start to a configuration matching the
//! stop it names, each step one move of the style, and is as short as any.

use super::bfs::{self, Event, Goal, MemoryLimit};
use super::pack::Geometry;
use super::spec::{Puzzle, Style};
use super::stops::Stops;
use std::convert::Infallible;
use std::ops::ControlFlow;

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
