//! `fifteen apply POSITION MOVES`: replays a move string in any notation fifteen prints (see
//! [`crate::notation`]) and says where it leads: the position reached, whether it is the goal,
//! and the moves in both metrics (the goal: `--goal`'s, or the convention's). Exit status 0 at the goal, 1 elsewhere, 2 for a move that
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

    #[command(flatten)]
    pub goal: super::GoalArgs,
}

pub fn run(args: &ApplyArgs) -> Result<(), Failure> {
    let (start, steps, _) = args.path.read()?;
    let goal = args
        .goal
        .read(Some(start.board()), args.path.board.convention)?;
    let end = notation::play(&start, &steps);
    let at_goal = match &goal {
        Some(goal) => end == goal.position(),
        None => end.is_goal(),
    };
    let (stm, mtm) = (steps.len(), notation::mtm_length(&steps));
    let plural = if stm == 1 { "" } else { "s" };
    let reached = if at_goal { "the goal" } else { "not the goal" };
    writeln!(
        super::out(),
        "{}: {reached}, after {stm} move{plural} ({mtm} in MTM)",
        end.notation(args.path.board.convention)
    )?;
    match at_goal {
        true => Ok(()),
        false => Err(Failure::NoSolution(String::new())),
    }
}
