//! `fifteen apply POSITION MOVES`: replays a move string in any notation fifteen prints (see
//! [`crate::notation`]) and says where it leads: the position reached, whether it is the goal,
//! and the moves in both metrics (the goal: `--goal`'s, or the convention's). Exit status 0 at the goal, 1 elsewhere, 2 for a move that
//! cannot be read or made (named by its number).

use super::moves::PathArgs;
use super::Failure;
use crate::notation;
use crate::position::Subject;
use crate::tray::Tray;
use clap::Args;
use std::io::Write;

#[derive(Debug, Args)]
pub struct ApplyArgs {
    #[command(flatten)]
    pub path: PathArgs,

    /// Replay toward this goal instead of the convention's (written as a position is, with the
    /// same --size and --convention): any position of the board, of either parity, the blank
    /// anywhere.
    #[arg(long, value_name = "POSITION")]
    pub goal: Option<String>,
}

pub fn run(args: &ApplyArgs) -> Result<(), Failure> {
    let (start, steps, _) = args.path.read()?;
    let goal = match &args.goal {
        Some(text) => {
            Tray::parse(text, Some(start.shape()), args.path.board.convention).map_err(|e| {
                Failure::BadInput(format!("--goal {text:?}: {}", e.message(Subject::Goal)))
            })?
        }
        None => Tray::goal(start.shape()),
    };
    let end = notation::play(&start, &steps);
    let at_goal = end == goal;
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
