//! The multi-tile metric's engines as the flags make them, for `solve`, `crosscheck` and
//! `compare` with `--metric mtm` (everything else those commands do is one path for both
//! metrics: see [`super::metric`] and [`super::plan`]).
//!
//! The engines: `automaton` (the reference's tree run by the generated automaton: what `solve`
//! runs when no `--engine` is given, on the boards it is generated for, on `--threads` threads),
//! `ida` (the reference MTM IDA*, the default on the others) and `bfs` (SLIDING's style 3).
//! `--heuristic` names the MTM lower bound (`walking`, `relabel`, `default`) and `--tables DIR`
//! where the relabelled 4x4 table is kept; `--prune` (fsm by default, none with `--all`) whether
//! the IDA* engines walk the board's duplicate-pruning machine of jump words. Invariant: a
//! configuration made here has a bound that serves its boards (relabel only on 4x4).

use super::Failure;
use crate::board::Board;
use crate::engine::{Engine, EngineKind};
use crate::heuristic::store::Choice;
use crate::mtm::automaton::generated_for;
use crate::mtm::{BoundChoice, Config};
use crate::prune::Prune;
use std::path::Path;

/// The MTM configuration of `--heuristic`, `--tables` and `--prune` (fsm unless it says none;
/// a search listing every optimal solution, `--all`, prunes none).
pub fn config(
    heuristic: Option<&Choice>,
    tables: Option<&Path>,
    (prune, all): (Option<Prune>, bool),
) -> Result<Config, Failure> {
    let name = heuristic.map(|c| c.to_string());
    if all && prune == Some(Prune::Fsm) {
        return Err(Failure::BadInput(super::ALL_PRUNES_NONE.into()));
    }
    Ok(Config {
        bound: BoundChoice::parse(name.as_deref()).map_err(Failure::BadInput)?,
        prune: prune.unwrap_or(Prune::Fsm),
        tables: tables.map(Path::to_path_buf),
    })
}

/// The MTM engine of `kind`, built with `config`.
pub fn engine(kind: EngineKind, config: &Config) -> Result<Box<dyn Engine>, Failure> {
    crate::mtm::engine(kind, config).map_err(Failure::BadInput)
}

/// The engine `solve` runs on `board` (any: `None`): the one named (`named`), else the
/// automaton where it is generated and the reference search elsewhere.
pub fn solve_kind(named: Option<EngineKind>, board: Option<Board>) -> EngineKind {
    match named {
        Some(kind) => kind,
        None if board.is_none_or(generated_for) => EngineKind::Automaton,
        None => EngineKind::Ida,
    }
}

/// Refuses `--heuristic relabel` on a board other than 4x4, or toward a goal whose blank is not
/// in a corner (`board` the one searched, see [`crate::goal`]), in `solve`'s words.
pub fn check_board(config: &Config, board: Board) -> Result<(), String> {
    let fifteen = Board::fifteen();
    let sized = (board.rows(), board.cols()) == (fifteen.rows(), fifteen.cols());
    if config.bound == BoundChoice::Relabel && sized && board != fifteen {
        let error = crate::engine::EngineError::CornerGoal("--heuristic relabel".into());
        return Err(error.to_string());
    }
    if config.bound == BoundChoice::Relabel && board != fifteen {
        return Err(format!(
            "--heuristic relabel is a 4x4 table; a {board} board has walking distance (the default)"
        ));
    }
    Ok(())
}

/// Refuses `--heuristic relabel` where a board other than 4x4 is among `boards`, in the
/// words of `crosscheck` and `compare`.
pub fn check_boards(
    config: &Config,
    mut boards: impl Iterator<Item = Board>,
) -> Result<(), Failure> {
    if config.bound == BoundChoice::Relabel && boards.any(|board| board != Board::fifteen()) {
        return Err(Failure::BadInput(
            "--heuristic relabel is a 4x4 table; leave it out on other boards".into(),
        ));
    }
    Ok(())
}

/// The lower bound a search of `board` with `config` is guided by, as `--stats` and `--json`
/// name it: the name `--heuristic` picks it by (as in the STM reports, issue 41), and itself.
pub fn lower_bound(
    board: Board,
    config: &Config,
) -> (&'static str, std::sync::Arc<crate::mtm::bound::LowerBound>) {
    let name = match config.bound.uses_table(board) {
        true => "relabel",
        false => "walking",
    };
    (name, crate::mtm::tables::lower_bound(board, config))
}
