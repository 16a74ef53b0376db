//! `fifteen invert`, `fifteen simplify` and `fifteen convert`: a move string from a position,
//! read in any notation fifteen prints (see [`crate::notation`]) and written again, one line on
//! stdout: undone (from the position the moves reach, which `fifteen apply` prints), without
//! the steps the next one undoes, or in another notation. A move that cannot be read or made is
//! named by its number (status 2).

use super::Failure;
use crate::board::Direction;
use crate::notation::{self, Mover, Written};
use crate::position::Convention;
use crate::tray::{Shape, Tray};
use clap::Args;
use std::io::Write;

/// A move string from a position: what every move verb reads.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// The position the moves start from, as for solve.
    pub position: String,

    /// The moves: tiles pushed (`c8437b…`, or `1,17,16` on boards above 16 cells), or letters
    /// U, D, L, R with optional counts (`D3 R L2`; up to a side less one), quoted or as several
    /// arguments.
    #[arg(required = true, num_args = 1..)]
    pub moves: Vec<String>,

    /// Letters name the blank's directions (`solve --moves blank`) instead of the tiles'.
    #[arg(long)]
    pub blank: bool,

    #[command(flatten)]
    pub board: TrayArgs,
}

/// The board and the goal convention of the move verbs: any board of at least 2 rows and 2
/// columns up to 256 cells (a replay needs no search), where the searches' `--size` stops at 5.
#[derive(Debug, Args)]
pub struct TrayArgs {
    /// Board size RxC (at least 2 each, at most 256 cells: 16x16, 3x7, 8x2, …); inferred from
    /// 4, 9, 12, 16 or 25 tiles, a square number of tiles up to 256, or rows written with `/`.
    #[arg(long, value_name = "RxC")]
    pub size: Option<Shape>,

    /// Goal convention of the position and of the printed moves.
    #[arg(long, value_enum, default_value_t = Convention::Knuth)]
    pub convention: Convention,
}

impl PathArgs {
    /// The start, the steps of the blank, and the notation they were written in; a move that
    /// cannot be read or made is bad input.
    pub fn read(&self) -> Result<(Tray, Vec<Direction>, Written), Failure> {
        let convention = self.board.convention;
        let start =
            Tray::parse(&self.position, self.board.size, convention).map_err(Failure::bad_input)?;
        let mover = if self.blank {
            Mover::Blank
        } else {
            Mover::Tiles
        };
        let text = self.moves.join(" ");
        let steps = notation::read(&start, &text, convention, mover).map_err(Failure::bad_input)?;
        Ok((start, steps, notation::written_in(&text, mover)))
    }
}

#[derive(Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub path: PathArgs,

    /// The notation written: the tiles pushed, the blank's letters, the tiles' letters, or the
    /// tiles' runs with counts (`D3 R L2`, the multi-tile metric's). Default: the one read
    /// (`mtm` for simplify).
    #[arg(long, value_enum, value_name = "NOTATION")]
    pub to: Option<Written>,
}

/// What is done to the moves.
#[derive(Clone, Copy, Debug)]
pub enum Rewrite {
    Invert,
    Simplify,
    Convert,
}

pub fn run(args: &MovesArgs, rewrite: Rewrite) -> Result<(), Failure> {
    let (start, steps, read_in) = args.path.read()?;
    let (from, steps, to): (Tray, Vec<Direction>, Written) = match rewrite {
        Rewrite::Invert => (
            notation::play(&start, &steps),
            notation::invert(&steps),
            args.to.unwrap_or(read_in),
        ),
        Rewrite::Simplify => (
            start,
            notation::simplify(&steps),
            args.to.unwrap_or(Written::Mtm),
        ),
        Rewrite::Convert => (start, steps, args.to.unwrap_or(read_in)),
    };
    let written = notation::write(&from, &steps, to, args.path.board.convention);
    writeln!(super::out(), "{written}")?;
    Ok(())
}
