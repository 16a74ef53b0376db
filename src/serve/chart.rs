//! The chart of a `fifteen compare` run on one position: this very binary run as
//! `fifteen compare --repeat=1 --threads=1 --plot=FILE ...` with the request's fields (a child
//! process: the chart is `src/plot`'s, drawn by the command that draws it), killed as soon as
//! the request's stop is raised (its client gone) or its time limit passes. Invariant: the
//! chart is read only from a run that ended with status 0, and its file is removed.

use super::search::{Config, Refusal, Request};
use crate::engine::Stop;
use axum::http::StatusCode;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wait_timeout::ChildExt;

/// The SVG chart of `compare` on `request`'s position (every engine of its metric, one timed
/// run each), or the refusal: the command's line (400 for bad input), or the stop's (503).
pub fn chart(config: &Config, request: &Request, stop: Arc<Stop>) -> Result<String, Refusal> {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let run = RUNS.fetch_add(1, Ordering::SeqCst);
    let file = std::env::temp_dir().join(format!("fifteen-serve-{}-{run}.svg", std::process::id()));
    let answer = compare(config, request, &stop, &file);
    let _ = std::fs::remove_file(&file);
    answer
}

fn compare(
    config: &Config,
    request: &Request,
    stop: &Stop,
    file: &std::path::Path,
) -> Result<String, Refusal> {
    let program = std::env::current_exe()
        .map_err(|error| Refusal::internal(&format!("cannot find the binary: {error}")))?;
    let mut child = Command::new(program)
        .args(["compare", "--repeat=1", "--threads=1"])
        .arg(format!("--plot={}", file.display()))
        .args(request.options(config))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| Refusal::internal(&format!("cannot run compare: {error}")))?;
    let status = loop {
        match child.wait_timeout(Duration::from_millis(50)) {
            Ok(Some(status)) => break status,
            Ok(None) if stop.should_stop(0) => {
                let _ = child.kill();
                let _ = child.wait();
                let cause = stop
                    .cause()
                    .map_or(String::new(), |cause| cause.to_string());
                return Err(Refusal {
                    status: StatusCode::SERVICE_UNAVAILABLE,
                    line: format!("compare stopped by {cause}"),
                });
            }
            Ok(None) => {}
            Err(error) => return Err(Refusal::internal(&error.to_string())),
        }
    };
    if status.success() {
        return std::fs::read_to_string(file)
            .map_err(|error| Refusal::internal(&format!("cannot read the chart: {error}")));
    }
    let mut said = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut said);
    }
    let line = said.lines().next().unwrap_or("compare failed").to_string();
    Err(match status.code() {
        Some(2) => Refusal::bad(line),
        _ => Refusal::internal(&line),
    })
}
