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

/// Checks a shipped instance file: `count` rows numbered from 1, each on `board`, its Korf
/// notation the same position as its Knuth notation, the Manhattan distance right, solvable,
/// and the optimal length at least the Manhattan distance and of its parity.
#[cfg(test)]
pub(crate) fn check_file(tsv: &'static str, count: u32, board: crate::board::Board) {
    let all: Vec<_> = rows(tsv).collect();
    assert_eq!(all.len(), count as usize, "every line parses");
    for (line, (id, position, manhattan, length, _)) in data_lines(tsv).zip(&all) {
        let korf = line.split('\t').nth(1).unwrap_or_default();
        let from_korf =
            Position::parse(korf, None, Convention::Korf).expect("Korf's notation parses");
        assert_eq!(&from_korf, position, "instance {id}");
        assert_eq!(position.board(), board);
        assert_eq!(position.manhattan() as u32, *manhattan);
        assert!(position.is_solvable());
        assert!(
            length >= manhattan && (length - manhattan) % 2 == 0,
            "instance {id}"
        );
    }
    let ids: Vec<u32> = all.iter().map(|row| row.0).collect();
    assert_eq!(ids, (1..=count).collect::<Vec<_>>());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_hundred_parse_and_agree_with_both_conventions() {
        check_file(TSV, 100, crate::board::Board::fifteen());
        assert_eq!(instances().len(), 100);
    }
}
