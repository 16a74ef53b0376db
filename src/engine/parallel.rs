//! One bound of an IDA* search on several threads, with the answer of one thread.
//!
//! The bound's tree is cut at a shallow depth: a plain depth-first walk in the engine's own
//! order lists, in that order, the *items* at the cut — subtrees still to search (their root
//! position, the move that reached it and the happy and sad moves left), and solutions met
//! above the cut. Worker threads take the subtrees in list order and search them with the
//! engine itself (the generated automaton starts at the state the move into the subtree's root
//! enters; the reference engine recurses from there). Invariant: the items' solutions, taken in
//! list order, are the bound's solutions in the order one thread finds them, and the nodes of
//! the walk plus the subtrees' are the nodes one thread generates. So `--all` gives the same
//! list and every bound the same node count, and the first solution is the one of the
//! earliest item that has one: once a subtree finds a solution, no later subtree is started,
//! and the earlier ones are searched to the end before it counts. Its bound's nodes are one
//! thread's too: the walk's nodes up to that item (each item notes how many came before it),
//! the earlier subtrees', and that subtree's up to its solution.
//!
//! A bound searched best first ([`best_first`], 24-puzzles) lists the same walk's items in
//! another order, some subtrees merged, every item after the whole walk; the invariant holds of
//! that list, and one thread searches it in that order too.
//!
//! The cut ([`cut`]) and the merge of the items' results ([`merge`]) are public: the shard
//! commands (`super::shard`) hand the same items to processes on other machines and merge
//! their results by the same rule.

use super::ida::{self, Pass};
use super::steps::{Node, Stepped, Steps};
use crate::board::Direction;
use crate::engine::{Live, SearchOptions, Stop};
use crate::heuristic::pdb::half_sum;
use crate::heuristic::{Heuristic, Kept};
use crate::position::Position;
use crate::prune;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Subtrees wanted per thread, so that threads finishing at different times stay busy.
pub const SUBTREES_PER_THREAD: usize = 64;

/// What one subtree (or a whole bound) yields: the nodes generated below its root and its
/// solutions, each the moves (pieces pushed) from its root, in the engine's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub nodes: u64,
    pub solutions: Vec<Vec<u8>>,
}

/// The root of a subtree: the position there, the blank's last move, the moves that led there
/// from the start, the happy and sad moves left, and (with pattern databases: a partition's
/// or a catalogue's) the lookups' values there, so that the automaton need not find them from
/// scratch.
#[derive(Clone, Debug)]
pub struct Subtree {
    pub root: Position,
    pub came: Direction,
    pub path: Vec<u8>,
    pub happy: u32,
    pub sad: u32,
    pub values: Kept,
    /// The duplicate-pruning machine's state after `path`.
    pub machine: u32,
}

/// An item of the cut, in the order one thread meets it, with the nodes one thread has
/// generated above the cut by the time it reaches the item (the move into it included). The
/// MTM search cuts its trees the same way, with subtrees of its own (`S`).
#[derive(Clone, Debug)]
pub struct Item<S = Subtree> {
    pub before: u64,
    pub kind: Kind<S>,
}

/// What an item of the cut is.
#[derive(Clone, Debug)]
pub enum Kind<S = Subtree> {
    /// A subtree still to search.
    Subtree(S),
    /// A solution above the cut: its moves from the start.
    Solution(Vec<u8>),
}

/// Something done with an engine as the parallel search sees it (the engines' types differ
/// by board and heuristic, so they are handed to it rather than returned): the engines'
/// `visit_split` hand theirs to it, for the shard commands ([`super::shard`]).
pub trait Visit {
    type Output;
    fn visit<E: Splittable>(self, engine: &E) -> Self::Output;
}

/// An IDA* engine as the parallel bound sees it.
pub trait Splittable: Sync {
    /// What one worker thread keeps between subtrees (the automaton's machine).
    type Worker: Send;

    fn worker(&self) -> Self::Worker;

    /// The duplicate-pruning machine the engine walks (the cut walks it too).
    fn machine(&self) -> &prune::Machine;

    /// The blank's directions tried at a node reached by the blank's move `came` (`None` at
    /// the start), in the engine's order; the move back is never among them.
    fn order(&self, came: Option<Direction>) -> Vec<Direction>;

    /// Searches the subtree below `subtree.root` completely (or to its first solution when
    /// not `all`).
    fn search(&self, worker: &mut Self::Worker, subtree: &Subtree, all: bool) -> Found;
}

/// The cut of the bound with `happy` and `sad` moves from `start`, at the shallowest depth
/// that gives at least `wanted` subtrees (or none deeper): the nodes above it and its items.
pub fn cut(
    engine: &impl Splittable,
    heuristic: &Heuristic,
    start: &Position,
    happy: u32,
    sad: u32,
    wanted: usize,
) -> (u64, Vec<Item>) {
    cut_deeper(engine, heuristic, start, (happy, sad), wanted, &|_| 0)
}

/// [`cut`], going on `deeper(path)` moves below each node at the cut (and so on below those).
pub fn cut_deeper(
    engine: &impl Splittable,
    heuristic: &Heuristic,
    start: &Position,
    (happy, sad): (u32, u32),
    wanted: usize,
    deeper: &dyn Fn(&[u8]) -> u32,
) -> (u64, Vec<Item>) {
    let root = Subtree {
        root: *start,
        came: Direction::East,
        path: Vec::new(),
        happy,
        sad,
        values: heuristic.kept(start),
        machine: prune::Machine::START,
    };
    cut_below(engine, heuristic, &root, None, wanted, deeper)
}

/// The cut below `root` (the start, reached by no move, when `came` is `None`; else a
/// subtree's root, reached by `came`), at the shallowest depth that gives at least `wanted`
/// subtrees (or none deeper): the nodes above it, counted from `root` as a search of it counts
/// them, and its items, their paths from the start. The walk is the one IDA* pass
/// ([`ida::cut`]) over the blank's steps in the engine's order, the lookups of the partition
/// or the catalogue followed move by move ([`Stepped`]) so that each subtree starts with its
/// values; it lists
/// every item, even after a solution.
fn cut_below(
    engine: &impl Splittable,
    heuristic: &Heuristic,
    root: &Subtree,
    came: Option<Direction>,
    wanted: usize,
    deeper: &dyn Fn(&[u8]) -> u32,
) -> (u64, Vec<Item>) {
    let order = |came: Option<Direction>| engine.order(came);
    let tree = || {
        let estimate = Stepped::new(heuristic, root.root.board());
        Steps::new(&root.root, &order, engine.machine(), &root.path, estimate)
    };
    let node = Node {
        blank: root.root.blank(),
        came,
        h: root.happy - root.sad,
        machine: root.machine,
        state: Stepped::new(heuristic, root.root.board()).start(&root.root, root.values),
    };
    let walked = ida::cut(
        &tree,
        (node, 0),
        (root.happy + root.sad, true),
        wanted,
        deeper,
    );
    (walked.nodes, walked.items)
}

/// Searches one bound (`happy` and `sad` moves from `start`) cut as `how` says (see
/// [`SearchOptions::cut`]) on `options.threads` threads: the solutions from the start in one
/// thread's order (all, or the first) and the nodes; `None` when `options.stop` stopped it
/// before its answer (the nodes it spent told to the stop).
pub fn search_bound<E: Splittable>(
    engine: &E,
    start: &Position,
    (happy, sad): (u32, u32),
    how: crate::engine::Cut,
    options: &SearchOptions,
) -> Option<Found> {
    let (heuristic, all, threads) = (&options.heuristic, options.all, options.threads.max(1));
    let stop = options.stop.as_deref();
    let (above, mut items) = cut(engine, heuristic, start, happy, sad, how.wanted);
    if how.best_first {
        items = best_first(heuristic, start, above, items);
    }
    let search = |worker: &mut E::Worker, subtree: &Subtree| {
        let found = engine.search(worker, subtree, all);
        Pass {
            nodes: found.nodes,
            next: u32::MAX,
            solutions: found.solutions,
        }
    };
    let cut = (above, u32::MAX, items.as_slice());
    let pass = search_cut(
        cut,
        ((threads, all), options.live.as_deref(), stop),
        &|| engine.worker(),
        &search,
        |subtree| &subtree.path,
    )?;
    Some(Found {
        nodes: pass.nodes,
        solutions: pass.solutions,
    })
}

/// The items of a cut, best first: the solutions above the cut, then its subtrees with one
/// subtree kept for each root, taken closest to the goal first by the tables (the least sum of
/// the lookups' values, the partition's estimate and its reflection's together; a catalogue's
/// estimate), then by Manhattan distance, then in the walk's order. Every item comes after the
/// whole walk (`before` = `above`).
///
/// Of the subtrees with the same root at the same depth (a plain cut puts them all at one
/// depth; `fifteen shard plan --split` goes deeper in places) the one kept is the one whose
/// path comes first in search order (by Knuth's direction codes, as [`prune::words`] orders
/// words of one length), with its machine state. The first of the bound's solutions in search
/// order, `S`, passes the cut at some root `r`, `d` moves deep. Another path to `r` that ends
/// an item `d` moves deep and comes first would give an earlier solution (with a forbidden
/// word, an equivalent path earlier still, or a shorter solution, which the bounds before
/// rule out), so `S`'s path to `r` is the one kept, whose subtree goes on along `S`'s rest.
/// So the bound finds a solution exactly when the walk's order does, and one thread meets the
/// same first one as many.
///
/// Measured on Korf & Felner's five quickest (6-6-6-6, one thread, best first from the bound
/// after one of 2 M nodes on): 633.9 M nodes in the walk's order; best first with cuts of
/// 10,000 subtrees 431 M, of 100,000 379 M, of a million 347 M (whose walks cost more time
/// than they saved); by the larger of the two sums alone (the estimate), 406 M; tightest first
/// (the largest estimate first), more than in the walk's order. With a cut of one subtree for
/// 400 nodes of the bound before ([`SearchOptions::cut`]), 360.0 M. The merged roots take 0-9%
/// off a completed bound; the rest is the last bound meeting a solution sooner.
pub fn best_first(
    heuristic: &Heuristic,
    start: &Position,
    above: u64,
    items: Vec<Item>,
) -> Vec<Item> {
    // The blank's directions along a path of pieces pushed from the start.
    let spelled = |path: &[u8]| -> Vec<u8> {
        let mut at = *start;
        let mut codes = Vec::with_capacity(path.len());
        for &piece in path {
            codes.push(at.direction_of(piece).map_or(u8::MAX, Direction::code));
            at.push(piece);
        }
        codes
    };
    let mut solutions = Vec::new();
    let mut kept: Vec<Subtree> = Vec::new();
    let mut kept_at: HashMap<(Position, usize), usize> = HashMap::new();
    for item in items {
        match item.kind {
            Kind::Solution(moves) => solutions.push(Kind::Solution(moves)),
            Kind::Subtree(subtree) => match kept_at.entry((subtree.root, subtree.path.len())) {
                Entry::Occupied(i) => {
                    let other = &mut kept[*i.get()];
                    if spelled(&subtree.path) < spelled(&other.path) {
                        *other = subtree;
                    }
                }
                Entry::Vacant(slot) => {
                    slot.insert(kept.len());
                    kept.push(subtree);
                }
            },
        }
    }
    let closeness = |subtree: &Subtree| {
        let tables = match subtree.values {
            Kept::Tables(values) => half_sum(values[0]) + half_sum(values[1]),
            kept => kept
                .estimate()
                .unwrap_or_else(|| heuristic.estimate(&subtree.root)),
        };
        (tables, subtree.root.manhattan())
    };
    kept.sort_by_cached_key(closeness);
    let subtrees = kept.into_iter().map(Kind::Subtree);
    solutions
        .into_iter()
        .chain(subtrees)
        .map(|kind| Item {
            before: above,
            kind,
        })
        .collect()
}

/// Searches a cut's `items`, below the walk that met them with `above` nodes and cut off
/// `next` at least, on `threads` threads (this one among them): `search(worker, subtree)`
/// searches below a subtree's root (its solutions from there; `path(subtree)` leads to it from
/// the start), each thread with a `worker` of its own. Each subtree's nodes are told to `live`
/// as it is searched, and to `stop`, which ends the search early (`None`). Returns one
/// thread's answer ([`merge`]): its nodes and solutions from the start, and the least `g + h`
/// cut off by the walk or any subtree.
pub fn search_cut<S: Sync, W>(
    (above, next, items): (u64, u32, &[Item<S>]),
    ((threads, all), live, stop): ((usize, bool), Option<&Live>, Option<&Stop>),
    worker: &(dyn Fn() -> W + Sync),
    search: &(dyn Fn(&mut W, &S) -> Pass + Sync),
    path: fn(&S) -> &[u8],
) -> Option<Pass> {
    if let Some(stop) = stop {
        stop.spend(above);
    }
    // The earliest item known to hold a solution: no item after it is started.
    let first = items
        .iter()
        .position(|i| matches!(i.kind, Kind::Solution(_)))
        .filter(|_| !all)
        .unwrap_or(usize::MAX);
    let next = AtomicU32::new(next);
    let results = search_items(
        items.len(),
        first,
        (threads, live, stop),
        all,
        worker,
        &|w, i| match &items[i].kind {
            Kind::Subtree(subtree) => {
                let found = search(w, subtree);
                next.fetch_min(found.next, Ordering::SeqCst);
                let solutions = found
                    .solutions
                    .into_iter()
                    .map(|moves| [path(subtree), &moves].concat())
                    .collect();
                Found {
                    nodes: found.nodes,
                    solutions,
                }
            }
            Kind::Solution(moves) => Found {
                nodes: 0,
                solutions: vec![moves.clone()],
            },
        },
    );
    // Every item up to the first with a solution was searched (no thread passes `first`),
    // unless the search was stopped.
    let befores = items.iter().map(|item| item.before);
    let merged = merge(above, befores.zip(results), all);
    debug_assert!(
        merged.is_ok() || stop.is_some_and(Stop::raised),
        "an item before the answer was not searched"
    );
    let merged = merged.ok()?;
    Some(Pass {
        nodes: merged.nodes,
        next: next.into_inner(),
        solutions: merged.solutions,
    })
}

/// Searches `subtree` as `engine.search` does (the same nodes and solutions, the moves from
/// its root), but cut into pieces searched one after the other, the `stop` looked at between
/// them: `None` when it stopped the search (the nodes spent told to it). The pieces' sizes are
/// not known before: each is cut again unless the one before it at its depth took fewer than
/// [`Stop::EVERY`] times 64 nodes (about 4 million), so that no piece much longer than that
/// runs between two looks, whatever the subtree's size, at the price of a few thousand nodes
/// of cuts a subtree.
pub fn search_stopping<E: Splittable>(
    engine: &E,
    heuristic: &Heuristic,
    subtree: &Subtree,
    all: bool,
    stop: &Stop,
) -> Option<Found> {
    let mut worker = engine.worker();
    let mut found = pieces(engine, heuristic, &mut worker, subtree, all, stop)?;
    let skip = subtree.path.len();
    for moves in &mut found.solutions {
        moves.drain(..skip.min(moves.len()));
    }
    Some(found)
}

/// Pieces a subtree is cut into at each depth of [`search_stopping`].
const PIECES: usize = 8;

/// [`search_stopping`]'s pieces of `subtree` (solutions as moves from the start).
fn pieces<E: Splittable>(
    engine: &E,
    heuristic: &Heuristic,
    worker: &mut E::Worker,
    subtree: &Subtree,
    all: bool,
    stop: &Stop,
) -> Option<Found> {
    if stop.should_stop(0) {
        return None;
    }
    let came = Some(subtree.came);
    let (above, items) = cut_below(engine, heuristic, subtree, came, PIECES, &|_| 0);
    stop.spend(above);
    let mut results = Vec::with_capacity(items.len());
    // The nodes of the piece before at this depth: a small one is followed by a whole one.
    let mut before: Option<u64> = None;
    for item in &items {
        let found = match &item.kind {
            Kind::Solution(moves) => Found {
                nodes: 0,
                solutions: vec![moves.clone()],
            },
            Kind::Subtree(piece) if before.is_some_and(|n| n < Stop::EVERY * 64) => {
                if stop.should_stop(0) {
                    return None;
                }
                let mut found = engine.search(worker, piece, all);
                stop.spend(found.nodes);
                for moves in &mut found.solutions {
                    let mut whole = piece.path.clone();
                    whole.append(moves);
                    *moves = whole;
                }
                found
            }
            Kind::Subtree(piece) => pieces(engine, heuristic, worker, piece, all, stop)?,
        };
        before = Some(found.nodes);
        let solved = !found.solutions.is_empty();
        results.push((item.before, Some(found)));
        if solved && !all {
            break;
        }
    }
    merge(above, results, all).ok()
}

/// Searches `count` items of a cut on `threads` threads (this one among them), taking them in
/// list order, each thread with a `worker` of its own: `search(worker, i)` is item `i`'s
/// result, told to `live` as it comes. Unless `all`, no item after the earliest one known to
/// hold a solution (`first` at the start, `usize::MAX` for none) is started; and none once
/// `stop` says so (each item's nodes are told to it, and an item whose search ended after the
/// stop was raised is left out: the reference engines end theirs early). Returns each item's
/// result, `None` for the items not searched.
pub fn search_items<W>(
    count: usize,
    first: usize,
    (threads, live, stop): (usize, Option<&Live>, Option<&Stop>),
    all: bool,
    worker: &(dyn Fn() -> W + Sync),
    search: &(dyn Fn(&mut W, usize) -> Found + Sync),
) -> Vec<Option<Found>> {
    let first = AtomicUsize::new(first);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Found>>> = Mutex::new(vec![None; count]);
    if let Some(live) = live {
        live.split(count);
    }
    let work = || {
        let mut worker = worker();
        loop {
            if stop.is_some_and(|stop| stop.should_stop(0)) {
                break;
            }
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= count || i > first.load(Ordering::SeqCst) {
                break;
            }
            let found = search(&mut worker, i);
            if let Some(stop) = stop {
                stop.spend(found.nodes);
                if stop.raised() {
                    break;
                }
            }
            if let Some(live) = live {
                live.searched(found.nodes);
            }
            if !all && !found.solutions.is_empty() {
                first.fetch_min(i, Ordering::SeqCst);
            }
            if let Ok(mut results) = results.lock() {
                results[i] = Some(found);
            }
        }
    };
    // Plain scoped threads, this one among them: a bound is split only when it is worth
    // milliseconds, so starting threads costs little, and every thread surely works from the
    // start (a pool's sleeping workers may wake too late to take a share).
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(work);
        }
        work();
    });
    results.into_inner().unwrap_or_default()
}

/// The bound's answer as one thread finds it, from the nodes `above` the cut and, for each item
/// in list order, its `before` and its result (its solutions from the start): every solution
/// (`all`), or the first, with the nodes up to it. An item whose result is missing where one
/// thread would have searched it is the error (its index).
pub fn merge(
    above: u64,
    items: impl IntoIterator<Item = (u64, Option<Found>)>,
    all: bool,
) -> Result<Found, usize> {
    // The subtrees' nodes, item by item in one thread's order.
    let mut below = 0;
    let mut solutions = Vec::new();
    for (i, (before, found)) in items.into_iter().enumerate() {
        let found = found.ok_or(i)?;
        if !all && !found.solutions.is_empty() {
            // One thread stops here: the nodes above the cut after this item, and the
            // subtrees after it that other threads had started, were never generated.
            return Ok(Found {
                nodes: before + below + found.nodes,
                solutions: found.solutions.into_iter().take(1).collect(),
            });
        }
        below += found.nodes;
        solutions.extend(found.solutions);
    }
    Ok(Found {
        nodes: above + below,
        solutions,
    })
}
