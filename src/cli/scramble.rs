//! `fifteen scramble`: random solvable positions, one a line, ready for `fifteen solve --file`:
//! uniformly drawn among the solvable positions of the board, or the end of a random walk of
//! the blank from the goal (`--walk L`, never undoing its last move: at most L moves away).
//! A seed (`--seed`) names the same positions on every machine and in every version; without
//! one, each run draws others.

use super::Failure;
use crate::board::Board;
use crate::position::Convention;
use crate::random::PositionSource;
use clap::Args;
use std::io::Write;

#[derive(Debug, Args)]
pub struct ScrambleArgs {
    /// Board size RxC (2 to 5 rows and columns).
    #[arg(long, value_name = "RxC", default_value = "4x4")]
    pub size: Board,

    /// How many positions (written one at a time, so any count runs in bounded memory).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub count: u64,

    /// Seed of the generator (the same seed gives the same positions); default: a new one each
    /// run.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// A random walk of L moves of the blank from the goal instead of a uniformly random
    /// position (at most 1000000).
    #[arg(long, value_name = "L", value_parser = super::crosscheck::parse_walk)]
    pub walk: Option<usize>,

    /// Goal convention of the positions written.
    #[arg(long, value_enum, default_value_t = Convention::Knuth)]
    pub convention: Convention,
}

/// Writes the positions, one a line.
pub fn run(args: &ScrambleArgs) -> Result<(), Failure> {
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut source = PositionSource::new(seed);
    let mut out = std::io::BufWriter::new(super::out());
    for _ in 0..args.count {
        let position = match args.walk {
            Some(length) => source.random_walk(args.size, length),
            None => source.random_solvable(args.size),
        };
        writeln!(out, "{}", position.notation(args.convention))?;
    }
    out.flush()?;
    Ok(())
}
