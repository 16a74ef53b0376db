//! Tables kept for the life of the process: a process that solves many things (the Python
//! package, a Dask worker) reads each table once and shares it between its threads and calls,
//! rather than once a call.
//!
//! Invariant: nothing is kept until [`keep_tables`] is called, so the command line, which
//! solves once per process, reads its tables as before; once it is, heuristics are resolved
//! one at a time ([`loading`]), so threads that ask at once share one copy; a kept heuristic
//! with a damaged block is never handed out again (the caller reads the tables anew, whole).

use crate::board::Board;
use crate::heuristic::store::Choice;
use crate::heuristic::Heuristic;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Which heuristic: its tables' directory (resolved: `--tables`, `$FIFTEEN_TABLES` or the
/// cache), the choice and the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub dir: Option<PathBuf>,
    pub choice: Choice,
    pub board: Board,
}

/// The kept heuristics by key and by whether their tables were read a block at a time.
type Kept = Mutex<HashMap<(Key, bool), Heuristic>>;

static KEPT: OnceLock<Kept> = OnceLock::new();

/// How many heuristics were read from their files (or built) and kept: with the sharing, once
/// per key however many threads asked for it at once.
static READS: AtomicUsize = AtomicUsize::new(0);

/// Held while a heuristic is resolved for keeping, so that threads asking for the same tables
/// at once read them once: the first reads, the others then find them kept.
static LOADING: Mutex<()> = Mutex::new(());

/// One resolution at a time while tables are kept (`None`: nothing is kept, nothing waits).
pub fn loading() -> Option<std::sync::MutexGuard<'static, ()>> {
    KEPT.get()?;
    Some(
        LOADING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    )
}

/// From now on, every heuristic resolved is kept for the rest of the process.
pub fn keep_tables() {
    KEPT.get_or_init(Kept::default);
}

/// The kept heuristic of `key`: one read whole serves every caller; one read `lazy`ly serves
/// the callers that read lazily too.
pub fn get(key: &Key, lazy: bool) -> Option<Heuristic> {
    let kept = KEPT.get()?.lock().ok()?;
    let whole = kept.get(&(key.clone(), false));
    let found = whole.or_else(|| lazy.then(|| kept.get(&(key.clone(), true))).flatten())?;
    found.damage().is_none().then(|| found.clone())
}

/// Keeps `heuristic` under `key` if tables are kept at all.
pub fn put(key: Key, lazy: bool, heuristic: &Heuristic) {
    if let Some(Ok(mut kept)) = KEPT.get().map(Mutex::lock) {
        kept.insert((key, lazy), heuristic.clone());
        READS.fetch_add(1, Ordering::Relaxed);
    }
}

/// How many heuristics this process has read (or built) and kept so far: a copy each. Tests
/// of the sharing read it (the Python package's `_core._tables_read`).
pub fn reads() -> usize {
    READS.load(Ordering::Relaxed)
}
