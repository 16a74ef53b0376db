//! `fifteen serve`: the web page and its JSON API over HTTP (axum on tokio), one process.
//!
//! Every answer comes from the command line's own path: a search is a `fifteen solve --json`
//! command line ([`search`]), so the API's fields are `solve --json`'s and its refusals are the
//! CLI's one line. Invariants: searches run on blocking threads, never on the runtime's, behind
//! two lanes of permits ([`lanes`]: boards of at most 16 cells in one, larger boards in the
//! other, so a 5x5 search never holds up the answers of a 4x4 game); each search has a
//! [`crate::engine::Stop`] that its time limit raises, and that dropping its request raises (a
//! client that goes away stops its search); the tables are read once per process and shared
//! ([`crate::cli::kept`]).

pub mod api;
pub mod chart;
pub mod hints;
pub mod lanes;
pub mod search;

use axum::routing::get;
use std::sync::Arc;

/// The page: one HTML file, its style and script inline (no asset from elsewhere).
pub const PAGE: &str = include_str!("page.html");

/// The largest request body read (a position and a few options fit in far less).
pub const BODY_LIMIT: usize = 16 * 1024;

/// The routes of the server, on `server`'s state.
pub fn router(server: Arc<lanes::Server>) -> axum::Router {
    axum::Router::new()
        .route("/", get(api::page))
        .route("/api/solve", get(api::solve_query).post(api::solve_body))
        .route("/api/stream", get(api::stream))
        .route("/api/hints", get(api::hints))
        .route("/api/chart", get(api::chart))
        .route("/api/scramble", get(api::scramble))
        .route("/api/stats", get(api::stats))
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(server)
}
