//! `fifteen serve` over loopback: the real binary on a free port (`--port 0`, its URL read from
//! its first line), asked over plain HTTP/1.1 by a small client of std's sockets. Its answers
//! must be `fifteen solve --json`'s (the same lengths and moves as the binary run for the same
//! position), its refusals the CLI's one line with status 400 (413 for a body over the limit),
//! and a search whose client goes away must stop (`/api/stats` counts the running ones).
//! The page is checked in headless Chromium where it is installed (under CI it must be):
//! `page.rs`, driven over the DevTools protocol (`devtools.rs`).

#[path = "../common/mod.rs"]
mod common;
mod devtools;
mod page;
mod server;

use server::Server;
use std::io::Read;
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// `fifteen solve --json ARGS`'s object.
pub fn solved(args: &[&str]) -> serde_json::Value {
    let (_, stdout, stderr) = common::run(&[&["solve", "--json"], args].concat());
    serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{args:?}: {stdout}{stderr}"))
}

/// 3x3 positions, the last one of the two 31-movers.
pub const EIGHTS: [&str; 3] = ["123456708", "436718052", "867254301"];

#[test]
fn solve_answers_as_the_command_line() {
    let server = Server::start(&[]);
    for position in EIGHTS {
        for metric in ["stm", "mtm"] {
            let cli = solved(&["--metric", metric, position]);
            let got = server.json(&format!("/api/solve?position={position}&metric={metric}"));
            let body = format!(r#"{{"position": "{position}", "metric": "{metric}"}}"#);
            let (status, posted) = server.request("POST", "/api/solve", body.as_bytes());
            assert_eq!(status, 200, "{posted}");
            let posted: serde_json::Value = serde_json::from_str(&posted).expect("JSON");
            for field in [
                "position",
                "board",
                "length",
                "moves",
                "blank_moves",
                "heuristic",
            ] {
                assert_eq!(got[field], cli[field], "{position} {metric} {field}");
                assert_eq!(posted[field], cli[field], "{position} {metric} {field}");
            }
        }
    }
}

/// Checks `/api/hints` of `position` against `fifteen solve` in both metrics: the distance,
/// and each move's child's distance (exact, or in MTM at least the position's where its search
/// was stopped) and whether it is optimal. Returns an optimal child in STM (the goal itself at
/// the goal).
fn check_hints(server: &Server, position: &str) -> String {
    let hints = server.json(&format!("/api/hints?position={position}"));
    for metric in ["stm", "mtm"] {
        let length = |p: &str| solved(&["--metric", metric, p])["length"].clone();
        let distance = &hints[metric]["distance"];
        assert_eq!(*distance, length(position), "{position} {metric}");
        let moves = hints[metric]["moves"].as_array().expect("moves");
        if *distance == 0 {
            // The goal: nothing to hint.
            assert!(moves.is_empty(), "{hints}");
            return position.to_string();
        }
        assert!(moves.len() >= 2, "{hints}");
        for hint in moves {
            let child = hint["position"].as_str().expect("a position");
            let exact = length(child);
            if hint["distance"].is_null() {
                // Stopped once farther than the nearest child: only in MTM, where a move may
                // leave the distance as it is.
                assert_eq!(metric, "mtm", "{hint}");
                assert_eq!(hint["at_least"], *distance, "{hint}");
                assert!(exact.as_u64() >= distance.as_u64(), "{hint}: {exact}");
            } else {
                assert_eq!(hint["distance"], exact, "{child} {metric}");
            }
            let optimal = exact.as_u64().map(|d| d + 1) == distance.as_u64();
            assert_eq!(hint["optimal"], optimal, "{hint}");
        }
        assert!(moves.iter().any(|hint| hint["optimal"] == true), "{hints}");
    }
    let moves = hints["stm"]["moves"].as_array().expect("moves");
    let optimal = moves.iter().find(|hint| hint["optimal"] == true);
    let child = optimal.and_then(|hint| hint["position"].as_str());
    child.expect("an optimal move").to_string()
}

#[test]
fn hints_give_both_distances_and_the_optimal_moves() {
    let server = Server::start(&[]);
    for position in EIGHTS {
        // The child played next has a distance known to the server: its hints start from it.
        let child = check_hints(&server, position);
        check_hints(&server, &child);
        check_hints(&server, position);
    }
    // A 4x4 position whose MTM children are at three distances (28, 29 and 30 moves).
    check_hints(&server, "4591ab07f32c6d8e");
    // Toward a goal whose blank is in the middle, in both metrics.
    let toward = server.json(&format!("/api/hints?position={}&goal=123405678", EIGHTS[1]));
    for metric in ["stm", "mtm"] {
        let cli = solved(&["--metric", metric, "--goal", "123405678", EIGHTS[1]]);
        assert_eq!(
            toward[metric]["distance"], cli["length"],
            "{metric}: {toward}"
        );
    }
    let goal = server.json("/api/hints?position=123456780");
    assert_eq!(goal["stm"]["distance"], 0);
    assert_eq!(goal["mtm"]["distance"], 0);
    let unsolvable = server.json("/api/hints?position=213456780");
    assert_eq!(unsolvable["solvable"], false);
}

#[test]
fn bad_input_gets_400_and_the_command_lines_line() {
    let server = Server::start(&[]);
    for position in ["12345678", "1234567890", "11345678"] {
        let line = common::refused(&["solve", position]);
        for path in ["/api/solve", "/api/hints", "/api/solve?metric=mtm&"] {
            let separator = if path.ends_with('&') { "" } else { "?" };
            let (status, body) = server.get(&format!("{path}{separator}position={position}"));
            assert_eq!((status, body.as_str()), (400, line.as_str()), "{path}");
        }
    }
    let line = common::refused(&["solve", "--goal", "12", "123456780"]);
    let (status, body) = server.get("/api/hints?position=123456780&goal=12");
    assert_eq!((status, body.as_str()), (400, line.as_str()));
    let (status, body) = server.request("POST", "/api/solve", br#"{"position": "1234"#);
    assert_eq!(status, 400);
    assert!(
        body.starts_with("bad JSON: ") && body.lines().count() == 1,
        "{body}"
    );
    let (status, body) = server.request("POST", "/api/solve", br#"{"puzzle": "1234"}"#);
    assert_eq!(status, 400);
    assert!(body.contains("unknown field `puzzle`"), "{body}");
    let (status, _) = server.request("POST", "/api/solve", &vec![b' '; 64 * 1024]);
    assert_eq!(status, 413);
    let (status, body) = server.get("/api/scramble?size=9x9");
    assert_eq!(status, 400, "{body}");
}

#[test]
fn bad_input_is_refused_without_waiting_for_a_search_to_end() {
    let server = Server::start(&[]);
    // Every permit of the small boards' lane taken by a search that takes far longer than
    // any test (Manhattan distance on the transposition), and one more waiting.
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let path = "/api/solve?heuristic=manhattan&position=159d26ae37bf48c0";
    let busy: Vec<TcpStream> = (0..=cores).map(|_| server.send("GET", path, b"")).collect();
    let since = Instant::now();
    while server.running() < cores as u64 && since.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.running(), cores as u64);
    let line = common::refused(&["solve", "12345678"]);
    for path in ["/api/solve", "/api/hints"] {
        let since = Instant::now();
        let (status, body) = server.get(&format!("{path}?position=12345678"));
        assert_eq!((status, body.as_str()), (400, line.as_str()), "{path}");
        let waited = since.elapsed();
        assert!(waited < Duration::from_secs(2), "{path}: {waited:?}");
    }
    let (_, events) = server.get("/api/stream?position=12345678");
    assert!(
        events.contains(&format!("data: 400 {}", line.trim())),
        "{events}"
    );
    drop(busy);
    until_idle(&server);
}

#[test]
fn scramble_draws_solvable_positions_of_the_board() {
    let server = Server::start(&[]);
    for size in ["3x3", "2x4", "5x5"] {
        let drawn = server.json(&format!("/api/scramble?size={size}"));
        assert_eq!(drawn["board"], size);
        let position = drawn["position"].as_str().expect("a position");
        let read = server.json(&format!("/api/hints?size={size}&position={position}"));
        assert_eq!(
            (&read["position"], &read["solvable"]),
            (&drawn["position"], &true.into())
        );
    }
}

#[test]
fn many_clients_at_once_all_answered() {
    let server = Server::start(&[]);
    let expected: Vec<serde_json::Value> = EIGHTS
        .iter()
        .map(|p| solved(&[p])["length"].clone())
        .collect();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for client in 0..12 {
            let (server, expected) = (&server, &expected);
            scope.spawn(move || {
                for round in 0..8 {
                    if started.elapsed() > Duration::from_secs(60) {
                        break;
                    }
                    let which = (client + round) % EIGHTS.len();
                    let hints = server.json(&format!("/api/hints?position={}", EIGHTS[which]));
                    assert_eq!(hints["stm"]["distance"], expected[which]);
                }
            });
        }
    });
    assert_eq!(server.running(), 0);
}

/// A 5x5 position whose search with Manhattan distance takes far longer than any test.
const HARD: &str = "10,20,0,12,3,17,8,18,5,16,7,24,22,11,4,9,13,21,15,6,19,1,23,14,2";

/// Waits until no search runs; the time it took.
fn until_idle(server: &Server) -> Duration {
    let since = Instant::now();
    while server.running() > 0 && since.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    since.elapsed()
}

#[test]
fn a_client_that_goes_away_stops_its_search() {
    let server = Server::start(&[]);
    for path in ["/api/solve", "/api/stream"] {
        let path = format!("{path}?heuristic=manhattan&position={HARD}");
        let connection = server.send("GET", &path, b"");
        let since = Instant::now();
        while server.running() == 0 && since.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(server.running(), 1, "{path}");
        drop(connection);
        let stopped = until_idle(&server);
        assert!(stopped < Duration::from_secs(2), "{path}: {stopped:?}");
    }
}

#[test]
fn the_time_limit_stops_a_search_and_large_boards_leave_the_small_ones_room() {
    let server = Server::start(&["--time-limit", "3"]);
    // Large searches in the large boards' lane, more than it holds.
    let path = format!("/api/stream?heuristic=manhattan&position={HARD}");
    let streams: Vec<TcpStream> = (0..4).map(|_| server.send("GET", &path, b"")).collect();
    std::thread::sleep(Duration::from_millis(300));
    let since = Instant::now();
    let hints = server.json(&format!("/api/hints?position={}", EIGHTS[2]));
    assert_eq!(hints["stm"]["distance"], 31);
    assert!(
        since.elapsed() < Duration::from_secs(2),
        "{:?}",
        since.elapsed()
    );
    drop(streams);
    until_idle(&server);
    let (status, body) = server.get(&format!("/api/solve?heuristic=manhattan&position={HARD}"));
    assert_eq!(status, 503, "{body}");
    common::assert_lines_start(&body, &["stopped by --time-limit 3 in bound "]);
}

#[test]
fn the_stream_tells_the_bound_lines_then_the_solution() {
    let server = Server::start(&[]);
    let position = EIGHTS[2];
    let mut stream = server.send(
        "GET",
        &format!("/api/stream?position={position}&metric=mtm"),
        b"",
    );
    let mut text = String::new();
    stream.read_to_string(&mut text).expect("the events");
    let (_, stdout, _) = common::run(&["solve", "--metric", "mtm", position]);
    let bounds: Vec<&str> = stdout.lines().filter(|l| l.starts_with(" ... ")).collect();
    let told: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    assert!(!bounds.is_empty());
    assert_eq!(told.len(), bounds.len() + 1, "{text}");
    for (told, line) in told.iter().zip(&bounds) {
        // The same bound, its time aside.
        assert_eq!(told.split(" (").next(), line.split(" (").next());
    }
    let answer: serde_json::Value = serde_json::from_str(told[bounds.len()]).expect("JSON");
    assert_eq!(answer["length"], 20);
    assert!(text.contains("event: solution"), "{text}");
}

#[test]
fn the_chart_is_a_compare_run() {
    let server = Server::start(&[]);
    let (status, svg) = server.get(&format!("/api/chart?position={}", EIGHTS[2]));
    assert_eq!(status, 200, "{svg}");
    let chart = roxmltree::Document::parse(&svg).expect("an SVG document");
    assert_eq!(chart.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = chart.descendants().filter_map(|n| n.text()).collect();
    for engine in ["automaton", "ida", "bfs"] {
        assert!(
            texts.iter().any(|t| t.contains(engine)),
            "{engine}: {texts:?}"
        );
    }
    let line = common::refused(&["compare", "12345678"]);
    let (status, body) = server.get("/api/chart?position=12345678");
    assert_eq!((status, body.as_str()), (400, line.as_str()));
}
