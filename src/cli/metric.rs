//! What `--metric` decides where `solve`, `crosscheck` and `compare` print: how a solution is
//! counted and written, the line and JSON object of a bound, and what a report adds to say
//! its metric. One method a decision, both metrics side by side in its `match`, so that a new
//! output is written once for both.
//!
//! Invariant: in the single-tile metric a solution is counted `H+S` (happy and sad moves) and
//! written as the tiles pushed; in the multi-tile metric it is counted in MTM moves (the runs
//! of its path, [`crate::mtm::moves`]) with its STM length beside it, and written in players'
//! notation; an MTM bound is its `happy` ([`crate::mtm`]).

use crate::engine::{BoundStats, SearchOutcome, Solution};
use crate::mtm::check::outcome_length;
use crate::mtm::notation::{moves_text, pictures};
use crate::mtm::Metric;
use crate::notation::{self, Mover, Written};
use crate::position::{Convention, MoveNotation, Position};

impl Metric {
    /// The line of a bound without solution: KORF0's ` ... no solution with H+S moves (T sec)`,
    /// in MTM ` ... no solution with N moves (T sec)`.
    pub fn bound_line(self, bound: &BoundStats) -> String {
        let moves = match self {
            Metric::Stm => format!("{}+{}", bound.happy, bound.sad),
            Metric::Mtm => bound.happy.to_string(),
        };
        format!(
            " ... no solution with {moves} moves ({:.2} sec)",
            bound.seconds
        )
    }

    /// The moves of a bound: `happy + sad`, in MTM its `happy`.
    pub fn bound_moves(self, bound: &BoundStats) -> u32 {
        match self {
            Metric::Stm => bound.happy + bound.sad,
            Metric::Mtm => bound.happy,
        }
    }

    /// One bound of `--json`'s `bounds`: its happy and sad moves, in MTM its `bound`.
    pub fn bound_json(self, b: &BoundStats) -> serde_json::Value {
        let mut bound = serde_json::json!({
            "nodes": b.nodes, "seconds": b.seconds,
            "completed": b.completed, "solutions": b.solutions,
        });
        match self {
            Metric::Stm => {
                bound["happy"] = b.happy.into();
                bound["sad"] = b.sad.into();
            }
            Metric::Mtm => bound["bound"] = b.happy.into(),
        }
        bound
    }

    /// The head of a solution's line: `Solution in H+S moves`, in MTM `Solution in N moves (S
    /// in STM)`.
    pub fn head(self, start: &Position, solution: &Solution) -> String {
        match self {
            Metric::Stm => format!("Solution in {}+{} moves", solution.happy, solution.sad),
            Metric::Mtm => {
                let mtm = crate::mtm::moves::length(start, &solution.moves).unwrap_or(0);
                format!("Solution in {mtm} moves ({} in STM)", solution.len())
            }
        }
    }

    /// The moves of a path (`tiles` pushed from `start`) as `how` writes them: the tiles (in MTM
    /// players' notation), the blank's directions, or the board before the first move and
    /// after each.
    pub fn moves(
        self,
        start: &Position,
        tiles: &[u8],
        how: MoveNotation,
        convention: Convention,
    ) -> String {
        match (self, how) {
            (Metric::Stm, MoveNotation::Tiles) => start.moves_notation(tiles, convention),
            (Metric::Stm, MoveNotation::Blank) => {
                let steps = notation::steps_of(start, tiles);
                notation::write(start, &steps, Written::Blank, convention)
            }
            (Metric::Stm, MoveNotation::Board) => format!(
                "{}{}",
                start.picture(convention),
                start.board_moves(tiles, convention)
            ),
            (Metric::Mtm, MoveNotation::Tiles) => {
                moves_text(start, tiles, Mover::Tiles, convention)
            }
            (Metric::Mtm, MoveNotation::Blank) => {
                moves_text(start, tiles, Mover::Blank, convention)
            }
            (Metric::Mtm, MoveNotation::Board) => pictures(start, tiles, convention),
        }
    }

    /// A report of `solve` for one position, tagged with its metric where it is not the
    /// default: `"metric": "mtm"`.
    pub fn tag(self, report: &mut serde_json::Value) {
        if self == Metric::Mtm {
            report["metric"] = "mtm".into();
        }
    }

    /// The length of an outcome's first solution in this metric.
    pub fn length(self, start: &Position, outcome: &SearchOutcome) -> Option<usize> {
        match self {
            Metric::Stm => outcome.length(),
            Metric::Mtm => outcome_length(start, outcome),
        }
    }

    /// The STM length of an outcome's first solution shown beside its length: in MTM only.
    pub fn stm_length(self, outcome: &SearchOutcome) -> Option<usize> {
        match self {
            Metric::Stm => None,
            Metric::Mtm => outcome.solutions.first().map(Solution::len),
        }
    }
}
