//! The engines and their shared vocabulary.
//!
//! Every engine answers the same question — the shortest move sequences from a [`Position`] to
//! the goal — in the same words: a [`Solution`] (the pieces pushed, split into happy and sad
//! moves) and [`SearchStats`] (nodes in Korf's sense and timings, per bound). The CLI, the
//! cross-checker and the comparison runs therefore never special-case an engine.
//!
//! The IDA* engines try bounds `h + k` happy moves and `k` sad moves, `k = 0, 1, 2, …`
//! (Knuth's KORF0/KORF1); each finished bound is reported through the `progress` callback as it
//! completes, so long searches show their progress.

pub mod automaton;
pub mod bfs;
pub mod parallel;
pub mod reference;
pub mod shard;

use crate::board::Direction;
use crate::heuristic::Heuristic;
use crate::position::Position;
use crate::prune;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One shortest solution: the tiles pushed, in order (Knuth's numbering).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub moves: Vec<u8>,
    /// Moves that bring their piece closer to home.
    pub happy: u32,
    /// Moves that take their piece farther away. `happy - sad` is the start's Manhattan distance.
    pub sad: u32,
}

impl Solution {
    /// Builds a solution from its moves, classifying each as happy or sad by replaying it.
    /// Returns `None` when a move is not legal from `start`.
    pub fn from_moves(start: &Position, moves: Vec<u8>) -> Option<Solution> {
        let board = start.board();
        let mut position = *start;
        let (mut happy, mut sad) = (0, 0);
        for &tile in &moves {
            let from = position.tiles().iter().position(|&t| t == tile)?;
            let to = position.blank();
            if !position.push(tile) {
                return None;
            }
            if board.is_happy(tile, from, to) {
                happy += 1;
            } else {
                sad += 1;
            }
        }
        Some(Solution { moves, happy, sad })
    }

    /// A solution of the moves `moves` from a start at Manhattan distance `manhattan`: its
    /// happy and sad moves are `(len + manhattan) / 2` and `(len - manhattan) / 2`, whatever
    /// heuristic found it (every move changes the Manhattan distance by one).
    pub fn with_length(moves: Vec<u8>, manhattan: u32) -> Solution {
        let length = moves.len() as u32;
        Solution {
            moves,
            happy: (length + manhattan) / 2,
            sad: length.saturating_sub(manhattan) / 2,
        }
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Whether the moves are legal from `start` and end at the goal.
    pub fn solves(&self, start: &Position) -> bool {
        start.replay(&self.moves).is_ok_and(|end| end.is_goal())
    }
}

/// What happened in one iteration (one bound) of an iterative-deepening search.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundStats {
    /// The bound: `happy + sad` moves, with `happy - sad` = the Manhattan distance (whatever
    /// the heuristic, so that the lines read as Knuth's; the first bound may be higher).
    pub happy: u32,
    pub sad: u32,
    /// Nodes generated in this iteration, in Korf's sense (root 1, every generated child 1),
    /// when the engine counted them.
    pub nodes: Option<u64>,
    pub seconds: f64,
    /// `true` when the whole tree of this bound was searched (no solution, or `--all`);
    /// `false` when the search stopped at the first solution.
    pub completed: bool,
    /// Solutions found within this bound.
    pub solutions: u64,
}

impl BoundStats {
    pub fn length(&self) -> u32 {
        self.happy + self.sad
    }
}

/// Statistics of a whole search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// One entry per bound tried, in order.
    pub bounds: Vec<BoundStats>,
    /// Total nodes over all bounds, when counted.
    pub nodes: Option<u64>,
    pub seconds: f64,
}

impl SearchStats {
    /// Sums the per-bound figures into the totals.
    pub fn from_bounds(bounds: Vec<BoundStats>) -> SearchStats {
        let nodes = bounds.iter().map(|b| b.nodes).sum::<Option<u64>>();
        let seconds = bounds.iter().map(|b| b.seconds).sum();
        SearchStats {
            bounds,
            nodes,
            seconds,
        }
    }

    /// Node counts of the bounds searched completely (comparable between engines whatever
    /// their search order).
    pub fn completed_nodes(&self) -> Vec<(u32, Option<u64>)> {
        self.bounds
            .iter()
            .filter(|b| b.completed && b.solutions == 0)
            .map(|b| (b.length(), b.nodes))
            .collect()
    }
}

/// The result of a search: the optimal solutions found (one, or all with `--all`).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    pub solutions: Vec<Solution>,
    pub stats: SearchStats,
}

impl SearchOutcome {
    /// The optimal length.
    pub fn length(&self) -> Option<usize> {
        self.solutions.first().map(Solution::len)
    }
}

/// How far the bound being searched has got, for a progress line: the engine names each bound
/// as it starts ([`Live::bound`]); a bound split into subtrees ([`parallel::search_items`])
/// says how many, and adds each one's nodes as it is searched, from any thread. The command
/// line reads it ([`Live::read`]) while the search runs. Invariant: what is read is one
/// bound's, all of it (one lock), never a label of one bound with the counts of another.
#[derive(Debug)]
pub struct Live {
    /// A bound after one of this many seconds is split, even on one thread.
    after: f64,
    /// The bound: its label, when it started, its subtrees, those searched and their nodes.
    state: Mutex<(LiveBound, Option<Instant>)>,
}

/// What [`Live::read`] tells: the bound, its subtrees (0 until it is split), those searched,
/// their nodes (when `counted`: the automaton with Manhattan distance counts none unless asked,
/// and then tells 0), and the seconds since the bound started.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveBound {
    pub label: String,
    pub counted: bool,
    pub subtrees: usize,
    pub searched: usize,
    pub nodes: u64,
    pub seconds: f64,
}

impl Default for Live {
    fn default() -> Live {
        Live::new(LIVE_AFTER)
    }
}

impl Live {
    /// Told the bounds after one of `after` seconds (see [`SearchOptions::split`]).
    pub fn new(after: f64) -> Live {
        Live {
            after,
            state: Mutex::default(),
        }
    }

    /// A new bound, `label` as its line will name it, starts (not split so far); its engine
    /// counts the nodes of its subtrees when `counted`.
    pub fn bound(&self, label: String, counted: bool) {
        if let Ok(mut state) = self.state.lock() {
            let bound = LiveBound {
                label,
                counted,
                ..LiveBound::default()
            };
            *state = (bound, Some(Instant::now()));
        }
    }

    /// The bound is split into `subtrees` subtrees.
    pub fn split(&self, subtrees: usize) {
        if let Ok(mut state) = self.state.lock() {
            state.0.subtrees = subtrees;
        }
    }

    /// One more subtree searched, with its `nodes`.
    pub fn searched(&self, nodes: u64) {
        if let Ok(mut state) = self.state.lock() {
            state.0.nodes += nodes;
            state.0.searched += 1;
        }
    }

    /// The bound being searched, if one has started.
    pub fn read(&self) -> Option<LiveBound> {
        let state = self.state.lock().ok()?;
        let (bound, started) = &*state;
        let started = (*started)?;
        Some(LiveBound {
            seconds: started.elapsed().as_secs_f64(),
            ..bound.clone()
        })
    }
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Find every optimal solution instead of stopping at the first.
    pub all: bool,
    /// Count nodes in Korf's sense (some engines run a separate, slower instantiation for it).
    pub count_nodes: bool,
    /// The order in which the blank's directions are tried; `None` = the engine's own order.
    pub order: Option<[Direction; 4]>,
    /// Largest memory the engine may use, in bytes (engines that store positions).
    pub memory_limit: Option<u64>,
    /// The lower bound of the IDA* engines.
    pub heuristic: Heuristic,
    /// The duplicate-pruning machine of the IDA* engines (`--prune`; the machine with no
    /// words prunes nothing, as Knuth's programs).
    pub prune: Arc<prune::Machine>,
    /// Threads an IDA* engine searches each bound on (1: the plain sequential
    /// search); the answer and every bound's node count are the same for any number.
    pub threads: usize,
    /// With several threads, a bound is split only when the one before it took at least this
    /// many seconds: below that, waking the threads costs more than they save (0: split every
    /// bound, as the tests do to cover small searches).
    pub split_after: f64,
    /// Where the bound being searched is told, for a progress line (`None`: nowhere). With it,
    /// a long bound is split even on one thread (the same answer and nodes), so that its
    /// progress can be told subtree by subtree.
    pub live: Option<Arc<Live>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            all: false,
            count_nodes: true,
            order: None,
            memory_limit: None,
            heuristic: Heuristic::Manhattan,
            prune: Arc::default(),
            threads: 1,
            split_after: SPLIT_AFTER,
            live: None,
        }
    }
}

/// The default [`SearchOptions::split_after`]: a millisecond, about a hundred thousand nodes.
pub const SPLIT_AFTER: f64 = 0.001;

/// A bound after one of this many seconds takes seconds more: worth a progress line
/// ([`Live::default`]).
pub const LIVE_AFTER: f64 = 0.5;

impl SearchOptions {
    /// Whether the bound after one that took `previous` seconds is split into subtrees: to
    /// search it on several threads, or to tell its progress, on any engine (issue 53: a
    /// search that counted no nodes was never split on one thread, so it showed no line, and
    /// Ctrl-C ended it by the bare signal). The cut costs a few thousand nodes of a bound that
    /// takes seconds; a search that counts no nodes keeps not counting them, and its line says
    /// none.
    pub fn split(&self, previous: f64) -> bool {
        let told = self
            .live
            .as_ref()
            .is_some_and(|live| previous >= live.after);
        (self.threads > 1 && previous >= self.split_after) || told
    }

    /// Names the bound about to be searched, for [`Self::live`]; `counted`: its engine counts
    /// the nodes of the subtrees.
    pub fn bound_starts(&self, counted: bool, label: impl FnOnce() -> String) {
        if let Some(live) = &self.live {
            live.bound(label(), counted);
        }
    }
}

/// Why an engine gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("Sorry ... the goal is unreachable from that start position!")]
    Unsolvable,
    #[error("the {engine} engine has no board of size {board}")]
    UnsupportedBoard { engine: &'static str, board: String },
    #[error(
        "the {engine} engine searches in its own fixed order; --order works only with --engine ida"
    )]
    OrderNotSupported { engine: &'static str },
    #[error("{0}")]
    Limit(String),
    /// A table's file turned out damaged while the search read it: nothing it found is
    /// reported (the caller checks the tables whole, rebuilding the damaged one, and searches
    /// again).
    #[error("{0}")]
    DamagedTable(String),
}

/// The error that ends a search whose heuristic read a damaged table block; engines ask before
/// they report each bound, so no bound line or solution rests on damaged data.
pub fn check_tables(options: &SearchOptions) -> Result<(), EngineError> {
    match options.heuristic.damage() {
        Some(damage) => Err(EngineError::DamagedTable(damage)),
        None => Ok(()),
    }
}

/// One way of finding shortest solutions.
pub trait Engine {
    /// The name users pick it by (`--engine NAME`).
    fn name(&self) -> &'static str;

    /// Whether the engine searches bound by bound (IDA*), so that its per-bound node counts are
    /// Korf's and comparable between such engines.
    fn iterative_deepening(&self) -> bool {
        true
    }

    /// Solves `start` (which must be solvable), reporting each finished bound to `progress`.
    fn solve(
        &self,
        start: &Position,
        options: &SearchOptions,
        progress: &mut dyn FnMut(&BoundStats),
    ) -> Result<SearchOutcome, EngineError>;
}

/// The engines a user can choose from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The generated automaton (Knuth's 15PUZZLE-KORF1).
    Automaton,
    /// The reference IDA* (Knuth's 15PUZZLE-KORF0).
    Ida,
    /// Breadth-first search (Knuth's SLIDING, style 0).
    Bfs,
}

impl EngineKind {
    /// The engine itself.
    pub fn engine(self) -> Box<dyn Engine> {
        match self {
            EngineKind::Automaton => Box::new(automaton::Automaton),
            EngineKind::Ida => Box::new(reference::ReferenceIda),
            EngineKind::Bfs => Box::new(bfs::BfsEngine::default()),
        }
    }

    pub fn name(self) -> &'static str {
        self.engine().name()
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
