//! One search of the server, as the command line runs it: the request becomes the words of a
//! `fifteen solve --json` command line, read by the CLI's own parser and solved on its own path
//! ([`crate::cli::solve::run_hooked`]), so that an answer has `solve --json`'s fields and a
//! refusal is the CLI's one line. Invariant: nothing a client sends is ever read as an option
//! (each value goes as `--name=value`, the position after `--`).

use crate::cli::solve::{run_hooked, Hooks};
use crate::cli::{Command, Failure, Report};
use crate::engine::Stop;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// What the server adds to every search.
#[derive(Clone, Debug)]
pub struct Config {
    /// The tables' directory (`--tables`), else the command line's default.
    pub tables: Option<PathBuf>,
    /// How long one request may search, and the limit as written (`--time-limit`).
    pub time_limit: (Duration, String),
    /// The distances the hints have found ([`super::hints::Known`]), shared by all requests.
    pub known: Arc<super::hints::Known>,
}

/// A search asked for: `solve`'s position and the options of its command line that a page
/// sets (absent: the command line's default). The same fields come as a query string or a
/// JSON body.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    pub position: String,
    pub metric: Option<String>,
    pub goal: Option<String>,
    pub size: Option<String>,
    pub convention: Option<String>,
    pub heuristic: Option<String>,
}

/// A request not answered: the status and the one line that says why.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: StatusCode,
    pub line: String,
}

impl Refusal {
    pub fn bad(line: impl std::fmt::Display) -> Refusal {
        Refusal {
            status: StatusCode::BAD_REQUEST,
            line: line.to_string(),
        }
    }

    pub fn internal(line: &str) -> Refusal {
        Refusal {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            line: line.to_string(),
        }
    }

    /// A command's failure: bad input is 400, a search stopped (by the time limit, or as its
    /// client left) 503, anything else 500.
    pub fn from_failure(failure: Failure) -> Refusal {
        let (status, line) = match failure {
            Failure::BadInput(line) | Failure::Disagreement(line) | Failure::NoSolution(line) => {
                (StatusCode::BAD_REQUEST, line)
            }
            Failure::Stopped { message, .. } => (StatusCode::SERVICE_UNAVAILABLE, message),
            Failure::Output(error) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()),
        };
        Refusal { status, line }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status, format!("{}\n", self.line)).into_response()
    }
}

impl Request {
    /// The same request for another position.
    pub fn at(&self, position: String, metric: &str) -> Request {
        Request {
            position,
            metric: Some(metric.to_string()),
            ..self.clone()
        }
    }

    /// The words of the `fifteen solve --json` command line that answers it (one thread a
    /// search: the server runs as many searches as it has cores).
    pub fn command_line(&self, config: &Config) -> Vec<String> {
        let mut words: Vec<String> = ["fifteen", "solve", "--json", "--threads=1"]
            .map(String::from)
            .to_vec();
        words.extend(self.options(config));
        words
    }

    /// Its fields as the options of a command line (`solve`'s, `compare`'s), the position last.
    pub fn options(&self, config: &Config) -> Vec<String> {
        let mut words = Vec::new();
        if let Some(dir) = &config.tables {
            words.push(format!("--tables={}", dir.display()));
        }
        let options = [
            ("metric", &self.metric),
            ("goal", &self.goal),
            ("size", &self.size),
            ("convention", &self.convention),
            ("heuristic", &self.heuristic),
        ];
        for (name, value) in options {
            // An empty field is a field left out (a form's empty box).
            if let Some(value) = value.as_deref().filter(|v| !v.trim().is_empty()) {
                words.push(format!("--{name}={value}"));
            }
        }
        words.push("--".into());
        words.push(self.position.clone());
        words
    }

    /// The command line's arguments of `solve`, or the CLI's line refusing them.
    pub fn solve_args(
        &self,
        config: &Config,
    ) -> Result<(crate::cli::solve::SolveArgs, bool), Refusal> {
        let (cli, engine_given) =
            crate::cli::parse_from(&self.command_line(config)).map_err(Refusal::from_failure)?;
        match cli.command {
            Command::Solve(args) => Ok((args, engine_given)),
            _ => Err(Refusal::internal("not a solve command line")),
        }
    }
}

impl Request {
    /// Refuses what `solve` refuses of the request's words, position and goal, as it would,
    /// before any search (no table is read): bad input never waits for a search's turn.
    pub fn check(&self, config: &Config) -> Result<(), Refusal> {
        let (args, _) = self.solve_args(config)?;
        let start = crate::cli::solve::parse_start(&args).map_err(Refusal::from_failure)?;
        let goal = args.goal.read(Some(start.board()), args.board.convention);
        goal.map(drop).map_err(Refusal::from_failure)
    }
}

/// Solves `request` as `fifteen solve --json` does, stopped by `stop`, each bound line given to
/// `bound_line` with its moves as the search finishes its bound: the JSON object (`"solvable": false` for a
/// position without a solution), or the refusal.
pub fn solve(
    config: &Config,
    request: &Request,
    stop: Arc<Stop>,
    bound_line: Option<&mut dyn FnMut(String, u32)>,
) -> Result<serde_json::Value, Refusal> {
    let (args, engine_given) = request.solve_args(config)?;
    let mut out = Vec::new();
    let report = Report {
        out: &mut out,
        live: false,
    };
    let hooks = Hooks {
        stop: Some(stop),
        bound_line,
    };
    match run_hooked(&args, engine_given, report, hooks) {
        // Without a solution, `--json` wrote its object (and the failure has no line).
        Ok(()) | Err(Failure::NoSolution(_)) => serde_json::from_slice(&out)
            .map_err(|error| Refusal::internal(&format!("unreadable report: {error}"))),
        Err(failure) => Err(Refusal::from_failure(failure)),
    }
}

/// The most cells of a small board: its searches take the small boards' lane, and its hints
/// are searched.
pub const SMALL: usize = 16;

/// Whether `request`'s position is on a board of more than [`SMALL`] cells (its search goes to the
/// large boards' lane); a position that does not read is small (its refusal is quick).
pub fn large(request: &Request) -> bool {
    let size = request.size.as_deref().and_then(|s| s.parse().ok());
    crate::position::Position::parse(&request.position, size, Default::default())
        .is_ok_and(|p| p.board().cells() > SMALL)
}
