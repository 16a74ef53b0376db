//! Every configuration of a tile puzzle, in RAM: the enumerator of `fifteen levels` and of
//! `fifteen sliding --levels` on plain tile puzzles.
//!
//! The idea (Korf's two-bit breadth-first search, with Tarakanov's index): a configuration is a
//! slot of a perfect index ([`grid`]), the rank of its tiles' order and its blank's cell, and
//! holds two bits; [`search`] fills the levels one after the other on every core, reading only
//! the slots of the level it expands. [`checkpoint`] keeps a run's labels and level sizes on
//! disk at level boundaries, checked when read back, so a long run survives a kill.
//!
//! Invariant: the sizes of the levels add up to `cells! / 2`, every reachable configuration,
//! each counted once at its distance from the start; the driver checks the sum.

pub mod checkpoint;
pub mod grid;
pub mod search;

pub use grid::{Grid, GridError, MAX_CELLS};
pub use search::{Enumeration, Level, FEW};

use crate::mtm::Metric;

/// The metric in words, as the output and the checkpoint's errors name it.
pub fn metric_name(metric: Metric) -> &'static str {
    match metric {
        Metric::Stm => "single-tile",
        Metric::Mtm => "multi-tile",
    }
}
