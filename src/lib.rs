//! `fifteen`: provably shortest solutions to sliding puzzles.
//!
//! Module map:
//! - [`board`]: board shapes, directions, home cells and Manhattan distances;
//! - [`position`]: positions, their notations and conventions, solvability, replay;
//! - [`engine`]: the engines behind one interface — the reference IDA* (Knuth's KORF0);
//! - [`sliding`]: the breadth-first engine, Knuth's SLIDING for general sliding-block puzzles;
//! - [`cli`]: the `fifteen` command line, one file per subcommand.
#![forbid(unsafe_code)]

pub mod board;
pub mod cli;
pub mod engine;
pub mod position;
pub mod sliding;

pub use board::{Board, Direction};
pub use engine::{
    BoundStats, Engine, EngineError, EngineKind, SearchOptions, SearchOutcome, SearchStats,
    Solution,
};
pub use position::{Convention, Position, PositionError};
