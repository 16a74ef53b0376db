//! `fifteen`: provably shortest solutions to sliding puzzles.
//!
//! Module map:
//! - [`board`]: board shapes, directions, home cells and Manhattan distances;
//! - [`position`]: positions, their notations and conventions, solvability, replay;
//! - [`engine`]: the engines behind one interface — the reference IDA* (Knuth's KORF0);
//! - [`heuristic`]: lower bounds: Manhattan and pattern databases (building, caching);
//! - [`prune`]: duplicate pruning: the machine of forbidden move strings (Taylor & Korf);
//! - [`differential`]: checks engines' answers against the position and each other;
//! - [`goal`]: goals other than the standard one, turned into it by a mirror and new names;
//! - [`korf100`]: Korf's 100 instances with optimal lengths and exact IDA* node counts;
//! - [`korf50`]: Korf's 50 24-puzzle instances with their published optimal lengths;
//! - [`levels`]: every configuration of a tile puzzle of up to 16 cells, two bits each;
//! - [`mtm`]: the multi-tile metric: its moves, lower bound, reference IDA* and notation;
//! - [`notation`]: move strings in every notation fifteen prints, read back and replayed;
//! - [`progress`]: the spinner of a long step, for the CLI and the library's builds;
//! - [`random`]: seeded random walks and uniformly random solvable positions;
//! - [`sliding`]: the breadth-first engine, Knuth's SLIDING for general sliding-block puzzles;
//! - [`tray`]: positions on any board up to 16x16, for the move verbs (no search);
//! - [`cli`]: the `fifteen` command line, one file per subcommand.
//!
//! Every engine answers through the same [`Engine`] trait:
//!
//! ```
//! use fifteen::{Convention, EngineKind, Position, SearchOptions};
//!
//! // Knuth's example that needs only happy moves: 56 of them.
//! let start = Position::parse("bc9e80df3412a756", None, Convention::Knuth)?;
//! for kind in [EngineKind::Automaton, EngineKind::Ida] {
//!     let outcome = kind.engine().solve(&start, &SearchOptions::default(), &mut |_| {})?;
//!     let solution = &outcome.solutions[0];
//!     assert_eq!((solution.happy, solution.sad), (56, 0));
//!     assert!(solution.solves(&start));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

pub mod board;
pub mod cli;
pub mod differential;
pub mod engine;
pub mod goal;
pub mod heuristic;
pub mod korf100;
pub mod korf50;
pub mod levels;
pub mod mtm;
pub mod notation;
pub mod plot;
pub mod position;
pub mod progress;
pub mod prune;
pub mod random;
pub mod serve;
pub mod sliding;
pub mod tray;

/// The version of this library and binary; plans of `fifteen shard` name it, and a worker of
/// another version refuses them.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub use board::{Board, Direction};
pub use engine::{
    BoundStats, Engine, EngineError, EngineKind, SearchOptions, SearchOutcome, SearchStats,
    Solution,
};
pub use position::{Convention, Position, PositionError};
