//! The engines and their shared vocabulary.
//!
//! Every engine answers the same question — the shortest move sequences from a [`Position`] to
//! the goal — in the same words: a [`Solution`] (the pieces pushed, split into happy and sad
//! moves) and [`SearchStats`] (nodes in Korf's sense and timings, per bound). The CLI, the
//! cross-checker and the comparison runs therefore never special-case an engine.
//!
//! The IDA* engines try bounds `h + k` happy moves and `k` sad moves, `k = 0, 1, 2, …`
//! (Knuth's KORF0/KORF1); each finished bound is reported through the `progress` callback as it
//! completes, so long searches show their progress. The reference engines of both metrics are
//! one IDA* ([`ida`]) over each metric's tree ([`steps`], [`crate::mtm::search`]).

pub mod automaton;
pub mod bfs;
pub mod ida;
pub mod parallel;
pub mod reference;
pub mod shard;
pub mod steps;

use crate::board::{Board, Direction};
use crate::heuristic::Heuristic;
use crate::position::Position;
use crate::prune;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// The bound of `length` moves from a start at Manhattan distance `manhattan` (its happy
    /// and sad moves as Knuth counts them), searched in `seconds`: `nodes` when counted, and
    /// `solutions` found; searched whole with `all` or when nothing was found.
    pub fn searched(
        (length, manhattan): (u32, u32),
        nodes: Option<u64>,
        seconds: f64,
        solutions: usize,
        all: bool,
    ) -> BoundStats {
        BoundStats {
            happy: (length + manhattan) / 2,
            sad: (length - manhattan) / 2,
            nodes,
            seconds,
            completed: all || solutions == 0,
            solutions: solutions as u64,
        }
    }

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
    /// The outcome of a start that is the goal in STM: the root is the only node (`nodes` 1,
    /// when counted), one bound of no moves with its one solution (Knuth skips the search).
    pub fn at_goal(nodes: Option<u64>) -> SearchOutcome {
        let bound = BoundStats {
            happy: 0,
            sad: 0,
            nodes,
            seconds: 0.0,
            completed: true,
            solutions: 1,
        };
        SearchOutcome {
            solutions: vec![Solution {
                moves: Vec::new(),
                happy: 0,
                sad: 0,
            }],
            stats: SearchStats::from_bounds(vec![bound]),
        }
    }
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
    /// When to give up before the end (`--max-nodes`, `--time-limit`, Ctrl-C, a cancelled
    /// task): see [`Stop`]. `None`: the search runs to its answer.
    pub stop: Option<Arc<Stop>>,
    /// With tables, a bound after one that generated at least this many nodes is searched best
    /// first: cut, its subtrees' duplicate roots merged and the rest taken closest first
    /// ([`parallel::best_first`]). A rule of node counts, so that the answer is the same
    /// whatever the threads, the clock or the engine (`Some(u64::MAX)`: never; `None`: the
    /// tables' board's [`best_first_after`]).
    pub best_first_after: Option<u64>,
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
            stop: None,
            best_first_after: None,
        }
    }
}

/// The nodes of a bound after which the next is searched best first, on `board`: four million
/// on boards of more than 16 cells, never on smaller ones.
///
/// Measured (one thread, three interleaved rounds, with Knuth's `korf1` on Korf's #1-#12 as
/// the yardstick, 5.50-5.62 s): Korf & Felner's five quickest (6-6-6-6) took 633,932,551 nodes
/// and 29.9-32.3 s in the walk's order, 360,011,547 nodes and 19.6-20.8 s best first. On 4x4
/// (7-8) it does not pay: the 72-mover `0c84fb73ea62d951` took 127.9 M nodes in the walk's
/// order and 138.6 M best first (the walk's order met its solution after 0.2 M nodes of its
/// last bound), and the bound before it, 107.6 M nodes either way, took 10.8-12.1 s with its
/// subtrees in the walk's order against 12.8-13.4 s in the best-first order, whose scattered
/// subtrees lose the caches' warmth there (not on 5x5: #32's bound of 102.6 M nodes took
/// 5.7-6.6 s against 5.7-5.9 s); the transposition `159d26ae37bf48c0` took 75.9 M nodes and
/// 58.6 M in about the same time.
pub fn best_first_after(board: Board) -> u64 {
    if board.cells() > 16 {
        4_000_000
    } else {
        u64::MAX
    }
}

/// How a bound is cut: into at least `wanted` subtrees, searched in the walk's order or
/// (`best_first`) as [`parallel::best_first`] orders them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    pub wanted: usize,
    pub best_first: bool,
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

    /// The subtrees wanted of the cut of the next bound, after the bounds `before` (of this
    /// search, in order), or `None` for a bound searched whole: `threads` times
    /// [`parallel::SUBTREES_PER_THREAD`] where [`Self::split`] says so; and with a [`Stop`],
    /// enough for each to take about one of its ticks (see [`Stop::ticks`]), so that the
    /// search sees the stop between them within a tick or so. The same answer and nodes
    /// whatever the cut; a bound that should take less than two ticks is searched whole (with
    /// no limit but Ctrl-C, less than [`LIVE_TICKS`]).
    pub fn subtrees(&self, before: &[BoundStats]) -> Option<usize> {
        let previous = before.last().map_or(0.0, |b| b.seconds);
        let plain = self
            .split(previous)
            .then(|| self.threads.max(1) * parallel::SUBTREES_PER_THREAD);
        let Some(stop) = &self.stop else {
            return plain;
        };
        let ticks = stop.ticks(before);
        // Ctrl-C alone (no limit) waits for a bound of less than half a second: cutting the
        // many short bounds of quick searches would cost more than it is worth. But nothing
        // tells how long a first bound takes (a 24-puzzle's can take minutes), so it is cut
        // for any stop; Korf's 100 with 6-6-3 on one thread spend 25,560,461 nodes either way,
        // in the same time within noise (1.30-1.87 s against 1.31-1.82 s, interleaved).
        let worth = if stop.limited() || before.is_empty() {
            2
        } else {
            LIVE_TICKS
        };
        if ticks < worth {
            return plain;
        }
        let least = self.threads.max(1) * parallel::SUBTREES_PER_THREAD;
        Some(ticks.clamp(least, MAX_SUBTREES))
    }
    /// How the next bound is cut, after the bounds `before`, or `None` for a bound searched
    /// whole: best first (one subtree for about every 400 nodes of the bound before, between
    /// 4,096 and [`MAX_SUBTREES`]) when [`Self::best_first_after`] says so, a plain cut when
    /// [`Self::subtrees`] does. Never best first for `--all`, whose list would lose the
    /// solutions through the merged roots, nor with Manhattan distance, whose nodes the
    /// automaton does not always count.
    pub fn cut(&self, before: &[BoundStats]) -> Option<Cut> {
        let nodes = before.last().and_then(|b| b.nodes).unwrap_or(0);
        let after = self
            .best_first_after
            .or_else(|| self.heuristic.board().map(best_first_after))
            .unwrap_or(u64::MAX);
        if !self.all && self.heuristic.has_tables() && nodes >= after {
            let wanted = usize::try_from(nodes / 400).unwrap_or(MAX_SUBTREES);
            return Some(Cut {
                wanted: wanted.clamp(4096, MAX_SUBTREES),
                best_first: true,
            });
        }
        self.subtrees(before).map(|wanted| Cut {
            wanted,
            best_first: false,
        })
    }

    /// Names the bound about to be searched, for [`Self::live`]; `counted`: its engine counts
    /// the nodes of the subtrees.
    pub fn bound_starts(&self, counted: bool, label: impl FnOnce() -> String) {
        if let Some(live) = &self.live {
            live.bound(label(), counted);
        }
    }
}

/// Ticks (half a second) below which a bound is not cut for a [`Stop`] without limits (Ctrl-C
/// alone): Korf's 100 with `7-8` (a few milliseconds a position) is never cut for it.
pub const LIVE_TICKS: usize = 25;

/// Most subtrees a bound is cut into for a [`Stop`] (about 20 MB of items): a bound of more
/// than this many ticks gets longer subtrees.
pub const MAX_SUBTREES: usize = 1 << 17;

/// What ended a search before its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// `--max-nodes N`: N nodes were spent.
    Nodes(u64),
    /// `--time-limit D`: D has passed, as the user wrote it.
    Time(String),
    /// Ctrl-C (SIGINT).
    Interrupt,
    /// The caller no longer wants the answer (a cancelled Dask task).
    Cancelled,
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Nodes(nodes) => write!(f, "--max-nodes {nodes}"),
            Cause::Time(text) => write!(f, "--time-limit {text}"),
            Cause::Interrupt => f.write_str("Ctrl-C"),
            Cause::Cancelled => f.write_str("cancellation"),
        }
    }
}

/// A search stopped before its end: why, in which bound (as its lines name it), the nodes
/// spent in all (`None` where the engine counted none) and the seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Stopped {
    pub cause: Cause,
    pub bound: String,
    pub nodes: Option<u64>,
    pub seconds: f64,
}

impl fmt::Display for Stopped {
    /// `stopped by --max-nodes 1000000 in bound 52+6, unfinished: 1000412 nodes spent in
    /// 0.41 sec` (every bound below it searched to its end without a solution).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nodes = match self.nodes {
            Some(nodes) => format!("{nodes} nodes spent"),
            None => "nodes not counted (--stats counts them)".to_string(),
        };
        write!(
            f,
            "stopped by {} in bound {}, unfinished: {nodes} in {:.2} sec",
            self.cause, self.bound, self.seconds
        )
    }
}

/// When a search gives up before its end, shared by its threads: a budget of nodes, a time
/// limit, or a flag raised from outside ([`Stop::raise`]: Ctrl-C, a cancelled task). Engines
/// look at it between the subtrees of a bound's cut (and the reference engines every
/// [`Stop::EVERY`] nodes), never in the automaton's loop, so a search without a stop runs as
/// fast as before; [`SearchOptions::subtrees`] cuts a bound fine enough for each subtree to
/// take about a tick. Invariant: once [`Stop::should_stop`] has said yes it says yes for good,
/// and the first cause is the one told.
#[derive(Debug)]
pub struct Stop {
    raised: AtomicBool,
    cause: Mutex<Option<Cause>>,
    max_nodes: Option<u64>,
    /// The time limit, and its text as the user wrote it.
    limit: Option<(Duration, String)>,
    /// When the search's first bound started (the clock of the time limit: the tables a
    /// search builds before it are not counted).
    started: std::sync::OnceLock<Instant>,
    /// Nodes of the bounds and subtrees searched so far.
    spent: AtomicU64,
    /// The stop of a larger search this one is part of ([`Stop::within`]), if any.
    parent: Option<Arc<Stop>>,
}

impl Stop {
    /// How many nodes the reference engines search between looks at the stop.
    pub const EVERY: u64 = 1 << 16;

    /// A tick: about this many seconds of search between looks at the stop.
    pub const TICK: f64 = 0.02;

    /// A stop after `max_nodes` nodes or `time_limit` (its text as the user wrote it) from
    /// the first look at it (the search's first bound); with neither, only a raised flag
    /// stops.
    pub fn new(max_nodes: Option<u64>, time_limit: Option<(Duration, String)>) -> Stop {
        Stop {
            raised: AtomicBool::new(false),
            cause: Mutex::new(None),
            max_nodes,
            limit: time_limit,
            started: std::sync::OnceLock::new(),
            spent: AtomicU64::new(0),
            parent: None,
        }
    }

    /// A stop for one search of those that make up a larger one (the server's hints search
    /// a position's children): raised by itself, its search alone ends; it also stops
    /// whenever `parent` does, and the nodes it is told are told to `parent` too.
    pub fn within(parent: Arc<Stop>) -> Stop {
        Stop {
            parent: Some(parent),
            ..Stop::new(None, None)
        }
    }

    /// Whether it has a limit of nodes or time (else only a raised flag stops).
    pub fn limited(&self) -> bool {
        self.max_nodes.is_some()
            || self.limit.is_some()
            || self.parent.as_ref().is_some_and(|parent| parent.limited())
    }

    /// Stops the search at its next look, for `cause` (unless it stopped for another already).
    pub fn raise(&self, cause: Cause) {
        if let Ok(mut first) = self.cause.lock() {
            first.get_or_insert(cause);
        }
        self.raised.store(true, Ordering::SeqCst);
    }

    /// Whether the search has been stopped.
    pub fn raised(&self) -> bool {
        self.raised.load(Ordering::SeqCst)
    }

    /// Why it stopped, if it has.
    pub fn cause(&self) -> Option<Cause> {
        self.cause.lock().ok().and_then(|cause| cause.clone())
    }

    /// `nodes` more were searched.
    pub fn spend(&self, nodes: u64) {
        self.spent.fetch_add(nodes, Ordering::SeqCst);
        if let Some(parent) = &self.parent {
            parent.spend(nodes);
        }
    }

    /// The nodes searched so far.
    pub fn spent(&self) -> u64 {
        self.spent.load(Ordering::SeqCst)
    }

    /// Whether to stop now, with `extra` nodes searched beyond those spent (a subtree's so
    /// far): raised, the budget spent or the time up (which raises it).
    pub fn should_stop(&self, extra: u64) -> bool {
        let started = *self.started.get_or_init(Instant::now);
        if self.raised() {
            return true;
        }
        if let Some(parent) = &self.parent {
            if parent.should_stop(extra) {
                self.raise(parent.cause().unwrap_or(Cause::Cancelled));
                return true;
            }
        }
        if let Some(max) = self.max_nodes {
            if self.spent().saturating_add(extra) >= max {
                self.raise(Cause::Nodes(max));
                return true;
            }
        }
        if let Some((limit, text)) = &self.limit {
            if started.elapsed() >= *limit {
                self.raise(Cause::Time(text.clone()));
                return true;
            }
        }
        false
    }

    /// The seconds since the search's first bound started.
    pub fn seconds(&self) -> f64 {
        self.started
            .get()
            .map_or(0.0, |started| started.elapsed().as_secs_f64())
    }

    /// What the search stopped in bound `bound` tells: the cause, the nodes spent (when the
    /// engine `counted` them) and the seconds.
    pub fn stopped(&self, bound: String, counted: bool) -> EngineError {
        EngineError::Stopped(Stopped {
            cause: self.cause().unwrap_or(Cause::Interrupt),
            bound,
            nodes: counted.then(|| self.spent()),
            seconds: self.seconds(),
        })
    }

    /// About how many ticks the next bound takes, after the bounds `before`: the last one's
    /// time (and with a budget of nodes, its nodes against a hundredth of the budget, so that
    /// on one thread the cut, and so the nodes spent, are the same from run to run) times the
    /// growth of the last two (8 before there are two). 2 before the first bound, whose time
    /// nothing tells: it is cut in 64 subtrees a thread.
    pub fn ticks(&self, before: &[BoundStats]) -> usize {
        let Some(last) = before.last() else {
            return 2;
        };
        let growth = |now: f64, then: Option<f64>| match then {
            Some(then) if then > 0.0 => (now / then).clamp(2.0, 20.0),
            _ => 8.0,
        };
        let earlier = before.len().checked_sub(2).map(|i| &before[i]);
        let by_nodes = match (self.max_nodes, last.nodes) {
            (Some(max), Some(nodes)) => {
                let tick = (max / 100).max(1000) as f64;
                let then = earlier.and_then(|b| b.nodes).map(|n| n as f64);
                nodes as f64 * growth(nodes as f64, then) / tick
            }
            _ => 0.0,
        };
        let by_time = match self.max_nodes.is_some() && self.limit.is_none() {
            // A budget of nodes alone: the cut by nodes, the same from run to run.
            true => 0.0,
            false => {
                let then = earlier.map(|b| b.seconds);
                last.seconds * growth(last.seconds, then) / Self::TICK
            }
        };
        by_nodes.max(by_time).min(MAX_SUBTREES as f64) as usize
    }
}

/// Why an engine gave no answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EngineError {
    #[error("Sorry ... the goal is unreachable from that start position!")]
    Unsolvable,
    #[error("the {engine} engine has no board of size {board}")]
    UnsupportedBoard { engine: &'static str, board: String },
    #[error(
        "the {engine} engine searches in its own fixed order; --order works only with --engine ida"
    )]
    OrderNotSupported { engine: &'static str },
    /// The relabelled 4x4 table was asked for toward a goal whose blank is not in a corner (it
    /// is built for the last cell; see [`crate::goal`]).
    #[error("{0} is built for goals with the blank in a corner; toward this goal the MTM engines search with walking distance")]
    CornerGoal(String),
    #[error("{0}")]
    Limit(String),
    /// A table's file turned out damaged while the search read it: nothing it found is
    /// reported (the caller checks the tables whole, rebuilding the damaged one, and searches
    /// again).
    #[error("{0}")]
    DamagedTable(String),
    /// The search was stopped before its end ([`Stop`]): nothing it found is an answer.
    #[error("{0}")]
    Stopped(Stopped),
}

/// The error that ends a search whose heuristic read a damaged table block; engines ask before
/// they report each bound, so no bound line or solution rests on damaged data.
pub fn check_tables(options: &SearchOptions) -> Result<(), EngineError> {
    match options.heuristic.damage() {
        Some(damage) => Err(EngineError::DamagedTable(damage)),
        None => Ok(()),
    }
}

/// Where a search reports each finished bound.
pub type Progress<'a> = &'a mut dyn FnMut(&BoundStats);

/// What a search ends with: its solutions and statistics, or why it has none.
pub type Answer = Result<SearchOutcome, EngineError>;

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
    fn solve(&self, start: &Position, options: &SearchOptions, progress: Progress<'_>) -> Answer;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Best first after a bound of `best_first_after` nodes or more, with tables, one subtree
    /// for about every 400 nodes of the bound before; never with Manhattan distance or `--all`,
    /// and by default never on boards of at most 16 cells.
    #[test]
    fn bounds_are_searched_best_first_by_the_node_rule() {
        let board = Board::new(3, 3).expect("a board");
        let partition = crate::heuristic::partition::Partition::preset(board, "8").expect("8");
        let tables = Heuristic::Tables(Arc::new(
            crate::heuristic::pdb::build(&partition).expect("builds"),
        ));
        let bound = |nodes| BoundStats {
            happy: 20,
            sad: 2,
            nodes: Some(nodes),
            seconds: 0.0,
            completed: true,
            solutions: 0,
        };
        let options = |heuristic: &Heuristic, after, all| SearchOptions {
            heuristic: heuristic.clone(),
            best_first_after: after,
            all,
            ..SearchOptions::default()
        };
        let best = |wanted| {
            Some(Cut {
                wanted,
                best_first: true,
            })
        };
        let rule = options(&tables, Some(4_000_000), false);
        assert_eq!(rule.cut(&[bound(3_999_999)]), None);
        assert_eq!(rule.cut(&[bound(4_000_000)]), best(10_000));
        assert_eq!(rule.cut(&[bound(400)]), None);
        assert_eq!(rule.cut(&[bound(10_000_000_000)]), best(MAX_SUBTREES));
        assert_eq!(
            options(&tables, Some(0), false).cut(&[bound(400)]),
            best(4096)
        );
        assert_eq!(options(&tables, Some(0), true).cut(&[bound(400)]), None);
        let manhattan = options(&Heuristic::Manhattan, Some(0), false);
        assert_eq!(manhattan.cut(&[bound(1 << 30)]), None);
        assert_eq!(options(&tables, None, false).cut(&[bound(1 << 40)]), None);
        assert_eq!(best_first_after(board), u64::MAX);
        assert_eq!(best_first_after(Board::new(4, 4).expect("4x4")), u64::MAX);
        assert_eq!(best_first_after(Board::new(5, 5).expect("5x5")), 4_000_000);
    }

    /// With Ctrl-C alone (a stop without limits) the first bound is cut, 64 subtrees a
    /// thread, so that Ctrl-C stops it between them (issue 53: a long first bound ran to its
    /// end); a later bound that should be quick is searched whole.
    #[test]
    fn ctrl_c_alone_cuts_the_first_bound() {
        let options = SearchOptions {
            threads: 1,
            stop: Some(Arc::new(Stop::new(None, None))),
            ..SearchOptions::default()
        };
        assert_eq!(options.subtrees(&[]), Some(parallel::SUBTREES_PER_THREAD));
        let quick = BoundStats {
            happy: 41,
            sad: 0,
            nodes: Some(10),
            seconds: 0.001,
            completed: true,
            solutions: 0,
        };
        assert_eq!(options.subtrees(&[quick]), None);
        // Without a stop, the first bound is searched whole on one thread.
        let plain = SearchOptions {
            threads: 1,
            ..SearchOptions::default()
        };
        assert_eq!(plain.subtrees(&[]), None);
    }
}
