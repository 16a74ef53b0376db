//! The lower bounds of the boards searched so far in this process, built once per board (and
//! the relabelled 4x4 table read or built once), and their duplicate-pruning machines.
//!
//! Building a board's walking-distance tables takes milliseconds up to 4x4 (about a second for
//! boards with a side of 5, most of it finding that a part is too large); a batch, a
//! cross-check or a comparison builds them once. Invariant: the
//! bound handed out for a board is the one [`LowerBound::new`] builds for it.

use super::bound::LowerBound;
use super::relabel::RelabelTable;
use super::Config;
use crate::board::Board;
use crate::engine::EngineError;
use crate::position::Position;
use crate::prune::{self, Machine, Prune, Spelling};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The bounds built so far, by board and whether they use the relabelled table.
type Built = Mutex<HashMap<(Board, bool), Arc<LowerBound>>>;

/// The lower bound of `board` as `config` chooses it, built (or read) on first use.
pub fn lower_bound(board: Board, config: &Config) -> Arc<LowerBound> {
    static BUILT: OnceLock<Built> = OnceLock::new();
    let table = config.bound.uses_table(board);
    let built = BUILT.get_or_init(|| Mutex::new(HashMap::new()));
    // A poisoned lock only means another thread panicked while building: build again.
    let mut built = built
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    built
        .entry((board, table))
        .or_insert_with(|| {
            let bound = LowerBound::new(board);
            Arc::new(match table {
                true => bound.with_table(relabel_table(config)),
                false => bound,
            })
        })
        .clone()
}

/// The lower bound for a search from `start`, which must be solvable.
pub fn for_search(start: &Position, config: &Config) -> Result<Arc<LowerBound>, EngineError> {
    match start.is_solvable() {
        true => Ok(lower_bound(start.board(), config)),
        false => Err(EngineError::Unsolvable),
    }
}

/// The duplicate-pruning machine of an MTM search of `board` as `config` chooses it: with
/// `fsm`, the forbidden jump words of at most [`prune::mtm_depth`] moves, read from the tables'
/// directory or built there, once per board and process; a machine that refuses nothing with
/// `none` or when every optimal solution is wanted (`all`: pruning keeps one of each).
pub fn machine(board: Board, config: &Config, all: bool) -> Arc<Machine> {
    static BUILT: OnceLock<Mutex<HashMap<Board, Arc<Machine>>>> = OnceLock::new();
    let spelling = Spelling::mtm(board.rows(), board.cols());
    if config.prune == Prune::None || all {
        return Arc::new(Machine::none_for(spelling));
    }
    let built = BUILT.get_or_init(|| Mutex::new(HashMap::new()));
    let mut built = built
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    built
        .entry(board)
        .or_insert_with(|| {
            let dir = crate::heuristic::cache::table_dir(config.tables.as_deref()).ok();
            let depth = prune::mtm_depth(board.rows(), board.cols());
            // About 8 s on 4x4 the first time: said on stderr, as the tables' builds are.
            Arc::new(prune::cache::load(dir.as_deref(), depth, spelling, true).0)
        })
        .clone()
}

/// The relabelled 4x4 table, read or built once per process.
fn relabel_table(config: &Config) -> Arc<RelabelTable> {
    static TABLE: OnceLock<Arc<RelabelTable>> = OnceLock::new();
    TABLE
        .get_or_init(|| Arc::new(super::store::load_or_build(config.tables.as_deref())))
        .clone()
}
