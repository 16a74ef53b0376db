//! Partial and several stops: Klotski's classic goal (the big square at the exit, whatever the
//! others do) in styles 0-2, the smaller distance of two stops, every path replaying move by
//! move to a configuration that matches the stop reported, and every malformed stop line
//! refused with its one-line message and exit status 2.

mod common;
mod sliding_path;

use common::run_with_input;
use fifteen::sliding::{self, Outcome, Puzzle, Style};
use sliding_path::solve_and_check;

/// Klotski has 10 blocks: the reference of `sliding_path` serves its superpiece styles too.
const KLOTSKI: &str = include_str!("data/sliding/klotski.txt");

/// Klotski's text with its stop line replaced by `stops`.
fn klotski_with(stops: &[&str]) -> Puzzle {
    let lines: Vec<&str> = KLOTSKI.lines().collect();
    let text = format!(
        "{}\n{}\n",
        lines[..lines.len() - 1].join("\n"),
        stops.join("\n")
    );
    Puzzle::parse(text.as_bytes()).expect("a valid puzzle")
}

#[test]
fn klotskis_partial_goal_takes_116_90_and_81_moves() {
    let puzzle = klotski_with(&["?????????????1*"]);
    for (style, moves) in [(0, 116), (1, 90), (2, 81)] {
        assert_eq!(
            solve_and_check("Klotski", &puzzle, Style(style)),
            (moves, 0)
        );
    }
}

#[test]
fn two_stops_give_the_smaller_distance() {
    // The big square one row down (the two cells above it free), and at the exit.
    let down = "????1*";
    let exit = "?????????????1*";
    for style in [0, 2, 4] {
        let style = Style(style);
        let (near, _) = solve_and_check("Klotski", &klotski_with(&[down]), style);
        let (far, _) = solve_and_check("Klotski", &klotski_with(&[exit]), style);
        assert!(near < far, "style {}: {near} {far}", style.0);
        assert_eq!(
            solve_and_check("Klotski", &klotski_with(&[exit, down]), style),
            (near, 1)
        );
        assert_eq!(
            solve_and_check("Klotski", &klotski_with(&[down, exit]), style),
            (near, 0)
        );
    }
}

#[test]
fn an_unreachable_stop_has_no_solution() {
    // A wall between the piece and the cell the partial stop wants it on.
    let input = "1 x 3 walled\n1 = 1\n1x0\n?x1\n";
    let (status, stdout, _) = run_with_input(&["sliding", "--style", "2"], input);
    assert_eq!(status, 1);
    assert!(
        stdout.ends_with(
        "No solution: none of the 1 configurations reachable from the start (the farthest at distance 0) matches a stopping configuration.\n"
        ),
        "{stdout}"
    );
}

#[test]
fn malformed_stop_lines_are_refused_in_one_line() {
    // Runs the search on `input`, which it must refuse (status 2) with `message` first on
    // stderr: (stdout, stderr).
    let refused = |input: &str, message: &str| {
        let (status, stdout, stderr) = run_with_input(&["sliding", "--style", "0"], input);
        assert_eq!(status, 2, "{input:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!("standard input: {message}")),
            "{input:?}: got {stderr:?}"
        );
        (stdout, stderr)
    };
    let base = "2 x 2 tiny\n1 = 1\n2 = 1/1\n12\n";
    for (stop, message) in [
        ("1?*0", "line 5: a * must end the stopping configuration"),
        ("1*?", "line 5: a * must end the stopping configuration"),
        (
            "11*",
            "line 5: no configuration can match this stop: it names 2 piece(s) 1, but the start has 1",
        ),
        (
            "000*",
            "line 5: no configuration can match this stop: it wants 3 empty cells, but the start has 1",
        ),
        ("x*", "line 5: the dead cells (x) differ"),
        ("1?3", "line 5: the stopping configuration uses piece 3, which is not defined"),
        ("1!", "line 5: bad character '!' in the stopping configuration"),
        ("?????", "line 5: the stopping configuration names more cells than the 4-cell board has"),
    ] {
        let input = format!("{base}{stop}\n");
        let (stdout, stderr) = refused(&input, message);
        assert!(stdout.is_empty(), "{input:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    }
    // Wildcards in the start, and a second stop line with a fault.
    for (input, message) in [
        (
            "2 x 2\n1 = 1\n1?\n1\n",
            "line 3: '?' may only appear in a stopping configuration",
        ),
        (
            "2 x 2\n1 = 1\n1*\n1\n",
            "line 3: '*' may only appear in a stopping configuration",
        ),
        (
            "2 x 2\n1 = 1\n1\n1\n\n0*1\n",
            "line 6: a * must end the stopping configuration",
        ),
    ] {
        refused(input, message);
    }
}

#[test]
fn the_output_names_the_stop_and_draws_the_configuration_reached() {
    let lines: Vec<&str> = KLOTSKI.lines().collect();
    let text = format!(
        "{}\n22223444104\n????1*\n",
        lines[..lines.len() - 1].join("\n")
    );
    let (status, stdout, stderr) = run_with_input(&["sliding", "--style", "2"], &text);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("Stopping configuration 1:\n"), "{stdout}");
    assert!(stdout.contains("Stopping configuration 2:\n"), "{stdout}");
    assert!(stdout.contains(" ? ? ? ?\n"), "{stdout}");
    assert!(
        stdout.contains("... Solution! (stopping configuration 2)"),
        "{stdout}"
    );
    let (_, json, _) = run_with_input(&["sliding", "--style", "2", "--json"], &text);
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(value["stop"], 2);
    let distance = value["distance"].as_u64().expect("a distance");
    assert_eq!(
        value["moves"].as_array().map(Vec::len),
        Some(distance as usize)
    );
    // The drawing of the partial stop reached ends the path: its distance is printed.
    assert!(stdout.contains(&format!("\n{distance}:\n")), "{stdout}");
}

/// The path check is the reference's, not the engine's: a path with a configuration left out
/// (two unit moves made one) or cut short of its stop is refused.
#[test]
fn a_path_with_an_illegal_step_or_the_wrong_end_is_refused() {
    let puzzle = klotski_with(&["?????????????1*"]);
    let style = Style(0);
    let Ok(Outcome::Solved { path, stop, .. }) =
        sliding::solve(&puzzle, style, 1 << 30, &mut |_| {}, &mut |_| {})
    else {
        panic!("klotski is solved");
    };
    let check = |path: Vec<Vec<u64>>| {
        std::panic::catch_unwind(|| sliding_path::check(&puzzle, style, &path, stop))
            .err()
            .and_then(|e| e.downcast_ref::<String>().cloned())
            .unwrap_or_default()
    };
    assert_eq!(check(path.clone()), "");
    let mut skipping = path.clone();
    skipping.remove(path.len() / 2);
    assert!(check(skipping).contains("is not a move of style 0"));
    let short = path[..path.len() - 1].to_vec();
    assert!(check(short).contains("the stop reached"));
}
