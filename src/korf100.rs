//! Korf's 100 random 15-puzzle instances (Artificial Intelligence 27, 1985, Table 1), shipped
//! inside the binary so that `fifteen compare --korf100` and the tests work on a fresh machine.
//!
//! Each instance carries its optimal length and the exact number of nodes IDA* with the
//! Manhattan bound generates in Korf's sense when the blank is tried in the order south, east,
//! west, north of Knuth's convention (Korf's up, left, right, down seen through the 180-degree
//! conversion): `fifteen solve --engine ida --order SEWN` reproduces them exactly.

use crate::position::{Convention, Position};

/// The data file, as shipped (`data/korf100.tsv`).
pub const TSV: &str = include_str!("../data/korf100.tsv");

/// One of Korf's instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Korf's number, 1 to 100.
    pub id: u32,
    /// The position (Knuth's convention internally).
    pub position: Position,
    pub manhattan: u32,
    pub optimal_length: u32,
    /// IDA* nodes in Korf's sense with `--order SEWN`.
    pub ida_nodes: u64,
}

/// All 100 instances, in Korf's order.
pub fn instances() -> Vec<Instance> {
    rows(TSV)
        .map(
            |(id, position, manhattan, optimal_length, ida_nodes)| Instance {
                id,
                position,
                manhattan,
                optimal_length,
                ida_nodes,
            },
        )
        .collect()
}

/// The instance with Korf's number `id`.
pub fn instance(id: u32) -> Option<Instance> {
    instances().into_iter().find(|i| i.id == id)
}

/// The data lines of a shipped instance file (neither comments nor the header).
pub(crate) fn data_lines(tsv: &'static str) -> impl Iterator<Item = &'static str> {
    tsv.lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("id\t"))
}

/// The rows of a shipped instance file, whose columns are: id, Korf's notation, Knuth's
/// notation, Manhattan distance, optimal length, a node count. Lines that do not parse are
/// left out (the tests see that none are).
pub(crate) fn rows(tsv: &'static str) -> impl Iterator<Item = (u32, Position, u32, u32, u64)> {
    data_lines(tsv).filter_map(|line| {
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, _korf, knuth, manhattan, optimal_length, nodes] = fields.as_slice() else {
            return None;
        };
        Some((
            id.parse().ok()?,
            Position::parse(knuth, None, Convention::Knuth).ok()?,
            manhattan.parse().ok()?,
            optimal_length.parse().ok()?,
            nodes.parse().ok()?,
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_hundred_parse_and_agree_with_both_conventions() {
        let all = instances();
        assert_eq!(all.len(), 100);
        for (line, instance) in data_lines(TSV).zip(&all) {
            let korf = line.split('\t').nth(1).unwrap_or_default();
            let from_korf =
                Position::parse(korf, None, Convention::Korf).expect("Korf's notation parses");
            assert_eq!(from_korf, instance.position, "instance {}", instance.id);
            assert_eq!(instance.position.manhattan() as u32, instance.manhattan);
            assert!(instance.position.is_solvable());
        }
    }
}
