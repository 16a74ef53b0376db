//! `fifteen apply POSITION MOVES`: replays a move string in any notation fifteen prints (see
//! [`crate::notation`]) and says where it leads: the position reached, whether it is the goal,
//! and the moves in both metrics. Exit status 0 at the goal, 1 elsewhere, 2 for a move that
//! cannot be read or made (named by its number).

use super::moves::PathArgs;
use super::Failure;
use crate::notation;
use clap::Args;
use std::io::Write;

#[derive(Debug, Args)]
pub struct ApplyArgs {
    #[command(flatten)]
    pub path: PathArgs,
}

pub fn run(args: &ApplyArgs) -> Result<(), Failure> {
    let (start, steps, _) = args.path.read()?;
    let end = notation::play(&start, &steps);
    let (stm, mtm) = (steps.len(), notation::mtm_length(&steps));
    let plural = if stm == 1 { "" } else { "s" };
    let reached = if end.is_goal() {
        "the goal"
    } else {
        "not the goal"
    };
    writeln!(
        super::out(),
        "{}: {reached}, after {stm} move{plural} ({mtm} in MTM)",
        end.notation(args.path.board.convention)
    )?;
    match end.is_goal() {
        true => Ok(()),
        false => Err(Failure::NoSolution(String::new())),
    }
}
