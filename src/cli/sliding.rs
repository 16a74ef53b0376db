//! `fifteen sliding --style N [FILE]`: Knuth's SLIDING — shortest solutions of general
//! sliding-block puzzles, printed in the seed's format (or as one JSON object).
//!
//! The puzzle comes from FILE or standard input (no FILE, or `-`); the start and stop boards
//! are drawn, each distance is reported as it completes (flushed once the run is past its
//! first few milliseconds), then `... Solution!` and the path. A write error on standard output
//! stops the search at once (a closed pipe quietly, see [`Failure::Output`]). Cells are named
//! by row and column counted from 1, in the error messages and in the JSON moves alike.

use super::Failure;
use crate::sliding::output::{picture_of_key, picture_of_stop, Progress};
use crate::sliding::{self, format_size, library, Event, Geometry, Halt, Outcome, Puzzle, Style};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct SlidingArgs {
    /// Move style 0-5: one piece one step (0), in a straight line (1), along any path (2);
    /// 3-5 the same for superpieces (sets of pieces moving together).
    /// Needed with --puzzle too: the library's published counts are each in one style (--list).
    #[arg(long, value_name = "N", value_parser = parse_style, required_unless_present_any = ["list", "puzzle"])]
    pub style: Option<u8>,

    /// Print every configuration found, with its number and its predecessor's.
    #[arg(long, conflicts_with_all = ["quiet", "json"])]
    pub verbose: bool,

    /// Print only the distance lines and the result, not the boards.
    #[arg(long, conflicts_with = "json")]
    pub quiet: bool,

    /// Memory budget, e.g. 512M, 2G or a number of bytes (default 2G).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory: Option<u64>,

    /// Print one JSON object (distance, level sizes, moves) instead of text. Each move lists
    /// the blocks it moves with their piece and their `from` and `to` cells as [row, column]
    /// of the block's topmost-leftmost cell, counted from 1 (row 1, column 1 is the top-left
    /// corner), as in the error messages.
    #[arg(long)]
    pub json: bool,

    /// Also print the number of configurations at every completed distance. With this option
    /// the stop line may be left out, to explore everything reachable.
    #[arg(long)]
    pub levels: bool,

    /// With --levels: also draw the configurations per distance as an SVG chart in FILE
    /// (bars on a linear and a log scale), written once the level sizes are out.
    #[arg(long, value_name = "FILE", requires = "levels")]
    pub plot: Option<PathBuf>,

    /// A puzzle of the library (see --list), instead of a file.
    #[arg(long, value_name = "NAME", conflicts_with = "file", value_parser = super::puzzle_names(), hide_possible_values = true)]
    pub puzzle: Option<String>,

    /// List the puzzles of the library: board, goal and the published optimal move counts.
    #[arg(long, conflicts_with_all = ["puzzle", "file", "style", "verbose", "quiet", "json", "levels", "memory", "plot"])]
    pub list: bool,

    /// The puzzle file (SLIDING's format); standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

fn parse_style(text: &str) -> Result<u8, String> {
    text.parse::<u8>()
        .ok()
        .filter(|&s| s <= 5)
        .ok_or_else(|| format!("the style should be between 0 and 5, not {text:?}"))
}

/// Parses a memory size: bytes, or a number with K, M, G or T (powers of 1024; an optional
/// trailing `B` or `iB` is allowed).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("bad memory size {text:?}; write e.g. 512M, 2G or 1000000 (bytes)");
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let number: u64 = digits.parse().map_err(|_| bad())?;
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    let bytes = number
        .checked_shl(shift)
        .filter(|b| b >> shift == number)
        .ok_or_else(bad)?;
    if bytes < 1 << 16 {
        return Err(format!(
            "memory size {text:?} is too small; give at least 64K"
        ));
    }
    Ok(bytes)
}

pub fn run(args: &SlidingArgs) -> Result<(), Failure> {
    if args.list {
        return list();
    }
    let mut text = Vec::new();
    let library = match &args.puzzle {
        Some(name) => Some(library::find(name).ok_or_else(|| {
            let names: Vec<&str> = library::entries().iter().map(|e| e.name).collect();
            Failure::BadInput(format!(
                "there is no puzzle {name:?} in the library; choose one of {}",
                names.join(", ")
            ))
        })?),
        None => None,
    };
    let number = match (args.style, &library) {
        (Some(number), _) => number,
        // The count depends on the style (Klotski: 81, 90 or 116 moves), so none is assumed:
        // the message gives the styles of the published counts.
        (None, Some(entry)) => return Err(Failure::BadInput(style_needed(entry))),
        // clap requires --style without --puzzle.
        (None, None) => return Err(Failure::BadInput("--style N is required (0-5)".into())),
    };
    let style = Style::new(number).ok_or_else(|| {
        Failure::BadInput(format!("the style should be between 0 and 5, not {number}"))
    })?;
    let source = match &args.file {
        _ if library.is_some() => {
            let entry = library.as_ref().map_or("", |e| e.text);
            text = entry.as_bytes().to_vec();
            format!("puzzle {}", library.as_ref().map_or("", |e| e.name))
        }
        Some(path) if path.as_os_str() != "-" => {
            text = std::fs::read(path)
                .map_err(|e| Failure::BadInput(format!("{}: {e}", path.display())))?;
            path.display().to_string()
        }
        _ => {
            std::io::stdin()
                .read_to_end(&mut text)
                .map_err(|e| Failure::BadInput(format!("standard input: {e}")))?;
            "standard input".to_string()
        }
    };
    let puzzle = Puzzle::parse_with(&text, args.levels)
        .map_err(|e| Failure::BadInput(format!("{source}: {e}")))?;
    let geometry = Geometry::new(&puzzle);
    let memory = args.memory.unwrap_or(sliding::DEFAULT_MEMORY);
    // Buffered: a short run makes one `write`; `Progress` flushes as distances complete. Every
    // path out of here flushes it with `?`: dropping it would lose a write error.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let text_mode = !args.json;
    if text_mode && !args.quiet {
        writeln!(out, "Starting configuration:")?;
        write!(
            out,
            "{}",
            picture_of_key(&geometry, &geometry.key_of(&puzzle.start))
        )?;
        for (i, stop) in puzzle.stops.iter().enumerate() {
            if puzzle.stops.len() == 1 {
                writeln!(out, "\nStopping configuration:")?;
            } else {
                writeln!(out, "\nStopping configuration {}:", i + 1)?;
            }
            write!(out, "{}", picture_of_stop(&geometry, stop))?;
        }
        writeln!(out, "\n(using moves of style {})", style.0)?;
    }
    let mut progress = Progress::new(&geometry, args.verbose, &mut out);
    // The sizes of the completed distances, for the report of a search stopped by --memory.
    let mut completed = Vec::new();
    let mut bar = Bar::new(!args.verbose && std::io::stderr().is_terminal());
    // A write error stops the search: its output is gone.
    let mut observer = |event: Event| -> ControlFlow<std::io::Error> {
        bar.event(&event);
        if let Event::LevelDone { size, .. } = event {
            completed.push(size);
        }
        if text_mode {
            // Output reaches the terminal as distances complete: the bar steps aside then.
            let written = if matches!(event, Event::LevelDone { .. }) {
                bar.suspend(|| progress.event(event))
            } else {
                progress.event(event)
            };
            if let Err(error) = written {
                return ControlFlow::Break(error);
            }
        }
        ControlFlow::Continue(())
    };
    let mut restarts = Vec::new();
    // A plain tile puzzle's levels come from the enumerator of `fifteen levels`.
    let enumerated = if args.levels && !args.verbose && !args.json {
        super::levels::exhaust(&puzzle, style, memory, &mut observer)
    } else {
        None
    };
    let outcome = match enumerated {
        Some(Ok(outcome)) => Ok(outcome),
        Some(Err(failure)) => {
            bar.finish();
            progress.close_line()?;
            return Err(failure);
        }
        None => sliding::solve_observed(&puzzle, style, memory, &mut observer, &mut |level| {
            restarts.push(level)
        }),
    };
    bar.finish();
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(Halt::Observer(error)) => return Err(Failure::Output(error)),
        Err(Halt::Memory(limit)) => {
            if text_mode {
                progress.close_line()?;
                if !completed.is_empty() {
                    print_levels(&mut out, &completed, "completed")?;
                }
                out.flush()?;
            }
            return Err(Failure::BadInput(limit.to_string()));
        }
    };
    let finished = print_outcome(
        &mut out, args, &puzzle, &geometry, style, &outcome, &restarts,
    );
    let Some(path) = args.plot.as_deref() else {
        return finished;
    };
    let no_solution = match finished {
        Ok(()) => None,
        Err(Failure::NoSolution(message)) => Some(message),
        Err(failure) => return Err(failure),
    };
    let (counts, solution) = match &outcome {
        Outcome::Solved {
            levels, distance, ..
        } => (levels.clone(), Some(*distance)),
        Outcome::Exhausted { levels, .. } => (levels.clone(), None),
    };
    let chart = crate::plot::levels(&crate::plot::Levels {
        title: puzzle.title.clone(),
        about: format!(
            "{} x {}, moves of style {}",
            puzzle.rows, puzzle.cols, style.0
        ),
        counts,
        solution,
    });
    match (super::write_plot(path, &chart), no_solution) {
        (Ok(()), None) => Ok(()),
        (Ok(()), Some(message)) => Err(Failure::NoSolution(message)),
        (Err(failure), message) => {
            // The run's last line still comes out, before the plot's error.
            if let Some(message) = message.filter(|m| !m.is_empty()) {
                writeln!(out, "{message}")?;
                out.flush()?;
            }
            Err(failure)
        }
    }
}

/// Everything after the search: the JSON object, or the solution's path or the count of what
/// is reachable, and the level sizes with `--levels`; flushed.
fn print_outcome(
    out: &mut impl Write,
    args: &SlidingArgs,
    puzzle: &Puzzle,
    geometry: &Geometry,
    style: Style,
    outcome: &Outcome,
    restarts: &[u32],
) -> Result<(), Failure> {
    if args.json {
        let memory = args.memory.unwrap_or(sliding::DEFAULT_MEMORY);
        let report = json_report(puzzle, geometry, style, outcome, memory);
        writeln!(out, "{report}")?;
        out.flush()?;
        return match outcome {
            Outcome::Exhausted { .. } if !puzzle.stops.is_empty() => {
                Err(Failure::NoSolution(String::new()))
            }
            _ => Ok(()),
        };
    }
    match outcome {
        Outcome::Solved {
            distance,
            stop,
            path,
            levels,
            ..
        } => {
            // Which stop was reached, when that is not obvious; and the configuration
            // reached, when it was not drawn at the top.
            let several = puzzle.stops.len() > 1;
            let partial = puzzle.stops.get(*stop).is_some_and(|s| s.is_partial());
            if *distance == 0 {
                writeln!(out, "\nYou're joking: That puzzle is solved in zero moves!")?;
                if several {
                    writeln!(
                        out,
                        "(The start matches stopping configuration {}.)",
                        stop + 1
                    )?;
                }
            } else {
                if several {
                    writeln!(out, "... Solution! (stopping configuration {})", stop + 1)?;
                } else {
                    writeln!(out, "... Solution!")?;
                }
                if !args.quiet {
                    for level in restarts {
                        writeln!(
                            out,
                            "(Unfortunately I've forgotten how to get to level {level},\n\
                             so I had to reconstruct that part.)"
                        )?;
                    }
                    let last = *distance as usize - usize::from(!partial);
                    for d in (1..=last).rev() {
                        write!(out, "\n{d}:\n{}", picture_of_key(geometry, &path[d]))?;
                    }
                }
            }
            if args.levels {
                print_levels(out, levels, "completed")?;
            }
            out.flush()?;
            Ok(())
        }
        Outcome::Exhausted { levels, .. } => {
            let total: u64 = levels.iter().sum();
            let farthest = levels.len().saturating_sub(1);
            if args.levels {
                print_levels(out, levels, "all")?;
            }
            let full = puzzle.stops.len() == 1 && !puzzle.stops[0].is_partial();
            if full {
                out.flush()?;
                Err(Failure::NoSolution(format!(
                    "No solution: the stopping configuration is not among the {total} configurations reachable from the start (the farthest at distance {farthest})."
                )))
            } else if !puzzle.stops.is_empty() {
                out.flush()?;
                Err(Failure::NoSolution(format!(
                    "No solution: none of the {total} configurations reachable from the start (the farthest at distance {farthest}) matches a stopping configuration."
                )))
            } else {
                writeln!(
                    out,
                    "{total} configurations are reachable; the farthest are at distance {farthest}."
                )?;
                out.flush()?;
                Ok(())
            }
        }
    }
}

/// The progress line of a long search on stderr (distance, configurations, memory), shown
/// after its first second and only on a terminal; never with `--verbose`, whose output is a
/// stream of configurations.
struct Bar {
    bar: ProgressBar,
    allowed: bool,
    shown: bool,
    started: Instant,
    distance: u32,
    found: u64,
    memory: u64,
}

impl Bar {
    /// Configurations between updates of the line.
    const EVERY: u64 = 1 << 16;

    fn new(allowed: bool) -> Bar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        Bar {
            bar,
            allowed,
            shown: false,
            started: Instant::now(),
            distance: 0,
            found: 0,
            memory: 0,
        }
    }

    fn event(&mut self, event: &Event) {
        match *event {
            Event::Distance(d) => self.distance = d,
            Event::New { .. } => {
                self.found += 1;
                if !self.found.is_multiple_of(Self::EVERY) {
                    return;
                }
            }
            Event::LevelDone { memory, .. } => self.memory = memory,
            Event::Goal => return,
        }
        if !self.shown && self.allowed && self.started.elapsed() >= Duration::from_secs(1) {
            self.shown = true;
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
        if self.shown {
            self.bar.set_message(format!(
                "distance {}, {} configurations, {} in use",
                self.distance,
                self.found,
                format_size(self.memory)
            ));
        }
    }

    fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        if self.shown {
            self.bar.suspend(f)
        } else {
            f()
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Why `--puzzle NAME` without `--style` is refused, in one line: the published counts and
/// their styles.
fn style_needed(entry: &library::Entry) -> String {
    let counts: Vec<String> = entry
        .published
        .iter()
        .map(|(style, moves)| format!("{moves} moves in style {}", style.0))
        .collect();
    match entry.published.first() {
        None => format!("--puzzle {} needs --style N (0-5)", entry.name),
        Some((first, _)) => format!(
            "--puzzle {} needs --style N (0-5): its published counts are {} (e.g. --style {})",
            entry.name,
            counts.join(", "),
            first.0
        ),
    }
}

/// `--list`: the library, one puzzle a line.
fn list() -> Result<(), Failure> {
    let mut out = super::out();
    let entries = library::entries();
    let width = entries
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "{:width$}  board  goal; published optimal moves (style: moves); other names",
        "name"
    )?;
    for entry in &entries {
        let published: Vec<String> = entry
            .published
            .iter()
            .map(|(style, moves)| format!("{}: {moves}", style.0))
            .collect();
        let published = if published.is_empty() {
            String::new()
        } else {
            format!("; {}", published.join(", "))
        };
        let aliases = if entry.aliases.is_empty() {
            String::new()
        } else {
            format!("; also {}", entry.aliases.join(", "))
        };
        writeln!(
            out,
            "{:width$}  {:>5}  {}{published}{aliases}",
            entry.name,
            format!("{}x{}", entry.rows, entry.cols),
            entry.goal
        )?;
    }
    writeln!(
        out,
        "(fifteen sliding --puzzle NAME --style N; provenance in puzzles/library.tsv)"
    )?;
    drop(out);
    super::finish()
}

/// `Level sizes (WHICH distances 0..d): …` and the total.
pub(super) fn print_levels(
    out: &mut impl Write,
    levels: &[u64],
    which: &str,
) -> std::io::Result<()> {
    let sizes: Vec<String> = levels.iter().map(u64::to_string).collect();
    let total: u64 = levels.iter().sum();
    writeln!(
        out,
        "Level sizes ({which} distances 0..{}): {}",
        levels.len().saturating_sub(1),
        sizes.join(" ")
    )?;
    writeln!(out, "Total: {total} configurations")
}

fn json_report(
    puzzle: &Puzzle,
    geometry: &Geometry,
    style: Style,
    outcome: &Outcome,
    memory: u64,
) -> serde_json::Value {
    let (levels, generated) = match outcome {
        Outcome::Solved {
            levels, generated, ..
        }
        | Outcome::Exhausted { levels, generated } => (levels, generated),
    };
    let mut report = serde_json::json!({
        "title": puzzle.title,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "style": style.0,
        "memory": format_size(memory),
        "levels": levels,
        "configurations": levels.iter().sum::<u64>(),
        "generated": generated,
    });
    match outcome {
        Outcome::Solved {
            distance,
            stop,
            path,
            ..
        } => {
            let moves: Vec<serde_json::Value> = path
                .windows(2)
                .map(|pair| {
                    let blocks =
                        sliding::find_move(geometry, style, &pair[0], &pair[1]).unwrap_or_default();
                    serde_json::json!(blocks
                        .iter()
                        .map(|m| serde_json::json!({
                            "piece": m.piece.to_string(),
                            "from": [m.from.0 + 1, m.from.1 + 1],
                            "to": [m.to.0 + 1, m.to.1 + 1],
                        }))
                        .collect::<Vec<_>>())
                })
                .collect();
            report["solved"] = true.into();
            report["distance"] = (*distance).into();
            report["stop"] = (stop + 1).into();
            report["path"] = path.iter().map(|k| geometry.key_hex(k)).collect();
            report["moves"] = moves.into();
        }
        Outcome::Exhausted { levels, .. } => {
            report["solved"] = false.into();
            report["distance"] = serde_json::Value::Null;
            report["farthest"] = levels.len().saturating_sub(1).into();
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_take_binary_units() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("1000000"), Ok(1_000_000));
        assert!(parse_size("1000").is_err(), "below 64K");
        assert!(parse_size("2X").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("99999999999999T").is_err(), "overflow");
    }
}
