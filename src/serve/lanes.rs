//! Where the server's searches run: on blocking threads, each behind a permit of its lane
//! (boards of at most 16 cells, or larger ones), with a stop that is raised when the request
//! that asked for it is dropped. Invariant: a search holds its permit and counts as running
//! exactly while its thread works on it; the counts are what `/api/stats` tells.

use super::search::{Config, Refusal};
use crate::engine::{Cause, Stop};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The state the handlers share.
pub struct Server {
    pub config: Config,
    /// Searches on boards of at most 16 cells: as many at once as the cores.
    small: Arc<Semaphore>,
    /// Searches on larger boards (5x5, 4x5, ...): half the cores, at least one, so that the
    /// small boards' answers always find cores.
    large: Arc<Semaphore>,
    counts: Arc<Counts>,
}

/// Searches running now, and started since the server started.
#[derive(Default)]
pub struct Counts {
    pub running: AtomicUsize,
    pub started: AtomicU64,
}

/// A search counted as running while it lives.
struct Running(Arc<Counts>);

impl Running {
    fn enter(counts: Arc<Counts>) -> Running {
        counts.running.fetch_add(1, Ordering::SeqCst);
        counts.started.fetch_add(1, Ordering::SeqCst);
        Running(counts)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Raises its stop when dropped: held by a request's handler (or its event stream), it stops
/// the search when the client goes away; after the search's end it does nothing.
pub struct CancelOnDrop(pub Arc<Stop>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.raise(Cause::Cancelled);
    }
}

impl Server {
    pub fn new(config: Config) -> Server {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Server {
            config,
            small: Arc::new(Semaphore::new(cores)),
            large: Arc::new(Semaphore::new((cores / 2).max(1))),
            counts: Arc::default(),
        }
    }

    /// A new stop for one request: the server's time limit, and whatever raises it.
    pub fn stop(&self) -> Arc<Stop> {
        let (time, text) = &self.config.time_limit;
        Arc::new(Stop::new(None, Some((*time, text.clone()))))
    }

    /// `job` run on a blocking thread once a permit of its lane (`large`: a board of more than
    /// 16 cells) is free; its result, or a refusal if the thread failed.
    pub async fn run<T: Send + 'static>(
        &self,
        large: bool,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refusal> {
        let lane = if large { &self.large } else { &self.small };
        let permit = lane
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Refusal::internal("the server is shutting down"))?;
        let counts = self.counts.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _running = Running::enter(counts);
            job()
        })
        .await
        .map_err(|error| Refusal::internal(&format!("the search failed: {error}")))
    }

    /// The counts, as `/api/stats` gives them.
    pub fn stats(&self) -> serde_json::Value {
        serde_json::json!({
            "running": self.counts.running.load(Ordering::SeqCst),
            "started": self.counts.started.load(Ordering::SeqCst),
        })
    }
}
