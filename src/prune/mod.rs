//! Duplicate pruning by a finite-state machine (Taylor & Korf, AAAI-93): the IDA* engines never
//! extend a path whose last moves spell a *forbidden word*, a string of the blank's moves that
//! an earlier string with the same effect replaces wherever it can be made.
//!
//! - [`words`]: the breadth-first search over move strings that finds the forbidden words;
//! - [`compile`]: the machine that recognises them (Aho-Corasick);
//! - [`cache`]: the machine kept on disk with the tables.
//!
//! Invariant: for every position, the first of its shortest paths in search order (shorter
//! first, then by Knuth's direction codes) contains no forbidden word, on any rectangular board;
//! so an IDA* bound searched with the machine finds a solution exactly when one without it
//! does, and completed bounds count the same nodes in every engine that walks the same machine
//! (a move the machine refuses is not generated, and is not counted).
//!
//! The machine with no words ([`Machine::none`]) refuses nothing: the engines' own rule that a
//! move never undoes the one before stays theirs.

pub mod cache;
pub mod compile;
pub mod words;

use crate::board::Direction;
pub use compile::DEAD;
pub use words::Spelling;

/// Longest forbidden word searched for. Measured (nodes generated, one thread): Korf's 100 with
/// 6-6-3 tables 42.6 M without the machine, 25.6 M with depth 12, 24.4 M with depth 14; the
/// completed bound of 94 moves of Korf & Felner's #38 (6-6-6-6) 20.9 M, 14.4 M, 13.4 M. Depth
/// 12 is 2,641 words in 9,557 states (7,970 minimised), built in under a second; depth 14, 19,424 words in
/// 68,888 states, takes ten seconds to build.
///
/// Deeper machines, measured on Korf & Felner's five quickest (6-6-6-6, one thread; the nodes
/// of the completed bounds, which do not depend on where the last bound meets its first
/// solution): 230.2 M at depth 12, 226.1 M at 13, 210.7 M at 14, 207.3 M at 15, 196.4 M at 16
/// (15% fewer). The machine is 0.13, 0.21, 0.90, 1.5 and 6.5 MB, built in 1.3, 3.3, 9.3, 33 and
/// 138 s, with 0.5 GB of memory at 13, 1.9 at 14, 3.7 at 15 and 14.9 at 16. A node costs the same
/// at every depth in instructions (about 490 on #40, cachegrind) and in L1 misses (3.4-3.5),
/// but at depth 16 the machine no longer fits the L2 cache: the five took 47-56 s of CPU against
/// 37-41 s at depth 12 (interleaved runs). At depth 14 they took 41-43 s: the last bounds of
/// #32 met their first solution later (687 M nodes in all against 634 M). So depth 12 stays;
/// the 3.65x of Clausecker's depth-20 machine needs another build than this search over words.
pub const DEPTH: usize = 12;

/// Longest forbidden word of jumps searched for on a board of the multi-tile metric, so that
/// building the machine takes about a second. Measured on 4x4 (Korf's 100 in MTM, one thread):
/// 393.3 M nodes without the machine; 312.2 M with depth 9 (13,298 states), 293.9 M with depth
/// 10 (35,439 states, built in 2 s), 276.7 M with depth 11 (106,561 states, 7 s and 0.9 GB to
/// build), where depths 10 and 11 took the same time. On 5x5 depth 8 takes 2 s, 10 a minute.
pub fn mtm_depth(rows: usize, cols: usize) -> usize {
    match rows * cols {
        0..=16 => 10,
        17..=25 => 8,
        _ => 6,
    }
}

/// How an IDA* search prunes duplicate paths (`--prune`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Prune {
    /// Only a move undoing the one before (Knuth's programs).
    #[default]
    None,
    /// Every forbidden word of the duplicate-pruning machine.
    Fsm,
}

impl Prune {
    /// The name users pick it by (`--prune NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Prune::None => "none",
            Prune::Fsm => "fsm",
        }
    }
}

/// The machine: a state for every end of the path that begins a forbidden word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// `next[state + s]` is the state after a move of symbol `s` (states are stored multiplied
    /// by the number of symbols: four in the single-tile metric, where a symbol is a direction),
    /// or [`DEAD`].
    next: Box<[u32]>,
    /// The moves the words are spelled in.
    spelling: Spelling,
    /// Longest word searched for (0: none).
    depth: usize,
    words: usize,
}

impl Default for Machine {
    fn default() -> Machine {
        Machine::none()
    }
}

impl Machine {
    /// The machine that refuses nothing, in the single-tile metric: one state.
    pub fn none() -> Machine {
        Machine::none_for(Spelling::STM)
    }

    /// The machine that refuses no move of `spelling`: one state.
    pub fn none_for(spelling: Spelling) -> Machine {
        Machine {
            next: vec![0; spelling.symbols()].into_boxed_slice(),
            spelling,
            depth: 0,
            words: 0,
        }
    }

    /// The machine of every forbidden word of at most `depth` moves in the single-tile metric.
    pub fn build(depth: usize) -> Machine {
        Machine::build_for(depth, Spelling::STM)
    }

    /// The machine of every forbidden word of at most `depth` moves of `spelling`.
    pub fn build_for(depth: usize, spelling: Spelling) -> Machine {
        let found = words::forbidden(depth, spelling);
        Machine {
            next: compile::minimize(
                &compile::compile(&found.forbidden, spelling.symbols()),
                spelling.symbols(),
            )
            .into_boxed_slice(),
            spelling,
            depth,
            words: found.forbidden.len(),
        }
    }

    /// The state of the empty path.
    pub const START: u32 = 0;

    /// The state after moving the blank in direction `d` from `state` (single-tile metric);
    /// `None` when the move completes a forbidden word.
    pub fn step(&self, state: u32, d: Direction) -> Option<u32> {
        self.symbol(state, d.code())
    }

    /// The state after the blank jumps `distance` cells in direction `d` from `state`;
    /// `None` when the jump completes a forbidden word.
    pub fn jump(&self, state: u32, d: Direction, distance: u8) -> Option<u32> {
        if distance == 0 || distance > self.spelling.longest {
            return None;
        }
        self.symbol(state, self.spelling.symbol(d.code(), distance))
    }

    fn symbol(&self, state: u32, symbol: u8) -> Option<u32> {
        match self.next.get((state + u32::from(symbol)) as usize) {
            Some(&DEAD) | None => None,
            Some(&next) => Some(next),
        }
    }

    /// The state after the moves `moves` from the empty path, if none completes a word.
    pub fn walk(&self, moves: impl IntoIterator<Item = Direction>) -> Option<u32> {
        moves
            .into_iter()
            .try_fold(Machine::START, |state, d| self.step(state, d))
    }

    /// The transitions, as the generated automata read them (`next[state + symbol]`).
    pub fn table(&self) -> &[u32] {
        &self.next
    }

    /// Whether this machine refuses nothing.
    pub fn is_none(&self) -> bool {
        self.words == 0
    }

    pub fn states(&self) -> usize {
        self.next.len() / self.spelling.symbols()
    }

    /// The moves its words are spelled in.
    pub fn spelling(&self) -> Spelling {
        self.spelling
    }

    pub fn words(&self) -> usize {
        self.words
    }

    pub fn depth(&self) -> usize {
        self.depth
    }
}

/// Asks for the transitions of `state` in `table`, so that the child's moves find them cached.
#[inline(always)]
pub fn prefetch_row(table: &[u32], state: u32) {
    if let Some(row) = table.get(state as usize) {
        #[cfg(target_arch = "x86_64")]
        safe_arch::prefetch_t0(row);
    }
}
