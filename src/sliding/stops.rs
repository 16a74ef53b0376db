//! Stops: which configurations end the search.
//!
//! A full stop is one configuration, recognised by its packed key. A partial stop (with `?`
//! or `*`, see [`super::spec`]) is a pattern: blocks of given kinds anchored on given cells,
//! and cells that must be empty; a configuration matches when, unpacked, it has them all. The
//! search asks about every new configuration, so a single full stop keeps the plain key
//! comparison of the original, and only puzzles with a partial stop or several stops unpack.
//!
//! Invariant: [`Stops::matching`] names the first stop, in the order of the input, that the
//! configuration matches.

use super::pack::{Geometry, State};
use super::spec::Puzzle;

/// One stop, ready for testing keys.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Test {
    Key(Vec<u64>),
    Pattern {
        /// Padded cells where a block of the kind must be anchored.
        anchors: Vec<(u32, u8)>,
        /// Padded cells that must be empty.
        empty: Vec<u32>,
    },
}

/// The stops of a puzzle.
#[derive(Clone, Debug)]
pub struct Stops {
    tests: Vec<Test>,
    /// Scratch space for unpacking.
    state: State,
}

impl Stops {
    pub fn new(geometry: &Geometry, puzzle: &Puzzle) -> Stops {
        let tests = puzzle
            .stops
            .iter()
            .map(|stop| {
                if stop.is_partial() {
                    Test::Pattern {
                        anchors: stop
                            .blocks
                            .iter()
                            .map(|b| (geometry.pad(b.anchor), b.kind))
                            .collect(),
                        empty: stop
                            .empty_cells(&puzzle.shapes, puzzle.cols)
                            .into_iter()
                            .map(|cell| geometry.pad(cell))
                            .collect(),
                    }
                } else {
                    Test::Key(geometry.key_of(stop))
                }
            })
            .collect();
        Stops {
            tests,
            state: geometry.empty_state(),
        }
    }

    /// No stop: the search explores everything.
    pub fn is_empty(&self) -> bool {
        self.tests.is_empty()
    }

    /// The key of the only stop, when there is one stop and it is full.
    pub fn single_key(&self) -> Option<&[u64]> {
        match self.tests.as_slice() {
            [Test::Key(key)] => Some(key),
            _ => None,
        }
    }

    /// The first stop that the configuration `key` matches (its index in the input's order).
    pub fn matching(&mut self, geometry: &Geometry, key: &[u64]) -> Option<usize> {
        let mut unpacked = false;
        for (i, test) in self.tests.iter().enumerate() {
            let matched = match test {
                Test::Key(stop) => stop.as_slice() == key,
                Test::Pattern { anchors, empty } => {
                    if !std::mem::replace(&mut unpacked, true) {
                        self.state.unpack(geometry, key);
                    }
                    let heads = &self.state.heads;
                    let cells = &self.state.cells;
                    anchors
                        .iter()
                        .all(|&(p, kind)| heads.get(p as usize) == Some(&kind))
                        && empty.iter().all(|&p| cells.get(p as usize) == Some(&0))
                }
            };
            if matched {
                return Some(i);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KLOTSKI: &str = include_str!("../../tests/data/sliding/klotski.txt");

    #[test]
    fn patterns_match_blocks_where_named_and_empty_cells() {
        // Klotski's file ends with one full stop, the big square at the exit.
        let full = Puzzle::parse(KLOTSKI.as_bytes()).expect("valid");
        let geometry = Geometry::new(&full);
        let exit = geometry.key_of(&full.stops[0]);
        let start = geometry.key_of(&full.start);
        // The classic goal: the big square at the exit, whatever the others do.
        let text = format!("{KLOTSKI}?????????????1*\n");
        let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
        assert_eq!(puzzle.stops.len(), 2);
        let mut stops = Stops::new(&geometry, &puzzle);
        assert_eq!(stops.single_key(), None);
        assert_eq!(stops.matching(&geometry, &start), None);
        assert_eq!(stops.matching(&geometry, &exit), Some(0));
        // Only the partial stop: still the exit, and an empty cell the exit has not.
        let only = |stop: &str| {
            let lines: Vec<&str> = KLOTSKI.lines().collect();
            let text = format!("{}\n{stop}\n", lines[..lines.len() - 1].join("\n"));
            let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
            Stops::new(&geometry, &puzzle)
        };
        assert_eq!(only("?????????????1*").matching(&geometry, &exit), Some(0));
        // Cell 15 (row 4, column 4) is empty at the exit, cell 16 is not.
        assert_eq!(
            only("???????????????0*").matching(&geometry, &exit),
            Some(0)
        );
        assert_eq!(only("????????????????0*").matching(&geometry, &exit), None);
        assert_eq!(only("?????????????1*").single_key(), None);
        let full_only = only("22223444104");
        assert_eq!(full_only.single_key(), Some(exit.as_slice()));
    }

    #[test]
    fn the_first_matching_stop_is_named() {
        let text = "2 x 2 tiny\n1 = 1\n1\n?1*\n1\n";
        let puzzle = Puzzle::parse(text.as_bytes()).expect("valid");
        let geometry = Geometry::new(&puzzle);
        let mut stops = Stops::new(&geometry, &puzzle);
        let start = geometry.key_of(&puzzle.start);
        // The start has the piece on cell 0: the second stop (full) matches, not the first.
        assert_eq!(stops.matching(&geometry, &start), Some(1));
        let corner = Puzzle::parse(b"2 x 2\n1 = 1\n01\n1\n").expect("valid");
        let key = Geometry::new(&corner).key_of(&corner.start);
        assert_eq!(stops.matching(&geometry, &key), Some(0));
    }
}
