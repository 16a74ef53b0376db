//! The handlers: the page, and the JSON API over the searches of [`super::search`] and
//! [`super::hints`]. Invariant: every search is started with a [`CancelOnDrop`] that the
//! handler (or its event stream) holds, so a request dropped by its client stops its search;
//! a refusal is a status and one line of text.

use super::lanes::{CancelOnDrop, Server};
use super::search::{self, Config, Refusal, Request};
use super::{chart, hints};
use crate::engine::Stop;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

/// `GET /`: the page.
pub async fn page() -> Html<&'static str> {
    Html(super::PAGE)
}

/// `GET /api/solve?position=P&metric=M&goal=G&size=RxC&convention=C&heuristic=H`:
/// `solve --json`'s object.
pub async fn solve_query(
    State(server): State<Arc<Server>>,
    Query(request): Query<Request>,
) -> Response {
    solved(server, request).await
}

/// `POST /api/solve` with the same fields as a JSON object.
pub async fn solve_body(State(server): State<Arc<Server>>, body: Bytes) -> Response {
    match serde_json::from_slice::<Request>(&body) {
        Ok(request) => solved(server, request).await,
        Err(error) => Refusal::bad(format!("bad JSON: {error}")).into_response(),
    }
}

/// The answer to `request`, as JSON or as a refusal.
async fn solved(server: Arc<Server>, request: Request) -> Response {
    let solve = |config: &Config, request: &Request, stop: Arc<Stop>| {
        search::solve(config, request, stop, None)
    };
    respond(checked(server, request, solve).await)
}

/// [`searched`], once the request's words, position and goal have read
/// ([`Request::check`]): bad input is refused at once, without waiting for a search's turn.
async fn checked<T: Send + 'static>(
    server: Arc<Server>,
    request: Request,
    job: fn(&Config, &Request, Arc<Stop>) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    request.check(&server.config)?;
    searched(server, request, job).await
}

/// `job`'s answer to `request`, on a blocking thread of its lane, with a stop of its own that
/// is raised if the request is dropped (its client gone).
async fn searched<T: Send + 'static>(
    server: Arc<Server>,
    request: Request,
    job: fn(&Config, &Request, Arc<Stop>) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    let config = server.config.clone();
    let stop = server.stop();
    let _cancel = CancelOnDrop(stop.clone());
    let large = search::large(&request);
    let answer = server
        .run(large, move || job(&config, &request, stop))
        .await;
    answer.and_then(|answer| answer)
}

/// `GET /api/hints?position=P&goal=G&size=RxC&convention=C&heuristic=H`: the distance in both
/// metrics and the moves that keep to an optimal path ([`hints::hints`]).
pub async fn hints(State(server): State<Arc<Server>>, Query(request): Query<Request>) -> Response {
    respond(checked(server, request, hints::hints).await)
}

/// `GET /api/chart?position=P&metric=M&...`: the SVG chart of a `fifteen compare` run of every
/// engine of the metric on the position ([`chart::chart`]).
pub async fn chart(State(server): State<Arc<Server>>, Query(request): Query<Request>) -> Response {
    match searched(server, request, chart::chart).await {
        Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

fn respond(answer: Result<serde_json::Value, Refusal>) -> Response {
    match answer {
        Ok(answer) => Json(answer).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// What a search tells its event stream.
enum Told {
    /// A bound searched to its end without a solution: the line `solve` prints.
    Bound(String),
    /// The end: `solve --json`'s object, or the refusal.
    End(Result<serde_json::Value, Refusal>),
}

/// `GET /api/stream?...` (the fields of `/api/solve`): server-sent events, a `bound` event for
/// each bound line as the search finishes the bound, then `solution` (the JSON object) or
/// `refused` (the status and the line). Closing the stream stops the search.
pub async fn stream(
    State(server): State<Arc<Server>>,
    Query(request): Query<Request>,
) -> Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>> {
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
    let stop = server.stop();
    let cancel = CancelOnDrop(stop.clone());
    let config = server.config.clone();
    let large = search::large(&request);
    tokio::spawn(async move {
        if let Err(refusal) = request.check(&config) {
            let _ = sender.send(Told::End(Err(refusal)));
            return;
        }
        let bounds = sender.clone();
        let answer = server
            .run(large, move || {
                let mut tell = |line: String, _| {
                    // A stream already closed has raised the stop: the search ends soon.
                    let _ = bounds.send(Told::Bound(line));
                };
                search::solve(&config, &request, stop, Some(&mut tell))
            })
            .await;
        let _ = sender.send(Told::End(answer.and_then(|answer| answer)));
    });
    let events = tokio_stream::StreamExt::map(
        tokio_stream::wrappers::UnboundedReceiverStream::new(receiver),
        move |told| {
            // The stream holds the stop's guard: dropping the stream stops the search.
            let _held = &cancel;
            Ok(match told {
                Told::Bound(line) => Event::default().event("bound").data(line),
                Told::End(Ok(answer)) => {
                    Event::default().event("solution").data(answer.to_string())
                }
                Told::End(Err(refusal)) => Event::default().event("refused").data(format!(
                    "{} {}",
                    refusal.status.as_u16(),
                    refusal.line
                )),
            })
        },
    );
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_millis(500)))
}

/// `GET /api/scramble?size=RxC&convention=C`: a uniformly random solvable position, as
/// `fifteen scramble` draws them.
pub async fn scramble(Query(request): Query<Request>) -> Response {
    let size = request.size.as_deref().unwrap_or("4x4");
    let board: crate::board::Board = match size.parse() {
        Ok(board) => board,
        Err(error) => return Refusal::bad(error).into_response(),
    };
    let convention = match request.convention.as_deref() {
        None | Some("") | Some("knuth") => crate::position::Convention::Knuth,
        Some("korf") => crate::position::Convention::Korf,
        Some(other) => {
            let line = format!("unknown convention {other:?}: knuth or korf");
            return Refusal::bad(line).into_response();
        }
    };
    let position = crate::random::PositionSource::new(rand::random()).random_solvable(board);
    Json(serde_json::json!({
        "position": position.notation(convention),
        "board": board.to_string(),
    }))
    .into_response()
}

/// `GET /api/stats`: the searches running now and started so far.
pub async fn stats(State(server): State<Arc<Server>>) -> Json<serde_json::Value> {
    Json(server.stats())
}
