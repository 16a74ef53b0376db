//! The MTM automaton engine (`--metric mtm --engine automaton`): the tree of the reference
//! search ([`super::search`]) run by the automaton that `fifteen_macros::automaton!` generates
//! with `metric = mtm`, one instantiation per board.
//!
//! The generated code replaces the reference's recursion, its list of jumps and its axis test
//! by one straight-line piece of code per state — the blank's cell, the jump that brought it
//! there, the jump to try — with an explicit stack; the lower bound is the same
//! [`LowerBound`], called the same way, and the bounds are stepped by the same
//! [`deepen`]. This module prepares each pass, runs it, and turns a winning stack back into
//! the tiles pushed.
//!
//! Not here, measured (2026-11-27, one thread, the same nodes): *lanes*, K passes of subtrees
//! of the bound's cut interleaved in one thread, each handing over to the next once a place has
//! asked for its children's table entries (a second generated loop that returns at that point
//! and resumes there, its stack worked on in place). One lane cost 5% more than this loop (the
//! return, the reloaded locals, the dispatch from the loop's head); K = 2 won that back and
//! 5-7% more on Korf's 100 (3.76-4.03 s against 4.07-4.33 s) but lost 9% on the transposition
//! `159d26ae37bf48c0` (81.9 s against 75.3 s, K = 3 86.3 s), and K >= 4 lost everywhere. A
//! place's first attempt already asks for all its children's entries at once, so the misses
//! left to overlap are one a place, and a hand-over costs about as much as the wait it hides.
//!
//! Invariant: the automaton and the reference generate the same children in the same order
//! with the same estimates, so every pass has the same node count, the same next bound and
//! the same first solution (and with `--all` the same solutions in the same order).

use super::bound::LowerBound;
use super::moves::{play_all, Jump};
use super::parallel;
use super::relabel::Codes;
use super::search::{deepen, Subtree};
use super::tables;
use crate::board::{Board, Direction};
use crate::engine::ida::Pass;
use crate::engine::{Answer, BoundStats, Engine, EngineError, Progress, SearchOptions};
use crate::position::Position;
use crate::prune::Machine;
use std::time::Instant;

/// What the driver needs of one generated automaton.
trait Generated: Default {
    type State: Copy;

    /// Prepares a pass below `root`, reached by the jump `came` (none: the start) after `g`
    /// moves, with the bound `limit`, its parts in states `parts` (vertical, horizontal), its
    /// relabelled board's codes `codes` and the pruning machine in state `m`; returns the
    /// first state to run.
    fn set_up(
        &mut self,
        root: &Position,
        came: Option<Jump>,
        depth_and_limit: (u32, u32),
        parts: (u32, u32),
        codes: Codes,
        m: u32,
    ) -> Self::State;
    /// Runs until the pass ends (`None`) or a jump reaches the goal (its state), never
    /// completing a word the machine `prune` forbids.
    fn run(
        &mut self,
        bound: &LowerBound,
        prune: &Machine,
        state: Self::State,
    ) -> Option<Self::State>;
    /// Where to resume after recording a winning jump.
    fn resume(state: Self::State) -> Self::State;
    /// The blank's cells along the path that ends with the winning jump `win`: the start's
    /// cell, then where each jump lands.
    fn path(&self, win: Self::State) -> Vec<usize>;
    fn nodes(&self) -> u64;
    fn next(&self) -> u32;
}

/// Instantiates the MTM automaton for each listed board, in a module of its own, and lets the
/// driver use it.
macro_rules! instantiate {
    ($($module:ident = $rows:literal x $cols:literal, tables = $tables:literal);* $(;)?) => {
        $(
            /// The MTM automaton, generated for one board size and bound.
            pub mod $module {
                use crate::mtm::bound::LowerBound as Bound;
                // Walking distance's code names the next axis; the table's does not.
                #[allow(unused_imports)]
                use crate::mtm::moves::Axis;
                use crate::mtm::relabel::Codes;
                use crate::prune::prefetch_row;
                fifteen_macros::automaton!(
                    rows = $rows, cols = $cols, metric = mtm, tables = $tables
                );
            }

            impl Generated for $module::Machine {
                type State = $module::State;

                fn set_up(
                    &mut self,
                    root: &Position,
                    came: Option<Jump>,
                    (g, limit): (u32, u32),
                    (v, h): (u32, u32),
                    codes: Codes,
                    m: u32,
                ) -> $module::State {
                    *self = $module::Machine::default();
                    // Each tile named after its home (plus 1), as the generator's home lines
                    // say: on the standard board, its own name.
                    let board = root.board();
                    for (to, &tile) in self.tiles.iter_mut().zip(root.tiles()) {
                        *to = match tile {
                            0 => 0,
                            tile => board.home(tile) as u8 + 1,
                        };
                    }
                    (self.g, self.limit) = (g, limit);
                    $module::Machine::set_parts(self, v, h);
                    self.ms[0] = m;
                    $module::Machine::set_codes(self, codes);
                    let blank = root.blank();
                    match came {
                        None => $module::root(blank),
                        Some(jump) => $module::entered(blank, jump.direction.code(), jump.distance),
                    }
                    .unwrap_or($module::State::Bottom)
                }

                fn run(
                    &mut self,
                    bound: &LowerBound,
                    prune: &Machine,
                    state: $module::State,
                ) -> Option<$module::State> {
                    $module::Machine::run(self, bound, prune.table(), state)
                }

                fn resume(state: $module::State) -> $module::State {
                    state.fallback()
                }

                fn path(&self, win: $module::State) -> Vec<usize> {
                    let top = usize::from(self.sp);
                    let mut cells: Vec<usize> =
                        self.states[1..=top].iter().map(|s| s.cell()).collect();
                    cells.extend([win.cell(), win.landing()]);
                    cells
                }

                fn nodes(&self) -> u64 {
                    self.nodes
                }

                fn next(&self) -> u32 {
                    self.next
                }
            }
        )*

        /// Solves on whichever instantiation fits the board and the bound (the relabelled
        /// table's or walking distance).
        fn dispatch(
            start: &Position,
            bound: &LowerBound,
            prune: &Machine,
            options: &SearchOptions,
            progress: Progress<'_>,
        ) -> Answer {
            let board = start.board();
            let searched = (bound, prune);
            let table = bound.table.is_some();
            match (board.rows(), board.cols()) {
                $(
                    ($rows, $cols) if table == $tables => {
                        drive::<$module::Machine>(start, searched, options, progress)
                    }
                )*
                _ => Err(unsupported(board)),
            }
        }

        /// [`below`] on whichever instantiation fits the subtree's board and the bound.
        fn dispatch_below(
            searched: (&LowerBound, &Machine),
            subtree: &Subtree,
            (limit, all): (u32, bool),
        ) -> Result<Pass, EngineError> {
            let board = subtree.root.board();
            let table = searched.0.table.is_some();
            match (board.rows(), board.cols()) {
                $(
                    ($rows, $cols) if table == $tables => {
                        let mut machine = $module::Machine::default();
                        Ok(below(&mut machine, searched, subtree, (limit, all)))
                    }
                )*
                _ => Err(unsupported(board)),
            }
        }

        /// The board sizes the MTM automaton is generated for.
        pub const SIZES: &[(usize, usize)] = &[$(($rows, $cols),)*];
    };
}

// Boards of at most 16 cells: 4x5, 5x4 and 5x5 would add 1.3 MB of code and minutes of
// compilation for boards whose MTM bound is too weak to solve more than short walks (the
// reference search takes them).
instantiate!(
    board2x2 = 2 x 2, tables = false;
    board2x3 = 2 x 3, tables = false;
    board2x4 = 2 x 4, tables = false;
    board2x5 = 2 x 5, tables = false;
    board3x2 = 3 x 2, tables = false;
    board3x3 = 3 x 3, tables = false;
    board3x4 = 3 x 4, tables = false;
    board3x5 = 3 x 5, tables = false;
    board4x2 = 4 x 2, tables = false;
    board4x3 = 4 x 3, tables = false;
    board4x4 = 4 x 4, tables = false;
    board4x4_table = 4 x 4, tables = true;
    board5x2 = 5 x 2, tables = false;
    board5x3 = 5 x 3, tables = false;
);

const NAME: &str = "automaton";

fn unsupported(board: Board) -> EngineError {
    EngineError::UnsupportedBoard {
        engine: NAME,
        board: board.to_string(),
    }
}

/// Longest path the 256-entry stack can hold (with `Bottom` under it).
pub const MAX_LENGTH: u32 = 250;

/// Whether the MTM automaton is generated for `board`.
pub fn generated_for(board: Board) -> bool {
    SIZES.contains(&(board.rows(), board.cols()))
}

/// The MTM automaton engine.
#[derive(Clone, Debug, Default)]
pub struct MtmAutomaton {
    pub config: super::Config,
}

impl Engine for MtmAutomaton {
    fn name(&self) -> &'static str {
        NAME
    }

    /// Bound lines of MTM searches carry the bound in `happy` (`sad` is 0).
    fn solve(&self, start: &Position, options: &SearchOptions, progress: Progress<'_>) -> Answer {
        if !generated_for(start.board()) {
            return Err(unsupported(start.board()));
        }
        let bound = tables::for_search(start, &self.config)?;
        let prune = tables::machine(start.board(), &self.config, options.all);
        dispatch(start, &bound, &prune, options, progress)
    }
}

/// IDA* with the passes run by one generated automaton under the lower bound `bound` and the
/// pruning machine `prune`; a pass after one that took at least `options.split_after` seconds
/// runs on `options.threads` threads ([`parallel`]).
fn drive<A: Generated>(
    start: &Position,
    (bound, prune): (&LowerBound, &Machine),
    options: &SearchOptions,
    progress: Progress<'_>,
) -> Answer {
    let (parts, all) = (bound.states(start), options.all);
    let codes = bound.codes(start.tiles());
    let mut machine = A::default();
    // The bounds so far, as far as the cut of the next needs them (their nodes and times).
    let mut before: Vec<BoundStats> = Vec::new();
    let stop = options.stop.as_deref();
    deepen(start, bound, all, progress, &mut |limit| {
        if limit > MAX_LENGTH {
            return Err(EngineError::Limit(format!(
                "the MTM automaton's stack holds paths of at most {MAX_LENGTH} moves"
            )));
        }
        let clock = Instant::now();
        options.bound_starts(true, || format!("{limit} moves"));
        let stopped = || match stop {
            Some(stop) => stop.stopped(limit.to_string(), true),
            None => EngineError::Limit("stopped".into()),
        };
        if stop.is_some_and(|stop| stop.should_stop(0)) {
            return Err(stopped());
        }
        let found = match options.subtrees(&before) {
            Some(wanted) => {
                let below = |machine: &mut A, subtree: &Subtree| {
                    below(machine, (bound, prune), subtree, (limit, all))
                };
                let threads = (limit, all, options.threads);
                parallel::pass(
                    start,
                    bound,
                    prune,
                    (threads, wanted),
                    (options.live.as_deref(), stop),
                    &A::default,
                    &below,
                )
                .ok_or_else(stopped)?
            }
            None => {
                let state = machine.set_up(start, None, (0, limit), parts, codes, Machine::START);
                let found = pass(&mut machine, (bound, prune), start, state, all);
                if let Some(stop) = stop {
                    stop.spend(found.nodes);
                }
                found
            }
        };
        before.push(BoundStats {
            happy: limit,
            sad: 0,
            nodes: Some(found.nodes),
            seconds: clock.elapsed().as_secs_f64(),
            completed: true,
            solutions: 0,
        });
        Ok(found)
    })
}

/// The pass of the bound `limit` below `subtree`'s root, run by `machine`: its solutions
/// (every one with `all`) as tiles pushed from that root.
fn below<A: Generated>(
    machine: &mut A,
    searched: (&LowerBound, &Machine),
    subtree: &Subtree,
    (limit, all): (u32, bool),
) -> Pass {
    let state = machine.set_up(
        &subtree.root,
        Some(subtree.came),
        (subtree.g, limit),
        subtree.parts,
        subtree.codes,
        subtree.machine,
    );
    pass(machine, searched, &subtree.root, state, all)
}

/// Searches one subtree of a bound's cut (`fifteen shard run`) on the instantiation that fits
/// its board and `bound`: [`below`], or why the automaton does not serve it.
pub fn search_subtree(
    (bound, prune): (&LowerBound, &Machine),
    subtree: &Subtree,
    (limit, all): (u32, bool),
) -> Result<Pass, EngineError> {
    if limit > MAX_LENGTH {
        return Err(EngineError::Limit(format!(
            "the MTM automaton's stack holds paths of at most {MAX_LENGTH} moves"
        )));
    }
    dispatch_below((bound, prune), subtree, (limit, all))
}

/// Runs one prepared pass of `machine` from `state` below `from` (the start, or a subtree's
/// root): the solutions (tiles pushed from `from`), every one or the first, the nodes and the
/// least `g + h` cut off.
fn pass<A: Generated>(
    machine: &mut A,
    (bound, prune): (&LowerBound, &Machine),
    from: &Position,
    mut state: A::State,
    all: bool,
) -> Pass {
    let mut solutions = Vec::new();
    while let Some(win) = machine.run(bound, prune, state) {
        solutions.push(tiles_pushed(from, &machine.path(win)));
        if !all {
            break;
        }
        state = A::resume(win);
    }
    Pass {
        nodes: machine.nodes(),
        next: machine.next(),
        solutions,
    }
}

/// The tiles pushed when the blank jumps from each of `cells` to the next, in a line.
fn tiles_pushed(start: &Position, cells: &[usize]) -> Vec<u8> {
    let board = start.board();
    let jumps: Vec<Jump> = cells
        .windows(2)
        .map(|pair| {
            let (from, to) = (pair[0], pair[1]);
            let (direction, distance) = if board.row(from) == board.row(to) {
                let distance = board.col(from).abs_diff(board.col(to));
                match to > from {
                    true => (Direction::East, distance),
                    false => (Direction::West, distance),
                }
            } else {
                let distance = board.row(from).abs_diff(board.row(to));
                match to > from {
                    true => (Direction::South, distance),
                    false => (Direction::North, distance),
                }
            };
            Jump {
                direction,
                distance: distance as u8,
            }
        })
        .collect();
    // A path the automaton reports stays on the board; one that did not would not replay,
    // and the solution would be dropped rather than reported wrong.
    play_all(start, &jumps).map_or_else(Vec::new, |(_, tiles)| tiles)
}
