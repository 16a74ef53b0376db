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
//! generators ([`moves`], with the superpieces of [`moves::ideals`]) producing *exactly* the
//! configurations one move away in the chosen style; they are checked against
//! [`reference`](mod@reference), a deliberately naive generator over explicit sets of blocks.
//!
//! Where this departs from the seed: styles 2 and 5 explore each mover's displacements with a
//! private visited mark instead of the seed's global-table trick of section 44, which can
//! leave a configuration one move too far when a different mover reached it first from the
//! same source (then the style-5 distance can even exceed the style-2 distance).
//!
//! The files come in layers, to be read in this order; each uses only the layers before it.
//!
//! 1. The puzzle format: [`spec`] reads SLIDING's input format and names the move [`Style`]s;
//!    [`library`] holds the classic puzzles in it.
//! 2. The board and packing: [`occupancy`] is the board as the bits of one word, for fit
//!    tests; [`pack`] lays the board out in memory ([`Geometry`], [`State`]) and packs
//!    configurations into nybbles.
//! 3. Moves by style ([`moves`]), in the seed's order: [`moves::walk`] moves one mover around
//!    and shows each move to a sink; [`moves::ideals`] finds the superpieces; [`moves::keys`]
//!    rewrites a successor's key from its parent's, and [`moves::units`] makes the successor
//!    keys of n-puzzles directly; [`moves::Mover`] puts them together.
//! 4. The search: [`stops`] recognises the stops, [`bfs`] searches level by level, and
//!    [`mod@solve`] drives whole solves (with the waypoint restarts).
//! 5. Output: [`output`] prints in SLIDING's format.
//!
//! Beside them: [`reference`](mod@reference) is the test oracle. The n-puzzle engine of
//! `fifteen solve --engine bfs` is built on this one in [`crate::engine::bfs`]: the engines
//! use the sliding layers, never the other way round.

// 1. The puzzle format.
pub mod library;
pub mod spec;

// 2. The board and packing.
pub mod occupancy;
pub mod pack;

// 3. Moves by style.
pub mod moves;

// 4. The search.
pub mod bfs;
pub mod solve;
pub mod stops;

// 5. Output.
pub mod output;

// Beside them: the test oracle.
pub mod reference;

pub use bfs::{format_size, Event, Goal, MemoryLimit};
pub use moves::{find_move, BlockMove};
pub use pack::{Geometry, State};
pub use solve::{solve, solve_observed, Halt, Outcome, DEFAULT_MEMORY};
pub use spec::{Problem, Puzzle, SpecError, Style};
pub use stops::Stops;
