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

/// Longest forbidden word searched for. Measured (nodes generated, one thread): Korf's 100 with
/// 6-6-3 tables 42.6 M without the machine, 25.6 M with depth 12, 24.4 M with depth 14; the
/// completed bound of 94 moves of Korf & Felner's #38 (6-6-6-6) 20.9 M, 14.4 M, 13.4 M. Depth
/// 12 is 2,641 words in 9,557 states, built in under a second; depth 14, 19,424 words in
/// 68,888 states, takes ten seconds to build.
pub const DEPTH: usize = 12;

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
    /// `next[state + d]` is the state after a move in direction `d` (states are stored
    /// multiplied by four), or [`DEAD`].
    next: Box<[u32]>,
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
    /// The machine that refuses nothing: one state.
    pub fn none() -> Machine {
        Machine {
            next: vec![0; 4].into_boxed_slice(),
            depth: 0,
            words: 0,
        }
    }

    /// The machine of every forbidden word of at most `depth` moves.
    pub fn build(depth: usize) -> Machine {
        let found = words::forbidden(depth);
        Machine {
            next: compile::compile(&found.forbidden).into_boxed_slice(),
            depth,
            words: found.forbidden.len(),
        }
    }

    /// The state of the empty path.
    pub const START: u32 = 0;

    /// The state after moving the blank in direction `d` from `state`; `None` when the move
    /// completes a forbidden word.
    pub fn step(&self, state: u32, d: Direction) -> Option<u32> {
        match self.next.get((state + u32::from(d.code())) as usize) {
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

    /// The transitions, as the generated automaton reads them (`next[state + d]`).
    pub fn table(&self) -> &[u32] {
        &self.next
    }

    /// Whether this machine refuses nothing.
    pub fn is_none(&self) -> bool {
        self.words == 0
    }

    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    pub fn words(&self) -> usize {
        self.words
    }

    pub fn depth(&self) -> usize {
        self.depth
    }
}
