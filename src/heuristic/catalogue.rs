//! Catalogues: several partitions of one board, whose heuristic is the largest of their sums
//! (Clausecker & Reinefeld's catalogues). Each partition's sum is a lower bound, so their
//! maximum is one too, and it still moves by exactly one per move: every sum does, and they all
//! have the parity of the Manhattan distance.
//!
//! Users name a catalogue by its name (`small` on 5x5) or as a list of partitions joined by
//! `+`, each a preset's name (`6-6-3+7-8`) or its groups written out, tiles joined by `-` and
//! groups by `/` (`1-2-5-6/3-4-7-8/9-10-13-14/11-12-15`). One partition is a catalogue too.
//!
//! The named catalogues: on 5x5 `small`, the seven partitions into four groups of six of
//! Clausecker's `small` catalogue (his `small-t` with the reflections, which the lookups make
//! anyway), the first of them the preset `6-6-6-6`; on 4x4 `7-8+6-6-3`.
//!
//! Invariant: the partitions are of one board, at least one, and distinct.

use super::partition::{Partition, PartitionError};
use crate::board::Board;
use std::fmt;

/// Most partitions in a catalogue (the lookups keep one byte per sum, sixteen in all; square
/// boards have two sums a partition).
pub const MAX_PARTITIONS: usize = 8;

/// The named catalogues: (rows, columns, name, partitions).
const NAMED: &[(usize, usize, &str, &[&str])] = &[
    (4, 4, "7-8+6-6-3", &["7-8", "6-6-3"]),
    (
        5,
        5,
        "small",
        &[
            "6-6-6-6",
            "1-2-3-6-7-8/4-5-9-10-13-14/11-12-16-17-21-22/15-18-19-20-23-24",
            "1-2-6-11-16-21/3-7-8-12-17-22/4-5-9-10-14-15/13-18-19-20-23-24",
            "1-2-6-11-16-21/3-7-8-12-17-22/4-5-9-10-13-14/15-18-19-20-23-24",
            "1-2-3-6-7-8/4-5-9-10-14-15/11-12-13-16-17-18/19-20-21-22-23-24",
            "1-2-3-4-5-10/6-7-8-9-13-14/11-12-16-17-21-22/15-18-19-20-23-24",
            "1-2-3-6-11-16/4-5-9-10-14-15/7-8-12-13-17-18/19-20-21-22-23-24",
        ],
    ),
];

/// Partitions of one board, looked up together.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Catalogue {
    board: Board,
    name: String,
    partitions: Vec<Partition>,
}

impl Catalogue {
    /// The catalogue `text` names on `board`: a named catalogue, or a list of partitions.
    pub fn parse(board: Board, text: &str) -> Result<Catalogue, PartitionError> {
        if let Some((_, _, name, members)) = NAMED
            .iter()
            .find(|(r, c, n, _)| (*r, *c) == (board.rows(), board.cols()) && *n == text)
        {
            let partitions = members
                .iter()
                .map(|member| partition(board, member))
                .collect::<Result<Vec<_>, _>>()?;
            return Catalogue::new(board, name, partitions);
        }
        let partitions = text
            .split('+')
            .map(|member| partition(board, member))
            .collect::<Result<Vec<_>, _>>()?;
        Catalogue::new(board, text, partitions)
    }

    /// A catalogue of `partitions`, checked.
    pub fn new(
        board: Board,
        name: &str,
        partitions: Vec<Partition>,
    ) -> Result<Catalogue, PartitionError> {
        let bad = |problem: String| PartitionError::NotACatalogue { problem };
        if partitions.is_empty() || partitions.len() > MAX_PARTITIONS {
            return Err(bad(format!(
                "1 to {MAX_PARTITIONS} partitions, not {}",
                partitions.len()
            )));
        }
        for (i, p) in partitions.iter().enumerate() {
            if partitions[..i].iter().any(|q| q.groups() == p.groups()) {
                return Err(bad(format!("{} is listed twice", p.name())));
            }
        }
        Ok(Catalogue {
            board,
            name: name.to_string(),
            partitions,
        })
    }

    /// The names of the named catalogues of `board`.
    pub fn names(board: Board) -> Vec<&'static str> {
        super::partition::names_on(NAMED, board)
    }

    /// Every named catalogue of every board.
    pub fn all() -> Vec<Catalogue> {
        NAMED
            .iter()
            .filter_map(|(r, c, name, _)| Catalogue::parse(Board::new(*r, *c).ok()?, name).ok())
            .collect()
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn partitions(&self) -> &[Partition] {
        &self.partitions
    }

    /// The distinct groups of all its partitions (Knuth's numbering), first met first.
    pub fn groups(&self) -> Vec<Vec<u8>> {
        let mut groups: Vec<Vec<u8>> = Vec::new();
        for group in self.partitions.iter().flat_map(|p| p.groups()) {
            if !groups.contains(group) {
                groups.push(group.clone());
            }
        }
        groups
    }
}

impl fmt::Display for Catalogue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board.goal_name(), self.name)
    }
}

/// One member of a list: a preset's name, or groups written out (`1-2-5/3-4-6-7-8`).
fn partition(board: Board, text: &str) -> Result<Partition, PartitionError> {
    let written_out = text.contains('/')
        || text.split('-').count() > 4 && text.split('-').all(|t| t.parse::<u8>().is_ok());
    if !written_out {
        return Partition::preset(board, text);
    }
    let groups = text
        .split('/')
        .map(|group| {
            group
                .split('-')
                .map(|tile| {
                    tile.parse::<u8>()
                        .map_err(|_| PartitionError::NotAPartition {
                            last: board.cells() - 1,
                            problem: format!("{tile:?} in {text:?} is not a tile number"),
                        })
                })
                .collect::<Result<Vec<u8>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    // A partition written out that equals a preset goes by the preset's name (both written
    // as on the standard goal).
    let standard = board.with_blank_home(board.cells() - 1);
    let name = Partition::names(board)
        .into_iter()
        .find(|n| Partition::preset(standard, n).is_ok_and(|p| same_groups(p.groups(), &groups)))
        .unwrap_or(text);
    Partition::new(board, name, groups)
}

fn same_groups(a: &[Vec<u8>], b: &[Vec<u8>]) -> bool {
    let sorted = |groups: &[Vec<u8>]| {
        let mut groups: Vec<Vec<u8>> = groups
            .iter()
            .map(|g| {
                let mut g = g.clone();
                g.sort_unstable();
                g
            })
            .collect();
        groups.sort();
        groups
    };
    sorted(a) == sorted(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_catalogues_are_partitions_of_their_boards() {
        let catalogues = Catalogue::all();
        assert_eq!(catalogues.len(), NAMED.len());
        let five = Board::new(5, 5).expect("a board");
        let small = Catalogue::parse(five, "small").expect("small");
        assert_eq!(small.partitions().len(), 7);
        assert_eq!(small.partitions()[0].name(), "6-6-6-6");
        // Seven partitions of four groups share fourteen distinct groups.
        assert_eq!(small.groups().len(), 14);
        assert_eq!(Catalogue::names(Board::fifteen()), ["7-8+6-6-3"]);
    }

    #[test]
    fn lists_name_presets_and_groups() {
        let board = Board::fifteen();
        let list = Catalogue::parse(board, "6-6-3+5-5-5").expect("two presets");
        assert_eq!(list.partitions().len(), 2);
        assert_eq!(list.name(), "6-6-3+5-5-5");
        let written = "1-2-3-4-5-6-7-8/9-10-11-12-13-14-15";
        let one = Catalogue::parse(board, written).expect("groups");
        assert_eq!(one.partitions()[0].name(), "7-8");
        let error = |text: &str| {
            Catalogue::parse(board, text)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(error("7-8+7-8").contains("7-8 is listed twice"));
        assert!(error("7-8+6-6-6").contains("no pattern database \"6-6-6\""));
        assert!(error("1-2-3/4-x").contains("\"x\" in \"1-2-3/4-x\" is not a tile number"));
        assert!(error("1-2-3/4-5").contains("tile 6 is in no group"));
    }
}
