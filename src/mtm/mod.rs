//! The multi-tile metric (MTM): one move slides every tile between the blank and a cell of its
//! row or column one step, so the blank jumps 1 to `side - 1` cells in a line.
//!
//! Solutions are still [`Solution`](crate::engine::Solution)s of tiles pushed one at a time
//! (their STM path, with its happy/sad split), and the engines answer through the same
//! [`Engine`](crate::engine::Engine) trait; an MTM move is a maximal run of one direction in
//! that path ([`moves::jumps_of`]), which is also how the MTM length is read off a solution.
//! In the [`BoundStats`](crate::engine::BoundStats) of an MTM search the bound, in MTM moves,
//! is `happy` and `sad` is 0.
//!
//! One job per file: [`moves`] (jumps and MTM paths), [`walking`] (walking-distance tables in
//! MTM), [`bound`] (the lower bound they make), [`tables`] (built once per board),
//! [`relabel`] (the relabelled 4x4 table), [`store`] (its file),
//! [`search`] (the reference IDA*), [`automaton`] (the same tree run by the generated
//! automaton), [`parallel`] (a bound on several threads), [`shard`] (a bound's cut as pieces of work), [`bfs`] (breadth-first in SLIDING's style 3, and every
//! distance of a small board), [`notation`] (players' notation, pictures), [`check`] (what
//! "the MTM engines agree" means).

pub mod automaton;
pub mod bfs;
pub mod bound;
pub mod check;
pub mod moves;
pub mod notation;
pub mod parallel;
pub mod relabel;
pub mod search;
pub mod shard;
pub mod store;
pub mod tables;
pub mod walking;

use crate::board::Board;
use crate::engine::{Engine, EngineKind};
use crate::prune::Prune;
use std::path::PathBuf;

/// How moves are counted (`--metric`).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Single-tile metric: one tile one cell is one move.
    #[default]
    Stm,
    /// Multi-tile metric: the blank jumps 1 to side-1 cells along a line, one move.
    Mtm,
}

/// Which lower bound the MTM search uses (`--heuristic` with `--metric mtm`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoundChoice {
    /// `default`: on 4x4 the relabelled tables (built on first use, about 25 seconds, and
    /// kept), elsewhere walking distance.
    #[default]
    Default,
    /// `walking`: walking distance in MTM alone.
    Walking,
    /// `relabel`: walking distance and the relabelled table (4x4 only).
    Relabel,
}

impl BoundChoice {
    /// The choice of a `--heuristic` name; `None`: the default.
    pub fn parse(name: Option<&str>) -> Result<BoundChoice, String> {
        match name {
            None | Some("default") => Ok(BoundChoice::Default),
            Some("walking") => Ok(BoundChoice::Walking),
            Some("relabel") => Ok(BoundChoice::Relabel),
            Some(other) => Err(format!(
                "with --metric mtm, --heuristic is walking, relabel (4x4) or default, not {other:?}"
            )),
        }
    }

    /// Whether a search of `board` uses the relabelled table.
    pub fn uses_table(self, board: Board) -> bool {
        board == Board::fifteen() && self != BoundChoice::Walking
    }
}

/// How the MTM engines search: the lower bound, the duplicate pruning, and where the
/// relabelled table and the pruning machine are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    pub bound: BoundChoice,
    /// `fsm`: the IDA* engines walk the machine of the board's forbidden jump words
    /// ([`tables::machine`]); `none`: only a move on the axis of the one before is not made.
    pub prune: Prune,
    /// `--tables DIR`, else `$FIFTEEN_TABLES`, else the user's cache directory.
    pub tables: Option<PathBuf>,
}

/// The MTM engine of an engine kind, or the one-line reason there is none yet.
pub fn engine(kind: EngineKind, config: &Config) -> Result<Box<dyn Engine>, String> {
    match kind {
        EngineKind::Ida => Ok(Box::new(search::MtmIda {
            config: config.clone(),
        })),
        EngineKind::Bfs => Ok(Box::new(bfs::engine())),
        EngineKind::Automaton => Ok(Box::new(automaton::MtmAutomaton {
            config: config.clone(),
        })),
    }
}
