//! `--plot FILE` as a user meets it (issue 32): the SVG charts of `fifteen compare` and of
//! `fifteen sliding --levels`, read back with an XML parser (legend, one mark per instance and
//! engine with the table's figures, axis labels; one bar per distance with its count), and a
//! path that cannot be written: one line on stderr, exit status 2, the table already out.
#![forbid(unsafe_code)]

mod common;

use common::*;
use fifteen::plot::svg::grouped;
use std::collections::{BTreeMap, BTreeSet};

const SEVEN: &str = "tests/data/sliding/levels/seven_puzzle.txt";

/// A fresh path for a chart under the build's scratch directory.
fn chart_path(name: &str) -> std::path::PathBuf {
    let dir = scratch().join("plots");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `fifteen BEFORE --plot PATH AFTER` for a fresh chart `name`, which must succeed: its
/// stdout and the chart's text.
fn plotted(name: &str, before: &[&str], after: &[&str]) -> (String, String) {
    let path = chart_path(name);
    let path = path.to_str().expect("UTF-8 path");
    let (status, stdout, stderr) = run(&[before, &["--plot", path], after].concat());
    assert_eq!(status, 0, "{stderr}");
    let text = std::fs::read_to_string(path).expect("the chart was written");
    (stdout, text)
}

/// The elements of `document` whose `class` is `class`.
fn of_class<'a>(
    document: &'a roxmltree::Document<'a>,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    document
        .descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

/// The text of an element and its children.
fn text_of(node: roxmltree::Node) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

/// Every label of `expected` begins an axis label of `document`.
fn assert_axis_labels(document: &roxmltree::Document, expected: &[&str]) {
    let labels: Vec<String> = of_class(document, "axis-label")
        .into_iter()
        .map(text_of)
        .collect();
    for label in expected {
        assert!(
            labels.iter().any(|l| l.starts_with(label)),
            "{label}: {labels:?}"
        );
    }
}

/// The `<title>` child of a mark or bar.
fn title_of(node: roxmltree::Node) -> String {
    node.children()
        .find(|c| c.has_tag_name("title"))
        .map(text_of)
        .unwrap_or_default()
}

/// The rows of `compare`'s table: (position, engine) -> (seconds as printed, nodes).
fn table_rows(stdout: &str) -> BTreeMap<(String, String), (String, String)> {
    stdout
        .lines()
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter(|line| !line.starts_with('(')) // a note under the table
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            (
                (fields[0].to_string(), fields[1].to_string()),
                (fields[4].to_string(), fields[3].to_string()),
            )
        })
        .collect()
}

#[test]
fn compare_draws_one_mark_per_instance_and_engine_with_the_tables_figures() {
    let (stdout, text) = plotted(
        "compare.svg",
        &[
            "compare",
            "--size",
            "3x3",
            "--random",
            "6",
            "--engines",
            "automaton,ida,bfs",
            "--heuristic",
            "manhattan,8",
            "--repeat",
            "1",
        ],
        &[],
    );
    let table = table_rows(&stdout);
    let engines: BTreeSet<&String> = table.keys().map(|(_, e)| e).collect();
    let positions: BTreeSet<&String> = table.keys().map(|(p, _)| p).collect();
    assert_eq!(engines.len(), 5, "{stdout}");
    assert_eq!(positions.len(), 6, "{stdout}");

    let document = roxmltree::Document::parse(&text).expect("the chart is XML");
    assert!(document.root_element().has_tag_name("svg"));

    // The legend names every engine x heuristic, in the table's order.
    let legend: Vec<String> = of_class(&document, "legend-entry")
        .into_iter()
        .map(|entry| {
            let name = entry.attribute("data-series").expect("data-series");
            assert_eq!(text_of(entry).trim(), name);
            name.to_string()
        })
        .collect();
    let mut in_table: Vec<String> = Vec::new();
    for (_, engine) in table.keys() {
        if !in_table.contains(engine) {
            in_table.push(engine.clone());
        }
    }
    in_table.sort();
    let mut sorted_legend = legend.clone();
    sorted_legend.sort();
    assert_eq!(sorted_legend, in_table);

    // One mark per instance and engine in each panel, carrying the table's figures.
    let marks = of_class(&document, "mark");
    for panel in ["seconds", "nodes"] {
        let mut seen = BTreeSet::new();
        for mark in marks
            .iter()
            .filter(|m| m.attribute("data-panel") == Some(panel))
        {
            let position = mark.attribute("data-instance").expect("data-instance");
            let engine = mark.attribute("data-series").expect("data-series");
            let value: f64 = mark
                .attribute("data-value")
                .and_then(|v| v.parse().ok())
                .expect("a numeric data-value");
            let (seconds, nodes) = &table[&(position.to_string(), engine.to_string())];
            if panel == "seconds" {
                assert_eq!(&format!("{value:.4}"), seconds, "{position} {engine}");
            } else {
                assert_eq!(&format!("{value}"), nodes, "{position} {engine}");
            }
            let title = title_of(*mark);
            assert!(
                title.starts_with(&format!("{position}, {engine}: ")),
                "{title}"
            );
            assert!(
                seen.insert((position, engine)),
                "two marks for {position} {engine}"
            );
        }
        assert_eq!(seen.len(), table.len(), "{panel} panel");
    }

    // The instances are sorted by the first engine's time.
    let first = &legend[0];
    let mut times: Vec<(usize, f64)> = marks
        .iter()
        .filter(|m| m.attribute("data-panel") == Some("seconds"))
        .filter(|m| m.attribute("data-series") == Some(first.as_str()))
        .map(|m| {
            let rank = m.attribute("data-rank").and_then(|r| r.parse().ok());
            let value = m.attribute("data-value").and_then(|v| v.parse().ok());
            (rank.expect("rank"), value.expect("value"))
        })
        .collect();
    times.sort_by_key(|&(rank, _)| rank);
    assert!(times.windows(2).all(|w| w[0].1 <= w[1].1), "{times:?}");

    // Title and axis labels.
    assert_axis_labels(
        &document,
        &["seconds", "nodes generated", "instance (sorted by"],
    );
    assert_eq!(of_class(&document, "title").len(), 1);
}

/// The level sizes `sliding --levels` printed.
fn printed_levels(stdout: &str) -> Vec<u64> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Level sizes"))
        .expect("a level-size line");
    let (_, sizes) = line.split_once("): ").expect("sizes after the colon");
    sizes
        .split_whitespace()
        .map(|s| s.parse().expect("a count"))
        .collect()
}

#[test]
fn levels_draw_one_bar_per_distance_with_its_count() {
    let plain = run(&["sliding", "--style", "0", "--levels", SEVEN]);
    let (stdout, text) = plotted(
        "seven.svg",
        &["sliding", "--style", "0", "--levels"],
        &[SEVEN],
    );
    assert_eq!(stdout, plain.1, "--plot changes nothing on standard output");
    let levels = printed_levels(&stdout);
    assert_eq!(levels.len(), 37);
    assert_eq!(levels.iter().sum::<u64>(), 20_160);

    let document = roxmltree::Document::parse(&text).expect("the chart is XML");
    for panel in ["linear", "log"] {
        let bars: Vec<(usize, u64, String)> = of_class(&document, "bar")
            .into_iter()
            .filter(|b| b.attribute("data-panel") == Some(panel))
            .map(|b| {
                let distance = b.attribute("data-distance").and_then(|d| d.parse().ok());
                let count = b.attribute("data-count").and_then(|c| c.parse().ok());
                (
                    distance.expect("data-distance"),
                    count.expect("data-count"),
                    title_of(b),
                )
            })
            .collect();
        assert_eq!(bars.len(), levels.len(), "{panel}: one bar per distance");
        for (d, (distance, count, title)) in bars.iter().enumerate() {
            assert_eq!((*distance, *count), (d, levels[d]), "{panel}");
            let plural = if *count == 1 { "" } else { "s" };
            assert_eq!(
                title,
                &format!("distance {d}: {} configuration{plural}", grouped(*count)),
            );
        }
    }
    let subtitle = text_of(of_class(&document, "subtitle")[0]);
    assert!(subtitle.contains("20,160 configurations"), "{subtitle}");
    assert!(
        subtitle.contains("the farthest at distance 36: 1 antipode"),
        "{subtitle}"
    );
    let title = text_of(of_class(&document, "title")[0]);
    assert!(title.starts_with("The 7-puzzle"), "{title}");
    assert_axis_labels(
        &document,
        &[
            "configurations",
            "configurations (log scale)",
            "distance (moves from the start)",
        ],
    );
}

#[test]
fn levels_of_a_search_stopped_at_its_solution_say_so() {
    let (stdout, text) = plotted(
        "silly.svg",
        &["sliding", "--style", "2", "--levels", "--quiet"],
        &["tests/data/sliding/silly.txt"],
    );
    let levels = printed_levels(&stdout);
    let document = roxmltree::Document::parse(&text).expect("the chart is XML");
    let bars = of_class(&document, "bar");
    assert_eq!(bars.len(), 2 * levels.len());
    let subtitle = text_of(of_class(&document, "subtitle")[0]);
    assert!(
        subtitle.contains("before the solution at distance 4"),
        "{subtitle}"
    );
    assert!(!subtitle.contains("antipode"), "{subtitle}");
}

#[test]
fn plot_needs_levels() {
    let (status, stdout, stderr) = run(&["sliding", "--style", "0", "--plot", "x.svg", SEVEN]);
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    assert!(stderr.contains("--levels"), "{stderr}");
}

/// Paths no chart can be written to: a directory, and a file below a regular file.
fn bad_paths() -> Vec<(String, &'static str)> {
    let dir = scratch().join("plots-bad");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let file = dir.join("a-file");
    std::fs::write(&file, "").expect("scratch file");
    vec![
        (dir.display().to_string(), "directory"),
        (file.join("x.svg").display().to_string(), "Not a directory"),
    ]
}

#[test]
fn a_plot_that_cannot_be_written_is_one_line_and_status_2_after_the_table() {
    for (path, reason) in bad_paths() {
        // Runs ARGS, whose chart cannot be written: status 2 and one line on stderr naming
        // the path. Its stdout and stderr.
        let unwritten = |args: &[&str]| {
            let (status, stdout, stderr) = run(args);
            assert_eq!(status, 2, "{stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.starts_with(&format!("cannot write the plot {path}: ")),
                "{stderr}"
            );
            (stdout, stderr)
        };
        let (stdout, stderr) = unwritten(&[
            "compare",
            "--engines",
            "automaton",
            "--repeat",
            "1",
            "--plot",
            &path,
            "123456708",
        ]);
        assert!(stdout.starts_with("position"), "{stdout}");
        assert!(stdout.contains("123456708"), "{stdout}");
        assert!(stderr.contains(reason), "{stderr}");

        let plain = run(&["sliding", "--style", "0", "--levels", SEVEN]);
        let (stdout, _) = unwritten(&[
            "sliding", "--style", "0", "--levels", "--plot", &path, SEVEN,
        ]);
        assert_eq!(stdout, plain.1, "the whole text is out");
    }
    // No temporary file is left behind, beside the directory or in it.
    for dir in [scratch().to_path_buf(), scratch().join("plots-bad")] {
        let left: Vec<String> = std::fs::read_dir(&dir)
            .expect("scratch directory")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
