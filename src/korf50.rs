//! Korf's 50 random 24-puzzle instances (Korf & Felner, "Disjoint pattern database
//! heuristics", Artificial Intelligence 134, 2002), shipped inside the binary so that
//! `fifteen compare --korf50` works on a fresh machine.
//!
//! Each instance carries its published optimal length and the node expansions of Korf and
//! Felner's IDA* with the 6-6-6-6 tables and their reflection: a measure of how hard it is.
//! The first ten are Korf & Taylor's (1996).

use crate::korf100::rows;
use crate::position::Position;

/// The data file, as shipped (`data/korf50.tsv`).
pub const TSV: &str = include_str!("../data/korf50.tsv");

/// One of Korf's 24-puzzle instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Korf's number, 1 to 50.
    pub id: u32,
    /// The position (Knuth's convention internally).
    pub position: Position,
    pub manhattan: u32,
    pub optimal_length: u32,
    /// Nodes Korf and Felner's search expanded.
    pub expansions: u64,
}

/// All 50 instances, in Korf's order.
pub fn instances() -> Vec<Instance> {
    rows(TSV)
        .map(
            |(id, position, manhattan, optimal_length, expansions)| Instance {
                id,
                position,
                manhattan,
                optimal_length,
                expansions,
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::korf100::check_file;

    #[test]
    fn all_fifty_parse_and_agree_with_both_conventions() {
        check_file(TSV, 50, Board::new(5, 5).expect("5x5"));
        assert_eq!(instances().len(), 50);
    }
}
