//! Charts as SVG files: a comparison run (`fifteen compare --plot`) and the configurations at
//! each distance of a breadth-first search (`fifteen sliding --levels --plot`).
//!
//! The charts are written by hand rather than with a plotting crate: every mark and bar carries
//! its figures as `data-*` attributes and a `<title>` (the browser shows it on hover, the tests
//! read it back), which plotters' SVG backend has no way to attach. Text is left to the
//! browser's sans-serif font: nothing here reads a font. This module knows nothing of the
//! engines or of the command line; [`svg`] is its drawing layer.

pub mod svg;

use std::path::Path;
use svg::{band_step, escape, grouped, shorten, text_width, Panel, Scale, Svg};

/// One contestant of a comparison: its figures per instance, in the order of [`Runs::instances`]
/// (`None` where it did not run or counted no nodes).
pub struct Series {
    pub name: String,
    pub seconds: Vec<Option<f64>>,
    pub nodes: Vec<Option<u64>>,
}

/// A comparison run: instances and the contestants timed on them.
pub struct Runs {
    pub title: String,
    /// What the times are (`median of 3 timed runs`).
    pub timing: String,
    pub instances: Vec<String>,
    pub series: Vec<Series>,
}

/// Colours a reader with a colour-vision deficiency can still tell apart (Okabe and Ito), and
/// a shape for each, so that even a grey print separates the series.
const COLOURS: [&str; 7] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
];
const SHAPES: usize = 5;

/// The mark of series `series` at (x, y): an element, not yet closed, to which a `<title>` and
/// the closing tag are added.
fn mark(series: usize, (x, y): (f64, f64), attributes: &str) -> String {
    let colour = COLOURS[series % COLOURS.len()];
    let r = 4.0;
    let style = format!("fill=\"{colour}\" fill-opacity=\"0.85\" stroke=\"{colour}\"");
    match series % SHAPES {
        0 => format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r}\" {style} {attributes}>"),
        1 => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" {style} {attributes}>",
            x - r * 0.85,
            y - r * 0.85,
            r * 1.7,
            r * 1.7
        ),
        2 => format!(
            "<path d=\"M{x:.1},{:.1}L{:.1},{:.1}L{:.1},{:.1}Z\" {style} {attributes}>",
            y - r * 1.15,
            x + r,
            y + r * 0.75,
            x - r,
            y + r * 0.75
        ),
        3 => format!(
            "<path d=\"M{x:.1},{:.1}L{:.1},{y:.1}L{x:.1},{:.1}L{:.1},{y:.1}Z\" {style} {attributes}>",
            y - r * 1.2,
            x + r * 1.2,
            y + r * 1.2,
            x - r * 1.2
        ),
        _ => format!(
            "<path d=\"M{x:.1},{:.1}L{:.1},{:.1}L{:.1},{:.1}Z\" {style} {attributes}>",
            y + r * 1.15,
            x + r,
            y - r * 0.75,
            x - r,
            y - r * 0.75
        ),
    }
}

impl Series {
    /// Its time (`nodes` false) or its node count on instance `i`, if it has one.
    fn value(&self, i: usize, nodes: bool) -> Option<f64> {
        if nodes {
            self.nodes.get(i).copied().flatten().map(|v| v as f64)
        } else {
            self.seconds.get(i).copied().flatten()
        }
    }
}

/// The closing tag of a [`mark`].
fn end_of_mark(series: usize) -> &'static str {
    match series % SHAPES {
        0 => "</circle>",
        1 => "</rect>",
        _ => "</path>",
    }
}

/// The chart of a comparison: one panel of seconds and one of nodes (when any contestant
/// counted them), both on log scales, the instances along the bottom sorted by the first
/// contestant's time (fastest first), one mark per instance and contestant, and the legend to
/// the right of the panels.
pub fn runs(runs: &Runs) -> String {
    let n = runs.instances.len();
    let mut order: Vec<usize> = (0..n).collect();
    if let Some(first) = runs.series.first() {
        let key = |i: usize| first.value(i, false).unwrap_or(f64::INFINITY);
        order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
    }
    let with_nodes = runs
        .series
        .iter()
        .any(|s| s.nodes.iter().any(Option::is_some));
    let width = 1000.0;
    let longest_name = runs.series.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let legend_width = (text_width(&"m".repeat(longest_name.min(40)), 12.0) + 40.0).max(120.0);
    let (left, top) = (90.0, 74.0);
    let plot_width = width - left - legend_width - 30.0;
    let band_width = plot_width / n.max(1) as f64;
    // The instances are named under the last panel where there is room, else numbered.
    let named = band_width >= 12.0;
    let longest_label = runs.instances.iter().map(String::len).max().unwrap_or(0);
    let slanted = named && band_width < text_width(&"m".repeat(longest_label), 11.0) + 8.0;
    let below = if slanted {
        text_width(&"m".repeat(longest_label), 10.0) * 0.71 + 50.0
    } else {
        55.0
    };
    let panels = if with_nodes { 2 } else { 1 };
    let panel_height = if with_nodes { 250.0 } else { 380.0 };
    let gap = 30.0;
    let height =
        (top + panels as f64 * panel_height + (panels - 1) as f64 * gap + below + 20.0).ceil();
    let mut svg = Svg::new(width, height, &runs.title);
    svg.text(
        (left, 28.0),
        18.0,
        "font-weight=\"bold\" class=\"title\"",
        &shorten(&runs.title, 80),
    );
    let first = runs.series.first().map_or("", |s| s.name.as_str());
    svg.text(
        (left, 50.0),
        12.0,
        "fill=\"#444\" class=\"subtitle\"",
        &shorten(
            &format!(
                "{n} instances, sorted by {first}'s time; {}; log scales",
                runs.timing
            ),
            120,
        ),
    );
    for panel_index in 0..panels {
        let nodes = panel_index == 1;
        let values = runs
            .series
            .iter()
            .flat_map(|s| (0..n).filter_map(move |i| s.value(i, nodes)));
        let panel = Panel {
            x: left,
            y: top + panel_index as f64 * (panel_height + gap),
            width: plot_width,
            height: panel_height,
            scale: Scale::log(values),
            bands: n,
        };
        let (unit, axis, name) = if nodes {
            ("", "nodes generated", "nodes")
        } else {
            ("s", "seconds", "seconds")
        };
        panel.draw_frame(&mut svg, unit, axis);
        let last = panel_index + 1 == panels;
        let labels: Vec<(usize, String)> = if named {
            (0..n)
                .map(|rank| (rank, runs.instances[order[rank]].clone()))
                .collect()
        } else {
            let step = band_step(band_width, n.to_string().len());
            (0..n)
                .filter(|rank| (rank + 1) % step == 0 || *rank == 0)
                .map(|rank| (rank, (rank + 1).to_string()))
                .collect()
        };
        let axis_label = if named {
            format!("instance (sorted by {first}'s time)")
        } else {
            format!("instance, numbered by {first}'s time")
        };
        if last {
            panel.draw_bands_axis(&mut svg, &labels, slanted, Some(&axis_label));
        } else {
            panel.draw_bands_axis(&mut svg, &[], false, None);
        }
        for (s, series) in runs.series.iter().enumerate() {
            let colour = COLOURS[s % COLOURS.len()];
            let points: Vec<(usize, f64)> = (0..n)
                .filter_map(|rank| {
                    let value = series.value(order[rank], nodes);
                    value.filter(|v| *v > 0.0).map(|v| (rank, v))
                })
                .collect();
            let trace: Vec<String> = points
                .iter()
                .map(|&(rank, v)| format!("{:.1},{:.1}", panel.band_x(rank), panel.value_y(v)))
                .collect();
            svg.raw(&format!(
                "<polyline class=\"trace\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-opacity=\"0.35\"/>\n",
                trace.join(" ")
            ));
            for &(rank, value) in &points {
                let instance = &runs.instances[order[rank]];
                let shown = if nodes {
                    format!("{} nodes", grouped(value as u64))
                } else {
                    format!("{value:.4} s")
                };
                let attributes = format!(
                    "class=\"mark\" data-panel=\"{name}\" data-series=\"{}\" data-instance=\"{}\" data-rank=\"{}\" data-value=\"{value}\"",
                    escape(&series.name),
                    escape(instance),
                    rank + 1
                );
                svg.raw(&mark(
                    s,
                    (panel.band_x(rank), panel.value_y(value)),
                    &attributes,
                ));
                svg.raw(&format!(
                    "<title>{}</title>{}\n",
                    escape(&format!("{instance}, {}: {shown}", series.name)),
                    end_of_mark(s)
                ));
            }
        }
    }
    // The legend, beside the first panel.
    let x = left + plot_width + 25.0;
    svg.raw("<g class=\"legend\">\n");
    for (s, series) in runs.series.iter().enumerate() {
        let y = top + 14.0 + s as f64 * 22.0;
        svg.raw(&format!(
            "<g class=\"legend-entry\" data-series=\"{}\">\n",
            escape(&series.name)
        ));
        svg.raw(&mark(s, (x + 6.0, y - 4.0), ""));
        svg.raw(end_of_mark(s));
        svg.raw("\n");
        let ran = (0..n).any(|i| series.value(i, false).is_some());
        let name = shorten(&series.name, 40);
        let text = if ran {
            name
        } else {
            format!("{name} (no runs)")
        };
        svg.text((x + 18.0, y), 12.0, "", &text);
        svg.raw("</g>\n");
    }
    svg.raw("</g>\n");
    svg.finish()
}

/// The configurations at each distance of a breadth-first search.
pub struct Levels {
    /// The puzzle's title.
    pub title: String,
    /// What was searched (`3 x 4, moves of style 0`).
    pub about: String,
    /// Configurations at distance 0, 1, 2, …
    pub counts: Vec<u64>,
    /// The distance of the solution where the search stopped at one, its levels then those
    /// it completed before; `None` where it went on until nothing new was found, so that the
    /// last level holds the antipodes.
    pub solution: Option<u32>,
}

/// The chart of the level sizes: one bar per distance, on a linear and on a log scale; the
/// title, the total, and (when the search was exhaustive) the farthest distance and its
/// number of configurations, the antipodes.
pub fn levels(levels: &Levels) -> String {
    let n = levels.counts.len();
    let total: u64 = levels.counts.iter().sum();
    let farthest = n.saturating_sub(1);
    let last = levels.counts.last().copied().unwrap_or(0);
    let summary = match levels.solution {
        None => format!(
            "{} configurations; the farthest at distance {farthest}: {} antipode{}",
            grouped(total),
            grouped(last),
            if last == 1 { "" } else { "s" }
        ),
        Some(distance) if n == 0 => {
            format!("no distance completed before the solution at distance {distance}")
        }
        Some(distance) => format!(
            "{} configurations at distances 0 to {farthest}, before the solution at distance {distance}",
            grouped(total)
        ),
    };
    let width = 1000.0;
    let (left, top, panel_height, gap) = (100.0, 80.0, 250.0, 42.0);
    let plot_width = width - left - 40.0;
    let height = top + 2.0 * panel_height + gap + 70.0;
    let title = levels.title.trim();
    let title = title
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(title);
    let mut letters = title.chars();
    let heading = match letters.next() {
        None => "Configurations by distance".to_string(),
        Some(first) => first.to_uppercase().chain(letters).collect(),
    };
    let mut svg = Svg::new(width, height, &heading);
    svg.text(
        (left, 28.0),
        17.0,
        "font-weight=\"bold\" class=\"title\"",
        &shorten(&heading, 90),
    );
    svg.text(
        (left, 50.0),
        12.0,
        "fill=\"#444\" class=\"subtitle\"",
        &shorten(
            &format!("Configurations by distance, {}; {summary}", levels.about),
            140,
        ),
    );
    let band_width = plot_width / n.max(1) as f64;
    let step = band_step(band_width, farthest.to_string().len());
    for (panel_index, log) in [false, true].into_iter().enumerate() {
        let max = levels.counts.iter().copied().max().unwrap_or(1) as f64;
        let scale = if log {
            // From half a configuration, so that a level of one still shows a bar.
            Scale::Log {
                low: -0.3,
                high: max.log10().ceil().max(1.0),
            }
        } else {
            Scale::linear(max)
        };
        let panel = Panel {
            x: left,
            y: top + panel_index as f64 * (panel_height + gap),
            width: plot_width,
            height: panel_height,
            scale,
            bands: n,
        };
        let (name, axis) = if log {
            ("log", "configurations (log scale)")
        } else {
            ("linear", "configurations")
        };
        panel.draw_frame(&mut svg, "", axis);
        let labels: Vec<(usize, String)> = (0..n)
            .filter(|d| d % step == 0)
            .map(|d| (d, d.to_string()))
            .collect();
        let axis_label = (panel_index == 1).then_some("distance (moves from the start)");
        panel.draw_bands_axis(&mut svg, &labels, false, axis_label);
        let bar_width = (band_width * 0.8).max(0.5);
        for (distance, &count) in levels.counts.iter().enumerate() {
            let y = panel.value_y(count as f64);
            svg.raw(&format!(
                "<rect class=\"bar\" data-panel=\"{name}\" data-distance=\"{distance}\" data-count=\"{count}\" x=\"{:.2}\" y=\"{y:.2}\" width=\"{bar_width:.2}\" height=\"{:.2}\" fill=\"{}\"><title>distance {distance}: {} configuration{}</title></rect>\n",
                panel.band_x(distance) - bar_width / 2.0,
                panel.bottom() - y,
                COLOURS[0],
                grouped(count),
                if count == 1 { "" } else { "s" }
            ));
        }
    }
    svg.finish()
}

/// Writes `text` to `path` whole or not at all: to a temporary file beside it, then renamed.
pub fn save(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind, Write};
    if path.is_dir() {
        return Err(Error::from(ErrorKind::IsADirectory));
    }
    let name = path
        .file_name()
        .ok_or_else(|| Error::new(ErrorKind::InvalidInput, "that path names no file"))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(format!(".{}.tmp", std::process::id()));
    let temporary = folder.join(temporary_name);
    let written = std::fs::File::create(&temporary)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}
